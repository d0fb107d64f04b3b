//! Drawing the probe's search in the scene: Polyanya's search nodes (root
//! and interval) and A*'s expansions coloured by f, A*'s open and closed
//! sets and node path (dashed), waypoints by stance; after a failed search,
//! the region reached from the start and the region that reaches the goal
//! (polygon outlines in two colours; the gap between them is painted over
//! the view by the panels); each a legend row with a toggle
//! ([`ProbeLayers`]).

use crate::build::StageSystems;
use crate::probe::Probe;
use crate::probe::ProbeOutcome;
use bevy::prelude::*;
use navscope_core::{NavMesh, Stance};
use navscope_path::PathResult;
use navscope_path::polyanya::StepKind;

/// The colour of a stance's waypoint marker.
pub fn stance_color(s: Stance) -> Color {
    match s {
        Stance::Stand => Color::srgb(0.95, 0.95, 0.95),
        Stance::Crouch => Color::srgb(1.0, 0.85, 0.1),
        Stance::Prone => Color::srgb(1.0, 0.5, 0.1),
        Stance::Swim => Color::srgb(0.2, 0.5, 1.0),
        Stance::Sidestep => Color::srgb(0.7, 0.3, 0.9),
    }
}

/// What of the probe is drawn; each is a row with a toggle in the probe
/// panel's legend.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct ProbeLayers {
    /// The path (thick orange, over everything).
    pub path: bool,
    /// A*'s path beside Polyanya's, with the method both (magenta).
    pub astar_path: bool,
    /// The node path the search chose (thin dashed blue).
    pub corridor: bool,
    /// The search steps in order, coloured by f: Polyanya's roots (dots)
    /// and intervals (lines), A*'s nodes (dots and tree edges).
    pub expansions: bool,
    /// The final open (rings) and closed (crosses) sets.
    pub sets: bool,
    /// After a failed search: the two regions it could not join.
    pub regions: bool,
    /// After a failed search: the gap between the regions, with its label.
    pub gap: bool,
}

impl Default for ProbeLayers {
    fn default() -> Self {
        Self {
            path: true,
            astar_path: true,
            corridor: true,
            expansions: true,
            sets: false,
            regions: true,
            gap: true,
        }
    }
}

/// Colour of the start marker (sRGB).
pub const START_COLOR: [u8; 3] = [30, 215, 60];

/// Colour of the goal marker (sRGB).
pub const GOAL_COLOR: [u8; 3] = [230, 30, 30];

/// Colour of the smoothed path (sRGB).
pub const PATH_COLOR: [u8; 3] = [255, 140, 0];

/// Colour of A*'s path drawn beside Polyanya's (sRGB).
pub const ASTAR_PATH_COLOR: [u8; 3] = [220, 40, 170];

/// Colour of the node path.
pub const CORRIDOR_COLOR: [u8; 3] = [40, 70, 200];

/// Colour of the region reached from the start of a failed search (sRGB;
/// the failure's three colours are far from every style-table colour, the
/// links' included).
pub const REACHED_COLOR: [u8; 3] = [0, 255, 160];

/// Colour of the region that reaches the goal of a failed search (sRGB).
pub const REACHES_GOAL_COLOR: [u8; 3] = [255, 110, 255];

/// Colour of the gap between the two regions (sRGB).
pub const GAP_COLOR: [u8; 3] = [170, 255, 0];

/// The colour of an expansion with `f` between `fmin` and `fmax`: blue
/// (first, low f) to violet-red (last, high f).
pub fn expansion_color(f: f64, fmin: f64, fmax: f64) -> Color {
    let t = if fmax > fmin {
        ((f - fmin) / (fmax - fmin)) as f32
    } else {
        0.0
    };
    Color::srgb(0.2 + 0.6 * t, 0.45 * (1.0 - t) + 0.1, 0.95 - 0.5 * t)
}

/// Draws the probe's search in the scene (needs the renderer's gizmos) as
/// one retained gizmo, made again only when the search, the number of
/// expansions shown or the layers change; the markers and the smoothed path
/// are drawn over the scene by the panels.
pub struct ProbeDrawPlugin;

impl Plugin for ProbeDrawPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ProbeLayers>()
            .add_systems(Update, (draw_probe, draw_islands).after(StageSystems));
    }
}

