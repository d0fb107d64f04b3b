//! The smallest change of one pipeline parameter that joins the two sides
//! of a gap, found by building and searching again, never guessed.

use std::time::{Duration, Instant};

use glam::DVec3;
use navscope_core::params::{ParamKind, ParamSpec, ParamValue, ParamValues};
use navscope_core::{LinkKind, NavMesh, Runner};
use navscope_path::{Locator, SearchOptions, find_path};

use crate::fix_range::fix_range;
use crate::gap::{Fix, Gap, ways_words};
use crate::rules::{Refusal, Rules, number, refusals, underwater};
use crate::solids::Solids;

/// How much building the fix search may do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixBudget {
    /// Builds per parameter (the range end, then bisection).
    pub per_parameter: usize,
    /// Builds in all.
    pub total: usize,
    /// No new build starts that would end after this much time, judged
    /// by the longest build so far.
    pub time: Duration,
}

impl Default for FixBudget {
    /// 12 builds per parameter (the range's two ends and a bisection
    /// over 1,000 steps), 40 in all, 2 s (the goal for the fix
    /// search on the shared maps): the fix found within the time is
    /// checked, but a fix needing more builds than fit is not found.
    fn default() -> Self {
        Self {
            per_parameter: 12,
            total: 40,
            time: Duration::from_secs(2),
        }
    }
}

/// Words in a parameter's name or doc that suggest it governs whether two
/// places are linked; those parameters are tried first.
const GOVERNING: [&str; 10] = [
    "radius",
    "step",
    "climb",
    "jump",
    "drop",
    "height",
    "region",
    "clearance",
    "slope",
    "width",
];

fn governs(spec: &ParamSpec) -> bool {
    let text = format!("{} {}", spec.name, spec.doc).to_lowercase();
    GOVERNING.iter().any(|w| text.contains(w))
}

/// The value `x` of `spec` as a parameter value (integers rounded, reals
/// to 1e-9 so that a value on the parameter's step prints as typed).
fn value_of(spec: &ParamSpec, x: f64) -> ParamValue {
    match spec.kind {
        ParamKind::Int { .. } => ParamValue::Int(x.round() as i64),
        _ => ParamValue::Float((x * 1e9).round() / 1e9),
    }
}

/// The smallest change of one numeric parameter that makes `joins` true,
/// within the values a designer could use ([`fix_range`]). Parameters
/// are tried in order (those named in `first`, the refusing rules', then
/// those whose name or doc suggests they govern links, then the rest) and
/// the search stops at the first parameter that joins the sides: each end
/// of its range is tried, an end that joins is bisected towards the
/// current value to the parameter's step (1 for integers), and the
/// smaller change of the two ends is the fix. A value in `near` (what
/// the measured geometry says the parameter needs, e.g. the drop's
/// depth for the max drop) is tried before the end: joining there, the
/// bisection runs between it and the current value, which takes fewer
/// builds. `joins` builds
/// with the values and searches again; `budget` bounds the builds. Empty
/// when no single parameter joins them.
pub fn find_fixes(
    specs: &[ParamSpec],
    values: &ParamValues,
    first: &[String],
    near: &[(String, f64)],
    budget: &FixBudget,
    joins: &mut dyn FnMut(&ParamValues) -> bool,
) -> Vec<Fix> {
    let started = Instant::now();
    let mut builds = 0;
    let mut longest = Duration::ZERO;
    let mut order: Vec<&ParamSpec> = specs.iter().collect();
    order.sort_by_key(|s| {
        (
            first
                .iter()
                .position(|f| *f == s.name)
                .unwrap_or(usize::MAX),
            !governs(s),
        )
    });
    for spec in order {
        let Some(range) = fix_range(spec, values) else {
            continue;
        };
        let Some(current) = number(values.get(&spec.name)) else {
            continue;
        };
        let step = range.step;
        let hint = near.iter().find(|(n, _)| *n == spec.name).map(|(_, x)| *x);
        let mut left = budget.per_parameter;
        let mut found: Vec<(f64, Fix)> = Vec::new();
        for end in [range.min, range.max] {
            let mut try_value = |x: f64| -> Option<bool> {
                if left == 0 || builds >= budget.total || started.elapsed() + longest > budget.time
                {
                    return None;
                }
                left -= 1;
                builds += 1;
                let mut v = values.clone();
                v.set(specs, &spec.name, value_of(spec, x)).ok()?;
                let t = Instant::now();
                let joined = joins(&v);
                longest = longest.max(t.elapsed());
                Some(joined)
            };
            if (end - current).abs() < step / 2.0 {
                continue;
            }
            // The grid value at or just beyond the needed value, when it
            // lies between the current value and this end.
            let toward = (end - current).signum();
            let probe = hint
                .map(|h| range.snap(h + toward * step * 0.499))
                .filter(|h| {
                    (h - current) * toward >= step / 2.0 && (end - h) * toward >= step / 2.0
                });
            let (mut lo, mut hi) = match probe.map(|h| (h, try_value(h))) {
                Some((h, Some(true))) => (current, h),
                Some((_, None)) => continue,
                Some((h, Some(false))) if try_value(end) == Some(true) => (h, end),
                None if try_value(end) == Some(true) => (current, end),
                _ => continue,
            };
            while (hi - lo).abs() > step {
                let mid = range.snap((lo + hi) / 2.0);
                if (mid - lo).abs() < step / 2.0 || (mid - hi).abs() < step / 2.0 {
                    break;
                }
                match try_value(mid) {
                    Some(true) => hi = mid,
                    Some(false) => lo = mid,
                    None => break,
                }
            }
            found.push((
                (hi - current).abs(),
                Fix {
                    parameter: spec.name.clone(),
                    value: value_of(spec, hi),
                },
            ));
        }
        if let Some((_, fix)) = found.into_iter().min_by(|a, b| a.0.total_cmp(&b.0)) {
            return vec![fix];
        }
    }
    Vec::new()
}

