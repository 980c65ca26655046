//! Every refusal the service gives, each with the one-line message a player reads.

use crate::tafl::{MoveError, Side};

/// Why the service refused, or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("There is no game in this channel: start one with /tablut challenge or /tablut ai.")]
    NoGame,
    #[error(
        "A game is already running in this channel: finish it first, or play in another channel."
    )]
    GameRunning,
    #[error("You are not playing this game: only its two players can do that.")]
    NotAPlayer,
    #[error("It is not your turn: the {0} are to move.")]
    NotYourTurn(Side),
    #[error("That move is not legal: {0}.")]
    IllegalMove(MoveError),
    #[error("The position changed while you were moving: look at the board and try again.")]
    PositionChanged,
    #[error("This game is over: start a new one with /tablut challenge or /tablut ai.")]
    GameOver,
    #[error("You cannot challenge yourself: name another player, or play the AI with /tablut ai.")]
    SelfChallenge,
    #[error("Bots cannot play: challenge a person, or play the AI with /tablut ai.")]
    OpponentIsBot,
    #[error(
        "You already have an open challenge in this channel: wait for the answer, or cancel it."
    )]
    ChallengeOpen,
    #[error("That challenge no longer exists: start a new one with /tablut challenge.")]
    NoChallenge,
    #[error("That challenge has expired: start a new one with /tablut challenge.")]
    ChallengeExpired,
    #[error("That challenge is not yours to answer: only the challenged player can.")]
    ChallengeNotYours,
    #[error("Only the challenger can cancel this challenge.")]
    NotYourChallenge,
    #[error("That challenge was already {0}: start a new one with /tablut challenge.")]
    ChallengeClosed(super::types::ChallengeStatus),
    #[error("There is no draw offer to answer: offer one with /tablut draw.")]
    NoDrawOffer,
    #[error("A draw offer is already open in this game: wait for the answer.")]
    DrawOfferOpen,
    #[error("You made this draw offer: your opponent has to answer it.")]
    OwnDrawOffer,
    #[error("The AI plays on and does not accept draws: play the game out or resign.")]
    AiDeclinesDraw,
    #[error(
        "The game is past its first two moves: resign instead, or ask a moderator to abort it."
    )]
    TooLateToAbort,
    #[error("No hints in a rated game between people: the AI's help is for casual games (/tablut challenge rated:false), games against the AI, and analysis.")]
    HintInRatedGame,
    #[error("You asked for a hint a moment ago: try again in {0} s.")]
    HintTooSoon(u64),
    #[error("You are sending commands faster than the bot takes them: try again in {0} s.")]
    TooManyCommands(u64),
    #[error("That takes the bot a while to make, so each player gets one at a time: try again in {0} s.")]
    CostlyTooSoon(u64),
    #[error("The bot is busy drawing {} already: try again in a minute.", counted(*.0, "replay or analysis", "replays and analyses"))]
    Busy(usize),
    #[error("The AI is busy with {} already waiting: try again in a minute.", counted(*.0, "move or hint", "moves and hints"))]
    AiBusy(usize),
    #[error("You already have {} against the AI running in this server: finish or resign one first.", counted(*.0 as usize, "game", "games"))]
    TooManyAiGames(u32),
    #[error("You already have {}: cancel one, or try again once one is answered or {}.", counted(*.open as usize, "open challenge", "open challenges"), expiring(*.first_expires_in))]
    TooManyOpenChallenges { open: u32, first_expires_in: u64 },
    #[error("That player was sent {} in the last {}: try again in {}.", counted(*.received as usize, "challenge", "challenges"), wait_words(*.window), wait_words(*.wait))]
    ChallengedTooOften {
        received: u32,
        window: u64,
        wait: u64,
    },
    #[error("You started a game against the AI a moment ago: try again in {0} s.")]
    AiGameTooSoon(u64),
    #[error("Sorry, the AI is busy with other games and could not look at your position in time: ask for a hint again in a minute.")]
    HintTimedOut,
    #[error("It is the AI's turn: its move is coming.")]
    AiToMove,
    #[error(
        "'{}' is not a time control: write none, a time per move like 3d, or a bank and increment like 3d+6h (1 minute to 30 days; the increment at most the bank).",
        crate::echo::echo(.0)
    )]
    BadTimeControl(String),
    #[error("You have no puzzle to answer: ask for one with /tablut puzzle play.")]
    NoPuzzle,
    #[error("There are no puzzles yet: they come from finished games, so try again later.")]
    NoPuzzles,
    #[error("No daily puzzle was posted in this server today: a member with Manage Server names its channel with /tablut puzzle daily.")]
    NoDailyPuzzle,
    #[error(
        "You have had your try at today's puzzle ({}): see how everyone did with /tablut puzzle leaderboard. The next one comes tomorrow.",
        if *.solved { "solved" } else { "not solved" }
    )]
    DailyPuzzleDone { solved: bool },
    #[error("That was an earlier day's puzzle: answer today's from today's post, or with /tablut puzzle today.")]
    DailyPuzzleOver,
    #[error("Only a member with Manage Server can set the daily puzzle's channel.")]
    NotAnAdmin,
    #[error("No game has finished in this channel yet: analysis looks at finished games.")]
    NoFinishedGame,
    #[error("Game #{0} is not a finished game of this channel: pick one from the list.")]
    NotAFinishedGame(i64),
    #[error("Game #{0} ended before its first move: there is nothing to review.")]
    NothingToReview(i64),
    #[error("This button is for the member who asked: use the command yourself.")]
    NotYourButton,
    #[error("{}", still_under_way(.0))]
    StillUnderWay(UnderWay),
    #[error("That record cannot be read: {0}.")]
    BadRecord(String),
    #[error("That record's game has not ended: analysis looks at finished games. Continue it instead, with then: ai or challenge.")]
    RecordUnfinished,
    #[error("That record's game is over: import it for analysis instead (then: analysis).")]
    RecordFinished,
    #[error("That record has no moves: there is nothing to review.")]
    RecordEmpty,
    #[error("{}", .done.words())]
    Recorded {
        done: Done,
        #[source]
        cause: Box<ServiceError>,
    },
    #[error("Something went wrong on our side and nothing was changed: please try again.")]
    Database(#[from] crate::store::StoreError),
    #[error("Something went wrong on our side and nothing was changed: please try again.")]
    Internal(String),
}

