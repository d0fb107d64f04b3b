//! A long sweep over many generator seeds, parameters and plan kinds
//! (`cargo test --release -p navscope-convex --test stress -- --ignored`).
//! The property tests sample the same space; this covers it densely.

mod common;

use navscope_convex::decompose_plan;
use navscope_levels::generate;

#[test]
#[ignore = "long sweep; run with --ignored in release"]
fn many_seeds() {
    let mut runs = 0;
    for seed in 0..400u64 {
        let plans = [
            generate::floor_plan(seed, 1 + (seed % 40) as usize),
            generate::star_polygon(seed, 3 + (seed % 120) as usize),
            generate::rectilinear_maze(
                seed,
                1 + (seed % 14) as usize,
                1 + (seed / 14 % 14) as usize,
            ),
        ];
        for plan in &plans {
            for tau in [0.0, 2.0, 5.0, 12.0, 30.0] {
                for removal in [false, true] {
                    let out = decompose_plan(&plan.area, tau, removal).unwrap_or_else(|e| {
                        panic!("seed {seed}, tau {tau}, removal {removal}: {e}")
                    });
                    common::check(&plan.area, &out, tau);
                    runs += 1;
                }
            }
        }
    }
    assert_eq!(runs, 400 * 3 * 5 * 2);
}
