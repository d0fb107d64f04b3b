//! The pipeline's stages and their artifacts.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{DVec2, Vec3};
use navscope_core::draw::{Primitive, Shape, SubStep};
use navscope_core::geom::world_to_plan;
use navscope_core::level::{LayerPlane, LayeredLevel, LevelData};
use navscope_core::navmesh::{LinkKind, NavMesh, Stance};
use navscope_core::{Artifact, PathAnswer, StageContext, StageError};
use serde::Serialize;

use crate::axis::{Axis, layer_axes};
use crate::grid::Grid;
use crate::open::{Opening, Scene, Settings, Zone, merge, scene, zone};
use crate::paths::{CorridorPath, LayerPoint, find_path, surface_length};
use crate::sites::Sites;

/// The world point of plan point `p` on a layer's plane.
fn w(p: DVec2, plane: LayerPlane) -> Vec3 {
    plane.lift(p).as_vec3()
}

fn layered<'a>(ctx: &StageContext<'a>) -> Result<&'a LayeredLevel, StageError> {
    match &ctx.level.data {
        LevelData::Layers(l) => Ok(l),
        _ => Err(StageError::failed(format!(
            "{}: the layers pipeline needs a multi-layer environment, not a {}",
            ctx.level.source,
            ctx.level.kind().name()
        ))),
    }
}

/// The opening settings from the parameters.
pub fn settings(ctx: &StageContext) -> Settings {
    crate::settings(ctx.params.float("grid"), ctx.params.float("arc_tolerance"))
}

/// Stage `layer-axes`: sites and the per-layer medial axes.
#[derive(Debug, Serialize)]
pub struct LayerAxes {
    /// Layer planes (height over the plan).
    pub planes: Vec<LayerPlane>,
    /// Obstacle sites.
    pub sites: Sites,
    /// The per-layer axes, every connection closed.
    pub axis: Axis,
}

fn draw_obstacles(sites: &Sites, planes: &[LayerPlane], out: &mut Vec<Primitive>) {
    let mut id = 0;
    for (l, area) in sites.areas.iter().enumerate() {
        for ring in area.rings() {
            for (_, a, b) in ring.edges() {
                out.push(
                    Primitive::new(
                        "obstacle",
                        id,
                        Shape::Segment(w(a, planes[l]), w(b, planes[l])),
                    )
                    .on_layer(l as u32),
                );
                id += 1;
            }
        }
    }
    for (c, cn) in sites.conns.iter().enumerate() {
        for l in [cn.from, cn.to] {
            out.push(
                Primitive::new(
                    "connection",
                    c as u32,
                    Shape::Segment(w(cn.a, planes[l]), w(cn.b, planes[l])),
                )
                .on_layer(l as u32),
            );
        }
        out.push(
            Primitive::new(
                "connection/label",
                c as u32,
                Shape::Label {
                    at: w((cn.a + cn.b) * 0.5, planes[cn.from]),
                    text: format!("C{c}"),
                },
            )
            .on_layer(cn.from as u32),
        );
    }
}

/// Draws an axis: each edge as one `{kind}/edge` segment per chord of its
/// polyline, carrying the clearance at the chord's midpoint
/// ([`crate::axis::AxisEdge::piece_clearance`]) so a viewer can colour the
/// axis by clearance; each vertex as a `{kind}/vertex` point carrying its
/// clearance; both on their layer. Joins link two layers and carry none
/// (`{kind}/join`).
fn draw_axis(axis: &Axis, planes: &[LayerPlane], kind: &str, out: &mut Vec<Primitive>) {
    let edge_kind = format!("{kind}/edge");
    for (i, e) in axis.edges.iter().enumerate() {
        let h = planes[e.layer];
        for (k, c) in e.points.windows(2).enumerate() {
            let clearance = e.piece_clearance(k).unwrap_or(0.0);
            out.push(
                Primitive::new(
                    edge_kind.clone(),
                    i as u32,
                    Shape::Segment(w(c[0].at, h), w(c[1].at, h)),
                )
                .on_layer(e.layer as u32)
                .with_value(clearance as f32),
            );
        }
    }
    let base = axis.edges.len() as u32;
    for (i, v) in axis.vertices.iter().enumerate() {
        out.push(
            Primitive::new(
                format!("{kind}/vertex"),
                base + i as u32,
                Shape::Point(w(v.at, planes[v.layer])),
            )
            .on_layer(v.layer as u32)
            .with_value(v.clearance as f32),
        );
    }
    for j in &axis.joins {
        let (a, b) = (
            axis.vertices[j.vertices[0] as usize],
            axis.vertices[j.vertices[1] as usize],
        );
        out.push(Primitive::new(
            format!("{kind}/join"),
            base + j.vertices[0],
            Shape::Segment(w(a.at, planes[a.layer]), w(b.at, planes[b.layer])),
        ));
    }
}

