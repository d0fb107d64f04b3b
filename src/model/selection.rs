//! What the user pointed at and what is shown: the selected element, the
//! hovered one, and the legend's hidden kinds.

use crate::model::elements::StageElement;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Kinds that start hidden: detail shown on demand (a medial axis's
/// closest-point segments and clearance disks cover everything else).
pub const HIDDEN_AT_FIRST: &[&str] = &["corridor/closest", "corridor/disk"];

/// Which kinds are hidden, and every kind seen so far with its colour, for
/// the legend.
#[derive(Resource, Debug)]
pub struct Legend {
    /// Kinds the user switched off.
    pub hidden: BTreeSet<String>,
    /// Kinds present in the published stages, by stage, with their colour.
    pub kinds: BTreeMap<String, [f32; 4]>,
}

impl Default for Legend {
    fn default() -> Self {
        Self {
            hidden: HIDDEN_AT_FIRST.iter().map(|k| k.to_string()).collect(),
            kinds: BTreeMap::new(),
        }
    }
}

impl Legend {
    /// True when `kind` (or one of its ancestors) is switched off.
    pub fn is_hidden(&self, kind: &str) -> bool {
        let mut k = kind;
        loop {
            if self.hidden.contains(k) {
                return true;
            }
            match k.rfind('/') {
                Some(i) => k = &k[..i],
                None => return false,
            }
        }
    }
}

/// The element the user clicked, if any.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Selection(pub Option<StageElement>);

/// The element under the cursor.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Hover(pub Option<StageElement>);
