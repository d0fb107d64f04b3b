//! Plan regions (sets of polygons with holes) and their booleans, by
//! `i_overlay`.

use glam::{DVec2, Vec3};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::single::SingleFloatOverlay;
use navscope_core::draw::Shape;
use navscope_core::geom::plan_to_world;
use serde::Serialize;

/// A region of the ground plane in plan coordinates (`(x, -z)`, see
/// `navscope_core::geom`): disjoint shapes, each an outer ring
/// (counter-clockwise) followed by its holes (clockwise).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Region {
    /// The shapes: `shapes[i][0]` is an outer ring, `shapes[i][1..]` its holes.
    pub shapes: Vec<Vec<Vec<DVec2>>>,
}

/// i_overlay's point type.
type P = [f64; 2];

fn to_rings(rings: &[Vec<DVec2>]) -> Vec<Vec<P>> {
    rings
        .iter()
        .map(|r| r.iter().map(|p| [p.x, p.y]).collect())
        .collect()
}

fn from_shapes(shapes: Vec<Vec<Vec<P>>>) -> Region {
    Region {
        shapes: shapes
            .into_iter()
            .map(|s| {
                s.into_iter()
                    .map(|r| r.into_iter().map(|[x, y]| DVec2::new(x, y)).collect())
                    .collect()
            })
            .collect(),
    }
}

/// Twice the signed area of a ring (positive counter-clockwise).
fn doubled_area(r: &[DVec2]) -> f64 {
    (0..r.len())
        .map(|i| r[i].perp_dot(r[(i + 1) % r.len()]))
        .sum()
}

impl Region {
    /// The union of polygons given as rings of any orientation (each ring
    /// is a filled polygon; overlaps count once).
    pub fn union_of(polygons: &[Vec<DVec2>]) -> Region {
        let mut rings: Vec<Vec<DVec2>> =
            polygons.iter().filter(|r| r.len() >= 3).cloned().collect();
        for r in &mut rings {
            if doubled_area(r) < 0.0 {
                r.reverse();
            }
        }
        if rings.is_empty() {
            return Region::default();
        }
        let subject = to_rings(&rings);
        let none: Vec<Vec<P>> = Vec::new();
        from_shapes(subject.overlay(&none, OverlayRule::Subject, FillRule::NonZero))
    }

    /// The region bounded by `rings` under the even-odd rule (outer
    /// boundaries and holes in any order and orientation, as a floor
    /// plan's rings or a contour set give them).
    pub fn from_rings(rings: &[Vec<DVec2>]) -> Region {
        let subject = to_rings(
            &rings
                .iter()
                .filter(|r| r.len() >= 3)
                .cloned()
                .collect::<Vec<_>>(),
        );
        if subject.is_empty() {
            return Region::default();
        }
        let none: Vec<Vec<P>> = Vec::new();
        from_shapes(subject.overlay(&none, OverlayRule::Subject, FillRule::EvenOdd))
    }

    /// Every ring of every shape.
    pub fn rings(&self) -> impl Iterator<Item = &Vec<DVec2>> {
        self.shapes.iter().flatten()
    }

    /// Area in square metres (outer rings less their holes; never
    /// negative, whatever the rounding).
    pub fn area(&self) -> f64 {
        let a: f64 = self
            .shapes
            .iter()
            .flat_map(|s| s.iter().enumerate())
            .map(|(i, r)| {
                let a = doubled_area(r).abs() * 0.5;
                if i == 0 { a } else { -a }
            })
            .sum();
        if a > 0.0 { a } else { 0.0 }
    }

    /// True when the region has no shape.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// True when `p` lies inside the region (even-odd over its rings;
    /// points on a ring count either way).
    pub fn contains(&self, p: DVec2) -> bool {
        self.rings()
            .filter(|r| navscope_core::geom::ring_side(r, p) == Some(true))
            .count()
            % 2
            == 1
    }

