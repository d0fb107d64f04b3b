//! Influence zones, connection scenes and the opening of one connection
//! (the paper's §3.1 and §3.2 step 2).
//!
//! * The **influence zone** of a connection is the union of the Voronoi
//!   cells of its access-side sites: the points whose nearest obstacle is
//!   the access side. Its boundary is made of the axis edges that have an
//!   access site on one side (plus the perpendiculars at the endpoints).
//!   Every zone point lies in the perpendicular slab of the connection, so
//!   the zone is drawn as the region between the connection and those
//!   edges.
//! * The **connection scene** is the set of sites across the zone's
//!   boundary edges (the Voronoi neighbours of the access sites, on both
//!   layers and on any layer reached through connections opened earlier),
//!   plus the connection's two endpoints, all taken in plan coordinates:
//!   the paper's projection onto the plane of the first layer is the plan
//!   itself, since every layer is horizontal. Deleting a Voronoi site hands
//!   its cell to its neighbours, so these are all the obstacles the zone's
//!   new axis can depend on.
//! * **Opening** computes the Voronoi diagram of the scene, keeps the parts
//!   of its edges inside the zone, removes the old edges bounding the zone
//!   and inserts the kept ones, cut where they cross an open connection so
//!   each edge lies on one layer. The cut points become pairs of vertices
//!   (one per layer) joined by a [`Join`]; the kept parts end at the old
//!   zone-boundary vertices, which is where the old and new axes meet.

use glam::DVec2;
use serde::Serialize;

use crate::axis::{Axis, Join, annotate};
use crate::grid::{Grid, IPt, arrange, strictly_inside};
use crate::sites::{Conn, Geom, Sites};
use crate::voronoi::{Reach, Source, VEdge, primary_edges};
use rayon::prelude::*;

/// Where segment `p q` meets the line of connection `c`: `(t, s)` with the
/// meeting point at `p + t (q - p)` and at `c.a + s (c.b - c.a)`; `None`
/// when they are parallel. Callers choose how far inside `0..1` counts.
fn crossing(p: DVec2, q: DVec2, c: Conn) -> Option<(f64, f64)> {
    let (d, e) = (q - p, c.b - c.a);
    let den = d.perp_dot(e);
    if den == 0.0 {
        return None;
    }
    Some(((c.a - p).perp_dot(e) / den, (c.a - p).perp_dot(d) / den))
}

/// The layer reached by walking in a straight line from `p` (on `layer`)
/// to `q`, switching layers at every open connection crossed from its
/// access side (left to right on its `from` layer, right to left on its
/// `to` layer).
pub fn walk(conns: &[Conn], opened: &[usize], layer: usize, p: DVec2, q: DVec2) -> usize {
    layer_changes(conns, opened, layer, p, q)
        .last()
        .map_or(layer, |&(_, l)| l)
}

/// Where walking in a straight line from `p` (on `layer`) to `q` changes
/// layer (see [`walk`]): each crossing point with the layer beyond it, in
/// walking order.
pub fn layer_changes(
    conns: &[Conn],
    opened: &[usize],
    mut layer: usize,
    p: DVec2,
    q: DVec2,
) -> Vec<(DVec2, usize)> {
    let mut hits: Vec<(f64, usize, bool)> = Vec::new();
    for &o in opened {
        let c = conns[o];
        let Some((t, s)) = crossing(p, q, c) else {
            continue;
        };
        if t > 1e-12 && t < 1.0 - 1e-12 && s > 1e-12 && s < 1.0 - 1e-12 {
            let from_left = (c.b - c.a).perp_dot(p - c.a) > 0.0;
            hits.push((t, o, from_left));
        }
    }
    hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut changes = Vec::new();
    for (t, o, from_left) in hits {
        let c = conns[o];
        let before = layer;
        if layer == c.from && from_left {
            layer = c.to;
        } else if layer == c.to && !from_left {
            layer = c.from;
        }
        if layer != before {
            changes.push((p.lerp(q, t), layer));
        }
    }
    changes
}

