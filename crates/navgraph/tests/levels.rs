//! Both pipelines on the sample levels: coverage of the triangulation,
//! clear graph edges, the art-gallery property, NavMesh export, bad input.

mod common;

use std::sync::Arc;

use common::{artifact, level, run};
use glam::DVec2;
use navscope_core::geom::world_to_plan;
use navscope_core::level::{Level, LevelData, RasterPlan};
use navscope_core::{ParamValue, Runner};
use navscope_navgraph::node_stages::{DelaunayArtifact, VoronoiArtifact};
use navscope_navgraph::primitives::blocker_distance;
use navscope_navgraph::raster_stages::{
    BinaryArtifact, ContoursArtifact, GraphsArtifact, SuperGraphArtifact, TriangulationArtifact,
};

const RASTERS: [&str; 3] = [
    "assets/levels/raster/office.png",
    "assets/levels/raster/rooms.png",
    "assets/levels/navgraph/arena.png",
];

/// Every triangle lies in navigable space and together they cover it, up
/// to the simplification tolerance.
#[test]
fn triangles_cover_the_free_pixels_within_the_tolerance() {
    for path in RASTERS {
        for tol in [0.5, 1.0, 2.0] {
            let r = run(
                navscope_navgraph::pipeline(),
                level(path),
                &[("simplify_tolerance", ParamValue::Float(tol))],
            );
            let img = &artifact::<BinaryArtifact>(&r, "binary").image;
            let c = artifact::<ContoursArtifact>(&r, "contours");
            let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
            let m = img.metres_per_pixel;
            let free_area =
                (c.contours.free_pixels as f64 - c.contours.chamfers as f64 / 32.0) * m * m;
            let perimeter: f64 = c
                .contours
                .rings
                .iter()
                .map(|ring| {
                    let n = ring.corners.len();
                    (0..n)
                        .map(|k| {
                            navscope_navgraph::contours::corner_to_plan(ring.corners[k], m)
                                .distance(navscope_navgraph::contours::corner_to_plan(
                                    ring.corners[(k + 1) % n],
                                    m,
                                ))
                        })
                        .sum::<f64>()
                })
                .sum();
            let diff = (t.total_area() - free_area).abs();
            assert!(
                diff <= tol * m * perimeter,
                "{path} tol {tol}: area {} vs {free_area}",
                t.total_area()
            );
            // Each corner and centroid is within the tolerance of a free pixel.
            let reach = tol.ceil() as i64 + 1;
            for k in 0..t.triangles.len() {
                assert!(t.area(k) > 0.0, "{path}: triangle {k} is flat or clockwise");
                let [a, b, cc] = t.corners(k);
                for p in [a, b, cc, (a + b + cc) / 3.0] {
                    let (px, py) = ((p.x / m).floor() as i64, (-p.y / m).floor() as i64);
                    let near = (-reach..=reach)
                        .any(|dy| (-reach..=reach).any(|dx| !img.is_blocked(px + dx, py + dy)));
                    assert!(
                        near,
                        "{path}: triangle {k} point {p} is far from navigable space"
                    );
                }
            }
        }
    }
}

fn plan(p: glam::DVec3) -> DVec2 {
    world_to_plan(p)
}

/// No graph edge crosses blocked space, and from every navigable sample
/// point some art-gallery node is visible.
#[test]
fn graph_edges_are_clear_and_the_gallery_sees_everything() {
    for path in RASTERS {
        let r = run(navscope_navgraph::pipeline(), level(path), &[]);
        let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
        let walls = sg.walls();
        let g = artifact::<GraphsArtifact>(&r, "graphs");
        let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
        for mesh in [&g.dual.mesh, &g.gallery.mesh] {
            mesh.validate().unwrap();
            for l in &mesh.links {
                let (a, b) = (
                    plan(mesh.nodes[l.from as usize].position),
                    plan(mesh.nodes[l.to as usize].position),
                );
                assert!(
                    walls.clear(a, b),
                    "{path}: link {} -> {} crosses a wall",
                    l.from,
                    l.to
                );
            }
        }
        // Samples: three points per triangle.
        let guards: Vec<DVec2> = g
            .gallery
            .mesh
            .nodes
            .iter()
            .map(|n| plan(n.position))
            .collect();
        for k in 0..t.triangles.len() {
            let [a, b, c] = t.corners(k);
            for (u, v) in [(0.2, 0.2), (0.6, 0.3), (0.1, 0.7)] {
                let p = a + (b - a) * u + (c - a) * v;
                assert!(
                    guards.iter().any(|q| walls.clear(p, *q)),
                    "{path}: no node visible from {p}"
                );
            }
        }
        // The exported NavMesh is the dual graph, stamped by the runner.
        let mesh = r.navmesh().unwrap();
        assert_eq!(mesh.pipeline, "navgraph");
        assert_eq!(mesh.nodes.len(), g.dual.mesh.nodes.len());
        assert!(mesh.stages.iter().any(|s| s.id == "supergraph"));
    }
}