impl Artifact for LayerAxes {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("layers".into(), self.planes.len() as u64),
            (
                "inclined layers".into(),
                self.planes.iter().filter(|p| !p.is_level()).count() as u64,
            ),
            ("sites".into(), self.sites.list.len() as u64),
            ("edges".into(), self.axis.edges.len() as u64),
            ("vertices".into(), self.axis.vertices.len() as u64),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        draw_obstacles(&self.sites, &self.planes, &mut out);
        draw_axis(&self.axis, &self.planes, "axis", &mut out);
        out
    }
    fn describe(&self, element: u32) -> serde_json::Value {
        let e = element as usize;
        if let Some(edge) = self.axis.edges.get(e) {
            return serde_json::to_value(edge).unwrap_or_default();
        }
        serde_json::to_value(self.axis.vertices.get(e - self.axis.edges.len())).unwrap_or_default()
    }
}

/// Runs `layer-axes`.
pub fn run_layer_axes(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = layered(ctx)?;
    let set = settings(ctx);
    let sites = Sites::build(level, set.grid)
        .map_err(|e| StageError::failed(format!("{}: {e}", ctx.level.source)))?;
    let axis = layer_axes(&sites, set.grid, set.tolerance, set.snap).map_err(StageError::failed)?;
    Ok(Arc::new(LayerAxes {
        planes: level.layers.iter().map(|l| l.plane()).collect(),
        sites,
        axis,
    }))
}

/// Stage `influence-zones`: the zone of every connection on the layer axes.
#[derive(Debug, Serialize)]
pub struct Zones {
    /// Layer planes.
    pub planes: Vec<LayerPlane>,
    /// One zone per connection that opens something (repeats have none).
    pub zones: Vec<Zone>,
    /// `(from, to)` layers per zone.
    pub layers: Vec<(usize, usize)>,
}

/// The two shaded sides of a zone, each on its layer (`layers` is
/// `(from, to)`).
fn zone_prims(z: &Zone, planes: &[LayerPlane], layers: (usize, usize), id: u32) -> Vec<Primitive> {
    let mut v = Vec::new();
    for (side, l) in [(0, layers.0), (1, layers.1)] {
        if z.outline[side].len() >= 3 {
            v.push(
                Primitive::new(
                    "influence-zone",
                    id,
                    Shape::Polygon {
                        outer: z.outline[side].iter().map(|&p| w(p, planes[l])).collect(),
                        holes: Vec::new(),
                    },
                )
                .on_layer(l as u32),
            );
        }
    }
    v
}

impl Artifact for Zones {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("zones".into(), self.zones.len() as u64),
            (
                "bounding edges".into(),
                self.zones.iter().map(|z| z.edges.len() as u64).sum(),
            ),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        self.zones
            .iter()
            .zip(&self.layers)
            .flat_map(|(z, &layers)| zone_prims(z, &self.planes, layers, z.connection as u32))
            .collect()
    }
}

/// Runs `influence-zones`.
pub fn run_zones(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let la = ctx.artifact::<LayerAxes>("layer-axes")?;
    let mut zones = Vec::new();
    let mut layers = Vec::new();
    for (c, cn) in la.sites.conns.iter().enumerate() {
        if cn.same_as == c {
            zones.push(zone(&la.axis, &la.sites, c).map_err(StageError::failed)?);
            layers.push((cn.from, cn.to));
        }
    }
    Ok(Arc::new(Zones {
        planes: la.planes.clone(),
        zones,
        layers,
    }))
}

/// Stage `connection-scenes`: the scene of every zone.
#[derive(Debug, Serialize)]
pub struct Scenes {
    /// Height of each scene's plane (its connection's `from` layer).
    pub planes: Vec<LayerPlane>,
    /// The layer each scene is drawn on: its connection's `from` layer,
    /// the plane the paper projects the scene onto.
    pub layers: Vec<usize>,
    /// Scenes, in zone order.
    pub scenes: Vec<Scene>,
    /// Grid step (m), to draw grid coordinates.
    pub grid: f64,
}