/// A wait in seconds in words, rounded up to the unit shown: "40 s", "3 min", "2 h", "1 d".
pub fn wait_words(secs: u64) -> String {
    let secs = secs.max(1);
    match secs {
        0..=90 => format!("{secs} s"),
        91..=5400 => format!("{} min", secs.div_ceil(60)),
        5401..=129_600 => format!("{} h", secs.div_ceil(3600)),
        _ => format!("{} d", secs.div_ceil(86_400)),
    }
}

/// "1 game", "2 games": a count and its noun, singular or plural.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Why a person cannot be forgotten yet: what they still have under way, and what to do.
fn still_under_way(u: &UnderWay) -> String {
    let them = |n: u32| if n == 1 { "it" } else { "them" };
    let mut what = Vec::new();
    if u.games > 0 {
        what.push(format!(
            "{} under way (finish or resign {} with /tablut resign)",
            counted(u.games as usize, "game", "games"),
            them(u.games)
        ));
    }
    if u.challenges > 0 {
        what.push(format!(
            "{} (cancel, decline or accept {})",
            counted(u.challenges as usize, "open challenge", "open challenges"),
            them(u.challenges)
        ));
    }
    if u.analyses > 0 {
        what.push(format!(
            "{} of your games still running",
            counted(u.analyses as usize, "analysis", "analyses")
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

/// When the first open challenge expires: "when the first expires in 3 h".
fn expiring(secs: u64) -> String {
    format!("when the first expires in {}", wait_words(secs))
}

impl ServiceError {
    /// Whether this is a failure of the service (to be logged) rather than a refusal.
    pub fn is_internal(&self) -> bool {
        matches!(
            self,
            ServiceError::Database(_) | ServiceError::Internal(_) | ServiceError::Recorded { .. }
        )
    }

    /// For a step after a commit (drawing the board, reading back what was written): its
    /// failure is [`ServiceError::Recorded`], which says the change stands, not that nothing
    /// was changed.
    pub(crate) fn after(done: Done) -> impl FnOnce(ServiceError) -> ServiceError {
        move |cause| ServiceError::Recorded {
            done,
            cause: Box::new(cause),
        }
    }
}

/// What a command had changed, for good, when a step after the change failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    Move,
    GameEnd,
    GameStart,
    Challenge,
    ChallengeAnswer,
    PuzzleStart,
    PuzzleAnswer,
}

impl Done {
    /// The one line the user reads: what stands, and where it shows.
    pub fn words(self) -> &'static str {
        match self {
            Done::Move => "Your move was recorded, but the bot could not show it: the board follows in this channel (or see it with /tablut board). Do not send the move again.",
            Done::GameEnd => "The game's end was recorded, but the bot could not show it: the result follows in this channel (or see it with /tablut board).",
            Done::GameStart => "The game has started, but the bot could not show it: the board follows in this channel (or see it with /tablut board).",
            Done::Challenge => "Your challenge was made, but the bot could not show it: it follows in this channel. Do not challenge again.",
            Done::ChallengeAnswer => "Your answer to the challenge was recorded, but the bot could not show it: the news follows in this channel.",
            Done::PuzzleStart => "Your puzzle is chosen, but the bot could not show it: see it with /tablut puzzle play.",
            Done::PuzzleAnswer => "Your answer was recorded, but the bot could not show it: see where your puzzle stands with /tablut puzzle play.",
        }
    }
}

impl ServiceError {
    /// A store error, with a violation of `table`'s uniqueness constraint read as `taken`: the
    /// schema, not a read before the write, decides what is already there.
    pub(crate) fn unless_taken(
        table: &'static str,
        taken: ServiceError,
    ) -> impl FnOnce(crate::store::StoreError) -> ServiceError {
        move |e| {
            if e.is_unique_violation(table) {
                taken
            } else {
                e.into()
            }
        }
    }
}

impl From<super::types::NotATimeControl> for ServiceError {
    fn from(e: super::types::NotATimeControl) -> ServiceError {
        ServiceError::BadTimeControl(e.0)
    }
}

impl From<tokio::task::JoinError> for ServiceError {
    fn from(e: tokio::task::JoinError) -> ServiceError {
        ServiceError::Internal(format!("a background task failed: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::{Done, ServiceError};

    /// After a commit, the answer says what stands and where it shows, never that nothing was
    /// changed; the cause is kept for the log.
    #[test]
    fn a_failure_after_a_commit_says_what_stands() {
        for done in [
            Done::Move,
            Done::GameEnd,
            Done::GameStart,
            Done::Challenge,
            Done::ChallengeAnswer,
            Done::PuzzleStart,
            Done::PuzzleAnswer,
        ] {
            let e = ServiceError::after(done)(ServiceError::Internal("render failed".into()));
            let text = e.to_string();
            assert!(
                !text.contains('\n') && !text.contains("nothing was changed"),
                "{text}"
            );
            assert!(
                ["recorded", "started", "made", "chosen"]
                    .iter()
                    .any(|w| text.contains(w)),
                "{text}"
            );
            assert!(e.is_internal());
            assert!(format!("{e:?}").contains("render failed"));
        }
    }

    /// Counts in refusals agree with their nouns: "1 open challenge", "2 open challenges".
    #[test]
    fn counts_in_refusals_agree_with_their_nouns() {
        let one = ServiceError::TooManyOpenChallenges {
            open: 1,
            first_expires_in: 60,
        };
        assert!(one
            .to_string()
            .starts_with("You already have 1 open challenge: "));
        let two = ServiceError::TooManyOpenChallenges {
            open: 2,
            first_expires_in: 60,
        };
        assert!(two
            .to_string()
            .starts_with("You already have 2 open challenges: "));
        let sent = ServiceError::ChallengedTooOften {
            received: 1,
            window: 3600,
            wait: 60,
        };
        assert_eq!(
            sent.to_string(),
            "That player was sent 1 challenge in the last 60 min: try again in 60 s."
        );
        assert_eq!(
            ServiceError::TooManyAiGames(1).to_string(),
            "You already have 1 game against the AI running in this server: finish or resign one first."
        );
        assert_eq!(
            ServiceError::AiBusy(3).to_string(),
            "The AI is busy with 3 moves and hints already waiting: try again in a minute."
        );
    }
}

/// What a person still has under way, which must end before they can be forgotten.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnderWay {
    /// Games they play that are not over.
    pub games: u32,
    /// Open challenges they made or were sent.
    pub challenges: u32,
    /// Analyses still running of their games.
    pub analyses: u32,
    /// News naming them that the bot is still delivering.
    pub notices: u32,
}

impl UnderWay {
    pub(crate) fn any(self) -> bool {
        self != UnderWay::default()
    }
}
