//! What a notice tells, typed: what happened, in the domain's terms. The service writes it in
//! the outbox with the change that caused it; the bot words it (and draws its board) when it
//! delivers it. Nothing here is Discord's: no markup, no mentions, no interaction.

use super::error::ServiceError;
use super::types::tournament::TournamentNews;
use super::types::{
    AnalysisSummary, ChallengeInfo, ChallengeStatus, ChannelId, ClockEvent, Ended, Forgotten,
    GameId, GameInfo, MoveReport, Player, PuzzleVerdict, PuzzleView, UserId,
};
use serde::{Deserialize, Serialize};

/// What a notice tells. Stored (as JSON) in the notice's payload; each value carries the game,
/// challenge or puzzle as it stood when the notice was written, so the words do not change
/// with what happened since.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum News {
    /// A move was played (the game after it, so its ply is the move's).
    Moved(MoveReport),
    /// A game ended by a player's command: resigned (`by`), agreed drawn or aborted.
    Ended { ended: Ended, by: Option<Player> },
    /// What the clock did: a reminder, a loss on time, a challenge expired.
    Clock(ClockEvent),
    /// A game started.
    Started(GameInfo),
    /// A game's channel (a challenge's thread) is gone, and the game was aborted: said in the
    /// channel the challenge was made in.
    ChannelGone(GameInfo),
    /// A challenge was made.
    Challenge(ChallengeInfo),
    /// A challenge accepted (its game in `thread`, when it has one), declined or withdrawn, as
    /// its status says.
    ChallengeClosed {
        challenge: ChallengeInfo,
        thread: Option<ChannelId>,
    },
    /// `by` offers a draw in `game`.
    DrawOffered { game: GameInfo, by: UserId },
    /// `by` declined the draw offered in `game`.
    DrawDeclined { game: GameInfo, by: UserId },
    /// A thread made for a challenge's game has no game: it could not start there (the
    /// challenge expired or was answered meanwhile), for this reason.
    NotStarted { why: NotStartedWhy },
    /// The day's puzzle.
    DailyPuzzle(PuzzleView),
    /// An AI move in `game` still waiting for a worker, with `ahead` requests served before it.
    AiWaiting { game: GameInfo, ahead: usize },
    /// A game's analysis under way: `reviewed` of `total` moves.
    AnalysisProgress {
        game: GameInfo,
        reviewed: u32,
        total: u32,
    },
    /// A finished analysis (posted with its graph).
    AnalysisSummary(AnalysisSummary),
    /// A player's move in their puzzle (or the daily puzzle), as it was judged. Stored as
    /// `puzzle_answer`, the name the notices in the outbox carry.
    #[serde(rename = "puzzle_answer")]
    PuzzleVerdict(PuzzleVerdict),
    /// A puzzle handed to a player, their try at it just started (their own, or the daily
    /// puzzle's).
    PuzzleShown(PuzzleView),
    /// A server's daily puzzle channel named (`channel`), or the daily puzzle stopped (none:
    /// `had` says whether there was one to stop).
    DailyPuzzleChannel {
        channel: Option<ChannelId>,
        had: bool,
    },
    /// A player went on vacation, or came back, told in one of their games' channels.
    Vacation(super::types::vacation::VacationNews),
    /// A direct message telling a member it is their move.
    TurnDm(super::types::notify::TurnDm),
    /// A member's daily digest of the games waiting on them (a direct message).
    Digest(super::types::notify::Digest),
    /// A member takes no direct messages from the bot: their notifications were turned off
    /// (told in a game's channel).
    DmsRefused(super::types::notify::DmsRefused),
    /// A person was forgotten at their request (shown to them alone): what was deleted and
    /// what now names the stand-in.
    Forgotten(Forgotten),
    /// A tournament's news (its announcement, a round, a match game's thread and first post,
    /// its end, an organiser's change, a withdrawal).
    Tournament(TournamentNews),
    /// A notice written before notices were typed: its words as they were then stored, and
    /// its row's kind (`move`, `reminder`, ...). Never written now: migration 0024 made old
    /// rows' words this.
    Worded { kind: String, text: String },
}

/// Why a thread made for a challenge's game has no game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum NotStartedWhy {
    /// The refusal the challenge's acceptance met.
    Refused(StartRefused),
    /// The refusal's words, as notices written before refusals were data hold them.
    Worded(String),
}

/// The refusals an acceptance can meet that leave a challenge's thread without a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartRefused {
    NoChallenge,
    ChallengeExpired,
    ChallengeNotYours,
    ChallengeClosed(ChallengeStatus),
    GameRunning,
    /// Any other refusal.
    Other,
}

