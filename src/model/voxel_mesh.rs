//! Voxels as mesh data: the cubes of a group, cut into tiles and written as
//! one vertex-coloured mesh per tile, on the worker thread.
//!
//! A stage of a million voxels is a few hundred meshes (one draw each, and
//! each tile culled against the view as a whole), not a million entities
//! the ECS and the renderer would walk every frame. Each cube is eight
//! shared corners and twelve triangles: the top corners carry the voxel's
//! colour and the bottom ones a darker shade of it, so the sides read as
//! shaded without a light, and every cube is shrunk by [`FILL`] about its
//! centre so neighbouring voxels stay separate cells. Indices are 16-bit, so
//! a tile holds at most [`MAX_CUBES`] cubes (a denser tile is split).
//!
//! Level of detail: far from the camera a voxel is smaller than a pixel and
//! a million of them are noise. Each tile is also meshed *coarse*: the
//! cubes of every [`LOD_BLOCK`] × [`LOD_BLOCK`] block of cells that span the
//! same heights (to the nearest cell) merge into one box, so a flat floor
//! of voxels becomes a sixteenth of the cubes while steps, ledges and
//! overhangs keep their heights. The view shows the coarse mesh where a
//! cell covers fewer than a few pixels and the full one elsewhere
//! ([`crate::view::cubes`]); picking always uses every voxel.

use std::collections::BTreeMap;

use bevy::math::Vec3;

use crate::model::compact_vertex;

/// Fraction of its cell a voxel cube fills, leaving a gap to its neighbours.
pub const FILL: f32 = 0.86;
/// Tiles are this many voxel cells on a side.
pub const TILE_CELLS: f32 = 64.0;
/// Most cubes in one mesh (eight corners each within 16-bit indices).
pub const MAX_CUBES: usize = 65_536 / 8;
/// Brightness of a cube's bottom corners against its top ones.
pub const SHADE: f32 = 0.55;
/// Cells per side of a block merged in a tile's coarse mesh.
pub const LOD_BLOCK: f32 = 4.0;
/// A tile gets a coarse mesh only when merging at least halves its cubes.
const LOD_GAIN: usize = 2;

/// The triangles of a cube over its corners numbered `x + 2y + 4z`
/// (bit 0: x, bit 1: y, bit 2: z), wound outwards.
const CUBE: [u16; 36] = [
    0, 4, 6, 0, 6, 2, // -x
    1, 3, 7, 1, 7, 5, // +x
    0, 1, 5, 0, 5, 4, // -y
    2, 6, 7, 2, 7, 3, // +y
    0, 2, 3, 0, 3, 1, // -z
    4, 5, 7, 4, 7, 6, // +z
];

/// One tile's cubes as mesh data, in the compact vertex formats of
/// [`crate::model::compact_vertex`]: corners as fractions of the chunk's
/// box, colours as linear bytes (12 bytes a corner, 168 a cube with its
/// indices, against 296 in Bevy's standard formats).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoxelChunk {
    /// Corner positions, eight per cube, as fractions of [`Self::bounds`].
    pub positions: Vec<[u16; 4]>,
    /// Linear RGBA per corner.
    pub colors: Vec<[u8; 4]>,
    /// Triangle list, 36 per cube.
    pub indices: Vec<u16>,
    /// The corners' bounding box (none while empty): what the positions
    /// are fractions of, and the tile's culling box.
    pub bounds: Option<(Vec3, Vec3)>,
}

impl VoxelChunk {
    /// How many cubes it holds.
    pub fn cubes(&self) -> usize {
        self.positions.len() / 8
    }

    /// Corner `i` in world space.
    pub fn corner(&self, i: usize) -> Vec3 {
        let (lo, hi) = self.bounds.unwrap_or_default();
        compact_vertex::decode(self.positions[i], lo, hi - lo)
    }

