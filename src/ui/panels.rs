//! The egui panels: menu bar, parameters, probe, inspector, metrics, about
//! this stage, legend, log, timeline, shortcuts and the frame-time readout.
//!
//! Panels are plain functions of state: each reads resources and writes
//! requests ([`LevelRequest`], [`ParamCommand`]) or small state changes;
//! nothing here computes navigation. One system lays them out (egui panels
//! must share one layout pass) and then narrows the 3D camera's viewport to
//! the space they leave, so framing and picking see the visible area only.
//! File dialogs run on their own thread ([`super::dialogs`]). The layout
//! pass also records where the panels are ([`UiFocus`]) so clicks on them
//! never reach the scene, and where the widgets are ([`UiReport`]) for the
//! end-to-end tests. The timeline, the probe panel and the inspector live in
//! their own modules.

use crate::edit::params::ParamCommand;
use crate::model::timeline::UiFocus;
use crate::ui::dialogs::FileAction;
use crate::ui::frames::FrameStats;
use crate::ui::menu::menu_bar;
use crate::ui::menu::path_prompt;
use crate::ui::param_groups::{ParamRow, param_rows};
use crate::ui::param_widget::{ParamEdit, param_widget};
use crate::ui::readouts::frame_readout;
use crate::ui::readouts::help_window;
use crate::ui::readouts::log_panel;
use crate::ui::readouts::metrics_panel;
use crate::ui::state::PanelState;
use crate::ui::state::UiState;
use crate::ui::state::color32;
use crate::ui::widget_report::UiReport;
use crate::view::scene::MainCamera;
use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The panels and the file dialogs.
pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            crate::ui::click_time::ClickTimePlugin,
            crate::ui::refresh::UiRefreshPlugin,
        ))
        .init_resource::<PanelState>()
        .init_resource::<crate::view::navmesh_overlay::NavMeshShown>()
        .init_resource::<crate::ui::state::ProbeFields>()
        .init_resource::<UiReport>()
        .add_systems(EguiPrimaryContextPass, ui)
        .add_systems(Update, function_keys);
    }

    fn finish(&self, app: &mut App) {
        // Every system of the egui pass takes the egui context mutably, so
        // none can run beside another: the multi-threaded executor only
        // added its task hand-offs. It also ran the panels on pool threads,
        // where the CPU clock (`dev::cpu`) did not see them: the measured
        // idle frame left out the whole UI (40 ms a frame on a Quake map,
        // found this way).
        app.edit_schedule(EguiPrimaryContextPass, |s| {
            s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        });
    }
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

