//! The common NavMesh every pipeline ends in, and its JSON contract.
//!
//! ```text
//! { "format": "navscope-navmesh", "version": 2, "pipeline": "convex", "level": "path",
//!   "nodes": [ { "id": 0, "position": [x,y,z], "polygon": [[x,y,z], ...] | null,
//!                "stance": "stand", "layer": 0, "area": "default",
//!                "radius": 0.8 | null, "detail": [[[x,y,z],[x,y,z],[x,y,z]], ...] | null } ],
//!   "links": [ { "from": 0, "to": 1, "kind": "portal", "cost": 1.0,
//!                "segment": [[x,y,z],[x,y,z]] | null } ],
//!   "metrics": { "name": number }, "stages": [ { "id": "...", "ms": 0.4, "counts": {...} } ] }
//! ```
//! Node ids equal their index. Polygons are counter-clockwise seen from +Y.
//! Links are directed; a two-way connection is two links.
//!
//! Version 2 added the node fields `area` (a name; `"default"` when the
//! level says nothing), `radius` (the node's clearance in metres where the
//! method has one) and `detail` (triangles giving the surface height inside
//! the polygon), and the link kinds `door`, `elevator`, `teleport` and
//! `swim`. Version 1 documents are still read: the missing fields take
//! their defaults, and [`NavMesh::from_json`] returns them as version 2.

use std::borrow::Cow;
use std::collections::BTreeMap;

use glam::DVec3;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The value of `format` in NavMesh JSON.
pub const FORMAT: &str = "navscope-navmesh";
/// The NavMesh JSON version this build writes.
pub const VERSION: u32 = 2;
/// The oldest NavMesh JSON version this build still reads.
pub const OLDEST_READABLE: u32 = 1;
/// The area name of a node nothing in the level classifies.
pub const DEFAULT_AREA: &str = "default";

/// The posture an agent holds on a node (Kirst §32.3).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Stance {
    /// Upright walking.
    #[default]
    Stand,
    /// Crouched.
    Crouch,
    /// Lying down, crawling.
    Prone,
    /// Swimming.
    Swim,
    /// Sidestepping along a narrow ledge.
    Sidestep,
}

impl Stance {
    /// Every stance, in declaration order.
    pub const ALL: [Stance; 5] = [
        Stance::Stand,
        Stance::Crouch,
        Stance::Prone,
        Stance::Swim,
        Stance::Sidestep,
    ];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Stance::Stand => "stand",
            Stance::Crouch => "crouch",
            Stance::Prone => "prone",
            Stance::Swim => "swim",
            Stance::Sidestep => "sidestep",
        }
    }
}

/// How a link is traversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkKind {
    /// Walking across a shared edge.
    Walk,
    /// Stepping up onto a higher surface.
    StepUp,
    /// Stepping down.
    StepDown,
    /// Jumping.
    Jump,
    /// Crouching under something.
    Crouch,
    /// Climbing a ladder.
    Ladder,
    /// Crossing a portal between cells.
    Portal,
    /// Crossing a connection between layers.
    Connection,
    /// Passing through a door (it opens for the agent).
    Door,
    /// Riding a lift or elevator platform.
    Elevator,
    /// Being moved instantly by a teleporter.
    Teleport,
    /// Swimming between water and its bank, or through water.
    Swim,
}

impl LinkKind {
    /// Every kind, in declaration order.
    pub const ALL: [LinkKind; 12] = [
        LinkKind::Walk,
        LinkKind::StepUp,
        LinkKind::StepDown,
        LinkKind::Jump,
        LinkKind::Crouch,
        LinkKind::Ladder,
        LinkKind::Portal,
        LinkKind::Connection,
        LinkKind::Door,
        LinkKind::Elevator,
        LinkKind::Teleport,
        LinkKind::Swim,
    ];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Walk => "walk",
            LinkKind::StepUp => "step-up",
            LinkKind::StepDown => "step-down",
            LinkKind::Jump => "jump",
            LinkKind::Crouch => "crouch",
            LinkKind::Ladder => "ladder",
            LinkKind::Portal => "portal",
            LinkKind::Connection => "connection",
            LinkKind::Door => "door",
            LinkKind::Elevator => "elevator",
            LinkKind::Teleport => "teleport",
            LinkKind::Swim => "swim",
        }
    }
}