/// A scene's obstacles, projected onto the plane of layer `layer` at
/// height `h` (its connection's `from` layer) and tagged with it.
fn scene_prims(s: &Scene, h: LayerPlane, layer: usize, grid: f64, id: u32) -> Vec<Primitive> {
    let g = Grid { step: grid };
    let l = layer as u32;
    let mut v: Vec<Primitive> = s
        .segments
        .iter()
        .map(|q| {
            Primitive::new(
                "scene/obstacle",
                id,
                Shape::Segment(w(g.plan(q[0]), h), w(g.plan(q[1]), h)),
            )
            .on_layer(l)
        })
        .collect();
    v.extend(s.points.iter().map(|&p| {
        Primitive::new("scene/obstacle/point", id, Shape::Point(w(g.plan(p), h))).on_layer(l)
    }));
    v
}

impl Artifact for Scenes {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("scenes".into(), self.scenes.len() as u64),
            (
                "segments".into(),
                self.scenes.iter().map(|s| s.segments.len() as u64).sum(),
            ),
            (
                "points".into(),
                self.scenes.iter().map(|s| s.points.len() as u64).sum(),
            ),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        self.scenes
            .iter()
            .zip(self.planes.iter().zip(&self.layers))
            .flat_map(|(s, (&h, &l))| scene_prims(s, h, l, self.grid, s.connection as u32))
            .collect()
    }
}

/// Runs `connection-scenes`.
pub fn run_scenes(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let la = ctx.artifact::<LayerAxes>("layer-axes")?;
    let zs = ctx.artifact::<Zones>("influence-zones")?;
    let grid = settings(ctx).grid;
    let scenes: Vec<Scene> = zs.zones.iter().map(|z| scene(&la.sites, z)).collect();
    let planes = zs.layers.iter().map(|&(f, _)| la.planes[f]).collect();
    Ok(Arc::new(Scenes {
        planes,
        layers: zs.layers.iter().map(|&(f, _)| f).collect(),
        scenes,
        grid: grid.step,
    }))
}

/// Stage `open-connections`: the merged medial axis, one sub-step per
/// connection.
#[derive(Debug, Serialize)]
pub struct Merged {
    /// Layer planes.
    pub planes: Vec<LayerPlane>,
    /// The merged axis.
    pub axis: Axis,
    /// What each opening did, in order.
    pub openings: Vec<Opening>,
    /// `(from, to)` layers per connection.
    pub layers: Vec<(usize, usize)>,
    /// Grid step (m).
    pub grid: f64,
    /// The layer axes' edges (layer, polyline), where the openings start.
    #[serde(skip)]
    pub initial: Vec<(usize, Vec<DVec2>)>,
}

/// An edge polyline as exact bits, to match removed edges with inserted ones.
fn edge_key((layer, pts): &(usize, Vec<DVec2>)) -> (usize, Vec<[u64; 2]>) {
    (
        *layer,
        pts.iter().map(|p| [p.x.to_bits(), p.y.to_bits()]).collect(),
    )
}

impl Merged {
    /// The axis as it was before opening `k` (layer, polyline per edge):
    /// the layer axes with the earlier openings' insertions and removals.
    pub fn axis_before(&self, k: usize) -> Vec<(usize, Vec<DVec2>)> {
        type Count = BTreeMap<(usize, Vec<[u64; 2]>), (usize, Vec<DVec2>, usize)>;
        fn put(edges: &mut Count, e: &(usize, Vec<DVec2>)) {
            edges.entry(edge_key(e)).or_insert((e.0, e.1.clone(), 0)).2 += 1;
        }
        let mut edges = Count::new();
        self.initial.iter().for_each(|e| put(&mut edges, e));
        for o in &self.openings[..k.min(self.openings.len())] {
            o.added.iter().for_each(|e| put(&mut edges, e));
            for e in &o.removed {
                if let Some(entry) = edges.get_mut(&edge_key(e)) {
                    entry.2 = entry.2.saturating_sub(1);
                }
            }
        }
        edges
            .into_values()
            .flat_map(|(l, p, n)| std::iter::repeat_n((l, p), n))
            .collect()
    }

