//! Command-line arguments: `navscope [LEVEL] [--pipeline P] [--stage N]
//! [--from X,Y,Z --to X,Y,Z] [--slice LO,HI] [--budget SIZE] [--screenshot F.png] [--measure]
//! [--cpu]`.
//!
//! Parsed by hand (four options do not justify clap's build time in the
//! app). `--stage` takes a stage id (`cells`) or a 1-based position as the
//! timeline numbers them (`4`).

use std::ffi::OsString;
use std::path::PathBuf;

use bevy::prelude::{Resource, Vec3};

/// The usage text printed by `--help` and after a bad argument.
pub const USAGE: &str =
    "usage: navscope [LEVEL] [--pipeline P] [--stage N|ID] [--from X,Y,Z --to X,Y,Z] [--slice LO,HI] [--budget SIZE] [--screenshot F.png] [--measure] [--cpu]

  LEVEL             level file to open (default: the embedded sample floor plan)
  --pipeline P      pipeline to build with (default: the one remembered for the file,
                    else the first that accepts the level)
  --stage N|ID      stage to show: 1-based position in the timeline or stage id
  --from X,Y,Z      path probe start (world metres), as a click would set it
  --to X,Y,Z        path probe goal, as a shift-click would set it
  --slice LO,HI     show only what lies between heights LO and HI (world metres)
  --budget SIZE     memory budget of the loader and every stage for this run, e.g. 512M, 4G,
                    unlimited (default: the one chosen under Edit > Memory budget, else 2G)
  --screenshot F    render the chosen stage, save it as PNG to F and exit
  --measure         measure the app's own CPU time per frame (apart from the renderer's)
                    idle, while scrubbing every stage, per pick query and while a
                    parameter changes every half second; print one row and exit
  --cpu             measure the CPU time of every frame (main schedules run on one
                    thread) and report the frames around stage switches
  -h, --help        this text

keys: F1 shortcuts, Left/Right stage, Up/Down sub-step, Space play, F frame, T top view";

/// What the user asked for on the command line.
#[derive(Clone, Debug, Default, PartialEq, Resource)]
pub struct Args {
    /// Level to open; `None` opens the embedded default level.
    pub level: Option<PathBuf>,
    /// Pipeline id to use.
    pub pipeline: Option<String>,
    /// Stage to show, as given (id or 1-based number).
    pub stage: Option<String>,
    /// Path probe start point.
    pub from: Option<Vec3>,
    /// Path probe goal point.
    pub to: Option<Vec3>,
    /// Height slice to start with: lowest and highest height shown.
    pub slice: Option<(f32, f32)>,
    /// Where to save a screenshot before exiting.
    pub screenshot: Option<PathBuf>,
    /// Run the frame-time measurement and exit.
    pub measure: bool,
    /// Measure the app's CPU time per frame while it runs.
    pub cpu: bool,
    /// Memory budget for this run (not remembered).
    pub budget: Option<navscope_core::MemoryBudget>,
}

/// Why the arguments were not accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    /// `--help` was asked for.
    Help,
    /// A bad argument, with the message to print.
    Bad(String),
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, CliError> {
    let mut out = Args::default();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let text = arg.to_string_lossy().into_owned();
        let mut value = |name: &str| -> Result<OsString, CliError> {
            it.next()
                .ok_or_else(|| CliError::Bad(format!("{name} needs a value")))
        };
        match text.as_str() {
            "-h" | "--help" => return Err(CliError::Help),
            "--pipeline" => {
                out.pipeline = Some(value("--pipeline")?.to_string_lossy().into_owned())
            }
            "--stage" => out.stage = Some(value("--stage")?.to_string_lossy().into_owned()),
            "--from" => out.from = Some(point("--from", &value("--from")?)?),
            "--to" => out.to = Some(point("--to", &value("--to")?)?),
            "--slice" => out.slice = Some(band(&value("--slice")?)?),
            "--screenshot" => out.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--budget" => {
                let v = value("--budget")?;
                let b = navscope_core::MemoryBudget::parse(&v.to_string_lossy())
                    .map_err(|e| CliError::Bad(format!("--budget: {e}")))?;
                out.budget = Some(b);
            }
            "--measure" => out.measure = true,
            "--cpu" => out.cpu = true,
            s if s.starts_with('-') && s.len() > 1 => {
                return Err(CliError::Bad(format!("unknown option '{s}'")));
            }
            _ => {
                if out.level.is_some() {
                    return Err(CliError::Bad(format!(
                        "only one level can be opened (got a second: '{text}')"
                    )));
                }
                out.level = Some(PathBuf::from(arg));
            }
        }
    }
    Ok(out)
}

