//! Recycled passes without wall bands (Kirst §32.3, as the issue words the
//! rule the chapter implies): space a later pass claims is kept only where
//! it adds something the earlier passes lack.
//!
//! A later pass with a smaller radius than an earlier one (sidestep 0.2 m
//! after standing 0.4 m, crouch 0.4 m after a 0.6 m standing radius) also
//! claims the band between the two radii along every wall, since erosion
//! measures from the obstacles, not from the earlier pass's area. Those bands
//! are noise to a designer. So, after erosion, each connected area of the
//! pass's walkable spans (connected over the pass's own connections) is kept
//! when it
//!
//! 1. touches no walkable span of an earlier pass: it reaches a place no
//!    earlier pass reaches (a vent entered only by crawling);
//! 2. touches walkable spans of two or more earlier areas that are apart
//!    (not connected through walkable spans of the earlier passes): it
//!    connects them (a low doorway between two rooms); or
//! 3. holds a span farther than `band_keep_distance` (by default the
//!    largest radius of the earlier passes that claimed anything in the
//!    tile) from every walkable span of an earlier pass (or band an earlier
//!    pass dropped), measured by the 12/17 chamfer over the pass's
//!    connections: it covers ground the earlier passes do not come near
//!    (the floor under a table, a ledge along a wall).
//!
//! Otherwise its spans are not walkable in this pass and stay in the pool,
//! flagged non-walkable, for the passes after it; so do spans the region
//! filters drop. Regions rather than connected areas, because bands along
//! walls join up into one network that would touch every earlier area.
//!
//! Known limitation: regions are cut per padded tile, so near a tile seam a
//! tiled build can cut a band differently from a one-tile build and keep a
//! piece of it (1.3 m2 of sidestep band in `table_room` at 32-cell tiles).

use crate::chamfer::{UNIT, chamfer};
use crate::heightfield::Heightfield;
use crate::links::NO_LINK;
use crate::partition::{NO_REGION, partition_pass};
use crate::pass_flags::{NON_WALKABLE, PassFlags, WALKABLE};
use crate::settings::{PartitionParams, Pass};

/// The walkable areas of the passes done so far, joined over their
/// connections: a union-find kept from pass to pass, so each pass's
/// connections are read once, when it is done, not again for every later
/// pass. Each area's root is its lowest span (a union keeps the lower
/// root), whatever the order of the unions.
#[derive(Clone, Debug)]
pub struct EarlierAreas {
    parent: Vec<u32>,
    /// Connections from a done pass's walkable span to a span still in the
    /// pool then, joined once a later pass claims that span.
    pending: Vec<(u32, u32)>,
}

impl EarlierAreas {
    /// No pass done yet, over `n` spans.
    pub fn new(n: usize) -> Self {
        EarlierAreas {
            parent: (0..n as u32).collect(),
            pending: Vec::new(),
        }
    }

    /// Adds a pass that is done: each of its walkable spans joins the
    /// spans it connects to outside `pool` (the pool the pass left), and
    /// its connections into the pool wait until a later pass claims them.
    pub fn add(&mut self, pf: &PassFlags, pool: &[bool]) {
        if pf.links.is_empty() {
            return;
        }
        for s in (0..pf.flags.len()).filter(|&s| pf.walkable(s)) {
            for d in 0..4 {
                let l = pf.links[4 * s + d];
                if l == NO_LINK {
                    continue;
                }
                if pool[l as usize] {
                    self.pending.push((s as u32, l));
                } else {
                    self.union(s as u32, l);
                }
            }
        }
    }

    /// Joins the waiting connections whose far span left `pool`.
    fn settle(&mut self, pool: &[bool]) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.retain(|&(s, l)| {
            if pool[l as usize] {
                return true;
            }
            self.union(s, l);
            false
        });
        self.pending = pending;
    }

    fn union(&mut self, s: u32, l: u32) {
        let (a, b) = (find(&mut self.parent, s), find(&mut self.parent, l));
        if a != b {
            self.parent[a.max(b) as usize] = a.min(b);
        }
    }

    /// The area of span `s` (its root).
    fn root(&mut self, s: u32) -> u32 {
        find(&mut self.parent, s)
    }
}

pub(crate) fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[parent[x as usize] as usize];
        parent[x as usize] = p;
        x = p;
    }
    x
}

