//! The fonts of the panels: egui's own, with its monospace face (Hack) added
//! as the last fallback of the proportional family. egui's proportional
//! faces (Ubuntu Light and two emoji fonts) have no arrows, so the "→" that
//! stage texts and the probe panel print showed as a box; Hack has the
//! arrows and is already part of egui, so no font file is added.

use bevy_egui::egui;

/// egui's font definitions with Hack behind the proportional faces.
pub fn app_fonts() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    let mono = fonts
        .families
        .get(&egui::FontFamily::Monospace)
        .and_then(|f| f.first())
        .cloned();
    if let (Some(mono), Some(prop)) = (
        mono,
        fonts.families.get_mut(&egui::FontFamily::Proportional),
    ) && !prop.contains(&mono)
    {
        prop.push(mono);
    }
    fonts
}

/// Sets [`app_fonts`] on `ctx` once.
pub fn set_once(ctx: &egui::Context, done: &mut bool) {
    if !*done {
        ctx.set_fonts(app_fonts());
        *done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::epaint::text::{Fonts, TextOptions};

    fn shows(defs: egui::FontDefinitions, c: char) -> bool {
        Fonts::new(TextOptions::default(), defs).has_glyph(&egui::FontId::proportional(14.0), c)
    }

    #[test]
    fn the_arrows_the_texts_print_have_a_glyph() {
        // Without the fallback the arrow is missing (what the test guards).
        assert!(!shows(egui::FontDefinitions::default(), '→'));
        for c in ['→', '←', '↑', '↓', '×', '…', '²', '✔', '✖', '⏳', '↺'] {
            assert!(shows(app_fonts(), c), "no glyph for {c:?}");
        }
    }
}
