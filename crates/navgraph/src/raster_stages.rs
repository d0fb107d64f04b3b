//! The stages of the `navgraph` pipeline (raster floor plans), their
//! artifacts and how each draws itself.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use glam::{DVec2, DVec3, Vec3};
use navscope_core::draw::{Primitive, Shape, SubStep};
use navscope_core::geom::plan_to_world;
use navscope_core::level::{LevelData, RasterPlan};
use navscope_core::{Artifact, Link, NavMesh, Node, PathAnswer, StageContext, StageError};
use navscope_path::Locator;
use serde::Serialize;

use crate::binary::{BinaryImage, binary_image};
use crate::contours::{Contours, corner_to_plan, trace};
use crate::graphs::{DualGraph, GalleryGraph, dual_graph, gallery_graph};
use crate::simplify::{Repair, RepairKind, Simplified, simplify};
use crate::supergraph::{Route, RouteOptions, SuperGraph, partition};
use crate::triangulate::{Triangulation, triangle_count, triangulate};
use crate::walls::Walls;

fn v3(p: DVec2) -> Vec3 {
    plan_to_world(p, 0.0).as_vec3()
}

fn ring_shape(r: &[DVec2]) -> Shape {
    Shape::Polyline {
        points: r.iter().map(|p| v3(*p)).collect(),
        closed: true,
    }
}

fn counts<const N: usize>(items: [(&str, u64); N]) -> BTreeMap<String, u64> {
    items.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn raster<'a>(ctx: &StageContext<'a>) -> Result<&'a RasterPlan, StageError> {
    match &ctx.level.data {
        LevelData::Raster(r) => Ok(r),
        _ => Err(StageError::failed(format!(
            "{}: the navgraph pipeline needs a raster floor plan (PNG)",
            ctx.level.source
        ))),
    }
}

/// Stage 4's artifact.
#[derive(Debug, Serialize)]
pub struct BinaryArtifact {
    /// The dilated binary image.
    pub image: BinaryImage,
}

impl Artifact for BinaryArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let free = self.image.blocked.iter().filter(|&&b| b == 0).count() as u64;
        counts([
            ("obstacle_pixels", self.image.obstacle_pixels),
            ("dilated_pixels", self.image.dilated_pixels),
            ("free_pixels", free),
        ])
    }

    /// The image's extent as `raster` (the app textures it with the level's
    /// image), and the blocked pixels (obstacles and the dilation band) as
    /// `obstacle/blocked` row runs (element: row).
    fn primitives(&self) -> Vec<Primitive> {
        let m = self.image.metres_per_pixel;
        let (w, h) = (self.image.width as f64 * m, self.image.height as f64 * m);
        let mut out = vec![Primitive::new(
            "raster",
            0,
            Shape::Box {
                min: Vec3::ZERO,
                max: Vec3::new(w as f32, 0.0, h as f32),
            },
        )];
        for y in 0..self.image.height as i64 {
            let mut x = 0i64;
            while x < self.image.width as i64 {
                if !self.image.is_blocked(x, y) {
                    x += 1;
                    continue;
                }
                let x0 = x;
                while x < self.image.width as i64 && self.image.is_blocked(x, y) {
                    x += 1;
                }
                let min = Vec3::new((x0 as f64 * m) as f32, 0.0, (y as f64 * m) as f32);
                let max = Vec3::new((x as f64 * m) as f32, 0.0, ((y + 1) as f64 * m) as f32);
                out.push(Primitive::new(
                    "obstacle/blocked",
                    y as u32,
                    Shape::Box { min, max },
                ));
            }
        }
        out
    }
}

/// Stage 4: binary image dilated by the agent radius.
pub fn stage_binary(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let plan = raster(ctx)?;
    let pixels = (u64::from(plan.width) + 2) * (u64::from(plan.height) + 2);
    ctx.budget.check(pixels * BINARY_BYTES_PER_PIXEL, || {
        format!(
            "the distance transform of a {} × {} px raster",
            plan.width, plan.height
        )
    })?;
    let image = binary_image(plan, ctx.params.float("agent_radius"))
        .map_err(|e| StageError::failed(format!("{}: {e}", ctx.level.source)))?;
    Ok(Arc::new(BinaryArtifact { image }))
}

