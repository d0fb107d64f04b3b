//! The inspector's table: an element's description (the JSON an artifact
//! gives through `Artifact::describe_element`) as rows a person reads:
//! names without underscores, units from the name's suffix (`length_m` is
//! "length" in m), numbers rounded, points as `(x, y, z)`, nested records
//! folded, and fields that name other elements of the same stage
//! (`portals: [3, 5]`, `cell: 2`) as links that select them.

use bevy_egui::egui;
use serde_json::Value;

use crate::model::elements::StageElement;
use crate::model::selection::Selection;
use crate::ui::state::UiState;

/// Unit suffixes of field names and how they read.
pub const UNITS: &[(&str, &str)] = &[
    ("_m3", "m³"),
    ("_m2", "m²"),
    ("_ms", "ms"),
    ("_deg", "°"),
    ("_rad", "rad"),
    ("_px", "px"),
    ("_m", "m"),
];

/// A field name as a label and its unit: `area_m2` is ("area", "m²").
pub fn label_and_unit(key: &str) -> (String, &'static str) {
    for (suffix, unit) in UNITS {
        if let Some(stem) = key.strip_suffix(suffix)
            && !stem.is_empty()
        {
            return (stem.replace('_', " "), unit);
        }
    }
    (key.replace('_', " "), "")
}

/// A number rounded for reading: integers as they are, others to at most
/// three decimals without trailing zeros.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// A short text for a value that fits on one row, if it does.
pub fn inline(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("—".into()),
        Value::Bool(b) => Some(if *b { "yes" } else { "no" }.into()),
        Value::Number(n) => n.as_f64().map(number),
        Value::String(s) => Some(s.clone()),
        Value::Array(a) if a.is_empty() => Some("none".into()),
        Value::Array(a) if a.len() <= 4 && a.iter().all(Value::is_number) => Some(format!(
            "({})",
            a.iter()
                .filter_map(Value::as_f64)
                .map(number)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => None,
    }
}

/// The element kind a field refers to, if its name says one: `cell`,
/// `cells`, `cell_id`, `cell_ids`, `portals` name `cell` and `portal`.
pub fn referenced_kind(key: &str) -> String {
    let k = key
        .trim_end_matches("_ids")
        .trim_end_matches("_id")
        .trim_end_matches("_index")
        .trim_end_matches("_indices");
    k.strip_suffix("ies").map_or_else(
        || k.strip_suffix('s').unwrap_or(k).to_string(),
        |s| format!("{s}y"),
    )
}

/// Ids in a value that is an id or a list of ids.
pub fn ids(v: &Value) -> Option<Vec<u32>> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .and_then(|x| u32::try_from(x).ok())
            .map(|x| vec![x]),
        Value::Array(a) if !a.is_empty() => a
            .iter()
            .map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
            .collect(),
        _ => None,
    }
}

/// Draws `value` as a table; `linkable(kind)` says whether the stage drew
/// elements of that kind (so ids of it become links). Returns the link the
/// user clicked: the referenced kind and id.
pub fn table(
    ui: &mut egui::Ui,
    id: &str,
    value: &Value,
    linkable: &dyn Fn(&str) -> bool,
) -> Option<(String, u32)> {
    let mut clicked = None;
    let fields: Vec<(String, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{}", i + 1), v))
            .collect(),
        other => vec![("value".into(), other)],
    };
    egui::Grid::new(id)
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            for (key, v) in &fields {
                let (label, unit) = label_and_unit(key);
                ui.label(egui::RichText::new(&label).strong());
                let kind = referenced_kind(key);
                match (ids(v), linkable(&kind)) {
                    (Some(list), true) if !matches!(v, Value::Number(n) if n.is_f64()) => {
                        ui.horizontal_wrapped(|ui| {
                            for i in list.iter().take(64) {
                                if ui
                                    .link(format!("{kind} #{i}"))
                                    .on_hover_text("Select it")
                                    .clicked()
                                {
                                    clicked = Some((kind.clone(), *i));
                                }
                            }
                            if list.len() > 64 {
                                ui.label(format!("… {} more", list.len() - 64));
                            }
                        });
                    }
                    _ => match inline(v) {
                        Some(text) if unit.is_empty() => {
                            ui.label(text);
                        }
                        Some(text) => {
                            ui.label(format!("{text} {unit}"));
                        }
                        None => {
                            let count = match v {
                                Value::Array(a) => format!("{} items", a.len()),
                                Value::Object(o) => format!("{} fields", o.len()),
                                _ => String::new(),
                            };
                            ui.vertical(|ui| {
                                egui::CollapsingHeader::new(count)
                                    .id_salt(format!("{id}/{key}"))
                                    .show(ui, |ui| {
                                        if let Some(c) =
                                            table(ui, &format!("{id}/{key}"), v, linkable)
                                        {
                                            clicked = Some(c);
                                        }
                                    });
                            });
                        }
                    },
                }
                ui.end_row();
            }
        });
    clicked
}

