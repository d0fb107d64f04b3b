//! Headless tests of the build's life cycle as the user meets it: stages
//! appear as they finish (a slow third stage does not hide the first two),
//! slider drags are debounced and the last value always builds, cancelling
//! after opening another level keeps that level, and undo / redo walk
//! parameter edits and probe moves.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
mod support;

use navscope::app::headless;
use navscope::build::Build;
use navscope::build::StageState;
use navscope::edit::history::History;
use navscope::edit::history::HistoryCommand;
use navscope::edit::params::ParamCommand;
use navscope::level::CurrentLevel;
use navscope::level::LevelRequest;
use navscope::model::elements::StageRoot;
use navscope::model::index::ElementIndex;
use navscope::probe::Probe;
use navscope_core::level::LevelKind;
use navscope_core::stage::{Artifact, StageContext, StageError, StageInfo};
use navscope_core::{ParamSpec, ParamValue, Pipeline, Stage};
use support::{Dots, until};

fn idle(app: &App) -> bool {
    let b = app.world().resource::<Build>();
    !b.is_busy() && b.published > 0
}

fn stages_drawn(app: &mut App) -> Vec<usize> {
    let mut q = app.world_mut().query::<(&StageRoot, &ElementIndex)>();
    let mut s: Vec<usize> = q
        .iter(app.world())
        .filter(|(_, index)| !index.is_empty())
        .map(|(root, _)| root.stage)
        .collect();
    s.sort();
    s.dedup();
    s
}

/// Released by the first test when its slow stage may finish.
static GATE: AtomicBool = AtomicBool::new(false);
/// The same for the cancel test (tests run in parallel).
static GATE_CANCEL: AtomicBool = AtomicBool::new(false);

