//! Why not here: whether a point of the level is on a pipeline's NavMesh
//! and, when it is not, the first rule that dropped it, measured on the
//! level at that point, with the stage that applies the rule and the
//! smallest one-parameter change that keeps the point, checked by building
//! again.
//!
//! The rules are tried in the order the pipelines apply them, after one
//! that no parameter changes: on a sealed brush map, a place whose space
//! above is outside the map ([`navscope_core::outside`], `qbsp`'s outside
//! fill) is no place for a player, and the walkable stage drops it.
//! 1. a surface under the point (voxel: a triangle rasterised there,
//!    Recast rcRasterizeTriangles; cspace: a walkable face; navgraph: a
//!    free pixel);
//! 2. inside a brush grown by the agent's box (cspace, Golodetz §3), named
//!    with its entity and texture;
//! 3. the slope of that surface (voxel rcMarkWalkableTriangles, cspace
//!    §4.1);
//! 4. the headroom over it (voxel rcFilterWalkableLowHeightSpans);
//! 5. a wall within the agent's radius (voxel rcErodeWalkableArea,
//!    navgraph's dilated binary image), named;
//! 6. a region smaller than the minimum (voxel rcBuildRegions): not
//!    measured here, named when nothing above applies and a smaller
//!    minimum is checked to keep the point.
//!
//! The fix of a measured rule on a mesh level is checked on the level
//! within [`NEAR`] of the point (its triangles that come that close), so
//! that each build is small: the rules measured here are local (slope,
//! headroom, the radius, the step). The region rule is checked on the
//! whole level, as a region's size is not local.
//!
//! The stage named is the one that applies the rule (the rule table of
//! [`crate::rules::Rules`]). When no rule applies the answer says so and
//! names the last stage. The voxel pipeline's rules are its standing
//! agent's (`stand.*`); a point kept by another pass is on the mesh.

use glam::DVec3;
use std::sync::Arc;

use navscope_core::geom::polyhedron::Polyhedron;
use navscope_core::{NavMesh, Runner};
use navscope_path::Locator;
use serde::{Deserialize, Serialize};

use crate::fix::{FixBudget, find_fixes, rebuilt};
use crate::gap::Fix;
use crate::rules::{Limit, Rules, nearest_wall};
use crate::solids::{Hit, Solids};

/// A point is on the mesh when a node's polygon holds it seen from above
/// and its surface is at most this far above or below (metres), or a point
/// node is this close.
pub const ON_MESH: f64 = 0.5;

/// The answer at one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Why {
    /// The point asked about.
    pub at: DVec3,
    /// True when the point is on the NavMesh.
    pub walkable: bool,
    /// The node under the point when walkable.
    pub node: Option<u32>,
    /// The stage that dropped the point (the last stage when walkable or
    /// when no rule was found).
    pub stage: String,
    /// Why, in words, with the parameter, its value and the source.
    pub reason: String,
    /// One-parameter changes checked to keep the point, smallest first.
    pub fix: Vec<Fix>,
    /// Per voxel pass, its answer (see [`per_stance`]).
    #[serde(default)]
    pub stances: Vec<StanceWhy>,
    /// The thing named, for drawing, as closed outlines ([`shape_of`]):
    /// a triangle, a brush's faces, an obstacle pixel's square, or a lone
    /// point where a wall was met but has no outline; empty when nothing
    /// is named.
    pub shape: Vec<Vec<DVec3>>,
}

/// The answer for one voxel pass's agent (no fix search).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StanceWhy {
    /// The pass's stance ("stand", "crouch", ...).
    pub stance: String,
    /// True when a node of that stance holds the point.
    pub walkable: bool,
    /// The stage of the rule that drops it (empty when walkable or none).
    pub stage: String,
    /// Why, in words.
    pub reason: String,
    /// The outlines of the thing the rule names (as [`Why::shape`]).
    #[serde(default)]
    pub shape: Vec<Vec<DVec3>>,
}

