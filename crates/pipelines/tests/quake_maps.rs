//! Real Quake maps (`../shared/data/quake-maps/`, with their licences)
//! through both pipelines that read them: `cspace` on the brushes and
//! `voxel` on the brush level converted to triangles. Every map builds in
//! both; where a map has an exit (`trigger_changelevel`) a path leads from
//! `info_player_start` to it in both, and `voxel`'s takes the door and
//! elevator links `cspace`'s takes unless it jumps (a jump may go round
//! them). A shared map that is missing skips
//! with a `SKIPPING:` line. The hand-made Quake 2 map with many-sided
//! brushes (`assets/levels/cspace/q2_many_sided.map`) builds in both too.
//!
//! Both run with the agent the map opens with (Quake's player for a
//! Quake map, [`navscope_pipelines::agents::for_level`]); `voxel` with coarse cells ([`EXIT_CELL`] = 0.3 m on the maps with
//! an exit, [`OPEN_CELL`] = 0.6 m on the 256 m wide `q1_mountain`; its
//! default 0.1 m takes half a minute per map in a debug build). The whole
//! file takes about 15 s in a debug build on two cores; `navscope-cli
//! bench` measures the maps at the default cells.
//!
//! On the LibreQuake maps' meshes, Polyanya and A* with the funnel cross
//! every link by one rule (the path crate's `crossing` module), so
//! Polyanya's path is never dearer than A*'s priced the same way.

use std::path::PathBuf;
use std::sync::Arc;

use glam::DVec3;
use navscope_core::geom::Aabb;
use navscope_core::geom::polyhedron::Polyhedron;
use navscope_core::level::{BrushLevel, Level, LevelData};
use navscope_core::{LinkKind, NavMesh, ParamValue, Runner};
use navscope_path::polyanya::cost_of;
use navscope_path::{Locator, PathFinder, SearchOptions, astar, find_path};

/// The shared maps' folder.
fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/quake-maps")
}

