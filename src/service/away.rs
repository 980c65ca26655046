//! Vacations as the core keeps them, for the move that ends one (in its commit), the clock that
//! ends those whose days are over, and the vacation part itself ([`super::vacation`]): a
//! vacation ended with each clock it stopped started again, the notices that tell each game's
//! channel, and the clocks set right where a turn's news was shown as a vacation started or
//! ended.

use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::notice::Payload;
use super::stored::games::{self as stored, LoadedGame, StoredGame};
use super::stored::vacations::{self as stored_vacations, StoredVacation};
use super::types::vacation::{VacationChange, VacationEnd, VacationEnded, VacationNews};
use super::types::{ChannelId, GameInfo, NoticeId, Player, UserId};
use crate::store::games;
use crate::store::vacations;
use crate::store::{Connection, StoreError};
use std::collections::HashSet;
use std::time::Duration;

/// The person to move in `game`, if a person is.
pub(crate) fn to_move(game: &GameInfo) -> Option<UserId> {
    game.to_move().and_then(Player::user_id)
}

/// `user`'s games under way, rebuilt (a game that cannot be is logged and left out).
pub(crate) async fn games_of(
    core: &Core,
    conn: &mut Connection,
    user: UserId,
) -> Result<Vec<LoadedGame>, ServiceError> {
    let mut out = Vec::new();
    for row in stored::active_of_user(&mut *conn, user).await? {
        out.extend(core.load_or_skip(row).await);
    }
    Ok(out)
}

/// The notice telling `game`'s channel of `user`'s `change`, if a person plays them there.
pub(crate) fn notice(
    game: &GameInfo,
    user: UserId,
    change: VacationChange,
) -> Option<(ChannelId, Payload)> {
    let (Player::User(a), Player::User(d)) = (&game.attackers, &game.defenders) else {
        return None;
    };
    let (me, other) = if a.id == user { (a, d) } else { (d, a) };
    if me.id != user || other.id == user {
        return None;
    }
    let news = News::Vacation(VacationNews {
        game: game.clone(),
        user: me.clone(),
        change,
    });
    Some((game.place.channel, Payload::news(news)))
}

/// Writes `notices` in the transaction under way, which read the database's time `now`;
/// returns the first one's id.
pub(crate) async fn tell(
    core: &Core,
    conn: &mut Connection,
    notices: Vec<(ChannelId, Payload)>,
    now: i64,
) -> Result<Option<NoticeId>, ServiceError> {
    let mut first = None;
    for (channel, payload) in notices {
        let id = core
            .notice(channel, "vacation", &payload)
            .write(conn, now)
            .await?
            .id;
        first.get_or_insert(id);
    }
    Ok(first)
}

/// Whether vacation `id` is stored as ended at `at`: a look at whether the transaction that
/// ended it landed, when its commit's outcome is unknown.
pub(crate) async fn ended_as(core: &Core, id: i64, at: i64) -> Result<bool, StoreError> {
    let row = stored_vacations::by_id(core.store.read(), id).await?;
    Ok(row.is_some_and(|v| v.ended_at == Some(at)))
}

/// Ends `open` (a member's vacation) at `now` for `why`, in the transaction under way, if it is
/// still on: recorded as ended then (at its planned end at the latest), and the clock of each
/// game where the member is to move started again with the time it stood at. Returns what
/// ended and the notices to write for it ([`tell`]); none if another end came first.
pub(crate) async fn end_open(
    core: &Core,
    conn: &mut Connection,
    open: &StoredVacation,
    now: i64,
    why: VacationEnd,
) -> Result<Option<(VacationEnded, Vec<(ChannelId, Payload)>)>, ServiceError> {
    let ended_at = now.min(open.planned_end).max(open.started_at);
    if !vacations::end(&mut *conn, open.id, ended_at).await? {
        return Ok(None);
    }
    let mut ended = VacationEnded {
        user: open.user,
        why,
        at: ended_at,
        lasted: Duration::from_millis((ended_at - open.started_at) as u64),
        restarted: 0,
    };
    let mut notices = Vec::new();
    for loaded in games_of(core, conn, open.user).await? {
        if to_move(&loaded.info) == Some(open.user)
            && games::thaw_clock(&mut *conn, loaded.info.id, loaded.turn.ply, now).await?
        {
            ended.restarted += 1;
        }
        notices.extend(notice(&loaded.info, open.user, VacationChange::Ended(why)));
    }
    Ok(Some((ended, notices)))
}

/// A move by `user` is being committed in `tx`: if they are on vacation, it ends now (before
/// the move is written, so the move's game has the time it stood at). Returns the notices to
/// write after the move's own ([`tell`]), so each channel reads the move first.
pub(crate) async fn end_by_move(
    core: &Core,
    conn: &mut Connection,
    user: UserId,
    now: i64,
) -> Result<Vec<(ChannelId, Payload)>, ServiceError> {
    let Some(open) = stored_vacations::open_of(&mut *conn, user).await? else {
        return Ok(Vec::new());
    };
    Ok(end_open(core, conn, &open, now, VacationEnd::Moved)
        .await?
        .map(|(_, notices)| notices)
        .unwrap_or_default())
}

/// The clock's look at vacations: each whose days have passed ends (its channels told), and
/// any game's clock that disagrees with its player to move's vacation (stopped with none on,
/// or running with one on: a turn's news shown while the vacation started or ended) is set
/// right. Returns the vacations ended.
pub(crate) async fn end_due(core: &Core) -> Result<Vec<VacationEnded>, ServiceError> {
    let now = core.database_now().await?;
    let mut out = Vec::new();
    for open in stored_vacations::due(core.store.read(), now).await? {
        let mut tx = core.store.write().await?;
        let now = core.database_now_on(&mut tx).await?;
        let Some((ended, notices)) =
            end_open(core, &mut tx, &open, now, VacationEnd::TimeUp).await?
        else {
            continue;
        };
        let first = tell(core, &mut tx, notices, now).await?;
        core.commit_answered(tx, first, || ended_as(core, open.id, ended.at))
            .await?;
        out.push(ended);
    }
    set_clocks_right(core).await?;
    Ok(out)
}

/// Stops the clocks that run for a player on vacation, and starts those stopped for one who is
/// not (see [`end_due`]).
async fn set_clocks_right(core: &Core) -> Result<(), ServiceError> {
    let away: HashSet<UserId> = vacations::open_users(core.store.read())
        .await?
        .into_iter()
        .collect();
    let mut rows: Vec<StoredGame> = stored::frozen(core.store.read()).await?;
    for user in &away {
        rows.extend(stored::active_of_user(core.store.read(), *user).await?);
    }
    let mut seen = HashSet::new();
    for row in rows {
        let turn = row.turn();
        if !seen.insert(row.id()) || turn.deadline.is_none() {
            continue;
        }
        let (frozen, waits) = (turn.frozen_at.is_some(), turn.waits_for.is_some());
        let Some(loaded) = core.load_or_skip(row).await else {
            continue;
        };
        let on = to_move(&loaded.info).is_some_and(|u| away.contains(&u));
        if on == frozen || (on && waits) {
            continue;
        }
        let now = core.database_now().await?;
        let mut writing = core.store.lock().await?;
        let (id, ply) = (loaded.info.id, loaded.turn.ply);
        let set = if on {
            games::freeze_clock(writing.ex(), id, ply, now).await?
        } else {
            games::thaw_clock(writing.ex(), id, ply, now).await?
        };
        if set {
            tracing::info!(
                game = id,
                stopped = on,
                "a game's clock set right for a vacation"
            );
        }
    }
    Ok(())
}
