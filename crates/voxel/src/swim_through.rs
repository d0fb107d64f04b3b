//! Swims through a body of water in three dimensions, as `cspace` swims
//! ([`navscope_core::swim`]: the Yao graph both pipelines share).
//!
//! The swim pass's polygons lie on the floor under water deep enough to
//! swim, with room for the swimmer over it ([`crate::flags`]); a swimmer
//! is not held to that floor. The places of
//! [`navscope_core::swim::yao_swims`] are the swim nodes whose polygon's
//! centre lies in one body of the level's water volumes (boxes that touch
//! are one body; the global water level of `water_level_on` makes no
//! body), and a straight swim between two of them is clear when:
//!
//! * it runs between each polygon's point nearest the other's centre (in
//!   plan, at its surface height: a straight line from floor to floor);
//! * every point of it, every half cell, lies in the body's boxes (with a
//!   voxel of slack up and down and a cell sideways: the floors are
//!   rounded to voxels), so it never leaves the water through the air;
//! * at every one of those points the voxel column has room for the
//!   swimmer's height over the point ([`crate::drops::room`]: an open
//!   span from at most a step over the point to the height above it), on
//!   the line itself, and the swimmer's width fits across the line there
//!   ([`crate::swim::fits_across`]: strictly, more than its width free).
//!   So a swim goes through no wall, no floor, no ceiling lower than the
//!   swimmer and no gap as narrow as it (between the bars of a grate).
//!
//! Each swim is a `swim` link both ways, its segment the line, its cost
//! the length from each node's centre to its end of the line and along it
//! (as the drop links').

use glam::{DVec2, DVec3};
use navscope_core::geom::Aabb;
use navscope_core::navmesh::{Link, Node};
use navscope_core::swim::{water_bodies, yao_swims};
use navscope_core::{LinkKind, NavMesh, Stance};

use crate::drops::{Voxels, room};
use crate::settings::AgentParams;
use crate::swim::{Columns, fits_across, inside, node_height, plan};

/// One swim found: the two swim nodes and the ends of the line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swim {
    /// One node.
    pub a: u32,
    /// The other node.
    pub b: u32,
    /// The line's end on `a`.
    pub pa: DVec3,
    /// The line's end on `b`.
    pub pb: DVec3,
}

/// The swims among `nav`'s swim nodes in the bodies of `water` (see the
/// module docs), for a swimmer `agent` whose step is `step`.
pub fn find_swims(
    nav: &NavMesh,
    water: &[Aabb],
    voxels: &Voxels,
    agent: &AgentParams,
    step: f64,
) -> Vec<Swim> {
    let g = voxels.grid;
    let slack = DVec3::new(g.cs, 2.0 * g.ch, g.cs);
    let grown: Vec<Aabb> = water
        .iter()
        .map(|w| Aabb {
            min: w.min - slack,
            max: w.max + slack,
        })
        .collect();
    let cols = Columns::new(voxels.tiles);
    let body_agent = AgentParams {
        max_step: step,
        ..*agent
    };
    let mut out = Vec::new();
    for body in water_bodies(water) {
        let boxes: Vec<Aabb> = body.iter().map(|&k| grown[k]).collect();
        let in_body = |p: DVec3| boxes.iter().any(|b| b.contains(p));
        let wet: Vec<u32> = nav
            .nodes
            .iter()
            .filter(|n| {
                n.stance == Stance::Swim && n.polygon.as_ref().is_some_and(|p| p.len() >= 3)
            })
            .filter(|n| in_body(n.position))
            .map(|n| n.id)
            .collect();
        if wet.len() < 2 {
            continue;
        }
        let node = |k: usize| &nav.nodes[wet[k] as usize];
        let places: Vec<Aabb> = (0..wet.len())
            .map(|k| Aabb::from_points(node(k).polygon.iter().flatten().copied()))
            .collect();
        let found = yao_swims(&places, step, |ka, kb| {
            let (a, b) = (node(ka), node(kb));
            let pa = nearest_on(a, plan(b.position))?;
            let pb = nearest_on(b, plan(pa))?;
            let d = plan(pb - pa);
            let across = DVec2::new(-d.y, d.x).normalize_or_zero();
            let n = (pa.distance(pb) / (0.5 * g.cs)).ceil().max(1.0) as usize;
            let clear = (0..=n).all(|k| {
                let p = pa.lerp(pb, k as f64 / n as f64);
                let open = |q: DVec2| room(voxels, &cols, &body_agent, q, p.y, None);
                in_body(p)
                    && open(plan(p))
                    && (across == DVec2::ZERO
                        || fits_across(g, plan(p), across, agent.radius, open))
            });
            clear.then_some((pa, pb))
        });
        out.extend(found.into_iter().map(|(ka, kb, pa, pb)| Swim {
            a: wet[ka],
            b: wet[kb],
            pa,
            pb,
        }));
    }
    out
}

/// The point of `node`'s polygon nearest plan point `q`, at the node's
/// surface height there.
fn nearest_on(node: &Node, q: DVec2) -> Option<DVec3> {
    let poly: Vec<DVec2> = node.polygon.as_ref()?.iter().map(|&v| plan(v)).collect();
    let at = if inside(&poly, q) {
        q
    } else {
        (0..poly.len())
            .map(|k| {
                let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
                let len2 = (b - a).length_squared();
                let t = if len2 > 0.0 {
                    ((q - a).dot(b - a) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                a + (b - a) * t
            })
            .min_by(|x, y| x.distance_squared(q).total_cmp(&y.distance_squared(q)))?
    };
    Some(DVec3::new(at.x, node_height(node, at)?, at.y))
}

/// Adds `swims` to `nav` as `swim` links both ways; their indices.
pub fn add_swim_links(nav: &mut NavMesh, swims: &[Swim]) -> Vec<usize> {
    let mut out = Vec::new();
    for s in swims {
        let cost = nav.nodes[s.a as usize].position.distance(s.pa)
            + s.pa.distance(s.pb)
            + s.pb.distance(nav.nodes[s.b as usize].position);
        for (from, to, p, q) in [(s.a, s.b, s.pa, s.pb), (s.b, s.a, s.pb, s.pa)] {
            nav.links
                .push(Link::new(from, to, LinkKind::Swim, cost, Some([p, q])));
            out.push(nav.links.len() - 1);
        }
    }
    out
}
