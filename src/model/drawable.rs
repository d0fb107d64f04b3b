//! A prepared group's drawing as render-ready assets: its lines and point
//! markers as one retained gizmo, its fills as one vertex-coloured mesh.
//!
//! Building them means a colour conversion per vertex and a dozen segments
//! per point marker; for a Quake map's last stage (tens of thousands of
//! links and nodes) that was over a hundred milliseconds of the frame that
//! showed it. [`prepare_for_drawing`] does it on the worker thread that
//! prepares the stage, so the main thread only hands the finished assets
//! over.

use bevy::asset::RenderAssetUsages;
use bevy::camera::primitives::{Aabb, MeshAabb};
use bevy::mesh::{PrimitiveTopology, VertexAttributeValues};
use bevy::prelude::*;

use crate::model::band::PrepareOptions;
use crate::model::compact_vertex;
use crate::model::prepare::{Group, Prepared, groups};
use crate::model::stage_primitives::StagePrimitives;

/// Sides of the circles a point marker is drawn with.
pub const MARKER_RESOLUTION: u32 = 12;

/// A group of at least this many lines draws them as a line mesh
/// ([`Drawable::lines`]) instead of in its gizmo.
///
/// Bevy copies a retained gizmo whole from the main world into the render
/// world in the frame after it is added (a gizmo asset is kept in both), and
/// such a copy of `dungeon.obj`'s compact stage (1.4 million neighbour
/// lines at 0.1 m cells, 56 bytes a line) took 80 ms of the frame that
/// published it. A mesh kept only in the render world moves there instead,
/// and takes 32 bytes a line. Its lines are the renderer's own, one pixel
/// wide and solid whatever the kind's style: at this many lines the view
/// shows a texture of them rather than each one.
pub const LINE_MESH_FROM: usize = 100_000;

/// A group's geometry as assets, ready to add to `Assets`.
#[derive(Clone, Debug, Default)]
pub struct Drawable {
    /// Lines and point markers, when the group has any (its lines only
    /// when fewer than [`LINE_MESH_FROM`]).
    pub gizmo: Option<GizmoAsset>,
    /// The lines of a group of at least [`LINE_MESH_FROM`], as a line
    /// list mesh, with its culling box.
    pub lines: Option<(Mesh, Aabb)>,
    /// Filled triangles, when the group has any, with their culling box
    /// (Bevy cannot compute it from a mesh kept only in the render world).
    pub fill: Option<(Mesh, Aabb)>,
}

impl Drawable {
    /// The assets of `g`'s lines, points and triangles, which move into
    /// them: the group keeps its kind, range, labels and value range for
    /// the legend and overlay, and the geometry is not held twice (its
    /// voxels are meshed per tile while shown: [`crate::view::voxel_meshing`]).
    pub fn take(g: &mut Group) -> Self {
        let d = Self::of(g);
        g.lines = Vec::new();
        g.points = Vec::new();
        g.triangles = Vec::new();
        d
    }

    /// The assets of `g`'s lines, points and triangles.
    fn of(g: &Group) -> Self {
        let as_mesh = g.lines.len() >= LINE_MESH_FROM;
        let gizmo_lines: &[_] = if as_mesh { &[] } else { &g.lines };
        let gizmo = (!gizmo_lines.is_empty() || !g.points.is_empty()).then(|| {
            let mut asset = GizmoAsset::new();
            // Sized exactly: grown by doubling, a big stage's buffers held
            // up to twice the memory they use.
            asset.list_positions.reserve_exact(2 * gizmo_lines.len());
            asset.list_colors.reserve_exact(2 * gizmo_lines.len());
            for (a, b, c) in gizmo_lines {
                asset.line(*a, *b, srgba(*c));
            }
            for (at, r, c) in &g.points {
                asset
                    .sphere(Isometry3d::from_translation(*at), *r, srgba(*c))
                    .resolution(MARKER_RESOLUTION);
            }
            asset.list_positions.shrink_to_fit();
            asset.list_colors.shrink_to_fit();
            asset.strip_positions.shrink_to_fit();
            asset.strip_colors.shrink_to_fit();
            asset
        });
        let lines = as_mesh
            .then(|| line_mesh(&g.lines))
            .and_then(|m| m.compute_aabb().map(|b| (m, b)));
        let fill = (!g.triangles.is_empty())
            .then(|| triangle_mesh(&g.triangles, false))
            .and_then(|m| m.compute_aabb().map(|b| (m, b)));
        Drawable { gizmo, lines, fill }
    }
}

