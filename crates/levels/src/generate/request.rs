//! A generator request checked against the loader's [`Budget`] before it
//! runs, so `navscope-cli generate` never spends gigabytes making a file
//! the loader would refuse.
//!
//! [`Request::estimate`] bounds what a request makes (vertices, brushes,
//! layers, bytes of text) from its size parameters alone;
//! [`Request::check`] compares that with the budget; [`Request::bytes`]
//! generates and writes the level, and checks the written size too.

use crate::budget::Budget;
use crate::write;

use super::{
    DOTTED_RASTER_SIDECAR, big_floor_plan, brush_maze, dotted_raster, floor_plan, rectilinear_maze,
    stacked_floors, star_polygon,
};

/// One generator and its size parameters (see the generator functions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// [`floor_plan`] with this many obstacles.
    FloorPlan { obstacles: usize },
    /// [`big_floor_plan`] with this many vertices.
    BigFloorPlan { vertices: usize },
    /// [`rectilinear_maze`] of `width` x `height` cells.
    Maze { width: usize, height: usize },
    /// [`star_polygon`] with this many vertices.
    Star { vertices: usize },
    /// [`brush_maze`] of `width` x `height` cells.
    BrushMaze { width: usize, height: usize },
    /// [`stacked_floors`] with this many floors.
    StackedFloors { floors: usize },
    /// [`dotted_raster`] of `size` x `size` pixels, a dot every `spacing`.
    DottedRaster { size: usize, spacing: usize },
}

/// An upper bound on what a request makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimate {
    /// Vertices of all rings.
    pub vertices: u64,
    /// Brushes.
    pub brushes: u64,
    /// Layers.
    pub layers: u64,
    /// Raster pixels.
    pub pixels: u64,
    /// Bytes of the written file.
    pub bytes: u64,
}

/// Most vertices of one random obstacle (a 7-pointed star).
const OBSTACLE_VERTICES: u64 = 14;
/// Upper bound on the text of one 2D vertex in floor plan JSON or RON
/// (`[-1234.567890123456, 1234.567890123456],` plus indentation).
const VERTEX_BYTES: u64 = 48;
/// Upper bound on the text of a floor plan around its vertices (format,
/// version, keys, brackets).
const PLAN_HEADER_BYTES: u64 = 256;
/// Upper bound on the RON text of one box brush (six planes, materials).
const BRUSH_BYTES: u64 = 1200;

impl Request {
    /// What the request makes at most, from its parameters alone.
    pub fn estimate(&self) -> Estimate {
        let u = |n: usize| n as u64;
        let plan = |vertices: u64| Estimate {
            vertices,
            layers: 1,
            bytes: vertices
                .saturating_mul(VERTEX_BYTES)
                .saturating_add(PLAN_HEADER_BYTES),
            ..Estimate::default()
        };
        // The maze grid has 2w + 1 by 2h + 1 squares; a ring vertex is a
        // grid corner, and a corner is used by at most two rings.
        let corners = |w: usize, h: usize| {
            (2 * u(w) + 2)
                .saturating_mul(2 * u(h) + 2)
                .saturating_mul(2)
        };
        match *self {
            Request::FloorPlan { obstacles } => {
                plan(4 + u(obstacles).saturating_mul(OBSTACLE_VERTICES))
            }
            Request::BigFloorPlan { vertices } => plan(u(vertices.max(64))),
            Request::Star { vertices } => plan(u(vertices.max(3))),
            Request::Maze { width, height } => plan(corners(width, height)),
            Request::BrushMaze { width, height } => {
                let brushes = 1 + (2 * u(height) + 1).saturating_mul(u(width) + 1);
                Estimate {
                    brushes,
                    bytes: brushes.saturating_mul(BRUSH_BYTES),
                    ..Estimate::default()
                }
            }
            Request::DottedRaster { size, .. } => {
                let size = size.max(1);
                let pixels = u(size).saturating_mul(u(size));
                // Stored (uncompressed) deflate at worst: a filter byte per
                // row, 5 bytes per 64 KiB block, and the chunks around it.
                let raw = pixels.saturating_add(u(size));
                Estimate {
                    pixels,
                    layers: 1,
                    bytes: raw.saturating_add(raw / 65_535 * 5 + 1024),
                    ..Estimate::default()
                }
            }
            Request::StackedFloors { floors } => {
                let layers = u(floors.max(1));
                // Outer rectangle and up to 8 pillars of up to 10 vertices.
                let vertices = layers.saturating_mul(4 + 8 * 10);
                Estimate {
                    vertices,
                    layers,
                    bytes: vertices
                        .saturating_mul(VERTEX_BYTES)
                        .saturating_add(layers.saturating_mul(400)),
                    ..Estimate::default()
                }
            }
        }
    }

    /// Refuses a request whose level the loader would refuse under
    /// `budget`, saying which limit it passes.
    pub fn check(&self, budget: &Budget) -> Result<(), String> {
        let e = self.estimate();
        for (what, count, limit) in [
            ("layers", e.layers, budget.max_layers),
            ("vertices", e.vertices, budget.max_vertices),
            ("brushes", e.brushes, budget.max_brushes),
            ("bytes", e.bytes, budget.max_file_bytes),
            ("pixels", e.pixels, budget.max_cells),
        ] {
            if count > limit {
                return Err(format!(
                    "this level would have up to {count} {what}, more than the loader accepts ({limit} {what}); refusing to generate it"
                ));
            }
        }
        Ok(())
    }

