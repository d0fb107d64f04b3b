//! The editing widget of one parameter, by its kind: a slider for numbers,
//! a checkbox for switches, a combo box for choices, a text field for
//! ordered lists.
//!
//! Drawing a value must never change it. egui's sliders by default clamp
//! and snap the value they show to their range and step on every frame and
//! report that as a change, so a level whose values sit between the steps
//! (a slope of 28.65° from a radian default, a cell of 0.1 m that the step
//! grid writes as 0.0999…) was rebuilt, and its history filled with edits
//! nobody made, merely by opening the panel. The sliders here clamp and snap
//! only what the user enters.
//!
//! A slider spans the range a designer works in, not the whole range a
//! parameter accepts: a standing radius accepts 0 to 10 m, and over the
//! 85 px of a slider a 24 px drag went from 0.4 to 3.0 m. The slider runs
//! from the minimum to [`working_max`] (a round number near three times
//! the default, at most the accepted maximum), grown to hold a larger
//! value typed in its box; a typed value may be anything the parameter
//! accepts. Shift while dragging moves at a tenth of the speed, in steps
//! of a tenth.

use bevy_egui::egui;
use navscope_core::{ParamKind, ParamSpec, ParamValue};

/// What the widget of one parameter did this frame.
pub(crate) struct ParamEdit {
    /// The value the user entered, if they entered one.
    pub new: Option<ParamValue>,
    /// The widget's response, for the state report's widget table (none
    /// for a combo box or a list, which have no single rectangle worth
    /// naming).
    pub response: Option<egui::Response>,
}

/// How much slower a drag with Shift held moves the value.
pub(crate) const FINE_DRAG: f64 = 10.0;

/// The smallest of 1, 2, 5 times a power of ten at or above `x` (> 0).
fn round_up(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v >= x * (1.0 - 1e-9))
        .unwrap_or(10.0 * p)
}

/// The top of a slider's range for a parameter accepting `min..=max` with
/// default `default`, now at `value`: a round number near three times the
/// default (the working range), raised to hold the value, at most `max`.
/// A parameter whose default is at its minimum keeps its whole range.
pub(crate) fn working_max(min: f64, max: f64, default: f64, value: f64) -> f64 {
    let span = default - min;
    if span.is_nan() || span <= 0.0 || !max.is_finite() {
        return max;
    }
    let mut top = min + round_up(3.0 * span);
    if value > top {
        top = min + round_up(value - min);
    }
    top.min(max)
}

fn as_f64(v: &ParamValue) -> f64 {
    match v {
        ParamValue::Float(x) => *x,
        ParamValue::Int(i) => *i as f64,
        _ => 0.0,
    }
}

/// The value after a fine drag of `dx` pixels from `before` on a slider
/// `width` pixels wide showing `lo..=hi`: a tenth of the normal speed,
/// snapped to a tenth of `step`, kept in the slider's range.
fn fine_drag(before: f64, dx: f32, width: f32, lo: f64, hi: f64, step: f64) -> f64 {
    let per_px = (hi - lo) / f64::from(width.max(1.0));
    let mut x = before + f64::from(dx) * per_px / FINE_DRAG;
    if step > 0.0 {
        let fine = step / FINE_DRAG;
        x = lo + ((x - lo) / fine).round() * fine;
    }
    x.clamp(lo, hi)
}

