//! End-to-end tests: the real `navscope` binary in a real X window (its own
//! Xvfb per test), driven with real X input events (`xdotool`) and checked
//! the way a person would check it: by looking at the screen (screenshots
//! read back with ImageMagick's `import`) and, for exact numbers, by the JSON
//! state report the app writes when `NAVSCOPE_REPORT` is set.
//!
//! Without `Xvfb`, `xdotool` or `import` every test prints `SKIPPED: ...` and
//! returns, or fails under `NAVSCOPE_E2E=required`; `.ci/run` installs them
//! and sets it. See `tests/e2e_support/mod.rs` for the harness and the
//! report's contract.

mod e2e_support;
mod required;

use std::time::{Duration, Instant};

use e2e_support::*;

/// How close (window pixels) a marker must land to the cursor.
const CLICK_TOLERANCE: f64 = 4.0;
/// How close marker-coloured pixels must be to the cursor in a screenshot.
const PIXEL_RADIUS: f64 = 6.0;
/// Colour tolerance per channel for the markers and the path.
const MARK_TOL: u8 = 45;
/// Colour tolerance per channel for the floor.
const FLOOR_TOL: u8 = 12;
/// Floor points keep this far (physical pixels) from anything not floor.
const FLOOR_MARGIN: u32 = 18;

// ---------------------------------------------------------------------------
// Helpers shared by the tests

/// The central 3D view in physical pixels.
fn central_phys(s: &Session, r: &Report) -> Rect {
    match r.central() {
        Some(c) => c.scaled(r.scale()),
        None => s.fail("the report has no `central` rectangle"),
    }
}

/// `n` spread points well inside the floor (floor-coloured, away from walls
/// and drawings), in logical window pixels, and the screenshot they were
/// found in. Polls until two screenshots in a row show the floor and the same
/// points (the view has been drawn and has stopped moving).
fn floor_points(s: &Session, n: usize) -> (Vec<(f64, f64)>, image::RgbaImage) {
    let mut prev: Option<(Vec<(f64, f64)>, image::RgbaImage)> = None;
    s.wait_for_screen(
        &format!("{n} points well inside the floor (about {FLOOR:?}, {FLOOR_MARGIN} px from anything else), the same in two screenshots in a row"),
        WAIT,
        |img, r| {
            let c = central_phys(s, r).inset(8.0);
            // The floor's colour as drawn: the commonest colour close to the
            // contract's cream (lighting in the perspective view may shade it).
            // The bare floor, or the floor under the NavMesh overlay.
            let floor = dominant_colour_near(img, c, FLOOR, 24)
                .or_else(|| dominant_colour_near(img, c, NAVMESH_FLOOR, 24));
            let Some(floor) = floor else {
                prev = None;
                return Err(format!(
                    "no floor-coloured area in the central view {c:?}; most common colours there: {}",
                    colour_histogram(img, c, 8)
                ));
            };
            let pts = spread_points_of_colour(img, c, floor, FLOOR_TOL, FLOOR_MARGIN, n);
            if pts.len() < n {
                prev = None;
                return Err(format!(
                    "found {} of {n} points of colour {floor:?} +-{FLOOR_TOL} in {c:?}; most common colours there: {}",
                    pts.len(),
                    colour_histogram(img, c, 8)
                ));
            }
            let k = r.scale();
            let pts: Vec<(f64, f64)> = pts.into_iter().map(|(x, y)| (x / k, y / k)).collect();
            let settled = prev.as_ref().is_some_and(|(p, before)| {
                p.iter().zip(&pts).all(|(a, b)| dist(*a, *b) <= 3.0)
                    && (count_differing(before, img, c, 12) as f64) < c.width() * c.height() * 0.001
            });
            if settled {
                return Ok((pts, img.clone()));
            }
            prev = Some((pts, img.clone()));
            std::thread::sleep(Duration::from_millis(300));
            Err("the view is still changing".into())
        },
    )
}

fn fmt_xy(p: Option<(f64, f64)>) -> String {
    p.map_or("null".into(), |(x, y)| format!("({x:.1}, {y:.1})"))
}

/// After an input meant to put the `which` marker ("start" or "goal") at
/// `at`: waits until the probe changed, then checks the marker's screen
/// position in the report and its colour on screen.
fn expect_marker_at(s: &Session, which: &str, at: (f64, f64), rev_before: Option<u64>, how: &str) {
    let ptr = format!("/probe/{which}_px");
    let colour = if which == "start" {
        START_GREEN
    } else {
        GOAL_RED
    };
    let got = s.wait_for(
        &format!(
            "the probe's {which} to be set by {how} at {}",
            fmt_xy(Some(at))
        ),
        WAIT,
        |r| {
            let px = r.xy(&ptr)?;
            // Changed since before the click (revision), or already there.
            (r.probe_revision() != rev_before || dist(px, at) <= CLICK_TOLERANCE).then_some(px)
        },
    );
    // Give a moving marker a moment to settle on its final place.
    let got = if dist(got, at) > CLICK_TOLERANCE {
        s.frames(5, Duration::from_secs(2));
        s.read_report().and_then(|r| r.xy(&ptr)).unwrap_or(got)
    } else {
        got
    };
    s.check(dist(got, at) <= CLICK_TOLERANCE, || {
        format!(
            "{how}: the {which} marker is at {} in the report (probe.{which}_px), {:.1} px from the cursor at {} (allowed {CLICK_TOLERANCE})",
            fmt_xy(Some(got)),
            dist(got, at),
            fmt_xy(Some(at))
        )
    });
    s.wait_for_screen(
        &format!("{which}-marker pixels {colour:?} within {PIXEL_RADIUS} px of the cursor at {} ({how})", fmt_xy(Some(at))),
        WAIT,
        |img, r| {
            let p = s.phys(r, at);
            let n = count_near(img, p, PIXEL_RADIUS * r.scale(), colour, MARK_TOL);
            if n >= 3 {
                Ok(())
            } else {
                Err(format!(
                    "{n} {which}-coloured pixels within {PIXEL_RADIUS} px of {}; {which}_px in the report {}; colours around the cursor: {}",
                    fmt_xy(Some(at)),
                    fmt_xy(r.xy(&ptr)),
                    colour_histogram(img, Rect { x0: p.0 - 12.0, y0: p.1 - 12.0, x1: p.0 + 12.0, y1: p.1 + 12.0 }, 5)
                ))
            }
        },
    );
}

/// Ctrl+click at `p` (sets the start in any tool), Ctrl held until the
/// probe changed; then the start marker must be under the cursor.
fn ctrl_click_start(s: &Session, p: (f64, f64), how: &str) {
    let r = s.read_report().expect("report");
    let (rev, next) = (
        r.probe_revision(),
        r.str("/next_probe_point").map(str::to_string),
    );
    s.click_with(
        &["ctrl"],
        p,
        &format!("{how}: probe.revision to change from {rev:?}"),
        |r| r.probe_revision() != rev,
    );
    expect_marker_at(s, "start", p, rev, how);
    let r = s.read_report().expect("report");
    s.check(r.str("/next_probe_point").map(str::to_string) == next, || {
        format!(
            "{how}: a Ctrl+click changed next_probe_point {next:?} -> {:?} (modifier clicks do not advance the probe tool's alternation)",
            r.str("/next_probe_point")
        )
    });
    s.check(
        r.goal_px().is_none() || dist(r.goal_px().unwrap(), p) > CLICK_TOLERANCE,
        || {
            format!(
                "{how}: the Ctrl+click set the goal at {}",
                fmt_xy(r.goal_px())
            )
        },
    );
}

/// Orange path pixels near both ends and between them.
fn path_drawn_between(
    img: &image::RgbaImage,
    r: &Report,
    a: (f64, f64),
    b: (f64, f64),
) -> Result<(), String> {
    let k = r.scale();
    let (pa, pb) = ((a.0 * k, a.1 * k), (b.0 * k, b.1 * k));
    let near_a = count_near(img, pa, 30.0 * k, PATH_ORANGE, MARK_TOL);
    let near_b = count_near(img, pb, 30.0 * k, PATH_ORANGE, MARK_TOL);
    let m = 40.0 * k;
    let bbox = Rect {
        x0: pa.0.min(pb.0) - m,
        y0: pa.1.min(pb.1) - m,
        x1: pa.0.max(pb.0) + m,
        y1: pa.1.max(pb.1) + m,
    };
    let between = count_in(img, bbox, PATH_ORANGE, MARK_TOL);
    if near_a >= 4 && near_b >= 4 && between >= 40 {
        Ok(())
    } else {
        Err(format!(
            "orange path pixels {PATH_ORANGE:?}: {near_a} within 30 px of the start {}, {near_b} within 30 px of the goal {}, {between} in their bounding box (want >= 4, >= 4, >= 40); probe.found {:?}, probe.length {:?}",
            fmt_xy(Some(a)),
            fmt_xy(Some(b)),
            r.get("/probe/found"),
            r.get("/probe/length")
        ))
    }
}

/// With the probe tool on, a click at `a` places the start and a click at
/// `b` the goal: each marker is checked where it was clicked.
fn probe_clicks_start_then_goal(s: &Session, a: (f64, f64), b: (f64, f64)) {
    let rev = s.read_report().and_then(|r| r.probe_revision());
    s.click(a);
    expect_marker_at(s, "start", a, rev, "the first click with the probe tool");
    let r = s.wait_for(
        "next_probe_point == \"goal\" after the first probe click",
        WAIT,
        |r| (r.str("/next_probe_point") == Some("goal")).then(|| r.clone()),
    );
    s.click(b);
    expect_marker_at(
        s,
        "goal",
        b,
        r.probe_revision(),
        "the second click with the probe tool",
    );
}

/// Switches to the probe tool with the key `P` (or by clicking its toolbar
/// button) and waits for the report to say so.
fn probe_tool(s: &Session, by_button: bool) {
    if by_button {
        let r = s.wait_for("the toolbar button `tool/probe` in `widgets`", WAIT, |r| {
            r.widget("tool/probe")
        });
        s.click(r.center());
    } else {
        s.key("p");
    }
    s.wait_for("the probe tool: tool == \"probe\"", WAIT, |r| {
        (r.str("/tool") == Some("probe")).then_some(())
    });
}

/// Opens the File menu with a click and waits until a person could see
/// the item `name` (it is in the report and its place on screen changed);
/// returns the item's rectangle.
fn open_file_menu(s: &Session, name: &str) -> Rect {
    let file = s.wait_for("`menu/file` in widgets", WAIT, |r| r.widget("menu/file"));
    let before = s.screenshot();
    s.click(file.center());
    s.wait_for(
        &format!("the File menu open: `{name}` in widgets"),
        WAIT,
        |r| r.widget(name),
    );
    let item = settled_widget(s, name);
    s.wait_for_screen(
        &format!("the File menu's item `{name}` drawn"),
        WAIT,
        |img, r| {
            let k = r.scale();
            let rect = item.scaled(k);
            let d = count_differing(&before, img, rect, 24);
            if d as f64 > 0.05 * rect.width() * rect.height() {
                Ok(())
            } else {
                Err(format!(
                    "{d} pixels of {rect:?} changed since the menu was closed"
                ))
            }
        },
    );
    item
}

/// Types `text` into the short field at `at` (a number, a size) as a
/// person sets an exact value: click it, wait until it has the keyboard,
/// erase what it holds (End, then Backspace [`ERASE`] times: unlike
/// Ctrl+A, no modifier that a slow frame could see released before the
/// key), type, Enter. `what` names the field in a failure.
fn type_into(s: &Session, at: (f64, f64), what: &str, text: &str) {
    type_then(s, at, what, ERASE, text, "Return");
}

/// Clicks the text field at `at`, waits until it takes the keyboard,
/// erases `erase` characters, types `text`, then presses `end`.
fn type_then(s: &Session, at: (f64, f64), what: &str, erase: usize, text: &str, end: &str) {
    s.click(at);
    s.wait_for(
        &format!("{what} to take the keyboard (`ui_keyboard`)"),
        WAIT,
        |r| r.bool("/pointer/ui_keyboard").filter(|k| *k),
    );
    s.key("End");
    s.key_burst("BackSpace", erase);
    s.type_text(text);
    s.key(end);
}

/// Backspaces that empty a short field.
const ERASE: usize = 16;

/// [`type_into`] until the report shows `accepted`, up to three times (with
/// Escape between): under a loaded software renderer a frame can take
/// longer than the pace between the keys, and a key lost then leaves a
/// value that does not parse. A person would look and type again; so does
/// this.
fn type_into_until(
    s: &Session,
    at: (f64, f64),
    what: &str,
    text: &str,
    accepted: impl Fn(&Report) -> bool,
) {
    for attempt in 1..=3 {
        type_into(s, at, what, text);
        if s.poll_for(Duration::from_secs(20), |r| accepted(r).then_some(()))
            .is_some()
        {
            return;
        }
        eprintln!("e2e: `{text}` typed into {what} not taken (attempt {attempt}); again");
        s.key("Escape");
    }
    s.fail(&format!(
        "`{text}` typed into {what} three times, never taken"
    ));
}

/// The rectangle of widget `name` once it has stopped moving (an egui
/// window may be placed anew in its second frame): the same in two reports
/// at least half a second apart.
fn settled_widget(s: &Session, name: &str) -> Rect {
    let mut seen: Option<(Rect, std::time::Instant)> = None;
    s.wait_for(
        &format!("`{name}` in widgets, in the same place for 0.5 s"),
        WAIT,
        |r| {
            let w = r.widget(name)?;
            match seen {
                Some((prev, since)) if prev == w => {
                    (since.elapsed() >= Duration::from_millis(500)).then_some(w)
                }
                _ => {
                    seen = Some((w, std::time::Instant::now()));
                    None
                }
            }
        },
    )
}

/// The probe's state a menu click must leave alone.
fn probe_state(
    r: &Report,
) -> (
    Option<serde_json::Value>,
    Option<serde_json::Value>,
    Option<u64>,
) {
    (
        r.get("/probe/start").cloned(),
        r.get("/probe/goal").cloned(),
        r.probe_revision(),
    )
}

// ---------------------------------------------------------------------------
// 1. A click puts the start marker under the cursor, in both views.

#[test]
fn a_click_puts_the_start_marker_under_the_cursor_in_top_and_perspective_view() {
    let Some(s) = Session::start("click_start_under_cursor") else {
        return;
    };
    let r = s.wait_ready();
    let central = central_phys(&s, &r);
    let (pts, _) = floor_points(&s, 3);

    probe_tool(&s, false);
    let r = s.wait_for(
        "next_probe_point == \"start\" in the probe tool",
        WAIT,
        |r| (r.str("/next_probe_point") == Some("start")).then(|| r.clone()),
    );
    // First click with the probe tool: the start.
    s.click(pts[0]);
    expect_marker_at(
        &s,
        "start",
        pts[0],
        r.probe_revision(),
        "a click with the probe tool (top view)",
    );
    // The other two anywhere on the floor: Ctrl+click sets the start.
    for p in &pts[1..] {
        ctrl_click_start(&s, *p, "a Ctrl+click (top view)");
    }

    // The perspective view: `T`, then wait for the picture to change.
    let before = s.stable_screenshot(central);
    let area = central.width() * central.height();
    s.key("t");
    s.wait_for_screen(
        "the view to change after `T` (perspective)",
        WAIT,
        |img, _| {
            let d = count_differing(&before, img, central, 24);
            if d as f64 > area * 0.01 {
                Ok(())
            } else {
                Err(format!("{d} pixels of the central view changed"))
            }
        },
    );
    let (pts, _) = floor_points(&s, 2);
    for p in &pts {
        ctrl_click_start(&s, *p, "a Ctrl+click (perspective view)");
    }
}

