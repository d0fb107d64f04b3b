//! The published stages as entities: a [`StageRoot`] per stage carrying its
//! prepared [`StageGeometry`] and its elements as data
//! ([`crate::model::index::ElementIndex`]) for picking and inspection, with
//! a [`DrawGroup`] child per group of its drawing; a [`StageElement`] names
//! one element (the selection, the hover).

use crate::model::band::PrepareOptions;
use crate::model::group::Prepared;
use crate::model::stage_primitives::StagePrimitives;
use crate::model::substeps::SubSteps;
use bevy::prelude::*;
use std::sync::Arc;

/// Marks the entity that holds one published stage.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageRoot {
    /// Stage index.
    pub stage: usize,
}

/// One element of a stage's artifact, as the primitives tag it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StageElement {
    /// Index of the stage that made it.
    pub stage: usize,
    /// Its primitives' kind, e.g. `portal/vertex-edge`.
    pub kind: String,
    /// Its id within the artifact.
    pub element: u32,
}

/// A published stage's drawing, prepared off the main thread.
#[derive(Component, Debug, Clone, Default)]
pub struct StageGeometry {
    /// Stage index.
    pub stage: usize,
    /// Everything the stage drew, kept to prepare again when the view
    /// filter changes.
    pub primitives: Arc<StagePrimitives>,
    /// Grouped, triangulated primitives.
    pub prepared: Prepared,
    /// The options `prepared` was made under.
    pub options: PrepareOptions,
    /// The sub-steps the stage recorded.
    pub substeps: SubSteps,
    /// The level's size, for scaling markers.
    pub unit: f32,
}

/// A retained piece of drawing: one group of one stage.
#[derive(Component, Debug, Clone)]
pub struct DrawGroup {
    /// Stage index.
    pub stage: usize,
    /// Primitive kind.
    pub kind: String,
    /// First sub-step at which it exists.
    pub first: u32,
    /// Last sub-step at which it exists.
    pub last: u32,
    /// The layer it lies on, if any.
    pub layer: Option<u32>,
}

/// A published stage's primitives, from its `artifact`: kept for as long
/// as the stage is published or shown (its picking, inspection and
/// re-preparation read them), so packed ([`StagePrimitives`]) and sized
/// exactly.
pub fn stage_primitives(artifact: &dyn navscope_core::stage::Artifact) -> Arc<StagePrimitives> {
    Arc::new(StagePrimitives::new(artifact.primitives()))
}
