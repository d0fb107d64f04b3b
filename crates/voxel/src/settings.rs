//! The pipeline's parameters: the agent table of Kirst's Listing 32.1 once per
//! stance (defaults from Tables 32.1 to 32.4), the grid, the tiles, the water
//! level, the simplification bounds and the pass order.

use navscope_core::params::{ParamSpec, ParamValues};
use navscope_core::{StageError, Stance};
use serde::Serialize;

/// The agent-driven parameters of Listing 32.1 for one stance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AgentParams {
    /// Radius (m) of the agent's physics cylinder.
    pub radius: f64,
    /// Height (m) of the cylinder.
    pub height: f64,
    /// Highest step (m) climbed without breaking foot anchoring.
    pub max_step: f64,
    /// Steepest walkable slope, radians (the UI shows degrees).
    pub max_slope_rad: f64,
    /// Least water depth (m) at which the stance is allowed.
    pub min_water: f64,
    /// Greatest water depth (m) at which the stance is allowed.
    pub max_water: f64,
}

/// The defaults of Tables 32.1 to 32.4, slope in radians.
pub fn paper_defaults(stance: Stance) -> AgentParams {
    let p = |radius, height, max_step, max_slope_rad, min_water, max_water| AgentParams {
        radius,
        height,
        max_step,
        max_slope_rad,
        min_water,
        max_water,
    };
    match stance {
        Stance::Stand => p(0.4, 2.0, 0.5, 0.5, 0.0, 1.5),
        Stance::Crouch => p(0.4, 1.2, 0.25, 0.35, 0.0, 0.7),
        Stance::Prone => p(1.0, 0.5, 0.1, 0.15, 0.0, 0.35),
        // maxStepHeight = maxWaterDepth - minWaterDepth (eq. 32.1); 2*pi rad.
        Stance::Swim => p(1.0, 0.5, 48.5, std::f64::consts::TAU, 1.5, 50.0),
        Stance::Sidestep => p(0.2, 2.0, 0.5, 0.5, 0.0, 1.5),
    }
}

/// The name of parameter `field` of `stance`, e.g. `crouch.height`.
pub fn agent_param(stance: Stance, field: &str) -> String {
    format!("{}.{field}", stance.name())
}

/// The fields of [`AgentParams`] as parameter suffixes.
pub const AGENT_FIELDS: [&str; 6] = [
    "radius",
    "height",
    "max_step",
    "max_slope",
    "min_water",
    "max_water",
];

/// The preset area names and their default costs (RecastDemo's
/// `SAMPLE_POLYAREA_*` costs: water 10, grass 2, road 1, door 1); each is a
/// parameter `area_cost.NAME`.
pub const AREA_PRESET: [(&str, f64); 4] = [
    ("water", 10.0),
    ("grass", 2.0),
    ("road", 1.0),
    ("door", 1.0),
];

/// The default pass order (the hierarchy of §32.4.4).
pub const DEFAULT_PASSES: &str = "stand,crouch,prone,swim,sidestep";

/// [`specs`], built once: every stage reads its settings, and building the
/// specs (their names, titles and help texts) cost more than reading them.
fn spec_list() -> &'static [ParamSpec] {
    static SPECS: std::sync::OnceLock<Vec<ParamSpec>> = std::sync::OnceLock::new();
    SPECS.get_or_init(specs)
}

