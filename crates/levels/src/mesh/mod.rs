//! Triangle-mesh levels: Wavefront OBJ (through `tobj`) and glTF 2.0
//! (`.gltf` with embedded or neighbouring buffers, `.glb`, through `gltf`).
//!
//! Meshes are taken as they are: Y up, metres (the usual convention of both
//! formats). glTF node transforms of the default scene (or of every root
//! node when there is no scene) are applied.
//!
//! **Water volumes.** Any OBJ object or group, or glTF node or mesh, whose
//! name starts with `water` (any case) is not solid: its axis-aligned
//! bounding box becomes a water volume of the level (filled with water up
//! to its top) and its triangles are left out of the solid mesh.

mod gltf;
mod obj;

pub(crate) use gltf::{ExternalReader, parse as parse_gltf};
pub(crate) use obj::parse as parse_obj;

use glam::Vec3;
use navscope_core::geom::{Aabb, TriMesh};
use navscope_core::level::MeshLevel;

use crate::bounds::beyond;
use crate::error::Fault;

/// True for names that mark water volumes.
pub(crate) fn is_water(name: &str) -> bool {
    name.get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("water"))
}

/// Collects solid triangles and water boxes.
#[derive(Default)]
pub(crate) struct MeshBuilder {
    mesh: TriMesh,
    water: Vec<Aabb>,
}

impl MeshBuilder {
    /// Adds one named part: positions and triangles indexing them.
    pub fn add(
        &mut self,
        name: &str,
        positions: &[Vec3],
        triangles: impl IntoIterator<Item = [u32; 3]>,
    ) {
        if is_water(name) {
            if !positions.is_empty() {
                self.water
                    .push(Aabb::from_points(positions.iter().map(|p| p.as_dvec3())));
            }
            return;
        }
        let base = self.mesh.vertices.len() as u32;
        self.mesh.vertices.extend_from_slice(positions);
        self.mesh.triangles.extend(
            triangles
                .into_iter()
                .map(|t| [t[0] + base, t[1] + base, t[2] + base]),
        );
    }

    /// The level; an error when nothing solid is left.
    pub fn finish(self) -> Result<MeshLevel, Fault> {
        if self.mesh.triangles.is_empty() {
            return Err(Fault::geometry("", "the mesh has no solid triangles"));
        }
        if let Some(i) = self.mesh.vertices.iter().position(|v| !v.is_finite()) {
            return Err(Fault::geometry(
                format!("vertex {i}"),
                "coordinate is not a finite number",
            ));
        }
        if let Some((i, problem)) =
            self.mesh.vertices.iter().enumerate().find_map(|(i, v)| {
                beyond("coordinate", v.to_array().map(f64::from)).map(|e| (i, e))
            })
        {
            return Err(Fault::geometry(format!("vertex {i}"), problem));
        }
        if let Some(t) = self.mesh.first_bad_index() {
            return Err(Fault::reference(
                format!("triangle {t}"),
                "refers to a vertex that does not exist",
            ));
        }
        Ok(MeshLevel {
            mesh: self.mesh,
            water: self.water,
            ..MeshLevel::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn water_names_and_offsets() {
        assert!(
            is_water("Water_pool")
                && is_water("water")
                && !is_water("wat")
                && !is_water("underwater")
                && !is_water("wa\u{e9}\u{e9}")
        );
        let mut b = MeshBuilder::default();
        b.add("floor", &[Vec3::ZERO, Vec3::X, Vec3::Z], [[0, 1, 2]]);
        b.add("wall", &[Vec3::ZERO, Vec3::Y, Vec3::X], [[0, 2, 1]]);
        b.add(
            "WATER1",
            &[Vec3::new(1., -1., 1.), Vec3::new(3., 0., 2.)],
            [],
        );
        let m = b.finish().unwrap();
        assert_eq!(m.mesh.triangles, vec![[0, 1, 2], [3, 5, 4]]);
        assert_eq!(m.water.len(), 1);
        assert_eq!(m.water[0].max, glam::DVec3::new(3., 0., 2.));
        assert!(MeshBuilder::default().finish().is_err());
    }
}
