//! Which boxes (seen from above) may hold a point: a uniform grid over
//! the boxes' `(x, z)` extent, each cell listing every box that overlaps
//! it. The locator asks it for the polygons under a point; on the small
//! meshes of a game level one cell lookup is cheaper than descending an
//! R-tree.
//!
//! A box holding `q` is always listed in `q`'s cell: cell indices come
//! from `floor((v - origin) / cell)` clamped to the grid, which never
//! decreases as `v` grows, so the cell of a point between a box's ends
//! lies between the cells of those ends. The cells are about as many as
//! the boxes, made coarser while the listings would exceed a few per box
//! (large boxes over each other), so memory stays linear in the boxes.

use glam::DVec2;

/// Listings per box (plus a constant) a grid may hold before it is made
/// coarser.
const LISTINGS_PER_BOX: usize = 8;

/// See the module docs.
#[derive(Clone, Debug)]
pub(crate) struct PlanGrid {
    origin: DVec2,
    cell: f64,
    nx: usize,
    nz: usize,
    /// Cell `c` lists `items[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
}

/// The cell index along one axis of coordinate `v`.
fn index(v: f64, origin: f64, cell: f64, n: usize) -> usize {
    let i = ((v - origin) / cell).floor();
    if i >= (n - 1) as f64 {
        n - 1
    } else if i >= 0.0 {
        i as usize
    } else {
        0
    }
}

impl PlanGrid {
    /// The grid of `boxes` (`(lo, hi)` as `(x, z)` corners, finite, `lo <=
    /// hi`); item `i` is box `i`.
    pub fn new(boxes: &[(DVec2, DVec2)]) -> Self {
        let n = boxes.len();
        let lo = boxes.iter().fold(DVec2::INFINITY, |a, b| a.min(b.0));
        let hi = boxes.iter().fold(DVec2::NEG_INFINITY, |a, b| a.max(b.1));
        let ext = if n == 0 { DVec2::ZERO } else { hi - lo };
        let origin = if n == 0 { DVec2::ZERO } else { lo };
        // About one cell per box; a line of boxes gets cells along it.
        let area = ext.x * ext.y;
        let mut cell = if area > 0.0 {
            (area / n as f64).sqrt()
        } else {
            ext.max_element() / n.max(1) as f64
        };
        if !(cell.is_finite() && cell > 0.0) {
            cell = 1.0;
        }
        let limit = LISTINGS_PER_BOX * n + 64;
        loop {
            let cells = |e: f64| (e / cell).floor().min(limit as f64) as usize + 1;
            let (nx, nz) = (cells(ext.x), cells(ext.y));
            let span = |b: &(DVec2, DVec2)| {
                let x = index(b.1.x, origin.x, cell, nx) - index(b.0.x, origin.x, cell, nx);
                let z = index(b.1.y, origin.y, cell, nz) - index(b.0.y, origin.y, cell, nz);
                (x + 1) * (z + 1)
            };
            let fits = nx * nz <= limit && boxes.iter().map(span).sum::<usize>() <= limit;
            if fits || (nx == 1 && nz == 1) {
                return Self::filled(boxes, origin, cell, nx, nz);
            }
            cell *= 2.0;
        }
    }

