//! The path probe: a start and a goal on the walkable surface, the A*
//! search between them over the current NavMesh, and its trace.
//!
//! Search, funnel and costs belong to `navscope-path`; this module keeps the
//! probe's state, re-runs the search when the points, the options or the
//! mesh change, and draws the result: the node corridor, the smoothed path,
//! the expansions in the order A* made them (animated, coloured by f), the
//! final open and closed sets and each waypoint's stance. With no path it
//! says why (start or goal off the mesh, or no connection).
//!
//! A pipeline whose paths are more than a search over its NavMesh (a corridor
//! keeping a clearance) answers the query itself through
//! [`Artifact::path_between`]; the probe asks the published stages, last
//! first, and falls back to the NavMesh search when none answers.
//! [`crate::probe_answer`] draws such an answer with the style table.

use std::sync::Arc;
use std::time::Instant;

use bevy::prelude::*;
use navscope_core::{Artifact, NavMesh, PathAnswer, Stance};
use navscope_path::{Locator, PathError, PathResult, SearchOptions};

use crate::stages::{Build, StageSystems};

/// Expansions drawn per second while the search animates (at least).
pub const EXPANSIONS_PER_SECOND: f32 = 30.0;

/// Keeps the probe's search up to date (no renderer needed).
pub struct ProbePlugin;

impl Plugin for ProbePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Probe>().add_systems(
            Update,
            (refresh_mesh, search, animate).chain().after(StageSystems),
        );
    }
}

/// Options of the search, edited in the probe panel.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeOptions {
    /// Cost multiplier per stance, in `Stance::ALL` order.
    pub stance_cost: [f64; 5],
    /// Whether each link kind may be used, in `LinkKind::ALL` order.
    pub allowed: [bool; 8],
}

impl Default for ProbeOptions {
    fn default() -> Self {
        Self {
            stance_cost: [1.0; 5],
            allowed: [true; 8],
        }
    }
}

impl ProbeOptions {
    /// The options in `navscope-path`'s terms.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            allowed: self.allowed,
            stance_cost: self.stance_cost,
            ..SearchOptions::default()
        }
    }
}

/// The outcome of the last search.
#[derive(Debug, Clone)]
pub enum ProbeOutcome {
    /// A search ran (it may still have found nothing: see `result.found`).
    Searched {
        /// What `navscope-path` returned.
        result: PathResult,
        /// Search time in milliseconds.
        ms: f64,
    },
    /// The pipeline answered with its own path.
    Answered {
        /// The path, its length and what to draw.
        answer: PathAnswer,
        /// Query time in milliseconds.
        ms: f64,
    },
    /// No search could run, or the pipeline found no path; why.
    NoPath(String),
}

/// The probe's points, options and result.
#[derive(Resource, Debug, Default)]
pub struct Probe {
    /// Start point (click).
    pub start: Option<Vec3>,
    /// Goal point (shift-click).
    pub goal: Option<Vec3>,
    /// Search options.
    pub options: ProbeOptions,
    /// The last search's outcome (both points set).
    pub outcome: Option<ProbeOutcome>,
    /// How many expansions the animation shows so far.
    pub shown: f32,
    /// Draw the expansions one by one (else all at once).
    pub animate: bool,
    /// Bumped whenever `outcome` is replaced, so drawings can follow it.
    pub revision: u64,
    mesh: Option<Arc<NavMesh>>,
    answerers: Vec<Arc<dyn Artifact>>,
    mesh_build: u64,
    dirty: bool,
}

impl Probe {
    /// Sets the start point.
    pub fn set_start(&mut self, p: Vec3) {
        self.start = Some(p);
        self.dirty = true;
    }

    /// Sets the goal point.
    pub fn set_goal(&mut self, p: Vec3) {
        self.goal = Some(p);
        self.dirty = true;
    }

    /// Removes both points and the result.
    pub fn clear(&mut self) {
        self.start = None;
        self.goal = None;
        self.outcome = None;
        self.revision += 1;
    }

    /// Marks the options changed (search again).
    pub fn options_changed(&mut self) {
        self.dirty = true;
    }

    /// The mesh the probe searches.
    pub fn mesh(&self) -> Option<&NavMesh> {
        self.mesh.as_deref()
    }
}

/// A one-line reason for a failed search.
pub fn explain(e: &PathError) -> String {
    format!("no path: {e}")
}

fn refresh_mesh(build: Res<Build>, mut probe: ResMut<Probe>) {
    if build.published == probe.mesh_build {
        return;
    }
    probe.mesh_build = build.published;
    probe.mesh = build.runner().and_then(|r| r.navmesh()).map(Arc::new);
    probe.answerers = build
        .runner()
        .map(|r| {
            (0..r.pipeline().stages.len())
                .rev()
                .filter_map(|i| r.result(i)?.outcome.as_ref().ok().cloned())
                .collect()
        })
        .unwrap_or_default();
    probe.dirty = true;
}

