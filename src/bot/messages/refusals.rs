//! Refusals: a one-line private answer saying what is wrong and what to do.

use super::*;
use crate::service::privacy::UnderWay;
use crate::service::{Done, NotStartedWhy, RecordProblem, ServiceError};
use crate::tafl::Variant;
use std::time::Duration;

/// The refusal of one of Tablut's presets for another variant.
pub fn preset_refused(variant: Variant, preset: &str) -> String {
    format!(
        "{} has no rules preset {preset}: choose {} (`/tablut rules variant:{}` describes them).",
        variant_title(variant),
        preset_names(variant),
        variant.name()
    )
}

/// A command used outside a server.
pub const GUILD_ONLY: &str =
    "Tablut is played in a server's channels: use this command in a server, not in a direct message.";

/// An option Discord could not read for the command (`why`: what poise found).
pub fn bad_option(why: &str) -> String {
    format!("That option is not valid ({why}): check the command's options and try again.")
}

/// An option that is none of the command's choices.
pub const BAD_CHOICE: &str =
    "That option is not valid: pick one of the command's choices and try again.";

/// A command used again within its cooldown.
pub fn too_fast(secs: u64) -> String {
    format!("Not so fast: try again in {secs} s.")
}

/// A button of the bot's that names no button it makes.
pub const BROKEN_BUTTON: &str = "That button is broken: use the slash commands instead.";

/// A challenge's button pressed while another press of it is being answered.
pub const CHALLENGE_IN_HAND: &str =
    "This challenge is being answered right now: its message shows the outcome in a moment.";

/// A challenge to play in a thread accepted in a channel where the bot may not make threads.
pub const NO_THREAD_HERE: &str = "The bot may not create threads in this channel: press Accept \
     again once it may (Create Public Threads), or play here with a new challenge.";

/// A command or a press the bot could not answer: Discord refused its request.
pub const DISCORD_REFUSED: &str = "Discord did not take the bot's answer: please try again.";

/// A leaderboard's page turned outside a server.
pub const LEADERBOARD_IN_A_SERVER: &str = "The leaderboard belongs to a server.";

/// A page of the games running turned outside a server.
pub const GAMES_IN_A_SERVER: &str = "The games listed belong to a server.";

/// `/tablut analysis game:` given what is not a game's number.
pub fn not_a_game(typed: &str) -> String {
    format!(
        "'{}' is not a game: pick one from the list, or leave it out for the last one.",
        crate::echo::echo(typed)
    )
}

/// A record's file Discord would not hand over (`why`: the error, its tokens hidden).
pub fn record_file_unreadable(why: &str) -> String {
    format!("The file could not be read from Discord ({why}): please try again.")
}

/// `/tablut import` given both or neither of its sources.
pub const IMPORT_ONE_SOURCE: &str =
    "Give the record once: as text (record:) or as a file (file:), not both or neither.";

/// `/tablut import then: challenge` without an opponent.
pub const IMPORT_NEEDS_OPPONENT: &str =
    "Say whom you challenge to play on: add opponent:, or play on against the bot with then: ai.";

