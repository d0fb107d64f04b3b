//! How far and how high a running jump goes: the one jump model the
//! `cspace` gap jumps, the `voxel` gap jumps and the agent presets share.
//!
//! A jump rising `h` leaves the floor at `v = √(2gh)`; it is in the air
//! `(v + √(v² + 2gd)) / g` before it lands `d` lower (negative `d`:
//! higher), and at the run speed `u` it covers `u` times that. With the
//! reach of a jump landing at its take-off height, `level = 2uv / g`, the
//! distance is `level · (√h + √(h + d)) / (2√h)`, whatever the gravity:
//! a jump reaches further down a drop and less far up a ledge, and not at
//! all above its rise.
//!
//! **Landing.** How hard a move lands is the height a body falling from
//! rest would have fallen to land as fast ([`Reach::fallen`]): walking off
//! a ledge at the run speed carries the body `u · √(2d / g)` out while it
//! falls `d` (in the reach's terms `level · √d / (2√h)`), so a landing
//! that near falls `d`; one further out needs the jump, which falls from
//! the top of its rise, `d + h`. A game that hurts hard landings gives
//! the fall height a landing may have without harm and what a hurting
//! landing costs ([`Fall`]); a fall is never refused for its depth.

use crate::params::{ParamSpec, ParamValues};

/// The parameter (both pipelines): the highest rise of a jump, metres
/// ([`Reach::height`]).
pub const JUMP_HEIGHT: &str = "jump_height";
/// The parameter (both pipelines): the horizontal reach of a running jump
/// landing at its take-off height, metres, 0 for none ([`Reach::level`]).
pub const JUMP_REACH: &str = "jump_reach";
/// The parameter (both pipelines): the deepest fall from rest that lands
/// unhurt, metres ([`Fall::safe_height`]).
pub const SAFE_FALL: &str = "safe_fall";
/// The parameter (both pipelines): the cost of a hurting landing, metres
/// ([`Fall::hurt_cost`]).
pub const FALL_COST: &str = "fall_cost";
/// The largest `max_drop` either pipeline takes, metres: deeper than any
/// Quake map (±4,096 units, 256 m at 1/32 m per unit), so at it no drop a
/// level holds is refused. Each pipeline probes no further than its own
/// floors' height span, so the limit costs nothing.
pub const MAX_DROP_LIMIT: f64 = 1000.0;

/// The parameters of [`Fall`], shared by the `cspace` and `voxel`
/// pipelines (both off by default; the game presets set them).
pub fn fall_param_specs() -> [ParamSpec; 2] {
    [
        ParamSpec::float(
            SAFE_FALL,
            "Unhurt fall height",
            "m",
            0.0,
            0.0,
            MAX_DROP_LIMIT,
            0.05,
            "Deepest fall from rest that lands unhurt; a drop or jump landing harder (as fast as a deeper fall; a jump falls from the top of its rise) costs the hurt landing cost on top of its length. Quake's player: 650 units/s, 264 units (8.25 m).",
        ),
        ParamSpec::float(
            FALL_COST,
            "Hurt landing cost",
            "m",
            0.0,
            0.0,
            1000.0,
            0.5,
            "Cost added to a link whose landing hurts (see the unhurt fall height), in metres of walking; 0 (the default): landings cost only their length.",
        ),
    ]
}

/// A running jump: its level reach, its rise, the deepest drop taken and
/// the step (a floor within a step beyond an edge makes no ledge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Horizontal distance of a jump that lands at its take-off height.
    pub level: f64,
    /// Highest rise of a jump.
    pub height: f64,
    /// Deepest drop.
    pub max_drop: f64,
    /// Step height.
    pub step: f64,
}

impl Reach {
    /// The reach of the parameters [`JUMP_REACH`] and [`JUMP_HEIGHT`], for
    /// a body that drops at most `max_drop` and steps `step`.
    pub fn from_params(params: &ParamValues, max_drop: f64, step: f64) -> Reach {
        Reach {
            level: params.float(JUMP_REACH),
            height: params.float(JUMP_HEIGHT),
            max_drop,
            step,
        }
    }

    /// The reach of a body launched upwards at `jump_speed` against
    /// `gravity` while running at `run_speed` (metres, seconds); no jump
    /// (both zero) without gravity.
    pub fn of_physics(jump_speed: f64, gravity: f64, run_speed: f64) -> Reach {
        let (level, height) = if gravity > 0.0 {
            (
                2.0 * run_speed * jump_speed / gravity,
                jump_speed * jump_speed / (2.0 * gravity),
            )
        } else {
            (0.0, 0.0)
        };
        Reach {
            level,
            height,
            max_drop: 0.0,
            step: 0.0,
        }
    }

    /// The horizontal distance of a jump landing `down` metres below its
    /// take-off (negative: above), or `None` beyond its rise or when there
    /// is no jump (see the module docs).
    pub fn at(&self, down: f64) -> Option<f64> {
        let h = self.height;
        if h <= 0.0 || self.level <= 0.0 || h + down < 0.0 {
            return None;
        }
        Some(self.level * (h.sqrt() + (h + down).sqrt()) / (2.0 * h.sqrt()))
    }

    /// The farthest a jump goes: the reach of the deepest drop (0 without
    /// a jump).
    pub fn longest(&self) -> f64 {
        self.at(self.max_drop.max(0.0)).unwrap_or(0.0)
    }

    /// True when a floor `dist` metres away (in plan) and `down` metres
    /// below the take-off (negative: above) can be landed on: no deeper
    /// than the deepest drop, and within the reach of a jump landing there.
    pub fn lands(&self, dist: f64, down: f64) -> bool {
        down <= self.max_drop && self.at(down).is_some_and(|r| dist <= r)
    }