// ---------------------------------------------------------------------------
// 2. + 3. The probe tool's second click sets the goal and a path is drawn;
// dragging the start marker moves it and the path follows.

#[test]
fn probe_tool_second_click_sets_the_goal_draws_the_path_and_dragging_the_start_moves_it() {
    let Some(s) = Session::start("probe_goal_path_drag") else {
        return;
    };
    s.wait_ready();
    let (pts, _) = floor_points(&s, 3);
    let (a, b, c) = (pts[0], pts[1], pts[2]);

    probe_tool(&s, true);
    probe_clicks_start_then_goal(&s, a, b);
    let r = s.wait_for("a path: probe.found == true", WAIT, |r| {
        r.get("/probe/found").is_some().then(|| r.clone())
    });
    s.check(r.bool("/probe/found") == Some(true), || {
        "probe.found is not true for a start and goal on the open floor".into()
    });
    s.check(r.f64("/probe/length").is_some_and(|l| l > 0.0), || {
        "probe.length is not > 0".into()
    });
    let start_now = r.start_px().expect("start_px");
    let goal_now = r.goal_px().expect("goal_px");
    s.wait_for_screen(
        "the smoothed path (orange) drawn from the start to the goal",
        WAIT,
        |img, r| path_drawn_between(img, r, start_now, goal_now),
    );

    // Drag the start marker from where it is to point c.
    let r = s.read_report().expect("report");
    let rev0 = r.probe_revision();
    let grab = r.start_px().expect("start_px");
    s.press_at(grab);
    // Hold still until the marker is grabbed, as a hand waits to see it
    // (`pointer.dragging`, where the report has it): on a slow frame the
    // press and the first moves would otherwise reach the app together.
    s.wait_for(
        "pressing on the start marker grabs it: pointer.dragging non-null",
        WAIT,
        |r| (r.0.get("pointer").is_none() || r.get("/pointer/dragging").is_some()).then_some(()),
    );
    s.move_in_steps(grab, c, 12);
    // Still holding the button: the marker and the path follow.
    s.wait_for(
        &format!("while dragging (button held): start_px within {CLICK_TOLERANCE} px of the cursor at {} and a new probe.revision", fmt_xy(Some(c))),
        WAIT,
        |r| (r.probe_revision() != rev0 && r.start_px().is_some_and(|p| dist(p, c) <= CLICK_TOLERANCE)).then_some(()),
    );
    s.release();
    let r = s.wait_for(
        "the probe's answer after the drag: probe.found not null",
        WAIT,
        |r| r.get("/probe/found").is_some().then(|| r.clone()),
    );
    let sp = r.start_px();
    s.check(sp.is_some_and(|p| dist(p, c) <= CLICK_TOLERANCE), || {
        format!(
            "after the drag the start is at {} in the report, not at the release point {}",
            fmt_xy(sp),
            fmt_xy(Some(c))
        )
    });
    s.check(r.probe_revision() != rev0, || {
        "probe.revision did not change with the drag".into()
    });
    let gp = r.goal_px();
    s.check(
        gp.is_some_and(|p| dist(p, goal_now) <= CLICK_TOLERANCE),
        || {
            format!(
                "dragging the start moved the goal: {} -> {}",
                fmt_xy(Some(goal_now)),
                fmt_xy(gp)
            )
        },
    );
    s.check(r.bool("/probe/found") == Some(true), || {
        "no path after dragging the start to open floor".into()
    });
    let goal_now = gp.unwrap();
    s.wait_for_screen(
        &format!("the start marker (green) at the release point {} and the path (orange) from there", fmt_xy(Some(c))),
        WAIT,
        |img, r| {
            let k = r.scale();
            let green_new = count_near(img, (c.0 * k, c.1 * k), PIXEL_RADIUS * k, START_GREEN, MARK_TOL);
            let green_old = count_near(img, (a.0 * k, a.1 * k), 4.0 * k, START_GREEN, MARK_TOL);
            if green_new < 3 || green_old > 0 {
                return Err(format!(
                    "{green_new} green pixels at the release point (want >= 3), {green_old} still at the old place {} (want 0)",
                    fmt_xy(Some(a))
                ));
            }
            path_drawn_between(img, r, c, goal_now)
        },
    );
}

// ---------------------------------------------------------------------------
// Polyanya's path is never longer than A*'s: with the method "both" chosen
// in the probe panel, the report gives both lengths.

#[test]
fn probe_with_both_methods_polyanya_is_no_longer_than_astar() {
    let Some(s) = Session::start("probe_both_methods") else {
        return;
    };
    s.wait_ready();
    let r = s.wait_for(
        "the default method: probe.method == \"polyanya\"",
        WAIT,
        |r| (r.str("/probe/method") == Some("polyanya")).then(|| r.clone()),
    );
    let window = (r.f64("/window/width"), r.f64("/window/height"));
    let both = settled_widget(&s, "probe/method/both");
    s.check(
        window.0.is_some_and(|w| both.x1 <= w) && window.1.is_some_and(|h| both.y1 <= h),
        || {
            format!(
                "the method button `probe/method/both` {both:?} is not inside the window {window:?}"
            )
        },
    );
    s.click(both.center());
    s.wait_for("a click on \"both\": probe.method == \"both\"", WAIT, |r| {
        (r.str("/probe/method") == Some("both")).then_some(())
    });

    let (pts, _) = floor_points(&s, 2);
    let (a, b) = (pts[0], pts[1]);
    probe_tool(&s, false);
    probe_clicks_start_then_goal(&s, a, b);
    let r = s.wait_for(
        "both paths: probe.length and probe.astar_length not null",
        WAIT,
        |r| {
            (r.f64("/probe/length").is_some() && r.f64("/probe/astar_length").is_some())
                .then(|| r.clone())
        },
    );
    let polyanya = r.f64("/probe/length").unwrap();
    let astar = r.f64("/probe/astar_length").unwrap();
    s.check(r.str("/probe/method") == Some("both"), || {
        format!("probe.method is {:?}, not \"both\"", r.str("/probe/method"))
    });
    s.check(polyanya > 0.0, || {
        format!("probe.length {polyanya} is not > 0")
    });
    s.check(polyanya <= astar + 1e-6, || {
        format!("Polyanya's path ({polyanya} m) is longer than A*'s ({astar} m)")
    });
}

// ---------------------------------------------------------------------------
// 4. Clicks on the File menu and on one of its items never reach the scene.

#[test]
fn clicking_the_file_menu_and_its_item_does_not_move_the_start() {
    let Some(s) = Session::start("menu_click_keeps_start") else {
        return;
    };
    s.wait_ready();
    let (pts, _) = floor_points(&s, 1);
    probe_tool(&s, false);
    let rev = s.read_report().and_then(|r| r.probe_revision());
    s.click(pts[0]);
    expect_marker_at(&s, "start", pts[0], rev, "a click with the probe tool");
    let r = s.wait_for("next_probe_point == \"goal\"", WAIT, |r| {
        (r.str("/next_probe_point") == Some("goal")).then(|| r.clone())
    });
    let before = probe_state(&r);

    // The File menu opens...
    let item = open_file_menu(&s, "menu/file/open");
    s.frames(5, Duration::from_secs(2));
    let r = s.read_report().expect("report");
    s.check(probe_state(&r) == before, || {
        format!(
            "a click on the File menu changed the probe: {before:?} -> {:?}",
            probe_state(&r)
        )
    });
    // ...and a click on its item "Open level…" closes it.
    s.click(item.center());
    s.wait_for(
        "the File menu closed after clicking its item (`menu/file/open` gone)",
        WAIT,
        |r| r.widget("menu/file/open").is_none().then_some(()),
    );
    s.frames(5, Duration::from_secs(2));
    let r = s.read_report().expect("report");
    s.check(probe_state(&r) == before, || {
        format!(
            "a click on File → Open level… changed the probe: {before:?} -> {:?}",
            probe_state(&r)
        )
    });
    s.key("Escape");
    s.frames(5, Duration::from_secs(2));
    let r = s.read_report().expect("report");
    s.check(probe_state(&r) == before, || {
        format!(
            "after the menu clicks and Escape the probe changed: {before:?} -> {:?}",
            probe_state(&r)
        )
    });
    let sp = r.start_px();
    s.check(
        sp.is_some_and(|p| dist(p, pts[0]) <= CLICK_TOLERANCE),
        || {
            format!(
                "the start marker moved to {} (was at {})",
                fmt_xy(sp),
                fmt_xy(Some(pts[0]))
            )
        },
    );
    s.check(r.goal_px().is_none(), || {
        format!("a goal appeared at {}", fmt_xy(r.goal_px()))
    });
}

// ---------------------------------------------------------------------------
// 5. A slider drag rebuilds; Ctrl+Z restores the value, Ctrl+Shift+Z redoes.

#[test]
fn dragging_a_parameter_slider_rebuilds_and_ctrl_z_undoes_it() {
    let Some(s) = Session::start("slider_rebuild_undo") else {
        return;
    };
    s.wait_ready();
    // As a person would: wait until the window shows the level.
    floor_points(&s, 1);
    // A float parameter whose slider is on screen (the widest one).
    let float_slider = |r: &Report| {
        let params = r.get("/params")?.as_object()?;
        params
            .iter()
            .filter(|(_, v)| v.is_f64())
            .filter_map(|(k, _)| r.widget(&format!("param/{k}")).map(|w| (k.clone(), w)))
            .filter(|(_, w)| w.width() >= 30.0)
            .max_by(|a, b| a.1.width().total_cmp(&b.1.width()))
    };
    let (name, slider) = s.wait_for(
        "a float parameter in `params` with its slider `param/<name>` (>= 30 px wide) in `widgets`",
        Duration::from_secs(30),
        float_slider,
    );
    let r = s.read_report().expect("report");
    let old = r.param(&name).and_then(|v| v.as_f64()).expect("float");
    let published0 = r.published().unwrap_or(0);
    let undo0 = r.u64("/undo/undo").unwrap_or(0);
    let status0 = r.str("/status").map(str::to_string);

    let (from, to) = (slider.at(0.2, 0.5), slider.at(0.8, 0.5));
    s.press_at(from);
    s.move_in_steps(from, to, 10);
    s.release();
    let r = s.wait_for(
        &format!("a rebuild after dragging `param/{name}`: params.{name} != {old}, build.published > {published0}, build idle"),
        WAIT,
        |r| {
            let v = r.param(&name)?.as_f64()?;
            (v != old && r.published()? > published0 && r.idle()).then(|| r.clone())
        },
    );
    // As a person would: watch the value until it has settled after the
    // release (a drag may publish intermediate values while it moves).
    let mut last = (
        r.param(&name).and_then(|v| v.as_f64()),
        std::time::Instant::now(),
    );
    let r = s.wait_for(
        &format!("params.{name} to stay the same for 1.5 s after the release, build idle"),
        WAIT,
        |r| {
            let v = r.param(&name).and_then(|v| v.as_f64());
            if v != last.0 {
                last = (v, std::time::Instant::now());
                return None;
            }
            (last.1.elapsed() >= Duration::from_millis(1500) && r.idle()).then(|| r.clone())
        },
    );
    let new = r.param(&name).and_then(|v| v.as_f64()).unwrap();
    s.check(r.u64("/undo/undo").unwrap_or(0) > undo0, || {
        format!(
            "the slider drag left no undo step: undo.undo {:?} (was {undo0})",
            r.get("/undo/undo")
        )
    });
    eprintln!(
        "e2e: slider `{name}` {old} -> {new}; status {:?} -> {:?}",
        status0,
        r.str("/status")
    );

    // Ctrl+Z: one step back must restore the value from before the drag
    // (one drag, one undo step, however many builds it started).
    let undo1 = r.u64("/undo/undo").unwrap_or(0);
    s.chord(
        &["ctrl"],
        "z",
        &format!("Ctrl+Z to take a step back: undo.undo below {undo1} or params.{name} != {new}"),
        |r| {
            r.u64("/undo/undo").unwrap_or(0) < undo1
                || r.param(&name).and_then(|v| v.as_f64()) != Some(new)
        },
    );
    let r = s.read_report().expect("report");
    let v = r.param(&name).and_then(|v| v.as_f64());
    s.check(v == Some(old), || {
        format!(
            "Ctrl+Z after one slider drag ({old} -> {new}) left params.{name} at {v:?}, not {old}; undo {} (it was {undo1} after the drag)",
            r.get("/undo").map_or("null".into(), |u| u.to_string())
        )
    });
    s.check(r.u64("/undo/redo").unwrap_or(0) >= 1, || {
        "after Ctrl+Z, undo.redo is not >= 1".into()
    });
    let redo1 = r.u64("/undo/redo").unwrap_or(0);
    s.chord(
        &["ctrl", "shift"],
        "z",
        &format!("Ctrl+Shift+Z to redo: undo.redo below {redo1} or params.{name} != {old}"),
        |r| {
            r.u64("/undo/redo").unwrap_or(0) < redo1
                || r.param(&name).and_then(|v| v.as_f64()) != Some(old)
        },
    );
    let r = s.read_report().expect("report");
    let v = r.param(&name).and_then(|v| v.as_f64());
    s.check(v == Some(new), || {
        format!("Ctrl+Shift+Z left params.{name} at {v:?}, not the dragged value {new}")
    });
    s.wait_for("the build idle again after redo", WAIT, |r| {
        r.idle().then_some(())
    });
}

// ---------------------------------------------------------------------------
// 6. Arrow keys step through the stages, and the picture changes.

