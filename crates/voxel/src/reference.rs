//! Reference implementations for the tests: for each optimised function,
//! the plain way to the same answer, which its tests compare it with
//! (`reference_X` is the reference for `X`).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use glam::{DVec2, Vec3};
use navscope_core::Stance;

use crate::bands::find;
use crate::chamfer::{DIAG, ORTHO};
use crate::contour::{EdgeClass, Region, Ring, edge_class};
use crate::filters::{min_floor_ny, top};
use crate::grid::Grid;
use crate::heightfield::{Heightfield, MAX_CORNERS, OPEN, Span, cells_of, piece_of, sort_keys};
use crate::links::{DIRS, Limits, NO_LINK};
use crate::partition::{NO_REGION, PassPartition, RegionGraph};
use crate::pass_flags::{NON_WALKABLE, PassFlags};
use crate::polymesh::{RegionPolys, merge_value};
use crate::settings::{Filters, Pass};
use crate::simplify::douglas_peucker_over;
use crate::stages::claimed_kind;
use crate::swim::cross;
use crate::triangulate::{Cdt, RegionMesh, centre_inside};
use spade::{Point2, Triangulation};

// ---------------------------------------------------------------- voxelize: the clipping of a triangle into cells and the merge of a column's pieces

/// A convex polygon of at most [`MAX_CORNERS`] corners and its corner count.
pub(crate) type Poly = ([Vec3; MAX_CORNERS], usize);
/// The polygon of no corner.
pub(crate) const EMPTY: Poly = ([Vec3::ZERO; MAX_CORNERS], 0);

/// `p` cut by the plane `axis = v`, both parts returned by value: the
/// reference for the rasteriser's cut.
pub(crate) fn reference_split(p: &Poly, axis: usize, v: f32) -> (Poly, Poly) {
    let (mut lo, mut hi) = (EMPTY, EMPTY);
    let n = p.1;
    let push = |q: &mut Poly, x: Vec3| {
        if q.1 < MAX_CORNERS {
            q.0[q.1] = x;
            q.1 += 1;
        }
    };
    for i in 0..n {
        let a = p.0[i];
        let b = p.0[(i + 1) % n];
        let (da, db) = (a[axis] - v, b[axis] - v);
        if da <= 0.0 {
            push(&mut lo, a);
        }
        if da >= 0.0 {
            push(&mut hi, a);
        }
        if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
            let t = da / (da - db);
            let mut x = a + (b - a) * t;
            x[axis] = v;
            push(&mut lo, x);
            push(&mut hi, x);
        }
    }
    (lo, hi)
}

/// The reference for `heightfield::column_spans`: the column decoded into
/// a list, its solids closed, then merged.
pub(crate) fn reference_column_spans(
    keys: &mut [u64],
    list: &mut Vec<(u16, u16, f32)>,
    spans: &mut Vec<Span>,
) {
    // By base, then top, then normal (the key orders them so).
    sort_keys(keys);
    list.clear();
    list.extend(keys.iter().map(|&k| piece_of(k)));
    // Closed solids: a face looking down is the bottom of a solid, so
    // the column is solid from it up to the next face looking up.
    for i in 0..list.len() {
        if list[i].2 < -0.01
            // Sorted by base: the first such face is the lowest.
            && let Some(top) = list[i + 1..].iter().find(|q| q.2 > 0.01 && q.1 > list[i].1).map(|q| q.0)
        {
            list[i].1 = list[i].1.max(top);
        }
    }
    let first = spans.len();
    for &(lo, hi, ny) in list.iter() {
        if spans.len() > first {
            let last: &mut Span = spans.last_mut().unwrap();
            if lo <= last.floor {
                if hi > last.floor + 1 {
                    last.ny = ny;
                } else if hi + 1 >= last.floor {
                    last.ny = last.ny.max(ny);
                }
                last.floor = last.floor.max(hi);
                continue;
            }
        }
        spans.push(Span {
            base: lo,
            floor: hi,
            ceil: OPEN,
            ny,
            water: f32::NAN,
        });
    }
    for i in first..spans.len() {
        spans[i].ceil = if i + 1 < spans.len() {
            spans[i + 1].base
        } else {
            OPEN
        };
    }
}

