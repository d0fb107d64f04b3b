//! Voxels on screen: each prepared tile ([`VoxelChunk`]) becomes one mesh
//! entity, all sharing one unlit, vertex-coloured material, so a stage of a
//! million voxels is a few hundred draws the renderer culls tile by tile.

use bevy::asset::RenderAssetUsages;
use bevy::camera::primitives::Aabb;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::model::voxel_mesh::VoxelChunk;

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

/// The mesh of one tile, kept in the render world only.
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
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
    .with_inserted_indices(Indices::U16(indices))
}

/// Spawns one mesh entity per tile as children of `parent`, each with its
/// culling box (see [`VoxelChunk::bounds`]).
pub fn spawn(
    commands: &mut Commands,
    parent: Entity,
    chunks: Vec<VoxelChunk>,
    assets: &mut CubeAssets,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let material = assets.material(materials);
    let batch: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            let (lo, hi) = chunk.bounds.unwrap_or_default();
            (
                Aabb::from_min_max(lo, hi),
                Mesh3d(meshes.add(chunk_mesh(chunk))),
                MeshMaterial3d(material.clone()),
                Transform::default(),
                ChildOf(parent),
            )
        })
        .collect();
    commands.spawn_batch(batch);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_mesh_keeps_every_corner_and_triangle() {
        let chunks = crate::model::voxel_mesh::chunks(&[
            (Vec3::ZERO, Vec3::splat(0.1), [1.0, 0.0, 0.0, 1.0]),
            (Vec3::X, Vec3::X + Vec3::splat(0.1), [0.0, 1.0, 0.0, 1.0]),
        ]);
        let mesh = chunk_mesh(chunks[0].clone());
        assert_eq!(mesh.count_vertices(), 16);
        assert_eq!(mesh.indices().map(|i| i.len()), Some(72));
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
