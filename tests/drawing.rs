//! The stage drawing without a window or a renderer
//! ([`navscope::app::drawing_headless`], what `benches/app_frames.rs`
//! drives): every published stage gets its retained drawing with its assets
//! built, only the current stage's drawing shows, a stage switch flips it,
//! and the CPU clock records the switch.

use bevy::prelude::*;
mod support;

use navscope::app::drawing_headless;
use navscope::build::Build;
use navscope::model::timeline::Timeline;
use navscope::ui::cpu::CpuClock;
use navscope::view::draw::{DrawGroup, ParkedGizmo};
use support::until;

/// The stages whose drawing is visible, and how many groups are drawn.
fn shown_stages(app: &mut App) -> (Vec<usize>, usize) {
    let mut q = app.world_mut().query::<(&DrawGroup, &Visibility)>();
    let mut shown: Vec<usize> = q
        .iter(app.world())
        .filter(|(_, v)| **v != Visibility::Hidden)
        .map(|(g, _)| g.stage)
        .collect();
    shown.sort();
    shown.dedup();
    (shown, q.iter(app.world()).count())
}

/// Bevy extracts every entity with a `Gizmo` in every frame, shown or
/// not: a hidden group must hold its gizmo parked, a shown one in place.
fn assert_hidden_gizmos_parked(app: &mut App) {
    let mut q = app.world_mut().query::<(
        &DrawGroup,
        &Visibility,
        Option<&Gizmo>,
        Option<&ParkedGizmo>,
    )>();
    let (mut shown, mut parked) = (0, 0);
    for (g, vis, gizmo, park) in q.iter(app.world()) {
        let visible = *vis != Visibility::Hidden;
        assert!(
            gizmo.is_none() || park.is_none(),
            "stage {} {}: a gizmo both in place and parked",
            g.stage,
            g.kind
        );
        if visible {
            shown += gizmo.is_some() as usize;
            assert!(
                park.is_none(),
                "stage {} {}: shown but parked",
                g.stage,
                g.kind
            );
        } else {
            parked += park.is_some() as usize;
            assert!(
                gizmo.is_none(),
                "stage {} {}: hidden but extracted",
                g.stage,
                g.kind
            );
        }
    }
    assert!(
        shown > 0 && parked > 0,
        "{shown} gizmos shown, {parked} parked"
    );
}

/// The headless drawing app with the default level built and its drawing
/// spawned (the frame after the last publish spawns it).
fn drawn_default_level() -> App {
    let mut app = drawing_headless();
    until(&mut app, 120, "the default level is built", |app| {
        let b = app.world().resource::<Build>();
        !b.is_busy() && b.published > 0
    });
    app.update();
    app.update();
    app
}

#[test]
fn published_stages_are_drawn_and_a_switch_shows_only_the_new_stage() {
    let mut app = drawn_default_level();
    let stages = app
        .world()
        .resource::<Build>()
        .pipeline()
        .map_or(0, |p| p.stages.len());
    assert!(stages >= 2, "the default pipeline has stages to switch");
    let (_, groups) = shown_stages(&mut app);
    assert!(
        groups >= stages,
        "{groups} drawn groups for {stages} stages"
    );
    // The gizmos and meshes were built (on the workers) and handed over.
    assert!(!app.world().resource::<Assets<GizmoAsset>>().is_empty());
    assert!(!app.world().resource::<Assets<Mesh>>().is_empty());

    let switches_before = app.world().resource::<CpuClock>().switch_ms.len();
    app.world_mut().resource_mut::<Timeline>().set_stage(0);
    app.update();
    app.update();
    app.update();
    let (shown, _) = shown_stages(&mut app);
    assert_eq!(shown, vec![0], "only the first stage shows");
    assert_hidden_gizmos_parked(&mut app);
    let last = stages - 1;
    app.world_mut().resource_mut::<Timeline>().set_stage(last);
    app.update();
    app.update();
    app.update();
    let (shown, _) = shown_stages(&mut app);
    assert_eq!(shown, vec![last], "only the last stage shows");
    assert_hidden_gizmos_parked(&mut app);
    let clock = app.world().resource::<CpuClock>();
    assert!(
        clock.switch_ms.len() >= switches_before + 2,
        "the clock recorded the switches: {} -> {}",
        switches_before,
        clock.switch_ms.len()
    );
    assert!(clock.switch_ms.iter().all(|s| s.0 > 0.0 && s.0.is_finite()));
}

/// The highlight gizmo's entity and asset, if one is drawn.
fn highlight(app: &mut App) -> Option<(Entity, AssetId<GizmoAsset>)> {
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &Gizmo), With<navscope::view::highlight::HighlightGizmo>>();
    let mut found: Vec<(Entity, AssetId<GizmoAsset>)> = q
        .iter(app.world())
        .map(|(e, g)| (e, g.handle.id()))
        .collect();
    assert!(found.len() <= 1, "at most one highlight gizmo: {found:?}");
    found.pop()
}

