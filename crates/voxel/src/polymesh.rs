//! Stage `polymesh`, Recast's `rcBuildPolyMesh` merge step: each region's
//! triangles are merged into convex polygons of at most
//! `max_verts_per_poly` corners (Recast's default 6).
//!
//! As Recast does, merging is greedy: of every pair of polygons of a region
//! that share an edge, whose union has at most `max_verts_per_poly` corners
//! and turns strictly left at both ends of the shared edge (so it stays
//! convex, without collinear corners), the pair with the longest shared edge
//! is merged, until no pair can be. Ties go to the first pair in polygon
//! order, so the result is deterministic. The candidates wait in a heap,
//! and only the merged polygon's are recomputed after a merge. The merge
//! runs on the plan grid's integer coordinates, so the convexity test is
//! exact.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;
use serde::Serialize;

use crate::triangulate::RegionMesh;

/// One region's convex polygons over its [`RegionMesh`]'s vertices.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RegionPolys {
    /// Polygons as vertex indices, counter-clockwise seen from above.
    pub polys: Vec<Vec<u32>>,
}

/// Twice the signed area of `a, b, c` (positive: a left turn).
fn turn(a: [i32; 2], b: [i32; 2], c: [i32; 2]) -> i64 {
    (b[0] as i64 - a[0] as i64) * (c[1] as i64 - a[1] as i64)
        - (b[1] as i64 - a[1] as i64) * (c[0] as i64 - a[0] as i64)
}

/// Recast's `getPolyMergeValue`: the squared length of the edge `pa[ea] ->
/// pa[ea + 1]` (which `pb` runs the other way from `eb`) when `pa` and `pb`
/// merge into a convex polygon of at most `nvp` corners, else `None`.
fn merge_value(
    verts: &[[i32; 2]],
    pa: &[u32],
    pb: &[u32],
    ea: usize,
    eb: usize,
    nvp: usize,
) -> Option<i64> {
    let (na, nb) = (pa.len(), pb.len());
    if na + nb - 2 > nvp {
        return None;
    }
    let v = |i: u32| verts[i as usize];
    // Corner at pa[ea]: from pa[ea - 1] on to pb[eb + 2].
    let ok0 = turn(v(pa[(ea + na - 1) % na]), v(pa[ea]), v(pb[(eb + 2) % nb])) > 0;
    // Corner at pa[ea + 1]: from pb[eb - 1] on to pa[ea + 2].
    let ok1 = turn(
        v(pb[(eb + nb - 1) % nb]),
        v(pa[(ea + 1) % na]),
        v(pa[(ea + 2) % na]),
    ) > 0;
    if !(ok0 && ok1) {
        return None;
    }
    let (a, b) = (v(pa[ea]), v(pa[(ea + 1) % na]));
    let (dx, dy) = (b[0] as i64 - a[0] as i64, b[1] as i64 - a[1] as i64);
    Some(dx * dx + dy * dy)
}

/// Merges one region's triangles into convex polygons of at most `nvp`
/// corners (`nvp` below 3 keeps the triangles).
pub fn merge_polygons(mesh: &RegionMesh, nvp: usize) -> RegionPolys {
    let mut polys = Polys::of(mesh);
    let n = mesh.tris.len();
    let mut alive = vec![true; n];
    if nvp > 3 {
        // Candidate merges, best first: (shared edge length, then the first
        // polygon and edge in order), checked against the polygons'
        // versions when taken, so a stale candidate is skipped.
        type Cand = (i64, Reverse<usize>, Reverse<usize>, usize, usize, u32, u32);
        let mut version = vec![0u32; n];
        let mut heap: BinaryHeap<Cand> = BinaryHeap::new();
        let ring = |p: &[u32], e: usize| (p[e], p[(e + 1) % p.len()]);
        let mut edges = HalfEdges::of(mesh);
        let candidates = |a: usize,
                          polys: &Polys,
                          edges: &HalfEdges,
                          version: &[u32],
                          heap: &mut BinaryHeap<Cand>| {
            let pa = polys.get(a);
            for ea in 0..pa.len() {
                let (u, v) = ring(pa, ea);
                let Some((b, eb)) = edges.find(v, u).map(|i| edges.at[i]) else {
                    continue;
                };
                let (b, eb) = (b as usize, eb as usize);
                let (x, ex, y, ey) = if a < b {
                    (a, ea, b, eb)
                } else {
                    (b, eb, a, ea)
                };
                if let Some(len) = merge_value(&mesh.verts, polys.get(x), polys.get(y), ex, ey, nvp)
                {
                    heap.push((len, Reverse(x), Reverse(ex), y, ey, version[x], version[y]));
                }
            }
        };
        for a in 0..n {
            candidates(a, &polys, &edges, &version, &mut heap);
        }
        while let Some((_, Reverse(a), Reverse(ea), b, eb, va, vb)) = heap.pop() {
            if !(alive[a] && alive[b] && version[a] == va && version[b] == vb) {
                continue;
            }
            // The shared edge is gone both ways; every other edge of the
            // two is an edge of the merged polygon, now `a`'s.
            let (u, v) = ring(polys.get(a), ea);
            edges.remove(u, v);
            edges.remove(v, u);
            polys.merge(a, ea, b, eb);
            let merged = polys.get(a);
            for e in 0..merged.len() {
                let (u, v) = ring(merged, e);
                if let Some(i) = edges.find(u, v) {
                    edges.at[i] = (a as u32, e as u32);
                }
            }
            alive[b] = false;
            version[a] += 1;
            candidates(a, &polys, &edges, &version, &mut heap);
        }
    }
    RegionPolys {
        polys: (0..n)
            .filter(|&p| alive[p])
            .map(|p| polys.get(p).to_vec())
            .collect(),
    }
}

