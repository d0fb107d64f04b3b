//! The level drawn as the user knows it: floor plans filled with their holes
//! cut out, raster plans outlined, meshes shaded, brushes as translucent
//! solids, layers stacked at their heights with their connections.

use bevy::prelude::*;
use navscope_core::geom::plan_to_world;
use navscope_core::level::{Blocker, LayerPlane, Level, LevelData};
use std::collections::BTreeSet;

use crate::model::band::HeightBand;

use crate::model::extent::brush_solids;
use crate::model::extent::ring_world;

/// Colour of walkable floor.
pub const FLOOR: [f32; 4] = [0.97, 0.96, 0.93, 1.0];

/// Colour of outlines and obstacles.
pub const WALL: [f32; 4] = [0.22, 0.24, 0.28, 1.0];

/// Fill of obstacles (holes in the free space).
pub const OBSTACLE: [f32; 4] = [0.52, 0.54, 0.58, 1.0];

/// Fill and edge of a world brush (walls, floors); the edge a mid grey, so
/// a big map's thousands of edges do not make a dark wireframe.
pub const WORLD_BRUSH: ([f32; 4], [f32; 4]) = ([0.72, 0.74, 0.78, 0.45], [0.42, 0.44, 0.50, 1.0]);

/// Fill and edge of an entity's brush (doors, lifts, triggers, ladders).
pub const ENTITY_BRUSH: ([f32; 4], [f32; 4]) = ([0.35, 0.65, 0.35, 0.45], [0.10, 0.40, 0.12, 1.0]);

/// The cross marking a point entity's origin (a start, a light, an item).
pub const ENTITY_ORIGIN: [f32; 4] = [0.1, 0.6, 0.2, 1.0];

/// Water surface outlines of a mesh level.
pub const WATER: [f32; 4] = [0.2, 0.5, 1.0, 1.0];

/// Layer connections.
pub const CONNECTION: [f32; 4] = [0.95, 0.5, 0.1, 1.0];

/// True for a Quake sky texture (`sky1`, `sky4`, ...).
fn is_sky(material: &str) -> bool {
    material
        .get(..3)
        .is_some_and(|p| p.eq_ignore_ascii_case("sky"))
}

/// A world brush face's fill: `base` tinted by a colour of its texture's
/// name (the same texture, the same tint, in every build and map), so
/// floors, walls and trims of different textures read apart.
fn material_tint(material: &str, base: [f32; 4]) -> [f32; 4] {
    if material.is_empty() {
        return base;
    }
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    material.to_ascii_lowercase().hash(&mut h);
    let c = Color::hsl((h.finish() % 360) as f32, 0.30, 0.66).to_srgba();
    [
        0.5 * base[0] + 0.5 * c.red,
        0.5 * base[1] + 0.5 * c.green,
        0.5 * base[2] + 0.5 * c.blue,
        base[3],
    ]
}

/// The colours the level's own drawing uses besides the floor and the
/// walls, with what each is, for the legend: every drawn colour has a row.
pub fn legend_rows(level: &Level) -> Vec<(&'static str, [f32; 4])> {
    match &level.data {
        LevelData::Brushes(_) => vec![
            (
                "level: world brush (faces tinted by texture)",
                WORLD_BRUSH.1,
            ),
            (
                "level: entity brush (door, lift, trigger, ladder)",
                ENTITY_BRUSH.1,
            ),
            ("level: point entity (start, item, light)", ENTITY_ORIGIN),
        ],
        LevelData::Mesh(m) if !m.water.is_empty() => vec![("level: water surface", WATER)],
        LevelData::Layers(l) if !l.connections.is_empty() => {
            vec![("level: connection between layers", CONNECTION)]
        }
        _ => Vec::new(),
    }
}

/// The level drawn as the user knows it.
#[derive(Debug, Default, Clone)]
pub struct LevelDrawing {
    /// Filled triangles with colours.
    pub fill: Vec<([Vec3; 3], [f32; 4])>,
    /// Outline segments with colours.
    pub lines: Vec<(Vec3, Vec3, [f32; 4])>,
    /// Shade the fill with light (3D meshes) rather than flat colour.
    pub lit: bool,
    /// Draw only the side of each fill triangle its winding faces. A
    /// triangle mesh level (Recast's samples, an exported game level) is
    /// the inside of rooms and tunnels, wound to face into them: drawn from
    /// both sides its outer shell hides every stage inside, while culled
    /// its walls and ceilings facing away from the camera let the view in,
    /// as the navmesh tools of that world draw it.
    pub one_sided: bool,
}