#[test]
fn region_size_changes_the_partition_only() {
    let mut r = Runner::new(
        Arc::new(navscope_navgraph::pipeline()),
        Arc::new(level("assets/levels/navgraph/arena.png")),
    );
    r.run_all();
    let before = artifact::<SuperGraphArtifact>(&r, "supergraph")
        .graph
        .regions;
    r.set_param("region_size", ParamValue::Float(5.0)).unwrap();
    assert_eq!(r.first_missing(), 5);
    r.run_all();
    let after = artifact::<SuperGraphArtifact>(&r, "supergraph")
        .graph
        .regions;
    assert!(after > before, "{after} <= {before}");
    assert_eq!(r.executions(4), 1);
}

#[test]
fn the_lobby_nodes_are_connected_around_the_primitives() {
    let lvl = level("assets/levels/floorplan/lobby_nodes.ron");
    let LevelData::FloorPlan(fp) = &lvl.data else {
        panic!("not a floor plan")
    };
    let fp = fp.clone();
    let radius = 0.3;
    let r = run(
        navscope_navgraph::nodes_pipeline(),
        lvl,
        &[("agent_radius", ParamValue::Float(radius))],
    );
    let d = artifact::<DelaunayArtifact>(&r, "delaunay");
    assert_eq!(d.mesh.nodes.len(), fp.nodes.len());
    for l in &d.mesh.links {
        let (a, b) = (
            plan(d.mesh.nodes[l.from as usize].position),
            plan(d.mesh.nodes[l.to as usize].position),
        );
        for bl in &fp.blockers {
            assert!(
                blocker_distance(bl, a, b) >= radius,
                "kept edge {a} {b} enters an inflated primitive"
            );
        }
    }
    let v = artifact::<VoronoiArtifact>(&r, "voronoi");
    assert_eq!(v.cells.len(), fp.nodes.len());
    // Three nodes for a 16 x 12 lobby with a desk: the cells reach round
    // the desk, so some node is badly placed, with a reason.
    assert!(!v.bad_nodes().is_empty());
    assert!(r.navmesh().unwrap().links.len().is_multiple_of(2));
}

#[test]
fn wrong_level_kinds_and_degenerate_rasters_are_errors_not_panics() {
    let floor = level("assets/levels/floorplan/lobby_nodes.ron");
    let mut r = Runner::new(Arc::new(navscope_navgraph::pipeline()), Arc::new(floor));
    r.run_all();
    let (i, e) = r.first_error().unwrap();
    assert_eq!(i, 0);
    assert!(e.to_string().contains("raster"), "{e}");
    let raster = level("assets/levels/raster/rooms.png");
    let mut r = Runner::new(
        Arc::new(navscope_navgraph::nodes_pipeline()),
        Arc::new(raster),
    );
    r.run_all();
    assert!(
        r.first_error()
            .unwrap()
            .1
            .to_string()
            .contains("floor plan")
    );
    // All obstacle, all free, one pixel, a checkerboard.
    let cases: Vec<(u32, u32, Vec<u8>)> = vec![
        (8, 8, vec![1; 64]),
        (8, 8, vec![0; 64]),
        (1, 1, vec![0]),
        (6, 6, (0..36).map(|i| ((i % 6 + i / 6) % 2) as u8).collect()),
    ];
    for (w, h, obstacle) in cases {
        let lvl = Level {
            source: "synthetic".into(),
            data: LevelData::Raster(RasterPlan {
                width: w,
                height: h,
                metres_per_pixel: 0.5,
                obstacle,
                rgba: vec![],
            }),
        };
        let r = run(
            navscope_navgraph::pipeline(),
            lvl,
            &[("agent_radius", ParamValue::Float(0.0))],
        );
        let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
        let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
        assert_eq!(sg.graph.region_of.len(), sg.base().mesh.nodes.len());
        assert!(t.total_area() >= 0.0);
    }
}