/// Every parameter of the pipeline.
pub fn specs() -> Vec<ParamSpec> {
    let mut v = vec![
        ParamSpec::float(
            "cell_size",
            "Cell size",
            "m",
            0.1,
            0.01,
            10.0,
            0.01,
            "Width of a voxel column on the ground, x and z (Recast's Cell Size, cs).",
        ),
        ParamSpec::float(
            "cell_height",
            "Cell height",
            "m",
            0.05,
            0.005,
            10.0,
            0.005,
            "Height of one voxel (Recast's Cell Height, ch).",
        ),
        ParamSpec::int(
            "tile_size",
            "Tile size",
            "cells",
            256,
            0,
            100_000,
            "Cells per tile side; tiles are built in parallel. 0 = one tile (Recast's Tile Size, tileSize).",
        ),
        ParamSpec::bool(
            "reuse_tiles",
            "Reuse unchanged tiles",
            true,
            "Take the tiles whose geometry and parameters did not change from earlier builds (local rebuild) instead of building them again; off builds every tile, e.g. to time cold builds.",
        ),
        ParamSpec::bool(
            "water_level_on",
            "Global water level",
            false,
            "Fill everything below the water level with water (besides the level's water volumes).",
        ),
        ParamSpec::float(
            "water_level",
            "Water level",
            "m",
            0.0,
            -100_000.0,
            100_000.0,
            0.1,
            "Height of the global water surface when it is on.",
        ),
        ParamSpec::float(
            "max_error",
            "Max simplification error",
            "m",
            0.15,
            0.0,
            100.0,
            0.01,
            "How far a simplified wall outline may stray from the voxel outline, either side (Recast's Max Edge Error, there in cells: error x cell size).",
        ),
        ParamSpec::float(
            "max_edge_len",
            "Max edge length",
            "m",
            2.0,
            0.1,
            10_000.0,
            0.1,
            "Longest wall or shared outline edge after simplification; portals between regions are not split (Recast's Max Edge Length).",
        ),
        ParamSpec::bool(
            "filter_low_hanging_obstacles",
            "Low hanging obstacles",
            true,
            "A span too steep to walk on is walkable when the walkable span below it is at most a step lower: kerbs, stair nosings (Recast's Low Hanging Obstacles filter, rcFilterLowHangingWalkableObstacles).",
        ),
        ParamSpec::bool(
            "filter_ledge_spans",
            "Ledge spans",
            false,
            "A span next to a drop deeper than a step, or among neighbours whose floors differ by more than a step, is not walkable (Recast's Ledge Spans filter, rcFilterLedgeSpans). Off by default: the radius is already kept from every drop (a missing connection is an obstacle), and the filter takes one more cell; on as in Recast for comparisons.",
        ),
        ParamSpec::bool(
            "filter_walkable_low_height_spans",
            "Walkable low height spans",
            true,
            "A span with less free space above it than the agent is tall is not walkable (Recast's Walkable Low Height Spans filter, rcFilterWalkableLowHeightSpans).",
        ),
        ParamSpec::bool(
            ERODE_LEDGES,
            "Erode from ledges",
            true,
            "Keep the agent's radius from ledges (drops deeper than a step) as from walls, as Recast does for a cylinder that must stand wholly on the floor. Off for a body that may overhang a ledge (a game's box hull: Quake's player stands wherever the bottom of his box rests on some floor), so the walkable area reaches a ledge's edge and narrow ledges and sills keep their nodes; walls, low ceilings and columns across a gap where the body does not fit are still kept a radius away. The swim pass keeps Recast's rule.",
        ),
        ParamSpec::bool(
            "drop_wall_bands",
            "Drop wall bands",
            true,
            "A later pass keeps an area only if it reaches a place no earlier pass reaches, joins earlier areas that were apart, or reaches farther than the band keep distance from them; the rest (bands along walls between two radii) goes back to the pool (Kirst §32.3).",
        ),
        ParamSpec::float(
            "band_keep_distance",
            "Band keep distance",
            "m",
            0.0,
            0.0,
            100.0,
            0.05,
            "How far from every earlier pass's walkable voxel a later pass's area must reach to be kept for that alone; 0: the earlier passes' largest radius.",
        ),
        ParamSpec::choice(
            "partition",
            "Partitioning",
            &["watershed", "monotone", "layers"],
            "watershed",
            "How walkable voxels are cut into regions (Recast's Partitioning): watershed over the distance field (rcBuildRegions; the best regions, the slowest), monotone row sweeps (rcBuildRegionsMonotone; fast, long thin regions) or layers (rcBuildLayerRegions; the sweep's regions merged into regions that never overlap in height, for tiles of stacked floors; merge region size unused).",
        ),
        ParamSpec::int(
            "min_region_size",
            "Min region size",
            "cells",
            8,
            0,
            10_000,
            "Groups of connected regions smaller than this squared (in voxel columns) are removed (Recast's Min Region Size; minRegionArea = size^2).",
        ),
        ParamSpec::int(
            "merge_region_size",
            "Merged region size",
            "cells",
            20,
            0,
            10_000,
            "Regions with at most this squared voxel columns are merged into a neighbour where they can be (Recast's Merged Region Size; mergeRegionArea = size^2). Not used by the layers partition, as in Recast.",
        ),
        ParamSpec::int(
            "max_verts_per_poly",
            "Max verts per poly",
            "",
            6,
            3,
            12,
            "Triangles are merged into convex polygons of at most this many corners (Recast's Max Verts Per Poly); 3 keeps the triangles.",
        ),
        ParamSpec::float(
            "detail_sample_dist",
            "Detail sample distance",
            "cells",
            6.0,
            0.0,
            1000.0,
            0.5,
            "Spacing of the height samples inside each polygon, in cells (Recast's Detail Sample Distance); below 0.9 the detail is the polygon's own triangles.",
        ),
        ParamSpec::float(
            "detail_sample_max_error",
            "Detail sample max error",
            "voxels",
            1.0,
            0.0,
            1000.0,
            0.5,
            "Height error, in voxel heights, that the detail surface may leave at a sample (Recast's Detail Sample Max Error).",
        ),
        ParamSpec::bool(
            "convex_volumes",
            "Convex volumes",
            true,
            "Mark the areas of the level's convex volumes (its NAME.obj.ron sidecar) on the compact heightfield, as Recast's rcMarkConvexPolyArea; off: every span is in the default area.",
        ),
        ParamSpec::list(
            "passes",
            "Passes (in order)",
            &["stand", "crouch", "prone", "swim", "sidestep"],
            DEFAULT_PASSES,
            "Recycled passes in hierarchy order (§32.4.4): each pass sees only the voxels the earlier ones left non-walkable.",
        ),
        drop_param_spec(),
        ParamSpec::float(
            JUMP_HEIGHT,
            "Jump height",
            "m",
            1.1,
            0.0,
            5.0,
            0.05,
            "Highest rise of the agent's running jump (with the jump reach: the gap jumps of the drops stage).",
        ),
        ParamSpec::float(
            JUMP_REACH,
            "Running jump reach",
            "m",
            0.0,
            0.0,
            50.0,
            0.05,
            "Horizontal distance of a running jump that lands at its take-off height; with it, ledges link one way to the floors a running jump reaches across a gap, up a ledge or down a drop (module drops). 0: drops only, no jumps.",
        ),
    ];
    v.extend(navscope_core::jump::fall_param_specs());
    for (name, title, liquid, health) in [
        (
            crate::hazards::SLIME_COST,
            "Slime cost",
            "slime",
            "1.8 (4 health a second at 10 m/s, 2 m a health point)",
        ),
        (
            crate::hazards::LAVA_COST,
            "Lava cost",
            "lava",
            "11 (50 health a second at 10 m/s, 2 m a health point)",
        ),
    ] {
        v.push(ParamSpec::float(
            name,
            title,
            "x",
            0.0,
            0.0,
            100.0,
            0.1,
            &format!("Cost multiplier of links into the floor under a brush level's {liquid} (module hazards); 0 (the default) forbids them, so paths go around. Quake's player: {health}."),
        ));
    }
    for (area, cost) in AREA_PRESET {
        v.push(ParamSpec::float(
            &format!("area_cost.{area}"),
            &format!("Area cost: {area}"),
            "x",
            cost,
            0.0,
            1000.0,
            0.1,
            &format!("Cost multiplier of moving through the '{area}' area of a convex volume that gives no cost of its own (Recast's area cost, dtQueryFilter::setAreaCost; RecastDemo's default)."),
        ));
    }
    for s in Stance::ALL {
        let d = paper_defaults(s);
        let n = s.name();
        let f =
            |field: &str, label: &str, unit: &str, def: f64, max: f64, step: f64, doc: String| {
                ParamSpec::float(
                    &agent_param(s, field),
                    &format!("{n}: {label}"),
                    unit,
                    def,
                    0.0,
                    max,
                    step,
                    &doc,
                )
            };
        v.push(f(
            "radius",
            "radius",
            "m",
            d.radius,
            10.0,
            0.05,
            format!("Radius of the {n} agent's cylinder; spans closer to an obstacle are eroded (Recast's Agent Radius, walkableRadius)."),
        ));
        v.push(f(
            "height",
            "height",
            "m",
            d.height,
            20.0,
            0.05,
            format!("Height of the {n} agent's cylinder: the free space a span needs above it (Recast's Agent Height, walkableHeight)."),
        ));
        v.push(f(
            "max_step",
            "max step height",
            "m",
            d.max_step,
            100.0,
            0.05,
            format!("Highest step the {n} agent climbs between neighbouring spans (Recast's Max Climb, walkableClimb)."),
        ));
        v.push(f(
            "max_slope",
            "max slope",
            "deg",
            d.max_slope_rad.to_degrees(),
            360.0,
            1.0,
            format!("Steepest slope the {n} agent crosses (Kirst's maxSlopeRad in degrees; Recast's Max Slope, walkableSlopeAngle)."),
        ));
        v.push(f(
            "min_water",
            "min water depth",
            "m",
            d.min_water,
            1000.0,
            0.05,
            format!("Least water depth for the {n} stance."),
        ));
        v.push(f(
            "max_water",
            "max water depth",
            "m",
            d.max_water,
            1000.0,
            0.05,
            format!("Greatest water depth for the {n} stance."),
        ));
    }
    v
}

