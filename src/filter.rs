//! What part of the drawing is shown, beyond the timeline and the legend: a
//! height slice, the layers of a multi-layer level, and colouring by value.
//!
//! * The **height slice** keeps only what lies in one band of world heights,
//!   so the voxels and meshes of one floor of a multi-floor level can be seen
//!   without the floors above hiding them. It applies to the level and to
//!   every stage's primitives.
//! * The **layer filter** hides the primitives a pipeline tagged with an
//!   unchecked layer ([`Primitive::layer`]); untagged primitives always show.
//! * **Colour by value** draws primitives that carry a value
//!   ([`Primitive::value`], e.g. the clearance of a medial-axis edge) with a
//!   colour ramp over that kind's range instead of the kind's colour.
//!
//! The slice and the colouring decide which primitives are drawn and in
//! which colour, so they are [`PrepareOptions`]: changing them re-prepares
//! the published stages ([`refilter`]). Layers only flip the visibility of
//! groups, which are split by layer, so toggling one is instant.

use std::collections::BTreeSet;

use bevy::prelude::*;
use navscope_core::Primitive;

use crate::draw;
use crate::stages::StageGeometry;

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

/// Keeps the view filter and re-prepares published stages when it changes
/// (no renderer needed).
pub struct FilterPlugin;

impl Plugin for FilterPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ViewFilter>()
            .add_systems(PostUpdate, refilter.in_set(RefilterSystems));
    }
}

/// The system that re-prepares stages for a changed filter (drawing runs
/// after it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct RefilterSystems;

/// Re-prepares every published stage whose geometry was prepared under other
/// options than the filter's (a build started before the change finishes
/// with the old options and is caught here too).
pub fn refilter(filter: Res<ViewFilter>, mut roots: Query<&mut StageGeometry>) {
    for mut geo in &mut roots {
        if geo.options != filter.prepare {
            let prepared = draw::prepare(&geo.primitives, geo.unit, &filter.prepare);
            geo.prepared = prepared;
            geo.options = filter.prepare;
        }
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
