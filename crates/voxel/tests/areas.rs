//! Convex volumes that mark areas (Recast's `rcMarkConvexPolyArea`): the
//! nodes inside a volume carry its area and only they do, the NavMesh
//! carries the costs and a path walks around an expensive area; and the
//! tile padding for large radii (flags of a tiled build equal the one-tile
//! build's).

mod common;

use common::{level_of, params};
use glam::{DVec2, DVec3};
use navscope_core::ParamValue;
use navscope_core::level::{ConvexVolume, MeshLevel};
use navscope_core::navmesh::DEFAULT_AREA;
use navscope_path::{Locator, SearchOptions, find_path};
use navscope_voxel::build;
use navscope_voxel::samples::MeshBuilder;
use proptest::prelude::*;

/// A bare 12 x 8 m floor.
fn floor() -> MeshLevel {
    let mut b = MeshBuilder::new();
    b.solid("floor", [0., -0.2, 0.], [12., 0., 8.]);
    b.level()
}

fn volume(area: &str, cost: Option<f64>, points: &[(f64, f64)], y: (f64, f64)) -> ConvexVolume {
    ConvexVolume {
        area: area.into(),
        cost,
        points: points.iter().map(|p| DVec2::new(p.0, p.1)).collect(),
        min_y: y.0,
        max_y: y.1,
    }
}

fn centre(n: &navscope_core::navmesh::Node) -> DVec3 {
    let p = n.polygon.as_ref().unwrap();
    p.iter().sum::<DVec3>() / p.len() as f64
}

