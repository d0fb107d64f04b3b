//! The gap between two sets of nodes: the closest pair of places across
//! them, and the link that would join them, judged by its geometry.

use glam::DVec3;
use navscope_core::params::ParamValue;
use navscope_core::{LinkKind, NavMesh};
use navscope_path::SearchOptions;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};
use serde::{Deserialize, Serialize};

use crate::place::{closest_points, outline};
use crate::reach::Graph;

/// Two sides closer than this in plan touch (metres).
pub const TOUCH: f64 = 0.05;
/// A height difference up to this is level ground (metres).
pub const LEVEL: f64 = 0.05;
/// A height difference up to this, over at most this much plan distance,
/// is a step ("a few tenths"); more is a jump or a drop (metres).
pub const STEP: f64 = 0.5;

/// One checked change: building with `parameter = value` joins the sides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fix {
    /// Parameter name, as `--set` takes it.
    pub parameter: String,
    /// The value that joins them.
    pub value: ParamValue,
}

/// Which ways the two sides of a gap are already joined by the mesh's
/// links (possibly through other nodes): islands are strongly connected
/// parts, so an island may reach the largest by a drop and lack only the
/// way back up; the side of a failed query's goal may reach the start's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ways {
    /// The `from` side reaches the `to` side.
    pub there: bool,
    /// The `to` side reaches the `from` side.
    pub back: bool,
}

/// What separates two parts of a mesh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    /// The closest place on the first side (the start's, or the island's).
    pub from: DVec3,
    /// The closest place on the other side (the goal's, or the largest
    /// island's).
    pub to: DVec3,
    /// Distance between `from` and `to` in metres.
    pub distance: f64,
    /// Height of `to` above `from` in metres (negative: below).
    pub height: f64,
    /// The link that would join them, judged by the geometry.
    pub link: LinkKind,
    /// The link and what refuses it, in words.
    pub reason: String,
    /// Which ways the mesh already links the two sides.
    #[serde(default)]
    pub ways: Ways,
    /// The single-parameter change checked to join the two sides, within
    /// the values a designer could use ([`crate::fix_range`]): the first
    /// parameter that joins them, refusing rules' first
    /// ([`crate::fix::find_fixes`]); empty when none was found.
    pub fix: Vec<Fix>,
}

impl Gap {
    /// The gap from `from` to `to`, its link judged by [`link_for`], with
    /// no fix yet.
    pub fn between(from: DVec3, to: DVec3) -> Self {
        let height = to.y - from.y;
        let link = link_for(plan_distance(from, to), height);
        Self {
            from,
            to,
            distance: from.distance(to),
            height,
            link,
            reason: String::new(),
            ways: Ways::default(),
            fix: Vec::new(),
        }
        .with_ways(Ways::default())
    }

    /// The gap with `ways` known, its reason naming the way that exists
    /// and the way that is missing, by their geometry (see [`Ways`]).
    pub fn with_ways(mut self, ways: Ways) -> Self {
        self.ways = ways;
        self.reason = ways_words(&self, "", "");
        self
    }

    /// The gap seen from the other side: `from` and `to` and the ways
    /// swapped (a swim stays a swim), not yet explained.
    pub fn reversed(&self) -> Self {
        let mut back = Self::between(self.to, self.from);
        if self.link == LinkKind::Swim {
            back.link = LinkKind::Swim;
        }
        back.with_ways(Ways {
            there: self.ways.back,
            back: self.ways.there,
        })
    }

    /// The ends of the way that is missing: from `from` to `to`, unless
    /// the mesh links that way and not the way back ([`Ways`]), then back.
    pub fn missing(&self) -> (DVec3, DVec3) {
        if self.ways.there && !self.ways.back {
            (self.to, self.from)
        } else {
            (self.from, self.to)
        }
    }

    /// The way that is missing in words, e.g. "a jump up (0.80 m across,
    /// 1.00 m up)" ([`Gap::missing`]).
    pub fn missing_words(&self) -> String {
        let (a, b) = self.missing();
        self.geometry(a, b)
    }

    /// The movement from `a` to `b` in words ([`geometry`]), a swim when
    /// the gap's link is one (both ends under water).
    pub fn geometry(&self, a: DVec3, b: DVec3) -> String {
        if self.link == LinkKind::Swim {
            format!("a swim ({:.2} m across)", plan_distance(a, b))
        } else {
            geometry(a, b)
        }
    }

    /// Plan (x, z) distance between the two sides.
    pub fn plan(&self) -> f64 {
        plan_distance(self.from, self.to)
    }
}

