//! The words' tests: what players read, for every topic, checked as Discord shows it.

use super::*;
use crate::ai::analysis::Judgement;
use crate::service::analysis::AnalysisSummary;
use crate::service::{Caption, PuzzleView};
use crate::service::{
    ChallengeInfo, ClockEvent, Ended, GameInfo, Hint, Leaderboard, MoveReport, News, Player,
    RatingChanges, Stats, TimeControl,
};
use crate::tafl::{Call, Outcome, Rules, Side, Variant};
use std::time::Duration;

#[test]
fn an_analysis_summary_names_three_moves_a_side_within_the_limit() {
    use crate::ai::analysis::{review, Evaluation};
    use crate::service::{Place, Player, TimeControl, User};
    use crate::tafl::{Game, Position};
    // A long game where every move throws the game away: 30 costly moves a side.
    let mut game = Game::new(Rules::default());
    let mut rng = fastrand::Rng::with_seed(3);
    while game.moves().len() < 60 {
        let legal = game.position().legal_moves_sorted();
        let mut g = game.clone();
        let mv = legal[rng.usize(..legal.len())];
        g.play(mv).unwrap();
        if !g.outcome().is_over() {
            game = g;
        }
    }
    let evals: Vec<Option<Evaluation>> = (0..=60)
        .map(|i| {
            let best = game.positions()[i].legal_moves_sorted()[0];
            Some(Evaluation {
                score: 900,
                best,
                depth: 1,
                nodes: 1,
            })
        })
        .collect();
    let r = review(&game, &evals, 164.0);
    assert!(
        r.moves
            .iter()
            .filter(|m| m.judgement == Judgement::Blunder)
            .count()
            > 50
    );
    let name = "*".repeat(32);
    let info = GameInfo {
        id: 123_456_789,
        place: Place {
            guild: Some(1),
            channel: 2,
        },
        attackers: Player::User(User::new(1, name.clone())),
        defenders: Player::User(User::new(2, name)),
        rules: Rules::default(),
        start: Position::start(Rules::default()),
        rated: true,
        ply: 60,
        turn: game.turn(),
        outcome: Outcome::Drawn {
            reason: crate::tafl::Reason::DrawAgreed,
        },
        time_control: TimeControl::None,
        turn_deadline: None,
        board_message_id: None,
        tournament: None,
        clocks: None,
    };
    let text = analysis_summary(&AnalysisSummary::new(&info, &r));
    assert!(text.chars().count() <= CONTENT_LIMIT, "{}", text.len());
    assert!(!text.ends_with('…'), "fits without being cut");
    assert_eq!(text.matches("\n• ").count(), 6, "{text}");
    assert!(text.contains("better **"), "{text}");
    assert!(text.contains(r"\*\*\*"), "names escaped: {text}");
}

#[test]
fn counts_are_pluralised_and_labels_agree_with_their_percentages() {
    use crate::ai::analysis::{Forced, MoveReview, Review};
    use crate::service::{Place, Player, TimeControl, User};
    use crate::tafl::Position;
    let start = Position::start(Rules::default());
    let mv = start.legal_moves_sorted()[0];
    // Attackers' moves (odd plies): three inaccuracies, one loss shown as 20%, and one that
    // allowed a forced loss for 15%.
    let judged = |ply: u32, loss: f64, forced: Option<Forced>| MoveReview {
        ply,
        side: Side::Attackers,
        played: format!("m{ply}"),
        mv,
        before: 0.5,
        after: 0.5 - loss,
        loss,
        judgement: Judgement::of_loss(loss)
            .max(forced.map_or(Judgement::Good, |f| f.judgement(0.5, 0.5 - loss))),
        forced,
        accuracy: crate::ai::analysis::move_accuracy(loss),
        better: None,
        refutation: None,
    };
    let moves = vec![
        judged(1, 0.12, None),
        judged(3, 0.11, None),
        judged(5, 0.13, None),
        judged(7, 0.1996, None),
        judged(9, 0.15, Some(Forced::LossAllowed)),
    ];
    let review = Review {
        curve: vec![0.5; 11],
        calls: Vec::new(),
        accuracy: [Some(50.0), None],
        outcome: Outcome::Drawn {
            reason: crate::tafl::Reason::DrawAgreed,
        },
        moves,
    };
    let info = GameInfo {
        id: 7,
        place: Place {
            guild: Some(1),
            channel: 2,
        },
        attackers: Player::User(User::new(1, "Astrid")),
        defenders: Player::User(User::new(2, "Birger")),
        rules: Rules::default(),
        start,
        rated: true,
        ply: 10,
        turn: Side::Attackers,
        outcome: review.outcome,
        time_control: TimeControl::None,
        turn_deadline: None,
        board_message_id: None,
        tournament: None,
        clocks: None,
    };
    let text = analysis_summary(&AnalysisSummary::new(&info, &review));
    assert!(
        text.contains("1 blunder, 1 mistake, 3 inaccuracies"),
        "{text}"
    );
    assert!(!text.contains("inaccuracys"), "{text}");
    // The label is the one the shown percentage falls under.
    assert!(text.contains("m7? (mistake, 20% of"), "{text}");
    // A forced loss says why it is a blunder for less than 30%.
    assert!(
        text.contains("m9?? (blunder: it allows a forced loss; 15% of"),
        "{text}"
    );
    // Counts of one are singular wherever a count is worded.
    let mut one = info.clone();
    one.ply = 1;
    assert!(
        game_choice(&one).ends_with("· 1 ply"),
        "{}",
        game_choice(&one)
    );
    assert!(analysis_started(&one, 1).contains("(1 move)"));
    assert!(analysis_running(&one, 0, 1).contains("0 of 1 move so far"));
    assert!(analysis_progress(&one, 0, 1).contains("0 of 1 move reviewed"));
    assert!(analysis_progress(&one, 1, 1).contains("its one move"));
    assert!(analysis_progress(&one, 0, 2).contains("0 of 2 moves reviewed"));
    let hint = Hint {
        best: "a4-a2".into(),
        score: 0,
        depth: 1,
        pv: Vec::new(),
    };
    assert!(hint_message(&hint).contains("searched 1 ply ahead"));
    assert_eq!(counted(1u32, "ply", "plies"), "1 ply");
    assert_eq!(counted(0u32, "ply", "plies"), "0 plies");
}

#[test]
fn mentions_and_times_in_discord_markup() {
    assert_eq!(user(80351110224678912).to_string(), "<@80351110224678912>");
    assert_eq!(
        channel(81384788765712384).to_string(),
        "<#81384788765712384>"
    );
    assert_eq!(relative_time(1_800_000_000_999), "<t:1800000000:R>");
}

