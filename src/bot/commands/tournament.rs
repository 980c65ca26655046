//! Tournaments: `/tablut tournament create` · `organisers` · `join` · `leave` · `start` ·
//! `standings` · `pairings` · `withdraw` · `remove` · `pause` · `resume` · `cancel`. The
//! announcement's Join and Leave buttons are answered here too ([`press`]).

use super::start::{game_rules, variant, RulesArg, VariantArg};
use super::Context;
use crate::bot::caller::{caller, is_admin, person};
use crate::bot::messages::tournaments as words;
use crate::bot::reply::{private, reply};
use crate::bot::{Data, Error};
use crate::service::tournament::{
    Member, TournamentFormat, TournamentId, TournamentInfo, TournamentRequest, Tournaments,
};
use crate::service::{ServiceError, TimeControl};
use poise::serenity_prelude as serenity;

/// `/tablut tournament`: the tournaments' group.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "organisers",
        "join",
        "leave",
        "start",
        "standings",
        "pairings",
        "withdraw",
        "remove",
        "pause",
        "resume",
        "cancel"
    ),
    subcommand_required
)]
pub(crate) async fn tournament(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A tournament's refusal in the bot's words; any other error as it is.
pub fn worded(e: ServiceError) -> Error {
    match e {
        ServiceError::Tournament(r) => Error::User(words::refusal(&r)),
        other => Error::Service(other),
    }
}

fn guild(ctx: Context<'_>) -> u64 {
    ctx.guild_id().map_or(0, |g| g.get())
}

/// The caller as an organiser may be: Manage Server, and their roles.
fn member(ctx: Context<'_>) -> Member {
    let roles = match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .map(|m| m.roles.iter().map(|r| r.get()).collect())
            .unwrap_or_default(),
        poise::Context::Prefix(_) => Vec::new(),
    };
    Member {
        user: caller(ctx),
        manage_server: is_admin(ctx),
        roles,
    }
}

/// An organiser's change to a tournament (start, pause, resume, cancel, remove): the tournament
/// the option names, the service's `change` to it by the caller, and its answer in `words`,
/// privately.
async fn organise(
    ctx: Context<'_>,
    tournament: Option<String>,
    change: impl AsyncFnOnce(
        Tournaments<'_>,
        u64,
        Option<TournamentId>,
        Member,
    ) -> Result<TournamentInfo, ServiceError>,
    words: impl FnOnce(&TournamentInfo) -> String,
) -> Result<(), Error> {
    let id = named(tournament.as_deref())?;
    let t = ctx.data().service.tournaments();
    let info = change(t, guild(ctx), id, member(ctx))
        .await
        .map_err(worded)?;
    ctx.send(private(words(&info))).await?;
    Ok(())
}

/// The tournament an option names (`#12 Spring Open`, or its id), none if left out.
fn named(text: Option<&str>) -> Result<Option<TournamentId>, Error> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let digits: String = text
        .trim_start_matches('#')
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.parse::<i64>() {
        Ok(id) if id > 0 => Ok(Some(id)),
        _ => Err(Error::User(words::not_a_tournament(text))),
    }
}

/// The server's tournaments, for the option's autocomplete.
async fn tournaments(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let list = ctx
        .data()
        .service
        .tournaments()
        .list(guild(ctx))
        .await
        .unwrap_or_default();
    let typed = typed.to_lowercase();
    let choices = list
        .into_iter()
        .map(|(id, name)| (format!("#{id} {name}"), id))
        .filter(|(label, _)| label.to_lowercase().contains(&typed))
        .take(25)
        .map(|(label, id)| serenity::AutocompleteChoice::new(label, id.to_string()))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// How a tournament pairs.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum PairingArg {
    #[name = "round-robin"]
    RoundRobin,
    #[name = "swiss"]
    Swiss,
}

