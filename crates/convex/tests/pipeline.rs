//! The pipeline through core's Runner: every stage runs, the NavMesh keeps
//! the contract, sub-steps and drawing kinds are there, and parameters
//! invalidate the right stages.

use std::path::PathBuf;
use std::sync::Arc;

use navscope_convex::pipeline;
use navscope_core::{ParamValue, Runner};

fn runner() -> Runner {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/corpus/table3.json");
    let level = navscope_levels::load(&path).unwrap();
    Runner::new(Arc::new(pipeline()), Arc::new(level))
}

fn kinds(r: &Runner, stage: usize) -> Vec<String> {
    let a = r.result(stage).unwrap().outcome.as_ref().unwrap();
    let mut k: Vec<String> = a
        .primitives()
        .into_iter()
        .map(|p| p.kind.into_owned())
        .collect();
    for s in a.substeps() {
        k.extend(s.highlights.into_iter().map(|p| p.kind.into_owned()));
    }
    k.sort();
    k.dedup();
    k
}

#[test]
fn every_stage_runs_and_the_navmesh_keeps_the_contract() {
    let mut r = runner();
    assert_eq!(r.run_all(), 5);
    assert!(r.first_error().is_none());
    let mesh = r.navmesh().unwrap();
    mesh.validate().unwrap();
    assert_eq!(mesh.pipeline, "convex");
    assert_eq!(mesh.stages.len(), 5);
    assert!(mesh.metrics["cells"] > 0.0 && mesh.metrics["notches"] == 32.0);
    for k in [
        "cells_per_notch",
        "portals",
        "portals_vertex_vertex",
        "portals_vertex_edge",
        "portals_vertex_portal",
        "removed_portals",
        "total_portal_length",
        "min_cell_angle_deg",
        "ill_conditioned_cells",
    ] {
        assert!(mesh.metrics.contains_key(k), "metric {k} is missing");
    }
    let m = &mesh.metrics;
    assert_eq!(
        m["portals_vertex_vertex"] + m["portals_vertex_edge"] + m["portals_vertex_portal"],
        m["portals"]
    );
    assert_eq!(m["cells_per_notch"], m["cells"] / m["notches"]);
    for n in &mesh.nodes {
        let p = n.polygon.as_ref().unwrap();
        assert!(p.iter().all(|q| q.y == 0.0));
        // Counter-clockwise seen from +Y: the (x, z) shoelace sum is negative.
        let s: f64 = (0..p.len())
            .map(|i| p[i].x * p[(i + 1) % p.len()].z - p[(i + 1) % p.len()].x * p[i].z)
            .sum();
        assert!(s < 0.0);
    }
    assert!(
        mesh.links
            .iter()
            .all(|l| l.kind == navscope_core::LinkKind::Portal && l.segment.is_some())
    );
    assert_eq!(mesh.links.len() % 2, 0, "portals are two-way");
    let back = navscope_core::NavMesh::from_json(&mesh.to_json()).unwrap();
    assert_eq!(back.nodes.len(), mesh.nodes.len());
}

#[test]
fn stages_draw_the_documented_kinds_and_the_portal_stage_steps_per_notch() {
    let mut r = runner();
    r.run_all();
    let notches = kinds(&r, 0);
    for k in ["area-of-interest", "boundary", "label", "notch"] {
        assert!(
            notches.contains(&k.to_string()),
            "notches lacks {k}: {notches:?}"
        );
    }
    let portals = kinds(&r, 1);
    for k in [
        "area-of-interest",
        "chosen",
        "notch/current",
        "portal/vertex-vertex",
        "portal/vertex-edge",
        "candidate/vertex",
        "candidate/edge",
    ] {
        assert!(
            portals.contains(&k.to_string()),
            "portals lacks {k}: {portals:?}"
        );
    }
    assert!(kinds(&r, 3).contains(&"cell".to_string()));
    let a = r.result(1).unwrap().outcome.as_ref().unwrap();
    let steps = a.substeps();
    assert!(
        steps.len() >= 32,
        "one sub-step per notch (and per island corner)"
    );
    assert!(
        steps
            .iter()
            .all(|s| !s.title.is_empty() && !s.detail.is_empty())
    );
    // Each sub-step alone is the same as in the whole list.
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(a.substep(i).as_ref(), Some(s), "sub-step {i} alone");
    }
    assert_eq!(a.substep(steps.len()), None, "past the last");
    // Portals appear at the step that created them.
    for p in a
        .primitives()
        .iter()
        .filter(|p| p.kind.starts_with("portal/vertex"))
    {
        assert!(p.first_step < steps.len() as u32);
        assert!(
            steps[p.first_step as usize]
                .highlights
                .iter()
                .any(|h| h.kind == "chosen" && h.element == p.element)
        );
    }
}

#[test]
fn removal_and_tau_rerun_the_right_stages_and_lower_the_cell_count() {
    let mut r = runner();
    r.run_all();
    let cells = |r: &Runner| r.navmesh().unwrap().nodes.len();
    let with_removal = cells(&r);
    assert_eq!(
        r.set_param("portal_removal", ParamValue::Bool(false))
            .unwrap(),
        Some(1)
    );
    r.run_all();
    assert_eq!(r.executions(0), 1, "notches are not recomputed");
    let original = cells(&r);
    assert!(with_removal <= original);
    r.set_param("portal_removal", ParamValue::Bool(true))
        .unwrap();
    assert_eq!(r.set_param("tau", ParamValue::Float(5.0)).unwrap(), Some(0));
    r.run_all();
    assert!(cells(&r) <= with_removal);
    assert_eq!(
        r.set_param("ill_conditioned_deg", ParamValue::Float(20.0))
            .unwrap(),
        Some(4)
    );
    r.run_all();
    assert_eq!(
        r.executions(3),
        3,
        "cells are not recomputed for the threshold"
    );
}

