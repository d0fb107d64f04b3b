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

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use navscope_core::ParamValue;
use serde_json::{Value, json};

use crate::build::Build;
use crate::edit::history::History;
use crate::interact::clicks::marker_pixels;
use crate::interact::tool::Tools;
use crate::level::CurrentLevel;
use crate::model::elements::StageElement;
use crate::model::journal::Journal;
use crate::model::selection::Hover;
use crate::model::timeline::Timeline;
use crate::probe::Probe;
use crate::ui::widget_report::UiReport;
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
        .add_systems(Last, write_report.after(crate::dev::cpu::CpuFrameEnd));
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

/// The edit history, the log, the loading level, the memory budget, the
/// stages that let their data go while out of sight
/// ([`crate::view::residency`]) and the drawn groups shown (enabled).
type BuildState<'w, 's> = (
    Res<'w, History>,
    Res<'w, Journal>,
    Res<'w, crate::level::Loading>,
    Res<'w, crate::level::budget::MemoryLimit>,
    Query<'w, 's, &'static crate::model::elements::StageRoot, With<crate::view::eviction::Evicted>>,
    Query<'w, 's, (), With<crate::model::elements::DrawGroup>>,
);

/// Resources the report includes when the app has them.
type Optional<'w> = (
    Option<Res<'w, crate::dev::cpu::CpuClock>>,
    Option<Res<'w, crate::compare::Compare>>,
    Option<Res<'w, crate::view::cubes::VoxelDetail>>,
    Option<Res<'w, ButtonInput<MouseButton>>>,
    Option<Res<'w, crate::ui::refresh::UiRefresh>>,
    Option<Res<'w, crate::view::highlight::StepHighlights>>,
);

#[allow(clippy::too_many_arguments)]
fn write_report(
    mut file: ResMut<ReportFile>,
    ui: Option<Res<UiReport>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    current: Res<CurrentLevel>,
    build: Res<Build>,
    timeline: Res<Timeline>,
    tools: Res<Tools>,
    probe: Res<Probe>,
    selection: Res<crate::model::selection::Selection>,
    hover: Option<Res<Hover>>,
    pointer: Option<Res<crate::interact::pointer::ScenePointer>>,
    gesture: Option<Res<crate::interact::clicks::Gesture>>,
    focus: Res<crate::model::timeline::UiFocus>,
    (history, journal, loading, limit, evicted, shown_groups): BuildState<'_, '_>,
    (cpu, compare, voxels, mouse, refresh, step_highlights): Optional<'_>,
) {
    file.frame += 1;
    let (width, height, scale) = windows.single().map_or((0.0, 0.0, 1.0), |w| {
        (w.width(), w.height(), w.scale_factor())
    });
    let (start_px, goal_px) = cameras
        .single()
        .map_or((None, None), |(c, tf)| marker_pixels(c, tf, &probe));
    let n = build.pipeline().map_or(0, |p| p.stages.len());
    let finished = (0..n)
        .filter(|i| matches!(build.stage_state(*i), crate::build::StageState::Finished))
        .count();
    let running =
        (0..n).find(|i| matches!(build.stage_state(*i), crate::build::StageState::Running(_)));
    let failed = (0..n).find(|i| matches!(build.stage_state(*i), crate::build::StageState::Failed));
    let mut evicted: Vec<usize> = evicted.iter().map(|r| r.stage).collect();
    evicted.sort_unstable();
    let params: serde_json::Map<String, Value> = build
        .params()
        .map(|v| {
            v.iter()
                .map(|(k, v)| (k.to_string(), param_json(v)))
                .collect()
        })
        .unwrap_or_default();
    let ui = ui.map(|u| u.clone()).unwrap_or_default();
    let messages: Vec<&str> = journal
        .entries()
        .iter()
        .rev()
        .take(8)
        .map(|e| e.text.as_str())
        .collect();
    let report = json!({
        "window": { "width": width, "height": height },
        "scale": scale,
        "level": current.level.source,
        "pipeline": current.pipeline.as_ref().map(|p| p.id),
        "tool": tools.tool.name(),
        "next_probe_point": tools.next.name(),
        // The sub-step whose highlights are drawn: they are made on a worker
        // after the timeline moves (`view::highlight`).
        "stage": { "current": timeline.current, "count": n, "substep": timeline.substep,
                   "substep_drawn": step_highlights.and_then(|h| h.drawn())
                       .filter(|&(stage, _)| stage == timeline.current).map(|(_, step)| step),
                   "finished": finished, "running": running, "failed": failed,
                   "evicted": evicted, "shown_groups": shown_groups.iter().count() },
        // A level still loading counts as busy: until it opens, the build on
        // screen (the embedded default) is about to be replaced.
        "build": { "published": build.published, "busy": build.is_busy() || loading.is_loading(),
                   "loading": loading.is_loading(), "budget": limit.0.to_string() },
        "compare": compare.map(|c| json!({
            "pinned": c.pinned.is_some(),
            "show": c.show_difference,
            "revision": c.revision,
            "a_only": c.result.as_ref().map(|r| r.difference.a_only_area()),
            "b_only": c.result.as_ref().map(|r| r.difference.b_only_area()),
        })),
        "cpu": cpu.map(|c| (c.switch_max_ms(), c.switch_ms.len(), c.pending_readings())).map(|(worst, n, pending)| json!({
            "switch_max_ms": worst.0,
            "switch_max_extract_ms": worst.1,
            "switches": n,
            "pending": pending,
        })),
        // Frames that ran the egui pass, and frames that drew the last
        // pass's picture again (`ui::refresh`).
        "egui": refresh.map(|r| json!({ "passes": r.passes, "reused": r.reused })),
        "voxels": voxels.map(|v| json!({ "tiles": v.tiles, "coarse_tiles": v.coarse_tiles, "meshing": v.meshing })),
        "params": params,
        "undo": { "undo": history.undo_depth(), "redo": history.redo_depth() },
        "probe": {
            "start": point(probe.start), "goal": point(probe.goal),
            "start_px": pixel(start_px), "goal_px": pixel(goal_px),
            "found": probe.outcome.as_ref().map(|o| o.found()),
            "length": probe.outcome.as_ref().and_then(|o| o.length()),
            "revision": probe.revision,
        },
        "pointer": {
            // The mouse buttons this frame's input saw held: a test releases
            // a button only once the app saw it pressed, so a click is one
            // even when software-rendered frames are slower than a hand.
            "pressed": mouse.map(|m| {
                let mut b: Vec<String> = m.get_pressed().map(|b| format!("{b:?}")).collect();
                b.sort();
                b
            }),
            "in_scene": pointer.as_ref().is_some_and(|p| p.in_scene),
            "dragging": gesture.as_ref().and_then(|g| g.dragging).map(|m| m.name()),
            "ui_popup": focus.popup,
            "ui_keyboard": focus.keyboard,
            "ui_using_pointer": focus.using_pointer,
            "floating": focus.floating.iter().map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]).collect::<Vec<_>>(),
        },
        "selection": element(&selection.0),
        "hover": element(&hover.map(|h| h.0.clone()).unwrap_or_default()),
        "widgets": ui.widgets,
        "central": ui.central,
        "status": ui.status,
        "exports": ui.exports,
        "tooltips": ui.tooltips,
        "messages": messages,
    });
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