/// `(x, z, ylo, yhi)` of every cell piece, row by row: the reference for
/// the rasteriser's cuts, each cut returning both parts by value.
pub(crate) fn reference_pieces(
    tri: [Vec3; 3],
    n: Vec3,
    (px, pz, px1, pz1): (i64, i64, i64, i64),
) -> Vec<(i64, i64, f32, f32)> {
    let mut out = Vec::new();
    let mut poly: Poly = EMPTY;
    poly.0[..3].copy_from_slice(&tri);
    poly.1 = 3;
    let zs = tri.map(|p| p.z);
    let zmin = zs.iter().copied().fold(f32::INFINITY, f32::min);
    let zmax = zs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let (z0, zlast) = cells_of(zmin, zmax, n.z);
    let z0 = z0.max(pz);
    let z1 = zlast.min(pz1 - 1);
    let mut rest = poly;
    if z0 > z1 {
        return out;
    }
    if (z0 as f32) > zmin {
        rest = reference_split(&rest, 2, z0 as f32).1;
    }
    for z in z0..=z1 {
        let (row, r) = if z == zlast {
            (rest, EMPTY)
        } else {
            reference_split(&rest, 2, (z + 1) as f32)
        };
        rest = r;
        if row.1 < 3 {
            continue;
        }
        let xs = row.0[..row.1].iter().map(|p| p.x);
        let xmin = xs.clone().fold(f32::INFINITY, f32::min);
        let xmax = xs.fold(f32::NEG_INFINITY, f32::max);
        let (x0, xlast) = cells_of(xmin, xmax, n.x);
        let x0 = x0.max(px);
        let x1 = xlast.min(px1 - 1);
        if x0 > x1 {
            continue;
        }
        let mut rrow = row;
        if (x0 as f32) > xmin {
            rrow = reference_split(&rrow, 0, x0 as f32).1;
        }
        for x in x0..=x1 {
            let (cell, r) = if x == xlast {
                (rrow, EMPTY)
            } else {
                reference_split(&rrow, 0, (x + 1) as f32)
            };
            rrow = r;
            if cell.1 < 3 {
                continue;
            }
            let (ylo, yhi) = cell.0[..cell.1]
                .iter()
                .map(|p| p.y)
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), y| {
                    (l.min(y), h.max(y))
                });
            out.push((x, z, ylo, yhi));
        }
    }
    out
}

// ---------------------------------------------------------------- compact: the span filters, one pass at a time

/// The ledge test of one pass, reading the side columns on its own: the
/// reference for `filters::ledges`, which serves every pass in one walk.
pub(crate) fn reference_ledges(hf: &Heightfield, lim: Limits, test: &[bool]) -> Vec<bool> {
    let (h, climb) = (lim.height as i64, lim.step as i64);
    let mut out = vec![false; hf.spans.len()];
    for (c, (x, z)) in hf.cells() {
        let r = hf.range(c);
        if !test[r.clone()].iter().any(|&t| t) {
            continue;
        }
        // The four side columns' spans, looked up once per column.
        // (inside the tile, first span, one past the last).
        let mut sides = [(false, 0usize, 0usize); 4];
        for (side, (dx, dz)) in sides.iter_mut().zip(DIRS) {
            if let Some(nc) = hf.col(x + dx, z + dz) {
                *side = (true, hf.cols[nc] as usize, hf.cols[nc + 1] as usize);
            }
        }
        for s in r.filter(|&s| test[s]) {
            let bot = hf.spans[s].floor as i64;
            let tp = top(hf, s) as i64;
            let mut minh = i64::MAX;
            let (mut lo, mut hi) = (bot, bot);
            for &(inside, start, end) in &sides {
                if !inside {
                    minh = minh.min(-climb - bot);
                    continue;
                }
                let r = start..end;
                // The space below the column's first solid.
                let first = r
                    .clone()
                    .next()
                    .map_or(i64::MAX / 2, |n| hf.spans[n].base as i64);
                if tp.min(first) - bot.max(-climb) > h {
                    minh = minh.min(-climb - bot);
                }
                for n in r {
                    let nbot = hf.spans[n].floor as i64;
                    // Floors rise up the column: from one at or above
                    // this span's ceiling on, no gap is left (h >= 0).
                    if nbot >= tp {
                        break;
                    }
                    let ntop = top(hf, n) as i64;
                    if tp.min(ntop) - bot.max(nbot) > h {
                        minh = minh.min(nbot - bot);
                        if (nbot - bot).abs() <= climb {
                            lo = lo.min(nbot);
                            hi = hi.max(nbot);
                        }
                    }
                }
            }
            out[s] = minh < -climb || hi - lo > climb;
        }
    }
    out
}

