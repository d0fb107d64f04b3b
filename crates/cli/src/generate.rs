//! `navscope-cli generate`: write a large random level for benchmarks,
//! through `navscope-levels`' seeded generators (the same seed gives the
//! same file).

use std::path::Path;

use clap::Subcommand;
use navscope_levels::Budget;
use navscope_levels::generate::Request;

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
    /// PNG raster with a 1-px obstacle every SPACING px, 1 m per pixel
    /// (writes OUT and its sidecar OUT.ron).
    DottedRaster {
        /// Pixels across and down.
        #[arg(long, default_value_t = 1000)]
        size: usize,
        /// Pixels from one dot to the next.
        #[arg(long, default_value_t = 4)]
        spacing: usize,
    },
}

/// Upper bound on the size parameters, so a typo cannot ask for terabytes.
const MAX_SIZE: usize = 1_000_000;

impl Generator {
    /// The generator request with its sizes.
    fn request(&self) -> Request {
        match *self {
            Generator::FloorPlan { obstacles } => Request::FloorPlan { obstacles },
            Generator::BigFloorPlan { vertices } => Request::BigFloorPlan { vertices },
            Generator::Maze { width, height } => Request::Maze { width, height },
            Generator::Star { vertices } => Request::Star { vertices },
            Generator::BrushMaze { width, height } => Request::BrushMaze { width, height },
            Generator::StackedFloors { floors } => Request::StackedFloors { floors },
            Generator::DottedRaster { size, spacing } => Request::DottedRaster { size, spacing },
        }
    }

    /// The product of the size parameters (cells, vertices, floors, ...;
    /// the dots of a dotted raster).
    fn size(&self) -> usize {
        match *self {
            Generator::FloorPlan { obstacles: n }
            | Generator::BigFloorPlan { vertices: n }
            | Generator::Star { vertices: n }
            | Generator::StackedFloors { floors: n } => n,
            Generator::Maze { width, height } | Generator::BrushMaze { width, height } => {
                width.saturating_mul(height)
            }
            Generator::DottedRaster { size, spacing } => {
                let across = size / spacing.max(1);
                across.saturating_mul(across)
            }
        }
    }
}

/// Generates and writes the level (and its sidecar, `OUT.ron`, when it has
/// one). A request whose level the loader would refuse (over the default
/// [`Budget`]) is refused before generating.
pub fn run(what: &Generator, seed: u64, out: &Path) -> Result<(), CliError> {
    let n = what.size();
    if n > MAX_SIZE {
        return Err(CliError::Usage(format!(
            "size {n} is above the limit of {MAX_SIZE}"
        )));
    }
    let request = what.request();
    let bytes = request
        .bytes(seed, &Budget::default())
        .map_err(|e| CliError::Usage(format!("{}: {e}", out.display())))?;
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::write(path, bytes)
            .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))
    };
    write(out, &bytes)?;
    if let Some(sidecar) = request.sidecar() {
        let mut name = out.as_os_str().to_owned();
        name.push(".ron");
        write(Path::new(&name), sidecar.as_bytes())?;
    }
    Ok(())
}
