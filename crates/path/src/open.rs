//! The open-list entry of both searches (A* and Polyanya): a
//! [`std::collections::BinaryHeap`] pops the smallest `f = g + h` first,
//! ties going to the smaller `h` (the entry nearer the goal, so a search
//! along a line of equal `f` runs straight at it), then to the smaller
//! item; the order of `navscope_core::heap::Frontier`, compared as
//! integers: the searches pop an entry per step, and comparing three
//! floats through `total_cmp` out of line was a sixth of Polyanya's time.

use std::cmp::Ordering;

/// An open-list entry (see the module docs). `f` and `h` are never
/// negative or NaN, so their bit patterns (after `+ 0.0` turns a -0 into
/// +0) order as the numbers do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Open {
    /// Bits of `g + h`.
    pub f: u64,
    /// Bits of `h`.
    pub h: u64,
    /// The search's own index of the entry.
    pub item: u32,
}

impl Open {
    /// The entry for `item`, reached at cost `g` with `h` to go.
    #[inline]
    pub fn new(g: f64, h: f64, item: u32) -> Self {
        Open {
            f: (g + h + 0.0).to_bits(),
            h: (h + 0.0).to_bits(),
            item,
        }
    }
}

impl Ord for Open {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap.
        (o.f, o.h, o.item).cmp(&(self.f, self.h, self.item))
    }
}

impl PartialOrd for Open {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BinaryHeap;

    #[test]
    fn pops_smallest_f_then_smallest_h_then_smallest_item() {
        let mut heap = BinaryHeap::new();
        for (g, h, item) in [
            (2.0, 1.0, 0),
            (1.0, 2.0, 1),
            (0.5, 0.5, 2),
            (1.0, 2.0, 3),
            (-0.0, 0.0, 4),
        ] {
            heap.push(Open::new(g, h, item));
        }
        let order: Vec<u32> = std::iter::from_fn(|| heap.pop().map(|o| o.item)).collect();
        assert_eq!(order, vec![4, 2, 0, 1, 3]);
    }
}
