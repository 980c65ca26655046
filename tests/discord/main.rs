//! End to end: the real serenity/poise client, started as `main` starts it, against the fake
//! Discord on 127.0.0.1: whole games and every refusal, Brandubh and Copenhagen, games in a
//! community, against the AI, the daily puzzle, post-game analysis, the limits on what one user may
//! open, news shown by edits, delivery under injected faults, channels and messages gone, gateway
//! shards, tournaments played to the end; and `kill -9` of the real binary in the middle of a game.
//!
//! The files that were test binaries of their own are modules of this one, so that the library
//! and its dependencies (and the fake Discord) are compiled and linked once for all of them:
//! `cargo test --test discord` runs them all, `cargo test --test discord bot_ai::` one of them.

#[path = "../support/mod.rs"]
mod support;

mod bot;
mod bot_ai;
mod bot_analysis;
mod bot_puzzle;
mod bot_variants;
mod community;
mod crash;
mod edits;
mod faults;
mod gone;
mod limits;
mod notify;
mod operator;
mod privacy;
mod shards;
mod tournament_events;
mod tournament_threads;
mod tournaments;
mod vacation;
