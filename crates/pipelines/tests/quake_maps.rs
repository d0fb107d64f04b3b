//! Real Quake maps (`../shared/data/quake-maps/`, with their licences)
//! through both pipelines that read them: `cspace` on the brushes and
//! `voxel` on the brush level converted to triangles. Every map builds in
//! both; where a map has an exit (`trigger_changelevel`) a path leads from
//! `info_player_start` to it. A map file that is missing skips its test
//! with a message saying so.
//!
//! `voxel` runs with coarse cells (0.3 m on `retrojam1`, 0.6 m on the
//! 256 m wide `q1_mountain`; its default 0.1 m takes half a minute per map
//! in a debug build). `lq_e3m4` (3,441 brushes) takes 12 s in `cspace` in
//! a debug build, so its test is ignored by default (run it with
//! `--ignored`); `navscope-cli bench` measures it in both pipelines.

use std::path::PathBuf;
use std::sync::Arc;

use glam::DVec3;
use navscope_core::level::{BrushLevel, Level, LevelData};
use navscope_core::{LinkKind, NavMesh, ParamValue, Runner};
use navscope_path::{Locator, SearchOptions, astar};

/// The map's path, or `None` (after saying why) when it is not there.
fn map(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/quake-maps")
        .join(name);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "SKIPPED: {} is missing (the shared Quake maps are not on this machine)",
            p.display()
        );
        None
    }
}

fn brushes(level: &Level) -> &BrushLevel {
    match &level.data {
        LevelData::Brushes(b) => b,
        _ => panic!("{} is not a brush level", level.source),
    }
}

/// The player start's feet and the exit's floor point (bottom centre of
/// the `trigger_changelevel` brushes), world metres.
fn start_and_exit(b: &BrushLevel) -> (DVec3, Option<DVec3>) {
    let start = b
        .entities
        .iter()
        .find(|e| e.classname == "info_player_start")
        .and_then(|e| e.origin)
        .expect("the map has a player start");
    // Quake's player origin is 24 units above its feet.
    let feet = start - DVec3::Y * 24.0 * b.unit;
    let exit = b
        .entities
        .iter()
        .position(|e| e.classname == "trigger_changelevel")
        .map(|e| {
            let pts = b
                .brushes
                .iter()
                .filter(|x| x.entity == Some(e))
                .flat_map(|x| {
                    navscope_core::geom::polyhedron::Polyhedron::from_planes(&x.planes)
                        .unwrap()
                        .distinct_vertices()
                });
            let bb = navscope_core::geom::Aabb::from_points(pts);
            DVec3::new(
                (bb.min.x + bb.max.x) / 2.0,
                bb.min.y,
                (bb.min.z + bb.max.z) / 2.0,
            )
        });
    (feet, exit)
}

/// Builds `level` with pipeline `id` and parameter overrides.
fn build(level: &Arc<Level>, id: &str, set: &[(&str, ParamValue)]) -> NavMesh {
    let p = navscope_pipelines::by_id(id).unwrap();
    let l = navscope_pipelines::level_for(&p, level).unwrap();
    let mut r = Runner::new(p, l);
    for (k, v) in set {
        r.set_param(k, v.clone()).unwrap();
    }
    r.run_all();
    if let Some((i, e)) = r.first_error() {
        panic!("{} with {id}: stage {i} failed: {e}", level.source);
    }
    r.navmesh().unwrap()
}

/// The link kinds of the cheapest path between two points, or `None`.
fn route(mesh: &NavMesh, from: DVec3, to: DVec3) -> Option<Vec<LinkKind>> {
    let loc = Locator::new(mesh).with_max_distance(2.0);
    let (a, b) = (loc.locate(from)?, loc.locate(to)?);
    let s = astar(
        mesh,
        a.node,
        b.node,
        a.point,
        b.point,
        &SearchOptions::default(),
    );
    s.nodes.as_ref()?;
    Some(s.links.iter().map(|&l| mesh.links[l].kind).collect())
}

/// Coarse voxel settings with `cell` metre columns, so a map builds in
/// seconds in a debug build.
fn voxel_settings(cell: f64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("cell_size", ParamValue::Float(cell)),
        ("cell_height", ParamValue::Float(0.1)),
    ]
}

fn load(path: &std::path::Path) -> Arc<Level> {
    Arc::new(navscope_levels::load(path).unwrap())
}

#[test]
fn retrojam1_reaches_its_exit_through_doors_in_both_pipelines() {
    let Some(p) = map("retrojam1_ericw.map") else {
        return;
    };
    let level = load(&p);
    let (start, exit) = start_and_exit(brushes(&level));
    let exit = exit.expect("retrojam1 has an exit");
    let cs = build(&level, "cspace", &[]);
    let kinds = route(&cs, start, exit).expect("cspace: a path from the start to the exit");
    assert!(
        kinds.contains(&LinkKind::Door),
        "the route opens a door: {kinds:?}"
    );
    assert!(cs.nodes.iter().any(|n| n.area == "exit"));
    assert!(
        cs.nodes
            .iter()
            .any(|n| n.stance == navscope_core::Stance::Swim),
        "water gives swim nodes"
    );
    let vx = build(&level, "voxel", &voxel_settings(0.3));
    assert!(
        route(&vx, start, exit).is_some(),
        "voxel: a path from the start to the exit"
    );
}

#[test]
fn mountain_builds_in_both_pipelines_the_same_twice() {
    let Some(p) = map("q1_mountain.map") else {
        return;
    };
    let level = load(&p);
    let mut a = build(&level, "cspace", &[]);
    assert!(!a.nodes.is_empty());
    let mut b = build(&load(&p), "cspace", &[]);
    // Stage times differ from run to run; everything else must not.
    a.stages.clear();
    b.stages.clear();
    assert!(
        a.to_json() == b.to_json(),
        "the same map twice gives the same JSON"
    );
    let vx = build(&level, "voxel", &voxel_settings(0.6));
    assert!(!vx.nodes.is_empty());
}

#[test]
#[ignore = "12 s in a debug build; run with --ignored"]
fn lq_e3m4_reaches_its_exit_in_cspace_with_doors_teleports_and_swimming() {
    let Some(p) = map("lq_e3m4.map") else { return };
    let level = load(&p);
    let (start, _) = start_and_exit(brushes(&level));
    let cs = build(&level, "cspace", &[]);
    let count = |k: LinkKind| cs.links.iter().filter(|l| l.kind == k).count();
    assert!(
        count(LinkKind::Door) > 0 && count(LinkKind::Teleport) > 0 && count(LinkKind::Swim) > 0
    );
    let exits: Vec<DVec3> = cs
        .nodes
        .iter()
        .filter(|n| n.area == "exit" && n.stance == navscope_core::Stance::Stand)
        .map(|n| n.position)
        .collect();
    assert!(
        !exits.is_empty(),
        "the exit trigger tags the floor under it"
    );
    let kinds = exits
        .iter()
        .find_map(|e| route(&cs, start, *e))
        .expect("a path from the start to the exit");
    assert!(kinds.contains(&LinkKind::Door), "{kinds:?}");
}
