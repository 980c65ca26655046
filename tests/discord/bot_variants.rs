//! Brandubh and Copenhagen Hnefatafl end to end: the real serenity/poise client against the fake
//! Discord, whole games between two people and against the AI, played to a result. Every post
//! about the game names it, no post speaks of Tablut's raichi or tuichu, every board posted is
//! decoded as a PNG of the size the renderer declares, and the record, the rules, the replay
//! and the analysis of each game work as they do for Tablut.
//!
//! The moves are checked by the engine as the test plays them, and what the bot must say at the
//! end is built from the engine's own outcome. Against the AI the person's moves are chosen by
//! the engine too (each gives the AI a win as soon as it can), and the AI's moves are read from
//! its posts and replayed on the engine.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use serde_json::json;
use tablut_bot::bot::messages::variant_title;
use tablut_bot::render::graph;
use tablut_bot::render::theme::{self, Layout};
use tablut_bot::tafl::{
    read_record, Call, Game, Move, Outcome, Position, RecordedMove, Rules, Side, Square, Variant,
};

const ASTRID: u64 = 900_000_000_000_000_501;
const BIRGER: u64 = 900_000_000_000_000_502;
const CARL: u64 = 900_000_000_000_000_503;

/// A Brandubh game won by the attackers: the defenders open e4, the king walks to e2 beside
/// the attacker on d2, and f4-f2 closes the pair round him (two attackers suffice away from
/// the throne).
const BRANDUBH_CAPTURE: [&str; 7] = [
    "b4-b6", "e4-e6", "b6-b5", "d4-e4", "b5-b6", "e4-e2", "f4-f2",
];

/// A Copenhagen game won by the defenders: e7 and f7 step aside, and the king runs
/// f6-f7-c7-c11-a11 to the corner while the attackers shuffle a piece.
const COPENHAGEN_ESCAPE: [&str; 12] = [
    "h1-h3", "e7-e9", "h3-i3", "f7-b7", "i3-i2", "f6-f7", "i2-j2", "f7-c7", "j2-j3", "c7-c11",
    "j3-i3", "c11-a11",
];

/// The bot with the easy AI given all the time it needs (its one-ply pick is then decided by
/// the position alone), quick analysis, and no limits on how often a test may ask.
async fn harness() -> BotHarness {
    BotHarness::start(&[
        ("AI_EASY_TIME_MS", "30000"),
        ("AI_HINT_TIME_MS", "300"),
        ("AI_TT_MB", "4"),
        ("AI_GAME_COOLDOWN_SECS", "0"),
        ("ANALYSIS_MS_PER_PLY", "50"),
        ("COMMANDS_PER_MINUTE", "0"),
        ("COSTLY_COOLDOWN_SECS", "0"),
        ("DEFAULT_TIME_CONTROL", "none"),
    ])
    .await
}

/// The `variant` option as Discord sends a choice: its index.
fn variant_option(variant: Variant) -> serde_json::Value {
    let index = match variant {
        Variant::Tablut => 0,
        Variant::Brandubh => 1,
        Variant::Copenhagen => 2,
        Variant::Copenhagen13 => 3,
    };
    json!({"name": "variant", "type": 4, "value": index})
}

/// The name posts give the game.
fn name(variant: Variant) -> &'static str {
    match variant {
        Variant::Tablut => "Tablut",
        Variant::Brandubh => "Brandubh",
        Variant::Copenhagen => "Copenhagen",
        Variant::Copenhagen13 => "Copenhagen 13×13",
    }
}

/// The width and height of a board image of `variant`, as the renderer declares them (the same
/// for every variant).
fn board_size(_variant: Variant) -> (u32, u32) {
    (
        tablut_bot::render::BOARD_SIZE_PX,
        tablut_bot::render::BOARD_SIZE_PX,
    )
}

