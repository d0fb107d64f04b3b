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
    navscope::app::windowed(&args).run()
}
