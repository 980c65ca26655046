//! Post-game analysis through the service on real SQLite files: the losing move found in
//! constructed games with the refutation named, full accuracy for a side that plays the
//! search's own moves, the graph decoded and read back against the stored analysis, and an
//! analysis that survives a restart half-way without searching any position twice.

use crate::support::fixture::{challenge_request, Fixture};
use std::time::Duration;
use tablut_bot::ai::analysis::{self, Judgement};
use tablut_bot::ai::{Limits, Searcher, Weights, MATE_BOUND};
use tablut_bot::both_backends;
use tablut_bot::render::graph::{self, evaluation_graph};
use tablut_bot::service::analysis::{
    graph_input, graph_mark, AnalysisReport, AnalysisStatus, Step,
};
use tablut_bot::service::*;
use tablut_bot::store;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::tafl::{parse_position, Call, Game, Move, Position, Rules, Side};

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
/// Every position is searched to this depth: deterministic, and quick in a debug build.
const DEPTH: u32 = 3;
const TT_MB: usize = 2;

fn config() -> Config {
    Config {
        images: true,
        ai_workers: 1,
        ai_tt_mb: TT_MB,
        ai_game_cooldown: Duration::ZERO,
        analysis_depth: Some(DEPTH),
        // Asking again is what these tests do: the cooldown is tested in tests/costs.rs.
        costly_cooldown: Duration::ZERO,
        ..Config::default()
    }
}

async fn fixture(db: TestDb) -> Fixture {
    Fixture::open(db, config()).await
}

fn position(record: &str, turn: Side) -> Position {
    parse_position(record, turn, Rules::default()).unwrap()
}

