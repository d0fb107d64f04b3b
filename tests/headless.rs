//! Headless app tests: `MinimalPlugins` plus the app's own plugins that need
//! no renderer. They load levels, run the stages in the background, check
//! the entities each stage publishes, scrub the timeline, change parameters,
//! probe a path and survive broken input.

use std::collections::BTreeSet;
use std::sync::Arc;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::prelude::*;
mod support;

use navscope::app::headless;
use navscope::build::Build;
use navscope::edit::params::ParamCommand;
use navscope::level::CurrentLevel;
use navscope::level::LevelRequest;
use navscope::model::elements::StageElement;
use navscope::model::elements::StageGeometry;
use navscope::model::elements::StageRoot;
use navscope::model::index::ElementIndex;
use navscope::model::journal::Journal;
use navscope::model::timeline::Timeline;
use navscope::probe::Probe;
use navscope::probe::ProbeMethod;
use navscope::probe::ProbeOutcome;
use navscope_core::level::LevelKind;
use navscope_core::stage::{Artifact, StageContext, StageError, StageInfo};
use navscope_core::{ParamKind, ParamSpec, ParamValue, Pipeline, Stage};
use support::Dots;

/// Updates until the background build is published and idle (bounded).
fn settle(app: &mut App) {
    for _ in 0..20_000 {
        app.update();
        let b = app.world().resource::<Build>();
        let loading = app
            .world()
            .resource::<navscope::level::Loading>()
            .is_loading();
        let probe = app.world().resource::<Probe>().is_refreshing();
        if !loading && !probe && !b.is_busy() && (b.published > 0 || b.pipeline().is_none()) {
            // One more frame so commands (spawns) are applied everywhere.
            app.update();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the build did not finish");
}

/// Updates until the level being loaded off the main thread is in (bounded).
fn settle_loading(app: &mut App) {
    for _ in 0..20_000 {
        app.update();
        if !app
            .world()
            .resource::<navscope::level::Loading>()
            .is_loading()
        {
            app.update();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the level did not load");
}

/// Updates until the probe's background search has answered (bounded).
fn settle_probe(app: &mut App) {
    let before = app.world().resource::<Probe>().revision;
    for _ in 0..20_000 {
        app.update();
        let searching = app
            .world()
            .resource::<navscope::probe::ProbeSearch>()
            .is_running();
        if !searching && app.world().resource::<Probe>().revision > before {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the probe's search did not answer");
}

fn published_at(app: &App) -> u64 {
    app.world().resource::<Build>().published
}

fn settle_after(app: &mut App, before: u64) {
    for _ in 0..20_000 {
        app.update();
        let loading = app
            .world()
            .resource::<navscope::level::Loading>()
            .is_loading();
        let probe = app.world().resource::<Probe>().is_refreshing();
        if !loading
            && !probe
            && published_at(app) > before
            && !app.world().resource::<Build>().is_busy()
        {
            app.update();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the rebuild did not finish");
}

fn elements(app: &mut App) -> Vec<StageElement> {
    let mut q = app.world_mut().query::<(&StageRoot, &ElementIndex)>();
    q.iter(app.world())
        .flat_map(|(root, index)| {
            index.elements().map(|(kind, element)| StageElement {
                stage: root.stage,
                kind: kind.to_string(),
                element,
            })
        })
        .collect()
}

#[test]
fn default_level_builds_and_publishes_every_element_in_its_stage_index() {
    let mut app = headless();
    settle(&mut app);
    let runner = app
        .world()
        .resource::<Build>()
        .runner()
        .cloned()
        .expect("a finished build");
    assert!(
        runner.first_error().is_none(),
        "default level builds cleanly: {:?}",
        runner.first_error()
    );
    let els = elements(&mut app);
    let n = runner.pipeline().stages.len();
    assert!(n > 0);
    for i in 0..n {
        let artifact = runner.result(i).unwrap().outcome.as_ref().unwrap();
        let expected: BTreeSet<(String, u32)> = artifact
            .primitives()
            .into_iter()
            .map(|p| (p.kind.into_owned(), p.element))
            .collect();
        let got: BTreeSet<(String, u32)> = els
            .iter()
            .filter(|e| e.stage == i)
            .map(|e| (e.kind.clone(), e.element))
            .collect();
        assert_eq!(got, expected, "stage {i} indexes every (kind, element)");
    }
    // Each element's lookup gives exactly its primitives, all of them.
    let mut q = app.world_mut().query::<(&StageRoot, &ElementIndex)>();
    for (_, index) in q.iter(app.world()) {
        let mut total = 0;
        for (kind, id) in index.elements() {
            let prims: Vec<_> = index.element(kind, id).collect();
            assert!(!prims.is_empty());
            assert!(prims.iter().all(|p| p.kind == kind && p.element == id));
            total += prims.len();
        }
        assert_eq!(total, index.primitives().len());
    }
    let mut roots = app.world_mut().query::<(&StageRoot, &StageGeometry)>();
    assert_eq!(roots.iter(app.world()).count(), n, "one root per stage");
    // The timeline starts at the last stage.
    assert_eq!(app.world().resource::<Timeline>().current, n - 1);
    // The final stage hands over a NavMesh.
    assert!(runner.navmesh().is_some_and(|m| !m.nodes.is_empty()));
}

#[test]
fn arrow_keys_scrub_the_timeline() {
    let mut app = headless();
    app.init_resource::<ButtonInput<KeyCode>>();
    settle(&mut app);
    let n = app
        .world()
        .resource::<Build>()
        .pipeline()
        .unwrap()
        .stages
        .len();
    // A key going down: the button state and the keyboard message that
    // the window backend sends with it.
    let key_down = |app: &mut App, k: KeyCode| {
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(k);
        app.world_mut().write_message(KeyboardInput {
            key_code: k,
            logical_key: Key::Unidentified(NativeKey::Unidentified),
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
    };
    let press = |app: &mut App, k: KeyCode| {
        key_down(app, k);
        app.update();
        let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        input.release(k);
        input.clear();
    };
    press(&mut app, KeyCode::ArrowLeft);
    assert_eq!(app.world().resource::<Timeline>().current, n - 2);
    press(&mut app, KeyCode::Home);
    assert_eq!(app.world().resource::<Timeline>().current, 0);
    press(&mut app, KeyCode::ArrowLeft);
    assert_eq!(
        app.world().resource::<Timeline>().current,
        0,
        "clamped at the first stage"
    );
    press(&mut app, KeyCode::ArrowRight);
    assert_eq!(app.world().resource::<Timeline>().current, 1);
    // Sub-steps where the stage recorded some.
    let with_steps = {
        let mut q = app.world_mut().query::<&StageGeometry>();
        q.iter(app.world())
            .find(|g| !g.substeps.is_empty())
            .map(|g| (g.stage, g.substeps.len()))
    };
    if let Some((stage, count)) = with_steps {
        app.world_mut().resource_mut::<Timeline>().set_stage(stage);
        press(&mut app, KeyCode::ArrowUp);
        assert_eq!(app.world().resource::<Timeline>().substep, Some(0));
        press(&mut app, KeyCode::ArrowDown);
        assert_eq!(app.world().resource::<Timeline>().substep, Some(0));
        for _ in 0..count {
            press(&mut app, KeyCode::ArrowUp);
        }
        assert_eq!(
            app.world().resource::<Timeline>().substep,
            None,
            "stepping past the last sub-step shows the final state"
        );
        // Three presses that one slow frame gathers step three times.
        assert!(count >= 3, "stage {stage} has {count} sub-steps");
        for _ in 0..3 {
            key_down(&mut app, KeyCode::ArrowUp);
        }
        app.update();
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .clear();
        assert_eq!(app.world().resource::<Timeline>().substep, Some(2));
    }
    press(&mut app, KeyCode::End);
    assert_eq!(app.world().resource::<Timeline>().current, n - 1);
}

/// A different valid value for a parameter.
fn other_value(spec: &ParamSpec, current: &ParamValue) -> Option<ParamValue> {
    match (&spec.kind, current) {
        (ParamKind::Float { min, max, .. }, ParamValue::Float(x)) => {
            let d = (max - min) * 0.1;
            Some(ParamValue::Float(if x + d <= *max { x + d } else { x - d }))
        }
        (ParamKind::Int { min, max }, ParamValue::Int(i)) => Some(ParamValue::Int(if i < max {
            i + 1
        } else {
            (i - 1).max(*min)
        })),
        (ParamKind::Bool, ParamValue::Bool(b)) => Some(ParamValue::Bool(!b)),
        _ => None,
    }
}

#[test]
fn a_parameter_change_reruns_only_the_later_stages() {
    let mut app = headless();
    settle(&mut app);
    let pipeline = app.world().resource::<Build>().pipeline().cloned().unwrap();
    // The parameter whose first reader is latest, so earlier stages must not re-run.
    let spec = pipeline
        .params
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                ParamKind::Float { .. } | ParamKind::Int { .. } | ParamKind::Bool
            )
        })
        .max_by_key(|s| pipeline.first_reader(&s.name))
        .cloned()
        .expect("the default pipeline has a numeric or on/off parameter");
    let first = pipeline.first_reader(&spec.name).unwrap();
    let value = other_value(&spec, &spec.default).unwrap();
    let before = published_at(&app);
    app.world_mut()
        .write_message(ParamCommand::Set(spec.name.clone(), value.clone()));
    settle_after(&mut app, before);
    let build = app.world().resource::<Build>();
    let runner = build.runner().unwrap();
    for i in 0..pipeline.stages.len() {
        let expected = if i < first { 1 } else { 2 };
        assert_eq!(
            runner.executions(i),
            expected,
            "stage {i} ({}) executions after changing '{}'",
            pipeline.stages[i].info.id,
            spec.name
        );
    }
    assert_eq!(
        runner.params().get(&spec.name),
        spec.check(&value).ok().as_ref()
    );
    let report = build.last.clone().unwrap();
    assert_eq!(report.from, first);
    assert_eq!(report.stages_ran, pipeline.stages.len() - first);

    // Reset goes back to the paper's value and re-runs the same stages.
    let before = published_at(&app);
    app.world_mut()
        .write_message(ParamCommand::Reset(spec.name.clone()));
    settle_after(&mut app, before);
    let runner = app.world().resource::<Build>().runner().unwrap();
    assert_eq!(
        runner.params().get(&spec.name),
        Some(&spec.check(&spec.default).unwrap())
    );
    assert_eq!(
        runner.executions(first.saturating_sub(1)),
        if first == 0 { 3 } else { 1 }
    );
}

#[test]
fn quick_successive_edits_publish_the_last_one() {
    let mut app = headless();
    settle(&mut app);
    let pipeline = app.world().resource::<Build>().pipeline().cloned().unwrap();
    let Some(spec) = pipeline
        .params
        .iter()
        .find(|s| matches!(s.kind, ParamKind::Float { .. }))
        .cloned()
    else {
        return;
    };
    let (ParamKind::Float { min, max, .. }, ParamValue::Float(d)) = (&spec.kind, &spec.default)
    else {
        unreachable!()
    };
    let before = published_at(&app);
    // Several edits in consecutive frames, as a dragged slider sends them.
    let mut last = *d;
    for k in 1..=5 {
        last = (d + (max - min) * 0.01 * k as f64).min(*max);
        app.world_mut().write_message(ParamCommand::Set(
            spec.name.clone(),
            ParamValue::Float(last),
        ));
        app.update();
    }
    settle_after(&mut app, before);
    let runner = app.world().resource::<Build>().runner().unwrap();
    assert_eq!(
        runner.params().float(&spec.name),
        last,
        "the published build has the latest value"
    );
}

#[test]
fn probing_a_path_between_two_nodes_finds_it() {
    let mut app = headless();
    settle(&mut app);
    app.update();
    let (a, b) = {
        let probe = app.world().resource::<Probe>();
        let mesh = probe.mesh().expect("the probe sees the NavMesh");
        assert!(mesh.nodes.len() >= 2);
        (
            mesh.nodes[0].position.as_vec3(),
            mesh.nodes[mesh.nodes.len() - 1].position.as_vec3(),
        )
    };
    {
        let mut probe = app.world_mut().resource_mut::<Probe>();
        probe.set_start(a);
        probe.set_goal(b);
    }
    settle_probe(&mut app);
    // Polyanya by default, its steps recorded (the expansions layer is on).
    let polyanya_length = match &app.world().resource::<Probe>().outcome {
        Some(ProbeOutcome::Searched {
            polyanya: Some(p),
            astar: None,
        }) => {
            assert!(p.expansions >= 1);
            assert!(
                p.length >= a.distance(b) as f64 - 1e-6,
                "a path is never shorter than the straight line"
            );
            assert!(p.waypoints.len() >= 2);
            assert!(!p.trace.is_empty());
            p.length
        }
        other => panic!("expected Polyanya's path alone, got {other:?}"),
    };
    // Both: A*'s path beside it, never shorter.
    {
        let mut probe = app.world_mut().resource_mut::<Probe>();
        probe.options.method = ProbeMethod::Both;
        probe.options_changed();
    }
    settle_probe(&mut app);
    let outcome = app.world().resource::<Probe>().outcome.clone();
    match &outcome {
        Some(ProbeOutcome::Searched {
            polyanya: Some(p),
            astar: Some(s),
        }) => {
            assert!((p.length - polyanya_length).abs() < 1e-9);
            assert!(s.result.found);
            assert!(!s.result.search.trace.expansions.is_empty());
            assert!(
                p.length <= s.result.length + 1e-6,
                "Polyanya's {} is longer than A*'s {}",
                p.length,
                s.result.length
            );
        }
        other => panic!("expected both paths, got {other:?}"),
    }
    let compared = outcome.as_ref().and_then(|o| o.compared_astar());
    assert!(compared.is_some());
    assert_eq!(
        outcome.as_ref().and_then(|o| o.length()),
        Some(polyanya_length)
    );
    // A*, with Polyanya's trace off: A*'s path alone.
    {
        let mut probe = app.world_mut().resource_mut::<Probe>();
        probe.options.method = ProbeMethod::AStar;
        probe.options.trace = false;
        probe.options_changed();
    }
    settle_probe(&mut app);
    match &app.world().resource::<Probe>().outcome {
        Some(
            o @ ProbeOutcome::Searched {
                polyanya: None,
                astar: Some(s),
            },
        ) => {
            assert_eq!(o.length(), Some(s.result.length));
            assert!(o.compared_astar().is_none());
        }
        other => panic!("expected A*'s path alone, got {other:?}"),
    }
    // Polyanya untraced: no steps kept.
    {
        let mut probe = app.world_mut().resource_mut::<Probe>();
        probe.options.method = ProbeMethod::Polyanya;
        probe.options_changed();
    }
    settle_probe(&mut app);
    match &app.world().resource::<Probe>().outcome {
        Some(ProbeOutcome::Searched {
            polyanya: Some(p), ..
        }) => assert!(p.trace.is_empty()),
        other => panic!("expected Polyanya's path, got {other:?}"),
    }
    // A goal far off the mesh is explained, not a crash.
    app.world_mut()
        .resource_mut::<Probe>()
        .set_goal(Vec3::new(1.0e6, 0.0, 1.0e6));
    settle_probe(&mut app);
    match &app.world().resource::<Probe>().outcome {
        Some(ProbeOutcome::NoPath(why)) => assert!(why.contains("goal"), "{why}"),
        other => panic!("expected an explanation, got {other:?}"),
    }
}

#[test]
fn a_broken_level_is_reported_and_the_app_keeps_running() {
    let mut app = headless();
    settle(&mut app);
    let published = published_at(&app);
    let dir = std::env::temp_dir().join(format!("navscope-app-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.json");
    std::fs::write(
        &bad,
        r#"{ "format": "navscope-floorplan", "version": 1, "outer": [[0, 0], [1, 0]] "#,
    )
    .unwrap();
    app.world_mut()
        .write_message(LevelRequest::Open(bad.clone()));
    settle_loading(&mut app);
    let journal = app.world().resource::<Journal>();
    let err = journal.last_error().expect("the error is logged");
    assert!(
        err.text.contains("broken.json"),
        "the message names the file: {}",
        err.text
    );
    let current = app.world().resource::<CurrentLevel>();
    assert!(current.path.is_none(), "the default level stays open");
    assert!(current.last_error.is_some());
    // Still running and still showing the earlier build.
    assert_eq!(published_at(&app), published);
    assert!(!elements(&mut app).is_empty());
    // A missing file too.
    app.world_mut()
        .write_message(LevelRequest::Open(dir.join("missing.json")));
    settle_loading(&mut app);
    assert!(
        app.world()
            .resource::<Journal>()
            .last_error()
            .unwrap()
            .text
            .contains("missing.json")
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_valid_file_opens_and_an_unknown_pipeline_is_refused() {
    let mut app = headless();
    settle(&mut app);
    let dir = std::env::temp_dir().join(format!("navscope-app-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("room.json");
    std::fs::write(
        &good,
        r#"{ "format": "navscope-floorplan", "version": 1, "outer": [[0, 0], [10, 0], [10, 8], [0, 8]], "holes": [[[4, 3], [6, 3], [6, 5], [4, 5]]] }"#,
    )
    .unwrap();
    let before = published_at(&app);
    app.world_mut()
        .write_message(LevelRequest::Open(good.clone()));
    settle_after(&mut app, before);
    let current = app.world().resource::<CurrentLevel>();
    assert_eq!(current.path.as_deref(), Some(good.as_path()));
    assert_eq!(current.level.kind(), LevelKind::FloorPlan);
    let runner = app.world().resource::<Build>().runner().unwrap();
    assert_eq!(runner.level().source, current.level.source);
    app.world_mut()
        .write_message(LevelRequest::Pipeline("no-such-pipeline".into()));
    app.update();
    assert!(
        app.world()
            .resource::<Journal>()
            .last_error()
            .unwrap()
            .text
            .contains("no-such-pipeline")
    );
    std::fs::remove_dir_all(dir).ok();
}

// A tiny pipeline whose second stage fails, to check that a failing stage is
// logged while the stage before it stays published.
fn dots(_: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    Ok(Arc::new(Dots(3)))
}

fn fails(_: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    Err(StageError::failed("element 7: the test stage always fails"))
}

#[test]
fn a_failing_stage_is_logged_and_earlier_stages_stay_visible() {
    let mut app = headless();
    settle(&mut app);
    let info = |id: &'static str| StageInfo {
        id,
        title: id,
        explanation: "test",
        paper: "none",
        params: &[],
    };
    let pipeline = Arc::new(Pipeline {
        id: "test-failing",
        stage_aliases: &[],
        title: "test",
        accepts: vec![LevelKind::FloorPlan],
        params: vec![],
        stages: vec![
            Stage {
                info: info("dots"),
                run: dots,
            },
            Stage {
                info: info("broken"),
                run: fails,
            },
        ],
    });
    let before = published_at(&app);
    {
        let mut current = app.world_mut().resource_mut::<CurrentLevel>();
        current.pipeline = Some(pipeline);
        current.revision += 1;
    }
    settle_after(&mut app, before);
    let err = app
        .world()
        .resource::<Journal>()
        .last_error()
        .unwrap()
        .text
        .clone();
    assert!(
        err.contains("'broken' failed") && err.contains("element 7"),
        "{err}"
    );
    let els = elements(&mut app);
    assert_eq!(
        els.iter().filter(|e| e.stage == 0).count(),
        3,
        "the stage before the failure is published"
    );
    assert!(
        els.iter().all(|e| e.stage == 0),
        "nothing of the failed stage nor of the old pipeline remains"
    );
    for _ in 0..10 {
        app.update();
    }
}

#[test]
fn a_height_slice_re_prepares_published_stages_without_rebuilding() {
    use navscope::model::band::HeightBand;
    use navscope::model::band::ViewFilter;
    let mut app = headless();
    app.world_mut().write_message(LevelRequest::Open(
        "assets/levels/layers-samples/figure5.ron".into(),
    ));
    settle(&mut app);
    let published = published_at(&app);
    let drawn = |app: &mut App| -> (usize, usize) {
        let mut q = app.world_mut().query::<&StageGeometry>();
        let geos: Vec<&StageGeometry> = q.iter(app.world()).collect();
        let all = geos.iter().map(|g| g.primitives.len()).sum();
        let shown = geos
            .iter()
            .flat_map(|g| &g.prepared.groups)
            .map(|g| g.drawn())
            .sum();
        (all, shown)
    };
    let (all, before) = drawn(&mut app);
    assert!(all > 0 && before > 0);
    // Only the ground floor.
    app.world_mut().resource_mut::<ViewFilter>().prepare.slice = Some(HeightBand::new(-0.5, 0.5));
    // The stages are prepared again on worker threads.
    refiltered(&mut app, Some(HeightBand::new(-0.5, 0.5)));
    let (all_after, after) = drawn(&mut app);
    assert_eq!(all_after, all, "the primitives are kept");
    assert!(
        after < before,
        "the floors above are left out: {after} < {before}"
    );
    let mut q = app.world_mut().query::<&StageGeometry>();
    for g in q.iter(app.world()) {
        assert_eq!(g.options.slice, Some(HeightBand::new(-0.5, 0.5)));
        for grp in &g.prepared.groups {
            for (a, b, _) in &grp.lines {
                assert!(
                    a.y.min(b.y) <= 0.5 && a.y.max(b.y) >= -0.5,
                    "{} {a} {b}",
                    grp.kind
                );
            }
            for (t, _) in &grp.triangles {
                assert!(t.iter().any(|p| p.y <= 0.5) && t.iter().any(|p| p.y >= -0.5));
            }
        }
    }
    assert_eq!(published_at(&app), published, "nothing was rebuilt");
    // Switching the slice off brings everything back.
    app.world_mut().resource_mut::<ViewFilter>().prepare.slice = None;
    refiltered(&mut app, None);
    assert_eq!(drawn(&mut app).1, before);
}

/// Updates until every published stage was prepared under `slice`.
fn refiltered(app: &mut App, slice: Option<navscope::model::band::HeightBand>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        app.update();
        let mut q = app.world_mut().query::<&StageGeometry>();
        if q.iter(app.world()).all(|g| g.options.slice == slice) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the stages were not prepared again"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn the_memory_budget_reaches_the_loader_and_is_remembered() {
    use navscope::level::Settings;
    use navscope::level::budget::MemoryLimit;
    use navscope_core::MemoryBudget;
    let mut app = headless();
    settle(&mut app);
    let file = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets/levels/floorplan/default.json");
    let size = std::fs::metadata(&file)
        .expect("the default level file")
        .len();
    // A budget smaller than the file: the loader refuses it, naming it.
    let small = MemoryBudget::new(size / 2);
    app.world_mut().write_message(LevelRequest::Budget(small));
    app.world_mut()
        .write_message(LevelRequest::Open(file.clone()));
    settle_loading(&mut app);
    assert_eq!(app.world().resource::<MemoryLimit>().0, small);
    assert_eq!(
        app.world().resource::<Settings>().budget,
        Some(small.bytes())
    );
    let err = app
        .world()
        .resource::<Journal>()
        .last_error()
        .expect("the refusal is logged")
        .text
        .clone();
    assert!(
        err.contains("default.json") && err.contains("budget"),
        "{err}"
    );
    assert!(app.world().resource::<CurrentLevel>().path.is_none());
    // Under the default budget the same file opens.
    app.world_mut()
        .write_message(LevelRequest::Budget(MemoryBudget::default()));
    app.world_mut().write_message(LevelRequest::Open(file));
    settle_loading(&mut app);
    settle(&mut app);
    assert!(app.world().resource::<CurrentLevel>().path.is_some());
}

/// The plan area of the polygon nodes of `mesh`.
fn polygon_plan_area(mesh: &navscope_core::NavMesh) -> f64 {
    mesh.nodes
        .iter()
        .map(navscope_explain::place::plan_area)
        .sum()
}

#[test]
fn exporting_a_polyanya_mesh_writes_the_navmesh_polygons_the_level_reader_takes_back() {
    use navscope::ui::export::{MeshFormat, write_navmesh};
    let mut app = headless();
    settle(&mut app);
    let dir = std::env::temp_dir().join(format!("navscope-app-polyanya-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("default.mesh");
    let build = app.world().resource::<Build>();
    write_navmesh(build, &out, MeshFormat::Polyanya).expect("the export is written");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("mesh\n2\n"),
        "{}",
        &text[..text.len().min(80)]
    );
    // Read back as a floor plan: the free space the polygons cover.
    let level = navscope_levels::load(&out).expect("the polyanya reader takes the export");
    let navscope_core::level::LevelData::FloorPlan(plan) = &level.data else {
        panic!(
            "a polyanya mesh reads as a floor plan, not {:?}",
            level.kind()
        );
    };
    let mesh = build.runner().unwrap().navmesh().unwrap();
    let (read, built) = (plan.area.area(), polygon_plan_area(&mesh));
    assert!(
        built > 0.0 && (read - built).abs() <= 1e-6 * built.max(1.0),
        "the export covers {read} m², the NavMesh's polygons {built} m²"
    );
    // No mesh yet: a clear refusal, no file.
    let empty = headless();
    let none = dir.join("none.mesh");
    if empty.world().resource::<Build>().runner().is_none() {
        let e = write_navmesh(
            empty.world().resource::<Build>(),
            &none,
            MeshFormat::Polyanya,
        )
        .expect_err("nothing to export before the first build");
        assert!(e.contains("navigation mesh"), "{e}");
        assert!(!none.exists());
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_probe_between_unconnected_places_explains_the_gap_and_finds_a_checked_fix() {
    let mut app = headless();
    settle(&mut app);
    let before = published_at(&app);
    let ledge =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/levels/cspace/ledge.ron");
    app.world_mut().write_message(LevelRequest::Open(ledge));
    settle_after(&mut app, before);
    let before = published_at(&app);
    app.world_mut()
        .write_message(LevelRequest::Pipeline("voxel".into()));
    settle_after(&mut app, before);
    assert_eq!(
        app.world().resource::<Build>().pipeline().unwrap().id,
        "voxel"
    );
    {
        let mut probe = app.world_mut().resource_mut::<Probe>();
        probe.set_start(Vec3::new(0.0, 0.0, -2.0));
        probe.set_goal(Vec3::new(2.0, 1.0, -2.0));
    }
    settle_probe(&mut app);
    let probe = app.world().resource::<Probe>();
    assert!(
        matches!(probe.outcome, Some(ProbeOutcome::NoPath(_))),
        "{:?}",
        probe.outcome
    );
    let f = probe.failure.clone().expect("a failure with its regions");
    let mesh = probe.mesh().expect("a mesh");
    let n = mesh.nodes.len() as u32;
    assert!(!f.reached.is_empty() && !f.reaches_goal.is_empty());
    assert!(f.reached.iter().chain(&f.reaches_goal).all(|v| *v < n));
    assert!(
        f.reached.iter().all(|v| !f.reaches_goal.contains(v)),
        "a node reached from the start that reaches the goal would make a path"
    );
    let gap = f.gap.expect("a gap");
    assert!(
        gap.height > 0.5,
        "the ledge is up from the start's side: {gap:?}"
    );
    // The fix search answers in the background.
    for _ in 0..60_000 {
        app.update();
        if app
            .world()
            .resource::<Probe>()
            .failure
            .as_ref()
            .is_some_and(|f| !f.fix_pending)
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let f = app.world().resource::<Probe>().failure.clone().unwrap();
    assert!(!f.fix_pending, "the fix search did not finish");
    let gap = f.gap.unwrap();
    // Where a fix is named, building with it joins the ends.
    if let Some(fix) = gap.fix.first() {
        let runner = app.world().resource::<Build>().runner().unwrap();
        let mut r = navscope_core::Runner::new(runner.pipeline().clone(), runner.level().clone());
        let mut values = runner.params().clone();
        values
            .set(&runner.pipeline().params, &fix.parameter, fix.value.clone())
            .unwrap();
        r.set_params(values);
        r.run_all();
        let m = r.navmesh().unwrap();
        let found = navscope_path::find_path(
            &m,
            &navscope_path::Locator::new(&m),
            bevy::math::DVec3::new(0.0, 0.0, -2.0),
            bevy::math::DVec3::new(2.0, 1.0, -2.0),
            &Default::default(),
        );
        assert!(
            found.is_ok(),
            "building with {} = {} does not join: {found:?}",
            fix.parameter,
            fix.value
        );
    }
}
