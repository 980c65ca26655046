//! Starting games: challenges between people (open, accept, decline, cancel, expire) and games
//! against the AI.

use super::core::Core;
use super::error::{Done, ServiceError};
use super::news::{News, NotStartedWhy, StartRefused};
use super::notice::{self, Answer, Answered};
use super::play::Games;
use super::stored::challenges::{self as stored, challenge as challenge_info, StoredChallenge};
use super::stored::games as stored_games;
use super::types::{
    AiGameRequest, Caption, ChallengeId, ChallengeInfo, ChallengeRequest, ChallengeStatus,
    ChannelId, ClockEvent, Clocks, GameInfo, NoticeId, Place, Player, Started, TimeControl, UserId,
};
use crate::store::challenges;
use crate::store::{self, Connection};
use crate::tafl::{Game, Position, Side};
use std::time::Duration;

impl Games<'_> {
    /// Opens a challenge. Refused: challenging yourself or a bot, a game already running in
    /// the channel (unless it is to be played in a thread), a second open challenge of yours
    /// in the channel, as many open challenges of yours as allowed, a person sent as many
    /// challenges lately as allowed. From a command that answers with the challenge and its
    /// buttons (`answer`), the challenge's message is also written to the outbox in the same
    /// transaction, held for that answer (its notice returned, as written, for the handler to
    /// show).
    pub async fn challenge(
        self,
        req: ChallengeRequest,
        answer: Option<Answer>,
    ) -> Result<Answered<(ChallengeInfo, Option<NoticeId>)>, ServiceError> {
        self.challengeable(&req).await?;
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let expires_at = now + self.core.config.challenge_ttl.as_millis() as i64;
        self.check_challenge_limits(Some(&mut tx), &req, now)
            .await?;
        let id = stored::insert(&mut tx, &req, now, expires_at)
            .await
            .map_err(ServiceError::unless_taken(
                "challenges",
                ServiceError::ChallengeOpen,
            ))?;
        let notice = match answer {
            Some(answer) => {
                let row = stored::by_id(&mut *tx, id)
                    .await?
                    .ok_or(ServiceError::NoChallenge)?;
                let info = challenge_info(row)?;
                let payload = notice::Payload {
                    buttons: Some(notice::Buttons::Challenge(id)),
                    ..answer.payload(notice::Payload::news(News::Challenge(info.clone())))
                };
                let hold = self.core.delivery.answer_grace;
                Some(
                    self.core
                        .notice(info.place.channel, "challenge", &payload)
                        .held(hold)
                        .write(&mut tx, now)
                        .await?,
                )
            }
            None => None,
        };
        // Landed: the challenge, as this transaction wrote it.
        let challenger = req.challenger.id;
        let landed = || async move {
            let row = stored::by_id(self.core.store.read(), id).await?;
            Ok(row.is_some_and(|r| (r.challenger(), r.created_at()) == (challenger, now)))
        };
        let written = notice.as_ref().map(|n| n.id);
        self.core.commit_answered(tx, written, landed).await?;
        let info = self
            .challenge_info(id)
            .await
            .map_err(ServiceError::after(Done::Challenge))?;
        Ok(Answered::with((info, written), notice))
    }

    /// Checks, reading only, that [`Games::challenge`] would open the challenge now: every
    /// refusal, the limits included (counted without the locks the commit takes), so that the
    /// bot answers it before it acknowledges the command.
    pub async fn check_challenge(self, req: &ChallengeRequest) -> Result<(), ServiceError> {
        self.challengeable(req).await?;
        let now = self.core.database_now().await?;
        self.check_challenge_limits(None, req, now).await
    }

    /// Refuses a challenge to oneself or a bot, or in a channel whose game is running.
    async fn challengeable(self, req: &ChallengeRequest) -> Result<(), ServiceError> {
        if req.opponent.id == req.challenger.id {
            return Err(ServiceError::SelfChallenge);
        }
        if req.opponent_is_bot {
            return Err(ServiceError::OpponentIsBot);
        }
        if !req.thread
            && stored_games::active_in_channel(self.core.store.read(), req.place.channel)
                .await?
                .is_some()
        {
            return Err(ServiceError::GameRunning);
        }
        Ok(())
    }

    /// Refuses a challenge past the limits: the challenger's open challenges, and the
    /// challenges the challenged user was sent in the window. Counted in the transaction that
    /// would insert it (`conn`), under a lock on each user's count (see
    /// [`store::dialect::lock_in_transaction`]), so challenges made at once cannot pass a
    /// limit together; without one, read as they stand (the check before the command is
    /// acknowledged).
    async fn check_challenge_limits(
        self,
        mut conn: Option<&mut Connection>,
        req: &ChallengeRequest,
        now: i64,
    ) -> Result<(), ServiceError> {
        let limit = self.core.config.open_challenges_per_user;
        if limit > 0 {
            let key = format!("open-challenges:{}", req.challenger.id);
            let (open, first) = match conn.as_deref_mut() {
                Some(conn) => {
                    let backend = self.core.store.backend();
                    store::dialect::lock_in_transaction(&mut *conn, backend, &key).await?;
                    challenges::open_of(&mut *conn, req.challenger.id, now).await?
                }
                None => challenges::open_of(self.core.store.read(), req.challenger.id, now).await?,
            };
            if open >= limit {
                let wait = first.map_or(0, |at| at - now).max(0) as u64;
                return Err(ServiceError::TooManyOpenChallenges {
                    open,
                    first_expires_in: wait.div_ceil(1000),
                });
            }
        }
        let (limit, window) = (
            self.core.config.challenges_received,
            self.core.config.challenges_received_window.as_millis() as i64,
        );
        if limit > 0 && window > 0 {
            let key = format!("challenges-received:{}", req.opponent.id);
            let (who, since) = (req.opponent.id, now - window);
            let (received, first) = match conn {
                Some(conn) => {
                    let backend = self.core.store.backend();
                    store::dialect::lock_in_transaction(&mut *conn, backend, &key).await?;
                    challenges::received_since(&mut *conn, who, since).await?
                }
                None => challenges::received_since(self.core.store.read(), who, since).await?,
            };
            if received >= limit {
                let wait = first.map_or(window, |at| at + window - now).max(0) as u64;
                return Err(ServiceError::ChallengedTooOften {
                    received,
                    window: (window as u64).div_ceil(1000),
                    wait: wait.div_ceil(1000),
                });
            }
        }
        Ok(())
    }

    /// A challenge as it stands.
    pub async fn challenge_info(self, id: ChallengeId) -> Result<ChallengeInfo, ServiceError> {
        match stored::by_id(self.core.store.read(), id).await? {
            Some(row) => challenge_info(row),
            None => Err(ServiceError::NoChallenge),
        }
    }

    /// Reads a challenge that `user` may answer now (a challenge past its time is marked
    /// expired and refused).
    async fn answerable(
        self,
        id: ChallengeId,
        user: UserId,
    ) -> Result<StoredChallenge, ServiceError> {
        let row = self.challenged(id, user).await?;
        self.still_open(row).await
    }

    /// Reads challenge `id`, if it was made to `user`.
    async fn challenged(
        self,
        id: ChallengeId,
        user: UserId,
    ) -> Result<StoredChallenge, ServiceError> {
        let row = stored::by_id(self.core.store.read(), id)
            .await?
            .ok_or(ServiceError::NoChallenge)?;
        if row.challenged() != user {
            return Err(ServiceError::ChallengeNotYours);
        }
        Ok(row)
    }

    /// Reads challenge `id`, if `user` made it.
    async fn challenged_by(
        self,
        id: ChallengeId,
        user: UserId,
    ) -> Result<StoredChallenge, ServiceError> {
        let row = stored::by_id(self.core.store.read(), id)
            .await?
            .ok_or(ServiceError::NoChallenge)?;
        if row.challenger() != user {
            return Err(ServiceError::NotYourChallenge);
        }
        Ok(row)
    }

    /// The refusal for a challenge that another answer closed first: how it was closed.
    async fn closed_meanwhile(self, id: ChallengeId) -> ServiceError {
        match stored::by_id(self.core.store.read(), id).await {
            Ok(Some(row)) => match row.status() {
                ChallengeStatus::Expired => ServiceError::ChallengeExpired,
                closed => ServiceError::ChallengeClosed(closed),
            },
            Ok(None) => ServiceError::NoChallenge,
            Err(e) => e.into(),
        }
    }

    /// `row`, if it is still open (a challenge past its time is marked expired and refused).
    async fn still_open(self, row: StoredChallenge) -> Result<StoredChallenge, ServiceError> {
        match self.open_at(&row).await? {
            Ok(()) => Ok(row),
            Err(now) => {
                expire(self.core, row, now).await?;
                Err(ServiceError::ChallengeExpired)
            }
        }
    }

    /// Whether `row` is still open, reading only: refused if it is closed; `Err(now)` if it
    /// is past its time now (on the database's clock) but not yet marked expired.
    async fn open_at(self, row: &StoredChallenge) -> Result<Result<(), i64>, ServiceError> {
        match row.status() {
            ChallengeStatus::Pending => {}
            ChallengeStatus::Expired => return Err(ServiceError::ChallengeExpired),
            closed => return Err(ServiceError::ChallengeClosed(closed)),
        }
        let now = self.core.database_now().await?;
        Ok(if row.expires_at() <= now {
            Err(now)
        } else {
            Ok(())
        })
    }

    /// `row`, if it is still open, reading only: one past its time is refused as expired, and
    /// left for the clock (or the answer that follows) to mark so.
    async fn open_now(self, row: StoredChallenge) -> Result<StoredChallenge, ServiceError> {
        match self.open_at(&row).await? {
            Ok(()) => Ok(row),
            Err(_) => Err(ServiceError::ChallengeExpired),
        }
    }

    /// Checks, reading only, that `user` could accept the challenge now (the bot checks before
    /// it acknowledges the press, and before it makes a thread for the game). A challenge past
    /// its time is refused, not marked: that is a write.
    pub async fn check_accept(
        self,
        id: ChallengeId,
        user: UserId,
    ) -> Result<ChallengeInfo, ServiceError> {
        challenge_info(self.open_now(self.challenged(id, user).await?).await?)
    }

    /// Checks, reading only, that `user` could decline the challenge now.
    pub async fn check_decline(self, id: ChallengeId, user: UserId) -> Result<(), ServiceError> {
        self.check_accept(id, user).await.map(drop)
    }

    /// Checks, reading only, that `user` could withdraw the challenge now.
    pub async fn check_cancel(self, id: ChallengeId, user: UserId) -> Result<(), ServiceError> {
        self.open_now(self.challenged_by(id, user).await?)
            .await
            .map(drop)
    }

    /// The challenged player accepts: the game starts in the challenge's channel, or in
    /// `channel` when given (a thread made for it, whose first post goes through the outbox).
    /// The game starts, the challenge closes (naming it) and the thread's first post is
    /// written in one transaction; a game already running in the channel refuses it. From a
    /// button press whose answer shows the start (`answer`), the news (the game on, or where
    /// it is played) is written to the outbox in the same transaction, held for that answer,
    /// and returned as written, for the handler to show. If the game was to be played in a
    /// thread and cannot start (the challenge expired or was answered meanwhile), the thread is
    /// told why, so it is not left empty.
    pub async fn accept(
        self,
        id: ChallengeId,
        user: UserId,
        channel: Option<ChannelId>,
        answer: Option<Answer>,
    ) -> Result<Answered<Started>, ServiceError> {
        let result = self.try_accept(id, user, channel, answer).await;
        if let (Err(e), Some(thread)) = (&result, channel) {
            if !e.is_internal() {
                let payload = notice::Payload::news(News::NotStarted {
                    why: NotStartedWhy::Refused(StartRefused::of(e)),
                });
                let mut tx = self.core.store.write().await?;
                let now = self.core.database_now_on(&mut tx).await?;
                let told = self
                    .core
                    .notice(thread, "not_started", &payload)
                    .write(&mut tx, now)
                    .await?
                    .id;
                self.core.commit_noticed(tx, told).await?;
            }
        }
        result
    }

    async fn try_accept(
        self,
        id: ChallengeId,
        user: UserId,
        channel: Option<ChannelId>,
        answer: Option<Answer>,
    ) -> Result<Answered<Started>, ServiceError> {
        let (row, start) = stored::with_start(self.answerable(id, user).await?)?;
        let challenger = Player::User(row.challenger.clone());
        let challenged = Player::User(row.challenged.clone());
        let (attackers, defenders) = match row.side.resolve() {
            Side::Attackers => (challenger, challenged),
            Side::Defenders => (challenged, challenger),
        };
        let place = Place {
            guild: row.place.guild,
            channel: channel.unwrap_or(row.place.channel),
        };
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let info = self
            .create_game(
                &mut tx,
                NewGame {
                    place,
                    attackers,
                    defenders,
                    start,
                    time_control: row.time_control,
                    rated: row.rated,
                },
                now,
            )
            .await?;
        // Answered (or expired) meanwhile: dropping the transaction takes the game back.
        if !challenges::close(
            &mut *tx,
            row.id,
            ChallengeStatus::Accepted.to_store(),
            Some(info.id),
            now,
        )
        .await?
        {
            drop(tx);
            return Err(self.closed_meanwhile(row.id).await);
        }
        // In a thread, the start is its first post, and the acceptance tells where the
        // challenge was made that the game is on there; else the acceptance is the start.
        let first = match channel {
            Some(_) => Some(
                self.write_start(&mut tx, &info, "game_started", None, user, now)
                    .await?
                    .id,
            ),
            None => None,
        };
        let notice = match (answer, channel) {
            (Some(answer), Some(thread)) => Some(
                self.write_accepted_in_thread(&mut tx, &row, thread, answer, now)
                    .await?,
            ),
            (Some(answer), None) => Some(
                self.write_start(&mut tx, &info, "accepted", Some(answer), user, now)
                    .await?,
            ),
            (None, _) => None,
        };
        // Landed: the challenge accepted with this game.
        let (challenge, game) = (row.id, info.id);
        let landed = || async move {
            let row = stored::by_id(self.core.store.read(), challenge).await?;
            Ok(row
                .is_some_and(|r| r.status() == ChallengeStatus::Accepted && r.game() == Some(game)))
        };
        let written = notice.as_ref().map(|n| n.id);
        self.core
            .commit_answered(tx, written.or(first), landed)
            .await?;
        let mut started = self
            .started(info)
            .await
            .map_err(ServiceError::after(Done::GameStart))?;
        started.notice = written;
        Ok(Answered::with(started, notice))
    }

    /// `info`'s start with its board, written in `conn`'s transaction as the notice `kind` in
    /// the game's channel (shown by `answer` and held for it, when there is one), the first
    /// player's clock waiting for it and their turn's direct message (unless they are `by`, who
    /// started the game). Returns the notice.
    async fn write_start(
        self,
        conn: &mut Connection,
        info: &GameInfo,
        kind: &str,
        answer: Option<Answer>,
        by: UserId,
        now: i64,
    ) -> Result<notice::Notice, ServiceError> {
        let payload = self.core.with_board(News::Started(info.clone()), info);
        let (payload, hold) = match answer {
            Some(answer) => (answer.payload(payload), self.core.delivery.answer_grace),
            None => (payload, Duration::ZERO),
        };
        let start = self
            .core
            .notice(info.place.channel, kind, &payload)
            .held(hold)
            .write(conn, now)
            .await?;
        self.core.clock_waits(conn, info, start.id).await?;
        (self.core)
            .tell_turn(conn, info, start.id, Some(by), None, now)
            .await?;
        Ok(start)
    }

    /// The acceptance's notice where the challenge was made, shown by `answer`, in `conn`'s
    /// transaction: the game is on in its thread (`thread`).
    async fn write_accepted_in_thread(
        self,
        conn: &mut Connection,
        row: &ChallengeInfo,
        thread: ChannelId,
        answer: Answer,
        now: i64,
    ) -> Result<notice::Notice, ServiceError> {
        let mut closed = row.clone();
        closed.status = ChallengeStatus::Accepted;
        let news = News::ChallengeClosed {
            challenge: closed,
            thread: Some(thread),
        };
        let payload = answer.payload(notice::Payload::news(news));
        let hold = self.core.delivery.answer_grace;
        self.core
            .notice(row.place.channel, "accepted", &payload)
            .held(hold)
            .write(conn, now)
            .await
    }

    /// The challenged player declines. From a button press (`answer`), the news is written
    /// to the outbox with the change, held for the press's answer (its notice returned, as
    /// written, for the handler to show).
    pub async fn decline(
        self,
        id: ChallengeId,
        user: UserId,
        answer: Option<Answer>,
    ) -> Result<Answered<(ChallengeInfo, Option<NoticeId>)>, ServiceError> {
        let row = self.answerable(id, user).await?;
        self.close_challenge(row, ChallengeStatus::Declined, answer)
            .await
    }

    /// The challenger withdraws the challenge; from a button press, as [`Games::decline`].
    pub async fn cancel(
        self,
        id: ChallengeId,
        user: UserId,
        answer: Option<Answer>,
    ) -> Result<Answered<(ChallengeInfo, Option<NoticeId>)>, ServiceError> {
        let row = self.challenged_by(id, user).await?;
        let row = self.still_open(row).await?;
        self.close_challenge(row, ChallengeStatus::Cancelled, answer)
            .await
    }

    async fn close_challenge(
        self,
        row: StoredChallenge,
        status: ChallengeStatus,
        answer: Option<Answer>,
    ) -> Result<Answered<(ChallengeInfo, Option<NoticeId>)>, ServiceError> {
        let id = row.id();
        let mut closed = challenge_info(row)?;
        closed.status = status;
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        if !challenges::close(&mut *tx, id, status.to_store(), None, now).await? {
            drop(tx);
            return Err(self.closed_meanwhile(id).await);
        }
        let notice = match answer {
            Some(answer) => {
                let news = News::ChallengeClosed {
                    challenge: closed.clone(),
                    thread: None,
                };
                let payload = answer.payload(notice::Payload::news(news));
                let hold = self.core.delivery.answer_grace;
                let channel = closed.place.channel;
                Some(
                    self.core
                        .notice(channel, "challenge_closed", &payload)
                        .held(hold)
                        .write(&mut tx, now)
                        .await?,
                )
            }
            None => None,
        };
        // Landed: the challenge closed as this transaction closed it.
        let landed = || async move {
            let row = stored::by_id(self.core.store.read(), id).await?;
            Ok(row.is_some_and(|r| r.status() == status))
        };
        let written = notice.as_ref().map(|n| n.id);
        self.core.commit_answered(tx, written, landed).await?;
        let info = self
            .challenge_info(id)
            .await
            .map_err(ServiceError::after(Done::ChallengeDecided))?;
        Ok(Answered::with((info, written), notice))
    }

    /// Starts a game against the AI. If the AI has the first move, call [`Ai::turn`](super::ai::Ai::turn).
    /// Refused: the AI's queue is full, the user has as many games against the AI in the server
    /// as allowed, or started one too recently. From a command that answers with the start
    /// (`answer`), the start (with the board) is also written to the outbox in the same
    /// transaction, held for that answer (its notice returned, as written, for the handler to
    /// show).
    pub async fn start_ai_game(
        self,
        req: AiGameRequest,
        answer: Option<Answer>,
    ) -> Result<Answered<Started>, ServiceError> {
        let user_id = req.user.id;
        let human = Player::User(req.user);
        let ai = Player::Ai(req.level);
        let (attackers, defenders) = match req.side.resolve() {
            Side::Attackers => (human, ai),
            Side::Defenders => (ai, human),
        };
        let start = match req.start {
            Some(p) => p,
            None => Position::start(req.rules),
        };
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        self.ai
            .check_game_limits(Some((&mut tx, now)), req.place.guild, user_id)
            .await?;
        let info = self
            .create_game(
                &mut tx,
                NewGame {
                    place: req.place,
                    attackers,
                    defenders,
                    start,
                    time_control: req.time_control,
                    rated: false,
                },
                now,
            )
            .await?;
        let notice = match answer {
            Some(answer) => Some(
                self.write_start(&mut tx, &info, "started", Some(answer), user_id, now)
                    .await?,
            ),
            None => None,
        };
        // Landed: this game, in its channel, between its players.
        let (id, place, players) = (
            info.id,
            info.place,
            (info.attackers.clone(), info.defenders.clone()),
        );
        let players = &players;
        let landed = || async move {
            let row = stored_games::by_id(self.core.store.read(), id).await?;
            Ok(row.is_some_and(|r| {
                r.channel() == place.channel && r.seats_are(&players.0, &players.1)
            }))
        };
        let written = notice.as_ref().map(|n| n.id);
        self.core.commit_answered(tx, written, landed).await?;
        let mut started = self
            .started(info)
            .await
            .map_err(ServiceError::after(Done::GameStart))?;
        started.notice = written;
        Ok(Answered::with(started, notice))
    }

    /// Checks, reading only, that [`Games::start_ai_game`] would start the game now: the AI's
    /// queue, the user's games against the AI and the cooldown (read without the lock the
    /// commit takes), so that the bot answers a refusal before it acknowledges the command.
    pub async fn check_ai_game(self, req: &AiGameRequest) -> Result<(), ServiceError> {
        self.ai
            .check_game_limits(None, req.place.guild, req.user.id)
            .await
    }

    async fn started(self, info: GameInfo) -> Result<Started, ServiceError> {
        let png = self
            .core
            .image(info.start, None, &Caption::Game(&info))
            .await?;
        Ok(Started {
            game: info,
            png,
            notice: None,
        })
    }

    /// Inserts `game` at its start, at `now` (the database's time the transaction read). The
    /// channel's one-active-game constraint refuses a second: that violation is
    /// [`ServiceError::GameRunning`].
    pub(super) async fn create_game(
        self,
        conn: &mut Connection,
        game: NewGame,
        now: i64,
    ) -> Result<GameInfo, ServiceError> {
        let NewGame {
            place,
            attackers,
            defenders,
            start,
            time_control,
            rated,
        } = game;
        let rules = *start.rules();
        let game = Game::from_position(start);
        if game.outcome().is_over() {
            return Err(ServiceError::GameOver);
        }
        let rated = rated && place.guild.is_some() && !attackers.is_ai() && !defenders.is_ai();
        let mut info = GameInfo {
            id: 0,
            place,
            attackers,
            defenders,
            rules,
            start,
            rated,
            ply: 0,
            turn: game.turn(),
            outcome: game.outcome(),
            time_control,
            turn_deadline: None,
            board_message_id: None,
            tournament: None,
            clocks: match time_control {
                TimeControl::Fischer { bank, .. } => Some(Clocks::both(bank.as_millis() as i64)),
                _ => None,
            },
        };
        info.turn_deadline = self.core.deadline(&info, now);
        info.id =
            stored_games::insert(conn, &info, now)
                .await
                .map_err(ServiceError::unless_taken(
                    "games",
                    ServiceError::GameRunning,
                ))?;
        Ok(info)
    }
}

