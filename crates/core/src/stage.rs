//! Stages, pipelines and the caching runner.
//!
//! A pipeline is an ordered list of stages; a stage is a pure function of the
//! level, the parameters it declares and the artifacts of earlier stages. It
//! returns one artifact: plain serde data that can count itself, draw itself
//! as [`Primitive`]s, record sub-steps and, for the last stage, hand over the
//! common [`NavMesh`].
//!
//! The [`Runner`] runs stages in order, caches their artifacts, times and
//! counts each one, re-runs only the stages a parameter change invalidates
//! (the first stage that reads the parameter and every stage after it), can
//! be cancelled between stages, and turns a panic inside a stage into an
//! error result so its caller never crashes. A `Runner` is cheap to clone
//! (artifacts are shared), so a UI can run it on a worker thread.
//!
//! The runner also carries the [`MemoryBudget`] every stage checks its large
//! allocations against ([`Runner::set_budget`], [`StageContext::budget`]).

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use glam::Vec3;
use serde::Serialize;
use thiserror::Error;

use crate::budget::{MemoryBudget, OverBudget};
use crate::draw::{Primitive, SubStep};
use crate::facts::LevelFacts;
use crate::level::{Level, LevelKind};
use crate::navmesh::{NavMesh, StageRecord, StampedNavMesh};
use crate::outside::Seal;
use crate::params::{ParamError, ParamSpec, ParamValue, ParamValues};

/// Serialises an artifact to JSON for inspection; implemented for every
/// `Serialize` type, so artifacts only derive `Serialize`.
pub trait ToJson {
    /// The artifact as a JSON value.
    fn to_json(&self) -> serde_json::Value;
}

impl<T: Serialize> ToJson for T {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// The output of a stage.
pub trait Artifact: Any + Send + Sync + Debug + ToJson {
    /// Element counts, e.g. `{"notches": 17}`.
    fn counts(&self) -> BTreeMap<String, u64>;

    /// Everything the artifact draws.
    fn primitives(&self) -> Vec<Primitive>;

    /// Sub-steps recorded while the stage ran (empty when it has none).
    fn substeps(&self) -> Vec<SubStep> {
        Vec::new()
    }

    /// Sub-step `i` of [`Artifact::substeps`] alone (`None` past the
    /// last), for a viewer that shows one at a time and would rather not
    /// keep every sub-step's highlights: a stage of thousands of sub-steps
    /// holds tens of megabytes of them. The default makes them all and
    /// keeps one; an artifact of many sub-steps makes just the one.
    fn substep(&self, i: usize) -> Option<SubStep> {
        self.substeps().into_iter().nth(i)
    }

    /// Named metrics (lengths, ratios), collected into the NavMesh.
    fn metrics(&self) -> BTreeMap<String, f64> {
        BTreeMap::new()
    }

    /// The navigation mesh, for the stage that produces it.
    fn navmesh(&self) -> Option<&NavMesh> {
        None
    }

    /// The method's own path between two world points, for methods whose
    /// paths are more than a search over the NavMesh (a corridor that keeps a
    /// clearance, retraction onto a medial axis). `None`: this artifact does
    /// not answer path queries, and a viewer searches the NavMesh instead.
    fn path_between(&self, from: Vec3, to: Vec3) -> Option<Result<PathAnswer, String>> {
        let _ = (from, to);
        None
    }

    /// The fields of one element (by the id its primitives carry), for an
    /// inspector. The default summarises the element's drawn shapes as a
    /// designer reads them ([`crate::describe::primitives`]).
    fn describe(&self, element: u32) -> serde_json::Value {
        let prims: Vec<_> = self
            .primitives()
            .into_iter()
            .filter(|p| p.element == element)
            .collect();
        crate::describe::primitives(&prims.iter().collect::<Vec<_>>())
    }

