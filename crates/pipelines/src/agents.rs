//! Agent presets: whole agents (size, step, slope, jump, drop) that set
//! the agent parameters of the `cspace` and `voxel` pipelines at once, and
//! the preset a level gets when it is opened ([`for_level`]), which the
//! app and the CLI (`--agent NAME`) both use.
//!
//! The game presets are written in the game's own units and facts, and
//! converted with the level's unit (metres per map unit; Quake maps load at
//! 1/32 m per unit, [`navscope_levels::brushes::QUAKE_DEFAULT_SCALE`]):
//!
//! | preset | hull (w × h) | crouch | step | jump speed | gravity | run |
//! |---|---|---|---|---|---|---|
//! | `quake` | 32 × 56 | none | 18 | 270 | 800 | 320 |
//! | `quake2` | 32 × 56 | 32 × 28 | 18 | 270 | 800 | 300 |
//! | `half-life` | 32 × 72 | 32 × 36 | 18 | 268.3 | 800 | 320 |
//!
//! Quake's player: hull `-16 -16 -24` to `16 16 32` (`VEC_HULL_MIN/MAX`),
//! `STEPSIZE` 18 in the engine's walk move, a jump adds 270 units/s
//! upwards (`PlayerJump` in QuakeC's `client.qc`), `sv_gravity` 800 and
//! `sv_maxspeed` 320; a floor is walkable when its normal's up component
//! is above 0.7 (45.6°). Quake 2's player has the same hull, step, jump and
//! gravity, runs at 300 and ducks to a hull 28 units high (`maxs` 4).
//! Half-Life's player is 72 units tall, 36 ducked, and jumps at
//! √(2 · 800 · 45) ≈ 268.3 units/s (a 45-unit jump).
//!
//! **Jump and drop, derived.** Launched upwards at `v` against gravity `g`
//! the player rises `v² / 2g` (Quake: 270² / 1600 = 45.6 units, 1.42 m at
//! 1/32 m per unit) in `v / g` seconds. Running at `u` it covers `u · t`
//! while in the air for `t`; back at its take-off height `t = 2v / g`
//! (Quake: 0.675 s, 216 units, 6.75 m); landing `d` lower, `t = (v +
//! √(v² + 2gd)) / g`, so a jump reaches further down a drop.
//!
//! **Falls, as Quake plays them.** Quake never stops a fall: QuakeC's
//! `PlayerPostThink` (`client.qc`) keeps the player's vertical speed of
//! the frame before (`jump_flag`) and, on the frame the player is on the
//! ground again, out of water, landing faster than 650 units/s, deals 5
//! damage (`T_Damage (self, world, world, 5)`, the `land2` sound): 5
//! health at any speed beyond, no more from a deeper fall, nothing landing
//! in water. 650 units/s is a fall from rest of `650² / 1600` = 264
//! units (8.25 m at 1/32 m per unit); a jump lands as a fall from the top
//! of its rise ([`navscope_core::jump::Reach::fallen`]). So Quake's
//! preset takes a drop of any depth (`max_drop` at its maximum,
//! [`navscope_core::jump::MAX_DROP_LIMIT`]), one way down as every drop,
//! and a landing that hurts costs [`HEALTH_COST`] metres per health lost
//! on top of the fall's length: 10 m for Quake's 5 (`safe_fall` and
//! `fall_cost`, [`navscope_core::jump::Fall`]). The other game presets
//! keep a deepest drop, the fall the engine's speed cap reaches
//! (`sv_maxvelocity` 2000 units/s: `2000² / 1600` = 2,500 units, 78 m),
//! and no landing cost.
//!
//! **Slime and lava, as Quake plays them.** QuakeC's `WaterMove`
//! (`client.qc`) takes `4 × waterlevel` health a second in slime and `10 ×
//! waterlevel` every 0.2 s in lava; wading (waterlevel 1) that is 4 and 50
//! health a second. Neither stops the player, so Quake's preset walks
//! through both at a cost (`slime_cost` and `lava_cost`, in `cspace` and `voxel`): each
//! metre costs itself plus the health lost crossing it at the run speed,
//! [`HEALTH_COST`] metres a point: 1.8 in slime and 11 in lava at 10 m/s.
//! The other presets keep them out (0). `voxel` leaves liquids other than
//! water out of its mesh, so it walks the floor under them at no cost.
//!
//! The Recast demo's human is RecastDemo's defaults in metres: radius
//! 0.6, height 2.0, climb 0.9, slope 45°, cells 0.3 × 0.2 m.
//!
//! **Overhanging ledges.** Quake's, Quake 2's and Half-Life's players are
//! axis-aligned boxes that stand wherever the bottom of the box rests on
//! some floor under its footprint with the box clear of solids: the box
//! may overhang a ledge by up to half its width (the engines' collision
//! is the brushes grown by the box, as in `cspace`). So the game presets
//! turn `voxel`'s `erode_ledges` off: its walkable area keeps the radius
//! from walls, low ceilings and rises above the step but reaches a ledge's
//! edge, and a sill or ledge narrower than the body keeps its nodes
//! ([`navscope_voxel::overhang`]; the swim pass keeps Recast's rule: a
//! swimmer has no ledge). The Recast demo's human keeps Recast's rule (a
//! cylinder wholly on the floor).
//!
//! **Voxel cells.** A preset sets `voxel`'s cell size to half the agent's
//! radius (Recast's rule of thumb: a third to a half of it), so a Quake
//! map is voxelised at 8-unit cells rather than 3-unit ones, and its cell
//! height to an eighth of the step (Quake: 2.25 units), so an 18-unit
//! stair step stays climbable after rounding.