#[test]
fn arrow_keys_step_stages_and_the_view_changes() {
    let Some(s) = Session::start("arrow_keys_step_stages") else {
        return;
    };
    let r = s.wait_ready();
    let central = central_phys(&s, &r);
    let count = r.stage_count().unwrap();
    let c0 = r.stage().unwrap();
    s.check(count >= 2, || format!("only {count} stage(s)"));
    // Keep the pointer over the view, away from any panel.
    s.move_to(r.central().unwrap().center());
    // The level drawn and settled.
    let (_, shot0) = floor_points(&s, 1);
    // Step away from the current stage (left unless at the first) and back.
    let (first_key, back_key, c1) = if c0 > 0 {
        ("Left", "Right", c0 - 1)
    } else {
        ("Right", "Left", c0 + 1)
    };
    s.key(first_key);
    s.wait_for(
        &format!("`{first_key}` to change stage.current {c0} -> {c1}"),
        WAIT,
        |r| (r.stage() == Some(c1)).then_some(()),
    );
    let area = central.width() * central.height();
    let shot1 = s.wait_for_screen(
        &format!("the central view to change from stage {c0} to {c1}"),
        WAIT,
        |img, _| {
            let d = count_differing(&shot0, img, central, 24);
            if d as f64 > area * 0.002 {
                Ok(img.clone())
            } else {
                Err(format!("{d} pixels differ"))
            }
        },
    );
    let _ = shot1;
    let shot1 = s.stable_screenshot(central);
    s.key(back_key);
    s.wait_for(
        &format!("`{back_key}` to change stage.current {c1} -> {c0}"),
        WAIT,
        |r| (r.stage() == Some(c0)).then_some(()),
    );
    s.wait_for_screen(
        &format!("the central view to change back from stage {c1} to {c0}"),
        WAIT,
        |img, _| {
            let d = count_differing(&shot1, img, central, 24);
            if d as f64 > area * 0.002 {
                Ok(())
            } else {
                Err(format!("{d} pixels differ"))
            }
        },
    );
}

/// Quick taps of the Up key each step one sub-step, though the frames of
/// a software renderer gather several of them.
#[test]
fn a_burst_of_up_presses_steps_one_sub_step_each() {
    let Some(s) = Session::start("up_burst") else {
        return;
    };
    let r = s.wait_ready();
    s.move_to(r.central().unwrap().center());
    s.key("Home");
    s.wait_for("`Home` to show the first stage", WAIT, |r| {
        (r.stage() == Some(0)).then_some(())
    });
    s.key("Right");
    s.wait_for("`Right` to show the second stage", WAIT, |r| {
        (r.stage() == Some(1)).then_some(())
    });
    s.key_burst("Up", 3);
    s.wait_for(
        "three quick `Up` presses to reach the third sub-step",
        WAIT,
        |r| (r.substep() == Some(2)).then_some(()),
    );
}

// ---------------------------------------------------------------------------
// 7. File → Export NavMesh JSON writes the documented contract.

#[test]
fn file_export_navmesh_json_writes_a_mesh_the_cli_accepts() {
    let Some(s) = Session::start("export_navmesh_json") else {
        return;
    };
    s.wait_ready();
    // As a person would: wait until the window shows the level.
    floor_points(&s, 1);
    let out = s.dir.join("exported-mesh.json");
    let _ = std::fs::remove_file(&out);

    let item = open_file_menu(&s, "menu/file/export-json");
    s.click(item.center());
    // No desktop portal under Xvfb: the app offers a path field.
    s.wait_for(
        "the path field `dialog/path` (no file dialog can be shown under Xvfb without a portal)",
        WAIT,
        |r| r.widget("dialog/path"),
    );
    let field = settled_widget(&s, "dialog/path");
    s.click(field.center());
    // Select what the field holds, to type over it: Ctrl held down around
    // the A, as a hand does (a burst of ctrl+a in one frame reads as "a").
    s.chord_paced(&["ctrl"], "a");
    s.type_text(out.to_str().unwrap());
    let ok = settled_widget(&s, "dialog/path/ok");
    s.click(ok.center());
    let want = out.to_string_lossy().into_owned();
    s.wait_for(
        &format!("{want} written and listed in `exports`"),
        WAIT,
        |r| {
            let listed = r.get("/exports")?.as_array()?.iter().any(|e| {
                e.as_str()
                    .is_some_and(|p| p == want || std::path::Path::new(p) == out)
            });
            (listed && out.is_file()).then_some(())
        },
    );
    let text = std::fs::read_to_string(&out).expect("read the export");
    match navscope_core::NavMesh::from_json(&text) {
        Ok(mesh) => s.check(!mesh.nodes.is_empty(), || {
            "the exported NavMesh has no nodes".into()
        }),
        Err(e) => s.fail(&format!(
            "the exported file is not a NavMesh JSON: {e}\n{}",
            &text[..text.len().min(600)]
        )),
    }
    match cli_bin() {
        Some(cli) => {
            let o = std::process::Command::new(&cli)
                .arg("info")
                .arg(&out)
                .output()
                .expect("run navscope-cli");
            s.check(o.status.success(), || {
                format!(
                    "`navscope-cli info {}` exited with {}: {}{}",
                    out.display(),
                    o.status,
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                )
            });
        }
        None => eprintln!(
            "e2e: no navscope-cli beside {}; `info` not run",
            navscope_bin().display()
        ),
    }
}

// ---------------------------------------------------------------------------
// 8. Hover names the element under the cursor, and nothing over a panel.

/// The default level's pipeline (convex) draws its cells in this stage
/// (0-based: "4. Convex cells and the cell-and-portal graph").
const CELLS_STAGE: u64 = 3;

#[test]
fn hovering_a_drawn_element_sets_hover_and_a_panel_clears_it() {
    let Some(s) = Session::start("hover") else {
        return;
    };
    s.wait_ready();
    // A point of open floor, found where the floor shows (the cells cover
    // it in their stage)...
    let (pts, _) = floor_points(&s, 1);
    let p = pts[0];
    // ...then the cells' stage, chosen on the timeline.
    let r = s.read_report().expect("report");
    if r.stage() != Some(CELLS_STAGE) {
        let name = format!("timeline/stage/{CELLS_STAGE}");
        let button = r
            .widget(&name)
            .unwrap_or_else(|| s.fail(&format!("no `{name}` in widgets: {:?}", r.widget_names())));
        s.click(button.center());
        s.wait_for(
            &format!("stage.current == {CELLS_STAGE} after clicking `{name}`"),
            WAIT,
            |r| (r.stage() == Some(CELLS_STAGE)).then_some(()),
        );
    }
    s.move_to((p.0 + 3.0, p.1));
    s.pace();
    s.move_to(p);
    let r = s.wait_for(
        &format!(
            "`hover` non-null with the pointer on a cell at {} in stage {CELLS_STAGE}",
            fmt_xy(Some(p))
        ),
        WAIT,
        |r| r.get("/hover").is_some().then(|| r.clone()),
    );
    let hover = r.get("/hover").unwrap().clone();
    eprintln!("e2e: hover at {}: {hover}", fmt_xy(Some(p)));
    s.check(hover.get("stage").and_then(|v| v.as_u64()) == Some(CELLS_STAGE), || {
        format!("hover names an element of another stage than the one shown ({CELLS_STAGE}): {hover}")
    });
    s.check(
        hover
            .get("kind")
            .and_then(|v| v.as_str())
            .is_some_and(|k| !k.is_empty()),
        || format!("hover has no kind: {hover}"),
    );
    let panel = r
        .widget("panel/left")
        .or_else(|| r.widget("panel/right"))
        .unwrap_or_else(|| s.fail("no `panel/left` or `panel/right` in widgets"));
    // A point low in the panel, past its controls.
    s.move_to(panel.at(0.5, 0.9));
    s.wait_for("`hover` null with the pointer over a panel", WAIT, |r| {
        r.get("/hover").is_none().then_some(())
    });
}

// ---------------------------------------------------------------------------
// The harness's own picture reading (no display needed).

#[test]
fn harness_finds_spread_points_well_inside_an_area_of_one_colour() {
    let mut img = image::RgbaImage::from_pixel(400, 300, image::Rgba([200, 205, 215, 255]));
    // A cream floor from (50, 40) to (350, 260) with a dark wall across it at x = 200.
    for y in 40..260 {
        for x in 50..350 {
            img.put_pixel(x, y, image::Rgba([247, 245, 237, 255]));
        }
        for x in 198..202 {
            img.put_pixel(x, y, image::Rgba([60, 60, 70, 255]));
        }
    }
    let all = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: 400.0,
        y1: 300.0,
    };
    assert_eq!(
        dominant_colour_near(&img, all, FLOOR, 24),
        Some([247, 245, 237])
    );
    let pts = spread_points_of_colour(&img, all, [247, 245, 237], 12, 18, 3);
    assert_eq!(pts.len(), 3, "{pts:?}");
    for &(x, y) in &pts {
        assert!(
            (68.0..=332.0).contains(&x) && (58.0..=242.0).contains(&y),
            "({x}, {y}) too close to the floor's edge"
        );
        assert!(
            (x - 200.0).abs() >= 20.0,
            "({x}, {y}) too close to the wall"
        );
    }
    for i in 0..3 {
        for j in i + 1..3 {
            assert!(dist(pts[i], pts[j]) > 60.0, "{pts:?} not spread");
        }
    }
    // Wall columns 198..=201 within 3 px of (200, 100): 5 + 5 + 7 + 5 pixels.
    assert_eq!(count_near(&img, (200.0, 100.0), 3.0, [60, 60, 70], 5), 22);
    let mut other = img.clone();
    other.put_pixel(10, 10, image::Rgba([0, 0, 0, 255]));
    assert_eq!(count_differing(&img, &other, all, 24), 1);
}

// ---------------------------------------------------------------------------
// 10. A real level at scale: every stage of a released Quake map, scrubbed
//     with the keys, each shown, and a stage that let its data go drawn
//     again as it was. The CPU of each switch frame is printed here and
//     measured where speed is measured (`navscope LEVEL --measure`,
//     `cargo bench --bench app_frames`), not asserted in a test.

/// The shared Quake map at `rel` (under `../shared/data/quake-maps/`), or
/// `None` after saying loudly that it is missing: shared data, unlike a
/// tool, may be absent, and its tests skip.
fn shared_map(rel: &str) -> Option<std::path::PathBuf> {
    let p = root().join("../shared/data/quake-maps").join(rel);
    if p.is_file() {
        return Some(p);
    }
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\nSKIPPED: {} is missing (the shared data)\n",
        p.display()
    );
    None
}

#[test]
fn scrubbing_every_stage_of_a_released_quake_map_shows_each_and_redraws_evicted_ones() {
    let Some(level) = shared_map("lq_e3m4.map") else {
        return;
    };
    let opts = Options {
        level,
        args: vec!["--pipeline".into(), "cspace".into(), "--cpu".into()],
    };
    let Some(s) = Session::start_with("scrub_e3m4", opts) else {
        return;
    };
    let r = s.wait_ready();
    let count = r.stage_count().unwrap_or(0);
    s.check(count >= 4, || format!("cspace has {count} stage(s)"));
    s.move_to(r.central().unwrap().center());
    // Each stage's drawn groups, as shown the first time.
    let shows = |r: &Report, i: u64| {
        (r.stage() == Some(i))
            .then(|| r.u64("/stage/shown_groups"))
            .flatten()
            .filter(|&n| n > 0)
    };
    s.key("Home");
    let mut groups = vec![s.wait_for("`Home` to show the first stage", WAIT, |r| shows(r, 0))];
    for i in 1..count {
        s.key("Right");
        groups.push(s.wait_for(&format!("`Right` to show stage {i}"), WAIT, |r| shows(r, i)));
    }
    // Each switch is measured over its frame and the next one (a switch
    // made in the frame after another shares that frame's reading).
    let r = s.wait_for(
        &format!("the CPU readings of {count} switches, none pending"),
        WAIT,
        |r| (r.u64("/cpu/switches")? >= count && r.u64("/cpu/pending")? == 0).then(|| r.clone()),
    );
    let worst = r.f64("/cpu/switch_max_ms").unwrap_or(f64::INFINITY);
    let extract = r.f64("/cpu/switch_max_extract_ms").unwrap_or(f64::NAN);
    eprintln!(
        "e2e scrub_e3m4: {count} stages, worst switch frame {worst:.2} ms of CPU ({extract:.2} ms of it extraction)"
    );

    // Big stages out of sight let their data go (`view::residency`);
    // stepping back to one makes it again off the main thread, drawn as it
    // was the first time.
    let r = s.wait_for("a big hidden stage to let its data go", WAIT, |r| {
        (!r.evicted().is_empty()).then(|| r.clone())
    });
    let back = *r.evicted().first().unwrap_or(&0);
    let last = r.stage().unwrap_or(0);
    for i in (back..last).rev() {
        s.key("Left");
        s.wait_for(&format!("`Left` to show stage {i}"), WAIT, |r| {
            (r.stage() == Some(i)).then_some(())
        });
    }
    let switches = count + (last - back);
    let r = s.wait_for(
        &format!("stage {back} back, and the CPU readings of {switches} switches"),
        WAIT,
        |r| {
            let ready = !r.evicted().contains(&back)
                && r.u64("/stage/shown_groups")? == groups[back as usize]
                && r.u64("/cpu/switches")? >= switches
                && r.u64("/cpu/pending")? == 0;
            ready.then(|| r.clone())
        },
    );
    let worst = r.f64("/cpu/switch_max_ms").unwrap_or(f64::INFINITY);
    eprintln!("e2e scrub_e3m4: back to evicted stage {back}, worst switch frame {worst:.2} ms");
}

// ---------------------------------------------------------------------------
// 11. Compare: pin the build as B, change a parameter, and the difference
//     view shows where only A and where only B is walkable, in two colours.

/// True for a pixel of the A-only colour (chartreuse) as drawn over the
/// floor.
/// (0.60, 1.00, 0.00) at 65 % over anything: green at least 0.65 of full,
/// red at least 0.65 of 0.60, blue low; neither the stand green (0.25,
/// 0.63, 0.25) nor the axis cross's green has that much red.
fn a_only_pixel(p: [u8; 3]) -> bool {
    let [r, g, b] = p.map(i32::from);
    g > 150 && r > 80 && g > r + 40 && g > b + 100
}

/// True for a pixel of the B-only colour (ultramarine) as drawn over the
/// floor.
/// (0.30, 0.00, 1.00) at 65 % over anything: blue at least 0.65 of full,
/// little green, and less red than the sidestep purple (0.58, 0.32, 0.85).
fn b_only_pixel(p: [u8; 3]) -> bool {
    let [r, g, b] = p.map(i32::from);
    b > 150 && g < 100 && r < 130 && b > r + 80 && r > g
}

/// The A-only (chartreuse) and B-only (ultramarine) pixels of `img` inside `region`
/// at which `keep(x, y)` holds.
fn colour_counts(
    img: &image::RgbaImage,
    region: &Rect,
    mut keep: impl FnMut(u32, u32) -> bool,
) -> (usize, usize) {
    let (mut a, mut b) = (0, 0);
    let (x0, y0) = (region.x0.max(0.0) as u32, region.y0.max(0.0) as u32);
    let (x1, y1) = (
        (region.x1 as u32).min(img.width()),
        (region.y1 as u32).min(img.height()),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y).0;
            let p = [p[0], p[1], p[2]];
            if (a_only_pixel(p) || b_only_pixel(p)) && keep(x, y) {
                if a_only_pixel(p) {
                    a += 1;
                } else {
                    b += 1;
                }
            }
        }
    }
    (a, b)
}