#[test]
fn names_cannot_inject_markdown_or_mentions() {
    assert_eq!(escape("*Bo*_@everyone"), "\\*Bo\\*\\_\\@everyone");
    assert_eq!(
        escape("[Free Nitro](https://x.io)"),
        "\\[Free Nitro\\]\\(https\\://x\\.io\\)"
    );
    assert_eq!(escape("<@&1> # h\n> q"), "\\<\\@&1\\> \\# h \\> q");
    assert_eq!(escape("a\u{202E}b\u{2066}c\\"), "abc\\\\");
    // Letters, digits, spaces and the rest of Unicode are left as they are.
    assert_eq!(escape("Åsa Ørn 1732 ᚦ 🐺"), "Åsa Ørn 1732 ᚦ 🐺");
    // Only the users a post mentions itself are pinged; a name's mention cannot be one.
    let pings = |text: &str| serde_json::to_value(pinged(text)).unwrap();
    assert_eq!(
        pings("<@7>, <@!8> and <@7>: <@&9> <#10> @everyone"),
        serde_json::json!({"parse": [], "roles": [], "users": ["7", "8"]})
    );
    assert_eq!(
        pings(&format!("**{}** moved", escape("<@7> @everyone"))),
        serde_json::json!({"parse": [], "roles": [], "users": []})
    );
}

/// Names a member could choose, each of which Discord would read as formatting, a link, a
/// preview or a mention if a post showed it as it is.
const HOSTILE: &[&str] = &[
    "[Free Nitro](https://x.io)",
    "https://x.io/free-nitro",
    "discord.gg/nitro www.x.io",
    "@everyone @here",
    "<@80351110224678912> <@&1> <#2>",
    "# Heading",
    "## h2\n### h3",
    "> quote >>> all",
    "-# subtext",
    "- list\n* item\n1. first",
    "```rust\ncode``` `tick`",
    "||spoiler|| ~~gone~~",
    "__under__ *it* **bold**",
    "<t:1800000000:R> <:e:3> </x:4>",
    "\u{202E}desrever\u{2066}",
    "back\\slash\\",
    "\\*not escaped*",
];

/// The characters Discord's markdown, link, invite and mention parsing reads (written apart
/// from [`MARKUP`], so that a character dropped there fails here).
const DISCORD_READS: &str = "\\*_~`|><#-+.[]()@:";

/// What Discord would read as markup in `text`: its markup characters (a backslash before
/// one makes it text), line breaks and bidirectional controls, in order.
fn markup(text: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) if n.is_ascii_punctuation() => {}
                next => out.extend(std::iter::once('\\').chain(next)),
            },
            c if DISCORD_READS.contains(c) || c == '\n' || escape(&c.to_string()).is_empty() => {
                out.push(c)
            }
            _ => {}
        }
    }
    out
}

/// `text` as Discord shows it, escapes taken out.
fn rendered(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(n)) if n.is_ascii_punctuation() => out.push(chars.next().unwrap()),
            (c, _) => out.push(c),
        }
    }
    out
}

/// A name as a post shows it: on one line, without bidirectional controls.
fn shown(name: &str) -> String {
    rendered(&escape(name))
}

#[test]
fn the_history_files_tags_hold_any_name_on_one_line() {
    for name in HOSTILE.iter().chain(&["say \"hi\"]\n[Result \"1-0\"]"]) {
        let game = GameInfo {
            attackers: Player::User(crate::service::User::new(7, *name)),
            ..long_game(1)
        };
        let file = history_file(&game, "1. e1-e3", "x");
        let tags: Vec<&str> = file.lines().take_while(|l| !l.is_empty()).collect();
        assert_eq!(tags.len(), 5, "{file}");
        for line in tags {
            assert!(
                line.starts_with('[') && line.ends_with("\"]") && line.matches('"').count() == 2,
                "{line}"
            );
        }
        assert!(file.contains("\n1. e1-e3\n"), "{file}");
    }
}

