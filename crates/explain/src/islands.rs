//! The connected parts of a NavMesh: sets of nodes that reach each other
//! over the links the search may use.

use navscope_core::params::ParamValues;
use navscope_core::{NavMesh, Runner};
use navscope_path::{Locator, SearchOptions, find_path};
use serde::Serialize;

use crate::fix::{FixBudget, Joins, explain_gap_locally, explain_gap_with, rebuilt};
use crate::gap::{Gap, Places, Ways};
use crate::place::plan_area;
use crate::reach::Graph;
use crate::solids::Solids;
use glam::DVec3;

/// One connected part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Island {
    /// Its node ids, ascending (not written to JSON: `node_count` is).
    #[serde(skip)]
    pub nodes: Vec<u32>,
    /// How many nodes.
    pub node_count: usize,
    /// Plan area in square metres: the sum of its polygons' areas (point
    /// nodes count 0).
    pub area: f64,
    /// The gap to the largest island; `None` for the largest itself.
    pub gap: Option<Gap>,
}

/// The islands of `mesh` under `opts`, largest area first (then most
/// nodes). Two nodes share an island when each reaches the other, so a
/// one-way link (a drop) leaves its two ends in different islands: the
/// agent can go down but never come back. Every island but the first
/// carries its gap to the first, with the [`Ways`] the mesh already links
/// the two (the island reaches the largest, or is reached from it).
pub fn islands(mesh: &NavMesh, opts: &SearchOptions) -> Vec<Island> {
    let graph = Graph::new(mesh, opts);
    let (comp, count) = graph.components();
    let mut parts: Vec<Island> = (0..count)
        .map(|_| Island {
            nodes: Vec::new(),
            node_count: 0,
            area: 0.0,
            gap: None,
        })
        .collect();
    for (v, c) in comp.iter().enumerate() {
        let part = &mut parts[*c];
        part.nodes.push(v as u32);
        part.node_count += 1;
        part.area += plan_area(&mesh.nodes[v]);
    }
    parts.sort_by(|a, b| {
        b.area
            .total_cmp(&a.area)
            .then(b.node_count.cmp(&a.node_count))
            .then(a.nodes.cmp(&b.nodes))
    });
    if let Some((largest, rest)) = parts.split_first_mut() {
        let places = Places::new(mesh, &largest.nodes);
        // What the largest reaches, and what reaches it: an island is in
        // one or the other, or neither, never both.
        let marks = |nodes: Vec<u32>| {
            let mut m = vec![false; mesh.nodes.len()];
            nodes.into_iter().for_each(|v| m[v as usize] = true);
            m
        };
        let root = largest.nodes[0];
        let (from_largest, to_largest) = (
            marks(graph.reach(root, false)),
            marks(graph.reach(root, true)),
        );
        for part in rest {
            let v = part.nodes[0] as usize;
            let ways = Ways {
                there: to_largest[v],
                back: from_largest[v],
            };
            part.gap = places
                .closest_to(mesh, &part.nodes)
                .map(|g| g.with_ways(ways));
        }
    }
    parts
}

