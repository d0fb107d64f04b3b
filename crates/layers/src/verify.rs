//! Brute-force checks of an axis against its obstacles: what the tests
//! assert, available to callers who want to audit a result.

use glam::DVec2;

use crate::axis::Axis;
use crate::open::walk;
use crate::sites::{Sites, closest_on_segment};

/// Distance from `p` on `layer` to the nearest obstacle point, by brute
/// force over every site: a site counts when it faces `p` and a straight
/// walk from `p` to its closest point ends on the site's layer (so
/// obstacles seen through the `opened` connections count). The access
/// sides of opened connections (and the points they cover) are not
/// obstacles. A point on an opened connection is on both its layers.
pub fn nearest_obstacle(sites: &Sites, opened: &[usize], layer: usize, p: DVec2) -> f64 {
    nearest_obstacle_point(sites, opened, layer, p).map_or(f64::INFINITY, |(d, _)| d)
}

/// [`nearest_obstacle`] with the obstacle point itself.
pub fn nearest_obstacle_point(
    sites: &Sites,
    opened: &[usize],
    layer: usize,
    p: DVec2,
) -> Option<(f64, DVec2)> {
    let mut layers = vec![layer];
    for &o in opened {
        let c = sites.conns[o];
        let on = closest_on_segment(c.a, c.b, p).distance(p) <= 1e-9 * (1.0 + p.length());
        if on && (c.from == layer || c.to == layer) {
            layers.push(if c.from == layer { c.to } else { c.from });
        }
    }
    let mut best: Option<(f64, DVec2)> = None;
    for s in &sites.list {
        let gone = s.access.or(s.within).is_some_and(|c| opened.contains(&c));
        if gone || !s.faces(p) {
            continue;
        }
        let q = s.geom.closest(p);
        let d = q.distance(p);
        if best.is_none_or(|(b, _)| d < b)
            && layers
                .iter()
                .any(|&l| walk(&sites.conns, opened, l, p, q) == s.layer)
        {
            best = Some((d, q));
        }
    }
    best
}

/// The first axis point (edge polyline points, chord midpoints and
/// vertices) whose annotated clearance differs from the brute-force
/// nearest-obstacle distance by more than `tol`, or whose two closest
/// points are not equally far, as a message.
pub fn check_clearances(
    axis: &Axis,
    sites: &Sites,
    opened: &[usize],
    tol: f64,
) -> Result<(), String> {
    for (i, e) in axis.edges.iter().enumerate() {
        for (k, p) in e.points.iter().enumerate() {
            let (d0, d1) = (p.closest[0].distance(p.at), p.closest[1].distance(p.at));
            if (d0 - d1).abs() > tol {
                return Err(format!(
                    "edge {i} point {k} at {:?}: closest points at {d0} and {d1}",
                    p.at
                ));
            }
            let n = nearest_obstacle(sites, opened, e.layer, p.at);
            if (n - p.clearance).abs() > tol {
                return Err(format!(
                    "edge {i} (layer {}) point {k} at {:?}: clearance {} but nearest obstacle at {n}",
                    e.layer, p.at, p.clearance
                ));
            }
        }
        for w in e.points.windows(2) {
            let m = (w[0].at + w[1].at) * 0.5;
            let (g0, g1) = (
                sites.list[e.sites[0] as usize].geom,
                sites.list[e.sites[1] as usize].geom,
            );
            let (d0, d1) = (g0.distance(m), g1.distance(m));
            let n = nearest_obstacle(sites, opened, e.layer, m);
            if (d0 - d1).abs() > 2.0 * tol || n < d0.min(d1) - 2.0 * tol {
                return Err(format!(
                    "edge {i} chord midpoint {m:?}: sites at {d0} and {d1}, nearest obstacle at {n}"
                ));
            }
        }
    }
    for (i, v) in axis.vertices.iter().enumerate() {
        let n = nearest_obstacle(sites, opened, v.layer, v.at);
        let on_edge = axis.edges.iter().any(|e| e.ends.contains(&(i as u32)));
        if on_edge && (n - v.clearance).abs() > tol {
            return Err(format!(
                "vertex {i} at {:?}: clearance {} but nearest obstacle at {n}",
                v.at, v.clearance
            ));
        }
    }
    Ok(())
}

/// True when every axis edge point lies in its layer's free space.
pub fn edges_in_free_space(axis: &Axis, sites: &Sites) -> Result<(), String> {
    for (i, e) in axis.edges.iter().enumerate() {
        for p in &e.points {
            let area = &sites.areas[e.layer];
            let near = area
                .rings()
                .map(|r| r.boundary_distance(p.at))
                .fold(f64::INFINITY, f64::min);
            if !area.contains(p.at) && near > 1e-9 {
                return Err(format!(
                    "edge {i} point {:?} lies outside layer {}",
                    p.at, e.layer
                ));
            }
        }
    }
    Ok(())
}
