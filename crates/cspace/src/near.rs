//! Which expanded brushes are in range of each other (Listing 1's
//! `in_range`), without storing the pairs.
//!
//! A list of every interacting pair is quadratic in the worst case: 20,000
//! identical cubes are 400 million ordered pairs. [`InRange`] keeps an
//! R-tree (`rstar`) of the brushes' boxes instead and answers one brush at a
//! time; [`Ascending`] hands out that brush's neighbours in index order
//! lazily, from a heap, so the union stage pays only for the neighbours it
//! visits before a face is used up (for identical brushes, the first one).
//! Memory is linear in the number of brushes; time is the number of pairs
//! the R-tree reports.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::DVec3;
use navscope_core::geom::Aabb;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

use crate::expand::ExpandedBrush;
use crate::polyhedron::EPS;

type Entry = GeomWithData<Rectangle<[f64; 3]>, usize>;

/// The boxes of a list of expanded brushes, indexed for range queries.
pub struct InRange {
    boxes: Vec<Aabb>,
    tree: RTree<Entry>,
}

/// True when two brush boxes touch (within [`EPS`]): Listing 1's `in_range`.
fn touch(a: &Aabb, b: &Aabb) -> bool {
    let grow = DVec3::splat(EPS);
    a.min.cmple(b.max + grow).all() && b.min.cmple(a.max + grow).all()
}

impl InRange {
    /// Indexes the brushes' bounding boxes.
    pub fn new(brushes: &[ExpandedBrush]) -> Self {
        let boxes: Vec<Aabb> = brushes.iter().map(|b| b.solid.bounds).collect();
        let entries = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                Entry::new(
                    Rectangle::from_corners(b.min.to_array(), b.max.to_array()),
                    i,
                )
            })
            .collect();
        Self {
            boxes,
            tree: RTree::bulk_load(entries),
        }
    }

    /// The brushes other than `i` whose boxes touch brush `i`'s, in
    /// ascending index order (lazily).
    pub fn of(&self, i: usize) -> Ascending {
        let b = self.boxes[i];
        // A slightly larger query, then the exact test, so rounding in the
        // widened box cannot change the answer.
        let grow = DVec3::splat(2.0 * EPS + 1e-9 * b.max.abs().max(b.min.abs()).max_element());
        let query = AABB::from_corners((b.min - grow).to_array(), (b.max + grow).to_array());
        let heap: BinaryHeap<Reverse<usize>> = self
            .tree
            .locate_in_envelope_intersecting(&query)
            .map(|e| e.data)
            .filter(|&j| j != i && touch(&b, &self.boxes[j]))
            .map(Reverse)
            .collect();
        Ascending {
            count: heap.len(),
            sorted: Vec::new(),
            heap,
        }
    }
}

/// One brush's neighbours in ascending order, sorted only as far as they
/// have been asked for.
pub struct Ascending {
    count: usize,
    sorted: Vec<usize>,
    heap: BinaryHeap<Reverse<usize>>,
}

impl Ascending {
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
            let Reverse(j) = self.heap.pop()?;
            self.sorted.push(j);
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

    proptest! {
        /// The R-tree answers what testing every pair answers.
        #[test]
        fn in_range_equals_brute_force(
            boxes in prop::collection::vec((-5i32..5, -5i32..5, -5i32..5, 1i32..4, 1i32..4, 1i32..4), 1..30),
        ) {
            let list: Vec<(DVec3, DVec3)> = boxes
                .iter()
                .map(|&(x, y, z, a, b, c)| {
                    let lo = DVec3::new(f64::from(x), f64::from(y), f64::from(z)) * 0.5;
                    (lo, lo + DVec3::new(f64::from(a), f64::from(b), f64::from(c)) * 0.5)
                })
                .collect();
            let b = expanded(&list);
            let r = InRange::new(&b);
            for i in 0..b.len() {
                let brute: Vec<usize> = (0..b.len())
                    .filter(|&j| j != i && touch(&b[i].solid.bounds, &b[j].solid.bounds))
                    .collect();
                prop_assert_eq!(all(&r, i), brute);
            }
        }
    }
}
