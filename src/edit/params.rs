//! Parameters: edits from the panel, resets, RON presets and agent
//! presets ([`crate::model::agent`]).
//!
//! The panel (drawn by `panels` from each parameter's [`ParamSpec`]) sends
//! [`ParamCommand`]s; this module applies them to the [`Build`], which
//! re-runs from the first stage that reads the changed parameter. A bad
//! preset file is reported in the [`Journal`] and changes nothing.

use std::path::PathBuf;

use bevy::prelude::*;
use navscope_core::params::ParamValues;
use navscope_core::{ParamSpec, ParamValue};

use crate::build::Build;
use crate::build::StageSystems;
use crate::edit::history::History;
use crate::level::CurrentLevel;
use crate::model::agent::with_agent;
use crate::model::journal::Journal;
use crate::model::timeline::UiFocus;

/// Applies parameter commands.
pub struct ParamsPlugin;

impl Plugin for ParamsPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<ParamCommand>()
            .init_resource::<Journal>()
            .add_systems(Update, apply_commands.before(StageSystems));
    }
}

/// Something the user did to the parameters.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ParamCommand {
    /// Set one parameter.
    Set(String, ParamValue),
    /// Set one parameter back to its default (the paper's value).
    Reset(String),
    /// Set every parameter back to its default.
    ResetAll,
    /// Read a RON preset from a file.
    LoadPreset(PathBuf),
    /// Write the current values to a RON preset file.
    SavePreset(PathBuf),
    /// Set the agent parameters to the named agent preset's
    /// (`navscope_pipelines::agents`), or to the pipeline's defaults
    /// (`None`); the other parameters are kept.
    Agent(Option<String>),
}

/// The spec of parameter `name` in `specs`.
pub fn spec<'a>(specs: &'a [ParamSpec], name: &str) -> Option<&'a ParamSpec> {
    specs.iter().find(|s| s.name == name)
}

fn apply_commands(
    mut commands: MessageReader<ParamCommand>,
    mut build: ResMut<Build>,
    mut journal: ResMut<Journal>,
    mut history: Option<ResMut<History>>,
    focus: Option<Res<UiFocus>>,
    current: Option<Res<CurrentLevel>>,
) {
    let dragging = focus.is_some_and(|f| f.using_pointer);
    for c in commands.read() {
        let Some(pipeline) = build.pipeline().cloned() else {
            journal.error("no pipeline is loaded, so there are no parameters to change");
            continue;
        };
        let before = build.params().cloned();
        match c {
            ParamCommand::Set(name, value) => {
                if let Err(e) = build.set_param(name, value.clone()) {
                    journal.error(e.to_string());
                }
            }
            ParamCommand::Reset(name) => match spec(&pipeline.params, name) {
                Some(s) => {
                    if let Err(e) = build.set_param(name, s.default.clone()) {
                        journal.error(e.to_string());
                    }
                }
                None => journal.error(format!("unknown parameter '{name}'")),
            },
            ParamCommand::ResetAll => {
                build.set_params(ParamValues::defaults(&pipeline.params));
            }
            ParamCommand::LoadPreset(path) => {
                let loaded = std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| {
                        ParamValues::from_ron(&pipeline.params, &text).map_err(|e| e.to_string())
                    });
                match loaded {
                    Ok(values) => {
                        build.set_params(values);
                        journal.info(format!("loaded preset {}", path.display()));
                    }
                    Err(e) => journal.error(format!("{}: {e}", path.display())),
                }
            }
            ParamCommand::Agent(name) => {
                let (Some(current), Some(values)) = (current.as_ref(), build.params().cloned())
                else {
                    continue;
                };
                let preset = match name.as_deref().map(navscope_pipelines::agents::by_name) {
                    Some(Err(e)) => {
                        journal.error(e);
                        continue;
                    }
                    Some(Ok(p)) => Some(p),
                    None => None,
                };
                match with_agent(&pipeline, &current.level, &values, preset) {
                    Ok(v) => {
                        build.set_params(v);
                    }
                    Err(e) => journal.error(e),
                }
            }
            ParamCommand::SavePreset(path) => {
                let Some(values) = build.params() else {
                    continue;
                };
                match std::fs::write(path, values.to_ron()) {
                    Ok(()) => journal.info(format!("saved preset {}", path.display())),
                    Err(e) => {
                        journal.error(format!("{}: cannot write preset: {e}", path.display()))
                    }
                }
            }
        }
        if let (Some(h), Some(before), Some(after)) =
            (history.as_mut(), before, build.params().cloned())
        {
            let key = match c {
                ParamCommand::Set(name, _) => Some(name.as_str()),
                _ => None,
            };
            h.params_changed(before, after, key, dragging);
        }
    }
}
