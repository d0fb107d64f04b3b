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

fn as_f64(v: &ParamValue) -> f64 {
    match v {
        ParamValue::Float(x) => *x,
        ParamValue::Int(i) => *i as f64,
        _ => 0.0,
    }
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
            let mut slider =
                egui::Slider::new(&mut x, *min..=*max).clamping(egui::SliderClamping::Edits);
            if *step > 0.0 {
                slider = slider.step_by(*step);
            }
            if let Some(s) = &suffix {
                slider = slider.suffix(s.clone());
            }
            let resp = ui.add(slider).on_hover_text(tip);
            if resp.changed() {
                new = Some(ParamValue::Float(x));
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
