//! A whole build outside the `Runner`: [`build()`] runs the pipeline's own
//! stage functions in order (so it shares their tile cache, the local
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
use crate::triangulate::{RegionMesh, Triangulator};

/// Everything one tile produced, stage by stage (shared with the cache).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileBuild {
    /// Stage `voxelize`.
    pub heightfield: Arc<Heightfield>,
    /// Stage `compact`: passable spans, span neighbours and areas.
    pub compact: Arc<CompactTile>,
    /// Stage `flag`, one entry per pass.
    pub flags: Arc<Vec<PassFlags>>,
    /// Stage `partition`, one entry per pass.
    pub partitions: Arc<Vec<PassPartition>>,
    /// Stage `regions`.
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
    // Without two areas no portal is between two; a region's run of portal
    // edges to one label is looked up once.
    let one_area = regions.iter().all(|r| r.area == regions[0].area);
    for r in regions.iter().filter(|_| !one_area) {
        let mut last = None;
        for class in r.rings.iter().flat_map(|ring| &ring.class) {
            if let EdgeClass::Portal(l) = *class
                && last.replace(l) != Some(l)
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
    let mut t = Triangulator::default();
    simplified.iter().map(|r| t.triangulate(&r.rings)).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contour::{Region, Ring};
    use crate::settings::specs;
    use navscope_core::{ParamValues, Stance};

    /// A region of label `label` and area `area` with one ring.
    fn region(label: u32, area: u8, pts: &[[i32; 2]], class: &[EdgeClass]) -> Region {
        Region {
            pass: 0,
            label,
            stance: Stance::Stand,
            spans: 0,
            border_spans: 0,
            rings: vec![Ring {
                pts: pts.to_vec(),
                h: vec![0.0; pts.len()],
                class: class.to_vec(),
            }],
            water: None,
            area,
        }
    }

    /// Region 1's simplified outline when its stepped portal to region 2
    /// lies between areas `a1` and `a2`.
    fn portal_outline(a1: u8, a2: u8) -> Vec<[i32; 2]> {
        let (wall, portal) = (EdgeClass::Obstacle, EdgeClass::Portal(2));
        let one = region(
            1,
            a1,
            &[[0, 0], [3, 0], [3, 1], [2, 1], [2, 2], [0, 2]],
            &[wall, portal, portal, portal, wall, wall],
        );
        let two = region(2, a2, &[[10, 0], [11, 0], [11, 1], [10, 1]], &[wall; 4]);
        let grid = Grid {
            origin: glam::DVec3::ZERO,
            cs: 1.0,
            ch: 0.1,
            width: 20,
            depth: 20,
        };
        let s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
        simplify_tile(&[one, two], &grid, &s)[0].rings[0]
            .pts
            .clone()
    }

    #[test]
    fn a_portal_between_two_areas_stays_exact() {
        let steps = |pts: &[[i32; 2]]| pts.contains(&[3, 1]) && pts.contains(&[2, 1]);
        assert!(steps(&portal_outline(0, 1)), "the portal's steps kept");
        assert!(steps(&portal_outline(1, 0)), "either way");
        let one = portal_outline(1, 1);
        assert!(!steps(&one), "one area: the portal straight, {one:?}");
        assert!(one.contains(&[3, 0]) && one.contains(&[2, 2]));
    }
}
