//! Drawing: every stage's primitives through one style table.
//!
//! This is the only place that knows primitive kinds, and it knows them only
//! as names with a look: colour, fill, width, dashes. A kind without an entry
//! inherits its parent's (`portal/vertex-edge` falls back to `portal`), and a
//! kind nobody listed gets a colour derived from its name, so new pipelines
//! draw without touching the app.
//!
//! [`prepare`] turns primitives into grouped, triangulated geometry; it is
//! pure and runs on the worker thread with the stage. [`DrawPlugin`] turns
//! that geometry into retained gizmos and meshes once per publish, then only
//! flips visibility as the timeline and the legend change.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use navscope_core::{Primitive, Shape};

use crate::cubes::{self, CubeAssets};
use crate::filter::{PrepareOptions, RefilterSystems, ViewFilter};
use crate::stages::{StageElement, StageGeometry};
use crate::tessellate;
use crate::timeline::Timeline;

/// How one kind of primitive looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Line and point colour, sRGB with alpha.
    pub color: [f32; 4],
    /// Fill opacity for polygons, boxes and voxels; `None` draws outlines only.
    pub fill: Option<f32>,
    /// Line width in pixels.
    pub width: f32,
    /// Dashed lines.
    pub dashed: bool,
    /// Point marker radius in level units per unit of level size.
    pub point: f32,
    /// Fill with a soft colour chosen by element id instead of `color`.
    pub per_element: bool,
}

const fn style(color: [f32; 4], fill: Option<f32>, width: f32) -> Style {
    Style {
        color,
        fill,
        width,
        dashed: false,
        point: 0.006,
        per_element: false,
    }
}

impl Style {
    /// The same style with dashed lines.
    const fn dashed(self) -> Style {
        Style {
            dashed: true,
            ..self
        }
    }

    /// The same style with point markers of this radius (level units per
    /// unit of level size).
    const fn dot(self, radius: f32) -> Style {
        Style {
            point: radius,
            ..self
        }
    }

    /// The same style filled with a soft colour per element.
    const fn per_element(self) -> Style {
        Style {
            per_element: true,
            ..self
        }
    }
}

