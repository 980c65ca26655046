//! The service's plain types: players, choices, and what each use case hands back (a puzzle's
//! in `puzzle.rs`, an analysis's summary in `analysis.rs`, a person forgotten in `privacy.rs`, a
//! vacation's in `vacation.rs`, a turn notification's in `notify.rs`):
//! what the parts return and what a notice tells, so that every part, and the news, can name
//! them without importing another part.

mod analysis;
mod caption;
pub mod notify;
mod privacy;
mod puzzle;
pub mod tournament;
pub mod vacation;

pub use analysis::{AnalysisSummary, CostlyMove, SideSummary, WORST_PER_SIDE};
pub(crate) use caption::worded;
pub use caption::{graph_labels, Caption, Captions, GraphLabel, Heading};
pub use privacy::Forgotten;
pub use puzzle::{DayResult, PuzzlePlayer, PuzzleRatings, PuzzleVerdict, PuzzleView, VerdictKey};

use crate::ai::Level;
use crate::rating::Rating;
use crate::store;
use crate::tafl::{Call, Outcome, Position, RecordedMove, Rules, Side, Square, Variant};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Discord ids, as plain integers.
pub type UserId = u64;
pub type ChannelId = u64;
pub type GuildId = u64;
/// Our own ids.
pub type GameId = i64;
pub type ChallengeId = i64;
/// An outbox row's id.
pub type NoticeId = i64;
/// A tournament's id.
pub type TournamentId = i64;

/// Where a command was used: the server (none in a DM) and the channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Place {
    pub guild: Option<GuildId>,
    pub channel: ChannelId,
}

/// A person, by id, with the name to show.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct User {
    pub id: UserId,
    pub name: String,
}

impl User {
    pub fn new(id: UserId, name: impl Into<String>) -> User {
        User {
            id,
            name: name.into(),
        }
    }
}

/// Who plays a side: a person or the AI.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Player {
    User(User),
    Ai(Level),
}

impl Player {
    pub fn user_id(&self) -> Option<UserId> {
        match self {
            Player::User(u) => Some(u.id),
            Player::Ai(_) => None,
        }
    }

    pub fn is_ai(&self) -> bool {
        matches!(self, Player::Ai(_))
    }
}

/// The side a challenger wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SideChoice {
    Attackers,
    Defenders,
    Random,
}

impl SideChoice {
    pub const fn name(self) -> &'static str {
        match self {
            SideChoice::Attackers => "attackers",
            SideChoice::Defenders => "defenders",
            SideChoice::Random => "random",
        }
    }

    /// The side this choice gives, drawing one at random for `Random`.
    pub fn resolve(self) -> Side {
        match self {
            SideChoice::Attackers => Side::Attackers,
            SideChoice::Defenders => Side::Defenders,
            SideChoice::Random => {
                if fastrand::bool() {
                    Side::Attackers
                } else {
                    Side::Defenders
                }
            }
        }
    }
}

impl FromStr for SideChoice {
    type Err = String;
    /// A side choice as stored (or a short form); what is not one is said plainly, for a log.
    fn from_str(s: &str) -> Result<SideChoice, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" => Ok(SideChoice::Attackers),
            "defenders" | "defender" | "d" => Ok(SideChoice::Defenders),
            "random" | "r" => Ok(SideChoice::Random),
            _ => Err(format!("not a side choice: {s:?}")),
        }
    }
}

/// A game's time control: none, a time for each move, or a bank and an increment (Fischer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TimeControl {
    None,
    PerMove(Duration),
    /// Each side starts with `bank`; a move adds `increment` to the mover's bank, which never
    /// holds more than `bank`; the player to move loses on time when their bank is empty.
    Fischer {
        bank: Duration,
        increment: Duration,
    },
}

/// The shortest and the longest time per move or bank.
const TIME_BOUNDS: std::ops::RangeInclusive<u64> = 60..=30 * 86_400;

impl TimeControl {
    /// The default for correspondence games: three days a move.
    pub const DEFAULT: TimeControl = TimeControl::PerMove(Duration::from_secs(3 * 24 * 3600));

    /// The time per move, in a game with a time per move.
    pub fn per_move(self) -> Option<Duration> {
        match self {
            TimeControl::PerMove(d) => Some(d),
            _ => None,
        }
    }

    /// The time a side starts with: the time per move, or the bank.
    pub fn bank(self) -> Option<Duration> {
        match self {
            TimeControl::None => None,
            TimeControl::PerMove(d) | TimeControl::Fischer { bank: d, .. } => Some(d),
        }
    }

    /// The increment of a Fischer clock.
    pub fn increment(self) -> Option<Duration> {
        match self {
            TimeControl::Fischer { increment, .. } => Some(increment),
            _ => None,
        }
    }

