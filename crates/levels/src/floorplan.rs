//! Floor plans: DESIGN.md's floor plan JSON and the native RON form.
//!
//! Both share one file shape ([`FloorPlanFile`]): world `[x, z]` pairs in
//! metres on the ground plane, rings in any orientation, optional named
//! nodes and blocking primitives. Loading converts to plan coordinates with
//! core's `plan_from_xz`, cleans and orients the rings, validates them and
//! checks nodes and blockers (finite, positive sizes, unique names, inside
//! the free space).

use std::collections::HashMap;

use glam::DVec2;
use navscope_core::geom::plan_from_xz;
use navscope_core::level::{Blocker, FloorPlan, NamedPoint};
use serde::{Deserialize, Serialize};

use navscope_core::num::short;

use crate::bounds::beyond;
use crate::budget::Budget;
use crate::error::Fault;
use crate::rings::{build_area, fmt_xz, ring_name};
use crate::text;

/// The `format` value of floor plan JSON.
pub const JSON_FORMAT: &str = "navscope-floorplan";
/// The floor plan JSON version this crate reads and writes.
pub const JSON_VERSION: u64 = 1;

/// A floor plan file as written (JSON or RON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "FloorPlan", deny_unknown_fields)]
pub(crate) struct FloorPlanFile {
    /// `"navscope-floorplan"` (required in JSON, optional in RON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `1` (required in JSON, optional in RON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// Outer boundary, `[x, z]` pairs.
    pub outer: Vec<[f64; 2]>,
    /// Holes (obstacles), each a ring of `[x, z]` pairs.
    #[serde(default)]
    pub holes: Vec<Vec<[f64; 2]>>,
    /// Named navigation nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<NodeFile>,
    /// Blocking primitives.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<BlockerFile>,
}

/// A named node as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NodeFile {
    pub name: String,
    pub at: [f64; 2],
}

/// A blocker as written: `{"box": {...}}` or `{"cylinder": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum BlockerFile {
    /// Box: centre, half extents, rotation in degrees counter-clockwise
    /// seen from above.
    Box {
        center: [f64; 2],
        half: [f64; 2],
        #[serde(default)]
        angle_deg: f64,
    },
    /// Vertical cylinder.
    Cylinder { center: [f64; 2], radius: f64 },
}

/// Only the header of a JSON document: checked before the full parse so a
/// JSON file of another kind gets "wrong format", not a field error.
#[derive(Deserialize)]
struct JsonHeader {
    format: Option<String>,
    version: Option<u64>,
}

/// Parses floor plan JSON.
pub(crate) fn parse_json(text: &str, budget: &Budget) -> Result<FloorPlan, Fault> {
    text::check_depth(text)?;
    let header: JsonHeader = text::json(text)?;
    match header.format.as_deref() {
        Some(JSON_FORMAT) => {}
        Some(other) => {
            return Err(Fault::format(
                "format",
                format!("is \"{other}\", this loader reads \"{JSON_FORMAT}\" JSON"),
            ));
        }
        None => {
            return Err(Fault::format(
                "format",
                format!("missing; floor plan JSON needs \"format\": \"{JSON_FORMAT}\""),
            ));
        }
    }
    match header.version {
        Some(JSON_VERSION) => {}
        Some(v) => {
            return Err(Fault::format(
                "version",
                format!("{v} is not supported (this build reads version {JSON_VERSION})"),
            ));
        }
        None => {
            return Err(Fault::format(
                "version",
                format!("missing; floor plan JSON needs \"version\": {JSON_VERSION}"),
            ));
        }
    }
    from_file(text::json(text)?, budget)
}

/// Parses native RON (`FloorPlan(outer: [(x, z), ...], ...)`).
pub(crate) fn parse_ron(text: &str, budget: &Budget) -> Result<FloorPlan, Fault> {
    text::check_depth(text)?;
    let file: FloorPlanFile = text::ron(text)?;
    if let Some(f) = &file.format
        && f != JSON_FORMAT
    {
        return Err(Fault::format(
            "format",
            format!("is \"{f}\", expected \"{JSON_FORMAT}\""),
        ));
    }
    if let Some(v) = file.version
        && v != JSON_VERSION
    {
        return Err(Fault::format(
            "version",
            format!("{v} is not supported (this build reads version {JSON_VERSION})"),
        ));
    }
    from_file(file, budget)
}

fn finite(p: [f64; 2]) -> bool {
    p[0].is_finite() && p[1].is_finite()
}

