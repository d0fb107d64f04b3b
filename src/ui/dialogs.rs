//! File dialogs: open a level, load and save presets, export the NavMesh,
//! save a screenshot.
//!
//! Native dialogs come from rfd (the desktop portal) on a thread of their
//! own, so the window keeps repainting. Where no dialog can be shown (no
//! D-Bus session, so no portal, as under Xvfb; or the dialog failed at
//! once, faster than a person can cancel), the app says so in a small
//! window where the user looks and offers a path field instead: before,
//! "Open level…" then did nothing visible at all.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::edit::params::ParamCommand;
use crate::level::LevelRequest;

/// A dialog answered faster than this failed rather than being cancelled.
pub const INSTANT_FAILURE: Duration = Duration::from_millis(300);

/// What a dialog is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// A level to open.
    OpenLevel,
    /// A preset to load.
    LoadPreset,
    /// Where to save a preset.
    SavePreset,
    /// Where to write the NavMesh JSON.
    ExportJson,
    /// Where to write the NavMesh polygons as OBJ.
    ExportObj,
    /// Where to write the NavMesh polygons as a polyanya mesh (version 2).
    ExportPolyanya,
    /// Where to save a screenshot of the window.
    Screenshot,
    /// A preset pair (A's and B's settings) to load.
    LoadPair,
    /// Where to save the preset pair of the build on screen and the pin.
    SavePair,
}

impl FileAction {
    /// The dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            FileAction::OpenLevel => "Open level",
            FileAction::LoadPreset => "Load preset",
            FileAction::SavePreset => "Save preset",
            FileAction::ExportJson => "Export NavMesh JSON",
            FileAction::ExportObj => "Export NavMesh OBJ",
            FileAction::ExportPolyanya => "Export polyanya mesh",
            FileAction::Screenshot => "Save screenshot",
            FileAction::LoadPair => "Load preset pair",
            FileAction::SavePair => "Save preset pair",
        }
    }

    /// True when the dialog picks an existing file (else a new one).
    pub fn opens(self) -> bool {
        matches!(
            self,
            FileAction::OpenLevel | FileAction::LoadPreset | FileAction::LoadPair
        )
    }

    fn filter(self) -> (&'static str, &'static [&'static str]) {
        match self {
            FileAction::OpenLevel => (
                "levels",
                &["json", "ron", "obj", "png", "map", "gltf", "glb", "mesh"],
            ),
            FileAction::LoadPreset | FileAction::SavePreset => ("RON preset", &["ron"]),
            FileAction::LoadPair | FileAction::SavePair => ("Preset pair", &["ron", "json"]),
            FileAction::ExportJson => ("NavMesh JSON", &["json"]),
            FileAction::ExportObj => ("Wavefront OBJ", &["obj"]),
            FileAction::ExportPolyanya => ("polyanya mesh", &["mesh"]),
            FileAction::Screenshot => ("PNG image", &["png"]),
        }
    }
}

/// A chosen file and what it is for.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct FileChosen {
    /// What to do with it.
    pub action: FileAction,
    /// The file.
    pub path: PathBuf,
}

/// The path field shown when no dialog can be.
#[derive(Debug, Clone, PartialEq)]
pub struct PathPrompt {
    /// What the path is for.
    pub action: FileAction,
    /// The text typed so far.
    pub text: String,
    /// Why the field is shown.
    pub why: String,
    /// Shown for the first time: the UI focuses the field and selects the
    /// proposed path, so typing replaces it.
    pub fresh: bool,
}

/// The proposed file as an absolute path in the working directory, so the
/// user sees where it goes.
fn proposed(name: &str) -> String {
    if name.is_empty() {
        return String::new();
    }
    std::env::current_dir()
        .map(|d| d.join(name).display().to_string())
        .unwrap_or_else(|_| name.to_string())
}

/// The answers of the dialogs that closed: the action, the chosen path (none
/// when cancelled) and how long the dialog was open.
type Answers = Arc<Mutex<Vec<(FileAction, Option<PathBuf>, Duration)>>>;

