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
//! exact. Each interior edge's candidate is pushed once at the start (not
//! from both triangles), the ring indices wrap without a division, and a
//! tile's regions share the merge's buffers.

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

/// Index `i` of a ring of `n` corners for `i < 2 n`: a compare instead of
/// a division (the merge's index arithmetic had one at every read).
fn wrap(i: usize, n: usize) -> usize {
    if i >= n { i - n } else { i }
}

/// Recast's `getPolyMergeValue`: the squared length of the edge `pa[ea] ->
/// pa[ea + 1]` (which `pb` runs the other way from `eb`) when `pa` and `pb`
/// merge into a convex polygon of at most `nvp` corners, else `None`.
pub(crate) fn merge_value(
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
    let ok0 = turn(
        v(pa[wrap(ea + na - 1, na)]),
        v(pa[ea]),
        v(pb[wrap(eb + 2, nb)]),
    ) > 0;
    // Corner at pa[ea + 1]: from pb[eb - 1] on to pa[ea + 2].
    let ok1 = turn(
        v(pb[wrap(eb + nb - 1, nb)]),
        v(pa[wrap(ea + 1, na)]),
        v(pa[wrap(ea + 2, na)]),
    ) > 0;
    if !(ok0 && ok1) {
        return None;
    }
    let (a, b) = (v(pa[ea]), v(pa[wrap(ea + 1, na)]));
    let (dx, dy) = (b[0] as i64 - a[0] as i64, b[1] as i64 - a[1] as i64);
    Some(dx * dx + dy * dy)
}

/// A candidate merge: (shared edge length, then the first polygon and edge
/// in order, the second polygon and edge, the two polygons' versions when
/// the candidate was made). The heap takes the longest edge first, ties
/// to the first polygon and edge.
type Cand = (i64, Reverse<u32>, Reverse<u32>, u32, u32, u32, u32);

/// The buffers of [`merge_polygons`], kept from one region to the next
/// of a tile ([`polymesh_tile`]) instead of allocated for each.
#[derive(Default)]
struct Scratch {
    polys: Polys,
    edges: HalfEdges,
    alive: Vec<bool>,
    version: Vec<u32>,
    heap: BinaryHeap<Cand>,
}

/// Merges one region's triangles into convex polygons of at most `nvp`
/// corners (`nvp` below 3 keeps the triangles).
pub fn merge_polygons(mesh: &RegionMesh, nvp: usize) -> RegionPolys {
    merge_with(&mut Scratch::default(), mesh, nvp)
}

