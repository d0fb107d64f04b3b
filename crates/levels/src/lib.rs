//! # navscope-levels
//!
//! Reads every level kind navscope knows into core's one
//! [`Level`] type, validates it, and writes and
//! generates levels for tests and benchmarks.
//!
//! * [`load`] / [`load_with`]: a file; the format is picked by content
//!   (PNG and GLB signatures), then extension, then a look at the text; a
//!   native RON file names its kind with its top-level struct name.
//! * [`load_bytes`] / [`load_bytes_with`]: the same from memory (no
//!   sidecars or external buffers: there is no folder to look in).
//! * [`check_regular_file`]: refuses FIFOs, sockets, devices and
//!   directories before anything opens them (every `load` checks first).
//! * [`default_level`]: the embedded default floor plan the app opens with.
//! * [`write`](mod@write): floor plan JSON / RON, brush and layer RON writers.
//! * [`floor_plan_mesh`], [`layers_mesh`], [`brush_mesh`]: conversions
//!   to triangle meshes, so the mesh pipeline runs on every level kind
//!   (see [`extrude`] and [`brushes::to_mesh`]; the raster → floor plan
//!   conversion uses the `navgraph` pipeline's contour stages and lives in
//!   `navscope-pipelines`).
//! * [`generate`]: deterministic generators (floor plans with N obstacles,
//!   mazes, stars, the 10,000-vertex speed target, brush mazes, stacked
//!   floors).
//!
//! Every error is a [`LevelError`] that prints as one line
//! `FILE: ELEMENT: PROBLEM`. Sizes are bounded by a [`Budget`]: declared
//! sizes are checked before anything is allocated for them. Coordinates are
//! bounded by [`MAX_COORD`] (±100 km), the bound named in the message.
//!
//! ## Formats
//!
//! World coordinates, Y up, metres; 2D files hold `[x, z]` pairs on the
//! ground plane in any ring orientation (normalised on load). Each format is
//! described with examples in `FORMATS.md` beside this crate, and in the
//! docs of its module.
//!
//! | kind | files | module |
//! |---|---|---|
//! | floor plan | `.json` `{"format": "navscope-floorplan", "version": 1, "outer": [[x, z], ...], "holes": [...], "nodes": [...], "blockers": [...]}`; `.ron` `FloorPlan(..)` | `floorplan` |
//! | floor plan, or multi-layer environment | `.mesh` polyanya navigation mesh, versions 1 to 3 (free space = union of its free polygons; one part: a floor plan; several parts: one layer per part at height 0; vertices where it touches itself split per wedge) | `polyanya` |
//! | raster floor plan | `.png` with optional sidecar `NAME.png.ron` / `NAME.ron` `Raster(..)` | [`raster`] |
//! | triangle mesh | `.obj` (tobj), `.gltf` / `.glb` (gltf); objects named `water*` become water volumes; optional sidecar `NAME.obj.ron` `MeshSidecar(volumes: [..])` with convex area volumes | `mesh`, [`volumes`] |
//! | brush level | `.ron` `BrushLevel(..)`; `.map` Quake standard / Valve 220 (quake-util), Z up to Y up at 1/32 m per unit | [`brushes`] |
//! | multi-layer environment | `.ron` `LayeredLevel(..)` | `layers` |
//!
//! ## Validation choices
//!
//! Repeated vertices and vertices collinear with their neighbours (exact
//! `orient` test, so zero-width spikes too, or within 1e-10 of the
//! neighbours' distance of their line: a vertex 1e-13 m off a wall) are
//! dropped before the rings are validated with core's
//! `validate_polygon_with_holes` (one plane sweep, O(n log n)); error
//! messages still count vertices and edges as the file has them. Nodes,
//! blocker centres and connection ends must lie in the free space (on the
//! boundary counts as in). Brushes must be bounded convex solids with
//! volume. What each loader checks is listed in its module docs.

mod bounds;
pub mod brushes;
mod budget;
mod error;
pub mod extrude;
mod floorplan;
pub mod generate;
mod layers;
mod mesh;
mod polyanya;
pub mod raster;
mod rings;
mod text;
pub mod volumes;
pub mod write;

use std::io::Read;
use std::path::Path;

