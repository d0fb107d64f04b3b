//! Writers: floor plans to the floor plan JSON contract (or native RON),
//! brush and layered levels to their native RON. Generators, tests and
//! scripts use them; every writer's output loads back to an equal level
//! (box angles up to the degree/radian round trip).
//!
//! Numbers are written with Rust's shortest round-trip formatting, so
//! coordinates survive a write and a load bit for bit.

use std::fmt::Write as _;

use glam::DVec2;
use navscope_core::geom::{Polygon, xz_from_plan};
use navscope_core::level::{Blocker, BrushLevel, FloorPlan, LayeredLevel};

use crate::brushes::semantics::{FaceInfo, Rules, classify};
use crate::brushes::{BrushEntry, BrushFile, EntityEntry, PlaneEntry};
use crate::floorplan::{JSON_FORMAT, JSON_VERSION};
use crate::layers::{ConnectionEntry, LayerEntry, LayersFile};

/// Shortest round-trip text of a finite number (`1.0`, `0.1`, `1e300`);
/// valid JSON and RON.
fn num(v: f64) -> String {
    format!("{v:?}")
}

fn xz(p: DVec2, open: char, close: char) -> String {
    let [x, z] = xz_from_plan(p);
    format!("{open}{}, {}{close}", num(x), num(z))
}

fn ring(r: &Polygon, open: char, close: char) -> String {
    let pts: Vec<String> = r.points.iter().map(|&p| xz(p, open, close)).collect();
    format!("[{}]", pts.join(", "))
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

fn ron_string(s: &str) -> String {
    ron::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// The floor plan as DESIGN.md's floor plan JSON (`"format":
/// "navscope-floorplan", "version": 1`), one ring per line, with `nodes`
/// and `blockers` when it has any. World `[x, z]` coordinates.
pub fn floor_plan_json(plan: &FloorPlan) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{{\n  \"format\": \"{JSON_FORMAT}\",\n  \"version\": {JSON_VERSION},"
    );
    let _ = write!(
        s,
        "  \"outer\": {},\n  \"holes\": [",
        ring(&plan.area.outer, '[', ']')
    );
    for (i, h) in plan.area.holes.iter().enumerate() {
        let _ = write!(
            s,
            "{}\n    {}",
            if i == 0 { "" } else { "," },
            ring(h, '[', ']')
        );
    }
    s.push_str(if plan.area.holes.is_empty() {
        "]"
    } else {
        "\n  ]"
    });
    if !plan.nodes.is_empty() {
        s.push_str(",\n  \"nodes\": [");
        for (i, n) in plan.nodes.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(
                s,
                "{sep}\n    {{\"name\": {}, \"at\": {}}}",
                json_string(&n.name),
                xz(n.at, '[', ']')
            );
        }
        s.push_str("\n  ]");
    }
    if !plan.blockers.is_empty() {
        s.push_str(",\n  \"blockers\": [");
        for (i, b) in plan.blockers.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let body = match b {
                Blocker::Box {
                    center,
                    half,
                    angle,
                } => format!(
                    "{{\"box\": {{\"center\": {}, \"half\": [{}, {}], \"angle_deg\": {}}}}}",
                    xz(*center, '[', ']'),
                    num(half.x),
                    num(half.y),
                    num(angle.to_degrees())
                ),
                Blocker::Cylinder { center, radius } => {
                    format!(
                        "{{\"cylinder\": {{\"center\": {}, \"radius\": {}}}}}",
                        xz(*center, '[', ']'),
                        num(*radius)
                    )
                }
            };
            let _ = write!(s, "{sep}\n    {body}");
        }
        s.push_str("\n  ]");
    }
    s.push_str("\n}\n");
    s
}

