//! # navscope — the desktop debugger
//!
//! A Bevy app that opens a level, runs a navigation-mesh pipeline stage by
//! stage in the background, draws every stage's primitives as it finishes,
//! lets the user scrub through stages and sub-steps, edit parameters live,
//! inspect elements and probe paths. It contains no navigation algorithm:
//! levels come from `navscope-levels`, pipelines from `navscope-pipelines`,
//! paths from `navscope-path`; the app draws and edits through
//! `navscope-core`'s stage, parameter and primitive interfaces.
//!
//! The modules are layered; each imports only from the ones listed before
//! it (and from its own folder), so there are no import cycles:
//!
//! 1. [`cli`] — the command line.
//! 2. [`model`] — plain data and pure functions shared by all: the style
//!    table and drawing preparation, the published stages' components, the
//!    view filter, the timeline's position, the selection, the journal.
//! 3. [`level`] — the open level: loading off the main thread, recent
//!    files, hot reload, the pipeline per file.
//! 4. [`build`] — the runner on a worker thread, publishing each stage as
//!    it finishes; moving along the timeline; what comes back after a
//!    restart.
//! 5. [`view`] — the scene (camera, level, grid) and the retained drawing.
//! 6. [`probe`] — the path probe: search off the main thread, its drawing.
//! 7. [`compare`] — the pinned build B against the build on screen: the
//!    difference and the metrics off the main thread, its drawing.
//! 8. [`edit`] — parameter commands and presets, undo and redo.
//! 9. [`interact`] — picking under the cursor, the click tools, marker
//!    drags, hover.
//! 10. [`ui`] — egui panels, menus, dialogs, exports, overlays, readouts,
//!     the state report for end-to-end tests and `--screenshot`.
//!
//! [`app`] assembles them: [`app::headless`] the parts that need no
//! renderer (for tests), [`app::windowed`] the desktop app.

pub mod app;
pub mod build;
pub mod cli;
pub mod compare;
pub mod edit;
pub mod interact;
pub mod level;
pub mod model;
pub mod probe;
pub mod ui;
pub mod view;
