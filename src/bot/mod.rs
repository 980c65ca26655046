//! The Discord adapter: serenity with poise over the game service. Thin: each command reads
//! its options, calls the service, and turns the answer into a message. One [`Data`], one
//! [`Error`], one [`on_error`] that turns errors into a one-line ephemeral answer and logs
//! what went wrong inside.

pub mod background;
pub mod buttons;
pub mod commands;
pub mod components;
pub mod config;
pub mod delivery;
pub mod gone;
pub mod messages;
pub mod redact;
pub mod visibility;

pub use config::{BotConfig, ConfigError};

use crate::service::{Clock, Service, ServiceError};
use poise::serenity_prelude as serenity;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What every command can reach.
pub struct Data {
    pub service: Arc<Service>,
    pub config: Arc<BotConfig>,
    /// Commands and button presses being handled now (shut-down waits for them).
    pub in_flight: Arc<AtomicUsize>,
    /// Challenges whose button press is being handled now (see `components`).
    pub answering: std::sync::Mutex<std::collections::HashSet<crate::service::ChallengeId>>,
    /// How many channel and thread deletions and server removals (CHANNEL_DELETE,
    /// THREAD_DELETE, GUILD_DELETE) have been handled, outages included (see `gone`).
    pub removals: Arc<AtomicUsize>,
}

pub type Context<'a> = poise::Context<'a, Data, Error>;

