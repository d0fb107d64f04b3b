//! The memory budget every stage honours.
//!
//! One [`MemoryBudget`] (default 2 GB) travels with the [`Runner`] into every
//! [`StageContext`]. Before a stage allocates something whose size follows
//! from the input rather than from its element count — a grid over a
//! bounding box, a list of pairs, a heightfield, a set of tiles — it
//! estimates the bytes and asks [`MemoryBudget::check`]. Over the budget, the
//! stage refuses with a one-line message that says what it would have
//! needed and for what:
//!
//! ```text
//! would need ~5.4 GB for a 30 km × 30 km grid of 2 m cells; the budget is 2 GB
//! ```
//!
//! Sizes are binary: `1 GB` is 2³⁰ bytes, `1 MB` 2²⁰. [`MemoryBudget::parse`]
//! reads `512M`, `2G`, `1.5G`, `64K`, a plain byte count or `unlimited`, the
//! forms the CLI's `--budget` takes.
//!
//! [`Runner`]: crate::stage::Runner
//! [`StageContext`]: crate::stage::StageContext

use std::fmt;

use thiserror::Error;

/// How many bytes the stages of one build may allocate for their large
/// structures. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryBudget {
    bytes: u64,
}

impl Default for MemoryBudget {
    /// 2 GB.
    fn default() -> Self {
        Self::new(Self::DEFAULT_BYTES)
    }
}

/// A refused allocation: what it was for, what it would need and the budget.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("would need ~{} for {what}; the budget is {}", format_bytes(*.needed), format_bytes(*.budget))]
pub struct OverBudget {
    /// What the memory was for, e.g. `a 30 km × 30 km grid of 2 m cells`.
    pub what: String,
    /// Estimated bytes.
    pub needed: u64,
    /// The budget in bytes.
    pub budget: u64,
}

impl MemoryBudget {
    /// The default budget, 2 GB.
    pub const DEFAULT_BYTES: u64 = 2 << 30;

    /// A budget of `bytes` bytes.
    pub const fn new(bytes: u64) -> Self {
        Self { bytes }
    }

    /// No limit (every check passes).
    pub const fn unlimited() -> Self {
        Self { bytes: u64::MAX }
    }

    /// The budget in bytes.
    pub const fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Refuses an allocation of about `needed` bytes for `what` when it is
    /// over the budget. `what` is only built on refusal.
    pub fn check(&self, needed: u64, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        if needed <= self.bytes {
            Ok(())
        } else {
            Err(OverBudget {
                what: what(),
                needed,
                budget: self.bytes,
            })
        }
    }

    /// [`check`](Self::check) for `count` values of type `T`.
    pub fn check_items<T>(
        &self,
        count: u64,
        what: impl FnOnce() -> String,
    ) -> Result<(), OverBudget> {
        self.check(bytes_for::<T>(count), what)
    }

    /// Reads a size: a number with an optional binary unit `K`, `M`, `G` or
    /// `T` (an optional trailing `B` or `iB`, any case), e.g. `512M`, `2G`,
    /// `1.5GB`, `1048576`; or `unlimited`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("unlimited") {
            return Ok(Self::unlimited());
        }
        let lower = t.to_ascii_lowercase();
        let body = lower
            .strip_suffix("ib")
            .or_else(|| lower.strip_suffix('b'))
            .unwrap_or(&lower);
        let (digits, shift) = match body.chars().last() {
            Some('k') => (&body[..body.len() - 1], 10),
            Some('m') => (&body[..body.len() - 1], 20),
            Some('g') => (&body[..body.len() - 1], 30),
            Some('t') => (&body[..body.len() - 1], 40),
            _ => (body, 0),
        };
        let bad = || format!("'{text}' is not a size (examples: 512M, 2G, 1.5G, unlimited)");
        let value: f64 = digits.trim().parse().map_err(|_| bad())?;
        if !value.is_finite() || value <= 0.0 {
            return Err(bad());
        }
        let bytes = value * (1u64 << shift) as f64;
        if bytes >= u64::MAX as f64 {
            return Ok(Self::unlimited());
        }
        Ok(Self::new((bytes as u64).max(1)))
    }
}