use navscope_core::Pipeline;
use navscope_core::jump::{FALL_COST, Fall, MAX_DROP_LIMIT, Reach, SAFE_FALL};

/// What a health point lost to a hard landing costs a route, metres of
/// walking (a choice: a tenth of Quake's 100 health is worth 20 m, two
/// seconds of running at 320 units/s, so a route takes a hurting fall
/// rather than a detour longer than that).
pub const HEALTH_COST: f64 = 2.0;
use navscope_core::level::{Level, LevelData};
use navscope_core::params::{ParamValue, ParamValues};

/// A body and how it moves, in metres and seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agent {
    /// Width and depth of the standing box (twice the radius).
    pub width: f64,
    /// Standing height.
    pub height: f64,
    /// Crouching height, when the agent crouches.
    pub crouch_height: Option<f64>,
    /// Highest step walked up.
    pub step: f64,
    /// Steepest walkable floor, degrees.
    pub max_slope_deg: f64,
    /// Launch speed of a jump, upwards, m/s.
    pub jump_speed: f64,
    /// Gravity, m/s².
    pub gravity: f64,
    /// Running speed, m/s.
    pub run_speed: f64,
    /// Deepest drop taken (infinite: any).
    pub max_drop: f64,
    /// What a hard landing costs (none: a zero `hurt_cost`).
    pub fall: Fall,
    /// Cost multiplier of moving through slime (0: never).
    pub slime_cost: f64,
    /// Cost multiplier of moving through lava (0: never).
    pub lava_cost: f64,
}

impl Agent {
    /// The agent's running jump ([`navscope_core::jump::Reach`]), with its
    /// deepest drop and step.
    pub fn reach(&self) -> Reach {
        Reach {
            max_drop: self.max_drop,
            step: self.step,
            ..Reach::of_physics(self.jump_speed, self.gravity, self.run_speed)
        }
    }

    /// Highest rise of a jump, `v² / 2g`.
    pub fn jump_height(&self) -> f64 {
        self.reach().height
    }

    /// Horizontal distance a running jump covers before landing `down`
    /// metres below its take-off height (negative: above), or `None` when
    /// the jump does not rise that high.
    pub fn jump_reach(&self, down: f64) -> Option<f64> {
        self.reach().at(down)
    }

    /// Radius of the agent's cylinder (`voxel`).
    pub fn radius(&self) -> f64 {
        self.width / 2.0
    }
}

/// A game's body in its own units, converted with a level's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
struct GameBody {
    width: f64,
    height: f64,
    crouch_height: Option<f64>,
    step: f64,
    min_floor_normal: f64,
    jump_speed: f64,
    gravity: f64,
    run_speed: f64,
    /// How falls end.
    falls: Falls,
    /// Health lost a second standing in slime and in lava (none: they are
    /// not entered).
    burns: Option<(f64, f64)>,
}

/// How a game body's falls end (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Falls {
    /// Any fall is taken; landing faster than `safe_speed` (units/s)
    /// costs `damage` health.
    Hurt { safe_speed: f64, damage: f64 },
    /// Falls up to the one that reaches this speed (units/s) are taken,
    /// at no cost.
    Capped(f64),
}

impl GameBody {
    /// The cost multiplier of running through a liquid that takes
    /// `per_second` health, at `unit` metres per map unit: each metre
    /// costs itself and the health lost crossing it at the run speed,
    /// [`HEALTH_COST`] metres a point.
    fn liquid_cost(&self, per_second: f64, unit: f64) -> f64 {
        1.0 + per_second / (self.run_speed * unit) * HEALTH_COST
    }

