//! Brush levels: native RON and Quake `.map`, and their validation.
//!
//! Native RON (`BrushLevel(..)`, world space, Y up, metres):
//!
//! ```ron
//! BrushLevel(
//!     brushes: [
//!         (planes: [(normal: (0, 1, 0), d: 0), ...], materials: ["floor", ...], entity: None),
//!     ],
//!     entities: [
//!         (classname: "info_player_start", origin: Some((1, 0, 1)), properties: [("angle", "90")]),
//!     ],
//! )
//! ```
//!
//! A plane `(normal: n, d: d)` is `n . x = d` with `n` pointing out of the
//! solid (any length; normalised on load); `materials` is empty or one name
//! per plane; `entity` indexes `entities` (brush entities such as
//! `func_ladder`), `None` for world brushes.
//!
//! **Validation** (both formats): every brush has 4 to
//! [`MAX_BRUSH_PLANES`] planes with finite, non-zero normals, and is a
//! non-empty, bounded convex solid. That is decided the way Quake's own
//! tools do it: each plane's face is a huge square on the plane clipped by
//! every other plane; the solid has volume when at least four faces keep a
//! non-degenerate area, and it is bounded when no face vertex lies further
//! than [`MAX_EXTENT`] metres from the origin.

mod quake;
pub mod semantics;
pub mod spots;
pub mod to_mesh;

use glam::DVec3;
use navscope_core::geom::Plane;
use navscope_core::level::{Brush, BrushLevel, Contents, Entity, SkippedBrush};
use serde::{Deserialize, Serialize};

use crate::bounds::beyond;
use crate::budget::Budget;
use crate::error::Fault;
use crate::text;

pub use quake::DEFAULT_SCALE as QUAKE_DEFAULT_SCALE;
pub(crate) use quake::parse_with as parse_map;

/// Most planes a brush may have: a guard against hostile files (the face
/// clipping is quadratic in it), far above what level editors write. A
/// brush with more is skipped, not the level.
pub const MAX_BRUSH_PLANES: usize = 1024;

/// A brush whose faces reach further from the origin than this (metres)
/// counts as unbounded.
pub const MAX_EXTENT: f64 = 1.0e5;

/// Half-size of the square each face starts from.
const BASE_WINDING: f64 = 4.0 * MAX_EXTENT;
/// Distance under which a point counts as on a plane, metres.
const ON_PLANE: f64 = 1e-7;
/// Face area under which a face counts as degenerate, square metres.
const MIN_FACE_AREA: f64 = 1e-10;

/// A brush level file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "BrushLevel", deny_unknown_fields)]
pub(crate) struct BrushFile {
    pub brushes: Vec<BrushEntry>,
    #[serde(default)]
    pub entities: Vec<EntityEntry>,
}

/// One brush as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BrushEntry {
    pub planes: Vec<PlaneEntry>,
    #[serde(default)]
    pub materials: Vec<String>,
    #[serde(default)]
    pub entity: Option<usize>,
    /// What the brush is; when absent it is classified from its entity's
    /// class and its materials like a `.map` brush.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contents: Option<Contents>,
}

/// One plane as written.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlaneEntry {
    pub normal: (f64, f64, f64),
    pub d: f64,
}

/// One entity as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EntityEntry {
    pub classname: String,
    #[serde(default)]
    pub origin: Option<(f64, f64, f64)>,
    #[serde(default)]
    pub properties: Vec<(String, String)>,
}

/// Parses native RON.
pub(crate) fn parse_ron(text: &str, budget: &Budget) -> Result<BrushLevel, Fault> {
    text::check_depth(text)?;
    let f: BrushFile = text::ron(text)?;
    Budget::check(
        "brushes",
        "brushes",
        f.brushes.len() as u64,
        budget.max_brushes,
    )?;
    let mut entities = Vec::with_capacity(f.entities.len());
    for (i, e) in f.entities.into_iter().enumerate() {
        let origin = e.origin.map(|(x, y, z)| DVec3::new(x, y, z));
        if origin.is_some_and(|o| !o.is_finite()) {
            return Err(Fault::geometry(
                format!("entity {i} ({})", e.classname),
                "origin is not a finite number",
            ));
        }
        if let Some(problem) = origin.and_then(|o| beyond("coordinate", o.to_array())) {
            return Err(Fault::geometry(
                format!("entity {i} ({})", e.classname),
                format!("origin: {problem}"),
            ));
        }
        entities.push(Entity {
            classname: e.classname,
            origin,
            properties: e.properties,
        });
    }
    let mut brushes = Vec::with_capacity(f.brushes.len());
    let mut skipped = Vec::new();
    for (i, b) in f.brushes.into_iter().enumerate() {
        let el = || format!("brush {i}");
        if let Some(e) = b.entity
            && e >= entities.len()
        {
            return Err(Fault::reference(
                el(),
                format!("refers to entity {e} but there are {}", entities.len()),
            ));
        }
        match ron_brush(&b, &entities) {
            Ok(brush) => brushes.push(brush),
            Err(problem) => skipped.push(SkippedBrush {
                element: el(),
                problem,
                bounds: None,
            }),
        }
    }
    Ok(BrushLevel {
        brushes,
        entities,
        skipped,
        unit: 1.0,
    })
}

