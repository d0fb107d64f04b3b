//! Stage `voxelize` without the tiles' repeated borders: every column is
//! rasterised once, in the block of the tile that owns it, and each tile's
//! padded heightfield is copied together from the blocks its padded cells
//! cross ([`voxelize`]).
//!
//! A tile's *owned block* is its core, widened to its padded edge on each
//! side where the grid ends (no tile lies beyond to own those columns), so
//! the owned blocks of the tile positions cover every padded column once.
//! A block is rasterised with its owner's triangles (a triangle that
//! reaches a column of the block touches the owner's padded cells, which
//! reach past the block by the border), its cuts starting at the block's
//! first row and column (`heightfield::block_spans`), so a column
//! is the same in every tile whose padded cells hold it, and the same
//! however the block is split into row bands for the threads.
//!
//! One tile (`tile_size = 0`) owns all its padded cells and is cut from its
//! padded corner; it is built in row bands on all cores. With several
//! tiles each column is rasterised once, from its block's corner, so every
//! tile whose padded cells hold it agrees on it (a column cut from another
//! start could differ by the rounding of a cut corner, a voxel at most).
//!
//! A tile's cache key still hashes its own triangles only: a triangle that
//! is not in its list (the layout's cell of a corner, in `f64`, and the
//! rasteriser's, in `f32`, can differ by one) reaches at most the outermost
//! ring of its padded columns, which no flag of its core reads
//! ([`crate::tiles::tile_padding`] leaves that cell spare).

use std::collections::BTreeMap;

use navscope_core::StageError;
use navscope_core::geom::TriMesh;

use crate::heightfield::{Heightfield, MAX_SPANS, Span, apply_water, block_spans, too_many_spans};
use crate::schedule::largest_first;
use crate::tiles::{Layout, Tile};

/// With several threads, blocks are cut into row bands of about
/// `1 / (threads × BANDS_PER_THREAD)` of the stage's estimated work each,
/// so the largest-first queue ([`crate::schedule`]) can even the threads
/// out, one band of a big tile beside another; with one thread they are
/// not cut. The heightfields do not depend on it.
const BANDS_PER_THREAD: u64 = 4;

/// Fewest rows a band holds: a band cuts each of its triangles' rows below
/// it once more, so thin bands cost more than they share.
const MIN_BAND_ROWS: usize = 16;

/// Global cells `(x0, z0, x1, z1)`, half-open.
type Rect = (i32, i32, i32, i32);

/// One rasterised block: its cells and, row-major, its columns' spans.
struct Block {
    rect: Rect,
    /// `cols[c]..cols[c + 1]` are column `c`'s spans.
    cols: Vec<u32>,
    spans: Vec<Span>,
}

fn intersect(a: Rect, b: Rect) -> Option<Rect> {
    let r = (a.0.max(b.0), a.1.max(b.1), a.2.min(b.2), a.3.min(b.3));
    (r.0 < r.2 && r.1 < r.3).then_some(r)
}

/// The columns tile `t` owns (see the module docs).
fn owned(layout: &Layout, t: &Tile) -> Rect {
    let (g, r) = (&layout.grid, t.rect);
    (
        if r.x0 == 0 { r.x0 - r.pad } else { r.x0 },
        if r.z0 == 0 { r.z0 - r.pad } else { r.z0 },
        if r.x1 >= g.width { r.x1 + r.pad } else { r.x1 },
        if r.z1 >= g.depth { r.z1 + r.pad } else { r.z1 },
    )
}

/// The tiles whose owned blocks cross `rect`, with the crossing; tile
/// positions without a tile own no spans (no triangle touches them).
fn owners(layout: &Layout, rect: Rect) -> Vec<(usize, Rect)> {
    let ts = i64::from(layout.tile_cells);
    let g = &layout.grid;
    let count = |cells: i32| (i64::from(cells) + ts - 1) / ts;
    let (ntx, ntz) = (count(g.width), count(g.depth));
    let pos = |cell: i32, n: i64| i64::from(cell).div_euclid(ts).clamp(0, n - 1);
    let at = |t: &Tile| (i64::from(t.rect.z0) / ts, i64::from(t.rect.x0) / ts);
    let mut out = Vec::new();
    for tz in pos(rect.1, ntz)..=pos(rect.3 - 1, ntz) {
        for tx in pos(rect.0, ntx)..=pos(rect.2 - 1, ntx) {
            if let Ok(i) = layout.tiles.binary_search_by_key(&(tz, tx), at)
                && let Some(r) = intersect(owned(layout, &layout.tiles[i]), rect)
            {
                out.push((i, r));
            }
        }
    }
    out
}

