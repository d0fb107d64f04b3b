//! Floor plans and multi-layer environments → triangle meshes, so that the
//! mesh pipeline (`voxel`) runs on the same level as the 2D methods and
//! one level can be compared across methods.
//!
//! * [`floor_plan_mesh`]: the free space becomes a floor at y = 0 (a
//!   constrained Delaunay triangulation by `spade`, triangles facing up),
//!   and every ring of the plan (outer boundary and holes) becomes a wall:
//!   two vertical triangles per edge from y = 0 to the wall height.
//!   Blockers (boxes, and cylinders as [`CYLINDER_SIDES`]-gons drawn
//!   round the circle so they block at least the circle) are cut out of
//!   the floor and walled the same way. Holes get no roof: their inside is
//!   void, so nothing is walkable there, where a roof at the wall height
//!   would be a walkable surface the plan does not have. The walls are
//!   [`DEFAULT_WALL_HEIGHT`] high in the pipeline registry's conversion,
//!   above every default agent height, so no agent steps over them.
//! * [`layers_mesh`]: each layer's free space becomes a floor on the
//!   layer's plane (horizontal, or inclined for a ramp or stair flight); there are no walls (a floor's edge is a drop, which
//!   the voxel pipeline's radius keeps away from as from a wall). The
//!   connections are not geometry and are left out: voxel joins two
//!   layers only where their floors meet within its step height. Where a
//!   layer lies above another closer than an agent's height, the lower
//!   floor is covered for that agent, as a real bridge would cover it.
//!
//! Plan point `(x, y)` is the world point `(x, height, -y)`.

use glam::{DVec2, Vec3};
use navscope_core::geom::{Polygon, PolygonWithHoles, TriMesh, plan_to_world};
use navscope_core::level::{Blocker, FloorPlan, LayerPlane, LayeredLevel, MeshLevel};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};

/// Wall height (metres) of the floor plan → mesh conversion the pipeline
/// registry applies: above the tallest default agent (2 m standing).
pub const DEFAULT_WALL_HEIGHT: f64 = 3.0;

/// Sides of the polygon that stands in for a cylinder blocker.
pub const CYLINDER_SIDES: usize = 16;

/// A floor plan as a triangle-mesh level: floor and walls `wall_height`
/// metres high (see the module docs). Fails for a wall height that is not
/// a positive finite number, or when the floor cannot be triangulated
/// (coordinates spade refuses).
pub fn floor_plan_mesh(plan: &FloorPlan, wall_height: f64) -> Result<MeshLevel, String> {
    if !(wall_height.is_finite() && wall_height > 0.0) {
        return Err(format!(
            "wall height {wall_height} is not a positive number of metres"
        ));
    }
    let blockers: Vec<Vec<DVec2>> = plan.blockers.iter().map(blocker_ring).collect();
    let mut mesh = TriMesh::default();
    floor(&plan.area, &blockers, LayerPlane::level(0.0), &mut mesh)?;
    for (k, ring) in plan.area.rings().map(|r| r.points.as_slice()).enumerate() {
        // The outer ring's free space is inside it, a hole's outside.
        walls(ring, k == 0, 0.0, wall_height, &mut mesh);
    }
    for ring in &blockers {
        walls(ring, false, 0.0, wall_height, &mut mesh);
    }
    Ok(MeshLevel {
        mesh,
        water: Vec::new(),
        ..MeshLevel::default()
    })
}

/// A multi-layer environment as a triangle-mesh level: each layer a floor
/// at its height (see the module docs).
pub fn layers_mesh(level: &LayeredLevel) -> Result<MeshLevel, String> {
    let mut mesh = TriMesh::default();
    for layer in &level.layers {
        floor(&layer.area, &[], layer.plane(), &mut mesh)
            .map_err(|e| format!("layer \"{}\": {e}", layer.name))?;
    }
    if mesh.triangles.is_empty() {
        return Err("the environment has no layer to make a floor of".into());
    }
    Ok(MeshLevel {
        mesh,
        water: Vec::new(),
        ..MeshLevel::default()
    })
}

/// The outline of a blocker, counter-clockwise in plan coordinates.
pub fn blocker_ring(b: &Blocker) -> Vec<DVec2> {
    match *b {
        Blocker::Box {
            center,
            half,
            angle,
        } => {
            let rot = DVec2::from_angle(angle);
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(sx, sy)| center + rot.rotate(DVec2::new(sx * half.x, sy * half.y)))
                .collect()
        }
        Blocker::Cylinder { center, radius } => {
            let n = CYLINDER_SIDES as f64;
            // Vertices on the circumscribed polygon: its edges touch the circle.
            let r = radius / (std::f64::consts::PI / n).cos();
            (0..CYLINDER_SIDES)
                .map(|k| center + r * DVec2::from_angle(std::f64::consts::TAU * k as f64 / n))
                .collect()
        }
    }
}

