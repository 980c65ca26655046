//! Standings: places, match and game points, and the tiebreaks.
//!
//! Players are ordered by match points, then by their format's tiebreaks in order
//! ([`Format::tiebreaks`]): a round robin by Sonneborn–Berger, then game points; a Swiss event
//! by Buchholz, median Buchholz, then game points. Players equal on all of them **share** a
//! place and are listed by seed (the top seed first): the seed decides last, where one winner
//! must be named.
//!
//! - **Sonneborn–Berger**: over the player's matches, each opponent's match points, in full for
//!   a match won and half for a match tied (kept doubled: the sum of the match points the
//!   player took from each match times the opponent's).
//! - **Buchholz**: the sum of the match points of every opponent met.
//! - **Median Buchholz**: Buchholz without the highest and the lowest of those (0 with fewer
//!   than three opponents).
//! - **Game points**: over all the player's matches and byes (kept doubled, as halves).
//!
//! A bye has no opponent and adds nothing to Sonneborn–Berger or Buchholz. A forfeited match
//! counts as a meeting: its opponent's points count as any opponent's. The points counted are
//! everyone's as they stand, withdrawn players' included (they keep what they scored).

use super::{Format, MatchResult, Seat};
use serde::{Deserialize, Serialize};

/// A criterion that orders players with equal match points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    SonnebornBerger,
    Buchholz,
    MedianBuchholz,
    GamePoints,
    /// The seeding order, last of all: it lists the players of a shared place.
    Seed,
}

impl Format {
    /// The tiebreaks of the format, in the order they are applied after the match points
    /// (the seed decides last: [`Tiebreak::Seed`]).
    pub const fn tiebreaks(self) -> &'static [Tiebreak] {
        match self {
            Format::RoundRobin => &[Tiebreak::SonnebornBerger, Tiebreak::GamePoints],
            Format::Swiss { .. } => &[
                Tiebreak::Buchholz,
                Tiebreak::MedianBuchholz,
                Tiebreak::GamePoints,
            ],
        }
    }
}

impl Tiebreak {
    /// Whether the tiebreak's values are kept doubled (they can hold halves).
    pub const fn doubled(self) -> bool {
        matches!(self, Tiebreak::SonnebornBerger | Tiebreak::GamePoints)
    }
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    /// From 1; players who share a place have the same one.
    pub place: usize,
    /// Another player has the same match points and tiebreaks.
    pub shared: bool,
    pub match_points: u32,
    /// Game points ×2.
    pub game_halves: u32,
    /// The format's tiebreaks in order, each with its value (doubled where
    /// [`Tiebreak::doubled`]).
    pub tiebreaks: Vec<(Tiebreak, u32)>,
    /// What set this player apart from a neighbour in the list with the same match points: the
    /// last criterion needed against either neighbour ([`Tiebreak::Seed`] for a shared place);
    /// `None` when neither neighbour has the same match points.
    pub decided_by: Option<Tiebreak>,
    /// The player has withdrawn (they keep what they scored).
    pub withdrawn: bool,
    /// Matches played or forfeited, byes included.
    pub rounds: u32,
}

/// What the results add up to, seat by seat. Results naming a seat out of `0..n` are left out.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub match_points: Vec<u32>,
    pub game_halves: Vec<u32>,
    /// Byes received (not forfeited ones).
    pub byes: Vec<u32>,
    /// Matches counted, byes included.
    pub rounds: Vec<u32>,
    /// Each seat's meetings: the opponent and the match points the seat took from it.
    pub met: Vec<Vec<(Seat, u32)>>,
    /// Each seat's matches as `first` less those as `second`.
    pub first_balance: Vec<i32>,
    /// Each seat's side in its latest match: (round, was first).
    pub last_side: Vec<Option<(u32, bool)>>,
}

