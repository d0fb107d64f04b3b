//! End-to-end tests of the `navscope-cli` binary: the DESIGN.md CLI contract
//! (commands, JSON shapes, exit statuses, one-line errors naming the file).

mod support;

use std::path::{Path, PathBuf};

use support::{cli, cli_json, root, stderr, stdout};

/// `path --json` on the navmesh corridor sample from (0.5, 0, 0.5) to `to`.
fn corridor_path(to: &str) -> serde_json::Value {
    cli_json(&[
        "path",
        "assets/levels/navmesh/corridor.json",
        "--pipeline",
        "navmesh",
        "--from",
        "0.5,0,0.5",
        "--to",
        to,
        "--json",
    ])
}

/// Every sample level (sidecars excluded), as paths relative to the root.
fn sample_levels() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("assets/levels"), &mut files);
    files
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            // `x.png.ron` and `x.ron` beside `x.png` are raster sidecars.
            let sidecar = name.ends_with(".png.ron")
                || (name.ends_with(".ron") && p.with_extension("png").exists());
            !sidecar && !name.ends_with(".md")
        })
        .map(|p| {
            p.strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn info_succeeds_on_every_sample_level() {
    let levels = sample_levels();
    assert!(
        levels.len() >= 10,
        "expected the bundled samples, found {levels:?}"
    );
    for l in &levels {
        let o = cli(&["info", l]);
        assert!(o.status.success(), "info {l} failed: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with(l.as_str()),
            "info {l} names the file: {}",
            stdout(&o)
        );
    }
}

/// A copy of `bytes` cut in half, with a line of junk where the cut is: no
/// format accepts it.
fn corrupted(bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes[..bytes.len() / 2].to_vec();
    b.extend_from_slice(b"\n}}} ]]\n\x01\x02 @@@\nf 1 2 999999999\nv nan nan nan\n");
    b
}

#[test]
fn truncated_or_corrupted_levels_fail_with_one_line_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("navscope-cli-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for l in sample_levels() {
        let src = root().join(&l);
        let bytes = std::fs::read(&src).unwrap();
        let name = src.file_name().unwrap();
        for (what, data) in [
            ("truncated", bytes[..bytes.len() / 3].to_vec()),
            ("corrupted", corrupted(&bytes)),
        ] {
            let copy = dir.join(what).join(name);
            std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
            std::fs::write(&copy, &data).unwrap();
            let copy_s = copy.to_string_lossy().to_string();
            let o = cli(&["info", &copy_s]);
            assert_eq!(
                o.status.code(),
                Some(1),
                "{what} copy of {l} should fail with status 1; stdout: {}",
                stdout(&o)
            );
            let err = stderr(&o);
            assert_eq!(
                err.trim_end().lines().count(),
                1,
                "{what} {l}: one line, got {err:?}"
            );
            assert!(
                err.contains(&copy_s),
                "{what} {l}: the message names the file: {err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn path_on_the_navmesh_sample_turns_the_corner() {
    let v = corridor_path("3.5,0,2.5");
    assert_eq!(v["found"], true);
    // Shortest path bends once, at the inner corner (3, 1).
    let expected = 6.5f64.sqrt() + 2.5f64.sqrt();
    assert!(
        (v["length"].as_f64().unwrap() - expected).abs() < 1e-9,
        "{v}"
    );
    let w = v["waypoints"].as_array().unwrap();
    assert_eq!(w.len(), 3, "{v}");
    assert_eq!(w[1]["position"], serde_json::json!([3.0, 0.0, 1.0]));
    assert_eq!(w[2]["stance"], "stand");
    assert!(v["expansions"].as_u64().unwrap() >= 5);
}

#[test]
fn path_off_the_mesh_is_reported_not_failed() {
    let v = corridor_path("50,0,50");
    assert_eq!(v["found"], false);
    assert_eq!(v["waypoints"], serde_json::json!([]));
    assert!(v["reason"].as_str().unwrap().contains("goal"), "{v}");
}

#[test]
fn build_writes_a_navmesh_that_keeps_the_contract() {
    let dir = std::env::temp_dir().join(format!("navscope-cli-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("mesh.json");
    let obj = dir.join("mesh.obj");
    let o = cli(&[
        "build",
        "assets/levels/floorplan/default.json",
        "--pipeline",
        "convex",
        "--set",
        "tau=5",
        "--out",
        json.to_str().unwrap(),
        "--obj",
        obj.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for stage in ["notches", "portals", "cells"] {
        assert!(
            out.lines().any(|l| l.starts_with(stage)),
            "stage table lists {stage}: {out}"
        );
    }
    let mesh = navscope_core::NavMesh::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(mesh.pipeline, "convex");
    assert!(!mesh.nodes.is_empty());
    assert!(
        mesh.stages
            .iter()
            .any(|s| s.id == "notches" && s.counts.contains_key("notches"))
    );
    for n in &mesh.nodes {
        let p = n.polygon.as_ref().unwrap();
        let shoelace: f64 = (0..p.len())
            .map(|i| p[i].x * p[(i + 1) % p.len()].z - p[(i + 1) % p.len()].x * p[i].z)
            .sum();
        assert!(
            shoelace < 0.0,
            "node {} winds counter-clockwise seen from above",
            n.id
        );
    }
    let obj_text = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(
        obj_text.lines().filter(|l| l.starts_with("f ")).count(),
        mesh.nodes.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_exit_2_and_bad_values_name_the_parameter() {
    let o = cli(&["build"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cli(&[
        "build",
        "assets/levels/floorplan/default.json",
        "--pipeline",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown pipeline 'nope'"),
        "{}",
        stderr(&o)
    );
    let o = cli(&[
        "build",
        "assets/levels/floorplan/default.json",
        "--set",
        "tau=500",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'tau'"), "{}", stderr(&o));
    let o = cli(&["path", "x.json", "--from", "1,2", "--to", "1,2,3"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_missing_level_fails_with_status_1() {
    let o = cli(&["info", "no/such/level.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no/such/level.json"), "{}", stderr(&o));
}

#[test]
fn bench_compares_variants() {
    let v = cli_json(&[
        "bench",
        "assets/levels/floorplan/default.json",
        "--pipeline",
        "convex",
        "--runs",
        "2",
        "--variant",
        "portal_removal=false",
        "--json",
    ]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["variant"], "base");
    assert_eq!(rows[1]["variant"], "portal_removal=false");
    assert_eq!(rows[0]["runs"], 2);
    assert!(
        rows[0]["metrics"]["cells"].as_f64().unwrap()
            <= rows[1]["metrics"]["cells"].as_f64().unwrap()
    );
}

#[test]
fn generated_levels_are_deterministic_and_load() {
    let dir = std::env::temp_dir().join(format!("navscope-cli-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    for (out, seed) in [(&a, "7"), (&b, "7")] {
        let o = cli(&[
            "generate",
            "floor-plan",
            "--obstacles",
            "12",
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let o = cli(&["info", a.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .lines()
            .any(|l| l.starts_with("holes") && l.trim_end().ends_with("12")),
        "{}",
        stdout(&o)
    );
    let ron = dir.join("maze.ron");
    let o = cli(&[
        "generate",
        "brush-maze",
        "--width",
        "3",
        "--height",
        "3",
        "--out",
        ron.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(cli(&["info", ron.to_str().unwrap()]).status.success());
    let o = cli(&[
        "generate",
        "star",
        "--vertices",
        "99999999",
        "--out",
        ron.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generate_without_out_is_a_usage_error() {
    let o = cli(&["generate", "maze"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
}

/// `path --json` with a pipeline on a level.
fn pipeline_path(level: &str, pipeline: &str, from: &str, to: &str) -> serde_json::Value {
    cli_json(&[
        "path",
        level,
        "--pipeline",
        pipeline,
        "--from",
        from,
        "--to",
        to,
        "--json",
    ])
}

#[test]
fn path_on_a_navgraph_raster_is_the_super_graph_answer() {
    let level = "assets/levels/navgraph/islands.png";
    // Inside one wing (a lane between pillars): found by the two-level
    // search, which says so.
    let v = pipeline_path(level, "navgraph", "1.25,0,1.25", "15,0,15");
    assert_eq!(v["found"], true, "{v}");
    assert!(
        v["summary"].as_str().unwrap().contains("regions expanded"),
        "{v}"
    );
    assert!(v["expansions"].is_null(), "{v}");
    let w = v["waypoints"].as_array().unwrap();
    assert_eq!(
        w[0]["position"],
        serde_json::json!([1.25, 0.0, 1.25]),
        "{v}"
    );
    // Across the wings: the super-graph proves there is no way.
    let v = pipeline_path(level, "navgraph", "1.25,0,1.25", "38.75,0,18.75");
    assert_eq!(v["found"], false, "{v}");
    assert!(v["reason"].as_str().unwrap().contains("super-graph"), "{v}");
}

#[test]
fn path_on_a_layers_level_is_the_corridor_planner_answer() {
    let v = pipeline_path(
        "assets/levels/layers/two_storey.ron",
        "layers",
        "1,0,1",
        "1,3,7",
    );
    assert_eq!(v["found"], true, "{v}");
    assert!(v["summary"].as_str().unwrap().contains("corridor"), "{v}");
    // Ground floor to the upper floor: the path climbs the stairs.
    let w = v["waypoints"].as_array().unwrap();
    assert_eq!(
        w.last().unwrap()["position"],
        serde_json::json!([1.0, 3.0, 1.0 + 6.0]),
        "{v}"
    );
    // The stairs are an inclined layer: no height changes without moving.
    for p in w.windows(2) {
        let (a, b) = (&p[0]["position"], &p[1]["position"]);
        let d = |i: usize| a[i].as_f64().unwrap() - b[i].as_f64().unwrap();
        let run = (d(0).powi(2) + d(2).powi(2)).sqrt();
        assert!(d(1).abs() <= 0.6 * run + 1e-4, "{a} -> {b}: {v}");
    }
}

#[test]
fn path_on_an_inclined_stair_climbs_it_without_jumps() {
    // The sample's stair flight is an inclined layer rising 3 m over 8 m
    // (world x 6 to 14): the path's heights follow it.
    let v = pipeline_path(
        "assets/levels/layers-samples/two_storeys.ron",
        "layers",
        "2,0,-6",
        "18,3,-3",
    );
    assert_eq!(v["found"], true, "{v}");
    let w: Vec<[f64; 3]> = v["waypoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| serde_json::from_value(p["position"].clone()).unwrap())
        .collect();
    assert!((w.last().unwrap()[1] - 3.0).abs() < 1e-4, "{v}");
    for p in w.windows(2) {
        let run = ((p[0][0] - p[1][0]).powi(2) + (p[0][2] - p[1][2]).powi(2)).sqrt();
        let rise = (p[0][1] - p[1][1]).abs();
        assert!(rise <= 0.375 * run + 1e-4, "{:?} -> {:?}: {v}", p[0], p[1]);
    }
    // The flight is walked as one straight climb from its foot to its head.
    assert!(
        w.windows(2)
            .any(|p| p[0][1].abs() < 1e-4 && (p[1][1] - 3.0).abs() < 1e-4),
        "climbs the flight: {v}"
    );
}

#[test]
fn a_small_budget_refuses_with_what_the_stage_would_need() {
    let o = cli(&[
        "build",
        "assets/levels/raster/office.png",
        "--pipeline",
        "navgraph",
        "--budget",
        "64K",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("office.png: stage 'binary': would need ~")
            && err.contains("px raster; the budget is 64 KB"),
        "{err}"
    );
    // The default budget builds it; a bad size is an argument error.
    let o = cli(&[
        "build",
        "assets/levels/raster/office.png",
        "--pipeline",
        "navgraph",
        "--budget",
        "2G",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = cli(&[
        "info",
        "assets/levels/raster/office.png",
        "--budget",
        "lots",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not a size"), "{}", stderr(&o));
}
