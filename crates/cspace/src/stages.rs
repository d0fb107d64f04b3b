//! The pipeline: parameters, the seven stage functions and their
//! artifacts, each of which draws itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{DVec3, Vec3};
use navscope_core::draw::SubStep;
use navscope_core::jump::Fall;
use navscope_core::level::{BrushLevel, LevelData, LevelKind};
use navscope_core::outside::Seal;
use navscope_core::{
    Artifact, LinkKind, NavMesh, ParamSpec, ParamValues, Pipeline, Primitive, Shape, Stage,
    StageContext, StageError, StageInfo, Stance,
};
use serde::Serialize;
use serde_json::json;

use crate::crouch_space::crouch_only;
use crate::edge_plane::{EdgePlane, EdgeRef, build_table};
use crate::expand::{ExpandedBrush, expand};
use crate::extra::{Ladder, PolyGrid, crouch_links, ladder_links, ride_link};
use crate::gaps;
use crate::ledges::shrink_ledges;
use crate::links::{LinkSeg, clear_of, jumps, table_links, walk_and_step};
use crate::merge::merge_coplanar;
use crate::movers::{hole_fall, swim_links, trigger_links};
use crate::polyhedron::Polyhedron;
use crate::regions::split_by_regions;
use crate::scene::{AgentSize, Hole, Region, RegionKind, Ride, Skipped, SolidBrush, scene};
use crate::union::{Fragment, UnionMesh, union_all};
use crate::walkable::{WalkPoly, drop_outside, walkable};

/// Parameter names.
pub mod param {
    /// Agent AABB size along X (both sizes), metres.
    pub const AGENT_WIDTH: &str = "agent_width";
    /// Agent AABB size along Z (both sizes), metres.
    pub const AGENT_DEPTH: &str = "agent_depth";
    /// Standing AABB height, metres.
    pub const STAND_HEIGHT: &str = "stand_height";
    /// Crouching AABB height, metres.
    pub const CROUCH_HEIGHT: &str = "crouch_height";
    /// Whether the crouching mesh is built.
    pub const CROUCH_MESH: &str = "crouch_mesh";
    /// Whether bevel planes are added.
    pub const BEVELS: &str = "bevels";
    /// Class name of ladder entities.
    pub const LADDER_CLASS: &str = "ladder_class";
    /// Walkable slope threshold, degrees.
    pub const MAX_SLOPE: &str = "max_slope";
    /// Edge plane angle tolerance, degrees.
    pub const PLANE_ANGLE_TOL: &str = "plane_angle_tol";
    /// Edge plane distance tolerance, metres.
    pub const PLANE_DIST_TOL: &str = "plane_dist_tol";
    /// Step tolerance, metres.
    pub const STEP_HEIGHT: &str = "step_height";
    /// Deepest drop off a ledge, metres (one way, down).
    pub const MAX_DROP: &str = "max_drop";
    /// Jump height and the horizontal reach of a running jump landing at
    /// its take-off height, metres (shared with `voxel`).
    pub use navscope_core::jump::{JUMP_HEIGHT, JUMP_REACH};
    /// Cost multiplier of links into slime (0 forbids them).
    pub const SLIME_COST: &str = "slime_cost";
    /// Cost multiplier of links into lava (0 forbids them).
    pub const LAVA_COST: &str = "lava_cost";
    /// Deepest unhurt fall, and the cost of a hurting landing, metres.
    pub use navscope_core::jump::{FALL_COST, SAFE_FALL};
}

fn params() -> Vec<ParamSpec> {
    use param::*;
    vec![
        ParamSpec::float(
            AGENT_WIDTH,
            "Agent width (X)",
            "m",
            0.6,
            0.05,
            4.0,
            0.05,
            "Size of the agent's bounding box along X, for every stance: a human's shoulder width.",
        ),
        ParamSpec::float(
            AGENT_DEPTH,
            "Agent depth (Z)",
            "m",
            0.6,
            0.05,
            4.0,
            0.05,
            "Size of the agent's bounding box along Z, for every stance.",
        ),
        ParamSpec::float(
            STAND_HEIGHT,
            "Standing height",
            "m",
            1.8,
            0.1,
            5.0,
            0.05,
            "Height of the standing agent's box (a standing human).",
        ),
        ParamSpec::float(
            CROUCH_HEIGHT,
            "Crouching height",
            "m",
            1.0,
            0.1,
            5.0,
            0.05,
            "Height of the crouching agent's box; must be lower than the standing height.",
        ),
        ParamSpec::bool(
            CROUCH_MESH,
            "Crouching mesh",
            true,
            "Build a second mesh for the crouching box and crouch links between the two (Golodetz §5.1).",
        ),
        ParamSpec::bool(
            BEVELS,
            "Bevel planes",
            true,
            "Add the bevel planes that make an expanded brush the exact Minkowski sum; turn off to see brushes overshoot at slanted edges (Figure 3c).",
        ),
        ParamSpec::choice(
            LADDER_CLASS,
            "Ladder class",
            &["func_ladder", "trigger_ladder"],
            "func_ladder",
            "Class name of the brush entities that are ladders (Half-Life/Source: func_ladder; some Quake mods: trigger_ladder).",
        ),
        ParamSpec::float(
            MAX_SLOPE,
            "Walkable slope",
            "deg",
            45.0,
            0.0,
            89.0,
            1.0,
            "Faces whose normal is within this angle of up are walkable (hesperus uses 45 degrees).",
        ),
        ParamSpec::float(
            PLANE_ANGLE_TOL,
            "Edge plane angle tolerance",
            "deg",
            0.1,
            0.0,
            10.0,
            0.05,
            "Vertical planes whose normals differ by less than this are one plane of the edge plane table (Listing 3).",
        ),
        ParamSpec::float(
            PLANE_DIST_TOL,
            "Edge plane distance tolerance",
            "m",
            0.005,
            0.0,
            0.5,
            0.001,
            "Vertical planes whose distances differ by less than this are one plane of the edge plane table (Listing 3).",
        ),
        ParamSpec::float(
            STEP_HEIGHT,
            "Step tolerance",
            "m",
            0.45,
            0.0,
            2.0,
            0.05,
            "Largest height difference walked as a step (STEPTOL of Listing 4); Quake III's 18-unit step is 0.46 m at an inch per unit.",
        ),
        ParamSpec::float(
            JUMP_HEIGHT,
            "Jump height",
            "m",
            1.1,
            0.0,
            5.0,
            0.05,
            "Largest height difference of a vertical jump link (§5.3); a little under Quake III's 45.6-unit jump (1.16 m at an inch per unit).",
        ),
        ParamSpec::float(
            MAX_DROP,
            "Max drop height",
            "m",
            0.0,
            0.0,
            navscope_core::jump::MAX_DROP_LIMIT,
            0.05,
            "Deepest drop off a ledge linked one way, down (a jump link that is not climbed back); below the jump height every drop is a two-way jump. 0 (the paper's): drops only as deep as a jump. At its maximum no drop the level holds is refused (Quake's player).",
        ),
        ParamSpec::float(
            JUMP_REACH,
            "Running jump reach",
            "m",
            0.0,
            0.0,
            50.0,
            0.05,
            "Horizontal distance of a running jump that lands at its take-off height; with it, ledges link one way to the floors a running jump reaches across a gap or down a drop (module gaps). 0 (the paper's): vertical jumps only.",
        ),
        ParamSpec::float(
            SLIME_COST,
            "Slime cost",
            "x",
            0.0,
            0.0,
            100.0,
            0.1,
            "Cost multiplier of links into slime nodes; 0 (the default) forbids them, so paths go around. Quake's player: 1.8 (4 health a second at 10 m/s, 2 m a health point).",
        ),
        ParamSpec::float(
            LAVA_COST,
            "Lava cost",
            "x",
            0.0,
            0.0,
            100.0,
            0.1,
            "Cost multiplier of links into lava nodes; 0 (the default) forbids them, so paths go around. Quake's player: 11 (50 health a second at 10 m/s, 2 m a health point).",
        ),
    ]
    .into_iter()
    .chain(navscope_core::jump::fall_param_specs())
    .collect()
}

