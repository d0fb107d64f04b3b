//! Self-describing parameters, their values, and RON presets.
//!
//! Every parameter a stage reads is declared once with a [`ParamSpec`]: name,
//! unit, default (the value the paper uses), range, step and a one-line doc.
//! The app builds its panels from these specs; the CLI's `--set NAME=VALUE`
//! and RON presets are checked against them. An unknown name or a value
//! outside its range is an error naming the parameter.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The type and range of a parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamKind {
    /// A real number in `min..=max`, edited in steps of `step`.
    Float { min: f64, max: f64, step: f64 },
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// On or off.
    Bool,
    /// One of a fixed list of options.
    Choice { options: Vec<String> },
    /// An ordered, comma-separated selection from `options` (e.g. the order
    /// of recycled voxel passes); each option at most once.
    List { options: Vec<String> },
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// On or off.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A choice, or a comma-separated list.
    Text(String),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Int(i) => write!(f, "{i}"),
            // Short, as messages print numbers: a value that came from an
            // `f32` reads `12.2`, not `12.199999809265137`.
            ParamValue::Float(x) => write!(f, "{}", crate::num::short(*x)),
            ParamValue::Text(s) => write!(f, "{s}"),
        }
    }
}

/// The description of one parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamSpec {
    /// Identifier used in presets and `--set`, e.g. `tau`.
    pub name: String,
    /// Human label, e.g. `Tau (relaxation)`.
    pub label: String,
    /// Unit, e.g. `deg`, `m`, or empty.
    pub unit: String,
    /// Type and range.
    pub kind: ParamKind,
    /// Default: the value the paper uses.
    pub default: ParamValue,
    /// One-line explanation shown as a tooltip.
    pub doc: String,
}

impl ParamSpec {
    /// A real-valued parameter. (Eight arguments, in the order a reader
    /// scans a parameter table: a builder would only hide that order.)
    #[allow(clippy::too_many_arguments)]
    pub fn float(
        name: &str,
        label: &str,
        unit: &str,
        default: f64,
        min: f64,
        max: f64,
        step: f64,
        doc: &str,
    ) -> Self {
        Self {
            name: name.into(),
            label: label.into(),
            unit: unit.into(),
            kind: ParamKind::Float { min, max, step },
            default: ParamValue::Float(default),
            doc: doc.into(),
        }
    }

    /// An integer parameter.
    pub fn int(
        name: &str,
        label: &str,
        unit: &str,
        default: i64,
        min: i64,
        max: i64,
        doc: &str,
    ) -> Self {
        Self {
            name: name.into(),
            label: label.into(),
            unit: unit.into(),
            kind: ParamKind::Int { min, max },
            default: ParamValue::Int(default),
            doc: doc.into(),
        }
    }

    /// An on/off parameter.
    pub fn bool(name: &str, label: &str, default: bool, doc: &str) -> Self {
        Self {
            name: name.into(),
            label: label.into(),
            unit: String::new(),
            kind: ParamKind::Bool,
            default: ParamValue::Bool(default),
            doc: doc.into(),
        }
    }

    /// A choice among options.
    pub fn choice(name: &str, label: &str, options: &[&str], default: &str, doc: &str) -> Self {
        Self {
            name: name.into(),
            label: label.into(),
            unit: String::new(),
            kind: ParamKind::Choice {
                options: options.iter().map(|s| s.to_string()).collect(),
            },
            default: ParamValue::Text(default.into()),
            doc: doc.into(),
        }
    }

    /// An ordered list drawn from options, e.g. `stand,crouch,prone`.
    pub fn list(name: &str, label: &str, options: &[&str], default: &str, doc: &str) -> Self {
        Self {
            name: name.into(),
            label: label.into(),
            unit: String::new(),
            kind: ParamKind::List {
                options: options.iter().map(|s| s.to_string()).collect(),
            },
            default: ParamValue::Text(default.into()),
            doc: doc.into(),
        }
    }

