//! A mesh level cut down to the part around a place, so that a check of
//! a fix builds only that part again: the why tool's crop around a point
//! ([`around_point`]) and, for a tiled pipeline, the tiles around a gap
//! ([`around_gap`]).
//!
//! Why a local join is the right check for a gap's fix: the gap's `from`
//! side is reached from the start (or is the island) and its `to` side
//! reaches the goal (or is the largest island); so once a change links
//! the two ends of the gap, the path runs start → `from` → `to` → goal,
//! unless the change also cuts the start's or the goal's side somewhere
//! else (a larger radius closing a doorway on the way). That second
//! effect is not checked by the local build, and a fix is the smallest
//! change of one parameter, so it is rarely large enough to cut a way the
//! current value keeps. Building only the tiles the link could use is
//! what makes the fix search fit its time on a large map.
//!
//! The crop's voxel grid starts at the corner of the triangles it keeps,
//! not at the level's, so its cells may lie up to a cell apart from the
//! whole build's (a first version kept the level's corner with a speck of
//! a triangle there: the voxel pipeline then made no drop or jump links
//! on the crop at all, so it was dropped). That is why the check's result
//! is tested against a whole build (`tests/local_fix.rs`). The tiles at
//! the crop's edge lack their neighbours' triangles in their border,
//! which is why one tile of margin is added beyond the reach of a link.

use std::sync::Arc;

use glam::DVec3;
use navscope_core::level::{Level, LevelData};
use navscope_core::{NavMesh, Runner};
use navscope_path::Locator;

use crate::fix_range::fix_range;
use crate::rules::number;

/// The fix of a local rule at a point is checked on the level within this
/// plan distance of the point (metres).
pub const NEAR: f64 = 8.0;

/// The parameter of the longest link across in plan (voxel's running
/// jump; drops and jumps up reach down or up, within a radius and a cell
/// of their ledge in plan).
const REACH: &str = "jump_reach";

/// `level`'s triangles whose box meets the plan box `lo..hi` (any
/// height); `None` when the level is not a mesh, or the crop would keep
/// every triangle.
pub fn crop(level: &Level, lo: DVec3, hi: DVec3) -> Option<Level> {
    let LevelData::Mesh(m) = &level.data else {
        return None;
    };
    let meets = |t: &[u32; 3]| {
        let v = t.map(|i| m.mesh.vertices[i as usize].as_dvec3());
        let (tlo, thi) = (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]));
        tlo.x <= hi.x && thi.x >= lo.x && tlo.z <= hi.z && thi.z >= lo.z
    };
    let triangles: Vec<[u32; 3]> = m
        .mesh
        .triangles
        .iter()
        .filter(|t| meets(t))
        .copied()
        .collect();
    if triangles.len() == m.mesh.triangles.len() {
        return None;
    }
    let mut out = m.clone();
    out.mesh.triangles = triangles;
    Some(Level {
        source: format!(
            "{} within ({:.1}, {:.1})..({:.1}, {:.1})",
            level.source, lo.x, lo.z, hi.x, hi.z
        ),
        data: LevelData::Mesh(out),
    })
}

/// `level`'s triangles that come within [`NEAR`] of `at` in plan, or
/// `None` when the level is not a mesh (see [`crop`]).
pub fn around_point(level: &Level, at: DVec3) -> Option<Level> {
    let near = DVec3::new(NEAR, 0.0, NEAR);
    crop(level, at - near, at + near)
}

/// How far into its side's polygon each end of a gap is moved for the
/// local check (metres; see [`inside_ends`]).
const INWARD: f64 = 0.5;

/// The ends of a gap from `a` to `b` on `mesh`, each moved [`INWARD`]
/// towards the centre of the node it lies on (at most to the centre):
/// the gap's ends lie on the edges of their polygons, which move when a
/// fix builds again (another erosion, another cell height), and a point
/// on an edge may then be off the mesh; a point inside stays on its side.
pub fn inside_ends(mesh: &NavMesh, a: DVec3, b: DVec3) -> (DVec3, DVec3) {
    let at = Locator::new(mesh);
    let inward = |p: DVec3| {
        let Some(n) = at.locate(p).and_then(|l| mesh.nodes.get(l.node as usize)) else {
            return p;
        };
        let d = n.position - p;
        let len = d.length();
        if len <= INWARD {
            n.position
        } else {
            p + d * (INWARD / len)
        }
    };
    (inward(a), inward(b))
}

/// For a tiled pipeline (voxel with `tile_size` > 0) on a mesh level, a
/// runner of `base`'s pipeline and values on the triangles a link between
/// `a` and `b` could use, built: those over the box around the two, grown
/// by the longer of the running jump's reach and the gap's own width in
/// plan (a link across this gap spans that much, and a longer jump a fix
/// tries lands across the gap too), the largest radius a fix may try, and
/// one tile (tile size in cells times the cell size). `None` otherwise,
/// or when that keeps more than half the level's triangles, or the crop
/// does not build: then the whole level is the check.
pub fn around_gap(base: &Runner, a: DVec3, b: DVec3) -> Option<Runner> {
    let pipeline = base.pipeline();
    let values = base.params();
    if pipeline.id != "voxel" {
        return None;
    }
    let tile = number(values.get("tile_size"))?;
    let cell = number(values.get("cell_size"))?;
    if tile <= 0.0 || cell <= 0.0 {
        return None;
    }
    if !matches!(base.level().data, LevelData::Mesh(_)) {
        return None;
    }
    let largest = |name: &str| {
        let spec = pipeline.params.iter().find(|s| s.name == name)?;
        let now = number(values.get(name))?;
        Some(fix_range(spec, values).map_or(now, |r| r.max.max(now)))
    };
    let plan = (a - b).with_y(0.0).length();
    let reach = number(values.get(REACH)).unwrap_or(0.0).max(plan);
    let radius = pipeline
        .params
        .iter()
        .filter(|s| s.name.ends_with(".radius"))
        .filter_map(|s| largest(&s.name))
        .fold(0.0, f64::max);
    let side = tile * cell;
    let grow = DVec3::new(1.0, 0.0, 1.0) * (reach + radius + side);
    let (lo, hi) = (a.min(b) - grow, a.max(b) + grow);
    let level = crop(base.level(), lo, hi)?;
    // A crop of most of the level saves little and costs the confirming
    // whole build (a Quake map's 64 m tiles cover most of it).
    let count = |l: &Level| match &l.data {
        LevelData::Mesh(m) => m.mesh.triangles.len(),
        _ => 0,
    };
    if count(&level) * 2 > count(base.level()) {
        return None;
    }
    let mut r = Runner::new(pipeline.clone(), Arc::new(level));
    r.set_params(values.clone());
    r.run_all();
    (r.first_error().is_none() && r.navmesh().is_some()).then_some(r)
}