/// The parameter names each stage reads.
pub mod reads {
    /// `tiles`: grid, tiles, every radius and the passes (the tile
    /// overlap) and whether tiles of earlier builds are reused.
    pub const TILES: &[&str] = &[
        "reuse_tiles",
        "passes",
        "cell_size",
        "cell_height",
        "tile_size",
        "stand.radius",
        "crouch.radius",
        "prone.radius",
        "swim.radius",
        "sidestep.radius",
    ];
    /// `movers`: the running jump and the landing cost (push flights and
    /// falls through holes).
    pub const MOVERS: &[&str] = &[
        super::JUMP_HEIGHT,
        super::JUMP_REACH,
        navscope_core::jump::SAFE_FALL,
        navscope_core::jump::FALL_COST,
    ];
    /// `drops`: the deepest drop, the running jump and the hazards' costs.
    pub const DROPS: &[&str] = &[
        crate::hazards::SLIME_COST,
        crate::hazards::LAVA_COST,
        super::MAX_DROP,
        super::JUMP_HEIGHT,
        super::JUMP_REACH,
        navscope_core::jump::SAFE_FALL,
        navscope_core::jump::FALL_COST,
    ];
    /// `voxelize`: water.
    pub const VOXELIZE: &[&str] = &["water_level_on", "water_level"];
    /// `compact`: the span filters, whether volumes mark areas, the pass
    /// order and the agent tables (heights and steps: the neighbours;
    /// slopes, water, radii: which spans are passable and near them).
    pub const COMPACT: &[&str] = &[
        "filter_low_hanging_obstacles",
        "filter_ledge_spans",
        "filter_walkable_low_height_spans",
        "convex_volumes",
        "passes",
        "stand.radius",
        "stand.height",
        "stand.max_step",
        "stand.max_slope",
        "stand.min_water",
        "stand.max_water",
        "crouch.radius",
        "crouch.height",
        "crouch.max_step",
        "crouch.max_slope",
        "crouch.min_water",
        "crouch.max_water",
        "prone.radius",
        "prone.height",
        "prone.max_step",
        "prone.max_slope",
        "prone.min_water",
        "prone.max_water",
        "swim.radius",
        "swim.height",
        "swim.max_step",
        "swim.max_slope",
        "swim.min_water",
        "swim.max_water",
        "sidestep.radius",
        "sidestep.height",
        "sidestep.max_step",
        "sidestep.max_slope",
        "sidestep.min_water",
        "sidestep.max_water",
    ];
    /// `graph`: the preset area costs.
    pub const GRAPH: &[&str] = &[
        "area_cost.water",
        "area_cost.grass",
        "area_cost.road",
        "area_cost.door",
    ];
    /// `flag`: the span filters, the band rule (which cuts regions as the
    /// `regions` stage does), the pass order and every agent table.
    pub const FLAG: &[&str] = &[
        "filter_low_hanging_obstacles",
        "filter_ledge_spans",
        "filter_walkable_low_height_spans",
        super::ERODE_LEDGES,
        "drop_wall_bands",
        "band_keep_distance",
        "partition",
        "min_region_size",
        "merge_region_size",
        "passes",
        "stand.height",
        "stand.max_step",
        "stand.max_slope",
        "stand.min_water",
        "stand.max_water",
        "crouch.height",
        "crouch.max_step",
        "crouch.max_slope",
        "crouch.min_water",
        "crouch.max_water",
        "prone.height",
        "prone.max_step",
        "prone.max_slope",
        "prone.min_water",
        "prone.max_water",
        "swim.height",
        "swim.max_step",
        "swim.max_slope",
        "swim.min_water",
        "swim.max_water",
        "sidestep.height",
        "sidestep.max_step",
        "sidestep.max_slope",
        "sidestep.min_water",
        "sidestep.max_water",
    ];
    /// `regions`: partition algorithm and region filters.
    pub const REGIONS: &[&str] = &["partition", "min_region_size", "merge_region_size"];
    /// `polymesh`: the corner bound.
    pub const POLYMESH: &[&str] = &["max_verts_per_poly"];
    /// `detail`: sample spacing and error.
    pub const DETAIL: &[&str] = &["detail_sample_dist", "detail_sample_max_error"];
    /// `simplify`: error and edge bounds.
    pub const SIMPLIFY: &[&str] = &["max_error", "max_edge_len"];
}

