//! Helpers shared by the compare crate's integration tests.
#![allow(dead_code)]

use std::sync::Arc;

use glam::DVec2;
use i_overlay::mesh::float::outline::offset::OutlineOffset;
use i_overlay::mesh::float::style::{LineJoin, OutlineStyle};
use navscope_compare::{Region, build};
use navscope_core::NavMesh;
use navscope_core::geom::{Orientation, PolygonWithHoles, orient, point_segment_distance};
use navscope_core::level::{Level, LevelData};
use navscope_core::params::{ParamValue, ParamValues};

/// The default level and its free space.
pub fn default_level() -> (Arc<Level>, PolygonWithHoles) {
    let level = navscope_levels::default_level();
    let LevelData::FloorPlan(plan) = &level.data else {
        panic!("the default level is a floor plan")
    };
    let area = plan.area.clone();
    (Arc::new(level), area)
}

/// `voxel` on the default plan with stand agents of radius `r` only (the
/// recycled passes would claim the band a bigger stand radius gives up).
pub fn voxel(level: &Arc<Level>, r: f64) -> NavMesh {
    build_with(
        level,
        "voxel",
        &[
            ("passes", ParamValue::Text("stand".into())),
            ("stand.radius", ParamValue::Float(r)),
        ],
    )
}

/// The free space's perimeter after eroding it by `s` (no edge vanishes
/// and no two offsets meet on this plan for the radii used): each edge
/// keeps its length except at convex corners of the free space, which cut
/// `s tan(theta / 2)` off both edges (theta: the turn), and each reflex
/// corner adds an arc `s theta`.
pub fn eroded_perimeter(area: &PolygonWithHoles, s: f64) -> f64 {
    let mut p = 0.0;
    for ring in area.rings() {
        for i in 0..ring.len() {
            let (a, v, b) = (
                ring.at(i as isize - 1),
                ring.points[i],
                ring.at(i as isize + 1),
            );
            p += (b - v).length();
            let theta = (v - a).angle_to(b - v).abs();
            match orient(a, v, b) {
                Orientation::CounterClockwise => p -= 2.0 * s * (theta / 2.0).tan(),
                Orientation::Clockwise => p += s * theta,
                Orientation::Collinear => {}
            }
        }
    }
    p
}

/// Distance from `q` to the plan's walls.
pub fn wall_distance(area: &PolygonWithHoles, q: DVec2) -> f64 {
    area.rings()
        .flat_map(|r| {
            r.edges()
                .map(move |(_, a, b)| point_segment_distance(a, b, q))
        })
        .fold(f64::INFINITY, f64::min)
}

/// The default plan's free space eroded by `s` exactly (round joins of
/// 1/100 radian, by i_overlay), as a footprint.
pub fn eroded(area: &PolygonWithHoles, s: f64) -> Region {
    let shape: Vec<Vec<[f64; 2]>> = area
        .rings()
        .map(|r| r.points.iter().map(|p| [p.x, p.y]).collect())
        .collect();
    let style = OutlineStyle::new(-s).line_join(LineJoin::Round(0.01));
    let shapes: Vec<Vec<Vec<[f64; 2]>>> = shape.outline(&style);
    Region {
        shapes: shapes
            .into_iter()
            .map(|sh| {
                sh.into_iter()
                    .map(|r| r.into_iter().map(|[x, y]| DVec2::new(x, y)).collect())
                    .collect()
            })
            .collect(),
    }
}

/// Total length of a region's rings (m).
pub fn perimeter(region: &Region) -> f64 {
    region
        .rings()
        .map(|r| {
            (0..r.len())
                .map(|i| (r[(i + 1) % r.len()] - r[i]).length())
                .sum::<f64>()
        })
        .sum()
}

/// Loads a sample level by its path under `assets/levels`.
pub fn sample(path: &str) -> Arc<Level> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels");
    Arc::new(navscope_levels::load(&root.join(path)).unwrap())
}

/// Sum of the node polygons' areas (m²): equal to the footprint's area
/// exactly when no two polygons overlap.
pub fn polygons_area(mesh: &NavMesh) -> f64 {
    mesh.nodes
        .iter()
        .filter_map(|n| n.polygon.as_deref())
        .map(navscope_compare::polygon_area)
        .sum()
}

/// `pipeline` on `level` with its defaults and `settings`.
pub fn build_with(level: &Arc<Level>, pipeline: &str, settings: &[(&str, ParamValue)]) -> NavMesh {
    let p = navscope_pipelines::by_id(pipeline).unwrap();
    let mut v = ParamValues::defaults(&p.params);
    for (k, x) in settings {
        v.set(&p.params, k, x.clone()).unwrap();
    }
    build(level, &p, v, Default::default()).unwrap()
}