/// [`merge_polygons`] in the buffers of `s`.
fn merge_with(s: &mut Scratch, mesh: &RegionMesh, nvp: usize) -> RegionPolys {
    let Scratch {
        polys,
        edges,
        alive,
        version,
        heap,
    } = s;
    polys.set(mesh);
    let n = mesh.tris.len();
    alive.clear();
    alive.resize(n, true);
    if nvp > 3 {
        // Candidates are checked against the polygons' versions when
        // taken, so a stale candidate is skipped.
        version.clear();
        version.resize(n, 0);
        heap.clear();
        let ring = |p: &[u32], e: usize| (p[e], p[wrap(e + 1, p.len())]);
        edges.set(mesh);
        // Polygon `a`'s candidates. In the first pass over the triangles
        // (`first`) a pair is left out when the other triangle `b` comes
        // before `a` and its look-up of the shared edge finds `a`'s edge:
        // `b` has pushed the very same candidate already, which the heap
        // would otherwise give twice.
        let candidates = |a: usize,
                          first: bool,
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
                if first
                    && b < a
                    && edges.find(u, v).map(|i| edges.at[i]) == Some((a as u32, ea as u32))
                {
                    continue;
                }
                let (x, ex, y, ey) = if a < b {
                    (a, ea, b, eb)
                } else {
                    (b, eb, a, ea)
                };
                if let Some(len) = merge_value(&mesh.verts, polys.get(x), polys.get(y), ex, ey, nvp)
                {
                    let [x, ex, y, ey] = [x, ex, y, ey].map(|i| i as u32);
                    let (vx, vy) = (version[x as usize], version[y as usize]);
                    heap.push((len, Reverse(x), Reverse(ex), y, ey, vx, vy));
                }
            }
        };
        for a in 0..n {
            candidates(a, true, polys, edges, version, heap);
        }
        while let Some((_, Reverse(a), Reverse(ea), b, eb, va, vb)) = heap.pop() {
            let (a, ea, b, eb) = (a as usize, ea as usize, b as usize, eb as usize);
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
            candidates(a, false, polys, edges, version, heap);
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
#[derive(Default)]
struct Polys {
    corners: Vec<u32>,
    at: Vec<(usize, usize)>,
}

impl Polys {
    /// The triangles of `mesh`, one polygon each.
    fn set(&mut self, mesh: &RegionMesh) {
        self.corners.clear();
        self.corners.extend(mesh.tris.iter().flatten());
        self.at.clear();
        self.at.extend((0..mesh.tris.len()).map(|p| (3 * p, 3)));
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
                let c = self.corners[s + wrap(e + 1 + i, n)];
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
#[derive(Default)]
struct HalfEdges {
    first: Vec<u32>,
    to: Vec<u32>,
    at: Vec<(u32, u32)>,
    /// The next free slot of each vertex while the edges are listed.
    fill: Vec<u32>,
}

impl HalfEdges {
    /// The triangles' edges of `mesh`.
    fn set(&mut self, mesh: &RegionMesh) {
        let first = &mut self.first;
        first.clear();
        first.resize(mesh.verts.len() + 1, 0);
        for t in &mesh.tris {
            for &u in t {
                first[u as usize + 1] += 1;
            }
        }
        for u in 1..first.len() {
            first[u] += first[u - 1];
        }
        self.fill.clear();
        self.fill.extend_from_slice(first);
        self.to.clear();
        self.to.resize(3 * mesh.tris.len(), NO_VERTEX);
        self.at.clear();
        self.at.resize(3 * mesh.tris.len(), (0, 0));
        for (p, t) in mesh.tris.iter().enumerate() {
            for e in 0..3 {
                let slot = &mut self.fill[t[e] as usize];
                self.to[*slot as usize] = t[wrap(e + 1, 3)];
                self.at[*slot as usize] = (p as u32, e as u32);
                *slot += 1;
            }
        }
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

/// Merges every region mesh of a tile (in parallel, in region order; each
/// thread's regions share one set of buffers).
pub fn polymesh_tile(meshes: &[RegionMesh], nvp: usize) -> Vec<RegionPolys> {
    meshes
        .par_iter()
        .map_init(Scratch::default, |s, m| merge_with(s, m, nvp))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contour::{EdgeClass, Ring};
    use crate::reference::reference_merge_polygons;
    use crate::triangulate::triangulate;
    use proptest::prelude::*;

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
    fn an_edge_listed_twice_merges_as_the_reference() {
        // Not a triangulation: triangles 0 and 1 both run 0 -> 1, 2 runs
        // 1 -> 0; and a square's two triangles beside them, with a
        // triangle given twice. The candidates left out as the other
        // triangle's copies are only those it really pushes.
        let mesh = RegionMesh {
            verts: vec![[0, 0], [4, 0], [2, 3], [2, 1], [2, -3], [4, 4], [0, 4]],
            heights: vec![0.0; 7],
            tris: vec![
                [0, 1, 2],
                [0, 1, 3],
                [1, 0, 4],
                [2, 1, 5],
                [2, 5, 6],
                [2, 5, 6],
            ],
            refused_constraints: 0,
        };
        for nvp in 3..8 {
            assert_eq!(
                merge_polygons(&mesh, nvp),
                reference_merge_polygons(&mesh, nvp)
            );
        }
        let empty = RegionMesh::default();
        assert_eq!(
            polymesh_tile(&[mesh.clone(), empty, mesh.clone()], 6)[2],
            reference_merge_polygons(&mesh, 6)
        );
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
            prop_assert_eq!(out, reference_merge_polygons(&m, nvp));
        }

        /// Random cell sets with holes, as the pipeline triangulates them:
        /// the merge gives the polygons the reference gives.
        #[test]
        fn merging_gives_the_reference_polygons(
            bits in proptest::collection::vec(any::<bool>(), 64),
            nvp in 3usize..9,
        ) {
            let cells = crate::simplify::tests::cell_regions(&bits, 1.0);
            prop_assume!(cells.is_some());
            let meshes: Vec<RegionMesh> = cells.unwrap().1.iter().map(|r| triangulate(&r.rings)).collect();
            // The tile's regions one after the other in shared buffers.
            let tile = polymesh_tile(&meshes, nvp);
            for (m, polys) in meshes.iter().zip(tile) {
                prop_assert_eq!(&merge_polygons(m, nvp), &reference_merge_polygons(m, nvp));
                prop_assert_eq!(polys, reference_merge_polygons(m, nvp));
            }
        }
    }
}
