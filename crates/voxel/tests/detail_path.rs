//! End to end: a path over a hill in a voxel-built NavMesh follows the
//! detail surface (navscope-path reads the nodes' `detail`), not the flat
//! planes of the polygons the hill lies in.

mod common;

use common::{level_of, params};
use glam::{DVec2, DVec3, Vec3};
use navscope_core::ParamValue;
use navscope_core::geom::TriMesh;
use navscope_core::level::MeshLevel;
use navscope_core::navmesh::Node;
use navscope_path::{Locator, SearchOptions, find_path};
use navscope_voxel::build;

/// Height of the hill: 1 m high at (6, 4), a Gaussian of 2 m width (at
/// most about 23 degrees steep), on a 12 x 8 m floor.
fn hill(x: f64, z: f64) -> f64 {
    (-((x - 6.0).powi(2) + (z - 4.0).powi(2)) / 4.0).exp()
}

/// The floor with the hill as a grid of upward-facing triangles.
fn level() -> MeshLevel {
    let (nx, nz, step) = (48u32, 32u32, 0.25f32);
    let mut mesh = TriMesh::default();
    for j in 0..=nz {
        for i in 0..=nx {
            let (x, z) = (i as f32 * step, j as f32 * step);
            mesh.vertices
                .push(Vec3::new(x, hill(x as f64, z as f64) as f32, z));
        }
    }
    let id = |i: u32, j: u32| j * (nx + 1) + i;
    for j in 0..nz {
        for i in 0..nx {
            let (a, b, c, d) = (id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i + 1, j));
            mesh.triangles.extend([[a, b, c], [a, c, d]]);
        }
    }
    MeshLevel {
        mesh,
        ..MeshLevel::default()
    }
}

/// Height of the detail triangle of `n` under `(x, z)` (within a micron).
fn detail_height(n: &Node, x: f64, z: f64) -> Option<f64> {
    let q = DVec2::new(x, z);
    n.detail.as_ref()?.iter().find_map(|[a, b, c]| {
        let (pa, pb, pc) = (
            DVec2::new(a.x, a.z),
            DVec2::new(b.x, b.z),
            DVec2::new(c.x, c.z),
        );
        let den = (pb - pa).perp_dot(pc - pa);
        if den.abs() < 1e-12 {
            return None;
        }
        let u = (q - pa).perp_dot(pc - pa) / den;
        let v = (pb - pa).perp_dot(q - pa) / den;
        let eps = 1e-6 / (pb - pa).length().max((pc - pa).length());
        (u >= -eps && v >= -eps && u + v <= 1.0 + eps)
            .then_some(a.y + u * (b.y - a.y) + v * (c.y - a.y))
    })
}

/// Height of the plane through `n`'s polygon corners (least squares, as a
/// flat polygon would give) under `(x, z)`.
fn corner_plane(n: &Node, x: f64, z: f64) -> f64 {
    let p = n.polygon.as_ref().unwrap();
    let c = p.iter().sum::<DVec3>() / p.len() as f64;
    let mut normal = DVec3::ZERO;
    for i in 0..p.len() {
        normal += (p[i] - c).cross(p[(i + 1) % p.len()] - c);
    }
    c.y - (normal.x * (x - c.x) + normal.z * (z - c.z)) / normal.y
}

#[test]
fn a_path_over_a_hill_follows_the_detail_surface() {
    let p = params(&[
        ("passes", ParamValue::Text("stand".into())),
        ("tile_size", ParamValue::Int(0)),
        ("cell_size", ParamValue::Float(0.2)),
    ]);
    let b = build(&level_of(level()), &p).unwrap();
    let m = b.navmesh();
    assert!(m.nodes.iter().any(|n| n.detail.is_some()));
    let r = find_path(
        m,
        &Locator::new(m),
        DVec3::new(1.0, 0.0, 4.0),
        DVec3::new(11.0, 0.0, 4.0),
        &SearchOptions::default(),
    )
    .unwrap();
    // Every waypoint lies on the detail of its node.
    for w in &r.waypoints {
        let (p, n) = (w.position, &m.nodes[w.node as usize]);
        let h = detail_height(n, p.x, p.z).expect("the waypoint is over its node's detail");
        assert!((p.y - h).abs() < 1e-6, "{p} is off the detail ({h})");
    }
    // The highest waypoint is near the hilltop and well above its polygon's
    // corner plane, which cuts under the hill.
    let top = r
        .waypoints
        .iter()
        .max_by(|a, b| a.position.y.total_cmp(&b.position.y))
        .unwrap();
    let p = top.position;
    let plane = corner_plane(&m.nodes[top.node as usize], p.x, p.z);
    assert!(p.y > 0.8, "the path tops out at {p}");
    assert!(p.y > plane + 0.2, "{p} vs its polygon's plane at {plane}");
    assert!((p.y - hill(p.x, p.z)).abs() < 0.15, "{p} vs the hill");
}

/// Nodes of `m` with a detail vertex more than `tol` metres above or below
/// every corner of their polygon: heights taken from another floor.
fn nodes_off_their_floor(m: &navscope_core::NavMesh, tol: f64) -> usize {
    m.nodes
        .iter()
        .filter(|n| {
            let (Some(poly), Some(detail)) = (n.polygon.as_ref(), n.detail.as_ref()) else {
                return false;
            };
            let lo = poly.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
            let hi = poly.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
            detail
                .iter()
                .flatten()
                .any(|p| p.y < lo - tol || p.y > hi + tol)
        })
        .count()
}

/// Issue #40's reproduction: `nav_test.obj` with the Recast demo settings
/// and long edges (`max_edge_len = 12`), where big polygons lie under
/// other floors. Their detail keeps to their own floor, and the path
/// between two points of the ground floor stays on it (Detour: 16.5 m).
#[test]
fn nav_test_detail_keeps_to_each_polygons_own_floor() {
    let Some(path) = common::recast_mesh("nav_test.obj") else {
        return;
    };
    let p = common::recast_params(&[
        ("passes", ParamValue::Text("stand".into())),
        ("max_error", ParamValue::Float(0.39)),
        ("max_edge_len", ParamValue::Float(12.0)),
        ("filter_ledge_spans", ParamValue::Bool(true)),
    ]);
    let b = build(&common::load(&path), &p).unwrap();
    let m = b.navmesh();
    assert!(m.nodes.len() > 100, "{} nodes", m.nodes.len());
    // A cell height is 0.2 m; 1 m is a generous bump within one floor and
    // far less than a storey.
    assert_eq!(nodes_off_their_floor(m, 1.0), 0);
    let r = find_path(
        m,
        &Locator::new(m),
        DVec3::new(4.874, -2.270, -5.219),
        DVec3::new(-4.536, -2.270, 7.163),
        &SearchOptions::default(),
    )
    .unwrap();
    let top = r
        .waypoints
        .iter()
        .map(|w| w.position.y)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(top < -1.0, "the path climbs to y = {top}");
    assert!(r.length < 20.0, "the path is {} m", r.length);
}
