//! The `flag` stage, flagging with recycled passes (§32.2.3, §32.3.1,
//! §32.4): every open span of the pool is flagged non-walkable, walkable or
//! border with one stance's agent table; the non-walkable ones, flags
//! discarded, are the pool of the next pass.
//!
//! For one pass with table (radius r, height h, maxStepHeight, maxSlopeRad,
//! minWaterDepth, maxWaterDepth):
//!
//! 1. A span is *passable* when its surface slope is at most maxSlopeRad, the
//!    free space above it is at least `h` and its water depth lies in
//!    `[minWaterDepth, maxWaterDepth]`, with Recast's low-hanging-obstacle,
//!    ledge and low-height filters as switched on ([`crate::filters`]).
//! 2. A span *connects* to a span of a side neighbour column when their
//!    floors differ by at most maxStepHeight and their open intervals share
//!    at least `h` (step height decides which neighbouring spans connect).
//! 3. Distance to an obstacle is a 12/17 chamfer transform in thirteenths of
//!    a cell (it never overestimates the Euclidean distance) run over connections on *all*
//!    spans, not only the pool: space an earlier pass claimed is free space
//!    for this one, so a later pass reaches right up to the earlier pass's
//!    border. Obstacles are non-passable spans and, one cell beyond a span,
//!    every side without a connection (a wall or a drop); with
//!    `erode_ledges` off, of the sides without a connection only the
//!    columns where the body does not fit, so a body that may overhang
//!    comes to a ledge's edge ([`crate::overhang`]).
//! 4. A pooled, passable span whose centre is at least `r` from every
//!    obstacle face is walkable, unless the band rule ([`crate::bands`])
//!    returns its connected area to the pool; walkable with a side neighbour that is not
//!    walkable in this pass (or not connected) is border; the rest of the
//!    pool is non-walkable and goes on to the next pass.

use crate::bands::{EarlierAreas, drop_bands};
use crate::chamfer::{distances, erosion_reach, threshold};
use crate::compact::CompactTile;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::{Limits, NO_LINK};
use crate::overhang;
use crate::pass_flags::{BORDER, CLAIMED, NON_WALKABLE, PassFlags, WALKABLE};
use crate::settings::{BandRule, Pass};