/// A block to rasterise: its owner, its cells, the owner's triangles that
/// may reach them (all of them unless the block is a row band), and its
/// estimated cost.
struct Job {
    owner: usize,
    rect: Rect,
    triangles: Option<Vec<u32>>,
    cost: u64,
}

/// The rows of triangle `t` (global cells, inclusive, a row either side
/// spare: the rasteriser's cells come from `f32` corners and a face in a
/// grid plane may fall in the row before) and its width in cells.
fn extent(layout: &Layout, t: u32) -> (i32, i32, i32) {
    let [x0, z0, x1, z1] = layout.cells[t as usize];
    (z0 - 1, z1 + 1, x1 - x0 + 1)
}

/// The cost of each row of block `r` with `triangles`, by what the
/// rasteriser does there: each triangle clips each row it crosses and
/// makes a piece per column (a constant for the clip, plus its width), and
/// every column of the block is sorted and merged.
fn row_costs(layout: &Layout, r: Rect, triangles: &[u32]) -> Vec<u64> {
    let rows = (r.3 - r.1) as usize;
    let width = (r.2 - r.0) as i64;
    // Differences: a triangle adds its cost from its first row to its last.
    let mut diff = vec![0i64; rows + 1];
    for &t in triangles {
        let (lo, hi, across) = extent(layout, t);
        let (lo, hi) = (lo.max(r.1), hi.min(r.3 - 1));
        if lo > hi {
            continue;
        }
        let c = 4 + i64::from(across).min(width);
        diff[(lo - r.1) as usize] += c;
        diff[(hi + 1 - r.1) as usize] -= c;
    }
    let mut run = 0i64;
    diff[..rows]
        .iter()
        .map(|d| {
            run += d;
            (run + width) as u64
        })
        .collect()
}

/// Where to cut `costs` (a block's rows) into bands: the first row of each
/// band, each band at least [`MIN_BAND_ROWS`] rows and ended once it holds
/// `target`; a last band shorter than that joins the one before.
fn band_starts(costs: &[u64], target: u64) -> Vec<usize> {
    let mut starts = vec![0];
    let mut held = 0;
    for (row, c) in costs.iter().enumerate() {
        let start = *starts.last().expect("a band");
        if held >= target && row - start >= MIN_BAND_ROWS {
            starts.push(row);
            held = 0;
        }
        held += c;
    }
    if starts.len() > 1 && costs.len() - starts[starts.len() - 1] < MIN_BAND_ROWS {
        starts.pop();
    }
    starts
}

/// Block `r` of `owner` cut into bands of about `target` ([`band_starts`]),
/// each with the triangles whose rows may reach it.
fn bands(layout: &Layout, owner: usize, r: Rect, costs: &[u64], target: u64) -> Vec<Job> {
    let starts = band_starts(costs, target);
    let job = |k: usize, triangles: Option<Vec<u32>>| {
        let end = starts.get(k + 1).copied().unwrap_or(costs.len());
        Job {
            owner,
            rect: (r.0, r.1 + starts[k] as i32, r.2, r.1 + end as i32),
            triangles,
            cost: costs[starts[k]..end].iter().sum(),
        }
    };
    if starts.len() == 1 {
        return vec![job(0, None)];
    }
    let band_of = |z: i32| {
        let row = (z.clamp(r.1, r.3 - 1) - r.1) as usize;
        starts.partition_point(|&s| s <= row) - 1
    };
    let mut lists = vec![Vec::new(); starts.len()];
    for &t in &layout.tiles[owner].triangles {
        let (lo, hi, _) = extent(layout, t);
        for list in &mut lists[band_of(lo)..=band_of(hi)] {
            list.push(t);
        }
    }
    lists
        .into_iter()
        .enumerate()
        .map(|(k, list)| job(k, Some(list)))
        .collect()
}

