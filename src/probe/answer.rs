//! Draws a pipeline's own answer to the probe ([`ProbeOutcome::Answered`]):
//! its primitives through the same style table as the stages, in front of
//! them, replaced whenever the probe's outcome changes.

use bevy::prelude::*;

use crate::build::StageSystems;
use crate::model::band::ViewFilter;
use crate::probe::Probe;
use crate::probe::ProbeOutcome;
use crate::view::draw::VisualAssets;

/// Marks the entities that draw the probe's answer.
#[derive(Component, Debug, Clone, Copy)]
pub struct AnswerVisual;

/// Draws answered paths (needs the renderer).
pub struct ProbeAnswerPlugin;

impl Plugin for ProbeAnswerPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, redraw.after(StageSystems));
    }
}

/// Depth steps in front of the level the answer's fills are drawn (in front
/// of every stage's).
const FRONT: usize = 64;

fn redraw(
    mut commands: Commands,
    probe: Res<Probe>,
    filter: Res<ViewFilter>,
    current: Res<crate::level::CurrentLevel>,
    old: Query<Entity, With<AnswerVisual>>,
    mut drawn: Local<Option<(u64, ViewFilter)>>,
    mut assets: VisualAssets,
) {
    let key = (probe.revision, filter.clone());
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(ProbeOutcome::Answered { answer, .. }) = &probe.outcome else {
        return;
    };
    let unit = current.extent();
    crate::view::draw::spawn_overlay(
        &mut commands,
        &answer.primitives,
        unit,
        &filter,
        FRONT,
        &mut assets,
        AnswerVisual,
    );
}
