//! Moving along the timeline: arrow keys, Home / End, play, the stage asked
//! for on the command line, and clamping to the pipeline's stages.

use crate::build::Build;
use crate::build::StageSystems;
use crate::cli;
use crate::model::elements::StageGeometry;
use crate::model::journal::Journal;
use crate::model::timeline::PLAY_INTERVAL;
use crate::model::timeline::Timeline;
use crate::model::timeline::UiFocus;
use crate::model::timeline::substep_count;
use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;

/// Keeps the timeline's state and reacts to keys.
pub struct TimelinePlugin;

impl Plugin for TimelinePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Timeline>()
            // Registered by Bevy's input plugin in the window app; here too
            // so the app without a window reads the keys the same way.
            .add_message::<KeyboardInput>()
            .init_resource::<UiFocus>()
            .init_resource::<Journal>()
            .add_systems(
                Update,
                (follow_level, resolve_request, keys, play, clamp)
                    .chain()
                    .after(StageSystems),
            );
    }
}

fn stage_count(build: &Build) -> usize {
    build.pipeline().map_or(0, |p| p.stages.len())
}

/// What [`follow_level`] last saw: the level's file, the chosen pipeline's
/// id and the id of the pipeline the build on screen runs (it follows the
/// choice a little later, and the stage count comes from it).
type Opened = (
    Option<std::path::PathBuf>,
    Option<&'static str>,
    Option<&'static str>,
);

/// When another level or pipeline comes on screen: the timeline goes to the
/// last stage (the final NavMesh), unless a stage is asked for (the command
/// line's `--stage`, or the stage remembered for that level, which
/// [`crate::build::session`] turns into a request), and the selection of
/// the former one is dropped (its stage and element index would name
/// something else under the new pipeline).
fn follow_level(
    current: Option<Res<crate::level::CurrentLevel>>,
    build: Res<Build>,
    mut timeline: ResMut<Timeline>,
    selection: Option<ResMut<crate::model::selection::Selection>>,
    mut seen: Local<Opened>,
) {
    let Some(current) = current else { return };
    let building = build.pipeline().map(|p| p.id);
    let chosen = current.pipeline.as_ref().map(|p| p.id);
    if seen.0 == current.path && seen.1 == chosen && seen.2 == building {
        return;
    }
    let now = (current.path.clone(), chosen, building);
    *seen = now;
    if timeline.requested.is_none() {
        timeline.current = usize::MAX;
        timeline.substep = None;
    }
    if let Some(mut selection) = selection.filter(|s| s.0.is_some()) {
        selection.0 = None;
    }
}

fn resolve_request(
    build: Res<Build>,
    loading: Res<crate::level::Loading>,
    mut timeline: ResMut<Timeline>,
    mut journal: ResMut<Journal>,
) {
    // The request names a stage of the level and pipeline the command line
    // asked for: wait while that level loads and its build is under way
    // (the embedded default level is built meanwhile, with other stages).
    if loading.is_loading() || build.is_busy() {
        return;
    }
    // Looked at before taking: taking marks the timeline changed, and a
    // change every frame would redo everything that follows the timeline.
    let Some(p) = build.pipeline().filter(|_| timeline.requested.is_some()) else {
        return;
    };
    let Some(req) = timeline.requested.take() else {
        return;
    };
    // A stage's id, or a former id it keeps as an alias; else a position.
    let ids: Vec<&str> = p.stages.iter().map(|s| s.info.id).collect();
    let found = p
        .stage_index(&req)
        .map_or_else(|| cli::resolve_stage(&req, &ids), Ok);
    match found {
        Ok(i) => timeline.set_stage(i),
        Err(e) => journal.error(format!("--stage: {e}")),
    }
}

/// How many times each arrow key went down this frame (Right, Left, Up,
/// Down), key repeats not counted. [`ButtonInput::just_pressed`] says only
/// whether a key went down, so presses that a slow frame gathers (software
/// rendering, a big level) stepped once.
fn arrow_presses(input: &mut MessageReader<KeyboardInput>) -> [usize; 4] {
    let mut n = [0; 4];
    let order = [
        KeyCode::ArrowRight,
        KeyCode::ArrowLeft,
        KeyCode::ArrowUp,
        KeyCode::ArrowDown,
    ];
    for k in input
        .read()
        .filter(|k| k.state == ButtonState::Pressed && !k.repeat)
    {
        if let Some(i) = order.iter().position(|c| *c == k.key_code) {
            n[i] += 1;
        }
    }
    n
}

fn keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut input: MessageReader<KeyboardInput>,
    focus: Res<UiFocus>,
    build: Res<Build>,
    roots: Query<&StageGeometry>,
    mut timeline: ResMut<Timeline>,
) {
    let [right, left, up, down] = arrow_presses(&mut input);
    let Some(keys) = keys else { return };
    if focus.keyboard {
        return;
    }
    let n = stage_count(&build);
    for _ in 0..right {
        timeline.step_stage(1, n);
    }
    for _ in 0..left {
        timeline.step_stage(-1, n);
    }
    if keys.just_pressed(KeyCode::Home) {
        timeline.set_stage(0);
    }
    if keys.just_pressed(KeyCode::End) && n > 0 {
        timeline.set_stage(n - 1);
    }
    let subs = substep_count(roots.iter(), timeline.current);
    for _ in 0..up {
        timeline.step_substep(1, subs);
    }
    for _ in 0..down {
        timeline.step_substep(-1, subs);
    }
    if keys.just_pressed(KeyCode::Space) {
        timeline.toggle_play(n);
    }
    if keys.just_pressed(KeyCode::KeyA) {
        timeline.accumulate = !timeline.accumulate;
    }
}

pub(crate) fn play(
    time: Res<Time>,
    build: Res<Build>,
    roots: Query<&StageGeometry>,
    mut timeline: ResMut<Timeline>,
) {
    if !timeline.playing {
        return;
    }
    timeline.timer += time.delta_secs();
    if timeline.timer < PLAY_INTERVAL {
        return;
    }
    timeline.timer = 0.0;
    let subs = substep_count(roots.iter(), timeline.current);
    // Entering a stage with sub-steps starts at its first step.
    let n = stage_count(&build);
    let before = timeline.current;
    timeline.advance(n, subs);
    if timeline.current != before && substep_count(roots.iter(), timeline.current) > 0 {
        timeline.substep = Some(0);
    }
}

pub(crate) fn clamp(build: Res<Build>, mut timeline: ResMut<Timeline>) {
    let n = stage_count(&build);
    if n > 0 && timeline.current >= n {
        timeline.current = n - 1;
        timeline.substep = None;
    }
}
