//! Local rebuild: a process-wide cache of per-tile
//! stage results, so that the pipeline's own stages (the ones navscope-core's
//! `Runner` calls, and [`crate::build()`]) rebuild only the tiles whose
//! inputs changed.
//!
//! Each per-tile stage (`voxelize`, `compact`, `flag`, `regions`,
//! `contours`, `simplify`, `triangulate`, `polymesh`, `detail`) looks every tile up by the stage's id and a [`TileKey`]:
//! the grid origin, the tile's cells, the hash of the triangles and water
//! volumes the padded tile reads, and the hash of every parameter that stage
//! *and the stages before it* read ([`params_hash`]). A tile's result at a
//! stage depends on nothing else, so a hit is the result a rebuild would
//! give, and a hot-reloaded level (a new `Level` value, a new `Runner`)
//! reuses every tile the edit did not touch.
//!
//! Memory is bounded: entries carry an estimate of their size
//! ([`Weigh`]) and the least recently used ones are dropped when the total
//! passes the budget ([`CACHE_BUDGET_BYTES`] for the global cache), so the
//! cache holds the tiles of the last few builds, never more than the budget.
//! The parameter `reuse_tiles` turns the cache off for a run (nothing is
//! looked up or stored), e.g. to time cold builds.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use navscope_core::StageError;
use serde::Serialize;

use crate::compact::CompactTile;
use crate::contour::Region;
use crate::detail::RegionDetail;
use crate::grid::TileRect;
use crate::heightfield::{Heightfield, Span};
use crate::partition::PassPartition;
use crate::pass_flags::PassFlags;
use crate::polymesh::RegionPolys;
use crate::schedule::largest_first;
use crate::settings::Settings;
use crate::simplify::SimplifiedRegion;
use crate::tiles::Layout;
use crate::triangulate::RegionMesh;

/// Budget of the process-wide cache: 256 MiB, the tiles of several builds
/// of the Recast demo meshes at 0.1 m cells (a tile of 256 x 256 columns
/// with every stage's result takes a few MiB).
pub const CACHE_BUDGET_BYTES: usize = 256 << 20;

/// The per-tile stages whose results are cached, in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum TileStage {
    /// Spans.
    Voxelize,
    /// Compact heightfield and areas.
    Compact,
    /// Flags of every pass.
    Flag,
    /// Distance field and regions.
    Regions,
    /// Outlines (Recast's contours).
    Contours,
    /// Simplified outlines.
    Simplify,
    /// Triangles.
    Triangulate,
    /// Convex polygons.
    PolyMesh,
    /// Height detail.
    Detail,
}

impl TileStage {
    /// The stage id.
    pub fn id(self) -> &'static str {
        match self {
            TileStage::Voxelize => "voxelize",
            TileStage::Compact => "compact",
            TileStage::Flag => "flag",
            TileStage::Regions => "regions",
            TileStage::Contours => "contours",
            TileStage::Simplify => "simplify",
            TileStage::Triangulate => "triangulate",
            TileStage::PolyMesh => "polymesh",
            TileStage::Detail => "detail",
        }
    }
}

/// What a tile's result at one stage depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TileKey {
    /// The grid origin's bits (the tile's world position).
    pub origin: [u64; 3],
    /// The tile's cells and border.
    pub rect: TileRect,
    /// Hash of the parameters the stage and every earlier stage read.
    pub params: u64,
    /// Hash of the triangles and water volumes the padded tile reads.
    pub geometry: u64,
}

/// Hash of the settings `stage` and the stages before it read: the grid
/// and the water level (voxelize), the filters and the passes with their
/// agent tables (compact, flag, and regions, which reads the flags), the
/// ledge rule and the band rule (flag), the simplification bounds (simplify,
/// triangulate). The tile size and the radii (the border) are in the tile's
/// cells, the geometry in its own hash.
pub fn params_hash(s: &Settings, stage: TileStage) -> u64 {
    let mut h = DefaultHasher::new();
    stage.hash(&mut h);
    [s.cell_size, s.cell_height, s.max_radius]
        .map(f64::to_bits)
        .hash(&mut h);
    s.water_level.map(f64::to_bits).hash(&mut h);
    if stage >= TileStage::Compact {
        s.filters.hash(&mut h);
        format!("{:?}", s.passes).hash(&mut h);
    }
    if stage >= TileStage::Flag {
        s.erode_ledges.hash(&mut h);
        format!("{:?}", s.bands).hash(&mut h);
    }
    if stage >= TileStage::Regions {
        s.partition.hash(&mut h);
    }
    if stage >= TileStage::Simplify {
        [s.max_error, s.max_edge_len].map(f64::to_bits).hash(&mut h);
    }
    if stage >= TileStage::PolyMesh {
        s.max_verts_per_poly.hash(&mut h);
    }
    if stage >= TileStage::Detail {
        [s.detail.sample_dist, s.detail.max_error]
            .map(f64::to_bits)
            .hash(&mut h);
    }
    h.finish()
}

