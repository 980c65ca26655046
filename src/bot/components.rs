//! Button presses: accepting, declining and cancelling challenges, accepting or declining draw offers,
//! paging the leaderboard and the games running, solving the daily puzzle, confirming
//! `/tablut forget-me`. Which button was pressed is read from its custom id by [`Button`]
//! (see `buttons`); the service decides who may press what.

use super::buttons::{games_buttons, leaderboard_buttons, Button, ButtonError};
use super::protocol::press::Press;
use super::{messages, redact, Data, Error, InFlight};
use crate::service::{ChallengeId, DrawDecision};
use crate::tafl::Variant;
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
    let context = framework.serenity_context;
    let mut response = Press::new(&context.http, &context.cache, press_event);
    if let Err(error) = press(&mut response, data).await {
        if error.is_internal() {
            tracing::error!(custom_id = %press_event.data.custom_id, error = %redact::error(&error), "button failed");
        }
        if let Err(e) = response.refuse(error.to_string()).await {
            tracing::warn!(error = %redact::error(&e), "could not answer a button");
        }
    }
    Ok(())
}

/// A challenge being answered here and now: a second press on it (a double click, or Cancel
/// while Accept is under way) is refused until the challenge has changed, so one challenge
/// makes at most one game and one thread.
///
/// The set is this process's, and that is enough with several processes: Discord sends all of
/// a guild's interactions to the one shard `(guild_id >> 22) % shards`, which one process
/// runs. Whatever the processes, the challenge's answer itself counts once: it is a
/// conditional update of the pending challenge in the database.
struct ChallengeInHand<'a> {
    set: &'a Mutex<HashSet<ChallengeId>>,
    id: ChallengeId,
}

impl<'a> ChallengeInHand<'a> {
    fn begin(set: &'a Mutex<HashSet<ChallengeId>>, id: ChallengeId) -> Result<Self, Error> {
        if !set.lock().unwrap_or_else(|e| e.into_inner()).insert(id) {
            return Err(Error::User(messages::CHALLENGE_IN_HAND.into()));
        }
        Ok(ChallengeInHand { set, id })
    }
}

impl Drop for ChallengeInHand<'_> {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// Accepting a challenge that plays in a new thread: acknowledged first, then the thread, the
/// game (its first post is the outbox's, and so is the news where the challenge was made), and
/// the challenge's message edited to point there. If the challenge expired or was answered
/// while the thread was made, the thread is told (by the outbox) why no game started in it.
async fn accept_in_thread(
    response: &mut Press<'_>,
    data: &Data,
    challenge: &crate::service::ChallengeInfo,
    user: u64,
    in_hand: Option<ChallengeInHand<'_>>,
) -> Result<(), Error> {
    response.acknowledge().await?;
    let http = response.http;
    let name = messages::thread_name(challenge);
    let thread = response
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
                Error::User(messages::NO_THREAD_HERE.into())
            }
            _ => e.into(),
        })?;
    let thread = thread.id.get();
    let games = data.service.games();
    let accepted = games.accept(challenge.id, user, Some(thread), Some(response.answer()));
    // The challenge's message says where the game is on, without a board.
    response
        .change(data, (accepted, in_hand), |_| Vec::new())
        .await
}

