//! What preparing a stage for drawing makes: [`Group`]s of primitives of
//! one kind, sub-step range and layer, and a stage's groups with their
//! summary ([`Prepared`]).

use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

use crate::model::drawable::Drawable;

/// Geometry of the primitives of one kind and one sub-step range.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// The primitives' kind.
    pub kind: String,
    /// First sub-step at which they exist.
    pub first: u32,
    /// Last sub-step at which they exist.
    pub last: u32,
    /// The layer of a multi-layer level they lie on, if any.
    pub layer: Option<u32>,
    /// The range of the values the kind's primitives carry, when they carry
    /// any and the options colour by value: the ramp's ends, for the legend.
    pub value_range: Option<(f32, f32)>,
    /// Line segments with their colour.
    pub lines: Vec<(Vec3, Vec3, [f32; 4])>,
    /// Point markers: centre, radius, colour.
    pub points: Vec<(Vec3, f32, [f32; 4])>,
    /// Filled triangles with their colour.
    pub triangles: Vec<([Vec3; 3], [f32; 4])>,
    /// Text labels.
    pub labels: Vec<(Vec3, String)>,
    /// Voxels as boxes: minimum and maximum corner and colour. They are
    /// meshed per tile only while their group shows
    /// ([`crate::view::voxel_meshing`]).
    pub cubes: Vec<(Vec3, Vec3, [f32; 4])>,
    /// The lines, points and triangles as assets, when the worker that
    /// prepared the group built them ([`Group::take_drawable`]). Boxed:
    /// a drawable is 640 bytes, most of them empty mesh slots, and a stage
    /// of thousands of sub-steps keeps thousands of groups (9,460 on a
    /// 30,000-vertex floor plan's portal stage) after handing them over.
    pub drawable: Option<Box<Drawable>>,
}

impl Group {
    /// How many things it draws: lines, points, triangles, labels, voxels.
    pub fn drawn(&self) -> usize {
        self.lines.len()
            + self.points.len()
            + self.triangles.len()
            + self.labels.len()
            + self.cubes.len()
    }

    /// The assets of its lines, points and triangles, which move into
    /// them: the group keeps its kind, range, labels and value range for
    /// the legend and overlay, and the geometry is not held twice (its
    /// voxels are meshed per tile while shown: [`crate::view::voxel_meshing`]).
    pub fn take_drawable(&mut self) -> Drawable {
        let d = Drawable::new(&self.lines, &self.points, &self.triangles);
        self.lines = Vec::new();
        self.points = Vec::new();
        self.triangles = Vec::new();
        d
    }
}

/// A stage's primitives, grouped and triangulated for drawing, with what
/// the panels list of them summed up once ([`Prepared::new`]): a big
/// stage has thousands of groups, which the panels, drawn every frame,
/// would otherwise walk every frame.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The groups, by kind then sub-step range.
    pub groups: Vec<Group>,
    /// Each kind the groups draw, once, with its value range (the
    /// legend's rows).
    pub kinds: BTreeMap<String, Option<(f32, f32)>>,
    /// The layers the groups lie on (the layer filter's rows).
    pub layers: BTreeSet<u32>,
    /// How many things of each kind the groups draw, counted before their
    /// geometry moves into assets (see [`Group::drawn`]).
    pub drawn: BTreeMap<String, usize>,
}

impl Prepared {
    /// Wraps `groups`, summing up their kinds and layers.
    pub fn new(groups: Vec<Group>) -> Self {
        let mut kinds = BTreeMap::new();
        let mut drawn: BTreeMap<String, usize> = BTreeMap::new();
        for g in &groups {
            if !kinds.contains_key(&g.kind) {
                kinds.insert(g.kind.clone(), g.value_range);
            }
            *drawn.entry(g.kind.clone()).or_default() += g.drawn();
        }
        let layers = groups.iter().filter_map(|g| g.layer).collect();
        Prepared {
            groups,
            kinds,
            layers,
            drawn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::drawable::MARKER_RESOLUTION;

    #[test]
    fn a_groups_lines_points_and_triangles_move_into_a_gizmo_and_a_fill_mesh() {
        let mut g = Group {
            lines: vec![(Vec3::ZERO, Vec3::X, [1.0, 0.0, 0.0, 1.0])],
            points: vec![(Vec3::Y, 0.2, [0.0, 1.0, 0.0, 1.0])],
            triangles: vec![
                ([Vec3::ZERO, Vec3::X, Vec3::Z], [0.0, 0.0, 1.0, 1.0]),
                ([Vec3::X, Vec3::Z, Vec3::ONE], [1.0, 1.0, 1.0, 0.5]),
            ],
            ..Default::default()
        };
        let d = g.take_drawable();
        assert!(
            g.lines.is_empty() && g.points.is_empty() && g.triangles.is_empty(),
            "the geometry moved into the assets"
        );
        let (fill, bounds) = d.fill.expect("a fill mesh");
        assert_eq!(fill.count_vertices(), 6);
        assert_eq!(Vec3::from(bounds.min()), Vec3::ZERO);
        assert_eq!(Vec3::from(bounds.max()), Vec3::ONE);
        let gizmo = d.gizmo.expect("a gizmo");
        let b = gizmo.buffer();
        // The line's two ends, then the marker's circles of
        // MARKER_RESOLUTION sides each.
        let vertices = b.list_positions.len() + b.strip_positions.len();
        assert!(vertices > 2 + 2 * MARKER_RESOLUTION as usize, "{vertices}");
        assert_eq!(b.list_positions.len(), b.list_colors.len());
    }
}
