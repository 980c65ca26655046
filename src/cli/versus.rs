//! `tablut-bot versus`: the AI plays a match against another tafl program, run as a separate
//! process from a path, both colours from a fixed set of openings, at equal time per move.
//!
//! Two protocols: the OpenTafl Engine Protocol (`otep`: the other program is an engine on
//! stdin/stdout, as `OpenTafl --engine` is) and the hnefatafl text protocol of hnefatafl.org's
//! engine (`htp`: the other program connects to us over TCP on 127.0.0.1, as
//! `hnefatafl-text-protocol --ai basic --host 127.0.0.1` does, and answers `generate_move`).
//! This program is the referee: every move is checked by its own rules engine, and a move it
//! finds illegal ends the game as a disagreement, counted apart. A side that takes longer than
//! `--timeout-s` for a move loses on time, also counted apart. `--cores` pins our search and the
//! other program to a core each, `--peer-seconds-flag` tells the other program the same time
//! per move, and `--our-time-share` gives ours a fraction of it.

use super::common::CliError;
use super::out;
use super::selfplay::{elo_text, openings, Tally};
use crate::ai::{self, Level, Searcher, Weights};
use crate::tafl::{write_position, Game, Move, Outcome, Side, Variant};
use clap::{Args, ValueEnum};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The other program's protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Protocol {
    /// OpenTafl Engine Protocol on the program's stdin and stdout.
    Otep,
    /// hnefatafl.org's text protocol: the program connects to us over TCP.
    Htp,
}

#[derive(Debug, Args)]
pub(super) struct VersusArgs {
    /// The game: brandubh, copenhagen, copenhagen13 or tablut.
    #[arg(long, default_value = "copenhagen")]
    pub variant: Variant,
    /// The other program's protocol.
    #[arg(long, value_enum)]
    pub protocol: Protocol,
    /// The other program's path.
    #[arg(long)]
    pub program: PathBuf,
    /// An argument for the other program (repeat for several).
    #[arg(long = "arg", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// The other program's working directory.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// How many openings (the start, then two seeded plies from it); each is played twice,
    /// the colours swapped.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=500))]
    pub openings: u64,
    /// The time per move, in milliseconds: ours (times `--our-time-share`) and, with
    /// `--peer-seconds-flag`, the other program's; 0 gives ours the other program's mean time
    /// per move so far.
    #[arg(long, default_value_t = 0)]
    pub time_ms: u64,
    /// Our first move's time when matching the other's (before it has moved).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub initial_ms: u64,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    pub max_plies: u64,
    /// The TCP port the `htp` program connects to (hnefatafl-text-protocol uses 49152).
    #[arg(long, default_value_t = 49152)]
    pub port: u16,
    /// Seconds to wait for the other program's move before it forfeits the game.
    #[arg(long, default_value_t = 600)]
    pub timeout_s: u64,
    /// Our transposition table, in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
    /// Play only these games (numbers from 1, comma-separated), to resume a match.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<usize>,
    /// Two cores, `OURS,THEIRS`: our AI's search runs on the first, the other program on the
    /// second (Linux scheduler affinity; the other program inherits it and its children too).
    #[arg(long, value_delimiter = ',', num_args = 1)]
    pub cores: Vec<usize>,
    /// Our share of `--time-ms` (or of the other program's mean time when matching it), from
    /// 0.001 to 1: 0.1 gives our AI a tenth of the other's time per move.
    #[arg(long, default_value_t = 1.0)]
    pub our_time_share: f64,
    /// The other program's option that sets its time per move in whole seconds (`--seconds`
    /// for hnefatafl-text-protocol's `monte-carlo` AI): `versus` passes it `--time-ms` / 1000,
    /// so both programs are given the same time.
    #[arg(long, allow_hyphen_values = true)]
    pub peer_seconds_flag: Option<String>,
}