/// A refusal or failure of the service in the one line its player reads: what is wrong and
/// what to do.
pub fn refusal(e: &ServiceError) -> String {
    use ServiceError as E;
    match e {
        E::NoGame => {
            "There is no game in this channel: start one with /tablut challenge or /tablut ai."
                .into()
        }
        E::GameRunning => {
            "A game is already running in this channel: finish it first, or play in another channel."
                .into()
        }
        E::NotAPlayer => "You are not playing this game: only its two players can do that.".into(),
        E::NotYourTurn(side) => format!("It is not your turn: the {side} are to move."),
        E::IllegalMove(why) => format!("That move is not legal: {}.", move_problem(why)),
        E::PositionChanged => {
            "The position changed while you were moving: look at the board and try again.".into()
        }
        E::GameOver => {
            "This game is over: start a new one with /tablut challenge or /tablut ai.".into()
        }
        E::SelfChallenge => {
            "You cannot challenge yourself: name another player, or play the AI with /tablut ai."
                .into()
        }
        E::OpponentIsBot => {
            "Bots cannot play: challenge a person, or play the AI with /tablut ai.".into()
        }
        E::ChallengeOpen => {
            "You already have an open challenge in this channel: wait for the answer, or cancel it."
                .into()
        }
        E::NoChallenge => {
            "That challenge no longer exists: start a new one with /tablut challenge.".into()
        }
        E::ChallengeExpired => {
            "That challenge has expired: start a new one with /tablut challenge.".into()
        }
        E::ChallengeNotYours => {
            "That challenge is not yours to answer: only the challenged player can.".into()
        }
        E::NotYourChallenge => "Only the challenger can cancel this challenge.".into(),
        E::ChallengeClosed(status) => {
            format!("That challenge was already {status}: start a new one with /tablut challenge.")
        }
        E::NoDrawOffer => {
            "There is no draw offer to answer: offer one with /tablut draw.".into()
        }
        E::DrawOfferOpen => "A draw offer is already open in this game: wait for the answer.".into(),
        E::OwnDrawOffer => "You made this draw offer: your opponent has to answer it.".into(),
        E::AiDeclinesDraw => {
            "The AI plays on and does not accept draws: play the game out or resign.".into()
        }
        E::TooLateToAbort => {
            "The game is past its first two moves: resign instead, or ask a moderator to abort it."
                .into()
        }
        E::HintInRatedGame => "No hints in a rated game between people: the AI's help is for casual games (/tablut challenge rated:false), games against the AI, and analysis.".into(),
        E::HintTooSoon(secs) => {
            format!("You asked for a hint a moment ago: try again in {secs} s.")
        }
        E::TooManyCommands(secs) => format!(
            "You are sending commands faster than the bot takes them: try again in {secs} s."
        ),
        E::CostlyTooSoon(secs) => format!(
            "That takes the bot a while to make, so each player gets one at a time: try again in {secs} s."
        ),
        E::Busy(n) => format!(
            "The bot is busy drawing {} already: try again in a minute.",
            counted(*n, "replay or analysis", "replays and analyses")
        ),
        E::AiBusy(n) => format!(
            "The AI is busy with {} already waiting: try again in a minute.",
            counted(*n, "move or hint", "moves and hints")
        ),
        E::TooManyAiGames(n) => format!(
            "You already have {} against the AI running in this server: finish or resign one first.",
            counted(*n, "game", "games")
        ),
        E::TooManyOpenChallenges {
            open,
            first_expires_in,
        } => format!(
            "You already have {}: cancel one, or try again once one is answered or when the first expires in {}.",
            counted(*open, "open challenge", "open challenges"),
            span_words(Duration::from_secs(*first_expires_in), Span::Wait)
        ),
        E::ChallengedTooOften {
            received,
            window,
            wait,
        } => format!(
            "That player was sent {} in the last {}: try again in {}.",
            counted(*received, "challenge", "challenges"),
            span_words(Duration::from_secs(*window), Span::Wait),
            span_words(Duration::from_secs(*wait), Span::Wait)
        ),
        E::AiGameTooSoon(secs) => {
            format!("You started a game against the AI a moment ago: try again in {secs} s.")
        }
        E::HintTimedOut => "Sorry, the AI is busy with other games and could not look at your position in time: ask for a hint again in a minute.".into(),
        E::BadTimeControl(typed) => format!(
            "'{}' is not a time control: write none, a time per move like 3d, or a bank and increment like 3d+6h (1 minute to 30 days; the increment at most the bank).",
            crate::echo::echo(typed)
        ),
        E::NoPuzzle => {
            "You have no puzzle to answer: ask for one with /tablut puzzle play.".into()
        }
        E::NoPuzzles => {
            "There are no puzzles yet: they come from finished games, so try again later.".into()
        }
        E::NoDailyPuzzle => "No daily puzzle was posted in this server today: a member with Manage Server names its channel with /tablut puzzle daily.".into(),
        E::DailyPuzzleDone { solved } => format!(
            "You have had your try at today's puzzle ({}): see how everyone did with /tablut puzzle leaderboard. The next one comes tomorrow.",
            if *solved { "solved" } else { "not solved" }
        ),
        E::DailyPuzzleOver => "That was an earlier day's puzzle: answer today's from today's post, or with /tablut puzzle today.".into(),
        E::NotAnAdmin => "Only a member with Manage Server can set the daily puzzle's channel.".into(),
        E::NoFinishedGame => {
            "No game has finished in this channel yet: analysis looks at finished games.".into()
        }
        E::NotAFinishedGame(id) => {
            format!("Game #{id} is not a finished game of this channel: pick one from the list.")
        }
        E::NothingToReview(id) => {
            format!("Game #{id} ended before its first move: there is nothing to review.")
        }
        E::NotYourButton => {
            "This button is for the member who asked: use the command yourself.".into()
        }
        E::StillUnderWay(under) => still_under_way(under),
        E::BadRecord(problem) => format!("That record cannot be read: {}.", record_problem(problem)),
        E::RecordUnfinished => "That record's game has not ended: analysis looks at finished games. Continue it instead, with then: ai or challenge.".into(),
        E::RecordFinished => {
            "That record's game is over: import it for analysis instead (then: analysis).".into()
        }
        E::RecordEmpty => "That record has no moves: there is nothing to review.".into(),
        E::AlreadyOnVacation { until } => format!(
            "You are already on vacation, until {} at the latest: end it with /tablut vacation end before you start another.",
            date_time(*until)
        ),
        E::NotOnVacation => {
            "You are not on vacation: start one with /tablut vacation start days:N.".into()
        }
        E::VacationDays { left: 0, allowance, .. } => format!(
            "You have no vacation days left: {} a year, counted over the last 365 days (see /tablut vacation status). Nothing was changed.",
            counted(*allowance, "day", "days")
        ),
        E::VacationDays {
            asked,
            left,
            allowance,
        } => format!(
            "You cannot take a vacation of {}: ask for 1 to {left} (of your {allowance} a year, {} left). Nothing was changed.",
            counted(*asked, "day", "days"),
            counted(*left, "day", "days")
        ),
        E::Recorded { done, .. } => done_words(*done).into(),
        E::Tournament(r) => super::tournaments::refusal(r),
        E::Database(_) | E::Internal(_) => {
            "Something went wrong on our side and nothing was changed: please try again.".into()
        }
    }
}