    fn polylines(
        &self,
        kind: &str,
        id: u32,
        edges: &[(usize, Vec<DVec2>)],
        step: u32,
    ) -> Vec<Primitive> {
        edges
            .iter()
            .map(|(l, p)| {
                Primitive::new(
                    kind.to_owned(),
                    id,
                    Shape::Polyline {
                        points: p.iter().map(|&q| w(q, self.planes[*l])).collect(),
                        closed: false,
                    },
                )
                .on_layer(*l as u32)
                .during(step, step)
            })
            .collect()
    }
}

impl Artifact for Merged {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("edges".into(), self.axis.edges.len() as u64),
            ("vertices".into(), self.axis.vertices.len() as u64),
            ("joins".into(), self.axis.joins.len() as u64),
            (
                "unmatched crossings".into(),
                self.openings.iter().map(|o| o.unmatched as u64).sum(),
            ),
        ])
    }
    /// The merged axis, from the last sub-step on (before it, each
    /// opening's sub-step shows the axis as it was then).
    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        draw_axis(&self.axis, &self.planes, "axis", &mut out);
        let last = self.openings.len() as u32;
        out.into_iter().map(|p| p.during(last, u32::MAX)).collect()
    }
    /// One sub-step per opening: the axis before it (`axis/before`), the
    /// zone and scene it was opened with, the edges it removes
    /// (`axis/edge/removed`) and adds (`axis/edge/added`); then the merged
    /// axis.
    fn substeps(&self) -> Vec<SubStep> {
        let mut steps: Vec<SubStep> = self.openings
            .iter()
            .enumerate()
            .map(|(k, o)| {
                let (f, t) = self.layers[o.connection];
                let hf = self.planes[f];
                let id = o.connection as u32;
                let mut highlights = self.polylines("axis/before", id, &self.axis_before(k), k as u32);
                highlights.extend(self.polylines("axis/edge/removed", id, &o.removed, k as u32));
                if let Some(z) = &o.zone {
                    highlights.extend(zone_prims(z, &self.planes, (f, t), id));
                }
                if let Some(s) = &o.scene {
                    highlights.extend(scene_prims(s, hf, f, self.grid, id));
                }
                for p in &o.scene_axis {
                    highlights.push(Primitive::new("scene/axis", id, Shape::Polyline { points: p.iter().map(|&q| w(q, hf)).collect(), closed: false }).on_layer(f as u32));
                }
                for (l, p) in &o.added {
                    highlights.push(Primitive::new("axis/edge/added", id, Shape::Polyline { points: p.iter().map(|&q| w(q, self.planes[*l])).collect(), closed: false }).on_layer(*l as u32));
                }
                let detail = match o.same_as {
                    Some(d) => format!("Connection {} makes the same join as connection {d}, already open.", o.connection),
                    None => format!(
                        "Removed the {} axis edges bounding the influence zone, computed the Voronoi diagram of the {} scene segments and {} points, and inserted the {} pieces inside the zone.",
                        o.removed.len(),
                        o.scene.as_ref().map_or(0, |s| s.segments.len()),
                        o.scene.as_ref().map_or(0, |s| s.points.len()),
                        o.added.len()
                    ),
                };
                SubStep { title: format!("connection {} ({} of {})", o.connection, k + 1, self.openings.len()), detail, highlights }
            })
            .collect();
        steps.push(SubStep {
            title: "merged axis".into(),
            detail: format!(
                "Every connection is open: {} edges, {} joins between layers.",
                self.axis.edges.len(),
                self.axis.joins.len()
            ),
            highlights: Vec::new(),
        });
        steps
    }
}

/// Runs `open-connections`.
pub fn run_open(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let la = ctx.artifact::<LayerAxes>("layer-axes")?;
    let set = settings(ctx);
    let order = crate::opening_order(
        la.sites.conns.len(),
        ctx.params.int("opening_order").max(0) as u64,
    );
    let (axis, openings) = merge(&la.axis, &la.sites, &set, &order).map_err(StageError::failed)?;
    let layers = la.sites.conns.iter().map(|c| (c.from, c.to)).collect();
    Ok(Arc::new(Merged {
        planes: la.planes.clone(),
        axis,
        openings,
        layers,
        grid: set.grid.step,
        initial: la
            .axis
            .edges
            .iter()
            .map(|e| (e.layer, e.points.iter().map(|p| p.at).collect()))
            .collect(),
    }))
}