fn stand_only() -> navscope_core::ParamValues {
    params(&[
        ("passes", ParamValue::Text("stand".into())),
        ("tile_size", ParamValue::Int(0)),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A random convex prism over part of the floor: every node whose
    /// polygon's centre is inside the prism has its area, and no node
    /// outside it does (regions never cross an area change, so a polygon
    /// is wholly in or out, up to its simplified outline).
    #[test]
    fn nodes_inside_a_volume_take_its_area_and_only_they(
        cx in 3.0f64..9.0, cz in 2.5f64..5.5, rx in 1.0f64..2.5, rz in 1.0f64..2.0,
        corners in 3usize..8, turn in 0.0f64..std::f64::consts::TAU,
        low in prop_oneof![Just(-1.0f64), Just(0.5f64)],
    ) {
        let pts: Vec<(f64, f64)> = (0..corners)
            .map(|i| {
                let a = turn + i as f64 * std::f64::consts::TAU / corners as f64;
                (cx + rx * a.cos(), cz + rz * a.sin())
            })
            .collect();
        // A prism whose floor band misses the floor (low = 0.5) marks nothing.
        let mut level = floor();
        level.volumes = vec![volume("grass", None, &pts, (low, 1.0))];
        let v = &level.volumes[0];
        let b = build(&level_of(level.clone()), &stand_only()).unwrap();
        let m = b.navmesh();
        prop_assert_eq!(m.area_cost("grass"), 2.0);
        let mut inside = 0;
        for n in &m.nodes {
            let c = centre(n);
            // A polygon is in the area by its region; its centre can sit off
            // the voxel outline by the simplification error, so points that
            // near the prism's edge are not judged.
            let near_edge = pts.iter().enumerate().any(|(i, p)| {
                let q = pts[(i + 1) % pts.len()];
                let (a, b2, pp) = (DVec2::new(p.0, p.1), DVec2::new(q.0, q.1), DVec2::new(c.x, c.z));
                let t = ((pp - a).dot(b2 - a) / (b2 - a).length_squared()).clamp(0.0, 1.0);
                (a + (b2 - a) * t).distance(pp) < 0.3
            });
            if near_edge {
                continue;
            }
            let want = v.contains(c.x, c.y, c.z);
            inside += want as usize;
            prop_assert_eq!(
                n.area == "grass", want,
                "node {} at {:?} has area {}", n.id, c, n.area
            );
        }
        if low > 0.0 {
            prop_assert_eq!(inside, 0);
            prop_assert!(m.nodes.iter().all(|n| n.area == DEFAULT_AREA));
        }
    }
}

#[test]
fn a_path_goes_around_an_expensive_area_and_through_a_cheap_one() {
    // A band of "mud" across the middle of the floor, open at its ends
    // (z from 1.5 to 6.5 of the 8 m floor): around it is longer.
    let band = [(5.0, 1.5), (7.0, 1.5), (7.0, 6.5), (5.0, 6.5)];
    let (from, to) = (DVec3::new(1.5, 0.0, 4.0), DVec3::new(10.5, 0.0, 4.0));
    let path = |cost: f64| {
        let mut level = floor();
        level.volumes = vec![volume("mud", Some(cost), &band, (-1.0, 1.0))];
        let b = build(&level_of(level), &stand_only()).unwrap();
        let m = b.navmesh().clone();
        assert_eq!(m.area_cost("mud"), cost);
        assert!(m.nodes.iter().any(|n| n.area == "mud"));
        let locator = Locator::new(&m);
        let r = find_path(&m, &locator, from, to, &SearchOptions::default()).unwrap();
        let nodes = r.search.nodes.clone().unwrap();
        let through = nodes.iter().any(|&i| m.nodes[i as usize].area == "mud");
        (through, r.length)
    };
    let (through_cheap, short) = path(1.0);
    let (through_dear, long) = path(20.0);
    assert!(through_cheap, "a mud that costs 1 is on the straight way");
    assert!(!through_dear, "a mud that costs 20 is walked around");
    assert!(long > short + 0.5, "around: {long} m, through: {short} m");
}

#[test]
fn presets_and_the_switch() {
    let mut level = floor();
    let sq = [(2.0, 2.0), (4.0, 2.0), (4.0, 4.0), (2.0, 4.0)];
    level.volumes = vec![
        volume("water", None, &sq, (-1.0, 1.0)),
        volume(
            "road",
            Some(0.5),
            &[(8.0, 2.0), (10.0, 2.0), (10.0, 6.0)],
            (-1.0, 1.0),
        ),
    ];
    let on = build(&level_of(level.clone()), &stand_only()).unwrap();
    let m = on.navmesh();
    assert_eq!(m.area_cost("water"), 10.0);
    assert_eq!(m.area_cost("road"), 0.5, "the volume's own cost wins");
    for a in ["water", "road"] {
        assert!(m.nodes.iter().any(|n| n.area == a), "{a}");
    }
    let mut p = stand_only();
    p.set(
        &navscope_voxel::settings::specs(),
        "convex_volumes",
        ParamValue::Bool(false),
    )
    .unwrap();
    let off = build(&level_of(level.clone()), &p).unwrap();
    assert!(off.navmesh().nodes.iter().all(|n| n.area == DEFAULT_AREA));
    // Two costs for one name are an error naming both volumes.
    level
        .volumes
        .push(volume("road", Some(3.0), &sq, (-1.0, 1.0)));
    let e = build(&level_of(level), &stand_only())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("convex volumes 1 and 2: area 'road' has costs 0.5 and 3"),
        "{e}"
    );
}

#[test]
fn a_large_radius_gives_the_same_flags_tiled_as_in_one_tile() {
    // A 30 x 30 m floor with a pillar and a raised deck: with a 4.5 m
    // radius at 0.1 m cells (45 cells) the erosion reads 50 cells, more
    // than the old padding of radius + 3 cells, so seams eroded.
    let mut b = MeshBuilder::new();
    b.solid("floor", [0., -0.2, 0.], [30., 0., 30.]);
    b.solid("pillar", [14., 0., 9.], [15., 3., 10.]);
    b.solid("deck", [18., 0., 18.], [30., 0.3, 30.]);
    let level = level_of(b.level());
    let p = |tile: i64| {
        params(&[
            ("passes", ParamValue::Text("stand".into())),
            ("stand.radius", ParamValue::Float(4.5)),
            ("filter_ledge_spans", ParamValue::Bool(true)),
            ("tile_size", ParamValue::Int(tile)),
            ("reuse_tiles", ParamValue::Bool(false)),
        ])
    };
    let one = build(&level, &p(0)).unwrap();
    let tiled = build(&level, &p(64)).unwrap();
    assert!(tiled.tiles.len() > 4);
    let whole = &one.tiles[0];
    let (hf1, f1) = (&whole.heightfield, &whole.flags[0]);
    let mut walkable = 0;
    for t in &tiled.tiles {
        let (hf, f) = (&t.heightfield, &t.flags[0]);
        for c in 0..hf.cols.len() - 1 {
            let (x, z) = hf.cell(c);
            if !hf.rect.in_core(x, z) {
                continue;
            }
            let c1 = hf1.col(x, z).unwrap();
            let (r, r1) = (hf.range(c), hf1.range(c1));
            assert_eq!(r.len(), r1.len(), "spans of ({x}, {z})");
            for (s, s1) in r.zip(r1) {
                let (a, b) = (hf.spans[s], hf1.spans[s1]);
                assert_eq!((a.base, a.floor, a.ceil), (b.base, b.floor, b.ceil));
                assert_eq!(f.flags[s], f1.flags[s1], "flag of ({x}, {z})");
                walkable += f.walkable(s) as usize;
            }
        }
    }
    assert!(walkable > 10_000, "{walkable}");
}
