//! Tournaments in a server: round robins and Swiss events of matches of two games, sides
//! swapped ([`Service::tournaments`]). An organiser creates one (its announcement carries Join
//! and Leave and lists the entrants, edited as they change), starts it (or the clock does, once
//! a sign-up with an end is over: [`Tournaments::start_due`]), and each round's
//! matches are paired (by [`crate::tournament`]) in one transaction with their notices: each
//! match game's thread is opened by its notice (the dispatcher makes the thread, then
//! [`Tournaments::open_game`] starts the game in it), the round's post carries the pairings and
//! the standings. When a round's last game ends, the next round is paired in the transaction
//! that ends it (the tournament's conditional round counter makes it once, whatever the
//! processes), or the tournament finishes. Every transaction that changes a tournament, or
//! starts or ends one of its games, locks the tournament's row first
//! ([`crate::store::tournaments::lock`]): they take turns, so the last two games of a round
//! ending at once in two processes still pair the next round, and joins at once fill the seats
//! and no more.
//!
//! What becomes of games under way: a pause stops the pairing of the next round (games under
//! way go on; `resume` pairs it if the round is over); a cancel aborts every unfinished game
//! of the tournament (unrated) and opens no more; a withdrawal (or a removal) scores every game
//! of the player not finished as lost (a game under way is aborted, unrated) and pairs them no
//! more. A tournament game aborted otherwise (its thread gone) counts as drawn.

mod manage;
mod rounds;
mod view;

pub(crate) use rounds::GameEnds;
pub use view::{standings_png, TournamentView};

use super::core::Core;
use super::play::Games;

pub use super::types::tournament::*;

/// Tournaments ([`Service::tournaments`]).
#[derive(Clone, Copy)]
pub struct Tournaments<'a> {
    pub(super) core: &'a Core,
    pub(super) games: Games<'a>,
}

impl<'a> Tournaments<'a> {
    pub(crate) fn new(core: &'a Core, games: Games<'a>) -> Tournaments<'a> {
        Tournaments { core, games }
    }
}
