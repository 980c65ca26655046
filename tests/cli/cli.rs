//! The command line as other tools see it: `replay`, `perft` and the default `run`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tablut-bot"));
    c.env_remove("DISCORD_TOKEN").env("RUST_LOG", "off");
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn stderr_line(out: &Output) -> String {
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    err.trim_end().to_string()
}

#[test]
fn replay_prints_the_position_status_moves_and_legal_moves() {
    let v = json(&run(&["replay", "e2-c2", "e4 d4"]));
    assert_eq!(
        v["position"],
        "/3ttt3/2t6/4T4/t2T4t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    );
    assert_eq!(v["to_move"], "attackers");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["reason"], serde_json::Value::Null);
    assert_eq!(v["moves"], serde_json::json!(["e2-c2", "e4-d4"]));
    let legal: Vec<String> = v["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut sorted = legal.clone();
    sorted.sort();
    assert_eq!(legal, sorted);
    assert!(legal.contains(&"a4-a1".to_string()));
    assert!(!legal.contains(&"e1-e3".to_string()));
    // The same list the engine gives.
    let mut g = tablut_bot::tafl::Game::new(Default::default());
    g.play_text("e2-c2").unwrap();
    g.play_text("e4-d4").unwrap();
    let engine: Vec<String> = g
        .position()
        .legal_moves_sorted()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(legal, engine);
}

#[test]
fn replay_start_position_has_the_80_opening_moves() {
    let v = json(&run(&["replay", "--to-move", "attackers"]));
    assert_eq!(v["legal_moves"].as_array().unwrap().len(), 80);
}

#[test]
fn replay_records_captures_and_the_end_of_the_game() {
    // King on c3 away from the castle, attackers on b3 and d1: d1-d3 takes him.
    let v = json(&run(&[
        "replay",
        "--position",
        "/3t5/9/1tK6/9/9/9/9/9/t8/",
        "d1-d3",
    ]));
    assert_eq!(v["status"], "attackers_won");
    assert_eq!(v["reason"], "king_captured");
    assert_eq!(v["moves"], serde_json::json!(["d1-d3++"]));
    assert_eq!(v["legal_moves"], serde_json::json!([]));
}

#[test]
fn replay_reads_moves_and_numbered_records_from_stdin() {
    let v = json(&run_stdin(&["replay"], "1. e2-c2 e4-d4\n 2. a4-a3\n"));
    assert_eq!(v["moves"], serde_json::json!(["e2-c2", "e4-d4", "a4-a3"]));
    assert_eq!(v["to_move"], "defenders");
}

#[test]
fn replay_draws_by_repetition() {
    let v = json(&run(&["replay", "a4-a3", "e3-d3", "a3-a4", "d3-e3"]));
    assert_eq!(v["status"], "draw");
    assert_eq!(v["reason"], "repetition");
    let v = json(&run(&[
        "replay",
        "--set",
        "repetition_limit=3",
        "a4-a3",
        "e3-d3",
        "a3-a4",
        "d3-e3",
    ]));
    assert_eq!(v["status"], "ongoing");
}

#[test]
fn replay_honours_rules_presets_and_the_side_to_move() {
    // Under corner rules the king on the edge has not won yet.
    let v = json(&run(&[
        "replay",
        "--rules",
        "corner",
        "--to-move",
        "defenders",
        "--position",
        "/9/9/9/9/9/9/9/1T5t1/K8/",
    ]));
    // A king standing on a9 under corner rules: a9 is a corner, so the game is already won.
    assert_eq!(v["status"], "defenders_won");
    let v = json(&run(&[
        "replay",
        "--rules",
        "corner",
        "--to-move",
        "defenders",
        "--position",
        "/9/9/9/9/9/9/K8/1T5t1/9/",
        "a7-a8",
    ]));
    assert_eq!(v["status"], "ongoing", "a8 is only the edge");
    let v = json(&run(&[
        "replay",
        "--to-move",
        "defenders",
        "--position",
        "/9/9/9/9/9/9/1K7/1T5t1/9/",
        "b7-a7",
    ]));
    assert_eq!(v["status"], "defenders_won");
    assert_eq!(v["reason"], "king_escaped");
    assert_eq!(v["moves"], serde_json::json!(["b7-a7++"]));
}

#[test]
fn replay_refuses_an_illegal_move_with_exit_code_2_and_one_line() {
    let out = run(&["replay", "e2-c2", "e4-d4", "d1-d6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let line = stderr_line(&out);
    assert!(line.contains("ply 3"), "{line}");
    assert!(line.contains("'d1-d6'"), "{line}");
    assert!(line.contains("blocked by the piece on d4"), "{line}");
}

#[test]
fn replay_refuses_malformed_moves_off_board_squares_and_moves_after_the_end() {
    let out = run(&["replay", "j4-j5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(stderr_line(&out).contains("j4 is off the board"));

    let out = run(&["replay", "e2-c2", "banana"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("ply 2: 'banana'"));

    let out = run(&[
        "replay",
        "--position",
        "/3t5/9/1tK6/9/9/9/9/9/t8/",
        "d1-d3",
        "a9-a8",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let line = stderr_line(&out);
    assert!(
        line.contains("ply 2") && line.contains("game is over"),
        "{line}"
    );
}

#[test]
fn replay_refuses_bad_options() {
    let out = run(&["replay", "--set", "king_armed=perhaps"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("king_armed"));
    let out = run(&["replay", "--position", "/9/9/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("nine rows"));
    let out = run(&["replay", "--rules", "copenhagen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn perft_prints_the_leaf_count_and_the_rate() {
    for (depth, leaves) in [("1", "80"), ("2", "4400"), ("3", "353200")] {
        let out = run(&["perft", depth]);
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), leaves);
        assert!(String::from_utf8_lossy(&out.stderr).contains("nodes/s"));
    }
    // From a composed position: the king alone with one attacker far away.
    let out = run(&[
        "perft",
        "1",
        "--to-move",
        "defenders",
        "--position",
        "/t8/9/9/9/4K4/9/9/9/9/",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "16");
    let out = run(&["perft", "two"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("'two' is not a depth"));
}

#[test]
fn perft_counts_brandubh_and_copenhagen() {
    for (variant, leaves) in [
        ("brandubh", "39512"),
        ("copenhagen", "6788"),
        ("copenhagen13", "20348"),
    ] {
        let depth = if variant == "brandubh" { "3" } else { "2" };
        let out = run(&["perft", depth, "--variant", variant]);
        assert!(out.status.success(), "{variant}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), leaves);
    }
    // A Copenhagen record, eleven rows: the king on k10 (the corners are his) and an attacker.
    let out = run(&[
        "perft",
        "1",
        "--variant",
        "copenhagen",
        "--to-move",
        "defenders",
        "--position",
        "/1t9/11/11/11/11/11/11/11/11/10K/11/",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "20");
    let out = run(&["perft", "1", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("unknown game 'chess'"));
    let out = run(&["perft", "1", "--variant", "copenhagen", "--rules", "walker"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains(
        "unknown Copenhagen Hnefatafl preset 'walker': choose aagenielsen or hnefatafl_org"
    ));
    let out = run(&[
        "perft",
        "1",
        "--variant",
        "brandubh",
        "--set",
        "king_armed=false",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("Brandubh has no rule options: choose one of its presets"));
}

#[test]
fn perft_refuses_a_depth_it_cannot_finish_or_count() {
    for depth in ["7", "10", "4294967296", "99999999999999999999999"] {
        let out = run(&["perft", depth]);
        assert_eq!(out.status.code(), Some(2), "{depth}");
        assert!(out.stdout.is_empty());
        let line = stderr_line(&out);
        assert!(line.contains("at most 6 plies deep"), "{line}");
        assert!(line.contains("from 0 to 6"), "{line}");
    }
    let out = run(&["perft", "0"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
}

#[test]
fn no_subcommand_without_a_token_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin().current_dir(dir.path()).output().unwrap();
    assert!(!out.status.success());
    let line = stderr_line(&out);
    assert!(line.contains("DISCORD_TOKEN"), "{line}");
    assert!(!line.contains("panicked"));
}

/// The variables a text names: `NAME=` at a line's start (commented or not) in `.env.example`,
/// `[env: NAME` in `--help`.
fn variables(text: &str, marker: &str) -> std::collections::BTreeSet<String> {
    text.split(marker)
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn run_help_documents_every_variable_of_env_example_and_no_other() {
    let example =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.env.example")).unwrap();
    let in_example: std::collections::BTreeSet<String> = example
        .lines()
        .map(|l| l.trim_start_matches('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(name, _)| name.to_string())
        .filter(|name| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
        .collect();
    let out = run(&["run", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let in_help = variables(&help, "[env: ");
    assert!(in_example.contains("DISCORD_TOKEN") && in_example.len() > 10);
    assert_eq!(
        in_example, in_help,
        ".env.example and `run --help` list the same variables"
    );
}

const A_TOKEN: &str = "Mjg4NzYwMjQxMzYzODc3ODg4.C_ikow.j3VupLBuE1QWZng3TMGH0z_UAwg";

#[test]
fn run_help_never_shows_the_token() {
    let out = bin()
        .args(["run", "--help"])
        .env("DISCORD_TOKEN", A_TOKEN)
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("DISCORD_TOKEN"));
    assert!(!help.contains("C_ikow"), "{help}");
}

#[test]
fn settings_come_from_dot_env_and_the_environment_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".env"),
        format!("DISCORD_TOKEN={A_TOKEN}\nDEV_GUILD_ID=from-file\nCLOCK_INTERVAL_SECS=\n"),
    )
    .unwrap();
    let out = bin()
        .current_dir(dir.path())
        .env_remove("DEV_GUILD_ID")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_line(&out),
        "tablut-bot: DEV_GUILD_ID (--dev-guild)='from-file' is not valid: write the server's numeric id"
    );
    let out = bin()
        .current_dir(dir.path())
        .env("DEV_GUILD_ID", "from-env")
        .output()
        .unwrap();
    assert!(stderr_line(&out).contains("'from-env' is not valid"));
    // A flag overrides both; an over-long value is echoed cut short.
    let long = "x".repeat(10_000);
    let out = bin()
        .current_dir(dir.path())
        .args(["run", "--dev-guild", &long])
        .output()
        .unwrap();
    let line = stderr_line(&out);
    assert!(line.len() < 200, "{line}");
    assert!(!line.contains("C_ikow"), "{line}");
}

#[test]
fn a_shard_range_that_cannot_be_is_refused_in_one_line_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", A_TOKEN)
        .env("SHARDS", "4-9/8")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_line(&out),
        "tablut-bot: SHARDS (--shards)='4-9/8' is not valid: there is no shard 9 in 8: shards are numbered 0 to 7"
    );
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "no database was made"
    );
}

/// A proxy over plain http to another machine would carry the bot's token in clear: refused
/// before anything starts (no database made, nothing sent), in one line that says what to do.
#[test]
fn a_plain_http_proxy_on_another_machine_is_refused_in_one_line_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", A_TOKEN)
        .env("DISCORD_PROXY", "http://192.0.2.10:3000")
        .env_remove("DISCORD_PROXY_ALLOW_HTTP")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_line(&out),
        "tablut-bot: DISCORD_PROXY sends the bot's token over plain http to 192.0.2.10, another \
         machine: use https://, a proxy on this machine (127.0.0.1, ::1, localhost), or set \
         DISCORD_PROXY_ALLOW_HTTP=true if the network to it is trusted"
    );
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "no database was made"
    );
}

#[test]
fn an_unknown_over_long_argument_is_echoed_cut_short() {
    let long = format!("--{}", "x".repeat(10_000));
    for args in [vec!["perft", long.as_str()], vec![long.as_str()]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.len() < 400, "{err}");
        assert!(err.contains("unexpected argument '--xxxx"), "{err}");
    }
}

#[test]
fn a_ten_thousand_character_argument_is_echoed_as_a_short_prefix() {
    let long = "e".repeat(10_000);
    let setting = format!("king_armed={long}");
    for args in [
        vec!["replay", long.as_str()],
        vec!["replay", "--set", long.as_str()],
        vec!["replay", "--set", setting.as_str()],
        vec!["replay", "--rules", long.as_str()],
        vec!["replay", "--to-move", long.as_str()],
        vec!["replay", "--position", long.as_str()],
        vec!["perft", long.as_str()],
        vec!["analyze", "--level", long.as_str()],
        vec!["selfplay", "--a", long.as_str()],
        vec!["render", "--out", "x.gif", "--replay", long.as_str()],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{:?}", &args[..args.len() - 1]);
        let line = stderr_line(&out);
        assert!(line.len() < 200, "{:?}: {line}", &args[..args.len() - 1]);
    }
}

#[test]
fn the_example_game_in_docs_replays_to_its_end() {
    let record =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/game.txt")).unwrap();
    let v = json(&run_stdin(&["replay"], &record));
    assert_eq!(v["status"], "attackers_won");
    assert_eq!(v["reason"], "king_captured");
    assert_eq!(v["moves"].as_array().unwrap().len(), 95);
}

/// Every command that prints, with its stdout a pipe whose reader has already gone away (as
/// `tablut-bot replay < game.txt | head -c 200` leaves it once `head` has read enough): it ends
/// quietly, exit code 0 and nothing on stderr, rather than with a panic. The engine, whose host
/// keeps its stdin open, stops on its own.
#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let game = "1. e2-c2 e4-d4  2. a4-a3 d4-d3";
    let cases: [(&[&str], Option<&str>); 8] = [
        (&["replay"], Some(game)),
        (&["replay", "e2-c2", "e4-d4"], None),
        (&["perft", "2", "--variant", "brandubh"], None),
        (&["analyze", "--depth", "1"], None),
        (&["review", "--depth", "1"], Some(game)),
        (&["engine", "--seconds", "0.1", "--tt-mb", "4"], None),
        (&["--version"], None),
        (&["replay", "--help"], None),
    ];
    for (args, input) in cases {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut child = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take();
        if let Some(input) = input {
            stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        }
        // Without input, stdin stays open while the command runs, as a host's would.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                panic!("{args:?} did not stop once its stdout was closed");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.trim().is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn presets_lists_one_line_per_variant_and_preset() {
    let out = run(&["presets"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "tablut linnaeus",
            "tablut walker",
            "tablut salmi",
            "tablut corner",
            "brandubh aagenielsen",
            "brandubh linnaeus",
            "brandubh opentafl",
            "copenhagen aagenielsen",
            "copenhagen hnefatafl_org",
            "copenhagen13 hnefatafl_org",
            "copenhagen13 aagenielsen",
        ]
    );
    // Each plays by its rules: the king beside the throne, on d5, is taken by two under
    // aagenielsen's and OpenTafl's rules, not under linnaeus'.
    let position = "/7/7/7/7/2tK3/4t2/7/";
    for (preset, status) in [
        ("aagenielsen", "attackers_won"),
        ("linnaeus", "ongoing"),
        ("opentafl", "attackers_won"),
    ] {
        let v = json(&run(&[
            "replay",
            "--variant",
            "brandubh",
            "--rules",
            preset,
            "--position",
            position,
            "e6-e5",
        ]));
        assert_eq!(v["status"], status, "{preset}");
    }
    let out = run(&["replay", "--variant", "brandubh", "--rules", "walker"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("choose aagenielsen, linnaeus or opentafl"));
}

#[test]
fn replay_writes_records_in_both_formats_and_reads_them_back() {
    let moves = [
        "b4-b6", "e4-e6", "b6-b5", "d4-e4", "b5-b6", "e4-e2", "f4-f2",
    ];
    let mut args = vec!["replay", "--variant", "brandubh"];
    args.extend(moves);
    let json_direct = json(&run(&args));
    assert_eq!(json_direct["status"], "attackers_won");
    for format in ["tafl", "opentafl"] {
        let mut args = vec!["replay", "--variant", "brandubh", "--record", format];
        args.extend(moves);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let record = String::from_utf8(out.stdout).unwrap();
        assert!(
            record.contains("f4-f2xe2") || record.contains("f4-f2"),
            "{record}"
        );
        // Read back with no --variant: the record's own rules apply.
        let back = json(&run_stdin(&["replay"], &record));
        assert_eq!(back, json_direct, "{format}: {record}");
    }
    // Copenhagen 13×13, under both presets, through both formats: the m file and the 13th
    // rank are read and written.
    let moves = ["m4-l4", "g4-k4", "l4-l5", "g5-g4"];
    for preset in ["hnefatafl_org", "aagenielsen"] {
        let mut args = vec!["replay", "--variant", "copenhagen13", "--rules", preset];
        args.extend(moves);
        let direct = json(&run(&args));
        assert_eq!(direct["status"], "ongoing", "{direct}");
        for format in ["tafl", "opentafl"] {
            let mut args = vec![
                "replay",
                "--variant",
                "copenhagen13",
                "--rules",
                preset,
                "--record",
                format,
            ];
            args.extend(moves);
            let out = run(&args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let record = String::from_utf8(out.stdout).unwrap();
            assert!(record.contains("m4-l4"), "{record}");
            let back = json(&run_stdin(&["replay"], &record));
            assert_eq!(back, direct, "{preset} {format}: {record}");
        }
    }
    // A bad record: one line naming the ply.
    let out = run_stdin(
        &["replay"],
        "[Variant \"brandubh aagenielsen\"]\n\n1. b4-b6xb5 e4-e6\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_line(&out),
        "ply 1: 'b4-b6xb5': the record says it captures b5, but it captures nothing"
    );
}
