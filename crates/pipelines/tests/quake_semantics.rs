//! Quake entities as the game plays them, each on a small map made for it,
//! built by `cspace` (and `voxel` where said) with the preset a `.map` opens with (Quake's player,
//! [`navscope_pipelines::agents::for_level`]): a plat that starts raised, a
//! floor-panel door fired by a button, a key door, a teleporter, a train
//! that carries the player across a gap (in both pipelines), and a
//! running jump across a gap the player reaches and one it does not, and
//! onto a ledge within its rise and not above it (these two in `cspace`
//! and `voxel`).
//! Points are the player's start (its feet) and the exit's floor
//! ([`navscope_levels::brushes::spots`]).

use glam::DVec3;
use navscope_core::level::{BrushLevel, Level, LevelData};
use navscope_core::params::{ParamValue, ParamValues};
use navscope_core::{LinkKind, NavMesh, Runner};
use navscope_levels::brushes::spots;
use navscope_path::{Locator, PathError, PathResult, SearchOptions, find_path};
use navscope_pipelines::agents;
use std::sync::Arc;

/// A box brush from `min` to `max`, Quake units, in `.map` text.
fn cuboid(min: [i32; 3], max: [i32; 3], texture: &str) -> String {
    let [a, b, c] = min;
    let [x, y, z] = max;
    let face = |p: [[i32; 3]; 3]| {
        format!(
            "( {} {} {} ) ( {} {} {} ) ( {} {} {} ) {texture} 0 0 0 1 1\n",
            p[0][0], p[0][1], p[0][2], p[1][0], p[1][1], p[1][2], p[2][0], p[2][1], p[2][2]
        )
    };
    let faces = [
        face([[a, b, c], [a, b + 1, c], [a, b, c + 1]]),
        face([[a, b, c], [a, b, c + 1], [a + 1, b, c]]),
        face([[a, b, c], [a + 1, b, c], [a, b + 1, c]]),
        face([[x, y, z], [x, y + 1, z], [x + 1, y, z]]),
        face([[x, y, z], [x + 1, y, z], [x, y, z + 1]]),
        face([[x, y, z], [x, y, z + 1], [x, y + 1, z]]),
    ];
    format!("{{\n{}}}\n", faces.concat())
}

/// An entity with `props` and `brushes`.
fn entity(class: &str, props: &[(&str, &str)], brushes: &[String]) -> String {
    let mut s = format!("{{\n\"classname\" \"{class}\"\n");
    for (k, v) in props {
        s.push_str(&format!("\"{k}\" \"{v}\"\n"));
    }
    s.push_str(&brushes.concat());
    s.push_str("}\n");
    s
}

/// A map: the world's brushes, a player start at `start` (its origin),
/// an exit over `exit` (min, max) and `more` entities.
fn map(world: &[String], start: [i32; 3], exit: ([i32; 3], [i32; 3]), more: &[String]) -> String {
    let origin = format!("{} {} {}", start[0], start[1], start[2]);
    let mut s = entity("worldspawn", &[], world);
    s.push_str(&entity("info_player_start", &[("origin", &origin)], &[]));
    s.push_str(&entity(
        "trigger_changelevel",
        &[("map", "next")],
        &[cuboid(exit.0, exit.1, "trigger")],
    ));
    s.push_str(&more.concat());
    s
}

/// A built map: the level, its mesh, the start's feet and the exit.
struct Built {
    level: BrushLevel,
    mesh: NavMesh,
    start: DVec3,
    exit: DVec3,
}

fn build(text: &str) -> Built {
    build_in("cspace", text)
}

/// [`build`] with pipeline `id`.
fn build_in(id: &str, text: &str) -> Built {
    build_with(id, text, &[])
}

/// [`build_in`] with the preset's settings then `overrides`.
fn build_with(id: &str, text: &str, overrides: &[(&str, ParamValue)]) -> Built {
    let level: Level = navscope_levels::load_bytes("test.map", text.as_bytes()).unwrap();
    let pipeline = navscope_pipelines::by_id(id).unwrap();
    let preset = agents::for_level(&level).expect("a .map opens with Quake's player");
    let mut values = ParamValues::defaults(&pipeline.params);
    preset.apply(&pipeline, &level, &mut values).unwrap();
    for (name, v) in overrides {
        values.set(&pipeline.params, name, v.clone()).unwrap();
    }
    let LevelData::Brushes(brushes) = &level.data else {
        unreachable!()
    };
    let brushes = brushes.clone();
    let level = navscope_pipelines::level_for(&pipeline, &Arc::new(level)).unwrap();
    let mut r = Runner::new(pipeline, level);
    r.set_params(values);
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    let start = spots::starts(&brushes)[0].point;
    let exit = spots::exits(&brushes)[0].point;
    Built {
        mesh: r.navmesh().unwrap(),
        level: brushes,
        start,
        exit,
    }
}

impl Built {
    fn route(&self) -> Result<PathResult, PathError> {
        let locator = Locator::new(&self.mesh);
        find_path(
            &self.mesh,
            &locator,
            self.start,
            self.exit,
            &SearchOptions::default(),
        )
    }

    fn kinds(&self) -> Vec<LinkKind> {
        let p = self.route().unwrap_or_else(|e| panic!("no route: {e}"));
        p.search
            .links
            .iter()
            .map(|&l| self.mesh.links[l].kind)
            .collect()
    }
}

/// A floor slab from x0 to x1 (Quake units), 256 deep, top at `z`.
fn floor(x0: i32, x1: i32, z: i32) -> String {
    cuboid([x0, 0, z - 16], [x1, 256, z], "floor")
}

#[test]
fn a_running_jump_crosses_a_gap_it_reaches_and_not_one_it_does_not() {
    // Quake's running jump covers 216 units (6.75 m) at its take-off height.
    let near = map(
        &[floor(0, 256, 0), floor(384, 640, 0)],
        [64, 128, 24],
        ([512, 64, 0], [576, 192, 64]),
        &[],
    );
    let far = map(
        &[floor(0, 256, 0), floor(640, 896, 0)],
        [64, 128, 24],
        ([768, 64, 0], [832, 192, 64]),
        &[],
    );
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &near);
        assert!(
            b.kinds().contains(&LinkKind::Jump),
            "{id}, 128 units: a jump"
        );
        let e = build_in(id, &far).route().unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}, 384 units: {e}"
        );
    }
}

