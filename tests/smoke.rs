//! Smoke test: the real binary renders the default level under X (Xvfb in
//! CI) and saves a screenshot that is not blank.
//!
//! Skipped, with a message, when `$DISPLAY` is not set, or failed when
//! `NAVSCOPE_E2E=required` (`tests/required/mod.rs`). CI (`.ci/run`) runs
//! the tests on an Xvfb display with Mesa's software Vulkan driver.

mod required;

use std::collections::HashSet;
use std::process::Command;

/// Whether an X display is set; when not, the test `name` skips or fails
/// ([`required::skip_or_fail`]).
fn has_display(name: &str) -> bool {
    let set = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    if !set {
        required::skip_or_fail(name, "an X display ($DISPLAY; run under xvfb-run)");
    }
    set
}

#[test]
fn screenshot_of_the_default_level_is_not_blank() {
    if !has_display("screenshot_of_the_default_level_is_not_blank") {
        return;
    }
    let out = std::env::temp_dir().join(format!("navscope-smoke-{}.png", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_navscope"))
        .args(["--stage", "4", "--screenshot"])
        .arg(&out)
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("navscope-smoke-config"),
        )
        .status()
        .expect("the navscope binary starts");
    assert!(
        status.success(),
        "navscope --screenshot exited with {status}"
    );
    let img = image::open(&out)
        .expect("the screenshot is a readable PNG")
        .to_rgba8();
    assert!(
        img.width() >= 800 && img.height() >= 600,
        "window-sized picture, got {}x{}",
        img.width(),
        img.height()
    );
    // The central area (the 3D view between the panels) must show the level
    // and its cells: many distinct colours, not a flat background.
    let (w, h) = (img.width(), img.height());
    let mut colours = HashSet::new();
    for y in (h / 5..h * 4 / 5).step_by(3) {
        for x in (w / 4..w * 3 / 4).step_by(3) {
            let p = img.get_pixel(x, y).0;
            colours.insert([p[0] / 8, p[1] / 8, p[2] / 8]);
        }
    }
    assert!(
        colours.len() >= 8,
        "only {} distinct colours in the view: blank picture?",
        colours.len()
    );
    std::fs::remove_file(out).ok();
}

#[test]
fn bad_arguments_exit_with_status_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_navscope"))
        .arg("--no-such-option")
        .output()
        .expect("starts");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-option"));
    let help = Command::new(env!("CARGO_BIN_EXE_navscope"))
        .arg("--help")
        .output()
        .expect("starts");
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("--screenshot"));
}

#[test]
fn an_unreadable_level_with_screenshot_exits_with_status_1() {
    if !has_display("an_unreadable_level_with_screenshot_exits_with_status_1") {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_navscope"))
        .args([
            "/nonexistent/level.json",
            "--screenshot",
            "/tmp/navscope-never.png",
        ])
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("navscope-smoke-config"),
        )
        .output()
        .expect("starts");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("level.json"));
}