    fn agent(&self, unit: f64) -> Agent {
        Agent {
            width: self.width * unit,
            height: self.height * unit,
            crouch_height: self.crouch_height.map(|h| h * unit),
            step: self.step * unit,
            max_slope_deg: self.min_floor_normal.acos().to_degrees(),
            jump_speed: self.jump_speed * unit,
            gravity: self.gravity * unit,
            run_speed: self.run_speed * unit,
            max_drop: match self.falls {
                Falls::Hurt { .. } => f64::INFINITY,
                Falls::Capped(v) => v * v / (2.0 * self.gravity) * unit,
            },
            slime_cost: self.burns.map_or(0.0, |(s, _)| self.liquid_cost(s, unit)),
            lava_cost: self.burns.map_or(0.0, |(_, l)| self.liquid_cost(l, unit)),
            fall: match self.falls {
                Falls::Hurt { safe_speed, damage } => Fall {
                    safe_height: safe_speed * safe_speed / (2.0 * self.gravity) * unit,
                    hurt_cost: damage * HEALTH_COST,
                },
                Falls::Capped(_) => Fall::NONE,
            },
        }
    }
}

/// What a preset is made from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Body {
    /// A game's player, in map units.
    Game(GameBody),
    /// An agent in metres, with its own voxel cells (size, height).
    Metric(Agent, f64, f64),
}

/// A named agent preset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// The name `--agent` takes.
    pub name: &'static str,
    /// One line for menus.
    pub label: &'static str,
    body: Body,
}

const QUAKE: GameBody = GameBody {
    width: 32.0,
    height: 56.0,
    crouch_height: None,
    step: 18.0,
    min_floor_normal: 0.7,
    jump_speed: 270.0,
    gravity: 800.0,
    run_speed: 320.0,
    falls: Falls::Hurt {
        safe_speed: 650.0,
        damage: 5.0,
    },
    burns: Some((4.0, 50.0)),
};

/// The other game presets' falls: up to the engine's speed cap.
const SPEED_CAP: Falls = Falls::Capped(2000.0);

/// Every preset, in menu order.
pub const PRESETS: [Preset; 4] = [
    Preset {
        name: "quake",
        label: "Quake's player (32 × 56 units, step 18, jump 270 u/s)",
        body: Body::Game(QUAKE),
    },
    Preset {
        name: "quake2",
        label: "Quake 2's player (32 × 56 units, crouch 28, step 18)",
        body: Body::Game(GameBody {
            crouch_height: Some(28.0),
            run_speed: 300.0,
            falls: SPEED_CAP,
            burns: None,
            ..QUAKE
        }),
    },
    Preset {
        name: "half-life",
        label: "Half-Life's player (32 × 72 units, crouch 36, step 18)",
        body: Body::Game(GameBody {
            height: 72.0,
            crouch_height: Some(36.0),
            jump_speed: 268.328,
            falls: SPEED_CAP,
            burns: None,
            ..QUAKE
        }),
    },
    Preset {
        name: "recast-human",
        label: "The Recast demo's human (radius 0.6 m, height 2 m, climb 0.9 m)",
        body: Body::Metric(
            Agent {
                width: 1.2,
                height: 2.0,
                crouch_height: None,
                step: 0.9,
                max_slope_deg: 45.0,
                jump_speed: 0.0,
                gravity: 9.81,
                run_speed: 3.5,
                max_drop: 2.0,
                fall: Fall::NONE,
                slime_cost: 0.0,
                lava_cost: 0.0,
            },
            0.3,
            0.2,
        ),
    },
];

/// The preset named `name`, or the names there are.
pub fn by_name(name: &str) -> Result<&'static Preset, String> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        format!("unknown agent '{name}' (known: {})", names.join(", "))
    })
}

/// The preset a level is opened with: Quake's player for a brush level
/// read from a Quake `.map` file; none (the pipelines' own defaults) for
/// every other level.
pub fn for_level(level: &Level) -> Option<&'static Preset> {
    let is_map = std::path::Path::new(&level.source)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("map"));
    (is_map && matches!(level.data, LevelData::Brushes(_))).then_some(&PRESETS[0])
}

/// Metres per map unit of a level (the Quake default for levels that
/// have none).
fn unit_of(level: &Level) -> f64 {
    match &level.data {
        LevelData::Brushes(b) if b.unit > 0.0 => b.unit,
        _ => navscope_levels::brushes::QUAKE_DEFAULT_SCALE,
    }
}

