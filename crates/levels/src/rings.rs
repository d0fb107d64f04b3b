//! From a file's rings to a normalised, validated [`PolygonWithHoles`].
//!
//! Every 2D format (floor plan JSON and RON, layers, polyanya meshes) goes
//! through [`build_area`]: it checks the numbers are finite, drops repeated
//! and collinear vertices (exact `orient` test, which also removes
//! zero-width spikes), orients the rings with core's
//! [`PolygonWithHoles::normalise`] and validates them with core's
//! [`validate_polygon_with_holes`]. Problems are reported with the indices
//! of the *file's* vertices, whatever cleaning and reversing happened.

use std::collections::VecDeque;

use glam::DVec2;
use navscope_core::geom::{
    GeometryError, Orientation, Polygon, PolygonWithHoles, Ring, orient, orient_value,
    validate_polygon_with_holes,
};

use navscope_core::num::short;

use crate::bounds::beyond;
use crate::error::Fault;

/// `(x, z)` text for a plan point, as files write it.
pub(crate) fn fmt_xz(p: DVec2) -> String {
    format!("({}, {})", short(p.x), short(-p.y))
}

/// A ring after cleaning, with the file index of every kept vertex.
struct Cleaned {
    points: Vec<DVec2>,
    file_index: Vec<usize>,
}

/// How far off the line through its neighbours a vertex may lie and still
/// be dropped as collinear, relative to the distance between the
/// neighbours: 1e-10 (0.1 µm over a kilometre).
const SNAP: f64 = 1e-10;

/// True when `b` is collinear with `a` and `c` (exactly, or within [`SNAP`]
/// of the line `a c`). A vertex 1e-13 m off a straight wall is a notch of
/// 180° less 1e-14 rad, which no pipeline can treat in floating point;
/// dropping it moves the boundary by at most `SNAP` times the wall's length.
fn collinear(a: DVec2, b: DVec2, c: DVec2) -> bool {
    orient(a, b, c) == Orientation::Collinear
        || orient_value(a, b, c).abs() <= SNAP * (c - a).length_squared()
}

/// Drops consecutive duplicates and (nearly) collinear vertices in one
/// pass (plus a fix-up across the seam), remembering file indices.
fn clean(points: &[DVec2]) -> Cleaned {
    let mut out: VecDeque<(DVec2, usize)> = VecDeque::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        loop {
            if out.back().is_some_and(|q| q.0 == p) {
                break;
            }
            let n = out.len();
            if n >= 2 && collinear(out[n - 2].0, out[n - 1].0, p) {
                out.pop_back();
                continue;
            }
            out.push_back((p, i));
            break;
        }
    }
    // The seam: the last vertex may repeat the first, and the vertices next
    // to the seam may be collinear with it.
    loop {
        let n = out.len();
        if (n >= 2 && out[n - 1].0 == out[0].0)
            || (n >= 3 && collinear(out[n - 2].0, out[n - 1].0, out[0].0))
        {
            out.pop_back();
        } else if n >= 3 && collinear(out[n - 1].0, out[0].0, out[1].0) {
            out.pop_front();
        } else {
            break;
        }
    }
    let (points, file_index) = out.into_iter().unzip();
    Cleaned { points, file_index }
}