#[test]
fn pinning_a_build_and_changing_a_parameter_draws_both_colours_of_the_difference() {
    let opts = Options {
        level: default_level(),
        // The tiles stage: its drawing has neither of the difference's
        // colours (the partition stage colours regions orange and blue too).
        args: vec![
            "--pipeline".into(),
            "voxel".into(),
            "--stage".into(),
            "tiles".into(),
        ],
    };
    let Some(s) = Session::start_with("compare_pin", opts) else {
        return;
    };
    let r = s.wait_ready();
    let central = central_phys(&s, &r);
    let pin = settled_widget(&s, "compare/pin");
    s.click(pin.center());
    s.wait_for("`compare.pinned` after clicking `compare/pin`", WAIT, |r| {
        r.bool("/compare/pinned").filter(|p| *p)
    });
    let r = s.read_report().expect("report");
    let old = r
        .param("cell_size")
        .and_then(|v| v.as_f64())
        .expect("cell_size");
    // Type the new value into the slider's number field, as a person sets
    // an exact value: click it, select what it holds, type, Enter.
    let slider = settled_widget(&s, "param/cell_size");
    type_into_until(&s, slider.at(0.92, 0.5), "the number field", "0.25", |r| {
        r.param("cell_size").and_then(|v| v.as_f64()) != Some(old)
    });
    // A coarser grid moves the boundary both ways: some ground only A
    // reaches, some only B.
    let r = s.wait_for(
        &format!(
            "params.cell_size != {old}, the build idle and both difference areas above 0.5 m²"
        ),
        WAIT,
        |r| {
            let v = r.param("cell_size")?.as_f64()?;
            let (a, b) = (r.f64("/compare/a_only")?, r.f64("/compare/b_only")?);
            (v != old && r.idle() && a > 0.5 && b > 0.5).then(|| r.clone())
        },
    );
    eprintln!(
        "e2e compare_pin: cell_size {old} -> {:?}: A only {:?} m², B only {:?} m²",
        r.param("cell_size"),
        r.f64("/compare/a_only"),
        r.f64("/compare/b_only")
    );
    // What the difference adds to the picture. First both its colours on
    // screen (a still picture alone could be one taken before the drawing
    // caught up: software rendering can take longer per frame than the
    // screenshots are apart). The tiles stage shown draws neither colour
    // (the voxel partition stage draws both), so they say the difference
    // is there.
    let on = s.wait_for_screen(
        "both colours of the difference on screen",
        WAIT,
        |img, _| {
            let (a, b) = colour_counts(img, &central, |_, _| true);
            if a >= 30 && b >= 30 {
                Ok(img.clone())
            } else {
                Err(format!(
                    "{a} A-only (chartreuse) and {b} B-only (ultramarine) pixels; want 30 of each"
                ))
            }
        },
    );
    // Then the pixels of those colours that go when it is switched off.
    let show = settled_widget(&s, "compare/show");
    s.click(show.center());
    s.wait_for(
        "`compare.show` false after clicking `compare/show`",
        WAIT,
        |r| (r.bool("/compare/show") == Some(false)).then_some(()),
    );
    s.wait_for_screen("the difference's colours to disappear", WAIT, |off, _| {
        let (a, b) = colour_counts(&on, &central, |x, y| {
            let (p, q) = (on.get_pixel(x, y).0, off.get_pixel(x, y).0);
            let q = [q[0], q[1], q[2]];
            !a_only_pixel(q) && !b_only_pixel(q) && p[..3] != q
        });
        if a >= 30 && b >= 30 {
            Ok(())
        } else {
            Err(format!(
                "{a} A-only (chartreuse) and {b} B-only (ultramarine) pixels went away with the difference; want 30 of each"
            ))
        }
    });
}

// ---------------------------------------------------------------------------
// 12. Level of detail: zooming far out draws far voxels merged and the
//     legend says so; zooming back in shows every voxel again.

/// Time between two wheel notches, so the camera follows each.
const NOTCH_PACE: Duration = Duration::from_millis(150);
/// Most wheel notches a zoom may take.
const MAX_NOTCHES: u32 = 60;

/// Turns the wheel (`button` 4: in, 5: out) over the view one notch at a
/// time until `done` holds for the report.
fn wheel_until(s: &Session, button: &str, what: &str, done: impl Fn(&Report) -> bool) {
    let mut notches = 0;
    let mut last: Option<Instant> = None;
    s.wait_for(what, WAIT, |r| {
        if done(r) {
            return Some(());
        }
        if notches < MAX_NOTCHES && last.is_none_or(|t| t.elapsed() >= NOTCH_PACE) {
            s.xdotool(&["click", button]);
            notches += 1;
            last = Some(Instant::now());
        }
        None
    });
}

/// A session `name` on the table room in `voxel` at `stage`, once built.
fn table_room_at(name: &str, stage: &str) -> Option<(Session, Report)> {
    open_ready(
        name,
        "assets/levels/voxel/table_room.obj",
        &["--pipeline", "voxel", "--stage", stage],
    )
}

/// Starts the app on the bundled level `asset` with `args` and waits until
/// it is ready; `None` when the session skips (no display tools).
fn open_ready(name: &str, asset: &str, args: &[&str]) -> Option<(Session, Report)> {
    let s = Session::start_with(name, Options::new(root().join(asset), args))?;
    let r = s.wait_ready();
    Some((s, r))
}

#[test]
fn zooming_out_merges_far_voxels_and_zooming_back_in_restores_every_voxel() {
    let Some((s, _)) = table_room_at("voxel_lod", "flag") else {
        return;
    };
    // A shown voxel stage is meshed off the main thread, group by group:
    // its tiles arrive a few frames after the stage shows, and all of them
    // once no group is meshing.
    let r = s.wait_for(
        "the flag stage's voxel tiles, every group meshed",
        WAIT,
        |r| {
            (r.u64("/voxels/tiles").is_some_and(|n| n > 0) && r.u64("/voxels/meshing") == Some(0))
                .then(|| r.clone())
        },
    );
    let tiles = r.u64("/voxels/tiles").unwrap_or(0);
    s.check(r.u64("/voxels/coarse_tiles") == Some(0), || {
        format!("merged tiles at the start: {}", r.pretty())
    });
    s.check(r.widget("legend/simplified").is_none(), || {
        "the legend says simplified before any zoom".into()
    });
    s.move_to(r.central().unwrap().center());
    wheel_until(&s, "5", "zooming out until far voxels merge", |r| {
        r.u64("/voxels/coarse_tiles").is_some_and(|n| n > 0)
    });
    let note = s.wait_for("the note that far voxels are merged", WAIT, |r| {
        r.widget("legend/simplified")
    });
    let view = s.read_report().unwrap().central().unwrap();
    s.check(
        note.x0 >= view.x0 && note.x1 <= view.x1 && note.y0 >= view.y0 && note.y1 <= view.y1,
        || format!("the note {note:?} leaves the view {view:?} (it covered the timeline)"),
    );
    wheel_until(&s, "4", "zooming back in until every voxel shows", |r| {
        r.u64("/voxels/coarse_tiles") == Some(0)
    });
    s.wait_for("the merged-voxels note to go", WAIT, |r| {
        r.widget("legend/simplified").is_none().then_some(())
    });
    let r = s.read_report().unwrap();
    s.check(r.u64("/voxels/tiles") == Some(tiles), || {
        format!(
            "{tiles} tiles before the zoom, now {:?}",
            r.u64("/voxels/tiles")
        )
    });
}

// ---------------------------------------------------------------------------
// 13. The G key hides the ground grid and shows it again.

/// Pixels of the band along the top of the view (above the default level)
/// that differ from the band's commonest colour: the grid's lines.
fn grid_pixels(img: &image::RgbaImage, central: &Rect) -> usize {
    let (x0, x1) = (
        central.x0.max(0.0) as u32 + 4,
        (central.x1 as u32).min(img.width()) - 4,
    );
    let (y0, y1) = (
        central.y0.max(0.0) as u32 + 4,
        central.y0.max(0.0) as u32 + 60,
    );
    let mut counts = std::collections::HashMap::new();
    for y in y0..y1 {
        for x in x0..x1 {
            *counts.entry(img.get_pixel(x, y).0).or_insert(0usize) += 1;
        }
    }
    let Some((&common, _)) = counts.iter().max_by_key(|(_, n)| **n) else {
        return 0;
    };
    let far = |p: [u8; 4]| (0..3).map(|i| p[i].abs_diff(common[i]) as u32).sum::<u32>() > 12;
    counts
        .iter()
        .filter(|(p, _)| far(**p))
        .map(|(_, n)| *n)
        .sum()
}

#[test]
fn the_g_key_hides_the_ground_grid_and_shows_it_again() {
    let Some(s) = Session::start("grid_key") else {
        return;
    };
    let r = s.wait_ready();
    let central = central_phys(&s, &r);
    let first = s.wait_for_screen("the ground grid drawn", WAIT, |img, _| {
        let n = grid_pixels(img, &central);
        if n >= 200 {
            Ok(n)
        } else {
            Err(format!("{n} grid pixels; want 200"))
        }
    });
    s.key("g");
    s.wait_for_screen("the grid gone after G", WAIT, |img, _| {
        let n = grid_pixels(img, &central);
        if n < 20 {
            Ok(())
        } else {
            Err(format!("{n} grid pixels left (had {first})"))
        }
    });
    s.key("g");
    s.wait_for_screen("the grid back after a second G", WAIT, |img, _| {
        let n = grid_pixels(img, &central);
        if n >= 200 {
            Ok(())
        } else {
            Err(format!("{n} grid pixels; want 200"))
        }
    });
}

// ---------------------------------------------------------------------------
// 14. Edit > Memory budget: stages refused under a small budget build once
// the user raises it, by typing a size or by choosing one.

/// Opens Edit > Memory budget and returns the report with its items.
fn open_budget_menu(s: &Session) -> Report {
    let edit = settled_widget(s, "menu/edit");
    s.click(edit.center());
    let sub = s.wait_for("Edit menu open: `menu/edit/budget`", WAIT, |r| {
        r.widget("menu/edit/budget")
    });
    s.click(sub.center());
    s.wait_for(
        "the budget submenu open: `menu/edit/budget/field`",
        WAIT,
        |r| r.widget("menu/edit/budget/field").map(|_| r.clone()),
    )
}

#[test]
fn raising_the_memory_budget_in_the_edit_menu_builds_the_refused_stages() {
    let opts = Options::new(
        default_level(),
        &["--pipeline", "voxel", "--stage", "tiles", "--budget", "64K"],
    );
    let Some(s) = Session::start_with("budget_menu", opts) else {
        return;
    };
    // The first stage refuses: the voxel grid needs megabytes.
    let r = s.wait_ready_for(
        "build.budget 64 KB, not busy, stage.failed 0, its refusal in the messages",
        |r| {
            r.str("/build/budget") == Some("64 KB")
                && r.busy() == Some(false)
                && r.u64("/stage/failed") == Some(0)
                && r.central().is_some()
                && r.get("/messages")
                    .and_then(|m| m.as_array())
                    .is_some_and(|m| {
                        m.iter().any(|t| {
                            t.as_str()
                                .is_some_and(|t| t.contains("the budget is 64 KB"))
                        })
                    })
        },
    );
    let central = central_phys(&s, &r);
    let refused = s.stable_screenshot(central);
    // Type a size into the submenu's field.
    let r = open_budget_menu(&s);
    let field = r.widget("menu/edit/budget/field").unwrap();
    type_into(&s, field.center(), "the budget field", "3G");
    s.wait_for(
        "build.budget 3 GB with every stage finished and none failed",
        WAIT,
        |r| {
            (r.str("/build/budget") == Some("3 GB") && r.idle() && r.get("/stage/failed").is_none())
                .then_some(())
        },
    );
    s.wait_for_screen("the tiles stage drawn once it builds", WAIT, |img, _| {
        let d = count_differing(&refused, img, central, 24);
        if d > 500 {
            Ok(())
        } else {
            Err(format!(
                "{d} pixels of the view changed since the refusal; want 500"
            ))
        }
    });
    // Choose one of the sizes offered.
    let r = open_budget_menu(&s);
    let half = r
        .widget("menu/edit/budget/512 MB")
        .expect("a 512 MB choice");
    s.click(half.center());
    s.wait_for("build.budget 512 MB and the submenu closed", WAIT, |r| {
        (r.str("/build/budget") == Some("512 MB") && r.widget("menu/edit/budget").is_none())
            .then_some(())
    });
}

// ---------------------------------------------------------------------------
// 15. A pipeline's agent tables are collapsible groups in the parameter
// panel: a click on a group's header shows its sliders.

#[test]
fn clicking_an_agent_group_header_shows_its_parameters() {
    let Some((s, r)) = table_room_at("param_group", "tiles") else {
        return;
    };
    s.check(r.widget("param/stand.radius").is_none(), || {
        "the stand group's sliders show before its header was clicked".into()
    });
    s.check(r.widget("param/cell_size").is_some(), || {
        "a lone parameter (cell_size) is not in the panel".into()
    });
    let header = settled_widget(&s, "param-group/stand");
    let before = s.screenshot();
    s.click(header.center());
    let slider = s.wait_for(
        "the stand group open: `param/stand.radius` in widgets",
        WAIT,
        |r| r.widget("param/stand.radius"),
    );
    s.check(slider.y0 > header.y1, || {
        format!("the slider {slider:?} is not below its header {header:?}")
    });
    s.wait_for_screen(
        "the group's sliders drawn below its header",
        WAIT,
        |img, r| {
            let rect = slider.scaled(r.scale());
            let d = count_differing(&before, img, rect, 24);
            if d as f64 > 0.05 * rect.width() * rect.height() {
                Ok(())
            } else {
                Err(format!("{d} pixels of {rect:?} changed"))
            }
        },
    );
}

// ---------------------------------------------------------------------------
// 16. Up steps a voxel stage through its passes, each outlined in magenta.

/// The colour of a voxel pass's sub-step outline (`highlight/pass`).
const PASS_MAGENTA: [u8; 3] = [255, 64, 179];

#[test]
fn up_steps_the_flag_stage_through_its_passes_and_outlines_each_passs_own_voxels() {
    let Some((s, r)) = table_room_at("pass_outline", "flag") else {
        return;
    };
    let central = central_phys(&s, &r);
    s.move_to(r.central().unwrap().center());
    let magenta = |img: &image::RgbaImage| count_in(img, central, PASS_MAGENTA, 40);
    // The stage's end shows every pass at once, and no pass outline.
    let before = magenta(&s.stable_screenshot(central));
    s.check(before < 20, || {
        format!("{before} magenta pixels before any sub-step")
    });
    // Up: the standing pass's sub-step, then the crouch pass's.
    let mut outlines = Vec::new();
    for step in 0..2u64 {
        s.key("Up");
        // The sub-step's highlights are made on a worker after the
        // timeline moves.
        s.wait_for(
            &format!("`Up` to show sub-step {step} and draw its highlights"),
            WAIT,
            |r| (r.substep() == Some(step) && r.substep_drawn() == Some(step)).then_some(()),
        );
        // Each pass outlines its own voxels: the crouch pass's (under the
        // table) is not the standing pass's (round the room), so the
        // picture changes (a frame still showing the previous one does not
        // count).
        let img = s.wait_for_screen(
            &format!("sub-step {step}'s pass outlined in magenta, not as the pass before"),
            WAIT,
            |img, _| {
                let n = magenta(img);
                let moved = outlines
                    .last()
                    .map_or(usize::MAX, |prev| count_differing(prev, img, central, 24));
                if n > 200 && moved > 200 {
                    Ok(img.clone())
                } else {
                    Err(format!(
                        "{n} magenta pixels, {moved} differing from the previous pass's outline"
                    ))
                }
            },
        );
        outlines.push(img);
    }
}

