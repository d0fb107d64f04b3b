//! The paper's claims (Table 1, §4) on the checked-in corpus
//! `assets/levels/corpus/table1..8.json`: eight rooms with obstacles whose
//! strict notch counts are the paper's (15 to 106).

mod common;

use std::path::PathBuf;

use navscope_convex::decompose_plan;
use navscope_core::geom::PolygonWithHoles;
use navscope_core::level::LevelData;

const TARGETS: [usize; 8] = [15, 22, 32, 43, 55, 68, 93, 106];

fn corpus() -> Vec<(String, PolygonWithHoles)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/corpus");
    (1..=8)
        .map(|i| {
            let path = dir.join(format!("table{i}.json"));
            let level =
                navscope_levels::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let LevelData::FloorPlan(fp) = level.data else {
                panic!("{} is not a floor plan", path.display())
            };
            (format!("table{i}"), fp.area)
        })
        .collect()
}

/// Cells for (original, with removal, tau = 5 deg), checking every
/// invariant of each decomposition on the way.
fn three_versions(plan: &PolygonWithHoles) -> [usize; 3] {
    [(0.0, false), (0.0, true), (5.0, true)].map(|(tau, removal)| {
        let out = decompose_plan(plan, tau, removal).unwrap();
        common::check(plan, &out, tau);
        out.cells.len()
    })
}

#[test]
fn the_corpus_has_the_papers_notch_counts() {
    for ((name, plan), want) in corpus().iter().zip(TARGETS) {
        let out = decompose_plan(plan, 0.0, true).unwrap();
        assert_eq!(out.strict_notches, want, "{name}");
    }
}

#[test]
fn cells_never_exceed_notches_plus_one_and_removal_and_relaxation_lower_the_count() {
    let mut totals = [0usize; 3];
    for (name, plan) in corpus() {
        let r = decompose_plan(&plan, 0.0, false).unwrap().strict_notches;
        let c = three_versions(&plan);
        for (k, cells) in c.iter().enumerate() {
            assert!(
                *cells <= r + 1,
                "{name}: version {k} has {cells} cells for {r} notches"
            );
            totals[k] += cells;
        }
        assert!(c[1] <= c[0], "{name}: removal raised the cell count {c:?}");
        assert!(
            c[2] <= c[1],
            "{name}: tau = 5 deg raised the cell count {c:?}"
        );
    }
    assert!(
        totals[1] < totals[0] && totals[2] < totals[1],
        "totals {totals:?}"
    );
}

#[test]
fn the_table_in_the_crate_docs_matches_the_corpus() {
    let docs = include_str!("../src/lib.rs");
    for (name, plan) in corpus() {
        let r = decompose_plan(&plan, 0.0, false).unwrap().strict_notches;
        let c = three_versions(&plan);
        let f = |k: usize| c[k] as f64 / r as f64;
        let row = format!(
            "| {name} | {r} | {} | {:.2} | {} | {:.2} | {} | {:.2} |",
            c[0],
            f(0),
            c[1],
            f(1),
            c[2],
            f(2)
        );
        assert!(docs.contains(&row), "the crate docs lack the row\n{row}");
    }
}