use navscope_core::level::{Level, LevelData};

pub use bounds::MAX_COORD;
pub use brushes::to_mesh::{Converted, brush_mesh};
pub use budget::Budget;
pub use error::{ErrorKind, LevelError};
pub use extrude::{DEFAULT_WALL_HEIGHT, floor_plan_mesh, layers_mesh};
pub use floorplan::{JSON_FORMAT as FLOOR_PLAN_FORMAT, JSON_VERSION as FLOOR_PLAN_VERSION};
pub use layers::MAX_INCLINE_DEGREES;

use error::Fault;

/// The embedded default floor plan (`assets/levels/floorplan/default.json`).
const DEFAULT_FLOOR_PLAN: &[u8] = include_bytes!("../../../assets/levels/floorplan/default.json");

/// `Level::source` of [`default_level`].
pub const DEFAULT_SOURCE: &str = "<embedded default>";

/// The file formats the loader recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    FloorPlanJson,
    Ron,
    Polyanya,
    Png,
    Obj,
    Gltf,
    Map,
}

/// Lower-case extension of `name`, if any.
fn extension(name: &str) -> Option<String> {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Picks the format: extension first, then a look at the content for
/// unknown extensions.
fn detect(name: &str, bytes: &[u8]) -> Result<Format, Fault> {
    if raster::is_png(bytes) {
        return Ok(Format::Png);
    }
    if bytes.starts_with(b"glTF") {
        return Ok(Format::Gltf);
    }
    match extension(name).as_deref() {
        Some("png") => return Ok(Format::Png),
        Some("json") => return Ok(Format::FloorPlanJson),
        Some("ron") => return Ok(Format::Ron),
        Some("mesh") => return Ok(Format::Polyanya),
        Some("obj") => return Ok(Format::Obj),
        Some("gltf") | Some("glb") => return Ok(Format::Gltf),
        Some("map") => return Ok(Format::Map),
        _ => {}
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    let head = head.trim_start();
    if (head.starts_with('{') || head.starts_with("//")) && head.contains("\"classname\"") {
        Ok(Format::Map)
    } else if head.starts_with('{') && head.contains("\"asset\"") {
        Ok(Format::Gltf)
    } else if head.starts_with('{') {
        Ok(Format::FloorPlanJson)
    } else if head.split_whitespace().next() == Some("mesh") {
        Ok(Format::Polyanya)
    } else if text::ron_struct_name(head).is_some() {
        Ok(Format::Ron)
    } else {
        Err(Fault::format(
            "",
            "unknown level format (known: .json, .ron, .png, .obj, .gltf, .glb, .map, .mesh)",
        ))
    }
}

/// Loads a level file with the default [`Budget`]. `Level::source` is the
/// path as given.
pub fn load(path: &Path) -> Result<Level, LevelError> {
    load_with(path, &Budget::default())
}

/// Loads a level file within `budget`: the file size is checked before it
/// is read, declared sizes inside it before they are allocated.
pub fn load_with(path: &Path, budget: &Budget) -> Result<Level, LevelError> {
    let name = path.display().to_string();
    let bytes = read_capped(path, budget.max_file_bytes).map_err(|f| f.in_file(&name))?;
    let format = detect(&name, &bytes).map_err(|f| f.in_file(&name))?;
    if format == Format::Png {
        let settings = raster_sidecar(path, budget)?;
        let plan = raster::parse(&bytes, &settings, budget).map_err(|f| f.in_file(&name))?;
        return Ok(Level {
            source: name,
            data: LevelData::Raster(plan),
        });
    }
    if format == Format::Ron
        && std::str::from_utf8(&bytes)
            .ok()
            .and_then(text::ron_struct_name)
            == Some("Raster")
    {
        return load_sidecar_image(path, &name, &bytes, budget);
    }
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let external = |uri: &str| -> Result<Vec<u8>, Fault> {
        let rel = Path::new(uri);
        if uri.contains("://")
            || rel.is_absolute()
            || rel
                .components()
                .any(|c| c == std::path::Component::ParentDir)
        {
            return Err(Fault::syntax(
                "",
                format!(
                    "external file \"{uri}\" must be a relative path inside the level's folder"
                ),
            ));
        }
        read_capped(&dir.join(rel), budget.max_file_bytes)
            .map_err(|f| f.within(&format!("external file \"{uri}\"")))
    };
    let rules = if format == Format::Map {
        map_sidecar(path, budget)?
    } else {
        brushes::semantics::Rules::default()
    };
    let mut data = parse(&name, &bytes, budget, &external, &rules).map_err(|f| f.in_file(&name))?;
    if let LevelData::Mesh(m) = &mut data
        && matches!(format, Format::Obj | Format::Gltf)
    {
        m.volumes = mesh_sidecar(path, budget)?;
    }
    Ok(Level { source: name, data })
}

/// The convex volumes of the mesh at `path`: its `NAME.obj.ron` (or
/// `.gltf.ron`, `.glb.ron`) sidecar ([`volumes`]), none when there is none.
fn mesh_sidecar(
    path: &Path,
    budget: &Budget,
) -> Result<Vec<navscope_core::level::ConvexVolume>, LevelError> {
    let mut long = path.as_os_str().to_owned();
    long.push(".ron");
    let side = std::path::PathBuf::from(long);
    if !side.is_file() {
        return Ok(Vec::new());
    }
    let sname = side.display().to_string();
    let bytes = read_capped(&side, budget.max_file_bytes).map_err(|f| f.in_file(&sname))?;
    let text = text::utf8(&bytes).map_err(|f| f.in_file(&sname))?;
    volumes::parse(text).map_err(|f| f.in_file(&sname))
}

/// The brush rules of the `.map` at `path`: its `NAME.map.ron` sidecar,
/// or the defaults when there is none.
fn map_sidecar(path: &Path, budget: &Budget) -> Result<brushes::semantics::Rules, LevelError> {
    let mut long = path.as_os_str().to_owned();
    long.push(".ron");
    let side = std::path::PathBuf::from(long);
    if !side.is_file() {
        return Ok(brushes::semantics::Rules::default());
    }
    let sname = side.display().to_string();
    let bytes = read_capped(&side, budget.max_file_bytes).map_err(|f| f.in_file(&sname))?;
    let text = text::utf8(&bytes).map_err(|f| f.in_file(&sname))?;
    brushes::semantics::Rules::parse(text).map_err(|f| f.in_file(&sname))
}

/// The sidecar of the PNG at `path`: `NAME.png.ron` (always a sidecar),
/// else `NAME.ron` when that is a `Raster(..)`; defaults when there is none.
fn raster_sidecar(path: &Path, budget: &Budget) -> Result<raster::RasterSettings, LevelError> {
    let mut long = path.as_os_str().to_owned();
    long.push(".ron");
    for (candidate, always) in [
        (std::path::PathBuf::from(long), true),
        (path.with_extension("ron"), false),
    ] {
        if !candidate.is_file() {
            continue;
        }
        let cname = candidate.display().to_string();
        let bytes =
            read_capped(&candidate, budget.max_file_bytes).map_err(|f| f.in_file(&cname))?;
        let text = text::utf8(&bytes).map_err(|f| f.in_file(&cname))?;
        if always || text::ron_struct_name(text) == Some("Raster") {
            return raster::RasterSettings::parse(text).map_err(|f| f.in_file(&cname));
        }
    }
    Ok(raster::RasterSettings::default())
}

/// Loads the image a raster sidecar describes, with that sidecar.
fn load_sidecar_image(
    path: &Path,
    name: &str,
    bytes: &[u8],
    budget: &Budget,
) -> Result<Level, LevelError> {
    let text = text::utf8(bytes).map_err(|f| f.in_file(name))?;
    let settings = raster::RasterSettings::parse(text).map_err(|f| f.in_file(name))?;
    let image = match &settings.image {
        Some(rel) => path.parent().unwrap_or(Path::new("")).join(rel),
        None => {
            let stem = path.with_extension("");
            if extension(&stem.display().to_string()).as_deref() == Some("png") {
                stem
            } else {
                path.with_extension("png")
            }
        }
    };
    let iname = image.display().to_string();
    let ibytes = read_capped(&image, budget.max_file_bytes).map_err(|f| {
        f.within(&format!("image of raster sidecar {name}"))
            .in_file(&iname)
    })?;
    let plan = raster::parse(&ibytes, &settings, budget).map_err(|f| f.in_file(&iname))?;
    Ok(Level {
        source: name.to_string(),
        data: LevelData::Raster(plan),
    })
}

/// Checks that `path` names a regular file (following symbolic links)
/// before anything opens it: opening a FIFO blocks until a writer comes,
/// and reading a device or a directory makes no sense. The error prints
/// as `PATH: is a FIFO, not a regular file`.
pub fn check_regular_file(path: &Path) -> Result<(), LevelError> {
    regular_file(path).map_err(|f| f.in_file(&path.display().to_string()))
}

/// [`check_regular_file`] without the file name.
fn regular_file(path: &Path) -> Result<(), Fault> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Fault::new(ErrorKind::Io, "", format!("cannot read: {e}")))?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_file_kind(&kind)
    };
    Err(Fault::new(
        ErrorKind::Io,
        "",
        format!("is {what}, not a regular file"),
    ))
}