// ---------------------------------------------------------------------------
// 17. An idle window draws its panels again without rebuilding them, and a
// tooltip still appears after its delay (`ui::refresh`).

#[test]
fn an_idle_window_reuses_its_panels_and_a_tooltip_still_opens_after_its_delay() {
    let Some(s) = Session::start("refresh") else {
        return;
    };
    let r = s.wait_ready();
    let name = r
        .widget_names()
        .into_iter()
        .find(|n| n.starts_with("param/"))
        .unwrap_or_else(|| s.fail("no `param/` slider in widgets"));
    let slider = settled_widget(&s, &name);
    let scale = r.scale();
    let panel = r
        .widget("panel/left")
        .unwrap_or_else(|| s.fail("no `panel/left` in widgets"))
        .scaled(scale);
    // The panels are on screen (the renderer compiles egui's pipeline
    // while the first frames show the level alone).
    let drawn = |img: &image::RgbaImage| {
        // egui's dark panels (channels 0 to 58); the 3D view's ground is
        // light.
        let dark = count_in(img, panel, [29, 29, 29], 29);
        if dark as f64 > 0.6 * panel.width() * panel.height() {
            Ok(img.clone())
        } else {
            Err(format!("{dark} dark pixels in the left panel {panel:?}"))
        }
    };
    s.wait_for_screen("the left panel drawn (dark)", WAIT, |img, _| drawn(img));
    s.move_to(slider.center());
    // egui opens a tooltip only once the pointer has rested for its delay:
    // a pass that no input calls for.
    s.wait_for(
        &format!("a tooltip listed in `tooltips` by the slider `{name}`"),
        WAIT,
        |r| {
            let tips = r.get("/tooltips")?.as_array()?;
            tips.iter()
                .filter_map(Rect::from_value)
                .find(|t| t.y0 >= slider.y0 - 4.0 && t.x0 < slider.x1 + 40.0)
        },
    );
    // The pointer rests: frames go on (the window wakes up to ten times a
    // second) and, once the tooltip has faded in, reuse the last pass.
    let idle = idle_frames(&s, 10);
    // Frames that reuse the last pass still draw the panels.
    let first = s.wait_for_screen("the left panel drawn while idle", WAIT, |img, _| drawn(img));
    let idle_again = idle_frames(&s, 10);
    s.check(idle_again == idle, || {
        format!("egui ran {} passes in an idle window", idle_again - idle)
    });
    let second = s.wait_for_screen("the left panel still drawn", WAIT, |img, _| drawn(img));
    let drift = count_differing(&first, &second, panel, 24);
    s.check(
        (drift as f64) < 0.005 * panel.width() * panel.height(),
        || format!("{drift} pixels of the left panel {panel:?} changed while it was idle"),
    );
}

/// Waits for `n` frames in a row that reuse the last egui pass
/// (`egui.reused` up by `n`, `egui.passes` unchanged), and returns the
/// passes so far.
fn idle_frames(s: &Session, n: u64) -> u64 {
    let mut last_pass = None;
    s.wait_for(
        &format!("{n} frames in a row reusing the last egui pass"),
        WAIT,
        |r| {
            let (passes, reused) = (r.u64("/egui/passes")?, r.u64("/egui/reused")?);
            match last_pass {
                Some((p, since)) if p == passes => (reused >= since + n).then_some(passes),
                _ => {
                    last_pass = Some((passes, reused));
                    None
                }
            }
        },
    )
}

// ---------------------------------------------------------------------------
// 18. The app as a designer meets it (#41, "appview": items 1, 2, 6 and 9):
// a level opens on its final NavMesh, a Quake map is readable (walk links
// start hidden, kept in the legend), the layout fits 1600 x 1000 and
// 1280 x 800.

