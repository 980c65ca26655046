//! A fake Discord on 127.0.0.1 for end-to-end tests of the real serenity/poise client: the REST
//! API (through `DISCORD_PROXY`) and the gateway (HELLO, IDENTIFY → READY and each guild's
//! GUILD_CREATE, heartbeats, RESUME → the missed dispatches and RESUMED), with a test API to
//! dispatch interactions and await what the bot sends back, and to make the gateway fail: an
//! abnormal close, a close code, heartbeats left unacknowledged, an invalid session.
//!
//! Shards: the fake has a shard count (1 unless [`FakeDiscord::set_shards`] says otherwise),
//! which `GET /gateway/bot` recommends and every IDENTIFY's `shard` array must give; each shard
//! has its own session. It has guilds ([`GUILD_ID`], and more with [`FakeDiscord::add_guild`]),
//! each with its channels: a guild's GUILD_CREATE and its interactions go only to shard
//! `(guild_id >> 22) % shards`, as on Discord (a direct message's to shard 0). A test targets a
//! guild by using one of its channels (a channel no guild names is [`GUILD_ID`]'s).
//!
//! Every request is checked against Discord's published contract ([`contract`]): a request with
//! no such route, or a body its schema refuses, is answered as Discord would (404, 400) and
//! recorded as a violation, and the test fails when its last handle on the fake is dropped.

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

#[path = "contract.rs"]
pub(crate) mod contract;

pub(crate) const APP_ID: u64 = 700_000_000_000_000_001;
pub(crate) const BOT_ID: u64 = 700_000_000_000_000_001;
pub(crate) const GUILD_ID: u64 = 800_000_000_000_000_001;
/// A token of the right shape (three dot-separated parts).
pub(crate) const TOKEN: &str =
    "NzAwMDAwMDAwMDAwMDAwMDAx.Gfake0.fake-token-for-tests-only-0123456789ab";

/// A request the bot made.
#[derive(Debug, Clone)]
pub(crate) struct BotRequest {
    pub index: usize,
    pub method: String,
    pub path: String,
    /// The JSON body (or a multipart request's `payload_json`); `Null` if none.
    pub json: Value,
    /// Attached files: (field name, file name, bytes).
    pub files: Vec<(String, String, Vec<u8>)>,
    /// The status the fake answered (0: held by a fault, no answer yet).
    pub status: u16,
    /// The message this request created, if it created one (not a failed request, nor a post
    /// whose nonce matched an earlier message).
    pub created: Option<u64>,
    /// When it arrived.
    pub at: std::time::Instant,
}

impl BotRequest {
    /// The message content the request carries, as a reader sees it: `content`, or
    /// `data.content` of an interaction callback, without the characters nothing displays (the
    /// word joiner and Unicode's tag characters, with which the bot marks its notices).
    pub(crate) fn content(&self) -> String {
        self.raw_content()
            .chars()
            .filter(|&c| c != '\u{2060}' && !('\u{E0000}'..='\u{E007F}').contains(&c))
            .collect()
    }

    /// The message content the request carries, every character as sent.
    pub(crate) fn raw_content(&self) -> String {
        self.json["content"]
            .as_str()
            .or_else(|| self.json["data"]["content"].as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// The channel the message's content names first (`<#id>`), such as a game's thread.
    pub(crate) fn channel_named(&self) -> u64 {
        let content = self.content();
        content
            .split("<#")
            .nth(1)
            .and_then(|s| s.split('>').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no channel named: {content}"))
    }

    /// Whether the message is ephemeral (flag 64).
    pub(crate) fn ephemeral(&self) -> bool {
        let flags = self.json["flags"]
            .as_u64()
            .or_else(|| self.json["data"]["flags"].as_u64())
            .unwrap_or(0);
        flags & 64 != 0
    }

    /// The callback type of an interaction response.
    pub(crate) fn callback_type(&self) -> Option<u64> {
        self.json["type"].as_u64()
    }

    /// The custom ids of the buttons in the message.
    pub(crate) fn button_ids(&self) -> Vec<String> {
        let components = if self.json["components"].is_array() {
            &self.json["components"]
        } else {
            &self.json["data"]["components"]
        };
        let mut out = Vec::new();
        for row in components.as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                if let Some(id) = c["custom_id"].as_str() {
                    out.push(id.to_string());
                }
            }
        }
        out
    }

    pub(crate) fn file(&self, suffix: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(_, name, _)| name.ends_with(suffix))
            .map(|(_, _, bytes)| bytes.as_slice())
    }
}

#[derive(Default)]
struct Inner {
    /// Files attached to commands, by attachment id, served as Discord's CDN serves them.
    attachments: Mutex<HashMap<u64, Vec<u8>>>,
    requests: Mutex<Vec<BotRequest>>,
    consumed: Mutex<HashSet<usize>>,
    arrived: Notify,
    /// The shard count and each shard's session.
    gateway: Mutex<Gateway>,
    /// Each guild's channels (threads included), and each channel's guild.
    guilds: Mutex<BTreeMap<u64, Vec<u64>>>,
    channel_guilds: Mutex<HashMap<u64, u64>>,
    /// The private channels: @everyone may not view them, the members listed may.
    private: Mutex<HashMap<u64, Vec<u64>>>,
    /// Each thread's parent channel.
    thread_parents: Mutex<HashMap<u64, u64>>,
    /// Each thread's name, as made.
    thread_names: Mutex<HashMap<u64, String>>,
    /// Every IDENTIFY's `shard` array, in order.
    identified: Mutex<Vec<[u32; 2]>>,
    resumes: AtomicU64,
    /// Heartbeats acknowledged, on every connection.
    heartbeat_acks: AtomicU64,
    ids: AtomicU64,
    reject_token: AtomicBool,
    identifies: AtomicU64,
    ws_url: Mutex<String>,
    /// Each interaction token's channel, for the messages its webhook calls return.
    channels: Mutex<std::collections::HashMap<String, u64>>,
    /// Requests that broke Discord's contract: method, path and why.
    violations: Mutex<Vec<String>>,
    /// Faults to inject, in the order they were set.
    faults: Mutex<Vec<FaultRule>>,
    /// Messages posted with `enforce_nonce`, by (channel, nonce).
    nonces: Mutex<std::collections::HashMap<(u64, String), Value>>,
    /// The message each interaction's answer created (or, for a button, updated), by token.
    answers: Mutex<std::collections::HashMap<String, u64>>,
    /// The message each button press was on, by the press's token.
    pressed: Mutex<std::collections::HashMap<String, u64>>,
    /// The interactions answered with a message for their caller alone, by token.
    ephemeral: Mutex<HashSet<String>>,
    /// The channels and threads deleted: requests to them answer 404 Unknown Channel.
    deleted: Mutex<HashSet<u64>>,
    /// The guilds the bot was removed from: requests to their channels answer 403 Missing
    /// Access.
    left: Mutex<HashSet<u64>>,
    /// When each interaction was dispatched (on the fake's clock), by token: its first response
    /// must arrive within 3 s, and its token lives 15 minutes.
    dispatched: Mutex<HashMap<String, std::time::Instant>>,
    /// How far the fake's clock is ahead of the real one ([`FakeDiscord::advance`]).
    ahead: Mutex<Duration>,
    /// The tokens the test made expire ([`FakeDiscord::expire_token`]).
    expired: Mutex<HashSet<String>>,
    /// The interactions that had their first response.
    responded: Mutex<HashSet<String>>,
    /// The interactions whose original response was deleted.
    deleted_originals: Mutex<HashSet<String>>,
    /// Each deferred interaction's visibility, by token: whether its acknowledgement (a
    /// deferred message, type 5, or a deferred update of a press, type 6) was for everyone.
    /// Discord gives the first follow-up after it the acknowledgement's visibility, whatever
    /// the follow-up's own flags (deleting the deferred answer before changes nothing), and
    /// honours a follow-up's flags only after the first.
    deferred: Mutex<HashMap<String, bool>>,
    /// The interactions whose first follow-up was sent.
    followed_up: Mutex<HashSet<String>>,
    /// The follow-ups (by the message they made) whose visibility Discord took from their
    /// acknowledgement: `true` public although they asked to be ephemeral (a violation: a
    /// private line shown to everyone), `false` ephemeral although they did not ask.
    forced: Mutex<HashMap<u64, bool>>,
    /// Follow-ups deleted (by their message's id).
    deleted_followups: Mutex<HashSet<u64>>,
    /// The application's commands as last registered, by guild (none: the global ones).
    commands: Mutex<HashMap<Option<u64>, Vec<Value>>>,
    /// Messages others posted ([`FakeDiscord::say`]): channel, message id, author, content.
    said: Mutex<Vec<(u64, u64, Value, String)>>,
    /// The rate limit of each channel's posts, when the test sets one
    /// ([`FakeDiscord::limit_posts`]): how many in how long, and each channel's window (its
    /// start and the posts counted in it).
    post_limit: Mutex<Option<(u32, Duration)>>,
    post_windows: Mutex<HashMap<u64, (std::time::Instant, u32)>>,
    /// Each member's direct channel with the bot, once opened (`POST /users/@me/channels`), by
    /// the member's id.
    dm_channels: Mutex<HashMap<u64, u64>>,
    /// The members who take no direct messages from the bot: a post in their direct channel
    /// answers 403 *Cannot send messages to this user* (50007), as Discord does.
    refusing_dms: Mutex<HashSet<u64>>,
}

/// The bot's first follow-up after a public acknowledgement, deleted at once, before a line
/// for the caller alone (Discord gives the first follow-up the acknowledgement's visibility).
pub(crate) const NOTHING_CHANGED: &str = "Nothing changed.";

/// How long Discord waits for an interaction's first response.
pub(crate) const FIRST_RESPONSE: Duration = Duration::from_secs(3);
/// How long an interaction's token lets the bot edit its response and follow it up.
pub(crate) const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60);

impl Inner {
    /// The messages the follow-ups of interaction `token` made so far.
    fn followups_of(&self, token: &str) -> Vec<u64> {
        let suffix = format!("/{token}");
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| {
                r.method == "POST" && r.path.contains("/webhooks/") && r.path.ends_with(&suffix)
            })
            .filter_map(|r| r.created)
            .collect()
    }

    /// A request's body as Discord took it: a follow-up whose visibility came from its
    /// acknowledgement (see `Inner::deferred`) with its flags as they were applied.
    fn as_taken(&self, id: u64, json: &Value) -> Value {
        let mut json = json.clone();
        if let Some(&public) = self.forced.lock().unwrap().get(&id) {
            let flags = json["flags"].as_u64().unwrap_or(0);
            json["flags"] = json!(if public { flags & !64 } else { flags | 64 });
        }
        json
    }

    /// The fake's clock: the real one, moved on by [`FakeDiscord::advance`].
    fn now(&self) -> std::time::Instant {
        std::time::Instant::now() + *self.ahead.lock().unwrap()
    }

    /// Whether interaction token `token` is past its life at `at` (or the test expired it).
    fn token_expired(&self, token: &str, at: std::time::Instant) -> bool {
        self.expired.lock().unwrap().contains(token)
            || self
                .dispatched
                .lock()
                .unwrap()
                .get(token)
                .is_some_and(|&d| at.duration_since(d) > TOKEN_LIFE)
    }
}

