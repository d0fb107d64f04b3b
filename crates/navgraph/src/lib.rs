//! navscope-navgraph (docs written below once the stages exist).
pub mod binary;
pub mod contours;
pub mod graphs;
pub mod nodes;
pub mod primitives;
pub mod simplify;
pub mod supergraph;
pub mod triangulate;
pub mod walls;