    /// Checks (and where harmless converts) a value for this parameter:
    /// integers are accepted for real parameters.
    pub fn check(&self, v: &ParamValue) -> Result<ParamValue, ParamError> {
        let bad = |why: String| ParamError::Invalid {
            name: self.name.clone(),
            value: match v {
                // 1e300 reads as 1.0e300, not 301 digits.
                ParamValue::Float(x) => crate::num::short(*x),
                other => crate::num::clip(&other.to_string()),
            },
            why,
        };
        match (&self.kind, v) {
            (ParamKind::Float { min, max, .. }, ParamValue::Float(_) | ParamValue::Int(_)) => {
                let x = match v {
                    ParamValue::Float(x) => *x,
                    ParamValue::Int(i) => *i as f64,
                    _ => unreachable!(),
                };
                if !x.is_finite() || x < *min || x > *max {
                    return Err(bad(format!(
                        "must be between {} and {}{}",
                        crate::num::short(*min),
                        crate::num::short(*max),
                        unit_suffix(&self.unit)
                    )));
                }
                Ok(ParamValue::Float(x))
            }
            (ParamKind::Int { min, max }, ParamValue::Int(i)) => {
                if i < min || i > max {
                    return Err(bad(format!(
                        "must be between {min} and {max}{}",
                        unit_suffix(&self.unit)
                    )));
                }
                Ok(v.clone())
            }
            (ParamKind::Bool, ParamValue::Bool(_)) => Ok(v.clone()),
            (ParamKind::Choice { options }, ParamValue::Text(s)) => {
                if options.contains(s) {
                    Ok(v.clone())
                } else {
                    Err(bad(format!("must be one of {}", options.join(", "))))
                }
            }
            (ParamKind::List { options }, ParamValue::Text(s)) => {
                let mut seen = Vec::new();
                for item in s.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    if !options.iter().any(|o| o == item) {
                        return Err(bad(format!(
                            "'{item}' is not one of {}",
                            options.join(", ")
                        )));
                    }
                    if seen.contains(&item) {
                        return Err(bad(format!("'{item}' is listed twice")));
                    }
                    seen.push(item);
                }
                Ok(ParamValue::Text(seen.join(",")))
            }
            _ => Err(bad(format!(
                "has the wrong type (expected {})",
                self.kind_name()
            ))),
        }
    }

    /// Parses a command-line value (`--set NAME=VALUE`) for this parameter.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        let t = text.trim();
        let v = match self.kind {
            ParamKind::Float { .. } => t.parse::<f64>().map(ParamValue::Float).ok(),
            ParamKind::Int { .. } => t.parse::<i64>().map(ParamValue::Int).ok(),
            ParamKind::Bool => match t {
                "true" | "on" | "yes" | "1" => Some(ParamValue::Bool(true)),
                "false" | "off" | "no" | "0" => Some(ParamValue::Bool(false)),
                _ => None,
            },
            ParamKind::Choice { .. } | ParamKind::List { .. } => {
                Some(ParamValue::Text(t.to_string()))
            }
        };
        let v = v.ok_or_else(|| ParamError::Invalid {
            name: self.name.clone(),
            value: t.into(),
            why: format!("is not a {}", self.kind_name()),
        })?;
        self.check(&v)
    }

    fn kind_name(&self) -> &'static str {
        match self.kind {
            ParamKind::Float { .. } => "number",
            ParamKind::Int { .. } => "whole number",
            ParamKind::Bool => "true/false value",
            ParamKind::Choice { .. } => "choice",
            ParamKind::List { .. } => "list",
        }
    }
}

fn unit_suffix(unit: &str) -> String {
    if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    }
}

/// What is wrong with a parameter value or a preset.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ParamError {
    /// No parameter of that name in this pipeline.
    #[error("unknown parameter '{name}' (known: {known})")]
    Unknown { name: String, known: String },
    /// The value is out of range or of the wrong type.
    #[error("parameter '{name}' = {value} {why}")]
    Invalid {
        name: String,
        value: String,
        why: String,
    },
    /// The preset text is not valid RON.
    #[error("preset is not valid RON: {0}")]
    Syntax(String),
}

/// The values of a pipeline's parameters, by name. Always complete: every
/// declared parameter has a value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamValues {
    values: BTreeMap<String, ParamValue>,
}

impl ParamValues {
    /// The defaults of `specs`.
    pub fn defaults(specs: &[ParamSpec]) -> Self {
        Self {
            values: specs
                .iter()
                .map(|s| (s.name.clone(), s.default.clone()))
                .collect(),
        }
    }

