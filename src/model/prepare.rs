//! Preparing a stage's primitives for drawing: grouped by kind, sub-step
//! range and layer, polygons triangulated, boxes and voxel columns turned
//! into faces, lines and cube instances. Pure; it runs on the worker thread
//! with the stage.

use crate::model::band::PrepareOptions;
use crate::model::group::{Group, Prepared};
use crate::model::stage_primitives::StagePrimitives;
use crate::model::step_batches::batch_for_steps;
use bevy::prelude::*;
use navscope_core::{Primitive, Shape};
use std::borrow::Borrow;
use std::collections::HashMap;

use crate::model::style::element_color;
use crate::model::style::ramp_color;
use crate::model::style::style_for;

fn box_edges(min: Vec3, max: Vec3) -> Vec<(Vec3, Vec3)> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        )
    };
    [
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
        (0, 2),
        (1, 3),
        (4, 6),
        (5, 7),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ]
    .iter()
    .map(|&(a, b)| (c(a), c(b)))
    .collect()
}

fn box_faces(min: Vec3, max: Vec3) -> Vec<[Vec3; 3]> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        )
    };
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    quads
        .iter()
        .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]])
        .collect()
}

fn ring_lines(ring: &[Vec3], closed: bool) -> impl Iterator<Item = (Vec3, Vec3)> + '_ {
    let n = ring.len();
    let count = if closed && n > 2 {
        n
    } else {
        n.saturating_sub(1)
    };
    (0..count).map(move |i| (ring[i], ring[(i + 1) % n]))
}

/// The range a kind's values are coloured over: from 0 when every value is
/// non-negative (a clearance of 0 is "touching", whatever the data's
/// minimum), to the largest; a single value gets a unit-wide range.
fn value_ranges<P: Borrow<Primitive>>(
    primitives: impl Iterator<Item = P>,
) -> HashMap<String, (f32, f32)> {
    let mut out: HashMap<String, (f32, f32)> = HashMap::new();
    for p in primitives {
        let p = p.borrow();
        if let Some(v) = p.value.filter(|v| v.is_finite()) {
            match out.get_mut(&*p.kind) {
                Some(r) => *r = (r.0.min(v), r.1.max(v)),
                None => {
                    out.insert(p.kind.to_string(), (v, v));
                }
            }
        }
    }
    for r in out.values_mut() {
        if r.0 >= 0.0 {
            r.0 = 0.0;
        }
        if r.1 - r.0 <= f32::EPSILON {
            r.1 = r.0 + 1.0;
        }
    }
    out
}

