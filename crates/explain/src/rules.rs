//! The rules that refuse a link, per pipeline, and the reason a gap's
//! link was refused: the geometry of the gap measured on the level (height
//! between the sides, width of the hole between them, the narrowest
//! opening and the lowest headroom along the way) against the pipeline's
//! parameters, e.g. "step 0.56 m > step tolerance 0.45 m".
//!
//! The rule table names each pipeline's parameters (checked against the
//! pipelines' own parameter lists by a test). Choices:
//! - An opening is measured across the way (perpendicular to the line
//!   between the two sides, in plan) at three heights between the step
//!   and the agent's height, the narrowest counting; a box agent (cspace)
//!   compares it with its size along that axis, a cylinder with twice its
//!   radius.
//! - A place along the way whose floor is more than the step (at least
//!   [`crate::gap::STEP`]) below the line between the sides, or has no
//!   floor, is a hole: the link would be a jump across it.
//! - A gap whose two ends (a little above each), or the middle of the
//!   straight way between them, lie in the level's water (a mesh level's
//!   water boxes, a brush level's water brushes) is a swim, not a jump or
//!   a step: its rules are measured at the middle of the way, against the
//!   water's top, the ceiling over it and the floor under it. Both
//!   pipelines swim anywhere in the water (a passage flooded to its
//!   ceiling too), so the room is from the submerged floor up to the
//!   ceiling: against `swim.height` in `voxel` (its swim nodes float at
//!   the surface, or under the ceiling of a flooded passage), with the
//!   depth against `swim.min_water`; against `stand_height` in `cspace`
//!   (its swims join the submerged floor polygons the agent's box stands
//!   on). The global water level of voxel's
//!   `water_level_on` is not water here (it is a parameter, not the
//!   level's).
//! - When nothing measured breaks a rule, no rule is named and the gap
//!   keeps its geometric description.

use glam::DVec3;
use navscope_core::params::ParamValues;
use navscope_core::{LinkKind, ParamValue};

use crate::gap::{Gap, STEP};
use crate::solids::{Hit, Solids};

/// One rule's parameter and its current value.
#[derive(Clone, Debug, PartialEq)]
pub struct Limit {
    /// Parameter name, as `--set` takes it.
    pub parameter: String,
    /// What the value means, in words ("step tolerance").
    pub label: &'static str,
    /// The value compared with the geometry (twice a radius for a width).
    pub value: f64,
    /// The paper section or Recast function that applies the rule.
    pub source: &'static str,
    /// The id of the stage that applies it.
    pub stage: &'static str,
}

/// The limits of one pipeline (absent: the pipeline has no such rule).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rules {
    /// The pipeline id.
    pub pipeline: String,
    /// The stage that finds the walkable surface (where a point with no
    /// surface under it is dropped).
    pub surface: &'static str,
    /// Highest step walked up or down.
    pub step: Option<Limit>,
    /// Highest jump up.
    pub jump_height: Option<Limit>,
    /// Widest jump across.
    pub jump_reach: Option<Limit>,
    /// Whether a jump reach of 0 turns every jump off, up ledges too
    /// (voxel's running jumps), rather than only the jumps across gaps.
    pub reach_gates_jumps: bool,
    /// Deepest drop.
    pub drop: Option<Limit>,
    /// Narrowest opening along X (or for a cylinder, any way).
    pub width_x: Option<Limit>,
    /// Narrowest opening along Z.
    pub width_z: Option<Limit>,
    /// Lowest headroom.
    pub height: Option<Limit>,
    /// Steepest walkable slope, degrees.
    pub slope: Option<Limit>,
    /// Smallest region kept, cells.
    pub min_region: Option<Limit>,
    /// Radius kept from walls (the erosion), metres.
    pub radius: Option<Limit>,
    /// Least room a swimmer needs between the submerged floor and the
    /// ceiling, metres.
    pub swim_height: Option<Limit>,
    /// Least water depth a swimmer needs, metres.
    pub swim_depth: Option<Limit>,
}

/// A numeric parameter value as a real; `None` for others or none.
pub(crate) fn number(v: Option<&ParamValue>) -> Option<f64> {
    match v? {
        ParamValue::Float(x) => Some(*x),
        ParamValue::Int(i) => Some(*i as f64),
        _ => None,
    }
}

/// The limit of parameter `name` in `values` times `factor`; `None` when
/// `values` has no number by that name.
fn limit(
    values: &ParamValues,
    name: &str,
    label: &'static str,
    factor: f64,
    stage: &'static str,
    source: &'static str,
) -> Option<Limit> {
    Some(Limit {
        parameter: name.to_string(),
        label,
        value: number(values.get(name))? * factor,
        source,
        stage,
    })
}