impl LevelDrawing {
    /// Cuts the triangles and lines to `band`, so a height slice opens the
    /// floors above and below and shows walls only as high as the band.
    pub fn slice(&mut self, band: &HeightBand) {
        self.fill = self
            .fill
            .iter()
            .flat_map(|(t, c)| band.clip_triangle(*t).into_iter().map(|t| (t, *c)))
            .collect();
        self.lines = self
            .lines
            .iter()
            .filter_map(|(a, b, c)| band.clip_segment(*a, *b).map(|(a, b)| (a, b, *c)))
            .collect();
    }
}

fn outline(d: &mut LevelDrawing, ring: &[Vec3], color: [f32; 4]) {
    for i in 0..ring.len() {
        d.lines.push((ring[i], ring[(i + 1) % ring.len()], color));
    }
}

fn blocker_ring(b: &Blocker) -> Vec<Vec3> {
    match b {
        Blocker::Box {
            center,
            half,
            angle,
        } => {
            let (s, c) = angle.sin_cos();
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|(x, y)| {
                    let local = bevy::math::DVec2::new(x * half.x, y * half.y);
                    let p = *center
                        + bevy::math::DVec2::new(
                            local.x * c - local.y * s,
                            local.x * s + local.y * c,
                        );
                    plan_to_world(p, 0.0).as_vec3()
                })
                .collect()
        }
        Blocker::Cylinder { center, radius } => (0..32)
            .map(|i| {
                let a = i as f64 / 32.0 * std::f64::consts::TAU;
                plan_to_world(
                    *center + bevy::math::DVec2::new(a.cos(), a.sin()) * *radius,
                    0.0,
                )
                .as_vec3()
            })
            .collect(),
    }
}

