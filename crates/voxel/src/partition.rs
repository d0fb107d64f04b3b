//! The `regions` stage: Recast's region partitioning of each pass's walkable
//! spans, before the outlines are traced.
//!
//! * **Distance field** (Recast's `rcBuildDistanceField`): a 2/3 chamfer
//!   distance (2 per side step, 3 per diagonal step) from every walkable
//!   span to the edge of its pass's walkable area (a walkable span with a
//!   side that does not connect to another walkable span of the same pass
//!   has distance 0), then Recast's 3 x 3 box blur of every value above 2.
//! * **Watershed** (`rcBuildRegions`): the distance levels are flooded from
//!   the top down in steps of 2; at each level the existing regions first
//!   grow into the newly uncovered spans (at most 8 rounds, Recast's
//!   `expandRegions`), then every span still unclaimed starts a new region
//!   that floods the spans at or above the level minus 2 without touching
//!   another region (`floodRegion`). A last unbounded growth claims the
//!   rest.
//! * **Monotone** (`rcBuildRegionsMonotone`): each row's runs of connected
//!   spans continue the region of the previous row when all of that region's
//!   contact with the previous row is with this run alone; otherwise they
//!   start a new region. Fast, no distance field needed, but long thin
//!   regions. As in Recast, the build computes no distance field for the
//!   monotone and layer partitions; the drawing computes it
//!   ([`PassPartition::distances`]), so the stage still shows its ramp.
//! * **Filters** (`mergeAndFilterRegions`): a group of connected regions
//!   whose spans number fewer than `min_region_size`^2 (Recast's
//!   `minRegionArea`) and that does not reach the tile's edge is dropped
//!   (its spans leave the navmesh); then, repeatedly, a region with at most
//!   `merge_region_size`^2 spans (`mergeRegionArea`), or one that touches no
//!   obstacle, joins its smallest neighbour that shares no column with it.
//!   Finally the ids are made consecutive in scan order.
//! * **Layers** (`rcBuildLayerRegions`): the monotone sweep, then its
//!   regions are merged into *layers*: from each region not yet in a layer,
//!   breadth first over neighbouring regions, a neighbour joining unless it
//!   shares a column with a region already in the layer. So a layer never
//!   holds two spans of one column (it is a height field: a floor, or a
//!   bridge, never both), and a level of stacked floors gets few, large
//!   regions. A layer with fewer than `min_region_size`^2 spans that does
//!   not reach the tile's edge is dropped; `merge_region_size` is not used,
//!   as in Recast. Where Recast is open: regions are visited in id order
//!   (the sweep's, rows from -z up) and neighbours in id order, so the
//!   layers are deterministic.
//!
//! * **Areas**: a connection between spans of two areas (convex volumes,
//!   [`crate::compact`]) counts as an edge for the distance field and the
//!   regions, as in Recast, so no region (and no polygon) crosses an area
//!   change; the merge filter only sees neighbours within one area.
//!
//! Where this differs from Recast, by choice: Recast merges two regions only
//! when they share one contiguous boundary, so that each region has one
//! contour; here a region may have holes (the outline tracer and the
//! constrained triangulation take holes), so the neighbour test is plain
//! adjacency. Regions are found on the whole padded tile and only their core
//! spans become outlines. Spans a region filter drops are not walkable for
//! the later stages of this pass, but stay claimed: they do not go back to
//! the next pass's pool (the pool is fixed by the `flag` stage).

use serde::Serialize;
use std::borrow::Cow;

use crate::heightfield::Heightfield;
use crate::links::NO_LINK;
use crate::pass_flags::{PassFlags, WALKABLE};
use crate::settings::{Partition, PartitionParams};

/// No region (a span that is not walkable in the pass, or was filtered out).
pub const NO_REGION: u32 = 0;

/// One pass's distance field and regions over a tile's spans.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PassPartition {
    /// Blurred 2/3 chamfer distance of each span to the edge of the pass's
    /// walkable area (2 units per cell; 0 for spans outside it). Only the
    /// watershed reads it, so for [`Partition::Monotone`] and
    /// [`Partition::Layers`] it is empty, as in Recast, which builds the
    /// distance field only for `rcBuildRegions`; [`PassPartition::distances`]
    /// computes it when it is drawn.
    pub dist: Vec<u16>,
    /// Largest value of `dist` (0 when `dist` is empty).
    pub max_dist: u16,
    /// Region of each span, [`NO_REGION`] for none; ids run from 1.
    pub region: Vec<u32>,
    /// Number of regions (the largest id).
    pub regions: u32,
    /// Regions (layers, for [`Partition::Layers`]) the minimum-area filter
    /// dropped.
    pub dropped: u32,
    /// Regions merged into a neighbour (into another region's layer, for
    /// [`Partition::Layers`]).
    pub merged: u32,
    /// Spans of each region, by id (0 at [`NO_REGION`]). Each region is one
    /// piece: its spans are joined by the pass's links between them, taken
    /// either way (the partitions grow and merge regions only along links),
    /// which lets the outline tracing take a region's spans without a flood
    /// where those links go both ways ([`crate::contour`]). Empty when not
    /// known (a partition relabelled by hand).
    #[serde(skip)]
    pub sizes: Vec<u32>,
}

impl PassPartition {
    /// The pass's distance field and its largest value: `dist` when the
    /// partition kept it, else computed from the pass's flags `pf` and the
    /// spans' areas, as [`partition_pass`] would have (the monotone and
    /// layer partitions do not need it for their regions, only the drawing
    /// does, and drawing is not part of the timed build).
    pub fn distances(&self, pf: &PassFlags, area: &[u8]) -> (Cow<'_, [u16]>, u16) {
        if !self.dist.is_empty() || pf.flags.is_empty() {
            return (Cow::Borrowed(&self.dist), self.max_dist);
        }
        let ws = walkable_spans(pf);
        let (dist, max) = distance_field_of(&walk_links(pf, area, &ws), &ws, pf.flags.len());
        (Cow::Owned(dist), max)
    }
}

