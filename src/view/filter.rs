//! Applying the view filter: published stages are prepared again, off the
//! frame's critical path, when the slice or colouring changes.

use bevy::prelude::*;

use crate::model::band::ViewFilter;
use crate::model::elements::StageGeometry;

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
            let prepared =
                crate::model::prepare::prepare(&geo.primitives, geo.unit, &filter.prepare);
            geo.prepared = prepared;
            geo.options = filter.prepare;
        }
    }
}
