//! Compare: pin the build on screen as B, change anything (a parameter,
//! the pipeline), and see the current build A against B: where only A or
//! only B is walkable as two colours on the ground, and the A | B | delta
//! metrics with the same path probe run on both ([`navscope_compare`]).
//!
//! The comparison runs on a worker thread whenever A's build, the pin or
//! the probe's points change; the frame only takes the result. A pin
//! belongs to its level: opening another file drops it.
//!
//! A *preset pair* ([`PresetPair`]: A's and B's pipeline and parameters)
//! is saved from the build on screen and the pin, and loaded back: A's
//! settings go to the build on screen (switching its pipeline first when
//! they name another), and B is built from its settings on a worker thread
//! and pinned.

pub mod draw;
pub mod headline;

use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use navscope_compare::{CompareOptions, Comparison, PresetPair, SideSettings};
use navscope_core::params::ParamValues;
use navscope_core::{NavMesh, Pipeline};

use crate::build::{Build, StageSystems};
use crate::level::budget::MemoryLimit;
use crate::level::{CurrentLevel, LevelRequest};
use crate::model::journal::Journal;
use crate::probe::Probe;

/// The pinned build B.
#[derive(Clone)]
pub struct PinnedBuild {
    /// Its pipeline.
    pub pipeline: Arc<Pipeline>,
    /// Its parameters.
    pub params: ParamValues,
    /// Its navigation mesh.
    pub mesh: Arc<NavMesh>,
}

/// The compare view's state.
#[derive(Resource, Default)]
pub struct Compare {
    /// The pinned build.
    pub pinned: Option<PinnedBuild>,
    /// Draw the difference on the ground.
    pub show_difference: bool,
    /// The last comparison of A with B.
    pub result: Option<Comparison>,
    /// Bumped whenever `result` changes (the drawing follows it).
    pub revision: u64,
    pin_revision: u64,
    pinned_path: Option<std::path::PathBuf>,
    computed_for: Option<(u64, u64, u64)>,
    task: Option<Task<Comparison>>,
    /// B being built from a loaded pair.
    pin_task: Option<Task<Result<PinnedBuild, String>>>,
    /// A's parameters from a loaded pair, waiting for its pipeline.
    pending_a: Option<(String, ParamValues)>,
}

impl Compare {
    /// True while a comparison or a pinned build is being made off the
    /// main thread.
    pub fn is_busy(&self) -> bool {
        self.task.is_some() || self.pin_task.is_some()
    }

    /// Drops the pin and its comparison (the drawing follows).
    fn clear_pin(&mut self) {
        self.pinned = None;
        self.result = None;
        self.task = None;
        self.pin_revision += 1;
        self.revision += 1;
    }

    /// The preset pair of the build on screen (A) and the pinned one (B).
    pub fn pair(&self, build: &Build) -> Option<PresetPair> {
        let (b, pipeline, params) = (self.pinned.as_ref()?, build.pipeline()?, build.params()?);
        Some(PresetPair {
            a: SideSettings::new(pipeline, params),
            b: SideSettings::new(&b.pipeline, &b.params),
        })
    }
}

/// What the user asks of the compare view.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum CompareCommand {
    /// Pin the build on screen as B (and show the difference).
    Pin,
    /// Drop the pin.
    Unpin,
    /// Save the preset pair (A: the build on screen, B: the pin) here.
    SavePair(std::path::PathBuf),
    /// Load a preset pair: A's settings to the build on screen, B built and
    /// pinned.
    LoadPair(std::path::PathBuf),
}

/// Pins, compares off the main thread and keeps the result (no renderer
/// needed; [`draw::CompareDrawPlugin`] draws it).
pub struct ComparePlugin;

impl Plugin for ComparePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Compare>()
            .add_message::<CompareCommand>()
            .add_systems(
                Update,
                (commands, apply_pending_a, follow_level, start, collect)
                    .chain()
                    .after(StageSystems),
            );
    }
}