/// Which of Recast's span filters run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Filters {
    /// `rcFilterLowHangingWalkableObstacles`.
    pub low_hanging: bool,
    /// `rcFilterLedgeSpans`.
    pub ledges: bool,
    /// `rcFilterWalkableLowHeightSpans`.
    pub low_height: bool,
}

/// The band rule's setting.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BandRule {
    /// Distance (m) a kept area must reach away from every earlier pass's
    /// walkable span; `None`: the earlier passes' largest radius.
    pub distance: Option<f64>,
    /// How regions are cut.
    pub partition: PartitionParams,
}

/// How the walkable spans are cut into regions (Recast's partition types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Partition {
    /// Recast's `rcBuildRegions`.
    Watershed,
    /// Recast's `rcBuildRegionsMonotone`.
    Monotone,
    /// Recast's `rcBuildLayerRegions`: monotone regions merged into layers
    /// that never overlap themselves in height.
    Layers,
}

impl Partition {
    /// Every partition, in the order the parameter lists them.
    pub const ALL: [Partition; 3] = [Partition::Watershed, Partition::Monotone, Partition::Layers];

    /// The parameter value naming it.
    pub fn name(self) -> &'static str {
        match self {
            Partition::Watershed => "watershed",
            Partition::Monotone => "monotone",
            Partition::Layers => "layers",
        }
    }

    /// The partition a parameter value names.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Partition settings of one build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PartitionParams {
    /// Algorithm.
    pub kind: Partition,
    /// Recast's `minRegionArea`, in spans.
    pub min_area: u32,
    /// Recast's `mergeRegionArea`, in spans.
    pub merge_area: u32,
}