/// The style table: `(kind, style)`, looked up along the kind's chain.
pub const STYLES: &[(&str, Style)] = &[
    ("level", style([0.25, 0.27, 0.30, 1.0], None, 2.0)),
    (
        "notch",
        style([0.93, 0.33, 0.16, 1.0], None, 2.0).dot(0.007),
    ),
    (
        "notch/current",
        style([1.0, 0.85, 0.0, 1.0], None, 4.0).dot(0.012),
    ),
    (
        "area-of-interest",
        style([0.30, 0.55, 0.95, 0.8], Some(0.16), 1.0),
    ),
    ("portal", style([0.55, 0.55, 0.60, 1.0], None, 3.0)),
    (
        "portal/vertex-vertex",
        style([0.10, 0.62, 0.25, 1.0], None, 3.0),
    ),
    (
        "portal/vertex-edge",
        style([0.10, 0.45, 0.90, 1.0], None, 3.0),
    ),
    (
        "portal/vertex-portal",
        style([0.80, 0.20, 0.70, 1.0], None, 3.0),
    ),
    (
        "portal/removed",
        style([0.50, 0.50, 0.50, 0.9], None, 1.5).dashed(),
    ),
    ("portal/candidate", style([1.0, 0.75, 0.1, 1.0], None, 3.0)),
    (
        "cell",
        style([0.20, 0.22, 0.25, 1.0], Some(0.55), 1.5).per_element(),
    ),
    (
        "cell/centroid",
        style([0.30, 0.30, 0.35, 1.0], None, 1.0).dot(0.004),
    ),
    (
        "cell/ill-conditioned",
        style([0.85, 0.10, 0.10, 1.0], Some(0.35), 3.0),
    ),
    ("label", style([0.12, 0.12, 0.16, 1.0], None, 1.0)),
    ("boundary", style([0.22, 0.24, 0.28, 1.0], None, 1.5)),
    (
        "node",
        style([0.20, 0.22, 0.25, 1.0], Some(0.45), 1.0).per_element(),
    ),
    ("link", style([0.95, 0.55, 0.10, 1.0], None, 2.0)),
    ("graph", style([0.95, 0.55, 0.10, 1.0], None, 2.0)),
    ("metric", style([0.40, 0.40, 0.40, 1.0], None, 1.0)),
    // Links by kind: the colours of Golodetz's Figure 1 for walk and step
    // links (cyan, magenta, yellow), then one hue per further kind.
    ("link/walk", style([0.00, 0.72, 0.82, 1.00], None, 2.0)),
    ("link/step-up", style([0.85, 0.12, 0.75, 1.00], None, 2.0)),
    ("link/step-down", style([0.92, 0.78, 0.02, 1.00], None, 2.0)),
    ("link/jump", style([0.95, 0.42, 0.05, 1.00], None, 2.5)),
    ("link/crouch", style([0.62, 0.36, 0.08, 1.00], None, 2.5)),
    ("link/ladder", style([0.20, 0.55, 0.20, 1.00], None, 3.0)),
    ("link/pass", style([0.58, 0.32, 0.85, 1.00], None, 1.5)),
    (
        "link/tile",
        style([0.45, 0.45, 0.50, 1.00], None, 1.0).dashed(),
    ),
    ("link/region", style([0.30, 0.35, 0.80, 1.00], None, 1.0)),
    ("link/portal", style([0.35, 0.40, 0.80, 1.0], None, 2.0)),
    (
        "link/connection",
        style([0.85, 0.10, 0.10, 1.00], None, 3.0),
    ),
    // Per-stance surfaces (voxel passes, configuration-space meshes).
    (
        "node/stand",
        style([0.25, 0.65, 0.30, 1.00], None, 1.0).dot(0.004),
    ),
    (
        "triangle/stand",
        style([0.25, 0.65, 0.30, 1.00], Some(0.45), 1.0),
    ),
    (
        "polygon/stand",
        style([0.25, 0.65, 0.30, 1.00], Some(0.35), 2.0),
    ),
    ("contour/stand", style([0.25, 0.65, 0.30, 1.00], None, 2.0)),
    (
        "walkable/stand",
        style([0.25, 0.65, 0.30, 1.00], Some(0.45), 1.5),
    ),
    (
        "node/crouch",
        style([0.95, 0.68, 0.10, 1.00], None, 1.0).dot(0.004),
    ),
    (
        "triangle/crouch",
        style([0.95, 0.68, 0.10, 1.00], Some(0.45), 1.0),
    ),
    (
        "polygon/crouch",
        style([0.95, 0.68, 0.10, 1.00], Some(0.35), 2.0),
    ),
    ("contour/crouch", style([0.95, 0.68, 0.10, 1.00], None, 2.0)),
    (
        "walkable/crouch",
        style([0.95, 0.68, 0.10, 1.00], Some(0.45), 1.5),
    ),
    (
        "node/prone",
        style([0.88, 0.33, 0.18, 1.00], None, 1.0).dot(0.004),
    ),
    (
        "triangle/prone",
        style([0.88, 0.33, 0.18, 1.00], Some(0.45), 1.0),
    ),
    (
        "polygon/prone",
        style([0.88, 0.33, 0.18, 1.00], Some(0.35), 2.0),
    ),
    ("contour/prone", style([0.88, 0.33, 0.18, 1.00], None, 2.0)),
    (
        "walkable/prone",
        style([0.88, 0.33, 0.18, 1.00], Some(0.45), 1.5),
    ),
    (
        "node/swim",
        style([0.15, 0.48, 0.92, 1.00], None, 1.0).dot(0.004),
    ),
    (
        "triangle/swim",
        style([0.15, 0.48, 0.92, 1.00], Some(0.45), 1.0),
    ),
    (
        "polygon/swim",
        style([0.15, 0.48, 0.92, 1.00], Some(0.35), 2.0),
    ),
    ("contour/swim", style([0.15, 0.48, 0.92, 1.00], None, 2.0)),
    (
        "walkable/swim",
        style([0.15, 0.48, 0.92, 1.00], Some(0.45), 1.5),
    ),
    (
        "node/sidestep",
        style([0.58, 0.32, 0.85, 1.00], None, 1.0).dot(0.004),
    ),
    (
        "triangle/sidestep",
        style([0.58, 0.32, 0.85, 1.00], Some(0.45), 1.0),
    ),
    (
        "polygon/sidestep",
        style([0.58, 0.32, 0.85, 1.00], Some(0.35), 2.0),
    ),
    (
        "contour/sidestep",
        style([0.58, 0.32, 0.85, 1.00], None, 2.0),
    ),
    (
        "walkable/sidestep",
        style([0.58, 0.32, 0.85, 1.00], Some(0.45), 1.5),
    ),
    // Brushes and configuration space.
    ("brush", style([0.35, 0.38, 0.45, 1.00], Some(0.25), 1.5)),
    (
        "brush/expanded",
        style([0.30, 0.50, 0.85, 1.00], Some(0.12), 1.0),
    ),
    (
        "face/bevel",
        style([0.95, 0.45, 0.10, 1.00], Some(0.45), 1.5),
    ),
    (
        "face/kept",
        style([0.30, 0.60, 0.85, 1.00], Some(0.30), 1.0),
    ),
    (
        "face/clipped",
        style([0.80, 0.20, 0.20, 0.80], None, 1.0).dashed(),
    ),
    (
        "edge-plane",
        style([0.45, 0.20, 0.70, 1.00], Some(0.10), 1.0),
    ),
    ("ladder", style([0.20, 0.55, 0.20, 1.00], Some(0.35), 2.0)),
    // Voxels and tiles.
    (
        "voxel/walkable",
        style([0.25, 0.65, 0.30, 1.00], Some(0.55), 1.0),
    ),
    (
        "voxel/border",
        style([0.95, 0.55, 0.10, 1.00], Some(0.65), 1.0),
    ),
    (
        "voxel/non-walkable",
        style([0.55, 0.30, 0.30, 1.00], Some(0.35), 1.0),
    ),
    (
        "voxel/water",
        style([0.15, 0.48, 0.92, 1.00], Some(0.35), 1.0),
    ),
    (
        "voxel/solid",
        style([0.45, 0.45, 0.48, 1.00], Some(0.40), 1.0),
    ),
    // Voxels an earlier pass claimed, in a muted version of its stance's colour.
    (
        "voxel/claimed/stand",
        style([0.55, 0.75, 0.58, 1.00], Some(1.0), 1.0),
    ),
    (
        "voxel/claimed/crouch",
        style([0.93, 0.80, 0.50, 1.00], Some(1.0), 1.0),
    ),
    (
        "voxel/claimed/prone",
        style([0.88, 0.60, 0.52, 1.00], Some(1.0), 1.0),
    ),
    (
        "voxel/claimed/swim",
        style([0.55, 0.70, 0.92, 1.00], Some(1.0), 1.0),
    ),
    (
        "voxel/claimed/sidestep",
        style([0.75, 0.62, 0.88, 1.00], Some(1.0), 1.0),
    ),
    ("tile", style([0.40, 0.40, 0.45, 1.00], None, 1.0)),
    (
        "tile/overlap",
        style([0.40, 0.40, 0.45, 1.00], None, 1.0).dashed(),
    ),
    // Navigation graphs.
    ("obstacle", style([0.30, 0.31, 0.34, 1.00], Some(0.75), 1.5)),
    ("contour/outer", style([0.15, 0.16, 0.20, 1.00], None, 2.0)),
    ("contour/hole", style([0.60, 0.15, 0.15, 1.00], None, 2.0)),
    (
        "contour/simplified",
        style([0.10, 0.45, 0.90, 1.00], None, 2.0),
    ),
    (
        "triangle",
        style([0.45, 0.50, 0.55, 1.00], Some(0.30), 1.0).per_element(),
    ),
    ("edge", style([0.45, 0.50, 0.55, 1.00], None, 1.5)),
    (
        "edge/triangulation",
        style([0.55, 0.72, 0.78, 0.90], None, 1.0),
    ),
    ("edge/incentre", style([0.05, 0.55, 0.55, 1.00], None, 1.5)),
    ("edge/dual", style([0.80, 0.12, 0.50, 1.00], None, 2.0)),
    (
        "edge/dual/repaired",
        style([0.80, 0.12, 0.50, 1.00], None, 2.0).dashed(),
    ),
    ("edge/gallery", style([0.92, 0.55, 0.05, 1.00], None, 2.5)),
    ("edge/delaunay", style([0.05, 0.55, 0.55, 1.00], None, 2.0)),
    (
        "edge/flagged",
        style([0.95, 0.55, 0.05, 1.00], None, 2.0).dashed(),
    ),
    (
        "edge/removed",
        style([0.85, 0.10, 0.10, 1.00], None, 1.5).dashed(),
    ),
    (
        "edge/missing",
        style([0.50, 0.50, 0.50, 1.00], None, 1.5).dashed(),
    ),
    (
        "node/dual",
        style([0.30, 0.30, 0.35, 0.80], None, 1.0).dot(0.003),
    ),
    (
        "node/guard",
        style([0.85, 0.10, 0.10, 1.00], None, 2.0).dot(0.008),
    ),
    (
        "node/connector",
        style([0.10, 0.40, 0.85, 1.00], None, 2.0).dot(0.007),
    ),
    (
        "region",
        style([0.45, 0.50, 0.55, 1.00], Some(0.35), 1.0).per_element(),
    ),
    (
        "voronoi/cell",
        style([0.35, 0.40, 0.50, 1.00], Some(0.22), 1.0).per_element(),
    ),
    (
        "voronoi/bad",
        style([0.85, 0.10, 0.10, 1.00], Some(0.40), 2.0),
    ),
    ("blocker", style([0.30, 0.31, 0.34, 1.00], Some(0.75), 1.5)),
    (
        "blocker/inflated",
        style([0.95, 0.55, 0.10, 0.80], Some(0.18), 1.0).dashed(),
    ),
    // Medial axes and the explicit corridor map.
    ("axis", style([0.72, 0.10, 0.62, 1.00], None, 2.5)),
    (
        "axis/vertex",
        style([0.50, 0.05, 0.42, 1.00], None, 1.0).dot(0.004),
    ),
    ("axis/join", style([0.95, 0.50, 0.05, 1.00], None, 3.0)),
    (
        "axis/edge/added",
        style([0.10, 0.60, 0.20, 1.00], None, 2.5),
    ),
    ("connection", style([0.10, 0.65, 0.25, 1.00], None, 4.0)),
    (
        "influence-zone",
        style([0.20, 0.45, 0.90, 1.00], Some(0.25), 1.0),
    ),
    ("scene/obstacle", style([0.70, 0.15, 0.15, 1.00], None, 2.5)),
    (
        "corridor/area",
        style([0.45, 0.50, 0.55, 0.60], Some(0.18), 0.8).per_element(),
    ),
    ("corridor/disk", style([0.70, 0.45, 0.70, 0.45], None, 0.8)),
    (
        "corridor/closest",
        style([0.20, 0.40, 0.90, 0.45], None, 0.8),
    ),
    ("path", style([0.85, 0.10, 0.10, 1.00], None, 3.5)),
    // A path inside its corridor: the corridor a soft fill, the backbone along
    // the axis dashed, the short path on top in red.
    (
        "path/corridor",
        style([0.95, 0.55, 0.40, 0.55], Some(0.22), 0.8),
    ),
    (
        "path/backbone",
        style([0.30, 0.20, 0.45, 1.00], None, 2.0).dashed(),
    ),
    (
        "path/retraction",
        style([0.35, 0.35, 0.38, 1.00], None, 1.5).dashed(),
    ),
    (
        "path/start",
        style([0.10, 0.60, 0.20, 1.00], None, 2.0).dot(0.01),
    ),
    (
        "path/goal",
        style([0.15, 0.30, 0.85, 1.00], None, 2.0).dot(0.01),
    ),
    // The super-graph's two-level search (navgraph): the regions it
    // expanded, the region path, and where the ends were located.
    ("path/super", style([0.50, 0.20, 0.75, 1.00], None, 4.0)),
    ("path/locate", style([0.45, 0.45, 0.48, 1.00], None, 1.5).dashed()),
    (
        "region/expanded",
        style([0.35, 0.60, 0.95, 0.8], Some(0.18), 1.0),
    ),
    // Dual-graph edges whose corridor a wall enters (kept, drawn apart).
    ("edge/dual/narrow", style([0.95, 0.50, 0.05, 1.00], None, 2.0).dashed()),
    // Nodes a point cannot see (the article's Figure 4 failure).
    ("node/hidden", style([0.85, 0.12, 0.12, 1.00], None, 2.0).dot(0.008)),
    // Guard placement, one guard at a time: seen and unseen triangles.
    ("triangle/seen", style([0.15, 0.65, 0.25, 0.8], Some(0.25), 1.0)),
    ("triangle/unseen", style([0.85, 0.15, 0.15, 0.8], Some(0.30), 1.0)),
    // Simplification repairs: vertices brought back.
    ("vertex/restored", style([0.90, 0.10, 0.80, 1.00], None, 2.0).dot(0.008)),
    // Opening connections one at a time (layers).
    ("axis/before", style([0.55, 0.55, 0.58, 1.00], None, 1.5)),
    ("axis/edge/removed", style([0.85, 0.12, 0.12, 1.00], None, 2.0).dashed()),
    // ANavMG portal candidates (Figure 3) and notches dropped or relaxed.
    (
        "candidate/point/projection",
        style([0.05, 0.70, 0.80, 1.00], None, 1.0).dot(0.009),
    ),
    ("candidate/point/q_l", style([0.95, 0.80, 0.05, 1.00], None, 1.0).dot(0.009)),
    ("candidate/point/q_r", style([0.95, 0.50, 0.05, 1.00], None, 1.0).dot(0.009)),
    (
        "candidate/point/endpoint",
        style([0.30, 0.30, 0.35, 1.00], None, 1.0).dot(0.009),
    ),
    ("notch/dropped", style([0.75, 0.55, 0.40, 1.00], None, 1.5).dot(0.006)),
    ("notch/relaxed", style([0.45, 0.75, 0.45, 1.00], None, 1.5).dot(0.006)),
    // Recast's distance field (a ramp by value) and watershed / monotone
    // regions (a soft colour per region id).
    ("voxel/distance", style([0.10, 0.20, 0.55, 1.00], Some(0.85), 1.0)),
    ("voxel/region", style([0.40, 0.40, 0.45, 1.00], Some(0.85), 1.0).per_element()),
    ("polymesh/stand", style([0.25, 0.65, 0.30, 1.00], Some(0.30), 2.5)),
    ("detail/stand", style([0.25, 0.65, 0.30, 1.00], None, 1.0).dashed()),
    ("polymesh/crouch", style([0.95, 0.68, 0.10, 1.00], Some(0.30), 2.5)),
    ("detail/crouch", style([0.95, 0.68, 0.10, 1.00], None, 1.0).dashed()),
    ("polymesh/prone", style([0.88, 0.33, 0.18, 1.00], Some(0.30), 2.5)),
    ("detail/prone", style([0.88, 0.33, 0.18, 1.00], None, 1.0).dashed()),
    ("polymesh/swim", style([0.15, 0.48, 0.92, 1.00], Some(0.30), 2.5)),
    ("detail/swim", style([0.15, 0.48, 0.92, 1.00], None, 1.0).dashed()),
    ("polymesh/sidestep", style([0.58, 0.32, 0.85, 1.00], Some(0.30), 2.5)),
    ("detail/sidestep", style([0.58, 0.32, 0.85, 1.00], None, 1.0).dashed()),
    // Quake map semantics (cspace): regions of brush entities and liquids,
    // lifts, brushes that could not be read, and the links they make.
    ("region/door", style([0.95, 0.55, 0.10, 0.9], Some(0.20), 1.5)),
    ("region/water", style([0.15, 0.45, 0.95, 0.9], Some(0.22), 1.5)),
    ("region/slime", style([0.35, 0.75, 0.15, 0.9], Some(0.25), 1.5)),
    ("region/lava", style([0.95, 0.30, 0.05, 0.9], Some(0.30), 1.5)),
    ("region/teleport", style([0.85, 0.15, 0.85, 0.9], Some(0.20), 1.5)),
    ("region/push", style([0.95, 0.85, 0.10, 0.9], Some(0.20), 1.5)),
    ("region/exit", style([0.95, 0.80, 0.30, 0.9], Some(0.25), 2.0)),
    ("lift", style([0.10, 0.80, 0.85, 1.0], None, 2.0)),
    ("brush/skipped", style([0.95, 0.05, 0.05, 1.0], None, 3.0)),
    ("link/door", style([0.95, 0.50, 0.05, 1.00], None, 2.5)),
    ("link/elevator", style([0.05, 0.80, 0.85, 1.00], None, 2.5)),
    ("link/teleport", style([0.85, 0.10, 0.85, 1.00], None, 2.0).dashed()),
    ("link/swim", style([0.10, 0.35, 0.95, 1.00], None, 2.0)),
    ("node/swim", style([0.45, 0.70, 1.00, 1.0], Some(0.40), 1.0)),
    (
        "area-of-interest/dropped",
        style([0.50, 0.55, 0.65, 0.7], Some(0.10), 1.0).dashed(),
    ),
];