    /// The `time_per_move_ms` column: the time per move, or the bank.
    pub(crate) fn as_ms(self) -> Option<i64> {
        self.bank().map(|d| d.as_millis() as i64)
    }

    /// The `increment_ms` column: a Fischer clock's increment.
    pub(crate) fn increment_ms(self) -> Option<i64> {
        self.increment().map(|d| d.as_millis() as i64)
    }
}

/// A duration in its largest whole unit: `3d`, `12h`, `90m`, `45s`.
fn write_span(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let s = d.as_secs();
    if s > 0 && s.is_multiple_of(86_400) {
        write!(f, "{}d", s / 86_400)
    } else if s > 0 && s.is_multiple_of(3600) {
        write!(f, "{}h", s / 3600)
    } else if s > 0 && s.is_multiple_of(60) {
        write!(f, "{}m", s / 60)
    } else {
        write!(f, "{s}s")
    }
}

impl fmt::Display for TimeControl {
    /// `none`, the time per move in its largest whole unit (`3d`, `12h`, `90m`, `45s`), or the
    /// bank and the increment (`3d+6h`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::None => f.write_str("none"),
            TimeControl::PerMove(d) => write_span(f, d),
            TimeControl::Fischer { bank, increment } => {
                write_span(f, bank)?;
                f.write_str("+")?;
                write_span(f, increment)
            }
        }
    }
}

/// A span written as numbers and units (`3d`, `1d12h`, `30s`), in seconds.
fn read_span(t: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut number = String::new();
    for c in t.chars().filter(|c| !c.is_whitespace()) {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'd' => 86_400,
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
        let n: u64 = number.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        number.clear();
    }
    number.is_empty().then_some(total)
}

/// Text that is not a time control (as typed, trimmed): the service refuses it as
/// `ServiceError::BadTimeControl`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotATimeControl(pub String);

impl FromStr for TimeControl {
    type Err = NotATimeControl;

    /// `none`; a time per move, a number and a unit: `3d`, `12h`, `30m`, `1d12h` (days, hours,
    /// minutes, seconds), from one minute to thirty days; or a bank and an increment, `3d+6h`,
    /// `10m+30s`: the bank from one minute to thirty days, the increment from none (`0s`) to
    /// the bank.
    fn from_str(s: &str) -> Result<TimeControl, NotATimeControl> {
        let bad = || NotATimeControl(s.trim().to_string());
        let t = s.trim().to_ascii_lowercase();
        if matches!(t.as_str(), "none" | "off" | "no" | "0") {
            return Ok(TimeControl::None);
        }
        let (bank, increment) = match t.split_once('+') {
            Some((bank, increment)) => (bank, Some(increment)),
            None => (t.as_str(), None),
        };
        let bank = read_span(bank)
            .filter(|b| TIME_BOUNDS.contains(b))
            .ok_or_else(bad)?;
        let Some(increment) = increment else {
            return Ok(TimeControl::PerMove(Duration::from_secs(bank)));
        };
        let increment = read_span(increment)
            .filter(|i| *i <= bank && !increment.trim().is_empty())
            .ok_or_else(bad)?;
        Ok(TimeControl::Fischer {
            bank: Duration::from_secs(bank),
            increment: Duration::from_secs(increment),
        })
    }
}

/// Each side's time left on a Fischer clock (ms): as of the turn's start for the side to move
/// (its whole bank), or as a look at the game found it ([`GameInfo::clocks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Clocks {
    pub attackers_ms: i64,
    pub defenders_ms: i64,
}

impl Clocks {
    /// Both sides with `ms`.
    pub fn both(ms: i64) -> Clocks {
        Clocks {
            attackers_ms: ms,
            defenders_ms: ms,
        }
    }

    pub fn of(&self, side: Side) -> i64 {
        match side {
            Side::Attackers => self.attackers_ms,
            Side::Defenders => self.defenders_ms,
        }
    }

    pub fn set(&mut self, side: Side, ms: i64) {
        match side {
            Side::Attackers => self.attackers_ms = ms,
            Side::Defenders => self.defenders_ms = ms,
        }
    }
}

