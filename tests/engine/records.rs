//! Whole game records (docs/RULES.md, "Game records"): both formats written and read back over
//! random games of every variant and preset, from the start and from other positions, ended on
//! the board or off it; and bad records refused in one line naming the line or the ply.

use tablut_bot::tafl::{
    read_record, write_record, Game, IllegalMove, LineProblem, MoveError, Outcome, PlyProblem,
    Position, Preset, Reason, RecordFormat, RecordReadError, RecordTags, Rules, RulesError,
    RulesNameError, Side, Square, Variant, VariantError,
};

fn tags() -> RecordTags {
    RecordTags {
        event: Some("tablut-bot game #7".into()),
        site: Some("Discord".into()),
        date: Some("2026.11.27".into()),
        attackers: Some("Astrid \"the bold\"".into()),
        defenders: Some("Birger".into()),
    }
}

/// A random game of `rules`: up to `plies` random legal moves, then perhaps a resignation, an
/// agreed draw or a loss on time.
fn random_game(rules: Rules, rng: &mut fastrand::Rng, plies: usize) -> Game {
    let mut g = Game::new(rules);
    if rng.u32(0..4) == 0 {
        // Another start: a few moves in, as a position of its own.
        for _ in 0..rng.usize(1..6) {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if !g.outcome().is_over() {
            g = Game::from_position(*g.position());
        }
    }
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play(moves[rng.usize(..moves.len())]).unwrap();
    }
    if !g.outcome().is_over() {
        match rng.u32(0..4) {
            0 => g.resign(g.turn()).unwrap(),
            1 => g.agree_draw().unwrap(),
            2 => g
                .end(Outcome::Won {
                    winner: g.turn().other(),
                    reason: Reason::Timeout,
                })
                .unwrap(),
            _ => {}
        }
    }
    g
}

#[test]
fn records_round_trip_over_random_games_of_every_preset() {
    let mut rng = fastrand::Rng::with_seed(39);
    let mut over = 0;
    for preset in Preset::ALL {
        for _ in 0..12 {
            let plies = rng.usize(0..160);
            let g = random_game(preset.rules(), &mut rng, plies);
            over += usize::from(g.outcome().is_over());
            for format in RecordFormat::ALL {
                let text = write_record(&g, format, &tags());
                // Read back under another variant's rules: the record's own must win.
                let other = Variant::ALL
                    .into_iter()
                    .find(|v| *v != preset.variant())
                    .unwrap()
                    .rules();
                let back = read_record(&text, other)
                    .unwrap_or_else(|e| panic!("{preset:?} {format}: {e}\n{text}"));
                assert_eq!(back.format, Some(format));
                assert_eq!(back.game.rules(), g.rules(), "{text}");
                assert_eq!(back.game.start(), g.start(), "{text}");
                assert_eq!(back.game.moves(), g.moves(), "{text}");
                assert_eq!(back.game.outcome(), g.outcome(), "{text}");
                let mut expected = tags();
                if format == RecordFormat::Tafl {
                    // A tag's value is between quotes: quotes in it become apostrophes.
                    expected.attackers = Some("Astrid 'the bold'".into());
                }
                assert_eq!(back.tags, expected);
                // Written again, the same text.
                assert_eq!(write_record(&back.game, format, &back.tags), text);
            }
        }
    }
    assert!(over > 20);
}

#[test]
fn the_archives_record_reads_as_it_is_written() {
    let mut g = Game::new(Rules::default());
    for m in ["e2-c2", "e4-d4", "a4-a3", "d4-d3"] {
        g.play_text(m).unwrap();
    }
    let text = write_record(&g, RecordFormat::Tafl, &RecordTags::default());
    assert!(text.contains("[Variant \"tablut linnaeus\"]"), "{text}");
    assert!(
        text.contains("\n1. e2-c2 e4-d4\n2. a4-a3 d4-d3\n*\n"),
        "{text}"
    );
    let otn = write_record(&g, RecordFormat::OpenTafl, &RecordTags::default());
    assert!(
        otn.contains("[rules:dim:9 name:Tablut esc:e atkf:y"),
        "{otn}"
    );
    assert!(
        otn.contains("[result:?]") && otn.ends_with("2. a4-a3 d4-d3\n"),
        "{otn}"
    );
    // A bare numbered list reads under the rules given.
    let bare = read_record("1. e2-c2 e4-d4  2. a4-a3", Rules::default()).unwrap();
    assert_eq!(bare.format, None);
    assert_eq!(bare.game.moves().len(), 3);
    // OpenTafl's marks and king letters, and its resignation.
    let r = read_record(
        "[rules:dim:7 name:Brandub ks:w cenh: cenhe: tfr:d start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. b4-b6 d5-b5-\n2. b6-c6 Kd4-d5\n3. ---\n",
        Rules::default(),
    )
    .unwrap();
    assert_eq!(*r.game.rules(), Preset::BrandubhOpenTafl.rules());
    assert_eq!(
        r.game.outcome(),
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::Resigned
        }
    );
    // A Copenhagen record from its start, captures on the k file.
    let start = Position::start(Variant::Copenhagen.rules());
    assert!(
        read_record("[Variant \"copenhagen\"]\n1. k4-k3", Rules::default())
            .unwrap()
            .game
            .start()
            .eq(&start)
    );
}

