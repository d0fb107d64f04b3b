//! The per-tile build and stage 9, local rebuild: a [`Builder`] keeps the
//! result of every tile of its last build in a [`TileCache`] keyed by
//! [`TileKey`] = (tile bounds, hash of the parameters, hash of the
//! triangles and water volumes the padded tile reads). When part of the mesh
//! or a parameter changes, only tiles whose key changed are rebuilt; the
//! others are reused, and the graph is stitched from all of them. Because a
//! tile's result depends on nothing but its key, the stitched mesh is the
//! one a full rebuild gives.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use navscope_core::level::MeshLevel;
use navscope_core::{NavMesh, ParamValues, StageError};
use rayon::prelude::*;
use serde::Serialize;

use crate::contour::{Region, regions};
use crate::flags::{PassFlags, flag_tile};
use crate::graph::{Graph, build_graph};
use crate::heightfield::{Heightfield, voxelize};
use crate::settings::Settings;
use crate::simplify::{SimplifiedRegion, simplify_region};
use crate::tiles::{Grid, Layout, Tile, TileRect, layout};
use crate::triangulate::{RegionMesh, triangulate};

/// Everything one tile produced, stage by stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileBuild {
    /// Stage 2.
    pub heightfield: Heightfield,
    /// Stages 3 and 7, one entry per pass.
    pub flags: Vec<PassFlags>,
    /// Stage 4.
    pub regions: Vec<Region>,
    /// Stage 5, one per region.
    pub simplified: Vec<SimplifiedRegion>,
    /// Stage 6, one per region.
    pub meshes: Vec<RegionMesh>,
}

/// Simplifies every region of a tile.
pub fn simplify_tile(regions: &[Region], grid: &Grid, s: &Settings) -> Vec<SimplifiedRegion> {
    regions
        .iter()
        .map(|r| simplify_region(r, s.max_error / grid.cs, s.max_edge_len / grid.cs))
        .collect()
}

/// Triangulates every simplified region of a tile.
pub fn triangulate_tile(simplified: &[SimplifiedRegion]) -> Vec<RegionMesh> {
    simplified.iter().map(|r| triangulate(&r.rings)).collect()
}

/// Runs stages 2 to 6 on one tile.
pub fn build_tile(
    level: &MeshLevel,
    tile: &Tile,
    grid: &Grid,
    s: &Settings,
) -> Result<TileBuild, StageError> {
    let heightfield = voxelize(&level.mesh, tile, grid, s.water_level)?;
    let flags = flag_tile(&heightfield, grid, &s.passes);
    let regions = regions(&heightfield, grid, &flags);
    let simplified = simplify_tile(&regions, grid, s);
    let meshes = triangulate_tile(&simplified);
    Ok(TileBuild {
        heightfield,
        flags,
        regions,
        simplified,
        meshes,
    })
}

/// What a tile's result depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TileKey {
    /// The grid origin's bits (the tile's world position).
    pub origin: [u64; 3],
    /// The tile's cells.
    pub rect: TileRect,
    /// Hash of every setting.
    pub params: u64,
    /// Hash of the triangles and water volumes the padded tile reads.
    pub geometry: u64,
}

/// Hash of the settings (their debug text, which lists every field).
pub fn settings_hash(s: &Settings) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{s:?}").hash(&mut h);
    h.finish()
}

/// The key of one tile.
pub fn tile_key(layout: &Layout, tile: &Tile, params_hash: u64) -> TileKey {
    let o = layout.grid.origin;
    TileKey {
        origin: [o.x.to_bits(), o.y.to_bits(), o.z.to_bits()],
        rect: tile.rect,
        params: params_hash,
        geometry: tile.geometry_hash,
    }
}

/// The tiles of the last build, by key.
#[derive(Clone, Debug, Default)]
pub struct TileCache {
    map: HashMap<TileKey, Arc<TileBuild>>,
}

impl TileCache {
    /// Number of cached tiles.
    pub fn len(&self) -> usize {
        self.map.len()
    }
    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// A finished build.
#[derive(Clone, Debug)]
pub struct Build {
    /// The tiles.
    pub layout: Layout,
    /// Each tile's result, in tile order.
    pub tiles: Vec<Arc<TileBuild>>,
    /// The graph.
    pub graph: Graph,
    /// Tiles built this time.
    pub rebuilt: Vec<usize>,
    /// Tiles taken from the cache.
    pub reused: Vec<usize>,
}

impl Build {
    /// The NavMesh.
    pub fn navmesh(&self) -> &NavMesh {
        &self.graph.navmesh
    }
}

/// Builds navmeshes, rebuilding only the tiles whose inputs changed since
/// its previous build.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    cache: TileCache,
}

impl Builder {
    /// A builder with an empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The cache (the tiles of the last build).
    pub fn cache(&self) -> &TileCache {
        &self.cache
    }

    /// Builds `level` with `params`; tiles in the cache are reused. The
    /// cache then holds exactly this build's tiles, so memory stays bounded.
    pub fn build(&mut self, level: &MeshLevel, params: &ParamValues) -> Result<Build, StageError> {
        let s = Settings::from_params(params)?;
        let lay = layout(&level.mesh, &level.water, &s)?;
        let ph = settings_hash(&s);
        let keys: Vec<TileKey> = lay.tiles.iter().map(|t| tile_key(&lay, t, ph)).collect();
        let results: Vec<Result<(Arc<TileBuild>, bool), StageError>> = lay
            .tiles
            .par_iter()
            .zip(keys.par_iter())
            .map(|(t, k)| match self.cache.map.get(k) {
                Some(b) => Ok((b.clone(), false)),
                None => build_tile(level, t, &lay.grid, &s).map(|b| (Arc::new(b), true)),
            })
            .collect();
        let mut tiles = Vec::with_capacity(results.len());
        let (mut rebuilt, mut reused) = (Vec::new(), Vec::new());
        for (i, r) in results.into_iter().enumerate() {
            let (b, fresh) = r?;
            if fresh {
                rebuilt.push(i)
            } else {
                reused.push(i)
            }
            tiles.push(b);
        }
        self.cache.map = keys.iter().copied().zip(tiles.iter().cloned()).collect();
        let parts: Vec<(&[Region], &[RegionMesh])> = tiles
            .iter()
            .map(|t| (t.regions.as_slice(), t.meshes.as_slice()))
            .collect();
        let graph = build_graph(&lay.grid, &s, &parts);
        Ok(Build {
            layout: lay,
            tiles,
            graph,
            rebuilt,
            reused,
        })
    }
}
