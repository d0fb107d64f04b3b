//! The egui panels: menu bar, parameters, probe, inspector, metrics, about
//! this stage, legend, log, timeline, shortcuts and the frame-time readout.
//!
//! Panels are plain functions of state: each reads resources and writes
//! requests ([`LevelRequest`], [`ParamCommand`]) or small state changes;
//! nothing here computes navigation. One system lays them out (egui panels
//! must share one layout pass) and then narrows the 3D camera's viewport to
//! the space they leave, so framing and picking see the visible area only.
//! File dialogs run on their own thread ([`crate::dialogs`]). The layout
//! pass also records where the panels are ([`UiFocus`]) so clicks on them
//! never reach the scene, and where the widgets are ([`UiReport`]) for the
//! end-to-end tests. The timeline, the probe panel and the inspector live in
//! their own modules.

use bevy::camera::Viewport;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use navscope_core::{ParamKind, ParamValue};

use crate::dialogs::{Dialogs, FileAction};
use crate::draw::{Legend, Selection};
use crate::frames::{FrameStats, median};
use crate::history::{History, HistoryCommand};
use crate::interact::clicks::Hover;
use crate::interact::pointer::ScenePointer;
use crate::interact::tool::{Tool, Tools};
use crate::journal::{Journal, Severity};
use crate::levels::{CurrentLevel, HotReload, LevelRequest, Loading, Settings};
use crate::params::ParamCommand;
use crate::probe::{Probe, ProbeLayers, ProbeSearch};
use crate::report::UiReport;
use crate::scene::{MainCamera, ViewSettings};
use crate::stages::{Build, StageElement, StageGeometry};
use crate::timeline::{Timeline, UiFocus};

/// The panels and the file dialogs.
pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PanelState>()
            .init_resource::<UiReport>()
            .add_systems(EguiPrimaryContextPass, ui)
            .add_systems(Update, function_keys);
    }
}

/// Which optional windows are open.
#[derive(Resource, Debug, Default)]
pub struct PanelState {
    /// The F1 shortcuts window.
    pub help: bool,
    /// The inspected element's description, cached per build.
    pub(crate) inspected: Option<(Selection, u64, serde_json::Value)>,
    /// The height slice being edited in the View panel.
    slice_edit: Option<crate::filter::HeightBand>,
}

fn function_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut state: ResMut<PanelState>,
    mut stats: ResMut<FrameStats>,
) {
    let Some(keys) = keys else { return };
    if focus.keyboard {
        return;
    }
    if keys.just_pressed(KeyCode::F1) {
        state.help = !state.help;
    }
    if keys.just_pressed(KeyCode::F2) {
        stats.show = !stats.show;
    }
}

/// Everything the panels read and change.
#[derive(SystemParam)]
pub struct UiState<'w, 's> {
    pub(crate) current: Res<'w, CurrentLevel>,
    pub(crate) loading: Res<'w, Loading>,
    pub(crate) settings: Res<'w, Settings>,
    pub(crate) hot: ResMut<'w, HotReload>,
    pub(crate) build: ResMut<'w, Build>,
    pub(crate) timeline: ResMut<'w, Timeline>,
    pub(crate) legend: ResMut<'w, Legend>,
    pub(crate) filter: ResMut<'w, crate::filter::ViewFilter>,
    pub(crate) selection: ResMut<'w, Selection>,
    pub(crate) probe: ResMut<'w, Probe>,
    pub(crate) probe_layers: ResMut<'w, ProbeLayers>,
    pub(crate) probe_search: Res<'w, ProbeSearch>,
    pub(crate) tools: ResMut<'w, Tools>,
    pub(crate) hover: Res<'w, Hover>,
    pub(crate) pointer: Res<'w, ScenePointer>,
    pub(crate) history: Res<'w, History>,
    pub(crate) journal: Res<'w, Journal>,
    pub(crate) view: ResMut<'w, ViewSettings>,
    pub(crate) stats: ResMut<'w, FrameStats>,
    pub(crate) panel: ResMut<'w, PanelState>,
    pub(crate) focus: ResMut<'w, UiFocus>,
    pub(crate) dialogs: ResMut<'w, Dialogs>,
    pub(crate) report: ResMut<'w, UiReport>,
    pub(crate) roots: Query<'w, 's, &'static StageGeometry>,
    pub(crate) elements: Query<'w, 's, &'static StageElement>,
    pub(crate) level_requests: MessageWriter<'w, LevelRequest>,
    pub(crate) param_commands: MessageWriter<'w, ParamCommand>,
    pub(crate) history_commands: MessageWriter<'w, HistoryCommand>,
    pub(crate) exit: MessageWriter<'w, AppExit>,
}