/// `/tablut tournament create`: a tournament opened for sign-up in the channel.
// Each option is an argument, as poise takes them.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn create(
    ctx: Context<'_>,
    #[max_length = 100] name: String,
    format: PairingArg,
    seats: i64,
    rounds: Option<i64>,
    variant: Option<VariantArg>,
    rules: Option<RulesArg>,
    #[max_length = 20] time: Option<String>,
    rated: Option<bool>,
    #[max_length = 30] signup: Option<String>,
) -> Result<(), Error> {
    let rules = game_rules(self::variant(variant), rules)?;
    let format = match format {
        PairingArg::RoundRobin => TournamentFormat::RoundRobin,
        PairingArg::Swiss => TournamentFormat::Swiss {
            rounds: rounds.unwrap_or(0).clamp(0, u32::MAX as i64) as u32,
        },
    };
    let signup_for = match signup.as_deref() {
        None => None,
        Some(text) => {
            let now = chrono::Utc::now().timestamp_millis();
            Some(signup_end(text, now).ok_or_else(|| Error::User(words::not_a_signup_end(text)))?)
        }
    };
    let request = TournamentRequest {
        guild: guild(ctx),
        channel: ctx.channel_id().get(),
        organiser: member(ctx),
        name,
        rules,
        format,
        time_control: super::start::time_control(ctx, time)?,
        rated: rated.unwrap_or(true),
        seats,
        signup_for,
    };
    let info = ctx
        .data()
        .service
        .tournaments()
        .create(request)
        .await
        .map_err(worded)?;
    ctx.send(private(words::created(&info))).await?;
    Ok(())
}

/// The longest a sign-up may last: as long as the longest time per move.
const LONGEST_SIGNUP_MS: i64 = 30 * 86_400_000;

/// How long a sign-up lasts from `now` (Unix ms), from what the organiser wrote: a span
/// (`2d`, `12h`, `1d12h`: one minute to thirty days), a UTC date and time
/// (`2027-01-20 18:00`, or with a `T`), or a Discord timestamp (`<t:1800000000>`, any style).
/// None: not one of those, or not between a minute and thirty days ahead.
fn signup_end(text: &str, now: i64) -> Option<std::time::Duration> {
    let text = text.trim();
    if let Ok(TimeControl::PerMove(span)) = text.parse::<TimeControl>() {
        return Some(span);
    }
    let at = match text
        .strip_prefix("<t:")
        .and_then(|rest| rest.strip_suffix('>'))
    {
        Some(stamp) => {
            let secs = stamp.split(':').next()?;
            secs.parse::<i64>().ok()?.checked_mul(1000)?
        }
        None => ["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"]
            .iter()
            .find_map(|f| chrono::NaiveDateTime::parse_from_str(text, f).ok())?
            .and_utc()
            .timestamp_millis(),
    };
    let ahead = at.checked_sub(now)?;
    (60_000..=LONGEST_SIGNUP_MS)
        .contains(&ahead)
        .then(|| std::time::Duration::from_millis(ahead as u64))
}

/// `/tablut tournament organisers`: the server's organisers' role set or forgotten.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn organisers(
    ctx: Context<'_>,
    role: Option<serenity::Role>,
) -> Result<(), Error> {
    let role = role.map(|r| r.id.get());
    let tournaments = ctx.data().service.tournaments();
    tournaments
        .set_organisers(guild(ctx), &member(ctx), role)
        .await
        .map_err(worded)?;
    ctx.send(private(words::organisers_set(role))).await?;
    Ok(())
}

/// `/tablut tournament join`: the caller signed up.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn join(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let id = named(tournament.as_deref())?;
    let t = ctx.data().service.tournaments();
    let info = t.join(guild(ctx), id, caller(ctx)).await.map_err(worded)?;
    ctx.send(private(words::joined(&info, true))).await?;
    Ok(())
}

/// `/tablut tournament leave`: the caller's sign-up taken back.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn leave(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let id = named(tournament.as_deref())?;
    let t = ctx.data().service.tournaments();
    let me = ctx.author().id.get();
    let info = t.leave(guild(ctx), id, me).await.map_err(worded)?;
    ctx.send(private(words::joined(&info, false))).await?;
    Ok(())
}

/// `/tablut tournament start`: sign-up closed and round 1 paired.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn start(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    organise(
        ctx,
        tournament,
        async |t, guild, id, by| t.start(guild, id, &by).await,
        words::changed,
    )
    .await
}

/// `/tablut tournament standings`: a tournament's standings, with their image.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn standings(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let id = named(tournament.as_deref())?;
    let t = ctx.data().service.tournaments();
    let view = t.view(guild(ctx), id).await.map_err(worded)?;
    let png = t.draw_standings(view.drawn()).await?;
    let mut answer = reply(words::standings_text(&view))
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if !view.standings.is_empty() {
        answer = answer.attachment(serenity::CreateAttachment::bytes(png, "standings.png"));
    }
    ctx.send(answer).await?;
    Ok(())
}

