//! Mazes on a grid and the tracing of a binary grid into polygon rings.

use glam::DVec2;

use super::rng::SplitMix64;

/// A `w x h` cell maze: a random spanning tree (iterative depth-first
/// search) with a few extra walls knocked out so that it has loops, and so
/// wall islands that become holes.
pub(crate) struct Maze {
    w: usize,
    h: usize,
    /// Wall between cell (x, y) and (x + 1, y), indexed `y * w + x`.
    east: Vec<bool>,
    /// Wall between cell (x, y) and (x, y + 1), indexed `y * w + x`.
    north: Vec<bool>,
}

impl Maze {
    /// A maze of `w x h` cells (each at least 1); `braid` is the chance that
    /// a wall left by the spanning tree is removed.
    pub fn new(rng: &mut SplitMix64, w: usize, h: usize, braid: f64) -> Self {
        let (w, h) = (w.max(1), h.max(1));
        let mut m = Maze {
            w,
            h,
            east: vec![true; w * h],
            north: vec![true; w * h],
        };
        let mut seen = vec![false; w * h];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(&c) = stack.last() {
            let (x, y) = (c % w, c / w);
            let mut options = [(0usize, 0usize, 0u8); 4];
            let mut n = 0;
            if x + 1 < w && !seen[c + 1] {
                options[n] = (c + 1, c, 0);
                n += 1;
            }
            if x > 0 && !seen[c - 1] {
                options[n] = (c - 1, c - 1, 0);
                n += 1;
            }
            if y + 1 < h && !seen[c + w] {
                options[n] = (c + w, c, 1);
                n += 1;
            }
            if y > 0 && !seen[c - w] {
                options[n] = (c - w, c - w, 1);
                n += 1;
            }
            if n == 0 {
                stack.pop();
                continue;
            }
            let (next, wall, dir) = options[rng.int(0, n as u64 - 1) as usize];
            if dir == 0 {
                m.east[wall] = false;
            } else {
                m.north[wall] = false;
            }
            seen[next] = true;
            stack.push(next);
        }
        for y in 0..h {
            for x in 0..w {
                let c = y * w + x;
                if x + 1 < w && m.east[c] && rng.chance(braid) {
                    m.east[c] = false;
                }
                if y + 1 < h && m.north[c] && rng.chance(braid) {
                    m.north[c] = false;
                }
            }
        }
        m
    }

    /// Size of the wall grid: `(2w + 1) x (2h + 1)`.
    pub fn grid_size(&self) -> (usize, usize) {
        (2 * self.w + 1, 2 * self.h + 1)
    }

    /// True when wall-grid square `(i, j)` is solid: posts at even/even,
    /// cells at odd/odd are free, walls between according to the maze; the
    /// border is solid.
    pub fn solid(&self, i: usize, j: usize) -> bool {
        let (nx, ny) = self.grid_size();
        if i >= nx || j >= ny || i == 0 || j == 0 || i == nx - 1 || j == ny - 1 {
            return true;
        }
        match (i % 2, j % 2) {
            (0, 0) => true,
            (1, 1) => false,
            (0, _) => self.east[(j / 2) * self.w + i / 2 - 1],
            _ => self.north[(j / 2 - 1) * self.w + i / 2],
        }
    }
}

/// Positions of the grid lines when even rows/columns are `wall` wide and
/// odd ones `cell` wide: `n + 1` values from 0.
pub(crate) fn grid_lines(n: usize, wall: f64, cell: f64) -> Vec<f64> {
    let mut v = Vec::with_capacity(n + 1);
    let mut acc = 0.0;
    v.push(acc);
    for i in 0..n {
        acc += if i % 2 == 0 { wall } else { cell };
        v.push(acc);
    }
    v
}

