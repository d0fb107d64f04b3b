//! Stage `detail`, Recast's `rcBuildPolyMeshDetail`: the height detail
//! inside every polygon, so that paths and probe points follow the surface
//! (a hill inside one polygon gets its shape back).
//!
//! For each convex polygon (corners at their outline heights):
//!
//! 1. **Edges.** Each edge is sampled every `detail_sample_dist` cells;
//!    each sample takes the height of the voxel surface under it. The
//!    samples are kept by Douglas-Peucker on their height error above
//!    `detail_sample_max_error` voxels; an edge is always sampled from its
//!    lexicographically smaller end, so the two polygons that share it
//!    get the same points and the detail surfaces meet without cracks
//!    (Recast does the same).
//! 2. **Inside.** A grid of samples at the same spacing, each at least half
//!    a spacing inside the polygon, takes the surface height too.
//! 3. **Refinement.** The points so far are Delaunay-triangulated; the
//!    inside sample farthest (in height) from that surface is added while
//!    that distance exceeds the error bound, at most [`MAX_ADDED`] samples
//!    per polygon (Recast's `MAX_VERTS` budget plays the same role).
//!
//! The surface height under a plan point is the floor of the span of that
//! cell walkable in the polygon's pass whose floor lies nearest to the
//! coarse surface there; with no such span (a polygon edge on the far side
//! of its last cell) the coarse height stands. A sample distance of 0 turns
//! sampling off: the detail is the polygon's own triangles.

use glam::{DVec2, DVec3};
use rayon::prelude::*;
use serde::Serialize;
use spade::{DelaunayTriangulation, Point2, Triangulation};

use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::pass_flags::PassFlags;
use crate::polymesh::RegionPolys;
use crate::settings::DetailParams;
use crate::triangulate::RegionMesh;

/// Most inside samples added to one polygon.
pub const MAX_ADDED: usize = 64;

/// The detail triangles of one region, per polygon (world coordinates,
/// counter-clockwise seen from above).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RegionDetail {
    /// One list of triangles per polygon of the region.
    pub polys: Vec<Vec<[DVec3; 3]>>,
}

/// The voxel surface under plan points, for one pass of one tile.
pub struct Surface<'a> {
    /// The tile's spans.
    pub hf: &'a Heightfield,
    /// The grid.
    pub grid: &'a Grid,
    /// The pass whose walkable spans count.
    pub flags: &'a PassFlags,
}

impl Surface<'_> {
    /// The floor height under `(x, z)` nearest to `hint`, if a walkable
    /// span of the pass is there.
    pub fn height(&self, x: f64, z: f64, hint: f64) -> Option<f64> {
        let g = self.grid;
        let gx = ((x - g.origin.x) / g.cs).floor() as i32;
        let gz = ((z - g.origin.z) / g.cs).floor() as i32;
        let c = self.hf.col(gx, gz)?;
        self.hf
            .range(c)
            .filter(|&s| self.flags.walkable(s))
            .map(|s| g.y(self.hf.spans[s].floor))
            .min_by(|a, b| (a - hint).abs().total_cmp(&(b - hint).abs()))
    }
}

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

/// Height of the plane of triangle `t` at plan point `q`, if `q` is inside
/// it (boundary included, with a little slack).
fn height_in(t: &[DVec3; 3], q: DVec2) -> Option<f64> {
    let (a, b, c) = (plan(t[0]), plan(t[1]), plan(t[2]));
    let den = (b - a).perp_dot(c - a);
    if den.abs() < 1e-12 {
        return None;
    }
    let u = (q - a).perp_dot(c - a) / den;
    let v = (b - a).perp_dot(q - a) / den;
    let eps = 1e-9;
    (u >= -eps && v >= -eps && u + v <= 1.0 + eps)
        .then(|| t[0].y + u * (t[1].y - t[0].y) + v * (t[2].y - t[0].y))
}

