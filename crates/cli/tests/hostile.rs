//! Hostile and large input through the real `navscope-cli` binary: each
//! hostile case in the loaders' and the CLI's scope, at sizes that run
//! in seconds in a debug build. Every run happens under a lowered
//! address-space limit (`ulimit -v`), so a case that allocates gigabytes
//! fails here as it would for a user, and under a deadline, so a hang
//! fails instead of stalling the suite. Speed itself is measured by the
//! benchmarks (`cargo bench -p navscope-levels`, `navscope-cli bench`),
//! never here.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_navscope-cli");

/// Address-space ceiling for every run: far below what an unchecked
/// allocation of a hostile input reaches (gigabytes), well above what a
/// sound run needs.
const CEILING_MB: u64 = 1024;

/// Generous deadline for one run in a debug build.
const DEADLINE: Duration = Duration::from_secs(90);

/// What a run left behind.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// A scratch folder of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("navscope-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the CLI in `dir` under the address-space ceiling and the deadline.
fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_under(dir, CEILING_MB, args)
}

/// Runs the CLI in `dir` under an address-space ceiling of `ceiling_mb`
/// MB and the deadline.
fn run_under(dir: &Path, ceiling_mb: u64, args: &[&str]) -> Run {
    let (out, err) = (dir.join(".stdout"), dir.join(".stderr"));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {}; exec \"$0\" \"$@\"",
            ceiling_mb * 1024
        ))
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("run navscope-cli");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("navscope-cli {args:?} did not finish within {DEADLINE:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(out).unwrap_or_default(),
        stderr: std::fs::read_to_string(err).unwrap_or_default(),
    }
}

/// Asserts a clean failure: `code`, exactly one line on stderr that starts
/// with `prefix` (the file, or `navscope-cli:`), contains `needle`, has
/// no Rust debug text and no long numbers.
fn assert_refused(r: &Run, code: i32, prefix: &str, needle: &str) {
    let line = r.stderr.strip_suffix('\n').unwrap_or(&r.stderr);
    assert_eq!(r.code, code, "exit status; stderr: {}", r.stderr);
    assert!(
        !line.is_empty() && !line.contains('\n'),
        "one line: {:?}",
        r.stderr
    );
    assert!(line.starts_with(prefix), "starts with {prefix:?}: {line}");
    assert_eq!(
        line.matches(prefix).count(),
        1,
        "names the file once: {line}"
    );
    assert!(line.contains(needle), "says {needle:?}: {line}");
    assert!(
        !line.contains('{') && !line.contains("Error("),
        "no debug text: {line}"
    );
    assert!(
        !line
            .split(|c: char| !c.is_ascii_digit())
            .any(|digits| digits.len() > 12),
        "numbers short: {line}"
    );
}

/// A floor plan JSON with this outer ring and no holes.
fn plan_json(outer: &[[f64; 2]]) -> String {
    format!(
        "{{\"format\": \"navscope-floorplan\", \"version\": 1, \"outer\": {}}}",
        serde_json::to_string(outer).unwrap()
    )
}

/// The six planes of a 128 x 128 x 32 unit cube brush in `.map` syntax.
const CUBE_BRUSH: &str = "( -64 -64 -16 ) ( -64 -63 -16 ) ( -64 -64 -15 ) a 0 0 0 1 1\n\
                          ( -64 -64 -16 ) ( -64 -64 -15 ) ( -63 -64 -16 ) a 0 0 0 1 1\n\
                          ( -64 -64 -16 ) ( -63 -64 -16 ) ( -64 -63 -16 ) a 0 0 0 1 1\n\
                          ( 64 64 16 ) ( 64 65 16 ) ( 65 64 16 ) a 0 0 0 1 1\n\
                          ( 64 64 16 ) ( 65 64 16 ) ( 64 64 17 ) a 0 0 0 1 1\n\
                          ( 64 64 16 ) ( 64 64 17 ) ( 64 65 16 ) a 0 0 0 1 1\n";

