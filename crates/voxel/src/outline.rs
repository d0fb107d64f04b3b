//! The outline of a set of spans: what a pass's sub-step highlights.
//!
//! A stage of a big level holds over a million voxels (`dungeon.obj` at
//! 0.1 m cells), and the app draws a sub-step's highlights as gizmo lines,
//! so a pass's own spans are not highlighted one voxel each but by their
//! outline, per tile core: for each span of the set and each of its four
//! sides whose neighbour across that side (over the pass's span links,
//! [`crate::links::links`]) is missing or not in the set, one segment along
//! that side of the cell at the span's floor. A neighbour in the tile's
//! border (the halo the neighbouring tile owns) counts by its own flags, so
//! a walkable area that runs on into the next tile has no line along the
//! seam: tile borders are the build's business, not the pass's.
//! Consecutive collinear segments at the same height are then merged into
//! one (two sides on one grid line at one height, facing either way, are one
//! line to draw), so a flat square room is four segments, not one per
//! boundary cell; there are never more segments than four per span of the
//! set, and usually far fewer.
//!
//! Nothing here runs in a timed build: the stages compute outlines only
//! when asked for their sub-steps ([`navscope_core::Artifact::substeps`]),
//! which a viewer does when it publishes a stage.

use glam::Vec3;

use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::{DIRS, NO_LINK};

/// How far above a span's floor its outline is drawn (m), so that it shows
/// over the surface and the voxels' tops.
pub const LIFT: f64 = 0.03;

/// One outline segment, in grid units: along x on the grid line
/// `z = line` from `x = from` to `x = to`, or along z on the grid line
/// `x = line` from `z = from` to `z = to`, at height unit `floor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    /// True along x, false along z.
    pub along_x: bool,
    /// The grid line it lies on (a z line when `along_x`, else an x line).
    pub line: i32,
    /// The floor of the spans it outlines (height units).
    pub floor: u16,
    /// Start along the line (grid units, `from < to`).
    pub from: i32,
    /// End along the line.
    pub to: i32,
}

impl Edge {
    /// The side `dir` ([`DIRS`]`[dir]`) of cell `(x, z)` at height `floor`,
    /// one cell long.
    pub fn side(x: i32, z: i32, dir: usize, floor: u16) -> Edge {
        let (dx, dz) = DIRS[dir];
        if dx != 0 {
            let line = if dx > 0 { x + 1 } else { x };
            Edge {
                along_x: false,
                line,
                floor,
                from: z,
                to: z + 1,
            }
        } else {
            let line = if dz > 0 { z + 1 } else { z };
            Edge {
                along_x: true,
                line,
                floor,
                from: x,
                to: x + 1,
            }
        }
    }

    /// Its ends in world space, lifted [`LIFT`] over the floor.
    pub fn points(&self, g: &Grid) -> (Vec3, Vec3) {
        let y = g.y(self.floor) + LIFT;
        let at = |t: i32| {
            if self.along_x {
                g.corner(t, self.line, y)
            } else {
                g.corner(self.line, t, y)
            }
            .as_vec3()
        };
        (at(self.from), at(self.to))
    }
}

/// The unmerged outline of the spans for which `own` is true in `hf`'s
/// core: one cell side per own span and side whose neighbour over `links`
/// (`links[4 * s + dir]`, [`NO_LINK`] when missing; an empty slice: no
/// links at all) is missing or not own, in row order.
pub fn sides(hf: &Heightfield, links: &[u32], own: impl Fn(usize) -> bool) -> Vec<Edge> {
    let r = hf.rect;
    let mut out = Vec::new();
    for z in r.z0..r.z1 {
        for x in r.x0..r.x1 {
            let Some(c) = hf.col(x, z) else { continue };
            for s in hf.range(c).filter(|&s| own(s)) {
                for dir in 0..DIRS.len() {
                    let l = links.get(4 * s + dir).copied().unwrap_or(NO_LINK);
                    let inside = l != NO_LINK && own(l as usize);
                    if !inside {
                        out.push(Edge::side(x, z, dir, hf.spans[s].floor));
                    }
                }
            }
        }
    }
    out
}

/// `edges` with every run of collinear segments at one height that touch
/// or overlap merged into one, sorted (by direction, line, floor, start).
pub fn merge(mut edges: Vec<Edge>) -> Vec<Edge> {
    edges.sort_unstable();
    let mut out: Vec<Edge> = Vec::with_capacity(edges.len() / 2);
    for e in edges {
        match out.last_mut() {
            Some(last)
                if (last.along_x, last.line, last.floor) == (e.along_x, e.line, e.floor)
                    && e.from <= last.to =>
            {
                last.to = last.to.max(e.to);
            }
            _ => out.push(e),
        }
    }
    out
}

