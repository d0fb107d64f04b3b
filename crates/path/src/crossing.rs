//! Where a path goes from one node to the next over a link: the one rule
//! that A* with the funnel (module `portal`) and Polyanya (module
//! `polyanya::mesh`) both follow, so that a path either method finds is
//! one the other could take, and both measure the same crossings.
//!
//! A link's crossing follows its segment, seen from above (a link without
//! a segment: see below):
//! 1. **An edge, crossed anywhere along it** ([`Rule::Edge`]): the segment
//!    has a length and lies on an edge of the source polygon and on an
//!    edge of the target, the two on either side of it. A shared edge, a
//!    door, a step's lip, the lip of a jump up to a ledge. The agent
//!    leaves the source at any point of the segment and enters the target
//!    there. A teleport is never crossed this way: it carries the agent
//!    from one place.
//! 2. **Its middle** ([`Rule::Middle`]): the segment lies on an edge of the
//!    source but rule 1 does not take it: it lies on no edge of the target
//!    across it (a lip whose floor begins further out: cspace keeps a
//!    ledge's edge half the body's width back from the drop, so the floor
//!    below begins 0.5 to 0.74 m further out on the LibreQuake maps; a
//!    pool under the floor it is swum up to, their edges running the same
//!    way), or it has no length in plan, or the link is a teleport. Over a
//!    gap the agent
//!    could leave anywhere along the lip too; taken at its middle, paths
//!    are hardly longer and Polyanya's search does not follow every ray
//!    over the gap (the figures are in `docs/history/path.md`).
//! 3. **Its ends** ([`Rule::Ends`]): any other segment is a way from one
//!    place to another: a jump or a drop from its takeoff to its landing,
//!    a swim from one face of the water to another, a ladder from its foot
//!    to its top. The agent leaves the source at one end and arrives at
//!    the other, as Detour takes an off-mesh connection: the end nearer
//!    the source is left from and the other reached (seen from above;
//!    where that does not decide, the end nearer the target is reached,
//!    else the order the segment lists them). Crossed anywhere, as a portal, such a segment let a
//!    path leave a floor at one jump's takeoff and come down at another
//!    jump's landing without touching the floor between.
//!
//! A link of a walking kind (or no link: two polygons next to each other
//! on the path) between polygons whose edges share a stretch of positive
//! length crosses that stretch, whatever its own segment (rule 1): that
//! is the edge Polyanya's mesh joins them across. (A segment over the
//! same stretch keeps its own heights: the voxel pipeline lifts a swim's
//! to the water's surface over a pool-floor detail.) Without a shared
//! stretch, the link's segment decides; a walking link without one
//! crosses a single shared corner (rule 2). Otherwise (a jump or a ladder
//! without a segment, polygons over each other, point nodes) the path
//! goes through both nodes' positions.
//!
//! The fixed points of rules 2 and 3 are kept inside their polygons (the
//! nearest point of the polygon seen from above). A segment's ends keep
//! their heights (the pipeline put a takeoff, a landing or a swimmer's
//! place at the water's surface there); a middle or a node position lies
//! on its polygon's plane, so a lip's middle arrives on the floor below,
//! not in the air over it.
//!
//! A jump (or any link that is not a walk) crossed by rule 1, the lip of
//! a ledge jumped up onto or dropped off, joins two floors at different
//! heights; the agent rises or falls at the point it crosses. Both
//! methods then write two points there ([`landing`]): on the source's
//! surface and on the target's, one straight above the other. So the
//! drawn path climbs or falls at the lip instead of gliding through the
//! air to or from its next corner, and its 3D length counts the height.
//! A walking link's lip (a step) keeps one point, on the segment, as a
//! step is walked.

use glam::{DVec2, DVec3};
use navscope_core::geom::{plan_to_world, project_on_segment, world_to_plan};
use navscope_core::{Link, LinkKind, Node};

use crate::adjacency::{LINE_TOL, is_walking, overlap};
use crate::num::positive;
use crate::surface::height_at;

/// How a path goes from one node to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Crossing {
    /// Anywhere along the segment `[left, right]`, its ends as the agent
    /// going that way sees them (rule 1).
    Edge([DVec3; 2]),
    /// Leaving the first node at the first point and arriving in the second
    /// node at the second (rules 2 and 3, and the node positions).
    Points(DVec3, DVec3),
}

/// Which rule of the module docs a segment follows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rule {
    /// Rule 1, with the source's edge `(a, b)` that holds the segment (the
    /// source on its left).
    Edge(DVec2, DVec2),
    /// Rule 2.
    Middle,
    /// Rule 3.
    Ends,
}

