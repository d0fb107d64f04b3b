//! Mutated documents fed to the loaders this crate owns: NavMesh JSON
//! ([`NavMesh::from_json`], what `navscope-cli build --pipeline navmesh`
//! and the comparison read) and parameter presets
//! ([`ParamValues::from_ron`], `--preset`). Whatever the bytes, a loader
//! returns a value or an error of one short line; it never panics. (The
//! level loaders have the same test in `navscope-levels`.)

use glam::DVec3;
use navscope_core::{LinkKind, NavMesh, ParamSpec, ParamValues, Stance};
use proptest::prelude::*;

/// A NavMesh using every field of version 2.
fn sample_mesh() -> String {
    let mut m = NavMesh::new("convex", "levels/a.json");
    let square = |x: f64| {
        vec![
            DVec3::new(x, 0., 0.),
            DVec3::new(x + 1., 0., 0.),
            DVec3::new(x + 1., 0., -1.),
            DVec3::new(x, 0., -1.),
        ]
    };
    let a = m.add_node(
        DVec3::new(0.5, 0., -0.5),
        Some(square(0.)),
        Stance::Stand,
        0,
    );
    let b = m.add_node(
        DVec3::new(1.5, 0., -0.5),
        Some(square(1.)),
        Stance::Crouch,
        1,
    );
    let c = m.add_node(DVec3::new(3.0, 0.5, 0.0), None, Stance::Swim, 0);
    m.nodes[0].area = "water".into();
    m.nodes[1].radius = Some(0.75);
    m.nodes[1].detail = Some(vec![[DVec3::ZERO, DVec3::X, DVec3::Z]]);
    m.add_two_way(
        a,
        b,
        LinkKind::Portal,
        1.0,
        Some([DVec3::new(1., 0., 0.), DVec3::new(1., 0., -1.)]),
    );
    m.add_two_way(b, c, LinkKind::Teleport, 0.0, None);
    m.metrics.insert("cells".into(), 2.0);
    m.to_json()
}

fn specs() -> Vec<ParamSpec> {
    vec![
        ParamSpec::float("tau", "Tau", "m", 1.0, 0.0, 10.0, 0.1, "A length"),
        ParamSpec::float("radius", "Radius", "m", 0.3, 0.0, 5.0, 0.05, "Another"),
    ]
}

/// Applies `edits` (position, byte, kind: replace, insert, delete, or
/// duplicate a run) to `text`.
fn mutate(text: &str, edits: &[(prop::sample::Index, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for (at, byte, kind) in edits {
        if bytes.is_empty() {
            bytes.push(*byte);
            continue;
        }
        let i = at.index(bytes.len());
        match kind {
            0 => bytes[i] = *byte,
            1 => bytes.insert(i, *byte),
            2 => {
                bytes.remove(i);
            }
            _ => {
                let run: Vec<u8> = bytes[i..(i + 16).min(bytes.len())].to_vec();
                bytes.splice(i..i, run);
            }
        }
    }
    bytes
}

/// An error message fit for the user: one line, not a page.
fn one_line(msg: &str) -> Result<(), TestCaseError> {
    prop_assert!(!msg.is_empty() && !msg.contains('\n'), "{:?}", msg);
    prop_assert!(msg.len() < 400, "{}", msg);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn mutated_navmesh_documents_never_panic(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..6)) {
        let bytes = mutate(&sample_mesh(), &edits);
        let text = String::from_utf8_lossy(&bytes);
        match NavMesh::from_json(&text) {
            Ok(m) => prop_assert!(m.validate().is_ok()),
            Err(e) => one_line(&e.to_string())?,
        }
    }

    #[test]
    fn mutated_presets_never_panic(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..6)) {
        let specs = specs();
        let mut preset = ParamValues::defaults(&specs);
        preset.set(&specs, "tau", navscope_core::ParamValue::Float(2.5)).unwrap();
        let bytes = mutate(&preset.to_ron(), &edits);
        if let Err(e) = ParamValues::from_ron(&specs, &String::from_utf8_lossy(&bytes)) {
            one_line(&e.to_string())?;
        }
    }
}

#[test]
fn the_samples_load_unmutated() {
    NavMesh::from_json(&sample_mesh()).unwrap();
    let specs = specs();
    let preset = ParamValues::defaults(&specs);
    assert_eq!(
        ParamValues::from_ron(&specs, &preset.to_ron()).unwrap(),
        preset
    );
}
