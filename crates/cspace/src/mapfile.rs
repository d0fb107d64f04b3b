//! Writes a brush level as a Quake `.map` in Valve 220 format, the format
//! TrenchBroom writes, so generated levels open in level editors and go
//! through the same loader as hand-made ones.
//!
//! Coordinates convert from navscope's world (Y up, metres) to Quake's
//! (Z up, units): `quake = (x, −z, y) / metres_per_unit`, a rotation, so
//! windings keep their sense. Each face is written as three points of its
//! plane ordered so that Quake's `(p0 − p1) × (p2 − p1)` is the outward
//! normal. Texture axes are the paraxial ones for the face's dominant axis.
//!
//! The three points are the face's vertices that span the largest triangle
//! (the farthest pair, then the vertex farthest from their line), projected
//! onto the plane, so the plane read back is well conditioned. Numbers are
//! written with every digit needed to read back the same `f64` — rounding
//! them to a grid would tilt a rotated face by up to ~1e-5 rad, enough to
//! change a configuration space built from it — except that a number within
//! 1e-12 (relative) of a multiple of 1e-4 is written as that multiple, so
//! axis-aligned and grid-placed faces keep short, exact coordinates.

use std::fmt::Write;

use glam::DVec3;
use navscope_core::geom::Plane;
use navscope_core::level::BrushLevel;

use crate::polyhedron::{PolyError, Polyhedron};

/// Quake coordinates of a world point.
pub fn to_quake(p: DVec3, metres_per_unit: f64) -> DVec3 {
    DVec3::new(p.x, -p.z, p.y) / metres_per_unit
}

fn num(x: f64) -> String {
    let r = (x * 1e4).round() / 1e4;
    let v = if (r - x).abs() <= 1e-12 * x.abs().max(1.0) {
        r
    } else {
        x
    };
    if v == 0.0 { "0".into() } else { format!("{v}") }
}

/// Three points of the face's plane, spanning the largest triangle among
/// its vertices, ordered so that `(p0 − p1) × (p2 − p1)` points along
/// `plane.normal`. `None` when the vertices are all on one line.
fn plane_points(plane: &Plane, vertices: &[DVec3]) -> Option<[DVec3; 3]> {
    let mut best = (0.0, 0, 0);
    for (i, a) in vertices.iter().enumerate() {
        for (j, b) in vertices.iter().enumerate().skip(i + 1) {
            let d = a.distance_squared(*b);
            if d > best.0 {
                best = (d, i, j);
            }
        }
    }
    let (a, b) = (vertices[best.1], vertices[best.2]);
    let c = vertices
        .iter()
        .copied()
        .max_by(|p, q| {
            let area = |v: DVec3| (b - a).cross(v - a).length_squared();
            area(*p).total_cmp(&area(*q))
        })
        .filter(|c| (b - a).cross(*c - a).length_squared() > 0.0)?;
    let on = |p: DVec3| p - plane.normal * plane.distance(p);
    let (a, b, c) = (on(a), on(b), on(c));
    Some(if (a - b).cross(c - b).dot(plane.normal) > 0.0 {
        [a, b, c]
    } else {
        [c, b, a]
    })
}

fn point(p: DVec3) -> String {
    format!("( {} {} {} )", num(p.x), num(p.y), num(p.z))
}

fn axes(n: DVec3) -> (&'static str, &'static str) {
    let a = n.abs();
    if a.z >= a.x && a.z >= a.y {
        ("[ 1 0 0 0 ]", "[ 0 -1 0 0 ]")
    } else if a.x >= a.y {
        ("[ 0 1 0 0 ]", "[ 0 0 -1 0 ]")
    } else {
        ("[ 1 0 0 0 ]", "[ 0 0 -1 0 ]")
    }
}

fn write_brush(
    out: &mut String,
    index: usize,
    level: &BrushLevel,
    metres_per_unit: f64,
) -> Result<(), String> {
    let b = &level.brushes[index];
    let solid =
        Polyhedron::from_planes(&b.planes).map_err(|e: PolyError| format!("brush {index}: {e}"))?;
    let _ = writeln!(out, "// brush {index}");
    out.push_str("{\n");
    for (fi, f) in solid.faces.iter().enumerate() {
        let [p0, p1, p2] = plane_points(&f.plane, &f.vertices)
            .ok_or_else(|| format!("brush {index}: face {fi} has no area"))?;
        let q = |p: DVec3| to_quake(p, metres_per_unit);
        let n = to_quake(f.plane.normal, 1.0);
        let (u, w) = axes(n);
        let material = b
            .materials
            .get(f.source)
            .filter(|m| !m.is_empty())
            .map(String::as_str)
            .unwrap_or("__TB_empty");
        let _ = writeln!(
            out,
            "{} {} {} {material} {u} {w} 0 1 1",
            point(q(p0)),
            point(q(p1)),
            point(q(p2))
        );
    }
    out.push_str("}\n");
    Ok(())
}