/// The rule segment `s` of a link of kind `kind` follows from plan ring
/// `from` to plan ring `to` (counter-clockwise, as [`plan_polygon`]
/// gives them; empty for a point node).
fn rule(from: &[DVec2], to: &[DVec2], s: [DVec3; 2], kind: LinkKind) -> Rule {
    let (p, q) = (world_to_plan(s[0]), world_to_plan(s[1]));
    let Some((a, b)) = edge_holding(from, p, q) else {
        return Rule::Ends;
    };
    let scale = p.abs().max(q.abs()).max_element().max(1.0);
    // A segment of no length in plan (a jump whose takeoff and landing
    // differ by a rounding error) is a point: as an edge, rays through it
    // would go round it at one cost, the way shared stretches of no length
    // are refused.
    let long = positive(p.distance(q) - LINE_TOL * scale);
    // The target's edge runs the other way: the target is beyond it.
    let across = edge_holding(to, p, q).is_some_and(|(c, d)| (b - a).dot(d - c) < 0.0);
    if long && across && kind != LinkKind::Teleport {
        Rule::Edge(a, b)
    } else {
        Rule::Middle
    }
}

/// The segment a path from node `a` to node `b` over `link` (`None`: no
/// link of the path joins them) crosses by (see the module docs): for a
/// walking link, the polygons' shared stretch of positive length, else
/// the link's segment, else their shared corner; `None` where the path
/// goes through both positions.
fn crossing_segment(a: &Node, b: &Node, link: Option<&Link>) -> Option<[DVec3; 2]> {
    let walking = link.is_none_or(|l| is_walking(l.kind));
    let shared = match (&a.polygon, &b.polygon) {
        (Some(pa), Some(pb)) if walking => shared_edge(pa, pb),
        _ => None,
    };
    let own = link.and_then(|l| l.segment());
    match (shared, own) {
        // The link's own segment over the same stretch keeps its heights
        // (voxel lifts a swim's to the water's surface).
        (Some(s), Some(g)) if same_in_plan(s, g) => Some(g),
        (Some(s), _) if world_to_plan(s[0]) != world_to_plan(s[1]) => Some(s),
        _ => own.or(shared),
    }
}

/// True when segments `s` and `g` have the same ends seen from above
/// (either way round), within [`LINE_TOL`].
fn same_in_plan(s: [DVec3; 2], g: [DVec3; 2]) -> bool {
    let (s, g) = (s.map(world_to_plan), g.map(world_to_plan));
    let scale = s[0].abs().max(s[1].abs()).max_element().max(1.0);
    let near = |p: DVec2, q: DVec2| p.distance(q) <= LINE_TOL * scale;
    (near(s[0], g[0]) && near(s[1], g[1])) || (near(s[0], g[1]) && near(s[1], g[0]))
}

/// The crossing from node `a` (plan ring `ra`, empty for a point node or
/// a polygon without area) to node `b` (ring `rb`) over `link`.
pub(crate) fn crossing_with(
    a: &Node,
    ra: &[DVec2],
    b: &Node,
    rb: &[DVec2],
    link: Option<&Link>,
) -> Crossing {
    let Some(s) = crossing_segment(a, b, link) else {
        return Crossing::Points(keep_on(a, ra, a.position), keep_on(b, rb, b.position));
    };
    let kind = link.map_or(LinkKind::Walk, |l| l.kind);
    match rule(ra, rb, s, kind) {
        Rule::Edge(ea, eb) => {
            // The agent leaves across the source's edge `ea -> eb` (the
            // source on its left): its left hand is towards `eb`.
            let forward = (world_to_plan(s[1]) - world_to_plan(s[0])).dot(eb - ea) > 0.0;
            Crossing::Edge(if forward { [s[1], s[0]] } else { s })
        }
        Rule::Middle => {
            let m = (s[0] + s[1]) * 0.5;
            Crossing::Points(keep_on(a, ra, m), keep_on(b, rb, m))
        }
        Rule::Ends => {
            let (from, to) = (|p| plan_off(ra, p), |p| plan_off(rb, p));
            let swap = (from(s[1]), to(s[0])) < (from(s[0]), to(s[1]));
            let (e0, e1) = if swap { (s[1], s[0]) } else { (s[0], s[1]) };
            Crossing::Points(keep_in(ra, e0), keep_in(rb, e1))
        }
    }
}