/// A `joins` check for [`find_fixes`]: builds with the values from
/// `base` (a runner on the level, built or not), so only the stages from
/// the first one that reads a changed parameter run again, and searches
/// its NavMesh from `from` to `to` with `opts`; a failed build or no
/// NavMesh does not join.
pub fn rebuild_and_search<'a>(
    base: &'a Runner,
    from: DVec3,
    to: DVec3,
    opts: SearchOptions,
) -> impl FnMut(&ParamValues) -> bool + 'a {
    move |values| {
        rebuilt(base, values)
            .is_some_and(|mesh| find_path(&mesh, &Locator::new(&mesh), from, to, &opts).is_ok())
    }
}

/// The NavMesh of `base` built again with `values`: a copy of the runner
/// keeps every stage result the change does not reach.
pub fn rebuilt(base: &Runner, values: &ParamValues) -> Option<NavMesh> {
    let mut r = base.clone();
    r.set_params(values.clone());
    r.run_all();
    r.navmesh()
}

/// `gap` explained with the rules of `base`'s pipeline measured on its
/// level ([`crate::rules::refusals`]) and the fixes checked by building
/// again and searching from `ends.0` to `ends.1`, the refusing rules'
/// parameters tried first. A tiled pipeline searches on the tiles around
/// the gap first, between the gap's two sides ([`crate::crop::around_gap`],
/// which says why a local join is the right check), and confirms the fix
/// with one whole build ([`explain_gap_locally`]).
pub fn explain_gap(
    gap: Gap,
    base: &Runner,
    opts: SearchOptions,
    ends: (DVec3, DVec3),
    budget: &FixBudget,
) -> Gap {
    let crop = crate::crop::around_gap(base, gap.from, gap.to);
    let mut local = match (&crop, base.navmesh()) {
        (Some(r), Some(mesh)) => {
            let (a, b) = crate::crop::inside_ends(&mesh, gap.from, gap.to);
            Some(rebuild_and_search(r, a, b, opts.clone()))
        }
        _ => None,
    };
    let mut whole = rebuild_and_search(base, ends.0, ends.1, opts);
    let solids = Solids::new(base.level());
    explain_gap_locally(
        gap,
        base,
        solids.as_ref(),
        false,
        budget,
        local.as_mut().map(|l| l as Joins<'_>),
        &mut whole,
    )
}

/// [`explain_gap_with`] with the fix searched on the level around the
/// gap first (`local`, a check on [`crate::crop::around_gap`]'s crop) and
/// confirmed by one build of the whole level (`whole`); when the crop
/// finds none, or the whole level does not confirm it (the crop's
/// polygons, and so the ledge samples its jumps start from, differ a
/// little from the whole build's: on a test level a jump reach of 1.35 m
/// joined the crop and only 1.5 m the whole), the fix is searched again on
/// the whole level, so a fix is always checked on the level as built.
pub fn explain_gap_locally(
    gap: Gap,
    base: &Runner,
    solids: Option<&Solids>,
    both_ways: bool,
    budget: &FixBudget,
    local: Option<Joins<'_>>,
    whole: Joins<'_>,
) -> Gap {
    if let Some(local) = local {
        let found = explain_gap_with(gap.clone(), base, solids, both_ways, Some((budget, local)));
        let confirmed = found.fix.first().is_some_and(|f| {
            let mut v = base.params().clone();
            v.set(&base.pipeline().params, &f.parameter, f.value.clone())
                .is_ok()
                && whole(&v)
        });
        if confirmed {
            return found;
        }
    }
    explain_gap_with(gap, base, solids, both_ways, Some((budget, whole)))
}

/// A check that values join the two sides (building and searching again).
pub type Joins<'a> = &'a mut dyn FnMut(&ParamValues) -> bool;

/// `gap` explained with the rules of `base`'s pipeline measured on its
/// level and, given a budget and a `joins` check, the fix searched with
/// [`find_fixes`] (the refusing rules' parameters first); without them
/// the reason says the fix was not searched. `solids` are the level's
/// ([`Solids::new`], built once for many gaps). A way the mesh already
/// links ([`Gap::ways`]) is not measured; with `both_ways` the way back
/// (from `gap.to` to `gap.from`) is measured too, unless linked: two
/// islands may be joined one way (a drop) and parted only by the way
/// back (the jump up).
pub fn explain_gap_with(
    gap: Gap,
    base: &Runner,
    solids: Option<&Solids>,
    both_ways: bool,
    search: Option<(&FixBudget, Joins<'_>)>,
) -> Gap {
    let (specs, values) = (&base.pipeline().params, base.params());
    let rules = Rules::for_pipeline(base.pipeline().id, values);
    let mut gap = gap;
    if solids.is_some_and(|s| underwater(s, &gap).is_some()) {
        gap.link = LinkKind::Swim;
    }
    let refused = if gap.ways.there {
        Vec::new()
    } else {
        refusals(&rules, &gap, solids)
    };
    let back = if both_ways && !gap.ways.back {
        refusals(&rules, &gap.reversed(), solids)
    } else {
        Vec::new()
    };
    let all = || refused.iter().chain(&back);
    let first: Vec<String> = all()
        .map(|r| r.limit.parameter.clone())
        .filter(|p| !p.is_empty())
        .collect();
    let near: Vec<(String, f64)> = all()
        .filter_map(|r| Some((r.limit.parameter.clone(), needed(r, values)?)))
        .collect();
    let fixes =
        search.map(|(budget, joins)| find_fixes(specs, values, &first, &near, budget, joins));
    with_reason(gap, &refused, &back, fixes)
}

/// The parameter value that refusal `r` measured as needed: the measured
/// value over the rule's factor (a width is twice a radius); `None` when
/// the parameter is not a number of `values` or the factor is unknown
/// (a limit of 0 from a value of 0 is taken at a factor of 1).
fn needed(r: &Refusal, values: &ParamValues) -> Option<f64> {
    let current = number(values.get(&r.limit.parameter))?;
    if current == 0.0 {
        return (r.limit.value == 0.0).then_some(r.measured);
    }
    Some(r.measured * current / r.limit.value)
}

/// `gap` with `fixes` and its reason: the way that is missing and the
/// rules that refuse it (the first is the cause) or, when none was
/// measured, its geometry; the way the mesh already links, if any
/// ([`crate::gap::Ways`]); then the first fix. E.g. "a step up refused:
/// step 0.56 m > step tolerance 0.45 m (...); step_height = 0.57 joins
/// the two sides (checked by building again)", or for an island the
/// largest is reached from by a drop only: "a drop (0.80 m across, 1.00 m
/// down) leads to the other side, but the way back, a jump up (0.80 m
/// across, 1.00 m up), is refused: step 1.00 m > max step 0.50 m (...)".
/// `refused` are the refusals of the way from `gap.from` to `gap.to`,
/// `back` those of the way back, when measured. Where no fix was found,
/// says so; `None`: no fix was searched.
pub fn with_reason(
    mut gap: Gap,
    refused: &[Refusal],
    back: &[Refusal],
    fixes: Option<Vec<Fix>>,
) -> Gap {
    let words = |rs: &[Refusal]| {
        rs.iter()
            .map(|r| r.words.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let why = ways_words(&gap, &words(refused), &words(back));
    let searched = fixes.is_some();
    let fixes = fixes.unwrap_or_default();
    let fix = match fixes.first() {
        Some(f) => format!(
            "{} = {} joins the two sides (checked by building again)",
            f.parameter, f.value
        ),
        None if searched => "no single parameter joins the two sides".into(),
        None => "fix not searched".into(),
    };
    gap.reason = format!("{why}; {fix}");
    gap.fix = fixes;
    gap
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec::float("step", "Step", "m", 0.4, 0.0, 2.0, 0.01, "highest step"),
            ParamSpec::int("cells", "Cells", "", 8, 0, 100, "region size in cells"),
            ParamSpec::bool("on", "On", true, "a switch"),
        ]
    }

    #[test]
    fn bisection_finds_the_threshold_within_a_step() {
        let s = specs();
        let v = ParamValues::defaults(&s);
        let mut calls = 0;
        let fixes = find_fixes(&s, &v, &[], &[], &long_budget(), &mut |v| {
            calls += 1;
            v.float("step") >= 0.56
        });
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        let ParamValue::Float(x) = fixes[0].value else {
            panic!("a float")
        };
        assert!((0.56..=0.57).contains(&x), "{x}");
        assert!(calls <= 24);
    }

    fn long_budget() -> FixBudget {
        FixBudget {
            per_parameter: 12,
            total: 40,
            time: Duration::from_secs(3600),
        }
    }

    #[test]
    fn the_refusing_rule_comes_first_and_the_search_stops_at_the_first_that_joins() {
        let s = specs();
        let v = ParamValues::defaults(&s);
        let mut tried = Vec::new();
        let mut joins = |v: &ParamValues| {
            tried.push((v.float("step"), v.int("cells")));
            v.int("cells") <= 6 || v.float("step") >= 1.5
        };
        let fixes = find_fixes(&s, &v, &["cells".into()], &[], &long_budget(), &mut joins);
        assert_eq!(
            fixes,
            vec![Fix {
                parameter: "cells".into(),
                value: ParamValue::Int(6)
            }]
        );
        // The step, which would join too, was never changed.
        assert!(tried.iter().all(|(step, _)| *step == 0.4), "{tried:?}");
        // Without a refusing rule, the first governing parameter joins.
        let fixes = find_fixes(&s, &v, &[], &[], &long_budget(), &mut |v| {
            v.int("cells") <= 6 || v.float("step") >= 1.5
        });
        assert_eq!(fixes.len(), 1);
        assert_eq!(fixes[0].parameter, "step");
    }

    #[test]
    fn the_measured_value_is_tried_first_and_saves_builds() {
        let s = specs();
        let v = ParamValues::defaults(&s);
        let two = FixBudget {
            per_parameter: 2,
            ..long_budget()
        };
        let joins = |v: &ParamValues| v.float("step") >= 0.56;
        // Two builds (the low end, then the high end) leave the high end
        // unbisected ...
        let far = find_fixes(&s, &v, &[], &[], &two, &mut |v| joins(v));
        assert_eq!(far[0].value, ParamValue::Float(2.0));
        // ... from the measured 0.56, that value itself.
        let near = [("step".to_string(), 0.56)];
        let fixes = find_fixes(&s, &v, &[], &near, &two, &mut |v| joins(v));
        assert_eq!(fixes[0].value, ParamValue::Float(0.56));
        // A measured value that does not join falls back to the end.
        let wrong = [("step".to_string(), 0.5)];
        let fixes = find_fixes(&s, &v, &[], &wrong, &long_budget(), &mut |v| joins(v));
        let ParamValue::Float(x) = fixes[0].value else {
            panic!("a float")
        };
        assert!((0.56..=0.57).contains(&x), "{x}");
    }

    #[test]
    fn a_change_only_an_unphysical_agent_makes_is_no_fix() {
        let s = vec![ParamSpec::float(
            "stand.height",
            "Height",
            "m",
            1.8,
            0.0,
            20.0,
            0.05,
            "agent height",
        )];
        let v = ParamValues::defaults(&s);
        let mut lowest = f64::INFINITY;
        let fixes = find_fixes(&s, &v, &[], &[], &long_budget(), &mut |v| {
            lowest = lowest.min(v.float("stand.height"));
            v.float("stand.height") <= 0.5
        });
        assert!(fixes.is_empty(), "{fixes:?}");
        assert!(
            lowest >= 1.8 / crate::fix_range::AGENT_FACTOR - 1e-9,
            "{lowest}"
        );
        // Within the factor, the fix is found.
        let fixes = find_fixes(&s, &v, &[], &[], &long_budget(), &mut |v| {
            v.float("stand.height") <= 1.5
        });
        assert_eq!(fixes[0].value, ParamValue::Float(1.5));
    }

    #[test]
    fn nothing_joins_gives_no_fix_and_the_budget_bounds_the_builds() {
        let s = specs();
        let v = ParamValues::defaults(&s);
        let mut calls = 0;
        let budget = FixBudget {
            per_parameter: 8,
            total: 3,
            time: Duration::from_secs(3600),
        };
        let fixes = find_fixes(&s, &v, &[], &[], &budget, &mut |_| {
            calls += 1;
            false
        });
        assert!(fixes.is_empty());
        assert_eq!(calls, 3);
        let gap = with_reason(
            Gap::between(DVec3::ZERO, DVec3::new(0.0, 0.3, 0.0)),
            &[],
            &[],
            Some(fixes),
        );
        assert!(gap.reason.contains("no single parameter"), "{}", gap.reason);
    }
}
