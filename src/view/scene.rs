//! The 3D scene: the level (drawn by [`super::level_drawing`]), the camera,
//! the ground grid and axes, and the level surface that clicks land on.
//!
//! The orbit camera frames the level when it loads
//! and on F; T toggles a top-down orthographic view, the default for levels
//! on the ground plane. [`hit`] turns a ray from the cursor into a point on
//! the level (the interaction module decides what a click does).

use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, ScalingMode};
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::render::renderer::RenderAdapterInfo;
use bevy::window::PrimaryWindow;
use bevy_egui::PrimaryEguiContext;
use bevy_panorbit_camera::PanOrbitCamera;
use navscope_core::level::LevelData;
use std::collections::BTreeSet;

use crate::level::CurrentLevel;
use crate::model::band::HeightBand;
use crate::model::band::ViewFilter;

use crate::model::extent::is_flat;
use crate::model::timeline::UiFocus;
use crate::view::level_drawing::level_drawing;

/// Window background.
pub const BACKGROUND: Color = Color::srgb(0.78, 0.80, 0.84);

/// The view's state.
#[derive(Resource, Debug, Clone)]
pub struct ViewSettings {
    /// Top-down orthographic view.
    pub top_down: bool,
    /// Show the ground grid and axes.
    pub grid: bool,
    /// Frame the level at the next opportunity.
    pub frame_request: bool,
    /// Jump the camera instead of gliding (screenshots).
    pub instant: bool,
    /// Draw the final NavMesh over every stage
    /// ([`crate::view::navmesh_overlay`]).
    pub navmesh: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            top_down: true,
            grid: true,
            frame_request: true,
            instant: false,
            navmesh: true,
        }
    }
}

/// The level's surface triangles, for turning clicks into points.
#[derive(Resource, Debug, Default)]
pub struct Surface {
    /// World-space triangles.
    pub triangles: Vec<[Vec3; 3]>,
}

/// Marks the main 3D camera.
#[derive(Component)]
pub struct MainCamera;

#[derive(Component)]
struct LevelVisual;

/// The scene: camera, light, level drawing, grid, clicks.
pub struct ScenePlugin;

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ViewSettings>()
            .init_resource::<Surface>()
            .insert_resource(ClearColor(BACKGROUND))
            .add_systems(Startup, setup)
            .add_systems(PostStartup, multisampling_for_adapter)
            .add_systems(
                Update,
                (rebuild_level, keys, apply_view, draw_grid)
                    .chain()
                    .in_set(SceneSystems),
            );
    }
}

/// The scene's systems (the level drawing, the camera); the interaction
/// systems run after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct SceneSystems;

