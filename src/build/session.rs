//! What comes back after a restart: the last level (when none is given on
//! the command line), and per level and pipeline the stage on screen and
//! the parameters. Stored in the settings file beside the recent files;
//! in-memory settings (tests, `--screenshot`) keep nothing.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use navscope_core::params::ParamValues;

use crate::build::Build;
use crate::build::StageSystems;
use crate::level::CurrentLevel;
use crate::level::Settings;
use crate::level::key;
use crate::model::journal::Journal;
use crate::model::timeline::Timeline;

/// Changes are written at most this often.
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// Restores and remembers the per-level state.
pub struct SessionPlugin;

impl Plugin for SessionPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Restored>()
            .add_systems(Update, (restore, remember).chain().after(StageSystems));
    }
}

/// The parameters the last run left for the open level, put back when it
/// opened: the UI announces them (with a Reset) and the history makes the
/// restore an undo step, so a value that comes back is never a silent one.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Restored {
    /// The level revision the values were restored at.
    pub revision: u64,
    /// How many parameters differ from the values the level opened with.
    pub count: usize,
    /// The values before and after the restore, for the undo step; taken
    /// by the history once recorded.
    pub step: Option<(ParamValues, ParamValues)>,
    /// The user closed the announcement.
    pub dismissed: bool,
}

/// How many parameters of `specs` differ between `before` and `after`.
pub fn changed_count(
    specs: &[navscope_core::ParamSpec],
    before: &ParamValues,
    after: &ParamValues,
) -> usize {
    specs
        .iter()
        .filter(|s| before.get(&s.name) != after.get(&s.name))
        .count()
}

/// The key of the current level and pipeline, if the level is a file.
fn level_key(current: &CurrentLevel) -> Option<String> {
    let path = current.path.as_deref()?;
    let pipeline = current.pipeline.as_ref()?;
    Some(format!("{}|{}", key(path), pipeline.id))
}

fn restore(
    current: Res<CurrentLevel>,
    settings: Res<Settings>,
    mut build: ResMut<Build>,
    mut timeline: ResMut<Timeline>,
    mut restored: ResMut<Restored>,
    mut journal: ResMut<Journal>,
    mut seen: Local<u64>,
) {
    if *seen == current.revision {
        return;
    }
    *seen = current.revision;
    let Some(k) = level_key(&current) else {
        return;
    };
    let saved = settings.params.get(&k).zip(build.pipeline().cloned());
    let saved = saved.and_then(|(text, p)| match ParamValues::from_ron(&p.params, text) {
        Ok(values) => Some((values, p)),
        Err(e) => {
            // A value the pipeline no longer takes: said, and the level
            // opens with its defaults.
            journal.error(format!(
                "{}: the parameters saved for {k} were not restored: {e}",
                crate::level::settings_path()
                    .map_or_else(|| "settings".into(), |p| p.display().to_string())
            ));
            None
        }
    });
    if let Some((values, p)) = saved {
        let before = build
            .params()
            .cloned()
            .unwrap_or_else(|| ParamValues::defaults(&p.params));
        let count = changed_count(&p.params, &before, &values);
        build.set_params(values.clone());
        if count > 0 {
            journal.info(format!(
                "{count} parameter{} restored from the last run",
                if count == 1 { "" } else { "s" }
            ));
            *restored = Restored {
                revision: current.revision,
                count,
                step: Some((before, values)),
                dismissed: false,
            };
        }
    }
    if let Some(stage) = settings.stages.get(&k)
        && timeline.requested.is_none()
    {
        timeline.requested = Some((stage + 1).to_string());
    }
}

/// The level, stage and parameter values [`remember`] last looked at.
type Seen = (String, usize, Option<navscope_core::params::ParamValues>);

#[allow(clippy::too_many_arguments)]
fn remember(
    current: Res<CurrentLevel>,
    build: Res<Build>,
    timeline: Res<Timeline>,
    mut settings: ResMut<Settings>,
    mut journal: ResMut<Journal>,
    mut last_save: Local<Option<Instant>>,
    mut pending: Local<bool>,
    mut seen: Local<Option<Seen>>,
) {
    let Some(k) = level_key(&current) else {
        return;
    };
    let params = build.params();
    // Writing the parameters out to compare them was a twentieth of an idle
    // frame's CPU: only a change of level, stage or values is looked at.
    let same = seen.as_ref().is_some_and(|(level, stage, values)| {
        *level == k && *stage == timeline.current && values.as_ref() == params
    });
    if !same && build.runner().is_some() {
        let ron = params.map(|v| v.to_ron());
        let changed = settings.stages.get(&k) != Some(&timeline.current)
            || ron
                .as_ref()
                .is_some_and(|p| settings.params.get(&k) != Some(p));
        if changed {
            settings.stages.insert(k.clone(), timeline.current);
            if let Some(p) = ron {
                settings.params.insert(k.clone(), p);
            }
            *pending = true;
        }
        *seen = Some((k, timeline.current, params.cloned()));
    }
    if *pending && last_save.is_none_or(|t| t.elapsed() >= SAVE_EVERY) {
        settings.save(&mut journal);
        *last_save = Some(Instant::now());
        *pending = false;
    }
}
