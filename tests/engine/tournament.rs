//! Tournaments' pure part: the Berger tables against FIDE's, Swiss rounds against a brute force
//! over every pairing, and standings with their tiebreaks on results worked out by hand.

use std::collections::BTreeSet;
use tablut_bot::tournament::{
    round_robin, standings, swiss_round, Format, MatchResult, Pairing, Seat, Standing, Tiebreak,
};

/// The Berger tables of the FIDE Handbook (C.05, Annex 1), as printed there: one line a round,
/// white (here: the match's first) named first.
const BERGER_4: &str = "1-4 2-3
4-3 1-2
2-4 3-1";
const BERGER_6: &str = "1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1";
const BERGER_8: &str = "1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1";

/// The handbook's table for `n` players as pairings of seats (numbers less one): for an odd
/// `n`, the next even table, where meeting the highest number is the bye (listed last).
fn fide_table(n: usize) -> Vec<Vec<Pairing>> {
    let m = n + n % 2;
    let text = match m {
        4 => BERGER_4,
        6 => BERGER_6,
        8 => BERGER_8,
        _ => unreachable!(),
    };
    text.lines()
        .map(|line| {
            let mut round = Vec::new();
            let mut bye = None;
            for pair in line.split_whitespace() {
                let (a, b) = pair.split_once('-').unwrap();
                let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
                if b > n {
                    bye = Some(Pairing::Bye(a - 1));
                } else if a > n {
                    bye = Some(Pairing::Bye(b - 1));
                } else {
                    round.push(Pairing::Match {
                        first: a - 1,
                        second: b - 1,
                    });
                }
            }
            round.extend(bye);
            round
        })
        .collect()
}

#[test]
fn round_robins_follow_the_fide_berger_tables_for_three_to_eight_players() {
    for n in 3..=8 {
        assert_eq!(round_robin(n), fide_table(n), "{n} players");
    }
}

#[test]
fn every_round_robin_round_seats_everyone_once_and_every_pair_meets_once() {
    assert!(round_robin(0).is_empty());
    assert!(round_robin(1).is_empty());
    for n in 2..=40 {
        let rounds = round_robin(n);
        assert_eq!(rounds.len() as u32, Format::RoundRobin.rounds(n), "{n}");
        let mut met = BTreeSet::new();
        let mut byes = vec![0; n];
        for round in &rounds {
            let mut seated = vec![0; n];
            for p in round {
                match *p {
                    Pairing::Match { first, second } => {
                        seated[first] += 1;
                        seated[second] += 1;
                        assert!(
                            met.insert((first.min(second), first.max(second))),
                            "{n}: {first}-{second} twice"
                        );
                    }
                    Pairing::Bye(s) => {
                        seated[s] += 1;
                        byes[s] += 1;
                    }
                }
            }
            assert!(seated.iter().all(|&k| k == 1), "{n}: {round:?}");
        }
        assert_eq!(met.len(), n * (n - 1) / 2, "{n}");
        assert!(byes.iter().all(|&b| b == n % 2), "{n}: byes {byes:?}");
    }
}

/// What the Swiss pairing rules weigh, worked out from a pairing the way the rules say (and
/// not from the matching's costs): rematches, repeat byes, how far from the bottom of the
/// ranking the bye went, pairs across score groups, their squared differences, how far the
/// floaters are from the edges of their groups, the shape of the pairs within groups.
type Criteria = (usize, usize, usize, usize, u64, u64, u64);

/// The ranking for pairing: the active seats by match points, game points, seed.
fn ranked(n: usize, withdrawn: &[Seat], played: &[MatchResult]) -> Vec<(Seat, u32, u32)> {
    let mut points = vec![(0u32, 0u32); n];
    for r in played {
        let (a, b) = r.match_points();
        points[r.first].0 += a;
        points[r.first].1 += u32::from(r.first_halves);
        if let Some(s) = r.second {
            points[s].0 += b;
            points[s].1 += u32::from(r.second_halves);
        }
    }
    let mut order: Vec<(Seat, u32, u32)> = (0..n)
        .filter(|s| !withdrawn.contains(s))
        .map(|s| (s, points[s].0, points[s].1))
        .collect();
    order.sort_by(|a, b| (b.1, b.2, a.0).cmp(&(a.1, a.2, b.0)));
    order
}