/// The pass's walkable spans in index order (column by column, each bottom
/// up): the distance field and the watershed visit only these, so a
/// recycled pass that walks on few spans costs little.
fn walkable_spans(pf: &PassFlags) -> Vec<usize> {
    (0..pf.flags.len()).filter(|&s| pf.walkable(s)).collect()
}

/// Recast's distance field over the `n` spans: the chamfer distances of the
/// walkable spans `ws` along their walkable links `link`, box-blurred, and
/// the largest value.
fn distance_field_of(link: &[u32], ws: &[usize], n: usize) -> (Vec<u16>, u16) {
    let raw = distance_field(link, ws, n);
    let dist = box_blur(&raw, link, ws);
    let max = dist.iter().copied().max().unwrap_or(0);
    (dist, max)
}

/// Partitions every pass of one tile; `area` is every span's area
/// ([`crate::compact`]): no region crosses from one area to another.
pub fn partition_tile(
    hf: &Heightfield,
    passes: &[PassFlags],
    area: &[u8],
    p: PartitionParams,
) -> Vec<PassPartition> {
    passes
        .iter()
        .map(|pf| partition_pass(hf, pf, area, p))
        .collect()
}

/// The walkable-to-walkable connections of one pass within one area:
/// `NO_LINK` where the pass's connection leads to a span the pass does not
/// walk on, or to another area (Recast's distance field and regions treat
/// an area change as an edge).
fn walk_links(pf: &PassFlags, area: &[u8], ws: &[usize]) -> Vec<u32> {
    let n = pf.flags.len();
    if pf.links.is_empty() {
        return vec![NO_LINK; 4 * n];
    }
    let mut out = vec![NO_LINK; 4 * n];
    for &s in ws {
        for d in 0..4 {
            let l = pf.links[4 * s + d];
            if l != NO_LINK && pf.walkable(l as usize) && area[l as usize] == area[s] {
                out[4 * s + d] = l;
            }
        }
    }
    out
}

/// Partitions one pass.
pub fn partition_pass(
    hf: &Heightfield,
    pf: &PassFlags,
    area: &[u8],
    p: PartitionParams,
) -> PassPartition {
    let (dist, max_dist, mut cut) = match p.kind {
        Partition::Watershed => {
            let ws = walkable_spans(pf);
            let link = walk_links(pf, area, &ws);
            let (dist, max) = distance_field_of(&link, &ws, pf.flags.len());
            let (reg, count) = watershed(&link, &ws, &dist, max);
            (dist, max, Cut { ws, reg, count })
        }
        Partition::Monotone | Partition::Layers => (Vec::new(), 0, monotone(hf, pf, area)),
    };
    let g = RegionGraph::of(hf, &pf.links, area, &cut);
    let (sizes, dropped, merged) = match p.kind {
        Partition::Layers => merge_layers(g, &mut cut, p),
        _ => filter_regions(g, &mut cut, p),
    };
    PassPartition {
        dist,
        max_dist,
        region: cut.reg,
        regions: sizes.len() as u32 - 1,
        dropped,
        merged,
        sizes,
    }
}

/// A partition's regions before the filters: the region of each span
/// ([`NO_REGION`] for every span not in `ws`), the walkable spans `ws` in
/// index order, and the number of regions (ids run from 1).
struct Cut {
    ws: Vec<usize>,
    reg: Vec<u32>,
    count: u32,
}

/// The region across connection `a` (an entry of the pass's
/// [`PassFlags::links`]) of a span in area `here`: [`NO_REGION`] for no
/// connection or one into another area (Recast's regions treat an area
/// change as an edge). Only walkable spans have regions, so this is the
/// region across the walkable link [`walk_links`] gives.
fn across(reg: &[u32], area: &[u8], here: u8, a: u32) -> u32 {
    if a == NO_LINK || area[a as usize] != here {
        NO_REGION
    } else {
        reg[a as usize]
    }
}

/// Recast's `calculateDistanceField`: two chamfer sweeps over the `n`
/// spans' walkable ones `ws` (in index order, which is column order; the
/// others keep 0).
fn distance_field(link: &[u32], ws: &[usize], n: usize) -> Vec<u16> {
    let mut d = vec![0u16; n];
    for &s in ws {
        if link[4 * s..4 * s + 4].iter().all(|&l| l != NO_LINK) {
            d[s] = u16::MAX;
        }
    }
    // Side step along d1 (+2), then the diagonal along d2 from there (+3).
    let relax = |d: &mut [u16], s: usize, d1: usize, d2: usize| {
        let a = link[4 * s + d1];
        if a == NO_LINK {
            return;
        }
        let a = a as usize;
        d[s] = d[s].min(d[a].saturating_add(2));
        let b = link[4 * a + d2];
        if b != NO_LINK {
            d[s] = d[s].min(d[b as usize].saturating_add(3));
        }
    };
    for &s in ws {
        if d[s] != 0 {
            relax(&mut d, s, 0, 3);
            relax(&mut d, s, 3, 2);
        }
    }
    for &s in ws.iter().rev() {
        if d[s] != 0 {
            relax(&mut d, s, 2, 1);
            relax(&mut d, s, 1, 0);
        }
    }
    d
}

/// Recast's `boxBlur` with threshold 2 over the walkable spans `ws`: the
/// mean over the 3 x 3 neighbourhood, a missing neighbour counting as the
/// span itself.
fn box_blur(src: &[u16], link: &[u32], ws: &[usize]) -> Vec<u16> {
    let mut out = src.to_vec();
    for &s in ws {
        let cd = src[s] as u32;
        if cd <= 2 {
            continue;
        }
        let mut sum = cd;
        for d in 0..4 {
            let a = link[4 * s + d];
            if a == NO_LINK {
                sum += cd * 2;
                continue;
            }
            sum += src[a as usize] as u32;
            let b = link[4 * a as usize + (d + 1) % 4];
            sum += if b == NO_LINK {
                cd
            } else {
                src[b as usize] as u32
            };
        }
        out[s] = ((sum + 5) / 9) as u16;
    }
    out
}

