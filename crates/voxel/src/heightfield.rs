//! The `voxelize` stage, voxelization (§32.2.2): the tile's triangles are clipped to
//! every column they cover and rasterised into solid spans (height ranges of
//! solid voxels); overlapping or touching solid spans merge. The open space
//! above each solid span, up to the next one, is the column of voxels an
//! agent could occupy on that surface: an *open span*. Kirst's per-voxel
//! flags are kept per open span (the voxel on the surface decides for the
//! column of free voxels above it), the way Recast keeps them.
//!
//! A face that looks down is the underside of a solid: the column is solid
//! from it up to the next face that looks up (closed meshes are filled, so
//! no agent is found inside a box standing on a floor); one-sided
//! geometry, with no face above, is left as it is.
//!
//! Water is not solid: each open span records the height of the water
//! surface above its floor (the global water level, or the top of a water
//! volume whose box holds the floor), so its depth is known.
//!
//! Written by hand; Recast's rasterizer was read for the clipping scheme.

use glam::{DVec3, Vec3};
use navscope_core::StageError;
use navscope_core::geom::TriMesh;
use serde::Serialize;

use crate::grid::{Grid, TileRect};

/// Most spans one tile may hold before the build stops with an error.
pub const MAX_SPANS: usize = 1 << 25;

/// Marks an open span with no solid above it.
pub const OPEN: u16 = u16::MAX;

/// A solid span and the open span above it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Span {
    /// Bottom of the solid span (height units).
    pub base: u16,
    /// Top of the solid span = floor of the open span.
    pub floor: u16,
    /// Bottom of the next solid span above ([`OPEN`] when none).
    pub ceil: u16,
    /// Up component of the unit normal of the surface at the top.
    pub ny: f32,
    /// World height of the water surface above the floor (NaN: dry).
    pub water: f32,
}

impl Span {
    /// Water depth at the floor (0 when dry).
    pub fn depth(&self, grid: &Grid) -> f64 {
        if self.water.is_nan() {
            0.0
        } else {
            (self.water as f64 - grid.y(self.floor)).max(0.0)
        }
    }
}

/// The spans of one padded tile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Heightfield {
    /// The tile's cells.
    pub rect: TileRect,
    /// First padded column (global).
    pub px: i32,
    /// First padded row (global).
    pub pz: i32,
    /// Padded columns.
    pub w: i32,
    /// Padded rows.
    pub d: i32,
    /// `cols[c]..cols[c + 1]` are column `c`'s spans, bottom up.
    pub cols: Vec<u32>,
    /// All spans.
    pub spans: Vec<Span>,
}

impl Heightfield {
    /// Column index of global cell `(x, z)`, if inside the padded tile.
    pub fn col(&self, x: i32, z: i32) -> Option<usize> {
        let (lx, lz) = (x - self.px, z - self.pz);
        (lx >= 0 && lz >= 0 && lx < self.w && lz < self.d).then(|| (lz * self.w + lx) as usize)
    }

    /// Global cell of column `c`.
    pub fn cell(&self, c: usize) -> (i32, i32) {
        (self.px + (c as i32 % self.w), self.pz + (c as i32 / self.w))
    }

    /// Every column `c` with its global cell, row by row: [`Self::cell`]
    /// of each column without a division each (the per-column loops of
    /// the compact stage and the outline tracing went through one).
    pub fn cells(&self) -> impl Iterator<Item = (usize, (i32, i32))> + '_ {
        self.cells_in(0..self.cols.len() - 1)
    }

    /// [`Self::cells`] of the columns `columns` (whole rows: from the
    /// start of a row to the end of one).
    pub fn cells_in(
        &self,
        columns: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (usize, (i32, i32))> + '_ {
        let w = self.w as usize;
        let rows = columns.start / w..columns.end / w;
        let first = columns.start;
        rows.flat_map(move |lz| {
            let z = self.pz + lz as i32;
            (self.px..self.px + self.w).map(move |x| (x, z))
        })
        .enumerate()
        .map(move |(i, cell)| (first + i, cell))
    }

    /// Span index range of column `c`.
    pub fn range(&self, c: usize) -> std::ops::Range<usize> {
        self.cols[c] as usize..self.cols[c + 1] as usize
    }

    /// Indices of the columns of the tile's core, row by row.
    pub fn core_columns(&self) -> impl Iterator<Item = usize> + '_ {
        let r = self.rect;
        let w = self.w as usize;
        let (x0, x1) = ((r.x0 - self.px) as usize, (r.x1 - self.px) as usize);
        ((r.z0 - self.pz) as usize..(r.z1 - self.pz) as usize)
            .flat_map(move |z| z * w + x0..z * w + x1)
    }

    /// Column of every span.
    pub fn span_columns(&self) -> Vec<u32> {
        let mut v = vec![0u32; self.spans.len()];
        for c in 0..self.cols.len() - 1 {
            for s in self.range(c) {
                v[s] = c as u32;
            }
        }
        v
    }
}

/// `v.floor() as i64` without a libm call, for values far inside the i64
/// range (cell coordinates; an `f32` converts exactly).
pub(crate) fn floor(v: f64) -> i64 {
    let i = v as i64;
    if (i as f64) > v { i - 1 } else { i }
}

/// `v.floor() as i32` (saturating, NaN to 0) without a libm call, for any
/// value.
pub(crate) fn floor_i32(v: f64) -> i32 {
    // Inside the i32 range the floor is exact and converts exactly.
    floor(v.clamp(f64::from(i32::MIN), f64::from(i32::MAX))) as i32
}

/// `v.floor() as i64` (saturating, NaN to 0) without a libm call, for any
/// value.
pub(crate) fn floor_i64(v: f64) -> i64 {
    // -2^63 and 2^63 convert to the ends of the i64 range, which [`floor`]
    // keeps.
    floor(v.clamp(i64::MIN as f64, -(i64::MIN as f64)))
}

/// `v.clamp(0, top).ceil()` and `v.clamp(0, top).floor()` in voxels,
/// without a libm call (`top` is a whole number below 2^16; NaN gives 0,
/// as it did through an integer floor and clamp).
fn voxel_range(lo: f32, hi: f32, top: f32) -> (u16, u16) {
    let (lo, hi) = (lo.clamp(0.0, top), hi.clamp(0.0, top));
    let (l, h) = (lo as u16, hi as u16);
    (l, if f32::from(h) < hi { h + 1 } else { h })
}

/// The voxels `lo..hi` of a piece of a face with normal height `ny`, at
/// least one: a flat face on a grid line (`lo == hi`) tops its voxel there
/// unless it faces down (a floor; at height 0 it takes the voxel above)
/// and bottoms its voxel there when it faces down (a ceiling).
fn piece_voxels((lo, hi): (u16, u16), ny: f32) -> (u16, u16) {
    let lo = lo.min(hi);
    if lo != hi {
        (lo, hi)
    } else if ny >= 0.0 && lo > 0 {
        (lo - 1, hi)
    } else {
        (lo, hi + 1)
    }
}