/// Every kind of post that shows a name, built for players named `a` and `b`.
fn posts_naming(a: &str, b: &str) -> Vec<(&'static str, String)> {
    use crate::service::{ChallengeStatus, Place, RecentGame, User};
    use crate::tafl::{Bitboard, Mark, Move, Reason, RecordedMove, Square};
    let (alice, bob) = (User::new(7, a), User::new(8, b));
    let game = |outcome| GameInfo {
        attackers: Player::User(alice.clone()),
        defenders: Player::User(bob.clone()),
        outcome,
        ply: 4,
        turn: Side::Attackers,
        ..long_game(1)
    };
    let won = |reason| Outcome::Won {
        winner: Side::Defenders,
        reason,
    };
    let rating = crate::rating::Rating::default();
    let ratings = RatingChanges {
        attackers: (7, rating, rating),
        defenders: (8, rating, rating),
    };
    let sq = |f, r| Square::from_coords(f, r).unwrap();
    let recorded = RecordedMove {
        mv: Move::new(sq(3, 3), sq(3, 1)),
        side: Side::Defenders,
        captured: Bitboard::EMPTY,
        king_captured: false,
        mark: Mark::Threat,
        call: None,
    };
    let report = MoveReport {
        game: game(won(Reason::KingEscaped)),
        recorded,
        notation: recorded.to_string(),
        by: Player::User(bob.clone()),
        captured: Vec::new(),
        call: None,
        ratings: Some(ratings),
        png: Vec::new(),
        notice: 0,
    };
    let ended = |outcome| Ended {
        game: game(outcome),
        ratings: Some(ratings),
        png: Vec::new(),
        notice: None,
    };
    let challenge = ChallengeInfo {
        id: 1,
        place: Place {
            guild: Some(1),
            channel: 2,
        },
        challenger: alice.clone(),
        challenged: bob.clone(),
        side: crate::service::SideChoice::Attackers,
        rules: Rules::default(),
        time_control: TimeControl::None,
        thread: false,
        rated: true,
        status: ChallengeStatus::Pending,
        expires_at: 0,
        message_id: None,
    };
    let stats = Stats {
        user: 7,
        games: 1,
        wins_as_attackers: 0,
        losses_as_attackers: 1,
        wins_as_defenders: 0,
        losses_as_defenders: 0,
        draws: 0,
        ratings: Vec::new(),
        recent: vec![RecentGame {
            game: 1,
            variant: Variant::Tablut,
            side: Side::Attackers,
            opponent: Player::User(bob.clone()),
            result: "loss",
            reason: "king_escaped".into(),
            ended_at: 0,
        }],
    };
    let leaderboard = Leaderboard {
        variant: Variant::Tablut,
        page: 0,
        pages: 1,
        players: 2,
        lines: [&alice, &bob]
            .iter()
            .enumerate()
            .map(|(i, u)| crate::service::Ranked {
                rank: i as u32 + 1,
                user: u.id,
                name: u.name.clone(),
                rating,
                rated_games: 1,
            })
            .collect(),
    };
    let review = crate::ai::analysis::Review {
        curve: vec![0.5; 5],
        calls: Vec::new(),
        accuracy: [Some(50.0), Some(60.0)],
        outcome: won(Reason::KingEscaped),
        moves: Vec::new(),
    };
    let solvers: Vec<crate::service::puzzle::PuzzlePlayer> = [&alice, &bob]
        .iter()
        .map(|u| crate::service::puzzle::PuzzlePlayer {
            user_id: u.id,
            name: u.name.clone(),
            rating,
            solved: 1,
            failed: 0,
        })
        .collect();
    let on = game(Outcome::Ongoing);
    let over = game(won(Reason::KingEscaped));
    use crate::service::notify::{Digest, DmsRefused, LastMove, TurnDm, Waiting};
    let dm = TurnDm {
        user: 7,
        game: on.clone(),
        last_move: Some(LastMove {
            notation: report.notation.clone(),
            by: Player::User(bob.clone()),
        }),
        time_left_ms: Some(3_600_000),
        shown_by: 1,
    };
    let digest = Digest {
        user: 7,
        day: 1,
        games: vec![Waiting {
            game: on.clone(),
            time_left_ms: Some(3_600_000),
        }],
    };
    let refused = DmsRefused {
        user: alice.clone(),
        game: on.clone(),
    };
    vec![
        ("move", move_message(&report)),
        ("turn's direct message", turn_dm(&dm, Some(5))),
        ("daily digest", digest_text(&digest)),
        ("direct messages refused", dms_refused_text(&refused)),
        (
            "resignation",
            ended_message(&ended(won(Reason::Resigned)), Some(&report.by)),
        ),
        (
            "loss on time",
            ended_message(&ended(won(Reason::Timeout)), None),
        ),
        (
            "draw agreed",
            ended_message(
                &ended(Outcome::Drawn {
                    reason: Reason::DrawAgreed,
                }),
                None,
            ),
        ),
        ("result", result_line(&over)),
        ("ratings", ratings_line(&over, &ratings)),
        ("board, the game over", board_text(&over, None)),
        ("board", board_text(&on, Some(&recorded))),
        ("start", started_message(&on)),
        ("thread gone", notice_text(&News::ChannelGone(on.clone()))),
        ("challenge", challenge_message(&challenge)),
        (
            "challenge expired",
            clock_message(&ClockEvent::ChallengeExpired(challenge.clone())),
        ),
        ("draw offered", draw_offered(&on, 7)),
        ("draw declined", draw_declined(&on, 8)),
        ("stats", stats_message(a, &stats)),
        ("leaderboard", leaderboard_message(&leaderboard)),
        ("games", games_page(&[on.clone(), over.clone()], 0).text),
        (
            "analysis",
            analysis_summary(&AnalysisSummary::new(&over, &review)),
        ),
        ("history", history_text(&on, "1. e1-e3")),
        ("replay", replay_text(&over)),
        (
            "puzzles' leaderboard",
            super::leaderboard_text(None, &solvers),
        ),
    ]
}

#[test]
fn a_hostile_name_is_text_in_every_post_that_shows_a_name() {
    let plain = posts_naming("Astrid", "Birger");
    for hostile in HOSTILE {
        // Both players so named, and each alone beside a plain name.
        for (a, b) in [
            (*hostile, *hostile),
            (*hostile, "Birger"),
            ("Astrid", *hostile),
        ] {
            for ((kind, text), (_, plain)) in posts_naming(a, b).iter().zip(&plain) {
                // The name adds no markup to the post: it reads as the post with plain
                // names does.
                assert_eq!(
                    markup(text),
                    markup(plain),
                    "{kind} with {hostile:?}: {text}"
                );
                // And shows as typed (on one line, without reordering controls), wherever
                // the plain post shows a name.
                for (name, plain_name) in [(a, "Astrid"), (b, "Birger")] {
                    if rendered(plain).contains(plain_name) {
                        assert!(
                            rendered(text).contains(&shown(name)),
                            "{kind} shows {name:?}: {text}"
                        );
                    }
                }
                // No mention in a name pings: the post pings the users it mentions itself.
                assert_eq!(
                    serde_json::to_value(pinged(text)).unwrap(),
                    serde_json::to_value(pinged(plain)).unwrap(),
                    "{kind} with {hostile:?}"
                );
            }
        }
    }
    // Every kind names someone, as people.
    for (kind, text) in &plain {
        assert!(
            text.contains("Astrid") || text.contains("Birger") || text.contains("<@"),
            "{kind}: {text}"
        );
    }
}

#[test]
fn long_lists_end_in_a_count_of_the_rest_within_the_limit() {
    let lines: Vec<String> = (0..100)
        .map(|i| format!("{i:03} {}", "x".repeat(96)))
        .collect();
    let text = listing("Head".into(), &lines);
    assert!(text.chars().count() <= CONTENT_LIMIT, "{}", text.len());
    let shown = text.lines().count() - 2;
    assert!(shown >= 18, "as many lines as fit: {shown}");
    assert!(
        text.ends_with(&format!("\n… and {} more", 100 - shown)),
        "{text}"
    );
    assert!(text.contains(&lines[shown - 1]) && !text.contains(&lines[shown]));
    // Everything that fits is shown whole, with no note.
    let short = listing("Head".into(), &lines[..3]);
    assert_eq!(short.lines().count(), 4);
    assert!(!short.contains("more"));
    assert_eq!(fit("é".repeat(2000)), "é".repeat(2000));
    let cut = fit("é".repeat(2500));
    assert_eq!(cut.chars().count(), CONTENT_LIMIT);
    assert!(cut.ends_with('…'));
}

/// A name as long as Discord allows (32), every character one that is escaped.
fn long_name(i: u64) -> crate::service::User {
    crate::service::User::new(900 + i, "*_".repeat(16))
}

fn long_game(i: u64) -> GameInfo {
    let rules = Rules::default();
    GameInfo {
        id: i as i64,
        place: crate::service::Place {
            guild: Some(1),
            channel: 10_000_000_000_000_000_000 + i,
        },
        attackers: Player::User(long_name(2 * i)),
        defenders: Player::User(long_name(2 * i + 1)),
        rules,
        start: crate::tafl::Position::start(rules),
        rated: true,
        ply: 999,
        turn: Side::Defenders,
        outcome: Outcome::Ongoing,
        time_control: TimeControl::None,
        turn_deadline: None,
        board_message_id: None,
        tournament: None,
        clocks: None,
    }
}

