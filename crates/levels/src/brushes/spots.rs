//! Where a Quake map's player starts and leaves, and what its movers are
//! to a player, as QuakeC spawns them: the facts `navscope-cli routes` and
//! the app's probe panel read.
//!
//! * **Starts**: `info_player_start`, `info_player_start2`,
//!   `info_player_coop` and `info_player_deathmatch`. The entity's origin
//!   is the player's centre; the hull reaches [`HULL_BELOW_ORIGIN`] units
//!   below it, so the start point is the feet, that far down.
//! * **Exits**: each `trigger_changelevel`, at the centre of its brushes'
//!   box, at the box's floor.
//! * **Openers** ([`opener`]): a `func_door` with a `targetname` opens when
//!   something whose `target` names it fires (a `func_button`, a trigger);
//!   without one, a door with `health` opens when shot, one with
//!   spawnflag 8 or 16 needs the gold or silver key, and any other opens
//!   on touch. A `func_door_secret` opens when shot unless it has a
//!   `targetname` (then it is fired), or with spawnflag 16 (`YES_SHOOT`)
//!   both. A wall the loader made a door because an entity's `killtarget`
//!   names it ([`super::semantics::removed_walls`]) is "removed when fired
//!   by" its killers.
//! * **Dangling targets** ([`dangling_targets`]): an entity whose `target`
//!   names no entity's `targetname`; Quake fires nothing, so it is reported
//!   and its link is left out.

use glam::DVec3;
use navscope_core::geom::Aabb;
use navscope_core::level::{BrushLevel, Entity};
use navscope_core::movers::RegionKind;
use navscope_core::outside::PLAYER_START_CLASSES;

/// Quake's player hull reaches this many map units below its origin
/// (`VEC_HULL_MIN` z).
pub const HULL_BELOW_ORIGIN: f64 = 24.0;

/// `func_door` spawnflag: the gold key opens it.
const DOOR_GOLD_KEY: u32 = 8;
/// `func_door` spawnflag: the silver key opens it.
const DOOR_SILVER_KEY: u32 = 16;
/// `func_door_secret` spawnflag: it opens when shot even with a name.
const SECRET_YES_SHOOT: u32 = 16;

/// A start or an exit.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    /// The entity's index in the level.
    pub entity: usize,
    /// Its class, and its `targetname` or `map` when it has one.
    pub label: String,
    /// The point, world space (the feet of a start, the floor of an exit).
    pub point: DVec3,
}

/// The entity's class with its `targetname` (or, for a changelevel, the
/// `map` it leads to).
pub fn label(e: &Entity) -> String {
    match e.key("targetname").or_else(|| e.key("map")) {
        Some(n) => format!("{} '{n}'", e.classname),
        None => e.classname.clone(),
    }
}

/// The player's starts, in entity order.
pub fn starts(level: &BrushLevel) -> Vec<Spot> {
    level
        .entities
        .iter()
        .enumerate()
        .filter(|(_, e)| PLAYER_START_CLASSES.contains(&e.classname.as_str()))
        .filter_map(|(i, e)| {
            let o = e.origin?;
            Some(Spot {
                entity: i,
                label: label(e),
                point: o - DVec3::Y * (HULL_BELOW_ORIGIN * level.unit),
            })
        })
        .collect()
}

/// The exits, one per `trigger_changelevel` with a solid brush, in entity
/// order.
pub fn exits(level: &BrushLevel) -> Vec<Spot> {
    let mut boxes: Vec<(usize, Aabb)> = Vec::new();
    for r in level.movers(None).regions {
        let (RegionKind::Exit, Some(e)) = (&r.kind, r.entity) else {
            continue;
        };
        match boxes.iter_mut().find(|(i, _)| *i == e) {
            Some((_, b)) => *b = b.union(r.bounds),
            None => boxes.push((e, r.bounds)),
        }
    }
    boxes.sort_by_key(|(e, _)| *e);
    boxes
        .into_iter()
        .map(|(e, b)| {
            let c = (b.min + b.max) * 0.5;
            Spot {
                entity: e,
                label: label(&level.entities[e]),
                point: DVec3::new(c.x, b.min.y, c.z),
            }
        })
        .collect()
}

/// The entity's `spawnflags` as bits (0 when absent or not a number).
fn spawnflags(e: &Entity) -> u32 {
    e.number("spawnflags").map_or(0, |f| f.max(0.0) as u32)
}

/// The entities that fire `e` (their `target` is its `targetname`), as
/// labels.
fn fired_by(level: &BrushLevel, e: &Entity) -> Vec<String> {
    let Some(name) = e.key("targetname") else {
        return Vec::new();
    };
    level
        .entities
        .iter()
        .filter(|o| o.key("target") == Some(name))
        .map(label)
        .collect()
}

/// The entities that fire with `e` as their `killtarget`, as labels.
fn killed_by(level: &BrushLevel, e: &Entity) -> Vec<String> {
    let Some(name) = e.key("targetname") else {
        return Vec::new();
    };
    level
        .entities
        .iter()
        .filter(|o| o.key("killtarget") == Some(name))
        .map(label)
        .collect()
}