/// Height of a triangle list at `q`.
pub fn height_on(tris: &[[DVec3; 3]], q: DVec2) -> Option<f64> {
    tris.iter().find_map(|t| height_in(t, q))
}

/// Keeps the edge samples whose height error exceeds `max_error`
/// (Douglas-Peucker on height over the parameter along the edge).
fn refine_edge(pts: &[DVec3], max_error: f64) -> Vec<usize> {
    let mut keep = vec![false; pts.len()];
    keep[0] = true;
    keep[pts.len() - 1] = true;
    let mut stack = vec![(0usize, pts.len() - 1)];
    while let Some((a, b)) = stack.pop() {
        let mut far = (max_error, 0usize);
        for m in a + 1..b {
            let t = (m - a) as f64 / (b - a) as f64;
            let e = (pts[m].y - (pts[a].y + (pts[b].y - pts[a].y) * t)).abs();
            if e > far.0 {
                far = (e, m);
            }
        }
        if far.1 != 0 {
            keep[far.1] = true;
            stack.push((a, far.1));
            stack.push((far.1, b));
        }
    }
    (0..pts.len()).filter(|&i| keep[i]).collect()
}

/// The Delaunay triangles of `pts` (counter-clockwise seen from above).
fn triangles(pts: &[DVec3]) -> Vec<[DVec3; 3]> {
    let mut dt: DelaunayTriangulation<Point2<f64>> = DelaunayTriangulation::new();
    let mut ys: Vec<f64> = Vec::new();
    for p in pts {
        let Ok(h) = dt.insert(Point2::new(p.x, p.z)) else {
            continue;
        };
        if h.index() >= ys.len() {
            ys.resize(h.index() + 1, p.y);
        }
        ys[h.index()] = p.y;
    }
    dt.inner_faces()
        .map(|f| {
            let [a, b, c] = f.vertices().map(|v| {
                let q = v.position();
                DVec3::new(q.x, ys[v.fix().index()], q.y)
            });
            // spade's faces run counter-clockwise in (x, z); seen from
            // above (+Y, x right, z down the screen) that is clockwise.
            [a, c, b]
        })
        .collect()
}

/// The inside sample points of a convex polygon (counter-clockwise seen
/// from above): a grid of spacing `dist` from the corner of its bounds, each
/// at least `dist / 2` inside every edge; none when the grid would pass a
/// million points.
pub fn inside_samples(poly: &[DVec3], dist: f64) -> Vec<DVec2> {
    let n = poly.len();
    if n < 3 || dist <= 0.0 {
        return Vec::new();
    }
    let inner = |q: DVec2| {
        (0..n).all(|i| {
            let (a, b) = (plan(poly[i]), plan(poly[(i + 1) % n]));
            let l = a.distance(b);
            l == 0.0 || (b - a).perp_dot(q - a) / l <= -dist / 2.0
        })
    };
    let lo = poly.iter().fold(plan(poly[0]), |m, &v| m.min(plan(v)));
    let hi = poly.iter().fold(plan(poly[0]), |m, &v| m.max(plan(v)));
    let steps = ((hi - lo) / dist).ceil();
    let cells = steps.x * steps.y;
    if cells.is_nan() || cells > 1e6 {
        return Vec::new();
    }
    (0..=steps.y as usize)
        .flat_map(|iz| (0..=steps.x as usize).map(move |ix| (ix, iz)))
        .map(|(ix, iz)| lo + DVec2::new(ix as f64, iz as f64) * dist)
        .filter(|&q| inner(q))
        .collect()
}

