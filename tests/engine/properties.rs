//! Property tests over random games, under random rule options.

use proptest::prelude::*;
use tablut_bot::tafl::{
    parse_move, parse_position, write_position, Escape, Game, KingCapture, Move, MoveList, NoMoves,
    Piece, Position, Rules, Square,
};

fn rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(re, pass, armed, four, corner, three, draw)| Rules {
            king_reenters_castle: re,
            castle_passable: pass,
            king_armed: armed,
            king_capture: if four {
                KingCapture::FourSides
            } else {
                KingCapture::Linnaeus
            },
            escape: if corner { Escape::Corner } else { Escape::Edge },
            repetition_limit: if three { 3 } else { 2 },
            no_moves: if draw { NoMoves::Draw } else { NoMoves::Lose },
            ..Rules::default()
        })
}

/// A random game: each choice picks one of the legal moves.
fn random_game(rules: Rules, choices: &[u16]) -> Game {
    let mut g = Game::new(rules);
    for &c in choices {
        if g.outcome().is_over() {
            break;
        }
        let moves = g.position().legal_moves_sorted();
        let mv = moves[usize::from(c) % moves.len()];
        g.play(mv).unwrap();
    }
    g
}

fn all_moves(p: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn piece_counts_never_grow_and_captured_pieces_are_gone(
        rules in rules(), choices in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        let g = random_game(rules, &choices);
        for (i, rec) in g.moves().iter().enumerate() {
            let before = g.positions()[i];
            let after = g.positions()[i + 1];
            prop_assert!(after.attackers().count() <= before.attackers().count());
            prop_assert!(after.defenders().count() <= before.defenders().count());
            prop_assert!(after.king_bb().count() <= before.king_bb().count());
            let lost = before.occupied().count() - after.occupied().count();
            prop_assert_eq!(lost, rec.captured.count() + u32::from(rec.king_captured));
            for sq in rec.captured {
                prop_assert_eq!(after.piece_at(sq), None);
                prop_assert_eq!(before.piece_at(sq).map(|p| p.side()), Some(rec.side.other()));
            }
            prop_assert_eq!(after.piece_at(rec.mv.to).map(|p| p.side()), Some(rec.side));
            prop_assert_eq!(after.piece_at(rec.mv.from), None);
        }
    }

    #[test]
    fn make_unmake_restores_board_and_hash_and_hashes_match_from_scratch(
        rules in rules(), choices in prop::collection::vec(any::<u16>(), 0..80)
    ) {
        let g = random_game(rules, &choices);
        for pos in g.positions() {
            prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
            for mv in all_moves(pos) {
                let mut p = *pos;
                let undo = p.make_in_place(mv);
                prop_assert_eq!(p.hash(), p.hash_from_scratch());
                let (copied, _) = pos.make(mv);
                prop_assert_eq!(copied, p);
                prop_assert_eq!(copied.hash(), p.hash());
                p.unmake(mv, undo);
                prop_assert_eq!(p, *pos);
                prop_assert_eq!(p.hash(), pos.hash());
            }
        }
    }

    #[test]
    fn position_records_round_trip(
        rules in rules(), choices in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        let g = random_game(rules, &choices);
        for pos in g.positions() {
            let record = write_position(pos);
            let back = parse_position(&record, pos.turn(), rules).unwrap();
            prop_assert_eq!(back, *pos);
            prop_assert_eq!(back.hash(), pos.hash());
        }
    }

    #[test]
    fn move_generation_agrees_with_the_move_checker(
        rules in rules(), choices in prop::collection::vec(any::<u16>(), 0..100)
    ) {
        let g = random_game(rules, &choices);
        let pos = g.position();
        let mut legal = all_moves(pos);
        legal.sort();
        prop_assert_eq!(legal.len() as u32, pos.count_legal_moves());
        prop_assert_eq!(!legal.is_empty(), pos.has_legal_move());
        let mut checked = Vec::new();
        for from in Square::all_on(9) {
            for to in Square::all_on(9) {
                if pos.check(Move::new(from, to)).is_ok() {
                    checked.push(Move::new(from, to));
                }
            }
        }
        prop_assert_eq!(legal, checked);
    }

    #[test]
    fn every_legal_move_parses_back_from_each_accepted_form(
        rules in rules(), choices in prop::collection::vec(any::<u16>(), 0..100)
    ) {
        let g = random_game(rules, &choices);
        let pos = *g.position();
        let moves = all_moves(&pos);
        for &mv in &moves {
            let (f, t) = (mv.from.to_string(), mv.to.to_string());
            let letter = if pos.piece_at(mv.from) == Some(Piece::King) { "K" } else { "t" };
            let mut forms = vec![
                format!("{f}-{t}"),
                format!("{f}{t}"),
                format!("{f} {t}"),
                format!("{f}-{t}").to_uppercase(),
                format!("{letter}{f}-{t}"),
                format!("{f}-{t}+"),
                format!("{f}-{t}++"),
                format!("{f}-{t}-"),
                format!("{f}-{t}--"),
            ];
            let mut probe = Game::from_position(pos);
            forms.push(probe.play(mv).unwrap().to_string());
            if moves.iter().filter(|m| m.to == mv.to).count() == 1 {
                forms.push(t.clone());
            }
            for form in forms {
                prop_assert_eq!(parse_move(&pos, &form), Ok(mv), "{}", form);
            }
        }
    }

    #[test]
    fn a_random_illegal_move_is_refused_and_changes_nothing(
        rules in rules(),
        choices in prop::collection::vec(any::<u16>(), 0..100),
        from in 0u8..81, to in 0u8..81,
    ) {
        let mut g = random_game(rules, &choices);
        let mv = Move::new(Square::new(from).unwrap(), Square::new(to).unwrap());
        if g.outcome().is_over() || !g.position().is_legal(mv) {
            let before = (*g.position(), g.moves().len(), g.outcome());
            let err = g.play(mv).unwrap_err();
            prop_assert!(!err.to_string().is_empty());
            let err = g.play_text(&mv.to_string()).unwrap_err();
            prop_assert!(!err.to_string().contains('\n'));
            prop_assert_eq!((*g.position(), g.moves().len(), g.outcome()), before);
        }
    }
}
