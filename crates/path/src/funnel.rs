//! String pulling: the shortest path through the portal sequence, with the
//! stance to hold on every leg.
//!
//! ## The funnel
//! navscope writes its own "simple stupid funnel" (Mononen's formulation of
//! Lee and Preparata's funnel): an apex and a left and right ray through
//! the portal ends seen so far; each new portal end either narrows its side
//! of the funnel or, if it would cross the other side, that other side's end
//! becomes a corner of the path and the new apex, and the scan restarts from
//! it. It runs in plan coordinates (seen from above) with exact orientation
//! tests. With radius 0 the result is the shortest path inside the corridor
//! of the path's polygons, seen from above. Corners are portal ends (shrunk
//! by the agent radius, see the `portal` module); their heights
//! are those of the portal ends.
//!
//! Heights in between: wherever the straight leg crosses a portal the height
//! is interpolated along the portal. When those heights do not lie on one
//! straight 3D line (a leg from a flat floor up a ramp) the crossing is kept
//! as an extra waypoint, so every waypoint is on the mesh surface.
//!
//! ## Detail surfaces
//! Where nodes carry `detail` triangles (module `detail`), the path follows
//! them rather than the polygons' planes:
//!
//! * **Portals.** A point on a crossing segment (a corner or a crossing)
//!   takes the detail height of the node it enters, or else of the node it
//!   leaves, provided that node's detail surface holds both ends of the
//!   segment (each within a micron of it, in plan and in height); otherwise
//!   it keeps the height interpolated along the segment. So a shared edge
//!   follows the surface where a hill crosses it (detail surfaces pass
//!   through their polygon's corners), while a segment that is not on the
//!   surface keeps its own heights: a step's lip over the lower node, a
//!   drop link's segment, the voxel pipeline's swim portals lifted to the
//!   water surface over a pool-floor detail. The points a link is taken
//!   at (a jump's takeoff and landing, node positions; module
//!   `crossing`), the start and the goal are kept as given
//!   ([`crate::find_path`] gives start and goal on the surface).
//! * **Points along a leg.** Inside a node with detail, a straight leg
//!   (seen from above) whose two ends both lie on the node's surface gains
//!   a point wherever it crosses an edge of the node's detail triangles, at
//!   the surface's height there. Between two such points the leg runs
//!   inside one triangle, so the drawn path lies on the surface: over a
//!   hill, not through it. A leg with an end off the surface (from a step's
//!   lip, a swim link's midpoint, a start given in the air) stays straight,
//!   as without detail. Detour's `findStraightPath` returns only corners
//!   and leaves heights to `getPolyHeight` at the points a caller asks
//!   about; a debugger that draws the path and measures its length wants
//!   the walked surface. The extra points are kept only where the surface
//!   bends (the heights on either side do not continue one straight 3D
//!   line, the rule used for portal crossings), so a leg over a flat or
//!   evenly sloped detail surface stays one leg. The path's length,
//!   measured in 3D along the waypoints, is then the length walked on the
//!   surface.
//!
//! Nodes without detail are handled exactly as before detail existed.
//!
//! ## Stances (Kirst §32.3.2)
//! Kirst builds one path vertex per node and gives vertex `i` the stance
//! `stance(i) | stance(i - 1)`: the agent crouches while walking *towards* a
//! crouch-only node (so it is already low when it enters), and "stays
//! crouched until the node after a crouch-only node": walking from the last
//! crouch-only node to the next node's vertex it is still crouched, since its
//! body may still be under the table.
//!
//! navscope applies that rule exactly on the smoothed path. Node `i`'s
//! vertex `v_i` is the point halfway (by path length) between where the path
//! enters node `i` and where it leaves it; `v_0` is the start and the last
//! node's vertex is the goal. Every point of the path between `v_(i-1)` and
//! `v_i` is walked with the more restrictive of the two nodes' stances
//! ([`crate::stance::most_restrictive`], which generalises crouch-or-stand to
//! all five stances). A waypoint's stance is the stance held while walking to
//! it. Where the stance changes between two corners, the vertex `v_i` at
//! which it changes is inserted as a waypoint (it lies on the straight leg,
//! so the length is unchanged).
//!
//! The first waypoint is the start (with the start node's stance), the last
//! is the goal; points repeated or lying straight on a leg with the stance of
//! the leg after them are dropped.