/// The style of a kind: its own entry, else its nearest ancestor's, else a
/// colour derived from the kind's name.
pub fn style_for(kind: &str) -> Style {
    let mut k = kind;
    loop {
        if let Some((_, s)) = STYLES.iter().find(|(name, _)| *name == k) {
            return *s;
        }
        match k.rfind('/') {
            Some(i) => k = &k[..i],
            None => break,
        }
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    kind.hash(&mut h);
    let c = Color::hsl((h.finish() % 360) as f32, 0.65, 0.45).to_srgba();
    Style {
        color: [c.red, c.green, c.blue, 1.0],
        fill: Some(0.3),
        width: 2.0,
        dashed: false,
        point: 0.008,
        per_element: false,
    }
}

/// A soft colour for element `id`, distinct from its neighbours' (hues
/// spread by the golden ratio).
pub fn element_color(id: u32, alpha: f32) -> [f32; 4] {
    let hue = (id as f32 * 137.507_77) % 360.0;
    let c = Color::hsl(hue, 0.55, 0.72).to_srgba();
    [c.red, c.green, c.blue, alpha]
}

/// Geometry of the primitives of one kind and one sub-step range.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// The primitives' kind.
    pub kind: String,
    /// First sub-step at which they exist.
    pub first: u32,
    /// Last sub-step at which they exist.
    pub last: u32,
    /// The layer of a multi-layer level they lie on, if any.
    pub layer: Option<u32>,
    /// The range of the values the kind's primitives carry, when they carry
    /// any and the options colour by value: the ramp's ends, for the legend.
    pub value_range: Option<(f32, f32)>,
    /// Line segments with their colour.
    pub lines: Vec<(Vec3, Vec3, [f32; 4])>,
    /// Point markers: centre, radius, colour.
    pub points: Vec<(Vec3, f32, [f32; 4])>,
    /// Filled triangles with their colour.
    pub triangles: Vec<([Vec3; 3], [f32; 4])>,
    /// Text labels.
    pub labels: Vec<(Vec3, String)>,
    /// Voxels drawn as instances of one cube: minimum and maximum corner and
    /// colour.
    pub cubes: Vec<(Vec3, Vec3, [f32; 4])>,
}

