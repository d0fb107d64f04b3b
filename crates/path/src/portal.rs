//! The portal sequence the funnel pulls a string through.
//!
//! For each step `nodes[i] -> nodes[i + 1]` of a path the crossing is the
//! one Polyanya takes too (module `crossing`): a segment crossed anywhere
//! along it (a shared edge, a door, a step's lip) is a portal, oriented as
//! the agent sees it when crossing (`left` on its left hand); a link taken
//! at fixed points (a jump from its takeoff to its landing, the two node
//! positions) is two point portals, one in each node.
//!
//! Agent clearance: with radius `r > 0` each segment portal is shrunk by `r`
//! at both ends, but never past its midpoint (a portal shorter than `2r`
//! becomes its midpoint). Shrinking keeps the string away from the corners it
//! bends around; a mesh built for the agent's radius (the pipelines erode
//! walls by it) needs `r = 0`.

use glam::{DVec2, DVec3};
use navscope_core::NavMesh;
use navscope_core::geom::world_to_plan;

use crate::crossing::{Crossing, crossing, landing};
use crate::num::positive;

/// One crossing of the portal sequence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Portal {
    /// Endpoint on the agent's left.
    pub left: DVec3,
    /// Endpoint on the agent's right.
    pub right: DVec3,
    /// Index in the path of the node the agent is in after this crossing.
    pub node: usize,
    /// True when this crossing enters `node` (false for the start point, the
    /// goal point and the first portal of a link taken at fixed points or rising
    /// at a lip, which stay inside).
    pub enters: bool,
    /// For a crossing segment between the nodes at path indices `node - 1`
    /// and `node` (a lip's first portal: on the surface of node `node`, the
    /// one left): the segment's ends before the agent radius shrank it.
    /// `None` for the point portals (start, goal and fixed points).
    pub edge: Option<[DVec3; 2]>,
    /// For a crossing segment: the link crossed (its index in the mesh)
    /// and whether it is crossed from its `from` node to its `to` node;
    /// `None` where no link of the path joins the two nodes, and for the
    /// two portals of a lip, whose ends are not the link's segment.
    pub link: Option<(usize, bool)>,
}

impl Portal {
    fn point(p: DVec3, node: usize, enters: bool) -> Self {
        Self {
            left: p,
            right: p,
            node,
            enters,
            edge: None,
            link: None,
        }
    }

    /// Plan coordinates of the two ends.
    pub fn plan(&self) -> (DVec2, DVec2) {
        (world_to_plan(self.left), world_to_plan(self.right))
    }

    /// World point at parameter `t` from left (0) to right (1).
    pub fn at(&self, t: f64) -> DVec3 {
        self.left.lerp(self.right, t)
    }
}

/// Shrinks `[left, right]` by `radius` at both ends, not past the midpoint.
fn shrink(s: [DVec3; 2], radius: f64) -> [DVec3; 2] {
    let len = world_to_plan(s[0]).distance(world_to_plan(s[1]));
    if !positive(radius) || !positive(len) {
        return s;
    }
    let t = (radius / len).min(0.5);
    [s[0].lerp(s[1], t), s[0].lerp(s[1], 1.0 - t)]
}