/// Per enabled voxel pass (parameter `passes`), whether the point is on a
/// node of its stance and otherwise the first rule of its agent that drops
/// it, measured as [`why_not_here`] does; empty for other pipelines.
pub fn per_stance(base: &Runner, mesh: &NavMesh, at: DVec3) -> Vec<StanceWhy> {
    if base.pipeline().id != "voxel" {
        return Vec::new();
    }
    let passes = match base.params().get("passes") {
        Some(navscope_core::ParamValue::Text(t)) => t.clone(),
        _ => return Vec::new(),
    };
    let held = on_mesh(mesh, at).and_then(|n| mesh.nodes.get(n as usize).map(|n| n.stance.name()));
    let solids = Solids::new(base.level());
    passes
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|stance| {
            if held == Some(stance) {
                return StanceWhy {
                    stance: stance.into(),
                    walkable: true,
                    stage: String::new(),
                    reason: format!("on a {stance} node of the NavMesh"),
                    shape: Vec::new(),
                };
            }
            let mut rules = Rules::default();
            rules.voxel_stance(base.params(), stance);
            let found = solids.as_ref().and_then(|s| cause(&rules, s, at));
            let (stage, reason, shape) = match (found, held) {
                (Some(c), _) => (
                    c.limit.map(|l| l.stage.to_string()).unwrap_or_else(|| "voxelize".into()),
                    c.words,
                    c.shape,
                ),
                (None, Some(h)) => (
                    String::new(),
                    format!("left to the {h} pass, which keeps the point (each pass sees only the voxels the earlier ones left)"),
                    Vec::new(),
                ),
                (None, None) => (String::new(), "no rule measured here drops the point".into(), Vec::new()),
            };
            StanceWhy {
                stance: stance.into(),
                walkable: false,
                stage,
                reason,
                shape,
            }
        })
        .collect()
}

/// The node `at` is on (see [`ON_MESH`]).
fn on_mesh(mesh: &NavMesh, at: DVec3) -> Option<u32> {
    Locator::new(mesh)
        .with_max_distance(ON_MESH)
        .locate(at)
        .filter(|l| {
            let point_node = mesh
                .nodes
                .get(l.node as usize)
                .is_some_and(|n| n.polygon.is_none());
            (l.inside || point_node) && l.distance <= ON_MESH
        })
        .map(|l| l.node)
}

pub use crate::crop::NEAR;

/// A rule that dropped the point, before the fix search.
struct Cause {
    limit: Option<Limit>,
    words: String,
    shape: Vec<Vec<DVec3>>,
}

/// The outlines of what `hit` met (at `point`), to draw: a triangle's
/// corners; a brush's face polygons (each counter-clockwise seen from
/// outside, on its plane), the brush as the level has it (not grown by
/// the agent: the designer edits that one); an obstacle pixel's square at
/// the height of `point`; otherwise, or for a brush whose planes enclose
/// nothing, the lone `point`.
pub fn shape_of(solids: &Solids, hit: Hit, point: DVec3) -> Vec<Vec<DVec3>> {
    let lone = || vec![vec![point]];
    match (solids, hit) {
        (Solids::Mesh(m, _, _), Hit::Triangle(i)) => {
            vec![m.triangle(i).iter().map(|v| v.as_dvec3()).collect()]
        }
        (Solids::Brushes(b, _), Hit::Brush(i)) => b
            .brushes
            .get(i)
            .and_then(|br| Polyhedron::from_planes(&br.planes).ok())
            .map_or_else(lone, |p| p.faces.into_iter().map(|f| f.vertices).collect()),
        (Solids::Raster(r), Hit::Pixel(x, y)) => {
            let m = r.metres_per_pixel;
            let corner = |i: i64, j: i64| DVec3::new(i as f64 * m, point.y, j as f64 * m);
            vec![vec![
                corner(x, y),
                corner(x + 1, y),
                corner(x + 1, y + 1),
                corner(x, y + 1),
            ]]
        }
        _ => lone(),
    }
}

fn cite(l: &Limit) -> String {
    format!("{} {:.2} ({})", l.label, l.value, l.source)
}

/// A point with no floor under it that lies on a face of the level (a
/// click on a wall): the face and its slope, which no floor rule keeps;
/// found by short rays across the point in 16 plan directions.
fn on_wall(rules: &Rules, solids: &Solids, at: DVec3) -> Option<Cause> {
    const NEAR_FACE: f64 = 0.02;
    let (dir, hit) = (0..16)
        .filter_map(|k| {
            let a = k as f64 * std::f64::consts::TAU / 16.0;
            let dir = DVec3::new(a.cos(), 0.0, a.sin());
            let (t, hit) = solids.ray(at - dir * NEAR_FACE, dir, 2.0 * NEAR_FACE)?;
            Some((t, dir, hit))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, dir, hit)| (dir, hit))?;
    let n = solids.normal(hit, dir)?;
    let deg = n.y.abs().clamp(0.0, 1.0).acos().to_degrees();
    Some(Cause {
        limit: rules.slope.clone(),
        words: format!(
            "the point is on {}, a face of slope {deg:.1} deg with no floor under it{}",
            solids.describe(hit, dir),
            rules
                .slope
                .as_ref()
                .map(|l| format!(" (a wall: > {})", cite(l)))
                .unwrap_or_default()
        ),
        shape: shape_of(solids, hit, at),
    })
}

