//! End-to-end tests of the explanations: `islands`, the gap and fix that
//! `path` reports when the search fails, and `why` at a point.

mod support;

use support::{cli, cli_json as json};

const LEDGE: &str = "assets/levels/cspace/ledge.map";
const LOW_JUMP: [&str; 2] = ["--set", "jump_height=0.5"];

#[test]
fn a_failed_path_carries_its_gap_and_a_checked_fix() {
    let mut args = vec!["path", LEDGE, "--pipeline", "cspace"];
    args.extend(LOW_JUMP);
    args.extend(["--from", "0,0,-2", "--to", "2,1,-2"]);
    let mut with_json = args.clone();
    with_json.push("--json");
    let v = json(&with_json);
    assert_eq!(v["found"], false);
    let gap = &v["gap"];
    assert_eq!(gap["link"], "jump");
    assert_eq!(gap["from"].as_array().map(Vec::len), Some(3));
    assert_eq!(gap["fix"][0]["parameter"], "jump_height");
    let value = gap["fix"][0]["value"].as_f64().expect("a number");
    assert!(
        gap["reason"]
            .as_str()
            .unwrap_or("")
            .contains("jump height 0.50 m")
    );
    // Building with the fix finds the path.
    let setting = format!("jump_height={value}");
    let mut fixed = with_json.clone();
    fixed[5] = &setting;
    assert_eq!(json(&fixed)["found"], true);
    // In words without --json.
    let o = cli(&args);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("--set jump_height={value}")),
        "{text}"
    );
}

#[test]
fn islands_list_the_parts_largest_first_with_their_gaps() {
    let mut args = vec!["islands", LEDGE, "--pipeline", "cspace", "--json"];
    args.extend(LOW_JUMP);
    let v = json(&args);
    let parts = v["islands"].as_array().expect("a list");
    assert!(parts.len() >= 2);
    assert!(parts[0]["gap"].is_null());
    let areas: Vec<f64> = parts.iter().filter_map(|p| p["area"].as_f64()).collect();
    assert!(areas.windows(2).all(|w| w[0] >= w[1]), "{areas:?}");
    assert!(
        parts[1..]
            .iter()
            .all(|p| p["gap"]["distance"].as_f64().is_some())
    );
    // The ledge's island: its gap names the refusing rule and a checked
    // fix, and building with the fix joins it to the largest.
    let ledge = &parts[1]["gap"];
    let reason = ledge["reason"].as_str().unwrap_or("");
    assert!(reason.contains("jump height 0.50 m"), "{reason}");
    assert_eq!(ledge["fix"][0]["parameter"], "jump_height", "{reason}");
    let value = ledge["fix"][0]["value"].as_f64().expect("a number");
    let setting = format!("jump_height={value}");
    let fixed = json(&[
        "islands",
        LEDGE,
        "--pipeline",
        "cspace",
        "--json",
        "--set",
        &setting,
    ]);
    let joined = fixed["islands"].as_array().expect("a list");
    assert!(joined.len() < parts.len(), "{} islands", joined.len());
    // With no fix searched, the rule is still named, and said unsearched.
    let mut unsearched = args.clone();
    unsearched.extend(["--fixes", "0"]);
    let v = json(&unsearched);
    let reason = v["islands"][1]["gap"]["reason"].as_str().unwrap_or("");
    assert!(
        reason.contains("jump height 0.50 m") && reason.contains("fix not searched"),
        "{reason}"
    );
    assert_eq!(
        v["islands"][1]["gap"]["fix"].as_array().map(Vec::len),
        Some(0)
    );
    let o = cli(&["islands", LEDGE, "--pipeline", "cspace"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("(largest)"));
}

#[test]
fn why_names_the_brush_that_covers_a_point_and_a_checked_fix() {
    // Beside the 1 m ledge (x from 1 m): the Quake player's box (a `.map`
    // takes the `quake` preset: 1 m wide) standing at x = 0.65 overlaps it.
    let args = ["why", LEDGE, "--pipeline", "cspace", "--at", "0.65,0,0"];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = json(&with_json);
    assert_eq!(v["walkable"], false);
    assert_eq!(v["stage"], "expand");
    let reason = v["reason"].as_str().unwrap_or("");
    assert!(
        reason.contains("texture ledge") && reason.contains("agent width 1.00 m"),
        "{reason}"
    );
    assert_eq!(v["fix"][0]["parameter"], "agent_width");
    let value = v["fix"][0]["value"].as_f64().expect("a number");
    // Under 0.7 m, but no less than half the player (the most a fix may
    // shrink the agent).
    assert!((0.5 - 1e-9..=0.7 + 1e-9).contains(&value), "{value}");
    // At x = 0.85 only a box under 0.3 m would fit: no fix.
    let mut close = with_json.clone();
    close[5] = "0.85,0,0";
    let v = json(&close);
    assert_eq!(v["fix"].as_array().map(Vec::len), Some(0), "{v}");
    // Building with the fix keeps the point.
    let setting = format!("agent_width={value}");
    let mut fixed = with_json.clone();
    fixed.extend(["--set", &setting]);
    assert_eq!(json(&fixed)["walkable"], true);
    // In words.
    let o = cli(&args);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("dropped at stage 'expand'"), "{text}");
    assert!(
        text.contains(&format!("--set agent_width={value}")),
        "{text}"
    );
    // A point on the floor is walkable.
    let v = json(&[
        "why",
        LEDGE,
        "--pipeline",
        "cspace",
        "--at",
        "-2,0,0",
        "--json",
    ]);
    assert_eq!(v["walkable"], true, "{v}");
}

#[test]
fn a_failed_path_names_the_rule_in_words() {
    let mut args = vec!["path", LEDGE, "--pipeline", "cspace"];
    args.extend(LOW_JUMP);
    args.extend(["--from", "0,0,-2", "--to", "2,1,-2"]);
    let text = String::from_utf8_lossy(&cli(&args).stdout).into_owned();
    assert!(
        text.contains("jump up 1.00 m > jump height 0.50 m"),
        "{text}"
    );
}
