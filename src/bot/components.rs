//! Buttons: accepting, declining and cancelling challenges, answering draw offers, paging the
//! leaderboard. Custom ids are `tablut:<action>:<id>`; the service decides who may press what.

use super::{messages, Data, Error, InFlight};
use crate::service::{ChallengeId, DrawAnswer, GameId, Leaderboard, ServiceError};
use poise::serenity_prelude as serenity;

fn button(id: String, label: &str, style: serenity::ButtonStyle) -> serenity::CreateButton {
    serenity::CreateButton::new(id).label(label).style(style)
}

/// Accept / Decline (the challenged player) and Cancel (the challenger).
pub fn challenge_buttons(id: ChallengeId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            format!("tablut:accept:{id}"),
            "Accept",
            serenity::ButtonStyle::Success,
        ),
        button(
            format!("tablut:decline:{id}"),
            "Decline",
            serenity::ButtonStyle::Danger,
        ),
        button(
            format!("tablut:cancel:{id}"),
            "Cancel",
            serenity::ButtonStyle::Secondary,
        ),
    ])]
}

/// Accept / Decline a draw offer.
pub fn draw_buttons(game: GameId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            format!("tablut:draw-yes:{game}"),
            "Accept the draw",
            serenity::ButtonStyle::Success,
        ),
        button(
            format!("tablut:draw-no:{game}"),
            "Decline",
            serenity::ButtonStyle::Danger,
        ),
    ])]
}

/// Previous / Next page.
pub fn leaderboard_buttons(board: &Leaderboard) -> Vec<serenity::CreateActionRow> {
    if board.pages <= 1 {
        return Vec::new();
    }
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            format!("tablut:lb:{}", board.page.saturating_sub(1)),
            "◀ Previous",
            serenity::ButtonStyle::Secondary,
        )
        .disabled(board.page == 0),
        button(
            format!("tablut:lb:{}", board.page + 1),
            "Next ▶",
            serenity::ButtonStyle::Secondary,
        )
        .disabled(board.page + 1 >= board.pages),
    ])]
}

/// poise's event handler: button presses go to [`press`].
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press_event),
    } = event
    else {
        return Ok(());
    };
    let data = framework.user_data;
    let ctx = framework.serenity_context;
    let _counted = InFlight::enter(&data.in_flight);
    let result = press(ctx, data, press_event).await;
    if let Err(error) = result {
        if error.is_internal() {
            tracing::error!(custom_id = %press_event.data.custom_id, error = ?error, "button failed");
        }
        let reply = serenity::CreateInteractionResponse::Message(
            serenity::CreateInteractionResponseMessage::new()
                .content(error.to_string())
                .ephemeral(true)
                .allowed_mentions(serenity::CreateAllowedMentions::new()),
        );
        if let Err(e) = press_event.create_response(&ctx.http, reply).await {
            tracing::warn!(error = %e, "could not answer a button");
        }
    }
    Ok(())
}

fn update(text: String) -> serenity::CreateInteractionResponseMessage {
    serenity::CreateInteractionResponseMessage::new()
        .content(messages::fit(text))
        .components(Vec::new())
}

/// Handles one button press.
async fn press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let mut parts = press.data.custom_id.splitn(3, ':');
    let (Some("tablut"), Some(action), Some(arg)) = (parts.next(), parts.next(), parts.next())
    else {
        return Ok(());
    };
    let Ok(arg) = arg.parse::<i64>() else {
        return Err(Error::User(
            "That button is broken: use the slash commands instead.".into(),
        ));
    };
    let user = press.user.id.get();
    let channel = press.channel_id.get();
    let service = &data.service;
    let response = match action {
        "accept" => {
            let challenge = service.check_accept(arg, user).await?;
            if challenge.thread {
                let name = format!(
                    "Tablut: {} vs {}",
                    challenge.challenger.name, challenge.challenged.name
                );
                let name: String = name.chars().take(100).collect();
                let thread = serenity::ChannelId::new(channel)
                    .create_thread(
                        &ctx.http,
                        serenity::CreateThread::new(name).kind(serenity::ChannelType::PublicThread),
                    )
                    .await?;
                let started = service.accept(arg, user, Some(thread.id.get())).await?;
                let mut message = serenity::CreateMessage::new()
                    .content(messages::started_message(&started.game));
                if !started.png.is_empty() {
                    message = message
                        .add_file(serenity::CreateAttachment::bytes(started.png, "board.png"));
                }
                thread.id.send_message(&ctx.http, message).await?;
                update(format!(
                    "Challenge accepted: the game is on in <#{}>.",
                    thread.id
                ))
            } else {
                let started = service.accept(arg, user, None).await?;
                let mut m = update(messages::started_message(&started.game));
                if !started.png.is_empty() {
                    m = m.add_file(serenity::CreateAttachment::bytes(started.png, "board.png"));
                }
                m
            }
        }
        "decline" => {
            let c = service.decline(arg, user).await?;
            update(format!(
                "<@{}> declined the challenge from <@{}>.",
                c.challenged.id, c.challenger.id
            ))
            .allowed_mentions(serenity::CreateAllowedMentions::new())
        }
        "cancel" => {
            let c = service.cancel(arg, user).await?;
            update(format!("<@{}> withdrew the challenge.", c.challenger.id))
                .allowed_mentions(serenity::CreateAllowedMentions::new())
        }
        "draw-yes" | "draw-no" => {
            let current = service.game_in_channel(channel).await?;
            if current.map(|g| g.id) != Some(arg) {
                return Err(ServiceError::NoDrawOffer.into());
            }
            match service
                .answer_draw(channel, user, action == "draw-yes")
                .await?
            {
                DrawAnswer::Accepted(ended) => {
                    let mut m = update(format!(
                        "Draw agreed. {}",
                        messages::ended_message(&ended, None)
                    ));
                    if !ended.png.is_empty() {
                        m = m.add_file(serenity::CreateAttachment::bytes(ended.png, "board.png"));
                    }
                    m
                }
                DrawAnswer::Declined(game) => update(format!(
                    "<@{user}> declined the draw. {}",
                    messages::turn_line(&game)
                )),
            }
        }
        "lb" => {
            let guild = press
                .guild_id
                .ok_or_else(|| Error::User("The leaderboard belongs to a server.".into()))?;
            let board = service.leaderboard(guild.get(), arg.max(0) as u32).await?;
            serenity::CreateInteractionResponseMessage::new()
                .content(messages::leaderboard_message(&board))
                .components(leaderboard_buttons(&board))
                .allowed_mentions(serenity::CreateAllowedMentions::new())
        }
        _ => return Ok(()),
    };
    press
        .create_response(
            &ctx.http,
            serenity::CreateInteractionResponse::UpdateMessage(response),
        )
        .await?;
    Ok(())
}
