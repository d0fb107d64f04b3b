//! The portal-creation loop of ANavMG (Oliva & Pelechano §3.2), with
//! portal removal (§3.2.3) done as the paper does it, during creation.
//!
//! For each notch still waiting in the list, the closest point of the
//! boundary or of an existing portal inside the notch's area of interest is
//! found with [`SegmentGrid::search_cone`]; what that point is decides the
//! portal's type:
//!
//! * an existing vertex (of the plan, or a point created earlier):
//!   vertex-vertex. If that vertex is a waiting notch and the new portal
//!   lies inside its area of interest, it is split too and leaves the list;
//! * the inside of a boundary edge (the notch's projection onto the edge,
//!   or the crossing `q_l` / `q_r` of a prolonged edge of the notch with
//!   it): vertex-edge; the point splits the edge;
//! * the inside of a portal: vertex-portal, to the closer end of that portal
//!   that lies in the area of interest, or to both ends when neither does.
//!
//! See the crate docs for the choices where the paper is silent.

use glam::DVec2;
use navscope_core::StageError;
use navscope_core::geom::{
    Orientation, SegmentHit, orient, point_segment_distance, segment_intersection,
};
use serde::Serialize;

use crate::cone::{Cone, How, Near, point_at};
use crate::graph::{PlanGraph, SegKind, sector_ok};
use crate::grid::SegmentGrid;
use crate::notches::Notch;

/// The three portal types of §3.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum PortalKind {
    /// Notch to an existing vertex.
    VertexVertex,
    /// Notch to a new point on a boundary edge.
    VertexEdge,
    /// Notch to (an end of, or a point on) an existing portal.
    VertexPortal,
}

impl PortalKind {
    /// Every type.
    pub const ALL: [PortalKind; 3] = [
        PortalKind::VertexVertex,
        PortalKind::VertexEdge,
        PortalKind::VertexPortal,
    ];

    /// `vertex-vertex`, `vertex-edge` or `vertex-portal`.
    pub fn name(self) -> &'static str {
        match self {
            PortalKind::VertexVertex => "vertex-vertex",
            PortalKind::VertexEdge => "vertex-edge",
            PortalKind::VertexPortal => "vertex-portal",
        }
    }

    /// The drawing kind, `portal/<name>`.
    pub fn draw_kind(self) -> &'static str {
        match self {
            PortalKind::VertexVertex => "portal/vertex-vertex",
            PortalKind::VertexEdge => "portal/vertex-edge",
            PortalKind::VertexPortal => "portal/vertex-portal",
        }
    }
}

/// What became of a portal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Fate {
    /// It is part of the final decomposition.
    Kept,
    /// Removed at sub-step `step` because a later portal made it
    /// unnecessary (§3.2.3).
    Removed {
        /// The sub-step that removed it.
        step: u32,
    },
    /// Cut in two at sub-step `step` by a vertex-portal portal that had to
    /// end on it (see the crate docs); the halves are portals `into`.
    Split {
        /// The sub-step that cut it.
        step: u32,
        /// The two halves.
        into: [u32; 2],
    },
}

/// One portal.
#[derive(Clone, Debug, Serialize)]
pub struct Portal {
    /// Its segment in the graph.
    pub seg: u32,
    /// The vertex it starts from (the notch that made it).
    pub from: u32,
    /// The vertex it ends at.
    pub to: u32,
    /// Start position (plan).
    pub a: DVec2,
    /// End position (plan).
    pub b: DVec2,
    /// Its type.
    pub kind: PortalKind,
    /// The sub-step that created it.
    pub step: u32,
    /// What became of it.
    pub fate: Fate,
}

/// What a candidate element is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum CandKind {
    /// A vertex.
    Vertex {
        /// Vertex id.
        vertex: u32,
    },
    /// A boundary edge from `a` to `b`.
    Edge {
        /// Start.
        a: DVec2,
        /// End.
        b: DVec2,
    },
    /// Portal `id`.
    Portal {
        /// Portal index.
        id: u32,
        /// Start.
        a: DVec2,
        /// End.
        b: DVec2,
    },
}

