//! Degenerate input: collinear and duplicate vertices, holes touching at a
//! vertex, a vertex exactly on a notch's prolonged edge, a hole vertex on
//! another hole's edge prolongation, huge coordinates, bad levels.

mod common;

use std::sync::Arc;

use glam::DVec2;
use navscope_convex::{PortalKind, decompose_plan, pipeline};
use navscope_core::geom::{Polygon, PolygonWithHoles};
use navscope_core::level::{FloorPlan, Level, LevelData, RasterPlan};
use navscope_core::{Runner, StageError};

fn v(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn plan(outer: Vec<DVec2>, holes: Vec<Vec<DVec2>>) -> PolygonWithHoles {
    PolygonWithHoles::new(
        Polygon::new(outer),
        holes.into_iter().map(Polygon::new).collect(),
    )
}

fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
    vec![v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)]
}

fn ok(p: &PolygonWithHoles, tau: f64) -> navscope_convex::Output {
    let out = decompose_plan(p, tau, true).unwrap_or_else(|e| panic!("{e}"));
    common::check(p, &out, tau);
    out
}

fn first_error(p: PolygonWithHoles) -> StageError {
    let level = Level {
        source: "bad.json".into(),
        data: LevelData::FloorPlan(FloorPlan {
            area: p,
            ..Default::default()
        }),
    };
    let mut r = Runner::new(Arc::new(pipeline()), Arc::new(level));
    r.run_all();
    r.first_error()
        .map(|(_, e)| e.clone())
        .expect("the build fails")
}

#[test]
fn collinear_vertices_are_kept_and_are_not_notches() {
    // An L-shaped room with extra vertices in the middle of straight walls.
    let l = vec![
        v(0., 0.),
        v(2., 0.),
        v(4., 0.),
        v(4., 2.),
        v(3., 2.),
        v(2., 2.),
        v(2., 3.),
        v(2., 4.),
        v(0., 4.),
        v(0., 2.),
    ];
    let out = ok(&plan(l, vec![]), 0.0);
    assert_eq!(out.strict_notches, 1);
    assert_eq!(out.cells.len(), 2);
}

#[test]
fn duplicate_vertices_are_dropped() {
    let outer = vec![
        v(0., 0.),
        v(0., 0.),
        v(4., 0.),
        v(4., 4.),
        v(4., 4.),
        v(0., 4.),
        v(0., 0.),
    ];
    let out = ok(&plan(outer, vec![square(1., 1., 2., 2.)]), 0.0);
    assert_eq!(out.strict_notches, 4);
}

#[test]
fn holes_touching_at_a_vertex_are_a_named_error() {
    let p = plan(
        square(0., 0., 10., 10.),
        vec![square(2., 2., 4., 4.), square(4., 4., 6., 6.)],
    );
    assert_eq!(
        first_error(p).to_string(),
        "bad.json: hole 0 and hole 1 meet at (4, -4)"
    );
    let p = plan(
        square(0., 0., 10., 10.),
        vec![vec![v(0., 5.), v(2., 4.), v(2., 6.)]],
    );
    assert_eq!(
        first_error(p).to_string(),
        "bad.json: outer boundary and hole 0 meet at (0, -5)"
    );
}

#[test]
fn a_vertex_exactly_on_a_notchs_prolonged_edge_gets_the_portal() {
    // The L's notch (2, 2) prolongs its incoming edge (4,2)->(2,2) along y = 2;
    // the hole's corner (1, 2) lies exactly on that ray.
    let l = vec![
        v(0., 0.),
        v(4., 0.),
        v(4., 2.),
        v(2., 2.),
        v(2., 4.),
        v(0., 4.),
    ];
    let out = ok(&plan(l, vec![square(0.5, 1.5, 1., 2.)]), 0.0);
    let first = &out.decomposition.portals[0];
    assert_eq!(
        (first.a, first.b, first.kind),
        (v(2., 2.), v(1., 2.), PortalKind::VertexVertex)
    );
}

#[test]
fn collinear_slot_edges_join_vertex_to_vertex() {
    // A U-shaped hole whose slot opening is spanned along the tips' line.
    let u = vec![
        v(2., 2.),
        v(8., 2.),
        v(8., 6.),
        v(6., 6.),
        v(6., 4.),
        v(4., 4.),
        v(4., 6.),
        v(2., 6.),
    ];
    let out = ok(&plan(square(0., 0., 10., 10.), vec![u]), 0.0);
    assert!(
        out.decomposition
            .portals
            .iter()
            .any(|p| (p.a, p.b) == (v(4., 6.), v(6., 6.)) || (p.a, p.b) == (v(6., 6.), v(4., 6.)))
    );
}

#[test]
fn a_hole_vertex_on_another_holes_edge_prolongation_splits_both_notches() {
    // Hole A's top edge prolonged runs exactly through hole B's top-left corner.
    let p = plan(
        square(0., 0., 10., 6.),
        vec![square(1., 1., 2., 2.), square(4., 1., 5., 2.)],
    );
    let out = ok(&p, 0.0);
    let joined = out
        .decomposition
        .portals
        .iter()
        .find(|q| (q.a, q.b) == (v(2., 2.), v(4., 2.)) || (q.a, q.b) == (v(4., 2.), v(2., 2.)));
    assert!(joined.is_some(), "the corners on one line are joined");
    let dropped: usize = out
        .decomposition
        .steps
        .iter()
        .map(|s| s.dropped.len())
        .sum();
    assert!(
        dropped >= 1,
        "the far notch is split by the same portal and leaves the list"
    );
}

