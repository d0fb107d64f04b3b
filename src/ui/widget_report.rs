//! What the panels tell the state report (`dev::report`) in every
//! egui pass: where their widgets are, the status line, the files exported
//! and the tooltips on screen. End-to-end tests read it to know where to
//! click; the panels keep it whether or not a report is written, so that
//! they draw the same either way.

use std::collections::BTreeMap;

use bevy::prelude::*;

/// What the panels tell the report: where their widgets are and what the
/// status line says. Filled by the UI in every egui pass.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct UiReport {
    /// Named widget rectangles, `[x0, y0, x1, y1]` in window logical pixels.
    pub widgets: BTreeMap<String, [f32; 4]>,
    /// The 3D view between the panels.
    pub central: [f32; 4],
    /// The status line's text.
    pub status: String,
    /// Files written from the File menu, in order.
    pub exports: Vec<String>,
    /// The tooltips on screen, `[x0, y0, x1, y1]` in window logical pixels.
    pub tooltips: Vec<[f32; 4]>,
    /// The error notice over the view, until dismissed.
    pub notice_error: Option<String>,
    /// How many restored parameters the notice announces, while it does.
    pub notice_restored: Option<usize>,
    /// Whether the log panel is open.
    pub log_open: bool,
    /// The inspector's rows as shown, `[label, text]`.
    pub inspector: Vec<[String; 2]>,
}

impl UiReport {
    /// Notes where widget `name` is.
    pub fn widget(&mut self, name: &str, min: Vec2, max: Vec2) {
        self.widgets
            .insert(name.to_string(), [min.x, min.y, max.x, max.y]);
    }
}
