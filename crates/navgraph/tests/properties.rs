//! Property tests of both pipelines on random inputs.

mod common;

use common::{artifact, run};
use glam::DVec2;
use navscope_core::ParamValue;
use navscope_core::geom::{Polygon, PolygonWithHoles, world_to_plan};
use navscope_core::level::{Blocker, FloorPlan, Level, LevelData, NamedPoint};
use navscope_navgraph::node_stages::{DelaunayArtifact, VoronoiArtifact};
use navscope_navgraph::primitives::blocker_distance;
use navscope_navgraph::raster_stages::{
    GraphsArtifact, SimplifyArtifact, SuperGraphArtifact, TriangulationArtifact,
};
use proptest::prelude::*;

fn signed_area(r: &[DVec2]) -> f64 {
    (0..r.len())
        .map(|i| r[i].perp_dot(r[(i + 1) % r.len()]))
        .sum::<f64>()
        / 2.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random rasters: the triangles tile exactly the simplified free
    /// space, every graph link is clear, every triangle is seen by its
    /// guard, every node has a region.
    #[test]
    fn raster_pipeline_invariants(w in 2u32..28, h in 2u32..28, bits in proptest::collection::vec(0u8..5, 784), tol in 0.0f64..3.0, radius in 0.0f64..1.5, mpp in prop_oneof![Just(0.1), Just(1.0), Just(1e5)]) {
        let obstacle: Vec<u8> = (0..(w * h) as usize).map(|i| (bits[i] == 0) as u8).collect();
        let lvl = common::raster("random", w, h, mpp, obstacle);
        let r = run(navscope_navgraph::pipeline(), lvl, &[("simplify_tolerance", ParamValue::Float(tol)), ("agent_radius", ParamValue::Float((radius * mpp).min(10.0))), ("region_size", ParamValue::Float((4.0 * mpp).clamp(0.5, 10000.0)))]);
        let simplified = artifact::<SimplifyArtifact>(&r, "simplify");
        let rings = &simplified.simplified.rings;
        // One sub-step for the first pass, one per repair round, each
        // repair shown at its round only.
        let steps = navscope_core::Artifact::substeps(simplified);
        prop_assert_eq!(steps.len() as u32, simplified.simplified.repair_rounds + 1);
        for (k, st) in steps.iter().enumerate() {
            prop_assert!(st.highlights.iter().all(|h| h.visible_at(k as u32) && !h.visible_at(k as u32 + 1)));
        }
        let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
        // The count the memory check predicts before triangulating is exact.
        let holes = rings.iter().filter(|r| signed_area(r) < 0.0).count() as u64;
        prop_assert_eq!(navscope_navgraph::triangulate::triangle_count(rings, holes), t.triangles.len() as u64);
        let ring_area: f64 = rings.iter().map(|r| signed_area(r)).sum();
        prop_assert!((t.total_area() - ring_area).abs() <= 1e-9 * (w * h) as f64 * mpp * mpp, "{} vs {}", t.total_area(), ring_area);
        let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
        let g = artifact::<GraphsArtifact>(&r, "graphs");
        for mesh in [&g.dual.mesh, &g.gallery.mesh] {
            prop_assert!(mesh.validate().is_ok());
            for l in &mesh.links {
                let (a, b) = (world_to_plan(mesh.nodes[l.from as usize].position), world_to_plan(mesh.nodes[l.to as usize].position));
                prop_assert!(sg.walls().clear(a, b));
            }
        }
        // Triangle nodes carry their inscribed radius: the incircle touches
        // every side and no wall enters it; vertex nodes carry none.
        for (k, n) in g.dual.mesh.nodes.iter().enumerate() {
            if k < t.triangles.len() {
                let r = n.radius.unwrap();
                let [p, q, s] = t.corners(k);
                let c = world_to_plan(n.position);
                for (u, v) in [(p, q), (q, s), (s, p)] {
                    prop_assert!((navscope_core::geom::point_segment_distance(u, v, c) - r).abs() <= 1e-9 * (1.0 + r));
                }
                prop_assert!(sg.walls().corridor_clear(c, r, c, r));
            } else {
                prop_assert!(n.radius.is_none());
            }
        }
        for &(a, b) in &g.dual.dual_edges {
            let (ca, cb) = (g.dual.incentres[a as usize], g.dual.incentres[b as usize]);
            let clear = sg.walls().corridor_clear(ca, g.dual.radii[a as usize], cb, g.dual.radii[b as usize]);
            prop_assert_eq!(clear, g.dual.narrow.binary_search(&(a, b)).is_err());
        }
        for k in 0..t.triangles.len() {
            let guard = g.gallery.guards[g.gallery.seen_by[k] as usize];
            prop_assert!(sg.walls().sees_triangle(t.vertices[guard as usize], t.corners(k)));
        }
        // The gallery graph is connected within each free component: two
        // of its nodes are joined exactly when their triangles are.
        let nt = t.triangles.len();
        let mut comp = vec![usize::MAX; nt];
        for s0 in 0..nt {
            if comp[s0] != usize::MAX {
                continue;
            }
            let mut stack = vec![s0];
            comp[s0] = s0;
            while let Some(x) = stack.pop() {
                for y in t.neighbours[x].iter().flatten() {
                    if comp[*y as usize] == usize::MAX {
                        comp[*y as usize] = s0;
                        stack.push(*y as usize);
                    }
                }
            }
        }
        let vertex_comp = |v: u32| (0..nt).find(|&k| t.triangles[k].contains(&v)).map(|k| comp[k]);
        let gm = &g.gallery.mesh;
        let gv: Vec<u32> = g.gallery.guards.iter().chain(&g.gallery.connectors).copied().collect();
        let mut label = vec![usize::MAX; gm.nodes.len()];
        let adj = gm.adjacency();
        for s0 in 0..gm.nodes.len() {
            if label[s0] != usize::MAX {
                continue;
            }
            let mut stack = vec![s0];
            label[s0] = s0;
            while let Some(x) = stack.pop() {
                for &l in &adj[x] {
                    let y = gm.links[l].to as usize;
                    if label[y] == usize::MAX {
                        label[y] = s0;
                        stack.push(y);
                    }
                }
            }
        }
        for i in 0..gv.len() {
            for j in i + 1..gv.len() {
                prop_assert_eq!(label[i] == label[j], vertex_comp(gv[i]) == vertex_comp(gv[j]), "gallery nodes {} and {}", i, j);
            }
        }
        prop_assert_eq!(sg.graph.region_of.len(), g.dual.mesh.nodes.len());
        prop_assert!(sg.graph.region_of.iter().all(|&x| x < sg.graph.regions));
    }

    /// Random designer nodes and primitives: kept edges stay out of the
    /// inflated primitives; well-placed nodes lie in their free cell.
    #[test]
    fn nodes_pipeline_invariants(nodes in proptest::collection::vec((0.5f64..19.5, 0.5f64..9.5), 0..12), cyl in proptest::collection::vec((1.0f64..19.0, 1.0f64..9.0, 0.1f64..1.5), 0..4), boxes in proptest::collection::vec((1.0f64..19.0, 1.0f64..9.0, 0.1f64..2.0, 0.1f64..2.0, 0.0f64..3.2), 0..3), radius in 0.0f64..0.6) {
        let mut names = std::collections::BTreeSet::new();
        let nodes: Vec<NamedPoint> = nodes.into_iter().filter(|p| names.insert(((p.0 * 1e6) as i64, (p.1 * 1e6) as i64))).enumerate().map(|(k, (x, y))| NamedPoint { name: format!("n{k}"), at: DVec2::new(x, y) }).collect();
        let mut blockers: Vec<Blocker> = cyl.into_iter().map(|(x, y, r)| Blocker::Cylinder { center: DVec2::new(x, y), radius: r }).collect();
        blockers.extend(boxes.into_iter().map(|(x, y, hx, hy, a)| Blocker::Box { center: DVec2::new(x, y), half: DVec2::new(hx, hy), angle: a }));
        let area = PolygonWithHoles::new(Polygon::new(vec![DVec2::new(0., 0.), DVec2::new(20., 0.), DVec2::new(20., 10.), DVec2::new(0., 10.)]), vec![]);
        let plan = FloorPlan { area, nodes, blockers: blockers.clone() };
        let lvl = Level { source: "random".into(), data: LevelData::FloorPlan(plan.clone()) };
        let r = run(navscope_navgraph::nodes_pipeline(), lvl, &[("agent_radius", ParamValue::Float(radius))]);
        let d = artifact::<DelaunayArtifact>(&r, "delaunay");
        for l in &d.mesh.links {
            let (a, b) = (world_to_plan(d.mesh.nodes[l.from as usize].position), world_to_plan(d.mesh.nodes[l.to as usize].position));
            for bl in &blockers {
                prop_assert!(blocker_distance(bl, a, b) >= radius);
            }
        }
        let v = artifact::<VoronoiArtifact>(&r, "voronoi");
        prop_assert_eq!(v.cells.len(), plan.nodes.len());
        for (k, c) in v.cells.iter().enumerate() {
            if c.problem.is_none() {
                prop_assert_eq!(c.free.len(), 1);
                let ring = Polygon::new(c.free[0][0].clone());
                prop_assert!(ring.contains(plan.nodes[k].at, true) || ring.boundary_distance(plan.nodes[k].at) < 1e-6);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random rasters and random queries between points inside the
    /// triangles: every leg of a route (both modes) is clear, its ends are
    /// the query points, the article's answer (`path_between`) agrees with
    /// the route, and "no path" comes only from different free components.
    #[test]
    fn routes_keep_line_of_sight(w in 4u32..20, h in 4u32..20, bits in proptest::collection::vec(0u8..4, 400), queries in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0), 6), tol in 0.0f64..2.0) {
        let obstacle: Vec<u8> = (0..(w * h) as usize).map(|i| (bits[i] == 0) as u8).collect();
        let lvl = common::raster("random", w, h, 1.0, obstacle);
        let r = run(navscope_navgraph::pipeline(), lvl, &[("simplify_tolerance", ParamValue::Float(tol)), ("agent_radius", ParamValue::Float(0.0)), ("region_size", ParamValue::Float(3.0))]);
        let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
        prop_assume!(!t.triangles.is_empty());
        let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
        // A point inside triangle k at barycentric-ish weights.
        let inside = |k: usize, a: f64, b: f64| {
            let [p, q, s] = t.corners(k);
            let (a, b) = if a + b > 1.0 { (1.0 - a, 1.0 - b) } else { (a, b) };
            let c = 1.0 - a - b;
            let (a, b, c) = (0.02 + 0.94 * a, 0.02 + 0.94 * b, 0.02 + 0.94 * c);
            (p * a + q * b + s * c) / (a + b + c)
        };
        let nt = t.triangles.len();
        for (i, &(u, v, x, y)) in queries.iter().enumerate() {
            let (ka, kb) = ((u * nt as f64) as usize % nt, (x * nt as f64) as usize % nt);
            // f32-exact points, so `path_between` answers the same query.
            let a = navscope_core::geom::plan_to_world(inside(ka, v, y), 0.0).as_vec3().as_dvec3();
            let b = navscope_core::geom::plan_to_world(inside(kb, y, u), 0.0).as_vec3().as_dvec3();
            for within in [false, true] {
                let route = if within { sg.route_within_regions(a, b) } else { sg.route(a, b) }.unwrap();
                if !route.found {
                    prop_assert!(route.regions.is_empty() || within, "query {i}");
                    continue;
                }
                prop_assert_eq!(route.waypoints.first().copied(), Some(a));
                prop_assert_eq!(route.waypoints.last().copied(), Some(b));
                for leg in route.waypoints.windows(2) {
                    prop_assert!(sg.walls().clear(world_to_plan(leg[0]), world_to_plan(leg[1])), "query {i}: leg {:?} crosses a wall", leg);
                }
                prop_assert!(route.length + 1e-9 >= a.distance(b));
                if within {
                    let answer = navscope_core::Artifact::path_between(sg, a.as_vec3(), b.as_vec3()).unwrap().unwrap();
                    prop_assert!((answer.length - route.length).abs() < 1e-9);
                    prop_assert!(answer.primitives.iter().any(|p| p.kind == "path/super"));
                }
            }
        }
    }
}

/// Exact distance between a triangle and an axis-aligned square (both
/// closed, plan metres): 0 when they meet, else the least distance
/// between their edges.
fn triangle_square_distance(t: [DVec2; 3], lo: DVec2, hi: DVec2) -> f64 {
    let sq = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    let in_square = |p: DVec2| p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
    let side = |a: DVec2, b: DVec2, p: DVec2| (b - a).perp_dot(p - a);
    let in_triangle = |p: DVec2| {
        let s = [
            side(t[0], t[1], p),
            side(t[1], t[2], p),
            side(t[2], t[0], p),
        ];
        s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
    };
    if t.iter().any(|&p| in_square(p)) || sq.iter().any(|&p| in_triangle(p)) {
        return 0.0;
    }
    let mut d = f64::INFINITY;
    for i in 0..3 {
        for k in 0..4 {
            d = d.min(navscope_navgraph::primitives::segment_distance(
                t[i],
                t[(i + 1) % 3],
                sq[k],
                sq[(k + 1) % 4],
            ));
        }
    }
    d
}

/// `Err` naming the first triangle closer than `r` (less a millionth of a
/// pixel) to an obstacle pixel's square or to the outside of the image.
fn clearance_shortfall(
    t: &navscope_navgraph::triangulate::Triangulation,
    obstacle: &[u8],
    w: u32,
    h: u32,
    mpp: f64,
    r: f64,
) -> Result<(), String> {
    let bound = 1e-6 * mpp;
    let (wm, hm) = (w as f64 * mpp, h as f64 * mpp);
    for k in 0..t.triangles.len() {
        let c = t.corners(k);
        for p in c {
            // Plan y runs from 0 down to -height.
            if !(p.x >= r - bound
                && p.x <= wm - r + bound
                && -p.y >= r - bound
                && -p.y <= hm - r + bound)
            {
                return Err(format!("triangle {k} leaves the image's margin: {c:?}"));
            }
        }
        for y in 0..h {
            for x in 0..w {
                if obstacle[(y * w + x) as usize] == 0 {
                    continue;
                }
                let lo = DVec2::new(x as f64 * mpp, -((y + 1) as f64) * mpp);
                let hi = DVec2::new((x + 1) as f64 * mpp, -(y as f64) * mpp);
                let d = triangle_square_distance(c, lo, hi);
                if d < r - bound {
                    return Err(format!(
                        "triangle {k} is {d} from pixel ({x}, {y}), radius {r}"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A round pillar and a big tolerance: a two-sided simplification would
/// cut the pillar's ring down to a few chords through the pillar.
#[test]
fn simplification_never_cuts_into_a_round_pillar() {
    let (w, h) = (24u32, 24u32);
    let obstacle: Vec<u8> = (0..w * h)
        .map(|i| {
            let (x, y) = ((i % w) as f64 + 0.5 - 12.0, (i / w) as f64 + 0.5 - 12.0);
            (x.hypot(y) < 6.0) as u8
        })
        .collect();
    for (r, tol) in [(0.5, 4.0), (0.0, 6.0), (1.3, 2.5)] {
        let lvl = common::raster("pillar", w, h, 1.0, obstacle.clone());
        let run = run(
            navscope_navgraph::pipeline(),
            lvl,
            &[
                ("simplify_tolerance", ParamValue::Float(tol)),
                ("agent_radius", ParamValue::Float(r)),
            ],
        );
        let t = &artifact::<TriangulationArtifact>(&run, "triangulate").triangulation;
        assert!(!t.triangles.is_empty());
        clearance_shortfall(t, &obstacle, w, h, 1.0, r).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Raster clearance is exact: every triangle is at least the agent
    /// radius from every obstacle pixel (as a square) and from the outside
    /// of the image, for any radius and simplification tolerance (bound:
    /// a millionth of a pixel, for rounding).
    #[test]
    fn triangles_keep_the_agent_radius_from_every_obstacle_pixel(w in 2u32..14, h in 2u32..14, bits in proptest::collection::vec(0u8..5, 196), tol in 0.0f64..3.0, radius in 0.0f64..2.5, mpp in prop_oneof![Just(0.25), Just(1.0)]) {
        let obstacle: Vec<u8> = (0..(w * h) as usize).map(|i| (bits[i] == 0) as u8).collect();
        let lvl = common::raster("random", w, h, mpp, obstacle.clone());
        let r = radius * mpp;
        let run = run(navscope_navgraph::pipeline(), lvl, &[("simplify_tolerance", ParamValue::Float(tol * mpp)), ("agent_radius", ParamValue::Float(r))]);
        let t = &artifact::<TriangulationArtifact>(&run, "triangulate").triangulation;
        if let Err(e) = clearance_shortfall(t, &obstacle, w, h, mpp, r) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// The raster clearance on the sample rasters with the default tolerance:
/// the least distance from any triangle to any obstacle pixel (a square)
/// or to the outside of the image is at least the agent radius, less the
/// test's rounding bound; the margin above the radius is reported (run
/// with `--nocapture`).
#[test]
fn sample_rasters_keep_the_agent_radius() {
    let rasters = [
        "assets/levels/raster/office.png",
        "assets/levels/raster/rooms.png",
        "assets/levels/navgraph/arena.png",
    ];
    for path in rasters {
        if !common::repo(path).exists() {
            eprintln!("SKIPPED: {path} is missing");
            continue;
        }
        let lvl = common::level(path);
        let LevelData::Raster(plan) = &lvl.data else {
            panic!("{path}: not a raster")
        };
        let (w, h, mpp) = (plan.width, plan.height, plan.metres_per_pixel);
        let obstacle = plan.obstacle.clone();
        for radius in [0.3, 0.5, 1.0] {
            let r = run(
                navscope_navgraph::pipeline(),
                lvl.clone(),
                &[("agent_radius", ParamValue::Float(radius))],
            );
            let t = &artifact::<TriangulationArtifact>(&r, "triangulate").triangulation;
            if let Err(e) = clearance_shortfall(t, &obstacle, w, h, mpp, radius) {
                panic!("{path}, radius {radius}: {e}");
            }
            let (wm, hm) = (w as f64 * mpp, h as f64 * mpp);
            let mut least = f64::INFINITY;
            for k in 0..t.triangles.len() {
                let c = t.corners(k);
                for p in c {
                    least = least.min(p.x).min(wm - p.x).min(-p.y).min(hm + p.y);
                }
                for y in 0..h {
                    for x in 0..w {
                        if obstacle[(y * w + x) as usize] != 0 {
                            let lo = DVec2::new(x as f64 * mpp, -((y + 1) as f64) * mpp);
                            let hi = DVec2::new((x + 1) as f64 * mpp, -(y as f64) * mpp);
                            least = least.min(triangle_square_distance(c, lo, hi));
                        }
                    }
                }
            }
            if t.triangles.is_empty() {
                eprintln!("{path}, radius {radius} m: no free space is left");
                continue;
            }
            eprintln!(
                "{path} ({w} x {h} px, {mpp} m/px), radius {radius} m: {} triangles, least clearance {least:.4} m, margin {:.4} m ({:.2} px)",
                t.triangles.len(),
                least - radius,
                (least - radius) / mpp
            );
            assert!(least >= radius - 1e-6 * mpp, "{path}: {least} < {radius}");
        }
    }
}
