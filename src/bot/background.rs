//! Work the bot does on its own: the clock (reminders, losses on time, expired challenges,
//! tournaments whose sign-up ended, the daily puzzle) and the AI's turns (played in the background, and swept for in the database so
//! that no game waits on the AI after a restart or a failure). Both are driven by the database, and what
//! they decide is announced through the outbox (see [`super::delivery`]). The loops run on the
//! bot's [`Tasks`] and stop between two steps when the bot stops.

use super::tasks::Tasks;
use crate::service::{GameId, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// Starts the clock: every `every`, the bot's heartbeat (see [`crate::service::timecontrol::GameClock::keep_alive`]), then
/// the service's due reminders, time-outs and expired challenges, committed with their notices.
pub fn clock(tasks: &Tasks, service: Arc<Service>, every: Duration) {
    let (scans, stopping) = (tasks.clone(), tasks.stopping());
    tasks.spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Finished games are searched for puzzles beside the clock, one game at a time: the
        // search waits for the AI pool's background class, and the clock must not. A search
        // under way when the bot stops is dropped: the next start searches that game again.
        let mut scan: Option<tokio::task::JoinHandle<()>> = None;
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                biased;
                _ = &mut stopping => return,
                _ = ticks.tick() => {}
            }
            // The database learns that the bot still runs (see GameClock::resume).
            if let Err(e) = service.game_clock().keep_alive(every).await {
                tracing::error!(error = ?e, "could not record that the bot runs");
            }
            if scan.as_ref().is_none_or(|s| s.is_finished()) {
                let service = service.clone();
                scan = Some(scans.spawn_until_stopped(async move {
                    match service.puzzles().find_in_games(1).await {
                        Ok(n) if n > 0 => tracing::info!(puzzles = n, "puzzles found in a game"),
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = ?e, "could not search a game for puzzles"),
                    }
                }));
            }
            match service.game_clock().tick().await {
                Ok(events) if !events.is_empty() => {
                    tracing::debug!(events = events.len(), "the clock acted")
                }
                Ok(_) => {}
                Err(e) => tracing::error!(error = ?e, "the clock failed"),
            }
            // Tournaments whose sign-up ended start (or, too few, are cancelled).
            match service.tournaments().start_due().await {
                Ok(started) if !started.is_empty() => {
                    tracing::info!(tournaments = started.len(), "sign-ups ended")
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(error = ?e, "cannot start the tournaments whose sign-up ended")
                }
            }
            match service.puzzles().post_daily().await {
                Ok(posted) if !posted.is_empty() => {
                    tracing::info!(servers = posted.len(), "daily puzzle posted")
                }
                Ok(_) => {}
                Err(e) => tracing::error!(error = ?e, "the daily puzzle failed"),
            }
        }
    });
}

/// How near the front of the AI's queue a turn must be for its channel to show typing: every
/// channel of a long queue typing at once would spend Discord's global rate limit.
const TYPING_AHEAD: usize = 4;

/// Plays the AI's turn in game `id` (in `channel`) in the background: the channel shows the
/// typing indicator while the AI thinks and while the turn is near the front of the queue, and
/// a wait for a worker longer than `notice_after` is told once (through the outbox, like the
/// move itself). A turn that fails is left to the sweep; one under way when the bot stops is
/// dropped (its search withdrawn if no worker has it), and played after a start.
pub fn ai_turn(
    tasks: &Tasks,
    http: Arc<serenity::Http>,
    service: Arc<Service>,
    id: GameId,
    channel: u64,
    notice_after: Duration,
) {
    tasks.spawn_until_stopped(async move {
        if service.ai().pending(id) {
            return;
        }
        let ai = service.ai();
        let turn = ai.turn(id);
        tokio::pin!(turn);
        let notice_at = tokio::time::Instant::now() + notice_after;
        let mut noticed = false;
        let mut typing = None;
        let mut look = tokio::time::interval(Duration::from_millis(250));
        let played = loop {
            tokio::select! {
                played = &mut turn => break played,
                _ = look.tick() => {
                    let ahead = service.ai().waiting(id);
                    if typing.is_none() && ahead.is_none_or(|n| n < TYPING_AHEAD) {
                        typing = Some(serenity::ChannelId::new(channel).start_typing(&http));
                    }
                    if !noticed && ahead.is_some() && tokio::time::Instant::now() >= notice_at {
                        noticed = true;
                        if let Err(e) = service.ai().announce_wait(id, channel).await {
                            tracing::warn!(game = id, error = ?e, "could not say that the AI is busy");
                        }
                    }
                }
            }
        };
        if let Some(typing) = typing {
            typing.stop();
        }
        if let Err(e) = played {
            tracing::error!(game = id, error = ?e, "the AI could not move: the sweep tries again");
        }
    });
}

/// Starts the AI's sweep: at once and then every `every`, every game where the AI is to move
/// and no turn is under way gets its turn (after a restart, or a turn that failed), and every
/// unfinished analysis not under way is resumed.
pub fn ai_sweep(
    tasks: &Tasks,
    http: Arc<serenity::Http>,
    service: Arc<Service>,
    every: Duration,
    notice_after: Duration,
) {
    let (turns, stopping) = (tasks.clone(), tasks.stopping());
    tasks.spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(stopping);
        loop {
            tokio::select! {
                biased;
                _ = &mut stopping => return,
                _ = ticks.tick() => {}
            }
            match service.analysis().unfinished().await {
                Ok(ids) => {
                    for id in ids {
                        if !service.analysis().running(id) {
                            analysis(&turns, service.clone(), id);
                        }
                    }
                }
                Err(e) => tracing::error!(error = ?e, "could not list the unfinished analyses"),
            }
            match service.ai().games_awaiting().await {
                Ok(due) => {
                    for (id, channel) in due {
                        if !service.ai().pending(id) {
                            ai_turn(
                                &turns,
                                http.clone(),
                                service.clone(),
                                id,
                                channel,
                                notice_after,
                            );
                        }
                    }
                }
                Err(e) => tracing::error!(error = ?e, "could not list the AI's turns"),
            }
        }
    });
}

/// Drives game `id`'s analysis in the background (its searches are background work on the AI
/// pool). One that fails, or is under way when the bot stops, is left to the sweep, which
/// resumes it where it stopped.
pub fn analysis(tasks: &Tasks, service: Arc<Service>, id: GameId) {
    tasks.spawn_until_stopped(async move {
        if let Err(e) = service.analysis().run(id).await {
            tracing::error!(game = id, error = ?e, "the analysis stopped: the sweep resumes it");
        }
    });
}
