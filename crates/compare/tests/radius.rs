//! Footprint differences on the default floor plan: a build against
//! itself, and the voxel agent radius r against r + dr.

use std::sync::Arc;

use glam::DVec2;
use std::collections::BTreeMap;

use i_overlay::mesh::float::outline::offset::OutlineOffset;
use i_overlay::mesh::float::style::{LineJoin, OutlineStyle};
use navscope_compare::{Banding, CompareOptions, Region, build, compare, difference, difference_of};
use navscope_core::NavMesh;
use navscope_core::geom::{Orientation, PolygonWithHoles, orient, point_segment_distance};
use navscope_core::level::{Level, LevelData};
use navscope_core::params::{ParamValue, ParamValues};

fn default_level() -> (Arc<Level>, PolygonWithHoles) {
    let level = navscope_levels::default_level();
    let LevelData::FloorPlan(plan) = &level.data else {
        panic!("the default level is a floor plan")
    };
    let area = plan.area.clone();
    (Arc::new(level), area)
}

/// `voxel` on the default plan with stand agents of radius `r` only (the
/// recycled passes would claim the band a bigger stand radius gives up).
fn voxel(level: &Arc<Level>, r: f64) -> NavMesh {
    let p = navscope_pipelines::by_id("voxel").unwrap();
    let mut v = ParamValues::defaults(&p.params);
    v.set(&p.params, "passes", ParamValue::Text("stand".into()))
        .unwrap();
    v.set(&p.params, "stand.radius", ParamValue::Float(r)).unwrap();
    build(level, &p, v).unwrap()
}

