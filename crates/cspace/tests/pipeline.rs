//! The pipeline on the sample levels: paths that walk, step, jump, climb
//! and crouch; link symmetry; links that cross no solid; union faces on the
//! union's boundary without overlaps; named errors; determinism.

mod common;

use common::{artifact, get, locate, path_kinds, run};
use glam::DVec3;
use navscope_core::level::{BrushLevel, Contents, Level, LevelData};
use navscope_core::{LinkKind, ParamValue, Runner, StageError, Stance};
use navscope_cspace::build::{box_brush, rotated_box};
use navscope_cspace::links::{LEVEL_EPS, LinkSeg};
use navscope_cspace::polyhedron::{polygon_area, polygon_centroid, split};
use navscope_cspace::samples;
use navscope_cspace::scene::RegionKind;
use navscope_cspace::stages::{EdgePlanes, Expanded, ExtraLinks, Links, Output, Union};
use proptest::prelude::*;
use std::sync::Arc;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn mesh(r: &Runner) -> navscope_core::NavMesh {
    let a = artifact::<Output>(r, "navmesh");
    get::<Output>(&a).mesh.clone()
}

fn route(r: &Runner, from: DVec3, to: DVec3) -> Option<Vec<LinkKind>> {
    let m = mesh(r);
    path_kinds(
        &m,
        locate(&m, from, Stance::Stand),
        locate(&m, to, Stance::Stand),
    )
}

#[test]
fn the_pipeline_is_consistent() {
    navscope_cspace::pipeline().check().unwrap();
}

#[test]
fn ramp_path_walks_up_the_ramp_and_steps_onto_the_step() {
    let r = run("ramp", samples::ramp(), &[]);
    // Straight ahead of the ramp's foot: the cheapest way up walks the ramp.
    let up = route(&r, v(-5.0, 0.0, 0.0), v(4.0, 1.0, 0.0)).expect("the platform is reachable");
    assert!(up.contains(&LinkKind::Walk), "{up:?}");
    assert!(
        up.iter().all(|k| *k == LinkKind::Walk),
        "up the ramp by walking only: {up:?}"
    );
    let step = route(&r, v(-5.0, 0.0, -4.0), v(-4.0, 0.3, 3.5)).expect("the step is reachable");
    assert!(step.contains(&LinkKind::StepUp), "{step:?}");
    // Step links also run along the low part of the ramp's sides (Figure 4).
    let l = artifact::<Links>(&r, "links");
    let side_steps = get::<Links>(&l).meshes[0]
        .iter()
        .filter(|l| l.kind == LinkKind::StepUp && (l.source[0].z.abs() - 1.3).abs() < 1e-6)
        .count();
    assert!(
        side_steps >= 2,
        "step links along both sides of the ramp: {side_steps}"
    );
}

#[test]
fn archway_makes_the_standing_agent_crouch() {
    let r = run("archway", samples::archway(), &[]);
    let path = route(&r, v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0)).expect("through the archway");
    assert_eq!(
        path.iter().filter(|k| **k == LinkKind::Crouch).count(),
        2,
        "crouch down, crouch up: {path:?}"
    );
    let r = run(
        "archway",
        samples::archway(),
        &[("crouch_mesh", ParamValue::Bool(false))],
    );
    assert!(
        route(&r, v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0)).is_none(),
        "no way through without crouching"
    );
}

#[test]
fn stairs_are_climbed_by_steps() {
    let r = run(
        "stairs",
        samples::stairs(),
        &[("jump_height", ParamValue::Float(0.0))],
    );
    let path = route(&r, v(-3.0, 0.0, 0.0), v(5.0, 1.5, 0.0)).expect("the landing is reachable");
    assert!(
        path.iter().filter(|k| **k == LinkKind::StepUp).count() >= 6,
        "{path:?}"
    );
}

