//! What depends on the level alone, worked out at most once per loaded
//! level: a [`crate::stage::Runner`] holds one [`LevelFacts`] for its
//! level and shares it with its clones, so a parameter drag that re-runs
//! a stage, every build of a fix search and every "why not here" question
//! reuse the first answer instead of working it out again.
//!
//! Only what no parameter changes belongs here. Today that is the seal of
//! a brush level ([`crate::outside::Seal`]), a flood of the map's empty
//! space that takes tens of milliseconds on a released Quake map.

use std::sync::OnceLock;

use crate::level::{Level, LevelData};
use crate::outside::Seal;

/// The level's facts, each worked out on first use (thread-safe: two
/// stages asking at once wait for one answer).
#[derive(Debug, Default)]
pub struct LevelFacts {
    seal: OnceLock<Option<Seal>>,
}

impl LevelFacts {
    /// The seal of `level` when it is a brush level ([`Seal::of`]); `None`
    /// for every other kind. `level` must be the level these facts were
    /// made for: the first answer is kept.
    pub fn seal(&self, level: &Level) -> Option<&Seal> {
        self.seal
            .get_or_init(|| match &level.data {
                LevelData::Brushes(b) => Some(Seal::of(b)),
                _ => None,
            })
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{BrushLevel, FloorPlan};

    fn level(data: LevelData) -> Level {
        Level {
            source: "test".into(),
            data,
        }
    }

    #[test]
    fn a_brush_level_has_a_seal_and_the_first_answer_is_kept() {
        let facts = LevelFacts::default();
        let brushes = level(LevelData::Brushes(BrushLevel::default()));
        let first = facts.seal(&brushes).expect("a brush level has a seal") as *const Seal;
        assert_eq!(facts.seal(&brushes).map(|s| s as *const Seal), Some(first));
        assert_eq!(
            facts.seal(&brushes).map(Seal::describe),
            Some(Seal::of(&BrushLevel::default()).describe())
        );
    }

    #[test]
    fn other_levels_have_no_seal() {
        let facts = LevelFacts::default();
        assert!(
            facts
                .seal(&level(LevelData::FloorPlan(FloorPlan::default())))
                .is_none()
        );
    }
}
