//! The path probe's panel: which tool is active and what the next click
//! does, the method (Polyanya, A* or both), the search options (with the pipeline's defaults: stance
//! multipliers and the agent radius the mesh was built with), the result
//! (after a failed search: the gap between the two sides, why no link joins
//! them and the parameter change that does), and the probe's legend with a
//! toggle per layer of its drawing.

use bevy_egui::egui;
use navscope_core::{LinkKind, Stance};

use crate::interact::tool::ProbePoint;
use crate::interact::tool::Tool;
use crate::probe::ProbeMethod;
use crate::probe::ProbeOutcome;
use crate::probe::draw::ASTAR_PATH_COLOR;
use crate::probe::draw::CORRIDOR_COLOR;
use crate::probe::draw::GAP_COLOR;
use crate::probe::draw::GOAL_COLOR;
use crate::probe::draw::PATH_COLOR;
use crate::probe::draw::REACHED_COLOR;
use crate::probe::draw::REACHES_GOAL_COLOR;
use crate::probe::draw::START_COLOR;
use crate::probe::draw::expansion_color;
use crate::probe::failure::Failure;
use crate::probe::islands::{LEGEND_ROWS, island_color};
use crate::ui::state::ERROR;
use crate::ui::state::UiState;

/// A point's row: its swatch, its name and a field showing it (`x, y, z`);
/// typing a point and pressing Enter moves it there, Esc gives the field
/// back unchanged.
fn point_field(ui: &mut egui::Ui, s: &mut UiState, which: ProbePoint) {
    let (i, color, current) = match which {
        ProbePoint::Start => (0, START_COLOR, s.probe.start),
        ProbePoint::Goal => (1, GOAL_COLOR, s.probe.goal),
    };
    let shown = current.map_or(String::new(), |p| {
        format!("{:.2}, {:.2}, {:.2}", p.x, p.y, p.z)
    });
    let mut text = s.probe_fields.text[i]
        .clone()
        .unwrap_or_else(|| shown.clone());
    let r = ui
        .horizontal(|ui| {
            swatch(ui, rgb(color));
            ui.label(format!("{:5}", which.name()));
            ui.add(
                egui::TextEdit::singleline(&mut text)
                    .hint_text("x, y, z")
                    .desired_width(150.0),
            )
            .on_hover_text(format!(
                "Type the {} as x, y, z (world metres) and press Enter; Esc cancels",
                which.name()
            ))
        })
        .inner;
    s.tag(&format!("probe/field/{}", which.name()), &r);
    let (enter, escape) = ui.input(|i| {
        (
            i.key_pressed(egui::Key::Enter),
            i.key_pressed(egui::Key::Escape),
        )
    });
    if r.lost_focus() && enter {
        match crate::cli::point(which.name(), &text.clone().into()) {
            Ok(p) => {
                match which {
                    ProbePoint::Start => s.probe.set_start(p),
                    ProbePoint::Goal => s.probe.set_goal(p),
                }
                s.probe_fields.error = None;
                s.probe_fields.text[i] = None;
            }
            Err(e) => {
                s.probe_fields.error = Some(match e {
                    crate::cli::CliError::Bad(m) => m,
                    crate::cli::CliError::Help => String::new(),
                });
                s.probe_fields.text[i] = Some(text);
            }
        }
    } else if escape || (r.lost_focus() && !enter) {
        s.probe_fields.text[i] = None;
        s.probe_fields.error = None;
    } else if r.has_focus() && text != shown {
        s.probe_fields.text[i] = Some(text);
    }
}

