//! What a brush level's movers and triggers mean to an agent, derived once
//! for every pipeline: `cspace` cuts its polygons by these regions and
//! links them, `voxel` receives them through the brush → mesh conversion
//! ([`crate::level::MeshLevel::movers`]) and links its polygons the same
//! way.
//!
//! * A door ([`Contents::Door`] of an entity) is a [`RegionKind::Door`]
//!   region over the volume it is drawn in, its closed position (where it
//!   is solid, see [`crate::brush::rests_solid`]): walking into it crosses
//!   a door link.
//! * A lift ([`Contents::Lift`] of an entity) is a [`Lift`]: the box from
//!   its top in the low position to its top in the high position
//!   ([`crate::brush::lift_travel`]), wherever it rests.
//! * A floor panel door ([`crate::brush::is_floor_panel`]) that slides in
//!   plan opens a [`Hole`]: the part of its drawn box its open position
//!   leaves (Quake's `func_door` moves along its `angle` by its size along
//!   it less its `lip`; when the vacated part is L-shaped, the larger of
//!   its two strips). Whether it starts closed and opens under the player
//!   (a trap, or a panel opened by a button) or starts open
//!   (`START_OPEN`) and closes when fired, there is a time when the player
//!   can fall through it. A floor panel that vanishes instead
//!   ([`Entity::vanishes`]: a wall an entity's `killtarget` removes) opens
//!   its whole box.
//! * A train ([`Contents::Train`], `func_train`) is a list of [`Ride`]s,
//!   one per leg of its path ([`BrushLevel::train_stops`]): its box at a
//!   corner and at the next, in the direction it travels (QuakeC's
//!   `train_next` only goes forward round the cycle of corners, so a ride
//!   goes both ways only where the path comes back). Its brushes are solid
//!   where it rests, at its first corner ([`BrushLevel::mover_groups`]).
//!   A train with a `targetname` waits to be fired before it first moves
//!   (`funcref_train_find`); its rides are the same, since whatever fires
//!   it is on the player's way or the train never moves. Each corner's
//!   `wait` is only a pause: it changes no ride.
//! * Water, slime and lava brushes are regions of their name.
//! * `trigger_teleport` (with the origin of the entity its `target` names),
//!   `trigger_push` and `trigger_changelevel` (the exit) are regions;
//!   other triggers are ignored. A `trigger_push` sets the velocity of
//!   whoever touches it to `speed` (0 or none: 1000) times its direction
//!   ([`Entity::move_dir`]) times [`PUSH_SCALE`] (QuakeC's
//!   `trigger_push_touch`), each component clamped to [`MAX_VELOCITY`] by
//!   the engine. A `trigger_monsterjump` is ignored: its touch returns
//!   unless the toucher is a walking monster, so it never throws the
//!   player.
//! * Brushes whose planes make no closed solid, of a class the caller
//!   leaves out (ladders in `cspace`), or of an entity the level does not
//!   have make nothing.
//!
//! A pusher's flight is followed by [`flight`], under Quake's gravity
//! scaled to metres ([`Movers::gravity`]).

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::brush::{BrushLevel, Contents, Entity, door_travel, is_floor_panel, lift_travel};
use crate::geom::Aabb;
use crate::geom::polyhedron::Polyhedron;

/// Quake's gravity, in map units per second squared.
pub const QUAKE_GRAVITY: f64 = 800.0;
/// Time step of a followed flight, seconds.
pub const FLIGHT_STEP: f64 = 0.02;
/// Longest followed flight, seconds.
pub const FLIGHT_TIME: f64 = 6.0;

/// What a region does to the walkable space inside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegionKind {
    /// A door's closed volume: entering it crosses a door link.
    Door,
    /// Water: swimmable.
    Water,
    /// Slime.
    Slime,
    /// Lava.
    Lava,
    /// A teleporter and where it sends the agent (`None`: its target is
    /// missing).
    Teleport(Option<DVec3>),
    /// A pusher (`trigger_push`) and the launch
    /// velocity it gives, metres per second.
    Push(DVec3),
    /// The level's exit (`trigger_changelevel`).
    Exit,
}