/// Builds the free space from an outer ring and holes given as plan points
/// in file order. `name` turns a ring into the element name used in
/// messages (`outer`, `hole 3`, ...).
pub(crate) fn build_area(
    outer: Vec<DVec2>,
    holes: Vec<Vec<DVec2>>,
    name: &dyn Fn(Ring) -> String,
) -> Result<PolygonWithHoles, Fault> {
    let raw: Vec<(Ring, Vec<DVec2>)> = std::iter::once((Ring::Outer, outer))
        .chain(
            holes
                .into_iter()
                .enumerate()
                .map(|(i, h)| (Ring::Hole(i), h)),
        )
        .collect();
    let mut cleaned = Vec::with_capacity(raw.len());
    for (ring, pts) in &raw {
        if let Some(i) = pts.iter().position(|p| !p.is_finite()) {
            return Err(Fault::geometry(
                name(*ring),
                format!("vertex {i}: coordinate is not a finite number"),
            ));
        }
        if let Some((i, problem)) = pts
            .iter()
            .enumerate()
            .find_map(|(i, p)| beyond("coordinate", [p.x, p.y]).map(|e| (i, e)))
        {
            return Err(Fault::geometry(
                name(*ring),
                format!("vertex {i}: {problem}"),
            ));
        }
        let c = clean(pts);
        if c.points.len() < 3 {
            let mut distinct = pts.clone();
            distinct.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
            distinct.dedup();
            let problem = if distinct.len() < 3 {
                format!("needs at least 3 distinct vertices, has {}", distinct.len())
            } else {
                "encloses zero area (all vertices collinear)".to_string()
            };
            return Err(Fault::geometry(name(*ring), problem));
        }
        cleaned.push(c);
    }
    let was_ccw: Vec<bool> = cleaned
        .iter()
        .map(|c| Polygon::new(c.points.clone()).is_ccw())
        .collect();
    let mut rings = cleaned.iter().map(|c| Polygon::new(c.points.clone()));
    let outer = rings.next().expect("outer ring is always present");
    let mut area = PolygonWithHoles::new(outer, rings.collect());
    area.normalise();
    // Outer should end counter-clockwise, holes clockwise.
    let reversed: Vec<bool> = was_ccw
        .iter()
        .enumerate()
        .map(|(i, &ccw)| ccw != (i == 0))
        .collect();
    validate_polygon_with_holes(&area).map_err(|e| {
        let idx = |r: Ring| match r {
            Ring::Outer => 0,
            Ring::Hole(h) => h + 1,
        };
        // File index of the first vertex (in file order) of normalised
        // edge `e` of ring `r`.
        let edge = |r: Ring, e: usize| {
            let c = &cleaned[idx(r)];
            let m = c.points.len();
            if reversed[idx(r)] {
                c.file_index[(2 * m - 2 - e) % m]
            } else {
                c.file_index[e % m]
            }
        };
        match e {
            GeometryError::NonFinite { ring, index } => Fault::geometry(
                name(ring),
                format!("vertex {}: coordinate is not a finite number", index),
            ),
            GeometryError::TooFewVertices { ring, count } => Fault::geometry(
                name(ring),
                format!("needs at least 3 distinct vertices, has {count}"),
            ),
            GeometryError::ZeroArea { ring } => Fault::geometry(name(ring), "encloses zero area"),
            GeometryError::SelfIntersection {
                ring,
                edge_a,
                edge_b,
                point,
            } => {
                let (a, b) = (edge(ring, edge_a), edge(ring, edge_b));
                Fault::geometry(
                    name(ring),
                    format!(
                        "edges {} and {} intersect at {}",
                        a.min(b),
                        a.max(b),
                        fmt_xz(point)
                    ),
                )
            }
            GeometryError::RingsMeet { a, b, point } => {
                let (a, b) = if idx(a) <= idx(b) { (a, b) } else { (b, a) };
                Fault::geometry(
                    format!("{} and {}", name(a), name(b)),
                    format!("touch or cross at {}", fmt_xz(point)),
                )
            }
            GeometryError::HoleOutside { ring, point } => Fault::geometry(
                name(ring),
                format!(
                    "lies outside the free space (its vertex {} is not inside the outer boundary)",
                    fmt_xz(point)
                ),
            ),
        }
    })?;
    Ok(area)
}

