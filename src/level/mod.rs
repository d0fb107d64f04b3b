//! Levels: what is open, where it came from, and how to open another.
//!
//! A level comes from the command line, File > Open, drag and drop, the
//! recent-files list or the embedded default; every route ends in a
//! [`LevelRequest`]. The file is read and parsed on a worker thread
//! ([`Loading`]), so the window keeps repainting and shows the progress
//! while a big file loads. Parsing and validation belong to `navscope-levels`; a
//! file it refuses leaves the current level open and puts its one-line error
//! (`FILE: ELEMENT: PROBLEM`) in the [`Journal`]. The file is polled for
//! changes and reloaded when it changes on disk. The pipeline is chosen among
//! those that accept the level's kind and remembered per file in a small RON
//! settings file, together with the recent files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use navscope_core::Pipeline;
use navscope_core::level::Level;
use serde::{Deserialize, Serialize};

use crate::model::journal::Journal;

pub mod budget;

use budget::MemoryLimit;

/// How many recent files are remembered.
pub const RECENT_MAX: usize = 10;
/// Seconds between checks of the open file's modification time.
pub const POLL_SECONDS: f32 = 0.5;

/// Opens levels and keeps the open one up to date.
pub struct LevelsPlugin {
    /// Where recent files and per-file pipelines are kept; `None` keeps
    /// them in memory only (tests).
    pub settings_file: Option<PathBuf>,
}

impl LevelsPlugin {
    /// Settings kept under the user's configuration directory.
    pub fn persistent() -> Self {
        Self {
            settings_file: settings_path(),
        }
    }

    /// True when settings are kept in a file between runs.
    pub fn is_persistent(&self) -> bool {
        self.settings_file.is_some()
    }

    /// Settings kept in memory only.
    pub fn ephemeral() -> Self {
        Self {
            settings_file: None,
        }
    }
}

impl Plugin for LevelsPlugin {
    fn build(&self, app: &mut App) {
        let mut settings = self
            .settings_file
            .as_deref()
            .map(Settings::read)
            .unwrap_or_default();
        settings.file = self.settings_file.clone();
        let level = Arc::new(navscope_levels::default_level());
        let pipeline = choose_pipeline(&level, None, &settings);
        let limit = MemoryLimit(
            settings
                .budget
                .map(navscope_core::MemoryBudget::new)
                .unwrap_or_default(),
        );
        app.init_resource::<Journal>()
            .insert_resource(limit)
            .insert_resource(CurrentLevel {
                level,
                path: None,
                pipeline,
                mtime: None,
                revision: 1,
                last_error: None,
                measured: Default::default(),
            })
            .insert_resource(settings)
            .insert_resource(HotReload {
                enabled: true,
                timer: Timer::from_seconds(POLL_SECONDS, TimerMode::Repeating),
            })
            .init_resource::<Loading>()
            .add_message::<LevelRequest>()
            .add_systems(
                PreUpdate,
                (poll_file_changes, handle_requests, finish_loading).chain(),
            );
    }
}

/// A level file being read and parsed off the main thread, so the window
/// keeps repainting (and says so) while a big file loads.
#[derive(Resource, Default)]
pub struct Loading {
    job: Option<LoadJob>,
    /// A pipeline asked for while the file loads (`--pipeline` with a
    /// level): it applies to that file once it is open.
    pipeline: Option<String>,
}

struct LoadJob {
    path: PathBuf,
    mtime: Option<SystemTime>,
    started: Instant,
    task: Task<Result<Level, String>>,
}

impl Loading {
    /// The file being loaded and the seconds since it started, if any.
    pub fn progress(&self) -> Option<(&Path, f32)> {
        self.job
            .as_ref()
            .map(|j| (j.path.as_path(), j.started.elapsed().as_secs_f32()))
    }

    /// True while a file loads.
    pub fn is_loading(&self) -> bool {
        self.job.is_some()
    }
}

/// The open level and the pipeline that builds it.
#[derive(Resource, Debug)]
pub struct CurrentLevel {
    /// The level data.
    pub level: Arc<Level>,
    /// The file it came from; `None` for the embedded default.
    pub path: Option<PathBuf>,
    /// The chosen pipeline; `None` when no pipeline accepts the level.
    pub pipeline: Option<Arc<Pipeline>>,
    /// The file's modification time when it was read.
    pub mtime: Option<SystemTime>,
    /// Increments on every (re)load and pipeline change.
    pub revision: u64,
    /// The error of the last request that failed (cleared by a success).
    pub last_error: Option<String>,
    /// The level's bounds and size, with the revision they were measured
    /// at (see [`CurrentLevel::bounds`]).
    measured: std::sync::Mutex<Option<Measures>>,
}