/// The blocks the heightfields of `tiles` need: per owner the bounding
/// rectangle of what their padded cells take of its block (all of it in a
/// cold build). With one thread that is the plan; with several, each block
/// is cut into row bands of about `1 / (threads × BANDS_PER_THREAD)` of
/// the estimated whole ([`row_costs`]), each band with the triangles
/// whose rows may reach it.
fn plan(layout: &Layout, tiles: &[usize]) -> Vec<Job> {
    let mut need: BTreeMap<usize, Rect> = BTreeMap::new();
    for &i in tiles {
        for (o, r) in owners(layout, layout.tiles[i].rect.padded()) {
            need.entry(o)
                .and_modify(|u| *u = (u.0.min(r.0), u.1.min(r.1), u.2.max(r.2), u.3.max(r.3)))
                .or_insert(r);
        }
    }
    let threads = rayon::current_num_threads() as u64;
    if threads == 1 {
        return need
            .into_iter()
            .map(|(owner, rect)| Job {
                owner,
                rect,
                triangles: None,
                cost: 0,
            })
            .collect();
    }
    let costs: Vec<(usize, Rect, Vec<u64>)> = need
        .into_iter()
        .map(|(o, r)| (o, r, row_costs(layout, r, &layout.tiles[o].triangles)))
        .collect();
    let total: u64 = costs.iter().flat_map(|c| &c.2).sum();
    let target = total / (threads * BANDS_PER_THREAD);
    costs
        .iter()
        .flat_map(|(o, r, c)| bands(layout, *o, *r, c, target))
        .collect()
}

/// Tile `tile`'s padded heightfield, copied from `blocks` (disjoint, and
/// holding every owned column its padded cells cross); no water yet.
fn assemble(tile: &Tile, blocks: &[Block]) -> Result<Heightfield, StageError> {
    let padded = tile.rect.padded();
    let (px, pz, px1, pz1) = padded;
    let (w, d) = (px1 - px, pz1 - pz);
    let near: Vec<&Block> = blocks
        .iter()
        .filter(|b| intersect(b.rect, padded).is_some())
        .collect();
    let mut cols = Vec::with_capacity(w as usize * d as usize + 1);
    cols.push(0u32);
    let mut spans: Vec<Span> = Vec::new();
    let mut row: Vec<&Block> = Vec::new();
    for z in pz..pz1 {
        row.clear();
        row.extend(near.iter().filter(|b| b.rect.1 <= z && z < b.rect.3));
        row.sort_unstable_by_key(|b| b.rect.0);
        let mut x = px;
        for b in &row {
            let (x0, x1) = (b.rect.0.max(px), b.rect.2.min(px1));
            let end = spans.len() as u32;
            cols.extend(std::iter::repeat_n(end, (x0 - x) as usize));
            let c0 = ((z - b.rect.1) * (b.rect.2 - b.rect.0) + (x0 - b.rect.0)) as usize;
            let c1 = c0 + (x1 - x0) as usize;
            let first = b.cols[c0];
            spans.extend_from_slice(&b.spans[first as usize..b.cols[c1] as usize]);
            cols.extend(b.cols[c0 + 1..=c1].iter().map(|&e| e - first + end));
            x = x1;
        }
        let end = spans.len() as u32;
        cols.extend(std::iter::repeat_n(end, (px1 - x) as usize));
        if spans.len() > MAX_SPANS {
            return Err(too_many_spans(tile.index));
        }
    }
    Ok(Heightfield {
        rect: tile.rect,
        px,
        pz,
        w,
        d,
        cols,
        spans,
    })
}