    /// The chunk of `cubes` (at most [`MAX_CUBES`]).
    fn of(cubes: &[Cube]) -> Self {
        let shrunk = |&(min, max, _): &Cube| {
            let centre = (min + max) * 0.5;
            let half = (max - min).abs() * 0.5 * FILL;
            (centre - half, centre + half)
        };
        let bounds = cubes
            .iter()
            .map(shrunk)
            .reduce(|(a, b), (lo, hi)| (a.min(lo), b.max(hi)));
        let mut chunk = VoxelChunk {
            positions: Vec::with_capacity(cubes.len() * 8),
            colors: Vec::with_capacity(cubes.len() * 8),
            indices: Vec::with_capacity(cubes.len() * CUBE.len()),
            bounds,
        };
        let (lo, hi) = bounds.unwrap_or_default();
        for cube in cubes {
            let (min, max) = shrunk(cube);
            let base = chunk.positions.len() as u16;
            let top = compact_vertex::linear_bytes(opaque(cube.2), 1.0);
            let bottom = compact_vertex::linear_bytes(opaque(cube.2), SHADE);
            for i in 0..8u16 {
                let pick = |bit: u16, a: f32, b: f32| if i & bit == 0 { a } else { b };
                let p = Vec3::new(
                    pick(1, min.x, max.x),
                    pick(2, min.y, max.y),
                    pick(4, min.z, max.z),
                );
                chunk.positions.push(compact_vertex::encode(p, lo, hi - lo));
                chunk.colors.push(if i & 2 == 0 { bottom } else { top });
            }
            chunk.indices.extend(CUBE.iter().map(|k| base + k));
        }
        chunk
    }
}

/// An sRGB colour made opaque: voxels are drawn solid.
fn opaque(c: [f32; 4]) -> [f32; 4] {
    [c[0], c[1], c[2], 1.0]
}

/// A voxel cube: minimum corner, maximum corner and sRGB colour.
pub type Cube = (Vec3, Vec3, [f32; 4]);

/// One tile's voxels as meshes, in full and, where it pays, coarse.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoxelTile {
    /// Every cube, in meshes of at most [`MAX_CUBES`].
    pub full: Vec<VoxelChunk>,
    /// The cubes merged per block ([`LOD_BLOCK`]); empty when merging
    /// would not at least halve them.
    pub coarse: Vec<VoxelChunk>,
    /// The tile's centre, where the view measures how big a cell looks.
    pub centre: Vec3,
    /// The width of one voxel cell.
    pub cell: f32,
}

impl VoxelTile {
    /// How many cubes the full meshes hold.
    pub fn cubes(&self) -> usize {
        self.full.iter().map(VoxelChunk::cubes).sum()
    }
}

/// `cubes` as meshes of at most [`MAX_CUBES`] cubes each.
fn meshes(cubes: &[Cube]) -> Vec<VoxelChunk> {
    cubes.chunks(MAX_CUBES).map(VoxelChunk::of).collect()
}

/// The cubes of one tile merged per block of [`LOD_BLOCK`] cells: cubes of
/// one colour whose bottoms and tops round to the same cell heights merge
/// into the box around them.
pub fn merge_blocks(cubes: &[Cube], cell: f32) -> Vec<Cube> {
    let block = cell * LOD_BLOCK;
    let at = |v: f32, unit: f32| (v / unit).round() as i64;
    let mut merged: BTreeMap<(i64, i64, i64, i64, [u32; 4]), Cube> = BTreeMap::new();
    for &(lo, hi, c) in cubes {
        let centre = (lo + hi) * 0.5;
        let key = (
            (centre.x / block).floor() as i64,
            (centre.z / block).floor() as i64,
            at(lo.y, cell),
            at(hi.y, cell),
            c.map(f32::to_bits),
        );
        merged
            .entry(key)
            .and_modify(|m| {
                m.0 = m.0.min(lo);
                m.1 = m.1.max(hi);
            })
            .or_insert((lo, hi, c));
    }
    merged.into_values().collect()
}

