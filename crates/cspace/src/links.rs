//! Stage 5, *links* (Golodetz §4.2, Listing 4): walk, step-up and
//! step-down links between opposing edges of each edge plane.
//!
//! Both edges are mapped into the plane's 2D frame (origin `d n̂`, axes
//! `î' = n̂ × û / |n̂ × û|` and `ĵ' = û`), their horizontal intervals are
//! intersected and the height difference `Δ(x) = y_f(x) − y_e(x) = Δm x +
//! Δc` decides the links over the overlap, exactly as Listing 4: with equal
//! gradients a level pair gives a walk link and a pair within the step
//! tolerance gives a step; with different gradients the overlap is cut at
//! `Δ = 0` and `Δ = ±STEPTOL` into step-up and step-down intervals.
//!
//! Choices the paper leaves open:
//! * Each unordered (same-facing, opposite-facing) pair is evaluated once
//!   and emits the links of both directions, which is what evaluating both
//!   ordered pairs would give, but makes step-up from `e` to `f` hold
//!   exactly when step-down from `f` to `e` does.
//! * Link endpoints are placed on the edges themselves (by interpolating
//!   along each edge at the link's `x`), not on the table's representative
//!   plane, which may sit up to the distance tolerance away.
//! * Intervals shorter than [`MIN_LINK`] make no link (edges meeting at a
//!   point).

use glam::DVec3;
use navscope_core::LinkKind;
use serde::Serialize;

use crate::edge_plane::{EdgePlane, EdgeRef};
use crate::free::{is_free, near};
use crate::polyhedron::Polyhedron;
use crate::walkable::WalkPoly;

/// Shortest link segment kept (metres).
pub const MIN_LINK: f64 = 1.0e-3;
/// Gradients closer than this are equal (Listing 4's ε for `Δm`).
pub const GRADIENT_EPS: f64 = 1.0e-6;
/// Heights closer than this (metres) are level (Listing 4's ε for `Δc`).
pub const LEVEL_EPS: f64 = 1.0e-4;

/// A link between two walkable polygons, possibly of different meshes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkSeg {
    /// Mesh (agent size) of the source polygon.
    pub from_mesh: usize,
    /// Source polygon.
    pub from: usize,
    /// Mesh of the destination polygon.
    pub to_mesh: usize,
    /// Destination polygon.
    pub to: usize,
    /// How it is traversed.
    pub kind: LinkKind,
    /// Where the link leaves the source polygon.
    pub source: [DVec3; 2],
    /// Where it arrives on the destination polygon.
    pub dest: [DVec3; 2],
    /// Horizontal unit direction from the source polygon towards the
    /// destination across the edge (zero for a ladder climbed straight up).
    pub across: DVec3,
    /// The source edge, for links made from the edge plane table.
    pub edge: Option<EdgeRef>,
}

/// The links one pair of opposing edges makes over one interval: the kind
/// from `e` to `f`, the kind from `f` to `e`, and the interval of plane
/// `x` coordinates.
pub type Crossing = (LinkKind, LinkKind, (f64, f64));

/// A 2D frame in a vertical plane.
#[derive(Clone, Copy, Debug)]
pub struct PlaneFrame {
    origin: DVec3,
    i: DVec3,
}

impl PlaneFrame {
    /// The frame of a vertical plane `n̂ · x = d`.
    pub fn new(normal: DVec3, d: f64) -> Self {
        Self {
            origin: normal * d,
            i: normal.cross(DVec3::Y).normalize(),
        }
    }

    /// A world point in plane coordinates.
    pub fn to_2d(&self, p: DVec3) -> (f64, f64) {
        ((p - self.origin).dot(self.i), (p - self.origin).y)
    }
}

/// An edge in a plane frame: `y = m x + c` over `[lo, hi]`, plus the world
/// endpoints for mapping back.
#[derive(Clone, Copy, Debug)]
pub struct Edge2 {
    x1: f64,
    x2: f64,
    p1: DVec3,
    p2: DVec3,
    /// Gradient.
    pub m: f64,
    /// Cut point.
    pub c: f64,
}

impl Edge2 {
    /// Maps the world edge `p1 → p2` into `frame`; `None` when it is
    /// vertical in the frame.
    pub fn new(frame: &PlaneFrame, p1: DVec3, p2: DVec3) -> Option<Self> {
        let (x1, y1) = frame.to_2d(p1);
        let (x2, y2) = frame.to_2d(p2);
        if (x2 - x1).abs() < 1e-9 {
            return None;
        }
        let m = (y2 - y1) / (x2 - x1);
        Some(Self {
            x1,
            x2,
            p1,
            p2,
            m,
            c: y1 - m * x1,
        })
    }

    /// Horizontal interval.
    pub fn interval(&self) -> (f64, f64) {
        (self.x1.min(self.x2), self.x1.max(self.x2))
    }

