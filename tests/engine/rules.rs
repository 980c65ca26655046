//! Every rule and worked case of docs/RULES.md, each a test named after it, and for every option and
//! preset a position where it changes the outcome.

use tablut_bot::tafl::{
    parse_move, parse_position, write_position, Bitboard, Escape, Game, IllegalMove, KingCapture,
    Move, MoveError, MoveText, NoMoves, Outcome, Position, Preset, Reason, Rules, Side, Square,
    SquareError,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn set(names: &str) -> Bitboard {
    names.split_whitespace().map(sq).collect()
}

fn mv(text: &str) -> Move {
    let (a, b) = text.split_once('-').unwrap();
    Move::new(sq(a), sq(b))
}

/// A composed position: attackers, defenders, the king's square ("" for none).
fn pos(att: &str, def: &str, king: &str, turn: Side, rules: Rules) -> Position {
    let king = (!king.is_empty()).then(|| sq(king));
    Position::new(set(att), set(def), king, turn, rules).unwrap()
}

fn names(bb: Bitboard) -> Vec<String> {
    bb.into_iter().map(|s| s.to_string()).collect()
}

fn rules_with(setting: &str) -> Rules {
    let mut r = Rules::default();
    r.apply_setting(setting).unwrap();
    r
}

/// Plays one legal move and returns the squares it captured.
fn captures(p: &Position, m: &str) -> Vec<String> {
    let (_, effect) = p.play(mv(m)).unwrap();
    names(effect.captured)
}

// ---------------------------------------------------------------- board and coordinates

#[test]
fn board_start_position_is_as_rules_md_draws_it() {
    let p = Position::start(Rules::default());
    assert_eq!(
        write_position(&p),
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    );
    assert_eq!(
        p.attackers(),
        set("d1 e1 f1 e2 d9 e9 f9 e8 a4 a5 a6 b5 i4 i5 i6 h5")
    );
    assert_eq!(p.defenders(), set("e3 e4 e6 e7 c5 d5 f5 g5"));
    assert_eq!(p.king(), Some(sq("e5")));
    assert_eq!(p.turn(), Side::Attackers);
}

#[test]
fn board_coordinates_put_a1_bottom_left_and_the_castle_on_e5() {
    assert_eq!(sq("a1").file(), 0);
    assert_eq!(sq("a1").rank(), 0);
    assert_eq!(sq("i9").file(), 8);
    assert_eq!(sq("i9").rank(), 8);
    assert_eq!(sq("e5"), Square::CASTLE);
}

// ---------------------------------------------------------------- movement

#[test]
fn rule_1_attackers_move_first_and_the_sides_alternate() {
    let mut g = Game::new(Rules::default());
    assert_eq!(g.turn(), Side::Attackers);
    g.play_text("e2-c2").unwrap();
    assert_eq!(g.turn(), Side::Defenders);
    // An attacker may not move twice.
    assert!(matches!(
        g.play_text("c2-c3"),
        Err(MoveError::Illegal(IllegalMove::NotYourPiece { .. }))
    ));
    g.play_text("e4-d4").unwrap();
    assert_eq!(g.turn(), Side::Attackers);
}

#[test]
fn rule_2_pieces_move_like_rooks_without_jumping_or_landing_on_pieces() {
    let p = Position::start(Rules::default());
    assert!(p.is_legal(mv("e2-c2")));
    assert_eq!(
        p.check(mv("e1-e3")),
        Err(IllegalMove::Blocked {
            from: sq("e1"),
            to: sq("e3"),
            at: sq("e2")
        })
    );
    assert_eq!(
        p.check(mv("d1-e2")),
        Err(IllegalMove::NotStraight {
            from: sq("d1"),
            to: sq("e2")
        })
    );
    // e4-e3: e3 is occupied (with the defenders to move, so it is their piece).
    let d = p.with_turn(Side::Defenders);
    assert_eq!(
        d.check(mv("e4-e3")),
        Err(IllegalMove::Occupied { to: sq("e3") })
    );
    assert!(!p.is_legal(mv("e4-e3")));
    // A rook's reach: b5 goes b1..b4 and b6..b9 and nowhere else.
    assert_eq!(
        names(p.destinations(sq("b5"))),
        ["b1", "b2", "b3", "b4", "b6", "b7", "b8", "b9"]
    );
}

#[test]
fn rule_3_no_attacker_may_land_on_the_castle() {
    // Castle empty, an attacker on e2 with a clear file: it may pass e5 but not stop there.
    let p = pos("e2 a1", "a9", "c3", Side::Attackers, Rules::default());
    let dests = p.destinations(sq("e2"));
    assert!(!dests.contains(sq("e5")));
    assert!(dests.contains(sq("e6")) && dests.contains(sq("e9")));
    assert_eq!(p.check(mv("e2-e5")), Err(IllegalMove::CastleLanding));
}

#[test]
fn rule_3_the_king_may_leave_the_castle_but_not_return_by_default() {
    let p = pos("a1", "a9", "e5", Side::Defenders, Rules::default());
    assert!(p.is_legal(mv("e5-e7")));
    let (after, _) = p.make(mv("e5-e7"));
    let back = after.with_turn(Side::Defenders);
    assert_eq!(back.check(mv("e7-e5")), Err(IllegalMove::KingCannotReenter));
    // The king may pass through his empty castle.
    assert!(back.is_legal(mv("e7-e3")));
}

#[test]
fn rule_4_any_piece_passes_through_the_empty_castle() {
    let p = pos("e9", "e1 c5", "b2", Side::Defenders, Rules::default());
    assert!(p.is_legal(mv("c5-h5")));
    assert!(p.is_legal(mv("e1-e8")));
    let a = p.with_turn(Side::Attackers);
    assert!(a.is_legal(mv("e9-e2")));
}

#[test]
fn worked_case_after_the_king_leaves_e5_it_is_passed_through_but_landed_on_by_none() {
    let mut g = Game::new(Rules::default());
    for m in ["a4-a2", "e4-c4", "a2-a3", "e5-e4"] {
        g.play_text(m).unwrap();
    }
    // The king has left; now f5 steps aside.
    for m in ["a3-a2", "f5-f3"] {
        g.play_text(m).unwrap();
    }
    let p = *g.position();
    assert_eq!(p.piece_at(sq("e5")), None);
    // With f5 gone, d5 slides through the empty castle to f5, but stops on it no more than the
    // king may return to it.
    let d = p.with_turn(Side::Defenders);
    assert!(d.is_legal(mv("d5-f5")), "d5 passes through e5 to f5");
    assert_eq!(d.check(mv("d5-e5")), Err(IllegalMove::CastleLanding));
    assert_eq!(d.check(mv("e4-e5")), Err(IllegalMove::KingCannotReenter));
}

// ---------------------------------------------------------------- captures

#[test]
fn rule_5_custodial_capture_removes_the_enclosed_piece() {
    // An attacker arriving on e3 takes d3 against c3.
    let p = pos("c3 e1", "d3 i9", "h8", Side::Attackers, Rules::default());
    assert_eq!(captures(&p, "e1-e3"), ["d3"]);
    // And a defender arriving takes an attacker the same way.
    let p = pos("d3 i9", "c3 e1", "h8", Side::Defenders, Rules::default());
    assert_eq!(captures(&p, "e1-e3"), ["d3"]);
}

#[test]
fn rule_5_one_move_can_capture_three_pieces() {
    // The attacker from d1 lands on d3, between defenders on c3, e3 and d4, each backed by an
    // attacker beyond.
    let p = pos(
        "b3 f3 d5 d1",
        "c3 e3 d4",
        "h7",
        Side::Attackers,
        Rules::default(),
    );
    assert_eq!(captures(&p, "d1-d3"), ["c3", "e3", "d4"]);
}

#[test]
fn rule_5_moving_between_two_enemies_is_safe() {
    // The king or any piece moving onto c3 between attackers on b3 and d3 is safe.
    let p = pos("b3 d3 a9", "c1", "c5", Side::Defenders, Rules::default());
    let (after, effect) = p.play(mv("c1-c3")).unwrap();
    assert!(effect.captured.is_empty());
    assert_eq!(after.piece_at(sq("c3")).map(|p| p.name()), Some("defender"));
    let (after, effect) = p.play(mv("c5-c3")).unwrap();
    assert!(!effect.king_captured && effect.captured.is_empty());
    assert_eq!(after.king(), Some(sq("c3")));
    assert!(after.decided().is_none());
}

#[test]
fn rule_5_a_capture_needs_the_moving_piece_next_to_the_victim() {
    // d3 between attackers c3 and e3 already: an unrelated attacker move captures nothing.
    let p = pos("c3 e3 a1", "d3 i9", "h8", Side::Attackers, Rules::default());
    assert!(captures(&p, "a1-a2").is_empty());
}

#[test]
fn rule_6_the_empty_castle_is_hostile_to_both_sides() {
    // Worked case: with the castle empty, a piece on d5 is captured by an enemy arriving on c5,
    // and a piece on e4 by an enemy arriving on e3, whichever side they belong to.
    let a = pos("c1 e1", "d5 e4", "b8", Side::Attackers, Rules::default());
    assert_eq!(captures(&a, "c1-c5"), ["d5"]);
    assert_eq!(captures(&a, "e1-e3"), ["e4"]);
    let d = pos("d5 e4", "c1 e1", "b8", Side::Defenders, Rules::default());
    assert_eq!(captures(&d, "c1-c5"), ["d5"]);
    assert_eq!(captures(&d, "e1-e3"), ["e4"]);
}

#[test]
fn rule_6_the_occupied_castle_does_not_capture_a_defender() {
    // Worked case: while the king stands on the castle, a defender on d5 is safe there.
    let p = pos("c1", "d5", "e5", Side::Attackers, Rules::default());
    assert!(captures(&p, "c1-c5").is_empty());
}

#[test]
fn rule_6_the_armed_king_captures_an_attacker_against_a_defender() {
    // Worked case: an attacker on d5 is captured by a defender arriving on c5: the armed king on
    // the castle is its second enemy.
    let p = pos("d5 a9", "c1", "e5", Side::Defenders, Rules::default());
    assert_eq!(captures(&p, "c1-c5"), ["d5"]);
    // And the king as the moving piece captures too.
    let p = pos("d3 a9", "e3", "c7", Side::Defenders, Rules::default());
    assert_eq!(captures(&p, "c7-c3"), ["d3"]);
}

#[test]
fn rule_7_a_defender_beside_the_occupied_castle_is_taken_against_the_king() {
    // Worked case: king on e5, attackers on e4 e6 d5, defender on f5: an attacker arriving on g5
    // captures f5.
    let p = pos("e4 e6 d5 g1", "f5", "e5", Side::Attackers, Rules::default());
    assert_eq!(captures(&p, "g1-g5"), ["f5"]);
    // With only two attackers next to the castle, it does not.
    let p = pos("e4 e6 g1", "f5", "e5", Side::Attackers, Rules::default());
    assert!(captures(&p, "g1-g5").is_empty());
}

#[test]
fn rule_7_needs_the_king_armed_since_a_disarmed_king_takes_part_in_no_capture() {
    let p = pos(
        "e4 e6 d5 g1",
        "f5",
        "e5",
        Side::Attackers,
        rules_with("king_armed=false"),
    );
    assert!(captures(&p, "g1-g5").is_empty());
}

#[test]
fn rule_8_the_king_on_the_castle_is_taken_on_four_sides() {
    // Worked case: king on e5, attackers on d5 e4 f5, then an attacker arriving on e6.
    let p = pos("d5 e4 f5 e9", "a1", "e5", Side::Attackers, Rules::default());
    let (after, effect) = p.play(mv("e9-e6")).unwrap();
    assert!(effect.king_captured);
    assert_eq!(after.king(), None);
    // Three are not enough.
    let p = pos("d5 e4 e9", "a1", "e5", Side::Attackers, Rules::default());
    assert!(!p.play(mv("e9-e6")).unwrap().1.king_captured);
}

#[test]
fn rule_8_the_king_beside_the_castle_is_taken_on_three_sides() {
    // Worked case: king on d5, attackers on c5 d4, an attacker arriving on d6 captures him.
    let p = pos("c5 d4 d9", "a1", "d5", Side::Attackers, Rules::default());
    assert!(p.play(mv("d9-d6")).unwrap().1.king_captured);
    // Two on opposite sides (d4, d6) are not enough beside the castle.
    let p = pos("d4 d9", "a1", "d5", Side::Attackers, Rules::default());
    assert!(!p.play(mv("d9-d6")).unwrap().1.king_captured);
}

#[test]
fn rule_8_the_king_away_from_the_castle_is_taken_like_any_piece() {
    // Worked case: king on c3: attackers on b3 and d3 capture him; so do c2 and c4.
    let p = pos("b3 d1", "a9", "c3", Side::Attackers, Rules::default());
    let mut g = Game::from_position(p);
    let rec = g.play_text("d1-d3").unwrap();
    assert!(rec.king_captured);
    assert_eq!(
        g.outcome(),
        Outcome::Won {
            winner: Side::Attackers,
            reason: Reason::KingCaptured
        }
    );
    assert_eq!(rec.to_string(), "d1-d3++");
    let p = pos("c2 a4", "a9", "c3", Side::Attackers, Rules::default());
    assert!(p.play(mv("a4-c4")).unwrap().1.king_captured);
}

#[test]
fn rule_8_the_king_is_only_taken_by_an_attacker_move_next_to_him() {
    // The king steps between two attackers: safe, and a later unrelated attacker move does not
    // take him either.
    let p = pos("b3 d3 a9", "i1", "c5", Side::Defenders, Rules::default());
    let (after, _) = p.play(mv("c5-c3")).unwrap();
    assert_eq!(after.king(), Some(sq("c3")));
    let (after, effect) = after.play(mv("a9-a8")).unwrap();
    assert!(!effect.king_captured);
    assert_eq!(after.king(), Some(sq("c3")));
}

// ---------------------------------------------------------------- end of the game

#[test]
fn rule_9_the_king_wins_on_reaching_any_edge_square() {
    // a1 and every other edge square is a winning square for the king.
    for sq_name in ["a1", "e9", "i5", "c1", "i9", "a6"] {
        let p = pos("h7", "b7", sq_name, Side::Attackers, Rules::default());
        assert_eq!(p.decided(), Some(tablut_bot::tafl::Decided::KingEscaped));
    }
    for (start, target) in [("b2", "a2"), ("e7", "e9"), ("g5", "i5"), ("c3", "c1")] {
        let p = pos("h8", "b8", start, Side::Defenders, Rules::default());
        let mut g = Game::from_position(p);
        let rec = g.play_text(&format!("{start}-{target}")).unwrap();
        assert_eq!(
            g.outcome(),
            Outcome::Won {
                winner: Side::Defenders,
                reason: Reason::KingEscaped
            },
            "{start}-{target}"
        );
        assert!(rec.to_string().ends_with("++"));
        assert!(g.play_text("h8-h7").is_err(), "no move after the end");
    }
}

#[test]
fn rule_10_the_attackers_win_by_capturing_the_king() {
    let p = pos("b3 d1", "a9", "c3", Side::Attackers, Rules::default());
    let mut g = Game::from_position(p);
    g.play_text("d3").unwrap();
    assert_eq!(g.outcome().status(), "attackers_won");
    assert_eq!(g.outcome().reason(), Some(Reason::KingCaptured));
}

#[test]
fn rule_11_a_repeated_position_draws_at_the_second_occurrence() {
    let mut g = Game::new(Rules::default());
    for m in ["a4-a3", "e3-d3", "a3-a4"] {
        g.play_text(m).unwrap();
        assert_eq!(g.outcome(), Outcome::Ongoing);
    }
    g.play_text("d3-e3").unwrap();
    assert_eq!(
        g.outcome(),
        Outcome::Drawn {
            reason: Reason::Repetition
        }
    );
}

#[test]
fn rule_11_the_side_to_move_is_part_of_the_position() {
    // The same placement with the other side to move is not a repetition: a triangle of three
    // attacker moves against two defender shuffles returns the pieces with the turn swapped.
    let mut g = Game::new(Rules::default());
    for m in ["a4-a3", "e3-d3", "a3-a2", "d3-e3", "a2-a4"] {
        g.play_text(m).unwrap();
        assert_eq!(g.outcome(), Outcome::Ongoing, "after {m}");
    }
    // The placement is the start's, but the defenders are to move.
    assert_eq!(
        write_position(g.position()),
        write_position(&Position::start(Rules::default()))
    );
    assert_eq!(g.turn(), Side::Defenders);
}

#[test]
fn rule_11_repetition_limit_3_needs_a_third_occurrence() {
    let mut g = Game::new(rules_with("repetition_limit=3"));
    let cycle = ["a4-a3", "e3-d3", "a3-a4", "d3-e3"];
    for m in cycle {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.outcome(), Outcome::Ongoing, "twice is allowed");
    assert_eq!(g.repetitions(), 2);
    for m in cycle {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.outcome().reason(), Some(Reason::Repetition));
}

#[test]
fn rule_11_repetition_counts_over_the_whole_game() {
    // A position seen long ago still counts.
    let mut g = Game::new(rules_with("repetition_limit=3"));
    let moves = [
        "a4-a3", "e3-d3", "a3-a4", "d3-e3", // start again (2nd)
        "i4-i3", "g5-g4", "i3-i4", "g4-g5", // start again (3rd)
    ];
    for (i, m) in moves.iter().enumerate() {
        g.play_text(m).unwrap();
        if i < moves.len() - 1 {
            assert_eq!(g.outcome(), Outcome::Ongoing, "after {m}");
        }
    }
    assert_eq!(g.outcome().reason(), Some(Reason::Repetition));
}

fn boxed_in() -> Position {
    // The only attacker, on a1, is about to be hemmed in by c1-b1.
    pos("a1", "a2 c1", "e7", Side::Defenders, Rules::default())
}

#[test]
fn rule_12_a_side_with_no_legal_move_loses() {
    let mut g = Game::from_position(boxed_in());
    let rec = g.play_text("c1-b1").unwrap();
    assert!(rec.captured.is_empty(), "the corner piece is not captured");
    assert_eq!(
        g.outcome(),
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::NoMoves
        }
    );
    assert_eq!(rec.to_string(), "c1-b1++");
}

