//! `tablut-bot versus`: a match against another program run from its path, here the bot's own
//! OpenTafl engine (`tablut-bot engine`), refereed move by move; and against a stand-in for
//! hnefatafl.org's engine that resigns or stops answering (this test binary itself, run by
//! `versus` as the other program), so that no outside program is needed.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use tablut_bot::tafl::{Game, Side, Variant};

/// What the stand-in does, from `STAND_IN` (`resign:N` or `silent:N`: after N moves of its own,
/// resign or stop answering), and the port `versus` listens on, from `STAND_IN_PORT`.
const STAND_IN: &str = "VERSUS_STAND_IN";
const STAND_IN_PORT: &str = "VERSUS_STAND_IN_PORT";
/// A file the stand-in writes, when this is set, before it connects: its arguments, and the
/// cores it and its parent (`versus`'s main thread) may run on.
const STAND_IN_REPORT: &str = "VERSUS_STAND_IN_REPORT";

/// The `Cpus_allowed_list` of a `/proc/…/status` file: the cores the thread may run on.
fn cores_allowed(status: &str) -> String {
    let text = std::fs::read_to_string(status).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_string()
}

/// Not a test: the stand-in for the other program that the tests below have `versus` start
/// (this binary, with this function's name as the filter). In the suite, without `STAND_IN`
/// set, it returns at once. It speaks hnefatafl.org's text protocol: it connects to
/// `versus`, follows the moves it is told, answers `generate_move` with its first legal move
/// (`play attacker e1 e2`), and after its N moves resigns (`play attacker resigns _`) or keeps
/// silent until it is stopped.
#[test]
fn stand_in_for_the_other_program() {
    let Ok(mode) = std::env::var(STAND_IN) else {
        return;
    };
    let (what, n) = mode.split_once(':').expect("STAND_IN is what:N");
    let n: usize = n.parse().expect("N is a number");
    let port: u16 = std::env::var(STAND_IN_PORT).unwrap().parse().unwrap();
    if let Ok(report) = std::env::var(STAND_IN_REPORT) {
        let parent = std::os::unix::process::parent_id();
        let args: Vec<String> = std::env::args().skip(1).collect();
        let text = format!(
            "args {}\nown {}\nparent {}\n",
            args.join(" "),
            cores_allowed("/proc/self/status"),
            cores_allowed(&format!("/proc/{parent}/status")),
        );
        std::fs::write(report, text).unwrap();
    }
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("versus listens");
    let mut out = stream.try_clone().unwrap();
    let mut game: Option<Game> = None;
    let mut played = 0;
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let role = |side: Side| match side {
            Side::Attackers => "attacker",
            Side::Defenders => "defender",
        };
        match words.as_slice() {
            ["board_size", size] => {
                let variant = match *size {
                    "7" => Variant::Brandubh,
                    "9" => Variant::Tablut,
                    _ => Variant::Copenhagen,
                };
                game = Some(Game::new(variant.rules()));
            }
            ["play", _, from, to] => {
                let game = game.as_mut().expect("board_size first");
                game.play_text(&format!("{from}-{to}"))
                    .expect("a legal move");
            }
            ["generate_move"] => {
                let game = game.as_mut().expect("board_size first");
                let side = game.turn();
                if played == n {
                    if what == "resign" {
                        writeln!(out, "play {} resigns _", role(side)).unwrap();
                        continue;
                    }
                    // Silent: wait to be stopped.
                    loop {
                        std::thread::park();
                    }
                }
                let mv = game.position().legal_moves_sorted()[0];
                game.play(mv).unwrap();
                played += 1;
                writeln!(out, "play {} {} {}", role(side), mv.from, mv.to).unwrap();
            }
            _ => {}
        }
    }
    std::process::exit(0);
}

/// `versus` against the stand-in doing `mode`, game 1 only (the start, our AI the attackers).
fn against_the_stand_in(mode: &str, extra: &[&str]) -> Output {
    against_the_stand_in_with(mode, &[&["--time-ms", "20"], extra].concat(), &[])
}