/// Dialogs in flight and the fallback path field.
#[derive(Resource, Default)]
pub struct Dialogs {
    answers: Answers,
    busy: Arc<Mutex<bool>>,
    /// The path field, while shown.
    pub prompt: Option<PathPrompt>,
}

/// True when a desktop portal could answer (a D-Bus session exists).
pub fn portal_available() -> bool {
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty())
}

impl Dialogs {
    /// Asks the user for a file for `action`; `suggested` is the file name a
    /// save dialog proposes.
    pub fn ask(&mut self, action: FileAction, suggested: &str) {
        if !portal_available() {
            self.prompt = Some(PathPrompt {
                action,
                text: proposed(suggested),
                why: "No file dialog is available here (no desktop portal): type a path.".into(),
                fresh: true,
            });
            return;
        }
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        if *busy {
            return;
        }
        *busy = true;
        let (answers, busy) = (self.answers.clone(), self.busy.clone());
        let suggested = suggested.to_string();
        std::thread::spawn(move || {
            let (name, exts) = action.filter();
            let dialog = rfd::FileDialog::new()
                .set_title(action.title())
                .add_filter(name, exts)
                .add_filter("all files", &["*"]);
            let started = Instant::now();
            let path = if action.opens() {
                dialog.pick_file()
            } else {
                dialog.set_file_name(&suggested).save_file()
            };
            answers.lock().unwrap_or_else(|e| e.into_inner()).push((
                action,
                path,
                started.elapsed(),
            ));
            *busy.lock().unwrap_or_else(|e| e.into_inner()) = false;
        });
    }
}

impl Dialogs {
    /// Delivers a path the user typed into the path field.
    pub fn chosen(&mut self, action: FileAction, path: PathBuf) {
        self.answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((action, Some(path), Duration::MAX));
    }
}

/// Keeps the dialogs and delivers what they chose.
pub struct DialogsPlugin;

impl Plugin for DialogsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Dialogs>()
            .add_message::<FileChosen>()
            .add_systems(Update, (deliver, route).chain());
    }
}

fn deliver(
    mut dialogs: ResMut<Dialogs>,
    mut chosen: MessageWriter<FileChosen>,
    mut dropped: MessageReader<FileDragAndDrop>,
) {
    let answers: Vec<_> =
        std::mem::take(&mut *dialogs.answers.lock().unwrap_or_else(|e| e.into_inner()));
    for (action, path, took) in answers {
        match path {
            Some(path) => {
                chosen.write(FileChosen { action, path });
            }
            None if took < INSTANT_FAILURE => {
                dialogs.prompt = Some(PathPrompt {
                    action,
                    text: String::new(),
                    why: "The file dialog could not be shown: type a path.".into(),
                    fresh: true,
                });
            }
            None => {}
        }
    }
    for d in dropped.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            chosen.write(FileChosen {
                action: FileAction::OpenLevel,
                path: path_buf.clone(),
            });
        }
    }
}

fn route(
    mut chosen: MessageReader<FileChosen>,
    mut levels: MessageWriter<LevelRequest>,
    mut params: MessageWriter<ParamCommand>,
    mut compare: MessageWriter<crate::compare::CompareCommand>,
) {
    for c in chosen.read() {
        match c.action {
            FileAction::OpenLevel => {
                levels.write(LevelRequest::Open(c.path.clone()));
            }
            FileAction::LoadPreset => {
                params.write(ParamCommand::LoadPreset(c.path.clone()));
            }
            FileAction::SavePreset => {
                params.write(ParamCommand::SavePreset(c.path.clone()));
            }
            FileAction::LoadPair => {
                compare.write(crate::compare::CompareCommand::LoadPair(c.path.clone()));
            }
            FileAction::SavePair => {
                compare.write(crate::compare::CompareCommand::SavePair(c.path.clone()));
            }
            // Exports and screenshots are written by `export`.
            FileAction::ExportJson
            | FileAction::ExportObj
            | FileAction::ExportPolyanya
            | FileAction::Screenshot => {}
        }
    }
}