/// A level's bounds and size, measured at one revision.
#[derive(Debug, Clone, Copy)]
struct Measures {
    revision: u64,
    bounds: (Vec3, Vec3),
    extent: f32,
}

impl CurrentLevel {
    /// The level's bounds and size, measured once per revision: measuring
    /// cuts a Quake map's every brush to polygons (40 ms on `lq_e3m4.map`),
    /// too slow for every frame or every probe answer.
    fn measures(&self) -> ((Vec3, Vec3), f32) {
        let mut m = self.measured.lock().unwrap_or_else(|e| e.into_inner());
        match *m {
            Some(known) if known.revision == self.revision => (known.bounds, known.extent),
            _ => {
                let points = crate::model::extent::level_points(&self.level);
                let bounds = crate::model::extent::bounds_of(&points);
                let extent = crate::model::prepare::extent(points);
                *m = Some(Measures {
                    revision: self.revision,
                    bounds,
                    extent,
                });
                (bounds, extent)
            }
        }
    }

    /// The level's bounds, `(min, max)` (see
    /// [`crate::model::extent::bounds_of`]).
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.measures().0
    }

    /// The level's size, its largest extent and at least 1 (see
    /// [`crate::model::extent::level_extent`]): the unit markers scale by.
    pub fn extent(&self) -> f32 {
        self.measures().1
    }

    /// A short name for titles: the file name or `default level`.
    pub fn display_name(&self) -> String {
        match &self.path {
            Some(p) => p
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string()),
            None => "default level".into(),
        }
    }
}

/// Something the user asked of the levels module.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum LevelRequest {
    /// Open this file.
    Open(PathBuf),
    /// Read the open file again.
    Reload,
    /// Open the embedded default level.
    Embedded,
    /// Build the open level with this pipeline.
    Pipeline(String),
    /// Load and build within this memory budget from now on, and remember
    /// it.
    Budget(navscope_core::MemoryBudget),
}

/// Whether the open file is watched for changes.
#[derive(Resource, Debug)]
pub struct HotReload {
    /// On by default.
    pub enabled: bool,
    timer: Timer,
}

/// Settings kept between runs: recent files, and per file the pipeline,
/// the stage on screen and the parameters (see `build::session`).
#[derive(Resource, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Settings {
    /// Most recent first; the first is opened at start when no level is
    /// given.
    pub recent: Vec<PathBuf>,
    /// Pipeline id per file (by absolute path).
    pub pipelines: BTreeMap<String, String>,
    /// Stage index per file and pipeline (`path|pipeline`).
    #[serde(default)]
    pub stages: BTreeMap<String, usize>,
    /// Parameter values (a RON preset) per file and pipeline.
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// The memory budget in bytes chosen under Edit > Memory budget
    /// (`None`: the default, 2 GB).
    #[serde(default)]
    pub budget: Option<u64>,
    #[serde(skip)]
    file: Option<PathBuf>,
}

impl Settings {
    /// Reads the settings file; a missing or unreadable one gives defaults
    /// (settings are a convenience, never a reason not to start).
    pub fn read(path: &Path) -> Self {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| ron::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Writes the settings file (nothing for in-memory settings).
    pub fn save(&self, journal: &mut Journal) {
        let Some(file) = &self.file else { return };
        let text = match ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()) {
            Ok(t) => t,
            Err(e) => return journal.error(format!("{}: settings: {e}", file.display())),
        };
        let result = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| std::fs::write(file, text));
        if let Err(e) = result {
            journal.error(format!("{}: cannot save settings: {e}", file.display()));
        }
    }

    /// Moves `path` to the front of the recent list.
    pub fn remember(&mut self, path: &Path) {
        let key = absolute(path);
        self.recent.retain(|p| *p != key);
        self.recent.insert(0, key);
        self.recent.truncate(RECENT_MAX);
    }
}

/// `$XDG_CONFIG_HOME/navscope/settings.ron`, else `~/.config/navscope/settings.ron`.
pub fn settings_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("navscope").join("settings.ron"))
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The settings key of a level file (its absolute path).
pub fn key(path: &Path) -> String {
    absolute(path).to_string_lossy().into_owned()
}