/// The keys of every tile of `layout` at `stage`, in tile order.
pub fn tile_keys(layout: &Layout, s: &Settings, stage: TileStage) -> Vec<TileKey> {
    let o = layout.grid.origin;
    let params = params_hash(s, stage);
    layout
        .tiles
        .iter()
        .map(|tile| TileKey {
            origin: [o.x.to_bits(), o.y.to_bits(), o.z.to_bits()],
            rect: tile.rect,
            params,
            geometry: tile.geometry_hash,
        })
        .collect()
}

/// An estimate of the heap memory a cached value holds, for the budget.
pub trait Weigh {
    /// Bytes, roughly.
    fn bytes(&self) -> usize;
}

fn vec_bytes<T>(v: &[T]) -> usize {
    std::mem::size_of_val(v)
}

impl Weigh for Heightfield {
    fn bytes(&self) -> usize {
        vec_bytes(&self.cols) + self.spans.len() * std::mem::size_of::<Span>()
    }
}

impl Weigh for CompactTile {
    fn bytes(&self) -> usize {
        self.area.len()
            + self
                .passes
                .iter()
                .map(|p| p.passable.len() + vec_bytes(&p.links))
                .sum::<usize>()
    }
}

impl Weigh for Vec<PassFlags> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|p| p.flags.len() + vec_bytes(&p.links))
            .sum()
    }
}

impl Weigh for Vec<PassPartition> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|p| vec_bytes(&p.dist) + vec_bytes(&p.region) + vec_bytes(&p.sizes))
            .sum()
    }
}

fn rings_bytes(rings: &[crate::contour::Ring]) -> usize {
    rings
        .iter()
        .map(|r| vec_bytes(&r.pts) + vec_bytes(&r.h) + vec_bytes(&r.class))
        .sum()
}

impl Weigh for Vec<Region> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|r| std::mem::size_of::<Region>() + rings_bytes(&r.rings))
            .sum()
    }
}

impl Weigh for Vec<SimplifiedRegion> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|r| std::mem::size_of::<SimplifiedRegion>() + rings_bytes(&r.rings))
            .sum()
    }
}

impl Weigh for Vec<RegionMesh> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|m| {
                std::mem::size_of::<RegionMesh>()
                    + vec_bytes(&m.verts)
                    + vec_bytes(&m.heights)
                    + vec_bytes(&m.tris)
            })
            .sum()
    }
}

impl Weigh for Vec<RegionPolys> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|r| {
                std::mem::size_of::<RegionPolys>()
                    + r.polys.iter().map(|p| vec_bytes(p) + 24).sum::<usize>()
            })
            .sum()
    }
}

impl Weigh for Vec<RegionDetail> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|r| {
                std::mem::size_of::<RegionDetail>()
                    + r.polys.iter().map(|p| vec_bytes(p) + 24).sum::<usize>()
            })
            .sum()
    }
}

struct Entry {
    value: Arc<dyn Any + Send + Sync>,
    bytes: usize,
    used: u64,
}

#[derive(Default)]
struct State {
    map: HashMap<(&'static str, TileKey), Entry>,
    bytes: usize,
    clock: u64,
}

/// Per-tile stage results by (stage id, [`TileKey`]), least recently used
/// dropped first once their estimated size passes the budget.
pub struct TileCache {
    budget: usize,
    state: Mutex<State>,
}

impl std::fmt::Debug for TileCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TileCache")
            .field("budget", &self.budget)
            .field("entries", &self.len())
            .field("bytes", &self.bytes())
            .finish()
    }
}

static GLOBAL: LazyLock<TileCache> = LazyLock::new(|| TileCache::new(CACHE_BUDGET_BYTES));

impl TileCache {
    /// An empty cache holding at most `budget` bytes (estimated).
    pub fn new(budget: usize) -> Self {
        TileCache {
            budget,
            state: Mutex::new(State::default()),
        }
    }

