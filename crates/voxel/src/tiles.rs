//! The `tiles` stage, tiling: the voxel grid over the level's bounds, split into
//! square tiles that overlap their neighbours by a border of cells (§32.2.5,
//! step 1), each with the triangles and water volumes that touch it. Only
//! tiles that some triangle touches are made (in row-major order): voxel
//! memory and work grow with the occupied tiles, not with the bounding box,
//! so two small floors kilometres apart cost two tiles.
//!
//! The border is wide enough that every flag inside a tile's core comes out
//! exactly as in a one-tile build (see [`tile_padding`]), so tiles can be
//! built independently, in parallel, and merged by their index.

use std::collections::BTreeMap;

use glam::DVec3;
use navscope_core::StageError;
use navscope_core::geom::{Aabb, TriMesh};
use rayon::prelude::*;
use serde::Serialize;

use crate::grid::{Grid, MAX_HEIGHT_UNITS, TileRect};
use crate::settings::Settings;

/// Most columns (cells on the ground, borders counted once per tile) the
/// tiles that triangles touch may hold together: beyond it the build stops
/// with an error instead of allocating without bound. Tiles no triangle
/// touches are not made, so the bounding box itself is not limited by this.
pub const MAX_COLUMNS: u64 = 1 << 25;
/// Most columns along one side of the grid (cell coordinates are `i32`).
pub const MAX_GRID_SIDE: u64 = 1 << 28;

/// A tile with its inputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tile {
    /// Index in the layout (row-major).
    pub index: usize,
    /// Cells.
    pub rect: TileRect,
    /// Triangles (indices into the mesh) touching the padded tile, ascending.
    pub triangles: Vec<u32>,
    /// Water volumes touching the padded tile.
    pub water: Vec<Aabb>,
    /// Hash of the geometry it reads: its triangles' corners and its water;
    /// 0 when `reuse_tiles` is off, as the tile cache is its only reader.
    pub geometry_hash: u64,
}

/// The tiles of a level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Layout {
    /// The grid.
    pub grid: Grid,
    /// Core cells a side of every tile but those cut short by the grid's
    /// far edges (tile `(tx, tz)`'s core starts at cell `(tx, tz)` times
    /// this).
    pub tile_cells: i32,
    /// The tiles some triangle touches, row-major.
    pub tiles: Vec<Tile>,
    /// Triangles with zero area, skipped.
    pub degenerate_triangles: usize,
    /// Each triangle's cells, `[x0, z0, x1, z1]` (inclusive) under its
    /// bounds, as tiling found them; all 0 for a triangle of zero area.
    /// Voxelize plans its work from them ([`crate::blocks`]).
    #[serde(skip)]
    pub cells: Vec<[i32; 4]>,
}

/// Border cells that make every core flag independent of the tile cut: the
/// erosion reads what its 12/17 chamfer reaches below the radius's
/// threshold, `ceil(threshold / 12)` cells with 13 units a cell (a span at
/// the tile's edge may be an obstacle, at distance 0, when the ledge filter
/// sees no column beyond it), up to 13/12 of `radius / cs` + 1/2 cells:
/// more than `radius / cs` + 1 from radii of about 6 cells on; border
/// flags read one cell more, and the contour one cell beyond the core.
pub fn tile_padding(max_radius: f64, cs: f64) -> i32 {
    let threshold = crate::chamfer::threshold(max_radius, cs) as i32;
    (threshold + crate::chamfer::ORTHO as i32 - 1) / crate::chamfer::ORTHO as i32 + 2
}