/// The portal sequence from `start` to `goal` through `nodes` (see the
/// module docs), written to `out` (cleared first, so a caller keeps one
/// buffer for every query). `links[i]` should join `nodes[i]` to
/// `nodes[i + 1]`; a missing or mismatched link is treated as a link
/// without a segment. `known(link, forward)` is the [`crossing`] of a
/// link crossed from its `from` node (`forward`) or its `to` node where
/// the caller has it prepared, `None` where it does not. Returns
/// false (and `out` empty) when a node id is unknown.
#[allow(clippy::too_many_arguments)]
pub(crate) fn portals(
    mesh: &NavMesh,
    nodes: &[u32],
    links: &[usize],
    start: DVec3,
    goal: DVec3,
    radius: f64,
    known: impl Fn(usize, bool) -> Option<Crossing>,
    out: &mut Vec<Portal>,
) -> bool {
    out.clear();
    if nodes.iter().any(|id| *id as usize >= mesh.nodes.len()) {
        return false;
    }
    let node = |id: u32| &mesh.nodes[id as usize];
    out.push(Portal::point(start, 0, true));
    for i in 0..nodes.len().saturating_sub(1) {
        let (a, b) = (node(nodes[i]), node(nodes[i + 1]));
        let link = links
            .get(i)
            .and_then(|li| Some((*li, mesh.links.get(*li)?)))
            .filter(|(_, l)| {
                (l.from, l.to) == (nodes[i], nodes[i + 1])
                    || (l.from, l.to) == (nodes[i + 1], nodes[i])
            });
        let way = match link {
            Some((li, l)) => {
                known(li, l.from == nodes[i]).unwrap_or_else(|| crossing(a, b, Some(l)))
            }
            None => crossing(a, b, None),
        };
        match way {
            Crossing::Edge(ends) => {
                let [left, right] = shrink(ends, radius);
                if let Some([takeoff, landed]) = link.and_then(|(_, l)| landing(l.kind, a, b, ends))
                {
                    // A jump at a lip: the lip on the floor left, then the
                    // same points on the floor entered (module `crossing`).
                    // Neither keeps the link: its prepared detail holder is
                    // for the segment itself.
                    let [left, right] = shrink(takeoff, radius);
                    out.push(Portal {
                        left,
                        right,
                        node: i,
                        enters: false,
                        edge: Some(takeoff),
                        link: None,
                    });
                    let [left, right] = shrink(landed, radius);
                    out.push(Portal {
                        left,
                        right,
                        node: i + 1,
                        enters: true,
                        edge: Some(landed),
                        link: None,
                    });
                    continue;
                }
                out.push(Portal {
                    left,
                    right,
                    node: i + 1,
                    enters: true,
                    edge: Some(ends),
                    link: link.map(|(li, l)| (li, l.from == nodes[i])),
                });
            }
            Crossing::Points(leave, arrive) => {
                out.push(Portal::point(leave, i, false));
                out.push(Portal::point(arrive, i + 1, true));
            }
        }
    }
    out.push(Portal::point(goal, nodes.len().saturating_sub(1), false));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::grid_mesh;
    use navscope_core::{LinkKind, Stance};

    /// [`super::portals`] into a fresh vector, `None` for an unknown node.
    fn portals(
        mesh: &NavMesh,
        nodes: &[u32],
        links: &[usize],
        start: DVec3,
        goal: DVec3,
        radius: f64,
    ) -> Option<Vec<Portal>> {
        let mut out = Vec::new();
        let fresh = |_: usize, _: bool| None;
        super::portals(mesh, nodes, links, start, goal, radius, fresh, &mut out).then_some(out)
    }

    #[test]
    fn grid_portals_are_oriented_for_the_traveller() {
        // 2 cells along +x: walking +x (plan east), left is plan north = world -z.
        let m = grid_mesh(2, 1, |_, _| false);
        let p = portals(
            &m,
            &[0, 1],
            &[0],
            m.nodes[0].position,
            m.nodes[1].position,
            0.0,
        )
        .unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].left, DVec3::new(1., 0., 0.));
        assert_eq!(p[1].right, DVec3::new(1., 0., 1.));
        assert!(p[1].enters);
        // Walking back, left and right swap.
        let back = portals(
            &m,
            &[1, 0],
            &[1],
            m.nodes[1].position,
            m.nodes[0].position,
            0.0,
        )
        .unwrap();
        assert_eq!(back[1].left, DVec3::new(1., 0., 1.));
    }

    #[test]
    fn radius_shrinks_but_not_past_the_midpoint() {
        let m = grid_mesh(2, 1, |_, _| false);
        let p = portals(&m, &[0, 1], &[0], DVec3::ZERO, DVec3::ZERO, 0.25).unwrap();
        assert_eq!(p[1].left, DVec3::new(1., 0., 0.25));
        assert_eq!(p[1].right, DVec3::new(1., 0., 0.75));
        let p = portals(&m, &[0, 1], &[0], DVec3::ZERO, DVec3::ZERO, 3.0).unwrap();
        assert_eq!(p[1].left, DVec3::new(1., 0., 0.5));
        assert_eq!(p[1].right, DVec3::new(1., 0., 0.5));
    }

    #[test]
    fn missing_segment_uses_the_shared_edge_then_positions() {
        let mut m = grid_mesh(3, 1, |_, _| false);
        for l in &mut m.links {
            l.segment = None;
        }
        let p = portals(&m, &[0, 1], &[0], DVec3::ZERO, DVec3::ZERO, 0.0).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].left, DVec3::new(1., 0., 0.));
        assert_eq!(p[1].right, DVec3::new(1., 0., 1.));
        // 0 and 2 share nothing: a jump through both positions.
        m.links.push(navscope_core::Link {
            from: 0,
            to: 2,
            kind: LinkKind::Jump,
            cost: 2.0,
            segment: None,
        });
        let p = portals(
            &m,
            &[0, 2],
            &[m.links.len() - 1],
            DVec3::ZERO,
            DVec3::ZERO,
            0.0,
        )
        .unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(
            (p[1].left, p[1].node, p[1].enters),
            (m.nodes[0].position, 0, false)
        );
        assert_eq!(
            (p[2].left, p[2].node, p[2].enters),
            (m.nodes[2].position, 1, true)
        );
        assert!(portals(&m, &[0, 9], &[0], DVec3::ZERO, DVec3::ZERO, 0.0).is_none());
        assert!(portals(&m, &[9], &[], DVec3::ZERO, DVec3::ZERO, 0.0).is_none());
    }

    #[test]
    fn a_jump_or_a_floor_overhead_crosses_at_the_nodes_not_a_plan_edge() {
        // Cells 0 and 1 side by side; a jump between them without a
        // segment goes through both positions, as Polyanya takes it.
        let mut m = grid_mesh(2, 1, |_, _| false);
        m.links
            .push(navscope_core::Link::new(0, 1, LinkKind::Jump, 1.0, None));
        let p = portals(&m, &[0, 1], &[2], DVec3::ZERO, DVec3::ZERO, 0.0).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[1].left, m.nodes[0].position);
        // A cell over cell 0, swum up to: their edges run the same way.
        let mut up = m.nodes[0].polygon.clone().unwrap();
        for q in &mut up {
            q.y = 3.0;
        }
        m.add_node(DVec3::new(0.5, 3.0, 0.5), Some(up), Stance::Stand, 1);
        m.links
            .push(navscope_core::Link::new(0, 2, LinkKind::Swim, 3.0, None));
        let p = portals(&m, &[0, 2], &[3], DVec3::ZERO, DVec3::ZERO, 0.0).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[2].left, DVec3::new(0.5, 3.0, 0.5));
    }

    #[test]
    fn shared_vertex_is_a_zero_length_portal() {
        let mut m = NavMesh::new("t", "t");
        let sq = |x: f64, z: f64| {
            vec![
                DVec3::new(x, 0., z + 1.),
                DVec3::new(x + 1., 0., z + 1.),
                DVec3::new(x + 1., 0., z),
                DVec3::new(x, 0., z),
            ]
        };
        m.add_node(DVec3::new(0.5, 0., 0.5), Some(sq(0., 0.)), Stance::Stand, 0);
        m.add_node(DVec3::new(1.5, 0., 1.5), Some(sq(1., 1.)), Stance::Stand, 0);
        let p = portals(&m, &[0, 1], &[], DVec3::ZERO, DVec3::ZERO, 0.0).unwrap();
        assert_eq!(p[1].left, DVec3::new(1., 0., 1.));
        assert_eq!(p[1].right, DVec3::new(1., 0., 1.));
    }
}
