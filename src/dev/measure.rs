//! `--measure`: the app's own CPU cost on the open level, apart from the
//! renderer's ([`crate::dev::cpu`]), and the frame times as a person sees
//! them.
//!
//! Once the first build is on screen and the window has settled it runs
//! four phases and prints one table row:
//! 1. *idle*, five seconds and at least [`IDLE_FRAMES`] frames (a big level
//!    under a software renderer draws a frame a second): the median CPU
//!    time per frame;
//! 2. *scrub*: every stage, then every sub-step of the last one, each shown
//!    for a few frames: the largest CPU time of a frame that switched (and
//!    of the frame after it, which draws the switch), from
//!    [`CpuClock::switch_ms`];
//! 3. *pick*: 300 pick rays through a grid of points over the 3D view, each
//!    timed: median and largest time per query;
//! 4. *rebuild*: the pipeline's first numeric parameter changed back and
//!    forth [`CHANGES`] times, each change made once the previous one's
//!    build has published everything (a change every half second would
//!    cancel a slow level's builds before they publish): the largest CPU
//!    time of a frame that published a stage (and of the frame after it),
//!    the latency from each change to its result, and the frame times while
//!    building.
//!
//! It ends with the process's resident memory and exits.

use bevy::prelude::*;
use navscope_core::{ParamKind, ParamValue};

use crate::build::Build;
use crate::dev::cpu::{CpuClock, thread_cpu_ns};
use crate::edit::params::ParamCommand;
use crate::interact::clicks::ShownElements;
use crate::interact::pointer::ray_through;
use crate::model::elements::StageGeometry;
use crate::model::timeline::{Timeline, UiFocus, substep_count};
use crate::ui::frames::{FrameStats, median};
use crate::view::scene::MainCamera;

/// Idle frames the median is taken over, at least.
const IDLE_FRAMES: usize = 20;
/// Frames each scrub position is held.
const HOLD: u32 = 4;
/// Pick queries timed.
const PICKS: usize = 300;
/// Parameter changes made in the rebuild phase.
const CHANGES: u32 = 4;
/// Frames the rebuild phase waits after the last build finished, so the
/// frames that draw its last stage are recorded.
const SETTLE_FRAMES: u32 = 3;
/// The rebuild phase ends after this many seconds even if builds are still
/// running (a level whose build takes longer is reported with fewer
/// changes).
const REBUILD_DEADLINE_S: f32 = 120.0;

/// Runs the measurement and exits.
pub struct MeasurePlugin;

impl Plugin for MeasurePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Measurement>()
            .add_systems(Update, (measure, scrub, pick, rebuild, finish).chain());
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Phase {
    #[default]
    Waiting,
    Idle,
    Scrub,
    Pick,
    Rebuild,
    Done,
}

#[derive(Resource, Default)]
struct Measurement {
    phase: Phase,
    phase_start: f32,
    /// CPU per idle frame.
    idle: Vec<f32>,
    /// Scrub position: index into the positions list, frames held.
    scrub_at: usize,
    held: u32,
    /// Seconds per pick query.
    picks: Vec<f32>,
    /// Where the rebuild phase's readings start in the clock's
    /// `publish_ms` (the first build's publishing is not counted).
    publish_from: usize,
    latencies: Vec<f64>,
    seen: u64,
    /// Parameter changes made so far in the rebuild phase.
    changes: u32,
    /// Frames seen idle since the last change's build finished.
    settled: u32,
    toggled: bool,
    frame_ms: Vec<f32>,
    last_frames: u64,
}

/// Moves between phases and records the idle frames.
fn measure(
    time: Res<Time<Real>>,
    build: Res<Build>,
    clock: Res<CpuClock>,
    mut stats: ResMut<FrameStats>,
    mut m: ResMut<Measurement>,
) {
    let now = time.elapsed_secs();
    let fresh = clock.frames != m.last_frames;
    m.last_frames = clock.frames;
    match m.phase {
        Phase::Waiting if build.published > 0 && !build.is_busy() && now > 3.0 => {
            m.phase = Phase::Idle;
            m.phase_start = now;
            stats.idle.clear();
            stats.busy.clear();
        }
        Phase::Idle => {
            if fresh {
                m.idle.push(clock.last_ms);
            }
            if now > m.phase_start + 5.0 && m.idle.len() >= IDLE_FRAMES {
                m.phase = Phase::Scrub;
                m.phase_start = now;
            }
        }
        _ => {}
    }
}

/// Steps through every stage, then the last stage's sub-steps.
fn scrub(
    build: Res<Build>,
    roots: Query<&StageGeometry>,
    mut timeline: ResMut<Timeline>,
    mut m: ResMut<Measurement>,
) {
    if m.phase != Phase::Scrub {
        return;
    }
    m.held += 1;
    if m.held < HOLD {
        return;
    }
    m.held = 0;
    let stages = build.pipeline().map_or(0, |p| p.stages.len());
    let last = stages.saturating_sub(1);
    let steps = substep_count(roots.iter(), last) as usize;
    let i = m.scrub_at;
    m.scrub_at += 1;
    if i < stages {
        timeline.set_stage(i);
    } else if i < stages + steps {
        if i == stages {
            timeline.set_stage(last);
        }
        timeline.substep = Some((i - stages) as u32);
    } else {
        timeline.set_stage(last);
        m.phase = Phase::Pick;
    }
}

