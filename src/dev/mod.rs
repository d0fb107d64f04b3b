//! The app's development hooks, in one place: what tests, benchmarks and
//! measurements use to drive the app and read it back, and a person using
//! it never sees.
//!
//! - [`report`]: the state report for end-to-end tests (`NAVSCOPE_REPORT`);
//! - [`screenshot`]: `--screenshot`, render a stage, save it and exit;
//! - [`cpu`]: the app's own CPU time per frame (`--cpu`, `--measure`, the
//!   drawing tests and the frame bench);
//! - [`measure`]: `--measure`, the measuring protocol that prints one row
//!   and exits;
//! - [`extraction_stand_in`]: what the renderer's extraction does to the
//!   main world, for the app without a renderer (the frame bench).
//!
//! [`DevPlugin`] adds the ones the command line and the environment ask
//! for; nothing here runs otherwise.
//!
//! They are compiled into every build rather than kept behind a cargo
//! feature: the end-to-end tests drive the real binary
//! (`CARGO_BIN_EXE_navscope`) and read its state report, and cargo builds
//! that binary with the features of the command that runs the tests, so a
//! feature would have to be named in every `cargo test` (a test marked
//! `required-features` is skipped without a word when it is not). And
//! `--screenshot`, `--measure` and `--cpu` are documented options of the
//! app. Kept apart here, they are one folder that the rest of the app does
//! not import (only [`crate::app`] adds them).

pub mod cpu;
pub mod extraction_stand_in;
pub mod measure;
pub mod report;
pub mod screenshot;

use std::path::PathBuf;

use bevy::prelude::*;

use crate::cli::Args;

/// Adds the development hooks asked for: the state report when
/// [`report::REPORT_ENV`] names a file, the screenshot, the CPU clock and
/// the measurement when the command line asks for them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DevPlugin {
    /// Where to write the state report.
    pub report: Option<PathBuf>,
    /// Where to save a screenshot before exiting.
    pub screenshot: Option<PathBuf>,
    /// Run the measurement and exit.
    pub measure: bool,
    /// Measure the app's CPU time per frame while it runs.
    pub cpu: bool,
}

impl DevPlugin {
    /// The hooks `args` and the environment ask for.
    pub fn new(args: &Args) -> Self {
        Self {
            report: std::env::var_os(report::REPORT_ENV).map(PathBuf::from),
            screenshot: args.screenshot.clone(),
            measure: args.measure,
            cpu: args.cpu,
        }
    }

    /// Whether the CPU clock runs ([`cpu::CpuPlugin`]): the app then
    /// renders without pipelining (see [`crate::app::windowed`]).
    pub fn clocks_frames(&self) -> bool {
        self.measure || self.cpu
    }

    /// Whether the app runs by itself and exits (a screenshot, a
    /// measurement): it then neither restores nor saves the session, and
    /// draws every frame instead of waiting for input.
    pub fn runs_unattended(&self) -> bool {
        self.screenshot.is_some() || self.measure
    }
}

impl Plugin for DevPlugin {
    fn build(&self, app: &mut App) {
        if self.clocks_frames() {
            app.add_plugins(cpu::CpuPlugin);
        }
        if self.measure {
            app.add_plugins(measure::MeasurePlugin);
        }
        if let Some(path) = &self.report {
            app.add_plugins(report::ReportPlugin { path: path.clone() });
        }
        if let Some(path) = &self.screenshot {
            app.add_plugins(screenshot::ScreenshotPlugin { path: path.clone() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screenshot_or_a_measurement_runs_unattended_and_only_the_clocks_time_frames() {
        let plain = DevPlugin::default();
        assert!(!plain.runs_unattended() && !plain.clocks_frames());
        let shot = DevPlugin {
            screenshot: Some("shot.png".into()),
            ..default()
        };
        assert!(shot.runs_unattended() && !shot.clocks_frames());
        let measure = DevPlugin {
            measure: true,
            ..default()
        };
        assert!(measure.runs_unattended() && measure.clocks_frames());
        let cpu = DevPlugin {
            cpu: true,
            ..default()
        };
        assert!(!cpu.runs_unattended() && cpu.clocks_frames());
    }
}
