//! `--screenshot`: render the chosen stage, save it as PNG and exit.
//!
//! Waits until the level is loaded, the build is published and the chosen
//! stage is on screen, lets a few frames pass so meshes reach the GPU, then
//! captures the primary window. Exits with status 1 when the level could not
//! be opened or the capture does not complete within two minutes.

use std::path::PathBuf;
use std::time::Instant;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use crate::build::Build;
use crate::level::CurrentLevel;
use crate::level::Loading;
use crate::model::timeline::Timeline;
use crate::view::scene::ViewSettings;

/// Frames to wait once everything is ready, so uploads and the camera settle.
pub const SETTLE_FRAMES: u32 = 20;

/// Takes one screenshot and exits.
pub struct ScreenshotPlugin {
    /// Where to save the PNG.
    pub path: PathBuf,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Capture {
            path: self.path.clone(),
            state: State::Loading,
            started: Instant::now(),
        })
        .add_systems(Last, capture);
    }
}

#[derive(Debug, PartialEq)]
enum State {
    Loading,
    Settling(u32),
    Saving(u32),
}

#[derive(Resource)]
struct Capture {
    path: PathBuf,
    state: State,
    started: Instant,
}

fn capture(
    mut commands: Commands,
    mut cap: ResMut<Capture>,
    (current, loading): (Res<CurrentLevel>, Res<Loading>),
    build: Res<Build>,
    timeline: Res<Timeline>,
    mut view: ResMut<ViewSettings>,
    mut exit: MessageWriter<AppExit>,
) {
    view.instant = true;
    if cap.started.elapsed().as_secs() > 120 {
        eprintln!("navscope: screenshot not taken within 120 s");
        exit.write(AppExit::from_code(1));
        return;
    }
    match cap.state {
        State::Loading => {
            if let Some(e) = &current.last_error {
                eprintln!("{e}");
                exit.write(AppExit::from_code(1));
                return;
            }
            let built = !loading.is_loading()
                && (build.pipeline().is_none() || (build.published > 0 && !build.is_busy()));
            if built && timeline.requested.is_none() {
                cap.state = State::Settling(SETTLE_FRAMES);
            }
        }
        State::Settling(0) => {
            if let Some(dir) = cap.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).ok();
            }
            std::fs::remove_file(&cap.path).ok();
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(cap.path.clone()));
            cap.state = State::Saving(0);
        }
        State::Settling(n) => cap.state = State::Settling(n - 1),
        State::Saving(n) => {
            let done = std::fs::metadata(&cap.path).is_ok_and(|m| m.len() > 0);
            if done && n > 5 {
                println!("saved {}", cap.path.display());
                exit.write(AppExit::Success);
            } else {
                cap.state = State::Saving(n + 1);
            }
        }
    }
}
