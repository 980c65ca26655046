//! The bot's settings: one clap declaration each (flag, environment variable, default, help),
//! so `tablut-bot run --help` documents every variable `.env.example` lists. The command line
//! loads `.env` first; the environment overrides it, a flag overrides both. A blank variable
//! counts as unset, and values are trimmed.
//!
//! Adding a setting is one field below (and its line in `.env.example`, which a test checks).

use crate::echo::echo;
use crate::service::{self, TimeControl};
use clap::{Args, FromArgMatches};
use std::fmt;
use std::time::Duration;

/// Everything the bot is configured with.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Settings (each also read from its environment variable or .env)")]
pub struct BotConfig {
    /// The bot's token, from the Discord developer portal (your application > Bot > Reset
    /// Token). Required. Prefer the variable: a flag is visible to other users of the machine.
    #[arg(
        long = "token",
        env = "DISCORD_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true,
        default_value = "",
        hide_default_value = true,
        value_parser = Token::parse
    )]
    pub token: Token,

    /// The database: sqlite://FILE (created on first run) or postgres://USER@HOST/DATABASE;
    /// migrations are applied at start-up.
    #[arg(long, env = "DATABASE_URL", value_name = "URL", default_value = crate::service::DEFAULT_DATABASE_URL, value_parser = trimmed)]
    pub database_url: String,

    /// Register the commands in this one server (its numeric id), where they appear at once.
    /// Unset: registered globally (Discord may take up to an hour to show them).
    #[arg(long = "dev-guild", env = "DEV_GUILD_ID", value_name = "ID", value_parser = guild_id)]
    pub dev_guild: Option<u64>,

    /// A base URL through which every Discord REST call goes (an HTTP proxy such as
    /// twilight-http-proxy, or a test's fake Discord). When set, the bot leaves rate limiting
    /// to the proxy and asks it for the gateway URL.
    #[arg(long, env = "DISCORD_PROXY", value_name = "URL", value_parser = base_url)]
    pub proxy: Option<String>,

    /// Allow a DISCORD_PROXY over plain http to another machine (true or false). The bot's
    /// token then crosses the network unencrypted: only for a network you trust. Without it,
    /// plain http is refused unless the proxy is on this machine (127.0.0.0/8, ::1, localhost).
    #[arg(long = "proxy-allow-http", env = "DISCORD_PROXY_ALLOW_HTTP", value_name = "BOOL", default_value = "false", action = clap::ArgAction::Set, value_parser = boolean)]
    pub proxy_allow_http: bool,

    /// The gateway shards this process runs: FIRST-LAST/TOTAL (0-3/8: shards 0 to 3 of 8) or
    /// ID/TOTAL (one shard). Several processes with ranges that cover 0 to TOTAL-1 share one
    /// PostgreSQL database. Unset: this one process runs every shard, as many as Discord
    /// recommends.
    #[arg(long, env = "SHARDS", value_name = "RANGE", value_parser = shard_range)]
    pub shards: Option<ShardRange>,

    /// How long the AI may think per move at level easy, in milliseconds.
    #[arg(long = "ai-easy-time-ms", env = "AI_EASY_TIME_MS", value_name = "MS", default_value = "500", value_parser = millis)]
    pub ai_easy_time: Duration,

    /// How long the AI may think per move at level medium, in milliseconds.
    #[arg(long = "ai-medium-time-ms", env = "AI_MEDIUM_TIME_MS", value_name = "MS", default_value = "1000", value_parser = millis)]
    pub ai_medium_time: Duration,

    /// How long the AI may think per move at level hard, in milliseconds.
    #[arg(long = "ai-hard-time-ms", env = "AI_HARD_TIME_MS", value_name = "MS", default_value = "2000", value_parser = millis)]
    pub ai_hard_time: Duration,

    /// How long the AI thinks for a /tablut hint, in milliseconds.
    #[arg(long = "ai-hint-time-ms", env = "AI_HINT_TIME_MS", value_name = "MS", default_value = "1000", value_parser = millis)]
    pub ai_hint_time: Duration,

    /// How long /tablut analysis searches each position of a game, in milliseconds (a 100-ply game takes at most 100 times this on one core).
    #[arg(long = "analysis-ms-per-ply", env = "ANALYSIS_MS_PER_PLY", value_name = "MS", default_value = "400", value_parser = positive_millis)]
    pub analysis_time: Duration,

    /// Seconds a user waits between hints.
    #[arg(long = "hint-cooldown-secs", env = "HINT_COOLDOWN_SECS", value_name = "SECS", default_value = "30", value_parser = seconds)]
    pub hint_cooldown: Duration,

    /// Commands and button presses one user may use per minute: a burst of this many, then
    /// one more each minute / this (0: no limit). Each process counts its own.
    #[arg(long = "commands-per-minute", env = "COMMANDS_PER_MINUTE", value_name = "N", default_value = "20", value_parser = count)]
    pub commands_per_minute: usize,

    /// Seconds a user waits between two costly commands (replays, analyses, privacy files).
    #[arg(long = "costly-cooldown-secs", env = "COSTLY_COOLDOWN_SECS", value_name = "SECS", default_value = "30", value_parser = seconds)]
    pub costly_cooldown: Duration,

    /// The plies (moves by either side) a game may last: the move that reaches this many
    /// ends the game drawn, unless it decided it (the bot's own rule; see docs/RULES.md).
    #[arg(long = "max-plies", env = "MAX_PLIES", value_name = "N", default_value = "1000", value_parser = positive)]
    pub max_plies: usize,

    /// The time of a challenge or AI game that names none: none, a time per move like 12h, 3d,
    /// 1d12h, or a bank and an increment like 3d+6h.
    #[arg(long, env = "DEFAULT_TIME_CONTROL", value_name = "TIME", default_value = "3d", value_parser = time_control)]
    pub default_time_control: TimeControl,

    /// The days a member may be on vacation (their clocks stopped) within any 365 days,
    /// counted in the days actually taken (0: no vacations).
    #[arg(long = "vacation-days-per-year", env = "VACATION_DAYS_PER_YEAR", value_name = "DAYS", default_value = "30", value_parser = days_a_year)]
    pub vacation_days_per_year: u32,

    /// Seconds an unanswered challenge stays open.
    #[arg(long = "challenge-ttl-secs", env = "CHALLENGE_TTL_SECS", value_name = "SECS", default_value = "86400", value_parser = seconds)]
    pub challenge_ttl: Duration,

    /// How often the clock looks for reminders, losses on time and expired challenges, in
    /// seconds.
    #[arg(long = "clock-interval-secs", env = "CLOCK_INTERVAL_SECS", value_name = "SECS", default_value = "60", value_parser = interval)]
    pub clock_interval: Duration,

    /// How many searches the AI runs at once: its worker threads, each with one table.
    /// Unset: the number of cores.
    #[arg(long = "ai-workers", env = "AI_WORKERS", value_name = "N", value_parser = positive)]
    pub ai_workers: Option<usize>,

    /// How many pieces of heavy work (board images, replays, analyses' play-throughs and
    /// graphs) run at once, costly ones (all but boards) on all but one of them. Unset: the
    /// number of cores, at least 2.
    #[arg(long = "heavy-workers", env = "HEAVY_WORKERS", value_name = "N", value_parser = positive)]
    pub heavy_workers: Option<usize>,

    /// The replays and analyses that may wait for a worker (those running included); beyond,
    /// a request is refused as busy.
    #[arg(long = "heavy-queue-limit", env = "HEAVY_QUEUE_LIMIT", value_name = "N", default_value = "32", value_parser = positive)]
    pub heavy_queue_limit: usize,

    /// The size of each AI worker's transposition table, in megabytes.
    #[arg(long = "ai-tt-mb", env = "AI_TT_MB", value_name = "MB", default_value = "32", value_parser = positive)]
    pub ai_tt_mb: usize,

    /// Whether the AI's workers run at the operating system's lowest priority (Linux's
    /// SCHED_IDLE), so that a person's command never waits behind a search; false: at the
    /// bot's own priority, for a machine whose other programs would leave the AI no time.
    #[arg(long = "ai-idle-priority", env = "AI_IDLE_PRIORITY", value_name = "BOOL", default_value = "true", action = clap::ArgAction::Set, value_parser = boolean)]
    pub ai_idle_priority: bool,

    /// The AI's moves and hints that may wait for a worker (at least 1); beyond, new games
    /// against the AI, moves against it and hints are refused as busy.
    #[arg(long = "ai-queue-limit", env = "AI_QUEUE_LIMIT", value_name = "N", default_value = "200", value_parser = positive)]
    pub ai_queue_limit: usize,

    /// Games against the AI a user may have running in one server (0: no limit).
    #[arg(long = "ai-games-per-user", env = "AI_GAMES_PER_USER", value_name = "N", default_value = "3", value_parser = count)]
    pub ai_games_per_user: usize,

    /// Seconds a user waits between starting two games against the AI.
    #[arg(long = "ai-game-cooldown-secs", env = "AI_GAME_COOLDOWN_SECS", value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub ai_game_cooldown: Duration,

    /// Open challenges a user may have at once (0: no limit).
    #[arg(long = "open-challenges-per-user", env = "OPEN_CHALLENGES_PER_USER", value_name = "N", default_value = "5", value_parser = count)]
    pub open_challenges_per_user: usize,

    /// Challenges a user may be sent, from everyone together, in any window of
    /// CHALLENGES_RECEIVED_WINDOW_SECS, not counting those they accepted (0: no limit).
    #[arg(long = "challenges-received", env = "CHALLENGES_RECEIVED", value_name = "N", default_value = "10", value_parser = count)]
    pub challenges_received: usize,

    /// The window CHALLENGES_RECEIVED counts in, in seconds.
    #[arg(long = "challenges-received-window-secs", env = "CHALLENGES_RECEIVED_WINDOW_SECS", value_name = "SECS", default_value = "3600", value_parser = seconds)]
    pub challenges_received_window: Duration,

    /// How long an AI move waits for a worker before its channel is told how many games are
    /// ahead of it, in milliseconds.
    #[arg(long = "ai-wait-notice-ms", env = "AI_WAIT_NOTICE_MS", value_name = "MS", default_value = "4000", value_parser = millis)]
    pub ai_wait_notice: Duration,

    /// How long a hint waits for a worker before it is answered with an apology, in
    /// milliseconds.
    #[arg(long = "ai-hint-wait-ms", env = "AI_HINT_WAIT_MS", value_name = "MS", default_value = "10000", value_parser = millis)]
    pub ai_hint_wait: Duration,

    /// How often the AI's sweep looks for games where the AI is to move and nothing is under
    /// way (after a restart or a failed search), in seconds.
    #[arg(long = "ai-sweep-secs", env = "AI_SWEEP_SECS", value_name = "SECS", default_value = "30", value_parser = interval)]
    pub ai_sweep_interval: Duration,

    /// The wait before the outbox retries a failed post (5xx, time-out, 429 without
    /// retry_after), in milliseconds; doubled each time, up to 60 times this.
    #[arg(long = "delivery-retry-ms", env = "DELIVERY_RETRY_MS", value_name = "MS", default_value = "1000", value_parser = positive_millis)]
    pub delivery_retry: Duration,

    /// How long any request to Discord's REST API may take before it counts as failed, in
    /// milliseconds (a post of the outbox is then retried with the same nonce). A move whose
    /// answer has not been shown after twice this and a second is posted by the outbox.
    #[arg(long = "discord-timeout-ms", env = "DISCORD_TIMEOUT_MS", value_name = "MS", default_value = "10000", value_parser = positive_millis)]
    pub discord_timeout: Duration,

    /// How long the outbox keeps trying to deliver a post before it gives up (recording the
    /// last reason and stopping the game's clock), in seconds.
    #[arg(long = "delivery-give-up-secs", env = "DELIVERY_GIVE_UP_SECS", value_name = "SECS", default_value = "86400", value_parser = interval)]
    pub delivery_give_up: Duration,

    /// How long delivered (or given up) posts stay in the outbox table before they are
    /// deleted, in hours.
    #[arg(long = "outbox-retention-hours", env = "OUTBOX_RETENTION_HOURS", value_name = "HOURS", default_value = "72", value_parser = hours)]
    pub outbox_retention: Duration,

    /// The log filter (tracing's EnvFilter syntax).
    #[arg(long = "log", env = "RUST_LOG", value_name = "FILTER", default_value = "info,serenity=warn,poise=warn,sqlx=warn", value_parser = log_filter)]
    pub log: String,
}

