//! Games for the board-image tests and benchmarks.

use tablut_bot::tafl::{Game, MoveList, Position, RecordedMove, Rules};

/// A legal game of up to `plies` moves chosen by a fastrand generator seeded with `seed`; it
/// stops early if the game ends.
pub fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
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
pub fn long_game(rules: Rules, plies: usize) -> Game {
    (1..10_000)
        .map(|seed| random_game(rules, seed, plies))
        .find(|g| g.moves().len() == plies)
        .expect("some seed plays on that long")
}

/// The boards the size checks and the benchmark draw for a game: the start, and the last
/// position of 24 seeded random games of 9 to 124 plies (or fewer where a game ends), each with
/// the move that led to it.
pub fn sample_boards(rules: Rules) -> Vec<(Position, Option<RecordedMove>)> {
    let mut boards = vec![(Position::start(rules), None)];
    for seed in 1..=24 {
        let game = random_game(rules, seed, 4 + seed as usize * 5);
        boards.push((*game.position(), game.moves().last().copied()));
    }
    boards
}

/// The caption the size checks and the benchmark draw under every board: a long name.
pub const LONG_CAPTION: &str = "Move 44 · Astrid Ragnhildsdóttir (defenders) to play";
