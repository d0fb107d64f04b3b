//! A prepared group's drawing as render-ready assets: its lines and point
//! markers as one retained gizmo, its fills as one vertex-coloured mesh.
//!
//! Building them means a colour conversion per vertex and a dozen segments
//! per point marker; for a Quake map's last stage (tens of thousands of
//! links and nodes) that was over a hundred milliseconds of the frame that
//! showed it. [`crate::model::prepare::prepare_for_drawing`] does it on the worker thread that
//! prepares the stage, so the main thread only hands the finished assets
//! over.

use bevy::asset::RenderAssetUsages;
use bevy::camera::primitives::{Aabb, MeshAabb};
use bevy::mesh::{PrimitiveTopology, VertexAttributeValues};
use bevy::prelude::*;

use crate::model::compact_vertex;

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
    /// The assets of `lines`, `points` and `triangles`.
    pub fn new(
        lines: &[(Vec3, Vec3, [f32; 4])],
        points: &[(Vec3, f32, [f32; 4])],
        triangles: &[([Vec3; 3], [f32; 4])],
    ) -> Self {
        let as_mesh = lines.len() >= LINE_MESH_FROM;
        let gizmo_lines: &[_] = if as_mesh { &[] } else { lines };
        let gizmo = (!gizmo_lines.is_empty() || !points.is_empty()).then(|| {
            let mut asset = GizmoAsset::new();
            // Sized exactly: grown by doubling, a big stage's buffers held
            // up to twice the memory they use.
            asset.list_positions.reserve_exact(2 * gizmo_lines.len());
            asset.list_colors.reserve_exact(2 * gizmo_lines.len());
            for (a, b, c) in gizmo_lines {
                asset.line(*a, *b, srgba(*c));
            }
            for (at, r, c) in points {
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
            .then(|| line_mesh(lines))
            .and_then(|m| m.compute_aabb().map(|b| (m, b)));
        let fill = (!triangles.is_empty())
            .then(|| triangle_mesh(triangles, false))
            .and_then(|m| m.compute_aabb().map(|b| (m, b)));
        Drawable { gizmo, lines, fill }
    }
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
    fn no_geometry_gets_no_assets() {
        let d = Drawable::new(&[], &[], &[]);
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
    fn many_lines_are_drawn_as_a_line_mesh_and_markers_in_a_gizmo() {
        let n = LINE_MESH_FROM;
        let d = Drawable::new(&rows(n), &[(Vec3::Y, 0.2, [0.0, 1.0, 0.0, 1.0])], &[]);
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
    fn fewer_lines_are_kept_in_the_gizmo() {
        let n = LINE_MESH_FROM - 1;
        let d = Drawable::new(&rows(n), &[], &[]);
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