/// The influence zone of one connection.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Zone {
    /// The connection.
    pub connection: usize,
    /// Its access-side sites.
    pub access: Vec<u32>,
    /// Indices of the axis edges bounding the zone.
    pub edges: Vec<usize>,
    /// Neighbour sites on the `from` side and on the `to` side.
    pub neighbours: [Vec<u32>; 2],
    /// Outline on each side (plan, counter-clockwise): the connection and
    /// the bounding edges.
    pub outline: [Vec<DVec2>; 2],
}

/// Local frame of a connection: `(u, v)` with `u` along `a -> b` and `v`
/// positive on the left.
fn frame(c: &Conn, p: DVec2) -> (f64, f64) {
    let d = (c.b - c.a).normalize();
    ((p - c.a).dot(d), d.perp_dot(p - c.a))
}

/// The influence zone of connection `c` on the current axis.
pub fn zone(axis: &Axis, sites: &Sites, c: usize) -> Result<Zone, String> {
    let cn = sites.conns[c];
    let access = sites.access(c);
    let mut edges = Vec::new();
    let mut neighbours: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut bound: [Vec<(f64, f64, DVec2)>; 2] = [Vec::new(), Vec::new()];
    for (i, e) in axis.edges.iter().enumerate() {
        let Some(k) = e.sites.iter().position(|s| access.contains(s)) else {
            continue;
        };
        edges.push(i);
        let side = if sites.list[e.sites[k] as usize].layer == cn.from {
            0
        } else {
            1
        };
        let other = e.sites[1 - k];
        if !access.contains(&other) && !neighbours[side].contains(&other) {
            neighbours[side].push(other);
        }
        for p in &e.points {
            let (u, v) = frame(&cn, p.at);
            bound[side].push((u, v, p.at));
        }
    }
    for (side, layer) in [(0, cn.from), (1, cn.to)] {
        if neighbours[side].is_empty() {
            return Err(format!(
                "connection {c}: no medial-axis edge bounds its influence zone on layer {layer}"
            ));
        }
    }
    neighbours.iter_mut().for_each(|n| n.sort_unstable());
    let len = cn.a.distance(cn.b);
    let mut outline: [Vec<DVec2>; 2] = [vec![cn.a, cn.b], vec![cn.b, cn.a]];
    for (side, b) in bound.iter_mut().enumerate() {
        b.retain(|&(u, _, _)| u >= -1e-9 && u <= len + 1e-9);
        b.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.abs().total_cmp(&y.1.abs())));
        if side == 0 {
            outline[0].extend(b.iter().rev().map(|x| x.2));
        } else {
            outline[1].extend(b.iter().map(|x| x.2));
        }
    }
    Ok(Zone {
        connection: c,
        access,
        edges,
        neighbours,
        outline,
    })
}

/// The obstacles of a connection scene, in plan, arranged for `boostvoronoi`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scene {
    /// The connection.
    pub connection: usize,
    /// Scene segments (grid), meeting only at endpoints.
    pub segments: Vec<[IPt; 2]>,
    /// Sites each segment comes from.
    pub segment_sites: Vec<Vec<u32>>,
    /// Isolated scene points (grid).
    pub points: Vec<IPt>,
    /// Sites each point comes from.
    pub point_sites: Vec<Vec<u32>>,
}