/// A stage's primitives prepared for drawing with `options` (see
/// [`prepare`](crate::model::prepare::prepare)), regrouped for its `substeps` sub-steps
/// ([`crate::model::step_batches`]), with every group's [`Drawable`]
/// built (its lines, points and triangles then live only there), on the
/// calling thread: a worker's.
pub fn prepare_for_drawing(
    primitives: &StagePrimitives,
    unit: f32,
    options: &PrepareOptions,
    substeps: usize,
) -> Prepared {
    let mut prepared = Prepared::new(crate::model::step_batches::batch_for_steps(
        groups(primitives.iter(), unit, options),
        substeps,
    ));
    // Group by group, so that the geometry and its assets do not add up
    // over a stage. What stays in the group is kept for as long as the
    // stage is published: sized exactly (grown by doubling, a stage of a
    // million voxels held up to twice their boxes).
    for g in &mut prepared.groups {
        g.drawable = Some(Box::new(Drawable::take(g)));
        g.cubes.shrink_to_fit();
        g.labels.shrink_to_fit();
    }
    prepared.groups.shrink_to_fit();
    prepared
}

/// Per-vertex linear colours, as bytes ([`compact_vertex::COLOR_UNORM8`]),
/// for triangles given with one sRGB colour each.
pub fn vertex_colors(tris: &[([Vec3; 3], [f32; 4])]) -> Vec<[u8; 4]> {
    tris.iter()
        .flat_map(|(_, c)| [compact_vertex::linear_bytes(*c, 1.0); 3])
        .collect()
}

/// A mesh of sRGB-coloured triangles; with face normals when it is `lit`
/// (the level's surface), without when not (the stages' fills, whose
/// material is unlit).
pub fn triangle_mesh(tris: &[([Vec3; 3], [f32; 4])], lit: bool) -> Mesh {
    let positions: Vec<[f32; 3]> = tris
        .iter()
        .flat_map(|(t, _)| t.map(|p| p.to_array()))
        .collect();
    let normals = lit.then(|| {
        tris.iter()
            .flat_map(|(t, _)| {
                let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or(Vec3::Y);
                [n.to_array(); 3]
            })
            .collect()
    });
    colored_mesh(
        PrimitiveTopology::TriangleList,
        positions,
        normals,
        vertex_colors(tris),
    )
}

/// A line list of sRGB-coloured segments, kept in the render world only.
pub fn line_mesh(lines: &[(Vec3, Vec3, [f32; 4])]) -> Mesh {
    let positions: Vec<[f32; 3]> = lines
        .iter()
        .flat_map(|(a, b, _)| [a.to_array(), b.to_array()])
        .collect();
    let colors: Vec<[u8; 4]> = lines
        .iter()
        .flat_map(|(_, _, c)| [compact_vertex::linear_bytes(*c, 1.0); 2])
        .collect();
    colored_mesh(PrimitiveTopology::LineList, positions, None, colors)
}

/// A mesh of `topology` with per-vertex positions, normals when it is lit,
/// and colours as bytes, kept in the render world only.
fn colored_mesh(
    topology: PrimitiveTopology,
    positions: Vec<[f32; 3]>,
    normals: Option<Vec<[f32; 3]>>,
    colors: Vec<[u8; 4]>,
) -> Mesh {
    let mesh = Mesh::new(topology, RenderAssetUsages::RENDER_WORLD)
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(
            compact_vertex::COLOR_UNORM8,
            VertexAttributeValues::Unorm8x4(colors),
        );
    match normals {
        Some(n) => mesh.with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, n),
        None => mesh,
    }
}

