//! Turn notifications: how a member is told that games wait on them, across servers
//! ([`NotifyMode`]: a direct message a move, one daily digest, or none; the default is
//! [`NotifyMode::DEFAULT`]). A change takes effect at the next turn it would tell.

use super::away::{games_of, to_move};
use super::core::Core;
use super::dm::turn_time;
use super::error::ServiceError;
use super::news::News;
use super::notice::Payload;
use super::stored::notify::{self as stored_notify, setting_of};
use super::types::vacation::DAY_MS;
use super::types::UserId;
use crate::store::{notify, vacations};

pub use super::types::notify::{
    Digest, DmsRefused, LastMove, NotifyChanged, NotifyMode, NotifySetting, TurnDm, Waiting,
};

/// Turn notifications (`Service::notifications`).
#[derive(Clone, Copy)]
pub struct Notifications<'a> {
    core: &'a Core,
}

impl<'a> Notifications<'a> {
    pub(crate) fn new(core: &'a Core) -> Notifications<'a> {
        Notifications { core }
    }
}

impl Notifications<'_> {
    /// `user`'s setting.
    pub async fn setting(self, user: UserId) -> Result<NotifySetting, ServiceError> {
        Ok(setting_of(self.core.store.read(), user).await?)
    }

    /// `user` chooses `mode`: stored now, in effect from the next turn it would tell (a
    /// direct message already written still goes).
    pub async fn set(self, user: UserId, mode: NotifyMode) -> Result<NotifyChanged, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let before = setting_of(&mut *tx, user).await?;
        notify::set(&mut *tx, user, mode.as_str(), now).await?;
        let stored = || async move {
            let row = stored_notify::of_user(self.core.store.read(), user).await?;
            Ok(row.is_some_and(|r| r.is(mode) && r.set_at() == now))
        };
        self.core.commit_or_look(tx, stored).await?;
        Ok(NotifyChanged { before, now: mode })
    }
}

/// The notice kind of a daily digest.
const DIGEST: &str = "digest";

/// The clock's sweep of the daily digests: each member who chose the digest and has had none
/// today (the database's UTC day) is claimed in the database (so one process sends it, once
/// a day), and, unless they are on vacation or no game waits on them, sent the list of the
/// games where it is their move, written with the claim. A member who fails is logged and the
/// others go on (their claim rolled back: the next sweep tries again). Returns how many
/// digests were written.
pub(crate) async fn send_digests(core: &Core) -> Result<u32, ServiceError> {
    let today = core.database_now().await?.div_euclid(DAY_MS);
    let mut sent = 0;
    for user in notify::digest_due(core.store.read(), today).await? {
        match digest_for(core, user).await {
            Ok(true) => sent += 1,
            Ok(false) => {}
            Err(e) => tracing::error!(user, error = ?e, "cannot send a daily digest"),
        }
    }
    Ok(sent)
}

/// Claims and writes `user`'s digest of today, if it is still theirs to have; returns whether
/// one was written.
async fn digest_for(core: &Core, user: UserId) -> Result<bool, ServiceError> {
    let mut tx = core.store.write().await?;
    let now = core.database_now_on(&mut tx).await?;
    let day = now.div_euclid(DAY_MS);
    if !notify::claim_digest(&mut *tx, user, day).await? {
        return Ok(false);
    }
    let away = vacations::open_of(&mut *tx, user).await?.is_some();
    let mut games = Vec::new();
    for loaded in games_of(core, &mut tx, user).await? {
        if away || to_move(&loaded.info) != Some(user) {
            continue;
        }
        let turn = &loaded.turn;
        let time_left_ms = match (turn.deadline, turn.waits_for, turn.frozen_at) {
            (None, _, _) => None,
            (Some(_), Some(_), _) => turn_time(&loaded.info),
            (Some(deadline), None, Some(frozen)) => Some(deadline - frozen),
            (Some(deadline), None, None) => Some(deadline - now),
        };
        games.push(Waiting {
            game: loaded.info,
            time_left_ms,
        });
    }
    let claimed = || async move {
        let row = stored_notify::of_user(core.store.read(), user).await?;
        Ok(row.is_some_and(|r| r.digest_day() == Some(day)))
    };
    if games.is_empty() {
        core.commit_answered(tx, None, claimed).await?;
        return Ok(false);
    }
    let news = News::Digest(Digest { user, day, games });
    let id = core
        .notice(user, DIGEST, &Payload::news(news))
        .write(&mut tx, now)
        .await?
        .id;
    core.commit_answered(tx, Some(id), claimed).await?;
    Ok(true)
}