/// One RON brush, checked and classified; the problem as text.
fn ron_brush(b: &BrushEntry, entities: &[Entity]) -> Result<Brush, String> {
    let mut planes = Vec::with_capacity(b.planes.len());
    for (k, p) in b.planes.iter().enumerate() {
        let n = DVec3::new(p.normal.0, p.normal.1, p.normal.2);
        if !n.is_finite() || !p.d.is_finite() {
            return Err(format!("plane {k} has a number that is not finite"));
        }
        let len = n.length();
        if !(len > 0.0 && len.is_finite()) {
            return Err(format!("plane {k} has a zero normal"));
        }
        planes.push(Plane {
            normal: n / len,
            d: p.d / len,
        });
    }
    let class = b.entity.map(|e| entities[e].classname.as_str());
    let contents = b.contents.unwrap_or_else(|| {
        let faces: Vec<semantics::FaceInfo> = b
            .materials
            .iter()
            .map(|m| semantics::FaceInfo {
                texture: m,
                ..Default::default()
            })
            .collect();
        semantics::classify(class, &faces, false, &semantics::Rules::default())
    });
    let brush = Brush {
        planes,
        materials: b.materials.clone(),
        entity: b.entity,
        contents,
    };
    check_brush(&brush)?;
    Ok(brush)
}

/// Clips `w` to the inside (`distance <= 0`) of `p` (Sutherland-Hodgman).
fn clip(w: &[DVec3], p: &Plane) -> Vec<DVec3> {
    let mut out = Vec::with_capacity(w.len() + 1);
    for i in 0..w.len() {
        let (a, b) = (w[i], w[(i + 1) % w.len()]);
        let (da, db) = (p.distance(a), p.distance(b));
        if da <= ON_PLANE {
            out.push(a);
        }
        if (da > ON_PLANE && db < -ON_PLANE) || (da < -ON_PLANE && db > ON_PLANE) {
            out.push(a + (b - a) * (da / (da - db)));
        }
    }
    out
}

/// Area of a planar polygon.
fn area(w: &[DVec3]) -> f64 {
    if w.len() < 3 {
        return 0.0;
    }
    (1..w.len() - 1)
        .map(|i| (w[i] - w[0]).cross(w[i + 1] - w[0]))
        .sum::<DVec3>()
        .length()
        / 2.0
}

/// The face of plane `i`: a huge square on it clipped by every other plane.
pub(crate) fn face(planes: &[Plane], i: usize) -> Vec<DVec3> {
    let n = planes[i].normal;
    let a = if n.x.abs() < 0.9 { DVec3::X } else { DVec3::Y };
    let u = a.cross(n).normalize() * BASE_WINDING;
    let v = n.cross(u);
    let c = n * planes[i].d;
    let mut w = vec![c - u - v, c + u - v, c + u + v, c - u + v];
    for (j, p) in planes.iter().enumerate() {
        if j != i {
            w = clip(&w, p);
            if w.is_empty() {
                break;
            }
        }
    }
    w
}

