//! Levels made in the test, each with one known cause, in the voxel and
//! cspace pipelines: a doorway narrower than the agent, a ledge higher
//! than the step, a ceiling lower than the agent, a gap wider than the
//! jump, a region smaller than the minimum. For each, the failed path's
//! gap (or, for the region, the point's answer) names the rule and a fix,
//! and building with the fix finds the path (keeps the point).
//!
//! Every level stands on a floor slab 12 x 4 m (x 0..12, z 0..4, top at
//! y = 0); the path runs from (2, 0, 2) to (10, 0, 2).

use std::sync::Arc;
use std::time::Duration;

use glam::DVec3;
use navscope_core::geom::{Aabb, Plane};
use navscope_core::level::{Brush, BrushLevel, Contents, Entity, Level, LevelData};
use navscope_core::params::{ParamValue, ParamValues};
use navscope_core::{Pipeline, Runner};
use navscope_explain::rules::Rules;
use navscope_explain::{FixBudget, Gap, explain_gap, failed_path_gap, why_not_here};
use navscope_path::{Locator, PathError, SearchOptions, find_path};
use navscope_voxel::samples::MeshBuilder;

type Box3 = (DVec3, DVec3);

fn b(lo: [f64; 3], hi: [f64; 3]) -> Box3 {
    (DVec3::from_array(lo), DVec3::from_array(hi))
}

/// The floor slab from x0 to x1 with its top at `top`.
fn slab(x0: f64, x1: f64, top: f64) -> Box3 {
    b([x0, top - 0.2, 0.0], [x1, top, 4.0])
}

fn mesh_level(boxes: &[Box3]) -> Arc<Level> {
    let mut m = MeshBuilder::new();
    for (i, (lo, hi)) in boxes.iter().enumerate() {
        m.solid(
            &format!("box{i}"),
            lo.as_vec3().to_array(),
            hi.as_vec3().to_array(),
        );
    }
    Arc::new(Level {
        source: "made in the test".into(),
        data: LevelData::Mesh(m.level()),
    })
}

fn brush_level(boxes: &[Box3]) -> Arc<Level> {
    let brushes = boxes
        .iter()
        .map(|(lo, hi)| {
            let planes: Vec<Plane> = Aabb::from_corners(*lo, *hi).outward_planes().into();
            Brush {
                materials: vec!["wall".into(); planes.len()],
                planes,
                entity: None,
                contents: Contents::Solid,
            }
        })
        .collect();
    Arc::new(Level {
        source: "made in the test".into(),
        data: LevelData::Brushes(BrushLevel {
            brushes,
            ..Default::default()
        }),
    })
}

fn pipeline(id: &str) -> Arc<Pipeline> {
    navscope_pipelines::by_id(id).expect("a pipeline")
}

/// A built runner of pipeline `id` on `level` with `sets`; voxel keeps
/// only its standing pass, so one agent's rules apply.
fn built(id: &str, level: Arc<Level>, sets: &[(&str, ParamValue)]) -> Runner {
    let p = pipeline(id);
    let mut v = ParamValues::defaults(&p.params);
    if id == "voxel" {
        v.set(&p.params, "passes", ParamValue::Text("stand".into()))
            .expect("a pass list");
    }
    for (name, value) in sets {
        v.set(&p.params, name, value.clone()).expect("in range");
    }
    let mut r = Runner::new(p, level);
    r.set_params(v);
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    r
}

const FROM: DVec3 = DVec3::new(2.0, 0.0, 2.0);

fn budget() -> FixBudget {
    FixBudget {
        time: Duration::from_secs(600),
        ..FixBudget::default()
    }
}

fn finds_path(r: &Runner, to: DVec3) -> bool {
    let mesh = r.navmesh().expect("a NavMesh");
    find_path(
        &mesh,
        &Locator::new(&mesh),
        FROM,
        to,
        &SearchOptions::default(),
    )
    .is_ok()
}

/// The explained gap of the failed path from [`FROM`] to `to`.
fn explained(r: &Runner, to: DVec3, budget: &FixBudget) -> Gap {
    let mesh = r.navmesh().expect("a NavMesh");
    let opts = SearchOptions::default();
    let e = find_path(&mesh, &Locator::new(&mesh), FROM, to, &opts).expect_err("no path");
    let PathError::NoConnection {
        start_node,
        goal_node,
        ..
    } = e
    else {
        panic!("expected no connection, got {e}");
    };
    let gap = failed_path_gap(&mesh, &opts, start_node, goal_node).expect("a gap");
    explain_gap(gap, r, opts, (FROM, to), budget)
}

