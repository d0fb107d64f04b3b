//! Stages: the pipeline's [`Runner`] lives here and runs off the main thread.
//!
//! The [`Build`] resource holds two runners: the *desired* one (the latest
//! parameters, with every still-valid cached artifact) and the *finished*
//! one the view shows. A change to the level, the pipeline or a parameter
//! edits the desired runner; the next frame hands a clone of it to
//! `AsyncComputeTaskPool`, which runs the missing stages, then prepares
//! each re-run stage's drawing (grouping and triangulating its primitives)
//! while still off the main thread. Every start bumps a generation counter
//! and sets the previous run's cancel flag, so a superseded run stops at its
//! next stage boundary and its result is dropped unseen. The frame never
//! waits: it only polls the task.
//!
//! A finished run is *published*: for every stage it re-ran, the previous
//! entities are despawned and a [`StageRoot`] entity carrying the prepared
//! [`StageGeometry`] is spawned, with one child entity per element
//! ([`StageElement`] + [`ElementShapes`]) for inspection and picking. A
//! failed stage publishes nothing and its error goes to the [`Journal`];
//! the stages before it stay published.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use navscope_core::draw::SubStep;
use navscope_core::params::{ParamError, ParamValues};
use navscope_core::stage::StageError;
use navscope_core::{ParamValue, Pipeline, Primitive, Runner};

use crate::draw::{self, Prepared};
use crate::filter::{PrepareOptions, ViewFilter};
use crate::journal::Journal;
use crate::levels::CurrentLevel;

/// Runs the current pipeline in the background and publishes its stages.
pub struct StagesPlugin;

impl Plugin for StagesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Build>()
            .init_resource::<Journal>()
            .add_systems(
                Update,
                (follow_level, start_build, finish_build)
                    .chain()
                    .in_set(StageSystems),
            );
    }
}

/// The systems that start, poll and publish builds (run in `Update`).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct StageSystems;

/// Marks the entity that holds one published stage.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageRoot {
    /// Stage index.
    pub stage: usize,
}

/// One element of a stage's artifact, as the primitives tag it.
#[derive(Component, Debug, Clone, PartialEq, Eq, Hash)]
pub struct StageElement {
    /// Index of the stage that made it.
    pub stage: usize,
    /// Its primitives' kind, e.g. `portal/vertex-edge`.
    pub kind: String,
    /// Its id within the artifact.
    pub element: u32,
}

/// The primitives of one element.
#[derive(Component, Debug, Clone)]
pub struct ElementShapes(pub Vec<Primitive>);

/// A published stage's drawing, prepared off the main thread.
#[derive(Component, Debug, Clone)]
pub struct StageGeometry {
    /// Stage index.
    pub stage: usize,
    /// Everything the stage drew, kept to prepare again when the view
    /// filter changes.
    pub primitives: Arc<Vec<Primitive>>,
    /// Grouped, triangulated primitives.
    pub prepared: Prepared,
    /// The options `prepared` was made under.
    pub options: PrepareOptions,
    /// The sub-steps the stage recorded.
    pub substeps: Vec<SubStep>,
    /// The level's size, for scaling markers.
    pub unit: f32,
}

/// What the last finished build did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// First stage it ran.
    pub from: usize,
    /// How many stages ran.
    pub stages_ran: usize,
    /// Time spent in those stages, in milliseconds.
    pub compute_ms: f64,
    /// From the first change to the published result, in milliseconds.
    pub latency_ms: f64,
}

struct PublishedStage {
    stage: usize,
    elements: Vec<(StageElement, Vec<Primitive>)>,
    geometry: StageGeometry,
}

struct Finished {
    generation: u64,
    from: usize,
    runner: Runner,
    stages: Vec<PublishedStage>,
}

struct Running {
    generation: u64,
    cancel: Arc<AtomicBool>,
    progress: Arc<AtomicUsize>,
    started: Instant,
    task: Task<Finished>,
}

/// The runners and the background task.
#[derive(Resource, Default)]
pub struct Build {
    desired: Option<Runner>,
    finished: Option<Runner>,
    dirty: bool,
    generation: u64,
    running: Option<Running>,
    level_revision: u64,
    changed_at: Option<Instant>,
    /// What the last published build did.
    pub last: Option<RunReport>,
    /// How many builds were published.
    pub published: u64,
}