/// The bot's token. Neither `Debug` nor any message shows it.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    fn parse(s: &str) -> Result<Token, ConfigError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ConfigError::MissingToken);
        }
        if serenity::utils::token::validate(s).is_err() || s.contains(char::is_whitespace) {
            return Err(ConfigError::MalformedToken);
        }
        Ok(Token(s.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<hidden>")
    }
}

/// The gateway shards one process runs: `first` to `last` (both included) of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl ShardRange {
    /// How many shards the range holds.
    pub fn count(&self) -> u32 {
        self.last - self.first + 1
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}/{}", self.first, self.total)
        } else {
            write!(f, "{}-{}/{}", self.first, self.last, self.total)
        }
    }
}

impl std::str::FromStr for ShardRange {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<ShardRange, ConfigError> {
        shard_range(s)
    }
}

/// The shard count a process may be told: Discord's own limit is far lower.
const MAX_SHARDS: u32 = 1 << 16;

fn shard_range(s: &str) -> Result<ShardRange, ConfigError> {
    const FORM: &str = "write FIRST-LAST/TOTAL, like 0-3/8 (shards 0 to 3 of 8), or ID/TOTAL";
    let invalid = |why: String| ConfigError::Invalid(why);
    let shard = |part: &str| -> Result<u32, ConfigError> {
        let part = part.trim();
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid(FORM.into()));
        }
        part.parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_SHARDS)
            .ok_or_else(|| invalid(format!("at most {MAX_SHARDS} shards: {FORM}")))
    };
    let (range, total) = s
        .trim()
        .split_once('/')
        .ok_or_else(|| invalid(FORM.into()))?;
    let (first, last) = match range.split_once('-') {
        Some((first, last)) => (shard(first)?, shard(last)?),
        None => {
            let id = shard(range)?;
            (id, id)
        }
    };
    let total = shard(total)?;
    if total == 0 {
        return Err(invalid(format!("TOTAL is at least 1: {FORM}")));
    }
    if first > last {
        return Err(invalid(format!(
            "the range runs backwards ({first} after {last}): write the lower shard first, like {last}-{first}/{total}"
        )));
    }
    if last >= total {
        return Err(invalid(format!(
            "there is no shard {last} in {total}: shards are numbered 0 to {}",
            total - 1
        )));
    }
    Ok(ShardRange { first, last, total })
}