impl Tally {
    pub(crate) fn new(n: usize, played: &[MatchResult]) -> Tally {
        let mut t = Tally {
            match_points: vec![0; n],
            game_halves: vec![0; n],
            byes: vec![0; n],
            rounds: vec![0; n],
            met: vec![Vec::new(); n],
            first_balance: vec![0; n],
            last_side: vec![None; n],
        };
        for r in played {
            let (a_points, b_points) = r.match_points();
            match r.second {
                None if r.first < n => {
                    let a = r.first;
                    t.match_points[a] += a_points;
                    t.game_halves[a] += u32::from(r.first_halves);
                    t.byes[a] += u32::from(r.is_bye());
                    t.rounds[a] += 1;
                }
                Some(b) if r.first < n && b < n && b != r.first => {
                    let a = r.first;
                    t.match_points[a] += a_points;
                    t.match_points[b] += b_points;
                    t.game_halves[a] += u32::from(r.first_halves);
                    t.game_halves[b] += u32::from(r.second_halves);
                    t.rounds[a] += 1;
                    t.rounds[b] += 1;
                    t.met[a].push((b, a_points));
                    t.met[b].push((a, b_points));
                    if !r.forfeit {
                        t.first_balance[a] += 1;
                        t.first_balance[b] -= 1;
                        for (seat, first) in [(a, true), (b, false)] {
                            if t.last_side[seat].is_none_or(|(round, _)| round <= r.round) {
                                t.last_side[seat] = Some((r.round, first));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        t
    }

    /// Whether `a` and `b` have met.
    pub(crate) fn have_met(&self, a: Seat, b: Seat) -> bool {
        self.met[a].iter().any(|&(o, _)| o == b)
    }

    fn value(&self, tiebreak: Tiebreak, seat: Seat) -> u32 {
        let opponents = || self.met[seat].iter().map(|&(o, _)| self.match_points[o]);
        match tiebreak {
            Tiebreak::SonnebornBerger => self.met[seat]
                .iter()
                .map(|&(o, took)| took * self.match_points[o])
                .sum(),
            Tiebreak::Buchholz => opponents().sum(),
            Tiebreak::MedianBuchholz => {
                let mut scores: Vec<u32> = opponents().collect();
                if scores.len() < 3 {
                    return 0;
                }
                scores.sort_unstable();
                scores[1..scores.len() - 1].iter().sum()
            }
            Tiebreak::GamePoints => self.game_halves[seat],
            Tiebreak::Seed => seat as u32,
        }
    }
}

/// The standings of `n` seats after the results `played`, best first: every seat, withdrawn
/// ones included (marked).
pub fn standings(
    format: &Format,
    n: usize,
    withdrawn: &[Seat],
    played: &[MatchResult],
) -> Vec<Standing> {
    let tally = Tally::new(n, played);
    let order = format.tiebreaks();
    let values: Vec<Vec<u32>> = (0..n)
        .map(|seat| order.iter().map(|&t| tally.value(t, seat)).collect())
        .collect();
    let mut seats: Vec<Seat> = (0..n).collect();
    // Match points, then each tiebreak, higher first; then the seed, lower first.
    let key = |s: Seat| (tally.match_points[s], values[s].clone());
    seats.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
    // The first criterion that tells two seats with equal match points apart, if any.
    let decider = |a: Seat, b: Seat| -> Option<Tiebreak> {
        if tally.match_points[a] != tally.match_points[b] {
            return None;
        }
        Some(
            order
                .iter()
                .zip(values[a].iter().zip(&values[b]))
                .find(|(_, (x, y))| x != y)
                .map_or(Tiebreak::Seed, |(&t, _)| t),
        )
    };
    let rank = |t: Tiebreak| match t {
        Tiebreak::Seed => usize::MAX,
        t => order.iter().position(|&o| o == t).unwrap_or(usize::MAX),
    };
    let mut out: Vec<Standing> = Vec::with_capacity(n);
    for (i, &seat) in seats.iter().enumerate() {
        let first_equal = seats[..i]
            .iter()
            .rposition(|&s| key(s) != key(seat))
            .map_or(0, |p| p + 1);
        let shared = (first_equal < i) || seats.get(i + 1).is_some_and(|&s| key(s) == key(seat));
        let above = i.checked_sub(1).and_then(|j| decider(seats[j], seat));
        let below = seats.get(i + 1).and_then(|&s| decider(seat, s));
        let decided_by = match (above, below) {
            (Some(a), Some(b)) => Some(if rank(a) >= rank(b) { a } else { b }),
            (a, b) => a.or(b),
        };
        out.push(Standing {
            seat,
            place: first_equal + 1,
            shared,
            match_points: tally.match_points[seat],
            game_halves: tally.game_halves[seat],
            tiebreaks: order.iter().copied().zip(values[seat].clone()).collect(),
            decided_by,
            withdrawn: withdrawn.contains(&seat),
            rounds: tally.rounds[seat],
        });
    }
    out
}

/// One cell of a crosstable: a seat's result against another in their match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meeting {
    /// Game points ×2 of the row's seat and of the column's.
    pub halves: u8,
    pub against: u8,
    /// Forfeited without a game.
    pub forfeit: bool,
}

/// The crosstable of the seats in `order` (as the standings list them): `[i][j]` is how
/// `order[i]` did against `order[j]` (their latest match), `None` where they have not met (and
/// on the diagonal).
pub fn crosstable(order: &[Seat], played: &[MatchResult]) -> Vec<Vec<Option<Meeting>>> {
    let mut cells = vec![vec![None; order.len()]; order.len()];
    let row = |seat: Seat| order.iter().position(|&s| s == seat);
    let mut latest = vec![vec![0u32; order.len()]; order.len()];
    for r in played {
        let Some(second) = r.second else { continue };
        let (Some(i), Some(j)) = (row(r.first), row(second)) else {
            continue;
        };
        if i == j || latest[i][j] > r.round {
            continue;
        }
        latest[i][j] = r.round;
        latest[j][i] = r.round;
        cells[i][j] = Some(Meeting {
            halves: r.first_halves,
            against: r.second_halves,
            forfeit: r.forfeit,
        });
        cells[j][i] = Some(Meeting {
            halves: r.second_halves,
            against: r.first_halves,
            forfeit: r.forfeit,
        });
    }
    cells
}