/// Heights that differ by at most this much (metres) are one height.
const SAME_HEIGHT: f64 = 1e-6;

/// For a link of kind `kind` from node `source` to node `target` crossed
/// by rule 1 along `ends`: the same points on the source's surface and
/// on the target's (their polygons' planes) when the agent rises or falls
/// there (see the module docs), else `None`.
pub(crate) fn landing(
    kind: LinkKind,
    source: &Node,
    target: &Node,
    ends: [DVec3; 2],
) -> Option<[[DVec3; 2]; 2]> {
    if is_walking(kind) {
        return None;
    }
    let on = |n: &Node| {
        let poly = n.polygon.as_deref().filter(|p| p.len() >= 3)?;
        let lifted = ends.map(|e| DVec3::new(e.x, height_at(poly, e.x, e.z), e.z));
        lifted.iter().all(|p| p.is_finite()).then_some(lifted)
    };
    let (from, to) = (on(source)?, on(target)?);
    (0..2)
        .any(|i| (from[i].y - to[i].y).abs() > SAME_HEIGHT)
        .then_some([from, to])
}

/// [`crossing_with`], the rings taken from the nodes' polygons.
pub(crate) fn crossing(a: &Node, b: &Node, link: Option<&Link>) -> Crossing {
    let ring = |n: &Node| {
        n.polygon
            .as_deref()
            .and_then(plan_polygon)
            .map(|(plan, _)| plan)
            .unwrap_or_default()
    };
    crossing_with(a, &ring(a), b, &ring(b), link)
}

/// `p` moved, seen from above, to the nearest point of plan ring `ring`
/// (unmoved for an empty ring or a point inside), its height kept.
fn keep_in(ring: &[DVec2], p: DVec3) -> DVec3 {
    if ring.is_empty() {
        return p;
    }
    plan_to_world(clamp_into(ring, world_to_plan(p)), p.y)
}

/// `p` moved, seen from above, to the nearest point of node `n`'s plan
/// ring `ring` (unmoved inside it), on the node's polygon's plane; `p`
/// itself for an empty ring (a point node).
fn keep_on(n: &Node, ring: &[DVec2], p: DVec3) -> DVec3 {
    let Some(poly) = n.polygon.as_deref().filter(|_| !ring.is_empty()) else {
        return p;
    };
    let q = clamp_into(ring, world_to_plan(p));
    let on = plan_to_world(q, 0.0);
    let y = height_at(poly, on.x, on.z);
    if y.is_finite() {
        plan_to_world(q, y)
    } else {
        plan_to_world(q, p.y)
    }
}

/// How far `p` lies from plan ring `ring`, seen from above (0 inside or
/// for an empty ring).
fn plan_off(ring: &[DVec2], p: DVec3) -> f64 {
    if ring.is_empty() {
        return 0.0;
    }
    let q = world_to_plan(p);
    clamp_into(ring, q).distance(q)
}

/// A polygon's plan ring and world ring, counter-clockwise in plan, without
/// repeated points; `None` when it has no area or a non-finite point.
pub(crate) fn plan_polygon(points: &[DVec3]) -> Option<(Vec<DVec2>, Vec<DVec3>)> {
    let mut world: Vec<DVec3> = Vec::with_capacity(points.len());
    for p in points {
        if !p.is_finite() {
            return None;
        }
        if world
            .last()
            .is_none_or(|q| world_to_plan(*q) != world_to_plan(*p))
        {
            world.push(*p);
        }
    }
    while world.len() > 1 && world_to_plan(world[0]) == world_to_plan(world[world.len() - 1]) {
        world.pop();
    }
    if world.len() < 3 {
        return None;
    }
    let plan: Vec<DVec2> = world.iter().map(|p| world_to_plan(*p)).collect();
    let area: f64 = (0..plan.len())
        .map(|i| plan[i].perp_dot(plan[(i + 1) % plan.len()]))
        .sum();
    if area.is_nan() || area == 0.0 {
        return None;
    }
    if area < 0.0 {
        world.reverse();
        return Some((plan.into_iter().rev().collect(), world));
    }
    Some((plan, world))
}

/// Closest point of a convex counter-clockwise plan ring to `p` (`p` itself
/// when inside).
pub(crate) fn clamp_into(ring: &[DVec2], p: DVec2) -> DVec2 {
    let n = ring.len();
    let inside = (0..n).all(|i| (ring[(i + 1) % n] - ring[i]).perp_dot(p - ring[i]) >= 0.0);
    if inside {
        return p;
    }
    let mut best = (f64::INFINITY, p);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let q = a + (b - a) * project_on_segment(a, b, p).clamp(0.0, 1.0);
        let d = q.distance_squared(p);
        if d < best.0 {
            best = (d, q);
        }
    }
    best.1
}