#[test]
fn rule_12_with_no_moves_draw_it_is_drawn() {
    let p = boxed_in();
    let mut r = *p.rules();
    r.no_moves = NoMoves::Draw;
    let p = parse_position(&write_position(&p), Side::Defenders, r).unwrap();
    let mut g = Game::from_position(p);
    g.play_text("c1-b1").unwrap();
    assert_eq!(
        g.outcome(),
        Outcome::Drawn {
            reason: Reason::NoMoves
        }
    );
}

#[test]
fn rule_12_a_game_starting_without_moves_is_already_decided() {
    let p = pos("a1", "a2 b1", "e7", Side::Attackers, Rules::default());
    let g = Game::from_position(p);
    assert_eq!(g.outcome().status(), "defenders_won");
}

#[test]
fn rule_13_a_player_may_resign_or_the_players_agree_a_draw_at_any_time() {
    let mut g = Game::new(Rules::default());
    g.play_text("e2-c2").unwrap();
    g.resign(Side::Attackers).unwrap();
    assert_eq!(
        g.outcome(),
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::Resigned
        }
    );
    assert!(g.play_text("e4-d4").is_err());
    assert_eq!(g.agree_draw(), Err(IllegalMove::GameOver));

    let mut g = Game::new(Rules::default());
    g.agree_draw().unwrap();
    assert_eq!(g.outcome().status(), "draw");
    assert_eq!(g.outcome().reason(), Some(Reason::DrawAgreed));
}