/// One pass's tests before the ledge filter, each its own walk: the
/// reference for `filters::before_ledges`, one walk up each column.
pub(crate) fn reference_before_ledges(
    hf: &Heightfield,
    grid: &Grid,
    pass: &Pass,
    f: Filters,
) -> Vec<bool> {
    let a = pass.agent;
    let lim = Limits::of(pass, grid);
    let min_ny = min_floor_ny(a.max_slope_rad);
    let mut ok: Vec<bool> = hf.spans.iter().map(|s| s.ny >= min_ny).collect();
    let ncols = hf.cols.len() - 1;
    if f.low_hanging {
        for c in 0..ncols {
            let mut prev: Option<(bool, i32)> = None;
            for s in hf.range(c) {
                let was = ok[s];
                let floor = hf.spans[s].floor as i32;
                if let Some((true, pf)) = prev
                    && !was
                    && (floor - pf).unsigned_abs() <= lim.step
                {
                    ok[s] = true;
                }
                prev = Some((was, floor));
            }
        }
    }
    // Every pass, the swim pass too, measures the room from the floor.
    for (s, sp) in hf.spans.iter().enumerate() {
        let room = if sp.ceil == OPEN {
            f64::INFINITY
        } else {
            sp.ceil as f64 - sp.floor as f64
        };
        let need = if f.low_height { lim.height as f64 } else { 0.0 };
        let clear = room >= need;
        let depth = sp.depth(grid);
        ok[s] &= clear && depth >= a.min_water - 1e-9 && depth <= a.max_water + 1e-9;
    }
    ok
}

// ---------------------------------------------------------------- span links, the column dilation and the chamfer, found one way and plainly

/// The chamfer sweeps relaxing every span, including those that cannot
/// get nearer: the reference for [`crate::chamfer::chamfer`].
pub(crate) fn reference_chamfer(link: &[u32], dist: &mut [u16]) {
    let relax = |dist: &mut [u16], s: usize, d1: usize, d2: usize| {
        let l = link[4 * s + d1];
        if l == NO_LINK {
            return;
        }
        let l = l as usize;
        dist[s] = dist[s].min(dist[l].saturating_add(ORTHO));
        let m = link[4 * l + d2];
        if m != NO_LINK {
            dist[s] = dist[s].min(dist[m as usize].saturating_add(DIAG));
        }
    };
    for s in 0..dist.len() {
        relax(dist, s, 0, 3);
        relax(dist, s, 3, 2);
    }
    for s in (0..dist.len()).rev() {
        relax(dist, s, 2, 1);
        relax(dist, s, 1, 0);
    }
}

/// The connections of one pass, its own walk over the columns: the
/// reference for [`crate::links::links`], which serves several at once.
pub(crate) fn reference_links(hf: &Heightfield, lim: Limits, mask: Option<&[bool]>) -> Vec<u32> {
    let mut out = vec![NO_LINK; hf.spans.len() * 4];
    for (c, (x, z)) in hf.cells() {
        // An empty column has no connections to find (most of a level's
        // bounding box is).
        if mask.is_some_and(|m| !m[c]) || hf.cols[c] == hf.cols[c + 1] {
            continue;
        }
        for (dir, (dx, dz)) in DIRS.iter().enumerate() {
            let Some(nc) = hf.col(x + dx, z + dz) else {
                continue;
            };
            let nr = hf.range(nc);
            // Floors rise up a column: the side spans too far below one
            // span are too far below the next, so the search for each
            // starts where the last one's began, and stops at the first
            // side span too far above.
            let mut from = nr.start;
            for s in hf.range(c) {
                let a = hf.spans[s];
                while from < nr.end && (hf.spans[from].floor as u32) + lim.step < a.floor as u32 {
                    from += 1;
                }
                for n in from..nr.end {
                    let b = hf.spans[n];
                    if b.floor as u32 > a.floor as u32 + lim.step {
                        break;
                    }
                    let top = a.ceil.min(b.ceil) as u32;
                    let bottom = a.floor.max(b.floor) as u32;
                    let gap = if a.ceil == OPEN && b.ceil == OPEN {
                        u32::MAX
                    } else {
                        top.saturating_sub(bottom)
                    };
                    if (a.floor as i32 - b.floor as i32).unsigned_abs() <= lim.step
                        && gap >= lim.height
                    {
                        out[4 * s + dir] = n as u32;
                        break;
                    }
                }
            }
        }
    }
    out
}

