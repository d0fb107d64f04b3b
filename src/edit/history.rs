//! Undo and redo (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y, and the Edit menu) for
//! parameter edits, preset loads and probe moves.
//!
//! Every change is recorded as its state before and after, so undoing is
//! setting the *before* state again. A slider drag sends a new value every
//! frame; changes of the same parameter less than [`COALESCE`] apart are
//! one step. Opening another level clears the history (its parameters and
//! points mean nothing there).

use std::time::{Duration, Instant};

use bevy::prelude::*;
use navscope_core::params::ParamValues;

use crate::build::Build;
use crate::build::StageSystems;
use crate::level::CurrentLevel;
use crate::model::timeline::UiFocus;
use crate::probe::Probe;

/// Edits of one parameter closer together than this are one undo step.
pub const COALESCE: Duration = Duration::from_millis(800);
/// At most this many steps are kept.
pub const DEPTH: usize = 200;

/// One undoable change.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// The parameters changed (one edit, a reset or a preset).
    Params {
        /// Every value before.
        before: ParamValues,
        /// Every value after.
        after: ParamValues,
        /// The parameter a slider changed, for merging a drag into one step.
        key: Option<String>,
    },
    /// The probe's start or goal moved.
    Probe {
        /// Start and goal before.
        before: (Option<Vec3>, Option<Vec3>),
        /// Start and goal after.
        after: (Option<Vec3>, Option<Vec3>),
    },
}

/// The undo and redo stacks.
#[derive(Resource, Debug, Default)]
pub struct History {
    undo: Vec<(Edit, Instant)>,
    redo: Vec<Edit>,
}

impl History {
    /// How many steps can be undone.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// How many steps can be redone.
    pub fn redo_depth(&self) -> usize {
        self.redo.len()
    }

    fn push(&mut self, edit: Edit) {
        self.redo.clear();
        self.undo.push((edit, Instant::now()));
        if self.undo.len() > DEPTH {
            self.undo.remove(0);
        }
    }

    /// Records a parameter change (nothing when nothing changed).
    /// `dragging` says a slider drag is still under way: its edits of the
    /// same parameter are one step however slow the frames are.
    pub fn params_changed(
        &mut self,
        before: ParamValues,
        after: ParamValues,
        key: Option<&str>,
        dragging: bool,
    ) {
        if before == after {
            return;
        }
        if let (
            Some(k),
            Some((
                Edit::Params {
                    after: last,
                    key: Some(lk),
                    ..
                },
                at,
            )),
        ) = (key, self.undo.last_mut())
            && lk == k
            && (dragging || at.elapsed() < COALESCE)
            && self.redo.is_empty()
        {
            *last = after;
            *at = Instant::now();
            return;
        }
        self.push(Edit::Params {
            before,
            after,
            key: key.map(str::to_string),
        });
    }

    /// Records a probe move (nothing when the points did not change).
    pub fn probe_moved(
        &mut self,
        before: (Option<Vec3>, Option<Vec3>),
        after: (Option<Vec3>, Option<Vec3>),
    ) {
        if before != after {
            self.push(Edit::Probe { before, after });
        }
    }

    /// Takes the last step off the undo stack; its `before` is to be set.
    pub fn undo(&mut self) -> Option<Edit> {
        let (e, _) = self.undo.pop()?;
        self.redo.push(e.clone());
        Some(e)
    }

    /// Takes the last undone step back; its `after` is to be set.
    pub fn redo(&mut self) -> Option<Edit> {
        let e = self.redo.pop()?;
        self.undo.push((e.clone(), Instant::now() - COALESCE));
        Some(e)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

/// Asks for an undo or a redo (the Edit menu and the shortcuts send it).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryCommand {
    /// Undo the last step.
    Undo,
    /// Redo the last undone step.
    Redo,
}

/// Keeps the history and applies undo and redo (no renderer needed).
pub struct HistoryPlugin;

impl Plugin for HistoryPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<History>()
            .add_message::<HistoryCommand>()
            .add_systems(
                Update,
                (forget_on_new_level, record_restore, shortcuts, apply)
                    .chain()
                    .before(StageSystems),
            );
    }
}

