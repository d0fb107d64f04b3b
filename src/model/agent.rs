//! Agent presets in the app: a level opens with the preset
//! [`navscope_pipelines::agents::for_level`] gives it (Quake's player for a
//! Quake map), as the command line builds it, and the parameters panel
//! shows which preset the values are and offers the others.
//!
//! Which preset is shown is read from the values themselves
//! ([`AgentChoice::of`]): the preset whose every setting they hold, so a
//! hand-edited value, an undo or values restored from the last run are
//! shown for what they are ("custom") and never under a stale name.

use navscope_core::Pipeline;
use navscope_core::level::Level;
use navscope_core::params::ParamValues;
use navscope_pipelines::agents::{PRESETS, Preset};

/// Every agent preset, in menu order.
pub fn presets() -> &'static [Preset] {
    &PRESETS
}

/// Which agent the parameter values are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AgentChoice {
    /// The pipeline's own defaults for every agent parameter.
    Default,
    /// Every setting of this preset.
    Preset(&'static Preset),
    /// Agent parameters set by hand.
    Custom,
    /// The pipeline has no agent parameters.
    None,
}

impl AgentChoice {
    /// The choice `values` of `pipeline` on `level` are: a preset whose
    /// settings they all hold (the first in menu order), the defaults, or
    /// custom.
    pub fn of(pipeline: &Pipeline, level: &Level, values: &ParamValues) -> Self {
        if PRESETS
            .iter()
            .all(|p| p.settings(pipeline.id, level).is_empty())
        {
            return AgentChoice::None;
        }
        // A preset is shown when applying it would change nothing (values
        // go through the specs' checks, so they compare as stored).
        let holds = |preset: Option<&Preset>| {
            with_agent(pipeline, level, values, preset).is_ok_and(|v| v == *values)
        };
        if let Some(p) = presets().iter().find(|p| holds(Some(*p))) {
            AgentChoice::Preset(p)
        } else if holds(None) {
            AgentChoice::Default
        } else {
            AgentChoice::Custom
        }
    }

    /// The name in the panel and the state report.
    pub fn name(self) -> &'static str {
        match self {
            AgentChoice::Default => "default",
            AgentChoice::Preset(p) => p.name,
            AgentChoice::Custom => "custom",
            AgentChoice::None => "none",
        }
    }
}

/// `values` with the agent parameters set to `preset`'s (or, for `None`,
/// to the pipeline's defaults); the other parameters are kept.
pub fn with_agent(
    pipeline: &Pipeline,
    level: &Level,
    values: &ParamValues,
    preset: Option<&Preset>,
) -> Result<ParamValues, String> {
    let mut out = values.clone();
    let defaults = ParamValues::defaults(&pipeline.params);
    for name in PRESETS
        .iter()
        .flat_map(|p| p.settings(pipeline.id, level))
        .map(|(name, _)| name)
    {
        if let Some(v) = defaults.get(&name) {
            out.set(&pipeline.params, &name, v.clone())
                .map_err(|e| format!("{name}: {e}"))?;
        }
    }
    if let Some(p) = preset {
        p.apply(pipeline, level, &mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_pipelines::agents::by_name;

    fn quake_level() -> Level {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/levels/cspace/ledge.map"
        );
        navscope_levels::load(std::path::Path::new(path)).expect("the sample map loads")
    }

    #[test]
    fn the_values_a_preset_sets_are_shown_as_that_preset_and_an_edit_as_custom() {
        let level = quake_level();
        for id in ["cspace", "voxel"] {
            let pipeline = navscope_pipelines::by_id(id).expect("a pipeline");
            let defaults = ParamValues::defaults(&pipeline.params);
            assert_eq!(
                AgentChoice::of(&pipeline, &level, &defaults),
                AgentChoice::Default
            );
            for p in &PRESETS {
                let v = with_agent(&pipeline, &level, &defaults, Some(p)).unwrap();
                assert_eq!(
                    AgentChoice::of(&pipeline, &level, &v),
                    AgentChoice::Preset(p),
                    "{id}"
                );
                // Back to the defaults from any preset.
                let back = with_agent(&pipeline, &level, &v, None).unwrap();
                assert_eq!(back, defaults, "{id}: {} then default", p.name);
            }
            // One agent value edited by hand: custom.
            let quake = by_name("quake").unwrap();
            let mut v = with_agent(&pipeline, &level, &defaults, Some(quake)).unwrap();
            let (name, value) = quake
                .settings(id, &level)
                .into_iter()
                .find_map(|(n, v)| match v {
                    navscope_core::ParamValue::Float(x) => Some((n, x)),
                    _ => None,
                })
                .unwrap();
            v.set(
                &pipeline.params,
                &name,
                navscope_core::ParamValue::Float(value * 0.9),
            )
            .unwrap();
            assert_eq!(
                AgentChoice::of(&pipeline, &level, &v),
                AgentChoice::Custom,
                "{id}: {name}"
            );
        }
    }

    #[test]
    fn a_pipeline_without_an_agent_has_no_choice() {
        let level = quake_level();
        let convex = navscope_pipelines::by_id("convex").expect("convex");
        let v = ParamValues::defaults(&convex.params);
        assert_eq!(AgentChoice::of(&convex, &level, &v), AgentChoice::None);
        assert_eq!(with_agent(&convex, &level, &v, None).unwrap(), v);
    }
}
