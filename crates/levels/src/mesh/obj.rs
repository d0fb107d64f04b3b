//! Wavefront OBJ through `tobj` (triangulated, single index).
//!
//! Before `tobj` runs, one pass over the lines (no allocation) counts
//! vertices and triangles against the budget and checks every `v` and `f`
//! line, so problems are reported with their line number: non-finite or
//! missing coordinates, faces with fewer than 3 corners, and face indices
//! (absolute or negative/relative) that refer to a vertex not defined
//! before the face.
//!
//! An OBJ file must end with a line break. A file cut off in the middle
//! (a failed download or copy) almost always stops inside a line, and its
//! last line may still parse (`v 1 2 3` of `v 1 2 35`), so this is the one
//! sign of truncation a line-based format offers.

use std::io::BufReader;

use glam::Vec3;
use navscope_core::level::MeshLevel;

use super::MeshBuilder;
use navscope_core::num::short;

use crate::bounds::beyond;
use crate::budget::Budget;
use crate::error::Fault;
use crate::text::clip;

/// Checks the lines; returns (vertices, triangles).
fn prescan(text: &str, budget: &Budget) -> Result<(u64, u64), Fault> {
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(Fault::syntax(
            format!("line {}", text.lines().count()),
            "file ends in the middle of a line (truncated?); OBJ files end with a line break",
        ));
    }
    let (mut verts, mut tris) = (0u64, 0u64);
    for (i, raw) in text.lines().enumerate() {
        let el = || format!("line {}", i + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let coords: Vec<&str> = words.take(3).collect();
                if coords.len() < 3 {
                    return Err(Fault::syntax(
                        el(),
                        format!(
                            "vertex {} needs 3 coordinates, has {}",
                            verts + 1,
                            coords.len()
                        ),
                    ));
                }
                for c in coords {
                    match c.parse::<f64>() {
                        Ok(v) if v.is_finite() && !(v as f32).is_finite() => {
                            return Err(Fault::geometry(
                                el(),
                                format!(
                                    "vertex {}: {} overflows a 32-bit float (OBJ coordinates are read as f32, largest {})",
                                    verts + 1,
                                    short(v),
                                    short(f64::from(f32::MAX))
                                ),
                            ));
                        }
                        Ok(v) if v.is_finite() => {
                            if let Some(problem) = beyond("coordinate", [v]) {
                                return Err(Fault::geometry(
                                    el(),
                                    format!("vertex {}: {problem}", verts + 1),
                                ));
                            }
                        }
                        Ok(_) => {
                            return Err(Fault::geometry(
                                el(),
                                format!("vertex {}: {} is not a finite number", verts + 1, clip(c)),
                            ));
                        }
                        Err(_) => {
                            return Err(Fault::syntax(
                                el(),
                                format!("vertex {}: \"{}\" is not a number", verts + 1, clip(c)),
                            ));
                        }
                    }
                }
                verts += 1;
                Budget::check(&el(), "vertices", verts, budget.max_vertices)?;
            }
            Some("f") => {
                let mut corners = 0u64;
                for w in words {
                    corners += 1;
                    let idx = w.split('/').next().unwrap_or("");
                    let v: i64 = idx.parse().map_err(|_| {
                        Fault::syntax(
                            el(),
                            format!("face corner \"{}\" is not a vertex index", clip(w)),
                        )
                    })?;
                    let resolved = if v < 0 { verts as i64 + v + 1 } else { v };
                    if v == 0 || resolved < 1 || resolved as u64 > verts {
                        return Err(Fault::reference(
                            el(),
                            format!("face refers to vertex {v} but there are {verts}"),
                        ));
                    }
                }
                if corners > budget.max_face_corners {
                    return Err(Fault::budget(
                        el(),
                        format!(
                            "face has {corners} corners, more than the limit of {} per face; split it into smaller faces",
                            budget.max_face_corners
                        ),
                    ));
                }
                if corners < 3 {
                    return Err(Fault::geometry(
                        el(),
                        format!("face has {corners} corners, needs at least 3"),
                    ));
                }
                tris += corners - 2;
                Budget::check(&el(), "triangles", tris, budget.max_triangles)?;
            }
            _ => {}
        }
    }
    Ok((verts, tris))
}