    /// Generates the level with `seed` and returns its file's bytes (floor
    /// plan JSON, brush or layer RON, PNG), after [`Request::check`]; the
    /// written size is checked against the budget as well.
    pub fn bytes(&self, seed: u64, budget: &Budget) -> Result<Vec<u8>, String> {
        self.check(budget)?;
        let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let bytes = match *self {
            Request::FloorPlan { obstacles } => {
                write::floor_plan_json(&floor_plan(seed, obstacles)).into_bytes()
            }
            Request::BigFloorPlan { vertices } => {
                write::floor_plan_json(&big_floor_plan(seed, vertices)).into_bytes()
            }
            Request::Maze { width, height } => {
                write::floor_plan_json(&rectilinear_maze(seed, width, height)).into_bytes()
            }
            Request::Star { vertices } => {
                write::floor_plan_json(&star_polygon(seed, vertices)).into_bytes()
            }
            Request::BrushMaze { width, height } => {
                write::brushes_ron(&brush_maze(seed, width, height)).into_bytes()
            }
            Request::StackedFloors { floors } => {
                write::layers_ron(&stacked_floors(seed, floors)).into_bytes()
            }
            Request::DottedRaster { size, spacing } => dotted_raster(side(size), side(spacing)),
        };
        Budget::check("", "bytes", bytes.len() as u64, budget.max_file_bytes)
            .map_err(|f| f.problem)?;
        Ok(bytes)
    }

    /// The sidecar to write beside the level as `NAME.ron` after its full
    /// name (`NAME.png.ron`), for levels that need one.
    pub fn sidecar(&self) -> Option<&'static str> {
        match self {
            Request::DottedRaster { .. } => Some(DOTTED_RASTER_SIDECAR),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_bound_what_the_generators_make() {
        let b = Budget::default();
        for r in [
            Request::FloorPlan { obstacles: 50 },
            Request::BigFloorPlan { vertices: 3000 },
            Request::Maze {
                width: 12,
                height: 9,
            },
            Request::Star { vertices: 500 },
            Request::BrushMaze {
                width: 7,
                height: 5,
            },
            Request::StackedFloors { floors: 6 },
            Request::DottedRaster {
                size: 37,
                spacing: 4,
            },
            // Sizes of zero make the smallest level of their kind.
            Request::DottedRaster {
                size: 0,
                spacing: 0,
            },
            Request::Star { vertices: 0 },
            Request::Maze {
                width: 0,
                height: 0,
            },
            Request::StackedFloors { floors: 0 },
        ] {
            let e = r.estimate();
            let text = r.bytes(3, &b).unwrap();
            assert!(
                text.len() as u64 <= e.bytes,
                "{r:?}: {} > {}",
                text.len(),
                e.bytes
            );
            let name = match r {
                Request::BrushMaze { .. } | Request::StackedFloors { .. } => "g.ron",
                Request::DottedRaster { .. } => "g.png",
                _ => "g.json",
            };
            let level = crate::load_bytes(name, &text).unwrap();
            use navscope_core::level::LevelData;
            match &level.data {
                LevelData::FloorPlan(p) => {
                    assert!(p.area.vertex_count() as u64 <= e.vertices, "{r:?}")
                }
                LevelData::Brushes(l) => assert!(l.brushes.len() as u64 <= e.brushes, "{r:?}"),
                LevelData::Layers(l) => {
                    assert!(l.layers.len() as u64 <= e.layers, "{r:?}");
                    let v: usize = l.layers.iter().map(|x| x.area.vertex_count()).sum();
                    assert!(v as u64 <= e.vertices, "{r:?}");
                }
                LevelData::Raster(p) => {
                    assert_eq!(u64::from(p.width) * u64::from(p.height), e.pixels, "{r:?}");
                    // Size 37, spacing 4: a dot at 2, 6, ..., 34 on each
                    // axis, 9 x 9; size 0 is one pixel, a dot at spacing 1.
                    let dots = p.obstacle.iter().filter(|&&o| o != 0).count();
                    let side = if e.pixels == 1 { 1 } else { 9 };
                    assert_eq!(dots, side * side, "{r:?}");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn over_budget_requests_are_refused_before_generating() {
        let b = Budget::default();
        let e = Request::StackedFloors { floors: 1_000_000 }
            .check(&b)
            .unwrap_err();
        assert_eq!(
            e,
            "this level would have up to 1000000 layers, more than the loader accepts (10000 layers); refusing to generate it"
        );
        assert!(Request::StackedFloors { floors: 10_000 }.check(&b).is_ok());
        let e = Request::BigFloorPlan {
            vertices: 30_000_000,
        }
        .check(&b)
        .unwrap_err();
        assert!(e.contains("vertices"), "{e}");
        assert!(
            Request::BigFloorPlan {
                vertices: 1_000_000
            }
            .check(&b)
            .is_ok()
        );
    }
}
