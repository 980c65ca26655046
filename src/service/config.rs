//! What the service can be tuned with ([`Config`]), and the defaults.

use super::heavy;
use crate::ai::Level;
use std::time::Duration;

/// What the service can be tuned with.
#[derive(Debug, Clone)]
pub struct Config {
    /// The time the AI may think for a move, by level (`easy`, `medium`, `hard`).
    pub ai_time: [Duration; 3],
    /// The time the AI thinks for a hint.
    pub hint_time: Duration,
    /// How long a user waits between hints: kept by each process, on its own clock (it spares
    /// this process's AI pool).
    pub hint_cooldown: Duration,
    /// How long a challenge stays open (on the database's clock).
    pub challenge_ttl: Duration,
    /// Whether to draw board images (turned off to measure the service without them).
    pub images: bool,
    /// The AI pool: its workers (searches at once) and each one's table size in MB.
    pub ai_workers: usize,
    pub ai_tt_mb: usize,
    /// The workers' scheduling priority: by default the lowest, so that the AI never slows a
    /// person's command ([`Priority`](crate::ai::pool::Priority)).
    pub ai_priority: crate::ai::pool::Priority,
    /// The AI's moves and hints that may wait for a worker (at least 1: with 0, every request
    /// for the AI is refused as busy); beyond, the AI is busy.
    pub ai_queue_limit: usize,
    /// Active games against the AI a user may have in one server (0: no limit).
    pub ai_games_per_user: u32,
    /// How long a user waits between starting games against the AI: counted by the database,
    /// on its clock, so it holds across processes.
    pub ai_game_cooldown: Duration,
    /// Open challenges a user may have at once (0: no limit).
    pub open_challenges_per_user: u32,
    /// Challenges a user may be sent in any `challenges_received_window` (0: no limit).
    pub challenges_received: u32,
    pub challenges_received_window: Duration,
    /// How long a hint may wait for a worker before the answer is an apology.
    pub hint_wait: Duration,
    /// The post-game analysis: the time each position is searched for...
    pub analysis_time: Duration,
    /// ...or, if set, the depth instead (deterministic: for tests).
    pub analysis_depth: Option<u32>,
    /// How long past the search's own time a process's claim on an AI turn lasts (default
    /// [`AI_CLAIM_MARGIN`]).
    pub ai_claim_margin: Duration,
    /// Commands (and button presses) one user may use per minute, in a burst or spread out
    /// (0: no limit).
    pub commands_per_minute: u32,
    /// How long a user waits between two costly commands (replays, analyses).
    pub costly_cooldown: Duration,
    /// The workers heavy work (board images, replays, analyses' play-throughs and graphs, the
    /// analysis autocomplete's list) runs on at once, costly work on all but one of them
    /// ([`heavy`]).
    pub heavy_workers: usize,
    /// Costly jobs that may wait or run at once; a user's request beyond is refused
    /// ([`ServiceError::Busy`](super::ServiceError::Busy)).
    pub heavy_queue_limit: usize,
    /// The plies (moves by either side) a game may last: the move that reaches this many ends
    /// the game drawn ([`Reason::PlyLimit`](crate::tafl::Reason::PlyLimit)), unless it decided it. The bot's own rule, which
    /// bounds what a game costs to store, replay and analyse (docs/RULES.md).
    pub max_plies: u32,
    /// The days a member may be on vacation (their clocks stopped) within any 365 days,
    /// counted in the time actually taken ([`super::vacation`]).
    pub vacation_days_per_year: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ai_time: [
                Duration::from_millis(500),
                Duration::from_secs(1),
                crate::ai::DEFAULT_HARD_TIME,
            ],
            hint_time: Duration::from_secs(1),
            hint_cooldown: Duration::from_secs(30),
            challenge_ttl: Duration::from_secs(24 * 3600),
            images: true,
            ai_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ai_tt_mb: DEFAULT_AI_TT_MB,
            ai_priority: crate::ai::pool::Priority::Idle,
            ai_queue_limit: 200,
            ai_games_per_user: 3,
            ai_game_cooldown: Duration::from_secs(10),
            open_challenges_per_user: DEFAULT_OPEN_CHALLENGES_PER_USER,
            challenges_received: DEFAULT_CHALLENGES_RECEIVED,
            challenges_received_window: DEFAULT_CHALLENGES_RECEIVED_WINDOW,
            hint_wait: Duration::from_secs(10),
            analysis_time: Duration::from_millis(crate::ai::analysis::DEFAULT_MS_PER_PLY),
            analysis_depth: None,
            ai_claim_margin: AI_CLAIM_MARGIN,
            commands_per_minute: DEFAULT_COMMANDS_PER_MINUTE,
            costly_cooldown: DEFAULT_COSTLY_COOLDOWN,
            max_plies: DEFAULT_MAX_PLIES,
            vacation_days_per_year: 30,
            heavy_workers: heavy::default_workers(),
            heavy_queue_limit: heavy::DEFAULT_QUEUE_LIMIT,
        }
    }
}

