//! Brush levels as pipelines see them: convex brushes, their contents and
//! entities, and where doors and lifts rest. Below [`crate::level`] (which
//! re-exports every item here) and [`crate::movers`] (which derives what
//! the movers mean to an agent), so both can use them.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::geom::{Aabb, Plane};

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
    /// link when open. The loader also makes a door of a wall that an
    /// entity removes (its `killtarget`): one that does not move but
    /// vanishes ([`Entity::vanishes`]).
    Door,
    /// A lift (`func_plat`): a platform that carries agents between its
    /// low and high positions.
    Lift,
    /// A train (`func_train`): solid where it rests at its first
    /// `path_corner`, carrying agents from each corner to the next
    /// ([`train_stops`]).
    Train,
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
            Contents::Train => "train",
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

    /// True for a door entity that vanishes rather than moves: one of a
    /// class other than Quake's moving doors (`func_door`,
    /// `func_door_secret`, `func_door_rotating`), such as a `func_wall`
    /// that a trigger's `killtarget` removes (QuakeC's `SUB_UseTargets`
    /// removes every entity of that `targetname` when it fires).
    pub fn vanishes(&self) -> bool {
        !self.classname.to_ascii_lowercase().starts_with("func_door")
    }

    /// The world direction a mover moves or a pusher pushes, as QuakeC's
    /// `SetMovedir` makes it from the entity's `angles`: the engine sets
    /// `angles` from an `angle` key (`0 angle 0`) or an `angles` key
    /// (`pitch yaw roll`), whichever comes last. `0 -1 0` is up, `0 -2 0`
    /// down; any other is `makevectors`' forward vector, Quake
    /// `(cos p cos y, cos p sin y, -sin p)` (a positive pitch points down),
    /// which is world `(cos p cos y, -sin p, -cos p sin y)`. No key: yaw 0.
    pub fn move_dir(&self) -> DVec3 {
        let angles = self
            .properties
            .iter()
            .rev()
            .find_map(|(k, v)| match k.as_str() {
                "angle" => Some(v.trim().parse::<f64>().ok().map(|a| [0.0, a, 0.0])),
                "angles" => {
                    let n: Vec<f64> = v
                        .split_whitespace()
                        .filter_map(|t| t.parse().ok())
                        .collect();
                    Some(<[f64; 3]>::try_from(n).ok())
                }
                _ => None,
            })
            .flatten()
            .filter(|a| a.iter().all(|x| x.is_finite()))
            .unwrap_or([0.0; 3]);
        match angles {
            [0.0, -1.0, 0.0] => DVec3::Y,
            [0.0, -2.0, 0.0] => -DVec3::Y,
            [p, y, _] => {
                let (p, y) = (p.to_radians(), y.to_radians());
                DVec3::new(p.cos() * y.cos(), -p.sin(), -p.cos() * y.sin())
            }
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

/// How far a door of `entity` whose brushes span `bounds` moves to open:
/// Quake's `fabs(movedir * size) - lip` (`func_door`), a dot product in
/// Quake's axes (world z is Quake's -y), so along a tilted direction too;
/// `unit` is [`BrushLevel::unit`]. Negative when the lip is longer.
pub fn door_travel(entity: &Entity, bounds: Aabb, unit: f64) -> f64 {
    let (dir, size) = (entity.move_dir(), bounds.size());
    let lip = entity.number("lip").unwrap_or(DEFAULT_LIP) * unit;
    (dir.x * size.x + dir.y * size.y - dir.z * size.z).abs() - lip
}

/// True for a door box at least twice as wide and deep as it is high: a
/// panel of floor (or ceiling), not a wall.
pub fn is_floor_panel(bounds: Aabb) -> bool {
    let s = bounds.size();
    2.0 * s.y <= s.x.min(s.z)
}

/// True for a door of `entity` that moves up or down (`angle` -1 or -2);
/// one that vanishes ([`Entity::vanishes`]) does not move.
fn moves_vertically(entity: &Entity) -> bool {
    !entity.vanishes() && entity.move_dir().y != 0.0
}

/// `func_door`'s `START_OPEN` spawnflag.
const DOOR_START_OPEN: u32 = 1;

/// True for a `START_OPEN` door of `entity` that moves down to open
/// (`angle` -2): firing it raises it back to where it is drawn, so what
/// firing gives the player is the floor on its drawn top (a bridge that
/// rises), and it rests drawn. A `START_OPEN` door that moves up to open
/// instead comes down when fired, closing the way under it (a gate that
/// shuts behind the player): that way is the one the player uses, so it
/// rests open like any other door that moves up.
fn rises_when_fired(entity: &Entity) -> bool {
    starts_open(entity) && entity.move_dir().y < 0.0
}

/// True for a door of `entity` with `START_OPEN`: Quake spawns it at its
/// open position and, when fired, moves it back to where the file draws
/// it (`func_door` swaps `pos1` and `pos2`).
fn starts_open(entity: &Entity) -> bool {
    entity
        .number("spawnflags")
        .is_some_and(|f| f >= 0.0 && (f as u32) & DOOR_START_OPEN != 0)
}

/// Whether a mover's brushes are solid for agents where they rest
/// ([`rest_offset`]). A lift is, and a train (where it rests is its
/// first corner, [`BrushLevel::mover_groups`]). A door that moves up or down is, open:
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
        Contents::Lift | Contents::Train => true,
        Contents::Door => is_floor_panel(bounds) || moves_vertically(entity),
        _ => false,
    }
}

