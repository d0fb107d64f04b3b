//! Writing what the user tuned: the NavMesh as JSON (the documented
//! contract), OBJ or a polyanya mesh, and screenshots of the window; and
//! the File menu's keyboard shortcuts.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use crate::build::Build;
use crate::level::CurrentLevel;
use crate::model::journal::Journal;
use crate::model::timeline::UiFocus;
use crate::ui::dialogs::Dialogs;
use crate::ui::dialogs::FileAction;
use crate::ui::dialogs::FileChosen;
use crate::ui::widget_report::UiReport;

/// Writes exports and screenshots the user chose (needs the renderer for
/// screenshots).
pub struct ExportPlugin;

impl Plugin for ExportPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UiReport>()
            .add_systems(Update, (file_shortcuts, write_chosen).chain());
    }
}

/// The file name a save dialog proposes for `action`: the level's name,
/// the pipeline and the kind of file.
pub fn suggested_name(action: FileAction, current: &CurrentLevel, build: &Build) -> String {
    // Embedded levels have a source like "<embedded default>".
    let stem = match current.path.as_deref() {
        Some(p) => p
            .file_stem()
            .map_or("level".to_string(), |s| s.to_string_lossy().into_owned()),
        None => "default".to_string(),
    };
    let pipeline = build.pipeline().map_or("mesh", |p| p.id);
    match action {
        FileAction::ExportJson => format!("{stem}-{pipeline}.navmesh.json"),
        FileAction::ExportObj => format!("{stem}-{pipeline}.navmesh.obj"),
        FileAction::ExportPolyanya => format!("{stem}-{pipeline}.mesh"),
        FileAction::Screenshot => format!("{stem}-{pipeline}.png"),
        FileAction::SavePreset => format!("{stem}-{pipeline}.ron"),
        FileAction::SavePair => format!("{stem}-pair.ron"),
        FileAction::OpenLevel | FileAction::LoadPreset | FileAction::LoadPair => String::new(),
    }
}

/// The file formats the NavMesh is exported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFormat {
    /// navscope's documented JSON contract.
    Json,
    /// The polygons as Wavefront OBJ.
    Obj,
    /// The polygons as a polyanya `.mesh` (version 2), as
    /// `navscope-cli build --polyanya` writes it.
    Polyanya,
}

/// Writes the NavMesh of the build on screen to `path` in `format`, or
/// says why it cannot. JSON and OBJ are streamed from the mesh the build
/// holds: neither a copy of the mesh nor its whole text is made (both are
/// hundreds of MiB on a big raster); the polyanya writer makes its text
/// (the merged polygons are far smaller than the mesh).
pub fn write_navmesh(
    build: &Build,
    path: &std::path::Path,
    format: MeshFormat,
) -> Result<(), String> {
    let none = || "the pipeline has not produced a navigation mesh (yet)".to_string();
    let runner = build.runner().ok_or_else(none)?;
    let mesh = runner.stamped_navmesh().ok_or_else(none)?;
    if format == MeshFormat::Json {
        mesh.mesh
            .validate()
            .map_err(|e| format!("the navigation mesh is invalid: {e}"))?;
    }
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut w = std::io::BufWriter::new(file);
    let written = match format {
        MeshFormat::Obj => mesh.write_obj(&mut w),
        MeshFormat::Json => mesh.write_json(&mut w),
        MeshFormat::Polyanya => std::io::Write::write_all(
            &mut w,
            navscope_path::polyanya::to_polyanya_mesh(mesh.mesh).as_bytes(),
        ),
    };
    written
        .and_then(|()| std::io::Write::flush(&mut w))
        .map_err(|e| e.to_string())
}

fn file_shortcuts(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    current: Res<CurrentLevel>,
    build: Res<Build>,
    mut dialogs: ResMut<Dialogs>,
) {
    let Some(keys) = focus.app_keys(&keys) else {
        return;
    };
    let (ctrl, shift) = (
        crate::model::keys::ctrl(keys),
        crate::model::keys::shift(keys),
    );
    let action = if keys.just_pressed(KeyCode::F12) {
        Some(FileAction::Screenshot)
    } else if !ctrl {
        None
    } else if keys.just_pressed(KeyCode::KeyO) {
        Some(FileAction::OpenLevel)
    } else if keys.just_pressed(KeyCode::KeyE) {
        Some(if shift {
            FileAction::ExportObj
        } else {
            FileAction::ExportJson
        })
    } else if keys.just_pressed(KeyCode::KeyS) {
        Some(FileAction::SavePreset)
    } else if keys.just_pressed(KeyCode::KeyL) {
        Some(FileAction::LoadPreset)
    } else {
        None
    };
    if let Some(a) = action {
        let name = suggested_name(a, &current, &build);
        dialogs.ask(a, &name);
    }
}

fn write_chosen(
    mut commands: Commands,
    mut chosen: MessageReader<FileChosen>,
    build: Res<Build>,
    mut journal: ResMut<Journal>,
    mut report: ResMut<UiReport>,
) {
    for c in chosen.read() {
        let path = c.path.display().to_string();
        let written = match c.action {
            FileAction::ExportJson => write_navmesh(&build, &c.path, MeshFormat::Json),
            FileAction::ExportObj => write_navmesh(&build, &c.path, MeshFormat::Obj),
            FileAction::ExportPolyanya => write_navmesh(&build, &c.path, MeshFormat::Polyanya),
            FileAction::Screenshot => {
                commands
                    .spawn(Screenshot::primary_window())
                    .observe(save_to_disk(c.path.clone()));
                Ok(())
            }
            _ => continue,
        };
        match written {
            Ok(()) => {
                journal.info(format!("wrote {path}"));
                report.exports.push(path);
            }
            Err(e) => journal.error(format!("{path}: cannot write: {e}")),
        }
    }
}
