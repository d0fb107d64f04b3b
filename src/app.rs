//! Assembling the app; the plugin lists below are its table of contents.
//! [`add_core`] adds what needs no renderer (the level, the build, the
//! timeline, parameters and history, the probe's search, the legend and
//! filters, the tools), which tests run under `MinimalPlugins`;
//! [`windowed`] adds the renderer, egui, the orbit camera, the scene and its
//! drawing, picking and the click tools, the probe's drawing, and the user
//! interface.

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::{EguiGlobalSettings, EguiPlugin};
use bevy_panorbit_camera::PanOrbitCameraPlugin;

use crate::build::StagesPlugin;
use crate::build::session::SessionPlugin;
use crate::build::timeline::TimelinePlugin;
use crate::cli::Args;
use crate::dev::DevPlugin;
use crate::edit::history::HistoryPlugin;
use crate::edit::params::ParamsPlugin;
use crate::interact::InteractPlugin;
use crate::interact::tool::ToolPlugin;
use crate::level::LevelRequest;
use crate::level::LevelsPlugin;
use crate::level::Settings;
use crate::level::budget::MemoryLimit;
use crate::model::band::HeightBand;
use crate::model::band::ViewFilter;
use crate::model::timeline::Timeline;
use crate::probe::ProbePlugin;
use crate::probe::answer::ProbeAnswerPlugin;
use crate::probe::draw::ProbeDrawPlugin;
use crate::ui::dialogs::DialogsPlugin;
use crate::ui::export::ExportPlugin;
use crate::ui::frames::FramesPlugin;
use crate::ui::panels::PanelsPlugin;
use crate::view::draw::DrawPlugin;
use crate::view::draw::LegendPlugin;
use crate::view::filter::FilterPlugin;
use crate::view::scene::ScenePlugin;

/// Adds the plugins that need no renderer.
pub fn add_core(app: &mut App, levels: LevelsPlugin) {
    app.add_plugins((
        levels,
        StagesPlugin,
        TimelinePlugin,
        ParamsPlugin,
        ProbePlugin,
        LegendPlugin,
        FilterPlugin,
        HistoryPlugin,
        ToolPlugin,
        crate::compare::ComparePlugin,
        crate::why::WhyPlugin,
    ));
}

/// The app without a window: `MinimalPlugins` and the core plugins.
pub fn headless() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    add_core(&mut app, LevelsPlugin::ephemeral());
    app
}

/// [`headless`] plus the drawing of the published stages, still without a
/// window or a renderer: the asset stores and gizmos it fills, transforms,
/// the retained stage drawing ([`DrawPlugin`]) and the CPU clock
/// ([`crate::dev::cpu::CpuPlugin`]). `benches/app_frames.rs` drives it to
/// time the app's own work per frame where no renderer (and no software
/// rasteriser sharing the cores) can inflate it; the egui panels and the
/// extraction into the render world are the parts of a frame it leaves
/// out. The bench adds [`crate::dev::extraction_stand_in`], so that its
/// memory is the main world's as with a renderer; tests that read the
/// drawing's meshes leave it out.
pub fn drawing_headless() -> App {
    let mut app = headless();
    app.add_plugins((
        bevy::asset::AssetPlugin::default(),
        bevy::transform::TransformPlugin,
        bevy::gizmos::GizmoPlugin,
    ))
    .init_asset::<Mesh>()
    .init_asset::<StandardMaterial>()
    // The gizmo plugin's skinned-mesh bounds read this store.
    .init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>()
    .add_plugins((DrawPlugin, crate::dev::cpu::CpuPlugin));
    app
}

/// Queues what the command line asked for: the level, the pipeline, the
/// stage, the probe's points.
pub fn apply_args(app: &mut App, args: &Args) {
    if let Some(level) = &args.level {
        app.world_mut()
            .write_message(LevelRequest::Open(level.clone()));
    }
    if let Some(p) = &args.pipeline {
        app.world_mut()
            .write_message(LevelRequest::Pipeline(p.clone()));
    }
    if let Some(stage) = &args.stage {
        app.world_mut().resource_mut::<Timeline>().requested = Some(stage.clone());
    }
    if let Some(b) = args.budget {
        app.world_mut().insert_resource(MemoryLimit(b));
    }
    if let Some((lo, hi)) = args.slice {
        app.world_mut().resource_mut::<ViewFilter>().prepare.slice = Some(HeightBand::new(lo, hi));
    }
    let mut probe = app.world_mut().resource_mut::<crate::probe::Probe>();
    if let Some(p) = args.from {
        probe.set_start(p);
    }
    if let Some(p) = args.to {
        probe.set_goal(p);
    }
}

/// The side of the shadow maps: navscope's lights cast no shadows.
const NO_SHADOWS: usize = 1;

/// The desktop app.
pub fn windowed(args: &Args) -> App {
    let mut app = App::new();
    let window = Window {
        title: "navscope".into(),
        resolution: WindowResolution::new(1600, 1000),
        ..default()
    };
    let mut defaults = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(window),
            ..default()
        })
        .build();
    let dev = DevPlugin::new(args);
    if dev.clocks_frames() {
        // The CPU clock times the main schedules on the main thread. With
        // pipelined rendering the render world runs beside them, and the
        // main thread, while it waits in a parallel system's scope, runs
        // render tasks too (buffer uploads, render passes): the renderer's
        // work counted as the app's. Rendering after the main schedules, on
        // the same thread and outside the clock, keeps the figure the app's.
        defaults =
            defaults.disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>();
    }
    app.add_plugins(defaults)
        .add_plugins(EguiPlugin::default())
        .insert_resource(EguiGlobalSettings {
            auto_create_primary_context: false,
            ..default()
        })
        .add_plugins(PanOrbitCameraPlugin)
        // No light casts shadows, but Bevy allocates the shadow map
        // textures anyway (a 1024² cube and a 2048² layer, 40 MB of GPU
        // memory, host memory under a software renderer): the smallest
        // sizes Bevy takes.
        .insert_resource(bevy::light::DirectionalLightShadowMap { size: NO_SHADOWS })
        .insert_resource(bevy::light::PointLightShadowMap { size: NO_SHADOWS });
    let levels = if dev.runs_unattended() {
        LevelsPlugin::ephemeral()
    } else {
        LevelsPlugin::persistent()
    };
    let persistent = levels.is_persistent();
    add_core(&mut app, levels);
    if persistent {
        app.add_plugins(SessionPlugin);
        // The last level comes back when none is given.
        if args.level.is_none()
            && let Some(last) = app.world().resource::<Settings>().recent.first().cloned()
            && last.is_file()
        {
            app.world_mut().write_message(LevelRequest::Open(last));
        }
    }
    app.add_plugins((
        ScenePlugin,
        InteractPlugin,
        DrawPlugin,
        ProbeDrawPlugin,
        ProbeAnswerPlugin,
        crate::why::draw::WhyDrawPlugin,
        crate::compare::draw::CompareDrawPlugin,
        crate::view::navmesh_overlay::NavMeshOverlayPlugin,
        PanelsPlugin,
        DialogsPlugin,
        ExportPlugin,
        FramesPlugin,
    ));
    if !dev.runs_unattended() {
        app.add_plugins(crate::ui::pacing::PacingPlugin);
    }
    app.add_plugins(dev);
    apply_args(&mut app, args);
    app
}