impl RegionKind {
    /// The area name of nodes inside the region.
    pub fn area(&self) -> &'static str {
        match self {
            RegionKind::Door => "door",
            RegionKind::Water => "water",
            RegionKind::Slime => "slime",
            RegionKind::Lava => "lava",
            RegionKind::Teleport(_) => "teleport",
            RegionKind::Push(_) => "push",
            RegionKind::Exit => "exit",
        }
    }
}

/// A box-shaped part of the level with a meaning for agents inside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region {
    /// What it is.
    pub kind: RegionKind,
    /// The entity it belongs to (`None` for world liquids).
    pub entity: Option<usize>,
    /// The box of its brushes.
    pub bounds: Aabb,
}

impl Region {
    /// A region of `kind` over the box from `min` to `max`, of no entity.
    pub fn new(kind: RegionKind, min: DVec3, max: DVec3) -> Self {
        Region {
            kind,
            entity: None,
            bounds: Aabb { min, max },
        }
    }

    /// The box of agent centre positions inside the region for an agent
    /// with half extents `half`: the agent is in a door, a trigger, slime
    /// or lava as soon as its box touches it, so the box grows by `half`;
    /// water is the exception (the agent swims only where the water covers
    /// its centre), so a water box grows sideways and down but not up.
    pub fn centre_box(&self, half: DVec3) -> Aabb {
        let b = self.bounds;
        let top = match self.kind {
            RegionKind::Water => b.max.y,
            _ => b.max.y + half.y,
        };
        Aabb {
            min: b.min - half,
            max: DVec3::new(b.max.x + half.x, top, b.max.z + half.z),
        }
    }
}

/// A lift: the box from its top in the low position to its top in the high
/// position, over its brushes' plan.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lift {
    /// Index of the entity in the level.
    pub entity: usize,
    /// The travel box.
    pub bounds: Aabb,
}

/// One leg of a train's path: the train's box where it stops at one corner
/// and where it stops at the next; an agent on its top at `from` is carried
/// to its top at `to`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ride {
    /// Index of the train entity in the level.
    pub entity: usize,
    /// The train's box at the corner the leg leaves.
    pub from: Aabb,
    /// The train's box at the corner the leg reaches.
    pub to: Aabb,
}

/// The part of a floor panel door's drawn box that is open while the door
/// is (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hole {
    /// Index of the door entity in the level.
    pub entity: usize,
    /// The open part in plan, from the panel's bottom to its top.
    pub bounds: Aabb,
}

/// The regions and lifts of a brush level, and the gravity its pushers
/// fly under.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Movers {
    /// Liquid and trigger regions in brush order, then door regions in
    /// order of their first brush.
    pub regions: Vec<Region>,
    /// Lifts in order of their first brush.
    pub lifts: Vec<Lift>,
    /// Holes of floor panel doors in order of their first brush.
    #[serde(default)]
    pub holes: Vec<Hole>,
    /// Legs of trains, trains in order of their first brush, legs in the
    /// order each train travels them.
    #[serde(default)]
    pub rides: Vec<Ride>,
    /// Quake's gravity in metres per second squared
    /// ([`QUAKE_GRAVITY`] times the level's unit).
    pub gravity: f64,
}

impl BrushLevel {
    /// The level's regions and lifts (see the module docs); brushes of
    /// entity class `except_class` make none.
    pub fn movers(&self, except_class: Option<&str>) -> Movers {
        let mut out = Movers {
            gravity: QUAKE_GRAVITY * self.unit,
            ..Movers::default()
        };
        for b in &self.brushes {
            let entity = match b.entity {
                Some(e) => match self.entities.get(e) {
                    Some(x) => Some(x),
                    None => continue,
                },
                None => None,
            };
            if entity.is_some_and(|e| Some(e.classname.as_str()) == except_class) {
                continue;
            }
            let kind = match (b.contents, entity) {
                (Contents::Water, _) => RegionKind::Water,
                (Contents::Slime, _) => RegionKind::Slime,
                (Contents::Lava, _) => RegionKind::Lava,
                (Contents::Trigger, Some(e)) => match trigger_kind(self, e) {
                    Some(k) => k,
                    None => continue,
                },
                _ => continue,
            };
            let Ok(solid) = Polyhedron::from_planes(&b.planes) else {
                continue;
            };
            out.regions.push(Region {
                kind,
                entity: b.entity,
                bounds: solid.bounds,
            });
        }
        for g in self.mover_groups() {
            if g.contents == Contents::Train {
                let stops = self.train_stops(g.entity, g.bounds);
                // A leg that goes nowhere (a corner naming itself) is no ride.
                out.rides
                    .extend(stops.windows(2).filter(|w| w[0] != w[1]).map(|w| Ride {
                        entity: g.entity,
                        from: w[0],
                        to: w[1],
                    }));
            } else if g.contents == Contents::Door {
                out.holes
                    .extend(
                        hole(&self.entities[g.entity], g.bounds, self.unit).map(|bounds| Hole {
                            entity: g.entity,
                            bounds,
                        }),
                    );
                out.regions.push(Region {
                    kind: RegionKind::Door,
                    entity: Some(g.entity),
                    bounds: g.bounds,
                });
            } else {
                let top = g.bounds.max.y;
                let travel = lift_travel(&self.entities[g.entity], g.bounds, self.unit);
                out.lifts.push(Lift {
                    entity: g.entity,
                    bounds: Aabb {
                        min: DVec3::new(g.bounds.min.x, top - travel, g.bounds.min.z),
                        max: DVec3::new(g.bounds.max.x, top, g.bounds.max.z),
                    },
                });
            }
        }
        out
    }
}