    /// The world point of the edge at plane coordinate `x`.
    pub fn at(&self, x: f64) -> DVec3 {
        let t = ((x - self.x1) / (self.x2 - self.x1)).clamp(0.0, 1.0);
        self.p1 + (self.p2 - self.p1) * t
    }

    /// The world segment of the edge over `[lo, hi]`.
    pub fn segment(&self, (lo, hi): (f64, f64)) -> [DVec3; 2] {
        [self.at(lo), self.at(hi)]
    }
}

/// The part of `overlap` where `lo <= Δm x + Δc <= hi`, if longer than
/// [`MIN_LINK`].
pub fn band(dm: f64, dc: f64, lo: f64, hi: f64, overlap: (f64, f64)) -> Option<(f64, f64)> {
    let (a, b) = if dm.abs() <= GRADIENT_EPS {
        if dc >= lo && dc <= hi {
            overlap
        } else {
            return None;
        }
    } else {
        let (x_lo, x_hi) = ((lo - dc) / dm, (hi - dc) / dm);
        (x_lo.min(x_hi).max(overlap.0), x_lo.max(x_hi).min(overlap.1))
    };
    (b - a >= MIN_LINK).then_some((a, b))
}

/// Listing 4 for one unordered pair: `e` (same-facing) and `f`
/// (opposite-facing) in `frame`; returns `(kind e→f, kind f→e, interval)`
/// triples.
pub fn walk_and_step(e: &Edge2, f: &Edge2, step: f64) -> Vec<Crossing> {
    let (el, eh) = e.interval();
    let (fl, fh) = f.interval();
    let overlap = (el.max(fl), eh.min(fh));
    if overlap.1 - overlap.0 < MIN_LINK {
        return Vec::new();
    }
    let (dm, dc) = (f.m - e.m, f.c - e.c);
    let mut out = Vec::new();
    if dm.abs() > GRADIENT_EPS {
        if let Some(i) = band(dm, dc, -step, 0.0, overlap) {
            out.push((LinkKind::StepDown, LinkKind::StepUp, i));
        }
        if let Some(i) = band(dm, dc, 0.0, step, overlap) {
            out.push((LinkKind::StepUp, LinkKind::StepDown, i));
        }
    } else if dc.abs() < step {
        if dc > LEVEL_EPS {
            out.push((LinkKind::StepUp, LinkKind::StepDown, overlap));
        } else if dc < -LEVEL_EPS {
            out.push((LinkKind::StepDown, LinkKind::StepUp, overlap));
        } else {
            out.push((LinkKind::Walk, LinkKind::Walk, overlap));
        }
    }
    out
}

/// Vertical jumps (Golodetz §5.3): like step links but for height
/// differences in `(step, jump]`, in both directions.
pub fn jumps(e: &Edge2, f: &Edge2, step: f64, jump: f64) -> Vec<Crossing> {
    let (el, eh) = e.interval();
    let (fl, fh) = f.interval();
    let overlap = (el.max(fl), eh.min(fh));
    if overlap.1 - overlap.0 < MIN_LINK || jump <= step {
        return Vec::new();
    }
    let (dm, dc) = (f.m - e.m, f.c - e.c);
    if dm.abs() <= GRADIENT_EPS && dc.abs() < step {
        // Parallel edges this close are a step (Listing 4), not a jump.
        return Vec::new();
    }
    [(-jump, -step), (step, jump)]
        .into_iter()
        .filter_map(|(lo, hi)| band(dm, dc, lo, hi, overlap))
        .map(|i| (LinkKind::Jump, LinkKind::Jump, i))
        .collect()
}

/// True when the vertical crossing of a step or jump link (from the source
/// segment up or down to the destination segment, sampled at both ends and
/// the middle) is free among `solids` ([`is_free`]). Edges merged into one
/// plane by the table's tolerances can sit a few millimetres apart, and
/// where a brush face leans (a tipped crate) the vertical between them can
/// cut its corner: such links are dropped. The test is symmetric, so a link and its reverse go together.
pub fn clear_of(solids: &[&Polyhedron], l: &LinkSeg) -> bool {
    const TS: [f64; 5] = [0.05, 0.25, 0.5, 0.75, 0.95];
    let mut pts = Vec::with_capacity(15);
    for s in [0.05, 0.5, 0.95] {
        let (a, b) = (
            l.source[0].lerp(l.source[1], s),
            l.dest[0].lerp(l.dest[1], s),
        );
        pts.extend(TS.iter().map(|&t| a.lerp(b, t)));
    }
    let near = near(solids, &pts);
    pts.iter().all(|&q| is_free(&near, q))
}

/// Spacing of [`clear_path`]'s sample points, metres.
pub(crate) const PATH_SAMPLE_STEP: f64 = 0.1;

