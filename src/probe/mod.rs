//! The path probe: a start and a goal on the walkable surface, the search
//! between them over the current NavMesh, and its trace.
//!
//! Search, funnel and costs belong to `navscope-path`; this module keeps the
//! probe's state, re-runs the search when the points, the options or the
//! mesh change, and draws the result. The method ([`ProbeMethod`]) is
//! Polyanya by default (the shortest path, DESIGN principle 10), A* with the
//! funnel (Detour's way), or both, to compare them. Drawn are the path, the
//! search steps in the order they were made (animated, coloured by f:
//! Polyanya's roots and intervals, A*'s nodes), A*'s node corridor and final
//! open and closed sets, and each waypoint's stance. With no path it says why
//! (start or goal off the mesh, or no connection); where the ends are not
//! connected, [`failure`] finds the region reached from the start, the region
//! that reaches the goal, the gap between them and the parameter change that
//! joins them. Polyanya needs polygons under the start and the goal; on a
//! point node A* answers instead.
//!
//! A pipeline whose paths are more than a search over its NavMesh (a corridor
//! keeping a clearance) answers the query itself through
//! [`Artifact::path_between`]; the probe asks the published stages, last
//! first, and falls back to the NavMesh search when none answers.
//! [`answer`] draws such an answer with the style table.

pub mod answer;
pub mod draw;
pub mod failure;
pub mod islands;
pub mod place;
pub mod spots;

use crate::build::Build;
use crate::build::StageSystems;
use crate::discard::discard;
use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use failure::Failure;
use navscope_core::{Artifact, LinkKind, NavMesh, ParamValue, PathAnswer, Runner};
use navscope_explain::Gap;
use navscope_path::polyanya::TraceStep;
use navscope_path::{PathError, PathFinder, PathResult, SearchOptions, Waypoint};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Instant;

/// Expansions drawn per second while the search animates (at least).
pub const EXPANSIONS_PER_SECOND: f32 = 30.0;

/// Names under which pipelines declare the agent radius their mesh was
/// built for; the probe's funnel keeps that clearance.
pub const RADIUS_PARAMS: &[&str] = &["agent_radius", "radius"];

/// Keeps the probe's search up to date (no renderer needed).
pub struct ProbePlugin;

impl Plugin for ProbePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Probe>()
            .init_resource::<ProbeSearch>()
            .init_resource::<spots::LevelSpots>()
            .init_resource::<islands::IslandView>()
            .add_systems(Update, spots::refresh)
            .add_systems(
                Update,
                (islands::toggle_key, islands::refresh)
                    .chain()
                    .after(refresh_mesh),
            )
            .add_systems(
                Update,
                (refresh_mesh, search, collect, collect_fix, animate)
                    .chain()
                    .after(StageSystems),
            );
    }
}

/// Which search the probe runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ProbeMethod {
    /// Polyanya: the optimal any-angle path.
    #[default]
    Polyanya,
    /// A* over the node graph, then the funnel.
    AStar,
    /// Both, Polyanya's path first and A*'s drawn beside it.
    Both,
}

impl ProbeMethod {
    /// Every method, in the panel's order.
    pub const ALL: [ProbeMethod; 3] =
        [ProbeMethod::Polyanya, ProbeMethod::AStar, ProbeMethod::Both];

    /// The name in the state report and the panel's widget names.
    pub fn name(self) -> &'static str {
        match self {
            ProbeMethod::Polyanya => "polyanya",
            ProbeMethod::AStar => "astar",
            ProbeMethod::Both => "both",
        }
    }

    /// The panel's label.
    pub fn label(self) -> &'static str {
        match self {
            ProbeMethod::Polyanya => "Polyanya",
            ProbeMethod::AStar => "A*",
            ProbeMethod::Both => "both",
        }
    }

    fn runs_polyanya(self) -> bool {
        self != ProbeMethod::AStar
    }
}

