//! The stages of the `navgraph-nodes` pipeline (floor plans with
//! designer-placed nodes and blocking primitives), their artifacts and how
//! each draws itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{DVec2, Vec3};
use navscope_core::draw::{Primitive, Shape, SubStep};
use navscope_core::geom::{plan_to_world, world_to_plan};
use navscope_core::level::{Blocker, FloorPlan, LevelData};
use navscope_core::{Artifact, LinkKind, NavMesh, PathAnswer, StageContext, StageError, Stance};
use serde::Serialize;

use crate::nodes::{CellCheck, GraphEdge, Obstruction, delaunay_graph, node_path, voronoi_check};
use crate::primitives::outline;

fn v3(p: DVec2) -> Vec3 {
    plan_to_world(p, 0.0).as_vec3()
}

fn plan<'a>(ctx: &StageContext<'a>) -> Result<&'a FloorPlan, StageError> {
    match &ctx.level.data {
        LevelData::FloorPlan(p) => Ok(p),
        _ => Err(StageError::failed(format!(
            "{}: the navgraph-nodes pipeline needs a floor plan with nodes",
            ctx.level.source
        ))),
    }
}

fn node_points(plan: &FloorPlan) -> Vec<Primitive> {
    plan.nodes
        .iter()
        .enumerate()
        .flat_map(|(k, n)| {
            [
                Primitive::new("node", k as u32, Shape::Point(v3(n.at))),
                Primitive::new(
                    "node/label",
                    k as u32,
                    Shape::Label {
                        at: v3(n.at),
                        text: n.name.clone(),
                    },
                ),
            ]
        })
        .collect()
}

/// Stage 1's artifact.
#[derive(Debug, Serialize)]
pub struct InflatedArtifact {
    /// The blocking primitives as the level gives them.
    pub blockers: Vec<Blocker>,
    /// Outlines of the inflated primitives (plan), same order.
    pub inflated: Vec<Vec<DVec2>>,
    /// Agent radius used.
    pub radius: f64,
    /// The floor plan's walls (outer boundary and holes).
    pub walls: Vec<Vec<DVec2>>,
}

impl Artifact for InflatedArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("primitives".to_string(), self.blockers.len() as u64),
            ("walls".to_string(), self.walls.len() as u64),
        ])
    }

    /// `wall` rings (element: ring), `blocker` originals and
    /// `blocker/inflated` outlines (element: primitive).
    fn primitives(&self) -> Vec<Primitive> {
        let ring = |r: &[DVec2]| Shape::Polyline {
            points: r.iter().map(|p| v3(*p)).collect(),
            closed: true,
        };
        let mut out: Vec<Primitive> = self
            .walls
            .iter()
            .enumerate()
            .map(|(k, r)| Primitive::new("wall", k as u32, ring(r)))
            .collect();
        for (k, (b, inf)) in self.blockers.iter().zip(&self.inflated).enumerate() {
            out.push(Primitive::new(
                "blocker",
                k as u32,
                Shape::Polygon {
                    outer: outline(b, 0.0).iter().map(|p| v3(*p)).collect(),
                    holes: vec![],
                },
            ));
            out.push(Primitive::new("blocker/inflated", k as u32, ring(inf)));
        }
        out
    }
}

/// Stage 1: inflate the blocking primitives.
pub fn stage_inflate(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let p = plan(ctx)?;
    let radius = ctx.params.float("agent_radius");
    for (k, b) in p.blockers.iter().enumerate() {
        let ok = match *b {
            Blocker::Box {
                center,
                half,
                angle,
            } => {
                center.is_finite()
                    && half.is_finite()
                    && angle.is_finite()
                    && half.x >= 0.0
                    && half.y >= 0.0
            }
            Blocker::Cylinder { center, radius } => {
                center.is_finite() && radius.is_finite() && radius >= 0.0
            }
        };
        if !ok {
            return Err(StageError::failed(format!(
                "{}: blocker {k}: size or position is not a finite, non-negative number",
                ctx.level.source
            )));
        }
    }
    Ok(Arc::new(InflatedArtifact {
        blockers: p.blockers.clone(),
        inflated: p.blockers.iter().map(|b| outline(b, radius)).collect(),
        radius,
        walls: p.area.rings().map(|r| r.points.clone()).collect(),
    }))
}

/// Stage 2's artifact.
#[derive(Debug, Serialize)]
pub struct DelaunayArtifact {
    /// Every Delaunay edge with its status.
    pub edges: Vec<GraphEdge>,
    /// The graph of kept edges as a NavMesh of point nodes.
    pub mesh: NavMesh,
    #[serde(skip)]
    nodes: Vec<Primitive>,
    /// Node names, for the sub-steps.
    #[serde(skip)]
    names: Vec<String>,
    /// The inflated primitives, to show what blocks an edge.
    #[serde(skip)]
    inflated: Vec<Vec<DVec2>>,
}

