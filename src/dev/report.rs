//! The state report for end-to-end tests: with `NAVSCOPE_REPORT=FILE` in
//! the environment, the app rewrites FILE (atomically: a temporary file,
//! then a rename) whenever what a person could see changes: the tool, the
//! stage, the build, the parameters, the probe's points (in the world and
//! on screen), the selection and hover, the undo depth, the files exported,
//! the status line and where the panels' widgets are.
//!
//! Tests drive the real window with X input events and read this back to
//! know where to click and what the app made of it; what they assert about
//! the picture they read from screenshots. The format is documented in the
//! README ("End-to-end tests").

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use navscope_core::ParamValue;
use serde_json::{Value, json};

use crate::build::{Build, StageState};
use crate::compare::Compare;
use crate::dev::cpu::{CpuClock, CpuFrameEnd};
use crate::edit::history::History;
use crate::interact::clicks::{Gesture, marker_pixels};
use crate::interact::pointer::ScenePointer;
use crate::interact::tool::Tools;
use crate::level::budget::MemoryLimit;
use crate::level::{CurrentLevel, Loading};
use crate::model::elements::{DrawGroup, StageElement, StageRoot};
use crate::model::journal::Journal;
use crate::model::selection::{Hover, Selection};
use crate::model::timeline::{Timeline, UiFocus};
use crate::probe::Probe;
use crate::ui::refresh::UiRefresh;
use crate::ui::widget_report::UiReport;
use crate::view::cubes::VoxelDetail;
use crate::view::eviction::Evicted;
use crate::view::highlight::StepHighlights;
use crate::view::scene::MainCamera;

/// The environment variable naming the report file.
pub const REPORT_ENV: &str = "NAVSCOPE_REPORT";

/// Writes the report to `path` (added only when [`REPORT_ENV`] is set).
pub struct ReportPlugin {
    /// The file to write.
    pub path: PathBuf,
}

#[derive(Resource)]
struct ReportFile {
    path: PathBuf,
    last: Option<Value>,
    frame: u64,
}

impl Plugin for ReportPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ReportFile {
            path: self.path.clone(),
            last: None,
            frame: 0,
        })
        // Test instrumentation: not part of the frame's measured CPU.
        .add_systems(Last, write_report.after(CpuFrameEnd));
    }
}

fn element(e: &Option<StageElement>) -> Value {
    match e {
        Some(e) => json!({ "stage": e.stage, "kind": e.kind, "element": e.element }),
        None => Value::Null,
    }
}

fn param_json(v: &ParamValue) -> Value {
    match v {
        ParamValue::Bool(b) => json!(b),
        ParamValue::Int(i) => json!(i),
        ParamValue::Float(x) => json!(x),
        ParamValue::Text(t) => json!(t),
    }
}

fn point(p: Option<Vec3>) -> Value {
    p.map_or(Value::Null, |p| json!([p.x, p.y, p.z]))
}

fn pixel(p: Option<Vec2>) -> Value {
    p.map_or(Value::Null, |p| json!([p.x, p.y]))
}

/// What the stages show: the level, the build, the timeline's position,
/// the parameters, the comparison, the edit history and the log.
#[derive(SystemParam)]
struct BuildReport<'w, 's> {
    current: Res<'w, CurrentLevel>,
    loading: Res<'w, Loading>,
    limit: Res<'w, MemoryLimit>,
    build: Res<'w, Build>,
    timeline: Res<'w, Timeline>,
    history: Res<'w, History>,
    journal: Res<'w, Journal>,
    /// The sub-step whose highlights are drawn.
    step_highlights: Option<Res<'w, StepHighlights>>,
    /// The stages that let their data go while out of sight
    /// ([`crate::view::residency`]).
    evicted: Query<'w, 's, &'static StageRoot, With<Evicted>>,
    /// The drawn groups shown (enabled).
    shown_groups: Query<'w, 's, (), With<DrawGroup>>,
    voxels: Option<Res<'w, VoxelDetail>>,
    compare: Option<Res<'w, Compare>>,
    /// Whether the final NavMesh is drawn (the view's overlay).
    navmesh: Option<Res<'w, crate::view::navmesh_overlay::NavMeshShown>>,
    /// The camera's settings (top-down or perspective).
    view: Option<Res<'w, crate::view::scene::ViewSettings>>,
    islands: Option<Res<'w, crate::probe::islands::IslandView>>,
}