use glam::{DVec2, DVec3};
use navscope_core::geom::{Orientation, orient, orient_value, world_to_plan};
use navscope_core::{NavMesh, Stance};
use serde::{Deserialize, Serialize};

use crate::crossing::Crossing;
use crate::detail::Detail;
use crate::locate::Locator;
use crate::num::positive;
use crate::portal::{Portal, portals};
use crate::stance::most_restrictive;

/// One point of a smoothed path.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waypoint {
    /// World position, on the mesh surface.
    pub position: DVec3,
    /// Stance to hold while walking to this waypoint (Kirst §32.3.2).
    pub stance: Stance,
    /// The node the waypoint lies in: for a corner on a portal, the node the
    /// portal leads into.
    pub node: u32,
}

/// A corner of the pulled string: portal index and position.
type Corner = (usize, DVec3);

/// [`orient_value`] of `apex b c` where the funnel's ray `apex b` may have
/// collapsed to its apex (right after a restart): then the determinant
/// is exactly zero, which the exact predicate finds only through its
/// slow adaptive stage (its rounded terms cancel without being zero).
#[inline]
fn orient_from(apex: DVec2, b: DVec2, c: DVec2) -> f64 {
    if apex == b {
        0.0
    } else {
        orient_value(apex, b, c)
    }
}

/// Mononen's simple stupid funnel over `portals` (the first is the start
/// point, the last the goal point). Writes the corners to `corners`, start
/// and goal included, each with the index of the portal it lies on.
fn pull_string(portals: &[Portal], corners: &mut Vec<Corner>) {
    let last = portals.len() - 1;
    corners.clear();
    corners.push((0, portals[0].left));
    let (l0, r0) = portals[0].plan();
    let mut apex = l0;
    let (mut left, mut left_i) = (l0, 0usize);
    let (mut right, mut right_i) = (r0, 0usize);
    let mut i = 1;
    // Each restart moves the apex forward by at least one portal, so the
    // loop ends; the guard only protects against NaN-poisoned input.
    let mut guard = portals.len() * portals.len() + 8;
    while i <= last && guard > 0 {
        guard -= 1;
        let (l, r) = portals[i].plan();
        // Right side: narrow unless it crosses the left ray.
        if orient_from(apex, right, r) >= 0.0 {
            if apex == right || orient_from(apex, left, r) < 0.0 {
                right = r;
                right_i = i;
            } else {
                corners.push((left_i, portals[left_i].left));
                apex = left;
                (right, right_i) = (apex, left_i);
                i = left_i + 1;
                continue;
            }
        }
        // Left side: narrow unless it crosses the right ray.
        if orient_from(apex, left, l) <= 0.0 {
            if apex == left || orient_from(apex, right, l) > 0.0 {
                left = l;
                left_i = i;
            } else {
                corners.push((right_i, portals[right_i].right));
                apex = right;
                (left, left_i) = (apex, right_i);
                i = right_i + 1;
                continue;
            }
        }
        i += 1;
    }
    corners.push((last, portals[last].left));
}

/// Where the plan segment `a b` crosses portal `p`, as a world point on the
/// portal (parameter clamped to the portal).
fn crossing(p: &Portal, a: DVec2, b: DVec2) -> DVec3 {
    let (l, r) = p.plan();
    let lr = r - l;
    let ab = b - a;
    let den = lr.perp_dot(ab);
    let t = if den != 0.0 && den.is_finite() {
        (a - l).perp_dot(ab) / den
    } else {
        navscope_core::geom::project_on_segment(l, r, a)
    };
    p.at(if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.5
    })
}