#[test]
fn every_builder_stays_within_the_limit_with_the_longest_names() {
    let within = |text: String| {
        assert!(
            text.chars().count() <= CONTENT_LIMIT,
            "{} characters",
            text.len()
        );
        text
    };
    let games: Vec<GameInfo> = (0..100).map(long_game).collect();
    // Every game is on a page, and every page within the limit.
    let pages = games_page(&games, 0).pages;
    assert!(pages > 100 / GAMES_PER_PAGE as u32, "{pages} pages");
    let mut listed = 0;
    for page in 0..pages {
        let shown = games_page(&games, page);
        assert_eq!((shown.page, shown.pages), (page, pages));
        let text = within(shown.text);
        assert!(!text.contains(" more"));
        assert!(text.contains(&format!("page {}/{pages}", page + 1)));
        listed += text.lines().filter(|l| l.starts_with('•')).count();
    }
    assert_eq!(listed, games.len());
    // Past the last page: the last.
    assert_eq!(games_page(&games, u32::MAX).page, pages - 1);
    within(started_message(&games[0]));
    within(turn_line(&games[0]));
    // A digest of a hundred games with the longest names: as many as fit, then a count.
    let digest = crate::service::notify::Digest {
        user: 0,
        day: 1,
        games: games
            .iter()
            .map(|game| crate::service::notify::Waiting {
                game: game.clone(),
                time_left_ms: Some(i64::MAX),
            })
            .collect(),
    };
    assert!(within(digest_text(&digest)).contains(" more"));
    for v in Variant::ALL {
        within(rules_message(v, Some(&v.rules())));
    }
    let stats = Stats {
        user: 1,
        games: u32::MAX,
        wins_as_attackers: u32::MAX,
        losses_as_attackers: u32::MAX,
        wins_as_defenders: u32::MAX,
        losses_as_defenders: u32::MAX,
        draws: u32::MAX,
        ratings: Variant::ALL
            .map(|variant| crate::service::VariantRating {
                variant,
                rating: crate::rating::Rating::default(),
                rated_games: u32::MAX,
            })
            .to_vec(),
        recent: (0..5)
            .map(|i| crate::service::RecentGame {
                game: i,
                variant: Variant::Copenhagen,
                side: Side::Attackers,
                opponent: Player::User(long_name(0)),
                result: "loss",
                reason: "king_captured".into(),
                ended_at: 0,
            })
            .collect(),
    };
    within(stats_message(&long_name(0).name, &stats));
    let board = Leaderboard {
        variant: Variant::Copenhagen,
        page: 0,
        pages: u32::MAX,
        players: u32::MAX,
        lines: (0..crate::service::view::LEADERBOARD_PAGE)
            .map(|i| crate::service::Ranked {
                rank: u32::MAX - i,
                user: 1,
                name: long_name(0).name,
                rating: crate::rating::Rating::default(),
                rated_games: u32::MAX,
            })
            .collect(),
    };
    assert!(
        !within(leaderboard_message(&board)).contains(" more"),
        "a page fits whole"
    );
}

#[test]
fn durations_read_naturally() {
    let lasting = |secs| span_words(Duration::from_secs(secs), Span::Lasting);
    assert_eq!(lasting(26 * 3600), "1 d 2 h");
    assert_eq!(lasting(200 * 60), "3 h 20 min");
    assert_eq!(lasting(10), "1 min");
    assert_eq!(lasting(12 * 3600 - 3), "12 h 0 min");
    assert_eq!(lasting(90 * 60 + 29), "1 h 30 min");
    assert_eq!(lasting(3 * 86_400 + 40 * 60), "3 d 0 h");
}

#[test]
fn time_left_is_two_units_to_the_nearest_minute_and_seconds_below_one() {
    let left = |secs| span_words(Duration::from_secs(secs), Span::Left);
    assert_eq!(left(2 * 86_400 + 4 * 3600 + 50 * 60), "2 d 4 h");
    assert_eq!(left(3 * 86_400 + 20 * 60), "3 d");
    assert_eq!(left(5 * 3600 + 20 * 60 + 10), "5 h 20 min");
    assert_eq!(left(5 * 3600 + 29), "5 h");
    assert_eq!(left(45 * 60 + 31), "46 min");
    assert_eq!(left(59), "59 s");
    assert_eq!(left(0), "0 s");
    assert_eq!(left(89), "1 min");
    assert_eq!(left(90), "2 min");
    // Less than a second left is no time at all.
    assert_eq!(span_words(Duration::from_millis(999), Span::Left), "0 s");
}

#[test]
fn a_tries_time_is_to_the_second_in_two_units() {
    let took = |secs| span_words(Duration::from_secs(secs), Span::Took);
    assert_eq!(took(0), "0 s");
    assert_eq!(took(42), "42 s");
    assert_eq!(took(3 * 60 + 5), "3 min 5 s");
    assert_eq!(took(3 * 60), "3 min 0 s");
    assert_eq!(took(2 * 3600 + 10 * 60 + 59), "2 h 10 min");
    // Hours are its largest unit.
    assert_eq!(took(26 * 3600 + 60), "26 h 1 min");
}

#[test]
fn a_wait_is_one_unit_rounded_up() {
    let wait = |secs| span_words(Duration::from_secs(secs), Span::Wait);
    assert_eq!(wait(0), "1 s");
    assert_eq!(wait(40), "40 s");
    assert_eq!(wait(90), "90 s");
    assert_eq!(wait(91), "2 min");
    assert_eq!(wait(5400), "90 min");
    assert_eq!(wait(5401), "2 h");
    assert_eq!(wait(129_600), "36 h");
    assert_eq!(wait(129_601), "2 d");
}

#[test]
fn the_rules_name_the_channel_games_options() {
    let text = rules_message(Variant::Tablut, Some(&crate::tafl::Preset::Corner.rules()));
    assert!(text.contains("**corner** rules") && text.contains("`escape=corner`"));
    assert!(!rules_message(Variant::Tablut, None).contains("This channel's game"));
    // Another variant's rules, asked for in a channel playing Tablut: no Tablut options.
    let text = rules_message(Variant::Brandubh, Some(&Rules::default()));
    assert!(
        text.starts_with("**Brandubh**") && text.contains("7×7"),
        "{text}"
    );
    assert!(!text.contains("This channel's game"), "{text}");
    let text = rules_message(Variant::Copenhagen, Some(&Variant::Copenhagen.rules()));
    assert!(text.contains("files a–k, ranks 1–11"), "{text}");
    assert!(
        text.contains("• **hnefatafl_org**: hnefatafl.org's"),
        "{text}"
    );
    assert!(
        text.contains(
            "This channel's game is a game of Copenhagen Hnefatafl, **aagenielsen** rules."
        ),
        "{text}"
    );
}

