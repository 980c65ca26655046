//! The AI on Brandubh (7×7) and Copenhagen (11×11 and 13×13): it takes a corner escape in one, blocks a
//! single free line to a corner, captures the king and soldiers, beats a random mover, and plays
//! legal moves to the end of games at every level.

use std::time::Duration;
use tablut_bot::ai::{self, Level, Limits, Searcher, Weights, MATE_BOUND};
use tablut_bot::tafl::{Bitboard, Game, MoveList, Outcome, Position, Side, Square, Variant};

const BOARDS: [Variant; 3] = [
    Variant::Brandubh,
    Variant::Copenhagen,
    Variant::Copenhagen13,
];

fn sq(name: &str, v: Variant) -> Square {
    Square::parse_on(name, v.size()).unwrap()
}

fn bb(names: &[&str], v: Variant) -> Bitboard {
    names.iter().map(|n| sq(n, v)).collect()
}

fn game(v: Variant, attackers: &[&str], defenders: &[&str], king: &str, turn: Side) -> Game {
    let pos = Position::new(
        bb(attackers, v),
        bb(defenders, v),
        Some(sq(king, v)),
        turn,
        v.rules(),
    )
    .unwrap();
    Game::from_position(pos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn takes_a_corner_escape_in_one() {
    // Brandubh: the king on c1 sees a1 along the first rank (b1 empty); Copenhagen: the king
    // on d11 sees a11.
    for (v, king, att, def) in [
        (
            Variant::Brandubh,
            "c1",
            &["e2", "d5", "f4", "b6"][..],
            &["e5"][..],
        ),
        (
            Variant::Copenhagen,
            "d11",
            &["e10", "g4", "k5", "b2", "j9", "h11"][..],
            &["g7", "f5"][..],
        ),
        // 13×13: the king on m9 sees m13 up the last file.
        (
            Variant::Copenhagen13,
            "m9",
            &["l8", "g4", "k5", "b2", "j9", "h13", "m3"][..],
            &["g8", "f5"][..],
        ),
    ] {
        let g = game(v, att, def, king, Side::Defenders);
        let r = ai::analyze(&g, &depth(3)).unwrap();
        let (after, effect) = g.position().make(r.best);
        assert!(effect.escaped, "{v}: {} does not escape", r.best);
        assert!(after.king().is_some_and(|k| v.corners().contains(&k)));
        assert!(r.score > MATE_BOUND, "{v}: score {}", r.score);
        // The easy level never misses a win in one either.
        let easy = ai::choose_move(&g, Level::Easy, Duration::from_secs(5)).unwrap();
        assert!(
            g.position().make(easy.best).1.escaped,
            "{v} easy: {}",
            easy.best
        );
    }
}

#[test]
fn blocks_a_single_free_line_to_a_corner() {
    // The king on a3 (Brandubh) / a4 (Copenhagen) sees a1 only: his own defender closes the
    // way north. The attackers must put a piece on the line or lose.
    for (v, king, att, def, line) in [
        (
            Variant::Brandubh,
            "a3",
            &["b4", "e2", "f5", "d7"][..],
            &["a4", "e5"][..],
            &["a2"][..],
        ),
        (
            Variant::Copenhagen,
            "a4",
            &["b5", "c3", "e2", "h8", "k6", "f11"][..],
            &["a5", "g6", "g7"][..],
            &["a2", "a3"][..],
        ),
    ] {
        let g = game(v, att, def, king, Side::Attackers);
        assert_eq!(g.position().king_free_lines(), 1, "{v}");
        for level in [Level::Medium, Level::Hard] {
            let r = ai::choose_move(&g, level, Duration::from_millis(500)).unwrap();
            let to = r.best.to;
            assert!(
                line.iter().any(|s| sq(s, v) == to),
                "{v} {level}: {} does not block the line",
                r.best
            );
            let after = g.position().make(r.best).0;
            assert_eq!(after.king_free_lines(), 0, "{v} {level}");
        }
    }
}

#[test]
fn two_free_lines_to_corners_are_lost_for_the_attackers() {
    // Brandubh: the king on c7 sees a7 and g7 along the top rank.
    let v = Variant::Brandubh;
    let g = game(v, &["c5", "e3", "b2"], &["e5"], "c7", Side::Attackers);
    assert_eq!(g.position().king_free_lines(), 2);
    let r = ai::analyze(&g, &depth(2)).unwrap();
    assert!(r.score < -MATE_BOUND, "score {}", r.score);
}

#[test]
fn captures_the_king_in_one() {
    // Brandubh: the king on b5, away from the throne, with an attacker on a5: c6-c5 takes him.
    let v = Variant::Brandubh;
    let g = game(v, &["a5", "c6", "f2", "g4"], &["e3"], "b5", Side::Attackers);
    let r = ai::analyze(&g, &depth(3)).unwrap();
    let (_, effect) = g.position().make(r.best);
    assert!(
        effect.king_captured,
        "{v}: {} does not take the king",
        r.best
    );
    assert!(r.score > MATE_BOUND);

    // Copenhagen: the king on c9 with attackers on b9, d9 and c10; the one on f8 closes c8.
    let v = Variant::Copenhagen;
    let g = game(
        v,
        &["b9", "d9", "c10", "f8", "k3", "h2"],
        &["f4", "g5"],
        "c9",
        Side::Attackers,
    );
    let r = ai::analyze(&g, &depth(3)).unwrap();
    let (_, effect) = g.position().make(r.best);
    assert!(
        effect.king_captured,
        "{v}: {} does not take the king",
        r.best
    );

    // Copenhagen 13×13: the king on k11 with attackers on j11, l11 and k12; the one on f10
    // closes k10.
    let v = Variant::Copenhagen13;
    let g = game(
        v,
        &["j11", "l11", "k12", "f10", "m3", "h2"],
        &["f4", "g5"],
        "k11",
        Side::Attackers,
    );
    let r = ai::analyze(&g, &depth(3)).unwrap();
    let (_, effect) = g.position().make(r.best);
    assert!(
        effect.king_captured,
        "{v}: {} does not take the king",
        r.best
    );
    assert!(r.score > MATE_BOUND);
}

#[test]
fn takes_a_free_soldier() {
    // A defender on d6 (Brandubh) / h9 (Copenhagen), the king shut in on his throne, between an
    // attacker and an empty square an attacker can reach: the capture is the best move.
    for (v, att, def, king, target) in [
        (
            Variant::Brandubh,
            &["c4", "e4", "d3", "c6", "g6", "a2"][..],
            &["d5", "d6"][..],
            "d4",
            "d6",
        ),
        (
            Variant::Copenhagen,
            &["e6", "g6", "f5", "g9", "i2", "a4", "d1"][..],
            &["f7", "h9"][..],
            "f6",
            "h9",
        ),
    ] {
        let g = game(v, att, def, king, Side::Attackers);
        let r = ai::analyze(&g, &depth(3)).unwrap();
        let (_, effect) = g.position().make(r.best);
        assert!(
            effect.captured.contains(sq(target, v)),
            "{v}: {} does not capture {target}",
            r.best
        );
    }
}

/// The AI (a fixed node budget) against a seeded random mover; the AI's result.
fn versus_random(v: Variant, ai_side: Side, seed: u64) -> Outcome {
    let mut g = Game::new(v.rules());
    let mut rng = fastrand::Rng::with_seed(seed);
    let limits = Limits {
        depth: Some(2),
        nodes: Some(4_000),
        time: None,
    };
    let mut list = MoveList::new();
    for _ in 0..300 {
        if g.outcome().is_over() {
            break;
        }
        let mv = if g.turn() == ai_side {
            ai::analyze(&g, &limits).unwrap().best
        } else {
            g.position().legal_moves(&mut list);
            list[rng.usize(0..list.len())]
        };
        g.play(mv).unwrap();
    }
    g.outcome()
}

#[test]
fn beats_a_random_mover_on_every_board() {
    for v in BOARDS {
        for side in [Side::Attackers, Side::Defenders] {
            for seed in 0..6 {
                let o = versus_random(v, side, seed);
                assert_eq!(o.winner(), Some(side), "{v} {side} seed {seed}: {o:?}");
            }
        }
    }
}

#[test]
fn self_play_is_legal_to_the_end_at_every_level() {
    for v in BOARDS {
        for level in Level::ALL {
            let mut players = [
                Searcher::new(1, Weights::DEFAULT),
                Searcher::new(1, Weights::DEFAULT),
            ];
            let mut g = Game::new(v.rules());
            let time = Duration::from_millis(if level == Level::Easy { 200 } else { 15 });
            let mut plies = 0;
            while !g.outcome().is_over() && plies < 400 {
                let who = usize::from(g.turn() == Side::Defenders);
                let r = ai::choose_move_with(&mut players[who], &g, level, time)
                    .unwrap_or_else(|| panic!("{v} {level}: no move at ply {plies}"));
                assert!(g.position().is_legal(r.best), "{v} {level}: {}", r.best);
                for m in &r.pv {
                    // The principal variation names squares of this board.
                    assert!(v.contains(m.from) && v.contains(m.to), "{v} {level}: {m}");
                }
                g.play(r.best).unwrap();
                plies += 1;
            }
            assert!(plies > 0);
            if g.outcome().is_over() {
                assert!(ai::choose_move(&g, level, time).is_none());
            }
        }
    }
}
