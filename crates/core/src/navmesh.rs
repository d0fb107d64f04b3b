//! The common NavMesh every pipeline ends in, and its JSON contract.
//!
//! ```text
//! { "format": "navscope-navmesh", "version": 1, "pipeline": "convex", "level": "path",
//!   "nodes": [ { "id": 0, "position": [x,y,z], "polygon": [[x,y,z], ...] | null,
//!                "stance": "stand", "layer": 0 } ],
//!   "links": [ { "from": 0, "to": 1, "kind": "portal", "cost": 1.0,
//!                "segment": [[x,y,z],[x,y,z]] | null } ],
//!   "metrics": { "name": number }, "stages": [ { "id": "...", "ms": 0.4, "counts": {...} } ] }
//! ```
//! Node ids equal their index. Polygons are counter-clockwise seen from +Y.
//! Links are directed; a two-way connection is two links.

use std::collections::BTreeMap;

use glam::DVec3;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The value of `format` in NavMesh JSON.
pub const FORMAT: &str = "navscope-navmesh";
/// The NavMesh JSON version this build reads and writes.
pub const VERSION: u32 = 1;

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
}

impl LinkKind {
    /// Every kind, in declaration order.
    pub const ALL: [LinkKind; 8] = [
        LinkKind::Walk,
        LinkKind::StepUp,
        LinkKind::StepDown,
        LinkKind::Jump,
        LinkKind::Crouch,
        LinkKind::Ladder,
        LinkKind::Portal,
        LinkKind::Connection,
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
}

/// A directed link between two nodes.
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
    /// The crossing segment (portal, shared edge), if any.
    pub segment: Option<[DVec3; 2]>,
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
    #[error("version {0} is not supported (this build reads version {VERSION})")]
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
        }
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
        self.links.push(Link {
            from: a,
            to: b,
            kind,
            cost,
            segment,
        });
        self.links.push(Link {
            from: b,
            to: a,
            kind,
            cost,
            segment,
        });
    }

    /// Checks ids, link ends, costs and finiteness.
    pub fn validate(&self) -> Result<(), NavMeshError> {
        if self.format != FORMAT {
            return Err(NavMeshError::Format(self.format.clone()));
        }
        if self.version != VERSION {
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

    /// Reads and validates a JSON document.
    pub fn from_json(text: &str) -> Result<Self, NavMeshError> {
        let m: NavMesh = serde_json::from_str(text)?;
        m.validate()?;
        Ok(m)
    }

    /// Wavefront OBJ of the node polygons (one face per polygon node, `g`
    /// groups per stance), for inspection in any 3D tool.
    pub fn to_obj(&self) -> String {
        use std::fmt::Write;
        let mut s = format!(
            "# navscope navmesh: pipeline {}, level {}\n",
            self.pipeline, self.level
        );
        let mut next = 1usize;
        for stance in Stance::ALL {
            let nodes: Vec<_> = self
                .nodes
                .iter()
                .filter(|n| n.stance == stance && n.polygon.is_some())
                .collect();
            if nodes.is_empty() {
                continue;
            }
            let _ = writeln!(s, "g {}", stance.name());
            for n in nodes {
                let poly = n.polygon.as_ref().unwrap();
                for p in poly {
                    let _ = writeln!(s, "v {} {} {}", p.x, p.y, p.z);
                }
                let idx: Vec<String> = (next..next + poly.len()).map(|i| i.to_string()).collect();
                let _ = writeln!(s, "f {}", idx.join(" "));
                next += poly.len();
            }
        }
        s
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
    fn obj_export_groups_by_stance() {
        let obj = sample().to_obj();
        assert!(obj.contains("g stand\n"));
        assert!(obj.contains("g crouch\n"));
        assert!(obj.contains("f 1 2 3 4\n"));
        assert!(obj.contains("f 5 6 7 8\n"));
        assert_eq!(obj.lines().filter(|l| l.starts_with("v ")).count(), 8);
    }
}