/// A Quake map's player starts and exits as the probe's start and goal
/// (the start dropped to the floor under it, as Quake lets a player
/// spawned in the air fall).
fn spot_menus(ui: &mut egui::Ui, s: &mut UiState) {
    if s.spots.starts.is_empty() && s.spots.exits.is_empty() {
        return;
    }
    let mut chosen: Option<(ProbePoint, bevy::prelude::Vec3)> = None;
    for (which, list, title) in [
        (ProbePoint::Start, &s.spots.starts, "start at…"),
        (ProbePoint::Goal, &s.spots.exits, "goal at…"),
    ] {
        if list.is_empty() {
            continue;
        }
        let combo = egui::ComboBox::from_id_salt(("probe-spot", which.name()))
            .selected_text(title)
            .width(220.0)
            .show_ui(ui, |ui| {
                let mut tags = Vec::new();
                for (k, spot) in list.iter().enumerate() {
                    let p = spot.point;
                    let r = ui
                        .selectable_label(false, spot.label.as_str())
                        .on_hover_text(format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z));
                    if r.clicked() {
                        chosen = Some((which, p.as_vec3()));
                    }
                    tags.push((format!("probe/spot/{}/{k}", which.name()), r));
                }
                tags
            });
        let hover = match which {
            ProbePoint::Start => "Put the start on one of the map's player starts",
            ProbePoint::Goal => "Put the goal on one of the map's exits (trigger_changelevel)",
        };
        let r = combo.response.on_hover_text(hover);
        s.report.widget(
            &format!("probe/spot/{}", which.name()),
            bevy::prelude::Vec2::new(r.rect.min.x, r.rect.min.y),
            bevy::prelude::Vec2::new(r.rect.max.x, r.rect.max.y),
        );
        for (name, r) in combo.inner.into_iter().flatten() {
            s.report.widget(
                &name,
                bevy::prelude::Vec2::new(r.rect.min.x, r.rect.min.y),
                bevy::prelude::Vec2::new(r.rect.max.x, r.rect.max.y),
            );
        }
    }
    if let Some((which, p)) = chosen {
        let on_floor = s
            .probe
            .mesh()
            .and_then(|m| navscope_explain::floor_under(m, p.as_dvec3()))
            .map(|f| f.as_vec3())
            .unwrap_or(p);
        match which {
            ProbePoint::Start => s.probe.set_start(on_floor),
            ProbePoint::Goal => s.probe.set_goal(on_floor),
        }
    }
}

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
        Tool::Inspect | Tool::Why => {
            "Press P (or the 📍 Probe tool) to place points by clicking.".into()
        }
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
    point_field(ui, s, ProbePoint::Start);
    point_field(ui, s, ProbePoint::Goal);
    if let Some(e) = &s.probe_fields.error {
        ui.colored_label(ERROR, e);
    }
    spot_menus(ui, s);
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
            if let Some(f) = &s.probe.failure {
                failure_rows(ui, f);
            }
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
            let rows: [(&mut bool, egui::Color32, &str, &str); 7] = [
                (&mut layers.path, rgb(PATH_COLOR), "path", "The path an agent walks: Polyanya's, or A*'s funnel over the portals"),
                (&mut layers.astar_path, rgb(ASTAR_PATH_COLOR), "A* path (method both)", "A*'s path under Polyanya's, where the two differ"),
                (&mut layers.corridor, rgb(CORRIDOR_COLOR), "A* node path (dashed)", "The nodes A* chose, centre to centre"),
                (&mut layers.expansions, color32_of(expansion_color(0.5, 0.0, 1.0)), "search steps by f", "The steps in order, blue (low f) to red (high f): Polyanya's search nodes, A*'s expanded nodes with the edge each was reached by"),
                (&mut layers.sets, egui::Color32::from_rgb(25, 180, 180), "A* open (rings) / closed (crosses)", "A*'s final open and closed sets"),
                (&mut layers.regions, rgb(REACHED_COLOR), "regions (no path): reached from the start", "After a failed search: every polygon a walk from the start reaches (this colour) and every polygon from which the goal is reached (the next row's), over the links the search may use"),
                (&mut layers.gap, rgb(GAP_COLOR), "gap between them (no path)", "After a failed search: the closest pair of places of the two regions, labelled with the distance and the height between them"),
            ];
            for (on, c, name, tip) in rows {
                ui.horizontal(|ui| {
                    swatch(ui, c);
                    ui.checkbox(on, name).on_hover_text(tip);
                });
                if name.starts_with("regions") {
                    ui.horizontal(|ui| {
                        swatch(ui, rgb(REACHES_GOAL_COLOR));
                        ui.label("      … and reaching the goal").on_hover_text(
                            "After a failed search: every polygon from which the goal is reached (shown with the row above)",
                        );
                    });
                }
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

/// What keeps the ends of a failed search apart: the regions' sizes, the
/// gap's distance and height, why no link joins them and the fix.
fn failure_rows(ui: &mut egui::Ui, f: &Failure) {
    ui.horizontal(|ui| {
        swatch(ui, rgb(REACHED_COLOR));
        ui.label(format!(
            "{} polygons reached from the start",
            f.reached.len()
        ));
    });
    ui.horizontal(|ui| {
        swatch(ui, rgb(REACHES_GOAL_COLOR));
        ui.label(format!("{} polygons reach the goal", f.reaches_goal.len()));
    });
    if let Some(gap) = &f.gap {
        gap_rows(ui, gap, f.fix_pending);
    }
}

/// A gap between two parts of the NavMesh in words: its distance and
/// height, why no link joins them and the checked fix (a spinner while
/// `pending`).
pub(crate) fn gap_rows(ui: &mut egui::Ui, gap: &navscope_explain::Gap, pending: bool) {
    // Wrapped: the missing way's words are longer than the panel is wide.
    ui.horizontal_wrapped(|ui| {
        swatch(ui, rgb(GAP_COLOR));
        ui.label(format!(
            "gap {:.2} m, missing: {}",
            gap.distance,
            gap.missing_words()
        ));
    });
    if !gap.reason.is_empty() {
        ui.label(format!("why: {}", gap.reason));
    }
    if pending {
        ui.horizontal(|ui| {
            ui.add(egui::Spinner::new());
            ui.label("fix: building again with each parameter…");
        });
    } else {
        ui.label(format!("fix: {}", crate::probe::failure::fix_words(gap)))
            .on_hover_text("The smallest change of one parameter that joins the two sides, checked by building again and searching");
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

/// The island view's rows (#39 item 4): the toggle (I), one row per island
/// with its colour and area, largest first (the largest
/// [`LEGEND_ROWS`] and the others together), and the selected island's gap
/// to the largest.
pub(crate) fn islands_panel(ui: &mut egui::Ui, s: &mut UiState) {
    let mut on = s.islands.on;
    let r = ui
        .checkbox(&mut on, "Islands (I)")
        .on_hover_text("Colour each connected part of the NavMesh under the probe's stance costs and allowed links; click one (inspect tool) for its gap to the largest");
    s.tag("view/islands", &r);
    if on != s.islands.on {
        s.islands.on = on;
    }
    if !on {
        return;
    }
    if s.islands.is_finding() {
        ui.horizontal(|ui| {
            ui.add(egui::Spinner::new());
            ui.label("finding the islands…");
        });
        return;
    }
    if s.islands.parts.is_empty() {
        ui.label("no NavMesh to divide (yet)");
        return;
    }
    let parts = &s.islands.parts;
    ui.label(format!("{} islands, largest first", parts.len()));
    for (i, p) in parts.iter().enumerate().take(LEGEND_ROWS) {
        let text = if Some(i) == s.islands.selected {
            egui::RichText::new(format!(
                "island {}: {:.1} m² ({} nodes) · selected",
                i + 1,
                p.area,
                p.node_count
            ))
            .strong()
        } else {
            egui::RichText::new(format!(
                "island {}: {:.1} m² ({} nodes)",
                i + 1,
                p.area,
                p.node_count
            ))
        };
        ui.horizontal(|ui| {
            swatch(ui, rgb(island_color(i)));
            ui.label(text);
        });
    }
    if parts.len() > LEGEND_ROWS {
        let rest = &parts[LEGEND_ROWS..];
        let area: f64 = rest.iter().map(|p| p.area).sum();
        ui.horizontal(|ui| {
            swatch(ui, rgb(island_color(LEGEND_ROWS)));
            ui.label(format!("{} others: {area:.1} m² in all", rest.len()));
        });
    }
    let pending = s.islands.is_explaining();
    match (s.islands.selected, s.islands.shown_gap().cloned()) {
        (Some(i), Some(gap)) => {
            ui.label(format!("island {} to the largest:", i + 1));
            gap_rows(ui, &gap, pending);
        }
        (Some(i), None) => {
            ui.label(format!("island {}: no gap to the largest found", i + 1));
        }
        (None, _) => {
            ui.label(
                egui::RichText::new("Click an island (inspect tool) for its gap to the largest")
                    .small(),
            );
        }
    }
}
