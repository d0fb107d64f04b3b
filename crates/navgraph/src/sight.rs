//! What one art-gallery guard sees, decided triangle by triangle as the
//! guard's search grows through the triangulation, in constant time for
//! almost every triangle.
//!
//! The answer is [`Walls::sees_triangle`]'s, exactly: three sight lines
//! to the corners are clear and no wall vertex lies strictly inside the
//! three triangles the guard spans with the edges. Tested directly, that
//! costs time proportional to the distance from the guard (the grid cells
//! the sight lines and triangles cover), so a raster whose guards see far
//! along open rows was quadratic. Here the search carries one more fact
//! per triangle it has seen, *open*: no wall point lies in the interior of
//! the convex hull of the guard `p` and the triangle. A triangle `T`
//! reached from a seen, open triangle `S` across their shared edge
//! `e0 e1`, with third corner `x`, is then settled without walking the
//! grid when
//!
//! - `x` lies strictly inside the angle `e0 p e1` and strictly beyond the
//!   edge: the hull of `p` and `T` is the convex quadrilateral
//!   `p e0 x e1`, whose interior is the hull of `p` and `e0 e1` (inside
//!   `S`'s hull), the open shared edge and `T`'s interior, so it is open,
//!   the sight line to `x` crosses nothing and no wall vertex lies inside
//!   any of the three triangles; `T` is seen when the sight lines to `e0`
//!   and `e1` are clear (known from `S`);
//! - `x` lies on the ray from `p` through `e0` (or `e1`) beyond it: the
//!   hull is the triangle `p x e1`, open for the same reason, and the
//!   sight line to `x` is clear exactly when the one to `e0` is and the
//!   triangle edge `e0 x` is (a short test);
//! - a corner of `T` lies strictly inside the triangle of `p` and the two
//!   other corners: that corner is a wall vertex inside it, so `T` is not
//!   seen (whether or not `S` is open).
//!
//! Anything else (the guard on the edge's line, a search that came through
//! a triangle not known to be open) takes the direct test. This relies on
//! what a constrained Delaunay triangulation of the walls guarantees: the
//! wall vertices are the triangulation's vertices, no vertex lies inside a
//! triangle or an edge, and the walls are the constraint edges, which no
//! other edge crosses. The property test below checks the answers against
//! the direct test on random rooms full of pillars on a half-metre grid
//! (many collinear corners).

use glam::DVec2;
use navscope_core::geom::{Orientation, orient};

use crate::triangulate::Triangulation;
use crate::walls::{Walls, strictly_inside};

/// A guard's view: the guard, and per vertex and triangle what its search
/// has learnt so far. Reused from guard to guard (stamps, not clearing).
pub struct Sight<'a> {
    tri: &'a Triangulation,
    walls: &'a Walls,
    guard: DVec2,
    /// Current guard's stamp; a vertex or triangle entry is valid when its
    /// stamp equals it.
    stamp: u32,
    /// Per vertex: stamp, and whether the sight line to it is clear.
    clear: Vec<(u32, bool)>,
    /// Per triangle: stamp, and whether it is open (see the module docs).
    open: Vec<(u32, bool)>,
}

/// How a triangle's third corner lies relative to the guard and the edge
/// the search came across.
enum Step {
    /// Strictly inside the angle the guard spans with the edge, beyond it.
    Wedge,
    /// On the ray from the guard through this edge corner, beyond it.
    Beyond(u32),
    /// A corner strictly inside the triangle of the guard and the others.
    Hidden,
    /// None of these.
    Other,
}

impl<'a> Sight<'a> {
    /// A view over `tri` and `walls`, which must be the rings `tri`
    /// triangulates (see the module docs).
    pub fn new(tri: &'a Triangulation, walls: &'a Walls) -> Self {
        Self {
            tri,
            walls,
            guard: DVec2::ZERO,
            stamp: 0,
            clear: vec![(0, false); tri.vertices.len()],
            open: vec![(0, false); tri.triangles.len()],
        }
    }

    /// Starts the view of a new guard at vertex `g`; `incident` are its
    /// triangles, which it sees and whose hulls with it are themselves.
    pub fn start(&mut self, g: u32, incident: &[u32]) {
        self.stamp += 1;
        self.guard = self.tri.vertices[g as usize];
        for &t in incident {
            self.open[t as usize] = (self.stamp, true);
        }
    }

    /// Whether the sight line from the guard to vertex `v` is clear
    /// (tested once per guard and vertex).
    fn clear_to(&mut self, v: u32) -> bool {
        let (stamp, known) = self.clear[v as usize];
        if stamp == self.stamp {
            return known;
        }
        let c = self.walls.clear(self.guard, self.tri.vertices[v as usize]);
        self.clear[v as usize] = (self.stamp, c);
        c
    }

