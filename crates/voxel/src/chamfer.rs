//! The 12/17 chamfer distance over span links, in thirteenths of a cell:
//! how far each span is from the nearest obstacle, and what a radius reads.
//! The erosion of every pass and the band rule measure with it.

use crate::heightfield::Heightfield;
use crate::links::NO_LINK;

/// Chamfer weight of a side step (12/13 of a cell).
pub const ORTHO: u16 = 12;
/// Chamfer weight of a diagonal step (17/13 of a cell, under sqrt 2).
pub const DIAG: u16 = 17;
/// Distance units per cell: with 12/17 weights over 13 units per cell the
/// chamfer distance never exceeds the Euclidean distance (the largest ratio,
/// sqrt(12^2 + 5^2) / 13, is exactly 1) and falls short by at most 7.7%.
pub const UNIT: f64 = 13.0;

/// The erosion threshold of a radius in chamfer units (a span is walkable
/// when its chamfer distance reaches it; see [`crate::flags`], which runs the erosion).
pub fn threshold(radius: f64, cs: f64) -> u16 {
    ((radius / cs + 0.5) * UNIT - 1e-9)
        .ceil()
        .min(u16::MAX as f64) as u16
}

/// Cells the erosion of `radius` reads around a span: a chamfer path
/// shorter than the threshold moves at most `threshold / ORTHO` cells, and
/// the obstacle one cell beyond.
pub fn erosion_reach(radius: f64, cs: f64) -> i32 {
    (threshold(radius, cs) as i32 + ORTHO as i32 - 1) / ORTHO as i32 + 1
}

/// 12/17 chamfer distance (in thirteenths of a cell) from each span to the
/// nearest obstacle, propagated over connections.
pub fn distances(hf: &Heightfield, link: &[u32], passable: &[bool]) -> Vec<u16> {
    let mut dist = seeds(link, passable);
    chamfer(hf, link, &mut dist);
    dist
}

/// The chamfer's seeds: 0 on non-passable spans, and virtual obstacles one
/// cell beyond every missing side or diagonal connection (every other span
/// `u16::MAX`).
pub(crate) fn seeds(link: &[u32], passable: &[bool]) -> Vec<u16> {
    // A span with all four side connections misses the diagonal between
    // sides `d` and `d + 1` when neither side neighbour connects on to it.
    passable
        .iter()
        .zip(link.chunks_exact(4))
        .map(|(&ok, l)| {
            if !ok {
                0
            } else if l.contains(&NO_LINK) {
                ORTHO
            } else if (0..4).any(|d| {
                let e = (d + 1) % 4;
                link[4 * l[d] as usize + e] == NO_LINK && link[4 * l[e] as usize + d] == NO_LINK
            }) {
                DIAG
            } else {
                u16::MAX
            }
        })
        .collect()
}

/// Runs the two 12/17 chamfer sweeps over connections on `dist` (seeds hold
/// their distance, every other span `u16::MAX`).
pub fn chamfer(hf: &Heightfield, link: &[u32], dist: &mut [u16]) {
    let n = hf.spans.len();
    let relax = |dist: &mut [u16], s: usize, d1: usize, d2: usize| {
        let l = link[4 * s + d1];
        if l == NO_LINK {
            return;
        }
        let l = l as usize;
        let v = dist[l].saturating_add(ORTHO);
        if v < dist[s] {
            dist[s] = v;
        }
        let m = link[4 * l + d2];
        if m != NO_LINK {
            let v = dist[m as usize].saturating_add(DIAG);
            if v < dist[s] {
                dist[s] = v;
            }
        }
    };
    // A tile's spans lie column after column, each column's bottom up, so
    // the sweeps walk the span indices (up, then down) without reading the
    // columns.
    // A span at most one side step from an obstacle (an obstacle, or a
    // seed one step from one) cannot get nearer: every relaxation offers
    // at least ORTHO. Walls and seeds are skipped so.
    // Forward: -x (dir 0) then -z (dir 3); -z then +x (dir 2).
    for s in 0..n {
        if dist[s] > ORTHO {
            relax(dist, s, 0, 3);
            relax(dist, s, 3, 2);
        }
    }
    // Backward: +x then +z (dir 1); +z then -x.
    for s in (0..n).rev() {
        if dist[s] > ORTHO {
            relax(dist, s, 2, 1);
            relax(dist, s, 1, 0);
        }
    }
}
