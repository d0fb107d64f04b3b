//! Walls: the rings bounding free space, in a uniform grid, with the exact
//! line-of-sight test every graph stage uses.
//!
//! Rings keep free space on their left (outer boundaries counter-clockwise,
//! holes clockwise, in plan coordinates). A segment is *clear* when it stays
//! in the closed free space: it may run along a wall or graze a corner, but
//! it may not cross a wall nor pass through a vertex into the obstacle
//! wedge. All side tests are exact (`robust`).

use glam::DVec2;
use navscope_core::geom::{
    Orientation, SegmentHit, orient, orient_value, point_segment_distance, ring_side,
    segment_intersection,
};
use serde::Serialize;

/// Rings of plan points with free space on their left, indexed by a grid.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Walls {
    /// The rings (no closing repeat of the first point).
    pub rings: Vec<Vec<DVec2>>,
    #[serde(skip)]
    grid: Grid,
}

/// A uniform grid of segment ids `(ring, index)` stored as flat lists.
#[derive(Clone, Debug, Default)]
struct Grid {
    lo: DVec2,
    cell: f64,
    nx: usize,
    ny: usize,
    start: Vec<u32>,
    items: Vec<(u32, u32)>,
}

impl Grid {
    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        let cx = ((p.x - self.lo.x) / self.cell).floor();
        let cy = ((p.y - self.lo.y) / self.cell).floor();
        (
            cx.clamp(0.0, (self.nx - 1) as f64) as usize,
            cy.clamp(0.0, (self.ny - 1) as f64) as usize,
        )
    }
}

impl Walls {
    /// Indexes `rings` (each of at least three points).
    pub fn new(rings: Vec<Vec<DVec2>>) -> Self {
        let rings: Vec<Vec<DVec2>> = rings.into_iter().filter(|r| r.len() >= 2).collect();
        let mut lo = DVec2::splat(f64::INFINITY);
        let mut hi = DVec2::splat(f64::NEG_INFINITY);
        let mut n = 0usize;
        let mut total = 0.0;
        for r in &rings {
            for (i, p) in r.iter().enumerate() {
                lo = lo.min(*p);
                hi = hi.max(*p);
                total += p.distance(r[(i + 1) % r.len()]);
                n += 1;
            }
        }
        if n == 0 {
            return Self {
                rings,
                grid: Grid {
                    lo: DVec2::ZERO,
                    cell: 1.0,
                    nx: 1,
                    ny: 1,
                    start: vec![0, 0],
                    items: vec![],
                },
            };
        }
        let extent = (hi - lo).max(DVec2::splat(1e-9));
        let max_axis = (2.0 * (n as f64).sqrt()).ceil().max(1.0);
        let cell = (total / n as f64)
            .max(extent.x / max_axis)
            .max(extent.y / max_axis)
            .max(1e-9);
        let nx = ((extent.x / cell).floor() as usize + 1).max(1);
        let ny = ((extent.y / cell).floor() as usize + 1).max(1);
        let mut grid = Grid {
            lo,
            cell,
            nx,
            ny,
            start: vec![0; nx * ny + 1],
            items: Vec::new(),
        };
        // Two passes: count, then fill (a CSR layout).
        let visit = |grid: &Grid, f: &mut dyn FnMut(usize, (u32, u32))| {
            for (ri, r) in rings.iter().enumerate() {
                for i in 0..r.len() {
                    let (a, b) = (r[i], r[(i + 1) % r.len()]);
                    let (x0, y0) = grid.cell_of(a.min(b));
                    let (x1, y1) = grid.cell_of(a.max(b));
                    for y in y0..=y1 {
                        for x in x0..=x1 {
                            f(y * grid.nx + x, (ri as u32, i as u32));
                        }
                    }
                }
            }
        };
        let mut counts = vec![0u32; nx * ny];
        visit(&grid, &mut |c, _| counts[c] += 1);
        let mut acc = 0u32;
        for (i, c) in counts.iter().enumerate() {
            grid.start[i] = acc;
            acc += c;
        }
        grid.start[nx * ny] = acc;
        let mut fill = grid.start.clone();
        let mut items = vec![(0u32, 0u32); acc as usize];
        visit(&grid, &mut |c, id| {
            items[fill[c] as usize] = id;
            fill[c] += 1;
        });
        grid.items = items;
        Self { rings, grid }
    }

