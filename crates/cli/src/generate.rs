//! `navscope-cli generate`: write a large random level for benchmarks,
//! through `navscope-levels`' seeded generators (the same seed gives the
//! same file).

use std::path::Path;

use clap::Subcommand;
use navscope_levels::{generate, write};

use crate::session::CliError;

/// What to generate.
#[derive(Subcommand, Debug, Clone)]
pub enum Generator {
    /// Floor plan: a rectangle with N random convex and concave obstacles.
    FloorPlan {
        /// Number of obstacles.
        #[arg(long, default_value_t = 20)]
        obstacles: usize,
    },
    /// Floor plan with about N vertices (about 30% of them notches).
    BigFloorPlan {
        /// Target vertex count.
        #[arg(long, default_value_t = 10_000)]
        vertices: usize,
    },
    /// Rectilinear maze floor plan of W x H cells.
    Maze {
        /// Cells across.
        #[arg(long, default_value_t = 20)]
        width: usize,
        /// Cells down.
        #[arg(long, default_value_t = 20)]
        height: usize,
    },
    /// Star-shaped floor plan with N vertices.
    Star {
        /// Vertex count.
        #[arg(long, default_value_t = 64)]
        vertices: usize,
    },
    /// Brush maze of W x H cells (native RON brush level).
    BrushMaze {
        /// Cells across.
        #[arg(long, default_value_t = 20)]
        width: usize,
        /// Cells down.
        #[arg(long, default_value_t = 20)]
        height: usize,
    },
    /// Stacked floors joined by stairs (native RON multi-layer level).
    StackedFloors {
        /// Number of floors.
        #[arg(long, default_value_t = 4)]
        floors: usize,
    },
}

/// Upper bound on the size parameters, so a typo cannot ask for terabytes.
const MAX_SIZE: usize = 1_000_000;

/// Generates and writes the level.
pub fn run(what: &Generator, seed: u64, out: &Path) -> Result<(), CliError> {
    let too_big = |n: usize| {
        if n > MAX_SIZE {
            Err(CliError::Usage(format!(
                "size {n} is above the limit of {MAX_SIZE}"
            )))
        } else {
            Ok(())
        }
    };
    let text = match *what {
        Generator::FloorPlan { obstacles } => {
            too_big(obstacles)?;
            write::floor_plan_json(&generate::floor_plan(seed, obstacles))
        }
        Generator::BigFloorPlan { vertices } => {
            too_big(vertices)?;
            write::floor_plan_json(&generate::big_floor_plan(seed, vertices))
        }
        Generator::Maze { width, height } => {
            too_big(width * height)?;
            write::floor_plan_json(&generate::rectilinear_maze(seed, width, height))
        }
        Generator::Star { vertices } => {
            too_big(vertices)?;
            write::floor_plan_json(&generate::star_polygon(seed, vertices))
        }
        Generator::BrushMaze { width, height } => {
            too_big(width * height)?;
            write::brushes_ron(&generate::brush_maze(seed, width, height))
        }
        Generator::StackedFloors { floors } => {
            too_big(floors)?;
            write::layers_ron(&generate::stacked_floors(seed, floors))
        }
    };
    std::fs::write(out, text).map_err(|e| CliError::Failed(format!("{}: {e}", out.display())))
}