/// A setting that is missing or wrong, in one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("DISCORD_TOKEN is not set: put the bot's token in .env (see .env.example) or in the environment")]
    MissingToken,
    #[error("DISCORD_TOKEN does not look like a bot token (three parts separated by dots): copy it again from the Bot page of the Discord developer portal")]
    MalformedToken,
    #[error("DISCORD_PROXY sends the bot's token over plain http to {0}, another machine: use https://, a proxy on this machine (127.0.0.1, ::1, localhost), or set DISCORD_PROXY_ALLOW_HTTP=true if the network to it is trusted")]
    PlainHttpProxy(String),
    /// A value a setting's parser refused, or anything else clap reports, as one line.
    #[error("{0}")]
    Invalid(String),
}

fn trimmed(s: &str) -> Result<String, ConfigError> {
    Ok(s.trim().to_string())
}

fn number(s: &str, hint: &str) -> Result<u64, ConfigError> {
    s.trim()
        .parse()
        .map_err(|_| ConfigError::Invalid(hint.to_string()))
}

fn guild_id(s: &str) -> Result<u64, ConfigError> {
    number(s, "write the server's numeric id")
}

fn millis(s: &str) -> Result<Duration, ConfigError> {
    number(s, "write a whole number of milliseconds, like 2000").map(Duration::from_millis)
}