/// Most corners a clipped piece keeps: a triangle cut by the four planes
/// of a cell has 7.
pub(crate) const MAX_CORNERS: usize = 8;

/// A point in grid units: cells along x and z, voxels along y.
type P3 = [f32; 3];

/// A point of a row cut off the triangle, in grid units: cells along x,
/// voxels along y. The row's cells are cut along x only, so its corners'
/// z is never read again and is not carried (a third less to interpolate
/// and store per corner).
type P2 = [f32; 2];

/// Where the corners of one side of a cut go, the cut's points having `N`
/// coordinates.
trait Sink<const N: usize> {
    /// Takes the next corner if `keep`; corners past [`MAX_CORNERS`] are
    /// dropped. Without a branch on `keep`: which side of a cut a corner
    /// lies on follows the geometry, and a branch on it made a fifth of the
    /// stage's mispredicted branches.
    fn put_if(&mut self, p: [f32; N], keep: bool);

    /// Ends a cut: drops the corners past [`MAX_CORNERS`] if they were
    /// taken.
    #[inline(always)]
    fn finish(&mut self) {}

    /// Takes the next corner.
    #[inline(always)]
    fn put(&mut self, p: [f32; N]) {
        self.put_if(p, true);
    }
}

/// Room for the corners one side of a cut may take: each of at most
/// [`MAX_CORNERS`] corners and the crossing after it (a power of two, so
/// that a mask keeps the index in bounds without a test).
const CUT_ROOM: usize = 2 * MAX_CORNERS;

/// A convex polygon of at most [`MAX_CORNERS`] corners of `N` coordinates,
/// kept in place (one per row or cell being cut, reused from triangle to
/// triangle). A cut writes every corner it keeps, and then drops those past
/// [`MAX_CORNERS`] ([`Sink::finish`]), which keeps the same ones as
/// dropping them as they came.
#[derive(Clone, Copy)]
struct Buf<const N: usize> {
    pts: [[f32; N]; CUT_ROOM],
    n: usize,
}

impl<const N: usize> Buf<N> {
    const EMPTY: Self = Buf {
        pts: [[0.0; N]; CUT_ROOM],
        n: 0,
    };

    fn corners(&self) -> &[[f32; N]] {
        &self.pts[..self.n]
    }

    /// Smallest and largest coordinate `axis` of the corners.
    fn range(&self, axis: usize) -> (f32, f32) {
        let mut lo = f32::INFINITY;
        let mut hi = f32::NEG_INFINITY;
        for p in self.corners() {
            (lo, hi) = widen((lo, hi), p[axis], true);
        }
        (lo, hi)
    }

    /// Takes corner `p` if `keep` (see [`Sink::put_if`]); a cut of at
    /// most [`MAX_CORNERS`] corners takes at most [`CUT_ROOM`], so the
    /// mask changes no index.
    #[inline(always)]
    fn push_if(&mut self, p: [f32; N], keep: bool) {
        self.pts[self.n & (CUT_ROOM - 1)] = p;
        self.n += usize::from(keep);
    }
}

impl<const N: usize> Sink<N> for Buf<N> {
    #[inline(always)]
    fn put_if(&mut self, p: [f32; N], keep: bool) {
        self.push_if(p, keep);
    }

    #[inline(always)]
    fn finish(&mut self) {
        self.n = self.n.min(MAX_CORNERS);
    }
}

/// A row's corners as the row's cuts along x read them: without z.
impl Sink<3> for Buf<2> {
    #[inline(always)]
    fn put_if(&mut self, [x, y, _]: P3, keep: bool) {
        self.push_if([x, y], keep);
    }

    #[inline(always)]
    fn finish(&mut self) {
        self.n = self.n.min(MAX_CORNERS);
    }
}

/// `(lo, hi)` widened to `v` if `keep`, selected rather than branched on;
/// as `(lo.min(v), hi.max(v))` for the values met here (`lo` and `hi` are
/// never NaN, and a NaN `v` is ignored by both).
#[inline(always)]
fn widen((lo, hi): (f32, f32), v: f32, keep: bool) -> (f32, f32) {
    (
        if keep & (v < lo) { v } else { lo },
        if keep & (v > hi) { v } else { hi },
    )
}

/// The side of a cut that is one cell: only its corner count and height
/// range matter, so its corners are not stored. `CAPPED`: corners past
/// [`MAX_CORNERS`] are dropped as they come; else every corner is taken
/// (no test per corner), which is the same unless the piece has more
/// ([`cell`] then cuts it again, capped).
struct Heights<const CAPPED: bool> {
    n: usize,
    lo: f32,
    hi: f32,
}

impl<const CAPPED: bool> Heights<CAPPED> {
    const EMPTY: Self = Heights {
        n: 0,
        lo: f32::INFINITY,
        hi: f32::NEG_INFINITY,
    };
}

impl<const CAPPED: bool> Sink<2> for Heights<CAPPED> {
    #[inline(always)]
    fn put_if(&mut self, p: P2, keep: bool) {
        let keep = keep & (!CAPPED || self.n < MAX_CORNERS);
        self.n += usize::from(keep);
        (self.lo, self.hi) = widen((self.lo, self.hi), p[1], keep);
    }
}

/// The side of a cut outside the tile.
struct Discard;

impl<const N: usize> Sink<N> for Discard {
    #[inline(always)]
    fn put_if(&mut self, _: [f32; N], _: bool) {}
}

/// Cuts convex polygon `src` by the plane `coord(AXIS) = v`, in one walk
/// round it: the part at or below the plane goes to `lo`, the part at or
/// above to `hi` (a corner on the plane goes to both). Each corner's side
/// is measured once; a crossing edge gives both parts the same new corner,
/// placed on the plane exactly.
#[inline(always)]
fn cut<const AXIS: usize, const N: usize>(
    src: &[[f32; N]],
    v: f32,
    lo: &mut impl Sink<N>,
    hi: &mut impl Sink<N>,
) {
    let Some((&first, rest)) = src.split_first() else {
        return;
    };
    // Corner `a` and the edge from it to `b`; `da` is `a`'s side.
    let mut edge = |a: [f32; N], da: f32, b: [f32; N]| {
        let db = b[AXIS] - v;
        lo.put_if(a, da <= 0.0);
        hi.put_if(a, da >= 0.0);
        if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
            let t = da / (da - db);
            let mut x = [0.0; N];
            for k in 0..N {
                x[k] = a[k] + (b[k] - a[k]) * t;
            }
            x[AXIS] = v;
            lo.put(x);
            hi.put(x);
        }
        db
    };
    // The edges in order, the last one back to the first corner (no
    // index wrapped round per corner).
    let (mut a, mut da) = (first, first[AXIS] - v);
    for &b in rest {
        da = edge(a, da, b);
        a = b;
    }
    edge(a, da, first);
    lo.finish();
    hi.finish();
}