/// Checks the mesh and lays out the tiles.
pub fn layout(mesh: &TriMesh, water: &[Aabb], s: &Settings) -> Result<Layout, StageError> {
    if mesh.triangles.is_empty() {
        return Err(StageError::failed("the mesh has no triangles"));
    }
    if let Some(i) = mesh.vertices.iter().position(|v| !v.is_finite()) {
        return Err(StageError::failed(format!(
            "vertex {i} has a coordinate that is not a finite number"
        )));
    }
    if let Some(t) = mesh.first_bad_index() {
        return Err(StageError::failed(format!(
            "triangle {t} refers to a vertex that does not exist ({} vertices)",
            mesh.vertices.len()
        )));
    }
    for (i, w) in water.iter().enumerate() {
        if !(w.min.is_finite() && w.max.is_finite()) || w.is_empty() {
            return Err(StageError::failed(format!(
                "water volume {i} is empty or not finite"
            )));
        }
    }
    let mut bounds = Aabb::EMPTY;
    let mut degenerate = 0;
    for t in 0..mesh.triangles.len() {
        let [a, b, c] = mesh.triangle(t);
        if (b - a).cross(c - a).length_squared() == 0.0 {
            degenerate += 1;
            continue;
        }
        for p in [a, b, c] {
            bounds = bounds.grow(p.as_dvec3());
        }
    }
    if bounds.is_empty() {
        return Err(StageError::failed(format!(
            "all {} triangles have zero area",
            mesh.triangles.len()
        )));
    }
    let size = bounds.size();
    let cols_x = (size.x / s.cell_size).ceil().max(1.0);
    let cols_z = (size.z / s.cell_size).ceil().max(1.0);
    if cols_x.max(cols_z) > MAX_GRID_SIDE as f64 {
        return Err(StageError::failed(format!(
            "the level is {:.1} x {:.1} m: {:.0} x {:.0} columns at cell size {} m exceeds the grid's {MAX_GRID_SIDE} columns a side; raise cell_size",
            size.x, size.z, cols_x, cols_z, s.cell_size
        )));
    }
    let units = (size.y / s.cell_height).ceil() + 2.0;
    if units > MAX_HEIGHT_UNITS as f64 {
        return Err(StageError::failed(format!(
            "the level is {:.1} m tall: {units:.0} voxels at cell height {} m exceeds the budget of {MAX_HEIGHT_UNITS}; raise cell_height",
            size.y, s.cell_height
        )));
    }
    let grid = Grid {
        origin: bounds.min,
        cs: s.cell_size,
        ch: s.cell_height,
        width: cols_x as i32,
        depth: cols_z as i32,
    };
    let pad = tile_padding(s.max_radius, s.cell_size);
    let ts = if s.tile_size <= 0 {
        grid.width.max(grid.depth)
    } else {
        s.tile_size.min(i32::MAX as i64) as i32
    };
    let (ntx, ntz) = (
        (grid.width as i64 + ts as i64 - 1) / ts as i64,
        (grid.depth as i64 + ts as i64 - 1) / ts as i64,
    );
    // Triangles to the tiles whose padded rectangle their bounds touch; only
    // those tiles exist, so empty space in the bounding box costs nothing.
    // Their padded columns together are bounded: small tiles with a wide
    // border multiply the work and the memory.
    let tile_columns = ((ts as i64 + 2 * pad as i64) as f64).powi(2);
    let mut touched: BTreeMap<(i64, i64), Vec<u32>> = BTreeMap::new();
    // No libm call per triangle corner.
    let cell_of = |v: f64, o: f64| crate::heightfield::floor((v - o) / s.cell_size);
    let mut cells = vec![[0; 4]; mesh.triangles.len()];
    for (t, cells) in cells.iter_mut().enumerate() {
        let [a, b, c] = mesh.triangle(t);
        if (b - a).cross(c - a).length_squared() == 0.0 {
            continue;
        }
        let lo = a.min(b).min(c).as_dvec3();
        let hi = a.max(b).max(c).as_dvec3();
        let (cx0, cx1) = (cell_of(lo.x, grid.origin.x), cell_of(hi.x, grid.origin.x));
        let (cz0, cz1) = (cell_of(lo.z, grid.origin.z), cell_of(hi.z, grid.origin.z));
        // Inside the grid, whose sides are at most `MAX_GRID_SIDE` cells.
        *cells = [cx0, cz0, cx1, cz1].map(|c| c as i32);
        let tr = |c: i64, p: i64| (c + p).div_euclid(ts as i64);
        let (tx0, tx1) = (
            tr(cx0, -(pad as i64)).max(0),
            tr(cx1, pad as i64).min(ntx - 1),
        );
        let (tz0, tz1) = (
            tr(cz0, -(pad as i64)).max(0),
            tr(cz1, pad as i64).min(ntz - 1),
        );
        for tz in tz0..=tz1 {
            for tx in tx0..=tx1 {
                touched.entry((tz, tx)).or_default().push(t as u32);
                let padded = touched.len() as f64 * tile_columns;
                if padded > MAX_COLUMNS as f64 {
                    return Err(StageError::failed(format!(
                        "the tiles the triangles touch ({} so far, {ts} cells a side with a border of {pad} cells) need more than the budget of {MAX_COLUMNS} columns; raise cell_size, or tile_size when the border dominates",
                        touched.len()
                    )));
                }
            }
        }
    }
    let mut tiles: Vec<Tile> = touched
        .into_iter()
        .enumerate()
        .map(|(index, ((tz, tx), triangles))| {
            let (tx, tz) = (tx as i32, tz as i32);
            Tile {
                index,
                rect: TileRect {
                    x0: tx * ts,
                    z0: tz * ts,
                    x1: ((tx + 1) * ts).min(grid.width),
                    z1: ((tz + 1) * ts).min(grid.depth),
                    pad,
                },
                triangles,
                water: Vec::new(),
                geometry_hash: 0,
            }
        })
        .collect();
    // Each tile's water and hash on its own (in parallel: the hash reads
    // every corner of the tile's triangles). A build that reuses no tiles
    // needs no hash, and one without water volumes nothing at all.
    if s.reuse_tiles || !water.is_empty() {
        tiles.par_iter_mut().for_each(|tile| {
            let (px0, pz0, px1, pz1) = tile.rect.padded();
            let world = Aabb {
                min: DVec3::new(grid.x(px0), f64::NEG_INFINITY, grid.z(pz0)),
                max: DVec3::new(grid.x(px1), f64::INFINITY, grid.z(pz1)),
            };
            tile.water = water
                .iter()
                .filter(|w| w.intersects(&world))
                .copied()
                .collect();
            if s.reuse_tiles {
                tile.geometry_hash = geometry_hash(mesh, &tile.triangles, &tile.water);
            }
        });
    }
    Ok(Layout {
        grid,
        tile_cells: ts,
        tiles,
        degenerate_triangles: degenerate,
        cells,
    })
}

