//! Round robins by the Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! The table for an even number of players `m` numbers them `1..=m`. Round 1 pairs `1–m`,
//! `2–(m−1)`, …, `(m/2)–(m/2+1)`, the first named taking white (here: the attackers in game 1
//! of the match). Each later round keeps `m` in the first pairing, alternating its side (the
//! left in odd rounds, the right in even ones), and moves every other number on by `m/2`,
//! counted round `1..m−1`. An odd number of players uses the table of the next even number, and
//! whoever meets the highest number has the bye. Seats are the table's numbers less one.

use super::{Pairing, Seat};

/// Every round of a round robin of `n` players, the first round first; within a round, the
/// table's pairings in order and the bye (odd `n`) last. Empty for fewer than two players.
pub fn round_robin(n: usize) -> Vec<Vec<Pairing>> {
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2;
    let half = m / 2;
    (0..m - 1)
        .map(|r| {
            // Where number `x` (of 1..m) stands in round `r` (from 0).
            let moved = |x: usize| (x - 1 + r * half) % (m - 1) + 1;
            let mut round = Vec::with_capacity(half);
            let mut bye = None;
            for board in 1..=half {
                let (a, b) = if board == 1 {
                    if r % 2 == 0 {
                        (moved(1), m)
                    } else {
                        (m, moved(1))
                    }
                } else {
                    (moved(board), moved(m + 1 - board))
                };
                let (a, b): (Seat, Seat) = (a - 1, b - 1);
                if b >= n {
                    bye = Some(a);
                } else if a >= n {
                    bye = Some(b);
                } else {
                    round.push(Pairing::Match {
                        first: a,
                        second: b,
                    });
                }
            }
            round.extend(bye.map(Pairing::Bye));
            round
        })
        .collect()
}