impl Build {
    /// The runner whose results are on screen.
    pub fn runner(&self) -> Option<&Runner> {
        self.finished.as_ref()
    }

    /// The pipeline being built.
    pub fn pipeline(&self) -> Option<&Arc<Pipeline>> {
        self.desired.as_ref().map(|r| r.pipeline())
    }

    /// The parameters being built with (the latest edits).
    pub fn params(&self) -> Option<&ParamValues> {
        self.desired.as_ref().map(|r| r.params())
    }

    /// Sets a parameter; on a change, the stages from the first that reads it
    /// re-run in the background. Returns that stage's index.
    pub fn set_param(
        &mut self,
        name: &str,
        value: ParamValue,
    ) -> Result<Option<usize>, ParamError> {
        let Some(r) = self.desired.as_mut() else {
            return Ok(None);
        };
        let first = r.set_param(name, value)?;
        if first.is_some() {
            self.mark_dirty();
        }
        Ok(first)
    }

    /// Replaces every parameter (a preset). Returns the first stage to re-run.
    pub fn set_params(&mut self, values: ParamValues) -> Option<usize> {
        let first = self.desired.as_mut()?.set_params(values);
        if first.is_some() {
            self.mark_dirty();
        }
        first
    }

    fn mark_dirty(&mut self) {
        self.dirty = true;
        self.changed_at.get_or_insert_with(Instant::now);
    }

    /// True while a build is running or about to start.
    pub fn is_busy(&self) -> bool {
        self.dirty || self.running.is_some()
    }

    /// The stage being run, the stage count and the seconds since the
    /// build started, while a build runs.
    pub fn progress(&self) -> Option<(usize, usize, f32)> {
        let r = self.running.as_ref()?;
        let n = self
            .desired
            .as_ref()
            .map_or(0, |d| d.pipeline().stages.len());
        Some((
            r.progress.load(Ordering::Relaxed),
            n,
            r.started.elapsed().as_secs_f32(),
        ))
    }

    /// Stops the running build at its next stage boundary; nothing of it is
    /// published.
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
        }
        self.dirty = false;
        self.changed_at = None;
        // The desired state falls back to what is on screen.
        if let Some(f) = &self.finished
            && self.desired.as_ref().is_some_and(|d| {
                d.params() == f.params() && Arc::ptr_eq(d.pipeline(), f.pipeline())
            })
        {
            self.desired = Some(f.clone());
        }
    }

    /// Builds everything again from the first stage.
    pub fn rebuild(&mut self) {
        if let Some(d) = self.desired.as_mut() {
            d.invalidate_from(0);
            self.mark_dirty();
        }
    }

    /// The generation of the latest started build.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

fn follow_level(
    mut commands: Commands,
    current: Res<CurrentLevel>,
    mut build: ResMut<Build>,
    roots: Query<Entity, With<StageRoot>>,
) {
    if current.revision == build.level_revision {
        return;
    }
    build.level_revision = current.revision;
    if let Some(r) = build.running.take() {
        r.cancel.store(true, Ordering::Relaxed);
    }
    match &current.pipeline {
        Some(p) => {
            let mut runner = Runner::new(p.clone(), current.level.clone());
            // Keep the user's parameters across reloads of the same pipeline.
            if let Some(old) = &build.desired
                && old.pipeline().id == p.id
            {
                runner.set_params(old.params().clone());
            }
            build.desired = Some(runner);
            build.mark_dirty();
        }
        None => {
            build.desired = None;
            build.finished = None;
            build.dirty = false;
            for e in &roots {
                commands.entity(e).despawn();
            }
        }
    }
}

