//! The `graph` stage, the node graph (§32.2.5 steps 3 and 4, §32.3.2, §32.4.2): one
//! node per convex polygon of the `polymesh` stage at the mean of its
//! corners, carrying its pass's stance and its triangles as detail, and
//! links between polygons that share an edge: inside a region (a common edge),
//! and across regions, passes and tiles (collinear overlapping outline edges
//! on one grid line, facing each other, at heights one of the two stances
//! can step between; a swim area's edge reaches over its water column, from
//! its floor up to where the swimmer floats). Swim nodes, and the portals between two swim nodes,
//! are lifted off the sea floor to where the swimmer floats
//! ([`crate::swim::stance_height`]): at the water surface (§32.4.2) where
//! the swimmer fits between the surface and the ceiling, else as high as
//! it fits under the ceiling of a passage flooded to it (a Quake player
//! swims under water); their polygons stay on the floor, where the navmesh
//! was generated. Swim entry and exit links cross the gap between swim areas
//! and the ground around them ([`crate::swim`]).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use glam::DVec3;
use navscope_core::navmesh::Link;
use navscope_core::{LinkKind, NavMesh, Stance};
use navscope_path::stance::most_restrictive;
use serde::Serialize;

use crate::contour::Region;
use crate::detail::RegionDetail;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::polymesh::RegionPolys;
use crate::settings::Settings;
use crate::swim::{Columns, NodeInfo, node_height, plan, stance_height, swim_links};
use crate::triangulate::RegionMesh;

/// Where a link comes from (for drawing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LinkClass {
    /// Two triangles of one region.
    Region,
    /// Two regions of one pass in one tile.
    Regions,
    /// Two passes.
    Pass,
    /// Two tiles.
    Tile,
    /// Into or out of the water, across the gap between a swim area and
    /// walkable ground ([`crate::swim`]).
    Swim,
}

impl LinkClass {
    /// The draw kind.
    pub fn kind(self) -> &'static str {
        match self {
            LinkClass::Region => "link/walk",
            LinkClass::Regions => "link/region",
            LinkClass::Pass => "link/pass",
            LinkClass::Tile => "link/tile",
            LinkClass::Swim => "link/swim",
        }
    }
}

/// The graph and how each link came about.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Graph {
    /// The common navigation mesh.
    pub navmesh: NavMesh,
    /// One class per link of `navmesh.links`.
    pub link_class: Vec<LinkClass>,
    /// `(tile, region)` of every node.
    pub node_region: Vec<(u32, u32)>,
}

/// The link kind between two stances: `crouch` when entering or leaving a
/// crouch or prone area, `walk` otherwise.
pub fn link_kind(a: Stance, b: Stance) -> LinkKind {
    if a != b
        && [a, b]
            .iter()
            .any(|s| matches!(s, Stance::Crouch | Stance::Prone))
    {
        LinkKind::Crouch
    } else {
        LinkKind::Walk
    }
}

struct BoundaryEdge {
    /// 0: vertical line u = coord; 1: horizontal line v = coord.
    axis: u8,
    coord: i32,
    lo: i32,
    hi: i32,
    /// +1 when the edge runs towards increasing coordinate.
    dir: i8,
    node: u32,
    /// Heights at lo and hi.
    h: [f32; 2],
    /// Heights at lo and hi of the top of the stance's reach: where the
    /// swimmer floats over a swim edge's floor ([`stance_height`]), the
    /// floor itself for other stances.
    top: [f32; 2],
    /// Whether the edge is a swim area's.
    swim: bool,
    step: f32,
    tile: u32,
    region: u32,
    pass: u32,
    /// Which edge of its triangle it is.
    edge: u8,
}

fn height_at(e: &BoundaryEdge, x: f64) -> f64 {
    lerp(e.h, (x - e.lo as f64) / (e.hi - e.lo) as f64)
}

fn top_at(e: &BoundaryEdge, x: f64) -> f64 {
    lerp(e.top, (x - e.lo as f64) / (e.hi - e.lo) as f64)
}

