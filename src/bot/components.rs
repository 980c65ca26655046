//! Button presses: accepting, declining and cancelling challenges, answering draw offers,
//! paging the leaderboard and the games running, solving the daily puzzle, confirming
//! `/tablut forget-me`. Which button was pressed is read from its custom id by [`Button`]
//! (see `buttons`); the service decides who may press what.

use super::buttons::{games_buttons, leaderboard_buttons, Button, ButtonError};
use super::{messages, redact, Data, Error, InFlight};
use crate::service::{ChallengeId, DrawAnswer, NoticeId, ServiceError};
use poise::serenity_prelude as serenity;
use std::collections::HashSet;
use std::sync::Mutex;

/// poise's event handler: button presses go to [`press`].
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if super::gone::on_event(framework, event).await {
        return Ok(());
    }
    let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press_event),
    } = event
    else {
        return Ok(());
    };
    let data = framework.user_data;
    let _counted = InFlight::enter(&data.in_flight);
    let mut answer = Answer {
        http: &framework.serenity_context.http,
        cache: &framework.serenity_context.cache,
        press: press_event,
        acknowledged: false,
        private: false,
    };
    if let Err(error) = press(&mut answer, data).await {
        if error.is_internal() {
            tracing::error!(custom_id = %press_event.data.custom_id, error = %redact::error(&error), "button failed");
        }
        if let Err(e) = answer.refuse(error.to_string()).await {
            tracing::warn!(error = %redact::error(&e), "could not answer a button");
        }
    }
    Ok(())
}

/// The answer to one press: at once with the updated message (a page of a list), or, for a
/// change, acknowledged first (a deferred update, so Discord's three seconds cannot run out)
/// and the message edited after into the change's news.
struct Answer<'a> {
    http: &'a serenity::Http,
    cache: &'a serenity::Cache,
    press: &'a serenity::ComponentInteraction,
    acknowledged: bool,
    /// Acknowledged with a new message for the presser alone (deferred), which shows the news,
    /// instead of the pressed message.
    private: bool,
}

impl Answer<'_> {
    /// A deferred update: the press is answered, the message stays as it is for now (or, when
    /// `private`, a deferred message for the presser alone).
    async fn acknowledge(&mut self) -> Result<(), Error> {
        let alone = serenity::CreateInteractionResponseMessage::new().ephemeral(true);
        let response = match self.private {
            true => serenity::CreateInteractionResponse::Defer(alone),
            false => serenity::CreateInteractionResponse::Acknowledge,
        };
        self.press.create_response(self.http, response).await?;
        self.acknowledged = true;
        Ok(())
    }

    /// The pressed message replaced by `text` with `buttons` (a page of a list), as the answer.
    async fn update_with(
        &self,
        text: String,
        buttons: Vec<serenity::CreateActionRow>,
    ) -> Result<(), Error> {
        let message = serenity::CreateInteractionResponseMessage::new()
            .content(text)
            .components(buttons)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        let update = serenity::CreateInteractionResponse::UpdateMessage(message);
        self.press.create_response(self.http, update).await?;
        Ok(())
    }

    /// One line for the presser alone: the answer; or, once acknowledged, a follow-up. After
    /// a deferred update (as after any public acknowledgement), Discord gives the first
    /// follow-up the acknowledgement's visibility whatever it asks for: a neutral one is sent
    /// and deleted at once, and the line follows it, private (not sent if that first one fails:
    /// it would show to everyone).
    async fn refuse(&self, text: String) -> Result<(), serenity::Error> {
        let text = messages::fit(text);
        let none = serenity::CreateAllowedMentions::new;
        if self.acknowledged {
            if !self.private {
                let first = serenity::CreateInteractionResponseFollowup::new()
                    .content(messages::NOTHING_CHANGED)
                    .allowed_mentions(none());
                let first = self.press.create_followup(self.http, first).await?;
                if let Err(e) = self.press.delete_followup(self.http, first.id).await {
                    tracing::warn!(error = %redact::error(&e), "cannot delete the first follow-up before a refusal");
                }
            }
            let followup = serenity::CreateInteractionResponseFollowup::new()
                .content(text)
                .ephemeral(true)
                .allowed_mentions(none());
            self.press.create_followup(self.http, followup).await?;
        } else {
            let reply = serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true)
                    .allowed_mentions(none()),
            );
            self.press.create_response(self.http, reply).await?;
        }
        Ok(())
    }
}