fn game_of(variant: Variant, outcome: Outcome) -> GameInfo {
    GameInfo {
        rules: variant.rules(),
        start: crate::tafl::Position::start_of(variant),
        outcome,
        turn: Side::Attackers,
        ply: 4,
        ..long_game(1)
    }
}

#[test]
fn raichi_and_tuichu_are_called_in_tablut_games_alone() {
    use crate::tafl::{Bitboard, Mark, Move, RecordedMove, Square};
    let sq = |f, r| Square::from_coords(f, r).unwrap();
    for variant in Variant::ALL {
        for call in [Call::Raichi, Call::Tuichu] {
            let recorded = RecordedMove {
                mv: Move::new(sq(3, 3), sq(3, 1)),
                side: Side::Defenders,
                captured: Bitboard::EMPTY,
                king_captured: false,
                mark: Mark::Threat,
                call: Some(call),
            };
            let report = MoveReport {
                game: game_of(variant, Outcome::Ongoing),
                recorded,
                notation: recorded.to_string(),
                by: Player::User(crate::service::User::new(8, "Birger")),
                captured: Vec::new(),
                call: Some(call),
                ratings: None,
                png: Vec::new(),
                notice: 0,
            };
            let text = move_message(&report);
            let called = text.contains("*Raichi!*") || text.contains("*Tuichu!*");
            assert_eq!(called, variant.is_tablut(), "{text}");
        }
    }
}

#[test]
fn challenges_draw_offers_reviews_and_waits_name_the_game_unless_it_is_tablut() {
    use crate::service::ChallengeStatus;
    let challenge = |variant: Variant, status| ChallengeInfo {
        id: 1,
        place: crate::service::Place {
            guild: Some(1),
            channel: 2,
        },
        challenger: crate::service::User::new(7, "Astrid"),
        challenged: crate::service::User::new(8, "Birger"),
        side: crate::service::SideChoice::Random,
        rules: variant.rules(),
        time_control: TimeControl::None,
        thread: true,
        rated: true,
        status,
        expires_at: 0,
        message_id: None,
    };
    for variant in Variant::ALL {
        let accepted = challenge_closed(&challenge(variant, ChallengeStatus::Accepted), Some(3));
        let declined = challenge_closed(&challenge(variant, ChallengeStatus::Declined), None);
        let withdrawn = challenge_closed(&challenge(variant, ChallengeStatus::Cancelled), None);
        let expired = clock_message(&ClockEvent::ChallengeExpired(challenge(
            variant,
            ChallengeStatus::Expired,
        )));
        let offer = draw_offered(&game_of(variant, Outcome::Ongoing), 900);
        let thread = thread_name(&challenge(variant, ChallengeStatus::Pending));
        let game = game_of(variant, Outcome::Ongoing);
        let reviews = [
            analysis_started(&game, 7),
            analysis_running(&game, 3, 7),
            analysis_progress(&game, 3, 7),
            analysis_progress(&game, 7, 7),
            ai_waiting(&game, 0),
            ai_waiting(&game, 1),
            ai_waiting(&game, 2),
        ];
        for text in reviews {
            assert_eq!(
                text.contains(variant_name(variant)),
                !variant.is_tablut(),
                "{text}"
            );
        }
        assert_eq!(
            thread,
            format!("{}: Astrid vs Birger", variant_name(variant))
        );
        match variant {
            Variant::Tablut => {
                assert_eq!(accepted, "Challenge accepted: the game is on in <#3>.");
                assert_eq!(declined, "<@8> declined the challenge from <@7>.");
                assert_eq!(withdrawn, "<@7> withdrew the challenge.");
                assert_eq!(
                    expired,
                    "The challenge from Astrid to Birger expired unanswered."
                );
                assert!(offer.contains(" offers a draw. "), "{offer}");
                assert_eq!(
                    ai_waiting(&game, 0),
                    "The AI is thinking; this game is next in line."
                );
                assert_eq!(
                    ai_waiting(&game, 2),
                    "The AI is thinking; 2 games ahead of this one."
                );
            }
            v => {
                let name = variant_name(v);
                assert_eq!(
                    accepted,
                    format!("Challenge accepted: the {name} game is on in <#3>.")
                );
                assert_eq!(
                    declined,
                    format!("<@8> declined the {name} challenge from <@7>.")
                );
                assert_eq!(withdrawn, format!("<@7> withdrew the {name} challenge."));
                assert_eq!(
                    expired,
                    format!("The {name} challenge from Astrid to Birger expired unanswered.")
                );
                assert!(
                    offer.contains(&format!(" offers a draw in the {name} game. ")),
                    "{offer}"
                );
            }
        }
    }
}

#[test]
fn posts_name_the_game_unless_it_is_tablut() {
    let astrid = Player::User(crate::service::User::new(7, "Astrid"));
    let won = Outcome::Won {
        winner: Side::Defenders,
        reason: crate::tafl::Reason::KingEscaped,
    };
    for (variant, name) in [
        (Variant::Tablut, None),
        (Variant::Brandubh, Some("Brandubh")),
        (Variant::Copenhagen, Some("Copenhagen")),
    ] {
        let mut game = game_of(variant, Outcome::Ongoing);
        game.attackers = astrid.clone();
        let turn = turn_line(&game);
        assert!(
            turn.starts_with("Your move, <@7> (attackers) · move 3"),
            "{turn}"
        );
        let started = started_message(&game);
        let listed = games_page(std::slice::from_ref(&game), 0).text;
        let over = game_of(variant, won);
        let result = result_line(&over);
        match name {
            None => {
                assert!(turn.ends_with("move 3"), "{turn}");
                assert!(
                    started.contains("(linnaeus rules, no time limit)"),
                    "{started}"
                );
                assert!(result.contains(" wins with the defenders: "), "{result}");
                assert!(!listed.contains("Tablut"), "{listed}");
            }
            Some(name) => {
                assert!(turn.ends_with(&format!("move 3 · {name}")), "{turn}");
                let n = variant.size();
                assert!(
                    started.contains(&format!(
                        "({}, {n}×{n}, no time limit)",
                        variant_title(variant)
                    )),
                    "{started}"
                );
                assert!(
                    result.contains(&format!(" wins the {name} game with the defenders: ")),
                    "{result}"
                );
                assert!(listed.contains(&format!(": {name}, ")), "{listed}");
            }
        }
    }
    for variant in Variant::ALL {
        assert_ne!(rules_name(&variant.rules()), "custom", "{variant}");
    }
    assert_eq!(rules_name(&Variant::Brandubh.rules()), "aagenielsen");
    assert_eq!(
        preset_refused(Variant::Copenhagen, "walker"),
        "Copenhagen Hnefatafl has no rules preset walker: choose aagenielsen or hnefatafl_org (`/tablut rules variant:copenhagen` describes them)."
    );
}

