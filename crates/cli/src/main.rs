//! `navscope-cli`: build navigation meshes, find paths, export and benchmark
//! without a window.
//!
//! ```text
//! navscope-cli info LEVEL [--budget SIZE]
//! navscope-cli build LEVEL --pipeline P [--preset F.ron] [--set NAME=VALUE]... [--budget SIZE] [--out F.json] [--obj F.obj] [--polyanya F.mesh]
//! navscope-cli path LEVEL --pipeline P --from X,Y,Z --to X,Y,Z [--method polyanya|astar] [--budget SIZE] [--json]
//! navscope-cli path LEVEL --pipeline P --queries FILE [--method polyanya|astar] [--budget SIZE] [--json]
//! navscope-cli islands LEVEL --pipeline P [--json] [--fixes N]
//! navscope-cli bench LEVEL... --pipeline P [--runs N] [--variant NAME=VALUE[;NAME=VALUE]]... [--budget SIZE] [--json]
//! navscope-cli compare LEVEL [--pipeline P] [--set NAME=VALUE]... (--against "NAME=VALUE;..." | --against-pipeline Q | --pair F.ron) [--from X,Y,Z --to X,Y,Z] [--budget SIZE] [--json] [--png F.png]
//! navscope-cli routes MAP [--pipeline P] [--agent NAME] [--budget SIZE] [--json]
//! navscope-cli generate KIND [--seed S] [size options] --out FILE
//! ```
//! Every command that builds takes `--agent NAME` (an agent preset of
//! [`navscope_pipelines::agents`]; a `.map` gets Quake's player unless a
//! preset file or `--agent` says otherwise).
//! `--budget` (default 2G) is the memory budget of the loader and of every
//! stage ([`navscope_core::budget`]).
//!
//! Exit status: 0 on success, 1 on a failed build or an invalid level (one
//! line on stderr naming the file and the problem), 2 on bad arguments.

mod bench;
mod build;
mod compare;
mod generate;
mod info;
mod islands;
mod path;
mod queries;
mod routes;
mod session;
mod table;
mod why;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use navscope_core::MemoryBudget;

/// Command-line interface.
#[derive(Parser, Debug)]
#[command(
    name = "navscope-cli",
    version,
    about = "Headless navscope: build navigation meshes, find paths, benchmark pipelines"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options shared by every command that builds a mesh.
#[derive(clap::Args, Debug, Clone)]
pub struct BuildOptions {
    /// Pipeline id (`navmesh` reads LEVEL as NavMesh JSON); default: the first
    /// pipeline that accepts the level's kind.
    #[arg(long)]
    pipeline: Option<String>,
    /// RON preset of parameter values.
    #[arg(long)]
    preset: Option<PathBuf>,
    /// Agent preset (`quake`, `quake2`, `half-life`, `recast-human`, or
    /// `default` for the pipeline's own agent); default: Quake's player
    /// for a `.map` without `--preset`. Applied after the preset file.
    #[arg(long)]
    agent: Option<String>,
    /// Set one parameter, e.g. `--set tau=5` (repeatable; after the preset).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    #[command(flatten)]
    budget: BudgetOption,
}

/// The memory budget the loader and every stage honour.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct BudgetOption {
    /// Memory budget for the level and every stage, e.g. `512M`, `2G`,
    /// `unlimited` (binary units). A stage that would need more refuses
    /// with a message saying how much.
    #[arg(long = "budget", value_name = "SIZE", default_value = "2G", value_parser = MemoryBudget::parse)]
    budget: MemoryBudget,
}

