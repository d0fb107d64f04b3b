//! Merging the fragments of one walkable plane: the union clips faces into
//! many pieces (every brush in range cuts them), so a room's floor comes
//! out as dozens of slivers. Two pieces in the same plane and region that
//! share an edge (the same two vertices, met in opposite directions) are
//! merged when their union is convex; this repeats until no pair merges.
//! The result covers exactly what the pieces covered, with convex
//! polygons (the NavMesh's promise) and fewer nodes.
//!
//! Pieces of one face that BSP clipping split share their cut points
//! exactly (both sides of a split take the same intersection point), so
//! matching vertices on a 1 µm grid finds them; pieces that only touch
//! along part of an edge (T-junctions) are left apart, and the edge plane
//! table still links them.

use std::collections::HashMap;

use glam::DVec3;

use crate::walkable::WalkPoly;

/// A vertex on a 1 µm grid.
type VertexKey = (i64, i64, i64);

/// Vertex key: coordinates on a 1 µm grid.
fn key(p: DVec3) -> VertexKey {
    let q = (p * 1.0e6).round();
    (q.x as i64, q.y as i64, q.z as i64)
}

/// True when `a` and `b` lie in the same plane and region.
fn same_surface(a: &WalkPoly, b: &WalkPoly) -> bool {
    a.region == b.region
        && a.plane.normal.dot(b.plane.normal) > 1.0 - 1e-12
        && (a.plane.d - b.plane.d).abs() < 1e-9
}

/// Drops vertices where the boundary goes straight on; `None` unless what
/// is left is strictly convex, counter-clockwise seen from above.
fn convex(poly: Vec<DVec3>) -> Option<Vec<DVec3>> {
    let turn = |a: DVec3, b: DVec3, c: DVec3| (b - a).cross(c - b).y;
    let mut p = poly;
    let mut i = 0;
    while i < p.len() && p.len() >= 3 {
        let n = p.len();
        let (a, b, c) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
        let scale = (b - a).length() * (c - b).length();
        if turn(a, b, c).abs() <= 1e-9 * scale.max(1e-12) {
            p.remove(i);
            i = 0;
        } else {
            i += 1;
        }
    }
    let n = p.len();
    (n >= 3 && (0..n).all(|i| turn(p[i], p[(i + 1) % n], p[(i + 2) % n]) > 0.0)).then_some(p)
}

/// The union of `p` and `q` across their shared edge `p[i] → p[i+1]`
/// (`q[j] → q[j+1]` runs the other way), if convex.
fn joined(p: &[DVec3], i: usize, q: &[DVec3], j: usize) -> Option<Vec<DVec3>> {
    let (n, m) = (p.len(), q.len());
    let mut out = Vec::with_capacity(n + m - 2);
    // p from its edge's end round to its start, then q's inner vertices.
    for k in 0..n {
        out.push(p[(i + 1 + k) % n]);
    }
    for k in 1..m - 1 {
        out.push(q[(j + 1 + k) % m]);
    }
    convex(out)
}

/// Merges fragments of one plane and region into fewer convex polygons
/// (see the module docs). Deterministic: polygons are visited in order and
/// each keeps the fields of the first of the pieces merged into it.
pub fn merge_coplanar(polys: Vec<WalkPoly>) -> Vec<WalkPoly> {
    let mut polys: Vec<Option<WalkPoly>> = polys.into_iter().map(Some).collect();
    loop {
        // Directed edge (from, to) -> (polygon, edge index).
        let mut edges: HashMap<(VertexKey, VertexKey), (usize, usize)> = HashMap::new();
        for (pi, p) in polys.iter().enumerate() {
            let Some(p) = p else { continue };
            let n = p.polygon.len();
            for e in 0..n {
                edges
                    .entry((key(p.polygon[e]), key(p.polygon[(e + 1) % n])))
                    .or_insert((pi, e));
            }
        }
        let mut merged_any = false;
        for pi in 0..polys.len() {
            let mut e = 0;
            while let Some(p) = &polys[pi] {
                let n = p.polygon.len();
                if e >= n {
                    break;
                }
                let back = (key(p.polygon[(e + 1) % n]), key(p.polygon[e]));
                let found = edges.get(&back).copied().filter(|&(qi, _)| {
                    qi != pi && polys[qi].as_ref().is_some_and(|q| same_surface(p, q))
                });
                let union = found.and_then(|(qi, qe)| {
                    let q = polys[qi].as_ref()?;
                    // The edge index may be stale after earlier merges.
                    let m = q.polygon.len();
                    (qe < m
                        && key(q.polygon[qe]) == back.0
                        && key(q.polygon[(qe + 1) % m]) == back.1)
                        .then(|| joined(&p.polygon, e, &q.polygon, qe))
                        .flatten()
                        .map(|u| (qi, u))
                });
                match union {
                    Some((qi, u)) => {
                        polys[qi] = None;
                        if let Some(p) = polys[pi].as_mut() {
                            p.polygon = u;
                        }
                        merged_any = true;
                        // Edge keys of the merged polygon are new: rebuild.
                        break;
                    }
                    None => e += 1,
                }
            }
        }
        if !merged_any {
            break;
        }
    }
    polys.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyhedron::polygon_area;
    use crate::walkable::test_square as square;
    use proptest::prelude::*;

    #[test]
    fn a_grid_of_squares_becomes_one_and_other_planes_stay() {
        let mut polys = Vec::new();
        for i in 0..4 {
            for k in 0..3 {
                polys.push(square(
                    i as f64,
                    k as f64,
                    i as f64 + 1.0,
                    k as f64 + 1.0,
                    0.5,
                ));
            }
        }
        polys.push(square(4.0, 0.0, 5.0, 1.0, 0.9));
        let mut wet = square(5.0, 0.0, 6.0, 1.0, 0.9);
        wet.region = Some(0);
        polys.push(wet);
        let out = merge_coplanar(polys);
        assert_eq!(out.len(), 3, "{out:?}");
        assert!((polygon_area(&out[0].polygon) - 12.0).abs() < 1e-9);
        assert_eq!(out[0].polygon.len(), 4, "collinear vertices dropped");
    }

    #[test]
    fn an_l_shape_stays_two_pieces() {
        let out = merge_coplanar(vec![
            square(0.0, 0.0, 2.0, 1.0, 0.0),
            square(0.0, 1.0, 1.0, 2.0, 0.0),
        ]);
        assert_eq!(out.len(), 2, "their union is not convex");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn merging_keeps_area_and_convexity(cuts in proptest::collection::vec(0.05f64..0.95, 1..6), w in 0.5f64..4.0) {
            // A strip cut at random x positions into pieces.
            let mut xs: Vec<f64> = cuts.iter().map(|c| c * w).collect();
            xs.sort_by(f64::total_cmp);
            xs.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
            let mut edges = vec![0.0];
            edges.extend(xs);
            edges.push(w);
            let polys: Vec<WalkPoly> = edges.windows(2).map(|x| square(x[0], 0.0, x[1], 1.0, 0.2)).collect();
            let out = merge_coplanar(polys);
            prop_assert_eq!(out.len(), 1);
            prop_assert!((polygon_area(&out[0].polygon) - w).abs() < 1e-9);
            prop_assert!(convex(out[0].polygon.clone()).is_some());
        }
    }
}
