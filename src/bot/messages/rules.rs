//! The rules of each variant in brief, the variants' full names, and presets' names and what
//! each changes.

use crate::tafl::{Preset, Rules, Variant};

/// A variant's full name: "Tablut", "Brandubh", "Copenhagen Hnefatafl", "Copenhagen
/// Hnefatafl 13×13" (a post's short one is [`super::variant_name`]).
pub const fn variant_title(variant: Variant) -> &'static str {
    match variant {
        Variant::Tablut => "Tablut",
        Variant::Brandubh => "Brandubh",
        Variant::Copenhagen => "Copenhagen Hnefatafl",
        Variant::Copenhagen13 => "Copenhagen Hnefatafl 13×13",
    }
}

/// The names of a variant's presets, "a, b or c".
pub fn preset_names(variant: Variant) -> String {
    let names: Vec<&str> = Preset::of(variant).map(Preset::name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// One line on what the preset changes.
pub const fn preset_description(preset: Preset) -> &'static str {
    match preset {
        Preset::Linnaeus => "Linnaeus' rules as the project reads them (the default)",
        Preset::Walker => "Damian Walker's rules: a side with no legal move draws",
        Preset::Salmi => "Salmi's reading: the king may return to his castle",
        Preset::Corner => "the king must reach a corner, not just the edge",
        Preset::BrandubhAagenielsen => {
            "aagenielsen.dk's (the default): the king is taken by two attackers, by four on the throne; the empty throne is never hostile to him"
        }
        Preset::BrandubhLinnaeus => {
            "the king is taken as in Linnaeus' Tablut: four on the throne, three beside it, two elsewhere"
        }
        Preset::BrandubhOpenTafl => {
            "OpenTafl's: the king is taken by two everywhere, the throne is hostile to no one, no encirclement, a third repetition draws"
        }
        Preset::CopenhagenAagenielsen => {
            "aagenielsen.dk's (the default): a third repetition of a position loses for the defenders"
        }
        Preset::CopenhagenHnefataflOrg => {
            "hnefatafl.org's: the defenders may not recreate an earlier board; the attackers may repeat"
        }
        Preset::Copenhagen13HnefataflOrg => {
            "hnefatafl.org's (the default): the defenders may not recreate an earlier board; the attackers may repeat"
        }
        Preset::Copenhagen13Aagenielsen => {
            "aagenielsen.dk's repetition: a third repetition of a position loses for the defenders"
        }
    }
}

/// The preset's name, or "custom".
pub fn rules_name(rules: &Rules) -> String {
    rules
        .preset()
        .map(|p| p.name().to_string())
        .unwrap_or_else(|| "custom".to_string())
}

/// The rules of `variant` in brief; with `game`, the rules of the channel's game (when it is a
/// game of that variant): Tablut's options.
pub fn rules_message(variant: Variant, game: Option<&Rules>) -> String {
    let mut text = String::from(match variant {
        Variant::Tablut => TABLUT_RULES,
        Variant::Brandubh => BRANDUBH_RULES,
        Variant::Copenhagen => COPENHAGEN_RULES,
        Variant::Copenhagen13 => COPENHAGEN13_RULES,
    });
    text.push_str("\nMove with `/move e1-e3` (a bare square lists its moves).");
    match game.filter(|r| r.variant == variant) {
        Some(rules) if variant == Variant::Tablut => {
            let options: Vec<String> = rules
                .options()
                .iter()
                .map(|(k, v)| format!("`{k}={v}`"))
                .collect();
            text.push_str(&format!(
                "\nThis channel's game: **{}** rules: {}.",
                rules_name(rules),
                options.join(", ")
            ));
        }
        Some(rules) => text.push_str(&format!(
            "\nThis channel's game is a game of {}, **{}** rules.",
            variant_title(variant),
            rules_name(rules)
        )),
        None => {}
    }
    if variant == Variant::Tablut {
        text.push_str(
            "\nAlso: `/tablut rules variant:` brandubh (7×7), copenhagen (11×11) or copenhagen13 (13×13).",
        );
    } else {
        text.push_str("\nPresets (`rules:` when you start a game):");
        for p in Preset::of(variant) {
            text.push_str(&format!("\n• **{}**: {}.", p.name(), preset_description(p)));
        }
    }
    text
}

pub(super) const TABLUT_RULES: &str =
    "**Tablut**, the Sámi game Linnaeus recorded in 1732. 9×9 board, files a–i, ranks 1–9.\n\
     • The attackers (16, blue) move first; the king and his 8 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the castle (e5); pieces pass through it while it is empty.\n\
     • Enclose an enemy between two of yours on a rank or file to capture it. The empty castle \
     is hostile to both sides; the armed king helps capture.\n\
     • The king is taken by four attackers on the castle, three beside it, two elsewhere.\n\
     • The defenders win when the king reaches the edge; the attackers when they take him. A \
     repeated position draws; a side with no move loses.";

pub(super) const BRANDUBH_RULES: &str = "**Brandubh**, the Irish game of the tafl family. 7×7 board, files a–g, ranks 1–7.\n\
     • The attackers (8, blue) move first; the king and his 4 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the throne (d4) or a corner; pieces pass through the empty throne.\n\
     • Enclose an enemy between two of yours on a rank or file to capture it. The corners and \
     the empty throne are hostile to both sides; the armed king helps capture.\n\
     • Under the default preset the king is taken by two attackers (or one and a corner; the \
     empty throne never counts against him), and by four on the throne.\n\
     • The defenders win when the king reaches a corner; the attackers when they take him, or \
     enclose him and all his defenders. A position seen a third time loses for the defenders; \
     a side with no move loses.";

pub(super) const COPENHAGEN_RULES: &str = "**Copenhagen Hnefatafl**, the tafl game of today's tournaments. 11×11 board, files a–k, ranks 1–11.\n\
     • The attackers (24, blue) move first; the king and his 12 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the throne (f6) or a corner; pieces pass through the empty throne.\n\
     • Enclose an enemy between two of yours on a rank or file to capture it. The corners and \
     the empty throne are hostile to both sides; the armed king helps capture. A shieldwall \
     takes a row of pieces on the edge at once.\n\
     • The king is taken by attackers on his four sides (three and the empty throne); never on \
     the edge.\n\
     • The defenders win when the king reaches a corner or makes an exit fort on the edge; the \
     attackers when they take him or enclose all the defenders. Under the default preset a \
     position seen a third time loses for the defenders; a side with no move loses.";

pub(super) const COPENHAGEN13_RULES: &str = "**Copenhagen Hnefatafl on 13×13**, as hnefatafl.org plays it. 13×13 board, files a–m, ranks 1–13.\n\
     • The attackers (32, blue) move first; the king and his 16 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the throne (g7) or a corner; pieces pass through the empty throne.\n\
     • Every rule is Copenhagen's: captures against the corners and the empty throne, the \
     shieldwall, the king taken on four sides (three and the empty throne) and never on the edge.\n\
     • The defenders win when the king reaches a corner or makes an exit fort on the edge; the \
     attackers when they take him or enclose all the defenders. Under the default preset the \
     defenders may not bring back an earlier board; a side with no move loses.";