/// One point along the dense path (every portal crossing) or a node vertex.
#[derive(Clone, Copy, Debug)]
struct Event {
    position: DVec3,
    /// Path index of the node the point lies in.
    node: usize,
    /// Kept as a waypoint.
    keep: bool,
    /// `Some(j)` for node `j`'s vertex `v_j`.
    vertex: Option<usize>,
}

/// True when the heights at `b` do not continue the straight 3D line from
/// `a` to `c` (plan distances as the parameter).
fn height_kink(a: DVec3, b: DVec3, c: DVec3) -> bool {
    let d1 = world_to_plan(a).distance(world_to_plan(b));
    let d2 = world_to_plan(b).distance(world_to_plan(c));
    if !positive(d1 + d2) {
        return false;
    }
    let expected = a.y + (c.y - a.y) * d1 / (d1 + d2);
    (b.y - expected).abs() > 1e-9 * (1.0 + b.y.abs())
}

/// True when `b` lies on the straight 3D leg from `a` to `c`, between them.
fn passes_straight(a: DVec3, b: DVec3, c: DVec3) -> bool {
    let (pa, pb, pc) = (world_to_plan(a), world_to_plan(b), world_to_plan(c));
    // The exact predicate last: the points asked about are mostly leg
    // crossings kept for a bend in height, collinear in plan by
    // construction, where it runs its slow adaptive stage.
    !height_kink(a, b, c)
        && (pb - pa).dot(pc - pb) >= 0.0
        && orient(pa, pb, pc) == Orientation::Collinear
}

/// The smoothed path from `start` to `goal` through `nodes` (a path of
/// [`crate::astar`]: `links[i]` joins `nodes[i]` to `nodes[i + 1]`), keeping
/// `radius` away from portal ends. See the module docs for the funnel, the
/// heights and Kirst's stance rule.
///
/// `start` and `goal` should lie in the first and last node. An empty node
/// list or an unknown node id gives no waypoints.
///
/// Nodes with `detail` triangles are followed as the module docs say; this
/// function prepares the detail of the path's nodes on every call, while
/// [`crate::find_path`] uses the detail its [`Locator`] prepared once.
pub fn funnel(
    mesh: &NavMesh,
    nodes: &[u32],
    links: &[usize],
    start: DVec3,
    goal: DVec3,
    radius: f64,
) -> Vec<Waypoint> {
    let prepared: Vec<Option<Detail>> = nodes
        .iter()
        .map(|id| mesh.nodes.get(*id as usize).and_then(Detail::of_node))
        .collect();
    let mut buf = FunnelBuffers::default();
    let detail = |j: usize| prepared[j].as_ref();
    let held = |_: &Portal| None;
    let known = |_: usize, _: bool| None;
    funnel_on(
        mesh, detail, held, known, nodes, links, start, goal, radius, &mut buf,
    );
    buf.out
}

/// The funnel's working buffers, kept by a [`crate::PathFinder`] so that
/// a query allocates nothing once they have grown to the longest path;
/// [`FunnelBuffers::out`] holds the last path's waypoints.
#[derive(Clone, Debug, Default)]
pub(crate) struct FunnelBuffers {
    portals: Vec<Portal>,
    corners: Vec<Corner>,
    dense: Vec<DVec3>,
    is_corner: Vec<bool>,
    pts: Vec<DVec3>,
    leg_at: Vec<usize>,
    s: Vec<f64>,
    cum: Vec<f64>,
    entry: Vec<usize>,
    events: Vec<Event>,
    ts: Vec<f64>,
    /// The waypoints of the last path.
    pub out: Vec<Waypoint>,
}

/// [`funnel()`] with the detail the `locator` (built on `mesh`) prepared,
/// into `buf.out`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn funnel_located(
    mesh: &NavMesh,
    locator: &Locator,
    nodes: &[u32],
    links: &[usize],
    start: DVec3,
    goal: DVec3,
    radius: f64,
    buf: &mut FunnelBuffers,
) {
    let detail = |j: usize| locator.detail(nodes[j]);
    let held = |p: &Portal| {
        p.link
            .map(|(li, forward)| locator.portal_holder(li, forward))
    };
    let known = |li: usize, forward: bool| locator.link_crossing(li, forward);
    funnel_on(
        mesh, detail, held, known, nodes, links, start, goal, radius, buf,
    );
}