/// Bytes the stages hold per voxel span at their peak, whatever the passes:
/// the span itself and the per-span data every build keeps or passes
/// between tiles. See [`bytes_per_span`].
pub const BYTES_PER_SPAN_BASE: u64 = 24;
/// Bytes each enabled pass adds per span at the peak: its flags and span
/// links, its distance field and regions. See [`bytes_per_span`].
pub const BYTES_PER_SPAN_PER_PASS: u64 = 19;

/// Bytes a build with `passes` enabled passes holds per voxel span at its
/// peak, measured with `/usr/bin/time` on two 409 m quads 2.9 km apart
/// vertically (40.1 M spans with the tile borders, 256-cell tiles, two
/// threads): 1.66 GB with the standing pass alone (41 B a span), 4.6 GB
/// with all five passes (115 B a span).
pub fn bytes_per_span(passes: usize) -> u64 {
    BYTES_PER_SPAN_BASE + BYTES_PER_SPAN_PER_PASS * passes as u64
}

/// About how many spans the voxelize stage will make: every triangle
/// covers the columns under its ground-plane footprint, plus those along
/// its outline (walls have no footprint but a column per cell along
/// them), and each tile repeats its border's columns. Only columns under
/// triangles count, so empty space costs nothing however large the
/// bounding box.
pub fn estimated_spans(mesh: &TriMesh, layout: &Layout) -> u64 {
    let cs = layout.grid.cs;
    let mut spans = 0.0;
    for t in 0..mesh.triangles.len() {
        let [a, b, c] = mesh.triangle(t).map(|p| p.as_dvec3());
        let area = ((b - a).cross(c - a)).y.abs() * 0.5;
        let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
        spans += area / (cs * cs) + (hi.x - lo.x + hi.z - lo.z) / cs + 1.0;
    }
    // Tile borders are built twice (or more, at corners).
    let (mut core, mut padded) = (0.0, 0.0);
    for tile in &layout.tiles {
        let r = tile.rect;
        core += f64::from(r.x1 - r.x0) * f64::from(r.z1 - r.z0);
        padded += f64::from(r.x1 - r.x0 + 2 * r.pad) * f64::from(r.z1 - r.z0 + 2 * r.pad);
    }
    let overhead = if core > 0.0 { padded / core } else { 1.0 };
    (spans * overhead).min(u64::MAX as f64) as u64
}