/// The failed path names `rule` and a fix of `parameter`, and building
/// with the fix finds the path.
fn cause_and_fix(
    id: &str,
    level: Arc<Level>,
    sets: &[(&str, ParamValue)],
    to: DVec3,
    rule: &str,
    parameter: &str,
) {
    cause_and_one_of_fixes(id, level, sets, to, rule, &[parameter]);
}

/// As [`cause_and_fix`], the first fix changing one of `parameters`.
fn cause_and_one_of_fixes(
    id: &str,
    level: Arc<Level>,
    sets: &[(&str, ParamValue)],
    to: DVec3,
    rule: &str,
    parameters: &[&str],
) {
    let r = built(id, level.clone(), sets);
    let gap = explained(&r, to, &budget());
    assert!(gap.reason.contains(rule), "{id}: {}", gap.reason);
    let fix = gap
        .fix
        .first()
        .unwrap_or_else(|| panic!("{id}: a fix for {}", gap.reason));
    assert!(
        parameters.contains(&fix.parameter.as_str()),
        "{id}: {} fixed by {}",
        gap.reason,
        fix.parameter
    );
    let mut with_fix: Vec<(&str, ParamValue)> = sets.to_vec();
    with_fix.push((&fix.parameter, fix.value.clone()));
    assert!(
        finds_path(&built(id, level, &with_fix), to),
        "{id}: {} = {} does not find the path",
        fix.parameter,
        fix.value
    );
}

/// A wall across the floor at x = 6 with a doorway `width` wide.
fn doorway(width: f64) -> Vec<Box3> {
    let (z0, z1) = (2.0 - width / 2.0, 2.0 + width / 2.0);
    vec![
        slab(0.0, 12.0, 0.0),
        b([5.9, 0.0, 0.0], [6.1, 3.0, z0]),
        b([5.9, 0.0, z1], [6.1, 3.0, 4.0]),
    ]
}

#[test]
fn a_doorway_narrower_than_the_agent() {
    let to = DVec3::new(10.0, 0.0, 2.0);
    // voxel: radius 0.4, so 0.8 m wide (a fix may halve it at most);
    // cspace: a 0.6 m box.
    cause_and_fix(
        "voxel",
        mesh_level(&doorway(0.6)),
        &[],
        to,
        "< agent width (twice stand.radius) 0.80 m",
        "stand.radius",
    );
    cause_and_fix(
        "cspace",
        brush_level(&doorway(0.5)),
        &[],
        to,
        "< agent depth 0.60 m",
        "agent_depth",
    );
}

#[test]
fn a_ledge_higher_than_the_step() {
    let boxes = [slab(0.0, 6.0, 0.0), slab(6.0, 12.0, 0.7)];
    let to = DVec3::new(10.0, 0.7, 2.0);
    // voxel's running jumps are off by default: a higher step or a jump
    // reach joins the two sides.
    cause_and_one_of_fixes(
        "voxel",
        mesh_level(&boxes),
        &[],
        to,
        "> max step 0.50 m",
        &["stand.max_step", "jump_reach"],
    );
    // cspace jumps what it does not step: with jumps as low as steps,
    // the jump height refuses the ledge.
    let low_jump = [("jump_height", ParamValue::Float(0.45))];
    cause_and_fix(
        "cspace",
        brush_level(&boxes),
        &low_jump,
        to,
        "jump up 0.70 m > jump height 0.45 m",
        "jump_height",
    );
}

#[test]
fn a_ceiling_lower_than_the_agent() {
    // Thick, so that its top is out of the drops' reach.
    let boxes = [slab(0.0, 12.0, 0.0), b([5.0, 1.5, 0.0], [7.0, 4.0, 4.0])];
    let to = DVec3::new(10.0, 0.0, 2.0);
    cause_and_fix(
        "voxel",
        mesh_level(&boxes),
        &[],
        to,
        "headroom 1.50 m",
        "stand.height",
    );
    // Without the crouching mesh, which would pass under it.
    let stand_only = [("crouch_mesh", ParamValue::Bool(false))];
    cause_and_fix(
        "cspace",
        brush_level(&boxes),
        &stand_only,
        to,
        "headroom 1.50 m",
        "stand_height",
    );
}

