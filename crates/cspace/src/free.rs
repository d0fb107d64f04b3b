//! Whether a point of configuration space is free: whether the agent's
//! box, centred there, can be there and move away, given the expanded
//! solids around it.
//!
//! Free space is open, and it must have a positive width. Quake collides
//! the player's origin against the brushes grown by his hull (qbsp's
//! `ExpandBrush` moves every plane out by the hull's corner and adds the
//! axial and edge bevels), and its traces stop `DIST_EPSILON` (1/32 unit)
//! short of every plane they hit (`SV_RecursiveHullCheck`), so the origin
//! never rests on a plane: where two grown brushes touch, face to face,
//! there is no room between them, and a 32-unit player does not pass
//! between bars exactly 32 units apart. Links, though, lie on the
//! boundary: a walk runs on the top face of an expanded floor, a swim along
//! a wall. So a point is free when it is inside no solid (by more than
//! [`INSIDE`]) and some direction leads from it out of every solid it
//! lies on (within [`ON_FACE`] of): the top of a floor is free (up), the
//! corner of a floor and a wall too (up and away), the seam between two
//! solids touching face to face is not (their faces point at each other),
//! nor is a slot narrower than `2 · ON_FACE`.

use glam::DVec3;
use navscope_core::geom::Aabb;

use crate::polyhedron::Polyhedron;

/// How deep inside a solid a point must be to be in it (metres): the
/// tolerance of the polyhedra's arithmetic.
pub const INSIDE: f64 = 1.0e-4;

/// How near a solid's face a point lies on it (metres): Quake's
/// `DIST_EPSILON`, 1/32 unit, at the Quake preset's 1/32 m per unit. Two
/// faces facing each other closer than twice this close the space
/// between them.
pub const ON_FACE: f64 = 1.0 / 1024.0;

/// Combinations of faces tried before a point is given up as free (see
/// [`is_free`]); a point lies on a few faces of a few solids, so this is
/// never reached on real levels.
const MAX_COMBINATIONS: usize = 4096;

/// Rounds of the search for a way out (a perceptron, which finds a
/// direction on the positive side of every chosen face whenever one
/// exists by a margin).
const ROUNDS: usize = 64;

/// The solids of `solids` that can bear on whether one of `pts` is free:
/// those whose bounds come within [`ON_FACE`] of the points' bounds.
pub fn near<'a>(solids: &[&'a Polyhedron], pts: &[DVec3]) -> Vec<&'a Polyhedron> {
    let bb = Aabb::from_points(pts.iter().copied());
    let bb = Aabb {
        min: bb.min - DVec3::splat(ON_FACE),
        max: bb.max + DVec3::splat(ON_FACE),
    };
    solids
        .iter()
        .copied()
        .filter(|s| s.bounds.intersects(&bb))
        .collect()
}

