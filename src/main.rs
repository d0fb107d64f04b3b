//! `navscope [LEVEL] [--pipeline P] [--stage N] [--screenshot F.png]`: the
//! desktop debugger. See the library docs for the parts.

use bevy::prelude::*;
use navscope::cli::{self, CliError};

fn main() -> AppExit {
    let args = match cli::parse(std::env::args_os().skip(1)) {
        Ok(a) => a,
        Err(CliError::Help) => {
            println!("{}", cli::USAGE);
            return AppExit::Success;
        }
        Err(CliError::Bad(msg)) => {
            eprintln!("navscope: {msg}\n{}", cli::USAGE);
            return AppExit::from_code(2);
        }
    };
    // Without a display winit panics with a backtrace; one line says it.
    if let Err(msg) = navscope::display::check() {
        eprintln!("navscope: {msg}");
        return AppExit::from_code(1);
    }
    navscope::app::windowed(&args).run()
}