/// The detail triangles of one convex polygon (corners counter-clockwise
/// seen from above, at their heights).
pub fn detail_polygon(poly: &[DVec3], surface: &Surface, p: DetailParams) -> Vec<[DVec3; 3]> {
    let n = poly.len();
    if n < 3 {
        return Vec::new();
    }
    let mut pts: Vec<DVec3> = poly.to_vec();
    if p.sample_dist <= 0.0 {
        return triangles(&pts);
    }
    let sample = |x: f64, z: f64, hint: f64| surface.height(x, z, hint).unwrap_or(hint);
    for i in 0..n {
        let (mut a, mut b) = (poly[i], poly[(i + 1) % n]);
        if (b.x, b.z) < (a.x, a.z) {
            std::mem::swap(&mut a, &mut b);
        }
        let len = plan(b).distance(plan(a));
        let k = ((len / p.sample_dist).floor() as usize).clamp(1, 1 << 12);
        let edge: Vec<DVec3> = (0..=k)
            .map(|j| {
                let t = j as f64 / k as f64;
                let q = a.lerp(b, t);
                if j == 0 || j == k {
                    q
                } else {
                    DVec3::new(q.x, sample(q.x, q.z, q.y), q.z)
                }
            })
            .collect();
        let kept = refine_edge(&edge, p.max_error);
        pts.extend(kept[1..kept.len() - 1].iter().map(|&j| edge[j]));
    }
    let mut tris = triangles(&pts);
    let mut cands: Vec<DVec3> = inside_samples(poly, p.sample_dist)
        .into_iter()
        .map(|q| {
            let hint = height_on(&tris, q).unwrap_or(poly[0].y);
            DVec3::new(q.x, sample(q.x, q.y, hint), q.y)
        })
        .collect();
    for _ in 0..MAX_ADDED {
        let worst = cands
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let h = height_on(&tris, DVec2::new(c.x, c.z))?;
                Some(((c.y - h).abs(), i))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        match worst {
            Some((e, i)) if e > p.max_error => {
                pts.push(cands.swap_remove(i));
                tris = triangles(&pts);
            }
            _ => break,
        }
    }
    tris
}