#[test]
fn a_slit_only_an_unphysical_agent_passes_is_not_fixed() {
    // A slit 0.8 m high under a block too tall to jump onto: only a
    // standing agent under 0.8 m (less than half of the 1.8 m player)
    // passes, and that is no fix.
    let boxes = [slab(0.0, 12.0, 0.0), b([5.0, 0.8, 0.0], [7.0, 8.0, 4.0])];
    let to = DVec3::new(10.0, 0.0, 2.0);
    let stand_only = [("crouch_mesh", ParamValue::Bool(false))];
    let r = built("cspace", brush_level(&boxes), &stand_only);
    let gap = explained(&r, to, &budget());
    assert!(gap.reason.contains("headroom 0.80 m"), "{}", gap.reason);
    assert!(gap.fix.is_empty(), "{:?}", gap.fix);
    assert!(
        gap.reason
            .contains("no single parameter joins the two sides"),
        "{}",
        gap.reason
    );
    // The change that would join them is outside the agent's range, and
    // it does join them: the test level is not simply closed.
    let tiny = [
        ("crouch_mesh", ParamValue::Bool(false)),
        ("stand_height", ParamValue::Float(0.7)),
    ];
    assert!(finds_path(&built("cspace", brush_level(&boxes), &tiny), to));
}

#[test]
fn a_gap_wider_than_the_jump() {
    let boxes = [slab(0.0, 5.0, 0.0), slab(6.5, 12.0, 0.0)];
    let to = DVec3::new(10.0, 0.0, 2.0);
    // In configuration space the gap is narrower by the agent's box (0.9
    // m); a reach of 0.5 m does not cross it.
    let reach = [("jump_reach", ParamValue::Float(0.5))];
    cause_and_fix(
        "cspace",
        brush_level(&boxes),
        &reach,
        to,
        "gap 1.50 m > jump reach 0.50 m",
        "jump_reach",
    );
    // voxel's running jumps are off by default (jump reach 0): the rule
    // is named with its value, and the checked fix turns them on.
    cause_and_fix(
        "voxel",
        mesh_level(&boxes),
        &[],
        to,
        "> jump reach 0.00 m",
        "jump_reach",
    );
}

#[test]
fn a_region_smaller_than_the_minimum() {
    // A 2 x 2 m floor of its own: after erosion by 0.4 m, 12 x 12 cells.
    let boxes = [slab(0.0, 5.0, 0.0), b([8.0, -0.2, 1.0], [10.0, 0.0, 3.0])];
    let at = DVec3::new(9.0, 0.0, 2.0);
    let sets = [("min_region_size", ParamValue::Int(20))];
    let mut r = built("voxel", mesh_level(&boxes), &sets);
    let w = why_not_here(&mut r, at, &budget());
    assert!(!w.walkable);
    assert_eq!(w.stage, "regions", "{w:?}");
    assert!(w.reason.contains("min region size 20"), "{}", w.reason);
    let fix = w.fix.first().expect("a fix");
    assert_eq!(fix.parameter, "min_region_size");
    let mut r = built(
        "voxel",
        mesh_level(&boxes),
        &[("min_region_size", fix.value.clone())],
    );
    assert!(why_not_here(&mut r, at, &budget()).walkable);
}

#[test]
fn a_point_in_a_narrow_doorway_is_eroded_by_the_radius() {
    let mut r = built("voxel", mesh_level(&doorway(0.6)), &[]);
    let w = why_not_here(&mut r, DVec3::new(6.0, 0.0, 2.0), &budget());
    assert!(!w.walkable);
    assert_eq!(w.stage, "flag", "{w:?}");
    assert!(
        w.reason.contains("within the agent radius 0.40"),
        "{}",
        w.reason
    );
    assert_eq!(
        w.fix.first().map(|f| f.parameter.as_str()),
        Some("stand.radius")
    );
    // The wall named is drawn as the triangle met: one outline of three
    // corners, a triangle of the level.
    let LevelData::Mesh(m) = &r.level().data else {
        panic!("a mesh level")
    };
    let [tri] = w.shape.as_slice() else {
        panic!("one outline: {:?}", w.shape)
    };
    assert!(
        m.mesh.triangles.iter().any(|t| t
            .iter()
            .zip(tri)
            .all(|(i, p)| m.mesh.vertices[*i as usize].as_dvec3() == *p)),
        "{tri:?}"
    );
    let w = why_not_here(&mut r, FROM, &budget());
    assert!(w.walkable, "{w:?}");
    // Off the slab: nothing under the point, and no parameter helps.
    let w = why_not_here(&mut r, DVec3::new(20.0, 0.0, 2.0), &budget());
    assert!(!w.walkable && w.fix.is_empty(), "{w:?}");
    assert_eq!(w.stage, "voxelize");
    assert!(
        w.reason.starts_with("no surface under the point"),
        "{}",
        w.reason
    );
}