fn criteria(order: &[(Seat, u32, u32)], played: &[MatchResult], pairs: &[Pairing]) -> Criteria {
    let pos = |s: Seat| order.iter().position(|o| o.0 == s).unwrap();
    let met = |a: Seat, b: Seat| {
        played
            .iter()
            .any(|r| (r.first == a && r.second == Some(b)) || (r.first == b && r.second == Some(a)))
    };
    let group = |i: usize| {
        let start = (0..=i).find(|&k| order[k].1 == order[i].1).unwrap();
        let size = order.iter().filter(|o| o.1 == order[i].1).count();
        (start, size)
    };
    let mut c: Criteria = (0, 0, 0, 0, 0, 0, 0);
    for p in pairs {
        match *p {
            Pairing::Bye(s) => {
                if played.iter().any(|r| r.first == s && r.is_bye()) {
                    c.1 += 1;
                }
                c.2 += order.len() - 1 - pos(s);
            }
            Pairing::Match { first, second } => {
                let (i, j) = (pos(first).min(pos(second)), pos(first).max(pos(second)));
                if met(first, second) {
                    c.0 += 1;
                }
                let d = u64::from(order[i].1.abs_diff(order[j].1));
                let ((gi, si), (gj, _)) = (group(i), group(j));
                if d > 0 {
                    c.3 += 1;
                    c.4 += d * d;
                    c.5 += ((gi + si - 1 - i) + (j - gj)) as u64;
                } else {
                    c.6 += ((j - i) as i64 - (si / 2) as i64).unsigned_abs();
                }
            }
        }
    }
    c
}

/// The best criteria over every way of pairing the ranked players (a bye when odd).
fn brute_force(order: &[(Seat, u32, u32)], played: &[MatchResult]) -> Criteria {
    fn all(left: &mut Vec<Seat>, odd: bool, out: &mut Vec<Pairing>, f: &mut dyn FnMut(&[Pairing])) {
        let Some(&a) = left.first() else {
            f(out);
            return;
        };
        left.remove(0);
        if odd {
            out.push(Pairing::Bye(a));
            all(left, false, out, f);
            out.pop();
        }
        for k in 0..left.len() {
            let b = left.remove(k);
            out.push(Pairing::Match {
                first: a,
                second: b,
            });
            all(left, odd, out, f);
            out.pop();
            left.insert(k, b);
        }
        left.insert(0, a);
    }
    let mut seats: Vec<Seat> = order.iter().map(|o| o.0).collect();
    let mut best: Option<Criteria> = None;
    all(
        &mut seats,
        order.len() % 2 == 1,
        &mut Vec::new(),
        &mut |pairs| {
            let c = criteria(order, played, pairs);
            if best.is_none_or(|b| c < b) {
                best = Some(c);
            }
        },
    );
    best.unwrap()
}

/// A random match result: any of 0..=4 halves for the first, the rest for the second.
fn random_result(rng: &mut fastrand::Rng, round: u32, p: &Pairing) -> MatchResult {
    match *p {
        Pairing::Bye(s) => MatchResult::bye(round, s),
        Pairing::Match { first, second } => {
            let h = rng.u8(0..=4);
            MatchResult::played(round, first, second, h, 4 - h)
        }
    }
}

/// Checks a round: every active seat once, no withdrawn seat, a bye only when the number is odd.
fn check_round(n: usize, withdrawn: &[Seat], pairs: &[Pairing]) {
    let mut seen = vec![0; n];
    for p in pairs {
        let (a, b) = p.seats();
        seen[a] += 1;
        if let Some(b) = b {
            seen[b] += 1;
        }
    }
    for (s, &times) in seen.iter().enumerate() {
        let want = usize::from(!withdrawn.contains(&s));
        assert_eq!(times, want, "seat {s} in {pairs:?}");
    }
    let active = n - withdrawn.len();
    let byes = pairs
        .iter()
        .filter(|p| matches!(p, Pairing::Bye(_)))
        .count();
    assert_eq!(byes, active % 2, "{pairs:?}");
}

#[test]
fn a_first_swiss_round_meets_the_top_half_with_the_bottom_half_alternating_sides() {
    assert_eq!(
        swiss_round(8, &[], &[]),
        vec![
            Pairing::Match {
                first: 0,
                second: 4
            },
            Pairing::Match {
                first: 5,
                second: 1
            },
            Pairing::Match {
                first: 2,
                second: 6
            },
            Pairing::Match {
                first: 7,
                second: 3
            },
        ]
    );
    // Odd: the last seed has the bye, the rest split in halves.
    assert_eq!(
        swiss_round(5, &[], &[]),
        vec![
            Pairing::Match {
                first: 0,
                second: 2
            },
            Pairing::Match {
                first: 3,
                second: 1
            },
            Pairing::Bye(4),
        ]
    );
    assert_eq!(swiss_round(1, &[], &[]), vec![Pairing::Bye(0)]);
    assert!(swiss_round(0, &[], &[]).is_empty());
    assert!(swiss_round(2, &[0, 1], &[]).is_empty());
}

