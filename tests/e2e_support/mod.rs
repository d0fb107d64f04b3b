//! Harness for the end-to-end tests in `tests/e2e.rs`: starts the real
//! `navscope` binary in its own Xvfb display, drives it with real X input
//! events (`xdotool`, XTest) and reads back what a person would see
//! (screenshots taken with ImageMagick's `import`) and the JSON state report
//! the app writes when `NAVSCOPE_REPORT` is set.
//!
//! Rules this harness keeps so that the suite does not flake:
//! - every test gets its own X server (`Xvfb -displayfd`), its own config
//!   directory (no remembered state) and its own report file;
//! - one app at a time in the whole test process (a `static Mutex`), because
//!   software Vulkan on a small machine is slow enough already;
//! - every wait is a poll with a deadline; time-based pauses only pace the
//!   input like a person's hand (a dwell before a press, a short gap between
//!   press and release, stretched to rendered frames when the report's frame
//!   counter moves), they never stand in for "the app has done it";
//! - modifier keys stay down until the report shows the app reacted, as a
//!   hand keeps Ctrl down until the marker moves: software-rendered frames
//!   can be slower than a hand, and a Ctrl released within the frame of the
//!   click would be gone when the app looks;
//! - `Xvfb -noreset`: without it the server resets when its last client
//!   leaves, and the app connecting during that reset cannot open the display;
//! - a failure names what was expected and shows the last report, the tail of
//!   the app's log and the path of the last screenshot (saved under
//!   `target/e2e-failures/`);
//! - the app and Xvfb are killed on drop, also when a test panics.
//!
//! When `Xvfb`, `xdotool` or `import` is not installed the test prints a loud
//! `SKIPPED:` line and returns, or fails under `NAVSCOPE_E2E=required`
//! (`tests/required/mod.rs`); `.ci/run` installs them and sets it.

#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use image::RgbaImage;
use serde_json::Value;

mod pixels;
mod report;

pub use pixels::*;
pub use report::*;

/// Only one app runs at a time in this test process.
static ONE_APP: Mutex<()> = Mutex::new(());

/// How long the app may take to show its window (software Vulkan, debug build).
pub const WINDOW_TIMEOUT: Duration = Duration::from_secs(90);
/// How long after the window appears the report file must exist.
pub const REPORT_TIMEOUT: Duration = Duration::from_secs(45);
/// The default deadline for a wait on the app.
pub const WAIT: Duration = Duration::from_secs(90);
/// The longest the app may take to see a mouse button change.
pub const BUTTON_SEEN: Duration = Duration::from_secs(30);
/// Pause between the parts of one gesture (press, move, release), as a hand
/// would make them; stretched to at least `PACE_FRAMES` rendered frames.
pub const PACE: Duration = Duration::from_millis(40);
pub const PACE_FRAMES: u64 = 2;
/// How long the pointer rests on a target before a click or a drag starts.
pub const DWELL: Duration = Duration::from_millis(300);

/// Colours a person sees (sRGB), from the app's contract.
pub const FLOOR: [u8; 3] = [247, 245, 237];
/// The floor under the final NavMesh's standing polygons (the view's
/// NavMesh overlay, on by default): the standing green at half opacity over
/// the floor, blended in linear light.
pub const NAVMESH_FLOOR: [u8; 3] = [186, 211, 181];
pub const START_GREEN: [u8; 3] = [30, 215, 60];
pub const GOAL_RED: [u8; 3] = [230, 30, 30];
pub const PATH_ORANGE: [u8; 3] = [255, 140, 0];

// ---------------------------------------------------------------------------
// Processes and tools

/// Where the binary under test is: Cargo's `CARGO_BIN_EXE_navscope` when the
/// tests are built as part of the `navscope` package, else `$NAVSCOPE_BIN`.
pub fn navscope_bin() -> PathBuf {
    if let Some(p) = option_env!("CARGO_BIN_EXE_navscope") {
        return PathBuf::from(p);
    }
    match std::env::var_os("NAVSCOPE_BIN") {
        Some(p) => PathBuf::from(p),
        None => panic!(
            "no navscope binary: not built by cargo as part of `navscope` and $NAVSCOPE_BIN unset"
        ),
    }
}

/// `navscope-cli` when it sits beside the `navscope` binary.
pub fn cli_bin() -> Option<PathBuf> {
    let p = navscope_bin().parent()?.join("navscope-cli");
    p.is_file().then_some(p)
}