impl BuildReport<'_, '_> {
    /// Their part of the report.
    fn json(&self) -> Value {
        let (build, timeline) = (&self.build, &self.timeline);
        let n = build.pipeline().map_or(0, |p| p.stages.len());
        let finished = (0..n)
            .filter(|i| matches!(build.stage_state(*i), StageState::Finished))
            .count();
        let running = (0..n).find(|i| matches!(build.stage_state(*i), StageState::Running(_)));
        let failed = (0..n).find(|i| matches!(build.stage_state(*i), StageState::Failed));
        let mut evicted: Vec<usize> = self.evicted.iter().map(|r| r.stage).collect();
        evicted.sort_unstable();
        let params: serde_json::Map<String, Value> = build
            .params()
            .map(|v| {
                v.iter()
                    .map(|(k, v)| (k.to_string(), param_json(v)))
                    .collect()
            })
            .unwrap_or_default();
        let messages: Vec<&str> = self
            .journal
            .entries()
            .iter()
            .rev()
            .take(8)
            .map(|e| e.text.as_str())
            .collect();
        let loading = self.loading.is_loading();
        // Which agent preset the values are (`model::agent`).
        let agent = build
            .pipeline()
            .zip(build.params())
            .map(|(p, v)| crate::model::agent::AgentChoice::of(p, &self.current.level, v).name());
        json!({
            "level": self.current.level.source,
            "pipeline": self.current.pipeline.as_ref().map(|p| p.id),
            // The sub-step whose highlights are drawn: they are made on a worker
            // after the timeline moves (`view::highlight`).
            "stage": { "current": timeline.current, "count": n, "substep": timeline.substep,
                       "substep_drawn": self.step_highlights.as_ref().and_then(|h| h.drawn())
                           .filter(|&(stage, _)| stage == timeline.current).map(|(_, step)| step),
                       "finished": finished, "running": running, "failed": failed,
                       "evicted": evicted, "shown_groups": self.shown_groups.iter().count() },
            // A level still loading counts as busy: until it opens, the build on
            // screen (the embedded default) is about to be replaced.
            "build": { "published": build.published, "busy": build.is_busy() || loading,
                       "loading": loading, "budget": self.limit.0.to_string() },
            "compare": self.compare.as_ref().map(|c| json!({
                "pinned": c.pinned.is_some(),
                "show": c.show_difference,
                "revision": c.revision,
                "a_only": c.result.as_ref().map(|r| r.difference.a_only_area()),
                "b_only": c.result.as_ref().map(|r| r.difference.b_only_area()),
                // The headline's lines: the area per stance and per area kind
                // that changed, B to A.
                "headline": c.result.as_ref().map(|r| crate::compare::headline::area_changes(&r.a, &r.b)
                    .iter().map(|x| x.text()).collect::<Vec<_>>()),
            })),
            "voxels": self.voxels.as_ref().map(|v| json!({ "tiles": v.tiles, "coarse_tiles": v.coarse_tiles, "meshing": v.meshing })),
            // True while the final NavMesh is drawn (the view's overlay).
            // The island view (`probe::islands`): the islands' count and
            // areas (largest first), the selected one (1-based, as the
            // legend names it) and its gap to the largest (as the probe's).
            // `top_down`: the orthographic top view (key T) is on.
            "view": { "navmesh": self.navmesh.as_ref().is_some_and(|n| n.on),
                      "top_down": self.view.as_ref().is_some_and(|v| v.top_down),
                      "islands": self.islands.as_ref().filter(|v| v.on).map(|v| json!({
                          "count": v.parts.len(),
                          "areas": v.parts.iter().map(|p| p.area).collect::<Vec<_>>(),
                          "selected": v.selected.map(|i| i + 1),
                          "gap": v.shown_gap().map(|g| json!(g)),
                          "fix_pending": v.is_explaining(),
                      })) },
            "params": params,
            "agent": agent,
            "undo": { "undo": self.history.undo_depth(), "redo": self.history.redo_depth() },
            "messages": messages,
        })
    }
}

