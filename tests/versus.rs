//! `tablut-bot versus`: a match against another program run from its path, here the bot's own
//! OpenTafl engine (`tablut-bot engine`), refereed move by move.

use std::process::Command;

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
            let mut game = tablut_bot::tafl::Game::new(
                variant
                    .parse::<tablut_bot::tafl::Variant>()
                    .unwrap()
                    .rules(),
            );
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
