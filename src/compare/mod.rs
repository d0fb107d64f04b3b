//! Compare: pin the build on screen as B, change anything (a parameter,
//! the pipeline), and see the current build A against B: where only A or
//! only B is walkable as two colours on the ground, and the A | B | delta
//! metrics with the same path probe run on both ([`navscope_compare`]).
//!
//! The comparison runs on a worker thread whenever A's build, the pin or
//! the probe's points change; the frame only takes the result. A pin
//! belongs to its level: opening another file drops it.

pub mod draw;

use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use navscope_compare::{CompareOptions, Comparison, PresetPair, SideSettings};
use navscope_core::params::ParamValues;
use navscope_core::{NavMesh, Pipeline};

use crate::build::{Build, StageSystems};
use crate::level::CurrentLevel;
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
}

impl Compare {
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
                (commands, follow_level, start, collect)
                    .chain()
                    .after(StageSystems),
            );
    }
}

fn commands(
    mut read: MessageReader<CompareCommand>,
    build: Res<Build>,
    current: Res<CurrentLevel>,
    mut compare: ResMut<Compare>,
    mut journal: ResMut<Journal>,
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
            CompareCommand::Unpin => {
                compare.pinned = None;
                compare.result = None;
                compare.task = None;
                compare.pin_revision += 1;
                compare.revision += 1;
            }
        }
    }
}

/// Another file drops the pin (B was built from the old one).
fn follow_level(current: Res<CurrentLevel>, mut compare: ResMut<Compare>) {
    if compare.pinned.is_some() && current.is_changed() && current.path != compare.pinned_path {
        compare.pinned = None;
        compare.result = None;
        compare.task = None;
        compare.pin_revision += 1;
        compare.revision += 1;
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