/// Validates a parsed file and converts it to plan coordinates.
pub(crate) fn from_file(f: FloorPlanFile, budget: &Budget) -> Result<FloorPlan, Fault> {
    let vertices = f.outer.len() as u64 + f.holes.iter().map(|h| h.len() as u64).sum::<u64>();
    Budget::check("", "vertices", vertices, budget.max_vertices)?;
    let to_plan = |ring: &[[f64; 2]]| {
        ring.iter()
            .map(|&p| plan_from_xz(p))
            .collect::<Vec<DVec2>>()
    };
    let area = build_area(
        to_plan(&f.outer),
        f.holes.iter().map(|h| to_plan(h)).collect(),
        &ring_name,
    )?;
    let mut nodes = Vec::with_capacity(f.nodes.len());
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, n) in f.nodes.iter().enumerate() {
        let el = if n.name.is_empty() {
            format!("node {i}")
        } else {
            format!("node \"{}\"", n.name)
        };
        if n.name.is_empty() {
            return Err(Fault::syntax(el, "name is empty"));
        }
        if let Some(first) = seen.insert(&n.name, i) {
            return Err(Fault::reference(
                el,
                format!("name used twice (nodes {first} and {i})"),
            ));
        }
        if !finite(n.at) {
            return Err(Fault::geometry(el, "position is not a finite number"));
        }
        if let Some(problem) = beyond("coordinate", n.at) {
            return Err(Fault::geometry(el, problem));
        }
        let at = plan_from_xz(n.at);
        if !area.contains(at) {
            return Err(Fault::geometry(
                el,
                format!("lies outside the free space at {}", fmt_xz(at)),
            ));
        }
        nodes.push(NamedPoint {
            name: n.name.clone(),
            at,
        });
    }
    let mut blockers = Vec::with_capacity(f.blockers.len());
    for (i, b) in f.blockers.iter().enumerate() {
        let el = format!("blocker {i}");
        let (blocker, center) = match *b {
            BlockerFile::Box {
                center,
                half,
                angle_deg,
            } => {
                if !finite(center) || !finite(half) || !angle_deg.is_finite() {
                    return Err(Fault::geometry(el, "box has a number that is not finite"));
                }
                if let Some(problem) =
                    beyond("coordinate", center).or_else(|| beyond("half extent", half))
                {
                    return Err(Fault::geometry(el, problem));
                }
                if half[0] <= 0.0 || half[1] <= 0.0 {
                    return Err(Fault::geometry(
                        el,
                        format!(
                            "box half extents must be positive, are [{}, {}]",
                            short(half[0]),
                            short(half[1])
                        ),
                    ));
                }
                let c = plan_from_xz(center);
                (
                    Blocker::Box {
                        center: c,
                        half: DVec2::new(half[0], half[1]),
                        angle: angle_deg.to_radians(),
                    },
                    c,
                )
            }
            BlockerFile::Cylinder { center, radius } => {
                if !finite(center) || !radius.is_finite() {
                    return Err(Fault::geometry(
                        el,
                        "cylinder has a number that is not finite",
                    ));
                }
                if let Some(problem) =
                    beyond("coordinate", center).or_else(|| beyond("radius", [radius]))
                {
                    return Err(Fault::geometry(el, problem));
                }
                if radius <= 0.0 {
                    return Err(Fault::geometry(
                        el,
                        format!("cylinder radius must be positive, is {}", short(radius)),
                    ));
                }
                let c = plan_from_xz(center);
                (Blocker::Cylinder { center: c, radius }, c)
            }
        };
        if !area.contains(center) {
            return Err(Fault::geometry(
                el,
                format!("centre lies outside the free space at {}", fmt_xz(center)),
            ));
        }
        blockers.push(blocker);
    }
    Ok(FloorPlan {
        area,
        nodes,
        blockers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    const SQUARE: &str = r#"{"format": "navscope-floorplan", "version": 1,
        "outer": [[0, 0], [0, 10], [10, 10], [10, 0]],
        "holes": [[[2, 2], [4, 2], [4, 4], [2, 4]]]"#;

    fn json(rest: &str) -> Result<FloorPlan, Fault> {
        parse_json(&format!("{SQUARE}{rest}}}"), &Budget::default())
    }

    #[test]
    fn json_any_orientation_is_normalised_to_plan_coordinates() {
        let p = json("").unwrap();
        assert!(p.area.outer.is_ccw());
        assert!(!p.area.holes[0].is_ccw());
        assert_eq!(p.area.area(), 96.0);
        // z = 10 is plan y = -10.
        assert!(p.area.outer.points.contains(&DVec2::new(10.0, -10.0)));
    }

    #[test]
    fn nodes_and_blockers_convert_and_validate() {
        let p = json(
            r#", "nodes": [{"name": "door", "at": [1, 9]}],
            "blockers": [{"box": {"center": [7, 7], "half": [1, 0.5], "angle_deg": 90}},
                         {"cylinder": {"center": [7, 2], "radius": 0.5}}]"#,
        )
        .unwrap();
        assert_eq!(p.nodes[0].at, DVec2::new(1.0, -9.0));
        assert!(
            matches!(p.blockers[0], Blocker::Box { angle, .. } if (angle - std::f64::consts::FRAC_PI_2).abs() < 1e-15)
        );
        assert_eq!(
            p.blockers[1],
            Blocker::Cylinder {
                center: DVec2::new(7.0, -2.0),
                radius: 0.5
            }
        );
    }

    #[test]
    fn every_element_error_is_named() {
        let cases = [
            (
                r#", "nodes": [{"name": "door", "at": [3, 3]}]"#,
                "node \"door\"",
                "lies outside the free space at (3, 3)",
            ),
            (
                r#", "nodes": [{"name": "a", "at": [1, 1]}, {"name": "a", "at": [1, 2]}]"#,
                "node \"a\"",
                "name used twice (nodes 0 and 1)",
            ),
            (
                r#", "nodes": [{"name": "", "at": [1, 1]}]"#,
                "node 0",
                "name is empty",
            ),
            (
                r#", "blockers": [{"cylinder": {"center": [1, 1], "radius": 0}}]"#,
                "blocker 0",
                "cylinder radius must be positive, is 0",
            ),
            (
                r#", "blockers": [{"box": {"center": [1, 1], "half": [1, -1]}}]"#,
                "blocker 0",
                "box half extents must be positive, are [1, -1]",
            ),
            (
                r#", "blockers": [{"cylinder": {"center": [30, 1], "radius": 1}}]"#,
                "blocker 0",
                "centre lies outside the free space at (30, 1)",
            ),
        ];
        for (rest, element, problem) in cases {
            let f = json(rest).unwrap_err();
            assert_eq!(
                (f.element.as_str(), f.problem.as_str()),
                (element, problem),
                "{rest}"
            );
        }
    }

    #[test]
    fn header_problems() {
        let b = Budget::default();
        let f = parse_json(
            r#"{"format": "navscope-navmesh", "version": 1, "nodes": []}"#,
            &b,
        )
        .unwrap_err();
        assert_eq!((f.kind, f.element.as_str()), (ErrorKind::Format, "format"));
        let f = parse_json(
            r#"{"format": "navscope-floorplan", "version": 2, "outer": []}"#,
            &b,
        )
        .unwrap_err();
        assert_eq!(f.problem, "2 is not supported (this build reads version 1)");
        let f = parse_json(r#"{"version": 1, "outer": []}"#, &b).unwrap_err();
        assert!(f.problem.starts_with("missing"));
        let f = parse_json(
            r#"{"format": "navscope-floorplan", "version": 1, "outer": [], "extra": 1}"#,
            &b,
        )
        .unwrap_err();
        assert_eq!(f.kind, ErrorKind::Syntax);
        assert!(f.problem.contains("extra"), "{}", f.problem);
    }

    #[test]
    fn ron_form_with_tuples() {
        let p = parse_ron(
            "FloorPlan(outer: [(0, 0), (4, 0), (4, 4), (0, 4)], holes: [], nodes: [(name: \"n\", at: (1, 1))], blockers: [cylinder(center: (3, 3), radius: 0.2)])",
            &Budget::default(),
        )
        .unwrap();
        assert_eq!(p.area.area(), 16.0);
        assert_eq!(p.nodes.len(), 1);
        let f = parse_ron(
            "FloorPlan(outer: [(0, 0), (4, 0), (NaN, 4)])",
            &Budget::default(),
        )
        .unwrap_err();
        assert_eq!(
            (f.element.as_str(), f.problem.as_str()),
            ("outer", "vertex 2: coordinate is not a finite number")
        );
    }

    #[test]
    fn vertex_budget_is_checked_before_building() {
        let b = Budget {
            max_vertices: 5,
            ..Budget::default()
        };
        let f = json("")
            .map(|_| ())
            .and_then(|_| parse_json(&format!("{SQUARE}}}"), &b).map(|_| ()))
            .unwrap_err();
        assert_eq!(f.kind, ErrorKind::Budget);
        assert_eq!(
            f.problem,
            "8 vertices exceed the memory budget of 5 vertices; refusing to load"
        );
    }
}