#[test]
fn huge_coordinates() {
    let base = navscope_levels::generate::floor_plan(7, 6).area;
    let shift = v(3.0e7, -2.0e7);
    let moved = PolygonWithHoles::new(
        Polygon::new(base.outer.points.iter().map(|p| *p + shift).collect()),
        base.holes
            .iter()
            .map(|h| Polygon::new(h.points.iter().map(|p| *p + shift).collect()))
            .collect(),
    );
    let a = ok(&base, 0.0);
    // At 3e7 m one ulp is 3.7e-9 m: split points sit that far off their
    // edges, which on 1 m features bends a straight corner by ~1e-8 rad.
    let b = decompose_plan(&moved, 0.0, true).unwrap();
    common::check_with(&moved, &b, 0.0, 1e-6);
    assert_eq!(a.cells.len(), b.cells.len());
}

#[test]
fn bad_levels_are_named_errors() {
    let e = first_error(plan(vec![v(0., 0.), v(1., 1.), v(2., 2.)], vec![]));
    assert_eq!(
        e.to_string(),
        "bad.json: outer boundary: encloses zero area (all vertices collinear)"
    );
    let e = first_error(plan(vec![], vec![]));
    assert!(
        e.to_string().contains("needs at least 3 distinct vertices"),
        "{e}"
    );
    let level = Level {
        source: "pic.png".into(),
        data: LevelData::Raster(RasterPlan::default()),
    };
    let mut r = Runner::new(Arc::new(pipeline()), Arc::new(level));
    r.run_all();
    let e = r.first_error().unwrap().1.to_string();
    assert_eq!(
        e,
        "pic.png: the convex pipeline needs a floor plan, got a raster floor plan"
    );
}

#[test]
fn a_round_pillar_without_tau_notches_is_joined_by_an_island_step() {
    // A 90-gon pillar: every corner bends by 4 degrees, below tau = 5, so no
    // notch of the list touches it.
    let pillar: Vec<DVec2> = (0..90)
        .map(|i| {
            let a = -(i as f64) * std::f64::consts::TAU / 90.0;
            v(5.0 + 1.5 * a.cos(), 5.0 + 1.5 * a.sin())
        })
        .collect();
    let p = plan(square(0., 0., 10., 10.), vec![pillar]);
    let out = ok(&p, 5.0);
    assert!(out.notches.is_empty(), "no tau-notch at all");
    assert!(
        out.decomposition.steps.iter().filter(|s| s.island).count() >= 2,
        "one portal leaves a bridge, so a second island step follows"
    );
    // With strict convexity all 90 corners are notches.
    assert_eq!(ok(&p, 0.0).strict_notches, 90);
}

#[test]
fn a_hall_of_round_pillars_is_joined_in_rounds() {
    let pillar = |cx: f64, cy: f64| -> Vec<DVec2> {
        (0..60)
            .map(|i| {
                let a = -(i as f64) * std::f64::consts::TAU / 60.0;
                v(cx + a.cos(), cy + a.sin())
            })
            .collect()
    };
    let holes = (0..16)
        .map(|k| pillar(2.0 + 4.0 * (k % 4) as f64, 2.0 + 4.0 * (k / 4) as f64))
        .collect();
    let p = plan(square(0., 0., 16., 16.), holes);
    let out = ok(&p, 8.0);
    assert!(out.notches.is_empty());
    assert!(out.decomposition.steps.iter().all(|s| s.island));
    // Euler: with every pillar joined and every face simple,
    // cells = portals - pillars + 1.
    assert_eq!(out.cells.len(), out.links.len() - 16 + 1);
}

/// What tau-convexity does not guarantee: a wall curving gently into the
/// room (every corner 183 degrees seen from the free side) has no
/// tau-notch for tau = 5 degrees, so one cell follows the whole curve; its
/// corners are all within 180 + tau, yet it bends by the sum of them and
/// a straight walk between two of its points leaves it. With tau = 0 every
/// corner is a notch and every cell is convex.
#[test]
fn tau_convex_cells_can_bend_a_lot_in_total() {
    // Arc of 13 corners, each turning 3 degrees, bulging 3 m up into a
    // 40 x 20 room.
    let (r, n) = (60.0f64, 13);
    let step = 3.0f64.to_radians();
    let arc: Vec<DVec2> = (0..n)
        .map(|k| {
            let a = std::f64::consts::FRAC_PI_2 + (k as f64 - (n - 1) as f64 / 2.0) * step;
            v(
                20.0 + r * a.cos(),
                r * (a.sin() - (18.0f64).to_radians().cos()),
            )
        })
        .rev()
        .collect();
    let mut outer = vec![v(0.0, 0.0)];
    outer.extend(arc);
    outer.extend([v(40.0, 0.0), v(40.0, 20.0), v(0.0, 20.0)]);
    let p = plan(outer, vec![]);
    let relaxed = ok(&p, 5.0);
    let worst = relaxed
        .cells
        .iter()
        .max_by(|a, b| a.reflex_turn_deg.total_cmp(&b.reflex_turn_deg))
        .unwrap();
    assert!(
        worst.max_angle_deg <= 185.0 + 1e-9,
        "{}",
        worst.max_angle_deg
    );
    assert!(worst.reflex_turn_deg > 30.0, "{}", worst.reflex_turn_deg);
    assert!(worst.stray_m > 0.5, "{}", worst.stray_m);
    let strict = ok(&p, 0.0);
    assert!(strict.cells.len() > relaxed.cells.len());
    assert!(strict.cells.iter().all(|c| c.stray_m < 1e-9));
}
