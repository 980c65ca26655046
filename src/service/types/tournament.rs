//! A tournament's types: what its use cases return, what its notices tell and why it refuses,
//! so that the news and the errors name them without importing the tournaments' part.

use super::{ChannelId, GameInfo, GuildId, TimeControl, User, UserId};
use crate::tafl::Rules;
use serde::{Deserialize, Serialize};

pub use super::{MatchTag, TournamentId};
pub use crate::tournament::{Meeting, Tiebreak};

/// How a tournament pairs its entrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// Every pair meets once (Berger tables).
    RoundRobin,
    /// `rounds` rounds, each paired within score groups, no rematch.
    Swiss { rounds: u32 },
}

impl TournamentFormat {
    /// The most seats it takes.
    pub fn max_seats(self) -> u32 {
        match self {
            TournamentFormat::RoundRobin => MAX_ROUND_ROBIN_SEATS,
            TournamentFormat::Swiss { .. } => MAX_SWISS_SEATS,
        }
    }

    pub fn pairing(self) -> crate::tournament::Format {
        match self {
            TournamentFormat::RoundRobin => crate::tournament::Format::RoundRobin,
            TournamentFormat::Swiss { rounds } => crate::tournament::Format::Swiss { rounds },
        }
    }
}

/// The seats of a round robin: 2 to 32.
pub const MAX_ROUND_ROBIN_SEATS: u32 = 32;
/// The seats of a Swiss event: 2 to 256.
pub const MAX_SWISS_SEATS: u32 = 256;
/// The rounds of a Swiss event: 1 to 20 (and fewer than its seats).
pub const MAX_SWISS_ROUNDS: u32 = 20;
/// The longest name of a tournament (a thread's name, at most 100 characters, holds it with
/// the round, the players and the game).
pub const MAX_NAME: usize = 40;

/// Where a tournament is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    SignUp,
    Running,
    Paused,
    Finished,
    Cancelled,
}

/// Why a tournament's command was refused: its data (the bot words it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TournamentRefusal {
    /// Only a member with Manage Server or the organisers' role may do that.
    NotOrganiser,
    /// Only a member with Manage Server may name the organisers' role.
    NotManager,
    /// The name is empty or longer than [`MAX_NAME`] characters.
    NameLength { chars: usize },
    /// The name holds this character, which is not a letter, digit, space or plain punctuation
    /// (no mentions, no markdown).
    NameCharacter(char),
    /// Seats out of the format's range.
    Seats { asked: i64, max: u32 },
    /// Swiss rounds out of range (1 to the smaller of 20 and the seats less one).
    Rounds { asked: i64, max: u32 },
    /// No tournament by that id in this server (or none open, when none was named).
    NoTournament,
    /// Joining or leaving past the sign-up.
    SignUpOver,
    /// Every seat is taken.
    Full { seats: u32 },
    /// Already an entrant.
    AlreadyIn,
    /// Not an entrant (or withdrawn already).
    NotIn,
    /// Starting with fewer than two entrants.
    TooFew { entrants: u32 },
    /// The tournament is not in a state that allows it (its status).
    Status(TournamentStatus),
    /// The game is a tournament's: it cannot be aborted (resign it, or the organiser withdraws
    /// a player).
    TournamentGame,
}

/// Who asks: a member, and whether they may organise (Manage Server, and their roles).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub user: User,
    pub manage_server: bool,
    pub roles: Vec<u64>,
}

/// A tournament asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRequest {
    pub guild: GuildId,
    pub channel: ChannelId,
    pub organiser: Member,
    pub name: String,
    pub rules: Rules,
    pub format: TournamentFormat,
    pub time_control: TimeControl,
    pub rated: bool,
    pub seats: i64,
    /// How long the sign-up lasts from now, if it has an end; otherwise until the organiser
    /// starts it.
    pub signup_for: Option<std::time::Duration>,
}

/// An entrant as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub user: User,
    pub withdrawn: bool,
}