fn positive_millis(s: &str) -> Result<Duration, ConfigError> {
    match number(s, "write a whole number of milliseconds, like 1000")? {
        0 => Err(ConfigError::Invalid(
            "write a whole number of milliseconds, at least 1, like 1000".into(),
        )),
        n => Ok(Duration::from_millis(n)),
    }
}

fn count(s: &str) -> Result<usize, ConfigError> {
    number(s, "write a whole number, like 3").map(|n| n as usize)
}

fn days_a_year(s: &str) -> Result<u32, ConfigError> {
    match number(s, "write a whole number of days, 0 to 365, like 30")? {
        n @ 0..=365 => Ok(n as u32),
        _ => Err(ConfigError::Invalid(
            "write a whole number of days, 0 to 365, like 30".into(),
        )),
    }
}

fn positive(s: &str) -> Result<usize, ConfigError> {
    match number(s, "write a whole number, at least 1, like 2")? {
        0 => Err(ConfigError::Invalid(
            "write a whole number, at least 1, like 2".into(),
        )),
        n => Ok(n as usize),
    }
}

fn seconds(s: &str) -> Result<Duration, ConfigError> {
    number(s, "write a whole number of seconds, like 30").map(Duration::from_secs)
}

fn hours(s: &str) -> Result<Duration, ConfigError> {
    number(s, "write a whole number of hours, like 72")
        .map(|h| Duration::from_secs(h.saturating_mul(3600)))
}

fn interval(s: &str) -> Result<Duration, ConfigError> {
    match number(s, "write a whole number of seconds, like 60")? {
        0 => Err(ConfigError::Invalid(
            "write a whole number of seconds, at least 1, like 60".into(),
        )),
        n => Ok(Duration::from_secs(n)),
    }
}

fn time_control(s: &str) -> Result<TimeControl, ConfigError> {
    s.trim()
        .parse()
        .map_err(|_| ConfigError::Invalid("write none, or a time per move like 12h or 3d".into()))
}

