//! The app's state report and the window rectangles it names.
//!
//! With `NAVSCOPE_REPORT=FILE` set, the app rewrites FILE (write `FILE.tmp`,
//! rename) whenever its state changes, as JSON: `frame`, `window`, `scale`,
//! `level`, `pipeline`, `tool` (`inspect` | `probe`), `next_probe_point`,
//! `stage` {`current`, `count`, `substep`, `substep_drawn`, `finished`,
//! `running`, `failed`, `evicted`}, `build`
//! {`published`, `busy`}, `params` {name: value}, `undo` {`undo`, `redo`},
//! `probe` {`start`, `goal`, `start_px`, `goal_px`, `found`, `length`,
//! `revision`}, `selection` and `hover` ({`stage`, `kind`, `element`} or
//! null), `widgets` {name: [x0, y0, x1, y1]}, `central`, `status`, `exports`,
//! `messages`. Pixel coordinates are window-relative logical pixels. Widget
//! names: `menu/file`, `menu/file/open`, `menu/file/export-json`, ...,
//! `tool/inspect`, `tool/probe`, `param/<name>`, `timeline/stage/<i>`,
//! `panel/left`, `panel/right`, `panel/timeline`, `status`, `dialog/path`,
//! `dialog/path/ok`.

use serde_json::Value;

/// A rectangle in window pixels: `[x0, y0, x1, y1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn from_value(v: &Value) -> Option<Rect> {
        let a = v.as_array()?;
        if a.len() != 4 {
            return None;
        }
        Some(Rect {
            x0: a[0].as_f64()?,
            y0: a[1].as_f64()?,
            x1: a[2].as_f64()?,
            y1: a[3].as_f64()?,
        })
    }
    pub fn center(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
    pub fn contains(&self, p: (f64, f64)) -> bool {
        p.0 >= self.x0 && p.0 <= self.x1 && p.1 >= self.y0 && p.1 <= self.y1
    }
    /// Shrunk by `m` on every side.
    pub fn inset(&self, m: f64) -> Rect {
        Rect {
            x0: self.x0 + m,
            y0: self.y0 + m,
            x1: self.x1 - m,
            y1: self.y1 - m,
        }
    }
    pub fn scaled(&self, s: f64) -> Rect {
        Rect {
            x0: self.x0 * s,
            y0: self.y0 * s,
            x1: self.x1 * s,
            y1: self.y1 * s,
        }
    }
    /// Point at fractions (`fx`, `fy`) of the width and height.
    pub fn at(&self, fx: f64, fy: f64) -> (f64, f64) {
        (self.x0 + fx * self.width(), self.y0 + fy * self.height())
    }
}

pub fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// One parsed `NAVSCOPE_REPORT` file.
#[derive(Clone, Debug)]
pub struct Report(pub Value);

impl Report {
    pub fn get(&self, pointer: &str) -> Option<&Value> {
        self.0.pointer(pointer).filter(|v| !v.is_null())
    }
    pub fn f64(&self, pointer: &str) -> Option<f64> {
        self.get(pointer)?.as_f64()
    }
    pub fn u64(&self, pointer: &str) -> Option<u64> {
        self.get(pointer)?.as_u64()
    }
    pub fn bool(&self, pointer: &str) -> Option<bool> {
        self.get(pointer)?.as_bool()
    }
    pub fn str(&self, pointer: &str) -> Option<&str> {
        self.get(pointer)?.as_str()
    }
    /// A `[x, y]` pair (the probe markers' screen positions).
    pub fn xy(&self, pointer: &str) -> Option<(f64, f64)> {
        let a = self.get(pointer)?.as_array()?;
        Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?))
    }
    pub fn frame(&self) -> Option<u64> {
        self.u64("/frame")
    }
    /// Logical-to-physical pixel factor (1 under Xvfb).
    pub fn scale(&self) -> f64 {
        self.f64("/scale").filter(|s| *s > 0.0).unwrap_or(1.0)
    }
    pub fn widget(&self, name: &str) -> Option<Rect> {
        Rect::from_value(self.0.get("widgets")?.get(name)?)
    }
    pub fn widget_names(&self) -> Vec<String> {
        self.0
            .get("widgets")
            .and_then(|w| w.as_object())
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }
    pub fn central(&self) -> Option<Rect> {
        Rect::from_value(self.0.get("central")?)
    }
    pub fn param(&self, name: &str) -> Option<&Value> {
        self.0.get("params")?.get(name)
    }
    pub fn published(&self) -> Option<u64> {
        self.u64("/build/published")
    }
    pub fn busy(&self) -> Option<bool> {
        self.bool("/build/busy")
    }
    pub fn stage(&self) -> Option<u64> {
        self.u64("/stage/current")
    }
    pub fn substep(&self) -> Option<u64> {
        self.u64("/stage/substep")
    }
    /// The sub-step whose highlights are drawn (they follow the timeline
    /// once a worker has made them).
    pub fn substep_drawn(&self) -> Option<u64> {
        self.u64("/stage/substep_drawn")
    }
    pub fn stage_count(&self) -> Option<u64> {
        self.u64("/stage/count")
    }
    /// The stages that let their data go while out of sight.
    pub fn evicted(&self) -> Vec<u64> {
        self.get("/stage/evicted")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_u64()).collect())
            .unwrap_or_default()
    }
    pub fn start_px(&self) -> Option<(f64, f64)> {
        self.xy("/probe/start_px")
    }
    pub fn goal_px(&self) -> Option<(f64, f64)> {
        self.xy("/probe/goal_px")
    }
    pub fn probe_revision(&self) -> Option<u64> {
        self.u64("/probe/revision")
    }
    /// Everything built and published, nothing running: what a person waits
    /// for before using the view.
    pub fn idle(&self) -> bool {
        self.busy() == Some(false)
            && self.published().is_some_and(|p| p >= 1)
            && self.get("/stage/running").is_none()
            && match (self.u64("/stage/finished"), self.stage_count()) {
                (Some(f), Some(c)) => f >= c,
                _ => false,
            }
            && self.central().is_some()
    }
    pub fn pretty(&self) -> String {
        serde_json::to_string_pretty(&self.0).unwrap_or_default()
    }
}