/// The polygons of a merge in one array (a vector each was an allocation
/// a triangle): polygon `p` is `corners[start..start + len]` for
/// `(start, len) = at[p]`; a merged polygon is written at the end.
struct Polys {
    corners: Vec<u32>,
    at: Vec<(usize, usize)>,
}

impl Polys {
    /// The triangles of `mesh`, one polygon each.
    fn of(mesh: &RegionMesh) -> Self {
        Polys {
            corners: mesh.tris.iter().flatten().copied().collect(),
            at: (0..mesh.tris.len()).map(|p| (3 * p, 3)).collect(),
        }
    }

    /// Polygon `p`'s corners.
    fn get(&self, p: usize) -> &[u32] {
        let (start, len) = self.at[p];
        &self.corners[start..start + len]
    }

    /// Makes polygon `a` the union of `a` and `b` across their shared edge
    /// (`a`'s edge `ea`, `b`'s edge `eb`): `a`'s corners from the edge's
    /// end round to its start, then `b`'s likewise; `b` is left empty.
    fn merge(&mut self, a: usize, ea: usize, b: usize, eb: usize) {
        let start = self.corners.len();
        for (p, e) in [(a, ea), (b, eb)] {
            let (s, n) = self.at[p];
            for i in 0..n - 1 {
                let c = self.corners[s + (e + 1 + i) % n];
                self.corners.push(c);
            }
        }
        self.at[a] = (start, self.corners.len() - start);
        self.at[b].1 = 0;
    }
}

/// The polygons' directed edges by their start vertex: `to[i]` and `at[i]`
/// (polygon, edge index) for `i` in `first[u]..first[u + 1]`, the edges
/// leaving vertex `u`. A merge only removes edges and renames the ones it
/// keeps, so the edges are listed once, from the triangles (a vertex has a
/// few: its look-up is a short scan, no hashing).
struct HalfEdges {
    first: Vec<u32>,
    to: Vec<u32>,
    at: Vec<(u32, u32)>,
}

impl HalfEdges {
    /// The triangles' edges of `mesh`.
    fn of(mesh: &RegionMesh) -> Self {
        let mut first = vec![0u32; mesh.verts.len() + 1];
        for t in &mesh.tris {
            for &u in t {
                first[u as usize + 1] += 1;
            }
        }
        for u in 1..first.len() {
            first[u] += first[u - 1];
        }
        let mut fill = first.clone();
        let mut to = vec![NO_VERTEX; 3 * mesh.tris.len()];
        let mut at = vec![(0, 0); 3 * mesh.tris.len()];
        for (p, t) in mesh.tris.iter().enumerate() {
            for e in 0..3 {
                let slot = &mut fill[t[e] as usize];
                to[*slot as usize] = t[(e + 1) % 3];
                at[*slot as usize] = (p as u32, e as u32);
                *slot += 1;
            }
        }
        HalfEdges { first, to, at }
    }