/// A challenge being answered here and now: a second press on it (a double click, or Cancel
/// while Accept is under way) is refused until the challenge has changed, so one challenge
/// makes at most one game and one thread.
///
/// The set is this process's, and that is enough with several processes: Discord sends all of
/// a guild's interactions to the one shard `(guild_id >> 22) % shards`, which one process
/// runs. Whatever the processes, the challenge's answer itself counts once: it is a
/// conditional update of the pending challenge in the database.
struct Answering<'a> {
    set: &'a Mutex<HashSet<ChallengeId>>,
    id: ChallengeId,
}

impl<'a> Answering<'a> {
    fn begin(set: &'a Mutex<HashSet<ChallengeId>>, id: ChallengeId) -> Result<Self, Error> {
        if !set.lock().unwrap_or_else(|e| e.into_inner()).insert(id) {
            return Err(Error::User(
                "This challenge is being answered right now: its message shows the outcome in a moment."
                    .into(),
            ));
        }
        Ok(Answering { set, id })
    }
}

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// The press as the notice of its change remembers it: the interaction, whose original
/// response is the pressed message (edited into the news), and that message (edited by the
/// dispatcher past the token's life).
fn held_for(press: &serenity::ComponentInteraction) -> crate::service::Answering {
    crate::service::Answering {
        answer: Some(super::delivery::answer_ref(
            press.application_id.get(),
            &press.token,
        )),
        message: Some(press.message.id.get()),
    }
}

/// Makes the change a press asks for (checked by the caller, reading only, before), acknowledged
/// first (a deferred update, so Discord's three seconds cannot run out), and shows its news
/// (`notice` of what `change` returns) by editing the pressed message; if that edit fails, the
/// dispatcher sends it again. If the acknowledgement fails, the change goes on all the same
/// (Discord may have taken it): the edit shows its news, or the dispatcher does in the channel.
/// A refusal the commit finds (another answer landed first) is the presser's alone (see
/// [`Answer::refuse`]). A failure after the commit is only logged: the dispatcher shows the
/// news.
async fn change<T>(
    answer: &mut Answer<'_>,
    data: &Data,
    (change, answering): (
        impl std::future::Future<Output = Result<T, ServiceError>>,
        Option<Answering<'_>>,
    ),
    notice: impl FnOnce(T) -> (Option<NoticeId>, Vec<u8>),
) -> Result<(), Error> {
    if !answer.acknowledged {
        if let Err(e) = answer.acknowledge().await {
            let custom_id = &answer.press.data.custom_id;
            tracing::warn!(%custom_id, error = %redact::error(&e), "could not acknowledge a press: its change goes on");
        }
    }
    let changed = change.await;
    // The challenge has changed: a press from now on is refused by the service.
    drop(answering);
    let committed = super::commands::play::committed(changed, &answer.press.data.custom_id)?;
    if let Some((Some(id), png)) = committed.map(notice) {
        super::delivery::show_answer(&data.service, &data.poster, id, png).await;
    }
    Ok(())
}

/// Accepting a challenge that plays in a new thread: acknowledged first, then the thread, the
/// game (its first post is the outbox's, and so is the news where the challenge was made), and
/// the challenge's message edited to point there. If the challenge expired or was answered
/// while the thread was made, the thread is told (by the outbox) why no game started in it.
async fn accept_in_thread(
    answer: &mut Answer<'_>,
    data: &Data,
    challenge: &crate::service::ChallengeInfo,
    user: u64,
    answering: Option<Answering<'_>>,
) -> Result<(), Error> {
    answer.acknowledge().await?;
    let http = answer.http;
    let name = messages::thread_name(challenge);
    let thread = answer
        .press
        .channel_id
        .create_thread(
            http,
            serenity::CreateThread::new(name).kind(serenity::ChannelType::PublicThread),
        )
        .await
        .map_err(|e| match &e {
            serenity::Error::Http(h)
                if h.status_code() == Some(serenity::StatusCode::FORBIDDEN) =>
            {
                Error::User(
                    "The bot may not create threads in this channel: press Accept again once it \
                     may (Create Public Threads), or play here with a new challenge."
                        .into(),
                )
            }
            _ => e.into(),
        })?;
    let thread = thread.id.get();
    let accepted = data.service.games().accept(
        challenge.id,
        user,
        Some(thread),
        Some(held_for(answer.press)),
    );
    // The challenge's message says where the game is on, without a board.
    change(answer, data, (accepted, answering), |s| {
        (s.notice, Vec::new())
    })
    .await
}