/// The map's path, or `None` (after saying why) when it is not there.
fn map(name: &str) -> Option<PathBuf> {
    let p = shared().join(name);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "SKIPPING: {} is missing (the shared Quake maps are not on this machine)",
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

/// The box of the `trigger_changelevel` brushes, world metres.
fn exit_box(b: &BrushLevel) -> Option<Aabb> {
    let e = b
        .entities
        .iter()
        .position(|e| e.classname == "trigger_changelevel")?;
    Some(Aabb::from_points(
        b.brushes
            .iter()
            .filter(|x| x.entity == Some(e))
            .flat_map(|x| {
                Polyhedron::from_planes(&x.planes)
                    .unwrap()
                    .distinct_vertices()
            }),
    ))
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
    let exit = exit_box(b).map(|bb| {
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
    // The agent a map opens with (Quake's player for a Quake map: its
    // jumps and falls are part of the way; a `trigger_monsterjump` throws
    // no player).
    let mut values = navscope_core::params::ParamValues::defaults(&p.params);
    if let Some(preset) = navscope_pipelines::agents::for_level(level) {
        preset.apply(&p, level, &mut values).unwrap();
    }
    let l = navscope_pipelines::level_for(&p, level).unwrap();
    let mut r = Runner::new(p, l);
    r.set_params(values);
    for (k, v) in set {
        r.set_param(k, v.clone()).unwrap();
    }
    r.run_all();
    if let Some((i, e)) = r.first_error() {
        panic!("{} with {id}: stage {i} failed: {e}", level.source);
    }
    r.navmesh().unwrap()
}

/// The cell size of `voxel` on the maps with an exit: coarse enough for
/// a debug build, fine enough for Quake's 64-unit (2 m) doorways.
const EXIT_CELL: f64 = 0.3;

/// The cell size of `voxel` on the maps without an exit (`q1_mountain`,
/// 256 m wide): they only have to build.
const OPEN_CELL: f64 = 0.6;

/// The node positions of `mesh` inside the exit trigger's box (grown by
/// a metre sideways and a step down), nearest to the exit point first.
fn exit_nodes(mesh: &NavMesh, b: &BrushLevel, exit: DVec3) -> Vec<DVec3> {
    let bb = exit_box(b).unwrap();
    let grow = DVec3::new(1.0, 0.5, 1.0);
    let mut at: Vec<DVec3> = mesh
        .nodes
        .iter()
        .map(|n| n.position)
        .filter(|p| (bb.min - grow).cmple(*p).all() && p.cmple(bb.max + grow).all())
        .collect();
    at.sort_by(|a, b| a.distance(exit).total_cmp(&b.distance(exit)));
    at
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
    let vx = build(&level, "voxel", &voxel_settings(OPEN_CELL));
    assert!(!vx.nodes.is_empty());
}

#[test]
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

/// Builds `p` in both pipelines, prints the figures, and checks that
/// both reach the exit, where the map has one, and that `voxel` takes the
/// door and elevator links that `cspace`'s route takes.
fn both_pipelines(p: &std::path::Path) {
    let level = load(p);
    let b = brushes(&level);
    let (start, exit) = start_and_exit(b);
    let cell = if exit.is_some() { EXIT_CELL } else { OPEN_CELL };
    let t = std::time::Instant::now();
    let cs = build(&level, "cspace", &[]);
    let cs_s = t.elapsed().as_secs_f64();
    let t = std::time::Instant::now();
    let vx = build(&level, "voxel", &voxel_settings(cell));
    let vx_s = t.elapsed().as_secs_f64();
    assert!(
        !cs.nodes.is_empty() && !vx.nodes.is_empty(),
        "{}: both pipelines make nodes",
        p.display()
    );
    eprintln!(
        "{}: cspace {cs_s:.1} s, {} nodes, {} links; voxel ({cell} m cells) {vx_s:.1} s, {} nodes, {} links",
        p.display(),
        cs.nodes.len(),
        cs.links.len(),
        vx.nodes.len(),
        vx.links.len(),
    );
    let Some(exit) = exit else {
        eprintln!("{}: no trigger_changelevel, no exit to reach", p.display());
        return;
    };
    let to_exit = |mesh: &NavMesh| {
        std::iter::once(exit)
            .chain(exit_nodes(mesh, b, exit))
            .find_map(|e| route(mesh, start, e))
    };
    let cs_route =
        to_exit(&cs).unwrap_or_else(|| panic!("{}: cspace finds no path to the exit", p.display()));
    let vx_route =
        to_exit(&vx).unwrap_or_else(|| panic!("{}: voxel finds no path to the exit", p.display()));
    let count = |r: &[LinkKind], k: LinkKind| r.iter().filter(|&&x| x == k).count();
    eprintln!(
        "{}: routes to the exit: cspace {} links (doors {}, lifts {}), voxel {} links (doors {}, lifts {}, jumps {})",
        p.display(),
        cs_route.len(),
        count(&cs_route, LinkKind::Door),
        count(&cs_route, LinkKind::Elevator),
        vx_route.len(),
        count(&vx_route, LinkKind::Door),
        count(&vx_route, LinkKind::Elevator),
        count(&vx_route, LinkKind::Jump),
    );
    // A route that jumps may go round a door or a lift the other route
    // takes (Quake's player jumps and drops): the two are compared only
    // when `voxel`'s does not.
    for k in [LinkKind::Door, LinkKind::Elevator] {
        assert!(
            !cs_route.contains(&k) || vx_route.contains(&k) || vx_route.contains(&LinkKind::Jump),
            "{}: cspace's route uses {} links, voxel's does not: {vx_route:?}",
            p.display(),
            k.name()
        );
    }
}

/// The `.map` files in `dir`, sorted; `None` (after saying so) when the
/// folder is not on this machine. The folder, when there, holds some.
fn maps_in(dir: &std::path::Path, what: &str) -> Option<Vec<PathBuf>> {
    if !dir.is_dir() {
        eprintln!(
            "SKIPPING: {} is missing (the shared {what} are not on this machine)",
            dir.display()
        );
        return None;
    }
    let mut maps: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "map"))
        .collect();
    maps.sort();
    assert!(!maps.is_empty(), "{} holds .map files", dir.display());
    Some(maps)
}

#[test]
fn every_shared_map_builds_in_both_pipelines_and_reaches_its_exit() {
    let dir = shared();
    let Some(maps) = maps_in(&dir, "Quake maps") else {
        return;
    };
    for name in ["lq_e3m4.map", "q1_mountain.map", "retrojam1_ericw.map"] {
        if !maps.iter().any(|p| p.ends_with(name)) {
            eprintln!("SKIPPING: {name} is missing from {}", dir.display());
        }
    }
    for p in maps {
        both_pipelines(&p);
    }
}

#[test]
fn a_quake2_map_with_many_sided_brushes_builds_in_both_pipelines() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/levels/cspace/q2_many_sided.map");
    let level = load(&p);
    let b = brushes(&level);
    let most = b.brushes.iter().map(|x| x.planes.len()).max().unwrap();
    assert!(most > 64, "the map has a many-sided brush ({most} planes)");
    let cs = build(&level, "cspace", &[]);
    let vx = build(&level, "voxel", &voxel_settings(0.1));
    for (id, mesh) in [("cspace", &cs), ("voxel", &vx)] {
        assert!(
            mesh.nodes
                .iter()
                .any(|n| n.stance == navscope_core::Stance::Stand),
            "{id}: standing nodes"
        );
        assert!(
            mesh.nodes
                .iter()
                .any(|n| n.stance == navscope_core::Stance::Swim),
            "{id}: the pool swims"
        );
    }
}