fn start_build(mut build: ResMut<Build>, filter: Option<Res<ViewFilter>>) {
    if !build.dirty {
        return;
    }
    build.dirty = false;
    let Some(runner) = build.desired.clone() else {
        return;
    };
    if let Some(r) = build.running.take() {
        r.cancel.store(true, Ordering::Relaxed);
    }
    build.generation += 1;
    let generation = build.generation;
    let cancel = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(AtomicUsize::new(runner.first_missing()));
    let (c, p) = (cancel.clone(), progress.clone());
    let options = filter.map(|f| f.prepare).unwrap_or_default();
    let task =
        AsyncComputeTaskPool::get().spawn(async move { run(runner, generation, options, &c, &p) });
    build.running = Some(Running {
        generation,
        cancel,
        progress,
        started: Instant::now(),
        task,
    });
}

/// Runs the missing stages and prepares their drawing (on a worker thread).
fn run(
    mut runner: Runner,
    generation: u64,
    options: PrepareOptions,
    cancel: &AtomicBool,
    progress: &AtomicUsize,
) -> Finished {
    let from = runner.first_missing();
    let n = runner.pipeline().stages.len();
    if n > 0 {
        runner.run_to(n - 1, cancel, &mut |i| progress.store(i, Ordering::Relaxed));
    }
    let mut stages = Vec::new();
    if !cancel.load(Ordering::Relaxed) {
        let unit = crate::scene::level_extent(runner.level());
        for i in from..n {
            let Some(Ok(artifact)) = runner.result(i).map(|r| &r.outcome) else {
                continue;
            };
            let primitives = artifact.primitives();
            let mut elements: BTreeMap<(String, u32), Vec<Primitive>> = BTreeMap::new();
            for p in &primitives {
                elements
                    .entry((p.kind.clone(), p.element))
                    .or_default()
                    .push(p.clone());
            }
            let geometry = StageGeometry {
                stage: i,
                prepared: draw::prepare(&primitives, unit, &options),
                options,
                primitives: Arc::new(primitives),
                substeps: artifact.substeps(),
                unit,
            };
            let elements = elements
                .into_iter()
                .map(|((kind, element), prims)| {
                    (
                        StageElement {
                            stage: i,
                            kind,
                            element,
                        },
                        prims,
                    )
                })
                .collect();
            stages.push(PublishedStage {
                stage: i,
                elements,
                geometry,
            });
        }
    }
    Finished {
        generation,
        from,
        runner,
        stages,
    }
}

fn finish_build(
    mut commands: Commands,
    mut build: ResMut<Build>,
    mut journal: ResMut<Journal>,
    roots: Query<(Entity, &StageRoot)>,
) {
    let Some(running) = build.running.as_mut() else {
        return;
    };
    let Some(done) = check_ready(&mut running.task) else {
        return;
    };
    let running_generation = running.generation;
    build.running = None;
    if running_generation != build.generation || done.generation != build.generation {
        return;
    }
    for (e, root) in &roots {
        if root.stage >= done.from {
            commands.entity(e).despawn();
        }
    }
    for st in done.stages {
        let root = commands
            .spawn((
                StageRoot { stage: st.stage },
                st.geometry,
                Transform::default(),
                Visibility::Inherited,
            ))
            .id();
        for (el, prims) in st.elements {
            commands.spawn((el, ElementShapes(prims), ChildOf(root)));
        }
    }
    let r = &done.runner;
    let n = r.pipeline().stages.len();
    let mut ran = 0;
    let mut ms = 0.0;
    for i in done.from..n {
        if let Some(res) = r.result(i) {
            ran += 1;
            ms += res.ms;
            if let Err(e) = &res.outcome
                && !matches!(e, StageError::Blocked(_) | StageError::Cancelled)
            {
                journal.error(format!(
                    "{}: stage '{}' failed: {e}",
                    r.level().source,
                    r.pipeline().stages[i].info.id
                ));
            }
        }
    }
    let latency_ms = build
        .changed_at
        .take()
        .map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
    build.last = Some(RunReport {
        from: done.from,
        stages_ran: ran,
        compute_ms: ms,
        latency_ms,
    });
    build.published += 1;
    if build.desired.as_ref().is_some_and(|d| {
        d.params() == done.runner.params() && Arc::ptr_eq(d.pipeline(), done.runner.pipeline())
    }) && !build.dirty
    {
        build.desired = Some(done.runner.clone());
    }
    build.finished = Some(done.runner);
}