#[test]
fn large_generated_plans_validate_within_the_ceiling() {
    let dir = scratch("large");
    // The shapes that were quadratic: many holes (ring_side per hole), a
    // maze of wall islands, a star whose edges all overlap in their boxes.
    for (args, file) in [
        (
            &["generate", "big-floor-plan", "--vertices", "200000"][..],
            "big.json",
        ),
        (
            &["generate", "maze", "--width", "300", "--height", "300"][..],
            "maze.json",
        ),
        (
            &["generate", "star", "--vertices", "100000"][..],
            "star.json",
        ),
    ] {
        let mut a = args.to_vec();
        a.extend(["--out", file]);
        let r = run_in(&dir, &a);
        assert_eq!(r.code, 0, "{a:?}: {}", r.stderr);
        let r = run_in(&dir, &["info", file]);
        assert_eq!(r.code, 0, "info {file}: {}", r.stderr);
        assert!(r.stdout.contains("floor plan"), "{}", r.stdout);
    }
}

#[test]
fn files_that_are_not_regular_files_are_refused_at_once() {
    let dir = scratch("special");
    let made = Command::new("mkfifo").arg(dir.join("pipe.json")).status();
    assert!(
        made.is_ok_and(|s| s.success()),
        "mkfifo is needed for this test"
    );
    // With no writer, opening the FIFO would block for ever.
    for args in [
        &["info", "pipe.json"][..],
        &["build", "pipe.json", "--pipeline", "convex"][..],
        &["path", "pipe.json", "--from", "0,0,0", "--to", "1,0,1"][..],
    ] {
        let r = run_in(&dir, args);
        assert_refused(
            &r,
            1,
            "pipe.json: ",
            "is a FIFO (named pipe), not a regular file",
        );
    }
    // A device that never ends, and a directory.
    let r = run_in(&dir, &["info", "/dev/zero"]);
    assert_refused(&r, 1, "/dev/zero: ", "is a device, not a regular file");
    std::fs::create_dir_all(dir.join("level.json")).unwrap();
    let r = run_in(&dir, &["build", "level.json"]);
    assert_refused(&r, 1, "level.json: ", "is a directory, not a regular file");
    // A preset that is a FIFO is refused the same way.
    std::fs::write(
        dir.join("plan.json"),
        plan_json(&[[0., 0.], [4., 0.], [4., 4.], [0., 4.]]),
    )
    .unwrap();
    let r = run_in(
        &dir,
        &[
            "build",
            "plan.json",
            "--pipeline",
            "convex",
            "--preset",
            "pipe.json",
        ],
    );
    assert_refused(&r, 1, "pipe.json: ", "not a regular file");
}

#[test]
fn coordinates_beyond_the_bound_are_refused_with_the_bound() {
    let dir = scratch("bound");
    let s = 1e140;
    std::fs::write(
        dir.join("huge.json"),
        plan_json(&[[0., 0.], [s, 0.], [s, s], [0., s]]),
    )
    .unwrap();
    let r = run_in(
        &dir,
        &[
            "build",
            "huge.json",
            "--pipeline",
            "convex",
            "--out",
            "mesh.json",
        ],
    );
    assert_refused(
        &r,
        1,
        "huge.json: ",
        "outer: vertex 1: coordinate 1.0e140 is beyond the largest allowed, ±100000 m",
    );
    assert!(!dir.join("mesh.json").exists(), "no NavMesh is written");
    // Just inside the bound loads and builds a NavMesh without null.
    let s = 1e5;
    std::fs::write(
        dir.join("edge.json"),
        plan_json(&[[0., 0.], [s, 0.], [s, s], [0., s]]),
    )
    .unwrap();
    let r = run_in(
        &dir,
        &[
            "build",
            "edge.json",
            "--pipeline",
            "convex",
            "--out",
            "mesh.json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mesh: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mesh.json")).unwrap()).unwrap();
    let nodes = mesh["nodes"].as_array().unwrap();
    assert!(!nodes.is_empty());
    for n in nodes {
        let corners = n["polygon"].as_array().into_iter().flatten();
        for p in std::iter::once(&n["position"]).chain(corners) {
            assert!(
                p.as_array()
                    .unwrap()
                    .iter()
                    .all(|c| c.as_f64().is_some_and(f64::is_finite)),
                "a coordinate that is not a number: {n}"
            );
        }
    }
}

