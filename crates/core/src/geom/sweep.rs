//! Is there a bad meeting among these segments? A Shamos–Hoey sweep.
//!
//! Validation asks whether any two segments meet other than the ways a
//! caller allows (two consecutive edges of a ring sharing their vertex).
//! Listing candidate pairs cannot answer that in near-linear time for every
//! input: the edges of a 100,000-vertex star are long, thin and packed, so
//! any spatial index reports millions of neighbours. The sweep of Shamos and
//! Hoey (1976) can: a vertical line sweeps left to right, the segments it
//! crosses are kept in bottom-to-top order, and only segments that become
//! neighbours in that order are tested. Before the leftmost bad meeting the
//! order is well defined, and just before it the two segments are
//! neighbours, so the first bad meeting is always found, after
//! `O(n log n)` comparisons. At every endpoint the segments that end there,
//! start there or pass through it are tested against each other as well,
//! which covers touches and overlaps. All comparisons are exact
//! ([`orient`]).
//!
//! The order is a plain `Vec` (binary search, then insert or remove): the
//! copying is linear per event but a fast `memmove`, cheaper in practice
//! than a balanced tree with a comparator that depends on the sweep.

use std::cmp::Ordering;

use glam::DVec2;

use super::predicates::{Orientation, SegmentHit, orient, segment_intersection};

/// A segment with its lexicographically smaller end first.
#[derive(Clone, Copy)]
struct Seg {
    l: DVec2,
    r: DVec2,
}

fn lex(a: DVec2, b: DVec2) -> Ordering {
    a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
}

/// The first bad meeting the sweep finds among `segs`: a pair `(i, j)`,
/// `i < j`, whose [`segment_intersection`] is not `None` and for which
/// `allowed(i, j, hit)` is false; `None` when there is none. `allowed` may
/// only accept meetings at a shared endpoint (the sweep's order relies on
/// segments not crossing). Every segment must be finite.
pub fn find_bad_meeting(
    segs: &[(DVec2, DVec2)],
    allowed: impl Fn(usize, usize, &SegmentHit) -> bool,
) -> Option<(usize, usize, SegmentHit)> {
    let s: Vec<Seg> = segs
        .iter()
        .map(|&(a, b)| match lex(a, b) {
            Ordering::Greater => Seg { l: b, r: a },
            _ => Seg { l: a, r: b },
        })
        .collect();
    let test = |i: u32, j: u32| -> Option<(usize, usize, SegmentHit)> {
        let (i, j) = (i.min(j) as usize, i.max(j) as usize);
        if i == j {
            return None;
        }
        let hit = segment_intersection(segs[i].0, segs[i].1, segs[j].0, segs[j].1);
        (hit != SegmentHit::None && !allowed(i, j, &hit)).then_some((i, j, hit))
    };
    // Events: every endpoint, with the segments that start or end there.
    let mut ends: Vec<(DVec2, u32)> = Vec::with_capacity(2 * s.len());
    for (i, g) in s.iter().enumerate() {
        ends.push((g.l, i as u32));
        ends.push((g.r, i as u32));
    }
    ends.sort_by(|a, b| lex(a.0, b.0).then(a.1.cmp(&b.1)));
    let mut active: Vec<u32> = Vec::new();
    let mut k = 0;
    while k < ends.len() {
        let p = ends[k].0;
        let mut m = k;
        while m < ends.len() && ends[m].0 == p {
            m += 1;
        }
        let here: Vec<u32> = ends[k..m].iter().map(|e| e.1).collect();
        k = m;
        // Segments meeting at p: every pair of those with an end here.
        for (a, &i) in here.iter().enumerate() {
            for &j in &here[a + 1..] {
                if let Some(bad) = test(i, j) {
                    return Some(bad);
                }
            }
        }
        // Remove the segments that end at p; their neighbours meet.
        let lo = active.partition_point(|&t| orient(s[t as usize].l, s[t as usize].r, p) == Orientation::CounterClockwise);
        let mut hi = lo;
        while hi < active.len() && orient(s[active[hi] as usize].l, s[active[hi] as usize].r, p) == Orientation::Collinear {
            hi += 1;
        }
        // Segments through p (active, p on their line within their span)
        // meet every segment with an end at p.
        for &t in &active[lo..hi] {
            for &i in &here {
                if let Some(bad) = test(t, i) {
                    return Some(bad);
                }
            }
        }
        let before = active.len();
        let mut w = lo;
        for r in lo..hi {
            let t = active[r];
            if s[t as usize].r != p {
                active[w] = t;
                w += 1;
            }
        }
        active.drain(w..hi);
        if active.len() != before && w > 0 && w < active.len() {
            if let Some(bad) = test(active[w - 1], active[w]) {
                return Some(bad);
            }
        }
        // Insert the segments that start at p, each between its neighbours.
        for &i in &here {
            let g = s[i as usize];
            if g.l != p || g.l == g.r {
                continue;
            }
            let pos = active.partition_point(|&t| below(&s[t as usize], t, &g, i));
            active.insert(pos, i);
            for n in [pos.checked_sub(1), Some(pos + 1)].into_iter().flatten() {
                if let Some(&t) = active.get(n) {
                    if let Some(bad) = test(t, i) {
                        return Some(bad);
                    }
                }
            }
        }
    }
    None
}

