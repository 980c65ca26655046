//! The dispatcher: one task that delivers the outbox. It claims the due notices (each
//! channel's next one), delivers them concurrently across channels, and reports each result to
//! the service. It wakes when a notice is written and when the next one falls due, so notices
//! left by a crash go out after the restart.

use super::client::{answer_webhook, Poster};
use super::policy::Attempt;
use super::policy::{self, Consequence, Delivery, DeliveryPolicy};
use crate::service::tournament::{MatchGame, TournamentNews};
use crate::service::{Answer, ChannelId, GameId, News, Notice, NoticeId, Service, ServiceError};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many notices (each of a different channel) are delivered at once.
const BATCH: u32 = 16;
/// The longest the dispatcher sleeps without looking at the outbox.
const POLL: Duration = Duration::from_secs(2);
/// How often delivered notices past their retention are deleted (the first time this long
/// after the start, so a start-up that fails does not write).
const PRUNE_EVERY: Duration = Duration::from_secs(600);
const FIRST_PRUNE: Duration = Duration::from_secs(60);

/// Starts the dispatcher. It stops when [`Dispatcher::stop`] says so, not when the bot's other
/// tasks do: at a shutdown, the commands in flight are answered first.
pub fn start(service: Arc<Service>, poster: Arc<Poster>, policy: DeliveryPolicy) -> Dispatcher {
    let stop = CancellationToken::new();
    let halted = Arc::new(AtomicBool::new(false));
    let handle = tokio::spawn(run(service, poster, policy, stop.clone(), halted.clone()));
    Dispatcher {
        handle,
        stop,
        halted,
    }
}

