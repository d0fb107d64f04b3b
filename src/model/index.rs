//! A published stage's elements as data: which primitives make up each
//! element, and a [`Bvh`] over the primitives' bounds for picking and
//! hovering.
//!
//! Elements are not entities: a stage of a million voxels would otherwise
//! be a million entities the ECS walks every frame. The index keeps the
//! stage's primitives once (shared with its drawing), their ids sorted by
//! `(kind, element)` so an element's primitives are one binary search away
//! (highlights, inspector links), and the hierarchy so a pick ray tests the
//! few primitives near it instead of all of them. Built on the worker
//! thread with the stage's drawing.

use std::ops::Range;
use std::sync::Arc;

use bevy::math::Vec3;
use bevy::prelude::Component;
use navscope_core::{Primitive, Shape};

use crate::model::bvh::Bvh;

/// The elements of one published stage.
#[derive(Component, Debug, Clone, Default)]
pub struct ElementIndex {
    primitives: Arc<Vec<Primitive>>,
    /// Primitive ids sorted by `(kind, element)`.
    order: Vec<u32>,
    /// Where each element's run starts in `order` (and one past the last).
    starts: Vec<u32>,
    bvh: Bvh,
}

/// The bounds a primitive is picked within; labels are never picked (NaN
/// bounds, which the hierarchy leaves out).
fn bounds(p: &Primitive) -> (Vec3, Vec3) {
    if matches!(p.shape, Shape::Label { .. }) {
        return (Vec3::NAN, Vec3::NAN);
    }
    let pts = p.shape.points();
    let lo = pts
        .iter()
        .fold(Vec3::splat(f32::INFINITY), |a, b| a.min(*b));
    let hi = pts
        .iter()
        .fold(Vec3::splat(f32::NEG_INFINITY), |a, b| a.max(*b));
    if lo.x > hi.x {
        (Vec3::NAN, Vec3::NAN)
    } else {
        (lo, hi)
    }
}

impl ElementIndex {
    /// Indexes `primitives`.
    pub fn new(primitives: Arc<Vec<Primitive>>) -> Self {
        let key = |i: &u32| {
            let p = &primitives[*i as usize];
            (p.kind.as_str(), p.element)
        };
        let mut order: Vec<u32> = (0..primitives.len() as u32).collect();
        order.sort_by(|a, b| key(a).cmp(&key(b)));
        let mut starts = Vec::new();
        for (at, i) in order.iter().enumerate() {
            if at == 0 || key(&order[at - 1]) != key(i) {
                starts.push(at as u32);
            }
        }
        starts.push(order.len() as u32);
        let boxes: Vec<(Vec3, Vec3)> = primitives.iter().map(bounds).collect();
        let bvh = Bvh::build(&boxes);
        Self {
            primitives,
            order,
            starts,
            bvh,
        }
    }

    /// Every primitive of the stage.
    pub fn primitives(&self) -> &[Primitive] {
        &self.primitives
    }

    /// How many elements the stage has.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when the stage drew nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn run(&self, e: usize) -> Range<usize> {
        self.starts[e] as usize..self.starts[e + 1] as usize
    }

    /// The `(kind, id)` of the primitive at position `at` of the sorted
    /// order.
    fn key_at(&self, at: u32) -> (&str, u32) {
        let p = &self.primitives[self.order[at as usize] as usize];
        (p.kind.as_str(), p.element)
    }

    /// Every element as `(kind, id)`, sorted.
    pub fn elements(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.starts[..self.len()].iter().map(|&at| self.key_at(at))
    }

    /// The primitives of element `id` of `kind` (none when it does not
    /// exist).
    pub fn element(&self, kind: &str, id: u32) -> impl Iterator<Item = &Primitive> + '_ {
        // Binary search over the elements' first primitives.
        let firsts = &self.starts[..self.len()];
        let e = firsts.partition_point(|&at| self.key_at(at) < (kind, id));
        let found = firsts
            .get(e)
            .is_some_and(|&at| self.key_at(at) == (kind, id));
        let run = if found { self.run(e) } else { 0..0 };
        self.order[run]
            .iter()
            .map(|&i| &self.primitives[i as usize])
    }

    /// The primitives whose bounds the ray passes within `pad(t)` of (see
    /// [`Bvh::along_ray`]): the only ones a pick along it can hit.
    pub fn along_ray(&self, origin: Vec3, dir: Vec3, pad: impl Fn(f32) -> f32) -> Vec<&Primitive> {
        let mut out = Vec::new();
        self.bvh
            .along_ray(origin, dir, pad, |i| out.push(&self.primitives[i as usize]));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(kind: &str, id: u32, x: f32) -> Primitive {
        Primitive::new(
            kind,
            id,
            Shape::Segment(Vec3::new(x, 0.0, 0.0), Vec3::new(x, 0.0, 1.0)),
        )
    }

    #[test]
    fn elements_group_their_primitives_by_kind_and_id() {
        let prims = vec![
            seg("portal", 2, 0.0),
            seg("cell", 1, 1.0),
            seg("portal", 2, 2.0),
            seg("portal", 1, 3.0),
            Primitive::new(
                "label",
                9,
                Shape::Label {
                    at: Vec3::ZERO,
                    text: "x".into(),
                },
            ),
        ];
        let index = ElementIndex::new(Arc::new(prims));
        let els: Vec<(&str, u32)> = index.elements().collect();
        assert_eq!(
            els,
            vec![("cell", 1), ("label", 9), ("portal", 1), ("portal", 2)]
        );
        let xs: Vec<f32> = index
            .element("portal", 2)
            .map(|p| p.shape.points()[0].x)
            .collect();
        assert_eq!(xs.len(), 2);
        assert!(xs.contains(&0.0) && xs.contains(&2.0));
        assert_eq!(index.element("portal", 7).count(), 0);
        assert_eq!(index.element("nothing", 1).count(), 0);
        // Labels are never candidates for a pick.
        let down = index.along_ray(Vec3::new(0.0, 5.0, 0.0), Vec3::NEG_Y, |_| 10.0);
        assert!(down.iter().all(|p| p.kind != "label"));
        assert_eq!(down.len(), 4, "a wide padding reaches every segment");
        let near = index.along_ray(Vec3::new(3.0, 5.0, 0.5), Vec3::NEG_Y, |_| 0.1);
        assert_eq!(near.len(), 1);
        assert_eq!(near[0].element, 1);
    }

    #[test]
    fn an_empty_stage_has_no_elements() {
        let index = ElementIndex::new(Arc::new(vec![]));
        assert!(index.is_empty());
        assert_eq!(index.elements().count(), 0);
        assert!(index.along_ray(Vec3::ZERO, Vec3::X, |_| 1.0).is_empty());
    }
}