/// Refuses a level whose spans ([`estimated_spans`]) would take more than
/// the memory budget with `passes` enabled passes ([`bytes_per_span`]),
/// saying how many and over what area.
pub fn check_budget(
    mesh: &TriMesh,
    layout: &Layout,
    passes: usize,
    budget: navscope_core::MemoryBudget,
) -> Result<(), StageError> {
    let spans = estimated_spans(mesh, layout);
    let g = &layout.grid;
    budget.check(spans.saturating_mul(bytes_per_span(passes)), || {
        format!(
            "~{:.1} M voxel spans over {} at {} cells (lower the detail with cell_size)",
            spans as f64 / 1e6,
            format_args!(
                "{} × {}",
                navscope_core::budget::format_length(f64::from(g.width) * g.cs),
                navscope_core::budget::format_length(f64::from(g.depth) * g.cs)
            ),
            navscope_core::budget::format_length(g.cs)
        )
    })?;
    Ok(())
}

/// Hash of the geometry a tile reads: its triangles' corners and its water
/// volumes, bit for bit. A folded multiply over the corners' bits (far
/// cheaper than SipHash over the 30,000 corners of a 10,000-triangle
/// tile, which took half of the `tiles` stage); the inputs are levels, not
/// adversaries, so collision resistance beyond a good mix is not needed.
fn geometry_hash(mesh: &TriMesh, tris: &[u32], water: &[Aabb]) -> u64 {
    let mut h = FoldHash::default();
    for &t in tris {
        for p in mesh.triangle(t as usize) {
            h.add(p.x.to_bits(), p.y.to_bits(), p.z.to_bits());
        }
    }
    for w in water {
        for v in [w.min, w.max] {
            let [x, y, z] = v.to_array().map(f64::to_bits);
            h.add(x as u32, (x >> 32) as u32, y as u32);
            h.add((y >> 32) as u32, z as u32, (z >> 32) as u32);
        }
    }
    h.finish()
}

/// A 64-bit hash of triples of 32-bit words: each triple is folded into
/// the state by one 64 x 64 -> 128-bit multiply (wyhash's mixing step).
#[derive(Default)]
struct FoldHash {
    state: u64,
    words: u64,
}

impl FoldHash {
    const K0: u64 = 0xa076_1d64_78bd_642f;
    const K1: u64 = 0xe703_7ed1_a0b4_28db;

    fn mix(a: u64, b: u64) -> u64 {
        let p = u128::from(a) * u128::from(b);
        (p as u64) ^ (p >> 64) as u64
    }

    fn add(&mut self, a: u32, b: u32, c: u32) {
        self.words += 3;
        let lo = u64::from(a) | u64::from(b) << 32;
        let hi = u64::from(c) | self.words << 32;
        self.state = Self::mix(self.state ^ lo ^ Self::K0, hi ^ Self::K1);
    }