/// The dispatcher's loop: until it is told to `stop` and its attempts under way are recorded,
/// it prunes the outbox now and then, claims the due notices (unless delivery is `halted` or
/// paused by a global 429) and starts their attempts, and waits for an attempt to end, a
/// notice to be written, the next one to fall due, or the stop.
async fn run(
    service: Arc<Service>,
    poster: Arc<Poster>,
    policy: DeliveryPolicy,
    stopping: CancellationToken,
    halted: Arc<AtomicBool>,
) {
    let wake = service.outbox().wake_signal();
    let mut paused_until: Option<Instant> = None;
    let mut prune_at = Instant::now() + FIRST_PRUNE;
    let mut attempts = Attempts::new(service.clone(), poster, policy, halted.clone());
    let mut halt_told = false;
    loop {
        // Asked to stop: no new attempt; those under way are finished and recorded, and the
        // claims of those waiting for their channel given back, so no claimed notice is left
        // to its lease.
        let stop_asked = stopping.is_cancelled();
        if stop_asked {
            attempts.give_back_waiting().await;
            if attempts.under_way.is_empty() {
                return;
            }
        }
        if !stop_asked && Instant::now() >= prune_at {
            prune_at = Instant::now() + PRUNE_EVERY;
            prune(&service).await;
        }
        let paused = paused_until.filter(|&until| until > Instant::now());
        let mut wait = POLL;
        if let Some(until) = paused {
            wait = until - Instant::now();
        } else if !stop_asked && !halted.load(Ordering::SeqCst) {
            attempts.start_waiting();
            if let Some(next) = attempts.claim().await {
                wait = wait.min(next);
            }
        }
        tokio::select! {
            Some(done) = attempts.under_way.join_next_with_id(), if !attempts.under_way.is_empty() => {
                let Some(outcome) = attempts.ended(done) else { continue };
                if let Some(pause) = outcome.global_pause {
                    let until = Instant::now() + pause;
                    paused_until = Some(paused_until.map_or(until, |p| p.max(until)));
                }
                if outcome.unauthorized && !halt_told {
                    // Every post would be refused: delivery stops (loudly; the attempt set
                    // `halted`), and the notices wait in the outbox for a start with a valid
                    // token, those claimed given back.
                    halt_told = true;
                    tracing::error!("the dispatcher stops: Discord refuses the bot's token");
                    attempts.give_back_waiting().await;
                }
            }
            _ = wake.notified() => {}
            _ = stopping.cancelled(), if !stop_asked => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

/// Deletes the notices delivered (or given up) past their retention.
async fn prune(service: &Service) {
    let pruned = async { service.outbox().prune(service.database_now().await?).await };
    match pruned.await {
        Ok(0) => {}
        Ok(n) => tracing::info!(deleted = n, "old notices deleted from the outbox"),
        Err(e) => tracing::error!(error = ?e, "cannot prune the outbox"),
    }
}

/// The dispatcher's attempts: those under way, at most one a channel (which notice, in which
/// task), so a channel's notices go out in order while the other channels' go on (a slow
/// channel delays only itself); and each channel's next notice, claimed (at that time) while
/// its attempt before was still under way.
struct Attempts {
    service: Arc<Service>,
    poster: Arc<Poster>,
    policy: DeliveryPolicy,
    /// Set by an attempt whose token Discord refused, before it records its notice (due again
    /// at once): no notice is claimed after it.
    halted: Arc<AtomicBool>,
    under_way: tokio::task::JoinSet<AttemptEffect>,
    busy: HashMap<ChannelId, (NoticeId, tokio::task::Id)>,
    next_of: HashMap<ChannelId, (Notice, i64)>,
}

impl Attempts {
    fn new(
        service: Arc<Service>,
        poster: Arc<Poster>,
        policy: DeliveryPolicy,
        halted: Arc<AtomicBool>,
    ) -> Attempts {
        Attempts {
            service,
            poster,
            policy,
            halted,
            under_way: tokio::task::JoinSet::new(),
            busy: HashMap::new(),
            next_of: HashMap::new(),
        }
    }

    /// Starts the attempt at `notice` (claimed at its time), its channel busy until it ends.
    fn spawn(&mut self, notice: (Notice, i64)) {
        let (channel, id) = (notice.0.channel, notice.0.id);
        let (service, poster, policy) = (self.service.clone(), self.poster.clone(), self.policy);
        let halted = self.halted.clone();
        let task = self
            .under_way
            .spawn(async move { deliver(&service, &poster, &policy, &halted, notice).await });
        self.busy.insert(channel, (id, task.id()));
    }

    /// Starts the attempts at the notices waiting for their channel, whose channel is free now.
    fn start_waiting(&mut self) {
        let free: Vec<ChannelId> = (self.next_of.keys())
            .filter(|c| !self.busy.contains_key(c))
            .copied()
            .collect();
        for channel in free {
            let notice = self.next_of.remove(&channel).expect("listed");
            self.spawn(notice);
        }
    }

    /// Gives back the claims of the notices waiting for their channel (the dispatcher stops):
    /// their attempts never began, and they are due again at once.
    async fn give_back_waiting(&mut self) {
        let waiting: Vec<Notice> = self.next_of.drain().map(|(_, (n, _))| n).collect();
        self.give_back(waiting).await;
    }

    /// Gives back the claims of `notices`, whose attempts never began: due again at once.
    async fn give_back(&self, notices: Vec<Notice>) {
        for notice in notices {
            if let Err(e) = self.service.outbox().unclaim(&notice).await {
                tracing::warn!(notice = notice.id, error = ?e, "cannot give back a notice's claim: it is due again at its lease's end");
            }
        }
    }

    /// Claims the due notices there is room for and starts their attempts (or keeps each for
    /// its channel's attempt under way to end); returns how long until the next notice falls
    /// due, if one does.
    async fn claim(&mut self) -> Option<Duration> {
        let room = BATCH.saturating_sub(self.under_way.len() as u32);
        if room == 0 {
            return None;
        }
        // Every time the dispatcher compares is the database's, never this process's: the
        // leases and holds of every process are measured on one clock. Claimed, so that another
        // process's dispatcher does not deliver them too.
        let service = self.service.clone();
        let claimed = async {
            let now = service.database_now().await?;
            Ok::<_, ServiceError>((now, service.outbox().claim(now, room).await?))
        };
        let (now, due) = match claimed.await {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::error!(error = ?e, "cannot read the outbox");
                return None;
            }
        };
        // An attempt refused the token meanwhile (it set `halted` before recording its notice
        // due again, so a claim that took that notice sees it set): none of these is tried.
        if self.halted.load(Ordering::SeqCst) {
            self.give_back(due).await;
            return None;
        }
        for notice in due {
            match self.busy.get(&notice.channel) {
                // Its claim ran out while its attempt is still under way: that attempt records
                // it.
                Some(&(id, _)) if id == notice.id => {}
                // The one under way is settled (its answer showed it): this one follows it.
                Some(_) => {
                    self.next_of.insert(notice.channel, (notice, now));
                }
                None => self.spawn((notice, now)),
            }
        }
        let next = service.outbox().next_due_at().await.unwrap_or_else(|e| {
            tracing::error!(error = ?e, "cannot read the outbox");
            None
        });
        next.map(|at| Duration::from_millis((at - now).max(0) as u64))
    }

    /// An attempt ended (`done`): its channel is free; its outcome, unless it failed
    /// unrecorded.
    fn ended(
        &mut self,
        done: Result<(tokio::task::Id, AttemptEffect), tokio::task::JoinError>,
    ) -> Option<AttemptEffect> {
        let (id, outcome) = match done {
            Ok((id, outcome)) => (id, Some(outcome)),
            Err(e) => {
                tracing::error!(error = %e, "a delivery failed unrecorded");
                (e.id(), None)
            }
        };
        self.busy.retain(|_, &mut (_, task)| task != id);
        outcome
    }
}

/// The running dispatcher.
pub struct Dispatcher {
    handle: tokio::task::JoinHandle<()>,
    stop: CancellationToken,
    /// Set when delivery stopped because Discord refused the bot's token.
    halted: Arc<AtomicBool>,
}

impl Dispatcher {
    /// Stops it once its attempts under way are recorded (waiting up to `within`), so the notices
    /// it claimed are not left to their lease (the next start would wait that long to deliver
    /// them); past `within`, it is cut short, and those wait for their lease.
    pub async fn stop(self, within: Duration) {
        self.stop.cancel();
        let mut handle = self.handle;
        if tokio::time::timeout(within, &mut handle).await.is_err() {
            handle.abort();
        }
    }

    /// Whether delivery stopped because Discord refused the bot's token (401): the notices wait
    /// in the outbox for a start with a valid token.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::SeqCst)
    }
}

/// The image a notice carries, drawn now, and its file's name (none: empty). Drawing fails
/// alone: the notice goes without.
async fn draw(service: &Service, notice: &Notice) -> (Vec<u8>, &'static str) {
    let payload = &notice.payload;
    let (drawn, filename) = match (&payload.board, &payload.puzzle, &payload.graph) {
        (Some(board), _, _) => (service.outbox().board(board).await, "board.png"),
        (None, Some(puzzle), _) => (service.puzzles().board(puzzle).await, "board.png"),
        (None, None, Some(graph)) => (service.analysis().graph(graph).await, "analysis.png"),
        (None, None, None) => match &notice.news {
            News::Tournament(news) => match news.standings() {
                Some(standings) => (
                    service.tournaments().draw_standings(standings).await,
                    "standings.png",
                ),
                None => return (Vec::new(), "board.png"),
            },
            _ => return (Vec::new(), "board.png"),
        },
    };
    let png = drawn.unwrap_or_else(|e| {
        tracing::error!(notice = notice.id, filename, error = ?e, "cannot draw a notice's image: sending it without");
        Vec::new()
    });
    (png, filename)
}

/// Shows `notice`, the news of the interaction handled now (as its change wrote it), by editing
/// the interaction's original response, with `png` as its board (drawn here if empty), and
/// records it delivered. If the edit fails, the notice is left to the dispatcher at once, which
/// sends the same edit (an edit shows once, however often it is sent) or, past the token's
/// life, posts the news. Nothing a caller must do either way. Returns false when the notice is
/// not the interaction's to show (it names no interaction: it is posted in the channel, after
/// the news the channel owed), true otherwise.
pub async fn show_notice(
    service: &Service,
    poster: &Poster,
    notice: &Notice,
    png: Vec<u8>,
) -> bool {
    let id = notice.id;
    let Some(answer) = notice.payload.answer.handle() else {
        return false;
    };
    let delivery = match answer_webhook(answer) {
        Some(webhook) => {
            let (png, filename) = match png.is_empty() {
                true => draw(service, notice).await,
                false => (png, "board.png"),
            };
            let text = crate::bot::messages::notice_text(&notice.news);
            let text = super::client::marked(&text, &notice.nonce);
            let buttons = notice.payload.buttons;
            let attempt = poster.edit_answer(webhook, &text, buttons, png, filename);
            attempt.await.delivery
        }
        None => Delivery::Refused {
            reason: "the notice's reply handle cannot be read".into(),
        },
    };
    let recorded = match delivery {
        Delivery::Delivered { message_id } => {
            (service.outbox().news_delivered(notice, message_id).await).map(|_| ())
        }
        failed => {
            tracing::warn!(notice = id, kind = notice.kind, outcome = ?failed, "the edit showing a change failed: the dispatcher sends it again");
            service.outbox().answer_failed(id).await
        }
    };
    if let Err(e) = recorded {
        tracing::error!(notice = id, error = ?e, "cannot record an answer: the dispatcher shows it after its hold");
    }
    true
}

/// One attempt at one notice, claimed at `claimed` (Unix ms, the database's clock), recorded.
/// Its claim outlives it: renewed every third of its lease while the attempt goes on (drawing
/// the board and waiting for the heavy-work gate or a rate limit included). If it runs out all
/// the same (the database out of reach for a whole lease) and another process takes the
/// notice, what this attempt records is nothing: a settle holds only while its claim does
/// ([`Notice::claim`]).
async fn deliver(
    service: &Service,
    poster: &Poster,
    policy: &DeliveryPolicy,
    halted: &AtomicBool,
    (notice, claimed): (Notice, i64),
) -> AttemptEffect {
    let kept = notice.clone();
    let keep_claim = async {
        loop {
            tokio::time::sleep(policy.times.claim_lease / 3).await;
            match service.outbox().renew(&kept).await {
                Ok(true) => {}
                // Settled meanwhile, or taken by another process: nothing more to keep.
                Ok(false) => std::future::pending().await,
                Err(e) => {
                    tracing::warn!(notice = kept.id, error = ?e, "cannot renew a notice's claim")
                }
            }
        }
    };
    tokio::select! {
        outcome = attempt(service, poster, policy, halted, notice, claimed) => outcome,
        () = keep_claim => unreachable!("kept until the attempt ends"),
    }
}

/// [`deliver`]'s attempt. Discord refusing the token sets `halted` before the notice is
/// recorded (due again at once), so that the dispatcher claims it no more.
async fn attempt(
    service: &Service,
    poster: &Poster,
    policy: &DeliveryPolicy,
    halted: &AtomicBool,
    mut notice: Notice,
    claimed: i64,
) -> AttemptEffect {
    let (png, filename) = draw(service, &notice).await;
    if let Some(earlier) = notice.payload.edit_notice {
        // The message an earlier notice became (the channel's notices go out in order, so it
        // has been delivered or given up by now); none: post.
        notice.payload.edit = service.outbox().notice_message(earlier).await.unwrap_or_else(|e| {
            tracing::error!(notice = notice.id, error = ?e, "cannot read the message to edit: posting");
            None
        });
    }
    // The interaction's token is alive for 15 minutes from the notice's writing, on the
    // database's clock: judged at `claimed`, the time the notice was claimed at, so a clock that
    // cannot be read now never makes a live token look expired (the claim itself is tried again
    // if its read fails). A token that expired since is refused by Discord, and the news
    // posted then.
    let attempt = match &notice.news {
        News::Tournament(TournamentNews::Thread(game)) => {
            open_thread(service, poster, &notice, game).await
        }
        news => match news.direct_to() {
            Some(user) => direct(service, poster, &notice, user, png, filename, claimed).await,
            None => {
                let text = crate::bot::messages::notice_text(&notice.news);
                poster.send(&notice, &text, png, filename, claimed).await
            }
        },
    };
    let (id, channel, kind) = (notice.id, notice.channel, notice.kind.as_str());
    let unauthorized = matches!(attempt.delivery, Delivery::Unauthorized { .. });
    if unauthorized {
        halted.store(true, Ordering::SeqCst);
    }
    log_attempt(&notice, &attempt.delivery);
    let delivery = attempt.delivery;
    let recorded = async {
        let now = service.database_now().await?;
        policy::record(service, policy, &notice, delivery, now).await
    };
    let (game, what) = consequence(id, recorded.await);
    if !what.is_empty() {
        tracing::warn!(notice = id, channel, kind, game, "{what}");
    }
    AttemptEffect {
        global_pause: attempt.global_pause,
        unauthorized,
    }
}

/// Logs how an attempt to deliver `notice` went: at debug when delivered, as an error when
/// Discord refuses the token, as a warning otherwise.
fn log_attempt(notice: &Notice, delivery: &Delivery) {
    let (id, channel, kind) = (notice.id, notice.channel, notice.kind.as_str());
    match delivery {
        Delivery::Delivered { .. } => tracing::debug!(notice = id, channel, kind, "delivered"),
        Delivery::Unauthorized { reason } => {
            tracing::error!(
                notice = id,
                channel,
                kind,
                reason,
                "Discord refuses the bot's token (401): delivery stops; the outbox keeps its \
                 notices until the bot runs with a valid DISCORD_TOKEN"
            )
        }
        // What follows (another try, or the notice given up) is recorded and logged below.
        failed => {
            tracing::warn!(notice = id, channel, kind, attempts = notice.attempts + 1, outcome = ?failed, "delivery failed")
        }
    }
}

/// What recording an attempt led to that the operator reads: the game it concerns, and what
/// happened (empty when nothing did).
fn consequence(
    id: NoticeId,
    recorded: Result<Consequence, ServiceError>,
) -> (Option<GameId>, &'static str) {
    match recorded {
        Ok(Consequence::GameAborted(ended)) => {
            (Some(ended.game.id), "the game's channel is gone: aborted")
        }
        Ok(Consequence::GaveUp(game)) => (
            game,
            "a notice retried for too long was given up; the game's clock is stopped",
        ),
        Ok(Consequence::ClockStopped(game)) => (
            Some(game),
            "news refused in the game's channel: the game's clock is stopped",
        ),
        Ok(Consequence::NotificationsOff(true)) => (
            None,
            "direct messages refused: the member's notifications turned off, a game's channel told",
        ),
        Ok(Consequence::NotOurs) => (
            None,
            "nothing recorded: the notice's claim ran out and another process took it",
        ),
        Ok(_) => (None, ""),
        Err(e) => {
            tracing::error!(notice = id, error = ?e, "cannot record a delivery");
            (None, "")
        }
    }
}

/// Delivers a direct message to `user` (a turn's notification, a daily digest), claimed at
/// `claimed`: in the direct channel the bot has with them, once (as a channel's post: its
/// nonce, and a look through that channel after an attempt that may have reached Discord). A
/// turn's message links to the message the notice showing the turn became (the outbox keeps it
/// back until that notice is settled, or for at most a minute; with none, it links to the
/// game's channel). Discord's refusal to deliver it (the member takes no direct messages) is [`Delivery::DmsRefused`]; any other
/// refusal fails the message alone (never a game's clock or channel).
async fn direct(
    service: &Service,
    poster: &Poster,
    notice: &Notice,
    user: u64,
    png: Vec<u8>,
    filename: &str,
    claimed: i64,
) -> Attempt {
    let text = match &notice.news {
        News::TurnDm(dm) => match service.outbox().notice_message(dm.shown_by).await {
            Ok(message) => crate::bot::messages::turn_dm(dm, message),
            Err(e) => {
                tracing::warn!(notice = notice.id, error = ?e, "cannot read the message a turn's direct message links to: linking to its channel");
                crate::bot::messages::turn_dm(dm, None)
            }
        },
        news => crate::bot::messages::notice_text(news),
    };
    let attempt = match poster.open_dm(user).await {
        Ok(dm) => {
            let mut to = notice.clone();
            to.channel = dm;
            to.payload.answer = Answer::None;
            to.payload.edit = None;
            poster.send(&to, &text, png, filename, claimed).await
        }
        Err(attempt) => attempt,
    };
    let delivery = match attempt.delivery {
        Delivery::Refused { reason }
        | Delivery::ChannelRefusesUs { reason }
        | Delivery::ChannelGone { reason }
            if attempt.code == Some(policy::CANNOT_DM) =>
        {
            Delivery::DmsRefused { reason }
        }
        Delivery::ChannelRefusesUs { reason } | Delivery::ChannelGone { reason } => {
            Delivery::Refused { reason }
        }
        delivery => delivery,
    };
    Attempt {
        delivery,
        ..attempt
    }
}

/// Delivers a notice that owes a tournament's match game its thread: the thread made once,
/// then the game started in it (its first post is the outbox's). The thread is the notice's
/// message. Once: a thread recorded by an attempt before is used again; and an attempt after
/// one whose outcome is unknown (its answer lost, or its process stopped before recording the
/// thread) first looks for the bot's thread of that name in the channel that no other match
/// game has, and takes it.
async fn open_thread(
    service: &Service,
    poster: &Poster,
    notice: &Notice,
    game: &MatchGame,
) -> Attempt {
    let tournaments = service.tournaments();
    let name = crate::bot::messages::tournaments::thread_name(game);
    let recorded = match tournaments.thread_of(game.slot).await {
        Ok(None) if notice.attempts > 0 => {
            match poster.threads_named(notice.channel, &name).await {
                Ok(found) if found.is_empty() => Ok(None),
                Ok(found) => tournaments.adopt_thread(game.slot, &found).await,
                Err(attempt) => return attempt,
            }
        }
        recorded => recorded,
    };
    let thread = match recorded {
        Ok(Some(thread)) => thread,
        Ok(None) => match poster.open_thread(notice.channel, &name).await {
            Ok(thread) => {
                if let Err(e) = tournaments.thread_made(game.slot, thread).await {
                    tracing::warn!(notice = notice.id, error = ?e, "cannot record a match game's thread");
                }
                thread
            }
            Err(attempt) => return attempt,
        },
        Err(e) => {
            let reason = format!("cannot read the match game: {e:?}");
            return Delivery::Retry {
                reason,
                after: None,
            }
            .into();
        }
    };
    match tournaments.open_game(game, thread).await {
        Ok(_) => Delivery::Delivered {
            message_id: Some(thread),
        }
        .into(),
        Err(e) => Delivery::Retry {
            reason: format!("cannot start a match game in its thread: {e:?}"),
            after: None,
        }
        .into(),
    }
}

/// What an attempt means for the dispatcher: a pause for every post (a global 429), or the
/// bot's token refused (delivery stops).
struct AttemptEffect {
    global_pause: Option<Duration>,
    unauthorized: bool,
}
