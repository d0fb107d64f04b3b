//! Quake `.map` files (Quake 1/2 brush format, standard or Valve 220
//! texture axes) through the `quake-util` crate.
//!
//! * Each face's plane is given by three points `p0 p1 p2`; its outward
//!   normal is `(p0 - p1) x (p2 - p1)`, as in id's `qbsp`.
//! * Quake is Z up in map units. A point `(x, y, z)` becomes world
//!   `(x, z, -y) * scale` (a proper rotation, so normals stay outward).
//!   `scale` is 1/32 m per unit (a 56-unit Quake player is 1.75 m) unless
//!   the file has a comment `// navscope: scale=0.0254` (any positive
//!   number) on a line of its own.
//! * The first entity is `worldspawn`: its brushes are world brushes
//!   (`entity: None`) and its properties are dropped. Every other entity is
//!   kept with its classname, origin (converted like points) and other
//!   properties in file order; its brushes (e.g. `func_ladder`,
//!   `func_door`) get `entity: Some(index)` into the level's entities.
//!   An entity the game removes in a single-player game at normal skill
//!   (spawnflag 512, `SPAWNFLAG_NOT_MEDIUM`: often a deathmatch-only wall
//!   or trigger) is left out with its brushes, as the game leaves it out.
//! * Texture names become the brushes' materials; texture alignment is not
//!   kept.
//! * Errors in a brush name the brush's index in the level and the line
//!   where it starts.

use std::io::Cursor;

use glam::DVec3;
use navscope_core::geom::Aabb;
use navscope_core::geom::Plane;
use navscope_core::level::{Brush, BrushLevel, Entity, SkippedBrush};

use super::check_brush;
use super::semantics::{FaceInfo, Rules, classify, removed_walls};
use navscope_core::num::short;

use crate::bounds::{MAX_COORD, beyond};
use crate::budget::Budget;
use crate::error::Fault;

/// Map units to metres unless the file says otherwise.
pub const DEFAULT_SCALE: f64 = 1.0 / 32.0;

/// The `// navscope: scale=...` setting, if present.
fn scale_comment(text: &str) -> Result<f64, Fault> {
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim().strip_prefix("//") else {
            continue;
        };
        let Some(value) = rest
            .trim()
            .strip_prefix("navscope:")
            .and_then(|r| r.trim().strip_prefix("scale="))
        else {
            continue;
        };
        return match value.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
            _ => Err(Fault::syntax(
                format!("line {}", i + 1),
                format!("scale \"{}\" is not a positive number", value.trim()),
            )),
        };
    }
    Ok(DEFAULT_SCALE)
}

/// Quake's spawnflag: the entity is removed at normal skill
/// (`SPAWNFLAG_NOT_MEDIUM`).
const NOT_IN_NORMAL_SKILL: u32 = 512;

/// True for an entity the game removes when a single-player game at normal
/// skill spawns it (its spawnflags have [`NOT_IN_NORMAL_SKILL`]), such as
/// the walls and triggers a map keeps for deathmatch only.
fn absent_in_play(e: &Entity) -> bool {
    e.number("spawnflags")
        .is_some_and(|f| f >= 0.0 && (f as u32) & NOT_IN_NORMAL_SKILL != 0)
}

/// Line where each brush starts, in file order, found by following brace
/// depth outside quotes and comments (depth 2 opens a brush).
fn brush_lines(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut depth, mut line, mut in_str) = (0usize, 1usize, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                line += 1;
                in_str = false;
            }
            '"' => in_str = !in_str,
            '/' if !in_str && chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '{' if !in_str => {
                depth += 1;
                if depth == 2 {
                    out.push(line);
                }
            }
            '}' if !in_str => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    out
}

/// Quake point to world point.
fn convert(p: [f64; 3], scale: f64) -> DVec3 {
    DVec3::new(p[0], p[2], -p[1]) * scale
}

