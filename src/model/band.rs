//! The view filter as plain data: the height slice ([`HeightBand`]), how
//! primitives are prepared ([`PrepareOptions`]) and the hidden layers
//! ([`ViewFilter`]).

use bevy::prelude::*;
use navscope_core::Primitive;
use std::collections::BTreeSet;

/// A band of world heights, `lo <= y <= hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightBand {
    /// Lowest height shown.
    pub lo: f32,
    /// Highest height shown.
    pub hi: f32,
}

impl HeightBand {
    /// The band between two heights, in either order.
    pub fn new(a: f32, b: f32) -> Self {
        Self {
            lo: a.min(b),
            hi: a.max(b),
        }
    }

    /// True when the height range `lo..=hi` reaches into the band.
    pub fn overlaps(&self, lo: f32, hi: f32) -> bool {
        lo <= self.hi && hi >= self.lo
    }

    /// True when some part of the points' height range lies in the band
    /// (an empty set of points is kept: it has no height to test).
    pub fn keeps_points(&self, points: impl IntoIterator<Item = Vec3>) -> bool {
        let (lo, hi) = points
            .into_iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.y), hi.max(p.y))
            });
        lo > hi || self.overlaps(lo, hi)
    }

    /// True when the primitive reaches into the band.
    pub fn keeps(&self, p: &Primitive) -> bool {
        self.keeps_points(p.shape.points())
    }

    /// The part of segment `a`-`b` inside the band, if any.
    pub fn clip_segment(&self, a: Vec3, b: Vec3) -> Option<(Vec3, Vec3)> {
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        let dy = b.y - a.y;
        for (bound, inside_above) in [(self.lo, true), (self.hi, false)] {
            if dy.abs() <= f32::EPSILON * (a.y.abs() + bound.abs()).max(1.0) {
                let inside = if inside_above {
                    a.y >= bound
                } else {
                    a.y <= bound
                };
                if !inside {
                    return None;
                }
                continue;
            }
            let t = (bound - a.y) / dy;
            // Entering when moving towards the inside as t grows.
            if (dy > 0.0) == inside_above {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
        (t0 <= t1).then(|| (a.lerp(b, t0), a.lerp(b, t1)))
    }

    /// The part of a triangle inside the band, as triangles (none, one, or a
    /// fan of up to three): the band's two planes cut it like a knife, so a
    /// wall shows only its slice.
    pub fn clip_triangle(&self, t: [Vec3; 3]) -> Vec<[Vec3; 3]> {
        let (lo, hi) = t
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), p| {
                (l.min(p.y), h.max(p.y))
            });
        if lo >= self.lo && hi <= self.hi {
            return vec![t];
        }
        if !self.overlaps(lo, hi) {
            return Vec::new();
        }
        let mut poly: Vec<Vec3> = t.to_vec();
        for (bound, keep_above) in [(self.lo, true), (self.hi, false)] {
            let inside = |p: &Vec3| {
                if keep_above {
                    p.y >= bound
                } else {
                    p.y <= bound
                }
            };
            let mut out = Vec::with_capacity(poly.len() + 1);
            for i in 0..poly.len() {
                let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
                if inside(&p) {
                    out.push(p);
                }
                if inside(&p) != inside(&q) {
                    let f = (bound - p.y) / (q.y - p.y);
                    out.push(p.lerp(q, f));
                }
            }
            poly = out;
            if poly.len() < 3 {
                return Vec::new();
            }
        }
        (1..poly.len() - 1)
            .map(|i| [poly[0], poly[i], poly[i + 1]])
            .collect()
    }

    /// The same thickness moved up (`steps > 0`) or down by whole
    /// thicknesses: "the next floor".
    pub fn shifted(&self, steps: f32) -> Self {
        let d = (self.hi - self.lo) * steps;
        Self::new(self.lo + d, self.hi + d)
    }
}

/// Options that change how a stage's primitives are prepared for drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrepareOptions {
    /// Draw only what reaches into this band (`None`: everything).
    pub slice: Option<HeightBand>,
    /// Colour primitives that carry a value by a ramp over their kind's range.
    pub color_by_value: bool,
}

impl Default for PrepareOptions {
    fn default() -> Self {
        Self {
            slice: None,
            color_by_value: true,
        }
    }
}

impl PrepareOptions {
    /// True when the primitive is drawn under these options.
    pub fn keeps(&self, p: &Primitive) -> bool {
        self.slice.is_none_or(|band| band.keeps(p))
    }
}

/// The user's view filter.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct ViewFilter {
    /// Slice and colouring.
    pub prepare: PrepareOptions,
    /// Layers switched off.
    pub hidden_layers: BTreeSet<u32>,
}