fn search(mut probe: ResMut<Probe>) {
    if !probe.dirty {
        return;
    }
    probe.dirty = false;
    probe.shown = 0.0;
    probe.revision += 1;
    let (Some(start), Some(goal)) = (probe.start, probe.goal) else {
        probe.outcome = None;
        return;
    };
    let t = Instant::now();
    if let Some(answer) = probe
        .answerers
        .iter()
        .find_map(|a| a.path_between(start, goal))
    {
        probe.outcome = Some(match answer {
            Ok(answer) => ProbeOutcome::Answered {
                answer,
                ms: t.elapsed().as_secs_f64() * 1000.0,
            },
            Err(why) => ProbeOutcome::NoPath(format!("no path: {why}")),
        });
        return;
    }
    let Some(mesh) = probe.mesh.clone() else {
        probe.outcome = Some(ProbeOutcome::NoPath(
            "the pipeline has not produced a navigation mesh (yet)".into(),
        ));
        return;
    };
    let locator = Locator::new(&mesh);
    let opts = probe.options.search_options();
    let outcome =
        match navscope_path::find_path(&mesh, &locator, start.as_dvec3(), goal.as_dvec3(), &opts) {
            Ok(result) => ProbeOutcome::Searched {
                result,
                ms: t.elapsed().as_secs_f64() * 1000.0,
            },
            Err(e) => ProbeOutcome::NoPath(explain(&e)),
        };
    probe.outcome = Some(outcome);
}

fn animate(time: Res<Time>, mut probe: ResMut<Probe>) {
    let total = match &probe.outcome {
        Some(ProbeOutcome::Searched { result, .. }) => result.search.trace.expansions.len() as f32,
        _ => return,
    };
    if !probe.animate {
        probe.shown = total;
        return;
    }
    if probe.shown < total {
        let rate = (total / 2.0).max(EXPANSIONS_PER_SECOND);
        probe.shown = (probe.shown + rate * time.delta_secs()).min(total);
    }
}

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

/// Draws the probe (needs the renderer's gizmos).
pub struct ProbeDrawPlugin;

impl Plugin for ProbeDrawPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw_probe.after(StageSystems));
    }
}

fn draw_probe(
    mut gizmos: Gizmos,
    probe: Res<Probe>,
    current: Res<crate::levels::CurrentLevel>,
    mut unit: Local<(u64, f32)>,
) {
    if probe.start.is_none() && probe.goal.is_none() {
        return;
    }
    if unit.0 != current.revision {
        *unit = (current.revision, crate::scene::level_extent(&current.level));
    }
    let unit = unit.1;
    let r = unit * 0.008;
    let lift = Vec3::Y * unit * 0.002;
    if let Some(s) = probe.start {
        gizmos.sphere(
            Isometry3d::from_translation(s + lift),
            r * 1.5,
            Color::srgb(0.1, 0.85, 0.2),
        );
    }
    if let Some(g) = probe.goal {
        gizmos.sphere(
            Isometry3d::from_translation(g + lift),
            r * 1.5,
            Color::srgb(0.9, 0.1, 0.1),
        );
    }
    let (Some(ProbeOutcome::Searched { result, .. }), Some(mesh)) = (&probe.outcome, probe.mesh())
    else {
        return;
    };
    let pos = |n: u32| {
        mesh.nodes
            .get(n as usize)
            .map(|n| n.position.as_vec3() + lift)
    };
    let trace = &result.search.trace;
    let shown = (probe.shown as usize).min(trace.expansions.len());
    let (fmin, fmax) = trace
        .expansions
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), e| {
            (a.min(e.f), b.max(e.f))
        });
    for e in &trace.expansions[..shown] {
        let t = if fmax > fmin {
            ((e.f - fmin) / (fmax - fmin)) as f32
        } else {
            0.0
        };
        let c = Color::srgb(0.15 + 0.85 * t, 0.35 * (1.0 - t) + 0.1, 1.0 - 0.85 * t);
        if let (Some(p), Some(q)) = (pos(e.node), e.parent.and_then(pos)) {
            gizmos.line(q, p, c);
        }
        if let Some(p) = pos(e.node) {
            gizmos.sphere(Isometry3d::from_translation(p), r * 0.6, c);
        }
    }
    if shown == trace.expansions.len() {
        for n in &trace.open {
            if let Some(p) = pos(*n) {
                gizmos.circle(
                    Isometry3d::new(p, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
                    r,
                    Color::srgb(0.1, 0.8, 0.8),
                );
            }
        }
        for n in &trace.closed {
            if let Some(p) = pos(*n) {
                gizmos.cross(
                    Isometry3d::new(p, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
                    r * 0.7,
                    Color::srgb(0.35, 0.35, 0.4),
                );
            }
        }
    }
    if !result.found {
        return;
    }
    let corridor: Vec<Vec3> = result
        .search
        .nodes
        .iter()
        .flatten()
        .filter_map(|n| pos(*n))
        .collect();
    gizmos.linestrip(corridor, Color::srgba(0.3, 0.3, 0.9, 0.8));
    let path: Vec<Vec3> = result
        .waypoints
        .iter()
        .map(|w| w.position.as_vec3() + lift * 2.0)
        .collect();
    for w in path.windows(2) {
        gizmos.line(w[0], w[1], Color::srgb(1.0, 0.2, 0.2));
        gizmos.line(w[0] + lift, w[1] + lift, Color::srgb(1.0, 0.2, 0.2));
    }
    for w in &result.waypoints {
        gizmos.sphere(
            Isometry3d::from_translation(w.position.as_vec3() + lift * 2.0),
            r * 0.8,
            stance_color(w.stance),
        );
    }
}