/// True when the active segment `t` lies below the segment `g` that starts
/// at the sweep point `g.l` (ties between overlapping segments by index).
fn below(t: &Seg, ti: u32, g: &Seg, gi: u32) -> bool {
    let o = match orient(t.l, t.r, g.l) {
        Orientation::Collinear => orient(t.l, t.r, g.r),
        o => o,
    };
    match o {
        Orientation::CounterClockwise => true,
        Orientation::Clockwise => false,
        Orientation::Collinear => ti < gi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_meeting(segs: &[(DVec2, DVec2)]) -> bool {
        (0..segs.len()).any(|i| {
            (i + 1..segs.len()).any(|j| {
                segment_intersection(segs[i].0, segs[i].1, segs[j].0, segs[j].1)
                    != SegmentHit::None
            })
        })
    }

    /// Consecutive edges of one closed ring may share their vertex.
    fn ring_allowed(n: usize) -> impl Fn(usize, usize, &SegmentHit) -> bool {
        move |i, j, hit| {
            let adjacent = (i + 1) % n == j || (j + 1) % n == i;
            adjacent && matches!(hit, SegmentHit::Point(_))
        }
    }

    fn ring(pts: &[DVec2]) -> Vec<(DVec2, DVec2)> {
        (0..pts.len())
            .map(|i| (pts[i], pts[(i + 1) % pts.len()]))
            .collect()
    }

    #[test]
    fn a_big_star_is_clean_and_one_bent_spike_is_found() {
        let n = 20_000;
        let mut pts: Vec<DVec2> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64;
                DVec2::new(a.cos(), a.sin()) * if i % 2 == 0 { 20.0 } else { 6.0 }
            })
            .collect();
        let segs = ring(&pts);
        assert!(find_bad_meeting(&segs, ring_allowed(n)).is_none());
        // Pull one tip across its neighbour.
        pts[100] = pts[104] * 1.01;
        let segs = ring(&pts);
        let (i, j, _) = find_bad_meeting(&segs, ring_allowed(n)).unwrap();
        assert!((97..=104).contains(&i) && (97..=104).contains(&j), "{i} {j}");
    }

    #[test]
    fn touches_overlaps_and_t_junctions_are_found() {
        let v = DVec2::new;
        let t = [(v(0., 0.), v(4., 0.)), (v(2., 0.), v(2., 3.))];
        assert_eq!(find_bad_meeting(&t, |_, _, _| false).map(|b| (b.0, b.1)), Some((0, 1)));
        let o = [(v(0., 0.), v(4., 0.)), (v(1., 0.), v(6., 0.))];
        assert!(find_bad_meeting(&o, |_, _, _| false).is_some());
        let vert = [(v(1., -1.), v(1., 5.)), (v(0., 2.), v(1., 2.))];
        assert!(find_bad_meeting(&vert, |_, _, _| false).is_some());
        let apart = [(v(0., 0.), v(4., 0.)), (v(0., 1.), v(4., 1.))];
        assert!(find_bad_meeting(&apart, |_, _, _| false).is_none());
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![(-6i32..6).prop_map(f64::from), -6.0..6.0f64]
    }

    proptest! {
        /// With nothing allowed, the sweep finds a meeting exactly when
        /// brute force does.
        #[test]
        fn the_sweep_agrees_with_brute_force(
            raw in prop::collection::vec((coord(), coord(), coord(), coord()), 0..40),
        ) {
            let segs: Vec<_> = raw
                .into_iter()
                .map(|(a, b, c, d)| (DVec2::new(a, b), DVec2::new(c, d)))
                .collect();
            prop_assert_eq!(find_bad_meeting(&segs, |_, _, _| false).is_some(), any_meeting(&segs));
        }

        /// Random simple-or-not rings: the sweep agrees with brute force on
        /// whether a ring has a bad meeting.
        #[test]
        fn rings_agree_with_brute_force(
            raw in prop::collection::vec((coord(), coord()), 3..14),
        ) {
            let pts: Vec<DVec2> = raw.into_iter().map(|(x, y)| DVec2::new(x, y)).collect();
            let segs = ring(&pts);
            let n = segs.len();
            let ok = ring_allowed(n);
            let brute = (0..n).any(|i| (i + 1..n).any(|j| {
                let hit = segment_intersection(segs[i].0, segs[i].1, segs[j].0, segs[j].1);
                hit != SegmentHit::None && !ok(i, j, &hit)
            }));
            prop_assert_eq!(find_bad_meeting(&segs, ok).is_some(), brute);
        }
    }
}