/// The repository root (for the sample levels).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn default_level() -> PathBuf {
    root().join("assets/levels/floorplan/default.json")
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            let p = d.join(tool);
            p.is_file()
                && std::fs::metadata(&p).is_ok_and(|m| {
                    use std::os::unix::fs::PermissionsExt;
                    m.permissions().mode() & 0o111 != 0
                })
        })
    })
}

/// The tools the suite drives the app with; the missing ones by name.
pub fn missing_tools() -> Vec<&'static str> {
    [
        ("Xvfb", "xvfb"),
        ("xdotool", "xdotool"),
        ("import", "imagemagick"),
    ]
    .into_iter()
    .filter(|(t, _)| !on_path(t))
    .map(|(_, pkg)| pkg)
    .collect()
}

fn failures_dir() -> PathBuf {
    match option_env!("CARGO_TARGET_TMPDIR") {
        Some(t) => Path::new(t)
            .parent()
            .unwrap_or(Path::new(t))
            .join("e2e-failures"),
        None => root().join("target/e2e-failures"),
    }
}

fn unique_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let d = std::env::temp_dir().join(format!(
        "navscope-e2e-{}-{}-{}",
        name,
        std::process::id(),
        nanos % 1_000_000_000
    ));
    std::fs::create_dir_all(&d).expect("create a temp dir");
    d
}

fn tail(text: &str, lines: usize) -> String {
    let v: Vec<&str> = text.lines().collect();
    let from = v.len().saturating_sub(lines);
    let mut out = String::new();
    if from > 0 {
        let _ = writeln!(out, "[... {from} earlier lines ...]");
    }
    for l in &v[from..] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}\n[... {} more bytes]", &s[..cut], s.len() - cut)
}

/// Runs `cmd` to completion with its output captured, killing it after
/// `timeout` (an X client that hangs must not hang the suite).
fn output_within(mut cmd: Command, timeout: Duration) -> std::io::Result<std::process::Output> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Drain the pipes on threads so a big output cannot block the child.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut v);
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut v);
        v
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no answer within {timeout:?}"),
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(std::process::Output {
        status,
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
    })
}

/// How long one `xdotool` or `import` call may take.
const TOOL_TIMEOUT: Duration = Duration::from_secs(20);

/// An X server of our own. Killed on drop.
struct Xvfb {
    child: Child,
    _stdout: ChildStdout,
    display: String,
    screen: (u32, u32),
}

impl Xvfb {
    fn start(dir: &Path) -> Result<Xvfb, String> {
        let log = File::create(dir.join("xvfb.log")).map_err(|e| e.to_string())?;
        let mut child = Command::new("Xvfb")
            // -noreset: without it the server resets whenever its last client
            // leaves, and a client connecting during the reset (the app, right
            // after our readiness probe) fails to open the display.
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1600x1000x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start Xvfb: {e}"))?;
        let stdout = child.stdout.take().expect("piped");
        // Xvfb writes the display number it chose, then a newline, to the fd.
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut line = String::new();
            let res = r.read_line(&mut line).map(|_| line);
            let _ = tx.send(res);
            r.into_inner()
        });
        let line = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(Ok(l)) if !l.trim().is_empty() => l,
            other => {
                let _ = child.kill();
                let _ = child.wait();
                let log = std::fs::read_to_string(dir.join("xvfb.log")).unwrap_or_default();
                return Err(format!(
                    "Xvfb gave no display number ({other:?}); its log:\n{log}"
                ));
            }
        };
        let stdout = reader.join().expect("reader thread");
        let display = format!(":{}", line.trim());
        // Wait until the server answers a client (the app failed to open a
        // display it was started on right after the number came once).
        let deadline = Instant::now() + Duration::from_secs(20);
        let screen = loop {
            let mut cmd = Command::new("xdotool");
            cmd.arg("getdisplaygeometry").env("DISPLAY", &display);
            if let Ok(o) = output_within(cmd, Duration::from_secs(5)) {
                let v: Vec<u32> = String::from_utf8_lossy(&o.stdout)
                    .split_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect();
                if o.status.success() && v.len() == 2 {
                    break (v[0], v[1]);
                }
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("Xvfb on {display} does not answer clients"));
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        Ok(Xvfb {
            child,
            _stdout: stdout,
            display,
            screen,
        })
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Options for starting the app.
#[derive(Clone, Debug)]
pub struct Options {
    /// Level file (first argument).
    pub level: PathBuf,
    /// Further arguments.
    pub args: Vec<String>,
}

impl Options {
    /// `level` opened with `args`.
    pub fn new(level: PathBuf, args: &[&str]) -> Self {
        Options {
            level,
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            level: default_level(),
            args: Vec::new(),
        }
    }
}

/// Window geometry in root-window (screen) pixels.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub x: i64,
    pub y: i64,
    pub w: u32,
    pub h: u32,
}

