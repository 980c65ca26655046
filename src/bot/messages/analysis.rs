//! Analyses: the autocomplete's labels, progress, and the finished summary.

use super::*;
use crate::ai::analysis::{self, Forced, Judgement};
use crate::render::graph::Mark;
use crate::service::analysis::{AnalysisSummary, CostlyMove, SideSummary};
use crate::service::{GameInfo, GraphLabel};
use crate::tafl::{Call, Side, Variant};

/// A finished game as the analysis's autocomplete lists it (within 100 characters).
pub fn game_choice(game: &GameInfo) -> String {
    let label = format!(
        "#{}{} · {} vs {} · {} · {}",
        game.id,
        variant_tag(game.variant()),
        plain_name(&game.attackers),
        plain_name(&game.defenders),
        game.outcome.status().replace('_', " "),
        counted(game.ply, "ply", "plies")
    );
    if label.chars().count() <= 100 {
        return label;
    }
    let mut cut: String = label.chars().take(99).collect();
    cut.push('…');
    cut
}

/// The title over a game's evaluation graph: the game, its players and where it stands, the
/// names as they are.
pub fn graph_title(game: &GameInfo) -> String {
    format!(
        "Game #{}{} · {} vs {} · {}",
        game.id,
        match game.variant() {
            Variant::Tablut => String::new(),
            v => format!(" · {}", variant_title(v)),
        },
        plain_name(&game.attackers),
        plain_name(&game.defenders),
        board_caption(game)
    )
}

/// A label of a game's evaluation graph: an axis's name ("ply" across, "attackers" up, for
/// their expected score), or the key's name of a kind of mark or a call.
pub const fn graph_label(label: GraphLabel) -> &'static str {
    match label {
        GraphLabel::Plies => "ply",
        GraphLabel::Score => "attackers",
        GraphLabel::Mark(Mark::Inaccuracy) => "inaccuracy",
        GraphLabel::Mark(Mark::Mistake) => "mistake",
        GraphLabel::Mark(Mark::Blunder) => "blunder",
        GraphLabel::Call(Call::Raichi) => "raichi",
        GraphLabel::Call(Call::Tuichu) => "tuichu",
    }
}

/// The progress of an analysis, as its message shows it (edited as it goes).
pub fn analysis_progress(game: &GameInfo, reviewed: u32, total: u32) -> String {
    if reviewed >= total {
        format!(
            "Reviewed game #{}{}: {}. The summary follows.",
            game.id,
            variant_note(game.variant()),
            match total {
                1 => "its one move".to_string(),
                n => format!("all {n} moves"),
            }
        )
    } else {
        format!(
            "Reviewing game #{}{}: {reviewed} of {} reviewed.",
            game.id,
            variant_note(game.variant()),
            counted(total, "move", "moves")
        )
    }
}

/// The answer when an analysis starts.
pub fn analysis_started(game: &GameInfo, total: u32) -> String {
    format!(
        "Reviewing game #{} ({}{}) in the background: the progress shows here, then the summary and the graph.",
        game.id,
        match game.variant() {
            Variant::Tablut => String::new(),
            v => format!("{}, ", variant_name(v)),
        },
        counted(total, "move", "moves")
    )
}

/// The answer while an analysis is under way.
pub fn analysis_running(game: &GameInfo, reviewed: u32, total: u32) -> String {
    format!(
        "Game #{}{} is being reviewed: {reviewed} of {} so far. The summary and the graph will be posted here.",
        game.id,
        variant_note(game.variant()),
        counted(total, "move", "moves")
    )
}

/// A finished analysis: the players and the result, each side's accuracy, its count of
/// blunders, mistakes and inaccuracies, and its costliest moves in the record's notation, each
/// with the expected score it gave away, the better move and the answer it allowed. Within
/// Discord's limit.
pub fn analysis_summary(summary: &AnalysisSummary) -> String {
    let game = &summary.game;
    let named = |side: Side| name(game.player(side));
    let mut out = format!(
        "**Analysis of game #{}**{}: {} (attackers) vs {} (defenders). {}.\n",
        game.id,
        variant_note(game.variant()),
        named(Side::Attackers),
        named(Side::Defenders),
        status_line(game)
    );
    let accuracy = |s: &SideSummary| match s.accuracy {
        Some(a) => format!("{} {a:.0}%", named(s.side)),
        None => format!("{} (no moves)", named(s.side)),
    };
    out.push_str(&format!(
        "Accuracy: {} · {}\n",
        accuracy(&summary.sides[0]),
        accuracy(&summary.sides[1])
    ));
    for s in &summary.sides {
        let counts: Vec<String> = [
            (Judgement::Blunder, s.blunders),
            (Judgement::Mistake, s.mistakes),
            (Judgement::Inaccuracy, s.inaccuracies),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(j, n)| counted(n, judgement_word(j), judgement_words(j)))
        .collect();
        let counts = if counts.is_empty() {
            "no costly move".to_string()
        } else {
            counts.join(", ")
        };
        out.push_str(&format!(
            "\n**{}** ({}): {counts}\n",
            capital(s.side.name()),
            named(s.side)
        ));
        for m in &s.worst {
            out.push_str(&costly_move(m));
            out.push('\n');
        }
    }
    fit(out)
}

/// One costly move as the summary lists it: "• 21… d6-e6+?! (inaccuracy, 13% of the expected
/// score given away): better **d6-f6**; it allowed **g4-e4**", with what it did to a forced
/// result when that judged it ("(blunder: it allows a forced loss; 15% of …)"). The percentage
/// is the one the judgement was made on.
pub(super) fn costly_move(m: &CostlyMove) -> String {
    let dots = match m.side {
        Side::Attackers => ".",
        Side::Defenders => "…",
    };
    let mut line = format!(
        "• {}{dots} {}{} ({}{}{}% of the expected score given away)",
        m.number,
        m.played,
        m.judgement.mark(),
        judgement_word(m.judgement),
        match m.forced {
            Some(f) => format!(": {}; ", forced_words(f)),
            None => ", ".to_string(),
        },
        analysis::percent(m.loss)
    );
    if let Some(better) = m.better {
        line.push_str(&format!(": better **{better}**"));
    }
    if let Some(r) = m.refutation {
        line.push_str(&format!("; it allowed **{r}**"));
    }
    line
}

/// A move's judgement, as a line names it: "inaccuracy".
pub const fn judgement_word(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Good => "good",
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

/// The word for several moves so judged: "inaccuracies".
const fn judgement_words(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Good => "good moves",
        Judgement::Inaccuracy => "inaccuracies",
        Judgement::Mistake => "mistakes",
        Judgement::Blunder => "blunders",
    }
}

/// What a move did to a forced result, as the summary says it: "it allows a forced loss".
const fn forced_words(forced: Forced) -> &'static str {
    match forced {
        Forced::LossAllowed => "it allows a forced loss",
        Forced::WinMissed => "it lets a forced win go",
    }
}
