//! The egui pass runs only in frames where what the panels show may have
//! changed, as egui's own desktop integration (eframe) does: on input; when
//! egui asked for a repaint (an animation, a tooltip's delay, a text
//! cursor's blink); while work is under way (a build, a load, a search)
//! and in the frame after it ends; when state that the panels read
//! changed; when the camera moved (the labels over the 3D view follow it);
//! and while the frame readout (F2) shows per-frame figures. In the other
//! frames the panels are not rebuilt or tessellated again: the last pass's
//! paint jobs are drawn once more.
//!
//! Why: the panels were the biggest part of an idle frame's CPU time (by
//! `perf`, about two fifths under Xvfb on `dungeon.obj`: laying out the
//! parameter rows and tessellating their text), redone in every frame for
//! a picture that did not change. The 3D view still updates every frame.
//!
//! The renderer's extraction moves the paint jobs out of the main world in
//! every frame, so a frame without a pass hands it a copy of the last pass's
//! jobs ([`UiRefresh`] keeps them); the texture changes are not repeated
//! (they were applied in the pass's frame).

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{
    EguiFullOutput, EguiInput, EguiPostUpdateSet, EguiRenderOutput, PrimaryEguiContext, egui,
};

use crate::model::elements::StageGeometry;
use crate::ui::pacing::UnderWay;
use crate::ui::state::UiState;
use crate::view::scene::MainCamera;

/// Whether this frame runs the egui pass, and what the last pass left.
#[derive(Resource, Debug, Default)]
pub struct UiRefresh {
    /// This frame runs the egui pass.
    run: bool,
    /// When egui asked to be run again at the latest (none: only on input
    /// or a change).
    due: Option<Instant>,
    /// Whether work is under way in this frame: it changes the panels
    /// without input (progress, a stage published).
    busy: bool,
    /// Whether it was in the last frame: its end changes them too.
    was_busy: bool,
    /// The last pass's paint jobs, drawn again in frames without a pass.
    last_jobs: Vec<egui::ClippedPrimitive>,
    /// How many frames ran the egui pass.
    pub passes: u64,
    /// How many frames drew the last pass's picture again.
    pub reused: u64,
}

/// Runs the egui pass only when it may draw something new.
pub struct UiRefreshPlugin;

impl Plugin for UiRefreshPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UiRefresh>()
            .configure_sets(
                PostUpdate,
                (
                    EguiPostUpdateSet::EndPass.run_if(pass_runs),
                    EguiPostUpdateSet::ProcessOutput.run_if(pass_runs),
                    EguiPostUpdateSet::PostProcessOutput.run_if(pass_runs),
                ),
            )
            .add_systems(
                PostUpdate,
                (
                    (note_under_way, decide)
                        .chain()
                        .before(EguiPostUpdateSet::EndPass),
                    note_repaint
                        .run_if(pass_runs)
                        .after(EguiPostUpdateSet::EndPass)
                        .before(EguiPostUpdateSet::ProcessOutput),
                    keep_jobs.in_set(EguiPostUpdateSet::PostProcessOutput),
                ),
            );
    }
}

fn pass_runs(refresh: Res<UiRefresh>) -> bool {
    refresh.run
}

/// Whether the pass must run: `input` (egui has events or files to read),
/// `changed` (state the panels show changed, or the view moved), or egui's
/// requested time `due` has come (`None`: egui asked for nothing).
pub fn pass_due(input: bool, changed: bool, due: Option<Instant>, now: Instant) -> bool {
    input || changed || due.is_some_and(|d| d <= now)
}

fn egui_has_input(input: &egui::RawInput) -> bool {
    !input.events.is_empty() || !input.hovered_files.is_empty() || !input.dropped_files.is_empty()
}

fn decide(
    mut refresh: ResMut<UiRefresh>,
    state: UiState,
    mut contexts: Query<(&EguiInput, &mut EguiRenderOutput), With<PrimaryEguiContext>>,
    geometry: Query<(), Changed<StageGeometry>>,
    camera: Query<Ref<GlobalTransform>, With<MainCamera>>,
    window: Query<Ref<Window>, With<PrimaryWindow>>,
) {
    let Ok((input, mut output)) = contexts.single_mut() else {
        refresh.run = true;
        return;
    };
    let changed = state.shown_changed()
        || refresh.busy
        || refresh.was_busy
        || !geometry.is_empty()
        || camera.iter().any(|t| t.is_changed())
        || window.iter().any(|w| w.is_changed())
        || refresh.passes == 0;
    refresh.was_busy = refresh.busy;
    refresh.run = pass_due(egui_has_input(input), changed, refresh.due, Instant::now());
    if refresh.run {
        refresh.passes += 1;
    } else {
        refresh.reused += 1;
        output.bypass_change_detection().paint_jobs = refresh.last_jobs.clone();
    }
}

fn note_under_way(mut refresh: ResMut<UiRefresh>, under_way: UnderWay) {
    refresh.busy = under_way.any();
}

/// Notes when egui wants its next pass (after its own delay), from the
/// pass's output before it is processed.
fn note_repaint(
    mut refresh: ResMut<UiRefresh>,
    outputs: Query<&EguiFullOutput, With<PrimaryEguiContext>>,
) {
    let delay = outputs
        .iter()
        .filter_map(|o| o.0.as_ref())
        .filter_map(|o| o.viewport_output.get(&egui::ViewportId::ROOT))
        .map(|v| v.repaint_delay)
        .min()
        .unwrap_or(Duration::MAX);
    refresh.due = Instant::now().checked_add(delay);
}

/// Keeps the pass's paint jobs for the frames that follow without a pass.
fn keep_jobs(
    mut refresh: ResMut<UiRefresh>,
    outputs: Query<&EguiRenderOutput, With<PrimaryEguiContext>>,
) {
    if let Ok(output) = outputs.single() {
        refresh.last_jobs.clone_from(&output.paint_jobs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pass_runs_on_input_on_a_change_or_once_egui_asked_for_it() {
        let now = Instant::now();
        let later = now + Duration::from_millis(300);
        assert!(!pass_due(false, false, None, now));
        assert!(pass_due(true, false, None, now));
        assert!(pass_due(false, true, None, now));
        assert!(!pass_due(false, false, Some(later), now));
        assert!(pass_due(false, false, Some(later), later));
        assert!(pass_due(false, false, Some(now), later));
    }

    #[test]
    fn only_events_and_files_count_as_input() {
        let mut input = egui::RawInput::default();
        assert!(!egui_has_input(&input));
        input.time = Some(3.0);
        input.modifiers.shift = false;
        assert!(!egui_has_input(&input));
        input.events.push(egui::Event::PointerGone);
        assert!(egui_has_input(&input));
        let mut files = egui::RawInput::default();
        files.dropped_files.push(egui::DroppedFile::default());
        assert!(egui_has_input(&files));
    }
}