/// The first rule that drops `at` on the level, measured (see the module
/// docs); `None` when none is measured.
fn cause(rules: &Rules, solids: &Solids, at: DVec3) -> Option<Cause> {
    let climb = rules.step.as_ref().map_or(0.5, |l| l.value).max(0.3);
    let top = at + DVec3::Y * climb;
    let Some((t, floor_hit)) = solids.ray(top, -DVec3::Y, 2.0 * climb) else {
        if let Some(wall) = on_wall(rules, solids, at) {
            return Some(wall);
        }
        return Some(Cause {
            limit: None,
            words: "no surface under the point (nothing rasterised or walkable there: Recast rcRasterizeTriangles, Golodetz §4.1)".into(),
            shape: Vec::new(),
        });
    };
    if t == 0.0 {
        return Some(Cause {
            limit: rules.radius.clone(),
            words: format!(
                "the point is inside {}",
                solids.describe(floor_hit, -DVec3::Y)
            ),
            shape: shape_of(solids, floor_hit, at),
        });
    }
    let floor = top - DVec3::Y * t;
    if let Solids::Brushes(level, _) = solids
        && let (Some(w), Some(d), Some(h)) = (&rules.width_x, &rules.width_z, &rules.height)
    {
        let half = DVec3::new(w.value / 2.0, 0.0, d.value / 2.0);
        let (lo, hi) = (
            floor - half + DVec3::Y * 0.02,
            floor + half + DVec3::Y * h.value,
        );
        let corners = |n: DVec3| {
            DVec3::new(
                if n.x < 0.0 { hi.x } else { lo.x },
                if n.y < 0.0 { hi.y } else { lo.y },
                if n.z < 0.0 { hi.z } else { lo.z },
            )
        };
        let inside = level.brushes.iter().enumerate().find(|(_, b)| {
            (b.contents.blocks() || b.contents == navscope_core::level::Contents::Door)
                && !b.planes.is_empty()
                && b.planes
                    .iter()
                    .all(|p| p.normal.dot(corners(p.normal)) - p.d < 0.0)
        });
        if let Some((i, _)) = inside {
            let hit = Hit::Brush(i);
            return Some(Cause {
                limit: Some(w.clone()),
                words: format!(
                    "inside {} grown by the agent's box ({} {:.2} m x {} {:.2} m x {} {:.2} m; {})",
                    solids.describe(hit, DVec3::Y),
                    w.label,
                    w.value,
                    d.label,
                    d.value,
                    h.label,
                    h.value,
                    w.source
                ),
                shape: shape_of(solids, hit, floor),
            });
        }
    }
    if let (Some(l), Some(n)) = (&rules.slope, solids.normal(floor_hit, -DVec3::Y)) {
        let deg = n.y.clamp(-1.0, 1.0).acos().to_degrees();
        if deg > l.value + 1e-6 {
            return Some(Cause {
                limit: Some(l.clone()),
                words: format!(
                    "slope {deg:.1} deg of {} > {}",
                    solids.describe(floor_hit, -DVec3::Y),
                    cite(l)
                ),
                shape: shape_of(solids, floor_hit, floor),
            });
        }
    }
    if let Some(l) = &rules.height
        && let Some((t, hit)) = solids.ray(floor + DVec3::Y * 0.02, DVec3::Y, l.value)
        && t + 0.02 < l.value - 1e-6
    {
        return Some(Cause {
            limit: Some(l.clone()),
            words: format!(
                "headroom {:.2} m under {} < {}",
                t + 0.02,
                solids.describe(hit, DVec3::Y),
                cite(l)
            ),
            shape: shape_of(solids, hit, floor + DVec3::Y * (t + 0.02)),
        });
    }
    if let Some(l) = &rules.radius {
        let probe = floor + DVec3::Y * (climb + 0.05);
        if let Some((t, dir, hit)) = nearest_wall(solids, probe, l.value) {
            return Some(Cause {
                limit: Some(l.clone()),
                words: format!(
                    "{} is {t:.2} m away, within the {}",
                    solids.describe(hit, dir),
                    cite(l)
                ),
                shape: shape_of(solids, hit, probe + dir * t),
            });
        }
    }
    None
}