/// Bytes per pixel the binary stage holds at its peak: the squared
/// distances (f64) and the transform's column of them, plus the image.
pub const BINARY_BYTES_PER_PIXEL: u64 = 17;

/// Stage 5a's artifact.
#[derive(Debug, Serialize)]
pub struct ContoursArtifact {
    /// The contours in quarter pixels.
    pub contours: Contours,
    /// Metres per pixel.
    pub metres_per_pixel: f64,
}

impl Artifact for ContoursArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let holes = self.contours.rings.iter().filter(|r| r.hole).count() as u64;
        let vertices = self
            .contours
            .rings
            .iter()
            .map(|r| r.corners.len() as u64)
            .sum();
        counts([
            ("outer", self.contours.rings.len() as u64 - holes),
            ("holes", holes),
            ("vertices", vertices),
            ("components", self.contours.components as u64),
        ])
    }

    /// `contour/outer` and `contour/hole` rings (element: ring index).
    fn primitives(&self) -> Vec<Primitive> {
        self.contours
            .rings
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let pts: Vec<DVec2> = r
                    .corners
                    .iter()
                    .map(|&c| corner_to_plan(c, self.metres_per_pixel))
                    .collect();
                Primitive::new(
                    if r.hole {
                        "contour/hole"
                    } else {
                        "contour/outer"
                    },
                    k as u32,
                    ring_shape(&pts),
                )
            })
            .collect()
    }
}

/// Stage 5a: contours with hierarchy.
pub fn stage_contours(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let b = ctx.artifact::<BinaryArtifact>("binary")?;
    Ok(Arc::new(ContoursArtifact {
        contours: trace(&b.image),
        metres_per_pixel: b.image.metres_per_pixel,
    }))
}

/// Stage 5b's artifact.
#[derive(Debug, Serialize)]
pub struct SimplifyArtifact {
    /// The simplified rings.
    pub simplified: Simplified,
}

impl Artifact for SimplifyArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let after = self.simplified.rings.iter().map(|r| r.len() as u64).sum();
        counts([
            ("vertices_before", self.simplified.vertices_before),
            ("vertices", after),
            ("repair_rounds", self.simplified.repair_rounds as u64),
            ("restored_rings", self.simplified.restored_rings as u64),
        ])
    }

    /// `contour/simplified` rings (element: ring index).
    fn primitives(&self) -> Vec<Primitive> {
        self.simplified
            .rings
            .iter()
            .enumerate()
            .map(|(k, r)| Primitive::new("contour/simplified", k as u32, ring_shape(r)))
            .collect()
    }

    /// The one-sided Douglas-Peucker pass, then one step per repair round
    /// with the vertices it gave back as `vertex/restored` (element: ring).
    fn substeps(&self) -> Vec<SubStep> {
        let s = &self.simplified;
        let mut out = vec![SubStep {
            title: "Douglas-Peucker".into(),
            detail: format!(
                "{} contour vertices to {}: each span is replaced by a segment when its vertices lie within the tolerance and none on the free side of it (the cut only ever gives up free space).",
                s.vertices_before, s.first_pass_vertices
            ),
            highlights: Vec::new(),
        }];
        for round in 1..=s.repair_rounds {
            let step = round;
            let these: Vec<&Repair> = s.repairs.iter().filter(|r| r.round == round).collect();
            let count = |k: RepairKind| these.iter().filter(|r| r.why == k).count();
            out.push(SubStep {
                title: format!("repair round {round} of {}", s.repair_rounds),
                detail: format!(
                    "{} vertices back where segments met another, {} where a repaired segment passed on the obstacle side, {} rings restored whole because they turned over, {} because the nesting changed.",
                    count(RepairKind::Crossing),
                    count(RepairKind::OneSided),
                    count(RepairKind::Flipped),
                    count(RepairKind::Nesting)
                ),
                highlights: these
                    .iter()
                    .map(|r| {
                        Primitive::new("vertex/restored", r.ring, Shape::Point(v3(r.at)))
                            .during(step, step)
                    })
                    .collect(),
            });
        }
        out
    }
}