/// Why `gap`'s two sides are apart, in words: the way that is missing
/// and what refuses it (`there`: the refusals of the way from `gap.from`
/// to `gap.to` in words, `back`: of the way back; empty when none was
/// measured, then the way's geometry is named), and the way the mesh
/// already links, if any ([`Gap::ways`]).
pub fn ways_words(gap: &Gap, there: &str, back: &str) -> String {
    let (go, home) = (
        gap.geometry(gap.from, gap.to),
        gap.geometry(gap.to, gap.from),
    );
    let refused = |geo: &str, words: &str| {
        if words.is_empty() {
            format!("{geo}, has no link")
        } else {
            format!("{geo}, is refused: {words}")
        }
    };
    match (gap.ways.there, gap.ways.back) {
        (true, true) => format!("the two sides are joined both ways ({go})"),
        (true, false) => format!(
            "{go} leads to the other side, but the way back, {}",
            refused(&home, back)
        ),
        (false, true) if there.is_empty() => {
            format!("{go} has no link; the way back, {home}, is linked")
        }
        (false, true) => format!(
            "{} refused: {there}; the way back, {home}, is linked",
            movement(gap.link, gap.height)
        ),
        (false, false) => {
            let mut why = if there.is_empty() {
                format!("no link joins the two sides: {go}")
            } else {
                format!("{} refused: {there}", movement(gap.link, gap.height))
            };
            if !back.is_empty() {
                let reverse = gap.to - gap.from;
                let link = match gap.link {
                    LinkKind::Swim => LinkKind::Swim,
                    _ => link_for(plan_distance(gap.to, gap.from), reverse.y),
                };
                why = format!(
                    "{why}; the way back, {}, refused: {back}",
                    movement(link, reverse.y)
                );
            }
            why
        }
    }
}

/// The movement from `from` to `to` with its size, e.g. "a drop (0.80 m
/// across, 1.00 m down)".
pub fn geometry(from: DVec3, to: DVec3) -> String {
    let height = to.y - from.y;
    let plan = plan_distance(from, to);
    format!(
        "{} ({plan:.2} m across, {:.2} m {})",
        movement(link_for(plan, height), height),
        height.abs(),
        if height >= 0.0 { "up" } else { "down" }
    )
}

fn plan_distance(a: DVec3, b: DVec3) -> f64 {
    (a.x - b.x).hypot(a.z - b.z)
}

/// The link kind that would cross `plan` metres across and `height`
/// metres up: a walk when level and touching, a step when the height is
/// within [`STEP`] over at most [`STEP`] across, a jump otherwise (up,
/// across, or down as a drop).
pub fn link_for(plan: f64, height: f64) -> LinkKind {
    if height.abs() <= LEVEL && plan <= TOUCH {
        LinkKind::Walk
    } else if height.abs() > LEVEL && height.abs() <= STEP && plan <= STEP {
        if height > 0.0 {
            LinkKind::StepUp
        } else {
            LinkKind::StepDown
        }
    } else {
        LinkKind::Jump
    }
}

/// The movement in words, e.g. "a step up", "a drop".
pub fn movement(link: LinkKind, height: f64) -> &'static str {
    match link {
        LinkKind::Walk => "a walk across a shared edge",
        LinkKind::Swim => "a swim",
        LinkKind::StepUp => "a step up",
        LinkKind::StepDown => "a step down",
        LinkKind::Jump if height < -STEP => "a drop",
        LinkKind::Jump if height > STEP => "a jump up",
        _ => "a jump across",
    }
}

type Entry = GeomWithData<Rectangle<[f64; 3]>, u32>;

