//! The stage drawing without a window or a renderer
//! ([`navscope::app::drawing_headless`], what `benches/app_frames.rs`
//! drives): every published stage gets its retained drawing with its assets
//! built, only the current stage's drawing shows, a stage switch flips it,
//! and the CPU clock records the switch.

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::prelude::*;
mod support;

use navscope::app::drawing_headless;
use navscope::build::Build;
use navscope::dev::cpu::CpuClock;
use navscope::level::{CurrentLevel, LevelRequest};
use navscope::model::elements::DrawGroup;
use navscope::model::timeline::Timeline;
use navscope::view::cubes::{TileDetail, VoxelDetail, VoxelGroup};
use navscope::view::eviction::Evicted;
use navscope::view::residency::{Residency, RestoringStages};
use navscope::view::scene::MainCamera;
use navscope::view::voxel_meshing::{Meshed, Meshing, VoxelCubes};
use support::{until, until_found};

/// The stages whose drawing is visible, and how many groups are drawn
/// (shown or hidden).
fn shown_stages(app: &mut App) -> (Vec<usize>, usize) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&DrawGroup, Has<Disabled>), Allow<Disabled>>();
    let mut shown: Vec<usize> = q
        .iter(app.world())
        .filter(|(_, hidden)| !hidden)
        .map(|(g, _)| g.stage)
        .collect();
    shown.sort();
    shown.dedup();
    (shown, q.iter(app.world()).count())
}

/// Hidden groups are disabled, and so is everything under them (a voxel
/// group's tiles), so that no query and no extraction visits them; the
/// gizmos Bevy sees (it extracts every one it sees in every frame) are the
/// shown groups' only.
fn assert_hidden_groups_disabled(app: &mut App) {
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &DrawGroup, Has<Disabled>, Option<&Children>), Allow<Disabled>>(
        );
    let mut under = app
        .world_mut()
        .query_filtered::<Has<Disabled>, Allow<Disabled>>();
    let (mut shown, mut hidden) = (0, 0);
    let mut hidden_entities = Vec::new();
    for (e, g, disabled, children) in q.iter(app.world()) {
        if disabled {
            hidden += 1;
            hidden_entities.push(e);
        } else {
            shown += 1;
        }
        for &c in children.into_iter().flatten() {
            assert_eq!(
                under.get(app.world(), c).unwrap(),
                disabled,
                "stage {} {}: a child not in its group's state",
                g.stage,
                g.kind
            );
        }
    }
    assert!(
        shown > 0 && hidden > 0,
        "{shown} groups shown, {hidden} hidden"
    );
    let mut seen = app.world_mut().query_filtered::<Entity, With<Gizmo>>();
    let seen: Vec<Entity> = seen.iter(app.world()).collect();
    assert!(
        hidden_entities.iter().all(|e| !seen.contains(e)),
        "a hidden group's gizmo is visible to Bevy's queries"
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
    assert_hidden_groups_disabled(&mut app);
    let last = stages - 1;
    app.world_mut().resource_mut::<Timeline>().set_stage(last);
    app.update();
    app.update();
    app.update();
    let (shown, _) = shown_stages(&mut app);
    assert_eq!(shown, vec![last], "only the last stage shows");
    assert_hidden_groups_disabled(&mut app);
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
            kind: r.primitives.get(0).kind.to_string(),
            element: r.primitives.get(0).element,
        })
        .expect("the current stage is drawn");
    let substep = roots.iter(app.world()).find_map(|r| {
        let step = (0..r.substeps.len()).find(|&i| !r.substeps.highlights(i).is_empty())?;
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
    // The sub-step's highlights are made on a worker.
    let shown = until_found(
        &mut app,
        10,
        "the sub-step's highlights are drawn",
        highlight,
    );
    app.world_mut().resource_mut::<Timeline>().substep = None;
    app.update();
    assert_eq!(highlight(&mut app), None, "no sub-step: no highlight");
    app.world_mut().resource_mut::<Timeline>().substep = Some(step);
    let again = until_found(&mut app, 10, "the sub-step is drawn again", highlight);
    assert_ne!(
        again.0, shown.0,
        "coming back to the sub-step draws it again"
    );
}

/// The groups drawn for `stage` that show, and the kinds among them.
fn shown_groups_of(app: &mut App, stage: usize) -> (usize, usize) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&DrawGroup, Has<Disabled>), Allow<Disabled>>();
    let shown: Vec<&DrawGroup> = q
        .iter(app.world())
        .filter(|(g, hidden)| g.stage == stage && !hidden)
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

