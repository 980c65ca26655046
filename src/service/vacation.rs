//! Vacations: a member's clocks stand still in all their games, in every server, for up to the
//! days they ask, within a yearly allowance ([`super::Config::vacation_days_per_year`], counted
//! over the last 365 days of days actually taken). While one is on, the clock of each game
//! where the member is to move stops (`games.clock_frozen_at`: their deadline or bank is kept as
//! it stood, and no reminder comes); it starts again with the time they had left when the
//! vacation ends: asked for ([`Vacations::end`]), by a move of theirs (in the move's
//! transaction), or when its days have passed (the clock's look, [`super::away::end_due`]). A turn that
//! reaches them while they are away starts stopped (the news's delivery stops it at once, see
//! [`crate::store::games::start_clock_shown`]). Each game's channel with a person on the other
//! side is told once at the start and once at the end, by notices written in the same
//! transaction.

use super::away::{end_open, ended_as, games_of, notice, tell, to_move};
use super::core::Core;
use super::error::ServiceError;
use super::stored::vacations::{self as stored, StoredVacation};
use super::types::{User, UserId};
use crate::store::games;
use crate::store::vacations;
use crate::store::AnyExecutor;
use std::time::Duration;

pub use super::types::vacation::{
    VacationChange, VacationEnd, VacationEnded, VacationNews, VacationStarted, VacationStatus,
    DAY_MS, YEAR_MS,
};

/// Vacations (`Service::vacations`).
#[derive(Clone, Copy)]
pub struct Vacations<'a> {
    core: &'a Core,
}

impl<'a> Vacations<'a> {
    pub(crate) fn new(core: &'a Core) -> Vacations<'a> {
        Vacations { core }
    }
}

impl Vacations<'_> {
    /// `user`'s vacation now, and the days left of their allowance.
    pub async fn status(self, user: UserId) -> Result<VacationStatus, ServiceError> {
        let now = self.core.database_now().await?;
        self.status_at(self.core.store.read(), user, now).await
    }

    async fn status_at<'e>(
        self,
        ex: impl AnyExecutor<'e>,
        user: UserId,
        now: i64,
    ) -> Result<VacationStatus, ServiceError> {
        let rows = stored::of_user_since(ex, user, now - YEAR_MS).await?;
        let allowance = self.core.config.vacation_days_per_year;
        Ok(status_of(&rows, now, allowance))
    }

    /// Whether `user` may start a vacation of `days` days now: read only, so that a refusal is
    /// answered at once.
    ///
    /// # Errors
    /// [`ServiceError::AlreadyOnVacation`], [`ServiceError::VacationDays`].
    pub async fn check_start(self, user: UserId, days: u32) -> Result<(), ServiceError> {
        refuse_start(&self.status(user).await?, days)
    }

    /// Whether `user` is on vacation, for ending it: read only.
    ///
    /// # Errors
    /// [`ServiceError::NotOnVacation`].
    pub async fn check_end(self, user: UserId) -> Result<(), ServiceError> {
        match self.status(user).await?.on {
            Some(_) => Ok(()),
            None => Err(ServiceError::NotOnVacation),
        }
    }

    /// `user` goes on vacation for `days` days from now: their clocks stop in every game of
    /// theirs where they are to move (and in those where their turn comes, until it ends), and
    /// each game's channel with a person on the other side is told, all in one transaction.
    ///
    /// # Errors
    /// [`ServiceError::AlreadyOnVacation`]; [`ServiceError::VacationDays`] for 0 days or more
    /// than the whole days left of the allowance. Nothing is changed then.
    pub async fn start(self, user: &User, days: u32) -> Result<VacationStarted, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let status = self.status_at(&mut *tx, user.id, now).await?;
        refuse_start(&status, days)?;
        let until = now + i64::from(days) * DAY_MS;
        vacations::insert(&mut *tx, user.id, now, until)
            .await
            .map_err(ServiceError::unless_taken(
                "vacations",
                ServiceError::AlreadyOnVacation { until },
            ))?;
        let mut started = VacationStarted {
            until,
            games: 0,
            stopped: 0,
            days_left: status.days_left - days,
        };
        let mut notices = Vec::new();
        for loaded in games_of(self.core, &mut tx, user.id).await? {
            started.games += 1;
            if to_move(&loaded.info) == Some(user.id)
                && games::freeze_clock(&mut *tx, loaded.info.id, loaded.turn.ply, now).await?
            {
                started.stopped += 1;
            }
            notices.extend(notice(
                &loaded.info,
                user.id,
                VacationChange::Started { until },
            ));
        }
        let first = tell(self.core, &mut tx, notices, now).await?;
        let user = user.id;
        let opened = || async move {
            let open = stored::open_of(self.core.store.read(), user).await?;
            Ok(open.is_some_and(|v| v.started_at == now && v.planned_end == until))
        };
        self.core.commit_answered(tx, first, opened).await?;
        Ok(started)
    }

    /// `user` is back: their vacation ends now, their clocks start again with the time they had
    /// left, and each game's channel with a person on the other side is told.
    ///
    /// # Errors
    /// [`ServiceError::NotOnVacation`]: nothing is changed.
    pub async fn end(self, user: UserId) -> Result<VacationEnded, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let open = stored::open_of(&mut *tx, user)
            .await?
            .ok_or(ServiceError::NotOnVacation)?;
        let (ended, notices) = end_open(self.core, &mut tx, &open, now, VacationEnd::Asked)
            .await?
            .ok_or(ServiceError::NotOnVacation)?;
        let first = tell(self.core, &mut tx, notices, now).await?;
        self.core
            .commit_answered(tx, first, || ended_as(self.core, open.id, ended.at))
            .await?;
        Ok(ended)
    }
}

