//! Starting games: `/tablut challenge` and `/tablut ai`.

use crate::ai::Level;
use crate::bot::caller::{caller, person, place};
use crate::bot::protocol::command::{answer, change, show};
use crate::bot::Context;
use crate::bot::{messages, Error};
use crate::service::{
    AiGameRequest, Answered, ChallengeRequest, ServiceError, SideChoice, TimeControl,
};
use crate::tafl::{Preset, Rules, Variant};
use poise::serenity_prelude as serenity;
use poise::ChoiceParameter;

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SideArg {
    #[name = "attackers"]
    Attackers,
    #[name = "defenders"]
    Defenders,
    #[name = "random"]
    Random,
}

impl From<SideArg> for SideChoice {
    fn from(s: SideArg) -> SideChoice {
        match s {
            SideArg::Attackers => SideChoice::Attackers,
            SideArg::Defenders => SideChoice::Defenders,
            SideArg::Random => SideChoice::Random,
        }
    }
}

/// The game of the tafl family: Tablut (the default), Brandubh or Copenhagen Hnefatafl (11×11
/// or 13×13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum VariantArg {
    #[name = "tablut"]
    Tablut,
    #[name = "brandubh"]
    Brandubh,
    #[name = "copenhagen"]
    Copenhagen,
    #[name = "copenhagen13"]
    Copenhagen13,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Tablut => Variant::Tablut,
            VariantArg::Brandubh => Variant::Brandubh,
            VariantArg::Copenhagen => Variant::Copenhagen,
            VariantArg::Copenhagen13 => Variant::Copenhagen13,
        }
    }
}

/// The variant chosen (Tablut when left out).
pub fn variant(arg: Option<VariantArg>) -> Variant {
    arg.map_or(Variant::Tablut, Variant::from)
}

/// A rules preset by name: each variant has its own (`/tablut rules variant:…` lists them).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum RulesArg {
    #[name = "linnaeus"]
    Linnaeus,
    #[name = "walker"]
    Walker,
    #[name = "salmi"]
    Salmi,
    #[name = "corner"]
    Corner,
    #[name = "aagenielsen"]
    Aagenielsen,
    #[name = "opentafl"]
    OpenTafl,
    #[name = "hnefatafl_org"]
    HnefataflOrg,
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum LevelArg {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

impl From<LevelArg> for Level {
    fn from(l: LevelArg) -> Level {
        match l {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
        }
    }
}

/// The rules of a new game: the variant's preset named, or its default. A preset of another
/// variant is refused, naming the variant's own.
pub fn game_rules(variant: Variant, preset: Option<RulesArg>) -> Result<Rules, Error> {
    match preset {
        None => Ok(variant.rules()),
        Some(p) => Preset::find(variant, p.name())
            .map(Preset::rules)
            .map_err(|_| Error::User(messages::preset_refused(variant, p.name()))),
    }
}

pub(crate) fn time_control(ctx: Context<'_>, text: Option<String>) -> Result<TimeControl, Error> {
    match text {
        Some(t) => Ok(t.parse().map_err(ServiceError::from)?),
        None => Ok(ctx.data().config.default_time_control),
    }
}

/// `/tablut challenge`: a challenge opened in the channel.
// Each option is an argument, as poise takes them.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn challenge(
    ctx: Context<'_>,
    opponent: serenity::User,
    variant: Option<VariantArg>,
    side: Option<SideArg>,
    rules: Option<RulesArg>,
    #[max_length = 20] time: Option<String>,
    thread: Option<bool>,
    rated: Option<bool>,
) -> Result<(), Error> {
    let rules = game_rules(self::variant(variant), rules)?;
    let request = ChallengeRequest {
        place: place(ctx),
        challenger: caller(ctx),
        opponent: person(&opponent),
        opponent_is_bot: opponent.bot,
        side: side.unwrap_or(SideArg::Random).into(),
        rules,
        time_control: time_control(ctx, time)?,
        thread: thread.unwrap_or(false),
        rated: rated.unwrap_or(true),
        start: None,
    };
    open_challenge(ctx, request).await
}

/// `/tablut ai`: a game against the AI started in the channel.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn ai(
    ctx: Context<'_>,
    variant: Option<VariantArg>,
    side: Option<SideArg>,
    level: Option<LevelArg>,
    rules: Option<RulesArg>,
    #[max_length = 20] time: Option<String>,
) -> Result<(), Error> {
    let rules = game_rules(self::variant(variant), rules)?;
    let request = AiGameRequest {
        place: place(ctx),
        user: caller(ctx),
        side: side.unwrap_or(SideArg::Random).into(),
        level: level.unwrap_or(LevelArg::Medium).into(),
        rules,
        time_control: time_control(ctx, time)?,
        start: None,
    };
    start_ai_game(ctx, request).await
}

/// Opens the challenge `request` asks for (checked first, refused privately), its message the
/// command's deferred answer: its expiry edits that message.
pub(crate) async fn open_challenge(
    ctx: Context<'_>,
    request: ChallengeRequest,
) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let made = change(
        ctx,
        games.check_challenge(&request),
        games.challenge(request.clone(), Some(answer(ctx))),
    )
    .await?;
    if let Some(notice) = made.and_then(|m| m.notice) {
        show(ctx, &notice, Vec::new()).await;
    }
    Ok(())
}

/// Starts the game against the AI `request` asks for (checked first, refused privately), shows
/// its start as the command's answer, and the AI's first move if it is to play.
pub(crate) async fn start_ai_game(ctx: Context<'_>, request: AiGameRequest) -> Result<(), Error> {
    let games = ctx.data().service.games();
    let Some(Answered {
        done: started,
        notice,
    }) = change(
        ctx,
        games.check_ai_game(&request),
        games.start_ai_game(request.clone(), Some(answer(ctx))),
    )
    .await?
    else {
        return Ok(());
    };
    if let Some(notice) = &notice {
        show(ctx, notice, started.png).await;
    }
    if started.game.to_move().is_some_and(|p| p.is_ai()) {
        super::play::ai_reply(ctx, started.game.id);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `rules` option's choices are the presets' names, every preset's and no other.
    #[test]
    fn the_rules_choices_are_the_presets() {
        let list = RulesArg::list();
        let choices: Vec<&str> = list.iter().map(|c| c.name.as_ref()).collect();
        let mut presets: Vec<&str> = Variant::ALL
            .iter()
            .flat_map(|&v| Preset::of(v))
            .map(Preset::name)
            .collect();
        presets.sort_unstable();
        presets.dedup();
        let mut sorted = choices.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, presets);
        for name in choices {
            let arg = RulesArg::from_name(name).unwrap();
            assert_eq!(arg.name(), name);
        }
    }
}
