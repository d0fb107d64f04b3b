//! The app's own CPU time per frame, apart from the renderer's: the main
//! world's schedule (from the start of `First` to the end of `Last`) plus
//! the extraction of the frame into the render world, read from the main
//! thread's CPU clock. To put all of that work on the main thread,
//! [`CpuPlugin`] runs the main schedules, the fixed-step schedules and
//! extraction with the single-threaded executor
//! (so the figure is the frame's whole CPU work, not its wall time, which a
//! software rasteriser sharing the cores would inflate). Neither includes
//! the GPU's work nor the render thread's, so the figure means the same
//! under Xvfb's software renderer and on a desktop GPU. Background work
//! (builds, preparation, searches) runs on worker threads and is not a
//! frame's cost.
//!
//! With the clock running (`--measure`, `--cpu`) the app renders without
//! pipelining (see `app.rs`): pipelined, the main thread ran render-world
//! tasks while it waited inside its own parallel systems, and the figure
//! counted them.
//!
//! Extraction runs in the render sub-app's extract function, outside any
//! schedule; [`CpuPlugin`] wraps that function with a clock whose reading
//! the next frame's `First` collects.

use bevy::app::{FixedMain, FixedMainScheduleOrder, MainScheduleOrder, RunFixedMainLoop};
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::render::{ExtractSchedule, RenderApp};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The calling thread's CPU time in nanoseconds.
pub fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's duration.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    } else {
        0
    }
}

/// The CPU time of the frames, in milliseconds.
#[derive(Resource, Debug, Default)]
pub struct CpuClock {
    started: Option<u64>,
    main_ms: f32,
    extract_ns: Arc<AtomicU64>,
    /// The last complete frame's CPU time: its main schedule and its
    /// extraction.
    pub last_ms: f32,
    /// Of which its extraction into the render world.
    pub last_extract_ms: f32,
    /// How many frames were measured.
    pub frames: u64,
    /// The CPU time of each frame that switched stage or sub-step and of
    /// the frame after it (which draws what the switch hid or showed): the
    /// time, the part of it spent in extraction, and the stage and
    /// sub-step switched to.
    pub switch_ms: Vec<(f32, f32, usize, Option<u32>)>,
    /// Readings still to record into `switch_ms`, and where to.
    pending_switch: u8,
    switched_to: (usize, Option<u32>),
    /// The CPU time of each frame that put a published stage's drawing in
    /// place (a build publishing, or the view re-prepared after a filter
    /// change) and of the frame after it, and the part of it spent in
    /// extraction.
    pub publish_ms: Vec<(f32, f32)>,
    /// Readings still to record into `publish_ms`.
    pending_publish: u8,
}

/// Most readings kept per list (the oldest are dropped).
const KEPT_READINGS: usize = 10_000;

/// Appends `reading` to `list`, keeping the last [`KEPT_READINGS`].
fn keep<T>(list: &mut Vec<T>, reading: T) {
    if list.len() == KEPT_READINGS {
        list.remove(0);
    }
    list.push(reading);
}

impl CpuClock {
    /// Readings still to take for the last switch (its frame and the next;
    /// 0 once both are in `switch_ms`).
    pub fn pending_readings(&self) -> u8 {
        self.pending_switch
    }

    /// Readings still to take for the last publishing frame (0 once they
    /// are in `publish_ms`).
    pub fn pending_publish_readings(&self) -> u8 {
        self.pending_publish
    }

    /// The frame around a switch with the largest CPU time: the time, the
    /// part of it spent in extraction, and the stage and sub-step it
    /// switched to (zeros before any).
    pub fn switch_max_ms(&self) -> (f32, f32, usize, Option<u32>) {
        self.switch_ms
            .iter()
            .copied()
            .fold((0.0, 0.0, 0, None), |a, b| if b.0 > a.0 { b } else { a })
    }
}

/// The end of a frame's measured CPU time. Instrumentation that only tests
/// run (the state report) orders itself after it, so it is not counted as
/// the app's cost.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct CpuFrameEnd;

/// Measures the app's CPU time per frame into [`CpuClock`].
pub struct CpuPlugin;

