//! Brush level → triangle mesh, so that mesh pipelines (`voxel`) run on the
//! same `.map` as `cspace`.
//!
//! The brushes keep the semantics the loader gave them ([`Contents`]):
//! * solid and clip brushes become their faces, each face a fan of
//!   triangles wound counter-clockwise seen from outside (so a floor's
//!   triangles face up);
//! * lifts and trains become solid where they rest (a train at its first
//!   corner), doors where they rest when they
//!   are solid there ([`navscope_core::level::rests_solid`]), as in
//!   `cspace`;
//! * water brushes become the level's water volumes (their boxes);
//! * slime, lava, triggers and empty brushes are left out: a triangle
//!   mesh has no way to say "hurts", and triggers are not solid;
//! * brushes whose planes make no closed convex solid are left out and
//!   counted in the returned report;
//! * on a sealed map, the faces that face the outside (the roof's top, the
//!   outer side of every outer wall) are left out, as `qbsp` leaves them
//!   out ([`navscope_core::outside`]), so that no NavMesh is made on the
//!   map's roof: a face is outside when, from its centre and from a point
//!   near each of its corners, the first empty flood cell along its normal
//!   (within two cells) was reached from beyond the map. A face partly
//!   inside (a floor slab running on under an outer wall) is kept whole:
//!   `qbsp` would cut it, and a mesh without its inside part would have a
//!   hole in the floor or the wall. [`Converted::seal`] says what the flood found;
//! * the level's doors (their closed volumes), lifts (low and high tops),
//!   trains (their boxes at each corner),
//!   teleporters, pushers and exit ([`BrushLevel::movers`], as `cspace`
//!   derives them) go with the mesh as [`MeshLevel::movers`], so a mesh
//!   pipeline can link them.

use glam::DVec3;
use navscope_core::geom::TriMesh;
use navscope_core::geom::polyhedron::{Polyhedron, polygon_centroid};
use navscope_core::level::{BrushLevel, Contents, MeshLevel};
use navscope_core::outside::Seal;

/// A converted level and the brushes the conversion left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// The mesh level.
    pub level: MeshLevel,
    /// `brush N: problem` for each brush left out.
    pub skipped: Vec<String>,
    /// Faces left out because they face the outside of the sealed map.
    pub outside_faces: usize,
    /// What the flood from outside found (see [`Seal::describe`]).
    pub seal: String,
}

