//! Frame times for the toggleable readout: every frame's duration is
//! recorded as *idle* or *busy* (a build running in the background).
//! `--measure` (`dev::measure`) reads them too, beside the app's own CPU
//! time (`dev::cpu`).

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::build::Build;

/// Frames kept for the readout.
pub const WINDOW: usize = 240;

/// Records frame times.
pub struct FramesPlugin;

impl Plugin for FramesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameStats>().add_systems(First, record);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_frame_time_and_zero_for_none() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    }
}
