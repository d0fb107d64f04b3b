//! Sample levels for the paper's Figures 2 to 6, one per case of §3.2 and
//! §3.3, each checked to force its case: vertex-vertex with and without
//! the dropped notch (Fig. 2), vertex-edge to the projection, to q_l and
//! to q_r (Fig. 3), vertex-portal to one end, to the closer of both ends,
//! to both ends with two portals, and the cut (Fig. 4), removal (Fig. 5)
//! and relaxation (Fig. 6). Figure 3's portal to an end of the edge is a
//! vertex-vertex portal here (the end is a vertex at the same distance;
//! see the crate docs).
//!
//! The plans are small rooms from `navscope_levels::generate::floor_plan`
//! (seed, obstacles) chosen as the smallest of a search over seeds that
//! shows the case, and a room with an 80-gon pillar for relaxation. The
//! files under `assets/levels/convex-figures/` are generated here and
//! checked against it (set `NAVSCOPE_WRITE_SAMPLES=1` to rewrite them).

use std::path::PathBuf;

use glam::DVec2;
use navscope_convex::cone::How;
use navscope_convex::decompose::{CandKind, Step};
use navscope_convex::{Output, PortalKind, decompose_plan};
use navscope_core::geom::{Polygon, PolygonWithHoles};
use navscope_core::level::{FloorPlan, LevelData};

/// The case one step shows.
fn cases(o: &Output, st: &Step) -> Vec<&'static str> {
    let mut out = Vec::new();
    if let Some(&id) = st.created.first() {
        let first = st.candidates.first();
        out.push(match o.decomposition.portals[id as usize].kind {
            PortalKind::VertexVertex if st.dropped.is_empty() => "vertex-vertex, notch kept",
            PortalKind::VertexVertex => "vertex-vertex, notch dropped",
            PortalKind::VertexEdge => match first.and_then(|c| c.how) {
                Some(How::Projection) => "vertex-edge, projection",
                Some(How::Ql) => "vertex-edge, q_l",
                Some(How::Qr) => "vertex-edge, q_r",
                None => "vertex-edge, endpoint",
            },
            PortalKind::VertexPortal if st.created.len() == 2 => "vertex-portal, both ends",
            PortalKind::VertexPortal => match first.map(|c| c.kind) {
                Some(CandKind::Portal { a, b, .. }) => {
                    match (st.cone.nearly_contains(a), st.cone.nearly_contains(b)) {
                        (true, true) => "vertex-portal, closer end",
                        _ => "vertex-portal, one end",
                    }
                }
                _ => "vertex-portal, other",
            },
        });
    }
    if st.cut.is_some() {
        out.push("vertex-portal, cut");
    }
    if !st.removed.is_empty() {
        out.push("removal");
    }
    out
}

/// `(file, seed, obstacles, cases)`.
const FIGURES: [(&str, u64, usize, &[&str]); 7] = [
    ("figure2-vv-drop", 13, 1, &["vertex-vertex, notch dropped"]),
    ("figure2-vv-keep", 54, 1, &["vertex-vertex, notch kept"]),
    (
        "figure3-projection-ql",
        17,
        1,
        &["vertex-edge, projection", "vertex-edge, q_l"],
    ),
    ("figure4-one-end", 36, 1, &["vertex-portal, one end"]),
    ("figure4-closer-end", 6, 2, &["vertex-portal, closer end"]),
    (
        "figure4-both-ends-qr-removal",
        25,
        2,
        &["vertex-portal, both ends", "vertex-edge, q_r", "removal"],
    ),
    ("figure4-cut", 143, 2, &["vertex-portal, cut"]),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/convex-figures")
}

/// A 20 x 20 room with an 80-gon pillar: every pillar corner is 184.5 deg
/// seen from the free space, a notch for tau = 0, convex for tau = 5.
fn pillar() -> FloorPlan {
    let ring: Vec<DVec2> = (0..80)
        .map(|k| {
            DVec2::new(10.0, 10.0)
                + DVec2::from_angle(k as f64 * std::f64::consts::TAU / 80.0) * 4.0
        })
        .collect();
    let room = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(20.0, 0.0),
        DVec2::new(20.0, 20.0),
        DVec2::new(0.0, 20.0),
    ];
    FloorPlan {
        area: PolygonWithHoles::new(Polygon::new(room), vec![Polygon::new(ring)]),
        ..Default::default()
    }
}

/// Writes (on request) and checks every sample file; returns the plans.
fn samples() -> Vec<(String, FloorPlan)> {
    let write = std::env::var("NAVSCOPE_WRITE_SAMPLES").is_ok();
    let mut plans: Vec<(String, FloorPlan)> = FIGURES
        .iter()
        .map(|&(name, seed, n, _)| {
            (
                name.to_string(),
                navscope_levels::generate::floor_plan(seed, n),
            )
        })
        .collect();
    plans.push(("figure6-relaxation".to_string(), pillar()));
    for (name, plan) in &plans {
        let path = dir().join(format!("{name}.json"));
        let text = navscope_levels::write::floor_plan_json(plan);
        if write {
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run with NAVSCOPE_WRITE_SAMPLES=1)",
                path.display()
            )
        });
        assert_eq!(committed, text, "{} is out of date", path.display());
    }
    plans
}

#[test]
fn every_figure_sample_forces_its_case() {
    let plans = samples();
    for ((name, _, _, want), (file, _)) in FIGURES.iter().zip(&plans) {
        assert_eq!(name, file);
        let level = navscope_levels::load(&dir().join(format!("{file}.json"))).unwrap();
        let LevelData::FloorPlan(plan) = level.data else {
            panic!("{file} is not a floor plan");
        };
        let o = decompose_plan(&plan.area, 0.0, true).unwrap();
        let seen: Vec<&str> = o
            .decomposition
            .steps
            .iter()
            .flat_map(|st| cases(&o, st))
            .collect();
        for case in *want {
            assert!(
                seen.contains(case),
                "{file}: expected '{case}', saw {seen:?}"
            );
        }
    }
    // Fig. 6: relaxation takes the pillar's 80 corners off the list.
    let (_, plan) = plans.last().unwrap();
    let strict = decompose_plan(&plan.area, 0.0, true).unwrap();
    let relaxed = decompose_plan(&plan.area, 5.0, true).unwrap();
    assert_eq!(strict.notches.len(), 80);
    assert_eq!(relaxed.notches.len(), 0);
    assert!(
        relaxed.cells.len() < strict.cells.len(),
        "{} vs {}",
        relaxed.cells.len(),
        strict.cells.len()
    );
}