impl Preset {
    /// The agent for a level whose map unit is `unit` metres.
    pub fn agent(&self, unit: f64) -> Agent {
        match self.body {
            Body::Game(g) => g.agent(unit),
            Body::Metric(a, _, _) => a,
        }
    }

    /// Whether the body may overhang a ledge (see the module docs): a
    /// game's box hull does, the Recast demo's cylinder does not.
    fn overhangs(&self) -> bool {
        matches!(self.body, Body::Game(_))
    }

    /// Voxel cell size and height for a level of `unit` (see the module
    /// docs).
    fn cells(&self, unit: f64) -> (f64, f64) {
        match self.body {
            Body::Game(_) => {
                let a = self.agent(unit);
                (a.radius() / 2.0, a.step / 8.0)
            }
            Body::Metric(_, size, height) => (size, height),
        }
    }

    /// The parameter settings the preset makes for `pipeline_id` on
    /// `level`; empty for a pipeline that has no agent.
    pub fn settings(&self, pipeline_id: &str, level: &Level) -> Vec<(String, ParamValue)> {
        let unit = unit_of(level);
        let a = self.agent(unit);
        let f = |n: &str, v: f64| (n.to_string(), ParamValue::Float(v));
        match pipeline_id {
            "cspace" => {
                use navscope_cspace::param as p;
                let mut v = vec![
                    f(p::AGENT_WIDTH, a.width),
                    f(p::AGENT_DEPTH, a.width),
                    f(p::STAND_HEIGHT, a.height),
                    f(p::STEP_HEIGHT, a.step),
                    f(p::MAX_SLOPE, a.max_slope_deg),
                    f(p::JUMP_HEIGHT, a.jump_height()),
                    f(p::MAX_DROP, a.max_drop.min(MAX_DROP_LIMIT)),
                    f(SAFE_FALL, a.fall.safe_height),
                    f(FALL_COST, a.fall.hurt_cost),
                    f(p::SLIME_COST, a.slime_cost),
                    f(p::LAVA_COST, a.lava_cost),
                    f(p::JUMP_REACH, a.jump_reach(0.0).unwrap_or(0.0)),
                    (
                        p::CROUCH_MESH.to_string(),
                        ParamValue::Bool(a.crouch_height.is_some()),
                    ),
                ];
                if let Some(c) = a.crouch_height {
                    v.push(f(p::CROUCH_HEIGHT, c));
                }
                v
            }
            "voxel" => {
                let (size, height) = self.cells(unit);
                let mut v = vec![
                    f("cell_size", size),
                    f("cell_height", height),
                    f(
                        navscope_voxel::settings::MAX_DROP,
                        a.max_drop.min(MAX_DROP_LIMIT),
                    ),
                    f(SAFE_FALL, a.fall.safe_height),
                    f(FALL_COST, a.fall.hurt_cost),
                    f(navscope_voxel::hazards::SLIME_COST, a.slime_cost),
                    f(navscope_voxel::hazards::LAVA_COST, a.lava_cost),
                    f(navscope_voxel::settings::JUMP_HEIGHT, a.jump_height()),
                    f(
                        navscope_voxel::settings::JUMP_REACH,
                        a.jump_reach(0.0).unwrap_or(0.0),
                    ),
                ];
                let passes = if a.crouch_height.is_some() {
                    "stand,crouch,swim"
                } else {
                    "stand,swim"
                };
                v.push(("passes".into(), ParamValue::Text(passes.into())));
                v.push((
                    navscope_voxel::settings::ERODE_LEDGES.into(),
                    ParamValue::Bool(!self.overhangs()),
                ));
                for (stance, h) in [
                    ("stand", Some(a.height)),
                    ("crouch", a.crouch_height),
                    // A swimming player keeps his hull (Quake's, Quake 2's
                    // and Half-Life's move the same box in water): the swim
                    // pass needs the standing height's room.
                    ("swim", Some(a.height)),
                ] {
                    let Some(h) = h else { continue };
                    v.push(f(&format!("{stance}.radius"), a.radius()));
                    v.push(f(&format!("{stance}.height"), h));
                    if stance != "swim" {
                        v.push(f(&format!("{stance}.max_step"), a.step));
                        v.push(f(&format!("{stance}.max_slope"), a.max_slope_deg));
                    }
                }
                v
            }
            _ => Vec::new(),
        }
    }

