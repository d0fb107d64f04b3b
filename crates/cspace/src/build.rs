//! Brush constructors for generated levels, benchmarks and tests: boxes,
//! rotated boxes and ramps, as plane lists with outward normals.

use glam::{DMat3, DVec3};
use navscope_core::geom::{Aabb, Plane};
use navscope_core::level::Brush;

/// A brush from planes, with no materials and owned by the world.
pub fn brush(planes: Vec<Plane>) -> Brush {
    Brush {
        materials: vec![String::new(); planes.len()],
        planes,
        entity: None,
        contents: Default::default(),
    }
}

/// The axis-aligned box `min..max`.
pub fn box_brush(min: DVec3, max: DVec3) -> Brush {
    brush(Aabb::from_corners(min, max).outward_planes().to_vec())
}

/// A box with half extents `half` around `center`, turned by `yaw` about
/// the vertical axis and then by `pitch` about the (turned) X axis.
pub fn rotated_box(center: DVec3, half: DVec3, yaw: f64, pitch: f64) -> Brush {
    let r = DMat3::from_rotation_y(yaw) * DMat3::from_rotation_x(pitch);
    let mut planes = Vec::new();
    for (axis, h) in [(DVec3::X, half.x), (DVec3::Y, half.y), (DVec3::Z, half.z)] {
        for s in [1.0, -1.0] {
            let n = r * (axis * s);
            planes.push(Plane {
                normal: n,
                d: n.dot(center) + h,
            });
        }
    }
    brush(planes)
}

/// Which way a ramp rises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rise {
    /// Towards +X.
    PlusX,
    /// Towards −X.
    MinusX,
    /// Towards +Z.
    PlusZ,
    /// Towards −Z.
    MinusZ,
}

/// A wedge filling `min..max` under a slope that runs from `min.y` at one
/// end to `max.y` at the end it rises towards.
pub fn ramp(min: DVec3, max: DVec3, rise: Rise) -> Brush {
    let (min, max) = (min.min(max), min.max(max));
    let h = max.y - min.y;
    let [plus_x, minus_x, _, bottom, plus_z, minus_z] =
        Aabb::from_corners(min, max).outward_planes();
    let (high_end, side_a, side_b, slope_n, low_point) = match rise {
        Rise::PlusX => (
            plus_x,
            plus_z,
            minus_z,
            DVec3::new(-h, max.x - min.x, 0.0),
            DVec3::new(min.x, min.y, min.z),
        ),
        Rise::MinusX => (
            minus_x,
            plus_z,
            minus_z,
            DVec3::new(h, max.x - min.x, 0.0),
            DVec3::new(max.x, min.y, min.z),
        ),
        Rise::PlusZ => (
            plus_z,
            plus_x,
            minus_x,
            DVec3::new(0.0, max.z - min.z, -h),
            DVec3::new(min.x, min.y, min.z),
        ),
        Rise::MinusZ => (
            minus_z,
            plus_x,
            minus_x,
            DVec3::new(0.0, max.z - min.z, h),
            DVec3::new(min.x, min.y, max.z),
        ),
    };
    let n = slope_n.normalize();
    brush(vec![
        bottom,
        high_end,
        side_a,
        side_b,
        Plane {
            normal: n,
            d: n.dot(low_point),
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyhedron::Polyhedron;

    #[test]
    fn ramps_are_wedges_of_half_the_box() {
        for rise in [Rise::PlusX, Rise::MinusX, Rise::PlusZ, Rise::MinusZ] {
            let p =
                Polyhedron::from_planes(&ramp(DVec3::ZERO, DVec3::new(4.0, 1.0, 2.0), rise).planes)
                    .unwrap();
            assert_eq!(p.faces.len(), 5, "{rise:?}");
            assert!((p.volume() - 4.0).abs() < 1e-9, "{rise:?}");
            assert!((p.bounds.max - DVec3::new(4.0, 1.0, 2.0)).length() < 1e-9);
        }
    }

    #[test]
    fn rotated_box_keeps_its_volume() {
        let p = Polyhedron::from_planes(
            &rotated_box(DVec3::ONE, DVec3::new(1.0, 2.0, 0.5), 0.3, 0.7).planes,
        )
        .unwrap();
        assert!((p.volume() - 8.0).abs() < 1e-9);
    }
}
