//! A tournament's life as its organiser and its players change it: the organisers' role,
//! created, joined and left, started, withdrawn from (or a player removed), paused, resumed,
//! cancelled. Each change is one transaction with its notices.

use super::view::{find_in, LoadedTournament};
use super::{
    Member, TournamentFormat, TournamentId, TournamentInfo, TournamentNews, TournamentRefusal,
    TournamentRequest, TournamentStatus, Tournaments, MAX_NAME, MAX_SWISS_ROUNDS,
};
use crate::service::backoff::Work;
use crate::service::error::ServiceError;
use crate::service::news::News;
use crate::service::notice::{Buttons, Payload};
use crate::service::stored::notices as stored_notices;
use crate::service::stored::tournaments as stored;
use crate::service::types::NoticeId;
use crate::service::types::{GuildId, User, UserId};
use crate::store::tournaments as rows;
use crate::store::{Connection, Write};

/// A tournament's name, checked: 1 to [`MAX_NAME`] characters, letters, digits, spaces and
/// plain punctuation only (no mentions, no markdown), its spaces collapsed.
pub(super) fn checked_name(name: &str) -> Result<String, TournamentRefusal> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME {
        return Err(TournamentRefusal::NameLength { chars });
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || " -'.,!?&()+/".contains(*c)))
    {
        return Err(TournamentRefusal::NameCharacter(c));
    }
    Ok(name)
}

impl<'a> Tournaments<'a> {
    /// Tournament `id` of `guild` (none: the one [`find_in`] picks), locked first of all
    /// ([`LoadedTournament::lock`]) in a new write transaction, for a change by `member`:
    /// refused unless they may organise it (none: a player's change to their own entry).
    async fn organising(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        member: Option<&Member>,
    ) -> Result<(Write<'a>, LoadedTournament), ServiceError> {
        let mut tx = self.core.store.write().await?;
        let id = find_in(&mut *tx, guild, id).await?;
        let loaded = LoadedTournament::lock(&mut tx, self.core.store.backend(), id).await?;
        if let Some(member) = member {
            self.may_organise(&mut tx, guild, member, Some(loaded.tournament.organiser()))
                .await?;
        }
        Ok((tx, loaded))
    }
}