    /// The slot of edge `u -> v`, if some polygon has it.
    fn find(&self, u: u32, v: u32) -> Option<usize> {
        let (a, b) = (self.first[u as usize], self.first[u as usize + 1]);
        (a as usize..b as usize).find(|&i| self.to[i] == v)
    }

    /// Drops edge `u -> v`.
    fn remove(&mut self, u: u32, v: u32) {
        if let Some(i) = self.find(u, v) {
            self.to[i] = NO_VERTEX;
        }
    }
}

/// No vertex: an edge merged away ([`HalfEdges`]).
const NO_VERTEX: u32 = u32::MAX;

/// Merges every region mesh of a tile (in parallel, in region order).
pub fn polymesh_tile(meshes: &[RegionMesh], nvp: usize) -> Vec<RegionPolys> {
    meshes.par_iter().map(|m| merge_polygons(m, nvp)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contour::EdgeClass;
    use crate::contour::Ring;
    use crate::triangulate::triangulate;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn ring(pts: &[[i32; 2]]) -> Ring {
        Ring {
            pts: pts.to_vec(),
            h: vec![0.0; pts.len()],
            class: vec![EdgeClass::Obstacle; pts.len()],
        }
    }

    fn area2(verts: &[[i32; 2]], p: &[u32]) -> i64 {
        (0..p.len())
            .map(|i| {
                let (a, b) = (verts[p[i] as usize], verts[p[(i + 1) % p.len()] as usize]);
                a[0] as i64 * b[1] as i64 - b[0] as i64 * a[1] as i64
            })
            .sum()
    }

    fn check(mesh: &RegionMesh, out: &RegionPolys, nvp: usize) {
        let v = &mesh.verts;
        for p in &out.polys {
            assert!(p.len() >= 3 && p.len() <= nvp.max(3), "{p:?}");
            for i in 0..p.len() {
                let (a, b, c) = (p[i], p[(i + 1) % p.len()], p[(i + 2) % p.len()]);
                assert!(
                    turn(v[a as usize], v[b as usize], v[c as usize]) > 0,
                    "not convex: {p:?}"
                );
            }
        }
        // The polygons cover the triangles' area exactly, and use only
        // the triangles' corners.
        let tris: i64 = mesh.tris.iter().map(|t| area2(v, t)).sum();
        let polys: i64 = out.polys.iter().map(|p| area2(v, p)).sum();
        assert_eq!(tris, polys);
        assert!(
            out.polys
                .iter()
                .flatten()
                .all(|c| mesh.tris.iter().flatten().any(|t| t == c))
        );
    }

    /// The merge this module used before [`HalfEdges`] (its edges in a hash
    /// map, removed and inserted again at every merge), the reference.
    fn old_merge_polygons(mesh: &RegionMesh, nvp: usize) -> RegionPolys {
        let mut polys: Vec<Vec<u32>> = mesh.tris.iter().map(|t| t.to_vec()).collect();
        let mut alive = vec![true; polys.len()];
        if nvp > 3 {
            // Candidate merges, best first: (shared edge length, then the first
            // polygon and edge in order), checked against the polygons'
            // versions when taken, so a stale candidate is skipped.
            type Cand = (i64, Reverse<usize>, Reverse<usize>, usize, usize, u32, u32);
            let mut version = vec![0u32; polys.len()];
            let mut heap: BinaryHeap<Cand> = BinaryHeap::new();
            let mut edges: HashMap<(u32, u32), (usize, usize)> = HashMap::new();
            let ring = |p: &[u32], e: usize| (p[e], p[(e + 1) % p.len()]);
            for (p, poly) in polys.iter().enumerate() {
                for e in 0..poly.len() {
                    edges.insert(ring(poly, e), (p, e));
                }
            }
            let candidates = |a: usize,
                              polys: &[Vec<u32>],
                              edges: &HashMap<(u32, u32), (usize, usize)>,
                              version: &[u32],
                              heap: &mut BinaryHeap<Cand>| {
                for ea in 0..polys[a].len() {
                    let (u, v) = ring(&polys[a], ea);
                    let Some(&(b, eb)) = edges.get(&(v, u)) else {
                        continue;
                    };
                    let (x, ex, y, ey) = if a < b {
                        (a, ea, b, eb)
                    } else {
                        (b, eb, a, ea)
                    };
                    if let Some(len) = merge_value(&mesh.verts, &polys[x], &polys[y], ex, ey, nvp) {
                        heap.push((len, Reverse(x), Reverse(ex), y, ey, version[x], version[y]));
                    }
                }
            };
            for a in 0..polys.len() {
                candidates(a, &polys, &edges, &version, &mut heap);
            }
            while let Some((_, Reverse(a), Reverse(ea), b, eb, va, vb)) = heap.pop() {
                if !(alive[a] && alive[b] && version[a] == va && version[b] == vb) {
                    continue;
                }
                let (pa, pb) = (&polys[a], &polys[b]);
                let (na, nb) = (pa.len(), pb.len());
                let merged: Vec<u32> = (0..na - 1)
                    .map(|i| pa[(ea + 1 + i) % na])
                    .chain((0..nb - 1).map(|i| pb[(eb + 1 + i) % nb]))
                    .collect();
                for p in [a, b] {
                    for e in 0..polys[p].len() {
                        edges.remove(&ring(&polys[p], e));
                    }
                }
                for e in 0..merged.len() {
                    edges.insert(ring(&merged, e), (a, e));
                }
                polys[a] = merged;
                polys[b].clear();
                alive[b] = false;
                version[a] += 1;
                candidates(a, &polys, &edges, &version, &mut heap);
            }
        }
        RegionPolys {
            polys: polys
                .into_iter()
                .zip(alive)
                .filter_map(|(p, a)| a.then_some(p))
                .collect(),
        }
    }

    #[test]
    fn a_square_becomes_one_polygon_and_an_l_two() {
        let sq = triangulate(&[ring(&[[0, 0], [4, 0], [4, 4], [0, 4]])]);
        let out = merge_polygons(&sq, 6);
        assert_eq!(out.polys.len(), 1);
        assert_eq!(out.polys[0].len(), 4);
        check(&sq, &out, 6);
        let l = triangulate(&[ring(&[[0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]])]);
        let out = merge_polygons(&l, 6);
        assert_eq!(out.polys.len(), 2, "an L is not convex");
        check(&l, &out, 6);
        let tri = merge_polygons(&l, 3);
        assert_eq!(tri.polys.len(), l.tris.len());
    }

    #[test]
    fn max_verts_per_poly_bounds_a_circle() {
        // A 16-gon: at most 6 corners each, so at least 3 polygons.
        let pts: Vec<[i32; 2]> = (0..16)
            .map(|i| {
                let a = i as f64 * std::f64::consts::TAU / 16.0;
                [
                    (100.0 * a.cos()).round() as i32,
                    (100.0 * a.sin()).round() as i32,
                ]
            })
            .collect();
        let m = triangulate(&[ring(&pts)]);
        for nvp in [3, 4, 6, 8, 16] {
            let out = merge_polygons(&m, nvp);
            check(&m, &out, nvp);
            assert!(out.polys.len() >= 14usize.div_ceil(nvp - 2));
        }
        assert_eq!(merge_polygons(&m, 16).polys.len(), 1);
    }

    #[test]
    fn an_empty_mesh_gives_no_polygons() {
        let out = merge_polygons(&RegionMesh::default(), 6);
        assert!(out.polys.is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Random staircase rings with a hole: merged polygons are convex,
        /// within the corner bound, and cover exactly the triangles.
        #[test]
        fn merged_polygons_are_convex_and_cover_the_triangles(
            steps in proptest::collection::vec(1i32..5, 2..8),
            nvp in 3usize..9,
        ) {
            // A staircase outline: up and right by the step sizes.
            let mut pts = vec![[0, 0]];
            let (mut x, mut y) = (0, 0);
            for s in &steps {
                x += s;
                pts.push([x, y]);
                y += s;
                pts.push([x, y]);
            }
            pts.push([0, y]);
            let m = triangulate(&[ring(&pts)]);
            let out = merge_polygons(&m, nvp);
            check(&m, &out, nvp);
            prop_assert_eq!(out, old_merge_polygons(&m, nvp));
        }

        /// Random cell sets with holes, as the pipeline triangulates them:
        /// the merge gives the polygons the old one gives.
        #[test]
        fn merging_gives_the_old_polygons(
            bits in proptest::collection::vec(any::<bool>(), 64),
            nvp in 3usize..9,
        ) {
            let cells = crate::simplify::tests::cell_regions(&bits, 1.0);
            prop_assume!(cells.is_some());
            for r in cells.unwrap().1 {
                let m = triangulate(&r.rings);
                prop_assert_eq!(merge_polygons(&m, nvp), old_merge_polygons(&m, nvp));
            }
        }
    }
}
