//! Stage 6, triangulation: the constrained Delaunay triangulation (spade)
//! of the simplified rings, with every ring edge a constraint, and the
//! faces outside navigable space removed.
//!
//! The article inserts the contour vertices, triangulates, and splits edges
//! until the contours are edges of the mesh; a constrained triangulation
//! gets there in one step and adds no vertices. A face is navigable when it
//! lies left of a ring edge it has (rings keep free space on their left);
//! faces without a ring edge take the status of their neighbours across
//! non-constraint edges (a flood fill).

use glam::DVec2;
use navscope_core::geom::range::{Library, check_points};
use serde::Serialize;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};

/// The navigable triangles.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Triangulation {
    /// Vertices (plan metres).
    pub vertices: Vec<DVec2>,
    /// Triangles as vertex indices, counter-clockwise.
    pub triangles: Vec<[u32; 3]>,
    /// Neighbour across edge `k` (from corner `k` to corner `k + 1`), or
    /// `None` on a wall.
    pub neighbours: Vec<[Option<u32>; 3]>,
}

impl Triangulation {
    /// Corners of triangle `t`.
    pub fn corners(&self, t: usize) -> [DVec2; 3] {
        self.triangles[t].map(|i| self.vertices[i as usize])
    }

    /// Area of triangle `t`.
    pub fn area(&self, t: usize) -> f64 {
        let [a, b, c] = self.corners(t);
        (b - a).perp_dot(c - a) * 0.5
    }

    /// Total navigable area.
    pub fn total_area(&self) -> f64 {
        (0..self.triangles.len()).map(|t| self.area(t)).sum()
    }
}

/// Incentre and inscribed-circle radius of the triangle `abc`.
pub fn incircle(a: DVec2, b: DVec2, c: DVec2) -> (DVec2, f64) {
    let (la, lb, lc) = (b.distance(c), c.distance(a), a.distance(b));
    let p = la + lb + lc;
    if p <= 0.0 {
        return (a, 0.0);
    }
    let centre = (a * la + b * lb + c * lc) / p;
    let area = ((b - a).perp_dot(c - a) * 0.5).abs();
    (centre, 2.0 * area / p)
}

/// The triangle count of a constrained triangulation of `rings` that adds
/// no vertex, `holes` of the rings being holes: per outer ring with its holes, vertices + 2 × holes − 2
/// (Euler's formula), so `vertices + 2 × holes − 2 × outer rings` in all.
pub fn triangle_count(rings: &[Vec<DVec2>], holes: u64) -> u64 {
    let vertices: u64 = rings.iter().map(|r| r.len() as u64).sum();
    let outer = rings.len() as u64 - holes;
    (vertices + 2 * holes).saturating_sub(2 * outer)
}