/// The status of a member whose vacations since a year ago are `rows`, at `now`.
fn status_of(rows: &[StoredVacation], now: i64, allowance: u32) -> VacationStatus {
    let since = now - YEAR_MS;
    let used: i64 = rows
        .iter()
        .map(|v| (v.ended_at.unwrap_or(now).min(now) - v.started_at.max(since)).max(0))
        .sum();
    let on = rows
        .iter()
        .find(|v| v.ended_at.is_none())
        .map(|v| (v.started_at, v.planned_end));
    let left = (i64::from(allowance) * DAY_MS - used).max(0) / DAY_MS;
    VacationStatus {
        on,
        used: Duration::from_millis(used as u64),
        days_left: if on.is_some() { 0 } else { left as u32 },
        allowance,
    }
}

/// Why a vacation of `days` days cannot start, if it cannot.
fn refuse_start(status: &VacationStatus, days: u32) -> Result<(), ServiceError> {
    if let Some((_, until)) = status.on {
        return Err(ServiceError::AlreadyOnVacation { until });
    }
    if days == 0 || days > status.days_left {
        return Err(ServiceError::VacationDays {
            asked: days,
            left: status.days_left,
            allowance: status.allowance,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(started_at: i64, ended_at: Option<i64>) -> StoredVacation {
        StoredVacation {
            id: 1,
            user: 7,
            started_at,
            planned_end: started_at + 30 * DAY_MS,
            ended_at,
        }
    }

    /// The allowance counts the time taken in the last 365 days, to the millisecond, and a
    /// vacation is asked in the whole days left.
    #[test]
    fn the_allowance_counts_the_last_year_of_days_taken() {
        let now = 1000 * DAY_MS;
        let none = status_of(&[], now, 30);
        assert_eq!(
            (none.on, none.days_left, none.used),
            (None, 30, Duration::ZERO)
        );
        // Ten days and two hours taken: 19 whole days left.
        let taken = [row(
            now - 20 * DAY_MS,
            Some(now - 10 * DAY_MS + 2 * 3_600_000),
        )];
        let s = status_of(&taken, now, 30);
        assert_eq!(s.days_left, 19);
        assert_eq!(
            s.used,
            Duration::from_millis((10 * DAY_MS + 2 * 3_600_000) as u64)
        );
        // Only the part within the last 365 days counts.
        let old = [row(
            now - YEAR_MS - 5 * DAY_MS,
            Some(now - YEAR_MS + DAY_MS),
        )];
        assert_eq!(status_of(&old, now, 30).days_left, 29);
        // One on now counts so far, and none may start beside it.
        let on = [row(now - 3 * DAY_MS, None)];
        let s = status_of(&on, now, 30);
        assert_eq!(s.on, Some((now - 3 * DAY_MS, now + 27 * DAY_MS)));
        assert_eq!(
            (s.days_left, s.used),
            (0, Duration::from_millis(3 * DAY_MS as u64))
        );
        assert!(matches!(
            refuse_start(&s, 1),
            Err(ServiceError::AlreadyOnVacation { until }) if until == now + 27 * DAY_MS
        ));
        assert!(matches!(
            refuse_start(&none, 0),
            Err(ServiceError::VacationDays {
                asked: 0,
                left: 30,
                allowance: 30
            })
        ));
        assert!(matches!(
            refuse_start(&none, 31),
            Err(ServiceError::VacationDays {
                asked: 31,
                left: 30,
                ..
            })
        ));
        assert!(refuse_start(&none, 30).is_ok());
    }
}
