//! `navscope-cli build`: run a pipeline, print the stage table, export.

use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use indicatif::{ProgressBar, ProgressStyle};
use navscope_core::Runner;

use crate::BuildOptions;
use crate::session::{CliError, check_run, load_level, runner};
use crate::table;

/// Runs every stage with a progress bar on stderr (shown on terminals only).
pub fn run_stages(r: &mut Runner) {
    let n = r.pipeline().stages.len();
    let bar = ProgressBar::new(n as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{pos}/{len}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let titles: Vec<&str> = r.pipeline().stages.iter().map(|s| s.info.title).collect();
    r.run_to(n.saturating_sub(1), &AtomicBool::new(false), &mut |i| {
        bar.set_position(i as u64);
        bar.set_message(titles[i]);
    });
    bar.finish_and_clear();
}

/// The stage table of a finished run: stage, title, time and counts.
pub fn stage_table(r: &Runner) -> String {
    let mut rows = vec![vec!["stage".into(), "ms".into(), "counts".into()]];
    for (i, s) in r.pipeline().stages.iter().enumerate() {
        let (ms, counts) = match r.result(i) {
            Some(res) => match &res.outcome {
                Ok(_) => (format!("{:.2}", res.ms), table::counts(&res.counts)),
                Err(e) => (format!("{:.2}", res.ms), format!("error: {e}")),
            },
            None => ("-".into(), "not run".into()),
        };
        rows.push(vec![s.info.id.to_string(), ms, counts]);
    }
    table::render(&rows)
}

/// Builds and writes the requested exports.
pub fn run(
    level: &Path,
    opts: &BuildOptions,
    out: Option<&Path>,
    obj: Option<&Path>,
    polyanya: Option<&Path>,
) -> Result<(), CliError> {
    let mut r = runner(load_level(level, opts.budget())?, opts)?;
    run_stages(&mut r);
    print!("{}", stage_table(&r));
    check_run(&r)?;
    // Borrowed: a copy of a large mesh would double the peak memory.
    let mesh = r.stamped_navmesh();
    if let Some(m) = &mesh {
        println!(
            "navmesh: {} nodes, {} links",
            m.mesh.nodes.len(),
            m.mesh.links.len()
        );
        for (k, v) in &m.metrics {
            println!("  {k}: {v}");
        }
    }
    // Streamed through a buffer: the text of a large mesh is never held
    // whole beside the mesh.
    let write =
        |p: &Path, put: &dyn Fn(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>| {
            let fail = |e: std::io::Error| CliError::Failed(format!("{}: {e}", p.display()));
            let mut w = std::io::BufWriter::new(std::fs::File::create(p).map_err(fail)?);
            put(&mut w).map_err(fail)?;
            w.flush().map_err(fail)
        };
    if out.is_some() || obj.is_some() || polyanya.is_some() {
        let m = mesh.ok_or_else(|| {
            CliError::Failed(format!(
                "{}: pipeline '{}' produced no NavMesh",
                level.display(),
                r.pipeline().id
            ))
        })?;
        // Nothing NaN, infinite or dangling reaches a written file.
        m.validate().map_err(|e| {
            CliError::Failed(format!(
                "{}: pipeline '{}' made an invalid NavMesh, not written: {e}",
                level.display(),
                r.pipeline().id
            ))
        })?;
        if let Some(p) = out {
            write(p, &|w| m.write_json(w))?;
        }
        if let Some(p) = obj {
            write(p, &|w| m.write_obj(w))?;
        }
        if let Some(p) = polyanya {
            let text = navscope_path::polyanya::to_polyanya_mesh(m.mesh);
            write(p, &|w| w.write_all(text.as_bytes()))?;
        }
    }
    Ok(())
}
