//! The `triangulate` stage, triangulation (§32.2.4): each simplified region, holes and all,
//! goes through a constrained Delaunay triangulation (`spade`) with every
//! ring edge a constraint; the triangles whose centre lies inside the rings
//! (even-odd) are kept. No Steiner points are added, so every triangle
//! corner is an outline vertex and keeps its height, and every triangle edge
//! on an outline lies on a grid line when that outline is exact.
//!
//! Which triangles lie inside is found by walking across the triangles
//! from the outside, in or out at every constraint edge crossed
//! (`parity_inside`), one visit a triangle; testing each triangle's
//! centre against every ring edge cost a region's triangles times its
//! edges (the later passes' long thin regions: most of the stage). The two
//! agree when the constraints are the ring edges; where they might not (a
//! refused constraint, a point not inserted, or triangles whose area is
//! not the rings' area) every face's centre is tested against the rings.
//!
//! A tile's regions share one triangulation and its buffers
//! ([`Triangulator`], cleared between regions), and a ring edge the
//! triangulation already has becomes a constraint without spade's search
//! for crossed constraints; the triangles are the same.

use serde::Serialize;
use spade::handles::{FaceHandle, FixedFaceHandle, FixedVertexHandle, InnerTag};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

/// The triangulation this stage builds.
pub(crate) type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

use crate::contour::Ring;
use crate::simplify::{SimplifiedRegion, inside_rings};

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

impl RegionMesh {
    /// Records ring point `p` of height `h` as vertex `i` of the
    /// triangulation (a point given twice keeps its highest height).
    pub(crate) fn record(&mut self, i: usize, p: [i32; 2], h: f32) {
        if i >= self.verts.len() {
            self.verts.resize(i + 1, [0, 0]);
            self.heights.resize(i + 1, f32::NEG_INFINITY);
        }
        self.verts[i] = p;
        self.heights[i] = self.heights[i].max(h);
    }
}

/// Triangulates a region's rings.
pub fn triangulate(rings: &[Ring]) -> RegionMesh {
    Triangulator::default().triangulate(rings)
}

/// A triangulation and the buffers of [`triangulate`], kept from one
/// region to the next of a tile ([`triangulate_tile`])
/// instead of allocated for each. spade's `clear` keeps the
/// triangulation's memory and starts it afresh (its locate hint too), so
/// the triangles are those of a new one.
#[derive(Default)]
pub struct Triangulator {
    cdt: Cdt,
    /// The rings' vertex handles, ring after ring.
    handles: Vec<FixedVertexHandle>,
    /// Where each ring's handles end in `handles`.
    ends: Vec<usize>,
    /// [`parity_inside`]'s face states and stack.
    state: Vec<u8>,
    stack: Vec<FixedFaceHandle<InnerTag>>,
}

impl Triangulator {
    /// Triangulates a region's rings, as [`triangulate`].
    pub fn triangulate(&mut self, rings: &[Ring]) -> RegionMesh {
        let (mut mesh, all_inserted) = self.constrained(rings);
        let cdt = &self.cdt;
        let corners =
            |f: FaceHandle<'_, InnerTag, _, _, _, _>| f.vertices().map(|v| v.fix().index() as u32);
        if all_inserted && mesh.refused_constraints == 0 {
            parity_inside(cdt, &mut self.state, &mut self.stack);
            // The kept triangles cover the rings' even-odd area (a
            // region's outer rings counter-clockwise, holes clockwise).
            let mut kept = 0;
            for f in cdt.inner_faces() {
                if self.state[f.fix().index()] == 1 {
                    let t = corners(f);
                    kept += area2(&mesh.verts, t);
                    mesh.tris.push(t);
                }
            }
            if kept == rings.iter().map(Ring::area2).sum::<i64>() {
                return mesh;
            }
            mesh.tris.clear();
        }
        for f in cdt.inner_faces() {
            if centre_inside(rings, f.vertices().map(|v| v.position())) {
                mesh.tris.push(corners(f));
            }
        }
        mesh
    }

    /// The constrained Delaunay triangulation of the rings' points with
    /// every ring edge a constraint, in `self.cdt`; the mesh's vertices
    /// and refused constraints (no triangles yet), and whether every point
    /// went in.
    fn constrained(&mut self, rings: &[Ring]) -> (RegionMesh, bool) {
        let Triangulator {
            cdt, handles, ends, ..
        } = self;
        cdt.clear();
        handles.clear();
        ends.clear();
        let n: usize = rings.iter().map(|r| r.pts.len()).sum();
        let mut mesh = RegionMesh {
            verts: Vec::with_capacity(n),
            heights: Vec::with_capacity(n),
            tris: Vec::with_capacity(n),
            refused_constraints: 0,
        };
        let mut all_inserted = true;
        for r in rings {
            for (p, h) in r.pts.iter().zip(&r.h) {
                let Ok(v) = cdt.insert(Point2::new(p[0] as f64, p[1] as f64)) else {
                    all_inserted = false;
                    continue;
                };
                mesh.record(v.index(), *p, *h);
                handles.push(v);
            }
            ends.push(handles.len());
        }
        let mut start = 0;
        for &end in ends.iter() {
            let hs = &handles[start..end];
            start = end;
            for (i, &a) in hs.iter().enumerate() {
                let b = hs[if i + 1 == hs.len() { 0 } else { i + 1 }];
                if a == b {
                    continue;
                }
                // An edge the triangulation has already only becomes a
                // constraint: `add_constraint` does that without the
                // search for crossed constraints `try_add_constraint`
                // makes first (it cannot cross one: it is an edge).
                if cdt.get_edge_from_neighbors(a, b).is_some() {
                    cdt.add_constraint(a, b);
                } else if cdt.try_add_constraint(a, b).is_empty() && !cdt.exists_constraint(a, b) {
                    mesh.refused_constraints += 1;
                }
            }
        }
        (mesh, all_inserted)
    }
}

