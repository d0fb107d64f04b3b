//! Paths on the explicit corridor map (the paper's §4): start and goal are
//! retracted onto the merged medial axis, A* finds a backbone path along
//! the axis, the walkable areas along it form the corridor, and a short
//! path inside the corridor keeps a requested clearance.
//!
//! * **Retraction** moves a point straight away from its nearest obstacle
//!   point until it meets the axis (that ray stays in the obstacle's
//!   Voronoi cell, so it is the axis point "behind" the query).
//! * **A*** runs on the axis graph: edges cost their length on their
//!   layer's plane, joins across connections their height difference, the
//!   heuristic is the plan distance (never more than the length on any
//!   plane). Edges whose clearance somewhere drops below the requested
//!   one are left out, and so are the partial edges from the start's and
//!   to the goal's retraction points (and the direct part when both lie on
//!   one edge), so the corridor is wide enough everywhere.
//! * **The short path** pulls the backbone tight: from each backbone point
//!   it goes straight to the farthest later point on the same layer whose
//!   segment stays inside the backbone's clearance disks shrunk by the
//!   requested clearance (so every point of it keeps that clearance). It
//!   is a shortened backbone, not the exact shortest path with clearance of
//!   Geraerts' Explicit Corridor Map paper.

use std::collections::BinaryHeap;

use glam::DVec2;
use navscope_core::heap::MinCost;
use navscope_core::level::LayerPlane;
use serde::Serialize;

use crate::axis::Axis;
use crate::sites::Sites;
use crate::verify::nearest_obstacle_point;

/// A point on a layer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LayerPoint {
    /// Layer index.
    pub layer: usize,
    /// Plan position.
    pub at: DVec2,
}

/// One point of the backbone path with its clearance disk.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BackbonePoint {
    /// Layer index.
    pub layer: usize,
    /// Plan position on the axis.
    pub at: DVec2,
    /// Distance to the nearest obstacle.
    pub clearance: f64,
    /// The axis edge it lies on.
    pub edge: usize,
}

/// A path through the corridor map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CorridorPath {
    /// The query's start and goal.
    pub ends: [LayerPoint; 2],
    /// Where they were retracted onto the axis.
    pub retracted: [LayerPoint; 2],
    /// The backbone path along the axis, resampled every 0.2 m or less.
    pub backbone: Vec<BackbonePoint>,
    /// The axis edges of the corridor, in order.
    pub corridor: Vec<usize>,
    /// The short path keeping the clearance, from start to goal.
    pub path: Vec<LayerPoint>,
    /// Length of the short path in the world (on the layers' planes, plus
    /// any height change across a connection), metres.
    pub length: f64,
    /// A* node expansions.
    pub expansions: usize,
}

/// Length of the plan polyline `pts` lifted onto `plane` (a straight plan
/// piece lifts to a straight piece of the plane).
pub fn surface_length(plane: LayerPlane, pts: impl Iterator<Item = DVec2>) -> f64 {
    let mut last: Option<glam::DVec3> = None;
    let mut sum = 0.0;
    for p in pts {
        let q = plane.lift(p);
        if let Some(l) = last {
            sum += l.distance(q);
        }
        last = Some(q);
    }
    sum
}

/// Backbone resampling distance (m).
const STEP: f64 = 0.2;

#[derive(Clone, Copy, Debug)]
enum Via {
    Edge(usize, bool),
    Join,
    FromStart(bool),
    ToGoal(bool),
    Direct,
}