/// The colour of an sRGBA quadruple, as primitives carry it.
pub fn srgba(c: [f32; 4]) -> Color {
    Color::srgba(c[0], c[1], c[2], c[3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_of_lines_points_and_triangles_gets_a_gizmo_and_a_fill_mesh() {
        let mut g = Group {
            lines: vec![(Vec3::ZERO, Vec3::X, [1.0, 0.0, 0.0, 1.0])],
            points: vec![(Vec3::Y, 0.2, [0.0, 1.0, 0.0, 1.0])],
            triangles: vec![
                ([Vec3::ZERO, Vec3::X, Vec3::Z], [0.0, 0.0, 1.0, 1.0]),
                ([Vec3::X, Vec3::Z, Vec3::ONE], [1.0, 1.0, 1.0, 0.5]),
            ],
            ..Default::default()
        };
        let d = Drawable::take(&mut g);
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

    #[test]
    fn an_empty_group_gets_no_assets() {
        let d = Drawable::of(&Group::default());
        assert!(d.gizmo.is_none() && d.lines.is_none() && d.fill.is_none());
    }

    /// `n` unit segments along x, one per row, in two colours.
    fn rows(n: usize) -> Vec<(Vec3, Vec3, [f32; 4])> {
        (0..n)
            .map(|i| {
                let a = Vec3::new(0.0, 0.0, i as f32);
                let c = if i % 2 == 0 {
                    [1.0, 0.0, 0.0, 1.0]
                } else {
                    [0.0, 0.0, 1.0, 1.0]
                };
                (a, a + Vec3::X, c)
            })
            .collect()
    }

    #[test]
    fn a_group_of_many_lines_draws_them_as_a_line_mesh_and_its_markers_in_a_gizmo() {
        let n = LINE_MESH_FROM;
        let mut g = Group {
            lines: rows(n),
            points: vec![(Vec3::Y, 0.2, [0.0, 1.0, 0.0, 1.0])],
            ..Default::default()
        };
        let d = Drawable::take(&mut g);
        let (mesh, bounds) = d.lines.expect("a line mesh");
        assert_eq!(mesh.primitive_topology(), PrimitiveTopology::LineList);
        assert_eq!(mesh.count_vertices(), 2 * n);
        assert_eq!(Vec3::from(bounds.min()), Vec3::ZERO);
        assert_eq!(
            Vec3::from(bounds.max()),
            Vec3::new(1.0, 0.0, (n - 1) as f32)
        );
        let Some(VertexAttributeValues::Unorm8x4(colors)) =
            mesh.attribute(compact_vertex::COLOR_UNORM8)
        else {
            panic!("colours as bytes");
        };
        // Both ends of a line take its colour; the rows alternate.
        assert_eq!(colors[0], colors[1]);
        assert_ne!(colors[1], colors[2]);
        assert_eq!(
            colors[0],
            compact_vertex::linear_bytes([1.0, 0.0, 0.0, 1.0], 1.0)
        );
        let gizmo = d.gizmo.expect("the marker's gizmo");
        assert!(
            gizmo.buffer().list_positions.len() + gizmo.buffer().strip_positions.len()
                < 8 * MARKER_RESOLUTION as usize,
            "the gizmo holds the marker, not the lines"
        );
    }

    #[test]
    fn a_group_of_fewer_lines_keeps_them_in_its_gizmo() {
        let n = LINE_MESH_FROM - 1;
        let d = Drawable::of(&Group {
            lines: rows(n),
            ..Default::default()
        });
        assert!(d.lines.is_none());
        assert_eq!(
            d.gizmo.expect("a gizmo").buffer().list_positions.len(),
            2 * n
        );
    }

    #[test]
    fn vertex_colours_are_linear_and_three_per_triangle() {
        let c = vertex_colors(&[([Vec3::ZERO; 3], [0.5, 0.5, 0.5, 1.0])]);
        assert_eq!(c.len(), 3);
        // sRGB 0.5 is about 0.214 linear: 55 of 255.
        assert_eq!(c[0], [55, 55, 55, 255]);
    }
}
