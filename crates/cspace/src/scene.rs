//! The level as the pipeline sees it: agent sizes, solid brushes as
//! polyhedra, ladders, lifts, the regions that give nodes an area (doors,
//! liquids, triggers) and the brushes that had to be skipped.
//!
//! Each brush's [`Contents`] (set by the loader from the map's semantics)
//! decides what it is:
//! * `solid` and `clip` brushes are solid;
//! * a door that slides sideways is not solid; one that moves up or down
//!   is solid open (with `START_OPEN`, where firing it brings it: drawn), a floor panel closed
//!   ([`navscope_core::level::rests_solid`]); its drawn volume is a `door` region: walking into
//!   it crosses a door link;
//! * a lift is solid where it rests low, and joins the floor on it to the
//!   floors beside its top position with an elevator link;
//! * water, slime and lava are not solid; each is a region of its name;
//! * triggers are not solid; `trigger_teleport` (with its destination),
//!   `trigger_push` and `trigger_changelevel`
//!   (area `exit`) are regions, other triggers are ignored (a
//!   `trigger_monsterjump` throws monsters only);
//! * empty brushes are ignored;
//! * brushes of the ladder class are ladders whatever their contents.
//!
//! The regions and lifts are [`BrushLevel::movers`]' (shared with the
//! `voxel` pipeline through the brush → mesh conversion). A brush whose
//! planes make no closed convex solid is skipped and listed with the
//! reason; the level builds without it.

use glam::DVec3;
use navscope_core::Stance;
use navscope_core::geom::Aabb;
use navscope_core::level::{BrushLevel, Contents};
use serde::Serialize;

pub use navscope_core::movers::{Hole, Region, RegionKind, Ride};

use crate::extra::Ladder;
use crate::polyhedron::Polyhedron;

/// One agent size: an AABB centred on the agent's reference point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentSize {
    /// Name, e.g. `stand`.
    pub name: String,
    /// The stance of the mesh built for it.
    pub stance: Stance,
    /// Half extents (x, y, z), metres.
    pub half: DVec3,
}

/// A solid brush of the level as a polyhedron.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolidBrush {
    /// Index in the level's brush list.
    pub brush: usize,
    /// Its polyhedron.
    pub solid: Polyhedron,
}

/// A brush left out, with why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    /// The brush as named in messages, e.g. `brush 57 (line 1204)`.
    pub element: String,
    /// The reason.
    pub problem: String,
    /// Where it was, when known.
    pub bounds: Option<Aabb>,
}

/// The solid brushes, ladders, lifts, regions and skipped brushes of a
/// level.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scene {
    /// Solid brushes.
    pub solids: Vec<SolidBrush>,
    /// Ladder entities with the box of their brushes.
    pub ladders: Vec<Ladder>,
    /// Lifts: the box from the lift's top at rest (low) to its top in the
    /// high position.
    pub lifts: Vec<Ladder>,
    /// Regions (doors, liquids, triggers), in brush order.
    pub regions: Vec<Region>,
    /// The holes floor panel doors open.
    pub holes: Vec<Hole>,
    /// The legs trains travel.
    pub rides: Vec<Ride>,
    /// Brushes the loader or this stage left out.
    pub skipped: Vec<Skipped>,
}