/// A post with the board: decoded as a PNG, of the declared size, showing the variant's board
/// (its four corners and its throne where the renderer's layout for that size puts them).
fn assert_board(r: &BotRequest, variant: Variant) {
    let png = r
        .file(".png")
        .unwrap_or_else(|| panic!("a board image with '{}'", r.content()));
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("the board is not a PNG ({e}): '{}'", r.content()))
        .to_rgb8();
    assert_eq!(img.dimensions(), board_size(variant), "{}", r.content());
    let layout = Layout::of(variant);
    // The cloth near a square's top-left corner, clear of any piece on it.
    let ground = |sq: Square| {
        let (x, y) = layout.square_origin(sq);
        let d = layout.square_px * 10 / 68;
        img.get_pixel(x + d, y + d).0
    };
    let near = |a: [u8; 3], b: [u8; 3]| {
        a.iter()
            .zip(b)
            .map(|(&x, y)| i32::from(x).abs_diff(i32::from(y)))
            .sum::<u32>()
            < 40
    };
    for corner in variant.corners() {
        assert!(
            near(ground(corner), theme::REFUGE_WALL),
            "{variant}: the corner {corner} is not drawn as a refuge: '{}'",
            r.content()
        );
    }
    assert!(
        near(ground(variant.castle()), theme::FORT_WALL),
        "{variant}: the throne is not drawn where it is: '{}'",
        r.content()
    );
}

/// A post about the game: it names the game, and says nothing of Tablut's calls.
fn assert_names(text: &str, variant: Variant) {
    assert!(text.contains(name(variant)), "the game is named: '{text}'");
    assert!(
        !text.contains("Raichi") && !text.contains("Tuichu"),
        "Tablut's calls only in Tablut: '{text}'"
    );
}

/// What the result line says, from the engine's outcome: "**Birger** wins the Brandubh game
/// with the defenders: the king escaped."
fn result_words(game: &Game, variant: Variant, attackers: &str, defenders: &str) -> String {
    match game.outcome() {
        Outcome::Won { winner, reason } => format!(
            "**{}** wins the {} game with the {winner}: {}.",
            match winner {
                Side::Attackers => attackers,
                Side::Defenders => defenders,
            },
            name(variant),
            tablut_bot::bot::messages::reason_words(reason)
        ),
        other => panic!("the game should be won: {other:?}"),
    }
}

/// The notation a move's post shows: "played **e4-e2**".
fn played(text: &str) -> String {
    text.split("played **")
        .nth(1)
        .and_then(|rest| rest.split("**").next())
        .unwrap_or_else(|| panic!("no move in '{text}'"))
        .to_string()
}

/// `/move notation` by `who` in `channel`: what shows it (its deferred answer, edited).
async fn play(h: &BotHarness, who: &Who, channel: u64, notation: &str) -> BotRequest {
    let id = h.fake.command(
        who,
        channel,
        "move",
        None,
        json!([{"name": "notation", "type": 3, "value": notation}]),
        &[],
    );
    let shown = h.fake.answer(id).await;
    let wanted = format!("played **{notation}");
    assert!(shown.content().contains(&wanted), "{}", shown.content());
    shown
}