/// Parses exactly `count` comma-separated finite numbers for option `name`;
/// `shape` names them in the error (`X,Y,Z`).
fn numbers(name: &str, v: &OsString, count: usize, shape: &str) -> Result<Vec<f32>, CliError> {
    let text = v.to_string_lossy();
    let parts: Vec<f32> = text
        .split(',')
        .filter_map(|t| t.trim().parse::<f32>().ok())
        .filter(|x| x.is_finite())
        .collect();
    if text.split(',').count() == count && parts.len() == count {
        Ok(parts)
    } else {
        Err(CliError::Bad(format!(
            "{name} needs {count} numbers {shape}, got '{text}'"
        )))
    }
}

/// Parses `X,Y,Z` for option `name` (also a point typed in the probe
/// panel).
pub(crate) fn point(name: &str, v: &OsString) -> Result<Vec3, CliError> {
    numbers(name, v, 3, "X,Y,Z").map(|p| Vec3::new(p[0], p[1], p[2]))
}

/// Parses `--slice LO,HI`.
fn band(v: &OsString) -> Result<(f32, f32), CliError> {
    numbers("--slice", v, 2, "LO,HI").map(|p| (p[0], p[1]))
}

/// Resolves a `--stage` value against a pipeline's stage ids: an id, or a
/// 1-based position. Returns the 0-based index or a message listing the
/// choices.
pub fn resolve_stage(given: &str, ids: &[&str]) -> Result<usize, String> {
    if let Some(i) = ids.iter().position(|s| *s == given) {
        return Ok(i);
    }
    match given.parse::<usize>() {
        Ok(n) if n >= 1 && n <= ids.len() => Ok(n - 1),
        _ => Err(format!(
            "no stage '{given}': use 1..={} or one of {}",
            ids.len(),
            ids.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: &[&str]) -> Result<Args, CliError> {
        parse(v.iter().map(OsString::from))
    }

    #[test]
    fn parses_every_option() {
        let a = p(&[
            "lvl.json",
            "--pipeline",
            "convex",
            "--stage",
            "3",
            "--screenshot",
            "o.png",
        ])
        .unwrap();
        assert_eq!(a.level, Some(PathBuf::from("lvl.json")));
        assert_eq!(a.pipeline.as_deref(), Some("convex"));
        assert_eq!(a.stage.as_deref(), Some("3"));
        assert_eq!(a.screenshot, Some(PathBuf::from("o.png")));
        assert_eq!(p(&[]).unwrap(), Args::default());
        let a = p(&["--from", "1,0,-2.5", "--to", "3, 0, 4"]).unwrap();
        assert_eq!(a.from, Some(Vec3::new(1.0, 0.0, -2.5)));
        assert_eq!(a.to, Some(Vec3::new(3.0, 0.0, 4.0)));
        assert_eq!(p(&["--slice", "0.5,-1"]).unwrap().slice, Some((0.5, -1.0)));
        assert_eq!(
            p(&["--budget", "512M"]).unwrap().budget,
            Some(navscope_core::MemoryBudget::new(512 << 20))
        );
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(matches!(p(&["--stage"]), Err(CliError::Bad(m)) if m.contains("--stage")));
        assert!(matches!(p(&["--bogus"]), Err(CliError::Bad(m)) if m.contains("--bogus")));
        assert!(matches!(p(&["a", "b"]), Err(CliError::Bad(_))));
        assert_eq!(p(&["-h"]), Err(CliError::Help));
        assert!(matches!(p(&["--from", "1,2"]), Err(CliError::Bad(m)) if m.contains("--from")));
        assert!(matches!(p(&["--to", "1,2,nan"]), Err(CliError::Bad(_))));
        assert!(matches!(p(&["--slice", "1"]), Err(CliError::Bad(m)) if m.contains("LO,HI")));
        assert!(matches!(p(&["--slice", "1,2,3"]), Err(CliError::Bad(_))));
        assert!(
            matches!(p(&["--budget", "lots"]), Err(CliError::Bad(m)) if m.contains("--budget") && m.contains("lots"))
        );
    }

    #[test]
    fn stages_by_id_or_position() {
        let ids = ["notches", "portals", "cells"];
        assert_eq!(resolve_stage("cells", &ids), Ok(2));
        assert_eq!(resolve_stage("1", &ids), Ok(0));
        assert!(resolve_stage("0", &ids).is_err());
        assert!(resolve_stage("4", &ids).unwrap_err().contains("notches"));
    }
}