    fn finish(&self) -> u64 {
        Self::mix(self.state ^ Self::K1, self.words ^ Self::K0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use navscope_core::ParamValues;

    fn settings() -> Settings {
        Settings::from_params(&ParamValues::defaults(&crate::settings::specs())).unwrap()
    }

    fn quad(x0: f32, z0: f32, x1: f32, z1: f32) -> TriMesh {
        TriMesh {
            vertices: vec![
                Vec3::new(x0, 0., z0),
                Vec3::new(x0, 0., z1),
                Vec3::new(x1, 0., z1),
                Vec3::new(x1, 0., z0),
            ],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
        }
    }

    /// A build that reuses no tiles lays them out the same, without the
    /// hash the cache would key them by.
    #[test]
    fn without_reuse_the_tiles_are_the_same_but_unhashed() {
        let mut s = settings();
        s.tile_size = 64;
        let mesh = quad(0., 0., 30., 13.);
        let on = layout(&mesh, &[], &s).unwrap();
        s.reuse_tiles = false;
        let mut off = layout(&mesh, &[], &s).unwrap();
        assert!(on.tiles.iter().all(|t| t.geometry_hash != 0));
        assert!(off.tiles.iter().all(|t| t.geometry_hash == 0));
        for (a, b) in off.tiles.iter_mut().zip(&on.tiles) {
            a.geometry_hash = b.geometry_hash;
        }
        assert_eq!(off, on);
    }

    #[test]
    fn tiles_cover_the_grid_once() {
        let mut s = settings();
        s.tile_size = 64;
        let l = layout(&quad(0., 0., 30., 13.), &[], &s).unwrap();
        assert_eq!((l.grid.width, l.grid.depth), (300, 130));
        assert_eq!(l.tiles.len(), 5 * 3);
        let cells: i64 = l
            .tiles
            .iter()
            .map(|t| ((t.rect.x1 - t.rect.x0) * (t.rect.z1 - t.rect.z0)) as i64)
            .sum();
        assert_eq!(cells, 300 * 130);
        assert!(l.tiles.iter().all(|t| t.triangles == vec![0, 1]));
    }

    #[test]
    fn degenerate_inputs_are_errors_not_panics() {
        let s = settings();
        assert!(
            layout(&TriMesh::default(), &[], &s)
                .unwrap_err()
                .to_string()
                .contains("no triangles")
        );
        let flat = TriMesh {
            vertices: vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0],
            triangles: vec![[0, 1, 2]],
        };
        assert!(
            layout(&flat, &[], &s)
                .unwrap_err()
                .to_string()
                .contains("zero area")
        );
        let huge = quad(-1e9, -1e9, 1e9, 1e9);
        let e = layout(&huge, &[], &s).unwrap_err().to_string();
        assert!(e.contains("columns a side; raise cell_size"), "{e}");
        // Within the grid's range but over the occupied-column budget.
        let wide = quad(0., 0., 1000., 1000.);
        let e = layout(&wide, &[], &s).unwrap_err().to_string();
        assert!(e.contains("need more than the budget of"), "{e}");
        let mut nan = quad(0., 0., 1., 1.);
        nan.vertices[2].y = f32::NAN;
        assert!(
            layout(&nan, &[], &s)
                .unwrap_err()
                .to_string()
                .contains("vertex 2")
        );
        let mut bad = quad(0., 0., 1., 1.);
        bad.triangles[1][2] = 9;
        assert!(
            layout(&bad, &[], &s)
                .unwrap_err()
                .to_string()
                .contains("triangle 1")
        );
        let mut tiny = settings();
        tiny.tile_size = 1;
        let e = layout(&quad(0., 0., 300., 300.), &[], &tiny)
            .unwrap_err()
            .to_string();
        assert!(e.contains("or tile_size when the border dominates"), "{e}");
        let mut tall = quad(0., 0., 1., 1.);
        tall.vertices[0].y = 1e7;
        assert!(
            layout(&tall, &[], &s)
                .unwrap_err()
                .to_string()
                .contains("tall")
        );
    }

    #[test]
    fn the_span_estimate_counts_occupied_columns_not_the_bounding_box() {
        let s = settings();
        // Two 20 m floors 300 m apart: the box holds ~300² m², the floors 800.
        let mut mesh = quad(0., 0., 20., 20.);
        let far = quad(300., 300., 320., 320.);
        mesh.vertices.extend(far.vertices);
        mesh.triangles.extend([[4, 5, 6], [4, 6, 7]]);
        let mut big = s.clone();
        big.tile_size = 64;
        let l = layout(&mesh, &[], &big).unwrap();
        let cs = l.grid.cs;
        let occupied = 2.0 * (20.0 / cs) * (20.0 / cs);
        let boxed = f64::from(l.grid.width) * f64::from(l.grid.depth);
        let est = estimated_spans(&mesh, &l) as f64;
        // Tile borders are built twice: at most a few times the floors.
        assert!(
            est >= occupied && est < 4.0 * occupied,
            "{est} vs {occupied}"
        );
        assert!(boxed > 50.0 * est, "{boxed} vs {est}");
        // A small budget refuses, saying what the spans would need.
        let e = check_budget(&mesh, &l, 5, navscope_core::MemoryBudget::new(1 << 20))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("would need ~"), "{e}");
        assert!(
            e.contains("voxel spans over 320 m × 320 m at 0.1 m cells"),
            "{e}"
        );
        assert!(e.ends_with("; the budget is 1 MB"), "{e}");
        assert!(check_budget(&mesh, &l, 5, navscope_core::MemoryBudget::default()).is_ok());
    }