fn lerp(h: [f32; 2], t: f64) -> f64 {
    h[0] as f64 + (h[1] - h[0]) as f64 * t
}

/// Where facing boundary edges `a` and `b` meet at `x` along their line:
/// the crossing's height, or `None` when the agent cannot get from one to
/// the other there. Each edge reaches from its floor up to its top (a
/// swim edge: the water column the swimmer moves in; any other: its
/// floor), and the two meet when the gap between those reaches is at most
/// a step: the larger of the two steps between two walking stances, the
/// walking stance's between it and a swim edge (the swimmer's own step,
/// any depth of water, says nothing of climbing onto ground), a voxel
/// `ch` between two swim edges (their water columns touch). The crossing
/// lies halfway between the two reaches' nearest points.
fn meet(a: &BoundaryEdge, b: &BoundaryEdge, x: f64, ch: f64) -> Option<f64> {
    let (fa, fb) = (height_at(a, x), height_at(b, x));
    let (ta, tb) = (top_at(a, x).max(fa), top_at(b, x).max(fb));
    let tol = match (a.swim, b.swim) {
        (true, true) => ch,
        (true, false) => b.step as f64,
        (false, true) => a.step as f64,
        (false, false) => a.step.max(b.step) as f64,
    };
    let gap = (fb - ta).max(fa - tb).max(0.0);
    (gap <= tol).then(|| (tb.clamp(fa, ta) + ta.clamp(fb, tb)) / 2.0)
}

/// Whether two regions' copies `a` and `b` of one slanted edge (the same
/// two corners in plan, either way round) are one portal: at each corner
/// their heights differ by at most `step`. The plan alone does not say so:
/// a floor stacked over another (a room under a gallery) can have an
/// outline edge over the same corners, a storey up.
fn slanted_meet(a: [DVec3; 2], b: [DVec3; 2], step: f64) -> bool {
    let plan = |p: DVec3| glam::DVec2::new(p.x, p.z);
    let b = if plan(a[0]).distance_squared(plan(b[0])) <= plan(a[0]).distance_squared(plan(b[1])) {
        b
    } else {
        [b[1], b[0]]
    };
    (a[0].y - b[0].y).abs() <= step && (a[1].y - b[1].y).abs() <= step
}

/// One tile's regions with what the later stages made of them, one entry
/// per region in each slice.
pub struct TileParts<'a> {
    /// Stage `contours`.
    pub regions: &'a [Region],
    /// Stage `triangulate`.
    pub meshes: &'a [RegionMesh],
    /// Stage `polymesh`.
    pub polys: &'a [RegionPolys],
    /// Stage `detail`.
    pub detail: &'a [RegionDetail],
}