#[test]
fn ledge_needs_a_jump() {
    let r = run("ledge", samples::ledge(), &[]);
    let path = route(&r, v(-3.0, 0.0, 0.0), v(3.0, 1.0, 0.0)).expect("the ledge is reachable");
    assert!(path.contains(&LinkKind::Jump), "{path:?}");
    let r = run(
        "ledge",
        samples::ledge(),
        &[("jump_height", ParamValue::Float(0.6))],
    );
    assert!(route(&r, v(-3.0, 0.0, 0.0), v(3.0, 1.0, 0.0)).is_none());
}

#[test]
fn polygons_end_over_the_ledge_not_beyond_it() {
    // `ledge.map`: a 4 x 4 m block 1 m high on a 10 x 6 m floor slab, open
    // all round. Every corner of every standing polygon lies over the top
    // of the brush it stands on, within a millimetre: in configuration
    // space the polygons overhang both by the agent's half width.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/levels/cspace/ledge.map"
    );
    let level = navscope_levels::load(std::path::Path::new(path)).unwrap();
    let LevelData::Brushes(b) = &level.data else {
        panic!("not a brush level")
    };
    let tops: Vec<navscope_core::geom::Aabb> = b
        .brushes
        .iter()
        .map(|x| {
            let p = navscope_core::geom::polyhedron::Polyhedron::from_planes(&x.planes).unwrap();
            navscope_core::geom::Aabb::from_points(p.distinct_vertices())
        })
        .collect();
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), Arc::new(level));
    r.run_all();
    let mesh = r.navmesh().unwrap();
    let stand: Vec<_> = mesh
        .nodes
        .iter()
        .filter(|n| n.stance == Stance::Stand)
        .collect();
    assert!(stand.iter().any(|n| n.position.y > 0.5), "the block's top");
    let bound = 1e-3;
    for n in stand {
        for p in n.polygon.as_ref().unwrap() {
            let under = tops
                .iter()
                .find(|t| (t.max.y - p.y).abs() < 0.01)
                .unwrap_or_else(|| panic!("node {} corner {p} is on no brush top", n.id));
            assert!(
                p.x >= under.min.x - bound
                    && p.x <= under.max.x + bound
                    && p.z >= under.min.z - bound
                    && p.z <= under.max.z + bound,
                "node {} corner {p} overhangs its brush {under:?}",
                n.id
            );
        }
    }
}

#[test]
fn ladder_is_climbed() {
    let r = run("ladder", samples::ladder(), &[]);
    let path = route(&r, v(-3.0, 0.0, 0.0), v(3.0, 3.0, 0.0)).expect("the top is reachable");
    assert_eq!(
        path.iter().filter(|k| **k == LinkKind::Ladder).count(),
        1,
        "{path:?}"
    );
    let e = artifact::<Expanded>(&r, "expand");
    assert_eq!(
        get::<Expanded>(&e).solids.len(),
        2,
        "the ladder brush is not solid"
    );
}

fn all_links(r: &Runner) -> Vec<LinkSeg> {
    let l = artifact::<Links>(r, "links");
    let x = artifact::<ExtraLinks>(r, "extra-links");
    let x = get::<ExtraLinks>(&x);
    get::<Links>(&l)
        .meshes
        .iter()
        .flatten()
        .chain(x.jumps.iter().flatten())
        .chain(&x.crouch)
        .chain(x.ladders.iter().flatten())
        .cloned()
        .collect()
}

fn reverse(k: LinkKind) -> LinkKind {
    match k {
        LinkKind::StepUp => LinkKind::StepDown,
        LinkKind::StepDown => LinkKind::StepUp,
        other => other,
    }
}