/// True when `p` is free among `solids` (see the module docs).
pub fn is_free(solids: &[&Polyhedron], p: DVec3) -> bool {
    // The normals of the faces `p` lies on, per solid it lies on.
    let mut touching: Vec<Vec<DVec3>> = Vec::new();
    for s in solids {
        let far = s
            .faces
            .iter()
            .map(|f| f.plane.distance(p))
            .fold(f64::NEG_INFINITY, f64::max);
        if far < -INSIDE {
            return false;
        }
        if far <= ON_FACE {
            touching.push(
                s.faces
                    .iter()
                    .filter(|f| f.plane.distance(p) >= -ON_FACE)
                    .map(|f| f.plane.normal)
                    .collect(),
            );
        }
    }
    let combinations = touching
        .iter()
        .try_fold(1usize, |n, faces| n.checked_mul(faces.len()));
    if combinations.is_none_or(|n| n > MAX_COMBINATIONS) {
        return true;
    }
    let mut choice = vec![0usize; touching.len()];
    loop {
        let normals: Vec<DVec3> = touching.iter().zip(&choice).map(|(f, &c)| f[c]).collect();
        if way_out(&normals) {
            return true;
        }
        // The next combination, like an odometer.
        let mut k = 0;
        loop {
            if k == choice.len() {
                return false;
            }
            choice[k] += 1;
            if choice[k] < touching[k].len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}

/// True when some direction `d` has `n · d > 0` for every unit normal of
/// `normals` (always, for none).
fn way_out(normals: &[DVec3]) -> bool {
    let mut d: DVec3 = normals.iter().sum();
    for _ in 0..ROUNDS {
        let len = d.length();
        match normals.iter().find(|n| n.dot(d) <= 1e-9 * len.max(1.0)) {
            None => return true,
            Some(n) => d += *n,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::box_brush;
    use proptest::prelude::*;

    fn solid(min: [f64; 3], max: [f64; 3]) -> Polyhedron {
        Polyhedron::from_planes(&box_brush(DVec3::from(min), DVec3::from(max)).planes).unwrap()
    }

    fn free(solids: &[Polyhedron], p: [f64; 3]) -> bool {
        let refs: Vec<&Polyhedron> = solids.iter().collect();
        is_free(&refs, DVec3::from(p))
    }

    #[test]
    fn a_floors_top_and_a_floor_walls_corner_are_free() {
        let floor = solid([-2.0, -1.0, -2.0], [2.0, 0.0, 2.0]);
        let wall = solid([1.0, 0.0, -2.0], [2.0, 2.0, 2.0]);
        let both = [floor.clone(), wall];
        assert!(free(&[floor], [0.0, 0.0, 0.0]));
        assert!(free(&both, [0.0, 0.0, 0.0]));
        assert!(free(&both, [1.0, 0.0, 0.0]), "the floor's edge at the wall");
        assert!(free(&both, [1.0, 1.0, 0.0]), "on the wall");
        assert!(!free(&both, [0.0, -0.5, 0.0]), "in the floor");
    }

    #[test]
    fn touching_solids_close_the_seam_between_them_and_a_slot_narrower_than_the_epsilon() {
        for gap in [0.0, 1.0e-9, 1.0e-4, 1.5 * ON_FACE] {
            let pair = [
                solid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
                solid([1.0 + gap, 0.0, 0.0], [2.0, 1.0, 1.0]),
            ];
            for y in [0.25, 0.5, 0.75] {
                assert!(
                    !free(&pair, [1.0 + gap / 2.0, y, 0.5]),
                    "gap {gap} at y {y}"
                );
            }
        }
        let wide = [
            solid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
            solid([1.0 + 3.0 * ON_FACE, 0.0, 0.0], [2.0, 1.0, 1.0]),
        ];
        assert!(free(&wide, [1.0 + 1.5 * ON_FACE, 0.5, 0.5]));
        // Under the two, at the seam's lower end, the way down is free.
        let pair = [
            solid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
            solid([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]),
        ];
        assert!(free(&pair, [1.0, 0.0, 0.5]));
    }

    #[test]
    fn a_wall_of_two_brushes_side_by_side_and_solids_meeting_at_an_edge_leave_a_way_out() {
        let wall = [
            solid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
            solid([0.0, 0.0, 1.0], [1.0, 1.0, 2.0]),
        ];
        assert!(
            free(&wall, [1.0, 0.5, 1.0]),
            "on the wall's face at the join"
        );
        assert!(!free(&wall, [0.5, 0.5, 1.0]), "inside, at the join");
        let diagonal = [
            solid([-1.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
            solid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
        ];
        assert!(
            free(&diagonal, [0.0, 0.5, 0.0]),
            "the edge two solids share"
        );
    }

    #[test]
    fn no_solids_and_degenerate_normals() {
        assert!(is_free(&[], DVec3::ZERO));
        assert!(way_out(&[]));
        assert!(!way_out(&[DVec3::X, -DVec3::X]));
        assert!(way_out(&[DVec3::X, DVec3::Y, DVec3::Z]));
        // Three normals whose sum points against one of them.
        let (a, b) = (DVec3::X, DVec3::new(-0.5, 0.866_025_403_784_438_6, 0.0));
        assert!(way_out(&[a, b, b]));
    }

    proptest! {
        /// A free point's way out is real: a point near it is outside every
        /// solid; a point strictly inside the union is never free.
        #[test]
        fn a_free_point_has_free_space_beside_it(
            boxes in proptest::collection::vec(
                (-4i32..4, -4i32..4, -4i32..4, 1i32..4, 1i32..4, 1i32..4), 1..5),
            p in (-8i32..8, -8i32..8, -8i32..8),
        ) {
            let solids: Vec<Polyhedron> = boxes
                .iter()
                .map(|&(x, y, z, w, h, d)| {
                    let min = [x as f64 * 0.5, y as f64 * 0.5, z as f64 * 0.5];
                    solid(min, [min[0] + w as f64 * 0.5, min[1] + h as f64 * 0.5, min[2] + d as f64 * 0.5])
                })
                .collect();
            let p = DVec3::new(p.0 as f64, p.1 as f64, p.2 as f64) * 0.25;
            let refs: Vec<&Polyhedron> = solids.iter().collect();
            let outside = |q: DVec3| solids.iter().all(|s| !s.contains(q, 0.0));
            // Lattice points near p, a little off it in each of 26 directions.
            let mut near = Vec::new();
            for i in -1..=1 {
                for j in -1..=1 {
                    for k in -1..=1 {
                        near.push(p + DVec3::new(i as f64, j as f64, k as f64) * 0.01);
                    }
                }
            }
            if is_free(&refs, p) {
                prop_assert!(near.iter().any(|&q| outside(q)), "{p} free with nothing free beside it");
            } else {
                prop_assert!(near.iter().all(|&q| !outside(q)), "{p} not free with free space beside it");
            }
        }
    }
}