/// The names in the report's `legend.<which>` list.
fn legend_list(r: &Report, which: &str) -> Vec<String> {
    r.get(&format!("/legend/{which}"))
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until the view shows something else than `before` in `central`
/// (at least a thousandth of its pixels differ), after `what`.
fn view_changes_from(
    s: &Session,
    before: &image::RgbaImage,
    central: Rect,
    what: &str,
) -> image::RgbaImage {
    let least = (central.width() * central.height() * 0.001) as usize;
    s.wait_for_screen(what, WAIT, |img, _| {
        let n = count_differing(before, img, central, 24);
        if n > least {
            Ok(img.clone())
        } else {
            Err(format!("{n} pixels differ (wanted more than {least})"))
        }
    })
}

#[test]
fn a_quake_map_opens_on_its_navmesh_with_walk_links_hidden_and_n_and_the_legend_toggle_them() {
    let Some(map) = shared_map("librequake/lq_e1m1.map") else {
        return;
    };
    let Some(s) = Session::start_with("opens_on_navmesh", Options::new(map, &[])) else {
        return;
    };
    let r = s.wait_ready();
    // The first view is the final stage with the NavMesh drawn.
    let (stage, count) = (r.stage(), r.stage_count());
    s.check(
        count.is_some_and(|c| c > 1) && stage == count.map(|c| c - 1),
        || format!("the map opened on stage {stage:?} of {count:?}, not the last"),
    );
    // The overlay is drawn a frame or more after the build publishes.
    let r = s.wait_for("view.navmesh true on the first view", WAIT, |r| {
        (r.bool("/view/navmesh") == Some(true)).then(|| r.clone())
    });
    // Thousands of walk links: hidden at first, their legend row kept.
    let (kinds, hidden) = (legend_list(&r, "kinds"), legend_list(&r, "hidden"));
    let walk = "link/walk".to_string();
    s.check(kinds.contains(&walk) && hidden.contains(&walk), || {
        format!("walk links should be in the legend and hidden: kinds {kinds:?}, hidden {hidden:?}")
    });
    let central = central_phys(&s, &r);
    // Off the view, so no hover highlight changes the picture.
    s.move_to((2.0, 2.0));
    let with_mesh = s.stable_screenshot(central);
    // N hides the NavMesh: the report says so and the picture changes.
    s.key("n");
    s.wait_for("`n` to hide the NavMesh (view.navmesh false)", WAIT, |r| {
        (r.bool("/view/navmesh") == Some(false)).then_some(())
    });
    view_changes_from(
        &s,
        &with_mesh,
        central,
        "the NavMesh to disappear after `n`",
    );
    // Back along the timeline to the stage that draws the walk links: their
    // legend row is there (unticked), and ticking it draws them.
    let mut lefts = 0;
    s.wait_for("a stage whose legend has the walk links' row", WAIT, |r| {
        if r.widget("legend/kind/link/walk").is_some() {
            return Some(());
        }
        if lefts < count.unwrap_or(0) && r.stage().is_some_and(|st| st > 0) {
            s.key("Left");
            lefts += 1;
            s.frames(2, WAIT);
        }
        None
    });
    let row = settled_widget(&s, "legend/kind/link/walk");
    let without = s.stable_screenshot(central);
    s.click(row.center());
    s.wait_for("the legend row to show the walk links", WAIT, |r| {
        (!legend_list(r, "hidden").contains(&walk)).then_some(())
    });
    view_changes_from(&s, &without, central, "the walk links to be drawn");
    s.key("n");
    s.wait_for("`n` to show the NavMesh again", WAIT, |r| {
        (r.bool("/view/navmesh") == Some(true)).then_some(())
    });
}

/// Every stage button and the sub-step control with its text lie inside
/// the window.
fn timeline_fits(s: &Session, r: &Report) {
    let (w, h) = (
        r.f64("/window/width").unwrap_or(0.0),
        r.f64("/window/height").unwrap_or(0.0),
    );
    let inside = |b: &Rect| b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= w + 0.5 && b.y1 <= h + 0.5;
    let count = r.stage_count().unwrap_or(0);
    for i in 0..count {
        let name = format!("timeline/stage/{i}");
        match r.widget(&name) {
            Some(b) => s.check(inside(&b), || {
                format!("{name} at {b:?} is outside the {w} x {h} window")
            }),
            None => s.fail(&format!("no widget {name} in the report")),
        }
    }
    for name in ["timeline/substep", "timeline/substep-text"] {
        match r.widget(name) {
            Some(b) => s.check(inside(&b) && b.width() > 0.0, || {
                format!("{name} at {b:?} is outside the {w} x {h} window")
            }),
            None => s.fail(&format!("no widget {name} in the report")),
        }
    }
}

#[test]
fn the_voxel_timeline_and_its_sub_step_fit_the_window_at_1600_and_1280_and_the_view_keeps_its_size()
{
    let Some((s, _)) = table_room_at("layout_fits", "flag") else {
        return;
    };
    // A sub-step of the flag stage: the stage with the longest counts line.
    s.key("Up");
    let r = s.wait_for("`Up` to show the flag stage's first sub-step", WAIT, |r| {
        (r.substep() == Some(0) && r.widget("timeline/substep-text").is_some()).then(|| r.clone())
    });
    timeline_fits(&s, &r);
    // Pinning opens the compare table in the right panel: the 3D view
    // keeps its size.
    let before = r
        .central()
        .unwrap_or_else(|| s.fail("no central rectangle"));
    let pin = settled_widget(&s, "compare/pin");
    s.click(pin.center());
    let r = s.wait_for("the pinned build's comparison", WAIT, |r| {
        (r.bool("/compare/pinned") == Some(true)
            && r.get("/compare/a_only").is_some_and(|v| !v.is_null()))
        .then(|| r.clone())
    });
    let after = r
        .central()
        .unwrap_or_else(|| s.fail("no central rectangle"));
    s.check(
        (before.x0 - after.x0).abs() < 1.0 && (before.x1 - after.x1).abs() < 1.0,
        || format!("the 3D view moved from {before:?} to {after:?} when the compare table opened"),
    );
    // At 1280 x 800 the stage buttons wrap and everything stays on screen.
    s.xdotool(&["windowsize", s.window.as_str(), "1280", "800"]);
    let r = s.wait_for("the window to be 1280 x 800 in the report", WAIT, |r| {
        (r.f64("/window/width") == Some(1280.0)
            && r.f64("/window/height") == Some(800.0)
            && r.widget("timeline/substep-text").is_some())
        .then(|| r.clone())
    });
    // A frame after the resize, so the widgets are laid out at the new size.
    s.frames(3, WAIT);
    let r = s.read_report().unwrap_or(r);
    timeline_fits(&s, &r);
}

// ---------------------------------------------------------------------------
// appinteract (#41 items 3, 5, 7, 8): the inspector, visible errors, the
// sliders and restored parameters, the compare headline.

/// Clicks `name` once it has settled in the widget table.
fn click_widget(s: &Session, name: &str) {
    let w = settled_widget(s, name);
    s.click(w.center());
}

/// The inspector's rows in the report, `(label, text)`.
fn inspector_rows(r: &Report) -> Vec<(String, String)> {
    r.get("/inspector")
        .and_then(|v| v.as_array())
        .map(|rows| {
            rows.iter()
                .filter_map(|row| {
                    Some((
                        row.get(0)?.as_str()?.to_string(),
                        row.get(1)?.as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// #41 item 3: a click on a convex cell shows what a designer asks of it,
/// named with units (area, reflex turn, worst concavity, its portals as
/// links), no internals (no sub-step sentinel, no fold around one field);
/// a click on one of its links selects that element.
#[test]
fn inspecting_a_convex_cell_shows_its_measures_and_its_portals_select() {
    let Some(s) = Session::start("inspect_cell") else {
        return;
    };
    s.wait_ready();
    let (pts, _) = floor_points(&s, 1);
    let p = pts[0];
    click_widget(&s, &format!("timeline/stage/{CELLS_STAGE}"));
    s.wait_for(&format!("stage.current == {CELLS_STAGE}"), WAIT, |r| {
        (r.stage() == Some(CELLS_STAGE) && r.idle()).then_some(())
    });
    s.click(p);
    let r = s.wait_for(
        &format!(
            "a selection in stage {CELLS_STAGE} and the inspector's rows after clicking {}",
            fmt_xy(Some(p))
        ),
        WAIT,
        |r| {
            let stage = r.u64("/selection/stage")?;
            (stage == CELLS_STAGE && !inspector_rows(r).is_empty()).then(|| r.clone())
        },
    );
    let kind = r.str("/selection/kind").unwrap_or("").to_string();
    let rows = inspector_rows(&r);
    eprintln!("e2e inspect_cell: {kind} rows {rows:?}");
    for (label, text) in &rows {
        s.check(
            !text.contains("4294967295") && !label.contains("step"),
            || format!("an internal field is shown: {label} = {text}"),
        );
        s.check(
            text != "1 fields" && text != "1 items" && label != "shape",
            || format!("a fold around a single field: {label} = {text}"),
        );
    }
    let row = |name: &str| rows.iter().find(|(l, _)| l == name).map(|(_, t)| t.clone());
    if kind.starts_with("cell") {
        for (name, unit) in [
            ("area", " m²"),
            ("reflex turn", " °"),
            ("worst concavity", " m"),
        ] {
            let t = row(name);
            s.check(t.as_deref().is_some_and(|t| t.ends_with(unit)), || {
                format!("the cell's `{name}` row is {t:?}, not a value in{unit}: {rows:?}")
            });
        }
    } else {
        s.check(kind.starts_with("portal"), || {
            format!("the click selected a {kind}, neither a cell nor a portal")
        });
        s.check(row("width").is_some_and(|t| t.ends_with(" m")), || {
            format!("the portal has no width in m: {rows:?}")
        });
    }
    // Its links select what they name.
    let link = s.wait_for("`inspector/link/0` in widgets", WAIT, |r| {
        r.widget("inspector/link/0")
    });
    let before = (
        r.str("/selection/kind").map(str::to_string),
        r.u64("/selection/element"),
    );
    let panel = r.widget("panel/right").expect("panel/right");
    let shot = s.screenshot();
    s.click(link.center());
    s.wait_for(
        &format!(
            "the selection to change from {before:?} after clicking the inspector's first link"
        ),
        WAIT,
        |r| {
            let now = (
                r.str("/selection/kind").map(str::to_string),
                r.u64("/selection/element"),
            );
            (now != before && now.0.is_some()).then_some(())
        },
    );
    s.wait_for_screen(
        "the inspector redrawn for the new selection",
        WAIT,
        |img, r| {
            let d = count_differing(&shot, img, panel.scaled(r.scale()), 24);
            if d > 200 {
                Ok(())
            } else {
                Err(format!("{d} pixels of the right panel changed"))
            }
        },
    );
}

/// #41 item 5: starting without a display says so in one line and exits
/// with a non-zero code (no window, no X server needed).
#[test]
fn starting_without_a_display_says_so_in_one_line() {
    let free = (9100..9999)
        .find(|n| !std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists())
        .expect("a free display number");
    let out = std::process::Command::new(navscope_bin())
        .arg(default_level())
        .env("DISPLAY", format!(":{free}"))
        .env_remove("WAYLAND_DISPLAY")
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("run navscope");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        !out.status.success(),
        "exited with success without a display"
    );
    assert_eq!(lines.len(), 1, "want one line on stderr, got:\n{err}");
    assert!(
        lines[0].contains(&format!(":{free}")) && !err.contains("panicked"),
        "the line does not name the display, or a panic: {err}"
    );
}

/// #41 item 5: a file that does not parse is named with its problem on
/// the status line and in a notice over the view until dismissed; the log
/// opens itself and comes into sight though the compare table is open;
/// Enter submits the path field, Esc cancels it.
#[test]
fn a_file_that_does_not_parse_is_named_on_screen_until_dismissed() {
    let Some(s) = Session::start("errors_visible") else {
        return;
    };
    s.wait_ready();
    floor_points(&s, 1);
    // The compare table open, as when a person compares builds.
    click_widget(&s, "compare/pin");
    s.wait_for("`compare.pinned`", WAIT, |r| {
        r.bool("/compare/pinned").filter(|p| *p)
    });
    let bad = s.dir.join("broken_level.json");
    std::fs::write(&bad, "{ \"kind\": \"floorplan\", \"walls\": [ 1, 2").expect("write");
    let name = "broken_level.json";
    // File > Open level, the path typed, Enter.
    let item = open_file_menu(&s, "menu/file/open");
    s.click(item.center());
    // The field opens empty and focused for a level: type, Enter.
    settled_widget(&s, "dialog/path");
    s.type_text(bad.to_str().unwrap());
    s.key("Return");
    let r = s.wait_for(
        &format!("after Enter: the path field gone and `notice.error` naming {name}"),
        WAIT,
        |r| {
            let e = r.str("/notice/error")?;
            (r.widget("dialog/path").is_none() && e.contains(name)).then(|| r.clone())
        },
    );
    let error = r.str("/notice/error").unwrap().to_string();
    eprintln!(
        "e2e errors_visible: notice {error:?}; status {:?}",
        r.str("/status")
    );
    s.check(r.str("/status").is_some_and(|t| t.contains(name)), || {
        format!(
            "the status line does not name {name}: {:?}",
            r.str("/status")
        )
    });
    s.check(r.bool("/log_open") == Some(true), || {
        "the log did not open".into()
    });
    // The log's header is in sight: inside the right panel, above the
    // window's bottom edge.
    let (log, panel) = (
        s.wait_for("`log` in widgets", WAIT, |r| r.widget("log")),
        r.widget("panel/right").expect("panel/right"),
    );
    s.check(log.y0 >= panel.y0 && log.y1 <= panel.y1, || {
        format!("the log's header {log:?} is out of the right panel's sight {panel:?}")
    });
    // The notice is over the view, drawn in the error colour.
    let notice = settled_widget(&s, "notice/error");
    let central = r.central().expect("central");
    s.check(central.contains(notice.center()), || {
        format!("the notice {notice:?} is not over the view {central:?}")
    });
    s.wait_for_screen("the notice's red text on screen", WAIT, |img, r| {
        let n = count_in(img, notice.scaled(r.scale()), [200, 40, 40], 40);
        if n >= 20 {
            Ok(())
        } else {
            Err(format!("{n} red pixels in the notice {notice:?}"))
        }
    });
    // It stays (a person may take a while to read it), then goes when
    // dismissed.
    idle_frames(&s, 3);
    s.check(
        s.read_report()
            .and_then(|r| r.widget("notice/error"))
            .is_some(),
        || "the notice went away by itself".into(),
    );
    click_widget(&s, "notice/dismiss");
    // The report is written in the frame after a pass; an idle window
    // makes none until something happens: the hand moves on, as a
    // person's does after a click.
    s.move_to(central.center());
    s.pace();
    s.move_to(central.at(0.5, 0.6));
    // What the person sees: the notice's red text gone from the view.
    s.wait_for_screen("the notice gone after Dismiss", WAIT, |img, r| {
        let n = count_in(img, notice.scaled(r.scale()), [200, 40, 40], 40);
        if n < 5 {
            Ok(())
        } else {
            Err(format!(
                "{n} red pixels still in the notice's place {notice:?}"
            ))
        }
    });
    // Esc cancels the path field: nothing opens, no new error.
    let item = open_file_menu(&s, "menu/file/open");
    s.click(item.center());
    settled_widget(&s, "dialog/path");
    s.key("Escape");
    s.wait_for("the path field gone after Esc", WAIT, |r| {
        r.widget("dialog/path").is_none().then_some(())
    });
    let r = s.read_report().expect("report");
    // (`get` reads a null as absent.)
    s.check(r.get("/notice/error").is_none(), || {
        format!("Esc raised a notice: {:?}", r.get("/notice"))
    });
}

/// The settings a last run left for `level` in `pipeline`: `params` (RON
/// values by name) as its parameters.
fn settings_with_params(
    level: &std::path::Path,
    pipeline: &str,
    params: &[(&str, &str)],
) -> String {
    let preset: Vec<String> = params.iter().map(|(k, v)| format!("{k:?}: {v}")).collect();
    let preset = format!("{{{}}}", preset.join(", "));
    format!(
        "(recent: [], pipelines: {{}}, stages: {{}}, params: {{{:?}: {:?}}})",
        format!("{}|{pipeline}", navscope::level::key(level)),
        preset
    )
}

/// #41 item 7: parameters restored from the last run are announced and
/// are one undo step; the standing radius's slider spans 0 to 2 m, Shift
/// drags it finely, and a typed value beyond the slider is taken.
#[test]
fn restored_parameters_are_announced_and_undoable_and_sliders_are_fine() {
    let level = root().join("assets/levels/voxel/table_room.obj");
    let seeded = [
        ("stand.radius", "0.85"),
        ("stand.max_slope", "33.0"),
        ("stand.height", "1.55"),
    ];
    let settings = settings_with_params(&level, "voxel", &seeded);
    let opts = Options::new(level, &["--pipeline", "voxel", "--stage", "tiles"]);
    let Some(s) = Session::start_with_settings("restored_params", opts, &settings) else {
        return;
    };
    // The history takes the restore as a step in the frame after it.
    s.wait_for(
        "`notice.restored` == 3, params.stand.radius == 0.85 and one undo step",
        WAIT,
        |r| {
            (r.u64("/notice/restored") == Some(3)
                && r.param("stand.radius").and_then(|v| v.as_f64()) == Some(0.85)
                && r.u64("/undo/undo").unwrap_or(0) >= 1)
                .then_some(())
        },
    );
    settled_widget(&s, "notice/restored");
    // Ctrl+Z takes the restored values back, Ctrl+Y brings them again.
    s.chord(&["ctrl"], "z", "Ctrl+Z: stand.radius back from 0.85", |r| {
        r.param("stand.radius")
            .and_then(|v| v.as_f64())
            .is_some_and(|x| x != 0.85)
    });
    let default_radius = s
        .read_report()
        .and_then(|r| r.param("stand.radius").and_then(|v| v.as_f64()))
        .expect("radius");
    s.chord(&["ctrl"], "y", "Ctrl+Y: stand.radius 0.85 again", |r| {
        r.param("stand.radius").and_then(|v| v.as_f64()) == Some(0.85)
    });
    // Reset puts the defaults back and closes the announcement.
    click_widget(&s, "notice/reset");
    s.wait_for(
        &format!("Reset: stand.radius back to its default ({default_radius} before the restore), the notice gone"),
        WAIT,
        |r| {
            let v = r.param("stand.radius").and_then(|v| v.as_f64())?;
            (v != 0.85 && r.get("/notice/restored").is_none()).then_some(())
        },
    );
    // The slider: its right end is 2 m (a drag past it stops there).
    click_widget(&s, "param-group/stand");
    let slider = settled_widget(&s, "param/stand.radius");
    let (from, past) = (slider.at(0.1, 0.5), (slider.x1 + 40.0, slider.center().1));
    s.press_at(from);
    s.move_in_steps(from, past, 8);
    s.release();
    s.wait_for(
        "a drag past the slider's end: stand.radius == 2",
        WAIT,
        |r| {
            (r.param("stand.radius").and_then(|v| v.as_f64()) == Some(2.0) && r.idle())
                .then_some(())
        },
    );
    // Shift while dragging: a tenth of the speed. 40 px over a rail of at
    // most the slider's width moves a plain drag by 2 m * 40 / width.
    let plain = 2.0 * 40.0 / slider.width();
    let start = slider.at(0.3, 0.5);
    s.move_to(start);
    s.dwell();
    s.xdotool(&["keydown", "shift"]);
    s.pace();
    s.press_at(start);
    s.move_in_steps(start, (start.0 - 40.0, start.1), 8);
    s.release();
    let r = s.wait_for("a Shift-drag: stand.radius below 2", WAIT, |r| {
        let v = r.param("stand.radius")?.as_f64()?;
        (v < 2.0 && r.idle()).then(|| r.clone())
    });
    s.xdotool(&["keyup", "shift"]);
    let moved = 2.0 - r.param("stand.radius").and_then(|v| v.as_f64()).unwrap();
    eprintln!(
        "e2e restored_params: Shift-drag of 40 px moved {moved} m (a plain drag at least {plain})"
    );
    s.check(moved > 0.0 && moved <= plain / 3.0, || {
        format!("a 40 px Shift-drag moved the radius {moved} m; a plain one moves >= {plain} m")
    });
    // A typed value beyond the slider's range is taken.
    type_into_until(
        &s,
        slider.at(0.92, 0.5),
        "the radius's number field",
        "3",
        |r| r.param("stand.radius").and_then(|v| v.as_f64()) == Some(3.0),
    );
}

/// #41 item 8: on table_room.obj, a larger standing radius turns standing
/// area into crouch area, and the compare headline says so per stance;
/// the difference's colours are drawn by nothing but the difference.
#[test]
fn compare_headline_reports_the_area_per_stance_on_the_table_room() {
    let Some((s, r)) = table_room_at("compare_stance", "graph") else {
        return;
    };
    let central = central_phys(&s, &r);
    // The NavMesh (stand and crouch polygons, links) in none of the
    // difference's colours; the pointer off the view, so no hover
    // highlight is in the picture.
    s.move_to((2.0, 2.0));
    let shot = s.stable_screenshot(central);
    let (a, b) = colour_counts(&shot, &central, |_, _| true);
    s.check(a < 20 && b < 20, || {
        format!("the NavMesh alone draws {a} A-only and {b} B-only coloured pixels")
    });
    click_widget(&s, "compare/pin");
    s.wait_for("`compare.pinned`", WAIT, |r| {
        r.bool("/compare/pinned").filter(|p| *p)
    });
    click_widget(&s, "param-group/stand");
    let slider = settled_widget(&s, "param/stand.radius");
    type_into_until(
        &s,
        slider.at(0.92, 0.5),
        "the radius's number field",
        "3",
        |r| r.param("stand.radius").and_then(|v| v.as_f64()) == Some(3.0),
    );
    let r = s.wait_for(
        "the build idle and `compare.headline`: standing area shrunk, crouch area grown",
        WAIT,
        |r| {
            let lines: Vec<String> = r
                .get("/compare/headline")?
                .as_array()?
                .iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect();
            let has = |p: &str, change: &str| {
                lines
                    .iter()
                    .any(|l| l.starts_with(p) && l.ends_with(')') && l.contains(change))
            };
            // The comparison follows the build in the background: the
            // first idle headline may still compare an edit on the way
            // (the field passes through other values while typed).
            (r.idle() && has("stance stand:", "(-") && has("stance crouch:", "(+"))
                .then(|| r.clone())
        },
    );
    let lines = r.get("/compare/headline").unwrap().clone();
    eprintln!("e2e compare_stance: headline {lines}");
    let head = settled_widget(&s, "compare/headline");
    s.check(
        r.widget("panel/right")
            .is_some_and(|p| p.contains(head.center())),
        || "the headline is not in the right panel".into(),
    );
    // Both colours of the difference on the ground now.
    s.wait_for_screen("both difference colours on screen", WAIT, |img, _| {
        let (a, b) = colour_counts(img, &central, |_, _| true);
        if a + b >= 30 {
            Ok(())
        } else {
            Err(format!("{a} A-only and {b} B-only pixels"))
        }
    });
}

// ---------------------------------------------------------------------------
// appprobe: the probe explains a failed search (#39), places points (#41.4)

/// Colour of the region reached from the start (`REACHED_COLOR`).
const REACHED_GREEN: [u8; 3] = [0, 255, 160];
/// Colour of the region that reaches the goal (`REACHES_GOAL_COLOR`).
const REACHES_GOAL_PINK: [u8; 3] = [255, 110, 255];
/// Colour of the gap's line (`GAP_COLOR`).
const GAP_LIME: [u8; 3] = [170, 255, 0];

#[test]
fn a_failed_probe_draws_both_regions_and_the_gap_and_finds_a_fix() {
    // The voxel pipeline with its defaults does not link the 1 m ledge (a
    // brush level in metres opens with the default agent, which does not
    // jump; Quake's player, which a `.map` would bring, jumps onto it).
    let Some((s, _)) = open_ready(
        "failed_probe_explained",
        "assets/levels/cspace/ledge.ron",
        &["--pipeline", "voxel", "--from", "0,0,-2", "--to", "2,1,-2"],
    ) else {
        return;
    };
    let r = s.wait_for("probe.found == false with a gap", WAIT, |r| {
        (r.bool("/probe/found") == Some(false) && r.get("/probe/gap").is_some_and(|g| !g.is_null()))
            .then(|| r.clone())
    });
    let reached = r.u64("/probe/reached").unwrap_or(0);
    let reaches_goal = r.u64("/probe/reaches_goal").unwrap_or(0);
    s.check(reached > 0 && reaches_goal > 0, || {
        format!("probe.reached {reached} and probe.reaches_goal {reaches_goal}: both regions hold the ends' nodes")
    });
    // The gap's ends: on the start's side a lower place than on the goal's.
    let from_y = r.f64("/probe/gap/from/1").unwrap_or(f64::NAN);
    let to_y = r.f64("/probe/gap/to/1").unwrap_or(f64::NAN);
    let height = r.f64("/probe/gap/height").unwrap_or(f64::NAN);
    s.check((to_y - from_y - height).abs() < 1e-6 && height > 0.5, || {
        format!("gap from y {from_y} to y {to_y}, height {height}: the ledge is up from the start's side")
    });
    let k = r.scale();
    let ends: Vec<(f64, f64)> = ["/probe/gap_px/0", "/probe/gap_px/1"]
        .iter()
        .filter_map(|p| r.xy(p))
        .collect();
    s.check(ends.len() == 2, || {
        "probe.gap_px holds both ends' pixels".into()
    });
    let central = central_phys(&s, &r);
    s.wait_for_screen("both regions and the gap drawn", WAIT, |img, _| {
        let green = count_in(img, central, REACHED_GREEN, MARK_TOL);
        let pink = count_in(img, central, REACHES_GOAL_PINK, MARK_TOL);
        let lime: Vec<usize> = ends
            .iter()
            .map(|p| count_near(img, (p.0 * k, p.1 * k), 12.0 * k, GAP_LIME, MARK_TOL))
            .collect();
        if green >= 50 && pink >= 50 && lime.iter().all(|y| *y >= 4) {
            Ok(())
        } else {
            Err(format!(
                "{green} green (reached) and {pink} pink (reaches the goal) pixels in the view (want >= 50 each), gap-lime near its ends {lime:?} (want >= 4 each); {}",
                colour_histogram(img, central, 6)
            ))
        }
    });
    // The fix search runs in the background and ends with a checked change
    // (or none); its reason names the movement either way.
    let r = s.wait_for("the fix search to finish", WAIT, |r| {
        (r.bool("/probe/fix_pending") == Some(false)).then(|| r.clone())
    });
    let reason = r.str("/probe/gap/reason").unwrap_or("").to_string();
    s.check(
        (reason.contains("step") || reason.contains("jump")) && reason.contains(" m"),
        || format!("gap.reason after the fix search names the movement and its size: {reason:?}"),
    );
}

/// A point `[x, y, z]` of the report at `pointer`.
fn xyz(r: &Report, pointer: &str) -> Option<[f64; 3]> {
    let a = r.get(pointer)?.as_array()?;
    Some([
        a.first()?.as_f64()?,
        a.get(1)?.as_f64()?,
        a.get(2)?.as_f64()?,
    ])
}

fn dist3(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// Moves the cursor to `p` and waits for the status readout's world point
/// under it (`pointer.world`), once it has held still for half a second
/// (the camera may still be easing).
fn world_under(s: &Session, p: (f64, f64)) -> [f64; 3] {
    s.move_to(p);
    held_still(
        s,
        &format!("pointer.world under the cursor at {}", fmt_xy(Some(p))),
        |r| xyz(r, "/pointer/world"),
        |a, b| dist3(*a, *b) < 1e-6,
    )
    .1
}

/// Waits until `read` gives a value that `same` keeps for half a second
/// and 10 frames (under load a software-rendered frame can take longer
/// than half a second while the camera glides), and returns the report
/// and the value.
fn held_still<T>(
    s: &Session,
    what: &str,
    read: impl Fn(&Report) -> Option<T>,
    same: impl Fn(&T, &T) -> bool,
) -> (Report, T) {
    let mut seen: Option<(T, Instant, u64)> = None;
    s.wait_for(
        &format!("{what}, still for 0.5 s and 10 frames"),
        WAIT,
        |r| {
            let v = read(r)?;
            let frame = r.frame()?;
            match &seen {
                Some((l, since, at)) if same(l, &v) => {
                    (since.elapsed() >= Duration::from_millis(500) && frame >= at + 10)
                        .then(|| (r.clone(), v))
                }
                _ => {
                    seen = Some((v, Instant::now(), frame));
                    None
                }
            }
        },
    )
}

/// Types `text` into the probe's point field `which` (`start`, `goal`),
/// then presses `end` (`Return` or `Escape`).
fn type_point(s: &Session, which: &str, text: &str, end: &str) {
    let field = settled_widget(s, &format!("probe/field/{which}"));
    type_then(
        s,
        field.center(),
        &format!("the {which} field"),
        40,
        text,
        end,
    );
}

#[test]
fn probe_points_land_under_the_cursor_can_be_typed_and_the_wheel_zooms_towards_the_cursor() {
    let Some(s) = Session::start("probe_place_type_zoom") else {
        return;
    };
    let r = s.wait_ready();
    let central = r.central().expect("central");
    let (pts, _) = floor_points(&s, 2);
    // The readout names the point a click would land on; a Ctrl-click puts
    // the start there.
    let w0 = world_under(&s, pts[0]);
    ctrl_click_start(&s, pts[0], "a Ctrl+click on the floor");
    let r = s.read_report().unwrap();
    let start = xyz(&r, "/probe/start").expect("probe.start");
    s.check(dist3(start, w0) < 0.05, || {
        format!("the start {start:?} is not the readout's point {w0:?} under the cursor")
    });
    // A Shift-click right beside the start marker places the goal there
    // instead of grabbing the marker.
    let beside = (pts[0].0 + 6.0, pts[0].1);
    let rev = r.probe_revision();
    s.click_with(
        &["shift"],
        beside,
        "a Shift+click beside the start to set the goal",
        |r| r.probe_revision() != rev && r.get("/probe/goal").is_some_and(|g| !g.is_null()),
    );
    let r = s.read_report().unwrap();
    s.check(xyz(&r, "/probe/start") == Some(start), || {
        format!(
            "the Shift+click moved the start: {:?}",
            r.get("/probe/start")
        )
    });
    s.check(r.str("/pointer/dragging").is_none(), || {
        "a Shift+press grabbed a marker".into()
    });
    // Typed: Enter moves the goal to the point, Esc leaves it.
    let w1 = world_under(&s, pts[1]);
    let typed = format!("{:.2}, {:.2}, {:.2}", w1[0], w1[1], w1[2]);
    type_point(&s, "goal", &typed, "Return");
    let r = s.wait_for(&format!("probe.goal at the typed {typed}"), WAIT, |r| {
        xyz(r, "/probe/goal")
            .filter(|g| dist3(*g, w1) < 0.01)
            .map(|_| r.clone())
    });
    let goal = xyz(&r, "/probe/goal").unwrap();
    type_point(&s, "goal", "1, 2, 3", "Escape");
    s.wait_for(
        "the goal field to give the keyboard back after Esc",
        WAIT,
        |r| (r.bool("/pointer/ui_keyboard") == Some(false)).then_some(()),
    );
    let r = s.read_report().unwrap();
    s.check(xyz(&r, "/probe/goal") == Some(goal), || {
        format!(
            "Esc in the goal field changed the goal: {:?}",
            r.get("/probe/goal")
        )
    });
    // The wheel zooms towards the cursor: the point under it stays.
    // (Off the floor the readout is the ground plane's point: still a point.)
    let (c, a) = (central.center(), central.at(0.3, 0.4));
    let wc = world_under(&s, c);
    let wa = world_under(&s, a);
    let span = dist3(wa, wc);
    s.check(span > 1.0, || {
        format!("the zoom's test points are {span} m apart")
    });
    for _ in 0..3 {
        s.xdotool(&["click", "4"]);
        s.pace();
    }
    // Zoomed in: the point under the centre has come towards the
    // cursor's; the cursor's is where it was.
    s.move_to(c);
    s.wait_for(
        "the point under the centre to come towards the cursor's (zoomed in)",
        WAIT,
        |r| {
            let w = xyz(r, "/pointer/world")?;
            (dist3(w, wa) < 0.8 * span).then_some(())
        },
    );
    let now_a = world_under(&s, a);
    s.check(dist3(now_a, wa) < 0.05 * span, || {
        format!("zoomed in at {}, the point under the cursor moved from {wa:?} to {now_a:?} (the centre's was {wc:?})", fmt_xy(Some(a)))
    });
}

/// Opens the combo box `combo` in the probe panel and clicks its item
/// `item`, waiting until `done` holds.
fn pick_from_combo(s: &Session, combo: &str, item: &str, done: impl Fn(&Report) -> bool) {
    let at = settled_widget(s, combo);
    s.click(at.center());
    let it = settled_widget(s, item);
    s.click(it.center());
    s.wait_for(&format!("`{item}` chosen from `{combo}`"), WAIT, |r| {
        done(r).then_some(())
    });
}

#[test]
fn a_quake_map_opens_with_quakes_player_and_the_probe_routes_from_its_start_to_its_exit() {
    let Some(level) = shared_map("librequake/lq_e0m1.map") else {
        return;
    };
    let opts = Options::new(level, &["--pipeline", "cspace"]);
    let Some(s) = Session::start_with("quake_route", opts) else {
        return;
    };
    let r = s.wait_ready();
    // The parameters are Quake's player, and the panel says so.
    s.check(r.str("/agent") == Some("quake"), || {
        format!("agent {:?}, not quake, on a Quake map", r.get("/agent"))
    });
    s.wait_for("the agent menu `params/agent`", WAIT, |r| {
        r.widget("params/agent")
    });
    let starts = r
        .get("/probe/spots/starts")
        .and_then(|v| v.as_array())
        .map_or(0, Vec::len);
    let exits = r
        .get("/probe/spots/exits")
        .and_then(|v| v.as_array())
        .map_or(0, Vec::len);
    s.check(starts >= 1 && exits >= 1, || {
        format!("{starts} starts and {exits} exits offered on lq_e0m1")
    });
    // A person picks the start and the exit and sees the route.
    pick_from_combo(&s, "probe/spot/start", "probe/spot/start/0", |r| {
        r.get("/probe/start").is_some_and(|p| !p.is_null())
    });
    pick_from_combo(&s, "probe/spot/goal", "probe/spot/goal/0", |r| {
        r.bool("/probe/found").is_some() && r.bool("/probe/searching") == Some(false)
    });
    let r = s.read_report().unwrap();
    s.check(r.bool("/probe/found") == Some(true), || {
        format!(
            "no route from the start to the exit: gap {:?}",
            r.get("/probe/gap")
        )
    });
    let (Some(a), Some(b)) = (r.start_px(), r.goal_px()) else {
        s.fail("the markers are not on screen");
    };
    s.wait_for_screen(
        "the route drawn from the start to the exit",
        WAIT,
        |img, r| path_drawn_between(img, r, a, b),
    );
    // A Ctrl+click on the start marker places the start (it does not grab
    // the marker) where the status readout says the cursor points: the
    // first NavMesh surface under the cursor.
    ctrl_click_where_the_readout_points(&s, &r, a, world_under(&s, a));
}

/// Ctrl+clicks at `at` (where the readout said `under`) and checks that
/// the start went where the readout said; returns it.
fn ctrl_click_where_the_readout_points(
    s: &Session,
    r: &Report,
    at: (f64, f64),
    under: [f64; 3],
) -> [f64; 3] {
    let rev = r.probe_revision();
    s.click_with(&["ctrl"], at, "a Ctrl+click on the start marker", |r| {
        r.probe_revision() != rev
    });
    let r = s.read_report().unwrap();
    let placed = xyz(&r, "/probe/start").unwrap_or([f64::NAN; 3]);
    s.check(dist3(placed, under) < 0.05, || {
        format!("the Ctrl+click put the start at {placed:?}, the readout under the cursor said {under:?}")
    });
    placed
}

#[test]
fn in_the_top_view_a_ctrl_click_on_a_quake_maps_start_lands_on_its_floor_not_its_roof() {
    // E1M1's start is under a roof; the map is sealed, so no NavMesh lies
    // on the roof and the first NavMesh surface under the cursor, seen
    // from above, is the floor the player stands on.
    let Some(level) = shared_map("librequake/lq_e1m1.map") else {
        return;
    };
    let opts = Options::new(level, &["--pipeline", "cspace"]);
    let Some(s) = Session::start_with("quake_top_click", opts) else {
        return;
    };
    s.wait_ready();
    pick_from_combo(&s, "probe/spot/start", "probe/spot/start/0", |r| {
        r.get("/probe/start").is_some_and(|p| !p.is_null())
    });
    let r = s.read_report().unwrap();
    let spot = xyz(&r, "/probe/start").expect("the start spot");
    if r.bool("/view/top_down") != Some(true) {
        s.key("t");
    }
    // The camera glides into the top view: the marker's pixel is taken once
    // it holds still.
    let (r, at) = held_still(
        &s,
        "the start marker on screen in the top view (T)",
        |r| {
            r.start_px()
                .filter(|_| r.bool("/view/top_down") == Some(true))
        },
        |a, b| (a.0 - b.0).abs() < 0.5 && (a.1 - b.1).abs() < 0.5,
    );
    let under = world_under(&s, at);
    s.check((under[0] - spot[0]).hypot(under[2] - spot[2]) < 0.5, || {
        format!("the readout under the start marker is {under:?}, not over the start {spot:?}")
    });
    let placed = ctrl_click_where_the_readout_points(&s, &r, at, under);
    s.check((placed[1] - spot[1]).abs() < 1.0, || {
        format!(
            "the Ctrl+click above the player's start ({spot:?}) landed at height {:.2}, not on its floor",
            placed[1]
        )
    });
    s.keep_shot(&s.screenshot());
}

// ---------------------------------------------------------------------------
// #39 item 3: the why tool (W). A plain click asks why the point is (not)
// on the NavMesh; under table_room's table the standing pass is dropped by
// the headroom rule and the crouching pass keeps the point.

/// Waits until the panels were drawn again after report `r` (its egui
/// pass count moved on): the panel a screenshot shows is then `r`'s.
fn panels_drawn_after(s: &Session, r: &Report) {
    let passes = r.u64("/egui/passes").unwrap_or(0);
    s.wait_for("the panels drawn again", WAIT, |r| {
        (r.u64("/egui/passes").unwrap_or(0) > passes).then_some(())
    });
}

/// The why tool's point and the thing it names (`why::draw::WHY_COLOR`).
const WHY_ROSE: [u8; 3] = [255, 0, 110];

/// In the top view, the logical pixel over world `(x, z)`: three hovers
/// read the world points under three pixels (`pointer.world`), and the
/// orthographic view maps pixels to the floor's plane affinely.
fn top_view_pixel(s: &Session, central: Rect, x: f64, z: f64) -> (f64, f64) {
    let c = central.center();
    let p = [c, (c.0 + 80.0, c.1), (c.0, c.1 + 80.0)];
    let w: Vec<[f64; 3]> = p.iter().map(|q| world_under(s, *q)).collect();
    // World deltas per pixel delta: [w1-w0 w2-w0] = M [80 0; 0 80].
    let m = [
        [(w[1][0] - w[0][0]) / 80.0, (w[2][0] - w[0][0]) / 80.0],
        [(w[1][2] - w[0][2]) / 80.0, (w[2][2] - w[0][2]) / 80.0],
    ];
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    s.check(det.abs() > 1e-9, || {
        format!("the top view maps pixels to the floor: {w:?} under {p:?}")
    });
    let (dx, dz) = (x - w[0][0], z - w[0][2]);
    (
        p[0].0 + (m[1][1] * dx - m[0][1] * dz) / det,
        p[0].1 + (-m[1][0] * dx + m[0][0] * dz) / det,
    )
}

/// Presses W for the why tool, clicks at `px` (over the world point `w`)
/// and returns the report once the answer about that point is in.
fn why_at(s: &Session, px: (f64, f64), w: [f64; 3]) -> Report {
    s.key("w");
    s.wait_for("the why tool (tool == why)", WAIT, |r| {
        (r.str("/tool") == Some("why")).then_some(())
    });
    s.click(px);
    s.wait_for("the why answer at the clicked point", WAIT, |r| {
        let at = xyz(r, "/why/at")?;
        let answered = r.bool("/why/checking") == Some(false)
            && r.get("/why/answer").is_some_and(|a| !a.is_null());
        (answered && dist3(at, w) < 0.05).then(|| r.clone())
    })
}

/// The why panel's rectangle in physical pixels; checks that it is shown.
fn why_panel(s: &Session, r: &Report) -> Rect {
    let panel = r.widget("why/panel");
    s.check(panel.is_some(), || {
        "the why panel (why/panel) is shown".into()
    });
    panel
        .unwrap_or(Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 0.0,
            y1: 0.0,
        })
        .scaled(r.scale())
}

#[test]
fn the_w_tool_under_table_rooms_table_names_the_stance_and_the_rule() {
    // The top view with a height slice below the table top (1.3 m): a
    // click over the table lands on the floor under it.
    let Some((s, r)) = open_ready(
        "why_tool_table",
        "assets/levels/voxel/table_room.obj",
        &["--pipeline", "voxel", "--slice", "-0.3,0.8"],
    ) else {
        return;
    };
    s.key("t");
    let central = r.central().expect("central");
    // The table spans x 5.2..6.8, z 1.2..8.8 (assets/levels/voxel/table_room.obj).
    let px = top_view_pixel(&s, central, 6.0, 5.0);
    let w = world_under(&s, px);
    s.check(
        (5.3..6.7).contains(&w[0]) && (1.3..8.7).contains(&w[2]) && w[1] < 0.5,
        || format!("the point under the cursor {w:?} is the floor under the table"),
    );
    let r = why_at(&s, px, w);
    let stances = r
        .get("/why/answer/stances")
        .and_then(|v| v.as_array())
        .cloned()
        .unwrap_or_default();
    let stance = |name: &str| {
        stances
            .iter()
            .find(|st| st.get("stance").and_then(|v| v.as_str()) == Some(name))
            .cloned()
    };
    let stand = stance("stand").unwrap_or_default();
    let reason = stand.get("reason").and_then(|v| v.as_str()).unwrap_or("");
    s.check(
        stand.get("walkable").and_then(|v| v.as_bool()) == Some(false)
            && stand.get("stage").and_then(|v| v.as_str()).is_some_and(|t| !t.is_empty())
            && reason.contains("headroom")
            && reason.contains("height"),
        || format!("the standing pass is dropped by a stage, naming the headroom rule and the standing height: {stand}"),
    );
    let crouch = stance("crouch").unwrap_or_default();
    s.check(
        crouch.get("walkable").and_then(|v| v.as_bool()) == Some(true)
            && r.bool("/why/answer/walkable") == Some(true),
        || {
            format!(
                "the crouching pass keeps the point under the table: {crouch}; answer {:?}",
                r.get("/why/answer")
            )
        },
    );
    // The panel is up over the view, and the point and the table top the
    // rule names are drawn in the why colour.
    let k = r.scale();
    let panel = why_panel(&s, &r);
    panels_drawn_after(&s, &r);
    let img = s.wait_for_screen("the why point and the table top drawn", WAIT, |img, _| {
        let n = count_near(img, (px.0 * k, px.1 * k), 14.0 * k, WHY_ROSE, MARK_TOL);
        let view = central_phys(&s, &r);
        let all = count_in(img, view, WHY_ROSE, MARK_TOL)
            .saturating_sub(count_in(img, panel, WHY_ROSE, MARK_TOL));
        if n >= 4 && all >= n + 50 {
            Ok(img.clone())
        } else {
            Err(format!(
                "{n} why-rose pixels near the click (want >= 4), {all} in the view outside the panel (want {} or more: the outline of the table top the headroom rule names); {}",
                n + 50,
                colour_histogram(img, view, 6)
            ))
        }
    });
    s.keep_shot(&img);
}

#[test]
fn the_w_tool_beside_a_brush_in_cspace_outlines_the_brush_it_names() {
    // ledge.ron: a floor slab and a raised block (brush 1) from x 1 to 5,
    // y 0 to 1, z -2 to 2. On the floor 0.15 m from the block's side,
    // cspace's agent box (0.6 m) overlaps it: the point is inside the
    // block grown by the box, and the block's six faces are drawn.
    let Some((s, r)) = open_ready(
        "why_tool_brush",
        "assets/levels/cspace/ledge.ron",
        &["--pipeline", "cspace"],
    ) else {
        return;
    };
    s.key("t");
    let central = r.central().expect("central");
    let px = top_view_pixel(&s, central, 0.85, 0.0);
    let w = world_under(&s, px);
    s.check(
        (0.75..0.95).contains(&w[0]) && w[2].abs() < 0.1 && w[1].abs() < 0.05,
        || format!("the point under the cursor {w:?} is the floor beside the block"),
    );
    let r = why_at(&s, px, w);
    let reason = r.str("/why/answer/reason").unwrap_or("");
    s.check(
        r.bool("/why/answer/walkable") == Some(false) && reason.contains("inside brush 1"),
        || format!("the point is not walkable, inside the block grown by the agent: {reason}"),
    );
    let size = xyz(&r, "/why/shape_size").unwrap_or([0.0; 3]);
    s.check(dist3(size, [4.0, 1.0, 4.0]) < 0.01, || {
        format!("the shape drawn is the block, 4 x 1 x 4 m: {size:?}")
    });
    // The block's outline in the why colour: its top's edges run from
    // x 1 to 5 and z -2 to 2; rose pixels lie along them, far from the
    // click (the cross there is small).
    let k = r.scale();
    let panel = why_panel(&s, &r);
    let corners = [(1.0, -2.0), (5.0, -2.0), (5.0, 2.0), (1.0, 2.0)];
    let on_screen: Vec<(f64, f64)> = corners
        .iter()
        .map(|(x, z)| {
            let p = top_view_pixel(&s, central, *x, *z);
            (p.0 * k, p.1 * k)
        })
        .collect();
    panels_drawn_after(&s, &r);
    let img = s.wait_for_screen("the block's outline drawn", WAIT, |img, _| {
        // Each side's middle and the far corner (5, 2) carry rose pixels.
        let mids: Vec<(f64, f64)> = (0..4)
            .map(|i| {
                let (a, b) = (on_screen[i], on_screen[(i + 1) % 4]);
                ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
            })
            .chain([on_screen[2]])
            .collect();
        // The why panel floats over the view: what it covers is not seen.
        let seen: Vec<(f64, f64)> = mids
            .into_iter()
            .filter(|(x, y)| {
                !(panel.x0 - 8.0 * k..panel.x1 + 8.0 * k).contains(x)
                    || !(panel.y0 - 8.0 * k..panel.y1 + 8.0 * k).contains(y)
            })
            .collect();
        let counts: Vec<usize> = seen
            .iter()
            .map(|m| count_near(img, *m, 8.0 * k, WHY_ROSE, MARK_TOL))
            .collect();
        if seen.len() >= 3 && counts.iter().all(|n| *n >= 3) {
            Ok(img.clone())
        } else {
            Err(format!(
                "why-rose pixels at the block's side middles and far corner outside the why panel {seen:?}: {counts:?} (want 3 places or more, >= 3 each); {}",
                colour_histogram(img, central_phys(&s, &r), 6)
            ))
        }
    });
    s.keep_shot(&img);
}

// ---------------------------------------------------------------------------
// #39 item 4: the island view (I). On the ledge level in `voxel` the 1 m
// ledge is not linked to the floor: two islands, each in its colour, and a
// click on the smaller shows its gap to the largest with the rule and the
// checked fix.

/// The largest island's colour and the second's (`probe::islands::island_color`).
const ISLAND_BLUE: [u8; 3] = [0, 110, 255];
const ISLAND_CORAL: [u8; 3] = [255, 70, 60];

/// The pixels of colour `c` in `r` (physical), as found.
fn pixels_of(img: &image::RgbaImage, r: Rect, c: [u8; 3]) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for y in r.y0.max(0.0) as u32..(r.y1 as u32).min(img.height()) {
        for x in r.x0.max(0.0) as u32..(r.x1 as u32).min(img.width()) {
            if near(*img.get_pixel(x, y), c, MARK_TOL) {
                out.push((x as f64, y as f64));
            }
        }
    }
    out
}

#[test]
fn the_island_view_colours_two_islands_and_a_click_shows_the_gap_and_its_fix() {
    let Some((s, _)) = open_ready(
        "island_view",
        "assets/levels/cspace/ledge.ron",
        &["--pipeline", "voxel"],
    ) else {
        return;
    };
    s.key("i");
    let r = s.wait_for("view.islands with its islands", WAIT, |r| {
        (r.u64("/view/islands/count").unwrap_or(0) > 0).then(|| r.clone())
    });
    let areas: Vec<f64> = r
        .get("/view/islands/areas")
        .and_then(|a| a.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
        .unwrap_or_default();
    s.check(
        areas.len() == 2 && areas[0] >= areas[1] && areas[1] > 1.0,
        || format!("two islands, largest first, the ledge's a few m²: areas {areas:?}"),
    );
    // Both drawn in their colours; the smaller one's pixels lie on it.
    let view = central_phys(&s, &r);
    let coral = s.wait_for_screen("both islands drawn", WAIT, |img, _| {
        let blue = count_in(img, view, ISLAND_BLUE, MARK_TOL);
        let coral = pixels_of(img, view, ISLAND_CORAL);
        if blue >= 50 && coral.len() >= 50 {
            Ok(coral)
        } else {
            Err(format!(
                "{blue} blue (largest island) and {} coral (second) pixels in the view, want >= 50 each; {}",
                coral.len(),
                colour_histogram(img, view, 6)
            ))
        }
    });
    // A click inside the coral outlines: the median pixel of a compact
    // island lies on it.
    let mut xs: Vec<f64> = coral.iter().map(|p| p.0).collect();
    let mut ys: Vec<f64> = coral.iter().map(|p| p.1).collect();
    xs.sort_by(f64::total_cmp);
    ys.sort_by(f64::total_cmp);
    let k = r.scale();
    let at = (xs[xs.len() / 2] / k, ys[ys.len() / 2] / k);
    s.click(at);
    let r = s.wait_for("island 2 selected, its gap explained", WAIT, |r| {
        (r.u64("/view/islands/selected") == Some(2)
            && r.bool("/view/islands/fix_pending") == Some(false)
            && r.get("/view/islands/gap").is_some_and(|g| !g.is_null()))
        .then(|| r.clone())
    });
    let reason = r.str("/view/islands/gap/reason").unwrap_or("").to_string();
    let height = r.f64("/view/islands/gap/height").unwrap_or(f64::NAN);
    let fix = r
        .get("/view/islands/gap/fix")
        .and_then(|f| f.as_array())
        .map_or(0, |f| f.len());
    s.check(
        (height.abs() - 1.0).abs() < 0.2 && reason.contains("step") && fix > 0,
        || format!("the gap is the 1 m ledge, refused by the step rule, with a checked fix: height {height}, reason {reason:?}, {fix} fixes"),
    );
    // The ledge's island reaches the largest by drops: the reason names
    // the drop as linked and the way back up as the one refused.
    s.check(
        reason.contains("a drop (")
            && reason.contains("leads to the other side, but the way back, a jump up (")
            && reason.contains("is refused: step 1.00 m > max step"),
        || format!("the gap names the drop as linked and the way back up as refused: {reason:?}"),
    );
    panels_drawn_after(&s, &r);
    // The shot once the panels settle: a frame reused the last egui pass,
    // so the screen shows the explained gap, not a frame with the spinner.
    let reused = r.u64("/egui/reused").unwrap_or(0);
    let img = s.wait_for_screen("the gap line drawn", WAIT, |img, now| {
        let lime = count_in(img, view, GAP_LIME, MARK_TOL);
        let settled = now.u64("/egui/reused").unwrap_or(0) > reused;
        if lime >= 20 && settled {
            Ok(img.clone())
        } else {
            Err(format!(
                "{lime} gap-lime pixels in the view, want >= 20; panels settled (a reused egui pass since the gap): {settled}"
            ))
        }
    });
    s.keep_shot(&img);
}

// ---------------------------------------------------------------------------
// #41 item 9: after a switch of pipeline the inspector keeps no selection
// of the old pipeline under the new one's labels (the selection is
// cleared: `build::timeline`'s `follow_level`).

#[test]
fn switching_the_pipeline_from_the_menu_clears_the_inspected_cell() {
    let Some(s) = Session::start("pipeline_switch_selection") else {
        return;
    };
    s.wait_ready();
    let (pts, _) = floor_points(&s, 1);
    click_widget(&s, &format!("timeline/stage/{CELLS_STAGE}"));
    s.wait_for(&format!("stage.current == {CELLS_STAGE}"), WAIT, |r| {
        (r.stage() == Some(CELLS_STAGE) && r.idle()).then_some(())
    });
    s.click(pts[0]);
    s.wait_for("a convex cell selected and inspected", WAIT, |r| {
        (r.u64("/selection/stage") == Some(CELLS_STAGE) && !inspector_rows(r).is_empty())
            .then_some(())
    });
    pick_from_combo(&s, "menu/pipeline", "menu/pipeline/voxel", |r| {
        r.str("/pipeline") == Some("voxel")
    });
    let r = s.wait_for("the voxel build done", WAIT, |r| {
        (r.str("/pipeline") == Some("voxel") && r.idle()).then(|| r.clone())
    });
    s.check(
        r.get("/selection").is_none() && inspector_rows(&r).is_empty(),
        || {
            format!(
                "after the switch nothing is selected or inspected: selection {:?}, inspector {:?}",
                r.get("/selection"),
                inspector_rows(&r)
            )
        },
    );
}

// ---------------------------------------------------------------------------
// 19. A side panel scrolls by its bars and the wheel, not by dragging its
// background (egui's touch gesture): a press beside a widget, or a click
// egui took for a long press, must not slide the panel away.

#[test]
fn dragging_the_parameter_panels_background_does_not_scroll_it() {
    let Some((s, r)) = table_room_at("panel_drag", "tiles") else {
        return;
    };
    let panel = r.widget("panel/left").expect("the left panel in widgets");
    let row = settled_widget(&s, "param/reuse_tiles");
    let before = settled_widget(&s, "param/cell_size");
    // The empty background right of the checkbox, short of the scroll bar.
    let from = ((row.x1 + panel.x1 - 16.0) / 2.0, row.center().1);
    s.check(from.0 > row.x1 + 10.0, || {
        format!("no room right of the checkbox {row:?} in the panel {panel:?}")
    });
    // Up and to the left: with drag-to-scroll the contents (taller and
    // wider than the panel) would follow the pointer.
    let to = (from.0 - 90.0, from.1 - 120.0);
    s.press_at(from);
    s.move_in_steps(from, to, 8);
    s.release();
    let after = settled_widget(&s, "param/cell_size");
    s.check(after == before, || {
        format!("the cell size slider moved from {before:?} to {after:?} after a drag on the panel's background")
    });
    // The wheel still scrolls it.
    s.move_to((from.0, from.1 + 200.0));
    s.dwell();
    wheel_until(&s, "5", "wheel notches down to scroll the panel", |r| {
        r.widget("param/cell_size")
            .is_some_and(|w| w.y0 < before.y0)
    });
}
