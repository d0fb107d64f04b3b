//! Voxels on screen: each prepared tile ([`VoxelTile`]) becomes mesh
//! entities, all sharing one unlit, vertex-coloured material, so a stage of
//! a million voxels is a few hundred draws the renderer culls tile by tile.
//!
//! Level of detail: a tile with a coarse mesh shows it while one of its
//! cells would cover fewer than [`COARSE_BELOW_PX`] pixels, and its full
//! mesh otherwise ([`choose_detail`], re-decided only when the camera, the
//! tiles or the shown stages change); [`VoxelDetail`] counts the shown
//! tiles drawn coarse, which the legend reports.

use bevy::asset::RenderAssetUsages;
use bevy::camera::primitives::Aabb;
use bevy::ecs::entity_disabling::Disabled;
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::prelude::*;

use crate::model::compact_vertex;
use crate::model::voxel_mesh::{VoxelChunk, VoxelTile};
use crate::view::scene::MainCamera;

/// A tile draws coarse while one voxel cell covers fewer pixels than this.
pub const COARSE_BELOW_PX: f32 = 3.0;

/// One mesh entity of a voxel tile: the tile's centre and cell size (the
/// same on its full and coarse entities, so both decide alike) and which
/// mesh it is.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct TileDetail {
    /// The tile's centre.
    pub centre: Vec3,
    /// The width of one voxel cell.
    pub cell: f32,
    /// This entity draws the coarse mesh.
    pub coarse: bool,
    /// The tile has a coarse mesh (else its full mesh always shows).
    pub has_coarse: bool,
}

impl TileDetail {
    /// Whether this entity shows when coarse drawing is `wanted` for its
    /// tile.
    pub fn shows(&self, wanted: bool) -> bool {
        if self.coarse {
            wanted
        } else {
            !(wanted && self.has_coarse)
        }
    }
}

/// Marks the parent of a group's voxel tiles (the group is shown while it
/// is not disabled, see [`crate::view::draw::set_shown`]).
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct VoxelGroup;

/// What the view simplifies: how many tiles of the shown stages draw
/// their coarse mesh; and how many shown voxel groups are still being
/// meshed ([`crate::view::voxel_meshing`]), whose tiles are yet to come.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct VoxelDetail {
    /// Shown tiles drawn coarse.
    pub coarse_tiles: usize,
    /// Shown tiles in all.
    pub tiles: usize,
    /// Shown voxel groups whose meshing is in flight.
    pub meshing: usize,
}

/// The material every voxel tile shares.
#[derive(Resource, Default)]
pub struct CubeAssets {
    material: Option<Handle<StandardMaterial>>,
}

impl CubeAssets {
    fn material(&mut self, materials: &mut Assets<StandardMaterial>) -> Handle<StandardMaterial> {
        self.material
            .get_or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: Color::WHITE,
                    // The tile's corners carry their shading.
                    unlit: true,
                    ..default()
                })
            })
            .clone()
    }
}

/// The mesh of one tile, kept in the render world only, in the compact
/// formats its chunk carries (placed by [`chunk_transform`]).
pub fn chunk_mesh(chunk: VoxelChunk) -> Mesh {
    let VoxelChunk {
        positions,
        colors,
        indices,
        ..
    } = chunk;
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(
        compact_vertex::POSITION_UNORM16,
        VertexAttributeValues::Unorm16x4(positions),
    )
    .with_inserted_attribute(
        compact_vertex::COLOR_UNORM8,
        VertexAttributeValues::Unorm8x4(colors),
    )
    .with_inserted_indices(Indices::U16(indices))
}

/// Where a chunk's mesh goes: its corners are fractions of its box, so
/// the entity's transform maps the unit cube onto the box (and the
/// culling box is the unit cube).
pub fn chunk_transform(chunk: &VoxelChunk) -> Transform {
    let (lo, hi) = chunk.bounds.unwrap_or_default();
    compact_vertex::box_transform(lo, hi - lo)
}

/// Spawns each tile's meshes as children of `parent`, each placed on its
/// box ([`chunk_transform`]) and given its [`TileDetail`]; the
/// full meshes start shown and the coarse ones hidden until
/// [`choose_detail`] decides.
pub fn spawn(
    commands: &mut Commands,
    parent: Entity,
    tiles: Vec<VoxelTile>,
    assets: &mut CubeAssets,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let material = assets.material(materials);
    let mut batch = Vec::new();
    for tile in tiles {
        let has_coarse = !tile.coarse.is_empty();
        let detail = |coarse| TileDetail {
            centre: tile.centre,
            cell: tile.cell,
            coarse,
            has_coarse,
        };
        let full = tile.full.into_iter().map(|c| (c, detail(false)));
        let coarse = tile.coarse.into_iter().map(|c| (c, detail(true)));
        for (chunk, detail) in full.chain(coarse) {
            let transform = chunk_transform(&chunk);
            batch.push((
                detail,
                if detail.shows(false) {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                },
                Aabb::from_min_max(Vec3::ZERO, Vec3::ONE),
                Mesh3d(meshes.add(chunk_mesh(chunk))),
                MeshMaterial3d(material.clone()),
                transform,
                // Set here, not by Bevy's propagation, so the tile is placed
                // in the frame it arrives (propagation runs later in it) and
                // even under a group disabled meanwhile, which Bevy does not
                // propagate to.
                GlobalTransform::from(transform),
                ChildOf(parent),
            ));
        }
    }
    commands.spawn_batch(batch);
}