/// Every stage draws itself with the kinds the app styles, and serialises.
#[test]
fn stages_draw_the_documented_kinds() {
    let mut kinds = std::collections::BTreeSet::new();
    let r = run(
        navscope_navgraph::pipeline(),
        level("assets/levels/raster/office.png"),
        &[("region_size", ParamValue::Float(5.0))],
    );
    let n = navscope_navgraph::nodes_pipeline().stages.len();
    let r2 = run(
        navscope_navgraph::nodes_pipeline(),
        level("assets/levels/floorplan/lobby_nodes.ron"),
        &[],
    );
    for (runner, stages) in [(&r, r.pipeline().stages.len()), (&r2, n)] {
        for i in 0..stages {
            let a = runner.result(i).unwrap().outcome.as_ref().unwrap();
            assert!(!a.to_json().is_null());
            assert!(!a.counts().is_empty());
            for p in a.primitives() {
                assert!(p.shape.points().iter().all(|q| q.is_finite()), "{}", p.kind);
                kinds.insert(p.kind);
            }
        }
    }
    for k in [
        "raster",
        "contour/outer",
        "contour/hole",
        "contour/simplified",
        "triangle",
        "node/dual",
        "node/guard",
        "edge/dual",
        "edge/gallery",
        "region",
        "portal/region",
        "blocker",
        "blocker/inflated",
        "edge/delaunay",
        "voronoi/bad",
    ] {
        assert!(kinds.contains(k), "no primitive of kind {k}: {kinds:?}");
    }
}

#[test]
fn figure_4_flags_the_node_whose_cell_reaches_past_the_wall() {
    let r = run(
        navscope_navgraph::nodes_pipeline(),
        level("assets/levels/navgraph/figure4.ron"),
        &[],
    );
    let v = artifact::<VoronoiArtifact>(&r, "voronoi");
    let bad: Vec<&str> = v.bad_nodes().iter().map(|(n, _)| *n).collect();
    assert!(bad.contains(&"west"), "{:?}", v.bad_nodes());
    let d = artifact::<DelaunayArtifact>(&r, "delaunay");
    // west - east runs through the wall.
    assert!(
        d.edges
            .iter()
            .any(|e| e.nodes == (0, 1) && e.removed.is_some())
    );
}

#[test]
fn the_corridor_nodes_are_well_placed() {
    let r = run(
        navscope_navgraph::nodes_pipeline(),
        level("assets/levels/navgraph/corridor_nodes.ron"),
        &[],
    );
    let v = artifact::<VoronoiArtifact>(&r, "voronoi");
    assert!(v.bad_nodes().is_empty(), "{:?}", v.bad_nodes());
    let d = artifact::<DelaunayArtifact>(&r, "delaunay");
    assert_eq!(d.edges.len(), 1);
    assert_eq!(d.edges[0].removed, None);
}

