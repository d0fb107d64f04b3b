//! Why the probe found no path (issue 39, DESIGN principle 9): the region
//! reached from the start, the region that reaches the goal, the gap
//! between them with its reason, and the one-parameter fix that joins them.
//!
//! Every call into `navscope-explain` is here, so the probe follows that
//! crate's API in one place. The regions and the gap are found on the
//! query's worker thread with the search; the fix search builds the
//! pipeline again (several times) and runs on a thread of its own (the
//! probe's `FixSearch`), so the panel shows the gap at once and the fix when it
//! is found, and no frame waits for either.

use bevy::math::DVec3;
use navscope_core::{NavMesh, Runner};
use navscope_explain::reach::Graph;
use navscope_explain::{FixBudget, explain_gap};
use navscope_explain::{Gap, failed_path_gap};
use navscope_path::{PathError, SearchOptions};

pub use navscope_explain::place::outline;

/// What keeps a failed query's ends apart.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Nodes reached from the start's node (the start's included).
    pub reached: Vec<u32>,
    /// Nodes from which the goal's node is reached (the goal's included).
    pub reaches_goal: Vec<u32>,
    /// The closest pair of places between the two regions, with the link
    /// that would join them and why there is none; its `fix` is filled in
    /// by the fix search.
    pub gap: Option<Gap>,
    /// True while the fix search runs.
    pub fix_pending: bool,
}

/// The failure of a search that ended in `e`, when the two ends lie on
/// nodes that are not connected (other failures have no regions).
pub fn explain(mesh: &NavMesh, opts: &SearchOptions, e: &PathError) -> Option<Failure> {
    let &PathError::NoConnection {
        start_node,
        goal_node,
        ..
    } = e
    else {
        return None;
    };
    let graph = Graph::new(mesh, opts);
    let gap = failed_path_gap(mesh, opts, start_node, goal_node);
    Some(Failure {
        reached: graph.reach(start_node, false),
        reaches_goal: graph.reach(goal_node, true),
        fix_pending: gap.is_some(),
        gap,
    })
}

/// `gap` with its reason (the rules of `runner`'s pipeline that refuse
/// the link) and the smallest one-parameter changes that let a search
/// from `from` to `to` succeed, each checked by building `runner` again
/// within the default budget (runs on a thread of its own).
pub fn with_fix(gap: Gap, runner: &Runner, ends: (DVec3, DVec3), opts: SearchOptions) -> Gap {
    explain_gap(gap, runner, opts, ends, &FixBudget::default())
}

/// The fix in words, as the command line's `--set` takes it ("none
/// found" when no single parameter joins the sides).
pub fn fix_words(gap: &Gap) -> String {
    if gap.fix.is_empty() {
        return "none found".into();
    }
    gap.fix
        .iter()
        .map(|f| format!("{}={}", f.parameter, f.value))
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::{LinkKind, Stance};

    fn squares(at: &[(f64, f64)]) -> NavMesh {
        let mut m = NavMesh::new("test", "test");
        for &(x, y) in at {
            let p = vec![
                DVec3::new(x, y, 0.0),
                DVec3::new(x, y, 1.0),
                DVec3::new(x + 1.0, y, 1.0),
                DVec3::new(x + 1.0, y, 0.0),
            ];
            m.add_node(DVec3::new(x + 0.5, y, 0.5), Some(p), Stance::Stand, 0);
        }
        m
    }

    #[test]
    fn a_disconnected_query_has_both_regions_and_the_gap_between_them() {
        // 0-1 joined, 2-3 joined, a 1 m ledge between 1 and 2.
        let mut m = squares(&[(0.0, 0.0), (1.0, 0.0), (2.0, 1.0), (3.0, 1.0)]);
        m.add_two_way(0, 1, LinkKind::Walk, 1.0, None);
        m.add_two_way(2, 3, LinkKind::Walk, 1.0, None);
        let e = PathError::NoConnection {
            start_node: 0,
            goal_node: 3,
            expansions: 2,
        };
        let f = explain(&m, &SearchOptions::default(), &e).expect("a failure");
        let mut reached = f.reached.clone();
        reached.sort();
        let mut goal = f.reaches_goal.clone();
        goal.sort();
        assert_eq!(reached, [0, 1]);
        assert_eq!(goal, [2, 3]);
        let gap = f.gap.expect("a gap");
        assert!((gap.height - 1.0).abs() < 1e-9, "{gap:?}");
        assert!(f.fix_pending);
        assert_eq!(fix_words(&gap), "none found");
    }

    #[test]
    fn unknown_nodes_have_no_regions() {
        let m = squares(&[(0.0, 0.0)]);
        let e = PathError::NoConnection {
            start_node: 9,
            goal_node: 0,
            expansions: 0,
        };
        let f = explain(&m, &SearchOptions::default(), &e).expect("a failure");
        assert!(f.reached.is_empty() && f.gap.is_none() && !f.fix_pending);
    }
}