/// A stage's primitives, grouped and triangulated for drawing.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The groups, by kind then sub-step range.
    pub groups: Vec<Group>,
}

fn box_edges(min: Vec3, max: Vec3) -> Vec<(Vec3, Vec3)> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        )
    };
    [
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
        (0, 2),
        (1, 3),
        (4, 6),
        (5, 7),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ]
    .iter()
    .map(|&(a, b)| (c(a), c(b)))
    .collect()
}

fn box_faces(min: Vec3, max: Vec3) -> Vec<[Vec3; 3]> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        )
    };
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    quads
        .iter()
        .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]])
        .collect()
}

fn ring_lines(ring: &[Vec3], closed: bool) -> impl Iterator<Item = (Vec3, Vec3)> + '_ {
    let n = ring.len();
    let count = if closed && n > 2 {
        n
    } else {
        n.saturating_sub(1)
    };
    (0..count).map(move |i| (ring[i], ring[(i + 1) % n]))
}

/// A colour for a value at `t` between 0 (the low end of its kind's range:
/// red, "tight") and 1 (the high end: blue, "roomy"), through orange,
/// yellow and green.
pub fn ramp_color(t: f32) -> [f32; 4] {
    const STOPS: [[f32; 3]; 5] = [
        [0.85, 0.12, 0.10],
        [0.95, 0.55, 0.10],
        [0.85, 0.80, 0.10],
        [0.20, 0.70, 0.25],
        [0.15, 0.40, 0.90],
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f32;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f32;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    [
        a[0] + (b[0] - a[0]) * f,
        a[1] + (b[1] - a[1]) * f,
        a[2] + (b[2] - a[2]) * f,
        1.0,
    ]
}

/// The range a kind's values are coloured over: from 0 when every value is
/// non-negative (a clearance of 0 is "touching", whatever the data's
/// minimum), to the largest; a single value gets a unit-wide range.
fn value_ranges(primitives: &[Primitive]) -> BTreeMap<&str, (f32, f32)> {
    let mut out: BTreeMap<&str, (f32, f32)> = BTreeMap::new();
    for p in primitives {
        if let Some(v) = p.value.filter(|v| v.is_finite()) {
            let r = out.entry(p.kind.as_str()).or_insert((v, v));
            r.0 = r.0.min(v);
            r.1 = r.1.max(v);
        }
    }
    for r in out.values_mut() {
        if r.0 >= 0.0 {
            r.0 = 0.0;
        }
        if r.1 - r.0 <= f32::EPSILON {
            r.1 = r.0 + 1.0;
        }
    }
    out
}

/// Appends the geometry of one primitive to `g` in its style; `unit` is the
/// level's size, which scales point markers.
pub fn add_primitive(g: &mut Group, p: &Primitive, unit: f32) {
    add_primitive_colored(g, p, unit, None);
}

/// Like [`add_primitive`], with `color` (when given) in place of the
/// style's colour for lines, points and fills.
fn add_primitive_colored(g: &mut Group, p: &Primitive, unit: f32, color: Option<[f32; 4]>) {
    let mut s = style_for(&p.kind);
    if let Some(c) = color {
        s.color = c;
        s.per_element = false;
    }
    let fill_color = |alpha: f32| {
        if s.per_element {
            element_color(p.element, alpha)
        } else {
            [s.color[0], s.color[1], s.color[2], alpha]
        }
    };
    match &p.shape {
        Shape::Point(at) => g.points.push((*at, s.point * unit, s.color)),
        Shape::Segment(a, b) => g.lines.push((*a, *b, s.color)),
        Shape::Polyline { points, closed } => g
            .lines
            .extend(ring_lines(points, *closed).map(|(a, b)| (a, b, s.color))),
        Shape::Polygon { outer, holes } => {
            for ring in std::iter::once(outer).chain(holes) {
                g.lines
                    .extend(ring_lines(ring, true).map(|(a, b)| (a, b, s.color)));
            }
            if let Some(alpha) = s.fill {
                let c = fill_color(alpha);
                g.triangles.extend(
                    tessellate::triangulate(outer, holes)
                        .into_iter()
                        .map(|t| (t, c)),
                );
            }
        }
        Shape::Box { min, max } => {
            g.lines.extend(
                box_edges(*min, *max)
                    .into_iter()
                    .map(|(a, b)| (a, b, s.color)),
            );
            if let Some(alpha) = s.fill {
                let c = fill_color(alpha);
                g.triangles
                    .extend(box_faces(*min, *max).into_iter().map(|t| (t, c)));
            }
        }
        Shape::VoxelColumn { x, z, cell, y0, y1 } => {
            let (min, max) = (Vec3::new(*x, *y0, *z), Vec3::new(x + cell, *y1, z + cell));
            // Voxels are opaque cubes: instancing draws them in one call, and
            // thousands of blended cubes would need sorting every frame.
            g.cubes.push((min, max, fill_color(1.0)));
        }
        Shape::Label { at, text } => g.labels.push((*at, text.clone())),
    }
}

/// Groups and triangulates a stage's primitives for drawing: one group per
/// kind, sub-step range and layer, keeping only what `options` shows.
pub fn prepare(primitives: &[Primitive], unit: f32, options: &PrepareOptions) -> Prepared {
    let ranges = if options.color_by_value {
        value_ranges(primitives)
    } else {
        BTreeMap::new()
    };
    let mut groups: BTreeMap<(&str, u32, u32, Option<u32>), Group> = BTreeMap::new();
    for p in primitives.iter().filter(|p| options.keeps(p)) {
        let range = ranges.get(p.kind.as_str()).copied();
        let g = groups
            .entry((p.kind.as_str(), p.first_step, p.last_step, p.layer))
            .or_insert_with(|| Group {
                kind: p.kind.clone(),
                first: p.first_step,
                last: p.last_step,
                layer: p.layer,
                value_range: range,
                ..Default::default()
            });
        let color = range
            .zip(p.value)
            .map(|((lo, hi), v)| ramp_color((v - lo) / (hi - lo)));
        add_primitive_colored(g, p, unit, color);
    }
    if let Some(band) = options.slice {
        // A primitive reaching into the band may reach out of it too (a
        // path over three floors, a wall): cut its pieces to the band.
        for g in groups.values_mut() {
            g.lines = g
                .lines
                .iter()
                .filter_map(|(a, b, c)| band.clip_segment(*a, *b).map(|(a, b)| (a, b, *c)))
                .collect();
            g.points.retain(|(p, _, _)| band.keeps_points([*p]));
            g.triangles = g
                .triangles
                .iter()
                .flat_map(|(t, c)| band.clip_triangle(*t).into_iter().map(|t| (t, *c)))
                .collect();
            g.labels.retain(|(p, _)| band.keeps_points([*p]));
            g.cubes.retain(|(lo, hi, _)| band.overlaps(lo.y, hi.y));
        }
        groups.retain(|_, g| {
            !(g.lines.is_empty()
                && g.points.is_empty()
                && g.triangles.is_empty()
                && g.labels.is_empty()
                && g.cubes.is_empty())
        });
    }
    Prepared {
        groups: groups.into_values().collect(),
    }
}

/// The size of what the primitives cover (largest extent of their bounds),
/// at least 1.
pub fn extent(points: impl IntoIterator<Item = Vec3>) -> f32 {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in points.into_iter().filter(|p| p.is_finite()) {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    if lo.x > hi.x {
        1.0
    } else {
        (hi - lo).max_element().max(1.0)
    }
}

/// Finds the element under a clicked point: the nearest line or point
/// within `tolerance`, else the innermost polygon or box containing it.
pub fn pick<'a>(
    at: Vec3,
    tolerance: f32,
    elements: impl IntoIterator<Item = (&'a StageElement, &'a [Primitive])>,
) -> Option<StageElement> {
    let mut best: Option<(f32, StageElement)> = None;
    for (el, prims) in elements {
        for p in prims {
            let score = match &p.shape {
                Shape::Point(q) => Some(Vec2::new(q.x - at.x, q.z - at.z).length()),
                Shape::Label { .. } => None,
                Shape::Segment(a, b) => Some(tessellate::plan_distance_to_segment(at, *a, *b)),
                Shape::Polyline { points, closed } => ring_lines(points, *closed)
                    .map(|(a, b)| tessellate::plan_distance_to_segment(at, a, b))
                    .reduce(f32::min),
                Shape::Polygon { outer, holes } => {
                    let edge = std::iter::once(outer)
                        .chain(holes)
                        .flat_map(|r| ring_lines(r, true))
                        .map(|(a, b)| tessellate::plan_distance_to_segment(at, a, b))
                        .reduce(f32::min);
                    if tessellate::plan_inside(at, outer, holes) {
                        // Inside: behind any line within reach, smaller polygons first.
                        Some(tolerance * 0.99 + 1e-6 * extent(outer.iter().copied()))
                    } else {
                        edge
                    }
                }
                Shape::Box { min, max } => {
                    let inside = at.x >= min.x && at.x <= max.x && at.z >= min.z && at.z <= max.z;
                    inside.then_some(tolerance * 0.99)
                }
                Shape::VoxelColumn { x, z, cell, .. } => {
                    let inside = at.x >= *x && at.x <= x + cell && at.z >= *z && at.z <= z + cell;
                    inside.then_some(tolerance * 0.99)
                }
            };
            if let Some(d) = score
                && d <= tolerance
                && best.as_ref().is_none_or(|(b, _)| d < *b)
            {
                best = Some((d, el.clone()));
            }
        }
    }
    best.map(|(_, e)| e)
}

/// Kinds that start hidden: detail shown on demand (a medial axis's
/// closest-point segments and clearance disks cover everything else).
pub const HIDDEN_AT_FIRST: &[&str] = &["corridor/closest", "corridor/disk"];

/// Which kinds are hidden, and every kind seen so far with its colour, for
/// the legend.
#[derive(Resource, Debug)]
pub struct Legend {
    /// Kinds the user switched off.
    pub hidden: BTreeSet<String>,
    /// Kinds present in the published stages, by stage, with their colour.
    pub kinds: BTreeMap<String, [f32; 4]>,
}

impl Default for Legend {
    fn default() -> Self {
        Self {
            hidden: HIDDEN_AT_FIRST.iter().map(|k| k.to_string()).collect(),
            kinds: BTreeMap::new(),
        }
    }
}

impl Legend {
    /// True when `kind` (or one of its ancestors) is switched off.
    pub fn is_hidden(&self, kind: &str) -> bool {
        let mut k = kind;
        loop {
            if self.hidden.contains(k) {
                return true;
            }
            match k.rfind('/') {
                Some(i) => k = &k[..i],
                None => return false,
            }
        }
    }
}

/// A retained piece of drawing: one group of one stage.
#[derive(Component, Debug, Clone)]
pub struct DrawGroup {
    /// Stage index.
    pub stage: usize,
    /// Primitive kind.
    pub kind: String,
    /// First sub-step at which it exists.
    pub first: u32,
    /// Last sub-step at which it exists.
    pub last: u32,
    /// The layer it lies on, if any.
    pub layer: Option<u32>,
}

/// The element the user clicked, if any.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Selection(pub Option<StageElement>);

/// Keeps the legend's list of kinds (no renderer needed).
pub struct LegendPlugin;

impl Plugin for LegendPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Legend>()
            .init_resource::<Selection>()
            .add_systems(PostUpdate, collect_kinds.after(RefilterSystems));
    }
}

