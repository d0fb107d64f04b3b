//! Frame pacing: a desktop tool that sits idle does not redraw sixty times
//! a second. The window updates when input arrives, or at the latest every
//! [`IDLE_WAIT`] (so anything polled — a file dialog's answer, a changed
//! file — still arrives); while something is under way (a level loading, a
//! build, a preparation, a sub-step's highlights, the probe's search or its
//! animation, a comparison, the timeline playing, the camera easing to
//! where it was sent) [`keep_awake`] asks for the next frame at once, so
//! progress shows at the frame rate. `--measure` and `--screenshot` keep drawing
//! continuously (they time and capture frames).

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_panorbit_camera::PanOrbitCamera;

use crate::build::Build;
use crate::compare::Compare;
use crate::level::Loading;
use crate::model::timeline::Timeline;
use crate::probe::{Probe, ProbeOutcome, ProbeSearch};
use crate::view::filter::Refiltering;
use crate::view::highlight::StepHighlights;

/// The longest a focused, idle window waits for input before updating.
pub const IDLE_WAIT: Duration = Duration::from_millis(100);
/// The same for a window without focus.
pub const UNFOCUSED_WAIT: Duration = Duration::from_millis(500);

/// Updates on input, and every frame while something is under way.
pub struct PacingPlugin;

impl Plugin for PacingPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::reactive(IDLE_WAIT),
            unfocused_mode: UpdateMode::reactive(UNFOCUSED_WAIT),
        })
        .add_systems(Last, keep_awake);
    }
}

/// What is under way that the next frame should show.
#[derive(bevy::ecs::system::SystemParam)]
pub struct UnderWay<'w, 's> {
    loading: Res<'w, Loading>,
    build: Res<'w, Build>,
    probe: Res<'w, Probe>,
    search: Res<'w, ProbeSearch>,
    compare: Res<'w, Compare>,
    why: Res<'w, crate::why::WhyTool>,
    islands: Res<'w, crate::probe::islands::IslandView>,
    timeline: Res<'w, Timeline>,
    refiltering: Query<'w, 's, (), With<Refiltering>>,
    step_highlights: Option<Res<'w, StepHighlights>>,
    cameras: Query<'w, 's, &'static PanOrbitCamera>,
}

impl UnderWay<'_, '_> {
    /// True when the picture will change without input.
    pub fn any(&self) -> bool {
        let animating = match &self.probe.outcome {
            Some(o @ ProbeOutcome::Searched { .. }) => {
                self.probe.animate && self.probe.shown < o.steps() as f32
            }
            _ => false,
        };
        self.loading.is_loading()
            || self.build.is_busy()
            || self.probe.is_refreshing()
            || self.search.is_running()
            || self.search.is_fixing()
            || animating
            || self.compare.is_busy()
            || self.why.is_checking()
            || self.islands.is_busy()
            || self.timeline.playing
            || !self.refiltering.is_empty()
            || self
                .step_highlights
                .as_ref()
                .is_some_and(|h| h.is_fetching())
            || self.cameras.iter().any(easing)
    }
}

/// True while the orbit camera still moves towards its targets.
fn easing(c: &PanOrbitCamera) -> bool {
    const EPS: f32 = 1e-4;
    let near = |a: Option<f32>, b: f32| a.is_none_or(|a| (a - b).abs() <= EPS * b.abs().max(1.0));
    !near(c.yaw, c.target_yaw)
        || !near(c.pitch, c.target_pitch)
        || !near(c.radius, c.target_radius)
        || c.focus.distance(c.target_focus) > EPS * c.focus.length().max(1.0)
}

fn keep_awake(under_way: UnderWay, mut redraw: MessageWriter<RequestRedraw>) {
    if under_way.any() {
        redraw.write(RequestRedraw);
    }
}