// ---------------------------------------------------------------- options and presets

#[test]
fn option_king_reenters_castle_lets_the_king_home() {
    let p = pos("a1", "a9", "e7", Side::Defenders, Rules::default());
    assert!(!p.is_legal(mv("e7-e5")));
    let p = pos("a1", "a9", "e7", Side::Defenders, Preset::Salmi.rules());
    assert!(p.is_legal(mv("e7-e5")));
    // Soldiers still may not.
    let p = pos("a1", "c5", "e7", Side::Defenders, Preset::Salmi.rules());
    assert_eq!(p.check(mv("c5-e5")), Err(IllegalMove::CastleLanding));
}

#[test]
fn option_castle_passable_false_blocks_the_castle_for_everyone() {
    let r = rules_with("castle_passable=false");
    let p = pos("e9 a1", "c5", "b2", Side::Defenders, r);
    assert_eq!(p.check(mv("c5-g5")), Err(IllegalMove::CastleNotPassable));
    assert!(p.is_legal(mv("c5-d5")));
    let a = p.with_turn(Side::Attackers);
    assert!(!a.is_legal(mv("e9-e4")));
    assert!(a.is_legal(mv("e9-e6")));
    // The king may not pass his own empty castle either; with re-entry he may stop on it.
    let p = pos("a1", "a9", "e7", Side::Defenders, r);
    assert!(!p.is_legal(mv("e7-e3")));
    let mut r2 = r;
    r2.king_reenters_castle = true;
    let p = pos("a1", "a9", "e7", Side::Defenders, r2);
    assert!(p.is_legal(mv("e7-e5")) && !p.is_legal(mv("e7-e3")));
    // With the default it is passable.
    let p = pos("e9 a1", "c5", "b2", Side::Defenders, Rules::default());
    assert!(p.is_legal(mv("c5-g5")));
}