/// How the fake misbehaves for a request, the way Discord (or the way to it) can.
#[derive(Debug, Clone)]
pub(crate) enum Fault {
    /// Answer with this status and the body Discord gives for it: 403 Missing Permissions,
    /// 404 Unknown Channel, 500 (JSON), 502 (Cloudflare's HTML page), others plain JSON.
    Status(u16),
    /// Answer with this status and Discord's error body with this code and message
    /// (`{"code": 50035, "message": "Invalid Form Body"}`).
    Error {
        status: u16,
        code: u64,
        message: &'static str,
    },
    /// Answer with this status and no body, as a proxy or load balancer in front of Discord
    /// may: no Discord error code.
    Bare(u16),
    /// Hold the request until the gate opens ([`Gate::open`]), then do what was asked and
    /// answer; the gate counts the requests it holds ([`Gate::arrived`]).
    Gate(Gate),
    /// 429 with `retry_after` (seconds) and `global`, in the body and the headers.
    RateLimited { retry_after: f64, global: bool },
    /// Hold the request this long without answering (the client times out first); nothing is
    /// created.
    Hang(Duration),
    /// Do what was asked (create the message), then hold the answer this long: the client
    /// sees a failure although Discord took the request.
    Lost(Duration),
    /// Hold the request this long, then do what was asked and answer: a slow request (within
    /// the client's time-out, or the client gives up and may end it).
    Slow(Duration),
}

/// Holds requests (see [`Fault::Gate`]) until the test opens it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Gate {
    inner: Arc<GateInner>,
}

#[derive(Debug, Default)]
struct GateInner {
    held: AtomicU64,
    open: AtomicBool,
    changed: Notify,
}

impl Gate {
    pub(crate) fn new() -> Gate {
        Gate::default()
    }

    /// Waits (up to 20 s) until the gate has held `n` requests.
    pub(crate) async fn arrived(&self, n: u64) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let changed = self.inner.changed.notified();
            if self.inner.held.load(Ordering::SeqCst) >= n {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!("the gate held {} of {n} requests", self.held());
            }
        }
    }

    /// How many requests it has held.
    pub(crate) fn held(&self) -> u64 {
        self.inner.held.load(Ordering::SeqCst)
    }

    /// Lets every request held, and every later one, through.
    pub(crate) fn open(&self) {
        self.inner.open.store(true, Ordering::SeqCst);
        self.inner.changed.notify_waiters();
    }

    pub(crate) fn is_open(&self) -> bool {
        self.inner.open.load(Ordering::SeqCst)
    }

    async fn pass(&self) {
        self.inner.held.fetch_add(1, Ordering::SeqCst);
        self.inner.changed.notify_waiters();
        loop {
            let changed = self.inner.changed.notified();
            if self.is_open() {
                return;
            }
            changed.await;
        }
    }
}

#[derive(Debug, Clone)]
struct FaultRule {
    method: String,
    path_contains: String,
    remaining: usize,
    fault: Fault,
}

/// The gateway: the shard count, and each shard's session.
struct Gateway {
    /// What `GET /gateway/bot` recommends, and the `total` every IDENTIFY must give.
    shards: u32,
    /// Counts sessions, for their ids.
    serial: u64,
    sessions: BTreeMap<u32, GatewaySession>,
}

impl Default for Gateway {
    fn default() -> Gateway {
        Gateway {
            shards: 1,
            serial: 0,
            sessions: BTreeMap::new(),
        }
    }
}

impl Gateway {
    /// The session of shard `shard` (made empty if it has none yet: its dispatches are then
    /// dropped by the IDENTIFY that opens one, as Discord drops what no session received).
    fn session(&mut self, shard: u32) -> &mut GatewaySession {
        self.sessions.entry(shard).or_default()
    }

    /// Whether every shard has a session with a connection on it.
    fn all_connected(&self) -> bool {
        (0..self.shards).all(|s| self.sessions.get(&s).is_some_and(|g| g.tx.is_some()))
    }
}

/// A shard's gateway session: every dispatch with its sequence number, kept so that a RESUME
/// replays what the client missed, and the connection it is on, if any.
#[derive(Default)]
struct GatewaySession {
    /// Empty until an IDENTIFY opens it, and once invalidated.
    id: String,
    seq: u64,
    log: Vec<(u64, String)>,
    /// The connection dispatches go to now; `None`: they wait in the log for a RESUME.
    tx: Option<mpsc::UnboundedSender<String>>,
    /// That connection's controls, for the faults.
    control: Option<mpsc::UnboundedSender<Control>>,
}

impl GatewaySession {
    /// The next dispatch frame, logged.
    fn frame(&mut self, kind: &str, d: Value) -> String {
        self.seq += 1;
        let frame = json!({"op": 0, "t": kind, "s": self.seq, "d": d}).to_string();
        self.log.push((self.seq, frame.clone()));
        frame
    }
}

/// What a test makes the gateway connection do.
#[derive(Debug, Clone, Copy)]
enum Control {
    /// Close with this code, or (`None`) drop the connection without a close frame.
    Close(Option<u16>),
    /// Opcode 9 with `d`: whether the session may be resumed.
    InvalidSession(bool),
    /// Stop acknowledging heartbeats (a zombied connection).
    WithholdAcks,
}

/// Fails the test, when the test's last handle on the fake goes, if any request the bot sent
/// broke Discord's contract.
struct ContractGuard(Arc<Inner>);

impl Drop for ContractGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let violations = self.0.violations.lock().unwrap();
        assert!(
            violations.is_empty(),
            "the bot sent requests Discord would refuse:\n{}",
            violations.join("\n")
        );
    }
}

/// The fake Discord. Dropping it stops nothing: each test's runtime ends with the test. Dropping
/// its last handle checks the contract (see [`FakeDiscord::assert_contract`]).
#[derive(Clone)]
pub(crate) struct FakeDiscord {
    pub base_url: String,
    inner: Arc<Inner>,
    _contract: Arc<ContractGuard>,
}

/// Someone using a command or pressing a button.
#[derive(Debug, Clone)]
pub(crate) struct Who {
    pub id: u64,
    pub name: String,
    /// The member's permissions bit set (guild only), e.g. `"8192"` for Manage Messages.
    pub permissions: String,
    /// In a DM (no guild, no member).
    pub dm: bool,
    /// The member's nickname in the server, if they chose one (what Discord shows there
    /// instead of the name).
    pub nick: Option<String>,
}

impl Who {
    pub(crate) fn member(id: u64, name: &str) -> Who {
        Who {
            id,
            name: name.to_string(),
            permissions: "0".into(),
            dm: false,
            nick: None,
        }
    }
}

pub(crate) fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({"id": id.to_string(), "username": name, "global_name": name, "discriminator": "0",
           "avatar": null, "bot": bot})
}

impl FakeDiscord {
    /// The bot's settings against this fake: the token, `DISCORD_PROXY` pointing here, the
    /// database file `db` and the development guild, then `extra` (name, value) settings.
    pub(crate) fn bot_config(
        &self,
        db: &std::path::Path,
        extra: &[(&'static str, &'static str)],
    ) -> tablut_bot::bot::BotConfig {
        let url = format!("sqlite://{}", db.display());
        let base = self.base_url.clone();
        let extra = extra.to_vec();
        tablut_bot::bot::BotConfig::from_lookup(move |k| {
            Some(match k {
                "DISCORD_TOKEN" => TOKEN.to_string(),
                "DISCORD_PROXY" => base.clone(),
                "DATABASE_URL" => url.clone(),
                "DEV_GUILD_ID" => GUILD_ID.to_string(),
                _ => match extra.iter().find(|(name, _)| *name == k) {
                    Some((_, v)) => v.to_string(),
                    // The tests' users send commands far faster than people do: no per-user
                    // rate unless a test sets one.
                    None if k == "COMMANDS_PER_MINUTE" => "0".to_string(),
                    None => return None,
                },
            })
        })
        .expect("the test settings are valid")
    }

