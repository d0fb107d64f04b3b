//! A real map: the free space of polyanya's `arena.mesh` (the union of its
//! convex polygons, loaded by navscope-levels as outer boundary and holes)
//! decomposes, and its cell count is compared with the mesh's own polygon
//! count in the crate docs.

mod common;

use std::path::PathBuf;

use navscope_convex::decompose_plan;
use navscope_core::level::LevelData;

fn arena() -> Option<(navscope_core::geom::PolygonWithHoles, usize)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/polyanya-meshes/arena.mesh");
    if !path.exists() {
        eprintln!("skipped: {} is not present", path.display());
        return None;
    }
    let text = std::fs::read_to_string(&path).unwrap();
    // Header: "mesh", version, then V and P.
    let polygons: usize = text.split_whitespace().nth(3).unwrap().parse().unwrap();
    let level = navscope_levels::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let LevelData::FloorPlan(fp) = level.data else {
        panic!("arena.mesh did not load as a floor plan")
    };
    Some((fp.area, polygons))
}

#[test]
fn arena_decomposes_into_fewer_cells_than_its_mesh_has_polygons() {
    let Some((plan, polygons)) = arena() else {
        return;
    };
    let mut rows = Vec::new();
    for (tau, removal) in [(0.0, false), (0.0, true), (5.0, true)] {
        let out = decompose_plan(&plan, tau, removal)
            .unwrap_or_else(|e| panic!("tau {tau}, removal {removal}: {e}"));
        common::check(&plan, &out, tau);
        rows.push(out.cells.len());
        assert!(out.cells.len() <= out.strict_notches + 1);
    }
    let docs = include_str!("../src/lib.rs");
    let line = format!(
        "arena.mesh: {} polygons in the mesh; {} vertices, {} holes, {} notches; cells: {} original, {} with removal, {} with tau = 5 deg",
        polygons,
        plan.vertex_count(),
        plan.holes.len(),
        decompose_plan(&plan, 0.0, true).unwrap().strict_notches,
        rows[0],
        rows[1],
        rows[2]
    );
    println!("{line}");
    assert!(docs.contains(&line), "the crate docs lack the line\n{line}");
    assert!(
        rows[1] < polygons,
        "ANavMG should need fewer cells than the mesh's {polygons} polygons"
    );
}
