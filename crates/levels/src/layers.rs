//! Multi-layer environments (van Toll et al.) in native RON.
//!
//! ```ron
//! LayeredLevel(
//!     layers: [
//!         (name: "ground", height: 0.0, outer: [(0, 0), (10, 0), (10, 8), (0, 8)], holes: []),
//!         (name: "upper", height: 3.0, outer: [...], holes: [[...]]),
//!         (name: "ramp", plane: [(8, 0, 1), (9, 0, 1), (9, 3, 7)], outer: [...]),
//!     ],
//!     connections: [
//!         (a: (8, 1), b: (9, 1), from: 0, to: 1),
//!     ],
//! )
//! ```
//!
//! Each layer is a floor plan (world `(x, z)` pairs, any orientation,
//! normalised and validated like the floor plan formats) on a plane: either
//! horizontal at world height `height`, or the plane through the three
//! world points `(x, y, z)` of `plane` (an inclined layer: a ramp or a
//! stair flight; give one of the two). The plan is the layer seen from
//! above, lifted straight up or down onto the plane. A plane that is
//! vertical, or steeper than [`MAX_INCLINE_DEGREES`], is refused: no agent
//! walks on it. A connection is the segment `a -> b`, entered on layer `from`
//! and leading to layer `to` (indices into `layers`); its access side is to
//! the left of `a -> b` on `from` seen from above. Both ends of a connection
//! must lie in the free space (boundary included) of both of its layers.

use std::collections::HashMap;

use glam::{DVec2, DVec3};
use navscope_core::geom::{Ring, plan_from_xz};
use navscope_core::level::{Connection, Layer, LayerPlane, LayeredLevel};
use serde::{Deserialize, Serialize};

use crate::bounds::beyond;
use crate::budget::Budget;
use crate::error::Fault;
use crate::rings::{build_area, fmt_xz, ring_name};
use crate::text;

/// A layered level file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "LayeredLevel", deny_unknown_fields)]
pub(crate) struct LayersFile {
    pub layers: Vec<LayerEntry>,
    #[serde(default)]
    pub connections: Vec<ConnectionEntry>,
}

/// One layer as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LayerEntry {
    pub name: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::text::some_inner"
    )]
    pub height: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::text::some_inner"
    )]
    pub plane: Option<Vec<(f64, f64, f64)>>,
    pub outer: Vec<(f64, f64)>,
    #[serde(default)]
    pub holes: Vec<Vec<(f64, f64)>>,
}

/// One connection as written.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConnectionEntry {
    pub a: (f64, f64),
    pub b: (f64, f64),
    pub from: usize,
    pub to: usize,
}

fn plan(p: (f64, f64)) -> DVec2 {
    plan_from_xz([p.0, p.1])
}

/// The steepest layer plane accepted, degrees from the horizontal
/// ([`LayerPlane::MAX_INCLINE_DEGREES`]).
pub const MAX_INCLINE_DEGREES: f64 = LayerPlane::MAX_INCLINE_DEGREES;

/// The plane of layer entry `l` (element name `el`), checked.
fn layer_plane(l: &LayerEntry, el: &str) -> Result<LayerPlane, Fault> {
    let points = match (l.height, &l.plane) {
        (Some(_), Some(_)) => {
            return Err(Fault::geometry(el, "gives both a height and a plane"));
        }
        (None, None) => return Err(Fault::geometry(el, "needs a height or a plane")),
        (Some(h), None) => {
            if !h.is_finite() {
                return Err(Fault::geometry(el, "height is not a finite number"));
            }
            if let Some(problem) = beyond("height", [h]) {
                return Err(Fault::geometry(el, problem));
            }
            return Ok(LayerPlane::level(h));
        }
        (None, Some(points)) => points,
    };
    let [p0, p1, p2] = points.as_slice() else {
        return Err(Fault::geometry(
            el,
            format!("plane needs three points, not {}", points.len()),
        ));
    };
    let world = [p0, p1, p2].map(|&(x, y, z)| DVec3::new(x, y, z));
    if world.iter().any(|p| !p.is_finite()) {
        return Err(Fault::geometry(el, "a plane point is not a finite number"));
    }
    if let Some(problem) = beyond("plane coordinate", world.iter().flat_map(|p| p.to_array())) {
        return Err(Fault::geometry(el, problem));
    }
    let plane =
        LayerPlane::through(world).map_err(|e| Fault::geometry(el, format!("plane: {e}")))?;
    let incline = plane.incline_degrees();
    if incline > MAX_INCLINE_DEGREES {
        return Err(Fault::geometry(
            el,
            format!("plane is too steep to walk ({incline:.1}°, at most {MAX_INCLINE_DEGREES}°)"),
        ));
    }
    Ok(plane)
}