/// Whether `at` is on the NavMesh `base` builds (built here if it has not
/// run) and, if not, why and what keeps it (see the module docs). The
/// fix search tries the named rule's parameter first and builds again
/// within `budget`, keeping the stages the change does not reach.
pub fn why_not_here(base: &mut Runner, at: DVec3, budget: &FixBudget) -> Why {
    base.run_all();
    let stages = &base.pipeline().stages;
    let last = stages
        .last()
        .map(|s| s.info.id.to_string())
        .unwrap_or_default();
    let mut why = Why {
        at,
        walkable: false,
        node: None,
        stage: last.clone(),
        reason: String::new(),
        fix: Vec::new(),
        stances: Vec::new(),
        shape: Vec::new(),
    };
    if let Some((i, e)) = base.first_error() {
        why.stage = stages[i].info.id.to_string();
        why.reason = format!("the build failed: {e}");
        return why;
    }
    let Some(mesh) = base.navmesh() else {
        why.reason = "the pipeline produced no NavMesh".into();
        return why;
    };
    why.stances = per_stance(base, &mesh, at);
    if let Some(node) = on_mesh(&mesh, at) {
        why.walkable = true;
        why.node = Some(node);
        why.reason = format!("on node {node} of the NavMesh");
        return why;
    }
    if base
        .seal()
        .and_then(|s| s.outside())
        .is_some_and(|o| o.above(at))
    {
        why.stage = "walkable".into();
        why.reason = format!(
            "{}; no parameter puts a player there",
            navscope_core::outside::WHY
        );
        return why;
    }
    let pipeline = base.pipeline().clone();
    let rules = Rules::for_pipeline(pipeline.id, base.params());
    let found = Solids::new(base.level()).and_then(|s| cause(&rules, &s, at));
    let region = rules.min_region.clone();
    let (limit, words, shape) = match found {
        Some(c) => (c.limit, c.words, c.shape),
        None => match &region {
            Some(l) => (
                Some(l.clone()),
                format!("the region here is smaller than the {}", cite(l)),
                Vec::new(),
            ),
            None => (
                None,
                "no rule measured here drops the point".into(),
                Vec::new(),
            ),
        },
    };
    match &limit {
        Some(l) => why.stage = l.stage.to_string(),
        None if words.starts_with("no surface") => {
            if !rules.surface.is_empty() {
                why.stage = rules.surface.to_string();
            }
            // No parameter puts a surface there: nothing to search.
            why.reason = format!("{words}; no parameter puts a surface there");
            return why;
        }
        None => {}
    }
    let first: Vec<String> = limit.iter().map(|l| l.parameter.clone()).collect();
    let specs: Vec<_> = match &limit {
        Some(_) => pipeline
            .params
            .iter()
            .filter(|s| first.contains(&s.name))
            .cloned()
            .collect(),
        None => pipeline.params.clone(),
    };
    let local = match (&limit, crate::crop::around_point(base.level(), at)) {
        (Some(l), Some(crop)) if !found_region(&limit, &region) => {
            let mut r = Runner::new(pipeline.clone(), Arc::new(crop));
            r.set_params(base.params().clone());
            r.run_all();
            // Checked on the crop only when the crop drops the point too.
            (r.navmesh().is_some_and(|m| on_mesh(&m, at).is_none()) && !l.parameter.is_empty())
                .then_some(r)
        }
        _ => None,
    };
    let checked_on = local.as_ref().unwrap_or(&*base);
    let mut keeps = |v: &navscope_core::ParamValues| {
        rebuilt(checked_on, v).is_some_and(|m| on_mesh(&m, at).is_some())
    };
    why.fix = find_fixes(&specs, base.params(), &first, &[], budget, &mut keeps);
    if found_region(&limit, &region) && why.fix.is_empty() {
        why.reason = "not on the NavMesh; no rule measured here drops the point, and a smaller min region size does not keep it".into();
        why.stage = pipeline
            .stages
            .last()
            .map(|s| s.info.id.to_string())
            .unwrap_or_default();
        return why;
    }
    why.reason = match why.fix.first() {
        Some(f) => format!(
            "{words}; {} = {} keeps the point (checked by building {} again)",
            f.parameter,
            f.value,
            if local.is_some() {
                format!("the level within {NEAR} m")
            } else {
                "the level".into()
            }
        ),
        None => format!("{words}; no single change of that parameter keeps the point"),
    };
    why.shape = shape;
    why
}

/// True when the cause named is the region-size guess (nothing measured).
fn found_region(limit: &Option<Limit>, region: &Option<Limit>) -> bool {
    limit.is_some() && limit == region
}
