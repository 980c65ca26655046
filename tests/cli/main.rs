//! The built binary run as a user runs it: the command line's output and exit codes, the AI's
//! tools and engine protocol, the renderer's commands; and every relative link and repository
//! path the documentation names.
//!
//! The files that were test binaries of their own are modules of this one, so that the library
//! and its dependencies are linked once for all of them: `cargo test --test cli` runs them all,
//! `cargo test --test cli ai_cli::` one of them.

mod ai_cli;
mod cli;
mod docs;
mod operator;
mod render_cli;
mod rooms;
mod toolchain;