/// Astrid (attackers) against Birger (defenders) in `channel`, from `start`, playing `moves`
/// (each by the side to move); a game still going afterwards is resigned by the side to move.
async fn played(s: &Service, channel: u64, start: Option<Position>, moves: &[&str]) -> GameInfo {
    let c = s
        .games()
        .challenge(
            ChallengeRequest {
                start,
                ..challenge_request(
                    Place {
                        guild: Some(GUILD),
                        channel,
                    },
                    User::new(ASTRID, "Astrid"),
                    User::new(BIRGER, "Birger"),
                )
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    let mut game = s
        .games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done
        .game;
    for m in moves {
        let user = game.to_move().unwrap().user_id().unwrap();
        game = s
            .games()
            .play_move(channel, user, m, Answer::None)
            .await
            .unwrap()
            .done
            .game;
    }
    if !game.is_over() {
        let user = game.to_move().unwrap().user_id().unwrap();
        game = s
            .games()
            .resign(channel, user, None)
            .await
            .unwrap()
            .done
            .game;
    }
    game
}

/// Analyses the channel's last finished game to the end; its report.
async fn analysed(s: &Service, channel: u64) -> AnalysisReport {
    let id = match s
        .analysis()
        .request(channel, None, Some(ASTRID))
        .await
        .unwrap()
    {
        AnalysisStatus::Started { game, .. } => game.id,
        other => panic!("expected a new analysis, got {other:?}"),
    };
    assert!(s.analysis().run(id).await.unwrap());
    match s
        .analysis()
        .request(channel, None, Some(ASTRID))
        .await
        .unwrap()
    {
        AnalysisStatus::Finished(report) => *report,
        other => panic!("expected the finished analysis, got {other:?}"),
    }
}

/// The attackers hold the king on b2 with a full first rank and the attacker on a2; moving
/// that attacker away opens the king his line to a2, on the edge.
const KING_HELD: &str = "/ttttttttt/tKT6/1T7/1ttttt3/9/9/9/9/9/";

both_backends! {
    #[tokio::test]
    async fn a_move_that_opens_the_king_a_line_to_the_edge_is_a_blunder_and_its_refutation_named(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        let game = played(
            s,
            1,
            Some(position(KING_HELD, Side::Attackers)),
            &["a2-a5", "b2-a2"],
        )
        .await;
        assert_eq!(game.outcome.winner(), Some(Side::Defenders));
        let report = analysed(s, 1).await;
        let review = &report.review;
        assert_eq!(review.moves.len(), 2);
        let blunder = &review.moves[0];
        assert_eq!(blunder.played, "a2-a5");
        assert_eq!(blunder.judgement, Judgement::Blunder, "{blunder:?}");
        assert_eq!(blunder.after, 0.0, "the king escapes by force");
        let better = blunder.better.expect("a better move is named");
        assert_ne!(better, blunder.mv);
        assert_eq!(
            blunder.refutation.map(|m| m.to_string()).as_deref(),
            Some("b2-a2")
        );
        // The better move keeps the king from the edge: after it the king has no escape in one.
        let mut after_better = Game::from_position(position(KING_HELD, Side::Attackers));
        after_better.play(better).unwrap();
        assert!(after_better
            .position()
            .legal_moves_sorted()
            .into_iter()
            .all(|m| {
                let mut g = after_better.clone();
                g.play(m).unwrap();
                g.outcome().winner() != Some(Side::Defenders)
            }));
        let escape = &review.moves[1];
        assert_eq!(escape.judgement, Judgement::Good);
        assert_eq!(review.accuracy[1], Some(100.0));
        assert!(review.accuracy[0].unwrap() < 10.0);
        assert_eq!(*review.curve.last().unwrap(), 0.0, "the defenders won");
        let worst = review.worst(Side::Attackers, 3);
        assert_eq!(worst.len(), 1);
        // The summary, typed: the blunder with the better move and the answer it allowed.
        let summary = report.summary();
        assert_eq!(summary.game.id, game.id);
        let [attackers, defenders] = &summary.sides;
        assert_eq!(attackers.side, Side::Attackers);
        assert_eq!(attackers.accuracy, review.accuracy[0]);
        assert_eq!(
            (attackers.blunders, attackers.mistakes, attackers.inaccuracies),
            (1, 0, 0)
        );
        assert_eq!(attackers.worst.len(), 1);
        let costly = &attackers.worst[0];
        assert_eq!((costly.ply, costly.number), (1, 1));
        assert_eq!(costly.played, "a2-a5");
        assert_eq!(costly.judgement, Judgement::Blunder);
        assert_eq!(costly.loss, blunder.loss);
        assert_eq!(costly.better, Some(better));
        assert_eq!(
            costly.refutation.map(|m| m.to_string()).as_deref(),
            Some("b2-a2")
        );
        assert_eq!(defenders.side, Side::Defenders);
        assert_eq!(defenders.accuracy, Some(100.0));
        assert!(defenders.worst.is_empty());
        // As the bot words it.
        let text = tablut_bot::bot::messages::analysis_summary(&summary);
        assert!(text.contains("• 1. a2-a5??"), "{text}");
        assert!(text.contains(&format!("better **{better}**")), "{text}");
        assert!(text.contains("it allowed **b2-a2**"), "{text}");
    }
}

/// The king on d8 sees the edge at a8; the attackers, behind (the search gives them about 13%),
/// can still shut the line, and a3-a1 does not.
const KING_SEES_A8: &str = "/3t1t3/2tTt4/t3T4/2T2T2t/tt5Tt/t3T1t2/2T1T2t1/3Kt4/3t1t3/";

both_backends! {
    #[tokio::test]
    async fn a_move_that_lets_the_king_escape_from_a_playable_position_is_a_blunder_and_says_why(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        let game = played(
            s,
            4,
            Some(position(KING_SEES_A8, Side::Attackers)),
            &["a3-a1", "d8-a8"],
        )
        .await;
        assert_eq!(game.outcome.winner(), Some(Side::Defenders));
        let report = analysed(s, 4).await;
        let m = &report.review.moves[0];
        // Playable before, lost by force after, for less than a blunder's 30% on the curve.
        assert!(m.before > analysis::LOST_MISTAKE && m.before < analysis::BLUNDER, "{m:?}");
        assert_eq!(m.after, 0.0);
        assert_eq!(m.forced, Some(analysis::Forced::LossAllowed));
        assert_eq!(m.judgement, Judgement::Blunder, "{m:?}");
        let summary = report.summary();
        assert_eq!(summary.sides[0].blunders, 1);
        assert_eq!(summary.sides[0].worst[0].forced, Some(analysis::Forced::LossAllowed));
        let text = tablut_bot::bot::messages::analysis_summary(&summary);
        let shown = analysis::percent(m.loss);
        assert!(
            text.contains(&format!(
                "• 1. a3-a1?? (blunder: it allows a forced loss; {shown}% of the expected score given away)"
            )),
            "{text}"
        );
        assert!(text.contains("it allowed **d8-a8**"), "{text}");
    }
}

/// The king on e7 between an attacker on d7 and his defender on f7, an attacker waiting on f9:
/// the defender stepping off f7 (which also gives the king a free line: raichi) lets f9-f7
/// capture him.
const KING_BESIDE_ATTACKER: &str = "/3ttt3/9/9/1T5T1/9/4T4/3tKT3/4T4/5t3/";

both_backends! {
    #[tokio::test]
    async fn a_move_that_lets_the_king_be_captured_is_found_with_the_capture_named(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        let game = played(
            s,
            2,
            Some(position(KING_BESIDE_ATTACKER, Side::Defenders)),
            &["f7-f4", "f9-f7"],
        )
        .await;
        assert_eq!(game.outcome.winner(), Some(Side::Attackers));
        let report = analysed(s, 2).await;
        let review = &report.review;
        let losing = &review.moves[0];
        assert_eq!(losing.side, Side::Defenders);
        assert!(losing.judgement >= Judgement::Mistake, "{losing:?}");
        assert_eq!(losing.after, 0.0);
        assert_eq!(
            losing.refutation.map(|m| m.to_string()).as_deref(),
            Some("f9-f7")
        );
        assert!(losing.better.is_some_and(|b| b != losing.mv));
        assert_eq!(review.worst(Side::Defenders, 3)[0].ply, 1);
        // The defenders moved first: their first move is numbered 1 in the record.
        let summary = report.summary();
        let costly = &summary.sides[1].worst[0];
        assert_eq!((costly.ply, costly.number, costly.side), (1, 1, Side::Defenders));
        let text = tablut_bot::bot::messages::analysis_summary(&summary);
        assert!(costly.played.starts_with("f7-f4"), "{costly:?}");
        assert!(text.contains(&format!("• 1… {}", costly.played)), "{text}");
        assert_eq!(review.moves[1].judgement, Judgement::Good);
        assert_eq!(review.calls, vec![(1, Call::Raichi)]);
        assert_eq!(*review.curve.last().unwrap(), 1.0, "the attackers won");
    }
}

/// The search's own move at the analysis's depth, from a fresh table.
fn best(game: &Game) -> Move {
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    analysis::evaluate(&mut Searcher::new(TT_MB, Weights::DEFAULT), game, &limits)
        .unwrap()
        .best
}

both_backends! {
    #[tokio::test]
    async fn a_side_that_plays_the_searchs_moves_gets_full_accuracy(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        // The attackers play the search's move; the defenders a seeded random one.
        let mut game = Game::new(Rules::default());
        let mut rng = fastrand::Rng::with_seed(16);
        let mut moves = Vec::new();
        while moves.len() < 10 && !game.outcome().is_over() {
            let mv = match game.turn() {
                Side::Attackers => best(&game),
                Side::Defenders => {
                    let legal = game.position().legal_moves_sorted();
                    legal[rng.usize(..legal.len())]
                }
            };
            game.play(mv).unwrap();
            moves.push(mv.to_string());
        }
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        played(s, 3, None, &moves).await;
        let report = analysed(s, 3).await;
        let review = &report.review;
        assert_eq!(review.accuracy[0], Some(100.0));
        assert!(review
            .moves
            .iter()
            .filter(|m| m.side == Side::Attackers)
            .all(|m| m.judgement == Judgement::Good && m.loss == 0.0 && m.better.is_none()));
        let defenders = review.accuracy[1].unwrap();
        assert!((0.0..=100.0).contains(&defenders));
    }
}

fn rgb(img: &image::RgbImage, (x, y): (i32, i32)) -> [u8; 3] {
    img.get_pixel(x as u32, y as u32).0
}

both_backends! {
    #[tokio::test]
    async fn the_graph_shows_the_stored_curve_its_marks_and_the_calls(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        let game = played(
            s,
            4,
            Some(position(KING_BESIDE_ATTACKER, Side::Defenders)),
            &["f7-f4", "f9-f7"],
        )
        .await;
        let report = analysed(s, 4).await;
        // The stored analysis, read on its own: the attackers' expected score in each position.
        let stored = store::analysis::of_game(s.store().pool(), game.id)
            .await
            .unwrap()
            .unwrap();
        let evals: Vec<Option<serde_json::Value>> = serde_json::from_str(&stored.evaluations).unwrap();
        assert_eq!(evals.len(), 3);
        let mut g = Game::from_position(position(KING_BESIDE_ATTACKER, Side::Defenders));
        let mut expected = Vec::new();
        for (i, e) in evals.iter().enumerate() {
            let attackers = match e {
                Some(e) => {
                    let score = e["score"].as_i64().unwrap() as i32;
                    let own = if score.abs() > MATE_BOUND {
                        f64::from(u8::from(score > 0))
                    } else {
                        1.0 / (1.0 + (-f64::from(score) / analysis::DEFAULT_SCALE).exp())
                    };
                    if g.turn() == Side::Attackers {
                        own
                    } else {
                        1.0 - own
                    }
                }
                None => match g.outcome().winner() {
                    Some(Side::Attackers) => 1.0,
                    Some(Side::Defenders) => 0.0,
                    None => 0.5,
                },
            };
            expected.push(attackers);
            if let Some(m) = ["f7-f4", "f9-f7"].get(i) {
                g.play_text(m).unwrap();
            }
        }
        assert_eq!(report.review.curve, expected);

        // The PNG the bot posts, decoded.
        let img = image::load_from_memory(&report.png).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (graph::WIDTH, graph::HEIGHT));
        // Drawn the same way again, with where each point went.
        let drawn = evaluation_graph(&graph_input(
            &report.review,
            tablut_bot::bot::messages::graph_title(&report.game),
            tablut_bot::service::graph_labels(Some(tablut_bot::bot::messages::caption)),
        ));
        assert_eq!(
            drawn.png, report.png,
            "the graph is drawn the same way every time"
        );
        let (top, bottom) = (drawn.top, drawn.bottom);
        for (i, (&point, &value)) in drawn.points.iter().zip(&expected).enumerate() {
            let y = f64::from(drawn.y0) + value * f64::from(drawn.y1 - drawn.y0);
            assert!(
                (f64::from(point.1) - y).abs() <= 2.0,
                "ply {i}: {point:?} for {value}"
            );
            if i > 0 {
                assert!(point.0 > drawn.points[i - 1].0);
            }
        }
        let step = drawn.points[1].0 - drawn.points[0].0;
        assert!(
            (drawn.points[2].0 - drawn.points[1].0 - step).abs() <= 1,
            "plies evenly spaced"
        );
        // Each point shows its marker (the costly move) or the curve (a thick line: within a
        // few pixels of the point).
        let curve_near = |(x, y): (i32, i32)| {
            (x - 2..=x + 2).any(|x| (y - 3..=y + 3).any(|y| rgb(&img, (x, y)) == graph::CURVE))
        };
        for m in &report.review.moves {
            let at = drawn.points[m.ply as usize];
            match graph_mark(m.judgement).map(graph::marker) {
                Some(colour) => assert_eq!(rgb(&img, at), colour, "the marker of ply {}", m.ply),
                None => assert!(curve_near(at), "the curve at ply {}", m.ply),
            }
        }
        assert!(curve_near(drawn.points[0]));
        // The raichi after ply 1: a line in raichi's colour down the plot at its x.
        let x = drawn.points[1].0;
        let far = if drawn.points[1].1 > (top + bottom) / 2 {
            top + (bottom - top) / 4
        } else {
            bottom - (bottom - top) / 4
        };
        assert!(
            (x - 2..=x + 2).any(|x| rgb(&img, (x, far)) == graph::call_line(Call::Raichi)),
            "the raichi line at x {x}"
        );
        assert!((x - 8..=x + 8).all(|x| rgb(&img, (x, far)) != graph::call_line(Call::Tuichu)));
        // Elsewhere at that height: the shares' colours, not the call's.
        let mid = (drawn.points[0].0 + x) / 2;
        assert_ne!(rgb(&img, (mid, far)), graph::call_line(Call::Raichi));
    }
}

both_backends! {
    #[tokio::test]
    async fn an_analysis_survives_a_restart_half_way_and_searches_no_position_twice(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        let moves = ["e2-c2", "e4-d4", "a4-a2", "d4-d3", "i6-i7", "e6-f6"];
        let game = played(s, 5, None, &moves).await;
        let id = match s.analysis().request(5, None, None).await.unwrap() {
            AnalysisStatus::Started { total, .. } => {
                assert_eq!(total, 6);
                game.id
            }
            other => panic!("{other:?}"),
        };
        // Three of the seven positions, then the bot stops.
        for done in 1..=3 {
            assert_eq!(
                s.analysis().step(id).await.unwrap(),
                Step::Reviewed { done, positions: 7 }
            );
        }
        assert_eq!(s.probe().analysis_searches(), 3);
        match s.analysis().request(5, Some(id), None).await.unwrap() {
            AnalysisStatus::Running {
                reviewed, total, ..
            } => assert_eq!((reviewed, total), (2, 6)),
            other => panic!("{other:?}"),
        }
        let f = f.reopen().await;
        let s = &f.service;
        assert_eq!(s.analysis().unfinished().await.unwrap(), vec![id]);
        assert!(s.analysis().run(id).await.unwrap());
        assert_eq!(s.probe().analysis_searches(), 4, "only the four positions left");
        assert!(s.analysis().unfinished().await.unwrap().is_empty());
        assert_eq!(s.analysis().step(id).await.unwrap(), Step::Finished);
        // The result is the one a single uninterrupted analysis gives.
        let mut whole = Game::new(Rules::default());
        for m in moves {
            whole.play_text(m).unwrap();
        }
        let limits = Limits {
            depth: Some(DEPTH),
            ..Limits::default()
        };
        let evals =
            analysis::evaluate_game(&mut Searcher::new(TT_MB, Weights::DEFAULT), &whole, &limits);
        let fresh = analysis::review(&whole, &evals, analysis::DEFAULT_SCALE);
        let report = match s.analysis().request(5, None, None).await.unwrap() {
            AnalysisStatus::Finished(r) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!(report.review.curve, fresh.curve);
        assert_eq!(report.review.moves, fresh.moves);
        assert_eq!(s.probe().analysis_searches(), 4, "asking again searches nothing");

        // The channel was told: the progress (one message, edited), then the summary with its
        // graph; the summary once.
        let notices = s.probe().notices_in(5).await.unwrap();
        let analysis: Vec<_> = notices
            .iter()
            .filter(|n| n.kind.starts_with("analysis"))
            .collect();
        let first = analysis[0];
        assert_eq!(first.kind, "analysis_progress");
        let payloads: Vec<Payload> = analysis
            .iter()
            .map(|n| serde_json::from_str(&n.payload).unwrap())
            .collect();
        assert!(
            matches!(
                &payloads[0].news,
                Some(News::AnalysisProgress { game, reviewed: 0, total: 6 }) if game.id == id
            ),
            "{:?}",
            payloads[0].news
        );
        let stored: serde_json::Value = serde_json::from_str(&analysis[0].payload).unwrap();
        assert!(stored.get("text").is_none(), "worded by the bot, not stored: {stored}");
        assert_eq!(payloads[0].edit_notice, None);
        let summaries: Vec<&Payload> = analysis
            .iter()
            .zip(&payloads)
            .filter(|(n, _)| n.kind == "analysis")
            .map(|(_, p)| p)
            .collect();
        assert_eq!(summaries.len(), 1);
        assert_eq!(summaries[0].graph.as_ref().map(|g| g.game), Some(id));
        match &summaries[0].news {
            Some(News::AnalysisSummary(summary)) => assert_eq!(summary.game.id, id),
            other => panic!("{other:?}"),
        }
        for (n, p) in analysis.iter().zip(&payloads).skip(1) {
            if n.kind == "analysis_progress" {
                assert_eq!(
                    p.edit_notice,
                    Some(first.id),
                    "progress edits the first message"
                );
            }
        }
        let graph = s
            .analysis().graph(summaries[0].graph.as_ref().unwrap())
            .await
            .unwrap();
        assert_eq!(graph, report.png);
    }
}

both_backends! {
    #[tokio::test]
    async fn refusals_name_what_is_wrong(db: TestDb) {
        let f = fixture(db).await;
        let s = &f.service;
        assert!(matches!(
            s.analysis().request(6, None, None).await,
            Err(ServiceError::NoFinishedGame)
        ));
        let game = played(s, 6, None, &["e2-c2"]).await;
        assert!(matches!(
            s.analysis().request(7, Some(game.id), None).await,
            Err(ServiceError::NotAFinishedGame(_))
        ));
        assert!(matches!(
            s.analysis().request(6, Some(game.id + 100), None).await,
            Err(ServiceError::NotAFinishedGame(_))
        ));
        // A game resigned before any move.
        played(s, 8, None, &[]).await;
        assert!(matches!(
            s.analysis().request(8, None, None).await,
            Err(ServiceError::NothingToReview(_))
        ));
        let listed = s.analysis().finished_games(6).await.unwrap();
        assert_eq!(listed.len(), 1);
        let label = tablut_bot::bot::messages::game_choice(&listed[0]);
        assert!(label.starts_with(&format!("#{}", game.id)) && label.chars().count() <= 100);
    }
}
