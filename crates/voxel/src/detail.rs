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
//! **Whose floor.** A polygon takes heights only from its own floor, as
//! Recast's `getHeightData` does: within the polygon's cell bounds (one
//! cell wider), the spans of its region's label are the seeds, and a flood
//! from them over the pass's span links adds one span for every column of
//! the bounds the region does not reach (the edge cells of neighbouring
//! regions, on the same floor). A span is never taken merely because it
//! lies in the column: a floor above or below the polygon (a bridge, the
//! next storey, reached by nothing but the column) is not its surface.
//! The surface height under a plan point is the floor of the polygon's
//! span in that cell nearest to the coarse surface there (two when a region
//! overlaps itself in plan); with none (a polygon edge on the far side of
//! its last cell) the coarse height stands. A sample distance of 0 turns
//! sampling off: the detail is the polygon's own triangles.

use glam::{DVec2, DVec3};
use rayon::prelude::*;
use serde::Serialize;
use spade::{DelaunayTriangulation, Point2, Triangulation};

use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::{DIRS, NO_LINK};
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
    /// The pass's region label of every span ([`crate::partition::NO_REGION`]
    /// for none).
    pub region: &'a [u32],
}

impl<'a> Surface<'a> {
    /// The grid cell under plan point `(x, z)`.
    fn cell(&self, x: f64, z: f64) -> (i32, i32) {
        let g = self.grid;
        (
            ((x - g.origin.x) / g.cs).floor() as i32,
            ((z - g.origin.z) / g.cs).floor() as i32,
        )
    }

    /// The floor of a polygon of the region labelled `label` (plan corners
    /// `poly`): the region's spans within the polygon's cell bounds, one
    /// cell wider, and a flood from them over the pass's links into the
    /// columns of the bounds they leave empty (see the module's notes).
    pub fn floor(&self, label: u32, poly: &[DVec3]) -> Floor<'_, 'a> {
        if poly.is_empty() {
            return Floor {
                surface: self,
                spans: Vec::new(),
            };
        }
        let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
        for p in poly {
            let (x, z) = self.cell(p.x, p.z);
            lo = (lo.0.min(x - 1), lo.1.min(z - 1));
            hi = (hi.0.max(x + 1), hi.1.max(z + 1));
        }
        let mut spans: Vec<(u32, i32, i32)> = Vec::new();
        let w = (hi.0 - lo.0 + 1) as usize;
        let slot = |x: i32, z: i32| {
            (x >= lo.0 && x <= hi.0 && z >= lo.1 && z <= hi.1)
                .then(|| (z - lo.1) as usize * w + (x - lo.0) as usize)
        };
        let mut taken = vec![false; w * (hi.1 - lo.1 + 1) as usize];
        for z in lo.1..=hi.1 {
            for x in lo.0..=hi.0 {
                let Some(c) = self.hf.col(x, z) else {
                    continue;
                };
                for s in self.hf.range(c) {
                    if self.region.get(s) == Some(&label) && self.flags.walkable(s) {
                        spans.push((s as u32, x, z));
                        taken[slot(x, z).unwrap()] = true;
                    }
                }
            }
        }
        let links = &self.flags.links;
        let mut next = 0;
        while let Some(&(s, x, z)) = spans.get(next) {
            next += 1;
            for (d, (dx, dz)) in DIRS.iter().enumerate() {
                let Some(&t) = links.get(4 * s as usize + d) else {
                    continue;
                };
                let Some(i) = slot(x + dx, z + dz) else {
                    continue;
                };
                if t == NO_LINK || taken[i] || !self.flags.walkable(t as usize) {
                    continue;
                }
                taken[i] = true;
                spans.push((t, x + dx, z + dz));
            }
        }
        let mut spans: Vec<u32> = spans.into_iter().map(|(s, _, _)| s).collect();
        spans.sort_unstable();
        Floor {
            surface: self,
            spans,
        }
    }
}

/// The spans one polygon takes its heights from ([`Surface::floor`]).
pub struct Floor<'s, 'a> {
    surface: &'s Surface<'a>,
    /// Sorted span indices.
    spans: Vec<u32>,
}