#[test]
fn obj_numbers_and_faces_out_of_range_are_named() {
    let dir = scratch("obj");
    std::fs::write(
        dir.join("f32.obj"),
        "v 0 0 0\nv 1e39 0 0\nv 0 0 1\nf 1 2 3\n",
    )
    .unwrap();
    let r = run_in(&dir, &["info", "f32.obj"]);
    assert_refused(
        &r,
        1,
        "f32.obj: ",
        "line 2: vertex 2: 1.0e39 overflows a 32-bit float (OBJ coordinates are read as f32, largest 3.4e38)",
    );
    std::fs::write(
        dir.join("far.obj"),
        "v 0 0 0\nv 2e5 0 0\nv 0 0 1\nf 1 2 3\n",
    )
    .unwrap();
    let r = run_in(&dir, &["build", "far.obj", "--pipeline", "voxel"]);
    assert_refused(
        &r,
        1,
        "far.obj: ",
        "coordinate 200000 is beyond the largest allowed, ±100000 m",
    );
    // One face of 200,000 corners on a circle: refused with the limit.
    let n = 200_000;
    let mut obj = String::with_capacity(n * 40);
    for i in 0..n {
        let a = i as f64 / n as f64 * std::f64::consts::TAU;
        writeln!(obj, "v {} 0 {}", 50.0 * a.cos(), 50.0 * a.sin()).unwrap();
    }
    obj.push('f');
    for i in 1..=n {
        write!(obj, " {i}").unwrap();
    }
    obj.push('\n');
    std::fs::write(dir.join("disc.obj"), obj).unwrap();
    let r = run_in(&dir, &["build", "disc.obj", "--pipeline", "voxel"]);
    assert_refused(
        &r,
        1,
        "disc.obj: ",
        "line 200001: face has 200000 corners, more than the limit of 1024 per face",
    );
}

#[test]
fn a_map_scale_that_puts_it_out_of_range_is_named() {
    let dir = scratch("map");
    let cube = CUBE_BRUSH;
    let map =
        format!("// navscope: scale=1e300\n{{\n\"classname\" \"worldspawn\"\n{{\n{cube}}}\n}}\n");
    std::fs::write(dir.join("far.map"), map).unwrap();
    let r = run_in(&dir, &["build", "far.map", "--pipeline", "cspace"]);
    assert_refused(
        &r,
        1,
        "far.map: ",
        "line 1: scale 1.0e300 puts the map at coordinates like",
    );
}