/// Stage 5b: topology-preserving Douglas-Peucker.
pub fn stage_simplify(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let c = ctx.artifact::<ContoursArtifact>("contours")?;
    Ok(Arc::new(SimplifyArtifact {
        simplified: simplify(
            &c.contours,
            ctx.params.float("simplify_tolerance"),
            c.metres_per_pixel,
        ),
    }))
}

/// Stage 6's artifact.
#[derive(Debug, Serialize)]
pub struct TriangulationArtifact {
    /// The navigable triangles.
    pub triangulation: Triangulation,
    /// The simplified rings as walls, for line-of-sight tests (shared with
    /// the super-graph stage, not copied).
    #[serde(serialize_with = "shared")]
    pub walls: Arc<Walls>,
}

impl Artifact for TriangulationArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        counts([
            ("triangles", self.triangulation.triangles.len() as u64),
            ("vertices", self.triangulation.vertices.len() as u64),
        ])
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([(
            "navigable_area_m2".to_string(),
            self.triangulation.total_area(),
        )])
    }

    /// Every navigable `triangle` (element: triangle index).
    fn primitives(&self) -> Vec<Primitive> {
        (0..self.triangulation.triangles.len())
            .map(|t| {
                Primitive::new(
                    "triangle",
                    t as u32,
                    Shape::Polygon {
                        outer: self
                            .triangulation
                            .corners(t)
                            .iter()
                            .map(|p| v3(*p))
                            .collect(),
                        holes: vec![],
                    },
                )
            })
            .collect()
    }
}

/// Stage 6: constrained Delaunay triangulation. The graphs built from it
/// are the largest structures of the pipeline, and their size follows from
/// the simplified rings, so they are checked against the memory budget
/// here, before the triangulation is built ([`check_graphs_budget`]).
pub fn stage_triangulate(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let s = ctx.artifact::<SimplifyArtifact>("simplify")?;
    let c = ctx.artifact::<ContoursArtifact>("contours")?;
    let holes = c.contours.rings.iter().filter(|r| r.hole).count() as u64;
    let rings = &s.simplified.rings;
    check_graphs_budget(
        ctx,
        triangle_count(rings, holes),
        rings.iter().map(|r| r.len() as u64).sum(),
    )?;
    let triangulation =
        triangulate(rings).map_err(|e| StageError::failed(format!("{}: {e}", ctx.level.source)))?;
    Ok(Arc::new(TriangulationArtifact {
        triangulation,
        walls: Arc::new(Walls::new(s.simplified.rings.clone())),
    }))
}

/// Stage 7's artifact.
#[derive(Debug, Serialize)]
pub struct GraphsArtifact {
    /// The dual graph extended with the triangulation's vertices and edges
    /// (shared with the super-graph stage, not copied).
    #[serde(serialize_with = "shared")]
    pub dual: Arc<DualGraph>,
    /// The art-gallery graph.
    pub gallery: GalleryGraph,
}

impl GraphsArtifact {
    /// Triangle `t` (drawn from its dual node's polygon) during `step`.
    fn triangle(&self, kind: &str, t: usize, step: u32) -> Primitive {
        Primitive::new(kind.to_owned(), t as u32, triangle_shape(&self.dual, t)).during(step, step)
    }
}

/// Triangle `t` of `dual` as a polygon shape: the polygon of its node,
/// which holds the triangle's corners in world coordinates.
fn triangle_shape(dual: &DualGraph, t: usize) -> Shape {
    Shape::Polygon {
        outer: dual.mesh.nodes[t]
            .polygon
            .iter()
            .flatten()
            .map(|p| p.as_vec3())
            .collect(),
        holes: vec![],
    }
}

