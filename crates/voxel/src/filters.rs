//! Recast's walkable-span filters (`RecastFilter.cpp`), applied for each
//! pass in the `compact` stage to the spans before erosion (the `flag`
//! stage erodes what they leave), each a parameter toggle as in Recast:
//!
//! * **Low-hanging obstacles** (`rcFilterLowHangingWalkableObstacles`): a
//!   span too steep to walk on becomes walkable when the span below it in
//!   its column is walkable and its floor is at most a step above that one
//!   (a kerb, a stair nosing, a low box's edge).
//! * **Ledges** (`rcFilterLedgeSpans`): a span is not walkable when, towards
//!   one of its four neighbours, the floor drops by more than a step (a
//!   drop counts where the neighbour column has room for the agent below
//!   its first solid, or nothing at all), or when the floors of the
//!   neighbours it can step to differ among themselves by more than a step
//!   (a steep slope between voxels).
//! * **Low height** (`rcFilterWalkableLowHeightSpans`): a span with less
//!   free space above it than the agent's height is not walkable. For the
//!   swim pass the free space is measured from the water surface, where its
//!   nodes are (and with the filter off a swim span still needs its
//!   ceiling above the surface), so no swim node ends inside rock under an
//!   overhang.
//!
//! Slope, water depth and the three filters make a span *passable* for a
//! pass; [`passable`] computes it.

use crate::grid::Grid;
use crate::heightfield::{Heightfield, OPEN};
use crate::links::{DIRS, Limits};
use crate::rows::for_row_bands;
use crate::settings::Filters;
use crate::settings::Pass;

/// Top of the open space over span `s` (very high when open to the sky).
pub(crate) fn top(hf: &Heightfield, s: usize) -> i32 {
    let c = hf.spans[s].ceil;
    if c == OPEN { i32::MAX / 2 } else { c as i32 }
}

/// For each of `passes`, true for every span the pass may stand on before
/// erosion: slope (with the low-hanging filter), water depth, headroom
/// (low-height filter) and the ledge filter. The ledge filter reads the
/// side columns of every span once for all the passes.
pub fn passable(hf: &Heightfield, grid: &Grid, passes: &[Pass], f: Filters) -> Vec<Vec<bool>> {
    let mut ok: Vec<Vec<bool>> = passes
        .iter()
        .map(|p| before_ledges(hf, grid, p, f))
        .collect();
    if f.ledges {
        let lims: Vec<Limits> = passes.iter().map(|p| Limits::of(p, grid)).collect();
        let ledge = ledges(hf, &lims, &ok);
        for (ok, ledge) in ok.iter_mut().zip(ledge) {
            for (o, l) in ok.iter_mut().zip(ledge) {
                *o &= !l;
            }
        }
    }
    ok
}

/// The least upward component of a floor's normal a slope of at most
/// `max_slope_rad` has: slope <= max  <=>  ny >= cos(max) for max below
/// pi; beyond, any slope.
pub(crate) fn min_floor_ny(max_slope_rad: f64) -> f32 {
    if max_slope_rad >= std::f64::consts::PI {
        f32::NEG_INFINITY
    } else {
        (max_slope_rad.cos() - 1e-7) as f32
    }
}

/// One pass's [`passable`] spans before the ledge filter (one walk up
/// each column, a few tests a span: not worth cutting into row bands).
fn before_ledges(hf: &Heightfield, grid: &Grid, pass: &Pass, f: Filters) -> Vec<bool> {
    let a = pass.agent;
    let lim = Limits::of(pass, grid);
    let min_ny = min_floor_ny(a.max_slope_rad);
    let need_voxels = if f.low_height { lim.height as i64 } else { 0 };
    let dry = 0.0 >= a.min_water - 1e-9 && 0.0 <= a.max_water + 1e-9;
    let mut ok = vec![false; hf.spans.len()];
    // One walk up each column: slope, the low-hanging filter (which reads
    // the slope test of the span below), headroom and water depth.
    for col in hf.cols.windows(2) {
        // The span below: its slope test and floor.
        let mut below: Option<(bool, i32)> = None;
        let r = col[0] as usize..col[1] as usize;
        for (ok, &sp) in ok[r.clone()].iter_mut().zip(&hf.spans[r]) {
            let steep = sp.ny < min_ny;
            let floor = sp.floor as i32;
            let hangs = f.low_hanging
                && steep
                && below.is_some_and(|(flat, bf)| flat && (floor - bf).unsigned_abs() <= lim.step);
            below = Some((!steep, floor));
            // Whole voxels: the room and the need are integers.
            let clear = sp.ceil == OPEN || sp.ceil as i64 - sp.floor as i64 >= need_voxels;
            // A dry span's depth is 0.
            let wet = if sp.water.is_nan() {
                dry
            } else {
                let depth = sp.depth(grid);
                depth >= a.min_water - 1e-9 && depth <= a.max_water + 1e-9
            };
            *ok = (!steep || hangs) && clear && wet;
        }
    }
    ok
}