/// Stage `corridor-map`: the explicit corridor map, the merged axis with
/// its closest-point annotations and the walkable areas they bound.
#[derive(Debug, Serialize)]
pub struct CorridorMap {
    /// Layer planes.
    pub planes: Vec<LayerPlane>,
    /// The annotated merged axis.
    pub axis: Axis,
}

impl CorridorMap {
    /// The walkable areas: for every edge and each side, the polygon
    /// between the edge and its closest points on that side.
    pub fn areas(&self) -> Vec<(usize, usize, Vec<DVec2>)> {
        let mut v = Vec::new();
        for (i, e) in self.axis.edges.iter().enumerate() {
            for side in 0..2 {
                let mut poly: Vec<DVec2> = e.points.iter().map(|p| p.at).collect();
                poly.extend(e.points.iter().rev().map(|p| p.closest[side]));
                poly.dedup();
                v.push((i, e.layer, poly));
            }
        }
        v
    }
}

impl Artifact for CorridorMap {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("edges".into(), self.axis.edges.len() as u64),
            (
                "closest-point pairs".into(),
                self.axis.edges.iter().map(|e| e.points.len() as u64).sum(),
            ),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        for (i, l, poly) in self.areas() {
            if poly.len() >= 3 {
                let mut poly = poly;
                let area: f64 = (0..poly.len())
                    .map(|k| poly[k].perp_dot(poly[(k + 1) % poly.len()]))
                    .sum();
                if area < 0.0 {
                    poly.reverse();
                }
                out.push(
                    Primitive::new(
                        "corridor/area",
                        i as u32,
                        Shape::Polygon {
                            outer: poly.iter().map(|&p| w(p, self.planes[l])).collect(),
                            holes: Vec::new(),
                        },
                    )
                    .on_layer(l as u32),
                );
            }
        }
        for (i, e) in self.axis.edges.iter().enumerate() {
            let h = self.planes[e.layer];
            for p in &e.points {
                for q in p.closest {
                    out.push(
                        Primitive::new(
                            "corridor/closest",
                            i as u32,
                            Shape::Segment(w(p.at, h), w(q, h)),
                        )
                        .on_layer(e.layer as u32)
                        .with_value(p.clearance as f32),
                    );
                }
            }
        }
        let base = self.axis.edges.len() as u32;
        for (i, v) in self.axis.vertices.iter().enumerate() {
            let h = self.planes[v.layer];
            let pts = (0..24)
                .map(|k| {
                    w(
                        v.at + DVec2::from_angle(k as f64 * std::f64::consts::TAU / 24.0)
                            * v.clearance,
                        h,
                    )
                })
                .collect();
            out.push(
                Primitive::new(
                    "corridor/disk",
                    base + i as u32,
                    Shape::Polyline {
                        points: pts,
                        closed: true,
                    },
                )
                .on_layer(v.layer as u32)
                .with_value(v.clearance as f32),
            );
        }
        draw_axis(&self.axis, &self.planes, "axis", &mut out);
        out
    }
    fn metrics(&self) -> BTreeMap<String, f64> {
        let len: f64 = self.axis.edges.iter().map(|e| e.length()).sum();
        let minc = self
            .axis
            .edges
            .iter()
            .flat_map(|e| e.points.iter().map(|p| p.clearance))
            .fold(f64::INFINITY, f64::min);
        BTreeMap::from([
            ("axis_length_m".into(), len),
            (
                "min_clearance_m".into(),
                if minc.is_finite() { minc } else { 0.0 },
            ),
        ])
    }
}

/// Runs `corridor-map`.
pub fn run_corridor(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let m = ctx.artifact::<Merged>("open-connections")?;
    Ok(Arc::new(CorridorMap {
        planes: m.planes.clone(),
        axis: m.axis.clone(),
    }))
}

/// Stage `navmesh`: the common NavMesh.
#[derive(Debug, Serialize)]
pub struct Mesh {
    /// The mesh.
    pub mesh: NavMesh,
}

