//! What a test that needs an X display or the X tools does when they are
//! missing: on a developer's machine it skips, loudly; where they are
//! required (`NAVSCOPE_E2E=required`, which `.ci/run` sets) it fails, so
//! that a CI machine without them cannot report the suite green.

use std::ffi::OsStr;

/// The environment variable that makes missing X tools a failure.
pub const REQUIRE_ENV: &str = "NAVSCOPE_E2E";

/// What a test does when what it needs is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhenMissing {
    /// Print a `SKIPPED:` line and pass.
    Skip,
    /// Fail, for the reason given.
    Fail(String),
}

/// What [`REQUIRE_ENV`]'s value asks for: unset or empty, skip; `required`,
/// fail; anything else fails too, naming the value, so that a misspelt
/// setting cannot turn a required suite back into a skipped one.
pub fn when_missing(value: Option<&OsStr>) -> WhenMissing {
    match value.map(OsStr::to_str) {
        None | Some(Some("")) => WhenMissing::Skip,
        Some(Some("required")) => WhenMissing::Fail(format!(
            "{REQUIRE_ENV}=required: a missing tool or display is a failure"
        )),
        Some(other) => WhenMissing::Fail(format!(
            "{REQUIRE_ENV}={} is neither `required` nor empty",
            other.unwrap_or("(not UTF-8)")
        )),
    }
}

/// Test `name` cannot run for lack of `missing`: returns after a loud
/// `SKIPPED:` line (the caller then returns), or fails the test when the
/// environment requires the tools ([`when_missing`]).
pub fn skip_or_fail(name: &str, missing: &str) {
    match when_missing(std::env::var_os(REQUIRE_ENV).as_deref()) {
        WhenMissing::Skip => {
            // Straight to the process's stderr: the test harness captures
            // `eprintln!` of passing tests, and a skip must never be silent.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "\n==================================================================\n\
                 SKIPPED: test `{name}` did not run: missing {missing}\n\
                 (set {REQUIRE_ENV}=required to make this a failure; .ci/run does)\n\
                 =================================================================="
            );
        }
        WhenMissing::Fail(why) => {
            panic!("test `{name}` cannot run: missing {missing}; {why}")
        }
    }
}

#[test]
fn missing_tools_skip_unless_the_environment_requires_them() {
    assert_eq!(when_missing(None), WhenMissing::Skip);
    assert_eq!(when_missing(Some(OsStr::new(""))), WhenMissing::Skip);
    assert!(matches!(
        when_missing(Some(OsStr::new("required"))),
        WhenMissing::Fail(_)
    ));
}

#[test]
fn a_misspelt_requirement_fails_instead_of_skipping() {
    let WhenMissing::Fail(why) = when_missing(Some(OsStr::new("requird"))) else {
        panic!("an unknown value must not skip");
    };
    assert!(why.contains("requird"), "{why}");
}
