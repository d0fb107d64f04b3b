//! What each brush of a level is to an agent: the [`Contents`] rules of
//! Quake's compilers, and the `NAME.map.ron` sidecar that overrides them.
//!
//! The rules (sources in `FORMATS.md`) are applied in this order, the first
//! that decides wins:
//!
//! 1. the sidecar's class rules, then its texture rules;
//! 2. the brush's entity class: `func_illusionary` and
//!    `func_detail_illusionary` are empty, `trigger_*` are triggers,
//!    `func_door`, `func_door_secret` and `func_door_rotating` are doors,
//!    `func_plat` is a lift, `func_train` is a train (it spawns at its
//!    first `path_corner`, not where it is drawn:
//!    [`navscope_core::level::BrushLevel::train_stops`]); the world, `func_wall`,
//!    `func_detail*`, `func_group` and every other class go on to the
//!    textures;
//! 3. Quake 2 content and surface flags, where the file has them (the
//!    flavour is detected from the file: any face with non-zero flags makes
//!    the whole file Quake 2): origin, hint or skip everywhere → empty;
//!    lava, slime, water; player clip → clip; monster clip only → empty;
//! 4. texture names (case-insensitive; for `dir/name` the last part):
//!    any face `origin` → empty; any face `clip`, `playerclip` or
//!    `botclip` → clip; any liquid face (`*name`; Quake 3 `water`, `slime`,
//!    `lava` names) → lava if the name contains `lava`, slime if `slime`,
//!    else water; every face one of `skip`, `hint`, `hintskip`, `trigger`,
//!    `nodraw`, `monsterclip` → empty, unless every face is `skip` (an
//!    invisible solid: Quake's qbsp only leaves skip faces undrawn);
//!    otherwise solid (sky is solid, as in Quake).
//!
//! Then, over the whole level ([`removed_walls`]): a solid or clip brush
//! of an entity that another entity's `killtarget` names is a door, unless
//! a sidecar class rule decided it. QuakeC's `SUB_UseTargets` removes every
//! entity of that `targetname` when the killer fires (a trigger the player
//! touches, a button), so the wall is in the player's way only until then:
//! walking through it is a door link that names what removes it
//! ([`super::spots::opener`]); it does not move but vanishes
//! ([`navscope_core::level::Entity::vanishes`]).

use navscope_core::level::{BrushLevel, Contents};
use serde::Deserialize;

use crate::error::Fault;
use crate::text;

/// One face as the rules see it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FaceInfo<'a> {
    /// Texture name as written.
    pub texture: &'a str,
    /// Quake 2 content flags (zero when the file has none).
    pub content_flags: i32,
    /// Quake 2 surface flags (zero when the file has none).
    pub surface_flags: i32,
}

/// Quake 2 content flag: lava.
const Q2_LAVA: i32 = 8;
/// Quake 2 content flag: slime.
const Q2_SLIME: i32 = 16;
/// Quake 2 content flag: water.
const Q2_WATER: i32 = 32;
/// Quake 2 content flag: player clip.
const Q2_PLAYERCLIP: i32 = 0x10000;
/// Quake 2 content flag: monster clip.
const Q2_MONSTERCLIP: i32 = 0x20000;
/// Quake 2 content flag: origin brush.
const Q2_ORIGIN: i32 = 0x0100_0000;
/// Quake 2 surface flags: hint and skip.
const Q2_HINT_SKIP: i32 = 0x100 | 0x200;

/// Overrides read from a `NAME.map.ron` sidecar:
///
/// ```ron
/// BrushRules(
///     classes: [("func_wall", empty), ("func_door", solid)],
///     textures: [("*lava*", water), ("window*", empty)],
/// )
/// ```
///
/// Patterns are case-insensitive with `*` matching any run of characters;
/// the first matching rule wins (classes before textures; a texture rule
/// matches a brush when it matches any of its faces). Contents are
/// `solid`, `clip`, `water`, `slime`, `lava`, `trigger`, `door`, `lift`,
/// `empty`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename = "BrushRules", deny_unknown_fields)]
pub struct Rules {
    /// Rules by entity class name (`worldspawn` for world brushes).
    #[serde(default)]
    pub classes: Vec<(String, Contents)>,
    /// Rules by face texture.
    #[serde(default)]
    pub textures: Vec<(String, Contents)>,
}

impl Rules {
    /// Parses a sidecar's text.
    pub(crate) fn parse(text: &str) -> Result<Self, Fault> {
        text::check_depth(text)?;
        text::ron(text)
    }
}