#[test]
fn a_second_swiss_round_avoids_the_rematch_floats_the_lowest_it_can_and_moves_the_bye_on() {
    // Round 1 of five (as above): 0 beat 2 3-1, 3 beat 1 3-1, 4 had the bye.
    let played = [
        MatchResult::played(1, 0, 2, 3, 1),
        MatchResult::played(1, 3, 1, 3, 1),
        MatchResult::bye(1, 4),
    ];
    // Ranked: 4 (2 match points, 4 halves), 0 and 3 (2, 3 halves; seed order), 1 and 2 (0, 1).
    // 2, the lowest without a bye, has it. One of the three with 2 points must meet 1: not 3
    // (they met), so 0, the lower of the two left; 4 meets 3. Sides: 4 (no side yet) takes
    // first against 3 (first in round 1); 1 (second in round 1) against 0 (first).
    assert_eq!(
        swiss_round(5, &[], &played),
        vec![
            Pairing::Match {
                first: 4,
                second: 3
            },
            Pairing::Match {
                first: 1,
                second: 0
            },
            Pairing::Bye(2),
        ]
    );
}

#[test]
fn swiss_rounds_are_the_best_pairing_by_the_rules_order_checked_against_every_pairing() {
    let mut rng = fastrand::Rng::with_seed(38);
    let mut checked = 0;
    for n in 2..=9 {
        for _ in 0..12 {
            let rounds = rng.u32(1..=n as u32);
            let mut played = Vec::new();
            let mut withdrawn = Vec::new();
            for round in 1..=rounds {
                if n > 3 && rng.u8(0..6) == 0 {
                    let s = rng.usize(0..n);
                    if !withdrawn.contains(&s) {
                        withdrawn.push(s);
                    }
                }
                let pairs = swiss_round(n, &withdrawn, &played);
                check_round(n, &withdrawn, &pairs);
                let order = ranked(n, &withdrawn, &played);
                assert_eq!(
                    criteria(&order, &played, &pairs),
                    brute_force(&order, &played),
                    "{n} seats, round {round}, withdrawn {withdrawn:?}, played {played:?}: {pairs:?}"
                );
                checked += 1;
                // Deterministic, whatever order the results come in.
                let mut shuffled = played.clone();
                rng.shuffle(&mut shuffled);
                assert_eq!(swiss_round(n, &withdrawn, &shuffled), pairs);
                played.extend(pairs.iter().map(|p| random_result(&mut rng, round, p)));
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn swiss_events_never_repeat_a_match_or_a_bye_while_the_field_allows_it() {
    let mut rng = fastrand::Rng::with_seed(7);
    for &(n, rounds) in &[(9, 4), (16, 7), (33, 9), (64, 8), (256, 4)] {
        let mut played: Vec<MatchResult> = Vec::new();
        let mut withdrawn = Vec::new();
        for round in 1..=rounds {
            if round == 3 {
                withdrawn.push(n / 2);
            }
            let pairs = swiss_round(n, &withdrawn, &played);
            check_round(n, &withdrawn, &pairs);
            for p in &pairs {
                match *p {
                    Pairing::Match { first, second } => assert!(
                        !played
                            .iter()
                            .any(|r| (r.first, r.second) == (first, Some(second))
                                || (r.first, r.second) == (second, Some(first))),
                        "{n}: rematch {first}-{second} in round {round}"
                    ),
                    Pairing::Bye(s) => assert!(
                        !played.iter().any(|r| r.first == s && r.is_bye()),
                        "{n}: second bye for {s}"
                    ),
                }
            }
            // Score groups: in the first two rounds no more pairs cross two groups than there
            // are groups of odd size (each sends one player down), and two more for a group of
            // two who have met (the only rematch in the way after one round: in a larger group
            // each has met at most one other). Later rounds are left to the brute force.
            let order = ranked(n, &withdrawn, &played);
            let mp = |s: Seat| order.iter().find(|o| o.0 == s).unwrap().1;
            let floats = pairs
                .iter()
                .filter(
                    |p| matches!(p, Pairing::Match { first, second } if mp(*first) != mp(*second)),
                )
                .count();
            if round <= 2 {
                let mut groups = std::collections::BTreeMap::<u32, Vec<Seat>>::new();
                for o in &order {
                    groups.entry(o.1).or_default().push(o.0);
                }
                let odd = groups.values().filter(|g| g.len() % 2 == 1).count();
                let met = |a: Seat, b: Seat| {
                    played.iter().any(|r| {
                        (r.first, r.second) == (a, Some(b)) || (r.first, r.second) == (b, Some(a))
                    })
                };
                let blocked = groups
                    .values()
                    .filter(|g| g.len() == 2 && met(g[0], g[1]))
                    .count();
                assert!(
                    floats <= odd + 2 * blocked,
                    "{n}, round {round}: {floats} floats, {odd} odd groups, {blocked} blocked"
                );
            }
            played.extend(pairs.iter().map(|p| random_result(&mut rng, round, p)));
        }
    }
}

fn line(s: &Standing) -> (Seat, usize, bool, u32, u32, Vec<u32>, Option<Tiebreak>) {
    (
        s.seat,
        s.place,
        s.shared,
        s.match_points,
        s.game_halves,
        s.tiebreaks.iter().map(|t| t.1).collect(),
        s.decided_by,
    )
}

#[test]
fn round_robin_standings_and_sonneborn_berger_as_worked_out_by_hand() {
    // Four players, all six matches (game points ×2 in brackets):
    //   A(0)-B(1) 3-1   A wins      C(2)-D(3) 2-2  tie
    //   A(0)-C(2) 1-3   C wins      B(1)-D(3) 4-0  B wins
    //   A(0)-D(3) 4-0   A wins      B(1)-C(2) 2-2  tie
    // Match points: A 4, B 3, C 4, D 1. Game halves: A 8, B 7, C 7, D 2.
    // Sonneborn-Berger ×2 (match points taken × opponent's match points):
    //   A: B 2×3 + C 0×4 + D 2×1 = 8       C: A 2×4 + D 1×1 + B 1×3 = 12
    //   B: A 0×4 + D 2×1 + C 1×4 = 6       D: C 1×4 + B 0 + A 0 = 4
    // So C (12) before A (8), both 4 match points, decided by Sonneborn-Berger.
    let played = [
        MatchResult::played(1, 0, 1, 3, 1),
        MatchResult::played(1, 2, 3, 2, 2),
        MatchResult::played(2, 2, 0, 3, 1),
        MatchResult::played(2, 1, 3, 4, 0),
        MatchResult::played(3, 0, 3, 4, 0),
        MatchResult::played(3, 1, 2, 2, 2),
    ];
    let table = standings(&Format::RoundRobin, 4, &[], &played);
    let sb = Some(Tiebreak::SonnebornBerger);
    assert_eq!(
        table.iter().map(line).collect::<Vec<_>>(),
        vec![
            (2, 1, false, 4, 7, vec![12, 7], sb),
            (0, 2, false, 4, 8, vec![8, 8], sb),
            (1, 3, false, 3, 7, vec![6, 7], None),
            (3, 4, false, 1, 2, vec![4, 2], None),
        ]
    );
    assert_eq!(
        table[0].tiebreaks.iter().map(|t| t.0).collect::<Vec<_>>(),
        vec![Tiebreak::SonnebornBerger, Tiebreak::GamePoints]
    );
}

#[test]
fn a_five_player_round_robin_with_byes_and_a_shared_place() {
    // Five players (byes from the table), every match tied 2-2: everyone has 4 match points
    // from ties and 2 from the bye, equal game points, and Sonneborn-Berger 4 × (1 × 6) = 24.
    let mut played = Vec::new();
    for (r, round) in round_robin(5).iter().enumerate() {
        for p in round {
            played.push(match *p {
                Pairing::Bye(s) => MatchResult::bye(r as u32 + 1, s),
                Pairing::Match { first, second } => {
                    MatchResult::played(r as u32 + 1, first, second, 2, 2)
                }
            });
        }
    }
    let table = standings(&Format::RoundRobin, 5, &[], &played);
    for (i, s) in table.iter().enumerate() {
        assert_eq!(s.seat, i, "listed by seed");
        assert_eq!((s.place, s.shared), (1, true));
        assert_eq!((s.match_points, s.game_halves), (6, 12));
        assert_eq!(s.tiebreaks[0], (Tiebreak::SonnebornBerger, 24));
        assert_eq!(s.decided_by, Some(Tiebreak::Seed));
        assert_eq!(s.rounds, 5);
    }
}

#[test]
fn swiss_standings_with_buchholz_and_median_buchholz_as_worked_out_by_hand() {
    // Six players, three rounds (game points ×2 in brackets, first named first):
    //   R1: 0-3 4-0, 1-4 2-2, 2-5 3-1
    //   R2: 0-2 4-0, 5-1 0-4, 3-4 2-2
    //   R3: 0-1 1-3, 2-4 4-0, 5-3 4-0
    // Match points: 0: 2+2+0 = 4; 1: 1+2+2 = 5; 2: 2+0+2 = 4; 3: 0+1+0 = 1; 4: 1+1+0 = 2;
    // 5: 0+0+2 = 2. Game halves: 0: 9; 1: 9; 2: 7; 3: 2; 4: 4; 5: 5.
    // Buchholz (opponents' match points) and median (without the highest and the lowest):
    //   0: 3, 2, 1 → 1+4+5 = 10, 4      1: 4, 5, 0 → 2+2+4 = 8, 2
    //   2: 5, 0, 4 → 2+4+2 = 8, 2       3: 0, 4, 5 → 4+2+2 = 8, 2
    //   4: 1, 3, 2 → 5+1+4 = 10, 4      5: 2, 1, 3 → 4+5+1 = 10, 4
    // 0 is ahead of 2 on Buchholz; 5 and 4 are equal on both Buchholz and go by game points.
    let played = [
        MatchResult::played(1, 0, 3, 4, 0),
        MatchResult::played(1, 1, 4, 2, 2),
        MatchResult::played(1, 2, 5, 3, 1),
        MatchResult::played(2, 0, 2, 4, 0),
        MatchResult::played(2, 5, 1, 0, 4),
        MatchResult::played(2, 3, 4, 2, 2),
        MatchResult::played(3, 0, 1, 1, 3),
        MatchResult::played(3, 2, 4, 4, 0),
        MatchResult::played(3, 5, 3, 4, 0),
    ];
    let swiss = Format::Swiss { rounds: 3 };
    let table = standings(&swiss, 6, &[], &played);
    let (b, g) = (Some(Tiebreak::Buchholz), Some(Tiebreak::GamePoints));
    assert_eq!(
        table.iter().map(line).collect::<Vec<_>>(),
        vec![
            (1, 1, false, 5, 9, vec![8, 2, 9], None),
            (0, 2, false, 4, 9, vec![10, 4, 9], b),
            (2, 3, false, 4, 7, vec![8, 2, 7], b),
            (5, 4, false, 2, 5, vec![10, 4, 5], g),
            (4, 5, false, 2, 4, vec![10, 4, 4], g),
            (3, 6, false, 1, 2, vec![8, 2, 2], None),
        ]
    );
    assert_eq!(
        table[0].tiebreaks.iter().map(|t| t.0).collect::<Vec<_>>(),
        vec![
            Tiebreak::Buchholz,
            Tiebreak::MedianBuchholz,
            Tiebreak::GamePoints
        ]
    );
    // 3 withdrawn after round 2, round 3's match forfeited to 5 (4 halves to none, as played):
    // the same points, and 3 is marked.
    let mut forfeited = played;
    forfeited[8] = MatchResult::forfeit(
        3,
        &Pairing::Match {
            first: 5,
            second: 3,
        },
        &[3],
    )
    .unwrap();
    let after = standings(&swiss, 6, &[3], &forfeited);
    assert_eq!(
        after.iter().map(line).collect::<Vec<_>>(),
        table.iter().map(line).collect::<Vec<_>>()
    );
    assert_eq!(
        after
            .iter()
            .filter(|s| s.withdrawn)
            .map(|s| s.seat)
            .collect::<Vec<_>>(),
        vec![3]
    );
}

#[test]
fn match_points_follow_game_points_byes_and_forfeits() {
    let m = |a, b| MatchResult::played(1, 0, 1, a, b).match_points();
    assert_eq!(m(4, 0), (2, 0));
    assert_eq!(m(3, 1), (2, 0));
    assert_eq!(m(2, 2), (1, 1));
    assert_eq!(m(1, 3), (0, 2));
    assert_eq!(m(0, 0), (1, 1), "played to no points on either side: a tie");
    assert_eq!(MatchResult::bye(1, 0).match_points(), (2, 0));
    assert_eq!(MatchResult::bye(1, 0).first_halves, 4);
    let pair = Pairing::Match {
        first: 0,
        second: 1,
    };
    assert_eq!(MatchResult::forfeit(1, &pair, &[]), None);
    let one_out = MatchResult::forfeit(1, &pair, &[1]).unwrap();
    assert_eq!(one_out.match_points(), (2, 0));
    assert_eq!((one_out.first_halves, one_out.second_halves), (4, 0));
    let both_out = MatchResult::forfeit(1, &pair, &[0, 1]).unwrap();
    assert_eq!(both_out.match_points(), (0, 0));
    let bye_out = MatchResult::forfeit(1, &Pairing::Bye(2), &[2]).unwrap();
    assert_eq!(bye_out.match_points(), (0, 0));
    assert!(!bye_out.is_bye());
}
