//! The hand-made Quake 2 map `assets/levels/cspace/q2_many_sided.map`:
//! many-sided brushes build, and Quake 2 content and surface flags decide
//! what is solid.

mod common;

use std::sync::Arc;

use common::{artifact, get};
use navscope_core::level::{Contents, LevelData};
use navscope_core::{Runner, Stance};
use navscope_cspace::scene::RegionKind;
use navscope_cspace::stages::Expanded;

#[test]
fn many_sided_brushes_and_quake2_flags() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/levels/cspace/q2_many_sided.map"
    );
    let level = navscope_levels::load(std::path::Path::new(path)).unwrap();
    let LevelData::Brushes(b) = &level.data else {
        panic!("not a brush level")
    };
    assert!(b.skipped.is_empty(), "{:?}", b.skipped);
    let contents: Vec<Contents> = b.brushes.iter().map(|x| x.contents).collect();
    assert_eq!(
        contents.iter().filter(|c| **c == Contents::Water).count(),
        1
    );
    assert_eq!(contents.iter().filter(|c| **c == Contents::Clip).count(), 1);
    assert_eq!(
        contents.iter().filter(|c| **c == Contents::Empty).count(),
        1,
        "the hint brush"
    );
    assert!(b.brushes[1].planes.len() == 98 && b.brushes[2].planes.len() == 65);
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), Arc::new(level));
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    let a = artifact::<Expanded>(&r, "expand");
    let e = get::<Expanded>(&a);
    assert!(e.skipped.is_empty());
    assert_eq!(e.solids.len(), 8, "floor, pillar, cone, 4 pool walls, clip");
    assert_eq!(
        e.regions
            .iter()
            .filter(|r| r.kind == RegionKind::Water)
            .count(),
        1
    );
    // The pillar's expansion keeps only the bevels that bound the sum.
    let pillar = e.expanded[0].iter().find(|x| x.brush == 1).unwrap();
    assert!(
        pillar.solid.faces.len() <= 98 + 4 + 4 * 96,
        "{}",
        pillar.solid.faces.len()
    );
    let mesh = r.navmesh().unwrap();
    assert!(
        mesh.nodes.iter().any(|n| n.stance == Stance::Swim),
        "the pool swims"
    );
    // Nodes on the cone's slope: between the floor and its apex.
    let unit = 1.0 / 32.0;
    assert!(mesh.nodes.iter().any(|n| {
        n.stance == Stance::Stand
            && n.position.y > 8.0 * unit
            && n.position.y < 56.0 * unit
            && n.position.x < -128.0 * unit
    }));
}