/// Checks one brush; the problem as text.
pub(crate) fn check_brush(b: &Brush) -> Result<(), String> {
    let n = b.planes.len();
    if n < 4 {
        return Err(format!("has {n} planes; a closed solid needs at least 4"));
    }
    if n > MAX_BRUSH_PLANES {
        return Err(format!(
            "has {n} planes; at most {MAX_BRUSH_PLANES} are accepted"
        ));
    }
    if !b.materials.is_empty() && b.materials.len() != n {
        return Err(format!(
            "has {} materials for {n} planes (give none or one per plane)",
            b.materials.len()
        ));
    }
    let mut faces = 0;
    for i in 0..n {
        let w = face(&b.planes, i);
        if area(&w) <= MIN_FACE_AREA {
            continue;
        }
        if let Some(p) = w.iter().find(|p| p.abs().max_element() > MAX_EXTENT) {
            return Err(format!(
                "is not closed: the face of plane {i} reaches ({:.0}, {:.0}, {:.0}), beyond {MAX_EXTENT} m",
                p.x, p.y, p.z
            ));
        }
        faces += 1;
    }
    if faces < 4 {
        return Err(format!(
            "its planes enclose no volume (only {faces} faces keep an area)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube_planes(lo: f64, hi: f64) -> Vec<Plane> {
        let mut v = Vec::new();
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            v.push(Plane {
                normal: axis,
                d: hi,
            });
            v.push(Plane {
                normal: -axis,
                d: -lo,
            });
        }
        v
    }

    fn brush(planes: Vec<Plane>) -> Brush {
        Brush {
            planes,
            materials: Vec::new(),
            entity: None,
            contents: Default::default(),
        }
    }

    #[test]
    fn cube_faces_are_squares() {
        let p = cube_planes(0.0, 2.0);
        for i in 0..6 {
            let w = face(&p, i);
            assert!((area(&w) - 4.0).abs() < 1e-6, "{}", area(&w));
        }
        assert_eq!(check_brush(&brush(p)), Ok(()));
    }

    #[test]
    fn open_empty_and_flat_brushes_are_refused() {
        let mut open = cube_planes(0.0, 1.0);
        open.pop();
        open.push(Plane {
            normal: DVec3::X,
            d: 1.0,
        });
        assert!(
            check_brush(&brush(open))
                .unwrap_err()
                .starts_with("is not closed")
        );
        let mut empty = cube_planes(0.0, 1.0);
        empty.push(Plane {
            normal: DVec3::X,
            d: -1.0,
        });
        assert!(
            check_brush(&brush(empty))
                .unwrap_err()
                .contains("enclose no volume")
        );
        let flat = cube_planes(1.0, 1.0);
        assert!(
            check_brush(&brush(flat))
                .unwrap_err()
                .contains("enclose no volume")
        );
        let few = cube_planes(0.0, 1.0)[..3].to_vec();
        assert_eq!(
            check_brush(&brush(few)).unwrap_err(),
            "has 3 planes; a closed solid needs at least 4"
        );
    }

    #[test]
    fn redundant_plane_is_fine_and_tetrahedron_closes() {
        let mut p = cube_planes(0.0, 1.0);
        p.push(Plane {
            normal: DVec3::X,
            d: 5.0,
        });
        assert_eq!(check_brush(&brush(p)), Ok(()));
        let s = 1.0 / 3f64.sqrt();
        let tet = vec![
            Plane {
                normal: -DVec3::X,
                d: 0.0,
            },
            Plane {
                normal: -DVec3::Y,
                d: 0.0,
            },
            Plane {
                normal: -DVec3::Z,
                d: 0.0,
            },
            Plane {
                normal: DVec3::splat(s),
                d: s,
            },
        ];
        assert_eq!(check_brush(&brush(tet)), Ok(()));
    }

    #[test]
    fn ron_errors_name_the_brush() {
        let b = Budget::default();
        let cube = "(planes: [(normal: (1, 0, 0), d: 1), (normal: (-1, 0, 0), d: 0), (normal: (0, 2, 0), d: 2), (normal: (0, -1, 0), d: 0), (normal: (0, 0, 1), d: 1), (normal: (0, 0, -1), d: 0)]";
        let ok = parse_ron(&format!("BrushLevel(brushes: [{cube})])"), &b).unwrap();
        assert_eq!(
            ok.brushes[0].planes[2],
            Plane {
                normal: DVec3::Y,
                d: 1.0
            },
            "normal normalised, d scaled"
        );
        let e = parse_ron(
            &format!("BrushLevel(brushes: [{cube}), {cube}, entity: 3)])"),
            &b,
        )
        .unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("brush 1", "refers to entity 3 but there are 0")
        );
        let l = parse_ron(
            &format!("BrushLevel(brushes: [{cube}, materials: [\"a\"]), {cube})])"),
            &b,
        )
        .unwrap();
        assert_eq!(l.brushes.len(), 1, "the good brush stays");
        assert_eq!(
            (l.skipped[0].element.as_str(), l.skipped[0].problem.as_str()),
            (
                "brush 0",
                "has 1 materials for 6 planes (give none or one per plane)"
            )
        );
        let l = parse_ron(
            "BrushLevel(brushes: [(planes: [(normal: (0, 0, 0), d: 1)])])",
            &b,
        )
        .unwrap();
        assert_eq!(l.skipped[0].problem, "plane 0 has a zero normal");
        let l = parse_ron(
            &format!(
                "BrushLevel(brushes: [{cube}, entity: 0)], entities: [(classname: \"func_door\")])"
            ),
            &b,
        )
        .unwrap();
        assert_eq!(
            l.brushes[0].contents,
            Contents::Door,
            "classified by its entity"
        );
        let l = parse_ron(
            &format!("BrushLevel(brushes: [{cube}, entity: 0, contents: Some(solid))], entities: [(classname: \"func_door\")])"),
            &b,
        )
        .unwrap();
        assert_eq!(l.brushes[0].contents, Contents::Solid, "as written");
        let e = parse_ron(
            &format!("BrushLevel(brushes: [{cube})])"),
            &Budget {
                max_brushes: 0,
                ..b
            },
        )
        .unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::Budget);
    }
}