/// Links come in reverse pairs (step-up one way exactly when step-down the
/// other), walk links join edges at one height, and no link's crossing
/// passes through an expanded brush.
fn check_links(name: &str, r: &Runner) {
    let links = all_links(r);
    let e = artifact::<Expanded>(r, "expand");
    let expanded = &get::<Expanded>(&e).expanded;
    for l in &links {
        let back = links.iter().any(|b| {
            b.from_mesh == l.to_mesh
                && b.from == l.to
                && b.to_mesh == l.from_mesh
                && b.to == l.from
                && b.kind == reverse(l.kind)
                && b.source == l.dest
                && b.dest == l.source
        });
        assert!(back, "{name}: {l:?} has no reverse");
        if l.kind == LinkKind::Walk {
            for i in 0..2 {
                assert!(
                    (l.source[i].y - l.dest[i].y).abs() <= LEVEL_EPS,
                    "{name}: walk link between different heights {l:?}"
                );
            }
        }
        // Sample the crossing: along the source and destination segments, and
        // (within one mesh) the vertical between them.
        let mut samples: Vec<(usize, DVec3)> = Vec::new();
        for t in [0.05, 0.5, 0.95] {
            samples.push((l.from_mesh, l.source[0].lerp(l.source[1], t)));
            samples.push((l.to_mesh, l.dest[0].lerp(l.dest[1], t)));
            if l.from_mesh == l.to_mesh && l.kind != LinkKind::Ladder {
                let (a, b) = (
                    l.source[0].lerp(l.source[1], 0.5),
                    l.dest[0].lerp(l.dest[1], 0.5),
                );
                samples.push((l.from_mesh, a.lerp(b, t)));
            }
        }
        for (m, p) in samples {
            for x in &expanded[m] {
                assert!(
                    !x.solid.contains_strictly(p, 1e-4),
                    "{name}: {:?} link {l:?} passes through expanded brush {} at {p}",
                    l.kind,
                    x.brush
                );
            }
        }
    }
}

#[test]
fn links_are_symmetric_level_and_cross_no_solid() {
    for (name, level) in samples::all() {
        let r = run(name, level, &[]);
        assert!(!all_links(&r).is_empty(), "{name}");
        check_links(name, &r);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn links_on_random_blocks_are_symmetric_and_clear(
        blocks in proptest::collection::vec((-3.0f64..3.0, -3.0f64..3.0, 0.5f64..2.5, 0.5f64..2.5, 0.05f64..1.6, -0.6f64..0.6), 1..5),
    ) {
        let mut brushes = vec![box_brush(v(-5.0, -0.5, -5.0), v(5.0, 0.0, 5.0))];
        for (x, z, sx, sz, h, yaw) in blocks {
            brushes.push(rotated_box(v(x, h * 0.5, z), v(sx * 0.5, h * 0.5, sz * 0.5), yaw, 0.0));
        }
        let r = run("blocks", BrushLevel { brushes, entities: vec![], skipped: Vec::new(), unit: 1.0 }, &[]);
        check_links("blocks", &r);
    }
}

#[test]
fn union_faces_lie_on_the_boundary_and_do_not_overlap() {
    for (name, level) in samples::all() {
        let r = run(name, level, &[]);
        let u = artifact::<Union>(&r, "union");
        let e = artifact::<Expanded>(&r, "expand");
        let (u, e) = (get::<Union>(&u), get::<Expanded>(&e));
        for (m, mesh) in u.meshes.iter().enumerate() {
            let brushes = &e.expanded[m];
            for f in &mesh.kept {
                if polygon_area(&f.polygon) < 1e-4 {
                    continue;
                }
                let c = polygon_centroid(&f.polygon);
                let n = f.plane.normal;
                let out = c + n * 1e-4;
                let inside = c - n * 1e-4;
                assert!(
                    brushes.iter().all(|b| !b.solid.contains_strictly(out, 0.0)),
                    "{name}: a point just outside a face of brush {} is inside a brush",
                    f.brush
                );
                assert!(
                    brushes
                        .iter()
                        .any(|b| b.solid.contains_strictly(inside, 0.0)),
                    "{name}: a point just inside a face of brush {} is in no brush",
                    f.brush
                );
            }
            // No two kept pieces on the same plane overlap.
            for (i, a) in mesh.kept.iter().enumerate() {
                for b in &mesh.kept[i + 1..] {
                    if a.plane.normal.dot(b.plane.normal) < 1.0 - 1e-9
                        || (a.plane.d - b.plane.d).abs() > 1e-6
                    {
                        continue;
                    }
                    let mut overlap = a.polygon.clone();
                    let k = b.polygon.len();
                    for j in 0..k {
                        let (p, q) = (b.polygon[j], b.polygon[(j + 1) % k]);
                        let Some(side) = navscope_core::geom::Plane::from_normal_point(
                            (q - p).cross(b.plane.normal),
                            p,
                        ) else {
                            continue;
                        };
                        overlap = split(&overlap, &side, 1e-9).1;
                        if overlap.len() < 3 {
                            break;
                        }
                    }
                    assert!(
                        overlap.len() < 3 || polygon_area(&overlap) < 1e-6,
                        "{name}: kept faces of brushes {} and {} overlap",
                        a.brush,
                        b.brush
                    );
                }
            }
        }
    }
}

#[test]
fn union_steps_through_every_brush_of_every_size() {
    let r = run("ramp", samples::ramp(), &[]);
    let u = artifact::<Union>(&r, "union");
    let steps = u.substeps();
    assert_eq!(steps.len(), 2 * samples::ramp().brushes.len());
    assert_eq!(steps[0].title, "stand: brush 1 of 4");
    let pieces: usize = steps.iter().map(|s| s.highlights.len()).sum();
    let un = get::<Union>(&u);
    assert_eq!(
        pieces,
        un.meshes
            .iter()
            .map(|m| m.kept.len() + m.clipped.len())
            .sum::<usize>()
    );
    // Each sub-step alone is the same as in the whole list.
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(u.substep(i).as_ref(), Some(s), "sub-step {i} alone");
    }
    assert_eq!(u.substep(steps.len()), None, "past the last");
}