    pub(crate) async fn start() -> FakeDiscord {
        // The contract's document and validators are ready before anything is asked.
        tokio::task::spawn_blocking(contract::warm_up)
            .await
            .unwrap();
        let inner = Arc::new(Inner {
            ids: AtomicU64::new(1_000_000_000_000_000_000),
            guilds: Mutex::new(BTreeMap::from([(GUILD_ID, Vec::new())])),
            ..Inner::default()
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        *inner.ws_url.lock().unwrap() = format!("ws://{addr}/gateway");
        let app = Router::new()
            .route("/gateway", get(gateway))
            .route("/cdn/attachments/{id}/{name}", get(cdn_file))
            .fallback(rest)
            .with_state(inner.clone());
        // No Nagle delay on the fake's side: it would add up to 40 ms to small frames.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakeDiscord {
            base_url: format!("http://{addr}"),
            _contract: Arc::new(ContractGuard(inner.clone())),
            inner,
        }
    }

    /// The names of the application's commands as last registered in `guild` (none: the
    /// global ones).
    pub(crate) fn commands(&self, guild: Option<u64>) -> Vec<String> {
        let commands = self.inner.commands.lock().unwrap();
        let names = commands.get(&guild).into_iter().flatten();
        names
            .map(|c| c["name"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Registers commands named `names` in `guild` (none: globally), as a bot would.
    pub(crate) fn put_commands(&self, guild: Option<u64>, names: &[&str]) {
        let names: Vec<Value> = names.iter().map(|name| json!({"name": name})).collect();
        let first = self
            .inner
            .ids
            .fetch_add(names.len() as u64, Ordering::SeqCst);
        let commands = registered(&Value::Array(names), first);
        self.inner.commands.lock().unwrap().insert(guild, commands);
    }

    /// Sets the shard count (before any client connects): what `GET /gateway/bot` recommends
    /// and the `total` every IDENTIFY must give (fewer: close code 4011, sharding required;
    /// more, or a shard id past it: 4010, invalid shard).
    pub(crate) fn set_shards(&self, shards: u32) {
        assert!(shards >= 1);
        self.inner.gateway.lock().unwrap().shards = shards;
    }

    /// The shard count.
    pub(crate) fn shards(&self) -> u32 {
        self.inner.gateway.lock().unwrap().shards
    }

    /// The shard that receives guild `guild`'s events: `(guild_id >> 22) % shards`.
    pub(crate) fn shard_of(&self, guild: u64) -> u32 {
        shard_of(guild, self.shards())
    }

    /// Adds a guild with its channels (the bot joining it, or joining it again after
    /// [`FakeDiscord::remove_guild`]). A shard already connected for it
    /// gets its GUILD_CREATE at once; one that connects later, after its READY.
    pub(crate) fn add_guild(&self, guild: u64, channels: &[u64]) {
        self.inner.left.lock().unwrap().remove(&guild);
        self.inner
            .guilds
            .lock()
            .unwrap()
            .entry(guild)
            .or_default()
            .extend_from_slice(channels);
        let mut channel_guilds = self.inner.channel_guilds.lock().unwrap();
        for &channel in channels {
            channel_guilds.insert(channel, guild);
        }
        drop(channel_guilds);
        let mut gateway = self.inner.gateway.lock().unwrap();
        let shard = shard_of(guild, gateway.shards);
        if gateway.session(shard).tx.is_some() {
            let frame = guild_create(&self.inner, guild);
            dispatch_on(&mut gateway, shard, "GUILD_CREATE", frame);
        }
    }

    /// Adds a private channel to `guild`: @everyone may not view it, only `members` may (a
    /// permission overwrite each, as Discord keeps them). A connected shard is sent its
    /// CHANNEL_CREATE.
    pub(crate) fn add_private_channel(&self, guild: u64, channel: u64, members: &[u64]) {
        self.inner
            .private
            .lock()
            .unwrap()
            .insert(channel, members.to_vec());
        self.inner
            .guilds
            .lock()
            .unwrap()
            .entry(guild)
            .or_default()
            .push(channel);
        self.inner
            .channel_guilds
            .lock()
            .unwrap()
            .insert(channel, guild);
        let d = channel_json(&self.inner, guild, channel, 0);
        let mut gateway = self.inner.gateway.lock().unwrap();
        let shard = shard_of(guild, gateway.shards);
        if gateway.session(shard).tx.is_some() {
            dispatch_on(&mut gateway, shard, "CHANNEL_CREATE", d);
        }
    }

    /// Deletes a channel, as a server's admin does: a connected shard is sent its
    /// CHANNEL_DELETE and nothing for its threads (Discord deletes them with it and sends no
    /// THREAD_DELETE); from then on requests to the channel or its threads answer 404 Unknown
    /// Channel.
    pub(crate) fn delete_channel(&self, channel: u64) {
        let guild = self.guild_of(channel);
        let d = channel_json(&self.inner, guild, channel, 0);
        let threads: Vec<u64> = self
            .inner
            .thread_parents
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, &parent)| parent == channel)
            .map(|(&thread, _)| thread)
            .collect();
        let mut gone = threads;
        gone.push(channel);
        self.forget_channels(guild, &gone);
        self.dispatch("CHANNEL_DELETE", d);
    }

    /// Deletes a thread: a connected shard is sent its THREAD_DELETE (the id, guild, parent and
    /// type, as Discord sends it); requests to it answer 404 Unknown Channel.
    pub(crate) fn delete_thread(&self, thread: u64) {
        let guild = self.guild_of(thread);
        let parent = self
            .inner
            .thread_parents
            .lock()
            .unwrap()
            .get(&thread)
            .copied();
        let d = json!({"id": thread.to_string(), "guild_id": guild.to_string(),
            "parent_id": parent.unwrap_or(0).to_string(), "type": 11});
        self.forget_channels(guild, &[thread]);
        self.dispatch("THREAD_DELETE", d);
    }

    /// GUILD_DELETE for `guild`: with `unavailable`, an outage (nothing else changes, as on
    /// Discord, which sends GUILD_CREATE when it is over); without, the bot was removed from the
    /// guild (kicked, or the guild deleted): requests to its channels answer 403 Missing Access
    /// from then on.
    pub(crate) fn remove_guild(&self, guild: u64, unavailable: bool) {
        let d = match unavailable {
            true => json!({"id": guild.to_string(), "unavailable": true}),
            false => {
                self.inner.left.lock().unwrap().insert(guild);
                json!({"id": guild.to_string()})
            }
        };
        let mut gateway = self.inner.gateway.lock().unwrap();
        let shard = shard_of(guild, gateway.shards);
        dispatch_on(&mut gateway, shard, "GUILD_DELETE", d);
    }

    /// Takes deleted channels out of their guild.
    fn forget_channels(&self, guild: u64, channels: &[u64]) {
        self.inner.deleted.lock().unwrap().extend(channels);
        if let Some(list) = self.inner.guilds.lock().unwrap().get_mut(&guild) {
            list.retain(|c| !channels.contains(c));
        }
    }

    /// The guild a channel belongs to ([`GUILD_ID`] for a channel no guild names).
    pub(crate) fn guild_of(&self, channel: u64) -> u64 {
        guild_of(&self.inner, channel)
    }

    /// Every IDENTIFY's `shard` array (`[id, total]`; `[0, 1]` for one that gave none), in
    /// order.
    pub(crate) fn identified_shards(&self) -> Vec<[u32; 2]> {
        self.inner.identified.lock().unwrap().clone()
    }

    /// Whether shard `shard` has a session with a client connected on it.
    pub(crate) fn shard_connected(&self, shard: u32) -> bool {
        let gateway = self.inner.gateway.lock().unwrap();
        gateway.sessions.get(&shard).is_some_and(|g| g.tx.is_some())
    }

    /// Waits until shard `shard` has a client connected on it that has identified (or resumed).
    pub(crate) async fn wait_shard_ready(&self, shard: u32) {
        for _ in 0..800 {
            if self.shard_connected(shard) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("no client connected to shard {shard} of the fake gateway");
    }

    /// Makes the fake refuse the token (401 on REST, close code 4004 on the gateway).
    pub(crate) fn reject_token(&self) {
        self.inner.reject_token.store(true, Ordering::SeqCst);
    }

    /// Makes the fake accept the token again.
    pub(crate) fn accept_token(&self) {
        self.inner.reject_token.store(false, Ordering::SeqCst);
    }

    /// Makes the next `times` requests with this method whose path contains `path_contains`
    /// fail with `fault` (`usize::MAX`: from now on). Rules apply in the order they were set.
    pub(crate) fn fail(&self, method: &str, path_contains: &str, times: usize, fault: Fault) {
        self.inner.faults.lock().unwrap().push(FaultRule {
            method: method.to_string(),
            path_contains: path_contains.to_string(),
            remaining: times,
            fault,
        });
    }

    /// A message `author` (a user, or another bot) posts in `channel`: the channel's latest
    /// messages show it.
    pub(crate) fn say(&self, channel: u64, author: Value, content: &str) {
        let id = self.inner.ids.fetch_add(1, Ordering::SeqCst);
        let said = (channel, id, author, content.to_string());
        self.inner.said.lock().unwrap().push(said);
    }

    /// Makes `user` take no direct messages from the bot (their privacy settings): a post in
    /// their direct channel answers 403 with Discord's code 50007.
    pub(crate) fn refuse_dms(&self, user: u64) {
        self.inner.refusing_dms.lock().unwrap().insert(user);
    }

    /// `user`'s direct channel with the bot, once the bot opened it.
    pub(crate) fn dm_channel(&self, user: u64) -> Option<u64> {
        self.inner.dm_channels.lock().unwrap().get(&user).copied()
    }

    /// The direct messages `user` received (posts the fake took in their direct channel).
    pub(crate) fn dms_to(&self, user: u64) -> Vec<BotRequest> {
        match self.dm_channel(user) {
            Some(channel) => self.shown(channel),
            None => Vec::new(),
        }
    }

    /// The direct messages refused to `user` (50007), attempts counted.
    pub(crate) fn dms_refused_to(&self, user: u64) -> usize {
        let Some(channel) = self.dm_channel(user) else {
            return 0;
        };
        let posts = format!("/api/v10/channels/{channel}/messages");
        let requests = self.inner.requests.lock().unwrap();
        requests
            .iter()
            .filter(|r| r.method == "POST" && r.path == posts && r.status == 403)
            .count()
    }

    /// Limits the posts in each channel to `limit` in every `window`, as Discord's per-route
    /// buckets do: every post's answer states its bucket (`X-RateLimit-Bucket`, `-Limit`,
    /// `-Remaining`, `-Reset`, `-Reset-After`), and a post beyond the limit is refused with a
    /// 429 and its `retry_after`, nothing made.
    pub(crate) fn limit_posts(&self, limit: u32, window: Duration) {
        *self.inner.post_limit.lock().unwrap() = Some((limit, window));
    }

    /// Forgets every nonce, as Discord does a few minutes after a post: a post repeating one
    /// from now on makes a second message.
    pub(crate) fn forget_nonces(&self) {
        self.inner.nonces.lock().unwrap().clear();
    }

    /// Moves the fake's clock on by `by`: interactions dispatched before are that much older
    /// (their 3 s for a first response and their token's 15 minutes run on it).
    pub(crate) fn advance(&self, by: Duration) {
        *self.inner.ahead.lock().unwrap() += by;
    }

    /// Makes interaction `id`'s token expire now, as 15 minutes after it was dispatched: its
    /// callback, edits and follow-ups answer 401 *Invalid Webhook Token* from now on.
    pub(crate) fn expire_token(&self, id: u64) {
        self.inner
            .expired
            .lock()
            .unwrap()
            .insert(format!("token-{id}"));
    }

    /// Removes every fault still to be injected.
    pub(crate) fn clear_faults(&self) {
        self.inner.faults.lock().unwrap().clear();
    }

    /// The messages a channel shows, in order: posts that created a message (a repeated nonce
    /// creates none), follow-ups, and non-ephemeral interaction answers given there.
    pub(crate) fn shown(&self, channel: u64) -> Vec<BotRequest> {
        shown_in(&self.inner, channel)
    }

    pub(crate) fn next_id(&self) -> u64 {
        self.inner.ids.fetch_add(1, Ordering::SeqCst)
    }

    /// Waits for the next request not yet taken that matches, and takes it.
    pub(crate) async fn expect(
        &self,
        what: &str,
        pred: impl Fn(&BotRequest) -> bool,
    ) -> BotRequest {
        self.expect_within(what, Duration::from_secs(20), pred)
            .await
    }

    pub(crate) async fn expect_within(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&BotRequest) -> bool,
    ) -> BotRequest {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.inner.arrived.notified();
            {
                let requests = self.inner.requests.lock().unwrap();
                let mut consumed = self.inner.consumed.lock().unwrap();
                if let Some(r) = requests
                    .iter()
                    .find(|r| !consumed.contains(&r.index) && pred(r))
                {
                    consumed.insert(r.index);
                    return r.clone();
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let seen: Vec<String> = self
                    .inner
                    .requests
                    .lock()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        let body: String = r.json.to_string().chars().take(300).collect();
                        format!("{} {} {body}", r.method, r.path)
                    })
                    .collect();
                panic!(
                    "timed out waiting for {what}; requests so far:\n{}",
                    seen.join("\n")
                );
            }
        }
    }

    /// The response to interaction `id` (its callback).
    pub(crate) async fn callback(&self, id: u64) -> BotRequest {
        let prefix = format!("/api/v10/interactions/{id}/");
        self.expect(&format!("the callback of interaction {id}"), |r| {
            r.path.starts_with(&prefix)
        })
        .await
    }

    /// What interaction `id` shows: its response, when that is a message (or a press's message
    /// updated) or Discord did not take it; when it was deferred (type 5) or a press
    /// acknowledged (type 6), the first edit of its original response that took effect, or its
    /// first follow-up (a refusal, for its caller alone), past the bot's neutral first
    /// follow-up that it deletes before a private line ([`NOTHING_CHANGED`]).
    pub(crate) async fn answer(&self, id: u64) -> BotRequest {
        let response = self.callback(id).await;
        let token = format!("token-{id}");
        // A response Discord did not take (refused, or held and never done) shows nothing more.
        let taken = self.inner.responded.lock().unwrap().contains(&token);
        if !matches!(response.callback_type(), Some(5) | Some(6)) || !taken {
            return response;
        }
        self.expect(&format!("the answer of interaction {id}"), |r| {
            let parts: Vec<&str> = r.path.trim_start_matches("/api/v10/").split('/').collect();
            let edit = r.method == "PATCH"
                && matches!(parts.as_slice(), ["webhooks", _, t, "messages", "@original"] if *t == token);
            let followup =
                r.method == "POST" && matches!(parts.as_slice(), ["webhooks", _, t] if *t == token);
            (edit || followup) && r.created.is_some() && r.content() != NOTHING_CHANGED
        })
        .await
    }