/// The `cspace` pipeline.
pub fn pipeline() -> Pipeline {
    use param::*;
    Pipeline {
        id: "cspace",
        stage_aliases: &[],
        title: "Configuration-space navmesh (Golodetz / van Waveren)",
        accepts: vec![LevelKind::Brushes],
        params: params(),
        stages: vec![
            Stage {
                info: StageInfo::new(
                    "expand",
                    "Expanded brushes",
                    "Each brush grows by the agent's box: every face moves out by the box's support distance along its normal, and bevel planes (axial and edge-cross-axis planes) cap the corners so the result is exactly the Minkowski sum. The agent then becomes a point: its centre may be anywhere outside these solids.",
                    "Golodetz §2, Figure 3",
                    &[
                        AGENT_WIDTH,
                        AGENT_DEPTH,
                        STAND_HEIGHT,
                        CROUCH_HEIGHT,
                        CROUCH_MESH,
                        BEVELS,
                        LADDER_CLASS,
                    ],
                ),
                run: run_expand,
            },
            Stage {
                info: StageInfo::new(
                    "union",
                    "Union by BSP clipping",
                    "Every face of every expanded brush is clipped against the BSP tree of each brush in range of it; what lies outside all of them is the surface of the union. Coplanar faces are kept once, by the brush first in index order.",
                    "Golodetz §3.1, Listing 1",
                    &[],
                ),
                run: run_union,
            },
            Stage {
                info: StageInfo::new(
                    "walkable",
                    "Walkable polygons",
                    "Union faces whose normal is within the slope threshold of up are the polygons of the navigation mesh. Door, liquid and trigger regions cut them, so the pieces inside carry the region; fragments of one plane are merged into convex polygons; the crouching mesh keeps only where standing does not fit.",
                    "Golodetz §3.2",
                    &[MAX_SLOPE],
                ),
                run: run_walkable,
            },
            Stage {
                info: StageInfo::new(
                    "edge-planes",
                    "Edge plane table",
                    "Every walkable edge defines a vertical plane; edges whose planes agree within the tolerances share an entry, split into those facing the canonical normal and those facing away. Click a plane to list its edges.",
                    "Golodetz §4.1, Listings 2 and 3",
                    &[PLANE_ANGLE_TOL, PLANE_DIST_TOL],
                ),
                run: run_edge_planes,
            },
            Stage {
                info: StageInfo::new(
                    "links",
                    "Walk and step links",
                    "For each pair of opposing edges in a plane, the overlap of their horizontal intervals and their height difference give walk links (level), step-up and step-down links (within the step tolerance).",
                    "Golodetz §4.2, Listing 4, Figure 5",
                    &[STEP_HEIGHT],
                ),
                run: run_links,
            },
            Stage {
                info: StageInfo::new(
                    "extra-links",
                    "Jump, crouch and ladder links",
                    "Vertical jumps are step links with a larger height; crouch links join standing edges that lead nowhere to the crouching mesh that continues beyond them; ladders join the polygons at their foot and top, lifts the floor on them to the floors at their top; teleporters link to their destination, pushers to where their flight lands, water joins its floors and shores with swim links.",
                    "Golodetz §5, Figure 6",
                    &[JUMP_HEIGHT, MAX_DROP, JUMP_REACH, STEP_HEIGHT],
                ),
                run: run_extra_links,
            },
            Stage {
                info: StageInfo::new(
                    "navmesh",
                    "Navigation mesh",
                    "The standing and crouching meshes with all their links, lowered to the agent's feet, as one mesh with stance metadata. Nodes in a region take its area (door, water, slime, lava, teleport, push, exit); walking into a door region is a door link, into water a swim link (water nodes swim); links into slime and lava cost more (`slime_cost`, `lava_cost`) or are left out.",
                    "Golodetz §3–5",
                    &[
                        SLIME_COST,
                        LAVA_COST,
                        SAFE_FALL,
                        FALL_COST,
                        JUMP_HEIGHT,
                        JUMP_REACH,
                    ],
                ),
                run: run_navmesh,
            },
        ],
    }
}

