//! # navscope-compare
//!
//! One level through two parameter sets or two pipelines, with the
//! differences measured and drawn. Bevy-free: the app's compare view and
//! `navscope-cli compare` both call it with two NavMeshes.
//!
//! * [`compare`]: two NavMeshes (as `Runner::navmesh` returns them, with
//!   their stage records) → a [`Comparison`]: both builds'
//!   [`BuildMetrics`] (nodes, links by kind, walkable area per stance and
//!   per area, every stage's counts such as notches, cells or regions,
//!   total and per-stage time, memory estimate), the A | B | delta rows
//!   ([`MetricRow`]), the footprint [`Difference`] (A − B, B − A and the
//!   common part per layer or height band, as polygons with their areas in
//!   m², and as core's drawable primitives, [`Difference::primitives`])
//!   and, if asked, the same path [`Probe`] on both.
//! * [`render`] / [`save_png`]: a top-down picture of the difference
//!   (A-only, B-only and common in three colours, with a legend and a
//!   scale bar) drawn by a small software rasteriser, no window.
//! * [`PresetPair`]: A's and B's pipeline and parameters together, saved
//!   and loaded as RON or JSON.
//! * [`build`]: runs one side (level, pipeline, parameters) to its NavMesh
//!   through the pipeline registry's level conversions.
//!
//! Footprints are the union of each NavMesh's node polygons (point nodes
//! have none), differenced with `i_overlay`; coordinates of the regions
//! are plan coordinates `(x, -z)` (`navscope_core::geom::plan_to_world`
//! turns them into world points at a band's [`BandDifference::height`]).
//!
//! ```no_run
//! use std::sync::Arc;
//! use navscope_compare::{CompareOptions, build, compare};
//! let level = Arc::new(navscope_levels::default_level());
//! let voxel = navscope_pipelines::by_id("voxel").unwrap();
//! let mut params = navscope_core::params::ParamValues::defaults(&voxel.params);
//! let a = build(&level, &voxel, params.clone(), Default::default()).unwrap();
//! params.set(&voxel.params, "stand.radius", navscope_core::params::ParamValue::Float(0.6)).unwrap();
//! let b = build(&level, &voxel, params, Default::default()).unwrap();
//! let c = compare(&a, &b, &CompareOptions::default());
//! println!("A only {:.2} m2, B only {:.2} m2",
//!     c.difference.a_only_area(), c.difference.b_only_area());
//! ```

#![warn(missing_docs)]

mod build;
mod difference;
mod metrics;
mod pair;
mod probe;
mod region;
mod render;
mod report;

pub use build::build;
pub use difference::{
    BandDifference, Banding, Difference, KIND_A_ONLY, KIND_B_ONLY, KIND_COMMON, difference,
    difference_of, footprints,
};
pub use metrics::{BuildMetrics, MetricRow, memory_estimate, metrics_table, polygon_area};
pub use pair::{PresetPair, SideSettings};
pub use probe::{Probe, ProbeWaypoint, probe};
pub use region::Region;
pub use render::{LEGEND_HEIGHT, RenderOptions, image_size, render, save_png};
pub use report::{CompareOptions, Comparison, compare, number};
