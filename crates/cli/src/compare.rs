//! `navscope-cli compare`: one level through two parameter sets or two
//! pipelines: the A | B | delta metrics, the footprint difference areas,
//! the same path probe on both, and a top-down picture of the difference
//! (`navscope_compare` does the work; this module resolves the sides and
//! prints).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use glam::DVec3;
use navscope_compare::{CompareOptions, PresetPair, RenderOptions, SideSettings};
use navscope_core::Pipeline;
use navscope_core::level::Level;
use navscope_core::params::ParamValues;

use crate::BuildOptions;
use crate::session::{CliError, apply_setting, load_level, param_values, pipeline_for};
use crate::table;

/// What `compare` was asked for, beside the level and side A's options.
#[derive(clap::Args, Debug, Clone)]
pub struct CompareArgs {
    /// Side B: side A's pipeline and parameters with these settings
    /// changed, e.g. `--against "stand.radius=0.6;cell_size=0.05"`.
    #[arg(long, value_name = "NAME=VALUE;...")]
    against: Option<String>,
    /// Side B: this pipeline (its defaults, then the `--against` settings).
    #[arg(long, value_name = "Q")]
    against_pipeline: Option<String>,
    /// Read both sides from a preset pair file (RON, or JSON by extension).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["against", "against_pipeline", "pipeline", "set", "preset"])]
    pair: Option<PathBuf>,
    /// Write both sides as a preset pair file (RON, or JSON by extension).
    #[arg(long, value_name = "FILE")]
    save_pair: Option<PathBuf>,
    /// Probe start `X,Y,Z`: the same path query on both builds.
    #[arg(long, value_parser = crate::path::parse_point, allow_hyphen_values = true, requires = "to")]
    from: Option<DVec3>,
    /// Probe goal `X,Y,Z`.
    #[arg(long, value_parser = crate::path::parse_point, allow_hyphen_values = true, requires = "from")]
    to: Option<DVec3>,
    /// Print the comparison as JSON.
    #[arg(long)]
    json: bool,
    /// Draw the difference from above into this PNG.
    #[arg(long, value_name = "F.png")]
    png: Option<PathBuf>,
    /// Width of the PNG in pixels (the height follows the level).
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(64..=16_384))]
    png_width: u32,
}

/// One resolved side.
struct Side {
    pipeline: Arc<Pipeline>,
    values: ParamValues,
}

/// Checks that `p` reads `level` (directly or through a conversion).
fn accepting(p: Arc<Pipeline>, level: &Level) -> Result<Arc<Pipeline>, CliError> {
    if p.accepts.contains(&level.kind()) {
        Ok(p)
    } else {
        Err(CliError::Usage(format!(
            "pipeline '{}' does not accept a {} ({} is one)",
            p.id,
            level.kind().name(),
            level.source
        )))
    }
}

/// Sides A and B from the pair file or the options.
fn sides(level: &Level, opts: &BuildOptions, args: &CompareArgs) -> Result<[Side; 2], CliError> {
    if let Some(path) = &args.pair {
        let pair = PresetPair::load(path).map_err(CliError::Failed)?;
        let side = |s: &SideSettings| -> Result<Side, CliError> {
            let (pipeline, values) = s.resolve().map_err(CliError::Failed)?;
            Ok(Side {
                pipeline: accepting(pipeline, level)?,
                values,
            })
        };
        return Ok([side(&pair.a)?, side(&pair.b)?]);
    }
    if args.against.is_none() && args.against_pipeline.is_none() {
        return Err(CliError::Usage(
            "compare needs side B: --against \"NAME=VALUE;...\", --against-pipeline Q or --pair FILE"
                .into(),
        ));
    }
    let pa = pipeline_for(level, opts.pipeline.as_deref())?;
    let va = param_values(&pa, level, opts)?;
    let (pb, mut vb) = match &args.against_pipeline {
        Some(id) => {
            let p = pipeline_for(level, Some(id))?;
            let v = ParamValues::defaults(&p.params);
            (p, v)
        }
        None => (pa.clone(), va.clone()),
    };
    for s in args.against.iter().flat_map(|a| a.split(';')) {
        if !s.trim().is_empty() {
            apply_setting(&pb, &mut vb, s)?;
        }
    }
    Ok([
        Side {
            pipeline: pa,
            values: va,
        },
        Side {
            pipeline: pb,
            values: vb,
        },
    ])
}