/// Parses native RON.
pub(crate) fn parse_ron(text: &str, budget: &Budget) -> Result<LayeredLevel, Fault> {
    text::check_depth(text)?;
    let f: LayersFile = text::ron(text)?;
    Budget::check("layers", "layers", f.layers.len() as u64, budget.max_layers)?;
    let vertices: u64 = f
        .layers
        .iter()
        .map(|l| l.outer.len() as u64 + l.holes.iter().map(|h| h.len() as u64).sum::<u64>())
        .sum();
    Budget::check("layers", "vertices", vertices, budget.max_vertices)?;
    if f.layers.is_empty() {
        return Err(Fault::geometry("layers", "there are no layers"));
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut layers = Vec::with_capacity(f.layers.len());
    for (i, l) in f.layers.iter().enumerate() {
        let el = format!("layer \"{}\"", l.name);
        if l.name.is_empty() {
            return Err(Fault::syntax(format!("layer {i}"), "name is empty"));
        }
        if let Some(first) = names.insert(&l.name, i) {
            return Err(Fault::reference(
                el,
                format!("name used twice (layers {first} and {i})"),
            ));
        }
        let plane = layer_plane(l, &el)?;
        let outer = l.outer.iter().map(|&p| plan(p)).collect();
        let holes = l
            .holes
            .iter()
            .map(|h| h.iter().map(|&p| plan(p)).collect())
            .collect();
        let name = |r: Ring| ring_name(r);
        let area = build_area(outer, holes, &name).map_err(|f| f.within(&el))?;
        let heights = area
            .rings()
            .flat_map(|r| r.points.iter().map(|&p| plane.height_at(p)));
        if let Some(problem) = beyond("height", heights) {
            return Err(Fault::geometry(el, problem));
        }
        layers.push(Layer {
            name: l.name.clone(),
            height: plane.height,
            slope: plane.slope,
            area,
        });
    }
    let mut connections = Vec::with_capacity(f.connections.len());
    for (i, c) in f.connections.iter().enumerate() {
        let el = format!("connection {i}");
        for l in [c.from, c.to] {
            if l >= layers.len() {
                return Err(Fault::reference(
                    el,
                    format!("refers to layer {l} but there are {}", layers.len()),
                ));
            }
        }
        if c.from == c.to {
            return Err(Fault::reference(
                el,
                format!("leads from layer {} to itself", c.from),
            ));
        }
        let (a, b) = (plan(c.a), plan(c.b));
        if !a.is_finite() || !b.is_finite() {
            return Err(Fault::geometry(el, "an end is not a finite number"));
        }
        if let Some(problem) = beyond("coordinate", [a.x, a.y, b.x, b.y]) {
            return Err(Fault::geometry(el, problem));
        }
        if a == b {
            return Err(Fault::geometry(
                el,
                format!("has zero length (both ends at {})", fmt_xz(a)),
            ));
        }
        for l in [c.from, c.to] {
            for (end, p) in [("a", a), ("b", b)] {
                if !layers[l].area.contains(p) {
                    return Err(Fault::geometry(
                        el,
                        format!(
                            "end {end} {} is outside layer \"{}\"",
                            fmt_xz(p),
                            layers[l].name
                        ),
                    ));
                }
            }
        }
        connections.push(Connection {
            a,
            b,
            from: c.from,
            to: c.to,
        });
    }
    Ok(LayeredLevel {
        layers,
        connections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"LayeredLevel(
        layers: [
            (name: "ground", height: 0, outer: [(0, 0), (10, 0), (10, 8), (0, 8)], holes: [[(2, 2), (3, 2), (3, 3), (2, 3)]]),
            (name: "upper", height: 3, outer: [(0, 0), (0, 8), (10, 8), (10, 0)]),
        ],
        connections: [(a: (8, 1), b: (9, 1), from: 0, to: 1), (a: (9, 1), b: (8, 1), from: 1, to: 0)],
    )"#;

    #[test]
    fn two_storeys_load_in_plan_coordinates() {
        let l = parse_ron(TWO, &Budget::default()).unwrap();
        assert_eq!(l.layers.len(), 2);
        assert!(l.layers[1].area.outer.is_ccw(), "normalised");
        assert_eq!(l.connections[0].a, DVec2::new(8.0, -1.0));
        assert_eq!(l.layers[0].area.area(), 79.0);
    }

    #[test]
    fn an_inclined_layer_lies_on_its_plane() {
        // A ramp rising 3 m from world x = 0 to x = 10, level along z.
        let text = TWO.replace(
            "(name: \"upper\", height: 3,",
            "(name: \"upper\", plane: [(0, 0, 0), (10, 3, 0), (10, 3, 8)],",
        );
        let l = parse_ron(&text, &Budget::default()).unwrap();
        let up = l.layers[1].plane();
        assert!((up.height_at(DVec2::new(5.0, -4.0)) - 1.5).abs() < 1e-12);
        assert!((up.incline_degrees() - 0.3f64.atan().to_degrees()).abs() < 1e-9);
        assert!(l.layers[0].plane().is_level());
    }

    #[test]
    fn errors_name_layer_and_connection() {
        let b = Budget::default();
        let cases = [
            (
                TWO.replace("from: 0, to: 1)", "from: 0, to: 7)"),
                "connection 0",
                "refers to layer 7 but there are 2",
            ),
            (
                TWO.replace("(a: (8, 1), b: (9, 1)", "(a: (8, 1), b: (19, 1)"),
                "connection 0",
                "end b (19, 1) is outside layer \"ground\"",
            ),
            (
                TWO.replace("(a: (8, 1), b: (9, 1)", "(a: (2.5, 2.5), b: (9, 1)"),
                "connection 0",
                "end a (2.5, 2.5) is outside layer \"ground\"",
            ),
            (
                TWO.replace("from: 1, to: 0", "from: 1, to: 1"),
                "connection 1",
                "leads from layer 1 to itself",
            ),
            (
                TWO.replace("\"upper\"", "\"ground\""),
                "layer \"ground\"",
                "name used twice (layers 0 and 1)",
            ),
            (
                TWO.replace(
                    "[(2, 2), (3, 2), (3, 3), (2, 3)]",
                    "[(2, 2), (5, 3), (5, 2), (2, 5)]",
                ),
                "layer \"ground\", hole 0",
                "edges 0 and 2 intersect at (4.25, 2.75)",
            ),
            (
                TWO.replace("height: 3", "height: inf"),
                "layer \"upper\"",
                "height is not a finite number",
            ),
            (
                TWO.replace("(a: (8, 1), b: (9, 1)", "(a: (8, 1), b: (8, 1)"),
                "connection 0",
                "has zero length (both ends at (8, 1))",
            ),
            (
                TWO.replace("(name: \"upper\"", "(name: \"\""),
                "layer 1",
                "name is empty",
            ),
        ];
        for (text, el, problem) in cases {
            let e = parse_ron(&text, &b).unwrap_err();
            assert_eq!((e.element.as_str(), e.problem.as_str()), (el, problem));
        }
        let ramp = |plane: &str| {
            TWO.replace(
                "(name: \"upper\", height: 3,",
                &format!("(name: \"upper\", plane: {plane},"),
            )
        };
        let planes = [
            (
                "[(0, 0, 0), (1, 5, 0), (1, 9, 0)]",
                "plane: it is vertical (its three points lie on one line seen from above)",
            ),
            (
                "[(0, 0, 0), (1, 1, 1), (2, 2, 2)]",
                "plane: its three points lie on one line",
            ),
            ("[(0, 0, 0), (1, 0, 0)]", "plane needs three points, not 2"),
            (
                "[(0, 0, 0), (1, 2, 0), (0, 0, 1)]",
                "plane is too steep to walk (63.4°, at most 60°)",
            ),
        ];
        for (plane, problem) in planes {
            let e = parse_ron(&ramp(plane), &b).unwrap_err();
            assert_eq!(
                (e.element.as_str(), e.problem.as_str()),
                ("layer \"upper\"", problem)
            );
        }
        let both = TWO.replace(
            "height: 3,",
            "height: 3, plane: [(0, 0, 0), (1, 0, 0), (0, 0, 1)],",
        );
        assert_eq!(
            parse_ron(&both, &b).unwrap_err().problem,
            "gives both a height and a plane"
        );
        let neither = TWO.replace("height: 3,", "");
        assert_eq!(
            parse_ron(&neither, &b).unwrap_err().problem,
            "needs a height or a plane"
        );
        let e = parse_ron("LayeredLevel(layers: [])", &b).unwrap_err();
        assert_eq!(e.problem, "there are no layers");
    }
}