fn base_url(s: &str) -> Result<String, ConfigError> {
    let s = s.trim();
    let url = reqwest::Url::parse(s)
        .ok()
        .filter(|u| u.host_str().is_some());
    if !(s.starts_with("http://") || s.starts_with("https://")) || url.is_none() {
        return Err(ConfigError::Invalid(
            "write a base URL like http://127.0.0.1:3000".into(),
        ));
    }
    Ok(s.trim_end_matches('/').to_string())
}

fn boolean(s: &str) -> Result<bool, ConfigError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "on" => Ok(true),
        "false" | "no" | "0" | "off" => Ok(false),
        _ => Err(ConfigError::Invalid("write true or false".into())),
    }
}

/// Whether a URL's host is this machine: 127.0.0.0/8, ::1 (or an IPv4-mapped loopback), or
/// `localhost`.
fn is_loopback(url: &reqwest::Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let ip = host.trim_start_matches('[').trim_end_matches(']');
    match ip.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback(),
        Ok(std::net::IpAddr::V6(ip)) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}

fn log_filter(s: &str) -> Result<String, ConfigError> {
    let s = s.trim();
    tracing_subscriber::EnvFilter::try_new(s).map_err(|e| {
        ConfigError::Invalid(format!(
            "{e}: write a filter like info,serenity=warn (see tracing's EnvFilter)"
        ))
    })?;
    Ok(s.to_string())
}

impl BotConfig {
    /// The rules that hold between settings, checked before anything starts: a `DISCORD_PROXY`
    /// over plain http must be on this machine, or explicitly allowed (every REST call carries
    /// the bot's token in its `Authorization` header, which plain http shows to the network).
    pub fn check(&self) -> Result<(), ConfigError> {
        if let Some(proxy) = &self.proxy {
            let url = reqwest::Url::parse(proxy)
                .map_err(|_| ConfigError::Invalid("DISCORD_PROXY is not a URL".into()))?;
            if url.scheme() == "http" && !is_loopback(&url) && !self.proxy_allow_http {
                return Err(ConfigError::PlainHttpProxy(
                    url.host_str().unwrap_or_default().to_string(),
                ));
            }
        }
        Ok(())
    }

    /// Whether the token goes to a proxy in clear (allowed by `DISCORD_PROXY_ALLOW_HTTP`): the
    /// bot says so when it starts.
    pub fn proxy_in_clear(&self) -> Option<String> {
        let url = reqwest::Url::parse(self.proxy.as_deref()?).ok()?;
        (url.scheme() == "http" && !is_loopback(&url))
            .then(|| url.host_str().unwrap_or_default().to_string())
    }

    /// The HTTP client every request to Discord goes through (a request that hangs fails after
    /// `DISCORD_TIMEOUT_MS`), and serenity's HTTP over it with the bot's token, through
    /// `DISCORD_PROXY` if set (which then keeps the rate limits: serenity's own limiter is off).
    ///
    /// # Errors
    ///
    /// The TLS backend cannot be set up.
    pub fn discord_http(
        &self,
    ) -> Result<(reqwest::Client, poise::serenity_prelude::Http), reqwest::Error> {
        let rest = reqwest::Client::builder()
            .use_rustls_tls()
            .timeout(self.discord_timeout)
            .build()?;
        let http =
            poise::serenity_prelude::HttpBuilder::new(self.token.as_str()).client(rest.clone());
        let http = match &self.proxy {
            Some(proxy) => http.proxy(proxy.as_str()).ratelimiter_disabled(true),
            None => http,
        };
        Ok((rest, http.build()))
    }

    /// The service's settings.
    pub fn service(&self) -> service::Config {
        service::Config {
            ai_time: [self.ai_easy_time, self.ai_medium_time, self.ai_hard_time],
            ai_workers: self
                .ai_workers
                .unwrap_or(service::Config::default().ai_workers),
            ai_tt_mb: self.ai_tt_mb,
            ai_priority: match self.ai_idle_priority {
                true => crate::ai::pool::Priority::Idle,
                false => crate::ai::pool::Priority::Normal,
            },
            ai_queue_limit: self.ai_queue_limit,
            ai_games_per_user: self.ai_games_per_user.min(u32::MAX as usize) as u32,
            ai_game_cooldown: self.ai_game_cooldown,
            open_challenges_per_user: self.open_challenges_per_user.min(u32::MAX as usize) as u32,
            challenges_received: self.challenges_received.min(u32::MAX as usize) as u32,
            challenges_received_window: self.challenges_received_window,
            hint_wait: self.ai_hint_wait,
            hint_time: self.ai_hint_time,
            hint_cooldown: self.hint_cooldown,
            challenge_ttl: self.challenge_ttl,
            images: true,
            analysis_time: self.analysis_time,
            analysis_depth: None,
            ai_claim_margin: service::ai::AI_CLAIM_MARGIN,
            commands_per_minute: self.commands_per_minute.min(u32::MAX as usize) as u32,
            costly_cooldown: self.costly_cooldown,
            max_plies: self.max_plies.min(u32::MAX as usize) as u32,
            vacation_days_per_year: self.vacation_days_per_year,
            heavy_workers: self
                .heavy_workers
                .unwrap_or_else(service::heavy::default_workers),
            heavy_queue_limit: self.heavy_queue_limit,
        }
    }

