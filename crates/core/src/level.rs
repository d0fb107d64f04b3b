//! Levels as pipelines see them: plain data, already parsed and validated.
//!
//! `navscope-levels` reads files into these types; pipelines accept one or
//! more [`LevelKind`]s. Plan data is in plan coordinates (see the crate
//! docs), world data in world coordinates.

use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

use crate::geom::{Aabb, Plane, PolygonWithHoles, TriMesh};

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

/// A brush level: convex brushes plus point entities.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrushLevel {
    /// Convex brushes (solid or not: see [`Brush::contents`]).
    pub brushes: Vec<Brush>,
    /// Point and brush entities other than the world (player starts,
    /// ladders, ...).
    pub entities: Vec<Entity>,
    /// Brushes the loader could not read and left out, so that one bad
    /// brush does not stop the rest of the level.
    #[serde(default)]
    pub skipped: Vec<SkippedBrush>,
    /// Metres per unit of the entity keys that are distances (`lip`,
    /// `height`, `speed`): the map scale of a `.map`, 1 for native levels.
    #[serde(default = "one")]
    pub unit: f64,
}

fn one() -> f64 {
    1.0
}

impl Default for BrushLevel {
    fn default() -> Self {
        Self {
            brushes: Vec::new(),
            entities: Vec::new(),
            skipped: Vec::new(),
            unit: 1.0,
        }
    }
}

/// A brush left out of a level, with where it was and why.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SkippedBrush {
    /// The brush as a message names it, e.g. `brush 57 (line 1204)`.
    pub element: String,
    /// What is wrong with it.
    pub problem: String,
    /// A box around the points that define it, when they are finite, so a
    /// viewer can mark where it was.
    pub bounds: Option<Aabb>,
}

/// What a brush is to an agent, decided by the loader from the map's
/// semantics (entity class, textures, content flags; see the levels
/// crate's `FORMATS.md`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Contents {
    /// Blocks every agent (walls, floors, sky).
    #[default]
    Solid,
    /// Blocks players but is invisible (Quake's `clip`).
    Clip,
    /// Water: not solid, swimmable.
    Water,
    /// Slime: not solid, hurts.
    Slime,
    /// Lava: not solid, hurts a lot.
    Lava,
    /// A trigger volume: not solid, kept for the links it makes
    /// (teleporters, pushers, level exits).
    Trigger,
    /// A door (`func_door`): solid when closed, passable through a door
    /// link when open.
    Door,
    /// A lift (`func_plat`): a platform that carries agents between its
    /// low and high positions.
    Lift,
    /// Not there for navigation (`func_illusionary`, hint, skip and origin
    /// brushes).
    Empty,
}

impl Contents {
    /// The name used in files and messages, e.g. `water`.
    pub fn name(self) -> &'static str {
        match self {
            Contents::Solid => "solid",
            Contents::Clip => "clip",
            Contents::Water => "water",
            Contents::Slime => "slime",
            Contents::Lava => "lava",
            Contents::Trigger => "trigger",
            Contents::Door => "door",
            Contents::Lift => "lift",
            Contents::Empty => "empty",
        }
    }

    /// True for the liquids.
    pub fn is_liquid(self) -> bool {
        matches!(self, Contents::Water | Contents::Slime | Contents::Lava)
    }

    /// True for the contents that always block an agent (solid and
    /// clip); doors and lifts are handled by where they move.
    pub fn blocks(self) -> bool {
        matches!(self, Contents::Solid | Contents::Clip)
    }
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
    /// What the brush is to an agent.
    #[serde(default)]
    pub contents: Contents,
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