/// The hole a floor panel door of `entity` drawn over `bounds` opens (see
/// the module docs), if it is a floor panel that moves in plan.
fn hole(entity: &Entity, bounds: Aabb, unit: f64) -> Option<Aabb> {
    if !is_floor_panel(bounds) {
        return None;
    }
    if entity.vanishes() {
        return Some(bounds);
    }
    let dir = entity.move_dir();
    if dir.y != 0.0 {
        return None;
    }
    let size = bounds.size();
    let travel = door_travel(entity, bounds, unit);
    if travel <= 1e-9 {
        return None;
    }
    let (dx, dz) = (dir.x * travel, dir.z * travel);
    // The strip each axis's move leaves, across the whole other axis.
    let strip = |d: f64, lo: f64, hi: f64| {
        let w = d.abs().min(hi - lo);
        if d > 0.0 { (lo, lo + w) } else { (hi - w, hi) }
    };
    let (x0, x1) = strip(dx, bounds.min.x, bounds.max.x);
    let (z0, z1) = strip(dz, bounds.min.z, bounds.max.z);
    let along_x = (x1 - x0) * size.z;
    let along_z = (z1 - z0) * size.x;
    let (min, max) = if along_x >= along_z {
        ((x0, bounds.min.z), (x1, bounds.max.z))
    } else {
        ((bounds.min.x, z0), (bounds.max.x, z1))
    };
    (max.0 > min.0 && max.1 > min.1).then(|| Aabb {
        min: DVec3::new(min.0, bounds.min.y, min.1),
        max: DVec3::new(max.0, bounds.max.y, max.1),
    })
}

/// What QuakeC's `trigger_push_touch` multiplies a pusher's `speed` by
/// (`other.velocity = self.speed * self.movedir * 10`).
pub const PUSH_SCALE: f64 = 10.0;
/// Quake's `sv_maxvelocity` (units/s): the engine clamps each component of
/// a velocity to it (`SV_CheckVelocity`).
pub const MAX_VELOCITY: f64 = 2000.0;

/// The region a trigger entity makes, if it makes one.
fn trigger_kind(level: &BrushLevel, e: &Entity) -> Option<RegionKind> {
    match e.classname.as_str() {
        "trigger_teleport" => {
            let dest = e.key("target").and_then(|t| {
                level
                    .entities
                    .iter()
                    .find(|d| d.key("targetname") == Some(t) && d.origin.is_some())
                    .and_then(|d| d.origin)
            });
            Some(RegionKind::Teleport(dest))
        }
        "trigger_push" => {
            let speed = e.number("speed").filter(|&s| s != 0.0).unwrap_or(1000.0);
            let v = (e.move_dir() * speed * PUSH_SCALE)
                .clamp(DVec3::splat(-MAX_VELOCITY), DVec3::splat(MAX_VELOCITY));
            Some(RegionKind::Push(v * level.unit))
        }
        "trigger_changelevel" => Some(RegionKind::Exit),
        _ => None,
    }
}

