//! The inspector's table: an element's description (the JSON an artifact
//! gives through `Artifact::describe_element`) as rows a person reads:
//! names without underscores, units from the name's suffix (`length_m` is
//! "length" in m), numbers rounded, points as `(x, y, z)`, nested records
//! folded, and fields that name other elements of the same stage
//! (`portals: [3, 5]`, `cell: 2`) as links that select them, as do values
//! of the form `{"select": FAMILY, "id": N, "label": TEXT}` (a NavMesh
//! node's links; see `navscope_core::describe`). A record of one field or
//! a list of one item is shown as what it holds, never folded; an unset
//! id written as `u32::MAX` reads "none".

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

/// True for a number that stands for "unset" in a record (`u32::MAX`,
/// `u64::MAX`), never a quantity a person should read.
pub fn sentinel(n: &serde_json::Number) -> bool {
    n.as_u64()
        .is_some_and(|x| x == u64::from(u32::MAX) || x == u64::MAX)
}

/// A link value (`{"select": FAMILY, "id": N, "label": TEXT}`): the
/// family, the id and the text to show.
pub fn select_link(v: &Value) -> Option<(String, u32, String)> {
    let o = v.as_object()?;
    let family = o.get("select")?.as_str()?.to_string();
    let id = u32::try_from(o.get("id")?.as_u64()?).ok()?;
    let label = o
        .get("label")
        .and_then(Value::as_str)
        .map_or_else(|| format!("{family} #{id}"), str::to_string);
    Some((family, id, label))
}

/// What a value holds once a record of one field or a list of one item
/// is opened: a fold around a single field says nothing.
pub fn unwrap_single(v: &Value) -> &Value {
    match v {
        Value::Array(a) if a.len() == 1 => unwrap_single(&a[0]),
        Value::Object(o) if o.len() == 1 && select_link(v).is_none() => {
            o.values().next().map_or(v, unwrap_single)
        }
        other => other,
    }
}

/// A short text for a value that fits on one row, if it does.
pub fn inline(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("—".into()),
        Value::Bool(b) => Some(if *b { "yes" } else { "no" }.into()),
        Value::Number(n) if sentinel(n) => Some("none".into()),
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

/// What a drawn table shows and what the user did with it.
#[derive(Debug, Default)]
pub struct TableOut {
    /// The link the user clicked: the referenced kind and id.
    pub clicked: Option<(String, u32)>,
    /// Every row as shown, `[label, text]` (nested rows' labels joined
    /// with ` / `); for the state report.
    pub rows: Vec<[String; 2]>,
    /// Where the links are, in order, with the text they show.
    pub links: Vec<(String, egui::Rect)>,
}

/// A link in the table: drawn as a link when `linkable`, else as text.
fn link_cell(
    ui: &mut egui::Ui,
    out: &mut TableOut,
    family: &str,
    id: u32,
    text: &str,
    linkable: bool,
) {
    let r = if linkable {
        ui.link(text).on_hover_text("Select it")
    } else {
        ui.label(text)
    };
    if linkable {
        out.links.push((text.to_string(), r.rect));
    }
    if r.clicked() {
        out.clicked = Some((family.to_string(), id));
    }
}

/// Draws `value` as a table; `linkable(kind)` says whether the stage drew
/// elements of that kind (so ids of it become links). `path` prefixes the
/// labels of nested rows in [`TableOut::rows`].
pub fn table(
    ui: &mut egui::Ui,
    id: &str,
    path: &str,
    value: &Value,
    linkable: &dyn Fn(&str) -> bool,
    out: &mut TableOut,
) {
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
                let v = unwrap_single(v);
                let (label, unit) = label_and_unit(key);
                ui.label(egui::RichText::new(&label).strong());
                let row_label = if path.is_empty() {
                    label.clone()
                } else {
                    format!("{path} / {label}")
                };
                let kind = referenced_kind(key);
                // Link values, alone or a list of them.
                let links: Option<Vec<(String, u32, String)>> = match v {
                    Value::Array(a) if !a.is_empty() => a.iter().map(select_link).collect(),
                    one => select_link(one).map(|l| vec![l]),
                };
                if let Some(links) = links {
                    ui.vertical(|ui| {
                        for (family, i, text) in links.iter().take(64) {
                            link_cell(ui, out, family, *i, text, linkable(family));
                        }
                        if links.len() > 64 {
                            ui.label(format!("… {} more", links.len() - 64));
                        }
                    });
                    let texts: Vec<&str> = links.iter().map(|l| l.2.as_str()).collect();
                    out.rows.push([row_label, texts.join("; ")]);
                    ui.end_row();
                    continue;
                }
                match (ids(v), linkable(&kind)) {
                    (Some(list), true) if !matches!(v, Value::Number(n) if n.is_f64()) => {
                        ui.horizontal_wrapped(|ui| {
                            for i in list.iter().take(64) {
                                link_cell(ui, out, &kind, *i, &format!("{kind} #{i}"), true);
                            }
                            if list.len() > 64 {
                                ui.label(format!("… {} more", list.len() - 64));
                            }
                        });
                        let texts: Vec<String> =
                            list.iter().map(|i| format!("{kind} #{i}")).collect();
                        out.rows.push([row_label, texts.join("; ")]);
                    }
                    _ => match inline(v) {
                        Some(text) => {
                            let text = if unit.is_empty() {
                                text
                            } else {
                                format!("{text} {unit}")
                            };
                            ui.label(&text);
                            out.rows.push([row_label, text]);
                        }
                        None => {
                            let count = match v {
                                Value::Array(a) => format!("{} items", a.len()),
                                Value::Object(o) => format!("{} fields", o.len()),
                                _ => String::new(),
                            };
                            out.rows.push([row_label.clone(), count.clone()]);
                            ui.vertical(|ui| {
                                egui::CollapsingHeader::new(count)
                                    .id_salt(format!("{id}/{key}"))
                                    .show(ui, |ui| {
                                        table(
                                            ui,
                                            &format!("{id}/{key}"),
                                            &row_label,
                                            v,
                                            linkable,
                                            out,
                                        );
                                    });
                            });
                        }
                    },
                }
                ui.end_row();
            }
        });
}