fn collect_kinds(added: Query<&StageGeometry, Changed<StageGeometry>>, mut legend: ResMut<Legend>) {
    for geo in &added {
        for g in &geo.prepared.groups {
            if !legend.kinds.contains_key(&g.kind) {
                let s = style_for(&g.kind);
                let c = if s.per_element {
                    element_color(3, 1.0)
                } else {
                    s.color
                };
                legend.kinds.insert(g.kind.clone(), c);
            }
        }
    }
}

/// Turns published stage geometry into retained gizmos and meshes and keeps
/// their visibility in step with the timeline and the legend.
pub struct DrawPlugin;

impl Plugin for DrawPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CubeAssets>()
            .add_systems(
                PostUpdate,
                (spawn_visuals, update_visibility)
                    .chain()
                    .after(RefilterSystems)
                    .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
            )
            .add_systems(Update, draw_highlights);
    }
}

/// Shared material settings for fills: unlit, two-sided, blended, drawn a
/// little in front of the level and of earlier stages (`layer` steps).
fn fill_material(layer: usize) -> StandardMaterial {
    StandardMaterial {
        base_color: Color::WHITE,
        unlit: true,
        cull_mode: None,
        alpha_mode: AlphaMode::Blend,
        depth_bias: 10.0 + layer as f32 * 10.0,
        ..default()
    }
}