    /// The edits of interaction `id`'s original response so far, whether they took effect or not.
    pub(crate) fn edits(&self, id: u64) -> Vec<BotRequest> {
        let original = format!("/token-{id}/messages/@original");
        self.requests()
            .into_iter()
            .filter(|r| r.method == "PATCH" && r.path.ends_with(&original))
            .collect()
    }

    /// A follow-up or edit of interaction `id`'s response.
    pub(crate) async fn followup(&self, id: u64) -> BotRequest {
        let token = format!("/token-{id}");
        self.expect(&format!("a follow-up of interaction {id}"), |r| {
            r.path.starts_with("/api/v10/webhooks/") && r.path.contains(&token) && r.method != "GET"
        })
        .await
    }

    /// A message posted in a channel.
    pub(crate) async fn channel_message(&self, channel: u64) -> BotRequest {
        let path = format!("/api/v10/channels/{channel}/messages");
        self.expect(&format!("a message in channel {channel}"), |r| {
            r.method == "POST" && r.path == path
        })
        .await
    }

    /// The requests so far that broke Discord's contract (method, path and why).
    pub(crate) fn violations(&self) -> Vec<String> {
        self.inner.violations.lock().unwrap().clone()
    }

    /// Takes the violations so far, for a test that sends them on purpose.
    pub(crate) fn take_violations(&self) -> Vec<String> {
        std::mem::take(&mut *self.inner.violations.lock().unwrap())
    }

    /// Fails if any request so far broke Discord's contract. Also done when the test's last
    /// handle on the fake is dropped, so no test can forget it.
    pub(crate) fn assert_contract(&self) {
        let violations = self.violations();
        assert!(
            violations.is_empty(),
            "the bot sent requests Discord would refuse:\n{}",
            violations.join("\n")
        );
    }

    /// Every request so far (taken or not).
    pub(crate) fn requests(&self) -> Vec<BotRequest> {
        self.inner.requests.lock().unwrap().clone()
    }

    /// How many times a client identified.
    pub(crate) fn identifies(&self) -> u64 {
        self.inner.identifies.load(Ordering::SeqCst)
    }