fn commands(
    mut read: MessageReader<CompareCommand>,
    build: Res<Build>,
    current: Res<CurrentLevel>,
    limit: Res<MemoryLimit>,
    mut compare: ResMut<Compare>,
    mut journal: ResMut<Journal>,
    mut levels: MessageWriter<LevelRequest>,
) {
    for c in read.read() {
        match c {
            CompareCommand::Pin => {
                let runner = build.runner();
                let mesh = runner.and_then(|r| r.navmesh());
                match (runner, mesh) {
                    (Some(r), Some(mesh)) => {
                        compare.pinned = Some(PinnedBuild {
                            pipeline: r.pipeline().clone(),
                            params: r.params().clone(),
                            mesh: Arc::new(mesh),
                        });
                        compare.pinned_path = current.path.clone();
                        compare.pin_revision += 1;
                        compare.show_difference = true;
                        journal.info(format!(
                            "pinned the {} build as B; change anything to compare",
                            r.pipeline().id
                        ));
                    }
                    _ => journal.error("nothing to pin: the build has no navigation mesh yet"),
                }
            }
            CompareCommand::Unpin => compare.clear_pin(),
            CompareCommand::SavePair(path) => match compare.pair(&build) {
                Some(pair) => match pair.save(path) {
                    Ok(()) => journal.info(format!("wrote the preset pair {}", path.display())),
                    Err(e) => journal.error(e),
                },
                None => journal.error("no preset pair to save: pin a build as B first"),
            },
            CompareCommand::LoadPair(path) => match load_pair(path) {
                Ok(((a_pipeline, a_values), (b_pipeline, b_values))) => {
                    let (level, budget) = (current.level.clone(), limit.0);
                    compare.pin_task = Some(AsyncComputeTaskPool::get().spawn(async move {
                        let mesh =
                            navscope_compare::build(&level, &b_pipeline, b_values.clone(), budget)?;
                        Ok(PinnedBuild {
                            pipeline: b_pipeline,
                            params: b_values,
                            mesh: Arc::new(mesh),
                        })
                    }));
                    if build.pipeline().is_none_or(|p| p.id != a_pipeline.id) {
                        levels.write(LevelRequest::Pipeline(a_pipeline.id.to_string()));
                    }
                    compare.pending_a = Some((a_pipeline.id.to_string(), a_values));
                    journal.info(format!("loaded the preset pair {}", path.display()));
                }
                Err(e) => journal.error(e),
            },
        }
    }
    // B of a loaded pair, once built.
    if let Some(task) = compare.pin_task.as_mut()
        && let Some(done) = block_on(poll_once(task))
    {
        compare.pin_task = None;
        match done {
            Ok(b) => {
                compare.pinned = Some(b);
                compare.pinned_path = current.path.clone();
                compare.pin_revision += 1;
                compare.show_difference = true;
            }
            Err(e) => journal.error(format!("preset pair: B: {e}")),
        }
    }
}

/// Reads a preset pair and resolves both sides against the registry.
#[allow(clippy::type_complexity)]
fn load_pair(
    path: &std::path::Path,
) -> Result<((Arc<Pipeline>, ParamValues), (Arc<Pipeline>, ParamValues)), String> {
    let pair = PresetPair::load(path)?;
    let a = pair
        .a
        .resolve()
        .map_err(|e| format!("{}: A: {e}", path.display()))?;
    let b = pair
        .b
        .resolve()
        .map_err(|e| format!("{}: B: {e}", path.display()))?;
    Ok((a, b))
}

/// A's parameters of a loaded pair, once the build on screen runs A's
/// pipeline.
fn apply_pending_a(mut compare: ResMut<Compare>, mut build: ResMut<Build>) {
    let Some((id, _)) = compare.pending_a.as_ref() else {
        return;
    };
    if build.pipeline().is_none_or(|p| p.id != id.as_str()) {
        return;
    }
    if let Some((_, values)) = compare.pending_a.take() {
        build.set_params(values);
    }
}

/// Another file drops the pin (B was built from the old one).
fn follow_level(current: Res<CurrentLevel>, mut compare: ResMut<Compare>) {
    if compare.pinned.is_some() && current.is_changed() && current.path != compare.pinned_path {
        compare.clear_pin();
    }
}

/// Starts comparing when A's build, the pin or the probe's points changed.
fn start(build: Res<Build>, probe: Res<Probe>, mut compare: ResMut<Compare>) {
    let Some(b) = compare.pinned.clone() else {
        return;
    };
    let key = (build.published, compare.pin_revision, probe.revision);
    if compare.computed_for == Some(key) || build.is_busy() {
        return;
    }
    let Some(a) = build.runner().and_then(|r| r.navmesh()) else {
        return;
    };
    compare.computed_for = Some(key);
    let opts = CompareOptions {
        probe: probe
            .start
            .zip(probe.goal)
            .map(|(s, g)| (s.as_dvec3(), g.as_dvec3())),
        ..Default::default()
    };
    compare.task = Some(
        AsyncComputeTaskPool::get()
            .spawn(async move { navscope_compare::compare(&a, &b.mesh, &opts) }),
    );
}

fn collect(mut compare: ResMut<Compare>) {
    let Some(task) = compare.task.as_mut() else {
        return;
    };
    if let Some(result) = block_on(poll_once(task)) {
        compare.task = None;
        compare.result = Some(result);
        compare.revision += 1;
    }
}