/// Per-vertex linear colours for triangles given with one sRGB colour each
/// (the vertex-colour attribute Bevy meshes take).
pub fn vertex_colors(tris: &[([Vec3; 3], [f32; 4])]) -> Vec<[f32; 4]> {
    tris.iter()
        .flat_map(|(_, c)| {
            let lin = Color::srgba(c[0], c[1], c[2], c[3]).to_linear();
            [[lin.red, lin.green, lin.blue, lin.alpha]; 3]
        })
        .collect()
}

fn triangle_mesh(tris: &[([Vec3; 3], [f32; 4])]) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::PrimitiveTopology;
    let positions: Vec<[f32; 3]> = tris
        .iter()
        .flat_map(|(t, _)| t.map(|p| p.to_array()))
        .collect();
    let colors = vertex_colors(tris);
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
}

fn srgba(c: [f32; 4]) -> Color {
    Color::srgba(c[0], c[1], c[2], c[3])
}

/// The asset stores a group's drawing goes into.
#[derive(bevy::ecs::system::SystemParam)]
pub struct VisualAssets<'w> {
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<StandardMaterial>>,
    gizmos: ResMut<'w, Assets<GizmoAsset>>,
    cubes: ResMut<'w, CubeAssets>,
}

/// Spawns one group's drawing: a retained gizmo for its lines and points, a
/// mesh for its fills (drawn `layer` depth steps in front of the level), a
/// parent of instanced cubes for its voxels. Each entity gets `extra`
/// (its tag and parent). Hidden entities start hidden, gizmos included
/// (retained gizmos ignore `Visibility`; render layers hide them).
pub fn spawn_group(
    commands: &mut Commands,
    g: &Group,
    layer: usize,
    shown: bool,
    assets: &mut VisualAssets,
    extra: impl Bundle + Clone,
) {
    let (visibility, render_layers) = if shown {
        (Visibility::Inherited, RenderLayers::layer(0))
    } else {
        (Visibility::Hidden, RenderLayers::none())
    };
    if !g.cubes.is_empty() {
        let group = commands
            .spawn((extra.clone(), Transform::default(), visibility))
            .id();
        cubes::spawn(
            commands,
            group,
            &g.cubes,
            &mut assets.cubes,
            &mut assets.meshes,
            &mut assets.materials,
        );
    }
    let s = style_for(&g.kind);
    if !g.lines.is_empty() || !g.points.is_empty() {
        let mut asset = GizmoAsset::new();
        for (a, b, c) in &g.lines {
            asset.line(*a, *b, srgba(*c));
        }
        for (at, r, c) in &g.points {
            asset
                .sphere(Isometry3d::from_translation(*at), *r, srgba(*c))
                .resolution(12);
        }
        let style = if s.dashed {
            GizmoLineStyle::Dashed {
                gap_scale: 3.0,
                line_scale: 4.0,
            }
        } else {
            GizmoLineStyle::Solid
        };
        commands.spawn((
            extra.clone(),
            Gizmo {
                handle: assets.gizmos.add(asset),
                line_config: GizmoLineConfig {
                    width: s.width,
                    style,
                    ..default()
                },
                depth_bias: -1.0,
            },
            Transform::default(),
            visibility,
            render_layers,
        ));
    }
    if !g.triangles.is_empty() {
        commands.spawn((
            extra,
            Mesh3d(assets.meshes.add(triangle_mesh(&g.triangles))),
            MeshMaterial3d(assets.materials.add(fill_material(layer))),
            Transform::default(),
            visibility,
        ));
    }
}

/// Spawns the drawing of every stage whose geometry was published or
/// re-prepared, replacing what was drawn for it before.
fn spawn_visuals(
    mut commands: Commands,
    changed: Query<(Entity, &StageGeometry), Changed<StageGeometry>>,
    drawn: Query<(Entity, &ChildOf), With<DrawGroup>>,
    mut assets: VisualAssets,
) {
    for (root, geo) in &changed {
        for (e, parent) in &drawn {
            if parent.parent() == root {
                commands.entity(e).despawn();
            }
        }
        for g in &geo.prepared.groups {
            let tag = DrawGroup {
                stage: geo.stage,
                kind: g.kind.clone(),
                first: g.first,
                last: g.last,
                layer: g.layer,
            };
            spawn_group(
                &mut commands,
                g,
                geo.stage,
                false,
                &mut assets,
                (tag, ChildOf(root)),
            );
        }
    }
}