fn wait_for(gate: &AtomicBool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !gate.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn dots(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    Ok(Arc::new(Dots(ctx.params.float("n") as u32)))
}

fn slow(_: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    wait_for(&GATE);
    Ok(Arc::new(Dots(1)))
}

fn slow_cancel(_: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    wait_for(&GATE_CANCEL);
    Ok(Arc::new(Dots(1)))
}

fn info(id: &'static str, params: &'static [&'static str]) -> StageInfo {
    StageInfo {
        id,
        title: id,
        explanation: "test",
        paper: "none",
        params,
    }
}

fn pipeline(third: fn(&StageContext) -> Result<Arc<dyn Artifact>, StageError>) -> Arc<Pipeline> {
    Arc::new(Pipeline {
        id: "test-slow",
        stage_aliases: &[],
        title: "test",
        accepts: vec![LevelKind::FloorPlan],
        params: vec![ParamSpec::float("n", "N", "", 3.0, 1.0, 50.0, 1.0, "")],
        stages: vec![
            Stage {
                info: info("first", &["n"]),
                run: dots,
            },
            Stage {
                info: info("second", &[]),
                run: dots,
            },
            Stage {
                info: info("third", &[]),
                run: third,
            },
        ],
    })
}

/// Switches to the test pipeline with three fast stages and waits for it.
fn use_fast_pipeline(app: &mut App) {
    use_pipeline(app, pipeline(dots));
    until(app, 60, "the test pipeline is built", |app| {
        let b = app.world().resource::<Build>();
        idle(app)
            && b.runner()
                .is_some_and(|r| r.pipeline().id == "test-slow" && r.result(2).is_some())
    });
}

fn use_pipeline(app: &mut App, p: Arc<Pipeline>) {
    let mut current = app.world_mut().resource_mut::<CurrentLevel>();
    current.pipeline = Some(p);
    current.revision += 1;
}

#[test]
fn the_first_stages_are_drawn_while_a_slow_third_stage_runs() {
    GATE.store(false, Ordering::SeqCst);
    let mut app = headless();
    until(&mut app, 120, "the default level is built", idle);
    use_pipeline(&mut app, pipeline(slow));
    until(&mut app, 60, "stages 1 and 2 are drawn", |app| {
        let b = app.world().resource::<Build>();
        b.stage_state(1) == StageState::Finished
    });
    app.update();
    assert_eq!(
        stages_drawn(&mut app),
        vec![0, 1],
        "stages 1 and 2 drawn, 3 not yet"
    );
    {
        let b = app.world().resource::<Build>();
        assert!(
            matches!(b.stage_state(2), StageState::Running(_)),
            "{:?}",
            b.stage_state(2)
        );
        assert!(b.is_busy());
    }
    GATE.store(true, Ordering::SeqCst);
    until(&mut app, 60, "stage 3 is drawn", |app| {
        app.world().resource::<Build>().stage_state(2) == StageState::Finished
    });
    app.update();
    assert_eq!(stages_drawn(&mut app), vec![0, 1, 2]);
}

#[test]
fn a_burst_of_edits_builds_at_most_every_debounce_and_ends_on_the_last_value() {
    let mut app = headless();
    until(&mut app, 120, "the default level is built", idle);
    use_fast_pipeline(&mut app);
    let generation = app.world().resource::<Build>().generation();
    // Twenty edits in twenty frames, well within a few debounce periods.
    let started = Instant::now();
    for k in 0..20 {
        app.world_mut().write_message(ParamCommand::Set(
            "n".into(),
            ParamValue::Float(4.0 + k as f64),
        ));
        app.update();
    }
    let elapsed = started.elapsed();
    until(&mut app, 60, "the last edit is built", |app| {
        let b = app.world().resource::<Build>();
        !b.is_busy() && b.runner().is_some_and(|r| r.params().float("n") == 23.0)
    });
    let starts = app.world().resource::<Build>().generation() - generation;
    let allowed = 2 + (elapsed.as_millis() / navscope::build::DEBOUNCE.as_millis()) as u64;
    assert!(
        starts <= allowed,
        "{starts} builds started for 20 edits in {elapsed:?} (at most {allowed})"
    );
    assert_eq!(stages_drawn(&mut app), vec![0, 1, 2]);
    let first = app
        .world()
        .resource::<Build>()
        .runner()
        .unwrap()
        .result(0)
        .unwrap()
        .counts["dots"];
    assert_eq!(first, 23, "what is drawn is the last value's build");
}

#[test]
fn cancelling_after_opening_another_level_keeps_the_new_level() {
    let mut app = headless();
    until(&mut app, 120, "the default level is built", idle);
    app.world_mut().write_message(LevelRequest::Open(
        "assets/levels/floorplan/default.json".into(),
    ));
    until(&mut app, 60, "the level file is loaded", |app| {
        app.world().resource::<CurrentLevel>().path.is_some()
    });
    use_pipeline(&mut app, pipeline(slow_cancel));
    until(
        &mut app,
        60,
        "the new level's first stages are drawn",
        |app| app.world().resource::<Build>().stage_state(1) == StageState::Finished,
    );
    app.world_mut().resource_mut::<Build>().cancel();
    GATE_CANCEL.store(true, Ordering::SeqCst);
    for _ in 0..20 {
        app.update();
    }
    let current = app.world().resource::<CurrentLevel>().level.clone();
    let b = app.world().resource::<Build>();
    assert!(!b.is_busy(), "cancelled");
    let shown = b.runner().expect("the finished stages stay");
    assert!(
        Arc::ptr_eq(shown.level(), &current),
        "the view shows the new level"
    );
    assert_eq!(shown.pipeline().id, "test-slow");
    // Rebuilding runs only the stage the cancel left missing.
    let before = (shown.executions(0), shown.executions(1));
    app.world_mut().resource_mut::<Build>().resume();
    until(&mut app, 60, "the missing stage is built", |app| {
        app.world().resource::<Build>().stage_state(2) == StageState::Finished
    });
    let r = app.world().resource::<Build>().runner().unwrap();
    assert_eq!(
        (r.executions(0), r.executions(1)),
        before,
        "finished stages were kept"
    );
}

#[test]
fn undo_and_redo_walk_parameter_edits_and_probe_moves() {
    let mut app = headless();
    until(&mut app, 120, "the default level is built", idle);
    use_fast_pipeline(&mut app);
    let n = |app: &App| app.world().resource::<Build>().params().unwrap().float("n");
    app.world_mut()
        .write_message(ParamCommand::Set("n".into(), ParamValue::Float(7.0)));
    app.update();
    assert_eq!(n(&app), 7.0);
    {
        let mut p = app.world_mut().resource_mut::<Probe>();
        p.set_start(Vec3::ONE);
    }
    app.world_mut()
        .resource_mut::<History>()
        .probe_moved((None, None), (Some(Vec3::ONE), None));
    assert_eq!(app.world().resource::<History>().undo_depth(), 2);
    app.world_mut().write_message(HistoryCommand::Undo);
    app.update();
    assert_eq!(
        app.world().resource::<Probe>().start,
        None,
        "the probe move is undone first"
    );
    assert_eq!(n(&app), 7.0);
    app.world_mut().write_message(HistoryCommand::Undo);
    app.update();
    assert_eq!(n(&app), 3.0, "then the edit");
    app.world_mut().write_message(HistoryCommand::Redo);
    app.update();
    assert_eq!(n(&app), 7.0);
    until(&mut app, 60, "the redone value is built", |app| {
        let b = app.world().resource::<Build>();
        !b.is_busy() && b.runner().is_some_and(|r| r.params().float("n") == 7.0)
    });
    // Opening a level forgets the history.
    app.world_mut().write_message(LevelRequest::Embedded);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<History>().undo_depth(), 0);
}

/// `--stage` names a stage of the level on the command line: it waits while
/// that level loads (the embedded default level, built meanwhile, has other
/// stages) and then shows it.
#[test]
fn a_command_line_stage_applies_to_the_level_named_with_it() {
    let mut app = headless();
    let level =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/levels/voxel/table_room.obj");
    let args = navscope::cli::Args {
        level: Some(level.clone()),
        pipeline: Some("voxel".into()),
        stage: Some("flag".into()),
        ..Default::default()
    };
    navscope::app::apply_args(&mut app, &args);
    until(
        &mut app,
        300,
        "the voxel build of table_room.obj is done",
        |app| {
            let cur = app.world().resource::<CurrentLevel>();
            idle(app)
                && cur.pipeline.as_ref().is_some_and(|p| p.id == "voxel")
                && app
                    .world()
                    .resource::<navscope::model::timeline::Timeline>()
                    .requested
                    .is_none()
        },
    );
    let build = app.world().resource::<Build>();
    let ids: Vec<&str> = build
        .pipeline()
        .map(|p| p.stages.iter().map(|s| s.info.id).collect())
        .unwrap_or_default();
    let current = app
        .world()
        .resource::<navscope::model::timeline::Timeline>()
        .current;
    assert_eq!(
        ids.get(current),
        Some(&"flag"),
        "stages {ids:?}, shown {current}"
    );
    let errors: Vec<String> = app
        .world()
        .resource::<navscope::model::journal::Journal>()
        .entries()
        .iter()
        .map(|e| e.text.clone())
        .filter(|t| t.contains("--stage"))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}
