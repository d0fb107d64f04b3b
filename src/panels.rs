//! The egui panels: menu bar, parameters, probe, inspector, metrics, about
//! this stage, legend, log, timeline, shortcuts and the frame-time readout.
//!
//! Panels are plain functions of state: each reads resources and writes
//! requests ([`LevelRequest`], [`ParamCommand`]) or small state changes;
//! nothing here computes navigation. One system lays them out (egui panels
//! must share one layout pass) and then narrows the 3D camera's viewport to
//! the space they leave, so framing and picking see the visible area only.
//! File dialogs (rfd) run on their own thread and report back through
//! [`Dialogs`].

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::camera::Viewport;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::{FileDragAndDrop, PrimaryWindow};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use navscope_core::{LinkKind, ParamKind, ParamValue, Stance};

use crate::draw::{self, Legend, Selection};
use crate::frames::{FrameStats, median};
use crate::journal::{Journal, Severity};
use crate::levels::{CurrentLevel, HotReload, LevelRequest, Settings};
use crate::params::ParamCommand;
use crate::probe::{Probe, ProbeOutcome};
use crate::scene::{MainCamera, ViewSettings};
use crate::stages::{Build, StageGeometry};
use crate::timeline::{Timeline, UiFocus, substep_count};

/// The panels and the file dialogs.
pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Dialogs>()
            .init_resource::<PanelState>()
            .add_systems(EguiPrimaryContextPass, ui)
            .add_systems(Update, (deliver_dialogs, function_keys));
    }
}

/// What a finished file dialog chose.
#[derive(Debug, Clone)]
pub enum DialogResult {
    /// A level to open.
    OpenLevel(PathBuf),
    /// A preset to load.
    LoadPreset(PathBuf),
    /// Where to save a preset.
    SavePreset(PathBuf),
}

/// File dialogs in flight; their answers arrive on another thread.
#[derive(Resource, Default)]
pub struct Dialogs {
    answers: Arc<Mutex<Vec<DialogResult>>>,
    busy: Arc<Mutex<bool>>,
}

impl Dialogs {
    fn ask(&self, kind: &'static str) {
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        if *busy {
            return;
        }
        *busy = true;
        let (answers, busy) = (self.answers.clone(), self.busy.clone());
        std::thread::spawn(move || {
            let result = match kind {
                "level" => rfd::FileDialog::new()
                    .set_title("Open level")
                    .add_filter(
                        "levels",
                        &["json", "ron", "obj", "png", "map", "gltf", "glb"],
                    )
                    .add_filter("all files", &["*"])
                    .pick_file()
                    .map(DialogResult::OpenLevel),
                "load" => rfd::FileDialog::new()
                    .set_title("Load preset")
                    .add_filter("RON preset", &["ron"])
                    .pick_file()
                    .map(DialogResult::LoadPreset),
                _ => rfd::FileDialog::new()
                    .set_title("Save preset")
                    .add_filter("RON preset", &["ron"])
                    .set_file_name("preset.ron")
                    .save_file()
                    .map(DialogResult::SavePreset),
            };
            if let Some(r) = result {
                answers.lock().unwrap_or_else(|e| e.into_inner()).push(r);
            }
            *busy.lock().unwrap_or_else(|e| e.into_inner()) = false;
        });
    }
}

fn deliver_dialogs(
    dialogs: Res<Dialogs>,
    mut levels: MessageWriter<LevelRequest>,
    mut params: MessageWriter<ParamCommand>,
    mut dropped: MessageReader<FileDragAndDrop>,
) {
    let answers: Vec<DialogResult> =
        std::mem::take(&mut *dialogs.answers.lock().unwrap_or_else(|e| e.into_inner()));
    for a in answers {
        match a {
            DialogResult::OpenLevel(p) => {
                levels.write(LevelRequest::Open(p));
            }
            DialogResult::LoadPreset(p) => {
                params.write(ParamCommand::LoadPreset(p));
            }
            DialogResult::SavePreset(p) => {
                params.write(ParamCommand::SavePreset(p));
            }
        }
    }
    for d in dropped.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            levels.write(LevelRequest::Open(path_buf.clone()));
        }
    }
}

/// Which optional windows are open.
#[derive(Resource, Debug, Default)]
pub struct PanelState {
    /// The F1 shortcuts window.
    pub help: bool,
    inspected: Option<(draw::Selection, u64, String)>,
    /// The height slice being edited in the View panel.
    slice_edit: Option<crate::filter::HeightBand>,
}