#[test]
fn the_apps_default_level_builds() {
    let level = navscope_levels::default_level();
    let mut r = Runner::new(Arc::new(pipeline()), Arc::new(level));
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    let mesh = r.navmesh().unwrap();
    mesh.validate().unwrap();
    assert!(mesh.metrics["cells"] <= mesh.metrics["notches"] + 1.0);
}

/// The portal sub-steps draw the candidate points of §3.2.2 (projection,
/// q_l, q_r, endpoints) and the waiting notches a new portal drops with
/// their areas of interest; the notches stage draws the corners tau takes
/// off the list.
#[test]
fn portal_steps_draw_candidate_points_dropped_notches_and_relaxed_ones() {
    let mut r = runner();
    r.run_all();
    let k = kinds(&r, 1);
    for kind in [
        "candidate/point/projection",
        "notch/dropped",
        "area-of-interest/dropped",
    ] {
        assert!(k.iter().any(|x| x == kind), "{kind} in {k:?}");
    }
    assert!(
        k.iter()
            .any(|x| x.starts_with("candidate/point/q_") || x == "candidate/point/endpoint"),
        "{k:?}"
    );
    // Every dropped notch of a step is drawn in that step.
    let a = r.result(1).unwrap().outcome.as_ref().unwrap().clone();
    let any: &dyn std::any::Any = a.as_ref();
    let p = any
        .downcast_ref::<navscope_convex::portals::PortalsArtifact>()
        .unwrap();
    for (st, sub) in p.result.steps.iter().zip(a.substeps()) {
        let drawn: Vec<u32> = sub
            .highlights
            .iter()
            .filter(|h| h.kind == "notch/dropped")
            .map(|h| h.element)
            .collect();
        assert_eq!(drawn, st.dropped, "{}", sub.title);
    }
    // tau = 30 deg takes the corners of a 16-gon pillar (202.5 deg seen
    // from the free space) off the list; tau = 0 keeps them.
    use navscope_core::geom::{Polygon, PolygonWithHoles};
    use navscope_core::level::{FloorPlan, Level, LevelData};
    let pillar: Vec<glam::DVec2> = (0..16)
        .map(|k| {
            glam::DVec2::new(5.0, 5.0)
                + glam::DVec2::from_angle(k as f64 * std::f64::consts::TAU / 16.0) * 2.0
        })
        .collect();
    let room = vec![
        glam::DVec2::new(0.0, 0.0),
        glam::DVec2::new(10.0, 0.0),
        glam::DVec2::new(10.0, 10.0),
        glam::DVec2::new(0.0, 10.0),
    ];
    let level = Level {
        source: "pillar".into(),
        data: LevelData::FloorPlan(FloorPlan {
            area: PolygonWithHoles::new(Polygon::new(room), vec![Polygon::new(pillar)]),
            ..Default::default()
        }),
    };
    for (tau, relaxed) in [(30.0, 16), (0.0, 0)] {
        let mut r = Runner::new(Arc::new(pipeline()), Arc::new(level.clone()));
        r.set_param("tau", ParamValue::Float(tau)).unwrap();
        r.run_all();
        let n = r.result(0).unwrap().outcome.as_ref().unwrap().clone();
        let c = n.counts();
        assert_eq!(c["relaxed notches"], relaxed, "{c:?}");
        assert_eq!(c["relaxed notches"] + c["notches"], c["strict notches"]);
        let drawn = n
            .primitives()
            .iter()
            .filter(|p| p.kind == "notch/relaxed")
            .count() as u64;
        assert_eq!(drawn, relaxed);
    }
}

#[test]
fn a_cell_and_a_portal_are_described_with_units_and_links_to_each_other() {
    let mut r = runner();
    r.run_all();
    let cells = r
        .pipeline()
        .stages
        .iter()
        .position(|s| s.info.id == "cells")
        .unwrap();
    let a = r.result(cells).unwrap().outcome.as_ref().unwrap();
    let mesh = a.navmesh().unwrap();
    // A cell with a portal: the first node with a link.
    let cell = mesh.links.first().map(|l| l.from).expect("a link");
    let d = a.describe_element("cell", cell);
    // The inspector's header names the cell; no row links it to itself.
    assert!(d.get("cell").is_none(), "{d}");
    for key in [
        "area_m2",
        "reflex_turn_deg",
        "worst_concavity_m",
        "smallest_angle_deg",
    ] {
        assert!(d[key].as_f64().is_some_and(|x| x >= 0.0), "{key} in {d}");
    }
    let portal = &d["portals"][0];
    assert_eq!(portal["select"], "portal");
    let neighbour = d["neighbours"][0]["id"].as_u64().unwrap() as u32;
    assert_ne!(neighbour, cell);
    // The portal it links to names both cells, this one among them.
    let p = a.describe_element("portal", portal["id"].as_u64().unwrap() as u32);
    assert!(p["width_m"].as_f64().is_some_and(|w| w > 0.0), "{p}");
    let sides: Vec<u64> = (0..2)
        .map(|i| p["cells"][i]["id"].as_u64().unwrap())
        .collect();
    assert!(
        sides.contains(&(cell as u64)) && sides.contains(&(neighbour as u64)),
        "{p}"
    );
    // The centroid is the cell's; nothing internal shows.
    assert_eq!(a.describe_element("cell/centroid", cell), d);
    let text = d.to_string();
    assert!(
        !text.contains("4294967295") && !text.contains("polygon"),
        "{text}"
    );
}
