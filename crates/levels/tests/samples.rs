//! Every sample level under `assets/levels/` loads, with hand-checked
//! facts; truncated and corrupted copies of every sample are refused with
//! a one-line message naming the file, and never panic.

use std::path::{Path, PathBuf};

use navscope_core::level::{LevelData, LevelKind};
use navscope_levels::{LevelError, load, load_bytes};

fn asset(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/levels")
        .join(rel)
}

/// (path under assets/levels, kind)
const SAMPLES: &[(&str, LevelKind)] = &[
    ("floorplan/default.json", LevelKind::FloorPlan),
    ("floorplan/small.json", LevelKind::FloorPlan),
    ("floorplan/lobby_nodes.ron", LevelKind::FloorPlan),
    ("raster/office.png", LevelKind::Raster),
    ("raster/office.png.ron", LevelKind::Raster),
    ("raster/rooms.png", LevelKind::Raster),
    ("mesh/room.obj", LevelKind::Mesh),
    ("mesh/courtyard.gltf", LevelKind::Mesh),
    ("brushes/floor_ramp.ron", LevelKind::Brushes),
    ("brushes/room.map", LevelKind::Brushes),
    ("layers/two_storey.ron", LevelKind::Layers),
];

#[test]
fn every_sample_loads_as_its_kind() {
    for (rel, kind) in SAMPLES {
        let path = asset(rel);
        let level = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(level.kind(), *kind, "{rel}");
        assert_eq!(level.source, path.display().to_string());
    }
}

#[test]
fn hand_checked_sample_facts() {
    let data = |rel: &str| load(&asset(rel)).unwrap().data;
    let LevelData::FloorPlan(small) = data("floorplan/small.json") else {
        panic!()
    };
    assert_eq!(small.area.area(), 56.0, "10 x 6 room less a 2 x 2 pillar");
    let LevelData::FloorPlan(lobby) = data("floorplan/lobby_nodes.ron") else {
        panic!()
    };
    assert_eq!((lobby.nodes.len(), lobby.blockers.len()), (3, 2));
    assert_eq!(lobby.area.area(), 16.0 * 12.0 - 4.0 - 2.0);
    let LevelData::Raster(office) = data("raster/office.png") else {
        panic!()
    };
    assert_eq!(
        (office.width, office.height, office.metres_per_pixel),
        (80, 60, 0.25),
        "sidecar applied"
    );
    // Carpet (dark blue) is walkable by the sidecar; the red desk is an obstacle.
    assert!(!office.is_obstacle(40, 10));
    assert!(office.is_obstacle(15, 15));
    assert!(office.is_obstacle(45, 20), "column");
    let LevelData::Raster(via_sidecar) = data("raster/office.png.ron") else {
        panic!()
    };
    assert_eq!(via_sidecar, office);
    let LevelData::Raster(rooms) = data("raster/rooms.png") else {
        panic!()
    };
    assert_eq!(rooms.metres_per_pixel, 0.1, "bare PNG defaults");
    assert!(rooms.is_obstacle(8, 10) && !rooms.is_obstacle(3, 3));
    let LevelData::Mesh(room) = data("mesh/room.obj") else {
        panic!()
    };
    assert_eq!(room.water.len(), 1);
    assert_eq!(
        room.mesh.triangles.len(),
        8 * 12 + 2,
        "8 solid boxes and a ramp quad (the water box is left out)"
    );
    let LevelData::Mesh(yard) = data("mesh/courtyard.gltf") else {
        panic!()
    };
    assert_eq!((yard.mesh.triangles.len(), yard.water.len()), (24, 1));
    assert!((yard.mesh.bounds().max.y - 1.0).abs() < 1e-6, "crate top");
    let LevelData::Brushes(ramp) = data("brushes/floor_ramp.ron") else {
        panic!()
    };
    assert_eq!(ramp.brushes.len(), 4);
    assert_eq!(ramp.brushes[3].entity, Some(1));
    let LevelData::Brushes(map) = data("brushes/room.map") else {
        panic!()
    };
    assert_eq!(map.brushes.len(), 8);
    assert_eq!(map.entities.len(), 2);
    assert_eq!(
        map.brushes[7].entity,
        Some(0),
        "ladder brush belongs to func_ladder"
    );
    assert_eq!(
        map.entities[1].origin,
        Some(glam::DVec3::new(2.0, 0.75, -2.0))
    );
    let LevelData::Layers(two) = data("layers/two_storey.ron") else {
        panic!()
    };
    assert_eq!((two.layers.len(), two.connections.len()), (3, 4));
}