fn brushes<'a>(ctx: &'a StageContext) -> Result<&'a BrushLevel, StageError> {
    match &ctx.level.data {
        LevelData::Brushes(b) => Ok(b),
        _ => Err(StageError::failed(format!(
            "{}: the cspace pipeline needs a brush level, not a {}",
            ctx.level.source,
            ctx.level.kind().name()
        ))),
    }
}

/// The agent sizes the parameters describe: standing, then (if enabled)
/// crouching.
pub fn agent_sizes(p: &ParamValues) -> Result<Vec<AgentSize>, String> {
    use param::*;
    let (w, d) = (p.float(AGENT_WIDTH), p.float(AGENT_DEPTH));
    let (stand, crouch) = (p.float(STAND_HEIGHT), p.float(CROUCH_HEIGHT));
    let mut sizes = vec![AgentSize {
        name: "stand".into(),
        stance: Stance::Stand,
        half: DVec3::new(w, stand, d) * 0.5,
    }];
    if p.bool(CROUCH_MESH) {
        if crouch >= stand {
            return Err(format!(
                "{CROUCH_HEIGHT} ({crouch} m) must be lower than {STAND_HEIGHT} ({stand} m)"
            ));
        }
        sizes.push(AgentSize {
            name: "crouch".into(),
            stance: Stance::Crouch,
            half: DVec3::new(w, crouch, d) * 0.5,
        });
    }
    if sizes
        .iter()
        .any(|s| !s.half.is_finite() || s.half.min_element() <= 0.0)
    {
        return Err("agent sizes must be positive numbers".into());
    }
    Ok(sizes)
}

fn f32v(v: DVec3) -> Vec3 {
    v.as_vec3()
}

fn poly_shape(points: &[DVec3]) -> Shape {
    Shape::Polygon {
        outer: points.iter().map(|p| f32v(*p)).collect(),
        holes: vec![],
    }
}

fn count_map(items: &[(&str, usize)]) -> BTreeMap<String, u64> {
    items
        .iter()
        .map(|(k, v)| (k.to_string(), *v as u64))
        .collect()
}

// ---------------------------------------------------------------- expand

/// Artifact of `expand`: solid brushes, their expansions per agent size,
/// and the ladders.
#[derive(Debug, Serialize)]
pub struct Expanded {
    /// The agent sizes, standing first.
    pub sizes: Vec<AgentSize>,
    /// Solid brushes.
    pub solids: Vec<SolidBrush>,
    /// `expanded[s][i]`: solid `i` expanded for size `s`.
    pub expanded: Vec<Vec<ExpandedBrush>>,
    /// Ladder entities.
    pub ladders: Vec<Ladder>,
    /// Lifts (box from the lift's top at rest to its top position).
    pub lifts: Vec<Ladder>,
    /// Door, liquid and trigger regions.
    pub regions: Vec<Region>,
    /// The holes floor panel doors open.
    pub holes: Vec<Hole>,
    /// The legs trains travel.
    pub rides: Vec<Ride>,
    /// Brushes left out, with why.
    pub skipped: Vec<Skipped>,
}

impl Expanded {
    /// Element id of expanded brush `i` of size `s` (solids use `0..n`).
    fn element(&self, s: usize, i: usize) -> u32 {
        (self.solids.len() * (s + 1) + i) as u32
    }
}

impl Artifact for Expanded {
    fn counts(&self) -> BTreeMap<String, u64> {
        let bevels: usize = self
            .expanded
            .iter()
            .flatten()
            .map(ExpandedBrush::bevel_count)
            .sum();
        count_map(&[
            ("brushes", self.solids.len()),
            ("expanded brushes", self.expanded.iter().map(Vec::len).sum()),
            ("bevel faces", bevels),
            ("ladders", self.ladders.len()),
            ("lifts", self.lifts.len()),
            ("regions", self.regions.len()),
            ("skipped brushes", self.skipped.len()),
        ])
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        for (i, b) in self.solids.iter().enumerate() {
            for f in &b.solid.faces {
                out.push(Primitive::new("brush", i as u32, poly_shape(&f.vertices)));
            }
        }
        for (s, list) in self.expanded.iter().enumerate() {
            for (i, e) in list.iter().enumerate() {
                let el = self.element(s, i);
                for (f, origin) in e.solid.faces.iter().zip(&e.origins) {
                    out.push(Primitive::new(
                        format!("brush/expanded/{}", self.sizes[s].name),
                        el,
                        Shape::Polyline {
                            points: f.vertices.iter().map(|p| f32v(*p)).collect(),
                            closed: true,
                        },
                    ));
                    if origin.is_bevel() {
                        out.push(Primitive::new("face/bevel", el, poly_shape(&f.vertices)));
                    }
                }
            }
        }
        let boxed = |b: &navscope_core::geom::Aabb| Shape::Box {
            min: f32v(b.min),
            max: f32v(b.max),
        };
        let first = self.solids.len() * (self.expanded.len() + 1);
        for (i, l) in self.ladders.iter().enumerate() {
            out.push(Primitive::new(
                "ladder",
                (first + i) as u32,
                boxed(&l.bounds),
            ));
        }
        let first = first + self.ladders.len();
        for (i, l) in self.lifts.iter().enumerate() {
            out.push(Primitive::new("lift", (first + i) as u32, boxed(&l.bounds)));
        }
        let first = first + self.lifts.len();
        for (i, r) in self.regions.iter().enumerate() {
            out.push(Primitive::new(
                format!("region/{}", r.kind.area()),
                (first + i) as u32,
                boxed(&r.bounds),
            ));
        }
        let first = first + self.regions.len();
        for (i, k) in self.skipped.iter().enumerate() {
            if let Some(b) = &k.bounds {
                let el = (first + i) as u32;
                out.push(Primitive::new("brush/skipped", el, boxed(b)));
                out.push(Primitive::new(
                    "brush/skipped",
                    el,
                    Shape::Label {
                        at: f32v(b.center()),
                        text: format!("{}: {}", k.element, k.problem),
                    },
                ));
            }
        }
        out
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        let n = self.solids.len();
        let e = element as usize;
        if e < n {
            let b = &self.solids[e];
            return json!({ "brush": b.brush, "faces": b.solid.faces.len(), "volume_m3": b.solid.volume(), "bounds": [b.solid.bounds.min.to_array(), b.solid.bounds.max.to_array()] });
        }
        let ladders = n * (self.expanded.len() + 1);
        if e < ladders {
            let (s, i) = (e / n - 1, e % n);
            let x = &self.expanded[s][i];
            return json!({ "agent": self.sizes[s].name, "brush": x.brush, "faces": x.solid.faces.len(), "bevel_faces": x.bevel_count(), "origins": x.origins, "volume_m3": x.solid.volume() });
        }
        let mut k = e - ladders;
        if let Some(l) = self.ladders.get(k) {
            return json!({ "ladder_entity": l.entity, "bounds": [l.bounds.min.to_array(), l.bounds.max.to_array()] });
        }
        k -= self.ladders.len();
        if let Some(l) = self.lifts.get(k) {
            return json!({ "lift_entity": l.entity, "travel": [l.bounds.min.to_array(), l.bounds.max.to_array()] });
        }
        k -= self.lifts.len();
        if let Some(r) = self.regions.get(k) {
            return json!({ "region": r.kind.area(), "kind": r.kind, "entity": r.entity, "bounds": [r.bounds.min.to_array(), r.bounds.max.to_array()] });
        }
        k -= self.regions.len();
        match self.skipped.get(k) {
            Some(s) => json!({ "skipped": s.element, "problem": s.problem }),
            None => serde_json::Value::Null,
        }
    }
}