/// The gaps of `parts` ([`islands`] of `base`'s NavMesh under `opts`)
/// explained by the rules of `base`'s pipeline measured on its level,
/// both ways (an island may reach the largest by a drop and be parted
/// from it only by the jump back up);
/// the gaps of the `searched` largest islands after the first also get a
/// checked fix ([`crate::fix::find_fixes`]): a change after which a path
/// leads each way between the two sides of the gap, so that the island
/// and the largest become one (a path one way only would leave them two
/// islands). The others' reasons say the fix was not searched. A tiled
/// pipeline searches on the tiles around the gap first and confirms the
/// fix with one whole build ([`explain_gap_locally`]).
pub fn explain_islands(
    parts: &mut [Island],
    base: &Runner,
    opts: &SearchOptions,
    budget: &FixBudget,
    searched: usize,
) {
    let solids = Solids::new(base.level());
    for (i, part) in parts.iter_mut().enumerate().skip(1) {
        let Some(gap) = part.gap.take() else {
            continue;
        };
        if i > searched {
            part.gap = Some(explain_gap_with(gap, base, solids.as_ref(), true, None));
            continue;
        }
        let crop = crate::crop::around_gap(base, gap.from, gap.to);
        let mut local = match (&crop, base.navmesh()) {
            (Some(r), Some(mesh)) => {
                let (a, b) = crate::crop::inside_ends(&mesh, gap.from, gap.to);
                Some(joins_both_ways(r, a, b, opts))
            }
            _ => None,
        };
        let mut whole = joins_both_ways(base, gap.from, gap.to, opts);
        part.gap = Some(explain_gap_locally(
            gap,
            base,
            solids.as_ref(),
            true,
            budget,
            local.as_mut().map(|l| l as Joins<'_>),
            &mut whole,
        ));
    }
}

/// A check that values join `a` and `b` both ways on `on` built again.
fn joins_both_ways<'a>(
    on: &'a Runner,
    a: DVec3,
    b: DVec3,
    opts: &'a SearchOptions,
) -> impl FnMut(&ParamValues) -> bool + 'a {
    move |values| {
        rebuilt(on, values).is_some_and(|mesh| {
            let at = Locator::new(&mesh);
            find_path(&mesh, &at, a, b, opts).is_ok() && find_path(&mesh, &at, b, a, opts).is_ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_square::square;
    use glam::DVec3;
    use navscope_core::{LinkKind, Stance};
    use proptest::prelude::*;

    fn grid_mesh(n: usize) -> NavMesh {
        let mut m = NavMesh::new("test", "test");
        for i in 0..n {
            let x = (i % 8) as f64 * 1.5;
            let z = (i / 8) as f64 * 1.5;
            m.add_node(
                DVec3::new(x + 0.5, 0.0, z + 0.5),
                Some(square(x, 0.0, z, 1.0)),
                Stance::Stand,
                0,
            );
        }
        m
    }

    #[test]
    fn a_one_way_drop_splits_and_a_two_way_link_joins() {
        let mut m = grid_mesh(3);
        m.links
            .push(navscope_core::Link::new(0, 1, LinkKind::Jump, 1.0, None));
        m.add_two_way(1, 2, LinkKind::Walk, 1.0, None);
        let parts = islands(&m, &SearchOptions::default());
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].nodes, vec![1, 2]);
        assert!((parts[0].area - 2.0).abs() < 1e-12);
        assert!(parts[0].gap.is_none());
        let g = parts[1].gap.as_ref().expect("a gap to the largest");
        assert!((g.distance - 0.5).abs() < 1e-9, "{g:?}");
        assert_eq!(g.link, LinkKind::Jump);
        // Node 0 reaches the largest over its one-way link; the way back
        // is the one missing.
        assert_eq!(
            g.ways,
            Ways {
                there: true,
                back: false
            }
        );
        assert_eq!(g.missing(), (g.to, g.from));
        assert!(
            g.reason
                .contains("leads to the other side, but the way back"),
            "{}",
            g.reason
        );
        // Without the link, neither way is linked and the gap is as found.
        m.links.remove(0);
        let parts = islands(&m, &SearchOptions::default());
        let g = parts[1].gap.as_ref().expect("a gap");
        assert_eq!(g.ways, Ways::default());
        assert_eq!(g.missing(), (g.from, g.to));
        assert!(
            g.reason.starts_with("no link joins the two sides"),
            "{}",
            g.reason
        );
    }

    #[test]
    fn an_empty_mesh_has_no_islands() {
        assert!(islands(&NavMesh::new("t", "t"), &SearchOptions::default()).is_empty());
    }

    /// True when `b` is reached from `a` in `g` (plain search, the reference).
    fn reaches(g: &Graph, a: u32, b: u32) -> bool {
        g.reach(a, false).contains(&b)
    }

    proptest! {
        /// Islands partition the nodes, and no link joins two islands:
        /// a link may cross from one to another only where the way back
        /// does not exist.
        #[test]
        fn islands_partition_and_no_link_joins_two(
            n in 1usize..24,
            links in prop::collection::vec((0u32..24, 0u32..24, any::<bool>(), any::<bool>()), 0..40),
        ) {
            let mut m = grid_mesh(n);
            for (a, b, two_way, jump) in links {
                let (a, b) = (a % n as u32, b % n as u32);
                let kind = if jump { LinkKind::Jump } else { LinkKind::Walk };
                if two_way {
                    m.add_two_way(a, b, kind, 1.0, None);
                } else {
                    m.links.push(navscope_core::Link::new(a, b, kind, 1.0, None));
                }
            }
            let opts = SearchOptions::default().allow(LinkKind::Jump, false);
            let parts = islands(&m, &opts);
            let mut owner = vec![usize::MAX; n];
            for (i, p) in parts.iter().enumerate() {
                prop_assert_eq!(p.node_count, p.nodes.len());
                for v in &p.nodes {
                    prop_assert_eq!(owner[*v as usize], usize::MAX, "node {} in two islands", v);
                    owner[*v as usize] = i;
                }
                prop_assert_eq!(p.gap.is_none(), i == 0);
            }
            prop_assert!(owner.iter().all(|o| *o != usize::MAX));
            prop_assert!(parts.windows(2).all(|w| w[0].area >= w[1].area));
            let g = Graph::new(&m, &opts);
            for l in &m.links {
                let (a, b) = (l.from, l.to);
                if owner[a as usize] != owner[b as usize] && opts.allows(l.kind) {
                    prop_assert!(!reaches(&g, b, a), "link {}->{} joins two islands", a, b);
                }
            }
            for a in 0..n as u32 {
                for b in 0..n as u32 {
                    let same = owner[a as usize] == owner[b as usize];
                    prop_assert_eq!(same, reaches(&g, a, b) && reaches(&g, b, a));
                }
            }
        }
    }
}