/// The level as Valve 220 `.map` text, `metres_per_unit` metres per Quake
/// unit. Fails (naming the brush) on a brush that is not a closed convex
/// polyhedron.
pub fn valve220(level: &BrushLevel, metres_per_unit: f64, comment: &str) -> Result<String, String> {
    let mut out = String::new();
    out.push_str("// Game: Quake\n// Format: Valve\n");
    for line in comment.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("// entity 0\n{\n\"classname\" \"worldspawn\"\n\"mapversion\" \"220\"\n");
    for i in (0..level.brushes.len()).filter(|&i| level.brushes[i].entity.is_none()) {
        write_brush(&mut out, i, level, metres_per_unit)?;
    }
    out.push_str("}\n");
    for (e, ent) in level.entities.iter().enumerate() {
        let _ = writeln!(
            out,
            "// entity {}\n{{\n\"classname\" \"{}\"",
            e + 1,
            ent.classname
        );
        if let Some(o) = ent.origin {
            let q = to_quake(o, metres_per_unit);
            let _ = writeln!(out, "\"origin\" \"{} {} {}\"", num(q.x), num(q.y), num(q.z));
        }
        for (k, v) in &ent.properties {
            let _ = writeln!(out, "\"{k}\" \"{v}\"");
        }
        for i in (0..level.brushes.len()).filter(|&i| level.brushes[i].entity == Some(e)) {
            write_brush(&mut out, i, level, metres_per_unit)?;
        }
        out.push_str("}\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{box_brush, rotated_box};
    use navscope_core::level::Entity;

    #[test]
    fn a_box_is_six_faces_with_outward_quake_normals() {
        let mut ladder = box_brush(DVec3::ZERO, DVec3::new(0.1, 2.0, 0.5));
        ladder.entity = Some(0);
        let level = BrushLevel {
            brushes: vec![
                box_brush(DVec3::new(-1.0, -1.0, -1.0), DVec3::new(1.0, 0.0, 1.0)),
                ladder,
            ],
            entities: vec![Entity {
                classname: "func_ladder".into(),
                origin: None,
                properties: vec![],
            }],
            skipped: Vec::new(),
            unit: 1.0,
        };
        let text = valve220(&level, 1.0 / 32.0, "test").unwrap();
        assert!(text.starts_with("// Game: Quake\n// Format: Valve\n// test\n"));
        assert!(text.contains("\"mapversion\" \"220\""));
        assert!(text.contains("\"classname\" \"func_ladder\""));
        let faces: Vec<&str> = text.lines().filter(|l| l.starts_with('(')).collect();
        assert_eq!(faces.len(), 12);
        // The top of the floor (world y = 0) is Quake z = 0 with normal +z.
        let tops: Vec<_> = faces[..6]
            .iter()
            .map(|l| quake_points(l))
            .filter(|p| p.iter().all(|v| v.z == 0.0))
            .collect();
        assert_eq!(tops.len(), 1);
        let p = &tops[0];
        assert!(
            (p[0] - p[1]).cross(p[2] - p[1]).z > 0.0,
            "Quake normal of the top face points up"
        );
    }

    /// The three plane points of a face line, in Quake coordinates.
    fn quake_points(line: &str) -> Vec<DVec3> {
        line.split(')')
            .take(3)
            .map(|p| {
                let v: Vec<f64> = p
                    .trim_start_matches([' ', '('])
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect();
                DVec3::new(v[0], v[1], v[2])
            })
            .collect()
    }

    /// Planes read back from the written points (Quake to world as
    /// navscope-levels does it).
    fn read_planes(text: &str, metres_per_unit: f64) -> Vec<Plane> {
        text.lines()
            .filter(|l| l.starts_with('('))
            .map(|l| {
                let p: Vec<DVec3> = quake_points(l)
                    .into_iter()
                    .map(|v| DVec3::new(v.x, v.z, -v.y) * metres_per_unit)
                    .collect();
                Plane::from_normal_point((p[0] - p[1]).cross(p[2] - p[1]), p[1]).unwrap()
            })
            .collect()
    }

    #[test]
    fn slanted_faces_read_back_to_the_same_planes() {
        // A thin, slightly rotated crate: rounding its points to 1e-4 units
        // tilted faces by up to ~1e-5 rad; full digits keep them to ~1e-12.
        for (yaw, pitch) in [(1e-6, 0.0), (0.3, 0.0), (0.7, 0.2), (2.9, -1e-7)] {
            let b = rotated_box(
                DVec3::new(-7.3, 0.4, 11.9),
                DVec3::new(0.05, 1.3, 0.8),
                yaw,
                pitch,
            );
            let level = BrushLevel {
                brushes: vec![b.clone()],
                entities: vec![],
                skipped: Vec::new(),
                unit: 1.0,
            };
            let text = valve220(&level, 1.0 / 32.0, "").unwrap();
            let read = read_planes(&text, 1.0 / 32.0);
            assert_eq!(read.len(), b.planes.len());
            for r in &read {
                let closest = b
                    .planes
                    .iter()
                    .map(|p| (1.0 - p.normal.dot(r.normal)).abs() + (p.d - r.d).abs())
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    closest < 1e-9,
                    "yaw {yaw} pitch {pitch}: plane off by {closest}"
                );
            }
        }
    }

    #[test]
    fn numbers_on_the_grid_stay_short_and_others_keep_every_digit() {
        assert_eq!(num(-0.0), "0");
        assert_eq!(num(3.0000000000000004), "3");
        assert_eq!(num(-1.6), "-1.6");
        assert_eq!(num(0.1 + 0.2), "0.3");
        let x = -279.5543515844574;
        assert_eq!(num(x).parse::<f64>().unwrap(), x);
    }

    #[test]
    fn a_face_with_collinear_vertices_has_no_plane_points() {
        let plane = Plane::from_normal_point(DVec3::Y, DVec3::ZERO).unwrap();
        let line = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        assert!(plane_points(&plane, &line).is_none());
        let square = [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 0.0, 1.0), DVec3::Z];
        let [a, b, c] = plane_points(&plane, &square).unwrap();
        assert!((a - b).cross(c - b).dot(DVec3::Y) > 0.0);
    }
}
