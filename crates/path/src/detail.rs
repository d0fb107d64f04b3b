//! Detail surfaces: the height inside a node from its `detail` triangles
//! (NavMesh version 2; the voxel pipeline's detail mesh, Recast's
//! `rcPolyMeshDetail`).
//!
//! A [`Detail`] is built once per node (by the [`crate::Locator`], or by
//! [`crate::funnel()`] for the nodes of its path) and answers two questions:
//!
//! * **Height at `(x, z)`** ([`Detail::height`]): the height of the detail
//!   triangle containing the point seen from above, boundary included (a
//!   barycentric slack of `1e-12` absorbs rounding; the first such triangle
//!   in the node's order wins, and where triangles share an edge they agree
//!   on it). When no triangle contains the point (a sliver between
//!   triangles, or detail that does not cover the whole polygon) the height
//!   is that of the nearest triangle at its point nearest to `(x, z)`: its
//!   plane clamped to the triangle, so the surface is continuous and never
//!   leaves the range of the detail's vertex heights. The plan distance to
//!   that triangle comes with the height, so callers can tell a point on the
//!   surface from one beside it. A flat detail (every corner at one
//!   height) gives that height everywhere, so it answers without a search.
//! * **Where a plan segment crosses the triangles' edges**
//!   ([`Detail::crossings`]): the points the path gains so that it follows
//!   the surface instead of cutting through a hill (see the `funnel`
//!   module).
//!
//! Triangles with a non-finite coordinate or no area seen from above (twice
//! their plan area at most `1e-12` times their longest plan edge squared)
//! have no height as a function of `(x, z)` and are left out. A node whose
//! detail is missing, empty or all left out has no [`Detail`]: its height is
//! its polygon's plane, exactly as for meshes without detail.

use glam::{DVec2, DVec3};
use navscope_core::geom::world_to_plan;
use navscope_core::navmesh::Node;

use crate::num::positive;

/// Barycentric slack: a point this little outside a triangle (in units of
/// its barycentric coordinates) still counts as inside it.
const SLACK: f64 = 1e-12;

/// Degenerate-triangle bound: twice the plan area over the longest plan
/// edge squared.
const MIN_SHAPE: f64 = 1e-12;

/// Parameter gap (fraction of a segment) below which two crossings, or a
/// crossing and a segment end, are one point.
const SAME_T: f64 = 1e-9;

/// Distance (metres, in plan and in height) within which a point counts as
/// on a detail surface ([`Detail::holds`]).
const ON_SURFACE: f64 = 1e-6;

/// One non-degenerate detail triangle, seen from above.
#[derive(Clone, Debug)]
struct Tri {
    /// Plan corners.
    p: [DVec2; 3],
    /// Corner heights.
    y: [f64; 3],
    /// `(p1 - p0) x (p2 - p0)`: twice the signed plan area.
    den: f64,
    /// Plan bounds, widened by [`SLACK`] times their larger side (the box
    /// a point must be in to be looked at).
    lo: DVec2,
    hi: DVec2,
}

impl Tri {
    fn new(t: &[DVec3; 3]) -> Option<Self> {
        if t.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let p = t.map(world_to_plan);
        let den = (p[1] - p[0]).perp_dot(p[2] - p[0]);
        let longest = (0..3)
            .map(|i| p[i].distance_squared(p[(i + 1) % 3]))
            .fold(0.0, f64::max);
        // Also left out: a NaN area (an overflowing coordinate).
        if !positive(den.abs() - MIN_SHAPE * longest) {
            return None;
        }
        let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
        let slack = SLACK * (hi - lo).max_element();
        Some(Self {
            p,
            y: t.map(|v| v.y),
            den,
            lo: lo - slack,
            hi: hi + slack,
        })
    }

    /// Height at `q` if the triangle contains it (boundary included), kept
    /// within the corner heights.
    fn height_inside(&self, q: DVec2) -> Option<f64> {
        let [a, b, c] = self.p;
        let u = (q - a).perp_dot(c - a) / self.den;
        let v = (b - a).perp_dot(q - a) / self.den;
        let w = 1.0 - u - v;
        if u < -SLACK || v < -SLACK || w < -SLACK {
            return None;
        }
        let h = w * self.y[0] + u * self.y[1] + v * self.y[2];
        Some(h.clamp(self.y_min(), self.y_max()))
    }

