//! The egui user interface: panels, menus, the timeline, the probe panel,
//! the inspector, overlays over the 3D view, file dialogs and exports, the
//! frame-time readout, and where the widgets are for the state report.

pub mod click_time;
pub mod compare_panel;
pub mod dialogs;
pub mod export;
pub mod fonts;
pub mod frames;
pub mod inspector;
pub mod menu;
mod notice;
pub mod overlay;
pub mod pacing;
pub mod panels;
mod param_groups;
mod param_widget;
pub mod probe_panel;
pub mod readouts;
pub mod refresh;
pub mod state;
pub mod timeline_panel;
pub mod view_panel;
mod why_panel;
pub mod widget_report;