pub(crate) fn ui(
    mut contexts: EguiContexts,
    mut s: UiState,
    mut camera: Query<(&mut Camera, &GlobalTransform), With<MainCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
    mut fonts_set: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    crate::ui::fonts::set_once(&ctx, &mut fonts_set);
    s.report.widgets.clear();
    crate::ui::notice::watch_errors(&mut s);
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
        .show_inside(&mut root, |ui| {
            crate::ui::timeline_panel::timeline_panel(ui, &mut s)
        });
    let left = egui::Panel::left("left")
        .default_size(300.0)
        .resizable(true)
        .show_inside(&mut root, |ui| {
            side_scroll("left-scroll").show(ui, |ui| {
                params_panel(ui, &mut s);
                ui.separator();
                crate::ui::probe_panel::probe_panel(ui, &mut s);
            });
        });
    let right = egui::Panel::right("right")
        .default_size(330.0)
        .resizable(true)
        .show_inside(&mut root, |ui| {
            side_scroll("right-scroll").show(ui, |ui| {
                about_panel(ui, &mut s);
                legend_panel(ui, &mut s);
                // Edited as a copy, stored only when it differs (a `&mut`
                // into the filter every frame marks it changed every frame).
                let mut filter = (*s.filter).clone();
                let bounds = s.current.bounds();
                let mut navmesh = s.view.navmesh;
                crate::ui::view_panel::view_panel(
                    ui,
                    &mut navmesh,
                    &mut filter,
                    &mut s.panel.slice_edit,
                    &s.current.level,
                    bounds,
                    s.roots.iter().map(|g| &g.prepared),
                );
                s.filter.set_if_neq(filter);
                if navmesh != s.view.navmesh {
                    s.view.navmesh = navmesh;
                }
                crate::ui::probe_panel::islands_panel(ui, &mut s);
                crate::ui::inspector::inspector_panel(ui, &mut s);
                crate::ui::compare_panel::compare_panel(ui, &mut s);
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
    crate::ui::notice::notices(&ctx, central, &mut s);
    crate::ui::why_panel::why_panel(&ctx, central, &mut s);
    if s.stats.show {
        frame_readout(&ctx, central, &s);
    }
    lod_note(&ctx, central, &mut s);
    if let Ok((cam, tf)) = camera.single() {
        let painter = ctx
            .layer_painter(egui::LayerId::background())
            .with_clip_rect(central);
        crate::ui::overlay::labels(&painter, cam, tf, &s.timeline, &s.legend, s.roots.iter());
        crate::ui::overlay::probe(&painter, cam, tf, &s.probe, &s.probe_layers);
        if let Some(gap) = s.islands.shown_gap() {
            crate::ui::overlay::gap_line(&painter, cam, tf, gap);
        }
    }
    if let Some(p) = s.cursor_point.as_ref().and_then(|c| c.0) {
        let painter = ctx
            .layer_painter(egui::LayerId::background())
            .with_clip_rect(central);
        crate::ui::overlay::cursor_readout(&painter, central, p);
    }
    if s.pointer.in_scene {
        let title = s
            .hover
            .0
            .as_ref()
            .and_then(|h| s.build.pipeline()?.stages.get(h.stage))
            .map_or("", |st| st.info.title);
        crate::ui::overlay::hover_tip(&ctx, &s.hover, s.pointer.cursor, title);
    }

    // While the path field is shown it is modal: keys go to it, never to
    // the app's shortcuts.
    s.focus.keyboard = ctx.egui_wants_keyboard_input() || s.dialogs.prompt.is_some();
    s.focus.pointer = ctx.is_pointer_over_egui();
    s.focus.scene = Some(Rect::new(
        central.min.x,
        central.min.y,
        central.max.x,
        central.max.y,
    ));
    s.focus.floating = area_rects(&ctx, |o| {
        !matches!(o, egui::Order::Background | egui::Order::Tooltip)
    })
    .map(|r| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y))
    .collect();
    s.report.tooltips = area_rects(&ctx, |o| o == egui::Order::Tooltip)
        .map(|r| [r.min.x, r.min.y, r.max.x, r.max.y])
        .collect();
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

/// The scrolling of a side panel: both ways, so a row wider than the panel
/// (a long parameter name with its reset button, the compare table) scrolls
/// inside it instead of widening it and shrinking the 3D view; the
/// vertical bar always shown, so a panel longer than the window says it
/// has more below. It scrolls by its bars and the mouse wheel, not by
/// dragging its contents (egui's touch-screen gesture): on a desktop a
/// press on the panel that misses a widget, or a click egui took for a
/// press held too long, must not slide the panel away.
fn side_scroll(id: &str) -> egui::ScrollArea {
    egui::ScrollArea::both()
        .id_salt(id)
        .auto_shrink([false, false])
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
        .scroll_source(egui::scroll_area::ScrollSource {
            drag: false,
            ..egui::scroll_area::ScrollSource::ALL
        })
}

/// The rectangles of egui's visible areas whose layer order `keep` takes
/// (menus and windows for the scene's input focus, tooltips for the
/// report).
fn area_rects(
    ctx: &egui::Context,
    keep: impl Fn(egui::Order) -> bool,
) -> impl Iterator<Item = egui::Rect> {
    ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|l| keep(l.order))
            .filter_map(|l| m.area_rect(l.id))
            .collect::<Vec<_>>()
    })
    .into_iter()
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
    agent_row(ui, s, &pipeline, &values);
    for row in param_rows(&pipeline.params) {
        match row {
            ParamRow::Lone(spec) => param_row(ui, s, &pipeline, &values, spec),
            ParamRow::Group { key, title, params } => {
                let changed = params
                    .iter()
                    .filter(|p| values.get(&p.name).is_some_and(|v| *v != p.default))
                    .count();
                let header = if changed > 0 {
                    format!("{title} ({changed} changed)")
                } else {
                    title.to_string()
                };
                let shown = egui::CollapsingHeader::new(header)
                    .id_salt(("param-group", key))
                    .show(ui, |ui| {
                        for spec in params {
                            param_row(ui, s, &pipeline, &values, spec);
                        }
                    });
                s.tag(&format!("param-group/{key}"), &shown.header_response);
            }
        }
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

/// The agent preset the values are (Quake's player on a Quake map), with a
/// menu of the presets and the pipeline's defaults; nothing for a pipeline
/// without agent parameters.
fn agent_row(
    ui: &mut egui::Ui,
    s: &mut UiState,
    pipeline: &navscope_core::Pipeline,
    values: &navscope_core::params::ParamValues,
) {
    use crate::model::agent::{AgentChoice, presets};
    let level = s.current.level.clone();
    let choice = AgentChoice::of(pipeline, &level, values);
    if choice == AgentChoice::None {
        return;
    }
    let for_level = navscope_pipelines::agents::for_level(&level);
    let mut chosen: Option<Option<&'static str>> = None;
    ui.horizontal(|ui| {
        ui.label("Agent");
        let combo = egui::ComboBox::from_id_salt("agent-preset")
            .selected_text(choice.name())
            .show_ui(ui, |ui| {
                for p in presets() {
                    let mut text = p.name.to_string();
                    if for_level.is_some_and(|f| f.name == p.name) {
                        text.push_str(" (this level's)");
                    }
                    let r = ui
                        .selectable_label(choice == AgentChoice::Preset(p), text)
                        .on_hover_text(p.label);
                    s.tag(&format!("params/agent/{}", p.name), &r);
                    if r.clicked() {
                        chosen = Some(Some(p.name));
                    }
                }
                let r = ui
                    .selectable_label(choice == AgentChoice::Default, "default")
                    .on_hover_text("The pipeline's own agent values (the paper's)");
                s.tag("params/agent/default", &r);
                if r.clicked() {
                    chosen = Some(None);
                }
            });
        let tip = match choice {
            AgentChoice::Preset(p) => p.label.to_string(),
            AgentChoice::Custom => "Agent parameters changed by hand".into(),
            _ => "The pipeline's own agent values".into(),
        };
        let r = combo.response.on_hover_text(tip);
        s.tag("params/agent", &r);
    });
    if let AgentChoice::Preset(p) = choice {
        ui.label(egui::RichText::new(p.label).small());
    }
    if let Some(name) = chosen {
        s.param_commands
            .write(ParamCommand::Agent(name.map(str::to_string)));
    }
}

/// One parameter's row: its label (with the paper's default and the stage
/// a change re-runs from as a tooltip), its widget and, when it differs from
/// the default, a reset button.
fn param_row(
    ui: &mut egui::Ui,
    s: &mut UiState,
    pipeline: &navscope_core::Pipeline,
    values: &navscope_core::params::ParamValues,
    spec: &navscope_core::ParamSpec,
) {
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
        ui.label(&spec.label).on_hover_text(&tip);
        let ParamEdit {
            new,
            response: widget,
        } = param_widget(ui, spec, &value, &tip);
        // Its place is kept while hidden, so the row does not grow when a
        // value first differs from the default.
        let changed = value != spec.default;
        if ui
            .add_visible(changed, egui::Button::new("↺").small())
            .on_hover_text(format!("Reset to {}", spec.default))
            .clicked()
            && changed
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

/// Says, over the view's bottom-right corner, that stages shown again are
/// getting their data back ([`crate::view::residency`]) and that voxels are
/// still being meshed (they arrive group by group), and over its
/// bottom-left corner that far voxels are drawn merged. Over the view and
/// not in the legend: a note that comes and goes with the zoom would move
/// every panel row below it, and a button under the cursor with them.
fn lod_note(ctx: &egui::Context, central: egui::Rect, s: &mut UiState) {
    let detail = *s.voxel_detail;
    let restoring = s.restoring.0;
    if detail.meshing > 0 || restoring > 0 {
        let text = match (restoring, detail.meshing) {
            (0, m) => format!("Meshing the voxels of {m} group(s)…"),
            (r, 0) => format!("Restoring {r} stage(s) shown again…"),
            (r, m) => format!("Restoring {r} stage(s) shown again, meshing {m} voxel group(s)…"),
        };
        // Over the view's bottom-right corner, clear of the merged note.
        let meshing = egui::Area::new(egui::Id::new("meshing-note"))
            .pivot(egui::Align2::RIGHT_BOTTOM)
            .fixed_pos(central.right_bottom() + egui::vec2(-8.0, -8.0))
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(egui::RichText::new(text).italics());
                });
            });
        s.tag("legend/meshing", &meshing.response);
    }
    if detail.coarse_tiles == 0 {
        return;
    }
    let shown = egui::Area::new(egui::Id::new("lod-note"))
        // Its bottom-left corner is pinned inside the view, so however many
        // lines it wraps to it grows upwards, never over the timeline.
        .pivot(egui::Align2::LEFT_BOTTOM)
        .fixed_pos(central.left_bottom() + egui::vec2(8.0, -8.0))
        .interactable(false)
        .show(ctx, |ui| {
            ui.set_max_width((central.width() - 16.0).max(120.0));
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(
                    egui::RichText::new(format!(
                        "Simplified: far voxels merged {0} × {0} in {1} of {2} tiles; zoom in for \
                         every voxel (picking always uses every voxel).",
                        crate::model::voxel_mesh::LOD_BLOCK,
                        detail.coarse_tiles,
                        detail.tiles
                    ))
                    .italics(),
                );
            });
        });
    s.tag("legend/simplified", &shown.response);
}

