//! The style table: `(kind, look)` rows for every kind of primitive the
//! pipelines draw, and the [`Style`] type they are written in. Lookup, the
//! fallback along the kind chain and the colour ramps live in
//! [`super::style`].

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

/// A style with these colour, fill and width, round points and solid lines.
pub(crate) const fn style(color: [f32; 4], fill: Option<f32>, width: f32) -> Style {
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
    // Walkable by slope but outside a sealed map (dropped, dashed).
    (
        "walkable/outside",
        style([0.55, 0.45, 0.40, 1.00], Some(0.15), 1.5).dashed(),
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
        style([0.70, 0.52, 0.36, 1.00], Some(0.40), 1.0),
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
    // Steps between layers (layers' `/across` kinds): a lighter shade,
    // dashed, so a step across reads apart from a step on one layer.
    (
        "path/backbone/across",
        style([0.62, 0.48, 0.85, 1.00], None, 2.0).dashed(),
    ),
    ("path/short", style([0.85, 0.10, 0.10, 1.00], None, 3.5)),
    (
        "path/short/across",
        style([0.98, 0.45, 0.70, 1.00], None, 3.5).dashed(),
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
    (
        "path/locate",
        style([0.45, 0.45, 0.48, 1.00], None, 1.5).dashed(),
    ),
    (
        "region/expanded",
        style([0.35, 0.60, 0.95, 0.8], Some(0.18), 1.0),
    ),
    // Dual-graph edges whose corridor a wall enters (kept, drawn apart).
    // A dark shade of the dual edges' magenta: the gallery's orange edges
    // are drawn beside them and must not read as the same kind.
    (
        "edge/dual/narrow",
        style([0.45, 0.05, 0.30, 1.00], None, 2.0).dashed(),
    ),
    // Nodes a point cannot see (the article's Figure 4 failure).
    (
        "node/hidden",
        style([0.85, 0.12, 0.12, 1.00], None, 2.0).dot(0.008),
    ),
    // Guard placement, one guard at a time: seen and unseen triangles.
    (
        "triangle/seen",
        style([0.15, 0.65, 0.25, 0.8], Some(0.25), 1.0),
    ),
    (
        "triangle/unseen",
        style([0.85, 0.15, 0.15, 0.8], Some(0.30), 1.0),
    ),
    // Simplification repairs: vertices brought back.
    (
        "vertex/restored",
        style([0.90, 0.10, 0.80, 1.00], None, 2.0).dot(0.008),
    ),
    // Opening connections one at a time (layers).
    ("axis/before", style([0.55, 0.55, 0.58, 1.00], None, 1.5)),
    (
        "axis/edge/removed",
        style([0.85, 0.12, 0.12, 1.00], None, 2.0).dashed(),
    ),
    // ANavMG portal candidates (Figure 3) and notches dropped or relaxed.
    (
        "candidate/point/projection",
        style([0.05, 0.70, 0.80, 1.00], None, 1.0).dot(0.009),
    ),
    (
        "candidate/point/q_l",
        style([0.95, 0.80, 0.05, 1.00], None, 1.0).dot(0.009),
    ),
    (
        "candidate/point/q_r",
        style([0.95, 0.50, 0.05, 1.00], None, 1.0).dot(0.009),
    ),
    (
        "candidate/point/endpoint",
        style([0.30, 0.30, 0.35, 1.00], None, 1.0).dot(0.009),
    ),
    (
        "notch/dropped",
        style([0.75, 0.55, 0.40, 1.00], None, 1.5).dot(0.006),
    ),
    (
        "notch/relaxed",
        style([0.45, 0.75, 0.45, 1.00], None, 1.5).dot(0.006),
    ),
    // Recast's distance field (a ramp by value) and watershed / monotone
    // regions (a soft colour per region id).
    (
        "voxel/distance",
        style([0.10, 0.20, 0.55, 1.00], Some(0.85), 1.0),
    ),
    (
        "voxel/region",
        style([0.40, 0.40, 0.45, 1.00], Some(0.85), 1.0).per_element(),
    ),
    // A voxel pass's sub-step highlight: the outline of the spans that pass
    // owns, in a colour no stance, hover or selection uses.
    ("highlight/pass", style([1.00, 0.25, 0.70, 1.00], None, 3.0)),
    // Recast's "region connections": region centre to region centre.
    (
        "voxel/region/connection",
        style([0.05, 0.05, 0.10, 1.00], None, 1.5),
    ),
    // Recast's compact heightfield (RecastDemo's "compact" view): the spans
    // a pass may stand on, those in a convex volume's area coloured per
    // area, the span-neighbour connections, and the volumes themselves.
    (
        "voxel/compact",
        style([0.30, 0.55, 0.75, 1.00], Some(0.70), 1.0),
    ),
    (
        "voxel/area",
        style([0.85, 0.55, 0.20, 1.00], Some(0.85), 1.0).per_element(),
    ),
    (
        "compact/neighbour",
        style([0.10, 0.20, 0.35, 0.80], None, 1.0),
    ),
    (
        "volume",
        style([0.90, 0.45, 0.10, 1.00], None, 2.0).per_element(),
    ),
    (
        "polymesh/stand",
        style([0.25, 0.65, 0.30, 1.00], Some(0.30), 2.5),
    ),
    (
        "detail/stand",
        style([0.25, 0.65, 0.30, 1.00], None, 1.0).dashed(),
    ),
    (
        "polymesh/crouch",
        style([0.95, 0.68, 0.10, 1.00], Some(0.30), 2.5),
    ),
    (
        "detail/crouch",
        style([0.95, 0.68, 0.10, 1.00], None, 1.0).dashed(),
    ),
    (
        "polymesh/prone",
        style([0.88, 0.33, 0.18, 1.00], Some(0.30), 2.5),
    ),
    (
        "detail/prone",
        style([0.88, 0.33, 0.18, 1.00], None, 1.0).dashed(),
    ),
    (
        "polymesh/swim",
        style([0.15, 0.48, 0.92, 1.00], Some(0.30), 2.5),
    ),
    (
        "detail/swim",
        style([0.15, 0.48, 0.92, 1.00], None, 1.0).dashed(),
    ),
    (
        "polymesh/sidestep",
        style([0.58, 0.32, 0.85, 1.00], Some(0.30), 2.5),
    ),
    (
        "detail/sidestep",
        style([0.58, 0.32, 0.85, 1.00], None, 1.0).dashed(),
    ),
    // Quake map semantics (cspace): regions of brush entities and liquids,
    // lifts, brushes that could not be read, and the links they make.
    (
        "region/door",
        style([0.95, 0.55, 0.10, 0.9], Some(0.20), 1.5),
    ),
    (
        "region/water",
        style([0.15, 0.45, 0.95, 0.9], Some(0.22), 1.5),
    ),
    (
        "region/slime",
        style([0.35, 0.75, 0.15, 0.9], Some(0.25), 1.5),
    ),
    (
        "region/lava",
        style([0.95, 0.30, 0.05, 0.9], Some(0.30), 1.5),
    ),
    (
        "region/teleport",
        style([0.85, 0.15, 0.85, 0.9], Some(0.20), 1.5),
    ),
    (
        "region/push",
        style([0.95, 0.85, 0.10, 0.9], Some(0.20), 1.5),
    ),
    (
        "region/exit",
        style([0.95, 0.80, 0.30, 0.9], Some(0.25), 2.0),
    ),
    ("lift", style([0.10, 0.80, 0.85, 1.0], None, 2.0)),
    ("brush/skipped", style([0.95, 0.05, 0.05, 1.0], None, 3.0)),
    ("link/door", style([0.95, 0.50, 0.05, 1.00], None, 2.5)),
    ("link/elevator", style([0.05, 0.80, 0.85, 1.00], None, 2.5)),
    (
        "link/teleport",
        style([0.85, 0.10, 0.85, 1.00], None, 2.0).dashed(),
    ),
    ("link/swim", style([0.10, 0.35, 0.95, 1.00], None, 2.0)),
    ("node/swim", style([0.45, 0.70, 1.00, 1.0], Some(0.40), 1.0)),
    (
        "area-of-interest/dropped",
        style([0.50, 0.55, 0.65, 0.7], Some(0.10), 1.0).dashed(),
    ),
    // The final NavMesh drawn over any stage (the view's "NavMesh"
    // overlay): each polygon filled in its stance's colour, the links one
    // dark colour no stage uses.
    (
        "navmesh/stand",
        style([0.25, 0.65, 0.30, 1.00], Some(0.50), 1.0),
    ),
    (
        "navmesh/crouch",
        style([0.95, 0.68, 0.10, 1.00], Some(0.50), 1.0),
    ),
    (
        "navmesh/prone",
        style([0.88, 0.33, 0.18, 1.00], Some(0.50), 1.0),
    ),
    (
        "navmesh/swim",
        style([0.15, 0.48, 0.92, 1.00], Some(0.50), 1.0),
    ),
    (
        "navmesh/sidestep",
        style([0.58, 0.32, 0.85, 1.00], Some(0.50), 1.0),
    ),
    ("navmesh/link", style([0.12, 0.20, 0.45, 1.00], None, 1.0)),
    // Compare (navscope-compare): where only A (the build on screen) or
    // only B (the pinned build) is walkable, the colours of its pictures:
    // chartreuse and ultramarine, as far from every other colour here (and
    // from the probe's path) as the table leaves room for, so the
    // difference is never mistaken for crouch area or the path.
    (
        "difference/a-only",
        style([0.60, 1.00, 0.00, 1.0], Some(0.65), 1.5),
    ),
    (
        "difference/b-only",
        style([0.30, 0.00, 1.00, 1.0], Some(0.65), 1.5),
    ),
    (
        "difference/common",
        style([0.55, 0.55, 0.55, 0.6], Some(0.15), 1.0),
    ),
];