impl Artifact for GraphsArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        counts([
            ("dual_nodes", self.dual.mesh.nodes.len() as u64),
            ("dual_links", self.dual.mesh.links.len() as u64 / 2),
            ("repaired_edges", self.dual.repaired.len() as u64),
            ("narrow_edges", self.dual.narrow.len() as u64),
            ("guards", self.gallery.guards.len() as u64),
            ("connectors", self.gallery.connectors.len() as u64),
            ("gallery_links", self.gallery.edges.len() as u64),
        ])
    }

    /// Dual nodes as `node/dual` circles of their inscribed radius
    /// (element: triangle), `edge/dual`, `edge/dual/narrow` (a wall enters
    /// the corridor between the two incircles) and `edge/dual/repaired`
    /// (element: first triangle), `edge/incentre` (incentre to corner) and
    /// `edge/triangulation` (element: node), guards as `node/guard`,
    /// connecting nodes as `node/connector` and `edge/gallery` links
    /// (element: gallery node).
    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        let d = &self.dual;
        let nt = d.incentres.len();
        for t in 0..nt {
            let (c, r) = (d.incentres[t], d.radii[t]);
            let pts = (0..24)
                .map(|k| v3(c + r * DVec2::from_angle(std::f64::consts::TAU * k as f64 / 24.0)))
                .collect();
            out.push(Primitive::new(
                "node/dual",
                t as u32,
                Shape::Polyline {
                    points: pts,
                    closed: true,
                },
            ));
        }
        let pos = |n: u32| d.mesh.nodes[n as usize].position.as_vec3();
        for &(a, b) in &d.dual_edges {
            let kind = if d.narrow.binary_search(&(a, b)).is_ok() {
                "edge/dual/narrow"
            } else {
                "edge/dual"
            };
            out.push(Primitive::new(kind, a, Shape::Segment(pos(a), pos(b))));
        }
        let vnode = |v: u32| {
            d.vertex_nodes
                .binary_search(&v)
                .map(|k| (nt + k) as u32)
                .unwrap_or(0)
        };
        for &(a, b, via) in &d.repaired {
            out.push(Primitive::new(
                "edge/dual/repaired",
                a,
                Shape::Polyline {
                    points: vec![pos(a), pos(vnode(via)), pos(b)],
                    closed: false,
                },
            ));
        }
        for l in d
            .mesh
            .links
            .iter()
            .filter(|l| l.from < l.to && (l.to as usize) >= nt)
        {
            let kind = if (l.from as usize) < nt {
                "edge/incentre"
            } else {
                "edge/triangulation"
            };
            out.push(Primitive::new(
                kind,
                l.from,
                Shape::Segment(pos(l.from), pos(l.to)),
            ));
        }
        let g = &self.gallery;
        let last = g.guards.len() as u32;
        for (k, n) in g.mesh.nodes.iter().enumerate() {
            let (kind, from) = if k < g.guards.len() {
                ("node/guard", k as u32)
            } else {
                ("node/connector", last)
            };
            out.push(
                Primitive::new(kind, k as u32, Shape::Point(n.position.as_vec3()))
                    .during(from, u32::MAX),
            );
        }
        for &(a, b) in &g.edges {
            out.push(
                Primitive::new(
                    "edge/gallery",
                    a,
                    Shape::Segment(
                        g.mesh.nodes[a as usize].position.as_vec3(),
                        g.mesh.nodes[b as usize].position.as_vec3(),
                    ),
                )
                .during(last, u32::MAX),
            );
        }
        out
    }

    /// Guard placement one guard at a time (the triangles each new guard
    /// sees first as `triangle/seen`, the unseen triangle that called for
    /// it as `triangle/unseen`), then the connecting nodes.
    fn substeps(&self) -> Vec<SubStep> {
        let g = &self.gallery;
        let mut out: Vec<SubStep> = (0..g.guards.len())
            .map(|k| {
                let step = k as u32;
                let mut highlights: Vec<Primitive> = (0..self.dual.incentres.len())
                    .filter(|&t| g.seen_by[t] == step)
                    .map(|t| self.triangle("triangle/seen", t, step))
                    .collect();
                let seen = highlights.len();
                let detail = match g.placed_for[k] {
                    None => format!(
                        "The first guard stands on a vertex of highest order (most triangles around it). It sees {seen} triangles entirely."
                    ),
                    Some(t) => {
                        highlights.push(self.triangle("triangle/unseen", t as usize, step));
                        format!(
                            "Triangle {t} is the first one no guard sees entirely, so a guard goes to its corner of highest order. It is the first to see {seen} triangles."
                        )
                    }
                };
                SubStep {
                    title: format!("guard {} of {}", k + 1, g.guards.len()),
                    detail,
                    highlights,
                }
            })
            .collect();
        out.push(SubStep {
            title: "connecting nodes".into(),
            detail: format!(
                "Guards need not see each other: {} connecting nodes on the shortest vertex paths between guards whose nearest-guard regions touch join them into {} links.",
                g.connectors.len(),
                g.edges.len()
            ),
            highlights: Vec::new(),
        });
        out
    }

    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.dual.mesh)
    }
}