/// A node: a convex polygon, triangle or point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Equal to the node's index.
    pub id: u32,
    /// Representative position (centroid for polygons).
    pub position: DVec3,
    /// Boundary, counter-clockwise seen from +Y; `None` for point nodes.
    pub polygon: Option<Vec<DVec3>>,
    /// Stance to hold on this node.
    #[serde(default)]
    pub stance: Stance,
    /// Layer index.
    #[serde(default)]
    pub layer: u32,
    /// Area name (set by convex volumes or map semantics; [`DEFAULT_AREA`]
    /// when nothing classifies the node). Version 2. Borrowed for the
    /// default and other names known at compile time, so the millions of
    /// unclassified nodes of a large mesh own no heap string each; owned
    /// for names read from a level or a file.
    #[serde(default = "default_area")]
    pub area: Cow<'static, str>,
    /// Clearance in metres where the method has one (e.g. a dual-graph
    /// node's inscribed radius), else `None`. Version 2.
    #[serde(default)]
    pub radius: Option<f64>,
    /// Triangles that give the surface height inside the polygon (a detail
    /// mesh), else `None`. Version 2.
    #[serde(default)]
    pub detail: Option<Vec<[DVec3; 3]>>,
}

fn default_area() -> Cow<'static, str> {
    Cow::Borrowed(DEFAULT_AREA)
}

/// A directed link between two nodes.
///
/// 32 bytes: the segment is kept out of line, because most links of a
/// large mesh have none (a triangle's links to its corners and the
/// triangulation's edges) and inline it made every link 80 bytes; the
/// links are most of a large mesh. The JSON is the same either way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// Source node id.
    pub from: u32,
    /// Target node id.
    pub to: u32,
    /// How it is traversed.
    pub kind: LinkKind,
    /// Traversal cost (metres for walking links).
    pub cost: f64,
    /// The crossing segment (portal, shared edge), if any; read it with
    /// [`Link::segment`].
    pub segment: Option<Box<[DVec3; 2]>>,
}

impl Link {
    /// A link from `from` to `to`, with `segment` boxed when there is one.
    pub fn new(from: u32, to: u32, kind: LinkKind, cost: f64, segment: Option<[DVec3; 2]>) -> Self {
        Self {
            from,
            to,
            kind,
            cost,
            segment: segment.map(Box::new),
        }
    }

    /// The crossing segment, if any, by value.
    pub fn segment(&self) -> Option<[DVec3; 2]> {
        self.segment.as_deref().copied()
    }
}

/// Time and counts of one stage, as recorded by the runner.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageRecord {
    /// Stage id.
    pub id: String,
    /// Wall time in milliseconds.
    pub ms: f64,
    /// Element counts.
    pub counts: BTreeMap<String, u64>,
}

/// The common navigation mesh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NavMesh {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// Pipeline that made it.
    pub pipeline: String,
    /// Level path as given.
    pub level: String,
    /// Nodes; `nodes[i].id == i`.
    pub nodes: Vec<Node>,
    /// Directed links.
    pub links: Vec<Link>,
    /// Named metrics.
    #[serde(default)]
    pub metrics: BTreeMap<String, f64>,
    /// Per-stage time and counts.
    #[serde(default)]
    pub stages: Vec<StageRecord>,
    /// Cost multiplier of moving through the nodes of each area name (the
    /// pipeline's area costs, e.g. from convex volumes); an area not listed
    /// costs 1. Values are finite and `>= 0`. Version 2 (optional).
    #[serde(default)]
    pub area_costs: BTreeMap<String, f64>,
}

/// What is wrong with a NavMesh (or its JSON).
#[derive(Debug, Error)]
pub enum NavMeshError {
    /// Not JSON, or not of this shape.
    #[error("not a NavMesh JSON document: {0}")]
    Json(#[from] serde_json::Error),
    /// Wrong `format`.
    #[error("format is '{0}', expected '{FORMAT}'")]
    Format(String),
    /// Unsupported `version`.
    #[error(
        "version {0} is not supported (this build reads versions {OLDEST_READABLE} to {VERSION})"
    )]
    Version(u32),
    /// A structural problem with one element.
    #[error("{element}: {problem}")]
    Element { element: String, problem: String },
}

impl NavMesh {
    /// An empty mesh for `pipeline` built from `level`.
    pub fn new(pipeline: &str, level: &str) -> Self {
        Self {
            format: FORMAT.into(),
            version: VERSION,
            pipeline: pipeline.into(),
            level: level.into(),
            nodes: Vec::new(),
            links: Vec::new(),
            metrics: BTreeMap::new(),
            stages: Vec::new(),
            area_costs: BTreeMap::new(),
        }
    }

