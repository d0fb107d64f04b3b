//! What an inspector shows of an element: the fields a designer asks about,
//! named with their units, never the drawing's internals.
//!
//! [`Artifact::describe_element`](crate::stage::Artifact::describe_element)
//! answers with these when the artifact has nothing of its own to say:
//! a NavMesh node (position, stance, area, surface area, clearance and its
//! links), a NavMesh link (its ends, kind, cost and the rule that makes a
//! link of that kind), or else a summary of the element's drawn shapes
//! (a polygon's corners, area and centre; a segment's ends and length; a
//! voxel column's bottom, top and height). Sub-step bounds appear only when
//! they bound something (no `last step 4294967295`), and no value is a
//! record of one field.
//!
//! Conventions an inspector reads (the app's `ui::inspector`):
//! - a field name ending in `_m`, `_m2`, `_m3`, `_deg` carries that unit;
//! - a value `{"select": FAMILY, "id": N, "label": TEXT}` is a link that
//!   selects element `N` of kind family `FAMILY` (`node`, `link`, `cell`)
//!   drawn by the same stage; a list of them is a list of links.

use glam::{DVec3, Vec3};
use serde_json::{Map, Value, json};

use crate::draw::{Primitive, Shape};
use crate::navmesh::{LinkKind, NavMesh, Node};

/// How near (m) a drawn point must be to a NavMesh node or link end for the
/// drawing to be taken as that node or link.
const SAME_POINT: f32 = 1e-3;

