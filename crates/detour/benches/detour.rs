//! Detour against navscope's Polyanya and A* with the funnel, in one
//! process, on the Recast demo meshes `nav_test.obj` and `dungeon.obj`
//! (`../shared/data/recast-meshes/`) built with the demo settings on both
//! sides: Recast + Detour from the C++ sources, navscope's `voxel`
//! pipeline with the equivalent `--set` list of issue #40.
//!
//! The queries are pairs of navscope node centres drawn with a fixed seed;
//! each engine answers each query alone (locating both ends included), the
//! least of `ROUNDS` rounds is its time, and the medians and means over
//! the pairs all three engines answer are printed per mesh first; then the
//! least time of each engine answering all those pairs once in sequence,
//! the engines taking turns (so a change of the machine's load between
//! them does not tilt the ratio). Then criterion times each engine
//! answering all those pairs per iteration (one engine after the other:
//! on a shared, loaded machine their ratio swings between runs).
//!
//! `cargo bench -p navscope-detour --bench detour`. Skips with a message
//! when the meshes or Detour's sources are absent (see the crate docs).

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::DVec3;
use navscope_core::level::LevelData;
use navscope_core::{NavMesh, ParamValues, Runner};
use navscope_detour::Detour;
use navscope_path::{PathError, PathFinder, SearchOptions, path_length};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/recast-meshes"
);
const MESHES: [&str; 2] = ["nav_test.obj", "dungeon.obj"];
const PAIRS: usize = 1000;
const ROUNDS: usize = 3;

/// The Recast demo's settings as navscope's `voxel` parameters (issue #40).
const DEMO: [(&str, &str); 11] = [
    ("cell_size", "0.3"),
    ("cell_height", "0.2"),
    ("stand.height", "2.0"),
    ("stand.radius", "0.6"),
    ("stand.max_step", "0.9"),
    ("stand.max_slope", "45"),
    ("passes", "stand"),
    ("max_error", "0.39"),
    ("max_edge_len", "12"),
    ("filter_ledge_spans", "true"),
    ("tile_size", "0"),
];

/// One mesh as both engines see it.
struct Side {
    name: &'static str,
    mesh: NavMesh,
    finder: PathFinder,
    detour: Detour,
    pairs: Vec<(DVec3, DVec3)>,
}

/// navscope's voxel NavMesh of the level with the demo settings.
fn navscope_mesh(path: &Path) -> NavMesh {
    let level = navscope_levels::load(path).unwrap_or_else(|e| panic!("{e}"));
    let pipeline = navscope_pipelines::by_id("voxel").expect("the voxel pipeline");
    let mut values = ParamValues::defaults(&pipeline.params);
    for (name, text) in DEMO {
        let spec = navscope_core::params::spec(&pipeline.params, name).expect(name);
        let v = spec.parse(text).expect(name);
        values.set(&pipeline.params, name, v).expect(name);
    }
    let n = pipeline.stages.len();
    let mut r = Runner::new(pipeline, Arc::new(level));
    r.set_params(values);
    r.run_to(n - 1, &AtomicBool::new(false), &mut |_| {});
    assert!(
        r.first_error().is_none(),
        "{}: {:?}",
        path.display(),
        r.first_error()
    );
    r.navmesh().expect("voxel makes a NavMesh")
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants): the
/// same pairs on every run, without a dependency.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn load(name: &'static str) -> Option<Side> {
    let path = Path::new(DIR).join(name);
    let level = match navscope_levels::load(&path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("skipped {name}: {e}");
            return None;
        }
    };
    let LevelData::Mesh(m) = &level.data else {
        panic!("{name} is not a triangle mesh");
    };
    let vertices: Vec<[f32; 3]> = m.mesh.vertices.iter().map(|v| v.to_array()).collect();
    let detour = match Detour::build(&vertices, &m.mesh.triangles) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("skipped {name}: {e}");
            return None;
        }
    };
    let mesh = navscope_mesh(&path);
    let finder = PathFinder::new(&mesh);
    let centres: Vec<DVec3> = mesh
        .nodes
        .iter()
        .filter(|n| n.polygon.is_some())
        .map(|n| n.position)
        .collect();
    let mut rng = Lcg(0x5eed_0040);
    let pairs = (0..PAIRS)
        .map(|_| {
            (
                centres[rng.below(centres.len())],
                centres[rng.below(centres.len())],
            )
        })
        .collect();
    Some(Side {
        name,
        mesh,
        finder,
        detour,
        pairs,
    })
}

/// navscope's Polyanya path length, without a trace (as a game asks).
fn polyanya(s: &mut Side, a: DVec3, b: DVec3, opts: &SearchOptions) -> Result<f64, PathError> {
    s.finder
        .polyanya(&s.mesh, a, b, opts, false)
        .map(|p| p.length)
}

/// navscope's A* + funnel path length (Detour's method), without a trace,
/// the waypoints left in the finder's buffers (as Detour fills the
/// caller's arrays).
fn astar(s: &mut Side, a: DVec3, b: DVec3, opts: &SearchOptions) -> Result<f64, PathError> {
    s.finder.astar(&s.mesh, a, b, opts)?;
    Ok(path_length(s.finder.waypoints()))
}

fn f32s(p: DVec3) -> [f32; 3] {
    p.as_vec3().to_array()
}

