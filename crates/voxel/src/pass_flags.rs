//! What the `flag` stage leaves for every later stage: one flag per span
//! and pass (claimed by an earlier pass, non-walkable, walkable, border)
//! and the pass's span links.

use serde::Serialize;

use crate::settings::Pass;

/// Flag: the span was claimed by an earlier pass (not in this pass's pool).
pub const CLAIMED: u8 = 0;
/// Flag: violates this pass's table (or too close to an obstacle).
pub const NON_WALKABLE: u8 = 1;
/// Flag: walkable, every side neighbour walkable too.
pub const WALKABLE: u8 = 2;
/// Flag: walkable with a side neighbour that is not.
pub const BORDER: u8 = 3;

/// One pass's flags over a tile's spans.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PassFlags {
    /// The pass (stance and table).
    pub pass: Pass,
    /// One flag per span ([`CLAIMED`], [`NON_WALKABLE`], [`WALKABLE`], [`BORDER`]).
    pub flags: Vec<u8>,
    /// The pass's connections (see [`crate::links::links`]), shared between passes with
    /// the same limits and kept for the later stages; empty when the pass
    /// found nothing walkable.
    #[serde(skip)]
    pub links: std::sync::Arc<Vec<u32>>,
}

impl PassFlags {
    /// True when span `s` belongs to this pass's walkable area.
    pub fn walkable(&self, s: usize) -> bool {
        self.flags[s] >= WALKABLE
    }
}
