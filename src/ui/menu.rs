//! The menu bar: File (open, export, screenshot, presets), Edit (undo,
//! redo), View, the tool buttons, the pipeline choice and the status line;
//! and the path field shown where no file dialog can be.

use crate::edit::history::HistoryCommand;
use crate::interact::tool::Tool;
use crate::level::LevelRequest;
use crate::level::budget;
use crate::ui::dialogs::FileAction;
use crate::ui::state::UiState;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::egui::containers::menu::{MenuConfig, SubMenuButton};
use navscope_core::MemoryBudget;

pub(crate) fn menu_bar(ui: &mut egui::Ui, s: &mut UiState) {
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
            ui.separator();
            budget_menu(ui, s);
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
            let mut accumulate = s.timeline.accumulate;
            if ui
                .checkbox(&mut accumulate, "Accumulate earlier stages (A)")
                .changed()
            {
                s.timeline.accumulate = accumulate;
            }
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
            } else if let Some(notice) = crate::ui::notice::status_text(s) {
                notice
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
            // The status line's width is what the menu bar leaves: a long
            // error is cut there, in full on hover and in the notice.
            let text = if s.panel.notice.error.is_some() && !s.loading.is_loading() {
                egui::RichText::new(&status).color(crate::ui::state::ERROR)
            } else {
                egui::RichText::new(&status)
            };
            let mut resp = ui.add(egui::Label::new(text).truncate());
            if s.panel.notice.error.is_some() {
                resp = resp.on_hover_text(&status);
            }
            s.tag("status", &resp);
            s.report.status = status;
        });
    });
}

/// Edit > Memory budget: the sizes offered and a field for any other. The
/// submenu stays open while the field is edited; a choice closes it.
fn budget_menu(ui: &mut egui::Ui, s: &mut UiState) {
    let current = s.limit.0;
    let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    let mut chosen = None;
    let menu = SubMenuButton::new(format!("Memory budget ({current})"))
        .config(config)
        .ui(ui, |ui| {
            for choice in budget::CHOICES {
                let r = ui.radio(current == choice, choice.to_string());
                s.tag(&format!("menu/edit/budget/{choice}"), &r);
                if r.clicked() {
                    chosen = Some(choice);
                }
            }
            ui.separator();
            let mut text = s
                .panel
                .budget_text
                .take()
                .unwrap_or_else(|| current.to_string());
            let len = text.chars().count();
            let mut out = ui
                .horizontal(|ui| {
                    ui.label("Other:");
                    egui::TextEdit::singleline(&mut text)
                        .desired_width(90.0)
                        .show(ui)
                })
                .inner;
            if out.response.gained_focus() {
                // Typing replaces the size shown.
                select_all(ui.ctx(), &mut out, len);
            }
            let field = out
                .response
                .response
                .clone()
                .on_hover_text("A size such as 768M, 3G or unlimited; Enter applies it");
            s.tag("menu/edit/budget/field", &field);
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                match MemoryBudget::parse(&text) {
                    Ok(b) => chosen = Some(b),
                    Err(e) => s.panel.budget_error = Some(e),
                }
            }
            s.panel.budget_text = Some(text);
            if let Some(e) = &s.panel.budget_error {
                ui.colored_label(crate::ui::state::ERROR, e);
            }
            if chosen.is_some() {
                ui.close();
            }
        });
    let (button, _) = menu;
    s.tag("menu/edit/budget", &button);
    button.on_hover_text(
        "How much memory a level file and each stage may need. A stage over it \
         refuses with what it would need; the stages before it stay on screen.",
    );
    if let Some(b) = chosen {
        s.panel.budget_text = None;
        s.panel.budget_error = None;
        if b != current {
            s.level_requests.write(LevelRequest::Budget(b));
        }
    }
}

/// The tool buttons (RecastDemo's tool list): inspect, place the probe, or
/// ask why a point is (not) on the NavMesh.
pub(crate) fn toolbar(ui: &mut egui::Ui, s: &mut UiState) {
    let has_start = s.probe.start.is_some();
    for (tool, label, tip) in [
        (
            Tool::Inspect,
            "🔍 Inspect",
            "Click selects and inspects an element (Esc)",
        ),
        (
            Tool::Probe,
            "📍 Probe (P)",
            "Clicks place the path's start, then its goal (P)",
        ),
        (
            Tool::Why,
            "❓ Why not here (W)",
            "Click a point: is it on the NavMesh, and if not, which stage dropped it, by which rule, and which change keeps it (W)",
        ),
    ] {
        let on = s.tools.tool == tool;
        let resp = ui
            .add(egui::Button::selectable(on, label))
            .on_hover_text(tip);
        s.tag(&format!("tool/{}", tool.name()), &resp);
        if resp.clicked() {
            s.tools.choose(tool, has_start);
        }
    }
}