fn run_expand(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = brushes(ctx)?;
    let sizes = agent_sizes(ctx.params).map_err(StageError::failed)?;
    let sc = scene(level, ctx.params.text(param::LADDER_CLASS))
        .map_err(|e| StageError::failed(format!("{}: {e}", ctx.level.source)))?;
    let bevels = ctx.params.bool(param::BEVELS);
    let mut expanded: Vec<Vec<ExpandedBrush>> = vec![Vec::new(); sizes.len()];
    let mut solids = Vec::with_capacity(sc.solids.len());
    let mut skipped = sc.skipped;
    for b in sc.solids {
        let per_size: Result<Vec<ExpandedBrush>, String> = sizes
            .iter()
            .map(|s| {
                expand(b.brush, &b.solid, s.half, bevels)
                    .map_err(|e| format!("expanded for {}: {e}", s.name))
            })
            .collect();
        match per_size {
            Ok(list) => {
                for (m, e) in list.into_iter().enumerate() {
                    expanded[m].push(e);
                }
                solids.push(b);
            }
            Err(problem) => skipped.push(Skipped {
                element: format!("brush {}", b.brush),
                problem,
                bounds: Some(b.solid.bounds),
            }),
        }
    }
    Ok(Arc::new(Expanded {
        sizes,
        solids,
        expanded,
        ladders: sc.ladders,
        lifts: sc.lifts,
        regions: sc.regions,
        holes: sc.holes,
        rides: sc.rides,
        skipped,
    }))
}

// ---------------------------------------------------------------- union

/// Artifact of `union`: per agent size, the kept and clipped face pieces.
#[derive(Debug, Serialize)]
pub struct Union {
    /// The agent sizes.
    pub sizes: Vec<AgentSize>,
    /// One union per size.
    pub meshes: Vec<UnionMesh>,
}

impl Artifact for Union {
    fn counts(&self) -> BTreeMap<String, u64> {
        count_map(&[
            ("faces kept", self.meshes.iter().map(|m| m.kept.len()).sum()),
            (
                "faces clipped",
                self.meshes.iter().map(|m| m.clipped.len()).sum(),
            ),
            (
                "brush pairs in range",
                self.meshes.iter().map(|m| m.pairs).sum(),
            ),
        ])
    }

    fn substeps(&self) -> Vec<SubStep> {
        self.brush_steps()
    }

    fn substep(&self, i: usize) -> Option<SubStep> {
        let mut first = 0;
        for (m, mesh) in self.meshes.iter().enumerate() {
            let brushes = Self::brushes(mesh);
            if i < first + brushes {
                let b = i - first;
                let of_brush = |faces: &[Fragment], kind| -> Vec<Primitive> {
                    faces
                        .iter()
                        .filter(|f| f.brush == b)
                        .map(|f| face_primitive(f, kind))
                        .collect()
                };
                let kept = of_brush(&mesh.kept, "face/kept");
                let clipped = of_brush(&mesh.clipped, "face/clipped");
                return Some(self.brush_step(m, b, brushes, kept, clipped));
            }
            first += brushes;
        }
        None
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        let mut el = 0u32;
        for m in &self.meshes {
            for f in &m.kept {
                out.push(Primitive::new("face/kept", el, poly_shape(&f.polygon)));
                el += 1;
            }
            for f in &m.clipped {
                out.push(Primitive::new("face/clipped", el, poly_shape(&f.polygon)));
                el += 1;
            }
        }
        out
    }
}

impl Union {
    /// Sub-steps: Listing 1's outer loop, one step per expanded brush of
    /// each size, highlighting the pieces of its faces that were kept and
    /// those that the trees of other brushes clipped away.
    fn brush_steps(&self) -> Vec<SubStep> {
        let mut steps = Vec::new();
        for (m, mesh) in self.meshes.iter().enumerate() {
            let brushes = Self::brushes(mesh);
            let mut kept = vec![Vec::new(); brushes];
            let mut clipped = vec![Vec::new(); brushes];
            for f in &mesh.kept {
                kept[f.brush].push(face_primitive(f, "face/kept"));
            }
            for f in &mesh.clipped {
                clipped[f.brush].push(face_primitive(f, "face/clipped"));
            }
            for (b, (k, c)) in kept.into_iter().zip(clipped).enumerate() {
                steps.push(self.brush_step(m, b, brushes, k, c));
            }
        }
        steps
    }

