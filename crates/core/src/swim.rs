//! Swimming through a body of water in three dimensions: which places in
//! the water are joined by a straight swim. The one rule `cspace` (its wet
//! polygons) and `voxel` (its swim nodes) share; each pipeline says what a
//! place is and whether the straight swim between two is clear.
//!
//! * **Bodies.** Water volumes whose boxes touch or overlap are one body
//!   of water (a pool drawn as several brushes, [`water_bodies`]); a swim
//!   stays in one body.
//! * **Yao graph.** Around each place of a body, space is split into
//!   [`SWIM_CONES`] cones of direction (six sectors of azimuth times three
//!   of elevation: up, level, down, split at 30°, [`cone`]); in each cone
//!   the place is joined to the nearest other place of the body (by the
//!   gap between their boxes; [`SWIM_TRIES`] tried at most, nearest
//!   first) to which the pipeline's straight swim is clear. Places whose
//!   boxes touch in plan within a step in height are left out (walking
//!   joins those). Each pair is made once; a swim goes both ways. So the
//!   graph is sparse (at most [`SWIM_CONES`] pairs made per place: linear
//!   in the body's size), yet joined in every direction: a body of any
//!   size is swum across, down and up, a flooded shaft or a pit on the
//!   bottom included. Choosing the candidates compares every two places
//!   of a body (quadratic in its places, a few thousand at most in a
//!   released map); the swim tests are linear.

use std::collections::HashSet;

use glam::DVec3;

use crate::geom::Aabb;

/// Cones of direction around a place in the water, each giving at most
/// one swim (see the module docs).
pub const SWIM_CONES: usize = 18;
/// Most places, nearest first, a place tries to swim to in one cone.
pub const SWIM_TRIES: usize = 4;

/// The cone of direction `d` (see the module docs): six sectors of
/// azimuth times three of elevation (up, level, down, split at 30°).
pub fn cone(d: DVec3) -> usize {
    let flat = (d.x * d.x + d.z * d.z).sqrt();
    let slope = 30f64.to_radians().tan();
    let band = if d.y > flat * slope {
        0
    } else if -d.y > flat * slope {
        2
    } else {
        1
    };
    let turn = d.z.atan2(d.x).rem_euclid(std::f64::consts::TAU);
    let sector = ((turn / std::f64::consts::TAU * 6.0) as usize).min(5);
    band * 6 + sector
}

