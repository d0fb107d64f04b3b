//! Stages: the pipeline's [`Runner`] lives here and runs off the main thread.
//!
//! The [`Build`] resource holds two runners: the *desired* one (the latest
//! parameters, with every still-valid cached artifact) and the *finished*
//! one the view shows. A change to the level, the pipeline or a parameter
//! edits the desired runner; a following frame hands a clone of it to
//! `AsyncComputeTaskPool`, at most once per [`DEBOUNCE`] (a slider drag),
//! and the last change always builds. The task runs
//! the missing stages one at a time and, after each, prepares that stage's
//! drawing (grouping and triangulating its primitives) and posts it; the
//! frame never waits, it only takes what has arrived.
//!
//! Each stage is *published* as soon as it finishes: the first stage of a
//! build replaces the entities of every stage from the one it started at
//! (they belong to the old build), then each arriving stage spawns a
//! [`StageRoot`] entity carrying the prepared [`StageGeometry`] and the
//! stage's elements as data ([`ElementIndex`], with a hierarchy for
//! picking), and becomes the *finished* runner, so the
//! drawing, the timeline ([`Build::stage_state`]) and the inspector describe
//! the same build. A failed stage publishes nothing and its error goes to
//! the [`Journal`]; the stages before it stay published. Every start bumps a
//! generation counter and sets the previous run's cancel flag, so a
//! superseded run stops at its next stage boundary and what it still sends
//! is dropped unseen; what it had published stays cached for the next build
//! where the inputs match ([`Runner::adopt_from`]). A new level clears the
//! view at once.

pub mod session;
pub mod timeline;

use crate::discard::discard;
use crate::level::CurrentLevel;
use crate::level::budget::MemoryLimit;
use crate::model::band::PrepareOptions;
use crate::model::band::ViewFilter;
use crate::model::elements::StageGeometry;
use crate::model::elements::StageRoot;
use crate::model::index::ElementIndex;
use crate::model::journal::Journal;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use navscope_core::params::{ParamError, ParamValues};
use navscope_core::stage::StageError;
use navscope_core::{MemoryBudget, ParamValue, Pipeline, Runner};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs the current pipeline in the background and publishes its stages.
pub struct StagesPlugin;

impl Plugin for StagesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Build>()
            .init_resource::<Journal>()
            .add_systems(
                Update,
                (
                    follow_level,
                    finish_conversion,
                    follow_budget,
                    start_build,
                    finish_build,
                )
                    .chain()
                    .in_set(StageSystems),
            );
    }
}

/// The systems that start, poll and publish builds (run in `Update`).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct StageSystems;

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
    index: ElementIndex,
    geometry: StageGeometry,
}

/// What the background task sends after each stage: the runner as it is
/// then (its results up to and including `stage`) and that stage's drawing.
struct StageDone {
    generation: u64,
    from: usize,
    stage: usize,
    last: bool,
    runner: Runner,
    published: Option<PublishedStage>,
}

/// Stages finished by the background task, waiting for the main thread.
type Outbox = Arc<Mutex<VecDeque<StageDone>>>;

struct Running {
    generation: u64,
    cancel: Arc<AtomicBool>,
    progress: Arc<AtomicUsize>,
    started: Instant,
    outbox: Outbox,
    task: Task<()>,
}

/// The shortest time between two build starts while parameters keep
/// changing (a slider drag): later changes wait, and the last one always
/// builds.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// A level being converted for the pipeline (a brush level becoming a
/// triangle mesh for `voxel`) on a worker thread.
struct Converting {
    pipeline: Arc<Pipeline>,
    /// The parameters to keep (the same pipeline on a reloaded file).
    keep: Option<ParamValues>,
    task: Task<Result<Arc<navscope_core::level::Level>, String>>,
}

/// The runners and the background task.
#[derive(Resource, Default)]
pub struct Build {
    converting: Option<Converting>,
    desired: Option<Runner>,
    finished: Option<Runner>,
    dirty: bool,
    generation: u64,
    running: Option<Running>,
    level_revision: u64,
    changed_at: Option<Instant>,
    last_start: Option<Instant>,
    from: usize,
    /// The last stage the running build has published (None before its
    /// first).
    current_published: Option<usize>,
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

    /// The pipeline being built (or whose level is being converted).
    pub fn pipeline(&self) -> Option<&Arc<Pipeline>> {
        self.desired
            .as_ref()
            .map(|r| r.pipeline())
            .or(self.converting.as_ref().map(|c| &c.pipeline))
    }

