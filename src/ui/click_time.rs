//! How long a press may last and still be a click, fitted to the frame
//! rate.
//!
//! egui decides whether a press and release were a click from the times of
//! the frames that saw them: more than 0.8 s apart and it is a long press,
//! which clicks nothing. A hand's click lasts about a tenth of a second, but
//! the app sees it only at frame starts, so on software-rendered frames of
//! half a second (a large level under llvmpipe on a busy machine) a quick
//! click looks like a press of a second, and buttons stopped answering.
//! The limit here is the hand's 0.8 s plus two of the recent slowest frames
//! (the press and the release each wait up to one frame to be seen).
//!
//! The frame being run counts among the recent ones: the limit is set after
//! Bevy measured this frame's time and before egui reads this frame's input
//! (in `PreUpdate`, before egui's input systems; its pass runs later, in
//! `PostUpdate`, away from the camera's systems). So a release seen after one sudden
//! slow frame (the machine busy with a build) is judged against that frame,
//! not only against the fast ones before it. A missed click there was
//! worse than nothing: egui took the press for a drag and a side panel
//! scrolled by the pointer's last jump.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPreUpdateSet};

/// egui's limit for a press to count as a click, at any frame rate.
pub const HAND_CLICK_S: f64 = 0.8;
/// How many recent frames the slowest is taken from.
const RECENT: usize = 8;

/// Keeps egui's click limit fitted to the frame time.
pub struct ClickTimePlugin;

impl Plugin for ClickTimePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreUpdate,
            fit_click_time
                .after(EguiPreUpdateSet::InitContexts)
                .before(EguiPreUpdateSet::ProcessInput),
        );
    }
}

/// The longest press that counts as a click when recent frames took at
/// most `slowest_frame_s` seconds.
pub fn max_click_duration(slowest_frame_s: f64) -> f64 {
    HAND_CLICK_S + 2.0 * slowest_frame_s.max(0.0)
}

/// The limit for the frame that took `frame_s`, with the frames before it
/// in `recent` (which it joins).
fn limit_for_frame(recent: &mut VecDeque<f64>, frame_s: f64) -> f64 {
    recent.push_back(frame_s);
    if recent.len() > RECENT {
        recent.pop_front();
    }
    let slowest = recent.iter().copied().fold(0.0, f64::max);
    max_click_duration(slowest)
}

/// Sets egui's click limit for this frame (before egui runs its pass and
/// reads this frame's input). Before the panels' context exists (the first
/// frames) there is nothing to set.
fn fit_click_time(
    mut contexts: EguiContexts,
    time: Res<Time<Real>>,
    mut recent: Local<VecDeque<f64>>,
) {
    let limit = limit_for_frame(&mut recent, time.delta_secs_f64());
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    ctx.options_mut(|o| {
        if o.input_options.max_click_duration != limit {
            o.input_options.max_click_duration = limit;
        }
    });
}

#[cfg(test)]
mod tests {
    use bevy_egui::egui;

    use super::*;

    /// One egui pass at `time` with `events`; whether the button was clicked.
    fn pass(ctx: &egui::Context, time: f64, events: Vec<egui::Event>) -> bool {
        let input = egui::RawInput {
            time: Some(time),
            events,
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(200.0, 100.0),
            )),
            ..Default::default()
        };
        let mut clicked = false;
        let _ = ctx.run_ui(input, |ui| {
            clicked = ui
                .put(
                    egui::Rect::from_min_size(egui::pos2(10.0, 10.0), egui::vec2(80.0, 30.0)),
                    egui::Button::new("Pin"),
                )
                .clicked();
        });
        clicked
    }

    /// A quick click seen at the start of frames `frame_s` apart: the press
    /// in one frame, the release in the next.
    fn click_over_frames(frame_s: f64, fitted: bool) -> bool {
        click_with_frames(&[frame_s; 5], fitted)
    }

    /// A quick click over five frames, the i-th taking `frames[i]` (the time
    /// since the frame before): the pointer arrives in the first, the press
    /// is seen in the third, the release in the fourth. Fitted, the limit of
    /// each frame is set as the app sets it, from that frame's time and the
    /// ones before.
    fn click_with_frames(frames: &[f64; 5], fitted: bool) -> bool {
        let ctx = egui::Context::default();
        let at = egui::pos2(40.0, 20.0);
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        let mut t = 0.0;
        let mut clicked = false;
        let mut recent = VecDeque::new();
        for (frame_s, events) in frames.iter().copied().zip([
            vec![egui::Event::PointerMoved(at)],
            vec![],
            vec![button(true)],
            vec![button(false)],
            vec![],
        ]) {
            t += frame_s;
            if fitted {
                let limit = limit_for_frame(&mut recent, frame_s);
                ctx.options_mut(|o| o.input_options.max_click_duration = limit);
            }
            clicked |= pass(&ctx, t, events);
        }
        clicked
    }

    #[test]
    fn a_click_over_slow_frames_clicks_once_the_limit_is_fitted() {
        // The frames egui needs to notice the failure: above its 0.8 s.
        assert!(click_over_frames(0.05, false), "a click at 20 fps");
        assert!(
            !click_over_frames(0.9, false),
            "egui's fixed limit should miss a click over 0.9 s frames (the failure fitted here)"
        );
        for frame_s in [0.05, 0.5, 0.9, 3.0] {
            assert!(
                click_over_frames(frame_s, true),
                "a click over {frame_s} s frames"
            );
        }
    }

    #[test]
    fn a_click_released_after_one_sudden_slow_frame_still_clicks() {
        // Fast frames, then the release waits out a 2 s frame (the machine
        // busy): judged against the fast frames alone it would be a press
        // of 2 s.
        let frames = [0.05, 0.05, 0.05, 2.0, 0.05];
        assert!(
            !click_with_frames(&frames, false),
            "egui's fixed limit should miss it"
        );
        assert!(click_with_frames(&frames, true));
    }

    #[test]
    fn the_limit_of_a_frame_counts_that_frame_and_forgets_old_ones() {
        let mut recent = VecDeque::new();
        for _ in 0..RECENT {
            limit_for_frame(&mut recent, 0.01);
        }
        assert!(limit_for_frame(&mut recent, 3.0) > 3.0 + HAND_CLICK_S);
        for _ in 0..RECENT - 1 {
            assert!(limit_for_frame(&mut recent, 0.01) > 3.0);
        }
        assert!((limit_for_frame(&mut recent, 0.01) - max_click_duration(0.01)).abs() < 1e-12);
    }

    #[test]
    fn the_limit_is_the_hands_at_any_fast_frame_rate_and_grows_with_slow_frames() {
        assert_eq!(max_click_duration(0.0), HAND_CLICK_S);
        assert_eq!(max_click_duration(-1.0), HAND_CLICK_S);
        assert!(max_click_duration(0.5) > max_click_duration(0.1));
        assert!((max_click_duration(0.016) - HAND_CLICK_S) < 0.05);
    }
}