impl VersusArgs {
    /// Checks the options that depend on each other: one clear line for a bad combination.
    fn check(&self) -> Result<(), String> {
        if !(0.001..=1.0).contains(&self.our_time_share) {
            return Err(format!(
                "--our-time-share must be from 0.001 to 1, not {}",
                self.our_time_share
            ));
        }
        if let Some(flag) = &self.peer_seconds_flag {
            if self.time_ms == 0 || !self.time_ms.is_multiple_of(1000) {
                return Err(format!(
                    "{flag} takes whole seconds: --time-ms must be a positive multiple of 1000 with --peer-seconds-flag, not {}",
                    self.time_ms
                ));
            }
        }
        match self.cores.as_slice() {
            [] => {}
            [a, b] if a != b => {}
            [_, _] => return Err("--cores needs two different cores, ours then the other's".into()),
            _ => return Err("--cores takes two cores, ours then the other's: --cores 0,1".into()),
        }
        Ok(())
    }

    /// The other program's arguments: `--arg`s, then the time flag and its seconds.
    fn program_args(&self) -> Vec<String> {
        let mut a = self.args.clone();
        if let Some(flag) = &self.peer_seconds_flag {
            a.push(flag.clone());
            a.push((self.time_ms / 1000).to_string());
        }
        a
    }

    /// Our time for a move given the other's time (`--time-ms`, or its mean so far).
    fn our_budget(&self, theirs_ms: u64) -> Duration {
        Duration::from_millis(((theirs_ms as f64 * self.our_time_share).round() as u64).max(1))
    }

    /// Starts the other program, on its core when `--cores` names one.
    fn spawn(&self, cmd: &mut Command) -> Result<Child, String> {
        let started = match self.cores.get(1) {
            // A child inherits the affinity of the thread that starts it: a thread of its own,
            // pinned to the other's core, starts it.
            Some(&core) => std::thread::scope(|s| {
                s.spawn(|| {
                    pin_this_thread(core)?;
                    cmd.spawn().map_err(|e| e.to_string())
                })
                .join()
                .unwrap_or_else(|_| Err("the starting thread failed".into()))
            }),
            None => cmd.spawn().map_err(|e| e.to_string()),
        };
        started.map_err(|e| format!("cannot start {}: {e}", self.program.display()))
    }
}

/// Pins the calling thread to one core (threads it starts afterwards inherit the pin).
#[cfg(target_os = "linux")]
fn pin_this_thread(core: usize) -> Result<(), String> {
    if core >= libc::CPU_SETSIZE as usize {
        return Err(format!("cannot pin to core {core}: no such core"));
    }
    // SAFETY: `set` is a plain bit set, zeroed then filled by the libc macros within its size
    // (checked above); `sched_setaffinity` only reads it, and `0` names the calling thread.
    let ok = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "cannot pin to core {core}: {}",
            std::io::Error::last_os_error()
        ))
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_this_thread(core: usize) -> Result<(), String> {
    Err(format!("cannot pin to core {core}: --cores needs Linux"))
}

/// How one game ended, from our side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
    /// The referee found the other's move illegal, or the other refused ours or stopped: the
    /// rules of the two programs differ there. Counted apart.
    Disagreement,
    /// The other program gave no move within `--timeout-s`: its loss on time. Counted apart.
    WinOnTime,
    /// Our move took longer than `--timeout-s`: our loss on time. Counted apart.
    LossOnTime,
}

impl Score {
    /// The column of the match's table.
    fn column(self) -> usize {
        match self {
            Score::Win => 0,
            Score::Draw => 1,
            Score::Loss => 2,
            Score::Disagreement => 3,
            Score::WinOnTime => 4,
            Score::LossOnTime => 5,
        }
    }
}

/// Why the other program gave no move.
#[derive(Debug, Clone, PartialEq, Eq)]
enum NoMove {
    /// It resigned (`htp`'s `play … resigns _`).
    Resigned,
    /// It did not answer within the time-out.
    TimedOut,
    /// It stopped, or answered something that is no move.
    Failed(String),
}

impl std::fmt::Display for NoMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoMove::Resigned => f.write_str("resigned"),
            NoMove::TimedOut => f.write_str("timed out"),
            NoMove::Failed(why) => f.write_str(why),
        }
    }
}

/// The other program, ready for a game.
trait Opponent {
    /// Tells it a move made by us (or an opening move).
    fn tell(&mut self, mv: Move, mover: Side) -> Result<(), String>;
    /// Asks it for its move as `side`.
    fn ask(&mut self, side: Side) -> Result<String, NoMove>;
}