/// Clears `walk` on every region of the current pass (`pass`, cut by
/// `partition` as the `regions` stage will) that the rule drops. `earlier`
/// are the earlier passes' areas, `pool` the spans no earlier pass claimed, `link` the pass's connections, `reach` the keep
/// distance in cells.
#[allow(clippy::too_many_arguments)]
pub fn drop_bands(
    hf: &Heightfield,
    pass: Pass,
    partition: PartitionParams,
    earlier: &mut EarlierAreas,
    (pool, banded): (&[bool], &[bool]),
    link: &std::sync::Arc<Vec<u32>>,
    walk: &mut [bool],
    reach: f64,
) {
    let n = walk.len();
    // Areas of the earlier passes, joined over any earlier pass's
    // connections to spans they claimed.
    earlier.settle(pool);
    // Distance from the earlier passes' walkable spans over this pass's
    // connections.
    // (A band an earlier pass dropped counts as reached: the earlier pass
    // came that near.)
    let mut dist: Vec<u16> = (0..n)
        .map(|s| if pool[s] && !banded[s] { u16::MAX } else { 0 })
        .collect();
    chamfer(hf, link, &mut dist);
    let far = (reach * UNIT).min(u16::MAX as f64 - 1.0);
    // The pass's regions, as the `regions` stage will cut them.
    let flags: Vec<u8> = walk
        .iter()
        .map(|&w| if w { WALKABLE } else { NON_WALKABLE })
        .collect();
    let tmp = PassFlags {
        pass,
        flags,
        links: link.clone(),
    };
    // Areas do not matter to coverage: one area.
    let label = partition_pass(hf, &tmp, &vec![0; hf.spans.len()], partition).region;
    let regions = label.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut touched: Vec<Vec<u32>> = vec![Vec::new(); regions];
    let mut reaches = vec![false; regions];
    for s in (0..n).filter(|&s| label[s] != NO_REGION) {
        let r = label[s] as usize;
        reaches[r] |= dist[s] as f64 > far;
        for d in 0..4 {
            let l = link[4 * s + d];
            if l != NO_LINK && !pool[l as usize] {
                let root = earlier.root(l);
                if !touched[r].contains(&root) {
                    touched[r].push(root);
                }
            }
        }
    }
    for s in 0..n {
        let r = label[s] as usize;
        if walk[s] && (r == 0 || (touched[r].len() == 1 && !reaches[r])) {
            walk[s] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::tests::build_with;
    use crate::reference::reference_roots;
    use crate::samples::MeshBuilder;

    /// Walkable spans of pass `k` with the band rule on and off.
    fn walkable(b: &MeshBuilder, passes: &str, k: usize) -> (usize, usize) {
        let m = b.level().mesh;
        let count = |on| {
            let (_, _, f) = build_with(&m, passes, on);
            (0..f[k].flags.len()).filter(|&s| f[k].walkable(s)).count()
        };
        (count(true), count(false))
    }

    #[test]
    fn the_sidestep_band_along_walls_goes_back_to_the_pool() {
        // A walled 6 x 6 m room: sidestep (0.2 m) would ring it inside the
        // standing area (0.4 m).
        let mut b = MeshBuilder::new();
        b.solid("floor", [0., -0.1, 0.], [6., 0., 6.]);
        b.solid("wall", [0., 0., -0.2], [6., 3., 0.]);
        let (on, off) = walkable(&b, "stand,sidestep", 1);
        assert!(off > 100, "{off}");
        assert_eq!(on, 0);
    }

    #[test]
    fn a_ledge_a_doorway_and_space_under_a_table_stay() {
        // The ledge between two platforms (sidestep only) and the floor
        // under the table (crouch only) are kept whole.
        let (on, off) = walkable(&crate::samples::ledge(), "stand,sidestep", 1);
        assert!(on > 0 && on < off, "ledge: {on} of {off}");
        let (on, off) = walkable(&crate::samples::table_room(), "stand,crouch", 1);
        assert!(on > 0 && on == off, "table: {on} of {off}");
        // A 1.3 m high, 2 m wide doorway between two rooms: crouch joins
        // them.
        let mut door = MeshBuilder::new();
        door.solid("floor", [0., -0.1, 0.], [9., 0., 5.]);
        door.solid("wall_a", [4., 0., 0.], [5., 3., 1.5]);
        door.solid("wall_b", [4., 0., 3.5], [5., 3., 5.]);
        door.solid("lintel", [4., 1.3, 1.5], [5., 3., 3.5]);
        let (on, off) = walkable(&door, "stand,crouch", 1);
        assert!(on > 0 && on == off, "doorway: {on} of {off}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Random boxes at random heights (tables, vents, ledges) under
        /// all five passes: before every pass, the areas kept from pass to
        /// pass give every span the root the areas joined afresh gave.
        #[test]
        fn areas_kept_from_pass_to_pass_are_the_ones_joined_afresh(
            blocks in proptest::collection::vec(
                (0.0f32..5.0, 0.0f32..5.0, 0.2f32..3.0, 0.2f32..3.0, 0.0f32..2.0, 0.05f32..1.5),
                0..8,
            ),
        ) {
            let m = crate::heightfield::tests::floor_with(6., 6., &blocks);
            let (_, _, f) = build_with(&m, "stand,crouch,prone,swim,sidestep", true);
            let n = f[0].flags.len();
            let mut pool = vec![true; n];
            let mut areas = EarlierAreas::new(n);
            for k in 0..f.len() {
                areas.settle(&pool);
                let got: Vec<u32> = (0..n as u32).map(|s| areas.root(s)).collect();
                proptest::prop_assert_eq!(got, reference_roots(&f[..k], &pool));
                for (s, p) in pool.iter_mut().enumerate() {
                    *p &= !f[k].walkable(s);
                }
                areas.add(&f[k], &pool);
            }
        }
    }
}
