//! A whole build outside the `Runner`: [`build()`] runs the pipeline's own
//! stage functions in order (so it shares their tile cache, stage 9's local
//! rebuild, see [`crate::tile_cache`]) and hands back every tile's results
//! with the graph, for tests, benchmarks and tools that want the data rather
//! than the drawings.

use std::sync::Arc;

use navscope_core::level::Level;
use navscope_core::{Artifact, NavMesh, ParamValues, StageContext, StageError};
use serde::Serialize;

use std::collections::BTreeMap;

use crate::compact::CompactTile;
use crate::contour::{EdgeClass, Region};
use crate::detail::RegionDetail;
use crate::flags::PassFlags;
use crate::graph::Graph;
use crate::heightfield::Heightfield;
use crate::partition::PassPartition;
use crate::polymesh::RegionPolys;
use crate::settings::Settings;
use crate::simplify::{SimplifiedRegion, simplify_region};
use crate::stages::{
    CompactArtifact, DetailArtifact, FlagArtifact, GraphArtifact, PartitionArtifact,
    PolyMeshArtifact, RegionArtifact, SimplifyArtifact, TilesArtifact, TriangulateArtifact,
    VoxelArtifact,
};
use crate::tiles::{Grid, Layout};
use crate::triangulate::{RegionMesh, triangulate};

/// Everything one tile produced, stage by stage (shared with the cache).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileBuild {
    /// Stage 2.
    pub heightfield: Arc<Heightfield>,
    /// Stage `compact`: passable spans, span neighbours and areas.
    pub compact: Arc<CompactTile>,
    /// Stages 3 and 7, one entry per pass.
    pub flags: Arc<Vec<PassFlags>>,
    /// Stage `partition`, one entry per pass.
    pub partitions: Arc<Vec<PassPartition>>,
    /// Stage 4.
    pub regions: Arc<Vec<Region>>,
    /// Stage 5, one per region.
    pub simplified: Arc<Vec<SimplifiedRegion>>,
    /// Stage 6, one per region.
    pub meshes: Arc<Vec<RegionMesh>>,
    /// Stage `polymesh`, one per region.
    pub polys: Arc<Vec<RegionPolys>>,
    /// Stage `detail`, one per region.
    pub detail: Arc<Vec<RegionDetail>>,
}