/// What kind of special file `kind` is (FIFO, socket, device).
#[cfg(unix)]
fn special_file_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "a special file"
    }
}

/// What kind of special file `kind` is.
#[cfg(not(unix))]
fn special_file_kind(_kind: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Reads at most `cap` bytes of a regular file, refusing larger files.
fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, Fault> {
    let io = |e: std::io::Error| Fault::new(ErrorKind::Io, "", format!("cannot read: {e}"));
    regular_file(path)?;
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    Budget::check("", "bytes", len, cap)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    Budget::check("", "bytes", bytes.len() as u64, cap)?;
    Ok(bytes)
}

/// Loads a level from memory with the default [`Budget`]; `name` gives the
/// extension and is used in messages and as `Level::source`.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Level, LevelError> {
    load_bytes_with(name, bytes, &Budget::default())
}

/// Loads a level from memory within `budget`.
pub fn load_bytes_with(name: &str, bytes: &[u8], budget: &Budget) -> Result<Level, LevelError> {
    let external = |uri: &str| -> Result<Vec<u8>, Fault> {
        Err(Fault::syntax(
            "",
            format!("refers to the external file \"{uri}\"; load the level by path to read it"),
        ))
    };
    let data = parse(
        name,
        bytes,
        budget,
        &external,
        &brushes::semantics::Rules::default(),
    )
    .map_err(|f| f.in_file(name))?;
    Ok(Level {
        source: name.to_string(),
        data,
    })
}

