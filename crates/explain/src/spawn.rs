//! Where a player placed at a point comes to stand: [`floor_under`].
//!
//! Quake spawns the player at its start's origin and lets it fall, and a
//! map's starts and exits are often drawn a little above the floor (or,
//! for a start on a raised plat, well above the floor it lands on). A
//! search from such a point must begin on the floor below it, not at the
//! nearest polygon in any direction (which may be a ledge beside or a floor
//! above). Used by `navscope-cli routes` and by the app's probe panel when
//! it offers a map's starts and exits.

use glam::DVec3;
use navscope_core::NavMesh;

use crate::place::over;

/// How far over `feet` a floor may lie and still be the one the player
/// stands on, metres: a mesh's surface is not exactly at the feet (voxel
/// floors sit up to a cell above the brush, cspace floors on the hull's
/// lower face).
pub const SPAWN_ABOVE: f64 = 0.25;

/// The point straight below (or at most [`SPAWN_ABOVE`] above) `feet` on
/// the highest node polygon that holds `feet` seen from above: where a
/// player released at `feet` lands. `None` when no polygon lies under it
/// (point nodes have no surface and are not floors).
///
/// The height comes from the polygon's plane over `(feet.x, feet.z)`, so a
/// sloped floor gives the height at the point, not at its centre.
pub fn floor_under(mesh: &NavMesh, feet: DVec3) -> Option<DVec3> {
    mesh.nodes
        .iter()
        .filter_map(|n| over(n.polygon.as_deref()?, feet))
        .filter(|p| p.y <= feet.y + SPAWN_ABOVE)
        .max_by(|a, b| a.y.total_cmp(&b.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_square::square;
    use navscope_core::navmesh::Stance;
    use proptest::prelude::*;

    fn mesh_of(polys: Vec<Vec<DVec3>>) -> NavMesh {
        let mut m = NavMesh::new("test", "test");
        for p in polys {
            let c = p.iter().copied().sum::<DVec3>() / p.len() as f64;
            m.add_node(c, Some(p), Stance::default(), 0);
        }
        m
    }

    #[test]
    fn a_start_in_the_air_lands_on_the_floor_below() {
        let m = mesh_of(vec![square(0.0, 0.0, 0.0, 4.0)]);
        let p = floor_under(&m, DVec3::new(1.0, 12.0, 2.0)).unwrap();
        assert_eq!(p, DVec3::new(1.0, 0.0, 2.0));
    }

    #[test]
    fn of_stacked_floors_the_highest_under_the_feet_wins_and_a_ceiling_does_not() {
        let m = mesh_of(vec![
            square(0.0, 0.0, 0.0, 4.0),
            square(0.0, 3.0, 0.0, 4.0),
            square(0.0, 6.0, 0.0, 4.0),
        ]);
        let p = floor_under(&m, DVec3::new(2.0, 4.5, 2.0)).unwrap();
        assert_eq!(p.y, 3.0);
        // A surface a little over the feet still counts (the mesh floats).
        let p = floor_under(&m, DVec3::new(2.0, 2.9, 2.0)).unwrap();
        assert_eq!(p.y, 3.0);
        let p = floor_under(&m, DVec3::new(2.0, 3.0 - SPAWN_ABOVE - 0.01, 2.0)).unwrap();
        assert_eq!(p.y, 0.0);
    }

    #[test]
    fn a_sloped_floor_gives_its_height_at_the_point() {
        let ramp = vec![
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(0.0, 0.0, 2.0),
            DVec3::new(4.0, 2.0, 2.0),
            DVec3::new(4.0, 2.0, 0.0),
        ];
        let p = floor_under(&mesh_of(vec![ramp]), DVec3::new(1.0, 5.0, 1.0)).unwrap();
        assert!((p.y - 0.5).abs() < 1e-12);
    }

    #[test]
    fn beside_every_floor_or_over_point_nodes_there_is_none() {
        let mut m = mesh_of(vec![square(0.0, 0.0, 0.0, 1.0)]);
        assert_eq!(floor_under(&m, DVec3::new(3.0, 1.0, 0.5)), None);
        m.add_node(DVec3::new(3.0, 0.0, 0.5), None, Stance::default(), 0);
        assert_eq!(floor_under(&m, DVec3::new(3.0, 1.0, 0.5)), None);
        m.add_node(
            DVec3::new(3.0, 0.0, 0.5),
            Some(vec![DVec3::ZERO, DVec3::X]),
            Stance::default(),
            0,
        );
        assert_eq!(floor_under(&NavMesh::new("t", "t"), DVec3::ZERO), None);
        assert_eq!(floor_under(&m, DVec3::new(3.0, 1.0, 0.5)), None);
    }

    proptest! {
        /// The landing point keeps the feet's plan position, lies on a
        /// floor that holds it, is no higher than the feet allow, and no
        /// such floor is higher.
        #[test]
        fn the_landing_is_the_highest_allowed_floor_under_the_feet(
            floors in prop::collection::vec((-5.0f64..5.0, -3.0f64..3.0, -5.0f64..5.0, 0.1f64..6.0), 0..8),
            feet in (-6.0f64..6.0, -4.0f64..4.0, -6.0f64..6.0),
        ) {
            let polys: Vec<_> = floors.iter().map(|&(x, y, z, s)| square(x, y, z, s)).collect();
            let m = mesh_of(polys);
            let feet = DVec3::new(feet.0, feet.1, feet.2);
            let holds = |&(x, _, z, s): &(f64, f64, f64, f64)| {
                feet.x >= x && feet.x <= x + s && feet.z >= z && feet.z <= z + s
            };
            let best = floors
                .iter()
                .filter(|f| holds(f) && f.1 <= feet.y + SPAWN_ABOVE)
                .map(|f| f.1)
                .max_by(f64::total_cmp);
            match floor_under(&m, feet) {
                None => prop_assert!(best.is_none()),
                Some(p) => {
                    prop_assert_eq!((p.x, p.z), (feet.x, feet.z));
                    prop_assert!((p.y - best.unwrap()).abs() < 1e-9);
                }
            }
        }
    }
}