fn function_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut state: ResMut<PanelState>,
    mut stats: ResMut<FrameStats>,
    mut probe: ResMut<Probe>,
) {
    let Some(keys) = keys else { return };
    if keys.just_pressed(KeyCode::F1) {
        state.help = !state.help;
    }
    if keys.just_pressed(KeyCode::F2) {
        stats.show = !stats.show;
    }
    if keys.just_pressed(KeyCode::Escape) && !focus.keyboard {
        probe.clear();
    }
}

/// Everything the panels read and change.
#[derive(SystemParam)]
pub struct UiState<'w, 's> {
    current: Res<'w, CurrentLevel>,
    settings: Res<'w, Settings>,
    hot: ResMut<'w, HotReload>,
    build: ResMut<'w, Build>,
    timeline: ResMut<'w, Timeline>,
    legend: ResMut<'w, Legend>,
    filter: ResMut<'w, crate::filter::ViewFilter>,
    selection: ResMut<'w, Selection>,
    probe: ResMut<'w, Probe>,
    journal: Res<'w, Journal>,
    view: ResMut<'w, ViewSettings>,
    stats: ResMut<'w, FrameStats>,
    panel: ResMut<'w, PanelState>,
    focus: ResMut<'w, UiFocus>,
    dialogs: Res<'w, Dialogs>,
    roots: Query<'w, 's, &'static StageGeometry>,
    level_requests: MessageWriter<'w, LevelRequest>,
    param_commands: MessageWriter<'w, ParamCommand>,
    exit: MessageWriter<'w, AppExit>,
}

fn color32(c: [f32; 4]) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
        (c[3].max(0.6) * 255.0) as u8,
    )
}

const ERROR: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);

fn ui(
    mut contexts: EguiContexts,
    mut s: UiState,
    mut camera: Query<(&mut Camera, &GlobalTransform), With<MainCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "navscope-root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );

    egui::Panel::top("menu").show_inside(&mut root, |ui| menu_bar(ui, &mut s));
    egui::Panel::bottom("timeline")
        .resizable(false)
        .show_inside(&mut root, |ui| timeline_panel(ui, &mut s));
    egui::Panel::left("left")
        .default_size(300.0)
        .resizable(true)
        .show_inside(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                params_panel(ui, &mut s);
                ui.separator();
                probe_panel(ui, &mut s);
            });
        });
    egui::Panel::right("right")
        .default_size(330.0)
        .resizable(true)
        .show_inside(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                about_panel(ui, &mut s);
                legend_panel(ui, &mut s);
                crate::view_panel::view_panel(
                    ui,
                    &mut s.filter,
                    &mut s.panel.slice_edit,
                    &s.current.level,
                    s.roots.iter().flat_map(|g| g.prepared.groups.iter()),
                );
                inspector_panel(ui, &mut s);
                metrics_panel(ui, &mut s);
                log_panel(ui, &mut s);
            });
        });
    let central = root.available_rect_before_wrap();

    if s.panel.help {
        let mut open = true;
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .collapsible(false)
            .show(&ctx, help_window);
        s.panel.help = open;
    }
    if s.stats.show {
        frame_readout(&ctx, central, &s);
    }
    labels(&ctx, central, &s, &camera);

    s.focus.keyboard = ctx.egui_wants_keyboard_input();
    s.focus.pointer = ctx.is_pointer_over_egui();

    // The 3D view gets the space the panels leave.
    if let (Ok((mut cam, _)), Ok(w)) = (camera.single_mut(), window.single()) {
        let scale = w.scale_factor();
        let pos = UVec2::new(
            (central.min.x * scale) as u32,
            (central.min.y * scale) as u32,
        );
        let size = UVec2::new(
            (central.width() * scale).max(1.0) as u32,
            (central.height() * scale).max(1.0) as u32,
        );
        let fits = pos.x + size.x <= w.physical_width() && pos.y + size.y <= w.physical_height();
        let vp = Viewport {
            physical_position: pos,
            physical_size: size,
            ..default()
        };
        if fits
            && cam
                .viewport
                .as_ref()
                .is_none_or(|v| v.physical_position != pos || v.physical_size != size)
        {
            let first = cam.viewport.is_none();
            cam.viewport = Some(vp);
            if first {
                s.view.frame_request = true;
            }
        }
    }
    Ok(())
}

