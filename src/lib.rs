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
//! 1. [`cli`] — the command line; [`display`] — whether a display can be
//!    reached, asked before the window is made.
//! 2. [`discard`] — dropping big things on a worker thread and giving the
//!    freed pages back to the system.
//! 3. [`model`] — plain data and pure functions shared by all: the style
//!    table and drawing preparation, the published stages' components, the
//!    view filter, the timeline's position, the selection, the journal.
//! 4. [`level`] — the open level: loading off the main thread, recent
//!    files, hot reload, the pipeline per file.
//! 5. [`build`] — the runner on a worker thread, publishing each stage as
//!    it finishes; moving along the timeline; what comes back after a
//!    restart.
//! 6. [`view`] — the scene (camera, level, grid) and the retained drawing.
//! 7. [`probe`] — the path probe: search off the main thread, its drawing.
//! 8. [`compare`] — the pinned build B against the build on screen: the
//!    difference and the metrics off the main thread, its drawing.
//! 9. [`edit`] — parameter commands and presets, undo and redo.
//! 10. [`interact`] — picking under the cursor, the click tools, marker
//!     drags, hover.
//! 11. [`ui`] — egui panels, menus, dialogs, exports, overlays, readouts.
//! 12. [`dev`] — the development hooks: the state report for end-to-end
//!     tests, `--screenshot`, `--measure` and `--cpu`, the stand-in for
//!     the renderer's extraction that the frame bench uses.
//!
//! [`app`] assembles them: [`app::headless`] the parts that need no
//! renderer (for tests), [`app::windowed`] the desktop app.

pub mod app;
pub mod build;
pub mod cli;
pub mod compare;
pub mod dev;
pub mod discard;
pub mod display;
pub mod edit;
pub mod interact;
pub mod level;
pub mod model;
pub mod probe;
pub mod ui;
pub mod view;
pub mod why;