/// A running `navscope` in its own display, with the means to drive it.
pub struct Session {
    pub name: String,
    pub dir: PathBuf,
    report_path: PathBuf,
    log_path: PathBuf,
    app_ref: RefCell<Option<Child>>,
    xvfb: Option<Xvfb>,
    pub display: String,
    pub window: String,
    pub geom: Cell<Geometry>,
    /// The X screen's size.
    screen: (u32, u32),
    last_report: RefCell<Option<Report>>,
    last_shot: RefCell<Option<RgbaImage>>,
    /// Set once the frame counter was seen not to advance while pacing.
    frames_unreliable: Cell<bool>,
    failed: Cell<bool>,
    started: Instant,
    _guard: MutexGuard<'static, ()>,
}

impl Session {
    /// Starts Xvfb and the app on the default level; `None` (after a loud
    /// `SKIPPED:` line) when the tools are not installed, a failure when
    /// they are required (`crate::required`).
    pub fn start(name: &str) -> Option<Session> {
        Session::start_with(name, Options::default())
    }

    pub fn start_with(name: &str, opts: Options) -> Option<Session> {
        Session::start_seeded(name, opts, None)
    }

    /// [`Session::start_with`], with `settings` (RON) as the settings file
    /// a last run left in the config directory (`navscope/settings.ron`):
    /// recent files, per-level pipelines, stages and parameters.
    pub fn start_with_settings(name: &str, opts: Options, settings: &str) -> Option<Session> {
        Session::start_seeded(name, opts, Some(settings))
    }