/// The pipeline for a level: the one remembered for its file if it still
/// accepts the level, else the first that accepts its kind.
pub fn choose_pipeline(
    level: &Level,
    path: Option<&Path>,
    settings: &Settings,
) -> Option<Arc<Pipeline>> {
    let options = navscope_pipelines::for_kind(level.kind());
    let remembered = path.and_then(|p| settings.pipelines.get(&key(p)));
    if let Some(id) = remembered
        && let Some(p) = options.iter().find(|p| p.id == id)
    {
        return Some(p.clone());
    }
    options.into_iter().next()
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn handle_requests(
    mut requests: MessageReader<LevelRequest>,
    mut current: ResMut<CurrentLevel>,
    mut settings: ResMut<Settings>,
    mut journal: ResMut<Journal>,
    mut loading: ResMut<Loading>,
    mut limit: ResMut<MemoryLimit>,
) {
    for request in requests.read() {
        match request {
            LevelRequest::Open(path) => start_loading(path, &mut loading, *limit),
            LevelRequest::Reload => match current.path.clone() {
                Some(path) => start_loading(&path, &mut loading, *limit),
                None => journal.info("the embedded level has no file to reload"),
            },
            LevelRequest::Embedded => {
                let level = Arc::new(navscope_levels::default_level());
                current.pipeline = choose_pipeline(&level, None, &settings);
                current.level = level;
                current.path = None;
                current.mtime = None;
                current.revision += 1;
                current.last_error = None;
                journal.info("opened the embedded default level");
            }
            LevelRequest::Pipeline(id) if loading.is_loading() => {
                loading.pipeline = Some(id.clone());
            }
            LevelRequest::Pipeline(id) => {
                set_pipeline(id, &mut current, &mut settings, &mut journal);
            }
            LevelRequest::Budget(b) => {
                limit.set_if_neq(MemoryLimit(*b));
                settings.budget = Some(b.bytes());
                settings.save(&mut journal);
                journal.info(format!("memory budget: {b}"));
            }
        }
    }
}

/// Switches the open level to pipeline `id`, remembered for its file; an
/// error names the pipelines that can build it.
fn set_pipeline(
    id: &str,
    current: &mut CurrentLevel,
    settings: &mut Settings,
    journal: &mut Journal,
) {
    let options = navscope_pipelines::for_kind(current.level.kind());
    match options.iter().find(|p| p.id == id) {
        Some(p) => {
            if let Some(path) = &current.path {
                settings.pipelines.insert(key(path), id.to_string());
                settings.save(journal);
            }
            // The pipeline already building the level stays: no new
            // revision, so the build, the history and the restored
            // parameters carry on.
            if current.pipeline.as_ref().is_some_and(|c| c.id == p.id) {
                return;
            }
            current.pipeline = Some(p.clone());
            current.revision += 1;
            current.last_error = None;
        }
        None => {
            let accepted: Vec<_> = options.iter().map(|p| p.id).collect();
            let msg = format!(
                "pipeline '{id}' cannot build a {} (choose one of: {})",
                current.level.kind().name(),
                if accepted.is_empty() {
                    "none".to_string()
                } else {
                    accepted.join(", ")
                }
            );
            current.last_error = Some(msg.clone());
            journal.error(msg);
        }
    }
}

/// Starts reading `path` on a worker thread (a newer request replaces an
/// older one still loading), refusing a file over the memory budget.
fn start_loading(path: &Path, loading: &mut Loading, limit: MemoryLimit) {
    let mtime = modified(path);
    let p = path.to_path_buf();
    let limits = limit.loader_limits();
    let task = AsyncComputeTaskPool::get()
        .spawn(async move { navscope_levels::load_with(&p, &limits).map_err(|e| e.to_string()) });
    loading.pipeline = None;
    loading.job = Some(LoadJob {
        path: path.to_path_buf(),
        mtime,
        started: Instant::now(),
        task,
    });
}

fn finish_loading(
    mut loading: ResMut<Loading>,
    mut current: ResMut<CurrentLevel>,
    mut settings: ResMut<Settings>,
    mut journal: ResMut<Journal>,
) {
    let Some(job) = loading.job.as_mut() else {
        return;
    };
    let Some(result) = check_ready(&mut job.task) else {
        return;
    };
    let Some(job) = loading.job.take() else {
        return;
    };
    open(
        &job.path,
        job.mtime,
        result,
        &mut current,
        &mut settings,
        &mut journal,
    );
    if let Some(id) = loading.pipeline.take() {
        set_pipeline(&id, &mut current, &mut settings, &mut journal);
    }
}

/// Makes a loaded level (or its error) the current one.
fn open(
    path: &Path,
    mtime: Option<SystemTime>,
    loaded: Result<Level, String>,
    current: &mut CurrentLevel,
    settings: &mut Settings,
    journal: &mut Journal,
) {
    match loaded {
        Ok(level) => {
            let level = Arc::new(level);
            let reload = current.path.as_deref() == Some(path);
            let pipeline = choose_pipeline(&level, Some(path), settings);
            if pipeline.is_none() {
                journal.error(format!(
                    "{}: no pipeline accepts a {}",
                    path.display(),
                    level.kind().name()
                ));
            }
            // A reload keeps the user's pipeline when it still fits.
            current.pipeline = match &current.pipeline {
                Some(p) if reload && p.accepts.contains(&level.kind()) => Some(p.clone()),
                _ => pipeline,
            };
            current.level = level;
            current.path = Some(path.to_path_buf());
            current.mtime = mtime;
            current.revision += 1;
            current.last_error = None;
            settings.remember(path);
            settings.save(journal);
            journal.info(format!(
                "{} {}",
                if reload { "reloaded" } else { "opened" },
                path.display()
            ));
        }
        Err(msg) => {
            if current.path.as_deref() == Some(path) {
                // Do not retry a broken save on every poll.
                current.mtime = mtime;
            }
            current.last_error = Some(msg.clone());
            journal.error(msg);
        }
    }
}

fn poll_file_changes(
    time: Res<Time>,
    mut hot: ResMut<HotReload>,
    current: Res<CurrentLevel>,
    loading: Res<Loading>,
    mut requests: MessageWriter<LevelRequest>,
) {
    if !hot.enabled || !hot.timer.tick(time.delta()).just_finished() || loading.is_loading() {
        return;
    }
    if let Some(path) = &current.path
        && let Some(m) = modified(path)
        && Some(m) != current.mtime
    {
        requests.write(LevelRequest::Reload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_extent_are_measured_per_revision() {
        let level = Arc::new(navscope_levels::default_level());
        let points = crate::model::extent::level_points(&level);
        let mut current = CurrentLevel {
            level,
            path: None,
            pipeline: None,
            mtime: None,
            revision: 1,
            last_error: None,
            measured: Default::default(),
        };
        let (lo, hi) = crate::model::extent::bounds_of(&points);
        assert_eq!(current.bounds(), (lo, hi));
        assert_eq!(current.extent(), crate::model::prepare::extent(points));
        assert!(current.extent() > 1.0 && lo.cmplt(hi).any());
        // Another level, once its revision says so, is measured anew.
        let small = navscope_core::level::Level {
            source: "small".into(),
            data: navscope_core::level::LevelData::FloorPlan(navscope_core::level::FloorPlan {
                area: navscope_core::geom::PolygonWithHoles::new(
                    navscope_core::geom::Polygon::new(vec![
                        bevy::math::DVec2::new(0.0, 0.0),
                        bevy::math::DVec2::new(2.0, 0.0),
                        bevy::math::DVec2::new(2.0, 3.0),
                    ]),
                    vec![],
                ),
                nodes: vec![],
                blockers: vec![],
            }),
        };
        current.level = Arc::new(small);
        current.revision += 1;
        assert_eq!(current.extent(), 3.0);
        assert_ne!(current.bounds(), (lo, hi));
    }

    #[test]
    fn recent_files_are_unique_and_capped() {
        let mut s = Settings::default();
        for i in 0..RECENT_MAX + 2 {
            s.remember(Path::new(&format!("/nonexistent/{i}.json")));
        }
        s.remember(Path::new("/nonexistent/5.json"));
        assert_eq!(s.recent.len(), RECENT_MAX);
        assert_eq!(s.recent[0], PathBuf::from("/nonexistent/5.json"));
        assert_eq!(s.recent.iter().filter(|p| p.ends_with("5.json")).count(), 1);
    }

    #[test]
    fn settings_round_trip_through_ron() {
        let dir = std::env::temp_dir().join(format!("navscope-settings-{}", std::process::id()));
        let file = dir.join("settings.ron");
        let mut s = Settings {
            file: Some(file.clone()),
            ..Default::default()
        };
        s.remember(Path::new("/nonexistent/a.json"));
        s.pipelines
            .insert("/nonexistent/a.json".into(), "convex".into());
        let mut j = Journal::default();
        s.save(&mut j);
        assert!(j.last_error().is_none(), "{:?}", j.last_error());
        let back = Settings::read(&file);
        assert_eq!(back.recent, s.recent);
        assert_eq!(back.pipelines, s.pipelines);
        std::fs::remove_dir_all(dir).ok();
        assert_eq!(
            Settings::read(Path::new("/nonexistent/settings.ron")),
            Settings::default()
        );
    }
}
