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

use std::collections::BTreeMap;

use bevy::color::{Color, ColorToComponents};
use bevy::math::Vec3;

/// Fraction of its cell a voxel cube fills, leaving a gap to its neighbours.
pub const FILL: f32 = 0.86;
/// Tiles are this many voxel cells on a side.
pub const TILE_CELLS: f32 = 64.0;
/// Most cubes in one mesh (eight corners each within 16-bit indices).
pub const MAX_CUBES: usize = 65_536 / 8;
/// Brightness of a cube's bottom corners against its top ones.
pub const SHADE: f32 = 0.55;

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

/// One tile's cubes as mesh data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoxelChunk {
    /// Corner positions, eight per cube.
    pub positions: Vec<[f32; 3]>,
    /// Linear RGBA per corner.
    pub colors: Vec<[f32; 4]>,
    /// Triangle list, 36 per cube.
    pub indices: Vec<u16>,
    /// The corners' bounding box (none while empty): the tile's culling
    /// box, which Bevy cannot compute from a mesh kept only in the render
    /// world.
    pub bounds: Option<(Vec3, Vec3)>,
}

impl VoxelChunk {
    /// How many cubes it holds.
    pub fn cubes(&self) -> usize {
        self.positions.len() / 8
    }

    fn push(&mut self, min: Vec3, max: Vec3, color: [f32; 4]) {
        let centre = (min + max) * 0.5;
        let half = (max - min).abs() * 0.5 * FILL;
        let base = self.positions.len() as u16;
        let top = linear(color, 1.0);
        let bottom = linear(color, SHADE);
        for i in 0..8u16 {
            let s = |bit: u16| if i & bit == 0 { -1.0 } else { 1.0 };
            let p = centre + half * Vec3::new(s(1), s(2), s(4));
            self.positions.push(p.to_array());
            self.colors.push(if i & 2 == 0 { bottom } else { top });
        }
        self.indices.extend(CUBE.iter().map(|k| base + k));
        let (lo, hi) = (centre - half, centre + half);
        self.bounds = Some(match self.bounds {
            Some((a, b)) => (a.min(lo), b.max(hi)),
            None => (lo, hi),
        });
    }
}

/// An sRGB colour scaled by `shade`, as the linear RGBA a vertex takes.
fn linear(c: [f32; 4], shade: f32) -> [f32; 4] {
    Color::srgba(c[0] * shade, c[1] * shade, c[2] * shade, 1.0)
        .to_linear()
        .to_f32_array()
}

/// Cuts `cubes` (minimum corner, maximum corner, sRGB colour) into tiles of
/// [`TILE_CELLS`] cells (the cell is the first cube's width) and writes each
/// as meshes of at most [`MAX_CUBES`] cubes. Cubes with a non-finite corner
/// are left out.
pub fn chunks(cubes: &[(Vec3, Vec3, [f32; 4])]) -> Vec<VoxelChunk> {
    let cell = cubes
        .iter()
        .map(|(lo, hi, _)| (hi.x - lo.x).abs())
        .find(|w| w.is_finite() && *w > 0.0)
        .unwrap_or(1.0);
    let tile = cell * TILE_CELLS;
    let mut tiles: BTreeMap<(i64, i64), Vec<VoxelChunk>> = BTreeMap::new();
    for &(lo, hi, c) in cubes {
        if !(lo.is_finite() && hi.is_finite()) {
            continue;
        }
        let key = ((lo.x / tile).floor() as i64, (lo.z / tile).floor() as i64);
        let list = tiles.entry(key).or_default();
        if list.last().is_none_or(|m| m.cubes() >= MAX_CUBES) {
            list.push(VoxelChunk::default());
        }
        if let Some(m) = list.last_mut() {
            m.push(lo, hi, c);
        }
    }
    tiles.into_values().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cube_sits_inside_its_cell_with_a_gap_and_faces_outwards() {
        let (min, max) = (Vec3::new(1.0, 2.0, 3.0), Vec3::new(1.3, 2.2, 3.3));
        let out = chunks(&[(min, max, [0.2, 0.6, 0.9, 1.0])]);
        assert_eq!(out.len(), 1);
        let m = &out[0];
        assert_eq!((m.cubes(), m.indices.len()), (1, 36));
        let pts: Vec<Vec3> = m.positions.iter().map(|p| Vec3::from_array(*p)).collect();
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
        for (p, c) in m.positions.iter().zip(&m.colors) {
            let bottom = p[1] < centre.y;
            let other = m
                .positions
                .iter()
                .zip(&m.colors)
                .find(|(q, _)| (q[1] < centre.y) != bottom)
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
        let out = chunks(&[cube(0.0, 0.0), cube(100.0, 0.0)]);
        assert_eq!(out.len(), 2);
        // One tile of more cubes than a mesh holds: split, nothing dropped.
        let many: Vec<_> = (0..MAX_CUBES + 10)
            .map(|i| cube((i % 60) as f32 * cell, (i / 60 % 60) as f32 * cell))
            .collect();
        let out = chunks(&many);
        assert_eq!(out.iter().map(VoxelChunk::cubes).sum::<usize>(), many.len());
        assert!(out.iter().all(|m| m.cubes() <= MAX_CUBES));
        assert!(
            out.iter()
                .all(|m| m.indices.iter().all(|&i| (i as usize) < m.positions.len()))
        );
    }

    #[test]
    fn degenerate_cubes() {
        assert!(chunks(&[]).is_empty());
        let nan = (Vec3::NAN, Vec3::ONE, [1.0; 4]);
        let flat = (Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0), [1.0; 4]);
        let out = chunks(&[nan, flat]);
        assert_eq!(
            out.iter().map(VoxelChunk::cubes).sum::<usize>(),
            1,
            "NaN left out, a flat cube kept"
        );
    }
}