impl UiState<'_, '_> {
    /// Notes where a widget is, for the end-to-end tests.
    pub(crate) fn tag(&mut self, name: &str, r: &egui::Response) {
        self.report.widget(
            name,
            Vec2::new(r.rect.min.x, r.rect.min.y),
            Vec2::new(r.rect.max.x, r.rect.max.y),
        );
    }

    /// Opens the file dialog for `action`, proposing a file name.
    pub(crate) fn ask_file(&mut self, action: FileAction) {
        let name = crate::export::suggested_name(action, &self.current, &self.build);
        self.dialogs.ask(action, &name);
    }
}

/// An egui colour for a style-table colour (kept visible on light ground).
pub(crate) fn color32(c: [f32; 4]) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
        (c[3].max(0.6) * 255.0) as u8,
    )
}

/// The colour of error text.
pub(crate) const ERROR: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);

fn ui(
    mut contexts: EguiContexts,
    mut s: UiState,
    mut camera: Query<(&mut Camera, &GlobalTransform), With<MainCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    s.report.widgets.clear();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "navscope-root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );

    let menu = egui::Panel::top("menu").show_inside(&mut root, |ui| menu_bar(ui, &mut s));
    let bottom = egui::Panel::bottom("timeline")
        .resizable(false)
        .show_inside(&mut root, |ui| crate::timeline_panel::timeline_panel(ui, &mut s));
    let left = egui::Panel::left("left")
        .default_size(300.0)
        .resizable(true)
        .show_inside(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                params_panel(ui, &mut s);
                ui.separator();
                crate::probe_panel::probe_panel(ui, &mut s);
            });
        });
    let right = egui::Panel::right("right")
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
                crate::inspector::inspector_panel(ui, &mut s);
                metrics_panel(ui, &mut s);
                log_panel(ui, &mut s);
            });
        });
    for (name, r) in [
        ("panel/menu", &menu.response),
        ("panel/timeline", &bottom.response),
        ("panel/left", &left.response),
        ("panel/right", &right.response),
    ] {
        s.tag(name, r);
    }
    let central = root.available_rect_before_wrap();
    s.report.central = [central.min.x, central.min.y, central.max.x, central.max.y];

    if s.panel.help {
        let mut open = true;
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .collapsible(false)
            .show(&ctx, help_window);
        s.panel.help = open;
    }
    path_prompt(&ctx, &mut s);
    if s.stats.show {
        frame_readout(&ctx, central, &s);
    }
    if let Ok((cam, tf)) = camera.single() {
        let painter = ctx
            .layer_painter(egui::LayerId::background())
            .with_clip_rect(central);
        crate::overlay::labels(&painter, cam, tf, &s.timeline, &s.legend, s.roots.iter());
        crate::overlay::probe(&painter, cam, tf, &s.probe, &s.probe_layers);
    }
    if s.pointer.in_scene {
        let title = s
            .hover
            .0
            .as_ref()
            .and_then(|h| s.build.pipeline()?.stages.get(h.stage))
            .map_or("", |st| st.info.title);
        crate::overlay::hover_tip(&ctx, &s.hover, s.pointer.cursor, title);
    }

    // While the path field is shown it is modal: keys go to it, never to
    // the app's shortcuts.
    s.focus.keyboard = ctx.egui_wants_keyboard_input() || s.dialogs.prompt.is_some();
    s.focus.pointer = ctx.is_pointer_over_egui();
    s.focus.scene = Some(Rect::new(central.min.x, central.min.y, central.max.x, central.max.y));
    s.focus.floating = ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|l| !matches!(l.order, egui::Order::Background | egui::Order::Tooltip))
            .filter_map(|l| m.area_rect(l.id))
            .map(|r| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y))
            .collect()
    });
    s.focus.popup = egui::Popup::is_any_open(&ctx);
    s.focus.using_pointer = ctx.egui_is_using_pointer();

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
        let file = ui.menu_button("File", |ui| file_menu(ui, s));
        s.tag("menu/file", &file.response);
        let edit = ui.menu_button("Edit", |ui| {
            let undo = ui.add_enabled(
                s.history.undo_depth() > 0,
                egui::Button::new("Undo").shortcut_text("Ctrl+Z"),
            );
            s.tag("menu/edit/undo", &undo);
            if undo.clicked() {
                s.history_commands.write(HistoryCommand::Undo);
            }
            let redo = ui.add_enabled(
                s.history.redo_depth() > 0,
                egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z"),
            );
            s.tag("menu/edit/redo", &redo);
            if redo.clicked() {
                s.history_commands.write(HistoryCommand::Redo);
            }
        });
        s.tag("menu/edit", &edit.response);
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
        toolbar(ui, s);
        ui.separator();
        ui.label(egui::RichText::new(s.current.display_name()).strong()).on_hover_text(s.current.level.source.clone());
        ui.label(format!("({})", s.current.level.kind().name()));
        pipeline_choice(ui, s);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let status = if let Some((path, secs)) = s.loading.progress() {
                ui.add(egui::Spinner::new());
                format!("loading {} ({secs:.1} s)", path.display())
            } else if let Some((i, n, secs)) = s.build.progress() {
                if ui.button("Cancel").on_hover_text("Stop the build; finished stages stay").clicked() {
                    s.build.cancel();
                }
                ui.add(egui::Spinner::new());
                format!("building stage {}/{} ({secs:.1} s)", (i + 1).min(n), n)
            } else if let Some(r) = &s.build.last {
                format!(
                    "re-ran {} stage(s) from #{} in {:.1} ms; view updated {:.0} ms after the change",
                    r.stages_ran,
                    r.from + 1,
                    r.compute_ms,
                    r.latency_ms
                )
            } else {
                String::new()
            };
            let resp = ui.label(&status);
            s.tag("status", &resp);
            s.report.status = status;
        });
    });
}