/// The plies a game may last by default: far beyond any game people play to a result (a
/// long game of Tablut is a hundred or two), and a replay or an analysis of that many stays
/// cheap.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// Each AI worker's table, in MB: two workers' tables and the rest of the bot stay well
/// within 250 MB.
pub const DEFAULT_AI_TT_MB: usize = 32;

/// Commands a user may use per minute: a burst of 20, then one every 3 s; far more than a
/// person playing needs, and well under Discord's own limits for the bot's answers.
pub const DEFAULT_COMMANDS_PER_MINUTE: u32 = 20;

/// Open challenges one user may have at once: more than a player waits on, few enough that
/// nobody fills a server's channels with them.
pub const DEFAULT_OPEN_CHALLENGES_PER_USER: u32 = 5;

/// Challenges one user may be sent per window, from everyone together, not counting those they
/// accepted: a person is not pinged by challenge after challenge they did not want.
pub const DEFAULT_CHALLENGES_RECEIVED: u32 = 10;
pub const DEFAULT_CHALLENGES_RECEIVED_WINDOW: Duration = Duration::from_secs(3600);

/// The wait between two costly commands of one user.
pub const DEFAULT_COSTLY_COOLDOWN: Duration = Duration::from_secs(30);

impl Config {
    pub fn ai_time(&self, level: Level) -> Duration {
        self.ai_time[level as usize]
    }
}

/// How long past the search's own time a process's claim on an AI turn lasts (by default) from
/// its last renewal: the claim is renewed while the turn waits for a worker and while it is
/// searched, so a process that dies leaves the turn to the others this long after its time
/// would have been up.
pub const AI_CLAIM_MARGIN: Duration = Duration::from_secs(3);

/// How the outbox times the rows it keeps (the bot's delivery policy sets them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutboxTimes {
    /// How long the news of a change made by an interaction is left to the interaction's
    /// handler, whose edit shows it, before the dispatcher sends the same edit (it does at once
    /// when the handler's edit fails). Only a crash leaves a notice this long: whichever edit
    /// arrives, the news shows once.
    pub answer_grace: Duration,
    /// Delivered notices, and notices given up, are deleted this long after.
    pub retention: Duration,
    /// How long a dispatcher's claim on a notice keeps every other process from it: the
    /// attempt renews it every third of this while it goes on, so only a process that cannot
    /// reach the database (or died) loses it; then another may post the notice too, with the
    /// same nonce, and what the late attempt records is nothing ([`Notice::claim`](super::notice::Notice::claim)).
    pub claim_lease: Duration,
}

impl Default for OutboxTimes {
    fn default() -> OutboxTimes {
        OutboxTimes {
            answer_grace: Duration::from_secs(21),
            retention: Duration::from_secs(72 * 3600),
            claim_lease: Duration::from_secs(41),
        }
    }
}