/// Converts a brush level to a triangle-mesh level (see the module docs).
/// Fails only when no solid triangle is left.
pub fn brush_mesh(level: &BrushLevel) -> Result<Converted, String> {
    let mut offsets: Vec<Option<DVec3>> = vec![Some(DVec3::ZERO); level.brushes.len()];
    for g in level.mover_groups() {
        for i in g.brushes {
            offsets[i] = g.solid.then_some(g.offset);
        }
    }
    let seal = Seal::of(level);
    let outside = seal.outside();
    // A face is left out only when all of it faces the outside: its centre
    // and a point near each corner. A face that runs on under an outer
    // wall (a floor slab, a wall reaching out of the map) keeps its inside.
    let faces_outside = |f: &navscope_core::geom::polyhedron::Face| {
        !f.vertices.is_empty()
            && outside.is_some_and(|o| {
                let centre = polygon_centroid(&f.vertices);
                std::iter::once(centre)
                    .chain(f.vertices.iter().map(|v| v.lerp(centre, 0.1)))
                    .all(|p| o.at(p, f.plane.normal, 2.0 * o.cell()))
            })
    };
    let mut mesh = TriMesh::default();
    let mut water = Vec::new();
    let mut skipped = Vec::new();
    let mut outside_faces = 0;
    for (i, b) in level.brushes.iter().enumerate() {
        let solid = match b.contents {
            Contents::Solid
            | Contents::Clip
            | Contents::Door
            | Contents::Lift
            | Contents::Train => true,
            Contents::Water => false,
            Contents::Slime | Contents::Lava | Contents::Trigger | Contents::Empty => continue,
        };
        let Some(offset) = offsets[i] else { continue };
        let poly = match Polyhedron::from_planes(&b.moved(offset).planes) {
            Ok(p) => p,
            Err(e) => {
                skipped.push(format!("brush {i}: {e}"));
                continue;
            }
        };
        if !solid {
            water.push(poly.bounds);
            continue;
        }
        for f in &poly.faces {
            if faces_outside(f) {
                outside_faces += 1;
                continue;
            }
            let base = mesh.vertices.len() as u32;
            mesh.vertices.extend(f.vertices.iter().map(|v| v.as_vec3()));
            for k in 1..f.vertices.len().saturating_sub(1) as u32 {
                mesh.triangles.push([base, base + k, base + k + 1]);
            }
        }
    }
    if mesh.triangles.is_empty() {
        return Err("the brush level has no solid brush to make triangles of".into());
    }
    Ok(Converted {
        level: MeshLevel {
            mesh,
            water,
            movers: level.movers(None),
            volumes: Vec::new(),
        },
        skipped,
        outside_faces,
        seal: seal.describe(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::Plane;
    use navscope_core::level::{Brush, Entity};

    fn cube(min: DVec3, max: DVec3, contents: Contents, entity: Option<usize>) -> Brush {
        Brush::cuboid(min, max, contents, entity)
    }

    #[test]
    fn solids_are_faces_water_is_a_volume_and_doors_rest_open() {
        let door = Entity {
            classname: "func_door".into(),
            origin: None,
            properties: vec![("angle".into(), "-1".into()), ("lip".into(), "0".into())],
        };
        let level = BrushLevel {
            brushes: vec![
                cube(
                    DVec3::new(-5.0, -1.0, -5.0),
                    DVec3::new(5.0, 0.0, 5.0),
                    Contents::Solid,
                    None,
                ),
                cube(
                    DVec3::new(0.0, 0.0, 0.0),
                    DVec3::new(1.0, 2.0, 0.2),
                    Contents::Door,
                    Some(0),
                ),
                cube(
                    DVec3::new(2.0, 0.0, 2.0),
                    DVec3::new(3.0, 1.0, 3.0),
                    Contents::Water,
                    None,
                ),
                cube(
                    DVec3::new(2.0, 0.0, -3.0),
                    DVec3::new(3.0, 1.0, -2.0),
                    Contents::Lava,
                    None,
                ),
                Brush {
                    planes: vec![
                        Plane {
                            normal: DVec3::Y,
                            d: 0.0
                        };
                        4
                    ],
                    ..Default::default()
                },
            ],
            entities: vec![door],
            ..Default::default()
        };
        let c = brush_mesh(&level).unwrap();
        assert_eq!(c.level.mesh.triangles.len(), 2 * 12, "two boxes of 6 quads");
        assert_eq!(c.level.water.len(), 1);
        assert_eq!(c.level.movers, level.movers(None), "the movers go along");
        assert_eq!(c.level.movers.regions.len(), 3, "water, lava and the door");
        assert!((c.level.water[0].max.y - 1.0).abs() < 1e-9);
        assert_eq!(c.skipped.len(), 1);
        assert!(c.skipped[0].starts_with("brush 4: "), "{:?}", c.skipped);
        // The door moved up by its height: its lowest vertex is at y = 2.
        let door_low = c.level.mesh.vertices[24..]
            .iter()
            .map(|v| v.y)
            .fold(f32::INFINITY, f32::min);
        assert!((door_low - 2.0).abs() < 1e-5, "{door_low}");
        // Every triangle of the floor's top faces up.
        let ups = (0..c.level.mesh.triangles.len())
            .filter(|&t| c.level.mesh.normal(t).y > 0.99)
            .count();
        assert_eq!(ups, 4, "the top of the floor and of the door");
    }

    #[test]
    fn a_level_without_solids_is_an_error() {
        let level = BrushLevel {
            brushes: vec![cube(DVec3::ZERO, DVec3::ONE, Contents::Water, None)],
            ..Default::default()
        };
        assert!(brush_mesh(&level).is_err());
    }
}
