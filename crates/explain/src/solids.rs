//! The level's solid matter as something to measure with: rays cast
//! against a mesh level's triangles, a brush level's blocking brushes
//! (solid, clip and doors) or a raster's obstacle pixels, and what each
//! hit is ("triangle 12", "brush 40 of func_door 't1', texture +0_door").
//!
//! Floor plans and layered levels have no solid matter to cast against
//! here; [`Solids::new`] gives `None` for them.

use glam::{DVec3, Vec3};
use navscope_core::geom::polyhedron::Polyhedron;
use navscope_core::geom::{Aabb, TriMesh};
use navscope_core::level::{BrushLevel, Contents, Level, LevelData, RasterPlan};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

/// What a ray met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Triangle `i` of a mesh level.
    Triangle(usize),
    /// Brush `i` of a brush level.
    Brush(usize),
    /// An obstacle pixel (column, row) of a raster, or its edge.
    Pixel(i64, i64),
    /// A raster's ground (the plane y = 0 under a free pixel).
    Ground,
}

/// A level's solid matter (see the module docs).
pub enum Solids<'a> {
    /// A mesh level's triangles, with their boxes, and its water volumes
    /// (boxes filled with water up to their top).
    Mesh(&'a TriMesh, Boxes, &'a [Aabb]),
    /// A brush level's blocking brushes, with their boxes.
    Brushes(&'a BrushLevel, Boxes),
    /// A raster's obstacle pixels standing on the ground plane y = 0.
    Raster(&'a RasterPlan),
}

/// Rays start this far inside a surface count as leaving it, not hitting
/// it (metres).
const SKIN: f64 = 1e-6;

type Entry = GeomWithData<Rectangle<[f64; 3]>, usize>;

/// The boxes of a level's items (triangles or blocking brushes) in an
/// R-tree, so that a ray tests only the items whose box meets the box of
/// its segment; an item without a box (a brush whose planes enclose
/// nothing) is tested by every ray.
pub struct Boxes {
    tree: RTree<Entry>,
    always: Vec<usize>,
}

impl Boxes {
    fn new(items: impl Iterator<Item = (usize, Option<(DVec3, DVec3)>)>) -> Self {
        let (mut entries, mut always) = (Vec::new(), Vec::new());
        for (i, b) in items {
            match b {
                Some((lo, hi)) => entries.push(Entry::new(
                    Rectangle::from_corners(lo.to_array(), hi.to_array()),
                    i,
                )),
                None => always.push(i),
            }
        }
        Self {
            tree: RTree::bulk_load(entries),
            always,
        }
    }

    /// The items a ray from `o` along `dir` may meet within `max`.
    fn along(&self, o: DVec3, dir: DVec3, max: f64) -> impl Iterator<Item = usize> + '_ {
        let end = o + dir * max.min(1e9);
        let pad = DVec3::splat(1e-6);
        let (lo, hi) = (o.min(end) - pad, o.max(end) + pad);
        self.tree
            .locate_in_envelope_intersecting(&AABB::from_corners(lo.to_array(), hi.to_array()))
            .map(|e| e.data)
            .chain(self.always.iter().copied())
    }
}

fn bounds(points: impl Iterator<Item = DVec3>) -> Option<(DVec3, DVec3)> {
    points.fold(None, |b, p| match b {
        None => Some((p, p)),
        Some((lo, hi)) => Some((lo.min(p), hi.max(p))),
    })
}

/// Whether a ray meets brush `b`: blocking brushes and doors.
fn meets(b: &navscope_core::level::Brush) -> bool {
    b.contents.blocks() || b.contents == Contents::Door
}

impl<'a> Solids<'a> {
    /// The solid matter of `level`; `None` for floor plans and layers.
    pub fn new(level: &'a Level) -> Option<Self> {
        match &level.data {
            LevelData::Mesh(m) => Some(Self::mesh_with_water(&m.mesh, &m.water)),
            LevelData::Brushes(b) => Some(Self::brushes(b)),
            LevelData::Raster(r) => Some(Self::Raster(r)),
            _ => None,
        }
    }

    /// A mesh's triangles, boxed, with no water.
    pub fn mesh(m: &'a TriMesh) -> Self {
        Self::mesh_with_water(m, &[])
    }