fn bounds(points: &[DVec3]) -> (DVec3, DVec3) {
    points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

/// The places of a set of nodes, in an R-tree of their boxes.
pub struct Places(RTree<Entry>);

impl Places {
    /// The places of `nodes` of `mesh` (ids that name no node are left out).
    pub fn new(mesh: &NavMesh, nodes: &[u32]) -> Self {
        Self(RTree::bulk_load(
            nodes
                .iter()
                .filter_map(|v| {
                    let (lo, hi) = bounds(outline(mesh.nodes.get(*v as usize)?));
                    Some(Entry::new(
                        Rectangle::from_aabb(AABB::from_corners(lo.to_array(), hi.to_array())),
                        *v,
                    ))
                })
                .collect(),
        ))
    }

    /// The closest pair of places from the nodes `a` to these (polygons
    /// in 3D, point nodes as points), as a [`Gap`] from the `a` side;
    /// `None` when either side is empty. The tree is searched nearest
    /// first from each node of `a`, and a node stops once its box cannot
    /// beat the best pair found.
    pub fn closest_to(&self, mesh: &NavMesh, a: &[u32]) -> Option<Gap> {
        let mut best: Option<(f64, DVec3, DVec3)> = None;
        for na in a.iter().filter_map(|v| mesh.nodes.get(*v as usize)) {
            let pa = outline(na);
            let (lo, hi) = bounds(pa);
            let (centre, reach) = ((lo + hi) / 2.0, (hi - lo).length() / 2.0);
            for (e, d2) in self
                .0
                .nearest_neighbor_iter_with_distance_2(&centre.to_array())
            {
                if best.is_some_and(|(d, ..)| d2.sqrt() - reach >= d) {
                    break;
                }
                let Some(nb) = mesh.nodes.get(e.data as usize) else {
                    continue;
                };
                let (p, q) = closest_points(pa, outline(nb));
                let d = p.distance(q);
                if best.is_none_or(|(bd, ..)| d < bd) {
                    best = Some((d, p, q));
                }
            }
        }
        best.map(|(_, p, q)| Gap::between(p, q))
    }
}

/// The closest pair of places from the nodes `a` to the nodes `b` of
/// `mesh`, as a [`Gap`] from the `a` side (see [`Places::closest_to`]).
pub fn closest_gap(mesh: &NavMesh, a: &[u32], b: &[u32]) -> Option<Gap> {
    Places::new(mesh, b).closest_to(mesh, a)
}

/// The gap of a failed query from node `start` to node `goal`: between
/// the region reached from the start and the region that reaches the goal
/// (searched backwards), over the links `opts` lets the search use.
/// `None` when the goal is reached after all, or a node id is unknown.
pub fn failed_path_gap(mesh: &NavMesh, opts: &SearchOptions, start: u32, goal: u32) -> Option<Gap> {
    let graph = Graph::new(mesh, opts);
    let reached = graph.reach(start, false);
    if reached.is_empty() || reached.contains(&goal) {
        return None;
    }
    let back = graph.reach(goal, false).contains(&start);
    closest_gap(mesh, &reached, &graph.reach(goal, true))
        .map(|g| g.with_ways(Ways { there: false, back }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_square::square;
    use navscope_core::Stance;
    use proptest::prelude::*;

    fn square_mesh(squares: &[(f64, f64, f64)]) -> NavMesh {
        let mut m = NavMesh::new("test", "test");
        for &(x, y, z) in squares {
            m.add_node(
                DVec3::new(x + 0.5, y, z + 0.5),
                Some(square(x, y, z, 1.0)),
                Stance::Stand,
                0,
            );
        }
        m
    }

    #[test]
    fn links_are_judged_by_height_and_distance() {
        assert_eq!(link_for(0.0, 0.0), LinkKind::Walk);
        assert_eq!(link_for(0.0, 0.3), LinkKind::StepUp);
        assert_eq!(link_for(0.1, -0.3), LinkKind::StepDown);
        assert_eq!(link_for(0.0, 1.5), LinkKind::Jump);
        assert_eq!(link_for(2.0, 0.0), LinkKind::Jump);
        assert_eq!(movement(LinkKind::Jump, -2.0), "a drop");
    }

    #[test]
    fn a_failed_query_gap_is_the_ledge_between_the_regions() {
        // Floor 0-1 and 1-2 joined; a ledge 0.3 m up touching the second.
        let mut m = square_mesh(&[(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.3, 0.0)]);
        m.add_two_way(0, 1, LinkKind::Walk, 1.0, None);
        let g = failed_path_gap(&m, &SearchOptions::default(), 0, 2).expect("a gap");
        assert!(g.distance > 0.29 && g.distance < 0.31, "{g:?}");
        assert_eq!(g.link, LinkKind::StepUp);
        assert!(g.reason.contains("a step up"), "{}", g.reason);
        // Joined: no gap.
        m.add_two_way(1, 2, LinkKind::StepUp, 1.0, None);
        assert!(failed_path_gap(&m, &SearchOptions::default(), 0, 2).is_none());
        // A forbidden kind is not followed.
        let no_steps = SearchOptions::default().allow(LinkKind::StepUp, false);
        assert!(failed_path_gap(&m, &no_steps, 0, 2).is_some());
    }

    #[test]
    fn empty_sides_and_unknown_nodes_give_no_gap() {
        let m = square_mesh(&[(0.0, 0.0, 0.0)]);
        assert!(closest_gap(&m, &[], &[0]).is_none());
        assert!(closest_gap(&m, &[0], &[7]).is_none());
        assert!(failed_path_gap(&m, &SearchOptions::default(), 5, 0).is_none());
    }

    proptest! {
        /// The R-tree search finds the same distance as trying every pair.
        #[test]
        fn the_closest_pair_is_the_minimum_over_all_pairs(
            a in prop::collection::vec((-20.0..20.0f64, -2.0..2.0f64, -20.0..20.0f64), 1..12),
            b in prop::collection::vec((-20.0..20.0f64, -2.0..2.0f64, -20.0..20.0f64), 1..12),
        ) {
            let all: Vec<_> = a.iter().chain(&b).copied().collect();
            let m = square_mesh(&all);
            let ia: Vec<u32> = (0..a.len() as u32).collect();
            let ib: Vec<u32> = (a.len() as u32..all.len() as u32).collect();
            let g = closest_gap(&m, &ia, &ib).expect("both sides have nodes");
            let brute = ia.iter().flat_map(|x| ib.iter().map(move |y| (*x, *y))).map(|(x, y)| {
                let (p, q) = closest_points(outline(&m.nodes[x as usize]), outline(&m.nodes[y as usize]));
                p.distance(q)
            }).fold(f64::INFINITY, f64::min);
            prop_assert!((g.distance - brute).abs() < 1e-9, "{} vs {}", g.distance, brute);
        }
    }
}