    /// The parameters being built with (the latest edits).
    pub fn params(&self) -> Option<&ParamValues> {
        self.desired
            .as_ref()
            .map(|r| r.params())
            .or(self.converting.as_ref().and_then(|c| c.keep.as_ref()))
    }

    /// Sets a parameter; on a change, the stages from the first that reads it
    /// re-run in the background. Returns that stage's index.
    pub fn set_param(
        &mut self,
        name: &str,
        value: ParamValue,
    ) -> Result<Option<usize>, ParamError> {
        let Some(r) = self.desired.as_mut() else {
            // The level is still being converted: the runner will start
            // with this value.
            if let Some(c) = self.converting.as_mut() {
                let values = c
                    .keep
                    .get_or_insert_with(|| ParamValues::defaults(&c.pipeline.params));
                values.set(&c.pipeline.params, name, value)?;
                return Ok(Some(0));
            }
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
        if self.desired.is_none()
            && let Some(c) = self.converting.as_mut()
        {
            // The runner made after the conversion starts with them.
            c.keep = Some(values);
            return Some(0);
        }
        let first = self.desired.as_mut()?.set_params(values);
        if first.is_some() {
            self.mark_dirty();
        }
        first
    }

    /// Builds within `budget` from now on. A budget changes only whether a
    /// stage may run, so only the stages from the first failed one on run
    /// again (a refusal may now pass).
    pub fn set_budget(&mut self, budget: MemoryBudget) {
        if self
            .desired
            .as_mut()
            .is_some_and(|d| d.set_budget(budget).is_some())
        {
            self.mark_dirty();
        }
    }

    fn mark_dirty(&mut self) {
        self.dirty = true;
        self.changed_at.get_or_insert_with(Instant::now);
    }

    /// True while a build is running or about to start (its level being
    /// converted, too).
    pub fn is_busy(&self) -> bool {
        self.dirty || self.running.is_some() || self.converting.is_some()
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

    /// Stops the running build at its next stage boundary. The stages it
    /// already published stay on screen, and stay cached for the next build
    /// as long as their inputs still match.
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
        }
        self.dirty = false;
        self.changed_at = None;
        // Keep what was finished of *this* level and pipeline (never fall
        // back to another level's runner: `adopt_from` checks both).
        if let (Some(d), Some(f)) = (self.desired.as_mut(), self.finished.as_ref()) {
            d.adopt_from(f);
        }
    }

    /// The state of stage `i` in the build the view shows.
    pub fn stage_state(&self, i: usize) -> StageState {
        if let Some(r) = &self.running
            && i >= self.from
        {
            let at = r.progress.load(Ordering::Relaxed);
            if self.published_from_current(i)
                && let Some(res) = self.finished.as_ref().and_then(|f| f.result(i))
            {
                return if res.outcome.is_err() {
                    StageState::Failed
                } else {
                    StageState::Finished
                };
            }
            return if i == at {
                StageState::Running(r.started.elapsed().as_secs_f32())
            } else {
                StageState::Pending
            };
        }
        match self.finished.as_ref().and_then(|f| f.result(i)) {
            Some(r) if r.outcome.is_err() => StageState::Failed,
            Some(_) => StageState::Finished,
            None if self.dirty => StageState::Pending,
            None => StageState::NotRun,
        }
    }

    fn published_from_current(&self, i: usize) -> bool {
        self.current_published.is_some_and(|last| i <= last)
    }

