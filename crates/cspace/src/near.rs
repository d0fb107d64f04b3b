//! Which expanded brushes are in range of each other (Listing 1's
//! `in_range`), without storing the pairs.
//!
//! A list of every interacting pair is quadratic in the worst case: 20,000
//! identical cubes are 400 million ordered pairs. [`InRange`] keeps an
//! R-tree (`rstar`) of the brushes' distinct boxes instead, each with the
//! ascending list of the brushes that have exactly that box, and answers
//! one brush at a time; [`Ascending`] hands out that brush's neighbours in
//! index order lazily, merging the lists of the boxes in range through a
//! heap, so the union stage pays only for the neighbours it visits before
//! a face is used up (for identical brushes, the first one). Memory is
//! linear in the number of brushes; time is the number of distinct boxes
//! the R-tree reports plus the neighbours visited, so piles of identical
//! brushes cost no more than one brush each.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use glam::DVec3;
use navscope_core::geom::Aabb;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

use crate::expand::ExpandedBrush;
use crate::polyhedron::EPS;

type Entry = GeomWithData<Rectangle<[f64; 3]>, usize>;

/// The boxes of a list of expanded brushes, indexed for range queries.
pub struct InRange {
    /// The distinct boxes.
    boxes: Vec<Aabb>,
    /// Per distinct box, the brushes with exactly that box, ascending.
    members: Vec<Vec<usize>>,
    /// Per brush, its distinct box.
    group_of: Vec<usize>,
    tree: RTree<Entry>,
}

/// True when two brush boxes touch (within [`EPS`]): Listing 1's `in_range`.
pub(crate) fn touch(a: &Aabb, b: &Aabb) -> bool {
    let grow = DVec3::splat(EPS);
    a.min.cmple(b.max + grow).all() && b.min.cmple(a.max + grow).all()
}

impl InRange {
    /// Indexes the brushes' bounding boxes, identical boxes once.
    pub fn new(brushes: &[ExpandedBrush]) -> Self {
        let mut boxes: Vec<Aabb> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut by_bits: HashMap<[u64; 6], usize> = HashMap::new();
        let group_of = brushes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let bx = b.solid.bounds;
                let [x0, y0, z0] = bx.min.to_array().map(f64::to_bits);
                let [x1, y1, z1] = bx.max.to_array().map(f64::to_bits);
                let g = *by_bits.entry([x0, y0, z0, x1, y1, z1]).or_insert_with(|| {
                    boxes.push(bx);
                    members.push(Vec::new());
                    boxes.len() - 1
                });
                members[g].push(i);
                g
            })
            .collect();
        let entries = boxes
            .iter()
            .enumerate()
            .map(|(g, b)| {
                Entry::new(
                    Rectangle::from_corners(b.min.to_array(), b.max.to_array()),
                    g,
                )
            })
            .collect();
        Self {
            boxes,
            members,
            group_of,
            tree: RTree::bulk_load(entries),
        }
    }

    /// The brushes other than `i` whose boxes touch brush `i`'s, in
    /// ascending index order (lazily).
    pub fn of(&self, i: usize) -> Ascending<'_> {
        let b = self.boxes[self.group_of[i]];
        // A slightly larger query, then the exact test, so rounding in the
        // widened box cannot change the answer.
        let grow = DVec3::splat(2.0 * EPS + 1e-9 * b.max.abs().max(b.min.abs()).max_element());
        let query = AABB::from_corners((b.min - grow).to_array(), (b.max + grow).to_array());
        let mut count = 0;
        let heap: BinaryHeap<Reverse<(usize, usize, usize)>> = self
            .tree
            .locate_in_envelope_intersecting(&query)
            .map(|e| e.data)
            .filter(|&g| touch(&b, &self.boxes[g]))
            .filter_map(|g| {
                let list = &self.members[g];
                count += list.len();
                let first = usize::from(list[0] == i);
                list.get(first).map(|&j| Reverse((j, g, first)))
            })
            .collect();
        Ascending {
            brush: i,
            members: &self.members,
            count: count - 1,
            sorted: Vec::new(),
            heap,
        }
    }
}

