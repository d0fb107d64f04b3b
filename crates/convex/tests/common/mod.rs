//! Checks of the decomposition's geometric invariants, written against the
//! output only (not the crate's internals), shared by the test files.
#![allow(dead_code)]

use std::f64::consts::PI;

use glam::DVec2;
use navscope_convex::{Fate, Output};
use navscope_core::geom::{
    PolygonWithHoles, SegmentHit, candidate_segment_pairs, segment_intersection,
};

/// Tolerance on angles (split points are rounded to f64).
pub const ANGLE_EPS: f64 = 1e-9;

fn angle_at(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    navscope_core::geom::interior_angle(a, b, c)
}

/// Every invariant a decomposition must keep; panics with a description on
/// failure.
pub fn check(plan: &PolygonWithHoles, out: &Output, tau_deg: f64) {
    check_with(plan, out, tau_deg, ANGLE_EPS);
}

/// [`check`] with a chosen angle tolerance (radians), for plans far from
/// the origin where a split point can only be placed to within one ulp of
/// its coordinates.
pub fn check_with(plan: &PolygonWithHoles, out: &Output, tau_deg: f64, angle_eps: f64) {
    let mut plan = plan.clone();
    plan.normalise();
    let tau = tau_deg.to_radians();
    // 1. Every cell counter-clockwise, every corner at most pi + tau.
    for (i, c) in out.cells.iter().enumerate() {
        let n = c.polygon.len();
        assert!(n >= 3, "cell {i} has {n} corners");
        assert!(c.area > 0.0, "cell {i} has area {}", c.area);
        for k in 0..n {
            let a = angle_at(
                c.polygon[(k + n - 1) % n],
                c.polygon[k],
                c.polygon[(k + 1) % n],
            );
            assert!(
                a <= PI + tau + angle_eps,
                "cell {i} corner {k} at {:?} is {} deg (tau {tau_deg})",
                c.polygon[k],
                a.to_degrees()
            );
        }
    }
    // 1b. Without relaxation cells are convex: no reflex turn, nothing to
    // stray into.
    if tau_deg == 0.0 {
        for (i, c) in out.cells.iter().enumerate() {
            assert!(
                c.reflex_turn_deg <= angle_eps.to_degrees() * c.polygon.len() as f64,
                "cell {i} turns {} deg",
                c.reflex_turn_deg
            );
            let (lo, hi) = navscope_core::geom::Polygon::new(c.polygon.clone()).bounds();
            assert!(
                c.stray_m <= 1e-9 * (1.0 + lo.abs().max(hi.abs()).max_element()),
                "cell {i} strays {} m",
                c.stray_m
            );
        }
    }
    // 2. Areas sum to the free area.
    let total: f64 = out.cells.iter().map(|c| c.area).sum();
    let free = plan.area();
    assert!(
        ((total - free) / free).abs() < 1e-9,
        "cells cover {total}, free area is {free}"
    );
    // 3. No two cells overlap (separating axis; cells are convex when tau = 0).
    if tau == 0.0 {
        check_no_overlap(out);
    }
    // 4. Every notch is split: its reflex angle cannot fit in one convex
    //    cell, so at least two cells have a corner there.
    for nt in &out.notches {
        let corners = out
            .cells
            .iter()
            .filter(|c| c.polygon.contains(&nt.position))
            .count();
        assert!(
            corners >= 2,
            "notch at {:?} is a corner of {corners} cell(s)",
            nt.position
        );
    }
    // 5. Portals cross neither each other nor the boundary, and lie in the free space.
    let portals: Vec<(DVec2, DVec2)> = out
        .decomposition
        .portals
        .iter()
        .filter(|p| p.fate == Fate::Kept)
        .map(|p| (p.a, p.b))
        .collect();
    let mut segs = portals.clone();
    for r in plan.rings() {
        for (_, a, b) in r.edges() {
            segs.push((a, b));
        }
    }
    let (lo, hi) = plan.bounds();
    let eps = 1e-9 * (hi - lo).length();
    for (i, j) in candidate_segment_pairs(&segs) {
        if i >= portals.len() && j >= portals.len() {
            continue;
        }
        let ((a, b), (c, d)) = (segs[i], segs[j]);
        match segment_intersection(a, b, c, d) {
            SegmentHit::None => {}
            SegmentHit::Point(p) => {
                let at_end = |x: DVec2, y: DVec2| p.distance(x) <= eps || p.distance(y) <= eps;
                // A portal may end on a boundary edge or on another portal's end.
                let ok = if j < portals.len() {
                    at_end(a, b) && at_end(c, d)
                } else {
                    at_end(a, b)
                };
                assert!(
                    ok,
                    "portal {i} ({a:?}-{b:?}) meets segment {j} ({c:?}-{d:?}) at {p:?}"
                );
            }
            SegmentHit::Overlap(p, q) => {
                panic!("portal {i} overlaps segment {j} from {p:?} to {q:?}")
            }
        }
    }
    for (a, b) in &portals {
        assert!(
            plan.contains((*a + *b) * 0.5),
            "portal {a:?}-{b:?} runs outside the free space"
        );
    }
    // 6. The cell graph is connected (the free space of a valid plan is).
    let n = out.cells.len();
    let mut adj = vec![Vec::new(); n];
    for l in &out.links {
        adj[l.cells[0] as usize].push(l.cells[1] as usize);
        adj[l.cells[1] as usize].push(l.cells[0] as usize);
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(c) = stack.pop() {
        for &d in &adj[c] {
            if !seen[d] {
                seen[d] = true;
                stack.push(d);
            }
        }
    }
    assert!(seen.iter().all(|s| *s), "the cell graph is not connected");
}

fn check_no_overlap(out: &Output) {
    // Candidate pairs from the cells' bounding boxes (as diagonals).
    let boxes: Vec<(DVec2, DVec2)> = out
        .cells
        .iter()
        .map(|c| {
            c.polygon.iter().fold(
                (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
                |(lo, hi), p| (lo.min(*p), hi.max(*p)),
            )
        })
        .collect();
    for (i, j) in candidate_segment_pairs(&boxes) {
        let (a, b) = (&out.cells[i].polygon, &out.cells[j].polygon);
        let scale = (boxes[i].1 - boxes[i].0)
            .length()
            .max((boxes[j].1 - boxes[j].0).length());
        let separated = [a, b].iter().any(|poly| {
            (0..poly.len()).any(|k| {
                let e = poly[(k + 1) % poly.len()] - poly[k];
                let axis = DVec2::new(e.y, -e.x).normalize_or_zero();
                let (amin, amax) = proj(a, axis);
                let (bmin, bmax) = proj(b, axis);
                amax <= bmin + 1e-9 * scale || bmax <= amin + 1e-9 * scale
            })
        });
        assert!(separated, "cells {i} and {j} overlap");
    }
}

fn proj(p: &[DVec2], axis: DVec2) -> (f64, f64) {
    p.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| {
            (lo.min(q.dot(axis)), hi.max(q.dot(axis)))
        })
}
