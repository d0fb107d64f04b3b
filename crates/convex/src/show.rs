//! Turning plan geometry into the world-space primitives every artifact
//! draws itself with (y = 0, through core's plan-to-world mapping).

use glam::{DVec2, Vec3};
use navscope_core::draw::{Primitive, Shape};
use navscope_core::geom::{PolygonWithHoles, plan_to_world};

/// A plan point on the ground.
pub fn plan_point(p: DVec2) -> Vec3 {
    plan_to_world(p, 0.0).as_vec3()
}

/// A segment on the ground.
pub fn plan_segment(a: DVec2, b: DVec2) -> Shape {
    Shape::Segment(plan_point(a), plan_point(b))
}

/// A filled polygon on the ground (counter-clockwise in plan =
/// counter-clockwise seen from above).
pub fn plan_polygon(points: &[DVec2]) -> Shape {
    Shape::Polygon {
        outer: points.iter().map(|p| plan_point(*p)).collect(),
        holes: Vec::new(),
    }
}

/// The rings of the plan as closed `boundary` outlines (element = ring,
/// 0 for the outer one).
pub fn ring_outline(plan: &PolygonWithHoles) -> Vec<Primitive> {
    plan.rings()
        .enumerate()
        .map(|(i, r)| {
            let points = r.points.iter().map(|p| plan_point(*p)).collect();
            Primitive::new(
                "boundary",
                i as u32,
                Shape::Polyline {
                    points,
                    closed: true,
                },
            )
        })
        .collect()
}

/// A `label` primitive.
pub fn label(at: DVec2, text: String) -> Primitive {
    Primitive::new(
        "label",
        0,
        Shape::Label {
            at: plan_point(at),
            text,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_y_is_world_minus_z() {
        assert_eq!(plan_point(DVec2::new(1.0, 2.0)), Vec3::new(1.0, 0.0, -2.0));
    }
}
