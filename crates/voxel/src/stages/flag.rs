//! The `flag` stage: every pass's flags, drawn as runs of passes.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use navscope_core::draw::SubStep;
use navscope_core::navmesh::Stance;
use navscope_core::{Artifact, Primitive, StageContext, StageError};
use serde::Serialize;

use crate::flags::flag_tile;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::pass_flags::{BORDER, NON_WALKABLE, PassFlags, WALKABLE};
use crate::tile_cache::{TileReuse, TileStage, map_tiles};

use super::common::*;
use super::compact::*;
use super::voxelize::*;

/// Stage `flag`: every pass's flags on every tile.
#[derive(Debug, Serialize)]
pub struct FlagArtifact {
    /// The grid.
    pub grid: Grid,
    /// Per tile, per pass.
    pub tiles: Vec<Arc<Vec<PassFlags>>>,
    /// Tiles built and reused.
    pub reuse: TileReuse,
    #[serde(skip)]
    heightfields: Vec<Arc<Heightfield>>,
}

impl FlagArtifact {
    pub(super) fn heightfields(&self) -> &[Arc<Heightfield>] {
        &self.heightfields
    }

    /// Core-span counts of (walkable, border, non-walkable) for pass `k`.
    pub fn pass_counts(&self, k: usize) -> [u64; 3] {
        let mut c = [0u64; 3];
        for (hf, passes) in self.heightfields().iter().zip(&self.tiles) {
            let Some(pf) = passes.get(k) else { continue };
            for col in hf.core_columns() {
                for s in hf.range(col) {
                    match pf.flags[s] {
                        WALKABLE => c[0] += 1,
                        BORDER => c[1] += 1,
                        NON_WALKABLE => c[2] += 1,
                        _ => {}
                    }
                }
            }
        }
        c
    }

    pub(super) fn pass_names(&self) -> Vec<&'static str> {
        self.tiles
            .first()
            .map(|t| t.iter().map(|p| p.pass.stance.name()).collect())
            .unwrap_or_default()
    }
}

impl Artifact for FlagArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (k, name) in self.pass_names().into_iter().enumerate() {
            let [w, b, n] = self.pass_counts(k);
            m.insert(format!("{name} walkable"), w);
            m.insert(format!("{name} border"), b);
            m.insert(format!("{name} non-walkable"), n);
        }
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.grid;
        let mut p = Prims::new();
        for (ti, (hf, passes)) in self.heightfields().iter().zip(&self.tiles).enumerate() {
            core_columns(
                hf,
                g,
                |s| {
                    // The first free voxel over the floor: the one the
                    // agent stands in, drawn on top of the level's surface.
                    let y = g.y(hf.spans[s].floor) as f32;
                    passes
                        .iter()
                        .any(|pf| pf.flags[s] >= NON_WALKABLE)
                        .then_some((y, y + g.ch as f32))
                },
                |s, shape| {
                    let flags = passes.iter().map(|pf| (pf.flags[s], pf.pass.stance));
                    for (kind, first, last) in flag_runs(flags) {
                        p.push(Primitive::new(kind, ti as u32, shape.clone()).during(first, last));
                    }
                },
            );
        }
        p.finish(top(g))
    }
    fn substeps(&self) -> Vec<SubStep> {
        self.pass_names()
            .into_iter()
            .enumerate()
            .map(|(k, name)| {
                let [w, b, n] = self.pass_counts(k);
                let detail = if k == 0 {
                    format!("Every open span flagged with the {name} table: {w} walkable, {b} border, {n} non-walkable. The non-walkable ones are the next pass's pool.")
                } else {
                    format!("The spans earlier passes left non-walkable, flags discarded, flagged again with the {name} table: {w} walkable, {b} border, {n} non-walkable (§32.3.1).")
                };
                // The spans this pass claims (walkable or border): an
                // earlier pass's are `CLAIMED` in this one's flags.
                let pass = |ti: usize| self.tiles[ti].get(k);
                let highlights = pass_outline(
                    &self.grid,
                    self.heightfields(),
                    k,
                    |ti| pass(ti).map_or(&[][..], |p| p.links.as_slice()),
                    |ti, s| pass(ti).is_some_and(|p| p.walkable(s)),
                );
                pass_step(k, name, detail, highlights)
            })
            .collect()
    }
}

pub(super) fn run_flag(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Flag)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let c = ctx.artifact::<CompactArtifact>("compact")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Flag, &keys, &span_costs(ctx)?, |i| {
        Ok(flag_tile(
            &v.tiles[i],
            &v.grid,
            &s.passes,
            &c.tiles[i],
            s.bands,
            s.erode_ledges,
        ))
    })?;
    Ok(Arc::new(FlagArtifact {
        grid: v.grid,
        tiles,
        reuse,
        heightfields: v.tiles.clone(),
    }))
}

