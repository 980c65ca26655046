//! What the bot says: every message's text, from the service's plain types. Pure functions.
//!
//! Every word a player reads is made here, one file a topic:
//! - [`format`]: the helpers the others use: a message's limit and the net every reply goes
//!   through ([`fit`]), lists cut to fit, mentions, names (escaped), variants' names, counts.
//! - [`games`]: a game's posts: start, moves, end, turn and result lines, board, history,
//!   replay, export and import, hints, AI waits, draw offers, the list of games running.
//! - [`challenges`]: a challenge, its thread's name, its acceptance, refusal or withdrawal.
//! - [`clocks`]: time controls, the one wording of spans of time ([`span_words`]), a game's
//!   clocks, what the clock says in a game's channel, vacations.
//! - [`moves`]: why a move is not taken: its text, its squares, the rules it breaks.
//! - [`imports`]: why a game record cannot be read: its tags, rules, start position, moves.
//! - [`rules`]: each variant's rules in brief, the variants' full names, presets' names and
//!   what each preset changes.
//! - [`records`]: stats and leaderboards.
//! - [`analysis`]: an analysis's labels, progress and summary.
//! - [`puzzles`]: puzzles' words.
//! - [`privacy`]: what the bot stores about a member, and forgetting it.
//! - [`refusals`]: the one-line private answers to what cannot be done.
//! - [`labels`]: the buttons' labels.
//! - [`commands`]: the slash commands' descriptions, their options' and their choices' labels.
//! - [`notify`]: turn notifications: the setting, the direct messages, the notice that they
//!   are refused.
//! - [`notices`]: the words of each notice the outbox delivers, from the topics above.
//! - [`captions`]: the text drawn into images (a board's caption, a graph's title), from the
//!   topics above, for the service that draws them (`Service::with_captions`).
//!
//! A new topic gets a file of its own beside these (tournaments' words in `tournaments.rs`);
//! new clock words go in `clocks.rs`. Everything is re-exported here: callers write
//! `messages::turn_line`, whichever file holds it.

mod analysis;
mod captions;
mod challenges;
mod clocks;
mod commands;
mod format;
mod games;
mod imports;
mod labels;
mod moves;
mod notices;
mod notify;
mod privacy;
mod puzzles;
mod records;
mod refusals;
mod rules;
pub mod tournaments;

pub use analysis::*;
pub use captions::*;
pub use challenges::*;
pub use clocks::*;
pub use commands::*;
pub use format::*;
pub use games::*;
pub use imports::*;
pub use labels::*;
pub use moves::*;
pub use notices::*;
pub use notify::*;
pub use privacy::*;
pub use puzzles::*;
pub use records::*;
pub use refusals::*;
pub use rules::*;

#[cfg(test)]
mod tests;