/// Recast's ledge test, for each of `lims` (one per pass), of every span
/// for which that pass's `test` holds (the others get false: as in Recast,
/// only spans still walkable are tested, the test of any other could not
/// change what [`passable`] returns). Passes testing no span are skipped;
/// the others are tested side by side, up to [`GROUP`] at a time.
fn ledges(hf: &Heightfield, lims: &[Limits], test: &[Vec<bool>]) -> Vec<Vec<bool>> {
    let mut out: Vec<Vec<bool>> = lims.iter().map(|_| vec![false; hf.spans.len()]).collect();
    let busy: Vec<usize> = (0..lims.len())
        .filter(|&k| test[k].iter().any(|&t| t))
        .collect();
    for group in busy.chunks(GROUP) {
        let lims: Vec<Limits> = group.iter().map(|&k| lims[k]).collect();
        let test: Vec<&[bool]> = group.iter().map(|&k| test[k].as_slice()).collect();
        let got = match group.len() {
            1 => ledge_group::<1>(hf, &lims, &test),
            2 => ledge_group::<2>(hf, &lims, &test),
            3 => ledge_group::<3>(hf, &lims, &test),
            _ => ledge_group::<GROUP>(hf, &lims, &test),
        };
        for (&k, o) in group.iter().zip(got) {
            out[k] = o;
        }
    }
    out
}

/// Most passes [`ledges`] tests side by side.
const GROUP: usize = 4;