/// Serialises a shared value as the value itself.
fn shared<T: Serialize, S: serde::Serializer>(v: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
    v.as_ref().serialize(s)
}

/// Bytes the dual graph's NavMesh takes per triangle: its node (with the
/// triangle as polygon on the heap; the default area name is borrowed, not
/// allocated) and its links (the dual edges' segments boxed): three
/// two-way links to its corners and up to three dual edges, each shared
/// with a neighbour (counted here as five two-way links); per vertex: its
/// node and three two-way triangulation-edge links (a planar triangulation
/// has fewer than three edges per vertex).
fn dual_bytes(triangles: u64, vertices: u64) -> u64 {
    let node = std::mem::size_of::<Node>() as u64;
    let polygon = (3 * std::mem::size_of::<DVec3>() + 16) as u64;
    let link = std::mem::size_of::<Link>() as u64;
    // A dual edge's two links each box its segment (with the allocator's
    // header, rounded to its 16-byte step).
    let segment = (2 * std::mem::size_of::<DVec3>() + 16) as u64;
    triangles.saturating_mul(node + polygon + 2 * 5 * link + 3 * segment)
        + vertices.saturating_mul(node + 2 * 3 * link)
}

/// Bytes the whole build holds at its peak for a dual graph of
/// `triangles` and `vertices`: [`dual_bytes`] and 30 % more. The dual
/// graph's NavMesh is the pipeline's result and most of the peak (every
/// vector of it is sized exactly; the super-graph shares it, draws its
/// regions and portals from it and builds its point locator only for the
/// first path query; `navscope-cli build` writes it without copying it);
/// the rest is the triangulation, the walls, the art-gallery graph's
/// working structures (built beside the dual graph) and the earlier
/// stages' artifacts. Calibrated with `/usr/bin/time -v` on dotted rasters
/// (`navscope-cli generate dotted-raster`, radius 0, `navscope-cli build`):
/// 1000 × 1000 px (375,002 triangles) peaks at 1.24 - 1.28 and 2000 × 2000
/// px (1,500,002 triangles) at 1.21 - 1.24 times [`dual_bytes`] (428 - 443
/// MB and 1.66 - 1.71 GB, in kB as `time` reports them), the same with
/// `--out`; the 30 % leave room for the allocator.
/// A caller that takes an owned copy ([`navscope_core::Runner::navmesh`])
/// or asks for a path needs more.
fn build_bytes(triangles: u64, vertices: u64) -> u64 {
    let dual = dual_bytes(triangles, vertices);
    dual.saturating_add(dual / 10 * 3)
}

/// Refuses, over the budget, the dual graph of `triangles` and `vertices`
/// with everything the later stages keep of it ([`build_bytes`]).
fn check_graphs_budget(
    ctx: &StageContext,
    triangles: u64,
    vertices: u64,
) -> Result<(), StageError> {
    ctx.budget.check(build_bytes(triangles, vertices), || {
        format!("the dual graph of {triangles} triangles and its NavMesh")
    })?;
    Ok(())
}

