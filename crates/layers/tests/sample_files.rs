//! The sample level files: written from `samples` (run with
//! `NAVSCOPE_BLESS=1` to rewrite them), loaded back through
//! `navscope-levels` and checked against brute force.

use std::path::PathBuf;

use navscope_core::level::{LayeredLevel, LevelData};
use navscope_layers::verify::check_clearances;
use navscope_layers::{build, samples, settings};

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels")
}

fn files() -> Vec<(String, LayeredLevel)> {
    let mut v = vec![
        ("two_storeys.ron".to_string(), samples::two_storeys()),
        ("bridge.ron".to_string(), samples::bridge()),
        ("figure5.ron".to_string(), samples::figure5()),
        ("figure6.ron".to_string(), samples::figure6()),
    ];
    for k in [1, 2, 3, 5, 8, 14, 20, 28] {
        v.push((format!("figure7-{k:02}.ron"), samples::figure7(k)));
    }
    v
}

#[test]
fn sample_files_are_up_to_date_and_build() {
    let dir = assets().join("layers-samples");
    let bless = std::env::var_os("NAVSCOPE_BLESS").is_some();
    for (name, level) in files() {
        let path = dir.join(&name);
        let text = navscope_levels::write::layers_ron(&level);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with NAVSCOPE_BLESS=1)", path.display()));
        assert_eq!(on_disk, text, "{name} is stale: run with NAVSCOPE_BLESS=1");
    }
}

#[test]
fn every_layers_level_file_builds_and_matches_brute_force() {
    for sub in ["layers", "layers-samples"] {
        let Ok(entries) = std::fs::read_dir(assets().join(sub)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        paths.sort();
        for path in paths {
            let level = navscope_levels::load(&path).unwrap_or_else(|e| panic!("{e}"));
            let LevelData::Layers(l) = level.data else {
                panic!("{}: not a layered level", path.display())
            };
            let b = build(&l, &settings(0.001, 0.01))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let opened: Vec<usize> = (0..l.connections.len()).collect();
            check_clearances(&b.merged, &b.sites, &opened, 0.025)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                b.openings.iter().all(|o| o.unmatched == 0),
                "{}",
                path.display()
            );
        }
    }
}