fn setup(mut commands: Commands, mut store: ResMut<GizmoConfigStore>) {
    // egui draws through its own camera over the whole window, so narrowing
    // the 3D camera's viewport to the space between the panels does not
    // shrink the panels' screen.
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        Msaa::Off,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
    commands.spawn((
        MainCamera,
        Camera3d::default(),
        // Colours as the style table says them: no filmic tone mapping.
        Tonemapping::None,
        Projection::Orthographic(OrthographicProjection::default_3d()),
        PanOrbitCamera {
            pitch_upper_limit: Some(std::f32::consts::FRAC_PI_2),
            ..default()
        },
        Transform::from_xyz(0.0, 20.0, 0.01).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2500.0,
            ..default()
        },
        Transform::from_xyz(3.0, 10.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    let (default, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    default.line.width = 3.0;
    default.depth_bias = -1.0;
}

/// Multisampling costs a software rasteriser (llvmpipe under Xvfb) about a
/// third of its frame time, so it is switched off there and kept on GPUs.
fn multisampling_for_adapter(
    info: Option<Res<RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa, With<MainCamera>>,
) {
    // wgpu's `DeviceType` is not re-exported by Bevy; its Debug name is stable.
    let software = info.is_some_and(|i| format!("{:?}", i.device_type) == "Cpu");
    for mut msaa in &mut cameras {
        *msaa = if software { Msaa::Off } else { Msaa::Sample4 };
    }
}

#[allow(clippy::too_many_arguments)]
fn rebuild_level(
    mut commands: Commands,
    current: Res<CurrentLevel>,
    mut seen: Local<u64>,
    old: Query<Entity, With<LevelVisual>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    mut gizmo_assets: ResMut<Assets<GizmoAsset>>,
    mut view: ResMut<ViewSettings>,
    mut surface: ResMut<Surface>,
    filter: Res<ViewFilter>,
    mut filtered: Local<(Option<HeightBand>, BTreeSet<u32>)>,
    mut shown_path: Local<Option<std::path::PathBuf>>,
) {
    let slice = filter.prepare.slice;
    let filter_same = filtered.0 == slice && filtered.1 == filter.hidden_layers;
    if *seen == current.revision && filter_same {
        return;
    }
    let refilter_only = *seen == current.revision;
    let first_time = *seen == 0;
    // A reload of the file on screen keeps the camera; another file (or
    // the embedded level after a file) is framed.
    let same_file =
        refilter_only || (!first_time && current.path.is_some() && *shown_path == current.path);
    *shown_path = current.path.clone();
    *seen = current.revision;
    *filtered = (slice, filter.hidden_layers.clone());
    for e in &old {
        commands.entity(e).despawn();
    }
    let level = &current.level;
    let mut d = level_drawing(level, &filter.hidden_layers);
    if let Some(band) = slice {
        d.slice(&band);
    }
    surface.triangles = d.fill.iter().map(|(t, _)| *t).collect();
    if !d.fill.is_empty() {
        let material = StandardMaterial {
            base_color: Color::WHITE,
            unlit: !d.lit,
            cull_mode: d
                .one_sided
                .then_some(bevy::render::render_resource::Face::Back),
            // Surfaces drawn from both sides are lit on the side the
            // camera sees.
            double_sided: !d.one_sided,
            alpha_mode: if d.fill.iter().any(|(_, c)| c[3] < 1.0) {
                AlphaMode::Blend
            } else {
                AlphaMode::Opaque
            },
            perceptual_roughness: 0.9,
            ..default()
        };
        let mesh = crate::model::drawable::triangle_mesh(&d.fill, d.lit);
        commands.spawn((
            LevelVisual,
            // Its culling box: Bevy cannot compute one from a mesh kept
            // only in the render world.
            bevy::camera::primitives::MeshAabb::compute_aabb(&mesh).unwrap_or_default(),
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(materials.add(material)),
            Transform::default(),
        ));
    }
    if let LevelData::Raster(r) = &level.data
        && r.rgba.len() == (r.width as usize) * (r.height as usize) * 4
        && r.width > 0
        && r.height > 0
    {
        let image = Image::new(
            Extent3d {
                width: r.width,
                height: r.height,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            r.rgba.clone(),
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        );
        let (w, h) = (
            r.width as f32 * r.metres_per_pixel as f32,
            r.height as f32 * r.metres_per_pixel as f32,
        );
        let quad = Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::RENDER_WORLD,
        )
        .with_inserted_attribute(
            Mesh::ATTRIBUTE_POSITION,
            vec![
                [0.0, 0.0, 0.0],
                [w, 0.0, 0.0],
                [w, 0.0, h],
                [0.0, 0.0, 0.0],
                [w, 0.0, h],
                [0.0, 0.0, h],
            ],
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 1.0, 0.0]; 6])
        .with_inserted_attribute(
            Mesh::ATTRIBUTE_UV_0,
            vec![
                [0.0, 0.0],
                [1.0, 0.0],
                [1.0, 1.0],
                [0.0, 0.0],
                [1.0, 1.0],
                [0.0, 1.0],
            ],
        );
        let material = StandardMaterial {
            base_color_texture: Some(images.add(image)),
            unlit: true,
            cull_mode: None,
            ..default()
        };
        commands.spawn((
            LevelVisual,
            bevy::camera::primitives::MeshAabb::compute_aabb(&quad).unwrap_or_default(),
            Mesh3d(meshes.add(quad)),
            MeshMaterial3d(materials.add(material)),
            Transform::default(),
        ));
        surface.triangles = vec![
            [Vec3::ZERO, Vec3::new(w, 0.0, 0.0), Vec3::new(w, 0.0, h)],
            [Vec3::ZERO, Vec3::new(w, 0.0, h), Vec3::new(0.0, 0.0, h)],
        ];
    }
    if !d.lines.is_empty() {
        let mut asset = GizmoAsset::new();
        for (a, b, c) in &d.lines {
            asset.line(*a, *b, Color::srgba(c[0], c[1], c[2], c[3]));
        }
        commands.spawn((
            LevelVisual,
            Gizmo {
                handle: gizmo_assets.add(asset),
                line_config: GizmoLineConfig {
                    width: 2.5,
                    ..default()
                },
                depth_bias: -0.5,
            },
            Transform::default(),
        ));
    }
    // A reload of the same file keeps the user's camera.
    if !same_file || first_time {
        view.top_down = is_flat(level);
        view.frame_request = true;
    }
}

fn keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut view: ResMut<ViewSettings>,
) {
    let Some(keys) = keys else { return };
    if focus.keyboard {
        return;
    }
    if keys.just_pressed(KeyCode::KeyF) {
        view.frame_request = true;
    }
    if keys.just_pressed(KeyCode::KeyT) {
        view.top_down = !view.top_down;
        view.frame_request = true;
    }
    if keys.just_pressed(KeyCode::KeyG) {
        view.grid = !view.grid;
    }
}

