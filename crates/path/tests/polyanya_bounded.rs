//! Polyanya stays bounded on meshes built in floating point and on meshes
//! dense in point links: a fan whose shared centre each polygon holds a
//! rounding error apart (no search node expanded twice, never longer than
//! A* with the funnel), and a pool whose every pair of polygons is linked
//! (one search per polygon, not one per link), and starts on a slanted
//! shared edge up to rounding (they see across it). The mesh side of rounding
//! (no edge of zero length, one position per vertex) is tested in the
//! `polyanya::mesh` unit tests on an excerpt of a real mesh.

use glam::DVec3;
use navscope_core::{Link, LinkKind, NavMesh, Stance};
use navscope_path::polyanya::{StepKind, TraceStep};
use navscope_path::{Method, PathFinder, SearchOptions};

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn polyanya_trace(m: &NavMesh, from: DVec3, to: DVec3) -> (f64, Vec<TraceStep>) {
    let mut f = PathFinder::new(m);
    let opts = SearchOptions {
        max_expansions: 10_000,
        ..SearchOptions::default()
    };
    let p = f.polyanya(m, from, to, &opts, true).expect("a path");
    (p.length, p.trace.expect("recorded").to_vec())
}

fn astar_length(m: &NavMesh, from: DVec3, to: DVec3) -> f64 {
    let mut f = PathFinder::new(m);
    f.find(m, Method::AStar, from, to, &SearchOptions::default())
        .expect("a path")
        .length
}

/// `n` separate squares of water in a row, one metre apart, every pair
/// joined both ways by a swim link from centre to centre (as the cspace
/// pipeline joins the faces of one pool).
fn pool(n: usize) -> NavMesh {
    let mut m = NavMesh::new("pool", "test");
    let centre = |i: usize| v(3.0 * i as f64 + 1.0, 0.0, 1.0);
    for i in 0..n {
        let x = 3.0 * i as f64;
        m.add_node(
            centre(i),
            Some(vec![
                v(x, 0.0, 2.0),
                v(x + 2.0, 0.0, 2.0),
                v(x + 2.0, 0.0, 0.0),
                v(x, 0.0, 0.0),
            ]),
            Stance::Swim,
            0,
        );
    }
    for a in 0..n {
        for b in 0..n {
            if a != b {
                let (ca, cb) = (centre(a), centre(b));
                m.links.push(Link::new(
                    a as u32,
                    b as u32,
                    LinkKind::Swim,
                    ca.distance(cb),
                    Some([ca, cb]),
                ));
            }
        }
    }
    m
}

#[test]
fn links_that_all_lead_into_one_polygon_start_one_search_there() {
    let n = 12;
    let m = pool(n);
    let from = v(0.5, 0.0, 0.5);
    let to = v(3.0 * (n - 1) as f64 + 1.5, 0.0, 1.5);
    let (length, trace) = polyanya_trace(&m, from, to);
    // Every square can be entered by n - 1 links; a point root is kept
    // only where no root already placed in the square reaches it as
    // cheaply, which here leaves the start and one or two per square.
    let points = trace.iter().filter(|s| s.kind == StepKind::Point).count();
    assert!(
        points <= 2 * n,
        "{points} point roots expanded on {n} squares ({} links)",
        m.links.len()
    );
    // A swim from centre to centre is taken at its ends (the crate's
    // `crossing` module): the straight link from the first square's
    // centre to the last one's is the shortest; every chain of links
    // walks at least as far.
    let (entry, exit) = (v(1.0, 0.0, 1.0), v(3.0 * (n - 1) as f64 + 1.0, 0.0, 1.0));
    let best = from.distance(entry) + entry.distance(exit) + exit.distance(to);
    assert!(
        (length - best).abs() < 1e-9,
        "Polyanya {length}, the best link route {best}"
    );
}

/// A fan of triangles round a point that each triangle holds a rounding
/// error away from the others (as meshes built in floating point do), and
/// a square ring of walls round the fan's rim.
fn fan_with_rounded_centre(k: usize) -> NavMesh {
    let mut m = NavMesh::new("fan", "test");
    let c = v(0.1 * 3.0, 0.0, 0.7);
    let nudge = |x: f64, i: usize| match i % 3 {
        0 => x,
        1 => f64::from_bits(x.to_bits() + 1),
        _ => f64::from_bits(x.to_bits() - 1),
    };
    let rim = |i: usize| {
        let a = std::f64::consts::TAU * i as f64 / k as f64;
        v(c.x + 2.0 * a.cos(), 0.0, c.z + 2.0 * a.sin())
    };
    for i in 0..k {
        let ci = v(nudge(c.x, i), 0.0, nudge(c.z, i + 1));
        let (a, b) = (rim(i), rim(i + 1));
        m.add_node((ci + a + b) / 3.0, Some(vec![ci, b, a]), Stance::Stand, 0);
    }
    for i in 0..k {
        let j = (i + 1) % k;
        let (p, q) = (c, rim(i + 1));
        m.links.push(Link::new(
            i as u32,
            j as u32,
            LinkKind::Walk,
            1.0,
            Some([p, q]),
        ));
        m.links.push(Link::new(
            j as u32,
            i as u32,
            LinkKind::Walk,
            1.0,
            Some([p, q]),
        ));
    }
    m
}

#[test]
fn rays_through_a_rounded_centre_pass_it_once() {
    for k in [5, 6, 7, 8] {
        let m = fan_with_rounded_centre(k);
        let c = v(0.1 * 3.0, 0.0, 0.7);
        for s in 0..k {
            let a = std::f64::consts::TAU * (s as f64 + 0.5) / k as f64;
            let d = v(a.cos(), 0.0, a.sin());
            for (from, to) in [
                (c + d * 1.2, c - d * 0.9),
                (c + d * 0.5, c - d * 1.3 + v(0.01, 0.0, 0.0)),
            ] {
                let (length, trace) = polyanya_trace(&m, from, to);
                assert!(
                    trace.len() < 200,
                    "{} expansions on a fan of {k}",
                    trace.len()
                );
                for (i, st) in trace.iter().enumerate() {
                    assert!(!trace[..i].contains(st), "expanded twice: {st:?}");
                }
                assert!(length >= from.distance(to) - 1e-9);
                assert!(length <= astar_length(&m, from, to) + 1e-9);
            }
        }
    }
}

#[test]
fn a_start_on_a_slanted_shared_edge_up_to_rounding_sees_across_it() {
    // Two triangles sharing a slanted edge; starts on that edge computed
    // in floating point (a rounding error to either side of its line), as
    // a link's exit kept inside its polygon is.
    let mut m = NavMesh::new("slant", "test");
    let (a, b) = (v(0.1, 0.0, 0.3), v(2.9, 0.0, 1.7));
    let (c, d) = (v(0.3, 0.0, 2.2), v(2.6, 0.0, -0.4));
    m.add_node((a + b + c) / 3.0, Some(vec![a, c, b]), Stance::Stand, 0);
    m.add_node((a + b + d) / 3.0, Some(vec![a, b, d]), Stance::Stand, 0);
    m.add_two_way(0, 1, LinkKind::Walk, 1.0, Some([a, b]));
    for k in 1..40 {
        let from = a.lerp(b, k as f64 / 40.0);
        for to in [(a + b + d) / 3.0, (a + b + c) / 3.0] {
            let (length, _) = polyanya_trace(&m, from, to);
            assert!(
                (length - from.distance(to)).abs() < 1e-9,
                "from {from} to {to}: {length} against {}",
                from.distance(to)
            );
        }
    }
}
