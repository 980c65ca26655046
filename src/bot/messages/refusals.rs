//! Refusals: a one-line private answer saying what is wrong and what to do.

use crate::tafl::Variant;

/// The refusal of one of Tablut's presets for another variant.
pub fn preset_refused(variant: Variant, preset: &str) -> String {
    format!(
        "{} has no rules preset {preset}: choose {} (`/tablut rules variant:{}` describes them).",
        variant.title(),
        crate::tafl::Preset::names_of(variant),
        variant.name()
    )
}

/// `/tablut import` given both or neither of its sources.
pub const IMPORT_ONE_SOURCE: &str =
    "Give the record once: as text (record:) or as a file (file:), not both or neither.";

/// `/tablut import then: challenge` without an opponent.
pub const IMPORT_NEEDS_OPPONENT: &str =
    "Say whom you challenge to play on: add opponent:, or play on against the bot with then: ai.";
