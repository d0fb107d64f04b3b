//! A uniform grid over the segments of the graph, so that the closest
//! element inside a notch's area of interest is found by visiting only the
//! grid cells that meet the wedge, nearest first, instead of every segment
//! (the paper's O(r n) search).
//!
//! Each segment is listed in every cell its line passes through. Removed
//! segments stay listed; the search skips dead ones.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::DVec2;

use crate::cone::Cone;

/// The grid.
#[derive(Clone, Debug)]
pub struct SegmentGrid {
    lo: DVec2,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
    visited: Vec<u32>,
    seg_seen: Vec<u32>,
    query: u32,
}

impl SegmentGrid {
    /// A grid over the box `lo..hi` sized for about `n` segments: roughly
    /// one segment per cell, at most 2048 cells a side.
    pub fn new(lo: DVec2, hi: DVec2, n: usize) -> Self {
        let ext = (hi - lo).max(DVec2::splat(1e-9));
        let n = n.max(1) as f64;
        let mut cell = (ext.x * ext.y / n).sqrt();
        cell = cell.max(ext.x / 2048.0).max(ext.y / 2048.0);
        if !(cell.is_finite() && cell > 0.0) {
            cell = ext.x.max(ext.y);
        }
        let nx = ((ext.x / cell).ceil() as usize).clamp(1, 2048);
        let ny = ((ext.y / cell).ceil() as usize).clamp(1, 2048);
        Self {
            lo,
            cell,
            nx,
            ny,
            cells: vec![Vec::new(); nx * ny],
            visited: vec![0; nx * ny],
            seg_seen: Vec::new(),
            query: 0,
        }
    }

    fn ix(&self, v: f64, o: f64, n: usize) -> usize {
        let i = ((v - o) / self.cell).floor();
        if i.is_nan() || i < 0.0 {
            0
        } else {
            (i as usize).min(n - 1)
        }
    }

    fn cell_box(&self, x: usize, y: usize) -> (DVec2, DVec2) {
        let lo = self.lo + DVec2::new(x as f64, y as f64) * self.cell;
        (lo, lo + DVec2::splat(self.cell))
    }

    /// The cell columns and rows of the box around segment `a b`, clamped
    /// to the grid.
    fn box_cells(
        &self,
        a: DVec2,
        b: DVec2,
    ) -> (
        std::ops::RangeInclusive<usize>,
        std::ops::RangeInclusive<usize>,
    ) {
        (
            self.ix(a.x.min(b.x), self.lo.x, self.nx)..=self.ix(a.x.max(b.x), self.lo.x, self.nx),
            self.ix(a.y.min(b.y), self.lo.y, self.ny)..=self.ix(a.y.max(b.y), self.lo.y, self.ny),
        )
    }