/// Rasterises one triangle (corners in grid units, `normal` its unit
/// normal) over the columns `[x0, x1) x [z0, z1)` of `bounds` = `(x0, z0,
/// x1, z1)`: cuts it into rows along z, each row into cells along x
/// (Recast's scheme, in two reused buffers per axis, nothing allocated),
/// and calls `emit(x, z, ylo, yhi)` with the height range of every cell
/// piece of three or more corners, rows in increasing z, cells in
/// increasing x.
///
/// The cuts start at `origin` = `(ox, oz)` (at most `(x0, z0)`): the
/// triangle is cut once at row `oz` if it reaches below it, then row by
/// row, and each row once at column `ox`, then cell by cell, whatever part
/// of that `bounds` keeps. A cell's piece therefore depends on the
/// triangle, the cell and the origin only, not on the bounds: a block of
/// columns rasterised on its own gives the columns a larger block with the
/// same origin gives (the rounding of the cuts follows their sequence).
fn rasterize(
    tri: [P3; 3],
    normal: Vec3,
    (ox, oz): (i64, i64),
    bounds: (i64, i64, i64, i64),
    mut emit: impl FnMut(i64, i64, f32, f32),
) {
    let (bx0, bz0, bx1, bz1) = bounds;
    // What is left of the triangle above the rows done, cut from one of
    // the two buffers into the other (`rows[r]` is current).
    let mut rows = [Buf::<3>::EMPTY; 2];
    let mut r = 0;
    rows[0].pts[..3].copy_from_slice(&tri);
    rows[0].n = 3;
    let (zmin, zmax) = rows[0].range(2);
    let (z0, zlast) = cells_of(zmin, zmax, normal.z);
    let z0 = z0.max(oz);
    let z1 = zlast.min(bz1 - 1);
    if z0.max(bz0) > z1 {
        return;
    }
    if (z0 as f32) > zmin {
        let (src, dst) = pair(&mut rows, r);
        cut::<2, 3>(src.corners(), z0 as f32, &mut Discard, dst);
        r ^= 1;
    }
    // Rows between the origin and the bounds are cut off and dropped (none
    // is the last: the bounds hold a later row).
    for z in z0..bz0 {
        let (src, dst) = pair(&mut rows, r);
        cut::<2, 3>(src.corners(), (z + 1) as f32, &mut Discard, dst);
        r ^= 1;
    }
    let mut row_buf = Buf::<2>::EMPTY;
    let (mut ca, mut cb) = (Buf::<2>::EMPTY, Buf::<2>::EMPTY);
    for z in z0.max(bz0)..=z1 {
        row_buf.n = 0;
        if z == zlast {
            for &p in rows[r].corners() {
                row_buf.put(p);
            }
        } else {
            let (src, dst) = pair(&mut rows, r);
            cut::<2, 3>(src.corners(), (z + 1) as f32, &mut row_buf, dst);
            r ^= 1;
        }
        let row = &row_buf;
        if row.n < 3 {
            continue;
        }
        let (xmin, xmax) = row.range(0);
        let (x0, xlast) = cells_of(xmin, xmax, normal.x);
        let x0 = x0.max(ox);
        let x1 = xlast.min(bx1 - 1);
        if x0.max(bx0) > x1 {
            continue;
        }
        // The row right of the cells done, in `ca` for even steps from
        // `x0` and in `cb` for odd ones: each cell is cut off the one into
        // the other. Two named buffers rather than an indexed pair, so
        // the compiler keeps their counts in registers. Cells left of the
        // bounds are cut and not emitted.
        ca.n = 0;
        if (x0 as f32) > xmin {
            cut::<0, 2>(row.corners(), x0 as f32, &mut Discard, &mut ca);
        } else {
            for &p in row.corners() {
                ca.put(p);
            }
        }
        let mut x = x0;
        loop {
            let piece = cell(&ca, &mut cb, x, x == xlast);
            if piece.n >= 3 && x >= bx0 {
                emit(x, z, piece.lo, piece.hi);
            }
            x += 1;
            if x > x1 {
                break;
            }
            let piece = cell(&cb, &mut ca, x, x == xlast);
            if piece.n >= 3 && x >= bx0 {
                emit(x, z, piece.lo, piece.hi);
            }
            x += 1;
            if x > x1 {
                break;
            }
        }
    }
}

/// Cell `x` of what is left of a row, `src`: the whole of it when `last`,
/// else the part up to `x + 1`, the rest going to `dst`. Only the cell's
/// corner count and height range are kept.
#[inline(always)]
fn cell(src: &Buf<2>, dst: &mut Buf<2>, x: i64, last: bool) -> Heights<false> {
    let mut cell = Heights::EMPTY;
    if last {
        for &p in src.corners() {
            cell.put(p);
        }
    } else {
        dst.n = 0;
        let v = (x + 1) as f32;
        cut::<0, 2>(src.corners(), v, &mut cell, dst);
        if cell.n > MAX_CORNERS {
            // Only where rounding made the row concave: the first corners
            // up to the limit, as they came.
            let mut capped = Heights::<true>::EMPTY;
            cut::<0, 2>(src.corners(), v, &mut capped, &mut Discard);
            cell = Heights {
                n: capped.n,
                lo: capped.lo,
                hi: capped.hi,
            };
        }
    }
    cell
}

/// Buffer `i` of the two to read, and the other, emptied, to write.
#[inline(always)]
fn pair(b: &mut [Buf<3>; 2], i: usize) -> (&Buf<3>, &mut Buf<3>) {
    let [x, y] = b;
    let (src, dst) = if i == 0 { (x, y) } else { (y, x) };
    dst.n = 0;
    (src, dst)
}

/// The first and last cell (along one axis, in cells) that a face piece
/// spanning `[lo, hi]` there touches, `nk` being the face normal's
/// component along that axis. Cells are half-open, so a piece is in the
/// cells `floor(lo)..=floor(hi)`, except a face lying in a grid plane
/// (`lo == hi`, a whole number): it belongs to the cell behind it, the side
/// its normal looks away from, as that is where the solid it bounds is. A
/// stair riser exactly on a grid line (common on Quake's 16-unit grid) would
/// otherwise give the lower step's cell a vertical top at the upper step's
/// height, which is not walkable and cuts the stair off.
pub(crate) fn cells_of(lo: f32, hi: f32, nk: f32) -> (i64, i64) {
    let (a, b) = (floor(f64::from(lo)), floor(f64::from(hi)));
    if lo == hi && a as f32 == lo && nk > 0.5 {
        (a - 1, a - 1)
    } else {
        (a, b)
    }
}

/// A clipped piece `(base, top, ny)` as one integer whose order is the
/// order of `(base, top, ny)` (the normal by [`f32::total_cmp`]).
fn piece_key(lo: u16, hi: u16, ny: f32) -> u64 {
    let b = ny.to_bits();
    // Negative floats reversed, positive ones above them: total order.
    let ord = if b >> 31 == 1 { !b } else { b | 1 << 31 };
    (lo as u64) << 48 | (hi as u64) << 32 | ord as u64
}