/// Whether a group drawn for stage `g.stage` shows under the timeline's
/// position (see [`shown`]).
pub fn group_visible(
    g: &DrawGroup,
    substeps: u32,
    timeline: &Timeline,
    legend: &Legend,
    filter: &ViewFilter,
) -> bool {
    shown(
        g.stage, &g.kind, g.first, g.last, g.layer, substeps, timeline, legend, filter,
    )
}

/// Whether something of `kind` drawn by stage `stage` for sub-steps
/// `first..=last` on `layer` shows under the timeline's position: its stage
/// is the current one (or earlier, when accumulating), the sub-step shown
/// lies in its range, its kind is not hidden and its layer is shown. The
/// drawing and picking both ask this, so what can be picked is what is
/// seen.
#[allow(clippy::too_many_arguments)]
pub fn shown(
    stage: usize,
    kind: &str,
    first: u32,
    last: u32,
    layer: Option<u32>,
    substeps: u32,
    timeline: &Timeline,
    legend: &Legend,
    filter: &ViewFilter,
) -> bool {
    let stage_ok = if timeline.accumulate {
        stage <= timeline.current
    } else {
        stage == timeline.current
    };
    if !stage_ok || legend.is_hidden(kind) || !filter.shows_layer(layer) {
        return false;
    }
    let end = substeps.saturating_sub(1);
    let step = if stage == timeline.current {
        timeline.substep.unwrap_or(end).min(end)
    } else {
        end
    };
    first <= step && step <= last
}

fn update_visibility(
    timeline: Res<Timeline>,
    legend: Res<Legend>,
    filter: Res<ViewFilter>,
    roots: Query<&StageGeometry>,
    mut groups: Query<(
        &DrawGroup,
        &ChildOf,
        &mut Visibility,
        Option<&mut RenderLayers>,
    )>,
) {
    for (g, parent, mut vis, layers) in &mut groups {
        let substeps = roots
            .get(parent.parent())
            .map(|r| r.substeps.len() as u32)
            .unwrap_or(0);
        let shown = group_visible(g, substeps, &timeline, &legend, &filter);
        let want = if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *vis != want {
            *vis = want;
        }
        if let Some(mut layers) = layers {
            let want = if shown {
                RenderLayers::layer(0)
            } else {
                RenderLayers::none()
            };
            if *layers != want {
                *layers = want;
            }
        }
    }
}

fn draw_highlights(
    mut gizmos: Gizmos,
    timeline: Res<Timeline>,
    selection: Res<Selection>,
    hover: Option<Res<crate::interact::clicks::Hover>>,
    roots: Query<&StageGeometry>,
    elements: Query<(&StageElement, &crate::stages::ElementShapes)>,
) {
    let unit = roots.iter().map(|r| r.unit).next().unwrap_or(1.0);
    // The current sub-step's highlights.
    if let Some(step) = timeline.substep
        && let Some(root) = roots.iter().find(|r| r.stage == timeline.current)
        && let Some(sub) = root.substeps.get(step as usize)
    {
        let mut g = Group::default();
        for p in &sub.highlights {
            add_primitive(&mut g, p, unit);
        }
        draw_group_immediate(&mut gizmos, &g, 1.0);
    }
    // The hovered element in white, the selected one in bright yellow.
    let hovered = hover.and_then(|h| h.0.clone());
    let marked = [
        (hovered.as_ref(), Color::srgb(1.0, 1.0, 1.0)),
        (selection.0.as_ref(), Color::srgb(1.0, 0.9, 0.0)),
    ];
    if marked.iter().all(|(e, _)| e.is_none()) {
        return;
    }
    for (el, shapes) in &elements {
        for (which, color) in marked {
            if which != Some(el) {
                continue;
            }
            let mut g = Group::default();
            for p in &shapes.0 {
                add_primitive(&mut g, p, unit);
            }
            let up = Vec3::Y * 0.002 * unit;
            for (a, b, _) in &g.lines {
                gizmos.line(*a + up, *b + up, color);
            }
            if g.lines.is_empty() {
                for (t, _) in &g.triangles {
                    for k in 0..3 {
                        gizmos.line(t[k] + up, t[(k + 1) % 3] + up, color.with_alpha(0.5));
                    }
                }
            }
            for (at, r, _) in &g.points {
                gizmos.sphere(Isometry3d::from_translation(*at), r * 1.6, color);
            }
        }
    }
}