fn pipeline_choice(ui: &mut egui::Ui, s: &mut UiState) {
    let revision = s.current.revision;
    if s.panel
        .pipelines
        .as_ref()
        .is_none_or(|(r, _)| *r != revision)
    {
        let list = navscope_pipelines::for_kind(s.current.level.kind());
        s.panel.pipelines = Some((revision, list));
    }
    let options = s
        .panel
        .pipelines
        .as_ref()
        .map(|(_, list)| list.clone())
        .unwrap_or_default();
    let selected = s
        .current
        .pipeline
        .as_ref()
        .map_or("no pipeline".to_string(), |p| {
            format!("{} — {}", p.id, p.title)
        });
    let combo = egui::ComboBox::from_id_salt("pipeline")
        .selected_text(selected)
        .show_ui(ui, |ui| {
            for p in options {
                let on = s.current.pipeline.as_ref().is_some_and(|c| c.id == p.id);
                let r = ui.selectable_label(on, format!("{} — {}", p.id, p.title));
                s.tag(&format!("menu/pipeline/{}", p.id), &r);
                if r.clicked() && !on {
                    s.level_requests
                        .write(LevelRequest::Pipeline(p.id.to_string()));
                }
            }
        });
    s.tag("menu/pipeline", &combo.response);
}

fn file_menu(ui: &mut egui::Ui, s: &mut UiState) {
    let item =
        |ui: &mut egui::Ui, s: &mut UiState, name: &str, text: &str, keys: &str, tip: &str| {
            let r = ui
                .add(egui::Button::new(text).shortcut_text(keys))
                .on_hover_text(tip);
            s.tag(name, &r);
            r.clicked()
        };
    if item(
        ui,
        s,
        "menu/file/open",
        "Open level…",
        "Ctrl+O",
        "Choose a level file (or drop one on the window)",
    ) {
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
    if ui
        .add_enabled(s.current.path.is_some(), egui::Button::new("Reload"))
        .clicked()
    {
        s.level_requests.write(LevelRequest::Reload);
    }
    ui.checkbox(&mut s.hot.enabled, "Reload when the file changes");
    ui.separator();
    if item(
        ui,
        s,
        "menu/file/export-json",
        "Export NavMesh JSON…",
        "Ctrl+E",
        "The navigation mesh in navscope's documented JSON format (version 2)",
    ) {
        s.ask_file(FileAction::ExportJson);
    }
    if item(
        ui,
        s,
        "menu/file/export-obj",
        "Export NavMesh OBJ…",
        "Ctrl+Shift+E",
        "The mesh's polygons as Wavefront OBJ, one group per stance",
    ) {
        s.ask_file(FileAction::ExportObj);
    }
    if item(
        ui,
        s,
        "menu/file/export-polyanya",
        "Export polyanya mesh…",
        "",
        "The mesh's polygons as a polyanya .mesh file (version 2, heights dropped), as `navscope-cli build --polyanya` writes it",
    ) {
        s.ask_file(FileAction::ExportPolyanya);
    }
    if item(
        ui,
        s,
        "menu/file/screenshot",
        "Save screenshot…",
        "F12",
        "A PNG of the whole window",
    ) {
        s.ask_file(FileAction::Screenshot);
    }
    ui.separator();
    if item(
        ui,
        s,
        "menu/file/load-preset",
        "Load preset…",
        "Ctrl+L",
        "Read parameter values from a RON file",
    ) {
        s.ask_file(FileAction::LoadPreset);
    }
    if item(
        ui,
        s,
        "menu/file/save-preset",
        "Save preset…",
        "Ctrl+S",
        "Write the current parameter values to a RON file",
    ) {
        s.ask_file(FileAction::SavePreset);
    }
    if item(
        ui,
        s,
        "menu/file/load-pair",
        "Load preset pair…",
        "",
        "Read A's and B's settings: A to the build on screen, B built and pinned",
    ) {
        s.ask_file(FileAction::LoadPair);
    }
    if item(
        ui,
        s,
        "menu/file/save-pair",
        "Save preset pair…",
        "",
        "Write the build on screen (A) and the pinned build (B) settings together",
    ) {
        s.ask_file(FileAction::SavePair);
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        s.exit.write(AppExit::Success);
    }
}

/// The path field shown where no file dialog can be.
pub(crate) fn path_prompt(ctx: &egui::Context, s: &mut UiState) {
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
            // Enter in the field submits. Read before the field takes the
            // keyboard back below: egui asks the focus live, and a field
            // focused again has not lost it.
            let enter = out.response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
            // The field keeps the keyboard while the window is open (unless
            // the user tabbed to a button).
            if !enter && !escape && !prompt.fresh && ui.ctx().memory(|m| m.focused().is_none()) {
                out.response.request_focus();
            }
            if prompt.fresh {
                // Focused, with the proposed path selected: typing replaces it.
                prompt.fresh = false;
                select_all(ui.ctx(), &mut out, len);
                out.response.request_focus();
            }
            let field = out.response;
            s.tag("dialog/path", &field);
            ui.horizontal(|ui| {
                let ok = ui.add_enabled(!prompt.text.trim().is_empty(), egui::Button::new("OK"));
                s.tag("dialog/path/ok", &ok);
                if ok.clicked() || (enter && !prompt.text.trim().is_empty()) {
                    done = Some(true);
                }
                let cancel = ui.button("Cancel");
                s.tag("dialog/path/cancel", &cancel);
                if cancel.clicked() || escape {
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

/// Selects the first `len` characters of a field (all of it), so typing
/// replaces them.
fn select_all(ctx: &egui::Context, out: &mut egui::text_edit::TextEditOutput, len: usize) {
    out.state
        .cursor
        .set_char_range(Some(egui::text::CCursorRange::two(
            egui::text::CCursor::new(0),
            egui::text::CCursor::new(len),
        )));
    out.state.clone().store(ctx, out.response.id);
}
