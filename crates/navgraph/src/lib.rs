//! navscope-navgraph (docs written below once the stages exist).
pub mod binary;
pub mod contours;
pub mod simplify;
pub mod walls;