    /// The process-wide cache the stages use.
    pub fn global() -> &'static TileCache {
        &GLOBAL
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves a consistent map (every
        // update is a single insert or remove), so a poisoned lock is usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Number of cached tile results.
    pub fn len(&self) -> usize {
        self.state().map.len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Estimated bytes held.
    pub fn bytes(&self) -> usize {
        self.state().bytes
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The result of `stage` for `key`, marked as just used; `None` when
    /// absent (or stored with another type, which a stage id rules out).
    pub fn get<T: Any + Send + Sync>(&self, stage: &'static str, key: &TileKey) -> Option<Arc<T>> {
        let mut st = self.state();
        st.clock += 1;
        let now = st.clock;
        let e = st.map.get_mut(&(stage, *key))?;
        e.used = now;
        e.value.clone().downcast::<T>().ok()
    }

    /// Stores the result of `stage` for `key`, then drops the least recently
    /// used results until the total is within the budget (a result larger
    /// than the whole budget is not kept).
    pub fn insert<T: Weigh + Any + Send + Sync>(
        &self,
        stage: &'static str,
        key: TileKey,
        value: Arc<T>,
    ) {
        let bytes = value.bytes() + std::mem::size_of::<Entry>();
        if bytes > self.budget {
            return;
        }
        let mut st = self.state();
        st.clock += 1;
        let used = st.clock;
        if let Some(old) = st.map.insert((stage, key), Entry { value, bytes, used }) {
            st.bytes -= old.bytes;
        }
        st.bytes += bytes;
        if st.bytes > self.budget {
            let mut by_age: Vec<_> = st.map.iter().map(|(k, e)| (e.used, *k)).collect();
            by_age.sort_unstable_by_key(|(used, _)| *used);
            for (_, k) in by_age {
                if st.bytes <= self.budget {
                    break;
                }
                if let Some(e) = st.map.remove(&k) {
                    st.bytes -= e.bytes;
                }
            }
        }
    }
}

/// Which tiles a stage built and which it took from the cache.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TileReuse {
    /// Tile indices built this run, ascending.
    pub rebuilt: Vec<usize>,
    /// Tile indices taken from the cache, ascending.
    pub reused: Vec<usize>,
}

impl TileReuse {
    /// Adds `tiles rebuilt` and `tiles reused` to a stage's counts.
    pub fn add_counts(&self, m: &mut BTreeMap<String, u64>) {
        m.insert("tiles rebuilt".into(), self.rebuilt.len() as u64);
        m.insert("tiles reused".into(), self.reused.len() as u64);
    }
}

/// Runs `build(i)` for every tile `i` whose result at `stage` is not in
/// `cache` under `keys[i]` (all of them when `cache` is `None`), in
/// parallel, the largest `costs[i]` first ([`crate::schedule`]), storing
/// what it built; returns the results in tile order and which tiles were
/// built. An error is the first failing tile's.
pub fn map_tiles<T, F>(
    cache: Option<&TileCache>,
    stage: TileStage,
    keys: &[TileKey],
    costs: &[u64],
    build: F,
) -> Result<(Vec<Arc<T>>, TileReuse), StageError>
where
    T: Weigh + Any + Send + Sync,
    F: Fn(usize) -> Result<T, StageError> + Sync + Send,
{
    map_missing_tiles(cache, stage, keys, |missing| {
        let costs: Vec<u64> = missing.iter().map(|&i| costs[i]).collect();
        let built = largest_first(&costs, |k| build(missing[k]));
        built.into_iter().collect()
    })
}

/// As [`map_tiles`], for a stage whose tiles share work: `build` gets the
/// indices of every tile missing from `cache` (ascending) at once and
/// returns their results in that order.
pub fn map_missing_tiles<T, F>(
    cache: Option<&TileCache>,
    stage: TileStage,
    keys: &[TileKey],
    build: F,
) -> Result<(Vec<Arc<T>>, TileReuse), StageError>
where
    T: Weigh + Any + Send + Sync,
    F: FnOnce(&[usize]) -> Result<Vec<T>, StageError>,
{
    let id = stage.id();
    let mut out: Vec<Option<Arc<T>>> = keys
        .iter()
        .map(|k| cache.and_then(|c| c.get::<T>(id, k)))
        .collect();
    let (reused, rebuilt): (Vec<usize>, Vec<usize>) =
        (0..keys.len()).partition(|&i| out[i].is_some());
    for (&i, v) in rebuilt.iter().zip(build(&rebuilt)?) {
        let v = Arc::new(v);
        if let Some(c) = cache {
            c.insert(id, keys[i], v.clone());
        }
        out[i] = Some(v);
    }
    let out = out
        .into_iter()
        .map(|v| v.expect("every tile built or reused"));
    Ok((out.collect(), TileReuse { rebuilt, reused }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Blob(usize);
    impl Weigh for Blob {
        fn bytes(&self) -> usize {
            self.0
        }
    }

    fn key(n: u64) -> TileKey {
        TileKey {
            origin: [0; 3],
            rect: TileRect {
                x0: 0,
                z0: 0,
                x1: 1,
                z1: 1,
                pad: 0,
            },
            params: n,
            geometry: 0,
        }
    }

    const E: usize = std::mem::size_of::<Entry>();

    #[test]
    fn least_recently_used_results_go_first_when_over_budget() {
        let c = TileCache::new(3 * (100 + E));
        for n in 0..3 {
            c.insert("s", key(n), Arc::new(Blob(100)));
        }
        assert_eq!(c.len(), 3);
        // Touch 0, so 1 is the oldest.
        assert!(c.get::<Blob>("s", &key(0)).is_some());
        c.insert("s", key(3), Arc::new(Blob(100)));
        assert_eq!(c.len(), 3);
        assert!(c.get::<Blob>("s", &key(1)).is_none());
        for n in [0, 2, 3] {
            assert!(c.get::<Blob>("s", &key(n)).is_some(), "{n}");
        }
        assert!(c.bytes() <= c.budget());
        // Replacing a key does not count it twice.
        c.insert("s", key(3), Arc::new(Blob(50)));
        assert_eq!(c.bytes(), 2 * (100 + E) + 50 + E);
    }

    #[test]
    fn a_result_larger_than_the_budget_is_not_kept() {
        let c = TileCache::new(1000);
        c.insert("s", key(0), Arc::new(Blob(10)));
        c.insert("s", key(1), Arc::new(Blob(5000)));
        assert!(c.get::<Blob>("s", &key(1)).is_none());
        assert!(c.get::<Blob>("s", &key(0)).is_some());
    }

    #[test]
    fn stages_and_types_are_kept_apart() {
        let c = TileCache::new(1 << 20);
        c.insert("a", key(0), Arc::new(Blob(1)));
        assert!(c.get::<Blob>("b", &key(0)).is_none());
        assert!(c.get::<Vec<Region>>("a", &key(0)).is_none());
    }

    #[test]
    fn map_tiles_builds_only_missing_tiles_and_keeps_order() {
        let c = TileCache::new(1 << 20);
        let keys: Vec<_> = (0..6).map(key).collect();
        let (v, r) = map_tiles(Some(&c), TileStage::Flag, &keys[..4], &[1; 6], |i| {
            Ok(Blob(i))
        })
        .unwrap();
        assert_eq!(r.rebuilt, [0, 1, 2, 3]);
        assert_eq!(v.iter().map(|b| b.0).collect::<Vec<_>>(), [0, 1, 2, 3]);
        let (v, r) = map_tiles(Some(&c), TileStage::Flag, &keys, &[1; 6], |i| {
            Ok(Blob(10 + i))
        })
        .unwrap();
        assert_eq!((r.rebuilt, r.reused), (vec![4, 5], vec![0, 1, 2, 3]));
        assert_eq!(
            v.iter().map(|b| b.0).collect::<Vec<_>>(),
            [0, 1, 2, 3, 14, 15]
        );
        // Without a cache everything is built.
        let (_, r) = map_tiles(None, TileStage::Flag, &keys, &[1; 6], |i| Ok(Blob(i))).unwrap();
        assert_eq!(r.rebuilt.len(), 6);
        // An error in one tile is the stage's error.
        let e = map_tiles::<Blob, _>(None, TileStage::Flag, &keys, &[1; 6], |i| {
            if i == 2 {
                Err(StageError::failed("tile 2 is bad"))
            } else {
                Ok(Blob(i))
            }
        })
        .unwrap_err();
        assert_eq!(e, StageError::failed("tile 2 is bad"));
    }

    #[test]
    fn every_parameter_group_changes_the_key_of_its_stage_and_later_ones() {
        let p = navscope_core::ParamValues::defaults(&crate::settings::specs());
        let s = Settings::from_params(&p).unwrap();
        let mut t = s.clone();
        t.max_error += 0.01;
        assert_eq!(
            params_hash(&s, TileStage::Contours),
            params_hash(&t, TileStage::Contours)
        );
        assert_ne!(
            params_hash(&s, TileStage::Simplify),
            params_hash(&t, TileStage::Simplify)
        );
        let mut t = s.clone();
        t.passes[1].agent.height += 0.1;
        assert_eq!(
            params_hash(&s, TileStage::Voxelize),
            params_hash(&t, TileStage::Voxelize)
        );
        for st in [TileStage::Flag, TileStage::Contours, TileStage::Triangulate] {
            assert_ne!(params_hash(&s, st), params_hash(&t, st));
        }
        let mut t = s.clone();
        t.water_level = Some(1.0);
        assert_ne!(
            params_hash(&s, TileStage::Voxelize),
            params_hash(&t, TileStage::Voxelize)
        );
    }
}