    /// Applies [`Preset::settings`] to `values`; a setting the pipeline
    /// refuses is the error, naming the preset and the parameter.
    pub fn apply(
        &self,
        pipeline: &Pipeline,
        level: &Level,
        values: &mut ParamValues,
    ) -> Result<(), String> {
        for (name, v) in self.settings(pipeline.id, level) {
            values
                .set(&pipeline.params, &name, v)
                .map_err(|e| format!("agent '{}': {name}: {e}", self.name))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: f64 = 1.0 / 32.0;

    #[test]
    fn quakes_player_jumps_as_the_physics_says() {
        let a = by_name("quake").unwrap().agent(UNIT);
        assert!((a.width - 1.0).abs() < 1e-12 && (a.height - 1.75).abs() < 1e-12);
        assert!((a.step - 18.0 / 32.0).abs() < 1e-12);
        assert!((a.jump_height() - 45.5625 / 32.0).abs() < 1e-9);
        assert!((a.jump_reach(0.0).unwrap() - 216.0 / 32.0).abs() < 1e-9);
        assert!(a.jump_reach(1.0).unwrap() > a.jump_reach(0.0).unwrap());
        assert_eq!(a.jump_reach(-2.0), None, "2 m up is out of reach");
        assert_eq!(a.max_drop, f64::INFINITY, "no fall is refused");
        assert!((a.fall.safe_height - 650.0 * 650.0 / 1600.0 / 32.0).abs() < 1e-9);
        assert_eq!(a.fall.hurt_cost, 5.0 * HEALTH_COST);
        let q2 = by_name("quake2").unwrap().agent(UNIT);
        assert!(
            (q2.max_drop - 2500.0 / 32.0).abs() < 1e-9,
            "others keep theirs"
        );
        assert_eq!(q2.fall, Fall::NONE);
        assert!((a.slime_cost - 1.8).abs() < 1e-9, "4 health/s at 10 m/s");
        assert!((a.lava_cost - 11.0).abs() < 1e-9, "50 health/s at 10 m/s");
        assert_eq!(q2.lava_cost, 0.0, "others keep out");
        assert!((a.max_slope_deg - 45.57).abs() < 0.01);
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let e = by_name("doom").unwrap_err();
        assert!(e.contains("quake2") && e.contains("recast-human"), "{e}");
    }

    #[test]
    fn no_gravity_means_no_jump() {
        let mut a = by_name("quake").unwrap().agent(UNIT);
        a.gravity = 0.0;
        assert_eq!(a.jump_height(), 0.0);
        assert_eq!(a.jump_reach(0.0), None);
    }

    #[test]
    fn every_preset_is_accepted_by_both_pipelines() {
        let level = navscope_levels::default_level();
        for preset in &PRESETS {
            for id in ["cspace", "voxel"] {
                let p = crate::by_id(id).unwrap();
                let mut v = ParamValues::defaults(&p.params);
                preset
                    .apply(&p, &level, &mut v)
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                assert!(!preset.settings(id, &level).is_empty());
            }
        }
        let quake = by_name("quake").unwrap();
        let p = crate::by_id("voxel").unwrap();
        let mut v = ParamValues::defaults(&p.params);
        quake.apply(&p, &level, &mut v).unwrap();
        assert!(
            (v.float("cell_size") - 0.25).abs() < 1e-12,
            "half the radius"
        );
        assert_eq!(
            v.text("passes"),
            "stand,swim",
            "Quake's player cannot crouch"
        );
        assert_eq!(
            v.float("swim.height"),
            v.float("stand.height"),
            "Quake's player swims in his standing hull"
        );
        assert!(quake.settings("convex", &level).is_empty());
        // The game presets' boxes overhang ledges; the Recast demo's
        // cylinder, like the pipeline's default, does not.
        for (name, erodes) in [
            ("quake", false),
            ("quake2", false),
            ("half-life", false),
            ("recast-human", true),
        ] {
            let mut v = ParamValues::defaults(&p.params);
            by_name(name).unwrap().apply(&p, &level, &mut v).unwrap();
            assert_eq!(
                v.bool(navscope_voxel::settings::ERODE_LEDGES),
                erodes,
                "{name}"
            );
        }
        assert!(ParamValues::defaults(&p.params).bool(navscope_voxel::settings::ERODE_LEDGES));
    }

    #[test]
    fn a_map_opens_with_quakes_player_and_other_levels_with_none() {
        let text = "{\n\"classname\" \"worldspawn\"\n}\n";
        let map = navscope_levels::load_bytes("x.MAP", text.as_bytes()).unwrap();
        assert_eq!(for_level(&map).map(|p| p.name), Some("quake"));
        assert_eq!(for_level(&navscope_levels::default_level()), None);
    }
}
