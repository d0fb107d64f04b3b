//! The app's own CPU time per frame on real levels, without a window or a
//! renderer: [`navscope::app::drawing_headless`] (the level, the build,
//! publishing, the retained stage drawing, the timeline, picking) driven
//! frame by frame, each frame timed with the main thread's CPU clock
//! ([`navscope::dev::cpu`]). No renderer or software rasteriser takes part,
//! so the figures are the same on any machine's GPU; the egui panels and
//! the extraction into the render world are not in them (`navscope
//! --measure` times those too, under a renderer).
//!
//! ```sh
//! cargo bench --bench app_frames                          # the four levels below
//! cargo bench --bench app_frames -- LEVEL PIPELINE [STAGE] # one level
//! ```
//!
//! Each level runs in its own process (so the resident memory is that
//! level's) and prints one row: the median CPU per idle frame, the worst
//! frame around a stage switch (every stage shown in turn, and the frame
//! after), the worst frame while the build publishes, the pick query time
//! (a grid of downward rays over the level), the resident memory (with,
//! in brackets, its part that maps files: the program's code, about 30
//! MiB whatever the level) and the vertex data handed to the GPU. A
//! renderer keeps no main-world copy of the stage drawing's meshes and
//! gizmos once it has its own; the bench lets them go the same way
//! ([`ExtractionStandIn`]), so the resident memory is the main world's, as
//! with a renderer, and what a GPU would hold is the last column.

use std::process::Command;
use std::time::{Duration, Instant};

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use navscope::app::drawing_headless;
use navscope::build::Build;
use navscope::dev::cpu::{CpuClock, thread_cpu_ns};
use navscope::dev::extraction_stand_in::{ExtractionStandIn, HandedToGpu};
use navscope::dev::measure::{file_backed_mib, resident_mib};
use navscope::interact::clicks::ShownElements;
use navscope::interact::pick::{PickRay, Tolerance};
use navscope::level::{LevelRequest, Loading};
use navscope::model::timeline::Timeline;
use navscope::ui::frames::median;

/// The levels of the issue's goals: path (or [`GENERATED`]), pipeline and
/// the stage shown while idle (the last when none).
const LEVELS: &[(&str, &str, Option<&str>)] = &[
    ("assets/levels/floorplan/default.json", "convex", None),
    ("../shared/data/quake-maps/lq_e3m4.map", "cspace", None),
    (
        "../shared/data/recast-meshes/dungeon.obj",
        "voxel",
        Some("flag"),
    ),
    (GENERATED, "convex", Some("2")),
];

