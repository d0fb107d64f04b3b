//! Properties of the footprint difference on random footprints.

use std::collections::BTreeMap;

use glam::DVec2;
use navscope_compare::{Banding, Region, difference_of};
use proptest::prelude::*;

/// Random convex polygons: triangles and rotated rectangles in a 20 m box.
fn polygon() -> impl Strategy<Value = Vec<DVec2>> {
    let tri = prop::array::uniform3((0.0..20.0f64, 0.0..20.0f64)).prop_map(|ps| {
        ps.iter()
            .map(|&(x, y)| DVec2::new(x, y))
            .collect::<Vec<_>>()
    });
    let rect = (
        0.0..20.0f64,
        0.0..20.0f64,
        0.5..6.0f64,
        0.5..6.0f64,
        0.0..3.2f64,
    )
        .prop_map(|(x, y, w, h, a)| {
            let rot = DVec2::from_angle(a);
            [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
                .iter()
                .map(|&(u, v)| DVec2::new(x, y) + rot.rotate(DVec2::new(u, v)))
                .collect()
        });
    prop_oneof![tri, rect]
}

fn footprint() -> impl Strategy<Value = BTreeMap<i64, Region>> {
    prop::collection::vec(polygon(), 1..6)
        .prop_map(|ps| BTreeMap::from([(0, Region::union_of(&ps))]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_two_differences_account_for_the_area_change(a in footprint(), b in footprint()) {
        let d = difference_of(&a, &b, Banding::default());
        let lhs = d.a_only_area() - d.b_only_area();
        let rhs = d.a_area() - d.b_area();
        prop_assert!((lhs - rhs).abs() < 1e-6 * (1.0 + d.a_area() + d.b_area()), "{lhs} vs {rhs}");
        // A is its part outside B plus the common part.
        prop_assert!((d.a_only_area() + d.common_area() - d.a_area()).abs() < 1e-6 * (1.0 + d.a_area()));
        prop_assert!(d.a_only_area() >= -1e-9 && d.b_only_area() >= -1e-9);
    }

    #[test]
    fn swapping_the_sides_swaps_the_differences(a in footprint(), b in footprint()) {
        let ab = difference_of(&a, &b, Banding::default());
        let ba = difference_of(&b, &a, Banding::default());
        prop_assert!((ab.a_only_area() - ba.b_only_area()).abs() < 1e-9);
        prop_assert!((ab.b_only_area() - ba.a_only_area()).abs() < 1e-9);
        prop_assert!((ab.common_area() - ba.common_area()).abs() < 1e-6 * (1.0 + ab.common_area()));
    }

    #[test]
    fn a_footprint_against_itself_has_no_difference(a in footprint()) {
        let d = difference_of(&a, &a, Banding::default());
        prop_assert_eq!(d.a_only_area(), 0.0);
        prop_assert_eq!(d.b_only_area(), 0.0);
        prop_assert!((d.common_area() - d.a_area()).abs() < 1e-6 * (1.0 + d.a_area()));
    }
}