#[test]
fn the_hall_columns_bite_every_cell_that_holds_them() {
    let r = run(
        navscope_navgraph::nodes_pipeline(),
        level("assets/levels/navgraph/hall_nodes.ron"),
        &[],
    );
    let v = artifact::<VoronoiArtifact>(&r, "voronoi");
    assert!(!v.bad_nodes().is_empty());
    for (_, why) in v.bad_nodes() {
        assert!(why.contains("not convex") || why.contains("hole"), "{why}");
    }
    let d = artifact::<DelaunayArtifact>(&r, "delaunay");
    assert!(
        d.edges
            .iter()
            .any(|e| e.removed.is_some() || e.corridor_hit.is_some())
    );
    // The kept graph is connected.
    let mesh = &d.mesh;
    let adj = mesh.adjacency();
    let mut seen = vec![false; mesh.nodes.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(a) = stack.pop() {
        for &l in &adj[a] {
            let b = mesh.links[l].to as usize;
            if !seen[b] {
                seen[b] = true;
                stack.push(b);
            }
        }
    }
    assert!(seen.iter().all(|&s| s));
}

/// The article's Figure 4 failure: just east of the wall the nearest node
/// ("west") stands behind it. The query is located by visibility instead,
/// at "east", and every leg of the answer stays out of blocked space.
#[test]
fn figure4_queries_start_at_the_nearest_visible_node() {
    use navscope_core::geom::plan_to_world;
    let lvl = level("assets/levels/navgraph/figure4.ron");
    let LevelData::FloorPlan(plan) = lvl.data.clone() else {
        panic!("figure4 is a floor plan");
    };
    let r = run(navscope_navgraph::nodes_pipeline(), lvl, &[]);
    let v = artifact::<VoronoiArtifact>(&r, "voronoi");
    let at = |name: &str| plan.nodes.iter().find(|n| n.name == name).unwrap().at;
    // 0.55 m east of the wall's face (inflated by 0.3 m), and west of the
    // door (west itself is cut off: its edges cross the inflated wall).
    let (from, to) = (
        at("west") + DVec2::new(2.8, 0.0),
        at("door") - DVec2::new(3.0, 0.0),
    );
    // West is the nearest node by distance.
    assert!(from.distance(at("west")) < from.distance(at("east")));
    let w = |p: DVec2| plan_to_world(p, 0.0).as_vec3();
    let answer = navscope_core::Artifact::path_between(v, w(from), w(to))
        .expect("the voronoi stage answers")
        .unwrap();
    let pts: Vec<DVec2> = answer
        .waypoints
        .iter()
        .map(|p| world_to_plan(p.as_dvec3()))
        .collect();
    assert!(pts[1].distance(at("east")) < 1e-5, "{pts:?}");
    assert!(pts[pts.len() - 2].distance(at("door")) < 1e-5, "{pts:?}");
    let blocked = navscope_navgraph::nodes::Blocked::new(&plan, 0.3);
    for leg in pts.windows(2) {
        assert!(
            blocked.obstruction(leg[0], leg[1], 0.0).is_none(),
            "{leg:?}"
        );
    }
    assert!(
        answer
            .primitives
            .iter()
            .any(|p| p.kind == "node/hidden" && p.element == 0),
        "west is shown hidden from the start"
    );
    // A point inside the wall is refused with a message naming it.
    let err = navscope_core::Artifact::path_between(v, w(at("west") + DVec2::new(2.0, 1.0)), w(to))
        .unwrap()
        .unwrap_err();
    assert!(err.contains("start") && err.contains("blocked"), "{err}");
}

/// Guard placement can be stepped one guard at a time: each step shows the
/// triangles its guard is the first to see (every triangle in exactly one
/// step) and the unseen triangle that called for it; guards appear from
/// their own step on, connecting nodes at the last step.
#[test]
fn guard_placement_steps_one_guard_at_a_time() {
    use navscope_core::Artifact;
    for path in RASTERS {
        let r = run(navscope_navgraph::pipeline(), level(path), &[]);
        let g = artifact::<GraphsArtifact>(&r, "graphs");
        let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
        let steps = g.substeps();
        let guards = g.gallery.guards.len();
        assert_eq!(steps.len(), guards + 1, "{path}");
        let mut count = vec![0; t.triangles.len()];
        for (k, st) in steps[..guards].iter().enumerate() {
            for h in &st.highlights {
                assert!(h.visible_at(k as u32) && !h.visible_at(k as u32 + 1));
                if h.kind == "triangle/seen" {
                    count[h.element as usize] += 1;
                    assert_eq!(g.gallery.seen_by[h.element as usize], k as u32);
                }
            }
            let unseen: Vec<u32> = st
                .highlights
                .iter()
                .filter(|h| h.kind == "triangle/unseen")
                .map(|h| h.element)
                .collect();
            assert_eq!(
                unseen,
                g.gallery.placed_for[k].into_iter().collect::<Vec<_>>(),
                "{path} guard {k}"
            );
            assert_eq!(unseen.len(), usize::from(k > 0));
        }
        assert!(
            count.iter().all(|&c| c == 1),
            "{path}: every triangle in one step"
        );
        for p in g.primitives().iter().filter(|p| p.kind == "node/guard") {
            assert!(p.visible_at(p.element) && (p.element == 0 || !p.visible_at(p.element - 1)));
        }
    }
}

/// Edge removal can be stepped one Delaunay edge at a time: each step
/// names the edge, says why it is removed or flagged and shows the
/// inflated primitive in the way; edges appear from their own step on.
#[test]
fn delaunay_edges_step_one_at_a_time() {
    use navscope_core::Artifact;
    let r = run(
        navscope_navgraph::nodes_pipeline(),
        level("assets/levels/navgraph/figure4.ron"),
        &[],
    );
    let d = artifact::<DelaunayArtifact>(&r, "delaunay");
    let steps = d.substeps();
    assert_eq!(steps.len(), d.edges.len());
    for (k, (st, e)) in steps.iter().zip(&d.edges).enumerate() {
        let blocked = e.removed.is_some() || e.corridor_hit.is_some();
        assert_eq!(
            st.detail.starts_with("Removed"),
            e.removed.is_some(),
            "{}",
            st.detail
        );
        assert_eq!(!st.highlights.is_empty(), blocked, "step {k}");
        assert!(
            st.highlights
                .iter()
                .all(|h| h.kind == "blocker/inflated" && h.element == 0 && h.visible_at(k as u32))
        );
    }
    let edges: Vec<_> = d
        .primitives()
        .into_iter()
        .filter(|p| p.kind.starts_with("edge/"))
        .collect();
    assert_eq!(edges.len(), d.edges.len());
    for p in edges {
        assert!(p.visible_at(p.element) && (p.element == 0 || !p.visible_at(p.element - 1)));
    }
}

/// The super-graph and the graphs stage draw triangles and portals from
/// the dual graph's NavMesh rather than from copies of their own: what
/// they draw equals the triangulation's corners and the portal links'
/// segments (or ends), computed here straight from the stages' data.
#[test]
fn regions_portals_and_seen_triangles_are_drawn_from_the_triangulation() {
    use navscope_core::Artifact;
    use navscope_core::draw::Shape;
    use navscope_core::geom::plan_to_world;
    for path in RASTERS {
        let r = run(navscope_navgraph::pipeline(), level(path), &[]);
        let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
        let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
        let corners = |k: usize| -> Vec<glam::Vec3> {
            t.corners(k)
                .iter()
                .map(|p| plan_to_world(*p, 0.0).as_vec3())
                .collect()
        };
        let prims = sg.primitives();
        let regions: Vec<_> = prims.iter().filter(|p| p.kind == "region").collect();
        assert_eq!(regions.len(), t.triangles.len(), "{path}");
        for (k, p) in regions.iter().enumerate() {
            assert_eq!(p.element, sg.graph.region_of[k], "{path}: triangle {k}");
            assert_eq!(
                p.shape,
                Shape::Polygon {
                    outer: corners(k),
                    holes: vec![]
                },
                "{path}: triangle {k}"
            );
        }
        let mesh = &sg.base().mesh;
        let portals: Vec<_> = prims.iter().filter(|p| p.kind == "portal/region").collect();
        assert_eq!(portals.len(), sg.graph.portals.len(), "{path}");
        for (p, &i) in portals.iter().zip(&sg.graph.portals) {
            let l = &mesh.links[i];
            let [a, b] = l.segment().unwrap_or([
                mesh.nodes[l.from as usize].position,
                mesh.nodes[l.to as usize].position,
            ]);
            assert_eq!(p.shape, Shape::Segment(a.as_vec3(), b.as_vec3()), "{path}");
        }
        let g = artifact::<GraphsArtifact>(&r, "graphs");
        for step in g.substeps() {
            for h in step
                .highlights
                .iter()
                .filter(|h| h.kind.starts_with("triangle/"))
            {
                let k = h.element as usize;
                assert_eq!(
                    h.shape,
                    Shape::Polygon {
                        outer: corners(k),
                        holes: vec![]
                    },
                    "{path}: triangle {k}"
                );
            }
        }
    }
}