/// The tool buttons (RecastDemo's tool list): inspect, or place the probe.
fn toolbar(ui: &mut egui::Ui, s: &mut UiState) {
    let has_start = s.probe.start.is_some();
    for (tool, label, tip) in [
        (Tool::Inspect, "🔍 Inspect", "Click selects and inspects an element (Esc)"),
        (Tool::Probe, "📍 Probe (P)", "Clicks place the path's start, then its goal (P)"),
    ] {
        let on = s.tools.tool == tool;
        let resp = ui.add(egui::Button::selectable(on, label)).on_hover_text(tip);
        s.tag(&format!("tool/{}", tool.name()), &resp);
        if resp.clicked() {
            s.tools.choose(tool, has_start);
        }
    }
}

fn pipeline_choice(ui: &mut egui::Ui, s: &mut UiState) {
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
}

fn file_menu(ui: &mut egui::Ui, s: &mut UiState) {
    let item = |ui: &mut egui::Ui, s: &mut UiState, name: &str, text: &str, keys: &str, tip: &str| {
        let r = ui.add(egui::Button::new(text).shortcut_text(keys)).on_hover_text(tip);
        s.tag(name, &r);
        r.clicked()
    };
    if item(ui, s, "menu/file/open", "Open level…", "Ctrl+O", "Choose a level file (or drop one on the window)") {
        s.ask_file(FileAction::OpenLevel);
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
    if item(ui, s, "menu/file/export-json", "Export NavMesh JSON…", "Ctrl+E", "The navigation mesh in navscope's documented JSON format (version 2)") {
        s.ask_file(FileAction::ExportJson);
    }
    if item(ui, s, "menu/file/export-obj", "Export NavMesh OBJ…", "Ctrl+Shift+E", "The mesh's polygons as Wavefront OBJ, one group per stance") {
        s.ask_file(FileAction::ExportObj);
    }
    if item(ui, s, "menu/file/screenshot", "Save screenshot…", "F12", "A PNG of the whole window") {
        s.ask_file(FileAction::Screenshot);
    }
    ui.separator();
    if item(ui, s, "menu/file/load-preset", "Load preset…", "Ctrl+L", "Read parameter values from a RON file") {
        s.ask_file(FileAction::LoadPreset);
    }
    if item(ui, s, "menu/file/save-preset", "Save preset…", "Ctrl+S", "Write the current parameter values to a RON file") {
        s.ask_file(FileAction::SavePreset);
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        s.exit.write(AppExit::Success);
    }
}

/// The path field shown where no file dialog can be.
fn path_prompt(ctx: &egui::Context, s: &mut UiState) {
    let Some(mut prompt) = s.dialogs.prompt.take() else {
        return;
    };
    let mut done = None;
    egui::Window::new(prompt.action.title())
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label(&prompt.why);
            let len = prompt.text.chars().count();
            let mut out = egui::TextEdit::singleline(&mut prompt.text)
                .id(egui::Id::new("path-prompt"))
                .desired_width(420.0)
                .hint_text("/path/to/file")
                .show(ui);
            // The field keeps the keyboard while the window is open (unless
            // the user tabbed to a button).
            if !prompt.fresh && ui.ctx().memory(|m| m.focused().is_none()) {
                out.response.request_focus();
            }
            if prompt.fresh {
                // Focused, with the proposed path selected: typing replaces it.
                prompt.fresh = false;
                out.state.cursor.set_char_range(Some(egui::text::CCursorRange::two(
                    egui::text::CCursor::new(0),
                    egui::text::CCursor::new(len),
                )));
                out.state.store(ui.ctx(), out.response.id);
                out.response.request_focus();
            }
            let field = out.response;
            s.tag("dialog/path", &field);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                let ok = ui.add_enabled(!prompt.text.trim().is_empty(), egui::Button::new("OK"));
                s.tag("dialog/path/ok", &ok);
                if ok.clicked() || (enter && !prompt.text.trim().is_empty()) {
                    done = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    done = Some(false);
                }
            });
        });
    match done {
        Some(true) => {
            let path = std::path::PathBuf::from(prompt.text.trim());
            s.dialogs.chosen(prompt.action, path);
        }
        Some(false) => {}
        None => s.dialogs.prompt = Some(prompt),
    }
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
            let mut widget: Option<egui::Response> = None;
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
                    let resp = ui.add(slider).on_hover_text(&tip);
                    if resp.changed() {
                        new = Some(ParamValue::Float(x));
                    }
                    widget = Some(resp);
                }
                (ParamKind::Int { min, max }, v) => {
                    let mut i = if let ParamValue::Int(i) = v { *i } else { *min };
                    let mut slider = egui::Slider::new(&mut i, *min..=*max);
                    if !spec.unit.is_empty() {
                        slider = slider.suffix(format!(" {}", spec.unit));
                    }
                    let resp = ui.add(slider).on_hover_text(&tip);
                    if resp.changed() {
                        new = Some(ParamValue::Int(i));
                    }
                    widget = Some(resp);
                }
                (ParamKind::Bool, v) => {
                    let mut b = matches!(v, ParamValue::Bool(true));
                    let resp = ui.checkbox(&mut b, "").on_hover_text(&tip);
                    if resp.changed() {
                        new = Some(ParamValue::Bool(b));
                    }
                    widget = Some(resp);
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
            if let Some(r) = &widget {
                s.tag(&format!("param/{}", spec.name), r);
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
            s.ask_file(FileAction::LoadPreset);
        }
        if ui
            .button("Save preset…")
            .on_hover_text("Write the current values to a RON file")
            .clicked()
        {
            s.ask_file(FileAction::SavePreset);
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
            ("Click", "inspect tool: select and inspect; probe tool: start, then goal"),
            ("P", "probe tool on / off (toolbar: 🔍 Inspect, 📍 Probe)"),
            ("Ctrl-click", "put the probe's start here (any tool)"),
            ("Shift-click", "put the probe's goal here (any tool)"),
            ("Drag a marker", "move the start or goal; the path follows"),
            ("Esc", "probe tool: back to inspect; inspect: clear probe and selection"),
            ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo parameter edits, presets, probe moves"),
            ("Ctrl+O", "open a level"),
            ("Ctrl+E / Ctrl+Shift+E", "export the NavMesh as JSON / OBJ"),
            ("Ctrl+S / Ctrl+L", "save / load a parameter preset"),
            ("F12", "save a screenshot"),
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