    /// Plan distance from `q` to the triangle's boundary and the height at
    /// the boundary point nearest `q`.
    fn nearest(&self, q: DVec2) -> (f64, f64) {
        let mut best = (f64::INFINITY, self.y[0]);
        for i in 0..3 {
            let j = (i + 1) % 3;
            let (a, b) = (self.p[i], self.p[j]);
            let ab = b - a;
            let t = ((q - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            let d = (a + ab * t).distance(q);
            if d < best.0 {
                best = (d, self.y[i] + (self.y[j] - self.y[i]) * t);
            }
        }
        best
    }

    fn y_min(&self) -> f64 {
        self.y[0].min(self.y[1]).min(self.y[2])
    }

    fn y_max(&self) -> f64 {
        self.y[0].max(self.y[1]).max(self.y[2])
    }
}

/// A node's detail triangles, ready for height queries (see the module
/// docs).
#[derive(Clone, Debug)]
pub(crate) struct Detail {
    tris: Vec<Tri>,
    /// Every triangle edge once, plan endpoints in a fixed order.
    edges: Vec<[DVec2; 2]>,
    /// 3D bounds of the kept triangles.
    lo: DVec3,
    hi: DVec3,
}

impl Detail {
    /// The one height of a flat detail (every kept corner at the same
    /// height): then every height the surface gives is exactly this one,
    /// inside a triangle or clamped to the nearest, so it needs no search.
    fn flat(&self) -> Option<f64> {
        (self.lo.y == self.hi.y).then_some(self.lo.y)
    }
}

impl Detail {
    /// The detail of a node with a polygon of at least three finite
    /// vertices, or `None` when it has no usable detail triangle.
    pub(crate) fn of_node(node: &Node) -> Option<Self> {
        let polygon = node.polygon.as_ref()?;
        if polygon.len() < 3 || polygon.iter().any(|p| !p.is_finite()) {
            return None;
        }
        Self::new(node.detail.as_deref()?)
    }

    /// The detail of `triangles`, or `None` when none of them is usable.
    pub(crate) fn new(triangles: &[[DVec3; 3]]) -> Option<Self> {
        let kept: Vec<(&[DVec3; 3], Tri)> = triangles
            .iter()
            .filter_map(|t| Tri::new(t).map(|tri| (t, tri)))
            .collect();
        if kept.is_empty() {
            return None;
        }
        let corners = kept.iter().flat_map(|(t, _)| t.iter().copied());
        let lo = corners.clone().fold(DVec3::INFINITY, DVec3::min);
        let hi = corners.fold(DVec3::NEG_INFINITY, DVec3::max);
        let key = |p: DVec2| (p.x.to_bits(), p.y.to_bits());
        let mut edges: Vec<[DVec2; 2]> = kept
            .iter()
            .flat_map(|(_, t)| (0..3).map(move |i| (t.p[i], t.p[(i + 1) % 3])))
            .map(|(a, b)| {
                if a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)).is_le() {
                    [a, b]
                } else {
                    [b, a]
                }
            })
            .collect();
        edges.sort_by(|e, f| {
            (e[0].x.total_cmp(&f[0].x))
                .then(e[0].y.total_cmp(&f[0].y))
                .then(e[1].x.total_cmp(&f[1].x))
                .then(e[1].y.total_cmp(&f[1].y))
        });
        edges.dedup_by(|e, f| (key(e[0]), key(e[1])) == (key(f[0]), key(f[1])));
        Some(Self {
            tris: kept.into_iter().map(|(_, t)| t).collect(),
            edges,
            lo,
            hi,
        })
    }

    /// 3D bounds of the usable triangles: every height [`Detail::height`]
    /// returns lies in their height range.
    pub(crate) fn bounds(&self) -> (DVec3, DVec3) {
        (self.lo, self.hi)
    }

    /// True when the detail is flat and both `a` and `b` lie at its
    /// height: every crossing of the leg between them is then at that
    /// height too, on the straight 3D leg.
    pub(crate) fn level_with(&self, a: DVec3, b: DVec3) -> bool {
        self.flat().is_some_and(|y| a.y == y && b.y == y)
    }

    /// Surface height at plan point `q` (see the module docs); the height
    /// of [`Detail::surface`] without its triangle search on a flat detail.
    pub(crate) fn height(&self, q: DVec2) -> f64 {
        self.flat().unwrap_or_else(|| self.surface(q).0)
    }