/// What the person is doing: the window, the tools, the probe's points,
/// the selection, the hover and the pointer.
#[derive(SystemParam)]
struct InteractionReport<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<MainCamera>>,
    tools: Res<'w, Tools>,
    probe: Res<'w, Probe>,
    search: Option<Res<'w, crate::probe::ProbeSearch>>,
    selection: Res<'w, Selection>,
    focus: Res<'w, UiFocus>,
    hover: Option<Res<'w, Hover>>,
    pointer: Option<Res<'w, ScenePointer>>,
    gesture: Option<Res<'w, Gesture>>,
    mouse: Option<Res<'w, ButtonInput<MouseButton>>>,
    cursor_point: Option<Res<'w, crate::interact::clicks::CursorPoint>>,
    spots: Option<Res<'w, crate::probe::spots::LevelSpots>>,
    why: Option<Res<'w, crate::why::WhyTool>>,
}

impl InteractionReport<'_, '_> {
    /// Their part of the report.
    fn json(&self) -> Value {
        let (width, height, scale) = self.windows.single().map_or((0.0, 0.0, 1.0), |w| {
            (w.width(), w.height(), w.scale_factor())
        });
        let probe = &self.probe;
        let (start_px, goal_px) = self
            .cameras
            .single()
            .map_or((None, None), |(c, tf)| marker_pixels(c, tf, probe));
        let focus = &self.focus;
        let failure = probe.failure.as_ref();
        let gap = failure.and_then(|f| f.gap.as_ref());
        // Where the gap's ends are on screen (the e2e suite looks there).
        let gap_px = gap.zip(self.cameras.single().ok()).map(|(g, (c, tf))| {
            [g.from, g.to].map(|p| pixel(c.world_to_viewport(tf, p.as_vec3()).ok()))
        });
        json!({
            "window": { "width": width, "height": height },
            "scale": scale,
            "tool": self.tools.tool.name(),
            "next_probe_point": self.tools.next.name(),
            "probe": {
                "start": point(probe.start), "goal": point(probe.goal),
                "start_px": pixel(start_px), "goal_px": pixel(goal_px),
                "found": probe.outcome.as_ref().map(|o| o.found()),
                // A query waits for its mesh or runs: `found` is the last
                // answer's until it ends.
                "searching": probe.is_refreshing() || probe.is_dirty()
                    || self.search.as_ref().is_some_and(|s| s.is_running()),
                "method": probe.options.method.name(),
                "length": probe.outcome.as_ref().and_then(|o| o.length()),
                "astar_length": probe.outcome.as_ref().and_then(|o| o.compared_astar()).map(|a| a.length),
                "revision": probe.revision,
                // After a failed search: the nodes reached from the start,
                // the nodes that reach the goal, and the gap between them
                // as the command line's JSON (from, to, reason, fix, ...).
                "reached": failure.map(|f| f.reached.len()),
                "reaches_goal": failure.map(|f| f.reaches_goal.len()),
                "gap": gap.map(|g| json!(g)),
                "gap_px": gap_px,
                "fix_pending": failure.map(|f| f.fix_pending),
                // A Quake map's player starts and exits the panel offers.
                "spots": self.spots.as_ref().map(|s| json!({
                    "starts": s.starts.iter().map(|p| &p.label).collect::<Vec<_>>(),
                    "exits": s.exits.iter().map(|p| &p.label).collect::<Vec<_>>(),
                })),
            },
            "pointer": {
                // The mouse buttons this frame's input saw held: a test releases
                // a button only once the app saw it pressed, so a click is one
                // even when software-rendered frames are slower than a hand.
                "pressed": self.mouse.as_ref().map(|m| {
                    let mut b: Vec<String> = m.get_pressed().map(|b| format!("{b:?}")).collect();
                    b.sort();
                    b
                }),
                "in_scene": self.pointer.as_ref().is_some_and(|p| p.in_scene),
                // Where a probe click would land under the cursor (the
                // status readout).
                "world": point(self.cursor_point.as_ref().and_then(|c| c.0)),
                "dragging": self.gesture.as_ref().and_then(|g| g.dragging).map(|m| m.name()),
                "ui_popup": focus.popup,
                "ui_keyboard": focus.keyboard,
                "ui_using_pointer": focus.using_pointer,
                "floating": focus.floating.iter().map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]).collect::<Vec<_>>(),
            },
            // The why tool's point and last answer (walkable, stage, reason,
            // fix, stances, as the command line's `why --json`), and
            // whether the answer to the point is still being made.
            "why": self.why.as_ref().map(|w| json!({
                "at": point(w.at),
                "checking": w.is_checking(),
                "answer": w.answer.as_ref().filter(|a| Some(a.at.as_vec3()) == w.at).map(|a| json!(a)),
                // The size of the box around the thing the answer names
                // (its outlines), [x, y, z] metres; null when none.
                "shape_size": w.answer.as_ref().filter(|a| Some(a.at.as_vec3()) == w.at).and_then(|a| {
                    let (lo, hi) = a.shape.iter().flatten().fold(None, |b: Option<(bevy::math::DVec3, bevy::math::DVec3)>, p| {
                        Some(b.map_or((*p, *p), |(lo, hi)| (lo.min(*p), hi.max(*p))))
                    })?;
                    Some((hi - lo).to_array())
                }),
            })),
            "selection": element(&self.selection.0),
            "hover": element(&self.hover.as_ref().map(|h| h.0.clone()).unwrap_or_default()),
        })
    }
}

