//! Levels as pipelines see them: plain data, already parsed and validated.
//!
//! `navscope-levels` reads files into these types; pipelines accept one or
//! more [`LevelKind`]s. Plan data is in plan coordinates (see the crate
//! docs), world data in world coordinates.

use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

pub use crate::brush::{
    Brush, BrushLevel, Contents, DEFAULT_LIP, Entity, MoverGroup, SkippedBrush, door_travel,
    lift_travel, rest_offset, rests_solid,
};
use crate::geom::{PolygonWithHoles, TriMesh};

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
    /// Doors, lifts and triggers of the brush level the mesh was converted
    /// from (empty for other meshes), so mesh pipelines can link them.
    #[serde(default)]
    pub movers: crate::movers::Movers,
    /// Convex volumes that give the walkable surface inside them an area
    /// (Recast's convex volumes), from the level's sidecar; empty when it
    /// has none.
    #[serde(default)]
    pub volumes: Vec<ConvexVolume>,
}

/// A vertical prism over a convex plan polygon that marks the walkable
/// surface inside it with an area name and a cost (Recast's convex volume,
/// applied like `rcMarkConvexPolyArea`: a walkable surface whose cell
/// centre lies inside the polygon and whose floor lies between `min_y` and
/// `max_y` takes the area). Later volumes of a list win where they overlap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConvexVolume {
    /// The area name it gives (e.g. `water`, `grass`, `road`, `door`).
    pub area: String,
    /// Cost multiplier of moving through the area; `None`: the pipeline's
    /// cost for that area name.
    #[serde(default)]
    pub cost: Option<f64>,
    /// The convex polygon as world `(x, z)` pairs (the file format's
    /// `[x, z]`), in either winding.
    pub points: Vec<DVec2>,
    /// Lowest floor height (m) it marks.
    pub min_y: f64,
    /// Highest floor height (m) it marks.
    pub max_y: f64,
}

impl ConvexVolume {
    /// True when the world point `(x, z)` lies inside the polygon or on its
    /// boundary: on the same side of (or on) every edge, whichever the
    /// winding.
    pub fn contains_xz(&self, x: f64, z: f64) -> bool {
        let n = self.points.len();
        let p = DVec2::new(x, z);
        let (mut left, mut right) = (false, false);
        for i in 0..n {
            let (a, b) = (self.points[i], self.points[(i + 1) % n]);
            let side = (b - a).perp_dot(p - a);
            left |= side > 0.0;
            right |= side < 0.0;
        }
        n >= 3 && !(left && right)
    }

    /// True when a floor at height `y` over plan point `(x, z)` is marked.
    pub fn contains(&self, x: f64, y: f64, z: f64) -> bool {
        y >= self.min_y && y <= self.max_y && self.contains_xz(x, z)
    }
}

/// Layers of 2D polygons joined by connections (van Toll et al.).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LayeredLevel {
    /// The layers.
    pub layers: Vec<Layer>,
    /// Connections between layers.
    pub connections: Vec<Connection>,
}

/// One walkable layer: 2D polygons that all lie in one plane (van Toll et
/// al.'s definition), given by their plan (the polygons seen from above)
/// and the plane's height over the plan. A horizontal layer has a zero
/// `slope`; a ramp or a stair flight is an inclined layer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Layer {
    /// Name.
    pub name: String,
    /// Height (world y) of the layer's plane over the plan origin: the
    /// layer's height when it is horizontal.
    pub height: f64,
    /// Rise of the layer's plane (metres of world y) per plan metre along
    /// plan x and plan y; zero for a horizontal layer.
    #[serde(default)]
    pub slope: DVec2,
    /// Free space in plan, normalised and validated.
    pub area: PolygonWithHoles,
}

impl Layer {
    /// The plane the layer lies on.
    pub fn plane(&self) -> LayerPlane {
        LayerPlane {
            height: self.height,
            slope: self.slope,
        }
    }
}

/// The plane of a layer as a height over the plan, `y = height + slope ·
/// p` at plan point `p`: lifting a plan point onto the layer and
/// projecting a layer point back to the plan (straight down) are exact
/// inverses, and a straight plan segment lifts to a straight segment on
/// the plane. Vertical planes cannot be written this way, which is what a
/// walkable layer needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LayerPlane {
    /// Height over the plan origin.
    pub height: f64,
    /// Rise per plan metre along plan x and plan y.
    pub slope: DVec2,
}

impl LayerPlane {
    /// The steepest plane a walkable layer may lie on, degrees from the
    /// horizontal: steeper than any stair a person climbs (the paper
    /// measures distances on a layer in projection, which assumes no layer
    /// is exceptionally steep).
    pub const MAX_INCLINE_DEGREES: f64 = 60.0;

    /// A horizontal plane at height `h`.
    pub fn level(h: f64) -> Self {
        LayerPlane {
            height: h,
            slope: DVec2::ZERO,
        }
    }

    /// The plane through three world points, or why there is none: the
    /// points lie on one line, or the plane is vertical (their plan
    /// positions lie on one line), which no walkable layer can be.
    pub fn through(points: [DVec3; 3]) -> Result<Self, String> {
        if points.iter().any(|p| !p.is_finite()) {
            return Err("a point is not finite".into());
        }
        let [p0, p1, p2] = points.map(crate::geom::world_to_plan);
        let (d1, d2) = (p1 - p0, p2 - p0);
        let (h1, h2) = (points[1].y - points[0].y, points[2].y - points[0].y);
        let det = d1.perp_dot(d2);
        let span = (points[1] - points[0])
            .cross(points[2] - points[0])
            .length();
        let scale = (points[1] - points[0]).length() * (points[2] - points[0]).length();
        if span <= 1e-12 * scale {
            return Err("its three points lie on one line".into());
        }
        if det.abs() <= 1e-9 * scale {
            return Err("it is vertical (its three points lie on one line seen from above)".into());
        }
        let slope = DVec2::new(h1 * d2.y - h2 * d1.y, d1.x * h2 - d2.x * h1) / det;
        Ok(LayerPlane {
            height: points[0].y - slope.dot(p0),
            slope,
        })
    }

    /// The plane through plan point `foot` at height `h0` and `head` at
    /// `h1`, level across the line `foot -> head` (a ramp or stair flight
    /// rising from `foot` to `head`).
    pub fn rising(foot: DVec2, h0: f64, head: DVec2, h1: f64) -> Self {
        let d = head - foot;
        let slope = d * ((h1 - h0) / d.length_squared());
        LayerPlane {
            height: h0 - slope.dot(foot),
            slope,
        }
    }

    /// Height of the plane over plan point `p`.
    pub fn height_at(&self, p: DVec2) -> f64 {
        self.height + self.slope.dot(p)
    }

    /// The world point of the plane over plan point `p`.
    pub fn lift(&self, p: DVec2) -> DVec3 {
        crate::geom::plan_to_world(p, self.height_at(p))
    }

    /// Angle of the plane to the horizontal, degrees.
    pub fn incline_degrees(&self) -> f64 {
        self.slope.length().atan().to_degrees()
    }

    /// Whether the plane is horizontal.
    pub fn is_level(&self) -> bool {
        self.slope == DVec2::ZERO
    }
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
