//! The timeline's position (stage, sub-step, play, accumulate) and where the
//! panels are ([`UiFocus`]), as plain data every part reads.

use crate::model::elements::StageGeometry;
use bevy::prelude::*;

/// Seconds per stage (or per sub-step) while playing.
pub const PLAY_INTERVAL: f32 = 0.6;

/// Where the panels are, as the UI last laid them out, so input systems can
/// tell whether a key or the pointer belongs to a panel or to the scene.
///
/// The UI runs after the input systems, so the rectangles are one frame
/// old; the pointer is tested against them at its *current* position
/// ([`UiFocus::scene_at`]), which keeps a click that lands right after a
/// fast mouse move (as `xdotool` makes) from reaching the scene through a
/// menu.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct UiFocus {
    /// A text field or slider has keyboard focus.
    pub keyboard: bool,
    /// The pointer is over a panel (as of the last UI pass).
    pub pointer: bool,
    /// The 3D view between the panels (window logical pixels); `None`
    /// before the first UI pass or without a UI (tests), when the whole
    /// window is the scene.
    pub scene: Option<Rect>,
    /// Menus, pop-ups and floating windows over the scene.
    pub floating: Vec<Rect>,
    /// A menu or pop-up is open: the next click closes it and does nothing
    /// in the scene.
    pub popup: bool,
    /// egui is using the pointer (dragging a slider or a panel edge).
    pub using_pointer: bool,
}

impl UiFocus {
    /// The keyboard, when keys belong to the app's shortcuts: `None` while a
    /// text field or slider has them (or without a keyboard, in tests).
    pub fn app_keys<'a>(
        &self,
        keys: &'a Option<Res<ButtonInput<KeyCode>>>,
    ) -> Option<&'a ButtonInput<KeyCode>> {
        if self.keyboard {
            return None;
        }
        keys.as_deref()
    }

    /// True when a click at `pos` (window logical pixels) belongs to the
    /// scene: inside the 3D view, not on a floating window, no menu open,
    /// egui not dragging.
    pub fn scene_at(&self, pos: Vec2) -> bool {
        self.scene.is_none_or(|r| r.contains(pos))
            && !self.floating.iter().any(|r| r.contains(pos))
            && !self.popup
            && !self.using_pointer
    }
}

/// The position on the timeline.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Timeline {
    /// The stage on screen (clamped to the pipeline's stages; starts at the
    /// last).
    pub current: usize,
    /// The sub-step on screen; `None` shows the stage's final state.
    pub substep: Option<u32>,
    /// Playing through the stages.
    pub playing: bool,
    /// Show earlier stages under the current one.
    pub accumulate: bool,
    /// A stage asked for on the command line, resolved once the pipeline is
    /// known.
    pub requested: Option<String>,
    pub(crate) timer: f32,
}

impl Default for Timeline {
    fn default() -> Self {
        Self {
            current: usize::MAX,
            substep: None,
            playing: false,
            accumulate: false,
            requested: None,
            timer: 0.0,
        }
    }
}

impl Timeline {
    /// True when stage `stage` is drawn at this position: it is the current
    /// stage, or an earlier one while accumulating.
    pub fn shows_stage(&self, stage: usize) -> bool {
        if self.accumulate {
            stage <= self.current
        } else {
            stage == self.current
        }
    }

    /// Shows stage `i` (its final state).
    pub fn set_stage(&mut self, i: usize) {
        if i != self.current {
            self.current = i;
            self.substep = None;
        }
    }

    /// Moves `delta` stages, within `0..count`.
    pub fn step_stage(&mut self, delta: isize, count: usize) {
        if count == 0 {
            return;
        }
        let i =
            (self.current.min(count - 1) as isize + delta).clamp(0, count as isize - 1) as usize;
        self.set_stage(i);
    }

    /// Moves `delta` sub-steps within `0..count`; stepping past the last
    /// returns to the final state (`None`), stepping back from it goes to the
    /// last sub-step.
    pub fn step_substep(&mut self, delta: i64, count: u32) {
        if count == 0 {
            self.substep = None;
            return;
        }
        let next = match self.substep {
            None if delta < 0 => Some(count as i64 - 1),
            None => Some(0),
            Some(s) => Some(s as i64 + delta),
        };
        self.substep = next
            .filter(|s| *s >= 0 && *s < count as i64)
            .map(|s| s as u32)
            .or(if delta < 0 { Some(0) } else { None });
    }

    /// Advances playback by one tick: through the sub-steps of the current
    /// stage, then to the next stage; stops at the end.
    pub fn advance(&mut self, count: usize, substeps: u32) {
        if count == 0 {
            self.playing = false;
            return;
        }
        if substeps > 0 && self.substep.is_some_and(|s| s + 1 < substeps) {
            self.substep = self.substep.map(|s| s + 1);
        } else if self.current + 1 < count {
            self.set_stage(self.current + 1);
        } else {
            self.substep = None;
            self.playing = false;
        }
    }

    /// Starts playing from the first stage when at the end, else toggles.
    pub fn toggle_play(&mut self, count: usize) {
        if !self.playing && count > 0 && self.current + 1 >= count && self.substep.is_none() {
            self.set_stage(0);
        }
        self.playing = !self.playing;
        self.timer = 0.0;
    }
}

/// The number of sub-steps stage `stage` recorded, from its published
/// geometry.
pub fn substep_count<'a>(roots: impl IntoIterator<Item = &'a StageGeometry>, stage: usize) -> u32 {
    roots
        .into_iter()
        .find(|g| g.stage == stage)
        .map_or(0, |g| g.substeps.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_stays_in_range() {
        let mut t = Timeline {
            current: 0,
            ..Default::default()
        };
        t.step_stage(-1, 4);
        assert_eq!(t.current, 0);
        t.step_stage(10, 4);
        assert_eq!(t.current, 3);
        t.step_stage(1, 0);
        assert_eq!(t.current, 3);
    }

    #[test]
    fn substeps_cycle_through_final_state() {
        let mut t = Timeline {
            current: 1,
            ..Default::default()
        };
        t.step_substep(1, 3);
        assert_eq!(t.substep, Some(0));
        t.step_substep(1, 3);
        t.step_substep(1, 3);
        assert_eq!(t.substep, Some(2));
        t.step_substep(1, 3);
        assert_eq!(t.substep, None, "past the last step: the final state");
        t.step_substep(-1, 3);
        assert_eq!(t.substep, Some(2));
        t.step_substep(-5, 3);
        assert_eq!(t.substep, Some(0));
        t.step_substep(1, 0);
        assert_eq!(t.substep, None);
    }

    #[test]
    fn playing_walks_substeps_then_stages_then_stops() {
        let mut t = Timeline {
            current: 0,
            substep: Some(0),
            ..Default::default()
        };
        t.toggle_play(2);
        assert!(t.playing);
        t.advance(2, 2);
        assert_eq!((t.current, t.substep), (0, Some(1)));
        t.advance(2, 2);
        assert_eq!((t.current, t.substep), (1, None));
        t.advance(2, 0);
        assert!(!t.playing);
        t.toggle_play(2);
        assert_eq!(t.current, 0, "play at the end restarts");
    }
}
