//! Frame times: a toggleable readout, and the `--measure` run that checks
//! the UI never waits for a stage.
//!
//! Every frame's duration is recorded as *idle* or *busy* (a build running
//! in the background). `--measure` records five idle seconds, then changes
//! the first numeric parameter of the pipeline back and forth every half
//! second for ten seconds, then
//! prints the idle median, the busy maximum and median, and the latency from
//! each change to its published result, and exits.

use std::collections::VecDeque;

use bevy::prelude::*;
use navscope_core::{ParamKind, ParamValue};

use crate::build::Build;
use crate::edit::params::ParamCommand;

/// Frames kept for the readout.
pub const WINDOW: usize = 240;

/// Records frame times.
pub struct FramesPlugin {
    /// Run the measurement and exit.
    pub measure: bool,
}

impl Plugin for FramesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameStats>().add_systems(First, record);
        if self.measure {
            app.init_resource::<Measurement>()
                .add_systems(Update, measure);
        }
    }
}

/// Recent frame times in milliseconds.
#[derive(Resource, Debug, Default)]
pub struct FrameStats {
    /// The readout is shown.
    pub show: bool,
    /// The last frames, oldest first.
    pub recent: VecDeque<f32>,
    /// Frames while no build ran.
    pub idle: Vec<f32>,
    /// Frames while a build ran.
    pub busy: Vec<f32>,
}

/// The median of `v` (0 for none).
pub fn median(v: &[f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f32::total_cmp);
    s[s.len() / 2]
}

fn record(time: Res<Time<Real>>, build: Res<Build>, mut stats: ResMut<FrameStats>) {
    let ms = time.delta_secs() * 1000.0;
    if ms <= 0.0 {
        return;
    }
    if stats.recent.len() == WINDOW {
        stats.recent.pop_front();
    }
    stats.recent.push_back(ms);
    if build.is_busy() {
        stats.busy.push(ms);
    } else {
        stats.idle.push(ms);
    }
    // Bounded memory: keep the last hour of 60 Hz frames at most.
    let stats = &mut *stats;
    for v in [&mut stats.idle, &mut stats.busy] {
        if v.len() > 216_000 {
            v.drain(..v.len() / 2);
        }
    }
}

#[derive(Resource, Default)]
struct Measurement {
    started: Option<f32>,
    next_change: f32,
    toggled: bool,
    latencies: Vec<f64>,
    seen: u64,
    baseline_idle: usize,
}

fn measure(
    time: Res<Time<Real>>,
    build: Res<Build>,
    mut stats: ResMut<FrameStats>,
    mut m: ResMut<Measurement>,
    mut commands: MessageWriter<ParamCommand>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = time.elapsed_secs();
    // Start once the first build is on screen and the window has settled.
    let Some(start) = m.started else {
        if build.published > 0 && !build.is_busy() && now > 3.0 {
            m.started = Some(now);
            m.next_change = now + 5.0;
            m.seen = build.published;
            stats.idle.clear();
            stats.busy.clear();
        }
        return;
    };
    if build.published != m.seen {
        m.seen = build.published;
        if let Some(r) = &build.last {
            m.latencies.push(r.latency_ms);
        }
    }
    if now >= m.next_change && now < start + 15.0 {
        m.next_change = now + 0.5;
        if m.baseline_idle == 0 {
            m.baseline_idle = stats.idle.len();
        }
        let spec = build.pipeline().and_then(|p| {
            p.params
                .iter()
                .find(|s| matches!(s.kind, ParamKind::Float { .. }))
                .cloned()
        });
        if let Some(s) = spec
            && let (ParamKind::Float { min, max, .. }, ParamValue::Float(d)) = (&s.kind, &s.default)
        {
            m.toggled = !m.toggled;
            let other = if d + (max - min) * 0.1 <= *max {
                d + (max - min) * 0.1
            } else {
                d - (max - min) * 0.1
            };
            commands.write(ParamCommand::Set(
                s.name.clone(),
                ParamValue::Float(if m.toggled { other } else { *d }),
            ));
        }
    }
    if now >= start + 16.0 && !build.is_busy() {
        let idle = &stats.idle[..m.baseline_idle.min(stats.idle.len())];
        let busy_max = stats.busy.iter().copied().fold(0.0, f32::max);
        let mut lat = m.latencies.clone();
        lat.sort_by(f64::total_cmp);
        println!(
            "frame time: idle median {:.2} ms over {} frames; while rebuilding: median {:.2} ms, max {:.2} ms over {} frames; update latency: median {:.1} ms, max {:.1} ms over {} changes",
            median(idle),
            idle.len(),
            median(&stats.busy),
            busy_max,
            stats.busy.len(),
            lat.get(lat.len() / 2).copied().unwrap_or(0.0),
            lat.last().copied().unwrap_or(0.0),
            lat.len()
        );
        exit.write(AppExit::Success);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_frames() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    }
}