/// Options of the search, edited in the probe panel. The defaults are the
/// pipeline's own: `navscope-path`'s stance multipliers (Kirst §32.5) and
/// the agent radius the mesh was built with.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeOptions {
    /// The search that answers.
    pub method: ProbeMethod,
    /// Record Polyanya's steps (the expansions layer is on; A* always
    /// records its own).
    pub trace: bool,
    /// Cost multiplier per stance, in `Stance::ALL` order.
    pub stance_cost: [f64; 5],
    /// Whether each link kind may be used, in `LinkKind::ALL` order.
    pub allowed: [bool; LinkKind::ALL.len()],
    /// The radius the user typed, replacing the pipeline's.
    pub radius_override: Option<f64>,
    /// The agent radius of the pipeline's parameters (0 when it has none).
    pub pipeline_radius: f64,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        let d = SearchOptions::default();
        Self {
            method: ProbeMethod::default(),
            trace: true,
            stance_cost: d.stance_cost,
            allowed: d.allowed,
            radius_override: None,
            pipeline_radius: 0.0,
        }
    }
}

impl ProbeOptions {
    /// The radius the funnel keeps from walls.
    pub fn radius(&self) -> f64 {
        self.radius_override.unwrap_or(self.pipeline_radius)
    }

    /// The options in `navscope-path`'s terms.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            allowed: self.allowed,
            stance_cost: self.stance_cost,
            agent_radius: self.radius(),
            ..SearchOptions::default()
        }
    }
}

/// Polyanya's path, copied out of the finder's buffers.
#[derive(Debug, Clone)]
pub struct AnyAngleResult {
    /// Length along the waypoints (3D, metres).
    pub length: f64,
    /// Search nodes taken off the open list.
    pub expansions: usize,
    /// Start, every bend, link ends, goal.
    pub waypoints: Vec<Waypoint>,
    /// The search's steps, in order (empty unless [`ProbeOptions::trace`]).
    pub trace: Vec<TraceStep>,
    /// Search time in milliseconds.
    pub ms: f64,
}

/// A* and the funnel's path.
#[derive(Debug, Clone)]
pub struct AStarResult {
    /// What `navscope-path` returned, with the search's trace.
    pub result: PathResult,
    /// Search time in milliseconds.
    pub ms: f64,
}