    /// The height fallen from rest that lands as fast as a move `dist`
    /// metres across (in plan) and `down` metres down: `down` when walking
    /// off at the run speed carries the body that far, `down` plus the
    /// jump's rise otherwise (see the module docs); 0 for a move that does
    /// not go down.
    pub fn fallen(&self, dist: f64, down: f64) -> f64 {
        if down <= 0.0 {
            return 0.0;
        }
        let h = self.height;
        let walk_off = if h > 0.0 {
            self.level * down.sqrt() / (2.0 * h.sqrt())
        } else {
            f64::INFINITY
        };
        if dist <= walk_off { down } else { down + h }
    }
}

/// What a landing costs beyond its length, for a body that is hurt by
/// landing fast: a fall of at most `safe_height` (from rest, see
/// [`Reach::fallen`]) costs nothing, a deeper one `hurt_cost`, whatever its
/// depth (Quake takes a fixed 5 health; the agent presets set both).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fall {
    /// Deepest fall from rest that lands unhurt, metres.
    pub safe_height: f64,
    /// Cost added to a move whose landing hurts, metres (0: landings cost
    /// nothing).
    pub hurt_cost: f64,
}

impl Fall {
    /// Landings cost nothing.
    pub const NONE: Fall = Fall {
        safe_height: 0.0,
        hurt_cost: 0.0,
    };

    /// The fall of the parameters [`SAFE_FALL`] and [`FALL_COST`].
    pub fn from_params(params: &ParamValues) -> Fall {
        Fall {
            safe_height: params.float(SAFE_FALL),
            hurt_cost: params.float(FALL_COST),
        }
    }

    /// The cost a move `dist` across and `down` down adds for its landing,
    /// for a body jumping as `reach`.
    pub fn cost(&self, reach: &Reach, dist: f64, down: f64) -> f64 {
        if self.hurt_cost > 0.0 && reach.fallen(dist, down) > self.safe_height {
            self.hurt_cost
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUAKE: Reach = Reach {
        level: 6.75,
        height: 1.423_828_125,
        max_drop: 10.0,
        step: 0.5625,
    };

    #[test]
    fn reach_grows_with_the_drop_and_ends_above_the_rise() {
        let r = QUAKE;
        assert!((r.at(0.0).unwrap() - 6.75).abs() < 1e-12);
        assert!(r.at(2.0).unwrap() > 6.75);
        assert!(r.at(1.0).unwrap() < r.at(2.0).unwrap());
        assert!(r.at(-1.0).unwrap() < 6.75);
        assert_eq!(r.at(-1.5), None, "above the rise");
        let flat = Reach { height: 0.0, ..r };
        assert_eq!(flat.at(0.0), None, "no jump, no reach");
        assert_eq!(flat.longest(), 0.0);
    }

    #[test]
    fn quakes_physics_gives_its_216_unit_jump() {
        // 270 u/s up, gravity 800, run 320, at 1/32 m per unit.
        let u = 1.0 / 32.0;
        let r = Reach::of_physics(270.0 * u, 800.0 * u, 320.0 * u);
        assert!((r.level - 216.0 * u).abs() < 1e-12);
        assert!((r.height - 45.5625 * u).abs() < 1e-12);
        assert_eq!(Reach::of_physics(1.0, 0.0, 1.0).at(0.0), None);
    }

    #[test]
    fn landings_stop_at_the_deepest_drop_and_the_reach() {
        let r = QUAKE;
        assert!(r.lands(6.0, 0.0));
        assert!(!r.lands(7.0, 0.0));
        assert!(r.lands(7.0, 2.0), "further down a drop");
        assert!(!r.lands(1.0, 11.0), "deeper than the deepest drop");
        assert!(!r.lands(0.5, -1.5), "above the rise");
    }

    #[test]
    fn a_walk_off_falls_its_drop_and_a_jump_its_rise_too() {
        let (v, g, u) = (270.0 / 32.0, 800.0 / 32.0, 320.0 / 32.0);
        let r = Reach::of_physics(v, g, u);
        // How far walking off at the run speed is carried falling 5 m.
        let walk = u * (2.0 * 5.0 / g).sqrt();
        assert_eq!(r.fallen(walk * 0.99, 5.0), 5.0);
        assert_eq!(r.fallen(walk * 1.01, 5.0), 5.0 + r.height);
        assert_eq!(r.fallen(0.0, -1.0), 0.0, "not down");
        let no_jump = Reach { height: 0.0, ..r };
        assert_eq!(no_jump.fallen(100.0, 5.0), 5.0);
        let fall = Fall {
            safe_height: 8.25,
            hurt_cost: 10.0,
        };
        assert_eq!(fall.cost(&r, 0.5, 8.0), 0.0, "an unhurt walk-off");
        assert_eq!(fall.cost(&r, 0.5, 9.0), 10.0);
        assert_eq!(fall.cost(&r, 0.5, 90.0), 10.0, "a fixed cost at any depth");
        assert_eq!(
            fall.cost(&r, walk * 2.0, 7.5),
            10.0,
            "a jump falls its rise too"
        );
        assert_eq!(
            Fall {
                hurt_cost: 0.0,
                ..fall
            }
            .cost(&r, 0.5, 90.0),
            0.0
        );
    }

    /// Against the closed form of the flight time: `u (v + √(v² + 2gd)) / g`.
    #[test]
    fn the_reach_is_the_flight_of_the_physics() {
        for (v, g, u) in [(8.4375, 25.0, 10.0), (3.0, 9.81, 5.0)] {
            let r = Reach::of_physics(v, g, u);
            for d in [-0.3, 0.0, 0.7, 4.0] {
                let t = (v + (v * v + 2.0 * g * d).sqrt()) / g;
                assert!((r.at(d).unwrap() - u * t).abs() < 1e-9);
            }
        }
    }
}
