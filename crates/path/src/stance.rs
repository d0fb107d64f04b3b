//! Which stance is more restrictive, for Kirst §32.3.2's stance rule.
//!
//! When two nodes with different stances meet, the agent must hold the more
//! restrictive one while it is near both. Kirst only has stand and crouch;
//! navscope extends the order to every [`Stance`], from least to most
//! restrictive: stand, sidestep (upright, only narrower), crouch, prone
//! (lower still), swim (a different medium: the agent keeps swimming until it
//! is out of the water).

use navscope_core::Stance;

/// Rank of a stance in the restrictiveness order (0 = stand, least).
pub fn restrictiveness(s: Stance) -> u8 {
    match s {
        Stance::Stand => 0,
        Stance::Sidestep => 1,
        Stance::Crouch => 2,
        Stance::Prone => 3,
        Stance::Swim => 4,
    }
}

/// The more restrictive of two stances.
pub fn most_restrictive(a: Stance, b: Stance) -> Stance {
    if restrictiveness(b) > restrictiveness(a) {
        b
    } else {
        a
    }
}

/// Index of a stance in [`Stance::ALL`].
pub(crate) fn stance_index(s: Stance) -> usize {
    Stance::ALL.iter().position(|x| *x == s).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_total_and_stand_is_least() {
        let mut ranks: Vec<u8> = Stance::ALL.iter().map(|s| restrictiveness(*s)).collect();
        ranks.sort();
        ranks.dedup();
        assert_eq!(ranks.len(), Stance::ALL.len());
        for s in Stance::ALL {
            assert_eq!(most_restrictive(Stance::Stand, s), s);
            assert_eq!(most_restrictive(s, Stance::Stand), s);
            assert_eq!(most_restrictive(s, Stance::Swim), Stance::Swim);
        }
        assert_eq!(
            most_restrictive(Stance::Crouch, Stance::Prone),
            Stance::Prone
        );
        assert_eq!(
            most_restrictive(Stance::Sidestep, Stance::Crouch),
            Stance::Crouch
        );
    }

    #[test]
    fn indices_follow_all() {
        for (i, s) in Stance::ALL.iter().enumerate() {
            assert_eq!(stance_index(*s), i);
        }
    }
}
