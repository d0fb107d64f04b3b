//! The sample levels: files in step with the generators, stance areas where
//! they belong, and the table-room path of §32.3.2 and §32.5.

mod common;

use common::*;
use glam::DVec3;
use navscope_core::{ParamValue, Stance};
use navscope_voxel::graph::path_stances;

#[test]
fn sample_files_match_the_generators() {
    for (file, title, b) in navscope_voxel::samples::all() {
        let path = sample_path(file);
        let text = b.obj(title);
        if std::env::var_os("NAVSCOPE_WRITE_SAMPLES").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run with NAVSCOPE_WRITE_SAMPLES=1)",
                path.display()
            )
        });
        assert_eq!(
            on_disk, text,
            "{file} is out of date (run with NAVSCOPE_WRITE_SAMPLES=1)"
        );
        // The loader reads back the same solids and water.
        let level = load(&path);
        let m = mesh(&level);
        let built = b.level();
        assert_eq!(m.mesh.triangles.len(), built.mesh.triangles.len(), "{file}");
        assert_eq!(m.water.len(), built.water.len(), "{file}");
    }
}

fn stances(m: &navscope_core::NavMesh, ids: &[usize]) -> Vec<Stance> {
    let mut s: Vec<Stance> = ids.iter().map(|&i| m.nodes[i].stance).collect();
    s.sort();
    s.dedup();
    s
}

#[test]
fn under_the_table_is_crouch_only() {
    let m = navmesh(&run(load(&sample_path("table_room.obj")), params(&[])));
    let under = nodes_in(&m, (5.3, 6.7), (1.4, 8.6), (-0.5, 0.5));
    assert!(!under.is_empty());
    assert_eq!(stances(&m, &under), [Stance::Crouch]);
    let open = nodes_in(&m, (0.7, 4.5), (0.7, 9.3), (-0.5, 0.5));
    assert!(stances(&m, &open).contains(&Stance::Stand));
}

#[test]
fn in_the_vent_is_prone_only() {
    let m = navmesh(&run(load(&sample_path("vent.obj")), params(&[])));
    let vent = nodes_in(&m, (6.0, 7.0), (2.5, 5.5), (-0.5, 0.5));
    assert!(!vent.is_empty());
    assert_eq!(stances(&m, &vent), [Stance::Prone]);
    // The two rooms are joined through the vent.
    let a = node_at(&m, DVec3::new(3.0, 0.0, 4.0));
    let b = node_at(&m, DVec3::new(10.0, 0.0, 4.0));
    let path = shortest_path(&m, a, b, |_| 1.0).expect("a path through the vent");
    assert!(
        path.iter()
            .any(|&n| m.nodes[n as usize].stance == Stance::Prone)
    );
}

#[test]
fn on_the_ledge_is_sidestep_only() {
    let m = navmesh(&run(load(&sample_path("ledge.obj")), params(&[])));
    let ledge = nodes_in(&m, (4.6, 9.4), (0.0, 0.7), (-0.5, 0.5));
    assert!(!ledge.is_empty());
    assert_eq!(stances(&m, &ledge), [Stance::Sidestep]);
    let a = node_at(&m, DVec3::new(2.0, 0.0, 4.0));
    let b = node_at(&m, DVec3::new(12.0, 0.0, 4.0));
    let path = shortest_path(&m, a, b, |_| 1.0).expect("a path along the ledge");
    assert!(
        path.iter()
            .any(|&n| m.nodes[n as usize].stance == Stance::Sidestep)
    );
}

#[test]
fn the_deep_pool_is_swim_lifted_to_the_surface() {
    let m = navmesh(&run(load(&sample_path("pool.obj")), params(&[])));
    let pool = nodes_in(&m, (4.0, 10.0), (3.0, 7.0), (-2.5, -1.5));
    assert!(!pool.is_empty());
    assert_eq!(stances(&m, &pool), [Stance::Swim]);
    for &i in &pool {
        let n = &m.nodes[i];
        assert!(
            (n.position.y - (-0.1)).abs() < 1e-3,
            "swim node {i} at {} (water surface at -0.1)",
            n.position.y
        );
        assert!(
            n.polygon
                .as_ref()
                .unwrap()
                .iter()
                .all(|p| (p.y + 2.0).abs() < 0.06),
            "polygon stays on the pool floor"
        );
    }
    // Without the water volume the pool floor is dry standing space.
    let dry = navscope_core::level::Level {
        source: "dry".into(),
        data: navscope_core::level::LevelData::Mesh(navscope_core::level::MeshLevel {
            water: vec![],
            ..mesh(&load(&sample_path("pool.obj"))).clone()
        }),
    };
    let m = navmesh(&run(dry, params(&[])));
    let floor = nodes_in(&m, (4.0, 10.0), (3.0, 7.0), (-2.5, -1.5));
    let st = stances(&m, &floor);
    assert!(
        st.contains(&Stance::Stand) && !st.contains(&Stance::Swim),
        "{st:?}"
    );
}

