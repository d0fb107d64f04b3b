//! Picking in 3D: which drawn element a ray from the cursor meets first.
//!
//! Plain geometry, no ECS, so it is tested without a window. The ray meets
//! filled shapes (polygons, boxes, voxel columns) where it crosses them, and
//! thin ones (points, segments, polylines, polygon outlines) where it passes
//! within a tolerance given in *pixels* and turned into world units at the
//! depth of the closest approach ([`Tolerance`]), so a line is as easy to
//! hit near the camera as far from it. The nearest hit wins; a fill loses to
//! a line or point lying on it (a portal on a cell), and of two fills at the
//! same depth the smaller one wins (a cell inside an area of interest). A
//! height band cuts shapes the way the view does, so nothing hidden by the
//! slice can be picked.

use bevy::prelude::*;
use navscope_core::{Primitive, Shape};

use crate::model::band::HeightBand;
use crate::model::index::Piece;

/// World size of one pixel at a distance along the ray.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// Orthographic view: the same everywhere.
    Ortho {
        /// World units per pixel.
        per_px: f32,
    },
    /// Perspective view: grows with depth.
    Perspective {
        /// World units per pixel at distance 1 along the view axis.
        per_px_at_1: f32,
    },
}

impl Tolerance {
    /// World units covered by `px` pixels at distance `t` along the ray.
    pub fn at(&self, t: f32, px: f32) -> f32 {
        match *self {
            Tolerance::Ortho { per_px } => px * per_px,
            Tolerance::Perspective { per_px_at_1 } => px * per_px_at_1 * t.max(0.0),
        }
    }
}

/// A ray from the camera through the cursor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PickRay {
    /// Where it starts (the near plane).
    pub origin: Vec3,
    /// Unit direction.
    pub dir: Vec3,
    /// Pixel size along it.
    pub tolerance: Tolerance,
    /// How close, in pixels, a point or line must pass to be hit.
    pub px: f32,
}

/// Where a ray met a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Distance along the ray.
    pub t: f32,
    /// Sort key: `t`, pushed back for fills so lines on them win.
    pub rank: f32,
    /// Area of a filled shape (0 for lines and points), to prefer small
    /// fills among equals.
    pub area: f32,
}

impl Hit {
    /// True when this hit wins over `other`: nearer by rank, or as near and
    /// smaller (a cell inside an area of interest).
    pub fn better_than(&self, other: &Hit) -> bool {
        let eps = 1e-4 * self.t.abs().max(other.t.abs()).max(1.0);
        if (self.rank - other.rank).abs() <= eps {
            self.area < other.area
        } else {
            self.rank < other.rank
        }
    }
}

/// The point of the ray at distance `t`.
pub fn ray_at(ray: &PickRay, t: f32) -> Vec3 {
    ray.origin + ray.dir * t
}