/// Rounds to a millimetre, so JSON numbers read as a person writes them.
fn mm(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn point(p: Vec3) -> Value {
    json!([mm(p.x as f64), mm(p.y as f64), mm(p.z as f64)])
}

fn dpoint(p: DVec3) -> Value {
    json!([mm(p.x), mm(p.y), mm(p.z)])
}

/// A link value an inspector draws as a link selecting `id` of `family`.
pub fn select(family: &str, id: u32, label: impl Into<String>) -> Value {
    json!({ "select": family, "id": id, "label": label.into() })
}

/// The area (m²) of a planar polygon in 3D (Newell's normal).
fn polygon_area(points: &[Vec3]) -> f64 {
    let mut n = DVec3::ZERO;
    for (i, a) in points.iter().enumerate() {
        let b = points[(i + 1) % points.len()];
        n += a.as_dvec3().cross(b.as_dvec3());
    }
    n.length() / 2.0
}

fn centre(points: &[Vec3]) -> Vec3 {
    points.iter().copied().sum::<Vec3>() / points.len().max(1) as f32
}

fn chain_length(points: &[Vec3], closed: bool) -> f64 {
    let open: f64 = points.windows(2).map(|w| w[0].distance(w[1]) as f64).sum();
    match (closed, points.first(), points.last()) {
        (true, Some(a), Some(b)) if points.len() > 2 => open + a.distance(*b) as f64,
        _ => open,
    }
}

/// A drawn shape's designer-facing fields, added to `out`.
fn shape_fields(shape: &Shape, out: &mut Map<String, Value>) {
    match shape {
        Shape::Point(p) => {
            out.insert("position_m".into(), point(*p));
        }
        Shape::Segment(a, b) => {
            out.insert("from_m".into(), point(*a));
            out.insert("to_m".into(), point(*b));
            out.insert("length_m".into(), json!(mm(a.distance(*b) as f64)));
        }
        Shape::Polyline { points, closed } => {
            out.insert("points".into(), json!(points.len()));
            out.insert("length_m".into(), json!(mm(chain_length(points, *closed))));
            if *closed {
                out.insert("closed".into(), json!(true));
            }
        }
        Shape::Polygon { outer, holes } => {
            let area = polygon_area(outer) - holes.iter().map(|h| polygon_area(h)).sum::<f64>();
            out.insert("corners".into(), json!(outer.len()));
            out.insert("area_m2".into(), json!(mm(area)));
            out.insert("centre_m".into(), point(centre(outer)));
            if !holes.is_empty() {
                out.insert("holes".into(), json!(holes.len()));
            }
        }
        Shape::Box { min, max } => {
            out.insert("min_m".into(), point(*min));
            out.insert("max_m".into(), point(*max));
            out.insert("size_m".into(), point(*max - *min));
        }
        Shape::VoxelColumn { x, z, cell, y0, y1 } => {
            out.insert("column_m".into(), json!([mm(*x as f64), mm(*z as f64)]));
            out.insert("cell_m".into(), json!(mm(*cell as f64)));
            out.insert("bottom_m".into(), json!(mm(*y0 as f64)));
            out.insert("top_m".into(), json!(mm(*y1 as f64)));
            out.insert("height_m".into(), json!(mm((*y1 - *y0) as f64)));
        }
        Shape::Label { at, text } => {
            out.insert("text".into(), json!(text));
            out.insert("position_m".into(), point(*at));
        }
    }
}

/// One drawn primitive as a designer reads it: its kind, its shape's
/// measures, the value it is coloured by, its layer, and the sub-steps it
/// lives in when they bound it.
pub fn primitive(p: &Primitive) -> Value {
    let mut out = Map::new();
    out.insert("kind".into(), json!(p.kind));
    shape_fields(&p.shape, &mut out);
    if let Some(v) = p.value {
        out.insert("value".into(), json!(mm(v as f64)));
    }
    if let Some(l) = p.layer {
        out.insert("layer".into(), json!(l));
    }
    if p.first_step > 0 {
        out.insert("from_sub_step".into(), json!(p.first_step as u64 + 1));
    }
    if p.last_step != u32::MAX {
        out.insert("until_sub_step".into(), json!(p.last_step as u64 + 1));
    }
    Value::Object(out)
}

/// Up to this many primitives an element is listed piece by piece; more
/// (a tile's thousands of voxel columns) are summarised.
pub const LISTED: usize = 8;

/// An element's primitives: the one record when there is one, the list
/// when there are a few, else a summary (how many pieces of which kinds,
/// their bounds, the range of the value they are coloured by).
pub fn primitives(prims: &[&Primitive]) -> Value {
    match prims {
        [one] => primitive(one),
        few if few.len() <= LISTED => Value::Array(few.iter().map(|p| primitive(p)).collect()),
        many => summary(many),
    }
}

/// The summary of many primitives.
fn summary(prims: &[&Primitive]) -> Value {
    let mut kinds: Vec<&str> = prims.iter().map(|p| p.kind.as_ref()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let points = prims.iter().flat_map(|p| p.shape.points());
    let (lo, hi) = points.fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), q| (lo.min(q), hi.max(q)),
    );
    let mut out = Map::new();
    out.insert("kinds".into(), json!(kinds.join(", ")));
    out.insert("pieces".into(), json!(prims.len()));
    if lo.is_finite() && hi.is_finite() {
        out.insert("min_m".into(), point(lo));
        out.insert("max_m".into(), point(hi));
    }
    let values: Vec<f32> = prims.iter().filter_map(|p| p.value).collect();
    if !values.is_empty() {
        let (a, b) = values
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        out.insert("value_min".into(), json!(mm(a as f64)));
        out.insert("value_max".into(), json!(mm(b as f64)));
    }
    Value::Object(out)
}

/// The rule that makes a link of `kind`, in one line.
pub fn link_rule(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Walk => "the two nodes meet on one walkable surface (a shared edge)",
        LinkKind::StepUp => "the target surface is higher, within the agent's step or climb",
        LinkKind::StepDown => "the target surface is lower, within the agent's drop",
        LinkKind::Jump => "a gap or height the agent's jump reaches",
        LinkKind::Crouch => "the target has headroom only for a crouching agent",
        LinkKind::Ladder => "a ladder joins the two surfaces",
        LinkKind::Portal => "the two cells meet at a portal",
        LinkKind::Connection => "the two layers meet at a connection",
        LinkKind::Door => "a door between them opens for the agent",
        LinkKind::Elevator => "a lift or platform carries the agent between them",
        LinkKind::Teleport => "a teleporter moves the agent instantly",
        LinkKind::Swim => "water joins them, or the water and its bank",
    }
}

