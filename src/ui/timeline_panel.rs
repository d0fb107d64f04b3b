//! The timeline at the bottom: play, step, and one button per stage that
//! says where the stage stands in the build on screen (finished, running
//! with its time so far, waiting, failed), then the current stage's
//! sub-step control and text, then its counts.
//!
//! Laid out to fit any window: the stage buttons wrap onto more rows (a
//! voxel timeline is wider than a 1600 px window), the sub-step control
//! comes before the counts and its text wraps below it, and the counts are
//! one line cut to the width with the whole list on hover, so neither
//! pushes the other off-screen.

use bevy_egui::egui;

use crate::build::StageState;
use crate::model::timeline::substep_count;
use crate::ui::state::ERROR;
use crate::ui::state::UiState;
use navscope_core::stage::StageError;

/// Draws the timeline panel.
pub fn timeline_panel(ui: &mut egui::Ui, s: &mut UiState) {
    let Some(pipeline) = s.build.pipeline().cloned() else {
        ui.label("No pipeline accepts this level, so there are no stages to show.");
        return;
    };
    let n = pipeline.stages.len();
    ui.horizontal_wrapped(|ui| {
        let play = if s.timeline.playing {
            "⏸ Pause"
        } else {
            "▶ Play"
        };
        if ui
            .button(play)
            .on_hover_text("Play through the stages and their sub-steps (Space)")
            .clicked()
        {
            s.timeline.toggle_play(n);
        }
        if ui
            .button("◀")
            .on_hover_text("Previous stage (Left)")
            .clicked()
        {
            s.timeline.step_stage(-1, n);
        }
        if ui.button("▶").on_hover_text("Next stage (Right)").clicked() {
            s.timeline.step_stage(1, n);
        }
        // Through a copy: a `&mut` into the timeline every frame would mark
        // it changed every frame, and everything that follows it redone.
        let mut accumulate = s.timeline.accumulate;
        if ui
            .checkbox(&mut accumulate, "accumulate")
            .on_hover_text("Show earlier stages under the current one (A)")
            .changed()
        {
            s.timeline.accumulate = accumulate;
        }
        ui.separator();
        let runner = s.build.runner().cloned();
        for (i, st) in pipeline.stages.iter().enumerate() {
            let state = s.build.stage_state(i);
            // What the hover says, made only while hovered: a voxel
            // stage's counts are dozens, formatted for every stage in
            // every frame otherwise.
            let detail = || match (state, runner.as_ref().and_then(|r| r.result(i))) {
                (StageState::Running(secs), _) => format!("running ({secs:.1} s)"),
                (StageState::Pending, _) => "waiting for the stages before it".to_string(),
                (_, Some(r)) => match &r.outcome {
                    Ok(_) => format!(
                        "{:.1} ms · {}",
                        r.ms,
                        r.counts
                            .iter()
                            .map(|(k, v)| format!("{v} {k}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    Err(e) => e.to_string(),
                },
                (_, None) => "not run".to_string(),
            };
            let (mark, color) = match state {
                StageState::Finished => ("✔", None),
                StageState::Failed => ("✖", Some(ERROR)),
                StageState::Running(_) => ("⏳", Some(egui::Color32::from_rgb(30, 90, 200))),
                StageState::Pending | StageState::NotRun => ("…", Some(egui::Color32::GRAY)),
            };
            let title = egui::RichText::new(format!("{mark} {}. {}", i + 1, st.info.title));
            let title = match color {
                Some(c) => title.color(c),
                None => title,
            };
            let on = s.timeline.current == i;
            let resp = ui
                .add(egui::Button::selectable(on, title))
                .on_hover_ui(|ui| {
                    ui.label(format!("{}\n{}\n{}", st.info.explanation, i + 1, detail()));
                });
            s.tag(&format!("timeline/stage/{i}"), &resp);
            if resp.clicked() {
                s.timeline.set_stage(i);
            }
            if let StageState::Running(_) = state {
                ui.add(egui::Spinner::new());
            }
        }
    });
    // The current stage's sub-steps, then its time and counts.
    let cur = s.timeline.current.min(n.saturating_sub(1));
    let subs = substep_count(s.roots.iter(), cur);
    if subs > 0 {
        ui.horizontal(|ui| {
            let mut all = s.timeline.substep.is_none();
            if ui
                .checkbox(&mut all, "final state")
                .on_hover_text(
                    "Show the stage's result rather than one of its sub-steps (Up/Down step)",
                )
                .changed()
            {
                s.timeline.substep = if all { None } else { Some(0) };
            }
            // Counted from 1 on screen, as the sub-steps' own texts count
            // ("notch 3 of 29" is sub-step 3 of 29).
            let mut step = s.timeline.substep.unwrap_or(subs - 1) as i64 + 1;
            let slider = egui::Slider::new(&mut step, 1..=(subs as i64))
                .text(format!("of {subs} sub-steps"));
            let resp = ui.add_enabled(!all, slider);
            s.tag("timeline/substep", &resp);
            if resp.changed() {
                s.timeline.substep = Some((step - 1).max(0) as u32);
            }
            if let Some(sub) = shown_substep(s, cur) {
                ui.label(egui::RichText::new(&sub.title).strong())
                    .on_hover_text(&sub.detail);
            }
        });
        if let Some(sub) = shown_substep(s, cur) {
            let detail = ui.add(egui::Label::new(&sub.detail).wrap());
            s.tag("timeline/substep-text", &detail);
        }
    }
    let runner = s.build.runner();
    if let Some(r) = runner.and_then(|r| r.result(cur)) {
        match &r.outcome {
            Ok(_) => {
                let counts = std::iter::once(format!("{:.2} ms", r.ms))
                    .chain(r.counts.iter().map(|(k, v)| format!("{k}: {v}")))
                    .collect::<Vec<_>>();
                ui.add(egui::Label::new(counts.join("   ")).truncate())
                    .on_hover_text(counts.join("\n"));
            }
            Err(e) => {
                ui.add(
                    egui::Label::new(egui::RichText::new(failure_line(e, runner)).color(ERROR))
                        .wrap(),
                );
            }
        }
    }
}

/// The sub-step on screen of stage `cur`, if one is chosen.
fn shown_substep(s: &UiState, cur: usize) -> Option<crate::model::substeps::StepText> {
    let st = s.timeline.substep?;
    let geo = s.roots.iter().find(|g| g.stage == cur)?;
    geo.substeps.get(st as usize).cloned()
}

/// The failure line of a stage: a stage that did not run because an
/// earlier one failed also says why that one failed (the reason would
/// otherwise be only in the log).
fn failure_line(e: &StageError, runner: Option<&navscope_core::Runner>) -> String {
    let cause = runner
        .and_then(|r| r.first_error())
        .filter(|_| matches!(e, StageError::Blocked(_)));
    match cause {
        Some((_, first)) => format!("failed: {e}: {first}"),
        None => format!("failed: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_stage_blocked_by_a_refusal_says_what_was_refused() {
        let voxel = navscope_pipelines::by_id("voxel").expect("voxel");
        let plan = Arc::new(navscope_levels::default_level());
        let mesh = navscope_pipelines::level_for(&voxel, &plan).expect("converted");
        let mut r = navscope_core::Runner::new(voxel, mesh);
        r.set_budget(navscope_core::MemoryBudget::new(64 << 10));
        r.run_all();
        let (first, _) = r.first_error().expect("a 64 KB budget refuses");
        let later = r
            .result(first + 1)
            .expect("run")
            .outcome
            .as_ref()
            .unwrap_err();
        let line = failure_line(later, Some(&r));
        assert!(
            line.contains("not run") && line.contains("the budget is 64 KB"),
            "{line}"
        );
        // The refused stage itself is not repeated.
        let own = r.result(first).unwrap().outcome.as_ref().unwrap_err();
        assert_eq!(
            failure_line(own, Some(&r)).matches("the budget is").count(),
            1
        );
    }
}
