//! Sub-step batches: regrouping a stage's drawing so that few groups show
//! at any sub-step.
//!
//! [`crate::model::prepare`] makes one group per kind and sub-step range,
//! and every group shown is a draw of its own (a retained gizmo, a fill
//! mesh) that Bevy extracts, queues and sorts every frame. A stage that
//! records thousands of sub-steps makes thousands of ranges: the portal
//! stage of a 30,000-vertex floor plan showed 8,191 groups at its end,
//! 29 ms of extraction in every frame. [`batch_for_steps`] regroups each
//! (kind, layer) that has more than [`MANY_RANGES`] ranges, with `end` the
//! stage's last sub-step and `w` = ⌈√(end + 1)⌉:
//! - what shows at the end (`first ≤ end ≤ last`) becomes one *final*
//!   group, shown at the end only;
//! - of it, what exists before the end is also put in *blocks* by its
//!   first sub-step: block `k` holds the firsts `k·w .. (k+1)·w - 1` and
//!   shows from `(k+1)·w - 1` (when all of it exists) up to `end - 1`;
//!   until the block is complete its own groups show, one per first
//!   sub-step, up to `(k+1)·w - 2`;
//! - what ends before the end keeps its group.
//!
//! So each primitive shows at exactly the sub-steps it did, and at a
//! sub-step before the end at most `2·w` groups of a kind show (the
//! completed blocks and the current block's firsts) besides the ones that
//! end early; at the end, one. The lines, points and fills of a primitive
//! that lasts to the end are kept three times (final, block, first), which
//! for lines and fills is small next to what the draws cost; groups of
//! voxels are never regrouped (voxel stages record a sub-step per pass).

use crate::model::group::Group;
use std::collections::BTreeMap;

/// A (kind, layer) with more ranges than this is regrouped.
pub const MANY_RANGES: usize = 64;

/// Regroups `groups` of a stage with `substeps` sub-steps (see the module
/// docs); stages of one sub-step or none are returned as they are.
pub fn batch_for_steps(groups: Vec<Group>, substeps: usize) -> Vec<Group> {
    if substeps < 2 {
        return groups;
    }
    let end = (substeps - 1) as u32;
    let mut by_key: BTreeMap<(String, Option<u32>), Vec<Group>> = BTreeMap::new();
    for g in groups {
        by_key.entry((g.kind.clone(), g.layer)).or_default().push(g);
    }
    let mut out = Vec::new();
    for (_, key_groups) in by_key {
        if key_groups.len() <= MANY_RANGES || key_groups.iter().any(|g| !g.cubes.is_empty()) {
            out.extend(key_groups);
        } else {
            out.extend(regroup(key_groups, end));
        }
    }
    out
}

/// Regroups the groups of one (kind, layer) of a stage whose last sub-step
/// is `end`.
fn regroup(groups: Vec<Group>, end: u32) -> Vec<Group> {
    let w = (f64::from(end) + 1.0).sqrt().ceil() as u32;
    let (kind, layer, value_range) = (
        groups[0].kind.clone(),
        groups[0].layer,
        groups[0].value_range,
    );
    let template = |first: u32, last: u32| Group {
        kind: kind.clone(),
        layer,
        value_range,
        first,
        last,
        ..Default::default()
    };
    let mut final_group = template(end, u32::MAX);
    let mut blocks: BTreeMap<u32, Group> = BTreeMap::new();
    let mut firsts: BTreeMap<(u32, u32), Group> = BTreeMap::new();
    let mut out = Vec::new();
    for g in groups {
        if !(g.first <= end && end <= g.last) {
            // Ends before the end: kept as it is.
            out.push(g);
            continue;
        }
        append(&mut final_group, &g);
        if g.first == end {
            continue;
        }
        let complete = (g.first / w + 1).saturating_mul(w) - 1;
        if complete < end {
            let block = blocks
                .entry(complete)
                .or_insert_with(|| template(complete, end - 1));
            append(block, &g);
        }
        let last = complete.min(end) - 1;
        if g.first <= last {
            let own = firsts
                .entry((g.first, last))
                .or_insert_with(|| template(g.first, last));
            append(own, &g);
        }
    }
    out.push(final_group);
    out.extend(blocks.into_values());
    out.extend(firsts.into_values());
    out
}

