//! `tablut-bot render`: board PNGs and replay GIFs from the command line.

use image::codecs::gif::GifDecoder;
use image::AnimationDecoder;
use std::io::{Cursor, Write};
use std::process::{Command, Output, Stdio};
use tablut_bot::render::BOARD_SIZE_PX;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tablut-bot"));
    c.env_remove("DISCORD_TOKEN").env("RUST_LOG", "off");
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stderr_line(out: &Output) -> String {
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    err.trim_end().to_string()
}

fn png_size(path: &std::path::Path) -> (u32, u32) {
    let img = image::open(path).expect("the PNG decodes");
    (img.width(), img.height())
}

#[test]
fn render_writes_the_board_png_after_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.png");
    let o = run(&[
        "render",
        "e2-c2",
        "e4-d4",
        "--caption",
        "Move 2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty());
    assert_eq!(png_size(&out), (BOARD_SIZE_PX, BOARD_SIZE_PX));
    // The same board as the library draws.
    let game = {
        let mut g = tablut_bot::tafl::Game::new(Default::default());
        g.play_text("e2-c2").unwrap();
        g.play_text("e4-d4").unwrap();
        g
    };
    let expected =
        tablut_bot::render::board_png(game.position(), game.moves().last(), Some("Move 2"));
    assert_eq!(std::fs::read(&out).unwrap(), expected);
}

#[test]
fn render_reads_moves_from_stdin_and_honours_the_common_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("corner.png");
    let mut child = bin()
        .args([
            "render",
            "--rules",
            "corner",
            "--position",
            "/9/9/9/9/9/9/9/9/1K7/",
        ])
        .args(["--to-move", "defenders", "--out", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1. ... b9-a9\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(png_size(&out), (BOARD_SIZE_PX, BOARD_SIZE_PX));
}

#[test]
fn render_replay_writes_a_gif_with_a_frame_per_ply_and_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.gif");
    let moves = ["e2-c2", "e4-d4", "c2-c4", "d4-d2", "a4-a2"];
    let mut args = vec!["render", "--replay", "--out", out.to_str().unwrap()];
    args.extend(moves);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    let frames = GifDecoder::new(Cursor::new(bytes))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap();
    assert_eq!(frames.len(), moves.len() + 1);
    assert_eq!(
        frames[0].buffer().dimensions(),
        (BOARD_SIZE_PX, BOARD_SIZE_PX)
    );
}

#[test]
fn render_refuses_bad_input_with_exit_code_2_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.png");
    let path = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["render", "e2-c2", "e4-d4", "d1-d6", "--out", path],
            "ply 3: 'd1-d6'",
        ),
        (vec!["render", "z9-z1", "--out", path], "ply 1: 'z9-z1'"),
        (
            vec!["render", "--position", "/9/9/", "--out", path],
            "--position",
        ),
        (
            vec!["render", "--set", "escape=sideways", "--out", path, "e2-c2"],
            "--set: 'sideways' is not a value of escape",
        ),
        (
            vec![
                "render",
                "--replay",
                "--caption",
                "hi",
                "--out",
                path,
                "e2-c2",
            ],
            "--caption",
        ),
    ];
    for (args, start) in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let line = stderr_line(&o);
        assert!(line.starts_with(start), "{args:?}: {line}");
        assert!(o.stdout.is_empty());
        assert!(!out.exists(), "{args:?} wrote nothing");
    }
    // Without --out, clap says what is missing.
    let o = run(&["render", "e2-c2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
}

#[test]
fn render_reports_an_unwritable_file_with_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("no-such-dir").join("board.png");
    let o = run(&["render", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr_line(&o).starts_with("cannot write"));
}
