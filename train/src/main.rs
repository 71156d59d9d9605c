//! `crumble`: the command-line program of Crumble Zero. One thin file per subcommand lives in
//! `cli/`; this file only parses the arguments and turns errors into exit statuses.
//!
//! Exit status: 0 on success, 2 on bad input of any kind (flags, position files, notation,
//! illegal moves; clap's own usage errors also exit 2), with the reason on stderr.

mod cli;

/// mimalloc keeps freed memory for reuse: the network's passes allocate and free tens of
/// megabytes per call, and with the system allocator a training step spent a fifth of its
/// time in the kernel faulting fresh zeroed pages back in.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        // `crumble moves | head -1` closes stdout early: that is not an error.
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Messages quote user input (moves, file lines, names): no raw control bytes.
            eprintln!("error: {}", cli::text::escape_controls(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let args = cli::Cli::parse();
    crumble_model::check_device_env().map_err(anyhow::Error::msg)?;
    cli::dispatch(args)
}