/// The stages of the drawn voxel level whose groups hold voxel tiles, and
/// one whose groups hold none.
fn voxel_and_plain_stage(app: &mut App) -> (Vec<usize>, usize) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&DrawGroup, Has<VoxelGroup>), Allow<Disabled>>();
    let mut with: Vec<usize> = Vec::new();
    let mut all: Vec<usize> = Vec::new();
    for (g, voxels) in q.iter(app.world()) {
        all.push(g.stage);
        if voxels {
            with.push(g.stage);
        }
    }
    with.sort_unstable();
    with.dedup();
    assert!(!with.is_empty(), "a stage draws voxel tiles");
    let plain = *all
        .iter()
        .find(|s| !with.contains(s))
        .expect("a stage draws no voxel tiles");
    (with, plain)
}

/// The voxel tile meshes that Bevy's queries see (not disabled), and how
/// many of them are full meshes.
fn enabled_tiles(app: &mut App) -> (usize, usize) {
    let mut q = app.world_mut().query::<&TileDetail>();
    let tiles: Vec<&TileDetail> = q.iter(app.world()).collect();
    (tiles.len(), tiles.iter().filter(|t| !t.coarse).count())
}

/// Shows the stage `plain`, which draws no voxels, and checks that no
/// voxel tile shows.
fn show_plain_stage(app: &mut App, plain: usize) {
    app.world_mut().resource_mut::<Timeline>().set_stage(plain);
    app.update();
    app.update();
    assert_eq!(enabled_tiles(app), (0, 0), "stage {plain} shows no tiles");
}

/// The voxel tile meshes that exist at all, hidden or shown.
fn all_tiles(app: &mut App) -> usize {
    let mut q = app
        .world_mut()
        .query_filtered::<(), (With<TileDetail>, Allow<Disabled>)>();
    q.iter(app.world()).count()
}

/// Shows `stage` and runs frames until its voxel tiles are meshed and
/// spawned (off the main thread) and no group is still meshing.
fn show_voxel_stage(app: &mut App, stage: usize) {
    app.world_mut().resource_mut::<Timeline>().set_stage(stage);
    until(app, 60, "the shown voxel stage is meshed", |app| {
        let world = app.world();
        let meshing = world.iter_entities().any(|e| e.contains::<Meshing>());
        let shown_groups = world
            .iter_entities()
            .filter(|e| e.contains::<VoxelGroup>() && !e.contains::<Disabled>())
            .count();
        let meshed = world
            .iter_entities()
            .filter(|e| e.contains::<Meshed>())
            .count();
        !meshing && shown_groups > 0 && meshed == shown_groups
    });
    app.update();
}

/// Every shown tile is drawn where its transform puts it (its corners are
/// fractions of its box: a tile left at the origin draws its voxels in a
/// unit cube there), and the boxes are tile-sized, not unit cubes.
fn assert_tiles_placed(app: &mut App) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&Transform, &GlobalTransform), With<TileDetail>>();
    let mut sized = 0;
    for (local, global) in q.iter(app.world()) {
        let (a, b) = (local.to_matrix(), global.to_matrix());
        assert!(
            a.abs_diff_eq(b, 1e-5),
            "tile drawn at {b:?}, placed at {a:?}"
        );
        sized += usize::from(local.scale.max_element() > 1.5);
    }
    assert!(sized > 0, "some tile spans more than a metre");
}

/// `table_room.obj` built in `voxel` and drawn, with `residency`.
fn drawn_table_room(residency: Residency) -> App {
    let mut app = drawing_headless();
    app.insert_resource(residency);
    app.world_mut().spawn((Camera::default(), MainCamera));
    let level =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/levels/voxel/table_room.obj");
    app.world_mut().write_message(LevelRequest::Open(level));
    app.world_mut()
        .write_message(LevelRequest::Pipeline("voxel".into()));
    until(
        &mut app,
        300,
        "the voxel build of table_room.obj is done",
        |app| {
            let b = app.world().resource::<Build>();
            !b.is_busy()
                && b.published > 0
                && app
                    .world()
                    .resource::<CurrentLevel>()
                    .pipeline
                    .as_ref()
                    .is_some_and(|p| p.id == "voxel")
                && b.runner()
                    .is_some_and(|r| r.result(r.pipeline().stages.len() - 1).is_some())
        },
    );
    app.update();
    app.update();
    app
}