/// Builds the NavMesh of every tile's region polygons, in tile and region
/// order; `heightfields` (per tile) are the voxels the swim links cross.
pub fn build_graph(
    grid: &Grid,
    settings: &Settings,
    tiles: &[TileParts],
    heightfields: &[Arc<Heightfield>],
) -> Graph {
    let mut nav = NavMesh::new("voxel", "");
    let mut link_class = Vec::new();
    let mut node_region = Vec::new();
    let mut info: Vec<NodeInfo> = Vec::new();
    // Outline edges of swim polygons: (node, edge).
    let mut swim_outline: Vec<(u32, u8)> = Vec::new();
    let mut boundary: Vec<BoundaryEdge> = Vec::new();
    // Slanted outline edges by (tile, lower end, upper end): (node, region,
    // segment, step). Stacked floors of one tile can have the same edge in
    // plan, so the key is the plan and the heights are checked when pairing.
    #[allow(clippy::type_complexity)]
    let mut slanted: BTreeMap<(u32, [i32; 2], [i32; 2]), Vec<(u32, u32, [DVec3; 2], f32)>> =
        BTreeMap::new();
    let world = |p: [i32; 2], h: f32| grid.corner(p[0], -p[1], h as f64);
    let cols = Columns::new(heightfields);
    for (ti, parts) in tiles.iter().enumerate() {
        let all =
            (parts.regions.iter().zip(parts.meshes)).zip(parts.polys.iter().zip(parts.detail));
        for (ri, ((region, mesh), (polys, detail))) in all.enumerate() {
            let first = nav.nodes.len() as u32;
            let step = settings
                .passes
                .get(region.pass)
                .map_or(0.0, |p| p.agent.max_step) as f32
                + grid.ch as f32;
            let at = |i: u32| world(mesh.verts[i as usize], mesh.heights[i as usize]);
            for (poly, detail) in polys.polys.iter().zip(&detail.polys) {
                let pts: Vec<DVec3> = poly.iter().map(|&i| at(i)).collect();
                let c = pts.iter().sum::<DVec3>() / pts.len() as f64;
                let id = nav.add_node(c, Some(pts), region.stance, 0);
                nav.nodes[id as usize].detail = Some(detail.clone());
                if let (Stance::Swim, Some(pass)) =
                    (region.stance, settings.passes.get(region.pass))
                {
                    // The floor under the centre: the detail surface there
                    // (the corners of a swim polygon may lie on floors far
                    // apart, deep water hiding the drops between them).
                    let node = &nav.nodes[id as usize];
                    let floor = node_height(node, plan(c)).unwrap_or(c.y);
                    let float = stance_height(&cols, grid, plan(c), floor, &pass.agent);
                    nav.nodes[id as usize].position.y = float.unwrap_or(floor);
                }
                node_region.push((ti as u32, ri as u32));
                info.push(NodeInfo {
                    pass: region.pass,
                    water: region.water,
                });
            }
            // Shared edges inside the region.
            let mut edges: BTreeMap<(u32, u32), Vec<(u32, usize)>> = BTreeMap::new();
            for (k, poly) in polys.polys.iter().enumerate() {
                for e in 0..poly.len() {
                    let (a, b) = (poly[e], poly[(e + 1) % poly.len()]);
                    edges
                        .entry((a.min(b), a.max(b)))
                        .or_default()
                        .push((first + k as u32, e));
                }
            }
            for ((a, b), list) in &edges {
                if list.len() == 2 {
                    let (n0, n1) = (list[0].0, list[1].0);
                    let seg = [at(*a), at(*b)];
                    let cost = nav.nodes[n0 as usize]
                        .position
                        .distance(nav.nodes[n1 as usize].position);
                    nav.add_two_way(n0, n1, LinkKind::Walk, cost, Some(seg));
                    link_class.extend([LinkClass::Region; 2]);
                } else if list.len() == 1 {
                    let (node, e) = list[0];
                    if region.stance == Stance::Swim {
                        swim_outline.push((node, e as u8));
                    }
                    let poly = &polys.polys[(node - first) as usize];
                    let (ia, ib) = (poly[e] as usize, poly[(e + 1) % poly.len()] as usize);
                    let (pa, pb) = (mesh.verts[ia], mesh.verts[ib]);
                    let (axis, coord, la, lb) = if pa[0] == pb[0] {
                        (0u8, pa[0], pa[1], pb[1])
                    } else if pa[1] == pb[1] {
                        (1u8, pa[1], pa[0], pb[0])
                    } else {
                        // A simplified portal: the region beyond has the
                        // same edge the other way.
                        slanted
                            .entry((ti as u32, pa.min(pb), pa.max(pb)))
                            .or_default()
                            .push((
                                node,
                                ri as u32,
                                [at(poly[e]), at(poly[(e + 1) % poly.len()])],
                                step,
                            ));
                        continue;
                    };
                    let (ha, hb) = (mesh.heights[ia], mesh.heights[ib]);
                    let swim = region.stance == Stance::Swim;
                    let top = |i: usize| {
                        let h = mesh.heights[i] as f64;
                        let float =
                            settings
                                .passes
                                .get(region.pass)
                                .filter(|_| swim)
                                .and_then(|p| {
                                    let v = world(mesh.verts[i], mesh.heights[i]);
                                    stance_height(&cols, grid, plan(v), h, &p.agent)
                                });
                        float.unwrap_or(h).max(h) as f32
                    };
                    let (ta, tb) = (top(ia), top(ib));
                    let (lo, hi, h, top, dir) = if la < lb {
                        (la, lb, [ha, hb], [ta, tb], 1)
                    } else {
                        (lb, la, [hb, ha], [tb, ta], -1)
                    };
                    boundary.push(BoundaryEdge {
                        axis,
                        coord,
                        lo,
                        hi,
                        dir,
                        node,
                        h,
                        top,
                        swim,
                        step,
                        tile: ti as u32,
                        region: ri as u32,
                        pass: region.pass as u32,
                        edge: e as u8,
                    });
                }
            }
        }
    }
    // Slanted portals: the same edge in two regions of one tile, at heights
    // one of the two can step between at both ends.
    for list in slanted.values() {
        for (i, &(n0, r0, seg, step0)) in list.iter().enumerate() {
            for &(n1, r1, other, step1) in &list[i + 1..] {
                if r0 == r1 || !slanted_meet(seg, other, step0.max(step1) as f64) {
                    continue;
                }
                let cost = nav.nodes[n0 as usize]
                    .position
                    .distance(nav.nodes[n1 as usize].position);
                let kind = link_kind(nav.nodes[n0 as usize].stance, nav.nodes[n1 as usize].stance);
                nav.add_two_way(n0, n1, kind, cost, Some(seg));
                link_class.extend([LinkClass::Regions; 2]);
            }
        }
    }
    // Facing, overlapping outline edges on one grid line.
    boundary.sort_by_key(|e| (e.axis, e.coord, e.lo, e.hi, e.node));
    let mut pairs: Vec<(u32, u32, usize, usize)> = Vec::new();
    let mut start = 0;
    while start < boundary.len() {
        let mut end = start;
        while end < boundary.len()
            && boundary[end].axis == boundary[start].axis
            && boundary[end].coord == boundary[start].coord
        {
            end += 1;
        }
        for i in start..end {
            for j in i + 1..end {
                let (a, b) = (&boundary[i], &boundary[j]);
                if b.lo >= a.hi {
                    break;
                }
                if a.dir == b.dir || (a.tile == b.tile && a.region == b.region) {
                    continue;
                }
                let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
                if hi <= lo {
                    continue;
                }
                let mid = (lo + hi) as f64 / 2.0;
                if meet(a, b, mid, grid.ch).is_none() {
                    continue;
                }
                pairs.push((a.node.min(b.node), a.node.max(b.node), i, j));
            }
        }
        start = end;
    }
    pairs.sort_by_key(|p| (p.0, p.1));
    pairs.dedup_by_key(|p| (p.0, p.1));
    // Swim outline edges that meet another area need no swim link.
    let met: HashSet<(u32, u8)> = pairs
        .iter()
        .flat_map(|&(_, _, i, j)| [i, j])
        .map(|k| (boundary[k].node, boundary[k].edge))
        .collect();
    swim_outline.retain(|e| !met.contains(e));
    for (n0, n1, i, j) in pairs {
        let (a, b) = (&boundary[i], &boundary[j]);
        let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
        let point = |x: i32| {
            let p = if a.axis == 0 {
                [a.coord, x]
            } else {
                [x, a.coord]
            };
            let x = x as f64;
            let y =
                meet(a, b, x, grid.ch).unwrap_or_else(|| (height_at(a, x) + height_at(b, x)) / 2.0);
            grid.corner(p[0], -p[1], y)
        };
        let (sa, sb) = (nav.nodes[n0 as usize].stance, nav.nodes[n1 as usize].stance);
        let class = if a.tile != b.tile {
            LinkClass::Tile
        } else if a.pass != b.pass {
            LinkClass::Pass
        } else {
            LinkClass::Regions
        };
        let cost = nav.nodes[n0 as usize]
            .position
            .distance(nav.nodes[n1 as usize].position);
        nav.add_two_way(
            n0,
            n1,
            link_kind(sa, sb),
            cost,
            Some([point(lo), point(hi)]),
        );
        link_class.extend([class; 2]);
    }
    if nav.nodes.iter().any(|n| n.stance == Stance::Swim) {
        add_swim(
            &mut nav,
            &mut link_class,
            &info,
            &swim_outline,
            settings,
            grid,
            (heightfields, &cols),
        );
    }
    Graph {
        navmesh: nav,
        link_class,
        node_region,
    }
}

