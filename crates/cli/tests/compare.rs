//! End-to-end tests of `navscope-cli compare` and of `info` listing the
//! pipelines a level reaches through a conversion.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use support::cli;

const PLAN: &str = "assets/levels/floorplan/default.json";

/// `compare` of the default plan, `convex` (A) against `voxel` (B), with
/// `extra` arguments.
fn convex_vs_voxel(extra: &[&str]) -> Output {
    let mut args = vec![
        "compare",
        PLAN,
        "--pipeline",
        "convex",
        "--against-pipeline",
        "voxel",
    ];
    args.extend_from_slice(extra);
    cli(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("navscope-cli-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn convex_against_voxel_prints_the_table_the_areas_and_the_probe_and_draws_them() {
    let png = temp("convex-voxel.png");
    let o = convex_vs_voxel(&[
        "--from",
        "15,0,12",
        "--to",
        "30,0,3",
        "--png",
        png.to_str().unwrap(),
        "--png-width",
        "640",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for row in [
        "A (convex)",
        "B (voxel)",
        "nodes",
        "links: portal",
        "links: walk",
        "walkable area (m2)",
        "time: total (ms)",
        "count: notches.notches",
        "memory: navmesh (KiB)",
        "footprint difference",
        "probe:",
        "total",
    ] {
        assert!(out.contains(row), "no '{row}' in\n{out}");
    }
    // convex covers the whole plan, voxel keeps its radius from the walls.
    let total = out.lines().find(|l| l.starts_with("total")).unwrap();
    let nums: Vec<f64> = total
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(nums[0] > 50.0 && nums[1] < 1.0, "{total}");
    // 40 x 24 m at 640 px wide: 608 px for 40 m, so 365 rows, margins and legend.
    let (w, h) = png_size(&png);
    assert_eq!(w, 640);
    assert!((h as i64 - (365 + 32 + 28)).abs() <= 2, "{h}");
    assert!(out.contains(&format!("({w} x {h})")), "{out}");
}

#[test]
fn json_names_both_sides_and_a_build_against_itself_differs_nowhere() {
    let o = cli(&[
        "compare",
        PLAN,
        "--pipeline",
        "convex",
        "--against",
        "tau=5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["a"]["params"]["tau"], 0.0);
    assert_eq!(v["b"]["params"]["tau"], 5.0);
    let nodes = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "nodes")
        .unwrap();
    assert!(
        nodes["a"].as_f64().unwrap() > 0.0 && nodes["delta"].is_number(),
        "{nodes}"
    );
    // tau changes the cells, not the area they cover.
    assert!(v["difference"]["a_only_m2"].as_f64().unwrap() < 1e-6, "{v}");
    assert!(v["difference"]["b_only_m2"].as_f64().unwrap() < 1e-6, "{v}");
    assert!(v["probe"].is_null());
}

#[test]
fn a_saved_pair_loads_back_to_the_same_comparison() {
    let pair = temp("pair.ron");
    let first = cli(&[
        "compare",
        PLAN,
        "--pipeline",
        "convex",
        "--against",
        "tau=5",
        "--save-pair",
        pair.to_str().unwrap(),
        "--json",
    ]);
    assert!(first.status.success());
    let again = cli(&["compare", PLAN, "--pair", pair.to_str().unwrap(), "--json"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let value = |o: &Output| -> serde_json::Value { serde_json::from_str(&stdout(o)).unwrap() };
    let (a, b) = (value(&first), value(&again));
    assert_eq!(a["b"]["params"], b["b"]["params"]);
    assert_eq!(a["difference"]["common_m2"], b["difference"]["common_m2"]);
}

#[test]
fn a_missing_side_b_or_a_bad_setting_is_a_usage_error() {
    let o = cli(&["compare", PLAN, "--pipeline", "convex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs side B"));
    let o = cli(&[
        "compare",
        PLAN,
        "--pipeline",
        "convex",
        "--against",
        "nope=1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = cli(&["compare", PLAN, "--against-pipeline", "cspace"]);
    assert_eq!(o.status.code(), Some(2), "cspace does not read floor plans");
}

#[test]
fn info_lists_the_pipelines_a_conversion_reaches() {
    let o = cli(&["info", PLAN]);
    assert!(o.status.success());
    let line = stdout(&o)
        .lines()
        .find(|l| l.starts_with("pipelines"))
        .unwrap()
        .to_string();
    assert!(line.contains("convex") && line.contains("voxel"), "{line}");
    let o = cli(&["info", "assets/levels/raster/office.png"]);
    let line = stdout(&o)
        .lines()
        .find(|l| l.starts_with("pipelines"))
        .unwrap()
        .to_string();
    assert!(
        line.contains("navgraph") && line.contains("convex") && line.contains("voxel"),
        "{line}"
    );
}

#[test]
fn both_sides_honour_the_memory_budget() {
    // The voxel heightfield of the default plan needs far more than 64 KB;
    // the budget must reach the builds, not only the loader.
    let o = convex_vs_voxel(&["--budget", "64K"]);
    assert!(
        !o.status.success(),
        "a 64 KB budget must refuse the voxel side"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("the budget is 64 KB") && err.contains("stage '"),
        "names the stage and the budget: {err}"
    );
    // The same comparison under the default budget builds.
    let o = convex_vs_voxel(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
