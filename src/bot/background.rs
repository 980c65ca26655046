//! Work the bot does on its own: the clock (reminders, losses on time, expired challenges) and
//! the AI's turns left waiting by a restart. Both are driven by the database.

use super::messages;
use crate::service::{ClockEvent, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// Posts `text` (with the board, if any) in a channel.
pub async fn post(http: &serenity::Http, channel: u64, text: String, png: Vec<u8>) {
    let mut message = serenity::CreateMessage::new().content(text);
    if !png.is_empty() {
        message = message.add_file(serenity::CreateAttachment::bytes(png, "board.png"));
    }
    if let Err(e) = serenity::ChannelId::new(channel)
        .send_message(http, message)
        .await
    {
        tracing::warn!(channel, error = %e, "could not post in a channel");
    }
}

/// Starts the clock: every `every`, the service's due reminders, time-outs and expired
/// challenges become messages.
pub fn clock(
    http: Arc<serenity::Http>,
    service: Arc<Service>,
    every: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match service.tick().await {
                Ok(events) => {
                    for event in events {
                        announce(&http, event).await;
                    }
                }
                Err(e) => tracing::error!(error = ?e, "the clock failed"),
            }
        }
    })
}

/// Says what the clock did.
pub async fn announce(http: &serenity::Http, event: ClockEvent) {
    let text = messages::clock_message(&event);
    match event {
        ClockEvent::Reminder { game, png, .. } => post(http, game.place.channel, text, png).await,
        ClockEvent::TimedOut(ended) => post(http, ended.game.place.channel, text, ended.png).await,
        ClockEvent::ChallengeExpired(c) => {
            let edited = match c.message_id {
                Some(m) => serenity::ChannelId::new(c.place.channel)
                    .edit_message(
                        http,
                        serenity::MessageId::new(m),
                        serenity::EditMessage::new()
                            .content(text.clone())
                            .components(Vec::new()),
                    )
                    .await
                    .is_ok(),
                None => false,
            };
            if !edited {
                post(http, c.place.channel, text, Vec::new()).await;
            }
        }
    }
}

/// After a restart: the AI moves in every game where it was to move.
pub fn resume_ai_turns(http: Arc<serenity::Http>, service: Arc<Service>) {
    tokio::spawn(async move {
        let games = match service.games_awaiting_ai().await {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(error = ?e, "could not list the AI's turns");
                return;
            }
        };
        for id in games {
            match service.ai_turn(id).await {
                Ok(Some(report)) => {
                    let text = messages::move_message(&report);
                    post(&http, report.game.place.channel, text, report.png).await;
                }
                Ok(None) => {}
                Err(e) => tracing::error!(game = id, error = ?e, "the AI could not move"),
            }
        }
    });
}