impl Artifact for DelaunayArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let removed = self.edges.iter().filter(|e| e.removed.is_some()).count() as u64;
        let flagged = self
            .edges
            .iter()
            .filter(|e| e.corridor_hit.is_some())
            .count() as u64;
        BTreeMap::from([
            ("nodes".into(), self.mesh.nodes.len() as u64),
            ("edges".into(), self.edges.len() as u64 - removed),
            ("removed".into(), removed),
            ("flagged".into(), flagged),
        ])
    }

    /// `node` points and labels (element: node), edges as `edge/delaunay`,
    /// `edge/flagged` (corridor hits a primitive) or `edge/removed`
    /// (element: edge index).
    fn primitives(&self) -> Vec<Primitive> {
        let mut out = self.nodes.clone();
        let pos = |n: u32| self.mesh.nodes[n as usize].position.as_vec3();
        for (k, e) in self.edges.iter().enumerate() {
            out.push(
                Primitive::new(
                    edge_kind(e),
                    k as u32,
                    Shape::Segment(pos(e.nodes.0), pos(e.nodes.1)),
                )
                .during(k as u32, u32::MAX),
            );
        }
        out
    }

    /// The edges one at a time, in the order of their node pairs: each
    /// step says whether the edge is kept, flagged or removed and shows
    /// what blocks it (the inflated primitive as `blocker/inflated`).
    fn substeps(&self) -> Vec<SubStep> {
        self.edges
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let step = k as u32;
                let (a, b) = (&self.names[e.nodes.0 as usize], &self.names[e.nodes.1 as usize]);
                let what = |o: &Obstruction| match o {
                    Obstruction::Primitive(p) => format!("blocking primitive {p}"),
                    Obstruction::Wall => "a wall of the floor plan".to_string(),
                };
                let detail = match (&e.removed, &e.corridor_hit) {
                    (Some(o), _) => format!(
                        "Removed: the segment enters blocked space ({}, inflated by the agent radius).",
                        what(o)
                    ),
                    (None, Some(o)) => format!(
                        "Kept but flagged: the segment is clear, but the corridor between the two node disks touches {}.",
                        what(o)
                    ),
                    (None, None) => "Kept: the segment and the corridor between the two node disks are clear.".to_string(),
                };
                let mut highlights = Vec::new();
                if let Some(Obstruction::Primitive(p)) = e.removed.as_ref().or(e.corridor_hit.as_ref()) {
                    highlights.push(
                        Primitive::new(
                            "blocker/inflated",
                            *p as u32,
                            Shape::Polyline {
                                points: self.inflated[*p].iter().map(|q| v3(*q)).collect(),
                                closed: true,
                            },
                        )
                        .during(step, step),
                    );
                }
                SubStep {
                    title: format!("edge {} of {}: {a} - {b}", k + 1, self.edges.len()),
                    detail,
                    highlights,
                }
            })
            .collect()
    }

    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.mesh)
    }
}

/// Stage 2: Delaunay graph of the nodes.
pub fn stage_delaunay(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let p = plan(ctx)?;
    let inflated = ctx.artifact::<InflatedArtifact>("inflate")?;
    let edges = delaunay_graph(
        p,
        ctx.params.float("agent_radius"),
        ctx.params.float("node_radius"),
    )
    .map_err(|e| StageError::failed(format!("{}: {e}", ctx.level.source)))?;
    let mut mesh = NavMesh::new("navgraph-nodes", &ctx.level.source);
    for n in &p.nodes {
        mesh.add_node(plan_to_world(n.at, 0.0), None, Stance::Stand, 0);
    }
    for e in edges.iter().filter(|e| e.removed.is_none()) {
        let (a, b) = e.nodes;
        mesh.add_two_way(
            a,
            b,
            LinkKind::Walk,
            p.nodes[a as usize].at.distance(p.nodes[b as usize].at),
            None,
        );
    }
    Ok(Arc::new(DelaunayArtifact {
        edges,
        mesh,
        nodes: node_points(p),
        names: p.nodes.iter().map(|n| n.name.clone()).collect(),
        inflated: inflated.inflated.clone(),
    }))
}

/// The kind an edge is drawn as.
fn edge_kind(e: &GraphEdge) -> &'static str {
    if e.removed.is_some() {
        "edge/removed"
    } else if e.corridor_hit.is_some() {
        "edge/flagged"
    } else {
        "edge/delaunay"
    }
}

/// Stage 3's artifact.
#[derive(Debug, Serialize)]
pub struct VoronoiArtifact {
    /// The check of every node (same order as the level's nodes).
    pub cells: Vec<CellCheck>,
    /// Node names, for messages.
    pub names: Vec<String>,
    #[serde(skip)]
    edges: Vec<(DVec2, DVec2)>,
    /// What a path query needs: the plan, the agent radius and the graph.
    #[serde(skip)]
    query: (FloorPlan, f64, NavMesh),
}

