//! `/tablut export` and `/tablut import`: game records out and in (docs/RULES.md, "Game
//! records").

use super::start::{time_control, LevelArg, SideArg};
use crate::bot::caller::{caller, person, place};
use crate::bot::protocol::command::change;
use crate::bot::reply::reply;
use crate::bot::Context;
use crate::bot::{messages, Error};
use crate::service::analysis::AnalysisStatus;
use crate::service::records::{self, MAX_RECORD};
use crate::service::{AiGameRequest, ChallengeRequest, RecordProblem, ServiceError};
use crate::tafl::{ReadRecord, RecordFormat};
use poise::serenity_prelude as serenity;

/// A record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum RecordFormatArg {
    #[name = "tafl"]
    Tafl,
    #[name = "opentafl"]
    OpenTafl,
}

impl From<RecordFormatArg> for RecordFormat {
    fn from(f: RecordFormatArg) -> RecordFormat {
        match f {
            RecordFormatArg::Tafl => RecordFormat::Tafl,
            RecordFormatArg::OpenTafl => RecordFormat::OpenTafl,
        }
    }
}

/// What to do with an imported record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ThenArg {
    #[name = "analysis"]
    Analysis,
    #[name = "ai"]
    Ai,
    #[name = "challenge"]
    Challenge,
}

/// `/tablut export`: the channel's game as a record file.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn export(ctx: Context<'_>, format: Option<RecordFormatArg>) -> Result<(), Error> {
    let format = RecordFormat::from(format.unwrap_or(RecordFormatArg::Tafl));
    let (game, text) = ctx
        .data()
        .service
        .games()
        .export(ctx.channel_id().get(), format, messages::record_tags)
        .await?;
    ctx.send(
        reply(messages::exported(&game, format))
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .attachment(serenity::CreateAttachment::bytes(
                text.into_bytes(),
                format!("tablut-game-{}.{}", game.id, format.extension()),
            )),
    )
    .await?;
    Ok(())
}

/// The record's text: the `record` option, or the attached file (at most [`MAX_RECORD`]).
async fn record_text(
    record: Option<String>,
    file: Option<serenity::Attachment>,
) -> Result<String, Error> {
    match (record, file) {
        (Some(text), None) => Ok(text),
        (None, Some(file)) => {
            if file.size as usize > MAX_RECORD {
                return Err(ServiceError::BadRecord(RecordProblem::FileTooLarge {
                    limit_kb: MAX_RECORD / 1024,
                })
                .into());
            }
            let bytes = file.download().await.map_err(|e| {
                Error::User(messages::record_file_unreadable(
                    &crate::bot::redact::error(&e).to_string(),
                ))
            })?;
            String::from_utf8(bytes)
                .map_err(|_| ServiceError::BadRecord(RecordProblem::NotText).into())
        }
        _ => Err(Error::User(messages::IMPORT_ONE_SOURCE.into())),
    }
}

/// `/tablut import`: a record read, then reviewed or played on (`then`).
// Each option is an argument, as poise takes them.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn import(
    ctx: Context<'_>,
    #[max_length = 6000] record: Option<String>,
    file: Option<serenity::Attachment>,
    then: Option<ThenArg>,
    opponent: Option<serenity::User>,
    side: Option<SideArg>,
    level: Option<LevelArg>,
    #[max_length = 20] time: Option<String>,
) -> Result<(), Error> {
    let text = record_text(record, file).await?;
    let read = records::read(&text)?;
    match then.unwrap_or(ThenArg::Analysis) {
        ThenArg::Analysis => import_for_analysis(ctx, &read).await,
        ThenArg::Ai => play_on_against_the_ai(ctx, &read, side, level, time).await,
        ThenArg::Challenge => play_on_by_challenge(ctx, &read, opponent, side, time).await,
    }
}

/// `/tablut import then: analysis`: the finished game stored in the channel and its review
/// started, as /tablut analysis starts one; a review refused (busy, too soon) leaves the game
/// for /tablut analysis later.
async fn import_for_analysis(ctx: Context<'_>, read: &ReadRecord) -> Result<(), Error> {
    let data = ctx.data();
    let games = data.service.games();
    let channel = ctx.channel_id().get();
    let me = caller(ctx);
    let check = async {
        if !read.game.outcome().is_over() {
            return Err(ServiceError::RecordUnfinished);
        }
        if read.game.moves().is_empty() {
            return Err(ServiceError::RecordEmpty);
        }
        Ok(())
    };
    let Some(id) = change(ctx, check, games.import_finished(channel, &me, read)).await? else {
        return Ok(());
    };
    // Its review, as /tablut analysis starts one; refused (busy, too soon), the game
    // stays, for /tablut analysis later.
    let none = serenity::CreateAllowedMentions::new;
    let text = match data
        .service
        .analysis()
        .request(channel, Some(id), Some(me.id))
        .await
    {
        Ok(AnalysisStatus::Started { game, total }) => {
            crate::bot::background::analysis(&data.tasks, data.service.clone(), game.id);
            format!(
                "{} {}",
                messages::imported(id),
                messages::analysis_started(&game, total)
            )
        }
        Ok(AnalysisStatus::Running {
            game,
            reviewed,
            total,
        }) => messages::analysis_running(&game, reviewed, total),
        Ok(AnalysisStatus::Finished(report)) => messages::analysis_summary(&report.summary()),
        Err(e) => format!("{} {}", messages::imported(id), messages::refusal(&e)),
    };
    ctx.send(reply(text).allowed_mentions(none())).await?;
    Ok(())
}

/// `/tablut import then: ai`: the unfinished game played on against the AI from its last
/// position.
async fn play_on_against_the_ai(
    ctx: Context<'_>,
    read: &ReadRecord,
    side: Option<SideArg>,
    level: Option<LevelArg>,
    time: Option<String>,
) -> Result<(), Error> {
    if read.game.outcome().is_over() {
        return Err(ServiceError::RecordFinished.into());
    }
    let request = AiGameRequest {
        place: place(ctx),
        user: caller(ctx),
        side: side.unwrap_or(SideArg::Random).into(),
        level: level.unwrap_or(LevelArg::Medium).into(),
        rules: *read.game.rules(),
        time_control: time_control(ctx, time)?,
        start: Some(*read.game.position()),
    };
    super::start::start_ai_game(ctx, request).await
}

/// `/tablut import then: challenge`: `opponent` challenged to play the unfinished game on from
/// its last position.
async fn play_on_by_challenge(
    ctx: Context<'_>,
    read: &ReadRecord,
    opponent: Option<serenity::User>,
    side: Option<SideArg>,
    time: Option<String>,
) -> Result<(), Error> {
    if read.game.outcome().is_over() {
        return Err(ServiceError::RecordFinished.into());
    }
    let Some(opponent) = opponent else {
        return Err(Error::User(messages::IMPORT_NEEDS_OPPONENT.into()));
    };
    let request = ChallengeRequest {
        place: place(ctx),
        challenger: caller(ctx),
        opponent: person(&opponent),
        opponent_is_bot: opponent.bot,
        side: side.unwrap_or(SideArg::Random).into(),
        rules: *read.game.rules(),
        time_control: time_control(ctx, time)?,
        thread: false,
        rated: false,
        start: Some(*read.game.position()),
    };
    super::start::open_challenge(ctx, request).await
}