/// Draws a group's lines and points with immediate-mode gizmos (sub-step
/// highlights change every step, so they are not retained).
pub fn draw_group_immediate(gizmos: &mut Gizmos, g: &Group, scale: f32) {
    for (a, b, c) in &g.lines {
        gizmos.line(*a, *b, srgba(*c));
    }
    for (at, r, c) in &g.points {
        gizmos.sphere(Isometry3d::from_translation(*at), r * scale, srgba(*c));
    }
    for (t, c) in &g.triangles {
        gizmos.linestrip([t[0], t[1], t[2], t[0]], srgba([c[0], c[1], c[2], 1.0]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stances_and_link_kinds_have_distinct_colours() {
        let stances = ["stand", "crouch", "prone", "swim", "sidestep"];
        for (i, a) in stances.iter().enumerate() {
            for b in &stances[i + 1..] {
                assert_ne!(
                    style_for(&format!("triangle/{a}")).color,
                    style_for(&format!("triangle/{b}")).color
                );
            }
        }
        let links = [
            "walk",
            "step-up",
            "step-down",
            "jump",
            "crouch",
            "ladder",
            "portal",
            "connection",
            "door",
            "elevator",
            "teleport",
            "swim",
        ];
        for (i, a) in links.iter().enumerate() {
            for b in &links[i + 1..] {
                assert_ne!(
                    style_for(&format!("link/{a}")).color,
                    style_for(&format!("link/{b}")).color,
                    "{a} vs {b}"
                );
            }
        }
        // Golodetz's Figure 1: cyan walk, magenta step up, yellow step down.
        let walk = style_for("link/walk").color;
        assert!(walk[2] > walk[0] && walk[1] > walk[0]);
        let up = style_for("link/step-up").color;
        assert!(up[0] > up[1] && up[2] > up[1]);
        let down = style_for("link/step-down").color;
        assert!(down[0] > down[2] && down[1] > down[2]);
    }

    #[test]
    fn styles_fall_back_along_the_kind_chain() {
        assert_eq!(
            style_for("portal/vertex-edge").color,
            style_for("portal/vertex-edge").color
        );
        assert_ne!(
            style_for("portal/vertex-edge").color,
            style_for("portal").color
        );
        assert_eq!(
            style_for("portal/unheard-of").color,
            style_for("portal").color
        );
        assert!(style_for("portal/removed").dashed);
        // Unknown kinds get a stable, name-derived colour.
        assert_eq!(style_for("voxel/border"), style_for("voxel/border"));
        assert_ne!(
            style_for("voxel/border").color,
            style_for("voxel/walkable").color
        );
    }

    #[test]
    fn cells_get_distinct_colours() {
        let a = element_color(0, 1.0);
        let b = element_color(1, 1.0);
        assert!(a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>() > 0.1);
    }

    #[test]
    fn prepare_groups_by_kind_and_step_range() {
        let sq = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
        let prims = vec![
            Primitive::new(
                "cell",
                0,
                Shape::Polygon {
                    outer: sq.clone(),
                    holes: vec![],
                },
            ),
            Primitive::new(
                "cell",
                1,
                Shape::Polygon {
                    outer: sq,
                    holes: vec![],
                },
            ),
            Primitive::new("portal/vertex-edge", 0, Shape::Segment(Vec3::ZERO, Vec3::X))
                .during(2, 5),
            Primitive::new("notch", 4, Shape::Point(Vec3::X)),
        ];
        let p = prepare(&prims, 10.0, &PrepareOptions::default());
        assert_eq!(p.groups.len(), 3);
        let cells = p.groups.iter().find(|g| g.kind == "cell").unwrap();
        assert_eq!(cells.triangles.len(), 4);
        assert_eq!(cells.lines.len(), 8);
        let portal = p
            .groups
            .iter()
            .find(|g| g.kind.starts_with("portal"))
            .unwrap();
        assert_eq!((portal.first, portal.last), (2, 5));
    }

    #[test]
    fn values_colour_along_a_ramp_over_their_kind_s_range() {
        let seg =
            |v: f32| Primitive::new("axis", 0, Shape::Segment(Vec3::ZERO, Vec3::X)).with_value(v);
        let prims = vec![seg(0.5), seg(2.0), seg(4.0)];
        let p = prepare(&prims, 1.0, &PrepareOptions::default());
        assert_eq!(p.groups.len(), 1);
        let g = &p.groups[0];
        assert_eq!(g.value_range, Some((0.0, 4.0)), "clearances start at 0");
        let colors: Vec<[f32; 4]> = g.lines.iter().map(|l| l.2).collect();
        assert_eq!(colors[0], ramp_color(0.125));
        assert_eq!(colors[2], ramp_color(1.0));
        assert!(colors[0][0] > colors[0][2], "low values are red");
        assert!(colors[2][2] > colors[2][0], "high values are blue");
        let plain = prepare(
            &prims,
            1.0,
            &PrepareOptions {
                color_by_value: false,
                ..Default::default()
            },
        );
        assert_eq!(plain.groups[0].value_range, None);
        assert!(
            plain.groups[0]
                .lines
                .iter()
                .all(|l| l.2 == style_for("axis").color)
        );
    }

    #[test]
    fn ramp_is_total_and_continuous() {
        for i in 0..=100 {
            let t = i as f32 / 100.0;
            let (a, b) = (ramp_color(t), ramp_color(t + 0.01));
            assert!(a.iter().chain(&b).all(|c| (0.0..=1.0).contains(c)));
            assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 0.05), "{t}");
        }
        assert_eq!(ramp_color(f32::NAN), ramp_color(0.0));
        assert_eq!(ramp_color(7.0), ramp_color(1.0));
    }

    #[test]
    fn voxel_columns_become_cube_instances_grouped_by_layer() {
        let v = |x: f32, layer: u32| {
            Primitive::new(
                "voxel/walkable",
                0,
                Shape::VoxelColumn {
                    x,
                    z: 0.0,
                    cell: 0.3,
                    y0: 1.0,
                    y1: 1.2,
                },
            )
            .on_layer(layer)
        };
        let p = prepare(
            &[v(0.0, 0), v(0.3, 0), v(0.6, 1)],
            1.0,
            &PrepareOptions::default(),
        );
        assert_eq!(p.groups.len(), 2, "one group per layer");
        let g0 = p.groups.iter().find(|g| g.layer == Some(0)).unwrap();
        assert_eq!(g0.cubes.len(), 2);
        assert!(g0.triangles.is_empty() && g0.lines.is_empty());
        let (lo, hi, _) = g0.cubes[1];
        assert!((lo - Vec3::new(0.3, 1.0, 0.0)).length() < 1e-6);
        assert!((hi - Vec3::new(0.6, 1.2, 0.3)).length() < 1e-6);
    }

    #[test]
    fn picking_prefers_lines_over_the_polygon_under_them() {
        let sq = vec![
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(4.0, 0.0, 4.0),
            Vec3::new(0.0, 0.0, 4.0),
        ];
        let cell = StageElement {
            stage: 0,
            kind: "cell".into(),
            element: 7,
        };
        let seg = StageElement {
            stage: 0,
            kind: "portal".into(),
            element: 2,
        };
        let cell_p = vec![Primitive::new(
            "cell",
            7,
            Shape::Polygon {
                outer: sq,
                holes: vec![],
            },
        )];
        let seg_p = vec![Primitive::new(
            "portal",
            2,
            Shape::Segment(Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 4.0)),
        )];
        let items = || [(&cell, cell_p.as_slice()), (&seg, seg_p.as_slice())];
        assert_eq!(
            pick(Vec3::new(2.05, 0.0, 1.0), 0.2, items()),
            Some(seg.clone())
        );
        assert_eq!(
            pick(Vec3::new(1.0, 0.0, 1.0), 0.2, items()),
            Some(cell.clone())
        );
        assert_eq!(pick(Vec3::new(9.0, 0.0, 9.0), 0.2, items()), None);
    }

    #[test]
    fn visibility_follows_stage_step_and_legend() {
        let g = DrawGroup {
            stage: 1,
            kind: "portal/removed".into(),
            first: 2,
            last: 3,
            layer: Some(1),
        };
        let mut t = Timeline {
            current: 1,
            substep: Some(2),
            ..Default::default()
        };
        let mut legend = Legend::default();
        let mut filter = ViewFilter::default();
        assert!(group_visible(&g, 5, &t, &legend, &filter));
        filter.hidden_layers.insert(1);
        assert!(!group_visible(&g, 5, &t, &legend, &filter), "layer hidden");
        filter.hidden_layers.clear();
        t.substep = Some(4);
        assert!(!group_visible(&g, 5, &t, &legend, &filter));
        t.substep = Some(3);
        legend.hidden.insert("portal".into());
        assert!(!group_visible(&g, 5, &t, &legend, &filter));
        legend.hidden.clear();
        t.current = 2;
        assert!(
            !group_visible(&g, 5, &t, &legend, &filter),
            "current stage only"
        );
        t.accumulate = true;
        assert!(
            !group_visible(&g, 5, &t, &legend, &filter),
            "earlier stages show their final step"
        );
        let persistent = DrawGroup {
            last: u32::MAX,
            ..g
        };
        assert!(group_visible(&persistent, 5, &t, &legend, &filter));
    }
}
