//! Writes a brush level as a Quake `.map` in Valve 220 format, the format
//! TrenchBroom writes, so generated levels open in level editors and go
//! through the same loader as hand-made ones.
//!
//! Coordinates convert from navscope's world (Y up, metres) to Quake's
//! (Z up, units): `quake = (x, −z, y) / metres_per_unit`, a rotation, so
//! windings keep their sense. Each face is written as three of its
//! vertices ordered so that Quake's `(p0 − p1) × (p2 − p1)` is the outward
//! normal. Texture axes are the paraxial ones for the face's dominant axis.

use std::fmt::Write;

use glam::DVec3;
use navscope_core::level::BrushLevel;

use crate::polyhedron::{PolyError, Polyhedron};

/// Quake coordinates of a world point.
pub fn to_quake(p: DVec3, metres_per_unit: f64) -> DVec3 {
    DVec3::new(p.x, -p.z, p.y) / metres_per_unit
}

fn num(x: f64) -> String {
    let r = (x * 1e4).round() / 1e4;
    if r == 0.0 { "0".into() } else { format!("{r}") }
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
    for f in &solid.faces {
        let v = &f.vertices;
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
            point(q(v[1])),
            point(q(v[0])),
            point(q(v[2]))
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
    use crate::build::box_brush;
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
        };
        let text = valve220(&level, 1.0 / 32.0, "test").unwrap();
        assert!(text.starts_with("// Game: Quake\n// Format: Valve\n// test\n"));
        assert!(text.contains("\"mapversion\" \"220\""));
        assert!(text.contains("\"classname\" \"func_ladder\""));
        let faces: Vec<&str> = text.lines().filter(|l| l.starts_with('(')).collect();
        assert_eq!(faces.len(), 12);
        // The top of the floor (world y = 0) is Quake z = 0 with normal +z.
        let parse = |s: &str| -> Vec<DVec3> {
            s.split(')')
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
        };
        let tops: Vec<_> = faces[..6]
            .iter()
            .map(|l| parse(l))
            .filter(|p| p.iter().all(|v| v.z == 0.0))
            .collect();
        assert_eq!(tops.len(), 1);
        let p = &tops[0];
        assert!(
            (p[0] - p[1]).cross(p[2] - p[1]).z > 0.0,
            "Quake normal of the top face points up"
        );
    }
}