/// The detail of every polygon of every region of one tile; `passes` are
/// the tile's flags (the pass of each region picks its surface). The
/// regions are independent and run in parallel (a one-tile build has no
/// other parallelism here), collected in region order.
pub fn detail_tile(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[PassFlags],
    regions: &[crate::contour::Region],
    meshes: &[RegionMesh],
    polys: &[RegionPolys],
    p: DetailParams,
) -> Vec<RegionDetail> {
    regions
        .par_iter()
        .zip(meshes)
        .zip(polys)
        .map(|((r, mesh), rp)| {
            let surface = Surface {
                hf,
                grid,
                flags: &passes[r.pass],
            };
            let at = |i: u32| {
                let v = mesh.verts[i as usize];
                grid.corner(v[0], -v[1], mesh.heights[i as usize] as f64)
            };
            RegionDetail {
                polys: rp
                    .polys
                    .iter()
                    .map(|poly| {
                        let pts: Vec<DVec3> = poly.iter().map(|&i| at(i)).collect();
                        detail_polygon(&pts, &surface, p)
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::tests::build;
    use crate::samples::MeshBuilder;
    use crate::settings::DetailParams;

    /// A ramp from y 0 at x 0 up to 0.6 m at x 4, then a plateau to x 8.
    fn ramp_and_plateau() -> (Grid, Heightfield, Vec<PassFlags>) {
        let mut b = MeshBuilder::new();
        b.ramp("ramp", [0., 4.], [0., 4.], [0., 0.6]);
        b.solid("plateau", [4., 0.5, 0.], [8., 0.6, 4.]);
        build(&b.level().mesh, "stand")
    }

    /// Corners (x, z) counter-clockwise seen from above, on the surface.
    fn polygon(s: &Surface, corners: &[(f64, f64)]) -> Vec<DVec3> {
        corners
            .iter()
            .map(|&(x, z)| DVec3::new(x, s.height(x, z, 0.0).unwrap(), z))
            .collect()
    }

    fn plan_area(tris: &[[DVec3; 3]]) -> f64 {
        tris.iter()
            .map(|t| (plan(t[1]) - plan(t[0])).perp_dot(plan(t[2]) - plan(t[0])) / 2.0)
            .sum()
    }

    const PARAMS: DetailParams = DetailParams {
        sample_dist: 0.6,
        max_error: 0.05,
    };

    #[test]
    fn the_detail_follows_a_ramp_onto_a_plateau_within_the_error_bound() {
        let (g, hf, f) = ramp_and_plateau();
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
        };
        let poly = polygon(&s, &[(0.6, 0.6), (0.6, 3.4), (7.4, 3.4), (7.4, 0.6)]);
        let tris = detail_polygon(&poly, &s, PARAMS);
        // Counter-clockwise seen from above, covering the polygon exactly.
        assert!(tris.iter().all(|t| plan_area(&[*t]) < 0.0));
        assert!((plan_area(&tris) + 6.8 * 2.8).abs() < 1e-9);
        // Every inside sample is within the bound of the detail surface.
        let samples = inside_samples(&poly, PARAMS.sample_dist);
        assert!(samples.len() > 20);
        for q in samples {
            let want = s.height(q.x, q.y, 0.3).unwrap();
            let got = height_on(&tris, q).unwrap();
            assert!(
                (got - want).abs() <= PARAMS.max_error + 1e-9,
                "{q}: {got} vs {want}"
            );
        }
        // The kink at the top of the ramp is there; the corners alone would
        // put it 0.3 m lower.
        let top = height_on(&tris, DVec2::new(4.2, 2.0)).unwrap();
        assert!((top - 0.6).abs() < 0.1, "{top}");
    }

    #[test]
    fn polygons_sharing_an_edge_sample_it_alike() {
        let (g, hf, f) = ramp_and_plateau();
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
        };
        let left = polygon(&s, &[(0.6, 0.6), (0.6, 3.4), (3.0, 3.4), (5.0, 0.6)]);
        let right = polygon(&s, &[(5.0, 0.6), (3.0, 3.4), (7.4, 3.4), (7.4, 0.6)]);
        let on_edge = |tris: &[[DVec3; 3]]| {
            let (a, b) = (DVec2::new(5.0, 0.6), DVec2::new(3.0, 3.4));
            let mut v: Vec<[u64; 3]> = tris
                .iter()
                .flatten()
                .filter(|p| (b - a).perp_dot(plan(**p) - a).abs() < 1e-9)
                .map(|p| p.to_array().map(f64::to_bits))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let (l, r) = (
            detail_polygon(&left, &s, PARAMS),
            detail_polygon(&right, &s, PARAMS),
        );
        assert!(
            on_edge(&l).len() > 2,
            "the slanted edge over the kink gets samples"
        );
        assert_eq!(on_edge(&l), on_edge(&r));
    }

    #[test]
    fn without_sampling_the_detail_is_the_polygon_and_degenerate_input_is_empty() {
        let (g, hf, f) = ramp_and_plateau();
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
        };
        let poly = polygon(
            &s,
            &[(0.6, 0.6), (0.6, 3.4), (3.0, 3.4), (3.5, 2.0), (3.0, 0.6)],
        );
        let off = DetailParams {
            sample_dist: 0.0,
            max_error: 0.05,
        };
        let tris = detail_polygon(&poly, &s, off);
        assert_eq!(tris.len(), 3);
        assert!(tris.iter().flatten().all(|p| poly.contains(p)));
        assert!(detail_polygon(&poly[..2], &s, PARAMS).is_empty());
        assert!(inside_samples(&poly, 0.0).is_empty());
        // Far outside the tile: no surface, the corners' heights stand.
        let away: Vec<DVec3> = [(100., 100.), (100., 101.), (101., 101.)]
            .iter()
            .map(|&(x, z)| DVec3::new(x, 1.0, z))
            .collect();
        let t = detail_polygon(&away, &s, PARAMS);
        assert!(t.iter().flatten().all(|p| p.y == 1.0));
    }
}
