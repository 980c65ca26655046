//! The AI's command-line faces: `analyze`, and the `engine` protocol over a pipe.

use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tablut-bot"));
    c.env_remove("DISCORD_TOKEN").env("RUST_LOG", "off");
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn analyze_prints_one_json_object() {
    let out = run(&["analyze", "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let best = v["best"].as_str().unwrap();
    assert_eq!(best.len(), 5, "{best}");
    assert_eq!(v["depth"], 2);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["score"].is_i64());
    assert!(v["time_ms"].is_u64());
    let pv = v["pv"].as_array().unwrap();
    assert_eq!(pv[0].as_str(), Some(best));
    // The best move is legal from the start.
    let check = run(&["replay", best]);
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn analyze_after_moves_and_with_levels() {
    for level in ["easy", "medium", "hard"] {
        let out = run(&[
            "analyze", "e2-c2", "e4-d4", "--nodes", "2000", "--level", level,
        ]);
        assert!(out.status.success(), "{level}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // Attackers to move again: their best move starts from an attacker's square.
        let replay = run(&["replay", "e2-c2", "e4-d4", v["best"].as_str().unwrap()]);
        assert!(replay.status.success(), "{level}: {}", stderr(&replay));
    }
    // A king escape in one is found and scored as a win.
    let out = run(&[
        "analyze",
        "--position",
        "/9/9/9/2K6/9/9/9/9/4t4/",
        "--to-move",
        "defenders",
        "--depth",
        "3",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["score"].as_i64().unwrap() > 29_000, "{v}");
}

#[test]
fn analyze_refuses_bad_input_with_one_line() {
    let cases: &[&[&str]] = &[
        &["analyze"],
        &["analyze", "--depth", "0"],
        &["analyze", "--depth", "2", "--level", "expert"],
        &["analyze", "e1-e3", "--depth", "2"],
        &["analyze", "--depth", "2", "--time-ms", "100"],
        &["analyze", "--position", "/9/", "--depth", "2"],
    ];
    for args in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // One line for the errors the command itself reports.
    let out = run(&["analyze", "e1-e3", "--depth", "2"]);
    assert_eq!(
        stderr(&out).trim_end().lines().count(),
        1,
        "{}",
        stderr(&out)
    );
}

#[test]
fn analyze_refuses_a_finished_game() {
    // The king escapes with the last move.
    let out = run(&[
        "analyze",
        "--position",
        "/9/9/9/2K6/9/9/9/9/4t4/",
        "--to-move",
        "defenders",
        "c4-a4",
        "--depth",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("over"), "{err}");
}

mod engine {
    use super::bin;
    use std::io::{BufRead, BufReader, Write};
    use std::process::{ChildStdout, Stdio};
    use tablut_bot::tafl::{write_position, Game, Rules};

    const RULES: &str = "rules dim:9 esc:e ka:y ks:n linc:y cens: tfr:d \
        start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    /// The next line that is not a status line.
    fn next(out: &mut BufReader<ChildStdout>) -> String {
        loop {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0, "the engine hung up");
            if !line.starts_with("status") {
                return line.trim_end().to_string();
            }
        }
    }

    #[test]
    fn a_session_over_a_pipe() {
        let mut child = bin()
            .args(["engine", "--seconds", "0.2", "--tt-mb", "4"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        assert_eq!(next(&mut out), "hello");

        let mut send = |line: &str| {
            writeln!(input, "{line}").unwrap();
            input.flush().unwrap();
        };
        let mut game = Game::new(Rules {
            repetition_limit: 3,
            ..Rules::default()
        });
        send(RULES);
        send("side attackers");
        send("start");
        for _ in 0..3 {
            send("play attackers");
            send("clock 30000 30000 0 0 0");
            let reply = next(&mut out);
            let mv = reply
                .strip_prefix("move ")
                .unwrap_or_else(|| panic!("{reply}"));
            game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
            send(&format!("move {}", write_position(game.position())));
            // The opponent answers with its first legal move in text order.
            let answer = game.position().legal_moves_sorted()[0];
            game.play(answer).unwrap();
            send(&format!(
                "opponent-move {answer} {}",
                write_position(game.position())
            ));
        }
        send("analyze 1 0.1");
        let reply = next(&mut out);
        let parts: Vec<&str> = reply.split(' ').collect();
        assert_eq!(parts[0..2], ["analysis", "1"], "{reply}");
        let first = parts[2].split('|').next().unwrap();
        let mut check = game.clone();
        check.play_text(first).unwrap();
        parts[3].parse::<i32>().unwrap();

        // Other games are refused with an error, and the engine carries on.
        send("rules dim:15 start:/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/");
        assert!(next(&mut out).starts_with("error -1"));
        send("goodbye");
        let status = child.wait().unwrap();
        assert!(status.success());
    }

    #[test]
    fn sessions_on_the_7_11_and_13_boards() {
        use tablut_bot::tafl::{Position, Variant};
        for (variant, extra) in [
            (Variant::Brandubh, "name:Brandub ks:w cenhe: cenh:"),
            (Variant::Copenhagen, "name:Copenhagen tfr:w sw:s efe:y"),
            (Variant::Copenhagen13, "name:Copenhagen tfr:i sw:s efe:y"),
        ] {
            let mut child = bin()
                .args(["engine", "--seconds", "0.1", "--tt-mb", "4"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut input = child.stdin.take().unwrap();
            let mut out = BufReader::new(child.stdout.take().unwrap());
            assert_eq!(next(&mut out), "hello");
            let mut send = |line: &str| {
                writeln!(input, "{line}").unwrap();
                input.flush().unwrap();
            };
            let start = write_position(&Position::start_of(variant));
            send(&format!(
                "rules dim:{} {extra} start:{start}",
                variant.size()
            ));
            let mut game = Game::new(variant.rules());
            for _ in 0..3 {
                send("play attackers");
                let reply = next(&mut out);
                let mv = reply
                    .strip_prefix("move ")
                    .unwrap_or_else(|| panic!("{variant}: {reply}"));
                game.play_text(mv)
                    .unwrap_or_else(|e| panic!("{variant} {mv}: {e}"));
                let answer = game.position().legal_moves_sorted()[0];
                game.play(answer).unwrap();
                send(&format!(
                    "opponent-move {answer} {}",
                    write_position(game.position())
                ));
            }
            // A position of the board's size is read, and analysed in the board's squares.
            send(&format!("position {}", write_position(game.position())));
            send("analyze 1 0.1");
            let reply = next(&mut out);
            let parts: Vec<&str> = reply.split(' ').collect();
            assert_eq!(parts[0..2], ["analysis", "1"], "{variant}: {reply}");
            let first = parts[2].split('|').next().unwrap();
            game.clone()
                .play_text(first)
                .unwrap_or_else(|e| panic!("{variant} {first}: {e}"));
            send("goodbye");
            assert!(child.wait().unwrap().success());
        }
    }

    #[test]
    fn end_of_input_ends_cleanly() {
        let mut child = bin()
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout), "hello\n");
    }
}

#[test]
fn analyze_reads_and_writes_the_7_and_11_boards() {
    // Brandubh: the king on c7 sees a7; Copenhagen: the king on d1 sees a1 (a record's first
    // row is rank 1). The record has the board's own number of rows, and the answer names the
    // board's own squares.
    for (variant, record, escape) in [
        ("brandubh", "/7/7/3t3/7/7/4t2/2K1t2/", "c7-a7"),
        (
            "copenhagen",
            "/3K3t3/4t6/11/11/11/11/5T5/11/11/1t9/9t1/",
            "d1-a1",
        ),
    ] {
        let out = run(&[
            "analyze",
            "--variant",
            variant,
            "--position",
            record,
            "--to-move",
            "defenders",
            "--depth",
            "2",
        ]);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["best"], escape, "{variant}");
        assert!(v["score"].as_i64().unwrap() > 20_000, "{variant}");
    }
    // From Copenhagen's start, the attackers' answer is a move of the 11×11 board.
    let out = run(&["analyze", "--variant", "copenhagen", "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let best = v["best"].as_str().unwrap();
    let mut game = tablut_bot::tafl::Game::new(tablut_bot::tafl::Variant::Copenhagen.rules());
    game.play_text(best).unwrap();
    // A 9-row record is not a Copenhagen position: one line says so.
    let out = run(&[
        "analyze",
        "--variant",
        "copenhagen",
        "--position",
        "/9/9/9/9/4K4/9/9/9/9/",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim_end().lines().count(),
        1,
        "{}",
        stderr(&out)
    );
}