/// A game as the service shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameInfo {
    pub id: GameId,
    pub place: Place,
    pub attackers: Player,
    pub defenders: Player,
    pub rules: Rules,
    /// The position the game started from (the standard start, or one given).
    pub start: Position,
    /// Whether the game changes ratings: a game between two people in a server, unless
    /// challenged as casual.
    pub rated: bool,
    /// Plies played so far.
    pub ply: u32,
    /// The side to move (also after the end: the side that would move).
    pub turn: Side,
    pub outcome: Outcome,
    pub time_control: TimeControl,
    /// When the player to move runs out of time (Unix ms), if the clock runs.
    pub turn_deadline: Option<i64>,
    /// A Fischer clock's time left for each side: the side to move's whole bank as its turn
    /// started (told in news), or what is left now (a look at the game, [`super::Games::board`]).
    #[serde(default)]
    pub clocks: Option<Clocks>,
    pub board_message_id: Option<u64>,
    /// The tournament, round and match game it is, if it is a tournament's (every post of the
    /// game names them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<MatchTag>,
}

/// The tournament game a game is: its tournament's id and name, the round, and which of the
/// match's two games (`leg`, 1 or 2).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchTag {
    pub tournament: TournamentId,
    pub name: String,
    pub round: u32,
    pub leg: u8,
}

impl GameInfo {
    pub fn player(&self, side: Side) -> &Player {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }

    /// The side a user plays, if they play.
    pub fn side_of(&self, user: UserId) -> Option<Side> {
        if self.attackers.user_id() == Some(user) {
            Some(Side::Attackers)
        } else if self.defenders.user_id() == Some(user) {
            Some(Side::Defenders)
        } else {
            None
        }
    }

    /// The player to move, while the game goes on.
    pub fn to_move(&self) -> Option<&Player> {
        (!self.outcome.is_over()).then(|| self.player(self.turn))
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_over()
    }

    /// A game between two people that changes no ratings (challenged as casual): what its
    /// players are told, since hints are allowed in it and not in a rated one.
    pub fn is_casual(&self) -> bool {
        !self.rated && !self.attackers.is_ai() && !self.defenders.is_ai()
    }

    /// The game of the tafl family this is.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The move number of the next move (attackers and defenders make one move together).
    pub fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }
}

/// A move that was played.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveReport {
    /// The game after the move.
    pub game: GameInfo,
    pub recorded: RecordedMove,
    /// The move as the record writes it: `d1-d4xd5+`.
    pub notation: String,
    /// Who played it.
    pub by: Player,
    pub captured: Vec<Square>,
    /// Linnaeus' call, when the defenders' move gave the king free lines (Tablut's games only).
    pub call: Option<Call>,
    /// Rating changes, when the move ended a rated game.
    pub ratings: Option<RatingChanges>,
    /// The board after the move, for a player's answer (empty for the AI's moves, which the
    /// outbox announces, and when images are turned off). Never stored with a notice.
    #[serde(skip)]
    pub png: Vec<u8>,
    /// The move's announcement in the outbox: mark it answered once the player's interaction
    /// has shown the move, or the dispatcher posts it after the grace.
    #[serde(skip)]
    pub notice: NoticeId,
}

/// A game that started, from a challenge or against the AI.
#[derive(Debug, Clone, PartialEq)]
pub struct Started {
    pub game: GameInfo,
    pub png: Vec<u8>,
    /// The news of the start in the outbox, when a button's answer is to show it: mark it
    /// answered once shown, or the dispatcher delivers it after the grace.
    pub notice: Option<NoticeId>,
}

/// A game that ended off the board (resignation, agreed draw, abort, time).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ended {
    pub game: GameInfo,
    pub ratings: Option<RatingChanges>,
    /// The board, for the answer of the player's command (empty otherwise). Never stored with
    /// a notice.
    #[serde(skip)]
    pub png: Vec<u8>,
    /// The ending's notice in the outbox, when a command's answer is to show it: mark it
    /// answered once shown, or the dispatcher posts it after the grace.
    #[serde(skip)]
    pub notice: Option<NoticeId>,
}

/// Both players' ratings before and after a rated game.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RatingChanges {
    pub attackers: (UserId, Rating, Rating),
    pub defenders: (UserId, Rating, Rating),
}

/// A challenge between two people.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChallengeInfo {
    pub id: ChallengeId,
    pub place: Place,
    pub challenger: User,
    pub challenged: User,
    pub side: SideChoice,
    pub rules: Rules,
    pub time_control: TimeControl,
    pub thread: bool,
    /// A rated game (the default), or a casual one: no rating changes, hints allowed.
    pub rated: bool,
    pub status: ChallengeStatus,
    pub expires_at: i64,
    pub message_id: Option<u64>,
}

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Open: waiting for the challenged player's answer.
    Pending,
    Accepted,
    Declined,
    /// Withdrawn by the challenger (or by the bot, when its channel is gone).
    Cancelled,
    Expired,
}