/// What opens a door entity, in words (see the module docs); `None` for
/// an entity that is not a door.
pub fn opener(level: &BrushLevel, e: &Entity) -> Option<String> {
    let flags = spawnflags(e);
    let fired = fired_by(level, e);
    let by = |what: &str| {
        if fired.is_empty() {
            format!("{what} (nothing fires it)")
        } else {
            format!("{what} {}", fired.join(", "))
        }
    };
    if e.vanishes() {
        let killers = killed_by(level, e);
        return (!killers.is_empty())
            .then(|| format!("removed when fired by {}", killers.join(", ")));
    }
    match e.classname.as_str() {
        "func_door" | "func_door_rotating" => Some(if e.key("targetname").is_some() {
            by("opened when fired by")
        } else if flags & DOOR_GOLD_KEY != 0 {
            "opened by the gold key".into()
        } else if flags & DOOR_SILVER_KEY != 0 {
            "opened by the silver key".into()
        } else if e.number("health").is_some_and(|h| h > 0.0) {
            "opened by shooting it".into()
        } else {
            "opened by touch".into()
        }),
        "func_door_secret" => Some(match (e.key("targetname"), flags & SECRET_YES_SHOOT) {
            (None, _) => "opened by shooting it".into(),
            (Some(_), 0) => by("opened when fired by"),
            (Some(_), _) => by("opened by shooting it, or when fired by"),
        }),
        _ => None,
    }
}

/// Entities whose `target` names no entity, as `CLASS (entity N): target
/// 'NAME' names nothing`.
pub fn dangling_targets(level: &BrushLevel) -> Vec<String> {
    level
        .entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let t = e.key("target")?;
            let named = level
                .entities
                .iter()
                .any(|o| o.key("targetname") == Some(t));
            (!named).then(|| {
                format!(
                    "{} (entity {}): target '{t}' names nothing",
                    e.classname,
                    i + 1
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::level::{Brush, Contents};

    fn ent(class: &str, props: &[(&str, &str)]) -> Entity {
        Entity::with_properties(class, props)
    }

    #[test]
    fn starts_are_the_feet_and_exits_the_trigger_floor() {
        let mut start = ent("info_player_start", &[]);
        start.origin = Some(DVec3::new(1.0, 2.0, 3.0));
        let mut dm = ent("info_player_deathmatch", &[]);
        dm.origin = Some(DVec3::ZERO);
        let level = BrushLevel {
            brushes: vec![Brush::cuboid(
                DVec3::new(0.0, 1.0, 0.0),
                DVec3::new(2.0, 3.0, 4.0),
                Contents::Trigger,
                Some(2),
            )],
            entities: vec![
                start,
                ent("info_player_start", &[]),
                ent("trigger_changelevel", &[("map", "e1m2")]),
                dm,
            ],
            unit: 1.0 / 32.0,
            ..Default::default()
        };
        let s = starts(&level);
        assert_eq!(s.len(), 2, "the start without an origin is no start");
        assert_eq!(s[0].point, DVec3::new(1.0, 2.0 - 0.75, 3.0));
        assert_eq!(s[1].label, "info_player_deathmatch");
        let x = exits(&level);
        assert_eq!(x.len(), 1);
        assert_eq!(x[0].point, DVec3::new(1.0, 1.0, 2.0));
        assert_eq!(x[0].label, "trigger_changelevel 'e1m2'");
    }

    #[test]
    fn a_level_without_entities_has_no_starts_or_exits() {
        let level = BrushLevel::default();
        assert!(starts(&level).is_empty() && exits(&level).is_empty());
        assert!(dangling_targets(&level).is_empty());
    }

    #[test]
    fn doors_say_what_opens_them() {
        let level = BrushLevel {
            entities: vec![
                ent("func_door", &[("targetname", "d1")]),
                ent("func_button", &[("target", "d1")]),
                ent("func_door", &[("spawnflags", "16")]),
                ent("func_door", &[("spawnflags", "8")]),
                ent("func_door", &[("health", "20")]),
                ent("func_door", &[]),
                ent("func_door_secret", &[]),
                ent(
                    "func_door_secret",
                    &[("targetname", "s"), ("spawnflags", "16")],
                ),
                ent("trigger_once", &[("target", "nobody")]),
                ent("func_wall", &[("targetname", "w")]),
                ent("trigger_once", &[("killtarget", "w")]),
            ],
            ..Default::default()
        };
        let o = |i: usize| opener(&level, &level.entities[i]).unwrap();
        assert_eq!(o(0), "opened when fired by func_button");
        assert_eq!(o(2), "opened by the silver key");
        assert_eq!(o(3), "opened by the gold key");
        assert_eq!(o(4), "opened by shooting it");
        assert_eq!(o(5), "opened by touch");
        assert_eq!(o(6), "opened by shooting it");
        assert_eq!(
            o(7),
            "opened by shooting it, or when fired by (nothing fires it)"
        );
        assert_eq!(opener(&level, &level.entities[1]), None);
        assert_eq!(o(9), "removed when fired by trigger_once");
        assert_eq!(opener(&level, &level.entities[10]), None, "not removed");
        assert_eq!(
            dangling_targets(&level),
            ["trigger_once (entity 9): target 'nobody' names nothing"]
        );
    }
}
