//! Deterministic level generators for benchmarks and property tests.
//!
//! Every generator takes a seed and draws from its own [`SplitMix64`], so a
//! seed gives the same level bit for bit everywhere. Every output is valid
//! by construction (and the tests check it over many seeds): floor plans
//! pass core's `validate_polygon_with_holes`, brush levels are bounded
//! convex solids, layered levels have their connections inside both layers.
//!
//! | generator | makes |
//! |---|---|
//! | [`floor_plan`] | a rectangle with N random convex and concave obstacles (convex polygons, boxes, L, U, T, stars), one per grid cell so they never meet |
//! | [`rectilinear_maze`] | a braided maze of corridors: many notches, loops and wall islands (holes) |
//! | [`star_polygon`] | a star-shaped room without holes, about half its vertices notches |
//! | [`big_floor_plan`] | a hall with gear-shaped pillars reaching a target vertex count with 30 % notches (the convex pipeline's 10,000-vertex / 3,000-notch speed target) |
//! | [`brush_maze`] | the maze as box brushes on a floor brush, with a player start |
//! | [`stacked_floors`] | storeys with pillars joined by stair connections both ways |
//! | [`dotted_raster`] | a PNG raster with a one-pixel obstacle every few pixels (many holes that see far) |
//!
//! [`Request`] names a generator with its sizes and checks it against the
//! loader's budget before generating, so no generator writes a file the
//! loader refuses.

mod maze;
mod request;
mod rng;
mod shapes;

use std::f64::consts::TAU;

use glam::{DVec2, DVec3};
use navscope_core::geom::{Aabb, Polygon, PolygonWithHoles};
use navscope_core::level::{Brush, BrushLevel, Connection, Entity, FloorPlan, Layer, LayeredLevel};

pub use request::{Estimate, Request};
pub use rng::SplitMix64;

use maze::{Maze, grid_lines, trace_free};

/// Grid cell size of [`floor_plan`], metres.
const OBSTACLE_CELL: f64 = 4.0;

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon::new(vec![
        DVec2::new(x0, y0),
        DVec2::new(x1, y0),
        DVec2::new(x1, y1),
        DVec2::new(x0, y1),
    ])
}

/// Orients (outer counter-clockwise, holes clockwise) and drops repeated or
/// exactly collinear vertices.
fn finish(mut area: PolygonWithHoles) -> FloorPlan {
    area.normalise();
    area.outer.remove_collinear();
    for h in &mut area.holes {
        h.remove_collinear();
    }
    FloorPlan {
        area,
        nodes: Vec::new(),
        blockers: Vec::new(),
    }
}

/// A rectangular room with `n_obstacles` random obstacles: convex polygons
/// (3-8 vertices), boxes, L, U and T shapes and stars, randomly rotated.
/// The room is a grid of 4 m cells with about 1.5 cells per obstacle; each
/// obstacle sits in its own randomly chosen cell, inside a disc that keeps
/// it at least 0.08 m from the cell's sides, so obstacles never meet each
/// other or the walls. Plan coordinates, metres, origin at a corner.
pub fn floor_plan(seed: u64, n_obstacles: usize) -> FloorPlan {
    let mut rng = SplitMix64::new(seed);
    let want = (n_obstacles as f64 * 1.5).ceil().max(1.0);
    let cols = want.sqrt().ceil() as usize;
    let rows = (want / cols as f64).ceil() as usize;
    let mut cells: Vec<usize> = (0..cols * rows).collect();
    rng.shuffle(&mut cells);
    let c = OBSTACLE_CELL;
    let holes = cells[..n_obstacles.min(cells.len())]
        .iter()
        .map(|&k| {
            let centre = DVec2::new(((k % cols) as f64 + 0.5) * c, ((k / cols) as f64 + 0.5) * c)
                + DVec2::new(rng.range(-0.1, 0.1), rng.range(-0.1, 0.1)) * c;
            let r = rng.range(0.2, 0.38) * c;
            Polygon::new(shapes::random_obstacle(&mut rng, centre, r))
        })
        .collect();
    finish(PolygonWithHoles::new(
        rect(0.0, 0.0, cols as f64 * c, rows as f64 * c),
        holes,
    ))
}