/// Builds both sides, compares them and prints the result.
pub fn run(level_path: &Path, opts: &BuildOptions, args: &CompareArgs) -> Result<(), CliError> {
    let level = Arc::new(load_level(level_path, opts.budget())?);
    let [a, b] = sides(&level, opts, args)?;
    if let Some(path) = &args.save_pair {
        PresetPair {
            a: SideSettings::new(&a.pipeline, &a.values),
            b: SideSettings::new(&b.pipeline, &b.values),
        }
        .save(path)
        .map_err(CliError::Failed)?;
    }
    let start = Instant::now();
    let build = |s: &Side| {
        navscope_compare::build(&level, &s.pipeline, s.values.clone(), opts.budget())
            .map_err(CliError::Failed)
    };
    let (ma, mb) = (build(&a)?, build(&b)?);
    let options = CompareOptions {
        probe: args.from.zip(args.to),
        ..Default::default()
    };
    let c = navscope_compare::compare(&ma, &mb, &options);
    let picture = match &args.png {
        Some(path) => {
            let opts = RenderOptions {
                width: args.png_width,
                ..Default::default()
            };
            navscope_compare::save_png(&c.difference, &opts, path).map_err(CliError::Failed)?;
            Some((path, navscope_compare::image_size(&c.difference, &opts)))
        }
        None => None,
    };
    let total_ms = start.elapsed().as_secs_f64() * 1e3;
    if args.json {
        let mut doc = c.to_json();
        doc["a"]["params"] = params_json(&a.values);
        doc["b"]["params"] = params_json(&b.values);
        doc["total_ms"] = total_ms.into();
        println!("{doc}");
        return Ok(());
    }
    println!(
        "{}: A = {}, B = {}{}",
        level_path.display(),
        side_label(&a, None),
        side_label(&b, Some(&a)),
        if a.pipeline.id == b.pipeline.id {
            String::new()
        } else {
            format!(
                " (B = {} with its defaults{})",
                b.pipeline.id,
                changed_note(&b)
            )
        }
    );
    print!("{}", table::render(&c.metric_cells()));
    println!();
    println!("footprint difference (node polygons per height band, m2):");
    print!("{}", table::render(&c.difference_cells()));
    if let Some(rows) = c.probe_cells() {
        println!();
        println!("probe:");
        print!("{}", table::render(&rows));
    }
    if let Some((path, (w, h))) = picture {
        println!("wrote {} ({w} x {h})", path.display());
    }
    println!(
        "compare: {:.1} ms (builds and picture included; the comparison itself {:.1} ms)",
        total_ms, c.ms
    );
    Ok(())
}

/// The parameter values as a JSON object.
fn params_json(v: &ParamValues) -> serde_json::Value {
    v.iter()
        .map(|(k, x)| (k.to_string(), serde_json::to_value(x).unwrap_or_default()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The settings of `s` that differ from `base` (or from the pipeline's
/// defaults), as `NAME=VALUE` items.
fn differences(s: &Side, base: &ParamValues) -> Vec<String> {
    s.values
        .iter()
        .filter(|(k, v)| base.get(k) != Some(*v))
        .map(|(k, v)| format!("{k}={v}"))
        .collect()
}

/// The settings of `s` that differ from its pipeline's defaults, as a note.
fn changed_note(s: &Side) -> String {
    let d = differences(s, &ParamValues::defaults(&s.pipeline.params));
    if d.is_empty() {
        String::new()
    } else {
        format!(" and {}", d.join(", "))
    }
}

/// `pipeline` or `pipeline [changes]`: B's changes against A when both run
/// the same pipeline, otherwise against the defaults.
fn side_label(s: &Side, other: Option<&Side>) -> String {
    let base = match other {
        Some(o) if o.pipeline.id == s.pipeline.id => o.values.clone(),
        _ => ParamValues::defaults(&s.pipeline.params),
    };
    let d = differences(s, &base);
    if d.is_empty() {
        s.pipeline.id.to_string()
    } else {
        format!("{} [{}]", s.pipeline.id, d.join(", "))
    }
}