fn assert_refused(name: &str, bytes: &[u8], what: &str) {
    let r = std::panic::catch_unwind(|| load_bytes(name, bytes));
    let r: Result<_, LevelError> = r.unwrap_or_else(|_| panic!("{what} copy of {name} panicked"));
    let e = r
        .err()
        .unwrap_or_else(|| panic!("{what} copy of {name} loaded"));
    let msg = e.to_string();
    assert!(msg.starts_with(&format!("{name}: ")), "{msg}");
    assert!(!msg.contains('\n'), "{msg}");
}

#[test]
fn truncated_and_corrupted_copies_are_refused() {
    let mut files: Vec<(String, Vec<u8>)> = SAMPLES
        .iter()
        .filter(|(rel, _)| !rel.ends_with(".png.ron"))
        .map(|(rel, _)| (rel.to_string(), std::fs::read(asset(rel)).unwrap()))
        .collect();
    let sidecar = std::fs::read(asset("raster/office.png.ron")).unwrap();
    for (name, bytes) in &files {
        assert_refused(name, &bytes[..bytes.len() / 2], "truncated");
        for at in [bytes.len() / 3, bytes.len() / 2, 2 * bytes.len() / 3] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0xFF;
            assert_refused(name, &flipped, "corrupted");
        }
        assert_refused(name, &[], "empty");
    }
    // The sidecar is checked when its image is loaded by path.
    let dir = std::env::temp_dir().join(format!("navscope-levels-sidecar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("office.png"),
        std::fs::read(asset("raster/office.png")).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("office.png.ron"), &sidecar[..sidecar.len() / 2]).unwrap();
    let Err(e) = load(&dir.join("office.png")) else {
        panic!("broken sidecar accepted")
    };
    assert!(e.file().ends_with("office.png.ron"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    files.clear();
}

#[test]
fn a_mesh_sidecar_gives_the_convex_volumes_and_a_bad_one_is_named() {
    let dir = std::env::temp_dir().join(format!("navscope-levels-volumes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 3 2\nf 1 4 3\n";
    std::fs::write(dir.join("floor.obj"), obj).unwrap();
    let mesh_of = |l: navscope_core::level::Level| match l.data {
        LevelData::Mesh(m) => m,
        _ => panic!("not a mesh"),
    };
    assert!(
        mesh_of(load(&dir.join("floor.obj")).unwrap())
            .volumes
            .is_empty()
    );
    std::fs::write(
        dir.join("floor.obj.ron"),
        "MeshSidecar(volumes: [(area: \"grass\", points: [(1, 1), (3, 1), (3, 3)], min_y: -1, max_y: 1)])",
    )
    .unwrap();
    let m = mesh_of(load(&dir.join("floor.obj")).unwrap());
    assert_eq!(m.volumes.len(), 1);
    assert_eq!(m.volumes[0].area, "grass");
    assert!(m.volumes[0].contains(2.5, 0.0, 1.5));
    std::fs::write(
        dir.join("floor.obj.ron"),
        "MeshSidecar(volumes: [(area: \"grass\", points: [(1, 1), (3, 1)], min_y: -1, max_y: 1)])",
    )
    .unwrap();
    let e = load(&dir.join("floor.obj")).unwrap_err();
    assert!(e.file().ends_with("floor.obj.ron"), "{e}");
    assert_eq!(e.element(), "volume 0, points", "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