/// Lifts the portals between swim nodes to where the swimmer floats and
/// adds the swim entry and exit links ([`crate::swim`]).
fn add_swim(
    nav: &mut NavMesh,
    link_class: &mut Vec<LinkClass>,
    info: &[NodeInfo],
    swim_outline: &[(u32, u8)],
    settings: &Settings,
    grid: &Grid,
    (heightfields, cols): (&[Arc<Heightfield>], &Columns),
) {
    // Portals between swim nodes are where the swimmer floats too, so a
    // path through them stays there (§32.4.2: path vertices at the
    // surface, or under the ceiling of a flooded passage).
    for l in &mut nav.links {
        let swim = |n: u32| nav.nodes[n as usize].stance == Stance::Swim;
        let agent = |n: u32| settings.passes.get(info[n as usize].pass).map(|p| p.agent);
        if let (true, true, Some(h), Some(seg)) = (
            swim(l.from),
            swim(l.to),
            agent(l.from),
            l.segment.as_deref_mut(),
        ) {
            for p in seg {
                p.y = stance_height(cols, grid, plan(*p), p.y, &h).unwrap_or(p.y);
            }
        }
    }
    let linked: HashSet<(u32, u32)> = nav
        .links
        .iter()
        .map(|l| (l.from.min(l.to), l.from.max(l.to)))
        .collect();
    let found = swim_links(
        nav,
        info,
        swim_outline,
        settings,
        grid,
        heightfields,
        &linked,
    );
    for sl in found {
        let rise = sl.to.y - sl.from.y;
        let (out, back) = if rise > grid.ch {
            (LinkKind::StepUp, LinkKind::StepDown)
        } else if rise < -grid.ch {
            (LinkKind::StepDown, LinkKind::StepUp)
        } else {
            (LinkKind::Walk, LinkKind::Walk)
        };
        let mid = (sl.from + sl.to) / 2.0;
        let cost = nav.nodes[sl.swim as usize]
            .position
            .distance(nav.nodes[sl.land as usize].position);
        for (from, to, kind) in [(sl.swim, sl.land, out), (sl.land, sl.swim, back)] {
            nav.links
                .push(Link::new(from, to, kind, cost, Some([mid, mid])));
            link_class.push(LinkClass::Swim);
        }
    }
}