/// Handles one button press.
async fn press(response: &mut Press<'_>, data: &Data) -> Result<(), Error> {
    let press = response.press;
    let button = match press.data.custom_id.parse::<Button>() {
        Ok(button) => button,
        Err(ButtonError::Foreign) => return Ok(()),
        Err(ButtonError::Broken) => return Err(Error::User(messages::BROKEN_BUTTON.into())),
    };
    let user = press.user.id.get();
    let channel = press.channel_id.get();
    let service = &data.service;
    // A press counts against the user's rate as a command does.
    service.limits().command(user)?;
    // Held while the challenge changes (and its thread is made), let go before its news is shown.
    let in_hand = match button {
        Button::Accept(c) | Button::Decline(c) | Button::Cancel(c) => {
            Some(ChallengeInHand::begin(&data.challenges_in_hand, c)?)
        }
        _ => None,
    };
    match button {
        // A change is checked first, reading only, so that a refusal is the press's private
        // answer at once, before anything is acknowledged, written, or waits for the write
        // lock (a challenge past its time is refused here, and marked expired after).
        Button::Accept(id) => {
            challenge_press(response, data, id, Pressed::Accept, user, in_hand).await
        }
        Button::Decline(id) => {
            challenge_press(response, data, id, Pressed::Decline, user, in_hand).await
        }
        Button::Cancel(id) => {
            challenge_press(response, data, id, Pressed::Cancel, user, in_hand).await
        }
        Button::Draw { game, accept } => {
            let games = service.games();
            games.check_respond_to_draw(channel, game, user).await?;
            let answered = games.respond_to_draw(channel, user, accept, Some(response.answer()));
            response
                .change(data, (answered, in_hand), |a| match a {
                    DrawDecision::Accepted(ended) => ended.png,
                    DrawDecision::Declined(..) => Vec::new(),
                })
                .await
        }
        Button::DailyPuzzle(day) => {
            let guild = press.guild_id.map_or(0, |g| g.get());
            service
                .puzzles()
                .check_daily_puzzle(guild, user, Some(day))
                .await?;
            response.private = true;
            let daily = super::commands::puzzle::daily_press(response.http, press, data, day);
            response.change(data, (daily, ()), |v| v.png).await
        }
        Button::ForgetMe(asker) => {
            // Refused at once, privately, while anything of theirs is under way; the question
            // becomes the news once they are forgotten.
            let (presser, to) = super::commands::privacy::pressed_by(press, asker)?;
            service.privacy().check_forget(&presser).await?;
            let forget = service.privacy().forget(&presser, Some(&to));
            response.change(data, (forget, ()), |_| Vec::new()).await
        }
        Button::Tournament { id, join } => {
            // The presser's answer is theirs alone; the announcement's edit is the outbox's.
            let text = super::commands::tournament::press(data, press, id, join).await?;
            response.refuse(text).await?;
            Ok(())
        }
        Button::Leaderboard { variant, page } => {
            turn_page(response, data, Paged::Leaderboard(variant), page).await
        }
        Button::Games { page } => turn_page(response, data, Paged::Games, page).await,
    }
}

/// Which of a challenge's buttons was pressed.
#[derive(Debug, Clone, Copy)]
enum Pressed {
    Accept,
    Decline,
    Cancel,
}

/// A challenge's button (accept, decline, cancel) pressed by `user` on the challenge
/// `challenge_id`, with the challenge held while it changes (`in_hand`).
async fn challenge_press(
    response: &mut Press<'_>,
    data: &Data,
    challenge_id: ChallengeId,
    pressed: Pressed,
    user: u64,
    in_hand: Option<ChallengeInHand<'_>>,
) -> Result<(), Error> {
    let service = &data.service;
    match pressed {
        Pressed::Accept => {
            let challenge = service.games().check_accept(challenge_id, user).await?;
            if challenge.thread {
                return accept_in_thread(response, data, &challenge, user, in_hand).await;
            }
            let accepted =
                service
                    .games()
                    .accept(challenge_id, user, None, Some(response.answer()));
            response.change(data, (accepted, in_hand), |s| s.png).await
        }
        Pressed::Decline => {
            service.games().check_decline(challenge_id, user).await?;
            let declined = service
                .games()
                .decline(challenge_id, user, Some(response.answer()));
            response
                .change(data, (declined, in_hand), |_| Vec::new())
                .await
        }
        Pressed::Cancel => {
            service.games().check_cancel(challenge_id, user).await?;
            let cancelled = service
                .games()
                .cancel(challenge_id, user, Some(response.answer()));
            response
                .change(data, (cancelled, in_hand), |_| Vec::new())
                .await
        }
    }
}

/// A list whose pages are turned by buttons.
#[derive(Debug, Clone, Copy)]
enum Paged {
    /// A variant's leaderboard.
    Leaderboard(Variant),
    /// The games running in the server.
    Games,
}

/// A list's page turned to `page` (the leaderboard, the games running): the pressed message
/// updated.
async fn turn_page(
    response: &mut Press<'_>,
    data: &Data,
    list: Paged,
    page: u32,
) -> Result<(), Error> {
    let press = response.press;
    match list {
        Paged::Leaderboard(variant) => {
            let guild = press
                .guild_id
                .ok_or_else(|| Error::User(messages::LEADERBOARD_IN_A_SERVER.into()))?;
            let board = data
                .service
                .games()
                .leaderboard(guild.get(), variant, page)
                .await?;
            let text = messages::leaderboard_message(&board);
            response
                .update_with(text, leaderboard_buttons(&board))
                .await
        }
        Paged::Games => {
            let guild = press
                .guild_id
                .ok_or_else(|| Error::User(messages::GAMES_IN_A_SERVER.into()))?;
            // Worked out again for the presser (the caller: the listing is theirs alone), so a
            // page shows only the games in channels they can see now.
            let viewer = super::visibility::Viewer::of_press(response.cache, response.http, press);
            let games =
                super::visibility::visible_games(&viewer, &data.service, guild.get()).await?;
            let listed = messages::games_page(&games, page);
            response
                .update_with(listed.text.clone(), games_buttons(&listed))
                .await
        }
    }
}
