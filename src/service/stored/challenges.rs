//! A challenge's row decoded: read back as the challenge it is (with the start position its
//! game is to begin from), and a challenge asked for written to its columns.

use super::{parse_rules, rules_json, start_columns, stored_start, time_control};
use crate::service::error::ServiceError;
use crate::service::types::{ChallengeInfo, ChallengeRequest, ChallengeStatus, Place, User};
use crate::store::challenges::{self as rows, ChallengeRow, NewChallenge};
use crate::store::{Connection, StoreError};
use crate::tafl::Position;

/// A stored challenge as it stands.
pub(crate) fn challenge(row: ChallengeRow) -> Result<ChallengeInfo, ServiceError> {
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
pub(crate) fn with_start(mut row: ChallengeRow) -> Result<(ChallengeInfo, Position), ServiceError> {
    let start = row.start.take();
    let info = challenge(row)?;
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