    /// The value of `name`, if declared.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.values.get(name)
    }

    /// A real parameter (integers convert). Panics are avoided: an
    /// undeclared name gives NaN so a stage's own checks report it.
    pub fn float(&self, name: &str) -> f64 {
        match self.values.get(name) {
            Some(ParamValue::Float(x)) => *x,
            Some(ParamValue::Int(i)) => *i as f64,
            _ => f64::NAN,
        }
    }

    /// An integer parameter (0 when undeclared).
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(ParamValue::Int(i)) => *i,
            Some(ParamValue::Float(x)) => *x as i64,
            _ => 0,
        }
    }

    /// An on/off parameter (false when undeclared).
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.values.get(name), Some(ParamValue::Bool(true)))
    }

    /// A choice or list parameter ("" when undeclared).
    pub fn text(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(ParamValue::Text(s)) => s,
            _ => "",
        }
    }

    /// A list parameter split into its items.
    pub fn list(&self, name: &str) -> Vec<&str> {
        self.text(name)
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// Sets a value after checking it against `specs`. Returns whether the
    /// value changed.
    pub fn set(
        &mut self,
        specs: &[ParamSpec],
        name: &str,
        value: ParamValue,
    ) -> Result<bool, ParamError> {
        let spec = find(specs, name)?;
        let v = spec.check(&value)?;
        let changed = self.values.get(name) != Some(&v);
        self.values.insert(name.to_string(), v);
        Ok(changed)
    }

    /// Iterates `(name, value)` in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The preset as RON: a map from name to value.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(&self.values, ron::ser::PrettyConfig::default())
            .unwrap_or_default()
    }

    /// Reads a RON preset (a map from name to value) over the defaults of
    /// `specs`. Unknown names and bad values are errors naming the parameter;
    /// names the preset leaves out keep their defaults.
    pub fn from_ron(specs: &[ParamSpec], text: &str) -> Result<Self, ParamError> {
        let map: BTreeMap<String, ParamValue> =
            ron::from_str(text).map_err(|e| ParamError::Syntax(e.to_string()))?;
        let mut v = Self::defaults(specs);
        for (name, value) in map {
            v.set(specs, &name, value)?;
        }
        Ok(v)
    }
}

fn find<'a>(specs: &'a [ParamSpec], name: &str) -> Result<&'a ParamSpec, ParamError> {
    specs
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| ParamError::Unknown {
            name: crate::num::clip(name),
            known: specs
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Finds the spec named `name` in `specs`.
pub fn spec<'a>(specs: &'a [ParamSpec], name: &str) -> Result<&'a ParamSpec, ParamError> {
    find(specs, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_float_from_an_f32_prints_as_written() {
        let v = ParamValue::Float(12.2f32 as f64);
        assert_eq!(v.to_string(), "12.2");
        assert_eq!(ParamValue::Float(0.125).to_string(), "0.125");
        assert_eq!(ParamValue::Float(3.0).to_string(), "3");
        // The range in an error is printed the same way.
        let spec = ParamSpec::float("r", "R", "m", 1.0, 0.1f32 as f64, 30.0, 0.5, "r");
        let e = spec.check(&ParamValue::Float(0.0)).unwrap_err().to_string();
        assert!(e.contains("between 0.1 and 30"), "{e}");
    }

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec::float("tau", "Tau", "deg", 0.0, 0.0, 30.0, 0.5, "relaxation"),
            ParamSpec::bool("removal", "Portal removal", true, "remove portals"),
            ParamSpec::int("tile", "Tile size", "cells", 0, 0, 1024, "tile size"),
            ParamSpec::list(
                "passes",
                "Passes",
                &["stand", "crouch", "prone"],
                "stand,crouch",
                "order",
            ),
        ]
    }

    #[test]
    fn preset_round_trip() {
        let s = specs();
        let mut v = ParamValues::defaults(&s);
        assert!(v.set(&s, "tau", ParamValue::Float(5.0)).unwrap());
        assert!(
            !v.set(&s, "tau", ParamValue::Int(5)).unwrap(),
            "5 == 5.0: no change"
        );
        v.set(&s, "removal", ParamValue::Bool(false)).unwrap();
        v.set(&s, "passes", ParamValue::Text("prone, stand".into()))
            .unwrap();
        let text = v.to_ron();
        let back = ParamValues::from_ron(&s, &text).unwrap();
        assert_eq!(back, v);
        assert_eq!(back.list("passes"), vec!["prone", "stand"]);
    }

    #[test]
    fn errors_name_the_parameter() {
        let s = specs();
        let e = ParamValues::from_ron(&s, r#"{"tua": 5.0}"#).unwrap_err();
        assert!(
            e.to_string().contains("'tua'") && e.to_string().contains("tau"),
            "{e}"
        );
        let e = ParamValues::from_ron(&s, r#"{"tau": 90.0}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "parameter 'tau' = 90 must be between 0 and 30 deg"
        );
        let e = ParamValues::from_ron(&s, r#"{"removal": 3}"#).unwrap_err();
        assert!(e.to_string().contains("wrong type"), "{e}");
        let e = ParamValues::from_ron(&s, r#"{"passes": "stand,stand"}"#).unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        assert!(matches!(
            ParamValues::from_ron(&s, "{"),
            Err(ParamError::Syntax(_))
        ));
        assert!(matches!(s[0].parse("NaN"), Err(ParamError::Invalid { .. })));
        assert_eq!(s[1].parse("off"), Ok(ParamValue::Bool(false)));
    }
}
