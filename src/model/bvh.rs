//! A bounding-volume hierarchy over axis-aligned boxes, for finding what a
//! ray from the cursor may touch without testing every primitive of a
//! stage.
//!
//! Built once per published stage (on the worker thread) by splitting the
//! boxes at the median of their centres along the widest axis, down to
//! leaves of at most [`LEAF`] boxes; a query walks the tree with a stack and
//! reports the boxes the ray passes within a padding of. The padding may
//! grow with the distance along the ray (a pick tolerance in pixels is more
//! world units far from a perspective camera), so each node is tested with
//! the padding at its far end, which keeps the query conservative.

use bevy::math::Vec3;

/// Most boxes in a leaf. A node is 32 bytes and an item's box 6, so with
/// 8 the nodes were most of the hierarchy (12 of 17 MB on a voxel stage of
/// 613,135 columns); 16 halves them for a few more quantized boxes tested
/// per leaf a query reaches.
pub const LEAF: usize = 16;

#[derive(Debug, Clone, Copy)]
struct Node {
    min: Vec3,
    max: Vec3,
    /// Leaf: first item; inner: index of the right child (the left child
    /// follows the node).
    first_or_right: u32,
    /// Items in a leaf; 0 for an inner node.
    count: u32,
}

/// The hierarchy: nodes in depth-first order, the item ids they hold and
/// the items' boxes in the same order (a leaf tests each of its items).
///
/// An item's box is kept as 8-bit fractions of its leaf's box, rounded
/// outwards ([`Quantized`]): 6 bytes instead of 24, on a voxel stage of a
/// million primitives 18 MB less, for a box at most 1/255 of the leaf's
/// size larger on each side, which only lets a few more items through to
/// the exact test.
#[derive(Debug, Clone, Default)]
pub struct Bvh {
    nodes: Vec<Node>,
    items: Vec<u32>,
    boxes: Vec<Quantized>,
}

/// A box as fractions of another (its leaf's): minimum corner rounded
/// down, maximum rounded up, in 255ths.
type Quantized = [u8; 6];

/// Steps of the 8-bit fractions.
const STEPS: f32 = 255.0;

/// `(min, max)` as fractions of the box `lo..hi` that contains it, rounded
/// outwards.
fn quantize((min, max): (Vec3, Vec3), lo: Vec3, hi: Vec3) -> Quantized {
    let ext = hi - lo;
    let frac = |v: f32, k: usize| {
        if ext[k] > 0.0 {
            (v - lo[k]) / ext[k] * STEPS
        } else {
            0.0
        }
    };
    let down = |k: usize| frac(min[k], k).floor().clamp(0.0, STEPS) as u8;
    let up = |k: usize| frac(max[k], k).ceil().clamp(0.0, STEPS) as u8;
    [down(0), down(1), down(2), up(0), up(1), up(2)]
}

/// The box `q` stands for within `lo..hi`, grown by a few units in the
/// last place so that float rounding never makes it smaller than the box
/// it was made from.
fn dequantize(q: &Quantized, lo: Vec3, hi: Vec3) -> (Vec3, Vec3) {
    let ext = hi - lo;
    let at = |a: u8, b: u8, c: u8| lo + ext * Vec3::new(a as f32, b as f32, c as f32) / STEPS;
    let slack = lo.abs().max(hi.abs()) * (8.0 * f32::EPSILON) + Vec3::splat(f32::MIN_POSITIVE);
    (at(q[0], q[1], q[2]) - slack, at(q[3], q[4], q[5]) + slack)
}

impl Bvh {
    /// Builds the hierarchy over `boxes` (minimum and maximum corners);
    /// item `i` is `boxes[i]`. Boxes with a non-finite corner are left out
    /// (they can never be hit).
    pub fn build(boxes: &[(Vec3, Vec3)]) -> Self {
        let mut items: Vec<u32> = (0..boxes.len() as u32)
            .filter(|&i| {
                let (lo, hi) = boxes[i as usize];
                lo.is_finite() && hi.is_finite()
            })
            .collect();
        // A split halves a run of more than `LEAF` items, so every leaf
        // holds at least `LEAF / 2` of them (or is the whole of a run that
        // cannot be split): at most this many nodes, so the vector never
        // grows by doubling (a voxel stage's doubled nodes were 5 MB).
        let mut nodes = Vec::with_capacity(2 * items.len().div_ceil(LEAF / 2) + 1);
        if !items.is_empty() {
            let n = items.len();
            split(boxes, &mut items, 0, n, &mut nodes);
        }
        nodes.shrink_to_fit();
        let mut quantized = vec![[0; 6]; items.len()];
        for leaf in nodes.iter().filter(|n| n.count > 0) {
            let first = leaf.first_or_right as usize;
            for k in first..first + leaf.count as usize {
                quantized[k] = quantize(boxes[items[k] as usize], leaf.min, leaf.max);
            }
        }
        Self {
            nodes,
            items,
            boxes: quantized,
        }
    }