/// A game to start ([`Games::create_game`]): where, between whom, from which position, on
/// which clock, and whether it is to be rated (only between people in a server).
pub(super) struct NewGame {
    pub(super) place: Place,
    pub(super) attackers: Player,
    pub(super) defenders: Player,
    pub(super) start: Position,
    pub(super) time_control: TimeControl,
    pub(super) rated: bool,
}

/// Closes a challenge whose time ran out, with its notice (the challenge message edited,
/// its buttons removed) in the outbox. Returns it, if it was still open.
pub(super) async fn expire(
    core: &Core,
    row: StoredChallenge,
    now: i64,
) -> Result<Option<ChallengeInfo>, ServiceError> {
    let mut info = challenge_info(row)?;
    info.status = ChallengeStatus::Expired;
    let payload = notice::Payload {
        edit: info.message_id,
        ..notice::Payload::news(News::Clock(ClockEvent::ChallengeExpired(info.clone())))
    };
    let mut tx = core.store.write().await?;
    if !challenges::close(
        &mut *tx,
        info.id,
        ChallengeStatus::Expired.to_store(),
        None,
        now,
    )
    .await?
    {
        return Ok(None);
    }
    let told = core
        .notice(info.place.channel, "challenge_expired", &payload)
        .write(&mut tx, now)
        .await?
        .id;
    core.commit_noticed(tx, told).await?;
    Ok(Some(info))
}