#[test]
fn the_highlight_is_built_when_the_selection_or_sub_step_changes_and_not_on_idle_frames() {
    use navscope::model::elements::{StageElement, StageGeometry};
    use navscope::model::selection::Selection;
    let mut app = drawn_default_level();
    assert_eq!(highlight(&mut app), None, "nothing selected, no sub-step");

    let current = app.world().resource::<Timeline>().current;
    let mut roots = app.world_mut().query::<&StageGeometry>();
    let el = roots
        .iter(app.world())
        .find(|r| r.stage == current)
        .map(|r| StageElement {
            stage: r.stage,
            kind: r.primitives[0].kind.clone(),
            element: r.primitives[0].element,
        })
        .expect("the current stage is drawn");
    let substep = roots.iter(app.world()).find_map(|r| {
        let step = r.substeps.iter().position(|s| !s.highlights.is_empty())?;
        Some((r.stage, step as u32))
    });
    app.world_mut().resource_mut::<Selection>().0 = Some(el.clone());
    app.update();
    let first = highlight(&mut app).expect("a selected element is highlighted");
    let lines = app
        .world()
        .resource::<Assets<GizmoAsset>>()
        .get(first.1)
        .map_or(0, |a| a.list_positions.len() + a.strip_positions.len());
    assert!(lines > 0, "the highlight has lines");
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        highlight(&mut app),
        Some(first),
        "idle frames keep the same highlight"
    );

    app.world_mut().resource_mut::<Selection>().0 = None;
    app.update();
    assert_eq!(highlight(&mut app), None, "deselected: no highlight");

    let (stage, step) = substep.expect("a stage of the default level has sub-step highlights");
    app.world_mut().resource_mut::<Timeline>().set_stage(stage);
    app.world_mut().resource_mut::<Timeline>().substep = Some(step);
    app.update();
    let shown = highlight(&mut app).expect("the sub-step's highlights are drawn");
    app.world_mut().resource_mut::<Timeline>().substep = None;
    app.update();
    assert_eq!(highlight(&mut app), None, "no sub-step: no highlight");
    app.world_mut().resource_mut::<Timeline>().substep = Some(step);
    app.update();
    assert_ne!(
        highlight(&mut app).map(|h| h.0),
        Some(shown.0),
        "coming back to the sub-step draws it again"
    );
    assert!(highlight(&mut app).is_some());
}

/// The groups drawn for `stage` that show, and the kinds among them.
fn shown_groups_of(app: &mut App, stage: usize) -> (usize, usize) {
    let mut q = app.world_mut().query::<(&DrawGroup, &Visibility)>();
    let shown: Vec<&DrawGroup> = q
        .iter(app.world())
        .filter(|(g, v)| g.stage == stage && **v != Visibility::Hidden)
        .map(|(g, _)| g)
        .collect();
    let mut kinds: Vec<&str> = shown.iter().map(|g| g.kind.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    (shown.len(), kinds.len())
}

/// A stage of hundreds of sub-steps (the portal stage of a generated floor
/// plan) is drawn through few groups: one per kind at its end, at most
/// about 2·√steps per kind in the middle (`model::step_batches`); each
/// shown group is a draw that costs CPU in every frame.
#[test]
fn a_stage_of_many_sub_steps_shows_few_groups_at_any_step() {
    let plan = navscope_levels::generate::big_floor_plan(1, 3_000);
    let path = std::env::temp_dir().join("navscope-drawing-fp3k.json");
    std::fs::write(&path, navscope_levels::write::floor_plan_json(&plan)).expect("write plan");
    let mut app = drawing_headless();
    app.world_mut()
        .write_message(navscope::level::LevelRequest::Open(path));
    app.world_mut()
        .write_message(navscope::level::LevelRequest::Pipeline("convex".into()));
    until(&mut app, 120, "the floor plan is built", |app| {
        let b = app.world().resource::<Build>();
        let loading = app
            .world()
            .resource::<navscope::level::Loading>()
            .is_loading();
        !loading && !b.is_busy() && b.published > 0
    });
    app.update();
    app.update();
    let mut q = app
        .world_mut()
        .query::<&navscope::model::elements::StageGeometry>();
    let (stage, steps) = q
        .iter(app.world())
        .map(|g| (g.stage, g.substeps.len()))
        .max_by_key(|&(_, n)| n)
        .expect("published stages");
    assert!(steps >= 200, "the portal stage records {steps} sub-steps");
    app.world_mut().resource_mut::<Timeline>().set_stage(stage);
    app.update();
    app.update();
    let (at_end, kinds) = shown_groups_of(&mut app, stage);
    assert!(kinds >= 2, "portal kinds show at the end");
    assert!(
        at_end <= kinds + 2,
        "{at_end} groups of {kinds} kinds show at the end of a stage of {steps} sub-steps"
    );
    let w = (steps as f64).sqrt().ceil() as usize;
    for step in [steps / 3, steps / 2, steps - 2] {
        app.world_mut().resource_mut::<Timeline>().substep = Some(step as u32);
        app.update();
        app.update();
        let (n, kinds) = shown_groups_of(&mut app, stage);
        assert!(n > 0, "something shows at sub-step {step}");
        assert!(
            n <= kinds * (2 * w + 8),
            "{n} groups of {kinds} kinds show at sub-step {step} of {steps}"
        );
    }
}
