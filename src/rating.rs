//! Glicko-2 ratings (Glickman's system, computed by the `skillratings` crate). Pure arithmetic:
//! where ratings are kept, and which games count, is the service's business.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's rating, its deviation (uncertainty) and volatility.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// A game's result from the first player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Win,
    Loss,
    Draw,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Loss => Outcomes::LOSS,
            Score::Draw => Outcomes::DRAW,
        }
    }
}

/// The system constant τ: 0.5, as Glickman's example uses.
fn config() -> Glicko2Config {
    Glicko2Config::new()
}

/// Both players' ratings after one game between them (each game its own rating period).
pub fn rate_game(first: Rating, second: Rating, score: Score) -> (Rating, Rating) {
    let (a, b) = glicko2(&first.into(), &second.into(), &score.outcome(), &config());
    (a.into(), b.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// A player's rating after a rating period with these games (opponent, score from the
    /// player's side); with no games the deviation grows, as the system prescribes. The bot
    /// rates each game as a period of its own ([`rate_game`]); Glickman's example is a period
    /// of three games, and checks the conversions both use.
    fn rate_period(player: Rating, games: &[(Rating, Score)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = games
            .iter()
            .map(|(opp, s)| ((*opp).into(), s.outcome()))
            .collect();
        glicko2_rating_period(&player.into(), &results, &config()).into()
    }

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_published_example() {
        // Glickman, "Example of the Glicko-2 system" (2013): a 1500/200 player beats a 1400/30
        // player and loses to 1550/100 and 1700/300: 1464.06, deviation 151.52, volatility
        // 0.05999.
        let after = rate_period(
            r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), Score::Win),
                (r(1550.0, 100.0), Score::Loss),
                (r(1700.0, 300.0), Score::Loss),
            ],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn one_game_moves_the_winner_up_and_the_loser_down() {
        let (w, l) = rate_game(Rating::default(), Rating::default(), Score::Win);
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - l.rating)).abs() < 1e-9);
        assert!(w.deviation < 350.0 && l.deviation < 350.0);
        let (a, b) = rate_game(Rating::default(), Rating::default(), Score::Draw);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        let (l2, w2) = rate_game(Rating::default(), Rating::default(), Score::Loss);
        assert!((l2.rating - l.rating).abs() < 1e-9 && (w2.rating - w.rating).abs() < 1e-9);
    }

    #[test]
    fn an_idle_period_widens_the_deviation() {
        let p = r(1600.0, 80.0);
        let after = rate_period(p, &[]);
        assert_eq!(after.rating, p.rating);
        assert!(after.deviation > p.deviation);
    }
}