/// The NavMesh of an annotated axis: a point node per vertex (on its
/// layer's plane, with its layer), two walk links per edge (cost: the
/// polyline's length on its layer's plane) and two `connection` links per
/// join (cost: the height difference, zero where an inclined layer meets
/// the next at its height).
pub fn navmesh_of(axis: &Axis, planes: &[LayerPlane]) -> NavMesh {
    let mut mesh = NavMesh::new("layers", "");
    for v in &axis.vertices {
        mesh.add_node(
            planes[v.layer].lift(v.at),
            None,
            Stance::Stand,
            v.layer as u32,
        );
    }
    for e in &axis.edges {
        let [a, b] = e.ends;
        let seg = [
            mesh.nodes[a as usize].position,
            mesh.nodes[b as usize].position,
        ];
        let length = surface_length(planes[e.layer], e.points.iter().map(|p| p.at));
        mesh.add_two_way(a, b, LinkKind::Walk, length, Some(seg));
    }
    for j in &axis.joins {
        let [a, b] = j.vertices;
        let (pa, pb) = (
            mesh.nodes[a as usize].position,
            mesh.nodes[b as usize].position,
        );
        mesh.add_two_way(
            a,
            b,
            LinkKind::Connection,
            (pa.y - pb.y).abs(),
            Some([pa, pb]),
        );
    }
    mesh
}

impl Artifact for Mesh {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("nodes".into(), self.mesh.nodes.len() as u64),
            ("links".into(), self.mesh.links.len() as u64),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        let nodes = &self.mesh.nodes;
        let mut out: Vec<Primitive> = nodes
            .iter()
            .map(|n| {
                Primitive::new("node", n.id, Shape::Point(n.position.as_vec3())).on_layer(n.layer)
            })
            .collect();
        for l in &self.mesh.links {
            if let Some([a, b]) = l.segment() {
                let p = Primitive::new(
                    format!("link/{}", l.kind.name()),
                    l.from,
                    Shape::Segment(a.as_vec3(), b.as_vec3()),
                );
                // Walk links stay on their layer; connection links join two.
                let (lf, lt) = (nodes[l.from as usize].layer, nodes[l.to as usize].layer);
                out.push(if lf == lt { p.on_layer(lf) } else { p });
            }
        }
        out
    }
    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.mesh)
    }
}

/// Runs `navmesh`.
pub fn run_navmesh(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let c = ctx.artifact::<CorridorMap>("corridor-map")?;
    Ok(Arc::new(Mesh {
        mesh: navmesh_of(&c.axis, &c.planes),
    }))
}

/// The paths stage's sub-steps: the primitive kinds each one adds, and
/// its title.
pub const PATH_STEPS: [(&[&str], &str); 4] = [
    (
        &["path/start", "path/goal", "path/retraction"],
        "retraction",
    ),
    (&["path/backbone"], "A* on the backbone"),
    (&["path/corridor"], "corridor"),
    (&["path/short"], "pull"),
];

/// Stage `paths`: a query on the corridor map between the roomiest points
/// of the lowest and the highest layer (arbitrary queries:
/// [`crate::paths::find_path`]).
#[derive(Debug, Serialize)]
pub struct PathDemo {
    /// Layer planes.
    pub planes: Vec<LayerPlane>,
    /// The corridor map's axis (for drawing the corridor).
    pub axis: Axis,
    /// The path, or why there is none.
    pub path: Result<CorridorPath, String>,
    /// The requested clearance (m).
    pub clearance: f64,
    /// The obstacle sites, to answer further queries.
    #[serde(skip)]
    pub sites: Arc<Sites>,
}