/// The floor plan as native RON: `FloorPlan(outer: [(x, z), ...], holes:
/// [...], nodes: [(name: "..", at: (x, z))], blockers: [box(center: ..,
/// half: .., angle_deg: ..), cylinder(center: .., radius: ..)])`.
pub fn floor_plan_ron(plan: &FloorPlan) -> String {
    let mut s = String::from("FloorPlan(\n");
    let _ = writeln!(s, "    outer: {},", ring(&plan.area.outer, '(', ')'));
    s.push_str("    holes: [\n");
    for h in &plan.area.holes {
        let _ = writeln!(s, "        {},", ring(h, '(', ')'));
    }
    s.push_str("    ],\n    nodes: [\n");
    for n in &plan.nodes {
        let _ = writeln!(
            s,
            "        (name: {}, at: {}),",
            ron_string(&n.name),
            xz(n.at, '(', ')')
        );
    }
    s.push_str("    ],\n    blockers: [\n");
    for b in &plan.blockers {
        let _ = match b {
            Blocker::Box {
                center,
                half,
                angle,
            } => writeln!(
                s,
                "        box(center: {}, half: ({}, {}), angle_deg: {}),",
                xz(*center, '(', ')'),
                num(half.x),
                num(half.y),
                num(angle.to_degrees())
            ),
            Blocker::Cylinder { center, radius } => {
                writeln!(
                    s,
                    "        cylinder(center: {}, radius: {}),",
                    xz(*center, '(', ')'),
                    num(*radius)
                )
            }
        };
    }
    s.push_str("    ],\n)\n");
    s
}

fn pretty<T: serde::Serialize>(value: &T) -> String {
    let cfg = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .compact_arrays(true);
    // The file types hold only strings, numbers, tuples and lists, which
    // RON always serialises.
    ron::ser::to_string_pretty(value, cfg).unwrap_or_default() + "\n"
}

/// A brush's contents as written: `None` when reading it back classifies
/// the brush the same way (from its entity and materials), so files stay
/// short and still read back exactly.
fn written_contents(
    level: &BrushLevel,
    b: &navscope_core::level::Brush,
) -> Option<navscope_core::level::Contents> {
    let class = b
        .entity
        .and_then(|e| level.entities.get(e))
        .map(|e| e.classname.as_str());
    let faces: Vec<FaceInfo> = b
        .materials
        .iter()
        .map(|m| FaceInfo {
            texture: m,
            ..Default::default()
        })
        .collect();
    (classify(class, &faces, false, &Rules::default()) != b.contents).then_some(b.contents)
}

/// A brush level as native RON (`BrushLevel(brushes: [...], entities:
/// [...])`), world coordinates.
pub fn brushes_ron(level: &BrushLevel) -> String {
    let file = BrushFile {
        brushes: level
            .brushes
            .iter()
            .map(|b| BrushEntry {
                planes: b
                    .planes
                    .iter()
                    .map(|p| PlaneEntry {
                        normal: p.normal.into(),
                        d: p.d,
                    })
                    .collect(),
                materials: b.materials.clone(),
                entity: b.entity,
                contents: written_contents(level, b),
            })
            .collect(),
        entities: level
            .entities
            .iter()
            .map(|e| EntityEntry {
                classname: e.classname.clone(),
                origin: e.origin.map(Into::into),
                properties: e.properties.clone(),
            })
            .collect(),
    };
    pretty(&file)
}

/// Three world points of an inclined layer's plane, as `(x, y, z)`: the
/// first outer vertex, the vertex farthest from it and the vertex farthest
/// from the line through those two, lifted onto the plane (points a reader
/// can find on the layer's outline).
fn plane_points(l: &navscope_core::level::Layer) -> Vec<(f64, f64, f64)> {
    let pts = &l.area.outer.points;
    let far = |key: &dyn Fn(DVec2) -> f64| {
        pts.iter()
            .copied()
            .max_by(|a, b| key(*a).total_cmp(&key(*b)))
            .unwrap_or_default()
    };
    let p0 = pts.first().copied().unwrap_or_default();
    let p1 = far(&|p| p.distance_squared(p0));
    let p2 = far(&|p| (p1 - p0).perp_dot(p - p0).abs());
    [p0, p1, p2]
        .iter()
        .map(|&p| {
            let w = l.plane().lift(p);
            (w.x, w.y, w.z)
        })
        .collect()
}