    /// Number of wall segments.
    pub fn segment_count(&self) -> usize {
        self.rings.iter().map(Vec::len).sum()
    }

    /// The segment `(ring, index)`.
    pub fn segment(&self, id: (u32, u32)) -> (DVec2, DVec2) {
        let r = &self.rings[id.0 as usize];
        (r[id.1 as usize], r[(id.1 as usize + 1) % r.len()])
    }

    /// Calls `f` with every segment whose cells meet the box `lo..hi`
    /// (possibly more than once).
    fn for_each_in_box(&self, lo: DVec2, hi: DVec2, f: &mut dyn FnMut((u32, u32)) -> bool) -> bool {
        let (x0, y0) = self.grid.cell_of(lo);
        let (x1, y1) = self.grid.cell_of(hi);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.grid.nx + x;
                for &id in
                    &self.grid.items[self.grid.start[c] as usize..self.grid.start[c + 1] as usize]
                {
                    if f(id) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Calls `f` with every segment entered in a cell that the segment `ab`
    /// passes through (possibly more than once), walking the grid column by
    /// column from `a` towards `b`, so a blocked sight line stops at the
    /// first wall instead of scanning its whole bounding box. Each column
    /// visits the rows of the segment's span there, widened by a millionth
    /// of a cell so rounding cannot skip a cell the segment touches; a wall
    /// that meets `ab` is entered in the cell holding the meeting point.
    fn for_each_on_segment(
        &self,
        a: DVec2,
        b: DVec2,
        f: &mut dyn FnMut((u32, u32)) -> bool,
    ) -> bool {
        let g = &self.grid;
        let pad = g.cell * 1e-6;
        let (ax, _) = g.cell_of(a);
        let (bx, _) = g.cell_of(b);
        let (sx0, sx1) = (a.x.min(b.x), a.x.max(b.x));
        let y_at = |x: f64| {
            if a.x == b.x {
                a.y
            } else {
                a.y + ((x - a.x) / (b.x - a.x)).clamp(0.0, 1.0) * (b.y - a.y)
            }
        };
        // Columns from a's towards b's, rows in the direction of b.y, by
        // stepping indices (no iterator objects: this runs for every
        // column of every sight line).
        for i in 0..=ax.abs_diff(bx) {
            let x = if bx >= ax { ax + i } else { ax - i };
            // The border columns hold every point beyond the grid too.
            let x_lo = if x == 0 {
                f64::NEG_INFINITY
            } else {
                g.lo.x + x as f64 * g.cell - pad
            };
            let x_hi = if x + 1 == g.nx {
                f64::INFINITY
            } else {
                g.lo.x + (x + 1) as f64 * g.cell + pad
            };
            let (c0, c1) = (x_lo.max(sx0), x_hi.min(sx1));
            let (y0, y1) = if a.x == b.x {
                (a.y.min(b.y), a.y.max(b.y))
            } else {
                let (p, q) = (y_at(c0), y_at(c1));
                (p.min(q), p.max(q))
            };
            let (_, r0) = g.cell_of(DVec2::new(a.x, y0 - pad));
            let (_, r1) = g.cell_of(DVec2::new(a.x, y1 + pad));
            for j in 0..=r1 - r0 {
                let y = if b.y >= a.y { r0 + j } else { r1 - j };
                let c = y * g.nx + x;
                for &id in &g.items[g.start[c] as usize..g.start[c + 1] as usize] {
                    if f(id) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// True when the direction from ring vertex `(ring, i)` towards point
    /// `t` points strictly into the obstacle wedge there. (`t` is a given
    /// point, not `v + d`, so that the side tests stay exact.)
    fn enters_at_vertex(&self, ring: usize, i: usize, t: DVec2) -> bool {
        let r = &self.rings[ring];
        let v = r[i];
        let u = r[(i + r.len() - 1) % r.len()];
        let w = r[(i + 1) % r.len()];
        // Obstacle wedge: from (w - v) clockwise round to (u - v), i.e. to
        // the right of u -> v -> w.
        let right_of_out = orient(v, w, t) == Orientation::Clockwise;
        let right_of_in = orient(u, v, t) == Orientation::Clockwise;
        if orient_value(u, v, w) > 0.0 {
            // Convex corner: the obstacle is the reflex side.
            right_of_out || right_of_in
        } else {
            right_of_out && right_of_in
        }
    }

    /// True when point `t` lies strictly right of the wall segment `(a, b)`
    /// (leaving a point of the segment towards `t` enters the obstacle).
    fn enters_at_edge(a: DVec2, b: DVec2, t: DVec2) -> bool {
        orient(a, b, t) == Orientation::Clockwise
    }

    /// True when the segment `ab` stays in the closed free space (assuming
    /// `a` is in it). See the module docs.
    pub fn clear(&self, a: DVec2, b: DVec2) -> bool {
        if a == b {
            return true;
        }
        !self.for_each_on_segment(a, b, &mut |id| self.blocks(a, b, id))
    }

    /// True when the wall segment `id` stops the sight line `ab` (crosses
    /// it, or is touched by it with `ab` entering the obstacle there).
    pub(crate) fn blocks(&self, a: DVec2, b: DVec2, id: (u32, u32)) -> bool {
        let (c, e) = self.segment(id);
        let (ri, si) = (id.0 as usize, id.1 as usize);
        let o1 = orient(a, b, c);
        let o2 = orient(a, b, e);
        let o3 = orient(c, e, a);
        let o4 = orient(c, e, b);
        use Orientation::Collinear as Col;
        if o1 != Col && o2 != Col && o3 != Col && o4 != Col {
            return o1 != o2 && o3 != o4;
        }
        // Touching: wall vertex c on ab, or a / b on the wall.
        let on = |p: DVec2, q0: DVec2, q1: DVec2| {
            p.x >= q0.x.min(q1.x)
                && p.x <= q0.x.max(q1.x)
                && p.y >= q0.y.min(q1.y)
                && p.y <= q0.y.max(q1.y)
        };
        if o1 == Col && on(c, a, b) {
            // The wall vertex c (vertex si of ring ri) lies on ab.
            if c != b && self.enters_at_vertex(ri, si, b) {
                return true;
            }
            if c != a && self.enters_at_vertex(ri, si, a) {
                return true;
            }
        }
        if o3 == Col && on(a, c, e) && a != c && a != e && Self::enters_at_edge(c, e, b) {
            return true;
        }
        if o4 == Col && on(b, c, e) && b != c && b != e && Self::enters_at_edge(c, e, a) {
            return true;
        }
        false
    }

    /// Segments that meet another segment other than at the endpoint two
    /// consecutive segments of a ring share (crossings, touches, overlaps),
    /// sorted and without repeats.
    pub(crate) fn conflicts(&self) -> Vec<(u32, u32)> {
        let mut bad = Vec::new();
        for (ri, r) in self.rings.iter().enumerate() {
            let n = r.len();
            for si in 0..n {
                let (a, b) = self.segment((ri as u32, si as u32));
                self.for_each_in_box(a.min(b), a.max(b), &mut |id| {
                    let (oi, oj) = (id.0 as usize, id.1 as usize);
                    if (oi, oj) <= (ri, si) {
                        return false;
                    }
                    let (c, d) = self.segment(id);
                    let hit = segment_intersection(a, b, c, d);
                    let clash = match hit {
                        SegmentHit::None => false,
                        SegmentHit::Overlap(..) => true,
                        SegmentHit::Point(p) => {
                            let next = oi == ri && oj == (si + 1) % n;
                            let prev = oi == ri && (oj + 1) % n == si;
                            !((next && p == b && a != d) || (prev && p == a && b != c))
                        }
                    };
                    if clash {
                        bad.push((ri as u32, si as u32));
                        bad.push(id);
                    }
                    false
                });
            }
        }
        bad.sort_unstable();
        bad.dedup();
        bad
    }

    /// Rings crossed an odd number of times by the ray from `p` towards +x
    /// (half-open rule on the ray's height): the rings whose interior holds
    /// `p` when `p` is on none of them. Sorted.
    #[cfg(test)]
    pub(crate) fn odd_rings(&self, p: DVec2) -> Vec<u32> {
        let mut hits: Vec<(u32, u32)> = Vec::new();
        let far = DVec2::new(
            self.grid.lo.x + self.grid.cell * self.grid.nx as f64 + 1.0,
            p.y,
        );
        if p.y < self.grid.lo.y || p.y > self.grid.lo.y + self.grid.cell * self.grid.ny as f64 {
            return Vec::new();
        }
        self.for_each_in_box(p, far.max(p), &mut |id| {
            let (a, b) = self.segment(id);
            if navscope_core::geom::ray_crosses_edge(a, b, p) {
                hits.push(id);
            }
            false
        });
        hits.sort_unstable();
        hits.dedup();
        let mut odd: Vec<u32> = Vec::new();
        let mut k = 0;
        while k < hits.len() {
            let r = hits[k].0;
            let mut c = 0;
            while k < hits.len() && hits[k].0 == r {
                c += 1;
                k += 1;
            }
            if c % 2 == 1 {
                odd.push(r);
            }
        }
        odd
    }

    /// True when some wall vertex lies strictly inside the triangle `abc`
    /// (either winding).
    pub fn vertex_inside(&self, a: DVec2, b: DVec2, c: DVec2) -> bool {
        self.for_each_in_box(a.min(b).min(c), a.max(b).max(c), &mut |id| {
            strictly_inside([a, b, c], self.segment(id).0)
        })
    }

    /// True when the whole triangle `abc` (free, as a triangulation face
    /// is) is visible from `p`: the union of the segments from `p` to its
    /// points, the convex hull of `p` and the triangle, stays free.
    pub fn sees_triangle(&self, p: DVec2, [a, b, c]: [DVec2; 3]) -> bool {
        self.clear(p, a)
            && self.clear(p, b)
            && self.clear(p, c)
            && !self.vertex_inside(p, a, b)
            && !self.vertex_inside(p, b, c)
            && !self.vertex_inside(p, c, a)
    }

    /// True when `p` lies in the closed free space: not strictly inside the
    /// obstacle side (crossing-number parity over all rings, boundary counts
    /// as free).
    pub fn free(&self, p: DVec2) -> bool {
        let mut inside = false;
        for r in &self.rings {
            match ring_side(r, p) {
                None => return true,
                Some(odd) => inside ^= odd,
            }
        }
        inside
    }
}

/// True when `p` lies strictly inside the triangle `abc` (either winding;
/// never for a degenerate triangle). Exact.
pub fn strictly_inside([a, b, c]: [DVec2; 3], p: DVec2) -> bool {
    let s = orient_value(a, b, c);
    if s == 0.0 {
        return false;
    }
    let (a, b) = if s > 0.0 { (a, b) } else { (b, a) };
    orient_value(a, b, p) > 0.0 && orient_value(b, c, p) > 0.0 && orient_value(c, a, p) > 0.0
}

/// True when the segment `cd` enters the interior of the corridor between
/// the disks `(a, ra)` and `(b, rb)`: their convex hull, bounded by the
/// outer mutual tangents (the article's "2D cylinder with the bases at the
/// nodes"). Touching the boundary does not count; `eps` (metres) absorbs
/// rounding.
pub fn corridor_hits(a: DVec2, ra: f64, b: DVec2, rb: f64, c: DVec2, d: DVec2, eps: f64) -> bool {
    if point_segment_distance(c, d, a) < ra - eps || point_segment_distance(c, d, b) < rb - eps {
        return true;
    }
    let dist = a.distance(b);
    if dist <= (ra - rb).abs() {
        // One disk holds the other: the hull is the bigger disk.
        return false;
    }
    let u = (b - a) / dist;
    let cos = (ra - rb) / dist;
    let sin = (1.0 - cos * cos).max(0.0).sqrt();
    let (n1, n2) = (u * cos + u.perp() * sin, u * cos - u.perp() * sin);
    // Counter-clockwise: right tangent from a to b, then the left one back.
    let quad = [a + ra * n2, b + rb * n2, b + rb * n1, a + ra * n1];
    // Cyrus-Beck: clip cd to the quad shrunk by eps.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let dir = d - c;
    for k in 0..4 {
        let (e0, e1) = (quad[k], quad[(k + 1) % 4]);
        let len = e0.distance(e1);
        if len == 0.0 {
            continue;
        }
        let inward = (e1 - e0).perp() / len;
        let (num, den) = ((c - e0).dot(inward) - eps, dir.dot(inward));
        if den == 0.0 {
            if num <= 0.0 {
                return false;
            }
        } else if den > 0.0 {
            lo = lo.max(-num / den);
        } else {
            hi = hi.min(-num / den);
        }
        if lo >= hi {
            return false;
        }
    }
    true
}

impl Walls {
    /// True when no wall enters the corridor between the disks `(a, ra)`
    /// and `(b, rb)` ([`corridor_hits`], rounding allowance a millionth of
    /// the corridor's size).
    pub fn corridor_clear(&self, a: DVec2, ra: f64, b: DVec2, rb: f64) -> bool {
        let eps = 1e-6 * (a.distance(b) + ra + rb).max(f64::MIN_POSITIVE);
        let lo = (a - DVec2::splat(ra)).min(b - DVec2::splat(rb));
        let hi = (a + DVec2::splat(ra)).max(b + DVec2::splat(rb));
        !self.for_each_in_box(lo, hi, &mut |id| {
            let (c, d) = self.segment(id);
            corridor_hits(a, ra, b, rb, c, d, eps)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::reference_clear;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// A 10 x 10 room (ccw) with a 2 x 2 pillar (cw) at 4..6.
    fn room() -> Walls {
        Walls::new(vec![
            vec![v(0., 0.), v(10., 0.), v(10., 10.), v(0., 10.)],
            vec![v(4., 4.), v(4., 6.), v(6., 6.), v(6., 4.)],
        ])
    }

    #[test]
    fn crossing_a_pillar_is_blocked_and_going_round_is_clear() {
        let w = room();
        assert!(!w.clear(v(1., 5.), v(9., 5.)));
        assert!(w.clear(v(1., 1.), v(9., 1.)));
        // Along the pillar's side, touching its corners.
        assert!(w.clear(v(1., 4.), v(9., 4.)));
        // Through a pillar corner diagonally into it.
        assert!(!w.clear(v(3., 3.), v(5., 5.)));
        // Grazing the corner diagonally past it.
        assert!(w.clear(v(3., 5.), v(5., 3.)));
        // Leaving the room.
        assert!(!w.clear(v(5., 1.), v(5., -1.)));
        // From a wall point straight out into the obstacle.
        assert!(!w.clear(v(5., 0.), v(5., -1.)));
        assert!(w.clear(v(5., 0.), v(5., 2.)));
    }

    #[test]
    fn free_points() {
        let w = room();
        assert!(w.free(v(1., 1.)));
        assert!(!w.free(v(5., 5.)));
        assert!(w.free(v(4., 5.)), "boundary is free");
        assert!(!w.free(v(11., 5.)));
    }

    #[test]
    fn running_along_a_wall_in_reverse_is_clear() {
        // Found by the property test: v + (a - v) is not exactly a in f64.
        let a = v(1.9000000000000001, -0.1);
        let b = v(1.9000000000000001, -0.6000000000000001);
        let c = v(2.0, -0.6000000000000001);
        let w = Walls::new(vec![vec![a, b, c]]);
        assert!(w.clear(a, c) && w.clear(c, a) && w.clear(a, b) && w.clear(b, c));
    }

    #[test]
    fn empty_walls_block_nothing() {
        let w = Walls::new(vec![]);
        assert!(w.clear(v(0., 0.), v(1e9, -1e9)));
        assert_eq!(w.segment_count(), 0);
    }

    /// A room with square pillars at random grid spots (some touching a
    /// wall or each other at a corner), for comparing the grid walk with
    /// brute force.
    fn pillars(spots: &[(u8, u8, u8)]) -> Walls {
        let mut rings = vec![vec![v(0., 0.), v(24., 0.), v(24., 24.), v(0., 24.)]];
        for &(x, y, s) in spots {
            let (x, y, s) = (
                f64::from(x % 22),
                f64::from(y % 22),
                f64::from(s % 3 + 1) * 0.5,
            );
            rings.push(vec![v(x, y), v(x, y + s), v(x + s, y + s), v(x + s, y)]);
        }
        Walls::new(rings)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Walking the grid along the segment gives the answer that testing
        /// every wall gives, also for segments through corners, along
        /// walls and beyond the grid.
        #[test]
        fn the_grid_walk_equals_brute_force(
            spots in proptest::collection::vec((0u8..22, 0u8..22, 0u8..3), 0..40),
            ends in proptest::collection::vec((-4i32..56, -4i32..56, -4i32..56, -4i32..56), 1..30),
        ) {
            let w = pillars(&spots);
            for (ax, ay, bx, by) in ends {
                // Half-metre steps hit corners and walls exactly.
                let (a, b) = (v(f64::from(ax) * 0.5, f64::from(ay) * 0.5), v(f64::from(bx) * 0.5, f64::from(by) * 0.5));
                proptest::prop_assert_eq!(w.clear(a, b), reference_clear(&w, a, b), "{:?} {:?}", a, b);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// The corridor is the union of the disks interpolated between the
        /// two ends (centre and radius): a segment enters it exactly when
        /// some point of the segment is inside one of them (checked on a
        /// fine grid of both parameters, with its resolution as margin).
        #[test]
        fn corridor_is_the_hull_of_the_two_disks(a in (0.0f64..10.0, 0.0f64..10.0), ra in 0.0f64..3.0, b in (0.0f64..10.0, 0.0f64..10.0), rb in 0.0f64..3.0, c in (-2.0f64..12.0, -2.0f64..12.0), d in (-2.0f64..12.0, -2.0f64..12.0)) {
            let (a, b, c, d) = (v(a.0, a.1), v(b.0, b.1), v(c.0, c.1), v(d.0, d.1));
            let n = 300;
            let mut min = f64::INFINITY;
            for i in 0..=n {
                let t = i as f64 / n as f64;
                let (o, r) = (a.lerp(b, t), ra + (rb - ra) * t);
                min = min.min(point_segment_distance(c, d, o) - r);
            }
            let slack = 2.0 * (a.distance(b) + (ra - rb).abs()) / n as f64 + 1e-6;
            let hits = corridor_hits(a, ra, b, rb, c, d, 1e-9);
            if min < -slack {
                proptest::prop_assert!(hits, "min {min}");
            }
            if min > slack {
                proptest::prop_assert!(!hits, "min {min}");
            }
        }
    }

    #[test]
    fn corridors_of_unequal_disks_taper() {
        // Disks of radius 2 at (0, 0) and 0.5 at (10, 0): a wall at y = 1.5
        // near the small end is clear, near the big end it is not.
        let (a, b) = (v(0., 0.), v(10., 0.));
        assert!(!corridor_hits(
            a,
            2.0,
            b,
            0.5,
            v(8., 1.5),
            v(12., 1.5),
            1e-9
        ));
        assert!(corridor_hits(a, 2.0, b, 0.5, v(1., 1.5), v(3., 1.5), 1e-9));
        // A segment crossing the middle, and one fully inside.
        assert!(corridor_hits(a, 2.0, b, 0.5, v(5., -5.), v(5., 5.), 1e-9));
        assert!(corridor_hits(a, 2.0, b, 0.5, v(4., 0.1), v(6., 0.1), 1e-9));
        // Tangent to the big disk from outside: touching is allowed.
        assert!(!corridor_hits(
            a,
            2.0,
            b,
            0.5,
            v(-3., -2.),
            v(-1., -2.),
            1e-9
        ));
        // Nested disks: the hull is the bigger one.
        assert!(!corridor_hits(
            a,
            3.0,
            v(1., 0.),
            1.0,
            v(-5., 3.5),
            v(5., 3.5),
            1e-9
        ));
        let w = room();
        assert!(w.corridor_clear(v(1., 1.), 0.5, v(9., 1.), 0.5));
        assert!(!w.corridor_clear(v(1., 2.), 0.5, v(9., 2.), 2.5));
    }
}
