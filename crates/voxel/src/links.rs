//! Span links: each open span's connection to a span of each side
//! neighbour column (Recast's compact heightfield connections), the
//! directions they are indexed by, and the columns near a set of spans.
//! Every stage from `compact` on reads a tile's spans through them.

use crate::grid::Grid;
use crate::heightfield::{Heightfield, OPEN};
use crate::rows::for_row_bands;
use crate::settings::Pass;

/// Marks a missing connection.
pub const NO_LINK: u32 = u32::MAX;

/// Side directions as (dx, dz).
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// Integer limits of one pass in grid units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Height in voxels (rounded up).
    pub height: u32,
    /// Step in voxels (rounded down).
    pub step: u32,
}

impl Limits {
    /// The limits of `pass` on `grid`.
    pub fn of(pass: &Pass, grid: &Grid) -> Self {
        Limits {
            height: (pass.agent.height / grid.ch - 1e-9).ceil().max(0.0) as u32,
            step: (pass.agent.max_step / grid.ch + 1e-9)
                .floor()
                .min(u32::MAX as f64 / 2.0) as u32,
        }
    }
}

/// The connections of every span for several limits at once, in one walk
/// over the columns shared by up to four of them: for each `(limits,
/// mask)` of `sets`, `links[4 * s + dir]` is the span reached from `s` in
/// direction `DIRS[dir]`, or [`NO_LINK`]: the first span of the side
/// column, bottom up, whose floor is within the step of `s`'s and whose
/// open interval shares at least the height with `s`'s. With a column
/// mask, only spans of masked columns get their connections.
pub fn links(hf: &Heightfield, sets: &[(Limits, Option<&[bool]>)]) -> Vec<Vec<u32>> {
    let mut out = Vec::with_capacity(sets.len());
    for group in sets.chunks(GROUP) {
        match group.len() {
            1 => out.extend(links_group::<1>(hf, group)),
            2 => out.extend(links_group::<2>(hf, group)),
            3 => out.extend(links_group::<3>(hf, group)),
            _ => out.extend(links_group::<GROUP>(hf, group)),
        }
    }
    out
}

/// Most limits [`links`] finds connections for in one walk.
const GROUP: usize = 4;

/// [`links`] for `N` limits (compiled for each `N`, so one pass runs the
/// plain loop).
fn links_group<const N: usize>(
    hf: &Heightfield,
    sets: &[(Limits, Option<&[bool]>)],
) -> [Vec<u32>; N] {
    let sets: &[(Limits, Option<&[bool]>); N] = sets.try_into().expect("N sets");
    let n = hf.spans.len();
    let mut out: [Vec<u32>; N] = std::array::from_fn(|_| vec![NO_LINK; 4 * n]);
    let max_step = sets.iter().map(|(l, _)| l.step).max().unwrap_or(0);
    let parts = out.each_mut().map(|v| v.as_mut_slice());
    for_row_bands(hf, parts, 4, move |columns, first, out| {
        for (c, (x, z)) in hf.cells_in(columns) {
            // An empty column has no connections to find (most of a level's
            // bounding box is).
            if hf.cols[c] == hf.cols[c + 1] {
                continue;
            }
            // The sets that want the column's connections.
            let want: [bool; N] = std::array::from_fn(|k| sets[k].1.is_none_or(|m| m[c]));
            let wanted = want.iter().filter(|&&w| w).count();
            if wanted == 0 {
                continue;
            }
            for (dir, (dx, dz)) in DIRS.iter().enumerate() {
                let Some(nc) = hf.col(x + dx, z + dz) else {
                    continue;
                };
                let nr = hf.range(nc);
                // Floors rise up a column: the side spans too far below one
                // span (for the largest step) are too far below the next, so
                // the search for each starts where the last one's began, and
                // stops at the first side span too far above. A side span
                // within the largest step but not a set's own fails that
                // set's step test, so each set still gets its first match.
                let mut from = nr.start;
                for s in hf.range(c) {
                    let a = hf.spans[s];
                    while from < nr.end && (hf.spans[from].floor as u32) + max_step < a.floor as u32
                    {
                        from += 1;
                    }
                    let mut left = wanted;
                    let mut open = want;
                    for n in from..nr.end {
                        let b = hf.spans[n];
                        if b.floor as u32 > a.floor as u32 + max_step {
                            break;
                        }
                        let top = a.ceil.min(b.ceil) as u32;
                        let bottom = a.floor.max(b.floor) as u32;
                        let gap = if a.ceil == OPEN && b.ceil == OPEN {
                            u32::MAX
                        } else {
                            top.saturating_sub(bottom)
                        };
                        let rise = (a.floor as i32 - b.floor as i32).unsigned_abs();
                        for k in 0..N {
                            let lim = sets[k].0;
                            if open[k] && rise <= lim.step && gap >= lim.height {
                                out[k][4 * (s - first) + dir] = n as u32;
                                open[k] = false;
                                left -= 1;
                            }
                        }
                        if left == 0 {
                            break;
                        }
                    }
                }
            }
        }
    });
    out
}

/// Columns within `reach` cells (Chebyshev) of a column holding a span
/// for which `hit` is true.
pub fn near_columns(hf: &Heightfield, hit: impl Fn(usize) -> bool, reach: i32) -> Vec<bool> {
    let (w, d) = (hf.w as usize, hf.d as usize);
    let r = reach.max(0) as usize;
    // One bit per column, each row in whole words; the bits past a row's
    // end never reach back into it farther than the reach.
    let words = w.div_ceil(64);
    let mut bits = vec![0u64; words * d];
    for (c, col) in hf.cols.windows(2).enumerate() {
        // Most columns of a level's box are empty.
        if col[0] != col[1] && (col[0] as usize..col[1] as usize).any(&hit) {
            let (z, x) = (c / w, c % w);
            bits[z * words + x / 64] |= 1 << (x % 64);
        }
    }
    let mut old = vec![0u64; words * d];
    // Along x, a cell a step: every bit spreads to both sides (within w
    // steps a row is as full as it gets).
    for _ in 0..r.min(w) {
        old.copy_from_slice(&bits);
        for (row, was) in bits.chunks_exact_mut(words).zip(old.chunks_exact(words)) {
            for i in 0..words {
                let v = was[i];
                let below = if i > 0 { was[i - 1] >> 63 } else { 0 };
                let above = if i + 1 < words { was[i + 1] << 63 } else { 0 };
                row[i] = v | v << 1 | v >> 1 | below | above;
            }
        }
    }
    // Along z, a row a step.
    for _ in 0..r.min(d) {
        old.copy_from_slice(&bits);
        for z in 0..d {
            let row = &mut bits[z * words..(z + 1) * words];
            if z > 0 {
                for (b, &v) in row.iter_mut().zip(&old[(z - 1) * words..z * words]) {
                    *b |= v;
                }
            }
            if z + 1 < d {
                for (b, &v) in row.iter_mut().zip(&old[(z + 1) * words..(z + 2) * words]) {
                    *b |= v;
                }
            }
        }
    }
    // Back to one flag per column, 64 at a time; a word of none (far
    // from every span) or of all is written without looking at its bits.
    let mut out = vec![false; w * d];
    for (row, bits) in out.chunks_exact_mut(w.max(1)).zip(bits.chunks_exact(words)) {
        for (cols, &word) in row.chunks_mut(64).zip(bits) {
            match word {
                0 => {}
                u64::MAX => cols.fill(true),
                _ => {
                    for (x, o) in cols.iter_mut().enumerate() {
                        *o = word >> x & 1 == 1;
                    }
                }
            }
        }
    }
    out
}
