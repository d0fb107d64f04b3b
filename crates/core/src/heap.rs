//! A cost-ordered entry for [`std::collections::BinaryHeap`], so the
//! Dijkstra-style searches of several crates share one ordering instead of
//! each writing its own reversed `Ord`.
//!
//! `BinaryHeap` is a max-heap; [`MinCost`] reverses the comparison so the
//! heap pops the *smallest* cost first, ties going to the smaller item. Costs
//! are compared with [`f64::total_cmp`], so even a NaN cost has a fixed place
//! (after every other cost) and the order is total and deterministic.

use std::cmp::Ordering;

/// A heap entry `(cost, item)` that a [`std::collections::BinaryHeap`] pops
/// smallest cost first, then smallest item.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinCost<T>(pub f64, pub T);

impl<T: Ord> Eq for MinCost<T> {}

impl<T: Ord> Ord for MinCost<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap.
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

impl<T: Ord> PartialOrd for MinCost<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// An open-list entry of a best-first search (A*, Polyanya) that a
/// [`std::collections::BinaryHeap`] pops smallest `f = g + h` first, ties
/// going to the smaller `h` (the entry nearer the goal, so a search along a
/// line of equal `f` runs straight at it), then to the smaller `item`.
#[derive(Clone, Copy, Debug)]
pub struct Frontier {
    /// Cost so far plus the heuristic's estimate of the rest.
    pub f: f64,
    /// The heuristic's estimate of the rest.
    pub h: f64,
    /// Cost so far.
    pub g: f64,
    /// The search's own index of the entry (a node, a search node).
    pub item: u32,
}

impl Frontier {
    /// The entry for `item`, reached at cost `g` with `h` to go.
    pub fn new(g: f64, h: f64, item: u32) -> Self {
        Frontier {
            f: g + h,
            h,
            g,
            item,
        }
    }
}

impl Ord for Frontier {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap.
        o.f.total_cmp(&self.f)
            .then(o.h.total_cmp(&self.h))
            .then(o.item.cmp(&self.item))
    }
}

impl PartialOrd for Frontier {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl PartialEq for Frontier {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Frontier {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BinaryHeap;

    #[test]
    fn pops_smallest_cost_then_smallest_item() {
        let mut h = BinaryHeap::from([
            MinCost(2.0, 0u32),
            MinCost(1.0, 5),
            MinCost(1.0, 3),
            MinCost(-0.5, 9),
        ]);
        let order: Vec<_> = std::iter::from_fn(|| h.pop()).collect();
        assert_eq!(
            order,
            [
                MinCost(-0.5, 9),
                MinCost(1.0, 3),
                MinCost(1.0, 5),
                MinCost(2.0, 0)
            ]
        );
    }

    #[test]
    fn nan_and_infinity_come_last_in_a_fixed_order() {
        let mut h = BinaryHeap::from([
            MinCost(f64::NAN, 0usize),
            MinCost(f64::INFINITY, 1),
            MinCost(0.0, 2),
        ]);
        assert_eq!(h.pop().map(|e| e.1), Some(2));
        assert_eq!(h.pop().map(|e| e.1), Some(1));
        assert_eq!(h.pop().map(|e| e.1), Some(0));
        assert!(h.pop().is_none());
    }

    #[test]
    fn frontier_pops_smallest_f_then_nearest_the_goal_then_first_item() {
        let mut h = BinaryHeap::from([
            Frontier::new(1.0, 2.0, 0),
            Frontier::new(2.0, 1.0, 4),
            Frontier::new(2.0, 1.0, 1),
            Frontier::new(0.0, 2.5, 9),
        ]);
        let order: Vec<u32> = std::iter::from_fn(|| h.pop()).map(|e| e.item).collect();
        assert_eq!(order, [9, 1, 4, 0]);
    }

    proptest! {
        #[test]
        fn heap_order_is_sorted_order(v in prop::collection::vec((-1e6f64..1e6, 0u32..50), 0..60)) {
            let mut h: BinaryHeap<_> = v.iter().map(|&(c, i)| MinCost(c, i)).collect();
            let popped: Vec<_> = std::iter::from_fn(|| h.pop()).map(|e| (e.0, e.1)).collect();
            let mut sorted = v.clone();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            prop_assert_eq!(popped, sorted);
        }
    }
}
