//! Brute-force Euclidean shortest paths among blocked grid cells: Dijkstra
//! over the visibility graph of every grid point plus the two ends. The
//! free space is the union of the open 1 m cells of a `w` x `h` grid (cell
//! `(i, j)` covers `x` in `[i, i + 1]`, `z` in `[j, j + 1]`), the same
//! floor plan as `navscope_path::sample::grid_mesh`.

use glam::DVec2;

/// Blocked cells of a grid, as the free space's complement.
#[derive(Clone, Debug)]
pub struct Grid {
    pub w: usize,
    pub h: usize,
    pub blocked: Vec<bool>,
}

impl Grid {
    pub fn is_blocked(&self, i: usize, j: usize) -> bool {
        self.blocked[j * self.w + i]
    }

    /// True when the closed segment `a b` (plan `(x, z)`) stays in the
    /// closed free space: cut at every grid line it crosses, the middle of
    /// each piece lies in a free cell (on its boundary counts).
    pub fn segment_free(&self, a: DVec2, b: DVec2) -> bool {
        let mut cuts = vec![0.0, 1.0];
        let d = b - a;
        for (p, dp, n) in [(a.x, d.x, self.w), (a.y, d.y, self.h)] {
            if dp != 0.0 {
                for k in 0..=n {
                    let t = (k as f64 - p) / dp;
                    if t > 0.0 && t < 1.0 {
                        cuts.push(t);
                    }
                }
            }
        }
        cuts.sort_by(f64::total_cmp);
        cuts.windows(2)
            .all(|w| self.point_free(a + d * ((w[0] + w[1]) * 0.5)))
            && self.point_free(a)
            && self.point_free(b)
    }

    /// True when `p` lies in a free closed cell.
    fn point_free(&self, p: DVec2) -> bool {
        let e = 1e-9;
        let cells = |v: f64, n: usize| {
            [(v - e).floor(), (v + e).floor()]
                .into_iter()
                .filter(move |c| *c >= 0.0 && (*c as usize) < n)
                .map(|c| c as usize)
        };
        cells(p.x, self.w).any(|i| cells(p.y, self.h).any(|j| !self.is_blocked(i, j)))
    }

    /// Length of the shortest path from `s` to `t` in the free space, or
    /// `None` when there is none.
    pub fn shortest(&self, s: DVec2, t: DVec2) -> Option<f64> {
        let mut pts = vec![s, t];
        for j in 0..=self.h {
            for i in 0..=self.w {
                pts.push(DVec2::new(i as f64, j as f64));
            }
        }
        let n = pts.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        dist[0] = 0.0;
        loop {
            let u = (0..n)
                .filter(|k| !done[*k] && dist[*k].is_finite())
                .min_by(|a, b| dist[*a].total_cmp(&dist[*b]))?;
            if u == 1 {
                return Some(dist[1]);
            }
            done[u] = true;
            for v in 0..n {
                if !done[v] && self.segment_free(pts[u], pts[v]) {
                    let d = dist[u] + pts[u].distance(pts[v]);
                    if d < dist[v] {
                        dist[v] = d;
                    }
                }
            }
        }
    }
}
