//! Every refusal the service gives, and its failures: data, which the bot words for players
//! (`bot::messages::refusal`). The `Display` here is for logs and developers: plain, without a
//! player's words or a command's name.

use super::types::tournament::TournamentRefusal;
use crate::tafl::{MoveError, RecordReadError, Side};

/// Why the service refused, or failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("no game in the channel")]
    NoGame,
    #[error("a game is already running in the channel")]
    GameRunning,
    #[error("not a player of the game")]
    NotAPlayer,
    #[error("not the player's turn: the {0} are to move")]
    NotYourTurn(Side),
    #[error("illegal move: {0}")]
    IllegalMove(MoveError),
    #[error("the position changed during the move")]
    PositionChanged,
    #[error("the game is over")]
    GameOver,
    #[error("a challenge to oneself")]
    SelfChallenge,
    #[error("a challenge to a bot")]
    OpponentIsBot,
    #[error("the challenger has an open challenge in the channel")]
    ChallengeOpen,
    #[error("no such challenge")]
    NoChallenge,
    #[error("the challenge expired")]
    ChallengeExpired,
    #[error("the challenge is not the user's to answer")]
    ChallengeNotYours,
    #[error("the challenge is not the user's to cancel")]
    NotYourChallenge,
    #[error("the challenge is already {0}")]
    ChallengeClosed(super::types::ChallengeStatus),
    #[error("no draw offer to answer")]
    NoDrawOffer,
    #[error("a draw offer is already open")]
    DrawOfferOpen,
    #[error("the user made the draw offer")]
    OwnDrawOffer,
    #[error("the AI declines draws")]
    AiDeclinesDraw,
    #[error("past the moves a game may be aborted in")]
    TooLateToAbort,
    #[error("a hint in a rated game between people")]
    HintInRatedGame,
    #[error("a hint too soon: {0} s to wait")]
    HintTooSoon(u64),
    #[error("commands too fast: {0} s to wait")]
    TooManyCommands(u64),
    #[error("a costly request too soon: {0} s to wait")]
    CostlyTooSoon(u64),
    #[error("{0} drawings already under way")]
    Busy(usize),
    #[error("{0} AI requests already waiting")]
    AiBusy(usize),
    #[error("{0} games against the AI already running")]
    TooManyAiGames(u32),
    #[error("{open} open challenges, the first expiring in {first_expires_in} s")]
    TooManyOpenChallenges { open: u32, first_expires_in: u64 },
    #[error("{received} challenges received in {window} s: {wait} s to wait")]
    ChallengedTooOften {
        received: u32,
        window: u64,
        wait: u64,
    },
    #[error("a game against the AI too soon: {0} s to wait")]
    AiGameTooSoon(u64),
    #[error("the hint's search timed out")]
    HintTimedOut,
    #[error("not a time control: {:?}", .0)]
    BadTimeControl(String),
    #[error("no puzzle to answer")]
    NoPuzzle,
    #[error("no puzzles")]
    NoPuzzles,
    #[error("no daily puzzle today")]
    NoDailyPuzzle,
    #[error("today's puzzle already tried (solved: {solved})")]
    DailyPuzzleDone { solved: bool },
    #[error("an earlier day's puzzle")]
    DailyPuzzleOver,
    #[error("not a member who manages the server")]
    NotAnAdmin,
    #[error("no finished game in the channel")]
    NoFinishedGame,
    #[error("game {0} is not a finished game of the channel")]
    NotAFinishedGame(i64),
    #[error("game {0} has no moves to review")]
    NothingToReview(i64),
    #[error("the button is another member's")]
    NotYourButton,
    #[error("still under way: {0:?}")]
    StillUnderWay(UnderWay),
    #[error("bad record: {0}")]
    BadRecord(RecordProblem),
    #[error("the record's game has not ended")]
    RecordUnfinished,
    #[error("the record's game is over")]
    RecordFinished,
    #[error("the record has no moves")]
    RecordEmpty,
    /// A vacation asked for while one is on (until then, Unix ms).
    #[error("already on vacation until {until}")]
    AlreadyOnVacation { until: i64 },
    /// A vacation ended while none is on.
    #[error("not on vacation")]
    NotOnVacation,
    /// A vacation of `asked` days, beyond the whole days `left` of the yearly `allowance` (or 0).
    #[error("a vacation of {asked} days, {left} of {allowance} left")]
    VacationDays {
        asked: u32,
        left: u32,
        allowance: u32,
    },
    #[error("{done:?} recorded, then: {cause}")]
    Recorded {
        done: Done,
        #[source]
        cause: Box<ServiceError>,
    },
    #[error("database: {0}")]
    Database(#[from] crate::store::StoreError),
    #[error("internal: {0}")]
    Internal(String),
    /// A tournament's command refused: its data, which the bot words.
    #[error("tournament refusal: {0:?}")]
    Tournament(TournamentRefusal),
}

/// Why a record cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordProblem {
    /// The text is longer than the longest record read.
    #[error("longer than {limit_kb} KB")]
    TooLong { limit_kb: usize },
    /// The file is larger than the longest record read.
    #[error("a file larger than {limit_kb} KB")]
    FileTooLarge { limit_kb: usize },
    /// The file is not text.
    #[error("a file that is not text")]
    NotText,
    /// The record cannot be read, at a line or ply.
    #[error("{0}")]
    Unreadable(RecordReadError),
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
    ChallengeDecided,
    PuzzleStart,
    PuzzleMove,
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
    /// Tournaments in sign-up, running or paused that they entered (withdrawn or not) or
    /// organise.
    pub tournaments: u32,
}

impl UnderWay {
    pub(crate) fn any(self) -> bool {
        self != UnderWay::default()
    }
}

impl From<TournamentRefusal> for ServiceError {
    fn from(r: TournamentRefusal) -> ServiceError {
        ServiceError::Tournament(r)
    }
}