impl Rules {
    /// The rules of pipeline `id` with `values` (parameters missing from
    /// `values` leave their rule out).
    pub fn for_pipeline(id: &str, values: &ParamValues) -> Self {
        let lim =
            |name: &str,
             label: &'static str,
             factor: f64,
             stage: &'static str,
             source: &'static str| limit(values, name, label, factor, stage, source);
        let mut r = Rules {
            pipeline: id.to_string(),
            ..Default::default()
        };
        match id {
            "voxel" => r.voxel_stance(values, "stand"),
            "cspace" => {
                r.surface = "walkable";
                r.step = lim(
                    "step_height",
                    "step tolerance",
                    1.0,
                    "links",
                    "Golodetz §4.3, step links",
                );
                r.jump_height = lim(
                    "jump_height",
                    "jump height",
                    1.0,
                    "links",
                    "Golodetz §4.3, jump links",
                );
                r.jump_reach = lim(
                    "jump_reach",
                    "jump reach",
                    1.0,
                    "extra-links",
                    "cspace running jumps across gaps",
                );
                r.drop = lim(
                    "max_drop",
                    "max drop",
                    1.0,
                    "extra-links",
                    "cspace one-way drops",
                );
                r.width_x = lim(
                    "agent_width",
                    "agent width",
                    1.0,
                    "expand",
                    "Golodetz §3, brush expansion by the agent's box",
                );
                r.width_z = lim(
                    "agent_depth",
                    "agent depth",
                    1.0,
                    "expand",
                    "Golodetz §3, brush expansion by the agent's box",
                );
                r.height = lim(
                    "stand_height",
                    "standing height",
                    1.0,
                    "expand",
                    "Golodetz §3, brush expansion by the agent's box",
                );
                r.slope = lim(
                    "max_slope",
                    "walkable slope",
                    1.0,
                    "walkable",
                    "Golodetz §4.1, walkable faces",
                );
                r.swim_height = lim(
                    "stand_height",
                    "standing height",
                    1.0,
                    "expand",
                    "cspace swims link the submerged floor polygons the agent's box stands on (navscope_core::swim, Yao graph)",
                );
            }
            "navgraph" | "navgraph-nodes" => {
                let (stage, source) = if id == "navgraph" {
                    (
                        "binary",
                        "navgraph binary image, obstacles dilated by the radius",
                    )
                } else {
                    (
                        "inflate",
                        "navgraph-nodes, obstacles inflated by the radius",
                    )
                };
                r.surface = stage;
                r.width_x = lim(
                    "agent_radius",
                    "agent width (twice agent_radius)",
                    2.0,
                    stage,
                    source,
                );
                r.width_z = r.width_x.clone();
                r.radius = lim("agent_radius", "agent radius", 1.0, stage, source);
            }
            _ => {}
        }
        r
    }

    /// The voxel rules of one pass's agent (`stance`: "stand", "crouch",
    /// "prone", "swim" or "sidestep"), with the shared drop and jump rules.
    pub fn voxel_stance(&mut self, values: &ParamValues, stance: &str) {
        let (height_label, width_label) = match stance {
            "crouch" => ("crouching height", "agent width (twice crouch.radius)"),
            "prone" => ("prone height", "agent width (twice prone.radius)"),
            "swim" => ("swimming height", "agent width (twice swim.radius)"),
            "sidestep" => ("sidestepping height", "agent width (twice sidestep.radius)"),
            _ => ("standing height", "agent width (twice stand.radius)"),
        };
        self.surface = "voxelize";
        self.step = limit(
            values,
            &format!("{stance}.max_step"),
            "max step",
            1.0,
            "compact",
            "Recast walkableClimb, rcBuildCompactHeightfield",
        );
        self.drop = limit(
            values,
            "max_drop",
            "max drop",
            1.0,
            "drops",
            "voxel drops stage",
        );
        self.jump_height = limit(
            values,
            "jump_height",
            "jump height",
            1.0,
            "drops",
            "voxel drops stage, running jumps (navscope_core::jump::Reach)",
        );
        self.jump_reach = limit(
            values,
            "jump_reach",
            "jump reach",
            1.0,
            "drops",
            "voxel drops stage, running jumps (navscope_core::jump::Reach)",
        );
        self.reach_gates_jumps = true;
        self.height = limit(
            values,
            &format!("{stance}.height"),
            height_label,
            1.0,
            "compact",
            "Recast walkableHeight, rcFilterWalkableLowHeightSpans",
        );
        self.width_x = limit(
            values,
            &format!("{stance}.radius"),
            width_label,
            2.0,
            "flag",
            "Recast walkableRadius, rcErodeWalkableArea",
        );
        self.width_z = self.width_x.clone();
        self.radius = limit(
            values,
            &format!("{stance}.radius"),
            "agent radius",
            1.0,
            "flag",
            "Recast walkableRadius, rcErodeWalkableArea",
        );
        self.slope = limit(
            values,
            &format!("{stance}.max_slope"),
            "max slope",
            1.0,
            "compact",
            "Recast walkableSlopeAngle, rcMarkWalkableTriangles",
        );
        self.swim_height = limit(
            values,
            "swim.height",
            "swimming height",
            1.0,
            "compact",
            "voxel swim pass, the low-height filter: a swimmer's room is measured from the submerged floor",
        );
        self.swim_depth = limit(
            values,
            "swim.min_water",
            "min water depth",
            1.0,
            "compact",
            "voxel swim pass, water depth filter",
        );
        self.min_region = limit(
            values,
            "min_region_size",
            "min region size",
            1.0,
            "regions",
            "Recast minRegionArea, rcBuildRegions",
        );
    }

