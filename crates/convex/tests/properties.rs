//! Property tests on random valid floor plans: rooms with random convex and
//! concave obstacles, star-shaped rooms and rectilinear mazes, at tau = 0
//! and tau = 5 degrees, with and without portal removal.

mod common;

use navscope_convex::decompose_plan;
use navscope_levels::generate;
use proptest::prelude::*;

fn run(plan: &navscope_core::geom::PolygonWithHoles, tau: f64, removal: bool) {
    let out =
        decompose_plan(plan, tau, removal).unwrap_or_else(|e| panic!("decomposition failed: {e}"));
    common::check(plan, &out, tau);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn rooms_with_obstacles(seed in any::<u64>(), n in 1usize..14, tau in prop_oneof![Just(0.0), Just(5.0), 0.0f64..15.0], removal in any::<bool>()) {
        run(&generate::floor_plan(seed, n).area, tau, removal);
    }

    #[test]
    fn star_shaped_rooms(seed in any::<u64>(), n in 3usize..60, tau in prop_oneof![Just(0.0), Just(5.0)], removal in any::<bool>()) {
        run(&generate::star_polygon(seed, n).area, tau, removal);
    }

    #[test]
    fn rectilinear_mazes(seed in any::<u64>(), w in 1usize..7, h in 1usize..7, tau in prop_oneof![Just(0.0), Just(5.0)], removal in any::<bool>()) {
        run(&generate::rectilinear_maze(seed, w, h).area, tau, removal);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn big_halls_with_gear_pillars(seed in any::<u64>(), n in 200usize..2500, tau in prop_oneof![Just(0.0), Just(5.0)]) {
        run(&generate::big_floor_plan(seed, n).area, tau, true);
    }
}
