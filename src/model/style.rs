//! The style table: how every kind of primitive looks (colour, fill, width,
//! dashes, point size), looked up along the kind's chain (`portal/vertex-edge`
//! falls back to `portal`); a kind nobody listed gets a colour derived from
//! its name, so new pipelines draw without touching the app. Also the value
//! ramp and per-element colours.

use crate::model::style_table::{STYLES, Style};
use bevy::prelude::*;
use std::hash::{Hash, Hasher};

/// The style of a kind: its own entry, else its nearest ancestor's, else a
/// colour derived from the kind's name.
pub fn style_for(kind: &str) -> Style {
    let mut k = kind;
    loop {
        if let Some((_, s)) = STYLES.iter().find(|(name, _)| *name == k) {
            return *s;
        }
        match k.rfind('/') {
            Some(i) => k = &k[..i],
            None => break,
        }
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    kind.hash(&mut h);
    let c = Color::hsl((h.finish() % 360) as f32, 0.65, 0.45).to_srgba();
    Style {
        color: [c.red, c.green, c.blue, 1.0],
        fill: Some(0.3),
        width: 2.0,
        dashed: false,
        point: 0.008,
        per_element: false,
    }
}
/// A soft colour for element `id`, distinct from its neighbours' (hues
/// spread by the golden ratio).
pub fn element_color(id: u32, alpha: f32) -> [f32; 4] {
    let hue = (id as f32 * 137.507_77) % 360.0;
    let c = Color::hsl(hue, 0.55, 0.72).to_srgba();
    [c.red, c.green, c.blue, alpha]
}
/// A colour for a value at `t` between 0 (the low end of its kind's range:
/// red, "tight") and 1 (the high end: blue, "roomy"), through orange,
/// yellow and green.
pub fn ramp_color(t: f32) -> [f32; 4] {
    const STOPS: [[f32; 3]; 5] = [
        [0.85, 0.12, 0.10],
        [0.95, 0.55, 0.10],
        [0.85, 0.80, 0.10],
        [0.20, 0.70, 0.25],
        [0.15, 0.40, 0.90],
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f32;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f32;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    [
        a[0] + (b[0] - a[0]) * f,
        a[1] + (b[1] - a[1]) * f,
        a[2] + (b[2] - a[2]) * f,
        1.0,
    ]
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stances_and_link_kinds_have_distinct_colours() {
        let stances = ["stand", "crouch", "prone", "swim", "sidestep"];
        for (i, a) in stances.iter().enumerate() {
            for b in &stances[i + 1..] {
                assert_ne!(
                    style_for(&format!("triangle/{a}")).color,
                    style_for(&format!("triangle/{b}")).color
                );
            }
        }
        let links = [
            "walk",
            "step-up",
            "step-down",
            "jump",
            "crouch",
            "ladder",
            "portal",
            "connection",
            "door",
            "elevator",
            "teleport",
            "swim",
        ];
        for (i, a) in links.iter().enumerate() {
            for b in &links[i + 1..] {
                assert_ne!(
                    style_for(&format!("link/{a}")).color,
                    style_for(&format!("link/{b}")).color,
                    "{a} vs {b}"
                );
            }
        }
        // Golodetz's Figure 1: cyan walk, magenta step up, yellow step down.
        let walk = style_for("link/walk").color;
        assert!(walk[2] > walk[0] && walk[1] > walk[0]);
        let up = style_for("link/step-up").color;
        assert!(up[0] > up[1] && up[2] > up[1]);
        let down = style_for("link/step-down").color;
        assert!(down[0] > down[2] && down[1] > down[2]);
    }

    #[test]
    fn the_difference_colours_are_used_by_nothing_else() {
        let dist = |a: [f32; 3], b: [f32; 3]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y) * (x - y))
                .sum::<f32>()
                .sqrt()
        };
        let rgb = |c: [f32; 4]| [c[0], c[1], c[2]];
        let path = crate::probe::draw::PATH_COLOR.map(|c| f32::from(c) / 255.0);
        for kind in ["difference/a-only", "difference/b-only"] {
            let own = rgb(style_for(kind).color);
            let mut others: Vec<(&str, [f32; 3])> = STYLES
                .iter()
                .filter(|(k, _)| !k.starts_with("difference/"))
                .map(|(k, s)| (*k, rgb(s.color)))
                .collect();
            others.push(("the probe's path", path));
            for (k, c) in others {
                assert!(
                    dist(own, c) > 0.3,
                    "{kind} {own:?} is too near {k} {c:?}: {}",
                    dist(own, c)
                );
            }
        }
        let (a, b) = (
            rgb(style_for("difference/a-only").color),
            rgb(style_for("difference/b-only").color),
        );
        assert!(dist(a, b) > 0.8);
    }

    #[test]
    fn styles_fall_back_along_the_kind_chain() {
        assert_eq!(
            style_for("portal/vertex-edge").color,
            style_for("portal/vertex-edge").color
        );
        assert_ne!(
            style_for("portal/vertex-edge").color,
            style_for("portal").color
        );
        assert_eq!(
            style_for("portal/unheard-of").color,
            style_for("portal").color
        );
        assert!(style_for("portal/removed").dashed);
        // Unknown kinds get a stable, name-derived colour.
        assert_eq!(style_for("voxel/border"), style_for("voxel/border"));
        assert_ne!(
            style_for("voxel/border").color,
            style_for("voxel/walkable").color
        );
    }

    #[test]
    fn kinds_drawn_side_by_side_have_distinct_looks() {
        // Drawn in the same stage (layers' paths on and across layers,
        // navgraph's dual edges beside the gallery's).
        for (a, b) in [
            ("path/short", "path/short/across"),
            ("path/backbone", "path/backbone/across"),
            ("edge/dual/narrow", "edge/gallery"),
            ("edge/dual/narrow", "edge/dual"),
            ("walkable/outside", "walkable/stand"),
        ] {
            let (sa, sb) = (style_for(a), style_for(b));
            let apart = sa
                .color
                .iter()
                .zip(sb.color)
                .map(|(x, y)| (x - y).abs())
                .sum::<f32>();
            assert!(apart > 0.3, "{a} and {b} look alike");
        }
    }

    #[test]
    fn cells_get_distinct_colours() {
        let a = element_color(0, 1.0);
        let b = element_color(1, 1.0);
        assert!(a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>() > 0.1);
    }

    #[test]
    fn ramp_is_total_and_continuous() {
        for i in 0..=100 {
            let t = i as f32 / 100.0;
            let (a, b) = (ramp_color(t), ramp_color(t + 0.01));
            assert!(a.iter().chain(&b).all(|c| (0.0..=1.0).contains(c)));
            assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 0.05), "{t}");
        }
        assert_eq!(ramp_color(f32::NAN), ramp_color(0.0));
        assert_eq!(ramp_color(7.0), ramp_color(1.0));
    }
}
