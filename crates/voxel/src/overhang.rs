//! The erosion's obstacles for a body that may overhang a ledge (the
//! `erode_ledges` parameter off).
//!
//! Recast keeps its cylinder a radius from every side without a span
//! connection, a wall or a drop alike: the cylinder must stand wholly on
//! the floor. A game's box hull does not: Quake's player stands wherever
//! the bottom of his box rests on some floor under its footprint and the
//! box is clear of solids, so his centre may come to a ledge's edge (and
//! beyond, by up to half his width). Eroded as Recast does, a ledge or a
//! sill narrower than the body's width keeps no walkable span, and the way
//! over it is lost.
//!
//! With this rule a missing connection is an obstacle only where the body
//! does not fit: a span's obstacles are the columns, within the erosion's
//! reach, that have no room for the body standing at the span's floor (no
//! open interval starting at most a step above that floor and reaching
//! the agent's height over it: a wall, a rise above the step, a ceiling
//! too low). A column whose floor lies deeper than a step but whose open
//! space reaches that height is a drop the body may overhang, not an
//! obstacle; a wall beyond such a gap still is, measured across the gap.
//! Each span that misses a side or diagonal connection is seeded with the
//! 12/17 chamfer distance of its nearest such column (the distance the
//! chamfer would give it through connected spans, [`crate::chamfer`]); the
//! chamfer sweeps then carry the seeds over the connections as for
//! Recast's rule. The agent's centre so comes to a ledge's edge (its
//! outermost cell), not beyond it: the body overhangs by up to its radius,
//! a conservative reading of Quake's rule.
//!
//! The swim pass keeps Recast's rule whatever the parameter: its spans are
//! floors under the water, its step the water's depth, and a swimmer has
//! no ledge to overhang (so the bars of a flooded passage still stop a
//! swimmer as wide as their gaps).
//!
//! A body that overhangs does not fall between bars narrower than itself
//! either: that is the `drops` stage's clear-fall check
//! ([`crate::drops`]), which this rule does not touch.

use crate::chamfer::{DIAG, ORTHO, chamfer, seeds};
use crate::heightfield::{Heightfield, OPEN};
use crate::links::Limits;

/// The 12/17 chamfer distance of an offset of `(i, j)` cells.
fn chamfer_of(i: i32, j: i32) -> u16 {
    let (a, b) = (i.abs().max(j.abs()), i.abs().min(j.abs()));
    (DIAG as i32 * b + ORTHO as i32 * (a - b)).min(u16::MAX as i32) as u16
}

/// True when the body of `lim` has no room in column `(x, z)` standing at
/// `floor` (voxel units): no open interval of the column starts at most a
/// step above `floor` and reaches `floor + height`. A column outside the
/// padded tile has no room (as Recast's tile edge); a column without a
/// span is open air.
fn blocks(hf: &Heightfield, x: i32, z: i32, floor: u32, lim: Limits) -> bool {
    let Some(c) = hf.col(x, z) else {
        return true;
    };
    let head = floor + lim.height;
    let spans = &hf.spans[hf.range(c)];
    !spans.is_empty()
        && !spans.iter().any(|t| {
            u32::from(t.floor) <= floor + lim.step && (t.ceil == OPEN || u32::from(t.ceil) >= head)
        })
}

/// The chamfer distance from span `s` of column `(x, z)` to the nearest
/// column within `reach` cells in which the body does not fit at the
/// span's floor ([`blocks`]); `u16::MAX` when there is none. The columns
/// are read ring by ring outwards and the search stops once a ring cannot
/// be nearer than the nearest found.
fn nearest_block(hf: &Heightfield, (x, z): (i32, i32), floor: u32, lim: Limits, reach: i32) -> u16 {
    let mut best = u16::MAX;
    for k in 1..=reach {
        if (ORTHO as i32 * k) as u16 >= best {
            break;
        }
        for i in -k..=k {
            for j in -k..=k {
                if i.abs().max(j.abs()) != k {
                    continue;
                }
                let d = chamfer_of(i, j);
                if d < best && blocks(hf, x + i, z + j, floor, lim) {
                    best = d;
                }
            }
        }
    }
    best
}

/// The chamfer distance of every span to the nearest obstacle under the
/// overhang rule (see the module docs): `link` and `passable` are the
/// pass's, `lim` its height and step in voxels, `reach` the cells its
/// erosion reads ([`crate::chamfer::erosion_reach`]).
pub fn distances(
    hf: &Heightfield,
    link: &[u32],
    passable: &[bool],
    lim: Limits,
    reach: i32,
) -> Vec<u16> {
    let mut dist = seeds(link, passable);
    for (c, cell) in hf.cells() {
        for s in hf.range(c) {
            // Recast's seed: 0 on an obstacle, `u16::MAX` with every
            // connection; else the span misses one, whose column may be a
            // drop the body overhangs.
            if dist[s] != 0 && dist[s] != u16::MAX {
                dist[s] = nearest_block(hf, cell, u32::from(hf.spans[s].floor), lim, reach);
            }
        }
    }
    chamfer(hf, link, &mut dist);
    dist
}