fn apply_view(
    mut view: ResMut<ViewSettings>,
    current: Res<CurrentLevel>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&Camera, &mut PanOrbitCamera, &mut Projection), With<MainCamera>>,
) {
    if !view.frame_request {
        return;
    }
    let Ok((camera, mut orbit, mut projection)) = cameras.single_mut() else {
        return;
    };
    let size = camera
        .logical_viewport_size()
        .or_else(|| {
            windows
                .single()
                .ok()
                .map(|w| Vec2::new(w.width(), w.height()))
        })
        .unwrap_or(Vec2::new(1280.0, 720.0));
    if size.x < 1.0 || size.y < 1.0 {
        return;
    }
    view.frame_request = false;
    let (lo, hi) = current.bounds();
    let centre = (lo + hi) / 2.0;
    let ext = hi - lo;
    let diag = ext.length().max(1.0);
    let (yaw, pitch, radius);
    if view.top_down {
        let ortho_far = (diag * 4.0).max(1000.0);
        *projection = Projection::Orthographic(OrthographicProjection {
            far: ortho_far,
            scaling_mode: ScalingMode::WindowSize,
            ..OrthographicProjection::default_3d()
        });
        yaw = 0.0;
        pitch = std::f32::consts::FRAC_PI_2;
        radius = (ext.x / size.x).max(ext.z / size.y).max(1e-4) * 1.12;
        orbit.button_orbit = MouseButton::Middle;
        orbit.button_pan = MouseButton::Right;
    } else {
        *projection = Projection::Perspective(PerspectiveProjection {
            far: (diag * 20.0).max(1000.0),
            ..default()
        });
        yaw = 0.5;
        pitch = 0.75;
        radius = diag * 1.45;
        orbit.button_orbit = MouseButton::Left;
        orbit.button_pan = MouseButton::Right;
    }
    orbit.target_focus = centre;
    orbit.target_yaw = yaw;
    orbit.target_pitch = pitch;
    orbit.target_radius = radius;
    orbit.zoom_lower_limit = if view.top_down { 1e-5 } else { diag * 0.01 };
    if view.instant || orbit.radius.is_none() {
        orbit.focus = centre;
        orbit.yaw = Some(yaw);
        orbit.pitch = Some(pitch);
        orbit.radius = Some(radius);
    }
    orbit.force_update = true;
}

/// The ground grid and the axis cross: one retained gizmo, rebuilt only when
/// the level changes (drawn as immediate gizmos it cost the main thread a
/// colour conversion per line segment every frame: a third of an idle
/// frame's CPU on a 60 m level).
#[derive(Component)]
struct GroundGrid;

/// The render layers of the ground grid shown or hidden (its toggle;
/// retained gizmos ignore [`Visibility`]).
fn render_layers(shown: bool) -> RenderLayers {
    if shown {
        RenderLayers::layer(0)
    } else {
        RenderLayers::none()
    }
}

fn draw_grid(
    mut commands: Commands,
    view: Res<ViewSettings>,
    current: Res<CurrentLevel>,
    mut gizmo_assets: ResMut<Assets<GizmoAsset>>,
    mut grid: Query<(Entity, &mut RenderLayers), With<GroundGrid>>,
    mut seen: Local<Option<u64>>,
) {
    let shown = render_layers(view.grid);
    if *seen != Some(current.revision) {
        *seen = Some(current.revision);
        for (e, _) in &grid {
            commands.entity(e).despawn();
        }
        commands.spawn((
            GroundGrid,
            Gizmo {
                handle: gizmo_assets.add(ground_grid(current.bounds())),
                line_config: GizmoLineConfig {
                    width: 1.0,
                    ..default()
                },
                depth_bias: 0.0,
            },
            Transform::default(),
            shown,
        ));
        return;
    }
    if view.is_changed() {
        for (_, mut layers) in &mut grid {
            layers.set_if_neq(shown.clone());
        }
    }
}

/// The grid under a level of bounds `(lo, hi)`: lines a power of ten
/// apart, about ten across the level, over 1.6 times its extent, just below
/// its lowest point; and the axes at the origin, X red, Y green, Z blue.
fn ground_grid((lo, hi): (Vec3, Vec3)) -> GizmoAsset {
    let ext = (hi - lo).max_element().max(1.0);
    let spacing = 10f32.powf((ext / 10.0).log10().floor());
    let centre = ((lo + hi) / 2.0 / spacing).round() * spacing;
    let cells = ((ext * 1.6 / spacing).ceil() as u32).clamp(2, 400);
    let y = lo.y.min(0.0) - ext * 0.001;
    let mut asset = GizmoAsset::new();
    asset.grid(
        Isometry3d::new(
            Vec3::new(centre.x, y, centre.z),
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        ),
        UVec2::splat(cells),
        Vec2::splat(spacing),
        Color::srgba(0.3, 0.32, 0.36, 0.35),
    );
    let o = Vec3::new(0.0, y, 0.0);
    for (axis, colour) in [
        (Vec3::X, Color::srgb(0.85, 0.15, 0.15)),
        (Vec3::Y, Color::srgb(0.15, 0.7, 0.15)),
        (Vec3::Z, Color::srgb(0.15, 0.3, 0.9)),
    ] {
        asset.line(o, o + axis * spacing * 2.0, colour);
    }
    asset
}