/// The least of `ROUNDS` timings of `f`, in microseconds, and its answer.
fn timed<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let r = black_box(f());
        best = best.min(t.elapsed().as_secs_f64() * 1e6);
        out = Some(r);
    }
    (best, out.expect("ROUNDS > 0"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Times every pair on every engine and prints the medians; returns the
/// pairs all three answer.
fn report(s: &mut Side, opts: &SearchOptions) -> Vec<(DVec3, DVec3)> {
    let mut common = Vec::new();
    let (mut td, mut tp, mut ta) = (Vec::new(), Vec::new(), Vec::new());
    let mut ratios = Vec::new();
    let mut longer = 0;
    let mut found = [0usize; 3];
    let mut expanded = 0;
    // FNV-1a over the bits of every A* + funnel waypoint: a change that
    // should only make queries faster must leave it as it was.
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    // The same over the bits of every Polyanya length, and their sum: a
    // change to Polyanya's speed must leave the lengths as they were (or,
    // where rounding moves them, no longer in sum).
    let mut lengths = 0xcbf2_9ce4_8422_2325u64;
    let mut total = 0.0;
    for (a, b) in s.pairs.clone() {
        let (d_us, d) = timed(|| s.detour.path(f32s(a), f32s(b)));
        let (p_us, p) = timed(|| polyanya(s, a, b, opts));
        let (a_us, astar) = timed(|| astar(s, a, b, opts));
        expanded += s
            .finder
            .polyanya(&s.mesh, a, b, opts, false)
            .map_or(0, |p| p.expansions);
        if let Ok(p) = p {
            lengths = (lengths ^ p.to_bits()).wrapping_mul(0x100_0000_01b3);
            total += p;
        }
        found[0] += usize::from(d.is_some());
        found[1] += usize::from(p.is_ok());
        found[2] += usize::from(astar.is_ok());
        let waypoints = if astar.is_ok() {
            s.finder.waypoints()
        } else {
            &[]
        };
        for w in waypoints {
            let bits = w.position.to_array().map(f64::to_bits);
            for x in bits.into_iter().chain([u64::from(w.node), w.stance as u64]) {
                digest = (digest ^ x).wrapping_mul(0x100_0000_01b3);
            }
        }
        if let (Some(d), Ok(p), Ok(al)) = (d, p, astar) {
            if p > al + 1e-6 {
                longer += 1;
                if longer <= 3 {
                    eprintln!(
                        "{}: Polyanya {p:.3} m > A* {al:.3} m from {a} to {b}",
                        s.name
                    );
                }
            }
            common.push((a, b));
            td.push(d_us);
            tp.push(p_us);
            ta.push(a_us);
            if d > 0.0 {
                ratios.push(p / d as f64);
            }
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let (nd, np, na) = (mean(&td), mean(&tp), mean(&ta));
    let (md, mp, ma) = (median(td), median(tp), median(ta));
    println!(
        "{}: navscope {} polygons, Detour {}; of {} pairs Detour answers {}, Polyanya {}, \
         A* {}, all three {}; Polyanya longer than A* on {longer}, {expanded} Polyanya expansions; \
         median per query: Detour {md:.2} us, Polyanya {mp:.2} us ({:.2}x), \
         A* + funnel {ma:.2} us ({:.2}x); mean per query: Detour {nd:.2} us, \
         Polyanya {np:.2} us ({:.2}x), A* + funnel {na:.2} us ({:.2}x); \
         Polyanya length / Detour's: median {:.3}; A* waypoint digest {digest:016x}; \
         Polyanya length digest {lengths:016x}, sum {total:.6} m",
        s.name,
        s.finder.poly.len(),
        s.detour.polygons(),
        s.pairs.len(),
        found[0],
        found[1],
        found[2],
        common.len(),
        mp / md,
        ma / md,
        np / nd,
        na / nd,
        median(ratios),
    );
    common
}

/// Passes of [`in_sequence`].
const PASSES: usize = 7;

/// Each engine answering all `common` pairs one after another (no query
/// repeated, as criterion's loops run them), the engines taking turns
/// pass by pass so that they share the machine's load; the least of
/// `PASSES` passes per engine, in milliseconds, is printed.
fn in_sequence(s: &mut Side, common: &[(DVec3, DVec3)], opts: &SearchOptions) {
    let mut best = [f64::INFINITY; 3];
    for _ in 0..PASSES {
        for (engine, least) in best.iter_mut().enumerate() {
            let t = Instant::now();
            for &(a, z) in common {
                match engine {
                    0 => {
                        black_box(s.detour.path(f32s(a), f32s(z)));
                    }
                    1 => {
                        black_box(polyanya(s, a, z, opts).ok());
                    }
                    _ => {
                        black_box(astar(s, a, z, opts).ok());
                    }
                }
            }
            *least = least.min(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    let [d, p, a] = best;
    println!(
        "{}: all {} pairs in sequence, least of {PASSES} passes: Detour {d:.3} ms, \
         Polyanya {p:.3} ms ({:.2}x), A* + funnel {a:.3} ms ({:.2}x)",
        s.name,
        common.len(),
        p / d,
        a / d,
    );
}

fn bench(c: &mut Criterion) {
    if !Detour::available() {
        eprintln!("skipped: {}", navscope_detour::Absent);
        return;
    }
    let opts = SearchOptions::default();
    for name in MESHES {
        let Some(mut s) = load(name) else { continue };
        let common = report(&mut s, &opts);
        in_sequence(&mut s, &common, &opts);
        let mut g = c.benchmark_group(format!("{name}, {} pairs", common.len()));
        g.bench_function("detour", |b| {
            b.iter(|| {
                for &(a, z) in &common {
                    black_box(s.detour.path(f32s(a), f32s(z)));
                }
            })
        });
        g.bench_function("polyanya", |b| {
            b.iter(|| {
                for &(a, z) in &common {
                    black_box(polyanya(&mut s, a, z, &opts).ok());
                }
            })
        });
        g.bench_function("astar", |b| {
            b.iter(|| {
                for &(a, z) in &common {
                    black_box(astar(&mut s, a, z, &opts).ok());
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