/// A box around the points that define a brush's planes, when finite.
fn point_bounds(b: &quake_util::qmap::Brush, scale: f64) -> Option<Aabb> {
    let pts: Vec<DVec3> = b
        .iter()
        .flat_map(|s| s.half_space.map(|p| convert(p, scale)))
        .collect();
    (!pts.is_empty() && pts.iter().all(|p| p.is_finite())).then(|| Aabb::from_points(pts))
}

/// One brush in world space with its contents (entity not set); the
/// problem as text when it cannot be used.
fn read_brush(
    b: &quake_util::qmap::Brush,
    scale: f64,
    class: Option<&str>,
    quake2: bool,
    rules: &Rules,
) -> Result<Brush, String> {
    let mut planes = Vec::with_capacity(b.len());
    let mut materials = Vec::with_capacity(b.len());
    for (fi, s) in b.iter().enumerate() {
        let [p0, p1, p2] = s.half_space.map(|p| convert(p, scale));
        if !(p0.is_finite() && p1.is_finite() && p2.is_finite()) {
            return Err(format!("face {fi} has a number that is not finite"));
        }
        if let Some(problem) = beyond("coordinate", [p0, p1, p2].iter().flat_map(|p| p.to_array()))
        {
            return Err(format!(
                "face {fi}: {problem} (map units times the scale {})",
                short(scale)
            ));
        }
        let plane = Plane::from_normal_point((p0 - p1).cross(p2 - p1), p1)
            .filter(|p| p.normal.is_finite() && p.d.is_finite())
            .ok_or_else(|| format!("face {fi}: its three points are collinear"))?;
        planes.push(plane);
        materials.push(s.texture.to_string_lossy().into_owned());
    }
    let faces: Vec<FaceInfo> = b
        .iter()
        .zip(&materials)
        .map(|(s, m)| FaceInfo {
            texture: m,
            content_flags: s.q2ext.content_flags,
            surface_flags: s.q2ext.surface_flags,
        })
        .collect();
    let contents = classify(class, &faces, quake2, rules);
    let brush = Brush {
        planes,
        materials,
        entity: None,
        contents,
    };
    check_brush(&brush)?;
    Ok(brush)
}

/// Parses a `.map` file with the default rules.
#[cfg(test)]
fn parse(text: &str, budget: &Budget) -> Result<BrushLevel, Fault> {
    parse_with(text, budget, &Rules::default())
}

/// A scale set in the file that puts brushes beyond the coordinate bound
/// is the file's problem, not each brush's: the whole map is refused,
/// naming the scale line, the first brush's farthest point and the bound.
fn check_scale(text: &str, map: &quake_util::qmap::QuakeMap, scale: f64) -> Result<(), Fault> {
    if scale == DEFAULT_SCALE {
        return Ok(());
    }
    let far = map
        .entities
        .iter()
        .flat_map(|e| e.brushes.iter())
        .flat_map(|b| b.iter().flat_map(|s| s.half_space))
        .flatten()
        .map(|v| v * scale)
        .find(|v| v.is_finite() && v.abs() > MAX_COORD);
    let Some(far) = far else {
        return Ok(());
    };
    let line = text
        .lines()
        .position(|l| l.contains("scale="))
        .map_or(String::new(), |i| format!("line {}", i + 1));
    Err(Fault::geometry(
        line,
        format!(
            "scale {} puts the map at coordinates like {} m, beyond the largest allowed, ±{} m",
            short(scale),
            short(far),
            short(MAX_COORD)
        ),
    ))
}