    /// Waits until every shard has a client connected that has identified (READY sent).
    pub(crate) async fn wait_ready(&self) {
        for _ in 0..1200 {
            if self.inner.gateway.lock().unwrap().all_connected() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("no client connected to every shard of the fake gateway");
    }

    /// How many times a client resumed its session.
    pub(crate) fn resumes(&self) -> u64 {
        self.inner.resumes.load(Ordering::SeqCst)
    }

    /// Heartbeats acknowledged so far, on every connection.
    pub(crate) fn heartbeat_acks(&self) -> u64 {
        self.inner.heartbeat_acks.load(Ordering::SeqCst)
    }

    /// Waits until `n` more heartbeats than `since` have been acknowledged.
    pub(crate) async fn wait_heartbeat_acks(&self, since: u64, n: u64) {
        // Not support::Waiting: the benchmarks include this file alone.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while self.heartbeat_acks() < since + n {
            assert!(
                std::time::Instant::now() < deadline,
                "waited 30 s in vain: heartbeats acknowledged"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Waits until the client has identified `identifies` times or resumed `resumes` times in
    /// all, and every shard is connected.
    pub(crate) async fn wait_reconnected(&self, identifies: u64, resumes: u64) {
        for _ in 0..800 {
            if (self.identifies() >= identifies || self.resumes() >= resumes)
                && self.inner.gateway.lock().unwrap().all_connected()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!(
            "the client did not come back: {} identifies, {} resumes",
            self.identifies(),
            self.resumes()
        );
    }

    /// Ends every shard's gateway connection: with a close frame of this code (4000: unknown
    /// error, resumable), or (`None`) abnormally, without one. Dispatches from now on wait in
    /// the session for a RESUME.
    pub(crate) fn close_gateway(&self, code: Option<u16>) {
        self.control(Control::Close(code));
    }

    /// Stops acknowledging the connection's heartbeats (a zombied connection): the client
    /// closes it and RESUMEs on a new one. Dispatches from now on wait in the session.
    pub(crate) fn withhold_heartbeat_acks(&self) {
        self.control(Control::WithholdAcks);
    }

    /// Forgets every shard's session, as Discord does once a session has expired: a RESUME is
    /// answered with INVALID_SESSION (`d: false`) and the client must IDENTIFY afresh. The
    /// connections stay as they are.
    pub(crate) fn expire_sessions(&self) {
        let mut gateway = self.inner.gateway.lock().unwrap();
        for session in gateway.sessions.values_mut() {
            session.id.clear();
        }
    }

    /// Sends INVALID_SESSION (opcode 9) with `d: false`: the session is gone, and the client
    /// must IDENTIFY afresh. What was dispatched in it and not delivered is lost, as on Discord.
    pub(crate) fn invalidate_session(&self) {
        self.control(Control::InvalidSession(false));
    }

    /// Takes every shard's connection out of service at once (dispatches from now on are kept
    /// for a RESUME) and tells it what to do.
    fn control(&self, what: Control) {
        let mut gateway = self.inner.gateway.lock().unwrap();
        for session in gateway.sessions.values_mut() {
            session.tx = None;
            if let Some(control) = session.control.take() {
                let _ = control.send(what);
            }
        }
    }

    /// Dispatches an event in the session of the shard that `d`'s guild is on (shard 0 for a
    /// direct message): at once to a connected client, else kept for its RESUME.
    fn dispatch(&self, kind: &str, d: Value) {
        let mut gateway = self.inner.gateway.lock().unwrap();
        let shard = match d["guild_id"].as_str().and_then(|g| g.parse().ok()) {
            Some(guild) => shard_of(guild, gateway.shards),
            None => 0,
        };
        dispatch_on(&mut gateway, shard, kind, d);
    }

    fn base(&self, kind: u64, who: &Who, channel: u64, data: Value) -> (u64, Value) {
        let id = self.next_id();
        self.inner
            .channels
            .lock()
            .unwrap()
            .insert(format!("token-{id}"), channel);
        let now = self.inner.now();
        self.inner
            .dispatched
            .lock()
            .unwrap()
            .insert(format!("token-{id}"), now);
        let mut d = json!({
            "type": kind, "id": id.to_string(), "application_id": APP_ID.to_string(),
            "token": format!("token-{id}"), "version": 1, "channel_id": channel.to_string(),
            "locale": "en-US", "entitlements": [], "attachment_size_limit": 26_214_400,
            "app_permissions": "2248473465835073", "data": data,
            "channel": {"id": channel.to_string(), "type": if who.dm { 1 } else { 0 }},
        });
        if who.dm {
            d["user"] = user_json(who.id, &who.name, false);
        } else {
            d["guild_id"] = json!(self.guild_of(channel).to_string());
            d["guild_locale"] = json!("en-US");
            d["member"] = json!({
                "user": user_json(who.id, &who.name, false), "roles": [], "deaf": false,
                "mute": false, "flags": 0, "joined_at": "2025-01-01T00:00:00+00:00",
                "permissions": who.permissions, "nick": who.nick,
            });
        }
        (id, d)
    }

    /// Dispatches a slash command `/name sub ...` with options; `users` are resolved user
    /// options (id, name, is_bot). Returns the interaction id.
    pub(crate) fn command(
        &self,
        who: &Who,
        channel: u64,
        name: &str,
        sub: Option<&str>,
        options: Value,
        users: &[(u64, &str, bool)],
    ) -> u64 {
        self.command_resolving(who, channel, name, sub, options, users, &[])
    }

    /// [`FakeDiscord::command`] whose options also name text channels: `channels` are resolved
    /// as Discord does (`data.resolved.channels`, partial channels by id).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn command_resolving(
        &self,
        who: &Who,
        channel: u64,
        name: &str,
        sub: Option<&str>,
        options: Value,
        users: &[(u64, &str, bool)],
        channels: &[u64],
    ) -> u64 {
        let options = match sub {
            Some(sub) => json!([{"name": sub, "type": 1, "options": options}]),
            None => options,
        };
        let mut resolved = json!({"users": {}, "members": {}});
        for (id, uname, bot) in users {
            resolved["users"][id.to_string()] = user_json(*id, uname, *bot);
        }
        for c in channels {
            resolved["channels"][c.to_string()] = json!({"id": c.to_string(),
                "name": format!("channel-{c}"), "type": 0, "permissions": "2248473465835073"});
        }
        let data =
            json!({"id": "1", "name": name, "type": 1, "options": options, "resolved": resolved});
        let (id, d) = self.base(2, who, channel, data);
        self.dispatch("INTERACTION_CREATE", d);
        id
    }

    /// [`FakeDiscord::command`] with a file attached as option `option` (type 11): the
    /// interaction's `resolved.attachments` name it, and its URL is served as Discord's CDN
    /// serves it (not a REST call: outside the contract and the recorded requests).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn command_with_file(
        &self,
        who: &Who,
        channel: u64,
        name: &str,
        sub: Option<&str>,
        mut options: Value,
        option: &str,
        file: (&str, &[u8]),
    ) -> u64 {
        let id = self.inner.ids.fetch_add(1, Ordering::SeqCst);
        self.inner
            .attachments
            .lock()
            .unwrap()
            .insert(id, file.1.to_vec());
        if let Some(list) = options.as_array_mut() {
            list.push(json!({"name": option, "type": 11, "value": id.to_string()}));
        }
        let options = match sub {
            Some(sub) => json!([{"name": sub, "type": 1, "options": options}]),
            None => options,
        };
        let url = format!("{}/cdn/attachments/{id}/{}", self.base_url, file.0);
        let attachment = json!({"id": id.to_string(), "filename": file.0, "size": file.1.len(),
            "url": url, "proxy_url": url, "content_type": "text/plain; charset=utf-8"});
        let resolved = json!({"users": {}, "members": {},
            "attachments": {id.to_string(): attachment}});
        let data =
            json!({"id": "1", "name": name, "type": 1, "options": options, "resolved": resolved});
        let (interaction, d) = self.base(2, who, channel, data);
        self.dispatch("INTERACTION_CREATE", d);
        interaction
    }

    /// `challenger` challenges `opponent` in `channel` to play the attackers (`extra`: more
    /// options) and the opponent presses Accept. Returns the challenge's answer and the press's
    /// outcome (the edit that follows when the press is acknowledged first).
    pub(crate) async fn challenge_accepted(
        &self,
        channel: u64,
        challenger: &Who,
        opponent: &Who,
        extra: Value,
    ) -> (BotRequest, BotRequest) {
        let mut options = vec![
            json!({"name": "opponent", "type": 6, "value": opponent.id.to_string()}),
            json!({"name": "side", "type": 4, "value": 0}),
        ];
        options.extend(extra.as_array().cloned().unwrap_or_default());
        let id = self.command(
            challenger,
            channel,
            "tablut",
            Some("challenge"),
            json!(options),
            &[(opponent.id, &opponent.name, false)],
        );
        let with_accept = |r: &BotRequest| {
            r.button_ids()
                .iter()
                .any(|b| b.starts_with("tablut:accept:"))
        };
        let challenge = self.answer(id).await;
        assert!(with_accept(&challenge), "{:?}", challenge.json);
        let accept = challenge
            .button_ids()
            .into_iter()
            .find(|b| b.starts_with("tablut:accept:"))
            .unwrap_or_else(|| panic!("no accept button: {:?}", challenge.json));
        let message = challenge.created.unwrap_or(1);
        let click = self.click(opponent, channel, message, &accept);
        // A press acknowledged first (a deferred update) shows its outcome in an edit.
        let answer = self.answer(click).await;
        (challenge, answer)
    }

    /// Dispatches an autocomplete request for `/name`'s focused option `option` with `typed`.
    pub(crate) fn autocomplete(
        &self,
        who: &Who,
        channel: u64,
        name: &str,
        option: &str,
        typed: &str,
    ) -> u64 {
        self.autocomplete_in(who, channel, name, &[], option, typed)
    }

    /// Dispatches an autocomplete request for a nested option of `/name`: `path` names the
    /// subcommand group (type 2) and subcommand (type 1) it is under, outermost first, as
    /// Discord nests them (`data.options = [{group, options: [{subcommand, options:
    /// [{option, focused}]}]}]`).
    pub(crate) fn autocomplete_in(
        &self,
        who: &Who,
        channel: u64,
        name: &str,
        path: &[(&str, u64)],
        option: &str,
        typed: &str,
    ) -> u64 {
        let mut options = json!([{"name": option, "type": 3, "value": typed, "focused": true}]);
        for (sub, kind) in path.iter().rev() {
            options = json!([{"name": sub, "type": kind, "options": options}]);
        }
        let data = json!({"id": "1", "name": name, "type": 1, "options": options});
        let (id, d) = self.base(4, who, channel, data);
        self.dispatch("INTERACTION_CREATE", d);
        id
    }

    /// Dispatches a button click on a message the bot sent (`message_id` in `channel`).
    pub(crate) fn click(&self, who: &Who, channel: u64, message_id: u64, custom_id: &str) -> u64 {
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let (id, mut d) = self.base(3, who, channel, data);
        d["message"] = message_json(message_id, channel, "", &json!({}));
        self.inner
            .pressed
            .lock()
            .unwrap()
            .insert(format!("token-{id}"), message_id);
        self.dispatch("INTERACTION_CREATE", d);
        id
    }
}

/// The messages a channel shows, in order (see [`FakeDiscord::shown`]).
fn shown_in(inner: &Inner, channel: u64) -> Vec<BotRequest> {
    let channels = inner.channels.lock().unwrap().clone();
    let posts = format!("/api/v10/channels/{channel}/messages");
    let in_channel = |path: &str| {
        path.trim_start_matches("/api/v10/")
            .split('/')
            .find(|part| part.starts_with("token-"))
            .and_then(|token| channels.get(token))
            == Some(&channel)
    };
    let requests = inner.requests.lock().unwrap().clone();
    let deleted = inner.deleted_originals.lock().unwrap().clone();
    let token_of = |path: &str| {
        path.trim_start_matches("/api/v10/")
            .split('/')
            .find(|part| part.starts_with("token-"))
            .map(str::to_string)
    };
    // The last edit that took effect on each interaction's original response.
    let mut edits: HashMap<String, BotRequest> = HashMap::new();
    // The interactions followed up: the first follow-up of a deferred response not yet edited
    // takes its place.
    let mut followed_up: HashSet<String> = HashSet::new();
    for r in &requests {
        let token = token_of(&r.path);
        if r.method == "PATCH" && r.path.ends_with("/messages/@original") && r.created.is_some() {
            if let Some(token) = token {
                edits.insert(token, r.clone());
            }
        } else if r.method == "POST" && r.path.contains("/webhooks/") && r.created.is_some() {
            if let Some(token) = token.filter(|t| !edits.contains_key(t)) {
                followed_up.insert(token);
            }
        }
    }
    let deleted_followups = inner.deleted_followups.lock().unwrap().clone();
    requests
        .into_iter()
        .filter(|r| {
            r.created.is_some()
                && !r.created.is_some_and(|m| deleted_followups.contains(&m))
                && !r.ephemeral()
                && r.method == "POST"
                && (r.path == posts
                    || (r.path.contains("/webhooks/") && in_channel(&r.path))
                    || (r.path.ends_with("/callback")
                        && matches!(r.callback_type(), Some(4) | Some(5))
                        && in_channel(&r.path)
                        && !token_of(&r.path).is_some_and(|t| {
                            deleted.contains(&t)
                                || (r.callback_type() == Some(5) && followed_up.contains(&t))
                        })))
        })
        .map(|mut r| {
            // A deferred response shows what its last edit made of it ("thinking" until then).
            if r.callback_type() == Some(5) {
                let edit = token_of(&r.path).and_then(|t| edits.get(&t));
                r.json = edit
                    .map(|e| e.json.clone())
                    .unwrap_or(json!({"content": ""}));
                r.files = edit.map(|e| e.files.clone()).unwrap_or_default();
            }
            r
        })
        .collect()
}

fn message_json(id: u64, channel: u64, content: &str, body: &Value) -> Value {
    json!({
        "id": id.to_string(), "channel_id": channel.to_string(),
        "author": user_json(BOT_ID, "tablut-bot", true), "content": content,
        "timestamp": "2026-11-22T12:00:00+00:00", "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "pinned": false, "type": 0,
        "components": body.get("components").cloned().unwrap_or(json!([])),
    })
}

async fn gateway(State(inner): State<Arc<Inner>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| session(inner, socket))
}

/// The shard that receives guild `guild`'s events, of `shards`: Discord's rule.
pub(crate) fn shard_of(guild: u64, shards: u32) -> u32 {
    ((guild >> 22) % u64::from(shards)) as u32
}

/// A guild id whose events go to shard `shard` of `shards`; `nth` tells several apart.
pub(crate) fn guild_on_shard(shard: u32, shards: u32, nth: u64) -> u64 {
    assert!(shard < shards);
    let shards = u64::from(shards);
    // A snowflake's time part (its top 42 bits) of late 2026, rounded down to a multiple of
    // the shard count, then moved on to the wanted shard.
    let time = 170_000_000_000u64;
    let time = time - time % shards + nth * shards + u64::from(shard);
    (time << 22) | 1
}

fn guild_of(inner: &Inner, channel: u64) -> u64 {
    inner
        .channel_guilds
        .lock()
        .unwrap()
        .get(&channel)
        .copied()
        .unwrap_or(GUILD_ID)
}

/// Dispatches an event in shard `shard`'s session: at once to its connection, else kept for a
/// RESUME.
fn dispatch_on(gateway: &mut Gateway, shard: u32, kind: &str, d: Value) {
    let session = gateway.session(shard);
    let frame = session.frame(kind, d);
    if let Some(tx) = session.tx.as_ref() {
        let _ = tx.send(frame);
    }
}

/// A guild's GUILD_CREATE, with its channels (the threads among them as the guild's threads).
fn guild_create(inner: &Inner, guild: u64) -> Value {
    let channels = inner
        .guilds
        .lock()
        .unwrap()
        .get(&guild)
        .cloned()
        .unwrap_or_default();
    let mut create = guild_json(guild, &[]);
    let (mut listed, mut threads) = (Vec::new(), Vec::new());
    for (i, &channel) in channels.iter().enumerate() {
        let c = channel_json(inner, guild, channel, i);
        match c["type"].as_u64() {
            Some(11) => threads.push(c),
            _ => listed.push(c),
        }
    }
    create["channels"] = Value::Array(listed);
    create["threads"] = Value::Array(threads);
    create
}

/// A channel of `guild` as Discord describes it: a text channel (a private one with its
/// overwrites), or a public thread with its parent.
fn channel_json(inner: &Inner, guild: u64, channel: u64, position: usize) -> Value {
    if let Some(parent) = inner.thread_parents.lock().unwrap().get(&channel) {
        return json!({
            "id": channel.to_string(), "type": 11, "guild_id": guild.to_string(),
            "parent_id": parent.to_string(), "name": thread_name(inner, channel),
            "owner_id": BOT_ID.to_string(), "position": 0, "permission_overwrites": [],
            "nsfw": false, "rate_limit_per_user": 0, "flags": 0, "last_message_id": null,
            "thread_metadata": {"archived": false, "auto_archive_duration": 1440,
                "archive_timestamp": "2026-11-22T12:00:00+00:00", "locked": false},
            "member_count": 1, "message_count": 0, "total_message_sent": 0,
        });
    }
    let overwrites: Vec<Value> =
        match inner.private.lock().unwrap().get(&channel) {
            None => Vec::new(),
            Some(members) => std::iter::once(
                json!({"id": guild.to_string(), "type": 0, "allow": "0", "deny": VIEW_CHANNEL}),
            )
            .chain(members.iter().map(
                |m| json!({"id": m.to_string(), "type": 1, "allow": VIEW_CHANNEL, "deny": "0"}),
            ))
            .collect(),
        };
    json!({"id": channel.to_string(), "type": 0, "guild_id": guild.to_string(),
        "name": format!("tablut-{position}"), "position": position,
        "permission_overwrites": overwrites, "nsfw": false, "rate_limit_per_user": 0,
        "flags": 0, "topic": null, "last_message_id": null, "parent_id": null})
}

/// The View Channel permission bit, as Discord writes permissions (a string).
const VIEW_CHANNEL: &str = "1024";

/// The @everyone role's permissions: Discord's defaults for a new server (View Channel, Send
/// Messages, Read Message History, Use Application Commands, ...).
const EVERYONE_PERMISSIONS: &str = "2248473465835073";

/// READY for shard `id` of `total` with its `guilds` (unavailable until their GUILD_CREATE);
/// the session's id and resume URL are placeholders the fake fills in.
pub(crate) fn ready_json(id: u32, total: u32, guilds: &[u64]) -> Value {
    json!({
        "v": 10, "user": user_json(BOT_ID, "tablut-bot", true),
        "guilds": guilds.iter().map(|g| json!({"id": g.to_string(), "unavailable": true}))
            .collect::<Vec<_>>(),
        "session_id": "", "resume_gateway_url": "", "shard": [id, total],
        "application": {"id": APP_ID.to_string(), "flags": 0},
        "private_channels": [], "relationships": [],
    })
}

/// A GUILD_CREATE's guild with these text channels.
pub(crate) fn guild_json(guild: u64, channels: &[u64]) -> Value {
    let channels: Vec<Value> = channels
        .iter()
        .enumerate()
        .map(|(i, &channel)| {
            json!({"id": channel.to_string(), "type": 0, "guild_id": guild.to_string(),
                "name": format!("tablut-{i}"), "position": i, "permission_overwrites": [],
                "nsfw": false, "rate_limit_per_user": 0, "flags": 0, "topic": null,
                "last_message_id": null, "parent_id": null})
        })
        .collect();
    let guild = json!({
        "id": guild.to_string(), "name": format!("Guild {guild}"), "icon": null,
        "icon_hash": null, "splash": null, "discovery_splash": null,
        "owner_id": "1", "afk_channel_id": null, "afk_timeout": 300,
        "widget_enabled": false, "widget_channel_id": null, "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0,
        "roles": [{"id": guild.to_string(), "name": "@everyone", "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false, "icon": null, "unicode_emoji": null, "position": 0,
            "permissions": EVERYONE_PERMISSIONS, "managed": false, "mentionable": false,
            "flags": 0}],
        "emojis": [], "features": [], "mfa_level": 0, "application_id": null,
        "system_channel_id": null, "system_channel_flags": 0, "rules_channel_id": null,
        "max_presences": null, "max_members": 500000, "vanity_url_code": null,
        "description": null, "banner": null, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": "en-US",
        "public_updates_channel_id": null, "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50, "nsfw_level": 0, "stickers": [],
        "premium_progress_bar_enabled": false, "safety_alerts_channel_id": null,
    });
    // The fields only GUILD_CREATE has (one json! for all would pass its recursion limit).
    let create = json!({
        "joined_at": "2026-11-01T12:00:00+00:00", "large": false, "unavailable": false,
        "member_count": 3, "voice_states": [], "members": [], "channels": channels,
        "threads": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "incidents_data": null,
    });
    let mut guild = guild;
    for (key, value) in create.as_object().unwrap() {
        guild[key] = value.clone();
    }
    guild
}

/// One gateway connection: HELLO, then the shard it identifies (or resumes) as.
async fn session(inner: Arc<Inner>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let (control_tx, mut control) = mpsc::unbounded_channel::<Control>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 500}}).to_string();
    if sink.send(WsMessage::Text(hello.into())).await.is_err() {
        return;
    }
    let mut acknowledge = true;
    // The shard this connection serves, once it has identified or resumed.
    let mut serving: Option<u32> = None;
    loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(out) = out else { break };
                if sink.send(WsMessage::Text(out.into())).await.is_err() {
                    break;
                }
            }
            what = control.recv() => {
                match what {
                    Some(Control::Close(Some(code))) => {
                        let frame = axum::extract::ws::CloseFrame {
                            code,
                            reason: "closed by the test".into(),
                        };
                        let _ = sink.send(WsMessage::Close(Some(frame))).await;
                        break;
                    }
                    // Dropping the socket ends the TCP connection with no close frame.
                    Some(Control::Close(None)) | None => break,
                    Some(Control::InvalidSession(resumable)) => {
                        if let (false, Some(shard)) = (resumable, serving) {
                            inner.gateway.lock().unwrap().session(shard).id.clear();
                        }
                        let frame = json!({"op": 9, "d": resumable}).to_string();
                        if sink.send(WsMessage::Text(frame.into())).await.is_err() {
                            break;
                        }
                    }
                    Some(Control::WithholdAcks) => acknowledge = false,
                }
            }
            msg = stream.next() => {
                let Some(Ok(msg)) = msg else { break };
                let text = match msg {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Binary(b) => String::from_utf8_lossy(&b).to_string(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                let op = v["op"].as_u64();
                if op == Some(1) {
                    if acknowledge {
                        let ack = json!({"op": 11}).to_string();
                        if sink.send(WsMessage::Text(ack.into())).await.is_err() {
                            break;
                        }
                        inner.heartbeat_acks.fetch_add(1, Ordering::SeqCst);
                    }
                    continue;
                }
                if !matches!(op, Some(2) | Some(6)) {
                    continue;
                }
                if inner.reject_token.load(Ordering::SeqCst)
                    || v["d"]["token"].as_str().map(|t| t.trim_start_matches("Bot ")) != Some(TOKEN)
                {
                    let _ = sink
                        .send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                            code: 4004,
                            reason: "Authentication failed.".into(),
                        })))
                        .await;
                    break;
                }
                match open_session(&inner, &v, &tx, &control_tx) {
                    Opened::Shard(shard) => serving = Some(shard),
                    // An unknown or invalidated session cannot be resumed.
                    Opened::NotResumable => {
                        let frame = json!({"op": 9, "d": false}).to_string();
                        if sink.send(WsMessage::Text(frame.into())).await.is_err() {
                            break;
                        }
                    }
                    Opened::Refused(code, reason) => {
                        let frame = axum::extract::ws::CloseFrame { code, reason: reason.into() };
                        let _ = sink.send(WsMessage::Close(Some(frame))).await;
                        break;
                    }
                }
            }
        }
    }
    let mut gateway = inner.gateway.lock().unwrap();
    if let Some(shard) = serving {
        let session = gateway.session(shard);
        if session.tx.as_ref().is_some_and(|g| g.same_channel(&tx)) {
            session.tx = None;
            session.control = None;
        }
    }
}