/// A voxel group's tile meshes exist only while it shows: shown, its cubes
/// are meshed into tiles; hidden, the tiles are gone (a million voxels of
/// another stage hold no meshes and cost an idle frame nothing), and the
/// legend's count of shown tiles follows.
#[test]
fn voxel_tiles_are_shown_and_hidden_with_their_group() {
    let mut app = drawn_table_room(Residency::default());
    let (voxel_stages, plain) = voxel_and_plain_stage(&mut app);
    let voxel = voxel_stages[0];

    show_voxel_stage(&mut app, voxel);
    let (tiles, full) = enabled_tiles(&mut app);
    assert!(full > 0, "stage {voxel} shows its voxel tiles");
    assert_eq!(all_tiles(&mut app), tiles, "only the shown stage is meshed");
    assert_eq!(
        app.world().resource::<VoxelDetail>().tiles,
        full,
        "the legend counts the shown tiles ({tiles} meshes)"
    );
    assert_hidden_groups_disabled(&mut app);
    assert_tiles_placed(&mut app);

    show_plain_stage(&mut app, plain);
    assert_eq!(all_tiles(&mut app), 0, "a hidden stage keeps no tiles");
    assert_eq!(app.world().resource::<VoxelDetail>().tiles, 0);
    assert_hidden_groups_disabled(&mut app);

    // Shown again, the same tiles come back, meshed again.
    show_voxel_stage(&mut app, voxel);
    assert_eq!(enabled_tiles(&mut app), (tiles, full));
    assert_tiles_placed(&mut app);

    // Every voxel stage's tiles are drawn where they belong, whichever
    // stage showed when they were spawned.
    for stage in voxel_stages {
        show_voxel_stage(&mut app, stage);
        assert!(enabled_tiles(&mut app).0 > 0, "stage {stage} shows tiles");
        assert_tiles_placed(&mut app);
    }
}

/// Per stage: its primitives, its indexed primitives and its voxel boxes.
fn held(app: &mut App) -> std::collections::BTreeMap<usize, (usize, usize, usize, bool)> {
    use navscope::model::elements::{StageGeometry, StageRoot};
    use navscope::model::index::ElementIndex;
    let mut out = std::collections::BTreeMap::new();
    let mut roots = app.world_mut().query::<(
        Entity,
        &StageRoot,
        &StageGeometry,
        &ElementIndex,
        Has<Evicted>,
    )>();
    let roots: Vec<_> = roots
        .iter(app.world())
        .map(|(e, r, g, i, ev)| (e, r.stage, g.primitives.len(), i.primitives().len(), ev))
        .collect();
    let mut groups = app
        .world_mut()
        .query_filtered::<(&VoxelCubes, &ChildOf), Allow<Disabled>>();
    for (e, stage, prims, indexed, evicted) in roots {
        let cubes = groups
            .iter(app.world())
            .filter(|(_, p)| p.parent() == e)
            .map(|(c, _)| c.0.len())
            .sum();
        out.insert(stage, (prims, indexed, cubes, evicted));
    }
    out
}

/// The voxel boxes the shown voxel groups hold.
fn shown_boxes(app: &mut App) -> usize {
    let mut q = app.world_mut().query::<&VoxelCubes>();
    q.iter(app.world()).map(|c| c.0.len()).sum()
}