impl ChallengeStatus {
    /// The word a message uses ("already accepted").
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Pending => "pending",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    /// The status as the store reads it.
    pub(crate) fn from_store(s: store::ChallengeStatus) -> ChallengeStatus {
        match s {
            store::ChallengeStatus::Pending => ChallengeStatus::Pending,
            store::ChallengeStatus::Accepted => ChallengeStatus::Accepted,
            store::ChallengeStatus::Declined => ChallengeStatus::Declined,
            store::ChallengeStatus::Cancelled => ChallengeStatus::Cancelled,
            store::ChallengeStatus::Expired => ChallengeStatus::Expired,
        }
    }

    /// The status as the store writes it.
    pub(crate) fn to_store(self) -> store::ChallengeStatus {
        match self {
            ChallengeStatus::Pending => store::ChallengeStatus::Pending,
            ChallengeStatus::Accepted => store::ChallengeStatus::Accepted,
            ChallengeStatus::Declined => store::ChallengeStatus::Declined,
            ChallengeStatus::Cancelled => store::ChallengeStatus::Cancelled,
            ChallengeStatus::Expired => store::ChallengeStatus::Expired,
        }
    }
}

impl fmt::Display for ChallengeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a challenge asks for.
#[derive(Debug, Clone)]
pub struct ChallengeRequest {
    pub place: Place,
    pub challenger: User,
    pub opponent: User,
    /// Whether the opponent is a bot account (bots cannot play).
    pub opponent_is_bot: bool,
    pub side: SideChoice,
    pub rules: Rules,
    pub time_control: TimeControl,
    /// Play in a new thread of the channel.
    pub thread: bool,
    /// A rated game, or a casual one (no rating changes; hints allowed, as against the AI).
    pub rated: bool,
    /// Start from this position (its side to move first) instead of the standard start.
    pub start: Option<Position>,
}

/// A game against the AI.
#[derive(Debug, Clone)]
pub struct AiGameRequest {
    pub place: Place,
    pub user: User,
    pub side: SideChoice,
    pub level: Level,
    pub rules: Rules,
    pub time_control: TimeControl,
    /// Start from this position (its side to move first) instead of the standard start.
    pub start: Option<Position>,
}

/// The board of a channel's game.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardView {
    pub game: GameInfo,
    pub last: Option<RecordedMove>,
    pub png: Vec<u8>,
}

/// A game's record.
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    pub game: GameInfo,
    /// `1. e2-c2 e4-d4  2. …`
    pub record: String,
    /// The moves as recorded, in order.
    pub moves: Vec<String>,
    /// The current position as an OpenTafl position record.
    pub position_record: String,
}

/// The AI's suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub best: String,
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<String>,
}

/// A draw offer's fate.
#[derive(Debug, Clone, PartialEq)]
pub enum DrawDecision {
    Accepted(Ended),
    /// Declined; the notice held for the press's answer, if one is.
    Declined(GameInfo, Option<NoticeId>),
}

/// A player's record in a server.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub user: UserId,
    pub games: u32,
    pub wins_as_attackers: u32,
    pub losses_as_attackers: u32,
    pub wins_as_defenders: u32,
    pub losses_as_defenders: u32,
    pub draws: u32,
    /// The player's rating in each variant they have played a rated game of, Tablut first.
    pub ratings: Vec<VariantRating>,
    /// The most recent finished games, newest first.
    pub recent: Vec<RecentGame>,
}

impl Stats {
    /// The rating in `variant`, if the player has played a rated game of it.
    pub fn rating(&self, variant: Variant) -> Option<&VariantRating> {
        self.ratings.iter().find(|r| r.variant == variant)
    }
}

/// A player's rating in one variant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VariantRating {
    pub variant: Variant,
    pub rating: Rating,
    pub rated_games: u32,
}

/// One finished game, from a player's side.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentGame {
    pub game: GameId,
    pub variant: Variant,
    pub side: Side,
    pub opponent: Player,
    /// `win`, `loss` or `draw`.
    pub result: &'static str,
    pub reason: String,
    pub ended_at: i64,
}

/// A leaderboard line.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub rank: u32,
    pub user: UserId,
    pub name: String,
    pub rating: Rating,
    pub rated_games: u32,
}

/// A page of a server's leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    pub variant: Variant,
    /// Zero-based.
    pub page: u32,
    pub pages: u32,
    pub players: u32,
    pub lines: Vec<Ranked>,
}

/// What the clock did: reminders to send, games lost on time, challenges expired.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ClockEvent {
    /// Remind `user` to move: `number` is 1 (half the time gone) or 2 (near the end).
    Reminder {
        game: GameInfo,
        user: UserId,
        number: u32,
        remaining: Duration,
    },
    /// The player to move ran out of time and lost.
    TimedOut(Ended),
    /// A challenge expired unanswered.
    ChallengeExpired(ChallengeInfo),
}