    /// How many brushes the faces of a size's union come from (one
    /// sub-step each).
    fn brushes(mesh: &UnionMesh) -> usize {
        mesh.kept
            .iter()
            .chain(&mesh.clipped)
            .map(|f| f.brush)
            .max()
            .map_or(0, |b| b + 1)
    }

    /// The sub-step of brush `b` (of `brushes`) of size `m`, with its kept
    /// and clipped faces.
    fn brush_step(
        &self,
        m: usize,
        b: usize,
        brushes: usize,
        kept: Vec<Primitive>,
        clipped: Vec<Primitive>,
    ) -> SubStep {
        let detail = format!(
            "The faces of brush {b} were clipped against the BSP trees of the brushes in range: {} pieces stay on the union's surface, {} lie inside other brushes.",
            kept.len(),
            clipped.len()
        );
        SubStep {
            title: format!("{}: brush {} of {brushes}", self.sizes[m].name, b + 1),
            detail,
            highlights: kept.into_iter().chain(clipped).collect(),
        }
    }
}

/// A union face as a highlight of its brush, of `kind`.
fn face_primitive(f: &Fragment, kind: &'static str) -> Primitive {
    Primitive::new(kind, f.brush as u32, poly_shape(&f.polygon))
}

fn run_union(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let e = ctx.artifact::<Expanded>("expand")?;
    Ok(Arc::new(Union {
        sizes: e.sizes.clone(),
        meshes: e.expanded.iter().map(|list| union_all(list)).collect(),
    }))
}

// ---------------------------------------------------------------- walkable

/// Artifact of `walkable`: per agent size, the walkable polygons.
#[derive(Debug, Serialize)]
pub struct Walkable {
    /// The agent sizes.
    pub sizes: Vec<AgentSize>,
    /// One polygon list per size.
    pub meshes: Vec<Vec<WalkPoly>>,
    /// Per size, the walkable faces dropped because they lie outside the
    /// sealed map (see [`navscope_core::outside`]).
    pub outside: Vec<Vec<WalkPoly>>,
    /// What the flood from outside found: sealed, leaking, or not a game
    /// map.
    pub seal: String,
}

impl Walkable {
    fn first_ids(&self) -> Vec<usize> {
        self.meshes
            .iter()
            .scan(0, |acc, m| {
                let f = *acc;
                *acc += m.len();
                Some(f)
            })
            .collect()
    }
}

impl Artifact for Walkable {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut c = BTreeMap::new();
        for (s, m) in self.sizes.iter().zip(&self.meshes) {
            c.insert(format!("walkable ({})", s.name), m.len() as u64);
        }
        let outside: usize = self.outside.iter().map(Vec::len).sum();
        if outside > 0 {
            c.insert("outside the sealed map".into(), outside as u64);
        }
        c
    }

    fn primitives(&self) -> Vec<Primitive> {
        let first = self.first_ids();
        let mut out = Vec::new();
        for (m, polys) in self.meshes.iter().enumerate() {
            for (i, p) in polys.iter().enumerate() {
                out.push(Primitive::new(
                    format!("walkable/{}", self.sizes[m].name),
                    (first[m] + i) as u32,
                    poly_shape(&p.polygon),
                ));
            }
        }
        for (i, p) in self.outside.iter().flatten().enumerate() {
            out.push(Primitive::new(
                OUTSIDE_KIND,
                i as u32,
                poly_shape(&p.polygon),
            ));
        }
        out
    }

    fn describe_element(&self, kind: &str, element: u32) -> serde_json::Value {
        let prims: Vec<Primitive> = self
            .primitives()
            .into_iter()
            .filter(|p| p.kind == kind && p.element == element)
            .collect();
        let mut v = navscope_core::describe::primitives(&prims.iter().collect::<Vec<_>>());
        if kind == OUTSIDE_KIND
            && let Some(o) = v.as_object_mut()
        {
            o.insert("dropped".into(), json!(navscope_core::outside::WHY));
            o.insert("seal".into(), json!(self.seal));
        }
        v
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        self.sizes
            .iter()
            .zip(&self.meshes)
            .map(|(s, m)| {
                (
                    format!("walkable area {} (m2)", s.name),
                    m.iter()
                        .map(|p| crate::polyhedron::polygon_area(&p.polygon) * p.plane.normal.y)
                        .sum(),
                )
            })
            .collect()
    }
}

/// The kind the walkable faces outside a sealed map are drawn as.
pub const OUTSIDE_KIND: &str = "walkable/outside";

fn run_walkable(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let ex = ctx.artifact::<Expanded>("expand")?;
    let u = ctx.artifact::<Union>("union")?;
    let slope = ctx.params.float(param::MAX_SLOPE);
    brushes(ctx)?;
    let seal = ctx.seal();
    let mut outside = Vec::new();
    let mut meshes: Vec<Vec<WalkPoly>> = u
        .meshes
        .iter()
        .zip(&u.sizes)
        .map(|(m, s)| {
            let (kept, out) = drop_outside(walkable(m, slope), seal.and_then(Seal::outside));
            outside.push(out);
            merge_coplanar(split_by_regions(kept, &ex.regions, s.half))
        })
        .collect();
    if meshes.len() == 2 {
        let drop = u.sizes[0].half.y - u.sizes[1].half.y;
        let crouch = std::mem::take(&mut meshes[1]);
        meshes[1] = crouch_only(crouch, &meshes[0], drop);
    }
    Ok(Arc::new(Walkable {
        sizes: u.sizes.clone(),
        meshes,
        outside,
        seal: seal.map(Seal::describe).unwrap_or_default(),
    }))
}

// ---------------------------------------------------------------- edge planes

