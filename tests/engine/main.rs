//! The rules engine and the AI, without a database: every rule and worked case of RULES.md by
//! name, perft counts, property tests over random games, Brandubh and Copenhagen against the
//! `hnefatafl` crate, the AI from composed positions, puzzles proven by an independent search;
//! board PNGs and replay GIFs decoded and read back pixel by pixel.
//!
//! The files that were test binaries of their own are modules of this one, so that the library
//! and its dependencies are linked once for all of them: `cargo test --test engine` runs them
//! all, `cargo test --test engine rules::` one of them.

mod ai;
mod ai_variants;
mod perft;
mod presets;
mod properties;
mod puzzles;
mod records;
mod render;
#[path = "../render_support/mod.rs"]
mod render_support;
mod rules;
mod standings_image;
mod tournament;
mod variants;
