//! Where a click puts a probe point: on the walkable surface under the
//! cursor. The NavMesh is what an agent walks, so the first of its polygons
//! the ray meets wins; without a NavMesh under the cursor (or before one is
//! built) the level's surface is taken, then the ground plane. A height
//! slice, when on, is honoured: only what lies inside it is hit, so a
//! click in the top view with the slice on a floor lands on that floor and
//! not on the roof above it (nor on the slice's top).

use bevy::prelude::*;
use navscope_core::NavMesh;

use crate::model::band::HeightBand;
use crate::model::tessellate::{ray_plane_y, ray_triangle};

/// The point a ray from `origin` along `dir` puts a probe point on: the
/// nearest hit on a polygon of `mesh`, else on the level's `triangles`,
/// each kept only inside `slice`; else the ground plane (the slice's floor
/// when a slice is on).
pub fn walkable_point(
    mesh: Option<&NavMesh>,
    triangles: &[[Vec3; 3]],
    slice: Option<HeightBand>,
    origin: Vec3,
    dir: Vec3,
) -> Option<Vec3> {
    let hit = |t: &mut dyn Iterator<Item = [Vec3; 3]>| nearest(t, slice, origin, dir);
    mesh.and_then(|m| hit(&mut polygon_triangles(m)))
        .or_else(|| hit(&mut triangles.iter().copied()))
        .or_else(|| ray_plane_y(origin, dir, slice.map_or(0.0, |b| b.lo)))
}

/// A NavMesh polygon this far (metres, along the ray) behind the level's
/// surface is taken as on it: a mesh lies a little above or below the
/// surface it was built on (voxel heights, detail sampling), within what
/// `navscope_explain::why` counts as on the mesh.
pub const ON_SURFACE: f32 = navscope_explain::why::ON_MESH as f32;

/// The point the why tool asks about under a ray: the first surface the
/// ray meets, the level's or the NavMesh's (a NavMesh polygon within
/// [`ON_SURFACE`] behind the level's surface wins, being on it), inside
/// `slice`; else the ground plane as [`walkable_point`]. Unlike a probe
/// point it never goes through a wall or a floor to a NavMesh behind it:
/// the question is about the place the person sees.
pub fn visible_point(
    mesh: Option<&NavMesh>,
    triangles: &[[Vec3; 3]],
    slice: Option<HeightBand>,
    origin: Vec3,
    dir: Vec3,
) -> Option<Vec3> {
    let on_mesh = mesh.and_then(|m| nearest(&mut polygon_triangles(m), slice, origin, dir));
    let on_level = nearest(&mut triangles.iter().copied(), slice, origin, dir);
    let d = |p: Option<Vec3>| p.map_or(f32::INFINITY, |p| p.distance(origin));
    match (on_mesh, on_level) {
        (Some(m), _) if d(on_mesh) <= d(on_level) + ON_SURFACE => Some(m),
        (_, Some(l)) => Some(l),
        _ => ray_plane_y(origin, dir, slice.map_or(0.0, |b| b.lo)),
    }
}

/// The nearest point of `tris` a ray from `origin` along `dir` meets
/// inside `slice`.
fn nearest(
    tris: &mut dyn Iterator<Item = [Vec3; 3]>,
    slice: Option<HeightBand>,
    origin: Vec3,
    dir: Vec3,
) -> Option<Vec3> {
    let inside = |p: Vec3| slice.is_none_or(|b| p.y >= b.lo - 1e-3 && p.y <= b.hi + 1e-3);
    tris.filter_map(|t| ray_triangle(origin, dir, &t))
        .map(|d| origin + dir * d)
        .filter(|p| inside(*p))
        .min_by(|a, b| {
            a.distance_squared(origin)
                .total_cmp(&b.distance_squared(origin))
        })
}

