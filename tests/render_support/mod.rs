//! Games for the board-image tests and benchmarks.

use tablut_bot::tafl::{Game, MoveList, Position, RecordedMove, Rules};

/// A legal game of up to `plies` moves chosen by a fastrand generator seeded with `seed`; it
/// stops early if the game ends.
pub(crate) fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new(rules);
    let mut list = MoveList::new();
    for _ in 0..plies {
        if game.outcome().is_over() {
            break;
        }
        list.clear();
        game.position().legal_moves(&mut list);
        let moves = list.as_mut_slice();
        let mv = moves[rng.usize(..moves.len())];
        game.play(mv).expect("a generated move is legal");
    }
    game
}

/// The first seeded random game that lasts `plies` moves without ending.
pub(crate) fn long_game(rules: Rules, plies: usize) -> Game {
    (1..10_000)
        .map(|seed| random_game(rules, seed, plies))
        .find(|g| g.moves().len() == plies)
        .expect("some seed plays on that long")
}

/// The boards the size checks and the benchmark draw for a game: the start, and the last
/// position of 24 seeded random games of 9 to 124 plies (or fewer where a game ends), each with
/// the move that led to it.
pub(crate) fn sample_boards(rules: Rules) -> Vec<(Position, Option<RecordedMove>)> {
    let mut boards = vec![(Position::start(rules), None)];
    for seed in 1..=24 {
        let game = random_game(rules, seed, 4 + seed as usize * 5);
        boards.push((*game.position(), game.moves().last().copied()));
    }
    boards
}

/// The caption the size checks and the benchmark draw under every board: a long name.
pub(crate) const LONG_CAPTION: &str = "Move 44 · Astrid Ragnhildsdóttir (defenders) to play";

/// Entrants' names for the standings images: many scripts, an emoji, markup, and names far
/// too long for their column.
pub(crate) const NAMES: [&str; 12] = [
    "Astrid Ragnhildsdóttir",
    "Bjørn",
    "Áilu Gaup",
    "Саша Петрова",
    "李小龍",
    "محمد",
    "🦊 Fox of the North",
    "Zoë *bold* `code`",
    "Ŋuvvos-Ánde Sara Heandarat Elle Máret Biret Ánne Inga Ánte",
    "a",
    "Hnefatafl Enthusiast With An Extremely Long Display Name Indeed",
    "Ψ",
];

/// The standings of a seeded tournament of `players` (a round robin played to the end with
/// its crosstable, or a Swiss event after `rounds` rounds), as the image takes them.
pub(crate) fn sample_standings(
    players: usize,
    round_robin: bool,
    rounds: u32,
) -> tablut_bot::render::standings::StandingsTable {
    use tablut_bot::render::standings::{Cell, Column, Row, StandingsTable};
    use tablut_bot::tournament::{self, Format, MatchResult, Pairing, Tiebreak};
    let mut rng = fastrand::Rng::with_seed(players as u64 * 31 + u64::from(rounds));
    let mut played = Vec::new();
    let result = |round: u32, p: &Pairing, rng: &mut fastrand::Rng| match *p {
        Pairing::Bye(s) => MatchResult::bye(round, s),
        Pairing::Match { first, second } => {
            let h = rng.u8(0..=4);
            MatchResult::played(round, first, second, h, 4 - h)
        }
    };
    let format = if round_robin {
        for (r, round) in tournament::round_robin(players).iter().enumerate() {
            for p in round {
                played.push(result(r as u32 + 1, p, &mut rng));
            }
        }
        Format::RoundRobin
    } else {
        for round in 1..=rounds {
            for p in tournament::swiss_round(players, &[], &played) {
                played.push(result(round, &p, &mut rng));
            }
        }
        Format::Swiss { rounds }
    };
    let withdrawn = [players - 1];
    let table = tournament::standings(&format, players, &withdrawn, &played);
    let order: Vec<usize> = table.iter().map(|s| s.seat).collect();
    let cells = tournament::crosstable(&order, &played);
    let heading = |t: Tiebreak| match t {
        Tiebreak::SonnebornBerger => "SB",
        Tiebreak::Buchholz => "Bh",
        Tiebreak::MedianBuchholz => "Med",
        Tiebreak::GamePoints => "GP",
        Tiebreak::Seed => "Seed",
    };
    let mut columns = vec![
        Column {
            heading: "MP".into(),
            doubled: false,
        },
        Column {
            heading: "GP".into(),
            doubled: true,
        },
    ];
    columns.extend(
        format
            .tiebreaks()
            .iter()
            .filter(|&&t| t != Tiebreak::GamePoints)
            .map(|&t| Column {
                heading: heading(t).into(),
                doubled: t.doubled(),
            }),
    );
    let rows = table
        .iter()
        .map(|s| {
            let mut values = vec![s.match_points, s.game_halves];
            values.extend(
                s.tiebreaks
                    .iter()
                    .filter(|t| t.0 != Tiebreak::GamePoints)
                    .map(|t| t.1),
            );
            Row {
                place: s.place,
                shared: s.shared,
                name: NAMES[s.seat % NAMES.len()].to_string(),
                values,
                withdrawn: s.withdrawn,
            }
        })
        .collect();
    let crosstable = round_robin.then(|| {
        cells
            .iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .enumerate()
                    .map(|(j, m)| match m {
                        _ if i == j => Cell::Own,
                        None => Cell::Unplayed,
                        Some(m) if m.forfeit => Cell::Forfeit {
                            won: m.halves > m.against,
                        },
                        Some(m) => Cell::Played {
                            halves: m.halves,
                            against: m.against,
                        },
                    })
                    .collect()
            })
            .collect()
    });
    StandingsTable {
        title: "Spring Open · Tablut".into(),
        place_heading: "#".into(),
        subtitle: if round_robin {
            format!(
                "Round robin · final standings after round {}",
                Format::RoundRobin.rounds(players)
            )
        } else {
            format!("Swiss · standings after round {rounds} of {rounds}")
        },
        columns,
        rows,
        crosstable,
    }
}