    /// How many boxes it holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when it holds no box.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Calls `visit` with every item whose box, grown by `pad(t)` at the
    /// distance `t` of its far corner, the ray `origin + t·dir` (t ≥ 0)
    /// meets; `pad` must not decrease with `t`. So it never misses an item
    /// the ray passes within `pad` of, and may report a few it passes a
    /// little further from (the padded box is a box, not a rounded one).
    pub fn along_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        pad: impl Fn(f32) -> f32,
        mut visit: impl FnMut(u32),
    ) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let node = self.nodes[i as usize];
            if !padded_hit(origin, dir, &pad, node.min, node.max) {
                continue;
            }
            if node.count > 0 {
                let first = node.first_or_right as usize;
                let run = first..first + node.count as usize;
                for (&item, q) in self.items[run.clone()].iter().zip(&self.boxes[run]) {
                    let (lo, hi) = dequantize(q, node.min, node.max);
                    if padded_hit(origin, dir, &pad, lo, hi) {
                        visit(item);
                    }
                }
            } else {
                stack.push(node.first_or_right);
                stack.push(i + 1);
            }
        }
    }
}

/// True when the ray meets the box grown by the padding at the distance of
/// the box's farthest corner (the most the ray can travel inside it).
fn padded_hit(origin: Vec3, dir: Vec3, pad: &impl Fn(f32) -> f32, min: Vec3, max: Vec3) -> bool {
    let far = (min - origin).abs().max((max - origin).abs()).length();
    let p = Vec3::splat(pad(far).max(0.0));
    ray_meets_box(origin, dir, min - p, max + p)
}

/// Builds the subtree over `items[start..end]`, appending its nodes in
/// depth-first order.
fn split(
    boxes: &[(Vec3, Vec3)],
    items: &mut [u32],
    start: usize,
    end: usize,
    nodes: &mut Vec<Node>,
) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let (mut clo, mut chi) = (lo, hi);
    for &i in &items[start..end] {
        let (a, b) = boxes[i as usize];
        lo = lo.min(a);
        hi = hi.max(b);
        let c = (a + b) * 0.5;
        clo = clo.min(c);
        chi = chi.max(c);
    }
    let at = nodes.len();
    nodes.push(Node {
        min: lo,
        max: hi,
        first_or_right: start as u32,
        count: (end - start) as u32,
    });
    let spread = chi - clo;
    if end - start <= LEAF || spread.max_element() <= 0.0 {
        return;
    }
    let axis = if spread.x >= spread.y && spread.x >= spread.z {
        0
    } else if spread.y >= spread.z {
        1
    } else {
        2
    };
    let mid = (start + end) / 2;
    let centre = |i: &u32| {
        let (a, b) = boxes[*i as usize];
        (a[axis] + b[axis]) * 0.5
    };
    items[start..end].select_nth_unstable_by(mid - start, |a, b| centre(a).total_cmp(&centre(b)));
    nodes[at].count = 0;
    split(boxes, items, start, mid, nodes);
    let right = nodes.len() as u32;
    nodes[at].first_or_right = right;
    split(boxes, items, mid, end, nodes);
}