/// The triangles of the NavMesh's polygons (fans from their first corner;
/// polygons are convex).
fn polygon_triangles(mesh: &NavMesh) -> impl Iterator<Item = [Vec3; 3]> + '_ {
    mesh.nodes
        .iter()
        .filter_map(|n| n.polygon.as_deref())
        .filter(|p| p.len() >= 3)
        .flat_map(|p| (1..p.len() - 1).map(move |i| [p[0], p[i], p[i + 1]].map(|v| v.as_vec3())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::DVec3;
    use navscope_core::Stance;

    /// A 10 m square floor at height `y`.
    fn floor(m: &mut NavMesh, y: f64) {
        let p = vec![
            DVec3::new(0.0, y, 0.0),
            DVec3::new(0.0, y, 10.0),
            DVec3::new(10.0, y, 10.0),
            DVec3::new(10.0, y, 0.0),
        ];
        m.add_node(DVec3::new(5.0, y, 5.0), Some(p), Stance::Stand, 0);
    }

    /// A roof over the floor, as level triangles at height `y`.
    fn roof(y: f32) -> Vec<[Vec3; 3]> {
        vec![[
            Vec3::new(-1.0, y, -1.0),
            Vec3::new(-1.0, y, 30.0),
            Vec3::new(30.0, y, -1.0),
        ]]
    }

    const DOWN: Vec3 = Vec3::NEG_Y;

    #[test]
    fn a_click_from_above_lands_on_the_navmesh_not_the_roof() {
        let mut m = NavMesh::new("t", "t");
        floor(&mut m, 1.0);
        let from = Vec3::new(3.0, 50.0, 4.0);
        let p = walkable_point(Some(&m), &roof(6.5), None, from, DOWN).unwrap();
        assert!((p - Vec3::new(3.0, 1.0, 4.0)).length() < 1e-4, "{p}");
        // Without a mesh the level's surface is what is hit.
        let p = walkable_point(None, &roof(6.5), None, from, DOWN).unwrap();
        assert!((p.y - 6.5).abs() < 1e-4, "{p}");
    }

    #[test]
    fn the_slice_picks_the_floor_inside_it() {
        let mut m = NavMesh::new("t", "t");
        floor(&mut m, 0.0);
        floor(&mut m, 4.0);
        let from = Vec3::new(3.0, 50.0, 4.0);
        let top = walkable_point(Some(&m), &[], None, from, DOWN).unwrap();
        assert!((top.y - 4.0).abs() < 1e-4);
        let band = HeightBand::new(-0.5, 2.0);
        let low = walkable_point(Some(&m), &roof(6.5), Some(band), from, DOWN).unwrap();
        assert!(low.y.abs() < 1e-4, "{low}");
        // Nothing inside the slice under the cursor: the slice's floor.
        let off = walkable_point(Some(&m), &[], Some(band), Vec3::new(20.0, 50.0, 20.0), DOWN);
        assert!((off.unwrap().y + 0.5).abs() < 1e-4);
    }

    #[test]
    fn the_why_point_is_the_roof_seen_not_the_navmesh_under_it() {
        let mut m = NavMesh::new("t", "t");
        floor(&mut m, 1.0);
        let from = Vec3::new(3.0, 50.0, 4.0);
        let p = visible_point(Some(&m), &roof(6.5), None, from, DOWN).unwrap();
        assert!((p.y - 6.5).abs() < 1e-4, "{p}");
        // A mesh just below the surface seen is on it: the mesh's point.
        let p = visible_point(Some(&m), &roof(1.2), None, from, DOWN).unwrap();
        assert!((p.y - 1.0).abs() < 1e-4, "{p}");
        // With the roof sliced off, the floor's mesh.
        let band = HeightBand::new(-0.5, 2.0);
        let p = visible_point(Some(&m), &roof(6.5), Some(band), from, DOWN).unwrap();
        assert!((p.y - 1.0).abs() < 1e-4, "{p}");
    }

    #[test]
    fn a_ray_that_meets_nothing_gives_no_point() {
        let m = NavMesh::new("t", "t");
        assert!(walkable_point(Some(&m), &[], None, Vec3::new(0.0, 5.0, 0.0), Vec3::Y).is_none());
        assert!(walkable_point(Some(&m), &[], None, Vec3::ZERO, Vec3::X).is_none());
    }
}