/// Lines from a reader, on a thread, so a read can time out.
fn line_channel<R: std::io::Read + Send + 'static>(r: R) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    rx
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// The OpenTafl rules record of a variant's start, as OpenTafl reads it.
pub(super) fn rules_record(variant: Variant) -> String {
    let start = write_position(&crate::tafl::Position::start_of(variant));
    match variant {
        Variant::Brandubh => format!("dim:7 name:Brandubh atkf:y ks:c start:{start}"),
        Variant::Copenhagen => {
            format!("dim:11 name:Copenhagen atkf:y ks:s sw:s efe:y start:{start}")
        }
        Variant::Copenhagen13 => {
            format!("dim:13 name:Copenhagen atkf:y ks:s sw:s efe:y start:{start}")
        }
        Variant::Tablut => format!("dim:9 name:Tablut atkf:y esc:e ks:c linc:y start:{start}"),
    }
}

struct Otep {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    timeout: Duration,
}

impl Otep {
    fn start(args: &VersusArgs, variant: Variant) -> Result<Otep, String> {
        let mut cmd = Command::new(&args.program);
        cmd.args(args.program_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &args.dir {
            cmd.current_dir(d);
        }
        let mut child = args.spawn(&mut cmd)?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let lines = line_channel(child.stdout.take().ok_or("no stdout")?);
        let mut o = Otep {
            child,
            stdin,
            lines,
            timeout: Duration::from_secs(args.timeout_s),
        };
        o.wait_for(|l| l.starts_with("hello"), Duration::from_secs(60))
            .map_err(|e| format!("waiting for its hello: {e}"))?;
        o.send(&format!("rules {}", rules_record(variant)))?;
        Ok(o)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("the engine has gone: {e}"))
    }

    fn wait_for(&mut self, want: impl Fn(&str) -> bool, t: Duration) -> Result<String, NoMove> {
        let deadline = Instant::now() + t;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if want(l.trim()) => return Ok(l.trim().to_string()),
                Ok(l) if l.trim_start().starts_with("error -1") => {
                    return Err(NoMove::Failed(format!("the engine reports: {}", l.trim())))
                }
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => return Err(NoMove::TimedOut),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(NoMove::Failed("the engine stopped".into()))
                }
            }
        }
    }
}

impl Opponent for Otep {
    fn tell(&mut self, mv: Move, _mover: Side) -> Result<(), String> {
        self.send(&format!("opponent-move {mv}"))
    }

    fn ask(&mut self, side: Side) -> Result<String, NoMove> {
        self.send(&format!("play {}", side_word(side)))
            .map_err(NoMove::Failed)?;
        let line = self.wait_for(|l| l.starts_with("move "), self.timeout)?;
        Ok(line["move ".len()..].trim().to_string())
    }
}

impl Drop for Otep {
    fn drop(&mut self) {
        let _ = self.send("goodbye");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Htp {
    child: Child,
    stream: TcpStream,
    lines: Receiver<String>,
    timeout: Duration,
}

impl Htp {
    fn start(args: &VersusArgs, listener: &TcpListener, variant: Variant) -> Result<Htp, String> {
        let mut cmd = Command::new(&args.program);
        cmd.args(args.program_args())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(d) = &args.dir {
            cmd.current_dir(d);
        }
        let mut child = args.spawn(&mut cmd)?;
        // Wait for its connection, giving up if it exits first.
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + Duration::from_secs(60);
        let stream = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if let Ok(Some(status)) = child.try_wait() {
                        return Err(format!("the program exited ({status}) before connecting"));
                    }
                    if Instant::now() > deadline {
                        let _ = child.kill();
                        return Err("the program did not connect within 60 s".into());
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(e.to_string()),
            }
        };
        stream.set_nonblocking(false).map_err(|e| e.to_string())?;
        let lines = line_channel(stream.try_clone().map_err(|e| e.to_string())?);
        let mut h = Htp {
            child,
            stream,
            lines,
            timeout: Duration::from_secs(args.timeout_s),
        };
        h.send(&format!("board_size {}", variant.size()))?;
        Ok(h)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stream, "{line}")
            .and_then(|_| self.stream.flush())
            .map_err(|e| format!("the program has gone: {e}"))
    }
}