#[test]
fn option_king_armed_false_disarms_the_king_as_hammer_and_anvil() {
    let unarmed = rules_with("king_armed=false");
    // Hammer: the king moves next to an attacker with a defender beyond.
    let p = pos("d3 a9", "e3", "c7", Side::Defenders, unarmed);
    assert!(captures(&p, "c7-c3").is_empty());
    // Anvil: a defender arrives with the king beyond.
    let p = pos("d3 a9", "e1", "c3", Side::Defenders, unarmed);
    assert!(captures(&p, "e1-e3").is_empty());
    let p = pos("d3 a9", "e1", "c3", Side::Defenders, Rules::default());
    assert_eq!(captures(&p, "e1-e3"), ["d3"]);
}

#[test]
fn option_king_capture_four_sides_needs_four_enclosing_sides_everywhere() {
    let four = rules_with("king_capture=four_sides");
    let p = pos("b3 d1", "a9", "c3", Side::Attackers, four);
    assert!(!p.play(mv("d1-d3")).unwrap().1.king_captured);
    let p = pos("b3 c2 c4 d1", "a9", "c3", Side::Attackers, four);
    assert!(p.play(mv("d1-d3")).unwrap().1.king_captured);
    // The empty castle counts as one side: king on d5, attackers on c5 d4, arriving on d6.
    let p = pos("c5 d4 d9", "a1", "d5", Side::Attackers, four);
    assert!(p.play(mv("d9-d6")).unwrap().1.king_captured);
    // Linnaeus captures the king on c3 with two.
    let p = pos("b3 d1", "a9", "c3", Side::Attackers, Rules::default());
    assert!(p.play(mv("d1-d3")).unwrap().1.king_captured);
}