impl Plugin for CpuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CpuClock>()
            .add_systems(First, start_frame)
            .add_systems(
                Last,
                (watch_switches, watch_publishing, end_frame)
                    .chain()
                    .in_set(CpuFrameEnd),
            );
    }

    fn finish(&self, app: &mut App) {
        let mut labels: Vec<bevy::ecs::intern::Interned<dyn ScheduleLabel>> =
            app.world().resource::<MainScheduleOrder>().labels.clone();
        labels.extend([First.intern(), Last.intern(), RunFixedMainLoop.intern()]);
        // The fixed-step schedules run once per 1/64 s of frame time, so a
        // slow frame runs them up to 16 times; nothing of navscope's is in
        // them, but on the multi-threaded executor each run woke the task
        // pool's threads, which was most of an idle frame's CPU time on a
        // level whose frames the software renderer makes slow.
        labels.push(FixedMain.intern());
        labels.extend(
            app.world()
                .resource::<FixedMainScheduleOrder>()
                .labels
                .iter()
                .copied(),
        );
        for label in labels {
            app.edit_schedule(label, |s| {
                s.set_executor(SingleThreadedExecutor::new());
            });
        }
        // Before pipelined rendering moves the render app to its thread.
        let counter = app.world().resource::<CpuClock>().extract_ns.clone();
        let Some(render) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        // Extraction is many small systems copying what changed; waking
        // the task pool for them cost more than they do.
        render.edit_schedule(ExtractSchedule, |s| {
            s.set_executor(SingleThreadedExecutor::new());
            // Bevy applies extraction's commands on the render side
            // (`apply_extract_commands`), not at the schedule's end.
            s.set_apply_final_deferred(false);
        });
        let Some(mut extract) = render.take_extract() else {
            return;
        };
        render.set_extract(move |main, render_world| {
            let t = thread_cpu_ns();
            extract(main, render_world);
            counter.store(thread_cpu_ns().saturating_sub(t), Ordering::Relaxed);
        });
    }
}

fn start_frame(mut clock: ResMut<CpuClock>) {
    // The previous frame's extraction has happened by now.
    if clock.started.is_some() {
        let extract_ms = clock.extract_ns.swap(0, Ordering::Relaxed) as f32 / 1e6;
        clock.last_ms = clock.main_ms + extract_ms;
        clock.last_extract_ms = extract_ms;
        clock.frames += 1;
        if clock.pending_switch > 0 {
            clock.pending_switch -= 1;
            let ms = (
                clock.last_ms,
                clock.last_extract_ms,
                clock.switched_to.0,
                clock.switched_to.1,
            );
            keep(&mut clock.switch_ms, ms);
        }
        if clock.pending_publish > 0 {
            clock.pending_publish -= 1;
            let ms = (clock.last_ms, clock.last_extract_ms);
            keep(&mut clock.publish_ms, ms);
        }
    }
    clock.started = Some(thread_cpu_ns());
}

/// Notes a frame that moved along the timeline while no build runs or
/// publishes (a build moves it as stages publish, which is the publishing
/// frames' cost, not a switch's): its reading and the next one go into
/// `switch_ms`.
fn watch_switches(
    timeline: Res<crate::model::timeline::Timeline>,
    build: Res<crate::build::Build>,
    mut published: Local<u64>,
    mut clock: ResMut<CpuClock>,
) {
    let publishing = build.published != *published;
    *published = build.published;
    if timeline.is_changed() && !timeline.is_added() && !build.is_busy() && !publishing {
        clock.pending_switch = 2;
        clock.switched_to = (timeline.current, timeline.substep);
    }
}

/// Notes a frame that put a stage's drawing in place: its reading and the
/// next one go into `publish_ms`.
fn watch_publishing(
    placed: Query<(), Changed<crate::model::elements::StageGeometry>>,
    mut clock: ResMut<CpuClock>,
) {
    if !placed.is_empty() {
        clock.pending_publish = 2;
    }
}

fn end_frame(mut clock: ResMut<CpuClock>) {
    if let Some(t) = clock.started {
        clock.main_ms = thread_cpu_ns().saturating_sub(t) as f32 / 1e6;
    }
}