/// A big stage out of sight lets its primitives, index and voxel boxes go
/// and gets them back, the same, when it shows again: its voxels are
/// meshed again and its elements can be picked.
#[test]
fn a_hidden_stage_lets_its_data_go_and_gets_it_back_when_shown() {
    let mut app = drawn_table_room(Residency {
        after: std::time::Duration::from_secs(3600),
        min_primitives: 0,
    });
    let before = held(&mut app);
    let (voxel_stages, _) = voxel_and_plain_stage(&mut app);
    let current = app.world().resource::<Timeline>().current;
    assert!(before.contains_key(&current), "stage {current} shows");
    assert!(before.values().all(|&(p, i, _, ev)| p > 0 && p == i && !ev));
    // Out of sight for longer than the delay now: every hidden stage goes.
    app.insert_resource(Residency {
        after: std::time::Duration::ZERO,
        min_primitives: 0,
    });
    until(&mut app, 60, "the hidden stages are evicted", |app| {
        app.world()
            .iter_entities()
            .filter(|e| e.contains::<Evicted>())
            .count()
            == before.len() - 1
    });
    for (stage, (prims, indexed, cubes, evicted)) in held(&mut app) {
        if stage == current {
            // Its shown voxels' boxes may have gone into their tiles.
            let (p, i, _, ev) = before[&stage];
            assert_eq!(
                (prims, indexed, evicted),
                (p, i, ev),
                "the shown stage keeps everything"
            );
        } else {
            assert_eq!(
                (prims, indexed, cubes, evicted),
                (0, 0, 0, true),
                "stage {stage}"
            );
        }
    }
    // Shown again, each voxel stage gets back what it had and is meshed;
    // while it is on its way the view's note counts it.
    for &stage in &voxel_stages {
        app.world_mut().resource_mut::<Timeline>().set_stage(stage);
        app.update();
        let on_its_way = held(&mut app)[&stage].3;
        assert_eq!(
            app.world().resource::<RestoringStages>().0,
            usize::from(on_its_way),
            "stage {stage} is counted while it is being restored"
        );
        show_voxel_stage(&mut app, stage);
        assert_eq!(app.world().resource::<RestoringStages>().0, 0);
        // Its boxes came back; the shown groups' were meshed, and then
        // went: a stage that can be evicted keeps its voxels in its tiles
        // only (its groups of other sub-steps keep theirs).
        until_found(&mut app, 60, "the shown groups' boxes go", |app| {
            (shown_boxes(app) == 0).then_some(())
        });
        let (prims, indexed, boxes, _) = before[&stage];
        let now = held(&mut app)[&stage];
        assert_eq!(
            (now.0, now.1, now.3),
            (prims, indexed, false),
            "stage {stage} is back whole"
        );
        assert!(now.2 < boxes, "stage {stage}: {} of {boxes} boxes", now.2);
        assert!(enabled_tiles(&mut app).0 > 0, "stage {stage} shows tiles");
        assert_tiles_placed(&mut app);
    }
}

/// A big voxel stage keeps its voxels in its tiles only: once meshed its
/// boxes go; hidden, it keeps its tiles (scrubbing back shows them without
/// meshing again) until it is evicted, which takes them; shown again, it
/// is restored and meshed into as many tiles as before.
#[test]
fn a_big_voxel_stage_keeps_its_voxels_in_its_tiles_until_evicted() {
    let mut app = drawn_table_room(Residency {
        after: std::time::Duration::from_secs(3600),
        min_primitives: 0,
    });
    let (voxel_stages, plain) = voxel_and_plain_stage(&mut app);
    let voxel = voxel_stages[0];
    show_voxel_stage(&mut app, voxel);
    until_found(&mut app, 60, "the meshed stage's boxes go", |app| {
        (shown_boxes(app) == 0).then_some(())
    });
    let shown = enabled_tiles(&mut app);
    assert!(shown.0 > 0, "stage {voxel} shows its tiles");
    let tiles = all_tiles(&mut app);

    // Hidden within the delay: its tiles stay, disabled.
    show_plain_stage(&mut app, plain);
    assert_eq!(
        all_tiles(&mut app),
        tiles,
        "the hidden stage keeps its tiles"
    );

    // Back: the same tiles show, with nothing to mesh.
    app.world_mut().resource_mut::<Timeline>().set_stage(voxel);
    app.update();
    app.update();
    assert_eq!(enabled_tiles(&mut app), shown);
    assert!(
        !app.world().iter_entities().any(|e| e.contains::<Meshing>()),
        "nothing is meshed again"
    );

    // Hidden past the delay: evicted, its tiles go with the rest.
    app.insert_resource(Residency {
        after: std::time::Duration::ZERO,
        min_primitives: 0,
    });
    app.world_mut().resource_mut::<Timeline>().set_stage(plain);
    until_found(&mut app, 60, "the voxel stage is evicted", |app| {
        held(app)[&voxel].3.then_some(())
    });
    app.update();
    assert_eq!(all_tiles(&mut app), 0, "an evicted stage keeps no tiles");

    // Shown again: restored, meshed into as many tiles, boxes let go.
    show_voxel_stage(&mut app, voxel);
    assert_eq!(enabled_tiles(&mut app), shown);
    assert_eq!(all_tiles(&mut app), tiles);
    until_found(&mut app, 60, "the boxes go again", |app| {
        (shown_boxes(app) == 0).then_some(())
    });
    assert_tiles_placed(&mut app);
}
