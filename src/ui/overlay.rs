//! What is painted over the 3D view, in screen space, so it stays on top
//! and crisp at any zoom: the probe's start and goal markers, its path (and
//! A*'s beside Polyanya's when both ran), the gap of a failed search with
//! its label, the stage's text labels and the hover tooltip.
//!
//! Points are projected with `Camera::world_to_viewport`, which gives
//! window coordinates (it adds the viewport's origin itself), so they are
//! used as they are.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::model::elements::StageGeometry;
use crate::model::selection::Hover;
use crate::model::selection::Legend;
use crate::model::timeline::Timeline;
use crate::probe::Probe;
use crate::probe::draw::ASTAR_PATH_COLOR;
use crate::probe::draw::GAP_COLOR;
use crate::probe::draw::GOAL_COLOR;
use crate::probe::draw::PATH_COLOR;
use crate::probe::draw::ProbeLayers;
use crate::probe::draw::START_COLOR;

/// Radius of a probe marker on screen, in pixels.
pub const MARKER_RADIUS: f32 = 9.0;
/// Width of the smoothed path on screen, in pixels.
pub const PATH_WIDTH: f32 = 4.0;
/// At most this many labels are painted (more would be unreadable).
pub const MAX_LABELS: usize = 300;

fn rgb([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

fn project(cam: &Camera, tf: &GlobalTransform, p: Vec3) -> Option<egui::Pos2> {
    let v = cam.world_to_viewport(tf, p).ok()?;
    v.is_finite().then(|| egui::pos2(v.x, v.y))
}

/// Paints the probe's path and markers over the view.
pub fn probe(
    painter: &egui::Painter,
    cam: &Camera,
    tf: &GlobalTransform,
    probe: &Probe,
    layers: &ProbeLayers,
) {
    // A*'s path under Polyanya's: it shows where the two differ.
    if layers.astar_path
        && let Some(astar) = probe.outcome.as_ref().and_then(|o| o.compared_astar())
    {
        let pts: Vec<egui::Pos2> = crate::probe::positions(&astar.waypoints)
            .into_iter()
            .filter_map(|p| project(cam, tf, p))
            .collect();
        painter.add(egui::Shape::line(
            pts,
            egui::Stroke::new(PATH_WIDTH - 1.0, rgb(ASTAR_PATH_COLOR)),
        ));
    }
    if layers.path
        && let Some(outcome) = &probe.outcome
    {
        let pts: Vec<egui::Pos2> = outcome
            .waypoints()
            .into_iter()
            .filter_map(|p| project(cam, tf, p))
            .collect();
        if pts.len() >= 2 {
            // A dark casing under the orange line reads on light and dark
            // ground alike.
            painter.add(egui::Shape::line(
                pts.clone(),
                egui::Stroke::new(PATH_WIDTH + 3.0, egui::Color32::from_rgb(60, 30, 0)),
            ));
            painter.add(egui::Shape::line(
                pts,
                egui::Stroke::new(PATH_WIDTH, rgb(PATH_COLOR)),
            ));
        }
    }
    if layers.gap
        && let Some(gap) = probe.failure.as_ref().and_then(|f| f.gap.as_ref())
    {
        gap_line(painter, cam, tf, gap);
    }
    for (p, color, letter) in [
        (probe.start, START_COLOR, "S"),
        (probe.goal, GOAL_COLOR, "G"),
    ] {
        let Some(at) = p.and_then(|p| project(cam, tf, p)) else {
            continue;
        };
        painter.circle(
            at,
            MARKER_RADIUS,
            rgb(color),
            egui::Stroke::new(2.0, egui::Color32::from_rgb(20, 20, 20)),
        );
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            letter,
            egui::FontId::proportional(11.0),
            egui::Color32::WHITE,
        );
    }
}

/// Paints the world point under the cursor (where a probe click would
/// land) in the view's bottom-left corner.
pub fn cursor_readout(painter: &egui::Painter, central: egui::Rect, p: Vec3) {
    let text = format!("cursor ({:.2}, {:.2}, {:.2}) m", p.x, p.y, p.z);
    let font = egui::FontId::monospace(12.0);
    let galley = painter.layout_no_wrap(text, font, egui::Color32::from_gray(230));
    let at = central.left_bottom() + egui::vec2(8.0, -8.0);
    let rect = egui::Align2::LEFT_BOTTOM.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(3.0), 3.0, egui::Color32::from_black_alpha(170));
    painter.galley(rect.min, galley, egui::Color32::from_gray(230));
}