fn about_panel(ui: &mut egui::Ui, s: &mut UiState) {
    let Some(p) = s.build.pipeline().cloned() else {
        return;
    };
    let Some(st) = p.stages.get(s.timeline.current) else {
        return;
    };
    // One header whatever the stage (an id per title would make a new
    // widget, with its opening state, at every switch).
    egui::CollapsingHeader::new(egui::RichText::new(format!("About: {}", st.info.title)).strong())
        .id_salt("about")
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
            // From each stage's summary of its kinds: a big stage has
            // thousands of groups, too many to walk in every frame.
            // Owned: each row is tagged for the report through `s`.
            let shown: std::collections::BTreeSet<String> = s
                .roots
                .iter()
                .filter(|g| s.timeline.shows_stage(g.stage))
                .flat_map(|g| g.prepared.kinds.keys().cloned())
                .collect();
            // The NavMesh overlay's kinds, while it is drawn.
            let shown: std::collections::BTreeSet<String> = shown
                .into_iter()
                .chain(s.navmesh_shown.kinds.iter().cloned())
                .collect();
            if shown.is_empty() {
                ui.label("Nothing drawn at this stage.");
            }
            for kind in &shown {
                let color = s
                    .legend
                    .kinds
                    .get(kind)
                    .copied()
                    .unwrap_or([0.5, 0.5, 0.5, 1.0]);
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                    ui.painter().rect_filled(rect, 2.0, color32(color));
                    let mut visible = !s.legend.hidden.contains(kind);
                    let resp = ui.checkbox(&mut visible, kind);
                    s.tag(&format!("legend/kind/{kind}"), &resp);
                    if resp.changed() {
                        if visible {
                            s.legend.hidden.remove(kind);
                        } else {
                            s.legend.hidden.insert(kind.to_string());
                        }
                    }
                    let range = s
                        .roots
                        .iter()
                        .find_map(|g| g.prepared.kinds.get(kind))
                        .copied()
                        .flatten();
                    if let Some(range) = range {
                        crate::ui::view_panel::ramp_bar(ui, range);
                    }
                });
            }
            // The level's own colours (not stage kinds: no toggle).
            for (name, color) in crate::view::level_drawing::legend_rows(&s.current.level) {
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                    ui.painter().rect_filled(rect, 2.0, color32(color));
                    ui.label(name);
                });
            }
        });
}
