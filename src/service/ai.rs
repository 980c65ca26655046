//! The AI's side of the service: its turns, hints, and the limits on its use. Every search
//! runs on the pool's workers (never on the async runtime, never holding a database
//! connection); the database is the queue's truth: a game where the AI is to move is a turn
//! owed, and [`Ai::games_awaiting`] finds every one, after a restart or a failure.

use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::notice::{Answer, Payload};
use super::stored::games::{self as stored, LoadedGame};
use super::types::{ChannelId, GameId, GuildId, Hint, MoveReport, Player, UserId};
use crate::ai::pool::{Pool, Search, SearchFound};
use crate::ai::queue::{Class, Owner, Ticket};
use crate::ai::Level;
use crate::ai::SearchResult;
use crate::store::{self, games, Connection};
use crate::tafl::Game;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

pub use super::config::AI_CLAIM_MARGIN;

/// The shortest time between two renewals of a claim on an AI turn.
const MIN_RENEWAL: Duration = Duration::from_millis(10);

/// A game's AI turn being played: while it lives no other turn of the game starts; dropped
/// (finished, failed or abandoned), it withdraws the request if no worker has it yet.
struct TurnClaim<'a> {
    ai: Ai<'a>,
    game: GameId,
}

impl Drop for TurnClaim<'_> {
    fn drop(&mut self) {
        let ticket = self
            .ai
            .turns
            .turns
            .lock()
            .expect("AI turns")
            .remove(&self.game)
            .flatten();
        if let Some(ticket) = ticket {
            if self.ai.pool.cancel(ticket) {
                // Withdrawn before a worker took it: never searched.
                self.ai.turns.searches.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

/// A task renewing a claim, counted while it runs (from before it is spawned until it ends or
/// is dropped with the runtime).
struct Renewer(Arc<AtomicUsize>);

impl Renewer {
    fn new(count: Arc<AtomicUsize>) -> Renewer {
        count.fetch_add(1, Ordering::SeqCst);
        Renewer(count)
    }
}

impl Drop for Renewer {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What a process keeps of the AI's turns and hints.
pub(crate) struct AiTurns {
    /// The games whose AI turn is being played now, with its place in the pool's queue once
    /// queued: at most one turn per game at a time.
    turns: Mutex<HashMap<GameId, Option<Ticket>>>,
    /// The searches given to the workers for the AI's turns (less those withdrawn before a
    /// worker took them).
    pub(crate) searches: AtomicU64,
    /// The renewals of this service's claims on AI turns that found the claim still held.
    pub(crate) claim_renewals: Arc<AtomicU64>,
    /// The tasks renewing this service's claims on AI turns that are running now.
    pub(crate) claim_renewers: Arc<AtomicUsize>,
    /// When each user last asked for a hint (Unix ms). A restart forgets it, which is harmless;
    /// each process keeps its own, which is what the cooldown is for: sparing this process's
    /// AI pool.
    hints: Mutex<HashMap<UserId, i64>>,
}

impl AiTurns {
    pub(crate) fn new() -> AiTurns {
        AiTurns {
            turns: Mutex::new(HashMap::new()),
            searches: AtomicU64::new(0),
            claim_renewals: Arc::new(AtomicU64::new(0)),
            claim_renewers: Arc::new(AtomicUsize::new(0)),
            hints: Mutex::new(HashMap::new()),
        }
    }
}

/// The AI as a player (`Service::ai`): its turns, searched on the pool and played, and the
/// hints it gives people.
#[derive(Clone, Copy)]
pub struct Ai<'a> {
    core: &'a Core,
    /// The AI's workers, which the analyses and the puzzles' scan use too.
    pool: &'a Pool,
    turns: &'a AiTurns,
}

impl<'a> Ai<'a> {
    pub(crate) fn new(core: &'a Core, pool: &'a Pool, turns: &'a AiTurns) -> Ai<'a> {
        Ai { core, pool, turns }
    }
}

impl Ai<'_> {
    /// If the AI is to move in game `id`, its move is searched on the pool (in its turn in the
    /// queue, within its time from when a worker takes it) and played. `None` when it is not
    /// the AI's turn, the game moved on meanwhile, or this game's AI turn is already under way.
    pub async fn turn(self, id: GameId) -> Result<Option<MoveReport>, ServiceError> {
        let Some(_claim) = self.claim_ai_turn(id) else {
            return Ok(None);
        };
        let Some(row) = stored::by_id(self.core.store.read(), id).await? else {
            return Ok(None);
        };
        if !row.is_active() {
            return Ok(None);
        }
        let loaded = self.core.load(row).await?;
        let Some(Player::Ai(level)) = loaded.info.to_move().cloned() else {
            return Ok(None);
        };
        // Across processes: the turn is searched only by the process that claims it in the
        // database; a claim whose process died ends with its lease (the sweep plays it then).
        let ply = loaded.turn.ply;
        let time = self.core.config.ai_time(level);
        let lease = time + self.core.config.ai_claim_margin;
        // On the database's clock, which every process's claims are measured on.
        let now = self.core.database_now().await?;
        let until = now + lease.as_millis() as i64;
        let mut writing = self.core.store.lock().await?;
        let claimed =
            games::claim_ai_turn(writing.ex(), id, ply, &self.core.claimer, now, until).await?;
        drop(writing);
        if !claimed {
            return Ok(None);
        }
        // However long the turn waits in the queue, the claim is renewed until the turn ends
        // (this future returns or is dropped, which drops `renewing`).
        let (renewing, lost) = self.renew_ai_claim(id, ply, lease);
        let played = self.search_ai_turn(loaded, level, time, lost).await;
        drop(renewing);
        if !matches!(played, Ok(Some(_))) {
            let released = match self.core.store.lock().await {
                Ok(mut writing) => {
                    games::release_ai_turn(writing.ex(), id, ply, &self.core.claimer).await
                }
                Err(e) => Err(e),
            };
            if let Err(e) = released {
                tracing::warn!(game = id, error = %e, "could not give up the AI's turn: it is free at its lease's end");
            }
        }
        played
    }

    /// Keeps this service's claim on game `id`'s AI turn at `ply` alive: a task beside the
    /// turn (not a branch of its future: on SQLite a renewal takes the write lock, which the
    /// turn's own commit may hold while it waits) extends the claim to `lease` from now, every
    /// third of `lease`, until the returned sender is dropped. The receiver hears if a renewal
    /// found the claim gone (another process took the turn over after a lease this one let
    /// lapse, or the game moved on or ended).
    fn renew_ai_claim(
        &self,
        id: GameId,
        ply: u32,
        lease: Duration,
    ) -> (oneshot::Sender<()>, oneshot::Receiver<()>) {
        let (renewing, mut stopped) = oneshot::channel::<()>();
        let (lost_tx, lost) = oneshot::channel();
        let store = self.core.store.clone();
        let database_clock = self.core.database_clock.clone();
        let claimer = self.core.claimer.clone();
        let renewals = self.turns.claim_renewals.clone();
        let every = (lease / 3).max(MIN_RENEWAL);
        let lease = lease.as_millis() as i64;
        let running = Renewer::new(self.turns.claim_renewers.clone());
        tokio::spawn(async move {
            let _running = running;
            loop {
                tokio::select! {
                    // Never sent: the turn ended (its sender is dropped).
                    _ = &mut stopped => return,
                    () = tokio::time::sleep(every) => {}
                }
                let renewed = async {
                    let until = database_clock.now(store.read(), store.backend()).await? + lease;
                    let mut writing = store.lock().await?;
                    games::renew_ai_turn(writing.ex(), id, ply, &claimer, until).await
                }
                .await;
                match renewed {
                    Ok(true) => {
                        renewals.fetch_add(1, Ordering::SeqCst);
                    }
                    Ok(false) => {
                        // Routine once the turn ended (its move moved the game on); news if not.
                        if stopped.try_recv() != Err(oneshot::error::TryRecvError::Closed) {
                            tracing::info!(game = id, ply, "the claim on the AI's turn is gone");
                            let _ = lost_tx.send(());
                        }
                        return;
                    }
                    Err(e) if e.is_closed() => return,
                    Err(e) => {
                        tracing::warn!(game = id, error = %e, "could not renew the claim on the AI's turn: tried again")
                    }
                }
            }
        });
        (renewing, lost)
    }

    /// The search for the AI's turn in `loaded` (claimed) and its move played. If `lost` hears
    /// that the claim is gone before a worker takes the search, the search is withdrawn.
    async fn search_ai_turn(
        &self,
        mut loaded: LoadedGame,
        level: Level,
        time: Duration,
        lost: oneshot::Receiver<()>,
    ) -> Result<Option<MoveReport>, ServiceError> {
        let id = loaded.info.id;
        // Round-robin goes across the people the AI plays.
        let owner = loaded
            .info
            .player(loaded.info.turn.other())
            .user_id()
            .unwrap_or(0);
        let search = Search {
            game: loaded.game.clone(),
            level,
            time,
        };
        self.turns.searches.fetch_add(1, Ordering::SeqCst);
        let (ticket, mut searched) = self.submit(owner, search);
        if let Some(slot) = self.turns.turns.lock().expect("AI turns").get_mut(&id) {
            *slot = Some(ticket);
        }
        let searched = tokio::select! {
            found = &mut searched => found,
            Ok(()) = lost => {
                if self.pool.cancel(ticket) {
                    self.turns.searches
                        .fetch_sub(1, Ordering::SeqCst);
                    return Ok(None);
                }
                // A worker has it: its move lands only if the game is still at its ply.
                searched.await
            }
        };
        let Some(found) = as_result(searched)? else {
            return Ok(None);
        };
        loaded
            .game
            .play(found.best)
            .map_err(|e| ServiceError::Internal(format!("the AI chose an illegal move: {e}")))?;
        match self.core.commit_move(loaded, None, Answer::None).await {
            Ok((report, _posted)) => Ok(Some(report)),
            Err(ServiceError::PositionChanged | ServiceError::GameOver) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Whether game `id`'s AI turn is under way (queued or searching).
    pub fn pending(&self, id: GameId) -> bool {
        self.turns.turns.lock().expect("AI turns").contains_key(&id)
    }

    /// How many requests the pool serves before game `id`'s AI turn; `None` unless it is
    /// waiting for a worker to be free (an idle worker about to take it is no wait, however
    /// long a loaded machine keeps that worker's thread from running).
    pub fn waiting(&self, id: GameId) -> Option<usize> {
        let ticket = (*self.turns.turns.lock().expect("AI turns").get(&id)?)?;
        self.pool.waiting_for_worker(ticket)
    }

    /// Tells game `id`'s channel (through the outbox) how many requests the pool serves before
    /// its AI turn, if the turn is still waiting for a worker. Whether it told.
    pub async fn announce_wait(self, id: GameId, channel: ChannelId) -> Result<bool, ServiceError> {
        let Some(ahead) = self.waiting(id) else {
            return Ok(false);
        };
        // The post names the game's variant: the game is read first, outside the write.
        let game = self.core.game(id).await?;
        let payload = Payload::news(News::AiWaiting { game, ahead });
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let told = self
            .core
            .notice(channel, "ai_wait", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        self.core.commit_noticed(tx, told).await?;
        Ok(true)
    }

    /// The active games where the AI is to move, with their channels: each is an AI turn owed
    /// (after a restart, or a turn that failed, the sweep plays them).
    pub async fn games_awaiting(self) -> Result<Vec<(GameId, ChannelId)>, ServiceError> {
        let mut out = Vec::new();
        for row in stored::all_active(self.core.store.read()).await? {
            match stored::ai_to_move(&row) {
                Ok(true) => out.push((row.id(), row.channel())),
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(game = row.id(), error = %e, "stored start turn: skipped");
                }
            }
        }
        Ok(out)
    }

    /// The AI's suggestion for `user`, the player to move. Rate-limited per user. As on
    /// lichess, refused in a rated game between people (the engine's help would decide it);
    /// given in casual games and against the AI.
    pub async fn hint(self, channel: ChannelId, user: UserId) -> Result<Hint, ServiceError> {
        let loaded = self.core.active(channel).await?;
        let side = loaded.info.side_of(user).ok_or(ServiceError::NotAPlayer)?;
        if loaded.info.rated {
            return Err(ServiceError::HintInRatedGame);
        }
        if side != loaded.info.turn {
            return Err(ServiceError::NotYourTurn(loaded.info.turn));
        }
        // This process's clock: the cooldown spares this process's AI pool, and each process
        // keeps its own (see `AiTurns::hints`).
        let now = self.core.process_now();
        let cooldown = self.core.config.hint_cooldown.as_millis() as i64;
        {
            let mut hints = self.turns.hints.lock().expect("hint table");
            if let Some(&last) = hints.get(&user) {
                if now < last + cooldown {
                    let wait = (last + cooldown - now + 999) / 1000;
                    return Err(ServiceError::HintTooSoon(wait as u64));
                }
            }
            hints.insert(user, now);
        }
        let found = match self.hint_search(user, loaded.game).await {
            Ok(found) => found,
            Err(e) => {
                self.hint_not_shown(user);
                return Err(e);
            }
        };
        Ok(Hint {
            best: found.best.to_string(),
            score: found.score,
            depth: found.depth,
            pv: found.pv.iter().map(|m| m.to_string()).collect(),
        })
    }

    /// Forgets `user`'s last hint: it was not answered (its search failed, or its reply could
    /// not be shown), so it does not count against the cooldown.
    pub fn hint_not_shown(self, user: UserId) {
        let mut hints = self.turns.hints.lock().expect("hint table");
        hints.remove(&user);
    }

    /// Refuses a new request for the AI while its queue is full.
    pub(crate) fn room(&self) -> Result<(), ServiceError> {
        let waiting = self.pool.waiting();
        if waiting >= self.core.config.ai_queue_limit {
            return Err(ServiceError::AiBusy(waiting));
        }
        Ok(())
    }

    /// Refuses a new game against the AI for `user` in `guild`: too many running, or one
    /// started too recently. Read in the transaction that would create the game (`conn`, with
    /// the database's time it read), under a lock on the user's count (see [`store::dialect::lock_in_transaction`]): on
    /// PostgreSQL, games started at once in several channels cannot pass the limit together;
    /// without one, read as they stand (the check before the command is acknowledged).
    pub(crate) async fn check_game_limits(
        &self,
        mut conn: Option<(&mut Connection, i64)>,
        guild: Option<GuildId>,
        user: UserId,
    ) -> Result<(), ServiceError> {
        self.room()?;
        let key = format!("ai-games:{}:{user}", guild.unwrap_or(0));
        let (active, latest) = match conn.as_mut() {
            Some((conn, _)) => {
                store::dialect::lock_in_transaction(conn, self.core.store.backend(), &key).await?;
                games::ai_games_of(&mut **conn, guild, user).await?
            }
            None => games::ai_games_of(self.core.store.read(), guild, user).await?,
        };
        let limit = self.core.config.ai_games_per_user;
        if limit != 0 && active >= limit {
            return Err(ServiceError::TooManyAiGames(active));
        }
        let cooldown = self.core.config.ai_game_cooldown.as_millis() as i64;
        if let Some(latest) = latest {
            // On the database's clock, as `latest` is: the cooldown holds across processes.
            let now = match conn {
                Some((_, now)) => now,
                None => self.core.database_now().await?,
            };
            if now < latest + cooldown {
                return Err(ServiceError::AiGameTooSoon(
                    ((latest + cooldown - now + 999) / 1000) as u64,
                ));
            }
        }
        Ok(())
    }

    /// The search for a hint, on the pool in `user`'s turn; if no worker takes it within the
    /// hint's wait, it is withdrawn and the answer is an apology.
    pub(crate) async fn hint_search(
        &self,
        user: UserId,
        game: Game,
    ) -> Result<SearchResult, ServiceError> {
        self.room()?;
        let search = Search {
            game,
            level: Level::Hard,
            time: self.core.config.hint_time,
        };
        let (ticket, mut searched) = self.submit(user, search);
        let searched = match tokio::time::timeout(self.core.config.hint_wait, &mut searched).await {
            Ok(a) => a,
            Err(_) if self.pool.cancel(ticket) => return Err(ServiceError::HintTimedOut),
            // A worker has it: the search ends within its time.
            Err(_) => searched.await,
        };
        as_result(searched)?.ok_or(ServiceError::GameOver)
    }

    /// Marks game `id`'s AI turn as under way, unless it already is.
    fn claim_ai_turn(&self, id: GameId) -> Option<TurnClaim<'_>> {
        let mut turns = self.turns.turns.lock().expect("AI turns");
        if turns.contains_key(&id) {
            return None;
        }
        turns.insert(id, None);
        Some(TurnClaim {
            ai: *self,
            game: id,
        })
    }

    /// Queues a search on the pool; the receiver gets what it found.
    fn submit(&self, owner: Owner, search: Search) -> (Ticket, oneshot::Receiver<SearchFound>) {
        let (tx, rx) = oneshot::channel();
        let ticket = self.pool.submit(owner, Class::Play, search, move |a| {
            // The waiter may have given up: what was found is of no use then.
            let _ = tx.send(a);
        });
        (ticket, rx)
    }
}

/// What the pool found, as the service's result.
fn as_result(
    searched: Result<SearchFound, oneshot::error::RecvError>,
) -> Result<Option<SearchResult>, ServiceError> {
    searched
        .map_err(|_| ServiceError::Internal("the AI pool stopped".into()))?
        .map_err(|e| ServiceError::Internal(e.to_string()))
}
