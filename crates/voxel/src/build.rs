//! A whole build outside the `Runner`: [`build()`] runs the pipeline's own
//! stage functions in order (so it shares their tile cache, the local
//! rebuild, see [`crate::tile_cache`]) and hands back every tile's results
//! with the graph, for tests, benchmarks and tools that want the data rather
//! than the drawings.

use std::sync::Arc;

use navscope_core::level::Level;
use navscope_core::{Artifact, NavMesh, ParamValues, StageContext, StageError};
use serde::Serialize;

use crate::compact::CompactTile;
use crate::contour::Region;
use crate::detail::RegionDetail;
use crate::graph::Graph;
use crate::heightfield::Heightfield;
use crate::partition::PassPartition;
use crate::pass_flags::PassFlags;
use crate::polymesh::RegionPolys;
use crate::settings::Settings;
use crate::simplify::SimplifiedRegion;
use crate::stages::{
    CompactArtifact, ContourArtifact, DetailArtifact, FlagArtifact, GraphArtifact,
    PartitionArtifact, PolyMeshArtifact, SimplifyArtifact, TilesArtifact, TriangulateArtifact,
    VoxelArtifact,
};
use crate::tiles::Layout;
use crate::triangulate::RegionMesh;

/// Everything one tile produced, stage by stage (shared with the cache).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileBuild {
    /// Stage `voxelize`.
    pub heightfield: Arc<Heightfield>,
    /// Stage `compact`: passable spans, span neighbours and areas.
    pub compact: Arc<CompactTile>,
    /// Stage `flag`, one entry per pass.
    pub flags: Arc<Vec<PassFlags>>,
    /// Stage `regions`, one entry per pass.
    pub partitions: Arc<Vec<PassPartition>>,
    /// Stage `contours`.
    pub regions: Arc<Vec<Region>>,
    /// Stage `simplify`, one per region.
    pub simplified: Arc<Vec<SimplifiedRegion>>,
    /// Stage `triangulate`, one per region.
    pub meshes: Arc<Vec<RegionMesh>>,
    /// Stage `polymesh`, one per region.
    pub polys: Arc<Vec<RegionPolys>>,
    /// Stage `detail`, one per region.
    pub detail: Arc<Vec<RegionDetail>>,
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
    let pa = get::<PartitionArtifact>(&done, "regions")?;
    let r = get::<ContourArtifact>(&done, "contours")?;
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