    /// A mesh's triangles, boxed, and its water volumes.
    pub fn mesh_with_water(m: &'a TriMesh, water: &'a [Aabb]) -> Self {
        let boxes = Boxes::new(
            (0..m.triangles.len()).map(|i| (i, bounds(m.triangle(i).iter().map(|v| v.as_dvec3())))),
        );
        Self::Mesh(m, boxes, water)
    }

    /// A brush level's blocking brushes and doors, boxed.
    pub fn brushes(b: &'a BrushLevel) -> Self {
        let boxes = Boxes::new(
            b.brushes
                .iter()
                .enumerate()
                .filter(|(_, br)| meets(br))
                .map(|(i, br)| {
                    let solid = Polyhedron::from_planes(&br.planes).ok();
                    (i, solid.and_then(|s| bounds(s.vertices())))
                }),
        );
        Self::Brushes(b, boxes)
    }

    /// The first thing the ray from `o` along unit `dir` meets within
    /// `max` metres, with its distance; a start inside a brush meets it at
    /// 0. A raster is cast in plan (the ray's height is ignored) and a
    /// vertical ray meets the pixel it starts in, or, going down from above
    /// a free pixel, the ground.
    pub fn ray(&self, o: DVec3, dir: DVec3, max: f64) -> Option<(f64, Hit)> {
        match self {
            Self::Mesh(m, boxes, _) => boxes
                .along(o, dir, max)
                .filter_map(|i| {
                    let t = ray_triangle(o, dir, m.triangle(i))?;
                    (t <= max).then_some((t, Hit::Triangle(i)))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0)),
            Self::Brushes(b, boxes) => boxes
                .along(o, dir, max)
                .filter_map(|i| {
                    let br = &b.brushes[i];
                    let t = ray_convex(o, dir, br.planes.iter().map(|p| (p.normal, p.d)))?;
                    (t <= max).then_some((t, Hit::Brush(i)))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0)),
            Self::Raster(r) => ray_raster(r, o, dir, max),
        }
    }

    /// The unit normal of the surface `hit` met, facing against `dir`
    /// (up for a floor met by a ray cast down); `None` for a raster.
    pub fn normal(&self, hit: Hit, dir: DVec3) -> Option<DVec3> {
        let n = match (self, hit) {
            (Self::Mesh(m, _, _), Hit::Triangle(i)) => m.normal(i).as_dvec3(),
            (Self::Brushes(b, _), Hit::Brush(i)) => b.brushes[i]
                .planes
                .iter()
                .map(|p| p.normal)
                .min_by(|a, c| a.dot(dir).total_cmp(&c.dot(dir)))?,
            _ => return None,
        };
        let n = n.normalize_or_zero();
        Some(if n.dot(dir) > 0.0 { -n } else { n })
    }

    /// What `hit` is, in words: the triangle, or the brush with its
    /// contents, entity (class and `targetname`) and texture facing the
    /// ray `dir`, or the pixel.
    pub fn describe(&self, hit: Hit, dir: DVec3) -> String {
        match (self, hit) {
            (Self::Brushes(b, _), Hit::Brush(i)) => {
                let br = &b.brushes[i];
                let owner = match br.entity.and_then(|e| b.entities.get(e)) {
                    Some(e) => match e.key("targetname") {
                        Some(t) => format!("{} '{t}'", e.classname),
                        None => e.classname.clone(),
                    },
                    None => "the world".into(),
                };
                let face = br
                    .planes
                    .iter()
                    .enumerate()
                    .min_by(|(_, p), (_, q)| p.normal.dot(dir).total_cmp(&q.normal.dot(dir)))
                    .and_then(|(k, _)| br.materials.get(k))
                    .filter(|m| !m.is_empty());
                let texture = face.map(|m| format!(", texture {m}")).unwrap_or_default();
                format!("brush {i} ({} of {owner}{texture})", br.contents.name())
            }
            (_, Hit::Triangle(i)) => format!("triangle {i}"),
            (_, Hit::Pixel(x, y)) => format!("obstacle pixel ({x}, {y})"),
            (_, Hit::Brush(i)) => format!("brush {i}"),
            (_, Hit::Ground) => "the ground".into(),
        }
    }