impl VoronoiArtifact {
    /// `(node name, reason)` for every badly placed node.
    pub fn bad_nodes(&self) -> Vec<(&str, &str)> {
        self.cells
            .iter()
            .zip(&self.names)
            .filter_map(|(c, n)| Some((n.as_str(), c.problem.as_deref()?)))
            .collect()
    }
}

impl Artifact for VoronoiArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let bad = self.cells.iter().filter(|c| c.problem.is_some()).count() as u64;
        BTreeMap::from([
            ("cells".into(), self.cells.len() as u64),
            ("bad_nodes".into(), bad),
        ])
    }

    /// Each node's free cell `V'` as `voronoi/cell`, or `voronoi/bad` for a
    /// badly placed node (element: node), its whole Voronoi cell outline as
    /// `voronoi/outline`, and a bad node's removed edges as `edge/missing`.
    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        for (k, c) in self.cells.iter().enumerate() {
            let kind = if c.problem.is_some() {
                "voronoi/bad"
            } else {
                "voronoi/cell"
            };
            for shape in &c.free {
                let outer = shape[0].iter().map(|p| v3(*p)).collect();
                let holes = shape[1..]
                    .iter()
                    .map(|h| h.iter().map(|p| v3(*p)).collect())
                    .collect();
                out.push(Primitive::new(
                    kind,
                    k as u32,
                    Shape::Polygon { outer, holes },
                ));
            }
            out.push(Primitive::new(
                "voronoi/outline",
                k as u32,
                Shape::Polyline {
                    points: c.cell.iter().map(|p| v3(*p)).collect(),
                    closed: true,
                },
            ));
            for &e in &c.missing_edges {
                let (a, b) = self.edges[e];
                out.push(Primitive::new(
                    "edge/missing",
                    k as u32,
                    Shape::Segment(v3(a), v3(b)),
                ));
            }
        }
        out
    }

    /// The path over the nodes, each end located by visibility
    /// ([`node_path`]): `path` (element 0), `path/locate` legs from the
    /// query points to their nodes (element 0 start, 1 goal), and nearer
    /// nodes hidden behind walls as `node/hidden` (element: node).
    fn path_between(&self, from: Vec3, to: Vec3) -> Option<Result<PathAnswer, String>> {
        let (plan, radius, mesh) = &self.query;
        let (a, b) = (world_to_plan(from.as_dvec3()), world_to_plan(to.as_dvec3()));
        Some(node_path(plan, *radius, mesh, a, b).and_then(|p| {
            let p = p.ok_or("the start's and the goal's nodes are not connected")?;
            let mut primitives = vec![Primitive::new(
                "path",
                0,
                Shape::Polyline {
                    points: p.points.iter().map(|q| v3(*q)).collect(),
                    closed: false,
                },
            )];
            let n = p.points.len();
            for (k, (q, r)) in [(p.points[0], p.points[1]), (p.points[n - 1], p.points[n - 2])]
                .into_iter()
                .enumerate()
            {
                primitives.push(Primitive::new(
                    "path/locate",
                    k as u32,
                    Shape::Segment(v3(q), v3(r)),
                ));
            }
            for &h in p.hidden_from_start.iter().chain(&p.hidden_from_goal) {
                primitives.push(Primitive::new(
                    "node/hidden",
                    h,
                    Shape::Point(v3(plan.nodes[h as usize].at)),
                ));
            }
            let hidden = p.hidden_from_start.len() + p.hidden_from_goal.len();
            Ok(PathAnswer {
                waypoints: p.points.iter().map(|q| v3(*q)).collect(),
                length: p.length,
                summary: format!(
                    "start at node '{}', goal at node '{}' (nearest visible; {hidden} nearer nodes hidden) · {} expansions",
                    self.names[p.nodes[0] as usize],
                    self.names[p.nodes[p.nodes.len() - 1] as usize],
                    p.expansions
                ),
                primitives,
            })
        }))
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        let Some(c) = self.cells.get(element as usize) else {
            return serde_json::Value::Null;
        };
        serde_json::json!({ "node": self.names[element as usize], "problem": c.problem, "missing_edges": c.missing_edges })
    }
}

/// Stage 3: the Voronoi check.
pub fn stage_voronoi(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let p = plan(ctx)?;
    let d = ctx.artifact::<DelaunayArtifact>("delaunay")?;
    let cells =
        voronoi_check(p, ctx.params.float("agent_radius"), &d.edges).map_err(StageError::Failed)?;
    let edges = d
        .edges
        .iter()
        .map(|e| {
            (
                p.nodes[e.nodes.0 as usize].at,
                p.nodes[e.nodes.1 as usize].at,
            )
        })
        .collect();
    Ok(Arc::new(VoronoiArtifact {
        cells,
        names: p.nodes.iter().map(|n| n.name.clone()).collect(),
        edges,
        query: (p.clone(), ctx.params.float("agent_radius"), d.mesh.clone()),
    }))
}
