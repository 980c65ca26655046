//! Players' records: stats and leaderboards.

use super::*;
use crate::service::{Leaderboard, Stats};
use crate::tafl::Variant;

/// A player's stats.
pub fn stats_message(name: &str, s: &Stats) -> String {
    // One rating a variant, each named: "Tablut rating **1662** ± 580 (1 rated games)".
    let rating = if s.ratings.is_empty() {
        "no rating yet".to_string()
    } else {
        let each: Vec<String> = s
            .ratings
            .iter()
            .map(|r| {
                format!(
                    "{} rating **{:.0}** ± {:.0} ({})",
                    variant_name(r.variant),
                    r.rating.rating,
                    2.0 * r.rating.deviation,
                    counted(r.rated_games, "rated game", "rated games")
                )
            })
            .collect();
        each.join(" · ")
    };
    let mut text = format!(
        "**{}**: {} · as attackers {} won, {} lost · as defenders {} won, {} lost · {} drawn · {rating}",
        escape(name),
        counted(s.games, "game", "games"),
        s.wins_as_attackers,
        s.losses_as_attackers,
        s.wins_as_defenders,
        s.losses_as_defenders,
        s.draws
    );
    if !s.recent.is_empty() {
        text.push_str("\nRecent:");
        for g in &s.recent {
            text.push_str(&format!(
                "\n• {} as {} against {} ({}{})",
                g.result,
                g.side,
                super::name(&g.opponent),
                g.reason.replace('_', " "),
                match g.variant {
                    Variant::Tablut => String::new(),
                    v => format!(", {}", variant_name(v)),
                }
            ));
        }
    }
    text
}

/// A leaderboard page (each variant has its own, named in its title).
pub fn leaderboard_message(board: &Leaderboard) -> String {
    let name = variant_name(board.variant);
    if board.lines.is_empty() {
        return format!(
            "No rated {name} games in this server yet: games between two people count."
        );
    }
    let lines: Vec<String> = board
        .lines
        .iter()
        .map(|l| {
            format!(
                "{}. {} {:.0} ± {:.0} ({})",
                l.rank,
                escape(&l.name),
                l.rating.rating,
                2.0 * l.rating.deviation,
                counted(l.rated_games, "game", "games")
            )
        })
        .collect();
    listing(
        format!(
            "**{name} leaderboard** (page {}/{})",
            board.page + 1,
            board.pages
        ),
        &lines,
    )
}