#[test]
fn option_escape_corner_makes_only_the_corners_winning_and_hostile() {
    let corner = Preset::Corner.rules();
    assert_eq!(corner.escape, Escape::Corner);
    let p = pos("h8", "b8", "a3", Side::Defenders, corner);
    let mut g = Game::from_position(p);
    g.play_text("a3-a2").unwrap();
    assert_eq!(g.outcome(), Outcome::Ongoing, "the edge is not enough");
    g.play_text("h8-h7").unwrap();
    g.play_text("a2-a1").unwrap();
    assert_eq!(g.outcome().reason(), Some(Reason::KingEscaped));
    // Soldiers may not land on a corner, and a corner is hostile: an attacker on b1 is taken by
    // a defender arriving on c1.
    let p = pos("b1 h8", "c3", "e7", Side::Defenders, corner);
    assert_eq!(captures(&p, "c3-c1"), ["b1"]);
    let p = pos("a3 h8", "c3", "e7", Side::Attackers, corner);
    assert_eq!(p.check(mv("a3-a1")), Err(IllegalMove::CornerLanding));
    // Under edge rules the corner is an ordinary square.
    let p = pos("b1 h8", "c3", "e7", Side::Defenders, Rules::default());
    assert!(captures(&p, "c3-c1").is_empty());
}