/// Paints the text labels of the shown stage.
pub fn labels<'a>(
    painter: &egui::Painter,
    cam: &Camera,
    tf: &GlobalTransform,
    timeline: &Timeline,
    legend: &Legend,
    roots: impl Iterator<Item = &'a StageGeometry>,
) {
    let mut drawn = 0;
    for geo in roots.filter(|g| g.stage == timeline.current) {
        for g in geo
            .prepared
            .groups
            .iter()
            // Most groups have no label: skip them before the legend lookup
            // (a big stage has thousands of groups, and this runs every frame).
            .filter(|g| !g.labels.is_empty() && !legend.is_hidden(&g.kind))
        {
            for (at, text) in &g.labels {
                if drawn >= MAX_LABELS {
                    return;
                }
                if let Some(pos) = project(cam, tf, *at) {
                    let galley = painter.layout_no_wrap(
                        text.clone(),
                        egui::FontId::proportional(12.0),
                        egui::Color32::from_rgb(30, 30, 40),
                    );
                    // Centred on its point, but kept inside the view so a
                    // summary at the level's corner is not cut off.
                    let clip = painter.clip_rect();
                    let size = galley.size();
                    let min = (pos - size / 2.0)
                        .max(clip.min)
                        .min((clip.max - size).max(clip.min));
                    painter.galley(min, galley, egui::Color32::from_rgb(30, 30, 40));
                    drawn += 1;
                }
            }
        }
    }
}

/// Names the hovered element in a tooltip beside the cursor.
pub fn hover_tip(ctx: &egui::Context, hover: &Hover, cursor: Option<Vec2>, stage_title: &str) {
    let (Some(h), Some(c)) = (&hover.0, cursor) else {
        return;
    };
    egui::Area::new(egui::Id::new("hover-tip"))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .fixed_pos(egui::pos2(c.x + 16.0, c.y + 16.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new(format!("{} #{}", h.kind, h.element)).strong());
                ui.label(format!(
                    "stage {}: {stage_title} · click to inspect",
                    h.stage + 1
                ));
            });
        });
}

/// The gap between two parts of the NavMesh (a failed probe's two regions,
/// an island and the largest): a lime line between its ends, labelled with
/// the distance and the height.
pub fn gap_line(
    painter: &egui::Painter,
    cam: &Camera,
    tf: &GlobalTransform,
    gap: &navscope_explain::Gap,
) {
    let (Some(a), Some(b)) = (
        project(cam, tf, gap.from.as_vec3()),
        project(cam, tf, gap.to.as_vec3()),
    ) else {
        return;
    };
    let casing = egui::Stroke::new(PATH_WIDTH + 3.0, egui::Color32::from_rgb(50, 40, 0));
    painter.line_segment([a, b], casing);
    painter.line_segment([a, b], egui::Stroke::new(PATH_WIDTH, rgb(GAP_COLOR)));
    for p in [a, b] {
        painter.circle(p, MARKER_RADIUS * 0.5, rgb(GAP_COLOR), casing);
    }
    // The height of the way that is missing (an island reached by a drop
    // lacks the way back up).
    let (from, to) = gap.missing();
    let rise = to.y - from.y;
    let label = format!(
        "gap {:.2} m, {:.2} m {} missing",
        gap.distance,
        rise.abs(),
        if rise >= 0.0 { "up" } else { "down" }
    );
    let at = a + (b - a) * 0.5 + egui::vec2(0.0, -14.0);
    let font = egui::FontId::proportional(13.0);
    let galley = painter.layout_no_wrap(label, font, rgb(GAP_COLOR));
    let rect = egui::Align2::CENTER_BOTTOM.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(3.0), 3.0, egui::Color32::from_black_alpha(200));
    painter.galley(rect.min, galley, rgb(GAP_COLOR));
}
