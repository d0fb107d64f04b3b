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
//!
//! A primitive of many points (a wall outline of thousands of corners, a
//! floor polygon around hundreds of holes) would make every ray that comes
//! near it test all its edges and its whole fill. Such a primitive enters
//! the hierarchy as [`Piece`]s instead: runs of [`EDGES_PER_PIECE`] edges
//! and the triangles of its fill, each with its own box, so a query costs
//! the same near a big shape as near a small one.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use bevy::math::Vec3;
use bevy::prelude::Component;
use navscope_core::{Primitive, Shape};

use crate::model::bvh::Bvh;
use crate::model::stage_primitives::StagePrimitives;
use crate::model::tessellate::triangulate;

/// A primitive with more points than this is split into [`Piece`]s.
pub const SPLIT_ABOVE: usize = 32;
/// Edges in one piece of a split outline.
pub const EDGES_PER_PIECE: usize = 16;

/// What part of a primitive a pick ray must test.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece<'a> {
    /// The whole primitive (borrowed from the stage, or made again from
    /// its packed form: [`StagePrimitives::get`]).
    Whole(Cow<'a, Primitive>),
    /// Edges `from..to` of a ring of points (edge `i` joins point `i` to
    /// point `i + 1`, the last one back to the first on a closed ring).
    Edges {
        /// The ring's points.
        points: &'a [Vec3],
        /// First edge.
        from: u32,
        /// One past the last edge.
        to: u32,
    },
    /// One triangle of a polygon's fill.
    Triangle {
        /// Its corners.
        corners: &'a [Vec3; 3],
        /// The whole polygon's area (a pick prefers smaller fills).
        polygon_area: f32,
    },
}

/// A piece of a split primitive, as stored.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// Edges `from..to` of ring `ring` (0: a polyline's points or a
    /// polygon's outer ring; `k`: the polygon's hole `k - 1`).
    Edges { ring: u32, from: u32, to: u32 },
    /// Triangle `i` of [`ElementIndex::triangles`].
    Triangle(u32),
}

/// A fill triangle of a split polygon.
#[derive(Debug, Clone, Copy)]
struct FillTriangle {
    corners: [Vec3; 3],
    polygon_area: f32,
}

/// The elements of one published stage.
#[derive(Component, Debug, Clone, Default)]
pub struct ElementIndex {
    primitives: Arc<StagePrimitives>,
    /// Primitive ids sorted by `(kind, element)`.
    order: Vec<u32>,
    /// Where each element's run starts in `order` (and one past the last).
    starts: Vec<u32>,
    /// Item `i` of the hierarchy is primitive `i` whole when `i` is below
    /// the number of primitives, else `parts[i - primitives.len()]`.
    bvh: Bvh,
    /// The pieces of split primitives: the primitive and the part.
    parts: Vec<(u32, Part)>,
    /// The fill triangles of split polygons.
    triangles: Vec<FillTriangle>,
}

/// The box around `points`; NaN (left out of the hierarchy) when there
/// are none.
fn box_of<'a>(points: impl IntoIterator<Item = &'a Vec3>) -> (Vec3, Vec3) {
    let (lo, hi) = points.into_iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    if lo.x > hi.x {
        (Vec3::NAN, Vec3::NAN)
    } else {
        (lo, hi)
    }
}

/// The bounds a primitive is picked within; labels are never picked (NaN
/// bounds, which the hierarchy leaves out).
fn bounds(p: &Primitive) -> (Vec3, Vec3) {
    if matches!(p.shape, Shape::Label { .. }) {
        return (Vec3::NAN, Vec3::NAN);
    }
    box_of(&p.shape.points())
}

/// The rings of a polyline or polygon with more than [`SPLIT_ABOVE`]
/// points, each with whether it is closed; `None` for any other shape.
fn big_rings(shape: &Shape) -> Option<Vec<(&[Vec3], bool)>> {
    let rings: Vec<(&[Vec3], bool)> = match shape {
        Shape::Polyline { points, closed } => vec![(points, *closed)],
        Shape::Polygon { outer, holes } => std::iter::once(outer)
            .chain(holes)
            .map(|r| (r.as_slice(), true))
            .collect(),
        _ => return None,
    };
    (rings.iter().map(|(r, _)| r.len()).sum::<usize>() > SPLIT_ABOVE).then_some(rings)
}

/// The ring `ring` of a split primitive (see [`Part::Edges`]).
fn ring_of(shape: &Shape, ring: u32) -> &[Vec3] {
    match (shape, ring) {
        (Shape::Polyline { points, .. }, _) => points,
        (Shape::Polygon { outer, .. }, 0) => outer,
        (Shape::Polygon { holes, .. }, k) => &holes[k as usize - 1],
        _ => &[],
    }
}

/// The pieces, with their boxes, of a big primitive (`rings` from
/// [`big_rings`]): runs of edges of every ring, and a polygon's fill
/// triangles, appended to `triangles`.
fn split_primitive(
    shape: &Shape,
    rings: &[(&[Vec3], bool)],
    triangles: &mut Vec<FillTriangle>,
) -> Vec<(Part, (Vec3, Vec3))> {
    let mut out = Vec::new();
    for (k, &(points, closed)) in rings.iter().enumerate() {
        let n = points.len();
        let edges = match n {
            0 => 0,
            1 => 1, // a lone point: one "edge" from it to itself
            _ if closed => n,
            _ => n - 1,
        };
        for from in (0..edges).step_by(EDGES_PER_PIECE) {
            let to = (from + EDGES_PER_PIECE).min(edges);
            let corners = (from..=to).map(|i| &points[i % n]);
            out.push((
                Part::Edges {
                    ring: k as u32,
                    from: from as u32,
                    to: to as u32,
                },
                box_of(corners),
            ));
        }
    }
    if let Shape::Polygon { outer, holes } = shape {
        let tris = triangulate(outer, holes);
        let polygon_area = tris
            .iter()
            .map(|t| (t[1] - t[0]).cross(t[2] - t[0]).length() / 2.0)
            .sum();
        for corners in tris {
            out.push((Part::Triangle(triangles.len() as u32), box_of(&corners)));
            triangles.push(FillTriangle {
                corners,
                polygon_area,
            });
        }
    }
    out
}