/// Artifact of `edge-planes`: per agent size, the edge plane table (and
/// the polygons its edges refer to).
#[derive(Debug, Serialize)]
pub struct EdgePlanes {
    /// The agent sizes.
    pub sizes: Vec<AgentSize>,
    /// The walkable polygons, per size.
    pub polys: Vec<Vec<WalkPoly>>,
    /// The table, per size.
    pub tables: Vec<Vec<EdgePlane>>,
}

impl EdgePlanes {
    fn locate(&self, element: u32) -> Option<(usize, usize)> {
        let mut e = element as usize;
        for (m, t) in self.tables.iter().enumerate() {
            if e < t.len() {
                return Some((m, e));
            }
            e -= t.len();
        }
        None
    }

    fn edge_json(&self, m: usize, r: &EdgeRef) -> serde_json::Value {
        let (a, b) = r.points(&self.polys[m]);
        json!({ "polygon": r.poly, "edge": r.edge, "from": a.to_array(), "to": b.to_array() })
    }
}

impl Artifact for EdgePlanes {
    fn counts(&self) -> BTreeMap<String, u64> {
        let edges: usize = self
            .tables
            .iter()
            .flatten()
            .map(|p| p.same.len() + p.opposite.len())
            .sum();
        let pairs: usize = self
            .tables
            .iter()
            .flatten()
            .map(|p| p.same.len() * p.opposite.len())
            .sum();
        count_map(&[
            ("planes", self.tables.iter().map(Vec::len).sum()),
            ("edges", edges),
            ("opposing pairs", pairs),
        ])
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        let mut el = 0u32;
        for (m, table) in self.tables.iter().enumerate() {
            for p in table {
                let pts: Vec<DVec3> = p
                    .same
                    .iter()
                    .chain(&p.opposite)
                    .flat_map(|r| {
                        let (a, b) = r.points(&self.polys[m]);
                        [a, b]
                    })
                    .collect();
                let frame_i = p.plane.normal.cross(DVec3::Y).normalize();
                let origin = p.plane.normal * p.plane.d;
                let xs = pts.iter().map(|q| (*q - origin).dot(frame_i));
                let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                    (l.min(x), h.max(x))
                });
                let (ylo, yhi) = pts
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), q| {
                        (l.min(q.y), h.max(q.y))
                    });
                let at = |x: f64, y: f64| origin + frame_i * x + DVec3::Y * y;
                let quad = [
                    at(lo, ylo - 0.25),
                    at(hi, ylo - 0.25),
                    at(hi, yhi + 0.25),
                    at(lo, yhi + 0.25),
                ];
                out.push(Primitive::new("edge-plane", el, poly_shape(&quad)));
                el += 1;
            }
        }
        out
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        let Some((m, i)) = self.locate(element) else {
            return serde_json::Value::Null;
        };
        let p = &self.tables[m][i];
        json!({
            "agent": self.sizes[m].name,
            "plane": { "normal": p.plane.normal.to_array(), "d": p.plane.d },
            "same_facing": p.same.iter().map(|r| self.edge_json(m, r)).collect::<Vec<_>>(),
            "opposite_facing": p.opposite.iter().map(|r| self.edge_json(m, r)).collect::<Vec<_>>(),
        })
    }
}

fn run_edge_planes(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let w = ctx.artifact::<Walkable>("walkable")?;
    let angle = ctx.params.float(param::PLANE_ANGLE_TOL).to_radians();
    let dist = ctx.params.float(param::PLANE_DIST_TOL);
    let tables = w
        .meshes
        .iter()
        .map(|m| build_table(m, angle, dist))
        .collect();
    Ok(Arc::new(EdgePlanes {
        sizes: w.sizes.clone(),
        polys: w.meshes.clone(),
        tables,
    }))
}

// ---------------------------------------------------------------- links

fn link_kind_name(k: LinkKind) -> String {
    format!("link/{}", k.name())
}

fn link_primitives(links: &[&LinkSeg], first: u32) -> Vec<Primitive> {
    let mut out = Vec::new();
    for (i, l) in links.iter().enumerate() {
        let el = first + i as u32;
        let kind = link_kind_name(l.kind);
        let ms = (l.source[0] + l.source[1]) * 0.5;
        let md = (l.dest[0] + l.dest[1]) * 0.5;
        if l.source[0].distance(l.source[1]) > 1e-9 {
            out.push(Primitive::new(
                kind.clone(),
                el,
                Shape::Segment(f32v(l.source[0]), f32v(l.source[1])),
            ));
        }
        let arrow = vec![
            f32v(ms - l.across * 0.15),
            f32v(ms),
            f32v(md),
            f32v(md + l.across * 0.15),
        ];
        out.push(Primitive::new(
            kind,
            el,
            Shape::Polyline {
                points: arrow,
                closed: false,
            },
        ));
    }
    out
}

fn link_counts(links: &[&LinkSeg]) -> BTreeMap<String, u64> {
    let mut c = BTreeMap::new();
    for l in links {
        *c.entry(format!("{} links", l.kind.name())).or_insert(0) += 1;
    }
    c
}

/// Artifact of `links`: per agent size, its walk and step links.
#[derive(Debug, Serialize)]
pub struct Links {
    /// Links per size (directed; each crossing appears once per direction).
    pub meshes: Vec<Vec<LinkSeg>>,
}

impl Artifact for Links {
    fn counts(&self) -> BTreeMap<String, u64> {
        link_counts(&self.meshes.iter().flatten().collect::<Vec<_>>())
    }

    fn primitives(&self) -> Vec<Primitive> {
        link_primitives(&self.meshes.iter().flatten().collect::<Vec<_>>(), 0)
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        self.meshes
            .iter()
            .flatten()
            .nth(element as usize)
            .map(crate::inspect::link_seg)
            .unwrap_or_default()
    }
}

