//! Reference implementations the tests check optimised code against: the
//! plain, exhaustive way to the same answer.

use glam::DVec2;

use crate::graphs::DualEdge;
use crate::triangulate::{Triangulation, incircle};
use crate::walls::Walls;

/// The least `metric(dx, dy)` from pixel `(x, y)` to an obstacle
/// pixel or the one-pixel frame around the image, by brute force.
pub fn reference_nearest(
    w: usize,
    h: usize,
    obstacle: &[u8],
    x: i64,
    y: i64,
    metric: impl Fn(i64, i64) -> f64,
) -> f64 {
    let mut best = f64::INFINITY;
    for oy in -1..=h as i64 {
        for ox in -1..=w as i64 {
            let frame = ox < 0 || oy < 0 || ox >= w as i64 || oy >= h as i64;
            if frame || obstacle[oy as usize * w + ox as usize] != 0 {
                best = best.min(metric(ox - x, oy - y));
            }
        }
    }
    best
}

/// Every pixel's squared Euclidean distance to the nearest obstacle pixel
/// or the frame, by [`reference_nearest`]: the reference for
/// [`crate::binary`]'s distance transform.
pub fn reference_squared_distance(w: usize, h: usize, obstacle: &[u8]) -> Vec<f64> {
    (0..(w * h) as i64)
        .map(|i| {
            reference_nearest(w, h, obstacle, i % w as i64, i / w as i64, |dx, dy| {
                (dx * dx + dy * dy) as f64
            })
        })
        .collect()
}

/// Whether the sight line `ab` is clear, by testing every wall segment:
/// the reference for [`Walls::clear`]'s grid walk.
pub fn reference_clear(w: &Walls, a: DVec2, b: DVec2) -> bool {
    if a == b {
        return true;
    }
    let mut all = Vec::new();
    for (ri, r) in w.rings.iter().enumerate() {
        all.extend((0..r.len()).map(|i| (ri as u32, i as u32)));
    }
    !all.into_iter().any(|id| w.blocks(a, b, id))
}

/// The wall tests of every dual edge, one at a time on one thread: the
/// reference for the dual graph's parallel tests.
pub fn reference_dual_edge_tests(tri: &Triangulation, walls: &Walls) -> Vec<[DualEdge; 3]> {
    let centre = |t: usize| {
        let [a, b, c] = tri.corners(t);
        incircle(a, b, c)
    };
    let mut out = vec![[DualEdge::Skip; 3]; tri.triangles.len()];
    for (t, slots) in out.iter_mut().enumerate() {
        for (k, slot) in slots.iter_mut().enumerate() {
            match tri.neighbours[t][k] {
                Some(u) if u as usize > t => {
                    let ((ct, rt), (cu, ru)) = (centre(t), centre(u as usize));
                    *slot = if !walls.clear(ct, cu) {
                        DualEdge::Blocked
                    } else if !walls.corridor_clear(ct, rt, cu, ru) {
                        DualEdge::Narrow
                    } else {
                        DualEdge::Wide
                    };
                }
                _ => {}
            }
        }
    }
    out
}