/// The free space's perimeter after eroding it by `s` (no edge vanishes
/// and no two offsets meet on this plan for the radii used): each edge
/// keeps its length except at convex corners of the free space, which cut
/// `s tan(theta / 2)` off both edges (theta: the turn), and each reflex
/// corner adds an arc `s theta`.
fn eroded_perimeter(area: &PolygonWithHoles, s: f64) -> f64 {
    let mut p = 0.0;
    for ring in area.rings() {
        for i in 0..ring.len() {
            let (a, v, b) = (ring.at(i as isize - 1), ring.points[i], ring.at(i as isize + 1));
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
fn wall_distance(area: &PolygonWithHoles, q: DVec2) -> f64 {
    area.rings()
        .flat_map(|r| r.edges().map(move |(_, a, b)| point_segment_distance(a, b, q)))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_build_against_itself_differs_nowhere() {
    let (level, _) = default_level();
    let convex = navscope_pipelines::by_id("convex").unwrap();
    let mesh = build(&level, &convex, ParamValues::defaults(&convex.params)).unwrap();
    let c = compare(&mesh, &mesh, &CompareOptions::default());
    assert_eq!(c.difference.a_only_area(), 0.0);
    assert_eq!(c.difference.b_only_area(), 0.0);
    let free = match &level.data {
        LevelData::FloorPlan(p) => p.area.area(),
        _ => unreachable!(),
    };
    assert!((c.difference.common_area() - free).abs() < 1e-6, "the cells cover the plan");
    assert!(c.rows.iter().all(|r| r.delta() == Some(0.0) || r.name.starts_with("time")));
}

#[test]
fn a_bigger_radius_loses_a_band_along_every_wall_and_nothing_elsewhere() {
    let (level, area) = default_level();
    let (r, dr) = (0.3, 0.3);
    let (a, b) = (voxel(&level, r), voxel(&level, r + dr));
    let d = difference(&a, &b, Banding::default());
    let lost = d.a_only_area();
    let gained = d.b_only_area();
    // The area between the offsets at r and r + dr: the integral of the
    // eroded perimeter, which is linear in the offset (trapezoid rule exact).
    let expected = dr * eroded_perimeter(&area, r + dr / 2.0);
    let plain = dr * eroded_perimeter(&area, 0.0);
    eprintln!("lost {lost:.3} m2, gained {gained:.3} m2, expected {expected:.3} m2, perimeter x dr {plain:.3} m2");
    // voxel measures clearance with a 12/17 chamfer distance that is up to
    // 1/13 short of the Euclidean one on axis-aligned walls (see the voxel
    // crate's docs), so it erodes up to 13/12 of the radius, and rounds the
    // band to whole voxels: the band is dr to 13/12 dr plus one voxel wide.
    let cs = 0.1;
    let most = eroded_perimeter(&area, r + dr / 2.0) * (dr * 13.0 / 12.0 + cs);
    assert!(
        lost > 0.98 * expected && lost < 1.02 * most,
        "lost {lost} m2, expected {expected} to {most} m2"
    );
    assert!(gained < 0.005 * lost, "B gains {gained} m2");
    // Along every wall: the middle of the band beside each edge is lost.
    let mut checked = 0;
    for ring in area.rings() {
        for (_, p, q) in ring.edges() {
            let dir = (q - p).normalize();
            let m = (p + q) / 2.0 + dir.perp() * (r + dr / 2.0);
            if (wall_distance(&area, m) - (r + dr / 2.0)).abs() > 1e-9 {
                continue; // another wall is closer: not this wall's band
            }
            checked += 1;
            let band = d.bands.iter().find(|b| b.key == 0).unwrap();
            assert!(band.a_only.contains(m), "nothing lost beside the wall {p} - {q} at {m}");
        }
    }
    assert!(checked >= 30, "{checked} walls checked");
    // And nothing elsewhere: every lost vertex is within r + dr (and a
    // voxel and the simplification error) of a wall.
    let reach = r + dr + 0.1 + 0.15;
    for b in &d.bands {
        for v in b.a_only.rings().flatten() {
            assert!(wall_distance(&area, *v) <= reach, "lost area at {v}, away from the walls");
        }
    }
}

/// The default plan's free space eroded by `s` exactly (round joins of
/// 1/100 radian, by i_overlay), as a footprint.
fn eroded(area: &PolygonWithHoles, s: f64) -> Region {
    let shape: Vec<Vec<[f64; 2]>> = area
        .rings()
        .map(|r| r.points.iter().map(|p| [p.x, p.y]).collect())
        .collect();
    let style = OutlineStyle::new(-s).line_join(LineJoin::Round(0.01));
    let shapes: Vec<Vec<Vec<[f64; 2]>>> = shape.outline(&style);
    Region {
        shapes: shapes
            .into_iter()
            .map(|sh| sh.into_iter().map(|r| r.into_iter().map(|[x, y]| DVec2::new(x, y)).collect()).collect())
            .collect(),
    }
}

#[test]
fn exact_offsets_r_and_r_plus_dr_differ_by_the_perimeter_times_dr() {
    let (_, area) = default_level();
    for (r, dr) in [(0.3, 0.3), (0.1, 0.05), (0.5, 0.2)] {
        let band = Banding::default();
        let a = BTreeMap::from([(0, eroded(&area, r))]);
        let b = BTreeMap::from([(0, eroded(&area, r + dr))]);
        let d = difference_of(&a, &b, band);
        let expected = dr * eroded_perimeter(&area, r + dr / 2.0);
        let lost = d.a_only_area();
        assert!(
            (lost - expected).abs() < 0.02 * expected,
            "r {r} dr {dr}: lost {lost} m2, perimeter x dr {expected} m2"
        );
        assert!(d.b_only_area() < 1e-6 * lost, "r {r} dr {dr}: B gains {}", d.b_only_area());
        // Every lost point is within the band: between r and r + dr of a wall.
        for v in d.bands[0].a_only.rings().flatten() {
            let w = wall_distance(&area, *v);
            assert!(w > r - 1e-3 && w < r + dr + 1e-3, "r {r} dr {dr}: lost vertex {v} at {w} m from the walls");
        }
    }
}
