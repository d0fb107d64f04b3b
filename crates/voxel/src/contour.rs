//! The `contours` stage, polygons (§32.2.3; Recast's `rcBuildContours` before
//! simplification, the "raw contours"): the spans of each region the
//! [`crate::partition`] stage found are grouped into connected pieces, and
//! each piece's outline is traced along the cell edges its spans share with
//! the outside. Islands become separate regions; holes become extra rings.
//!
//! A region never holds two spans of one column, so that its outline is a
//! plan polygon: a flood fill that reaches a column it already covers (a
//! floor above another, joined by stairs) leaves that span for a later
//! region. Regions only cover the tile's core cells.
//!
//! Every outline edge is classed by what lies beyond it: [`EdgeClass::Shared`]
//! when the other side is walkable space of any pass (at a height the two
//! stances could step between) or another tile, [`EdgeClass::Obstacle`]
//! otherwise. Simplification keeps shared edges exact, so later passes and
//! neighbouring tiles meet exactly.
//!
//! Rings are in *plan grid* coordinates `(u, v) = (gx, -gz)` (integers), so
//! counter-clockwise means counter-clockwise seen from above; the interior is
//! on the left of every edge (outer rings counter-clockwise, holes
//! clockwise). Where two cells of a region touch only at a corner, tracing
//! turns left, so rings touch there but never cross.
//!
//! How: one scan of the core's rows lists the spans of each partition region
//! that is taken whole, without a flood (all of it in the core, the tile
//! dry, the pass's links both ways: [`PassPartition::sizes`] says it is
//! one piece), and stops at the others' spans still free, where a flood
//! starts: breadth first from the region's least span, its members the
//! queue, and again in the order that decides which span of a column it
//! takes (depth first, [`DIRS`] order) only where it reaches a column
//! twice (a region taken whole that holds two spans of a column is
//! flooded so too); the cells' sides on the outline are marked (the
//! members with one listed), and each ring is walked from one of those
//! along the sides as Recast's contour walk does (left round the cell,
//! else straight on, else right round the diagonal cell), then started at
//! its least edge in (start corner, direction) order, rings in that order.

use serde::Serialize;

use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::{DIRS, Limits, NO_LINK};
use crate::partition::{NO_REGION, PassPartition};
use crate::pass_flags::PassFlags;
use navscope_core::Stance;

/// What lies beyond an outline edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EdgeClass {
    /// Non-walkable space (wall, drop, too low, too steep, ...).
    Obstacle,
    /// Walkable space of another pass or another tile.
    Shared,
    /// Another region of the same pass in the same tile (Recast's portal
    /// between regions): the partition label beyond it.
    Portal(u32),
}

/// A closed outline: `pts[i] -> pts[i + 1]` has class `class[i]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Ring {
    /// Vertices in plan grid coordinates.
    pub pts: Vec<[i32; 2]>,
    /// World height of each vertex.
    pub h: Vec<f32>,
    /// Class of the edge starting at each vertex.
    pub class: Vec<EdgeClass>,
}

impl Ring {
    /// Empties the ring, keeping its vectors' capacity.
    fn clear(&mut self) {
        self.pts.clear();
        self.h.clear();
        self.class.clear();
    }

    /// A copy of the ring starting at vertex `at`, its vectors no longer
    /// than it.
    fn rotated(&self, at: usize) -> Ring {
        fn turn<T: Copy>(v: &[T], at: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(v.len());
            out.extend_from_slice(&v[at..]);
            out.extend_from_slice(&v[..at]);
            out
        }
        Ring {
            pts: turn(&self.pts, at),
            h: turn(&self.h, at),
            class: turn(&self.class, at),
        }
    }

    /// Twice the signed plan area (positive: counter-clockwise).
    pub fn area2(&self) -> i64 {
        let n = self.pts.len();
        (0..n)
            .map(|i| {
                let (a, b) = (self.pts[i], self.pts[(i + 1) % n]);
                a[0] as i64 * b[1] as i64 - b[0] as i64 * a[1] as i64
            })
            .sum()
    }
}

/// A connected walkable area of one pass.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Region {
    /// Index of the pass in the enabled order.
    pub pass: usize,
    /// Its label in the pass's partition (several regions may share one
    /// when a partition region overlaps itself in plan).
    pub label: u32,
    /// Its stance.
    pub stance: Stance,
    /// Walkable spans in it.
    pub spans: u32,
    /// Border spans in it.
    pub border_spans: u32,
    /// Outlines (outer rings counter-clockwise, holes clockwise).
    pub rings: Vec<Ring>,
    /// Highest water surface over its spans, if any is wet.
    pub water: Option<f32>,
    /// Its area ([`crate::compact`]; a region never crosses an area change).
    pub area: u8,
}

/// The stamp of a frame slot no region has covered yet ([`Tracer`]): 0,
/// so that the frame is allocated zeroed rather than filled.
const NONE: u32 = 0;

/// The stamp of the frame's ring round the core ([`Tracer`]).
const OUTSIDE: u32 = u32::MAX;