/// Corridor width and wall thickness of the generated mazes, metres.
const MAZE_CELL: f64 = 2.0;
const MAZE_WALL: f64 = 0.3;
/// Chance that a maze wall left by the spanning tree is knocked out.
const MAZE_BRAID: f64 = 0.1;

/// The free space of a `w x h` maze (each at least 1) with 2 m corridors
/// and 0.3 m walls. The maze is a random spanning tree (depth-first) with
/// 10 % of its remaining inner walls removed, which makes loops and leaves
/// some wall pieces free-standing: those are the holes. Plan coordinates.
pub fn rectilinear_maze(seed: u64, w: usize, h: usize) -> FloorPlan {
    let mut rng = SplitMix64::new(seed);
    let m = Maze::new(&mut rng, w, h, MAZE_BRAID);
    let (nx, ny) = m.grid_size();
    let xs = grid_lines(nx, MAZE_WALL, MAZE_CELL);
    let ys = grid_lines(ny, MAZE_WALL, MAZE_CELL);
    let mut rings: Vec<Polygon> = trace_free(nx, ny, |i, j| m.solid(i, j), &xs, &ys)
        .into_iter()
        .map(Polygon::new)
        .collect();
    // The braided maze is connected, so exactly one ring winds
    // counter-clockwise: the outer boundary. The others are wall islands.
    let outer_at = rings
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.signed_area().total_cmp(&b.1.signed_area()))
        .map_or(0, |(i, _)| i);
    let outer = rings.swap_remove(outer_at);
    finish(PolygonWithHoles::new(outer, rings))
}

/// A `size` x `size` PNG raster (8-bit grey), white but for a one-pixel
/// black obstacle every `spacing` pixels in both directions, at the pixels
/// whose coordinates are both `spacing / 2` modulo `spacing`
/// (`size` and `spacing` at least 1): many small holes, each seen from far along the
/// open rows between them. Read it at [`DOTTED_RASTER_SIDECAR`]'s 1 m per
/// pixel.
pub fn dotted_raster(size: u32, spacing: u32) -> Vec<u8> {
    let (size, spacing) = (size.max(1), spacing.max(1));
    let dot = |i: u32| i % spacing == spacing / 2;
    let pixels: Vec<u8> = (0..size)
        .flat_map(|y| (0..size).map(move |x| if dot(x) && dot(y) { 0 } else { 255 }))
        .collect();
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &pixels,
        size,
        size,
        image::ExtendedColorType::L8,
    )
    .expect("encoding a grey image in memory cannot fail");
    png
}

/// The sidecar (`NAME.png.ron`) of [`dotted_raster`]: 1 m per pixel.
pub const DOTTED_RASTER_SIDECAR: &str = "Raster(metres_per_pixel: 1.0)\n";

/// A star-shaped room of `n_vertices` vertices (at least 3) without holes:
/// vertices at jittered angles around the origin, each in its own sector,
/// at radii between 6 and 20 m, so roughly half of them are notches.
pub fn star_polygon(seed: u64, n_vertices: usize) -> FloorPlan {
    let mut rng = SplitMix64::new(seed);
    let n = n_vertices.max(3);
    let sector = TAU / n as f64;
    let pts = (0..n)
        .map(|i| {
            let a = sector * (i as f64 + rng.range(-0.4, 0.4));
            DVec2::new(a.cos(), a.sin()) * rng.range(6.0, 20.0)
        })
        .collect();
    finish(PolygonWithHoles::new(Polygon::new(pts), Vec::new()))
}