/// Adds what `from` draws to `into`.
fn append(into: &mut Group, from: &Group) {
    into.lines.extend_from_slice(&from.lines);
    into.points.extend_from_slice(&from.points);
    into.triangles.extend_from_slice(&from.triangles);
    into.labels.extend_from_slice(&from.labels);
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::Vec3;
    use proptest::prelude::*;

    /// A group of one line whose start names `id`.
    fn group(kind: &str, first: u32, last: u32, id: usize) -> Group {
        Group {
            kind: kind.into(),
            first,
            last,
            lines: vec![(Vec3::new(id as f32, 0.0, 0.0), Vec3::ONE, [1.0; 4])],
            ..Default::default()
        }
    }

    /// The ids of the lines shown at `step` and how many groups show them.
    fn shown_at(groups: &[Group], step: u32) -> (Vec<usize>, usize) {
        let on: Vec<&Group> = groups
            .iter()
            .filter(|g| g.first <= step && step <= g.last)
            .collect();
        let mut ids: Vec<usize> = on
            .iter()
            .flat_map(|g| g.lines.iter().map(|l| l.0.x as usize))
            .collect();
        ids.sort_unstable();
        (ids, on.len())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Every line shows at exactly the sub-steps it showed before, and
        /// few groups show at any one.
        #[test]
        fn each_line_shows_at_the_same_steps_through_few_groups(
            substeps in 2usize..400,
            ranges in prop::collection::vec((0u32..420, 0u32..60, prop::bool::ANY), 0..600),
        ) {
            let end = substeps as u32 - 1;
            let groups: Vec<Group> = ranges
                .iter()
                .enumerate()
                .map(|(id, &(first, len, to_end))| {
                    let last = if to_end { u32::MAX } else { first.saturating_add(len) };
                    group("portal", first, last, id)
                })
                .collect();
            let batched = batch_for_steps(groups.clone(), substeps);
            let w = ((end + 1) as f64).sqrt().ceil() as usize;
            for step in 0..=end {
                let (before, _) = shown_at(&groups, step);
                let (after, count) = shown_at(&batched, step);
                prop_assert_eq!(&before, &after, "step {}", step);
                if groups.len() > MANY_RANGES {
                    let early = groups
                        .iter()
                        .filter(|g| g.first <= step && step <= g.last && g.last < end)
                        .count();
                    let bound = if step == end { 1 } else { 2 * w };
                    prop_assert!(count <= bound + early, "step {}: {} groups", step, count);
                }
            }
        }
    }

    #[test]
    fn a_stage_of_many_steps_shows_one_group_of_a_kind_at_its_end() {
        let groups: Vec<Group> = (0..1000)
            .map(|i| group("portal", i, u32::MAX, i as usize))
            .chain([group("boundary", 0, u32::MAX, 5000)])
            .collect();
        let batched = batch_for_steps(groups, 1000);
        let (ids, count) = shown_at(&batched, 999);
        assert_eq!(ids.len(), 1001, "every line still shows at the end");
        assert_eq!(count, 2, "one portal group and the boundary");
        let (ids, count) = shown_at(&batched, 500);
        assert_eq!(ids.len(), 502, "portals 0..=500 and the boundary");
        assert!(count <= 2 * 32 + 1, "{count} groups at step 500");
    }

    #[test]
    fn few_ranges_voxels_and_single_step_stages_are_left_alone() {
        let few: Vec<Group> = (0..10).map(|i| group("p", i, i, i as usize)).collect();
        assert_eq!(batch_for_steps(few, 10).len(), 10);
        let many: Vec<Group> = (0..100)
            .map(|i| group("p", i, u32::MAX, i as usize))
            .collect();
        assert_eq!(batch_for_steps(many.clone(), 1).len(), 100);
        assert_eq!(batch_for_steps(many.clone(), 0).len(), 100);
        let mut voxels = many;
        voxels[3].cubes = vec![(Vec3::ZERO, Vec3::ONE, [1.0; 4])];
        assert_eq!(batch_for_steps(voxels, 100).len(), 100);
    }
}
