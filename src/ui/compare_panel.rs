//! The Compare panel: pin the build on screen as B, then read A (the build
//! on screen) against B: the difference's areas in the colours it is drawn
//! in, the A | B | delta metrics and the path probe on both.

use bevy_egui::egui;

use crate::compare::CompareCommand;
use crate::model::style::style_for;
use crate::ui::state::{UiState, color32};

/// A table of text cells, the first row as its header.
fn cells_table(ui: &mut egui::Ui, id: &str, rows: &[Vec<String>]) {
    egui::Grid::new(id).striped(true).show(ui, |ui| {
        for (i, row) in rows.iter().enumerate() {
            for c in row {
                if i == 0 {
                    ui.strong(c);
                } else {
                    ui.label(c);
                }
            }
            ui.end_row();
        }
    });
}

/// A parameter value as a person writes it (floats rounded).
fn short(v: &navscope_core::ParamValue) -> String {
    match v {
        navscope_core::ParamValue::Float(f) => {
            let t = format!("{f:.4}");
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        other => other.to_string(),
    }
}

fn swatch(ui: &mut egui::Ui, kind: &str) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
    ui.painter()
        .rect_filled(rect, 2.0, color32(style_for(kind).color));
}

pub(crate) fn compare_panel(ui: &mut egui::Ui, s: &mut UiState) {
    egui::CollapsingHeader::new("Compare")
        .default_open(true)
        .show(ui, |ui| {
            let Some(pinned) = s.compare.pinned.as_ref() else {
                ui.label(
                    "Pin the build on screen as B, then change a parameter or the pipeline: \
                     the view shows where only A (now) or only B is walkable.",
                );
                let r = ui
                    .button("📌 Pin as B")
                    .on_hover_text("Keep this build (pipeline, parameters, mesh) as B");
                s.tag("compare/pin", &r);
                if r.clicked() {
                    s.compare_commands.write(CompareCommand::Pin);
                }
                return;
            };
            let changed: Vec<String> = match s.build.params() {
                Some(a) => pinned
                    .params
                    .iter()
                    .filter(|(k, v)| a.get(k) != Some(*v))
                    .map(|(k, v)| format!("{k} = {}", short(v)))
                    .collect(),
                None => Vec::new(),
            };
            ui.label(format!(
                "B: {}{}",
                pinned.pipeline.id,
                if changed.is_empty() {
                    String::new()
                } else {
                    format!(" with {}", changed.join(", "))
                }
            ));
            ui.horizontal(|ui| {
                let r = ui.button("Unpin");
                s.tag("compare/unpin", &r);
                if r.clicked() {
                    s.compare_commands.write(CompareCommand::Unpin);
                }
                let r = ui.checkbox(&mut s.compare.show_difference, "Show difference");
                s.tag("compare/show", &r);
            });
            let Some(result) = s.compare.result.as_ref() else {
                ui.label("comparing…");
                return;
            };
            // The headline: the area per stance and per area kind that
            // changed, B to A (the footprint below misses a stance change).
            let changes = crate::compare::headline::area_changes(&result.a, &result.b);
            let head = if changes.is_empty() {
                ui.label("Same walkable area per stance and per area kind.")
            } else {
                ui.strong("Walkable area that changed, B (pinned) to A (now):")
            };
            for c in &changes {
                ui.label(c.text());
            }
            // `result` borrows the comparison: the widget goes straight to
            // the report (`tag` takes the whole state).
            s.report.widget(
                "compare/headline",
                bevy::math::Vec2::new(head.rect.min.x, head.rect.min.y),
                bevy::math::Vec2::new(head.rect.max.x, head.rect.max.y),
            );
            let d = &result.difference;
            for (kind, text) in [
                (
                    navscope_compare::KIND_A_ONLY,
                    format!("A only: {:.2} m²", d.a_only_area()),
                ),
                (
                    navscope_compare::KIND_B_ONLY,
                    format!("B only: {:.2} m²", d.b_only_area()),
                ),
                (
                    navscope_compare::KIND_COMMON,
                    format!("both: {:.2} m²", d.common_area()),
                ),
            ] {
                ui.horizontal(|ui| {
                    swatch(ui, kind);
                    ui.label(text);
                });
            }
            ui.label(format!("compared in {:.1} ms", result.ms));
            egui::CollapsingHeader::new("A | B | delta")
                .default_open(false)
                .show(ui, |ui| {
                    cells_table(ui, "compare-metrics", &result.metric_cells());
                });
            egui::CollapsingHeader::new("Areas per height band")
                .default_open(false)
                .show(ui, |ui| {
                    cells_table(ui, "compare-bands", &result.difference_cells());
                });
            match result.probe_cells() {
                Some(rows) => {
                    egui::CollapsingHeader::new("Path probe on A and B")
                        .default_open(true)
                        .show(ui, |ui| {
                            // The waypoints column is long: leave it out here.
                            let short: Vec<Vec<String>> =
                                rows.into_iter().map(|r| r[..4].to_vec()).collect();
                            cells_table(ui, "compare-probe", &short);
                        });
                }
                None => {
                    ui.label("Place a start and a goal to run the probe on both.");
                }
            }
        });
}