/// A big hall for the convex pipeline's speed target: exactly
/// `target_vertices` vertices (at least 64) of which 30 % are notches.
///
/// 40 % of the vertices lie on the outer boundary, a rectangle whose four
/// sides bow slightly outwards (every outer vertex convex, so no notch);
/// the other 60 % belong to gear-shaped pillars whose tips are notches and
/// whose valleys are not, which makes half of them notches. For 10,000
/// vertices that is 3,000 notches.
pub fn big_floor_plan(seed: u64, target_vertices: usize) -> FloorPlan {
    let mut rng = SplitMix64::new(seed);
    let total = target_vertices.max(64);
    let mut hole_budget = total * 6 / 10;
    hole_budget -= hole_budget % 2;
    // Gears of 4..12 teeth (8..24 vertices); a grid with room for the
    // smallest ones.
    let max_gears = hole_budget / 8;
    let cols = (max_gears as f64).sqrt().ceil() as usize;
    let rows = max_gears.div_ceil(cols);
    let c = OBSTACLE_CELL;
    let (wx, wy) = (cols as f64 * c, rows as f64 * c);
    let mut holes = Vec::new();
    let mut left = hole_budget;
    let mut cell = 0;
    while left >= 8 {
        let mut teeth = rng.int(4, 12) as usize;
        // Never leave a remainder a gear cannot use.
        if left < 2 * teeth + 8 {
            teeth = left / 2;
        }
        let centre = DVec2::new(
            ((cell % cols) as f64 + 0.5) * c,
            ((cell / cols) as f64 + 0.5) * c,
        ) + DVec2::new(rng.range(-0.08, 0.08), rng.range(-0.08, 0.08)) * c;
        let r = rng.range(0.3, 0.4) * c;
        // Valleys well inside the chord between tips: reflex.
        let inner = rng.range(0.45, 0.7) * (std::f64::consts::PI / teeth as f64).cos();
        let pts = shapes::star(teeth, r, inner, rng.range(0.0, TAU))
            .into_iter()
            .map(|p| centre + p)
            .collect();
        holes.push(Polygon::new(pts));
        left -= 2 * teeth;
        cell += 1;
    }
    // Outer boundary: the rest of the vertices on four outward-bowed sides.
    let n_outer = total - (hole_budget - left);
    let per_side: Vec<usize> = (0..4)
        .map(|side| n_outer / 4 + usize::from(side < n_outer % 4))
        .collect();
    let corners = [
        DVec2::new(0.0, 0.0),
        DVec2::new(wx, 0.0),
        DVec2::new(wx, wy),
        DVec2::new(0.0, wy),
    ];
    let mut outer = Vec::with_capacity(n_outer);
    for side in 0..4 {
        let (a, b) = (corners[side], corners[(side + 1) % 4]);
        let len = a.distance(b);
        let out = (b - a).perp().normalize() * -1.0;
        let bulge = 0.02 * len;
        let k = per_side[side];
        for i in 0..k {
            let t = i as f64 / k as f64;
            // Parabolic bow: strictly convex, zero at the corners.
            outer.push(a + (b - a) * t + out * (4.0 * bulge * t * (1.0 - t)));
        }
    }
    finish(PolygonWithHoles::new(Polygon::new(outer), holes))
}

/// A box brush from its corners, with outward planes.
fn box_brush(min: DVec3, max: DVec3, material: &str) -> Brush {
    let planes = Aabb { min, max }.outward_planes().to_vec();
    Brush {
        planes,
        materials: vec![material.to_string(); 6],
        entity: None,
        contents: Default::default(),
    }
}

/// Wall height of [`brush_maze`], metres.
const BRUSH_WALL_HEIGHT: f64 = 3.0;