/// The boundary rings of the free squares of an `nx x ny` grid (outside
/// counts as solid), free space on the left: outer boundaries
/// counter-clockwise, holes clockwise. Square `(i, j)` spans `xs[i]..xs[i+1]`
/// by `ys[j]..ys[j+1]`. Only straight-through vertices are dropped, so every
/// returned vertex is a corner. The grid must have no "checkerboard" 2x2
/// block (two free squares meeting only at a corner); the maze grid never
/// has one because its posts are solid and its cells free.
pub(crate) fn trace_free(
    nx: usize,
    ny: usize,
    solid: impl Fn(usize, usize) -> bool,
    xs: &[f64],
    ys: &[f64],
) -> Vec<Vec<DVec2>> {
    let is_solid = |i: isize, j: isize| {
        i < 0 || j < 0 || i >= nx as isize || j >= ny as isize || solid(i as usize, j as usize)
    };
    let vid = |i: usize, j: usize| j * (nx + 1) + i;
    let mut next = vec![usize::MAX; (nx + 1) * (ny + 1)];
    for j in 0..ny {
        for i in 0..nx {
            if solid(i, j) {
                continue;
            }
            let (si, sj) = (i as isize, j as isize);
            if is_solid(si, sj - 1) {
                next[vid(i, j)] = vid(i + 1, j);
            }
            if is_solid(si + 1, sj) {
                next[vid(i + 1, j)] = vid(i + 1, j + 1);
            }
            if is_solid(si, sj + 1) {
                next[vid(i + 1, j + 1)] = vid(i, j + 1);
            }
            if is_solid(si - 1, sj) {
                next[vid(i, j + 1)] = vid(i, j);
            }
        }
    }
    let pos = |v: usize| (v % (nx + 1), v / (nx + 1));
    let mut visited = vec![false; next.len()];
    let mut rings = Vec::new();
    for start in 0..next.len() {
        if next[start] == usize::MAX || visited[start] {
            continue;
        }
        let mut ring = Vec::new();
        let mut v = start;
        while !visited[v] {
            visited[v] = true;
            ring.push(v);
            v = next[v];
        }
        let corners: Vec<DVec2> = (0..ring.len())
            .filter_map(|k| {
                let (a, b, c) = (
                    pos(ring[(k + ring.len() - 1) % ring.len()]),
                    pos(ring[k]),
                    pos(ring[(k + 1) % ring.len()]),
                );
                let d1 = (b.0 as isize - a.0 as isize, b.1 as isize - a.1 as isize);
                let d2 = (c.0 as isize - b.0 as isize, c.1 as isize - b.1 as isize);
                (d1 != d2).then(|| DVec2::new(xs[b.0], ys[b.1]))
            })
            .collect();
        rings.push(corners);
    }
    rings
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::Polygon;

    #[test]
    fn ring_grid_traces_to_outer_and_hole() {
        // 3x3 free with a solid centre.
        let rings = trace_free(
            3,
            3,
            |i, j| i == 1 && j == 1,
            &[0., 1., 2., 3.],
            &[0., 1., 2., 3.],
        );
        assert_eq!(rings.len(), 2);
        let areas: Vec<f64> = rings
            .iter()
            .map(|r| Polygon::new(r.clone()).signed_area())
            .collect();
        assert!(areas.contains(&9.0) && areas.contains(&-1.0), "{areas:?}");
        assert!(rings.iter().all(|r| r.len() == 4));
    }

    #[test]
    fn perfect_maze_is_one_polygon_without_holes() {
        let mut rng = SplitMix64::new(11);
        let m = Maze::new(&mut rng, 6, 4, 0.0);
        let (nx, ny) = m.grid_size();
        let xs = grid_lines(nx, 0.2, 1.0);
        let ys = grid_lines(ny, 0.2, 1.0);
        let rings = trace_free(nx, ny, |i, j| m.solid(i, j), &xs, &ys);
        assert_eq!(
            rings.len(),
            1,
            "a spanning-tree maze's walls all reach the border"
        );
        // Free area: 24 cells of 1 m^2 plus 23 open passages of 0.2 m^2.
        let a = Polygon::new(rings[0].clone()).signed_area();
        assert!((a - (24.0 + 23.0 * 0.2)).abs() < 1e-9, "{a}");
    }
}