/// Builds the scene of a level. The only error is a brush that refers to
/// an entity the level does not have; bad brushes are skipped.
pub fn scene(level: &BrushLevel, ladder_class: &str) -> Result<Scene, String> {
    let mut out = Scene {
        skipped: level
            .skipped
            .iter()
            .map(|s| Skipped {
                element: s.element.clone(),
                problem: s.problem.clone(),
                bounds: s.bounds,
            })
            .collect(),
        ..Scene::default()
    };
    let mut ladder_boxes: Vec<(usize, Aabb)> = Vec::new();
    for (i, b) in level.brushes.iter().enumerate() {
        let entity = match b.entity {
            None => None,
            Some(e) => Some((
                e,
                level.entities.get(e).ok_or_else(|| {
                    format!(
                        "brush {i}: belongs to entity {e}, but the level has {} entities",
                        level.entities.len()
                    )
                })?,
            )),
        };
        let solid = match Polyhedron::from_planes(&b.planes) {
            Ok(s) => s,
            Err(e) => {
                out.skipped.push(Skipped {
                    element: format!("brush {i}"),
                    problem: e.to_string(),
                    bounds: None,
                });
                continue;
            }
        };
        let class = entity.map(|(_, e)| e.classname.as_str());
        if class == Some(ladder_class) {
            let e = b.entity.unwrap_or_default();
            match ladder_boxes.iter_mut().find(|(x, _)| *x == e) {
                Some((_, bb)) => *bb = bb.union(solid.bounds),
                None => ladder_boxes.push((e, solid.bounds)),
            }
            continue;
        }
        // Doors and lifts of an entity are placed below, where they rest;
        // liquids and triggers are regions (`level.movers`). World doors
        // and lifts have no keys to move by: solid.
        if matches!(
            (b.contents, entity),
            (Contents::Solid | Contents::Clip, _)
                | (Contents::Door | Contents::Lift | Contents::Train, None)
        ) {
            out.solids.push(SolidBrush { brush: i, solid });
        }
    }
    let movers = level.movers(Some(ladder_class));
    out.regions = movers.regions;
    out.holes = movers.holes;
    out.rides = movers.rides;
    out.lifts = movers
        .lifts
        .into_iter()
        .map(|l| Ladder {
            entity: l.entity,
            bounds: l.bounds,
        })
        .collect();
    for g in level.mover_groups().into_iter().filter(|g| g.solid) {
        for i in g.brushes {
            match Polyhedron::from_planes(&level.brushes[i].moved(g.offset).planes) {
                Ok(solid) => out.solids.push(SolidBrush { brush: i, solid }),
                Err(e) => out.skipped.push(Skipped {
                    element: format!("brush {i}"),
                    problem: format!("moved to where it rests: {e}"),
                    bounds: None,
                }),
            }
        }
    }
    out.solids.sort_by_key(|s| s.brush);
    out.ladders = ladder_boxes
        .into_iter()
        .map(|(entity, bounds)| Ladder { entity, bounds })
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::box_brush;
    use navscope_core::level::{Brush, Entity};

    fn entity(class: &str) -> Entity {
        Entity {
            classname: class.into(),
            origin: None,
            properties: vec![],
        }
    }

    #[test]
    fn ladders_and_triggers_are_not_solid() {
        let mut ladder = box_brush(DVec3::ZERO, DVec3::ONE);
        ladder.entity = Some(0);
        let mut ladder2 = box_brush(DVec3::new(0.0, 1.0, 0.0), DVec3::new(1.0, 3.0, 1.0));
        ladder2.entity = Some(0);
        let mut trigger = box_brush(DVec3::ZERO, DVec3::ONE);
        trigger.entity = Some(1);
        trigger.contents = Contents::Trigger;
        let level = BrushLevel {
            brushes: vec![box_brush(DVec3::ZERO, DVec3::ONE), ladder, ladder2, trigger],
            entities: vec![entity("func_ladder"), entity("trigger_once")],
            skipped: Vec::new(),
            unit: 1.0,
        };
        let s = scene(&level, "func_ladder").unwrap();
        assert_eq!(
            s.solids.iter().map(|b| b.brush).collect::<Vec<_>>(),
            vec![0]
        );
        assert_eq!(s.ladders.len(), 1);
        assert!((s.ladders[0].bounds.max.y - 3.0).abs() < 1e-12);
        // With another ladder class the func_ladder brushes are solid.
        assert_eq!(scene(&level, "trigger_ladder").unwrap().solids.len(), 3);
    }

    #[test]
    fn doors_rest_open_lifts_low_and_regions_are_kept() {
        let with = |mut b: Brush, e: usize, c: Contents| {
            b.entity = Some(e);
            b.contents = c;
            b
        };
        let mut door = entity("func_door");
        door.properties = vec![("angle".into(), "-1".into()), ("lip".into(), "0".into())];
        let mut plat = entity("func_plat");
        plat.properties = vec![("height".into(), "2".into())];
        let mut tele = entity("trigger_teleport");
        tele.properties = vec![("target".into(), "t1".into())];
        let mut dest = entity("info_teleport_destination");
        dest.properties = vec![("targetname".into(), "t1".into())];
        dest.origin = Some(DVec3::new(9.0, 1.0, 9.0));
        let mut water = box_brush(DVec3::new(5.0, 0.0, 0.0), DVec3::new(6.0, 1.0, 1.0));
        water.contents = Contents::Water;
        let mut empty = box_brush(DVec3::ZERO, DVec3::ONE);
        empty.contents = Contents::Empty;
        let level = BrushLevel {
            brushes: vec![
                with(
                    box_brush(DVec3::ZERO, DVec3::new(1.0, 3.0, 0.2)),
                    0,
                    Contents::Door,
                ),
                with(
                    box_brush(DVec3::new(2.0, 0.0, 0.0), DVec3::new(3.0, 3.0, 1.0)),
                    1,
                    Contents::Lift,
                ),
                with(
                    box_brush(DVec3::new(7.0, 0.0, 0.0), DVec3::new(8.0, 2.0, 1.0)),
                    2,
                    Contents::Trigger,
                ),
                water,
                empty,
            ],
            entities: vec![door, plat, tele, dest],
            ..Default::default()
        };
        let s = scene(&level, "func_ladder").unwrap();
        assert_eq!(s.solids.len(), 2, "door and lift, where they rest");
        assert!(
            (s.solids[0].solid.bounds.min.y - 3.0).abs() < 1e-9,
            "door opened up by its height"
        );
        assert!(
            (s.solids[1].solid.bounds.max.y - 1.0).abs() < 1e-9,
            "lift lowered by height 2"
        );
        assert_eq!(s.lifts.len(), 1);
        assert!(
            (s.lifts[0].bounds.min.y - 1.0).abs() < 1e-9
                && (s.lifts[0].bounds.max.y - 3.0).abs() < 1e-9
        );
        let kinds: Vec<&str> = s.regions.iter().map(|r| r.kind.area()).collect();
        assert_eq!(kinds, vec!["teleport", "water", "door"]);
        assert_eq!(
            s.regions[0].kind,
            RegionKind::Teleport(Some(DVec3::new(9.0, 1.0, 9.0)))
        );
    }

    #[test]
    fn bad_brushes_are_named() {
        let mut dup = box_brush(DVec3::ZERO, DVec3::ONE);
        dup.planes.push(dup.planes[0]);
        let level = BrushLevel {
            brushes: vec![box_brush(DVec3::ZERO, DVec3::ONE), dup],
            entities: vec![],
            skipped: Vec::new(),
            unit: 1.0,
        };
        let s = scene(&level, "func_ladder").unwrap();
        assert_eq!(
            s.solids.len(),
            1,
            "the bad brush is skipped, the rest stays"
        );
        assert_eq!(
            (s.skipped[0].element.as_str(), s.skipped[0].problem.as_str()),
            ("brush 1", "planes 0 and 6 are the same plane")
        );
        let orphan = Brush {
            entity: Some(4),
            ..box_brush(DVec3::ZERO, DVec3::ONE)
        };
        let level = BrushLevel {
            brushes: vec![orphan],
            entities: vec![],
            skipped: Vec::new(),
            unit: 1.0,
        };
        assert_eq!(
            scene(&level, "func_ladder").unwrap_err(),
            "brush 0: belongs to entity 4, but the level has 0 entities"
        );
    }
}