/// The drawing of a level (without raster images, which become textures),
/// leaving out the layers in `hidden_layers` and connections between two
/// hidden layers.
pub fn level_drawing(level: &Level, hidden_layers: &BTreeSet<u32>) -> LevelDrawing {
    let mut d = LevelDrawing::default();
    let area = |d: &mut LevelDrawing,
                pwh: &navscope_core::geom::PolygonWithHoles,
                plane: LayerPlane,
                fill: [f32; 4]| {
        let outer = ring_world(&pwh.outer, plane);
        let holes: Vec<Vec<Vec3>> = pwh.holes.iter().map(|h| ring_world(h, plane)).collect();
        d.fill.extend(
            crate::model::tessellate::triangulate(&outer, &holes)
                .into_iter()
                .map(|t| (t, fill)),
        );
        outline(d, &outer, WALL);
        for h in &holes {
            // Obstacles filled dark, so thin walls read as walls.
            d.fill.extend(
                crate::model::tessellate::triangulate(h, &[])
                    .into_iter()
                    .map(|t| (t, OBSTACLE)),
            );
            outline(d, h, WALL);
        }
    };
    match &level.data {
        LevelData::FloorPlan(fp) => {
            area(&mut d, &fp.area, LayerPlane::level(0.0), FLOOR);
            for b in &fp.blockers {
                let ring = blocker_ring(b);
                let lifted: Vec<Vec3> = ring.iter().map(|p| *p + Vec3::Y * 0.01).collect();
                d.fill.extend(
                    crate::model::tessellate::triangulate(&lifted, &[])
                        .into_iter()
                        .map(|t| (t, [0.55, 0.57, 0.60, 1.0])),
                );
                outline(&mut d, &lifted, WALL);
            }
        }
        LevelData::Raster(r) => {
            let (w, h) = (
                r.width as f32 * r.metres_per_pixel as f32,
                r.height as f32 * r.metres_per_pixel as f32,
            );
            outline(
                &mut d,
                &[
                    Vec3::ZERO,
                    Vec3::new(w, 0.0, 0.0),
                    Vec3::new(w, 0.0, h),
                    Vec3::new(0.0, 0.0, h),
                ],
                WALL,
            );
        }
        LevelData::Mesh(m) => {
            d.lit = true;
            d.one_sided = true;
            for i in 0..m.mesh.triangles.len() {
                let t = m.mesh.triangle(i);
                d.fill.push((t, [0.80, 0.80, 0.78, 1.0]));
            }
            for w in &m.water {
                let (lo, hi) = (w.min.as_vec3(), w.max.as_vec3());
                outline(
                    &mut d,
                    &[
                        Vec3::new(lo.x, hi.y, lo.z),
                        Vec3::new(hi.x, hi.y, lo.z),
                        Vec3::new(hi.x, hi.y, hi.z),
                        Vec3::new(lo.x, hi.y, hi.z),
                    ],
                    WATER,
                );
            }
        }
        LevelData::Brushes(b) => {
            // Brushes as translucent solids with edges; entity brushes
            // (ladders, ...) tinted so they stand out from the world.
            d.lit = true;
            for (solid, brush) in brush_solids(b) {
                let (fill, edge) = if brush.entity.is_some() {
                    ENTITY_BRUSH
                } else {
                    WORLD_BRUSH
                };
                for face in &solid.faces {
                    let ring: Vec<Vec3> = face.vertices.iter().map(|v| v.as_vec3()).collect();
                    let material = brush.materials.get(face.source).map_or("", String::as_str);
                    // Sky faces are the map's outer shell: outlined only,
                    // so the rooms under an open sky are seen from above.
                    if !is_sky(material) {
                        let fill = if brush.entity.is_some() {
                            fill
                        } else {
                            material_tint(material, fill)
                        };
                        for i in 1..ring.len().saturating_sub(1) {
                            d.fill.push(([ring[0], ring[i], ring[i + 1]], fill));
                        }
                    }
                    outline(&mut d, &ring, edge);
                }
            }
            for e in &b.entities {
                if let Some(o) = e.origin {
                    let o = o.as_vec3();
                    d.lines
                        .push((o - Vec3::X * 0.3, o + Vec3::X * 0.3, ENTITY_ORIGIN));
                    d.lines
                        .push((o - Vec3::Z * 0.3, o + Vec3::Z * 0.3, ENTITY_ORIGIN));
                    d.lines.push((o, o + Vec3::Y * 1.0, ENTITY_ORIGIN));
                }
            }
        }
        LevelData::Layers(l) => {
            let shown = |i: usize| !hidden_layers.contains(&(i as u32));
            for (i, layer) in l.layers.iter().enumerate().filter(|(i, _)| shown(*i)) {
                let tint = crate::model::style::element_color(i as u32, 0.85);
                let fill = [
                    0.6 * tint[0] + 0.4 * FLOOR[0],
                    0.6 * tint[1] + 0.4 * FLOOR[1],
                    0.6 * tint[2] + 0.4 * FLOOR[2],
                    0.85,
                ];
                area(&mut d, &layer.area, layer.plane(), fill);
            }
            for c in l
                .connections
                .iter()
                .filter(|c| shown(c.from) || shown(c.to))
            {
                let on = |i: usize, p| {
                    l.layers
                        .get(i)
                        .map_or(LayerPlane::level(0.0), |x| x.plane())
                        .lift(p)
                        .as_vec3()
                };
                let (a0, b0) = (on(c.from, c.a), on(c.from, c.b));
                let (a1, b1) = (on(c.to, c.a), on(c.to, c.b));
                let col = CONNECTION;
                d.lines
                    .extend([(a0, b0, col), (a1, b1, col), (a0, a1, col), (b0, b1, col)]);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &str) -> Level {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        navscope_levels::load(&p).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn only_a_triangle_mesh_level_is_drawn_one_sided() {
        let mesh = level_drawing(
            &open("assets/levels/voxel/table_room.obj"),
            &BTreeSet::new(),
        );
        assert!(mesh.one_sided && mesh.lit && !mesh.fill.is_empty());
        // Brushes are translucent solids seen from both sides; a floor
        // plan's areas are flat and may be wound either way.
        let plan = level_drawing(
            &open("assets/levels/floorplan/default.json"),
            &BTreeSet::new(),
        );
        assert!(!plan.one_sided && !plan.fill.is_empty());
        let brushes = level_drawing(&open("assets/levels/brushes/room.map"), &BTreeSet::new());
        assert!(!brushes.one_sided && !brushes.fill.is_empty());
    }

    #[test]
    fn faces_are_tinted_by_texture_and_sky_faces_left_unfilled() {
        let base = WORLD_BRUSH.0;
        assert_eq!(
            material_tint("WBRICK1_5", base),
            material_tint("wbrick1_5", base)
        );
        assert_ne!(
            material_tint("WBRICK1_5", base),
            material_tint("city4_2", base)
        );
        assert_eq!(material_tint("", base), base);
        assert!(is_sky("sky4") && is_sky("SKY1") && !is_sky("sk") && !is_sky("metal_sky"));
        assert!(!is_sky("é") && !is_sky("ské"));
    }
}