/// The water volumes `boxes` grouped into bodies of water: boxes that
/// touch or overlap are one body, each body its box indices ascending,
/// bodies in order of their first.
pub fn water_bodies(boxes: &[Aabb]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..boxes.len()).collect();
    fn root(parent: &mut [usize], mut r: usize) -> usize {
        while parent[r] != r {
            parent[r] = parent[parent[r]];
            r = parent[r];
        }
        r
    }
    for a in 0..boxes.len() {
        for b in a + 1..boxes.len() {
            if boxes[a].intersects(&boxes[b]) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut bodies: Vec<Vec<usize>> = Vec::new();
    for r in 0..boxes.len() {
        let top = root(&mut parent, r);
        match bodies.iter_mut().find(|b| b[0] == top) {
            Some(b) => b.push(r),
            None => bodies.push(vec![r]),
        }
    }
    bodies
}

/// The swims among the places of one body of water whose bounding boxes
/// are `places` (see the module docs): each pair `(a, b)` once, `a` the
/// place whose cone found it, with the two points `clear(a, b)` gave (the
/// straight swim's ends; `None`: not clear). `step` is the step height.
pub fn yao_swims(
    places: &[Aabb],
    step: f64,
    mut clear: impl FnMut(usize, usize) -> Option<(DVec3, DVec3)>,
) -> Vec<(usize, usize, DVec3, DVec3)> {
    let mut pairs: HashSet<(usize, usize)> = HashSet::new();
    let mut out = Vec::new();
    for (a, ba) in places.iter().enumerate() {
        let gap = |b: usize| {
            let bb = places[b];
            let g = (bb.min - ba.max).max(ba.min - bb.max).max(DVec3::ZERO);
            (g.length_squared(), g)
        };
        let ca = ba.center();
        let mut cones: Vec<Vec<(f64, usize)>> = vec![Vec::new(); SWIM_CONES];
        for b in (0..places.len()).filter(|&b| b != a) {
            let (d, g) = gap(b);
            let walked = g.x == 0.0
                && g.z == 0.0
                && (places[b].min.y - ba.min.y).abs() <= step
                && (places[b].max.y - ba.max.y).abs() <= step;
            if !walked {
                cones[cone(places[b].center() - ca)].push((d, b));
            }
        }
        for mut near in cones {
            if near.len() > SWIM_TRIES {
                near.select_nth_unstable_by(SWIM_TRIES, |x, y| {
                    x.0.total_cmp(&y.0).then(x.1.cmp(&y.1))
                });
                near.truncate(SWIM_TRIES);
            }
            near.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            for (_, b) in near {
                let key = (a.min(b), a.max(b));
                if pairs.contains(&key) {
                    break;
                }
                if let Some((pa, pb)) = clear(a, b) {
                    pairs.insert(key);
                    out.push((a, b, pa, pb));
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(x: f64, y: f64, z: f64) -> Aabb {
        Aabb::from_corners(DVec3::new(x, y, z), DVec3::new(x + 1.0, y + 0.1, z + 1.0))
    }

    #[test]
    fn cones_split_azimuth_in_six_and_elevation_in_three() {
        assert_eq!(cone(DVec3::new(1.0, 0.0, 0.0)), 6);
        assert_eq!(cone(DVec3::new(1.0, 1.0, 0.0)), 0, "45° up");
        assert_eq!(cone(DVec3::new(1.0, -1.0, 0.0)), 12, "45° down");
        assert_eq!(cone(DVec3::new(1.0, 0.2, 0.0)), 6, "11° up is level");
        let all: HashSet<usize> = (0..36)
            .flat_map(|k| {
                let t = k as f64 * 10f64.to_radians() + 0.01;
                [-2.0, 0.0, 2.0].map(|y| cone(DVec3::new(t.cos(), y, t.sin())))
            })
            .collect();
        assert_eq!(all.len(), SWIM_CONES);
        assert!(all.iter().all(|&c| c < SWIM_CONES));
    }

    #[test]
    fn touching_boxes_are_one_body_and_apart_ones_are_not() {
        let boxes = [
            Aabb::from_corners(DVec3::ZERO, DVec3::ONE),
            Aabb::from_corners(DVec3::new(5.0, 0.0, 0.0), DVec3::new(6.0, 1.0, 1.0)),
            Aabb::from_corners(DVec3::new(1.0, 0.0, 0.0), DVec3::new(2.0, 1.0, 1.0)),
        ];
        assert_eq!(water_bodies(&boxes), vec![vec![0, 2], vec![1]]);
        assert!(water_bodies(&[]).is_empty());
    }

    #[test]
    fn a_column_of_places_is_joined_in_a_chain_and_blocked_swims_are_skipped() {
        // Places stacked every metre: each joins the next up and down.
        let column: Vec<Aabb> = (0..6).map(|k| cube(0.0, k as f64, 0.0)).collect();
        let swims = yao_swims(&column, 0.5, |a, b| {
            Some((column[a].center(), column[b].center()))
        });
        let pairs: HashSet<(usize, usize)> = swims
            .iter()
            .map(|&(a, b, _, _)| (a.min(b), a.max(b)))
            .collect();
        for k in 0..5 {
            assert!(pairs.contains(&(k, k + 1)), "{pairs:?}");
        }
        assert_eq!(pairs.len(), swims.len(), "each pair once");
        // With the swim 2-3 blocked, the next nearest up is tried.
        let swims = yao_swims(&column, 0.5, |a, b| {
            ((a.min(b), a.max(b)) != (2, 3)).then(|| (column[a].center(), column[b].center()))
        });
        assert!(
            swims
                .iter()
                .any(|&(a, b, _, _)| (a.min(b), a.max(b)) == (2, 4))
        );
        assert!(
            !swims
                .iter()
                .any(|&(a, b, _, _)| (a.min(b), a.max(b)) == (2, 3))
        );
        // Places side by side within a step: walking joins them, no swim.
        let flat = [cube(0.0, 0.0, 0.0), cube(1.0, 0.0, 0.0)];
        assert!(
            yao_swims(&flat, 0.5, |a, b| Some((
                flat[a].center(),
                flat[b].center()
            )))
            .is_empty()
        );
    }

    #[test]
    fn the_swims_per_place_are_bounded_by_the_cones() {
        let grid: Vec<Aabb> = (0..8)
            .flat_map(|x| (0..8).map(move |y| cube(x as f64 * 2.0, y as f64 * 2.0, 0.0)))
            .collect();
        let swims = yao_swims(&grid, 0.5, |a, b| {
            Some((grid[a].center(), grid[b].center()))
        });
        let mut per = vec![0usize; grid.len()];
        for &(a, _, _, _) in &swims {
            per[a] += 1;
        }
        assert!(per.iter().all(|&n| n <= SWIM_CONES));
        assert!(per.iter().all(|&n| n >= 1), "every place joined");
    }
}
