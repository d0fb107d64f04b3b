//! The why tool's panel ([`crate::why`]), a window over the top right of
//! the 3D view while the tool is on or an answer is shown: the point, the
//! pipeline's stages it went through and the one that dropped it, the rule
//! in words (the parameter, its value, the paper section or Recast
//! function), the checked fix, and per voxel pass (stance) the same.

use bevy_egui::egui;

use crate::interact::tool::Tool;
use crate::ui::state::{ERROR, UiState};
use crate::why::draw::WHY_COLOR;
use crate::why::dropped_at;

/// The window's width (logical pixels).
const WIDTH: f32 = 430.0;

/// Green of a stage that passed the point and of a walkable answer.
const PASSED: egui::Color32 = egui::Color32::from_rgb(30, 130, 50);

/// Draws the window over `central` (the 3D view).
pub(crate) fn why_panel(ctx: &egui::Context, central: egui::Rect, s: &mut UiState) {
    if s.tools.tool != Tool::Why && s.why.at.is_none() {
        return;
    }
    let width = WIDTH.min(central.width() - 16.0).max(160.0);
    let mut open = true;
    let pipeline = s
        .current
        .pipeline
        .as_ref()
        .map_or(String::new(), |p| p.id.to_string());
    let r = egui::Window::new(format!("Why not here? ({pipeline})"))
        .id(egui::Id::new("why-panel"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .fixed_pos(egui::pos2(central.max.x - width - 8.0, central.min.y + 8.0))
        .max_height((central.height() - 16.0).max(120.0))
        .show(ctx, |ui| {
            ui.set_width(width - 16.0);
            egui::ScrollArea::vertical().show(ui, |ui| body(ui, s));
        });
    if let Some(r) = r {
        s.tag("why/panel", &r.response);
    }
    if !open {
        s.why.clear();
        if s.tools.tool == Tool::Why {
            s.tools.tool = Tool::Inspect;
        }
    }
}

fn body(ui: &mut egui::Ui, s: &mut UiState) {
    let Some(at) = s.why.at else {
        ui.label("Click a point of the level: is it on the NavMesh, and if not, which stage dropped it and which change keeps it.");
        return;
    };
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        let [r, g, b] = WHY_COLOR;
        ui.painter()
            .rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
        ui.label(format!("point ({:.2}, {:.2}, {:.2})", at.x, at.y, at.z))
            .on_hover_text("The point asked about (the cross in the view) and the thing the answer names (drawn in the same colour)");
    });
    if s.why.is_checking() {
        ui.horizontal(|ui| {
            ui.add(egui::Spinner::new());
            ui.label("checking… (the fix is checked by building again)");
        });
    }
    let Some(w) = s.why.answer.clone() else {
        return;
    };
    if w.at.as_vec3() != at {
        // The answer of an earlier point, until this one's comes.
        return;
    }
    if w.walkable {
        ui.colored_label(PASSED, &w.reason);
    } else {
        ui.colored_label(ERROR, "not on the NavMesh");
    }
    if !w.stances.is_empty() {
        ui.add_space(4.0);
        ui.strong("Per stance (each voxel pass's agent)");
        egui::Grid::new("why-stances")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for st in &w.stances {
                    ui.label(&st.stance);
                    let text = match (st.walkable, st.stage.as_str()) {
                        (true, _) => st.reason.clone(),
                        (false, "") => format!("not walkable: {}", st.reason),
                        (false, stage) => {
                            format!("dropped at {}: {}", stage_name(s, stage), st.reason)
                        }
                    };
                    // A pass that leaves the point to another is no failure.
                    let color = match (st.walkable, st.stage.is_empty()) {
                        (true, _) => PASSED,
                        (false, true) => ui.visuals().text_color(),
                        (false, false) => ERROR,
                    };
                    ui.add(egui::Label::new(egui::RichText::new(text).color(color)).wrap());
                    ui.end_row();
                }
            });
    }
    if w.walkable {
        return;
    }
    ui.add_space(4.0);
    ui.strong("Stages");
    let stages = s.why.stages.clone();
    let dropped = dropped_at(&stages, &w.stage);
    for (i, (id, title)) in stages.iter().enumerate() {
        let (mark, color) = match dropped {
            Some(d) if i < d => ("passed", PASSED),
            Some(d) if i == d => ("dropped the point", ERROR),
            Some(_) => ("not reached", ui.visuals().weak_text_color()),
            None => ("", ui.visuals().text_color()),
        };
        ui.colored_label(color, format!("{}. {title} ({id}): {mark}", i + 1));
    }
    ui.add_space(4.0);
    ui.strong("Why");
    ui.add(egui::Label::new(&w.reason).wrap());
    ui.add_space(4.0);
    let fix = if w.fix.is_empty() {
        "none found".to_string()
    } else {
        w.fix
            .iter()
            .map(|f| format!("{} = {}", f.parameter, f.value))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    ui.label(egui::RichText::new(format!("Fix: {fix}")).strong())
        .on_hover_text(
            "The smallest change of one parameter that keeps the point, checked by building again",
        );
}

/// "N. Title" of stage `id` of the answer's pipeline, else the id.
fn stage_name(s: &UiState, id: &str) -> String {
    match dropped_at(&s.why.stages, id) {
        Some(i) => format!("{}. {}", i + 1, s.why.stages[i].1),
        None => format!("'{id}'"),
    }
}