/// Where a query point lands on the axis: edge, chord index and point.
fn retract(
    axis: &Axis,
    sites: &Sites,
    opened: &[usize],
    q: LayerPoint,
    clearance: f64,
    what: &str,
) -> Result<(usize, usize, DVec2), String> {
    let area = sites
        .areas
        .get(q.layer)
        .ok_or_else(|| format!("{what}: layer {} does not exist", q.layer))?;
    if !area.contains(q.at) {
        return Err(format!(
            "{what} ({:.3}, {:.3}) is not in the free space of layer {}",
            q.at.x, q.at.y, q.layer
        ));
    }
    let (d, o) = nearest_obstacle_point(sites, opened, q.layer, q.at)
        .ok_or_else(|| format!("{what}: no obstacle found"))?;
    if d < clearance {
        return Err(format!(
            "{what} ({:.3}, {:.3}) is {d:.3} m from an obstacle, closer than the clearance {clearance} m",
            q.at.x, q.at.y
        ));
    }
    let dir = (q.at - o).normalize();
    let mut best: Option<(f64, usize, usize, DVec2)> = None;
    for (i, e) in axis.edges.iter().enumerate() {
        for (k, w) in e.points.windows(2).enumerate() {
            let (a, b) = (w[0].at, w[1].at);
            let s = b - a;
            let den = dir.perp_dot(s);
            if den.abs() < 1e-15 {
                continue;
            }
            let t = (a - q.at).perp_dot(s) / den;
            let u = (a - q.at).perp_dot(dir) / den;
            if t >= -1e-9 && (-1e-9..=1.0 + 1e-9).contains(&u) && best.is_none_or(|(bt, ..)| t < bt)
            {
                let h = a + s * u.clamp(0.0, 1.0);
                if crate::open::walk(&sites.conns, opened, q.layer, q.at, h) == e.layer {
                    best = Some((t, i, k, h));
                }
            }
        }
    }
    best.map(|(_, i, k, h)| (i, k, h)).ok_or_else(|| {
        format!(
            "{what} ({:.3}, {:.3}) retracts onto no medial-axis edge",
            q.at.x, q.at.y
        )
    })
}

/// A lower bound of the clearance along a polyline `pts` of edge `e` (a
/// whole edge or a part of one): exact distances to the edge's site
/// sampled every `STEP / 4` or less, less half the sample spacing (the
/// distance changes by at most the distance moved, so no point between two
/// samples is closer).
fn min_clearance(axis: &Axis, sites: &Sites, e: usize, pts: &[DVec2]) -> f64 {
    let g = sites.list[axis.edges[e].sites[0] as usize].geom;
    let mut m = f64::INFINITY;
    for w in pts.windows(2) {
        let len = w[0].distance(w[1]);
        let n = ((len / (STEP / 4.0)).ceil() as usize).clamp(1, 10_000);
        let half = 0.5 * len / n as f64;
        for i in 0..=n {
            m = m.min(g.distance(w[0].lerp(w[1], i as f64 / n as f64)) - half);
        }
    }
    m
}