/// The inverse of [`piece_key`].
pub(crate) fn piece_of(k: u64) -> (u16, u16, f32) {
    let ord = k as u32;
    let b = if ord >> 31 == 1 {
        ord & !(1 << 31)
    } else {
        !ord
    };
    ((k >> 48) as u16, (k >> 32) as u16, f32::from_bits(b))
}

/// Sorts one column's pieces ([`piece_key`]s) and appends the column's
/// spans, bottom up, to `spans`: faces looking down are closed up to the
/// next face looking up, and overlapping or touching pieces merge. One walk
/// over the sorted keys: each piece is decoded where it is read (the keys
/// are never changed, so a face looking down searches the pieces above it
/// as they came), and a span's ceiling is set when the next one starts.
fn column_spans(keys: &mut [u64], spans: &mut Vec<Span>) {
    // By base, then top, then normal (the key orders them so).
    sort_keys(keys);
    let first = spans.len();
    for i in 0..keys.len() {
        let (lo, mut hi, ny) = piece_of(keys[i]);
        // Closed solids: a face looking down is the bottom of a solid, so
        // the column is solid from it up to the next face looking up.
        if ny < -0.01
            // Sorted by base: the first such face is the lowest.
            && let Some(top) = keys[i + 1..]
                .iter()
                .map(|&k| piece_of(k))
                .find(|q| q.2 > 0.01 && q.1 > hi)
                .map(|q| q.0)
        {
            hi = hi.max(top);
        }
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
            last.ceil = lo;
        }
        spans.push(Span {
            base: lo,
            floor: hi,
            ceil: OPEN,
            ny,
            water: f32::NAN,
        });
    }
}

/// Sorts a column's keys: compare-exchanges for two or three pieces, an
/// insertion sort up to 16 (for the few pieces most columns hold the
/// library sort's set-up cost more than the sorting), the library's sort
/// for more.
pub(crate) fn sort_keys(keys: &mut [u64]) {
    match keys.len() {
        0 | 1 => {}
        // Compare-exchanges, selected rather than branched on (the order
        // of two pieces is a coin toss to the branch predictor).
        2 => exchange(keys, 0, 1),
        3 => {
            exchange(keys, 0, 1);
            exchange(keys, 1, 2);
            exchange(keys, 0, 1);
        }
        4..=16 => {
            for i in 1..keys.len() {
                let k = keys[i];
                let mut j = i;
                while j > 0 && keys[j - 1] > k {
                    keys[j] = keys[j - 1];
                    j -= 1;
                }
                keys[j] = k;
            }
        }
        _ => keys.sort_unstable(),
    }
}

/// Puts `keys[i]` and `keys[j]` (`i < j`) in order.
#[inline(always)]
fn exchange(keys: &mut [u64], i: usize, j: usize) {
    let (a, b) = (keys[i], keys[j]);
    keys[i] = a.min(b);
    keys[j] = a.max(b);
}

/// The spans of the block of columns `rect` = `(x0, z0, x1, z1)` (global
/// cells, half-open) of `triangles`, cut from `origin` (see [`rasterize`]):
/// `cols[c]..cols[c + 1]` are column `c`'s spans (row-major in the block),
/// bottom up; no water. `owner` names the tile in the error past
/// [`MAX_SPANS`].
pub(crate) fn block_spans(
    mesh: &TriMesh,
    triangles: &[u32],
    grid: &Grid,
    origin: (i32, i32),
    rect: (i32, i32, i32, i32),
    owner: usize,
) -> Result<(Vec<u32>, Vec<Span>), StageError> {
    let (px, pz, px1, pz1) = rect;
    let (w, d) = (px1 - px, pz1 - pz);
    let ncols = (w as usize) * (d as usize);
    // (column, piece_key(base, top, ny)) of every clipped piece.
    let mut pieces: Vec<(u32, u64)> = Vec::new();
    let (cs, ch) = (grid.cs, grid.ch);
    let max_h = (crate::grid::MAX_HEIGHT_UNITS - 1) as f32;
    for &t in triangles {
        let [a, b, c] = mesh.triangle(t as usize);
        let n = (b - a).cross(c - a).normalize_or_zero();
        if n == glam::Vec3::ZERO {
            continue;
        }
        // Corners in cells (x, z) and voxels (y) from the grid origin.
        let rel = |p: Vec3| {
            ((p.as_dvec3() - grid.origin) / DVec3::new(cs, ch, cs))
                .as_vec3()
                .to_array()
        };
        rasterize(
            [rel(a), rel(b), rel(c)],
            n,
            (origin.0 as i64, origin.1 as i64),
            (px as i64, pz as i64, px1 as i64, pz1 as i64),
            |x, z, ylo, yhi| {
                let (lo, hi) = piece_voxels(voxel_range(ylo + 1e-4, yhi - 1e-4, max_h), n.y);
                let col = (z as i32 - pz) as u32 * w as u32 + (x as i32 - px) as u32;
                pieces.push((col, piece_key(lo, hi, n.y)));
            },
        );
        // The pieces only grow: past the limit after this triangle if and
        // only if past it after some piece of it.
        if pieces.len() > MAX_SPANS {
            return Err(too_many_spans(owner));
        }
    }
    // Counting sort by column, then merge each column bottom up.
    let mut cols = vec![0u32; ncols + 1];
    for p in &pieces {
        cols[p.0 as usize + 1] += 1;
    }
    for i in 0..ncols {
        cols[i + 1] += cols[i];
    }
    let mut order = vec![0u64; pieces.len()];
    let mut next = cols.clone();
    for &(c, key) in &pieces {
        let slot = &mut next[c as usize];
        order[*slot as usize] = key;
        *slot += 1;
    }
    drop(pieces);
    let mut spans = Vec::with_capacity(order.len() / 2);
    let mut out_cols = vec![0u32; ncols + 1];
    for c in 0..ncols {
        let keys = &mut order[cols[c] as usize..cols[c + 1] as usize];
        if !keys.is_empty() {
            column_spans(keys, &mut spans);
        }
        out_cols[c + 1] = spans.len() as u32;
    }
    Ok((out_cols, spans))
}

/// The error of a tile past [`MAX_SPANS`].
pub(crate) fn too_many_spans(tile: usize) -> StageError {
    StageError::failed(format!(
        "tile {tile} needs more than {MAX_SPANS} voxel spans; raise cell_size or cell_height"
    ))
}

/// Whether `apply_water` (the voxelize stage's) with these water `volumes`
/// and `level` may wet any span (when not, every span of the tile is dry).
pub fn may_wet(volumes: &[navscope_core::geom::Aabb], level: Option<f64>) -> bool {
    !volumes.is_empty() || level.is_some()
}