/// Recast's `rcBuildRegions` without its level stacks: the spans of a level
/// band join the pending list in scan order, after the spans earlier levels
/// left unclaimed. `ws` are the walkable spans in index order. Returns
/// each span's region and the number of regions.
fn watershed(link: &[u32], ws: &[usize], dist: &[u16], max: u16) -> (Vec<u32>, u32) {
    let n = dist.len();
    let mut reg = vec![NO_REGION; n];
    let mut rdist = vec![0u16; n];
    // Spans by descending level band, so each level only visits its own
    // (a stable sort: in index order within a band).
    let mut order = ws.to_vec();
    order.sort_by_key(|&s| std::cmp::Reverse(dist[s]));
    // Recast starts at (max + 1) & !1 and stops before a level of 0 when
    // it starts there, leaving an area only an edge wide without regions;
    // here level 0 is always flooded, so every walkable span gets one.
    let mut level = ((max as u32 + 1) & !1) + 2;
    let mut next_id = 1u32;
    let mut uncovered = 0usize;
    let mut pending: Vec<usize> = Vec::new();
    let mut stack = Vec::new();
    while level > 0 {
        level -= 2;
        while uncovered < order.len() && dist[order[uncovered]] as u32 >= level {
            pending.push(order[uncovered]);
            uncovered += 1;
        }
        pending.retain(|&s| reg[s] == NO_REGION);
        expand(link, &mut reg, &mut rdist, &mut pending, Some(8));
        for &s in &pending {
            if reg[s] == NO_REGION
                && flood(
                    link, dist, &mut reg, &mut rdist, &mut stack, s, level, next_id,
                )
            {
                next_id += 1;
            }
        }
        pending.retain(|&s| reg[s] == NO_REGION);
    }
    pending.extend(order[uncovered..].iter().copied().filter(|&s| reg[s] == 0));
    expand(link, &mut reg, &mut rdist, &mut pending, None);
    (reg, next_id - 1)
}

/// Recast's `expandRegions`: unclaimed spans in `pending` join the neighbour
/// region nearest (in steps from its seed), in rounds, until a round changes
/// nothing or `rounds` run out. Claimed spans leave `pending`.
fn expand(
    link: &[u32],
    reg: &mut [u32],
    rdist: &mut [u16],
    pending: &mut Vec<usize>,
    rounds: Option<u32>,
) {
    let mut round = 0;
    let mut changes: Vec<(usize, u32, u16)> = Vec::new();
    loop {
        changes.clear();
        for &s in pending.iter() {
            let mut best = (NO_REGION, u16::MAX);
            for d in 0..4 {
                let a = link[4 * s + d];
                if a == NO_LINK {
                    continue;
                }
                let a = a as usize;
                if reg[a] != NO_REGION && rdist[a].saturating_add(2) < best.1 {
                    best = (reg[a], rdist[a] + 2);
                }
            }
            if best.0 != NO_REGION {
                changes.push((s, best.0, best.1));
            }
        }
        if changes.is_empty() {
            break;
        }
        for &(s, r, d) in &changes {
            reg[s] = r;
            rdist[s] = d;
        }
        pending.retain(|&s| reg[s] == NO_REGION);
        round += 1;
        if rounds.is_some_and(|m| round >= m) {
            break;
        }
    }
}

/// Recast's `floodRegion`: region `r` floods from `seed` over spans at or
/// above `level - 2`, but a span next to (or diagonal to) another region is
/// left out so that regions never touch while they grow.
#[allow(clippy::too_many_arguments)]
fn flood(
    link: &[u32],
    dist: &[u16],
    reg: &mut [u32],
    rdist: &mut [u16],
    stack: &mut Vec<usize>,
    seed: usize,
    level: u32,
    r: u32,
) -> bool {
    let low = level.saturating_sub(2);
    stack.clear();
    stack.push(seed);
    reg[seed] = r;
    rdist[seed] = 0;
    let mut count = 0;
    while let Some(s) = stack.pop() {
        let other = |x: u32| x != NO_REGION && x != r;
        let touches = (0..4).any(|d| {
            let a = link[4 * s + d];
            if a == NO_LINK {
                return false;
            }
            if other(reg[a as usize]) {
                return true;
            }
            let b = link[4 * a as usize + (d + 1) % 4];
            b != NO_LINK && other(reg[b as usize])
        });
        if touches {
            reg[s] = NO_REGION;
            continue;
        }
        count += 1;
        for d in 0..4 {
            let a = link[4 * s + d];
            if a == NO_LINK {
                continue;
            }
            let a = a as usize;
            if dist[a] as u32 >= low && reg[a] == NO_REGION {
                reg[a] = r;
                rdist[a] = 0;
                stack.push(a);
            }
        }
    }
    count > 0
}