    /// Runs the stages that are missing (after a cancel), keeping the ones
    /// that finished.
    pub fn resume(&mut self) {
        if self
            .desired
            .as_ref()
            .is_some_and(|d| d.first_missing() < d.pipeline().stages.len())
        {
            self.mark_dirty();
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

/// Where a stage stands in the build on screen, for the timeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StageState {
    /// Its result is on screen.
    Finished,
    /// It failed (or an earlier stage did); its error is on screen.
    Failed,
    /// The background build is running it, for this many seconds so far.
    Running(f32),
    /// It waits for an earlier stage of the running build.
    Pending,
    /// Nothing has run it (no pipeline, or nothing started yet).
    NotRun,
}

/// A published stage's entity with what it holds, for [`remove_stage`].
type StageParts<'a> = (
    Entity,
    &'a StageRoot,
    &'a mut StageGeometry,
    &'a mut ElementIndex,
);

/// Despawns a published stage; its primitives, drawing data and element
/// index are freed on a worker thread (see [`discard`]).
fn remove_stage(
    commands: &mut Commands,
    e: Entity,
    geometry: &mut StageGeometry,
    index: &mut ElementIndex,
) {
    discard((std::mem::take(geometry), std::mem::take(index)));
    commands.entity(e).despawn();
}

fn follow_level(
    mut commands: Commands,
    current: Res<CurrentLevel>,
    mut build: ResMut<Build>,
    mut roots: Query<StageParts>,
) {
    if current.revision == build.level_revision {
        return;
    }
    build.level_revision = current.revision;
    if let Some(r) = build.running.take() {
        r.cancel.store(true, Ordering::Relaxed);
    }
    // Another level (or a reload): what is on screen belongs to the old
    // one, so it goes at once; the drawing, the timeline and the inspector
    // always describe the same build.
    for (e, _, mut geometry, mut index) in &mut roots {
        remove_stage(&mut commands, e, &mut geometry, &mut index);
    }
    if let Some(old) = build.finished.take() {
        discard(old);
    }
    build.current_published = None;
    // A level of another kind reaches the pipeline through its documented
    // conversion (a brush level becomes a triangle mesh for `voxel`), on a
    // worker thread: a big map must not stall the frame.
    let previous = build.pipeline().map(|p| p.id).zip(build.params().cloned());
    if let Some(old) = build.desired.take() {
        discard(old);
    }
    build.dirty = false;
    build.converting = None;
    if let Some(p) = &current.pipeline {
        let keep = previous.filter(|(id, _)| *id == p.id).map(|(_, v)| v);
        let (pipeline, level) = (p.clone(), current.level.clone());
        let task = AsyncComputeTaskPool::get()
            .spawn(async move { navscope_pipelines::level_for(&pipeline, &level) });
        build.converting = Some(Converting {
            pipeline: p.clone(),
            keep,
            task,
        });
    }
}

/// Makes the runner once the level is converted for the pipeline.
fn finish_conversion(
    mut build: ResMut<Build>,
    mut journal: ResMut<Journal>,
    limit: Res<MemoryLimit>,
    current: Res<CurrentLevel>,
) {
    let Some(c) = build.converting.as_mut() else {
        return;
    };
    let Some(result) = block_on(poll_once(&mut c.task)) else {
        return;
    };
    let Some(c) = build.converting.take() else {
        return;
    };
    match result {
        Err(e) => journal.error(e),
        Ok(level) => {
            let mut runner = Runner::new(c.pipeline, level);
            runner.set_budget(limit.0);
            // Keep the user's parameters across reloads of the same
            // pipeline; a level opened anew gets its agent preset (Quake's
            // player for a Quake map), as the command line builds it.
            if let Some(values) = c.keep {
                runner.set_params(values);
            } else if let Some(p) = navscope_pipelines::agents::for_level(&current.level) {
                let (pipeline, values) = (runner.pipeline().clone(), runner.params().clone());
                match crate::model::agent::with_agent(&pipeline, &current.level, &values, Some(p)) {
                    Ok(v) => {
                        runner.set_params(v);
                    }
                    Err(e) => journal.error(e),
                }
            }
            build.desired = Some(runner);
            build.mark_dirty();
        }
    }
}

/// Hands a new memory budget to the build.
fn follow_budget(mut build: ResMut<Build>, limit: Res<MemoryLimit>) {
    if limit.is_changed() {
        build.set_budget(limit.0);
    }
}

fn start_build(mut build: ResMut<Build>, filter: Option<Res<ViewFilter>>) {
    if !build.dirty {
        return;
    }
    // A change waits until DEBOUNCE has passed since the last build
    // started (a slider drag builds at most that often); it stays dirty, so
    // the last change always builds.
    if build.last_start.is_some_and(|t| t.elapsed() < DEBOUNCE) {
        return;
    }
    build.dirty = false;
    // Stages an interrupted build already finished stay cached when their
    // inputs still match.
    let b = &mut *build;
    if let (Some(d), Some(f)) = (b.desired.as_mut(), b.finished.as_ref()) {
        d.adopt_from(f);
    }
    let Some(runner) = build.desired.clone() else {
        return;
    };
    if let Some(r) = build.running.take() {
        r.cancel.store(true, Ordering::Relaxed);
    }
    build.generation += 1;
    build.last_start = Some(Instant::now());
    build.current_published = None;
    let generation = build.generation;
    let from = runner.first_missing();
    build.from = from;
    let cancel = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(AtomicUsize::new(from));
    let outbox: Outbox = Arc::default();
    let (c, p, o) = (cancel.clone(), progress.clone(), outbox.clone());
    let options = filter.map(|f| f.prepare).unwrap_or_default();
    let task = AsyncComputeTaskPool::get()
        .spawn(async move { run(runner, generation, options, &c, &p, &o) });
    build.running = Some(Running {
        generation,
        cancel,
        progress,
        started: Instant::now(),
        outbox,
        task,
    });
}

/// Prepares stage `i`'s drawing and elements (on a worker thread).
fn publish(runner: &Runner, i: usize, options: &PrepareOptions) -> Option<PublishedStage> {
    let Some(Ok(artifact)) = runner.result(i).map(|r| &r.outcome) else {
        return None;
    };
    let unit = crate::model::extent::level_extent(runner.level());
    let primitives = crate::model::elements::stage_primitives(artifact.as_ref());
    let substeps = crate::model::substeps::SubSteps::of(artifact);
    let geometry = StageGeometry {
        stage: i,
        prepared: crate::model::prepare::prepare_for_drawing(
            &primitives,
            unit,
            options,
            substeps.len(),
        ),
        options: *options,
        primitives: primitives.clone(),
        substeps,
        unit,
    };
    Some(PublishedStage {
        stage: i,
        index: ElementIndex::new(primitives),
        geometry,
    })
}

/// Runs the missing stages one at a time and hands each to the main thread
/// as soon as it and its drawing are ready (on a worker thread).
fn run(
    mut runner: Runner,
    generation: u64,
    options: PrepareOptions,
    cancel: &AtomicBool,
    progress: &AtomicUsize,
    outbox: &Mutex<VecDeque<StageDone>>,
) {
    let from = runner.first_missing();
    let n = runner.pipeline().stages.len();
    let send = |done: StageDone| {
        if let Ok(mut q) = outbox.lock() {
            q.push_back(done);
        }
    };
    if from >= n {
        send(StageDone {
            generation,
            from,
            stage: n,
            last: true,
            runner,
            published: None,
        });
        return;
    }
    for i in from..n {
        runner.run_to(i, cancel, &mut |i| progress.store(i, Ordering::Relaxed));
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let failed = runner.result(i).is_none_or(|r| r.outcome.is_err());
        let last = i + 1 == n || failed;
        let published = publish(&runner, i, &options);
        if last {
            // A failure blocks every later stage: its result is final.
            runner.run_to(n - 1, cancel, &mut |_| {});
        }
        send(StageDone {
            generation,
            from,
            stage: i,
            last,
            runner: runner.clone(),
            published,
        });
        if last {
            return;
        }
        progress.store(i + 1, Ordering::Relaxed);
    }
}

fn finish_build(
    mut commands: Commands,
    mut build: ResMut<Build>,
    mut journal: ResMut<Journal>,
    mut roots: Query<StageParts>,
) {
    let Some(running) = build.running.as_ref() else {
        return;
    };
    // Whether the task has ended is read before the outbox is drained: a
    // message sent between the two reads would otherwise be dropped with
    // the task, and the build would never be reported.
    let task_done = running.task.is_finished();
    let arrived: Vec<StageDone> = running
        .outbox
        .lock()
        .map(|mut q| q.drain(..).collect())
        .unwrap_or_default();
    let running_generation = running.generation;
    for done in arrived {
        if done.generation != running_generation || done.generation != build.generation {
            continue;
        }
        // The first stage of a build replaces everything from the stage it
        // started at: later stages of the old build no longer match it.
        if build.current_published.is_none() {
            for (e, root, mut geometry, mut index) in &mut roots {
                if root.stage >= done.from {
                    remove_stage(&mut commands, e, &mut geometry, &mut index);
                }
            }
        }
        if let Some(st) = done.published {
            commands.spawn((
                StageRoot { stage: st.stage },
                st.geometry,
                st.index,
                Transform::default(),
                Visibility::Inherited,
            ));
        }
        build.current_published = Some(done.stage);
        // `adopt_from` itself keeps only stages whose inputs still match.
        if let Some(d) = build.desired.as_mut() {
            d.adopt_from(&done.runner);
        }
        if let Some(old) = build.finished.replace(done.runner) {
            discard(old);
        }
        if done.last {
            report(&mut build, &mut journal, done.from);
            build.running = None;
            return;
        }
    }
    if task_done {
        // Cancelled (or it stopped without a last message): nothing more
        // will arrive.
        build.running = None;
    }
}

/// Logs the failures of a finished build and records what it did.
fn report(build: &mut Build, journal: &mut Journal, from: usize) {
    let Some(r) = build.finished.as_ref() else {
        return;
    };
    let n = r.pipeline().stages.len();
    let mut ran = 0;
    let mut ms = 0.0;
    for i in from..n {
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
        from,
        stages_ran: ran,
        compute_ms: ms,
        latency_ms,
    });
    build.published += 1;
}
