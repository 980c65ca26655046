//! The process's life: starting the bot (the database, the token checked with Discord, the
//! gateway, the work done in the background) and stopping it. Every task the bot starts beside
//! the gateway runs on one [`Tasks`]: it stops when that is told to stop, and a shutdown waits
//! for it (up to a deadline) before the database closes.

use super::tasks::Tasks;
use super::{
    background, commands, components, delivery, messages, protocol, redact, BotConfig, Data, Error,
    StartError,
};
use crate::service::{Clock, Service};
use poise::serenity_prelude as serenity;
use std::future::Future;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::task::TaskTracker;

/// A running bot.
pub struct Running {
    pub shard_manager: Arc<serenity::ShardManager>,
    pub service: Arc<Service>,
    /// Commands and button presses being handled now.
    pub in_flight: TaskTracker,
    /// How many CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE events have been handled.
    pub removals: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    tasks: Tasks,
    dispatcher: delivery::Dispatcher,
}

/// How long a shutdown waits for the commands and button presses in flight.
const IN_FLIGHT_STOP: Duration = Duration::from_secs(10);
/// How long a shutdown waits for the dispatcher's attempts under way.
const DISPATCHER_STOP: Duration = Duration::from_secs(10);
/// How long a shutdown waits for the background loops' steps under way.
const BACKGROUND_STOP: Duration = Duration::from_secs(10);

impl Running {
    /// Whether the outbox's delivery stopped because Discord refused the bot's token (401).
    pub fn delivery_stopped(&self) -> bool {
        self.dispatcher.halted()
    }

    /// The bot's tasks beside the gateway (the clock, the sweeps, the registration...): none is
    /// left once [`Running::shutdown`] has returned.
    pub fn tasks(&self) -> TaskTracker {
        self.tasks.tracker()
    }

    /// Stops the bot: no new events, no new step of the background loops; waits (up to 10 s)
    /// for the commands in flight, then for the dispatcher's attempts and the loops' steps
    /// under way; closes the database.
    pub async fn shutdown(self) {
        self.shard_manager.shutdown_all().await;
        self.tasks.stop();
        self.in_flight.close();
        if tokio::time::timeout(IN_FLIGHT_STOP, self.in_flight.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                commands = self.in_flight.len(),
                "shutting down with commands still in flight"
            );
        }
        self.task.abort();
        self.finish().await;
    }

    /// The background stopped and waited for, then the database closed: the loops over the
    /// database stop before it closes (else they log its closing).
    async fn finish(self) {
        self.tasks.stop();
        // The attempts under way are finished and recorded; a post cut short (past the time-out)
        // stays pending: the next start sends it again, with the same nonce.
        self.dispatcher.stop(DISPATCHER_STOP).await;
        self.tasks.stop_and_wait(BACKGROUND_STOP).await;
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
            .with_delivery(config.delivery())
            .with_captions(messages::caption),
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
    // timeout (an edit showing a change is then sent again by the dispatcher).
    let (rest, http) = config
        .discord_http()
        .map_err(|e| StartError::Http(e.without_url().to_string()))?;
    check_token(&http).await?;
    prepare(&service, &config).await;
    let config = Arc::new(config);
    let tasks = Tasks::default();
    let in_flight = TaskTracker::new();
    let removals = Arc::new(AtomicUsize::new(0));
    let poster = Arc::new(delivery::Poster::new(
        rest,
        config.token.as_str(),
        config.proxy.as_deref(),
    ));
    let data = Data {
        service: service.clone(),
        config: config.clone(),
        in_flight: in_flight.clone(),
        challenges_in_hand: Default::default(),
        removals: removals.clone(),
        tasks: tasks.clone(),
        poster: poster.clone(),
    };
    let framework = framework(data, tasks.clone(), config.dev_guild);
    let mut client = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .map_err(StartError::Discord)?;
    let shard_manager = client.shard_manager.clone();
    background::clock(&tasks, service.clone(), config.clock_interval);
    let dispatcher = delivery::start(service.clone(), poster, config.delivery());
    background::ai_sweep(
        &tasks,
        client.http.clone(),
        service.clone(),
        config.ai_sweep_interval,
        config.ai_wait_notice,
    );
    let shards = config.shards;
    let task = tokio::spawn(async move { gateway(&mut client, shards).await });
    Ok(Running {
        shard_manager,
        service,
        in_flight,
        removals,
        task,
        tasks,
        dispatcher,
    })
}