/// Draws the inspector: the selected element's kind, id and stage, and its
/// fields as a table; a click on a related element selects it.
pub fn inspector_panel(ui: &mut egui::Ui, s: &mut UiState) {
    egui::CollapsingHeader::new("Inspector")
        .default_open(true)
        .show(ui, |ui| {
            let Some(sel) = s.selection.0.clone() else {
                s.report.inspector.clear();
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
            let mut out = TableOut::default();
            // A one-item list (an element's single record) reads as the record.
            let value = match value {
                Value::Array(mut a) if a.len() == 1 => a.remove(0),
                v => v,
            };
            egui::ScrollArea::vertical()
                .max_height(280.0)
                .id_salt("inspect")
                .show(ui, |ui| {
                    table(ui, "inspect-table", "", &value, &linkable, &mut out);
                });
            s.report.inspector = std::mem::take(&mut out.rows);
            for (i, (_, rect)) in out.links.iter().enumerate() {
                s.report.widget(
                    &format!("inspector/link/{i}"),
                    bevy::math::Vec2::new(rect.min.x, rect.min.y),
                    bevy::math::Vec2::new(rect.max.x, rect.max.y),
                );
            }
            if let Some((kind, id)) = out.clicked {
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
        assert_eq!(inline(&json!(4294967295u64)).unwrap(), "none");
        assert_eq!(inline(&json!(4294967294u64)).unwrap(), "4294967294");
    }

    #[test]
    fn single_fields_are_not_folded_and_link_values_are_recognised() {
        let one = json!({"shape": {"Polygon": {"outer": [[0, 0, 0]], "holes": []}}});
        // The record of one field opens to what it holds.
        assert_eq!(
            unwrap_single(&one),
            &json!({"outer": [[0, 0, 0]], "holes": []})
        );
        assert_eq!(unwrap_single(&json!([[7]])), &json!(7));
        assert_eq!(
            unwrap_single(&json!({"a": 1, "b": 2})),
            &json!({"a": 1, "b": 2})
        );
        let link = json!({"select": "node", "id": 4, "label": "walk to node #4 · cost 2"});
        assert_eq!(
            select_link(&link),
            Some(("node".into(), 4, "walk to node #4 · cost 2".into()))
        );
        assert_eq!(
            select_link(&json!({"select": "node", "id": 4})),
            Some(("node".into(), 4, "node #4".into()))
        );
        assert_eq!(select_link(&json!({"select": "node", "id": -1})), None);
        assert_eq!(select_link(&json!({"id": 4})), None);
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
