//! A Quake map's player starts and exits
//! ([`navscope_levels::brushes::spots`], as `navscope-cli routes` finds
//! them), offered by the probe panel as its start and goal; a point is
//! dropped to the NavMesh's floor under it ([`navscope_explain::floor_under`]),
//! as Quake lets a player spawned in the air fall.

use bevy::prelude::*;
use navscope_core::level::LevelData;
use navscope_levels::brushes::spots::{self, Spot};

use crate::level::CurrentLevel;

/// The open level's starts and exits (empty for a level that is not a
/// brush level).
#[derive(Resource, Debug, Default)]
pub struct LevelSpots {
    /// Player starts, in entity order.
    pub starts: Vec<Spot>,
    /// Exits (`trigger_changelevel`), in entity order.
    pub exits: Vec<Spot>,
    revision: Option<u64>,
}

/// Finds the spots again when another level (or a reload) is open.
pub(crate) fn refresh(current: Option<Res<CurrentLevel>>, mut spots: ResMut<LevelSpots>) {
    let Some(current) = current else {
        return;
    };
    if spots.revision == Some(current.revision) {
        return;
    }
    let (starts, exits) = match &current.level.data {
        LevelData::Brushes(b) => (spots::starts(b), spots::exits(b)),
        _ => (Vec::new(), Vec::new()),
    };
    *spots = LevelSpots {
        starts,
        exits,
        revision: Some(current.revision),
    };
}
