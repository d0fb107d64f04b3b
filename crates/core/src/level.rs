//! Levels as pipelines see them: plain data, already parsed and validated.
//!
//! `navscope-levels` reads files into these types; pipelines accept one or
//! more [`LevelKind`]s. Plan data is in plan coordinates (see the crate
//! docs), world data in world coordinates.

use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

use crate::geom::{Plane, PolygonWithHoles, TriMesh};

/// The kinds of level input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LevelKind {
    /// A 2D floor plan: outer polygon and holes.
    FloorPlan,
    /// A raster floor plan (image).
    Raster,
    /// A triangle mesh (OBJ, glTF).
    Mesh,
    /// Convex brushes (Quake `.map`, native RON).
    Brushes,
    /// Layers of 2D polygons with connections.
    Layers,
}

impl LevelKind {
    /// Lower-case name as used in messages and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            LevelKind::FloorPlan => "floor plan",
            LevelKind::Raster => "raster floor plan",
            LevelKind::Mesh => "triangle mesh",
            LevelKind::Brushes => "brush level",
            LevelKind::Layers => "multi-layer environment",
        }
    }
}

/// A loaded level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// The path as given (or `<embedded>` for the built-in default).
    pub source: String,
    /// The level's data.
    pub data: LevelData,
}

impl Level {
    /// Its kind.
    pub fn kind(&self) -> LevelKind {
        match &self.data {
            LevelData::FloorPlan(_) => LevelKind::FloorPlan,
            LevelData::Raster(_) => LevelKind::Raster,
            LevelData::Mesh(_) => LevelKind::Mesh,
            LevelData::Brushes(_) => LevelKind::Brushes,
            LevelData::Layers(_) => LevelKind::Layers,
        }
    }
}

/// The data of each level kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LevelData {
    /// See [`FloorPlan`].
    FloorPlan(FloorPlan),
    /// See [`RasterPlan`].
    Raster(RasterPlan),
    /// See [`MeshLevel`].
    Mesh(MeshLevel),
    /// See [`BrushLevel`].
    Brushes(BrushLevel),
    /// See [`LayeredLevel`].
    Layers(LayeredLevel),
}

/// A floor plan on the ground plane (y = 0), normalised: outer
/// counter-clockwise, holes clockwise, validated.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FloorPlan {
    /// Free space.
    pub area: PolygonWithHoles,
    /// Designer-placed navigation nodes (navigation-graph pipeline).
    pub nodes: Vec<NamedPoint>,
    /// Blocking primitives standing in the free space.
    pub blockers: Vec<Blocker>,
}

/// A named plan point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedPoint {
    /// Name (unique within the level).
    pub name: String,
    /// Plan position.
    pub at: DVec2,
}

/// A blocking primitive on a floor plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Blocker {
    /// A box: centre, half extents and rotation (radians, counter-clockwise
    /// seen from above).
    Box {
        center: DVec2,
        half: DVec2,
        angle: f64,
    },
    /// A vertical cylinder.
    Cylinder { center: DVec2, radius: f64 },
}

/// A raster floor plan, classified into obstacle and free pixels.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RasterPlan {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Metres per pixel.
    pub metres_per_pixel: f64,
    /// One byte per pixel, row-major from the image's top row: 1 for an
    /// obstacle, 0 for free space.
    pub obstacle: Vec<u8>,
    /// The original image as RGBA8, for display.
    pub rgba: Vec<u8>,
}

impl RasterPlan {
    /// True when pixel `(x, y)` (y from the top) is an obstacle; outside
    /// the image counts as obstacle.
    pub fn is_obstacle(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return true;
        }
        self.obstacle[(y as usize) * self.width as usize + x as usize] != 0
    }

    /// World position of the centre of pixel `(x, y)`: the image's top-left
    /// corner sits at the origin, columns run along +X and rows along +Z.
    pub fn pixel_centre(&self, x: u32, y: u32) -> DVec3 {
        DVec3::new(
            (x as f64 + 0.5) * self.metres_per_pixel,
            0.0,
            (y as f64 + 0.5) * self.metres_per_pixel,
        )
    }
}

/// A triangle-mesh level.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeshLevel {
    /// The geometry.
    pub mesh: TriMesh,
    /// Water volumes (boxes filled with water up to their top).
    pub water: Vec<crate::geom::Aabb>,
}

/// A brush level: convex brushes plus point entities.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrushLevel {
    /// Solid convex brushes.
    pub brushes: Vec<Brush>,
    /// Point and brush entities other than the world (player starts,
    /// ladders, ...).
    pub entities: Vec<Entity>,
}

/// A convex brush: the intersection of the half-spaces behind its planes
/// (normals point out of the solid).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Brush {
    /// Bounding planes, normals outward.
    pub planes: Vec<Plane>,
    /// Texture or material name per plane (may be empty).
    pub materials: Vec<String>,
    /// Index of the entity that owns the brush (`None`: the world).
    pub entity: Option<usize>,
}

/// An entity with a class name and key/value properties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// `classname`, e.g. `info_player_start`, `func_ladder`.
    pub classname: String,
    /// Origin in world space, when it has one.
    pub origin: Option<DVec3>,
    /// The other properties, in file order.
    pub properties: Vec<(String, String)>,
}

/// Layers of 2D polygons joined by connections (van Toll et al.).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LayeredLevel {
    /// The layers.
    pub layers: Vec<Layer>,
    /// Connections between layers.
    pub connections: Vec<Connection>,
}

/// One walkable layer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Layer {
    /// Name.
    pub name: String,
    /// Height (world y) at which the layer is drawn and walked.
    pub height: f64,
    /// Free space, normalised and validated.
    pub area: PolygonWithHoles,
}

/// A directed connection: the segment `a -> b` joins `from` to `to`; the
/// access side is to the left of `a -> b` on the `from` layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Connection {
    /// Segment start (plan).
    pub a: DVec2,
    /// Segment end (plan).
    pub b: DVec2,
    /// Layer the connection is entered from.
    pub from: usize,
    /// Layer it leads to.
    pub to: usize,
}