/// Pairs of polygon node positions of `mesh`, picked by a fixed
/// xorshift sequence: `n` of them.
fn node_pairs(mesh: &NavMesh, n: usize) -> Vec<(DVec3, DVec3)> {
    let at: Vec<DVec3> = mesh
        .nodes
        .iter()
        .filter(|x| x.polygon.is_some())
        .map(|x| x.position)
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        at[(state % at.len() as u64) as usize]
    };
    (0..n).map(|_| (next(), next())).collect()
}

/// Polyanya against A* with the funnel on `mesh`: wherever A* finds a
/// path Polyanya finds one, never dearer than A*'s path priced by
/// Polyanya's rule ([`cost_of`]). Returns how many pairs were compared.
fn polyanya_is_never_dearer(name: &str, mesh: &NavMesh) -> usize {
    let opts = SearchOptions::default();
    let locator = Locator::new(mesh);
    let mut finder = PathFinder::new(mesh);
    let mut compared = 0;
    for (from, to) in node_pairs(mesh, 40) {
        let Ok(a) = find_path(mesh, &locator, from, to, &opts) else {
            continue;
        };
        let priced = cost_of(mesh, &finder.poly, &a.waypoints, &a.search.links);
        let p = finder
            .polyanya(mesh, from, to, &opts, false)
            .unwrap_or_else(|e| panic!("{name}: A* goes {from} -> {to}, Polyanya: {e}"));
        assert!(
            p.cost <= priced + 1e-9 * (1.0 + priced),
            "{name}: {from} -> {to}: Polyanya's cost {} > A*'s path priced {priced} \
             (A* links {:?}, Polyanya links {:?})",
            p.cost,
            a.search.links,
            p.links
        );
        compared += 1;
    }
    compared
}

#[test]
fn on_the_librequake_maps_polyanya_is_never_dearer_than_astar_with_the_funnel() {
    let Some(maps) = maps_in(&shared().join("librequake"), "LibreQuake maps") else {
        return;
    };
    for p in maps {
        let level = load(&p);
        for (id, set) in [("cspace", vec![]), ("voxel", voxel_settings(EXIT_CELL))] {
            let mesh = build(&level, id, &set);
            let name = format!("{} ({id})", p.display());
            let n = polyanya_is_never_dearer(&name, &mesh);
            eprintln!("{name}: {n} pairs compared");
            assert!(n > 0, "{name}: no pair of nodes A* joins");
        }
    }
}