/// Twice the signed area of triangle `t` over `verts`.
fn area2(verts: &[[i32; 2]], t: [u32; 3]) -> i64 {
    let [a, b, c] = t.map(|i| verts[i as usize]);
    (b[0] - a[0]) as i64 * (c[1] - a[1]) as i64 - (b[1] - a[1]) as i64 * (c[0] - a[0]) as i64
}

/// Whether a triangle's centre (its corners `ps`) lies inside the rings
/// (even-odd).
pub(crate) fn centre_inside(rings: &[Ring], ps: [Point2<f64>; 3]) -> bool {
    let (mut cx, mut cy) = (0.0, 0.0);
    for p in &ps {
        cx += p.x / 3.0;
        cy += p.y / 3.0;
    }
    inside_rings(rings, cx, cy)
}

/// For every face of `cdt` (by index), whether it is inside (`state`: 1
/// inside, 0 outside; `stack` a buffer): the faces next to the outer face
/// are inside when the edge between is a constraint, and crossing an edge
/// into a further face flips that when the edge is a constraint (the
/// even-odd count of ring edges crossed).
fn parity_inside(cdt: &Cdt, state: &mut Vec<u8>, stack: &mut Vec<FixedFaceHandle<InnerTag>>) {
    const UNSEEN: u8 = 2;
    state.clear();
    state.resize(cdt.num_all_faces(), UNSEEN);
    stack.clear();
    for f in cdt.inner_faces() {
        for e in f.adjacent_edges() {
            if e.rev().face().is_outer() && state[f.fix().index()] == UNSEEN {
                state[f.fix().index()] = e.is_constraint_edge() as u8;
                stack.push(f.fix());
            }
        }
    }
    while let Some(f) = stack.pop() {
        let inside = state[f.index()];
        for e in cdt.face(f).adjacent_edges() {
            let Some(g) = e.rev().face().as_inner() else {
                continue;
            };
            if state[g.fix().index()] == UNSEEN {
                state[g.fix().index()] = inside ^ e.is_constraint_edge() as u8;
                stack.push(g.fix());
            }
        }
    }
}

/// Triangulates every simplified region of a tile.
pub fn triangulate_tile(simplified: &[SimplifiedRegion]) -> Vec<RegionMesh> {
    let mut t = Triangulator::default();
    simplified.iter().map(|r| t.triangulate(&r.rings)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contour::EdgeClass;
    use crate::reference::reference_triangulate;

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
    fn degenerate_rings_triangulate_as_the_reference() {
        let mut t = Triangulator::default();
        let sq = [[0, 0], [4, 0], [4, 4], [0, 4]];
        for rings in [
            // Nothing, a line, a ring twice over (every constraint doubled).
            vec![],
            vec![ring(&[[0, 0], [3, 0], [6, 0]])],
            vec![ring(&sq), ring(&sq)],
            // A ring with a repeated point; two rings sharing an edge.
            vec![ring(&[[0, 0], [4, 0], [4, 0], [4, 4], [0, 4]])],
            vec![ring(&sq), ring(&[[4, 0], [8, 0], [8, 4], [4, 4]])],
            // Crossing rings (a refused constraint), a hole on the outline.
            vec![ring(&sq), ring(&[[2, -2], [6, 2], [2, 6], [-2, 2]])],
            vec![ring(&sq), ring(&[[0, 1], [0, 3], [2, 2]])],
            // A hole with an island inside it, and a clockwise outer ring.
            vec![
                ring(&[[0, 0], [10, 0], [10, 10], [0, 10]]),
                ring(&[[2, 2], [2, 8], [8, 8], [8, 2]]),
                ring(&[[4, 4], [6, 4], [6, 6], [4, 6]]),
            ],
            vec![ring(&[[0, 4], [4, 4], [4, 0], [0, 0]])],
        ] {
            // Fresh, and after the other cases in the same triangulator.
            assert_eq!(t.triangulate(&rings), reference_triangulate(&rings));
            assert_eq!(
                triangulate(&rings),
                reference_triangulate(&rings),
                "{:?}",
                rings.iter().map(|r| &r.pts).collect::<Vec<_>>()
            );
        }
    }

    proptest::proptest! {
        /// Random cell sets through the pipeline's regions and
        /// simplification (holes, islands, corner touches, exact
        /// fallbacks): the triangles are the reference's.
        #[test]
        fn regions_triangulate_as_the_reference(
            bits in proptest::collection::vec(proptest::prelude::any::<bool>(), 64),
            err in 0.0f64..3.0,
        ) {
            let cells = crate::simplify::tests::cell_regions(&bits, err);
            proptest::prop_assume!(cells.is_some());
            let (g, regions, settings) = cells.unwrap();
            // One triangulator for all, as a tile's regions share one.
            let mut t = Triangulator::default();
            for (r, s) in regions.iter().zip(crate::simplify::simplify_tile(&regions, &g, &settings)) {
                proptest::prop_assert_eq!(t.triangulate(&r.rings), reference_triangulate(&r.rings));
                proptest::prop_assert_eq!(t.triangulate(&s.rings), reference_triangulate(&s.rings));
            }
        }
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