/// Detail settings (world units).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DetailParams {
    /// Sample spacing (m); 0 turns sampling off.
    pub sample_dist: f64,
    /// Largest height error left between samples and the surface (m).
    pub max_error: f64,
}

/// The parameter: whether the erosion keeps the radius from ledges too
/// (Recast), or only from where the body does not fit ([`crate::overhang`]).
pub const ERODE_LEDGES: &str = "erode_ledges";

/// The parameter: the deepest drop linked, metres.
pub const MAX_DROP: &str = "max_drop";

/// The parameters of the running jump (shared with `cspace`).
pub use navscope_core::jump::{JUMP_HEIGHT, JUMP_REACH};

/// The `drops` stage's drop parameter.
pub fn drop_param_spec() -> ParamSpec {
    ParamSpec::float(
        MAX_DROP,
        "Max drop height",
        "m",
        2.0,
        0.0,
        navscope_core::jump::MAX_DROP_LIMIT,
        0.1,
        "Deepest drop off a ledge that becomes a one-way jump link (the agent walks off and falls to the floor below); 0 = no drop links. The default, 2 m, is a fall a person takes unhurt; at its maximum no drop the level holds is refused (Quake's player, who is hurt, not stopped, by a hard landing: see the unhurt fall height).",
    )
}

/// One enabled pass: its stance and agent table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pass {
    /// The stance its triangles carry.
    pub stance: Stance,
    /// Its agent table.
    pub agent: AgentParams,
}