/// Stage 7: dual and art-gallery graphs, after the memory check of
/// [`check_graphs_budget`] (made first by the triangulation stage, which
/// predicts the counts, so a level too large is refused before the
/// triangulation is built).
pub fn stage_graphs(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let t = ctx.artifact::<TriangulationArtifact>("triangulate")?;
    check_graphs_budget(
        ctx,
        t.triangulation.triangles.len() as u64,
        t.triangulation.vertices.len() as u64,
    )?;
    // The two graphs side by side (each is deterministic on its own): the
    // gallery's guard placement is sequential, the dual graph's wall tests
    // are spread over whatever threads the gallery leaves idle. The
    // gallery's working structures are small beside the dual graph's
    // NavMesh.
    let (gallery, dual) = rayon::join(
        || gallery_graph(&t.triangulation, &t.walls),
        || dual_graph(&t.triangulation, &t.walls),
    );
    Ok(Arc::new(GraphsArtifact {
        dual: Arc::new(dual),
        gallery,
    }))
}

/// Stage 8's artifact: the partition, the super-graph and what the
/// two-level search needs.
#[derive(Debug, Serialize)]
pub struct SuperGraphArtifact {
    /// Partition and super-graph.
    pub graph: SuperGraph,
    /// The base graph (its triangle nodes' polygons are what the regions
    /// draw, its links the portals).
    #[serde(skip_serializing)]
    dual: Arc<DualGraph>,
    #[serde(skip_serializing)]
    walls: Arc<Walls>,
    /// Point location on the base graph, built by the first path query: it
    /// holds its own copy of every triangle, which a build that only writes
    /// the NavMesh never needs.
    #[serde(skip_serializing)]
    locator: OnceLock<Locator>,
    /// How far outside the triangles a query point may be (the
    /// simplification tolerance in metres).
    pub snap: f64,
}

impl SuperGraphArtifact {
    /// The segment of the portal that is base link `i`: the edge it
    /// crosses, or its ends when it has none.
    fn portal(&self, i: usize) -> [DVec3; 2] {
        let mesh = &self.dual.mesh;
        let l = &mesh.links[i];
        l.segment().unwrap_or([
            mesh.nodes[l.from as usize].position,
            mesh.nodes[l.to as usize].position,
        ])
    }

    /// The base graph's point locator, built on first use.
    fn locator(&self) -> &Locator {
        self.locator.get_or_init(|| Locator::new(&self.dual.mesh))
    }

    /// The two-level search of the article from `from` to `to` (world
    /// points), the base search on the whole base graph once the
    /// super-graph found a region path: see [`crate::supergraph`].
    pub fn route(&self, from: DVec3, to: DVec3) -> Result<Route, String> {
        self.graph.route(
            &self.dual,
            self.locator(),
            &self.walls,
            from,
            to,
            RouteOptions {
                snap: self.snap,
                within_regions: false,
            },
        )
    }

    /// The same with the base search limited to the regions of the super
    /// path (the article's scheme).
    pub fn route_within_regions(&self, from: DVec3, to: DVec3) -> Result<Route, String> {
        self.graph.route(
            &self.dual,
            self.locator(),
            &self.walls,
            from,
            to,
            RouteOptions {
                snap: self.snap,
                within_regions: true,
            },
        )
    }

    /// The base graph the super-graph partitions.
    pub fn base(&self) -> &DualGraph {
        &self.dual
    }

    /// The walls of the navigable space (line of sight).
    pub fn walls(&self) -> &Walls {
        &self.walls
    }
}