#[test]
fn clicking_a_brush_an_expanded_brush_or_a_ladder_describes_it() {
    let r = run("ladder", samples::ladder(), &[]);
    let a = artifact::<Expanded>(&r, "expand");
    assert_eq!(a.describe(1)["brush"], 1);
    assert_eq!(a.describe(2)["agent"], "stand");
    assert_eq!(a.describe(4)["agent"], "crouch");
    assert_eq!(a.describe(6)["ladder_entity"], 1);
    assert!(a.describe(7).is_null());
    // A level of ladders only: no solids, so element 0 is the ladder.
    let mut only = samples::ladder();
    only.brushes.retain(|b| b.entity.is_some());
    let r = run("ladder only", only, &[]);
    let a = artifact::<Expanded>(&r, "expand");
    assert_eq!(a.describe(0)["ladder_entity"], 1);
    assert!(a.describe(1).is_null());
}

#[test]
fn clicking_an_edge_plane_lists_its_edges() {
    // The archway: the crouching mesh is the space under the arch.
    let r = run("archway", samples::archway(), &[]);
    let a = artifact::<EdgePlanes>(&r, "edge-planes");
    let t = get::<EdgePlanes>(&a);
    let opposing = t.tables[0]
        .iter()
        .position(|p| !p.same.is_empty() && !p.opposite.is_empty())
        .unwrap();
    let d = a.describe(opposing as u32);
    assert_eq!(d["agent"], "stand");
    assert_eq!(
        d["same_facing"].as_array().unwrap().len(),
        t.tables[0][opposing].same.len()
    );
    assert_eq!(
        d["opposite_facing"].as_array().unwrap().len(),
        t.tables[0][opposing].opposite.len()
    );
    assert_eq!(d["same_facing"][0]["from"].as_array().unwrap().len(), 3);
    let crouch_first = t.tables[0].len() as u32;
    assert!(!t.tables[1].is_empty());
    assert_eq!(a.describe(crouch_first)["agent"], "crouch");
    assert!(a.describe(u32::MAX).is_null());
}

