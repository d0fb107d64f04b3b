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
