//! Validity checks for polygons with holes.
//!
//! The checks are the conditions ANavMG's decomposition (and every other 2D
//! pipeline) relies on: every ring is simple, every hole lies strictly inside
//! the outer boundary, and no two holes meet. A failure names the ring(s)
//! and the point where the problem is.
//!
//! Meeting edges are found with the Shamos–Hoey sweep of
//! [`find_bad_meeting`], so a plan with a million vertices validates in
//! `O(n log n)` comparisons.

use std::fmt;

use glam::DVec2;
use thiserror::Error;

use super::polygon::{Polygon, PolygonWithHoles};
use super::predicates::SegmentHit;
use super::sweep::find_bad_meeting;

/// Names one ring of a polygon with holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ring {
    /// The outer boundary.
    Outer,
    /// Hole number `i` (0-based, in file order).
    Hole(usize),
}

impl fmt::Display for Ring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ring::Outer => write!(f, "outer boundary"),
            Ring::Hole(i) => write!(f, "hole {i}"),
        }
    }
}

fn pt(p: &DVec2) -> String {
    // Points are reported in file coordinates [x, z].
    format!("({}, {})", p.x, -p.y)
}

/// What is wrong with a polygon with holes. Points are given as file
/// coordinates `(x, z)`.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum GeometryError {
    /// A coordinate is NaN or infinite.
    #[error("{ring}, vertex {index}: coordinate is not a finite number")]
    NonFinite { ring: Ring, index: usize },
    /// Fewer than three distinct vertices.
    #[error("{ring}: needs at least 3 distinct vertices, has {count}")]
    TooFewVertices { ring: Ring, count: usize },
    /// The ring encloses no area.
    #[error("{ring}: encloses zero area (all vertices collinear)")]
    ZeroArea { ring: Ring },
    /// Two edges of one ring cross or touch away from their shared vertex.
    #[error("{ring}: edges {edge_a} and {edge_b} intersect at {}", pt(point))]
    SelfIntersection {
        ring: Ring,
        edge_a: usize,
        edge_b: usize,
        point: DVec2,
    },
    /// Two rings meet.
    #[error("{a} and {b} meet at {}", pt(point))]
    RingsMeet { a: Ring, b: Ring, point: DVec2 },
    /// A hole lies outside the outer boundary (or inside another hole).
    #[error("{ring} lies outside the free space (vertex at {})", pt(point))]
    HoleOutside { ring: Ring, point: DVec2 },
}

fn check_ring(ring: Ring, p: &Polygon) -> Result<(), GeometryError> {
    for (index, v) in p.points.iter().enumerate() {
        if !v.is_finite() {
            return Err(GeometryError::NonFinite { ring, index });
        }
    }
    let mut distinct = p.points.clone();
    distinct.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    distinct.dedup();
    if distinct.len() < 3 {
        return Err(GeometryError::TooFewVertices {
            ring,
            count: distinct.len(),
        });
    }
    if p.signed_area() == 0.0 {
        return Err(GeometryError::ZeroArea { ring });
    }
    Ok(())
}

