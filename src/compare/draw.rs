//! Drawing the comparison: A-only and B-only ground as two colours (the
//! style table's `difference/*` rows), made again only when the result or
//! the toggle changes.

use bevy::prelude::*;

use crate::compare::Compare;
use crate::model::band::ViewFilter;
use crate::view::draw::VisualAssets;

/// Draws the difference (needs the renderer).
pub struct CompareDrawPlugin;

impl Plugin for CompareDrawPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw_difference);
    }
}

/// Marks the difference's drawing.
#[derive(Component, Clone)]
struct CompareVisual;

/// Drawn in front of every stage.
const FRONT: usize = 40;

fn draw_difference(
    mut commands: Commands,
    compare: Res<Compare>,
    filter: Res<ViewFilter>,
    current: Res<crate::level::CurrentLevel>,
    old: Query<Entity, With<CompareVisual>>,
    mut assets: VisualAssets,
    mut drawn: Local<Option<(u64, bool)>>,
) {
    let key = (compare.revision, compare.show_difference);
    if *drawn == Some(key) && !filter.is_changed() {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(result) = compare.result.as_ref().filter(|_| compare.show_difference) else {
        return;
    };
    let unit = current.extent();
    crate::view::draw::spawn_overlay(
        &mut commands,
        &result.difference.primitives(),
        unit,
        &filter,
        FRONT,
        &mut assets,
        CompareVisual,
    );
}