    /// The cost multiplier of area `name` ([`NavMesh::area_costs`], 1 when
    /// it is not listed).
    pub fn area_cost(&self, name: &str) -> f64 {
        self.area_costs.get(name).copied().unwrap_or(1.0)
    }

    /// Adds a node and returns its id.
    pub fn add_node(
        &mut self,
        position: DVec3,
        polygon: Option<Vec<DVec3>>,
        stance: Stance,
        layer: u32,
    ) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            id,
            position,
            polygon,
            stance,
            layer,
            area: default_area(),
            radius: None,
            detail: None,
        });
        id
    }

    /// Adds a link in both directions with the same kind, cost and segment.
    pub fn add_two_way(
        &mut self,
        a: u32,
        b: u32,
        kind: LinkKind,
        cost: f64,
        segment: Option<[DVec3; 2]>,
    ) {
        self.links.push(Link::new(a, b, kind, cost, segment));
        self.links.push(Link::new(b, a, kind, cost, segment));
    }

    /// Checks ids, link ends, costs and finiteness.
    pub fn validate(&self) -> Result<(), NavMeshError> {
        if self.format != FORMAT {
            return Err(NavMeshError::Format(self.format.clone()));
        }
        if !(OLDEST_READABLE..=VERSION).contains(&self.version) {
            return Err(NavMeshError::Version(self.version));
        }
        let el = |element: String, problem: &str| NavMeshError::Element {
            element,
            problem: problem.into(),
        };
        for (i, n) in self.nodes.iter().enumerate() {
            if n.id as usize != i {
                return Err(el(
                    format!("node {i}"),
                    &format!("has id {}, expected {i} (ids are indices)", n.id),
                ));
            }
            if !n.position.is_finite() || n.polygon.iter().flatten().any(|p| !p.is_finite()) {
                return Err(el(
                    format!("node {i}"),
                    "has a coordinate that is not a finite number",
                ));
            }
            if n.polygon.as_ref().is_some_and(|p| p.len() < 3) {
                return Err(el(format!("node {i}"), "polygon has fewer than 3 vertices"));
            }
            if n.radius.is_some_and(|r| !r.is_finite() || r < 0.0) {
                return Err(el(
                    format!("node {i}"),
                    "radius must be a finite number >= 0",
                ));
            }
            if n.detail.iter().flatten().flatten().any(|p| !p.is_finite()) {
                return Err(el(
                    format!("node {i}"),
                    "has a detail triangle with a coordinate that is not a finite number",
                ));
            }
            if n.area.is_empty() {
                return Err(el(format!("node {i}"), "area name is empty"));
            }
        }
        for (name, c) in &self.area_costs {
            if !c.is_finite() || *c < 0.0 {
                return Err(el(
                    format!("area cost '{name}'"),
                    "must be a finite number >= 0",
                ));
            }
        }
        let n = self.nodes.len() as u32;
        for (i, l) in self.links.iter().enumerate() {
            if l.from >= n || l.to >= n {
                return Err(el(
                    format!("link {i}"),
                    &format!("joins {} -> {} but there are {n} nodes", l.from, l.to),
                ));
            }
            if !l.cost.is_finite() || l.cost < 0.0 {
                return Err(el(format!("link {i}"), "cost must be a finite number >= 0"));
            }
        }
        Ok(())
    }

    /// The JSON document of the contract (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("NavMesh serialises")
    }

    /// Writes the same document as [`NavMesh::to_json`] to `w` as it is
    /// produced, so a large mesh is never held a second time as text (a
    /// dual graph of 4.5 M links is about 1 GB of JSON). `w` should be
    /// buffered.
    pub fn write_json(&self, w: impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(w, self).map_err(std::io::Error::other)
    }

    /// Reads and validates a JSON document of any readable version; the
    /// result is always version [`VERSION`] (fields an older version lacks
    /// take their defaults).
    pub fn from_json(text: &str) -> Result<Self, NavMeshError> {
        let mut m: NavMesh = serde_json::from_str(text)?;
        m.validate()?;
        m.version = VERSION;
        Ok(m)
    }

    /// Wavefront OBJ of the node polygons (one face per polygon node, `g`
    /// groups per stance), for inspection in any 3D tool.
    pub fn to_obj(&self) -> String {
        let mut out = Vec::new();
        self.write_obj(&mut out)
            .expect("writing to memory cannot fail");
        String::from_utf8(out).expect("OBJ text is UTF-8")
    }

    /// Writes the same text as [`NavMesh::to_obj`] to `w` as it is
    /// produced. `w` should be buffered.
    pub fn write_obj(&self, w: impl std::io::Write) -> std::io::Result<()> {
        write_obj(&self.pipeline, &self.level, &self.nodes, w)
    }

    /// Outgoing links of every node, as index lists into `links`.
    pub fn adjacency(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); self.nodes.len()];
        for (i, l) in self.links.iter().enumerate() {
            adj[l.from as usize].push(i);
        }
        adj
    }
}