/// Builds the regions of every pass of one tile from its partition (one
/// [`PassPartition`] per pass); `area` is every span's area. `wet` is false
/// only when no span of the tile holds water
/// ([`crate::heightfield::may_wet`]): the spans' water is then not read.
pub fn regions(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[PassFlags],
    parts: &[PassPartition],
    area: &[u8],
    wet: bool,
) -> Vec<Region> {
    let mut out = Vec::new();
    let mut t = Tracer::new(hf, grid, passes, wet);
    let r = hf.rect;
    // The core's spans of a pass's regions taken whole, region after
    // region, each in memory order, and each region's first and next place
    // there.
    let (mut listed, mut from, mut next) = (Vec::new(), Vec::new(), Vec::new());
    // A pass's regions with their least spans.
    let mut found: Vec<(u32, Region)> = Vec::new();
    for (k, (_, part)) in passes.iter().zip(parts).enumerate() {
        let label = &part.region[..];
        t.whole_places(k, part, &mut listed, &mut from, &mut next);
        // Whether every region of the pass is taken whole: then the rows
        // hold no flood's start to look for.
        let all_whole = !from.is_empty() && from[1..].iter().all(|&f| f != FLOODED);
        // Each span's label until a flood takes it, then none: one look-up
        // tells both whether a neighbour has this region's label and
        // whether it is still free. Not made when every region is taken
        // whole (their spans are not looked up).
        let mut free = (!all_whole).then(|| label.to_vec());
        for z in r.z0..r.z1 {
            let c0 = ((z - hf.pz) * hf.w + (r.x0 - hf.px)) as usize;
            let cols = &hf.cols[c0..=c0 + (r.x1 - r.x0) as usize];
            let slot0 = t.slot(r.x0, z) as u32;
            let mut at = (cols[0], 0);
            let Some(free) = free.as_mut() else {
                list_row::<true>(cols, slot0, label, (&mut listed, &mut next), &mut at);
                continue;
            };
            while let Some(start) =
                list_row::<false>(cols, slot0, free, (&mut listed, &mut next), &mut at)
            {
                t.flood_new(k, free, label, area, start, &mut found);
            }
        }
        for (&f, &n) in from.iter().zip(&next) {
            if f == FLOODED || f == n {
                continue;
            }
            let members = &listed[f as usize..n as usize];
            let id = t.next_id();
            if t.take(members, id) {
                let mut region = t.trace(k, label, id, members);
                region.area = area[members[0].s as usize];
                found.push((members[0].s, region));
            } else {
                // Two of its spans in a column: flooded after all.
                let free = free.get_or_insert_with(|| label.to_vec());
                for &m in members {
                    t.flood_new(k, free, label, area, m, &mut found);
                }
            }
        }
        // In the order of their least spans (the core's rows in turn, each
        // row's spans in memory order).
        found.sort_unstable_by_key(|f| f.0);
        out.extend(found.drain(..).map(|f| f.1));
    }
    out
}

/// The place of a region that is flooded ([`Tracer::whole_places`]).
const FLOODED: u32 = u32::MAX;

/// Scans a row of the core (`cols`, the start of each of its columns and
/// the end of the last; `slot0`, the first one's slot in the [`Tracer`]'s
/// frame) from span and column `at`: lists the spans of the regions taken
/// whole at their labels' next places (`listed` and `next`, see
/// [`Tracer::whole_places`]) and stops at the next span of another label,
/// a flood's start, returning it (`at` then the span after it). `label`
/// is each span's label, [`NO_REGION`] where a flood took it already (the
/// labels `free` in [`regions`]; a region taken whole is not flooded
/// before the scan ends). The row's spans lie in one run, column after
/// column: scanned as one, the column of each labelled span found by
/// stepping on from the last one's. With `ALL_WHOLE` every region of the
/// pass is taken whole (a flood's start is never met, so not looked for).
/// Not inlined, so that its loop keeps its values in registers.
#[inline(never)]
fn list_row<const ALL_WHOLE: bool>(
    cols: &[u32],
    slot0: u32,
    label: &[u32],
    (listed, next): (&mut [Member], &mut [u32]),
    at: &mut (u32, usize),
) -> Option<Member> {
    let (first, end) = (at.0, cols[cols.len() - 1]);
    let mut x = at.1;
    for (s, &l) in (first..).zip(&label[first as usize..end as usize]) {
        if l == NO_REGION {
            continue;
        }
        // Written out for all regions taken whole: sharing the lines below
        // costs 3.5% more instructions in the `contours` stage (nav_test
        // with the watershed, callgrind).
        if ALL_WHOLE {
            while cols[x + 1] <= s {
                x += 1;
            }
            let place = &mut next[l as usize];
            listed[*place as usize] = Member {
                s,
                c: slot0 + x as u32,
            };
            *place += 1;
            continue;
        }
        let place = next.get_mut(l as usize).filter(|p| **p != FLOODED);
        while cols[x + 1] <= s {
            x += 1;
        }
        let m = Member {
            s,
            c: slot0 + x as u32,
        };
        let Some(place) = place else {
            *at = (s + 1, x);
            return Some(m);
        };
        listed[*place as usize] = m;
        *place += 1;
    }
    None
}

/// The order a flood takes a span's links in.
///
/// Which spans the flood from a region's first span reaches does not
/// depend on its order unless it reaches two spans of one column (a
/// region over itself, joined by stairs), where the one reached first is
/// taken. [`Order::Any`] is tried first and gives way to [`Order::Exact`]
/// there.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    /// The order that decides which span of a column a region takes:
    /// depth first, [`DIRS`] order, the last pushed taken first.
    Exact,
    /// Breadth first, the region's members its queue (each span pushed
    /// once, never popped). From the region's first span, its least in
    /// memory order, the front sweeps the rows diagonally, so the links it
    /// reads lie within a few hundred cache lines.
    Any,
}

/// A span of a region and its cell's slot in the [`Tracer`]'s frame, as
/// the flood keeps them (8 bytes: the region's members are pushed once a
/// span).
#[derive(Clone, Copy)]
struct Member {
    s: u32,
    c: u32,
}

/// A cell of a region, global and as its slot in the [`Tracer`]'s frame,
/// as the outline walk keeps it (its span is `col_span[c]`).
#[derive(Clone, Copy)]
struct Cell {
    c: usize,
    x: i32,
    z: i32,
}

impl Cell {
    /// The cell one step in direction `DIRS[dir]` (`step` as in [`Tracer`]).
    fn to(self, dir: usize, step: &[isize; 4]) -> Cell {
        Cell {
            c: self.c.wrapping_add_signed(step[dir]),
            x: self.x + DIRS[dir].0,
            z: self.z + DIRS[dir].1,
        }
    }
}