#[test]
fn a_point_on_a_wall_names_the_wall_not_a_missing_surface() {
    // A click on the doorway wall's face (x = 5.9), halfway up.
    let mut r = built("voxel", mesh_level(&doorway(0.6)), &[]);
    let w = why_not_here(&mut r, DVec3::new(5.9, 1.5, 0.5), &budget());
    assert!(!w.walkable);
    assert!(
        w.reason
            .contains("a face of slope 90.0 deg with no floor under it"),
        "{}",
        w.reason
    );
    assert_eq!(w.shape.len(), 1, "the wall's triangle: {:?}", w.shape);
    assert_eq!(w.shape[0].len(), 3);
}

#[test]
fn a_point_inside_a_grown_brush_draws_the_brushs_faces() {
    // A pillar 1 m square beside the doorway wall; a point 0.1 m off its
    // side is inside it once grown by cspace's 0.6 m box.
    let mut boxes = doorway(1.5);
    let pillar = b([2.5, 0.0, 1.5], [3.5, 3.0, 2.5]);
    boxes.push(pillar);
    let mut r = built("cspace", brush_level(&boxes), &[]);
    let w = why_not_here(&mut r, DVec3::new(3.6, 0.0, 2.0), &budget());
    assert!(!w.walkable);
    assert!(w.reason.contains("inside brush 3"), "{}", w.reason);
    let planes = Aabb::from_corners(pillar.0, pillar.1).outward_planes();
    assert_eq!(w.shape.len(), 6, "a box has six faces: {:?}", w.shape);
    for face in &w.shape {
        assert_eq!(face.len(), 4, "{face:?}");
        // Every corner lies on the brush's planes: on one, inside all.
        for p in face {
            let d: Vec<f64> = planes.iter().map(|q| q.normal.dot(*p) - q.d).collect();
            assert!(d.iter().all(|x| *x < 1e-9), "{p} outside: {d:?}");
            assert!(d.iter().any(|x| x.abs() < 1e-9), "{p} on no plane");
        }
        // And the face is on one plane, all its corners together.
        assert!(
            planes
                .iter()
                .any(|q| face.iter().all(|p| (q.normal.dot(*p) - q.d).abs() < 1e-9)),
            "{face:?}"
        );
    }
}

#[test]
fn the_rule_tables_name_real_parameters_and_stages() {
    for id in ["voxel", "cspace", "navgraph", "navgraph-nodes"] {
        let p = pipeline(id);
        let rules = Rules::for_pipeline(id, &ParamValues::defaults(&p.params));
        let names = rules.parameters();
        assert!(!names.is_empty(), "{id}");
        for n in names {
            assert!(
                p.params.iter().any(|s| s.name == n),
                "{id}: no parameter {n}"
            );
        }
        let stages: Vec<&str> = p.stages.iter().map(|s| s.info.id).collect();
        assert!(
            stages.contains(&rules.surface),
            "{id}: no stage {}",
            rules.surface
        );
        for l in [
            &rules.step,
            &rules.height,
            &rules.width_x,
            &rules.radius,
            &rules.min_region,
        ]
        .into_iter()
        .flatten()
        {
            assert!(stages.contains(&l.stage), "{id}: no stage {}", l.stage);
        }
    }
}

#[test]
fn the_roof_of_a_sealed_map_is_outside_it_and_no_parameter_helps() {
    // A closed room 10 × 3 × 10 m with 0.5 m walls and the player inside.
    let t = 0.5;
    let (lo, hi) = (-t, 10.0 + t);
    let boxes = [
        b([lo, -t, lo], [hi, 0.0, hi]),
        b([lo, 3.0, lo], [hi, 3.0 + t, hi]),
        b([lo, 0.0, lo], [0.0, 3.0, hi]),
        b([10.0, 0.0, lo], [hi, 3.0, hi]),
        b([0.0, 0.0, lo], [10.0, 3.0, 0.0]),
        b([0.0, 0.0, 10.0], [10.0, 3.0, hi]),
    ];
    let mut level = (*brush_level(&boxes)).clone();
    let LevelData::Brushes(map) = &mut level.data else {
        unreachable!()
    };
    map.unit = 1.0 / 32.0;
    map.entities.push(Entity {
        classname: "info_player_start".into(),
        origin: Some(DVec3::new(5.0, 1.0, 5.0)),
        properties: Vec::new(),
    });
    let mut r = built("cspace", Arc::new(level), &[]);
    let w = why_not_here(&mut r, DVec3::new(5.0, 3.0 + t, 5.0), &budget());
    assert!(!w.walkable && w.fix.is_empty(), "{w:?}");
    assert_eq!(w.stage, "walkable");
    assert!(
        w.reason.starts_with("outside the sealed map"),
        "{}",
        w.reason
    );
    assert!(why_not_here(&mut r, DVec3::new(5.0, 0.0, 5.0), &budget()).walkable);
}
