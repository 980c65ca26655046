//! The use cases on real SQLite files (and fresh PostgreSQL databases): whole games, restarts,
//! refusals, the outbox's policy, post-game analysis, the puzzles, a game's life beyond single
//! moves, the AI pool's fairness and limits; both backends' schemas agree; two services on one
//! PostgreSQL database do what must happen once, once.
//!
//! The files that were test binaries of their own are modules of this one, so that the library
//! and its dependencies are linked once for all of them: `cargo test --test service` runs them
//! all, `cargo test --test service races::` one of them.

#[path = "../support/mod.rs"]
mod support;

mod ai_pool;
mod analysis;
mod backup;
mod lifecycle;
mod notify;
mod outbox;
mod privacy;
mod puzzle_service;
mod races;
mod schema;
mod service;
mod tournament_clock;
mod tournaments;
mod unknown_commits;
mod vacation;