    /// Every parameter a rule names, each once.
    pub fn parameters(&self) -> Vec<String> {
        let mut out: Vec<String> = [
            &self.step,
            &self.jump_height,
            &self.jump_reach,
            &self.drop,
            &self.width_x,
            &self.width_z,
            &self.height,
            &self.slope,
            &self.min_region,
            &self.radius,
            &self.swim_height,
            &self.swim_depth,
        ]
        .into_iter()
        .flatten()
        .map(|l| l.parameter.clone())
        .collect();
        out.dedup();
        let mut seen = std::collections::BTreeSet::new();
        out.retain(|p| seen.insert(p.clone()));
        out
    }
}

/// A rule broken by a measured value.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The rule's limit.
    pub limit: Limit,
    /// The measured value.
    pub measured: f64,
    /// The refusal in words, e.g. "step 0.56 m > step tolerance 0.45 m
    /// (Golodetz §4.3, step links)".
    pub words: String,
}

impl Refusal {
    /// A refusal no parameter governs (no such link in the pipeline, a
    /// door in the way): its words only, with an empty limit.
    fn without_rule(words: String) -> Self {
        Refusal {
            limit: Limit {
                parameter: String::new(),
                label: "",
                value: 0.0,
                source: "",
                stage: "",
            },
            measured: 0.0,
            words,
        }
    }
}

fn refuse(
    limit: &Limit,
    what: &str,
    measured: f64,
    above: bool,
    unit: &str,
    at: &str,
) -> Option<Refusal> {
    let broken = if above {
        measured > limit.value + 1e-9
    } else {
        measured < limit.value - 1e-9
    };
    broken.then(|| Refusal {
        limit: limit.clone(),
        measured,
        words: format!(
            "{what} {measured:.2}{unit} {} {} {:.2}{unit}{at} ({})",
            if above { ">" } else { "<" },
            limit.label,
            limit.value,
            limit.source
        ),
    })
}

/// What the way between two sides looks like on the level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Way {
    /// Plan width of the widest stretch without a floor near the line
    /// (a hole to jump), metres; 0 when the floor is continuous.
    pub hole: f64,
    /// The widest opening the way can pass through near the line, and
    /// what bounds it; `Some((0, ..))` when a wall closes the way.
    pub opening: Option<(f64, String)>,
    /// The lowest headroom over the floor along the line, and what bounds
    /// it.
    pub headroom: Option<(f64, String)>,
    /// A door brush standing in the way, described with what opens it.
    pub door: Option<String>,
}

/// Free space measured up to this far (metres).
const FAR: f64 = 50.0;
/// Openings are looked for this far to either side of the line (metres).
const SIDE: f64 = 2.0;
/// How far to either side along the way a ceiling is looked for again
/// (metres; see [`measure_way`]).
const NUDGE: f64 = 0.01;
/// Spacing of the rays that look for an opening (metres).
const SCAN: f64 = 0.02;

/// Measures the way from `a` to `b` on `solids` for an agent of `height`
/// climbing `climb` (see the module docs): floor and headroom at points
/// along the line; and, when the two sides are level, the opening: rays
/// parallel to the line, side by side across it, at the knee and at the
/// chest (below the lowest headroom), the widest run of rays that reach
/// `b`'s end being the opening.
pub fn measure_way(solids: &Solids, a: DVec3, b: DVec3, height: f64, climb: f64) -> Way {
    let plan = DVec3::new(b.x - a.x, 0.0, b.z - a.z);
    let len = plan.length();
    let dir = if len > 1e-9 { plan / len } else { DVec3::X };
    let across = DVec3::new(-dir.z, 0.0, dir.x);
    let n = ((len / 0.1).ceil() as usize).clamp(2, 60);
    let allowance = climb.max(STEP);
    let mut way = Way::default();
    let floor_at = |s: f64| {
        let top = a.lerp(b, s) + DVec3::Y * allowance;
        solids
            .ray(top, -DVec3::Y, FAR)
            .map(|(t, hit)| (top - DVec3::Y * t, hit))
            .filter(|(f, _)| f.y >= top.y - 2.0 * allowance)
    };
    // A sample inside a solid (a brush met at once) is in a wall: neither
    // floor nor hole.
    let in_wall = |s: f64| {
        let top = a.lerp(b, s) + DVec3::Y * allowance;
        solids
            .ray(top, -DVec3::Y, FAR)
            .is_some_and(|(t, _)| t == 0.0)
    };
    // The edge of the floor between samples `s0` (floor or not) and `s1`
    // (the other), by bisection.
    let edge = |mut s0: f64, mut s1: f64| {
        let floor0 = floor_at(s0).is_some();
        for _ in 0..12 {
            let m = (s0 + s1) / 2.0;
            if floor_at(m).is_some() == floor0 {
                s0 = m;
            } else {
                s1 = m;
            }
        }
        (s0 + s1) / 2.0
    };
    // The ceiling over the floor `f` found at sample `s`: the highest of
    // the ceilings found there and [`NUDGE`] to either side along the
    // way, so that a sample on the very edge of a ledge (its ray grazing
    // the ledge's corner) does not take the ledge's top for a ceiling.
    let ceiling = |f: DVec3, s: f64| {
        let up = |f: DVec3| {
            solids
                .ray(f + DVec3::Y * 0.02, DVec3::Y, FAR)
                .filter(|(t, _)| *t > 0.0)
                .map(|(t, hit)| (t + 0.02, hit))
        };
        let nudge = if len > 1e-9 { NUDGE / len } else { 0.0 };
        let mut best = up(f)?;
        for n in [s - nudge, s + nudge] {
            let Some((g, _)) = floor_at(n) else { continue };
            match up(g) {
                None => return None,
                Some(c) if c.0 > best.0 => best = c,
                Some(_) => {}
            }
        }
        Some(best)
    };
    let mut hole_start: Option<f64> = None;
    let mut last = 0.0;
    for k in 0..=n {
        let s = k as f64 / n as f64;
        if in_wall(s) {
            continue;
        }
        let Some((f, _)) = floor_at(s) else {
            // No floor within reach: a hole.
            hole_start.get_or_insert(if k == 0 { 0.0 } else { edge(last, s) });
            last = s;
            continue;
        };
        if let Some(h0) = hole_start.take() {
            way.hole = way.hole.max((edge(last, s) - h0) * len);
        }
        last = s;
        if let Some((t, hit)) = ceiling(f, s)
            && way.headroom.as_ref().is_none_or(|(h, _)| t < *h)
        {
            way.headroom = Some((t, solids.describe(hit, DVec3::Y)));
        }
    }
    if let Some(h0) = hole_start {
        way.hole = way.hole.max((1.0 - h0) * len);
    }
    let chest = way.headroom.as_ref().map_or(height, |(h, _)| h.min(height)) * 0.5;
    let heights = [climb + 0.05, chest.max(climb + 0.05)];
    let start = DVec3::new(a.x, a.y.max(b.y), a.z);
    if (b.y - a.y).abs() <= climb && len > 1e-9 {
        way.opening = Some(opening(solids, start, dir, across, len, &heights));
    }
    let mid = start + DVec3::Y * heights[0];
    if let Some((_, hit)) = solids.ray(DVec3::new(a.x, mid.y, a.z), dir, len)
        && solids.is_door(hit)
    {
        let opener = solids
            .opener(hit)
            .map(|o| format!(", {o},"))
            .unwrap_or_default();
        way.door = Some(format!("{}{opener}", solids.describe(hit, dir)));
    }
    way
}