/// What an IDENTIFY or a RESUME came to.
enum Opened {
    /// The connection serves this shard now.
    Shard(u32),
    /// A RESUME of a session that is not a shard's current one.
    NotResumable,
    /// An IDENTIFY whose `shard` array does not fit the fake's count: close with this code.
    Refused(u16, &'static str),
}

/// Answers an IDENTIFY (`op` 2: a new session for the shard its `shard` array names, READY
/// first, then its guilds' GUILD_CREATE) or a RESUME (`op` 6: the session's missed dispatches
/// in order, then RESUMED) on the connection `tx`, and makes it the one the shard's dispatches
/// go to.
fn open_session(
    inner: &Inner,
    v: &Value,
    tx: &mpsc::UnboundedSender<String>,
    control: &mpsc::UnboundedSender<Control>,
) -> Opened {
    let mut gateway = inner.gateway.lock().unwrap();
    let shard = if v["op"] == 6 {
        let asked = v["d"]["session_id"].as_str().unwrap_or_default();
        let Some((&shard, session)) = gateway
            .sessions
            .iter_mut()
            .find(|(_, s)| !s.id.is_empty() && s.id == asked)
        else {
            return Opened::NotResumable;
        };
        let after = v["d"]["seq"].as_u64().unwrap_or(0);
        for (_, frame) in session.log.iter().filter(|(s, _)| *s > after) {
            let _ = tx.send(frame.clone());
        }
        let resumed = session.frame("RESUMED", json!({}));
        let _ = tx.send(resumed);
        inner.resumes.fetch_add(1, Ordering::SeqCst);
        shard
    } else {
        let asked = &v["d"]["shard"];
        let [id, total] = match (asked[0].as_u64(), asked[1].as_u64()) {
            (Some(id), Some(total)) => [id, total].map(|n| n.min(u64::from(u32::MAX)) as u32),
            _ => [0, 1],
        };
        inner.identified.lock().unwrap().push([id, total]);
        if total < gateway.shards {
            return Opened::Refused(4011, "Sharding required.");
        }
        if total > gateway.shards || id >= total {
            return Opened::Refused(4010, "Invalid shard.");
        }
        gateway.serial += 1;
        let session_id = format!("fake-session-{}", gateway.serial);
        let guilds: Vec<u64> = inner
            .guilds
            .lock()
            .unwrap()
            .keys()
            .copied()
            .filter(|&g| shard_of(g, total) == id)
            .collect();
        let session = gateway.session(id);
        session.id = session_id;
        session.seq = 0;
        session.log.clear();
        let mut ready = ready_json(id, total, &guilds);
        ready["session_id"] = json!(session.id);
        ready["resume_gateway_url"] = json!(*inner.ws_url.lock().unwrap());
        let ready = session.frame("READY", ready);
        let _ = tx.send(ready);
        for guild in guilds {
            let frame = session.frame("GUILD_CREATE", guild_create(inner, guild));
            let _ = tx.send(frame);
        }
        inner.identifies.fetch_add(1, Ordering::SeqCst);
        id
    };
    let session = gateway.session(shard);
    session.tx = Some(tx.clone());
    session.control = Some(control.clone());
    Opened::Shard(shard)
}

/// A file attached to a command, as Discord's CDN serves it.
async fn cdn_file(
    State(inner): State<Arc<Inner>>,
    axum::extract::Path((id, _name)): axum::extract::Path<(u64, String)>,
) -> Response {
    match inner.attachments.lock().unwrap().get(&id) {
        Some(bytes) => bytes.clone().into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn rest(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    // When it reached Discord, on the fake's clock: an interaction's 3 s and its token's life
    // are measured to here, however long the request is then held.
    let arrived = inner.now();
    let multipart = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/"));
    let mut json = Value::Null;
    let mut files = Vec::new();
    // What the contract check sees: whether a body came, and whether it parsed.
    let mut parsed = true;
    let mut payload_sent = false;
    let empty;
    if multipart {
        empty = false;
        if let Ok(mut form) = Multipart::from_request(req, &()).await {
            while let Ok(Some(field)) = form.next_field().await {
                let name = field.name().unwrap_or_default().to_string();
                let file_name = field.file_name().map(str::to_string);
                let bytes: Bytes = field.bytes().await.unwrap_or_default();
                if name == "payload_json" {
                    payload_sent = true;
                    json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                    parsed = !json.is_null();
                } else {
                    files.push((name, file_name.unwrap_or_default(), bytes.to_vec()));
                }
            }
        }
    } else {
        let bytes = axum::body::to_bytes(req.into_body(), 64 << 20)
            .await
            .unwrap_or_default();
        empty = bytes.is_empty();
        match serde_json::from_slice(&bytes) {
            Ok(v) => json = v,
            Err(_) => parsed = false,
        }
    }
    // Checked off the runtime's threads: a route's first check compiles its validator, which
    // must not hold up the gateway's heartbeats on the same runtime.
    let verdict = {
        let (method, path, json) = (method.to_string(), path.clone(), json.clone());
        let parts: Vec<String> = files.iter().map(|(name, _, _)| name.clone()).collect();
        tokio::task::spawn_blocking(move || {
            let body = match (multipart, empty) {
                (true, _) => contract::Body::Multipart {
                    payload: payload_sent.then_some(parsed.then_some(&json)),
                    parts,
                },
                (false, true) => contract::Body::Empty,
                (false, false) => contract::Body::Json(parsed.then_some(&json)),
            };
            contract::check(&method, &path, &body)
        })
        .await
        .unwrap()
    };
    let rejected = inner.reject_token.load(Ordering::SeqCst);
    let id = inner.ids.fetch_add(1, Ordering::SeqCst);
    let fault = take_fault(&inner, &method, &path);
    let at = std::time::Instant::now();
    let record = |status: u16, created: Option<u64>| {
        let mut requests = inner.requests.lock().unwrap();
        let index = requests.len();
        requests.push(BotRequest {
            index,
            method: method.to_string(),
            path: path.clone(),
            json: inner.as_taken(id, &json),
            files: files.clone(),
            status,
            created,
            at,
        });
        drop(requests);
        inner.arrived.notify_waiters();
    };
    if let Err(v) = &verdict {
        inner
            .violations
            .lock()
            .unwrap()
            .push(format!("{method} {path}: {}", v.reason));
        let status = StatusCode::from_u16(v.status).unwrap_or(StatusCode::BAD_REQUEST);
        let code = if v.status == 400 { 50035 } else { 0 };
        record(status.as_u16(), None);
        return (status, Json(json!({"message": v.reason, "code": code}))).into_response();
    }
    if let Some(response) = out_of_reach(&inner, &path) {
        record(response.status().as_u16(), None);
        return response;
    }
    let limit = post_bucket(&inner, &method, &path);
    if let Some(Bucket { left: None, .. }) = &limit {
        record(429, None);
        return limit.unwrap().answer(None);
    }
    match fault {
        None => {
            let (response, created) = answer(&inner, &method, &path, &json, id, rejected, arrived);
            record(response.status().as_u16(), created);
            match limit {
                Some(bucket) => bucket.answer(Some(response)),
                None => response,
            }
        }
        Some(Fault::Hang(hold)) => {
            record(0, None);
            tokio::time::sleep(hold).await;
            StatusCode::GATEWAY_TIMEOUT.into_response()
        }
        Some(Fault::Lost(hold)) => {
            let (response, created) = answer(&inner, &method, &path, &json, id, rejected, arrived);
            record(0, created);
            tokio::time::sleep(hold).await;
            response
        }
        Some(Fault::Slow(hold)) => {
            tokio::time::sleep(hold).await;
            let (response, created) = answer(&inner, &method, &path, &json, id, rejected, arrived);
            record(response.status().as_u16(), created);
            response
        }
        Some(Fault::Gate(gate)) => {
            gate.pass().await;
            let (response, created) = answer(&inner, &method, &path, &json, id, rejected, arrived);
            record(response.status().as_u16(), created);
            response
        }
        Some(Fault::Status(status)) => {
            record(status, None);
            error_response(status)
        }
        Some(Fault::Error {
            status,
            code,
            message,
        }) => {
            record(status, None);
            discord_error(status, code, message)
        }
        Some(Fault::Bare(status)) => {
            record(status, None);
            StatusCode::from_u16(status).unwrap().into_response()
        }
        Some(Fault::RateLimited {
            retry_after,
            global,
        }) => {
            record(429, None);
            let mut response = (
                StatusCode::TOO_MANY_REQUESTS,
                Json(json!({"message": "You are being rate limited.",
                    "retry_after": retry_after, "global": global})),
            )
                .into_response();
            let headers = response.headers_mut();
            headers.insert(
                "retry-after",
                retry_after.ceil().to_string().parse().unwrap(),
            );
            headers.insert(
                "x-ratelimit-scope",
                if global { "global" } else { "user" }.parse().unwrap(),
            );
            if global {
                headers.insert("x-ratelimit-global", "true".parse().unwrap());
            }
            response
        }
    }
}

/// A post's place in its channel's bucket ([`FakeDiscord::limit_posts`]).
struct Bucket {
    limit: u32,
    /// The posts the window has left after this one; none: refused.
    left: Option<u32>,
    reset_after: Duration,
}

/// The bucket a request counts against, if it is a post in a channel whose posts are limited
/// (and counted in it).
fn post_bucket(inner: &Inner, method: &Method, path: &str) -> Option<Bucket> {
    let (limit, window) = (*inner.post_limit.lock().unwrap())?;
    let rest = path.strip_prefix("/api/v10/channels/")?;
    let channel: u64 = rest.strip_suffix("/messages")?.parse().ok()?;
    if method != Method::POST {
        return None;
    }
    let now = std::time::Instant::now();
    let mut windows = inner.post_windows.lock().unwrap();
    let (start, used) = windows.entry(channel).or_insert((now, 0));
    if now.duration_since(*start) >= window {
        (*start, *used) = (now, 0);
    }
    let reset_after = window.saturating_sub(now.duration_since(*start));
    let left = (*used < limit).then(|| {
        *used += 1;
        limit - *used
    });
    Some(Bucket {
        limit,
        left,
        reset_after,
    })
}

impl Bucket {
    /// `response` with the bucket's headers, as Discord sends them; none: the 429 that refuses
    /// the post.
    fn answer(self, response: Option<Response>) -> Response {
        let after = self.reset_after.as_secs_f64();
        let mut response = response.unwrap_or_else(|| {
            let body = json!({"message": "You are being rate limited.", "retry_after": after,
                "global": false, "code": 0});
            (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response()
        });
        let reset = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64()
            + after;
        let headers = response.headers_mut();
        let mut set = |name: &'static str, value: String| {
            headers.insert(name, value.parse().unwrap());
        };
        set("x-ratelimit-bucket", "channel-posts".into());
        set("x-ratelimit-limit", self.limit.to_string());
        set("x-ratelimit-remaining", self.left.unwrap_or(0).to_string());
        set("x-ratelimit-reset", format!("{reset:.3}"));
        set("x-ratelimit-reset-after", format!("{after:.3}"));
        if self.left.is_none() {
            set("retry-after", after.ceil().to_string());
            set("x-ratelimit-scope", "user".into());
        }
        response
    }
}

/// 404 *Unknown Channel* for a request to a channel that was deleted (or a thread of one), 403
/// *Missing Access* for one to a channel of a guild the bot was removed from; none otherwise.
fn out_of_reach(inner: &Inner, path: &str) -> Option<Response> {
    let rest = path.strip_prefix("/api/v10/channels/")?;
    let channel: u64 = rest.split('/').next()?.parse().ok()?;
    if inner.deleted.lock().unwrap().contains(&channel) {
        return Some(discord_error(404, 10003, "Unknown Channel"));
    }
    let guild = guild_of(inner, channel);
    let left = inner.left.lock().unwrap().contains(&guild);
    left.then(|| discord_error(403, 50001, "Missing Access"))
}

/// Commands as Discord keeps them once registered: each with its id (from `first_id` on), the
/// application's id and a version.
fn registered(body: &Value, first_id: u64) -> Vec<Value> {
    body.as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, c)| {
            let mut c = c.clone();
            c["id"] = json!((first_id + i as u64).to_string());
            c["application_id"] = json!(APP_ID.to_string());
            c["version"] = json!("1");
            if c.get("type").is_none() {
                c["type"] = json!(1);
            }
            if c.get("description").is_none() {
                c["description"] = json!("");
            }
            c
        })
        .collect()
}

/// Discord's error answer: the status, and the body with its JSON error code.
fn discord_error(status: u16, code: u64, message: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap();
    (status, Json(json!({"message": message, "code": code}))).into_response()
}

/// The fault to inject for this request, if one matches (and counts it).
fn take_fault(inner: &Inner, method: &Method, path: &str) -> Option<Fault> {
    let mut faults = inner.faults.lock().unwrap();
    let rule = faults.iter_mut().find(|f| {
        f.remaining > 0 && f.method == method.as_str() && path.contains(&f.path_contains)
    })?;
    rule.remaining -= 1;
    Some(rule.fault.clone())
}

/// What Discord (or Cloudflare in front of it) answers with a failing status.
fn error_response(status: u16) -> Response {
    let code = StatusCode::from_u16(status).unwrap();
    let body = match status {
        403 => json!({"message": "Missing Permissions", "code": 50013}),
        404 => json!({"message": "Unknown Channel", "code": 10003}),
        502 => {
            return (
                code,
                [("content-type", "text/html")],
                "<html><head><title>502 Bad Gateway</title></head></html>",
            )
                .into_response()
        }
        _ => json!({"message": format!("{status}: {}", code.canonical_reason().unwrap_or("")),
            "code": 0}),
    };
    (code, Json(body)).into_response()
}

fn answer(
    inner: &Inner,
    method: &Method,
    path: &str,
    body: &Value,
    id: u64,
    rejected: bool,
    arrived: std::time::Instant,
) -> (Response, Option<u64>) {
    let parts: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    // An interaction's first response must come within 3 s of its dispatch, and only once; its
    // token serves edits and follow-ups for 15 minutes.
    match parts.as_slice() {
        ["interactions", _, token, "callback"] => {
            let dispatched = inner.dispatched.lock().unwrap().get(*token).copied();
            let late = dispatched.is_some_and(|d| arrived.duration_since(d) > FIRST_RESPONSE);
            if late || inner.expired.lock().unwrap().contains(*token) {
                return (discord_error(404, 10062, "Unknown interaction"), None);
            }
            if !inner.responded.lock().unwrap().insert(token.to_string()) {
                let message = "Interaction has already been acknowledged.";
                return (discord_error(400, 40060, message), None);
            }
            let public = body["data"]["flags"].as_u64().unwrap_or(0) & 64 == 0;
            match body["type"].as_u64() {
                Some(5) => {
                    inner
                        .deferred
                        .lock()
                        .unwrap()
                        .insert(token.to_string(), public);
                }
                Some(6) => {
                    inner
                        .deferred
                        .lock()
                        .unwrap()
                        .insert(token.to_string(), true);
                }
                _ => {}
            }
        }
        ["webhooks", _, token, ..] if inner.token_expired(token, arrived) => {
            return (discord_error(401, 50027, "Invalid Webhook Token"), None);
        }
        // The first follow-up after a deferred acknowledgement takes the acknowledgement's
        // visibility, whatever its own flags (Discord's documented rule; deleting or editing
        // the deferred answer first changes nothing): one meant for its caller alone after a
        // public acknowledgement shows to everyone.
        ["webhooks", _, token] if method == Method::POST => {
            let deferred = inner.deferred.lock().unwrap().get(*token).copied();
            let first = inner.followed_up.lock().unwrap().insert(token.to_string());
            if let (Some(public), true) = (deferred, first) {
                let asked_private = body["flags"].as_u64().unwrap_or(0) & 64 != 0;
                if public && asked_private {
                    inner.violations.lock().unwrap().push(format!(
                        "POST {path}: a private follow-up, the first after a public \
                         acknowledgement, takes its visibility and shows to everyone"
                    ));
                }
                if public == asked_private {
                    inner.forced.lock().unwrap().insert(id, public);
                }
            }
        }
        // A follow-up deleted.
        ["webhooks", _, token, "messages", message] if method == Method::DELETE => {
            if let (Ok(message), false) = (message.parse::<u64>(), *message == "@original") {
                let ours = inner.followups_of(token).contains(&message);
                if !ours {
                    return (discord_error(404, 10008, "Unknown Message"), None);
                }
                inner.deleted_followups.lock().unwrap().insert(message);
                return (StatusCode::NO_CONTENT.into_response(), None);
            }
        }
        _ => {}
    }
    // A direct message to a member who takes none.
    if let ("POST", ["channels", ch, "messages"]) = (method.as_str(), parts.as_slice()) {
        let channel: u64 = ch.parse().unwrap_or(1);
        let dms = inner.dm_channels.lock().unwrap();
        let to = dms
            .iter()
            .find(|(_, &c)| c == channel)
            .map(|(&user, _)| user);
        drop(dms);
        if to.is_some_and(|user| inner.refusing_dms.lock().unwrap().contains(&user)) {
            let message = "Cannot send messages to this user";
            return (discord_error(403, 50007, message), None);
        }
    }
    if rejected && !path.contains("/interactions/") && !path.contains("/webhooks/") {
        return (
            (
                StatusCode::UNAUTHORIZED,
                Json(json!({"message": "401: Unauthorized", "code": 0})),
            )
                .into_response(),
            None,
        );
    }
    let created = match (method.as_str(), path.ends_with("/callback")) {
        ("POST", true) if matches!(body["type"].as_u64(), Some(4) | Some(5)) => Some(id),
        _ => None,
    };
    // A post with a nonce seen in the channel (with enforce_nonce) returns that message and
    // creates none, as Discord does.
    if let ("POST", ["channels", ch, "messages"], Some(nonce), Some(true)) = (
        method.as_str(),
        parts.as_slice(),
        body["nonce"].as_str(),
        body["enforce_nonce"].as_bool(),
    ) {
        let channel: u64 = ch.parse().unwrap_or(1);
        let mut nonces = inner.nonces.lock().unwrap();
        if let Some(message) = nonces.get(&(channel, nonce.to_string())) {
            return (Json(message.clone()).into_response(), None);
        }
        let mut message = message_json(id, channel, body["content"].as_str().unwrap_or(""), body);
        message["nonce"] = json!(nonce);
        nonces.insert((channel, nonce.to_string()), message.clone());
        return (Json(message).into_response(), Some(id));
    }
    let creates = method == Method::POST
        && matches!(
            parts.as_slice(),
            ["channels", _, "messages"] | ["webhooks", _, _]
        );
    let created = created.or(creates.then_some(id));
    let response = match (method.as_str(), parts.as_slice()) {
        ("GET", ["gateway"]) | ("GET", ["gateway", "bot"]) => {
            let url = inner.ws_url.lock().unwrap().clone();
            let shards = inner.gateway.lock().unwrap().shards;
            Json(json!({"url": url, "shards": shards, "session_start_limit":
                {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}))
            .into_response()
        }
        ("GET", ["oauth2", "applications", "@me"]) => Json(json!({
            "id": APP_ID.to_string(), "name": "tablut-bot", "description": "", "icon": null,
            "bot_public": true, "bot_require_code_grant": false, "verify_key": "00",
            "owner": user_json(1, "owner", false), "flags": 0,
        }))
        .into_response(),
        ("GET", ["users", "@me"]) => Json(user_json(BOT_ID, "tablut-bot", true)).into_response(),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            let commands = registered(body, id);
            let scope = match parts.as_slice() {
                ["applications", _, "guilds", guild, "commands"] => guild.parse().ok(),
                _ => None,
            };
            inner
                .commands
                .lock()
                .unwrap()
                .insert(scope, commands.clone());
            Json(Value::Array(commands)).into_response()
        }
        ("GET", ["applications", _, "commands"])
        | ("GET", ["applications", _, "guilds", _, "commands"]) => {
            let scope = match parts.as_slice() {
                ["applications", _, "guilds", guild, "commands"] => guild.parse().ok(),
                _ => None,
            };
            let commands = inner.commands.lock().unwrap().get(&scope).cloned();
            Json(Value::Array(commands.unwrap_or_default())).into_response()
        }
        ("POST", ["interactions", _, token, "callback"]) => {
            // A button's message updated in place (type 7) is its answer.
            let updated = (body["type"].as_u64() == Some(7))
                .then(|| inner.pressed.lock().unwrap().get(*token).copied())
                .flatten();
            if let Some(message) = created.or(updated) {
                inner
                    .answers
                    .lock()
                    .unwrap()
                    .insert(token.to_string(), message);
            }
            if created.is_some() && body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0 {
                inner.ephemeral.lock().unwrap().insert(token.to_string());
            }
            StatusCode::NO_CONTENT.into_response()
        }
        // The answer as shown, if the interaction was answered with a message; before a
        // button's answer, the message it is on, with its buttons.
        ("GET", ["webhooks", _, token, "messages", "@original"]) => {
            let answer = inner.answers.lock().unwrap().get(*token).copied();
            let pressed = inner.pressed.lock().unwrap().get(*token).copied();
            let channel = inner.channels.lock().unwrap().get(*token).copied();
            let flags = match inner.ephemeral.lock().unwrap().contains(*token) {
                true => 64,
                false => 0,
            };
            match (answer, pressed, channel) {
                (Some(message), _, Some(channel)) => {
                    let mut shown = message_json(message, channel, "", &json!({}));
                    shown["flags"] = json!(flags);
                    Json(shown).into_response()
                }
                (None, Some(message), Some(channel)) => {
                    let buttons = json!({"components": [{"type": 1, "components": [
                        {"type": 2, "style": 1, "label": "Accept", "custom_id": "tablut:x:1"}]}]});
                    Json(message_json(message, channel, "", &buttons)).into_response()
                }
                _ => (
                    StatusCode::NOT_FOUND,
                    Json(json!({"message": "Unknown Message", "code": 10008})),
                )
                    .into_response(),
            }
        }
        // A channel of the guild that names it (the client asks when a channel is not in its
        // cache): a text channel (a private one with its overwrites), or a thread.
        ("GET", ["channels", ch]) => {
            let channel: u64 = ch.parse().unwrap_or(1);
            let guild = guild_of(inner, channel);
            Json(channel_json(inner, guild, channel, 0)).into_response()
        }
        // A channel's latest messages, newest first. Like Discord after its first minutes,
        // without their nonces.
        ("GET", ["channels", ch, "messages"]) => {
            let channel: u64 = ch.parse().unwrap_or(1);
            let mut messages: Vec<(u64, Value)> = shown_in(inner, channel)
                .iter()
                .map(|r| {
                    let id = r.created.unwrap_or(0);
                    (id, message_json(id, channel, &r.raw_content(), &json!({})))
                })
                .collect();
            for (ch, id, author, content) in inner.said.lock().unwrap().iter() {
                if *ch == channel {
                    let mut message = message_json(*id, channel, content, &json!({}));
                    message["author"] = author.clone();
                    messages.push((*id, message));
                }
            }
            messages.sort_by_key(|(id, _)| std::cmp::Reverse(*id));
            let latest = messages.into_iter().take(100).map(|(_, m)| m).collect();
            Json(Value::Array(latest)).into_response()
        }
        (_, ["webhooks", _, _, ..])
        | ("POST", ["channels", _, "messages"])
        | ("PATCH", ["channels", _, "messages", _]) => {
            let channel = match parts.as_slice() {
                ["channels", ch, ..] => ch.parse().unwrap_or(1),
                ["webhooks", _, token, ..] => inner
                    .channels
                    .lock()
                    .unwrap()
                    .get(*token)
                    .copied()
                    .unwrap_or(1),
                _ => 1,
            };
            let mut mid = match parts.as_slice() {
                ["channels", _, "messages", m] => m.parse().unwrap_or(id),
                _ => id,
            };
            if let (m @ ("PATCH" | "DELETE"), ["webhooks", _, token, "messages", "@original"]) =
                (method.as_str(), parts.as_slice())
            {
                // The original response: the message a response made, or the pressed message
                // once a press is answered; none before, or once deleted.
                let mut answers = inner.answers.lock().unwrap();
                let original = answers.get(*token).copied().or_else(|| {
                    let responded = inner.responded.lock().unwrap().contains(*token);
                    let pressed = inner.pressed.lock().unwrap().get(*token).copied();
                    pressed.filter(|_| responded)
                });
                let deleted = inner.deleted_originals.lock().unwrap().contains(*token);
                let Some(original) = original.filter(|_| !deleted) else {
                    return (discord_error(404, 10008, "Unknown Message"), None);
                };
                if m == "DELETE" {
                    answers.remove(*token);
                    inner
                        .deleted_originals
                        .lock()
                        .unwrap()
                        .insert(token.to_string());
                    return (StatusCode::NO_CONTENT.into_response(), None);
                }
                answers.insert(token.to_string(), original);
                mid = original;
                let content = body["content"].as_str().unwrap_or_default();
                let message = message_json(mid, channel, content, body);
                return (Json(message).into_response(), Some(original));
            }
            let content = body["content"].as_str().unwrap_or_default();
            Json(message_json(mid, channel, content, body)).into_response()
        }
        // A member's direct channel with the bot: the same one every time.
        ("POST", ["users", "@me", "channels"]) => {
            let user = match &body["recipient_id"] {
                Value::String(id) => id.parse().unwrap_or(0),
                id => id.as_u64().unwrap_or(0),
            };
            let dm = *inner.dm_channels.lock().unwrap().entry(user).or_insert(id);
            Json(json!({
                "id": dm.to_string(), "type": 1, "last_message_id": null, "flags": 0,
                "recipients": [user_json(user, "member", false)],
            }))
            .into_response()
        }
        // The guild's threads not deleted (none is ever archived here).
        ("GET", ["guilds", guild, "threads", "active"]) => {
            let guild: u64 = guild.parse().unwrap_or(0);
            let deleted = inner.deleted.lock().unwrap().clone();
            let mut threads: Vec<u64> = inner
                .thread_parents
                .lock()
                .unwrap()
                .keys()
                .copied()
                .filter(|t| guild_of(inner, *t) == guild && !deleted.contains(t))
                .collect();
            threads.sort_unstable();
            let threads: Vec<Value> = threads
                .into_iter()
                .map(|t| channel_json(inner, guild, t, 0))
                .collect();
            Json(json!({"threads": threads, "members": []})).into_response()
        }
        ("POST", ["channels", parent, "threads"]) => {
            if let Some(name) = body["name"].as_str() {
                inner
                    .thread_names
                    .lock()
                    .unwrap()
                    .insert(id, name.to_string());
            }
            thread_made(inner, parent, id, body)
        }
        _ => StatusCode::NO_CONTENT.into_response(),
    };
    (response, created)
}

/// The answer to a thread made: thread `id` of channel `parent`, as `body` asked.
fn thread_made(inner: &Inner, parent: &str, id: u64, body: &Value) -> Response {
    Json(json!({
        "id": id.to_string(), "type": 11,
        "guild_id": thread_in(inner, parent.parse().unwrap_or(0), id).to_string(),
        "parent_id": parent, "name": body["name"].as_str().unwrap_or("game"),
        "owner_id": BOT_ID.to_string(), "position": 0, "permission_overwrites": [],
        "nsfw": false, "rate_limit_per_user": 0, "flags": 0,
        "thread_metadata": {"archived": false, "auto_archive_duration": 1440,
            "archive_timestamp": "2026-11-22T12:00:00+00:00", "locked": false},
        "member_count": 1, "message_count": 0, "total_message_sent": 0,
    }))
    .into_response()
}

/// Thread `thread`'s name as made (`game-` and its id if none was given).
fn thread_name(inner: &Inner, thread: u64) -> String {
    let names = inner.thread_names.lock().unwrap();
    names
        .get(&thread)
        .cloned()
        .unwrap_or(format!("game-{thread}"))
}

/// A thread `thread` made in channel `parent`: it belongs to the parent's guild (returned).
fn thread_in(inner: &Inner, parent: u64, thread: u64) -> u64 {
    let guild = guild_of(inner, parent);
    inner.channel_guilds.lock().unwrap().insert(thread, guild);
    inner.thread_parents.lock().unwrap().insert(thread, parent);
    if let Some(channels) = inner.guilds.lock().unwrap().get_mut(&guild) {
        channels.push(thread);
    }
    guild
}