fn parse(
    name: &str,
    bytes: &[u8],
    budget: &Budget,
    external: mesh::ExternalReader,
    rules: &brushes::semantics::Rules,
) -> Result<LevelData, Fault> {
    Budget::check("", "bytes", bytes.len() as u64, budget.max_file_bytes)?;
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Fault::syntax("", "file is empty"));
    }
    match detect(name, bytes)? {
        Format::FloorPlanJson => Ok(LevelData::FloorPlan(floorplan::parse_json(
            text::utf8(bytes)?,
            budget,
        )?)),
        Format::Ron => parse_ron(text::utf8(bytes)?, budget),
        Format::Polyanya => polyanya::parse(text::utf8(bytes)?, budget),
        Format::Png => Ok(LevelData::Raster(raster::parse(
            bytes,
            &raster::RasterSettings::default(),
            budget,
        )?)),
        Format::Obj => Ok(LevelData::Mesh(mesh::parse_obj(
            text::utf8(bytes)?,
            budget,
        )?)),
        Format::Gltf => Ok(LevelData::Mesh(mesh::parse_gltf(bytes, budget, external)?)),
        Format::Map => Ok(LevelData::Brushes(brushes::parse_map(
            text::utf8(bytes)?,
            budget,
            rules,
        )?)),
    }
}

/// The top-level names of native RON levels.
const RON_KINDS: &str = "`FloorPlan(`, `BrushLevel(`, `LayeredLevel(`, `Raster(` (a PNG sidecar)";