#[test]
fn every_stage_draws_and_counts() {
    let r = run("courtyard", samples::courtyard(), &[]);
    let kinds: Vec<String> = (0..r.pipeline().stages.len())
        .flat_map(|i| r.result(i).unwrap().outcome.as_ref().unwrap().primitives())
        .map(|p| p.kind.into_owned())
        .collect();
    for k in [
        "brush",
        "brush/expanded/stand",
        "brush/expanded/crouch",
        "face/bevel",
        "face/kept",
        "face/clipped",
        "walkable/stand",
        "walkable/crouch",
        "edge-plane",
        "link/walk",
        "link/step-up",
        "link/step-down",
        "link/jump",
        "link/crouch",
        "link/ladder",
        "ladder",
    ] {
        assert!(kinds.iter().any(|x| x == k), "no primitive of kind {k}");
    }
    let m = mesh(&r);
    m.validate().unwrap();
    for k in [
        LinkKind::Walk,
        LinkKind::StepUp,
        LinkKind::StepDown,
        LinkKind::Jump,
        LinkKind::Crouch,
        LinkKind::Ladder,
    ] {
        assert!(
            m.links.iter().any(|l| l.kind == k),
            "courtyard has no {k:?} link"
        );
    }
    // The NavMesh contract: polygons counter-clockwise seen from above.
    for n in &m.nodes {
        let p = n.polygon.as_ref().unwrap();
        let s: f64 = (0..p.len())
            .map(|i| p[i].x * p[(i + 1) % p.len()].z - p[(i + 1) % p.len()].x * p[i].z)
            .sum();
        assert!(s < 0.0, "node {} winds clockwise", n.id);
    }
}

fn level(brushes: Vec<navscope_core::level::Brush>) -> Arc<Level> {
    Arc::new(Level {
        source: "bad.map".into(),
        data: LevelData::Brushes(BrushLevel {
            brushes,
            entities: vec![],
            skipped: Vec::new(),
            unit: 1.0,
        }),
    })
}

fn first_error(l: Arc<Level>) -> Option<(usize, StageError)> {
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), l);
    r.run_all();
    r.first_error().map(|(i, e)| (i, e.clone()))
}

/// The brushes `expand` skipped, as (element, problem), and whether the
/// level still built a navmesh.
fn skipped(l: Arc<Level>) -> (Vec<(String, String)>, bool) {
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), l);
    r.run_all();
    let a = artifact::<Expanded>(&r, "expand");
    let list = get::<Expanded>(&a)
        .skipped
        .iter()
        .map(|s| (s.element.clone(), s.problem.clone()))
        .collect();
    (list, r.navmesh().is_some_and(|m| !m.nodes.is_empty()))
}

#[test]
fn degenerate_brushes_are_skipped_and_named() {
    let floor = box_brush(v(-2.0, -1.0, -2.0), v(2.0, 0.0, 2.0));
    let flat = box_brush(v(0.0, 0.0, 0.0), v(1.0, 0.0, 1.0));
    let (s, built) = skipped(level(vec![floor.clone(), flat]));
    assert!(built, "the floor still builds");
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].0, "brush 1");
    assert!(s[0].1.starts_with("encloses no volume"), "{:?}", s[0]);
    let mut dup = floor.clone();
    dup.planes.push(dup.planes[1]);
    let (s, built) = skipped(level(vec![floor.clone(), dup]));
    assert!(built);
    assert_eq!(
        s,
        vec![(
            "brush 1".to_string(),
            "planes 1 and 6 are the same plane".to_string()
        )]
    );
    let huge = box_brush(v(0.0, 0.0, 0.0), v(1.5e5, 1.0, 1.0));
    let (s, _) = skipped(level(vec![floor.clone(), huge]));
    assert!(
        s[0].1
            .contains("has a vertex beyond the largest allowed coordinate"),
        "{s:?}"
    );
    let far = box_brush(v(0.0, 0.0, 0.0), v(1.0e9, 1.0, 1.0));
    let (s, built) = skipped(level(vec![floor.clone(), far]));
    assert!(built);
    assert_eq!(
        s[0].1,
        "plane 0 lies beyond the largest allowed coordinate (100000 m)"
    );
    // An empty level is not an error: it has no walkable surface.
    assert!(first_error(level(vec![])).is_none());
    // Crouching taller than standing is refused, naming both parameters.
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), level(vec![floor]));
    r.set_param("crouch_height", ParamValue::Float(2.0))
        .unwrap();
    r.run_all();
    assert_eq!(
        r.first_error().unwrap().1.to_string(),
        "crouch_height (2 m) must be lower than stand_height (1.8 m)"
    );
    // A floor plan is the wrong kind of level.
    let fp = Arc::new(Level {
        source: "plan.json".into(),
        data: LevelData::FloorPlan(Default::default()),
    });
    assert!(
        first_error(fp)
            .unwrap()
            .1
            .to_string()
            .contains("needs a brush level")
    );
}