/// True when `name` matches the glob `pattern` (`*` = any run), ignoring
/// case.
pub fn glob(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.to_ascii_lowercase(), name.to_ascii_lowercase());
    let parts: Vec<&str> = p.split('*').collect();
    if parts.len() == 1 {
        return p == n;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !n.starts_with(first) || n.len() < first.len() + last.len() || !n.ends_with(last) {
        return false;
    }
    let mut rest = &n[first.len()..n.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The last part of a texture path, lower case (`e1u1/CLIP` → `clip`).
fn base_name(texture: &str) -> String {
    texture
        .rsplit('/')
        .next()
        .unwrap_or(texture)
        .to_ascii_lowercase()
}

/// The liquid a texture name means, if any.
fn liquid(texture: &str) -> Option<Contents> {
    let base = base_name(texture);
    let full = texture.to_ascii_lowercase();
    let named = |w: &str| full.contains(w);
    let is_liquid = base.starts_with('*')
        || (full.contains('/') && (named("water") || named("slime") || named("lava")));
    if !is_liquid {
        None
    } else if named("lava") {
        Some(Contents::Lava)
    } else if named("slime") {
        Some(Contents::Slime)
    } else {
        Some(Contents::Water)
    }
}

/// Contents of an entity class, when the class decides.
fn by_class(class: &str) -> Option<Contents> {
    let c = class.to_ascii_lowercase();
    match c.as_str() {
        "func_illusionary" | "func_detail_illusionary" => Some(Contents::Empty),
        "func_train" => Some(Contents::Train),
        "func_door" | "func_door_secret" | "func_door_rotating" => Some(Contents::Door),
        "func_plat" => Some(Contents::Lift),
        _ if c.starts_with("trigger_") => Some(Contents::Trigger),
        _ => None,
    }
}

/// Contents from Quake 2 flags, when they decide.
fn by_flags(faces: &[FaceInfo]) -> Option<Contents> {
    let contents = faces.iter().fold(0, |a, f| a | f.content_flags);
    if contents & Q2_ORIGIN != 0 || faces.iter().all(|f| f.surface_flags & Q2_HINT_SKIP != 0) {
        return Some(Contents::Empty);
    }
    if contents & Q2_LAVA != 0 {
        Some(Contents::Lava)
    } else if contents & Q2_SLIME != 0 {
        Some(Contents::Slime)
    } else if contents & Q2_WATER != 0 {
        Some(Contents::Water)
    } else if contents & Q2_PLAYERCLIP != 0 {
        Some(Contents::Clip)
    } else if contents & Q2_MONSTERCLIP != 0 {
        Some(Contents::Empty)
    } else {
        None
    }
}

/// Contents from texture names.
fn by_textures(faces: &[FaceInfo]) -> Contents {
    let bases: Vec<String> = faces.iter().map(|f| base_name(f.texture)).collect();
    if bases.iter().any(|b| b == "origin") {
        return Contents::Empty;
    }
    if bases
        .iter()
        .any(|b| matches!(b.as_str(), "clip" | "playerclip" | "botclip"))
    {
        return Contents::Clip;
    }
    if let Some(l) = faces.iter().find_map(|f| liquid(f.texture)) {
        return l;
    }
    // A brush of `skip` faces only is an invisible solid: Quake's qbsp
    // gives it solid contents and only leaves its faces undrawn.
    if bases.iter().any(|b| b != "skip")
        && bases.iter().all(|b| {
            matches!(
                b.as_str(),
                "skip" | "hint" | "hintskip" | "trigger" | "nodraw" | "monsterclip"
            )
        })
    {
        return Contents::Empty;
    }
    Contents::Solid
}

/// The contents of one brush of entity class `class` (`None`: the world)
/// with faces `faces`; `quake2` when the file carries Quake 2 flags.
pub fn classify(class: Option<&str>, faces: &[FaceInfo], quake2: bool, rules: &Rules) -> Contents {
    let class_name = class.unwrap_or("worldspawn");
    if let Some((_, c)) = rules.classes.iter().find(|(p, _)| glob(p, class_name)) {
        return *c;
    }
    if let Some((_, c)) = rules
        .textures
        .iter()
        .find(|(p, _)| faces.iter().any(|f| glob(p, f.texture)))
    {
        return *c;
    }
    if let Some(c) = class.and_then(by_class) {
        return c;
    }
    if quake2 && let Some(c) = by_flags(faces) {
        return c;
    }
    by_textures(faces)
}

/// Makes a door of every solid or clip brush whose entity another
/// entity's `killtarget` names (see the module docs), except brushes of a
/// class a sidecar class rule in `rules` decides.
pub fn removed_walls(level: &mut BrushLevel, rules: &Rules) {
    let killers: std::collections::HashSet<&str> = level
        .entities
        .iter()
        .filter_map(|e| e.key("killtarget"))
        .collect();
    let killed: Vec<bool> = level
        .entities
        .iter()
        .map(|e| {
            let ruled = rules.classes.iter().any(|(p, _)| glob(p, &e.classname));
            !ruled && e.key("targetname").is_some_and(|n| killers.contains(n))
        })
        .collect();
    for b in &mut level.brushes {
        if b.contents.blocks() && b.entity.is_some_and(|e| killed.get(e) == Some(&true)) {
            b.contents = Contents::Door;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn faces(textures: &[&'static str]) -> Vec<FaceInfo<'static>> {
        textures
            .iter()
            .map(|t| FaceInfo {
                texture: t,
                ..Default::default()
            })
            .collect()
    }

    fn q1(class: Option<&str>, textures: &[&'static str]) -> Contents {
        classify(class, &faces(textures), false, &Rules::default())
    }

    #[test]
    fn globs() {
        assert!(glob("*lava*", "+0LAVA_fall3"));
        assert!(glob("func_detail*", "func_detail_wall"));
        assert!(!glob("func_detail*", "func_wall"));
        assert!(glob("a*b*c", "aXbYc"));
        assert!(!glob("a*b*c", "acb"));
        assert!(!glob("ab*ba", "aba"), "prefix and suffix may not overlap");
        assert!(glob("clip", "CLIP"));
    }

    #[test]
    fn quake1_classes() {
        assert_eq!(q1(None, &["wall"]), Contents::Solid);
        for c in ["func_wall", "func_detail", "func_detail_wall", "func_group"] {
            assert_eq!(q1(Some(c), &["wall"]), Contents::Solid, "{c}");
        }
        for c in ["func_illusionary", "func_detail_illusionary"] {
            assert_eq!(q1(Some(c), &["wall"]), Contents::Empty, "{c}");
        }
        assert_eq!(q1(Some("func_train"), &["wall"]), Contents::Train);
        assert_eq!(
            q1(Some("trigger_teleport"), &["trigger"]),
            Contents::Trigger
        );
        assert_eq!(q1(Some("func_door"), &["door"]), Contents::Door);
        assert_eq!(q1(Some("func_plat"), &["plat"]), Contents::Lift);
        assert_eq!(q1(Some("func_button"), &["button"]), Contents::Solid);
    }

    #[test]
    fn quake1_textures() {
        assert_eq!(q1(None, &["sky3", "sky3"]), Contents::Solid);
        assert_eq!(q1(None, &["clip", "wall"]), Contents::Clip);
        assert_eq!(q1(None, &["*water2", "wall"]), Contents::Water);
        assert_eq!(q1(None, &["*04water1"]), Contents::Water);
        assert_eq!(q1(None, &["*blood1"]), Contents::Water);
        assert_eq!(q1(None, &["*slime0"]), Contents::Slime);
        assert_eq!(q1(None, &["*lava1"]), Contents::Lava);
        assert_eq!(
            q1(None, &["+0lava_fall3"]),
            Contents::Solid,
            "animated, not liquid"
        );
        assert_eq!(q1(None, &["skip", "hint"]), Contents::Empty);
        assert_eq!(
            q1(None, &["skip", "SKIP"]),
            Contents::Solid,
            "a brush of skip faces only is an invisible solid"
        );
        assert_eq!(
            q1(None, &["skip", "wall"]),
            Contents::Solid,
            "skip faces only hide"
        );
        assert_eq!(
            q1(Some("func_door_rotating"), &["origin", "w"]),
            Contents::Door
        );
        assert_eq!(q1(Some("func_wall"), &["origin", "w"]), Contents::Empty);
        assert_eq!(q1(None, &["common/clip"]), Contents::Clip);
        assert_eq!(q1(None, &["liquids/clear_calm1_water"]), Contents::Water);
    }

    #[test]
    fn quake2_flags() {
        let f = |c, s| FaceInfo {
            texture: "e1u1/floor",
            content_flags: c,
            surface_flags: s,
        };
        let r = Rules::default();
        assert_eq!(
            classify(None, &[f(0, 0), f(0, 0)], true, &r),
            Contents::Solid
        );
        assert_eq!(classify(None, &[f(Q2_WATER, 0)], true, &r), Contents::Water);
        assert_eq!(
            classify(None, &[f(Q2_LAVA | 1, 0)], true, &r),
            Contents::Lava
        );
        assert_eq!(
            classify(None, &[f(Q2_PLAYERCLIP, 0)], true, &r),
            Contents::Clip
        );
        assert_eq!(
            classify(None, &[f(Q2_MONSTERCLIP, 0)], true, &r),
            Contents::Empty
        );
        assert_eq!(
            classify(None, &[f(0, 0x100), f(0, 0x200)], true, &r),
            Contents::Empty
        );
        assert_eq!(
            classify(None, &[f(0, 0x100), f(0, 0)], true, &r),
            Contents::Solid
        );
        // Without the flavour the flags are not read.
        assert_eq!(
            classify(None, &[f(Q2_WATER, 0)], false, &r),
            Contents::Solid
        );
    }

    #[test]
    fn sidecar_rules_override_in_order() {
        let r = Rules::parse(
            r#"BrushRules(classes: [("func_door", solid)], textures: [("*lava*", water), ("window*", empty)])"#,
        )
        .unwrap();
        let c = |class, t: &[&'static str]| classify(class, &faces(t), false, &r);
        assert_eq!(c(Some("func_door"), &["door"]), Contents::Solid);
        assert_eq!(c(None, &["*lava1"]), Contents::Water);
        assert_eq!(c(None, &["wall", "WINDOW01"]), Contents::Empty);
        assert_eq!(c(None, &["*slime"]), Contents::Slime, "no rule: defaults");
        let e = Rules::parse("BrushRules(classes: [(\"x\", wet)])").unwrap_err();
        assert!(e.problem.contains("wet"), "{}", e.problem);
    }
}
