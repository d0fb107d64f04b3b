//! Reference implementations the tests check optimised code against: the
//! plain, exhaustive way to the same answer.

use crate::expand::ExpandedBrush;
use crate::near::touch;

/// The brushes whose boxes touch brush `i`'s, in index order, by testing
/// every pair: the reference for [`crate::near::InRange`]'s R-tree.
pub fn reference_in_range(brushes: &[ExpandedBrush], i: usize) -> Vec<usize> {
    (0..brushes.len())
        .filter(|&j| j != i && touch(&brushes[i].solid.bounds, &brushes[j].solid.bounds))
        .collect()
}
