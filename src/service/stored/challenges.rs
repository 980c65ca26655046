//! A challenge's row decoded: read back ([`StoredChallenge`]: what the checks on an answer
//! read of it) and decoded whole as the challenge it is (with the start position its game is
//! to begin from), and a challenge asked for written to its columns.

use super::{parse_rules, rules_json, start_columns, stored_start, time_control};
use crate::service::error::ServiceError;
use crate::service::types::{
    ChallengeId, ChallengeInfo, ChallengeRequest, ChallengeStatus, ChannelId, GameId, Place, User,
    UserId,
};
use crate::store::challenges::{self as rows, ChallengeRow, NewChallenge};
use crate::store::{AnyExecutor, Connection, StoreError};
use crate::tafl::Position;

/// A challenge read back. It is decoded whole only when asked ([`challenge`]): a side or rules
/// this version cannot read are an error there, not in the checks that read the rest.
#[derive(Debug, Clone)]
pub(crate) struct StoredChallenge(ChallengeRow);

impl StoredChallenge {
    pub(crate) fn id(&self) -> ChallengeId {
        self.0.id
    }

    /// Who made it.
    pub(crate) fn challenger(&self) -> UserId {
        self.0.challenger_id
    }

    /// Who it was made to.
    pub(crate) fn challenged(&self) -> UserId {
        self.0.challenged_id
    }

    /// The channel it was made in.
    pub(crate) fn channel(&self) -> ChannelId {
        self.0.channel_id
    }

    pub(crate) fn status(&self) -> ChallengeStatus {
        ChallengeStatus::from_store(self.0.status)
    }

    /// The game it started, once accepted.
    pub(crate) fn game(&self) -> Option<GameId> {
        self.0.game_id
    }

    /// When it was made.
    pub(crate) fn created_at(&self) -> i64 {
        self.0.created_at
    }

    /// When it expires, unless answered first.
    pub(crate) fn expires_at(&self) -> i64 {
        self.0.expires_at
    }
}

/// Challenge `id`, if there is one.
pub(crate) async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: ChallengeId,
) -> Result<Option<StoredChallenge>, StoreError> {
    Ok(rows::by_id(ex, id).await?.map(StoredChallenge))
}

/// The challenge that started game `game`, if one did.
pub(crate) async fn by_game<'e>(
    ex: impl AnyExecutor<'e>,
    game: GameId,
) -> Result<Option<StoredChallenge>, StoreError> {
    Ok(rows::by_game(ex, game).await?.map(StoredChallenge))
}

/// Open challenges whose time ran out by `now`.
pub(crate) async fn expired<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
) -> Result<Vec<StoredChallenge>, StoreError> {
    let found = rows::expired(ex, now).await?;
    Ok(found.into_iter().map(StoredChallenge).collect())
}

/// A stored challenge as it stands.
pub(crate) fn challenge(
    StoredChallenge(row): StoredChallenge,
) -> Result<ChallengeInfo, ServiceError> {
    Ok(ChallengeInfo {
        id: row.id,
        place: Place {
            guild: row.guild_id,
            channel: row.channel_id,
        },
        challenger: User::new(row.challenger_id, row.challenger_name),
        challenged: User::new(row.challenged_id, row.challenged_name),
        side: row.side.parse().map_err(ServiceError::Internal)?,
        rules: parse_rules(&row.rules)?,
        time_control: time_control(row.time_per_move_ms, row.increment_ms),
        thread: row.thread,
        rated: row.rated,
        status: ChallengeStatus::from_store(row.status),
        expires_at: row.expires_at,
        message_id: row.message_id,
    })
}

/// A stored challenge, and the position its game starts from.
pub(crate) fn with_start(
    StoredChallenge(mut row): StoredChallenge,
) -> Result<(ChallengeInfo, Position), ServiceError> {
    let start = row.start.take();
    let info = challenge(StoredChallenge(row))?;
    let start = stored_start(start.as_ref(), info.rules)?;
    Ok((info, start))
}

/// Writes the challenge `req` asks for, made at `now` and open until `expires_at`: its id.
///
/// # Errors
///
/// The store's, a unique violation among them when the challenger has one open in the
/// channel already.
pub(crate) async fn insert(
    conn: &mut Connection,
    req: &ChallengeRequest,
    now: i64,
    expires_at: i64,
) -> Result<i64, StoreError> {
    let rules = rules_json(&req.rules);
    let start = start_columns(req.start.as_ref());
    let new = NewChallenge {
        guild_id: req.place.guild,
        channel_id: req.place.channel,
        challenger_id: req.challenger.id,
        challenger_name: &req.challenger.name,
        challenged_id: req.opponent.id,
        challenged_name: &req.opponent.name,
        side: req.side.name(),
        rules: &rules,
        start: start.as_ref().map(|(p, t)| (p.as_str(), t.as_str())),
        time_per_move_ms: req.time_control.as_ms(),
        increment_ms: req.time_control.increment_ms(),
        thread: req.thread,
        rated: req.rated,
        now,
        expires_at,
    };
    rows::insert(&mut *conn, &new).await
}