impl StartRefused {
    /// The refusal `e` as a thread's notice keeps it.
    pub fn of(e: &ServiceError) -> StartRefused {
        match e {
            ServiceError::NoChallenge => StartRefused::NoChallenge,
            ServiceError::ChallengeExpired => StartRefused::ChallengeExpired,
            ServiceError::ChallengeNotYours => StartRefused::ChallengeNotYours,
            ServiceError::ChallengeClosed(status) => StartRefused::ChallengeClosed(*status),
            ServiceError::GameRunning => StartRefused::GameRunning,
            _ => StartRefused::Other,
        }
    }

    /// The refusal as the service gave it, when it is one of those named.
    pub fn error(self) -> Option<ServiceError> {
        match self {
            StartRefused::NoChallenge => Some(ServiceError::NoChallenge),
            StartRefused::ChallengeExpired => Some(ServiceError::ChallengeExpired),
            StartRefused::ChallengeNotYours => Some(ServiceError::ChallengeNotYours),
            StartRefused::ChallengeClosed(status) => Some(ServiceError::ChallengeClosed(status)),
            StartRefused::GameRunning => Some(ServiceError::GameRunning),
            StartRefused::Other => None,
        }
    }
}

impl News {
    /// The game this news is about, if one: a move, an end, a reminder or a loss on time, a
    /// start, a draw offered or declined, an AI move waited for, an analysis under way (its
    /// [`GameInfo::tournament`] names a tournament game's tournament and round).
    pub fn game(&self) -> Option<&GameInfo> {
        match self {
            News::Moved(report) => Some(&report.game),
            News::Ended { ended, .. } => Some(&ended.game),
            News::Clock(ClockEvent::Reminder { game, .. }) => Some(game),
            News::Clock(ClockEvent::TimedOut(ended)) => Some(&ended.game),
            News::Started(game) | News::ChannelGone(game) => Some(game),
            News::DrawOffered { game, .. } | News::DrawDeclined { game, .. } => Some(game),
            News::AiWaiting { game, .. } | News::AnalysisProgress { game, .. } => Some(game),
            News::Tournament(TournamentNews::GameOpened { info, .. }) => Some(&**info),
            _ => None,
        }
    }

    /// The game whose player to move gets the turn by this news (a move that leaves the game
    /// on, a game's start): their time starts when it is shown.
    pub fn turn_given(&self) -> Option<GameId> {
        match self {
            News::Moved(report) if !report.game.is_over() => Some(report.game.id),
            News::Started(game) => Some(game.id),
            News::Tournament(TournamentNews::GameOpened { info, .. }) => Some(info.id),
            _ => None,
        }
    }

    /// The person whose turn this news gives ([`News::turn_given`]), if a person's.
    pub fn turn_given_to(&self) -> Option<UserId> {
        let game = match self {
            News::Moved(report) => &report.game,
            News::Started(game) => game,
            _ => return None,
        };
        game.to_move().and_then(Player::user_id)
    }

    /// The member this news goes to as a direct message (its notice is queued under their
    /// id), if it is one: a turn's notification or a daily digest.
    pub fn direct_to(&self) -> Option<UserId> {
        match self {
            News::TurnDm(dm) => Some(dm.user),
            News::Digest(digest) => Some(digest.user),
            _ => None,
        }
    }

    /// Whether a player could lose on time if this news is never shown: a move (whose turn it
    /// is now), a reminder, a game's start. (For a notice from before notices were typed, its
    /// row's kind says.)
    pub fn on_the_clock(&self) -> bool {
        match self {
            News::Moved(report) => !report.game.is_over(),
            News::Clock(ClockEvent::Reminder { .. }) => true,
            News::Started(_) => true,
            News::Tournament(news) => matches!(news, TournamentNews::GameOpened { .. }),
            News::Worded { kind, .. } => {
                matches!(
                    kind.as_str(),
                    "move" | "reminder" | "game_started" | "started"
                )
            }
            News::Ended { .. }
            | News::Clock(_)
            | News::ChannelGone(_)
            | News::Challenge(_)
            | News::ChallengeClosed { .. }
            | News::DrawOffered { .. }
            | News::DrawDeclined { .. }
            | News::NotStarted { .. }
            | News::DailyPuzzle(_)
            | News::AiWaiting { .. }
            | News::AnalysisProgress { .. }
            | News::AnalysisSummary(_)
            | News::PuzzleVerdict(_)
            | News::PuzzleShown(_)
            | News::DailyPuzzleChannel { .. }
            | News::Vacation(_)
            | News::TurnDm(_)
            | News::Digest(_)
            | News::DmsRefused(_)
            | News::Forgotten(_) => false,
        }
    }
}