/// The widest run of clear rays from `from` along `dir` (length `len`)
/// offset across the way, at every height of `heights` above `from`, and
/// what bounds it (see [`measure_way`]). A ray whose start has no floor
/// under it (past the floor's edge) counts as blocked.
fn opening(
    solids: &Solids,
    from: DVec3,
    dir: DVec3,
    across: DVec3,
    len: f64,
    heights: &[f64],
) -> (f64, String) {
    let steps = (SIDE / SCAN).round() as i64;
    let reach = heights.first().copied().unwrap_or(STEP);
    let blocked = |k: i64| -> Option<String> {
        let o = from + across * (k as f64 * SCAN);
        let origin = DVec3::new(o.x, from.y, o.z);
        let top = origin + DVec3::Y * reach;
        if solids.ray(top, -DVec3::Y, 2.0 * reach).is_none() {
            return Some("the floor's edge".into());
        }
        heights
            .iter()
            .find_map(|h| solids.ray(origin + DVec3::Y * h, dir, len))
            .map(|(_, hit)| solids.describe(hit, dir))
    };
    let hits: Vec<Option<String>> = (-steps..=steps).map(blocked).collect();
    let (mut best, mut run) = ((0usize, 0usize), None::<usize>);
    for i in 0..=hits.len() {
        let clear = hits.get(i).is_some_and(Option::is_none);
        match (clear, run) {
            (true, None) => run = Some(i),
            (false, Some(s)) => {
                if i - s > best.1 - best.0 {
                    best = (s, i);
                }
                run = None;
            }
            _ => {}
        }
    }
    let width = (best.1 - best.0) as f64 * SCAN;
    let name = |i: Option<usize>| {
        i.and_then(|i| hits.get(i).cloned().flatten())
            .unwrap_or_else(|| "open space".into())
    };
    if width == 0.0 {
        let k = steps as usize;
        return (0.0, format!("a wall closes the way: {}", name(Some(k))));
    }
    (
        width,
        format!(
            "between {} and {}",
            name(best.0.checked_sub(1)),
            name(Some(best.1))
        ),
    )
}