/// After a commit, the answer says what stands and where it shows, never that nothing was
/// changed; the cause is kept for the log.
#[test]
fn a_failure_after_a_commit_says_what_stands() {
    use crate::service::{Done, ServiceError};
    for done in [
        Done::Move,
        Done::GameEnd,
        Done::GameStart,
        Done::Challenge,
        Done::ChallengeDecided,
        Done::PuzzleStart,
        Done::PuzzleMove,
    ] {
        let e = ServiceError::after(done)(ServiceError::Internal("render failed".into()));
        let text = refusal(&e);
        assert!(
            !text.contains('\n') && !text.contains("nothing was changed"),
            "{text}"
        );
        assert!(
            ["recorded", "started", "made", "chosen"]
                .iter()
                .any(|w| text.contains(w)),
            "{text}"
        );
        assert!(e.is_internal());
        assert!(format!("{e:?}").contains("render failed"));
        assert!(e.to_string().contains("render failed"), "{e}");
    }
}

/// Counts in refusals agree with their nouns: "1 open challenge", "2 open challenges".
#[test]
fn counts_in_refusals_agree_with_their_nouns() {
    use crate::service::ServiceError;
    let one = ServiceError::TooManyOpenChallenges {
        open: 1,
        first_expires_in: 60,
    };
    assert!(refusal(&one).starts_with("You already have 1 open challenge: "));
    let two = ServiceError::TooManyOpenChallenges {
        open: 2,
        first_expires_in: 60,
    };
    assert!(refusal(&two).starts_with("You already have 2 open challenges: "));
    let sent = ServiceError::ChallengedTooOften {
        received: 1,
        window: 3600,
        wait: 60,
    };
    assert_eq!(
        refusal(&sent),
        "That player was sent 1 challenge in the last 60 min: try again in 60 s."
    );
    assert_eq!(
        refusal(&ServiceError::TooManyAiGames(1)),
        "You already have 1 game against the AI running in this server: finish or resign one first."
    );
    assert_eq!(
        refusal(&ServiceError::AiBusy(3)),
        "The AI is busy with 3 moves and hints already waiting: try again in a minute."
    );
}

/// A thread left without a game says why, from the refusal its acceptance met, and a notice
/// stored with the refusal's words says them as they are.
#[test]
fn a_thread_without_a_game_says_why() {
    use crate::service::{ChallengeStatus, NotStartedWhy, StartRefused};
    let expired = NotStartedWhy::Refused(StartRefused::ChallengeExpired);
    assert_eq!(
        not_started(&expired),
        "No game was started in this thread. That challenge has expired: start a new one with /tablut challenge."
    );
    let closed = NotStartedWhy::Refused(StartRefused::ChallengeClosed(ChallengeStatus::Declined));
    assert!(not_started(&closed).contains("already declined"));
    // Stored notices read back as they were written, the refusal's words or its data.
    for why in [
        expired,
        closed,
        NotStartedWhy::Worded("That challenge has expired.".into()),
    ] {
        let json = serde_json::to_string(&why).unwrap();
        assert_eq!(
            serde_json::from_str::<NotStartedWhy>(&json).unwrap(),
            why,
            "{json}"
        );
    }
}

#[test]
fn a_boards_caption_names_the_players_as_they_are_and_a_post_escapes_them() {
    let mut game = long_game(1);
    game.attackers = Player::User(crate::service::User::new(7, "Astrid_*"));
    game.defenders = Player::Ai(crate::ai::Level::Hard);
    game.ply = 22;
    game.turn = Side::Attackers;
    assert_eq!(
        board_caption(&game),
        "Move 12 · Astrid_* (attackers) to play"
    );
    assert_eq!(
        status_line(&game),
        "Move 12 · Astrid\\_\\* (attackers) to play"
    );
    assert_eq!(caption(&Caption::Game(&game)), board_caption(&game));
    game.clocks = Some(crate::service::Clocks {
        attackers_ms: (2 * 86_400 + 4 * 3600) * 1000,
        defenders_ms: 30_000,
    });
    assert_eq!(
        board_caption(&game),
        "Move 12 · Astrid_* (attackers) to play · Astrid_* 2 d 4 h · the AI (hard) 30 s"
    );
    game.outcome = Outcome::Won {
        winner: Side::Defenders,
        reason: crate::tafl::Reason::KingEscaped,
    };
    assert_eq!(
        board_caption(&game),
        "Defenders win: the king escaped (the AI (hard))"
    );
    assert_eq!(
        caption(&Caption::Graph(&game)),
        format!(
            "Game #1 · Astrid_* vs the AI (hard) · {}",
            board_caption(&game)
        )
    );
    game.rules.variant = Variant::Brandubh;
    assert!(graph_title(&game).starts_with("Game #1 · Brandubh · Astrid_* vs"));
}

#[test]
fn a_puzzles_caption_is_its_task_then_how_the_try_ended() {
    use crate::ai::puzzle::Kind;
    let view = |kind, moves, step, side| PuzzleView {
        puzzle_id: 1,
        kind,
        moves,
        step,
        side,
        rating: 1500.0,
        rated: true,
        reply: None,
        day: None,
        png: Vec::new(),
        notice: None,
    };
    let win_in_one = view(Kind::Win, 1, 1, Side::Defenders);
    assert_eq!(
        caption(&Caption::Puzzle(&win_in_one)),
        "Defenders to move: find the move that wins."
    );
    assert_eq!(
        puzzle_task(&view(Kind::Win, 2, 2, Side::Attackers)),
        "Attackers to move: find the move that wins in 2 (move 2 of 2)."
    );
    assert_eq!(
        puzzle_task(&view(Kind::Save, 1, 1, Side::Attackers)),
        "Attackers to move: find the only move that saves the game."
    );
    assert_eq!(caption(&Caption::PuzzleSolved), "Solved!");
    assert_eq!(
        caption(&Caption::PuzzleFailed { solution: "e5-e2" }),
        "The answer was e5-e2."
    );
}