/// Checks a normalised polygon with holes: finite coordinates, rings with
/// area, simple rings, holes strictly inside the outer boundary, no two rings
/// touching or crossing. Returns the first problem found, in a fixed order
/// (deterministic for a given input).
pub fn validate_polygon_with_holes(pwh: &PolygonWithHoles) -> Result<(), GeometryError> {
    let rings: Vec<(Ring, &Polygon)> = std::iter::once((Ring::Outer, &pwh.outer))
        .chain(
            pwh.holes
                .iter()
                .enumerate()
                .map(|(i, h)| (Ring::Hole(i), h)),
        )
        .collect();
    for (r, p) in &rings {
        check_ring(*r, p)?;
    }
    // Every edge of every ring, with (ring index, edge index, ring length).
    let mut segs = Vec::new();
    let mut owner = Vec::new();
    for (ri, (_, p)) in rings.iter().enumerate() {
        for (ei, a, b) in p.edges() {
            segs.push((a, b));
            owner.push((ri, ei, p.len()));
        }
    }
    // What a meeting of edges i and j means: nothing (neighbouring edges
    // sharing their vertex) or a problem.
    let problem = |i: usize, j: usize, hit: &SegmentHit| -> Option<GeometryError> {
        let (ri, ei, n) = owner[i];
        let (rj, ej, _) = owner[j];
        let (a, b) = segs[i];
        let point = match *hit {
            SegmentHit::Point(p) | SegmentHit::Overlap(p, _) => p,
            SegmentHit::None => return None,
        };
        if ri == rj {
            let adjacent = (ei + 1) % n == ej || (ej + 1) % n == ei;
            if adjacent {
                // Neighbouring edges share exactly one vertex; anything more
                // (an overlap) is a fold-back.
                let shared = if (ei + 1) % n == ej { b } else { a };
                if matches!(hit, SegmentHit::Point(p) if *p == shared) {
                    return None;
                }
            }
            return Some(GeometryError::SelfIntersection {
                ring: rings[ri].0,
                edge_a: ei,
                edge_b: ej,
                point,
            });
        }
        Some(GeometryError::RingsMeet {
            a: rings[ri].0,
            b: rings[rj].0,
            point,
        })
    };
    let bad = find_bad_meeting(&segs, |i, j, hit| problem(i, j, hit).is_none());
    if let Some(e) = bad.and_then(|(i, j, hit)| problem(i, j, &hit)) {
        return Err(e);
    }
    // No ring touches another, so each hole is wholly inside or outside of
    // every other ring: one vertex decides.
    for (hi, h) in pwh.holes.iter().enumerate() {
        let v = h.points[0];
        if !pwh.outer.contains(v, false) {
            return Err(GeometryError::HoleOutside {
                ring: Ring::Hole(hi),
                point: v,
            });
        }
        for (hj, other) in pwh.holes.iter().enumerate() {
            if hj != hi && other.contains(v, false) {
                return Err(GeometryError::RingsMeet {
                    a: Ring::Hole(hj),
                    b: Ring::Hole(hi),
                    point: v,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(pts: &[(f64, f64)]) -> Polygon {
        Polygon::new(pts.iter().map(|&(x, y)| DVec2::new(x, y)).collect())
    }

    fn plan(outer: &[(f64, f64)], holes: &[&[(f64, f64)]]) -> PolygonWithHoles {
        let mut p = PolygonWithHoles::new(poly(outer), holes.iter().map(|h| poly(h)).collect());
        p.normalise();
        p
    }

    const SQ10: &[(f64, f64)] = &[(0., 0.), (10., 0.), (10., 10.), (0., 10.)];

    #[test]
    fn valid_plan_passes() {
        let p = plan(
            SQ10,
            &[
                &[(1., 1.), (3., 1.), (3., 3.), (1., 3.)],
                &[(5., 5.), (7., 5.), (6., 7.)],
            ],
        );
        assert_eq!(validate_polygon_with_holes(&p), Ok(()));
    }

    #[test]
    fn bow_tie_is_a_self_intersection() {
        let p = plan(&[(0., 0.), (10., 10.), (10., 0.), (0., 12.)], &[]);
        let e = validate_polygon_with_holes(&p).unwrap_err();
        assert!(
            matches!(
                e,
                GeometryError::SelfIntersection {
                    ring: Ring::Outer,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().starts_with("outer boundary: edges"), "{e}");
    }

    #[test]
    fn holes_touching_at_a_vertex_are_named_with_the_point() {
        let p = plan(
            SQ10,
            &[
                &[(1., 1.), (3., 1.), (3., 3.), (1., 3.)],
                &[(3., 3.), (5., 3.), (5., 5.)],
            ],
        );
        let e = validate_polygon_with_holes(&p).unwrap_err();
        assert_eq!(
            e,
            GeometryError::RingsMeet {
                a: Ring::Hole(0),
                b: Ring::Hole(1),
                point: DVec2::new(3., 3.)
            }
        );
        assert_eq!(e.to_string(), "hole 0 and hole 1 meet at (3, -3)");
    }

    #[test]
    fn hole_touching_outer_boundary() {
        let p = plan(SQ10, &[&[(0., 2.), (2., 2.), (2., 4.)]]);
        let e = validate_polygon_with_holes(&p).unwrap_err();
        assert!(
            matches!(
                e,
                GeometryError::RingsMeet {
                    a: Ring::Outer,
                    b: Ring::Hole(0),
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn hole_outside_and_nested_holes() {
        let p = plan(SQ10, &[&[(20., 20.), (21., 20.), (21., 21.)]]);
        assert!(matches!(
            validate_polygon_with_holes(&p),
            Err(GeometryError::HoleOutside {
                ring: Ring::Hole(0),
                ..
            })
        ));
        let p = plan(
            SQ10,
            &[
                &[(1., 1.), (8., 1.), (8., 8.), (1., 8.)],
                &[(3., 3.), (4., 3.), (4., 4.)],
            ],
        );
        assert!(matches!(
            validate_polygon_with_holes(&p),
            Err(GeometryError::RingsMeet { .. })
        ));
    }

    #[test]
    fn degenerate_rings() {
        let p = plan(&[(0., 0.), (1., 1.), (2., 2.)], &[]);
        assert_eq!(
            validate_polygon_with_holes(&p),
            Err(GeometryError::ZeroArea { ring: Ring::Outer })
        );
        let p = plan(&[(0., 0.), (1., 1.)], &[]);
        assert!(matches!(
            validate_polygon_with_holes(&p),
            Err(GeometryError::TooFewVertices { .. })
        ));
        let p = plan(&[(0., 0.), (f64::NAN, 1.), (2., 0.)], &[]);
        assert!(matches!(
            validate_polygon_with_holes(&p),
            Err(GeometryError::NonFinite { index: 1, .. })
        ));
    }
}