fn role_word(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

impl Opponent for Htp {
    fn tell(&mut self, mv: Move, mover: Side) -> Result<(), String> {
        self.send(&format!("play {} {} {}", role_word(mover), mv.from, mv.to))
    }

    fn ask(&mut self, side: Side) -> Result<String, NoMove> {
        self.send("generate_move").map_err(NoMove::Failed)?;
        match self.lines.recv_timeout(self.timeout) {
            Ok(l) => htp_reply(&l, side),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(NoMove::TimedOut),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(NoMove::Failed("the program stopped".into()))
            }
        }
    }
}

/// The move in an `htp` program's answer to `generate_move` (`play attacker k8 k9`), or
/// [`NoMove::Resigned`] for its resignation (`play defender resigns _`).
fn htp_reply(line: &str, side: Side) -> Result<String, NoMove> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["play", _, "resigns", ..] => Err(NoMove::Resigned),
        ["play", role, from, to] if *role == role_word(side) => Ok(format!("{from}-{to}")),
        _ => Err(NoMove::Failed(format!(
            "unexpected answer '{}'",
            line.trim()
        ))),
    }
}

impl Drop for Htp {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Running totals of time per move, in milliseconds.
#[derive(Default)]
struct Clock {
    ours_ms: u128,
    ours_n: u128,
    theirs_ms: u128,
    theirs_n: u128,
}

/// How one game of a match went: the score, why it ended, its plies and its moves.
type Played = (Score, String, usize, Vec<Move>);

/// A game that ends before the rules end it, with the moves played so far.
fn stopped(score: Score, why: String, game: &Game) -> Played {
    (
        score,
        why,
        game.moves().len(),
        game.moves().iter().map(|r| r.mv).collect(),
    )
}

/// One game: our AI plays `ours` after `opening`. The score, the reason, the plies and the
/// moves.
fn play_one(
    args: &VersusArgs,
    variant: Variant,
    opening: &[Move],
    ours: Side,
    listener: Option<&TcpListener>,
    clock: &mut Clock,
) -> Result<Played, String> {
    let mut opp: Box<dyn Opponent> = match args.protocol {
        Protocol::Otep => Box::new(Otep::start(args, variant)?),
        Protocol::Htp => Box::new(Htp::start(args, listener.ok_or("no listener")?, variant)?),
    };
    let mut game = Game::new(peer_rules(variant, args.protocol));
    let mut searcher = Searcher::new(args.tt_mb as usize, Weights::DEFAULT);
    for &mv in opening {
        let mover = game.turn();
        game.play(mv).map_err(|e| e.to_string())?;
        opp.tell(mv, mover)?;
    }
    while !game.outcome().is_over() && (game.moves().len() as u64) < args.max_plies {
        let stop = if game.turn() == ours {
            our_move(args, &mut searcher, &mut game, clock, opp.as_mut())?
        } else {
            their_move(args, &mut game, clock, opp.as_mut())?
        };
        if let Some(played) = stop {
            return Ok(played);
        }
    }
    Ok(result_of(&game, ours, args.max_plies))
}

/// Our move: searched at the other program's time (or its mean time so far), played, and told
/// to it. Some: the game stops (our move over the time-out, or the other program refusing it).
fn our_move(
    args: &VersusArgs,
    searcher: &mut Searcher,
    game: &mut Game,
    clock: &mut Clock,
    opp: &mut dyn Opponent,
) -> Result<Option<Played>, String> {
    let side = game.turn();
    let theirs = if args.time_ms > 0 {
        args.time_ms
    } else {
        clock
            .theirs_ms
            .checked_div(clock.theirs_n)
            .map_or(args.initial_ms, |ms| ms as u64)
    };
    let started = Instant::now();
    let r = ai::choose_move_with(searcher, game, Level::Hard, args.our_budget(theirs))
        .ok_or("our AI found no move")?;
    let took = started.elapsed();
    clock.ours_ms += took.as_millis();
    clock.ours_n += 1;
    if took > Duration::from_secs(args.timeout_s) {
        let why = format!("our move took {} ms, over the time-out", took.as_millis());
        return Ok(Some(stopped(Score::LossOnTime, why, game)));
    }
    game.play(r.best).map_err(|e| e.to_string())?;
    if game.outcome().is_over() {
        return Ok(None);
    }
    if let Err(e) = opp.tell(r.best, side) {
        let why = format!("after our {}: {e}", r.best);
        return Ok(Some(stopped(Score::Disagreement, why, game)));
    }
    Ok(None)
}

/// The other program's move: asked for, timed and played. Some: the game stops (it resigned,
/// timed out, gave no move, or a move the rules refuse).
fn their_move(
    args: &VersusArgs,
    game: &mut Game,
    clock: &mut Clock,
    opp: &mut dyn Opponent,
) -> Result<Option<Played>, String> {
    let side = game.turn();
    let started = Instant::now();
    let text = match opp.ask(side) {
        Ok(t) => t,
        Err(NoMove::Resigned) => return Ok(Some(stopped(Score::Win, "resigned".into(), game))),
        Err(NoMove::TimedOut) => {
            let why = format!("its move timed out after {} s", args.timeout_s);
            return Ok(Some(stopped(Score::WinOnTime, why, game)));
        }
        Err(e) => {
            let why = format!("asked to move: {e}");
            return Ok(Some(stopped(Score::Disagreement, why, game)));
        }
    };
    clock.theirs_ms += started.elapsed().as_millis();
    clock.theirs_n += 1;
    if let Err(e) = game.play_text(&text) {
        let why = format!("its move {text}: {e}");
        return Ok(Some(stopped(Score::Disagreement, why, game)));
    }
    Ok(None)
}

/// A game played to its end under the rules (or to `max_plies`, drawn), from our side's view.
fn result_of(game: &Game, ours: Side, max_plies: u64) -> Played {
    let plies = game.moves().len();
    let moves: Vec<Move> = game.moves().iter().map(|r| r.mv).collect();
    match game.outcome() {
        Outcome::Won { winner, reason } => (
            if winner == ours {
                Score::Win
            } else {
                Score::Loss
            },
            reason.name().to_string(),
            plies,
            moves,
        ),
        Outcome::Drawn { reason } => (Score::Draw, reason.name().to_string(), plies, moves),
        _ => (Score::Draw, format!("{max_plies} plies"), plies, moves),
    }
}

pub(super) fn run(args: VersusArgs) -> Result<(), CliError> {
    args.check().map_err(CliError::Input)?;
    pin_cores(&args.cores)?;
    let variant = args.variant;
    let listener =
        match args.protocol {
            Protocol::Htp => Some(TcpListener::bind(("127.0.0.1", args.port)).map_err(|e| {
                CliError::Input(format!("cannot listen on port {}: {e}", args.port))
            })?),
            Protocol::Otep => None,
        };
    let lines = openings(peer_rules(variant, args.protocol), args.openings as usize);
    let mut clock = Clock::default();
    // [side][win, draw, loss, disagreement, win on time, loss on time]
    let mut table = [[0u32; 6]; 2];
    let mut n = 0;
    for (i, opening) in lines.iter().enumerate() {
        for ours in [Side::Attackers, Side::Defenders] {
            n += 1;
            if !args.only.is_empty() && !args.only.contains(&n) {
                continue;
            }
            let (score, why, plies, moves) =
                play_one(&args, variant, opening, ours, listener.as_ref(), &mut clock)
                    .map_err(|e| CliError::Input(format!("game {n}: {e}")))?;
            let si = usize::from(ours == Side::Defenders);
            table[si][score.column()] += 1;
            let text: Vec<String> = moves.iter().map(Move::to_string).collect();
            out::line(format_args!(
                "game {n} opening {i} ours {} {:?} ({why}) after {plies} plies; ms/move ours {} theirs {}; {}",
                side_word(ours),
                score,
                clock.ours_ms / clock.ours_n.max(1),
                clock.theirs_ms / clock.theirs_n.max(1),
                text.join(" ")
            ))?;
        }
    }
    write_totals(&table, &clock)
}

/// `--cores`: our search pinned to the first core (this thread; the threads it starts, reading
/// the other program's lines, inherit the pin), and the second core tried on a thread of its
/// own before any game.
fn pin_cores(cores: &[usize]) -> Result<(), CliError> {
    if let Some(&core) = cores.first() {
        // Our search runs on this thread; the threads it starts (reading the other program's
        // lines) inherit the pin.
        pin_this_thread(core).map_err(CliError::Input)?;
    }
    if let Some(&core) = cores.get(1) {
        // The other's core, tried on a thread of its own before any game.
        std::thread::spawn(move || pin_this_thread(core))
            .join()
            .unwrap_or_else(|_| Err("the pinning thread failed".into()))
            .map_err(CliError::Input)?;
    }
    Ok(())
}

/// The match's lines after its games: each side's results (`table[side]`: won, drawn, lost,
/// disagreements, won on time, lost on time), then the total with the score and the Elo of the
/// games played out and the mean time per move of each program.
fn write_totals(table: &[[u32; 6]; 2], clock: &Clock) -> Result<(), CliError> {
    for (si, side) in [Side::Attackers, Side::Defenders].into_iter().enumerate() {
        let [w, d, l, x, tw, tl] = table[si];
        out::line(format_args!(
            "as {}: {w} won, {d} drawn, {l} lost, {x} disagreements, {tw} won on time, {tl} lost on time",
            side_word(side)
        ))?;
    }
    let [w, d, l, x, tw, tl] = [0, 1, 2, 3, 4, 5].map(|c| table[0][c] + table[1][c]);
    let tally = Tally {
        wins: w,
        draws: d,
        losses: l,
        ..Tally::default()
    };
    // The score and the Elo are of the games played out: disagreements and time-outs are
    // counted apart.
    let score = if tally.games() == 0 {
        "no game played out".to_string()
    } else {
        format!("{:.1}%", 100.0 * tally.score())
    };
    out::line(format_args!(
        "total: {w} won, {d} drawn, {l} lost, {x} disagreements, {tw} won on time, {tl} lost on time; score {score}; {}; mean ms/move ours {} theirs {}",
        elo_text(&tally),
        clock.ours_ms / clock.ours_n.max(1),
        clock.theirs_ms / clock.theirs_n.max(1),
    ))?;
    Ok(())
}

/// The rules a match is played under, the other program's: Brandubh's `linnaeus` preset (the
/// one the rules record sent to an OpenTafl engine describes, `ks:c`); Copenhagen on 11×11 and
/// 13×13 as hnefatafl.org plays it against its programs (`hnefatafl_org`, the defenders may not
/// repeat a board), else the variant's default.
fn peer_rules(variant: Variant, protocol: Protocol) -> crate::tafl::Rules {
    use crate::tafl::Preset;
    match (variant, protocol) {
        (Variant::Brandubh, _) => crate::tafl::Rules::BRANDUBH,
        (Variant::Copenhagen, Protocol::Htp) => Preset::CopenhagenHnefataflOrg.rules(),
        (Variant::Copenhagen13, Protocol::Htp) => Preset::Copenhagen13HnefataflOrg.rules(),
        (v, _) => v.rules(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::{IllegalMove, Repetition};

    #[test]
    fn against_hnefatafl_org_the_defenders_may_not_recreate_a_board_on_both_boards() {
        // From the start the attackers' a4 and the defenders' king-side soldier (e5 on 11×11,
        // g4 on 13×13) step out and back; the defenders' return would recreate the board after
        // the attackers' first move.
        for (variant, out, back) in [
            (Variant::Copenhagen, "e5-e3", "e3-e5"),
            (Variant::Copenhagen13, "g4-g3", "g3-g4"),
        ] {
            let rules = peer_rules(variant, Protocol::Htp);
            assert_eq!(rules.variant, variant);
            assert_eq!(rules.repetition(), Repetition::DefendersMayNotRepeat);
            let mut game = Game::new(rules);
            for mv in ["a4-b4", out, "b4-c4", back, "c4-a4", out, "a4-b4"] {
                game.play_text(mv).unwrap();
            }
            let repeat = crate::tafl::parse_move(game.position(), back).unwrap();
            assert_eq!(game.play(repeat), Err(IllegalMove::RepeatsBoard(repeat)));
            assert!(!game.legal_moves().contains(&repeat));
        }
    }

    #[test]
    fn an_htp_answer_is_a_move_or_a_resignation() {
        assert_eq!(
            htp_reply("play attacker k8 k9", Side::Attackers),
            Ok("k8-k9".to_string())
        );
        assert_eq!(
            htp_reply("play defender resigns _", Side::Defenders),
            Err(NoMove::Resigned)
        );
        assert_eq!(
            htp_reply("play attacker resigns", Side::Attackers),
            Err(NoMove::Resigned)
        );
        // The other side's move, or anything else, is not an answer.
        assert!(htp_reply("play defender f8 f9", Side::Attackers).is_err());
        assert!(htp_reply("= ", Side::Attackers).is_err());
    }
}