/// The panels and how the frames were spent: where the widgets are, the
/// status line, the files exported, the egui passes and the CPU clock's
/// stage switches.
#[derive(SystemParam)]
struct PanelsReport<'w> {
    ui: Option<Res<'w, UiReport>>,
    refresh: Option<Res<'w, UiRefresh>>,
    cpu: Option<Res<'w, CpuClock>>,
    legend: Option<Res<'w, crate::model::selection::Legend>>,
}

impl PanelsReport<'_> {
    /// Their part of the report.
    fn json(&self) -> Value {
        let ui = self.ui.as_deref().cloned().unwrap_or_default();
        json!({
            "cpu": self.cpu.as_ref().map(|c| (c.switch_max_ms(), c.switch_ms.len(), c.pending_readings())).map(|(worst, n, pending)| json!({
                "switch_max_ms": worst.0,
                "switch_max_extract_ms": worst.1,
                "switches": n,
                "pending": pending,
            })),
            // Frames that ran the egui pass, and frames that drew the last
            // pass's picture again (`ui::refresh`).
            "egui": self.refresh.as_ref().map(|r| json!({ "passes": r.passes, "reused": r.reused })),
            "widgets": ui.widgets,
            "central": ui.central,
            "status": ui.status,
            "exports": ui.exports,
            "tooltips": ui.tooltips,
            // The legend's kinds seen so far and those switched off.
            "legend": self.legend.as_ref().map(|l| json!({
                "kinds": l.kinds.keys().collect::<Vec<_>>(),
                "hidden": l.hidden.iter().collect::<Vec<_>>(),
            })),
            "notice": { "error": ui.notice_error, "restored": ui.notice_restored },
            "log_open": ui.log_open,
            "inspector": ui.inspector,
        })
    }
}

/// Writes the report when it changed, with the frame it was made in.
fn write_report(
    mut file: ResMut<ReportFile>,
    build: BuildReport,
    interaction: InteractionReport,
    panels: PanelsReport,
) {
    file.frame += 1;
    let mut report = serde_json::Map::new();
    for part in [build.json(), interaction.json(), panels.json()] {
        if let Value::Object(fields) = part {
            report.extend(fields);
        }
    }
    let report = Value::Object(report);
    if file.last.as_ref() == Some(&report) {
        return;
    }
    let mut with_frame = report.clone();
    with_frame["frame"] = json!(file.frame);
    let tmp = file.path.with_extension("tmp");
    let text = serde_json::to_string_pretty(&with_frame).unwrap_or_default();
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, &file.path).is_ok() {
        file.last = Some(report);
    }
}