impl Entity {
    /// An entity of `classname` with `properties` (in that order) and no
    /// origin, as a map's brush entities are.
    pub fn with_properties(classname: &str, properties: &[(&str, &str)]) -> Self {
        Entity {
            classname: classname.into(),
            origin: None,
            properties: properties
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// The value of property `key`, if present.
    pub fn key(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Property `key` as a finite number, if present and numeric.
    pub fn number(&self, key: &str) -> Option<f64> {
        self.key(key)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
    }

    /// The world direction of Quake's `angle` key: `-1` up, `-2` down,
    /// otherwise a yaw in degrees in Quake's horizontal plane (Quake
    /// `(cos a, sin a, 0)` is world `(cos a, 0, -sin a)`). No key: yaw 0.
    pub fn move_dir(&self) -> DVec3 {
        let a = self.number("angle").unwrap_or(0.0);
        if a == -1.0 {
            DVec3::Y
        } else if a == -2.0 {
            -DVec3::Y
        } else {
            let r = a.to_radians();
            DVec3::new(r.cos(), 0.0, -r.sin())
        }
    }
}

/// Quake's default `lip` of doors and plats, in map units.
pub const DEFAULT_LIP: f64 = 8.0;

/// How far a lift of `entity` whose brushes span `bounds` travels down
/// from where the file draws it (its top position): its `height` key, or
/// its height less its `lip` (Quake's `func_plat`); `unit` is
/// [`BrushLevel::unit`].
pub fn lift_travel(entity: &Entity, bounds: Aabb, unit: f64) -> f64 {
    let lip = entity.number("lip").unwrap_or(DEFAULT_LIP) * unit;
    let travel = match entity.number("height") {
        Some(h) => h * unit,
        None => bounds.size().y - lip,
    };
    travel.max(0.0)
}

/// True for a door box at least twice as wide and deep as it is high: a
/// panel of floor (or ceiling), not a wall.
pub fn is_floor_panel(bounds: Aabb) -> bool {
    let s = bounds.size();
    2.0 * s.y <= s.x.min(s.z)
}

/// True for a door of `entity` that moves up or down (`angle` -1 or -2).
fn moves_vertically(entity: &Entity) -> bool {
    entity.move_dir().y != 0.0
}

/// Whether a mover's brushes are solid for agents where they rest
/// ([`rest_offset`]). A lift is. A door that moves up or down is, open:
/// up it is out of the way, down its top is the floor or the step it
/// makes. A floor panel ([`is_floor_panel`]) is, drawn closed: the floor
/// the player crosses (with `START_OPEN`, the floor that firing it brings
/// back), where open it would leave a hole. Any other door, a wall that
/// slides sideways, is not: it is passable once opened, and one drawn
/// open (a trap that closes on the player) is passable until it closes,
/// so the player's way goes through both its positions; its drawn volume
/// is a door region ([`crate::movers`]).
pub fn rests_solid(contents: Contents, entity: &Entity, bounds: Aabb) -> bool {
    match contents {
        Contents::Lift => true,
        Contents::Door => is_floor_panel(bounds) || moves_vertically(entity),
        _ => false,
    }
}

/// Where a mover rests while agents use it, as an offset from where the
/// file draws it, for a mover whose brushes span `bounds`; `unit` is
/// [`BrushLevel::unit`]. A door that moves up or down and is not a floor
/// panel rests open: it moves along [`Entity::move_dir`] by its height
/// less its `lip` (Quake's `func_door`). A lift rests low, down by
/// [`lift_travel`], unless it has a `targetname`: then Quake spawns it
/// raised, where the file draws it, until something fires it
/// (`func_plat`'s `plat_use`). Everything else rests where it is drawn.
pub fn rest_offset(contents: Contents, entity: &Entity, bounds: Aabb, unit: f64) -> DVec3 {
    match contents {
        Contents::Door if moves_vertically(entity) && !is_floor_panel(bounds) => {
            let lip = entity.number("lip").unwrap_or(DEFAULT_LIP) * unit;
            entity.move_dir() * (bounds.size().y - lip).max(0.0)
        }
        Contents::Lift if entity.key("targetname").is_none() => {
            -DVec3::Y * lift_travel(entity, bounds, unit)
        }
        _ => DVec3::ZERO,
    }
}

impl Brush {
    /// The axis-aligned box from `min` to `max` as a brush of `contents`
    /// owned by `entity`, without materials.
    pub fn cuboid(min: DVec3, max: DVec3, contents: Contents, entity: Option<usize>) -> Self {
        Brush {
            planes: Aabb::from_corners(min, max).outward_planes().to_vec(),
            materials: vec![],
            entity,
            contents,
        }
    }

    /// The same brush moved by `offset`.
    pub fn moved(&self, offset: DVec3) -> Brush {
        Brush {
            planes: self
                .planes
                .iter()
                .map(|p| Plane {
                    normal: p.normal,
                    d: p.d + p.normal.dot(offset),
                })
                .collect(),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod mover_tests {
    use super::*;

    fn ent(props: &[(&str, &str)]) -> Entity {
        Entity::with_properties("func_door", props)
    }

    #[test]
    fn sliding_doors_are_passable_and_others_rest_where_they_are_floor() {
        let wall = Aabb::from_corners(DVec3::ZERO, DVec3::new(2.0, 3.0, 0.25));
        let sliding = ent(&[("angle", "90")]);
        assert_eq!(
            rest_offset(Contents::Door, &sliding, wall, 1.0),
            DVec3::ZERO
        );
        assert!(!rests_solid(Contents::Door, &sliding, wall), "passable");
        let down = ent(&[("angle", "-2"), ("lip", "32")]);
        let o = rest_offset(Contents::Door, &down, wall, 1.0 / 32.0);
        assert!((o - DVec3::new(0.0, -2.0, 0.0)).length() < 1e-12, "{o}");
        assert!(rests_solid(Contents::Door, &down, wall), "its top a step");
        let up = ent(&[("angle", "-1"), ("lip", "256")]);
        assert_eq!(
            rest_offset(Contents::Door, &up, wall, 1.0 / 32.0),
            DVec3::ZERO,
            "a lip longer than the door: no move"
        );
        let panel = Aabb::from_corners(DVec3::ZERO, DVec3::new(4.0, 0.25, 4.0));
        assert_eq!(rest_offset(Contents::Door, &down, panel, 1.0), DVec3::ZERO);
        assert!(
            rests_solid(Contents::Door, &sliding, panel),
            "a floor panel is floor"
        );
        let block = Aabb::from_corners(DVec3::ZERO, DVec3::new(17.0, 4.0, 6.0));
        assert!(
            !rests_solid(Contents::Door, &sliding, block),
            "a sliding block"
        );
        assert!(rests_solid(Contents::Lift, &sliding, block));
        assert!(
            !rests_solid(Contents::Solid, &sliding, block),
            "not a mover"
        );
    }

    #[test]
    fn lifts_rest_low_and_others_stay() {
        let b = Aabb::from_corners(DVec3::ZERO, DVec3::new(2.0, 4.0, 2.0));
        let o = rest_offset(Contents::Lift, &ent(&[]), b, 0.5);
        assert!(
            (o.y + (4.0 - 4.0)).abs() < 1e-12,
            "lip 8 units of 0.5 m: {o}"
        );
        let o = rest_offset(Contents::Lift, &ent(&[("height", "6")]), b, 0.5);
        assert_eq!(o, DVec3::new(0.0, -3.0, 0.0));
        let named = ent(&[("height", "6"), ("targetname", "up")]);
        assert_eq!(
            rest_offset(Contents::Lift, &named, b, 0.5),
            DVec3::ZERO,
            "a plat with a name starts raised"
        );
        assert_eq!(lift_travel(&named, b, 0.5), 3.0, "and still travels");
        assert_eq!(rest_offset(Contents::Solid, &ent(&[]), b, 1.0), DVec3::ZERO);
        let moved = Brush {
            planes: b.outward_planes().to_vec(),
            ..Default::default()
        }
        .moved(o);
        assert!(moved.planes.iter().all(|p| p.d.is_finite()));
        assert_eq!(
            moved.planes[2].d - b.outward_planes()[2].d,
            -3.0 * b.outward_planes()[2].normal.y
        );
    }
}

/// The brushes of one door or lift entity and where they rest.
#[derive(Clone, Debug, PartialEq)]
pub struct MoverGroup {
    /// The entity.
    pub entity: usize,
    /// `Door` or `Lift`.
    pub contents: Contents,
    /// Its brushes (indices into the level's brushes) that form solids.
    pub brushes: Vec<usize>,
    /// The box of those brushes where the file draws them.
    pub bounds: Aabb,
    /// Where they rest, as an offset ([`rest_offset`]).
    pub offset: DVec3,
    /// Whether they are solid there ([`rests_solid`]).
    pub solid: bool,
}

impl BrushLevel {
    /// The door and lift entities, each with its brushes and where they
    /// rest, in order of first brush. Brushes that make no solid are left
    /// out (they are reported where the level is built).
    pub fn mover_groups(&self) -> Vec<MoverGroup> {
        let mut groups: Vec<MoverGroup> = Vec::new();
        for (i, b) in self.brushes.iter().enumerate() {
            let (Some(e), Contents::Door | Contents::Lift) = (b.entity, b.contents) else {
                continue;
            };
            if e >= self.entities.len() {
                continue;
            }
            let Ok(solid) = crate::geom::polyhedron::Polyhedron::from_planes(&b.planes) else {
                continue;
            };
            match groups.iter_mut().find(|g| g.entity == e) {
                Some(g) => {
                    g.bounds = g.bounds.union(solid.bounds);
                    g.brushes.push(i);
                }
                None => groups.push(MoverGroup {
                    entity: e,
                    contents: b.contents,
                    brushes: vec![i],
                    bounds: solid.bounds,
                    offset: DVec3::ZERO,
                    solid: false,
                }),
            }
        }
        for g in &mut groups {
            g.offset = rest_offset(g.contents, &self.entities[g.entity], g.bounds, self.unit);
            g.solid = rests_solid(g.contents, &self.entities[g.entity], g.bounds);
        }
        groups
    }
}