/// The maze of [`rectilinear_maze`] (same seed, same layout) as a brush
/// level in world space: a 0.5 m thick floor brush under the whole maze
/// (top at y = 0), one 3 m tall box brush per run of solid wall squares
/// along a row, and an `info_player_start` on the floor in the first cell.
pub fn brush_maze(seed: u64, w: usize, h: usize) -> BrushLevel {
    let mut rng = SplitMix64::new(seed);
    let m = Maze::new(&mut rng, w, h, MAZE_BRAID);
    let (nx, ny) = m.grid_size();
    let xs = grid_lines(nx, MAZE_WALL, MAZE_CELL);
    let zs = grid_lines(ny, MAZE_WALL, MAZE_CELL);
    let mut brushes = vec![box_brush(
        DVec3::new(0.0, -0.5, 0.0),
        DVec3::new(xs[nx], 0.0, zs[ny]),
        "floor",
    )];
    for j in 0..ny {
        let mut i = 0;
        while i < nx {
            if !m.solid(i, j) {
                i += 1;
                continue;
            }
            let start = i;
            while i < nx && m.solid(i, j) {
                i += 1;
            }
            brushes.push(box_brush(
                DVec3::new(xs[start], 0.0, zs[j]),
                DVec3::new(xs[i], BRUSH_WALL_HEIGHT, zs[j + 1]),
                "wall",
            ));
        }
    }
    let start = Entity {
        classname: "info_player_start".to_string(),
        origin: Some(DVec3::new(
            (xs[1] + xs[2]) / 2.0,
            0.0,
            (zs[1] + zs[2]) / 2.0,
        )),
        properties: Vec::new(),
    };
    BrushLevel {
        brushes,
        entities: vec![start],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// Storey height of [`stacked_floors`], metres.
const STOREY: f64 = 3.0;

/// `floors` storeys (at least 1) of a 24 x 14 m building, 3 m apart. Each
/// floor has 3-8 random pillars (boxes, convex polygons and stars) in its
/// west part; the east part holds the stairs. Floor `i` and `i + 1` are
/// joined by a connection pair across the stair top (one each way, the
/// second with the segment reversed so its access side faces the other
/// way); stairs alternate between the north and south side.
pub fn stacked_floors(seed: u64, floors: usize) -> LayeredLevel {
    let mut rng = SplitMix64::new(seed);
    let n = floors.max(1);
    let mut layers = Vec::with_capacity(n);
    for f in 0..n {
        let mut holes = Vec::new();
        // Pillars on a 4 x 3 grid of 4 m cells in x 0..16, y 1..13.
        let mut cells: Vec<usize> = (0..12).collect();
        rng.shuffle(&mut cells);
        let count = rng.int(3, 8) as usize;
        for &k in &cells[..count] {
            let centre = DVec2::new((k % 4) as f64 * 4.0 + 2.0, (k / 4) as f64 * 4.0 + 3.0);
            let r = rng.range(0.4, 1.2);
            let pts = match rng.int(0, 2) {
                0 => shapes::convex(&mut rng, 4, r),
                1 => {
                    let k = rng.int(3, 6) as usize;
                    shapes::convex(&mut rng, k, r)
                }
                _ => shapes::star(5, r, 0.5, rng.range(0.0, TAU)),
            };
            holes.push(Polygon::new(pts.into_iter().map(|p| centre + p).collect()));
        }
        let plan = finish(PolygonWithHoles::new(rect(0.0, 0.0, 24.0, 14.0), holes));
        layers.push(Layer {
            name: format!("floor {f}"),
            height: f as f64 * STOREY,
            area: plan.area,
            ..Layer::default()
        });
    }
    let mut connections = Vec::with_capacity(2 * (n - 1));
    for f in 0..n.saturating_sub(1) {
        let y = if f % 2 == 0 { 2.0 } else { 12.0 };
        let (a, b) = (DVec2::new(18.0, y), DVec2::new(22.0, y));
        connections.push(Connection {
            a,
            b,
            from: f,
            to: f + 1,
        });
        connections.push(Connection {
            a: b,
            b: a,
            from: f + 1,
            to: f,
        });
    }
    LayeredLevel {
        layers,
        connections,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::notches;
    use navscope_core::geom::validate_polygon_with_holes;
    use proptest::prelude::*;

    #[test]
    fn big_floor_plan_hits_the_speed_target_shape() {
        let p = big_floor_plan(1, 10_000);
        validate_polygon_with_holes(&p.area).unwrap();
        assert_eq!(p.area.vertex_count(), 10_000);
        assert_eq!(notches(&p.area), 3_000);
    }

    #[test]
    fn generators_are_deterministic() {
        assert_eq!(floor_plan(5, 30), floor_plan(5, 30));
        assert_ne!(floor_plan(5, 30), floor_plan(6, 30));
        assert_eq!(rectilinear_maze(2, 8, 8), rectilinear_maze(2, 8, 8));
        assert_eq!(brush_maze(2, 5, 5), brush_maze(2, 5, 5));
        assert_eq!(stacked_floors(9, 3), stacked_floors(9, 3));
    }

    #[test]
    fn floor_plan_has_the_obstacles_asked_for() {
        assert_eq!(floor_plan(1, 0).area.holes.len(), 0);
        assert_eq!(floor_plan(1, 17).area.holes.len(), 17);
    }

    #[test]
    fn braided_maze_has_holes_and_many_notches() {
        let p = rectilinear_maze(3, 20, 20);
        validate_polygon_with_holes(&p.area).unwrap();
        assert!(!p.area.holes.is_empty());
        assert!(notches(&p.area) > 100);
    }

    #[test]
    fn brush_maze_walls_match_the_plan_maze() {
        // Same seed: the wall brushes cover exactly the plan maze's walls.
        let b = brush_maze(4, 6, 5);
        let p = rectilinear_maze(4, 6, 5);
        let (w, d) = (
            6.0 * MAZE_CELL + 7.0 * MAZE_WALL,
            5.0 * MAZE_CELL + 6.0 * MAZE_WALL,
        );
        let walls: f64 = b.brushes[1..]
            .iter()
            .map(|br| {
                let ext = |axis: DVec3| {
                    let hi = br.planes.iter().find(|p| p.normal == axis).unwrap().d;
                    let lo = -br.planes.iter().find(|p| p.normal == -axis).unwrap().d;
                    hi - lo
                };
                ext(DVec3::X) * ext(DVec3::Z)
            })
            .sum();
        assert!(
            (w * d - walls - p.area.area()).abs() < 1e-6,
            "{} + {} != {}",
            walls,
            p.area.area(),
            w * d
        );
        assert_eq!(b.entities[0].classname, "info_player_start");
    }

    #[test]
    fn stacked_floors_connections_lie_in_both_layers() {
        let l = stacked_floors(7, 4);
        assert_eq!(l.layers.len(), 4);
        assert_eq!(l.connections.len(), 6);
        for c in &l.connections {
            for layer in [c.from, c.to] {
                assert!(l.layers[layer].area.contains(c.a) && l.layers[layer].area.contains(c.b));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_floor_plans_validate(seed in any::<u64>(), n in 0usize..60) {
            let p = floor_plan(seed, n);
            prop_assert_eq!(validate_polygon_with_holes(&p.area), Ok(()));
            prop_assert_eq!(p.area.holes.len(), n);
        }

        #[test]
        fn mazes_and_stars_validate(seed in any::<u64>(), w in 1usize..12, h in 1usize..12, n in 3usize..200) {
            prop_assert_eq!(validate_polygon_with_holes(&rectilinear_maze(seed, w, h).area), Ok(()));
            prop_assert_eq!(validate_polygon_with_holes(&star_polygon(seed, n).area), Ok(()));
        }

        #[test]
        fn big_plans_validate_with_exact_counts(seed in any::<u64>(), target in 64usize..3000) {
            let p = big_floor_plan(seed, target);
            prop_assert_eq!(validate_polygon_with_holes(&p.area), Ok(()));
            prop_assert_eq!(p.area.vertex_count(), target);
        }

        #[test]
        fn brush_maze_brushes_are_closed_solids(seed in any::<u64>(), w in 1usize..8, h in 1usize..8) {
            let b = brush_maze(seed, w, h);
            for brush in &b.brushes {
                prop_assert_eq!(crate::brushes::check_brush(brush), Ok(()));
            }
        }

        #[test]
        fn stacked_floor_layers_validate(seed in any::<u64>(), floors in 1usize..6) {
            let l = stacked_floors(seed, floors);
            for layer in &l.layers {
                prop_assert_eq!(validate_polygon_with_holes(&layer.area), Ok(()));
            }
        }
    }
}