/// Simplifies every region of a tile. Portals between regions of two areas
/// (convex volumes) keep their exact cell edges on both sides, so an area's
/// polygons stay on its spans (a straight portal would cut across the
/// area's corners; Recast simplifies area borders like walls, here they are
/// kept exact as the edges between passes are). A region whose ring had to
/// fall back to its exact outline keeps its portals exact, and so does the
/// region on the other side of each, so that both still meet exactly
/// (repeated until no new fallback appears).
pub fn simplify_tile(regions: &[Region], grid: &Grid, s: &Settings) -> Vec<SimplifiedRegion> {
    let mut exact: BTreeMap<(usize, u32), Vec<u32>> = BTreeMap::new();
    let area: BTreeMap<(usize, u32), u8> = regions
        .iter()
        .map(|r| ((r.pass, r.label), r.area))
        .collect();
    for r in regions {
        for class in r.rings.iter().flat_map(|ring| &ring.class) {
            if let EdgeClass::Portal(l) = *class
                && area.get(&(r.pass, l)).is_some_and(|&a| a != r.area)
            {
                let v = exact.entry((r.pass, r.label)).or_default();
                if let Err(at) = v.binary_search(&l) {
                    v.insert(at, l);
                }
            }
        }
    }
    loop {
        let out: Vec<SimplifiedRegion> = regions
            .iter()
            .map(|r| {
                let forced = exact.get(&(r.pass, r.label)).map_or(&[][..], |v| v);
                simplify_region(r, s.max_error / grid.cs, s.max_edge_len / grid.cs, forced)
            })
            .collect();
        let mut changed = false;
        for (r, o) in regions.iter().zip(&out) {
            if o.fallbacks == 0 {
                continue;
            }
            for class in r.rings.iter().flat_map(|ring| &ring.class) {
                if let EdgeClass::Portal(l) = *class {
                    for (a, b) in [(r.label, l), (l, r.label)] {
                        let v = exact.entry((r.pass, a)).or_default();
                        if let Err(at) = v.binary_search(&b) {
                            v.insert(at, b);
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Triangulates every simplified region of a tile.
pub fn triangulate_tile(simplified: &[SimplifiedRegion]) -> Vec<RegionMesh> {
    simplified.iter().map(|r| triangulate(&r.rings)).collect()
}

/// A finished build.
#[derive(Clone, Debug)]
pub struct Build {
    /// The tiles.
    pub layout: Layout,
    /// Each tile's results, in tile order.
    pub tiles: Vec<TileBuild>,
    /// The graph.
    pub graph: Graph,
    /// Tiles some stage built this time, ascending.
    pub rebuilt: Vec<usize>,
    /// Tiles every stage took from the cache, ascending.
    pub reused: Vec<usize>,
}

impl Build {
    /// The NavMesh.
    pub fn navmesh(&self) -> &NavMesh {
        &self.graph.navmesh
    }
}

fn get<'c, T: Artifact>(
    done: &'c [(&'static str, Arc<dyn Artifact>)],
    id: &str,
) -> Result<&'c T, StageError> {
    let a = done
        .iter()
        .find(|(s, _)| *s == id)
        .ok_or_else(|| StageError::failed(format!("stage '{id}' has not run")))?;
    let any: &dyn std::any::Any = a.1.as_ref();
    any.downcast_ref::<T>().ok_or_else(|| {
        StageError::failed(format!("stage '{id}' produced an unexpected artifact type"))
    })
}

/// Builds `level` with `params` by running every stage of
/// [`crate::pipeline()`] in order; tiles are reused from the process-wide
/// cache unless the parameter `reuse_tiles` is off.
pub fn build(level: &Level, params: &ParamValues) -> Result<Build, StageError> {
    Settings::from_params(params)?;
    let pipeline = crate::pipeline();
    let mut done: Vec<(&'static str, Arc<dyn Artifact>)> = Vec::new();
    for stage in &pipeline.stages {
        let ctx = StageContext::new(level, params, done.clone());
        let a = (stage.run)(&ctx)?;
        done.push((stage.info.id, a));
    }
    let t = get::<TilesArtifact>(&done, "tiles")?;
    let v = get::<VoxelArtifact>(&done, "voxelize")?;
    let c = get::<CompactArtifact>(&done, "compact")?;
    let f = get::<FlagArtifact>(&done, "flag")?;
    let pa = get::<PartitionArtifact>(&done, "partition")?;
    let r = get::<RegionArtifact>(&done, "regions")?;
    let s = get::<SimplifyArtifact>(&done, "simplify")?;
    let m = get::<TriangulateArtifact>(&done, "triangulate")?;
    let pm = get::<PolyMeshArtifact>(&done, "polymesh")?;
    let dt = get::<DetailArtifact>(&done, "detail")?;
    let g = get::<GraphArtifact>(&done, "graph")?;
    let tiles = (0..t.layout.tiles.len())
        .map(|i| TileBuild {
            heightfield: v.tiles[i].clone(),
            compact: c.tiles[i].clone(),
            flags: f.tiles[i].clone(),
            partitions: pa.tiles[i].clone(),
            regions: r.tiles[i].clone(),
            simplified: s.tiles[i].clone(),
            meshes: m.tiles[i].clone(),
            polys: pm.tiles[i].clone(),
            detail: dt.tiles[i].clone(),
        })
        .collect();
    let mut fresh = vec![false; t.layout.tiles.len()];
    for reuse in [
        &v.reuse, &c.reuse, &f.reuse, &pa.reuse, &r.reuse, &s.reuse, &m.reuse, &pm.reuse, &dt.reuse,
    ] {
        for &i in &reuse.rebuilt {
            fresh[i] = true;
        }
    }
    let (rebuilt, reused) = (0..fresh.len()).partition(|&i| fresh[i]);
    Ok(Build {
        layout: t.layout.clone(),
        tiles,
        graph: g.graph.clone(),
        rebuilt,
        reused,
    })
}
