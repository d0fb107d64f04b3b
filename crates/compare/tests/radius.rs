//! Footprint differences on the default floor plan: a build against
//! itself, and the voxel agent radius r against r + dr.

mod support;

use std::collections::BTreeMap;

use navscope_compare::{Banding, CompareOptions, build, compare, difference, difference_of};
use navscope_core::level::LevelData;
use navscope_core::params::ParamValues;
use support::{default_level, eroded, eroded_perimeter, voxel, wall_distance};

#[test]
fn a_build_against_itself_differs_nowhere() {
    let (level, _) = default_level();
    let convex = navscope_pipelines::by_id("convex").unwrap();
    let mesh = build(
        &level,
        &convex,
        ParamValues::defaults(&convex.params),
        Default::default(),
    )
    .unwrap();
    let c = compare(&mesh, &mesh, &CompareOptions::default());
    assert_eq!(c.difference.a_only_area(), 0.0);
    assert_eq!(c.difference.b_only_area(), 0.0);
    let free = match &level.data {
        LevelData::FloorPlan(p) => p.area.area(),
        _ => unreachable!(),
    };
    assert!(
        (c.difference.common_area() - free).abs() < 1e-6,
        "the cells cover the plan"
    );
    assert!(
        c.rows
            .iter()
            .all(|r| r.delta() == Some(0.0) || r.name.starts_with("time"))
    );
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
    eprintln!(
        "lost {lost:.3} m2, gained {gained:.3} m2, expected {expected:.3} m2, perimeter x dr {plain:.3} m2"
    );
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
            assert!(
                band.a_only.contains(m),
                "nothing lost beside the wall {p} - {q} at {m}"
            );
        }
    }
    assert!(checked >= 30, "{checked} walls checked");
    // And nothing elsewhere: every lost vertex is within r + dr (and a
    // voxel and the simplification error) of a wall.
    let reach = r + dr + 0.1 + 0.15;
    for b in &d.bands {
        for v in b.a_only.rings().flatten() {
            assert!(
                wall_distance(&area, *v) <= reach,
                "lost area at {v}, away from the walls"
            );
        }
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
        assert!(
            d.b_only_area() < 1e-6 * lost,
            "r {r} dr {dr}: B gains {}",
            d.b_only_area()
        );
        // Every lost point is within the band: between r and r + dr of a wall.
        for v in d.bands[0].a_only.rings().flatten() {
            let w = wall_distance(&area, *v);
            assert!(
                w > r - 1e-3 && w < r + dr + 1e-3,
                "r {r} dr {dr}: lost vertex {v} at {w} m from the walls"
            );
        }
    }
}