    /// The fields of the element `element` of kind `kind`, for an inspector.
    /// Element ids are unique per kind only, so a viewer that knows the kind
    /// of what was clicked asks this. Artifacts that draw several kinds
    /// whose ids overlap override it; the default answers
    /// [`describe`](Self::describe) when every primitive with that id is of
    /// one kind family (`cell` and `cell/centroid` are one element), and
    /// the element's primitives of that kind when families share the id.
    /// A drawing of the artifact's NavMesh (a node, a link) is described
    /// as the node or link ([`crate::describe::navmesh_element`]).
    fn describe_element(&self, kind: &str, element: u32) -> serde_json::Value {
        let prims: Vec<_> = self
            .primitives()
            .into_iter()
            .filter(|p| p.element == element)
            .collect();
        let refs: Vec<&Primitive> = prims.iter().collect();
        if let Some(mesh) = self.navmesh()
            && let Some(mut v) = crate::describe::navmesh_element(mesh, kind, element, &refs)
        {
            // What the artifact says of its own (a node's name, a problem
            // found) joins the node's fields; its drawn shapes do not.
            let own = self.describe(element);
            if own != crate::describe::primitives(&refs)
                && let (Some(fields), serde_json::Value::Object(own)) = (v.as_object_mut(), own)
            {
                for (k, x) in own {
                    fields.entry(k).or_insert(x);
                }
            }
            return v;
        }
        // Kinds of one family (`cell`, `cell/centroid`) are one element.
        let family = |k: &str| k.split('/').next().unwrap_or(k).to_string();
        let families: std::collections::BTreeSet<String> =
            prims.iter().map(|p| family(&p.kind)).collect();
        if families.len() <= 1 {
            return self.describe(element);
        }
        let own: Vec<_> = prims.iter().filter(|p| p.kind == kind).collect();
        crate::describe::primitives(&own)
    }
}

/// A pipeline's own answer to a path query ([`Artifact::path_between`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathAnswer {
    /// The path's waypoints, start first, goal last (world metres).
    pub waypoints: Vec<Vec3>,
    /// Its length in metres.
    pub length: f64,
    /// One line on how it was found (expansions, clearance kept).
    pub summary: String,
    /// How to draw it: the path and whatever explains it (its corridor).
    pub primitives: Vec<Primitive>,
}

/// Why a stage produced no artifact.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum StageError {
    /// The input or the geometry is bad; the message names the element.
    #[error("{0}")]
    Failed(String),
    /// The stage panicked; this is a bug in navscope, reported, not fatal.
    #[error("internal error (panic): {0}")]
    Panicked(String),
    /// The run was cancelled before this stage.
    #[error("cancelled")]
    Cancelled,
    /// An earlier stage failed, so this one could not run.
    #[error("not run: stage '{0}' failed")]
    Blocked(String),
}

impl StageError {
    /// A failure with a message.
    pub fn failed(msg: impl Into<String>) -> Self {
        StageError::Failed(msg.into())
    }
}

/// A refused allocation fails the stage with the refusal's one line.
impl From<OverBudget> for StageError {
    fn from(e: OverBudget) -> Self {
        StageError::Failed(e.to_string())
    }
}

/// Describes a stage to the runner, the app and the learner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageInfo {
    /// Identifier, e.g. `notches`.
    pub id: &'static str,
    /// Title, e.g. `Notches and areas of interest`.
    pub title: &'static str,
    /// A paragraph explaining the stage to a learner.
    pub explanation: &'static str,
    /// Paper and section implemented, e.g. `Oliva & Pelechano §3.1`.
    pub paper: &'static str,
    /// Names of the parameters the stage reads.
    pub params: &'static [&'static str],
}

impl StageInfo {
    /// A stage's description, its arguments in the fields' order: the id,
    /// the title, the learner's paragraph, the paper and section, and the
    /// names of the parameters it reads. Every pipeline's stage table is
    /// written with it.
    pub const fn new(
        id: &'static str,
        title: &'static str,
        explanation: &'static str,
        paper: &'static str,
        params: &'static [&'static str],
    ) -> Self {
        StageInfo {
            id,
            title,
            explanation,
            paper,
            params,
        }
    }
}

/// The signature of a stage function.
pub type StageFn = fn(&StageContext) -> Result<Arc<dyn Artifact>, StageError>;

/// One stage: its description and its pure function.
#[derive(Clone)]
pub struct Stage {
    /// Description.
    pub info: StageInfo,
    /// The function.
    pub run: StageFn,
}

impl Debug for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stage").field("id", &self.info.id).finish()
    }
}

/// What a stage function sees.
pub struct StageContext<'a> {
    /// The level.
    pub level: &'a Level,
    /// All parameter values of the pipeline.
    pub params: &'a ParamValues,
    /// The memory budget the stage checks its large allocations against
    /// (see [`crate::budget`]).
    pub budget: MemoryBudget,
    earlier: Vec<(&'static str, Arc<dyn Artifact>)>,
    facts: Arc<LevelFacts>,
}

