//! The values a fix may give a parameter: values a designer could use for
//! the agent and the level, not whatever value happens to join two sides.
//! A fix of `stand.height = 0` joins almost anything and means nothing.
//!
//! The rule (one parameter, current value `v`):
//! - Always within the parameter's own range (its [`ParamSpec`]), on its
//!   step grid.
//! - **Agent size** (the agent's or a stance's radius, height, width or
//!   depth: `stand.radius`, `crouch.height`, `agent_width`,
//!   `stand_height`): between `v / AGENT_FACTOR` and `v * AGENT_FACTOR`
//!   ([`AGENT_FACTOR`] = 2). The agent is the game's player (the preset
//!   sets it when a level opens). Some slack is needed: voxel erosion
//!   rounds the radius up to whole cells and a wall's partly covered
//!   cell counts whole, so a doorway the agent fits by a few centimetres
//!   needs a radius a cell or two smaller in `voxel`. An agent less than
//!   half the player, though, lets the mesh through places the player
//!   never fits, and that is not a fix.
//! - **Step height** (`stand.max_step`, `step_height`): at most half the
//!   standing height (higher is a climb, not a step; Quake's 18-unit step
//!   is under a third of its 56-unit player, Recast's demo 0.9 of 2.0 m).
//! - **Slope** (`max_slope`): below vertical, at most 89°.
//! - **Voxel cells**: `cell_size` at most the standing radius and
//!   `cell_height` at most the standing step: coarser voxels cannot hold
//!   the agent (Recast's rule of thumb is a half to a third of each), and
//!   a gap closed by blurring it away is not a fix.
//! - Jump height, jump reach, drop depth and every other parameter: their
//!   spec ranges, which are their documented working ranges.

use navscope_core::Stance;
use navscope_core::params::{ParamKind, ParamSpec, ParamValues};

use crate::rules::number;

/// How far a fix may shrink or grow the agent's size: a factor either way.
pub const AGENT_FACTOR: f64 = 2.0;

/// Steepest slope a fix may set, degrees.
pub const MAX_FIX_SLOPE: f64 = 89.0;

/// The values a fix may try for one parameter: `min..=max` on the grid
/// of `step` from the spec's minimum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixRange {
    /// Least value.
    pub min: f64,
    /// Greatest value.
    pub max: f64,
    /// Grid step (1 for integers).
    pub step: f64,
    /// The spec's minimum: the grid's origin.
    pub origin: f64,
}

impl FixRange {
    /// `x` on the grid, rounded to the nearest grid value.
    pub fn snap(&self, x: f64) -> f64 {
        ((x - self.origin) / self.step).round() * self.step + self.origin
    }
}

fn words(name: &str) -> Vec<&str> {
    name.split(['.', '_']).collect()
}

/// Whether `name` is a size of the agent's body: its first word is
/// `agent` or a stance name and its last `radius`, `height`, `width` or
/// `depth` (`jump_height` and `step_height` are not).
pub fn is_agent_size(name: &str) -> bool {
    let w = words(name);
    let (Some(first), Some(last)) = (w.first(), w.last()) else {
        return false;
    };
    let body = *first == "agent" || Stance::ALL.iter().any(|s| s.name() == *first);
    body && w.len() > 1 && ["radius", "height", "width", "depth"].contains(last)
}

fn is_step(name: &str) -> bool {
    name == "step_height" || words(name).ends_with(&["max", "step"])
}

fn is_slope(name: &str) -> bool {
    words(name).last() == Some(&"slope")
}

/// The first of `names` that `values` holds as a number.
fn first_number(values: &ParamValues, names: &[&str]) -> Option<f64> {
    names.iter().find_map(|n| number(values.get(n)))
}