/// The height point `at` of portal `p` takes from the detail of the node
/// it enters or, failing that, the node it leaves (`detail` by path index):
/// the first whose surface holds both ends of the portal's segment
/// ([`Detail::holder`]; `held` is that answer when the caller has it
/// already). A portal that enters nothing (a lip's takeoff, on the node
/// it is in) asks that node only. `None` keeps the point's own height
/// (see the module docs).
fn portal_height<'d>(
    p: &Portal,
    detail: &impl Fn(usize) -> Option<&'d Detail>,
    held: Option<Option<usize>>,
    at: DVec3,
) -> Option<f64> {
    let ends = p.edge?;
    let sides = [Some(p.node), p.node.checked_sub(1).filter(|_| p.enters)];
    let side = |n: Option<usize>| n.and_then(detail);
    let i = held.unwrap_or_else(|| Detail::holder(ends, sides.map(side)))?;
    side(sides[i]).map(|d| d.height(world_to_plan(at)))
}

/// The point at path length `at` on segment `i` of the polyline `pts`, whose
/// points lie at path lengths `c` (parameter clamped to the segment).
fn along_segment(pts: &[DVec3], c: &[f64], i: usize, at: f64) -> DVec3 {
    let seg = c[i + 1] - c[i];
    let t = if seg > 0.0 {
        ((at - c[i]) / seg).clamp(0.0, 1.0)
    } else {
        0.0
    };
    pts[i].lerp(pts[i + 1], t)
}

