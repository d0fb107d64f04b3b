//! The polyanya export read back: by the `polyanya` crate (the reader
//! vleue_navigator uses), whose shortest paths over it must equal
//! navscope's Polyanya on the NavMesh it was written from, and by
//! navscope's level reader, whose free space must cover what the NavMesh's
//! polygons cover, part by part.

use glam::DVec3;
use navscope_core::NavMesh;
use navscope_core::level::LevelData;
use navscope_path::polyanya::to_polyanya_mesh;
use navscope_path::sample::grid_mesh;
use navscope_path::{PathFinder, SearchOptions};

/// Plan area of the NavMesh's polygons.
fn polygon_area(mesh: &NavMesh) -> f64 {
    mesh.nodes
        .iter()
        .filter_map(|n| n.polygon.as_ref())
        .map(|p| {
            (0..p.len())
                .map(|k| {
                    let (a, b) = (p[k], p[(k + 1) % p.len()]);
                    a.z * b.x - a.x * b.z
                })
                .sum::<f64>()
                .abs()
                / 2.0
        })
        .sum()
}

/// Every pair of cell centres: the polyanya crate on the export and
/// navscope's Polyanya on the NavMesh find the same pairs connected, at
/// the same length.
fn both_searches_agree(mesh: &NavMesh, text: &str) {
    let theirs: polyanya::Mesh = polyanya::PolyanyaFile::from_bytes(text.as_bytes())
        .try_into()
        .expect("the polyanya crate reads the export");
    let mut ours = PathFinder::new(mesh);
    let opts = SearchOptions::default();
    let centres: Vec<DVec3> = mesh.nodes.iter().map(|n| n.position).collect();
    let mut found = 0;
    for &a in &centres {
        for &b in &centres {
            let t = theirs
                .path(
                    glam_polyanya::Vec2::new(a.x as f32, a.z as f32),
                    glam_polyanya::Vec2::new(b.x as f32, b.z as f32),
                )
                .map(|p| p.length as f64);
            let o = ours
                .polyanya(mesh, a, b, &opts, false)
                .map(|p| p.length)
                .ok();
            assert_eq!(t.is_some(), o.is_some(), "{a} -> {b}: {t:?} against {o:?}");
            if let (Some(t), Some(o)) = (t, o) {
                assert!(
                    (t - o).abs() <= 1e-4 * (1.0 + o),
                    "{a} -> {b}: {t} against {o}"
                );
                found += 1;
            }
        }
    }
    assert!(found > centres.len(), "only {found} pairs connected");
}

#[test]
fn a_grid_with_a_hole_round_trips_as_one_floor_plan() {
    // 5 x 4 cells round a blocked 2 x 1 block: one part, one hole.
    let mesh = grid_mesh(5, 4, |i, j| j == 1 && (1..3).contains(&i));
    let text = to_polyanya_mesh(&mesh);
    both_searches_agree(&mesh, &text);
    let level = navscope_levels::load_bytes("export.mesh", text.as_bytes()).unwrap();
    let LevelData::FloorPlan(plan) = &level.data else {
        panic!("one part reads as a floor plan, not {:?}", level.kind());
    };
    assert_eq!(plan.area.holes.len(), 1);
    assert!((plan.area.area() - polygon_area(&mesh)).abs() < 1e-9);
}

#[test]
fn a_grid_in_two_parts_round_trips_as_two_layers() {
    // Columns 0-1 and 3-5 of a 6 x 3 grid, column 2 blocked.
    let mesh = grid_mesh(6, 3, |i, _| i == 2);
    let text = to_polyanya_mesh(&mesh);
    both_searches_agree(&mesh, &text);
    let level = navscope_levels::load_bytes("export.mesh", text.as_bytes()).unwrap();
    let LevelData::Layers(layers) = &level.data else {
        panic!("two parts read as layers, not {:?}", level.kind());
    };
    let areas: Vec<f64> = layers.layers.iter().map(|l| l.area.area()).collect();
    assert_eq!(areas, [9.0, 6.0], "largest part first");
    assert!((areas.iter().sum::<f64>() - polygon_area(&mesh)).abs() < 1e-9);
}