/// One command or button press being handled, counted while it lives: however its handling
/// ends (an answer, a refusal, an option that did not parse), dropping it counts it out.
pub struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    pub fn enter(count: &Arc<AtomicUsize>) -> InFlight {
        count.fetch_add(1, Ordering::SeqCst);
        InFlight(count.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Why a command did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A refusal or failure of the service: its message is the player's answer.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// Something the user must change, in one line.
    #[error("{0}")]
    User(String),
    /// Discord refused a request of ours.
    #[error("Discord did not take the bot's answer: please try again.")]
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

/// A running bot.
pub struct Running {
    pub shard_manager: Arc<serenity::ShardManager>,
    pub service: Arc<Service>,
    pub in_flight: Arc<AtomicUsize>,
    /// How many CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE events have been handled.
    pub removals: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    clock: tokio::task::JoinHandle<()>,
    dispatcher: delivery::Dispatcher,
    ai_sweep: tokio::task::JoinHandle<()>,
}

/// How long a shutdown waits for the dispatcher's attempts under way.
const DISPATCHER_STOP: Duration = Duration::from_secs(10);

impl Running {
    /// Whether the outbox's delivery stopped because Discord refused the bot's token (401).
    pub fn delivery_stopped(&self) -> bool {
        self.dispatcher.halted()
    }

    /// Stops the bot: no new events, waits (up to 10 s) for commands in flight, closes the
    /// database.
    pub async fn shutdown(self) {
        self.shard_manager.shutdown_all().await;
        self.clock.abort();
        self.ai_sweep.abort();
        for _ in 0..200 {
            if self.in_flight.load(Ordering::SeqCst) == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.task.abort();
        // The attempts under way are finished and recorded; a post cut short (past the time-out)
        // stays pending: the next start sends it again, with the same nonce.
        self.dispatcher.stop(DISPATCHER_STOP).await;
        self.service.close().await;
    }
}

/// Starts the bot: opens the database, checks the token with Discord, connects, registers
/// the commands (in `DEV_GUILD_ID`, or globally) on the first READY, and starts the clock.
pub async fn start(config: BotConfig, clock: Arc<dyn Clock>) -> Result<Running, StartError> {
    config.check()?;
    if let Some(host) = config.proxy_in_clear() {
        tracing::warn!(
            proxy = %host,
            "DISCORD_PROXY_ALLOW_HTTP=true: the bot's token goes over plain http to another machine"
        );
    }
    let service = Arc::new(
        Service::open(&config.database_url, config.service(), clock)
            .await?
            .with_wording(Arc::new(messages::BotWording))
            .with_delivery(config.delivery()),
    );
    match connect(config, service.clone()).await {
        Ok(running) => Ok(running),
        Err(e) => {
            // Nothing else holds the database yet: closing it checkpoints the WAL, so that no
            // -wal or -shm file is left beside it.
            service.close().await;
            Err(e)
        }
    }
}

/// Checks the token, connects and starts the background tasks over an open service.
async fn connect(config: BotConfig, service: Arc<Service>) -> Result<Running, StartError> {
    // One HTTP client for serenity and the outbox: a request that hangs fails after the
    // timeout (a move's answer is then checked and, if not shown, posted by the outbox).
    let rest = reqwest::Client::builder()
        .use_rustls_tls()
        .timeout(config.discord_timeout)
        .build()
        .map_err(|e| StartError::Http(e.without_url().to_string()))?;
    let http = serenity::HttpBuilder::new(config.token.as_str()).client(rest.clone());
    let http = match &config.proxy {
        Some(proxy) => http.proxy(proxy.as_str()).ratelimiter_disabled(true),
        None => http,
    }
    .build();
    match http.get_current_user().await {
        Ok(me) => tracing::info!(bot = %me.name, id = %me.id, "token accepted"),
        Err(serenity::Error::Http(e))
            if e.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) =>
        {
            return Err(StartError::Rejected)
        }
        Err(e) => return Err(StartError::Discord(e)),
    }
    // The time the bot was away is given back to the players before any command or the clock
    // can charge it (once, whichever process starts first).
    if let Err(e) = service.resume(config.clock_interval).await {
        tracing::error!(error = ?e, "could not record that the bot runs");
    }
    // The board's sprites drawn before the first command needs them.
    if service.config().images {
        tokio::task::spawn_blocking(crate::render::warm_up);
    }
    // The puzzles the bot ships, once the bot is sure to run.
    match service.seed_puzzles().await {
        Ok(n) => tracing::debug!(puzzles = n, "seed puzzles loaded"),
        Err(e) => tracing::error!(error = ?e, "cannot load the seed puzzles"),
    }
    let config = Arc::new(config);
    let in_flight = Arc::new(AtomicUsize::new(0));
    let removals = Arc::new(AtomicUsize::new(0));
    let data = Data {
        service: service.clone(),
        config: config.clone(),
        in_flight: in_flight.clone(),
        answering: Default::default(),
        removals: removals.clone(),
    };
    let dev_guild = config.dev_guild;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            on_error: |error| Box::pin(on_error(error)),
            // Every command counts against the user's rate before anything is done.
            command_check: Some(|ctx| Box::pin(commands::within_rate(ctx))),
            // The invocation's data lives until poise has finished with the command, errors
            // included.
            pre_command: |ctx| {
                Box::pin(async move {
                    let counted = InFlight::enter(&ctx.data().in_flight);
                    ctx.set_invocation_data(counted).await;
                })
            },
            event_handler: |framework, event| Box::pin(components::on_event(framework, event)),
            allowed_mentions: Some(serenity::CreateAllowedMentions::new().all_users(true)),
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected");
                let commands =
                    poise::builtins::create_application_commands(&framework.options().commands);
                tokio::spawn(register(ctx.http.clone(), commands, dev_guild));
                Ok(data)
            })
        })
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .map_err(StartError::Discord)?;
    let shard_manager = client.shard_manager.clone();
    let clock_task = background::clock(service.clone(), config.clock_interval);
    let poster = delivery::Poster::new(rest, config.token.as_str(), config.proxy.as_deref());
    let dispatcher = delivery::start(service.clone(), Arc::new(poster));
    let ai_sweep = background::ai_sweep(
        client.http.clone(),
        service.clone(),
        config.ai_sweep_interval,
        config.ai_wait_notice,
    );
    let shards = config.shards;
    let task = tokio::spawn(async move {
        match shards {
            // serenity's range includes its end: 0..3 starts shards 0, 1, 2 and 3.
            Some(range) => {
                tracing::info!(shards = %range, "starting this process's shards");
                client
                    .start_shard_range(range.first..range.last, range.total)
                    .await
            }
            // As many shards as Discord recommends (GET /gateway/bot), all in this process.
            None => client.start_autosharded().await,
        }
    });
    Ok(Running {
        shard_manager,
        service,
        in_flight,
        removals,
        task,
        clock: clock_task,
        dispatcher,
        ai_sweep,
    })
}

/// The first wait before registering the commands again after a failure; it doubles each
/// time, up to [`REGISTER_RETRY_MAX`].
const REGISTER_RETRY: Duration = Duration::from_secs(1);
const REGISTER_RETRY_MAX: Duration = Duration::from_secs(300);