/// Keeps walk links and the step or jump links whose vertical crossing is
/// clear of the mesh's expanded brushes (see [`clear_of`]).
fn keep_clear(links: Vec<LinkSeg>, brushes: &[ExpandedBrush]) -> Vec<LinkSeg> {
    let solids: Vec<&Polyhedron> = brushes.iter().map(|b| &b.solid).collect();
    links
        .into_iter()
        .filter(|l| l.kind == LinkKind::Walk || clear_of(&solids, l))
        .collect()
}

fn run_links(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let ex = ctx.artifact::<Expanded>("expand")?;
    let t = ctx.artifact::<EdgePlanes>("edge-planes")?;
    let step = ctx.params.float(param::STEP_HEIGHT);
    let meshes = (0..t.tables.len())
        .map(|m| {
            keep_clear(
                table_links(m, &t.polys[m], &t.tables[m], &|e, f| {
                    walk_and_step(e, f, step)
                }),
                &ex.expanded[m],
            )
        })
        .collect();
    Ok(Arc::new(Links { meshes }))
}

// ---------------------------------------------------------------- extra links

/// Artifact of `extra-links`: jump links per size, crouch links between
/// the standing and crouching meshes, ladder links per size.
#[derive(Debug, Serialize)]
pub struct ExtraLinks {
    /// Jump links per size.
    pub jumps: Vec<Vec<LinkSeg>>,
    /// Crouch links (standing mesh 0 ↔ crouching mesh 1).
    pub crouch: Vec<LinkSeg>,
    /// Ladder links per size.
    pub ladders: Vec<Vec<LinkSeg>>,
    /// Elevator, teleport, push (jump) and swim links per size.
    pub movers: Vec<Vec<LinkSeg>>,
}

impl ExtraLinks {
    fn all(&self) -> Vec<&LinkSeg> {
        self.jumps
            .iter()
            .flatten()
            .chain(&self.crouch)
            .chain(self.ladders.iter().flatten())
            .chain(self.movers.iter().flatten())
            .collect()
    }
}

impl Artifact for ExtraLinks {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut c = link_counts(&self.all());
        for k in [
            "jump links",
            "crouch links",
            "ladder links",
            "elevator links",
            "teleport links",
            "swim links",
        ] {
            c.entry(k.to_string()).or_insert(0);
        }
        c
    }

    fn primitives(&self) -> Vec<Primitive> {
        link_primitives(&self.all(), 0)
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        self.all()
            .get(element as usize)
            .map(|l| crate::inspect::link_seg(l))
            .unwrap_or_default()
    }
}

/// Height between the lowest and the highest point of the walkable
/// polygons of every mesh (0 with none).
fn height_span(meshes: &[Vec<WalkPoly>]) -> f64 {
    let ys = meshes
        .iter()
        .flatten()
        .flat_map(|p| p.polygon.iter().map(|v| v.y));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    (hi - lo).max(0.0)
}

fn run_extra_links(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let ex = ctx.artifact::<Expanded>("expand")?;
    let t = ctx.artifact::<EdgePlanes>("edge-planes")?;
    let links = ctx.artifact::<Links>("links")?;
    let step = ctx.params.float(param::STEP_HEIGHT);
    let jump = ctx.params.float(param::JUMP_HEIGHT);
    // No drop is deeper than the floors' height span, however deep the
    // deepest drop taken (Quake's player takes any).
    let max_drop = ctx.params.float(param::MAX_DROP).min(height_span(&t.polys));
    let reach = jump.max(max_drop);
    // Jumps and drops are found together as vertical links up to the
    // deeper reach; those that would climb more than a jump are dropped,
    // so a drop deeper than a jump is one way, down.
    let mut jumps: Vec<Vec<LinkSeg>> = (0..t.tables.len())
        .map(|m| {
            let both = table_links(m, &t.polys[m], &t.tables[m], &|e, f| {
                jumps(e, f, step, reach)
            });
            let climbable = both
                .into_iter()
                .filter(|l| (0..2).all(|k| l.dest[k].y - l.source[k].y <= jump + 1e-9))
                .collect();
            keep_clear(climbable, &ex.expanded[m])
        })
        .collect();
    let crouch = if t.polys.len() >= 2 {
        let covered: Vec<LinkSeg> = links.meshes[0].iter().chain(&jumps[0]).cloned().collect();
        let drop = ex.sizes[0].half.y - ex.sizes[1].half.y;
        crouch_links(&t.polys[0], &covered, &t.polys[1], drop, step, 0, 1)
    } else {
        Vec::new()
    };
    let level = brushes(ctx)?;
    let gravity = navscope_core::movers::QUAKE_GRAVITY * level.unit;
    let mut ladders = Vec::new();
    let mut movers = Vec::new();
    let reach = gaps::Reach::from_params(ctx.params, max_drop, step);
    for (m, polys) in t.polys.iter().enumerate() {
        let grid = PolyGrid::new(polys);
        let solids: Vec<&Polyhedron> = ex.expanded[m].iter().map(|b| &b.solid).collect();
        jumps[m].extend(gaps::gap_jumps(m, polys, &grid, &solids, reach));
        let half = ex.sizes[m].half;
        let climb = |kind, list: &[Ladder]| -> Vec<LinkSeg> {
            list.iter()
                .flat_map(|l| ladder_links(kind, m, polys, &grid, l, half, step))
                .collect()
        };
        ladders.push(climb(LinkKind::Ladder, &ex.ladders));
        let mut moved = climb(LinkKind::Elevator, &ex.lifts);
        moved.extend(
            ex.rides
                .iter()
                .filter_map(|r| ride_link(m, polys, &grid, r, half, step)),
        );
        moved.extend(trigger_links(m, polys, &grid, &ex.regions, step, gravity));
        moved.extend(swim_links(
            m,
            polys,
            &grid,
            &ex.regions,
            &solids,
            half,
            step,
        ));
        for h in &ex.holes {
            // The panel is out of the way while the hole is open.
            let others: Vec<&Polyhedron> = ex.expanded[m]
                .iter()
                .filter(|b| level.brushes.get(b.brush).and_then(|b| b.entity) != Some(h.entity))
                .map(|b| &b.solid)
                .collect();
            moved.extend(hole_fall(m, polys, &grid, h, &others, half, step));
        }
        movers.push(moved);
    }
    Ok(Arc::new(ExtraLinks {
        jumps,
        crouch,
        ladders,
        movers,
    }))
}