impl PathDemo {
    /// Draws a path: its corridor (the walkable areas of its axis edges),
    /// the backbone, the short path, the retractions and the two ends.
    fn path_primitives(&self, p: &CorridorPath) -> Vec<Primitive> {
        let mut out = Vec::new();
        let h = |l: usize| self.planes[l];
        for &e in &p.corridor {
            let edge = &self.axis.edges[e];
            for side in 0..2 {
                let mut poly: Vec<DVec2> = edge.points.iter().map(|q| q.at).collect();
                poly.extend(edge.points.iter().rev().map(|q| q.closest[side]));
                poly.dedup();
                let area: f64 = (0..poly.len())
                    .map(|k| poly[k].perp_dot(poly[(k + 1) % poly.len()]))
                    .sum();
                if area < 0.0 {
                    poly.reverse();
                }
                if poly.len() >= 3 {
                    out.push(
                        Primitive::new(
                            "path/corridor",
                            e as u32,
                            Shape::Polygon {
                                outer: poly.iter().map(|&q| w(q, h(edge.layer))).collect(),
                                holes: Vec::new(),
                            },
                        )
                        .on_layer(edge.layer as u32),
                    );
                }
            }
        }
        let backbone: Vec<(usize, DVec2)> = p.backbone.iter().map(|b| (b.layer, b.at)).collect();
        let short: Vec<(usize, DVec2)> = p.path.iter().map(|q| (q.layer, q.at)).collect();
        for (kind, id, pts) in [("path/backbone", 0, &backbone), ("path/short", 1, &short)] {
            draw_layer_runs(kind, id, pts, &self.planes, &mut out);
        }
        for k in 0..2 {
            let (e, r) = (p.ends[k], p.retracted[k]);
            let seg = Primitive::new(
                "path/retraction",
                2 + k as u32,
                Shape::Segment(w(e.at, h(e.layer)), w(r.at, h(r.layer))),
            );
            out.push(if e.layer == r.layer {
                seg.on_layer(e.layer as u32)
            } else {
                seg
            });
            out.push(
                Primitive::new(
                    if k == 0 { "path/start" } else { "path/goal" },
                    2 + k as u32,
                    Shape::Point(w(e.at, h(e.layer))),
                )
                .on_layer(e.layer as u32),
            );
        }
        out
    }
}

impl Artifact for PathDemo {
    fn counts(&self) -> BTreeMap<String, u64> {
        match &self.path {
            Ok(p) => BTreeMap::from([
                ("corridor edges".into(), p.corridor.len() as u64),
                ("path points".into(), p.path.len() as u64),
                ("expansions".into(), p.expansions as u64),
            ]),
            Err(_) => BTreeMap::from([("paths".into(), 0)]),
        }
    }
    /// The demonstration path, built up over the sub-steps: ends and
    /// retractions, then the backbone, the corridor and the short path.
    fn primitives(&self) -> Vec<Primitive> {
        match &self.path {
            Ok(p) => self
                .path_primitives(p)
                .into_iter()
                .map(|q| {
                    let first = PATH_STEPS
                        .iter()
                        .position(|(kinds, ..)| kinds.iter().any(|k| q.kind.starts_with(k)))
                        .unwrap_or(0);
                    q.during(first as u32, u32::MAX)
                })
                .collect(),
            Err(_) => Vec::new(),
        }
    }
    /// Retraction, A* on the backbone, corridor, pull (see [`PATH_STEPS`]).
    fn substeps(&self) -> Vec<SubStep> {
        let Ok(p) = &self.path else {
            return Vec::new();
        };
        let facts = [
            format!(
                "The start and the goal move straight away from their nearest obstacle onto the medial axis ({:.2} m and {:.2} m).",
                p.ends[0].at.distance(p.retracted[0].at),
                p.ends[1].at.distance(p.retracted[1].at)
            ),
            format!(
                "A* along the axis, using only edges (and parts of edges) that keep {:.2} m from every obstacle: {} expansions, a backbone of {} points.",
                self.clearance,
                p.expansions,
                p.backbone.len()
            ),
            format!(
                "The walkable areas of the {} axis edges the backbone follows form the corridor: every point in it sees its edge's closest obstacle points.",
                p.corridor.len()
            ),
            format!(
                "The backbone pulled tight inside its clearance disks shrunk by {:.2} m: {} points, {:.2} m long.",
                self.clearance,
                p.path.len(),
                p.length
            ),
        ];
        PATH_STEPS
            .iter()
            .zip(facts)
            .map(|((_, title), detail)| SubStep {
                title: (*title).to_string(),
                detail,
                highlights: Vec::new(),
            })
            .collect()
    }
    fn path_between(&self, from: Vec3, to: Vec3) -> Option<Result<PathAnswer, String>> {
        let answer = || -> Result<PathAnswer, String> {
            let start = locate(&self.sites, &self.planes, from, "start")?;
            let goal = locate(&self.sites, &self.planes, to, "goal")?;
            let p = find_path(
                &self.axis,
                &self.sites,
                &self.planes,
                start,
                goal,
                self.clearance,
            )?;
            Ok(PathAnswer {
                waypoints: p
                    .path
                    .iter()
                    .map(|q| w(q.at, self.planes[q.layer]))
                    .collect(),
                length: p.length,
                summary: format!(
                    "keeps {:.2} m from every obstacle · corridor of {} axis edges · {} expansions",
                    self.clearance,
                    p.corridor.len(),
                    p.expansions
                ),
                primitives: self.path_primitives(&p),
            })
        };
        Some(answer())
    }
    fn metrics(&self) -> BTreeMap<String, f64> {
        match &self.path {
            Ok(p) => BTreeMap::from([("demo_path_length_m".into(), p.length)]),
            Err(_) => BTreeMap::new(),
        }
    }
}