/// Asks Discord who the bot is: refused (401), the token is wrong.
async fn check_token(http: &serenity::Http) -> Result<(), StartError> {
    match http.get_current_user().await {
        Ok(me) => tracing::info!(bot = %me.name, id = %me.id, "token accepted"),
        Err(serenity::Error::Http(e))
            if e.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) =>
        {
            return Err(StartError::Rejected)
        }
        Err(e) => return Err(StartError::Discord(e)),
    }
    Ok(())
}

/// What the service does once the bot is sure to run, before it connects: the time the bot
/// was away given back, the board's sprites drawn, the shipped puzzles loaded. A failure is
/// logged: the bot runs all the same.
async fn prepare(service: &Service, config: &BotConfig) {
    // The time the bot was away is given back to the players before any command or the clock
    // can charge it (once, whichever process starts first).
    if let Err(e) = service.game_clock().resume(config.clock_interval).await {
        tracing::error!(error = ?e, "could not record that the bot runs");
    }
    // The board's sprites drawn before the first command needs them.
    if service.config().images {
        tokio::task::spawn_blocking(crate::render::warm_up);
    }
    // The puzzles the bot ships, once the bot is sure to run.
    match service.puzzles().seed().await {
        Ok(n) => tracing::debug!(puzzles = n, "seed puzzles loaded"),
        Err(e) => tracing::error!(error = ?e, "cannot load the seed puzzles"),
    }
}

/// poise's framework over `data`: the commands, their checks and errors, the button presses
/// and the gateway's other events; on the first READY, the commands registered (in
/// `dev_guild`, or globally) on one of the bot's `tasks`.
fn framework(data: Data, tasks: Tasks, dev_guild: Option<u64>) -> poise::Framework<Data, Error> {
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            on_error: |error| Box::pin(protocol::command::on_error(error)),
            // Every command counts against the user's rate before anything is done.
            command_check: Some(|ctx| Box::pin(commands::within_rate(ctx))),
            // The invocation's data lives until poise has finished with the command, errors
            // included.
            pre_command: |ctx| Box::pin(protocol::command::enter(ctx)),
            event_handler: |framework, event| Box::pin(components::on_event(framework, event)),
            // A reply pings the users it mentions itself (`reply::reply`), none otherwise.
            allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected");
                let commands =
                    poise::builtins::create_application_commands(&framework.options().commands);
                tasks.spawn_until_stopped(register(ctx.http.clone(), commands, dev_guild));
                Ok(data)
            })
        })
        .build()
}

/// Runs the gateway's connection: this process's `shards`, or (none) as many as Discord
/// recommends (GET /gateway/bot), all in this process. Returns when it ends.
async fn gateway(
    client: &mut serenity::Client,
    shards: Option<super::config::ShardRange>,
) -> Result<(), serenity::Error> {
    match shards {
        // serenity's range includes its end: 0..3 starts shards 0, 1, 2 and 3.
        Some(range) => {
            tracing::info!(shards = %range, "starting this process's shards");
            client
                .start_shard_range(range.first..range.last, range.total)
                .await
        }
        None => client.start_autosharded().await,
    }
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

/// Runs the bot until it is told to stop (Ctrl-C, or SIGTERM as systemd, Docker and Kubernetes
/// send it), or until the connection fails for good. Either signal stops it the same way
/// ([`Running::shutdown`]); then it returns `Ok`, so the process exits 0.
pub async fn run(config: BotConfig) -> Result<(), StartError> {
    let shards = config.shards;
    // Listened for before the bot starts, so that a signal during the start is not the
    // default action (an abrupt end) but a shutdown once it has started.
    let stop = stop_signal().map_err(|e| StartError::Signal(e.to_string()))?;
    let mut running = start(config, Arc::new(crate::service::SystemClock)).await?;
    tokio::select! {
        ended = &mut running.task => {
            let result = ended.unwrap_or(Ok(()));
            running.finish().await;
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
        signal = stop => {
            tracing::info!(signal, "{signal}: finishing the commands in flight and shutting down");
        }
    }
    running.shutdown().await;
    tracing::info!("stopped");
    Ok(())
}

/// Resolves with the name of the first stop signal the process gets: SIGINT (Ctrl-C) or, on
/// Unix, SIGTERM. Both are listened for from the call on.
fn stop_signal() -> std::io::Result<impl Future<Output = &'static str>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => "SIGINT (Ctrl-C)",
                _ = terminate.recv() => "SIGTERM",
            }
        })
    }
    #[cfg(not(unix))]
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    })
}
