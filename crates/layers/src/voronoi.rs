//! The segment Voronoi diagram (`boostvoronoi`) and the discretisation of
//! its edges.
//!
//! Only primary edges are returned: secondary edges (between a segment and
//! its own endpoint) carry no medial-axis information. Infinite edges are
//! dropped, or, when the caller gives a region ([`Reach`]), cut to a
//! straight piece long enough to cross it. Only the bisector of two points
//! can be infinite (an edge beside a segment stays in the segment's
//! perpendicular slab, where it is bounded), so the piece is exact.
//! A parabolic edge (between a point and a segment) is cut into chords that
//! stray at most `tolerance` metres from the true arc.

use boostvoronoi::builder::Builder;
use boostvoronoi::diagram::SourceCategory;
use boostvoronoi::geometry::{Line, Point};
use glam::DVec2;

use crate::grid::{Grid, IPt};

/// The input feature on one side of a Voronoi edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The isolated input point with this index.
    Point(usize),
    /// The start point of input segment `i`.
    Start(usize),
    /// The end point of input segment `i`.
    End(usize),
    /// The interior of input segment `i`.
    Segment(usize),
}

/// A primary Voronoi edge (an infinite one cut across a [`Reach`]), as a
/// polyline in plan metres.
#[derive(Clone, Debug, PartialEq)]
pub struct VEdge {
    /// The features on its two sides.
    pub sources: [Source; 2],
    /// Points from one Voronoi vertex (or cut end) to the other (at least
    /// two).
    pub points: Vec<DVec2>,
}

/// Most chords per parabolic edge; the tolerance is relaxed beyond it.
const MAX_CHORDS: usize = 4096;

/// A region, in grid units, that the infinite edges of a diagram must be
/// drawn across: each is cut to a straight piece that starts at its finite
/// vertex (or well outside the region, for a whole line) and ends beyond
/// the region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Centre.
    pub centre: DVec2,
    /// Radius: every point of the region is this close to the centre.
    pub radius: f64,
}

