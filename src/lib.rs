//! tablut-bot: Tablut on Discord. The rules engine (`tafl`) and the tournaments' pairings and
//! standings (`tournament`) stand alone; everything else is built over them.

pub mod ai;
pub mod bot;
pub mod cli;
pub mod credentials;
pub mod echo;
pub mod rating;
pub mod render;
pub mod service;
pub mod store;
pub mod tafl;
pub mod tournament;