impl<'a> StageContext<'a> {
    /// A context for running a stage by hand (tests, benchmarks):
    /// `earlier` holds the artifacts of the stages before it. The budget is
    /// the default one; see [`with_budget`](Self::with_budget).
    pub fn new(
        level: &'a Level,
        params: &'a ParamValues,
        earlier: Vec<(&'static str, Arc<dyn Artifact>)>,
    ) -> Self {
        Self {
            level,
            params,
            budget: MemoryBudget::default(),
            earlier,
            facts: Arc::default(),
        }
    }

    /// The same context with another memory budget.
    pub fn with_budget(mut self, budget: MemoryBudget) -> Self {
        self.budget = budget;
        self
    }

    /// The same context with the level's facts worked out so far (a
    /// runner's, shared by its stages; [`new`](Self::new) starts empty).
    pub fn with_facts(mut self, facts: Arc<LevelFacts>) -> Self {
        self.facts = facts;
        self
    }

    /// The seal of the level when it is a brush level, flooded once per
    /// level ([`LevelFacts::seal`]).
    pub fn seal(&self) -> Option<&Seal> {
        self.facts.seal(self.level)
    }

    /// The artifact of the earlier stage `id`, downcast to its type.
    pub fn artifact<T: Artifact>(&self, id: &str) -> Result<&T, StageError> {
        let a = self
            .earlier
            .iter()
            .find(|(s, _)| *s == id)
            .ok_or_else(|| StageError::Failed(format!("stage '{id}' has not run")))?;
        let any: &dyn Any = a.1.as_ref();
        any.downcast_ref::<T>().ok_or_else(|| {
            StageError::Failed(format!("stage '{id}' produced an unexpected artifact type"))
        })
    }
}

/// A pipeline: ordered stages, the parameters they read and the level kinds
/// it accepts.
#[derive(Clone, Debug)]
pub struct Pipeline {
    /// Identifier used by `--pipeline`, e.g. `convex`.
    pub id: &'static str,
    /// Title, e.g. `ANavMG convex decomposition`.
    pub title: &'static str,
    /// Level kinds it can build from.
    pub accepts: Vec<LevelKind>,
    /// Every parameter any stage reads.
    pub params: Vec<ParamSpec>,
    /// The stages in order.
    pub stages: Vec<Stage>,
    /// Former stage ids that still name a stage, `(former, current)`:
    /// stage ids are part of presets, saved state and `--stage`, so a
    /// renamed stage keeps its former id as an alias. A current id always
    /// wins over an alias ([`Pipeline::check`] refuses an alias that is one).
    pub stage_aliases: &'static [(&'static str, &'static str)],
}

impl Pipeline {
    /// Index of the stage with this id, or with the id this former id
    /// became (see [`Pipeline::stage_aliases`]).
    pub fn stage_index(&self, id: &str) -> Option<usize> {
        let by_id = |id: &str| self.stages.iter().position(|s| s.info.id == id);
        by_id(id).or_else(|| {
            let (_, current) = self.stage_aliases.iter().find(|(f, _)| *f == id)?;
            by_id(current)
        })
    }

    /// Index of the first stage that reads parameter `name`.
    pub fn first_reader(&self, name: &str) -> Option<usize> {
        self.stages
            .iter()
            .position(|s| s.info.params.contains(&name))
    }