/// A whole game of `variant` between Astrid (attackers) and Birger in `channel`, with
/// `moves`; then its board, record, rules, replay and analysis.
async fn a_whole_game_between_two_people(variant: Variant, channel: u64, moves: &[&str]) -> Game {
    let h = harness().await;
    let (astrid, birger) = (Who::member(ASTRID, "Astrid"), Who::member(BIRGER, "Birger"));
    let n = variant.size();
    let (challenge, started) = h
        .challenge_accepted(
            channel,
            &astrid,
            (BIRGER, "Birger"),
            json!([variant_option(variant)]),
        )
        .await;
    assert!(
        challenge.content().contains(&format!(
            "challenges you to {} ({n}×{n})",
            variant_title(variant)
        )),
        "{}",
        challenge.content()
    );
    let text = started.content();
    assert!(
        text.contains(&format!(
            "({}, {n}×{n}, no time limit)",
            variant_title(variant)
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Your move, <@{ASTRID}> (attackers) · move 1 · {}",
            name(variant)
        )),
        "{text}"
    );
    assert_board(&started, variant);

    let mut game = Game::new(variant.rules());
    let mut last = None;
    for (i, m) in moves.iter().enumerate() {
        let (who, next) = match i % 2 {
            0 => (&astrid, BIRGER),
            _ => (&birger, ASTRID),
        };
        if i == moves.len() - 1 {
            // While the game runs, the rules shown are its variant's, unless another is asked.
            let (_, rules) = h.tablut(who, channel, "rules", json!([]), &[]).await;
            let text = rules.content();
            assert!(
                text.starts_with(&format!("**{}**", variant_title(variant))),
                "{text}"
            );
            assert!(
                text.contains(&format!(
                    "This channel's game is a game of {}, **{}** rules.",
                    variant_title(variant),
                    tablut_bot::tafl::Preset::default_of(variant).name()
                )),
                "{text}"
            );
            let (_, rules) = h
                .tablut(
                    who,
                    channel,
                    "rules",
                    json!([variant_option(Variant::Tablut)]),
                    &[],
                )
                .await;
            assert!(
                rules.content().starts_with("**Tablut**"),
                "{}",
                rules.content()
            );
            assert!(!rules.content().contains("This channel's game"));
        }
        let recorded = game.play_text(m).expect("a legal move");
        let r = play(&h, who, channel, m).await;
        let text = r.content();
        assert!(!r.ephemeral(), "{text}");
        assert_eq!(played(&text), recorded.to_string(), "{text}");
        assert_names(&text, variant);
        if !game.outcome().is_over() {
            assert!(text.contains(&format!("Your move, <@{next}>")), "{text}");
        }
        assert_board(&r, variant);
        last = Some(r);
    }
    // The last move ended the game, as the engine says, and the bot says how.
    let text = last.unwrap().content();
    assert!(game.outcome().is_over(), "the moves end the game");
    assert!(
        text.contains(&result_words(&game, variant, "Astrid", "Birger")),
        "{text}"
    );
    assert!(text.contains("Ratings: Astrid 1500 → "), "{text}");
    assert_refused(
        &h.play(&astrid, channel, "a1-a2").await,
        "This game is over",
    );

    // The board, named.
    let (_, board) = h.tablut(&birger, channel, "board", json!([]), &[]).await;
    assert_names(&board.content(), variant);
    assert!(
        board
            .content()
            .contains(&result_words(&game, variant, "Astrid", "Birger")),
        "{}",
        board.content()
    );
    assert_board(&board, variant);
    // The record, as text and as a file, in the variant's notation.
    let (_, history) = h.tablut(&birger, channel, "history", json!([]), &[]).await;
    assert!(
        history
            .content()
            .starts_with(&format!("{}: **Astrid**", variant_title(variant))),
        "{}",
        history.content()
    );
    let file = String::from_utf8(history.file(".txt").unwrap().to_vec()).unwrap();
    assert!(file.contains(&format!("[Variant \"{variant}\"]")), "{file}");
    assert!(
        file.contains(&format!("[Rules \"{}\"]", game.rules())),
        "{file}"
    );
    assert!(file.contains(&game.record()), "{file}");
    assert_replay(&h, &birger, channel, &game, variant).await;
    assert_analysis(&h, &astrid, channel, &game, variant).await;
    assert_export_and_import(&h, channel, &game).await;
    h.fake.assert_contract();
    game
}

/// `/tablut export` in both formats: each file reads back as the game. `/tablut import` of it
/// (as text) keeps it as a finished game of the channel and starts its review; a bad record is
/// refused in one private line naming the ply.
async fn assert_export_and_import(h: &BotHarness, channel: u64, game: &Game) {
    let carl = Who::member(CARL, "Carl");
    let mut tafl = String::new();
    for (index, ext) in [(0, ".txt"), (1, ".otg")] {
        let (_, r) = h
            .tablut(
                &carl,
                channel,
                "export",
                json!([{"name": "format", "type": 4, "value": index}]),
                &[],
            )
            .await;
        assert!(r.content().starts_with("Game #"), "{}", r.content());
        let text = String::from_utf8(r.file(ext).expect("the record").to_vec()).unwrap();
        let back = read_record(&text, Rules::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.moves(), game.moves(), "{text}");
        assert_eq!(back.game.outcome(), game.outcome(), "{text}");
        assert_eq!(back.tags.attackers.as_deref(), Some("Astrid"), "{text}");
        if index == 0 {
            tafl = text;
        }
    }
    let (_, r) = h
        .tablut(
            &carl,
            channel,
            "import",
            json!([{"name": "record", "type": 3, "value": tafl}]),
            &[],
        )
        .await;
    let text = r.content();
    assert!(!r.ephemeral(), "{text}");
    assert!(text.starts_with("Imported as game #"), "{text}");
    assert!(text.contains("Reviewing game #"), "{text}");
    let id: i64 = text["Imported as game #".len()..]
        .split(':')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let path = format!("/api/v10/channels/{channel}/messages");
    let summary = h
        .fake
        .expect("the imported game's analysis", |r| {
            r.method == "POST"
                && r.path == path
                && r.content().contains(&format!("**Analysis of game #{id}**"))
        })
        .await;
    assert!(
        summary
            .content()
            .contains("Astrid (attackers) vs Birger (defenders)"),
        "{}",
        summary.content()
    );
    // A bad record: refused privately, naming the ply.
    let (_, r) = h
        .tablut(
            &carl,
            channel,
            "import",
            json!([{"name": "record", "type": 3, "value": "1. e1-e3"}]),
            &[],
        )
        .await;
    assert_refused(&r, "That record cannot be read: ply 1: 'e1-e3': the path from e1 to e3 is blocked by the piece on e2.");
}