/// The outcome of the last search.
#[derive(Debug, Clone)]
pub enum ProbeOutcome {
    /// The NavMesh was searched and a path found.
    Searched {
        /// Polyanya's path (methods Polyanya and both), unless a point node
        /// under the start or the goal kept Polyanya from searching.
        polyanya: Option<AnyAngleResult>,
        /// A*'s path (methods A* and both, and where Polyanya could not
        /// search).
        astar: Option<AStarResult>,
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

impl ProbeOutcome {
    /// True when it holds a path.
    pub fn found(&self) -> bool {
        match self {
            ProbeOutcome::Searched { polyanya, astar } => {
                polyanya.is_some() || astar.as_ref().is_some_and(|a| a.result.found)
            }
            ProbeOutcome::Answered { .. } => true,
            ProbeOutcome::NoPath(_) => false,
        }
    }

    /// The path's length in metres, when there is one.
    pub fn length(&self) -> Option<f64> {
        match self {
            ProbeOutcome::Answered { answer, .. } => Some(answer.length),
            _ => self.path().map(|(length, _)| length),
        }
    }

    /// The path's points (Polyanya's when it searched).
    pub fn waypoints(&self) -> Vec<Vec3> {
        match self {
            ProbeOutcome::Answered { answer, .. } => answer.waypoints.clone(),
            _ => self.path().map_or_else(Vec::new, |(_, w)| positions(w)),
        }
    }

    /// The searched path's length and waypoints: Polyanya's, else A*'s.
    pub fn path(&self) -> Option<(f64, &[Waypoint])> {
        match self {
            ProbeOutcome::Searched {
                polyanya: Some(p), ..
            } => Some((p.length, &p.waypoints)),
            ProbeOutcome::Searched { astar: Some(a), .. } if a.result.found => {
                Some((a.result.length, &a.result.waypoints))
            }
            _ => None,
        }
    }

    /// A*'s path when it is drawn beside Polyanya's (method both).
    pub fn compared_astar(&self) -> Option<&PathResult> {
        match self {
            ProbeOutcome::Searched {
                polyanya: Some(_),
                astar: Some(a),
            } => Some(&a.result),
            _ => None,
        }
    }

    /// How many search steps the animation shows in all (the longer of the
    /// two traces).
    pub fn steps(&self) -> usize {
        match self {
            ProbeOutcome::Searched { polyanya, astar } => {
                let p = polyanya.as_ref().map_or(0, |p| p.trace.len());
                let a = astar
                    .as_ref()
                    .map_or(0, |a| a.result.search.trace.expansions.len());
                p.max(a)
            }
            _ => 0,
        }
    }
}

/// The points of `waypoints`.
pub fn positions(waypoints: &[Waypoint]) -> Vec<Vec3> {
    waypoints.iter().map(|w| w.position.as_vec3()).collect()
}

/// The probe's points, options and result.
#[derive(Resource, Debug, Default)]
pub struct Probe {
    /// Start point.
    pub start: Option<Vec3>,
    /// Goal point.
    pub goal: Option<Vec3>,
    /// Search options.
    pub options: ProbeOptions,
    /// The last search's outcome (both points set).
    pub outcome: Option<ProbeOutcome>,
    /// How many expansions the animation shows so far.
    pub shown: f32,
    /// Draw the expansions one by one (else all at once).
    pub animate: bool,
    /// Bumped whenever `outcome` or `failure` is replaced, so drawings can
    /// follow it.
    pub revision: u64,
    /// Why the last search found no path, when its ends are not connected.
    pub failure: Option<Failure>,
    /// Bumped whenever the mesh the probe searches is replaced.
    pub mesh_revision: u64,
    /// What queries search (shared with the running query's task).
    searchable: Arc<Searchable>,
    mesh_build: u64,
    /// What a newer build gives to search, made on a worker thread (a
    /// Quake map's locator and mesh copy took tens of milliseconds of the
    /// frame that published it).
    mesh_task: Option<Task<Searchable>>,
    dirty: bool,
}

/// What the probe searches, made from one build.
#[derive(Debug, Default)]
struct Searchable {
    /// The stage whose artifact holds the NavMesh, shared with the build
    /// (the mesh is not copied: on a big level a copy is tens of MiB).
    source: Option<Arc<dyn Artifact>>,
    /// Made by the first query that needs it, on that query's worker: a
    /// big mesh's locator and Polyanya mesh are megabytes (8 MB of locator
    /// on a 30,000-vertex floor plan) a person who never probes should not
    /// pay for. Locked by the query using its search buffers.
    finder: OnceLock<Option<Mutex<PathFinder>>>,
    answerers: Vec<Arc<dyn Artifact>>,
    pipeline_radius: f64,
    /// What the fix search builds again.
    rebuild: Option<Runner>,
}

impl Searchable {
    /// The NavMesh, its path finder and the stages that answer path
    /// queries themselves (last first) of `runner`'s build.
    fn of(runner: Option<&Runner>, pipeline_radius: f64) -> Self {
        // The stages' artifacts, last first.
        let artifacts: Vec<Arc<dyn Artifact>> = runner
            .map(|r| {
                (0..r.pipeline().stages.len())
                    .rev()
                    .filter_map(|i| r.result(i)?.outcome.as_ref().ok().cloned())
                    .collect()
            })
            .unwrap_or_default();
        // The last NavMesh, as `Runner::navmesh` finds it.
        let source = artifacts.iter().find(|a| a.navmesh().is_some()).cloned();
        let rebuild = runner.cloned();
        Searchable {
            source,
            finder: OnceLock::new(),
            answerers: artifacts,
            pipeline_radius,
            rebuild,
        }
    }

    /// The NavMesh it searches.
    fn mesh(&self) -> Option<&NavMesh> {
        self.source.as_deref()?.navmesh()
    }

    /// The NavMesh's path finder (locator, Polyanya mesh, search
    /// buffers), built once per mesh (by the first query that asks), not
    /// per query.
    fn finder(&self) -> Option<&Mutex<PathFinder>> {
        self.finder
            .get_or_init(|| self.mesh().map(|m| Mutex::new(PathFinder::new(m))))
            .as_ref()
    }
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

    /// Sets both points (an undo of a probe move).
    pub fn set_points(&mut self, start: Option<Vec3>, goal: Option<Vec3>) {
        self.start = start;
        self.goal = goal;
        self.dirty = true;
    }

    /// Removes both points and the result.
    pub fn clear(&mut self) {
        self.start = None;
        self.goal = None;
        self.outcome = None;
        self.failure = None;
        self.dirty = false;
        self.revision += 1;
    }

    /// Marks the options changed (search again).
    pub fn options_changed(&mut self) {
        self.dirty = true;
    }

    /// True while a change of the points or the options waits for its
    /// search to start.
    pub fn is_dirty(&self) -> bool {
        self.dirty && self.start.is_some() && self.goal.is_some()
    }

    /// True while the mesh of a newer build is being made for the probe
    /// (queries wait for it).
    pub fn is_refreshing(&self) -> bool {
        self.mesh_task.is_some()
    }

    /// The mesh the probe searches.
    pub fn mesh(&self) -> Option<&NavMesh> {
        self.searchable.mesh()
    }
}

/// The search running off the main thread, if any, and the fix search of
/// its failure.
#[derive(Resource, Default)]
pub struct ProbeSearch {
    task: Option<Task<(ProbeOutcome, Option<Failure>)>>,
    fix: Option<FixSearch>,
}

/// The fix search of a failed query, on a thread of its own (it builds the
/// pipeline again, seconds on a big level, and must not hold up the
/// worker that answers the next query).
struct FixSearch {
    /// The gap with its fix, once found.
    done: Arc<Mutex<Option<Gap>>>,
}

impl FixSearch {
    fn start(gap: Gap, rebuild: Runner, ends: (DVec3, DVec3), opts: SearchOptions) -> Self {
        let done = Arc::new(Mutex::new(None));
        let d = done.clone();
        std::thread::spawn(move || {
            let gap = failure::with_fix(gap, &rebuild, ends, opts);
            *d.lock().unwrap_or_else(PoisonError::into_inner) = Some(gap);
        });
        Self { done }
    }
}

impl ProbeSearch {
    /// True while a search runs.
    pub fn is_running(&self) -> bool {
        self.task.is_some()
    }

    /// True while the fix search of a failed query runs.
    pub fn is_fixing(&self) -> bool {
        self.fix.is_some()
    }
}

/// A one-line reason for a failed search.
pub fn explain(e: &PathError) -> String {
    format!("no path: {e}")
}

/// The agent radius among a pipeline's parameters, if it declares one.
pub fn pipeline_radius(build: &Build) -> f64 {
    let Some(params) = build.params() else {
        return 0.0;
    };
    RADIUS_PARAMS
        .iter()
        .find_map(|n| match params.get(n) {
            Some(ParamValue::Float(r)) => Some(*r),
            _ => None,
        })
        .unwrap_or(0.0)
}

fn refresh_mesh(build: Res<Build>, mut probe: ResMut<Probe>) {
    if build.published != probe.mesh_build {
        probe.mesh_build = build.published;
        let runner = build.runner().cloned();
        let radius = pipeline_radius(&build);
        // A newer build replaces one still being made.
        probe.mesh_task = Some(
            AsyncComputeTaskPool::get()
                .spawn(async move { Searchable::of(runner.as_ref(), radius) }),
        );
    }
    let Some(task) = probe.mesh_task.as_mut() else {
        return;
    };
    let Some(new) = check_ready(task) else {
        return;
    };
    probe.mesh_task = None;
    probe.options.pipeline_radius = new.pipeline_radius;
    discard(std::mem::replace(&mut probe.searchable, Arc::new(new)));
    probe.mesh_revision += 1;
    probe.dirty = true;
}

/// Answers one query: the pipeline's own answer when a stage gives one,
/// else the options' method over the NavMesh, with why it failed where
/// the ends are not connected (runs on a worker thread).
fn answer(
    searchable: &Searchable,
    start: Vec3,
    goal: Vec3,
    options: &ProbeOptions,
) -> (ProbeOutcome, Option<Failure>) {
    let t = Instant::now();
    let answerers = &searchable.answerers;
    if let Some(answer) = answerers.iter().find_map(|a| a.path_between(start, goal)) {
        let outcome = match answer {
            Ok(answer) => ProbeOutcome::Answered {
                answer,
                ms: t.elapsed().as_secs_f64() * 1000.0,
            },
            Err(why) => ProbeOutcome::NoPath(format!("no path: {why}")),
        };
        return (outcome, None);
    }
    let (Some(mesh), Some(finder)) = (searchable.mesh(), searchable.finder()) else {
        let why = "the pipeline has not produced a navigation mesh (yet)";
        return (ProbeOutcome::NoPath(why.into()), None);
    };
    // A query replaced while running finishes first: its lock is released.
    let mut finder = finder.lock().unwrap_or_else(PoisonError::into_inner);
    let (from, to) = (start.as_dvec3(), goal.as_dvec3());
    let opts = options.search_options();
    let failed = |e: PathError| {
        let why = failure::explain(mesh, &opts, &e);
        (ProbeOutcome::NoPath(explain(&e)), why)
    };
    let mut polyanya = None;
    if options.method.runs_polyanya() {
        // The search's time, not the finder's the first query made.
        let t = Instant::now();
        match finder.polyanya(mesh, from, to, &opts, options.trace) {
            Ok(p) => {
                polyanya = Some(AnyAngleResult {
                    length: p.length,
                    expansions: p.expansions,
                    waypoints: p.waypoints.to_vec(),
                    trace: p.trace.map_or_else(Vec::new, <[TraceStep]>::to_vec),
                    ms: t.elapsed().as_secs_f64() * 1000.0,
                });
            }
            // A point node under an end: A* answers below.
            Err(PathError::NotSearchable { .. }) => {}
            Err(e) => return failed(e),
        }
    }
    let mut astar = None;
    if options.method != ProbeMethod::Polyanya || polyanya.is_none() {
        let t = Instant::now();
        match navscope_path::find_path(mesh, &finder.locator, from, to, &opts) {
            Ok(result) => {
                astar = Some(AStarResult {
                    result,
                    ms: t.elapsed().as_secs_f64() * 1000.0,
                });
            }
            Err(e) => return failed(e),
        }
    }
    (ProbeOutcome::Searched { polyanya, astar }, None)
}

pub(crate) fn search(mut probe: ResMut<Probe>, mut running: ResMut<ProbeSearch>) {
    // A query waits for the mesh of the newest build.
    if !probe.dirty || probe.mesh_task.is_some() {
        return;
    }
    probe.dirty = false;
    let (Some(start), Some(goal)) = (probe.start, probe.goal) else {
        running.task = None;
        probe.outcome = None;
        probe.revision += 1;
        return;
    };
    let searchable = probe.searchable.clone();
    let options = probe.options.clone();
    // A newer query replaces the running one (its result would be stale).
    running.task = Some(
        AsyncComputeTaskPool::get()
            .spawn(async move { answer(&searchable, start, goal, &options) }),
    );
}

pub(crate) fn collect(mut probe: ResMut<Probe>, mut running: ResMut<ProbeSearch>) {
    let Some(task) = running.task.as_mut() else {
        return;
    };
    let Some((outcome, failure)) = check_ready(task) else {
        return;
    };
    running.task = None;
    // The fix of an older query is stale.
    running.fix = None;
    let ends = probe.start.zip(probe.goal);
    if let (Some(gap), Some(rebuild), Some((start, goal))) = (
        failure.as_ref().and_then(|f| f.gap.clone()),
        probe.searchable.rebuild.clone(),
        ends,
    ) {
        running.fix = Some(FixSearch::start(
            gap,
            rebuild,
            (start.as_dvec3(), goal.as_dvec3()),
            probe.options.search_options(),
        ));
    }
    probe.outcome = Some(outcome);
    probe.failure = failure.map(|f| Failure {
        fix_pending: running.fix.is_some(),
        ..f
    });
    probe.shown = 0.0;
    probe.revision += 1;
}

/// Takes the fix search's answer into the probe's failure once found.
fn collect_fix(mut probe: ResMut<Probe>, mut running: ResMut<ProbeSearch>) {
    let Some(fix) = running.fix.as_ref() else {
        return;
    };
    let Some(gap) = fix
        .done
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    else {
        return;
    };
    running.fix = None;
    if let Some(f) = probe.failure.as_mut() {
        f.gap = Some(gap);
        f.fix_pending = false;
    }
    probe.revision += 1;
}

fn animate(time: Res<Time>, mut probe: ResMut<Probe>) {
    let total = match &probe.outcome {
        Some(o @ ProbeOutcome::Searched { .. }) => o.steps() as f32,
        _ => return,
    };
    if !probe.animate {
        if probe.shown != total {
            probe.shown = total;
        }
        return;
    }
    if probe.shown < total {
        let rate = (total / 2.0).max(EXPANSIONS_PER_SECOND);
        probe.shown = (probe.shown + rate * time.delta_secs()).min(total);
    }
}