impl ElementIndex {
    /// Indexes `primitives`.
    pub fn new(primitives: Arc<StagePrimitives>) -> Self {
        let key = |i: &u32| primitives.kind_and_element(*i as usize);
        let mut order: Vec<u32> = (0..primitives.len() as u32).collect();
        order.sort_by(|a, b| key(a).cmp(&key(b)));
        let mut starts = Vec::new();
        for (at, i) in order.iter().enumerate() {
            if at == 0 || key(&order[at - 1]) != key(i) {
                starts.push(at as u32);
            }
        }
        starts.push(order.len() as u32);
        let mut boxes: Vec<(Vec3, Vec3)> = Vec::with_capacity(primitives.len());
        let (mut parts, mut triangles) = (Vec::new(), Vec::new());
        let mut part_boxes = Vec::new();
        for (i, p) in primitives.iter().enumerate() {
            // Only a primitive kept whole can be big (a packed voxel
            // column never is), and its pieces borrow from it.
            match primitives
                .whole(i)
                .and_then(|w| Some((w, big_rings(&w.shape)?)))
            {
                Some((w, rings)) => {
                    boxes.push((Vec3::NAN, Vec3::NAN));
                    for (part, b) in split_primitive(&w.shape, &rings, &mut triangles) {
                        parts.push((i as u32, part));
                        part_boxes.push(b);
                    }
                }
                None => boxes.push(bounds(&p)),
            }
        }
        boxes.extend(part_boxes);
        let bvh = Bvh::build(&boxes);
        Self {
            primitives,
            order,
            starts,
            bvh,
            parts,
            triangles,
        }
    }

    /// The primitive and piece item `item` of the hierarchy stands for.
    fn piece(&self, item: u32) -> (Cow<'_, Primitive>, Piece<'_>) {
        let n = self.primitives.len();
        let Some(&(i, part)) = (item as usize).checked_sub(n).map(|k| &self.parts[k]) else {
            let p = self.primitives.get(item as usize);
            return (p.clone(), Piece::Whole(p));
        };
        // Only primitives kept whole are split (see `new`).
        let p = self
            .primitives
            .whole(i as usize)
            .expect("a split primitive is kept whole");
        let piece = match part {
            Part::Edges { ring, from, to } => Piece::Edges {
                points: ring_of(&p.shape, ring),
                from,
                to,
            },
            Part::Triangle(t) => {
                let t = &self.triangles[t as usize];
                Piece::Triangle {
                    corners: &t.corners,
                    polygon_area: t.polygon_area,
                }
            }
        };
        (Cow::Borrowed(p), piece)
    }

    /// Every primitive of the stage.
    pub fn primitives(&self) -> &StagePrimitives {
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
        self.primitives
            .kind_and_element(self.order[at as usize] as usize)
    }

    /// Every element as `(kind, id)`, sorted.
    pub fn elements(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.starts[..self.len()].iter().map(|&at| self.key_at(at))
    }

    /// The primitives of element `id` of `kind` (none when it does not
    /// exist).
    pub fn element(&self, kind: &str, id: u32) -> impl Iterator<Item = Cow<'_, Primitive>> + '_ {
        // Binary search over the elements' first primitives.
        let firsts = &self.starts[..self.len()];
        let e = firsts.partition_point(|&at| self.key_at(at) < (kind, id));
        let found = firsts
            .get(e)
            .is_some_and(|&at| self.key_at(at) == (kind, id));
        let run = if found { self.run(e) } else { 0..0 };
        self.order[run]
            .iter()
            .map(|&i| self.primitives.get(i as usize))
    }

    /// The pieces whose bounds the ray passes within `pad(t)` of (see
    /// [`Bvh::along_ray`]), each with its primitive: the only ones a pick
    /// along it can hit.
    pub fn along_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        pad: impl Fn(f32) -> f32,
    ) -> Vec<(Cow<'_, Primitive>, Piece<'_>)> {
        let mut out = Vec::new();
        self.bvh
            .along_ray(origin, dir, pad, |i| out.push(self.piece(i)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(kind: &'static str, id: u32, x: f32) -> Primitive {
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
        let index = ElementIndex::new(Arc::new(prims.into()));
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
        assert!(down.iter().all(|(p, _)| p.kind != "label"));
        assert_eq!(down.len(), 4, "a wide padding reaches every segment");
        let near = index.along_ray(Vec3::new(3.0, 5.0, 0.5), Vec3::NEG_Y, |_| 0.1);
        assert_eq!(near.len(), 1);
        assert_eq!(near[0].0.element, 1);
    }

    #[test]
    fn an_empty_stage_has_no_elements() {
        let index = ElementIndex::new(Arc::new(vec![].into()));
        assert!(index.is_empty());
        assert_eq!(index.elements().count(), 0);
        assert!(index.along_ray(Vec3::ZERO, Vec3::X, |_| 1.0).is_empty());
    }
}
