//! Running jumps across gaps and down off ledges: the jumps the paper's
//! vertical jump links (§5.3, [`crate::links::jumps`]) cannot make,
//! because the two floors share no edge plane.
//!
//! From the middle of every polygon edge that is a ledge (just beyond it
//! no polygon lies within a step of its height), the agent runs straight
//! out, along the edge's outward normal seen from above. Every
//! [`PROBE_STEP`] metres the probe asks which polygons lie under it and
//! takes the highest it can land on, when that is higher than every
//! landing found nearer (the jump passes over lower floors to reach a
//! higher one, never the other way). A polygon can be landed on when it
//! is at most the jump height above the take-off and at most the drop
//! height below it, and the distance is within the reach of a running jump
//! that lands that much lower ([`Reach::lands`], shared with `voxel`). The flight is checked
//! against the expanded solids (configuration space, so a clear point is
//! one where the agent's box fits, [`crate::free`]) along three legs: up from the take-off
//! to a little over the higher of the two heights, across, and down to the
//! landing. Each jump is one `jump` link, one way.

use glam::{DVec2, DVec3};
use navscope_core::LinkKind;
pub use navscope_core::jump::Reach;

use crate::extra::PolyGrid;
use crate::links::{LinkSeg, clear_path};
use crate::movers::holds;
use crate::polyhedron::Polyhedron;
use crate::walkable::WalkPoly;

/// Distance between probe points along a run-up, metres.
pub const PROBE_STEP: f64 = 0.25;
/// How far over the higher floor the flight's top leg runs, metres.
const CLEARANCE: f64 = 0.05;
/// Shortest edge that makes a take-off, metres.
const MIN_EDGE: f64 = 0.1;

/// Plan position of a point.
fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

/// The polygons other than `except` under plan point `q`, with their
/// heights there.
fn under(polys: &[WalkPoly], grid: &PolyGrid, q: DVec2, except: usize) -> Vec<(usize, f64)> {
    grid.near(q, q)
        .into_iter()
        .filter(|&j| j != except && holds(&polys[j], q.x, q.y))
        .map(|j| (j, polys[j].height_at(q.x, q.y)))
        .collect()
}

/// The gap jumps of mesh `mesh` (see the module docs).
pub fn gap_jumps(
    mesh: usize,
    polys: &[WalkPoly],
    grid: &PolyGrid,
    solids: &[&Polyhedron],
    reach: Reach,
) -> Vec<LinkSeg> {
    let longest = reach.longest();
    if longest <= 0.0 {
        return Vec::new();
    }
    let steps = (longest / PROBE_STEP).ceil() as usize;
    let mut out = Vec::new();
    for (i, p) in polys.iter().enumerate() {
        let n = p.polygon.len();
        for k in 0..n {
            let (a, b) = (p.polygon[k], p.polygon[(k + 1) % n]);
            let along = plan(b) - plan(a);
            if along.length() < MIN_EDGE {
                continue;
            }
            let s = a.lerp(b, 0.5);
            let mut normal = along.perp().normalize();
            let inward = plan(s) + normal * 1e-3;
            if holds(p, inward.x, inward.y) {
                normal = -normal;
            }
            let beyond = plan(s) + normal * (PROBE_STEP * 0.2);
            if under(polys, grid, beyond, i)
                .iter()
                .any(|(_, h)| (h - s.y).abs() <= reach.step)
            {
                continue;
            }
            let mut best = f64::NEG_INFINITY;
            for d in 1..=steps {
                let dist = d as f64 * PROBE_STEP;
                let q = plan(s) + normal * dist;
                let landing = under(polys, grid, q, i)
                    .into_iter()
                    .filter(|&(_, h)| h > best && reach.lands(dist, s.y - h))
                    .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)));
                let Some((j, h)) = landing else { continue };
                best = h;
                let l = DVec3::new(q.x, h, q.y);
                let top = s.y.max(l.y) + CLEARANCE;
                let legs = [s, DVec3::new(s.x, top, s.z), DVec3::new(l.x, top, l.z), l];
                if clear_path(solids, &legs) {
                    out.push(LinkSeg {
                        from_mesh: mesh,
                        from: i,
                        to_mesh: mesh,
                        to: j,
                        kind: LinkKind::Jump,
                        source: [s, s],
                        dest: [l, l],
                        across: DVec3::new(normal.x, 0.0, normal.y),
                        edge: None,
                    });
                }
            }
        }
    }
    out
}
