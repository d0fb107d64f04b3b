//! The compare panel's headline: how the walkable area changed per stance
//! and per area kind, B (pinned) to A (on screen).
//!
//! The footprint difference alone misses what a designer changed most
//! often: raising the standing radius on `table_room.obj` turned all of the
//! standing area into crouch area while the footprint (A only 0.18 m², B
//! only 0.40 m²) barely moved. The headline lists every stance and every
//! area kind whose area changed, the largest change first.

use std::collections::BTreeMap;

use navscope_compare::BuildMetrics;

/// Area changes smaller than this (m²) are rounding, not a change.
pub const AREA_EPSILON: f64 = 0.005;

/// One line of the headline: what changed and by how much.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaChange {
    /// `stance` or `area`.
    pub by: &'static str,
    /// The stance or area kind's name.
    pub name: String,
    /// Its area in B (m²).
    pub b: f64,
    /// Its area in A (m²).
    pub a: f64,
}

impl AreaChange {
    /// A minus B (m²).
    pub fn delta(&self) -> f64 {
        self.a - self.b
    }

    /// The line as a person reads it:
    /// `stance stand: B 88.00 m², A 0.20 m² (-87.80)`.
    pub fn text(&self) -> String {
        let d = self.delta();
        let sign = if d > 0.0 { "+" } else { "-" };
        format!(
            "{} {}: B {:.2} m², A {:.2} m² ({sign}{:.2})",
            self.by,
            self.name,
            self.b,
            self.a,
            d.abs()
        )
    }
}

fn changes_of(
    by: &'static str,
    a: &BTreeMap<String, f64>,
    b: &BTreeMap<String, f64>,
) -> Vec<AreaChange> {
    let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    names
        .into_iter()
        .map(|n| AreaChange {
            by,
            name: n.clone(),
            a: a.get(n).copied().unwrap_or(0.0),
            b: b.get(n).copied().unwrap_or(0.0),
        })
        .filter(|c| c.delta().abs() >= AREA_EPSILON)
        .collect()
}

/// The stances, then the area kinds, whose walkable area differs between
/// A and B, each group largest change first.
pub fn area_changes(a: &BuildMetrics, b: &BuildMetrics) -> Vec<AreaChange> {
    let mut out = Vec::new();
    for (by, ma, mb) in [
        ("stance", &a.area_by_stance, &b.area_by_stance),
        ("area", &a.area_by_area, &b.area_by_area),
    ] {
        let mut group = changes_of(by, ma, mb);
        group.sort_by(|x, y| y.delta().abs().total_cmp(&x.delta().abs()));
        out.extend(group);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(stances: &[(&str, f64)], areas: &[(&str, f64)]) -> BuildMetrics {
        BuildMetrics {
            area_by_stance: stances.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            area_by_area: areas.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn standing_area_turned_crouch_area_is_the_headline() {
        // B: all standing; A: most of it crouch, the footprint nearly equal.
        let b = metrics(&[("stand", 88.0)], &[("default", 88.0)]);
        let a = metrics(&[("stand", 0.2), ("crouch", 87.9)], &[("default", 88.1)]);
        let c = area_changes(&a, &b);
        let lines: Vec<String> = c.iter().map(AreaChange::text).collect();
        assert_eq!(
            lines,
            [
                "stance crouch: B 0.00 m², A 87.90 m² (+87.90)",
                "stance stand: B 88.00 m², A 0.20 m² (-87.80)",
                "area default: B 88.00 m², A 88.10 m² (+0.10)",
            ]
        );
    }

    #[test]
    fn equal_builds_and_rounding_have_no_headline() {
        let b = metrics(&[("stand", 10.0), ("crouch", 2.0)], &[("water", 1.0)]);
        let a = metrics(&[("stand", 10.001), ("crouch", 2.0)], &[("water", 1.0)]);
        assert!(area_changes(&a, &b).is_empty());
        assert!(area_changes(&metrics(&[], &[]), &metrics(&[], &[])).is_empty());
    }

    #[test]
    fn a_stance_only_one_side_has_counts_from_zero() {
        let b = metrics(&[("swim", 3.0)], &[]);
        let a = metrics(&[], &[]);
        let c = area_changes(&a, &b);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].b, c[0].a, c[0].delta()), (3.0, 0.0, -3.0));
    }
}