fn menu_bar(ui: &mut egui::Ui, s: &mut UiState) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open level…").on_hover_text("Choose a level file (or drop one on the window)").clicked() {
                s.dialogs.ask("level");
            }
            ui.menu_button("Open recent", |ui| {
                if s.settings.recent.is_empty() {
                    ui.label("(none yet)");
                }
                for p in s.settings.recent.clone() {
                    if ui.button(p.display().to_string()).clicked() {
                        s.level_requests.write(LevelRequest::Open(p));
                    }
                }
            });
            if ui.button("Open default level").clicked() {
                s.level_requests.write(LevelRequest::Embedded);
            }
            if ui.add_enabled(s.current.path.is_some(), egui::Button::new("Reload")).clicked() {
                s.level_requests.write(LevelRequest::Reload);
            }
            ui.checkbox(&mut s.hot.enabled, "Reload when the file changes");
            ui.separator();
            if ui.button("Quit").clicked() {
                s.exit.write(AppExit::Success);
            }
        });
        ui.menu_button("View", |ui| {
            if ui.checkbox(&mut s.view.top_down, "Top-down orthographic (T)").changed() {
                s.view.frame_request = true;
            }
            if ui.button("Frame level (F)").clicked() {
                s.view.frame_request = true;
            }
            ui.checkbox(&mut s.view.grid, "Grid and axes (G)");
            ui.checkbox(&mut s.timeline.accumulate, "Accumulate earlier stages (A)");
            ui.checkbox(&mut s.stats.show, "Frame-time readout (F2)");
            ui.checkbox(&mut s.probe.animate, "Animate the A* expansions");
        });
        if ui.button("Help (F1)").clicked() {
            s.panel.help = !s.panel.help;
        }
        ui.separator();
        ui.label(egui::RichText::new(s.current.display_name()).strong()).on_hover_text(s.current.level.source.clone());
        ui.label(format!("({})", s.current.level.kind().name()));
        let options = navscope_pipelines::for_kind(s.current.level.kind());
        let selected = s.current.pipeline.as_ref().map_or("no pipeline".to_string(), |p| format!("{} — {}", p.id, p.title));
        egui::ComboBox::from_id_salt("pipeline").selected_text(selected).show_ui(ui, |ui| {
            for p in options {
                let on = s.current.pipeline.as_ref().is_some_and(|c| c.id == p.id);
                if ui.selectable_label(on, format!("{} — {}", p.id, p.title)).clicked() && !on {
                    s.level_requests.write(LevelRequest::Pipeline(p.id.to_string()));
                }
            }
        });
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if let Some((i, n, secs)) = s.build.progress() {
                if ui.button("Cancel").clicked() {
                    s.build.cancel();
                }
                ui.add(egui::Spinner::new());
                ui.label(format!("building stage {}/{} ({secs:.1} s)", (i + 1).min(n), n));
            } else if let Some(r) = &s.build.last {
                ui.label(format!("re-ran {} stage(s) from #{} in {:.1} ms; view updated {:.0} ms after the change", r.stages_ran, r.from + 1, r.compute_ms, r.latency_ms));
            }
        });
    });
}