/// The kind of a voxel an earlier pass claimed, `voxel/claimed/{stance}`,
/// as a fixed string: the flag stage draws one per claimed voxel in every
/// later pass, and a string made for each was a heap allocation each.
pub(crate) fn claimed_kind(stance: Stance) -> &'static str {
    match stance {
        Stance::Stand => "voxel/claimed/stand",
        Stance::Crouch => "voxel/claimed/crouch",
        Stance::Prone => "voxel/claimed/prone",
        Stance::Swim => "voxel/claimed/swim",
        Stance::Sidestep => "voxel/claimed/sidestep",
    }
}

/// What the flag stage draws of one span, given its flag and its pass's
/// stance in each pass in turn: `(kind, first sub-step, last sub-step)`.
/// Each pass is one sub-step. A pass that flags the span walkable or
/// border draws it so in its own sub-step, and (unless it is the last
/// pass) in its stance's claimed colour from the next sub-step on: the
/// coverage growing. The passes that leave it non-walkable draw it
/// non-walkable, as one run over their sub-steps: a span no pass claims
/// is one primitive over all of them, not one per pass (on `dungeon.obj`
/// at 0.1 m cells, 297,000 spans no pass claims were drawn five times).
pub(super) fn flag_runs(
    flags: impl ExactSizeIterator<Item = (u8, Stance)>,
) -> impl Iterator<Item = (&'static str, u32, u32)> {
    const KINDS: [&str; 3] = ["voxel/non-walkable", "voxel/walkable", "voxel/border"];
    let passes = flags.len();
    let mut out = Vec::new();
    let mut run: Option<u32> = None;
    for (k, (flag, stance)) in flags.enumerate() {
        let k = k as u32;
        let non_walkable = flag == NON_WALKABLE;
        if let Some(first) = run.filter(|_| !non_walkable) {
            out.push((KINDS[0], first, k - 1));
            run = None;
        }
        if non_walkable {
            run.get_or_insert(k);
        } else if flag > NON_WALKABLE {
            out.push((KINDS[(flag - NON_WALKABLE) as usize], k, k));
            if (k as usize) + 1 < passes {
                out.push((claimed_kind(stance), k + 1, u32::MAX));
            }
        }
    }
    if let Some(first) = run {
        out.push((KINDS[0], first, passes as u32 - 1));
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass_flags::{BORDER, NON_WALKABLE, WALKABLE};
    use crate::reference::reference_flag_prims;
    use navscope_core::navmesh::Stance;

    /// The kinds shown at sub-step `t`, sorted.
    fn shown_at(prims: &[(&'static str, u32, u32)], t: u32) -> Vec<&'static str> {
        let mut v: Vec<_> = prims
            .iter()
            .filter(|(_, a, b)| *a <= t && t <= *b)
            .map(|p| p.0)
            .collect();
        v.sort_unstable();
        v
    }

    const STANCES: [Stance; 5] = [
        Stance::Stand,
        Stance::Crouch,
        Stance::Prone,
        Stance::Swim,
        Stance::Sidestep,
    ];

    proptest::proptest! {
        /// Runs show at every sub-step exactly what one primitive per pass
        /// shows, with at most three primitives a span.
        #[test]
        fn flag_runs_show_what_one_primitive_per_pass_shows(
            claim in proptest::option::of(0usize..5),
            passes in 1usize..=5,
            border in proptest::bool::ANY,
            pooled in proptest::bool::ANY,
        ) {
            // A span in the first pass's pool (or not, when `pooled` is
            // false: no flag at all), non-walkable until a pass claims it,
            // then claimed (flag 0) in the passes after.
            let flags: Vec<(u8, Stance)> = (0..passes)
                .map(|k| {
                    let flag = match claim {
                        _ if !pooled => crate::pass_flags::CLAIMED,
                        Some(c) if k == c => if border { BORDER } else { WALKABLE },
                        Some(c) if k > c => crate::pass_flags::CLAIMED,
                        _ => NON_WALKABLE,
                    };
                    (flag, STANCES[k])
                })
                .collect();
            let old = reference_flag_prims(&flags);
            let new: Vec<_> = flag_runs(flags.iter().copied()).collect();
            for t in 0..passes as u32 + 2 {
                proptest::prop_assert_eq!(shown_at(&old, t), shown_at(&new, t), "sub-step {}", t);
            }
            proptest::prop_assert!(new.len() <= 3 && new.len() <= old.len());
        }
    }

    #[test]
    fn a_span_no_pass_claims_is_one_primitive_over_every_pass() {
        let flags = STANCES.map(|s| (NON_WALKABLE, s));
        let runs: Vec<_> = flag_runs(flags.into_iter()).collect();
        assert_eq!(runs, vec![("voxel/non-walkable", 0, 4)]);
        assert_eq!(flag_runs(std::iter::empty::<(u8, Stance)>()).count(), 0);
        // Claimed by the last pass: no claimed colour after it.
        let mut last = flags;
        last[4].0 = WALKABLE;
        let runs: Vec<_> = flag_runs(last.into_iter()).collect();
        assert_eq!(
            runs,
            vec![("voxel/non-walkable", 0, 3), ("voxel/walkable", 4, 4)]
        );
    }

    #[test]
    fn a_claimed_kind_names_its_stance() {
        for s in Stance::ALL {
            assert_eq!(claimed_kind(s), format!("voxel/claimed/{}", s.name()));
        }
    }
}