/// The tile and the buffers one region after another is grouped and
/// traced in, over a *frame*: the core's cells and a ring of cells round
/// it, row by row, one slot each. `stamp[c]` is the stamp of the last
/// region to cover the cell in slot `c` (its index plus one; [`NONE`]
/// before any, [`OUTSIDE`] on the ring, so that no look-up from a core
/// cell to its neighbours needs a bounds test) and `col_span[c]` its span
/// there (read only where `stamp[c]` is a region's, so left zero until
/// then; the span's floor is read only for the outline's corners and edge
/// classes, and the flood reads no span but on a wet tile); `sides[c]`, for
/// a cell of the current region, has bit `dir` set when the cell's side
/// `DIRS[dir]` is on the outline and bit `4 + dir` while that side is
/// still to trace.
struct Tracer<'a> {
    hf: &'a Heightfield,
    grid: &'a Grid,
    passes: &'a [PassFlags],
    limits: Vec<Limits>,
    /// Slots in a row of the frame.
    row: usize,
    /// Slot step of each direction of [`DIRS`].
    step: [isize; 4],
    stamp: Vec<u32>,
    col_span: Vec<u32>,
    /// Whether any span of the tile may hold water.
    wet: bool,
    /// The highest water surface over the current region's spans.
    water: Option<f32>,
    sides: Vec<u8>,
    /// The current region's spans, in flood order.
    members: Vec<Member>,
    /// The current region's members with a side on the outline (their
    /// indices in `members`, in its order): the cells the rings are walked
    /// from.
    edged: Vec<u32>,
    /// The stack of the flood in [`Order::Exact`].
    queue: Vec<Member>,
    /// The current region's rings, each with its least edge key.
    rings: Vec<((i32, i32, u8), Ring)>,
    /// The ring being walked, before it is rotated to its least edge
    /// (kept from ring to ring, so that pushing to it seldom grows it).
    walked: Ring,
    /// The last region's stamp (0 before the first).
    last_id: u32,
}

impl<'a> Tracer<'a> {
    /// A tracer for the passes `passes` of tile `hf` (`wet` as in
    /// [`regions`]).
    fn new(hf: &'a Heightfield, grid: &'a Grid, passes: &'a [PassFlags], wet: bool) -> Self {
        let r = hf.rect;
        let (row, rows) = ((r.x1 - r.x0 + 2) as usize, (r.z1 - r.z0 + 2) as usize);
        let n = row * rows;
        let mut stamp = vec![NONE; n];
        stamp[..row].fill(OUTSIDE);
        stamp[n - row..].fill(OUTSIDE);
        for z in 1..rows - 1 {
            stamp[z * row] = OUTSIDE;
            stamp[z * row + row - 1] = OUTSIDE;
        }
        Tracer {
            hf,
            grid,
            passes,
            limits: passes.iter().map(|p| Limits::of(&p.pass, grid)).collect(),
            row,
            step: DIRS.map(|(dx, dz)| dx as isize + dz as isize * row as isize),
            stamp,
            col_span: vec![0; n],
            wet,
            water: None,
            sides: vec![0; n],
            members: Vec::new(),
            edged: Vec::new(),
            queue: Vec::new(),
            rings: Vec::new(),
            walked: Ring::default(),
            last_id: NONE,
        }
    }

    /// A new region's stamp.
    fn next_id(&mut self) -> u32 {
        self.last_id += 1;
        self.last_id
    }

    /// Where the core's spans of each region of pass `k`'s partition `part`
    /// that is taken whole, without a flood, go in `listed`, region after
    /// region: `from[l]` and `next[l]` the first place of region `l`,
    /// [`FLOODED`] for a region that is flooded instead (`from` and `next`
    /// left empty when every one is). A region is taken whole when its
    /// spans all lie in the core, the tile is dry (the water over a flooded
    /// region is read in the flood's order) and the pass's links all go
    /// both ways. Then the region, one piece along its links taken either
    /// way ([`PassPartition::sizes`]), is one piece along them as they go,
    /// and a flood from its first span takes all of its spans unless it
    /// reaches a column twice ([`Self::take`] checks that). The links go
    /// both ways when the pass's height is more than its step: a link one
    /// way leads from a span to one whose link back, the first span of
    /// that column it connects with ([`crate::links::links`]), is a lower
    /// one; the two floors are within two steps, but the lower one's open
    /// space, at least the height above the other end's floor, ends under
    /// the upper floor, so the height would be at most a step.
    fn whole_places(
        &self,
        k: usize,
        part: &PassPartition,
        listed: &mut Vec<Member>,
        from: &mut Vec<u32>,
        next: &mut Vec<u32>,
    ) {
        from.clear();
        next.clear();
        let lim = self.limits[k];
        if self.wet || part.sizes.is_empty() || lim.height <= lim.step {
            return;
        }
        let (hf, r) = (self.hf, self.hf.rect);
        let w = hf.w as usize;
        from.extend_from_slice(&part.sizes);
        // The columns of a padded row outside the core: all of them off
        // the core's rows, else those before and after it.
        for (z, row) in (hf.pz..hf.pz + hf.d).zip((0..).step_by(w)) {
            let outside = if z < r.z0 || z >= r.z1 {
                [(row, row + w), (row, row)]
            } else {
                let (a, b) = ((r.x0 - hf.px) as usize, (r.x1 - hf.px) as usize);
                [(row, row + a), (row + b, row + w)]
            };
            for (a, b) in outside {
                for &l in &part.region[hf.cols[a] as usize..hf.cols[b] as usize] {
                    from[l as usize] = 0;
                }
            }
        }
        let mut total = 0;
        for f in from.iter_mut() {
            let n = std::mem::replace(f, FLOODED);
            if n != 0 {
                *f = total;
                total += n;
            }
        }
        if total == 0 {
            // None is taken whole.
            from.clear();
            return;
        }
        next.extend_from_slice(from);
        listed.clear();
        listed.resize(total as usize, Member { s: 0, c: 0 });
    }

    /// Stamps the cells of `members`, the spans of a region taken whole
    /// ([`Self::whole_places`]), as region `id`, unless two of them lie in one
    /// column: then returns false.
    fn take(&mut self, members: &[Member], id: u32) -> bool {
        for m in members {
            let c = m.c as usize;
            if self.stamp[c] == id {
                return false;
            }
            self.stamp[c] = id;
            self.col_span[c] = m.s;
        }
        self.water = None;
        true
    }