/// Records the water depth of `hf`'s spans: under the water `level`, and
/// in the water `volumes` (their tops are the surfaces).
pub(crate) fn apply_water(
    hf: &mut Heightfield,
    grid: &Grid,
    volumes: &[navscope_core::geom::Aabb],
    level: Option<f64>,
) {
    if !may_wet(volumes, level) {
        return;
    }
    for c in 0..hf.cols.len() - 1 {
        let (x, z) = hf.cell(c);
        let (cx, cz) = (grid.x(x) + grid.cs * 0.5, grid.z(z) + grid.cs * 0.5);
        for s in hf.range(c) {
            let fy = grid.y(hf.spans[s].floor);
            let mut surface = f64::NEG_INFINITY;
            if let Some(l) = level.filter(|&l| l > fy) {
                surface = l;
            }
            for v in volumes {
                if cx >= v.min.x
                    && cx <= v.max.x
                    && cz >= v.min.z
                    && cz <= v.max.z
                    && fy >= v.min.y - grid.ch
                    && fy < v.max.y
                {
                    surface = surface.max(v.max.y);
                }
            }
            if surface.is_finite() {
                hf.spans[s].water = surface as f32;
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::blocks::voxelize;
    use crate::settings::{Settings, specs};
    use crate::tiles::layout;
    use glam::Vec3;
    use navscope_core::ParamValues;
    use navscope_core::geom::Aabb;
    use proptest::prelude::*;

    /// A triangle's corners in grid units: random ones, ones snapped to
    /// grid lines and half cells (faces in grid planes, corners on cell
    /// edges), and degenerate ones (repeated corners, collinear corners),
    /// vertical ones, huge ones (over thousands of cells and past the
    /// height range) and ones outside the bounds.
    fn triangle() -> impl Strategy<Value = [Vec3; 3]> {
        let coord = prop_oneof![-3.0f32..12.0, (-6i32..24).prop_map(|k| k as f32 * 0.5),];
        let corner = (coord.clone(), -2.0f32..20.0, coord).prop_map(|(x, y, z)| Vec3::new(x, y, z));
        (corner.clone(), corner.clone(), corner, 0u8..7, 0.0f32..1.0).prop_map(
            |(a, b, c, kind, t)| match kind {
                // Two corners at one point.
                0 => [a, b, a],
                // Three collinear corners.
                1 => [a, b, a + (b - a) * t],
                // A face in a grid plane of x or z.
                2 => [a, Vec3::new(a.x, b.y, b.z), Vec3::new(a.x, c.y, c.z)],
                // A vertical face (a wall along any direction).
                3 => [a, Vec3::new(b.x, a.y, b.z), Vec3::new(a.x, c.y, a.z)],
                // Huge: spread over thousands of cells round the bounds.
                4 => [a * 1000.0, b * -700.0, c * 300.0],
                // Outside the bounds (beyond either end of x or z).
                5 => {
                    let off = if t < 0.5 {
                        Vec3::new(-30.0, 0.0, 0.0)
                    } else {
                        Vec3::new(0.0, 0.0, 40.0)
                    };
                    [a + off, b + off, c + off]
                }
                _ => [a, b, c],
            },
        )
    }

    /// A span's `(base, floor, ceil, ny)`, the normal by its bits.
    type SpanBits = (u16, u16, u16, u32);

    /// The columns `(px, pz, px1, pz1)` of `triangles` as the reference clipping
    /// from the corner `origin` (at most `(px, pz)`) and the reference merge give
    /// them ([`crate::reference::reference_pieces`], [`crate::reference::reference_column_spans`]): the columns'
    /// span ends and the spans' `(base, floor, ceil, ny)`.
    fn reference_heightfield(
        mesh: &TriMesh,
        triangles: &[u32],
        grid: &Grid,
        origin: (i32, i32),
        (px, pz, px1, pz1): (i32, i32, i32, i32),
    ) -> (Vec<u32>, Vec<SpanBits>) {
        let w = px1 - px;
        let ncols = (w * (pz1 - pz)) as usize;
        let max_h = (crate::grid::MAX_HEIGHT_UNITS - 1) as f32;
        let mut cols: Vec<Vec<u64>> = vec![Vec::new(); ncols];
        for &t in triangles {
            let [a, b, c] = mesh.triangle(t as usize);
            let n = (b - a).cross(c - a).normalize_or_zero();
            if n == Vec3::ZERO {
                continue;
            }
            let rel = |p: Vec3| {
                ((p.as_dvec3() - grid.origin) / DVec3::new(grid.cs, grid.ch, grid.cs)).as_vec3()
            };
            let bounds = (origin.0 as i64, origin.1 as i64, px1 as i64, pz1 as i64);
            let pieces = crate::reference::reference_pieces([rel(a), rel(b), rel(c)], n, bounds);
            for (x, z, ylo, yhi) in pieces
                .into_iter()
                .filter(|&(x, z, _, _)| x >= px as i64 && z >= pz as i64)
            {
                let lo = ((ylo + 1e-4).floor() as i64).clamp(0, max_h as i64) as u16;
                let hi = ((yhi - 1e-4).ceil() as i64).clamp(0, max_h as i64) as u16;
                let (lo, hi) = piece_voxels((lo, hi), n.y);
                cols[((z as i32 - pz) * w + (x as i32 - px)) as usize].push(piece_key(lo, hi, n.y));
            }
        }
        let (mut ends, mut spans) = (vec![0u32], Vec::new());
        for mut keys in cols {
            crate::reference::reference_column_spans(&mut keys, &mut Vec::new(), &mut spans);
            ends.push(spans.len() as u32);
        }
        let spans = spans
            .iter()
            .map(|s| (s.base, s.floor, s.ceil, s.ny.to_bits()))
            .collect();
        (ends, spans)
    }

    /// A piece keeps its voxels; a flat one gets the voxel under it when its
    /// normal does not point down (the one over it at the bottom of the
    /// grid) and the one over it when it does.
    #[test]
    fn a_flat_piece_takes_one_voxel_by_the_way_it_faces() {
        assert_eq!(piece_voxels((3, 7), 1.0), (3, 7));
        assert_eq!(piece_voxels((5, 5), 1.0), (4, 5));
        assert_eq!(piece_voxels((0, 0), 1.0), (0, 1));
        assert_eq!(piece_voxels((5, 5), -1.0), (5, 6));
        assert_eq!(piece_voxels((5, 5), 0.0), (4, 5));
        // A rounded range that crossed over is taken as flat at its top.
        assert_eq!(piece_voxels((6, 5), -0.5), (5, 6));
    }

    /// Corners of a cell's piece past the corner limit are dropped as they
    /// come, as the reference clipping drops them: here a row made concave by
    /// rounding (eight corners, one past the cut) would give the cell nine.
    #[test]
    fn a_cell_piece_past_the_corner_limit_keeps_its_first_corners() {
        let corners = [
            [0.1, 0.0],
            [0.2, 1.0],
            [0.3, 2.0],
            [2.0, 5.0],
            [0.4, 3.0],
            [0.5, 4.0],
            [0.6, 6.0],
            [0.7, 100.0],
        ];
        let mut src = Buf::<2>::EMPTY;
        for p in corners {
            src.put(p);
        }
        let mut rest = Buf::<2>::EMPTY;
        let piece = cell(&src, &mut rest, 0, false);
        let mut poly = crate::reference::EMPTY;
        for (i, [x, y]) in corners.into_iter().enumerate() {
            poly.0[i] = Vec3::new(x, y, 0.0);
        }
        poly.1 = corners.len();
        let (old, old_rest) = crate::reference::reference_split(&poly, 0, 1.0);
        let ys = old.0[..old.1].iter().map(|p| p.y);
        let want = (
            ys.clone().fold(f32::INFINITY, f32::min),
            ys.fold(f32::NEG_INFINITY, f32::max),
        );
        assert_eq!(old.1, MAX_CORNERS);
        assert_eq!((piece.n, piece.lo, piece.hi), (old.1, want.0, want.1));
        assert!(piece.hi < 100.0, "the ninth corner is dropped");
        let old_rest: Vec<[f32; 2]> = old_rest.0[..old_rest.1]
            .iter()
            .map(|p| [p.x, p.y])
            .collect();
        assert_eq!(old_rest.len(), 3);
        assert_eq!(rest.corners(), old_rest.as_slice());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whole tiles of random triangle soups (every kind of
        /// [`triangle`], in metres on a 0.3 m by 0.2 m grid, cut into
        /// tiles, some of them built) voxelize to the spans the reference
        /// clipping and merge give each padded column from the corner of
        /// the block that owns it: the core of the tile whose core holds
        /// it, out to the padded edge where the grid ends (with one tile,
        /// its padded corner). A soup whose grid is too big to
        /// lay out is left out; huge triangles against small bounds are
        /// [`rasterize`]'s test.
        #[test]
        fn soups_voxelize_as_the_reference_clipping_and_merge_from_each_owned_block(
            soup in proptest::collection::vec((triangle(), any::<bool>()), 1..24),
            tile_size in prop_oneof![Just(0i64), 8i64..24],
            some in proptest::collection::vec(any::<bool>(), 64),
        ) {
            let mut mesh = TriMesh { vertices: Vec::new(), triangles: Vec::new() };
            for (tri, flip) in soup {
                let tri = if flip { [tri[0], tri[2], tri[1]] } else { tri };
                let i = mesh.vertices.len() as u32;
                mesh.vertices.extend(tri.map(|p| p * Vec3::new(0.3, 0.2, 0.3)));
                mesh.triangles.push([i, i + 1, i + 2]);
            }
            let mut s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
            (s.cell_size, s.cell_height, s.tile_size) = (0.3, 0.2, tile_size);
            let Ok(l) = layout(&mesh, &[], &s) else {
                // A soup of zero-area triangles only, or too big a grid.
                return Ok(());
            };
            let (g, ts) = (l.grid, l.tile_cells);
            let built: Vec<usize> = (0..l.tiles.len()).filter(|&i| some[i % 64] || i == 0).collect();
            let hfs = voxelize(&mesh, &l, &built, None).unwrap();
            // The owned block of tile position (tx, tz) and its columns.
            let block = |tx: i32, tz: i32, pad: i32| {
                let (x0, z0) = (tx * ts, tz * ts);
                let (x1, z1) = ((x0 + ts).min(g.width), (z0 + ts).min(g.depth));
                (
                    if x0 == 0 { -pad } else { x0 },
                    if z0 == 0 { -pad } else { z0 },
                    if x1 == g.width { x1 + pad } else { x1 },
                    if z1 == g.depth { z1 + pad } else { z1 },
                )
            };
            let mut blocks = std::collections::BTreeMap::new();
            for (&i, hf) in built.iter().zip(&hfs) {
                let t = &l.tiles[i];
                prop_assert_eq!(hf.rect, t.rect);
                let (px, pz, px1, pz1) = t.rect.padded();
                for z in pz..pz1 {
                    for x in px..px1 {
                        let pos = |c: i32, cells: i32| c.div_euclid(ts).clamp(0, (cells - 1) / ts);
                        let (tx, tz) = (pos(x, g.width), pos(z, g.depth));
                        let owner = l.tiles.iter().find(|o| (o.rect.x0, o.rect.z0) == (tx * ts, tz * ts));
                        let want: Vec<SpanBits> = match owner {
                            None => Vec::new(),
                            Some(o) => {
                                let b = block(tx, tz, o.rect.pad);
                                let (ends, spans) = blocks.entry(o.index).or_insert_with(|| {
                                    reference_heightfield(&mesh, &o.triangles, &g, (b.0, b.1), b)
                                });
                                let c = ((z - b.1) * (b.2 - b.0) + (x - b.0)) as usize;
                                spans[ends[c] as usize..ends[c + 1] as usize].to_vec()
                            }
                        };
                        let c = hf.col(x, z).unwrap();
                        let got: Vec<SpanBits> = hf.spans[hf.range(c)]
                            .iter()
                            .map(|s| (s.base, s.floor, s.ceil, s.ny.to_bits()))
                            .collect();
                        prop_assert_eq!(got, want, "column ({}, {}) of tile {}", x, z, i);
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn rasterize_cuts_every_triangle_as_the_reference_clipping(
            tri in triangle(),
            // Either sign of the normal's x and z decides which cell a
            // face in a grid plane belongs to; the tile's bounds clip.
            flip in any::<bool>(),
            bounds in (-2i64..4, -2i64..4, 4i64..12, 4i64..12),
            // Cuts from the bounds' corner (0) or from an origin before it.
            before in prop_oneof![Just((0i64, 0i64)), (0i64..5, 0i64..5)],
        ) {
            let tri = if flip { [tri[0], tri[2], tri[1]] } else { tri };
            let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize_or_zero();
            let origin = (bounds.0 - before.0, bounds.1 - before.1);
            let old: Vec<_> = crate::reference::reference_pieces(tri, n, (origin.0, origin.1, bounds.2, bounds.3))
                .into_iter()
                .filter(|&(x, z, _, _)| x >= bounds.0 && z >= bounds.1)
                .collect();
            let mut new = Vec::new();
            rasterize(tri.map(|p| p.to_array()), n, origin, bounds, |x, z, lo, hi| new.push((x, z, lo, hi)));
            let bits = |v: &[(i64, i64, f32, f32)]| -> Vec<(i64, i64, u32, u32)> {
                v.iter().map(|&(x, z, l, h)| (x, z, l.to_bits(), h.to_bits())).collect()
            };
            prop_assert_eq!(bits(&new), bits(&old));
        }

        /// One column's merge gives the spans the reference merge gives, for
        /// columns of pieces at few heights (so they overlap, touch and
        /// close solids) with normals up, down and sideways.
        #[test]
        fn column_spans_merge_as_the_reference_merge(
            pieces in proptest::collection::vec(
                (0u16..12, 0u16..6, prop_oneof![Just(1.0f32), Just(-1.0), Just(0.0), Just(0.005), Just(-0.02), -1.0f32..1.0]),
                0..24,
            ),
        ) {
            let keys: Vec<u64> = pieces.iter().map(|&(lo, h, ny)| piece_key(lo, lo + h, ny)).collect();
            let (mut a, mut b) = (keys.clone(), keys);
            let (mut new, mut old) = (vec![Span { base: 1, floor: 2, ceil: OPEN, ny: 1.0, water: f32::NAN }], Vec::new());
            old.push(new[0]);
            column_spans(&mut a, &mut new);
            crate::reference::reference_column_spans(&mut b, &mut Vec::new(), &mut old);
            let bits = |v: &[Span]| -> Vec<(u16, u16, u16, u32)> {
                v.iter().map(|s| (s.base, s.floor, s.ceil, s.ny.to_bits())).collect()
            };
            prop_assert_eq!(bits(&new), bits(&old));
        }

        #[test]
        fn piece_keys_order_as_the_pieces(
            a in (any::<u16>(), any::<u16>(), any::<f32>().prop_filter("a number", |v| !v.is_nan())),
            b in (any::<u16>(), any::<u16>(), any::<f32>().prop_filter("a number", |v| !v.is_nan())),
        ) {
            for p in [a, b] {
                let back = piece_of(piece_key(p.0, p.1, p.2));
                prop_assert_eq!((back.0, back.1, back.2.to_bits()), (p.0, p.1, p.2.to_bits()));
            }
            let by_tuple = a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2));
            prop_assert_eq!(piece_key(a.0, a.1, a.2).cmp(&piece_key(b.0, b.1, b.2)), by_tuple);
        }

        /// The insertion sort of short columns sorts as the library's sort,
        /// with repeated keys, on either side of its length limit.
        #[test]
        fn column_keys_sort_as_the_library_sorts(
            keys in proptest::collection::vec(prop_oneof![0u64..4, any::<u64>()], 0..40),
        ) {
            let mut want = keys.clone();
            want.sort_unstable();
            let mut got = keys;
            sort_keys(&mut got);
            prop_assert_eq!(got, want);
        }

        /// The floor without libm is the library's, for cell coordinates
        /// (whole numbers and values between them, either sign).
        #[test]
        fn floor_is_the_library_floor(
            v in prop_oneof![-1e12f64..1e12, (-100_000i64..100_000).prop_map(|v| v as f64), any::<f32>().prop_filter("finite", |v| v.is_finite() && v.abs() < 1e15).prop_map(f64::from)],
        ) {
            prop_assert_eq!(floor(v), v.floor() as i64);
        }

        /// The saturating floors without libm are the library's floor
        /// converted with `as`, for any value (NaN, infinities and values
        /// beyond either integer range included).
        #[test]
        fn saturating_floors_are_the_library_floors(
            v in prop_oneof![any::<f64>(), -1e20f64..1e20, -3e9f64..3e9, Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(i64::MIN as f64), Just(-(i64::MIN as f64))],
        ) {
            prop_assert_eq!(floor_i32(v), v.floor() as i32);
            prop_assert_eq!(floor_i64(v), v.floor() as i64);
        }

        /// The voxel range without libm is the clamped floor and ceiling
        /// through 64-bit integers it replaced, for any float.
        #[test]
        fn voxel_range_is_the_clamped_floor_and_ceiling(
            lo in prop_oneof![any::<f32>(), -2.0f32..70_000.0, (0u32..70_000).prop_map(|v| v as f32)],
            hi in prop_oneof![any::<f32>(), -2.0f32..70_000.0, (0u32..70_000).prop_map(|v| v as f32)],
        ) {
            let top = (crate::grid::MAX_HEIGHT_UNITS - 1) as i64;
            let want = (
                (lo.floor() as i64).clamp(0, top) as u16,
                (hi.ceil() as i64).clamp(0, top) as u16,
            );
            prop_assert_eq!(voxel_range(lo, hi, top as f32), want);
        }
    }

    /// A mesh of solid axis-aligned boxes `(lo, hi)`, faces wound outward.
    pub(crate) fn boxes(bs: &[([f32; 3], [f32; 3])]) -> TriMesh {
        let mut b = crate::samples::MeshBuilder::new();
        for (lo, hi) in bs {
            b.solid("box", *lo, *hi);
        }
        b.level().mesh
    }

    /// A box `(x, z, width, depth, y, height)` raised on a floor: its
    /// corner, size, bottom and height, as the property tests draw them.
    pub(crate) type Block = (f32, f32, f32, f32, f32, f32);

    /// A floor `w` × `d` metres (a tenth of a metre thick, its top at 0)
    /// with `blocks` on it.
    pub(crate) fn floor_with(w: f32, d: f32, blocks: &[Block]) -> TriMesh {
        let mut bs = vec![([0., -0.1, 0.], [w, 0., d])];
        for &(x, z, bw, bd, y, h) in blocks {
            bs.push(([x, y, z], [x + bw, y + h, z + bd]));
        }
        boxes(&bs)
    }

    /// Up to `n - 1` blocks over a 4 m floor: floors, steps, ledges, low
    /// ceilings and stacked decks at once.
    pub(crate) fn small_blocks(n: usize) -> impl proptest::strategy::Strategy<Value = Vec<Block>> {
        proptest::collection::vec(
            (
                0.0f32..3.5,
                0.0f32..3.5,
                0.1f32..2.0,
                0.1f32..2.0,
                0.0f32..2.5,
                0.05f32..1.0,
            ),
            0..n,
        )
    }

    /// The span of global cell `(x, z)` whose floor is nearest to world height `y`.
    pub(crate) fn span_at(hf: &Heightfield, g: &Grid, x: i32, z: i32, y: f64) -> usize {
        hf.range(hf.col(x, z).unwrap())
            .min_by(|&a, &b| {
                (g.y(hf.spans[a].floor) - y)
                    .abs()
                    .total_cmp(&(g.y(hf.spans[b].floor) - y).abs())
            })
            .unwrap()
    }

    fn one_tile(m: &TriMesh, water: &[Aabb], level: Option<f64>) -> (Grid, Heightfield) {
        let mut s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
        s.tile_size = 0;
        let l = layout(m, water, &s).unwrap();
        let hf = voxelize(m, &l, &[0], level).unwrap().remove(0);
        (l.grid, hf)
    }

    #[test]
    fn a_box_on_a_floor_gives_two_spans_where_it_stands_and_headroom_under_a_table() {
        // Floor 4 x 4 m, 0.1 thick; a table top at 1.4..1.5 over the middle.
        let m = boxes(&[
            ([0., -0.1, 0.], [4., 0., 4.]),
            ([1., 1.4, 1.], [3., 1.5, 3.]),
        ]);
        let (g, hf) = one_tile(&m, &[], None);
        let c = hf.col(20, 20).unwrap();
        assert_eq!(
            hf.range(c).len(),
            2,
            "floor slab and table slab, each with its faces merged"
        );
        let floor = hf.spans[span_at(&hf, &g, 20, 20, 0.0)];
        assert!(
            (g.y(floor.floor) - 0.0).abs() < 1e-6,
            "floor at 0, got {}",
            g.y(floor.floor)
        );
        assert!(
            (g.y(floor.ceil) - 1.4).abs() < 1e-6,
            "ceiling at the table's underside"
        );
        let top = hf.spans[span_at(&hf, &g, 20, 20, 1.5)];
        assert!((g.y(top.floor) - 1.5).abs() < 1e-6);
        assert_eq!(top.ceil, OPEN);
        assert!(floor.ny > 0.99 && top.ny > 0.99);
        assert!((g.y(top.base) - 1.4).abs() < 1e-6);
        let c = hf.col(5, 5).unwrap();
        assert_eq!(hf.range(c).len(), 1);
        // No span outside the floor.
        assert!(
            hf.col(-1, 0)
                .map(|c| hf.range(c).is_empty())
                .unwrap_or(true)
        );
    }

    #[test]
    fn a_riser_on_a_grid_line_belongs_to_the_upper_step_in_every_direction() {
        // A 0.5 m step on a floor, its riser exactly on a grid line, facing
        // each of the four ways: the cells on each side keep their own
        // step's flat, walkable top.
        let riser = 2.0f32;
        for (upper, axis, faces_plus) in [
            (([0., 0., 0.], [4., 0.5, riser]), 2, true),
            (([0., 0., riser], [4., 0.5, 4.]), 2, false),
            (([0., 0., 0.], [riser, 0.5, 4.]), 0, true),
            (([riser, 0., 0.], [4., 0.5, 4.]), 0, false),
        ] {
            let m = boxes(&[([0., -0.1, 0.], [4., 0., 4.]), upper]);
            let (g, hf) = one_tile(&m, &[], None);
            let at = if axis == 0 { g.origin.x } else { g.origin.z };
            let line = (riser as f64 - at) / g.cs;
            assert_eq!(line, line.round(), "the riser lies on a grid line");
            let line = line as i32;
            // The cells just below and above the line along `axis`.
            let (high, low) = if faces_plus {
                (line - 1, line)
            } else {
                (line, line - 1)
            };
            let cell = |k: i32| if axis == 0 { (k, 20) } else { (20, k) };
            for (k, y) in [(high, 0.5), (low, 0.0)] {
                let (x, z) = cell(k);
                let top = hf.spans[hf.range(hf.col(x, z).unwrap()).last().unwrap()];
                assert!(
                    (g.y(top.floor) - y).abs() < 1e-6 && top.ny > 0.99,
                    "axis {axis}, riser facing {}: cell {k} has its top at {} (ny {}), not the flat {y}",
                    if faces_plus { "+" } else { "-" },
                    g.y(top.floor),
                    top.ny
                );
            }
        }
    }

    #[test]
    fn core_columns_and_cells_follow_each_columns_cell() {
        let level = crate::samples::table_room().level();
        let mut s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
        s.tile_size = 37;
        let l = layout(&level.mesh, &[], &s).unwrap();
        assert!(l.tiles.len() > 4);
        let all: Vec<usize> = (0..l.tiles.len()).collect();
        for hf in voxelize(&level.mesh, &l, &all, None).unwrap() {
            let want: Vec<usize> = (0..hf.cols.len() - 1)
                .filter(|&c| {
                    let (x, z) = hf.cell(c);
                    hf.rect.in_core(x, z)
                })
                .collect();
            assert!(!want.is_empty());
            assert_eq!(hf.core_columns().collect::<Vec<_>>(), want);
            let cells: Vec<_> = (0..hf.cols.len() - 1).map(|c| (c, hf.cell(c))).collect();
            assert_eq!(hf.cells().collect::<Vec<_>>(), cells, "every column's cell");
        }
    }

    #[test]
    fn water_volumes_and_levels_give_depth() {
        let m = boxes(&[([0., -2.1, 0.], [4., -2.0, 4.])]);
        let pool = Aabb {
            min: DVec3::new(0., -2.5, 0.),
            max: DVec3::new(2., 0., 4.),
        };
        let (g, hf) = one_tile(&m, &[pool], None);
        let wet = hf.spans[span_at(&hf, &g, 10, 10, -2.0)];
        assert!((wet.depth(&g) - 2.0).abs() < 1e-3);
        let dry = hf.spans[span_at(&hf, &g, 30, 10, -2.0)];
        assert_eq!(dry.depth(&g), 0.0);
        let (g, hf) = one_tile(&m, &[], Some(-1.0));
        let s = hf.spans[span_at(&hf, &g, 30, 10, -2.0)];
        assert!((s.depth(&g) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn slopes_keep_their_normal() {
        // A 45 degree ramp: every covered column's top normal has y = cos 45.
        let m = TriMesh {
            vertices: vec![
                Vec3::new(0., 0., 0.),
                Vec3::new(0., 0., 2.),
                Vec3::new(2., 2., 2.),
                Vec3::new(2., 2., 0.),
            ],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
        };
        let (_, hf) = one_tile(&m, &[], None);
        assert!(!hf.spans.is_empty());
        for s in hf.spans.iter().filter(|s| s.ny > 0.0) {
            assert!((s.ny - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-4);
        }
    }

    #[test]
    fn tiles_voxelize_their_core_exactly_as_one_tile() {
        for b in [crate::samples::stairs_slope(), crate::samples::table_room()] {
            let level = b.level();
            let mut s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
            s.tile_size = 0;
            let whole = layout(&level.mesh, &[], &s).unwrap();
            let one = voxelize(&level.mesh, &whole, &[0], None).unwrap().remove(0);
            s.tile_size = 37;
            let tiled = layout(&level.mesh, &[], &s).unwrap();
            assert!(tiled.tiles.len() > 4);
            let all: Vec<usize> = (0..tiled.tiles.len()).collect();
            let hfs = voxelize(&level.mesh, &tiled, &all, None).unwrap();
            for (t, hf) in tiled.tiles.iter().zip(hfs) {
                // Every column of the padded tile that the level's grid has.
                let (x0, z0, x1, z1) = t.rect.padded();
                for z in z0.max(0)..z1.min(tiled.grid.depth) {
                    for x in x0.max(0)..x1.min(tiled.grid.width) {
                        let key =
                            |s: &Span| (s.base, s.floor, s.ceil, s.ny.to_bits(), s.water.to_bits());
                        let a: Vec<_> = hf.spans[hf.range(hf.col(x, z).unwrap())]
                            .iter()
                            .map(key)
                            .collect();
                        let b: Vec<_> = one.spans[one.range(one.col(x, z).unwrap())]
                            .iter()
                            .map(key)
                            .collect();
                        assert_eq!(a, b, "column ({x}, {z}) of tile {}", t.index);
                    }
                }
            }
        }
    }
}
