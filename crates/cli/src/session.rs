//! Resolving a level, a pipeline and parameter settings into a ready
//! [`Runner`], shared by every command; and the CLI's error type.

use std::fmt;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use navscope_core::level::Level;
use navscope_core::params::ParamValues;
use navscope_core::{MemoryBudget, Pipeline, Runner};

use crate::BuildOptions;

/// A failure, with the exit status it maps to.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments (exit 2).
    Usage(String),
    /// An invalid level or a failed build (exit 1).
    Failed(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Failed(_) => ExitCode::from(1),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "navscope-cli: {m}"),
            CliError::Failed(m) => write!(f, "{m}"),
        }
    }
}

/// Loads a level; a bad file is a one-line failure naming it. The memory
/// budget caps the file size the loader reads as well.
pub fn load_level(path: &Path, budget: MemoryBudget) -> Result<Level, CliError> {
    navscope_levels::load_with(path, &navscope_levels::Budget::within(budget))
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// The pipeline named by `--pipeline`, or the first that accepts the level.
pub fn pipeline_for(level: &Level, requested: Option<&str>) -> Result<Arc<Pipeline>, CliError> {
    match requested {
        Some(id) => {
            let p = navscope_pipelines::by_id(id).ok_or_else(|| {
                CliError::Usage(format!(
                    "unknown pipeline '{id}' (known: {}, navmesh)",
                    navscope_pipelines::ids().join(", ")
                ))
            })?;
            if !p.accepts.contains(&level.kind()) {
                return Err(CliError::Usage(format!(
                    "pipeline '{id}' does not accept a {} ({} is one)",
                    level.kind().name(),
                    level.source
                )));
            }
            Ok(p)
        }
        None => navscope_pipelines::for_kind(level.kind())
            .into_iter()
            .next()
            .ok_or_else(|| {
                CliError::Failed(format!(
                    "{}: no pipeline accepts a {} yet",
                    level.source,
                    level.kind().name()
                ))
            }),
    }
}

/// Parameter values from the pipeline's defaults, the preset file, the
/// agent and the `--set` options, in that order. The agent is `--agent`'s,
/// or without it (and without a preset file) the one the level opens with
/// ([`navscope_pipelines::agents::for_level`]: Quake's player for a
/// `.map`); `--agent default` keeps the pipeline's own.
pub fn param_values(
    pipeline: &Pipeline,
    level: &Level,
    opts: &BuildOptions,
) -> Result<ParamValues, CliError> {
    let mut values = match &opts.preset {
        Some(p) => {
            navscope_levels::check_regular_file(p).map_err(|e| CliError::Failed(e.to_string()))?;
            let text = std::fs::read_to_string(p)
                .map_err(|e| CliError::Failed(format!("{}: {e}", p.display())))?;
            ParamValues::from_ron(&pipeline.params, &text)
                .map_err(|e| CliError::Failed(format!("{}: {e}", p.display())))?
        }
        None => ParamValues::defaults(&pipeline.params),
    };
    if let Some(agent) = agent_for(level, opts)? {
        agent
            .apply(pipeline, level, &mut values)
            .map_err(|e| CliError::Failed(format!("{}: {e}", level.source)))?;
    }
    for s in &opts.set {
        apply_setting(pipeline, &mut values, s)?;
    }
    Ok(values)
}

/// The agent preset a build uses (see [`param_values`]).
pub fn agent_for(
    level: &Level,
    opts: &BuildOptions,
) -> Result<Option<&'static navscope_pipelines::agents::Preset>, CliError> {
    match opts.agent.as_deref() {
        Some("default") => Ok(None),
        Some(name) => navscope_pipelines::agents::by_name(name)
            .map(Some)
            .map_err(CliError::Usage),
        None if opts.preset.is_none() => Ok(navscope_pipelines::agents::for_level(level)),
        None => Ok(None),
    }
}

/// Applies one `NAME=VALUE` setting.
pub fn apply_setting(
    pipeline: &Pipeline,
    values: &mut ParamValues,
    setting: &str,
) -> Result<(), CliError> {
    let (name, text) = setting
        .split_once('=')
        .ok_or_else(|| CliError::Usage(format!("'{setting}' is not NAME=VALUE")))?;
    let spec = navscope_core::params::spec(&pipeline.params, name.trim())
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let v = spec
        .parse(text)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    values
        .set(&pipeline.params, name.trim(), v)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(())
}

/// A runner for the level and pipeline with the requested parameters and
/// memory budget.
pub fn runner(level: Level, opts: &BuildOptions) -> Result<Runner, CliError> {
    let pipeline = pipeline_for(&level, opts.pipeline.as_deref())?;
    let values = param_values(&pipeline, &level, opts)?;
    let level = converted(&pipeline, &Arc::new(level))?;
    let mut r = Runner::new(pipeline, level);
    r.set_params(values);
    r.set_budget(opts.budget());
    Ok(r)
}

/// The level as `pipeline` reads it (a brush level becomes a triangle mesh
/// for `voxel`; see `navscope_pipelines::level_for`).
pub fn converted(pipeline: &Pipeline, level: &Arc<Level>) -> Result<Arc<Level>, CliError> {
    navscope_pipelines::level_for(pipeline, level).map_err(CliError::Failed)
}

/// Turns the first stage failure of a finished run into a one-line error
/// `LEVEL: stage 'ID': PROBLEM`, the level named once.
pub fn check_run(r: &Runner) -> Result<(), CliError> {
    match r.first_error() {
        None => Ok(()),
        Some((i, e)) => {
            // Pipelines name the level in their messages already.
            let source = &r.level().source;
            let text = e.to_string();
            let problem = text
                .strip_prefix(source.as_str())
                .and_then(|t| t.strip_prefix(": "))
                .unwrap_or(&text);
            Err(CliError::Failed(format!(
                "{source}: stage '{}': {}",
                r.pipeline().stages[i].info.id,
                problem.split_whitespace().collect::<Vec<_>>().join(" ")
            )))
        }
    }
}

/// True when `path` is a NavMesh JSON document rather than a level (read
/// from the first kilobytes only).
pub fn looks_like_navmesh(path: &Path) -> bool {
    use std::io::Read;
    // A FIFO or device is not opened here; loading it reports why.
    if navscope_levels::check_regular_file(path).is_err() {
        return false;
    }
    let mut head = [0u8; 4096];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    String::from_utf8_lossy(&head[..n]).contains(navscope_core::navmesh::FORMAT)
}

/// Reads a NavMesh JSON document; errors name the file.
pub fn load_navmesh(path: &Path) -> Result<navscope_core::NavMesh, CliError> {
    let fail = |m: String| CliError::Failed(format!("{}: {m}", path.display()));
    navscope_levels::check_regular_file(path).map_err(|e| CliError::Failed(e.to_string()))?;
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    navscope_core::NavMesh::from_json(&text).map_err(|e| fail(e.to_string()))
}