/// The closest approach of the ray to segment `a`-`b`: distance along the
/// ray and the gap between them.
pub fn ray_segment(origin: Vec3, dir: Vec3, a: Vec3, b: Vec3) -> (f32, f32) {
    let ab = b - a;
    let w = origin - a;
    let (aa, bb, ab_d) = (dir.dot(dir), ab.dot(ab), dir.dot(ab));
    let (d, e) = (dir.dot(w), ab.dot(w));
    let denom = aa * bb - ab_d * ab_d;
    // s: along the segment (clamped), t: along the ray (>= 0).
    let mut s = if denom.abs() > 1e-12 * aa * bb.max(1e-12) {
        ((aa * e - ab_d * d) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if bb <= 1e-20 {
        s = 0.0;
    }
    let q = a + ab * s;
    let mut t = ((q - origin).dot(dir) / aa).max(0.0);
    // Re-project onto the segment for the clamped ray parameter.
    let p = origin + dir * t;
    if bb > 1e-20 {
        let s2 = ((p - a).dot(ab) / bb).clamp(0.0, 1.0);
        let q2 = a + ab * s2;
        t = ((q2 - origin).dot(dir) / aa).max(0.0);
        return (t, (origin + dir * t).distance(q2));
    }
    (t, p.distance(q))
}

fn line_hit(ray: &PickRay, a: Vec3, b: Vec3, band: Option<&HeightBand>) -> Option<Hit> {
    let (a, b) = match band {
        Some(band) => band.clip_segment(a, b)?,
        None => (a, b),
    };
    let (t, gap) = ray_segment(ray.origin, ray.dir, a, b);
    (gap <= ray.tolerance.at(t, ray.px)).then_some(Hit {
        t,
        rank: t,
        area: 0.0,
    })
}

fn point_hit(ray: &PickRay, p: Vec3, band: Option<&HeightBand>) -> Option<Hit> {
    if band.is_some_and(|b| !b.keeps_points([p])) {
        return None;
    }
    let t = (p - ray.origin).dot(ray.dir).max(0.0);
    let gap = ray_at(ray, t).distance(p);
    (gap <= ray.tolerance.at(t, ray.px)).then_some(Hit {
        t,
        rank: t,
        area: 0.0,
    })
}

fn fill_hit(ray: &PickRay, t: f32, area: f32) -> Hit {
    // A fill ranks a few pixels behind where it is, so a line drawn on it
    // (or just above it) is picked first.
    Hit {
        t,
        rank: t + ray.tolerance.at(t, ray.px),
        area,
    }
}

fn triangle_area(t: &[Vec3; 3]) -> f32 {
    (t[1] - t[0]).cross(t[2] - t[0]).length() / 2.0
}

fn best(a: Option<Hit>, b: Option<Hit>) -> Option<Hit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.better_than(&x) { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

fn ring_hits(ray: &PickRay, ring: &[Vec3], closed: bool, band: Option<&HeightBand>) -> Option<Hit> {
    let n = ring.len();
    let edges = if closed { n } else { n.saturating_sub(1) };
    edge_hits(ray, ring, 0..edges, band)
}

/// The best hit on edges `range` of `ring` (edge `i` joins point `i` to
/// the next, wrapping); a ring of one point is that point.
fn edge_hits(
    ray: &PickRay,
    ring: &[Vec3],
    range: std::ops::Range<usize>,
    band: Option<&HeightBand>,
) -> Option<Hit> {
    let n = ring.len();
    if n == 1 {
        return point_hit(ray, ring[0], band);
    }
    range.fold(None, |out, i| {
        best(out, line_hit(ray, ring[i], ring[(i + 1) % n], band))
    })
}

/// Where the ray first crosses triangle `t`, cut by the height band.
fn triangle_depth(ray: &PickRay, t: &[Vec3; 3], band: Option<&HeightBand>) -> Option<f32> {
    let pieces = match band {
        Some(b) => b.clip_triangle(*t),
        None => vec![*t],
    };
    pieces
        .iter()
        .filter_map(|piece| crate::model::tessellate::ray_triangle(ray.origin, ray.dir, piece))
        .reduce(f32::min)
}

fn box_hit(ray: &PickRay, min: Vec3, max: Vec3, band: Option<&HeightBand>) -> Option<Hit> {
    let (mut lo, mut hi) = (min, max);
    if let Some(b) = band {
        if !b.overlaps(min.y, max.y) {
            return None;
        }
        lo.y = lo.y.max(b.lo);
        hi.y = hi.y.min(b.hi);
    }
    let t = crate::model::bvh::ray_box(ray.origin, ray.dir, lo, hi)?;
    let e = hi - lo;
    Some(fill_hit(ray, t, e.x * e.z + e.x * e.y + e.y * e.z))
}

/// Where the ray meets one primitive, if it does.
pub fn hit_primitive(ray: &PickRay, p: &Primitive, band: Option<&HeightBand>) -> Option<Hit> {
    match &p.shape {
        Shape::Point(q) => point_hit(ray, *q, band),
        Shape::Segment(a, b) => line_hit(ray, *a, *b, band),
        Shape::Polyline { points, closed } => ring_hits(ray, points, *closed, band),
        Shape::Polygon { outer, holes } => {
            let mut out = ring_hits(ray, outer, true, band);
            for h in holes {
                out = best(out, ring_hits(ray, h, true, band));
            }
            let tris = crate::model::tessellate::triangulate(outer, holes);
            let area: f32 = tris.iter().map(triangle_area).sum();
            let fill = tris
                .iter()
                .filter_map(|t| triangle_depth(ray, t, band))
                .reduce(f32::min);
            best(out, fill.map(|t| fill_hit(ray, t, area)))
        }
        Shape::Box { min, max } => box_hit(ray, *min, *max, band),
        Shape::VoxelColumn { x, z, cell, y0, y1 } => box_hit(
            ray,
            Vec3::new(*x, *y0, *z),
            Vec3::new(x + cell, *y1, z + cell),
            band,
        ),
        Shape::Label { .. } => None,
    }
}

/// Where the ray meets one piece of a primitive, if it does: a piece of
/// a big primitive hits as the whole would there (a fill triangle ranks as
/// its whole polygon's fill).
pub fn hit_piece(ray: &PickRay, piece: Piece<'_>, band: Option<&HeightBand>) -> Option<Hit> {
    match piece {
        Piece::Whole(p) => hit_primitive(ray, &p, band),
        Piece::Edges { points, from, to } => {
            edge_hits(ray, points, from as usize..to as usize, band)
        }
        Piece::Triangle {
            corners,
            polygon_area,
        } => triangle_depth(ray, corners, band).map(|t| fill_hit(ray, t, polygon_area)),
    }
}

/// The first element the ray meets among `candidates`: each shown piece
/// with the key of the element it belongs to (already filtered to what is
/// shown). Returns that key and the hit.
pub fn pick<'a, K>(
    ray: &PickRay,
    band: Option<&HeightBand>,
    candidates: impl IntoIterator<Item = (K, Piece<'a>)>,
) -> Option<(K, Hit)> {
    let mut out: Option<(K, Hit)> = None;
    for (key, p) in candidates {
        if let Some(h) = hit_piece(ray, p, band)
            && out.as_ref().is_none_or(|(_, b)| h.better_than(b))
        {
            out = Some((key, h));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn down(x: f32, z: f32) -> PickRay {
        PickRay {
            origin: Vec3::new(x, 100.0, z),
            dir: Vec3::NEG_Y,
            tolerance: Tolerance::Ortho { per_px: 0.01 },
            px: 5.0,
        }
    }

    fn square(x0: f32, z0: f32, s: f32, y: f32) -> Shape {
        Shape::Polygon {
            outer: vec![
                Vec3::new(x0, y, z0),
                Vec3::new(x0, y, z0 + s),
                Vec3::new(x0 + s, y, z0 + s),
                Vec3::new(x0 + s, y, z0),
            ],
            holes: vec![],
        }
    }

    fn flat(items: &[(String, Vec<Primitive>)]) -> impl Iterator<Item = (&String, Piece<'_>)> {
        items.iter().flat_map(|(k, ps)| {
            ps.iter()
                .map(move |p| (k, Piece::Whole(std::borrow::Cow::Borrowed(p))))
        })
    }

    fn el(kind: &str, id: u32, shape: Shape) -> (String, Vec<Primitive>) {
        (
            format!("{kind}#{id}"),
            vec![Primitive::new(kind.to_owned(), id, shape)],
        )
    }

    fn run(
        ray: &PickRay,
        band: Option<&HeightBand>,
        items: &[(String, Vec<Primitive>)],
    ) -> Option<String> {
        pick(ray, band, flat(items)).map(|(k, _)| k.clone())
    }

    #[test]
    fn the_upper_floor_hides_the_lower_one() {
        let items = [
            el("cell", 0, square(0.0, 0.0, 10.0, 0.0)),
            el("cell", 1, square(0.0, 0.0, 10.0, 3.0)),
        ];
        assert_eq!(
            run(&down(5.0, 5.0), None, &items).as_deref(),
            Some("cell#1")
        );
        // A slice below the upper floor picks the lower one through it.
        let band = HeightBand::new(-1.0, 1.0);
        assert_eq!(
            run(&down(5.0, 5.0), Some(&band), &items).as_deref(),
            Some("cell#0")
        );
    }

    #[test]
    fn a_line_on_a_fill_wins_and_the_smaller_fill_wins_among_equals() {
        let items = [
            el("area", 0, square(0.0, 0.0, 10.0, 0.0)),
            el("cell", 1, square(2.0, 2.0, 2.0, 0.0)),
            el(
                "portal",
                2,
                Shape::Segment(Vec3::new(6.0, 0.0, 0.0), Vec3::new(6.0, 0.0, 10.0)),
            ),
        ];
        assert_eq!(
            run(&down(6.03, 5.0), None, &items).as_deref(),
            Some("portal#2")
        );
        assert_eq!(
            run(&down(3.0, 3.0), None, &items).as_deref(),
            Some("cell#1")
        );
        assert_eq!(
            run(&down(8.0, 8.0), None, &items).as_deref(),
            Some("area#0")
        );
        // Beyond five pixels (0.05 m) from the portal: the area.
        assert_eq!(
            run(&down(6.2, 5.0), None, &items).as_deref(),
            Some("area#0")
        );
        assert_eq!(run(&down(20.0, 5.0), None, &items), None);
    }

    #[test]
    fn perspective_tolerance_grows_with_depth() {
        let t = Tolerance::Perspective { per_px_at_1: 0.002 };
        assert!((t.at(10.0, 5.0) - 0.1).abs() < 1e-6);
        assert!((t.at(100.0, 5.0) - 1.0).abs() < 1e-5);
        let seg = el(
            "link",
            0,
            Shape::Segment(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)),
        );
        let ray = PickRay {
            origin: Vec3::new(0.0, 50.0, 0.4),
            dir: Vec3::NEG_Y,
            tolerance: t,
            px: 5.0,
        };
        // At depth 50 five pixels are 0.5 m: a 0.4 m miss is a hit.
        assert_eq!(
            run(&ray, None, std::slice::from_ref(&seg)).as_deref(),
            Some("link#0")
        );
        let near = PickRay {
            origin: Vec3::new(0.0, 5.0, 0.4),
            ..ray
        };
        assert_eq!(run(&near, None, &[seg]), None);
    }

    #[test]
    fn boxes_and_voxel_columns_are_hit_where_the_ray_enters() {
        let items = [
            el(
                "box",
                0,
                Shape::Box {
                    min: Vec3::new(0.0, 0.0, 0.0),
                    max: Vec3::new(1.0, 1.0, 1.0),
                },
            ),
            el(
                "voxel",
                1,
                Shape::VoxelColumn {
                    x: 0.0,
                    z: 0.0,
                    cell: 1.0,
                    y0: 2.0,
                    y1: 2.5,
                },
            ),
        ];
        assert_eq!(
            run(&down(0.5, 0.5), None, &items).as_deref(),
            Some("voxel#1")
        );
        let band = HeightBand::new(0.0, 1.5);
        assert_eq!(
            run(&down(0.5, 0.5), Some(&band), &items).as_deref(),
            Some("box#0")
        );
        let side = PickRay {
            origin: Vec3::new(-10.0, 0.5, 0.5),
            dir: Vec3::X,
            ..down(0.0, 0.0)
        };
        let (_, hit) = pick(&side, None, flat(&items)).unwrap();
        assert!((hit.t - 10.0).abs() < 1e-4);
    }

    #[test]
    fn degenerate_shapes_do_not_panic() {
        let items = [
            el(
                "p",
                0,
                Shape::Polygon {
                    outer: vec![],
                    holes: vec![],
                },
            ),
            el(
                "p",
                1,
                Shape::Polygon {
                    outer: vec![Vec3::ZERO; 3],
                    holes: vec![],
                },
            ),
            el("s", 2, Shape::Segment(Vec3::ONE, Vec3::ONE)),
            el(
                "l",
                3,
                Shape::Polyline {
                    points: vec![],
                    closed: true,
                },
            ),
            el(
                "b",
                4,
                Shape::Box {
                    min: Vec3::ONE,
                    max: Vec3::ZERO,
                },
            ),
        ];
        let hit = run(&down(1.0, 1.0), None, &items);
        assert_eq!(
            hit.as_deref(),
            Some("s#2"),
            "the zero-length segment is a point under the ray"
        );
        assert_eq!(run(&down(50.0, 50.0), None, &items), None);
    }

    /// A wavy ring of `n` points around `(cx, cz)`, radius `r ± wobble`.
    fn wavy_ring(n: usize, cx: f32, cz: f32, r: f32, wobble: f32, y: f32) -> Vec<Vec3> {
        (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                let rr = r + wobble * (7.0 * a).sin();
                Vec3::new(cx + rr * a.cos(), y, cz + rr * a.sin())
            })
            .collect()
    }

    /// The best hit among the pieces an index gives along the ray.
    fn via_index(index: &crate::model::index::ElementIndex, ray: &PickRay) -> Option<Hit> {
        let pad = |t: f32| ray.tolerance.at(t, ray.px);
        let pieces = index.along_ray(ray.origin, ray.dir, pad);
        pick(ray, None, pieces.into_iter().map(|(_, piece)| ((), piece))).map(|(_, h)| h)
    }

    #[test]
    fn a_big_polygon_split_into_pieces_is_hit_like_the_whole() {
        use crate::model::index::{ElementIndex, SPLIT_ABOVE};
        let outer = wavy_ring(400, 0.0, 0.0, 20.0, 1.5, 0.0);
        let hole = wavy_ring(60, 3.0, -2.0, 4.0, 0.5, 0.0);
        let line = wavy_ring(200, 0.0, 0.0, 10.0, 0.3, 0.5);
        assert!(hole.len() + outer.len() > SPLIT_ABOVE && line.len() > SPLIT_ABOVE);
        let prims = vec![
            Primitive::new(
                "floor",
                0,
                Shape::Polygon {
                    outer,
                    holes: vec![hole],
                },
            ),
            Primitive::new(
                "wall",
                1,
                Shape::Polyline {
                    points: line,
                    closed: false,
                },
            ),
        ];
        let index = ElementIndex::new(std::sync::Arc::new(prims.clone().into()));
        let mut checked = [0; 3];
        for i in 0..60 {
            for j in 0..60 {
                let ray = down(-24.0 + 0.8 * i as f32, -24.0 + 0.8 * j as f32);
                let whole = prims
                    .iter()
                    .map(|p| hit_primitive(&ray, p, None))
                    .fold(None, best);
                let split = via_index(&index, &ray);
                match (whole, split) {
                    (None, None) => checked[0] += 1,
                    (Some(w), Some(s)) => {
                        assert!(
                            (w.t - s.t).abs() < 1e-4,
                            "{:?}: t {} vs {}",
                            ray.origin,
                            w.t,
                            s.t
                        );
                        assert!((w.rank - s.rank).abs() < 1e-4);
                        assert!((w.area - s.area).abs() <= 1e-3 * w.area.max(1.0));
                        checked[if w.area > 0.0 { 1 } else { 2 }] += 1;
                    }
                    (w, s) => panic!("{:?}: whole {w:?}, pieces {s:?}", ray.origin),
                }
            }
        }
        assert!(
            checked.iter().all(|&c| c > 10),
            "misses, fills and lines all sampled: {checked:?}"
        );
    }

    #[test]
    fn a_ray_near_a_big_outline_tests_only_the_pieces_near_it() {
        use crate::model::index::{EDGES_PER_PIECE, ElementIndex};
        let ring = wavy_ring(2000, 0.0, 0.0, 100.0, 0.0, 0.0);
        let prims = vec![Primitive::new(
            "wall",
            0,
            Shape::Polyline {
                points: ring,
                closed: true,
            },
        )];
        let index = ElementIndex::new(std::sync::Arc::new(prims.into()));
        let ray = down(100.0, 0.0);
        let pieces = index.along_ray(ray.origin, ray.dir, |t| ray.tolerance.at(t, ray.px));
        let edges: u32 = pieces
            .iter()
            .map(|(_, p)| match p {
                Piece::Edges { from, to, .. } => to - from,
                _ => panic!("an outline splits into edges only: {p:?}"),
            })
            .sum();
        assert!(
            edges as usize <= 2 * EDGES_PER_PIECE,
            "{edges} of 2000 edges tested"
        );
        assert!(via_index(&index, &ray).is_some());
    }

    proptest! {
        #[test]
        fn the_closest_approach_is_no_farther_than_any_sampled_pair(
            ox in -10f32..10., oy in 1f32..10., oz in -10f32..10.,
            dx in -1f32..1., dz in -1f32..1.,
            ax in -10f32..10., az in -10f32..10., bx in -10f32..10., bz in -10f32..10.,
        ) {
            let dir = Vec3::new(dx, -1.0, dz).normalize();
            let o = Vec3::new(ox, oy, oz);
            let (a, b) = (Vec3::new(ax, 0.0, az), Vec3::new(bx, 0.5, bz));
            let (t, gap) = ray_segment(o, dir, a, b);
            prop_assert!(t >= 0.0);
            for i in 0..=20 {
                let s = i as f32 / 20.0;
                let q = a.lerp(b, s);
                let tq = (q - o).dot(dir).max(0.0);
                let d = (o + dir * tq).distance(q);
                prop_assert!(gap <= d + 1e-3, "gap {gap} > sampled {d}");
            }
        }

        #[test]
        fn a_vertical_ray_hits_a_floor_square_exactly_inside_it(
            x in -5f32..15., z in -5f32..15.,
        ) {
            let items = [el("cell", 0, square(0.0, 0.0, 10.0, 0.0))];
            let inside = (0.0..=10.0).contains(&x) && (0.0..=10.0).contains(&z);
            let near_edge = x.abs() < 0.06 || (x - 10.0).abs() < 0.06 || z.abs() < 0.06 || (z - 10.0).abs() < 0.06;
            let got = run(&down(x, z), None, &items).is_some();
            if !near_edge {
                prop_assert_eq!(got, inside);
            }
        }
    }
}