#[test]
fn preset_walker_draws_when_a_side_cannot_move() {
    let p = boxed_in();
    let p = parse_position(&write_position(&p), Side::Defenders, Preset::Walker.rules()).unwrap();
    let mut g = Game::from_position(p);
    g.play_text("c1-b1").unwrap();
    assert_eq!(g.outcome().status(), "draw");
}

#[test]
fn preset_linnaeus_is_the_default() {
    assert_eq!(Preset::Linnaeus.rules(), Rules::default());
    assert_eq!(Rules::default().king_capture, KingCapture::Linnaeus);
}

#[test]
fn a_game_keeps_its_option_set() {
    let g = Game::new(Preset::Salmi.rules());
    assert_eq!(*g.rules(), Preset::Salmi.rules());
    assert_eq!(*g.position().rules(), Preset::Salmi.rules());
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_accepts_every_input_form() {
    let p = Position::start(Rules::default());
    for text in [
        "e2-c2", "e2c2", "e2 c2", "E2-C2", "e2-c2+", "e2-c2++", "e2-c2-", "e2-c2--", "te2-c2",
        " e2-c2 ",
    ] {
        assert_eq!(parse_move(&p, text), Ok(mv("e2-c2")), "{text}");
    }
    // A bare destination that exactly one piece reaches.
    assert_eq!(parse_move(&p, "c2"), Ok(mv("e2-c2")));
    // The king's letter.
    let k = pos("a1", "a9", "e5", Side::Defenders, Rules::default());
    assert_eq!(parse_move(&k, "Ke5-e8"), Ok(mv("e5-e8")));
    assert_eq!(
        parse_move(&Position::start(Rules::default()), "Ke2-c2"),
        Err(MoveError::Illegal(IllegalMove::NotKing(sq("e2"))))
    );
}

#[test]
fn notation_errors_name_what_is_wrong() {
    let p = Position::start(Rules::default());
    let err = |t: &str| parse_move(&p, t).unwrap_err();
    let illegal = |e: IllegalMove| MoveError::Illegal(e);
    assert_eq!(
        err("j4-j5"),
        MoveError::Square(SquareError::OffBoard {
            name: "j4".into(),
            size: 9
        })
    );
    assert_eq!(
        err("d1-e2"),
        illegal(IllegalMove::NotStraight {
            from: sq("d1"),
            to: sq("e2")
        })
    );
    assert_eq!(
        err("e1-e3"),
        illegal(IllegalMove::Blocked {
            from: sq("e1"),
            to: sq("e3"),
            at: sq("e2")
        })
    );
    assert_eq!(
        err("e4-e3"),
        illegal(IllegalMove::NotYourPiece {
            square: sq("e4"),
            owner: Side::Defenders,
            mover: Side::Attackers
        })
    );
    assert_eq!(err("c3-c4"), illegal(IllegalMove::EmptySquare(sq("c3"))));
    assert_eq!(err("hello"), MoveError::Malformed("hello".into()));
    // Each error's plain line names what is wrong.
    assert_eq!(err("e1-e3").to_string(), "e1-e3 is blocked at e2");
    assert_eq!(err("j4-j5").to_string(), "j4 is off the 9×9 board");
    // No attacker may land on e5 (d5 is a defender, so open a line first in a composed position).
    let c = pos("e2 a1", "a9", "c3", Side::Attackers, Rules::default());
    assert_eq!(
        parse_move(&c, "e2-e5"),
        Err(illegal(IllegalMove::CastleLanding))
    );
    // An ambiguous bare destination names the candidates.
    let e = parse_move(&p, "d2").unwrap_err();
    match &e {
        MoveError::Ambiguous { candidates, .. } => {
            let c: Vec<String> = candidates.iter().map(|m| m.to_string()).collect();
            assert_eq!(c, ["d1-d2", "e2-d2"]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "more than one piece reaches d2: d1-d2, e2-d2"
    );
    // A bare destination nobody reaches.
    assert_eq!(err("e7"), MoveError::Unreachable { to: sq("e7") });
    assert!(matches!(
        parse_move(&p, "c7"),
        Err(MoveError::Unreachable { .. })
    ));
}

#[test]
fn notation_refuses_moves_once_the_game_is_over() {
    let mut g = Game::from_position(pos("b3 d1", "a9", "c3", Side::Attackers, Rules::default()));
    g.play_text("d1-d3").unwrap();
    let e = g.play_text("a9-a8").unwrap_err();
    assert_eq!(e, MoveError::Illegal(IllegalMove::GameOver));
}

#[test]
fn notation_records_captures_and_marks() {
    // d1-d4xd5: an attacker arriving on d4 takes d5 against d6.
    let mut g = Game::from_position(pos("d1 d6", "d5", "h8", Side::Attackers, Rules::default()));
    assert_eq!(g.play_text("d1-d4").unwrap().to_string(), "d1-d4xd5");
    // e7-c7xc6/c8: two at once.
    let mut g = Game::from_position(pos(
        "c6 c8 a1",
        "c5 c9 e7 g6 g8 f7 h7",
        "g7",
        Side::Defenders,
        Rules::default(),
    ));
    let rec = g.play_text("e7-c7").unwrap();
    assert_eq!(rec.to_string(), "e7-c7xc6/c8");
    assert_eq!(rec.captured, set("c6 c8"));
}

#[test]
fn notation_marks_a_threat_with_plus() {
    // The king steps onto an open file: he threatens to escape next turn.
    let mut g = Game::from_position(pos("a1 i1", "a9", "d4", Side::Defenders, Rules::default()));
    let rec = g.play_text("d4-c4").unwrap();
    // c4 has free lines up (c5..c9) and down (c3..c1).
    assert_eq!(rec.to_string(), "d4-c4+");
    // The attackers threaten to capture the king next turn.
    let mut g = Game::from_position(pos(
        "b3 d8 h1",
        "a9",
        "c3",
        Side::Attackers,
        Rules::default(),
    ));
    let rec = g.play_text("d8-d7").unwrap();
    assert_eq!(rec.to_string(), "d8-d7+");
}

#[test]
fn linnaeus_calls_raichi_for_one_free_line_and_tuichu_for_two() {
    use tablut_bot::tafl::Call;
    let mut g = Game::from_position(pos(
        "c1 a4 i4",
        "a9",
        "d4",
        Side::Defenders,
        Rules::default(),
    ));
    let rec = g.play_text("d4-c4").unwrap();
    assert_eq!(
        rec.call,
        Some(Call::Raichi),
        "c1, a4 and i4 block three of the four lines"
    );
    let mut g = Game::from_position(pos("a1 i1", "a9", "d4", Side::Defenders, Rules::default()));
    let rec = g.play_text("d4-c4").unwrap();
    assert_eq!(rec.call, Some(Call::Tuichu));
    let mut g = Game::new(Rules::default());
    g.play_text("e2-c2").unwrap();
    assert_eq!(g.play_text("e4-d4").unwrap().call, None);
}

#[test]
fn notation_game_record_numbers_moves_in_pairs() {
    let mut g = Game::new(Rules::default());
    for m in ["e2-c2", "e4-d4", "c2-c3"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.record(), "1. e2-c2 e4-d4  2. c2-c3");
    let mut g = Game::from_position(Position::start(Rules::default()).with_turn(Side::Defenders));
    g.play_text("e4-d4").unwrap();
    g.play_text("e2-c2").unwrap();
    assert_eq!(g.record(), "1. … e4-d4  2. e2-c2");
    // A record reads back as moves.
    let tokens = tablut_bot::tafl::record::record_tokens("1. e2-c2 e4-d4  2. c2-c3");
    assert_eq!(tokens, ["e2-c2", "e4-d4", "c2-c3"]);
}

#[test]
fn notation_position_records_round_trip_with_the_side_to_move() {
    let r = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    let p = parse_position(r, Side::Defenders, Rules::default()).unwrap();
    assert_eq!(write_position(&p), r);
    assert_eq!(p.turn(), Side::Defenders);
    // Rows run from rank 1: a lone attacker on a1 is the first character.
    let p = parse_position("/t8/9/9/9/4K4/9/9/9/9/", Side::Attackers, Rules::default()).unwrap();
    assert_eq!(p.attackers(), set("a1"));
    assert!(parse_position("/9/9/", Side::Attackers, Rules::default()).is_err());
    assert!(parse_position("/t9/9/9/9/4K4/9/9/9/9/", Side::Attackers, Rules::default()).is_err());
    assert!(parse_position("/x8/9/9/9/4K4/9/9/9/9/", Side::Attackers, Rules::default()).is_err());
    assert!(parse_position("/K8/9/9/9/4K4/9/9/9/9/", Side::Attackers, Rules::default()).is_err());
    assert!(parse_position("/9/9/9/9/4t4/9/9/9/9/", Side::Attackers, Rules::default()).is_err());
}

#[test]
fn move_text_parses_without_a_position() {
    // On 9×9: `k` is no file.
    assert_eq!(
        MoveText::parse_on("e1-e3", 9).unwrap(),
        MoveText::FromTo {
            piece: None,
            from: sq("e1"),
            to: sq("e3")
        }
    );
    assert_eq!(MoveText::parse_on("e3", 9).unwrap(), MoveText::To(sq("e3")));
    assert!(MoveText::parse_on("e1-e3-e5", 9).is_err());
    assert!(MoveText::parse_on("", 9).is_err());
    assert!(MoveText::parse_on("e", 9).is_err());
    assert!(MoveText::parse_on("e1-k3", 9).is_err());
}
