//! Drawable primitives: the one interface through which every artifact shows
//! itself (the way Recast's `duDebugDraw` draws every Recast structure).
//!
//! A primitive is a world-space shape with a *kind* tag (`notch`,
//! `portal/vertex-edge`, `voxel/border`, `link/step-up`, ...), the id of the
//! element it belongs to (so a click can inspect it) and the range of
//! sub-steps during which it exists (so a viewer can step inside a stage).
//! The app keeps one style table keyed by kind and knows nothing else about
//! pipelines. Kinds are `/`-separated paths: a style for `portal` applies to
//! `portal/vertex-edge` unless the longer kind has its own.

use std::borrow::Cow;

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// A world-space shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A point marker.
    Point(Vec3),
    /// A straight segment.
    Segment(Vec3, Vec3),
    /// An open (or, with `closed`, closed) chain of segments.
    Polyline { points: Vec<Vec3>, closed: bool },
    /// A filled planar polygon (counter-clockwise seen from its front),
    /// optionally with holes.
    Polygon {
        outer: Vec<Vec3>,
        holes: Vec<Vec<Vec3>>,
    },
    /// An axis-aligned box.
    Box { min: Vec3, max: Vec3 },
    /// A vertical column of voxels over the cell at `(x, z)` (its minimum
    /// corner) of size `cell` x `cell`, from `y0` to `y1`.
    VoxelColumn {
        x: f32,
        z: f32,
        cell: f32,
        y0: f32,
        y1: f32,
    },
    /// A text label anchored at a point.
    Label { at: Vec3, text: String },
}

impl Shape {
    /// Every point the shape is made of (its corners for a box), for bounds
    /// and picking.
    pub fn points(&self) -> Vec<Vec3> {
        match self {
            Shape::Point(p) => vec![*p],
            Shape::Segment(a, b) => vec![*a, *b],
            Shape::Polyline { points, .. } => points.clone(),
            Shape::Polygon { outer, holes } => outer
                .iter()
                .chain(holes.iter().flatten())
                .copied()
                .collect(),
            Shape::Box { min, max } => vec![*min, *max],
            Shape::VoxelColumn { x, z, cell, y0, y1 } => {
                vec![Vec3::new(*x, *y0, *z), Vec3::new(x + cell, *y1, z + cell)]
            }
            Shape::Label { at, .. } => vec![*at],
        }
    }
}

/// One drawable piece of an artifact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Primitive {
    /// Style key, e.g. `portal/vertex-edge`. Most kinds are fixed strings,
    /// borrowed rather than copied into every primitive: a big stage has
    /// millions of primitives, and a heap string each was a fifth of their
    /// memory.
    pub kind: Cow<'static, str>,
    /// Id of the element of the artifact this belongs to.
    pub element: u32,
    /// The shape.
    pub shape: Shape,
    /// First sub-step at which it exists (0 when the stage has none).
    pub first_step: u32,
    /// Last sub-step at which it exists (`u32::MAX`: to the end).
    pub last_step: u32,
    /// The layer of a multi-layer level it lies on (`None`: not tied to a
    /// layer), so a viewer can show some layers and hide the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<u32>,
    /// A quantity the viewer may colour by instead of the kind's colour
    /// (the clearance of a medial-axis edge, a distance, a cost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
}

impl Primitive {
    /// A primitive that exists throughout its stage.
    pub fn new(kind: impl Into<Cow<'static, str>>, element: u32, shape: Shape) -> Self {
        Self {
            kind: kind.into(),
            element,
            shape,
            first_step: 0,
            last_step: u32::MAX,
            layer: None,
            value: None,
        }
    }

    /// The same primitive, tied to layer `layer` of a multi-layer level.
    pub fn on_layer(mut self, layer: u32) -> Self {
        self.layer = Some(layer);
        self
    }

    /// The same primitive, carrying `value` for colouring by quantity.
    pub fn with_value(mut self, value: f32) -> Self {
        self.value = Some(value);
        self
    }

    /// The same primitive, existing only during sub-steps `first..=last`.
    pub fn during(mut self, first: u32, last: u32) -> Self {
        self.first_step = first;
        self.last_step = last;
        self
    }

    /// True when it exists at sub-step `step`.
    pub fn visible_at(&self, step: u32) -> bool {
        self.first_step <= step && step <= self.last_step
    }

    /// The kind and each of its ancestors, most specific first:
    /// `portal/vertex-edge`, `portal`.
    pub fn kind_chain(&self) -> impl Iterator<Item = &str> {
        let k = &*self.kind;
        std::iter::successors(Some(k), |k| k.rfind('/').map(|i| &k[..i]))
    }
}

/// A sub-step recorded inside a stage (one notch, one pass, one connection):
/// a title, an explanation and the primitives that highlight what the step
/// looked at and chose.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SubStep {
    /// Short title, e.g. `notch 4 of 17`.
    pub title: String,
    /// What happened in this step, for the learner.
    pub detail: String,
    /// Highlights shown only while this step is selected.
    pub highlights: Vec<Primitive>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_chain_walks_up_the_path() {
        let p = Primitive::new("link/step/up", 3, Shape::Point(Vec3::ZERO));
        assert_eq!(
            p.kind_chain().collect::<Vec<_>>(),
            vec!["link/step/up", "link/step", "link"]
        );
    }

    #[test]
    fn step_ranges() {
        let p = Primitive::new("portal", 0, Shape::Point(Vec3::ZERO)).during(2, 4);
        assert!(!p.visible_at(1));
        assert!(p.visible_at(2) && p.visible_at(4));
        assert!(!p.visible_at(5));
        assert!(Primitive::new("x", 0, Shape::Point(Vec3::ZERO)).visible_at(1_000_000));
    }

    #[test]
    fn layer_and_value_are_optional_in_json() {
        let plain = Primitive::new("axis", 1, Shape::Point(Vec3::ONE));
        let json = serde_json::to_string(&plain).unwrap();
        assert!(!json.contains("layer") && !json.contains("value"), "{json}");
        let tagged = plain.clone().on_layer(2).with_value(0.5);
        let back: Primitive =
            serde_json::from_str(&serde_json::to_string(&tagged).unwrap()).unwrap();
        assert_eq!(back.layer, Some(2));
        assert_eq!(back.value, Some(0.5));
        let old: Primitive = serde_json::from_str(&json).unwrap();
        assert_eq!(old, plain);
    }
}
