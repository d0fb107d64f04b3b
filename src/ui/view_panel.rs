//! The "View" panel: the height slice, the layer filter and colouring by
//! value (the [`ViewFilter`]), laid out from what is drawn.

use bevy::math::Vec3;
use std::collections::BTreeSet;

use bevy_egui::egui;
use navscope_core::level::{Level, LevelData};

use crate::model::band::HeightBand;
use crate::model::band::ViewFilter;
use crate::model::group::Prepared;
use crate::model::style::ramp_color;

/// A band of a third of the level's height (at least half a metre) from its
/// floor: where a slice starts when first switched on.
pub fn default_band(floor: f32, top: f32) -> HeightBand {
    HeightBand::new(floor, floor + ((top - floor) / 3.0).max(0.5))
}

/// The name the layer filter gives layer `i`.
pub fn layer_name(level: &Level, i: u32) -> String {
    match &level.data {
        LevelData::Layers(l) => match l.layers.get(i as usize) {
            Some(layer) if !layer.name.is_empty() => format!("{i}: {}", layer.name),
            _ => format!("layer {i}"),
        },
        _ => format!("layer {i}"),
    }
}

/// Draws the panel. `edit` holds the slice being dragged: a band is applied
/// (and the stages re-prepared) when a slider is released, not on every
/// pixel of the drag. `bounds` are the level's (the slice's range), cached
/// by the caller. `stages` are the drawn stages' prepared geometry, read
/// through their summaries of kinds and layers.
pub fn view_panel<'a>(
    ui: &mut egui::Ui,
    navmesh: &mut bool,
    filter: &mut ViewFilter,
    edit: &mut Option<HeightBand>,
    level: &Level,
    bounds: (Vec3, Vec3),
    stages: impl Iterator<Item = &'a Prepared> + Clone,
) {
    egui::CollapsingHeader::new("View")
        .default_open(true)
        .show(ui, |ui| {
            ui.checkbox(navmesh, "NavMesh (N)").on_hover_text(
                "Draw the final NavMesh (its polygons by stance, its links) over every stage, \
                 as RecastDemo does.",
            );
            slice_controls(ui, filter, edit, bounds);
            layer_controls(ui, filter, level, stages.clone());
            let valued = stages
                .clone()
                .any(|p| p.kinds.values().any(Option::is_some));
            if valued || !filter.prepare.color_by_value {
                ui.checkbox(&mut filter.prepare.color_by_value, "Colour by value")
                    .on_hover_text(
                        "Colour primitives that carry a value (such as the clearance of a \
                         medial-axis edge) from red (lowest) to blue (highest).",
                    );
            }
        });
}

fn slice_controls(
    ui: &mut egui::Ui,
    filter: &mut ViewFilter,
    edit: &mut Option<HeightBand>,
    (lo, hi): (Vec3, Vec3),
) {
    let (floor, top) = (lo.y, hi.y.max(lo.y + 0.5));
    let mut on = filter.prepare.slice.is_some();
    let toggled = ui
        .checkbox(&mut on, "Height slice")
        .on_hover_text(
            "Show only what lies between two heights, so the voxels and meshes of one \
             floor can be seen without the floors above.",
        )
        .changed();
    if toggled {
        filter.prepare.slice = on.then(|| edit.unwrap_or_else(|| default_band(floor, top)));
    }
    let Some(applied) = filter.prepare.slice else {
        *edit = None;
        return;
    };
    let band = edit.get_or_insert(applied);
    let range = (floor - 1.0)..=(top + 1.0);
    let mut commit = false;
    for (value, label) in [(&mut band.lo, "from"), (&mut band.hi, "to")] {
        let r = ui.add(
            egui::Slider::new(value, range.clone())
                .text(label)
                .suffix(" m")
                .fixed_decimals(2),
        );
        commit |= r.drag_stopped() || (r.changed() && !r.dragged());
    }
    ui.horizontal(|ui| {
        ui.label("band:");
        if ui.button("step down").clicked() {
            *band = band.shifted(-1.0);
            commit = true;
        }
        if ui.button("step up").clicked() {
            *band = band.shifted(1.0);
            commit = true;
        }
    });
    if commit {
        let b = HeightBand::new(band.lo, band.hi);
        *band = b;
        filter.prepare.slice = Some(b);
    }
}

fn layer_controls<'a>(
    ui: &mut egui::Ui,
    filter: &mut ViewFilter,
    level: &Level,
    stages: impl Iterator<Item = &'a Prepared>,
) {
    let mut layers: BTreeSet<u32> = stages.flat_map(|p| p.layers.iter().copied()).collect();
    if let LevelData::Layers(l) = &level.data {
        layers.extend(0..l.layers.len() as u32);
    }
    if layers.is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        ui.label("Layers");
        if ui.small_button("all").clicked() {
            filter.hidden_layers.clear();
        }
        if ui.small_button("none").clicked() {
            filter.hidden_layers.extend(layers.iter().copied());
        }
    });
    for i in layers {
        let mut shown = !filter.hidden_layers.contains(&i);
        if ui.checkbox(&mut shown, layer_name(level, i)).changed() {
            if shown {
                filter.hidden_layers.remove(&i);
            } else {
                filter.hidden_layers.insert(i);
            }
        }
    }
}

/// A small horizontal colour ramp with its two ends, for the legend row of a
/// kind coloured by value.
pub fn ramp_bar(ui: &mut egui::Ui, (lo, hi): (f32, f32)) {
    ui.label(format!("{lo:.2}"));
    let (rect, _) = ui.allocate_exact_size(egui::vec2(60.0, 10.0), egui::Sense::hover());
    let n = 12;
    for i in 0..n {
        let c = ramp_color((i as f32 + 0.5) / n as f32);
        let w = rect.width() / n as f32;
        let r = egui::Rect::from_min_size(
            egui::pos2(rect.left() + w * i as f32, rect.top()),
            egui::vec2(w + 0.5, rect.height()),
        );
        ui.painter().rect_filled(
            r,
            0.0,
            egui::Color32::from_rgb(
                (c[0] * 255.0) as u8,
                (c[1] * 255.0) as u8,
                (c[2] * 255.0) as u8,
            ),
        );
    }
    ui.label(format!("{hi:.2}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_band_starts_at_the_floor() {
        let b = default_band(2.0, 11.0);
        assert_eq!((b.lo, b.hi), (2.0, 5.0));
        let flat = default_band(0.0, 0.1);
        assert!(flat.hi - flat.lo >= 0.5);
    }

    #[test]
    fn layers_are_named_from_the_level() {
        use navscope_core::level::{Layer, LayeredLevel};
        let level = Level {
            source: "x".into(),
            data: LevelData::Layers(LayeredLevel {
                layers: vec![Layer {
                    name: "ground".into(),
                    ..Default::default()
                }],
                connections: vec![],
            }),
        };
        assert_eq!(layer_name(&level, 0), "0: ground");
        assert_eq!(layer_name(&level, 3), "layer 3");
    }
}
