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

impl Open {
    /// The search order as one ascending key: smaller pops first.
    #[inline]
    fn key(&self) -> (u64, u64, u32) {
        (self.f, self.h, self.item)
    }
}

/// A binary min-heap of [`Open`] entries: pops them in the order a
/// [`std::collections::BinaryHeap`] of them does, with `push` and `pop`
/// inlined into the search loop (the standard heap's `pop` is called out
/// of line and hands its entry back through memory, about a tenth of an
/// A* query on the Recast demo meshes). Entries that compare equal are
/// identical, so the popped sequence is the same whatever the layout.
#[derive(Clone, Debug, Default)]
pub(crate) struct OpenHeap {
    items: Vec<Open>,
}

impl OpenHeap {
    /// Empties the heap, keeping its storage.
    #[inline]
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Adds `e`: moved up from the new leaf while its parent pops later.
    #[inline]
    pub fn push(&mut self, e: Open) {
        let mut i = self.items.len();
        self.items.push(e);
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.items[parent].key() <= e.key() {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = e;
    }

    /// Removes and returns the entry that pops first: the last leaf takes
    /// the root's place and moves down past every child that pops before
    /// it.
    #[inline]
    pub fn pop(&mut self) -> Option<Open> {
        let last = self.items.pop()?;
        let Some(&top) = self.items.first() else {
            return Some(last);
        };
        let n = self.items.len();
        let mut i = 0;
        loop {
            let mut child = 2 * i + 1;
            if child >= n {
                break;
            }
            if child + 1 < n && self.items[child + 1].key() < self.items[child].key() {
                child += 1;
            }
            if last.key() <= self.items[child].key() {
                break;
            }
            self.items[i] = self.items[child];
            i = child;
        }
        self.items[i] = last;
        Some(top)
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

    #[test]
    fn open_heap_pops_as_the_standard_heap_does() {
        // Pseudo-random pushes and pops, with repeated keys and entries.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut std_heap, mut ours) = (BinaryHeap::new(), OpenHeap::default());
        for _ in 0..5000 {
            if next(3) == 0 {
                assert_eq!(ours.pop(), std_heap.pop());
            } else {
                let e = Open::new(next(8) as f64 * 0.5, next(4) as f64, next(16) as u32);
                std_heap.push(e);
                ours.push(e);
            }
        }
        while let Some(e) = std_heap.pop() {
            assert_eq!(ours.pop(), Some(e));
        }
        assert_eq!(ours.pop(), None);
        ours.push(Open::new(1.0, 1.0, 1));
        ours.clear();
        assert_eq!(ours.pop(), None);
    }
}