fn timeline_panel(ui: &mut egui::Ui, s: &mut UiState) {
    let Some(pipeline) = s.build.pipeline().cloned() else {
        ui.label("No pipeline accepts this level, so there are no stages to show.");
        return;
    };
    let n = pipeline.stages.len();
    ui.horizontal(|ui| {
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
        ui.checkbox(&mut s.timeline.accumulate, "accumulate")
            .on_hover_text("Show earlier stages under the current one (A)");
        ui.separator();
        let runner = s.build.runner().cloned();
        for (i, st) in pipeline.stages.iter().enumerate() {
            let res = runner.as_ref().and_then(|r| r.result(i));
            let (detail, failed) = match res {
                Some(r) => match &r.outcome {
                    Ok(_) => (
                        format!(
                            "{:.1} ms · {}",
                            r.ms,
                            r.counts
                                .iter()
                                .map(|(k, v)| format!("{v} {k}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        false,
                    ),
                    Err(e) => (e.to_string(), true),
                },
                None => ("not run".to_string(), false),
            };
            let title = egui::RichText::new(format!("{}. {}", i + 1, st.info.title));
            let title = if failed { title.color(ERROR) } else { title };
            let text = format!("{}\n{}", i + 1, detail);
            let on = s.timeline.current == i;
            let resp = ui
                .add(egui::Button::selectable(on, title))
                .on_hover_text(format!("{}\n{text}", st.info.explanation));
            if resp.clicked() {
                s.timeline.set_stage(i);
            }
        }
    });
    // Counts and time of the current stage, and its sub-steps.
    let cur = s.timeline.current.min(n.saturating_sub(1));
    let runner = s.build.runner();
    ui.horizontal(|ui| {
        if let Some(r) = runner.and_then(|r| r.result(cur)) {
            match &r.outcome {
                Ok(_) => {
                    ui.label(format!("{:.2} ms", r.ms));
                    for (k, v) in &r.counts {
                        ui.label(format!("{k}: {v}"));
                    }
                }
                Err(e) => {
                    ui.colored_label(ERROR, format!("failed: {e}"));
                }
            }
        }
        let subs = substep_count(s.roots.iter(), cur);
        if subs > 0 {
            ui.separator();
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
            let mut step = s.timeline.substep.unwrap_or(subs - 1) as i64;
            let slider = egui::Slider::new(&mut step, 0..=(subs as i64 - 1))
                .text(format!("sub-step of {subs}"));
            if ui.add_enabled(!all, slider).changed() {
                s.timeline.substep = Some(step as u32);
            }
            if let Some(st) = s.timeline.substep
                && let Some(geo) = s.roots.iter().find(|g| g.stage == cur)
                && let Some(sub) = geo.substeps.get(st as usize)
            {
                ui.label(egui::RichText::new(&sub.title).strong())
                    .on_hover_text(&sub.detail);
                ui.label(&sub.detail);
            }
        }
    });
}

fn params_panel(ui: &mut egui::Ui, s: &mut UiState) {
    ui.heading("Parameters");
    let (Some(pipeline), Some(values)) = (s.build.pipeline().cloned(), s.build.params().cloned())
    else {
        ui.label("No pipeline.");
        return;
    };
    if pipeline.params.is_empty() {
        ui.label("This pipeline has no parameters.");
    }
    for spec in &pipeline.params {
        let value = values
            .get(&spec.name)
            .cloned()
            .unwrap_or_else(|| spec.default.clone());
        let tip = format!(
            "{}\n\ndefault (the paper's value): {}{}",
            spec.doc,
            spec.default,
            if spec.unit.is_empty() {
                String::new()
            } else {
                format!(" {}", spec.unit)
            }
        );
        let reader = pipeline
            .first_reader(&spec.name)
            .map(|i| {
                format!(
                    "\nchanging it re-runs from stage {} ({})",
                    i + 1,
                    pipeline.stages[i].info.id
                )
            })
            .unwrap_or_default();
        let tip = format!("{tip}{reader}");
        ui.horizontal(|ui| {
            let mut new: Option<ParamValue> = None;
            ui.label(&spec.label).on_hover_text(&tip);
            match (&spec.kind, &value) {
                (ParamKind::Float { min, max, step }, v) => {
                    let mut x = match v {
                        ParamValue::Float(x) => *x,
                        ParamValue::Int(i) => *i as f64,
                        _ => spec_default_f(&spec.default),
                    };
                    let mut slider = egui::Slider::new(&mut x, *min..=*max);
                    if *step > 0.0 {
                        slider = slider.step_by(*step);
                    }
                    if !spec.unit.is_empty() {
                        slider = slider.suffix(format!(" {}", spec.unit));
                    }
                    if ui.add(slider).on_hover_text(&tip).changed() {
                        new = Some(ParamValue::Float(x));
                    }
                }
                (ParamKind::Int { min, max }, v) => {
                    let mut i = if let ParamValue::Int(i) = v { *i } else { *min };
                    let mut slider = egui::Slider::new(&mut i, *min..=*max);
                    if !spec.unit.is_empty() {
                        slider = slider.suffix(format!(" {}", spec.unit));
                    }
                    if ui.add(slider).on_hover_text(&tip).changed() {
                        new = Some(ParamValue::Int(i));
                    }
                }
                (ParamKind::Bool, v) => {
                    let mut b = matches!(v, ParamValue::Bool(true));
                    if ui.checkbox(&mut b, "").on_hover_text(&tip).changed() {
                        new = Some(ParamValue::Bool(b));
                    }
                }
                (ParamKind::Choice { options }, v) => {
                    let cur = v.to_string();
                    egui::ComboBox::from_id_salt(&spec.name)
                        .selected_text(&cur)
                        .show_ui(ui, |ui| {
                            for o in options {
                                if ui.selectable_label(*o == cur, o).clicked() && *o != cur {
                                    new = Some(ParamValue::Text(o.clone()));
                                }
                            }
                        });
                }
                (ParamKind::List { options }, v) => {
                    let mut text = v.to_string();
                    let resp = ui.text_edit_singleline(&mut text).on_hover_text(format!(
                        "{tip}\noptions, comma-separated, in order: {}",
                        options.join(", ")
                    ));
                    if resp.lost_focus() && text != v.to_string() {
                        new = Some(ParamValue::Text(text));
                    }
                }
            }
            if value != spec.default
                && ui
                    .small_button("↺")
                    .on_hover_text(format!("Reset to {}", spec.default))
                    .clicked()
            {
                s.param_commands
                    .write(ParamCommand::Reset(spec.name.clone()));
            }
            if let Some(v) = new {
                s.param_commands
                    .write(ParamCommand::Set(spec.name.clone(), v));
            }
        });
    }
    ui.horizontal(|ui| {
        if ui
            .button("Reset all")
            .on_hover_text("Every parameter back to the paper's value")
            .clicked()
        {
            s.param_commands.write(ParamCommand::ResetAll);
        }
        if ui
            .button("Load preset…")
            .on_hover_text("Read parameter values from a RON file")
            .clicked()
        {
            s.dialogs.ask("load");
        }
        if ui
            .button("Save preset…")
            .on_hover_text("Write the current values to a RON file")
            .clicked()
        {
            s.dialogs.ask("save");
        }
    });
}

fn spec_default_f(v: &ParamValue) -> f64 {
    match v {
        ParamValue::Float(x) => *x,
        ParamValue::Int(i) => *i as f64,
        _ => 0.0,
    }
}

fn probe_panel(ui: &mut egui::Ui, s: &mut UiState) {
    ui.heading("Path probe");
    ui.label("Click: start · Shift-click: goal · Esc: clear");
    let mut changed = false;
    egui::CollapsingHeader::new("Search options")
        .default_open(false)
        .show(ui, |ui| {
            ui.label("Cost multiplier per stance");
            for (i, st) in Stance::ALL.iter().enumerate() {
                changed |= ui
                    .add(
                        egui::Slider::new(&mut s.probe.options.stance_cost[i], 0.1..=10.0)
                            .logarithmic(true)
                            .text(st.name()),
                    )
                    .on_hover_text(format!("Multiplies the cost of moving while {}", st.name()))
                    .changed();
            }
            ui.label("Allowed link kinds");
            ui.horizontal_wrapped(|ui| {
                for (i, k) in LinkKind::ALL.iter().enumerate() {
                    changed |= ui
                        .checkbox(&mut s.probe.options.allowed[i], k.name())
                        .changed();
                }
            });
        });
    if changed {
        s.probe.options_changed();
    }
    let fmt = |p: Option<Vec3>| {
        p.map_or("—".to_string(), |p| {
            format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
        })
    };
    ui.label(format!("start {}", fmt(s.probe.start)));
    ui.label(format!("goal  {}", fmt(s.probe.goal)));
    match &s.probe.outcome {
        Some(ProbeOutcome::Searched { result, ms }) => {
            if result.found {
                ui.label(format!(
                    "length {:.2} m (through cell centres {:.2} m)",
                    result.length, result.centre_length
                ));
            } else {
                ui.colored_label(ERROR, "no path found");
            }
            ui.label(format!(
                "{} expansions in {:.3} ms · {} waypoints",
                result.expansions,
                ms,
                result.waypoints.len()
            ));
            let stances: Vec<&str> = result.waypoints.iter().map(|w| w.stance.name()).collect();
            if stances.iter().any(|s| *s != "stand") {
                ui.label(format!("stances: {}", stances.join(" → ")));
            }
        }
        Some(ProbeOutcome::Answered { answer, ms }) => {
            ui.label(format!(
                "length {:.2} m · {} waypoints · {:.3} ms",
                answer.length,
                answer.waypoints.len(),
                ms
            ));
            ui.label(&answer.summary);
        }
        Some(ProbeOutcome::NoPath(why)) => {
            ui.colored_label(ERROR, why);
        }
        None => {}
    }
    if (s.probe.start.is_some() || s.probe.goal.is_some()) && ui.button("Clear").clicked() {
        s.probe.clear();
    }
}

fn about_panel(ui: &mut egui::Ui, s: &mut UiState) {
    let Some(p) = s.build.pipeline().cloned() else {
        return;
    };
    let Some(st) = p.stages.get(s.timeline.current) else {
        return;
    };
    egui::CollapsingHeader::new(egui::RichText::new(format!("About: {}", st.info.title)).strong())
        .default_open(true)
        .show(ui, |ui| {
            ui.label(st.info.explanation);
            ui.label(egui::RichText::new(st.info.paper).italics());
            if !st.info.params.is_empty() {
                ui.label(format!("reads: {}", st.info.params.join(", ")));
            }
        });
}

fn legend_panel(ui: &mut egui::Ui, s: &mut UiState) {
    egui::CollapsingHeader::new("Legend")
        .default_open(true)
        .show(ui, |ui| {
            let shown: std::collections::BTreeSet<String> = s
                .roots
                .iter()
                .filter(|g| {
                    if s.timeline.accumulate {
                        g.stage <= s.timeline.current
                    } else {
                        g.stage == s.timeline.current
                    }
                })
                .flat_map(|g| g.prepared.groups.iter().map(|x| x.kind.clone()))
                .collect();
            if shown.is_empty() {
                ui.label("Nothing drawn at this stage.");
            }
            for kind in shown {
                let color = s
                    .legend
                    .kinds
                    .get(&kind)
                    .copied()
                    .unwrap_or([0.5, 0.5, 0.5, 1.0]);
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                    ui.painter().rect_filled(rect, 2.0, color32(color));
                    let mut visible = !s.legend.hidden.contains(&kind);
                    if ui.checkbox(&mut visible, &kind).changed() {
                        if visible {
                            s.legend.hidden.remove(&kind);
                        } else {
                            s.legend.hidden.insert(kind.clone());
                        }
                    }
                    let range = s
                        .roots
                        .iter()
                        .flat_map(|g| g.prepared.groups.iter())
                        .find(|g| g.kind == kind)
                        .and_then(|g| g.value_range);
                    if let Some(range) = range {
                        crate::view_panel::ramp_bar(ui, range);
                    }
                });
            }
        });
}

fn inspector_panel(ui: &mut egui::Ui, s: &mut UiState) {
    egui::CollapsingHeader::new("Inspector")
        .default_open(true)
        .show(ui, |ui| {
            let Some(sel) = s.selection.0.clone() else {
                ui.label("Click an element to inspect it.");
                return;
            };
            let published = s.build.published;
            let cached = s
                .panel
                .inspected
                .as_ref()
                .filter(|(k, p, _)| k.0.as_ref() == Some(&sel) && *p == published)
                .map(|(_, _, t)| t.clone());
            let text = cached.unwrap_or_else(|| {
                let json = s
                    .build
                    .runner()
                    .and_then(|r| r.result(sel.stage))
                    .and_then(|r| r.outcome.as_ref().ok())
                    .map(|a| {
                        serde_json::to_string_pretty(&a.describe(sel.element)).unwrap_or_default()
                    })
                    .unwrap_or_else(|| "(the stage that made it has been rebuilt)".into());
                s.panel.inspected = Some((Selection(Some(sel.clone())), published, json.clone()));
                json
            });
            let stage_name = s
                .build
                .pipeline()
                .and_then(|p| p.stages.get(sel.stage))
                .map_or("?", |st| st.info.title);
            ui.label(egui::RichText::new(format!("{} #{}", sel.kind, sel.element)).strong());
            ui.label(format!("made by stage {}: {stage_name}", sel.stage + 1));
            egui::ScrollArea::both()
                .max_height(260.0)
                .id_salt("inspect")
                .show(ui, |ui| {
                    ui.label(egui::RichText::new(text).monospace().size(11.0));
                });
            if ui.small_button("Deselect").clicked() {
                s.selection.0 = None;
            }
        });
}

fn metrics_panel(ui: &mut egui::Ui, s: &mut UiState) {
    egui::CollapsingHeader::new("Metrics")
        .default_open(false)
        .show(ui, |ui| {
            let Some(r) = s.build.runner() else { return };
            let n = r.pipeline().stages.len();
            let mut any = false;
            egui::Grid::new("metrics").striped(true).show(ui, |ui| {
                for i in 0..n {
                    if let Some(Ok(a)) = r.result(i).map(|x| &x.outcome) {
                        for (k, v) in a.metrics() {
                            any = true;
                            ui.label(k);
                            ui.label(format!("{v:.4}"));
                            ui.end_row();
                        }
                    }
                }
                let total: f64 = (0..n).filter_map(|i| r.result(i)).map(|x| x.ms).sum();
                ui.label("total build time");
                ui.label(format!("{total:.2} ms"));
                ui.end_row();
            });
            if !any {
                ui.label("No stage reports metrics yet.");
            }
        });
}

fn log_panel(ui: &mut egui::Ui, s: &mut UiState) {
    let errors = s
        .journal
        .entries()
        .iter()
        .filter(|e| e.severity == Severity::Error)
        .count();
    let title = if errors > 0 {
        egui::RichText::new(format!("Log ({errors} error(s))")).color(ERROR)
    } else {
        egui::RichText::new("Log")
    };
    egui::CollapsingHeader::new(title)
        .id_salt("log")
        .default_open(errors > 0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .max_height(180.0)
                .id_salt("logscroll")
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for e in s.journal.entries() {
                        match e.severity {
                            Severity::Info => ui.label(egui::RichText::new(&e.text).size(11.0)),
                            Severity::Error => {
                                ui.label(egui::RichText::new(&e.text).size(11.0).color(ERROR))
                            }
                        };
                    }
                });
        });
}

