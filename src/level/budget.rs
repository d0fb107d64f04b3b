//! The app's memory budget: how much a level file and every stage of a
//! build may need (`navscope_core::budget`). Over it, the loader refuses
//! the file and a stage refuses to run, each with a one-line message that
//! says what it would need; the earlier stages stay on screen. The default
//! is the CLI's (2 GB); `--budget SIZE` sets it for one run, and Edit >
//! Memory budget sets it and remembers it in the settings file.

use bevy::prelude::*;
use navscope_core::MemoryBudget;

/// The budget in force for loading and building.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryLimit(pub MemoryBudget);

impl MemoryLimit {
    /// The loader's limits under this budget.
    pub fn loader_limits(&self) -> navscope_levels::Budget {
        navscope_levels::Budget::within(self.0)
    }
}

/// The budgets Edit > Memory budget offers, smallest first; any other size
/// can be typed there.
pub const CHOICES: [MemoryBudget; 6] = [
    MemoryBudget::new(512 << 20),
    MemoryBudget::new(1 << 30),
    MemoryBudget::new(2 << 30),
    MemoryBudget::new(4 << 30),
    MemoryBudget::new(8 << 30),
    MemoryBudget::unlimited(),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choices_include_the_default_and_grow() {
        assert!(CHOICES.contains(&MemoryBudget::default()));
        assert!(CHOICES.windows(2).all(|w| w[0].bytes() < w[1].bytes()));
        let small = MemoryLimit(MemoryBudget::new(1 << 20)).loader_limits();
        assert_eq!(small.max_file_bytes, 1 << 20);
    }
}