/// Draws a path given as `(layer, plan point)`s: each run of consecutive
/// points on one layer as a `kind` polyline on that layer, and each step
/// from one layer to the next (across a connection) as an untagged
/// `{kind}/across` segment, since it belongs to both layers.
fn draw_layer_runs(
    kind: &str,
    id: u32,
    pts: &[(usize, DVec2)],
    planes: &[LayerPlane],
    out: &mut Vec<Primitive>,
) {
    let mut start = 0;
    while start < pts.len() {
        let layer = pts[start].0;
        let end = pts[start..]
            .iter()
            .position(|&(l, _)| l != layer)
            .map_or(pts.len(), |n| start + n);
        if end - start >= 2 {
            out.push(
                Primitive::new(
                    kind.to_owned(),
                    id,
                    Shape::Polyline {
                        points: pts[start..end]
                            .iter()
                            .map(|&(l, q)| w(q, planes[l]))
                            .collect(),
                        closed: false,
                    },
                )
                .on_layer(layer as u32),
            );
        }
        if let Some(&(l, q)) = pts.get(end) {
            let (_, last) = pts[end - 1];
            out.push(Primitive::new(
                format!("{kind}/across"),
                id,
                Shape::Segment(w(last, planes[layer]), w(q, planes[l])),
            ));
        }
        start = end;
    }
}

/// The layer a world point lies on: of the layers whose free space contains
/// it in plan, the one whose plane passes nearest above or below it
/// (stairs and floors overlap in plan; a click lands on one of them).
pub fn locate(
    sites: &Sites,
    planes: &[LayerPlane],
    p: Vec3,
    what: &str,
) -> Result<LayerPoint, String> {
    let at = world_to_plan(p.as_dvec3());
    sites
        .areas
        .iter()
        .zip(planes)
        .enumerate()
        .filter(|(_, (area, _))| area.contains(at))
        .min_by(|(_, (_, a)), (_, (_, b))| {
            let gap = |plane: &LayerPlane| (plane.height_at(at) - p.y as f64).abs();
            gap(a).total_cmp(&gap(b))
        })
        .map(|(layer, _)| LayerPoint { layer, at })
        .ok_or_else(|| {
            format!(
                "the {what} ({:.2}, {:.2}, {:.2}) is not in the free space of any layer",
                p.x, p.y, p.z
            )
        })
}

/// The roomiest axis vertex of `layer`.
fn roomiest(axis: &Axis, layer: usize) -> Option<LayerPoint> {
    axis.vertices
        .iter()
        .filter(|v| v.layer == layer)
        .max_by(|a, b| a.clearance.total_cmp(&b.clearance))
        .map(|v| LayerPoint { layer, at: v.at })
}

/// Runs `paths`.
pub fn run_paths(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let la = ctx.artifact::<LayerAxes>("layer-axes")?;
    let c = ctx.artifact::<CorridorMap>("corridor-map")?;
    let clearance = ctx.params.float("clearance");
    // Layers by the height of their plane over the middle of their plan.
    let mid = |l: usize| {
        let (lo, hi) = la.sites.areas[l].outer.bounds();
        c.planes[l].height_at((lo + hi) * 0.5)
    };
    let mut order: Vec<usize> = (0..c.planes.len()).collect();
    order.sort_by(|&a, &b| mid(a).total_cmp(&mid(b)).then(a.cmp(&b)));
    let ends = (
        order.first().and_then(|&l| roomiest(&c.axis, l)),
        order.last().and_then(|&l| roomiest(&c.axis, l)),
    );
    let path = match ends {
        (Some(s), Some(g)) => find_path(&c.axis, &la.sites, &c.planes, s, g, clearance),
        _ => Err("the lowest or the highest layer has no medial-axis vertex".into()),
    };
    Ok(Arc::new(PathDemo {
        planes: c.planes.clone(),
        axis: c.axis.clone(),
        path,
        clearance,
        sites: Arc::new(la.sites.clone()),
    }))
}