#[test]
fn an_exported_records_tags_name_the_game_and_the_players_as_they_are() {
    let mut game = long_game(4);
    game.defenders = Player::Ai(crate::ai::Level::Easy);
    let tags = record_tags(&game);
    assert_eq!(tags.event.as_deref(), Some("tablut-bot game #4"));
    assert_eq!(tags.site.as_deref(), Some("Discord"));
    assert_eq!(tags.attackers, Some("*_".repeat(16)));
    assert_eq!(tags.defenders.as_deref(), Some("the AI (easy)"));
}

#[test]
fn a_replays_frames_are_captioned_with_their_moves_and_the_last_with_the_result() {
    use crate::tafl::{parse_position, Game};
    let mut game = Game::new(Rules::default());
    game.play_text("d1-d3").unwrap();
    game.play_text("c5-c4").unwrap();
    assert_eq!(replay_caption(&game, 0), "Start");
    assert_eq!(replay_caption(&game, 1), "1. d1-d3");
    assert_eq!(replay_caption(&game, 2), "1… c5-c4");
    let frame = |ply| caption(&Caption::ReplayFrame { game: &game, ply });
    assert_eq!(frame(2), "1… c5-c4", "the game goes on: no result");
    // A game whose first move captures the king.
    let start = parse_position(
        "/3t5/9/1tK6/9/9/9/9/9/t8/",
        Side::Attackers,
        Rules::default(),
    );
    let mut won = Game::from_position(start.unwrap());
    won.play_text("d1-d3").unwrap();
    assert!(won.outcome().is_over());
    let reason = reason_words(won.outcome().reason().unwrap());
    assert_eq!(
        replay_caption(&won, 1),
        format!("1. {} · attackers win: {reason}", won.moves()[0])
    );
}

#[test]
fn every_post_of_a_tournament_game_opens_with_its_tournament_and_round() {
    use crate::service::tournament::MatchTag;
    let tag = MatchTag {
        tournament: 3,
        name: "Spring Open".into(),
        round: 2,
        leg: 1,
    };
    let game = GameInfo {
        tournament: Some(tag),
        ..game_of(Variant::Tablut, Outcome::Ongoing)
    };
    let over = GameInfo {
        outcome: Outcome::Drawn {
            reason: crate::tafl::Reason::DrawAgreed,
        },
        ..game.clone()
    };
    let ended = Ended {
        game: over,
        ratings: None,
        png: Vec::new(),
        notice: None,
    };
    let posts = [
        News::Started(game.clone()),
        News::DrawOffered {
            game: game.clone(),
            by: 7,
        },
        News::Clock(ClockEvent::Reminder {
            game: game.clone(),
            user: 7,
            number: 1,
            remaining: Duration::from_secs(3600),
        }),
        News::Ended {
            ended: ended.clone(),
            by: None,
        },
        News::Clock(ClockEvent::TimedOut(ended)),
    ];
    for news in &posts {
        let text = notice_text(news);
        assert!(
            text.starts_with("**Spring Open** · round 2 · game 1 of 2.\n"),
            "{text}"
        );
        assert_eq!(text.matches("Spring Open").count(), 1, "{text}");
    }
    // A game that is no tournament's names none.
    let plain = notice_text(&News::Started(game_of(Variant::Tablut, Outcome::Ongoing)));
    assert!(!plain.contains("round"), "{plain}");
}

#[test]
fn a_tournament_cancelled_at_its_signups_end_says_why() {
    use crate::service::tournament::{TournamentInfo, TournamentNews, TournamentStatus};
    let info = TournamentInfo {
        id: 4,
        name: "Winter Cup".into(),
        guild: 1,
        channel: 2,
        organiser: 3,
        rules: Rules::default(),
        format: crate::service::tournament::TournamentFormat::RoundRobin,
        time_control: TimeControl::None,
        rated: true,
        seats: 8,
        signup_until: Some(1_800_000_000_000),
        status: TournamentStatus::Cancelled,
        round: 0,
        rounds: 0,
        entrants: Vec::new(),
    };
    for (entrants, count) in [(0, "0 entrants"), (1, "1 entrant")] {
        let news = News::Tournament(TournamentNews::NotStarted {
            tournament: info.clone(),
            entrants,
        });
        let text = notice_text(&news);
        assert_eq!(
            text,
            format!("**Winter Cup** is cancelled: its sign-up ended with {count} and a tournament needs at least 2.")
        );
    }
}

/// The stand-in for forgotten members is worded by its id: stored with no name, or with the
/// words earlier versions stored, it reads "a former player" everywhere a name is shown.
#[test]
fn the_stand_in_for_forgotten_members_is_worded_by_its_id() {
    use crate::service::privacy::{FORGOTTEN_NAME, FORMER_PLAYER};
    use crate::service::User;
    for stored in [FORGOTTEN_NAME, "a former player"] {
        let gone = Player::User(User::new(FORMER_PLAYER, stored));
        assert_eq!(mention(&gone), "a former player");
        assert_eq!(name(&gone), "a former player");
        assert_eq!(plain_name(&gone), "a former player");
        assert_eq!(caption(&Caption::Name(&gone)), "a former player");
    }
    // A member keeps their own name, and the AI is worded by its level.
    let astrid = Player::User(User::new(7, "Astrid"));
    assert_eq!(
        (name(&astrid), mention(&astrid)),
        ("Astrid".into(), "<@7>".into())
    );
    let ai = Player::Ai(crate::ai::Level::Hard);
    assert_eq!(caption(&Caption::Name(&ai)), "the AI (hard)");
}

/// The words drawn into the evaluation graph and the standings image are the bot's: the
/// axes, the key, the headings and the round.
#[test]
fn the_graph_and_standings_images_take_their_words_from_here() {
    use crate::render::graph::Mark;
    use crate::service::{graph_labels, GraphLabel, Heading};
    use crate::tournament::Tiebreak;
    let labels = graph_labels(Some(caption));
    assert_eq!(
        (labels.plies.as_str(), labels.score.as_str()),
        ("ply", "attackers")
    );
    assert_eq!(labels.marks, ["inaccuracy", "mistake", "blunder"]);
    assert_eq!(labels.calls, ["raichi", "tuichu"]);
    assert_eq!(labels.mark(Mark::Blunder), "blunder");
    assert_eq!(
        caption(&Caption::GraphLabel(GraphLabel::Call(Call::Tuichu))),
        "tuichu"
    );
    // Without the bot's words, an image has none.
    assert_eq!(graph_labels(None), Default::default());
    let heading = |h| caption(&Caption::Heading(h));
    assert_eq!(
        [
            heading(Heading::Place),
            heading(Heading::MatchPoints),
            heading(Heading::Tiebreak(Tiebreak::GamePoints)),
            heading(Heading::Tiebreak(Tiebreak::SonnebornBerger)),
            heading(Heading::Tiebreak(Tiebreak::Buchholz)),
            heading(Heading::Tiebreak(Tiebreak::MedianBuchholz)),
        ],
        ["#", "MP", "GP", "SB", "Bh", "MBh"]
    );
    assert_eq!(
        caption(&Caption::StandingsRound {
            round: 2,
            rounds: 5
        }),
        "2/5"
    );
}