/// `voxel` leaves the tiles no geometry touches out of its tile list, so
/// a tile is not where its index says: a lone pillar far to the west
/// leaves empty tiles between it and the floors, and the jump's landing
/// (whose column must have room for the player) has to be looked up in
/// the tile that holds it, not in the one listed where a full grid of
/// tiles would put it. Without that, the landing column read as empty
/// (no room) and neither the gap jump nor the drop to a lower floor was
/// linked (lq_e1m1's and lq_e0m2's missing jumps).
#[test]
fn voxel_jumps_and_drops_land_in_tiles_listed_after_empty_ones() {
    let pillar = cuboid([-6000, 0, -16], [-5968, 32, 64], "pillar");
    let gap = map(
        &[floor(0, 256, 0), floor(384, 640, 0), pillar.clone()],
        [64, 128, 24],
        ([512, 64, 0], [576, 192, 64]),
        &[],
    );
    let b = build_in("voxel", &gap);
    assert!(
        b.kinds().contains(&LinkKind::Jump),
        "a 128-unit gap with empty tiles to the west: a jump"
    );
    // A 40-unit drop off the end of a floor, past the tiles' seam.
    let down = map(
        &[floor(0, 256, 40), floor(256, 512, 0), pillar],
        [64, 128, 64],
        ([384, 64, 0], [448, 192, 64]),
        &[],
    );
    let b = build_in("voxel", &down);
    assert!(
        b.kinds().contains(&LinkKind::Jump),
        "a 40-unit drop with empty tiles to the west"
    );
}

/// `voxel`'s running jump is clear for the player's width, not a line: a
/// pillar standing in a gap the player jumps leaves the jumps beside it,
/// none passing nearer to it than the player's half width (16 units,
/// rounded inwards by a cell: 8 units).
#[test]
fn a_voxel_jump_keeps_the_players_width_clear_of_a_pillar_in_the_gap() {
    let (x0, x1, y0, y1) = (304, 336, 90, 114);
    let text = map(
        &[
            floor(0, 256, 0),
            floor(384, 640, 0),
            cuboid([x0, y0, -64], [x1, y1, 256], "pillar"),
        ],
        [64, 128, 24],
        ([512, 64, 0], [576, 192, 64]),
        &[],
    );
    let b = build_in("voxel", &text);
    assert!(
        b.kinds().contains(&LinkKind::Jump),
        "jumps beside the pillar"
    );
    // The pillar in plan, metres (x east, z = -y).
    let u = 1.0 / 32.0;
    let (lo, hi) = (
        glam::DVec2::new(x0 as f64 * u, -y1 as f64 * u),
        glam::DVec2::new(x1 as f64 * u, -y0 as f64 * u),
    );
    let half_less_a_cell = (16.0 - 8.0) * u;
    for l in b.mesh.links.iter().filter(|l| l.kind == LinkKind::Jump) {
        let [a, c] = l.segment().unwrap();
        let (a, c) = (glam::DVec2::new(a.x, a.z), glam::DVec2::new(c.x, c.z));
        let nearest = (0..=200)
            .map(|k| a.lerp(c, k as f64 / 200.0))
            .map(|p| p.distance(p.clamp(lo, hi)))
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest >= half_less_a_cell - 1e-3,
            "a jump {a} -> {c} passes {nearest} m from the pillar"
        );
    }
}

#[test]
fn a_running_jump_lands_on_a_ledge_within_its_rise_and_not_above_it() {
    // Quake's jump rises 45.6 units: a ledge 40 units up across a 64-unit
    // gap is reached, one 64 units up is not (and is more than a step).
    let ledge = |up: i32| {
        map(
            &[floor(0, 256, 0), floor(320, 576, up)],
            [64, 128, 24],
            ([448, 64, up], [512, 192, up + 64]),
            &[],
        )
    };
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &ledge(40));
        assert!(b.kinds().contains(&LinkKind::Jump), "{id}, 40 units up");
        let e = build_in(id, &ledge(64)).route().unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}, 64 units up: {e}"
        );
    }
}

/// A ledge `depth` units above a floor beside it: start on top, exit on
/// the floor when `down`, the other way round otherwise.
fn drop_map(depth: i32, down: bool) -> String {
    let (top, low) = (floor(0, 256, depth), floor(256, 768, 0));
    if down {
        map(
            &[top, low],
            [64, 128, depth + 24],
            ([640, 64, 0], [704, 192, 64]),
            &[],
        )
    } else {
        map(
            &[top, low],
            [640, 128, 24],
            ([64, 64, depth], [128, 192, depth + 64]),
            &[],
        )
    }
}

#[test]
fn any_drop_links_down_and_not_up_and_a_hurting_one_costs_its_damage() {
    // Quake never refuses a fall: 3,200 units (100 m) is deeper than the
    // engine's 2,000 units/s speed cap reaches (2,500 units), the old limit.
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &drop_map(3200, true));
        assert!(b.kinds().contains(&LinkKind::Jump), "{id}: a 100 m drop");
        let e = build_in(id, &drop_map(3200, false)).route().unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}: not back up: {e}"
        );
    }
    // The same route with landings free: a fall deeper than 264 units
    // (650 units/s) costs 5 health, 10 m; a 192-unit one nothing.
    let hurt = 5.0 * agents::HEALTH_COST;
    for id in ["cspace", "voxel"] {
        for (depth, extra) in [(640, hurt), (192, 0.0)] {
            let text = drop_map(depth, true);
            let length = |b: &Built| b.route().unwrap().length;
            let cost = |b: &Built| {
                let p = b.route().unwrap();
                p.search
                    .links
                    .iter()
                    .map(|&l| b.mesh.links[l].cost)
                    .sum::<f64>()
            };
            let (with, free) = (
                build_in(id, &text),
                build_with(
                    id,
                    &text,
                    &[(navscope_core::jump::FALL_COST, ParamValue::Float(0.0))],
                ),
            );
            assert!(
                (cost(&with) - cost(&free) - extra).abs() < 1e-6,
                "{id}, {depth} units: {} against {}",
                cost(&with),
                cost(&free)
            );
            assert!(
                (length(&with) - length(&free)).abs() < 1e-6,
                "{id}: the same way"
            );
        }
    }
}

#[test]
fn slime_and_lava_are_waded_through_at_the_health_they_take() {
    // A corridor whose middle is under 16 units of liquid: no way round.
    let pool = |texture: &str| {
        map(
            &[
                floor(0, 768, 0),
                cuboid([320, 0, 0], [448, 256, 16], texture),
            ],
            [64, 128, 24],
            ([640, 64, 0], [704, 192, 64]),
            &[],
        )
    };
    // The search's cost: `cspace` prices the links into a liquid,
    // `voxel` the liquid's area.
    let cost = |b: &Built| {
        b.route()
            .unwrap_or_else(|e| panic!("no route: {e}"))
            .search
            .cost
    };
    for (texture, param, price) in [
        ("*slime0", "slime_cost", 1.8),
        ("*lava1", "lava_cost", 11.0),
    ] {
        let text = pool(texture);
        for id in ["cspace", "voxel"] {
            let (priced, free) = (
                build_in(id, &text),
                build_with(id, &text, &[(param, ParamValue::Float(1.0))]),
            );
            assert!(
                cost(&priced) > cost(&free) + 0.5 * (price - 1.0),
                "{id}, {texture}: {} against {}",
                cost(&priced),
                cost(&free)
            );
            let e = build_with(id, &text, &[(param, ParamValue::Float(0.0))])
                .route()
                .unwrap_err();
            assert!(
                matches!(e, PathError::NoConnection { .. }),
                "{id}, {texture} forbidden: {e}"
            );
        }
    }
}