/// Ray `origin + t·dir`, t ≥ 0, against an axis-aligned box (slab test):
/// the distance to where it enters (0 when it starts inside).
pub fn ray_box(origin: Vec3, dir: Vec3, min: Vec3, max: Vec3) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f32, f32::INFINITY);
    for k in 0..3 {
        let (o, d) = (origin[k], dir[k]);
        if d.abs() < 1e-12 {
            if o < min[k] || o > max[k] {
                return None;
            }
            continue;
        }
        let (mut a, mut b) = ((min[k] - o) / d, (max[k] - o) / d);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        t0 = t0.max(a);
        t1 = t1.min(b);
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

/// True when the ray `origin + t·dir`, t ≥ 0, meets the box.
pub fn ray_meets_box(origin: Vec3, dir: Vec3, min: Vec3, max: Vec3) -> bool {
    ray_box(origin, dir, min, max).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(boxes: &[(Vec3, Vec3)], o: Vec3, d: Vec3, pad: f32) -> Vec<u32> {
        (0..boxes.len() as u32)
            .filter(|&i| {
                let (a, b) = boxes[i as usize];
                ray_meets_box(o, d, a - Vec3::splat(pad), b + Vec3::splat(pad))
            })
            .collect()
    }

    fn v() -> impl Strategy<Value = Vec3> {
        (-50.0f32..50.0, -50.0f32..50.0, -50.0f32..50.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        /// The tree reports every box the ray touches (a superset of the
        /// brute-force answer), each at most once.
        #[test]
        fn reports_every_box_the_ray_touches(
            corners in prop::collection::vec((v(), (0.0f32..5.0, 0.0f32..5.0, 0.0f32..5.0)), 0..300),
            o in v(),
            d in v(),
            pad in 0.0f32..2.0,
        ) {
            prop_assume!(d.length() > 1e-3);
            let d = d.normalize();
            let boxes: Vec<(Vec3, Vec3)> = corners
                .iter()
                .map(|(a, (x, y, z))| (*a, *a + Vec3::new(*x, *y, *z)))
                .collect();
            let bvh = Bvh::build(&boxes);
            prop_assert_eq!(bvh.len(), boxes.len());
            let mut got = Vec::new();
            bvh.along_ray(o, d, |_| pad, |i| got.push(i));
            let mut sorted = got.clone();
            sorted.sort();
            sorted.dedup();
            prop_assert_eq!(sorted.len(), got.len(), "each item once");
            for i in brute(&boxes, o, d, pad) {
                prop_assert!(got.contains(&i), "missed box {}", i);
            }
        }

        /// A box kept as fractions of its leaf's contains the box, and is
        /// at most a 255th of the leaf (and rounding) larger on each side,
        /// wherever the leaf is and whatever its size, flat ones included.
        #[test]
        fn a_quantized_box_contains_the_box_and_is_barely_larger(
            at in (-1.0e6f32..1.0e6, -1.0e6f32..1.0e6, -1.0e6f32..1.0e6),
            size in (0.0f32..100.0, 0.0f32..100.0, 0.0f32..100.0),
            a in (0.0f32..=1.0, 0.0f32..=1.0, 0.0f32..=1.0),
            b in (0.0f32..=1.0, 0.0f32..=1.0, 0.0f32..=1.0),
        ) {
            let lo = Vec3::new(at.0, at.1, at.2);
            let hi = lo + Vec3::new(size.0, size.1, size.2);
            let ext = hi - lo;
            let p = |t: (f32, f32, f32)| (lo + ext * Vec3::new(t.0, t.1, t.2)).clamp(lo, hi);
            let (pa, pb) = (p(a), p(b));
            let (min, max) = (pa.min(pb), pa.max(pb));
            let (qmin, qmax) = dequantize(&quantize((min, max), lo, hi), lo, hi);
            prop_assert!(qmin.cmple(min).all() && qmax.cmpge(max).all(),
                "{:?}..{:?} does not contain {:?}..{:?}", qmin, qmax, min, max);
            let allowed = ext / STEPS + lo.abs().max(hi.abs()) * 1e-5 + Vec3::splat(1e-6);
            prop_assert!((min - qmin).cmple(allowed).all() && (qmax - max).cmple(allowed).all(),
                "{:?}..{:?} much larger than {:?}..{:?}", qmin, qmax, min, max);
        }
    }

    #[test]
    fn a_vertical_ray_reports_few_of_many_boxes() {
        // A 100 × 100 grid of unit cells: a ray straight down meets one.
        let boxes: Vec<(Vec3, Vec3)> = (0..100)
            .flat_map(|x| (0..100).map(move |z| (x, z)))
            .map(|(x, z)| {
                let a = Vec3::new(x as f32, 0.0, z as f32);
                (a, a + Vec3::new(0.9, 0.1, 0.9))
            })
            .collect();
        let bvh = Bvh::build(&boxes);
        let mut got = Vec::new();
        bvh.along_ray(
            Vec3::new(42.5, 10.0, 17.5),
            Vec3::NEG_Y,
            |_| 0.0,
            |i| got.push(i),
        );
        assert_eq!(got, vec![42 * 100 + 17]);
    }

    #[test]
    fn empty_identical_and_nan_boxes_build_a_searchable_tree_and_padding_reaches_far_boxes() {
        let bvh = Bvh::build(&[]);
        assert!(bvh.is_empty());
        bvh.along_ray(Vec3::ZERO, Vec3::X, |_| 1.0, |_| panic!("nothing to visit"));
        // Identical boxes (no spread to split on) and a NaN box.
        let same = vec![(Vec3::ZERO, Vec3::ONE); 50];
        let mut with_nan = same.clone();
        with_nan.push((Vec3::NAN, Vec3::ONE));
        let bvh = Bvh::build(&with_nan);
        assert_eq!(bvh.len(), 50, "the NaN box is left out");
        let mut n = 0;
        bvh.along_ray(Vec3::new(0.5, 5.0, 0.5), Vec3::NEG_Y, |_| 0.0, |_| n += 1);
        assert_eq!(n, 50);
        // The padding grows with distance: a far box is reached only with it.
        let far = vec![(Vec3::new(100.0, 1.0, 0.0), Vec3::new(101.0, 2.0, 1.0))];
        let bvh = Bvh::build(&far);
        let mut hit = false;
        bvh.along_ray(Vec3::ZERO, Vec3::X, |_| 0.0, |_| hit = true);
        assert!(!hit);
        bvh.along_ray(Vec3::ZERO, Vec3::X, |t| t * 0.02, |_| hit = true);
        assert!(hit);
    }
}