/// Triangulates `rings` (free space on the left, disjoint, simple).
pub fn triangulate(rings: &[Vec<DVec2>]) -> Result<Triangulation, String> {
    let mut vertices = Vec::new();
    let mut edges = Vec::new();
    for r in rings {
        let base = vertices.len();
        for p in r {
            if !p.is_finite() {
                return Err(format!("triangulation: vertex {p} is not finite"));
            }
            check_points(Library::Delaunay, "triangulation", [*p])?;
            vertices.push(Point2::new(p.x, p.y));
        }
        for k in 0..r.len() {
            edges.push([base + k, base + (k + 1) % r.len()]);
        }
    }
    if vertices.len() < 3 {
        return Ok(Triangulation::default());
    }
    // The ring edge leaving each vertex: `a -> next[a]` (spade keeps the
    // vertex order when no vertex coincides, which is checked below).
    let mut next = vec![u32::MAX; vertices.len()];
    for &[a, b] in &edges {
        next[a] = b as u32;
    }
    let is_ring_edge = |a: usize, b: usize| next[a] == b as u32;
    let n = vertices.len();
    let mut conflicts = 0usize;
    let cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
        ConstrainedDelaunayTriangulation::try_bulk_load_cdt(vertices, edges, |_| conflicts += 1)
            .map_err(|e| format!("triangulation: {e:?}"))?;
    if cdt.num_vertices() != n {
        return Err(format!(
            "triangulation: {} ring vertices coincide",
            n - cdt.num_vertices()
        ));
    }
    if conflicts > 0 {
        return Err(format!(
            "triangulation: {conflicts} ring edges cross others"
        ));
    }
    // Face status by spade's face index (0 is the outer face):
    // Some(true) navigable, Some(false) blocked.
    let mut status: Vec<Option<bool>> = vec![None; cdt.num_all_faces()];
    let mut stack = Vec::new();
    for f in cdt.inner_faces() {
        let i = f.fix().index();
        for e in f.adjacent_edges() {
            let (a, b) = (e.from().fix().index(), e.to().fix().index());
            if is_ring_edge(a, b) {
                status[i] = Some(true);
            } else if is_ring_edge(b, a) {
                status[i] = Some(false);
            }
        }
        if status[i].is_some() {
            stack.push(f.fix());
        }
    }
    while let Some(h) = stack.pop() {
        let f = cdt.face(h);
        let here = status[h.index()];
        for e in f.adjacent_edges() {
            if e.is_constraint_edge() {
                continue;
            }
            if let Some(g) = e.rev().face().as_inner() {
                let j = g.fix().index();
                if status[j].is_none() {
                    status[j] = here;
                    stack.push(g.fix());
                }
            }
        }
    }
    let mut new_index = vec![u32::MAX; status.len()];
    let mut tri = Triangulation {
        vertices: cdt
            .vertices()
            .map(|v| DVec2::new(v.position().x, v.position().y))
            .collect(),
        ..Default::default()
    };
    for f in cdt.inner_faces() {
        let i = f.fix().index();
        if status[i] == Some(true) {
            new_index[i] = tri.triangles.len() as u32;
            tri.triangles
                .push(f.vertices().map(|v| v.fix().index() as u32));
        }
    }
    tri.neighbours.reserve(tri.triangles.len());
    for f in cdt.inner_faces() {
        let t = new_index[f.fix().index()];
        if t == u32::MAX {
            continue;
        }
        let mut nb = [None; 3];
        let es = f.adjacent_edges();
        let vs = tri.triangles[t as usize];
        for (k, slot) in nb.iter_mut().enumerate() {
            let e = es
                .iter()
                .find(|e| e.from().fix().index() as u32 == vs[k])
                .copied();
            if let Some(e) = e
                && !e.is_constraint_edge()
                && let Some(g) = e.rev().face().as_inner()
            {
                let j = new_index[g.fix().index()];
                if j != u32::MAX {
                    *slot = Some(j);
                }
            }
        }
        tri.neighbours.push(nb);
    }
    Ok(tri)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn a_room_with_a_pillar_is_covered_exactly() {
        let rings = vec![
            vec![v(0., 0.), v(10., 0.), v(10., 10.), v(0., 10.)],
            vec![v(4., 4.), v(4., 6.), v(6., 6.), v(6., 4.)],
        ];
        let t = triangulate(&rings).unwrap();
        assert!((t.total_area() - 96.0).abs() < 1e-9);
        assert_eq!(t.triangles.len(), 8);
        assert_eq!(triangle_count(&rings, 1), 8);
        for k in 0..t.triangles.len() {
            assert!(t.area(k) > 0.0);
            for (e, n) in t.neighbours[k].iter().enumerate() {
                if let Some(n) = n {
                    // Symmetric adjacency across the same edge.
                    let (a, b) = (t.triangles[k][e], t.triangles[k][(e + 1) % 3]);
                    let m = *n as usize;
                    let back = (0..3)
                        .find(|&f| t.neighbours[m][f] == Some(k as u32))
                        .unwrap();
                    assert_eq!(
                        (t.triangles[m][back], t.triangles[m][(back + 1) % 3]),
                        (b, a)
                    );
                }
            }
        }
    }

    #[test]
    fn degenerate_inputs() {
        assert!(triangulate(&[]).unwrap().triangles.is_empty());
        let bad = vec![vec![v(0., 0.), v(f64::NAN, 0.), v(1., 1.)]];
        assert!(triangulate(&bad).unwrap_err().contains("not finite"));
        // Huge coordinates.
        let s = 1e12;
        let t = triangulate(&[vec![v(0., 0.), v(s, 0.), v(s, s), v(0., s)]]).unwrap();
        assert_eq!(t.triangles.len(), 2);
    }

    #[test]
    fn incircle_of_a_right_triangle() {
        let (c, r) = incircle(v(0., 0.), v(3., 0.), v(0., 4.));
        assert!((r - 1.0).abs() < 1e-12);
        assert!(c.distance(v(1., 1.)) < 1e-12);
    }
}