    /// Floods and traces a new region of pass `k` from `start` unless a
    /// flood took it already (`free`, `label` and `area` as in
    /// [`regions`]), pushing it to `found` with its least span.
    #[inline(never)]
    fn flood_new(
        &mut self,
        k: usize,
        free: &mut [u32],
        label: &[u32],
        area: &[u8],
        start: Member,
        found: &mut Vec<(u32, Region)>,
    ) {
        let s0 = start.s as usize;
        if free[s0] == NO_REGION {
            return;
        }
        let passes = self.passes;
        let links = &passes[k].links;
        let id = self.next_id();
        if !self.flood(links, free, id, start, Order::Any) {
            self.undo(free, label[s0]);
            self.flood(links, free, id, start, Order::Exact);
        }
        let members = std::mem::take(&mut self.members);
        let mut region = self.trace(k, label, id, &members);
        self.members = members;
        region.area = area[s0];
        found.push((start.s, region));
    }

    /// The slot of core cell `(x, z)`.
    fn slot(&self, x: i32, z: i32) -> usize {
        let r = self.hf.rect;
        (z - r.z0 + 1) as usize * self.row + (x - r.x0 + 1) as usize
    }

    /// Member `m`'s cell (the inverse of [`Self::slot`]).
    fn cell(&self, m: Member) -> Cell {
        let (r, c) = (self.hf.rect, m.c as usize);
        Cell {
            c,
            x: (c % self.row) as i32 + r.x0 - 1,
            z: (c / self.row) as i32 + r.z0 - 1,
        }
    }

    /// Groups the spans of `start`'s label still `free` that its links
    /// reach into region `id` (its stamp) in `members`, at most one span a
    /// column and core cells only; each taken span is no longer free. In
    /// [`Order::Exact`] a span whose column the region already covers is
    /// left for a later region, in [`Order::Any`] the flood stops there and
    /// returns false.
    fn flood(
        &mut self,
        link: &[u32],
        free: &mut [u32],
        id: u32,
        start: Member,
        order: Order,
    ) -> bool {
        let l0 = free[start.s as usize];
        free[start.s as usize] = NO_REGION;
        self.stamp[start.c as usize] = id;
        self.col_span[start.c as usize] = start.s;
        self.members.clear();
        self.queue.clear();
        let whole = match order {
            Order::Any => self.flood_any(link, free, l0, id, start),
            Order::Exact => {
                self.flood_exact(link, free, l0, id, start);
                true
            }
        };
        self.water = None;
        if whole && self.wet {
            // In the order the spans were taken, as the flood read them.
            for m in &self.members {
                let w = self.hf.spans[m.s as usize].water;
                if !w.is_nan() {
                    self.water = Some(self.water.map_or(w, |v| v.max(w)));
                }
            }
        }
        whole
    }

    /// The flood of [`Self::flood`] in [`Order::Any`] from `start` (taken,
    /// its label `l0`): the members are its queue, the frame's slices and
    /// the steps held in locals through the loop.
    fn flood_any(
        &mut self,
        link: &[u32],
        free: &mut [u32],
        l0: u32,
        id: u32,
        start: Member,
    ) -> bool {
        let (stamp, col_span, members) = (&mut self.stamp, &mut self.col_span, &mut self.members);
        let step = self.step;
        members.push(start);
        let mut head = 0;
        while let Some(&cell) = members.get(head) {
            head += 1;
            let s = cell.s as usize;
            let out: &[u32; 4] = link[4 * s..4 * s + 4].try_into().expect("four links");
            for (dir, &n) in out.iter().enumerate() {
                // A missing link ([`NO_LINK`]) is past the end of `free`.
                if free.get(n as usize) != Some(&l0) {
                    continue;
                }
                let c = (cell.c as usize).wrapping_add_signed(step[dir]);
                let taken = &mut stamp[c];
                if *taken == OUTSIDE {
                    continue;
                }
                if *taken == id {
                    return false;
                }
                *taken = id;
                free[n as usize] = NO_REGION;
                col_span[c] = n;
                members.push(Member { s: n, c: c as u32 });
            }
        }
        true
    }

    /// The flood of [`Self::flood`] in [`Order::Exact`] from `start` (taken,
    /// its label `l0`).
    fn flood_exact(&mut self, link: &[u32], free: &mut [u32], l0: u32, id: u32, start: Member) {
        self.queue.push(start);
        while let Some(cell) = self.queue.pop() {
            self.members.push(cell);
            let s = cell.s as usize;
            let out: &[u32; 4] = link[4 * s..4 * s + 4].try_into().expect("four links");
            for (dir, &n) in out.iter().enumerate() {
                if n == NO_LINK || free[n as usize] != l0 {
                    continue;
                }
                let c = (cell.c as usize).wrapping_add_signed(self.step[dir]);
                let taken = &mut self.stamp[c];
                if *taken == OUTSIDE || *taken == id {
                    continue;
                }
                *taken = id;
                free[n as usize] = NO_REGION;
                self.col_span[c] = n;
                self.queue.push(Member { s: n, c: c as u32 });
            }
        }
    }

    /// Gives back the spans a stopped flood took (label `l0`).
    fn undo(&mut self, free: &mut [u32], l0: u32) {
        for m in self.members.iter().chain(&self.queue) {
            free[m.s as usize] = l0;
            self.stamp[m.c as usize] = NONE;
        }
    }

    /// Traces the outline rings of region `id` of pass `k` (its spans
    /// `members`, its frame stamped; `label` is the pass's partition): each
    /// cell side whose neighbour the region does not cover is an edge, and
    /// each ring is walked along them as Recast's contour walk does, from
    /// its least edge in (start corner, direction) order, rings in that
    /// order.
    fn trace(&mut self, k: usize, label: &[u32], id: u32, members: &[Member]) -> Region {
        let passes = self.passes;
        let border_spans = self.mark_sides(&passes[k].flags, id, members);
        let mut rings = std::mem::take(&mut self.rings);
        for i in 0..self.edged.len() {
            let m = members[self.edged[i] as usize];
            let c = m.c as usize;
            while self.sides[c] >> 4 != 0 {
                let dir = (self.sides[c] >> 4).trailing_zeros() as usize;
                let cell = self.cell(m);
                rings.push(self.walk(k, label, id, cell, dir));
            }
        }
        rings.sort_unstable_by_key(|r| r.0);
        let region_rings = rings.drain(..).map(|r| r.1).collect();
        self.rings = rings;
        Region {
            pass: k,
            label: label[members[0].s as usize],
            stance: self.passes[k].pass.stance,
            spans: members.len() as u32,
            border_spans,
            rings: region_rings,
            // The highest surface does not depend on the members' order (but
            // for the sign of a zero surface, were the spans to hold both).
            water: self.water,
            area: 0,
        }
    }