/// [`funnel()`] with each path node's prepared detail (`detail(i)` for
/// `nodes[i]`) and, where known, the [`Detail::holder`] of a portal's
/// segment (`held`) and a link's oriented crossing (`known`, see
/// [`portals`]), into `buf.out`.
#[allow(clippy::too_many_arguments)]
fn funnel_on<'d>(
    mesh: &NavMesh,
    detail: impl Fn(usize) -> Option<&'d Detail>,
    held: impl Fn(&Portal) -> Option<Option<usize>>,
    known: impl Fn(usize, bool) -> Option<Crossing>,
    nodes: &[u32],
    links: &[usize],
    start: DVec3,
    goal: DVec3,
    radius: f64,
    buf: &mut FunnelBuffers,
) {
    let FunnelBuffers {
        portals: portal_buf,
        corners,
        dense,
        is_corner,
        pts,
        leg_at,
        s,
        cum,
        entry,
        events,
        ts,
        out,
    } = buf;
    out.clear();
    if nodes.is_empty() || !portals(mesh, nodes, links, start, goal, radius, known, portal_buf) {
        return;
    }
    let portals = &portal_buf[..];
    let last = portals.len() - 1;
    pull_string(portals, corners);

    // Dense path: the point where the string crosses every portal.
    dense.clear();
    dense.resize(portals.len(), DVec3::ZERO);
    is_corner.clear();
    is_corner.resize(portals.len(), false);
    for w in corners.windows(2) {
        let ((a_i, a), (b_i, b)) = (w[0], w[1]);
        dense[a_i] = a;
        dense[b_i] = b;
        is_corner[a_i] = true;
        is_corner[b_i] = true;
        for k in a_i + 1..b_i {
            dense[k] = crossing(&portals[k], world_to_plan(a), world_to_plan(b));
        }
    }
    // Detail heights on the portals, then the legs' detail-edge crossings:
    // leg k (dense[k] to dense[k + 1]) lies in node portals[k].node unless
    // it leaves a link's first portal (one that does not enter).
    for k in 1..last {
        let p = &portals[k];
        if let Some(h) = portal_height(p, &detail, held(p), dense[k]) {
            dense[k].y = h;
        }
    }
    // Leg k's points are `pts[leg_at[k]..leg_at[k + 1]]` (one buffer for
    // all legs), with their 3D path lengths in `cum`.
    pts.clear();
    leg_at.clear();
    for k in 0..last {
        leg_at.push(pts.len());
        pts.push(dense[k]);
        // A leg level with a flat detail gains no points: they would all
        // lie on it, and such points are not kept (only the pieces' sums
        // in `cum` would differ, by rounding).
        if portals[k].enters
            && let Some(d) = detail(portals[k].node)
            && !d.level_with(dense[k], dense[k + 1])
            && d.holds(dense[k])
            && d.holds(dense[k + 1])
        {
            d.crossings(dense[k], dense[k + 1], ts, pts);
        }
        pts.push(dense[k + 1]);
    }
    leg_at.push(pts.len());
    let (pts, leg_at) = (&pts[..], &leg_at[..]);
    let leg = |k: usize| leg_at[k]..leg_at[k + 1];
    // 3D path length at every portal (s) and at every point of each leg.
    s.clear();
    s.resize(portals.len(), 0.0);
    cum.clear();
    for k in 0..last {
        let r = leg(k);
        cum.push(s[k]);
        for i in r.start + 1..r.end {
            cum.push(cum[i - 1] + pts[i - 1].distance(pts[i]));
        }
        s[k + 1] = cum[r.end - 1];
    }

    // Node vertices v_j (0 < j < n - 1) at the middle of each node's stretch.
    let n = nodes.len();
    entry.clear();
    entry.resize(n, 0);
    for (k, p) in portals.iter().enumerate() {
        if p.enters {
            entry[p.node] = k;
        }
    }
    let entry = &entry[..];
    let exit = |j: usize| if j + 1 < n { entry[j + 1] } else { last };
    let stance = |j: usize| mesh.nodes[nodes[j] as usize].stance;
    let span = |j: usize| {
        if j == 0 {
            stance(0)
        } else {
            most_restrictive(stance(j - 1), stance(j))
        }
    };

    events.clear();
    let mut next_vertex = 1;
    for k in 0..portals.len() {
        let keep = k == 0
            || k == last
            || is_corner[k]
            || height_kink(pts[leg(k - 1).end - 2], dense[k], pts[leg(k).start + 1]);
        events.push(Event {
            position: dense[k],
            node: portals[k].node,
            keep,
            vertex: None,
        });
        if k == last {
            break;
        }
        // Along leg k: each piece's vertices, then the point ending it.
        let (pts, c) = (&pts[leg(k)], &cum[leg(k)]);
        let pieces = pts.len() - 1;
        for i in 0..pieces {
            while next_vertex + 1 < n {
                let j = next_vertex;
                let (e, x) = (entry[j], exit(j));
                let mid = (s[e] + s[x]) * 0.5;
                // v_j lies on piece i of leg k inside node j's stretch [e, x]
                // (the stretch's last piece takes what rounding leaves over).
                if k < e || k >= x || (mid > c[i + 1] && (k + 1 < x || i + 1 < pieces)) {
                    break;
                }
                let keep = span(j) != span(j + 1);
                events.push(Event {
                    position: along_segment(pts, c, i, mid),
                    node: j,
                    keep,
                    vertex: Some(j),
                });
                next_vertex += 1;
            }
            if i + 1 < pieces {
                events.push(Event {
                    position: pts[i + 1],
                    node: portals[k].node,
                    keep: height_kink(pts[i], pts[i + 1], pts[i + 2]),
                    vertex: None,
                });
            }
        }
    }

    // Stances: the leg v_(j-1) -> v_j is walked in span(j).
    let mut current = 1usize;
    for (idx, e) in events.iter().enumerate() {
        let st = match e.vertex {
            Some(j) => {
                current = j + 1;
                span(j)
            }
            None if idx == 0 => span(0),
            None => span(current.min(n - 1)),
        };
        if !e.keep {
            continue;
        }
        let w = Waypoint {
            position: e.position,
            stance: st,
            node: nodes[e.node],
        };
        // A repeated point keeps its first stance (the leg to it); the goal
        // only lends it its node. Start and goal are both kept when equal.
        let is_goal = idx + 1 == events.len();
        let len = out.len();
        if let Some(prev) = out.last_mut()
            && prev.position == w.position
            && !(is_goal && len == 1)
        {
            if is_goal {
                prev.node = w.node;
            }
            continue;
        }
        out.push(w);
    }
    // Drop points lying straight on a leg walked in one stance: `kept`
    // points are compacted to the front, each judged against the last one
    // kept and the next one.
    let mut kept = out.len().min(1);
    for k in 1..out.len() {
        let straight = k + 1 < out.len()
            && out[k].stance == out[k + 1].stance
            && passes_straight(out[kept - 1].position, out[k].position, out[k + 1].position);
        if !straight {
            out[kept] = out[k];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Total 3D length of a waypoint polyline.
pub fn path_length(waypoints: &[Waypoint]) -> f64 {
    // Folded from +0: a float `sum` of nothing is -0, which prints as "-0".
    waypoints
        .windows(2)
        .fold(0.0, |acc, w| acc + w[0].position.distance(w[1].position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::grid_mesh;
    use navscope_core::LinkKind;

    fn v(x: f64, z: f64) -> DVec3 {
        DVec3::new(x, 0.0, z)
    }

    fn ids(m: &NavMesh, cells: &[(usize, usize)]) -> Vec<u32> {
        cells
            .iter()
            .map(|(i, j)| {
                m.nodes
                    .iter()
                    .find(|n| n.position == v(*i as f64 + 0.5, *j as f64 + 0.5))
                    .unwrap()
                    .id
            })
            .collect()
    }

    /// The funnel through `nodes`, each step over the link joining them.
    fn along(m: &NavMesh, nodes: &[u32], start: DVec3, goal: DVec3, radius: f64) -> Vec<Waypoint> {
        let links: Vec<usize> = nodes
            .windows(2)
            .map(|w| {
                m.links
                    .iter()
                    .position(|l| l.from == w[0] && l.to == w[1])
                    .unwrap()
            })
            .collect();
        funnel(m, nodes, &links, start, goal, radius)
    }

    #[test]
    fn straight_corridor_is_one_leg() {
        let m = grid_mesh(5, 1, |_, _| false);
        let nodes: Vec<u32> = (0..5).collect();
        let w = along(&m, &nodes, v(0.2, 0.3), v(4.8, 0.7), 0.0);
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].position, w[0].node), (v(0.2, 0.3), 0));
        assert_eq!((w[1].position, w[1].node), (v(4.8, 0.7), 4));
    }

    #[test]
    fn l_bend_turns_at_the_inner_corner() {
        // (0,0) (1,0) (2,0) then up to (2,1) (2,2).
        let m = grid_mesh(3, 3, |i, j| i < 2 && j > 0);
        let nodes = ids(&m, &[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]);
        let w = along(&m, &nodes, v(0.5, 0.5), v(2.5, 2.5), 0.0);
        let p: Vec<DVec3> = w.iter().map(|w| w.position).collect();
        assert_eq!(p, vec![v(0.5, 0.5), v(2.0, 1.0), v(2.5, 2.5)]);
        assert_eq!(w[1].node, nodes[3]);
        let expected = (1.5f64 * 1.5 + 0.25).sqrt() + (0.25f64 + 2.25).sqrt();
        assert!((path_length(&w) - expected).abs() < 1e-12);
    }

    #[test]
    fn radius_keeps_the_corner_at_a_distance() {
        let m = grid_mesh(3, 3, |i, j| i < 2 && j > 0);
        let nodes = ids(&m, &[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]);
        let w = along(&m, &nodes, v(0.5, 0.5), v(2.5, 2.5), 0.2);
        // The corner portal (2,0)|(2,1) is shrunk to x in [2.2, 2.8].
        assert!(w.iter().any(|w| w.position == v(2.2, 1.0)), "{w:?}");
        assert!(w.iter().all(|w| w.position != v(2.0, 1.0)));
    }

    #[test]
    fn stance_rule_crouches_before_and_stays_crouched_one_node_after() {
        // A-B-C-D-E-F in a row, C and D crouch-only, path through vertices.
        let mut m = grid_mesh(6, 1, |_, _| false);
        m.nodes[2].stance = Stance::Crouch;
        m.nodes[3].stance = Stance::Crouch;
        let nodes: Vec<u32> = (0..6).collect();
        let w = along(&m, &nodes, v(0.5, 0.5), v(5.5, 0.5), 0.0);
        let got: Vec<(f64, Stance)> = w.iter().map(|w| (w.position.x, w.stance)).collect();
        // Stand to v_1 (B's middle, x = 1.5); crouch from there to v_4
        // (E's middle, x = 4.5): through C, D and half of E; then stand.
        assert_eq!(
            got,
            vec![
                (0.5, Stance::Stand),
                (1.5, Stance::Stand),
                (4.5, Stance::Crouch),
                (5.5, Stance::Stand)
            ]
        );
        assert!((path_length(&w) - 5.0).abs() < 1e-12);
    }

    #[test]
    fn stance_of_a_one_node_path_is_the_node_stance() {
        let mut m = grid_mesh(1, 1, |_, _| false);
        m.nodes[0].stance = Stance::Prone;
        let w = funnel(&m, &[0], &[], v(0.1, 0.1), v(0.9, 0.9), 0.0);
        assert_eq!(w.len(), 2);
        assert!(w.iter().all(|w| w.stance == Stance::Prone));
        let same = funnel(&m, &[0], &[], v(0.5, 0.5), v(0.5, 0.5), 0.0);
        assert_eq!(same.len(), 2);
        assert_eq!(path_length(&same), 0.0);
    }

    #[test]
    fn ramp_crossings_keep_waypoints_on_the_surface() {
        // Three cells along x; the middle one ramps from y 0 to y 1, the last is at y 1.
        let mut m = grid_mesh(3, 1, |_, _| false);
        let lift = |p: &mut DVec3| p.y = (p.x - 1.0).clamp(0.0, 1.0);
        for n in &mut m.nodes {
            n.polygon.iter_mut().flatten().for_each(lift);
            lift(&mut n.position);
        }
        for l in &mut m.links {
            l.segment
                .iter_mut()
                .flat_map(|s| s.iter_mut())
                .for_each(lift);
        }
        let nodes = [0, 1, 2];
        let w = along(
            &m,
            &nodes,
            DVec3::new(0.5, 0., 0.5),
            DVec3::new(2.5, 1., 0.5),
            0.0,
        );
        let p: Vec<DVec3> = w.iter().map(|w| w.position).collect();
        assert_eq!(
            p,
            vec![
                DVec3::new(0.5, 0., 0.5),
                DVec3::new(1., 0., 0.5),
                DVec3::new(2., 1., 0.5),
                DVec3::new(2.5, 1., 0.5)
            ]
        );
    }

    #[test]
    fn jump_link_without_segment_goes_through_positions() {
        let mut m = grid_mesh(3, 1, |i, _| i == 1);
        m.add_two_way(0, 1, LinkKind::Jump, 2.0, None);
        let w = funnel(
            &m,
            &[0, 1],
            &[m.links.len() - 2],
            v(0.2, 0.2),
            v(2.8, 0.8),
            0.0,
        );
        let p: Vec<DVec3> = w.iter().map(|w| w.position).collect();
        assert_eq!(p, vec![v(0.2, 0.2), v(0.5, 0.5), v(2.5, 0.5), v(2.8, 0.8)]);
        assert_eq!(w[2].node, 1);
    }

    #[test]
    fn bad_input_gives_no_waypoints() {
        let m = grid_mesh(2, 1, |_, _| false);
        assert!(funnel(&m, &[], &[], v(0., 0.), v(1., 1.), 0.0).is_empty());
        assert!(funnel(&m, &[0, 5], &[0], v(0., 0.), v(1., 1.), 0.0).is_empty());
        // Mismatched links fall back to the shared edge.
        let w = funnel(&m, &[0, 1], &[99], v(0.5, 0.5), v(1.5, 0.5), 0.0);
        assert_eq!(w.len(), 2);
    }
}