/// Runs every pass over one tile, in order, recycling non-walkable spans;
/// `compact` is the tile's compact heightfield (each pass's passable spans,
/// after Recast's span filters, and its span neighbours:
/// [`crate::compact`]), `bands` the rule that returns a later pass's wall
/// bands to the pool ([`crate::bands`], none: keep everything),
/// `erode_ledges` whether a ledge is an obstacle as a wall is (Recast's
/// rule) or the body may overhang it ([`crate::overhang`]).
pub fn flag_tile(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[Pass],
    compact: &CompactTile,
    bands: Option<BandRule>,
    erode_ledges: bool,
) -> Vec<PassFlags> {
    let n = hf.spans.len();
    let mut pool = vec![true; n];
    // Spans the band rule dropped from an earlier pass.
    let mut banded = vec![false; n];
    // The walkable areas of the passes done, for the band rule.
    let mut earlier = bands.map(|_| EarlierAreas::new(n));
    let mut out: Vec<PassFlags> = Vec::with_capacity(passes.len());
    for (k, (pass, cp)) in passes.iter().zip(&compact.passes).enumerate() {
        let a = pass.agent;
        let passable = &cp.passable;
        // A pass with no candidate in its pool (swim on a dry level) is done.
        if cp.links.is_empty() || !(0..n).any(|s| pool[s] && passable[s]) {
            let flags = pool
                .iter()
                .map(|&p| if p { NON_WALKABLE } else { CLAIMED })
                .collect();
            out.push(PassFlags {
                pass: *pass,
                flags,
                links: std::sync::Arc::new(Vec::new()),
            });
            continue;
        }
        let threshold = threshold(a.radius, grid.cs);
        let link = cp.links.clone();
        // A swimmer has no ledge to overhang: its spans are the floors
        // under the water and its step the water's depth, so its area is
        // eroded by Recast's rule.
        let dist = if erode_ledges || pass.stance == navscope_core::Stance::Swim {
            distances(hf, &link, passable)
        } else {
            overhang::distances(
                hf,
                &link,
                passable,
                Limits::of(pass, grid),
                erosion_reach(a.radius, grid.cs),
            )
        };
        // Without short cuts (`&`, not `&&`) over zipped slices: the
        // compiler turns it into vector code.
        let mut walk: Vec<bool> = pool
            .iter()
            .zip(passable.iter())
            .zip(&dist)
            .map(|((&p, &q), &d)| p & q & (d >= threshold))
            .collect();
        if let (Some(keep), Some(earlier)) = (bands.filter(|_| !out.is_empty()), &mut earlier) {
            // The earlier passes that claimed anything here.
            let reach = keep.distance.unwrap_or_else(|| {
                out.iter()
                    .filter(|p| p.flags.iter().any(|&f| f >= WALKABLE))
                    .map(|p| p.pass.agent.radius)
                    .fold(0.0, f64::max)
            });
            let before = walk.clone();
            drop_bands(
                hf,
                *pass,
                keep.partition,
                earlier,
                (&pool, &banded),
                &link,
                &mut walk,
                reach / grid.cs,
            );
            for s in 0..n {
                banded[s] |= before[s] && !walk[s];
            }
        }
        // A span's flag reads its own pool entry and its neighbours' walk,
        // so the pool is updated in the same walk over the spans.
        let mut flags: Vec<u8> = Vec::with_capacity(n);
        for (s, l) in link.chunks_exact(4).enumerate() {
            flags.push(if !pool[s] {
                CLAIMED
            } else if !walk[s] {
                NON_WALKABLE
            } else {
                pool[s] = false;
                if l.iter().any(|&m| m == NO_LINK || !walk[m as usize]) {
                    BORDER
                } else {
                    WALKABLE
                }
            });
        }
        out.push(PassFlags {
            pass: *pass,
            flags,
            links: link,
        });
        if let Some(earlier) = earlier.as_mut().filter(|_| k + 1 < passes.len()) {
            earlier.add(&out[k], &pool);
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::blocks::voxelize;
    use crate::chamfer::{UNIT, distances, seeds};
    use crate::compact::{AreaTable, compact_tile, compact_tile_with};
    use crate::heightfield::OPEN;
    use crate::links::{Limits, links, near_columns};
    use crate::pass_flags::{BORDER, CLAIMED, NON_WALKABLE, PassFlags, WALKABLE};
    use crate::reference::{reference_chamfer, reference_links, reference_near_columns};
    use crate::settings::{Settings, specs};
    use crate::tiles::layout;
    use navscope_core::geom::TriMesh;
    use navscope_core::{ParamValues, Stance};

    /// The area table of a level without volumes.
    pub(crate) fn no_areas() -> AreaTable {
        AreaTable::new(&[], &[]).unwrap()
    }

    pub(crate) fn build(m: &TriMesh, passes: &str) -> (Grid, Heightfield, Vec<PassFlags>) {
        build_with(m, passes, true)
    }

    /// [`build`] with the wall-band rule on or off.
    pub(crate) fn build_with(
        m: &TriMesh,
        passes: &str,
        bands: bool,
    ) -> (Grid, Heightfield, Vec<PassFlags>) {
        build_adjusted(m, passes, |s| {
            if !bands {
                s.bands = None;
            }
        })
    }

    /// One tile of `m` flagged with `passes`, the default settings changed
    /// by `adjust`.
    fn build_adjusted(
        m: &TriMesh,
        passes: &str,
        adjust: impl FnOnce(&mut Settings),
    ) -> (Grid, Heightfield, Vec<PassFlags>) {
        let sp = specs();
        let mut v = ParamValues::defaults(&sp);
        v.set(
            &sp,
            "passes",
            navscope_core::ParamValue::Text(passes.into()),
        )
        .unwrap();
        let mut s = Settings::from_params(&v).unwrap();
        s.tile_size = 0;
        adjust(&mut s);
        let l = layout(m, &[], &s).unwrap();
        let hf = voxelize(m, &l, &[0], None).unwrap().remove(0);
        let c = compact_tile(&hf, &l.grid, &s.passes, s.filters, &[], &no_areas());
        let f = flag_tile(&hf, &l.grid, &s.passes, &c, s.bands, s.erode_ledges);
        (l.grid, hf, f)
    }

    fn flag_at(hf: &Heightfield, f: &PassFlags, x: i32, z: i32) -> u8 {
        f.flags[hf.range(hf.col(x, z).unwrap()).last().unwrap()]
    }

    #[test]
    fn erosion_follows_the_radius_and_borders_ring_the_walkable_area() {
        // A 4 x 4 m platform in the void: stand radius 0.4 m = 4 cells + half a cell.
        let m = crate::heightfield::tests::boxes(&[([0., -0.1, 0.], [4., 0., 4.])]);
        let (_, hf, f) = build(&m, "stand");
        let row: Vec<u8> = (0..40).map(|x| flag_at(&hf, &f[0], x, 20)).collect();
        assert_eq!(&row[..4], &[NON_WALKABLE; 4]);
        assert_eq!(row[4], BORDER);
        assert_eq!(row[5], WALKABLE);
        assert_eq!(row[35], BORDER);
        assert_eq!(&row[36..], &[NON_WALKABLE; 4]);
    }

    /// [`build`] with `erode_ledges` as given.
    fn build_ledges(m: &TriMesh, erode_ledges: bool) -> (Heightfield, Vec<PassFlags>) {
        let (_, hf, f) = build_adjusted(m, "stand", |s| s.erode_ledges = erode_ledges);
        (hf, f)
    }

    /// Without ledge erosion a platform in the void is walkable to its
    /// edges (the body overhangs them), a wall standing on it is still
    /// kept a radius away, and so is a wall across a gap narrower than the
    /// radius beyond the platform's edge.
    #[test]
    fn without_ledge_erosion_the_area_reaches_ledges_but_not_walls() {
        // Stand radius 0.4 m = 4 cells; the platform x 0 to 4 m; a wall on
        // it at x 3.5 to 4 m for z under 2 m; beyond the gap x 4 to 4.2 m,
        // a wall x 4.2 to 5 m for z above 2 m.
        let m = crate::heightfield::tests::boxes(&[
            ([0., -0.1, 0.], [4., 0., 4.]),
            ([3.5, 0., 0.], [4., 3., 2.]),
            ([4.2, -1., 2.], [5., 3., 4.]),
        ]);
        let (hf, f) = build_ledges(&m, false);
        let walk = |x: i32, z: i32| flag_at(&hf, &f[0], x, z) >= WALKABLE;
        // The west ledge: walkable to its outermost cell, in both rows.
        assert!(walk(0, 10) && walk(0, 30) && walk(1, 30));
        // The wall on the platform: its radius (4 cells) is kept.
        assert!(!walk(31, 10) && walk(30, 10));
        // The wall across the 0.2 m gap: 0.2 m beyond the edge, so the
        // cells within 0.2 m of the edge are too near it.
        assert!(!walk(39, 30) && !walk(38, 30) && walk(37, 30));
        // Recast's rule erodes the ledge as a wall.
        let (hf, f) = build_ledges(&m, true);
        assert!(flag_at(&hf, &f[0], 3, 30) == NON_WALKABLE);
        assert!(flag_at(&hf, &f[0], 4, 30) >= WALKABLE);
    }

    #[test]
    fn recycled_passes_never_reflag_claimed_space_and_sidestep_takes_the_band() {
        let m = crate::heightfield::tests::boxes(&[([0., -0.1, 0.], [4., 0., 4.])]);
        let (_, hf, f) = build_with(&m, "stand,sidestep", false);
        assert_eq!(f[1].pass.stance, Stance::Sidestep);
        let row: Vec<u8> = (0..40).map(|x| flag_at(&hf, &f[1], x, 20)).collect();
        // Sidestep (r = 0.2 m) claims cells 2 and 3 (centres 0.25 and 0.35 m from the edge).
        assert_eq!(&row[..2], &[NON_WALKABLE; 2]);
        assert_eq!(row[2], BORDER);
        assert_eq!(row[3], BORDER);
        assert_eq!(row[4], CLAIMED);
        for s in 0..hf.spans.len() {
            assert!(
                !(f[0].walkable(s) && f[1].walkable(s)),
                "span {s} walkable in two passes"
            );
        }
    }

    /// Every sample level's distances, for every pass, are the ones the
    /// sweeps without the skip give.
    #[test]
    fn chamfer_skipping_near_spans_gives_the_same_distances() {
        for b in crate::samples::all().into_iter().map(|x| x.2) {
            let level = b.level();
            let sp = specs();
            let mut v = ParamValues::defaults(&sp);
            v.set(
                &sp,
                "passes",
                navscope_core::ParamValue::Text("stand,crouch,prone,swim,sidestep".into()),
            )
            .unwrap();
            let mut s = Settings::from_params(&v).unwrap();
            s.tile_size = 0;
            let l = layout(&level.mesh, &level.water, &s).unwrap();
            let hf = voxelize(&level.mesh, &l, &[0], None).unwrap().remove(0);
            let c = compact_tile_with(&hf, &l.grid, &s.passes, s.filters, &[], &no_areas(), true);
            for cp in c.passes.iter().filter(|cp| !cp.links.is_empty()) {
                let new = distances(&hf, &cp.links, &cp.passable);
                let mut old = seeds(&cp.links, &cp.passable);
                reference_chamfer(&cp.links, &mut old);
                assert_eq!(new, old);
            }
        }
    }

    #[test]
    fn chamfer_never_overestimates() {
        // A single obstacle span in the middle of a big floor.
        let m = crate::heightfield::tests::boxes(&[
            ([0., -0.1, 0.], [6., 0., 6.]),
            ([2.95, 0., 2.95], [3.05, 3., 3.05]),
        ]);
        let (_, hf, _) = build(&m, "stand");
        let lim = Limits {
            height: 40,
            step: 10,
        };
        let link = links(&hf, &[(lim, None)]).remove(0);
        let passable: Vec<bool> = hf
            .spans
            .iter()
            .map(|s| s.ceil == OPEN && s.floor < 40)
            .collect();
        let d = distances(&hf, &link, &passable);
        let (ox, oz) = (29, 29);
        for x in 15..45 {
            for z in 15..45 {
                let s = hf.range(hf.col(x, z).unwrap()).start;
                let e = (((x - ox) * (x - ox) + (z - oz) * (z - oz)) as f64).sqrt() * UNIT;
                assert!(
                    d[s] as f64 <= e + 1e-9 || !passable[s],
                    "({x},{z}): {} > {e}",
                    d[s]
                );
            }
        }
    }

    #[test]
    fn links_near_candidates_give_the_same_flags() {
        for b in crate::samples::all().into_iter().map(|x| x.2) {
            let level = b.level();
            let mut s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
            s.tile_size = 0;
            let l = layout(&level.mesh, &level.water, &s).unwrap();
            let hf = voxelize(&level.mesh, &l, &[0], None).unwrap().remove(0);
            let ca = compact_tile_with(&hf, &l.grid, &s.passes, s.filters, &[], &no_areas(), true);
            let cb = compact_tile_with(&hf, &l.grid, &s.passes, s.filters, &[], &no_areas(), false);
            let a = flag_tile(&hf, &l.grid, &s.passes, &ca, s.bands, s.erode_ledges);
            let b = flag_tile(&hf, &l.grid, &s.passes, &cb, s.bands, s.erode_ledges);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x.flags, y.flags, "{:?}", x.pass.stance);
            }
        }
    }

    #[test]
    fn near_columns_dilates_by_the_reach() {
        let m = crate::heightfield::tests::boxes(&[([0., -0.1, 0.], [2., 0., 2.])]);
        let (_, hf, _) = build(&m, "stand");
        let target = hf.col(10, 10).unwrap();
        let near = near_columns(&hf, |s| hf.range(target).contains(&s), 2);
        for (c, &is_near) in near.iter().enumerate() {
            let (x, z) = hf.cell(c);
            assert_eq!(
                is_near,
                (x - 10).abs() <= 2 && (z - 10).abs() <= 2,
                "({x}, {z})"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Random boxes at random heights: the connections found for every
        /// pass's limits at once, with and without random column masks,
        /// are each pass's own.
        #[test]
        fn links_found_together_are_each_passs_own(
            blocks in crate::heightfield::tests::small_blocks(8),
            masks in proptest::collection::vec(proptest::prelude::any::<u64>(), 5),
            masked in proptest::prelude::any::<bool>(),
        ) {
            let m = crate::heightfield::tests::floor_with(4., 4., &blocks);
            let (g, hf, f) = build(&m, "stand,crouch,prone,swim,sidestep");
            let ncols = hf.cols.len() - 1;
            let mask: Vec<Vec<bool>> = masks
                .iter()
                .map(|&bits| (0..ncols).map(|c| bits >> (c % 61) & 1 == 1).collect())
                .collect();
            let sets: Vec<(Limits, Option<&[bool]>)> = f
                .iter()
                .zip(&mask)
                .map(|(p, m)| (Limits::of(&p.pass, &g), masked.then_some(m.as_slice())))
                .collect();
            // Twice over: more sets than a group.
            let sets = [&sets[..], &sets[..]].concat();
            let new = links(&hf, &sets);
            for (k, (lim, m)) in sets.iter().enumerate() {
                proptest::prop_assert_eq!(&new[k], &reference_links(&hf, *lim, *m));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Random spans marked in a random level, random reach: the same
        /// columns as the reference's dilation.
        #[test]
        fn near_columns_are_the_reference_dilations(
            blocks in crate::heightfield::tests::small_blocks(6),
            bits in proptest::prelude::any::<u64>(),
            every in 1usize..200,
            reach in -1i32..50,
            side in (1.0f32..16.0, 1.0f32..16.0),
        ) {
            // Rows of one to several words of bits.
            let m = crate::heightfield::tests::floor_with(side.0, side.1, &blocks);
            let (_, hf, _) = build(&m, "stand");
            let hit = |s: usize| s.is_multiple_of(every) && bits >> (s % 64) & 1 == 1;
            proptest::prop_assert_eq!(near_columns(&hf, hit, reach), reference_near_columns(&hf, hit, reach));
        }
    }
}