    /// The top (y) of the water `p` is in: a mesh level's water box or a
    /// brush level's water brush containing it; `None` when `p` is dry.
    pub fn water_top(&self, p: DVec3) -> Option<f64> {
        match self {
            Self::Mesh(_, _, water) => water
                .iter()
                .filter(|w| w.contains(p))
                .map(|w| w.max.y)
                .reduce(f64::max),
            Self::Brushes(b, _) => b
                .brushes
                .iter()
                .filter(|br| {
                    br.contents == Contents::Water
                        && br.planes.iter().all(|pl| pl.normal.dot(p) - pl.d <= SKIN)
                })
                .filter_map(|br| Polyhedron::from_planes(&br.planes).ok())
                .filter_map(|s| s.vertices().map(|v| v.y).reduce(f64::max))
                .reduce(f64::max),
            Self::Raster(_) => None,
        }
    }

    /// The brush `hit` names and whether it is a door, for door reasons.
    pub fn is_door(&self, hit: Hit) -> bool {
        matches!((self, hit), (Self::Brushes(b, _), Hit::Brush(i)) if b.brushes[i].contents == Contents::Door)
    }

    /// What opens the door brush `hit` belongs to, in the words of the
    /// level's entity semantics ([`navscope_levels::brushes::spots::opener`],
    /// e.g. "opened by the silver key"); `None` when `hit` is no door.
    pub fn opener(&self, hit: Hit) -> Option<String> {
        let (Self::Brushes(b, _), Hit::Brush(i)) = (self, hit) else {
            return None;
        };
        let e = b.entities.get(b.brushes.get(i)?.entity?)?;
        navscope_levels::brushes::spots::opener(b, e)
    }
}

/// Distance along the ray to triangle `t` (either side), `None` when missed
/// or within the skin of the origin.
fn ray_triangle(o: DVec3, dir: DVec3, t: [Vec3; 3]) -> Option<f64> {
    navscope_core::geom::ray_triangle(o, dir, t.map(|v| v.as_dvec3())).filter(|&d| d > SKIN)
}

/// Distance along the ray to the convex solid behind `planes` (outward
/// normal, offset), 0 from inside, `None` when missed (Cyrus–Beck).
fn ray_convex(o: DVec3, dir: DVec3, planes: impl Iterator<Item = (DVec3, f64)>) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, f64::INFINITY);
    let mut any = false;
    for (n, d) in planes {
        any = true;
        let (dist, along) = (n.dot(o) - d, n.dot(dir));
        if along.abs() < 1e-12 {
            if dist > SKIN {
                return None;
            }
            continue;
        }
        let t = -dist / along;
        if along < 0.0 {
            enter = enter.max(t);
        } else {
            exit = exit.min(t);
        }
        if enter > exit {
            return None;
        }
    }
    (any && exit > SKIN).then_some(enter)
}