    /// `quad`s with their triangles appended to `mesh`, at height `y`.
    fn add_quad(mesh: &mut TriMesh, x0: f32, z0: f32, x1: f32, z1: f32, y: f32) {
        let q = quad(x0, z0, x1, z1);
        let base = mesh.vertices.len() as u32;
        mesh.vertices
            .extend(q.vertices.iter().map(|v| *v + Vec3::Y * y));
        mesh.triangles
            .extend(q.triangles.iter().map(|t| t.map(|i| i + base)));
    }

    #[test]
    fn only_tiles_that_triangles_touch_are_made() {
        // Two 4 m floors, the second 2.9 km above and 409 m across: a box of
        // 16.7 M columns (256 tiles of 256 cells), two of them occupied.
        let mut mesh = quad(0., 0., 4., 4.);
        add_quad(&mut mesh, 405., 405., 409., 409., 2900.);
        let l = layout(&mesh, &[], &settings()).unwrap();
        assert_eq!((l.grid.width, l.grid.depth), (4090, 4090));
        assert_eq!(l.tiles.len(), 2);
        assert_eq!((l.tiles[0].rect.x0, l.tiles[1].rect.x0), (0, 15 * 256));
        assert!(l.tiles.iter().enumerate().all(|(i, t)| t.index == i));
        // Far apart in plan too: a box of 4e8 columns, two tiles.
        let mut far = quad(0., 0., 4., 4.);
        add_quad(&mut far, 2000., 2000., 2004., 2004., 0.);
        assert_eq!(layout(&far, &[], &settings()).unwrap().tiles.len(), 2);
    }

    #[test]
    fn the_budget_counts_the_enabled_passes() {
        // Two 409 m floors, one 2.9 km over the other: 33.5 M real spans,
        // 40 M with the tile borders. Five passes need over 2 GB, the
        // standing pass alone (measured 1.66 GB) fits.
        let mut mesh = quad(0., 0., 409., 409.);
        add_quad(&mut mesh, 0., 0., 409., 409., 2900.);
        let l = layout(&mesh, &[], &settings()).unwrap();
        assert_eq!(l.tiles.len(), 256);
        let budget = navscope_core::MemoryBudget::default();
        let e = check_budget(&mesh, &l, 5, budget).unwrap_err().to_string();
        assert!(e.contains("M voxel spans over 409 m × 409 m"), "{e}");
        assert!(check_budget(&mesh, &l, 1, budget).is_ok());
    }

    #[test]
    fn zero_area_triangles_are_counted_and_skipped() {
        let mut m = quad(0., 0., 2., 2.);
        m.vertices.push(Vec3::new(5., 0., 5.));
        m.triangles.push([4, 4, 4]);
        let l = layout(&m, &[], &settings()).unwrap();
        assert_eq!(l.degenerate_triangles, 1);
        assert_eq!(
            l.grid.width, 20,
            "the degenerate triangle does not stretch the bounds"
        );
    }

    #[test]
    fn the_geometry_hash_sees_every_bit_of_every_corner_and_volume() {
        let m = quad(0., 0., 2., 2.);
        let water = [Aabb {
            min: DVec3::new(0., -1., 0.),
            max: DVec3::new(1., 0.5, 1.),
        }];
        let base = geometry_hash(&m, &[0, 1], &water);
        assert_eq!(base, geometry_hash(&m, &[0, 1], &water), "deterministic");
        let mut seen = vec![base];
        for v in 0..m.vertices.len() {
            for axis in 0..3 {
                for bit in [0, 17, 31] {
                    let mut m2 = m.clone();
                    let c = &mut m2.vertices[v][axis];
                    *c = f32::from_bits(c.to_bits() ^ 1 << bit);
                    seen.push(geometry_hash(&m2, &[0, 1], &water));
                }
            }
        }
        for axis in 0..3 {
            for bit in [0, 40, 63] {
                let mut w = water;
                w[0].max[axis] = f64::from_bits(w[0].max[axis].to_bits() ^ 1 << bit);
                seen.push(geometry_hash(&m, &[0, 1], &w));
            }
        }
        seen.push(geometry_hash(&m, &[1, 0], &water));
        seen.push(geometry_hash(&m, &[0], &water));
        seen.push(geometry_hash(&m, &[0, 1], &[]));
        let n = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), n, "every change gives another hash");
    }
}
