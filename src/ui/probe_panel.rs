//! The path probe's panel: which tool is active and what the next click
//! does, the method (Polyanya, A* or both), the search options (with the pipeline's defaults: stance
//! multipliers and the agent radius the mesh was built with), the result,
//! and the probe's legend with a toggle per layer of its drawing.

use bevy_egui::egui;
use navscope_core::{LinkKind, Stance};

use crate::interact::tool::Tool;
use crate::probe::ProbeMethod;
use crate::probe::ProbeOutcome;
use crate::probe::draw::ASTAR_PATH_COLOR;
use crate::probe::draw::CORRIDOR_COLOR;
use crate::probe::draw::GOAL_COLOR;
use crate::probe::draw::PATH_COLOR;
use crate::probe::draw::START_COLOR;
use crate::probe::draw::expansion_color;
use crate::ui::state::ERROR;
use crate::ui::state::UiState;

fn swatch(ui: &mut egui::Ui, c: egui::Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, c);
}

fn rgb([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

/// Draws the probe panel.
pub fn probe_panel(ui: &mut egui::Ui, s: &mut UiState) {
    ui.heading("Path probe");
    let hint = match s.tools.tool {
        Tool::Probe => format!(
            "Probe tool: the next click sets the {}.",
            s.tools.next.name()
        ),
        Tool::Inspect => "Press P (or the 📍 Probe tool) to place points by clicking.".into(),
    };
    ui.label(hint);
    ui.label(
        egui::RichText::new(
            "Ctrl-click: start · Shift-click: goal · drag a marker to move it · Esc: clear",
        )
        .small(),
    );
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("method");
        for m in ProbeMethod::ALL {
            let tip = match m {
                ProbeMethod::Polyanya => "Polyanya: the shortest any-angle path",
                ProbeMethod::AStar => "A* over the nodes, then the funnel (Detour's way)",
                ProbeMethod::Both => "Both: Polyanya's path, and A*'s beside it in magenta",
            };
            let r = ui
                .selectable_value(&mut s.probe.options.method, m, m.label())
                .on_hover_text(tip);
            changed |= r.changed();
            s.tag(&format!("probe/method/{}", m.name()), &r);
        }
    });
    egui::CollapsingHeader::new("Search options")
        .default_open(false)
        .show(ui, |ui| {
            ui.label("Cost multiplier per stance (Kirst §32.5)");
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
            let mut r = s.probe.options.radius();
            let pipeline_r = s.probe.options.pipeline_radius;
            ui.horizontal(|ui| {
                let resp = ui
                    .add(egui::Slider::new(&mut r, 0.0..=3.0).text("agent radius").suffix(" m"))
                    .on_hover_text(
                        "The funnel keeps the path this far from portal ends; the default is the radius the mesh was built for",
                    );
                if resp.changed() {
                    s.probe.options.radius_override = Some(r);
                    changed = true;
                }
                if s.probe.options.radius_override.is_some()
                    && ui
                        .small_button("↺")
                        .on_hover_text(format!("Back to the pipeline's {pipeline_r:.2} m"))
                        .clicked()
                {
                    s.probe.options.radius_override = None;
                    changed = true;
                }
            });
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
    let fmt = |p: Option<bevy::prelude::Vec3>| {
        p.map_or("—".to_string(), |p| {
            format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
        })
    };
    ui.horizontal(|ui| {
        swatch(ui, rgb(START_COLOR));
        ui.label(format!("start {}", fmt(s.probe.start)));
    });
    ui.horizontal(|ui| {
        swatch(ui, rgb(GOAL_COLOR));
        ui.label(format!("goal  {}", fmt(s.probe.goal)));
    });
    if s.probe_search.is_running() {
        ui.horizontal(|ui| {
            ui.add(egui::Spinner::new());
            ui.label("searching…");
        });
    }
    match &s.probe.outcome {
        Some(outcome @ ProbeOutcome::Searched { polyanya, astar }) => {
            if let Some(p) = polyanya {
                ui.label(format!("Polyanya: length {:.2} m", p.length));
                ui.label(format!(
                    "{} search nodes in {:.3} ms · {} waypoints",
                    p.expansions,
                    p.ms,
                    p.waypoints.len()
                ));
            } else if s.probe.options.method != ProbeMethod::AStar {
                ui.label("Polyanya needs polygons under the start and the goal; A* answered");
            }
            if let Some(a) = astar {
                let result = &a.result;
                ui.label(format!(
                    "A*: length {:.2} m (through cell centres {:.2} m)",
                    result.length, result.centre_length
                ));
                ui.label(format!(
                    "{} expansions in {:.3} ms · {} waypoints",
                    result.expansions,
                    a.ms,
                    result.waypoints.len()
                ));
            }
            if !outcome.found() {
                ui.colored_label(ERROR, "no path found");
            }
            if let Some((_, waypoints)) = outcome.path() {
                let stances: Vec<&str> = waypoints.iter().map(|w| w.stance.name()).collect();
                if stances.iter().any(|s| *s != "stand") {
                    ui.label(format!("stances: {}", stances.join(" → ")));
                }
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
    // Edited as a copy and stored only when it differs: a `&mut` into the
    // resource every frame would mark it changed and redraw the probe.
    let mut edited = (*s.probe_layers).clone();
    let layers = &mut edited;
    egui::CollapsingHeader::new("Probe legend")
        .default_open(true)
        .show(ui, |ui| {
            let rows: [(&mut bool, egui::Color32, &str, &str); 5] = [
                (&mut layers.path, rgb(PATH_COLOR), "path", "The path an agent walks: Polyanya's, or A*'s funnel over the portals"),
                (&mut layers.astar_path, rgb(ASTAR_PATH_COLOR), "A* path (method both)", "A*'s path under Polyanya's, where the two differ"),
                (&mut layers.corridor, rgb(CORRIDOR_COLOR), "A* node path (dashed)", "The nodes A* chose, centre to centre"),
                (&mut layers.expansions, color32_of(expansion_color(0.5, 0.0, 1.0)), "search steps by f", "The steps in order, blue (low f) to red (high f): Polyanya's search nodes, A*'s expanded nodes with the edge each was reached by"),
                (&mut layers.sets, egui::Color32::from_rgb(25, 180, 180), "A* open (rings) / closed (crosses)", "A*'s final open and closed sets"),
            ];
            for (on, c, name, tip) in rows {
                ui.horizontal(|ui| {
                    swatch(ui, c);
                    ui.checkbox(on, name).on_hover_text(tip);
                });
            }
            ui.horizontal(|ui| {
                swatch(ui, color32_of(expansion_color(0.5, 0.0, 1.0)));
                ui.label("Polyanya node: root (dot), interval (line)")
                    .on_hover_text("Each search node: the point its paths bend at last and the stretch of edge it sees through, coloured by f");
            });
        });
    // Polyanya records its steps only while they are drawn.
    if s.probe.options.trace != edited.expansions {
        s.probe.options.trace = edited.expansions;
        s.probe.options_changed();
    }
    bevy::prelude::DetectChangesMut::set_if_neq(&mut s.probe_layers, edited);
    if (s.probe.start.is_some() || s.probe.goal.is_some()) && ui.button("Clear").clicked() {
        s.probe.clear();
    }
}

fn color32_of(c: bevy::prelude::Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}