/// Times pick queries over a grid of points in the 3D view.
fn pick(
    shown: ShownElements,
    focus: Res<UiFocus>,
    cameras: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    clock: Res<CpuClock>,
    mut m: ResMut<Measurement>,
    time: Res<Time<Real>>,
) {
    if m.phase != Phase::Pick {
        return;
    }
    // The rebuild phase that follows counts only its own publishing.
    m.publish_from = clock.publish_ms.len();
    let (Ok((cam, tf)), Some(view)) = (cameras.single(), focus.scene) else {
        m.phase = Phase::Rebuild;
        return;
    };
    let side = (PICKS as f32).sqrt().ceil() as usize;
    for k in 0..PICKS {
        let (u, v) = (
            (k % side) as f32 / side as f32,
            (k / side) as f32 / side as f32,
        );
        let at = view.min + (view.max - view.min) * Vec2::new(0.05 + 0.9 * u, 0.05 + 0.9 * v);
        if let Some(ray) = ray_through(cam, tf, at) {
            // The thread's CPU clock, as for the frames.
            let t = thread_cpu_ns();
            std::hint::black_box(shown.pick(&ray));
            m.picks.push(thread_cpu_ns().saturating_sub(t) as f32 / 1e6);
        }
    }
    m.phase = Phase::Rebuild;
    m.phase_start = time.elapsed_secs();
}

/// Changes the first numeric parameter back and forth, one change per
/// finished build, and records the frames that publish.
fn rebuild(
    time: Res<Time<Real>>,
    build: Res<Build>,
    clock: Res<CpuClock>,
    mut m: ResMut<Measurement>,
    mut commands: MessageWriter<ParamCommand>,
) {
    if m.phase != Phase::Rebuild {
        return;
    }
    let now = time.elapsed_secs();
    m.frame_ms.push(time.delta_secs() * 1000.0);
    if build.published != m.seen {
        m.seen = build.published;
        if let Some(r) = &build.last {
            m.latencies.push(r.latency_ms);
        }
    }
    if build.is_busy() {
        m.settled = 0;
    } else {
        m.settled += 1;
    }
    let timed_out = now > m.phase_start + REBUILD_DEADLINE_S;
    if m.settled < SETTLE_FRAMES && !timed_out {
        return;
    }
    if m.changes >= CHANGES || timed_out {
        if clock.pending_publish_readings() == 0 {
            m.phase = Phase::Done;
        }
        return;
    }
    let spec = build.pipeline().and_then(|p| {
        p.params
            .iter()
            .find(|s| matches!(s.kind, ParamKind::Float { .. }))
            .cloned()
    });
    let Some(s) = spec else {
        m.phase = Phase::Done;
        return;
    };
    if let (ParamKind::Float { min, max, .. }, ParamValue::Float(d)) = (&s.kind, &s.default) {
        m.toggled = !m.toggled;
        let step = (max - min) * 0.1;
        let other = if d + step <= *max { d + step } else { d - step };
        commands.write(ParamCommand::Set(
            s.name.clone(),
            ParamValue::Float(if m.toggled { other } else { *d }),
        ));
    }
    m.changes += 1;
    m.settled = 0;
}

/// The process's resident memory in MiB (Linux; 0 elsewhere).
pub fn resident_mib() -> f64 {
    status_mib("VmRSS:")
}

/// The part of the resident memory that maps files, in MiB (Linux; 0
/// elsewhere): mostly the program's own code and read-only data, which
/// the system shares and can drop and read again. The app's binary,
/// Bevy and wgpu in it, is about 30 MiB of it whatever the level; the
/// command line's about 5.
pub fn file_backed_mib() -> f64 {
    status_mib("RssFile:")
}

/// A `/proc/self/status` figure given in kB, in MiB.
fn status_mib(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn max(v: &[f32]) -> f32 {
    v.iter().copied().fold(0.0, f32::max)
}

/// Prints the row and exits.
fn finish(
    m: Res<Measurement>,
    clock: Res<CpuClock>,
    stats: Res<FrameStats>,
    current: Res<crate::level::CurrentLevel>,
    build: Res<Build>,
    refresh: Option<Res<crate::ui::refresh::UiRefresh>>,
    mut exit: MessageWriter<AppExit>,
) {
    if m.phase != Phase::Done {
        return;
    }
    let worst = clock.switch_max_ms();
    let mut lat = m.latencies.clone();
    lat.sort_by(f64::total_cmp);
    let name = current
        .path
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or("(default level)".into(), |n| {
            n.to_string_lossy().to_string()
        });
    let pipeline = build.pipeline().map_or("-", |p| p.id);
    let publish = clock.publish_ms[m.publish_from.min(clock.publish_ms.len())..]
        .iter()
        .copied()
        .fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a });
    println!(
        "measure {name} [{pipeline}]: CPU per frame idle median {:.2} ms; stage/sub-step switch max {:.2} ms (extraction {:.2} ms, to stage {} sub-step {:?}) over {} switches; publishing frame max {:.2} ms (extraction {:.2} ms) over {} frames; pick median {:.3} ms, max {:.3} ms over {} queries; update latency median {:.1} ms, max {:.1} ms over {} changes; whole frames idle median {:.2} ms, while rebuilding max {:.2} ms; resident memory {:.0} MiB ({:.0} MiB of it files); egui passes in {} of {} frames",
        median(&m.idle),
        worst.0,
        worst.1,
        worst.2 + 1,
        worst.3,
        clock.switch_ms.len(),
        publish.0,
        publish.1,
        clock.publish_ms.len().saturating_sub(m.publish_from),
        median(&m.picks),
        max(&m.picks),
        m.picks.len(),
        lat.get(lat.len() / 2).copied().unwrap_or(0.0),
        lat.last().copied().unwrap_or(0.0),
        lat.len(),
        median(&stats.idle),
        max(&m.frame_ms),
        resident_mib(),
        file_backed_mib(),
        refresh.as_ref().map_or(0, |r| r.passes),
        refresh.as_ref().map_or(0, |r| r.passes + r.reused),
    );
    exit.write(AppExit::Success);
}
