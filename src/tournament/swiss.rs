//! Swiss rounds: every active player paired, within score groups where it can be, by a
//! minimum-cost perfect matching (the blossom algorithm of the `integer-blossom` crate).
//!
//! The players still in the event are ranked for pairing by match points, then game points,
//! then seed. Score groups are the players with equal match points. With an odd number of
//! players, a stand-in vertex joins the graph, and whoever is matched to it has the bye. Every
//! pair of vertices is an edge; its cost adds up, from the weightiest criterion to the lightest
//! (each outweighs all of the lighter ones together, so the matching settles them in order):
//!
//! 1. a rematch (only when no pairing avoids one, as when fewer players are left than rounds);
//! 2. a second bye for a player who has had one (likewise only when unavoidable);
//! 3. the bye's place in the ranking: the lowest-ranked player without a bye gets it;
//! 4. a pair from two score groups (the fewest such pairs);
//! 5. the square of its difference in match points (the smallest differences);
//! 6. who floats: across groups, the lowest-ranked of the upper group meets the highest-ranked
//!    of the lower (the cost is how far each is from those places);
//! 7. the shape of the rest: within a score group the top half meets the bottom half in order
//!    (the group's first meets the first of its second half, as in FIDE's Dutch system).
//!
//! The same standings and history give the same pairing: nothing is random and ties are broken
//! by the order above. Who plays `first` (the attackers in game 1): the player who has been
//! first less often, else the one who was second in their latest match, else the higher-ranked
//! on odd boards and the lower-ranked on even boards. Pairings are listed by board: the pair
//! with the higher-ranked player first, the bye last.

use super::standings::Tally;
use super::{MatchResult, Pairing, Seat};

/// The weight of each criterion of the cost, from the lightest (the shape, weight 1): each is
/// one more than the most that all the lighter ones can add up to over a round.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weights {
    pub float_place: i128,
    pub float_size: i128,
    pub float: i128,
    pub bye_rank: i128,
    pub repeat_bye: i128,
    pub rematch: i128,
}

impl Weights {
    /// The weights for `v` vertices whose match points differ by at most `spread`.
    pub(crate) fn new(v: usize, spread: u32) -> Weights {
        let (v, pairs) = (v as i128, (v / 2) as i128);
        let spread = i128::from(spread);
        let shapes = pairs * v;
        let float_place = shapes + 1;
        let places = shapes + pairs * v * float_place;
        let float_size = places + 1;
        let sizes = places + pairs * spread * spread * float_size;
        let float = sizes + 1;
        let floats = sizes + pairs * float;
        let bye_rank = floats + 1;
        let byes = floats + v * bye_rank;
        let repeat_bye = byes + 1;
        let rematch = byes + repeat_bye + 1;
        Weights {
            float_place,
            float_size,
            float,
            bye_rank,
            repeat_bye,
            rematch,
        }
    }
}

/// The next round of a Swiss event of `n` seats: the `withdrawn` ones are left out; `played`
/// is every result so far (of any round, byes and forfeits included).
pub fn swiss_round(n: usize, withdrawn: &[Seat], played: &[MatchResult]) -> Vec<Pairing> {
    let tally = Tally::new(n, played);
    let mut order: Vec<Seat> = (0..n).filter(|s| !withdrawn.contains(s)).collect();
    order.sort_by(|&a, &b| {
        (tally.match_points[b], tally.game_halves[b])
            .cmp(&(tally.match_points[a], tally.game_halves[a]))
            .then(a.cmp(&b))
    });
    let m = order.len();
    if m == 0 {
        return Vec::new();
    }
    let cost = costs(&tally, &order);
    let v = m + m % 2;
    let mate = integer_blossom::min_weight_perfect_matching(&cost, v);
    let mut pairings = Vec::with_capacity(v / 2);
    let mut bye = None;
    for i in 0..m {
        let j = mate[i];
        if j >= m {
            bye = Some(Pairing::Bye(order[i]));
        } else if i < j {
            let board = pairings.len() + 1;
            pairings.push(sides(&tally, order[i], order[j], board));
        }
    }
    pairings.extend(bye);
    pairings
}

/// The row-major cost matrix over the ranked players (and the bye's stand-in, last, when
/// their number is odd).
pub(crate) fn costs(tally: &Tally, order: &[Seat]) -> Vec<i128> {
    let m = order.len();
    let v = m + m % 2;
    let points = |i: usize| tally.match_points[order[i]];
    // Each ranked player's score group: its first index and its size.
    let mut group = vec![(0usize, 0usize); m];
    let mut start = 0;
    while start < m {
        let end = (start..m)
            .find(|&k| points(k) != points(start))
            .unwrap_or(m);
        for g in &mut group[start..end] {
            *g = (start, end - start);
        }
        start = end;
    }
    let spread = order
        .iter()
        .map(|&s| tally.match_points[s])
        .max()
        .unwrap_or(0)
        - order
            .iter()
            .map(|&s| tally.match_points[s])
            .min()
            .unwrap_or(0);
    let w = Weights::new(v, spread);
    let mut cost = vec![0i128; v * v];
    for i in 0..m {
        for j in i + 1..v {
            let c = if j == m {
                let repeat = if tally.byes[order[i]] > 0 {
                    w.repeat_bye
                } else {
                    0
                };
                repeat + w.bye_rank * (m - 1 - i) as i128
            } else {
                pair_cost(tally, order, &group, &w, i, j)
            };
            cost[i * v + j] = c;
            cost[j * v + i] = c;
        }
    }
    cost
}

/// The cost of pairing the ranked players `i < j`.
fn pair_cost(
    tally: &Tally,
    order: &[Seat],
    group: &[(usize, usize)],
    w: &Weights,
    i: usize,
    j: usize,
) -> i128 {
    let (a, b) = (order[i], order[j]);
    let mut c = 0;
    if tally.have_met(a, b) {
        c += w.rematch;
    }
    let diff = i128::from(tally.match_points[a].abs_diff(tally.match_points[b]));
    let ((gi, si), (gj, _)) = (group[i], group[j]);
    if gi == gj {
        // Positions within the group; the ideal distance is half the group.
        c + ((j - i) as i128 - (si / 2) as i128).abs()
    } else {
        // How far the upper player is from the bottom of its group, and the lower from the top.
        let place = ((gi + si - 1 - i) + (j - gj)) as i128;
        c + w.float + w.float_size * diff * diff + w.float_place * place
    }
}

/// The match of `a` (ranked higher) and `b` on board `board` (from 1), sides given.
fn sides(tally: &Tally, a: Seat, b: Seat, board: usize) -> Pairing {
    let a_first = match tally.first_balance[a].cmp(&tally.first_balance[b]) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match (tally.last_side[a], tally.last_side[b]) {
            (Some((_, false)), Some((_, true))) => true,
            (Some((_, true)), Some((_, false))) => false,
            _ => board % 2 == 1,
        },
    };
    if a_first {
        Pairing::Match {
            first: a,
            second: b,
        }
    } else {
        Pairing::Match {
            first: b,
            second: a,
        }
    }
}
