//! The app's own CPU time per frame, apart from the renderer's: the main
//! world's schedule (from the start of `First` to the end of `Last`) plus
//! the extraction of the frame into the render world. Neither includes the
//! GPU's work or, with pipelined rendering, the render thread's, so the
//! figure means the same under Xvfb's software renderer and on a desktop
//! GPU.
//!
//! Extraction runs in the render sub-app's extract function, outside any
//! schedule; [`CpuPlugin`] wraps that function with a clock whose reading
//! the next frame's `First` collects.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use bevy::prelude::*;
use bevy::render::RenderApp;

/// The CPU time of the frames, in milliseconds.
#[derive(Resource, Debug, Default)]
pub struct CpuClock {
    started: Option<Instant>,
    main_ms: f32,
    extract_ns: Arc<AtomicU64>,
    /// The last complete frame's CPU time: its main schedule and its
    /// extraction.
    pub last_ms: f32,
    /// How many frames were measured.
    pub frames: u64,
}

/// Measures the app's CPU time per frame into [`CpuClock`].
pub struct CpuPlugin;

impl Plugin for CpuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CpuClock>()
            .add_systems(First, start_frame)
            .add_systems(Last, end_frame);
    }

    fn finish(&self, app: &mut App) {
        // Before pipelined rendering moves the render app to its thread.
        let counter = app.world().resource::<CpuClock>().extract_ns.clone();
        let Some(render) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        let Some(mut extract) = render.take_extract() else {
            return;
        };
        render.set_extract(move |main, render_world| {
            let t = Instant::now();
            extract(main, render_world);
            counter.store(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        });
    }
}

fn start_frame(mut clock: ResMut<CpuClock>) {
    // The previous frame's extraction has happened by now.
    if clock.started.is_some() {
        let extract_ms = clock.extract_ns.swap(0, Ordering::Relaxed) as f32 / 1e6;
        clock.last_ms = clock.main_ms + extract_ms;
        clock.frames += 1;
    }
    clock.started = Some(Instant::now());
}

fn end_frame(mut clock: ResMut<CpuClock>) {
    if let Some(t) = clock.started {
        clock.main_ms = t.elapsed().as_secs_f32() * 1000.0;
    }
}