    /// The outbox's timing.
    pub fn delivery(&self) -> crate::bot::delivery::DeliveryPolicy {
        crate::bot::delivery::DeliveryPolicy {
            times: crate::service::OutboxTimes {
                // Longer than the answer and the look at whether it is shown can take together,
                // so a slow answer is never posted a second time.
                answer_grace: self.discord_timeout * 2 + Duration::from_secs(1),
                retention: self.outbox_retention,
                // An attempt makes at most three requests (is the answer shown, is the post in
                // the channel, the post), each within the timeout.
                claim_lease: self.discord_timeout * 4 + Duration::from_secs(1),
            },
            retry_min: self.delivery_retry,
            retry_max: self.delivery_retry * 60,
            give_up: self.delivery_give_up,
        }
    }

    /// The environment variable of every setting, in declaration order.
    pub fn variables() -> Vec<String> {
        Self::augment_args(clap::Command::new("run"))
            .get_arguments()
            .filter_map(|a| a.get_env())
            .map(|v| v.to_string_lossy().into_owned())
            .collect()
    }

    /// Reads the settings through `get`, a variable's value by name, and nothing else (a test
    /// passes its own variables; the process environment is not looked at).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<BotConfig, ConfigError> {
        let command = Self::augment_args(clap::Command::new("run").no_binary_name(true))
            .mut_args(|a| a.env(None));
        let mut argv = Vec::new();
        for arg in Self::augment_args(clap::Command::new("run")).get_arguments() {
            let (Some(var), Some(long)) = (arg.get_env(), arg.get_long()) else {
                continue;
            };
            if let Some(value) = get(&var.to_string_lossy()).filter(|v| !v.trim().is_empty()) {
                argv.push(format!("--{long}={value}"));
            }
        }
        let matches = command
            .try_get_matches_from(argv)
            .map_err(|e| one_line(&e))?;
        let config = BotConfig::from_arg_matches(&matches).map_err(|e| one_line(&e))?;
        config.check()?;
        Ok(config)
    }
}

/// Removes the settings' variables that are set but blank (as `.env.example`'s
/// `DISCORD_TOKEN=`), so that they count as unset. Call before any thread starts.
pub fn clear_blank_variables() {
    for var in BotConfig::variables() {
        if std::env::var_os(&var).is_some_and(|v| v.to_string_lossy().trim().is_empty()) {
            std::env::remove_var(&var);
        }
    }
}

/// A setting's name for a message, from clap's `--flag <VALUE>`: its variable and its flag.
fn setting_name(arg: &str) -> String {
    let flag = arg.split_whitespace().next().unwrap_or(arg);
    BotConfig::augment_args(clap::Command::new("run"))
        .get_arguments()
        .find(|a| a.get_long().is_some_and(|l| flag == format!("--{l}")))
        .and_then(|a| a.get_env())
        .map(|var| format!("{} ({flag})", var.to_string_lossy()))
        .unwrap_or_else(|| flag.to_string())
}