/// The edge `(a, b)` of plan ring `ring` on whose line, and within whose
/// ends, both `p` and `q` lie (with [`LINE_TOL`]).
fn edge_holding(ring: &[DVec2], p: DVec2, q: DVec2) -> Option<(DVec2, DVec2)> {
    let n = ring.len();
    (0..n)
        .map(|i| (ring[i], ring[(i + 1) % n]))
        .find(|&(a, b)| {
            let ab = b - a;
            let len2 = ab.length_squared();
            if !positive(len2) {
                return false;
            }
            let len = len2.sqrt();
            let scale = a.abs().max(b.abs()).max_element().max(len);
            [p, q].iter().all(|&x| {
                let t = (x - a).dot(ab) / len2;
                ab.perp_dot(x - a).abs() / len <= LINE_TOL * scale
                    && (-LINE_TOL..=1.0 + LINE_TOL).contains(&t)
            })
        })
}

/// Longest shared stretch of the two polygons' boundaries, in world space
/// (heights interpolated on `a`'s edge), by the rule Polyanya's mesh
/// joins polygons by (`polyanya::mesh`): plan edges that overlap along a
/// stretch of positive length and run opposite ways (the polygons on
/// either side), else a corner the two have at the same 3D position.
/// Polygons over each other in plan (a floor over a pool, whose edges run
/// the same way, or a corner of one over a corner of the other) share
/// nothing.
fn shared_edge(a: &[DVec3], b: &[DVec3]) -> Option<[DVec3; 2]> {
    let mut best: Option<([DVec3; 2], f64)> = None;
    for i in 0..a.len() {
        let (a0, a1) = (a[i], a[(i + 1) % a.len()]);
        let (pa0, pa1) = (world_to_plan(a0), world_to_plan(a1));
        for j in 0..b.len() {
            let (pb0, pb1) = (world_to_plan(b[j]), world_to_plan(b[(j + 1) % b.len()]));
            let found = match overlap(pa0, pa1, pb0, pb1) {
                Some((t0, t1)) => [a0.lerp(a1, t0), a0.lerp(a1, t1)],
                None if a0 == b[j] => [a0, a0],
                None => continue,
            };
            let len = found[0].distance(found[1]);
            if best.is_none_or(|(_, l)| len > l) {
                best = Some((found, len));
            }
        }
    }
    best.map(|(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::Stance;
    use proptest::prelude::*;

    fn v(x: f64, y: f64, z: f64) -> DVec3 {
        DVec3::new(x, y, z)
    }

    /// A standing node at `position`, with `polygon` or none.
    fn node(position: DVec3, polygon: Option<Vec<DVec3>>) -> Node {
        let mut m = navscope_core::NavMesh::new("t", "t");
        m.add_node(position, polygon, Stance::Stand, 0);
        m.nodes.pop().unwrap()
    }

    /// A polygon node: the rectangle `x0..x1` by `z0..z1` at height `y`.
    fn rect(x0: f64, z0: f64, x1: f64, z1: f64, y: f64) -> Node {
        let corners = vec![v(x0, y, z0), v(x1, y, z0), v(x1, y, z1), v(x0, y, z1)];
        node(v((x0 + x1) * 0.5, y, (z0 + z1) * 0.5), Some(corners))
    }

    fn point(p: DVec3) -> Node {
        node(p, None)
    }

    fn link(kind: LinkKind, segment: Option<[DVec3; 2]>) -> Link {
        Link::new(0, 1, kind, 1.0, segment)
    }

    #[test]
    fn a_segment_on_both_polygons_edges_is_crossed_anywhere_left_hand_first() {
        // Two squares side by side along +x; the door between them.
        let (a, b) = (rect(0., 0., 1., 1., 0.), rect(1., 0., 2., 1., 0.));
        let door = [v(1., 0., 0.), v(1., 0., 1.)];
        // Going +x (plan east) the agent's left is plan north, world -z.
        let want = Crossing::Edge([v(1., 0., 0.), v(1., 0., 1.)]);
        for s in [door, [door[1], door[0]]] {
            assert_eq!(crossing(&a, &b, Some(&link(LinkKind::Door, Some(s)))), want);
        }
        let back = crossing(&b, &a, Some(&link(LinkKind::Door, Some(door))));
        assert_eq!(back, Crossing::Edge([v(1., 0., 1.), v(1., 0., 0.)]));
        // A walking link without a segment crosses the shared edge.
        assert_eq!(crossing(&a, &b, Some(&link(LinkKind::Walk, None))), want);
        assert_eq!(crossing(&a, &b, None), want);
    }

    #[test]
    fn a_jump_is_taken_at_its_ends_whichever_it_lists_first() {
        // A floor and a lower floor two metres on, a gap between.
        let (a, b) = (rect(0., 0., 1., 1., 2.), rect(3., 0., 4., 1., 0.));
        let takeoff = v(1., 2., 0.5);
        let landing = v(3.5, 0., 0.5);
        let want = Crossing::Points(takeoff, landing);
        for s in [[takeoff, landing], [landing, takeoff]] {
            let l = link(LinkKind::Jump, Some(s));
            assert_eq!(crossing(&a, &b, Some(&l)), want);
        }
        // A landing short of the target is moved onto it, its height kept.
        let short = [takeoff, v(2.5, 0., 0.25)];
        assert_eq!(
            crossing(&a, &b, Some(&link(LinkKind::Jump, Some(short)))),
            Crossing::Points(takeoff, v(3., 0., 0.25))
        );
        // Without a segment: the two node positions.
        assert_eq!(
            crossing(&a, &b, Some(&link(LinkKind::Jump, None))),
            Crossing::Points(a.position, b.position)
        );
    }

    #[test]
    fn a_ladder_up_to_a_balcony_over_its_floor_starts_at_its_foot() {
        // The floor runs on under the balcony: both ends of the ladder lie
        // over the floor, and only the balcony holds its top.
        let (floor, balcony) = (rect(0., 0., 4., 4., 0.), rect(2., 0., 4., 4., 3.));
        let (foot, top) = (v(1.5, 0., 2.), v(2.5, 3., 2.));
        for s in [[foot, top], [top, foot]] {
            let up = link(LinkKind::Ladder, Some(s));
            assert_eq!(
                crossing(&floor, &balcony, Some(&up)),
                Crossing::Points(foot, top)
            );
        }
    }

    #[test]
    fn a_walking_link_crosses_the_shared_edge_whatever_its_segment() {
        // Polyanya's mesh joins the two squares across their whole edge.
        let (a, b) = (rect(0., 0., 1., 1., 0.), rect(1., 0., 2., 1., 0.));
        let narrow = [v(1., 0., 0.4), v(1., 0., 0.6)];
        let centres = [a.position, b.position];
        for s in [narrow, centres] {
            assert_eq!(
                crossing(&a, &b, Some(&link(LinkKind::Swim, Some(s)))),
                Crossing::Edge([v(1., 0., 0.), v(1., 0., 1.)])
            );
        }
        // A jump with the same segment is taken at its ends.
        assert_eq!(
            crossing(&a, &b, Some(&link(LinkKind::Jump, Some(centres)))),
            Crossing::Points(a.position, b.position)
        );
    }

    #[test]
    fn a_lip_over_a_gap_a_teleport_and_a_point_are_taken_at_the_middle() {
        // The lip is the upper floor's edge; the floor below begins half a
        // metre further out.
        let (a, b) = (rect(0., 0., 1., 2., 1.), rect(1.5, 0., 3., 2., 0.));
        let lip = [v(1., 1., 0.), v(1., 1., 2.)];
        // The points lie on their floors.
        assert_eq!(
            crossing(&a, &b, Some(&link(LinkKind::StepDown, Some(lip)))),
            Crossing::Points(v(1., 1., 1.), v(1.5, 0., 1.))
        );
        // A teleport on the edge between two touching squares.
        let c = rect(1., 0., 2., 2., 0.);
        assert_eq!(
            crossing(&a, &c, Some(&link(LinkKind::Teleport, Some(lip)))),
            Crossing::Points(v(1., 1., 1.), v(1., 0., 1.))
        );
        // A segment of no length on the edge.
        let dot = [v(1., 1., 1.), v(1., 1., 1.)];
        assert_eq!(
            crossing(&a, &c, Some(&link(LinkKind::Jump, Some(dot)))),
            Crossing::Points(v(1., 1., 1.), v(1., 0., 1.))
        );
        // Squares meeting at one corner only: through the corner.
        let d = rect(1., 2., 2., 3., 1.);
        assert_eq!(
            crossing(&a, &d, None),
            Crossing::Points(v(1., 1., 2.), v(1., 1., 2.))
        );
    }

    #[test]
    fn degenerate_polygons_and_point_nodes_are_points() {
        let a = rect(0., 0., 1., 1., 0.);
        // A polygon of no area has no ring: its side is a point.
        let mut flat = rect(2., 0., 3., 1., 0.);
        flat.polygon = Some(vec![v(2., 0., 0.), v(3., 0., 0.), v(4., 0., 0.)]);
        let p = point(v(5., 0., 5.));
        let s = [v(0.5, 0., 0.5), v(9., 0., 9.)];
        for b in [&flat, &p] {
            assert_eq!(
                crossing(&a, b, Some(&link(LinkKind::Jump, Some(s)))),
                Crossing::Points(s[0], s[1])
            );
            assert_eq!(
                crossing(&a, b, Some(&link(LinkKind::Ladder, None))),
                Crossing::Points(a.position, b.position)
            );
        }
        // Non-finite corners: no ring either.
        let mut bad = rect(2., 0., 3., 1., 0.);
        bad.polygon.as_mut().unwrap()[0].x = f64::NAN;
        assert!(matches!(
            crossing(&a, &bad, Some(&link(LinkKind::Jump, Some(s)))),
            Crossing::Points(..)
        ));
    }

    fn inside(ring: &[DVec2], p: DVec3) -> bool {
        let q = world_to_plan(p);
        let n = ring.len();
        (0..n).all(|i| (ring[(i + 1) % n] - ring[i]).perp_dot(q - ring[i]) >= -1e-9)
    }

    proptest! {
        /// Fixed points lie in their polygons; an edge lies on the source's
        /// boundary, and the way back over the same segment is the same
        /// edge, its ends swapped.
        #[test]
        fn points_lie_in_their_polygons_and_edges_reverse(
            ax in -5.0f64..5.0, az in -5.0f64..5.0, aw in 0.1f64..4.0, ah in 0.1f64..4.0,
            bx in -5.0f64..5.0, bz in -5.0f64..5.0, bw in 0.1f64..4.0, bh in 0.1f64..4.0,
            s in prop::array::uniform4(-8.0f64..8.0),
            on_edge in any::<bool>(),
        ) {
            let a = rect(ax, az, ax + aw, az + ah, 0.0);
            // With `on_edge`, the target touches the source's east edge.
            let b = if on_edge {
                rect(ax + aw, bz, ax + aw + bw, bz + bh, 0.0)
            } else {
                rect(bx, bz, bx + bw, bz + bh, 1.0)
            };
            let seg = if on_edge {
                let (lo, hi) = (az.max(bz), (az + ah).min(bz + bh));
                let (t0, t1) = (s[0].rem_euclid(1.0), s[1].rem_euclid(1.0));
                [v(ax + aw, 0.0, lo + (hi - lo) * t0), v(ax + aw, 0.0, lo + (hi - lo) * t1)]
            } else {
                [v(s[0], 0.0, s[1]), v(s[2], 1.0, s[3])]
            };
            let ring = |n: &Node| plan_polygon(n.polygon.as_deref().unwrap()).unwrap().0;
            let (ra, rb) = (ring(&a), ring(&b));
            for kind in [LinkKind::Jump, LinkKind::Walk, LinkKind::Teleport] {
                let l = link(kind, Some(seg));
                match crossing(&a, &b, Some(&l)) {
                    Crossing::Points(e, x) => {
                        prop_assert!(inside(&ra, e), "{:?} not in {:?}", e, ra);
                        prop_assert!(inside(&rb, x), "{:?} not in {:?}", x, rb);
                    }
                    Crossing::Edge([left, right]) => {
                        prop_assert!(kind != LinkKind::Teleport);
                        prop_assert!(on_edge);
                        prop_assert!(inside(&ra, left) && inside(&ra, right));
                        // (A shared stretch is measured on the source's
                        // edge: back, on the other, up to rounding.)
                        let back = link(kind, Some([seg[1], seg[0]]));
                        let Crossing::Edge([l2, r2]) = crossing(&b, &a, Some(&back)) else {
                            return Err(TestCaseError::fail("the way back is no edge"));
                        };
                        prop_assert!(
                            l2.distance(right) < 1e-9 && r2.distance(left) < 1e-9,
                            "back {:?} {:?}, there {:?} {:?}", l2, r2, left, right
                        );
                    }
                }
            }
        }
    }
}