/// Registers the commands (in the development guild, or globally) on the first READY. The
/// commands are handled whether or not this succeeds (Discord keeps those registered before):
/// a registration that fails in a way that may pass (a time-out, no connection, a 5xx, a 429)
/// is tried again, waiting longer each time, until it succeeds; one that Discord refuses
/// (another 4xx) is logged and not repeated.
async fn register(
    http: Arc<serenity::Http>,
    commands: Vec<serenity::CreateCommand>,
    dev_guild: Option<u64>,
) {
    let mut wait = REGISTER_RETRY;
    for attempt in 1.. {
        let result = match dev_guild {
            Some(g) => serenity::GuildId::new(g)
                .set_commands(&http, commands.clone())
                .await
                .map(drop),
            None => serenity::Command::set_global_commands(&http, commands.clone())
                .await
                .map(drop),
        };
        let e = match result {
            Ok(()) if attempt > 1 => return tracing::info!(attempt, "commands registered"),
            Ok(()) => return,
            Err(e) => e,
        };
        let may_pass = match &e {
            serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
                r.status_code.is_server_error()
                    || r.status_code == serenity::StatusCode::TOO_MANY_REQUESTS
            }
            serenity::Error::Http(_) => true,
            _ => false,
        };
        if !may_pass {
            tracing::error!(error = %redact::error(&e), "Discord refused the commands' registration");
            return;
        }
        tracing::warn!(error = %redact::error(&e), "could not register the commands: trying again");
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(REGISTER_RETRY_MAX);
    }
}

/// Runs the bot until Ctrl-C (or until the connection fails for good).
pub async fn run(config: BotConfig) -> Result<(), StartError> {
    let shards = config.shards;
    let mut running = start(config, Arc::new(crate::service::SystemClock)).await?;
    tokio::select! {
        ended = &mut running.task => {
            let result = ended.unwrap_or(Ok(()));
            // The loops over the database stop before it closes (else they log its closing).
            running.clock.abort();
            running.ai_sweep.abort();
            running.dispatcher.stop(DISPATCHER_STOP).await;
            running.service.close().await;
            return match result {
                Err(serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication)) => {
                    Err(StartError::Rejected)
                }
                Err(serenity::Error::Gateway(serenity::GatewayError::InvalidShardData)) => {
                    Err(StartError::ShardsRefused { code: 4010, shards })
                }
                Err(serenity::Error::Gateway(serenity::GatewayError::OverloadedShard)) => {
                    Err(StartError::ShardsRefused { code: 4011, shards })
                }
                Err(e) => Err(StartError::Discord(e)),
                Ok(()) => Ok(()),
            };
        }
        _ = tokio::signal::ctrl_c() => {
            tracing::info!("Ctrl-C: finishing the commands in flight and shutting down");
        }
    }
    running.shutdown().await;
    tracing::info!("stopped");
    Ok(())
}

/// Turns every error into a one-line ephemeral answer; logs the internal ones.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    use poise::FrameworkError as F;
    let (ctx, message) = match error {
        F::Command { error, ctx, .. } => {
            if error.is_internal() {
                tracing::error!(command = %ctx.command().qualified_name, error = %redact::error(&error), "command failed");
            }
            (ctx, error.to_string())
        }
        F::GuildOnly { ctx, .. } => (
            ctx,
            "Tablut is played in a server's channels: use this command in a server, not in a direct message."
                .to_string(),
        ),
        F::ArgumentParse { ctx, error, .. } => (
            ctx,
            format!("That option is not valid ({error}): check the command's options and try again."),
        ),
        F::CommandStructureMismatch { ctx, description, .. } => {
            tracing::warn!(command = %ctx.command().qualified_name, description, "options Discord should not have sent");
            (
                poise::Context::Application(ctx),
                "That option is not valid: pick one of the command's choices and try again."
                    .to_string(),
            )
        }
        F::CommandCheckFailed { error: Some(error), ctx, .. } => (ctx, error.to_string()),
        F::CooldownHit { ctx, remaining_cooldown, .. } => (
            ctx,
            format!("Not so fast: try again in {} s.", remaining_cooldown.as_secs() + 1),
        ),
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %redact::error(&e), "could not handle an error");
            }
            return;
        }
    };
    if let Err(e) = ctx.send(commands::private(message)).await {
        tracing::warn!(error = %redact::error(&e), "could not send an error message");
    }
}