#[test]
fn a_plat_with_a_name_starts_raised_and_rides_both_ways() {
    // The plat is drawn with its top at z 256 beside a ledge at that
    // height; it travels 256 units down to the floor at z 0.
    let plat = entity(
        "func_plat",
        &[("targetname", "lift"), ("height", "256")],
        &[cuboid([0, 0, 240], [128, 128, 256], "plat")],
    );
    let text = map(
        &[floor(-512, 0, 0), floor(128, 384, 256)],
        [64, 64, 280],
        ([256, 64, 256], [320, 192, 320]),
        std::slice::from_ref(&plat),
    );
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &text);
        assert!(
            b.route().is_ok(),
            "{id}: the start on the raised plat walks off it"
        );
        let ride = b.mesh.links.iter().filter(|l| l.kind == LinkKind::Elevator);
        assert!(ride.count() >= 2, "{id}: a ride link each way");
    }
}

/// Two floors 384 units apart, further than a running jump; with `train`,
/// a 128-unit train drawn far away whose path runs from the near floor's
/// edge to the far floor's edge and back (`path_corner` origins are where
/// the train's Quake mins go).
fn train_map(train: bool, wait_for: Option<&str>) -> String {
    let mut more = vec![];
    if train {
        let mut props = vec![("target", "c1")];
        if let Some(name) = wait_for {
            props.push(("targetname", name));
        }
        more.push(entity(
            "func_train",
            &props,
            &[cuboid([2048, 64, 496], [2176, 192, 512], "train")],
        ));
        for (name, next, at) in [("c1", "c2", "0 64 -16"), ("c2", "c1", "256 64 -16")] {
            more.push(entity(
                "path_corner",
                &[("targetname", name), ("target", next), ("origin", at)],
                &[],
            ));
        }
    }
    map(
        &[floor(-512, 0, 0), floor(384, 896, 0)],
        [-256, 128, 24],
        ([576, 64, 0], [704, 192, 64]),
        &more,
    )
}

#[test]
fn a_train_carries_the_player_across_a_gap_from_its_first_corner_to_the_next() {
    for id in ["cspace", "voxel"] {
        assert!(
            build_in(id, &train_map(false, None)).route().is_err(),
            "{id}: the gap is too wide to jump"
        );
        for name in [None, Some("go")] {
            let b = build_in(id, &train_map(true, name));
            let kinds = b.kinds();
            assert!(
                kinds.contains(&LinkKind::Elevator),
                "{id} {name:?}: the route rides the train: {kinds:?}"
            );
        }
    }
}

#[test]
fn a_wall_a_trigger_kills_is_crossed_through_a_door_link_naming_the_trigger() {
    // A clip wall 256 units high across the whole corridor (beyond any
    // jump), named by a `trigger_once`'s `killtarget` before it: QuakeC
    // removes the wall when the player touches the trigger.
    let gate = entity(
        "func_wall",
        &[("targetname", "gate")],
        &[cuboid([256, 0, 0], [288, 256, 256], "clip")],
    );
    let killer = entity(
        "trigger_once",
        &[("killtarget", "gate")],
        &[cuboid([128, 0, 0], [192, 256, 64], "trigger")],
    );
    let text = map(
        &[floor(0, 640, 0)],
        [64, 128, 24],
        ([512, 64, 0], [576, 192, 64]),
        &[gate.clone(), killer],
    );
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &text);
        b.route()
            .unwrap_or_else(|e| panic!("{id}: the removed wall lets the player by: {e}"));
    }
    let b = build(&text);
    assert!(b.kinds().contains(&LinkKind::Door), "cspace: a door link");
    let wall = &b.level.entities[2];
    assert_eq!(wall.classname, "func_wall");
    assert_eq!(
        spots::opener(&b.level, wall).as_deref(),
        Some("removed when fired by trigger_once")
    );
    // A wall the trigger names as its `target` is only used (a func_wall
    // changes its frame), not removed: it stays in the way.
    let used = text.replace("\"killtarget\"", "\"target\"");
    for id in ["cspace", "voxel"] {
        let e = build_in(id, &used).route().unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}: a used wall stays: {e}"
        );
    }
}

/// A flooded room (floor z 0, water to z 480) with 36 pillars, more wet
/// polygons than a pairwise swim model would join; a cliff 384 units high
/// beside it, under water too, and beyond it the exit's floor at z 496,
/// above the surface: the player swims 12 m up. With `drop` the start is
/// on a ledge 512 units over the water instead, at the room's far end.
fn flooded_cliff_map(ledge: bool) -> String {
    let mut world = vec![
        floor(0, 768, 0),
        cuboid([768, 0, -16], [1024, 256, 384], "cliff"),
        cuboid([1024, 0, -16], [1280, 256, 496], "shore"),
        cuboid([0, 0, 0], [1024, 256, 480], "*water1"),
    ];
    for i in 0..12 {
        for j in 0..3 {
            let (x, y) = (64 + i * 56, 32 + j * 80);
            world.push(cuboid([x, y, 0], [x + 16, y + 16, 64], "pillar"));
        }
    }
    let start = if ledge {
        world.push(cuboid([-256, 0, 976], [0, 256, 992], "ledge"));
        [-128, 128, 1016]
    } else {
        [24, 128, 24]
    };
    map(&world, start, ([1120, 64, 496], [1184, 192, 560]), &[])
}

#[test]
fn a_flooded_shaft_is_swum_up_whatever_the_number_of_wet_polygons() {
    let text = flooded_cliff_map(false);
    let b = build(&text);
    let wet = b.mesh.nodes.iter().filter(|n| n.area == "water").count();
    assert!(wet > 64, "{wet} wet polygons");
    let swims = b
        .mesh
        .links
        .iter()
        .filter(|l| l.kind == LinkKind::Swim)
        .count();
    assert!(
        swims <= 2 * navscope_cspace::movers::SWIM_CONES * wet + 4 * b.mesh.nodes.len(),
        "sparse: {swims} swim links for {wet} wet polygons"
    );
    let p = b
        .route()
        .unwrap_or_else(|e| panic!("the shaft is swum up: {e}"));
    assert!(b.kinds().contains(&LinkKind::Swim));
    // Walk 23 m to the cliff, swim 12 m up, cross 8 m of ledge and climb
    // out 3.5 m, walk 4 m: about 50 m; never shorter than the straight
    // line, never as long as the way round every pillar twice.
    let straight = b.start.distance(b.exit);
    assert!(
        p.length >= straight - 1e-6 && p.length <= 1.5 * straight,
        "{} m (straight {straight} m)",
        p.length
    );
}

