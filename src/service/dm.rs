//! A member's direct messages as the core writes them: the turn notification, written in the
//! transaction of the change that gives a person the turn (a move, the AI's included, a game's
//! start), beside the notice that shows the turn in the game's channel ([`super::notify`] is
//! the part that changes a member's setting and sends the daily digests).
//!
//! A direct message is a notice like any other, queued under its member's id instead of a
//! channel's (Discord's ids never coincide), so a member's messages go out in order and never
//! hold up a game's channel; the bot opens the direct channel when it delivers it.

use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::stored::notify::setting_of;
use super::types::notify::{LastMove, NotifyMode, TurnDm};
use super::types::{GameInfo, NoticeId, Player, TimeControl, UserId};
use crate::store::{vacations, Connection};
use std::time::Duration;

/// The notice kind of a turn's direct message.
pub(crate) const TURN_DM: &str = "turn_dm";

/// The most a turn's direct message waits for the notice that shows the turn in the game's
/// channel (to link to the message it becomes): past it, it is sent linking to the channel.
pub(crate) const LINK_WAIT: Duration = Duration::from_secs(60);

/// The time the player to move in `game` has for the turn just given them (their bank, or
/// the time per move), if the game has a clock.
pub(crate) fn turn_time(game: &GameInfo) -> Option<i64> {
    match (game.time_control, game.clocks) {
        (TimeControl::Fischer { .. }, Some(clocks)) => Some(clocks.of(game.turn)),
        (tc, _) => tc.per_move().map(|d| d.as_millis() as i64),
    }
}

impl Core {
    /// The turn in `game` (as it stands after the change) was just given by the change whose
    /// notice `shown_by` shows it in the channel, the change made by `by` (a person's command;
    /// none: the AI or the clock) with `last_move` (none: the game's start): if a person is to
    /// move who is not `by`, wants a direct message a move, and is not on vacation, one is
    /// written, in the caller's transaction (at most one a move: the change is committed once
    /// per ply), waiting for `shown_by` (at most [`LINK_WAIT`]) to link to its message.
    /// Returns it, if written.
    pub(crate) async fn tell_turn(
        &self,
        conn: &mut Connection,
        game: &GameInfo,
        shown_by: NoticeId,
        by: Option<UserId>,
        last_move: Option<LastMove>,
        now: i64,
    ) -> Result<Option<NoticeId>, ServiceError> {
        let Some(Player::User(user)) = game.to_move() else {
            return Ok(None);
        };
        if by == Some(user.id) {
            return Ok(None);
        }
        if setting_of(&mut *conn, user.id).await?.mode != NotifyMode::Move {
            return Ok(None);
        }
        // On vacation their clock stands still: nothing waits on them.
        if vacations::open_of(&mut *conn, user.id).await?.is_some() {
            return Ok(None);
        }
        let news = News::TurnDm(TurnDm {
            user: user.id,
            game: game.clone(),
            last_move,
            time_left_ms: turn_time(game),
            shown_by,
        });
        let payload = self.with_board(news, game);
        let id = self
            .notice(user.id, TURN_DM, &payload)
            .after(shown_by, LINK_WAIT)
            .write(conn, now)
            .await?
            .id;
        Ok(Some(id))
    }
}
