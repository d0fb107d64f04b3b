//! Stage 7, *navmesh*: every agent size's walkable polygons and links as
//! one common [`NavMesh`] with stance metadata.
//!
//! Choices:
//! * The stages work in configuration space, where a mesh floats at the
//!   height of its agent's centre. The NavMesh is lowered by each size's
//!   half height so that every mesh lies where the agent's feet are and
//!   paths compare with the other pipelines'. Before that, every ledge
//!   edge moves back over the brush under it ([`crate::ledges`]), so a
//!   polygon ends where the agent's centre stands over the brush, not a
//!   half width beyond it in the air. The standing and crouching
//!   meshes do not overlap: the crouching one is crouch-only space (see
//!   [`crate::crouch_space`]).
//! * Several links of one kind between the same two polygons (collinear
//!   edge pieces) become one link: the one with the longest crossing
//!   segment.
//! * A link's cost is the length of the polyline from the source polygon's
//!   centroid through the middle of the crossing (source side, then
//!   destination side) to the destination's centroid, in metres.

use std::collections::BTreeMap;

use glam::DVec3;
use navscope_core::{LinkKind, NavMesh};

use crate::ledges::onto;
use crate::links::LinkSeg;
use crate::polyhedron::polygon_centroid;
use crate::scene::AgentSize;

/// Builds the NavMesh from each mesh's node polygons (in configuration
/// space, [`crate::ledges::shrink_ledges`]'s output); returns it with the
/// id of the first node of each mesh (node id = first + polygon index).
/// `landing(link, from, to)` is the cost a link adds to its length, given
/// the middles of its crossing at the agent's feet.
pub fn navmesh(
    sizes: &[AgentSize],
    meshes: &[Vec<Vec<DVec3>>],
    links: &[&LinkSeg],
    landing: &dyn Fn(&LinkSeg, DVec3, DVec3) -> f64,
) -> (NavMesh, Vec<u32>) {
    let mut nav = NavMesh::new("cspace", "");
    let mut first = Vec::new();
    let mut centroids: Vec<DVec3> = Vec::new();
    for (m, polys) in meshes.iter().enumerate() {
        first.push(nav.nodes.len() as u32);
        let down = DVec3::new(0.0, sizes[m].half.y, 0.0);
        for p in polys {
            let polygon: Vec<DVec3> = p.iter().map(|v| *v - down).collect();
            let c = polygon_centroid(&polygon);
            centroids.push(c);
            nav.add_node(c, Some(polygon), sizes[m].stance, 0);
        }
    }
    // Per (from, to, kind): the longest crossing's span, segment and cost.
    type Best = (f64, [DVec3; 2], f64);
    let mut best: BTreeMap<(u32, u32, LinkKind), Best> = BTreeMap::new();
    for l in links {
        let from = first[l.from_mesh] + l.from as u32;
        let to = first[l.to_mesh] + l.to as u32;
        let sdown = DVec3::new(0.0, sizes[l.from_mesh].half.y, 0.0);
        let ddown = DVec3::new(0.0, sizes[l.to_mesh].half.y, 0.0);
        // Onto the polygons, which may have shrunk away from a ledge.
        let (pf, pt) = (
            nav.nodes[from as usize].polygon.as_deref().unwrap_or(&[]),
            nav.nodes[to as usize].polygon.as_deref().unwrap_or(&[]),
        );
        let src = l.source.map(|p| onto(pf, p - sdown));
        let dst = l.dest.map(|p| onto(pt, p - ddown));
        let (ms, md) = ((src[0] + src[1]) * 0.5, (dst[0] + dst[1]) * 0.5);
        let span = src[0].distance(src[1]);
        let segment = if span > 1e-9 { src } else { [ms, md] };
        let cost = centroids[from as usize].distance(ms)
            + ms.distance(md)
            + md.distance(centroids[to as usize])
            + landing(l, ms, md);
        let e = best
            .entry((from, to, l.kind))
            .or_insert((-1.0, segment, cost));
        if span > e.0 {
            *e = (span, segment, cost);
        }
    }
    for ((from, to, kind), (_, segment, cost)) in best {
        nav.links.push(navscope_core::Link::new(
            from,
            to,
            kind,
            cost,
            Some(segment),
        ));
    }
    (nav, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walkable::WalkPoly;
    use navscope_core::Stance;
    use navscope_core::geom::Plane;

    #[test]
    fn meshes_are_lowered_to_the_feet_and_duplicate_links_merge() {
        let sq = |x: f64, y: f64| WalkPoly {
            fragment: 0,
            plane: Plane {
                normal: DVec3::Y,
                d: y,
            },
            polygon: vec![
                DVec3::new(x, y, 1.0),
                DVec3::new(x + 1.0, y, 1.0),
                DVec3::new(x + 1.0, y, 0.0),
                DVec3::new(x, y, 0.0),
            ],
            slope_deg: 0.0,
            region: None,
        };
        let sizes = vec![
            AgentSize {
                name: "stand".into(),
                stance: Stance::Stand,
                half: DVec3::new(0.3, 0.9, 0.3),
            },
            AgentSize {
                name: "crouch".into(),
                stance: Stance::Crouch,
                half: DVec3::new(0.3, 0.5, 0.3),
            },
        ];
        let meshes = [vec![sq(0.0, 0.9), sq(1.0, 0.9)], vec![sq(0.0, 0.5)]];
        let seg = |z0: f64, z1: f64, y: f64| [DVec3::new(1.0, y, z0), DVec3::new(1.0, y, z1)];
        let l = |from_mesh, from, to_mesh, to, kind, s: [DVec3; 2], d| LinkSeg {
            from_mesh,
            from,
            to_mesh,
            to,
            kind,
            source: s,
            dest: d,
            across: DVec3::X,
            edge: None,
        };
        let links = [
            l(
                0,
                0,
                0,
                1,
                LinkKind::Walk,
                seg(0.0, 0.4, 0.9),
                seg(0.0, 0.4, 0.9),
            ),
            l(
                0,
                0,
                0,
                1,
                LinkKind::Walk,
                seg(0.4, 1.0, 0.9),
                seg(0.4, 1.0, 0.9),
            ),
            l(
                0,
                1,
                1,
                0,
                LinkKind::Crouch,
                seg(0.0, 1.0, 0.9),
                seg(0.0, 1.0, 0.5),
            ),
        ];
        let refs: Vec<&LinkSeg> = links.iter().collect();
        let polygons: Vec<Vec<Vec<DVec3>>> = meshes
            .iter()
            .map(|m| m.iter().map(|p: &WalkPoly| p.polygon.clone()).collect())
            .collect();
        let (nav, first) = navmesh(&sizes, &polygons, &refs, &|_, _, _| 0.0);
        nav.validate().unwrap();
        assert_eq!(first, vec![0, 2]);
        assert_eq!(nav.nodes[2].stance, Stance::Crouch);
        assert!(
            nav.nodes.iter().all(|n| n.position.y.abs() < 1e-12),
            "both meshes lie at the feet"
        );
        assert_eq!(nav.links.len(), 2);
        let walk = nav.links.iter().find(|l| l.kind == LinkKind::Walk).unwrap();
        assert!(
            (walk.segment().unwrap()[0].z - 0.4).abs() < 1e-12,
            "the longer piece is kept"
        );
        assert!(
            (walk.cost - 2.0 * 0.29f64.sqrt()).abs() < 1e-9,
            "centroid, crossing middle, centroid"
        );
        assert_eq!(
            nav.links
                .iter()
                .find(|l| l.kind == LinkKind::Crouch)
                .unwrap()
                .to,
            2
        );
    }
}
