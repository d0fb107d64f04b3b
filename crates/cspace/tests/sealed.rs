//! A sealed map has no NavMesh outside it: its roof and the tops of its
//! outer walls are dropped by the walkable stage, drawn as
//! `walkable/outside`; a map that leaks keeps them and says that it leaks.

mod common;

use common::{artifact, get, locate, path_kinds, run};
use glam::DVec3;
use navscope_core::Stance;
use navscope_core::level::{Brush, BrushLevel, Entity};
use navscope_cspace::build::box_brush;
use navscope_cspace::stages::{OUTSIDE_KIND, Output, Walkable};

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// A room 10 × 3 × 10 m inside, walls 0.5 m thick, roof top at 3.5 m, the
/// player starting inside; with `hole`, a 2 m wide gap in the +x wall.
fn room(hole: bool) -> BrushLevel {
    let t = 0.5;
    let mut brushes: Vec<Brush> = vec![
        box_brush(v(-5.0 - t, -t, -5.0 - t), v(5.0 + t, 0.0, 5.0 + t)),
        box_brush(v(-5.0 - t, 3.0, -5.0 - t), v(5.0 + t, 3.0 + t, 5.0 + t)),
        box_brush(v(-5.0 - t, 0.0, -5.0 - t), v(-5.0, 3.0, 5.0 + t)),
        box_brush(v(-5.0, 0.0, -5.0 - t), v(5.0, 3.0, -5.0)),
        box_brush(v(-5.0, 0.0, 5.0), v(5.0, 3.0, 5.0 + t)),
    ];
    if hole {
        brushes.push(box_brush(v(5.0, 0.0, -5.0 - t), v(5.0 + t, 3.0, -1.0)));
        brushes.push(box_brush(v(5.0, 0.0, 1.0), v(5.0 + t, 3.0, 5.0 + t)));
    } else {
        brushes.push(box_brush(v(5.0, 0.0, -5.0 - t), v(5.0 + t, 3.0, 5.0 + t)));
    }
    BrushLevel {
        brushes,
        entities: vec![Entity {
            classname: "info_player_start".into(),
            origin: Some(v(0.0, 1.0, 0.0)),
            properties: Vec::new(),
        }],
        unit: 1.0 / 32.0,
        ..Default::default()
    }
}

fn heights(polys: &[navscope_cspace::walkable::WalkPoly]) -> Vec<f64> {
    polys.iter().map(|p| p.polygon[0].y).collect()
}

#[test]
fn a_sealed_room_keeps_its_floor_and_drops_its_roof() {
    let r = run("sealed room", room(false), &[]);
    let a = artifact::<Walkable>(&r, "walkable");
    let w = get::<Walkable>(&a);
    assert!(w.seal.starts_with("sealed"), "{}", w.seal);
    let kept = heights(&w.meshes[0]);
    let out = heights(&w.outside[0]);
    assert!(
        !kept.is_empty() && kept.iter().all(|&y| y < 1.5),
        "kept at {kept:?}"
    );
    assert!(
        !out.is_empty() && out.iter().all(|&y| y > 3.0),
        "outside at {out:?}"
    );
    // The roof is drawn as outside, and says why when clicked.
    let prims = a.primitives();
    assert!(prims.iter().any(|p| p.kind == OUTSIDE_KIND));
    let d = a.describe_element(OUTSIDE_KIND, 0);
    assert!(
        d["dropped"]
            .as_str()
            .is_some_and(|s| s.contains("outside the sealed map")),
        "{d}"
    );
    // No NavMesh node stands on the roof.
    let o = artifact::<Output>(&r, "navmesh");
    let mesh = &get::<Output>(&o).mesh;
    assert!(!mesh.nodes.is_empty());
    assert!(
        mesh.nodes.iter().all(|n| n.position.y < 1.5),
        "a node above the floor"
    );
    // The floor still leads from corner to corner.
    let a = locate(mesh, v(-4.0, 0.0, -4.0), Stance::Stand);
    let b = locate(mesh, v(4.0, 0.0, 4.0), Stance::Stand);
    assert!(path_kinds(mesh, a, b).is_some());
}

#[test]
fn a_room_that_leaks_keeps_its_roof_and_says_so() {
    let r = run("leaking room", room(true), &[]);
    let a = artifact::<Walkable>(&r, "walkable");
    let w = get::<Walkable>(&a);
    assert!(w.seal.contains("leaks"), "{}", w.seal);
    assert!(w.outside.iter().all(Vec::is_empty));
    assert!(
        heights(&w.meshes[0]).iter().any(|&y| y > 3.0),
        "the roof is kept"
    );
}