/// Stands for the 30,000-vertex floor plan `navscope-cli generate
/// big-floor-plan --vertices 30000` writes, made here.
const GENERATED: &str = "generated:big-floor-plan:30000";
/// Frames timed while idle.
const IDLE_FRAMES: usize = 300;
/// Frames each stage is shown while switching.
const HOLD_FRAMES: usize = 3;
/// Idle past the eviction delay by this much, and give up on eviction
/// twenty times this after it.
const SETTLE_SLACK: Duration = Duration::from_millis(500);
/// Frames in a row the view must stay settled before the memory is read.
const CALM_FRAMES: usize = 3;
/// Pick rays per side of the grid.
const PICK_GRID: usize = 20;
/// A build that takes longer is reported as not finished.
const BUILD_TIMEOUT: Duration = Duration::from_secs(600);

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if let [level, pipeline, rest @ ..] = args.as_slice() {
        match run(level, pipeline, rest.first().map(String::as_str)) {
            Ok(row) => println!("{row}"),
            Err(e) => {
                eprintln!("app_frames: {level}: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    println!(
        "| level | pipeline | idle CPU / frame (median) | worst switch frame | worst publishing frame | pick (median / max) | resident memory (of it files) | handed to the GPU |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let exe = std::env::current_exe().expect("the benchmark's own path");
    for (level, pipeline, stage) in LEVELS {
        if *level != GENERATED && !std::path::Path::new(level).is_file() {
            println!("| {level} | {pipeline} | SKIPPED: the file is missing | | | | | |");
            continue;
        }
        let mut cmd = Command::new(&exe);
        cmd.args([level, pipeline]);
        if let Some(s) = stage {
            cmd.arg(s);
        }
        if let Err(e) = cmd.status() {
            println!("| {level} | {pipeline} | FAILED to start: {e} | | | | | |");
        }
    }
}

/// Opens `level` in `pipeline`, builds it and times its frames; one table
/// row.
fn run(level: &str, pipeline: &str, stage: Option<&str>) -> Result<String, String> {
    let path = if level == GENERATED {
        let plan = navscope_levels::generate::big_floor_plan(1, 30_000);
        let p = std::env::temp_dir().join("navscope-app-frames-fp30k.json");
        std::fs::write(&p, navscope_levels::write::floor_plan_json(&plan))
            .map_err(|e| format!("writing {}: {e}", p.display()))?;
        p
    } else {
        std::path::PathBuf::from(level)
    };
    let mut app = drawing_headless();
    app.add_plugins(ExtractionStandIn);
    app.world_mut().write_message(LevelRequest::Open(path));
    app.world_mut()
        .write_message(LevelRequest::Pipeline(pipeline.to_string()));
    // Build, keeping the worst frame while stages publish.
    let started = Instant::now();
    let mut publishing = 0.0f32;
    let mut settled = 0;
    while settled < 3 {
        if started.elapsed() > BUILD_TIMEOUT {
            return Err(format!("not built within {BUILD_TIMEOUT:?}"));
        }
        app.update();
        publishing = publishing.max(app.world().resource::<CpuClock>().last_ms);
        let busy = app.world().resource::<Build>().is_busy()
            || app.world().resource::<Loading>().is_loading();
        settled = if busy { 0 } else { settled + 1 };
        if busy {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let build = app.world().resource::<Build>();
    let stages = build.pipeline().map_or(0, |p| p.stages.len());
    if stages == 0 || build.published == 0 {
        return Err("nothing was built (see the log above)".into());
    }
    // Every stage in turn; the clock records each switch frame and the one
    // after it.
    for i in 0..stages {
        app.world_mut().resource_mut::<Timeline>().set_stage(i);
        for _ in 0..HOLD_FRAMES {
            app.update();
        }
    }
    let (switch, _, switch_stage, _) = app.world().resource::<CpuClock>().switch_max_ms();
    // The stage a person would look at, then idle frames.
    let shown = stage
        .and_then(|s| {
            let p = app.world().resource::<Build>().pipeline()?;
            s.parse::<usize>()
                .ok()
                .map(|n| n.saturating_sub(1))
                .or_else(|| p.stages.iter().position(|st| st.info.id == s))
        })
        .unwrap_or(stages - 1);
    app.world_mut().resource_mut::<Timeline>().set_stage(shown);
    for _ in 0..HOLD_FRAMES {
        app.update();
    }
    let mut idle = Vec::with_capacity(IDLE_FRAMES);
    for _ in 0..IDLE_FRAMES {
        app.update();
        idle.push(app.world().resource::<CpuClock>().last_ms);
    }
    // Hidden stages let their data go after a delay (see
    // `navscope::view::residency`), freed on workers, and the shown one
    // may be coming back: idle until all that is done, so the memory is
    // the steady state a person sees.
    let settle = app
        .world()
        .resource::<navscope::view::residency::Residency>()
        .after
        + SETTLE_SLACK;
    // The tiles spawned last hand their meshes over at the end of the next
    // frame (a renderer extracts them at the end of this one), and what
    // they hand over is freed on a worker: the view counts as settled once
    // it has been for `CALM_FRAMES` frames in a row.
    let idle_from = Instant::now();
    let mut calm = 0;
    loop {
        let busy = idle_from.elapsed() < settle
            || !app
                .world_mut()
                .run_system_once(view_settled)
                .unwrap_or(true)
            || navscope::discard::pending() > 0;
        calm = if busy { 0 } else { calm + 1 };
        if calm >= CALM_FRAMES {
            break;
        }
        if idle_from.elapsed() > settle + SETTLE_SLACK * 20 {
            eprintln!("the view did not settle within {settle:?} and more");
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let picks = app
        .world_mut()
        .run_system_once(time_picks)
        .map_err(|e| format!("picking: {e}"))?;
    Ok(format!(
        "| {} | {pipeline} (stage {}) | {:.2} ms | {:.2} ms (to stage {}) | {:.2} ms | {:.3} / {:.3} ms | {:.0} MiB ({:.0}) | {:.0} MiB |",
        std::path::Path::new(level)
            .file_name()
            .map_or(level.to_string(), |n| n.to_string_lossy().into_owned()),
        shown + 1,
        median(&idle),
        switch,
        switch_stage + 1,
        publishing,
        median(&picks),
        picks.iter().copied().fold(0.0, f32::max),
        resident_mib(),
        file_backed_mib(),
        app.world().resource::<HandedToGpu>().bytes() as f64 / (1024.0 * 1024.0),
    ))
}

/// A stage's root, geometry, and whether it is evicted or being restored.
type StageResidency = (
    Entity,
    &'static navscope::model::elements::StageRoot,
    &'static navscope::model::elements::StageGeometry,
    Has<navscope::view::eviction::Evicted>,
    Has<navscope::view::eviction::Restoring>,
);

/// Whether the view has settled: every hidden stage big enough to be
/// evicted has been, and every shown stage is drawn whole (not evicted or
/// being restored, its groups spawned and its voxel groups meshed).
fn view_settled(
    timeline: Res<Timeline>,
    residency: Res<navscope::view::residency::Residency>,
    roots: Query<StageResidency>,
    drawn: Query<&ChildOf, With<navscope::model::elements::DrawGroup>>,
    voxels: Query<
        Has<navscope::view::voxel_meshing::Meshed>,
        With<navscope::view::cubes::VoxelGroup>,
    >,
) -> bool {
    let stages_settled = roots.iter().all(|(e, root, geo, evicted, restoring)| {
        if timeline.shows_stage(root.stage) {
            !evicted && !restoring && drawn.iter().any(|p| p.parent() == e)
        } else {
            !residency.evicts(geo) || evicted
        }
    });
    stages_settled && voxels.iter().all(|meshed| meshed)
}

/// Times pick queries along a grid of downward rays over what is drawn,
/// as a top view of the level would cast them (1,000 pixels across).
fn time_picks(
    shown: ShownElements,
    roots: Query<&navscope::model::elements::StageGeometry>,
) -> Vec<f32> {
    let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for geo in &roots {
        for p in geo.primitives.iter() {
            for q in p.shape.points() {
                if q.is_finite() {
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
            }
        }
    }
    if !lo.cmple(hi).all() {
        return Vec::new();
    }
    let per_px = (hi.x - lo.x).max(hi.z - lo.z).max(1e-3) / 1000.0;
    let mut times = Vec::with_capacity(PICK_GRID * PICK_GRID);
    for i in 0..PICK_GRID {
        for j in 0..PICK_GRID {
            let (u, v) = (
                (i as f32 + 0.5) / PICK_GRID as f32,
                (j as f32 + 0.5) / PICK_GRID as f32,
            );
            let ray = PickRay {
                origin: Vec3::new(
                    lo.x + (hi.x - lo.x) * u,
                    hi.y + 10.0,
                    lo.z + (hi.z - lo.z) * v,
                ),
                dir: Vec3::NEG_Y,
                tolerance: Tolerance::Ortho { per_px },
                px: 5.0,
            };
            // The thread's CPU clock, like the frames: on a loaded machine
            // a wall clock would count the time other processes ran.
            let t = thread_cpu_ns();
            std::hint::black_box(shown.pick(&ray));
            times.push((thread_cpu_ns() - t) as f32 / 1e6);
        }
    }
    times
}