/// `voxel` swims in three dimensions as `cspace` does (the Yao graph of
/// `navscope_core::swim` over its swim nodes, the floors under deep
/// water): up the flooded cliff to where the shore is climbed out onto,
/// with as few swim links per swim node as the cones allow, though its
/// swim pass steps no higher than the player (by default the swim pass
/// steps its whole depth range, 48.5 m, and walks up a flooded cliff);
/// and a fall from a ledge into the water lands on the floor under it,
/// unhurt (a fall onto a floor that deep would hurt).
#[test]
fn voxel_swims_up_a_flooded_cliff_and_falls_into_water_unhurt() {
    let low_step = [("swim.max_step", ParamValue::Float(18.0 / 32.0))];
    let b = build_with("voxel", &flooded_cliff_map(false), &low_step);
    let swim_nodes = b
        .mesh
        .nodes
        .iter()
        .filter(|n| n.stance == navscope_core::Stance::Swim)
        .count();
    let swims = b
        .mesh
        .links
        .iter()
        .filter(|l| l.kind == LinkKind::Swim)
        .count();
    assert!(
        swims <= 2 * navscope_core::swim::SWIM_CONES * swim_nodes + 4 * b.mesh.nodes.len(),
        "sparse: {swims} swim links for {swim_nodes} swim nodes"
    );
    let p = b
        .route()
        .unwrap_or_else(|e| panic!("the cliff is swum up: {e}"));
    // The 12 m up the cliff is one swim or a few, each in the water.
    let rise: f64 = p
        .search
        .links
        .iter()
        .map(|&l| &b.mesh.links[l])
        .filter(|l| l.kind == LinkKind::Swim)
        .map(|l| {
            let [a, c] = l.segment().unwrap();
            assert!(a.y.max(c.y) <= 15.0 + 0.2, "under the surface");
            c.y - a.y
        })
        .sum();
    assert!(rise > 10.0, "swum up {rise} m");
    // From the ledge 16 m over the water: a fall into the pool, no
    // landing cost (a hurting landing costs 10 m on top of its length).
    let b = build_in("voxel", &flooded_cliff_map(true));
    let p = b
        .route()
        .unwrap_or_else(|e| panic!("a fall into the water: {e}"));
    let fall = p
        .search
        .links
        .iter()
        .map(|&l| &b.mesh.links[l])
        .find(|l| l.kind == LinkKind::Jump)
        .expect("a fall into the water");
    let [top, bottom] = fall.segment().unwrap();
    let way = b.mesh.nodes[fall.from as usize].position.distance(top)
        + top.distance(bottom)
        + bottom.distance(b.mesh.nodes[fall.to as usize].position);
    assert!(
        (fall.cost - way).abs() < 1e-6,
        "no landing cost in water: cost {} for a way of {way} m",
        fall.cost
    );
}

/// A wall 8 m high between the start's floor and the exit's, and a
/// pusher of class `class` by the wall, `speed` 100, pitched 45° up over
/// the wall: QuakeC's `trigger_push_touch` sets the player's velocity to
/// ten times the speed along that direction (1000 units/s: over the wall,
/// landing about 1,250 units on), so the player is thrown across; a
/// `trigger_monsterjump` throws walking monsters only, so the same brush
/// of that class (its `height` 1000 would throw a monster over the wall)
/// leaves the player where it is.
fn pusher_map(class: &str) -> String {
    let push = entity(
        class,
        &[("speed", "100"), ("height", "1000"), ("angles", "-45 0 0")],
        &[cuboid([160, 64, 0], [240, 192, 64], "trigger")],
    );
    map(
        &[
            floor(0, 256, 0),
            cuboid([256, 0, -16], [288, 256, 256], "wall"),
            floor(288, 2048, 0),
        ],
        [64, 128, 24],
        ([1800, 64, 0], [1900, 192, 64]),
        &[push],
    )
}

#[test]
fn a_trigger_push_throws_the_player_over_a_wall_and_a_monsterjump_does_not() {
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &pusher_map("trigger_push"));
        let p = b
            .route()
            .unwrap_or_else(|e| panic!("{id}: thrown over the wall: {e}"));
        let throw = p
            .search
            .links
            .iter()
            .map(|&l| &b.mesh.links[l])
            .find(|l| l.kind == LinkKind::Jump)
            .unwrap_or_else(|| panic!("{id}: a push link"));
        let from = b.mesh.nodes[throw.from as usize].position;
        let to = b.mesh.nodes[throw.to as usize].position;
        assert!(
            from.x < 8.0 && to.x > 9.0,
            "{id}: over the wall, {from} -> {to}"
        );
        assert!(
            !b.mesh
                .links
                .iter()
                .any(|l| b.mesh.nodes[l.from as usize].position.x > 9.0
                    && b.mesh.nodes[l.to as usize].position.x < 8.0),
            "{id}: one way"
        );
        let e = build_in(id, &pusher_map("trigger_monsterjump"))
            .route()
            .unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}: a monsterjump throws no player: {e}"
        );
    }
}

#[test]
fn a_floor_panel_door_fired_by_a_button_is_the_floor_it_crosses() {
    let door = entity(
        "func_door",
        &[
            ("targetname", "bridge"),
            ("angle", "-2"),
            ("spawnflags", "1"),
        ],
        &[cuboid([256, 0, -16], [384, 256, 0], "bridge")],
    );
    let button = entity(
        "func_button",
        &[("target", "bridge")],
        &[cuboid([0, 0, 32], [8, 32, 64], "button")],
    );
    // Beyond the far floor's reach without the panel: 384 units.
    let text = map(
        &[floor(0, 256, 0), floor(384, 640, 0)],
        [64, 128, 24],
        ([512, 64, 0], [576, 192, 64]),
        &[door, button],
    );
    let b = build(&text);
    assert!(
        b.kinds().contains(&LinkKind::Door),
        "the route crosses the door"
    );
    let d = &b.level.entities[2];
    assert_eq!(d.classname, "func_door");
    assert_eq!(
        spots::opener(&b.level, d).as_deref(),
        Some("opened when fired by func_button")
    );
}

