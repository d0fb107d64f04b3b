//! The registry's level conversions, checked through what the pipelines
//! build from them.

mod support;

use std::any::Any;

use navscope_compare::{Banding, Region, footprints};
use navscope_core::Runner;
use navscope_core::level::LevelData;
use navscope_core::params::ParamValue;
use navscope_navgraph::raster_stages::SimplifyArtifact;
use support::{build_with, default_level, eroded, perimeter, polygons_area, sample, voxel};

#[test]
fn voxel_on_the_extruded_floor_plan_walks_the_free_space_shrunk_by_the_radius() {
    let (level, area) = default_level();
    let cell = 0.1; // voxel's default cell size
    let max_error = 0.15; // voxel's default max simplification error
    for r in [0.3, 0.6] {
        let mesh = voxel(&level, r);
        let walkable = polygons_area(&mesh);
        let exact = eroded(&area, r);
        // Within one voxel of the exact offset all along its boundary, plus
        // the voxel pipeline's documented clearance metric: a 12/17 chamfer
        // distance up to 1/13 short of the Euclidean one along axis-aligned
        // walls, so it keeps up to 13/12 of the radius there.
        let slack = perimeter(&exact) * (cell + r / 12.0);
        assert!(
            (walkable - exact.area()).abs() < slack,
            "radius {r}: voxel walks {walkable} m2, the plan shrunk by {r} m has {} m2 (slack {slack})",
            exact.area()
        );
        // And it walks nowhere the shrunk plan does not reach, give or take
        // a voxel and the simplification error: voxel simplifies wall
        // outlines as Recast does, up to max_error on either side.
        let f = footprints(&mesh, Banding::default());
        assert_eq!(f.len(), 1, "one floor");
        let outside = f[&0].minus(&eroded(&area, r - cell - max_error)).area();
        assert!(
            outside < 1e-6,
            "radius {r}: {outside} m2 closer than r to a wall"
        );
    }
}

#[test]
fn convex_cells_of_a_converted_raster_tile_the_raster_pipelines_simplified_polygons() {
    let level = sample("raster/office.png");
    // The raster pipeline without dilation: its simplified contours are the
    // free space the conversion hands to convex.
    let navgraph = navscope_pipelines::by_id("navgraph").unwrap();
    let mut r = Runner::new(navgraph.clone(), level.clone());
    let mut values = r.params().clone();
    values
        .set(&navgraph.params, "agent_radius", ParamValue::Float(0.0))
        .unwrap();
    r.set_params(values);
    r.run_all();
    let i = navgraph.stage_index("simplify").unwrap();
    let artifact = r.result(i).unwrap().outcome.as_ref().unwrap().clone();
    let any: &dyn Any = artifact.as_ref();
    let simplified = &any.downcast_ref::<SimplifyArtifact>().unwrap().simplified;
    let contours = Region::from_rings(&simplified.rings);

    let converted =
        navscope_pipelines::level_for(&navscope_pipelines::by_id("convex").unwrap(), &level)
            .unwrap();
    let LevelData::FloorPlan(plan) = &converted.data else {
        panic!("convex reads a raster as a floor plan")
    };
    let mesh = build_with(&level, "convex", &[]);
    let cells = footprints(&mesh, Banding::default()).remove(&0).unwrap();
    // The cells do not overlap and lie inside the contours...
    assert!((polygons_area(&mesh) - cells.area()).abs() < 1e-6);
    assert!(cells.minus(&contours).area() < 1e-6);
    // ...and cover the converted plan, which is the contours' largest component.
    assert!((cells.area() - plan.area.area()).abs() < 1e-6);
    let rest = contours.minus(&cells).area();
    assert!(
        (rest - (contours.area() - plan.area.area())).abs() < 1e-6,
        "only the smaller free components are left out ({rest} m2)"
    );
    assert!(
        plan.area.area() > 0.5 * contours.area(),
        "the largest component is the plan"
    );
}

#[test]
fn every_level_kind_reaches_voxel_and_builds() {
    for path in [
        "layers/two_storey.ron",
        "raster/rooms.png",
        "floorplan/small.json",
    ] {
        let level = sample(path);
        let mesh = build_with(&level, "voxel", &[]);
        assert!(polygons_area(&mesh) > 1.0, "{path}: voxel walks somewhere");
    }
    // Two storeys: floors at two heights.
    let mesh = build_with(&sample("layers/two_storey.ron"), "voxel", &[]);
    assert!(footprints(&mesh, Banding::Height { band: 1.0 }).len() >= 2);
}