// ---------------------------------------------------------------- navmesh

/// Artifact of `navmesh`: the common NavMesh.
#[derive(Debug, Serialize)]
pub struct Output {
    /// The mesh.
    pub mesh: NavMesh,
    /// Id of the first node of each agent size's mesh.
    pub first_node: Vec<u32>,
}

impl Artifact for Output {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut c = BTreeMap::new();
        c.insert("nodes".to_string(), self.mesh.nodes.len() as u64);
        c.insert("links".to_string(), self.mesh.links.len() as u64);
        c
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        for n in &self.mesh.nodes {
            if let Some(p) = &n.polygon {
                out.push(Primitive::new(
                    format!("node/{}", n.stance.name()),
                    n.id,
                    poly_shape(p),
                ));
            }
        }
        let base = self.mesh.nodes.len() as u32;
        for (i, l) in self.mesh.links.iter().enumerate() {
            if let Some([a, b]) = l.segment() {
                out.push(Primitive::new(
                    link_kind_name(l.kind),
                    base + i as u32,
                    Shape::Segment(f32v(a), f32v(b)),
                ));
            }
        }
        out
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        let mut m = BTreeMap::new();
        for k in LinkKind::ALL {
            let n = self.mesh.links.iter().filter(|l| l.kind == k).count();
            if n > 0 {
                m.insert(format!("{} links", k.name()), n as f64);
            }
        }
        for s in [Stance::Stand, Stance::Crouch, Stance::Swim] {
            m.insert(
                format!("{} nodes", s.name()),
                self.mesh.nodes.iter().filter(|n| n.stance == s).count() as f64,
            );
        }
        m
    }

    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.mesh)
    }
}

/// The kind a link takes from the regions at its ends: a walk or step
/// into or out of a door region is a door link, into or out of water
/// (other than through a door) a swim link.
fn region_kind(l: &LinkSeg, w: &Walkable, regions: &[Region]) -> LinkKind {
    let from = w.meshes[l.from_mesh][l.from].region;
    let to = w.meshes[l.to_mesh][l.to].region;
    let is = |r: Option<usize>, k: &RegionKind| r.is_some_and(|r| regions[r].kind == *k);
    let walking = matches!(
        l.kind,
        LinkKind::Walk | LinkKind::StepUp | LinkKind::StepDown
    );
    if !walking || from == to && !is(to, &RegionKind::Water) {
        l.kind
    } else if from != to && (is(from, &RegionKind::Door) || is(to, &RegionKind::Door)) {
        LinkKind::Door
    } else if is(from, &RegionKind::Water) || is(to, &RegionKind::Water) {
        LinkKind::Swim
    } else {
        l.kind
    }
}

fn run_navmesh(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let ex = ctx.artifact::<Expanded>("expand")?;
    let w = ctx.artifact::<Walkable>("walkable")?;
    let links = ctx.artifact::<Links>("links")?;
    let extra = ctx.artifact::<ExtraLinks>("extra-links")?;
    let (slime, lava) = (
        ctx.params.float(param::SLIME_COST),
        ctx.params.float(param::LAVA_COST),
    );
    let all: Vec<LinkSeg> = links
        .meshes
        .iter()
        .flatten()
        .chain(extra.all())
        .map(|l| LinkSeg {
            kind: region_kind(l, w, &ex.regions),
            ..l.clone()
        })
        .collect();
    let refs: Vec<&LinkSeg> = all.iter().collect();
    let step = ctx.params.float(param::STEP_HEIGHT);
    let polygons: Vec<Vec<Vec<DVec3>>> = (w.meshes.iter().zip(&w.sizes))
        .zip(&ex.expanded)
        .map(|((polys, size), brushes)| {
            let solids: Vec<&Polyhedron> = brushes.iter().map(|b| &b.solid).collect();
            shrink_ledges(polys, &solids, size.half, step)
        })
        .collect();
    let fall = Fall::from_params(ctx.params);
    let reach = gaps::Reach::from_params(ctx.params, f64::INFINITY, step);
    // A hurting landing (a jump's, or a fall through a door's hole) costs
    // more, except in water (Quake's fall damage
    // skips a landing in water).
    let landing = |l: &LinkSeg, from: DVec3, to: DVec3| {
        let into_water = w.meshes[l.to_mesh][l.to]
            .region
            .is_some_and(|r| ex.regions[r].kind == RegionKind::Water);
        // Walking links (doors included) go down a step at most: no cost.
        if !matches!(l.kind, LinkKind::Jump | LinkKind::Door) || into_water {
            return 0.0;
        }
        let across = (to - from).with_y(0.0).length();
        fall.cost(&reach, across, from.y - to.y)
    };
    let (mut mesh, first_node) = crate::output::navmesh(&w.sizes, &polygons, &refs, &landing);
    for (m, polys) in w.meshes.iter().enumerate() {
        for (i, p) in polys.iter().enumerate() {
            if let Some(r) = p.region {
                let node = &mut mesh.nodes[first_node[m] as usize + i];
                node.area = ex.regions[r].kind.area().into();
                if ex.regions[r].kind == RegionKind::Water {
                    node.stance = Stance::Swim;
                }
            }
        }
    }
    let hazard: Vec<Option<f64>> = mesh
        .nodes
        .iter()
        .map(|n| {
            if n.area == "slime" {
                Some(slime)
            } else if n.area == "lava" {
                Some(lava)
            } else {
                None
            }
        })
        .collect();
    mesh.links.retain_mut(|l| {
        let Some(h) = hazard[l.to as usize] else {
            return true;
        };
        l.cost *= h;
        h > 0.0
    });
    mesh.level = ctx.level.source.clone();
    Ok(Arc::new(Output { mesh, first_node }))
}
