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