fn help_window(ui: &mut egui::Ui) {
    egui::Grid::new("keys").striped(true).show(ui, |ui| {
        for (k, what) in [
            ("Left / Right", "previous / next stage"),
            ("Up / Down", "next / previous sub-step"),
            ("Home / End", "first / last stage"),
            ("Space", "play / pause"),
            ("A", "accumulate earlier stages"),
            ("F", "frame the level"),
            ("T", "top-down orthographic view"),
            ("G", "grid and axes"),
            ("Click", "probe start + inspect element"),
            ("Shift-click", "probe goal"),
            ("Esc", "clear the probe"),
            ("Drag (left / right)", "orbit / pan (top view: right pans)"),
            ("Wheel", "zoom"),
            ("F1", "this window"),
            ("F2", "frame-time readout"),
        ] {
            ui.label(egui::RichText::new(k).monospace());
            ui.label(what);
            ui.end_row();
        }
    });
}

fn frame_readout(ctx: &egui::Context, central: egui::Rect, s: &UiState) {
    let recent: Vec<f32> = s.stats.recent.iter().copied().collect();
    let last = recent.last().copied().unwrap_or(0.0);
    let max = recent.iter().copied().fold(0.0, f32::max);
    egui::Area::new(egui::Id::new("frame-readout"))
        .fixed_pos(central.right_top() + egui::vec2(-260.0, 6.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(
                    egui::RichText::new(format!(
                        "frame {last:5.1} ms  median {:5.1}  max {max:5.1}",
                        median(&recent)
                    ))
                    .monospace(),
                );
                ui.label(
                    egui::RichText::new(format!(
                        "idle median {:.1} ms · busy max {:.1} ms",
                        median(&s.stats.idle),
                        s.stats.busy.iter().copied().fold(0.0, f32::max)
                    ))
                    .monospace(),
                );
            });
        });
}

/// Text labels of the shown stage, drawn over the 3D view.
fn labels(
    ctx: &egui::Context,
    central: egui::Rect,
    s: &UiState,
    camera: &Query<(&mut Camera, &GlobalTransform), With<MainCamera>>,
) {
    let Ok((cam, tf)) = camera.single() else {
        return;
    };
    let painter = ctx
        .layer_painter(egui::LayerId::background())
        .with_clip_rect(central);
    let mut drawn = 0;
    for geo in s.roots.iter().filter(|g| g.stage == s.timeline.current) {
        for g in &geo.prepared.groups {
            if s.legend.is_hidden(&g.kind) {
                continue;
            }
            for (at, text) in &g.labels {
                if drawn >= 300 {
                    return;
                }
                if let Ok(p) = cam.world_to_viewport(tf, *at) {
                    let pos = central.min + egui::vec2(p.x, p.y);
                    painter.text(
                        pos,
                        egui::Align2::CENTER_CENTER,
                        text,
                        egui::FontId::proportional(12.0),
                        egui::Color32::from_rgb(30, 30, 40),
                    );
                    drawn += 1;
                }
            }
        }
    }
}
