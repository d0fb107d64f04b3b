//! Shared builders for the tests.
#![allow(dead_code)]

pub use navscope_layers::samples::{conn, layer, rect};