/// Why a record cannot be taken, after "That record cannot be read: ".
fn record_problem(problem: &RecordProblem) -> String {
    match problem {
        RecordProblem::TooLong { limit_kb } => format!("it is longer than {limit_kb} KB"),
        RecordProblem::FileTooLarge { limit_kb } => {
            format!("the file is larger than {limit_kb} KB")
        }
        RecordProblem::NotText => "the file is not text".into(),
        RecordProblem::Unreadable(why) => record_read_problem(why),
    }
}

/// What stands when a step after a change failed, and where it shows.
pub fn done_words(done: Done) -> &'static str {
    match done {
        Done::Move => "Your move was recorded, but the bot could not show it: the board follows in this channel (or see it with /tablut board). Do not send the move again.",
        Done::GameEnd => "The game's end was recorded, but the bot could not show it: the result follows in this channel (or see it with /tablut board).",
        Done::GameStart => "The game has started, but the bot could not show it: the board follows in this channel (or see it with /tablut board).",
        Done::Challenge => "Your challenge was made, but the bot could not show it: it follows in this channel. Do not challenge again.",
        Done::ChallengeDecided => "Your answer to the challenge was recorded, but the bot could not show it: the news follows in this channel.",
        Done::PuzzleStart => "Your puzzle is chosen, but the bot could not show it: see it with /tablut puzzle play.",
        Done::PuzzleMove => "Your answer was recorded, but the bot could not show it: see where your puzzle stands with /tablut puzzle play.",
    }
}

/// Why a person cannot be forgotten yet: what they still have under way, and what to do.
fn still_under_way(u: &UnderWay) -> String {
    let them = |n: u32| if n == 1 { "it" } else { "them" };
    let mut what = Vec::new();
    if u.games > 0 {
        what.push(format!(
            "{} under way (finish or resign {} with /tablut resign)",
            counted(u.games, "game", "games"),
            them(u.games)
        ));
    }
    if u.challenges > 0 {
        what.push(format!(
            "{} (cancel, decline or accept {})",
            counted(u.challenges, "open challenge", "open challenges"),
            them(u.challenges)
        ));
    }
    if u.analyses > 0 {
        what.push(format!(
            "{} of your games still running",
            counted(u.analyses, "analysis", "analyses")
        ));
    }
    if u.tournaments > 0 {
        what.push(format!(
            "{} not over that you entered or organise (leave {} while sign-up is open, or \
             wait for the end)",
            counted(u.tournaments, "tournament", "tournaments"),
            them(u.tournaments)
        ));
    }
    if u.notices > 0 {
        what.push("news about you the bot is still delivering (try again in a few minutes)".into());
    }
    format!(
        "You still have {}: these must end before the bot can forget you. Nothing was changed.",
        what.join(", ")
    )
}

/// Said in a thread made for a challenge's game when the game could not start there.
pub fn not_started(why: &NotStartedWhy) -> String {
    let why = match why {
        NotStartedWhy::Refused(refused) => match refused.error() {
            Some(e) => refusal(&e),
            None => "The challenge could not be accepted: start a new one with /tablut challenge."
                .into(),
        },
        NotStartedWhy::Worded(text) => text.clone(),
    };
    format!("No game was started in this thread. {why}")
}