/// The column dilation one column at a time: the reference for
/// [`crate::links::near_columns`], which runs on bits.
pub(crate) fn reference_near_columns(
    hf: &Heightfield,
    hit: impl Fn(usize) -> bool,
    reach: i32,
) -> Vec<bool> {
    let (w, d) = (hf.w as usize, hf.d as usize);
    let r = reach.max(0) as usize;
    let seed: Vec<bool> = (0..w * d).map(|c| hf.range(c).any(&hit)).collect();
    // Dilate along x, then along z, with running counts.
    fn dilate(
        src: &[bool],
        r: usize,
        len: usize,
        lines: usize,
        at: impl Fn(usize, usize) -> usize,
    ) -> Vec<bool> {
        let mut out = vec![false; src.len()];
        for line in 0..lines {
            let mut count = 0usize;
            for i in 0..len.min(r) {
                count += src[at(line, i)] as usize;
            }
            for i in 0..len {
                if i + r < len {
                    count += src[at(line, i + r)] as usize;
                }
                if i > r {
                    count -= src[at(line, i - r - 1)] as usize;
                }
                out[at(line, i)] = count > 0;
            }
        }
        out
    }
    let along_x = dilate(&seed, r, w, d, |line, i| line * w + i);
    dilate(&along_x, r, d, w, |line, i| i * w + line)
}

// ---------------------------------------------------------------- flag: the earlier passes' areas, joined afresh for every pass

/// The earlier passes' areas joined afresh for every pass, over every
/// earlier pass's connections to spans out of `pool`: the reference for
/// `bands::EarlierAreas`, kept from pass to pass. Every span's root.
pub(crate) fn reference_roots(earlier: &[PassFlags], pool: &[bool]) -> Vec<u32> {
    let n = pool.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for pf in earlier.iter().filter(|p| !p.links.is_empty()) {
        for s in (0..n).filter(|&s| pf.walkable(s)) {
            for d in 0..4 {
                let l = pf.links[4 * s + d];
                if l != NO_LINK && !pool[l as usize] {
                    let (a, b) = (find(&mut parent, s as u32), find(&mut parent, l));
                    if a != b {
                        parent[a.max(b) as usize] = a.min(b);
                    }
                }
            }
        }
    }
    (0..n as u32).map(|s| find(&mut parent, s)).collect()
}

// ---------------------------------------------------------------- regions: the distance field, its blur and the region graph over every column

/// The distance field over every column: the reference for
/// `partition::distance_field`, which visits only the walkable spans.
pub(crate) fn reference_distance_field(hf: &Heightfield, link: &[u32], walk: &[bool]) -> Vec<u16> {
    let n = walk.len();
    let mut d: Vec<u16> = (0..n)
        .map(|s| {
            if !walk[s] || (0..4).any(|k| link[4 * s + k] == NO_LINK) {
                0
            } else {
                u16::MAX
            }
        })
        .collect();
    let ncols = hf.cols.len() - 1;
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
    for c in 0..ncols {
        for s in hf.range(c) {
            if d[s] != 0 {
                relax(&mut d, s, 0, 3);
                relax(&mut d, s, 3, 2);
            }
        }
    }
    for c in (0..ncols).rev() {
        for s in hf.range(c) {
            if d[s] != 0 {
                relax(&mut d, s, 2, 1);
                relax(&mut d, s, 1, 0);
            }
        }
    }
    d
}