/// The key a per-element colour is chosen by: a hash of the shape's lowest
/// corner (least x, then z, then y, to the millimetre), so an element keeps
/// its colour when a rebuild renumbers the elements around it (an index
/// would shift every cell after the one that changed). `None` for a shape
/// with no corner.
pub fn place_key(shape: &Shape) -> Option<u32> {
    use std::hash::{Hash, Hasher};
    let lowest = |pts: &mut dyn Iterator<Item = Vec3>| {
        pts.min_by(|a, b| {
            (a.x, a.z, a.y)
                .partial_cmp(&(b.x, b.z, b.y))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    };
    // A polygon's outer ring is read in place (cells are most of them).
    let corner = match shape {
        Shape::Polygon { outer, .. } => lowest(&mut outer.iter().copied()),
        other => lowest(&mut other.points().into_iter()),
    }?;
    let mm = (corner * 1000.0).round();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (mm.x as i64, mm.y as i64, mm.z as i64).hash(&mut h);
    Some(h.finish() as u32)
}

/// Appends the geometry of one primitive to `g` in its style; `unit` is the
/// level's size, which scales point markers.
pub fn add_primitive(g: &mut Group, p: &Primitive, unit: f32) {
    add_primitive_colored(g, p, unit, None);
}

/// Like [`add_primitive`], with `color` (when given) in place of the
/// style's colour for lines, points and fills.
fn add_primitive_colored(g: &mut Group, p: &Primitive, unit: f32, color: Option<[f32; 4]>) {
    let mut s = style_for(&p.kind);
    if let Some(c) = color {
        s.color = c;
        s.per_element = false;
    }
    let fill_color = |alpha: f32| {
        if s.per_element {
            element_color(place_key(&p.shape).unwrap_or(p.element), alpha)
        } else {
            [s.color[0], s.color[1], s.color[2], alpha]
        }
    };
    match &p.shape {
        Shape::Point(at) => g.points.push((*at, s.point * unit, s.color)),
        Shape::Segment(a, b) => g.lines.push((*a, *b, s.color)),
        Shape::Polyline { points, closed } => g
            .lines
            .extend(ring_lines(points, *closed).map(|(a, b)| (a, b, s.color))),
        Shape::Polygon { outer, holes } => {
            for ring in std::iter::once(outer).chain(holes) {
                g.lines
                    .extend(ring_lines(ring, true).map(|(a, b)| (a, b, s.color)));
            }
            if let Some(alpha) = s.fill {
                let c = fill_color(alpha);
                g.triangles.extend(
                    crate::model::tessellate::triangulate(outer, holes)
                        .into_iter()
                        .map(|t| (t, c)),
                );
            }
        }
        Shape::Box { min, max } => {
            g.lines.extend(
                box_edges(*min, *max)
                    .into_iter()
                    .map(|(a, b)| (a, b, s.color)),
            );
            if let Some(alpha) = s.fill {
                let c = fill_color(alpha);
                g.triangles
                    .extend(box_faces(*min, *max).into_iter().map(|t| (t, c)));
            }
        }
        Shape::VoxelColumn { x, z, cell, y0, y1 } => {
            let (min, max) = (Vec3::new(*x, *y0, *z), Vec3::new(x + cell, *y1, z + cell));
            // Voxels are opaque cubes, meshed per tile by `prepare`:
            // thousands of blended cubes would need sorting every frame.
            g.cubes.push((min, max, fill_color(1.0)));
        }
        Shape::Label { at, text } => g.labels.push((*at, text.clone())),
    }
}

/// Groups and triangulates a stage's primitives for drawing: one group per
/// kind, sub-step range and layer, keeping only what `options` shows.
pub fn prepare(primitives: &[Primitive], unit: f32, options: &PrepareOptions) -> Prepared {
    Prepared::new(groups(primitives.iter(), unit, options))
}

/// The groups [`prepare`] makes, before their summary, from `primitives`
/// (borrowed from a slice, or made again one by one by a stage's
/// [`crate::model::stage_primitives::StagePrimitives`]).
pub(crate) fn groups<P: Borrow<Primitive>>(
    primitives: impl Iterator<Item = P> + Clone,
    unit: f32,
    options: &PrepareOptions,
) -> Vec<Group> {
    let ranges = if options.color_by_value {
        value_ranges(primitives.clone())
    } else {
        HashMap::new()
    };
    // Each kind gets a number the first time it is met (a primitive made
    // again by the stage's store does not outlive its turn of the loop,
    // so its kind cannot be a key), and the groups are sorted by kind at
    // the end.
    let mut kinds: HashMap<String, u32> = HashMap::new();
    let mut groups: HashMap<(u32, u32, u32, Option<u32>), Group> = HashMap::new();
    for p in primitives {
        let p = p.borrow();
        if !options.keeps(p) {
            continue;
        }
        let kind = match kinds.get(&*p.kind) {
            Some(&k) => k,
            None => {
                let k = kinds.len() as u32;
                kinds.insert(p.kind.to_string(), k);
                k
            }
        };
        let range = ranges.get(&*p.kind).copied();
        let g = groups
            .entry((kind, p.first_step, p.last_step, p.layer))
            .or_insert_with(|| Group {
                kind: p.kind.to_string(),
                first: p.first_step,
                last: p.last_step,
                layer: p.layer,
                value_range: range,
                ..Default::default()
            });
        let color = range
            .zip(p.value)
            .map(|((lo, hi), v)| ramp_color((v - lo) / (hi - lo)));
        add_primitive_colored(g, p, unit, color);
    }
    if let Some(band) = options.slice {
        // A primitive reaching into the band may reach out of it too (a
        // path over three floors, a wall): cut its pieces to the band.
        for g in groups.values_mut() {
            g.lines = g
                .lines
                .iter()
                .filter_map(|(a, b, c)| band.clip_segment(*a, *b).map(|(a, b)| (a, b, *c)))
                .collect();
            g.points.retain(|(p, _, _)| band.keeps_points([*p]));
            g.triangles = g
                .triangles
                .iter()
                .flat_map(|(t, c)| band.clip_triangle(*t).into_iter().map(|t| (t, *c)))
                .collect();
            g.labels.retain(|(p, _)| band.keeps_points([*p]));
            g.cubes.retain(|(lo, hi, _)| band.overlaps(lo.y, hi.y));
        }
        groups.retain(|_, g| g.drawn() > 0);
    }
    let mut out: Vec<Group> = groups.into_values().collect();
    out.sort_by(|a, b| {
        (&a.kind, a.first, a.last, a.layer).cmp(&(&b.kind, b.first, b.last, b.layer))
    });
    out
}

/// A stage's primitives prepared for drawing with `options` (see
/// [`prepare`]), regrouped for its `substeps` sub-steps
/// ([`crate::model::step_batches`]), with every group's drawable
/// built (its lines, points and triangles then live only there), on the
/// calling thread: a worker's.
pub fn prepare_for_drawing(
    primitives: &StagePrimitives,
    unit: f32,
    options: &PrepareOptions,
    substeps: usize,
) -> Prepared {
    let mut prepared = Prepared::new(batch_for_steps(
        groups(primitives.iter(), unit, options),
        substeps,
    ));
    // Group by group, so that the geometry and its assets do not add up
    // over a stage. What stays in the group is kept for as long as the
    // stage is published: sized exactly (grown by doubling, a stage of a
    // million voxels held up to twice their boxes).
    for g in &mut prepared.groups {
        g.drawable = Some(Box::new(g.take_drawable()));
        g.cubes.shrink_to_fit();
        g.labels.shrink_to_fit();
    }
    prepared.groups.shrink_to_fit();
    prepared
}

/// The size of what the primitives cover (largest extent of their bounds),
/// at least 1.
pub fn extent(points: impl IntoIterator<Item = Vec3>) -> f32 {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in points.into_iter().filter(|p| p.is_finite()) {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    if lo.x > hi.x {
        1.0
    } else {
        (hi - lo).max_element().max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_keeps_its_colour_key_when_renumbered_and_neighbours_differ() {
        let square = |x: f32| Shape::Polygon {
            outer: vec![
                Vec3::new(x + 1.0, 0.0, 0.0),
                Vec3::new(x + 1.0, 0.0, 1.0),
                Vec3::new(x, 0.0, 1.0),
                Vec3::new(x, 0.0, 0.0),
            ],
            holes: vec![],
        };
        // The same cell under another element id (a rebuild renumbered it),
        // its ring starting at another corner: the same key.
        let mut turned = square(0.0);
        if let Shape::Polygon { outer, .. } = &mut turned {
            outer.rotate_left(2);
        }
        assert_eq!(place_key(&square(0.0)), place_key(&turned));
        assert_ne!(place_key(&square(0.0)), place_key(&square(1.0)));
        assert_eq!(
            place_key(&Shape::Polyline {
                points: vec![],
                closed: false
            }),
            None
        );
        // Through the drawing: two primitives of one cell with different
        // element ids get one fill colour.
        let fill = |element: u32| {
            let mut g = Group::default();
            add_primitive(&mut g, &Primitive::new("cell", element, square(0.0)), 1.0);
            g.triangles.first().map(|t| t.1)
        };
        assert_eq!(fill(3), fill(17));
    }

    #[test]
    fn prepare_groups_by_kind_and_step_range() {
        let sq = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
        let prims = vec![
            Primitive::new(
                "cell",
                0,
                Shape::Polygon {
                    outer: sq.clone(),
                    holes: vec![],
                },
            ),
            Primitive::new(
                "cell",
                1,
                Shape::Polygon {
                    outer: sq,
                    holes: vec![],
                },
            ),
            Primitive::new("portal/vertex-edge", 0, Shape::Segment(Vec3::ZERO, Vec3::X))
                .during(2, 5),
            Primitive::new("notch", 4, Shape::Point(Vec3::X)),
        ];
        let p = prepare(&prims, 10.0, &PrepareOptions::default());
        assert_eq!(p.groups.len(), 3);
        let cells = p.groups.iter().find(|g| g.kind == "cell").unwrap();
        assert_eq!(cells.triangles.len(), 4);
        assert_eq!(cells.lines.len(), 8);
        let portal = p
            .groups
            .iter()
            .find(|g| g.kind.starts_with("portal"))
            .unwrap();
        assert_eq!((portal.first, portal.last), (2, 5));
    }

    /// The summary the panels read instead of the groups lists every kind
    /// once, with the range of its values, and every layer, however many
    /// groups (sub-step ranges, layers) a kind is split into.
    #[test]
    fn the_summary_lists_each_kind_and_layer_once() {
        let seg = |kind: &'static str, step: u32, layer: u32, v: Option<f32>| {
            let p = Primitive::new(kind, 0, Shape::Segment(Vec3::ZERO, Vec3::X))
                .during(step, step)
                .on_layer(layer);
            match v {
                Some(v) => p.with_value(v),
                None => p,
            }
        };
        let prims: Vec<Primitive> = (0..40)
            .map(|i| seg("axis", i, i % 3, Some(i as f32)))
            .chain((0..10).map(|i| seg("portal", i, 7, None)))
            .collect();
        let p = prepare(&prims, 1.0, &PrepareOptions::default());
        assert_eq!(p.groups.len(), 50, "one group per sub-step and layer");
        let kinds: Vec<(&str, Option<(f32, f32)>)> =
            p.kinds.iter().map(|(k, r)| (k.as_str(), *r)).collect();
        assert_eq!(kinds, vec![("axis", Some((0.0, 39.0))), ("portal", None)]);
        assert_eq!(
            p.layers.iter().copied().collect::<Vec<_>>(),
            vec![0, 1, 2, 7]
        );
        // Regrouped for drawing, the summary is made again from the new groups.
        let drawn = prepare_for_drawing(&prims.clone().into(), 1.0, &PrepareOptions::default(), 40);
        assert_eq!(drawn.kinds, p.kinds);
        assert_eq!(drawn.layers, p.layers);
        assert!(Prepared::new(Vec::new()).kinds.is_empty());
    }

    #[test]
    fn values_colour_along_a_ramp_over_their_kind_s_range() {
        let seg =
            |v: f32| Primitive::new("axis", 0, Shape::Segment(Vec3::ZERO, Vec3::X)).with_value(v);
        let prims = vec![seg(0.5), seg(2.0), seg(4.0)];
        let p = prepare(&prims, 1.0, &PrepareOptions::default());
        assert_eq!(p.groups.len(), 1);
        let g = &p.groups[0];
        assert_eq!(g.value_range, Some((0.0, 4.0)), "clearances start at 0");
        let colors: Vec<[f32; 4]> = g.lines.iter().map(|l| l.2).collect();
        assert_eq!(colors[0], ramp_color(0.125));
        assert_eq!(colors[2], ramp_color(1.0));
        assert!(colors[0][0] > colors[0][2], "low values are red");
        assert!(colors[2][2] > colors[2][0], "high values are blue");
        let plain = prepare(
            &prims,
            1.0,
            &PrepareOptions {
                color_by_value: false,
                ..Default::default()
            },
        );
        assert_eq!(plain.groups[0].value_range, None);
        assert!(
            plain.groups[0]
                .lines
                .iter()
                .all(|l| l.2 == style_for("axis").color)
        );
    }

    #[test]
    fn voxel_columns_become_cube_instances_grouped_by_layer() {
        let v = |x: f32, layer: u32| {
            Primitive::new(
                "voxel/walkable",
                0,
                Shape::VoxelColumn {
                    x,
                    z: 0.0,
                    cell: 0.3,
                    y0: 1.0,
                    y1: 1.2,
                },
            )
            .on_layer(layer)
        };
        let p = prepare(
            &[v(0.0, 0), v(0.3, 0), v(0.6, 1)],
            1.0,
            &PrepareOptions::default(),
        );
        assert_eq!(p.groups.len(), 2, "one group per layer");
        let g0 = p.groups.iter().find(|g| g.layer == Some(0)).unwrap();
        assert_eq!(g0.drawn(), 2);
        assert!(g0.triangles.is_empty() && g0.lines.is_empty());
        // The second cube fills its cell.
        let (lo, hi, _) = g0.cubes[1];
        assert!((lo - Vec3::new(0.3, 1.0, 0.0)).length() < 1e-6, "{lo}");
        assert!((hi - Vec3::new(0.6, 1.2, 0.3)).length() < 1e-6, "{hi}");
    }
}