/// A clap error about a setting as one line: the setting and the reason (a value echoed cut
/// short, the token never echoed), or clap's first line for anything else.
pub fn one_line(e: &clap::Error) -> ConfigError {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() == ErrorKind::ValueValidation {
        if let Some(reason) = std::error::Error::source(e) {
            if let Some(c) = reason.downcast_ref::<ConfigError>() {
                if !matches!(c, ConfigError::Invalid(_)) {
                    return c.clone();
                }
            }
            let arg = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(a)) => setting_name(a),
                _ => "a setting".into(),
            };
            let value = match e.get(ContextKind::InvalidValue) {
                Some(ContextValue::String(v)) => v.clone(),
                _ => String::new(),
            };
            // A URL's password is hidden before the value is cut short.
            let value = echo(&crate::credentials::hide(&value));
            let reason = reason.to_string();
            return ConfigError::Invalid(if reason.contains(&value) {
                format!("{arg}: {reason}")
            } else {
                format!("{arg}='{value}' is not valid: {reason}")
            });
        }
    }
    let rendered = e.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    ConfigError::Invalid(first.trim_start_matches("error: ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const TOKEN: &str = "Mjg4NzYwMjQxMzYzODc3ODg4.C_ikow.j3VupLBuE1QWZng3TMGH0z_UAwg";

    fn read(vars: &[(&str, &str)]) -> Result<BotConfig, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        BotConfig::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_and_overrides() {
        let c = read(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert_eq!(c.database_url, "sqlite://tablut.db");
        assert_eq!(c.default_time_control, TimeControl::DEFAULT);
        assert_eq!(c.clock_interval, Duration::from_secs(60));
        assert_eq!(c.dev_guild, None);
        let (ours, service) = (c.service(), service::Config::default());
        assert_eq!(
            (
                ours.ai_time,
                ours.hint_time,
                ours.hint_cooldown,
                ours.challenge_ttl,
                ours.commands_per_minute,
                ours.costly_cooldown,
                ours.max_plies,
                ours.vacation_days_per_year,
                (ours.heavy_workers, ours.heavy_queue_limit),
                ours.open_challenges_per_user,
                ours.challenges_received,
                ours.challenges_received_window
            ),
            (
                service.ai_time,
                service.hint_time,
                service.hint_cooldown,
                service.challenge_ttl,
                service.commands_per_minute,
                service.costly_cooldown,
                service.max_plies,
                service.vacation_days_per_year,
                (service.heavy_workers, service.heavy_queue_limit),
                service.open_challenges_per_user,
                service.challenges_received,
                service.challenges_received_window
            ),
            "the settings' defaults are the service's"
        );
        let c = read(&[
            ("DISCORD_TOKEN", &format!(" {TOKEN} ")),
            ("DEV_GUILD_ID", "123"),
            ("AI_HARD_TIME_MS", "1500"),
            ("DEFAULT_TIME_CONTROL", "12h"),
            ("DISCORD_PROXY", "http://127.0.0.1:9/"),
            ("HINT_COOLDOWN_SECS", "  "),
        ])
        .unwrap();
        assert_eq!(c.token.as_str(), TOKEN);
        assert_eq!(c.dev_guild, Some(123));
        assert_eq!(c.service().ai_time[2], Duration::from_millis(1500));
        assert_eq!(c.service().hint_cooldown, Duration::from_secs(30));
        assert_eq!(c.default_time_control.to_string(), "12h");
        assert_eq!(c.proxy.as_deref(), Some("http://127.0.0.1:9"));
        assert!(
            !format!("{c:?}").contains(TOKEN),
            "the token is never printed"
        );
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason_in_one_line() {
        assert_eq!(read(&[]).unwrap_err(), ConfigError::MissingToken);
        assert_eq!(
            read(&[("DISCORD_TOKEN", "  ")]).unwrap_err(),
            ConfigError::MissingToken
        );
        assert_eq!(
            read(&[("DISCORD_TOKEN", "not-a-token")]).unwrap_err(),
            ConfigError::MalformedToken
        );
        let e = read(&[("DISCORD_TOKEN", TOKEN), ("DEV_GUILD_ID", "abc")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "DEV_GUILD_ID (--dev-guild)='abc' is not valid: write the server's numeric id"
        );
        let long = "9".repeat(10_000) + "x";
        let e = read(&[("DISCORD_TOKEN", TOKEN), ("CLOCK_INTERVAL_SECS", &long)])
            .unwrap_err()
            .to_string();
        assert!(e.len() < 200 && !e.contains('\n'), "{e}");
        assert!(
            e.contains(&format!("'{}…'", "9".repeat(crate::echo::ECHO_LIMIT))),
            "{e}"
        );
        for (name, value) in [
            ("DEFAULT_TIME_CONTROL", "soon"),
            ("DISCORD_PROXY", "localhost"),
            ("CLOCK_INTERVAL_SECS", "0"),
            // A queue of none would refuse every request for the AI: a queue is at least 1.
            ("AI_QUEUE_LIMIT", "0"),
            ("HEAVY_QUEUE_LIMIT", "0"),
            ("RUST_LOG", "info,[=x"),
        ] {
            let e = read(&[("DISCORD_TOKEN", TOKEN), (name, value)]).unwrap_err();
            assert!(
                matches!(&e, ConfigError::Invalid(m) if !m.contains('\n')),
                "{name}={value}: {e:?}"
            );
        }
    }

    #[test]
    fn a_plain_http_proxy_must_be_on_this_machine_or_allowed() {
        let proxy = |url: &str, allow: Option<&str>| {
            let mut vars = vec![("DISCORD_TOKEN", TOKEN), ("DISCORD_PROXY", url)];
            vars.extend(allow.map(|a| ("DISCORD_PROXY_ALLOW_HTTP", a)));
            read(&vars)
        };
        for local in [
            "http://127.0.0.1:3000",
            "http://127.8.9.10:3000/",
            "http://localhost:3000",
            "http://LOCALHOST",
            "http://[::1]:3000",
            "http://[::ffff:127.0.0.1]:3000",
            "https://proxy.example:8443",
            "https://10.0.0.5",
        ] {
            let c = proxy(local, None).unwrap_or_else(|e| panic!("{local}: {e}"));
            assert_eq!(c.proxy_in_clear(), None, "{local}");
        }
        for remote in [
            "http://10.0.0.5:3000",
            "http://proxy.example",
            "http://localhost.example.com",
            "http://[2001:db8::1]:3000",
            "http://128.0.0.1",
        ] {
            let host = reqwest::Url::parse(remote).unwrap();
            let host = host.host_str().unwrap();
            assert_eq!(
                proxy(remote, None).unwrap_err(),
                ConfigError::PlainHttpProxy(host.to_string()),
                "{remote}"
            );
            assert_eq!(
                proxy(remote, Some("false")).unwrap_err(),
                ConfigError::PlainHttpProxy(host.to_string())
            );
            let allowed = proxy(remote, Some("true")).unwrap();
            assert_eq!(allowed.proxy_in_clear().as_deref(), Some(host), "{remote}");
        }
        let e = proxy("http://10.0.0.5:3000", None).unwrap_err().to_string();
        assert!(
            !e.contains('\n')
                && e.contains("10.0.0.5")
                && e.contains("DISCORD_PROXY_ALLOW_HTTP=true"),
            "{e}"
        );
        assert!(matches!(
            proxy("http://10.0.0.5", Some("maybe")),
            Err(ConfigError::Invalid(_))
        ));
        assert!(matches!(
            proxy("http://", None),
            Err(ConfigError::Invalid(_))
        ));
    }

    #[test]
    fn shard_ranges_read_as_written_and_bad_ones_say_why() {
        let range = |first, last, total| ShardRange { first, last, total };
        for (text, want) in [
            ("0-3/8", range(0, 3, 8)),
            (" 4-7/8 ", range(4, 7, 8)),
            ("2/3", range(2, 2, 3)),
            ("0-0/1", range(0, 0, 1)),
        ] {
            assert_eq!(text.parse(), Ok(want), "{text}");
            assert_eq!(want.to_string().parse(), Ok(want), "{want} reads back");
        }
        assert_eq!(range(0, 3, 8).count(), 4);
        assert_eq!(read(&[("DISCORD_TOKEN", TOKEN)]).unwrap().shards, None);
        let c = read(&[("DISCORD_TOKEN", TOKEN), ("SHARDS", "1-2/4")]).unwrap();
        assert_eq!(c.shards, Some(range(1, 2, 4)));
        for (value, says) in [
            ("8", "write FIRST-LAST/TOTAL, like 0-3/8"),
            ("0-3", "write FIRST-LAST/TOTAL"),
            ("a-b/8", "write FIRST-LAST/TOTAL"),
            ("-1/8", "write FIRST-LAST/TOTAL"),
            ("0-3/0", "TOTAL is at least 1"),
            (
                "0-8/8",
                "there is no shard 8 in 8: shards are numbered 0 to 7",
            ),
            (
                "3/3",
                "there is no shard 3 in 3: shards are numbered 0 to 2",
            ),
            (
                "5-2/8",
                "the range runs backwards (5 after 2): write the lower shard first, like 2-5/8",
            ),
            ("0/99999999999", "at most 65536 shards"),
        ] {
            let e = read(&[("DISCORD_TOKEN", TOKEN), ("SHARDS", value)])
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("SHARDS (--shards)") && e.contains(says) && !e.contains('\n'),
                "{value}: {e}"
            );
        }
    }

    #[test]
    fn every_setting_has_a_variable_and_a_flag() {
        let vars = BotConfig::variables();
        assert!(vars.contains(&"DISCORD_TOKEN".to_string()));
        let command = BotConfig::augment_args(clap::Command::new("run"));
        for arg in command.get_arguments().filter(|a| a.get_id() != "help") {
            assert!(arg.get_env().is_some(), "{} has no variable", arg.get_id());
            assert!(arg.get_long().is_some(), "{} has no flag", arg.get_id());
        }
    }
}