    /// Sets the sides of each of `members`' cells on the outline of region `id`
    /// (the cell across them not the region's), to trace and traced
    /// ([`Tracer`]'s `sides`), and lists the members with any in `edged`;
    /// returns how many members are border spans (`flags` the pass's).
    /// Not inlined, so that its loop keeps its values in registers
    /// (inlined into [`regions`] it spilled them).
    #[inline(never)]
    fn mark_sides(&mut self, flags: &[u8], id: u32, members: &[Member]) -> u32 {
        let (stamp, sides, row) = (&self.stamp[..], &mut self.sides[..], self.row);
        let edged = &mut self.edged;
        edged.clear();
        debug_assert_eq!(self.step, [-1, row as isize, 1, -(row as isize)]);
        let mut border_spans = 0;
        for (i, m) in members.iter().enumerate() {
            let c = m.c as usize;
            border_spans += (flags[m.s as usize] == crate::pass_flags::BORDER) as u32;
            // The cells across sides 0 and 2 (-x, +x) lie beside `c`, across
            // 3 and 1 (-z, +z) a row before and after it ([`DIRS`]).
            let [west, _, east]: [u32; 3] = stamp[c - 1..c + 2].try_into().expect("three cells");
            let out = (west != id) as u8
                | ((stamp[c + row] != id) as u8) << 1
                | ((east != id) as u8) << 2
                | ((stamp[c - row] != id) as u8) << 3;
            sides[c] = out | out << 4;
            if out != 0 {
                edged.push(i as u32);
            }
        }
        border_spans
    }

    /// Walks the ring through side `dir` of `start` (a cell of region `id`)
    /// with the interior on the left, marking its sides traced: after each
    /// edge it turns left round the same cell where that side is on the
    /// outline, else goes straight on along the next cell, else turns right
    /// round the diagonal one (so where two cells touch only at a corner it
    /// turns left). Returns the ring from its least edge, with that edge's
    /// key (start corner, then direction code: -u, -v, +v, +u).
    fn walk(
        &mut self,
        k: usize,
        label: &[u32],
        id: u32,
        start: Cell,
        dir: usize,
    ) -> ((i32, i32, u8), Ring) {
        let mut ring = std::mem::take(&mut self.walked);
        ring.clear();
        let (mut cell, mut dir) = (start, dir);
        let d0 = dir;
        let mut least = ((i32::MAX, i32::MAX, u8::MAX), 0);
        loop {
            self.sides[cell.c] &= !(16 << dir);
            let s = self.col_span[cell.c] as usize;
            let (u, v) = (cell.x, -cell.z);
            // The edge's start corner and direction code.
            let (p, code) = match dir {
                1 => ([u, v - 1], 3),
                2 => ([u + 1, v - 1], 2),
                3 => ([u + 1, v], 0),
                _ => ([u, v], 1),
            };
            if (p[0], p[1], code) < least.0 {
                least = ((p[0], p[1], code), ring.pts.len());
            }
            ring.pts.push(p);
            ring.h.push(self.corner_height(id, cell, dir));
            ring.class.push(edge_class(
                self.hf,
                self.passes,
                &self.limits,
                k,
                label,
                (cell.x, cell.z),
                s,
                dir,
            ));
            let left = (dir + 1) & 3;
            if self.sides[cell.c] & (1 << left) == 0 {
                cell = cell.to(left, &self.step);
                if self.sides[cell.c] & (1 << dir) == 0 {
                    cell = cell.to(dir, &self.step);
                    dir = (dir + 3) & 3;
                }
            } else {
                dir = left;
            }
            if cell.c == start.c && dir == d0 {
                break;
            }
        }
        let out = ring.rotated(least.1);
        self.walked = ring;
        (least.0, out)
    }

    /// World height of the start corner of side `dir` of `cell` (a cell of
    /// region `id`): the highest floor among the region's cells around it.
    /// Those are `cell`, the one across its previous side (counter-
    /// clockwise) and the diagonal one beyond both; the one across side
    /// `dir` is outside.
    fn corner_height(&self, id: u32, cell: Cell, dir: usize) -> f32 {
        let floor = |c: usize| self.hf.spans[self.col_span[c] as usize].floor;
        let mut top = floor(cell.c);
        let prev = (dir + 3) & 3;
        let side = cell.to(prev, &self.step);
        let diag = side.to(dir, &self.step);
        if self.sides[cell.c] & (1 << prev) == 0 {
            top = top.max(floor(side.c));
            if self.sides[side.c] & (1 << dir) == 0 {
                top = top.max(floor(diag.c));
            }
        } else if self.stamp[diag.c] == id {
            top = top.max(floor(diag.c));
        }
        self.grid.y(top) as f32
    }
}