/// Follows a flight from `start` at velocity `v` under `gravity` in steps
/// of [`FLIGHT_STEP`] s for at most [`FLIGHT_TIME`] s, and returns the
/// first answer `hit` gives for a falling step `(a, b)` (rising steps are
/// not asked about; walls in the way are not traced).
pub fn flight<T>(
    start: DVec3,
    v: DVec3,
    gravity: f64,
    mut hit: impl FnMut(DVec3, DVec3) -> Option<T>,
) -> Option<T> {
    let at = |t: f64| start + v * t - DVec3::Y * (0.5 * gravity * t * t);
    let steps = (FLIGHT_TIME / FLIGHT_STEP) as usize;
    (1..=steps).find_map(|k| {
        let (a, b) = (at((k - 1) as f64 * FLIGHT_STEP), at(k as f64 * FLIGHT_STEP));
        if b.y < a.y { hit(a, b) } else { None }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Brush;

    fn cube(min: DVec3, max: DVec3, contents: Contents, entity: Option<usize>) -> Brush {
        Brush::cuboid(min, max, contents, entity)
    }

    fn ent(class: &str, props: &[(&str, &str)]) -> Entity {
        Entity::with_properties(class, props)
    }

    #[test]
    fn a_floor_panel_sliding_in_plan_opens_the_strip_it_leaves() {
        let panel = Aabb::from_corners(DVec3::ZERO, DVec3::new(4.0, 0.25, 2.0));
        let unit = 1.0 / 32.0;
        // Angle 180: Quake -x, world -x; 4 m less a lip of 8 units.
        let west = hole(&ent("func_door", &[("angle", "180")]), panel, unit).unwrap();
        assert!((west.min.x - 0.25).abs() < 1e-12 && west.max.x == 4.0);
        assert_eq!((west.min.z, west.max.z), (0.0, 2.0));
        assert_eq!((west.min.y, west.max.y), (0.0, 0.25));
        // Angle 90: Quake +y, world -z; 2 m less a lip of 32 units.
        let north = ent("func_door", &[("angle", "90"), ("lip", "32")]);
        let h = hole(&north, panel, unit).unwrap();
        assert_eq!((h.min.x, h.max.x), (0.0, 4.0));
        assert!((h.min.z - 1.0).abs() < 1e-12 && h.max.z == 2.0, "{h:?}");
        let lip_all = ent("func_door", &[("angle", "90"), ("lip", "64")]);
        assert_eq!(hole(&lip_all, panel, unit), None, "it does not move");
        let down = ent("func_door", &[("angle", "-2")]);
        assert_eq!(hole(&down, panel, unit), None, "it sinks: a step");
        let wall = Aabb::from_corners(DVec3::ZERO, DVec3::new(4.0, 3.0, 0.25));
        assert_eq!(hole(&ent("func_door", &[]), wall, unit), None, "a wall");
        let removed = ent("func_wall", &[("angle", "-2")]);
        assert_eq!(hole(&removed, panel, unit), Some(panel), "it vanishes");
        assert_eq!(hole(&removed, wall, unit), None, "a wall vanishes: no hole");
    }

    #[test]
    fn triggers_liquids_doors_and_lifts_become_movers() {
        let mut dest = ent("info_teleport_destination", &[("targetname", "t1")]);
        dest.origin = Some(DVec3::new(9.0, 1.0, 9.0));
        let level = BrushLevel {
            brushes: vec![
                cube(DVec3::ZERO, DVec3::ONE, Contents::Trigger, Some(0)),
                cube(DVec3::ZERO, DVec3::ONE, Contents::Water, None),
                cube(DVec3::ZERO, DVec3::ONE, Contents::Door, Some(2)),
                cube(
                    DVec3::ZERO,
                    DVec3::new(1.0, 2.0, 1.0),
                    Contents::Lift,
                    Some(3),
                ),
                cube(DVec3::ZERO, DVec3::ONE, Contents::Trigger, Some(4)),
                cube(DVec3::ZERO, DVec3::ONE, Contents::Water, Some(5)),
            ],
            entities: vec![
                ent("trigger_teleport", &[("target", "t1")]),
                dest,
                ent("func_door", &[]),
                ent("func_plat", &[("height", "1.5")]),
                ent("trigger_once", &[]),
                ent("func_ladder", &[]),
            ],
            unit: 0.5,
            ..Default::default()
        };
        let m = level.movers(Some("func_ladder"));
        let kinds: Vec<&RegionKind> = m.regions.iter().map(|r| &r.kind).collect();
        assert_eq!(
            kinds,
            [
                &RegionKind::Teleport(Some(DVec3::new(9.0, 1.0, 9.0))),
                &RegionKind::Water,
                &RegionKind::Door
            ],
            "trigger_once and the ladder's water make nothing"
        );
        assert_eq!(m.lifts.len(), 1);
        let travel = m.lifts[0].bounds;
        assert!((travel.max.y - 2.0).abs() < 1e-12 && (travel.min.y - 1.25).abs() < 1e-12);
        assert_eq!(m.gravity, 400.0);
        assert_eq!(level.movers(None).regions.len(), 4, "the ladder's water");
    }

    #[test]
    fn a_train_rests_at_its_first_corner_and_rides_each_leg_it_travels() {
        let corner = |name: &str, next: &str, at: DVec3| {
            let mut c = ent("path_corner", &[("targetname", name), ("target", next)]);
            c.origin = Some(at);
            c
        };
        let (a, b, c) = (
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(8.0, 2.0, 0.0),
            DVec3::new(8.0, 2.0, -6.0),
        );
        // Drawn 2 × 1 × 3 somewhere else; its path is a → b → c → b → ...
        let drawn = Aabb::from_corners(DVec3::new(50.0, 5.0, 50.0), DVec3::new(52.0, 6.0, 53.0));
        let level = |target: &str| BrushLevel {
            brushes: vec![cube(drawn.min, drawn.max, Contents::Train, Some(0))],
            entities: vec![
                ent("func_train", &[("target", target)]),
                corner("a", "b", a),
                corner("b", "c", b),
                corner("c", "b", c),
            ],
            unit: 1.0,
            ..Default::default()
        };
        let l = level("a");
        let g = &l.mover_groups()[0];
        assert!(g.solid);
        // Quake's mins lands on the corner: smallest x and y, largest z.
        let rest = Aabb {
            min: drawn.min + g.offset,
            max: drawn.max + g.offset,
        };
        assert_eq!(
            rest,
            Aabb::from_corners(a - DVec3::Z * 3.0, a + DVec3::new(2.0, 1.0, 0.0))
        );
        let legs: Vec<(DVec3, DVec3)> = l
            .movers(None)
            .rides
            .iter()
            .map(|r| (r.from.min, r.to.min))
            .collect();
        let at = |p: DVec3| p - DVec3::Z * 3.0;
        assert_eq!(
            legs,
            [(at(a), at(b)), (at(b), at(c)), (at(c), at(b))],
            "forward round the path; back only where it returns"
        );
        let mut still = level("a");
        still.entities[1] = corner("a", "a", a);
        assert!(still.mover_groups()[0].solid, "it rests at its corner");
        assert!(
            still.movers(None).rides.is_empty(),
            "a corner naming itself"
        );
        let lost = level("nowhere");
        assert!(!lost.mover_groups()[0].solid, "no path: not placed");
        assert!(lost.movers(None).rides.is_empty());
    }

    #[test]
    fn water_grows_sideways_and_down_only() {
        let half = DVec3::new(0.3, 0.9, 0.3);
        let r = |kind| Region {
            kind,
            entity: None,
            bounds: Aabb::from_corners(DVec3::ZERO, DVec3::ONE),
        };
        assert_eq!(r(RegionKind::Water).centre_box(half).max.y, 1.0);
        assert_eq!(r(RegionKind::Door).centre_box(half).max.y, 1.9);
        assert_eq!(r(RegionKind::Door).centre_box(half).min, -half);
    }

    #[test]
    fn a_flight_is_asked_about_falling_steps_only() {
        let mut first = None;
        let landed = flight(DVec3::ZERO, DVec3::new(1.0, 10.0, 0.0), 10.0, |a, b| {
            first.get_or_insert(a.y);
            (b.y < 0.0).then_some(b.x)
        });
        assert!(first.unwrap() >= 5.0 - 0.01, "the top of the arc, 5 m up");
        assert!((landed.unwrap() - 2.0).abs() < 0.03, "{landed:?}");
        assert_eq!(flight(DVec3::ZERO, DVec3::Y, 10.0, |_, _| None::<()>), None);
    }
}