/// The padded heightfields of the tiles `tiles` (indices into `layout`,
/// ascending), with their water depths: the blocks they need rasterised
/// once each, in parallel, then each tile copied together from them (see
/// the module docs). An error is the first failing block's or tile's.
pub fn voxelize(
    mesh: &TriMesh,
    layout: &Layout,
    tiles: &[usize],
    water_level: Option<f64>,
) -> Result<Vec<Heightfield>, StageError> {
    let jobs = plan(layout, tiles);
    let costs: Vec<u64> = jobs.iter().map(|j| j.cost).collect();
    let blocks: Vec<Result<Block, StageError>> = largest_first(&costs, |k| {
        let job = &jobs[k];
        let owner = &layout.tiles[job.owner];
        let (ox, oz, _, _) = owned(layout, owner);
        let triangles = job.triangles.as_deref().unwrap_or(&owner.triangles);
        let (cols, spans) =
            block_spans(mesh, triangles, &layout.grid, (ox, oz), job.rect, job.owner)?;
        Ok(Block {
            rect: job.rect,
            cols,
            spans,
        })
    });
    let mut blocks = blocks.into_iter().collect::<Result<Vec<_>, _>>()?;
    let finish = |tile: &Tile, mut hf: Heightfield| {
        apply_water(&mut hf, &layout.grid, &tile.water, water_level);
        hf
    };
    // One tile that is one block (a one-tile build on one thread) takes
    // the block's spans as they are, without a copy.
    if let [i] = *tiles
        && let [b] = &blocks[..]
        && b.rect == layout.tiles[i].rect.padded()
    {
        let b = blocks.pop().expect("one block");
        let tile = &layout.tiles[i];
        let (px, pz, px1, pz1) = b.rect;
        let hf = Heightfield {
            rect: tile.rect,
            px,
            pz,
            w: px1 - px,
            d: pz1 - pz,
            cols: b.cols,
            spans: b.spans,
        };
        return Ok(vec![finish(tile, hf)]);
    }
    // Each tile copied together, the largest first: a copy costs about
    // its padded columns.
    let costs: Vec<u64> = tiles
        .iter()
        .map(|&i| {
            let (x0, z0, x1, z1) = layout.tiles[i].rect.padded();
            (x1 - x0) as u64 * (z1 - z0) as u64
        })
        .collect();
    let out = largest_first(&costs, |k| {
        let tile = &layout.tiles[tiles[k]];
        Ok(finish(tile, assemble(tile, &blocks)?))
    });
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Settings, specs};
    use crate::tiles::layout;
    use navscope_core::ParamValues;

    proptest::proptest! {
        /// Bands cover a block's rows in order, each of at least
        /// [`MIN_BAND_ROWS`] rows (unless the block is one band), and a
        /// band ends only once it holds the target.
        #[test]
        fn bands_cover_the_rows_and_hold_the_target(
            costs in proptest::collection::vec(0u64..100, 1..300),
            target in 0u64..3000,
        ) {
            let starts = band_starts(&costs, target);
            proptest::prop_assert_eq!(starts[0], 0);
            let mut ends: Vec<usize> = starts[1..].to_vec();
            ends.push(costs.len());
            for (&s, &e) in starts.iter().zip(&ends) {
                proptest::prop_assert!(s < e);
                proptest::prop_assert!(starts.len() == 1 || e - s >= MIN_BAND_ROWS);
            }
            for (&s, &e) in starts.iter().zip(&starts[1..]) {
                proptest::prop_assert!(costs[s..e].iter().sum::<u64>() >= target);
            }
        }
    }

    /// The heightfields do not depend on the thread count: one thread
    /// rasterises a one-tile build as one block and takes it as it is,
    /// two cut it into row bands and copy them together.
    #[test]
    fn one_thread_and_two_give_the_same_heightfields() {
        let mut banded = 0;
        for b in crate::samples::all().into_iter().map(|x| x.2) {
            let level = b.level();
            for tile_size in [0, 37] {
                let mut s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
                s.tile_size = tile_size;
                let l = layout(&level.mesh, &level.water, &s).unwrap();
                let all: Vec<usize> = (0..l.tiles.len()).collect();
                // Spans by their bits (a dry span's water is NaN).
                let on = |threads: usize| {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let hfs = pool.install(|| voxelize(&level.mesh, &l, &all, Some(0.5)).unwrap());
                    hfs.into_iter()
                        .map(|hf| {
                            let spans: Vec<_> = hf
                                .spans
                                .iter()
                                .map(|s| {
                                    (s.base, s.floor, s.ceil, s.ny.to_bits(), s.water.to_bits())
                                })
                                .collect();
                            (hf.rect, hf.px, hf.pz, hf.w, hf.d, hf.cols, spans)
                        })
                        .collect::<Vec<_>>()
                };
                let one = on(1);
                assert!(one == on(2), "tile size {tile_size}");
                assert!(one == on(3), "tile size {tile_size}");
                let two = rayon::ThreadPoolBuilder::new()
                    .num_threads(2)
                    .build()
                    .unwrap();
                let jobs = two.install(|| plan(&l, &all));
                banded += jobs.iter().filter(|j| j.triangles.is_some()).count();
            }
        }
        // Some blocks were cut into bands, so the bands were compared too.
        assert!(banded > 0);
    }
}
