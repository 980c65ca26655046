//! Work the bot does on its own: the clock (reminders, losses on time, expired challenges) and
//! the AI's turns left waiting by a restart. Both are driven by the database, and what they
//! decide is announced through the outbox (see [`super::delivery`]).

use crate::service::Service;
use std::sync::Arc;
use std::time::Duration;

/// Starts the clock: every `every`, the service's due reminders, time-outs and expired
/// challenges are committed with their notices.
pub fn clock(service: Arc<Service>, every: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match service.tick().await {
                Ok(events) if !events.is_empty() => {
                    tracing::debug!(events = events.len(), "the clock acted")
                }
                Ok(_) => {}
                Err(e) => tracing::error!(error = ?e, "the clock failed"),
            }
        }
    })
}

/// After a restart: the AI moves in every game where it was to move (its moves are
/// announced through the outbox).
pub fn resume_ai_turns(service: Arc<Service>) {
    tokio::spawn(async move {
        let games = match service.games_awaiting_ai().await {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(error = ?e, "could not list the AI's turns");
                return;
            }
        };
        for id in games {
            if let Err(e) = service.ai_turn(id).await {
                tracing::error!(game = id, error = ?e, "the AI could not move");
            }
        }
    });
}