/// A game's end in words, one for each reason.
#[test]
fn every_reason_a_game_ends_for_has_its_words() {
    use crate::tafl::Reason;
    let all = Reason::ALL;
    let words: std::collections::BTreeSet<&str> = all.iter().map(|&r| reason_words(r)).collect();
    assert_eq!(words.len(), all.len(), "{words:?}");
    assert_eq!(reason_words(Reason::KingCaptured), "the king was captured");
}

/// The rules engine's errors are data; the bot words each: what is wrong, and how to write a
/// move where the mistake is in its text.
#[test]
fn move_problems_say_what_is_wrong_and_what_to_write() {
    use crate::service::ServiceError;
    use crate::tafl::{parse_move, IllegalMove, Move, Position, Square};
    let p = Position::start(Rules::default());
    let said = |t: &str| refusal(&ServiceError::IllegalMove(parse_move(&p, t).unwrap_err()));
    let not_legal = "That move is not legal: ";
    for (typed, words) in [
        ("e1-e3", "the path from e1 to e3 is blocked by the piece on e2"),
        (
            "j4-j5",
            "j4 is off the board: files run from a to i and ranks from 1 to 9",
        ),
        ("hello", "'hello' is not a move: write it as from-to, like e1-e3"),
        ("d2", "more than one piece can reach d2: say which with d1-d2 or e2-d2"),
        (
            "e4-e3",
            "the piece on e4 belongs to the defenders, and it is the attackers' turn",
        ),
        ("c7", "none of your pieces can reach c7"),
        ("d1-e2", "d1-e2 is not a straight line: pieces move along a rank or a file"),
        ("e2-e2", "a move must go somewhere: e2 to e2 stays put"),
        ("Ke2-c2", "the piece on e2 is not the king"),
        ("e1", "the piece on e1 cannot move: it is hemmed in"),
        (
            "a4",
            "a4 is your own piece: say where it goes, like a4-a1, a4-a2, a4-a3, a4-b4, a4-c4 or a4-d4",
        ),
    ] {
        assert_eq!(said(typed), format!("{not_legal}{words}."), "{typed}");
    }
    let sq = |n: &str| n.parse::<Square>().unwrap();
    // Every illegal move is worded on one line, in words of the bot's own.
    for e in [
        IllegalMove::EmptySquare(sq("c3")),
        IllegalMove::IsKing(sq("e5")),
        IllegalMove::Occupied { to: sq("e3") },
        IllegalMove::CastleLanding,
        IllegalMove::ThroneLanding(sq("d4")),
        IllegalMove::OffBoard(sq("a1")),
        IllegalMove::KingCannotReenter,
        IllegalMove::CastleNotPassable,
        IllegalMove::CornerLanding,
        IllegalMove::GameOver,
        IllegalMove::RepeatsBoard(Move::new(sq("e3"), sq("e5"))),
    ] {
        let words = illegal_move(&e);
        assert!(!words.is_empty() && !words.contains('\n'), "{words}");
    }
}

/// A record that cannot be read is refused naming its line or ply and what is wrong there, in
/// the bot's words.
#[test]
fn unreadable_records_are_worded_at_their_line_or_ply() {
    use crate::service::{RecordProblem, ServiceError};
    use crate::tafl::read_record;
    let said = |text: &str| {
        let e = read_record(text, Rules::default()).unwrap_err();
        refusal(&ServiceError::BadRecord(RecordProblem::Unreadable(e)))
    };
    for (record, words) in [
        ("1. e2-c2 e4-e3", "ply 2: 'e4-e3': e3 is already occupied"),
        (
            "1. e2-c2xc3",
            "ply 1: 'e2-c2xc3': the record says it captures c3, but it captures nothing",
        ),
        (
            "1. e2-c2xj9",
            "ply 1: 'e2-c2xj9': its captures: j9 is off the board: files run from a to i and ranks from 1 to 9",
        ),
        (
            "[Variant \"chess\"]",
            "line 1: variant: unknown game 'chess': choose tablut, brandubh, copenhagen or copenhagen13",
        ),
        (
            "[Variant \"brandubh walker\"]",
            "line 1: variant: unknown Brandubh preset 'walker': choose aagenielsen, linnaeus or opentafl",
        ),
        (
            "[Variant \"tablut king_armed=maybe\"]",
            "line 1: variant: 'maybe' is not a value of king_armed: use true or false",
        ),
        ("[Result \"2-0\"]", "line 1: result: '2-0' is not a result"),
        (
            "[ToMove \"swedes\"]",
            "line 1: ToMove: 'swedes' is not attackers or defenders",
        ),
        (
            "[rules:dim:8]",
            "line 1: rules: dim:8: the boards are 7×7 (brandubh), 9×9 (tablut), 11×11 (copenhagen) and 13×13 (copenhagen13)",
        ),
        (
            "[Position \"/9/9/9/9/4t4/9/9/9/9/\"]",
            "line 0: the start position: only the king may stand on the castle (e5)",
        ),
        (
            "[Position \"/9/9/\"]",
            "line 0: the start position: a position record has nine rows between slashes, like /3ttt3/4t4/…/; found 2",
        ),
        (
            "[Position \"/3t5/9/1tK6/9/9/9/9/9/9/\"]\n1. d1-d3 0-1",
            "the record says the defenders winning, but its moves end with the attackers winning",
        ),
    ] {
        assert_eq!(
            said(record),
            format!("That record cannot be read: {words}."),
            "{record}"
        );
    }
}

/// A square that is not one is told the files and ranks of its own board.
#[test]
fn a_malformed_square_is_told_the_files_and_ranks_of_its_board() {
    use crate::tafl::Square;
    let on = |size| square_problem(&Square::parse_on("5e", size).unwrap_err());
    for (size, files) in [(7, "a-g"), (9, "a-i"), (11, "a-k"), (13, "a-m")] {
        assert_eq!(
            on(size),
            format!(
                "'5e' is not a square: write a file letter {files} then a rank 1-{size}, like e5"
            )
        );
    }
}
