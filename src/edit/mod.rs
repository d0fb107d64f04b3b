//! Changing things the user can take back: parameter commands and presets
//! ([`params`]), and the undo / redo history ([`history`]).

pub mod history;
pub mod params;
