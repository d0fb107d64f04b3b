//! The level as the pipeline sees it: agent sizes, solid brushes as
//! polyhedra, and ladders.
//!
//! Which brushes are solid: world brushes and brush entities, except the
//! ladder entities (climbable volumes, not walls), `trigger_*` entities and
//! `func_illusionary` (Quake's non-solid classes).

use glam::DVec3;
use navscope_core::Stance;
use navscope_core::geom::Aabb;
use navscope_core::level::BrushLevel;
use serde::Serialize;

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

/// The solid brushes and the ladders of a level.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scene {
    /// Solid brushes.
    pub solids: Vec<SolidBrush>,
    /// Ladder entities with the box of their brushes.
    pub ladders: Vec<Ladder>,
}

/// Builds the polyhedra of a level's brushes. Errors name the brush and
/// the problem, e.g. `brush 3: planes 2 and 5 are the same plane`.
pub fn scene(level: &BrushLevel, ladder_class: &str) -> Result<Scene, String> {
    let mut out = Scene::default();
    let mut ladder_boxes: Vec<(usize, Aabb)> = Vec::new();
    for (i, b) in level.brushes.iter().enumerate() {
        let class = match b.entity {
            None => None,
            Some(e) => Some(
                level
                    .entities
                    .get(e)
                    .map(|e| e.classname.as_str())
                    .ok_or_else(|| {
                        format!(
                            "brush {i}: belongs to entity {e}, but the level has {} entities",
                            level.entities.len()
                        )
                    })?,
            ),
        };
        let solid = Polyhedron::from_planes(&b.planes).map_err(|e| format!("brush {i}: {e}"))?;
        match class {
            Some(c) if c == ladder_class => {
                match ladder_boxes.iter_mut().find(|(e, _)| Some(*e) == b.entity) {
                    Some((_, bb)) => *bb = bb.union(solid.bounds),
                    None => ladder_boxes.push((b.entity.unwrap_or_default(), solid.bounds)),
                }
            }
            Some(c) if c.starts_with("trigger_") || c == "func_illusionary" => {}
            _ => out.solids.push(SolidBrush { brush: i, solid }),
        }
    }
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
        let level = BrushLevel {
            brushes: vec![box_brush(DVec3::ZERO, DVec3::ONE), ladder, ladder2, trigger],
            entities: vec![entity("func_ladder"), entity("trigger_once")],
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
    fn bad_brushes_are_named() {
        let mut dup = box_brush(DVec3::ZERO, DVec3::ONE);
        dup.planes.push(dup.planes[0]);
        let level = BrushLevel {
            brushes: vec![box_brush(DVec3::ZERO, DVec3::ONE), dup],
            entities: vec![],
        };
        assert_eq!(
            scene(&level, "func_ladder").unwrap_err(),
            "brush 1: planes 0 and 6 are the same plane"
        );
        let orphan = Brush {
            entity: Some(4),
            ..box_brush(DVec3::ZERO, DVec3::ONE)
        };
        let level = BrushLevel {
            brushes: vec![orphan],
            entities: vec![],
        };
        assert_eq!(
            scene(&level, "func_ladder").unwrap_err(),
            "brush 0: belongs to entity 4, but the level has 0 entities"
        );
    }
}