/// Every setting, read and checked once.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Column width (m).
    pub cell_size: f64,
    /// Voxel height (m).
    pub cell_height: f64,
    /// Cells per tile side (0: one tile).
    pub tile_size: i64,
    /// Global water surface, when on.
    pub water_level: Option<f64>,
    /// Simplification error bound (m).
    pub max_error: f64,
    /// Longest simplified edge (m).
    pub max_edge_len: f64,
    /// The enabled passes in order.
    pub passes: Vec<Pass>,
    /// The largest radius of the enabled passes: it sets the tile overlap
    /// ([`crate::tiles::tile_padding`]), so a build pads its tiles by what
    /// its passes need, as Recast's border is its agent's radius plus 3
    /// cells: a standing build at Recast's settings pads 5 cells, where
    /// the prone radius would pad 7. Partitions and contours near a tile's
    /// edge read its overlap, so the mesh depends on it; turning on a pass
    /// with a larger radius than the others changes the overlap and
    /// rebuilds every tile.
    pub max_radius: f64,
    /// Reuse tiles of earlier builds whose inputs did not change.
    pub reuse_tiles: bool,
    /// Recast's span filters.
    pub filters: Filters,
    /// Whether the erosion keeps the radius from ledges as from walls
    /// (Recast's rule; off: [`crate::overhang`]).
    pub erode_ledges: bool,
    /// The wall-band rule of the recycled passes, when on.
    pub bands: Option<BandRule>,
    /// Region partitioning and filters.
    pub partition: PartitionParams,
    /// Most corners of a merged polygon (Recast's `nvp`).
    pub max_verts_per_poly: usize,
    /// Height detail sampling, in world units.
    pub detail: DetailParams,
    /// Whether convex volumes mark areas.
    pub convex_volumes: bool,
    /// The preset area costs ([`AREA_PRESET`] names, parameter values).
    pub area_costs: Vec<(&'static str, f64)>,
}

/// Recast's region area from a region size: size squared, saturating.
fn area(size: i64) -> u32 {
    let size = size.clamp(0, u16::MAX as i64) as u32;
    size * size
}

fn stance_named(name: &str) -> Option<Stance> {
    Stance::ALL.into_iter().find(|s| s.name() == name)
}

/// The agent table of `stance` from parameter values.
pub fn agent_from(params: &ParamValues, stance: Stance) -> AgentParams {
    let g = |f: &str| params.float(&agent_param(stance, f));
    AgentParams {
        radius: g("radius"),
        height: g("height"),
        max_step: g("max_step"),
        max_slope_rad: g("max_slope").to_radians(),
        min_water: g("min_water"),
        max_water: g("max_water"),
    }
}