/// The usual ring names: `outer`, `hole N`.
pub(crate) fn ring_name(r: Ring) -> String {
    match r {
        Ring::Outer => "outer".to_string(),
        Ring::Hole(i) => format!("hole {i}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(f64, f64)]) -> Vec<DVec2> {
        v.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn cleaning_drops_duplicates_collinear_points_and_spikes_across_the_seam() {
        let c = clean(&pts(&[
            (1., 0.),
            (2., 0.),
            (2., 0.),
            (2., 2.),
            (0., 2.),
            (0., 0.),
            (0.5, 0.),
            (1., 0.),
        ]));
        assert_eq!(c.points, pts(&[(2., 0.), (2., 2.), (0., 2.), (0., 0.)]));
        assert_eq!(c.file_index, vec![1, 3, 4, 5]);
        // A spike out and back.
        let c = clean(&pts(&[
            (0., 0.),
            (2., 0.),
            (2., 2.),
            (2., 5.),
            (2., 2.),
            (0., 2.),
        ]));
        assert_eq!(c.points, pts(&[(0., 0.), (2., 0.), (2., 2.), (0., 2.)]));
    }

    #[test]
    fn vertices_a_hair_off_a_wall_are_dropped() {
        // 1e-13 m off a 10 m wall, either side: gone. 1 mm off: kept.
        for off in [1e-13, -1e-13, 3e-12] {
            let c = clean(&pts(&[
                (0., 0.),
                (10., 0.),
                (10., 10.),
                (5., 10. + off),
                (0., 10.),
            ]));
            assert_eq!(c.points.len(), 4, "{off}");
            assert_eq!(c.file_index, vec![0, 1, 2, 4]);
        }
        let c = clean(&pts(&[
            (0., 0.),
            (10., 0.),
            (10., 10.),
            (5., 10.001),
            (0., 10.),
        ]));
        assert_eq!(c.points.len(), 5);
    }

    #[test]
    fn clockwise_outer_is_reversed_and_errors_use_file_indices() {
        // A bow tie with positive area, then the same given backwards: the
        // reported edges are the file's edges either way.
        let outer = pts(&[(0., 0.), (0., 10.), (10., 0.), (20., 20.)]);
        let e = build_area(outer, vec![], &ring_name).unwrap_err();
        assert_eq!(e.element, "outer");
        assert_eq!(e.problem, "edges 1 and 3 intersect at (5, -5)");
        let outer = pts(&[(20., 20.), (10., 0.), (0., 10.), (0., 0.), (0., 0.)]);
        let e = build_area(outer, vec![], &ring_name).unwrap_err();
        assert_eq!(e.problem, "edges 1 and 3 intersect at (5, -5)");
        let outer = pts(&[(0., 0.), (0., 5.), (0., 10.), (10., 0.), (20., 20.)]);
        let e = build_area(outer, vec![], &ring_name).unwrap_err();
        assert_eq!(e.problem, "edges 2 and 4 intersect at (5, -5)");
    }

    #[test]
    fn touching_holes_name_both_and_the_point() {
        let sq = pts(&[(0., 0.), (10., 0.), (10., 10.), (0., 10.)]);
        let h0 = pts(&[(1., 1.), (3., 1.), (3., 3.), (1., 3.)]);
        let h1 = pts(&[(3., 3.), (5., 3.), (5., 5.)]);
        let e = build_area(sq, vec![h0, h1], &ring_name).unwrap_err();
        assert_eq!(e.element, "hole 0 and hole 1");
        assert_eq!(e.problem, "touch or cross at (3, -3)");
    }

    #[test]
    fn degenerate_rings_are_named() {
        let e = build_area(pts(&[(0., 0.), (1., 1.), (2., 2.)]), vec![], &ring_name).unwrap_err();
        assert_eq!(e.problem, "encloses zero area (all vertices collinear)");
        let e = build_area(pts(&[(0., 0.), (1., 1.), (0., 0.)]), vec![], &ring_name).unwrap_err();
        assert_eq!(e.problem, "needs at least 3 distinct vertices, has 2");
        let sq = pts(&[(0., 0.), (10., 0.), (10., 10.), (0., 10.)]);
        let e = build_area(
            sq,
            vec![pts(&[(1., 1.), (f64::NAN, 1.), (2., 2.)])],
            &ring_name,
        )
        .unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("hole 0", "vertex 1: coordinate is not a finite number")
        );
    }

    #[test]
    fn hole_outside_is_named() {
        let sq = pts(&[(0., 0.), (10., 0.), (10., 10.), (0., 10.)]);
        let e = build_area(
            sq,
            vec![pts(&[(20., 20.), (21., 20.), (21., 21.)])],
            &ring_name,
        )
        .unwrap_err();
        assert_eq!(e.element, "hole 0");
        assert!(
            e.problem.starts_with("lies outside the free space"),
            "{}",
            e.problem
        );
    }
}