impl Tournaments<'_> {
    /// Whether `member` may organise tournaments in `guild` (or this one, `organiser` its
    /// creator): Manage Server, or the server's organisers' role.
    async fn may_organise(
        self,
        conn: &mut Connection,
        guild: GuildId,
        member: &Member,
        organiser: Option<UserId>,
    ) -> Result<(), ServiceError> {
        if member.manage_server || organiser == Some(member.user.id) {
            return Ok(());
        }
        match rows::organisers(&mut *conn, guild).await? {
            Some(role) if member.roles.contains(&role) => Ok(()),
            _ => Err(TournamentRefusal::NotOrganiser.into()),
        }
    }

    /// Names the role whose members may organise tournaments (none: only Manage Server).
    pub async fn set_organisers(
        self,
        guild: GuildId,
        member: &Member,
        role: Option<u64>,
    ) -> Result<(), ServiceError> {
        if !member.manage_server {
            return Err(TournamentRefusal::NotManager.into());
        }
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        rows::set_organisers(&mut *tx, guild, role, member.user.id, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Creates a tournament and writes its announcement (with Join and Leave) to the outbox.
    /// Refused: not an organiser, a bad name, seats or rounds out of range, a sign-up's end
    /// not in the future.
    pub async fn create(self, req: TournamentRequest) -> Result<TournamentInfo, ServiceError> {
        let name = checked_name(&req.name)?;
        let max = req.format.max_seats();
        if req.seats < 2 || req.seats > max as i64 {
            return Err(TournamentRefusal::Seats {
                asked: req.seats,
                max,
            }
            .into());
        }
        if let TournamentFormat::Swiss { rounds } = req.format {
            let most = MAX_SWISS_ROUNDS.min(req.seats as u32 - 1);
            if rounds < 1 || rounds > most {
                return Err(TournamentRefusal::Rounds {
                    asked: rounds as i64,
                    max: most,
                }
                .into());
            }
        }
        let mut tx = self.core.store.write().await?;
        self.may_organise(&mut tx, req.guild, &req.organiser, None)
            .await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let signup_until = req
            .signup_for
            .map(|d| now.saturating_add(d.as_millis() as i64));
        let id = stored::insert(&mut tx, &req, &name, signup_until, now).await?;
        let info = LoadedTournament::read(&mut tx, id).await?.info()?;
        let payload = Payload {
            buttons: Some(Buttons::Tournament(id)),
            ..Payload::news(News::Tournament(TournamentNews::Announced(info.clone())))
        };
        let notice = self
            .core
            .notice(req.channel, "tournament", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        rows::set_announcement(&mut *tx, id, notice).await?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }

    /// The announcement edited to show the tournament as it stands (its buttons while it
    /// signs up), in `conn`'s transaction.
    async fn edit_announcement(
        self,
        conn: &mut Connection,
        id: TournamentId,
        now: i64,
    ) -> Result<(TournamentInfo, NoticeId), ServiceError> {
        let loaded = LoadedTournament::read(conn, id).await?;
        let info = loaded.info()?;
        let mut message = loaded.tournament.announcement_message();
        if message.is_none() {
            if let Some(notice) = loaded.tournament.announcement() {
                message = stored_notices::message_of(&mut *conn, notice).await?;
                if let Some(message) = message {
                    rows::set_announcement_message(&mut *conn, id, message).await?;
                }
            }
        }
        let payload = Payload {
            buttons: (info.status == TournamentStatus::SignUp).then_some(Buttons::Tournament(id)),
            edit: message,
            edit_notice: message
                .is_none()
                .then_some(loaded.tournament.announcement())
                .flatten(),
            ..Payload::news(News::Tournament(TournamentNews::Announced(info.clone())))
        };
        let notice = self
            .core
            .notice(info.channel, "tournament_entrants", &payload)
            .write(conn, now)
            .await?
            .id;
        Ok((info, notice))
    }

    /// `user` joins tournament `id` (of `guild`; none: the newest open one). Refused: no such
    /// tournament, its sign-up over, every seat taken, already in.
    pub async fn join(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        user: User,
    ) -> Result<TournamentInfo, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let id = find_in(&mut *tx, guild, id).await?;
        let loaded = LoadedTournament::lock(&mut tx, self.core.store.backend(), id).await?;
        let now = self.core.database_now_on(&mut tx).await?;
        self.signing_up(&loaded, now)?;
        if loaded.entrants.iter().any(|e| e.user.id == user.id) {
            return Err(TournamentRefusal::AlreadyIn.into());
        }
        if loaded.entrants.len() as i64 >= loaded.tournament.seats() {
            return Err(TournamentRefusal::Full {
                seats: loaded.tournament.seats() as u32,
            }
            .into());
        }
        rows::join(&mut *tx, id, user.id, &user.name, now)
            .await
            .map_err(|e| match e.is_unique_violation("tournament_entrants") {
                true => TournamentRefusal::AlreadyIn.into(),
                false => ServiceError::from(e),
            })?;
        let (info, notice) = self.edit_announcement(&mut tx, id, now).await?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }

    /// `user` leaves tournament `id` before its start. Refused: no such tournament, started,
    /// not in.
    pub async fn leave(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        user: UserId,
    ) -> Result<TournamentInfo, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let id = find_in(&mut *tx, guild, id).await?;
        let loaded = LoadedTournament::lock(&mut tx, self.core.store.backend(), id).await?;
        if loaded.status()? != TournamentStatus::SignUp {
            return Err(TournamentRefusal::SignUpOver.into());
        }
        if !rows::leave(&mut *tx, id, user).await? {
            return Err(TournamentRefusal::NotIn.into());
        }
        let (info, notice) = self.edit_announcement(&mut tx, id, now).await?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }

    fn signing_up(self, loaded: &LoadedTournament, now: i64) -> Result<(), ServiceError> {
        let status = loaded.status()?;
        if status != TournamentStatus::SignUp {
            return Err(TournamentRefusal::Status(status).into());
        }
        if loaded
            .tournament
            .signup_until()
            .is_some_and(|until| until <= now)
        {
            return Err(TournamentRefusal::SignUpOver.into());
        }
        Ok(())
    }

    /// The organiser starts tournament `id`: seats given in the order the entrants joined, the
    /// first round paired, the announcement edited (its buttons removed), in one transaction.
    /// Refused: not an organiser, not signing up, fewer than two entrants.
    pub async fn start(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        member: &Member,
    ) -> Result<TournamentInfo, ServiceError> {
        let (mut tx, loaded) = self.organising(guild, id, Some(member)).await?;
        let id = loaded.tournament.id();
        let status = loaded.status()?;
        if status != TournamentStatus::SignUp {
            return Err(TournamentRefusal::Status(status).into());
        }
        let entrants = loaded.entrants.len() as u32;
        if entrants < 2 {
            return Err(TournamentRefusal::TooFew { entrants }.into());
        }
        if let TournamentFormat::Swiss { rounds } = loaded.format() {
            if rounds >= entrants {
                return Err(TournamentRefusal::Rounds {
                    asked: rounds as i64,
                    max: entrants - 1,
                }
                .into());
            }
        }
        let now = self.core.database_now_on(&mut tx).await?;
        let Some(notice) = self.begin(&mut tx, &loaded, now).await? else {
            return Err(TournamentRefusal::Status(TournamentStatus::Running).into());
        };
        let info = LoadedTournament::read(&mut tx, id).await?.info()?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }

    /// Moves a tournament signing up to running in `conn`'s transaction, if it still signs
    /// up (the status's conditional change decides, whatever the processes): seats given in
    /// the order the entrants joined, the announcement edited (its buttons removed), the
    /// first round paired. Returns the announcement's edit, or none if it was not signing up.
    async fn begin(
        self,
        conn: &mut Connection,
        loaded: &LoadedTournament,
        now: i64,
    ) -> Result<Option<NoticeId>, ServiceError> {
        let id = loaded.tournament.id();
        if !stored::set_status(
            &mut *conn,
            id,
            TournamentStatus::SignUp,
            TournamentStatus::Running,
            now,
        )
        .await?
        {
            return Ok(None);
        }
        for (seat, e) in loaded.entrants.iter().enumerate() {
            rows::seat(&mut *conn, id, e.user.id, seat as i64).await?;
        }
        let (_, notice) = self.edit_announcement(conn, id, now).await?;
        self.core.pair_round(conn, id, 1, now).await?;
        Ok(Some(notice))
    }

    /// Every tournament whose sign-up has ended by the database's time, started by the clock:
    /// with at least two entrants it starts as its organiser would start it (a Swiss event
    /// with fewer entrants than its rounds need plays as many as they allow, the entrants
    /// less one); with fewer it is cancelled, and the channel is told why. Each is one
    /// transaction that moves the tournament out of its sign-up only if it still signs up,
    /// so that two processes start it once. A tournament that fails is logged and set aside
    /// for a while; the others go on. Returns the tournaments started or cancelled.
    pub async fn start_due(self) -> Result<Vec<TournamentInfo>, ServiceError> {
        let now = self.core.database_now().await?;
        let mut out = Vec::new();
        for due in stored::signup_over(self.core.store.read(), now).await? {
            let id = due.id();
            if !self.core.retries.ready(Work::SignUpOver, id, now) {
                continue;
            }
            match self.signup_ended(id).await {
                Ok(done) => {
                    self.core.retries.succeeded(Work::SignUpOver, id);
                    out.extend(done);
                }
                Err(e) => {
                    let (failures, next) = self.core.retries.failed(Work::SignUpOver, id, now);
                    tracing::error!(tournament = id, error = ?e, failures, retry_in_s = (next - now) / 1000, "cannot start a tournament whose sign-up ended: set aside");
                }
            }
        }
        Ok(out)
    }

    /// Tournament `id`'s sign-up ended: started, or cancelled with fewer than two entrants,
    /// in one transaction; none if it no longer signs up or its sign-up has not ended (another
    /// process or its organiser came first).
    async fn signup_ended(self, id: TournamentId) -> Result<Option<TournamentInfo>, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let loaded = LoadedTournament::lock(&mut tx, self.core.store.backend(), id).await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let due = loaded
            .tournament
            .signup_until()
            .is_some_and(|until| until <= now);
        if loaded.status()? != TournamentStatus::SignUp || !due {
            return Ok(None);
        }
        let entrants = loaded.entrants.len() as u32;
        if entrants < 2 {
            if !stored::set_status(
                &mut tx,
                id,
                TournamentStatus::SignUp,
                TournamentStatus::Cancelled,
                now,
            )
            .await?
            {
                return Ok(None);
            }
            let (info, _) = self.edit_announcement(&mut tx, id, now).await?;
            let news = TournamentNews::NotStarted {
                tournament: info.clone(),
                entrants,
            };
            let payload = Payload::news(News::Tournament(news));
            let notice = self
                .core
                .notice(info.channel, "tournament_status", &payload)
                .write(&mut tx, now)
                .await?
                .id;
            self.core.commit_noticed(tx, notice).await?;
            return Ok(Some(info));
        }
        if let TournamentFormat::Swiss { rounds } = loaded.format() {
            if rounds >= entrants {
                rows::set_rounds(&mut *tx, id, i64::from(entrants - 1)).await?;
            }
        }
        let loaded = LoadedTournament::read(&mut tx, id).await?;
        let Some(notice) = self.begin(&mut tx, &loaded, now).await? else {
            return Ok(None);
        };
        let info = LoadedTournament::read(&mut tx, id).await?.info()?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(Some(info))
    }

    /// `user` withdraws from tournament `id` (or, `by` an organiser, is removed): before the
    /// start, they leave; after it, every game of theirs not finished is lost (one under way
    /// aborted, unrated), they are paired no more, and the channel is told. Refused: not in,
    /// withdrawn already, the tournament over; a removal by a member who may not organise.
    pub async fn withdraw(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        user: UserId,
        by: Option<&Member>,
    ) -> Result<TournamentInfo, ServiceError> {
        let (mut tx, loaded) = self.organising(guild, id, by).await?;
        let id = loaded.tournament.id();
        let status = loaded.status()?;
        let Some(entrant) = loaded.entrants.iter().find(|e| e.user.id == user) else {
            return Err(TournamentRefusal::NotIn.into());
        };
        match status {
            TournamentStatus::SignUp => {
                drop(tx);
                return self.leave(guild, Some(id), user).await;
            }
            TournamentStatus::Running | TournamentStatus::Paused => {}
            other => return Err(TournamentRefusal::Status(other).into()),
        }
        let seat = entrant.seat.ok_or(TournamentRefusal::NotIn)?;
        let now = self.core.database_now_on(&mut tx).await?;
        if !rows::withdraw(&mut *tx, id, user, loaded.tournament.round()).await? {
            return Err(TournamentRefusal::NotIn.into());
        }
        let loaded = LoadedTournament::read(&mut tx, id).await?;
        let info = loaded.info()?;
        let news = TournamentNews::Withdrawn {
            tournament: info.clone(),
            user: entrant.user.clone(),
            removed: by.is_some(),
        };
        let payload = Payload::news(News::Tournament(news.clone()));
        let notice = self
            .core
            .notice(info.channel, "tournament_withdrawn", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        self.forfeit_rest(&mut tx, &loaded, seat, &news, now)
            .await?;
        let info = LoadedTournament::read(&mut tx, id).await?.info()?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }

    /// The organiser pauses a running tournament: games under way go on; the next round is
    /// not paired until it is resumed.
    pub async fn pause(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        member: &Member,
    ) -> Result<TournamentInfo, ServiceError> {
        self.change_status(
            guild,
            id,
            member,
            TournamentStatus::Running,
            TournamentStatus::Paused,
        )
        .await
    }

    /// The organiser resumes a paused tournament: if its round is over, the next is paired.
    pub async fn resume(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        member: &Member,
    ) -> Result<TournamentInfo, ServiceError> {
        self.change_status(
            guild,
            id,
            member,
            TournamentStatus::Paused,
            TournamentStatus::Running,
        )
        .await
    }

    /// The organiser cancels a tournament not over: every unfinished game of it is aborted
    /// (unrated), no thread more is opened, and no round more paired.
    pub async fn cancel(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        member: &Member,
    ) -> Result<TournamentInfo, ServiceError> {
        let (mut tx, loaded) = self.organising(guild, id, Some(member)).await?;
        let id = loaded.tournament.id();
        let status = loaded.status()?;
        if matches!(
            status,
            TournamentStatus::Finished | TournamentStatus::Cancelled
        ) {
            return Err(TournamentRefusal::Status(status).into());
        }
        let now = self.core.database_now_on(&mut tx).await?;
        if !stored::set_status(&mut tx, id, status, TournamentStatus::Cancelled, now).await? {
            return Err(TournamentRefusal::Status(status).into());
        }
        let info = match status {
            TournamentStatus::SignUp => self.edit_announcement(&mut tx, id, now).await?.0,
            _ => LoadedTournament::read(&mut tx, id).await?.info()?,
        };
        let news = TournamentNews::Status(info.clone());
        for leg in stored::legs_of(&mut *tx, id).await? {
            if leg.first_points.is_none() {
                self.abort_under_way(&mut tx, &leg, &news, now).await?;
            }
        }
        let payload = Payload::news(News::Tournament(news));
        let notice = self
            .core
            .notice(info.channel, "tournament_status", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }

    async fn change_status(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
        member: &Member,
        from: TournamentStatus,
        to: TournamentStatus,
    ) -> Result<TournamentInfo, ServiceError> {
        let (mut tx, loaded) = self.organising(guild, id, Some(member)).await?;
        let id = loaded.tournament.id();
        let now = self.core.database_now_on(&mut tx).await?;
        if !stored::set_status(&mut tx, id, from, to, now).await? {
            return Err(TournamentRefusal::Status(loaded.status()?).into());
        }
        let info = LoadedTournament::read(&mut tx, id).await?.info()?;
        let payload = Payload::news(News::Tournament(TournamentNews::Status(info.clone())));
        let notice = self
            .core
            .notice(info.channel, "tournament_status", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        if to == TournamentStatus::Running {
            self.core.round_looked_at(&mut tx, id, now).await?;
        }
        let info = LoadedTournament::read(&mut tx, id).await?.info()?;
        self.core.commit_noticed(tx, notice).await?;
        Ok(info)
    }
}