impl BuildOptions {
    /// The memory budget given with `--budget`.
    pub fn budget(&self) -> MemoryBudget {
        self.budget.budget
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Describe a level: kind, size, bounds and the pipelines that accept it.
    Info {
        /// Level file.
        level: PathBuf,
        #[command(flatten)]
        budget: BudgetOption,
    },
    /// Run a pipeline and print each stage's time and counts.
    Build {
        /// Level file.
        level: PathBuf,
        #[command(flatten)]
        opts: BuildOptions,
        /// Write the NavMesh JSON here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write the NavMesh polygons as Wavefront OBJ here.
        #[arg(long)]
        obj: Option<PathBuf>,
        /// Write the NavMesh polygons as a polyanya mesh (version 2) here,
        /// for the `polyanya` crate and vleue_navigator.
        #[arg(long)]
        polyanya: Option<PathBuf>,
    },
    /// Find a path between two points, or answer a file of queries.
    Path {
        /// Level file (or NavMesh JSON with `--pipeline navmesh`).
        level: PathBuf,
        #[command(flatten)]
        opts: BuildOptions,
        /// Start point `X,Y,Z` (world space, metres).
        #[arg(long, value_parser = path::parse_point, allow_hyphen_values = true, required_unless_present = "queries", conflicts_with = "queries")]
        from: Option<glam::DVec3>,
        /// Goal point `X,Y,Z`.
        #[arg(long, value_parser = path::parse_point, allow_hyphen_values = true, required_unless_present = "queries", conflicts_with = "queries")]
        to: Option<glam::DVec3>,
        /// A file of queries: a Moving AI `.scen` or lines `x,y,z x,y,z
        /// [optimal]`; prints a line per query and a summary.
        #[arg(long)]
        queries: Option<PathBuf>,
        /// The search: `polyanya` (optimal any-angle) or `astar` (A* and
        /// the funnel, Detour's way).
        #[arg(long, default_value = "polyanya", value_parser = path::parse_method)]
        method: navscope_path::Method,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the connected parts of the NavMesh, largest first, with their
    /// areas and the gap from each to the largest.
    Islands {
        /// Level file (or NavMesh JSON with `--pipeline navmesh`).
        level: PathBuf,
        #[command(flatten)]
        opts: BuildOptions,
        /// Print the islands as JSON.
        #[arg(long)]
        json: bool,
        /// How many islands (the largest after the first) get a fix
        /// searched by building again; every gap gets its rule.
        #[arg(long, default_value_t = 3)]
        fixes: usize,
    },
    /// Whether a point is on the NavMesh and, if not, the first stage
    /// that dropped it, the rule and the change that keeps it (checked).
    Why {
        /// Level file.
        level: PathBuf,
        #[command(flatten)]
        opts: BuildOptions,
        /// The point `X,Y,Z` (world space, metres), on the floor.
        #[arg(long, value_parser = path::parse_point, allow_hyphen_values = true)]
        at: glam::DVec3,
        /// Print the answer as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Time every stage over several runs and report medians and counts.
    Bench {
        /// Level files.
        #[arg(required = true)]
        levels: Vec<PathBuf>,
        #[command(flatten)]
        opts: BuildOptions,
        /// Runs per level and variant (the median is reported).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        runs: u32,
        /// A parameter variant to compare, e.g. `--variant "portal_removal=false"`;
        /// `;` separates several settings. Repeatable; the base settings are
        /// always measured first.
        #[arg(long = "variant", value_name = "NAME=VALUE[;...]")]
        variants: Vec<String>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build one level twice (two parameter sets or two pipelines) and
    /// print the metrics A | B | delta, the footprint difference and the
    /// same path probe on both; `--png` draws the difference from above.
    Compare {
        /// Level file.
        level: PathBuf,
        /// Side A.
        #[command(flatten)]
        opts: BuildOptions,
        #[command(flatten)]
        args: compare::CompareArgs,
    },
    /// From every player start of a Quake map to every exit: whether a
    /// path exists, its length and the entities it uses. Exit status 0
    /// when every start reaches an exit, 1 otherwise.
    Routes {
        /// Quake `.map` (or another brush level).
        level: PathBuf,
        #[command(flatten)]
        opts: BuildOptions,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write a large random level (for benchmarks) with a seeded generator.
    Generate {
        #[command(subcommand)]
        what: generate::Generator,
        /// Random seed; the same seed gives the same level.
        #[arg(long, global = true, default_value_t = 1)]
        seed: u64,
        /// Output file (required).
        #[arg(long, global = true)]
        out: Option<PathBuf>,
    },
}

/// A clap error as one line (`navscope-cli: ...`), without the usage and
/// tip lines, so every bad argument reads the same as a bad `--set`.
fn usage_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    let line = parts.join(" ");
    format!(
        "navscope-cli: {}",
        line.strip_prefix("error: ").unwrap_or(&line)
    )
}

fn main() -> ExitCode {
    // The runner catches a stage's panic and reports it as the stage's
    // error; the default hook would print the panic and a backtrace on top.
    std::panic::set_hook(Box::new(|_| {}));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap's own text on stdout.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("{}", usage_line(&e));
            return ExitCode::from(2);
        }
    };
    match std::panic::catch_unwind(|| run(cli.command)) {
        Ok(code) => code,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            eprintln!(
                "navscope-cli: internal error (panic): {}",
                what.lines().next().unwrap_or("")
            );
            ExitCode::from(101)
        }
    }
}

/// Runs one command; errors print as one line.
fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Info { level, budget } => info::run(&level, budget.budget),
        Command::Build {
            level,
            opts,
            out,
            obj,
            polyanya,
        } => build::run(
            &level,
            &opts,
            out.as_deref(),
            obj.as_deref(),
            polyanya.as_deref(),
        ),
        Command::Path {
            level,
            opts,
            from,
            to,
            queries,
            method,
            json,
        } => match (queries, from, to) {
            (Some(file), _, _) => queries::run(&level, &opts, &file, method, json),
            (None, Some(from), Some(to)) => path::run(&level, &opts, from, to, method, json),
            _ => Err(session::CliError::Usage(
                "path needs --from and --to, or --queries FILE".into(),
            )),
        },
        Command::Islands {
            level,
            opts,
            json,
            fixes,
        } => islands::run(&level, &opts, json, fixes),
        Command::Why {
            level,
            opts,
            at,
            json,
        } => why::run(&level, &opts, at, json),
        Command::Bench {
            levels,
            opts,
            runs,
            variants,
            json,
        } => bench::run(&levels, &opts, runs, &variants, json),
        Command::Compare { level, opts, args } => compare::run(&level, &opts, &args),
        Command::Routes { level, opts, json } => match routes::run(&level, &opts, json) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        Command::Generate {
            what,
            seed,
            out: Some(out),
        } => generate::run(&what, seed, &out),
        Command::Generate { out: None, .. } => {
            Err(session::CliError::Usage("generate needs --out FILE".into()))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            e.exit_code()
        }
    }
}