/// The connection scene of a zone: its neighbour sites and the vertices on
/// the connection, merged where sites of different layers coincide
/// in plan.
pub fn scene(sites: &Sites, z: &Zone) -> Scene {
    let cn = sites.conns[z.connection];
    let mut ids: Vec<u32> = z.neighbours.iter().flatten().copied().collect();
    // Every vertex on the connection that some other obstacle ends at (its
    // ends, corners of walls on its obstacle side) stays an obstacle.
    for l in [cn.from, cn.to] {
        for p in sites.pieces[l]
            .iter()
            .filter(|p| p.connection == Some(z.connection))
        {
            for g in [p.a, p.b] {
                ids.extend(sites.point(l, g));
            }
        }
    }
    ids.retain(|&s| sites.list[s as usize].within != Some(z.connection));
    ids.sort_unstable();
    ids.dedup();
    let mut segs = Vec::new();
    let mut seg_ids = Vec::new();
    let mut pts: Vec<(IPt, u32)> = Vec::new();
    for &s in &ids {
        let site = &sites.list[s as usize];
        match site.geom {
            Geom::Segment(..) => {
                segs.push((site.grid[0], site.grid[1]));
                seg_ids.push(s);
            }
            Geom::Point(_) => pts.push((site.grid[0], s)),
        }
    }
    let pieces = arrange(&segs);
    let segments: Vec<[IPt; 2]> = pieces.iter().map(|p| [p.a, p.b]).collect();
    let segment_sites: Vec<Vec<u32>> = pieces
        .iter()
        .map(|p| p.sources.iter().map(|&(i, _)| seg_ids[i]).collect())
        .collect();
    pts.sort();
    let mut points: Vec<IPt> = Vec::new();
    let mut point_sites: Vec<Vec<u32>> = Vec::new();
    for (p, s) in pts {
        if segments
            .iter()
            .any(|q| q[0] == p || q[1] == p || strictly_inside(q[0], q[1], p))
        {
            continue;
        }
        if points.last() == Some(&p) {
            if let Some(v) = point_sites.last_mut() {
                v.push(s);
            }
        } else {
            points.push(p);
            point_sites.push(vec![s]);
        }
    }
    Scene {
        connection: z.connection,
        segments,
        segment_sites,
        points,
        point_sites,
    }
}

/// What opening one connection did, for display.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Opening {
    /// The connection.
    pub connection: usize,
    /// When it repeats an earlier connection (same join), that one.
    pub same_as: Option<usize>,
    /// The zone, as it was when the connection was opened.
    pub zone: Option<Zone>,
    /// The scene.
    pub scene: Option<Scene>,
    /// The Voronoi edges of the scene (plan polylines).
    pub scene_axis: Vec<Vec<DVec2>>,
    /// Edges inserted: layer and polyline.
    pub added: Vec<(usize, Vec<DVec2>)>,
    /// Edges removed (the zone's boundary edges): layer and polyline.
    /// Edges are never split after they are inserted, so the axis before
    /// any opening is the layer axes plus the earlier openings' `added`
    /// minus their `removed`.
    pub removed: Vec<(usize, Vec<DVec2>)>,
    /// Zone-boundary crossings that matched no old vertex (0 when the
    /// scene's axis meets the old axis exactly, as it should).
    pub unmatched: usize,
}

/// Parameters of the opening step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The integer grid.
    pub grid: Grid,
    /// Arc discretisation tolerance (m).
    pub tolerance: f64,
    /// Vertex merge distance (m): the same Voronoi vertex computed in two
    /// diagrams; much smaller than the grid step.
    pub snap: f64,
}