/// The rules `gap`'s link breaks, the first being the cause: on the level
/// (when its solids are known) the narrowest opening and the lowest
/// headroom, then the height or width of the jump, step or drop, then a
/// door in the way. Empty when no rule is broken by what was measured.
pub fn refusals(rules: &Rules, gap: &Gap, solids: Option<&Solids>) -> Vec<Refusal> {
    if let Some(s) = solids
        && let Some(water) = underwater(s, gap)
    {
        return swim_refusals(rules, &water);
    }
    let mut out = Vec::new();
    let stand = rules.height.as_ref().map_or(1.8, |l| l.value);
    let climb = rules.step.as_ref().map_or(STEP, |l| l.value);
    let way = solids.map(|s| measure_way(s, gap.from, gap.to, stand, climb));
    let plan = gap.plan();
    let hole = way.as_ref().map_or(plan, |w| w.hole);
    if let Some(w) = &way {
        let d = gap.to - gap.from;
        let opening_along_x = d.z.abs() >= d.x.abs();
        let width = if opening_along_x {
            &rules.width_x
        } else {
            &rules.width_z
        };
        if let (Some(l), Some((h, by))) = (&rules.height, &w.headroom) {
            out.extend(refuse(
                l,
                "headroom",
                *h,
                false,
                " m",
                &format!(" under {by}"),
            ));
        }
        if let (Some(l), Some((o, by))) = (width, &w.opening)
            && *o > 0.0
            && hole <= 0.0
        {
            out.extend(refuse(l, "opening", *o, false, " m", &format!(" {by}")));
        }
    }
    let h = gap.height;
    let none = |what: &str| {
        Refusal::without_rule(format!("{what}: {} makes no such link", rules.pipeline))
    };
    // Jumps turned off by a zero reach (voxel): the step refuses the climb,
    // and the reach is named as the other way up.
    let jumps_off =
        rules.reach_gates_jumps && rules.jump_reach.as_ref().is_some_and(|r| r.value <= 0.0);
    let jump_height = if jumps_off { &None } else { &rules.jump_height };
    if h > STEP || (h > 0.0 && gap.link == LinkKind::StepUp) {
        match (&rules.step, jump_height) {
            (Some(s), _) if h <= s.value + 1e-9 => {}
            (_, Some(j)) => out.extend(refuse(j, "jump up", h, true, " m", "")),
            (Some(s), None) if jumps_off => {
                out.extend(refuse(s, "step", h, true, " m", ""));
                out.extend(
                    rules
                        .jump_reach
                        .as_ref()
                        .and_then(|r| refuse(r, "jump up", h, true, " m", " (running jumps off)")),
                );
            }
            (Some(s), None) => out.extend(refuse(s, "step", h, true, " m", "")),
            (None, None) => out.push(none(&format!("a climb of {h:.2} m"))),
        }
    } else if h < -STEP || (h < 0.0 && gap.link == LinkKind::StepDown) {
        match (&rules.step, &rules.drop) {
            (Some(s), _) if -h <= s.value + 1e-9 => {}
            (_, Some(d)) => out.extend(refuse(d, "drop", -h, true, " m", "")),
            (Some(s), None) => out.extend(refuse(s, "step", -h, true, " m", "")),
            (None, None) => out.push(none(&format!("a drop of {:.2} m", -h))),
        }
    }
    if hole > crate::gap::TOUCH && h.abs() <= STEP {
        match &rules.jump_reach {
            Some(r) => out.extend(refuse(r, "gap", hole, true, " m", "")),
            None if way.is_some() => out.push(none(&format!("a jump across a gap of {hole:.2} m"))),
            None => {}
        }
    }
    if let Some(door) = way.and_then(|w| w.door) {
        out.push(Refusal::without_rule(format!(
            "{door} stands in the way and no door link crosses it"
        )));
    }
    out.extend(solids.and_then(|s| stacked(s, gap)));
    out
}

/// The water at one place of a gap whose link is a swim: the water's top,
/// the ceiling over the place (none: open to the sky within [`FAR`]) and
/// the floor under it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Underwater {
    /// Where along the way, in words ("at the middle").
    pub at: &'static str,
    /// Top of the water, y.
    pub top: f64,
    /// Ceiling over the place, y.
    pub ceiling: Option<f64>,
    /// Floor under the place, y.
    pub floor: f64,
}

/// Places this far above a gap's ends are tested for water (metres).
const WET: f64 = 0.05;

/// The water of `gap` when its link is a swim: both ends, or the middle
/// of the straight way, lie under water (a point [`WET`] above each in a
/// water volume); measured at each of the start's end, the middle and the
/// far end that is wet. `None` otherwise.
pub fn underwater(solids: &Solids, gap: &Gap) -> Option<Vec<Underwater>> {
    let up = DVec3::Y * WET;
    let places = [
        ("at the start's side", gap.from + up),
        ("at the middle", gap.from.lerp(gap.to, 0.5) + up),
        ("at the far side", gap.to + up),
    ];
    let tops = places.map(|(_, p)| solids.water_top(p));
    if tops[1].is_none() && (tops[0].is_none() || tops[2].is_none()) {
        return None;
    }
    let measure = |(at, p): (&'static str, DVec3), top: f64| Underwater {
        at,
        top,
        floor: solids
            .ray(p, -DVec3::Y, FAR)
            .map_or(p.y - WET, |(t, _)| p.y - t),
        ceiling: solids
            .ray(p, DVec3::Y, FAR)
            .filter(|(t, _)| *t > 0.0)
            .map(|(t, _)| p.y + t),
    };
    Some(
        places
            .into_iter()
            .zip(tops)
            .filter_map(|(place, top)| Some(measure(place, top?)))
            .collect(),
    )
}

impl Underwater {
    /// The room a swimmer has here, from the floor up to the ceiling;
    /// `None` when open to the sky.
    fn room(&self) -> Option<f64> {
        Some((self.ceiling? - self.floor).max(0.0))
    }

