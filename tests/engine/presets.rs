//! docs/RULES.md's worked cases for the Brandubh and Copenhagen presets the `hnefatafl` crate
//! does not play (tests/engine/variants.rs checks `brandubh linnaeus` and
//! `copenhagen aagenielsen` against it): Brandubh's `aagenielsen` and `opentafl`, and
//! Copenhagen's `hnefatafl_org` repetition. Each case is also played under the preset it differs
//! from, so that every test says what the preset changes.

use std::time::Duration;
use tablut_bot::ai::{self, Level, Searcher, Weights};
use tablut_bot::tafl::{
    Bitboard, Game, IllegalMove, Move, MoveError, Outcome, Position, Preset, Reason, Side, Square,
    Variant,
};

const AAGE: Preset = Preset::BrandubhAagenielsen;
const LINN: Preset = Preset::BrandubhLinnaeus;
const OPEN: Preset = Preset::BrandubhOpenTafl;
const COPE: Preset = Preset::CopenhagenAagenielsen;
const HORG: Preset = Preset::CopenhagenHnefataflOrg;

fn sq(preset: Preset, name: &str) -> Square {
    Square::parse_on(name, preset.variant().size()).unwrap()
}

fn set(preset: Preset, names: &str) -> Bitboard {
    names.split_whitespace().map(|n| sq(preset, n)).collect()
}

fn mv(preset: Preset, text: &str) -> Move {
    let (a, b) = text.split_once('-').unwrap();
    Move::new(sq(preset, a), sq(preset, b))
}

/// A position under `preset` from its pieces.
fn pos(preset: Preset, attackers: &str, defenders: &str, king: &str, turn: Side) -> Position {
    let king = (!king.is_empty()).then(|| sq(preset, king));
    Position::new(
        set(preset, attackers),
        set(preset, defenders),
        king,
        turn,
        preset.rules(),
    )
    .unwrap()
}

/// Plays `text` from the position and returns the squares it captured and the outcome.
fn play(p: Position, text: &str) -> (Vec<String>, Outcome) {
    let preset = p.rules().preset().unwrap();
    let mut g = Game::from_position(p);
    let m = g.play(mv(preset, text)).unwrap();
    let caps = m.captured.into_iter().map(|s| s.to_string()).collect();
    (caps, g.outcome())
}

fn taken(out: Outcome) -> bool {
    out.reason() == Some(Reason::KingCaptured)
}