/// Classes the edge from region span `s` (pass `k`, in cell `s_cell`) in
/// direction `DIRS[dir]`; `label` gives each span's partition label in pass
/// `k`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn edge_class(
    hf: &Heightfield,
    passes: &[PassFlags],
    limits: &[Limits],
    k: usize,
    label: &[u32],
    s_cell: (i32, i32),
    s: usize,
    dir: usize,
) -> EdgeClass {
    let (nx, nz) = (s_cell.0 + DIRS[dir].0, s_cell.1 + DIRS[dir].1);
    if !hf.rect.in_core(nx, nz) {
        return EdgeClass::Shared;
    }
    let Some(nc) = hf.col(nx, nz) else {
        return EdgeClass::Obstacle;
    };
    let f = hf.spans[s].floor as i32;
    // The pass's own connection first: a portal to another of its regions.
    let l = passes[k].links.get(4 * s + dir).copied().unwrap_or(NO_LINK);
    if l != NO_LINK {
        let other = label[l as usize];
        if other != NO_REGION && other != label[s] {
            return EdgeClass::Portal(other);
        }
    }
    for n in hf.range(nc) {
        let nf = hf.spans[n].floor as i32;
        for (j, p) in passes.iter().enumerate() {
            if p.walkable(n) && (nf - f).unsigned_abs() <= limits[k].step.max(limits[j].step) {
                return EdgeClass::Shared;
            }
        }
    }
    EdgeClass::Obstacle
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::flags::tests::build;
    use crate::grid::TileRect;
    use crate::heightfield::tests::boxes;
    use crate::partition::partition_tile;
    use crate::reference::reference_regions;
    use crate::settings::{Settings, specs};
    use navscope_core::ParamValues;

    /// `part` (pass flags `pf`) with each piece of each label, its spans
    /// joined by the pass's links taken either way, a label of its own (in
    /// order of first span), and its [`PassPartition::sizes`].
    fn in_pieces(pf: &PassFlags, part: &PassPartition) -> PassPartition {
        let (label, link) = (&part.region, &pf.links);
        let mut either: Vec<Vec<usize>> = vec![Vec::new(); label.len()];
        for s in (0..label.len()).filter(|&s| label[s] != NO_REGION) {
            for &n in &link[4 * s..4 * s + 4] {
                if n != NO_LINK && label[n as usize] == label[s] {
                    either[s].push(n as usize);
                    either[n as usize].push(s);
                }
            }
        }
        let mut out = part.clone();
        out.region.fill(NO_REGION);
        out.sizes = vec![0];
        for (s0, &l) in label.iter().enumerate() {
            if l == NO_REGION || out.region[s0] != NO_REGION {
                continue;
            }
            let piece = out.sizes.len() as u32;
            out.sizes.push(0);
            out.region[s0] = piece;
            let mut stack = vec![s0];
            while let Some(s) = stack.pop() {
                out.sizes[piece as usize] += 1;
                for &n in &either[s] {
                    if out.region[n] == NO_REGION {
                        out.region[n] = piece;
                        stack.push(n);
                    }
                }
            }
        }
        out.regions = out.sizes.len() as u32 - 1;
        out
    }

    /// The regions of `f`'s partitions `parts`, asserted to be the ones
    /// [`reference_regions`] gives, with their sizes and without (every region
    /// flooded).
    fn regions_by_reference(
        hf: &Heightfield,
        g: &Grid,
        f: &[PassFlags],
        parts: &[PassPartition],
    ) -> Vec<Region> {
        let area = vec![0; hf.spans.len()];
        let old = reference_regions(hf, g, f, parts, &area);
        let mut flooded = parts.to_vec();
        flooded.iter_mut().for_each(|p| p.sizes.clear());
        // A dry tile's regions read no water; reading it changes nothing.
        let wet = hf.spans.iter().any(|s| !s.water.is_nan());
        for parts in [parts, &flooded] {
            for wet in [wet, true] {
                assert_eq!(regions(hf, g, f, parts, &area, wet), old);
            }
        }
        old
    }

    /// A 3 m floor whose standing pass is labelled by `rows` (row `i`,
    /// character `j` is cell `(8 + j, 8 + i)`: a digit is that label, any
    /// other character none), its core cut back to `core` and the floor of
    /// the cells whose bit `8 * i + j` is set in `lift` raised by three
    /// voxels under water (its surface lower row by row), and their link to +x dropped where it is set in `one_way`
    /// (the link back kept); its regions, asserted to be the reference's, and
    /// those of its labels' pieces ([`in_pieces`]) where no link is one way.
    fn patterned(rows: &[&str], core: Option<TileRect>, lift: u64, one_way: u64) -> Vec<Region> {
        let (g, mut hf, mut f) = build(&boxes(&[([0., -0.1, 0.], [3., 0., 3.])]), "stand");
        let mut parts = default_parts(&hf, &f);
        parts[0].region.fill(NO_REGION);
        parts[0].sizes.clear();
        for (i, row) in rows.iter().enumerate() {
            for (j, ch) in row.chars().enumerate() {
                let c = hf.col(8 + j as i32, 8 + i as i32).unwrap();
                let s = hf.range(c).next().unwrap();
                assert!(
                    f[0].links[4 * s..4 * s + 4].iter().all(|&l| l != NO_LINK),
                    "the pattern lies on linked floor"
                );
                if let Some(d) = ch.to_digit(10) {
                    parts[0].region[s] = d;
                }
                if lift >> (8 * i + j) & 1 == 1 {
                    hf.spans[s].floor += 3;
                    // Water over the raised floors of the lower rows.
                    hf.spans[s].water = (7 - i) as f32 * 0.5 - 1.0;
                }
                if one_way >> (8 * i + j) & 1 == 1 {
                    std::sync::Arc::make_mut(&mut f[0].links)[4 * s + 2] = NO_LINK;
                }
            }
        }
        if let Some(core) = core {
            hf.rect = core;
        }
        if one_way == 0 {
            regions_by_reference(&hf, &g, &f, &[in_pieces(&f[0], &parts[0])]);
        }
        regions_by_reference(&hf, &g, &f, &parts)
    }

    #[test]
    fn a_single_cell_is_one_ring_of_four_edges() {
        let r = patterned(&["1"], None, 0, 0);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rings.len(), 1);
        assert_eq!(r[0].rings[0].pts, [[8, -9], [9, -9], [9, -8], [8, -8]]);
        assert_eq!(r[0].rings[0].area2(), 2);
    }

    #[test]
    fn a_checkerboard_is_one_region_a_cell() {
        let r = patterned(&["1.1.", ".1.1", "1.1.", ".1.1"], None, 0, 0);
        assert_eq!(r.len(), 8, "cells touching at a corner are not joined");
        assert!(
            r.iter()
                .all(|r| r.rings.len() == 1 && r.rings[0].area2() == 2)
        );
    }

    #[test]
    fn a_ring_pinched_at_a_corner_turns_left_there() {
        // The gap in the middle meets the outside at one corner.
        let r = patterned(&["111", "1.1", "11."], None, 0, 0);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rings.len(), 1, "the gap is no hole");
        let ring = &r[0].rings[0];
        assert_eq!(ring.area2(), 2 * 7);
        assert_eq!(ring.pts.len(), 16, "every side on the outline");
        let pinch = ring.pts.iter().filter(|&&p| p == [10, -10]).count();
        assert_eq!(pinch, 2, "the ring passes the pinch twice");
    }

    #[test]
    fn a_ring_round_a_hole_and_a_portal() {
        let r = patterned(&["1112", "1.12", "1112"], None, 0, 0);
        assert_eq!(r.len(), 2);
        let areas: Vec<i64> = r[0].rings.iter().map(Ring::area2).collect();
        assert_eq!(areas, [2 * 9, -2], "outer ring first, then the hole");
        assert_eq!(
            r[0].rings[0]
                .class
                .iter()
                .filter(|c| **c == EdgeClass::Portal(2))
                .count(),
            3
        );
    }

    #[test]
    fn a_region_at_the_tile_border_shares_its_edges_there() {
        let rows = ["2211"; 3];
        // The side u = 10 of region 1, down, with its class.
        let cut_side = |r: &Region| -> Vec<([i32; 2], EdgeClass)> {
            let ring = &r.rings[0];
            (0..ring.pts.len())
                .filter(|&i| ring.pts[i][0] == 10 && ring.pts[(i + 1) % ring.pts.len()][0] == 10)
                .map(|i| (ring.pts[i], ring.class[i]))
                .collect()
        };
        let whole = patterned(&rows, None, 0, 0);
        assert_eq!(whole.len(), 2);
        let portal = EdgeClass::Portal(2);
        assert_eq!(
            cut_side(&whole[1]),
            [([10, -8], portal), ([10, -9], portal), ([10, -10], portal)]
        );
        let core = TileRect {
            x0: 10,
            z0: 0,
            x1: 30,
            z1: 30,
            pad: 0,
        };
        let cut = patterned(&rows, Some(core), 0, 0);
        assert_eq!(cut.len(), 1, "label 2 lies outside the core");
        assert_eq!(cut[0].spans, 6);
        let shared = EdgeClass::Shared;
        assert_eq!(
            cut_side(&cut[0]),
            [([10, -8], shared), ([10, -9], shared), ([10, -10], shared)]
        );
    }

    #[test]
    fn a_stair_over_its_own_foot_takes_each_column_once() {
        // Five steps round three sides of a floor up to a deck over the
        // floor: one label, two spans in the columns under the deck.
        let b = |x: f32, z: f32, w: f32, y: f32, top: f32| ([x, y, z], [x + w, top, z + 2.]);
        let m = boxes(&[
            ([0., -0.1, 0.], [8., 0., 8.]),
            b(1., 1., 2., 0., 0.45),
            b(3., 1., 2., 0., 0.9),
            b(5., 1., 2., 0., 1.35),
            b(5., 3., 2., 0., 1.8),
            b(5., 5., 2., 0., 2.25),
            b(1., 5., 4., 2.15, 2.25),
        ]);
        let (g, hf, f) = build(&m, "stand");
        let mut parts = default_parts(&hf, &f);
        parts[0]
            .region
            .iter_mut()
            .filter(|l| **l != NO_REGION)
            .for_each(|l| *l = 1);
        parts[0].sizes.clear();
        let r = regions_by_reference(&hf, &g, &f, &parts);
        // One piece over itself: taken whole, it would hold two spans of a
        // column, so it is flooded.
        regions_by_reference(&hf, &g, &f, &[in_pieces(&f[0], &parts[0])]);
        assert!(
            r.len() >= 2,
            "the deck's columns are left to a second region"
        );
        let walkable = (0..hf.spans.len()).filter(|&s| f[0].walkable(s)).count();
        assert_eq!(r.iter().map(|r| r.spans as usize).sum::<usize>(), walkable);
        // The flood along rows stops at the first column reached twice
        // (the exact flood then decides which span it takes).
        let mut t = Tracer::new(&hf, &g, &f, true);
        let mut free = parts[0].region.clone();
        let (start, x, z) = first_member(&hf, &t, &free);
        let cell = t.cell(start);
        assert_eq!((cell.x, cell.z), (x, z), "a member's cell");
        assert!(!t.flood(&f[0].links, &mut free, 1, start, Order::Any));
        t.undo(&mut free, 1);
        assert_eq!(free, parts[0].region, "all given back");
        assert!(t.flood(&f[0].links, &mut free, 1, start, Order::Exact));
        assert_eq!(t.members.len() as u32, r[0].spans);
    }

    /// The first labelled span of `free` as a flood's start member, with
    /// its column's cell.
    fn first_member(hf: &Heightfield, t: &Tracer, free: &[u32]) -> (super::Member, i32, i32) {
        let s = free.iter().position(|&l| l != NO_REGION).unwrap();
        let col = (0..hf.cols.len() - 1)
            .find(|&c| hf.range(c).contains(&s))
            .unwrap();
        let (x, z) = hf.cell(col);
        let start = super::Member {
            s: s as u32,
            c: t.slot(x, z) as u32,
        };
        (start, x, z)
    }

    #[test]
    fn the_sides_and_the_members_on_the_outline_are_each_neighbours() {
        // A floor round a pillar: one region, an outer ring and a hole.
        let m = boxes(&[
            ([0., -0.1, 0.], [4., 0., 4.]),
            ([1.8, 0., 1.8], [2.2, 3., 2.2]),
        ]);
        let (g, hf, f) = build(&m, "stand");
        let parts = default_parts(&hf, &f);
        let mut t = Tracer::new(&hf, &g, &f, true);
        let mut free = parts[0].region.clone();
        let (start, _, _) = first_member(&hf, &t, &free);
        assert!(t.flood(&f[0].links, &mut free, 1, start, Order::Any));
        let members = t.members.clone();
        let border = t.mark_sides(&f[0].flags, 1, &members);
        // Each side looked up by its step, without `mark_sides`.
        let (mut edged, mut b) = (Vec::new(), 0);
        for (i, m) in t.members.iter().enumerate() {
            let c = m.c as usize;
            let mut out = 0u8;
            for (dir, step) in t.step.into_iter().enumerate() {
                out |= ((t.stamp[c.wrapping_add_signed(step)] != 1) as u8) << dir;
            }
            assert_eq!(t.sides[c], out | out << 4);
            if out != 0 {
                edged.push(i as u32);
            }
            b += (f[0].flags[m.s as usize] == crate::pass_flags::BORDER) as u32;
        }
        assert_eq!(t.edged, edged);
        assert_eq!(border, b);
        assert!(!edged.is_empty() && edged.len() < t.members.len());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Random labels (holes, islands, cells touching at a corner
        /// only, two labels side by side), the core cut anywhere across
        /// them, floors at two heights, links one way: the regions are the
        /// reference's.
        #[test]
        fn patterns_trace_the_reference_regions(
            bits in proptest::prelude::any::<[u64; 6]>(),
            cut in (0i32..12, 0i32..12, 12i32..30, 12i32..30),
        ) {
            // Three in four cells labelled, a quarter of those 2.
            let (label, two) = (bits[0] | bits[1], bits[2] & bits[3]);
            let rows: Vec<String> = (0..8)
                .map(|z| {
                    (0..8)
                        .map(|x| match (label >> (z * 8 + x) & 1, two >> (z * 8 + x) & 1) {
                            (0, _) => '.',
                            (_, 0) => '1',
                            _ => '2',
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let core = TileRect { x0: cut.0, z0: cut.1, x1: cut.2, z1: cut.3, pad: 0 };
            patterned(&rows, Some(core), bits[4], bits[5] & bits[4]);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Random blocks (steps, ledges, stacked decks, so regions that
        /// overlap themselves in plan), every pass, each partition or one
        /// label for all, the core whole or cut: the regions are the
        /// reference's.
        #[test]
        fn random_levels_trace_the_reference_regions(
            blocks in crate::heightfield::tests::small_blocks(8),
            kind in 0usize..3,
            min_area in 0u32..30,
            cut in 0i32..12,
            one_label in proptest::prelude::any::<bool>(),
        ) {
            let m = crate::heightfield::tests::floor_with(4., 4., &blocks);
            let (g, mut hf, f) = build(&m, "stand,crouch,prone,swim,sidestep");
            let p = crate::settings::PartitionParams {
                kind: [
                    crate::settings::Partition::Watershed,
                    crate::settings::Partition::Monotone,
                    crate::settings::Partition::Layers,
                ][kind],
                min_area,
                merge_area: 4 * min_area,
            };
            let flat = vec![0; hf.spans.len()];
            let mut parts = partition_tile(&hf, &f, &flat, p);
            if one_label {
                // Each pass's walkable area one label, each of its pieces a
                // region: decks over floors joined by steps make pieces
                // that overlap themselves.
                for (part, pf) in parts.iter_mut().zip(&f) {
                    part.region.iter_mut().filter(|l| **l != NO_REGION).for_each(|l| *l = 1);
                    *part = in_pieces(pf, part);
                }
            }
            hf.rect.x0 += cut;
            hf.rect.z1 -= cut / 2;
            let r = regions_by_reference(&hf, &g, &f, &parts);
            proptest::prop_assert!(r.iter().all(|r| r.rings.iter().map(Ring::area2).sum::<i64>() == 2 * r.spans as i64));
        }
    }

    /// The regions of a tile under the default partition settings.
    /// The partition of every pass with the default settings, all spans
    /// of area 0.
    fn default_parts(hf: &Heightfield, f: &[PassFlags]) -> Vec<PassPartition> {
        let s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
        partition_tile(hf, f, &vec![0; hf.spans.len()], s.partition)
    }

    pub(crate) fn regions_of(hf: &Heightfield, g: &Grid, f: &[PassFlags]) -> Vec<Region> {
        regions(
            hf,
            g,
            f,
            &default_parts(hf, f),
            &vec![0; hf.spans.len()],
            true,
        )
    }

    #[test]
    fn a_platform_gives_one_ccw_ring_with_obstacle_edges() {
        let m = boxes(&[([0., -0.1, 0.], [4., 0., 4.])]);
        let (g, hf, f) = build(&m, "stand");
        let r = regions_of(&hf, &g, &f);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rings.len(), 1);
        let ring = &r[0].rings[0];
        assert_eq!(ring.area2(), 2 * 32 * 32, "cells 4..36 on both axes");
        assert!(ring.class.iter().all(|c| *c == EdgeClass::Obstacle));
        assert!(ring.h.iter().all(|h| h.abs() < 1e-6));
    }

    #[test]
    fn a_pillar_makes_a_hole_and_the_later_pass_shares_its_edges() {
        let m = boxes(&[
            ([0., -0.1, 0.], [6., 0., 6.]),
            ([2.7, 0., 2.7], [3.3, 3., 3.3]),
        ]);
        let (g, hf, f) = crate::flags::tests::build_with(&m, "stand,sidestep", false);
        // Every region merged into one per connected area.
        let one = crate::settings::PartitionParams {
            kind: crate::settings::Partition::Watershed,
            min_area: 0,
            merge_area: u32::MAX,
        };
        let flat = vec![0; hf.spans.len()];
        let r = regions(
            &hf,
            &g,
            &f,
            &partition_tile(&hf, &f, &flat, one),
            &flat,
            true,
        );
        let stand: Vec<_> = r.iter().filter(|r| r.stance == Stance::Stand).collect();
        assert_eq!(stand.len(), 1);
        assert_eq!(stand[0].rings.len(), 2);
        let areas: Vec<i64> = stand[0].rings.iter().map(Ring::area2).collect();
        assert!(
            areas.iter().any(|&a| a > 0) && areas.iter().any(|&a| a < 0),
            "outer and hole: {areas:?}"
        );
        assert!(
            stand[0]
                .rings
                .iter()
                .all(|r| r.class.iter().all(|c| *c == EdgeClass::Shared)),
            "sidestep band all around"
        );
        let side: Vec<_> = r.iter().filter(|r| r.stance == Stance::Sidestep).collect();
        assert_eq!(
            side.len(),
            3,
            "outer band, the band around the pillar and the pillar top"
        );
    }
}