    /// The water here in words.
    fn words(&self) -> String {
        let at = self.at;
        match self.ceiling {
            Some(c) if self.top >= c - 1e-6 => format!(
                "the water fills the passage to its ceiling (water top y = {:.2}, ceiling y = {c:.2} {at})",
                self.top
            ),
            Some(c) => format!(
                "the water's top is {:.2} m under the ceiling (water top y = {:.2}, ceiling y = {c:.2}, floor y = {:.2} {at})",
                c - self.top,
                self.top,
                self.floor
            ),
            None => format!(
                "the water is open to the sky (water top y = {:.2}, floor y = {:.2} {at})",
                self.top, self.floor
            ),
        }
    }
}

/// The rules that refuse a swim through `water` (its places along the
/// way): the least room a swimmer has over a place (from the submerged
/// floor to the ceiling) against the swimming height, and the least depth against the least depth allowed; a
/// pipeline without swim rules says so.
fn swim_refusals(rules: &Rules, water: &[Underwater]) -> Vec<Refusal> {
    let mut out = Vec::new();
    let Some(first) = water.first() else {
        return out;
    };
    let Some(h) = &rules.swim_height else {
        out.push(Refusal::without_rule(format!(
            "{}, and {} makes no swim links",
            first.words(),
            rules.pipeline
        )));
        return out;
    };
    let tightest = water
        .iter()
        .filter_map(|w| Some((w.room()?, w)))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((room, w)) = tightest {
        let rule = format!(
            "{} swims only where the swimmer's height fits between the submerged floor and the ceiling",
            rules.pipeline
        );
        if room < h.value - 1e-9 {
            out.push(Refusal {
                limit: h.clone(),
                measured: room,
                words: format!(
                    "{}, and {rule}: room {room:.2} m < {} {:.2} m ({}, {})",
                    w.words(),
                    h.label,
                    h.value,
                    h.parameter,
                    h.source
                ),
            });
        }
    }
    if let Some(d) = &rules.swim_depth
        && let Some((depth, w)) = water
            .iter()
            .map(|w| (w.top - w.floor, w))
            .min_by(|a, b| a.0.total_cmp(&b.0))
        && depth < d.value - 1e-9
    {
        out.push(Refusal {
            limit: d.clone(),
            measured: depth,
            words: format!(
                "{}: water depth {depth:.2} m < {} {:.2} m ({}, {})",
                w.words(),
                d.label,
                d.value,
                d.parameter,
                d.source
            ),
        });
    }
    out
}

/// Sides one above the other (at most [`STEP`] apart in plan, more than
/// a step in height) with solid matter between them: the closest places
/// of the two regions are a floor apart, and the way from one to the
/// other, if any, goes round elsewhere. Cast upwards from just above the
/// lower side to the upper one.
fn stacked(solids: &Solids, gap: &Gap) -> Option<Refusal> {
    if gap.plan() > STEP || gap.height.abs() <= STEP {
        return None;
    }
    let (lo, hi) = if gap.height > 0.0 {
        (gap.from, gap.to)
    } else {
        (gap.to, gap.from)
    };
    let start = lo + DVec3::Y * 0.05;
    let d = hi - start;
    let len = d.length();
    let (_, hit) = solids.ray(start, d / len, len - 0.01)?;
    // A door says what opens it (the description names it a door).
    let door = solids
        .opener(hit)
        .map(|o| format!(", {o},"))
        .unwrap_or_default();
    Some(Refusal::without_rule(format!(
        "the two sides are one above the other with {}{door} between them, so the way from one to the other, if any, goes round elsewhere",
        solids.describe(hit, d / len)
    )))
}