/// Recast's `rcBuildRegionsMonotone` over the pass's connections within
/// one area. A row's spans are contiguous (columns row by row), so the
/// sweep walks them without their columns and gathers the walkable spans
/// as it goes.
fn monotone(hf: &Heightfield, pf: &PassFlags, area: &[u8]) -> Cut {
    const MIXED: u32 = u32::MAX;
    let mut cut = Cut {
        ws: Vec::new(),
        reg: vec![NO_REGION; pf.flags.len()],
        count: 0,
    };
    // A pass without connections walks on nothing.
    if pf.links.is_empty() {
        return cut;
    }
    let (link, reg, ws) = (&pf.links[..], &mut cut.reg, &mut cut.ws);
    let mut next_id = 1u32;
    // Per row-local run: (neighbour region below, contacts with it, final id).
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    // Contacts of each global region with the current row, and the
    // regions with any (to reset them for the next row).
    let mut contacts: Vec<u32> = vec![0];
    let mut touched: Vec<u32> = Vec::new();
    let w = hf.w as usize;
    for z in 0..hf.d as usize {
        let (first, end) = (hf.cols[z * w] as usize, hf.cols[(z + 1) * w] as usize);
        runs.clear();
        runs.push((0, 0, 0));
        let row_start = ws.len();
        // `PassFlags::walkable` over the row's flags: no bounds check per
        // span (1.3 M instructions on nav_test).
        for (s, _) in (first..end)
            .zip(&pf.flags[first..end])
            .filter(|&(_, &f)| f >= WALKABLE)
        {
            ws.push(s);
            let [left, _, _, below] = link[4 * s..4 * s + 4] else {
                unreachable!()
            };
            let run = match across(reg, area, area[s], left) {
                NO_REGION => {
                    runs.push((0, 0, 0));
                    runs.len() as u32 - 1
                }
                r => r,
            };
            reg[s] = run;
            let nr = across(reg, area, area[s], below);
            if nr != NO_REGION {
                let e = &mut runs[run as usize];
                if e.0 == 0 || e.0 == nr {
                    e.0 = nr;
                    e.1 += 1;
                    if contacts[nr as usize] == 0 {
                        touched.push(nr);
                    }
                    contacts[nr as usize] += 1;
                } else {
                    e.0 = MIXED;
                }
            }
        }
        for run in runs.iter_mut().skip(1) {
            let (nei, ns, _) = *run;
            run.2 = if nei != 0 && nei != MIXED && contacts[nei as usize] == ns {
                nei
            } else {
                let id = next_id;
                next_id += 1;
                contacts.push(0);
                id
            };
        }
        for r in touched.drain(..) {
            contacts[r as usize] = 0;
        }
        for &s in &ws[row_start..] {
            reg[s] = runs[reg[s] as usize].2;
        }
    }
    cut.count = next_id - 1;
    cut
}

/// What the region filters need to know of the regions: per region id,
/// its spans, whether it meets the edge of the walkable area or of the
/// padded tile, its neighbours, and the regions sharing a column with it
/// (Recast's `rcRegion` `spanCount`, `connectsToBorder`, `connections`,
/// `floors`). Neighbour and floor lists are sorted and unique.
pub(crate) struct RegionGraph {
    pub(crate) size: Vec<u32>,
    pub(crate) edge: Vec<bool>,
    pub(crate) tile_edge: Vec<bool>,
    pub(crate) neighbours: Vec<Vec<u32>>,
    pub(crate) floors: Vec<Vec<u32>>,
}

impl RegionGraph {
    /// The graph of the regions of `cut`, over the pass's connections
    /// `link` within one area (see [`across`]).
    fn of(hf: &Heightfield, link: &[u32], area: &[u8], cut: &Cut) -> Self {
        let nreg = cut.count as usize + 1;
        let reg = &cut.reg[..];
        let mut g = RegionGraph {
            size: vec![0; nreg],
            edge: vec![false; nreg],
            tile_edge: vec![false; nreg],
            neighbours: vec![Vec::new(); nreg],
            floors: vec![Vec::new(); nreg],
        };
        for &s in &cut.ws {
            let r = reg[s];
            if r == NO_REGION {
                continue;
            }
            g.size[r as usize] += 1;
            let sides: &[u32; 4] = link[4 * s..4 * s + 4].try_into().unwrap();
            for &a in sides {
                // A region lies in one area: no area test within it.
                let q = if a != NO_LINK && reg[a as usize] == r {
                    r
                } else {
                    across(reg, area, area[s], a)
                };
                match q {
                    NO_REGION => g.edge[r as usize] = true,
                    q if q != r => push_new(&mut g.neighbours[r as usize], q),
                    _ => {}
                }
            }
        }
        // The columns of the padded tile's first and last rows and columns.
        let (w, d) = (hf.w as usize, hf.d as usize);
        let rim = (0..w)
            .chain(w * d.saturating_sub(1)..w * d)
            .chain((1..d.saturating_sub(1)).flat_map(|z| [w * z, w * z + w - 1]));
        for c in rim {
            for &r in reg[hf.range(c)].iter().filter(|&&r| r != NO_REGION) {
                g.tile_edge[r as usize] = true;
            }
        }
        // Columns of more than one span: each region of one meets the others.
        for c in hf.cols.windows(2).filter(|c| c[1] - c[0] > 1) {
            let column = &reg[c[0] as usize..c[1] as usize];
            for &r in column.iter().filter(|&&r| r != NO_REGION) {
                for &t in column {
                    if t != NO_REGION && t != r {
                        push_new(&mut g.floors[r as usize], t);
                    }
                }
            }
        }
        for v in g.neighbours.iter_mut().chain(g.floors.iter_mut()) {
            v.sort_unstable();
            v.dedup();
        }
        g
    }
}

/// Pushes `r` unless it is already `list`'s last entry: a region meets the
/// same neighbour along a run of spans, so most repeats are consecutive
/// and the list stays short until it is sorted and deduplicated.
fn push_new(list: &mut Vec<u32>, r: u32) {
    if list.last() != Some(&r) {
        list.push(r);
    }
}

/// Follows `id` (a region's parent after merges, [`NO_REGION`] once
/// dropped) to the region `r` ended up in.
fn find(id: &[u32], mut r: u32) -> u32 {
    while id[r as usize] != r && id[r as usize] != NO_REGION {
        r = id[r as usize];
    }
    id[r as usize]
}

/// Gives every span of `cut` the final id of the region its region ended
/// up in (through `id`, see [`find`]), consecutive from 1 in order of first
/// span; dropped spans get [`NO_REGION`]. Returns the spans of each final
/// id ([`PassPartition::sizes`]) from those of the regions before,
/// `size`.
fn compact_ids(cut: &mut Cut, id: &[u32], size: &[u32]) -> Vec<u32> {
    let root: Vec<u32> = (0..id.len() as u32).map(|r| find(id, r)).collect();
    let mut remap = vec![u32::MAX; id.len()];
    let mut count = 0;
    for &s in &cut.ws {
        let r = &mut cut.reg[s];
        let t = root[*r as usize] as usize;
        *r = if t == NO_REGION as usize {
            NO_REGION
        } else {
            if remap[t] == u32::MAX {
                count += 1;
                remap[t] = count;
            }
            remap[t]
        };
    }
    let mut sizes = vec![0; count as usize + 1];
    // A region before with no spans has no final id.
    for (&t, &n) in root.iter().zip(size).skip(1) {
        if t != NO_REGION && n > 0 {
            sizes[remap[t as usize] as usize] += n;
        }
    }
    sizes
}