/// A path from `start` to `goal` keeping `clearance` metres from every
/// obstacle, on a merged axis with every connection open.
pub fn find_path(
    axis: &Axis,
    sites: &Sites,
    planes: &[LayerPlane],
    start: LayerPoint,
    goal: LayerPoint,
    clearance: f64,
) -> Result<CorridorPath, String> {
    let opened: Vec<usize> = (0..sites.conns.len()).collect();
    let (es, ks, hs) = retract(axis, sites, &opened, start, clearance, "start")?;
    let (eg, kg, hg) = retract(axis, sites, &opened, goal, clearance, "goal")?;
    let nv = axis.vertices.len();
    let (s_node, g_node) = (nv, nv + 1);
    let mut adj: Vec<Vec<(usize, f64, Via)>> = vec![Vec::new(); nv + 2];
    for (i, e) in axis.edges.iter().enumerate() {
        let pts: Vec<DVec2> = e.points.iter().map(|p| p.at).collect();
        if min_clearance(axis, sites, i, &pts) < clearance {
            continue;
        }
        let [a, b] = e.ends;
        let len = surface_length(planes[e.layer], pts.iter().copied());
        adj[a as usize].push((b as usize, len, Via::Edge(i, true)));
        adj[b as usize].push((a as usize, len, Via::Edge(i, false)));
    }
    for j in &axis.joins {
        let [a, b] = j.vertices;
        let (va, vb) = (axis.vertices[a as usize], axis.vertices[b as usize]);
        let dh = (planes[va.layer].height_at(va.at) - planes[vb.layer].height_at(vb.at)).abs();
        adj[a as usize].push((b as usize, dh, Via::Join));
        adj[b as usize].push((a as usize, dh, Via::Join));
    }
    let partial = |e: usize, k: usize, h: DVec2, to_end: bool| -> Vec<DVec2> {
        let p = &axis.edges[e].points;
        let mut v = vec![h];
        if to_end {
            v.extend(p[k + 1..].iter().map(|x| x.at));
        } else {
            v.extend(p[..=k].iter().rev().map(|x| x.at));
        }
        v
    };
    let plen =
        |e: usize, v: &[DVec2]| surface_length(planes[axis.edges[e].layer], v.iter().copied());
    // The partial edges from the start and to the goal keep the clearance
    // like whole edges do (the retraction legs themselves move away from
    // the nearest obstacle, so they keep the start's and goal's).
    let wide = |e: usize, pts: &[DVec2]| min_clearance(axis, sites, e, pts) >= clearance;
    for to_end in [false, true] {
        let end = axis.edges[es].ends[usize::from(to_end)] as usize;
        let from_start = partial(es, ks, hs, to_end);
        if wide(es, &from_start) {
            adj[s_node].push((end, plen(es, &from_start), Via::FromStart(to_end)));
        }
        let end = axis.edges[eg].ends[usize::from(to_end)] as usize;
        let to_goal = partial(eg, kg, hg, to_end);
        if wide(eg, &to_goal) {
            adj[end].push((g_node, plen(eg, &to_goal), Via::ToGoal(to_end)));
        }
    }
    let direct = |forward: bool| -> Vec<DVec2> {
        let p = &axis.edges[es].points;
        let mut v = vec![hs];
        if forward {
            v.extend(p[ks + 1..=kg].iter().map(|x| x.at));
        } else {
            v.extend(p[kg + 1..=ks].iter().rev().map(|x| x.at));
        }
        v.push(hg);
        v
    };
    let same_forward = ks < kg
        || (ks == kg
            && hs.distance(axis.edges[es].points[ks].at)
                <= hg.distance(axis.edges[es].points[ks].at));
    if es == eg && wide(es, &direct(same_forward)) {
        adj[s_node].push((g_node, plen(es, &direct(same_forward)), Via::Direct));
    }
    // A*.
    let pos = |n: usize| {
        if n == s_node {
            hs
        } else if n == g_node {
            hg
        } else {
            axis.vertices[n].at
        }
    };
    let mut dist = vec![f64::INFINITY; nv + 2];
    let mut prev: Vec<Option<(usize, Via)>> = vec![None; nv + 2];
    let mut closed = vec![false; nv + 2];
    let mut heap = BinaryHeap::new();
    dist[s_node] = 0.0;
    heap.push(MinCost(pos(s_node).distance(hg), s_node));
    let mut expansions = 0;
    while let Some(MinCost(_, n)) = heap.pop() {
        if closed[n] {
            continue;
        }
        closed[n] = true;
        expansions += 1;
        if n == g_node {
            break;
        }
        for &(m, c, via) in &adj[n] {
            let d = dist[n] + c;
            if d < dist[m] {
                dist[m] = d;
                prev[m] = Some((n, via));
                heap.push(MinCost(d + pos(m).distance(hg), m));
            }
        }
    }
    if !closed[g_node] {
        return Err(format!(
            "no path keeps a clearance of {clearance} m between start and goal"
        ));
    }
    let mut steps = Vec::new();
    let mut n = g_node;
    while let Some((p, via)) = prev[n] {
        steps.push(via);
        n = p;
    }
    steps.reverse();
    // Backbone polylines with their edges and layers.
    let mut backbone: Vec<BackbonePoint> = Vec::new();
    let mut corridor = Vec::new();
    for via in steps {
        let (e, pts) = match via {
            Via::Edge(e, fwd) => {
                let mut v: Vec<DVec2> = axis.edges[e].points.iter().map(|p| p.at).collect();
                if !fwd {
                    v.reverse();
                }
                (e, v)
            }
            Via::FromStart(to_end) => (es, partial(es, ks, hs, to_end)),
            Via::ToGoal(from_end) => {
                let mut v = partial(eg, kg, hg, from_end);
                v.reverse();
                (eg, v)
            }
            Via::Direct => (es, direct(same_forward)),
            Via::Join => continue,
        };
        if corridor.last() != Some(&e) {
            corridor.push(e);
        }
        let edge = &axis.edges[e];
        let g = sites.list[edge.sites[0] as usize].geom;
        for w in pts.windows(2) {
            let n = ((w[0].distance(w[1]) / STEP).ceil() as usize).clamp(1, 100_000);
            for i in 0..n {
                let at = w[0].lerp(w[1], i as f64 / n as f64);
                backbone.push(BackbonePoint {
                    layer: edge.layer,
                    at,
                    clearance: g.distance(at),
                    edge: e,
                });
            }
        }
        if let Some(&last) = pts.last() {
            backbone.push(BackbonePoint {
                layer: edge.layer,
                at: last,
                clearance: g.distance(last),
                edge: e,
            });
        }
    }
    let path = through_connections(sites, &opened, pull(&backbone, clearance, start, goal));
    let lift = |q: &LayerPoint| planes[q.layer].lift(q.at);
    let length: f64 = path
        .windows(2)
        .map(|w| lift(&w[0]).distance(lift(&w[1])))
        .sum();
    Ok(CorridorPath {
        ends: [start, goal],
        retracted: [
            LayerPoint {
                layer: axis.edges[es].layer,
                at: hs,
            },
            LayerPoint {
                layer: axis.edges[eg].layer,
                at: hg,
            },
        ],
        backbone,
        corridor,
        path,
        length,
        expansions,
    })
}

