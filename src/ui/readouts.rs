//! The read-only panels: metrics, the log, the shortcuts window and the
//! frame-time readout.

use crate::model::journal::Severity;
use crate::ui::frames::median;
use crate::ui::state::ERROR;
use crate::ui::state::UiState;
use bevy::prelude::*;
use bevy_egui::egui;

pub(crate) fn metrics_panel(ui: &mut egui::Ui, s: &mut UiState) {
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

pub(crate) fn log_panel(ui: &mut egui::Ui, s: &mut UiState) {
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
    // A new error opens the log and brings it into sight (it sits at the
    // bottom of the right panel, below the compare table).
    let id = ui.make_persistent_id(egui::Id::new("log"));
    let open_now = s.panel.notice.open_log;
    if open_now {
        s.panel.notice.open_log = false;
    }
    let mut state =
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, errors > 0);
    if open_now {
        state.set_open(true);
        state.store(ui.ctx());
    }
    s.report.log_open = state.is_open();
    let shown = egui::CollapsingHeader::new(title)
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
    if open_now {
        shown.header_response.scroll_to_me(Some(egui::Align::Min));
    }
    s.tag("log", &shown.header_response);
}

pub(crate) fn help_window(ui: &mut egui::Ui) {
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
            (
                "Click",
                "inspect tool: select and inspect; probe tool: start, then goal",
            ),
            ("P", "probe tool on / off (toolbar: 🔍 Inspect, 📍 Probe)"),
            (
                "W",
                "why-not-here tool on / off: a click asks why a point is (not) on the NavMesh",
            ),
            (
                "I",
                "islands: each connected part of the NavMesh in a colour; click one for its gap",
            ),
            ("Ctrl-click", "put the probe's start here (any tool)"),
            ("Shift-click", "put the probe's goal here (any tool)"),
            ("Drag a marker", "move the start or goal; the path follows"),
            (
                "Esc",
                "probe tool: back to inspect; inspect: clear probe and selection",
            ),
            (
                "Ctrl+Z / Ctrl+Shift+Z",
                "undo / redo parameter edits, presets, probe moves",
            ),
            ("Ctrl+O", "open a level"),
            ("Ctrl+E / Ctrl+Shift+E", "export the NavMesh as JSON / OBJ"),
            ("Ctrl+S / Ctrl+L", "save / load a parameter preset"),
            ("N", "the final NavMesh drawn over every stage, on / off"),
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

pub(crate) fn frame_readout(ctx: &egui::Context, central: egui::Rect, s: &UiState) {
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