/// Draws the inspector: the selected element's kind, id and stage, and its
/// fields as a table; a click on a related element selects it.
pub fn inspector_panel(ui: &mut egui::Ui, s: &mut UiState) {
    egui::CollapsingHeader::new("Inspector")
        .default_open(true)
        .show(ui, |ui| {
            let Some(sel) = s.selection.0.clone() else {
                ui.label("Click an element (inspect tool) to inspect it.");
                return;
            };
            let published = s.build.published;
            let cached = s
                .panel
                .inspected
                .as_ref()
                .filter(|(k, p, _)| k.0.as_ref() == Some(&sel) && *p == published)
                .map(|(_, _, v)| v.clone());
            let value = cached.unwrap_or_else(|| {
                let v = s
                    .build
                    .runner()
                    .and_then(|r| r.result(sel.stage))
                    .and_then(|r| r.outcome.as_ref().ok())
                    .map(|a| a.describe_element(&sel.kind, sel.element))
                    .unwrap_or_else(|| {
                        Value::String("(the stage that made it has been rebuilt)".into())
                    });
                s.panel.inspected = Some((Selection(Some(sel.clone())), published, v.clone()));
                v
            });
            let stage_name = s
                .build
                .pipeline()
                .and_then(|p| p.stages.get(sel.stage))
                .map_or("?", |st| st.info.title);
            ui.label(egui::RichText::new(format!("{} #{}", sel.kind, sel.element)).strong());
            ui.label(format!("made by stage {}: {stage_name}", sel.stage + 1));
            let stage_kinds: Vec<String> = s
                .roots
                .iter()
                .filter(|g| g.stage == sel.stage)
                .flat_map(|g| g.prepared.groups.iter().map(|x| x.kind.clone()))
                .collect();
            let family = |k: &str| k.split('/').next().unwrap_or(k).to_string();
            let linkable = |kind: &str| stage_kinds.iter().any(|k| family(k) == kind);
            let mut clicked = None;
            // A one-item list (an element's single record) reads as the record.
            let value = match value {
                Value::Array(mut a) if a.len() == 1 => a.remove(0),
                v => v,
            };
            egui::ScrollArea::vertical()
                .max_height(280.0)
                .id_salt("inspect")
                .show(ui, |ui| {
                    clicked = table(ui, "inspect-table", &value, &linkable);
                });
            if let Some((kind, id)) = clicked {
                // The element of that kind family with that id in the same stage.
                let target = s
                    .indexes
                    .iter()
                    .filter(|(root, _)| root.stage == sel.stage)
                    .flat_map(|(_, index)| index.elements())
                    .find(|(k, e)| *e == id && family(k) == kind)
                    .map(|(k, element)| StageElement {
                        stage: sel.stage,
                        kind: k.to_string(),
                        element,
                    });
                if target.is_some() {
                    s.selection.0 = target;
                }
            }
            if ui.small_button("Deselect").clicked() {
                s.selection.0 = None;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_units_and_numbers_read_as_a_person_writes_them() {
        assert_eq!(label_and_unit("area_m2"), ("area".into(), "m²"));
        assert_eq!(label_and_unit("volume_m3"), ("volume".into(), "m³"));
        assert_eq!(label_and_unit("clearance_m"), ("clearance".into(), "m"));
        assert_eq!(label_and_unit("bevel_faces"), ("bevel faces".into(), ""));
        assert_eq!(label_and_unit("_m"), ("_m".replace('_', " "), ""));
        assert_eq!(number(2.0), "2");
        assert_eq!(number(0.123456), "0.123");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(-0.0001), "0");
        assert_eq!(inline(&json!([1.0, 2.25, -3.0])).unwrap(), "(1, 2.25, -3)");
        assert_eq!(inline(&json!(true)).unwrap(), "yes");
        assert!(inline(&json!({"a": 1})).is_none());
        assert!(inline(&json!([1, 2, 3, 4, 5])).is_none());
    }

    #[test]
    fn fields_that_name_elements_are_recognised() {
        assert_eq!(referenced_kind("portals"), "portal");
        assert_eq!(referenced_kind("cell_ids"), "cell");
        assert_eq!(referenced_kind("cell"), "cell");
        assert_eq!(referenced_kind("bodies"), "body");
        assert_eq!(ids(&json!([3, 5])), Some(vec![3, 5]));
        assert_eq!(ids(&json!(7)), Some(vec![7]));
        assert_eq!(ids(&json!([1.5])), None);
        assert_eq!(ids(&json!(-1)), None);
        assert_eq!(ids(&json!("x")), None);
    }
}