/// Handles one button press.
async fn press(answer: &mut Answer<'_>, data: &Data) -> Result<(), Error> {
    let press = answer.press;
    let button = match press.data.custom_id.parse::<Button>() {
        Ok(button) => button,
        Err(ButtonError::Foreign) => return Ok(()),
        Err(e) => return Err(Error::User(e.to_string())),
    };
    let user = press.user.id.get();
    let channel = press.channel_id.get();
    let service = &data.service;
    // A press counts against the user's rate as a command does.
    service.limits().command(user)?;
    // Held while the challenge changes (and its thread is made), let go before its news is shown.
    let answering = match button {
        Button::Accept(c) | Button::Decline(c) | Button::Cancel(c) => {
            Some(Answering::begin(&data.answering, c)?)
        }
        _ => None,
    };
    match button {
        // A change is checked first, reading only, so that a refusal is the press's private
        // answer at once, before anything is acknowledged, written, or waits for the write
        // lock (a challenge past its time is refused here, and marked expired after).
        Button::Accept(challenge_id) => {
            let challenge = service.games().check_accept(challenge_id, user).await?;
            if challenge.thread {
                return accept_in_thread(answer, data, &challenge, user, answering).await;
            }
            let accepted = service
                .games()
                .accept(challenge_id, user, None, Some(held_for(press)));
            change(answer, data, (accepted, answering), |s| (s.notice, s.png)).await
        }
        Button::Decline(challenge_id) => {
            service.games().check_decline(challenge_id, user).await?;
            let declined = service
                .games()
                .decline(challenge_id, user, Some(held_for(press)));
            change(answer, data, (declined, answering), |(_, n)| {
                (n, Vec::new())
            })
            .await
        }
        Button::Cancel(challenge_id) => {
            service.games().check_cancel(challenge_id, user).await?;
            let cancelled = service
                .games()
                .cancel(challenge_id, user, Some(held_for(press)));
            change(answer, data, (cancelled, answering), |(_, n)| {
                (n, Vec::new())
            })
            .await
        }
        Button::Draw { game, accept } => {
            service
                .games()
                .check_answer_draw(channel, game, user)
                .await?;
            let answered =
                service
                    .games()
                    .answer_draw(channel, user, accept, Some(held_for(press)));
            change(answer, data, (answered, answering), |a| match a {
                DrawAnswer::Accepted(ended) => (ended.notice, ended.png),
                DrawAnswer::Declined(_, notice) => (notice, Vec::new()),
            })
            .await
        }
        Button::DailyPuzzle(day) => {
            let guild = press.guild_id.map_or(0, |g| g.get());
            service
                .puzzles()
                .check_daily_puzzle(guild, user, Some(day))
                .await?;
            answer.private = true;
            let daily = super::commands::puzzle::daily_press(answer.http, press, data, day);
            change(answer, data, (daily, None), |v| (v.notice, v.png)).await
        }
        Button::ForgetMe(asker) => {
            // Refused at once, privately, while anything of theirs is under way; the question
            // becomes the news once they are forgotten.
            let (presser, to) = super::commands::privacy::pressed_by(press, asker)?;
            service.privacy().check_forget(&presser).await?;
            let forget = service.privacy().forget(&presser, Some(&to));
            change(answer, data, (forget, None), |f| (f.notice, Vec::new())).await
        }
        Button::Leaderboard { variant, page } => {
            let guild = press
                .guild_id
                .ok_or_else(|| Error::User("The leaderboard belongs to a server.".into()))?;
            let board = service
                .games()
                .leaderboard(guild.get(), variant, page)
                .await?;
            let text = messages::leaderboard_message(&board);
            answer.update_with(text, leaderboard_buttons(&board)).await
        }
        Button::Games { page } => {
            let guild = press
                .guild_id
                .ok_or_else(|| Error::User("The games listed belong to a server.".into()))?;
            // Worked out again for the presser (the caller: the listing is theirs alone), so a
            // page shows only the games in channels they can see now.
            let viewer = super::visibility::Viewer::of_press(answer.cache, answer.http, press);
            let games = super::visibility::visible_games(&viewer, service, guild.get()).await?;
            let listed = messages::games_page(&games, page);
            answer
                .update_with(listed.text.clone(), games_buttons(&listed))
                .await
        }
    }
}