#[test]
fn generators_refuse_what_the_loaders_refuse() {
    let dir = scratch("generate");
    let r = run_in(
        &dir,
        &[
            "generate",
            "stacked-floors",
            "--floors",
            "1000000",
            "--out",
            "tower.ron",
        ],
    );
    assert_refused(
        &r,
        2,
        "navscope-cli: tower.ron: ",
        "up to 1000000 layers, more than the loader accepts (10000 layers); refusing to generate it",
    );
    assert!(!dir.join("tower.ron").exists(), "nothing written");
    // At the limit the file is written and loads.
    let r = run_in(
        &dir,
        &[
            "generate",
            "stacked-floors",
            "--floors",
            "2000",
            "--out",
            "tall.ron",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_in(&dir, &["info", "tall.ron"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Sizes of zero make the smallest level of the kind, which loads (a
    // raster of size 0 once panicked in the PNG encoder).
    for (args, file) in [
        (
            &["dotted-raster", "--size", "0", "--spacing", "0"][..],
            "z.png",
        ),
        (&["star", "--vertices", "0"][..], "z.json"),
        (&["maze", "--width", "0", "--height", "0"][..], "m.json"),
    ] {
        let mut a = vec!["generate"];
        a.extend(args);
        a.extend(["--out", file]);
        let r = run_in(&dir, &a);
        assert_eq!(r.code, 0, "{a:?}: {}", r.stderr);
        let r = run_in(&dir, &["info", file]);
        assert_eq!(r.code, 0, "info {file}: {}", r.stderr);
    }
}

#[test]
fn every_argument_error_is_one_line_with_status_2() {
    let dir = scratch("args");
    std::fs::write(
        dir.join("plan.json"),
        plan_json(&[[0., 0.], [4., 0.], [4., 4.], [0., 4.]]),
    )
    .unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["path", "plan.json", "--from", "1,2", "--to", "1,0,1"],
            "--from",
        ),
        (
            &["path", "plan.json", "--from", "1,0,1", "--to", "x,y,z"],
            "--to",
        ),
        (&["path", "plan.json", "--from", "1,0,1"], "--to"),
        (&["build", "plan.json", "--set", "tau"], "is not NAME=VALUE"),
        (
            &[
                "build",
                "plan.json",
                "--pipeline",
                "convex",
                "--set",
                "tau=1e300",
            ],
            "1.0e300",
        ),
        (
            &["build", "plan.json", "--pipeline", "nope"],
            "unknown pipeline",
        ),
        (&["bench", "plan.json", "--runs", "0"], "--runs"),
        (&["build", "plan.json", "--bogus"], "--bogus"),
        (&["frobnicate"], "frobnicate"),
        (&["generate", "star"], "--out"),
        (&["info", "plan.json", "--budget", "lots"], "is not a size"),
    ];
    for (args, needle) in cases {
        let r = run_in(&dir, args);
        assert_refused(&r, 2, "navscope-cli: ", needle);
    }
    // Help is not an error.
    let r = run_in(&dir, &["--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Usage"), "{}", r.stdout);
}

#[test]
fn broken_images_are_described_without_debug_text() {
    let dir = scratch("png");
    let good = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/navgraph/arena.png"),
    )
    .unwrap();
    // A broken header checksum, an unknown critical chunk name, broken
    // compressed data.
    for (at, flip) in [(29usize, 0xffu8), (12, 0x20), (45, 0x5a)] {
        let mut bad = good.clone();
        bad[at] ^= flip;
        let mut f = std::fs::File::create(dir.join("bad.png")).unwrap();
        f.write_all(&bad).unwrap();
        drop(f);
        let r = run_in(&dir, &["info", "bad.png"]);
        assert_refused(&r, 1, "bad.png: ", "PNG");
        assert!(!r.stderr.contains("ChunkType"), "{}", r.stderr);
    }
}

#[test]
fn a_vertex_a_hair_off_a_wall_builds() {
    // 1e-13 m off the top wall, outside or inside: the convex pipeline
    // builds, and does not ask "(is the plan closed?)".
    let dir = scratch("hair");
    for off in [1e-13, -1e-13] {
        std::fs::write(
            dir.join("hair.json"),
            plan_json(&[[0., 0.], [10., 0.], [10., 10.], [5., 10. + off], [0., 10.]]),
        )
        .unwrap();
        let r = run_in(&dir, &["build", "hair.json", "--pipeline", "convex"]);
        assert_eq!(r.code, 0, "{off}: {}", r.stderr);
    }
}

#[test]
fn a_raster_of_many_dots_builds_its_graphs_or_is_refused_by_the_budget() {
    // A dot every 4 px at 1 m per pixel: every art-gallery guard sees far
    // along the open rows, which made the guard search quadratic.
    let dir = scratch("dots");
    let r = run_in(
        &dir,
        &[
            "generate",
            "dotted-raster",
            "--size",
            "400",
            "--out",
            "dots.png",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.join("dots.png.ron").exists(), "the sidecar is written");
    let r = run_in(
        &dir,
        &[
            "build",
            "dots.png",
            "--pipeline",
            "navgraph",
            "--set",
            "agent_radius=0",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // 100 x 100 dots, each a hole of four vertices.
    assert!(r.stdout.contains("holes 10000"), "{}", r.stdout);
    assert!(r.stdout.contains("guards "), "{}", r.stdout);
    // A larger one whose dual graph does not fit a lowered budget is
    // refused before it is built, naming what it would need.
    let r = run_in(
        &dir,
        &[
            "generate",
            "dotted-raster",
            "--size",
            "600",
            "--out",
            "more.png",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let build = |budget: &str, out: &str| {
        run_under(
            &dir,
            DOTS_600_CEILING_MB,
            &[
                "build",
                "more.png",
                "--pipeline",
                "navgraph",
                "--set",
                "agent_radius=0",
                "--budget",
                budget,
                "--out",
                out,
            ],
        )
    };
    // Refused before the triangulation is built, from the triangle count
    // the simplified rings predict (22,500 dots of four vertices: 90,004 + 2 × 22,500 − 2
    // triangles).
    let r = build("128M", "refused.json");
    assert_refused(&r, 1, "more.png: ", "stage 'triangulate': would need ~");
    assert!(
        r.stderr
            .contains("would need ~158 MB for the dual graph of 135002 triangles")
            && r.stderr.contains("the budget is 128 MB"),
        "{}",
        r.stderr
    );
    assert!(!dir.join("refused.json").exists());
    // Admitted by a budget just above that estimate, it builds and writes
    // its NavMesh within an address space not much larger: the build holds
    // one NavMesh and little else, and its links are 32 bytes.
    // (The 340 MB of JSON are streamed to /dev/null, not kept on disk.)
    let r = build("192M", "/dev/null");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("navmesh: 225006 nodes, 1620024 links"),
        "{}",
        r.stdout
    );
}

/// Address-space ceiling for building the 600 × 600 px dotted raster: its
/// estimate is 158 MB and its resident peak 165 MB; it needs between 300
/// and 350 MB of address space (binary, stacks and the allocator arenas of
/// the graph stage's two threads included).
const DOTS_600_CEILING_MB: u64 = 400;

#[test]
fn a_map_of_thousands_of_identical_cubes_builds() {
    // Every brush overlaps every other: all pairs are in range, yet the
    // union visits one neighbour per face of each but the first brush.
    let dir = scratch("cubes");
    let cube = CUBE_BRUSH;
    let n = 5000;
    let mut map = String::from("{\n\"classname\" \"worldspawn\"\n");
    for _ in 0..n {
        writeln!(map, "{{\n{cube}}}").unwrap();
    }
    map.push_str("}\n");
    std::fs::write(dir.join("cubes.map"), map).unwrap();
    // The pipeline's own agent (standing and crouching), not the Quake
    // player a `.map` gets by default, which does not crouch.
    let args = [
        "build",
        "cubes.map",
        "--pipeline",
        "cspace",
        "--agent",
        "default",
    ];
    let r = run_in(&dir, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Two agent sizes, each with every ordered pair in range.
    let pairs = 2 * n * (n - 1);
    assert!(
        r.stdout.contains(&format!("brush pairs in range {pairs}")),
        "{}",
        r.stdout
    );
    // The union of identical cubes is one cube.
    assert!(r.stdout.contains("faces kept 12"), "{}", r.stdout);
}

/// A `.map` of a 32 m floor and one 2 m cube `d` metres off along both
/// axes (1/32 m per map unit).
fn floor_and_far_cube(d: i64) -> String {
    let brush = |lo: [i64; 3], hi: [i64; 3]| {
        let [x0, y0, z0] = lo;
        let [x1, y1, z1] = hi;
        format!(
            "{{\n( {x0} {y0} {z0} ) ( {x0} {} {z0} ) ( {x0} {y0} {} ) a 0 0 0 1 1\n\
             ( {x0} {y0} {z0} ) ( {x0} {y0} {} ) ( {} {y0} {z0} ) a 0 0 0 1 1\n\
             ( {x0} {y0} {z0} ) ( {} {y0} {z0} ) ( {x0} {} {z0} ) a 0 0 0 1 1\n\
             ( {x1} {y1} {z1} ) ( {x1} {} {z1} ) ( {} {y1} {z1} ) a 0 0 0 1 1\n\
             ( {x1} {y1} {z1} ) ( {} {y1} {z1} ) ( {x1} {y1} {} ) a 0 0 0 1 1\n\
             ( {x1} {y1} {z1} ) ( {x1} {y1} {} ) ( {x1} {} {z1} ) a 0 0 0 1 1\n}}\n",
            y0 + 1,
            z0 + 1,
            z0 + 1,
            x0 + 1,
            x0 + 1,
            y0 + 1,
            y1 + 1,
            x1 + 1,
            x1 + 1,
            z1 + 1,
            z1 + 1,
            y1 + 1
        )
    };
    let u = d * 32;
    format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{}}}\n",
        brush([-512, -512, -16], [512, 512, 0]),
        brush([u, u, 0], [u + 64, u + 64, 64])
    )
}

#[test]
fn a_brush_kilometres_from_the_floor_builds_in_little_memory() {
    // The crouch grid once covered the whole bounding box: 5.5 GB at 30 km.
    let dir = scratch("far");
    for d in [3_000, 30_000] {
        std::fs::write(dir.join("far.map"), floor_and_far_cube(d)).unwrap();
        let r = run_in(&dir, &["build", "far.map", "--pipeline", "cspace"]);
        assert_eq!(r.code, 0, "{d} m: {}", r.stderr);
        assert!(r.stdout.contains("navmesh: "), "{}", r.stdout);
    }
}

#[test]
fn a_voxel_grid_too_fine_for_the_budget_is_refused_with_the_remedy() {
    // A 409 m quad and another 2.9 km above it: the heightfield of 0.1 m
    // cells would take gigabytes.
    let dir = scratch("quads");
    std::fs::write(
        dir.join("quads.obj"),
        "v 0 0 0\nv 409 0 0\nv 409 0 409\nv 0 0 409\nf 1 4 3 2\n\
         v 0 2900 0\nv 409 2900 0\nv 409 2900 409\nv 0 2900 409\nf 5 8 7 6\n",
    )
    .unwrap();
    let r = run_in(&dir, &["build", "quads.obj", "--pipeline", "voxel"]);
    assert_refused(&r, 1, "quads.obj: ", "stage 'tiles': would need ~");
    assert!(
        r.stderr.contains("409 m × 409 m") && r.stderr.contains("cell_size"),
        "{}",
        r.stderr
    );
}

#[test]
fn blockers_and_plans_beyond_the_geometry_crates_ranges_are_one_line() {
    // A radius of 1e200 once panicked inside i_overlay with 18 lines of
    // backtrace; a node inside a 1e200 square was "outside the free space".
    let dir = scratch("nodes");
    std::fs::write(
        dir.join("cyl.ron"),
        "FloorPlan(outer: [(0, 0), (16, 0), (16, 12), (0, 12)], \
         nodes: [(name: \"a\", at: (1, 1)), (name: \"b\", at: (15, 11)), (name: \"c\", at: (1, 11))], \
         blockers: [cylinder(center: (8, 6), radius: 1e200)])\n",
    )
    .unwrap();
    let r = run_in(&dir, &["build", "cyl.ron", "--pipeline", "navgraph-nodes"]);
    assert_refused(
        &r,
        1,
        "cyl.ron: ",
        "blocker 0: radius 1.0e200 is beyond the largest allowed, ±100000 m",
    );
    std::fs::write(
        dir.join("huge.ron"),
        "FloorPlan(outer: [(0, 0), (1e200, 0), (1e200, 1e200), (0, 1e200)], \
         nodes: [(name: \"a\", at: (1, 1)), (name: \"b\", at: (5, 1)), (name: \"c\", at: (1, 5))])\n",
    )
    .unwrap();
    let r = run_in(&dir, &["build", "huge.ron", "--pipeline", "navgraph-nodes"]);
    assert_refused(
        &r,
        1,
        "huge.ron: ",
        "outer: vertex 1: coordinate 1.0e200 is beyond the largest allowed, ±100000 m",
    );
    assert!(!r.stderr.contains("free space"), "{}", r.stderr);
}

#[test]
fn a_png_header_of_30000_squared_is_refused_before_decoding() {
    let dir = scratch("bigpng");
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        c.extend_from_slice(kind);
        c.extend_from_slice(data);
        c.extend_from_slice(&png_crc(kind, data).to_be_bytes());
        c
    };
    let mut ihdr = 30000u32.to_be_bytes().to_vec();
    ihdr.extend(30000u32.to_be_bytes());
    ihdr.extend([8, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    // A little image data: a zlib stream of one stored block of zeros.
    let zeros = [0u8; 64];
    let mut idat = vec![0x78, 0x01, 0x01, 64, 0, !64, 0xff];
    idat.extend(zeros);
    idat.extend(adler32(&zeros).to_be_bytes());
    png.extend(chunk(b"IDAT", &idat));
    png.extend(chunk(b"IEND", b""));
    std::fs::write(dir.join("big.png"), png).unwrap();
    for args in [&["info", "big.png"][..], &["build", "big.png"][..]] {
        let r = run_in(&dir, args);
        assert_refused(
            &r,
            1,
            "big.png: ",
            "image 30000x30000: 900000000 pixels exceed",
        );
    }
}

/// The CRC-32 of PNG chunks (ISO 3309) over `kind` then `data`.
fn png_crc(kind: &[u8], data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in kind.iter().chain(data) {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The Adler-32 checksum of a zlib stream's data.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}