/// A multi-layer environment as native RON (`LayeredLevel(layers: [...],
/// connections: [...])`), world `(x, z)` pairs.
pub fn layers_ron(level: &LayeredLevel) -> String {
    let pair = |p: DVec2| {
        let [x, z] = xz_from_plan(p);
        (x, z)
    };
    let file = LayersFile {
        layers: level
            .layers
            .iter()
            .map(|l| LayerEntry {
                name: l.name.clone(),
                height: l.plane().is_level().then_some(l.height),
                plane: (!l.plane().is_level()).then(|| plane_points(l)),
                outer: l.area.outer.points.iter().map(|&p| pair(p)).collect(),
                holes: l
                    .area
                    .holes
                    .iter()
                    .map(|h| h.points.iter().map(|&p| pair(p)).collect())
                    .collect(),
            })
            .collect(),
        connections: level
            .connections
            .iter()
            .map(|c| ConnectionEntry {
                a: pair(c.a),
                b: pair(c.b),
                from: c.from,
                to: c.to,
            })
            .collect(),
    };
    pretty(&file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use navscope_core::level::{LevelData, NamedPoint};

    fn reload(name: &str, text: &str) -> FloorPlan {
        match crate::load_bytes(name, text.as_bytes()).unwrap().data {
            LevelData::FloorPlan(p) => p,
            other => panic!("not a floor plan: {other:?}"),
        }
    }

    fn with_extras(mut p: FloorPlan) -> FloorPlan {
        let (lo, hi) = p.area.bounds();
        let mid = (lo + hi) / 2.0;
        // Corners of the outer rectangle are always free.
        p.nodes.push(NamedPoint {
            name: "corner \"a\"".into(),
            at: lo,
        });
        p.blockers.push(Blocker::Cylinder {
            center: lo,
            radius: 0.25,
        });
        p.blockers.push(Blocker::Box {
            center: hi,
            half: DVec2::new(0.5, 0.25),
            angle: 0.5,
        });
        let _ = mid;
        p
    }

    fn same(a: &FloorPlan, b: &FloorPlan) {
        assert_eq!(a.area, b.area);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.blockers.len(), b.blockers.len());
        for (x, y) in a.blockers.iter().zip(&b.blockers) {
            match (x, y) {
                (
                    Blocker::Box {
                        center: c1,
                        half: h1,
                        angle: a1,
                    },
                    Blocker::Box {
                        center: c2,
                        half: h2,
                        angle: a2,
                    },
                ) => {
                    assert_eq!((c1, h1), (c2, h2));
                    assert!((a1 - a2).abs() < 1e-12);
                }
                _ => assert_eq!(x, y),
            }
        }
    }

    #[test]
    fn json_and_ron_round_trip_exactly() {
        for seed in 0..8 {
            let p = with_extras(generate::floor_plan(seed, 12));
            same(&p, &reload("x.json", &floor_plan_json(&p)));
            same(&p, &reload("x.ron", &floor_plan_ron(&p)));
        }
        let maze = generate::rectilinear_maze(1, 7, 5);
        same(&maze, &reload("m.json", &floor_plan_json(&maze)));
        let empty_holes = generate::star_polygon(3, 40);
        same(
            &empty_holes,
            &reload("s.ron", &floor_plan_ron(&empty_holes)),
        );
    }

    #[test]
    fn brushes_and_layers_round_trip_exactly() {
        for seed in 0..4 {
            let b = generate::brush_maze(seed, 4, 3);
            match crate::load_bytes("b.ron", brushes_ron(&b).as_bytes())
                .unwrap()
                .data
            {
                LevelData::Brushes(r) => assert_eq!(r, b),
                other => panic!("{other:?}"),
            }
            let l = generate::stacked_floors(seed, 3);
            match crate::load_bytes("l.ron", layers_ron(&l).as_bytes())
                .unwrap()
                .data
            {
                LevelData::Layers(r) => assert_eq!(r, l),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn json_output_follows_the_contract() {
        let p = generate::floor_plan(1, 1);
        let v: serde_json::Value = serde_json::from_str(&floor_plan_json(&p)).unwrap();
        assert_eq!(v["format"], "navscope-floorplan");
        assert_eq!(v["version"], 1);
        assert_eq!(v["outer"].as_array().unwrap().len(), 4);
        assert_eq!(v["holes"].as_array().unwrap().len(), 1);
        assert!(v.get("nodes").is_none());
    }
}