#[test]
fn a_start_open_bridge_rises_when_fired_and_is_crossed_through_its_door_link() {
    // Quake's `START_OPEN` door spawns at its open position (here 224
    // units down, its height less its lip) and firing it brings it back to
    // where it is drawn: a slab bridging a pit 384 units wide, beyond a
    // running jump. A small brush deep in the pit makes the door tall, so
    // it is no floor panel.
    let bridge = entity(
        "func_door",
        &[
            ("targetname", "bridge"),
            ("angle", "-2"),
            ("spawnflags", "5"),
            ("lip", "32"),
            ("wait", "-1"),
        ],
        &[
            cuboid([256, 0, -32], [640, 256, 0], "bridge"),
            cuboid([256, 0, -256], [272, 16, -240], "skip"),
        ],
    );
    let button = entity(
        "func_button",
        &[("target", "bridge")],
        &[cuboid([0, 0, 32], [8, 32, 64], "button")],
    );
    let text = map(
        &[floor(0, 256, 0), floor(640, 896, 0)],
        [64, 128, 24],
        ([768, 64, 0], [832, 192, 64]),
        &[bridge, button],
    );
    // `voxel` merges the bridge's top with the floors beside it (its door
    // links are the walk links that cross a door's box), so there only
    // the crossing itself is asserted.
    let v = build_in("voxel", &text);
    v.route()
        .unwrap_or_else(|e| panic!("voxel: the risen bridge crosses the pit: {e}"));
    let b = build(&text);
    let kinds = b.kinds();
    assert!(
        kinds.contains(&LinkKind::Door),
        "cspace: the route enters the bridge by its door link: {kinds:?}"
    );
    let d = b
        .level
        .entities
        .iter()
        .find(|e| e.classname == "func_door")
        .expect("the bridge");
    assert_eq!(
        spots::opener(&b.level, d).as_deref(),
        Some("opened when fired by func_button")
    );
}

/// An upper floor at z 256 over a lower one at z 0, with a floor panel
/// door 128 units square in the upper floor, sliding west by 128 less
/// `lip` when a button fires it; start above, exit below.
fn trapdoor_map(lip: i32) -> String {
    trapdoor_map_moving(lip, ("angle", "180"))
}

/// [`trapdoor_map`] with the door's direction key `dir`.
fn trapdoor_map_moving(lip: i32, dir: (&str, &str)) -> String {
    let (x0, x1) = (256, 384);
    let lip = lip.to_string();
    let door = entity(
        "func_door",
        &[("targetname", "trap"), dir, ("wait", "-1"), ("lip", &lip)],
        &[cuboid([x0, 64, 240], [x1, 192, 256], "trap")],
    );
    let button = entity(
        "func_button",
        &[("target", "trap")],
        &[cuboid([0, 0, 288], [8, 32, 320], "button")],
    );
    let upper = [
        floor(0, x0, 256),
        floor(x1, 640, 256),
        cuboid([x0, 0, 240], [x1, 64, 256], "floor"),
        cuboid([x0, 192, 240], [x1, 256, 256], "floor"),
    ];
    let mut world = upper.to_vec();
    world.push(floor(0, 640, 0));
    map(
        &world,
        [64, 128, 280],
        ([512, 64, 0], [576, 192, 64]),
        &[door, button],
    )
}

#[test]
fn a_floor_panel_sliding_open_drops_the_player_through_its_hole() {
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &trapdoor_map(8));
        let p = b.route().unwrap_or_else(|e| panic!("{id}: {e}"));
        let fall = p.search.links.iter().map(|&l| &b.mesh.links[l]).find(|l| {
            let [top, bottom] = l.segment().unwrap();
            l.kind == LinkKind::Door && top.y - bottom.y > 7.0
        });
        assert!(fall.is_some(), "{id}: a door link falls 8 m");
        // A panel that slides 24 units leaves a hole narrower than the
        // player (32 units) for it to fall through.
        let e = build_in(id, &trapdoor_map(104)).route().unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}, 24 units: {e}"
        );
    }
}

#[test]
fn a_door_moves_along_its_angles_pitch_and_yaw() {
    // QuakeC's SetMovedir: `angles` "0 180 0" slides the panel west as
    // `angle` 180 does, opening the hole; "90 0 0" pitches it down (it
    // sinks, no hole in plan) and "-90 0 0" up: no way down for either.
    let b = build(&trapdoor_map_moving(8, ("angles", "0 180 0")));
    assert!(b.kinds().contains(&LinkKind::Door), "slides west: falls");
    for pitch in ["90 0 0", "-90 0 0"] {
        let e = build(&trapdoor_map_moving(8, ("angles", pitch)))
            .route()
            .unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{pitch}: moves vertically, no hole: {e}"
        );
    }
}

#[test]
fn a_key_door_is_a_door_link_that_names_its_key() {
    // A wall at x 240..272 with a silver-key door in its middle.
    let wall = |y0, y1| cuboid([240, y0, 0], [272, y1, 160], "wall");
    let door = entity(
        "func_door",
        &[("angle", "90"), ("spawnflags", "16")],
        &[cuboid([240, 96, 0], [272, 160, 128], "door")],
    );
    let text = map(
        &[floor(0, 512, 0), wall(-64, 96), wall(160, 320)],
        [64, 128, 24],
        ([448, 64, 0], [480, 192, 64]),
        &[door],
    );
    let b = build(&text);
    assert!(b.kinds().contains(&LinkKind::Door));
    let d = &b.level.entities[2];
    assert_eq!(
        spots::opener(&b.level, d).as_deref(),
        Some("opened by the silver key")
    );
}

#[test]
fn a_teleporter_sends_the_player_to_its_destination() {
    let trigger = entity(
        "trigger_teleport",
        &[("target", "there")],
        &[cuboid([128, 64, 0], [192, 192, 64], "trigger")],
    );
    let dest = entity(
        "info_teleport_destination",
        &[("targetname", "there"), ("origin", "2100 128 24")],
        &[],
    );
    let text = map(
        &[floor(0, 256, 0), floor(2048, 2304, 0)],
        [32, 128, 24],
        ([2176, 64, 0], [2240, 192, 64]),
        &[trigger, dest],
    );
    let b = build(&text);
    assert!(b.kinds().contains(&LinkKind::Teleport));
}

#[test]
fn a_map_without_a_start_or_an_exit_has_none_to_route() {
    let text = entity("worldspawn", &[], &[floor(0, 256, 0)]);
    let level = navscope_levels::load_bytes("bare.map", text.as_bytes()).unwrap();
    let LevelData::Brushes(b) = &level.data else {
        unreachable!()
    };
    assert!(spots::starts(b).is_empty() && spots::exits(b).is_empty());
}

/// A room 512 × 512 × 128 units inside, walls and roof 16 thick, the
/// start and the exit inside; without its +x wall when `leaks`. Its floor
/// slab and its -y wall run on 1,024 units out of the map under and past
/// the +x wall, as mappers build them.
fn closed_room(leaks: bool) -> String {
    let mut world = vec![
        cuboid([-16, -16, -16], [1552, 528, 0], "floor"),
        cuboid([-16, -16, 128], [528, 528, 144], "roof"),
        cuboid([-16, -16, 0], [0, 528, 128], "wall"),
        cuboid([0, -16, 0], [1552, 0, 128], "wall"),
        cuboid([0, 512, 0], [512, 528, 128], "wall"),
    ];
    if !leaks {
        world.push(cuboid([512, -16, 0], [528, 528, 128], "wall"));
    }
    map(&world, [64, 64, 24], ([384, 384, 0], [448, 448, 64]), &[])
}