/// An element that had a point inside the area of interest.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The element.
    pub kind: CandKind,
    /// Its closest point inside the area of interest.
    pub point: DVec2,
    /// Distance from the notch.
    pub distance: f64,
    /// For edge and portal points: projection or `q_l` / `q_r`.
    pub how: Option<How>,
}

/// One sub-step: one notch of the list (or one island corner, see the
/// crate docs).
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The vertex processed.
    pub vertex: u32,
    /// Its position.
    pub position: DVec2,
    /// True for an extra step that joins an island of holes (tau > 0).
    pub island: bool,
    /// The area of interest searched.
    pub cone: Cone,
    /// When set, an earlier portal already split this notch and nothing was
    /// searched.
    pub already_split_by: Option<u32>,
    /// The closest candidates, best first (at most [`MAX_CANDIDATES`]).
    pub candidates: Vec<Candidate>,
    /// Portals created.
    pub created: Vec<u32>,
    /// Waiting notches the new portals split too (left the list).
    pub dropped: Vec<u32>,
    /// Earlier portals removed.
    pub removed: Vec<u32>,
    /// An earlier portal cut in two because the new one had to end on it.
    pub cut: Option<u32>,
}

/// How many candidates a step records.
pub const MAX_CANDIDATES: usize = 12;

/// The result of the portal loop.
#[derive(Clone, Debug, Serialize)]
pub struct Decomposition {
    /// The final graph: boundary pieces (edges split where portals end on
    /// them) and portals, alive and dead.
    pub graph: PlanGraph,
    /// Number of vertices of the plan itself (ids below this).
    pub plan_vertices: u32,
    /// Every portal ever created, in creation order.
    pub portals: Vec<Portal>,
    /// The sub-steps.
    pub steps: Vec<Step>,
    /// Tau in radians.
    pub tau: f64,
}

struct Builder {
    g: PlanGraph,
    grid: SegmentGrid,
    portals: Vec<Portal>,
    steps: Vec<Step>,
    /// The notch cone of each waiting notch vertex.
    waiting: Vec<Option<Cone>>,
    split_by: Vec<Option<u32>>,
    tau: f64,
    removal: bool,
    buf: Vec<u32>,
}

/// Ordering key of a hit: distance, then vertex before edge before portal,
/// then id — a total order, so the choice never depends on the search order.
type Key = (f64, u8, u32);

#[derive(Clone, Copy)]
struct Hit {
    key: Key,
    seg: u32,
    near: Near,
    point: DVec2,
}