/// The first obstacle pixel the plan ray meets within `max`, stepping a
/// quarter pixel at a time.
fn ray_raster(r: &RasterPlan, o: DVec3, dir: DVec3, max: f64) -> Option<(f64, Hit)> {
    let plan = DVec3::new(dir.x, 0.0, dir.z);
    let len = plan.length();
    if r.metres_per_pixel <= 0.0 {
        return None;
    }
    if len < 1e-12 {
        let (x, y) = (
            (o.x / r.metres_per_pixel).floor() as i64,
            (o.z / r.metres_per_pixel).floor() as i64,
        );
        return if r.is_obstacle(x, y) {
            Some((0.0, Hit::Pixel(x, y)))
        } else {
            (dir.y < 0.0 && o.y >= 0.0 && o.y <= max).then_some((o.y, Hit::Ground))
        };
    }
    let step = r.metres_per_pixel / 4.0;
    let steps = (max * len / step).ceil().min(1e7) as usize;
    (0..=steps).find_map(|k| {
        let t = k as f64 * step;
        let p = o + plan / len * t;
        let (x, y) = (
            (p.x / r.metres_per_pixel).floor() as i64,
            (p.z / r.metres_per_pixel).floor() as i64,
        );
        r.is_obstacle(x, y).then_some((t / len, Hit::Pixel(x, y)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::{Aabb, Plane};
    use navscope_core::level::{Brush, Entity};

    fn cube_brush(lo: DVec3, hi: DVec3, contents: Contents, entity: Option<usize>) -> Brush {
        let planes: Vec<Plane> = Aabb::from_corners(lo, hi).outward_planes().into();
        Brush {
            materials: vec!["wall".into(); planes.len()],
            planes,
            entity,
            contents,
        }
    }

    #[test]
    fn a_ray_meets_the_nearest_brush_and_names_its_door() {
        let level = BrushLevel {
            brushes: vec![
                cube_brush(
                    DVec3::new(3.0, 0.0, -1.0),
                    DVec3::new(4.0, 2.0, 1.0),
                    Contents::Solid,
                    None,
                ),
                cube_brush(
                    DVec3::new(1.0, 0.0, -1.0),
                    DVec3::new(1.2, 2.0, 1.0),
                    Contents::Door,
                    Some(0),
                ),
                cube_brush(
                    DVec3::new(0.5, 0.0, -1.0),
                    DVec3::new(0.6, 2.0, 1.0),
                    Contents::Water,
                    None,
                ),
            ],
            entities: vec![Entity::with_properties(
                "func_door",
                &[("targetname", "t1")],
            )],
            ..Default::default()
        };
        let s = Solids::brushes(&level);
        let (t, hit) = s.ray(DVec3::new(0.0, 1.0, 0.0), DVec3::X, 10.0).unwrap();
        assert!((t - 1.0).abs() < 1e-9, "{t}");
        assert_eq!(hit, Hit::Brush(1));
        assert!(s.is_door(hit));
        assert_eq!(
            s.opener(hit).as_deref(),
            Some("opened when fired by (nothing fires it)")
        );
        assert_eq!(s.opener(Hit::Brush(0)), None);
        let words = s.describe(hit, DVec3::X);
        assert!(
            words.contains("func_door 't1'") && words.contains("wall"),
            "{words}"
        );
        assert_eq!(s.ray(DVec3::new(0.0, 1.0, 0.0), DVec3::X, 0.9), None);
        assert_eq!(s.ray(DVec3::new(0.0, 1.0, 0.0), -DVec3::X, 100.0), None);
        // From inside a brush: met at once.
        assert_eq!(
            s.ray(DVec3::new(3.5, 1.0, 0.0), DVec3::Y, 5.0).map(|h| h.0),
            Some(0.0)
        );
        assert_eq!(s.normal(hit, DVec3::X), Some(-DVec3::X));
    }

    #[test]
    fn a_ray_meets_a_triangle_from_either_side_and_misses_past_its_edge() {
        let mesh = TriMesh {
            vertices: vec![
                Vec3::new(-1.0, 0.0, -1.0),
                Vec3::new(1.0, 0.0, -1.0),
                Vec3::new(0.0, 0.0, 1.0),
            ],
            triangles: vec![[0, 1, 2]],
        };
        let s = Solids::mesh(&mesh);
        assert_eq!(
            s.ray(DVec3::new(0.0, 2.0, 0.0), -DVec3::Y, 5.0)
                .map(|h| h.0),
            Some(2.0)
        );
        assert_eq!(
            s.ray(DVec3::new(0.0, -3.0, 0.0), DVec3::Y, 5.0)
                .map(|h| h.0),
            Some(3.0)
        );
        assert_eq!(s.ray(DVec3::new(2.0, 2.0, 0.0), -DVec3::Y, 5.0), None);
        assert_eq!(s.ray(DVec3::new(0.0, 2.0, 0.0), DVec3::X, 5.0), None);
        let up = s.normal(Hit::Triangle(0), -DVec3::Y).unwrap();
        assert!((up - DVec3::Y).length() < 1e-6, "{up}");
    }

    #[test]
    fn a_raster_ray_stops_at_the_first_obstacle_pixel_and_the_border() {
        let mut r = RasterPlan {
            width: 10,
            height: 1,
            metres_per_pixel: 0.5,
            obstacle: vec![0; 10],
            rgba: Vec::new(),
        };
        r.obstacle[6] = 1;
        let s = Solids::Raster(&r);
        let (t, hit) = s.ray(DVec3::new(0.25, 0.0, 0.25), DVec3::X, 10.0).unwrap();
        assert_eq!(hit, Hit::Pixel(6, 0));
        assert!((t - 2.75).abs() <= 0.125 + 1e-9, "{t}");
        let (t, hit) = s.ray(DVec3::new(0.25, 0.0, 0.25), -DVec3::X, 10.0).unwrap();
        assert_eq!(hit, Hit::Pixel(-1, 0));
        assert!((t - 0.25).abs() <= 0.125 + 1e-9, "{t}");
        let down = DVec3::new(0.25, 1.0, 0.25);
        assert_eq!(s.ray(down, -DVec3::Y, 5.0), Some((1.0, Hit::Ground)));
        assert_eq!(s.ray(down, DVec3::Y, 5.0), None);
        let on_obstacle = DVec3::new(3.25, 1.0, 0.25);
        assert_eq!(
            s.ray(on_obstacle, -DVec3::Y, 5.0),
            Some((0.0, Hit::Pixel(6, 0)))
        );
    }

    #[test]
    fn a_brush_without_planes_and_a_degenerate_triangle_are_never_met() {
        assert_eq!(ray_convex(DVec3::ZERO, DVec3::X, std::iter::empty()), None);
        let flat = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
        assert_eq!(
            ray_triangle(DVec3::new(0.5, 1.0, 0.0), -DVec3::Y, flat),
            None
        );
    }

    proptest::proptest! {
        /// A ray meets a box where it enters it: that point is on the box,
        /// a little before it is outside; a missed box has no sampled
        /// point of the ray inside it.
        #[test]
        fn a_ray_meets_a_box_where_it_enters(
            lo in proptest::array::uniform3(-5.0f64..5.0),
            size in proptest::array::uniform3(0.1f64..4.0),
            o in proptest::array::uniform3(-10.0f64..10.0),
            d in proptest::array::uniform3(-1.0f64..1.0),
        ) {
            let (lo, o) = (DVec3::from_array(lo), DVec3::from_array(o));
            let hi = lo + DVec3::from_array(size);
            let dir = DVec3::from_array(d);
            proptest::prop_assume!(dir.length() > 0.1);
            let dir = dir.normalize();
            let b = Aabb::from_corners(lo, hi);
            let planes = b.outward_planes();
            let inside = |p: DVec3, tol: f64| {
                p.cmpge(lo - DVec3::splat(tol)).all() && p.cmple(hi + DVec3::splat(tol)).all()
            };
            match ray_convex(o, dir, planes.iter().map(|p| (p.normal, p.d))) {
                Some(t) => {
                    proptest::prop_assert!(inside(o + dir * t, 1e-6));
                    if t > 1e-3 {
                        proptest::prop_assert!(!inside(o + dir * (t - 1e-3), 0.0));
                    }
                }
                None => {
                    for k in 0..400 {
                        proptest::prop_assert!(!inside(o + dir * (k as f64 * 0.1), -1e-6));
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// The boxed search meets what testing every triangle meets.
        #[test]
        fn boxed_rays_meet_what_every_triangle_meets(
            tris in proptest::collection::vec(
                proptest::array::uniform3((-5.0..5.0f32, -5.0..5.0f32, -5.0..5.0f32)), 1..30),
            o in (-6.0..6.0f64, -6.0..6.0f64, -6.0..6.0f64),
            d in (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
            max in 0.1..20.0f64,
        ) {
            let dir = DVec3::new(d.0, d.1, d.2).normalize_or_zero();
            proptest::prop_assume!(dir != DVec3::ZERO);
            let o = DVec3::new(o.0, o.1, o.2);
            let mut mesh = TriMesh::default();
            for t in &tris {
                let base = mesh.vertices.len() as u32;
                mesh.vertices.extend(t.iter().map(|v| Vec3::new(v.0, v.1, v.2)));
                mesh.triangles.push([base, base + 1, base + 2]);
            }
            let every = (0..mesh.triangles.len())
                .filter_map(|i| ray_triangle(o, dir, mesh.triangle(i)).filter(|t| *t <= max))
                .fold(None, |b: Option<f64>, t| Some(b.map_or(t, |b| b.min(t))));
            let boxed = Solids::mesh(&mesh).ray(o, dir, max).map(|h| h.0);
            proptest::prop_assert_eq!(boxed, every);
        }
    }
}