    /// The region as filled polygons at world height `y`, outer rings
    /// counter-clockwise seen from above and holes the other way (core's
    /// drawable [`Shape::Polygon`]).
    pub fn polygons_at(&self, y: f64) -> Vec<Shape> {
        let world = |r: &Vec<DVec2>, ccw: bool| -> Vec<Vec3> {
            let mut pts: Vec<Vec3> = r.iter().map(|&p| plan_to_world(p, y).as_vec3()).collect();
            if (doubled_area(r) > 0.0) != ccw {
                pts.reverse();
            }
            pts
        };
        self.shapes
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| Shape::Polygon {
                outer: world(&s[0], true),
                holes: s[1..].iter().map(|h| world(h, false)).collect(),
            })
            .collect()
    }

    /// The lower and upper corners of the region's bounding box, if any.
    pub fn bounds(&self) -> Option<(DVec2, DVec2)> {
        let mut pts = self.rings().flatten();
        let first = *pts.next()?;
        Some(pts.fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))))
    }

    fn overlay(&self, other: &Region, rule: OverlayRule) -> Region {
        let flat =
            |r: &Region| -> Vec<Vec<P>> { to_rings(&r.rings().cloned().collect::<Vec<_>>()) };
        let (a, b) = (flat(self), flat(other));
        if a.is_empty() && b.is_empty() {
            return Region::default();
        }
        from_shapes(a.overlay(&b, rule, FillRule::EvenOdd))
    }

    /// The part of this region outside `other`.
    pub fn minus(&self, other: &Region) -> Region {
        if self.is_empty() {
            return Region::default();
        }
        self.overlay(other, OverlayRule::Difference)
    }

    /// The part of this region inside `other`.
    pub fn intersect(&self, other: &Region) -> Region {
        if self.is_empty() || other.is_empty() {
            return Region::default();
        }
        self.overlay(other, OverlayRule::Intersect)
    }

    /// This region and `other` together.
    pub fn union(&self, other: &Region) -> Region {
        self.overlay(other, OverlayRule::Union)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, s: f64) -> Vec<DVec2> {
        vec![
            DVec2::new(x, y),
            DVec2::new(x + s, y),
            DVec2::new(x + s, y + s),
            DVec2::new(x, y + s),
        ]
    }

    #[test]
    fn overlapping_squares_union_once_and_difference_by_area() {
        let mut cw = square(1.0, 0.0, 2.0);
        cw.reverse();
        let a = Region::union_of(&[square(0.0, 0.0, 2.0), cw]);
        assert!((a.area() - 6.0).abs() < 1e-9, "{}", a.area());
        let b = Region::union_of(&[square(2.0, 0.0, 2.0)]);
        assert!((a.minus(&b).area() - 4.0).abs() < 1e-9);
        assert!((b.minus(&a).area() - 2.0).abs() < 1e-9);
        assert!((a.intersect(&b).area() - 2.0).abs() < 1e-9);
        assert!((a.union(&b).area() - 8.0).abs() < 1e-9);
        assert!(a.minus(&a).is_empty());
        assert!(a.contains(DVec2::new(2.5, 1.0)) && !a.contains(DVec2::new(3.5, 1.0)));
        assert_eq!(a.bounds(), Some((DVec2::ZERO, DVec2::new(3.0, 2.0))));
        assert!(Region::union_of(&[]).is_empty());
    }

    #[test]
    fn a_hole_is_subtracted_from_the_area() {
        let ring = Region::union_of(&[square(0.0, 0.0, 4.0)])
            .minus(&Region::union_of(&[square(1.0, 1.0, 1.0)]));
        let same = Region::from_rings(&[square(1.0, 1.0, 1.0), square(0.0, 0.0, 4.0)]);
        assert!((same.area() - 15.0).abs() < 1e-9);
        assert!(same.minus(&ring).is_empty() && ring.minus(&same).is_empty());
        assert_eq!(ring.shapes.len(), 1);
        assert_eq!(ring.shapes[0].len(), 2, "outer ring and one hole");
        assert!((ring.area() - 15.0).abs() < 1e-9);
        assert!(!ring.contains(DVec2::new(1.5, 1.5)) && ring.contains(DVec2::new(0.5, 1.5)));
        let polys = ring.polygons_at(2.0);
        assert_eq!(polys.len(), 1);
        let Shape::Polygon { outer, holes } = &polys[0] else {
            panic!("a polygon")
        };
        assert_eq!(holes.len(), 1);
        assert!(outer.iter().all(|p| p.y == 2.0));
        // Counter-clockwise seen from above: the normal points up.
        let up = |r: &[Vec3]| (r[1] - r[0]).cross(r[2] - r[0]).y;
        assert!(up(outer) > 0.0 && up(&holes[0]) < 0.0);
    }
}