    /// Whether the line through `a b` meets cell `(x, y)` grown by a
    /// millionth of a cell: false only when all its corners are strictly on
    /// one side of the line.
    fn line_meets_cell(&self, x: usize, y: usize, a: DVec2, b: DVec2) -> bool {
        let d = b - a;
        let pad = self.cell * 1e-6;
        let (lo, hi) = self.cell_box(x, y);
        let (lo, hi) = (lo - pad, hi + pad);
        let s = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)].map(|c| d.perp_dot(c - a));
        !(s.iter().all(|v| *v > 0.0) || s.iter().all(|v| *v < 0.0))
    }

    /// Lists segment `id` from `a` to `b` in every cell it passes through,
    /// and always in the only cell of its box when there is just one (so a
    /// segment clamped in from outside the grid is still listed).
    pub fn insert(&mut self, id: u32, a: DVec2, b: DVec2) {
        let (xs, ys) = self.box_cells(a, b);
        let only = xs.start() == xs.end() && ys.start() == ys.end();
        for y in ys {
            for x in xs.clone() {
                if self.line_meets_cell(x, y, a, b) || only {
                    self.cells[y * self.nx + x].push(id);
                }
            }
        }
    }

    /// Segments listed in cells the segment `a b` passes through (each id
    /// once, dead ones included), for clearance tests.
    pub fn near_segment(&mut self, a: DVec2, b: DVec2, out: &mut Vec<u32>) {
        out.clear();
        self.next_query();
        let (xs, ys) = self.box_cells(a, b);
        for y in ys {
            for x in xs.clone() {
                if !self.line_meets_cell(x, y, a, b) {
                    continue;
                }
                for &id in &self.cells[y * self.nx + x] {
                    let i = id as usize;
                    if i >= self.seg_seen.len() {
                        self.seg_seen.resize(i + 1, 0);
                    }
                    if self.seg_seen[i] != self.query {
                        self.seg_seen[i] = self.query;
                        out.push(id);
                    }
                }
            }
        }
    }

    fn next_query(&mut self) {
        self.query = self.query.wrapping_add(1);
        if self.query == 0 {
            self.visited.iter_mut().for_each(|v| *v = 0);
            self.seg_seen.iter_mut().for_each(|v| *v = 0);
            self.query = 1;
        }
    }

    /// Visits the segments listed in the cells that may meet `cone`, in
    /// order of the cells' distance from the apex. `visit(id)` returns the
    /// squared distance of the best hit so far; the search stops once the
    /// next cell is farther than that. Each segment is visited once.
    pub fn search_cone(&mut self, cone: &Cone, mut visit: impl FnMut(u32) -> f64) {
        self.next_query();
        let q = self.query;
        let apex = cone.apex;
        let start = (
            self.ix(apex.x, self.lo.x, self.nx),
            self.ix(apex.y, self.lo.y, self.ny),
        );
        let mut heap = BinaryHeap::new();
        let si = start.1 * self.nx + start.0;
        self.visited[si] = q;
        heap.push(Reverse((0u64, si)));
        let mut best = f64::INFINITY;
        while let Some(Reverse((key, ci))) = heap.pop() {
            if f64::from_bits(key) > best {
                break;
            }
            for k in 0..self.cells[ci].len() {
                let id = self.cells[ci][k];
                let i = id as usize;
                if i >= self.seg_seen.len() {
                    self.seg_seen.resize(i + 1, 0);
                }
                if self.seg_seen[i] == q {
                    continue;
                }
                self.seg_seen[i] = q;
                best = best.min(visit(id));
            }
            let (cx, cy) = (ci % self.nx, ci / self.nx);
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (x, y) = (cx as i64 + dx, cy as i64 + dy);
                    if x < 0 || y < 0 || x >= self.nx as i64 || y >= self.ny as i64 {
                        continue;
                    }
                    let ni = y as usize * self.nx + x as usize;
                    if self.visited[ni] == q {
                        continue;
                    }
                    self.visited[ni] = q;
                    let (lo, hi) = self.cell_box(x as usize, y as usize);
                    if !cone.may_touch_box(lo, hi) {
                        continue;
                    }
                    let nearest = apex.clamp(lo, hi);
                    let d2 = nearest.distance_squared(apex);
                    heap.push(Reverse((d2.to_bits(), ni)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_visits_nearby_wedge_cells_first_and_stops() {
        let mut g = SegmentGrid::new(DVec2::ZERO, DVec2::splat(100.0), 100);
        // Horizontal walls at y = 10, 50, 90 spanning the box.
        for (i, y) in [10.0, 50.0, 90.0].iter().enumerate() {
            g.insert(i as u32, DVec2::new(0.0, *y), DVec2::new(100.0, *y));
        }
        // A wedge opening upwards from (50, 5).
        let cone = Cone::of_corner(
            DVec2::new(45.0, 0.0),
            DVec2::new(50.0, 5.0),
            DVec2::new(55.0, 0.0),
            0.0,
        );
        let mut seen = Vec::new();
        g.search_cone(&cone, |id| {
            seen.push(id);
            if id == 0 { 25.0 } else { f64::INFINITY }
        });
        assert_eq!(seen, vec![0], "the far walls are never looked at");
        let mut near = Vec::new();
        g.near_segment(DVec2::new(10.0, 40.0), DVec2::new(10.0, 60.0), &mut near);
        assert_eq!(near, vec![1]);
    }
}