#[test]
fn a_sealed_map_has_no_navmesh_on_its_roof_and_one_that_leaks_keeps_it() {
    for id in ["cspace", "voxel"] {
        let sealed = build_in(id, &closed_room(false));
        let roof = 128.0 * sealed.level.unit;
        let above: Vec<_> = sealed
            .mesh
            .nodes
            .iter()
            .filter(|n| n.position.y > roof)
            .map(|n| n.position)
            .collect();
        assert!(above.is_empty(), "{id}: nodes on the roof at {above:?}");
        // The floor inside is whole although its slab runs on outside.
        assert!(sealed.route().is_ok(), "{id}: the start reaches the exit");
        let inside_area: f64 = sealed
            .mesh
            .nodes
            .iter()
            .filter(|n| n.position.x > 0.0 && n.position.x < 512.0 * sealed.level.unit)
            .filter_map(|n| n.polygon.as_deref())
            .map(navscope_core::geom::polyhedron::polygon_area)
            .sum();
        let room = (512.0 * sealed.level.unit).powi(2);
        assert!(
            inside_area > 0.6 * room,
            "{id}: {inside_area:.1} m² of the {room:.1} m² floor"
        );
        let leaking = build_in(id, &closed_room(true));
        assert!(
            leaking.mesh.nodes.iter().any(|n| n.position.y > roof),
            "{id}: a map that leaks keeps its roof"
        );
    }
}

/// Two pools, floors at z 0, under water up to z 256, joined only by a
/// tunnel through the wall between them (x 512 to 640, z 0 to 128, y 64
/// to 192): the tunnel is flooded to its ceiling, 128 units under the
/// surface. The start and the exit are on shores (z 272) at the far ends.
/// `bars`: vertical bars 16 units thick across the tunnel, at these y.
fn flooded_tunnel_map(bars: &[i32]) -> String {
    let mut world = vec![
        floor(0, 1152, 0),
        // The wall, solid above the tunnel and either side of it.
        cuboid([512, 0, 128], [640, 256, 512], "wall"),
        cuboid([512, 0, 0], [640, 64, 128], "wall"),
        cuboid([512, 192, 0], [640, 256, 128], "wall"),
        cuboid([0, 0, 0], [128, 256, 272], "shore"),
        cuboid([1024, 0, 0], [1152, 256, 272], "shore"),
        cuboid([128, 0, 0], [1024, 256, 256], "*water1"),
    ];
    for &y in bars {
        world.push(cuboid([568, y, 0], [584, y + 16, 128], "bars"));
    }
    map(
        &world,
        [64, 128, 296],
        ([1056, 64, 272], [1120, 192, 336]),
        &[],
    )
}

/// The swims of `b`'s route, and the lowest height its path reaches.
fn swims_and_depth(b: &Built) -> (usize, f64) {
    let p = b.route().unwrap_or_else(|e| panic!("no route: {e}"));
    let swims = p
        .search
        .nodes
        .iter()
        .flatten()
        .filter(|&&n| b.mesh.nodes[n as usize].stance == navscope_core::Stance::Swim)
        .count();
    let low = p
        .waypoints
        .iter()
        .map(|w| w.position.y)
        .fold(f64::INFINITY, f64::min);
    (swims, low)
}

/// Quake's player swims under water in any direction (QuakeC's air
/// supply only costs health after 12 s): `voxel` swims through a tunnel
/// flooded to its ceiling, its swim nodes in the tunnel under the
/// ceiling, as `cspace` does.
#[test]
fn voxel_swims_through_a_tunnel_flooded_to_its_ceiling() {
    let text = flooded_tunnel_map(&[]);
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &text);
        let (swims, low) = swims_and_depth(&b);
        assert!(swims > 0, "{id}: the route swims");
        // Through the tunnel: under its ceiling (z 128, 4 m), so at most
        // 4 m less the swimmer's height.
        assert!(low < 4.0, "{id}: the route dives into the tunnel ({low} m)");
    }
    // Every voxel swim node in the tunnel floats under its ceiling.
    let b = build_in("voxel", &text);
    let in_tunnel: Vec<_> = b
        .mesh
        .nodes
        .iter()
        .filter(|n| n.stance == navscope_core::Stance::Swim)
        .filter(|n| (16.0..20.0).contains(&n.position.x))
        .collect();
    assert!(!in_tunnel.is_empty(), "swim nodes in the tunnel");
    for n in in_tunnel {
        assert!(
            n.position.y + 0.5 <= 4.0 + 1e-6,
            "node {} at {} is under the ceiling with the swimmer's height",
            n.id,
            n.position
        );
    }
}

/// The same tunnel barred: in `voxel`, gaps exactly the player's width
/// (32 units, as between the bars of `lq_e0m5`'s `door_grate4`) do not let
/// Quake's player through (its hull must fit strictly), gaps of 56 do.
#[test]
fn voxel_swims_through_bars_only_where_the_player_fits_strictly() {
    // Gaps 64..96, 112..144 and 160..192: 32 units each.
    let e = build_in("voxel", &flooded_tunnel_map(&[96, 144]))
        .route()
        .unwrap_err();
    assert!(
        matches!(e, PathError::NoConnection { .. }),
        "32-unit gaps stop a 32-unit player: {e}"
    );
    // One bar in the middle: gaps 64..120 and 136..192, 56 units each.
    let wide = flooded_tunnel_map(&[120]);
    for id in ["cspace", "voxel"] {
        let b = build_in(id, &wide);
        let (swims, low) = swims_and_depth(&b);
        assert!(swims > 0 && low < 4.0, "{id}: through a 56-unit gap");
    }
}

/// A wedge standing in the (512, 512) corner from z0 to z1: its face
/// towards the room runs diagonally from (384, 512) to (512, 384).
fn corner_wedge(z0: i32, z1: i32) -> String {
    let face = |p: [[i32; 3]; 3]| {
        let p = p.map(|q| format!("( {} {} {} )", q[0], q[1], q[2]));
        format!("{} {} {} wedge 0 0 0 1 1\n", p[0], p[1], p[2])
    };
    let faces = [
        face([[512, 384, 1], [512, 384, 0], [384, 512, 0]]),
        face([[384, 384, z0], [385, 384, z0], [384, 385, z0]]),
        face([[512, 512, z1], [512, 513, z1], [513, 512, z1]]),
        face([[512, 512, z1], [513, 512, z1], [512, 512, z1 + 1]]),
        face([[512, 512, z1], [512, 512, z1 + 1], [512, 513, z1]]),
    ];
    format!("{{\n{}}}\n", faces.concat())
}

