//! `navscope-cli path --queries FILE`: batch queries, their lines, summary
//! and JSON, on the navmesh corridor sample and on the shared polyanya
//! benchmark mesh.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use support::{cli, root};

/// A query file in the system's temporary folder.
fn query_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("navscope-queries-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

fn corridor(file: &Path, method: &str, json: bool) -> Output {
    let mut args = vec![
        "path",
        "assets/levels/navmesh/corridor.json",
        "--pipeline",
        "navmesh",
        "--queries",
        file.to_str().unwrap(),
        "--method",
        method,
    ];
    if json {
        args.push("--json");
    }
    cli(&args)
}

#[test]
fn point_lines_print_a_line_each_and_the_summary() {
    let f = query_file(
        "corridor.txt",
        "# from to\n0.5,0,0.5 3.5,0,2.5\n0.5,0,0.5 50,0,50\n0.5,0,0.5 0.5,0,0.5 0\n",
    );
    let o = corridor(&f, "polyanya", false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("0: length 4.13"), "{out}");
    assert!(lines[1].starts_with("1: no path"), "{out}");
    assert!(
        lines[2].starts_with("2: length 0.0000 (optimal 0.0000)"),
        "{out}"
    );
    assert!(lines[3].starts_with("3 queries, 2 found, median "), "{out}");
    assert!(
        lines[3].contains(" us, p95 ") && !lines[3].contains("optimal"),
        "{out}"
    );
}

#[test]
fn json_keeps_the_files_order_and_polyanya_is_never_longer_than_astar() {
    let f = query_file(
        "corridor-json.txt",
        "0.5,0,0.5 3.5,0,2.5 4.0\n0.5,0,0.5 50,0,50\n3.5,0,2.5 0.5,0,0.5\n",
    );
    let run = |method| {
        let o = corridor(&f, method, true);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let (p, a) = (run("polyanya"), run("astar"));
    let q = p["queries"].as_array().unwrap();
    assert_eq!(q.len(), 3);
    assert_eq!(q[1]["found"], false);
    assert_eq!(q[0].as_object().unwrap().len(), 4);
    assert!(q[0]["us"].as_f64().unwrap() > 0.0);
    // A search that finds a path expands at least its start and its goal;
    // a goal off the mesh is refused before any search.
    let expansions: Vec<u64> = q
        .iter()
        .map(|x| x["expansions"].as_u64().unwrap())
        .collect();
    assert!(expansions[0] >= 2 && expansions[2] >= 2, "{expansions:?}");
    assert_eq!(expansions[1], 0);
    assert_eq!(
        p["summary"]["expansions_max"].as_u64(),
        expansions.iter().max().copied()
    );
    // The path there and back has one length.
    assert!((q[0]["length"].as_f64().unwrap() - q[2]["length"].as_f64().unwrap()).abs() < 1e-9);
    for (x, y) in q.iter().zip(a["queries"].as_array().unwrap()) {
        assert_eq!(x["found"], y["found"]);
        assert!(x["length"].as_f64().unwrap() <= y["length"].as_f64().unwrap() + 1e-9);
    }
    let s = &p["summary"];
    assert_eq!(
        (s["queries"].as_u64(), s["found"].as_u64()),
        (Some(3), Some(2))
    );
    let ratio = s["ratio_max"].as_f64().unwrap();
    assert!((ratio - q[0]["length"].as_f64().unwrap() / 4.0).abs() < 1e-12);
}

#[test]
fn a_bad_query_file_names_the_file_and_line_and_missing_ends_are_a_usage_error() {
    let f = query_file("bad.txt", "0.5,0,0.5 3.5,0,2.5\n1,2 3\n");
    let o = corridor(&f, "polyanya", false);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.contains("bad.txt: line 2:"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let o = cli(&[
        "path",
        "assets/levels/navmesh/corridor.json",
        "--pipeline",
        "navmesh",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = corridor(&f, "dijkstra", false);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn every_arena_path_is_optimal() {
    let dir = root().join("../shared/data/polyanya-meshes");
    if !dir.join("arena-euclid.scen").is_file() {
        eprintln!("skipped: ../shared/data/polyanya-meshes is absent");
        return;
    }
    let (mesh, scen) = (dir.join("arena.mesh"), dir.join("arena-euclid.scen"));
    let o = cli(&[
        "path",
        mesh.to_str().unwrap(),
        "--pipeline",
        "convex",
        "--queries",
        scen.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let optimal: Vec<f64> = std::fs::read_to_string(&scen)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().last().unwrap().parse().unwrap())
        .collect();
    let q = v["queries"].as_array().unwrap();
    assert_eq!(q.len(), optimal.len());
    for (i, (r, opt)) in q.iter().zip(&optimal).enumerate() {
        assert_eq!(r["found"], true, "query {i}");
        let len = r["length"].as_f64().unwrap();
        assert!(
            len <= opt * 1.0001 + 1e-9 && len >= opt * 0.9999 - 1e-9,
            "query {i}: {len} against {opt}"
        );
    }
    assert!(v["summary"]["ratio_max"].as_f64().unwrap() <= 1.0001);
}

/// `build --polyanya` writes a mesh that loads back (as a floor plan, built
/// again with `convex`) and answers the same queries with the same lengths.
#[test]
fn a_written_polyanya_mesh_reads_back_and_keeps_the_path_lengths() {
    let out = std::env::temp_dir().join(format!("navscope-{}-small.mesh", std::process::id()));
    let level = "assets/levels/floorplan/small.json";
    let o = cli(&[
        "build",
        level,
        "--pipeline",
        "convex",
        "--polyanya",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("mesh\n2\n"), "{text}");
    let info = cli(&["info", out.to_str().unwrap()]);
    assert!(
        info.status.success(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
    // Queries between the original's polygon centres.
    let mesh_json =
        std::env::temp_dir().join(format!("navscope-{}-small.json", std::process::id()));
    let o = cli(&[
        "build",
        level,
        "--pipeline",
        "convex",
        "--out",
        mesh_json.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&mesh_json).unwrap()).unwrap();
    let centres: Vec<String> = m["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let p = n["position"].as_array().unwrap();
            format!("{},0,{}", p[0].as_f64().unwrap(), p[2].as_f64().unwrap())
        })
        .collect();
    assert!(centres.len() >= 2);
    let lines: String = centres
        .iter()
        .zip(centres.iter().rev())
        .map(|(a, b)| format!("{a} {b}\n"))
        .collect();
    let f = query_file("round-trip.txt", &lines);
    let lengths = |level: &str| {
        let o = cli(&[
            "path",
            level,
            "--pipeline",
            "convex",
            "--queries",
            f.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["queries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| (q["found"].as_bool().unwrap(), q["length"].as_f64().unwrap()))
            .collect::<Vec<_>>()
    };
    let (a, b) = (lengths(level), lengths(out.to_str().unwrap()));
    assert!(a.iter().all(|(found, _)| *found));
    for ((fa, la), (fb, lb)) in a.iter().zip(&b) {
        assert_eq!(fa, fb);
        assert!((la - lb).abs() < 1e-6, "{la} against {lb}");
    }
}