/// The path with a point on each side of every connection it crosses
/// between two points on different layers (the legs to and from the
/// retraction points may cross one), so that each straight piece lies on
/// one layer's plane and the lifted path follows the surfaces.
fn through_connections(sites: &Sites, opened: &[usize], path: Vec<LayerPoint>) -> Vec<LayerPoint> {
    let mut out: Vec<LayerPoint> = Vec::with_capacity(path.len());
    for q in path {
        if let Some(&last) = out.last()
            && last.layer != q.layer
            && last.at != q.at
        {
            let mut layer = last.layer;
            for (at, next) in crate::open::layer_changes(&sites.conns, opened, layer, last.at, q.at)
            {
                out.push(LayerPoint { layer, at });
                out.push(LayerPoint { layer: next, at });
                layer = next;
            }
        }
        out.push(q);
    }
    out
}

/// Pulls the backbone tight inside its clearance disks shrunk by `c`.
fn pull(b: &[BackbonePoint], c: f64, start: LayerPoint, goal: LayerPoint) -> Vec<LayerPoint> {
    let mut out = vec![start];
    if b.is_empty() {
        out.push(goal);
        return out;
    }
    // Every sample point lies in some disk with room for half the sample
    // spacing to spare, so the points between samples are inside too.
    let safe = |i: usize, j: usize| -> bool {
        let (p, q) = (b[i].at, b[j].at);
        let n = ((p.distance(q) / (STEP / 4.0)).ceil() as usize).max(1);
        let half = 0.5 * p.distance(q) / n as f64;
        (0..=n).all(|k| {
            let x = p.lerp(q, k as f64 / n as f64);
            b[i..=j]
                .iter()
                .any(|m| x.distance(m.at) + half <= m.clearance - c)
        })
    };
    let mut i = 0;
    out.push(LayerPoint {
        layer: b[0].layer,
        at: b[0].at,
    });
    while i + 1 < b.len() {
        let mut j = i + 1;
        while j + 1 < b.len()
            && b[j + 1].layer == b[i].layer
            && b[i + 1..=j + 1].iter().all(|m| m.layer == b[i].layer)
            && safe(i, j + 1)
        {
            j += 1;
        }
        if out
            .last()
            .is_none_or(|l| l.at != b[j].at || l.layer != b[j].layer)
        {
            out.push(LayerPoint {
                layer: b[j].layer,
                at: b[j].at,
            });
        }
        i = j;
    }
    out.push(goal);
    out
}