/// Two storeys of one plan, a room (floor z 0, 160 high) under another
/// (floor z 176), sealed, with nothing joining them: a diagonal wedge in
/// one corner through both gives both floors a slanted outline edge over
/// the same corners in plan. The start is downstairs, the exit upstairs.
fn stacked_rooms() -> String {
    let world = [
        cuboid([-16, -16, -16], [528, 528, 0], "floor"),
        cuboid([-16, -16, 160], [528, 528, 176], "floor"),
        cuboid([-16, -16, 336], [528, 528, 352], "roof"),
        cuboid([-16, -16, 0], [0, 528, 336], "wall"),
        cuboid([512, -16, 0], [528, 528, 336], "wall"),
        cuboid([0, -16, 0], [512, 0, 336], "wall"),
        cuboid([0, 512, 0], [512, 528, 336], "wall"),
        corner_wedge(0, 336),
    ];
    map(
        &world,
        [128, 128, 24],
        ([256, 256, 176], [320, 320, 240]),
        &[],
    )
}

/// `voxel` joins two regions of a tile over a slanted (simplified) outline
/// edge only where their floors meet there: the same corners in plan a
/// storey apart are no portal (lq_e0m1's lower hall walked up through its
/// 16-unit ceiling to the gallery over it, at the corner of a window).
#[test]
fn voxel_joins_no_storeys_over_the_same_slanted_edge() {
    let b = build_in("voxel", &stacked_rooms());
    let unit = b.level.unit;
    let (down, up) = (0.0, 176.0 * unit);
    let storey = |y: f64| (y - down).abs() < 0.5 || (y - up).abs() < 0.5;
    assert!(
        b.mesh
            .nodes
            .iter()
            .any(|n| (n.position.y - down).abs() < 0.5)
            && b.mesh.nodes.iter().any(|n| (n.position.y - up).abs() < 0.5),
        "both storeys have NavMesh"
    );
    for l in &b.mesh.links {
        let (a, c) = (
            b.mesh.nodes[l.from as usize].position,
            b.mesh.nodes[l.to as usize].position,
        );
        assert!(storey(a.y) && storey(c.y), "nodes at {a} and {c}");
        assert!(
            (a.y - c.y).abs() < 0.5,
            "a {:?} link from {a} to {c} joins the storeys",
            l.kind
        );
    }
    let e = b.route().unwrap_err();
    assert!(matches!(e, PathError::NoConnection { .. }), "{e}");
}

/// A floor (z 0, x 0 to 256) beside a pit (floor z -192, x 256 to 640)
/// covered by a grate: bars 16 units wide, their tops 16 units under the
/// floor, `gap` units apart, the first `first` units from the floor's edge
/// (lq_e0m6's grate has 24 and 32). The exit is on the pit's floor.
fn grate_map(first: i32, gap: i32) -> String {
    let mut world = vec![
        floor(0, 256, 0),
        cuboid([256, 0, -208], [640, 256, -192], "pit"),
        cuboid([640, 0, -208], [656, 256, 0], "wall"),
    ];
    let mut x = 256 + first;
    while x + 16 <= 640 {
        world.push(cuboid([x, 0, -32], [x + 16, 256, -16], "bar"));
        x += 16 + gap;
    }
    map(
        &world,
        [64, 128, 24],
        ([416, 64, -192], [480, 192, -128]),
        &[],
    )
}

/// `voxel`'s falls (walking off a ledge or a running jump) land only where
/// the whole body comes down clear, its length along the way it falls as
/// well as its width across it: Quake's 32-unit player does not drop
/// between the bars of a grate 32 units apart, nor through the 24-unit
/// slot between a floor's edge and the first bar (lq_e0m6's route went
/// down that slot into the pit under its grate), and does through gaps of
/// 64.
#[test]
fn voxel_falls_only_where_the_whole_body_comes_down_between_bars() {
    let e = build_in("voxel", &grate_map(24, 32)).route().unwrap_err();
    assert!(
        matches!(e, PathError::NoConnection { .. }),
        "a grate of 24- and 32-unit gaps: {e}"
    );
    let b = build_in("voxel", &grate_map(64, 64));
    assert!(
        b.kinds().contains(&LinkKind::Jump),
        "a grate of 64-unit gaps: a drop"
    );
}

/// A wall across the map at y 224 to 256 with a window 192 units wide
/// (x 32 to 224) whose sill, 32 units deep, is `sill` units above the
/// start's floor (z 0, north of the wall) and whose lintel is 112 units
/// over the sill; the exit's floor, south of the wall, is 64 units under
/// the start's (lq_e0m6's window under `door_secret1`'s raised bars).
fn sill_map(sill: i32) -> String {
    let top = sill + 112;
    map(
        &[
            cuboid([0, 256, -16], [256, 512, 0], "floor"),
            cuboid([0, 0, -80], [256, 224, -64], "low"),
            cuboid([0, 224, -80], [256, 256, sill], "sill"),
            cuboid([0, 224, sill], [32, 256, top], "jamb"),
            cuboid([224, 224, sill], [256, 256, top], "jamb"),
            cuboid([0, 224, top], [256, 256, top + 64], "lintel"),
        ],
        [128, 400, 24],
        ([96, 64, -64], [160, 128, 0]),
        &[],
    )
}

/// Quake's player stands wherever the bottom of his box rests on some
/// floor, overhanging a ledge by up to half his width: he jumps 32 units
/// up onto a sill 32 units deep (as deep as he is wide) and drops off its
/// far side; a sill 64 units up is above his jump's 45.6-unit rise. In
/// `voxel` the sill keeps its nodes only because the game presets do not
/// erode the walkable area from ledges ([`navscope_voxel::overhang`]).
#[test]
fn the_player_jumps_onto_a_sill_as_deep_as_he_is_wide_and_drops_off_it() {
    for id in ["voxel", "cspace"] {
        let kinds = build_in(id, &sill_map(32)).kinds();
        assert!(
            kinds.iter().filter(|&&k| k == LinkKind::Jump).count() >= 2,
            "{id}, a sill 32 units up: a jump up and a drop, got {kinds:?}"
        );
        let e = build_in(id, &sill_map(64)).route().unwrap_err();
        assert!(
            matches!(e, PathError::NoConnection { .. }),
            "{id}, a sill 64 units up: {e}"
        );
    }
    let eroded = [(
        navscope_voxel::settings::ERODE_LEDGES,
        ParamValue::Bool(true),
    )];
    let e = build_with("voxel", &sill_map(32), &eroded)
        .route()
        .unwrap_err();
    assert!(
        matches!(e, PathError::NoConnection { .. }),
        "voxel eroding from ledges (Recast's rule): no node on the sill, {e}"
    );
}

/// A beam 8 units wide at the floors' height (z 0) from the start's floor
/// (x 0 to 256) to the exit's (x 768 to 1024) over a void, too long to
/// jump; with `walls`, the beam runs along the middle of a slot 24 units
/// wide between two walls (8 units of air each side of it).
fn beam_map(walls: bool) -> String {
    let mut world = vec![
        floor(0, 256, 0),
        floor(768, 1024, 0),
        cuboid([256, 124, -16], [768, 132, 0], "beam"),
    ];
    if walls {
        world.push(cuboid([256, 0, -64], [768, 116, 128], "wall"));
        world.push(cuboid([256, 140, -64], [768, 256, 128], "wall"));
    }
    map(&world, [64, 128, 24], ([896, 64, 0], [960, 192, 64]), &[])
}

