//! # navscope — the desktop debugger
//!
//! A Bevy app that opens a level, runs a navigation-mesh pipeline stage by
//! stage in the background, draws every stage's primitives, lets the user
//! scrub through stages and sub-steps, edit parameters live, inspect
//! elements and probe paths. It contains no navigation algorithm: levels come
//! from `navscope-levels`, pipelines from `navscope-pipelines`, paths from
//! `navscope-path`; the app draws and edits through `navscope-core`'s stage,
//! parameter and primitive interfaces.
//!
//! Each module is a plugin named for what it does:
//! [`levels`] (open, recent, hot reload, pipeline choice), [`stages`] (the
//! runner on a worker thread, publishing elements as entities), [`draw`]
//! (the style table and retained drawing; [`cubes`] draws voxels as
//! instances), [`filter`] (height slice, layers, colour by value), [`scene`] (camera, level,
//! grid, clicks), [`timeline`], [`params`], [`probe`], [`panels`] (egui),
//! [`frames`] (frame-time readout and measurement) and [`automation`]
//! (`--screenshot`). [`app::headless`] assembles the parts that need no
//! renderer, for tests.

pub mod app;
pub mod automation;
pub mod cli;
pub mod cubes;
pub mod dialogs;
pub mod draw;
pub mod export;
pub mod filter;
pub mod frames;
pub mod history;
pub mod inspector;
pub mod interact;
pub mod journal;
pub mod keys;
pub mod levels;
pub mod overlay;
pub mod panels;
pub mod params;
pub mod probe;
pub mod probe_answer;
pub mod probe_panel;
pub mod report;
pub mod scene;
pub mod session;
pub mod stages;
pub mod tessellate;
pub mod timeline;
pub mod timeline_panel;
pub mod view_panel;