/// [`ledges`] for `N` passes at once (compiled for each `N`, so one pass
/// runs the plain loop): every span's side columns are read once and each
/// side span is compared with every pass's height and climb.
fn ledge_group<const N: usize>(
    hf: &Heightfield,
    lims: &[Limits],
    test: &[&[bool]],
) -> Vec<Vec<bool>> {
    let lims: &[Limits; N] = lims.try_into().expect("one limit per pass");
    let test: &[&[bool]; N] = test.try_into().expect("one test per pass");
    let lim: [(i64, i64); N] = lims.map(|l| (l.height as i64, l.step as i64));
    let mut out: [Vec<bool>; N] = std::array::from_fn(|_| vec![false; hf.spans.len()]);
    let parts = out.each_mut().map(|v| v.as_mut_slice());
    for_row_bands(hf, parts, 1, move |columns, first, out| {
        for (c, (x, z)) in hf.cells_in(columns) {
            let r = hf.range(c);
            if !test.iter().any(|t| t[r.clone()].iter().any(|&t| t)) {
                continue;
            }
            // The four side columns' spans, looked up once per column.
            // (inside the tile, first span, one past the last).
            let mut sides = [(false, 0usize, 0usize); 4];
            for (side, (dx, dz)) in sides.iter_mut().zip(DIRS) {
                if let Some(nc) = hf.col(x + dx, z + dz) {
                    *side = (true, hf.cols[nc] as usize, hf.cols[nc + 1] as usize);
                }
            }
            for s in r {
                let on: [bool; N] = std::array::from_fn(|k| test[k][s]);
                if !on.contains(&true) {
                    continue;
                }
                let bot = hf.spans[s].floor as i64;
                let tp = top(hf, s) as i64;
                // Per pass: the lowest drop, and the lowest and highest floor
                // within the climb.
                let mut minh = [i64::MAX; N];
                let (mut lo, mut hi) = ([bot; N], [bot; N]);
                for &(inside, start, end) in &sides {
                    if !inside {
                        for k in 0..N {
                            minh[k] = minh[k].min(-lim[k].1 - bot);
                        }
                        continue;
                    }
                    // The space below the column's first solid.
                    let first = if start < end {
                        hf.spans[start].base as i64
                    } else {
                        i64::MAX / 2
                    };
                    for k in 0..N {
                        let (h, climb) = lim[k];
                        if tp.min(first) - bot.max(-climb) > h {
                            minh[k] = minh[k].min(-climb - bot);
                        }
                    }
                    for n in start..end {
                        let nbot = hf.spans[n].floor as i64;
                        // Floors rise up the column: from one at or above
                        // this span's ceiling on, no gap is left (h >= 0).
                        if nbot >= tp {
                            break;
                        }
                        let gap = tp.min(top(hf, n) as i64) - bot.max(nbot);
                        for k in 0..N {
                            let (h, climb) = lim[k];
                            if gap > h {
                                minh[k] = minh[k].min(nbot - bot);
                                if (nbot - bot).abs() <= climb {
                                    lo[k] = lo[k].min(nbot);
                                    hi[k] = hi[k].max(nbot);
                                }
                            }
                        }
                    }
                }
                for k in 0..N {
                    let climb = lim[k].1;
                    out[k][s - first] = on[k] && (minh[k] < -climb || hi[k] - lo[k] > climb);
                }
            }
        }
    });
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::tests::build;
    use crate::reference::{reference_before_ledges, reference_ledges};
    use crate::samples::MeshBuilder;
    use crate::settings::Filters;

    const ALL: Filters = Filters {
        low_hanging: true,
        ledges: true,
        low_height: true,
    };

    /// Passable spans of the stand pass over cell column `(x, z)` (world m).
    fn at(b: &MeshBuilder, f: Filters, x: f64, z: f64) -> Vec<(f64, bool)> {
        let (g, hf, flags) = build(&b.level().mesh, "stand");
        let ok = passable(&hf, &g, &[flags[0].pass], f).remove(0);
        let c = hf
            .col(
                ((x - g.origin.x) / g.cs) as i32,
                ((z - g.origin.z) / g.cs) as i32,
            )
            .unwrap();
        hf.range(c)
            .map(|s| (g.y(hf.spans[s].floor), ok[s]))
            .collect()
    }

    #[test]
    fn a_steep_surface_a_step_above_a_floor_is_walkable_with_the_low_hanging_filter() {
        let mut b = MeshBuilder::new();
        b.solid("floor", [0., -0.1, 0.], [4., 0., 4.]);
        // 63 degrees, from 0.3 to 0.5 m over 0.1 m.
        b.ramp("nosing", [2., 2.1], [0., 4.], [0.3, 0.5]);
        let on = at(&b, ALL, 2.05, 2.0);
        let off = at(
            &b,
            Filters {
                low_hanging: false,
                ..ALL
            },
            2.05,
            2.0,
        );
        // The floor under it is too low for the agent either way.
        assert_eq!(on.len(), 2, "{on:?}");
        assert!(on[1].1 && !off[1].1, "{on:?} {off:?}");
    }

    #[test]
    fn the_ledge_filter_removes_the_span_at_a_drop() {
        let mut b = MeshBuilder::new();
        b.solid("ground", [0., -0.1, 0.], [8., 0., 4.]);
        // A deck without sides, 1.5 m over the ground.
        b.ramp("deck", [0., 4.], [0., 4.], [1.5, 1.5]);
        let deck = |f, x| at(&b, f, x, 2.0).last().unwrap().1;
        let edge = |f| deck(f, 3.95);
        let inside = |f| deck(f, 3.5);
        assert!(!edge(ALL));
        assert!(edge(Filters {
            ledges: false,
            ..ALL
        }));
        assert!(inside(ALL));
    }

    #[test]
    fn the_low_height_filter_removes_spans_under_a_low_table() {
        let mut b = MeshBuilder::new();
        b.solid("floor", [0., -0.1, 0.], [4., 0., 4.]);
        b.solid("table", [1., 1.0, 1.], [3., 1.1, 3.]);
        let under = |f| at(&b, f, 2.0, 2.0)[0].1;
        assert!(!under(ALL));
        assert!(under(Filters {
            low_height: false,
            ..ALL
        }));
    }

    #[test]
    fn swim_headroom_is_measured_from_the_floor_as_every_pass_measures_it() {
        // A 3 m deep pool, water up to 0; a rock shelf from -0.6 to -0.3 m
        // over part of it: 2.4 m of room above the pool floor, none at the
        // surface; and a slab 0.3 m over the floor elsewhere, too low for
        // the swimmer.
        let mut b = MeshBuilder::new();
        b.solid("pool_floor", [0., -3.2, 0.], [8., -3., 8.]);
        b.solid("shelf", [0., -0.6, 0.], [3., -0.3, 8.]);
        b.solid("slab", [5., -2.7, 0.], [6., -2.6, 8.]);
        b.water([0., -3., 0.], [8., 0., 8.]);
        let level = b.level();
        let sp = crate::settings::specs();
        let mut v = navscope_core::ParamValues::defaults(&sp);
        v.set(
            &sp,
            "passes",
            navscope_core::ParamValue::Text("swim".into()),
        )
        .unwrap();
        let mut s = crate::settings::Settings::from_params(&v).unwrap();
        s.tile_size = 0;
        let l = crate::tiles::layout(&level.mesh, &level.water, &s).unwrap();
        let hf = crate::blocks::voxelize(&level.mesh, &l, &[0], None)
            .unwrap()
            .remove(0);
        let g = l.grid;
        let floor_span = |x: f64| {
            let c = hf
                .col(
                    ((x - g.origin.x) / g.cs) as i32,
                    ((4.0 - g.origin.z) / g.cs) as i32,
                )
                .unwrap();
            hf.range(c).next().unwrap()
        };
        let (under, open, low) = (floor_span(1.5), floor_span(7.0), floor_span(5.5));
        assert!(hf.spans[under].ceil != OPEN && !hf.spans[under].water.is_nan());
        let ok = passable(&hf, &g, &s.passes[..1], ALL).remove(0);
        // 2.4 m over the sea floor: room for a 0.5 m swimmer, though the
        // water reaches the shelf (the swimmer swims under it).
        assert!(ok[under], "the swimmer fits under the shelf");
        assert!(ok[open]);
        assert!(!ok[low], "0.3 m under the slab is too low for the swimmer");
        // With the filter off, the room is not measured.
        let off = Filters {
            low_height: false,
            ..ALL
        };
        assert!(passable(&hf, &g, &s.passes[..1], off).remove(0)[low]);
    }

    /// Random boxes at random heights (floors, steps, ledges, low
    /// ceilings, stacked decks) under every pass of the paper's tables.
    fn random_level(blocks: &[crate::heightfield::tests::Block]) -> (Grid, Heightfield, Vec<Pass>) {
        let m = crate::heightfield::tests::floor_with(4., 4., blocks);
        let (g, hf, f) = build(&m, "stand,crouch,prone,swim,sidestep");
        (g, hf, f.iter().map(|p| p.pass).collect())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// The ledge test shared by the passes gives each pass what its
        /// own test gave, on the spans each pass tests and on every span.
        #[test]
        fn the_shared_ledge_test_gives_each_pass_its_own(
            blocks in crate::heightfield::tests::small_blocks(8),
            every in proptest::prelude::any::<bool>(),
        ) {
            let (g, hf, passes) = random_level(&blocks);
            let lims: Vec<Limits> = passes.iter().map(|p| Limits::of(p, &g)).collect();
            let test: Vec<Vec<bool>> = passes
                .iter()
                .map(|p| {
                    let t = before_ledges(&hf, &g, p, ALL);
                    if every { vec![true; t.len()] } else { t }
                })
                .collect();
            // Twice over: more passes than a group.
            let lims = [&lims[..], &lims[..]].concat();
            let test = [&test[..], &test[..]].concat();
            let new = ledges(&hf, &lims, &test);
            for k in 0..lims.len() {
                proptest::prop_assert_eq!(&new[k], &reference_ledges(&hf, lims[k], &test[k]));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Random boxes at random heights, ramps and a pool, every pass and
        /// every combination of filters: the same spans as the reference's.
        #[test]
        fn one_walk_up_each_column_gives_the_reference_tests(
            blocks in crate::heightfield::tests::small_blocks(8),
            ramp in (0.0f32..1.0, 0.0f32..1.0),
            filters in 0u8..8,
        ) {
            let mut b = MeshBuilder::new();
            b.solid("floor", [0., -0.1, 0.], [4., 0., 4.]);
            for (i, &(x, z, w, d, y, h)) in blocks.iter().enumerate() {
                b.solid(&format!("box{i}"), [x, y, z], [x + w, y + h, z + d]);
            }
            b.ramp("ramp", [0.5, 1.0], [0., 4.], [ramp.0, ramp.1 + 0.5]);
            b.water([2., -2., 2.], [4., 0.5, 4.]);
            let level = b.level();
            let sp = crate::settings::specs();
            let mut v = navscope_core::ParamValues::defaults(&sp);
            v.set(&sp, "passes", navscope_core::ParamValue::Text("stand,crouch,prone,swim,sidestep".into()))
                .unwrap();
            let mut s = crate::settings::Settings::from_params(&v).unwrap();
            s.tile_size = 0;
            let l = crate::tiles::layout(&level.mesh, &level.water, &s).unwrap();
            let hf = crate::blocks::voxelize(&level.mesh, &l, &[0], None).unwrap().remove(0);
            let f = Filters {
                low_hanging: filters & 1 != 0,
                ledges: filters & 2 != 0,
                low_height: filters & 4 != 0,
            };
            for p in &s.passes {
                proptest::prop_assert_eq!(
                    before_ledges(&hf, &l.grid, p, f),
                    reference_before_ledges(&hf, &l.grid, p, f)
                );
            }
        }
    }
}