/// The distance field's box blur over every span: the reference for
/// `partition::box_blur`.
pub(crate) fn reference_box_blur(src: &[u16], link: &[u32], walk: &[bool]) -> Vec<u16> {
    (0..src.len())
        .map(|s| {
            let cd = src[s] as u32;
            if !walk[s] || cd <= 2 {
                return cd as u16;
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
            ((sum + 5) / 9) as u16
        })
        .collect()
}

/// The region graph gathered over every column: the reference for
/// `RegionGraph::of`, which walks only the walkable spans.
pub(crate) fn reference_region_graph(hf: &Heightfield, link: &[u32], reg: &[u32]) -> RegionGraph {
    let nreg = reg.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut g = RegionGraph {
        size: vec![0; nreg],
        edge: vec![false; nreg],
        tile_edge: vec![false; nreg],
        neighbours: vec![Vec::new(); nreg],
        floors: vec![Vec::new(); nreg],
    };
    let last = (hf.px + hf.w - 1, hf.pz + hf.d - 1);
    for (c, (lx, lz)) in hf.cells() {
        let range = hf.range(c);
        for s in range.clone() {
            let r = reg[s] as usize;
            if r == NO_REGION as usize {
                continue;
            }
            g.size[r] += 1;
            if lx == hf.px || lz == hf.pz || lx == last.0 || lz == last.1 {
                g.tile_edge[r] = true;
            }
            for d in 0..4 {
                let a = link[4 * s + d];
                if a == NO_LINK || reg[a as usize] == NO_REGION {
                    g.edge[r] = true;
                } else if reg[a as usize] != r as u32 {
                    g.neighbours[r].push(reg[a as usize]);
                }
            }
            for t in range.clone() {
                if reg[t] != NO_REGION && reg[t] != r as u32 {
                    g.floors[r].push(reg[t]);
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

// ---------------------------------------------------------------- contours: a flood into pieces, every boundary edge listed, linked into rings

/// The reference's stamp of a column no region covers.
const UNSTAMPED: u32 = u32::MAX;

/// Regions grouped by a flood into pieces, every boundary edge listed and
/// the edges linked into rings through a grid of corners: the reference
/// for [`crate::contour::regions`] and its `Tracer`.
pub(crate) fn reference_regions(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[PassFlags],
    parts: &[PassPartition],
    area: &[u8],
) -> Vec<Region> {
    let mut out = Vec::new();
    let ncols = hf.cols.len() - 1;
    let span_col = hf.span_columns();
    // Each column's cell and whether it is in the core, looked up rather
    // than divided out for every span the flood visits.
    let cells: Vec<(i32, i32)> = hf.cells().map(|(_, cell)| cell).collect();
    let core: Vec<bool> = cells.iter().map(|&(x, z)| hf.rect.in_core(x, z)).collect();
    let limits: Vec<Limits> = passes.iter().map(|p| Limits::of(&p.pass, grid)).collect();
    let mut stamp = vec![UNSTAMPED; ncols];
    // The region's span in each column it covers (valid where `stamp` holds it).
    let mut col_span = vec![UNSTAMPED; ncols];
    let mut corners = Corners::default();
    let wet = hf.spans.iter().any(|s| !s.water.is_nan());
    for (k, (pf, part)) in passes.iter().zip(parts).enumerate() {
        let link = &pf.links;
        let label = &part.region;
        // Each span's label until a region takes it, then none: one
        // look-up tells both whether a neighbour has this region's label
        // and whether it is still free.
        let mut free = label.clone();
        let mut queue = Vec::new();
        for c in 0..ncols {
            if !core[c] {
                continue;
            }
            for s0 in hf.range(c) {
                let l0 = free[s0];
                if l0 == NO_REGION {
                    continue;
                }
                let r = out.len() as u32;
                let mut members = Vec::new();
                free[s0] = NO_REGION;
                stamp[c] = r;
                col_span[c] = s0 as u32;
                queue.clear();
                queue.push(s0);
                while let Some(s) = queue.pop() {
                    members.push(s);
                    for &n in &link[4 * s..4 * s + 4] {
                        if n == NO_LINK || free[n as usize] != l0 {
                            continue;
                        }
                        let n = n as usize;
                        let nc = span_col[n] as usize;
                        if !core[nc] || stamp[nc] == r {
                            continue;
                        }
                        free[n] = NO_REGION;
                        stamp[nc] = r;
                        col_span[nc] = n as u32;
                        queue.push(n);
                    }
                }
                // Member order does not matter: rings are traced in edge order.
                let member = Member {
                    stamp: &stamp,
                    col_span: &col_span,
                    r,
                };
                let mut region = trace(
                    hf,
                    grid,
                    passes,
                    &limits,
                    k,
                    label,
                    &members,
                    &span_col,
                    &cells,
                    &member,
                    &mut corners,
                    wet,
                );
                region.area = area[s0];
                out.push(region);
            }
        }
    }
    out
}

/// Which columns a region covers, and its span there.
struct Member<'a> {
    stamp: &'a [u32],
    col_span: &'a [u32],
    r: u32,
}

impl Member<'_> {
    /// The region's span in global cell `(x, z)`, if it covers it.
    fn span(&self, hf: &Heightfield, x: i32, z: i32) -> Option<usize> {
        let c = hf.col(x, z)?;
        (self.stamp[c] == self.r).then(|| self.col_span[c] as usize)
    }
}

/// Traces the outline rings of one region given its spans; `wet` says
/// whether any span of the tile holds water.
#[allow(clippy::too_many_arguments)]
fn trace(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[PassFlags],
    limits: &[Limits],
    k: usize,
    label: &[u32],
    members: &[usize],
    span_col: &[u32],
    col_cell: &[(i32, i32)],
    member: &Member,
    corners: &mut Corners,
    wet: bool,
) -> Region {
    let cells: Vec<(i32, i32, usize)> = members
        .iter()
        .map(|&s| {
            let (x, z) = col_cell[span_col[s] as usize];
            (x, z, s)
        })
        .collect();
    let mut border_spans = 0;
    // Directed boundary edges: (start, end, class).
    let mut edges: Vec<Edge> = Vec::new();
    for &(x, z, s) in &cells {
        if passes[k].flags[s] == crate::pass_flags::BORDER {
            border_spans += 1;
        }
        for (dir, (dx, dz)) in DIRS.into_iter().enumerate() {
            if member.span(hf, x + dx, z + dz).is_some() {
                continue;
            }
            let class = edge_class(hf, passes, limits, k, label, (x, z), s, dir);
            let (u, v) = (x, -z);
            let e = match (dx, dz) {
                (0, 1) => ([u, v - 1], [u + 1, v - 1]),
                (1, 0) => ([u + 1, v - 1], [u + 1, v]),
                (0, -1) => ([u + 1, v], [u, v]),
                _ => ([u, v], [u, v - 1]),
            };
            edges.push((e.0, e.1, class));
        }
    }
    // Height of a corner: the highest floor among the region's cells around it.
    let height = |p: [i32; 2]| {
        let (gx, gz) = (p[0], -p[1]);
        let mut best = f64::NEG_INFINITY;
        for (cx, cz) in [(gx - 1, gz - 1), (gx, gz - 1), (gx - 1, gz), (gx, gz)] {
            if let Some(s) = member.span(hf, cx, cz) {
                best = best.max(grid.y(hf.spans[s].floor));
            }
        }
        best as f32
    };
    let rings = rings_of(&edges, height, corners);
    // Only a wet tile's spans are read for the water: on a dry level that
    // read, a cache miss per span, was a tenth of the tracing.
    let water = if wet {
        members
            .iter()
            .map(|&s| hf.spans[s].water)
            .filter(|w| !w.is_nan())
            .reduce(f32::max)
    } else {
        None
    };
    Region {
        pass: k,
        label: label[members[0]],
        stance: passes[k].pass.stance,
        spans: members.len() as u32,
        border_spans,
        rings,
        water,
        area: 0,
    }
}

/// An edge of an outline: start, end (unit steps in plan grid
/// coordinates, interior on the left) and class.
type Edge = ([i32; 2], [i32; 2], EdgeClass);

/// Direction code of a unit step, in the order of the end points of the
/// edges leaving one corner: -u, -v, +v, +u.
fn step_code(a: [i32; 2], b: [i32; 2]) -> usize {
    match (b[0] - a[0], b[1] - a[1]) {
        (-1, _) => 0,
        (_, -1) => 1,
        (_, 1) => 2,
        _ => 3,
    }
}

/// No edge in a [`Corners`] slot.
const NO_EDGE: u32 = u32::MAX;

/// The edges leaving each grid corner of a region's bounding box of
/// corners, four slots a corner (by [`step_code`]), corner index u-major
/// so that corner order is (u, v) order. Kept from region to region (as
/// large as the largest box so far) and emptied after each (only the
/// slots its edges took), so a region costs its edges, not its box.
#[derive(Default)]
struct Corners {
    slots: Vec<[u32; 4]>,
    lo: [i32; 2],
    rows: usize,
}

impl Corners {
    /// Lays the (empty) slots over the bounding box of `edges`.
    fn cover(&mut self, edges: &[Edge]) {
        let Some(first) = edges.first() else { return };
        let (mut lo, mut hi) = (first.0, first.0);
        for e in edges {
            for p in [e.0, e.1] {
                lo = [lo[0].min(p[0]), lo[1].min(p[1])];
                hi = [hi[0].max(p[0]), hi[1].max(p[1])];
            }
        }
        self.lo = lo;
        self.rows = (hi[1] - lo[1] + 1) as usize;
        let n = self.rows * (hi[0] - lo[0] + 1) as usize;
        if self.slots.len() < n {
            self.slots.resize(n, [NO_EDGE; 4]);
        }
    }

    fn index(&self, p: [i32; 2]) -> usize {
        (p[0] - self.lo[0]) as usize * self.rows + (p[1] - self.lo[1]) as usize
    }
}

/// Links the boundary edges of one region into closed rings: each ring
/// starts at its first edge in (start, end) order, rings in that order;
/// at a corner the walk takes the unused edge (or the ring's first)
/// turning left first, then straight, then right, the first in (start,
/// end) order among equals. The edges leaving each corner are found in
/// `corners` (empty, and left empty again), and the ring starts in the
/// sorted (corner, slot) keys of the edges, so each edge is looked at a
/// bounded number of times.
fn rings_of(edges: &[Edge], height: impl Fn([i32; 2]) -> f32, corners: &mut Corners) -> Vec<Ring> {
    corners.cover(edges);
    let mut keys: Vec<u64> = Vec::with_capacity(edges.len());
    for (i, e) in edges.iter().enumerate() {
        let c = corners.index(e.0);
        let code = step_code(e.0, e.1);
        corners.slots[c][code] = i as u32;
        keys.push((c * 4 + code) as u64);
    }
    keys.sort_unstable();
    let mut used = vec![false; edges.len()];
    let mut rings = Vec::new();
    let grid = &*corners;
    for key in keys {
        let start = grid.slots[key as usize / 4][key as usize % 4];
        if used[start as usize] {
            continue;
        }
        let leaving = |p: [i32; 2]| {
            grid.slots[grid.index(p)]
                .into_iter()
                .filter(|&c| c != NO_EDGE)
                .map(|c| c as usize)
        };
        let ring = walk_ring(edges, start as usize, &mut used, &height, leaving);
        rings.push(ring);
    }
    for e in edges {
        let c = corners.index(e.0);
        corners.slots[c] = [NO_EDGE; 4];
    }
    rings
}

/// Walks one ring from edge `start`, marking its edges used: at each
/// corner the unused edge (or `start`, which closes the ring) of those
/// `leaving` gives, in their order, that turns left first, then straight,
/// then right.
fn walk_ring<I: IntoIterator<Item = usize>>(
    edges: &[Edge],
    start: usize,
    used: &mut [bool],
    height: &impl Fn([i32; 2]) -> f32,
    leaving: impl Fn([i32; 2]) -> I,
) -> Ring {
    let mut ring = Ring {
        pts: Vec::new(),
        h: Vec::new(),
        class: Vec::new(),
    };
    let mut e = start;
    loop {
        used[e] = true;
        let (a, b, class) = edges[e];
        ring.pts.push(a);
        ring.h.push(height(a));
        ring.class.push(class);
        let dir = [b[0] - a[0], b[1] - a[1]];
        // Candidates at b: unused edges, or the ring's first edge.
        let mut best: Option<(i32, usize)> = None;
        for c in leaving(b) {
            if used[c] && c != start {
                continue;
            }
            let nd = [edges[c].1[0] - b[0], edges[c].1[1] - b[1]];
            let cross = dir[0] * nd[1] - dir[1] * nd[0];
            let dot = dir[0] * nd[0] + dir[1] * nd[1];
            // Left turn first, then straight, then right.
            let rank = if cross > 0 {
                0
            } else if dot > 0 {
                1
            } else {
                2
            };
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, c));
            }
        }
        match best {
            Some((_, c)) if c != start => e = c,
            _ => return ring,
        }
    }
}

// ---------------------------------------------------------------- simplify: Douglas-Peucker measuring every point

/// Douglas-Peucker measuring every point: the reference for
/// [`crate::simplify::douglas_peucker`], which measures only the bends.
pub(crate) fn reference_douglas_peucker(pts: &[[i32; 2]], max_error: f64) -> Vec<usize> {
    douglas_peucker_over(|i| pts[i], &(0..pts.len()).collect::<Vec<_>>(), max_error)
}

// ---------------------------------------------------------------- triangulate: one triangulation a region, every face tested against every edge

/// A new triangulation a region, every ring edge through
/// `try_add_constraint`, every face's centre tested against every ring
/// edge: the reference for [`crate::triangulate::Triangulator`].
pub(crate) fn reference_triangulate(rings: &[Ring]) -> RegionMesh {
    let n: usize = rings.iter().map(|r| r.pts.len()).sum();
    let mut cdt = Cdt::with_capacity(n, 3 * n, 2 * n);
    let mut mesh = RegionMesh::default();
    let mut handles = Vec::new();
    for r in rings {
        let mut hs = Vec::with_capacity(r.pts.len());
        for (p, h) in r.pts.iter().zip(&r.h) {
            let Ok(v) = cdt.insert(Point2::new(p[0] as f64, p[1] as f64)) else {
                continue;
            };
            mesh.record(v.index(), *p, *h);
            hs.push(v);
        }
        handles.push(hs);
    }
    for hs in &handles {
        let n = hs.len();
        for i in 0..n {
            let (a, b) = (hs[i], hs[(i + 1) % n]);
            if a != b && cdt.try_add_constraint(a, b).is_empty() && !cdt.exists_constraint(a, b) {
                mesh.refused_constraints += 1;
            }
        }
    }
    for f in cdt.inner_faces() {
        if centre_inside(rings, f.vertices().map(|v| v.position())) {
            mesh.tris.push(f.vertices().map(|v| v.fix().index() as u32));
        }
    }
    mesh
}

// ---------------------------------------------------------------- polymesh: the merge with its edges in a hash map

/// The polygon merge with its edges in a hash map, removed and inserted
/// again at every merge: the reference for
/// [`crate::polymesh::merge_polygons`] and its half-edges.
pub(crate) fn reference_merge_polygons(mesh: &RegionMesh, nvp: usize) -> RegionPolys {
    let mut polys: Vec<Vec<u32>> = mesh.tris.iter().map(|t| t.to_vec()).collect();
    let mut alive = vec![true; polys.len()];
    if nvp > 3 {
        // Candidate merges, best first: (shared edge length, then the first
        // polygon and edge in order), checked against the polygons'
        // versions when taken, so a stale candidate is skipped.
        type Cand = (i64, Reverse<usize>, Reverse<usize>, usize, usize, u32, u32);
        let mut version = vec![0u32; polys.len()];
        let mut heap: BinaryHeap<Cand> = BinaryHeap::new();
        let mut edges: HashMap<(u32, u32), (usize, usize)> = HashMap::new();
        let ring = |p: &[u32], e: usize| (p[e], p[(e + 1) % p.len()]);
        for (p, poly) in polys.iter().enumerate() {
            for e in 0..poly.len() {
                edges.insert(ring(poly, e), (p, e));
            }
        }
        let candidates = |a: usize,
                          polys: &[Vec<u32>],
                          edges: &HashMap<(u32, u32), (usize, usize)>,
                          version: &[u32],
                          heap: &mut BinaryHeap<Cand>| {
            for ea in 0..polys[a].len() {
                let (u, v) = ring(&polys[a], ea);
                let Some(&(b, eb)) = edges.get(&(v, u)) else {
                    continue;
                };
                let (x, ex, y, ey) = if a < b {
                    (a, ea, b, eb)
                } else {
                    (b, eb, a, ea)
                };
                if let Some(len) = merge_value(&mesh.verts, &polys[x], &polys[y], ex, ey, nvp) {
                    heap.push((len, Reverse(x), Reverse(ex), y, ey, version[x], version[y]));
                }
            }
        };
        for a in 0..polys.len() {
            candidates(a, &polys, &edges, &version, &mut heap);
        }
        while let Some((_, Reverse(a), Reverse(ea), b, eb, va, vb)) = heap.pop() {
            if !(alive[a] && alive[b] && version[a] == va && version[b] == vb) {
                continue;
            }
            let (pa, pb) = (&polys[a], &polys[b]);
            let (na, nb) = (pa.len(), pb.len());
            let merged: Vec<u32> = (0..na - 1)
                .map(|i| pa[(ea + 1 + i) % na])
                .chain((0..nb - 1).map(|i| pb[(eb + 1 + i) % nb]))
                .collect();
            for p in [a, b] {
                for e in 0..polys[p].len() {
                    edges.remove(&ring(&polys[p], e));
                }
            }
            for e in 0..merged.len() {
                edges.insert(ring(&merged, e), (a, e));
            }
            polys[a] = merged;
            polys[b].clear();
            alive[b] = false;
            version[a] += 1;
            candidates(a, &polys, &edges, &version, &mut heap);
        }
    }
    RegionPolys {
        polys: polys
            .into_iter()
            .zip(alive)
            .filter_map(|(p, a)| a.then_some(p))
            .collect(),
    }
}

// ---------------------------------------------------------------- swim: the point-in-triangle test over every side

/// The point-in-polygon test over every side: the reference for
/// [`crate::swim::inside`], which stops at the first sides of both signs.
pub(crate) fn reference_inside(t: &[DVec2], p: DVec2) -> bool {
    let n = t.len();
    let d = (0..n).map(|i| cross(t[(i + 1) % n] - t[i], p - t[i]));
    d.clone().all(|v| v >= 0.0) || d.into_iter().all(|v| v <= 0.0)
}

// ---------------------------------------------------------------- flag drawing: one primitive per pass

/// The flag stage's drawing of one span, one primitive per pass that
/// flags it and a claimed one after: the reference for the runs of
/// `stages::flag_runs`.
pub(crate) fn reference_flag_prims(flags: &[(u8, Stance)]) -> Vec<(&'static str, u32, u32)> {
    let kinds = ["voxel/non-walkable", "voxel/walkable", "voxel/border"];
    let mut out = Vec::new();
    for (k, &(flag, stance)) in flags.iter().enumerate() {
        if flag < NON_WALKABLE {
            continue;
        }
        if flag != NON_WALKABLE && k + 1 < flags.len() {
            out.push((claimed_kind(stance), k as u32 + 1, u32::MAX));
        }
        out.push((kinds[(flag - NON_WALKABLE) as usize], k as u32, k as u32));
    }
    out
}