/// The Voronoi edges of a connection scene. The zone lies well inside the
/// scene's bounding box grown on every side by twice its larger side, so
/// infinite edges (bisectors of two points) are cut to pieces crossing
/// that region. (A frame of obstacles that far out would bound them too,
/// but its long segments with large coordinates made the diagram several
/// times slower to build.)
fn scene_diagram(sc: &Scene, set: &Settings) -> Result<Vec<VEdge>, String> {
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for p in sc.segments.iter().flatten().chain(sc.points.iter()) {
        let p = DVec2::new(p[0] as f64, p[1] as f64);
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let margin = 2.0 * (hi - lo).max_element() + 16.0;
    let reach = Reach {
        centre: (lo + hi) * 0.5,
        radius: ((hi - lo) * 0.5 + DVec2::splat(margin)).length(),
    };
    let segs: Vec<(IPt, IPt)> = sc.segments.iter().map(|s| (s[0], s[1])).collect();
    primary_edges(
        &sc.points,
        &segs,
        set.grid,
        set.tolerance,
        Some(reach),
        &|_, _, _| true,
    )
    .map_err(|e| format!("connection {}: {e}", sc.connection))
}

/// A connection's scene and its Voronoi edges, computed ahead of its
/// opening from the zone's neighbours on an earlier axis.
struct Prepared {
    /// The zone's neighbours they were computed for.
    neighbours: [Vec<u32>; 2],
    /// The scene.
    scene: Scene,
    /// Its Voronoi edges.
    edges: Vec<VEdge>,
}

/// Computes ahead, in parallel, the scene diagram of every connection that
/// opens something, from its zone on `axis`.
fn prepare(axis: &Axis, sites: &Sites, set: &Settings, order: &[usize]) -> Vec<Option<Prepared>> {
    order
        .par_iter()
        .with_max_len(1)
        .map(|&c| {
            if sites.conns.get(c)?.same_as != c {
                return None;
            }
            let z = zone(axis, sites, c).ok()?;
            let scene = scene(sites, &z);
            let edges = scene_diagram(&scene, set).ok()?;
            Some(Prepared {
                neighbours: z.neighbours,
                scene,
                edges,
            })
        })
        .collect()
}

/// Opens connection `c`: updates `axis` inside its influence zone and adds
/// it to `opened`.
pub fn open(
    axis: &mut Axis,
    sites: &Sites,
    set: &Settings,
    c: usize,
    opened: &mut Vec<usize>,
) -> Result<Opening, String> {
    open_prepared(axis, sites, set, c, opened, None)
}

/// [`open`], reusing `pre` when it was computed for the same zone
/// neighbours (then the scene, a function of them, and its diagram are
/// the same).
fn open_prepared(
    axis: &mut Axis,
    sites: &Sites,
    set: &Settings,
    c: usize,
    opened: &mut Vec<usize>,
    pre: Option<Prepared>,
) -> Result<Opening, String> {
    let cn = sites.conns[c];
    if cn.same_as != c {
        return Ok(Opening {
            connection: c,
            same_as: Some(cn.same_as),
            zone: None,
            scene: None,
            scene_axis: Vec::new(),
            added: Vec::new(),
            removed: Vec::new(),
            unmatched: 0,
        });
    }
    let z = zone(axis, sites, c)?;
    let (sc, vedges) = match pre.filter(|p| p.neighbours == z.neighbours) {
        Some(p) => (p.scene, p.edges),
        None => {
            let sc = scene(sites, &z);
            let edges = scene_diagram(&sc, set)?;
            (sc, edges)
        }
    };
    let segs: Vec<(IPt, IPt)> = sc.segments.iter().map(|s| (s[0], s[1])).collect();
    let len = cn.a.distance(cn.b);
    let geoms = |ids: &[u32]| {
        ids.iter()
            .map(|&s| sites.list[s as usize].geom)
            .collect::<Vec<Geom>>()
    };
    let (nl, nr) = (geoms(&z.neighbours[0]), geoms(&z.neighbours[1]));
    let inside = |x: DVec2| -> bool {
        let (u, v) = frame(&cn, x);
        if u <= 0.0 || u >= len {
            return false;
        }
        let (n, h) = if v > 0.0 {
            (&nl, v)
        } else if v < 0.0 {
            (&nr, -v)
        } else {
            return true;
        };
        n.iter().all(|g| g.distance(x) > h)
    };
    let boundary: Vec<u32> = {
        let mut b: Vec<u32> = z.edges.iter().flat_map(|&i| axis.edges[i].ends).collect();
        b.sort_unstable();
        b.dedup();
        b
    };
    let boundary_pts: Vec<DVec2> = boundary
        .iter()
        .map(|&v| axis.vertices[v as usize].at)
        .collect();
    let snap_radius = 2.0 * (set.tolerance + set.grid.step);
    let mut unmatched = 0;
    let mut snap_to_boundary = |p: DVec2| -> DVec2 {
        let best = boundary_pts
            .iter()
            .copied()
            .min_by(|a, b| a.distance(p).total_cmp(&b.distance(p)));
        match best {
            Some(q) if q.distance(p) <= snap_radius => q,
            _ => {
                unmatched += 1;
                p
            }
        }
    };
    let removed = z
        .edges
        .iter()
        .map(|&i| {
            (
                axis.edges[i].layer,
                axis.edges[i].points.iter().map(|p| p.at).collect(),
            )
        })
        .collect();
    let zone_edges: std::collections::HashSet<usize> = z.edges.iter().copied().collect();
    let mut i = 0;
    axis.edges.retain(|_| {
        i += 1;
        !zone_edges.contains(&(i - 1))
    });
    opened.push(c);

    let mut scene_axis = Vec::new();
    let mut added = Vec::new();
    let mut cuts: Vec<(DVec2, usize)> = Vec::new();
    for e in &vedges {
        scene_axis.push(e.points.clone());
        // Runs of the polyline inside the zone.
        let mut runs: Vec<Vec<DVec2>> = Vec::new();
        let mut cur: Vec<DVec2> = Vec::new();
        let mut prev_in = inside(e.points[0]);
        if prev_in {
            cur.push(e.points[0]);
        }
        for w in e.points.windows(2) {
            let now_in = inside(w[1]);
            if now_in != prev_in {
                let (mut a, mut b) = if prev_in { (w[0], w[1]) } else { (w[1], w[0]) };
                for _ in 0..60 {
                    let mid = (a + b) * 0.5;
                    if inside(mid) { a = mid } else { b = mid }
                }
                let x = snap_to_boundary((a + b) * 0.5);
                cur.push(x);
                if prev_in {
                    runs.push(std::mem::take(&mut cur));
                }
            }
            if now_in {
                cur.push(w[1]);
            }
            prev_in = now_in;
        }
        if cur.len() >= 2 {
            runs.push(cur);
        }
        for run in runs {
            for piece in cut_at_connections(&run, &sites.conns, opened, &mut cuts) {
                if piece.len() < 2 {
                    continue;
                }
                let mid = if piece.len() == 2 {
                    (piece[0] + piece[1]) * 0.5
                } else {
                    piece[piece.len() / 2]
                };
                let (u, v) = frame(&cn, mid);
                let foot = cn.a + (cn.b - cn.a).normalize() * u;
                let start = if v >= 0.0 { cn.from } else { cn.to };
                let layer = walk(&sites.conns, opened, start, foot, mid);
                let pick =
                    |s: Source| -> Option<u32> { choose(sites, &sc, &segs, s, mid, layer, opened) };
                let (Some(s0), Some(s1)) = (pick(e.sources[0]), pick(e.sources[1])) else {
                    continue;
                };
                let pts = annotate(sites, [s0, s1], &piece);
                if let Some(k) = axis.add_edge(layer, [s0, s1], pts) {
                    let e = &axis.edges[k];
                    // Ends lying on an open connection join the layers too.
                    for end in [e.points[0].at, e.points[e.points.len() - 1].at] {
                        for &o in opened.iter() {
                            let cc = sites.conns[o];
                            if (cc.from == layer || cc.to == layer)
                                && crate::sites::closest_on_segment(cc.a, cc.b, end).distance(end)
                                    <= 1e-9 * (1.0 + end.length())
                            {
                                cuts.push((end, o));
                            }
                        }
                    }
                    added.push((layer, e.points.iter().map(|p| p.at).collect()));
                }
            }
        }
    }
    // Join the two sides of every cut.
    for (p, o) in cuts {
        let cc = sites.conns[o];
        let (Some(v0), Some(v1)) = (axis.find_vertex(cc.from, p), axis.find_vertex(cc.to, p))
        else {
            continue;
        };
        let j = Join {
            vertices: [v0, v1],
            connection: o,
        };
        if !axis.joins.contains(&j) {
            axis.joins.push(j);
        }
    }
    axis.drop_stale_joins();
    Ok(Opening {
        connection: c,
        same_as: None,
        zone: Some(z),
        scene: Some(sc),
        scene_axis,
        added,
        removed,
        unmatched,
    })
}

/// Splits a polyline where it properly crosses an open connection;
/// records each cut point with its connection.
fn cut_at_connections(
    run: &[DVec2],
    conns: &[Conn],
    opened: &[usize],
    cuts: &mut Vec<(DVec2, usize)>,
) -> Vec<Vec<DVec2>> {
    let mut out = vec![vec![run[0]]];
    for w in run.windows(2) {
        let (p, q) = (w[0], w[1]);
        let d = q - p;
        let mut hits: Vec<(f64, usize)> = Vec::new();
        for &o in opened {
            let Some((t, s)) = crossing(p, q, conns[o]) else {
                continue;
            };
            if t > 1e-9 && t < 1.0 - 1e-9 && s > 0.0 && s < 1.0 {
                hits.push((t, o));
            }
        }
        hits.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (t, o) in hits {
            let x = p + d * t;
            if let Some(last) = out.last_mut() {
                last.push(x);
            }
            out.push(vec![x]);
            cuts.push((x, o));
        }
        if let Some(last) = out.last_mut() {
            last.push(q);
        }
    }
    out
}

/// The site a scene feature stands for at `mid` on `layer`: among the sites
/// it was made from, the first that faces `mid` and is reached from it on
/// its own layer.
fn choose(
    sites: &Sites,
    sc: &Scene,
    segs: &[(IPt, IPt)],
    s: Source,
    mid: DVec2,
    layer: usize,
    opened: &[usize],
) -> Option<u32> {
    let mut cands: Vec<u32> = match s {
        Source::Segment(k) => sc.segment_sites.get(k)?.clone(),
        Source::Point(i) => sc.point_sites.get(i)?.clone(),
        Source::Start(k) | Source::End(k) => {
            let p = if matches!(s, Source::Start(_)) {
                segs[k].0
            } else {
                segs[k].1
            };
            let mut v: Vec<u32> = (0..sites.pieces.len())
                .filter_map(|l| sites.point(l, p))
                .collect();
            if v.is_empty() {
                v = sc.segment_sites.get(k)?.clone();
            }
            v
        }
    };
    cands.dedup();
    let reach = |id: &u32| {
        let site = &sites.list[*id as usize];
        let q = site.geom.closest(mid);
        site.faces(mid) && walk(&sites.conns, opened, layer, mid, q) == site.layer
    };
    cands
        .iter()
        .copied()
        .find(|id| reach(id))
        .or_else(|| {
            cands
                .iter()
                .copied()
                .find(|id| sites.list[*id as usize].faces(mid))
        })
        .or_else(|| cands.first().copied())
}

/// Opens every connection in `order` (indices into the level's
/// connections) starting from the layer axes; returns the merged axis and
/// what each opening did.
pub fn merge(
    initial: &Axis,
    sites: &Sites,
    set: &Settings,
    order: &[usize],
) -> Result<(Axis, Vec<Opening>), String> {
    // Scenes rarely change before their connection opens (only when an
    // earlier opening replaced edges of the zone), so with several threads
    // every scene diagram is computed ahead in parallel from the initial
    // axis and used when the zone's neighbours still match. The result is
    // the same either way.
    let mut pre: Vec<Option<Prepared>> = if rayon::current_num_threads() > 1 {
        prepare(initial, sites, set, order)
    } else {
        Vec::new()
    };
    pre.resize_with(order.len(), || None);
    let mut axis = initial.clone();
    let mut opened = Vec::new();
    let mut log = Vec::new();
    for (&c, p) in order.iter().zip(pre) {
        log.push(open_prepared(&mut axis, sites, set, c, &mut opened, p)?);
    }
    axis.compact();
    Ok((axis, log))
}
