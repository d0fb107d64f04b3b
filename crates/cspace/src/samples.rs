//! The sample levels of `assets/levels/cspace/` as code (world space, Y
//! up, metres; floors have their top at y = 0): the tests check the files
//! against these, the generator test writes the files from them, and the
//! benchmark uses the maze.

use glam::DVec3;
use navscope_core::level::{Brush, BrushLevel, Entity};

use crate::build::{Rise, box_brush, ramp as wedge, rotated_box};

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn textured(mut b: Brush, material: &str) -> Brush {
    b.materials = vec![material.to_string(); b.planes.len()];
    b
}

fn start(at: DVec3) -> Entity {
    Entity {
        classname: "info_player_start".into(),
        origin: Some(at),
        properties: vec![],
    }
}

fn floor(min_x: f64, min_z: f64, max_x: f64, max_z: f64) -> Brush {
    textured(
        box_brush(v(min_x, -0.5, min_z), v(max_x, 0.0, max_z)),
        "floor",
    )
}

/// Golodetz's *Ramp*: a floor, a ramp rising 1 m over 4 m to a platform,
/// and a 0.3 m step block beside it. Walk links cross the ramp's bottom
/// and top edges; step links run along the low part of its sides and onto
/// the step block.
pub fn ramp() -> BrushLevel {
    BrushLevel {
        brushes: vec![
            floor(-6.0, -6.0, 6.0, 6.0),
            textured(
                wedge(v(-2.0, 0.0, -1.0), v(2.0, 1.0, 1.0), Rise::PlusX),
                "ramp",
            ),
            textured(box_brush(v(2.0, 0.0, -1.0), v(5.0, 1.0, 1.0)), "platform"),
            textured(box_brush(v(-5.0, 0.0, 2.5), v(-3.0, 0.3, 4.5)), "step"),
        ],
        entities: vec![start(v(-5.0, 0.0, -4.0))],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// A corridor along X closed by a low archway (ceiling 1.3 m above the
/// floor, Figure 6): a standing agent must crouch to pass it.
pub fn archway() -> BrushLevel {
    BrushLevel {
        brushes: vec![
            floor(-6.0, -1.8, 6.0, 1.8),
            textured(box_brush(v(-6.0, 0.0, 1.5), v(6.0, 3.0, 1.8)), "wall"),
            textured(box_brush(v(-6.0, 0.0, -1.8), v(6.0, 3.0, -1.5)), "wall"),
            textured(box_brush(v(-1.0, 1.3, -1.5), v(1.0, 3.0, 1.5)), "arch"),
        ],
        entities: vec![start(v(-5.0, 0.0, 0.0))],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// Six 0.25 m steps, 0.4 m deep, up to a landing 1.5 m high.
pub fn stairs() -> BrushLevel {
    let mut brushes = vec![floor(-4.0, -3.0, 7.0, 3.0)];
    for k in 0..6 {
        let x0 = k as f64 * 0.4;
        brushes.push(textured(
            box_brush(v(x0, 0.0, -1.0), v(2.4, (k + 1) as f64 * 0.25, 1.0)),
            "step",
        ));
    }
    brushes.push(textured(
        box_brush(v(2.4, 0.0, -1.0), v(6.0, 1.5, 1.0)),
        "landing",
    ));
    BrushLevel {
        brushes,
        entities: vec![start(v(-3.0, 0.0, 0.0))],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// A 1 m ledge: too high to step onto, low enough to jump.
pub fn ledge() -> BrushLevel {
    BrushLevel {
        brushes: vec![
            floor(-4.0, -3.0, 6.0, 3.0),
            textured(box_brush(v(1.0, 0.0, -2.0), v(5.0, 1.0, 2.0)), "ledge"),
        ],
        entities: vec![start(v(-3.0, 0.0, 0.0))],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// A 3 m wall with an upper floor on top and a `func_ladder` against it.
pub fn ladder() -> BrushLevel {
    let mut ladder = textured(box_brush(v(0.8, 0.0, -0.4), v(1.0, 3.0, 0.4)), "ladder");
    ladder.entity = Some(1);
    BrushLevel {
        brushes: vec![
            floor(-4.0, -3.0, 6.0, 3.0),
            textured(box_brush(v(1.0, 0.0, -2.0), v(5.0, 3.0, 2.0)), "block"),
            ladder,
        ],
        entities: vec![
            start(v(-3.0, 0.0, 0.0)),
            Entity {
                classname: "func_ladder".into(),
                origin: None,
                properties: vec![],
            },
        ],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// A 24 x 24 m courtyard of more than a hundred brushes with every link
/// kind: tiled floor, segmented walls, a ramp to a gallery, stairs, a
/// ledge, a low archway, a ladder, slanted crates (bevels) and pillars.
pub fn courtyard() -> BrushLevel {
    let mut b = Vec::new();
    // Floor: 8 x 8 tiles of 3 m.
    for i in 0..8 {
        for j in 0..8 {
            let (x, z) = (-12.0 + 3.0 * i as f64, -12.0 + 3.0 * j as f64);
            b.push(floor(x, z, x + 3.0, z + 3.0));
        }
    }
    // Outer walls, four segments a side.
    for k in 0..4 {
        let a = -12.0 + 6.0 * k as f64;
        b.push(textured(
            box_brush(v(a, 0.0, -12.5), v(a + 6.0, 4.0, -12.0)),
            "wall",
        ));
        b.push(textured(
            box_brush(v(a, 0.0, 12.0), v(a + 6.0, 4.0, 12.5)),
            "wall",
        ));
        b.push(textured(
            box_brush(v(-12.5, 0.0, a), v(-12.0, 4.0, a + 6.0)),
            "wall",
        ));
        b.push(textured(
            box_brush(v(12.0, 0.0, a), v(12.5, 4.0, a + 6.0)),
            "wall",
        ));
    }
    // Gallery along the north wall (z from 8 to 12), 2 m high, reached by a ramp and a ladder.
    b.push(textured(
        box_brush(v(-12.0, 0.0, 8.0), v(4.0, 2.0, 12.0)),
        "gallery",
    ));
    b.push(textured(
        wedge(v(4.0, 0.0, 8.0), v(10.0, 2.0, 12.0), Rise::MinusX),
        "ramp",
    ));
    let mut ladder = textured(box_brush(v(-10.0, 0.0, 7.8), v(-9.0, 2.0, 8.0)), "ladder");
    ladder.entity = Some(1);
    b.push(ladder);
    // Stairs in the south-east: five 0.3 m steps up to a 1.5 m dais.
    for k in 0..5 {
        let z0 = -6.0 - 0.4 * k as f64;
        b.push(textured(
            box_brush(v(6.0, 0.0, -8.0), v(10.0, 0.3 * (k + 1) as f64, z0)),
            "step",
        ));
    }
    b.push(textured(
        box_brush(v(6.0, 0.0, -12.0), v(10.0, 1.5, -8.0)),
        "dais",
    ));
    // A 1 m ledge in the south-west.
    b.push(textured(
        box_brush(v(-11.0, 0.0, -11.0), v(-7.0, 1.0, -8.0)),
        "ledge",
    ));
    // A low archway: two pillars and a lintel 1.3 m up.
    b.push(textured(
        box_brush(v(-2.0, 0.0, -4.0), v(-1.0, 3.0, -1.0)),
        "pillar",
    ));
    b.push(textured(
        box_brush(v(1.0, 0.0, -4.0), v(2.0, 3.0, -1.0)),
        "pillar",
    ));
    b.push(textured(
        box_brush(v(-1.0, 1.3, -4.0), v(1.0, 3.0, -1.0)),
        "lintel",
    ));
    // Slanted crates: turned and tipped boxes that need bevel planes.
    for k in 0..10 {
        let a = k as f64;
        let centre = v(
            -9.0 + 2.0 * a,
            0.35,
            4.0 + if k % 2 == 0 { 0.0 } else { 1.5 },
        );
        b.push(textured(
            rotated_box(
                centre,
                v(0.4, 0.4, 0.4),
                0.3 + 0.25 * a,
                if k % 3 == 0 { 0.0 } else { 0.2 },
            ),
            "crate",
        ));
    }
    // Round-ish pillars: octagonal prisms.
    for k in 0..6 {
        let cx = -9.0 + 3.6 * k as f64;
        b.push(textured(prism(v(cx, 0.0, 1.0), 0.35, 8, 4.0), "column"));
    }
    // Benches: low boxes one step high.
    for k in 0..6 {
        let x = -7.5 + 3.0 * k as f64;
        b.push(textured(
            box_brush(v(x, 0.0, -1.0 + 8.5), v(x + 1.5, 0.4, -0.5 + 8.5)),
            "bench",
        ));
    }
    BrushLevel {
        brushes: b,
        entities: vec![
            start(v(0.0, 0.0, 0.0)),
            Entity {
                classname: "func_ladder".into(),
                origin: None,
                properties: vec![],
            },
        ],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// A vertical prism with a regular `sides`-gon of circumradius `r` around
/// `base`, `height` tall.
fn prism(base: DVec3, r: f64, sides: usize, height: f64) -> Brush {
    use navscope_core::geom::Plane;
    let mut planes = vec![
        Plane {
            normal: DVec3::Y,
            d: base.y + height,
        },
        Plane {
            normal: -DVec3::Y,
            d: -base.y,
        },
    ];
    let apothem = r * (std::f64::consts::PI / sides as f64).cos();
    for k in 0..sides {
        let a = std::f64::consts::TAU * (k as f64 + 0.5) / sides as f64;
        let n = DVec3::new(a.cos(), 0.0, a.sin());
        planes.push(Plane {
            normal: n,
            d: n.dot(base) + apothem,
        });
    }
    crate::build::brush(planes)
}

/// A deterministic maze of `n` x `n` cells of 2 m: one floor tile per cell
/// and a 2.5 m wall on every cell side the maze keeps (depth-first carving
/// driven by `seed`). `n = 23` gives about a thousand brushes (1,017).
pub fn maze(n: usize, seed: u64) -> BrushLevel {
    let n = n.max(1);
    let cell = 2.0;
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |bound: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % bound as u64) as usize
    };
    // open_e[i][j]: wall between (i, j) and (i + 1, j) removed; open_s: between (i, j) and (i, j + 1).
    let mut open_e = vec![vec![false; n]; n];
    let mut open_s = vec![vec![false; n]; n];
    let mut seen = vec![vec![false; n]; n];
    let mut stack = vec![(0usize, 0usize)];
    seen[0][0] = true;
    while let Some(&(i, j)) = stack.last() {
        let mut options = Vec::new();
        if i + 1 < n && !seen[i + 1][j] {
            options.push((i + 1, j));
        }
        if i > 0 && !seen[i - 1][j] {
            options.push((i - 1, j));
        }
        if j + 1 < n && !seen[i][j + 1] {
            options.push((i, j + 1));
        }
        if j > 0 && !seen[i][j - 1] {
            options.push((i, j - 1));
        }
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let (a, c) = options[next(options.len())];
        match (a as isize - i as isize, c as isize - j as isize) {
            (1, 0) => open_e[i][j] = true,
            (-1, 0) => open_e[a][c] = true,
            (0, 1) => open_s[i][j] = true,
            _ => open_s[a][c] = true,
        }
        seen[a][c] = true;
        stack.push((a, c));
    }
    let mut b = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (x, z) = (i as f64 * cell, j as f64 * cell);
            b.push(floor(x, z, x + cell, z + cell));
        }
    }
    let t = 0.1;
    let size = n as f64 * cell;
    for i in 0..n {
        for j in 0..n {
            let (x, z) = (i as f64 * cell, j as f64 * cell);
            if !open_e[i][j] && i + 1 < n {
                b.push(textured(
                    box_brush(v(x + cell - t, 0.0, z), v(x + cell + t, 2.5, z + cell)),
                    "wall",
                ));
            }
            if !open_s[i][j] && j + 1 < n {
                b.push(textured(
                    box_brush(v(x, 0.0, z + cell - t), v(x + cell, 2.5, z + cell + t)),
                    "wall",
                ));
            }
        }
    }
    b.push(textured(
        box_brush(v(-t, 0.0, -t), v(size + t, 2.5, t)),
        "wall",
    ));
    b.push(textured(
        box_brush(v(-t, 0.0, size - t), v(size + t, 2.5, size + t)),
        "wall",
    ));
    b.push(textured(
        box_brush(v(-t, 0.0, -t), v(t, 2.5, size + t)),
        "wall",
    ));
    b.push(textured(
        box_brush(v(size - t, 0.0, -t), v(size + t, 2.5, size + t)),
        "wall",
    ));
    BrushLevel {
        brushes: b,
        entities: vec![start(v(cell * 0.5, 0.0, cell * 0.5))],
        skipped: Vec::new(),
        unit: 1.0,
    }
}

/// Every sample level with its file stem.
pub fn all() -> Vec<(&'static str, BrushLevel)> {
    vec![
        ("ramp", ramp()),
        ("archway", archway()),
        ("stairs", stairs()),
        ("ledge", ledge()),
        ("ladder", ladder()),
        ("courtyard", courtyard()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyhedron::Polyhedron;

    #[test]
    fn every_sample_brush_is_a_valid_polyhedron() {
        for (name, level) in all().into_iter().chain([("maze", maze(6, 1))]) {
            for (i, b) in level.brushes.iter().enumerate() {
                Polyhedron::from_planes(&b.planes)
                    .unwrap_or_else(|e| panic!("{name} brush {i}: {e}"));
            }
        }
        assert!(
            courtyard().brushes.len() >= 100,
            "{}",
            courtyard().brushes.len()
        );
    }

    #[test]
    fn maze_is_deterministic_and_about_a_thousand_brushes_at_23() {
        assert_eq!(maze(5, 7), maze(5, 7));
        assert_ne!(maze(5, 7), maze(5, 8));
        let n = maze(23, 1).brushes.len();
        assert!((1000..1100).contains(&n), "{n}");
    }
}