    /// The grid with its cells listed (counted first, then filled).
    fn filled(boxes: &[(DVec2, DVec2)], origin: DVec2, cell: f64, nx: usize, nz: usize) -> Self {
        let mut start = vec![0u32; nx * nz + 1];
        let cells_of = |b: &(DVec2, DVec2)| {
            let (x0, x1) = (
                index(b.0.x, origin.x, cell, nx),
                index(b.1.x, origin.x, cell, nx),
            );
            let (z0, z1) = (
                index(b.0.y, origin.y, cell, nz),
                index(b.1.y, origin.y, cell, nz),
            );
            (z0..=z1).flat_map(move |z| (x0..=x1).map(move |x| z * nx + x))
        };
        for b in boxes {
            for c in cells_of(b) {
                start[c + 1] += 1;
            }
        }
        for c in 0..nx * nz {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[nx * nz] as usize];
        for (i, b) in boxes.iter().enumerate() {
            for c in cells_of(b) {
                items[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        Self {
            origin,
            cell,
            nx,
            nz,
            start,
            items,
        }
    }

    /// The boxes listed in `q`'s cell (`q` as `(x, z)`): every box holding
    /// `q`, and others near it, in ascending order.
    pub fn near(&self, q: DVec2) -> &[u32] {
        let x = index(q.x, self.origin.x, self.cell, self.nx);
        let z = index(q.y, self.origin.y, self.cell, self.nz);
        let c = z * self.nx + x;
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// Number of listings, for the memory bound's test.
    #[cfg(test)]
    fn listings(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn holds(b: &(DVec2, DVec2), q: DVec2) -> bool {
        b.0.x <= q.x && q.x <= b.1.x && b.0.y <= q.y && q.y <= b.1.y
    }

    fn check(boxes: &[(DVec2, DVec2)], queries: &[DVec2]) {
        let g = PlanGrid::new(boxes);
        assert!(g.listings() <= LISTINGS_PER_BOX * boxes.len() + 64);
        assert!(g.nx * g.nz <= LISTINGS_PER_BOX * boxes.len() + 64);
        for &q in queries {
            let near = g.near(q);
            for (i, b) in boxes.iter().enumerate() {
                if holds(b, q) {
                    assert!(near.contains(&(i as u32)), "box {i} {b:?} holds {q}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn every_box_holding_a_point_is_listed_in_its_cell(
            raw in proptest::collection::vec(
                ((-50.0f64..50.0, -50.0f64..50.0), (0.0f64..30.0, 0.0f64..30.0)),
                0..40,
            ),
            queries in proptest::collection::vec((-60.0f64..60.0, -60.0f64..60.0), 1..20),
            snap in any::<bool>(),
        ) {
            let boxes: Vec<(DVec2, DVec2)> = raw
                .iter()
                .map(|&((x, z), (w, h))| (DVec2::new(x, z), DVec2::new(x + w, z + h)))
                .collect();
            // Corners and edges of the boxes themselves as queries too.
            let mut qs: Vec<DVec2> = queries.iter().map(|&(x, z)| DVec2::new(x, z)).collect();
            if snap {
                qs.extend(boxes.iter().flat_map(|b| [b.0, b.1, DVec2::new(b.0.x, b.1.y)]));
            }
            check(&boxes, &qs);
        }
    }

    #[test]
    fn degenerate_sets_stay_small_and_complete() {
        let p = DVec2::new(3.0, -2.0);
        // No boxes; one point box; many boxes at one point.
        check(&[], &[p]);
        check(&[(p, p)], &[p, DVec2::ZERO]);
        check(&vec![(p, p); 100], &[p]);
        // A line of boxes (no area), a thin sliver of a map, huge stacked boxes.
        let line: Vec<_> = (0..50)
            .map(|i| (DVec2::new(i as f64, 0.0), DVec2::new(i as f64 + 1.0, 0.0)))
            .collect();
        check(&line, &[DVec2::new(7.5, 0.0), DVec2::new(7.0, 0.0)]);
        let sliver = vec![
            (DVec2::new(0.0, 0.0), DVec2::new(1e6, 1e-6)),
            (DVec2::new(5.0, 0.0), DVec2::new(6.0, 1e-6)),
        ];
        check(&sliver, &[DVec2::new(5.5, 0.0)]);
        let big = (DVec2::splat(-1e3), DVec2::splat(1e3));
        let mut stacked = vec![big; 60];
        stacked.extend((0..60).map(|i| (DVec2::splat(i as f64), DVec2::splat(i as f64 + 0.5))));
        check(&stacked, &[DVec2::splat(10.25), DVec2::splat(-999.0)]);
    }
}