/// Draws the widget for `spec` showing `value`, with `tip` on hover.
pub(crate) fn param_widget(
    ui: &mut egui::Ui,
    spec: &ParamSpec,
    value: &ParamValue,
    tip: &str,
) -> ParamEdit {
    let mut new: Option<ParamValue> = None;
    let mut response: Option<egui::Response> = None;
    let suffix = (!spec.unit.is_empty()).then(|| format!(" {}", spec.unit));
    match &spec.kind {
        ParamKind::Float { min, max, step } => {
            let mut x = match value {
                ParamValue::Float(_) | ParamValue::Int(_) => as_f64(value),
                _ => as_f64(&spec.default),
            };
            let before = x;
            let top = working_max(*min, *max, as_f64(&spec.default), x);
            // Never: typed values are clamped to what the parameter
            // accepts below, not to the slider's working range.
            let mut slider =
                egui::Slider::new(&mut x, *min..=top).clamping(egui::SliderClamping::Never);
            if *step > 0.0 {
                slider = slider.step_by(*step);
            }
            if let Some(s) = &suffix {
                slider = slider.suffix(s.clone());
            }
            let resp = ui.add(slider).on_hover_text(format!(
                "{tip}\nShift+drag: fine steps. Click the number to type a value ({min} to {max}{}).",
                suffix.as_deref().unwrap_or("")
            ));
            // A Shift-drag that began on the rail (the slider's own id is
            // dragged; a drag of the number box is another widget, which
            // slows Shift-drags itself) moves from the value before this
            // frame by a tenth of the pointer's motion; it holds on the
            // release frame too, where egui still moves the value to the
            // pointer.
            let fine_id = resp.id.with("fine-drag");
            let was_fine = ui.data(|d| d.get_temp::<bool>(fine_id).unwrap_or(false));
            let shift = ui.input(|i| i.modifiers.shift);
            let dragged = ui.ctx().dragged_id();
            let fine = shift
                && (dragged == Some(resp.id)
                    || (dragged.is_none() && resp.is_pointer_button_down_on())
                    || (resp.drag_stopped() && was_fine));
            ui.data_mut(|d| d.insert_temp(fine_id, fine && !resp.drag_stopped()));
            if resp.changed() {
                if fine {
                    let rail = ui.spacing().slider_width;
                    x = fine_drag(before, resp.drag_delta().x, rail, *min, top, *step);
                }
                new = Some(ParamValue::Float(x.clamp(*min, *max)));
            }
            response = Some(resp);
        }
        ParamKind::Int { min, max } => {
            let mut i = if let ParamValue::Int(i) = value {
                *i
            } else {
                *min
            };
            let mut slider =
                egui::Slider::new(&mut i, *min..=*max).clamping(egui::SliderClamping::Edits);
            if let Some(s) = &suffix {
                slider = slider.suffix(s.clone());
            }
            let resp = ui.add(slider).on_hover_text(tip);
            if resp.changed() {
                new = Some(ParamValue::Int(i));
            }
            response = Some(resp);
        }
        ParamKind::Bool => {
            let mut b = matches!(value, ParamValue::Bool(true));
            let resp = ui.checkbox(&mut b, "").on_hover_text(tip);
            if resp.changed() {
                new = Some(ParamValue::Bool(b));
            }
            response = Some(resp);
        }
        ParamKind::Choice { options } => {
            let cur = value.to_string();
            egui::ComboBox::from_id_salt(&spec.name)
                .selected_text(&cur)
                .show_ui(ui, |ui| {
                    for o in options {
                        if ui.selectable_label(*o == cur, o).clicked() && *o != cur {
                            new = Some(ParamValue::Text(o.clone()));
                        }
                    }
                });
        }
        ParamKind::List { options } => {
            let mut text = value.to_string();
            let resp = ui.text_edit_singleline(&mut text).on_hover_text(format!(
                "{tip}\noptions, comma-separated, in order: {}",
                options.join(", ")
            ));
            if resp.lost_focus() && text != value.to_string() {
                new = Some(ParamValue::Text(text));
            }
        }
    }
    ParamEdit { new, response }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, kind: ParamKind, default: ParamValue) -> ParamSpec {
        ParamSpec {
            name: name.into(),
            label: name.into(),
            doc: String::new(),
            unit: "m".into(),
            kind,
            default,
        }
    }

    /// Runs `frames` egui passes with no input, drawing each spec's widget
    /// with its value; returns every edit reported.
    fn edits_without_input(rows: &[(ParamSpec, ParamValue)], frames: usize) -> Vec<ParamValue> {
        let ctx = egui::Context::default();
        let mut out = Vec::new();
        for _ in 0..frames {
            let _ = ctx.run_ui(egui::RawInput::default(), |ui| {
                for (s, v) in rows {
                    if let Some(n) = param_widget(ui, s, v, "").new {
                        out.push(n);
                    }
                }
            });
        }
        out
    }

    #[test]
    fn sliders_span_the_working_range_and_grow_to_hold_a_typed_value() {
        // A standing radius: accepts 0 to 10 m, default 0.4 m.
        assert_eq!(working_max(0.0, 10.0, 0.4, 0.4), 2.0);
        assert_eq!(working_max(0.0, 10.0, 0.6, 1.9), 2.0);
        // A typed 3 m widens the slider to hold it.
        assert_eq!(working_max(0.0, 10.0, 0.4, 3.0), 5.0);
        // Never past what the parameter accepts.
        assert_eq!(working_max(0.0, 90.0, 45.0, 45.0), 90.0);
        assert_eq!(working_max(0.0, 10.0, 0.4, 10.0), 10.0);
        // A minimum above zero is kept.
        assert_eq!(working_max(0.01, 1.0, 0.3, 0.3), 1.0);
        assert_eq!(working_max(1.0, 100.0, 2.0, 2.0), 6.0);
        // A default at the minimum leaves the whole range.
        assert_eq!(working_max(0.0, 64.0, 0.0, 0.0), 64.0);
        for (lo, hi, d) in [(0.0, 10.0, 0.4), (0.0, 1e9, 7.3), (-5.0, 5.0, 1.0)] {
            let top = working_max(lo, hi, d, d);
            assert!(top > d && top <= hi, "{lo}..{hi} default {d}: top {top}");
        }
    }

    #[test]
    fn a_fine_drag_moves_a_tenth_as_far_in_tenth_steps() {
        // 0 to 2 m over 200 px: 0.01 m a pixel, 0.001 m a pixel fine.
        let x = fine_drag(0.4, 20.0, 200.0, 0.0, 2.0, 0.05);
        assert!((x - 0.42).abs() < 1e-9, "{x}");
        let x = fine_drag(0.4, -7.0, 200.0, 0.0, 2.0, 0.05);
        assert!((x - 0.395).abs() < 1e-9, "{x}");
        assert_eq!(fine_drag(0.001, -500.0, 200.0, 0.0, 2.0, 0.05), 0.0);
    }

    #[test]
    fn values_between_the_steps_or_out_of_range_are_shown_unchanged() {
        let rows = vec![
            // 0.1 is not exactly on the 0.01 grid in binary: snapping
            // writes 0.09999999999999999.
            (
                spec(
                    "cell",
                    ParamKind::Float {
                        min: 0.01,
                        max: 1.0,
                        step: 0.01,
                    },
                    ParamValue::Float(0.2),
                ),
                ParamValue::Float(0.1),
            ),
            // A slope of 0.5 rad in degrees, between whole-degree steps.
            (
                spec(
                    "slope",
                    ParamKind::Float {
                        min: 0.0,
                        max: 90.0,
                        step: 1.0,
                    },
                    ParamValue::Float(45.0),
                ),
                ParamValue::Float(28.64788975654116),
            ),
            // Above the slider's range (a level may ask for more).
            (
                spec(
                    "step",
                    ParamKind::Float {
                        min: 0.0,
                        max: 2.0,
                        step: 0.05,
                    },
                    ParamValue::Float(0.5),
                ),
                ParamValue::Float(48.5),
            ),
            (
                spec(
                    "tiles",
                    ParamKind::Int { min: 8, max: 64 },
                    ParamValue::Int(16),
                ),
                ParamValue::Int(256),
            ),
        ];
        let edits = edits_without_input(&rows, 3);
        assert!(edits.is_empty(), "drawing alone reported edits: {edits:?}");
    }
}