/// The stance to hold while moving towards each node of a path, by the rule
/// of Listing 32.2 generalised to every stance (§32.3.2): towards a node the
/// agent holds the more restrictive of that node's stance and the previous
/// node's ([`navscope_path::stance::most_restrictive`], the order the path
/// search uses), so it leaves a low or narrow space in that space's stance
/// and gets up only once past it (prone to crouch stays prone for one more
/// node, crouch to sidestep stays crouched).
pub fn path_stances(mesh: &NavMesh, path: &[u32]) -> Vec<Stance> {
    let stance = |i: usize| mesh.nodes[path[i] as usize].stance;
    (0..path.len())
        .map(|i| {
            if i == 0 {
                stance(0)
            } else {
                most_restrictive(stance(i - 1), stance(i))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A boundary edge from 0 to 4 on one line, its floor `h` and top
    /// `top` at both ends, a swim edge's or a walking one's (step 0.5).
    fn edge(h: f32, top: f32, swim: bool, dir: i8) -> BoundaryEdge {
        BoundaryEdge {
            axis: 0,
            coord: 0,
            lo: 0,
            hi: 4,
            dir,
            node: 0,
            h: [h; 2],
            top: [top; 2],
            swim,
            step: if swim { 48.5 } else { 0.5 },
            tile: 0,
            region: dir.max(0) as u32,
            pass: 0,
            edge: 0,
        }
    }

    #[test]
    fn edges_meet_over_a_swim_edges_water_column_and_not_beyond() {
        let ch = 0.1;
        // A floor 15 m over a tunnel's floor, the swimmer floating 4.5 m
        // over it (under the tunnel's ceiling): the swim step (48.5 m) no
        // longer joins them.
        let tunnel = edge(-12.0, -7.5, true, 1);
        assert!(meet(&tunnel, &edge(3.0, 3.0, false, -1), 2.0, ch).is_none());
        // A shore at the water's surface: the swimmer climbs out onto it,
        // at the shore's height.
        let pool = edge(-3.0, 0.0, true, 1);
        let shore = edge(0.3, 0.3, false, -1);
        let y = meet(&pool, &shore, 2.0, ch).expect("the shore");
        assert!((y - 0.15).abs() < 1e-6, "{y}");
        assert!(meet(&pool, &edge(0.7, 0.7, false, -1), 2.0, ch).is_none());
        // Two swim columns meet where they overlap, not when one lies
        // over the other with rock between.
        assert!(meet(&pool, &edge(-8.0, -1.0, true, -1), 2.0, ch).is_some());
        assert!(meet(&tunnel, &edge(-6.0, 0.0, true, -1), 2.0, ch).is_none());
        // Two walking edges: within the larger step, as before.
        let a = edge(1.0, 1.0, false, 1);
        let y = meet(&a, &edge(1.4, 1.4, false, -1), 2.0, ch).expect("a step");
        assert!((y - 1.2).abs() < 1e-6, "{y}");
        assert!(meet(&a, &edge(1.6, 1.6, false, -1), 2.0, ch).is_none());
    }

    #[test]
    fn listing_32_2_keeps_crouching_one_node_past_the_crouch_area() {
        let mut m = NavMesh::new("voxel", "");
        let stances = [
            Stance::Stand,
            Stance::Stand,
            Stance::Crouch,
            Stance::Crouch,
            Stance::Stand,
            Stance::Stand,
        ];
        for s in stances {
            m.add_node(DVec3::ZERO, None, s, 0);
        }
        let got = path_stances(&m, &[0, 1, 2, 3, 4, 5]);
        assert_eq!(
            got,
            [
                Stance::Stand,
                Stance::Stand,
                Stance::Crouch,
                Stance::Crouch,
                Stance::Crouch,
                Stance::Stand
            ]
        );
    }

    #[test]
    fn every_stance_pair_keeps_the_more_restrictive_stance_for_one_node() {
        let rank = navscope_path::stance::restrictiveness;
        for a in Stance::ALL {
            for b in Stance::ALL {
                let mut m = NavMesh::new("voxel", "");
                for s in [a, b, b] {
                    m.add_node(DVec3::ZERO, None, s, 0);
                }
                let got = path_stances(&m, &[0, 1, 2]);
                let held = if rank(a) >= rank(b) { a } else { b };
                assert_eq!(got, [a, held, b], "{a:?} then {b:?}");
            }
        }
    }

    #[test]
    fn a_slanted_edge_meets_its_copy_within_a_step_either_way_round_and_not_a_storey_up() {
        let (p, q) = (DVec3::new(0.0, 1.0, 0.0), DVec3::new(1.0, 1.2, 2.0));
        let up = DVec3::Y * 0.3;
        assert!(slanted_meet([p, q], [p, q], 0.5));
        assert!(slanted_meet([p, q], [q + up, p - up], 0.5));
        assert!(!slanted_meet([p, q], [q, p + DVec3::Y * 0.6], 0.5));
        let storey = DVec3::Y * 5.5;
        assert!(!slanted_meet([p, q], [p + storey, q + storey], 0.5));
    }

    #[test]
    fn link_kinds() {
        assert_eq!(link_kind(Stance::Stand, Stance::Stand), LinkKind::Walk);
        assert_eq!(link_kind(Stance::Stand, Stance::Crouch), LinkKind::Crouch);
        assert_eq!(link_kind(Stance::Prone, Stance::Stand), LinkKind::Crouch);
        assert_eq!(link_kind(Stance::Stand, Stance::Sidestep), LinkKind::Walk);
    }
}