impl ViewFilter {
    /// True when primitives on `layer` are shown (untagged ones always are).
    pub fn shows_layer(&self, layer: Option<u32>) -> bool {
        layer.is_none_or(|l| !self.hidden_layers.contains(&l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::Shape;

    fn seg(y0: f32, y1: f32) -> Primitive {
        Primitive::new(
            "x",
            0,
            Shape::Segment(Vec3::new(0.0, y0, 0.0), Vec3::new(1.0, y1, 0.0)),
        )
    }

    #[test]
    fn band_keeps_what_reaches_into_it() {
        let band = HeightBand::new(3.0, 1.0);
        assert_eq!((band.lo, band.hi), (1.0, 3.0));
        assert!(band.keeps(&seg(0.0, 1.0)), "touching the bottom");
        assert!(band.keeps(&seg(2.0, 2.0)));
        assert!(band.keeps(&seg(-5.0, 9.0)), "crossing the band");
        assert!(!band.keeps(&seg(3.01, 4.0)));
        assert!(!band.keeps(&seg(-1.0, 0.99)));
        let label = Primitive::new(
            "label",
            0,
            Shape::Polyline {
                points: vec![],
                closed: false,
            },
        );
        assert!(band.keeps(&label), "nothing to test: kept");
    }

    fn area(t: &[Vec3; 3]) -> f32 {
        (t[1] - t[0]).cross(t[2] - t[0]).length() / 2.0
    }

    #[test]
    fn clipping_a_wall_keeps_its_slice() {
        let band = HeightBand::new(1.0, 2.0);
        // A 4 m tall, 2 m wide wall as two triangles.
        let (a, b, c, d) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 4.0, 0.0),
            Vec3::new(0.0, 4.0, 0.0),
        );
        let pieces: Vec<[Vec3; 3]> = [[a, b, c], [a, c, d]]
            .into_iter()
            .flat_map(|t| band.clip_triangle(t))
            .collect();
        let total: f32 = pieces.iter().map(area).sum();
        assert!((total - 2.0).abs() < 1e-5, "a 2 x 1 strip: {total}");
        for t in &pieces {
            assert!(t.iter().all(|p| p.y >= 1.0 - 1e-6 && p.y <= 2.0 + 1e-6));
        }
        let inside = [Vec3::new(0.0, 1.5, 0.0), Vec3::X, Vec3::Z];
        assert_eq!(
            band.clip_triangle(inside).len(),
            1,
            "the lowest corner reaches in"
        );
        let above = [
            Vec3::new(0.0, 3.0, 0.0),
            Vec3::new(1.0, 3.0, 0.0),
            Vec3::new(0.0, 5.0, 1.0),
        ];
        assert!(band.clip_triangle(above).is_empty());
        let flat = [
            Vec3::new(0.0, 1.5, 0.0),
            Vec3::new(1.0, 1.5, 0.0),
            Vec3::new(0.0, 1.5, 1.0),
        ];
        assert_eq!(band.clip_triangle(flat), vec![flat]);
    }

    #[test]
    fn a_segment_is_cut_to_the_band_and_one_outside_it_is_dropped() {
        let band = HeightBand::new(1.0, 2.0);
        let (a, b) = band
            .clip_segment(Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, 4.0, 0.0))
            .unwrap();
        assert!((a - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
        assert!((b - Vec3::new(2.0, 2.0, 0.0)).length() < 1e-6);
        let down = band
            .clip_segment(Vec3::new(0.0, 4.0, 0.0), Vec3::new(0.0, 0.0, 0.0))
            .unwrap();
        assert!((down.0.y - 2.0).abs() < 1e-6 && (down.1.y - 1.0).abs() < 1e-6);
        assert!(
            band.clip_segment(Vec3::ZERO, Vec3::X).is_none(),
            "flat below"
        );
        let level = (Vec3::new(0.0, 1.5, 0.0), Vec3::new(3.0, 1.5, 0.0));
        assert_eq!(band.clip_segment(level.0, level.1), Some(level));
        assert!(
            band.clip_segment(Vec3::new(0.0, 2.5, 0.0), Vec3::new(0.0, 9.0, 0.0))
                .is_none()
        );
    }

    proptest::proptest! {
        #[test]
        fn clipped_triangles_lie_in_the_band_and_never_grow(
            ys in proptest::array::uniform3(-5.0f32..5.0),
            xs in proptest::array::uniform3(-5.0f32..5.0),
            lo in -3.0f32..3.0,
            thick in 0.01f32..3.0,
        ) {
            let band = HeightBand::new(lo, lo + thick);
            let t = [
                Vec3::new(xs[0], ys[0], 0.0),
                Vec3::new(xs[1], ys[1], 1.0),
                Vec3::new(xs[2], ys[2], xs[0]),
            ];
            let pieces = band.clip_triangle(t);
            let sum: f32 = pieces.iter().map(area).sum();
            proptest::prop_assert!(sum <= area(&t) * (1.0 + 1e-4) + 1e-5);
            for p in pieces.iter().flatten() {
                proptest::prop_assert!(p.y >= band.lo - 1e-4 && p.y <= band.hi + 1e-4);
            }
        }
    }

    #[test]
    fn shifting_moves_by_whole_thicknesses() {
        let band = HeightBand::new(0.0, 2.5);
        assert_eq!(band.shifted(1.0), HeightBand::new(2.5, 5.0));
        assert_eq!(band.shifted(-1.0), HeightBand::new(-2.5, 0.0));
    }

    #[test]
    fn untagged_primitives_show_whatever_layers_are_hidden() {
        let mut f = ViewFilter::default();
        f.hidden_layers.insert(2);
        assert!(f.shows_layer(None));
        assert!(f.shows_layer(Some(1)));
        assert!(!f.shows_layer(Some(2)));
    }
}
