//! Helpers shared by the headless app tests: a tiny artifact and a bounded
//! wait on the app's state.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use navscope_core::stage::Artifact;
use navscope_core::{Primitive, Shape};

/// An artifact of `n` points in a row, one element each.
#[allow(dead_code)]
#[derive(Debug, serde::Serialize)]
pub struct Dots(pub u32);

impl Artifact for Dots {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([("dots".to_string(), self.0 as u64)])
    }
    fn primitives(&self) -> Vec<Primitive> {
        (0..self.0)
            .map(|i| Primitive::new("dot", i, Shape::Point(Vec3::new(i as f32, 0.0, 0.0))))
            .collect()
    }
}

/// Updates until `done` holds, at most `secs` seconds (then fails, saying
/// what it waited for).
#[allow(dead_code)]
pub fn until(app: &mut App, secs: u64, what: &str, done: impl Fn(&App) -> bool) {
    until_found(app, secs, what, |app| done(app).then_some(()))
}

/// Updates until `found` finds something and returns it, at most `secs`
/// seconds (then fails, saying what it waited for).
#[allow(dead_code)]
pub fn until_found<T>(
    app: &mut App,
    secs: u64,
    what: &str,
    mut found: impl FnMut(&mut App) -> Option<T>,
) -> T {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        app.update();
        if let Some(t) = found(app) {
            return t;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("timed out waiting until {what}");
}