    fn start_seeded(name: &str, opts: Options, settings: Option<&str>) -> Option<Session> {
        let missing = missing_tools();
        if !missing.is_empty() {
            crate::required::skip_or_fail(
                name,
                &format!(
                    "{} (install: apt-get install {})",
                    missing.join(", "),
                    missing.join(" ")
                ),
            );
            return None;
        }
        let guard = ONE_APP.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let dir = unique_dir(name);
        let xvfb = match Xvfb::start(&dir) {
            Ok(x) => x,
            Err(e) => panic!("e2e `{name}`: {e}"),
        };
        let display = xvfb.display.clone();
        let screen = xvfb.screen;
        let config = dir.join("config");
        let runtime = dir.join("run");
        std::fs::create_dir_all(&config).expect("config dir");
        if let Some(text) = settings {
            std::fs::create_dir_all(config.join("navscope")).expect("navscope config dir");
            std::fs::write(config.join("navscope/settings.ron"), text).expect("settings file");
        }
        std::fs::create_dir_all(&runtime).expect("runtime dir");
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700));
        }
        let report_path = dir.join("report.json");
        let log_path = dir.join("app.log");
        let log = File::create(&log_path).expect("app log");
        let bin = navscope_bin();
        let mut cmd = Command::new(&bin);
        cmd.arg(&opts.level)
            .args(&opts.args)
            .current_dir(root())
            .env("DISPLAY", &display)
            .env("XDG_CONFIG_HOME", &config)
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("XDG_CACHE_HOME", dir.join("cache"))
            // No session bus: no desktop portal, so file dialogs fall back to
            // the app's path field and never open on the developer's desktop.
            .env("XDG_RUNTIME_DIR", &runtime)
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .env_remove("WAYLAND_DISPLAY")
            .env("NAVSCOPE_REPORT", &report_path)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log fd"))
            .stderr(log);
        let app = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => panic!("e2e `{name}`: cannot start {}: {e}", bin.display()),
        };
        let mut s = Session {
            name: name.to_string(),
            dir,
            report_path,
            log_path,
            app_ref: RefCell::new(Some(app)),
            xvfb: Some(xvfb),
            display,
            window: String::new(),
            geom: Cell::new(Geometry {
                x: 0,
                y: 0,
                w: 0,
                h: 0,
            }),
            screen,
            last_report: RefCell::new(None),
            last_shot: RefCell::new(None),
            frames_unreliable: Cell::new(false),
            failed: Cell::new(false),
            started,
            _guard: guard,
        };
        s.find_window();
        eprintln!(
            "e2e `{}`: window {} {}x{} at {},{} on {} after {:.1} s",
            s.name,
            s.window,
            s.geom.get().w,
            s.geom.get().h,
            s.geom.get().x,
            s.geom.get().y,
            s.display,
            s.started.elapsed().as_secs_f64()
        );
        Some(s)
    }

    fn find_window(&mut self) {
        let deadline = Instant::now() + WINDOW_TIMEOUT;
        loop {
            self.check_alive();
            let out = self.xdotool_output(&["search", "--onlyvisible", "--name", "navscope"]);
            let ids: Vec<String> = out
                .lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect();
            // The biggest visible window named navscope is the app's.
            let mut best: Option<(String, Geometry)> = None;
            for id in ids {
                if let Some(g) = self.geometry_of(&id)
                    && g.w >= 200
                    && g.h >= 200
                    && best.as_ref().is_none_or(|(_, b)| g.w * g.h > b.w * b.h)
                {
                    best = Some((id, g));
                }
            }
            if let Some((id, g)) = best {
                self.window = id;
                self.geom.set(g);
                break;
            }
            if Instant::now() > deadline {
                self.fail(&format!(
                    "no visible window named `navscope` on {} within {:?}",
                    self.display, WINDOW_TIMEOUT
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        self.focus();
    }

    fn geometry_of(&self, id: &str) -> Option<Geometry> {
        let out = self.xdotool_output(&["getwindowgeometry", "--shell", id]);
        let mut g = Geometry {
            x: 0,
            y: 0,
            w: 0,
            h: 0,
        };
        let mut seen = 0;
        for l in out.lines() {
            let Some((k, v)) = l.split_once('=') else {
                continue;
            };
            match k.trim() {
                "X" => g.x = v.trim().parse().ok()?,
                "Y" => g.y = v.trim().parse().ok()?,
                "WIDTH" => g.w = v.trim().parse().ok()?,
                "HEIGHT" => g.h = v.trim().parse().ok()?,
                _ => continue,
            }
            seen += 1;
        }
        (seen == 4).then_some(g)
    }

    // -- the app's process ---------------------------------------------------

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }

    fn app_exited(&self) -> bool {
        let mut app = self.app_ref.borrow_mut();
        app.as_mut()
            .is_some_and(|c| c.try_wait().ok().flatten().is_some())
    }

    /// Fails at once when the app has exited.
    fn check_alive(&self) {
        let status = {
            let mut app = self.app_ref.borrow_mut();
            app.as_mut().and_then(|c| c.try_wait().ok().flatten())
        };
        if let Some(st) = status {
            self.fail(&format!(
                "the app exited ({st}) while the test was still using it"
            ));
        }
    }

    // -- failing -------------------------------------------------------------

    /// Fails the test: what was expected, the last report, the app's log,
    /// and the last screenshot saved under `target/e2e-failures/`.
    pub fn fail(&self, msg: &str) -> ! {
        self.failed.set(true);
        let mut text = format!(
            "\n==== e2e `{}` FAILED after {:.1} s ====\n{}\n",
            self.name,
            self.started.elapsed().as_secs_f64(),
            msg
        );
        // A fresh screenshot when the display still answers, else the last.
        let shot = self
            .try_screenshot()
            .or_else(|| self.last_shot.borrow().clone());
        let dir = failures_dir();
        let _ = std::fs::create_dir_all(&dir);
        if let Some(img) = shot {
            let p = dir.join(format!("{}.png", self.name));
            match img.save(&p) {
                Ok(()) => {
                    let _ = writeln!(text, "\nscreenshot: {}", p.display());
                }
                Err(e) => {
                    let _ = writeln!(text, "\n(screenshot not saved: {e})");
                }
            }
        } else {
            let _ = writeln!(text, "\n(no screenshot could be taken)");
        }
        let report = self
            .read_report()
            .or_else(|| self.last_report.borrow().clone());
        match report {
            Some(r) => {
                let _ = writeln!(
                    text,
                    "\nlast report ({}):\n{}",
                    self.report_path.display(),
                    truncate(&r.pretty(), 8000)
                );
            }
            None => {
                let _ = writeln!(
                    text,
                    "\nno report: the app never wrote a readable {} (NAVSCOPE_REPORT)",
                    self.report_path.display()
                );
            }
        }
        let log = self.log();
        let _ = std::fs::write(dir.join(format!("{}.log", self.name)), &log);
        let _ = writeln!(
            text,
            "\napp log ({}):\n{}",
            self.log_path.display(),
            tail(&log, 80)
        );
        panic!("{text}");
    }

    /// `assert!` that fails through [`Session::fail`].
    pub fn check(&self, cond: bool, msg: impl FnOnce() -> String) {
        if !cond {
            self.fail(&msg());
        }
    }

    // -- the report ----------------------------------------------------------

    /// The report as it is now on disk, `None` when absent or unreadable (a
    /// half-written file cannot be seen: the app renames it into place).
    pub fn read_report(&self) -> Option<Report> {
        let text = std::fs::read_to_string(&self.report_path).ok()?;
        let v: Value = serde_json::from_str(&text).ok()?;
        let r = Report(v);
        *self.last_report.borrow_mut() = Some(r.clone());
        Some(r)
    }

    /// Polls the report until `f` returns `Some`, for at most `timeout`.
    pub fn wait_for<T>(
        &self,
        what: &str,
        timeout: Duration,
        f: impl FnMut(&Report) -> Option<T>,
    ) -> T {
        self.poll_for(timeout, f).unwrap_or_else(|| {
            self.fail(&format!("timed out after {timeout:?} waiting for: {what}"))
        })
    }

    /// Polls the report until `f` returns `Some`, for at most `timeout`;
    /// `None` when it does not (for a gesture the caller may repeat).
    pub fn poll_for<T>(
        &self,
        timeout: Duration,
        mut f: impl FnMut(&Report) -> Option<T>,
    ) -> Option<T> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(t) = self.read_report().and_then(|r| f(&r)) {
                return Some(t);
            }
            self.check_alive();
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Waits until the report exists and the build is idle with every stage
    /// finished; returns that report.
    pub fn wait_ready(&self) -> Report {
        self.wait_ready_for(
            "the build to finish: build.busy false, build.published >= 1, stage.finished == stage.count, stage.running null, central present",
            Report::idle,
        )
    }

    /// Waits until the report exists and `ready` holds (`what` says what
    /// that is), takes the window's geometry and focuses it; returns that
    /// report.
    pub fn wait_ready_for(&self, what: &str, ready: impl Fn(&Report) -> bool) -> Report {
        let deadline = Instant::now() + REPORT_TIMEOUT;
        while self.read_report().is_none() {
            self.check_alive();
            if Instant::now() > deadline {
                self.fail(&format!(
                    "the app wrote no report to $NAVSCOPE_REPORT={} within {REPORT_TIMEOUT:?} of showing its window",
                    self.report_path.display()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let r = self.wait_for(what, WAIT, |r| ready(r).then(|| r.clone()));
        // The window may have been resized since it first appeared.
        let id = self.window.clone();
        if let Some(g) = self.geometry_of(&id) {
            self.geom.set(g);
        }
        self.focus();
        eprintln!(
            "e2e `{}`: ready after {:.1} s (frame {:?}, stage {:?}/{:?}, published {:?})",
            self.name,
            self.started.elapsed().as_secs_f64(),
            r.frame(),
            r.stage(),
            r.stage_count(),
            r.published()
        );
        r
    }

    /// Waits until `n` more frames were rendered (by the report's frame
    /// counter). Returns false if the counter does not advance within
    /// `timeout`.
    pub fn frames(&self, n: u64, timeout: Duration) -> bool {
        let Some(f0) = self.read_report().and_then(|r| r.frame()) else {
            return false;
        };
        let deadline = Instant::now() + timeout;
        loop {
            if self
                .read_report()
                .and_then(|r| r.frame())
                .is_some_and(|f| f >= f0 + n)
            {
                return true;
            }
            self.check_alive();
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// The pause between the parts of one gesture: `PACE`, then up to
    /// `PACE_FRAMES` rendered frames (by the report's frame counter) but
    /// never more than a quarter second more, because a press held longer
    /// than egui's 0.8 s is no longer a click. When the counter is seen not
    /// to move (the app rewrites the report only when something else
    /// changed), paces by time alone.
    pub fn pace(&self) {
        std::thread::sleep(PACE);
        if self.frames_unreliable.get() {
            std::thread::sleep(Duration::from_millis(150));
            return;
        }
        if !self.frames(PACE_FRAMES, Duration::from_millis(250)) {
            eprintln!(
                "e2e `{}`: note: the report's frame counter does not advance; pacing input by time only",
                self.name
            );
            self.frames_unreliable.set(true);
        }
    }

    // -- screenshots ---------------------------------------------------------

    fn try_screenshot(&self) -> Option<RgbaImage> {
        // Raw RGBA of the whole screen (no PNG round trip: cheaper for both
        // sides), cropped here to the window.
        let (sw, sh) = self.screen;
        let mut cmd = Command::new("import");
        cmd.args(["-silent", "-window", "root", "-depth", "8", "rgba:-"])
            .env("DISPLAY", &self.display);
        let out = output_within(cmd, TOOL_TIMEOUT).ok()?;
        if !out.status.success() || out.stdout.len() != (sw * sh * 4) as usize {
            return None;
        }
        let g = self.geom.get();
        let x0 = g.x.clamp(0, sw as i64) as u32;
        let y0 = g.y.clamp(0, sh as i64) as u32;
        let w = if g.w == 0 { sw } else { g.w.min(sw - x0) };
        let h = if g.h == 0 { sh } else { g.h.min(sh - y0) };
        if (x0, y0, w, h) == (0, 0, sw, sh) {
            return RgbaImage::from_raw(w, h, out.stdout);
        }
        let raw = &out.stdout;
        let mut buf = Vec::with_capacity((w * h * 4) as usize);
        for y in y0..y0 + h {
            let row = ((y * sw + x0) * 4) as usize;
            buf.extend_from_slice(&raw[row..row + (w * 4) as usize]);
        }
        RgbaImage::from_raw(w, h, buf)
    }

    /// Saves `img` as `target/e2e-shots/NAME.png` (beside the failures'
    /// screenshots), for a person to look at after a passing run; returns
    /// where.
    pub fn keep_shot(&self, img: &RgbaImage) -> PathBuf {
        let dir = failures_dir().with_file_name("e2e-shots");
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join(format!("{}.png", self.name));
        if let Err(e) = img.save(&p) {
            eprintln!(
                "e2e `{}`: screenshot not kept at {}: {e}",
                self.name,
                p.display()
            );
        }
        p
    }

    /// A screenshot of the app's window (physical pixels).
    pub fn screenshot(&self) -> RgbaImage {
        match self.try_screenshot() {
            Some(img) => {
                *self.last_shot.borrow_mut() = Some(img.clone());
                img
            }
            None => self.fail("`import -window root` could not take a screenshot"),
        }
    }

    /// Polls screenshot and report until `f` accepts them (returns `Ok`);
    /// on timeout fails with `what` and `f`'s last complaint.
    pub fn wait_for_screen<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut f: impl FnMut(&RgbaImage, &Report) -> Result<T, String>,
    ) -> T {
        let deadline = Instant::now() + timeout;
        let mut last = String::from("no report yet");
        loop {
            if let Some(r) = self.read_report() {
                let t0 = Instant::now();
                let img = self.screenshot();
                let t1 = Instant::now();
                let res = f(&img, &r);
                if std::env::var_os("NAVSCOPE_E2E_TRACE").is_some() {
                    eprintln!(
                        "e2e `{}` {:7.3} s: screen check ({:.0} ms shot, {:.0} ms check): {}",
                        self.name,
                        self.started.elapsed().as_secs_f64(),
                        (t1 - t0).as_secs_f64() * 1e3,
                        t1.elapsed().as_secs_f64() * 1e3,
                        match &res {
                            Ok(_) => "ok",
                            Err(e) => e.as_str(),
                        }
                    );
                }
                match res {
                    Ok(t) => return t,
                    Err(e) => last = e,
                }
            }
            self.check_alive();
            if Instant::now() > deadline {
                self.fail(&format!(
                    "timed out after {timeout:?} waiting for: {what}\nlast check said: {last}"
                ));
            }
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    /// A screenshot once the picture has stopped changing inside `region`
    /// (physical px): two shots at least 300 ms and a frame apart (when the
    /// frame counter moves) that differ in fewer than 0.05 % of its pixels.
    /// This only says the picture is still; wait for what you expect to see
    /// with [`Session::wait_for_screen`].
    pub fn stable_screenshot(&self, region: Rect) -> RgbaImage {
        let area = (region.width() * region.height()).max(1.0);
        let mut prev = self.screenshot();
        let deadline = Instant::now() + WAIT;
        loop {
            let t = Instant::now();
            self.frames(1, Duration::from_millis(300));
            if let Some(rest) = Duration::from_millis(300).checked_sub(t.elapsed()) {
                std::thread::sleep(rest);
            }
            let next = self.screenshot();
            let d = count_differing(&prev, &next, region, 12);
            if (d as f64) < area * 0.0005 {
                return next;
            }
            if Instant::now() > deadline {
                self.fail(&format!(
                    "the picture did not settle within {WAIT:?}: {d} pixels of {region:?} still changing"
                ));
            }
            prev = next;
        }
    }

    /// `logical` window pixels to the screenshot's physical ones.
    pub fn phys(&self, r: &Report, p: (f64, f64)) -> (f64, f64) {
        let s = r.scale();
        (p.0 * s, p.1 * s)
    }

    // -- X input ------------------------------------------------------------

    fn xdotool_output(&self, args: &[&str]) -> String {
        let mut cmd = Command::new("xdotool");
        cmd.args(args).env("DISPLAY", &self.display);
        match output_within(cmd, TOOL_TIMEOUT) {
            Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
            Err(_) => String::new(),
        }
    }

    /// Runs `xdotool ARGS` on our display; fails the test if it fails.
    pub fn xdotool(&self, args: &[&str]) {
        if std::env::var_os("NAVSCOPE_E2E_TRACE").is_some() {
            eprintln!(
                "e2e `{}` {:7.3} s: xdotool {}",
                self.name,
                self.started.elapsed().as_secs_f64(),
                args.join(" ")
            );
        }
        let mut cmd = Command::new("xdotool");
        cmd.args(args).env("DISPLAY", &self.display);
        let out = output_within(cmd, TOOL_TIMEOUT);
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) => self.fail(&format!(
                "xdotool {} failed ({}): {}",
                args.join(" "),
                o.status,
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => self.fail(&format!("xdotool {}: {e}", args.join(" "))),
        }
    }

    /// Moves the pointer to window pixel `p` (logical; scaled by the last
    /// report's factor).
    pub fn move_to(&self, p: (f64, f64)) {
        let s = self
            .last_report
            .borrow()
            .as_ref()
            .map_or(1.0, |r| r.scale());
        let x = format!("{}", (p.0 * s).round() as i64);
        let y = format!("{}", (p.1 * s).round() as i64);
        let w = self.window.clone();
        self.xdotool(&["mousemove", "--window", &w, &x, &y]);
    }

    /// Moves to `p`, dwells there as a hand does, then presses and releases
    /// the left button.
    pub fn click(&self, p: (f64, f64)) {
        self.move_to(p);
        self.dwell();
        self.button_down();
        self.button_up();
        self.pace();
    }

    /// A click with modifier keys held (`"shift"`, `"ctrl"`), held until
    /// the app shows it reacted (`until` accepts the report) as a person
    /// keeps Ctrl down until the marker moves: a slow software-rendered
    /// frame may take longer than a hand, and a modifier released within the
    /// frame of the button's release would be gone when the app looks.
    pub fn click_with(
        &self,
        mods: &[&str],
        p: (f64, f64),
        what: &str,
        until: impl FnMut(&Report) -> bool,
    ) {
        self.move_to(p);
        self.dwell();
        for m in mods {
            self.xdotool(&["keydown", m]);
        }
        self.pace();
        self.button_down();
        self.button_up();
        self.hold_until(mods, what, until);
    }

    /// Presses `key` (`"z"`) with `mods` held (`["ctrl", "shift"]`), keeping
    /// the modifiers down until the app shows it reacted (see
    /// [`Session::click_with`]).
    pub fn chord(&self, mods: &[&str], key: &str, what: &str, until: impl FnMut(&Report) -> bool) {
        self.focus();
        for m in mods {
            self.xdotool(&["keydown", m]);
        }
        self.pace();
        self.xdotool(&["keydown", key]);
        self.pace();
        self.xdotool(&["keyup", key]);
        self.hold_until(mods, what, until);
    }

    /// Presses `key` with `mods` held, each part a paced step apart, for
    /// chords whose effect the report does not show (Ctrl+A in a text field).
    pub fn chord_paced(&self, mods: &[&str], key: &str) {
        for m in mods {
            self.xdotool(&["keydown", m]);
        }
        self.pace();
        self.xdotool(&["keydown", key]);
        self.pace();
        self.xdotool(&["keyup", key]);
        self.pace();
        for m in mods.iter().rev() {
            self.xdotool(&["keyup", m]);
        }
        self.pace();
    }

    fn hold_until(&self, mods: &[&str], what: &str, mut until: impl FnMut(&Report) -> bool) {
        let deadline = Instant::now() + WAIT;
        loop {
            if self.read_report().is_some_and(|r| until(&r)) {
                break;
            }
            if self.app_exited() || Instant::now() > deadline {
                for m in mods.iter().rev() {
                    self.xdotool(&["keyup", m]);
                }
                self.check_alive();
                self.fail(&format!(
                    "timed out after {WAIT:?} (holding {}) waiting for: {what}",
                    mods.join("+")
                ));
            }
            std::thread::sleep(Duration::from_millis(30));
        }
        for m in mods.iter().rev() {
            self.xdotool(&["keyup", m]);
        }
        self.pace();
    }

    /// Moves to `p` and presses the left button (start of a drag).
    pub fn press_at(&self, p: (f64, f64)) {
        self.move_to(p);
        self.dwell();
        self.button_down();
        self.pace();
    }

    /// Moves the pointer from `from` to `to` in `steps` paced steps (with a
    /// button held this is a drag).
    pub fn move_in_steps(&self, from: (f64, f64), to: (f64, f64), steps: u32) {
        for i in 1..=steps {
            let t = i as f64 / steps as f64;
            self.move_to((from.0 + t * (to.0 - from.0), from.1 + t * (to.1 - from.1)));
            self.pace();
        }
    }

    pub fn release(&self) {
        self.button_up();
        self.pace();
    }

    /// Presses the left button and waits until the app's input has seen it
    /// held (the report's `pointer.pressed`). A hand's click lasts about a
    /// tenth of a second, but egui counts a press as a click only if the
    /// frames that see the press and the release are less than 0.8 s apart:
    /// released by the clock, a click over slow software-rendered frames
    /// could become a press and a later release that click nothing.
    fn button_down(&self) {
        self.xdotool(&["mousedown", "1"]);
        self.button_seen(true);
    }

    /// Releases the left button and waits until the app has seen it up.
    fn button_up(&self) {
        self.xdotool(&["mouseup", "1"]);
        self.button_seen(false);
    }

    fn button_seen(&self, down: bool) {
        let deadline = Instant::now() + BUTTON_SEEN;
        loop {
            if let Some(r) = self.read_report() {
                let Some(pressed) = r.get("/pointer/pressed").and_then(|v| v.as_array()) else {
                    // No mouse input in this app: nothing to wait for.
                    return;
                };
                if pressed.iter().any(|b| b == "Left") == down {
                    return;
                }
            }
            self.check_alive();
            if Instant::now() > deadline {
                self.fail(&format!(
                    "the app did not see the left button {} within {BUTTON_SEEN:?} (`pointer.pressed`)",
                    if down { "pressed" } else { "released" }
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Presses and releases a key or chord (`"Right"`, `"ctrl+z"`), sent
    /// through XTest to the focused window, as a keyboard would.
    pub fn key(&self, keys: &str) {
        self.focus();
        self.xdotool(&["key", "--clearmodifiers", keys]);
        self.pace();
    }

    /// Presses `key` `times` times in one burst (xdotool's 12 ms apart,
    /// quicker than a software-rendered frame), as a person tapping a key.
    pub fn key_burst(&self, key: &str, times: usize) {
        self.focus();
        let mut args = vec!["key", "--clearmodifiers"];
        args.extend(std::iter::repeat_n(key, times));
        self.xdotool(&args);
        self.pace();
    }

    /// The moment a person's pointer rests on a target before pressing:
    /// `DWELL`, so that the app has seen the pointer arrive (hover) in a
    /// frame of its own before the press comes.
    pub fn dwell(&self) {
        std::thread::sleep(DWELL);
        self.pace();
    }

    /// Gives the app's window the X keyboard focus (there is no window
    /// manager to do it).
    pub fn focus(&self) {
        let w = self.window.clone();
        self.xdotool(&["windowfocus", "--sync", &w]);
    }

    /// Types text into whatever has keyboard focus.
    pub fn type_text(&self, text: &str) {
        self.xdotool(&["type", "--delay", "60", text]);
        self.pace();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let panicking = std::thread::panicking();
        if panicking && !self.failed.get() {
            // A panic outside `fail` (an unwrap, a plain assert): still show
            // what the app said and keep its picture.
            let dir = failures_dir();
            let _ = std::fs::create_dir_all(&dir);
            if let Some(img) = self
                .try_screenshot()
                .or_else(|| self.last_shot.borrow().clone())
            {
                let p = dir.join(format!("{}.png", self.name));
                if img.save(&p).is_ok() {
                    eprintln!(
                        "e2e `{}`: screenshot at failure: {}",
                        self.name,
                        p.display()
                    );
                }
            }
            if let Some(r) = self.last_report.borrow().as_ref() {
                eprintln!(
                    "e2e `{}`: last report:\n{}",
                    self.name,
                    truncate(&r.pretty(), 8000)
                );
            }
            eprintln!("e2e `{}`: app log:\n{}", self.name, tail(&self.log(), 80));
        }
        if let Some(mut app) = self.app_ref.borrow_mut().take() {
            let _ = app.kill();
            let _ = app.wait();
        }
        drop(self.xvfb.take());
        eprintln!(
            "e2e `{}`: {} after {:.1} s",
            self.name,
            if panicking { "failed" } else { "done" },
            self.started.elapsed().as_secs_f64()
        );
        if !panicking {
            let _ = std::fs::remove_dir_all(&self.dir);
        } else {
            eprintln!(
                "e2e `{}`: its files are kept in {}",
                self.name,
                self.dir.display()
            );
        }
    }
}