/// Plays moves and returns the game.
fn replay(p: Position, moves: &str) -> Game {
    let mut g = Game::from_position(p);
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn the_default_presets_are_aagenielsen() {
    assert_eq!(Variant::Brandubh.rules(), AAGE.rules());
    assert_eq!(Variant::Copenhagen.rules(), COPE.rules());
    assert_eq!(Preset::of(Variant::Brandubh).count(), 3);
    assert_eq!(Preset::of(Variant::Copenhagen).count(), 2);
}

#[test]
fn brandubh_aagenielsen_king_taken_by_two_beside_the_throne() {
    // The king on d5, beside the throne: c5 and an attacker arriving on e5 take him.
    let p = |preset| pos(preset, "c5 e7", "a2", "d5", Side::Attackers);
    let mut g = Game::from_position(p(AAGE));
    g.play(mv(AAGE, "e7-e5")).unwrap();
    assert!(taken(g.outcome()));
    // Under `linnaeus` he needs the third attacker on d6.
    assert_eq!(play(p(LINN), "e7-e5").1, Outcome::Ongoing);
}

#[test]
fn brandubh_aagenielsen_the_empty_throne_is_never_hostile_to_the_king() {
    // The king on d5 and an attacker arriving on d6: the empty throne d4 does not take him...
    let (_, out) = play(pos(AAGE, "a6", "g2", "d5", Side::Attackers), "a6-d6");
    assert_eq!(out, Outcome::Ongoing);
    // ...but it takes a defender there, as it does under every preset but `opentafl`.
    let (caps, _) = play(pos(AAGE, "a6", "d5", "e6", Side::Attackers), "a6-d6");
    assert_eq!(caps, ["d5"]);
    // Away from the throne the king falls to two, and to one against a corner.
    assert!(taken(
        play(pos(AAGE, "b6 d7", "f2", "c6", Side::Attackers), "d7-d6").1
    ));
    assert!(taken(
        play(pos(AAGE, "c3", "f5", "b1", Side::Attackers), "c3-c1").1
    ));
}

#[test]
fn brandubh_aagenielsen_king_on_the_throne_needs_four() {
    let (_, out) = play(pos(AAGE, "c4 e4 d3 a5", "", "d4", Side::Attackers), "a5-d5");
    assert!(taken(out));
    let (_, out) = play(pos(AAGE, "c4 e4 a5", "g2", "d4", Side::Attackers), "a5-d5");
    assert_eq!(out, Outcome::Ongoing);
}

#[test]
fn brandubh_aagenielsen_keeps_encirclement_and_repetition() {
    let p = pos(AAGE, "c4 e4 d3 c5 e5 d7", "d5", "d4", Side::Attackers);
    assert_eq!(play(p, "d7-d6").1.reason(), Some(Reason::Encircled));
    let shuffle = "a6-a5 c3-c2 a5-a6 c2-c3";
    let g = replay(
        pos(AAGE, "a6 g2", "", "c3", Side::Attackers),
        &format!("{shuffle} {shuffle}"),
    );
    assert_eq!(
        g.outcome(),
        Outcome::Won {
            winner: Side::Attackers,
            reason: Reason::Repetition
        }
    );
}

#[test]
fn brandubh_opentafl_king_taken_by_two_on_the_throne() {
    let (_, out) = play(pos(OPEN, "c4 a5", "g2", "d4", Side::Attackers), "a5-d5");
    assert_eq!(out, Outcome::Ongoing, "d5 and c4 are not opposite");
    let (_, out) = play(pos(OPEN, "c4 e7", "g2", "d4", Side::Attackers), "e7-e4");
    assert!(taken(out));
    // Beside the throne, by two as well.
    assert!(taken(
        play(pos(OPEN, "c5 e7", "a2", "d5", Side::Attackers), "e7-e5").1
    ));
    // A corner still stands in for an attacker.
    assert!(taken(
        play(pos(OPEN, "c3", "f5", "b1", Side::Attackers), "c3-c1").1
    ));
    // Under `aagenielsen`, two on the throne are not enough.
    assert_eq!(
        play(pos(AAGE, "c4 e7", "g2", "d4", Side::Attackers), "e7-e4").1,
        Outcome::Ongoing
    );
}

#[test]
fn brandubh_opentafl_the_throne_is_neutral() {
    // A defender on d5, the throne empty: an attacker arriving on d6 does not take it.
    let (caps, _) = play(pos(OPEN, "a6", "d5", "e6", Side::Attackers), "a6-d6");
    assert!(caps.is_empty());
    // Nor a defender arriving on d6 an attacker on d5.
    let (caps, _) = play(pos(OPEN, "d5", "a6", "b2", Side::Defenders), "a6-d6");
    assert!(caps.is_empty());
    // Nor the king beside it.
    let (_, out) = play(pos(OPEN, "a6", "g2", "d5", Side::Attackers), "a6-d6");
    assert_eq!(out, Outcome::Ongoing);
    // The king on the throne still captures with his men: he is armed.
    let (caps, _) = play(pos(OPEN, "d5", "a6", "d4", Side::Defenders), "a6-d6");
    assert_eq!(caps, ["d5"]);
}

#[test]
fn brandubh_opentafl_has_no_encirclement_and_a_third_repetition_draws() {
    // The ring leaves the king d3 to move to.
    let ring = "c3 e3 d2 c4 e4 c5 e5 d7";
    let p = pos(OPEN, ring, "d5", "d4", Side::Attackers);
    assert_eq!(play(p, "d7-d6").1, Outcome::Ongoing);
    let p = pos(AAGE, ring, "d5", "d4", Side::Attackers);
    assert_eq!(play(p, "d7-d6").1.reason(), Some(Reason::Encircled));
    let shuffle = "a6-a5 c3-c2 a5-a6 c2-c3";
    let p = pos(OPEN, "a6 g2", "", "c3", Side::Attackers);
    assert_eq!(replay(p, shuffle).outcome(), Outcome::Ongoing);
    let g = replay(p, &format!("{shuffle} {shuffle}"));
    assert_eq!(
        g.outcome(),
        Outcome::Drawn {
            reason: Reason::Repetition
        }
    );
}

/// From Copenhagen's start: the attackers' a4 and the defenders' e5 step out and back.
const OUT_AND_BACK: &str = "a4-b4 e5-e3 b4-c4 e3-e5 c4-a4 e5-e3 a4-b4";

#[test]
fn copenhagen_hnefatafl_org_defenders_may_not_recreate_a_board() {
    // The attackers recreate the start's board (c4-a4) and then the board after 1… e5-e3
    // (a4-b4): allowed.
    let mut g = replay(Position::start(HORG.rules()), OUT_AND_BACK);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    let board = |p: &Position| (p.attackers(), p.defenders(), p.king());
    let boards: Vec<_> = g.positions().iter().map(board).collect();
    assert_eq!(boards[5], boards[0], "c4-a4 brings back the start's board");
    assert_eq!(
        boards[7], boards[2],
        "a4-b4 brings back the board after 1… e5-e3"
    );
    // e3-e5 would bring back the board after 1. a4-b4: refused, and nothing changes.
    let before = *g.position();
    assert_eq!(
        g.play(mv(HORG, "e3-e5")),
        Err(IllegalMove::RepeatsBoard(mv(HORG, "e3-e5")))
    );
    assert_eq!(
        g.play_text("e3-e5"),
        Err(MoveError::Illegal(IllegalMove::RepeatsBoard(mv(
            HORG, "e3-e5"
        ))))
    );
    assert_eq!(*g.position(), before);
    assert!(!g.legal_moves().contains(&mv(HORG, "e3-e5")));
    // Another move is played.
    g.play_text("e3-e2").unwrap();
    // Under `aagenielsen` the same move is a second occurrence, allowed.
    let mut g = replay(Position::start(COPE.rules()), OUT_AND_BACK);
    g.play_text("e3-e5").unwrap();
    assert_eq!(g.outcome(), Outcome::Ongoing);
}

#[test]
fn copenhagen_hnefatafl_org_no_move_but_a_repeat_loses() {
    // The lone king shuttles c1-d1 between attackers; h8 waits.
    let p = pos(HORG, "b1 c2 d2 e1 h8", "", "c1", Side::Attackers);
    let g = replay(p, "h8-h9 c1-d1 h9-h8");
    // d1-c1 would bring back the first board, and the king has no other move.
    assert_eq!(
        g.outcome(),
        Outcome::Won {
            winner: Side::Attackers,
            reason: Reason::NoMoves
        }
    );
    // The board compared is the one the move leaves before its captures: d1-c1 would also take
    // b1 against the corner, and is refused all the same. Under `aagenielsen` he goes back
    // and takes it.
    let p = pos(COPE, "b1 c2 d2 e1 h8", "", "c1", Side::Attackers);
    let mut g = replay(p, "h8-h9 c1-d1 h9-h8");
    let back = g.play(mv(COPE, "d1-c1")).unwrap();
    assert_eq!(
        back.captured
            .into_iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ["b1"]
    );
    assert_eq!(g.outcome(), Outcome::Ongoing);
}

#[test]
fn the_ai_never_plays_a_refused_repeat() {
    // As in the test above, with a defender on h3 that can move: the AI, for the defenders,
    // does not take the king back to c1.
    let p = pos(HORG, "b1 c2 d2 e1 h8", "h3", "c1", Side::Attackers);
    let g = replay(p, "h8-h9 c1-d1 h9-h8");
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert!(!g.legal_moves().contains(&mv(HORG, "d1-c1")));
    for level in Level::ALL {
        let r = ai::choose_move(&g, level, Duration::from_millis(30)).unwrap();
        assert_ne!(r.best, mv(HORG, "d1-c1"), "{level}");
        assert!(g.legal_moves().contains(&r.best), "{level}: {}", r.best);
    }
}

#[test]
fn the_ai_plays_every_preset_to_the_end() {
    for preset in [LINN, OPEN, AAGE, HORG] {
        let mut players = [
            Searcher::new(1, Weights::DEFAULT),
            Searcher::new(1, Weights::DEFAULT),
        ];
        let mut g = Game::new(preset.rules());
        let mut plies = 0;
        while !g.outcome().is_over() && plies < 150 {
            let who = usize::from(g.turn() == Side::Defenders);
            let r = ai::choose_move_with(
                &mut players[who],
                &g,
                Level::Medium,
                Duration::from_millis(8),
            )
            .unwrap_or_else(|| panic!("{preset:?}: no move at ply {plies}"));
            g.play(r.best)
                .unwrap_or_else(|e| panic!("{preset:?} ply {plies}: {}: {e}", r.best));
            plies += 1;
        }
        assert!(plies > 0);
    }
}