/// The player walks along a beam a quarter of his width (his box rests on
/// it, overhanging both sides), but not where walls on both sides of the
/// beam stand closer than his width: a body that overhangs a drop is
/// still kept a radius from a wall across the gap.
#[test]
fn voxel_walks_a_beam_narrower_than_the_player_but_not_between_walls_closer_than_his_width() {
    let b = build_in("voxel", &beam_map(false));
    let p = b.route().unwrap_or_else(|e| panic!("an open beam: {e}"));
    assert!(
        p.length > (768.0 - 256.0) / 32.0,
        "the route walks the beam: {} m",
        p.length
    );
    let e = build_in("voxel", &beam_map(true)).route().unwrap_err();
    assert!(
        matches!(e, PathError::NoConnection { .. }),
        "a beam between walls 24 units apart: {e}"
    );
}

/// A corridor (x 0 to 1024, floor z 0, side walls, no roof) blocked
/// across at x 496..512 by a row of bars 16 units thick with four gaps
/// `gap` units wide between them and the side walls; the bars and walls
/// are 256 high, far above Quake's jump. The start is at the west end,
/// the exit at the east end. `class`: the bars' entity (`None`: world
/// brushes).
fn barred_corridor(gap: i32, class: Option<&str>) -> String {
    let width = 4 * gap + 3 * 16;
    let mut world = vec![
        cuboid([0, 0, -16], [1024, width, 0], "floor"),
        cuboid([0, -16, 0], [1024, 0, 256], "wall"),
        cuboid([0, width, 0], [1024, width + 16, 256], "wall"),
    ];
    let bars: Vec<String> = (1..4)
        .map(|k| {
            let y = k * gap + (k - 1) * 16;
            cuboid([496, y, 0], [512, y + 16, 256], "bar")
        })
        .collect();
    let more = match class {
        None => {
            world.extend(bars);
            Vec::new()
        }
        Some(c) => vec![entity(c, &[], &bars)],
    };
    let mid = width / 2;
    map(
        &world,
        [64, mid, 24],
        ([896, mid - 16, 0], [960, mid + 16, 64]),
        &more,
    )
}

/// A wall across a room (x 496..624) with one slot `gap` units wide
/// through it: a corridor 128 units long and exactly as wide as the slot.
fn slot_corridor(gap: i32) -> String {
    let (lo, hi) = (128 - gap / 2, 128 + gap - gap / 2);
    let world = [
        cuboid([0, 0, -16], [1024, 256, 0], "floor"),
        cuboid([0, -16, 0], [1024, 0, 256], "wall"),
        cuboid([0, 256, 0], [1024, 272, 256], "wall"),
        cuboid([496, 0, 0], [624, lo, 256], "wall"),
        cuboid([496, hi, 0], [624, 256, 256], "wall"),
    ];
    map(&world, [64, 128, 24], ([896, 96, 0], [960, 160, 64]), &[])
}

fn no_route(b: &Built) -> bool {
    matches!(b.route(), Err(PathError::NoConnection { .. }))
}

/// Quake collides the player's origin against the brushes grown by his
/// 32 × 32 hull (qbsp's clip hull) and keeps his origin off every plane
/// (`SV_RecursiveHullCheck`'s `DIST_EPSILON`): where two grown brushes
/// touch, as between bars exactly 32 units apart, there is no room, and
/// the player passes only where a gap is wider than he is. `cspace`
/// walks between bars 40 apart and not between bars 32 apart, whether
/// the bars are the world's or a `func_wall`'s.
#[test]
fn cspace_walks_between_bars_only_where_the_player_fits_strictly() {
    for class in [None, Some("func_wall"), Some("func_detail_wall")] {
        let b = build(&barred_corridor(32, class));
        assert!(
            no_route(&b),
            "{class:?}: 32-unit gaps: {:?}",
            b.route().map(|p| p.length)
        );
        let b = build(&barred_corridor(40, class));
        let kinds = b.kinds();
        assert!(
            kinds.iter().all(|k| *k == LinkKind::Walk),
            "{class:?}: 40-unit gaps are walked through: {kinds:?}"
        );
    }
}

/// The same for a corridor: Quake's player walks a slot 40 units wide and
/// not one 32 wide (nor narrower).
#[test]
fn cspace_walks_a_corridor_only_wider_than_the_player() {
    for gap in [24, 32] {
        let b = build(&slot_corridor(gap));
        assert!(
            no_route(&b),
            "a {gap}-unit corridor: {:?}",
            b.route().map(|p| p.length)
        );
    }
    assert!(
        build(&slot_corridor(40)).route().is_ok(),
        "a 40-unit corridor"
    );
}

/// `cspace` swims through the barred tunnel only where the player fits
/// strictly, as `voxel` does.
#[test]
fn cspace_swims_through_bars_only_where_the_player_fits_strictly() {
    let b = build(&flooded_tunnel_map(&[96, 144]));
    assert!(
        no_route(&b),
        "32-unit gaps: {:?}",
        b.route().map(|p| p.length)
    );
}

/// `cspace` drops into a pit only between bars the whole body passes:
/// not through a grate of 24- and 32-unit gaps, through one of 64.
#[test]
fn cspace_falls_only_where_the_whole_body_comes_down_between_bars() {
    let b = build(&grate_map(24, 32));
    assert!(
        no_route(&b),
        "a grate of 24- and 32-unit gaps: {:?}",
        b.route().map(|p| p.length)
    );
    assert!(
        build(&grate_map(64, 64)).route().is_ok(),
        "a grate of 64-unit gaps"
    );
}

/// A 128-unit gap between two floors (Quake's running jump reaches 216)
/// with a wall standing in it up to far above the jump, a slot `gap`
/// units wide through the wall where the jump goes.
fn slotted_chasm(gap: i32) -> String {
    let (lo, hi) = (128 - gap / 2, 128 + gap - gap / 2);
    let world = [
        floor(0, 256, 0),
        floor(384, 640, 0),
        cuboid([312, 0, -64], [328, lo, 256], "wall"),
        cuboid([312, hi, -64], [328, 256, 256], "wall"),
    ];
    map(&world, [64, 128, 24], ([512, 96, 0], [576, 160, 64]), &[])
}

/// A running jump goes through a slot in a wall only where the player
/// fits strictly: 40 units, not 32.
#[test]
fn cspace_jumps_through_a_slot_only_wider_than_the_player() {
    let b = build(&slotted_chasm(32));
    assert!(
        no_route(&b),
        "a 32-unit slot: {:?}",
        b.route().map(|p| p.length)
    );
    let b = build(&slotted_chasm(40));
    assert!(
        b.kinds().contains(&LinkKind::Jump),
        "a 40-unit slot: a jump"
    );
}
