//! What the CLI's test binaries share: running `navscope-cli` from the
//! repository root, where sample paths (`assets/levels/...`) and the shared
//! data (`../shared/...`) resolve, and reading what it printed. Each test
//! binary uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_navscope-cli");

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the CLI from the repository root.
pub fn cli(args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(root())
        .args(args)
        .output()
        .expect("run navscope-cli")
}

/// What the run printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What the run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the CLI, asserts it succeeded and parses its stdout as JSON.
pub fn cli_json(args: &[&str]) -> serde_json::Value {
    let o = cli(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}
