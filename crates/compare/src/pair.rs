//! Preset pairs: A's and B's pipeline and parameters together, saved and
//! loaded as RON (or JSON, by the file's extension).
//!
//! ```ron
//! (
//!     a: (pipeline: "voxel", params: {"stand.radius": 0.3, "cell_size": 0.1}),
//!     b: (pipeline: "voxel", params: {"stand.radius": 0.6}),
//! )
//! ```
//! Parameters a side leaves out take the pipeline's defaults; unknown
//! names and values out of range are errors naming the parameter.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use navscope_core::Pipeline;
use navscope_core::params::{ParamValue, ParamValues};
use serde::{Deserialize, Serialize};

/// One side of a pair: a pipeline id and parameter values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSettings {
    /// Pipeline id (`convex`, `voxel`, ...).
    pub pipeline: String,
    /// Parameter values by name (the others keep their defaults).
    #[serde(default)]
    pub params: BTreeMap<String, ParamValue>,
}

impl SideSettings {
    /// The settings of a pipeline with every one of `values`.
    pub fn new(pipeline: &Pipeline, values: &ParamValues) -> Self {
        Self {
            pipeline: pipeline.id.to_string(),
            params: values
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    /// The pipeline (from the registry) and the checked values over its
    /// defaults.
    pub fn resolve(&self) -> Result<(Arc<Pipeline>, ParamValues), String> {
        let p = navscope_pipelines::by_id(&self.pipeline).ok_or_else(|| {
            format!(
                "unknown pipeline '{}' (known: {})",
                self.pipeline,
                navscope_pipelines::ids().join(", ")
            )
        })?;
        let mut values = ParamValues::defaults(&p.params);
        for (name, v) in &self.params {
            values
                .set(&p.params, name, v.clone())
                .map_err(|e| format!("pipeline '{}': {e}", p.id))?;
        }
        Ok((p, values))
    }
}

/// A's and B's settings together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PresetPair {
    /// Side A.
    pub a: SideSettings,
    /// Side B.
    pub b: SideSettings,
}

/// True when `path` names a JSON file.
fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

impl PresetPair {
    /// The pair as RON.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("a preset pair serialises")
    }

    /// The pair as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a preset pair serialises")
    }

    /// Reads a pair from RON text, or JSON when `json`, and checks both
    /// sides against their pipelines.
    pub fn parse(text: &str, json: bool) -> Result<Self, String> {
        let pair: PresetPair = if json {
            serde_json::from_str(text).map_err(|e| e.to_string())?
        } else {
            ron::from_str(text).map_err(|e| e.to_string())?
        };
        pair.a.resolve().map_err(|e| format!("a: {e}"))?;
        pair.b.resolve().map_err(|e| format!("b: {e}"))?;
        Ok(pair)
    }

    /// Writes the pair to `path` (JSON for `.json`, otherwise RON).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = if is_json(path) {
            self.to_json()
        } else {
            self.to_ron()
        };
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a pair from `path` (JSON for `.json`, otherwise RON); errors
    /// name the file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text, is_json(path)).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> PresetPair {
        let voxel = navscope_pipelines::by_id("voxel").unwrap();
        let mut v = ParamValues::defaults(&voxel.params);
        v.set(&voxel.params, "stand.radius", ParamValue::Float(0.6))
            .unwrap();
        PresetPair {
            a: SideSettings {
                pipeline: "voxel".into(),
                params: [("stand.radius".to_string(), ParamValue::Float(0.3))].into(),
            },
            b: SideSettings::new(&voxel, &v),
        }
    }

    #[test]
    fn pairs_round_trip_through_ron_and_json_files() {
        let dir = std::env::temp_dir().join(format!("navscope-pair-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["pair.ron", "pair.json"] {
            let path = dir.join(name);
            pair().save(&path).unwrap();
            let back = PresetPair::load(&path).unwrap();
            assert_eq!(back, pair(), "{name}");
            let (p, values) = back.b.resolve().unwrap();
            assert_eq!(p.id, "voxel");
            assert_eq!(values.float("stand.radius"), 0.6);
            let (_, a) = back.a.resolve().unwrap();
            assert_eq!(a.float("stand.radius"), 0.3);
            assert_eq!(a.float("cell_size"), 0.1, "left out: the default");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_pairs_name_the_side_and_the_parameter() {
        let mut p = pair();
        p.b.params.insert("nonsense".into(), ParamValue::Int(1));
        let e = PresetPair::parse(&p.to_ron(), false).unwrap_err();
        assert!(
            e.starts_with("b: pipeline 'voxel':") && e.contains("nonsense"),
            "{e}"
        );
        let mut p = pair();
        p.a.pipeline = "nope".into();
        let e = PresetPair::parse(&p.to_json(), true).unwrap_err();
        assert!(e.starts_with("a: unknown pipeline 'nope'"), "{e}");
        assert!(
            PresetPair::load(Path::new("/nonexistent/pair.ron"))
                .unwrap_err()
                .starts_with("/nonexistent/pair.ron: ")
        );
    }
}