/// Recast's `mergeAndFilterRegions` (see the module docs for the one
/// difference), then consecutive ids. Returns (the regions' sizes, dropped,
/// merged).
fn filter_regions(g: RegionGraph, cut: &mut Cut, p: PartitionParams) -> (Vec<u32>, u32, u32) {
    let RegionGraph {
        mut size,
        mut edge,
        mut tile_edge,
        mut neighbours,
        mut floors,
    } = g;
    let nreg = size.len();
    let before = size.clone();
    // Drop small groups of connected regions that do not reach the tile edge.
    let mut id: Vec<u32> = (0..nreg as u32).collect();
    let mut seen = vec![false; nreg];
    let mut dropped = 0;
    let mut group = Vec::new();
    for r0 in 1..nreg {
        if seen[r0] || size[r0] == 0 {
            continue;
        }
        group.clear();
        group.push(r0);
        seen[r0] = true;
        let mut i = 0;
        while i < group.len() {
            for &nb in &neighbours[group[i]] {
                if !seen[nb as usize] {
                    seen[nb as usize] = true;
                    group.push(nb as usize);
                }
            }
            i += 1;
        }
        let total: u64 = group.iter().map(|&r| size[r] as u64).sum();
        if total < p.min_area as u64 && !group.iter().any(|&r| tile_edge[r]) {
            for &r in &group {
                id[r] = NO_REGION;
                dropped += 1;
            }
        }
    }
    // Merge small (or obstacle-free) regions into their smallest neighbour.
    let mut merged = 0;
    loop {
        let mut changed = false;
        for r in 1..nreg {
            if id[r] != r as u32 || size[r] == 0 {
                continue;
            }
            if size[r] > p.merge_area && edge[r] {
                continue;
            }
            let mut best: Option<u32> = None;
            for &nb in &neighbours[r] {
                let nb = find(&id, nb);
                if nb == NO_REGION
                    || nb == r as u32
                    || floors[r].iter().any(|&f| find(&id, f) == nb)
                {
                    continue;
                }
                if best.is_none_or(|b| size[nb as usize] < size[b as usize]) {
                    best = Some(nb);
                }
            }
            let Some(t) = best else { continue };
            let t = t as usize;
            id[r] = t as u32;
            size[t] += size[r];
            edge[t] |= edge[r];
            tile_edge[t] |= tile_edge[r];
            let nb = std::mem::take(&mut neighbours[r]);
            neighbours[t].extend(nb);
            let fl = std::mem::take(&mut floors[r]);
            floors[t].extend(fl);
            for list in [&mut neighbours[t], &mut floors[t]] {
                list.iter_mut().for_each(|x| *x = find(&id, *x));
                list.sort_unstable();
                list.dedup();
            }
            neighbours[t].retain(|&x| x != NO_REGION && x != t as u32);
            merged += 1;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    (compact_ids(cut, &id, &before), dropped, merged)
}

/// Recast's `rcBuildLayerRegions` after its monotone sweep: the sweep's
/// regions are merged into layers, breadth first from the lowest unassigned
/// region id over neighbours (lowest id first), a neighbour joining unless it
/// shares a column with a region already in the layer; then a layer with
/// fewer than `min_area` spans that does not reach the tile's edge is
/// dropped, and ids are made consecutive. `merge_area` is not used (as in
/// Recast). Returns (the layers' sizes, dropped, merged: sweep regions
/// that joined another's layer).
fn merge_layers(g: RegionGraph, cut: &mut Cut, p: PartitionParams) -> (Vec<u32>, u32, u32) {
    let nreg = g.size.len();
    // Each region's layer, named by its root region (NO_REGION: none yet).
    let mut layer = vec![NO_REGION; nreg];
    let mut kept = vec![false; nreg];
    let (mut dropped, mut merged) = (0, 0);
    let mut queue = std::collections::VecDeque::new();
    for root in 1..nreg {
        if layer[root] != NO_REGION || g.size[root] == 0 {
            continue;
        }
        layer[root] = root as u32;
        // The regions sharing a column with any region of the layer.
        let mut floors = g.floors[root].clone();
        let (mut size, mut tile_edge) = (g.size[root], g.tile_edge[root]);
        queue.push_back(root);
        while let Some(r) = queue.pop_front() {
            for &nb in &g.neighbours[r] {
                let nb = nb as usize;
                if layer[nb] != NO_REGION || floors.binary_search(&(nb as u32)).is_ok() {
                    continue;
                }
                layer[nb] = root as u32;
                merged += 1;
                size += g.size[nb];
                tile_edge |= g.tile_edge[nb];
                floors.extend_from_slice(&g.floors[nb]);
                floors.sort_unstable();
                floors.dedup();
                queue.push_back(nb);
            }
        }
        kept[root] = size >= p.min_area || tile_edge;
        dropped += u32::from(!kept[root]);
    }
    let parent: Vec<u32> = layer
        .iter()
        .map(|&root| if kept[root as usize] { root } else { NO_REGION })
        .collect();
    (compact_ids(cut, &parent, &g.size), dropped, merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{reference_box_blur, reference_distance_field, reference_region_graph};
    use crate::settings::{Partition, PartitionParams};

    /// Every span in the default area.
    fn flat(hf: &Heightfield) -> Vec<u8> {
        vec![0; hf.spans.len()]
    }
    use crate::flags::tests::build;
    use crate::heightfield::tests::{Block, boxes, floor_with};
    use proptest::prelude::*;

    fn params(kind: Partition, min_area: u32, merge_area: u32) -> PartitionParams {
        PartitionParams {
            kind,
            min_area,
            merge_area,
        }
    }

    /// Spans of region `r` reachable from its first span over walkable links.
    fn connected(pf: &PassFlags, part: &PassPartition, r: u32) -> bool {
        let ws: Vec<usize> = (0..pf.flags.len()).filter(|&s| pf.walkable(s)).collect();
        let link = walk_links(pf, &vec![0; pf.flags.len()], &ws);
        let members: Vec<usize> = (0..part.region.len())
            .filter(|&s| part.region[s] == r)
            .collect();
        let mut seen = vec![false; part.region.len()];
        let mut stack = vec![members[0]];
        seen[members[0]] = true;
        let mut count = 0;
        while let Some(s) = stack.pop() {
            count += 1;
            for d in 0..4 {
                let a = link[4 * s + d];
                if a != NO_LINK && !seen[a as usize] && part.region[a as usize] == r {
                    seen[a as usize] = true;
                    stack.push(a as usize);
                }
            }
        }
        count == members.len()
    }

    #[test]
    fn the_distance_field_peaks_in_the_middle_of_a_platform() {
        // 4 m square at 0.1 m cells, stand radius 0.4 m: 32 x 32 walkable.
        let (_, hf, f) = build(&boxes(&[([0., -0.1, 0.], [4., 0., 4.])]), "stand");
        let ws: Vec<usize> = (0..f[0].flags.len())
            .filter(|&s| f[0].walkable(s))
            .collect();
        let link = walk_links(&f[0], &flat(&hf), &ws);
        let walk: Vec<bool> = (0..f[0].flags.len()).map(|s| f[0].walkable(s)).collect();
        let raw = distance_field(&link, &ws, walk.len());
        let edge =
            (0..walk.len()).filter(|&s| walk[s] && (0..4).any(|d| link[4 * s + d] == NO_LINK));
        assert!(edge.clone().count() > 0);
        assert!(edge.clone().all(|s| raw[s] == 0));
        // 16 cells from the edge at most: 2 per cell.
        let max = raw.iter().copied().max().unwrap();
        assert!((30..=32).contains(&max), "{max}");
        // A chamfer distance changes by at most one step between neighbours.
        for s in (0..walk.len()).filter(|&s| walk[s]) {
            for d in 0..4 {
                let a = link[4 * s + d];
                if a != NO_LINK {
                    assert!(raw[s].abs_diff(raw[a as usize]) <= 2);
                }
            }
        }
        let part = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Watershed, 0, 0));
        assert!(part.max_dist <= max && part.max_dist + 2 >= max);
    }

    #[test]
    fn only_the_watershed_keeps_its_distance_field_and_the_drawing_computes_the_same_one() {
        // Two platforms, the second in another area: an area change is an
        // edge of the distance field.
        let (_, hf, f) = build(
            &boxes(&[
                ([0., -0.1, 0.], [3., 0., 3.]),
                ([3., -0.1, 0.], [5., 0., 2.]),
            ]),
            "stand",
        );
        let area: Vec<u8> = (0..hf.spans.len()).map(|s| (s % 97 < 40) as u8).collect();
        let shed = partition_pass(&hf, &f[0], &area, params(Partition::Watershed, 0, 0));
        assert!(shed.max_dist > 0 && !shed.dist.is_empty());
        let (kept, kept_max) = shed.distances(&f[0], &area);
        assert!(matches!(kept, Cow::Borrowed(_)));
        assert_eq!((&kept[..], kept_max), (&shed.dist[..], shed.max_dist));
        for kind in [Partition::Monotone, Partition::Layers] {
            let part = partition_pass(&hf, &f[0], &area, params(kind, 0, 0));
            assert!(part.dist.is_empty() && part.max_dist == 0, "{kind:?}");
            let (dist, max) = part.distances(&f[0], &area);
            assert_eq!(
                (&dist[..], max),
                (&shed.dist[..], shed.max_dist),
                "{kind:?}"
            );
        }
        // A pass that walks on nothing draws a field of zeros.
        let mut none = f[0].clone();
        none.flags.fill(crate::pass_flags::NON_WALKABLE);
        none.links = Default::default();
        let part = partition_pass(&hf, &none, &area, params(Partition::Monotone, 0, 0));
        assert_eq!(part.regions, 0);
        let (dist, max) = part.distances(&none, &area);
        assert!(max == 0 && dist.len() == hf.spans.len() && dist.iter().all(|&d| d == 0));
    }

    #[test]
    fn a_dumbbell_splits_into_rooms_and_merging_joins_them() {
        // Two 3 m rooms joined by a 1.2 m wide, 2 m long corridor.
        let m = boxes(&[
            ([0., -0.1, 0.], [3., 0., 3.]),
            ([3., -0.1, 0.9], [5., 0., 2.1]),
            ([5., -0.1, 0.], [8., 0., 3.]),
        ]);
        let (_, hf, f) = build(&m, "stand");
        let split = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Watershed, 0, 0));
        assert!(split.regions >= 2, "{}", split.regions);
        let joined = partition_pass(
            &hf,
            &f[0],
            &flat(&hf),
            params(Partition::Watershed, 0, 1_000_000),
        );
        assert_eq!(joined.regions, 1);
        assert!(joined.merged > 0);
        for s in 0..f[0].flags.len() {
            assert_eq!(f[0].walkable(s), joined.region[s] != NO_REGION);
        }
    }

    /// A 1.3 m square island (5 x 5 walkable cells after erosion) beside a
    /// 4 m platform.
    fn island_beside_platform() -> navscope_core::geom::TriMesh {
        boxes(&[
            ([0., -0.1, 0.], [4., 0., 4.]),
            ([6., -0.1, 0.], [7.3, 0., 1.3]),
        ])
    }

    #[test]
    fn small_islands_are_dropped_and_large_ones_kept() {
        let m = island_beside_platform();
        let (_, hf, f) = build(&m, "stand");
        let keep = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Watershed, 0, 400));
        assert_eq!(keep.regions, 2);
        let drop = partition_pass(
            &hf,
            &f[0],
            &flat(&hf),
            params(Partition::Watershed, 64, 400),
        );
        assert_eq!(drop.regions, 1);
        assert_eq!(drop.dropped, 1);
        let big = (0..hf.spans.len())
            .filter(|&s| drop.region[s] != NO_REGION)
            .count();
        assert_eq!(big, 32 * 32);
    }

    #[test]
    fn monotone_regions_cut_each_row_once() {
        let m = boxes(&[
            ([0., -0.1, 0.], [6., 0., 6.]),
            ([2.5, 0., 2.5], [3.5, 3., 3.5]),
        ]);
        let (_, hf, f) = build(&m, "stand");
        let part = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Monotone, 0, 0));
        assert!(
            part.regions >= 3,
            "a pillar splits the sweep: {}",
            part.regions
        );
        for z in 0..hf.d {
            let mut runs: Vec<(u32, i32)> = Vec::new();
            for x in 0..hf.w {
                let c = (z * hf.w + x) as usize;
                for s in hf.range(c) {
                    if part.region[s] != NO_REGION {
                        runs.push((part.region[s], x));
                    }
                }
            }
            runs.sort_unstable();
            for w in runs.windows(2) {
                if w[0].0 == w[1].0 {
                    assert_eq!(w[1].1, w[0].1 + 1, "region {} has a gap in row {z}", w[0].0);
                }
            }
        }
    }

    #[test]
    fn a_band_one_edge_wide_still_gets_regions() {
        // A 0.5 m wide walkway: 1 cell of walkable spans at stand radius 0.2.
        let (_, hf, f) = build(&boxes(&[([0., -0.1, 0.], [4., 0., 0.5])]), "sidestep");
        let part = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Watershed, 0, 0));
        assert_eq!(part.max_dist, 0);
        assert!(part.regions >= 1);
        for s in 0..f[0].flags.len() {
            assert_eq!(f[0].walkable(s), part.region[s] != NO_REGION);
        }
    }

    /// A floor, a deck 3 m over its far half and a ramp up to the deck
    /// whose high end is over walkable floor too: one connected walkable
    /// area that overlaps itself twice in plan.
    fn stacked() -> navscope_core::geom::TriMesh {
        let mut b = crate::samples::MeshBuilder::new();
        b.solid("floor", [0., -0.2, 0.], [12., 0., 8.]);
        b.ramp("ramp", [1., 7.], [0., 2.5], [0., 3.]);
        b.solid("deck", [7., 2.9, 0.], [12., 3., 8.]);
        b.level().mesh
    }

    /// Per column, the regions of its spans.
    fn column_regions(hf: &Heightfield, part: &PassPartition) -> Vec<Vec<u32>> {
        (0..hf.cols.len() - 1)
            .map(|c| {
                hf.range(c)
                    .map(|s| part.region[s])
                    .filter(|&r| r != NO_REGION)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn layers_never_overlap_in_height_and_cover_every_walkable_span() {
        let (_, hf, f) = build(&stacked(), "stand");
        let cols = column_regions(
            &hf,
            &partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Watershed, 0, 0)),
        );
        assert!(
            cols.iter().filter(|c| c.len() > 1).count() > 100,
            "the deck and the ramp's top are over walkable floor"
        );
        let sweep = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Monotone, 0, 0));
        for min in [0, 64] {
            let part = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Layers, min, 0));
            for (c, regions) in column_regions(&hf, &part).iter().enumerate() {
                let mut unique = regions.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), regions.len(), "column {c}: {regions:?}");
            }
            for s in 0..f[0].flags.len() {
                assert_eq!(f[0].walkable(s), part.region[s] != NO_REGION, "span {s}");
            }
            // Stacked floors need at least two layers, and the sweep's
            // regions merge into fewer.
            assert!(part.regions >= 2, "{}", part.regions);
            assert!(
                part.regions < sweep.regions,
                "{} vs {}",
                part.regions,
                sweep.regions
            );
            assert_eq!(part.merged + part.regions, sweep.regions);
            assert_eq!(part.dropped, 0);
        }
    }

    #[test]
    fn a_small_layer_is_dropped() {
        let m = island_beside_platform();
        let (_, hf, f) = build(&m, "stand");
        let part = partition_pass(&hf, &f[0], &flat(&hf), params(Partition::Layers, 64, 0));
        assert_eq!((part.regions, part.dropped), (1, 1));
    }

    #[test]
    fn nothing_walkable_gives_no_regions() {
        let (_, hf, f) = build(&boxes(&[([0., -0.1, 0.], [0.5, 0., 0.5])]), "stand");
        for kind in Partition::ALL {
            let part = partition_pass(&hf, &f[0], &flat(&hf), params(kind, 64, 400));
            assert_eq!(part.regions, 0);
            assert!(part.region.iter().all(|&r| r == NO_REGION));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
        /// Random blocks on a floor: without the area filter, the regions of
        /// every partition cover exactly the walkable spans, each region is
        /// connected, and ids are consecutive from 1.
        #[test]
        fn regions_partition_the_walkable_spans(
            blocks in proptest::collection::vec((0.0f32..5.0, 0.0f32..5.0, 0.3f32..2.0, 0.3f32..2.0), 0..5),
            kind in 0usize..3,
            merge in 0u32..500,
        ) {
            let mut bs = vec![([0., -0.1, 0.], [6., 0., 6.])];
            for (x, z, w, d) in blocks {
                bs.push(([x, 0., z], [x + w, 2.5, z + d]));
            }
            let (_, hf, f) = build(&boxes(&bs), "stand,sidestep");
            let kind = Partition::ALL[kind];
            for pf in &f {
                let part = partition_pass(&hf, pf, &flat(&hf), params(kind, 0, merge));
                for s in 0..pf.flags.len() {
                    prop_assert_eq!(pf.walkable(s), part.region[s] != NO_REGION);
                }
                let mut ids: Vec<u32> = part.region.iter().copied().filter(|&r| r != NO_REGION).collect();
                ids.sort_unstable();
                ids.dedup();
                prop_assert_eq!(ids, (1..=part.regions).collect::<Vec<_>>());
                for r in 1..=part.regions {
                    prop_assert!(connected(pf, &part, r), "region {} is in pieces", r);
                }
            }
        }
    }

    /// Up to eight boxes `(x, z, width, depth, y, height)` at random
    /// heights over a 6 m floor, for the property tests below.
    fn raised_blocks() -> impl Strategy<Value = Vec<Block>> {
        proptest::collection::vec(
            (
                0.0f32..5.0,
                0.0f32..5.0,
                0.1f32..2.0,
                0.1f32..2.0,
                0.0f32..2.0,
                0.05f32..1.5,
            ),
            0..8,
        )
    }

    /// The heightfield and every pass's flags of the 6 m floor with
    /// `blocks` on it.
    fn five_passes_over(blocks: &[Block]) -> (Heightfield, Vec<PassFlags>) {
        let (_, hf, f) = build(
            &floor_with(6., 6., blocks),
            "stand,crouch,prone,swim,sidestep",
        );
        (hf, f)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Random blocks at random heights (steps, decks over floors),
        /// every pass, each partition and filter: the sizes count each
        /// region's spans, each region is one piece along the pass's links
        /// taken either way, and where a pass's height is more than its
        /// step every link between walkable spans goes both ways (what the
        /// outline tracing relies on, [`PassPartition::sizes`]).
        #[test]
        fn each_region_is_one_piece_of_its_size(
            blocks in raised_blocks(),
            kind in 0usize..3,
            min_area in 0u32..30,
            merge in 0u32..200,
        ) {
            let (g, hf, f) = build(&floor_with(6., 6., &blocks), "stand,crouch,prone,swim,sidestep");
            for pf in &f {
                let part = partition_pass(&hf, pf, &flat(&hf), params(Partition::ALL[kind], min_area, merge));
                let mut sizes = vec![0u32; part.regions as usize + 1];
                part.region.iter().filter(|&&r| r != NO_REGION).for_each(|&r| sizes[r as usize] += 1);
                prop_assert_eq!(&part.sizes, &sizes);
                let link = &pf.links;
                // Each link between walkable spans, both ways.
                let mut either: Vec<Vec<usize>> = vec![Vec::new(); part.region.len()];
                let mut one_way = false;
                for s in (0..part.region.len()).filter(|&s| pf.walkable(s)) {
                    for d in 0..4 {
                        let n = link[4 * s + d];
                        if n != NO_LINK && pf.walkable(n as usize) {
                            either[s].push(n as usize);
                            either[n as usize].push(s);
                            one_way |= link[4 * n as usize + (d + 2) % 4] != s as u32;
                        }
                    }
                }
                let lim = crate::links::Limits::of(&pf.pass, &g);
                prop_assert!(lim.height <= lim.step || !one_way);
                let mut seen = vec![false; part.region.len()];
                for s0 in 0..part.region.len() {
                    let r = part.region[s0];
                    if r == NO_REGION || seen[s0] {
                        continue;
                    }
                    // The first span of region r met: its piece is all of it.
                    let (mut stack, mut count) = (vec![s0], 0);
                    seen[s0] = true;
                    while let Some(s) = stack.pop() {
                        count += 1;
                        for &n in &either[s] {
                            if !seen[n] && part.region[n] == r {
                                seen[n] = true;
                                stack.push(n);
                            }
                        }
                    }
                    prop_assert_eq!(count, sizes[r as usize], "region {} is in pieces", r);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Random blocks at random heights, every pass: the distance field
        /// and its blur over the walkable spans are the ones the sweeps
        /// over every span gave.
        #[test]
        fn the_distance_field_over_the_walkable_spans_is_the_reference_one(
            blocks in raised_blocks(),
        ) {
            let (hf, f) = five_passes_over(&blocks);
            for pf in &f {
                let ws: Vec<usize> = (0..pf.flags.len()).filter(|&s| pf.walkable(s)).collect();
                let walk: Vec<bool> = (0..pf.flags.len()).map(|s| pf.walkable(s)).collect();
                let link = walk_links(pf, &flat(&hf), &ws);
                let raw = distance_field(&link, &ws, walk.len());
                let old = reference_distance_field(&hf, &link, &walk);
                prop_assert_eq!(&raw, &old);
                prop_assert_eq!(box_blur(&raw, &link, &ws), reference_box_blur(&old, &link, &walk));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Random blocks at random heights, every pass, the watershed's and
        /// the sweep's regions: the same region graph as the walk over
        /// every column.
        #[test]
        fn the_region_graph_over_the_walkable_spans_is_the_reference_one(
            blocks in raised_blocks(),
        ) {
            let (hf, f) = five_passes_over(&blocks);
            for pf in &f {
                let area = flat(&hf);
                let ws: Vec<usize> = (0..pf.flags.len()).filter(|&s| pf.walkable(s)).collect();
                let link = walk_links(pf, &area, &ws);
                let dist = box_blur(&distance_field(&link, &ws, pf.flags.len()), &link, &ws);
                let max = dist.iter().copied().max().unwrap_or(0);
                let (reg, count) = watershed(&link, &ws, &dist, max);
                for cut in [Cut { ws: ws.clone(), reg, count }, monotone(&hf, pf, &area)] {
                    prop_assert_eq!(&cut.ws, &ws);
                    let new = RegionGraph::of(&hf, &pf.links, &area, &cut);
                    let old = reference_region_graph(&hf, &link, &cut.reg);
                    prop_assert_eq!(&new.size, &old.size);
                    prop_assert_eq!(&new.edge, &old.edge);
                    prop_assert_eq!(&new.tile_edge, &old.tile_edge);
                    prop_assert_eq!(&new.neighbours, &old.neighbours);
                    prop_assert_eq!(&new.floors, &old.floors);
                }
            }
        }
    }
}
