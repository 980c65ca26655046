//! The Discord adapter: serenity with poise over the game service. Thin: each command reads
//! its options, calls the service, and turns the answer into a message. One [`Data`], one
//! [`Error`]; [`protocol`] says how an interaction that changes something is answered, and
//! turns every error into a one-line ephemeral answer (logging what went wrong inside).

pub mod background;
pub mod buttons;
pub mod caller;
pub mod commands;
pub mod components;
pub mod config;
pub mod delivery;
pub mod gone;
pub mod lifecycle;
pub mod messages;
pub mod protocol;
pub mod redact;
pub mod reply;
pub mod tasks;
pub mod visibility;

pub use config::{BotConfig, ConfigError};
pub use lifecycle::{run, start, Running};

use crate::service::{Service, ServiceError};
use poise::serenity_prelude as serenity;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use tokio_util::task::{task_tracker::TaskTrackerToken, TaskTracker};

/// What every command can reach.
pub struct Data {
    pub service: Arc<Service>,
    pub config: Arc<BotConfig>,
    /// Commands and button presses being handled now (shut-down waits for them).
    pub in_flight: TaskTracker,
    /// Challenges whose button press is being handled now (see `components`).
    pub challenges_in_hand:
        std::sync::Mutex<std::collections::HashSet<crate::service::ChallengeId>>,
    /// How many channel and thread deletions and server removals (CHANNEL_DELETE,
    /// THREAD_DELETE, GUILD_DELETE) have been handled, outages included (see `gone`).
    pub removals: Arc<AtomicUsize>,
    /// The bot's tasks beside the gateway: the AI's turns and the analyses run on them.
    pub tasks: tasks::Tasks,
    /// Edits an interaction's original response into its change's news, as the dispatcher
    /// does (see `delivery::show_notice`).
    pub poster: Arc<delivery::Poster>,
}

pub type Context<'a> = poise::Context<'a, Data, Error>;

/// One command or button press being handled, counted while it lives: however its handling
/// ends (an answer, a refusal, an option that did not parse), dropping it counts it out.
pub struct InFlight(#[allow(dead_code)] TaskTrackerToken);

impl InFlight {
    pub fn enter(in_flight: &TaskTracker) -> InFlight {
        InFlight(in_flight.token())
    }
}

/// Why a command did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A refusal or failure of the service: its message is the player's answer, worded by
    /// [`messages::refusal`].
    #[error("{}", messages::refusal(.0))]
    Service(#[from] ServiceError),
    /// Something the user must change, in one line.
    #[error("{0}")]
    User(String),
    /// Discord refused a request of ours: the player is told [`messages::DISCORD_REFUSED`].
    #[error("{}", messages::DISCORD_REFUSED)]
    Discord(Box<serenity::Error>),
}

impl From<serenity::Error> for Error {
    fn from(e: serenity::Error) -> Error {
        Error::Discord(Box::new(e))
    }
}

impl Error {
    pub fn is_internal(&self) -> bool {
        match self {
            Error::Service(e) => e.is_internal(),
            Error::User(_) => false,
            Error::Discord(_) => true,
        }
    }
}

/// Why the bot could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("{0}")]
    Database(#[from] crate::service::OpenError),
    #[error("Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the token again from the Bot page of the Discord developer portal")]
    Rejected,
    #[error("cannot reach Discord: {}", redact::redact(&causes(.0)))]
    Discord(serenity::Error),
    /// The gateway closed a shard's connection with 4010 (invalid shard) or 4011 (sharding
    /// required): no retry can succeed with the same shards.
    #[error("{}", shards_refused(*.code, .shards))]
    ShardsRefused {
        code: u16,
        /// The process's `SHARDS`, if set.
        shards: Option<config::ShardRange>,
    },
    #[error("cannot make an HTTP client: {0}")]
    Http(String),
    #[error("cannot listen for the signals that stop the bot: {0}")]
    Signal(String),
}

/// What a refused shard range means, and what to change.
fn shards_refused(code: u16, shards: &Option<config::ShardRange>) -> String {
    let which = match shards {
        Some(range) => format!("the shards SHARDS={range}"),
        None => "the shard count it recommended (SHARDS unset)".to_string(),
    };
    match code {
        4011 => format!(
            "Discord refused {which} (close code 4011, sharding required): the bot is in too many servers for that many shards; give every process the same larger total in SHARDS"
        ),
        _ => format!(
            "Discord refused {which} (close code {code}, invalid shard): check SHARDS, FIRST-LAST/TOTAL with the same TOTAL in every process"
        ),
    }
}

/// An error and every cause under it, on one line: "error sending request" alone does not say
/// whether the name did not resolve, the connection was refused or TLS failed.
pub fn causes(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        // Wrappers often repeat their cause's words; say each once.
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        source = cause.source();
    }
    line.replace('\n', " ")
}