/// How many pixels one voxel cell of size `cell` at `at` covers on screen,
/// measured along the camera's right axis (`None` when `at` is behind the
/// camera or the camera has no viewport yet).
pub fn cell_pixels(camera: &Camera, tf: &GlobalTransform, at: Vec3, cell: f32) -> Option<f32> {
    let a = camera.world_to_viewport(tf, at).ok()?;
    let b = camera.world_to_viewport(tf, at + tf.right() * cell).ok()?;
    Some(a.distance(b))
}

/// What the level of detail depends on: the camera's place and
/// projection and the viewport's size.
type CameraKey = (Mat4, Mat4, Option<UVec2>);

/// Shows each voxel tile's full or coarse mesh by how big its cells look,
/// and counts the shown tiles drawn coarse. Runs its loop only when the
/// camera moved, tiles were added or a voxel group was shown or hidden.
/// The tiles of hidden groups are disabled, so every tile it visits shows.
#[allow(clippy::type_complexity)]
pub fn choose_detail(
    cameras: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    added: Query<(), Added<TileDetail>>,
    shown_now: Query<(), (With<VoxelGroup>, Without<TileDetail>, Changed<Visibility>)>,
    hidden_now: Query<(), (With<VoxelGroup>, Added<Disabled>)>,
    mut tiles: Query<(&TileDetail, &mut Visibility)>,
    mut last: Local<Option<CameraKey>>,
    mut detail: ResMut<VoxelDetail>,
) {
    let Ok((camera, tf)) = cameras.single() else {
        return;
    };
    let key = (
        tf.to_matrix(),
        camera.clip_from_view(),
        camera.physical_viewport_size(),
    );
    if *last == Some(key) && added.is_empty() && shown_now.is_empty() && hidden_now.is_empty() {
        return;
    }
    *last = Some(key);
    let mut count = VoxelDetail {
        meshing: detail.meshing,
        ..default()
    };
    for (tile, mut visibility) in &mut tiles {
        let wanted = tile.has_coarse
            && cell_pixels(camera, tf, tile.centre, tile.cell)
                .is_some_and(|px| px < COARSE_BELOW_PX);
        let v = if tile.shows(wanted) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(v);
        // Count each tile once: by its full mesh entity.
        if !tile.coarse {
            count.tiles += 1;
            count.coarse_tiles += usize::from(wanted);
        }
    }
    detail.set_if_neq(count);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_mesh_keeps_every_corner_and_triangle() {
        let tiles = crate::model::voxel_mesh::tiles(&[
            (Vec3::ZERO, Vec3::splat(0.1), [1.0, 0.0, 0.0, 1.0]),
            (Vec3::X, Vec3::X + Vec3::splat(0.1), [0.0, 1.0, 0.0, 1.0]),
        ]);
        let chunk = tiles[0].full[0].clone();
        let place = chunk_transform(&chunk);
        let mesh = chunk_mesh(chunk.clone());
        assert_eq!(mesh.count_vertices(), 16);
        assert_eq!(mesh.indices().map(|i| i.len()), Some(72));
        // The transform puts every corner where the chunk says it is, and
        // the world corners span the cubes (shrunk by the gap).
        let Some(bevy::mesh::VertexAttributeValues::Unorm16x4(q)) =
            mesh.attribute(compact_vertex::POSITION_UNORM16)
        else {
            panic!("positions in the compact format");
        };
        for (i, q) in q.iter().enumerate() {
            let unit = Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / 65535.0;
            let at = place.transform_point(unit);
            assert!((at - chunk.corner(i)).length() < 1e-5, "corner {i}: {at}");
        }
        let (lo, hi) = chunk.bounds.expect("bounds");
        let gap = 0.1 * (1.0 - crate::model::voxel_mesh::FILL) / 2.0;
        assert!((lo - Vec3::splat(gap)).length() < 1e-5, "{lo}");
        assert!(
            (hi - (Vec3::X + Vec3::splat(0.1 - gap))).length() < 1e-5,
            "{hi}"
        );
    }

    #[test]
    fn a_tile_shows_exactly_one_of_its_meshes() {
        for has_coarse in [false, true] {
            for wanted in [false, true] {
                let d = |coarse| TileDetail {
                    centre: Vec3::ZERO,
                    cell: 0.1,
                    coarse,
                    has_coarse,
                };
                let shown = [d(false), d(true)]
                    .iter()
                    .filter(|t| (has_coarse || !t.coarse) && t.shows(wanted))
                    .count();
                assert_eq!(shown, 1, "has_coarse {has_coarse}, wanted {wanted}");
            }
        }
    }

    #[test]
    fn one_material_for_every_tile() {
        let mut assets = CubeAssets::default();
        let mut materials = Assets::<StandardMaterial>::default();
        let a = assets.material(&mut materials);
        let b = assets.material(&mut materials);
        assert_eq!(a, b);
        assert_eq!(materials.len(), 1);
    }
}