/// Cuts `cubes` into tiles of [`TILE_CELLS`] cells (the cell is the first
/// cube's width) and meshes each in full and coarse ([`VoxelTile`]). Cubes
/// with a non-finite corner are left out.
pub fn tiles(cubes: &[Cube]) -> Vec<VoxelTile> {
    let cell = cubes
        .iter()
        .map(|(lo, hi, _)| (hi.x - lo.x).abs())
        .find(|w| w.is_finite() && *w > 0.0)
        .unwrap_or(1.0);
    let tile = cell * TILE_CELLS;
    let mut by_tile: BTreeMap<(i64, i64), Vec<Cube>> = BTreeMap::new();
    for &(lo, hi, c) in cubes {
        if !(lo.is_finite() && hi.is_finite()) {
            continue;
        }
        let key = ((lo.x / tile).floor() as i64, (lo.z / tile).floor() as i64);
        by_tile.entry(key).or_default().push((lo, hi, c));
    }
    by_tile
        .into_values()
        .map(|cubes| {
            let coarse = merge_blocks(&cubes, cell);
            let coarse = if coarse.len() * LOD_GAIN <= cubes.len() {
                meshes(&coarse)
            } else {
                Vec::new()
            };
            let full = meshes(&cubes);
            let (lo, hi) = full
                .iter()
                .filter_map(|m| m.bounds)
                .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(a, b), (lo, hi)| {
                    (a.min(lo), b.max(hi))
                });
            VoxelTile {
                full,
                coarse,
                centre: (lo + hi) * 0.5,
                cell,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cube_sits_inside_its_cell_with_a_gap_and_faces_outwards() {
        let (min, max) = (Vec3::new(1.0, 2.0, 3.0), Vec3::new(1.3, 2.2, 3.3));
        let out = tiles(&[(min, max, [0.2, 0.6, 0.9, 1.0])]);
        assert_eq!(out.len(), 1);
        assert!(
            out[0].coarse.is_empty(),
            "one cube merges into nothing less"
        );
        let m = &out[0].full[0];
        assert_eq!((m.cubes(), m.indices.len()), (1, 36));
        let pts: Vec<Vec3> = (0..m.positions.len()).map(|i| m.corner(i)).collect();
        let lo = pts.iter().fold(Vec3::INFINITY, |a, b| a.min(*b));
        let hi = pts.iter().fold(Vec3::NEG_INFINITY, |a, b| a.max(*b));
        assert!(lo.cmpgt(min).all() && hi.cmplt(max).all(), "{lo} {hi}");
        assert!(((hi - lo) - (max - min) * FILL).length() < 1e-5);
        // The culling box is the corners' box.
        let (blo, bhi) = m.bounds.expect("bounds of a non-empty tile");
        assert!((blo - lo).length() < 1e-6 && (bhi - hi).length() < 1e-6);
        let centre = (min + max) * 0.5;
        // Every triangle's normal points away from the centre.
        for t in m.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| pts[t[k] as usize]);
            let n = (b - a).cross(c - a);
            assert!(
                n.dot((a + b + c) / 3.0 - centre) > 0.0,
                "inward triangle {t:?}"
            );
        }
        // Top corners are brighter than bottom ones.
        for (p, c) in pts.iter().zip(&m.colors) {
            let bottom = p.y < centre.y;
            let other = pts
                .iter()
                .zip(&m.colors)
                .find(|(q, _)| (q.y < centre.y) != bottom)
                .unwrap()
                .1;
            assert_eq!(bottom, c[0] < other[0]);
        }
    }

    #[test]
    fn cubes_are_tiled_and_dense_tiles_split() {
        let cell = 0.1;
        let cube = |x: f32, z: f32| {
            let lo = Vec3::new(x, 0.0, z);
            (lo, lo + Vec3::new(cell, 0.2, cell), [1.0, 0.0, 0.0, 1.0])
        };
        // Two tiles far apart.
        let out = tiles(&[cube(0.0, 0.0), cube(100.0, 0.0)]);
        assert_eq!(out.len(), 2);
        // One tile of more cubes than a mesh holds: split, nothing dropped.
        let many: Vec<_> = (0..MAX_CUBES + 10)
            .map(|i| cube((i % 60) as f32 * cell, (i / 60 % 60) as f32 * cell))
            .collect();
        let out: Vec<VoxelChunk> = tiles(&many).into_iter().flat_map(|t| t.full).collect();
        assert_eq!(out.iter().map(VoxelChunk::cubes).sum::<usize>(), many.len());
        assert!(out.iter().all(|m| m.cubes() <= MAX_CUBES));
        assert!(
            out.iter()
                .all(|m| m.indices.iter().all(|&i| (i as usize) < m.positions.len()))
        );
    }

    #[test]
    fn a_nan_cube_is_left_out_and_a_flat_one_kept() {
        assert!(tiles(&[]).is_empty());
        let nan = (Vec3::NAN, Vec3::ONE, [1.0; 4]);
        let flat = (Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0), [1.0; 4]);
        let out = tiles(&[nan, flat]);
        assert_eq!(
            out.iter().map(VoxelTile::cubes).sum::<usize>(),
            1,
            "NaN left out, a flat cube kept"
        );
    }

    fn floor_cube(i: usize, j: usize, cell: f32, y: f32) -> Cube {
        let lo = Vec3::new(i as f32 * cell, y, j as f32 * cell);
        (lo, lo + Vec3::new(cell, 0.1, cell), [0.3, 0.8, 0.3, 1.0])
    }

    #[test]
    fn a_flat_floor_merges_into_a_sixteenth_of_the_cubes() {
        let cell = 0.1;
        let floor: Vec<Cube> = (0..64 * 64)
            .map(|k| floor_cube(k % 64, k / 64, cell, 0.0))
            .collect();
        let out = tiles(&floor);
        assert_eq!(out.len(), 1);
        let coarse: usize = out[0].coarse.iter().map(VoxelChunk::cubes).sum();
        assert_eq!(coarse, floor.len() / 16);
        assert_eq!(
            out[0].cubes(),
            floor.len(),
            "the full mesh keeps every voxel"
        );
        assert!((out[0].cell - cell).abs() < 1e-6);
        assert!((out[0].centre - Vec3::new(3.2, 0.05, 3.2)).length() < 0.01);
    }

    #[test]
    fn scattered_voxels_get_no_coarse_mesh() {
        // One voxel per block: merging gains nothing.
        let cell = 0.1;
        let sparse: Vec<Cube> = (0..16 * 16)
            .map(|k| floor_cube(4 * (k % 16), 4 * (k / 16), cell, 0.0))
            .collect();
        assert!(tiles(&sparse)[0].coarse.is_empty());
    }

    proptest::proptest! {
        /// Every voxel lies inside a merged box of its colour whose heights
        /// round to its own, and merged boxes stay within one block.
        #[test]
        fn merged_blocks_cover_every_voxel_at_its_height(
            cells in proptest::collection::vec((0usize..24, 0usize..24, 0i32..4), 1..300),
        ) {
            let cell = 0.1;
            let cubes: Vec<Cube> = cells
                .iter()
                .map(|&(i, j, h)| floor_cube(i, j, cell, h as f32 * 0.2))
                .collect();
            let merged = merge_blocks(&cubes, cell);
            proptest::prop_assert!(merged.len() <= cubes.len());
            for (lo, hi, c) in &cubes {
                let inside = merged.iter().any(|(mlo, mhi, mc)| {
                    mc == c
                        && mlo.cmple(*lo + 1e-5).all()
                        && mhi.cmpge(*hi - 1e-5).all()
                        && ((mlo.y - lo.y).abs() < cell / 2.0)
                        && ((mhi.y - hi.y).abs() < cell / 2.0)
                });
                proptest::prop_assert!(inside, "voxel at {lo} not covered");
            }
            for (lo, hi, _) in &merged {
                proptest::prop_assert!(hi.x - lo.x <= cell * LOD_BLOCK + 1e-4);
                proptest::prop_assert!(hi.z - lo.z <= cell * LOD_BLOCK + 1e-4);
            }
        }
    }
}
