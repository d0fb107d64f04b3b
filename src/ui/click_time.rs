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

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// egui's limit for a press to count as a click, at any frame rate.
pub const HAND_CLICK_S: f64 = 0.8;
/// How many recent frames the slowest is taken from.
const RECENT: usize = 8;

/// Keeps egui's click limit fitted to the frame time.
pub struct ClickTimePlugin;

impl Plugin for ClickTimePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, fit_click_time);
    }
}

/// The longest press that counts as a click when recent frames took at
/// most `slowest_frame_s` seconds.
pub fn max_click_duration(slowest_frame_s: f64) -> f64 {
    HAND_CLICK_S + 2.0 * slowest_frame_s.max(0.0)
}

fn fit_click_time(
    mut contexts: EguiContexts,
    time: Res<Time<Real>>,
    mut recent: Local<VecDeque<f64>>,
) -> Result {
    recent.push_back(time.delta_secs_f64());
    if recent.len() > RECENT {
        recent.pop_front();
    }
    let slowest = recent.iter().copied().fold(0.0, f64::max);
    let limit = max_click_duration(slowest);
    contexts.ctx_mut()?.options_mut(|o| {
        if o.input_options.max_click_duration != limit {
            o.input_options.max_click_duration = limit;
        }
    });
    Ok(())
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
        for events in [
            vec![egui::Event::PointerMoved(at)],
            vec![],
            vec![button(true)],
            vec![button(false)],
            vec![],
        ] {
            if fitted {
                ctx.options_mut(|o| {
                    o.input_options.max_click_duration = max_click_duration(frame_s)
                });
            }
            clicked |= pass(&ctx, t, events);
            t += frame_s;
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
    fn the_limit_is_the_hands_at_any_fast_frame_rate_and_grows_with_slow_frames() {
        assert_eq!(max_click_duration(0.0), HAND_CLICK_S);
        assert_eq!(max_click_duration(-1.0), HAND_CLICK_S);
        assert!(max_click_duration(0.5) > max_click_duration(0.1));
        assert!((max_click_duration(0.016) - HAND_CLICK_S) < 0.05);
    }
}