/// True when every point of the polyline `pts`, sampled every
/// [`PATH_SAMPLE_STEP`], is free among `solids` ([`is_free`]).
pub fn clear_path(solids: &[&Polyhedron], pts: &[DVec3]) -> bool {
    let near = near(solids, pts);
    pts.windows(2).all(|w| {
        let n = (w[0].distance(w[1]) / PATH_SAMPLE_STEP).ceil().max(1.0) as usize;
        (0..=n).all(|k| is_free(&near, w[0].lerp(w[1], k as f64 / n as f64)))
    })
}

/// Runs `pair_links` over every (same, opposite) pair of every plane of a
/// table and collects the links of mesh `mesh`, both directions.
pub fn table_links(
    mesh: usize,
    polys: &[WalkPoly],
    table: &[EdgePlane],
    pair_links: &dyn Fn(&Edge2, &Edge2) -> Vec<Crossing>,
) -> Vec<LinkSeg> {
    let mut out = Vec::new();
    for entry in table {
        let frame = PlaneFrame::new(entry.plane.normal, entry.plane.d);
        let map = |r: &EdgeRef| {
            let (a, b) = r.points(polys);
            Edge2::new(&frame, a, b)
        };
        let opposite: Vec<(EdgeRef, Option<Edge2>)> =
            entry.opposite.iter().map(|r| (*r, map(r))).collect();
        for er in &entry.same {
            let Some(e) = map(er) else { continue };
            for (fr, f) in &opposite {
                let Some(f) = f else { continue };
                if er.poly == fr.poly {
                    continue;
                }
                for (ef, fe, i) in pair_links(&e, f) {
                    let (se, sf) = (e.segment(i), f.segment(i));
                    let n = entry.plane.normal;
                    out.push(LinkSeg {
                        from_mesh: mesh,
                        from: er.poly,
                        to_mesh: mesh,
                        to: fr.poly,
                        kind: ef,
                        source: se,
                        dest: sf,
                        across: n,
                        edge: Some(*er),
                    });
                    out.push(LinkSeg {
                        from_mesh: mesh,
                        from: fr.poly,
                        to_mesh: mesh,
                        to: er.poly,
                        kind: fe,
                        source: sf,
                        dest: se,
                        across: -n,
                        edge: Some(*fr),
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(x1: f64, y1: f64, x2: f64, y2: f64) -> Edge2 {
        let frame = PlaneFrame::new(DVec3::Z, 0.0);
        // î' = ẑ × û = −x̂, so world x = −plane x.
        Edge2::new(&frame, DVec3::new(-x1, y1, 0.0), DVec3::new(-x2, y2, 0.0)).unwrap()
    }

    #[test]
    fn level_parallel_edges_walk() {
        let l = walk_and_step(&edge(0., 1., 2., 1.), &edge(1., 1., 3., 1.), 0.45);
        assert_eq!(l, vec![(LinkKind::Walk, LinkKind::Walk, (1.0, 2.0))]);
    }

    #[test]
    fn parallel_edges_within_step_tolerance_step_and_beyond_it_do_not() {
        let l = walk_and_step(&edge(0., 1., 2., 1.), &edge(0., 1.3, 2., 1.3), 0.45);
        assert_eq!(l, vec![(LinkKind::StepUp, LinkKind::StepDown, (0.0, 2.0))]);
        assert!(walk_and_step(&edge(0., 1., 2., 1.), &edge(0., 1.5, 2., 1.5), 0.45).is_empty());
        let j = jumps(&edge(0., 1., 2., 1.), &edge(0., 1.5, 2., 1.5), 0.45, 1.1);
        assert_eq!(j, vec![(LinkKind::Jump, LinkKind::Jump, (0.0, 2.0))]);
        assert!(jumps(&edge(0., 1., 2., 1.), &edge(0., 1.3, 2., 1.3), 0.45, 1.1).is_empty());
    }

    #[test]
    fn a_ramp_beside_a_floor_gives_step_intervals_figure_5a() {
        // Floor at height 0, ramp edge rising from 0 to 1 over x in [0, 2].
        let floor = edge(0., 0., 2., 0.);
        let ramp = edge(0., 0., 2., 1.);
        let l = walk_and_step(&floor, &ramp, 0.4);
        assert_eq!(l.len(), 1);
        let (k, back, (a, b)) = l[0];
        assert_eq!((k, back), (LinkKind::StepUp, LinkKind::StepDown));
        assert!(a.abs() < 1e-12 && (b - 0.8).abs() < 1e-12);
        let j = jumps(&floor, &ramp, 0.4, 0.9);
        assert_eq!(j.len(), 1);
        assert!((j[0].2.0 - 0.8).abs() < 1e-12 && (j[0].2.1 - 1.8).abs() < 1e-12);
    }

    #[test]
    fn disjoint_or_touching_intervals_make_no_links() {
        assert!(walk_and_step(&edge(0., 0., 1., 0.), &edge(1., 0., 2., 0.), 0.4).is_empty());
        assert!(walk_and_step(&edge(0., 0., 1., 0.), &edge(3., 0., 4., 0.), 0.4).is_empty());
    }
}
