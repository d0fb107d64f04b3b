//! The why tool (key W, #39 "why not here"): a plain click asks whether
//! the point under the cursor is on the current build's NavMesh and, when
//! it is not, which stage dropped it, by which rule (the parameter, its
//! value, the paper section or Recast function), and which one-parameter
//! change keeps it, checked by building again; per voxel pass (stance),
//! the same question for that pass's agent. The answer is
//! `navscope_explain::why`'s ([`why_not_here`]), asked on the async compute
//! pool as builds are (its fix search builds the pipeline again, up to
//! about two seconds on a Quake map), so no frame waits for it; the panel
//! says "checking…" meanwhile. A new build (a parameter changed) asks
//! again at the same point, so the answer follows the edit it proposes.
//!
//! The point asked about is the surface seen under the cursor, the level's
//! or the NavMesh's, inside the height slice when one is on
//! ([`crate::probe::place::visible_point`]; the status readout shows it
//! while the tool is on): unlike a probe click, which goes through to the
//! walkable surface, the question is about the place the person sees (a
//! wall, a roof, a ledge with no mesh). A floor under a table is reached in
//! the top view with the slice below the table top, or in a perspective
//! view that sees it.

pub mod draw;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use navscope_explain::{FixBudget, Why, why_not_here};

use crate::build::{Build, StageSystems};

/// The ids and titles of a pipeline's stages, in order.
pub type StageNames = Vec<(String, String)>;

/// The why tool's question and its last answer.
#[derive(Resource, Debug, Default)]
pub struct WhyTool {
    /// The point asked about.
    pub at: Option<Vec3>,
    /// The last answer (at the point asked about, for the build it had).
    pub answer: Option<Why>,
    /// The ids and titles of the pipeline's stages, in order, when the
    /// answer was made (the stages the point went through).
    pub stages: StageNames,
    /// Bumped whenever `at` or `answer` changes, so drawings follow.
    pub revision: u64,
    task: Option<Task<(Why, StageNames)>>,
    /// The build the last question was asked of.
    asked_of: u64,
    dirty: bool,
}

impl WhyTool {
    /// Asks at `at` (the answer comes from a worker).
    pub fn ask(&mut self, at: Vec3) {
        self.at = Some(at);
        self.dirty = true;
        self.revision += 1;
    }

    /// Forgets the question and its answer.
    pub fn clear(&mut self) {
        *self = WhyTool {
            revision: self.revision + 1,
            ..default()
        };
    }

    /// True while the answer to the current question is being made.
    pub fn is_checking(&self) -> bool {
        self.task.is_some() || self.dirty
    }
}

/// Keeps the why tool's answer (no renderer needed).
pub struct WhyPlugin;

impl Plugin for WhyPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WhyTool>()
            .add_systems(Update, (ask, collect).chain().after(StageSystems));
    }
}

/// Starts the question on a worker when it was asked or a newer build was
/// published; a newer question replaces a running one.
fn ask(build: Res<Build>, mut why: ResMut<WhyTool>) {
    let Some(at) = why.at else {
        return;
    };
    let newer_build = why.answer.is_some() && build.published != why.asked_of;
    if !(why.dirty || newer_build) || build.is_busy() {
        return;
    }
    let Some(runner) = build.runner().cloned() else {
        return;
    };
    why.dirty = false;
    why.asked_of = build.published;
    why.task = Some(AsyncComputeTaskPool::get().spawn(async move {
        let mut runner = runner;
        let stages = runner
            .pipeline()
            .stages
            .iter()
            .map(|s| (s.info.id.to_string(), s.info.title.to_string()))
            .collect();
        let answer = why_not_here(&mut runner, at.as_dvec3(), &FixBudget::default());
        (answer, stages)
    }));
}

fn collect(mut why: ResMut<WhyTool>) {
    // Read first: a mutable borrow marks the tool changed, and a changed
    // tool makes the panels draw again (`ui::refresh`), so an idle window
    // must not borrow it mutably every frame.
    if why.task.is_none() {
        return;
    }
    let Some(task) = why.task.as_mut() else {
        return;
    };
    let Some((answer, stages)) = check_ready(task) else {
        return;
    };
    why.task = None;
    why.answer = Some(answer);
    why.stages = stages;
    why.revision += 1;
}

/// Where `stage` (an id) is among `stages`: the stages before it passed the
/// point, it dropped the point; `None` when it is not among them.
pub fn dropped_at(stages: &[(String, String)], stage: &str) -> Option<usize> {
    stages.iter().position(|(id, _)| id == stage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_that_dropped_a_point_is_found_by_its_id() {
        let stages = vec![
            ("voxelize".to_string(), "Voxelize".to_string()),
            ("filter".to_string(), "Filter".to_string()),
        ];
        assert_eq!(dropped_at(&stages, "filter"), Some(1));
        assert_eq!(dropped_at(&stages, "nothing"), None);
    }

    #[test]
    fn a_question_is_checking_until_answered_and_clear_forgets_it() {
        let mut w = WhyTool::default();
        assert!(!w.is_checking());
        w.ask(Vec3::ONE);
        assert!(w.is_checking());
        let r = w.revision;
        w.clear();
        assert!(w.at.is_none() && !w.is_checking() && w.revision > r);
    }
}