/// The range a fix may give `spec` whose current value is `current`
/// (see the module doc); `None` for a parameter that is not a number or
/// has no value a fix may use.
pub fn fix_range(spec: &ParamSpec, values: &ParamValues) -> Option<FixRange> {
    let (origin, spec_max, step) = match spec.kind {
        ParamKind::Float { min, max, step } => (min, max, step.max(1e-9)),
        ParamKind::Int { min, max } => (min as f64, max as f64, 1.0),
        _ => return None,
    };
    let current = number(values.get(&spec.name))?;
    let (mut lo, mut hi) = (origin, spec_max);
    if is_agent_size(&spec.name) {
        lo = lo.max(current / AGENT_FACTOR);
        hi = hi.min(current * AGENT_FACTOR);
    }
    if is_step(&spec.name)
        && let Some(h) = first_number(values, &["stand.height", "stand_height"])
    {
        hi = hi.min(h / 2.0);
    }
    let coarsest = match spec.name.as_str() {
        "cell_size" => first_number(values, &["stand.radius"]),
        "cell_height" => first_number(values, &["stand.max_step"]),
        _ => None,
    };
    if let Some(c) = coarsest {
        hi = hi.min(c.max(current));
    }
    if is_slope(&spec.name) {
        hi = hi.min(MAX_FIX_SLOPE);
    }
    // Inwards onto the grid.
    let eps = step * 1e-6;
    let min = ((lo - origin - eps) / step).ceil() * step + origin;
    let max = ((hi - origin + eps) / step).floor() * step + origin;
    (min <= max).then_some(FixRange {
        min,
        max,
        step,
        origin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_sizes_are_told_from_movement_heights() {
        for n in [
            "stand.radius",
            "crouch.height",
            "agent_width",
            "agent_depth",
            "stand_height",
        ] {
            assert!(is_agent_size(n), "{n}");
        }
        for n in [
            "jump_height",
            "step_height",
            "stand.max_step",
            "cell_height",
        ] {
            assert!(!is_agent_size(n), "{n}");
        }
        assert!(is_step("stand.max_step") && is_step("step_height"));
        assert!(!is_step("jump_height"));
    }

    #[test]
    fn the_agent_changes_by_at_most_the_factor_and_steps_stay_below_half_its_height() {
        let specs = vec![
            ParamSpec::float("stand.height", "H", "m", 1.8, 0.0, 20.0, 0.05, ""),
            ParamSpec::float("stand.max_step", "S", "m", 0.4, 0.0, 100.0, 0.05, ""),
            ParamSpec::float("stand.max_slope", "A", "deg", 45.0, 0.0, 360.0, 1.0, ""),
            ParamSpec::float("max_drop", "D", "m", 2.0, 0.0, 100.0, 0.1, ""),
            ParamSpec::int("min_region_size", "R", "", 8, 0, 10_000, ""),
            ParamSpec::float("stand.radius", "r", "m", 0.4, 0.0, 10.0, 0.05, ""),
            ParamSpec::float("cell_size", "c", "m", 0.1, 0.01, 10.0, 0.01, ""),
        ];
        let v = ParamValues::defaults(&specs);
        let r = |i: usize| fix_range(&specs[i], &v).expect("a range");
        let h = r(0);
        assert!(
            (h.min - 0.9).abs() < 1e-9 && (h.max - 3.6).abs() < 1e-9,
            "{h:?}"
        );
        assert!(h.min >= 1.8 / AGENT_FACTOR && h.max <= 1.8 * AGENT_FACTOR);
        assert!((r(1).max - 0.9).abs() < 1e-9, "{:?}", r(1));
        assert_eq!(r(2).max, MAX_FIX_SLOPE);
        assert_eq!((r(3).min, r(3).max), (0.0, 100.0));
        assert_eq!((r(4).min, r(4).max), (0.0, 10_000.0));
        assert!((r(6).max - 0.4).abs() < 1e-9, "{:?}", r(6));
    }

    #[test]
    fn an_agent_size_of_zero_and_non_numbers_have_no_range() {
        let specs = vec![
            ParamSpec::float("prone.radius", "R", "m", 0.0, 0.0, 10.0, 0.05, ""),
            ParamSpec::bool("on", "On", true, ""),
        ];
        let v = ParamValues::defaults(&specs);
        // A zero size allows only zero: the range is that single value.
        let r = fix_range(&specs[0], &v).expect("the single value");
        assert_eq!((r.min, r.max), (0.0, 0.0));
        assert!(fix_range(&specs[1], &v).is_none());
    }
}