/// The OBJ text of [`NavMesh::to_obj`] for a mesh of `nodes` made by
/// `pipeline` from `level`.
fn write_obj(
    pipeline: &str,
    level: &str,
    nodes: &[Node],
    mut w: impl std::io::Write,
) -> std::io::Result<()> {
    writeln!(w, "# navscope navmesh: pipeline {pipeline}, level {level}")?;
    let mut next = 1usize;
    for stance in Stance::ALL {
        let mut polygons = nodes
            .iter()
            .filter_map(|n| n.polygon.as_ref().filter(|_| n.stance == stance))
            .peekable();
        if polygons.peek().is_none() {
            continue;
        }
        writeln!(w, "g {}", stance.name())?;
        for poly in polygons {
            for p in poly {
                writeln!(w, "v {} {} {}", p.x, p.y, p.z)?;
            }
            write!(w, "f")?;
            for i in next..next + poly.len() {
                write!(w, " {i}")?;
            }
            writeln!(w)?;
            next += poly.len();
        }
    }
    Ok(())
}

/// A NavMesh borrowed from the stage artifact that made it, with the
/// document fields a runner stamps on it: what
/// [`crate::Runner::navmesh`] hands out as an owned copy. Writing through
/// it ([`StampedNavMesh::write_json`], [`StampedNavMesh::write_obj`])
/// gives the same bytes without that copy, which for a large mesh is as
/// big as the mesh itself (half a gigabyte for a dual graph of 4.5 M
/// links).
#[derive(Clone, Debug)]
pub struct StampedNavMesh<'a> {
    /// The mesh as the artifact holds it.
    pub mesh: &'a NavMesh,
    /// Pipeline that made it (replaces `mesh.pipeline`).
    pub pipeline: String,
    /// Level path as given (replaces `mesh.level`).
    pub level: String,
    /// `mesh.metrics` extended with every artifact's metrics.
    pub metrics: BTreeMap<String, f64>,
    /// Every stage's time and counts (replaces `mesh.stages`).
    pub stages: Vec<StageRecord>,
}

/// The JSON document of a [`StampedNavMesh`]: the fields of [`NavMesh`]
/// in its order, borrowed.
#[derive(Serialize)]
struct StampedDocument<'a> {
    format: &'a str,
    version: u32,
    pipeline: &'a str,
    level: &'a str,
    nodes: &'a [Node],
    links: &'a [Link],
    metrics: &'a BTreeMap<String, f64>,
    stages: &'a [StageRecord],
    area_costs: &'a BTreeMap<String, f64>,
}