    /// Whether the guard sees triangle `t` entirely (the answer of
    /// [`Walls::sees_triangle`]), where the search reached `t` from the
    /// seen triangle `from` across their shared edge.
    pub fn sees(&mut self, from: u32, t: u32) -> bool {
        let tri = self.tri;
        let vs = tri.triangles[from as usize];
        let Some(k) = tri.neighbours[from as usize]
            .iter()
            .position(|&n| n == Some(t))
        else {
            return self.direct(t);
        };
        let (e0, e1) = (vs[k], vs[(k + 1) % 3]);
        let x = tri.triangles[t as usize]
            .into_iter()
            .find(|&v| v != e0 && v != e1)
            .unwrap_or(e0);
        let open_from = self.open[from as usize] == (self.stamp, true);
        let result = match self.step(e0, e1, x) {
            Step::Hidden => false,
            Step::Wedge if open_from => {
                self.clear[x as usize] = (self.stamp, true);
                self.clear_to(e0) && self.clear_to(e1)
            }
            Step::Beyond(m) if open_from => {
                let to_x = self.clear_to(m)
                    && self
                        .walls
                        .clear(tri.vertices[m as usize], tri.vertices[x as usize]);
                self.clear[x as usize] = (self.stamp, to_x);
                to_x && self.clear_to(e0) && self.clear_to(e1)
            }
            _ => return self.direct(t),
        };
        self.open[t as usize] = (self.stamp, true);
        result
    }

    /// The direct test, with the sight lines to the corners remembered.
    fn direct(&mut self, t: u32) -> bool {
        let [a, b, c] = self.tri.triangles[t as usize];
        let [pa, pb, pc] = self.tri.corners(t as usize);
        let p = self.guard;
        self.clear_to(a)
            && self.clear_to(b)
            && self.clear_to(c)
            && !self.walls.vertex_inside(p, pa, pb)
            && !self.walls.vertex_inside(p, pb, pc)
            && !self.walls.vertex_inside(p, pc, pa)
    }

    /// Where the third corner `x` lies for the edge `e0 e1` (module docs).
    fn step(&self, e0: u32, e1: u32, x: u32) -> Step {
        let v = |i: u32| self.tri.vertices[i as usize];
        let (p, a, b, c) = (self.guard, v(e0), v(e1), v(x));
        if strictly_inside([p, b, c], a)
            || strictly_inside([p, c, a], b)
            || strictly_inside([p, a, b], c)
        {
            return Step::Hidden;
        }
        let side = orient(p, a, b);
        if side == Orientation::Collinear {
            return Step::Other;
        }
        let (at_a, at_b) = (orient(p, a, c), orient(p, c, b));
        // Beyond the edge: c strictly on the other side of ab than p
        // (`orient(a, b, p)` is `side`).
        if at_a == side && at_b == side && orient(b, a, c) == side {
            return Step::Wedge;
        }
        let between = |m: DVec2| {
            m != p
                && m != c
                && m.x >= p.x.min(c.x)
                && m.x <= p.x.max(c.x)
                && m.y >= p.y.min(c.y)
                && m.y <= p.y.max(c.y)
        };
        if at_a == Orientation::Collinear && between(a) {
            return Step::Beyond(e0);
        }
        if at_b == Orientation::Collinear && between(b) {
            return Step::Beyond(e1);
        }
        Step::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphs::vertex_triangles;
    use crate::triangulate::triangulate;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// A room with square pillars at half-metre grid spots (apart).
    fn pillars(spots: &[(u8, u8, u8)]) -> Vec<Vec<DVec2>> {
        let mut rings = vec![vec![v(0., 0.), v(12., 0.), v(12., 12.), v(0., 12.)]];
        let mut taken = [[false; 24]; 24];
        for &(x, y, s) in spots {
            let (x, y, s) = (
                usize::from(x % 20) + 2,
                usize::from(y % 20) + 2,
                1 + usize::from(s % 2),
            );
            let cells = (x - 1..x + s + 1).flat_map(|i| (y - 1..y + s + 1).map(move |j| (i, j)));
            if cells.clone().any(|(i, j)| taken[i][j]) {
                continue;
            }
            for (i, j) in cells {
                taken[i][j] = true;
            }
            let (x, y, s) = (x as f64 * 0.5, y as f64 * 0.5, s as f64 * 0.5);
            rings.push(vec![v(x, y), v(x, y + s), v(x + s, y + s), v(x + s, y)]);
        }
        rings
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(60))]

        /// Every guard's whole search (no limit) gets the direct test's
        /// answer for every triangle it reaches.
        #[test]
        fn the_view_equals_the_direct_test(
            spots in proptest::collection::vec((0u8..20, 0u8..20, 0u8..2), 0..30),
            guards in proptest::collection::vec(0usize..1000, 1..6),
        ) {
            let rings = pillars(&spots);
            let tri = triangulate(&rings).unwrap();
            let walls = Walls::new(rings);
            let inc = vertex_triangles(&tri);
            let mut sight = Sight::new(&tri, &walls);
            for g in guards {
                let g = (g % tri.vertices.len()) as u32;
                sight.start(g, &inc[g as usize]);
                let p = tri.vertices[g as usize];
                let mut visited = vec![false; tri.triangles.len()];
                let mut queue: Vec<u32> = inc[g as usize].clone();
                for &t in &queue {
                    visited[t as usize] = true;
                }
                while let Some(s) = queue.pop() {
                    for u in tri.neighbours[s as usize].into_iter().flatten() {
                        if std::mem::replace(&mut visited[u as usize], true) {
                            continue;
                        }
                        let fast = sight.sees(s, u);
                        let direct = walls.sees_triangle(p, tri.corners(u as usize));
                        proptest::prop_assert_eq!(fast, direct, "guard {} triangle {:?}", p, tri.corners(u as usize));
                        if fast {
                            queue.push(u);
                        }
                    }
                }
            }
        }
    }
}
