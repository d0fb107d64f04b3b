//! Test support: a brute-force shortest path on a grid of blocked cells,
//! to check Polyanya against.

pub mod visibility;