/// The first stretch of a ray from `p` in any of 16 plan directions at
/// `y` above the floor that meets a wall within `radius`: the distance and
/// the wall.
pub fn nearest_wall(solids: &Solids, p: DVec3, radius: f64) -> Option<(f64, DVec3, Hit)> {
    (0..16)
        .filter_map(|k| {
            let a = k as f64 * std::f64::consts::TAU / 16.0;
            let dir = DVec3::new(a.cos(), 0.0, a.sin());
            let (t, hit) = solids.ray(p, dir, radius)?;
            Some((t, dir, hit))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use navscope_core::geom::TriMesh;

    fn values(pairs: &[(&str, f64)]) -> (Vec<navscope_core::ParamSpec>, ParamValues) {
        let specs: Vec<_> = pairs
            .iter()
            .map(|(n, v)| navscope_core::ParamSpec::float(n, n, "m", *v, 0.0, 100.0, 0.01, ""))
            .collect();
        let v = ParamValues::defaults(&specs);
        (specs, v)
    }

    /// Two quads: a floor from x = 0 to 2 at y = 0, and one from 2 to 4 at
    /// `rise`.
    fn ledge(rise: f32) -> TriMesh {
        let q = |x0: f32, x1: f32, y: f32| {
            [
                Vec3::new(x0, y, -2.0),
                Vec3::new(x1, y, -2.0),
                Vec3::new(x1, y, 2.0),
                Vec3::new(x0, y, 2.0),
            ]
        };
        let mut vertices = q(0.0, 2.0, 0.0).to_vec();
        vertices.extend(q(2.0, 4.0, rise));
        TriMesh {
            vertices,
            triangles: vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]],
        }
    }

    #[test]
    fn a_ledge_higher_than_the_step_names_the_step_and_its_value() {
        let (_, v) = values(&[
            ("step_height", 0.45),
            ("jump_height", 0.3),
            ("stand_height", 1.8),
        ]);
        let rules = Rules::for_pipeline("cspace", &v);
        let mesh = ledge(0.56);
        let s = Solids::mesh(&mesh);
        let gap = Gap::between(DVec3::new(1.9, 0.0, 0.0), DVec3::new(2.1, 0.56, 0.0));
        let r = refusals(&rules, &gap, Some(&s));
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(
            r[0].words
                .starts_with("jump up 0.56 m > jump height 0.30 m"),
            "{}",
            r[0].words
        );
        let (_, v) = values(&[("step_height", 0.6), ("jump_height", 0.3)]);
        assert!(refusals(&Rules::for_pipeline("cspace", &v), &gap, Some(&s)).is_empty());
    }

    #[test]
    fn sides_one_above_the_other_are_parted_by_the_floor_between() {
        use navscope_core::brush::{Brush, BrushLevel, Contents};
        let slab = |y: f64| {
            Brush::cuboid(
                DVec3::new(0.0, y - 0.2, 0.0),
                DVec3::new(8.0, y, 4.0),
                Contents::Solid,
                None,
            )
        };
        let level = BrushLevel {
            brushes: vec![slab(0.0), slab(4.0)],
            ..Default::default()
        };
        let (_, v) = values(&[("step_height", 0.45), ("jump_height", 1.1)]);
        let rules = Rules::for_pipeline("cspace", &v);
        let s = Solids::brushes(&level);
        let gap = Gap::between(DVec3::new(3.0, 4.0, 2.0), DVec3::new(3.0, 0.0, 2.0));
        let r = refusals(&rules, &gap, Some(&s));
        assert!(
            r.iter()
                .any(|r| r.words.contains("one above the other with brush 1")),
            "{r:?}"
        );
        // A ledge with open air beside it: no floor between the sides.
        let level = BrushLevel {
            brushes: vec![slab(0.0)],
            ..Default::default()
        };
        let s = Solids::brushes(&level);
        let r = refusals(&rules, &gap, Some(&s));
        assert!(r.iter().all(|r| !r.words.contains("one above")), "{r:?}");
    }

    #[test]
    fn a_hole_between_level_sides_is_a_jump_across_it() {
        let (_, v) = values(&[("jump_reach", 2.5), ("step_height", 0.45)]);
        let rules = Rules::for_pipeline("cspace", &v);
        let mut mesh = ledge(0.0);
        // Move the second floor 3 m away: a hole from x = 2 to 5.
        for p in &mut mesh.vertices[4..] {
            p.x += 3.0;
        }
        let s = Solids::mesh(&mesh);
        let gap = Gap::between(DVec3::new(2.0, 0.0, 0.0), DVec3::new(5.0, 0.0, 0.0));
        let r = refusals(&rules, &gap, Some(&s));
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].words.starts_with("gap 3.0"), "{}", r[0].words);
        assert!(r[0].words.contains("> jump reach 2.50 m"), "{}", r[0].words);
    }

    #[test]
    fn a_door_in_the_way_says_what_opens_it() {
        use navscope_core::brush::{Brush, BrushLevel, Contents, Entity};
        let level = BrushLevel {
            brushes: vec![
                Brush::cuboid(
                    DVec3::new(0.0, -0.2, 0.0),
                    DVec3::new(8.0, 0.0, 4.0),
                    Contents::Solid,
                    None,
                ),
                Brush::cuboid(
                    DVec3::new(3.9, 0.0, 0.0),
                    DVec3::new(4.1, 3.0, 4.0),
                    Contents::Door,
                    Some(0),
                ),
            ],
            entities: vec![Entity::with_properties(
                "func_door",
                &[("spawnflags", "16")],
            )],
            ..Default::default()
        };
        let (_, v) = values(&[("step_height", 0.45), ("stand_height", 1.8)]);
        let rules = Rules::for_pipeline("cspace", &v);
        let s = Solids::brushes(&level);
        let gap = Gap::between(DVec3::new(3.0, 0.0, 2.0), DVec3::new(5.0, 0.0, 2.0));
        let r = refusals(&rules, &gap, Some(&s));
        let door = r
            .iter()
            .find(|r| r.words.contains("func_door"))
            .unwrap_or_else(|| panic!("{r:?}"));
        assert!(
            door.words.contains("opened by the silver key")
                && door.words.contains("no door link crosses it"),
            "{}",
            door.words
        );
    }

    /// A brush level: a floor slab at y = 0 (x 0..8, z 0..4), a ceiling
    /// slab from `ceiling` up, and water from the floor to `water_top`.
    fn pool(ceiling: f64, water_top: f64) -> navscope_core::brush::BrushLevel {
        use navscope_core::brush::{Brush, BrushLevel, Contents};
        let cuboid = |lo: [f64; 3], hi: [f64; 3], c: Contents| {
            Brush::cuboid(DVec3::from_array(lo), DVec3::from_array(hi), c, None)
        };
        BrushLevel {
            brushes: vec![
                cuboid([0.0, -0.2, 0.0], [8.0, 0.0, 4.0], Contents::Solid),
                cuboid(
                    [0.0, ceiling, 0.0],
                    [8.0, ceiling + 0.2, 4.0],
                    Contents::Solid,
                ),
                cuboid([0.0, 0.0, 0.0], [8.0, water_top, 4.0], Contents::Water),
            ],
            ..Default::default()
        }
    }

    const ACROSS: (DVec3, DVec3) = (DVec3::new(2.0, 0.0, 2.0), DVec3::new(6.0, 0.0, 2.0));

    #[test]
    fn voxel_measures_a_swimmers_room_from_the_submerged_floor() {
        let (_, v) = values(&[
            ("swim.height", 2.2),
            ("swim.min_water", 1.5),
            ("jump_reach", 6.0),
        ]);
        let rules = Rules::for_pipeline("voxel", &v);
        let level = pool(2.0, 2.5);
        let s = Solids::brushes(&level);
        let gap = Gap::between(ACROSS.0, ACROSS.1);
        let water = underwater(&s, &gap).expect("under water");
        assert_eq!(water.len(), 3);
        assert!(
            water
                .iter()
                .all(|w| w.top == 2.5 && w.ceiling == Some(2.0) && w.floor.abs() < 1e-9),
            "{water:?}"
        );
        // Flooded to a ceiling 2 m over the floor: too low for a 2.2 m
        // swimmer even on the floor.
        let r = refusals(&rules, &gap, Some(&s));
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].limit.parameter, "swim.height");
        assert!((r[0].measured - 2.0).abs() < 1e-9, "{}", r[0].measured);
        assert!(
            r[0].words.contains("fills the passage to its ceiling")
                && r[0].words.contains(
                    "between the submerged floor and the ceiling: room 2.00 m < swimming height 2.20 m"
                ),
            "{}",
            r[0].words
        );
        // A 0.5 m swimmer swims the same flooded passage: no swim rule is
        // broken (and no jump is named under water).
        let (_, small) = values(&[
            ("swim.height", 0.5),
            ("swim.min_water", 1.5),
            ("jump_reach", 6.0),
        ]);
        let small = Rules::for_pipeline("voxel", &small);
        assert!(refusals(&small, &gap, Some(&s)).is_empty());
        // Room enough, water deep enough, a surface under the ceiling: no
        // swim rule either.
        let level = pool(3.0, 2.0);
        let s = Solids::brushes(&level);
        assert!(refusals(&small, &gap, Some(&s)).is_empty());
        // Shallow water: the depth rule, with its parameter.
        let level = pool(3.0, 1.0);
        let s = Solids::brushes(&level);
        let r = refusals(&small, &gap, Some(&s));
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].limit.parameter, "swim.min_water");
        assert!(
            r[0].words
                .contains("water depth 1.00 m < min water depth 1.50 m"),
            "{}",
            r[0].words
        );
    }

    #[test]
    fn cspace_measures_a_swimmers_room_from_the_submerged_floor() {
        let (_, v) = values(&[("stand_height", 1.8), ("step_height", 0.45)]);
        let rules = Rules::for_pipeline("cspace", &v);
        let gap = Gap::between(ACROSS.0, ACROSS.1);
        // Flooded to a ceiling 2 m over the floor: the agent's box fits.
        let level = pool(2.0, 2.5);
        let s = Solids::brushes(&level);
        assert!(refusals(&rules, &gap, Some(&s)).is_empty());
        // A ceiling 1.5 m over the floor: it does not.
        let level = pool(1.5, 2.5);
        let s = Solids::brushes(&level);
        let r = refusals(&rules, &gap, Some(&s));
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].limit.parameter, "stand_height");
        assert!(
            r[0].words.contains(
                "between the submerged floor and the ceiling: room 1.50 m < standing height 1.80 m"
            ),
            "{}",
            r[0].words
        );
    }

    #[test]
    fn dry_ends_and_a_dry_way_are_no_swim() {
        let level = pool(3.0, 2.0);
        let s = Solids::brushes(&level);
        // Both ends above the water's top.
        let up = DVec3::Y * 2.5;
        assert!(underwater(&s, &Gap::between(ACROSS.0 + up, ACROSS.1 + up)).is_none());
        // A mesh with no water.
        let mesh = ledge(0.0);
        let s = Solids::mesh(&mesh);
        assert!(underwater(&s, &Gap::between(ACROSS.0, ACROSS.1)).is_none());
        // One end in the water, the other and the middle out of it.
        let level = pool(3.0, 2.0);
        let s = Solids::brushes(&level);
        let out = DVec3::new(20.0, 0.0, 2.0);
        assert!(underwater(&s, &Gap::between(ACROSS.0, out)).is_none());
    }

    #[test]
    fn the_rule_table_names_parameters_each_once() {
        let (_, v) = values(&[("stand.radius", 0.4), ("stand.max_step", 0.5)]);
        let r = Rules::for_pipeline("voxel", &v);
        assert_eq!(r.width_x.as_ref().map(|l| l.value), Some(0.8));
        assert_eq!(
            r.parameters(),
            vec!["stand.max_step".to_string(), "stand.radius".into()]
        );
        assert_eq!(
            Rules::for_pipeline("convex", &v).parameters(),
            Vec::<String>::new()
        );
    }
}
