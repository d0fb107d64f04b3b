//! The voxel grid every stage shares: where cell `(x, z)` and height unit
//! `h` lie in the world, and a tile's rectangle of cells (its core and the
//! border it reads around it).

use glam::DVec3;
use serde::Serialize;

/// Most voxel heights a level may span (spans store heights in 16 bits).
pub const MAX_HEIGHT_UNITS: u64 = 60_000;

/// The global voxel grid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Grid {
    /// World position of cell (0, 0)'s minimum corner and of height 0.
    pub origin: DVec3,
    /// Column width (m).
    pub cs: f64,
    /// Voxel height (m).
    pub ch: f64,
    /// Columns along x.
    pub width: i32,
    /// Columns along z.
    pub depth: i32,
}

impl Grid {
    /// World x of grid line `gx`.
    pub fn x(&self, gx: i32) -> f64 {
        self.origin.x + gx as f64 * self.cs
    }
    /// World z of grid line `gz`.
    pub fn z(&self, gz: i32) -> f64 {
        self.origin.z + gz as f64 * self.cs
    }
    /// World y of height unit `h`.
    pub fn y(&self, h: u16) -> f64 {
        self.origin.y + h as f64 * self.ch
    }
    /// World point of grid corner `(gx, gz)` at height `y`.
    pub fn corner(&self, gx: i32, gz: i32, y: f64) -> DVec3 {
        DVec3::new(self.x(gx), y, self.z(gz))
    }
}

/// One tile: its core cells (global cell coordinates, half-open) and its
/// padded cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TileRect {
    /// First core column.
    pub x0: i32,
    /// First core row.
    pub z0: i32,
    /// One past the last core column.
    pub x1: i32,
    /// One past the last core row.
    pub z1: i32,
    /// Border cells on each side.
    pub pad: i32,
}

impl TileRect {
    /// Padded bounds `(x0, z0, x1, z1)`.
    pub fn padded(&self) -> (i32, i32, i32, i32) {
        (
            self.x0 - self.pad,
            self.z0 - self.pad,
            self.x1 + self.pad,
            self.z1 + self.pad,
        )
    }
    /// True when global cell `(x, z)` is in the core.
    pub fn in_core(&self, x: i32, z: i32) -> bool {
        x >= self.x0 && x < self.x1 && z >= self.z0 && z < self.z1
    }
}