    /// Surface height at plan point `q` and the plan distance from `q` to
    /// the triangle giving it (0 inside a triangle); see the module docs.
    fn surface(&self, q: DVec2) -> (f64, f64) {
        let inside = self
            .tris
            .iter()
            .filter(|t| q.cmpge(t.lo).all() && q.cmple(t.hi).all())
            .find_map(|t| t.height_inside(q));
        if let Some(h) = inside {
            return (h, 0.0);
        }
        let mut best = (f64::INFINITY, self.tris[0].y[0]);
        for t in &self.tris {
            let (d, h) = t.nearest(q);
            if d < best.0 {
                best = (d, h);
            }
        }
        (best.1, best.0)
    }

    /// True when `p` lies on the surface: over a triangle (within a micron,
    /// seen from above) and at its height (within a micron).
    pub(crate) fn holds(&self, p: DVec3) -> bool {
        // Every surface height lies in the bounds' height range (up to
        // rounding): a point further above or below it is off the surface
        // without a search.
        if !(self.lo.y - 2.0 * ON_SURFACE..=self.hi.y + 2.0 * ON_SURFACE).contains(&p.y) {
            return false;
        }
        let (h, off) = self.surface(world_to_plan(p));
        off <= ON_SURFACE && (p.y - h).abs() <= ON_SURFACE
    }

    /// Which of `details` (the first) has a surface holding both `ends`:
    /// the detail a crossing segment takes its heights from (see the
    /// `funnel` module).
    pub(crate) fn holder(ends: [DVec3; 2], details: [Option<&Detail>; 2]) -> Option<usize> {
        (0..2).find(|&i| details[i].is_some_and(|d| ends.iter().all(|e| d.holds(*e))))
    }