impl Floor<'_, '_> {
    /// The floor height under `(x, z)` nearest to `hint`, if a span of the
    /// polygon's floor is in that cell.
    pub fn height(&self, x: f64, z: f64, hint: f64) -> Option<f64> {
        let s = self.surface;
        let (gx, gz) = s.cell(x, z);
        let c = s.hf.col(gx, gz)?;
        s.hf.range(c)
            .filter(|&i| self.spans.binary_search(&(i as u32)).is_ok())
            .map(|i| s.grid.y(s.hf.spans[i].floor))
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
pub fn detail_polygon(poly: &[DVec3], floor: &Floor, p: DetailParams) -> Vec<[DVec3; 3]> {
    let n = poly.len();
    if n < 3 {
        return Vec::new();
    }
    let mut pts: Vec<DVec3> = poly.to_vec();
    if p.sample_dist <= 0.0 {
        return triangles(&pts);
    }
    let sample = |x: f64, z: f64, hint: f64| floor.height(x, z, hint).unwrap_or(hint);
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

/// The detail of every polygon of every region of one tile; `surfaces`
/// are the tile's, one per pass (the pass and label of each region pick
/// its floor). The regions are independent and run in parallel (a one-tile
/// build has no other parallelism here), collected in region order.
pub fn detail_tile(
    surfaces: &[Surface],
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
            let surface = &surfaces[r.pass];
            let grid = surface.grid;
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
                        detail_polygon(&pts, &surface.floor(r.label, &pts), p)
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
    use crate::pass_flags::WALKABLE;
    use crate::samples::MeshBuilder;
    use crate::settings::DetailParams;

    /// A ramp from y 0 at x 0 up to 0.6 m at x 4, then a plateau to x 8.
    fn ramp_and_plateau() -> (Grid, Heightfield, Vec<PassFlags>) {
        let mut b = MeshBuilder::new();
        b.ramp("ramp", [0., 4.], [0., 4.], [0., 0.6]);
        b.solid("plateau", [4., 0.5, 0.], [8., 0.6, 4.]);
        build(&b.level().mesh, "stand")
    }

    /// Label 1 for every walkable span of `f`: one region over the pass.
    fn one_region(f: &PassFlags) -> Vec<u32> {
        f.flags.iter().map(|&x| u32::from(x >= WALKABLE)).collect()
    }

    /// The floor of region 1 under the plan corners `(x, z)`.
    fn floor_of<'s, 'a>(s: &'s Surface<'a>, corners: &[(f64, f64)]) -> Floor<'s, 'a> {
        let plan: Vec<DVec3> = corners
            .iter()
            .map(|&(x, z)| DVec3::new(x, 0.0, z))
            .collect();
        s.floor(1, &plan)
    }

    /// Corners (x, z) counter-clockwise seen from above, on the surface.
    fn polygon(s: &Surface, corners: &[(f64, f64)]) -> Vec<DVec3> {
        let f = floor_of(s, corners);
        corners
            .iter()
            .map(|&(x, z)| DVec3::new(x, f.height(x, z, 0.0).unwrap(), z))
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
        let region = one_region(&f[0]);
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
            region: &region,
        };
        let corners = [(0.6, 0.6), (0.6, 3.4), (7.4, 3.4), (7.4, 0.6)];
        let (poly, floor) = (polygon(&s, &corners), floor_of(&s, &corners));
        let tris = detail_polygon(&poly, &floor, PARAMS);
        // Counter-clockwise seen from above, covering the polygon exactly.
        assert!(tris.iter().all(|t| plan_area(&[*t]) < 0.0));
        assert!((plan_area(&tris) + 6.8 * 2.8).abs() < 1e-9);
        // Every inside sample is within the bound of the detail surface.
        let samples = inside_samples(&poly, PARAMS.sample_dist);
        assert!(samples.len() > 20);
        for q in samples {
            let want = floor.height(q.x, q.y, 0.3).unwrap();
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
        let region = one_region(&f[0]);
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
            region: &region,
        };
        let lc = [(0.6, 0.6), (0.6, 3.4), (3.0, 3.4), (5.0, 0.6)];
        let rc = [(5.0, 0.6), (3.0, 3.4), (7.4, 3.4), (7.4, 0.6)];
        let (left, right) = (polygon(&s, &lc), polygon(&s, &rc));
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
            detail_polygon(&left, &floor_of(&s, &lc), PARAMS),
            detail_polygon(&right, &floor_of(&s, &rc), PARAMS),
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
        let region = one_region(&f[0]);
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
            region: &region,
        };
        let corners = [(0.6, 0.6), (0.6, 3.4), (3.0, 3.4), (3.5, 2.0), (3.0, 0.6)];
        let (poly, floor) = (polygon(&s, &corners), floor_of(&s, &corners));
        let off = DetailParams {
            sample_dist: 0.0,
            max_error: 0.05,
        };
        let tris = detail_polygon(&poly, &floor, off);
        assert_eq!(tris.len(), 3);
        assert!(tris.iter().flatten().all(|p| poly.contains(p)));
        assert!(detail_polygon(&poly[..2], &floor, PARAMS).is_empty());
        assert!(inside_samples(&poly, 0.0).is_empty());
        // Far outside the tile: no surface, the corners' heights stand.
        let away: Vec<DVec3> = [(100., 100.), (100., 101.), (101., 101.)]
            .iter()
            .map(|&(x, z)| DVec3::new(x, 1.0, z))
            .collect();
        let t = detail_polygon(&away, &s.floor(1, &away), PARAMS);
        assert!(t.iter().flatten().all(|p| p.y == 1.0));
    }

    #[test]
    fn a_floor_under_a_bridge_takes_no_height_from_the_bridge() {
        let mut b = MeshBuilder::new();
        b.solid("floor", [0., -0.2, 0.], [8., 0., 8.]);
        b.solid("bridge", [3., 2.8, 0.], [5., 3., 8.]);
        let (g, hf, f) = build(&b.level().mesh, "stand");
        // Region 1 the ground, region 2 the bridge.
        let region: Vec<u32> = (0..hf.spans.len())
            .map(|i| match f[0].walkable(i) {
                false => 0,
                true if g.y(hf.spans[i].floor) < 1.5 => 1,
                true => 2,
            })
            .collect();
        let s = Surface {
            hf: &hf,
            grid: &g,
            flags: &f[0],
            region: &region,
        };
        let (x, z) = (4.1, 4.1);
        // The column under the bridge's middle holds both walkable floors,
        // so the column alone would answer the bridge to a hint near it.
        let (gx, gz) = s.cell(x, z);
        let c = hf.col(gx, gz).unwrap();
        let floors: Vec<f64> = hf
            .range(c)
            .filter(|&i| f[0].walkable(i))
            .map(|i| g.y(hf.spans[i].floor))
            .collect();
        assert_eq!(floors.len(), 2, "{floors:?}");
        let ground = [(0.6, 0.6), (0.6, 7.4), (7.4, 7.4), (7.4, 0.6)];
        let low = s.floor(1, &ground.map(|(x, z)| DVec3::new(x, 0.0, z)));
        let h = low.height(x, z, 3.0).unwrap();
        assert!(h.abs() < 0.25, "the ground under the bridge at {h}");
        let deck = [(3.6, 0.6), (3.6, 7.4), (4.4, 7.4), (4.4, 0.6)];
        let high = s.floor(2, &deck.map(|(x, z)| DVec3::new(x, 3.0, z)));
        let h = high.height(x, z, 0.0).unwrap();
        assert!((h - 3.0).abs() < 0.25, "the bridge at {h}");
        // The ground's detail, from corners whose coarse surface is pulled
        // up towards the bridge (every sample's hint is nearer the bridge
        // than the ground), has no point on the bridge: its samples are on
        // the ground, its corners where they were put.
        let lifted: Vec<DVec3> = ground.iter().map(|&(x, z)| DVec3::new(x, 2.5, z)).collect();
        let tris = detail_polygon(&lifted, &low, PARAMS);
        assert!(tris.iter().flatten().any(|p| p.y < 0.25));
        for p in tris.iter().flatten() {
            assert!(p.y < 0.25 || p.y == 2.5, "{p}");
        }
    }
}