/// Native RON: the top-level struct name says which kind.
fn parse_ron(text: &str, budget: &Budget) -> Result<LevelData, Fault> {
    match text::ron_struct_name(text) {
        Some("FloorPlan") => Ok(LevelData::FloorPlan(floorplan::parse_ron(text, budget)?)),
        Some("BrushLevel") => Ok(LevelData::Brushes(brushes::parse_ron(text, budget)?)),
        Some("LayeredLevel") => Ok(LevelData::Layers(layers::parse_ron(text, budget)?)),
        Some("Raster") => Err(Fault::format(
            "",
            "this is a raster sidecar: load it by path, or load the PNG it describes",
        )),
        Some(other) => Err(Fault::format(
            "",
            format!("RON level starts with `{other}(`, expected one of {RON_KINDS}"),
        )),
        None => Err(Fault::format(
            "",
            format!("RON level must start with its kind, one of {RON_KINDS}"),
        )),
    }
}

/// The embedded default floor plan: an office floor with two rooms, a
/// counter, a pillar and a rack (29 notches). It is what the app shows at
/// start. `source` is [`DEFAULT_SOURCE`].
pub fn default_level() -> Level {
    match load_bytes(DEFAULT_SOURCE, DEFAULT_FLOOR_PLAN) {
        Ok(level) => level,
        // The embedded file is checked by the tests; should it ever be
        // broken, fall back to an empty 10 m room rather than panicking.
        Err(_) => Level {
            source: DEFAULT_SOURCE.to_string(),
            data: LevelData::FloorPlan(generate::floor_plan(0, 0)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::{Orientation, PolygonWithHoles, orient};

    /// Reflex vertices of the free space: reflex corners of the outer
    /// ring and convex corners of the holes (which wind clockwise).
    pub(crate) fn notches(a: &PolygonWithHoles) -> usize {
        a.rings()
            .map(|r| {
                (0..r.len())
                    .filter(|&i| {
                        orient(r.at(i as isize - 1), r.points[i], r.at(i as isize + 1))
                            == Orientation::Clockwise
                    })
                    .count()
            })
            .sum()
    }

    #[test]
    fn default_level_is_a_designer_floor_plan() {
        let level = default_level();
        assert_eq!(level.source, DEFAULT_SOURCE);
        let LevelData::FloorPlan(plan) = &level.data else {
            panic!("default is a floor plan")
        };
        // The embedded file must load on its own (no fallback).
        assert_eq!(
            load_bytes(DEFAULT_SOURCE, DEFAULT_FLOOR_PLAN).unwrap().data,
            level.data
        );
        let notches = notches(&plan.area);
        assert!((15..=30).contains(&notches), "{notches} notches");
        assert!(
            plan.area.holes.iter().any(|h| !{
                let mut c = h.clone();
                c.reverse();
                c.is_convex()
            }),
            "has concave obstacles"
        );
    }

    #[test]
    fn unknown_and_empty_files() {
        let e = load_bytes("x.txt", b"hello").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Format);
        assert!(
            e.to_string().starts_with("x.txt: unknown level format"),
            "{e}"
        );
        let e = load_bytes("x.json", b"  \n").unwrap_err();
        assert_eq!(e.to_string(), "x.json: file is empty");
        let e = load(Path::new("/nonexistent/level.json")).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Io);
        assert!(
            e.to_string()
                .starts_with("/nonexistent/level.json: cannot read"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_refused_before_opening() {
        let dir = std::env::temp_dir().join(format!("navscope-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("level.json");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Opening would block forever with no writer: the check must
            // come first.
            let e = load(&fifo).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Io);
            assert_eq!(e.problem(), "is a FIFO (named pipe), not a regular file");
        } else {
            panic!("mkfifo is not available to make the test FIFO");
        }
        let e = load(&dir).unwrap_err();
        assert_eq!(e.problem(), "is a directory, not a regular file");
        let e = load(Path::new("/dev/null")).unwrap_err();
        assert_eq!(e.to_string(), "/dev/null: is a device, not a regular file");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn file_size_budget_is_checked_before_reading() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/floorplan/small.json");
        let e = load_with(
            &path,
            &Budget {
                max_file_bytes: 10,
                ..Budget::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Budget);
        assert!(
            e.problem().contains("exceed the memory budget of 10 bytes"),
            "{e}"
        );
        assert!(load(&path).is_ok());
    }
}
