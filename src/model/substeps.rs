//! A published stage's sub-steps: their titles and texts are kept, their
//! highlights made again from the stage's artifact when one is shown.
//!
//! A stage of thousands of sub-steps (the floor plan's portal stage, a
//! Quake map's union, one step per brush) records highlights for each, and
//! kept all together they were tens of megabytes (45 MB on `lq_e3m4.map`'s
//! union), while a person looks at one sub-step at a time. The artifact
//! makes one alone ([`navscope_core::stage::Artifact::substep`]), on a
//! worker ([`crate::view::highlight`]).

use std::sync::{Arc, Weak};

use navscope_core::Primitive;
use navscope_core::stage::Artifact;

/// What the timeline shows of a sub-step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepText {
    /// Short title, e.g. `notch 4 of 17`.
    pub title: String,
    /// What happened in it.
    pub detail: String,
}

/// A stage's sub-steps: their texts, and the artifact that makes their
/// highlights.
#[derive(Clone, Debug, Default)]
pub struct SubSteps {
    /// Shared, so that a copy handed to a worker costs nothing.
    texts: Arc<[StepText]>,
    /// Held weakly: a rebuild that replaces the artifact frees it at once,
    /// rather than when the stage is published again.
    artifact: Option<Weak<dyn Artifact>>,
}

impl SubSteps {
    /// The sub-steps of `artifact` (made once here, their highlights let go).
    pub fn of(artifact: &Arc<dyn Artifact>) -> Self {
        let texts = artifact
            .substeps()
            .into_iter()
            .map(|s| StepText {
                title: s.title,
                detail: s.detail,
            })
            .collect();
        Self {
            texts,
            artifact: Some(Arc::downgrade(artifact)),
        }
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// True when the stage recorded none.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The texts of sub-step `i`.
    pub fn get(&self, i: usize) -> Option<&StepText> {
        self.texts.get(i)
    }

    /// The highlights of sub-step `i`, made by the artifact (none past the
    /// last, or once a rebuild has let the artifact go). Slow on a big
    /// stage: call it off the main thread.
    pub fn highlights(&self, i: usize) -> Vec<Primitive> {
        self.artifact
            .as_ref()
            .and_then(Weak::upgrade)
            .and_then(|a| a.substep(i))
            .map_or_else(Vec::new, |s| s.highlights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::draw::{Shape, SubStep};
    use serde::Serialize;
    use std::collections::BTreeMap;

    /// Sub-steps counting up to its value; it does not make one alone, so
    /// the highlights come from `Artifact::substep`'s default.
    #[derive(Debug, Serialize)]
    struct Steps(u32);

    impl Artifact for Steps {
        fn counts(&self) -> BTreeMap<String, u64> {
            BTreeMap::new()
        }
        fn primitives(&self) -> Vec<Primitive> {
            Vec::new()
        }
        fn substeps(&self) -> Vec<SubStep> {
            (0..self.0)
                .map(|i| SubStep {
                    title: format!("step {i}"),
                    detail: format!("did {i}"),
                    highlights: vec![Primitive::new(
                        "step",
                        i,
                        Shape::Point(bevy::math::Vec3::ZERO),
                    )],
                })
                .collect()
        }
    }

    #[test]
    fn texts_are_kept_and_highlights_made_on_demand_while_the_artifact_lives() {
        let artifact: Arc<dyn Artifact> = Arc::new(Steps(3));
        let steps = SubSteps::of(&artifact);
        assert_eq!(steps.len(), 3);
        assert_eq!(steps.get(1).map(|t| t.detail.as_str()), Some("did 1"));
        assert_eq!(steps.get(3), None);
        let h = steps.highlights(2);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].element, 2);
        assert!(steps.highlights(3).is_empty(), "past the last");
        drop(artifact);
        assert!(
            steps.highlights(2).is_empty(),
            "none once the artifact is gone"
        );
        assert_eq!(steps.len(), 3, "the texts stay");
    }

    #[test]
    fn a_stage_without_substeps_has_none() {
        let steps = SubSteps::default();
        assert!(steps.is_empty());
        assert!(steps.highlights(0).is_empty());
    }
}