/// The area (m²) of a node's polygon seen from above, if it has one.
fn node_surface(n: &Node) -> Option<f64> {
    let p = n.polygon.as_ref()?;
    let twice: f64 = (0..p.len())
        .map(|i| {
            let (u, v) = (p[i], p[(i + 1) % p.len()]);
            u.x * v.z - v.x * u.z
        })
        .sum();
    Some(twice.abs() / 2.0)
}

/// A NavMesh node: where it is, how an agent stands on it, how much
/// surface it covers, its clearance and its links (each a link that
/// selects the node it leads to).
pub fn node(mesh: &NavMesh, id: u32) -> Option<Value> {
    let n = mesh.nodes.get(id as usize)?;
    let mut out = Map::new();
    // The inspector's header names the node: no row links it to itself.
    out.insert("position_m".into(), dpoint(n.position));
    out.insert("stance".into(), json!(n.stance.name()));
    out.insert("area".into(), json!(n.area));
    if let Some(cost) = mesh.area_costs.get(n.area.as_ref()) {
        out.insert("area_cost".into(), json!(mm(*cost)));
    }
    match node_surface(n) {
        Some(a) => {
            out.insert("surface_area_m2".into(), json!(mm(a)));
        }
        None => {
            out.insert("surface".into(), json!("a point node (no polygon)"));
        }
    }
    match n.radius {
        Some(r) => {
            out.insert("clearance_m".into(), json!(mm(r)));
        }
        None => {
            out.insert("clearance".into(), json!("not measured by this method"));
        }
    }
    out.insert("layer".into(), json!(n.layer));
    let links: Vec<Value> = mesh
        .links
        .iter()
        .filter(|l| l.from == id)
        .map(|l| {
            select(
                "node",
                l.to,
                format!("{} to node #{} · cost {}", l.kind.name(), l.to, mm(l.cost)),
            )
        })
        .collect();
    let incoming = mesh.links.iter().filter(|l| l.to == id).count();
    out.insert("links_out".into(), Value::Array(links));
    out.insert("links_in".into(), json!(incoming));
    Some(Value::Object(out))
}

/// A NavMesh link: its ends (links selecting the nodes), kind, cost, the
/// distance between the nodes and the rule that makes a link of its kind.
pub fn link(mesh: &NavMesh, index: u32) -> Option<Value> {
    let l = mesh.links.get(index as usize)?;
    let (a, b) = (
        mesh.nodes.get(l.from as usize)?,
        mesh.nodes.get(l.to as usize)?,
    );
    let mut out = Map::new();
    out.insert("kind".into(), json!(l.kind.name()));
    out.insert(
        "from".into(),
        select("node", l.from, format!("node #{}", l.from)),
    );
    out.insert("to".into(), select("node", l.to, format!("node #{}", l.to)));
    out.insert("cost".into(), json!(mm(l.cost)));
    out.insert(
        "distance_m".into(),
        json!(mm(a.position.distance(b.position))),
    );
    if let Some([p, q]) = l.segment() {
        out.insert("crossing_m".into(), json!(mm(p.distance(q))));
    }
    let back = mesh.links.iter().any(|m| m.from == l.to && m.to == l.from);
    out.insert("both_ways".into(), json!(back));
    out.insert("rule".into(), json!(link_rule(l.kind)));
    Some(Value::Object(out))
}

fn near(p: Vec3, q: DVec3) -> bool {
    p.distance(q.as_vec3()) <= SAME_POINT
}

