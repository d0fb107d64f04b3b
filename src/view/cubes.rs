//! Voxels as instanced cubes.
//!
//! Every voxel is an entity with the same unit-cube mesh and one material
//! per colour, placed and sized by its transform. Entities that share a mesh
//! and a material are drawn by Bevy as instances of one draw call, so tens
//! of thousands of voxels cost about as much to submit as one mesh, and
//! each voxel stays a separate cube (shaded by the scene's light, with a
//! small gap so neighbouring voxels read as separate cells).

use std::collections::HashMap;

use bevy::prelude::*;

/// Fraction of its cell a voxel cube fills, leaving a gap to its neighbours.
pub const FILL: f32 = 0.86;

/// The shared cube mesh and the materials by colour.
#[derive(Resource, Default)]
pub struct CubeAssets {
    mesh: Option<Handle<Mesh>>,
    materials: HashMap<[u32; 4], Handle<StandardMaterial>>,
}

impl CubeAssets {
    fn mesh(&mut self, meshes: &mut Assets<Mesh>) -> Handle<Mesh> {
        self.mesh
            .get_or_insert_with(|| meshes.add(Cuboid::new(1.0, 1.0, 1.0)))
            .clone()
    }

    fn material(
        &mut self,
        color: [f32; 4],
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        self.materials
            .entry(color.map(f32::to_bits))
            .or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: Color::srgba(color[0], color[1], color[2], 1.0),
                    perceptual_roughness: 0.85,
                    ..default()
                })
            })
            .clone()
    }
}

/// The transform that turns the unit cube into the voxel between `min` and
/// `max`, shrunk by [`FILL`] about its centre.
pub fn voxel_transform(min: Vec3, max: Vec3) -> Transform {
    Transform::from_translation((min + max) * 0.5).with_scale((max - min).abs() * FILL)
}

/// Spawns one cube entity per voxel as children of `parent`.
pub fn spawn(
    commands: &mut Commands,
    parent: Entity,
    cubes: &[(Vec3, Vec3, [f32; 4])],
    assets: &mut CubeAssets,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let mesh = assets.mesh(meshes);
    let batch: Vec<_> = cubes
        .iter()
        .map(|(min, max, color)| {
            (
                Mesh3d(mesh.clone()),
                MeshMaterial3d(assets.material(*color, materials)),
                voxel_transform(*min, *max),
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
    fn a_voxel_sits_inside_its_cell_with_a_gap() {
        let (min, max) = (Vec3::new(1.0, 2.0, 3.0), Vec3::new(1.3, 2.2, 3.3));
        let t = voxel_transform(min, max);
        let lo = t.transform_point(Vec3::splat(-0.5));
        let hi = t.transform_point(Vec3::splat(0.5));
        assert!(lo.cmpgt(min).all() && hi.cmplt(max).all(), "{lo} {hi}");
        let centre = (min + max) * 0.5;
        assert!(((lo + hi) * 0.5 - centre).length() < 1e-6);
        assert!(((hi - lo) - (max - min) * FILL).length() < 1e-6);
    }

    #[test]
    fn one_material_per_colour() {
        let mut assets = CubeAssets::default();
        let mut materials = Assets::<StandardMaterial>::default();
        let a = assets.material([1.0, 0.0, 0.0, 1.0], &mut materials);
        let b = assets.material([1.0, 0.0, 0.0, 1.0], &mut materials);
        let c = assets.material([0.0, 1.0, 0.0, 1.0], &mut materials);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(materials.len(), 2);
    }
}