/// A refusal: one line for the caller alone.
fn assert_refused(r: &BotRequest, words: &str) {
    assert!(r.ephemeral(), "{:?}", r.json);
    assert!(r.content().contains(words), "{}", r.content());
    assert!(!r.content().contains('\n'), "{}", r.content());
}

/// `/tablut replay` in `channel`: the game's name, and a GIF of a frame per position, each of
/// the board's size.
async fn assert_replay(h: &BotHarness, who: &Who, channel: u64, game: &Game, variant: Variant) {
    let id = h
        .fake
        .command(who, channel, "tablut", Some("replay"), json!([]), &[]);
    assert_eq!(
        h.fake.callback(id).await.callback_type(),
        Some(5),
        "deferred"
    );
    let replay = h.fake.followup(id).await;
    let text = replay.content();
    assert!(
        text.starts_with(&format!(
            "Replay of a game of {}: {} plies.",
            variant_title(variant),
            game.moves().len()
        )),
        "{text}"
    );
    let gif = replay.file(".gif").expect("the replay");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif).expect("a GIF");
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    assert_eq!((width, height), board_size(variant));
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(
        frames,
        game.moves().len() + 1,
        "the start and one frame a ply"
    );
}

/// `/tablut analysis` of the channel's last game: started, then the summary posted with its
/// graph, each naming the game.
async fn assert_analysis(h: &BotHarness, who: &Who, channel: u64, game: &Game, variant: Variant) {
    let (_, r) = h.tablut(who, channel, "analysis", json!([]), &[]).await;
    let text = r.content();
    assert!(!r.ephemeral(), "{text}");
    assert!(text.starts_with("Reviewing game #"), "{text}");
    assert!(
        text.contains(&format!(
            "({}, {} moves)",
            name(variant),
            game.moves().len()
        )),
        "{text}"
    );
    let path = format!("/api/v10/channels/{channel}/messages");
    let summary = h
        .fake
        .expect("the analysis", |r| {
            r.method == "POST" && r.path == path && r.content().contains("**Analysis of game #")
        })
        .await;
    let text = summary.content();
    assert!(text.contains(&format!("** ({})", name(variant))), "{text}");
    assert_names(&text, variant);
    let png = summary.file("analysis.png").expect("the graph");
    let graph = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap()
        .to_rgb8();
    assert_eq!(graph.dimensions(), (graph::WIDTH, graph::HEIGHT));
    // No raichi or tuichu line in the plot (a graph of as many plies shows where it is).
    let plot = graph::evaluation_graph(&graph::GraphInput {
        curve: vec![0.5; game.moves().len() + 1],
        marks: Vec::new(),
        calls: Vec::new(),
        title: String::new(),
        labels: graph::GraphLabels::default(),
    });
    for call in [Call::Raichi, Call::Tuichu] {
        let colour = graph::call_line(call);
        let drawn = (plot.left..=plot.right)
            .flat_map(|x| (plot.top..=plot.bottom).map(move |y| (x as u32, y as u32)))
            .filter(|&(x, y)| graph.get_pixel(x, y).0 == colour)
            .count();
        assert_eq!(drawn, 0, "{call:?} drawn in a game of {variant}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_brandubh_game_between_two_people_ends_with_the_king_taken() {
    a_whole_game_between_two_people(Variant::Brandubh, 10, &BRANDUBH_CAPTURE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_copenhagen_game_between_two_people_ends_with_the_king_in_a_corner() {
    let game = a_whole_game_between_two_people(Variant::Copenhagen, 20, &COPENHAGEN_ESCAPE).await;
    // The king saw a free line to a corner (which Tablut would call raichi) and nothing said so.
    assert!(game.moves().iter().any(|m| m.call.is_some()));
}

/// The person's move against the AI: one that lets the AI win at once if there is one (the
/// defenders put the king where one attacker's move takes him; the attackers open the king a
/// free line to a winning square); else the defenders bring the king nearest the attackers, and
/// the attackers give the king, then the defenders, the most room. The first such move in text
/// order, so the game depends on the position alone.
fn giving_way(game: &Game) -> Move {
    let pos = game.position();
    let legal = pos.legal_moves_sorted();
    let after = |mv: Move| pos.make(mv).0;
    let distance = |a: Square, b: Square| {
        (i32::from(a.file()) - i32::from(b.file())).abs()
            + (i32::from(a.rank()) - i32::from(b.rank())).abs()
    };
    let best = |score: &dyn Fn(&Position) -> i64| -> Move {
        let mut best = legal[0];
        let mut best_score = i64::MAX;
        for &mv in &legal {
            let s = score(&after(mv));
            if s < best_score {
                (best, best_score) = (mv, s);
            }
        }
        best
    };
    match pos.turn() {
        Side::Defenders => {
            if let Some(&mv) = legal.iter().find(|&&mv| after(mv).king_capturable()) {
                return mv;
            }
            best(&|p| {
                let king = p.king().expect("the king stands");
                p.attackers()
                    .into_iter()
                    .map(|a| i64::from(distance(a, king)))
                    .min()
                    .unwrap_or(0)
            })
        }
        Side::Attackers => {
            if let Some(&mv) = legal.iter().find(|&&mv| after(mv).king_free_lines() > 0) {
                return mv;
            }
            best(&|p| {
                let p = p.with_turn(Side::Defenders);
                let king = p.king().expect("the king stands");
                -(i64::from(p.destinations(king).count()) * 1000 + i64::from(p.count_legal_moves()))
            })
        }
    }
}

/// A whole game of `variant` against the easy AI in `channel`, the person playing `side` with
/// [`giving_way`]'s moves (after asking for a hint once), to the AI's win; then the record and
/// the replay.
async fn a_whole_game_against_the_ai(variant: Variant, channel: u64, side: Side) {
    let h = harness().await;
    let player = Who::member(ASTRID, "Astrid");
    let n = variant.size();
    let side_index = match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    };
    let (_, started) = h
        .tablut(
            &player,
            channel,
            "ai",
            json!([variant_option(variant),
                   {"name": "side", "type": 4, "value": side_index},
                   {"name": "level", "type": 4, "value": 0}]),
            &[],
        )
        .await;
    let text = started.content();
    assert!(!started.ephemeral(), "{text}");
    assert!(
        text.contains(&format!(
            "({}, {n}×{n}, no time limit)",
            variant_title(variant)
        )),
        "{text}"
    );
    assert_names(&text, variant);
    assert_board(&started, variant);

    let path = format!("/api/v10/channels/{channel}/messages");
    let mut game = Game::new(variant.rules());
    let mut last = started;
    let mut hinted = false;
    // Far more plies than either game takes: a game that does not end fails here.
    while !game.outcome().is_over() {
        assert!(game.moves().len() < 120, "no result after 120 plies");
        let recorded: RecordedMove;
        if game.turn() == side && !hinted {
            // A hint, for the player alone: a legal move of this game.
            let id = h
                .fake
                .command(&player, channel, "tablut", Some("hint"), json!([]), &[]);
            h.fake.callback(id).await;
            let hint = h.fake.followup(id).await;
            let text = hint.content();
            let best = text
                .strip_prefix("Try **")
                .and_then(|rest| rest.split("**").next())
                .unwrap_or_else(|| panic!("no move in the hint '{text}'"));
            game.clone()
                .play_text(best)
                .unwrap_or_else(|e| panic!("the hint {best} is not legal here: {e}"));
            hinted = true;
        }
        if game.turn() == side {
            let mv = giving_way(&game);
            recorded = game.play(mv).expect("a legal move");
            last = play(&h, &player, channel, &mv.to_string()).await;
        } else {
            last = h
                .fake
                .expect("the AI's move", |r| {
                    r.method == "POST"
                        && r.path == path
                        && r.content().starts_with("**the AI (easy)** (")
                })
                .await;
            // Recorded shown: the channel owes nothing, so her next move's answer is public.
            h.outbox_settled().await;
            let notation = played(&last.content());
            recorded = game
                .play_text(&notation)
                .unwrap_or_else(|e| panic!("the AI's move {notation}: {e}"));
        }
        let text = last.content();
        assert_eq!(played(&text), recorded.to_string(), "{text}");
        assert_names(&text, variant);
        assert_board(&last, variant);
    }
    // The engine says the AI won (the person gave way), and the bot says how.
    assert_eq!(
        game.outcome().winner(),
        Some(side.other()),
        "{:?}",
        game.outcome()
    );
    let (attackers, defenders) = match side {
        Side::Attackers => ("Astrid", "the AI (easy)"),
        Side::Defenders => ("the AI (easy)", "Astrid"),
    };
    let text = last.content();
    assert!(
        text.contains(&result_words(&game, variant, attackers, defenders)),
        "{text}"
    );
    assert!(
        !text.contains("Ratings"),
        "games against the AI are not rated: {text}"
    );
    let (_, history) = h.tablut(&player, channel, "history", json!([]), &[]).await;
    let file = String::from_utf8(history.file(".txt").unwrap().to_vec()).unwrap();
    assert!(file.contains(&game.record()), "{file}");
    assert_replay(&h, &player, channel, &game, variant).await;
    h.fake.assert_contract();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_brandubh_game_against_the_ai() {
    a_whole_game_against_the_ai(Variant::Brandubh, 30, Side::Defenders).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_copenhagen_game_against_the_ai() {
    a_whole_game_against_the_ai(Variant::Copenhagen, 40, Side::Attackers).await;
}

/// `/tablut import then: ai` plays on from the record's last position: the new game's record
/// starts there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_record_is_played_on_against_the_ai() {
    let h = harness().await;
    let carl = Who::member(CARL, "Carl");
    let record = "[Variant \"brandubh opentafl\"]\n\n1. b4-b6 e4-e6\n";
    let (_, r) = h
        .tablut(
            &carl,
            30,
            "import",
            json!([
                {"name": "record", "type": 3, "value": record},
                {"name": "then", "type": 4, "value": 1},
                {"name": "side", "type": 4, "value": 0},
            ]),
            &[],
        )
        .await;
    assert!(!r.ephemeral(), "{}", r.content());
    assert_board(&r, Variant::Brandubh);
    let (_, r) = h.tablut(&carl, 30, "export", json!([]), &[]).await;
    let text = String::from_utf8(r.file(".txt").expect("the record").to_vec()).unwrap();
    assert!(text.contains("[Variant \"brandubh opentafl\"]"), "{text}");
    let mut expected = Game::new(tablut_bot::tafl::Preset::BrandubhOpenTafl.rules());
    expected.play_text("b4-b6").unwrap();
    expected.play_text("e4-e6").unwrap();
    let back = read_record(&text, Rules::default()).unwrap();
    assert_eq!(back.game.start(), expected.position(), "{text}");
    // The same record as a file (downloaded from Discord's CDN), in another channel.
    let id = h.fake.command_with_file(
        &carl,
        32,
        "tablut",
        Some("import"),
        json!([
            {"name": "then", "type": 4, "value": 1},
            {"name": "side", "type": 4, "value": 0},
        ]),
        "file",
        ("game.txt", record.as_bytes()),
    );
    let r = h.fake.answer(id).await;
    assert!(!r.ephemeral(), "{}", r.content());
    assert_board(&r, Variant::Brandubh);
    // To play on against someone: the challenge, with its buttons; without an opponent, a
    // private line.
    let (_, r) = h
        .tablut(
            &carl,
            33,
            "import",
            json!([
                {"name": "record", "type": 3, "value": record},
                {"name": "then", "type": 4, "value": 2},
            ]),
            &[],
        )
        .await;
    assert_refused(&r, "Say whom you challenge to play on");
    let (_, r) = h
        .tablut(
            &carl,
            33,
            "import",
            json!([
                {"name": "record", "type": 3, "value": record},
                {"name": "then", "type": 4, "value": 2},
                {"name": "opponent", "type": 6, "value": ASTRID.to_string()},
            ]),
            &[(ASTRID, "Astrid", false)],
        )
        .await;
    assert!(
        r.button_ids()
            .iter()
            .any(|b| b.starts_with("tablut:accept:")),
        "{:?}",
        r.json
    );
    assert!(
        r.content().contains("Brandubh (7×7, opentafl rules)"),
        "{}",
        r.content()
    );
    // A finished record cannot be played on; an unfinished one cannot be reviewed.
    let (_, r) = h
        .tablut(
            &carl,
            31,
            "import",
            json!([{"name": "record", "type": 3, "value": record}]),
            &[],
        )
        .await;
    assert_refused(&r, "That record's game has not ended");
    h.fake.assert_contract();
}
