//! navscope's Polyanya against the `polyanya` crate on the same mesh and
//! the same queries, in one process: the shared polyanya benchmark
//! (`../shared/data/polyanya-meshes/arena.mesh` with `arena-euclid.scen`).
//! Each engine answers all the queries per iteration, so the time per
//! query is the reported time over the number of queries (printed first).
//!
//! `cargo bench -p navscope-path --bench polyanya`. Skips with a message
//! when the shared data is absent.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::DVec3;
use navscope_core::{LinkKind, NavMesh, Stance};
use navscope_path::{PathFinder, SearchOptions};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/polyanya-meshes"
);

/// The polygons of a polyanya version 2 mesh as a NavMesh: world
/// `(x, 0, y)`, a portal link (with the shared edge) between neighbours.
fn navmesh_of(text: &str) -> NavMesh {
    let mut t = text.split_whitespace();
    let mut next = || t.next().expect("mesh file ends early");
    assert_eq!((next(), next()), ("mesh", "2"));
    let (nv, np): (usize, usize) = (next().parse().unwrap(), next().parse().unwrap());
    let mut verts = Vec::with_capacity(nv);
    for _ in 0..nv {
        let (x, y): (f64, f64) = (next().parse().unwrap(), next().parse().unwrap());
        verts.push(DVec3::new(x, 0.0, y));
        let n: usize = next().parse().unwrap();
        for _ in 0..n {
            next();
        }
    }
    let mut mesh = NavMesh::new("polyanya", "arena.mesh");
    let mut nbrs = Vec::with_capacity(np);
    for _ in 0..np {
        let n: usize = next().parse().unwrap();
        let v: Vec<usize> = (0..n).map(|_| next().parse().unwrap()).collect();
        let p: Vec<i64> = (0..n).map(|_| next().parse().unwrap()).collect();
        let poly: Vec<DVec3> = v.iter().map(|i| verts[*i]).collect();
        let centre = poly.iter().copied().sum::<DVec3>() / n as f64;
        mesh.add_node(centre, Some(poly), Stance::Stand, 0);
        nbrs.push((v, p));
    }
    for (a, (v, p)) in nbrs.iter().enumerate() {
        for (i, b) in p.iter().enumerate() {
            if *b >= 0 {
                let seg = [verts[v[(i + v.len() - 1) % v.len()]], verts[v[i]]];
                mesh.links.push(navscope_core::Link::new(
                    a as u32,
                    *b as u32,
                    LinkKind::Portal,
                    0.0,
                    Some(seg),
                ));
            }
        }
    }
    mesh
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(DIR);
    let (Ok(text), Ok(scen)) = (
        std::fs::read_to_string(dir.join("arena.mesh")),
        std::fs::read_to_string(dir.join("arena-euclid.scen")),
    ) else {
        eprintln!("skipped: {DIR} is absent");
        return;
    };
    let queries: Vec<[f64; 4]> = scen
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<f64> = l
                .split_whitespace()
                .skip(4)
                .take(4)
                .map(|x| x.parse().unwrap())
                .collect();
            [f[0], f[1], f[2], f[3]]
        })
        .collect();
    eprintln!("{} queries per iteration", queries.len());

    let theirs: polyanya::Mesh = polyanya::PolyanyaFile::from_bytes(text.as_bytes())
        .try_into()
        .expect("the polyanya crate reads arena.mesh");
    let ours_mesh = navmesh_of(&text);
    let mut ours = PathFinder::new(&ours_mesh);
    let opts = SearchOptions::default();

    // Both agree before they race.
    for q in &queries {
        let a = theirs
            .path(
                glam_polyanya::Vec2::new(q[0] as f32, q[1] as f32),
                glam_polyanya::Vec2::new(q[2] as f32, q[3] as f32),
            )
            .map(|p| p.length as f64);
        let b = ours
            .polyanya(
                &ours_mesh,
                DVec3::new(q[0], 0.0, q[1]),
                DVec3::new(q[2], 0.0, q[3]),
                &opts,
                false,
            )
            .map(|p| p.length)
            .ok();
        assert_eq!(a.is_some(), b.is_some(), "query {q:?}");
        if let (Some(a), Some(b)) = (a, b) {
            assert!(
                (a - b).abs() <= 1e-3 * (1.0 + b),
                "query {q:?}: {a} against {b}"
            );
        }
    }

    let mut g = c.benchmark_group("arena-euclid, all queries");
    g.bench_function("polyanya crate", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(theirs.path(
                    glam_polyanya::Vec2::new(q[0] as f32, q[1] as f32),
                    glam_polyanya::Vec2::new(q[2] as f32, q[3] as f32),
                ));
            }
        })
    });
    g.bench_function("navscope polyanya", |b| {
        b.iter(|| {
            for q in &queries {
                let r = ours.polyanya(
                    &ours_mesh,
                    DVec3::new(q[0], 0.0, q[1]),
                    DVec3::new(q[2], 0.0, q[3]),
                    &opts,
                    false,
                );
                black_box(r.map(|p| p.length).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