/// Where a mover rests while agents use it, as an offset from where the
/// file draws it, for a mover whose brushes span `bounds`; `unit` is
/// [`BrushLevel::unit`]. A door that moves up or down and is not a floor
/// panel rests open: it moves along [`Entity::move_dir`] by its height
/// less its `lip` (Quake's `func_door`), unless it is a `START_OPEN` door
/// that rises when fired ([`rises_when_fired`]): that one rests drawn,
/// and its drawn volume is the door region whose link says what fires it
/// ([`crate::movers`]). A lift rests low, down by
/// [`lift_travel`], unless it has a `targetname`: then Quake spawns it
/// raised, where the file draws it, until something fires it
/// (`func_plat`'s `plat_use`). Everything else rests where it is drawn.
pub fn rest_offset(contents: Contents, entity: &Entity, bounds: Aabb, unit: f64) -> DVec3 {
    match contents {
        Contents::Door
            if moves_vertically(entity) && !is_floor_panel(bounds) && !rises_when_fired(entity) =>
        {
            entity.move_dir() * door_travel(entity, bounds, unit).max(0.0)
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
mod tests {
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
        let bridge = ent(&[("angle", "-2"), ("lip", "32"), ("spawnflags", "5")]);
        assert_eq!(
            rest_offset(Contents::Door, &bridge, wall, 1.0 / 32.0),
            DVec3::ZERO,
            "START_OPEN and down: firing raises it to where it is drawn"
        );
        assert!(rests_solid(Contents::Door, &bridge, wall));
        let gate = ent(&[("angle", "-1"), ("lip", "32"), ("spawnflags", "1")]);
        let o = rest_offset(Contents::Door, &gate, wall, 1.0 / 32.0);
        assert!(
            (o - DVec3::new(0.0, 2.0, 0.0)).length() < 1e-12,
            "START_OPEN and up: open until fired shuts it: {o}"
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
    fn move_dir_follows_set_movedir_for_angle_and_angles() {
        let dir = |props: &[(&str, &str)]| ent(props).move_dir();
        let near = |a: DVec3, b: DVec3| (a - b).length() < 1e-12;
        assert_eq!(dir(&[]), DVec3::X);
        assert_eq!(dir(&[("angle", "-1")]), DVec3::Y);
        assert_eq!(dir(&[("angle", "-2")]), -DVec3::Y);
        assert!(near(dir(&[("angle", "90")]), -DVec3::Z), "Quake +y");
        assert!(near(dir(&[("angles", "-90 0 0")]), DVec3::Y), "pitch up");
        assert!(near(dir(&[("angles", "90 0 0")]), -DVec3::Y), "pitch down");
        assert_eq!(dir(&[("angles", "0 -1 0")]), DVec3::Y);
        assert!(near(dir(&[("angles", "0 180 0")]), -DVec3::X));
        let tilted = dir(&[("angles", "45 90 0")]);
        let h = 0.5f64.sqrt();
        assert!(near(tilted, DVec3::new(0.0, -h, -h)), "{tilted}");
        assert_eq!(
            dir(&[("angles", "-90 0 0"), ("angle", "-2")]),
            -DVec3::Y,
            "the last key wins"
        );
        assert_eq!(dir(&[("angles", "up")]), DVec3::X, "not numbers: yaw 0");
    }

    #[test]
    fn a_door_that_vanishes_rests_where_drawn_and_blocks_only_as_floor() {
        let wall = Aabb::from_corners(DVec3::ZERO, DVec3::new(2.0, 3.0, 0.25));
        let removed = Entity::with_properties("func_wall", &[("angle", "-1")]);
        assert!(removed.vanishes() && !ent(&[]).vanishes());
        assert!(!Entity::with_properties("func_door_secret", &[]).vanishes());
        assert_eq!(
            rest_offset(Contents::Door, &removed, wall, 1.0),
            DVec3::ZERO,
            "no move, whatever its angle"
        );
        assert!(
            !rests_solid(Contents::Door, &removed, wall),
            "a wall: passable"
        );
        let panel = Aabb::from_corners(DVec3::ZERO, DVec3::new(4.0, 0.25, 4.0));
        assert!(
            rests_solid(Contents::Door, &removed, panel),
            "a floor: floor"
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

impl BrushLevel {
    /// Where train `entity`, whose brushes span `bounds`, stops: its box
    /// at each `path_corner` of its path in the order it visits them,
    /// from its first (the corner its `target` names) round the cycle of
    /// corners (each corner's `target` names the next) until a corner
    /// repeats or names nothing. QuakeC's `funcref_train_find` and
    /// `train_next` place the train with `setorigin(self, targ.origin -
    /// self.mins)`: a brush entity's origin is zero, so the train's
    /// Quake mins (smallest x, y and z in Quake's axes) lands on the
    /// corner; Quake's y is world -z, so in world axes the box runs from
    /// the corner up in x and y and towards -z. Empty when the train's
    /// `target` names no entity with an origin.
    pub fn train_stops(&self, entity: usize, bounds: Aabb) -> Vec<Aabb> {
        let size = bounds.size();
        let named = |name: &str| {
            self.entities
                .iter()
                .position(|d| d.key("targetname") == Some(name) && d.origin.is_some())
        };
        let mut seen: Vec<usize> = Vec::new();
        let mut next = self.entities.get(entity).and_then(|e| e.key("target"));
        while let Some(c) = next.and_then(named) {
            let again = seen.contains(&c);
            seen.push(c);
            if again {
                break;
            }
            next = self.entities[c].key("target");
        }
        seen.iter()
            .filter_map(|&c| self.entities[c].origin)
            .map(|o| {
                let min = DVec3::new(o.x, o.y, o.z - size.z);
                Aabb {
                    min,
                    max: min + size,
                }
            })
            .collect()
    }
}

/// The brushes of one door, lift or train entity and where they rest.
#[derive(Clone, Debug, PartialEq)]
pub struct MoverGroup {
    /// The entity.
    pub entity: usize,
    /// `Door`, `Lift` or `Train`.
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
    /// The door, lift and train entities, each with its brushes and where
    /// they rest (a train at its first corner, [`BrushLevel::train_stops`];
    /// one with no path is not solid), in order of first brush. Brushes that make no solid are left
    /// out (they are reported where the level is built).
    pub fn mover_groups(&self) -> Vec<MoverGroup> {
        let mut groups: Vec<MoverGroup> = Vec::new();
        for (i, b) in self.brushes.iter().enumerate() {
            let (Some(e), Contents::Door | Contents::Lift | Contents::Train) =
                (b.entity, b.contents)
            else {
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
            if g.contents == Contents::Train {
                // A train rests at its first corner; one without a path
                // is not there at all (QuakeC cannot place it).
                match self.train_stops(g.entity, g.bounds).first() {
                    Some(at) => g.offset = at.min - g.bounds.min,
                    None => g.solid = false,
                }
            }
        }
        groups
    }
}