impl Settings {
    /// Reads the settings; a missing or non-finite value is an error naming it.
    pub fn from_params(params: &ParamValues) -> Result<Self, StageError> {
        for spec in spec_list() {
            if params.get(&spec.name).is_none() {
                return Err(StageError::failed(format!(
                    "parameter '{}' has no value",
                    spec.name
                )));
            }
        }
        let passes = params
            .list("passes")
            .into_iter()
            .map(|n| {
                stance_named(n)
                    .map(|s| Pass {
                        stance: s,
                        agent: agent_from(params, s),
                    })
                    .ok_or_else(|| {
                        StageError::failed(format!("parameter 'passes': unknown stance '{n}'"))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let max_radius = passes.iter().map(|p| p.agent.radius).fold(0.0, f64::max);
        let mut s = Settings {
            cell_size: params.float("cell_size"),
            cell_height: params.float("cell_height"),
            tile_size: params.int("tile_size"),
            water_level: params
                .bool("water_level_on")
                .then(|| params.float("water_level")),
            max_error: params.float("max_error"),
            max_edge_len: params.float("max_edge_len"),
            passes,
            max_radius,
            reuse_tiles: params.bool("reuse_tiles"),
            filters: Filters {
                low_hanging: params.bool("filter_low_hanging_obstacles"),
                ledges: params.bool("filter_ledge_spans"),
                low_height: params.bool("filter_walkable_low_height_spans"),
            },
            erode_ledges: params.bool(ERODE_LEDGES),
            bands: None,
            partition: PartitionParams {
                kind: Partition::named(params.text("partition")).ok_or_else(|| {
                    StageError::failed(format!(
                        "parameter 'partition': unknown partition '{}'",
                        params.text("partition")
                    ))
                })?,
                min_area: area(params.int("min_region_size")),
                merge_area: area(params.int("merge_region_size")),
            },
            max_verts_per_poly: params.int("max_verts_per_poly").clamp(3, 12) as usize,
            detail: DetailParams {
                // Recast: a sample distance under 0.9 cells turns sampling off.
                sample_dist: if params.float("detail_sample_dist") < 0.9 {
                    0.0
                } else {
                    params.float("detail_sample_dist") * params.float("cell_size")
                },
                max_error: params.float("detail_sample_max_error") * params.float("cell_height"),
            },
            convex_volumes: params.bool("convex_volumes"),
            area_costs: AREA_PRESET
                .iter()
                .map(|(n, _)| (*n, params.float(&format!("area_cost.{n}"))))
                .collect(),
        };
        s.bands = params.bool("drop_wall_bands").then(|| BandRule {
            distance: Some(params.float("band_keep_distance")).filter(|d| *d > 0.0),
            partition: s.partition,
        });
        if !(s.cell_size > 0.0
            && s.cell_height > 0.0
            && s.cell_size.is_finite()
            && s.cell_height.is_finite())
        {
            return Err(StageError::failed(
                "cell_size and cell_height must be positive numbers",
            ));
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_papers_tables() {
        let v = ParamValues::defaults(&specs());
        let s = Settings::from_params(&v).unwrap();
        let names: Vec<_> = s.passes.iter().map(|p| p.stance.name()).collect();
        assert_eq!(names, ["stand", "crouch", "prone", "swim", "sidestep"]);
        assert_eq!(s.passes[1].agent.height, 1.2);
        assert_eq!(s.passes[2].agent.radius, 1.0);
        assert_eq!(s.passes[3].agent.max_step, 48.5);
        assert!((s.passes[3].agent.max_slope_rad - std::f64::consts::TAU).abs() < 1e-12);
        assert!((s.passes[0].agent.max_slope_rad - 0.5).abs() < 1e-12);
        assert_eq!(s.passes[4].agent.radius, 0.2);
        assert_eq!(s.max_radius, 1.0);
        // Eq. 32.1 for the swim table.
        let sw = paper_defaults(Stance::Swim);
        assert_eq!(sw.max_step, sw.max_water - sw.min_water);
    }

    /// The overlap serves the enabled passes, not the stances left out.
    #[test]
    fn the_overlap_radius_is_the_enabled_passes_largest() {
        let sp = specs();
        let mut v = ParamValues::defaults(&sp);
        let mut set = |name: &str, value: navscope_core::ParamValue| {
            v.set(&sp, name, value).unwrap();
            Settings::from_params(&v).unwrap().max_radius
        };
        use navscope_core::ParamValue::{Float, Text};
        assert_eq!(set("stand.radius", Float(0.6)), 1.0);
        assert_eq!(set("passes", Text("stand".into())), 0.6);
        assert_eq!(set("passes", Text("stand, sidestep".into())), 0.6);
        assert_eq!(set("passes", Text("sidestep".into())), 0.2);
        assert_eq!(set("passes", Text("crouch, prone".into())), 1.0);
    }

    #[test]
    fn pass_list_is_read_in_order() {
        let sp = specs();
        let mut v = ParamValues::defaults(&sp);
        v.set(
            &sp,
            "passes",
            navscope_core::ParamValue::Text("prone, stand".into()),
        )
        .unwrap();
        let s = Settings::from_params(&v).unwrap();
        assert_eq!(
            s.passes.iter().map(|p| p.stance).collect::<Vec<_>>(),
            [Stance::Prone, Stance::Stand]
        );
    }
}