/// The NavMesh node or link that element `element` of kind `kind` draws,
/// described, when the drawing is of the mesh: a `node…`/`polygon…` kind
/// whose points include node `element`'s position or a corner of its
/// polygon, or a `link…` kind whose ends are link `element`'s nodes (or
/// its crossing). A stage that numbers its elements otherwise gets `None`.
pub fn navmesh_element(
    mesh: &NavMesh,
    kind: &str,
    element: u32,
    prims: &[&Primitive],
) -> Option<Value> {
    let family = kind.split('/').next().unwrap_or(kind);
    let points: Vec<Vec3> = prims
        .iter()
        .filter(|p| p.kind == kind)
        .flat_map(|p| p.shape.points())
        .collect();
    if points.is_empty() {
        return None;
    }
    match family {
        "node" | "polygon" => {
            let n = mesh.nodes.get(element as usize)?;
            let corners = n.polygon.iter().flatten();
            let drawn = points
                .iter()
                .any(|p| near(*p, n.position) || corners.clone().any(|c| near(*p, *c)));
            drawn.then(|| node(mesh, element)).flatten()
        }
        "link" => {
            let l = mesh.links.get(element as usize)?;
            let ends = [
                mesh.nodes.get(l.from as usize)?.position,
                mesh.nodes.get(l.to as usize)?.position,
            ];
            let crossing = l.segment().map(|s| s.to_vec()).unwrap_or_default();
            let drawn = points
                .iter()
                .all(|p| ends.iter().chain(&crossing).any(|e| near(*p, *e)));
            drawn.then(|| link(mesh, element)).flatten()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::{Link, Stance};

    fn square(x: f64) -> Vec<DVec3> {
        vec![
            DVec3::new(x, 0.0, 0.0),
            DVec3::new(x, 0.0, -2.0),
            DVec3::new(x + 2.0, 0.0, -2.0),
            DVec3::new(x + 2.0, 0.0, 0.0),
        ]
    }

    fn mesh() -> NavMesh {
        let mut m = NavMesh::new("test", "test.json");
        for (i, x) in [0.0, 2.0].into_iter().enumerate() {
            m.nodes.push(Node {
                id: i as u32,
                position: DVec3::new(x + 1.0, 0.0, -1.0),
                polygon: Some(square(x)),
                stance: if i == 0 {
                    Stance::Stand
                } else {
                    Stance::Crouch
                },
                layer: 0,
                area: "default".into(),
                radius: None,
                detail: None,
            });
        }
        m.links.push(Link::new(0, 1, LinkKind::Walk, 2.0, None));
        m.links.push(Link::new(1, 0, LinkKind::Walk, 2.0, None));
        m
    }

    #[test]
    fn a_drawn_node_reads_as_the_node_with_its_links() {
        let m = mesh();
        let drawn = Primitive::new("node/stand", 0, Shape::Point(Vec3::new(1.0, 0.0, -1.0)));
        let v = navmesh_element(&m, "node/stand", 0, &[&drawn]).expect("the node");
        assert_eq!(v["stance"], "stand");
        assert_eq!(v["surface_area_m2"], 4.0);
        assert_eq!(v["position_m"], json!([1.0, 0.0, -1.0]));
        assert_eq!(v["links_out"][0]["select"], "node");
        assert_eq!(v["links_out"][0]["id"], 1);
        assert_eq!(v["links_in"], 1);
        assert!(v["clearance"].is_string());
    }

    #[test]
    fn a_drawn_link_reads_as_the_link_with_its_rule() {
        let m = mesh();
        let drawn = Primitive::new(
            "link/walk",
            0,
            Shape::Segment(Vec3::new(1.0, 0.0, -1.0), Vec3::new(3.0, 0.0, -1.0)),
        );
        let v = navmesh_element(&m, "link/walk", 0, &[&drawn]).expect("the link");
        assert_eq!(v["kind"], "walk");
        assert_eq!(v["from"]["id"], 0);
        assert_eq!(v["to"]["id"], 1);
        assert_eq!(v["distance_m"], 2.0);
        assert_eq!(v["both_ways"], true);
        assert_eq!(v["rule"], link_rule(LinkKind::Walk));
    }

    #[test]
    fn a_drawing_numbered_otherwise_is_not_taken_for_the_mesh() {
        let m = mesh();
        // Element 0 of a node kind drawn far from node 0.
        let elsewhere = Primitive::new("node/dual", 0, Shape::Point(Vec3::new(9.0, 0.0, 9.0)));
        assert!(navmesh_element(&m, "node/dual", 0, &[&elsewhere]).is_none());
        // An id past the mesh, a family that is not the mesh's, no drawing.
        let n = Primitive::new("node/stand", 7, Shape::Point(Vec3::ZERO));
        assert!(navmesh_element(&m, "node/stand", 7, &[&n]).is_none());
        assert!(navmesh_element(&m, "cell", 0, &[&n]).is_none());
        assert!(navmesh_element(&m, "node/stand", 0, &[]).is_none());
    }

    #[test]
    fn shapes_read_without_internals() {
        let poly = Primitive::new(
            "cell",
            3,
            Shape::Polygon {
                outer: vec![
                    Vec3::new(0.0, 1.0, 0.0),
                    Vec3::new(2.0, 1.0, 0.0),
                    Vec3::new(2.0, 1.0, 3.0),
                    Vec3::new(0.0, 1.0, 3.0),
                ],
                holes: vec![],
            },
        );
        let v = primitives(&[&poly]);
        assert_eq!(v["area_m2"], 6.0);
        assert_eq!(v["corners"], 4);
        assert_eq!(v["centre_m"], json!([1.0, 1.0, 1.5]));
        let text = v.to_string();
        for internal in ["first_step", "last_step", "4294967295", "shape", "Polygon"] {
            assert!(!text.contains(internal), "{internal} in {text}");
        }
        let mut stepped = poly.clone();
        stepped.first_step = 2;
        stepped.last_step = 4;
        let v = primitive(&stepped);
        assert_eq!(
            (v["from_sub_step"].clone(), v["until_sub_step"].clone()),
            (json!(3), json!(5))
        );
        let column = Primitive::new(
            "voxel",
            0,
            Shape::VoxelColumn {
                x: 1.0,
                z: 2.0,
                cell: 0.5,
                y0: 0.25,
                y1: 1.0,
            },
        );
        assert_eq!(primitive(&column)["height_m"], 0.75);
        // Two primitives stay a list; a degenerate polygon has no area.
        let flat = Primitive::new(
            "cell",
            3,
            Shape::Polygon {
                outer: vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0],
                holes: vec![],
            },
        );
        let v = primitives(&[&poly, &flat]);
        assert_eq!(v.as_array().map(Vec::len), Some(2));
        assert_eq!(v[1]["area_m2"], 0.0);
    }

    #[test]
    fn many_pieces_are_summarised() {
        let columns: Vec<Primitive> = (0..20)
            .map(|i| {
                Primitive::new(
                    "voxel/compact",
                    1,
                    Shape::VoxelColumn {
                        x: i as f32,
                        z: 0.0,
                        cell: 1.0,
                        y0: 0.0,
                        y1: 0.5,
                    },
                )
                .with_value(i as f32)
            })
            .collect();
        let refs: Vec<&Primitive> = columns.iter().collect();
        let v = primitives(&refs);
        assert_eq!(v["pieces"], 20);
        assert_eq!(v["kinds"], "voxel/compact");
        assert_eq!(v["min_m"], json!([0.0, 0.0, 0.0]));
        assert_eq!(v["max_m"], json!([20.0, 0.5, 1.0]));
        assert_eq!(
            (v["value_min"].clone(), v["value_max"].clone()),
            (json!(0.0), json!(19.0))
        );
        // Nothing drawn: an empty list, not a summary of nothing.
        assert_eq!(primitives(&[]), json!([]));
    }
}