/// The primary edges of the Voronoi diagram of `points` and `segments`
/// (which must meet only at endpoints; see [`crate::grid::arrange`]), the
/// infinite ones only with a `reach` (cut across it), that `keep` accepts,
/// given the features on its two sides and the midpoint of the edge's two
/// ends (Voronoi vertices or cut ends) in plan metres: checked before an
/// arc is cut into chords, so unwanted arcs cost nothing.
pub fn primary_edges(
    points: &[IPt],
    segments: &[(IPt, IPt)],
    grid: Grid,
    tolerance: f64,
    reach: Option<Reach>,
    keep: &dyn Fn(Source, Source, DVec2) -> bool,
) -> Result<Vec<VEdge>, String> {
    // Boost's predicates are exact and fastest for 32-bit input; grid
    // coordinates stay within ±2²⁸ (see `grid::MAX_COORD`).
    let narrow = |v: i64| {
        i32::try_from(v).map_err(|_| format!("coordinate {v} is outside the 32-bit grid range"))
    };
    let pts: Vec<Point<i32>> = points
        .iter()
        .map(|p| {
            Ok(Point {
                x: narrow(p[0])?,
                y: narrow(p[1])?,
            })
        })
        .collect::<Result<_, String>>()?;
    let segs: Vec<Line<i32>> = segments
        .iter()
        .map(|(a, b)| {
            Ok(Line::new(
                Point {
                    x: narrow(a[0])?,
                    y: narrow(a[1])?,
                },
                Point {
                    x: narrow(b[0])?,
                    y: narrow(b[1])?,
                },
            ))
        })
        .collect::<Result<_, String>>()?;
    let diagram = Builder::<i32>::default()
        .with_vertices(pts.iter())
        .and_then(|b| b.with_segments(segs.iter()))
        .and_then(|b| b.build())
        .map_err(|e| format!("Voronoi diagram failed: {e:?}"))?;
    let np = points.len();
    let source = |cell: boostvoronoi::diagram::CellIndex| -> Result<Source, String> {
        let c = diagram.cell(cell).map_err(|e| format!("{e:?}"))?;
        let (idx, cat) = c.source_index_2();
        let i = idx.usize();
        Ok(match cat {
            SourceCategory::SinglePoint => Source::Point(i),
            SourceCategory::SegmentStart => Source::Start(i - np),
            SourceCategory::SegmentEnd => Source::End(i - np),
            SourceCategory::Segment => Source::Segment(i - np),
        })
    };
    let at = |s: Source| -> DVec2 {
        let p = match s {
            Source::Point(i) => points[i],
            Source::Start(i) => segments[i].0,
            Source::End(i) => segments[i].1,
            Source::Segment(i) => segments[i].0,
        };
        DVec2::new(p[0] as f64, p[1] as f64)
    };
    let mut out = Vec::new();
    for e in diagram.edges() {
        let id = e.id();
        let twin = e.twin().map_err(|e| format!("{e:?}"))?;
        if twin.usize() < id.usize() || e.is_secondary() {
            continue;
        }
        let position = |v: Option<boostvoronoi::diagram::VertexIndex>| {
            v.map(|v| {
                diagram
                    .vertex(v)
                    .map(|v| DVec2::new(v.x(), v.y()))
                    .map_err(|e| format!("{e:?}"))
            })
            .transpose()
        };
        let v0 = position(diagram.edge_get_vertex0(id).map_err(|e| format!("{e:?}"))?)?;
        let v1 = position(diagram.edge_get_vertex1(id).map_err(|e| format!("{e:?}"))?)?;
        if (v0.is_none() || v1.is_none()) && reach.is_none() {
            continue;
        }
        let s0 = source(e.cell().map_err(|e| format!("{e:?}"))?)?;
        let s1 = source(diagram.edge_get_cell(twin).map_err(|e| format!("{e:?}"))?)?;
        let (p0, p1) = match (v0, v1, reach) {
            (Some(p0), Some(p1), _) => (p0, p1),
            (_, _, Some(r)) => {
                let (Source::Point(_) | Source::Start(_) | Source::End(_)) = s1 else {
                    return Err("infinite Voronoi edge beside a segment".into());
                };
                let (Source::Point(_) | Source::Start(_) | Source::End(_)) = s0 else {
                    return Err("infinite Voronoi edge beside a segment".into());
                };
                // The edge's own cell lies on its left: it runs along the
                // bisector of its two points in the direction perp(q - p).
                let (p, q) = (at(s0), at(s1));
                let dir = (q - p).perp().normalize_or_zero();
                if dir == DVec2::ZERO {
                    return Err("infinite Voronoi edge between coincident points".into());
                }
                let mid = (p + q) * 0.5;
                let far = |from: DVec2| from.distance(r.centre) + 2.0 * r.radius + 1.0;
                match (v0, v1) {
                    (Some(a), _) => (a, a + dir * far(a)),
                    (None, Some(b)) => (b - dir * far(b), b),
                    (None, None) => {
                        let a = mid - dir * far(mid);
                        (a, a + dir * far(a))
                    }
                }
            }
            _ => continue,
        };
        if !keep(s0, s1, (p0 + p1) * (0.5 * grid.step)) {
            continue;
        }
        let mut pts = vec![p0];
        if e.is_curved() {
            let (focus, seg) = match (s0, s1) {
                (Source::Segment(i), other) | (other, Source::Segment(i)) => {
                    (at(other), segments[i])
                }
                _ => return Err("curved Voronoi edge without a segment site".into()),
            };
            let (a, b) = (
                DVec2::new(seg.0[0] as f64, seg.0[1] as f64),
                DVec2::new(seg.1[0] as f64, seg.1[1] as f64),
            );
            parabola(focus, a, b, p0, p1, tolerance / grid.step, &mut pts);
        }
        pts.push(p1);
        out.push(VEdge {
            sources: [s0, s1],
            points: pts.into_iter().map(|p| p * grid.step).collect(),
        });
    }
    Ok(out)
}