    /// Checks the pipeline's own consistency: unique stage ids, every
    /// parameter a stage reads is declared, every declared parameter is read
    /// and its default is valid. For tests of each pipeline crate.
    pub fn check(&self) -> Result<(), String> {
        for (i, s) in self.stages.iter().enumerate() {
            if self.stages[..i].iter().any(|t| t.info.id == s.info.id) {
                return Err(format!("stage id '{}' is used twice", s.info.id));
            }
            for p in s.info.params {
                if !self.params.iter().any(|q| q.name == *p) {
                    return Err(format!(
                        "stage '{}' reads undeclared parameter '{p}'",
                        s.info.id
                    ));
                }
            }
        }
        for (former, current) in self.stage_aliases {
            if self.stages.iter().any(|s| s.info.id == *former) {
                return Err(format!("alias '{former}' is a stage id"));
            }
            if !self.stages.iter().any(|s| s.info.id == *current) {
                return Err(format!("alias '{former}' names no stage '{current}'"));
            }
        }
        for p in &self.params {
            if self.first_reader(&p.name).is_none() {
                return Err(format!("parameter '{}' is read by no stage", p.name));
            }
            p.check(&p.default).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// The result of one stage run.
#[derive(Clone, Debug)]
pub struct StageResult {
    /// The artifact, or why there is none.
    pub outcome: Result<Arc<dyn Artifact>, StageError>,
    /// Wall time in milliseconds.
    pub ms: f64,
    /// Element counts (empty on failure).
    pub counts: BTreeMap<String, u64>,
}

/// Runs a pipeline on a level, caching artifacts.
#[derive(Clone, Debug)]
pub struct Runner {
    pipeline: Arc<Pipeline>,
    level: Arc<Level>,
    facts: Arc<LevelFacts>,
    params: ParamValues,
    budget: MemoryBudget,
    results: Vec<Option<StageResult>>,
    executions: Vec<u64>,
}

impl Runner {
    /// A runner with the pipeline's default parameters; nothing has run.
    pub fn new(pipeline: Arc<Pipeline>, level: Arc<Level>) -> Self {
        let params = ParamValues::defaults(&pipeline.params);
        let n = pipeline.stages.len();
        Self {
            pipeline,
            level,
            facts: Arc::default(),
            params,
            budget: MemoryBudget::default(),
            results: vec![None; n],
            executions: vec![0; n],
        }
    }

    /// The pipeline.
    pub fn pipeline(&self) -> &Arc<Pipeline> {
        &self.pipeline
    }

    /// The level.
    pub fn level(&self) -> &Arc<Level> {
        &self.level
    }

    /// The seal of the level when it is a brush level, flooded once for
    /// this runner and its clones ([`LevelFacts::seal`]).
    pub fn seal(&self) -> Option<&Seal> {
        self.facts.seal(&self.level)
    }

    /// Current parameter values.
    pub fn params(&self) -> &ParamValues {
        &self.params
    }

    /// The memory budget stages check their large allocations against.
    pub fn budget(&self) -> MemoryBudget {
        self.budget
    }

    /// Sets the memory budget. A budget does not change what a stage
    /// produces, only whether it may run, so on a change only the results
    /// from the first failed stage on are dropped (a refusal may now pass);
    /// returns that stage's index.
    pub fn set_budget(&mut self, budget: MemoryBudget) -> Option<usize> {
        if budget == self.budget {
            return None;
        }
        self.budget = budget;
        let failed = self
            .results
            .iter()
            .position(|r| r.as_ref().is_some_and(|r| r.outcome.is_err()))?;
        self.invalidate_from(failed);
        Some(failed)
    }

    /// Sets one parameter. On a change, drops the cached results of the
    /// first stage that reads it and of every later stage, and returns that
    /// stage's index.
    pub fn set_param(
        &mut self,
        name: &str,
        value: ParamValue,
    ) -> Result<Option<usize>, ParamError> {
        if !self.params.set(&self.pipeline.params, name, value)? {
            return Ok(None);
        }
        let first = self
            .pipeline
            .first_reader(name)
            .unwrap_or(self.results.len());
        self.invalidate_from(first);
        Ok(Some(first))
    }

    /// Replaces every parameter (a preset); invalidates from the first stage
    /// that reads a changed one and returns its index.
    pub fn set_params(&mut self, values: ParamValues) -> Option<usize> {
        let first = self
            .pipeline
            .params
            .iter()
            .filter(|s| self.params.get(&s.name) != values.get(&s.name))
            .filter_map(|s| self.pipeline.first_reader(&s.name))
            .min();
        self.params = values;
        if let Some(f) = first {
            self.invalidate_from(f);
        }
        first
    }

    /// Takes over `other`'s cached results for the stages this runner is
    /// missing, from its first missing stage on, as long as they are still
    /// valid here: same pipeline and level, and every parameter read by that
    /// stage and the ones before it has the same value in both. Used to keep
    /// the stages a cancelled build finished. A failure is taken only under
    /// the same memory budget (a refusal may pass under another one). Returns
    /// how many it took.
    pub fn adopt_from(&mut self, other: &Runner) -> usize {
        if !Arc::ptr_eq(&self.pipeline, &other.pipeline) || !Arc::ptr_eq(&self.level, &other.level)
        {
            return 0;
        }
        // The two share a history: keep the larger execution counts.
        for (mine, theirs) in self.executions.iter_mut().zip(&other.executions) {
            *mine = (*mine).max(*theirs);
        }
        let mut taken = 0;
        for i in 0..self.results.len() {
            let same_inputs = self.pipeline.stages[i]
                .info
                .params
                .iter()
                .all(|n| self.params.get(n) == other.params.get(n));
            if !same_inputs {
                break;
            }
            if self.results[i].is_some() {
                continue;
            }
            let still_valid = |r: &StageResult| match &r.outcome {
                Ok(_) => true,
                Err(StageError::Cancelled) => false,
                Err(_) => self.budget == other.budget,
            };
            match other.results.get(i).cloned().flatten() {
                Some(r) if still_valid(&r) => {
                    self.results[i] = Some(r);
                    taken += 1;
                }
                _ => break,
            }
        }
        taken
    }

    /// Drops the cached results of stage `first` and every later stage.
    pub fn invalidate_from(&mut self, first: usize) {
        for r in self.results.iter_mut().skip(first) {
            *r = None;
        }
    }

    /// Index of the first stage without a cached result (the stage count
    /// when all are cached).
    pub fn first_missing(&self) -> usize {
        self.results
            .iter()
            .position(Option::is_none)
            .unwrap_or(self.results.len())
    }

    /// Runs every missing stage up to and including `last`, in order, with
    /// `progress(index)` called before each stage runs. Stops early when
    /// `cancel` is set (remaining stages stay missing) and, after a failed
    /// stage, marks the later ones as blocked. Returns how many stages ran.
    pub fn run_to(
        &mut self,
        last: usize,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(usize),
    ) -> usize {
        let last = last.min(self.results.len().saturating_sub(1));
        let mut ran = 0;
        for i in 0..=last.min(self.results.len().saturating_sub(1)) {
            if self.results.is_empty() {
                break;
            }
            if let Some(r) = &self.results[i] {
                if let Err(e) = &r.outcome {
                    if !matches!(e, StageError::Cancelled) {
                        self.block_after(i, last);
                        break;
                    }
                } else {
                    continue;
                }
            }
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            progress(i);
            self.results[i] = Some(self.execute(i));
            self.executions[i] += 1;
            ran += 1;
            if self.results[i].as_ref().is_some_and(|r| r.outcome.is_err()) {
                self.block_after(i, last);
                break;
            }
        }
        ran
    }

    /// Runs every stage.
    pub fn run_all(&mut self) -> usize {
        let n = self.results.len();
        if n == 0 {
            return 0;
        }
        self.run_to(n - 1, &AtomicBool::new(false), &mut |_| {})
    }

    fn block_after(&mut self, failed: usize, last: usize) {
        let id = self.pipeline.stages[failed].info.id.to_string();
        for j in failed + 1..=last {
            self.results[j] = Some(StageResult {
                outcome: Err(StageError::Blocked(id.clone())),
                ms: 0.0,
                counts: BTreeMap::new(),
            });
        }
    }

    /// Runs stage `i` alone on the cached artifacts of stages `0..i`, with
    /// the runner's level, parameters and budget, and returns its artifact
    /// (or its error; a panic becomes [`StageError::Panicked`]). Nothing is
    /// stored: the cached results of stage `i` and of every later stage are
    /// left as they are, and neither the stage's time nor its counts are
    /// taken, so the call costs the stage's own work alone (for benchmarks
    /// that time one stage on its predecessors' results: run them once with
    /// [`run_to`](Self::run_to), then call this repeatedly).
    ///
    /// Before running anything it answers [`StageError::Blocked`] when an
    /// earlier stage failed, and [`StageError::Failed`] when one has not run
    /// or `i` is past the last stage.
    pub fn run_stage(&self, i: usize) -> Result<Arc<dyn Artifact>, StageError> {
        if i >= self.results.len() {
            return Err(StageError::failed(format!(
                "no stage {i}: the pipeline has {}",
                self.results.len()
            )));
        }
        for (s, r) in self.pipeline.stages[..i].iter().zip(&self.results) {
            match r.as_ref().map(|r| &r.outcome) {
                None | Some(Err(StageError::Cancelled)) => {
                    return Err(StageError::failed(format!(
                        "stage '{}' has not run",
                        s.info.id
                    )));
                }
                Some(Err(_)) => return Err(StageError::Blocked(s.info.id.to_string())),
                Some(Ok(_)) => {}
            }
        }
        self.call(i)
    }

    /// Stage `i`'s function on the cached artifacts of the stages before
    /// it, a panic turned into an error.
    fn call(&self, i: usize) -> Result<Arc<dyn Artifact>, StageError> {
        let earlier = self.pipeline.stages[..i]
            .iter()
            .zip(&self.results)
            .filter_map(|(s, r)| Some((s.info.id, r.as_ref()?.outcome.as_ref().ok()?.clone())))
            .collect();
        let ctx = StageContext::new(&self.level, &self.params, earlier)
            .with_budget(self.budget)
            .with_facts(self.facts.clone());
        let f = self.pipeline.stages[i].run;
        match catch_unwind(AssertUnwindSafe(|| f(&ctx))) {
            Ok(r) => r,
            Err(payload) => Err(StageError::Panicked(panic_message(payload.as_ref()))),
        }
    }

    fn execute(&self, i: usize) -> StageResult {
        let start = Instant::now();
        let outcome = self.call(i);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let counts = outcome.as_ref().map(|a| a.counts()).unwrap_or_default();
        StageResult {
            outcome,
            ms,
            counts,
        }
    }

    /// The cached result of stage `i`.
    pub fn result(&self, i: usize) -> Option<&StageResult> {
        self.results.get(i)?.as_ref()
    }

    /// How many times stage `i` has executed over this runner's life (for
    /// checking the cache).
    pub fn executions(&self, i: usize) -> u64 {
        self.executions.get(i).copied().unwrap_or(0)
    }

    /// The first stage error, with the stage's index.
    pub fn first_error(&self) -> Option<(usize, &StageError)> {
        self.results
            .iter()
            .enumerate()
            .find_map(|(i, r)| Some((i, r.as_ref()?.outcome.as_ref().err()?)))
    }

    /// The NavMesh of the last stage that produced one, stamped with the
    /// pipeline, the level, every stage's time and counts and every
    /// artifact's metrics (an owned copy of [`Runner::stamped_navmesh`]).
    pub fn navmesh(&self) -> Option<NavMesh> {
        Some(self.stamped_navmesh()?.to_navmesh())
    }

    /// The same NavMesh borrowed from its artifact, with the stamped
    /// fields beside it: for writing or counting without a copy.
    pub fn stamped_navmesh(&self) -> Option<StampedNavMesh<'_>> {
        let mesh = self
            .results
            .iter()
            .rev()
            .find_map(|r| r.as_ref()?.outcome.as_ref().ok()?.navmesh())?;
        let mut stamped = StampedNavMesh {
            mesh,
            pipeline: self.pipeline.id.to_string(),
            level: self.level.source.clone(),
            metrics: mesh.metrics.clone(),
            stages: Vec::new(),
        };
        for (s, r) in self.pipeline.stages.iter().zip(&self.results) {
            if let Some(r) = r {
                stamped.stages.push(StageRecord {
                    id: s.info.id.to_string(),
                    ms: r.ms,
                    counts: r.counts.clone(),
                });
                if let Ok(a) = &r.outcome {
                    stamped.metrics.extend(a.metrics());
                }
            }
        }
        Some(stamped)
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Shape;
    use crate::level::{FloorPlan, LevelData};
    use glam::Vec3;

    #[derive(Debug, Serialize)]
    struct Num(f64);

    impl Artifact for Num {
        fn counts(&self) -> BTreeMap<String, u64> {
            BTreeMap::from([("value".to_string(), self.0 as u64)])
        }
        fn primitives(&self) -> Vec<Primitive> {
            vec![Primitive::new(
                "num",
                0,
                Shape::Point(Vec3::splat(self.0 as f32)),
            )]
        }
    }

    fn first(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
        Ok(Arc::new(Num(ctx.params.float("a"))))
    }
    fn second(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
        let a = ctx.artifact::<Num>("first")?;
        if ctx.params.float("b") < 0.0 {
            return Err(StageError::failed("b is negative"));
        }
        Ok(Arc::new(Num(a.0 + ctx.params.float("b"))))
    }
    fn third(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
        let b = ctx.artifact::<Num>("second")?;
        ctx.budget.check(1000, || "a thousand bytes".into())?;
        if ctx.params.bool("explode") {
            panic!("boom at {}", b.0);
        }
        Ok(Arc::new(Num(b.0 * 2.0)))
    }

    fn info(id: &'static str, params: &'static [&'static str]) -> StageInfo {
        StageInfo::new(id, id, "", "", params)
    }

    fn pipeline() -> Arc<Pipeline> {
        Arc::new(Pipeline {
            id: "test",
            title: "test",
            accepts: vec![LevelKind::FloorPlan],
            params: vec![
                ParamSpec::float("a", "A", "", 1.0, -10.0, 10.0, 1.0, ""),
                ParamSpec::float("b", "B", "", 2.0, -10.0, 10.0, 1.0, ""),
                ParamSpec::bool("explode", "Explode", false, ""),
            ],
            stages: vec![
                Stage {
                    info: info("first", &["a"]),
                    run: first,
                },
                Stage {
                    info: info("second", &["b"]),
                    run: second,
                },
                Stage {
                    info: info("third", &["explode"]),
                    run: third,
                },
            ],
            stage_aliases: &[("before", "second")],
        })
    }

    fn runner() -> Runner {
        let level = Level {
            source: "t".into(),
            data: LevelData::FloorPlan(FloorPlan::default()),
        };
        Runner::new(pipeline(), Arc::new(level))
    }

    fn value(r: &Runner, i: usize) -> u64 {
        r.result(i).unwrap().counts["value"]
    }

    #[test]
    fn a_runner_and_its_clones_flood_a_brush_level_once() {
        let level = Level {
            source: "t".into(),
            data: LevelData::Brushes(crate::level::BrushLevel::default()),
        };
        let r = Runner::new(pipeline(), Arc::new(level));
        let mut copy = r.clone();
        copy.set_params(r.params().clone());
        let first = r.seal().expect("a brush level has a seal") as *const Seal;
        assert_eq!(copy.seal().map(|s| s as *const Seal), Some(first));
        assert!(runner().seal().is_none(), "a floor plan has no seal");
    }

    #[test]
    fn a_former_stage_id_names_the_stage_it_became() {
        let p = pipeline();
        assert_eq!(p.stage_index("second"), Some(1));
        assert_eq!(p.stage_index("before"), Some(1));
        assert_eq!(p.stage_index("after"), None);
        assert_eq!(p.check(), Ok(()));
    }

    #[test]
    fn an_alias_may_not_hide_a_stage_nor_name_a_missing_one() {
        let mut p = (*pipeline()).clone();
        p.stage_aliases = &[("third", "first")];
        assert!(p.check().unwrap_err().contains("'third' is a stage id"));
        p.stage_aliases = &[("before", "gone")];
        assert!(p.check().unwrap_err().contains("names no stage 'gone'"));
    }

    #[test]
    fn adopting_keeps_only_results_whose_inputs_match() {
        let base = runner();
        // A build that ran every stage with b = 4.
        let mut done = base.clone();
        done.set_param("b", ParamValue::Float(4.0)).unwrap();
        done.run_all();
        // Same parameters: every stage is taken over, nothing runs again.
        let mut same = base.clone();
        same.set_param("b", ParamValue::Float(4.0)).unwrap();
        assert_eq!(same.adopt_from(&done), 3);
        assert_eq!(same.run_all(), 0);
        assert_eq!(value(&same, 2), 10);
        // b differs: only the stage before the first reader of b is valid.
        let mut other = base.clone();
        other.set_param("b", ParamValue::Float(5.0)).unwrap();
        assert_eq!(other.adopt_from(&done), 1);
        assert_eq!(other.first_missing(), 1);
        other.run_all();
        assert_eq!(value(&other, 2), 12);
        // Another level (even with equal parameters) gives nothing.
        let mut elsewhere = runner();
        elsewhere.set_param("b", ParamValue::Float(4.0)).unwrap();
        assert_eq!(elsewhere.adopt_from(&done), 0);
    }

    #[test]
    fn stage_info_new_takes_the_fields_in_their_order() {
        assert_eq!(
            StageInfo::new("id", "title", "explanation", "paper", &["p"]),
            StageInfo {
                id: "id",
                title: "title",
                explanation: "explanation",
                paper: "paper",
                params: &["p"],
            }
        );
    }

    #[test]
    fn a_refused_allocation_fails_the_stage_with_its_message() {
        let e = MemoryBudget::new(1 << 30)
            .check(3 << 30, || "a grid".to_string())
            .unwrap_err();
        let s: StageError = e.into();
        assert_eq!(
            s,
            StageError::Failed("would need ~3 GB for a grid; the budget is 1 GB".into())
        );
    }

    #[test]
    fn a_refusal_is_adopted_only_under_the_same_budget() {
        // The third stage needs a thousand bytes: refused under 10.
        let base = runner();
        let mut refused = base.clone();
        refused.set_budget(MemoryBudget::new(10));
        refused.run_all();
        assert!(refused.first_error().is_some_and(|(i, _)| i == 2));
        let mut same = base.clone();
        same.set_budget(MemoryBudget::new(10));
        assert_eq!(same.adopt_from(&refused), 3);
        assert_eq!(same.first_error().map(|(i, _)| i), Some(2));
        // A larger budget takes the two stages that ran, not the refusal.
        let mut larger = base.clone();
        larger.set_budget(MemoryBudget::new(1 << 20));
        assert_eq!(larger.adopt_from(&refused), 2);
        assert_eq!(larger.run_all(), 1);
        assert!(larger.first_error().is_none());
        assert_eq!(value(&larger, 2), 6);
    }

    #[test]
    fn describe_element_tells_kinds_with_shared_ids_apart() {
        #[derive(Debug, Serialize)]
        struct Two;
        impl Artifact for Two {
            fn counts(&self) -> BTreeMap<String, u64> {
                BTreeMap::new()
            }
            fn primitives(&self) -> Vec<Primitive> {
                vec![
                    Primitive::new("a", 0, Shape::Point(Vec3::ZERO)),
                    Primitive::new("b", 0, Shape::Point(Vec3::ONE)),
                    Primitive::new("b", 1, Shape::Point(Vec3::X)),
                    Primitive::new("b/centroid", 1, Shape::Point(Vec3::Y)),
                ]
            }
        }
        // Families share id 0: the one primitive of the kind asked for,
        // as one record.
        let a = Two.describe_element("a", 0);
        assert_eq!(a["kind"], "a");
        assert_eq!(a["position_m"], serde_json::json!([0.0, 0.0, 0.0]));
        assert_eq!(Two.describe_element("b", 0)["kind"], "b");
        // One kind family only (`b`, `b/centroid`): the artifact's own
        // description.
        assert_eq!(Two.describe_element("b", 1), Two.describe(1));
    }

    #[test]
    fn a_small_budget_refuses_and_raising_it_reruns_only_the_refused_stage() {
        let mut r = runner();
        assert_eq!(r.budget(), MemoryBudget::default());
        assert_eq!(r.set_budget(MemoryBudget::new(999)), None);
        r.run_all();
        assert_eq!(
            r.first_error().unwrap(),
            (
                2,
                &StageError::Failed(
                    "would need ~1000 B for a thousand bytes; the budget is 999 B".into()
                )
            )
        );
        assert_eq!(r.set_budget(MemoryBudget::new(999)), None);
        assert_eq!(r.set_budget(MemoryBudget::new(1000)), Some(2));
        assert_eq!(r.run_all(), 1);
        assert!(r.first_error().is_none());
        assert_eq!([r.executions(0), r.executions(2)], [1, 2]);
        // Lowering it later drops nothing: the results stay valid.
        assert_eq!(r.set_budget(MemoryBudget::new(1)), None);
        assert_eq!(r.first_missing(), 3);
    }

    #[test]
    fn run_stage_runs_one_stage_on_the_cached_results_and_stores_nothing() {
        let mut r = runner();
        // Nothing has run: the first stage runs (it reads no artifact), the
        // second needs the first.
        assert_eq!(r.run_stage(0).unwrap().counts()["value"], 1);
        assert_eq!(
            r.run_stage(1).unwrap_err(),
            StageError::Failed("stage 'first' has not run".into())
        );
        assert_eq!(r.executions(0), 0);
        assert_eq!(r.first_missing(), 0);
        r.run_all();
        // Stage 1 again on stage 0's cached result: the cached results of
        // stages 1 and 2 stay, and no execution is counted.
        assert_eq!(r.run_stage(1).unwrap().counts()["value"], 3);
        assert_eq!([value(&r, 1), value(&r, 2)], [3, 6]);
        assert_eq!(r.first_missing(), 3);
        assert_eq!(
            [r.executions(0), r.executions(1), r.executions(2)],
            [1, 1, 1]
        );
        // With the current parameters, though its own result was dropped;
        // the stage after it has no input then.
        r.set_param("b", ParamValue::Float(5.0)).unwrap();
        assert_eq!(r.run_stage(1).unwrap().counts()["value"], 6);
        assert!(r.result(1).is_none());
        assert_eq!(
            r.run_stage(2).unwrap_err(),
            StageError::Failed("stage 'second' has not run".into())
        );
        // Past the last stage; a panic; a failed earlier stage.
        assert!(matches!(r.run_stage(3), Err(StageError::Failed(_))));
        let mut p = runner();
        p.run_all();
        p.set_param("explode", ParamValue::Bool(true)).unwrap();
        assert!(matches!(p.run_stage(2), Err(StageError::Panicked(m)) if m.contains("boom")));
        let mut f = runner();
        f.set_param("b", ParamValue::Float(-1.0)).unwrap();
        f.run_all();
        assert_eq!(
            f.run_stage(2).unwrap_err(),
            StageError::Blocked("second".into())
        );
    }

    #[test]
    fn pipeline_is_consistent() {
        pipeline().check().unwrap();
    }

    #[test]
    fn changing_a_late_parameter_does_not_rerun_earlier_stages() {
        let mut r = runner();
        assert_eq!(r.run_all(), 3);
        assert_eq!(value(&r, 2), 6);
        assert_eq!(r.set_param("b", ParamValue::Float(4.0)).unwrap(), Some(1));
        assert_eq!(r.first_missing(), 1);
        assert_eq!(r.run_all(), 2);
        assert_eq!(
            [r.executions(0), r.executions(1), r.executions(2)],
            [1, 2, 2]
        );
        assert_eq!(value(&r, 2), 10);
        // Setting the same value again changes nothing.
        assert_eq!(r.set_param("b", ParamValue::Float(4.0)).unwrap(), None);
        assert_eq!(r.run_all(), 0);
    }

    #[test]
    fn unknown_and_out_of_range_parameters_are_refused() {
        let mut r = runner();
        assert!(r.set_param("zz", ParamValue::Float(1.0)).is_err());
        assert!(r.set_param("a", ParamValue::Float(11.0)).is_err());
    }

    #[test]
    fn a_failing_stage_keeps_earlier_results_and_blocks_later_ones() {
        let mut r = runner();
        r.set_param("b", ParamValue::Float(-1.0)).unwrap();
        r.run_all();
        assert!(r.result(0).unwrap().outcome.is_ok());
        assert_eq!(
            r.result(1).unwrap().outcome.as_ref().unwrap_err(),
            &StageError::Failed("b is negative".into())
        );
        assert_eq!(
            r.result(2).unwrap().outcome.as_ref().unwrap_err(),
            &StageError::Blocked("second".into())
        );
        assert_eq!(r.first_error().unwrap().0, 1);
    }

    #[test]
    fn a_panic_becomes_an_error() {
        let mut r = runner();
        r.set_param("explode", ParamValue::Bool(true)).unwrap();
        r.run_all();
        match &r.result(2).unwrap().outcome {
            Err(StageError::Panicked(m)) => assert!(m.contains("boom at 3"), "{m}"),
            other => panic!("expected a panic error, got {other:?}"),
        }
        assert!(r.result(1).unwrap().outcome.is_ok());
    }

    #[test]
    fn cancel_stops_between_stages() {
        let mut r = runner();
        let cancel = AtomicBool::new(false);
        let mut seen = Vec::new();
        let ran = r.run_to(2, &cancel, &mut |i| {
            seen.push(i);
            if i == 1 {
                cancel.store(true, Ordering::Relaxed);
            }
        });
        assert_eq!(ran, 2);
        assert_eq!(seen, vec![0, 1]);
        assert!(r.result(2).is_none());
        cancel.store(false, Ordering::Relaxed);
        assert_eq!(r.run_to(2, &cancel, &mut |_| {}), 1);
    }

    #[test]
    fn presets_invalidate_from_the_first_changed_reader() {
        let mut r = runner();
        r.run_all();
        let mut v = r.params().clone();
        v.set(
            &r.pipeline().params.clone(),
            "explode",
            ParamValue::Bool(false),
        )
        .unwrap();
        assert_eq!(r.set_params(v.clone()), None);
        v.set(&r.pipeline().params.clone(), "b", ParamValue::Float(0.0))
            .unwrap();
        assert_eq!(r.set_params(v), Some(1));
    }
}