/// Parses a `.map` file; brushes are classified by `rules` and the
/// defaults (see [`super::semantics`]). A brush that cannot be read is left
/// out and listed in [`BrushLevel::skipped`]; the rest of the level loads.
pub(crate) fn parse_with(text: &str, budget: &Budget, rules: &Rules) -> Result<BrushLevel, Fault> {
    let scale = scale_comment(text)?;
    let map = quake_util::qmap::parse(&mut Cursor::new(text.as_bytes())).map_err(|e| match e {
        quake_util::TextParseError::Lexer(l) | quake_util::TextParseError::Parser(l) => {
            Fault::syntax(
                l.line_number
                    .map_or_else(|| "end of file".to_string(), |n| format!("line {n}")),
                l.message,
            )
        }
        quake_util::TextParseError::Io(e) => Fault::syntax("", e.to_string()),
    })?;
    let total: usize = map.entities.iter().map(|e| e.brushes.len()).sum();
    Budget::check("", "brushes", total as u64, budget.max_brushes)?;
    check_scale(text, &map, scale)?;
    let lines = brush_lines(text);
    let line_of = |k: usize| {
        if lines.len() == total {
            format!("brush {k} (line {})", lines[k])
        } else {
            format!("brush {k}")
        }
    };
    let quake2 = map
        .entities
        .iter()
        .any(|e| e.brushes.iter().flatten().any(|s| !s.q2ext.is_zeroed()));
    let mut brushes = Vec::with_capacity(total);
    let mut skipped = Vec::new();
    let mut total_seen = 0;
    let mut entities = Vec::new();
    for (ei, ent) in map.entities.iter().enumerate() {
        let owner = if ei == 0 {
            None
        } else {
            let mut e = Entity::default();
            for (k, v) in &ent.edict {
                let (k, v) = (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                );
                match k.as_str() {
                    "classname" => e.classname = v,
                    "origin" => {
                        let nums: Vec<f64> = v
                            .split_whitespace()
                            .filter_map(|t| t.parse().ok())
                            .collect();
                        match nums[..] {
                            [x, y, z] if x.is_finite() && y.is_finite() && z.is_finite() => {
                                let o = convert([x, y, z], scale);
                                if let Some(problem) = beyond("coordinate", o.to_array()) {
                                    return Err(Fault::geometry(
                                        format!("entity {ei}"),
                                        format!(
                                            "origin: {problem} (map units times the scale {})",
                                            short(scale)
                                        ),
                                    ));
                                }
                                e.origin = Some(o)
                            }
                            _ => {
                                return Err(Fault::syntax(
                                    format!("entity {ei}"),
                                    format!("origin \"{v}\" is not three numbers"),
                                ));
                            }
                        }
                    }
                    _ => e.properties.push((k, v)),
                }
            }
            if absent_in_play(&e) {
                total_seen += ent.brushes.len();
                continue;
            }
            entities.push(e);
            Some(entities.len() - 1)
        };
        let class = (ei != 0).then(|| entities[entities.len() - 1].classname.clone());
        for b in &ent.brushes {
            let k = total_seen;
            total_seen += 1;
            match read_brush(b, scale, class.as_deref(), quake2, rules) {
                Ok(mut brush) => {
                    brush.entity = owner;
                    brushes.push(brush);
                }
                Err(problem) => skipped.push(SkippedBrush {
                    element: line_of(k),
                    problem,
                    bounds: point_bounds(b, scale),
                }),
            }
        }
    }
    let mut level = BrushLevel {
        brushes,
        entities,
        skipped,
        unit: scale,
    };
    removed_walls(&mut level, rules);
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::level::Contents;

    /// TrenchBroom's default 128-unit cube (standard format), and the same
    /// as a Valve 220 func_ladder, plus a player start.
    const MAP: &str = r#"// Game: Quake
// Format: Standard
// navscope: scale=0.03125
{
"classname" "worldspawn"
"wad" "quake.wad"
{
( -64 -64 -16 ) ( -64 -63 -16 ) ( -64 -64 -15 ) ground1_6 0 0 0 1 1
( -64 -64 -16 ) ( -64 -64 -15 ) ( -63 -64 -16 ) ground1_6 0 0 0 1 1
( -64 -64 -16 ) ( -63 -64 -16 ) ( -64 -63 -16 ) ground1_6 0 0 0 1 1
( 64 64 16 ) ( 64 65 16 ) ( 65 64 16 ) ground1_6 0 0 0 1 1
( 64 64 16 ) ( 65 64 16 ) ( 64 64 17 ) ground1_6 0 0 0 1 1
( 64 64 16 ) ( 64 64 17 ) ( 64 65 16 ) ground1_6 0 0 0 1 1
}
}
{
"classname" "func_ladder"
{
( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) wood [ 0 -1 0 0 ] [ 0 0 -1 0 ] 0 1 1
( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) wood [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1
( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) wood [ -1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1
( 32 8 64 ) ( 32 9 64 ) ( 33 8 64 ) wood [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1
( 32 8 64 ) ( 33 8 64 ) ( 32 8 65 ) wood [ -1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1
( 32 8 64 ) ( 32 8 65 ) ( 32 9 64 ) wood [ 0 1 0 0 ] [ 0 0 -1 0 ] 0 1 1
}
}
{
"classname" "info_player_start"
"origin" "32 -64 24"
"angle" "90"
}
"#;

    #[test]
    fn cube_ladder_and_player_start() {
        let l = parse(MAP, &Budget::default()).unwrap();
        assert_eq!(l.brushes.len(), 2);
        assert_eq!(l.brushes[0].entity, None);
        assert_eq!(l.brushes[1].entity, Some(0));
        assert_eq!(l.entities[0].classname, "func_ladder");
        assert_eq!(l.entities[1].classname, "info_player_start");
        // (32, -64, 24) Quake -> (32, 24, 64) / 32 m.
        assert_eq!(l.entities[1].origin, Some(DVec3::new(1.0, 0.75, 2.0)));
        assert_eq!(
            l.entities[1].properties,
            vec![("angle".to_string(), "90".to_string())]
        );
        // The cube's -X face stays -X; its bottom (-Z in Quake) becomes -Y.
        assert!((l.brushes[0].planes[0].normal - -DVec3::X).length() < 1e-12);
        assert!((l.brushes[0].planes[0].d - 2.0).abs() < 1e-12);
        assert!((l.brushes[0].planes[2].normal - -DVec3::Y).length() < 1e-12);
        assert!((l.brushes[0].planes[2].d - 0.5).abs() < 1e-12);
        assert_eq!(l.brushes[1].materials[0], "wood");
    }

    #[test]
    fn entities_absent_at_normal_skill_are_left_out_with_their_brushes() {
        let text = MAP.replace(
            "\"classname\" \"func_ladder\"",
            "\"classname\" \"func_wall\"\n\"spawnflags\" \"1792\"",
        );
        let l = parse(&text, &Budget::default()).unwrap();
        assert_eq!(l.brushes.len(), 1, "the deathmatch-only wall is gone");
        assert_eq!(l.entities.len(), 1);
        assert_eq!(l.entities[0].classname, "info_player_start");
        let kept = MAP.replace(
            "\"classname\" \"func_ladder\"",
            "\"classname\" \"func_ladder\"\n\"spawnflags\" \"2048\"",
        );
        let l = parse(&kept, &Budget::default()).unwrap();
        assert_eq!(l.brushes.len(), 2, "not in deathmatch: kept for play");
    }

    #[test]
    fn a_wall_a_trigger_kills_is_a_door_unless_a_sidecar_rules_its_class() {
        let wall = |name: &str| {
            MAP.replace(
                "\"classname\" \"func_ladder\"",
                &format!("\"classname\" \"func_wall\"\n\"targetname\" \"{name}\""),
            )
            .replace(
                "\"classname\" \"info_player_start\"",
                "\"classname\" \"trigger_once\"\n\"killtarget\" \"gate\"",
            )
        };
        let contents = |text: &str, rules: &Rules| {
            let l = parse_with(text, &Budget::default(), rules).unwrap();
            (l.brushes[0].contents, l.brushes[1].contents)
        };
        let none = Rules::default();
        assert_eq!(
            contents(&wall("gate"), &none),
            (Contents::Solid, Contents::Door)
        );
        assert_eq!(
            contents(&wall("other"), &none),
            (Contents::Solid, Contents::Solid),
            "a wall no one kills"
        );
        let ruled = Rules::parse(r#"BrushRules(classes: [("func_w*", solid)])"#).unwrap();
        assert_eq!(contents(&wall("gate"), &ruled).1, Contents::Solid);
        let clip = wall("gate").replace(" wood ", " clip ");
        assert_eq!(contents(&clip, &none).1, Contents::Door, "a clip wall too");
    }

    #[test]
    fn a_scale_that_puts_the_map_out_of_range_is_refused() {
        let text = MAP.replace("scale=0.03125", "scale=1e300");
        let e = parse(&text, &Budget::default()).unwrap_err();
        assert_eq!(e.element, "line 3");
        assert_eq!(
            e.problem,
            "scale 1.0e300 puts the map at coordinates like -6.4e301 m, beyond the largest allowed, ±100000 m"
        );
    }

    #[test]
    fn scale_comment_and_default() {
        assert_eq!(scale_comment("{\n}").unwrap(), DEFAULT_SCALE);
        assert_eq!(
            scale_comment("// navscope: scale=0.0254\n").unwrap(),
            0.0254
        );
        let e = scale_comment("\n// navscope: scale=-2\n").unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("line 2", "scale \"-2\" is not a positive number")
        );
    }

    /// The brushes a parse skipped, as (element, problem), and how many
    /// it kept.
    fn skipped(text: &str) -> (Vec<(String, String)>, usize) {
        let l = parse(text, &Budget::default()).unwrap();
        (
            l.skipped
                .into_iter()
                .map(|s| (s.element, s.problem))
                .collect(),
            l.brushes.len(),
        )
    }

    #[test]
    fn bad_brushes_are_skipped_naming_index_and_line() {
        // Flip the cube's top face: the brush is open; the ladder stays.
        let bad = MAP.replace(
            "( 64 64 16 ) ( 64 65 16 ) ( 65 64 16 )",
            "( 64 64 16 ) ( 65 64 16 ) ( 64 65 16 )",
        );
        let (s, kept) = skipped(&bad);
        assert_eq!((s.len(), kept), (1, 1));
        assert_eq!(s[0].0, "brush 0 (line 7)");
        assert!(s[0].1.starts_with("is not closed"), "{s:?}");
        let bad = MAP.replace(
            "( 32 8 64 ) ( 32 9 64 ) ( 33 8 64 )",
            "( 32 8 64 ) ( 32 9 64 ) ( 32 10 64 )",
        );
        let (s, kept) = skipped(&bad);
        assert_eq!(kept, 1);
        assert_eq!(
            s,
            vec![(
                "brush 1 (line 18)".to_string(),
                "face 3: its three points are collinear".to_string()
            )]
        );
        let l = parse(&bad, &Budget::default()).unwrap();
        let b = l.skipped[0].bounds.unwrap();
        assert!(
            b.min.x >= 0.0 && b.max.y <= 2.1,
            "where the ladder was: {b:?}"
        );
        let e = parse(
            "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 1",
            &Budget::default(),
        )
        .unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::Syntax);
    }

    #[test]
    fn entity_problems_are_named() {
        let bad = MAP.replace("\"origin\" \"32 -64 24\"", "\"origin\" \"32 -64\"");
        let e = parse(&bad, &Budget::default()).unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("entity 2", "origin \"32 -64\" is not three numbers")
        );
        let (s, kept) = skipped(
            "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) t 0 0 0 1 1\n}\n}\n",
        );
        assert_eq!(kept, 0);
        assert_eq!(
            s,
            vec![(
                "brush 0 (line 3)".to_string(),
                "has 1 planes; a closed solid needs at least 4".to_string()
            )]
        );
    }

    #[test]
    fn brush_lines_skip_comments_and_strings() {
        assert_eq!(
            brush_lines("// {{\n{\n\"k\" \"{\"\n{\n}\n{\n}\n}\n"),
            vec![4, 6]
        );
    }
}
