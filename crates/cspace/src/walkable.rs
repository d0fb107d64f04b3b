//! Stage 3, *walkable* (Golodetz §3.2): the union's faces whose normal is
//! within the slope threshold of up. Each one becomes a navigation-mesh
//! polygon; in configuration space a point on it is a valid position of
//! the agent's centre.
//!
//! On a sealed Quake map the faces outside the map (its roof, ledges on
//! its outer walls) are walkable by slope but no player is ever there:
//! [`drop_outside`] takes them out, as `qbsp`'s outside fill does
//! ([`navscope_core::outside`]). A face is outside when the space above
//! its centre (the agent's centre standing on it) is outside: the first
//! empty flood cell up from there, within two cells, was reached from
//! beyond the map.

use glam::DVec3;
use navscope_core::geom::Plane;
use navscope_core::geom::polyhedron::polygon_centroid;
use navscope_core::outside::Outside;
use serde::Serialize;

use crate::union::UnionMesh;

/// A walkable polygon of one agent size's mesh.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WalkPoly {
    /// Index of the union fragment it came from.
    pub fragment: usize,
    /// Its plane (normal pointing up).
    pub plane: Plane,
    /// Convex polygon, counter-clockwise seen from above.
    pub polygon: Vec<DVec3>,
    /// Angle between its normal and up, degrees.
    pub slope_deg: f64,
    /// The region (index into the scene's regions) it lies in, if any.
    pub region: Option<usize>,
}

impl WalkPoly {
    /// Height of the polygon's plane above the plan point `(x, z)`.
    pub fn height_at(&self, x: f64, z: f64) -> f64 {
        let n = self.plane.normal;
        (self.plane.d - n.x * x - n.z * z) / n.y
    }
}

/// The angle (degrees) between `normal` and up, as θ = cos⁻¹(n̂ · û).
pub fn slope_deg(normal: DVec3) -> f64 {
    normal
        .normalize()
        .dot(DVec3::Y)
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

/// Keeps the fragments whose slope is at most `max_slope_deg`.
pub fn walkable(mesh: &UnionMesh, max_slope_deg: f64) -> Vec<WalkPoly> {
    mesh.kept
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let s = slope_deg(f.plane.normal);
            (s <= max_slope_deg + 1e-9 && f.plane.normal.y > 1e-9).then(|| WalkPoly {
                fragment: i,
                plane: f.plane,
                polygon: f.polygon.clone(),
                slope_deg: s,
                region: None,
            })
        })
        .collect()
}

/// Splits `polys` into those inside the map and those outside it; all are
/// inside when there is no outside (a leaking map, or not a game map).
pub fn drop_outside(
    polys: Vec<WalkPoly>,
    outside: Option<&Outside>,
) -> (Vec<WalkPoly>, Vec<WalkPoly>) {
    let Some(o) = outside else {
        return (polys, Vec::new());
    };
    polys
        .into_iter()
        .partition(|p| p.polygon.is_empty() || !o.above(polygon_centroid(&p.polygon)))
}

/// The flat square floor `x0..x1` × `z0..z1` at height `y`, wound
/// counter-clockwise seen from above: the polygon the unit tests of the
/// stages after this one build on.
#[cfg(test)]
pub(crate) fn test_square(x0: f64, z0: f64, x1: f64, z1: f64, y: f64) -> WalkPoly {
    WalkPoly {
        fragment: 0,
        plane: Plane {
            normal: DVec3::Y,
            d: y,
        },
        polygon: vec![
            DVec3::new(x0, y, z1),
            DVec3::new(x1, y, z1),
            DVec3::new(x1, y, z0),
            DVec3::new(x0, y, z0),
        ],
        slope_deg: 0.0,
        region: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::union::Fragment;

    fn frag(normal: DVec3) -> Fragment {
        let n = normal.normalize();
        Fragment {
            brush: 0,
            face: 0,
            plane: Plane { normal: n, d: 0.0 },
            polygon: vec![DVec3::ZERO; 3],
            clipped_by: None,
        }
    }

    #[test]
    fn threshold_is_inclusive_and_ceilings_are_never_walkable() {
        let mesh = UnionMesh {
            kept: vec![
                frag(DVec3::Y),
                frag(DVec3::new(1.0, 1.0, 0.0)),
                frag(DVec3::new(1.01, 1.0, 0.0)),
                frag(-DVec3::Y),
                frag(DVec3::X),
            ],
            ..UnionMesh::default()
        };
        let w = walkable(&mesh, 45.0);
        assert_eq!(w.iter().map(|p| p.fragment).collect::<Vec<_>>(), vec![0, 1]);
        assert!((w[1].slope_deg - 45.0).abs() < 1e-9);
        assert_eq!(walkable(&mesh, 90.0).len(), 3);
    }

    #[test]
    fn height_follows_the_plane() {
        let n = DVec3::new(-1.0, 2.0, 0.0).normalize();
        let p = WalkPoly {
            fragment: 0,
            plane: Plane {
                normal: n,
                d: n.dot(DVec3::new(0.0, 1.0, 0.0)),
            },
            polygon: vec![],
            slope_deg: 0.0,
            region: None,
        };
        assert!((p.height_at(2.0, 7.0) - 2.0).abs() < 1e-12);
    }
}