/// World vertex of plan point `p` at height `y`.
fn world(p: DVec2, y: f64) -> Vec3 {
    plan_to_world(p, y).as_vec3()
}

/// Appends the triangulated free space of `area` minus the `cutouts`
/// (rings that may cross the area's rings) at height `y`, facing up.
fn floor(
    area: &PolygonWithHoles,
    cutouts: &[Vec<DVec2>],
    plane: LayerPlane,
    mesh: &mut TriMesh,
) -> Result<(), String> {
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let rings = area.rings().map(|r| (r.points.as_slice(), false));
    let cuts = cutouts.iter().map(|r| (r.as_slice(), true));
    for (ring, may_cross) in rings.chain(cuts) {
        let handles = ring
            .iter()
            .map(|p| cdt.insert(Point2::new(p.x, p.y)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("floor cannot be triangulated: {e:?}"))?;
        for k in 0..handles.len() {
            let (a, b) = (handles[k], handles[(k + 1) % handles.len()]);
            if a == b {
                continue;
            }
            if may_cross {
                cdt.add_constraint_and_split(a, b, |p| p);
            } else {
                cdt.add_constraint(a, b);
            }
        }
    }
    let cut_polygons: Vec<Polygon> = cutouts.iter().map(|r| Polygon::new(r.clone())).collect();
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend(cdt.vertices().map(|v| {
        let p = v.position();
        plane.lift(DVec2::new(p.x, p.y)).as_vec3()
    }));
    for f in cdt.inner_faces() {
        let [a, b, c] = f.vertices().map(|v| {
            let p = v.position();
            (v.fix().index() as u32, DVec2::new(p.x, p.y))
        });
        let centroid = (a.1 + b.1 + c.1) / 3.0;
        if !area.contains(centroid) || cut_polygons.iter().any(|p| p.contains(centroid, true)) {
            continue;
        }
        // Counter-clockwise in plan is facing up in the world.
        let ccw = (b.1 - a.1).perp_dot(c.1 - a.1) > 0.0;
        let (b, c) = if ccw { (b, c) } else { (c, b) };
        mesh.triangles.push([base + a.0, base + b.0, base + c.0]);
    }
    Ok(())
}

/// Appends the vertical walls of a closed ring from `y0` to `y1`: two
/// triangles per edge, facing the free space (inside the ring when
/// `free_inside`, else outside), whatever the ring's winding. A wall is
/// one face with the solid behind it, and the voxel rasteriser puts a face
/// lying on a grid line into the cell behind it: a wall facing away from
/// the free space would take the free cell in front of it.
fn walls(ring: &[DVec2], free_inside: bool, y0: f64, y1: f64, mesh: &mut TriMesh) {
    let n = ring.len();
    let twice_area: f64 = (0..n).map(|k| ring[k].perp_dot(ring[(k + 1) % n])).sum();
    // Free space lies left of each edge for a counter-clockwise ring's
    // inside or a clockwise ring's outside.
    let free_left = (twice_area > 0.0) == free_inside;
    for k in 0..n {
        let (p, q) = (ring[k], ring[(k + 1) % n]);
        let base = mesh.vertices.len() as u32;
        let corners = [world(p, y0), world(q, y0), world(q, y1), world(p, y1)];
        let d = q - p;
        let free = if free_left { d.perp() } else { -d.perp() };
        let free = Vec3::new(free.x as f32, 0.0, -free.y as f32);
        let facing = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
        mesh.vertices.extend(corners);
        if facing.dot(free) >= 0.0 {
            mesh.triangles
                .extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
        } else {
            mesh.triangles
                .extend([[base, base + 2, base + 1], [base, base + 3, base + 2]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::level::{Layer, LevelData};

    /// Plan area of the upward-facing triangles at height `y`.
    fn floor_area(m: &TriMesh, y: f32) -> f64 {
        m.triangles
            .iter()
            .map(|t| t.map(|i| m.vertices[i as usize]))
            .filter(|t| t.iter().all(|v| (v.y - y).abs() < 1e-6))
            .map(|[a, b, c]| {
                let n = (b - a).cross(c - a);
                assert!(n.y > 0.0, "floor triangles face up");
                0.5 * n.y as f64
            })
            .sum()
    }

    fn plan(level: navscope_core::level::Level) -> FloorPlan {
        match level.data {
            LevelData::FloorPlan(p) => p,
            _ => panic!("not a floor plan"),
        }
    }

    #[test]
    fn the_floor_is_the_free_space_and_every_edge_is_a_wall() {
        let plan = plan(crate::default_level());
        let m = floor_plan_mesh(&plan, 2.5).unwrap();
        let free = plan.area.area();
        assert!(
            (floor_area(&m.mesh, 0.0) - free).abs() < 1e-3,
            "{} vs {free}",
            floor_area(&m.mesh, 0.0)
        );
        let edges = plan.area.vertex_count();
        let top = m.mesh.vertices.iter().filter(|v| v.y == 2.5).count();
        assert_eq!(top, 2 * edges, "two top corners per wall quad");
        let b = m.mesh.bounds();
        assert!((b.max.y - 2.5).abs() < 1e-6 && b.min.y.abs() < 1e-9);
        assert!(floor_plan_mesh(&plan, 0.0).is_err());
        assert!(floor_plan_mesh(&plan, f64::NAN).is_err());
    }

    #[test]
    fn every_wall_faces_the_free_space_whatever_the_rings_winding() {
        let mut plan = plan(crate::default_level());
        plan.blockers = vec![Blocker::Box {
            center: DVec2::new(15.0, -12.0),
            half: DVec2::splat(0.5),
            angle: 0.3,
        }];
        let reversed = {
            let mut p = plan.clone();
            p.area.outer.points.reverse();
            for h in &mut p.area.holes {
                h.points.reverse();
            }
            p
        };
        for plan in [plan, reversed] {
            let m = floor_plan_mesh(&plan, 3.0).unwrap();
            let blocker = Polygon::new(blocker_ring(&plan.blockers[0]));
            let mut walls = 0;
            for t in &m.mesh.triangles {
                let [a, b, c] = t.map(|i| m.mesh.vertices[i as usize]);
                let n = (b - a).cross(c - a);
                if n.y.abs() > 1e-6 * n.length() {
                    continue; // the floor
                }
                walls += 1;
                // A step in front of the wall, in plan (world z is -y).
                let front = (a + b + c) / 3.0 + n.normalize() * 0.05;
                let at = DVec2::new(front.x as f64, -front.z as f64);
                assert!(
                    plan.area.contains(at) && !blocker.contains(at, true),
                    "a wall near {at} faces away from the free space"
                );
            }
            assert!(walls > 0);
        }
    }

    #[test]
    fn blockers_are_cut_out_of_the_floor_even_across_a_wall() {
        let mut plan = plan(crate::default_level());
        let free = plan.area.area();
        // The default plan's free space is 0 <= x <= 40, -24 <= y <= 0 (plan y = -z).
        plan.blockers = vec![
            Blocker::Box {
                center: DVec2::new(15.0, -12.0),
                half: DVec2::splat(0.5),
                angle: 0.3,
            },
            Blocker::Cylinder {
                center: DVec2::new(24.0, -12.0),
                radius: 0.5,
            },
            // Half of it sticks out through the outer wall at y = 0.
            Blocker::Box {
                center: DVec2::new(20.0, 0.0),
                half: DVec2::new(1.0, 0.5),
                angle: 0.0,
            },
        ];
        let m = floor_plan_mesh(&plan, 3.0).unwrap();
        let cylinder = Polygon::new(blocker_ring(&plan.blockers[1])).area();
        assert!(
            cylinder > std::f64::consts::PI * 0.25,
            "drawn round the circle"
        );
        let expected = free - 1.0 - cylinder - 1.0;
        let got = floor_area(&m.mesh, 0.0);
        // f32 vertices: about 1e-6 m2 of rounding.
        assert!((got - expected).abs() < 1e-4, "{got} vs {expected}");
    }

    #[test]
    fn layers_become_floors_at_their_heights() {
        let square = |x: f64, s: f64| {
            PolygonWithHoles::new(
                Polygon::new(vec![
                    DVec2::new(x, 0.0),
                    DVec2::new(x + s, 0.0),
                    DVec2::new(x + s, s),
                    DVec2::new(x, s),
                ]),
                vec![],
            )
        };
        let level = LayeredLevel {
            layers: vec![
                Layer {
                    name: "ground".into(),
                    height: 0.0,
                    area: square(0.0, 4.0),
                    ..Layer::default()
                },
                Layer {
                    name: "deck".into(),
                    height: 1.5,
                    area: square(10.0, 2.0),
                    ..Layer::default()
                },
            ],
            connections: vec![],
        };
        let m = layers_mesh(&level).unwrap();
        assert!((floor_area(&m.mesh, 0.0) - 16.0).abs() < 1e-9);
        assert!((floor_area(&m.mesh, 1.5) - 4.0).abs() < 1e-9);
        assert!(layers_mesh(&LayeredLevel::default()).is_err());
    }
}