/// Parses an OBJ file into a mesh level. Material libraries are not read.
pub(crate) fn parse(text: &str, budget: &Budget) -> Result<MeshLevel, Fault> {
    prescan(text, budget)?;
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, _) = tobj::load_obj_buf(&mut BufReader::new(text.as_bytes()), &opts, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })
    .map_err(|e| Fault::syntax("", format!("OBJ is not readable: {e}")))?;
    let mut b = MeshBuilder::default();
    for m in &models {
        let pos: Vec<Vec3> = m
            .mesh
            .positions
            .chunks_exact(3)
            .map(|p| Vec3::new(p[0], p[1], p[2]))
            .collect();
        let n = pos.len() as u32;
        if let Some(bad) = m.mesh.indices.iter().find(|&&i| i >= n) {
            return Err(Fault::reference(
                format!("object \"{}\"", m.name),
                format!("index {bad} is past its {n} vertices"),
            ));
        }
        b.add(
            &m.name,
            &pos,
            m.mesh.indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]),
        );
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    const ROOM: &str = "o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 3 2\nf 1 4 3\no water_pool\nv 1 -1 1\nv 2 -1 1\nv 2 0 2\nf 5 6 7\ng wall\nv 0 0 0\nv 0 2 0\nv 4 2 0\nv 4 0 0\nf -4 -3 -2 -1\n";

    #[test]
    fn objects_quads_and_water() {
        let m = parse(ROOM, &Budget::default()).unwrap();
        assert_eq!(m.mesh.triangles.len(), 4, "floor 2 + wall quad 2");
        assert_eq!(m.water.len(), 1);
        assert_eq!(m.water[0].min, glam::DVec3::new(1., -1., 1.));
        assert!(
            m.mesh.vertices.iter().all(|v| v.y >= 0.0),
            "water vertices left out"
        );
    }

    #[test]
    fn bad_lines_are_named() {
        let b = Budget::default();
        let cases = [
            (
                "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 900\n",
                "line 4",
                "face refers to vertex 900 but there are 3",
            ),
            (
                "v 0 0 0\nv 1 0 0\nf 1 2\n",
                "line 3",
                "face has 2 corners, needs at least 3",
            ),
            ("v 0 0\n", "line 1", "vertex 1 needs 3 coordinates, has 2"),
            (
                "v 0 0 nan\n",
                "line 1",
                "vertex 1: nan is not a finite number",
            ),
            (
                "v 0 0 0\nf 1 -5 1\n",
                "line 2",
                "face refers to vertex -5 but there are 1",
            ),
            (
                "v 0 0 0\nf 1 x 1\n",
                "line 2",
                "face corner \"x\" is not a vertex index",
            ),
            (
                "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3",
                "line 4",
                "file ends in the middle of a line (truncated?); OBJ files end with a line break",
            ),
        ];
        for (text, el, problem) in cases {
            let e = parse(text, &b).unwrap_err();
            assert_eq!(
                (e.element.as_str(), e.problem.as_str()),
                (el, problem),
                "{text}"
            );
        }
        let e = parse("# nothing\n", &b).unwrap_err();
        assert_eq!(e.problem, "the mesh has no solid triangles");
    }

    #[test]
    fn triangle_budget_is_checked_while_scanning() {
        let b = Budget {
            max_triangles: 1,
            ..Budget::default()
        };
        let e = parse(ROOM, &b).unwrap_err();
        assert_eq!((e.kind, e.element.as_str()), (ErrorKind::Budget, "line 7"));
    }
}