/// Appends the interior points of the parabolic arc from `p0` to `p1`
/// (focus `focus`, directrix the line through `a b`) so that no chord
/// strays more than `tol` from the arc.
fn parabola(
    focus: DVec2,
    a: DVec2,
    b: DVec2,
    p0: DVec2,
    p1: DVec2,
    tol: f64,
    out: &mut Vec<DVec2>,
) {
    let dir = (b - a).normalize_or_zero();
    let foot = a + dir * (focus - a).dot(dir);
    let h = (focus - foot).length();
    if h <= 0.0 || dir == DVec2::ZERO {
        return;
    }
    let n = (focus - foot) / h;
    let point = |u: f64| foot + dir * u + n * ((u * u + h * h) / (2.0 * h));
    let (u0, u1) = ((p0 - foot).dot(dir), (p1 - foot).dot(dir));
    let mut stack = vec![(u0, u1, 0u32)];
    let mut interior = Vec::new();
    while let Some((ua, ub, depth)) = stack.pop() {
        let um = 0.5 * (ua + ub);
        let (pa, pb, pm) = (point(ua), point(ub), point(um));
        let chord = pb - pa;
        let dev = if chord.length() > 0.0 {
            chord.perp_dot(pm - pa).abs() / chord.length()
        } else {
            0.0
        };
        if dev > tol && depth < 24 && interior.len() < MAX_CHORDS {
            // Right half first so the left half pops first: points come in order.
            stack.push((um, ub, depth + 1));
            stack.push((ua, um, depth + 1));
        } else if ub != u1 {
            interior.push(point(ub));
        }
    }
    out.extend(interior);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_has_four_diagonals() {
        let g = Grid { step: 1.0 };
        let sq = [[0, 0], [10, 0], [10, 10], [0, 10]];
        let segs: Vec<_> = (0..4).map(|i| (sq[i], sq[(i + 1) % 4])).collect();
        let edges = primary_edges(&[], &segs, g, 0.01, None, &|_, _, _| true).unwrap();
        let inside: Vec<_> = edges
            .iter()
            .filter(|e| {
                e.points
                    .iter()
                    .all(|p| p.x > -1e-9 && p.x < 10.0 + 1e-9 && p.y > -1e-9 && p.y < 10.0 + 1e-9)
            })
            .collect();
        assert_eq!(inside.len(), 4, "{inside:?}");
        for e in inside {
            assert!(
                e.points
                    .iter()
                    .any(|p| p.distance(DVec2::new(5.0, 5.0)) < 1e-9)
            );
        }
    }

    #[test]
    fn infinite_bisectors_are_cut_across_the_reach() {
        let g = Grid { step: 1.0 };
        let reach = Reach {
            centre: DVec2::new(5.0, 0.0),
            radius: 20.0,
        };
        // Two points: one whole line, x = 5.
        let e = primary_edges(&[[0, 0], [10, 0]], &[], g, 0.01, Some(reach), &|_, _, _| {
            true
        })
        .unwrap();
        assert_eq!(e.len(), 1);
        let ys: Vec<f64> = e[0].points.iter().map(|p| p.y).collect();
        assert!(e[0].points.iter().all(|p| (p.x - 5.0).abs() < 1e-9));
        assert!(
            ys.iter().any(|&y| y < -20.0) && ys.iter().any(|&y| y > 20.0),
            "{ys:?}"
        );
        // Without a reach infinite edges are dropped.
        assert!(
            primary_edges(&[[0, 0], [10, 0]], &[], g, 0.01, None, &|_, _, _| true)
                .unwrap()
                .is_empty()
        );
        // Three points: three rays from the circumcentre, each on the
        // bisector of its two points and leaving the region.
        let pts = [[0, 0], [10, 0], [0, 10]];
        let e = primary_edges(&pts, &[], g, 0.01, Some(reach), &|_, _, _| true).unwrap();
        assert_eq!(e.len(), 3);
        let c = DVec2::new(5.0, 5.0);
        for edge in e {
            let [Source::Point(i), Source::Point(j)] = edge.sources else {
                panic!("{edge:?}");
            };
            let (p, q) = (
                DVec2::new(pts[i][0] as f64, pts[i][1] as f64),
                DVec2::new(pts[j][0] as f64, pts[j][1] as f64),
            );
            let ends = [edge.points[0], edge.points[edge.points.len() - 1]];
            assert!(ends.iter().any(|e| e.distance(c) < 1e-9), "{ends:?}");
            assert!(ends.iter().any(|e| e.distance(reach.centre) > reach.radius));
            for x in ends {
                assert!((x.distance(p) - x.distance(q)).abs() < 1e-6);
                // No third point is closer: the ray runs away from it.
                let k = 3 - i - j;
                let r = DVec2::new(pts[k][0] as f64, pts[k][1] as f64);
                assert!(x.distance(r) >= x.distance(p) - 1e-6);
            }
        }
    }

    #[test]
    fn parabolic_arcs_stay_within_tolerance() {
        let g = Grid { step: 0.01 };
        // A point above a long segment inside a box: the arcs around the point.
        let segs = vec![
            ([0, 0], [1000, 0]),
            ([1000, 0], [1000, 1000]),
            ([1000, 1000], [0, 1000]),
            ([0, 1000], [0, 0]),
        ];
        let edges = primary_edges(&[[500, 300]], &segs, g, 0.001, None, &|_, _, _| true).unwrap();
        let curved: Vec<_> = edges.iter().filter(|e| e.points.len() > 2).collect();
        assert!(!curved.is_empty());
        for e in curved {
            let (f, seg) = match e.sources {
                [Source::Point(_), Source::Segment(i)] | [Source::Segment(i), Source::Point(_)] => {
                    (DVec2::new(5.0, 3.0), segs[i])
                }
                _ => continue,
            };
            let (a, b) = (
                DVec2::new(seg.0[0] as f64, seg.0[1] as f64) * 0.01,
                DVec2::new(seg.1[0] as f64, seg.1[1] as f64) * 0.01,
            );
            for w in e.points.windows(2) {
                let m = (w[0] + w[1]) * 0.5;
                let d_seg = crate::sites::closest_on_segment(a, b, m).distance(m);
                // Midpoints of chords are inside the arc by at most the tolerance.
                assert!(
                    (m.distance(f) - d_seg).abs() < 0.0021,
                    "{} vs {}",
                    m.distance(f),
                    d_seg
                );
            }
        }
    }
}