/// A tournament as it stands, as notices carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentInfo {
    pub id: TournamentId,
    pub name: String,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub organiser: UserId,
    pub rules: Rules,
    pub format: TournamentFormat,
    pub time_control: TimeControl,
    pub rated: bool,
    pub seats: u32,
    pub signup_until: Option<i64>,
    pub status: TournamentStatus,
    /// The last round paired (0 before the start), of `rounds` (a round robin's are known at
    /// its start).
    pub round: u32,
    pub rounds: u32,
    /// In the order they joined (by seat once started).
    pub entrants: Vec<Entrant>,
}

/// One of a match's two games: `first` has the attackers in game (`leg`) 1, `second` in 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGame {
    pub tournament: TournamentId,
    pub name: String,
    pub round: u32,
    pub first: User,
    pub second: User,
    pub leg: u8,
    /// The match game's id (its thread, once opened, starts the game).
    pub slot: i64,
}

impl MatchGame {
    /// The tag its game carries.
    pub fn tag(&self) -> MatchTag {
        MatchTag {
            tournament: self.tournament,
            name: self.name.clone(),
            round: self.round,
            leg: self.leg,
        }
    }
}

/// A pairing as shown: a match, or a bye (`second` none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingView {
    pub first: User,
    pub second: Option<User>,
    /// The match's game points in halves, once decided.
    pub result: Option<(u8, u8)>,
    /// Decided without a game (a withdrawal).
    #[serde(default)]
    pub forfeit: bool,
}

/// A row of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    pub user: User,
    pub place: u32,
    pub shared: bool,
    pub match_points: u32,
    pub game_halves: u32,
    /// The format's tiebreaks in order, with their values (doubled where the tiebreak is:
    /// [`Tiebreak::doubled`]).
    pub tiebreaks: Vec<(Tiebreak, u32)>,
    /// What set this row apart from a neighbour with the same match points, if one had them.
    pub decided_by: Option<Tiebreak>,
    pub withdrawn: bool,
}

/// A round robin's crosstable: `[i][j]`, how the `i`th of the standings did against the `j`th
/// (none: not met yet, and the diagonal).
pub type Crosstable = Vec<Vec<Option<Meeting>>>;

/// Standings to draw: the tournament, its rows, its crosstable if it has one.
#[derive(Debug, Clone, Copy)]
pub struct Standings<'a> {
    pub tournament: &'a TournamentInfo,
    pub rows: &'a [StandingRow],
    pub crosstable: Option<&'a Crosstable>,
}

/// What a tournament's notice tells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentNews {
    /// The announcement with its entrants (posted with Join and Leave, then edited).
    Announced(TournamentInfo),
    /// A thread to open for a match game: the notice opens it (nothing is posted).
    Thread(MatchGame),
    /// A match game's first post, in its thread.
    GameOpened {
        game: MatchGame,
        info: Box<GameInfo>,
    },
    /// A round paired (its pairings), with the standings before it (drawn as an image).
    Round {
        tournament: TournamentInfo,
        round: u32,
        pairings: Vec<PairingView>,
        standings: Vec<StandingRow>,
        /// A round robin's crosstable (up to 16 players), in the standings' order.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        crosstable: Option<Crosstable>,
    },
    /// The tournament finished: the final standings (the winner first).
    Finished {
        tournament: TournamentInfo,
        standings: Vec<StandingRow>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        crosstable: Option<Crosstable>,
    },
    /// Paused, resumed or cancelled by its organiser (as its status says).
    Status(TournamentInfo),
    /// Its sign-up ended with fewer than two entrants (`entrants`): cancelled by the clock.
    NotStarted {
        tournament: TournamentInfo,
        entrants: u32,
    },
    /// A player withdrew (or was removed by the organiser: `removed`).
    Withdrawn {
        tournament: TournamentInfo,
        user: User,
        removed: bool,
    },
}

impl TournamentNews {
    /// The standings the notice's image shows, if it has one.
    pub fn standings(&self) -> Option<Standings<'_>> {
        match self {
            TournamentNews::Round {
                tournament,
                standings,
                crosstable,
                ..
            }
            | TournamentNews::Finished {
                tournament,
                standings,
                crosstable,
            } => Some(Standings {
                tournament,
                rows: standings,
                crosstable: crosstable.as_ref(),
            }),
            _ => None,
        }
    }
}
