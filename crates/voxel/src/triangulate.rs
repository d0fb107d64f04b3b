//! Stage 6, triangulation (§32.2.4): each simplified region, holes and all,
//! goes through a constrained Delaunay triangulation (`spade`) with every
//! ring edge a constraint; the triangles whose centre lies inside the rings
//! (even-odd) are kept. No Steiner points are added, so every triangle
//! corner is an outline vertex and keeps its height, and every triangle edge
//! on an outline lies on a grid line when that outline is exact.

use serde::Serialize;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use crate::contour::Ring;
use crate::simplify::inside_rings;

/// The triangles of one region.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RegionMesh {
    /// Vertices in plan grid coordinates.
    pub verts: Vec<[i32; 2]>,
    /// World height of each vertex.
    pub heights: Vec<f32>,
    /// Triangles, counter-clockwise seen from above.
    pub tris: Vec<[u32; 3]>,
    /// Ring edges spade refused (crossing another constraint); 0 for valid outlines.
    pub refused_constraints: u32,
}

/// Triangulates a region's rings.
pub fn triangulate(rings: &[Ring]) -> RegionMesh {
    let mut cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
        ConstrainedDelaunayTriangulation::new();
    let mut mesh = RegionMesh::default();
    let mut handles = Vec::new();
    for r in rings {
        let mut hs = Vec::with_capacity(r.pts.len());
        for (p, h) in r.pts.iter().zip(&r.h) {
            let Ok(v) = cdt.insert(Point2::new(p[0] as f64, p[1] as f64)) else {
                continue;
            };
            let i = v.index();
            if i >= mesh.verts.len() {
                mesh.verts.resize(i + 1, [0, 0]);
                mesh.heights.resize(i + 1, f32::NEG_INFINITY);
            }
            mesh.verts[i] = *p;
            mesh.heights[i] = mesh.heights[i].max(*h);
            hs.push(v);
        }
        handles.push(hs);
    }
    for hs in &handles {
        let n = hs.len();
        for i in 0..n {
            let (a, b) = (hs[i], hs[(i + 1) % n]);
            if a != b && cdt.try_add_constraint(a, b).is_empty() && !cdt.exists_constraint(a, b) {
                mesh.refused_constraints += 1;
            }
        }
    }
    for f in cdt.inner_faces() {
        let vs = f.vertices();
        let (mut cx, mut cy) = (0.0, 0.0);
        for v in &vs {
            cx += v.position().x / 3.0;
            cy += v.position().y / 3.0;
        }
        if inside_rings(rings, cx, cy) {
            mesh.tris.push([
                vs[0].fix().index() as u32,
                vs[1].fix().index() as u32,
                vs[2].fix().index() as u32,
            ]);
        }
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contour::EdgeClass;

    fn ring(pts: &[[i32; 2]]) -> Ring {
        Ring {
            pts: pts.to_vec(),
            h: (0..pts.len()).map(|i| i as f32).collect(),
            class: vec![EdgeClass::Obstacle; pts.len()],
        }
    }

    fn area2(m: &RegionMesh) -> i64 {
        m.tris
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| m.verts[i as usize]);
                (b[0] - a[0]) as i64 * (c[1] - a[1]) as i64
                    - (b[1] - a[1]) as i64 * (c[0] - a[0]) as i64
            })
            .sum()
    }

    #[test]
    fn a_square_with_a_hole_covers_exactly_its_area() {
        let outer = ring(&[[0, 0], [10, 0], [10, 10], [0, 10]]);
        let hole = ring(&[[3, 3], [3, 6], [6, 6], [6, 3]]);
        let m = triangulate(&[outer, hole]);
        assert_eq!(area2(&m), 2 * (100 - 9));
        assert!(m.tris.len() >= 8);
        assert_eq!(m.refused_constraints, 0);
        // Counter-clockwise and heights kept.
        for t in &m.tris {
            let [a, b, c] = t.map(|i| m.verts[i as usize]);
            assert!(
                (b[0] - a[0]) as i64 * (c[1] - a[1]) as i64
                    - (b[1] - a[1]) as i64 * (c[0] - a[0]) as i64
                    > 0
            );
        }
        assert_eq!(m.heights[2], 2.0);
    }

    #[test]
    fn rings_touching_at_a_corner_triangulate() {
        // Two squares meeting at (5, 5): one outline traced as two rings.
        let a = ring(&[[0, 0], [5, 0], [5, 5], [0, 5]]);
        let b = ring(&[[5, 5], [10, 5], [10, 10], [5, 10]]);
        let m = triangulate(&[a, b]);
        assert_eq!(area2(&m), 2 * 50);
    }
}