fn forget_on_new_level(
    current: Res<CurrentLevel>,
    mut history: ResMut<History>,
    mut seen: Local<u64>,
) {
    if *seen != current.revision {
        *seen = current.revision;
        history.clear();
    }
}

/// Parameters restored from the last run are one undo step: Ctrl+Z goes
/// back to the values the level opened with.
fn record_restore(
    restored: Option<ResMut<crate::build::session::Restored>>,
    mut history: ResMut<History>,
) {
    let Some(mut restored) = restored else {
        return;
    };
    // Looked at before taken: a mutable access every frame would mark the
    // resource changed in every frame.
    if restored.step.is_some()
        && let Some((before, after)) = restored.step.take()
    {
        history.params_changed(before, after, None, false);
    }
}

fn shortcuts(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut out: MessageWriter<HistoryCommand>,
) {
    let Some(keys) = focus.app_keys(&keys) else {
        return;
    };
    let (ctrl, shift) = (
        crate::model::keys::ctrl(keys),
        crate::model::keys::shift(keys),
    );
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        out.write(if shift {
            HistoryCommand::Redo
        } else {
            HistoryCommand::Undo
        });
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        out.write(HistoryCommand::Redo);
    }
}

fn apply(
    mut commands: MessageReader<HistoryCommand>,
    mut history: ResMut<History>,
    mut build: ResMut<Build>,
    mut probe: ResMut<Probe>,
) {
    for c in commands.read() {
        let (edit, undo) = match c {
            HistoryCommand::Undo => (history.undo(), true),
            HistoryCommand::Redo => (history.redo(), false),
        };
        match edit {
            Some(Edit::Params { before, after, .. }) => {
                build.set_params(if undo { before } else { after });
            }
            Some(Edit::Probe { before, after }) => {
                let (s, g) = if undo { before } else { after };
                probe.set_points(s, g);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::{ParamSpec, ParamValue};

    fn values(x: f64) -> ParamValues {
        let specs = [ParamSpec::float("r", "R", "m", 1.0, 0.0, 10.0, 0.1, "")];
        let mut v = ParamValues::defaults(&specs);
        v.set(&specs, "r", ParamValue::Float(x)).unwrap();
        v
    }

    #[test]
    fn a_drag_is_one_step_and_undo_redo_walk_the_stack() {
        let mut h = History::default();
        // A slider drag: 1 -> 2 -> 3 -> 4, one step.
        h.params_changed(values(1.0), values(2.0), Some("r"), false);
        h.params_changed(values(2.0), values(3.0), Some("r"), false);
        h.params_changed(values(3.0), values(4.0), Some("r"), true);
        assert_eq!(h.undo_depth(), 1);
        h.probe_moved((None, None), (Some(Vec3::ONE), None));
        h.probe_moved((Some(Vec3::ONE), None), (Some(Vec3::ONE), None));
        assert_eq!(h.undo_depth(), 2, "an unchanged probe is not a step");
        assert!(matches!(
            h.undo(),
            Some(Edit::Probe {
                before: (None, None),
                ..
            })
        ));
        match h.undo() {
            Some(Edit::Params { before, after, .. }) => {
                assert_eq!(before, values(1.0));
                assert_eq!(after, values(4.0));
            }
            other => panic!("expected the drag, got {other:?}"),
        }
        assert!(h.undo().is_none());
        assert_eq!(h.redo_depth(), 2);
        assert!(matches!(h.redo(), Some(Edit::Params { .. })));
        // A new edit drops what could be redone.
        h.params_changed(values(4.0), values(5.0), Some("r"), false);
        assert_eq!(h.redo_depth(), 0);
        assert_eq!(
            h.undo_depth(),
            2,
            "redone step, then a new one (not merged)"
        );
    }

    #[test]
    fn edits_of_other_parameters_are_separate_steps() {
        let mut h = History::default();
        h.params_changed(values(1.0), values(2.0), Some("r"), false);
        h.params_changed(values(2.0), values(3.0), Some("s"), false);
        h.params_changed(values(3.0), values(3.0), Some("s"), false);
        h.params_changed(values(3.0), values(4.0), None, false);
        assert_eq!(h.undo_depth(), 3);
    }
}