impl StampedNavMesh<'_> {
    /// The owned NavMesh (a copy of the mesh with the stamped fields).
    pub fn to_navmesh(&self) -> NavMesh {
        NavMesh {
            pipeline: self.pipeline.clone(),
            level: self.level.clone(),
            metrics: self.metrics.clone(),
            stages: self.stages.clone(),
            ..self.mesh.clone()
        }
    }

    /// Checks the mesh as [`NavMesh::validate`] does (the stamped fields
    /// cannot make it invalid).
    pub fn validate(&self) -> Result<(), NavMeshError> {
        self.mesh.validate()
    }

    /// Writes the JSON document of [`StampedNavMesh::to_navmesh`] to `w`
    /// without copying the mesh. `w` should be buffered.
    pub fn write_json(&self, w: impl std::io::Write) -> std::io::Result<()> {
        let doc = StampedDocument {
            format: &self.mesh.format,
            version: self.mesh.version,
            pipeline: &self.pipeline,
            level: &self.level,
            nodes: &self.mesh.nodes,
            links: &self.mesh.links,
            metrics: &self.metrics,
            stages: &self.stages,
            area_costs: &self.mesh.area_costs,
        };
        serde_json::to_writer_pretty(w, &doc).map_err(std::io::Error::other)
    }

    /// Writes the OBJ text of [`StampedNavMesh::to_navmesh`] to `w`
    /// without copying the mesh. `w` should be buffered.
    pub fn write_obj(&self, w: impl std::io::Write) -> std::io::Result<()> {
        write_obj(&self.pipeline, &self.level, &self.mesh.nodes, w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> NavMesh {
        let mut m = NavMesh::new("convex", "a.json");
        let sq = |x: f64| {
            vec![
                DVec3::new(x, 0., 0.),
                DVec3::new(x + 1., 0., 0.),
                DVec3::new(x + 1., 0., -1.),
                DVec3::new(x, 0., -1.),
            ]
        };
        let a = m.add_node(DVec3::new(0.5, 0., -0.5), Some(sq(0.)), Stance::Stand, 0);
        let b = m.add_node(DVec3::new(1.5, 0., -0.5), Some(sq(1.)), Stance::Crouch, 0);
        m.add_two_way(
            a,
            b,
            LinkKind::Portal,
            1.0,
            Some([DVec3::new(1., 0., 0.), DVec3::new(1., 0., -1.)]),
        );
        m.metrics.insert("cells".into(), 2.0);
        m
    }

    #[test]
    fn json_round_trip_and_field_names() {
        let m = sample();
        let text = m.to_json();
        assert!(text.contains("\"format\": \"navscope-navmesh\""));
        assert!(text.contains("\"kind\": \"portal\""));
        assert!(text.contains("\"stance\": \"crouch\""));
        assert_eq!(NavMesh::from_json(&text).unwrap(), m);
    }

    #[test]
    fn polygons_wind_counter_clockwise_seen_from_above() {
        // The contract: the (x, z) shoelace sum is negative.
        let m = sample();
        for n in &m.nodes {
            let p = n.polygon.as_ref().unwrap();
            let s: f64 = (0..p.len())
                .map(|i| p[i].x * p[(i + 1) % p.len()].z - p[(i + 1) % p.len()].x * p[i].z)
                .sum();
            assert!(s < 0.0);
        }
    }

    #[test]
    fn bad_documents_are_named() {
        let mut m = sample();
        m.links[0].to = 9;
        let e = NavMesh::from_json(&m.to_json()).unwrap_err();
        assert_eq!(e.to_string(), "link 0: joins 0 -> 9 but there are 2 nodes");
        let e =
            NavMesh::from_json(&sample().to_json().replace("navscope-navmesh", "x")).unwrap_err();
        assert!(e.to_string().contains("format is 'x'"));
        assert!(matches!(
            NavMesh::from_json("{\"format\":"),
            Err(NavMeshError::Json(_))
        ));
    }

    #[test]
    fn links_are_32_bytes_and_keep_the_json_of_their_segment() {
        // The segment is boxed (inline it would make a link 80 bytes); the
        // links are most of a large mesh (twelve per triangle of a raster's
        // dual graph).
        assert_eq!(std::mem::size_of::<Link>(), 32);
        let seg = [DVec3::new(1.0, 0.0, -2.5), DVec3::new(3.0, 0.5, -4.0)];
        let l = Link::new(0, 1, LinkKind::Portal, 1.5, Some(seg));
        assert_eq!(l.segment(), Some(seg));
        // The JSON of the inline segment, which version 2 fixes.
        let inline = serde_json::json!({ "from": 0, "to": 1, "kind": "portal", "cost": 1.5,
            "segment": [[1.0, 0.0, -2.5], [3.0, 0.5, -4.0]] });
        assert_eq!(serde_json::to_value(&l).unwrap(), inline);
        assert_eq!(serde_json::from_value::<Link>(inline).unwrap(), l);
        let none = Link::new(1, 0, LinkKind::Walk, 2.0, None);
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"from":1,"to":0,"kind":"walk","cost":2.0,"segment":null}"#
        );
    }

    #[test]
    fn unclassified_nodes_borrow_the_default_area_name() {
        let m = sample();
        assert!(matches!(m.nodes[0].area, Cow::Borrowed(DEFAULT_AREA)));
        let back = NavMesh::from_json(&m.to_json()).unwrap();
        assert_eq!(back.nodes[0].area, DEFAULT_AREA);
    }

    #[test]
    fn version_2_fields_round_trip() {
        let mut m = sample();
        m.nodes[0].area = "water".into();
        m.nodes[0].radius = Some(0.75);
        m.nodes[1].detail = Some(vec![[DVec3::ZERO, DVec3::X, DVec3::Z]]);
        m.links[0].kind = LinkKind::Teleport;
        m.area_costs.insert("water".into(), 10.0);
        let text = m.to_json();
        assert!(text.contains("\"version\": 2"));
        assert!(text.contains("\"area\": \"water\""));
        assert!(text.contains("\"radius\": 0.75"));
        assert!(text.contains("\"kind\": \"teleport\""));
        assert_eq!(NavMesh::from_json(&text).unwrap(), m);
        assert_eq!(m.area_cost("water"), 10.0);
        assert_eq!(m.area_cost(DEFAULT_AREA), 1.0);
        for k in LinkKind::ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
        }
    }

    #[test]
    fn version_1_documents_read_with_defaults() {
        let v1 = r#"{ "format": "navscope-navmesh", "version": 1, "pipeline": "convex",
            "level": "a.json",
            "nodes": [ { "id": 0, "position": [0, 0, 0], "polygon": null,
                         "stance": "stand", "layer": 0 } ],
            "links": [] }"#;
        let m = NavMesh::from_json(v1).unwrap();
        assert_eq!(m.version, VERSION);
        assert_eq!(m.nodes[0].area, DEFAULT_AREA);
        assert_eq!(m.nodes[0].radius, None);
        assert_eq!(m.nodes[0].detail, None);
        let v3 = v1.replace("\"version\": 1", "\"version\": 3");
        let e = NavMesh::from_json(&v3).unwrap_err();
        assert_eq!(
            e.to_string(),
            "version 3 is not supported (this build reads versions 1 to 2)"
        );
    }

    #[test]
    fn bad_version_2_fields_are_named() {
        let mut m = sample();
        m.nodes[1].radius = Some(-1.0);
        let e = NavMesh::from_json(&m.to_json()).unwrap_err();
        assert_eq!(e.to_string(), "node 1: radius must be a finite number >= 0");
        let mut m = sample();
        m.nodes[0].area = "".into();
        let e = NavMesh::from_json(&m.to_json()).unwrap_err();
        assert_eq!(e.to_string(), "node 0: area name is empty");
        let mut m = sample();
        m.area_costs.insert("grass".into(), -2.0);
        let e = NavMesh::from_json(&m.to_json()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "area cost 'grass': must be a finite number >= 0"
        );
    }

    #[test]
    fn written_documents_equal_the_strings() {
        let m = sample();
        let mut json = Vec::new();
        m.write_json(&mut json).unwrap();
        assert_eq!(String::from_utf8(json).unwrap(), m.to_json());
        let mut obj = Vec::new();
        m.write_obj(&mut obj).unwrap();
        assert_eq!(String::from_utf8(obj).unwrap(), m.to_obj());
        // A writer that fails is an error, not a panic.
        struct Full;
        impl std::io::Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert!(
            m.write_json(Full)
                .unwrap_err()
                .to_string()
                .contains("disk full")
        );
        assert!(m.write_obj(Full).is_err());
    }

    #[test]
    fn a_stamped_mesh_writes_what_its_copy_writes() {
        let mut m = sample();
        m.metrics.insert("a".into(), 1.5);
        m.area_costs.insert("water".into(), 10.0);
        let stamped = StampedNavMesh {
            mesh: &m,
            pipeline: "navgraph".into(),
            level: "levels/b.png".into(),
            metrics: BTreeMap::from([("a".into(), 1.5), ("b".into(), 2.0)]),
            stages: vec![StageRecord {
                id: "graphs".into(),
                ms: 3.25,
                counts: BTreeMap::from([("nodes".into(), 2)]),
            }],
        };
        let owned = stamped.to_navmesh();
        assert_eq!(owned.pipeline, "navgraph");
        assert_eq!(owned.nodes, m.nodes);
        let mut json = Vec::new();
        stamped.write_json(&mut json).unwrap();
        assert_eq!(String::from_utf8(json).unwrap(), owned.to_json());
        let mut obj = Vec::new();
        stamped.write_obj(&mut obj).unwrap();
        assert_eq!(String::from_utf8(obj).unwrap(), owned.to_obj());
        assert!(owned.to_obj().contains("level levels/b.png"));
        stamped.validate().unwrap();
    }

    #[test]
    fn obj_export_groups_by_stance() {
        let obj = sample().to_obj();
        assert!(obj.contains("g stand\n"));
        assert!(obj.contains("g crouch\n"));
        assert!(obj.contains("f 1 2 3 4\n"));
        assert!(obj.contains("f 5 6 7 8\n"));
        assert_eq!(obj.lines().filter(|l| l.starts_with("v ")).count(), 8);
    }
}
