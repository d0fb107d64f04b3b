//! Notices over the 3D view: what a person must not miss.
//!
//! An error (a file that does not parse, a stage that failed, a preset that
//! was refused) used to wait in the folded log at the bottom of the right
//! panel, off-screen while the compare table was open, and nothing on
//! screen changed. Now a new error raises a notice at the top of the view
//! that stays until dismissed, the status line says it (the level loader's
//! messages name the file and the problem: `FILE: ELEMENT: PROBLEM`), and
//! the log opens itself and scrolls into sight.
//!
//! Parameters restored from the last run are announced the same way, with
//! a Reset; the restore is an undo step (`edit::history`).

use bevy_egui::egui;

use crate::edit::params::ParamCommand;
use crate::ui::state::{ERROR, UiState};

/// The error notice's ground: tinted, never the floor's cream (a test or
/// a person looking for the floor must not take the notice for it).
const ERROR_FILL: egui::Color32 = egui::Color32::from_rgb(252, 222, 222);
/// The restored-parameters notice's ground and edge.
const NOTE_FILL: egui::Color32 = egui::Color32::from_rgb(224, 234, 252);
const NOTE_STROKE: egui::Color32 = egui::Color32::from_rgb(60, 110, 200);

/// Raises the error notice when the journal logged a new error.
pub(crate) fn watch_errors(s: &mut UiState) {
    let errors = s.journal.errors;
    if errors == s.panel.notice.seen_errors {
        return;
    }
    s.panel.notice.seen_errors = errors;
    if let Some(e) = s.journal.last_error() {
        s.panel.notice.error = Some(e.text.clone());
        s.panel.notice.open_log = true;
    }
}

/// The count of parameters restored for the open level, while announced.
fn restored_count(s: &UiState) -> Option<usize> {
    let r = s.restored.as_ref()?;
    (r.count > 0 && !r.dismissed && r.revision == s.current.revision).then_some(r.count)
}

/// The status line's text while a notice is up: the error.
pub(crate) fn status_text(s: &UiState) -> Option<String> {
    s.panel.notice.error.as_ref().map(|e| format!("Error: {e}"))
}

/// Draws the notices at the top of the 3D view (`central`).
pub(crate) fn notices(ctx: &egui::Context, central: egui::Rect, s: &mut UiState) {
    let restored = restored_count(s);
    if s.panel.notice.error.is_some() || restored.is_some() {
        show(ctx, central, restored, s);
    }
    // Reported after the buttons: a dismissal shows in this pass's report.
    s.report.notice_error = s.panel.notice.error.clone();
    s.report.notice_restored = restored_count(s);
}

fn show(ctx: &egui::Context, central: egui::Rect, restored: Option<usize>, s: &mut UiState) {
    let width = (central.width() - 24.0).clamp(120.0, 720.0);
    // The windows' layer: menus and popups open over it.
    egui::Area::new(egui::Id::new("notices"))
        .order(egui::Order::Middle)
        .fixed_pos(egui::pos2(
            central.center().x - width / 2.0,
            central.min.y + 8.0,
        ))
        .show(ctx, |ui| {
            ui.set_max_width(width);
            if let Some(text) = s.panel.notice.error.clone() {
                egui::Frame::popup(ui.style())
                    .fill(ERROR_FILL)
                    .stroke(egui::Stroke::new(2.0, ERROR))
                    .show(ui, |ui| {
                        ui.set_width(width);
                        ui.horizontal(|ui| {
                            let dismiss = ui.button("Dismiss");
                            s.tag("notice/dismiss", &dismiss);
                            if dismiss.clicked() {
                                s.panel.notice.error = None;
                                // One more pass draws the view without it.
                                ui.ctx().request_repaint();
                            }
                            let label = ui.add(
                                egui::Label::new(egui::RichText::new(&text).color(ERROR)).wrap(),
                            );
                            s.tag("notice/error", &label);
                        });
                    });
            }
            if let Some(n) = restored {
                egui::Frame::popup(ui.style())
                    .fill(NOTE_FILL)
                    .stroke(egui::Stroke::new(1.5, NOTE_STROKE))
                    .show(ui, |ui| {
                        ui.set_width(width);
                        ui.horizontal(|ui| {
                            let label = ui.label(format!(
                                "{n} parameter{} restored from the last run",
                                if n == 1 { "" } else { "s" }
                            ));
                            s.tag("notice/restored", &label);
                            let reset = ui.button("Reset").on_hover_text(
                                "Every parameter back to its default (Ctrl+Z undoes)",
                            );
                            s.tag("notice/reset", &reset);
                            let close = ui
                                .button("Keep")
                                .on_hover_text("Keep them (Ctrl+Z goes back to the defaults)");
                            s.tag("notice/restored/dismiss", &close);
                            if reset.clicked() {
                                s.param_commands.write(ParamCommand::ResetAll);
                            }
                            if (reset.clicked() || close.clicked())
                                && let Some(r) = s.restored.as_mut()
                            {
                                r.dismissed = true;
                                ui.ctx().request_repaint();
                            }
                        });
                    });
            }
        });
}
