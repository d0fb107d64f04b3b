//! The island view (#39 item 4, key I): the connected parts of the NavMesh
//! the probe searches, under the probe's stance costs and allowed links
//! (`navscope_explain::islands`: two nodes share an island when each
//! reaches the other), each drawn in a colour of its own with a legend row
//! giving its area, largest first. A click of the inspect tool on an island
//! selects it and shows its gap to the largest island as a failed probe
//! shows its gap ([`crate::probe::failure`]'s words, the overlay's line):
//! the distance, the link that would join them, the rule that refused it
//! and the checked one-parameter fix (the fix search builds the pipeline
//! again, on a thread of its own, as the probe's does).
//!
//! A child of the probe's module: it reads the probe's searchable mesh,
//! its finder and the runner the fix search builds again.

use std::sync::{Arc, Mutex, PoisonError};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use navscope_explain::{FixBudget, Gap, Island, explain_islands, islands};

use crate::probe::{Probe, ProbeOptions};

/// Legend rows with an island each; the rest share an "others" row.
pub const LEGEND_ROWS: usize = 8;

/// The island view's state.
#[derive(Resource, Default)]
pub struct IslandView {
    /// The view is on (the islands are found and drawn).
    pub on: bool,
    /// The islands, largest first (empty while off or being found).
    pub parts: Vec<Island>,
    /// The selected island (an index into `parts`, never the largest).
    pub selected: Option<usize>,
    /// The selected island's gap to the largest, once explained (reason
    /// and checked fix).
    pub gap: Option<Gap>,
    /// Bumped whenever `parts`, `selected` or `gap` change.
    pub revision: u64,
    task: Option<Task<Vec<Island>>>,
    /// The mesh revision and the options the islands were found for.
    found_for: Option<(u64, ProbeOptions)>,
    explaining: Option<Arc<Mutex<Option<Gap>>>>,
}

impl IslandView {
    /// True while the islands are found or a gap is explained.
    pub fn is_busy(&self) -> bool {
        self.task.is_some() || self.explaining.is_some()
    }

    /// True until the islands of the current mesh and options are found.
    pub fn is_finding(&self) -> bool {
        self.task.is_some() || self.found_for.is_none()
    }

    /// True while the selected island's fix search runs.
    pub fn is_explaining(&self) -> bool {
        self.explaining.is_some()
    }

    /// The selected island's gap to the largest: explained once the fix
    /// search ends, measured until then.
    pub fn shown_gap(&self) -> Option<&Gap> {
        let i = self.selected?;
        self.gap.as_ref().or(self.parts.get(i)?.gap.as_ref())
    }

    /// The island holding `node`.
    pub fn island_of(&self, node: u32) -> Option<usize> {
        self.parts
            .iter()
            .position(|p| p.nodes.binary_search(&node).is_ok())
    }
}

/// I switches the view on and off (not while a field has the keyboard).
pub(crate) fn toggle_key(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<crate::model::timeline::UiFocus>,
    mut view: ResMut<IslandView>,
) {
    if keys.is_some_and(|k| k.just_pressed(KeyCode::KeyI)) && !focus.keyboard {
        view.on = !view.on;
    }
}

/// Finds the islands when the view is on and the mesh or the probe's
/// options changed; takes the worker's answers.
pub(crate) fn refresh(mut view: ResMut<IslandView>, probe: Res<Probe>) {
    if !view.on {
        if !view.parts.is_empty() || view.task.is_some() {
            *view = IslandView::default();
        }
        return;
    }
    let want = (probe.mesh_revision, probe.options.clone());
    if view.found_for.as_ref() != Some(&want) && probe.mesh_task.is_none() {
        let searchable = probe.searchable.clone();
        let opts = probe.options.search_options();
        view.task = Some(AsyncComputeTaskPool::get().spawn(async move {
            searchable
                .mesh()
                .map_or_else(Vec::new, |m| islands(m, &opts))
        }));
        view.found_for = Some(want);
    }
    // Borrowed mutably only with a task: a changed view redraws the panels.
    let ready = if view.task.is_some() {
        view.task.as_mut().and_then(check_ready)
    } else {
        None
    };
    if let Some(parts) = ready {
        view.task = None;
        view.parts = parts;
        view.selected = None;
        view.gap = None;
        view.explaining = None;
        view.revision += 1;
    }
    let done = view
        .explaining
        .as_ref()
        .and_then(|d| d.lock().unwrap_or_else(PoisonError::into_inner).take());
    if let Some(gap) = done {
        view.explaining = None;
        view.gap = Some(gap);
        view.revision += 1;
    }
}