impl fmt::Display for MemoryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bytes == u64::MAX {
            write!(f, "unlimited")
        } else {
            write!(f, "{}", format_bytes(self.bytes))
        }
    }
}

/// Bytes taken by `count` values of type `T` (saturating).
pub fn bytes_for<T>(count: u64) -> u64 {
    count.saturating_mul(std::mem::size_of::<T>() as u64)
}

/// A byte count for people: `5.4 GB`, `512 MB`, `2 GB`, `12 KB`, `100 B`
/// (binary units, one decimal below 10, none above).
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KB", "MB", "GB", "TB", "PB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 || value >= 10.0 || value.fract() == 0.0 {
        format!("{:.0} {}", value, UNITS[unit])
    } else {
        let s = format!("{value:.1}");
        let s = s.strip_suffix(".0").unwrap_or(&s);
        format!("{s} {}", UNITS[unit])
    }
}

/// A length for a budget message: `30 km`, `2 m`, `0.5 m`, `409 m`.
pub fn format_length(metres: f64) -> String {
    let trim = |v: f64| {
        let s = format!("{v:.1}");
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    };
    if metres.abs() >= 1000.0 {
        format!("{} km", trim(metres / 1000.0))
    } else if metres.abs() >= 0.1 || metres == 0.0 {
        format!("{} m", trim(metres))
    } else {
        format!("{metres:.2e} m")
    }
}

/// `a 30 km × 30 km grid of 2 m cells`: the phrase the grid-shaped checks
/// use.
pub fn grid_phrase(width: f64, depth: f64, cell: f64) -> String {
    format!(
        "a {} × {} grid of {} cells",
        format_length(width),
        format_length(depth),
        format_length(cell)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(MemoryBudget::parse("2G").unwrap().bytes(), 2 << 30);
        assert_eq!(MemoryBudget::parse("512M").unwrap().bytes(), 512 << 20);
        assert_eq!(MemoryBudget::parse("512mb").unwrap().bytes(), 512 << 20);
        assert_eq!(MemoryBudget::parse("1.5GiB").unwrap().bytes(), 3 << 29);
        assert_eq!(MemoryBudget::parse("4096").unwrap().bytes(), 4096);
        assert_eq!(MemoryBudget::parse("64K").unwrap().bytes(), 64 << 10);
        assert_eq!(
            MemoryBudget::parse("unlimited").unwrap(),
            MemoryBudget::unlimited()
        );
        for bad in ["", "G", "-1G", "two", "1X", "nanG", "0"] {
            let e = MemoryBudget::parse(bad).unwrap_err();
            assert!(e.contains("is not a size"), "{bad}: {e}");
        }
        assert_eq!(MemoryBudget::default().bytes(), 2_147_483_648);
    }

    #[test]
    fn refusal_says_what_would_be_needed() {
        let b = MemoryBudget::default();
        assert!(b.check(2 << 30, || unreachable!()).is_ok());
        let needed = (5.4 * (1u64 << 30) as f64) as u64;
        let e = b
            .check(needed, || grid_phrase(30_000.0, 30_000.0, 2.0))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "would need ~5.4 GB for a 30 km × 30 km grid of 2 m cells; the budget is 2 GB"
        );
        assert!(b.check_items::<u64>(1 << 28, String::new).is_ok());
        assert!(b.check_items::<u64>(u64::MAX, String::new).is_err());
    }

    #[test]
    fn bytes_and_lengths_read_well() {
        assert_eq!(format_bytes(100), "100 B");
        assert_eq!(format_bytes(512 << 20), "512 MB");
        assert_eq!(format_bytes(3 << 29), "1.5 GB");
        assert_eq!(format_bytes(12 << 30), "12 GB");
        assert_eq!(format_length(409.0), "409 m");
        assert_eq!(format_length(2900.0), "2.9 km");
        assert_eq!(format_length(0.5), "0.5 m");
        assert_eq!(MemoryBudget::default().to_string(), "2 GB");
        assert_eq!(MemoryBudget::unlimited().to_string(), "unlimited");
    }
}