impl Artifact for SuperGraphArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        counts([
            ("regions", self.graph.regions as u64),
            ("portals", self.graph.portals.len() as u64),
            ("super_links", self.graph.mesh.links.len() as u64 / 2),
        ])
    }

    /// Triangles as `region` (element: region id, for distinct colours),
    /// `portal/region` segments (element: portal), super nodes as
    /// `node/super` (element: region).
    fn primitives(&self) -> Vec<Primitive> {
        let mut out: Vec<Primitive> = (0..self.dual.incentres.len())
            .map(|t| {
                Primitive::new(
                    "region",
                    self.graph.region_of[t],
                    triangle_shape(&self.dual, t),
                )
            })
            .collect();
        for (k, [a, b]) in self
            .graph
            .portals
            .iter()
            .map(|&i| self.portal(i))
            .enumerate()
        {
            out.push(Primitive::new(
                "portal/region",
                k as u32,
                Shape::Segment(a.as_vec3(), b.as_vec3()),
            ));
        }
        for (r, n) in self.graph.mesh.nodes.iter().enumerate() {
            out.push(Primitive::new(
                "node/super",
                r as u32,
                Shape::Point(n.position.as_vec3()),
            ));
        }
        out
    }

    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.dual.mesh)
    }

    /// The article's two-level answer ([`SuperGraphArtifact::route_within_regions`]):
    /// the path as `path` (element 0), the super level of the search as
    /// the regions it expanded (`region/expanded`, element: region), the
    /// super path through the region centres (`path/super`, element 0)
    /// and the start and goal points (`path/start`, `path/goal`).
    fn path_between(&self, from: Vec3, to: Vec3) -> Option<Result<PathAnswer, String>> {
        Some(
            self.route_within_regions(from.as_dvec3(), to.as_dvec3())
                .and_then(|r| self.answer(&r)),
        )
    }
}

impl SuperGraphArtifact {
    /// A found route as the probe's answer; "no path" is an error naming
    /// the work the super-graph did to prove it.
    fn answer(&self, r: &Route) -> Result<PathAnswer, String> {
        if !r.found {
            return Err(format!(
                "the super-graph search expanded {} regions without reaching the goal's",
                r.super_expansions
            ));
        }
        let mut primitives = Vec::new();
        let triangles = 0..self.dual.incentres.len();
        for &reg in &r.expanded_regions {
            for t in triangles
                .clone()
                .filter(|&t| self.graph.region_of[t] == reg)
            {
                primitives.push(Primitive::new(
                    "region/expanded",
                    reg,
                    triangle_shape(&self.dual, t),
                ));
            }
        }
        let centre = |reg: u32| self.graph.mesh.nodes[reg as usize].position.as_vec3();
        primitives.push(Primitive::new(
            "path/super",
            0,
            Shape::Polyline {
                points: r.regions.iter().map(|&reg| centre(reg)).collect(),
                closed: false,
            },
        ));
        let waypoints: Vec<Vec3> = r.waypoints.iter().map(|p| p.as_vec3()).collect();
        primitives.push(Primitive::new(
            "path",
            0,
            Shape::Polyline {
                points: waypoints.clone(),
                closed: false,
            },
        ));
        for (kind, p) in [
            ("path/start", waypoints.first()),
            ("path/goal", waypoints.last()),
        ] {
            if let Some(p) = p {
                primitives.push(Primitive::new(kind, 0, Shape::Point(*p)));
            }
        }
        Ok(PathAnswer {
            waypoints,
            length: r.length,
            summary: format!(
                "{} regions expanded, super path of {} regions · {} base nodes expanded · {} start nodes skipped",
                r.super_expansions,
                r.regions.len(),
                r.base_expansions,
                r.skipped_start_nodes
            ),
            primitives,
        })
    }
}

/// Stage 8: automatic partition and super-graph.
pub fn stage_supergraph(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let t = ctx.artifact::<TriangulationArtifact>("triangulate")?;
    let g = ctx.artifact::<GraphsArtifact>("graphs")?;
    let snap = ctx.params.float("simplify_tolerance");
    let graph = partition(&t.triangulation, &g.dual, ctx.params.float("region_size"));
    Ok(Arc::new(SuperGraphArtifact {
        graph,
        dual: Arc::clone(&g.dual),
        walls: Arc::clone(&t.walls),
        locator: OnceLock::new(),
        snap,
    }))
}