    /// Appends to `out` the points where the plan segment from `a` to `b`
    /// crosses the triangles' edges, strictly between its ends, ordered
    /// from `a`, each at its surface height; none for a segment of no plan
    /// length. `ts` is scratch space (the funnel keeps both buffers
    /// between queries).
    pub(crate) fn crossings(&self, a: DVec3, b: DVec3, ts: &mut Vec<f64>, out: &mut Vec<DVec3>) {
        let (pa, pb) = (world_to_plan(a), world_to_plan(b));
        let d = pb - pa;
        ts.clear();
        for [e0, e1] in &self.edges {
            let e = *e1 - *e0;
            let den = d.perp_dot(e);
            if den == 0.0 || !den.is_finite() {
                continue;
            }
            let w = *e0 - pa;
            let t = w.perp_dot(e) / den;
            let u = w.perp_dot(d) / den;
            if t > SAME_T && t < 1.0 - SAME_T && (-SLACK..=1.0 + SLACK).contains(&u) {
                ts.push(t);
            }
        }
        ts.sort_by(f64::total_cmp);
        ts.dedup_by(|t, prev| *t - *prev <= SAME_T);
        out.extend(ts.iter().map(|&t| {
            let (x, z) = (a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t);
            let h = self.height(world_to_plan(DVec3::new(x, 0.0, z)));
            DVec3::new(x, h, z)
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> DVec3 {
        DVec3::new(x, y, z)
    }

    /// [`Detail::crossings`] into a fresh vector.
    fn crossings(d: &Detail, a: DVec3, b: DVec3) -> Vec<DVec3> {
        let mut out = Vec::new();
        d.crossings(a, b, &mut Vec::new(), &mut out);
        out
    }

    fn q(x: f64, z: f64) -> DVec2 {
        world_to_plan(p(x, 0.0, z))
    }

    /// A unit square split along its diagonal, the far corner raised.
    fn two() -> Vec<[DVec3; 3]> {
        vec![
            [p(0., 0., 0.), p(1., 0., 0.), p(0., 0., 1.)],
            [p(1., 0., 0.), p(1., 1., 1.), p(0., 0., 1.)],
        ]
    }

    #[test]
    fn heights_come_from_the_containing_triangle() {
        let d = Detail::new(&two()).unwrap();
        assert_eq!(d.surface(q(0.25, 0.25)), (0.0, 0.0));
        let (h, dist) = d.surface(q(0.75, 0.75));
        assert!((h - 0.5).abs() < 1e-12 && dist == 0.0);
        // On the shared diagonal both agree: height 0.
        assert_eq!(d.surface(q(0.5, 0.5)), (0.0, 0.0));
        assert_eq!(d.bounds(), (p(0., 0., 0.), p(1., 1., 1.)));
    }

    #[test]
    fn outside_points_take_the_nearest_triangle_clamped() {
        let d = Detail::new(&two()).unwrap();
        // Beyond the raised corner: the corner's height, not the plane's 1.5.
        let (h, dist) = d.surface(q(1.5, 1.5));
        assert_eq!(h, 1.0);
        assert!((dist - 0.5f64.hypot(0.5)).abs() < 1e-12);
        let (h, dist) = d.surface(q(1.0, 2.0));
        assert_eq!((h, dist), (1.0, 1.0));
    }

    #[test]
    fn unusable_triangles_are_left_out() {
        let flat = [p(0., 0., 0.), p(1., 5., 0.), p(2., 9., 0.)];
        let point = [p(1., 1., 1.); 3];
        let nan = [p(f64::NAN, 0., 0.), p(1., 0., 0.), p(0., 0., 1.)];
        assert!(Detail::new(&[]).is_none());
        assert!(Detail::new(&[flat, point, nan]).is_none());
        let mut tris = vec![flat, point, nan];
        tris.extend(two());
        let d = Detail::new(&tris).unwrap();
        assert_eq!(d.tris.len(), 2);
        assert_eq!(d.edges.len(), 5);
        assert_eq!(d.surface(q(1.0, 0.0)), (0.0, 0.0));
    }

    #[test]
    fn flat_detail_heights_match_the_triangle_search() {
        let flat: Vec<[DVec3; 3]> = two()
            .into_iter()
            .map(|t| t.map(|v| p(v.x, 2.5, v.z)))
            .collect();
        let d = Detail::new(&flat).unwrap();
        for (x, z) in [(0.25, 0.25), (0.75, 0.75), (1.5, 1.5), (-3.0, 0.5)] {
            assert_eq!(d.height(q(x, z)), d.surface(q(x, z)).0);
        }
        assert!(d.level_with(p(0.1, 2.5, 0.1), p(0.9, 2.5, 0.2)));
        assert!(!d.level_with(p(0.1, 2.5, 0.1), p(0.9, 2.5 + 1e-9, 0.2)));
        assert!(d.holds(p(0.5, 2.5 + 1e-7, 0.5)));
        assert!(!d.holds(p(0.5, 2.5 + 1e-5, 0.5)) && !d.holds(p(3.0, 2.5, 3.0)));
        // A sloped detail is not flat: its heights come from the search.
        let sloped = Detail::new(&two()).unwrap();
        assert!(!sloped.level_with(p(0.1, 0., 0.1), p(0.2, 0., 0.1)));
        assert!((sloped.height(q(0.75, 0.75)) - 0.5).abs() < 1e-12);
        assert!(!sloped.holds(p(0.25, 1.1, 0.25)) && sloped.holds(p(0.25, 0., 0.25)));
    }

    #[test]
    fn crossings_are_ordered_edge_points_at_surface_height() {
        let d = Detail::new(&two()).unwrap();
        // Across the square along z = 0.5: one crossing, the diagonal.
        let c = crossings(&d, p(-1., 7., 0.5), p(2., 7., 0.5));
        assert_eq!(c.len(), 3);
        assert_eq!((c[0].x, c[0].y), (0.0, 0.0));
        assert_eq!((c[1].x, c[1].y), (0.5, 0.0));
        assert_eq!(c[2].x, 1.0);
        assert!((c[2].y - 0.5).abs() < 1e-12);
        let back = crossings(&d, p(2., 7., 0.5), p(-1., 7., 0.5));
        assert_eq!(
            back.iter().map(|c| c.x).collect::<Vec<_>>(),
            [1.0, 0.5, 0.0]
        );
        // Through shared corners: one point each, not one per edge.
        let c = crossings(&d, p(-1., 0., -1.), p(2., 0., 2.));
        assert_eq!(c.iter().map(|c| c.x).collect::<Vec<_>>(), [0.0, 0.5, 1.0]);
        assert!(crossings(&d, p(0.2, 0., 0.2), p(0.2, 0., 0.2)).is_empty());
    }
}