/// Marks the retained drawing of the probe's search.
#[derive(Component)]
struct ProbeVisual;

#[allow(clippy::too_many_arguments)]
fn draw_probe(
    mut commands: Commands,
    probe: Res<Probe>,
    layers: Res<ProbeLayers>,
    current: Res<crate::level::CurrentLevel>,
    old: Query<Entity, With<ProbeVisual>>,
    mut assets: ResMut<Assets<GizmoAsset>>,
    mut drawn: Local<Option<(u64, usize, u64)>>,
) {
    let key = (probe.revision, probe.shown as usize, current.revision);
    if drawn.is_some_and(|d| d == key) && !layers.is_changed() {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let unit = current.extent();
    if let (Some(failure), Some(mesh), true) = (&probe.failure, probe.mesh(), layers.regions) {
        let mut gizmos = GizmoAsset::new();
        let lift = Vec3::Y * unit * 0.003;
        for (nodes, c) in [
            (&failure.reached, REACHED_COLOR),
            (&failure.reaches_goal, REACHES_GOAL_COLOR),
        ] {
            let [r, g, b] = c;
            draw_region(&mut gizmos, mesh, nodes, lift, Color::srgb_u8(r, g, b));
        }
        spawn(&mut commands, &mut assets, gizmos, ProbeVisual);
        return;
    }
    let (Some(outcome @ ProbeOutcome::Searched { polyanya, astar }), Some(mesh)) =
        (&probe.outcome, probe.mesh())
    else {
        return;
    };
    let mut gizmos = GizmoAsset::new();
    let r = unit * 0.004;
    let lift = Vec3::Y * unit * 0.002;
    if let Some(p) = polyanya.as_ref().filter(|_| layers.expansions) {
        let (fmin, fmax) = f_range(p.trace.iter().map(|t| t.f));
        let shown = (probe.shown as usize).min(p.trace.len());
        for t in &p.trace[..shown] {
            let c = expansion_color(t.f, fmin, fmax).with_alpha(0.55);
            let root = t.root.as_vec3() + lift;
            gizmos.sphere(Isometry3d::from_translation(root), r, c);
            if t.kind == StepKind::Interval {
                gizmos.line(t.left.as_vec3() + lift, t.right.as_vec3() + lift, c);
            }
        }
    }
    if let Some(a) = astar {
        draw_astar(&mut gizmos, probe.shown, &a.result, &layers, mesh, unit);
    }
    if let Some((_, waypoints)) = outcome.path() {
        for w in waypoints {
            gizmos.sphere(
                Isometry3d::from_translation(w.position.as_vec3() + lift * 2.0),
                r * 1.5,
                stance_color(w.stance),
            );
        }
    }
    spawn(&mut commands, &mut assets, gizmos, ProbeVisual);
}

/// Marks the retained drawing of the island view.
#[derive(Component)]
struct IslandVisual;

/// Draws the island view: each island's polygons in its colour
/// ([`crate::probe::islands::island_color`]), the selected one and the
/// largest lifted above the rest.
fn draw_islands(
    mut commands: Commands,
    probe: Res<Probe>,
    view: Res<crate::probe::islands::IslandView>,
    current: Res<crate::level::CurrentLevel>,
    old: Query<Entity, With<IslandVisual>>,
    mut assets: ResMut<Assets<GizmoAsset>>,
    mut drawn: Local<Option<(u64, u64)>>,
) {
    let key = (view.revision, current.revision);
    if *drawn == Some(key) {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(mesh) = probe.mesh().filter(|_| !view.parts.is_empty()) else {
        return;
    };
    let mut gizmos = GizmoAsset::new();
    let lift = Vec3::Y * current.extent() * 0.003;
    for (i, part) in view.parts.iter().enumerate() {
        let [r, g, b] = crate::probe::islands::island_color(i);
        let raised = if i == 0 || Some(i) == view.selected {
            2.0
        } else {
            1.0
        };
        draw_region(
            &mut gizmos,
            mesh,
            &part.nodes,
            lift * raised,
            Color::srgb_u8(r, g, b),
        );
    }
    spawn(&mut commands, &mut assets, gizmos, IslandVisual);
}

/// Spawns `gizmos` as a retained drawing tagged `marker` (the probe's or
/// the island view's, which despawn their own before drawing again).
fn spawn(
    commands: &mut Commands,
    assets: &mut Assets<GizmoAsset>,
    gizmos: GizmoAsset,
    marker: impl Component,
) {
    commands.spawn((
        marker,
        Gizmo {
            handle: assets.add(gizmos),
            line_config: GizmoLineConfig {
                width: 3.0,
                ..default()
            },
            depth_bias: -1.0,
        },
        Transform::default(),
    ));
}

/// The outlines of `nodes` (a dot for a point node), lifted by `lift`,
/// each polygon with spokes from its centre to its corners so a region
/// reads as filled from afar.
fn draw_region(gizmos: &mut GizmoAsset, mesh: &NavMesh, nodes: &[u32], lift: Vec3, c: Color) {
    for node in nodes.iter().filter_map(|n| mesh.nodes.get(*n as usize)) {
        let pts: Vec<Vec3> = crate::probe::failure::outline(node)
            .iter()
            .map(|p| p.as_vec3() + lift)
            .collect();
        let centre = node.position.as_vec3() + lift;
        if pts.len() < 2 {
            gizmos.sphere(Isometry3d::from_translation(centre), 0.1, c);
            continue;
        }
        gizmos.linestrip(pts.iter().copied().chain(pts.first().copied()), c);
        for p in &pts {
            gizmos.line(centre, *p, c.with_alpha(0.5));
        }
    }
}

/// The smallest and largest of `fs`.
fn f_range(fs: impl Iterator<Item = f64>) -> (f64, f64) {
    fs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), f| {
        (a.min(f), b.max(f))
    })
}