/// `/tablut tournament pairings`: a tournament's last round's pairings.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn pairings(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let id = named(tournament.as_deref())?;
    let t = ctx.data().service.tournaments();
    let view = t.view(guild(ctx), id).await.map_err(worded)?;
    let answer =
        reply(words::pairings_text(&view)).allowed_mentions(serenity::CreateAllowedMentions::new());
    ctx.send(answer).await?;
    Ok(())
}

/// `/tablut tournament withdraw`: the caller withdraws.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn withdraw(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let id = named(tournament.as_deref())?;
    let t = ctx.data().service.tournaments();
    let me = ctx.author().id.get();
    let info = t.withdraw(guild(ctx), id, me, None).await.map_err(worded)?;
    ctx.send(private(words::withdrawn(&info, None))).await?;
    Ok(())
}

/// `/tablut tournament remove`: a player withdrawn by the organiser.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn remove(
    ctx: Context<'_>,
    player: serenity::User,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let who = person(&player);
    organise(
        ctx,
        tournament,
        async |t, guild, id, by| t.withdraw(guild, id, who.id, Some(&by)).await,
        |info| words::withdrawn(info, Some(&who)),
    )
    .await
}

/// `/tablut tournament pause`: the next round held back.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn pause(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    organise(
        ctx,
        tournament,
        async |t, guild, id, by| t.pause(guild, id, &by).await,
        words::changed,
    )
    .await
}

/// `/tablut tournament resume`: a paused tournament going on.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn resume(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    organise(
        ctx,
        tournament,
        async |t, guild, id, by| t.resume(guild, id, &by).await,
        words::changed,
    )
    .await
}

/// `/tablut tournament cancel`: a tournament ended, its unfinished games aborted.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn cancel(
    ctx: Context<'_>,
    #[autocomplete = "tournaments"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    organise(
        ctx,
        tournament,
        async |t, guild, id, by| t.cancel(guild, id, &by).await,
        words::changed,
    )
    .await
}

/// A press of Join or Leave on an announcement: the presser joins or leaves; the answer is
/// theirs alone (the announcement's edit is the outbox's).
pub async fn press(
    data: &Data,
    press: &serenity::ComponentInteraction,
    id: TournamentId,
    join: bool,
) -> Result<String, Error> {
    let guild = press.guild_id.map_or(0, |g| g.get());
    let mut who = person(&press.user);
    if let Some(nick) = press.member.as_ref().and_then(|m| m.nick.clone()) {
        who.name = nick;
    }
    let t = data.service.tournaments();
    let info = match join {
        true => t.join(guild, Some(id), who).await,
        false => t.leave(guild, Some(id), press.user.id.get()).await,
    }
    .map_err(worded)?;
    Ok(words::joined(&info, join))
}

#[cfg(test)]
mod tests {
    use super::signup_end;
    use std::time::Duration;

    /// 2027-01-15 08:00:00 UTC.
    const NOW: i64 = 1_800_000_000_000;

    #[test]
    fn a_signup_ends_after_a_span_or_at_a_time_ahead() {
        let hours = |h: u64| Some(Duration::from_secs(h * 3600));
        assert_eq!(signup_end("2d", NOW), hours(48));
        assert_eq!(signup_end(" 1d12h ", NOW), hours(36));
        // 2027-01-15 08:00 UTC is NOW: 10:00 the same day is two hours ahead.
        assert_eq!(signup_end("2027-01-15 10:00", NOW), hours(2));
        assert_eq!(signup_end("2027-01-15T10:00", NOW), hours(2));
        assert_eq!(signup_end("2027-01-16 08:00:00", NOW), hours(24));
        assert_eq!(signup_end("<t:1800007200>", NOW), hours(2));
        assert_eq!(signup_end("<t:1800007200:R>", NOW), hours(2));
        // Past, too near, too far, or not a time.
        for bad in [
            "2027-01-15 07:00",
            "<t:1800000030>",
            "2027-03-01 00:00",
            "31d",
            "3d+6h",
            "none",
            "tomorrow",
            "<t:-5>",
            "<t:99999999999999999999>",
            "",
        ] {
            assert_eq!(signup_end(bad, NOW), None, "{bad}");
        }
    }
}