/// One brush's neighbours in ascending order, sorted only as far as they
/// have been asked for.
pub struct Ascending<'a> {
    /// The brush whose neighbours these are.
    brush: usize,
    /// [`InRange`]'s lists of brushes per distinct box.
    members: &'a [Vec<usize>],
    count: usize,
    sorted: Vec<usize>,
    /// Per box in range, its next brush: (brush, box, position in the list).
    heap: BinaryHeap<Reverse<(usize, usize, usize)>>,
}

impl Ascending<'_> {
    /// How many neighbours there are.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `k`-th smallest neighbour.
    pub fn get(&mut self, k: usize) -> Option<usize> {
        while self.sorted.len() <= k {
            let Reverse((j, g, at)) = self.heap.pop()?;
            self.sorted.push(j);
            let list = &self.members[g];
            let mut next = at + 1;
            if list.get(next) == Some(&self.brush) {
                next += 1;
            }
            if let Some(&n) = list.get(next) {
                self.heap.push(Reverse((n, g, next)));
            }
        }
        Some(self.sorted[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::box_brush;
    use crate::expand::expand;
    use crate::polyhedron::Polyhedron;
    use crate::test_support::reference_in_range;
    use proptest::prelude::*;

    fn expanded(boxes: &[(DVec3, DVec3)]) -> Vec<ExpandedBrush> {
        boxes
            .iter()
            .enumerate()
            .map(|(i, (a, b))| {
                let p = Polyhedron::from_planes(&box_brush(*a, *b).planes).unwrap();
                expand(i, &p, DVec3::ZERO, true).unwrap()
            })
            .collect()
    }

    fn all(r: &InRange, i: usize) -> Vec<usize> {
        let mut a = r.of(i);
        (0..a.len()).map_while(|k| a.get(k)).collect()
    }

    #[test]
    fn identical_brushes_are_answered_one_at_a_time() {
        let b = expanded(&vec![(DVec3::ZERO, DVec3::ONE); 300]);
        let r = InRange::new(&b);
        let mut first = r.of(7);
        assert_eq!(first.len(), 299);
        assert_eq!(first.get(0), Some(0));
        assert_eq!(first.get(1), Some(1));
        assert_eq!(first.get(2), Some(2));
        // Only what was asked for is sorted; the rest waits in the heap.
        assert_eq!(first.sorted.len(), 3);
        assert_eq!(all(&r, 299), (0..299).collect::<Vec<_>>());
    }

    /// The boxes of `boxes` (grid corner and size, half-metre units).
    fn grid_boxes(boxes: &[(i32, i32, i32, i32, i32, i32)]) -> Vec<(DVec3, DVec3)> {
        boxes
            .iter()
            .map(|&(x, y, z, a, b, c)| {
                let lo = DVec3::new(f64::from(x), f64::from(y), f64::from(z)) * 0.5;
                (
                    lo,
                    lo + DVec3::new(f64::from(a), f64::from(b), f64::from(c)) * 0.5,
                )
            })
            .collect()
    }

    /// Checks every brush's neighbours against testing every pair.
    fn assert_every_pair(list: &[(DVec3, DVec3)]) -> Result<(), TestCaseError> {
        let b = expanded(list);
        let r = InRange::new(&b);
        for i in 0..b.len() {
            let every_pair = reference_in_range(&b, i);
            prop_assert_eq!(r.of(i).len(), every_pair.len());
            prop_assert_eq!(all(&r, i), every_pair);
        }
        Ok(())
    }

    proptest! {
        /// The R-tree answers what testing every pair answers.
        #[test]
        fn in_range_equals_brute_force(
            boxes in prop::collection::vec((-5i32..5, -5i32..5, -5i32..5, 1i32..4, 1i32..4, 1i32..4), 1..30),
        ) {
            assert_every_pair(&grid_boxes(&boxes))?;
        }

        /// Also when most boxes are identical to others (one R-tree entry
        /// per distinct box, its brushes merged in order).
        #[test]
        fn identical_boxes_equal_brute_force(
            boxes in prop::collection::vec((-2i32..2, 0i32..2, 0i32..1, 1i32..3, 2i32..3, 2i32..3), 1..40),
        ) {
            assert_every_pair(&grid_boxes(&boxes))?;
        }
    }
}