fn err(text: &str) -> RecordReadError {
    let e = read_record(text, Rules::default()).unwrap_err();
    let line = e.to_string();
    assert!(!line.contains('\n'), "{line}");
    e
}

fn ply(ply: usize, text: &str, problem: PlyProblem) -> RecordReadError {
    RecordReadError::Ply {
        ply,
        text: text.into(),
        problem,
    }
}

fn line(line: usize, problem: LineProblem) -> RecordReadError {
    RecordReadError::Line { line, problem }
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn bad_records_are_refused_naming_the_ply_and_why() {
    assert_eq!(
        err("1. e2-c2 e4-e3"),
        ply(
            2,
            "e4-e3",
            MoveError::from(IllegalMove::Occupied { to: sq("e3") }).into()
        )
    );
    assert_eq!(
        err("1. e2-c2 e4-e3").to_string(),
        "ply 2: 'e4-e3': e3 is occupied"
    );
    assert_eq!(
        err("1. e2-c2xc3"),
        ply(
            1,
            "e2-c2xc3",
            PlyProblem::CapturesDiffer {
                stated: vec![sq("c3")],
                made: vec![]
            }
        )
    );
    assert_eq!(
        err("1. e2-c2 e4-d4 2. zz"),
        ply(3, "zz", MoveError::Malformed("zz".into()).into())
    );
    assert_eq!(
        err("[Variant \"chess\"]\n1. e2-c2"),
        line(
            1,
            LineProblem::Variant(RulesNameError::Variant(VariantError("chess".into())))
        )
    );
    assert_eq!(
        err("[Result \"2-0\"]"),
        line(1, LineProblem::Result("2-0".into()))
    );
    assert_eq!(
        err("[Variant \"brandubh walker\"]"),
        line(
            1,
            LineProblem::Variant(RulesNameError::Rules(RulesError::UnknownPresetOf {
                variant: Variant::Brandubh,
                name: "walker".into()
            }))
        )
    );
    // A move after the end.
    let mut g = Game::new(Rules::default());
    let mut moves = Vec::new();
    let mut rng = fastrand::Rng::with_seed(5);
    while !g.outcome().is_over() {
        let legal = g.legal_moves();
        let m = legal[rng.usize(..legal.len())];
        moves.push(m.to_string());
        g.play(m).unwrap();
    }
    let n = moves.len();
    moves.push("a1-a2".into());
    assert_eq!(
        err(&moves.join(" ")),
        ply(
            n + 1,
            "a1-a2",
            MoveError::from(IllegalMove::GameOver).into()
        )
    );
    // A decided game stated the other way round.
    let says = if g.outcome().winner() == Some(Side::Attackers) {
        "0-1"
    } else {
        "1-0"
    };
    let ends = g.outcome().winner();
    let stated = if ends == Some(Side::Attackers) {
        Side::Defenders
    } else {
        Side::Attackers
    };
    assert_eq!(
        err(&format!("{} {says}", moves[..n].join(" "))),
        RecordReadError::Result {
            says: Some(stated),
            ends
        }
    );
}

/// OpenTafl's `termination` tag is part of the record: the words records have always been
/// written with are written still, and a record holding them (or the reason's name) reads back
/// to its reason, whatever the bot's messages call it.
#[test]
fn the_termination_tag_keeps_its_words() {
    let ended_off_the_board = [
        (Reason::Resigned, "a player resigned"),
        (Reason::DrawAgreed, "the players agreed a draw"),
        (Reason::Timeout, "a player ran out of time"),
        (Reason::Aborted, "the game was aborted"),
        (
            Reason::PlyLimit,
            "the game reached the bot's limit on a game's length",
        ),
    ];
    for (reason, words) in ended_off_the_board {
        let mut g = Game::new(Rules::default());
        g.play_text("e2-c2").unwrap();
        let outcome = match reason {
            Reason::DrawAgreed | Reason::Aborted | Reason::PlyLimit => Outcome::Drawn { reason },
            _ => Outcome::Won {
                winner: Side::Attackers,
                reason,
            },
        };
        g.end(outcome).unwrap();
        let written = write_record(&g, RecordFormat::OpenTafl, &RecordTags::default());
        assert!(
            written.contains(&format!("\n[termination:{words}]\n")),
            "{written}"
        );
        let result = if outcome.winner().is_some() {
            "1-0"
        } else {
            "1/2-1/2"
        };
        for tag in [
            words.to_string(),
            words.to_uppercase(),
            reason.name().into(),
        ] {
            let old = format!("[result:{result}]\n[termination:{tag}]\n\n1. e2-c2\n");
            let read = read_record(&old, Rules::default()).unwrap_or_else(|e| panic!("{e}\n{old}"));
            assert_eq!(read.game.outcome(), outcome, "{old}");
        }
    }
}