/// A*'s part: its first `shown` expansions, its open and closed sets once
/// all are shown, and its node path.
fn draw_astar(
    gizmos: &mut GizmoAsset,
    shown: f32,
    result: &PathResult,
    layers: &ProbeLayers,
    mesh: &NavMesh,
    unit: f32,
) {
    let r = unit * 0.004;
    let lift = Vec3::Y * unit * 0.002;
    let pos = |n: u32| {
        mesh.nodes
            .get(n as usize)
            .map(|n| n.position.as_vec3() + lift)
    };
    let trace = &result.search.trace;
    let shown = (shown as usize).min(trace.expansions.len());
    if layers.expansions {
        let (fmin, fmax) = f_range(trace.expansions.iter().map(|e| e.f));
        for e in &trace.expansions[..shown] {
            let c = expansion_color(e.f, fmin, fmax).with_alpha(0.55);
            if let (Some(p), Some(q)) = (pos(e.node), e.parent.and_then(pos)) {
                gizmos.line(q, p, c);
            }
            if let Some(p) = pos(e.node) {
                gizmos.sphere(Isometry3d::from_translation(p), r, c);
            }
        }
    }
    if layers.sets && shown == trace.expansions.len() {
        let flat = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        for n in &trace.open {
            if let Some(p) = pos(*n) {
                gizmos.circle(
                    Isometry3d::new(p, flat),
                    r * 2.0,
                    Color::srgb(0.1, 0.7, 0.7),
                );
            }
        }
        for n in &trace.closed {
            if let Some(p) = pos(*n) {
                gizmos.cross(
                    Isometry3d::new(p, flat),
                    r * 1.5,
                    Color::srgb(0.35, 0.35, 0.4),
                );
            }
        }
    }
    if layers.corridor && result.found {
        let corridor: Vec<Vec3> = result
            .search
            .nodes
            .iter()
            .flatten()
            .filter_map(|n| pos(*n))
            .collect();
        let [cr, cg, cb] = CORRIDOR_COLOR;
        let c = Color::srgb_u8(cr, cg, cb);
        // Dashed, so it never reads as the path itself.
        for w in corridor.windows(2) {
            // Above the expansion edges it runs along.
            let (a, b) = (w[0] + lift * 2.0, w[1] + lift * 2.0);
            let n = ((a.distance(b) / (unit * 0.01)).ceil() as usize).clamp(1, 200);
            for k in (0..n).step_by(2) {
                let (s, e) = (k as f32 / n as f32, ((k + 1) as f32 / n as f32).min(1.0));
                gizmos.line(a.lerp(b, s), a.lerp(b, e), c);
            }
        }
    }
}