/// Runs the portal loop over `notches` (in order) on the plan's rings.
pub fn decompose(
    rings: &[Vec<DVec2>],
    notches: &[Notch],
    tau: f64,
    removal: bool,
) -> Result<Decomposition, StageError> {
    let g = PlanGraph::from_rings(rings);
    let plan_vertices = g.points.len() as u32;
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for p in &g.points {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let mut grid = SegmentGrid::new(lo, hi, g.segs.len());
    for (i, s) in g.segs.iter().enumerate() {
        grid.insert(i as u32, g.points[s.a as usize], g.points[s.b as usize]);
    }
    let n = g.points.len();
    let mut b = Builder {
        g,
        grid,
        portals: Vec::new(),
        steps: Vec::new(),
        waiting: vec![None; n],
        split_by: vec![None; n],
        tau,
        removal,
        buf: Vec::new(),
    };
    for nt in notches {
        b.waiting[nt.vertex as usize] = Some(nt.cone);
    }
    for nt in notches {
        let v = nt.vertex;
        let waiting = b.waiting[v as usize].take().is_some();
        if !waiting || b.split_already(v, &nt.cone) {
            let step = Step {
                vertex: v,
                position: nt.position,
                island: false,
                cone: nt.cone,
                already_split_by: b.split_by[v as usize],
                candidates: Vec::new(),
                created: Vec::new(),
                dropped: Vec::new(),
                removed: Vec::new(),
                cut: None,
            };
            b.steps.push(step);
            continue;
        }
        b.split_corner(v, nt.cone, false)?;
    }
    b.join_islands()?;
    Ok(Decomposition {
        graph: b.g,
        plan_vertices,
        portals: b.portals,
        steps: b.steps,
        tau,
    })
}

impl Builder {
    fn pt(&self, v: u32) -> DVec2 {
        self.g.points[v as usize]
    }

    /// True when a segment at `v` already lies inside its area of interest
    /// (then `split_by[v]` names it).
    fn split_already(&mut self, v: u32, cone: &Cone) -> bool {
        for &s in &self.g.adj[v as usize] {
            if let SegKind::Portal { id } = self.g.segs[s as usize].kind
                && cone.nearly_contains(self.pt(self.g.other(s, v)))
            {
                self.split_by[v as usize] = Some(id);
                return true;
            }
        }
        false
    }

    /// The closest point inside `cone` of every segment not touching `v`.
    fn search(&mut self, v: u32, cone: &Cone) -> (Option<Hit>, Vec<Candidate>) {
        let mut best: Option<Hit> = None;
        let mut cands: Vec<(Key, Candidate)> = Vec::new();
        let apex = self.pt(v);
        let g = &self.g;
        let portals = &self.portals;
        self.grid.search_cone(cone, |id| {
            let s = &g.segs[id as usize];
            if s.alive && s.a != v && s.b != v {
                let (pa, pb) = (g.points[s.a as usize], g.points[s.b as usize]);
                if let Some(near) = cone.nearest_on_segment(pa, pb) {
                    let point = point_at(pa, pb, near);
                    let d2 = point.distance_squared(apex);
                    let (key, kind, how) = match (near, s.kind) {
                        (Near::A, _) => ((d2, 0, s.a), CandKind::Vertex { vertex: s.a }, None),
                        (Near::B, _) => ((d2, 0, s.b), CandKind::Vertex { vertex: s.b }, None),
                        (Near::Inside { how, .. }, SegKind::Boundary { .. }) => {
                            ((d2, 1, id), CandKind::Edge { a: pa, b: pb }, Some(how))
                        }
                        (Near::Inside { how, .. }, SegKind::Portal { id: p }) => (
                            (d2, 2, id),
                            CandKind::Portal {
                                id: p,
                                a: portals[p as usize].a,
                                b: portals[p as usize].b,
                            },
                            Some(how),
                        ),
                    };
                    let hit = Hit {
                        key,
                        seg: id,
                        near,
                        point,
                    };
                    if best.is_none_or(|b| key_lt(key, b.key)) {
                        best = Some(hit);
                    }
                    cands.push((
                        key,
                        Candidate {
                            kind,
                            point,
                            distance: d2.sqrt(),
                            how,
                        },
                    ));
                }
            }
            best.map_or(f64::INFINITY, |b| b.key.0)
        });
        cands.sort_by(|a, b| key_cmp(a.0, b.0));
        cands.dedup_by(|a, b| a.0 == b.0);
        cands.truncate(MAX_CANDIDATES);
        (best, cands.into_iter().map(|c| c.1).collect())
    }

    /// Splits the reflex corner of `v` described by `cone` with one or two
    /// portals, records the sub-step and, for notches, removes portals the
    /// new ones made unnecessary.
    fn split_corner(&mut self, v: u32, cone: Cone, island: bool) -> Result<(), StageError> {
        let step = self.steps.len() as u32;
        let (best, candidates) = self.search(v, &cone);
        let Some(hit) = best else {
            let p = self.pt(v);
            return Err(StageError::failed(format!(
                "notch at ({}, {}): nothing of the floor plan lies inside its area of interest (is the plan closed?)",
                p.x, -p.y
            )));
        };
        let mut st = Step {
            vertex: v,
            position: self.pt(v),
            island,
            cone,
            already_split_by: None,
            candidates,
            created: Vec::new(),
            dropped: Vec::new(),
            removed: Vec::new(),
            cut: None,
        };
        let seg = self.g.segs[hit.seg as usize];
        match (hit.near, seg.kind) {
            (Near::A, _) | (Near::B, _) => {
                let w = if hit.near == Near::A { seg.a } else { seg.b };
                self.add_portal(v, w, PortalKind::VertexVertex, step, &mut st);
            }
            (Near::Inside { .. }, SegKind::Boundary { ring }) => {
                let q = self.g.add_point(hit.point);
                self.grow_tables();
                let kinds = [SegKind::Boundary { ring }; 2];
                let halves = self.g.split_seg(hit.seg, q, kinds);
                self.index(&halves);
                self.add_portal(v, q, PortalKind::VertexEdge, step, &mut st);
            }
            (Near::Inside { .. }, SegKind::Portal { id }) => {
                self.join_portal(v, &cone, id, hit.point, step, &mut st)
            }
        }
        if self.removal && !island {
            self.remove_unneeded(step, &mut st);
        }
        self.steps.push(st);
        Ok(())
    }

    /// The vertex-portal case (§3.2.3): to the closer end of portal `id`
    /// inside the area of interest, else to both ends; when the segments
    /// the paper asks for are blocked or leave a reflex angle, the portal
    /// is cut at the closest point `q` instead.
    fn join_portal(&mut self, v: u32, cone: &Cone, id: u32, q: DVec2, step: u32, st: &mut Step) {
        let pk = &self.portals[id as usize];
        let (a, b) = (pk.from, pk.to);
        let pv = self.pt(v);
        let mut ends = [a, b];
        ends.sort_by(|x, y| {
            self.pt(*x)
                .distance_squared(pv)
                .total_cmp(&self.pt(*y).distance_squared(pv))
                .then(x.cmp(y))
        });
        let inside: Vec<u32> = ends
            .iter()
            .copied()
            .filter(|e| cone.contains(self.pt(*e)))
            .collect();
        for &e in &inside {
            if self.clear(v, e) {
                self.add_portal(v, e, PortalKind::VertexPortal, step, st);
                return;
            }
        }
        if inside.is_empty() && self.clear(v, a) && self.clear(v, b) {
            let pa = self.add_portal_raw(v, a, PortalKind::VertexPortal, step);
            let pb = self.add_portal_raw(v, b, PortalKind::VertexPortal, step);
            if self.corner_split(v) {
                for p in [pa, pb] {
                    st.created.push(p);
                    self.drop_if_split(p, st);
                }
                return;
            }
            for p in [pb, pa] {
                self.undo_portal(p);
            }
        }
        // Cut portal `id` at q.
        let qv = self.g.add_point(q);
        self.grow_tables();
        let old = self.portals[id as usize].clone();
        let first = self.portals.len() as u32;
        let kinds = [
            SegKind::Portal { id: first },
            SegKind::Portal { id: first + 1 },
        ];
        let halves = self.g.split_seg(old.seg, qv, kinds);
        self.index(&halves);
        let (sa, sb) = (
            self.g.segs[halves[0] as usize],
            self.g.segs[halves[1] as usize],
        );
        for (h, s) in halves.iter().zip([sa, sb]) {
            self.portals.push(Portal {
                seg: *h,
                from: s.a,
                to: s.b,
                a: self.pt(s.a),
                b: self.pt(s.b),
                kind: old.kind,
                step,
                fate: Fate::Kept,
            });
        }
        self.portals[id as usize].fate = Fate::Split {
            step,
            into: [first, first + 1],
        };
        st.cut = Some(id);
        self.add_portal(v, qv, PortalKind::VertexPortal, step, st);
    }

    /// True when every free sector at `v` is tau-convex.
    fn corner_split(&self, v: u32) -> bool {
        self.g.corner_ok(v, self.tau)
    }

    fn grow_tables(&mut self) {
        self.waiting.push(None);
        self.split_by.push(None);
    }

    fn index(&mut self, segs: &[u32]) {
        for &s in segs {
            let sg = self.g.segs[s as usize];
            self.grid.insert(s, self.pt(sg.a), self.pt(sg.b));
        }
    }

    fn add_portal_raw(&mut self, v: u32, w: u32, kind: PortalKind, step: u32) -> u32 {
        let id = self.portals.len() as u32;
        let seg = self.g.add_seg(v, w, SegKind::Portal { id });
        self.index(&[seg]);
        self.portals.push(Portal {
            seg,
            from: v,
            to: w,
            a: self.pt(v),
            b: self.pt(w),
            kind,
            step,
            fate: Fate::Kept,
        });
        id
    }

    fn undo_portal(&mut self, id: u32) {
        let p = self.portals.pop().expect("undo the last portal");
        debug_assert_eq!(self.portals.len() as u32, id);
        self.g.kill_seg(p.seg);
    }

    fn add_portal(&mut self, v: u32, w: u32, kind: PortalKind, step: u32, st: &mut Step) {
        let id = self.add_portal_raw(v, w, kind, step);
        st.created.push(id);
        self.drop_if_split(id, st);
    }

    /// §3.2.1: a waiting notch at the far end of a new portal leaves the
    /// list when the portal lies inside its area of interest.
    fn drop_if_split(&mut self, id: u32, st: &mut Step) {
        let (from, to) = (self.portals[id as usize].from, self.portals[id as usize].to);
        for (x, other) in [(to, from), (from, to)] {
            if let Some(c) = self.waiting[x as usize]
                && c.nearly_contains(self.pt(other))
            {
                self.waiting[x as usize] = None;
                self.split_by[x as usize] = Some(id);
                st.dropped.push(x);
            }
        }
    }

    /// True when the open segment `v e` meets no alive segment (touching
    /// only the ones that end at `v` or `e`, there). Near misses count as
    /// meetings: a segment leaving `v` or `e` within 1e-9 rad of `v e`, or
    /// an endpoint within 1e-9 of the length from the other segment, would
    /// make faces that only rounding tells apart.
    fn clear(&mut self, v: u32, e: u32) -> bool {
        let (pv, pe) = (self.pt(v), self.pt(e));
        let len = pv.distance(pe);
        let mut buf = std::mem::take(&mut self.buf);
        self.grid.near_segment(pv, pe, &mut buf);
        let ok = buf.iter().all(|&s| {
            let sg = &self.g.segs[s as usize];
            if !sg.alive {
                return true;
            }
            let (a, b) = (sg.a, sg.b);
            if (a == v && b == e) || (a == e && b == v) {
                return false;
            }
            for (end, far) in [(v, e), (e, v)] {
                if a == end || b == end {
                    let o = self.pt(if a == end { b } else { a });
                    let (u, w) = (self.pt(far) - self.pt(end), o - self.pt(end));
                    return !(u.perp_dot(w).abs() <= 1e-9 * u.length() * w.length()
                        && u.dot(w) > 0.0);
                }
            }
            let (pa, pb) = (self.pt(a), self.pt(b));
            let tol = 1e-9 * len.max(pa.distance(pb));
            segment_intersection(pv, pe, pa, pb) == SegmentHit::None
                && point_segment_distance(pv, pe, pa) > tol
                && point_segment_distance(pv, pe, pb) > tol
                && point_segment_distance(pa, pb, pv) > tol
                && point_segment_distance(pa, pb, pe) > tol
        });
        self.buf = buf;
        ok
    }

    /// §3.2.3 "Removing previously created portals": an earlier portal that
    /// shares a vertex with a new one is removed when, without it, the
    /// angles at both of its ends stay (tau-)convex.
    fn remove_unneeded(&mut self, step: u32, st: &mut Step) {
        let mut cands: Vec<u32> = Vec::new();
        for &p in &st.created {
            let Portal { from, to, .. } = self.portals[p as usize];
            for x in [from, to] {
                for &s in &self.g.adj[x as usize] {
                    if let SegKind::Portal { id } = self.g.segs[s as usize].kind
                        && !st.created.contains(&id)
                    {
                        cands.push(id);
                    }
                }
            }
        }
        cands.sort_unstable();
        cands.dedup();
        for id in cands {
            let seg = self.portals[id as usize].seg;
            if !self.g.segs[seg as usize].alive {
                continue;
            }
            let (a, b) = (self.g.segs[seg as usize].a, self.g.segs[seg as usize].b);
            if self.merged_ok(a, seg) && self.merged_ok(b, seg) {
                self.g.kill_seg(seg);
                self.portals[id as usize].fate = Fate::Removed { step };
                st.removed.push(id);
            }
        }
    }

    /// True when the sector at `x` formed by merging the two sectors on
    /// either side of segment `seg` is tau-convex.
    fn merged_ok(&self, x: u32, seg: u32) -> bool {
        let list = self.g.around(x);
        let n = list.len();
        let Some(i) = list.iter().position(|&s| s == seg) else {
            return false;
        };
        if n < 3 {
            return false;
        }
        let (p, q) = (list[(i + n - 1) % n], list[(i + 1) % n]);
        sector_ok(
            self.pt(x),
            self.pt(self.g.other(p, x)),
            self.pt(self.g.other(q, x)),
            self.tau,
        )
    }

    /// With tau > 0 a group of holes whose corners are all tau-convex can
    /// end up joined to nothing (a face walk with negative area) or joined
    /// by a single portal (a walk that runs along a portal both ways),
    /// floating inside a cell. Each such walk gets its most reflex corner
    /// split strictly (tau = 0 wedge), one at a time, until none is left.
    /// Every round removes a reflex corner and adds none, so this ends.
    fn join_islands(&mut self) -> Result<(), StageError> {
        let limit = self.g.points.len() * 2 + 8;
        for _ in 0..limit {
            let faces = self.g.faces();
            let bad: Vec<&crate::graph::FaceWalk> = faces
                .walks
                .iter()
                .filter(|w| !w.is_simple_outline())
                .collect();
            if bad.is_empty() {
                return Ok(());
            }
            // One corner per bad walk in this round. A portal added for one
            // walk may change another; a corner whose two walk segments are
            // no longer neighbours at the vertex waits for the next round.
            for walk in bad {
                let n = walk.vertices.len();
                let corner = |i: usize| {
                    (
                        walk.vertices[(i + n - 1) % n],
                        walk.vertices[i],
                        walk.vertices[(i + 1) % n],
                    )
                };
                let mut best: Option<(f64, usize)> = None;
                for i in 0..n {
                    let (p, x, q) = corner(i);
                    let ang =
                        navscope_core::geom::interior_angle(self.pt(p), self.pt(x), self.pt(q));
                    if orient(self.pt(p), self.pt(x), self.pt(q)) == Orientation::Clockwise
                        && best.is_none_or(|b| ang > b.0)
                    {
                        best = Some((ang, i));
                    }
                }
                let Some((_, i)) = best else {
                    return Err(StageError::failed(
                        "a group of holes floats inside a cell and has no reflex corner to join it by",
                    ));
                };
                let (p, x, q) = corner(i);
                let (s_in, s_out) = (walk.segs[(i + n - 1) % n], walk.segs[i]);
                let around = self.g.around(x);
                let k = around.iter().position(|&s| s == s_out);
                let still_a_corner = k.is_some_and(|k| around[(k + 1) % around.len()] == s_in)
                    && self.g.segs[s_in as usize].alive;
                if still_a_corner {
                    let cone = Cone::of_corner(self.pt(p), self.pt(x), self.pt(q), 0.0);
                    self.split_corner(x, cone, true)?;
                }
            }
        }
        Err(StageError::failed(
            "joining floating holes did not finish (internal limit reached)",
        ))
    }
}

fn key_cmp(a: Key, b: Key) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

fn key_lt(a: Key, b: Key) -> bool {
    key_cmp(a, b) == std::cmp::Ordering::Less
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notches::{find_notches, rings};
    use navscope_core::geom::{Polygon, PolygonWithHoles};

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
        vec![v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)]
    }

    fn run(outer: Vec<DVec2>, holes: Vec<Vec<DVec2>>, removal: bool) -> Decomposition {
        let mut p = PolygonWithHoles::new(
            Polygon::new(outer),
            holes.into_iter().map(Polygon::new).collect(),
        );
        p.normalise();
        decompose(&rings(&p), &find_notches(&p, 0.0), 0.0, removal).unwrap()
    }

    #[test]
    fn an_l_room_gets_one_vertex_edge_portal_to_the_projection() {
        let d = run(
            vec![
                v(0., 0.),
                v(2., 0.),
                v(2., 1.),
                v(1., 1.),
                v(1., 2.),
                v(0., 2.),
            ],
            vec![],
            true,
        );
        assert_eq!(d.portals.len(), 1);
        let p = &d.portals[0];
        assert_eq!(
            (p.a, p.b, p.kind),
            (v(1., 1.), v(1., 0.), PortalKind::VertexEdge)
        );
        assert_eq!(d.steps[0].candidates[0].how, Some(How::Projection));
        assert_eq!(
            d.graph.points.len(),
            7,
            "the new point splits the bottom edge"
        );
    }

    #[test]
    fn a_square_pillar_gets_a_pinwheel_of_four_portals() {
        let d = run(square(0., 0., 10., 10.), vec![square(4., 4., 6., 6.)], true);
        assert_eq!(d.portals.len(), 4);
        assert!(
            d.portals
                .iter()
                .all(|p| p.kind == PortalKind::VertexEdge && p.fate == Fate::Kept)
        );
        assert!(d.portals.iter().all(|p| p.a.distance(p.b) == 4.0));
    }

    #[test]
    fn a_vertex_vertex_portal_inside_the_other_notchs_wedge_drops_it() {
        // Two pillars side by side: the corners facing each other across the
        // gap lie on each other's prolonged edges.
        let d = run(
            square(0., 0., 12., 6.),
            vec![square(2., 2., 4., 4.), square(5., 2., 7., 4.)],
            true,
        );
        let joined: Vec<&Portal> = d
            .portals
            .iter()
            .filter(|p| p.kind == PortalKind::VertexVertex)
            .collect();
        assert!(joined.len() >= 2, "{:?}", d.portals);
        let dropped: Vec<u32> = d
            .steps
            .iter()
            .flat_map(|s| s.dropped.iter().copied())
            .collect();
        assert_eq!(
            dropped.len(),
            joined.len(),
            "each pillar-to-pillar portal splits the far corner too"
        );
        let skipped = d
            .steps
            .iter()
            .filter(|s| s.already_split_by.is_some())
            .count();
        assert_eq!(
            skipped,
            dropped.len(),
            "dropped notches are skipped when their turn comes"
        );
    }

    #[test]
    fn removal_deletes_portals_only_when_it_is_on() {
        let plan = navscope_levels::generate::floor_plan(7, 3).area;
        let with = decompose(&rings(&plan), &find_notches(&plan, 0.0), 0.0, true).unwrap();
        let without = decompose(&rings(&plan), &find_notches(&plan, 0.0), 0.0, false).unwrap();
        let removed = |d: &Decomposition| {
            d.portals
                .iter()
                .filter(|p| matches!(p.fate, Fate::Removed { .. }))
                .count()
        };
        assert!(removed(&with) > 0);
        assert_eq!(removed(&without), 0);
        for st in &with.steps {
            for &id in &st.removed {
                assert!(
                    with.portals[id as usize].step
                        < with.steps.iter().position(|s| std::ptr::eq(s, st)).unwrap() as u32
                );
                assert!(!with.graph.segs[with.portals[id as usize].seg as usize].alive);
            }
        }
    }
}