/// As [`against_the_stand_in`], with more environment for the stand-in.
fn against_the_stand_in_with(mode: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    // A free port for `versus` to listen on.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let me = std::env::current_exe().unwrap();
    Command::new(env!("CARGO_BIN_EXE_tablut-bot"))
        .env_remove("DISCORD_TOKEN")
        .env("RUST_LOG", "off")
        .env(STAND_IN, mode)
        .env(STAND_IN_PORT, &port)
        .envs(env.iter().copied())
        .args(["versus", "--variant", "brandubh", "--protocol", "htp"])
        .arg("--program")
        .arg(me)
        .args([
            "--arg",
            "stand_in_for_the_other_program",
            "--arg",
            "--exact",
        ])
        .args(["--openings", "1", "--only", "1"])
        .args(["--tt-mb", "4", "--port", &port])
        .args(extra)
        .output()
        .unwrap()
}

/// The moves at the end of a game's line, checked legal in order; their number.
fn legal_moves_of(line: &str) -> usize {
    let moves = line.rsplit("; ").next().unwrap();
    let mut game = Game::new(Variant::Brandubh.rules());
    for m in moves.split_whitespace() {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{m}: {e}\n{line}"));
    }
    game.moves().len()
}

#[test]
fn a_resignation_is_our_win_and_keeps_the_moves_played() {
    let out = against_the_stand_in("resign:2", &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let game = lines[0];
    assert!(
        game.starts_with("game 1 opening 0 ours attackers Win (resigned) after 5 plies;"),
        "{stdout}"
    );
    // Our three moves and its two, then its resignation: the record is kept.
    assert_eq!(legal_moves_of(game), 5, "{stdout}");
    // One game won: the Elo has no upper end, which the total says instead of "+0".
    let total = lines.last().unwrap();
    assert!(
        total.starts_with("total: 1 won, 0 drawn, 0 lost, 0 disagreements, 0 won on time, 0 lost on time; score 100.0%; Elo unbounded above (100 % of 1 game; 95% from -"),
        "{stdout}"
    );
    assert!(!total.contains("+0") && !total.contains("-0 "), "{stdout}");
}

#[test]
fn a_move_that_times_out_is_a_loss_on_time_counted_apart() {
    // 3 s: far over our 20 ms moves and the stand-in's instant ones, even on a loaded machine.
    let out = against_the_stand_in("silent:2", &["--timeout-s", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let game = lines[0];
    assert!(
        game.starts_with(
            "game 1 opening 0 ours attackers WinOnTime (its move timed out after 3 s) after 5 plies;"
        ),
        "{stdout}"
    );
    assert_eq!(legal_moves_of(game), 5, "{stdout}");
    assert_eq!(
        lines[1],
        "as attackers: 0 won, 0 drawn, 0 lost, 0 disagreements, 1 won on time, 0 lost on time"
    );
    // Not a disagreement, and not in the score: no game was played out.
    let total = lines.last().unwrap();
    assert!(
        total.starts_with("total: 0 won, 0 drawn, 0 lost, 0 disagreements, 1 won on time, 0 lost on time; score no game played out; Elo: no game scored;"),
        "{stdout}"
    );
}

#[test]
fn a_match_against_an_engine_protocol_program() {
    let bin = env!("CARGO_BIN_EXE_tablut-bot");
    for variant in ["brandubh", "copenhagen"] {
        let out = Command::new(bin)
            .env_remove("DISCORD_TOKEN")
            .env("RUST_LOG", "off")
            .args([
                "versus",
                "--variant",
                variant,
                "--protocol",
                "otep",
                "--program",
                bin,
            ])
            .args(["--arg", "engine", "--arg", "--seconds", "--arg", "0.03"])
            .args(["--arg", "--tt-mb", "--arg", "4"])
            .args(["--openings", "1", "--time-ms", "30", "--max-plies", "40"])
            .args(["--tt-mb", "4"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{variant}: {stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            lines[0].starts_with("game 1 opening 0 ours attackers"),
            "{stdout}"
        );
        assert!(
            lines[1].starts_with("game 2 opening 0 ours defenders"),
            "{stdout}"
        );
        // The same rules on both sides: no move is refused, and both games are scored.
        let total = lines.last().unwrap();
        assert!(total.starts_with("total: "), "{stdout}");
        assert!(total.contains(" 0 disagreements"), "{stdout}");
        assert!(total.contains("; Elo "), "{stdout}");
        let played: u32 = ["won", "drawn", "lost"]
            .iter()
            .map(|w| {
                let at = total.find(&format!(" {w}")).unwrap();
                let n = total[..at].rsplit(' ').next().unwrap();
                n.parse::<u32>().unwrap()
            })
            .sum();
        assert_eq!(played, 2, "{stdout}");
        // Each game's moves are legal in order on the variant's board.
        for line in &lines[..2] {
            let moves = line.rsplit("; ").next().unwrap();
            // The match's rules, the other program's: Brandubh's `linnaeus` (`Rules::BRANDUBH`,
            // what the OpenTafl rules record says), not the variant's default preset.
            let rules = match variant {
                "brandubh" => tablut_bot::tafl::Rules::BRANDUBH,
                v => v.parse::<tablut_bot::tafl::Variant>().unwrap().rules(),
            };
            let mut game = tablut_bot::tafl::Game::new(rules);
            for m in moves.split(' ') {
                game.play_text(m)
                    .unwrap_or_else(|e| panic!("{variant} {m}: {e}"));
            }
        }
    }
}

#[test]
fn a_program_that_cannot_start_is_one_line_of_error() {
    let bin = env!("CARGO_BIN_EXE_tablut-bot");
    let out = Command::new(bin)
        .env_remove("DISCORD_TOKEN")
        .env("RUST_LOG", "off")
        .args(["versus", "--variant", "brandubh", "--protocol", "otep"])
        .args(["--program", "/nonexistent/engine", "--openings", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot start /nonexistent/engine"),
        "{stderr}"
    );
}

/// The mean of our time per move from a game's line (`ms/move ours N theirs M`).
fn our_ms_per_move(line: &str) -> u64 {
    let at = line.find("ms/move ours ").unwrap() + "ms/move ours ".len();
    line[at..].split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn each_program_on_its_core_with_the_same_time_and_ours_a_share_of_it() {
    let dir = std::env::temp_dir().join(format!("versus-cores-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The other program is told 2 s a move through its own option (the stand-in, a test
    // binary, takes `--test-threads 2`, where hnefatafl-text-protocol would take
    // `--seconds 2`); ours gets 1 % of that.
    let out = against_the_stand_in_with(
        "resign:2",
        &[
            "--cores",
            "0,1",
            "--time-ms",
            "2000",
            "--our-time-share",
            "0.01",
            "--peer-seconds-flag",
            "--test-threads",
        ],
        &[(STAND_IN_REPORT, report.to_str().unwrap())],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if cores < 2 {
        // One core: pinning to the second is refused, in one line, before any game.
        assert!(!out.status.success(), "{stdout}");
        assert!(stderr.contains("cannot pin to core 1"), "{stderr}");
        return;
    }
    assert!(out.status.success(), "{stderr}");
    let game = stdout.lines().next().unwrap();
    assert!(
        game.starts_with("game 1 opening 0 ours attackers Win (resigned) after 5 plies;"),
        "{stdout}"
    );
    let report = std::fs::read_to_string(&report).unwrap();
    // Its arguments end with the time option and the seconds; it runs on core 1 only, and
    // `versus`, whose main thread searches, on core 0 only.
    assert!(
        report.starts_with("args stand_in_for_the_other_program --exact --test-threads 2\n"),
        "{report}"
    );
    assert!(report.contains("\nown 1\n"), "{report}");
    assert!(report.contains("\nparent 0\n"), "{report}");
    // Our three moves had 20 ms each, not the 2 000 ms the other was given.
    assert!(our_ms_per_move(game) < 1000, "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_cores_shares_and_time_options_are_one_line_each() {
    let bin = env!("CARGO_BIN_EXE_tablut-bot");
    for (extra, says) in [
        (&["--cores", "0"][..], "--cores takes two cores"),
        (&["--cores", "1,1"][..], "--cores needs two different cores"),
        (&["--cores", "0,99999"][..], "cannot pin to core 99999"),
        (
            &["--our-time-share", "0"][..],
            "--our-time-share must be from 0.001 to 1",
        ),
        (
            &["--our-time-share", "1.5"][..],
            "--our-time-share must be from 0.001 to 1",
        ),
        (
            &["--peer-seconds-flag", "--seconds", "--time-ms", "1500"][..],
            "--time-ms must be a positive multiple of 1000",
        ),
        (
            &["--peer-seconds-flag", "--seconds"][..],
            "--time-ms must be a positive multiple of 1000",
        ),
    ] {
        let out = Command::new(bin)
            .env_remove("DISCORD_TOKEN")
            .env("RUST_LOG", "off")
            .args(["versus", "--variant", "brandubh", "--protocol", "otep"])
            .args(["--program", "/nonexistent/engine", "--openings", "1"])
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
        // Refused before any program was started.
        assert!(!stderr.contains("cannot start"), "{extra:?}: {stderr}");
    }
}