/// Selects the island under `at` (a point of the NavMesh) and starts the
/// explanation of its gap to the largest; the largest itself, or a point
/// off the mesh, selects nothing.
pub fn select_at(view: &mut IslandView, probe: &Probe, at: Vec3) {
    // The probe's locator, unless a query holds it (a long search on a
    // worker): then one made for this click, not a frame's wait.
    let node = probe.searchable.finder().and_then(|f| match f.try_lock() {
        Ok(f) => f.locator.locate(at.as_dvec3()).map(|l| l.node),
        Err(_) => probe
            .mesh()
            .and_then(|m| navscope_path::Locator::new(m).locate(at.as_dvec3()))
            .map(|l| l.node),
    });
    let selected = node.and_then(|n| view.island_of(n)).filter(|i| *i > 0);
    view.selected = selected;
    view.gap = None;
    view.explaining = None;
    view.revision += 1;
    let (Some(i), Some(rebuild)) = (selected, probe.searchable.rebuild.clone()) else {
        return;
    };
    let mut pair = vec![view.parts[0].clone(), view.parts[i].clone()];
    let opts = probe.options.search_options();
    let done = Arc::new(Mutex::new(None));
    let d = done.clone();
    // The fix search builds again: a thread of its own, as the probe's.
    std::thread::spawn(move || {
        explain_islands(&mut pair, &rebuild, &opts, &FixBudget::default(), 1);
        *d.lock().unwrap_or_else(PoisonError::into_inner) = pair.pop().and_then(|p| p.gap);
    });
    view.explaining = Some(done);
}

/// The colour of island `i` (largest first): distinct hues, the largest in
/// the first; the islands past the legend's rows share the last.
pub fn island_color(i: usize) -> [u8; 3] {
    // Away from the probe's colours (path orange, regions, gap lime) and
    // from the NavMesh's own greens under the outlines (a green third
    // island was lost among them on lq_e1m1); the rest share a near white,
    // which stands out on the level's dark grey (a mid grey did not).
    const PALETTE: [[u8; 3]; LEGEND_ROWS + 1] = [
        [0, 110, 255],
        [255, 70, 60],
        [255, 140, 200],
        [200, 0, 200],
        [0, 200, 220],
        [150, 90, 40],
        [110, 60, 210],
        [190, 190, 0],
        [245, 245, 245],
    ];
    PALETTE[i.min(LEGEND_ROWS)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_colours_are_distinct_and_the_rest_share_one() {
        let c: Vec<_> = (0..LEGEND_ROWS).map(island_color).collect();
        for (i, a) in c.iter().enumerate() {
            for b in &c[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(island_color(LEGEND_ROWS), island_color(LEGEND_ROWS + 5));
        assert!(!c.contains(&island_color(LEGEND_ROWS)));
    }

    #[test]
    fn every_island_colour_stands_apart_from_the_levels_grey() {
        let level = crate::model::style::style_for("level").color;
        for i in 0..=LEGEND_ROWS {
            let c = island_color(i);
            let far = (0..3)
                .map(|k| (f32::from(c[k]) - level[k] * 255.0).abs())
                .fold(0.0, f32::max);
            assert!(
                far >= 80.0,
                "island colour {i} {c:?} is close to the level's {level:?}"
            );
        }
    }
}