/// The merged outline of the spans for which `own` is true in `hf`'s core
/// ([`sides`], then [`merge`]).
pub fn outline(hf: &Heightfield, links: &[u32], own: impl Fn(usize) -> bool) -> Vec<Edge> {
    merge(sides(hf, links, own))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::voxelize;
    use crate::compact::compact_tile;
    use crate::flags::flag_tile;
    use crate::flags::tests::{build, no_areas};
    use crate::heightfield::tests::{boxes, floor_with, small_blocks};
    use crate::pass_flags::PassFlags;
    use crate::settings::{Settings, specs};
    use crate::tiles::layout;
    use navscope_core::geom::TriMesh;
    use navscope_core::{ParamValue, ParamValues};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// Every cell side of `edges`, one cell long.
    fn unit_sides(edges: &[Edge]) -> BTreeSet<Edge> {
        edges
            .iter()
            .flat_map(|e| {
                (e.from..e.to).map(move |t| Edge {
                    from: t,
                    to: t + 1,
                    ..*e
                })
            })
            .collect()
    }

    /// The outline by brute force, from each span's own cell and its
    /// neighbour's: every span, its column looked up, every direction.
    fn reference(hf: &Heightfield, links: &[u32], own: &dyn Fn(usize) -> bool) -> BTreeSet<Edge> {
        let cols = hf.span_columns();
        let core = |s: usize| {
            let (x, z) = hf.cell(cols[s] as usize);
            hf.rect.in_core(x, z)
        };
        let mut out = BTreeSet::new();
        for s in (0..hf.spans.len()).filter(|&s| own(s) && core(s)) {
            let (x, z) = hf.cell(cols[s] as usize);
            for (dir, step) in DIRS.iter().enumerate() {
                let n = links.get(4 * s + dir).copied().unwrap_or(NO_LINK);
                let separates = n == NO_LINK || !own(n as usize);
                if n != NO_LINK {
                    // A link leads to the side column.
                    let (nx, nz) = hf.cell(cols[n as usize] as usize);
                    assert_eq!((nx - x, nz - z), *step);
                }
                if separates {
                    out.insert(Edge::side(x, z, dir, hf.spans[s].floor));
                }
            }
        }
        out
    }

    /// The tiles of `m` cut every `tile` cells, each with its flags for
    /// `passes` (default settings otherwise), as the stages build them.
    fn tiles_of(m: &TriMesh, passes: &str, tile: i64) -> Vec<(Heightfield, Vec<PassFlags>)> {
        let sp = specs();
        let mut v = ParamValues::defaults(&sp);
        v.set(&sp, "passes", ParamValue::Text(passes.into()))
            .unwrap();
        let mut s = Settings::from_params(&v).unwrap();
        s.tile_size = tile;
        let l = layout(m, &[], &s).unwrap();
        let all: Vec<usize> = (0..l.tiles.len()).collect();
        voxelize(m, &l, &all, None)
            .unwrap()
            .into_iter()
            .map(|hf| {
                let c = compact_tile(&hf, &l.grid, &s.passes, s.filters, &[], &no_areas());
                let f = flag_tile(&hf, &l.grid, &s.passes, &c, s.bands, s.erode_ledges);
                (hf, f)
            })
            .collect()
    }

    #[test]
    fn an_empty_set_has_no_outline() {
        let m = boxes(&[([0., -0.1, 0.], [4., 0., 4.])]);
        let (_, hf, f) = build(&m, "stand");
        assert!(outline(&hf, &f[0].links, |_| false).is_empty());
        assert!(outline(&hf, &[], |_| false).is_empty());
        assert!(merge(Vec::new()).is_empty());
    }

    #[test]
    fn a_square_is_four_segments_round_its_walkable_area() {
        // A 4 x 4 m platform: the standing pass's walkable spans (0.4 m
        // radius: cells 4 to 35 of 40) are a 32-cell square.
        let m = boxes(&[([0., -0.1, 0.], [4., 0., 4.])]);
        let (_, hf, f) = build(&m, "stand");
        let pf = &f[0];
        let out = outline(&hf, &pf.links, |s| pf.walkable(s));
        let own = (0..hf.spans.len()).filter(|&s| pf.walkable(s)).count();
        assert_eq!(own, 32 * 32);
        assert_eq!(out.len(), 4, "{out:?}");
        for e in &out {
            assert_eq!((e.from, e.to), (4, 36), "{e:?}");
            assert!(e.line == 4 || e.line == 36, "{e:?}");
            assert_eq!(
                e.floor,
                hf.spans[hf.range(hf.col(20, 20).unwrap()).start].floor
            );
        }
        // Without links every own span is outlined on all four sides; the
        // merge gives every row's and column's sides as one line each.
        let bare = outline(&hf, &[], |s| pf.walkable(s));
        assert_eq!(bare.len(), 2 * 33);
        assert_eq!(sides(&hf, &[], |s| pf.walkable(s)).len(), 4 * own);
    }

    #[test]
    fn segments_lie_on_their_cell_sides_at_the_lifted_floor() {
        let m = boxes(&[([0., -0.1, 0.], [4., 0., 4.])]);
        let (g, hf, _) = build(&m, "stand");
        let e = Edge::side(3, 5, 2, hf.spans[0].floor);
        let (a, b) = e.points(&g);
        let y = (g.y(hf.spans[0].floor) + LIFT) as f32;
        assert_eq!(a, Vec3::new(g.x(4) as f32, y, g.z(5) as f32));
        assert_eq!(b, Vec3::new(g.x(4) as f32, y, g.z(6) as f32));
        let e = Edge::side(3, 5, 3, hf.spans[0].floor);
        assert_eq!(
            e.points(&g),
            (
                Vec3::new(g.x(3) as f32, y, g.z(5) as f32),
                Vec3::new(g.x(4) as f32, y, g.z(5) as f32)
            )
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Random blocks at random heights (steps, ledges, decks over a
        /// floor) and random span subsets of a random pass's walkable
        /// spans or of all spans: the merged outline covers exactly the
        /// cell sides that separate an own span from a missing or not own
        /// neighbour, its segments neither touch nor overlap one another on
        /// a line at one height, and there are at most four per own span.
        #[test]
        fn the_outline_is_the_sides_between_own_and_not_own_spans(
            blocks in small_blocks(8),
            pass in 0usize..5,
            bits in any::<u64>(),
            every in 1usize..4,
            walkable_only in any::<bool>(),
            no_links in any::<bool>(),
            tile in prop_oneof![Just(0i64), 8i64..24],
        ) {
            let m = floor_with(4., 4., &blocks);
            // Several tiles (whose cores end inside the floor) or one.
            let tiles = tiles_of(&m, "stand,crouch,prone,swim,sidestep", tile);
            prop_assert!(tile == 0 || tiles.len() > 1);
            for (hf, f) in &tiles {
                check(hf, &f[pass], bits, every, walkable_only, no_links)?;
            }
        }
    }

    /// [`the_outline_is_the_sides_between_own_and_not_own_spans`] on one
    /// tile and pass: the own spans are those of `pf`'s walkable ones (or
    /// of all, unless `walkable_only`) whose index is a multiple of
    /// `every` or picks a set bit of `bits`.
    fn check(
        hf: &Heightfield,
        pf: &PassFlags,
        bits: u64,
        every: usize,
        walkable_only: bool,
        no_links: bool,
    ) -> Result<(), TestCaseError> {
        let own = |s: usize| {
            (!walkable_only || pf.walkable(s))
                && (s.is_multiple_of(every) || bits >> (s % 64) & 1 == 1)
        };
        let links: &[u32] = if no_links { &[] } else { &pf.links };
        let got = outline(hf, links, own);
        let want = reference(hf, links, &own);
        // The unmerged sides are the reference's, and the merged segments
        // cover exactly them.
        let raw = sides(hf, links, own);
        prop_assert_eq!(&raw.iter().copied().collect::<BTreeSet<_>>(), &want);
        prop_assert_eq!(unit_sides(&got), want);
        for w in got.windows(2) {
            let key = |e: &Edge| (e.along_x, e.line, e.floor);
            prop_assert!(
                key(&w[0]) != key(&w[1]) || w[0].to < w[1].from,
                "{:?} touches {:?}",
                w[0],
                w[1]
            );
        }
        prop_assert!(got.iter().all(|e| e.from < e.to));
        let cols = hf.span_columns();
        let core = (0..hf.spans.len())
            .filter(|&s| {
                let (x, z) = hf.cell(cols[s] as usize);
                own(s) && hf.rect.in_core(x, z)
            })
            .count();
        prop_assert!(got.len() <= 4 * core);
        if core == 0 {
            prop_assert!(got.is_empty());
        }
        Ok(())
    }
}