#[test]
fn stairs_are_walked_and_the_steep_slope_is_nobodys() {
    let m = navmesh(&run(load(&sample_path("stairs_slope.obj")), params(&[])));
    let stairs = nodes_in(&m, (3.0, 6.0), (1.0, 3.0), (0.1, 2.1));
    assert!(stances(&m, &stairs).contains(&Stance::Stand));
    let run_len = 2.0 / 40f64.to_radians().tan();
    let ramp = nodes_in(&m, (3.2, 3.0 + run_len - 0.2), (6.0, 8.0), (0.2, 1.8));
    assert!(ramp.is_empty(), "nodes on the 40 degree ramp: {ramp:?}");
    // Up the stairs from the floor to the platform.
    let a = node_at(&m, DVec3::new(1.5, 0.0, 2.0));
    let b = node_at(&m, DVec3::new(7.5, 2.0, 2.0));
    assert!(
        m.nodes[b as usize]
            .polygon
            .as_ref()
            .unwrap()
            .iter()
            .any(|p| p.y > 1.9)
    );
    assert!(
        shortest_path(&m, a, b, |_| 1.0).is_some(),
        "the stairs connect"
    );
}

#[test]
fn a_path_goes_around_the_table_unless_crouching_is_cheap() {
    let m = navmesh(&run(load(&sample_path("table_room.obj")), params(&[])));
    let a = node_at(&m, DVec3::new(2.0, 0.0, 5.0));
    let b = node_at(&m, DVec3::new(10.0, 0.0, 5.0));
    // Stance costs that make crouching four times as costly as walking (§32.5).
    let costly = |s: Stance| if s == Stance::Stand { 1.0 } else { 4.0 };
    let under_table = |n: &u32| {
        let p = m.nodes[*n as usize].position;
        p.x > 5.2 && p.x < 6.8 && p.z > 1.2 && p.z < 8.8
    };
    let around = shortest_path(&m, a, b, costly).unwrap();
    assert!(
        !around.iter().any(under_table),
        "costly crouching goes around the table"
    );
    let cheap = shortest_path(&m, a, b, |_| 1.0).unwrap();
    assert!(
        cheap.iter().any(under_table),
        "with crouch cost 1 the path goes under the table"
    );
    let crouch: Vec<usize> = (0..cheap.len())
        .filter(|&i| m.nodes[cheap[i] as usize].stance == Stance::Crouch)
        .collect();
    // Listing 32.2: crouch from the node before the crouch area to the node after it.
    let st = path_stances(&m, &cheap);
    let (first, last) = (crouch[0], *crouch.last().unwrap());
    assert!(st[..first].iter().all(|s| *s == Stance::Stand));
    assert!(
        st[first..=last + 1].iter().all(|s| *s == Stance::Crouch),
        "{st:?}"
    );
    assert!(st[last + 2..].iter().all(|s| *s == Stance::Stand));
}

#[test]
fn pass_order_is_a_hierarchy() {
    // Prone before crouch: prone (radius 1 m) takes the middle under the
    // table, so less is left for crouch (§32.4.4).
    let crouch_area = |order: &str| {
        let r = run(
            load(&sample_path("table_room.obj")),
            params(&[("passes", ParamValue::Text(order.into()))]),
        );
        navmesh(&r)
            .metrics
            .get("area crouch m2")
            .copied()
            .unwrap_or(0.0)
    };
    let first = crouch_area("stand,crouch,prone");
    let after = crouch_area("stand,prone,crouch");
    assert!(
        after < first,
        "crouch area {after} after prone, {first} before"
    );
    // A disabled pass produces nothing.
    let r = run(
        load(&sample_path("table_room.obj")),
        params(&[("passes", ParamValue::Text("stand".into()))]),
    );
    assert!(navmesh(&r).nodes.iter().all(|n| n.stance == Stance::Stand));
}