#[test]
fn output_is_deterministic() {
    let a = mesh(&run("courtyard", samples::courtyard(), &[])).to_json();
    let b = mesh(&run("courtyard", samples::courtyard(), &[])).to_json();
    assert_eq!(a, b);
}

#[test]
fn bevels_off_changes_the_slanted_crates() {
    let with = run("courtyard", samples::courtyard(), &[]);
    let without = run(
        "courtyard",
        samples::courtyard(),
        &[("bevels", ParamValue::Bool(false))],
    );
    let count = |r: &Runner| r.result(0).unwrap().counts["bevel faces"];
    assert!(count(&with) > 0);
    assert_eq!(count(&without), 0);
}

/// The hand-made Quake 2 map `assets/levels/cspace/q2_many_sided.map`:
/// many-sided brushes build, and Quake 2 content and surface flags decide
/// what is solid.
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

#[test]
fn regions_lifts_and_skipped_brushes_are_drawn_and_described() {
    use navscope_core::geom::Aabb;
    use navscope_core::level::{Entity, SkippedBrush};
    let mut door = box_brush(v(2.0, 0.0, -1.0), v(2.2, 3.0, 1.0));
    door.entity = Some(0);
    door.contents = Contents::Door;
    let mut water = box_brush(v(-4.0, -2.0, -3.0), v(-2.0, 0.0, -1.0));
    water.contents = Contents::Water;
    let mut plat = box_brush(v(4.0, 0.0, -1.0), v(5.0, 2.0, 1.0));
    plat.entity = Some(1);
    plat.contents = Contents::Lift;
    let level = BrushLevel {
        brushes: vec![
            box_brush(v(-6.0, -1.0, -6.0), v(6.0, 0.0, 6.0)),
            door,
            water,
            plat,
        ],
        entities: vec![
            Entity {
                classname: "func_door".into(),
                origin: None,
                properties: vec![("angle".into(), "-1".into())],
            },
            Entity {
                classname: "func_plat".into(),
                origin: None,
                properties: vec![],
            },
        ],
        skipped: vec![SkippedBrush {
            element: "brush 9 (line 99)".into(),
            problem: "is not closed".into(),
            bounds: Some(Aabb::from_corners(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0))),
        }],
        unit: 1.0 / 32.0,
    };
    let r = run("regions", level, &[]);
    let a = artifact::<Expanded>(&r, "expand");
    let kinds: Vec<String> = a
        .primitives()
        .into_iter()
        .map(|p| p.kind.into_owned())
        .collect();
    for k in ["region/door", "region/water", "lift", "brush/skipped"] {
        assert!(kinds.iter().any(|x| x == k), "{k} drawn: {kinds:?}");
    }
    let e = get::<Expanded>(&a);
    let first = (e.solids.len() * (e.expanded.len() + 1) + e.ladders.len() + e.lifts.len()) as u32;
    assert_eq!(a.describe(first)["region"], "water");
    assert_eq!(a.describe(first + 1)["region"], "door");
    assert_eq!(a.describe(first + 2)["skipped"], "brush 9 (line 99)");
    let mesh = r.navmesh().unwrap();
    assert!(
        mesh.links.iter().any(|l| l.kind == LinkKind::Door),
        "walking into the doorway"
    );
    assert!(mesh.nodes.iter().any(|n| n.area == "door"));
}
