//! The games (variants), their rule options and Tablut's named presets of docs/RULES.md.

use super::square::Square;
use super::tables::{geometry, Geometry};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How the king is captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KingCapture {
    /// Four sides on the castle, three beside it, two elsewhere.
    Linnaeus,
    /// Four sides everywhere (an empty castle or a hostile corner counts as a side).
    FourSides,
    /// Brandubh as aagenielsen.dk plays it: four sides on the throne, two everywhere else
    /// (beside the throne too); the empty throne is never hostile to the king, a corner is.
    FourOnThrone,
    /// Brandubh as OpenTafl plays it: two sides everywhere, on the throne too.
    TwoSides,
}

/// Whether the throne (Brandubh's and Copenhagen's centre) is hostile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Throne {
    /// Hostile to the attackers always, to the defenders while it is empty.
    #[default]
    Hostile,
    /// Hostile to no one: no piece is captured against it (OpenTafl's Brandubh).
    Neutral,
}

impl Throne {
    pub fn is_hostile(&self) -> bool {
        *self == Throne::Hostile
    }
}

/// What a repeated position does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Repetition {
    /// The `repetition_limit`-th occurrence of a position draws (Tablut; OpenTafl's Brandubh).
    Draw,
    /// The `repetition_limit`-th occurrence of a position ends the game and the defenders lose
    /// (Brandubh's and Copenhagen's perpetual repetition).
    DefendersLose,
    /// hnefatafl.org's Copenhagen: a defenders' move that would leave the board as it stood
    /// after an earlier move (or at the start) is illegal; the attackers may repeat.
    DefendersMayNotRepeat,
}

/// Where the king escapes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Escape {
    Edge,
    Corner,
}

/// What happens to a side that has no legal move on its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMoves {
    Lose,
    Draw,
}

/// A game of the tafl family: its board, its start and its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Tablut, 9×9, with its presets and options (the default).
    #[default]
    Tablut,
    /// Brandubh, 7×7.
    Brandubh,
    /// Copenhagen Hnefatafl, 11×11.
    Copenhagen,
    /// Copenhagen Hnefatafl on hnefatafl.org's 13×13 board.
    Copenhagen13,
}

impl Variant {
    /// Every variant, Tablut first.
    pub const ALL: [Variant; 4] = [
        Variant::Tablut,
        Variant::Brandubh,
        Variant::Copenhagen,
        Variant::Copenhagen13,
    ];

    /// Squares per side: 9, 7, 11 or 13.
    pub const fn size(self) -> u8 {
        match self {
            Variant::Tablut => 9,
            Variant::Brandubh => 7,
            Variant::Copenhagen => 11,
            Variant::Copenhagen13 => 13,
        }
    }

    /// The name in commands, records and storage: `tablut`, `brandubh`, `copenhagen`,
    /// `copenhagen13`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Tablut => "tablut",
            Variant::Brandubh => "brandubh",
            Variant::Copenhagen => "copenhagen",
            Variant::Copenhagen13 => "copenhagen13",
        }
    }

    /// Whether the variant plays Copenhagen's rules (shieldwall, exit fort): on 11×11 or 13×13.
    pub const fn is_copenhagen(self) -> bool {
        matches!(self, Variant::Copenhagen | Variant::Copenhagen13)
    }

    /// The rules a new game of this variant is played under: its default preset.
    pub const fn rules(self) -> Rules {
        Preset::default_of(self).rules()
    }

    /// The board's masks and tables.
    pub fn geometry(self) -> &'static Geometry {
        geometry(self.size())
    }

    /// Every square of the board, rank by rank from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        Square::all_on(self.size())
    }

    /// Whether a square is on this variant's board.
    pub const fn contains(self, sq: Square) -> bool {
        sq.is_on(self.size())
    }

    /// The centre square: Tablut's castle, the throne of the others (e5, d4, f6).
    pub const fn castle(self) -> Square {
        let c = self.size() / 2;
        match Square::from_coords(c, c) {
            Some(sq) => sq,
            None => Square::CASTLE,
        }
    }

    /// The four corners: a1, the last file's first rank, the first file's last rank, and the
    /// far corner (lowest index first).
    pub const fn corners(self) -> [Square; 4] {
        const fn sq(f: u8, r: u8) -> Square {
            match Square::from_coords(f, r) {
                Some(sq) => sq,
                None => Square::A1,
            }
        }
        let l = self.size() - 1;
        [sq(0, 0), sq(l, 0), sq(0, l), sq(l, l)]
    }

    /// Whether the variant's rules are fixed presets without options: all but Tablut.
    pub const fn fixed_rules(self) -> bool {
        !matches!(self, Variant::Tablut)
    }

    pub const fn is_tablut(&self) -> bool {
        matches!(self, Variant::Tablut)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known (worded for players by the bot, `bot::messages::imports`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{}'", crate::echo::echo(.0))]
pub struct VariantError(pub String);

impl FromStr for Variant {
    type Err = VariantError;

    /// `tablut`, `brandubh`, `copenhagen` or `copenhagen13`, in any case (also `hnefatafl` for
    /// Copenhagen, and `copenhagen 13x13`, `hnefatafl13` for 13×13).
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "hnefatafl"
            | "copenhagen hnefatafl"
            | "copenhagen_hnefatafl"
            | "copenhagen11"
            | "copenhagen 11x11"
            | "copenhagen_11x11" => return Ok(Variant::Copenhagen),
            "hnefatafl13" | "copenhagen 13x13" | "copenhagen_13x13" | "copenhagen_13"
            | "copenhagen 13" | "copenhagen-13" | "copenhagen13x13" => {
                return Ok(Variant::Copenhagen13)
            }
            "brandub" => return Ok(Variant::Brandubh),
            _ => {}
        }
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == t)
            .ok_or_else(|| VariantError(s.to_string()))
    }
}

/// The full option set a game is played under. `variant` says which game; Tablut reads every
/// option, Brandubh and Copenhagen have one fixed set each ([`Variant::rules`]), which
/// [`Rules::normalized`] restores whatever the other fields say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Rules {
    /// Left out of the stored form for Tablut, so Tablut's rules read and write as they always
    /// have; a stored set without it is Tablut's.
    #[serde(skip_serializing_if = "Variant::is_tablut")]
    pub variant: Variant,
    pub king_reenters_castle: bool,
    pub castle_passable: bool,
    pub king_armed: bool,
    pub king_capture: KingCapture,
    pub escape: Escape,
    pub repetition_limit: u8,
    pub no_moves: NoMoves,
    /// Brandubh and Copenhagen: whether the throne is hostile. Left out of the stored form
    /// when hostile, so rules stored without it read as they always have.
    #[serde(skip_serializing_if = "Throne::is_hostile")]
    pub throne: Throne,
    /// Brandubh and Copenhagen: whether the attackers win by encircling the king and all his
    /// defenders (rule 17). Tablut has no encirclement, whatever this says.
    #[serde(skip_serializing_if = "is_true")]
    pub encirclement: bool,
    /// What a repeated position does; `None` is the variant's own rule ([`Rules::repetition`]):
    /// Tablut draws, Brandubh and Copenhagen lose for the defenders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<Repetition>,
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::LINNAEUS
    }
}

/// A named rule set of one variant: Tablut's option presets, Brandubh's and Copenhagen's
/// readings (docs/RULES.md). Names are unique within a variant; the same name in two variants
/// means the same source (`linnaeus`, `aagenielsen`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    Linnaeus,
    Walker,
    Salmi,
    Corner,
    /// Brandubh: the king taken as in Linnaeus' Tablut (four on the throne, three beside it).
    BrandubhLinnaeus,
    /// Brandubh: aagenielsen.dk's (the king taken by two except on the throne). The default.
    BrandubhAagenielsen,
    /// Brandubh: OpenTafl's (two everywhere, the throne neutral, no encirclement, repetition draws).
    BrandubhOpenTafl,
    /// Copenhagen: aagenielsen.dk's rules (perpetual repetition loses for the defenders). The default.
    CopenhagenAagenielsen,
    /// Copenhagen: hnefatafl.org's (the defenders may not recreate an earlier board).
    CopenhagenHnefataflOrg,
    /// Copenhagen 13×13: hnefatafl.org's, the board's home. The default.
    Copenhagen13HnefataflOrg,
    /// Copenhagen 13×13: aagenielsen.dk's repetition rule.
    Copenhagen13Aagenielsen,
}

impl Preset {
    /// Every preset, Tablut's first, each variant's default first among its own.
    pub const ALL: [Preset; 11] = [
        Preset::Linnaeus,
        Preset::Walker,
        Preset::Salmi,
        Preset::Corner,
        Preset::BrandubhAagenielsen,
        Preset::BrandubhLinnaeus,
        Preset::BrandubhOpenTafl,
        Preset::CopenhagenAagenielsen,
        Preset::CopenhagenHnefataflOrg,
        Preset::Copenhagen13HnefataflOrg,
        Preset::Copenhagen13Aagenielsen,
    ];

    /// The presets of one variant, its default first.
    pub fn of(variant: Variant) -> impl Iterator<Item = Preset> {
        Preset::ALL
            .into_iter()
            .filter(move |p| p.variant() == variant)
    }

    /// The variant's default preset: `linnaeus`, `aagenielsen` (Brandubh and Copenhagen),
    /// `hnefatafl_org` (Copenhagen 13×13).
    pub const fn default_of(variant: Variant) -> Preset {
        match variant {
            Variant::Tablut => Preset::Linnaeus,
            Variant::Brandubh => Preset::BrandubhAagenielsen,
            Variant::Copenhagen => Preset::CopenhagenAagenielsen,
            Variant::Copenhagen13 => Preset::Copenhagen13HnefataflOrg,
        }
    }

    pub const fn variant(self) -> Variant {
        match self {
            Preset::Linnaeus | Preset::Walker | Preset::Salmi | Preset::Corner => Variant::Tablut,
            Preset::BrandubhLinnaeus | Preset::BrandubhAagenielsen | Preset::BrandubhOpenTafl => {
                Variant::Brandubh
            }
            Preset::CopenhagenAagenielsen | Preset::CopenhagenHnefataflOrg => Variant::Copenhagen,
            Preset::Copenhagen13HnefataflOrg | Preset::Copenhagen13Aagenielsen => {
                Variant::Copenhagen13
            }
        }
    }

    pub const fn rules(self) -> Rules {
        match self {
            Preset::Linnaeus => Rules::LINNAEUS,
            Preset::Walker => Rules {
                no_moves: NoMoves::Draw,
                ..Rules::LINNAEUS
            },
            Preset::Salmi => Rules {
                king_reenters_castle: true,
                ..Rules::LINNAEUS
            },
            Preset::Corner => Rules {
                escape: Escape::Corner,
                ..Rules::LINNAEUS
            },
            Preset::BrandubhLinnaeus => Rules::BRANDUBH,
            Preset::BrandubhAagenielsen => Rules {
                king_capture: KingCapture::FourOnThrone,
                ..Rules::BRANDUBH
            },
            Preset::BrandubhOpenTafl => Rules {
                king_capture: KingCapture::TwoSides,
                throne: Throne::Neutral,
                encirclement: false,
                repetition: Some(Repetition::Draw),
                ..Rules::BRANDUBH
            },
            Preset::CopenhagenAagenielsen => Rules::COPENHAGEN,
            Preset::CopenhagenHnefataflOrg => Rules {
                repetition: Some(Repetition::DefendersMayNotRepeat),
                ..Rules::COPENHAGEN
            },
            Preset::Copenhagen13HnefataflOrg => Rules {
                repetition: Some(Repetition::DefendersMayNotRepeat),
                ..Rules::COPENHAGEN13
            },
            Preset::Copenhagen13Aagenielsen => Rules::COPENHAGEN13,
        }
    }

    /// The name in commands and records, unique within its variant.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Linnaeus | Preset::BrandubhLinnaeus => "linnaeus",
            Preset::Walker => "walker",
            Preset::Salmi => "salmi",
            Preset::Corner => "corner",
            Preset::BrandubhAagenielsen
            | Preset::CopenhagenAagenielsen
            | Preset::Copenhagen13Aagenielsen => "aagenielsen",
            Preset::BrandubhOpenTafl => "opentafl",
            Preset::CopenhagenHnefataflOrg | Preset::Copenhagen13HnefataflOrg => "hnefatafl_org",
        }
    }

    /// The preset of `variant` named `name` (any case).
    ///
    /// # Errors
    /// [`RulesError::UnknownPresetOf`], naming the variant and the name.
    pub fn find(variant: Variant, name: &str) -> Result<Preset, RulesError> {
        let t = name.trim().to_ascii_lowercase().replace(['-', '.'], "_");
        Preset::of(variant)
            .find(|p| p.name() == t)
            .ok_or_else(|| RulesError::UnknownPresetOf {
                variant,
                name: name.to_string(),
            })
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rules text that is not understood: data, worded for players by the bot
/// (`bot::messages::imports`). The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Not one of Tablut's presets.
    #[error("unknown preset '{}'", crate::echo::echo(.0))]
    UnknownPreset(String),
    /// Not one of Tablut's options (those [`Rules::options`] lists).
    #[error("unknown option '{}'", crate::echo::echo(.0))]
    UnknownOption(String),
    /// A value the option does not take (`expected`: the values it takes).
    #[error(
        "'{}' is not a value of {option} ({expected})",
        crate::echo::echo(value)
    )]
    BadValue {
        option: String,
        value: String,
        expected: &'static str,
    },
    /// Not `option=value`.
    #[error("not an option setting: '{}'", crate::echo::echo(.0))]
    Malformed(String),
    /// Options given for a variant that has presets only.
    #[error("{} has no options, only presets", .0.name())]
    FixedRules(Variant),
    #[error("unknown {} preset '{}'", .variant.name(), crate::echo::echo(.name))]
    UnknownPresetOf { variant: Variant, name: String },
}

impl FromStr for Preset {
    type Err = RulesError;

    /// A Tablut preset's name (see [`Preset::find`] for the other variants').
    fn from_str(s: &str) -> Result<Preset, RulesError> {
        Preset::of(Variant::Tablut)
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

fn parse_bool(option: &str, value: &str) -> Result<bool, RulesError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(RulesError::BadValue {
            option: option.into(),
            value: value.into(),
            expected: "true or false",
        }),
    }
}

impl Rules {
    pub const LINNAEUS: Rules = Rules {
        variant: Variant::Tablut,
        king_reenters_castle: false,
        castle_passable: true,
        king_armed: true,
        king_capture: KingCapture::Linnaeus,
        escape: Escape::Edge,
        repetition_limit: 2,
        no_moves: NoMoves::Lose,
        throne: Throne::Hostile,
        encirclement: true,
        repetition: None,
    };

    /// Brandubh's `linnaeus` preset (docs/RULES.md), the one the `hnefatafl` crate plays: the
    /// king re-enters the throne, every piece passes the empty throne, the armed king is taken
    /// by two except on or beside the throne, and escapes to a corner. Repetition and the other
    /// endings are the variant's own.
    pub const BRANDUBH: Rules = Rules {
        variant: Variant::Brandubh,
        king_reenters_castle: true,
        castle_passable: true,
        king_armed: true,
        king_capture: KingCapture::Linnaeus,
        escape: Escape::Corner,
        repetition_limit: 3,
        no_moves: NoMoves::Lose,
        throne: Throne::Hostile,
        encirclement: true,
        repetition: None,
    };

    /// Copenhagen Hnefatafl's `aagenielsen` preset (docs/RULES.md): as Brandubh's `linnaeus`, but the king is taken on
    /// four sides (three and the empty throne); shieldwalls, exit forts, encirclement and the
    /// perpetual-repetition rule are the variant's own.
    pub const COPENHAGEN: Rules = Rules {
        variant: Variant::Copenhagen,
        king_capture: KingCapture::FourSides,
        ..Rules::BRANDUBH
    };

    /// Copenhagen Hnefatafl's rules on the 13×13 board, with the `aagenielsen` preset's
    /// repetition rule (the board's default preset is `hnefatafl_org`: [`Variant::rules`]).
    pub const COPENHAGEN13: Rules = Rules {
        variant: Variant::Copenhagen13,
        ..Rules::COPENHAGEN
    };

    /// The rules as the engine plays them: Tablut's as they are; for Brandubh and Copenhagen,
    /// the variant's preset whose choices (king capture, throne, encirclement, repetition)
    /// these are, or the variant's default preset, whatever the other fields say.
    pub fn normalized(self) -> Rules {
        match self.variant {
            Variant::Tablut => self,
            v => self
                .preset_of_variant()
                .unwrap_or(Preset::default_of(v))
                .rules(),
        }
    }

    /// The Brandubh or Copenhagen preset whose choices these rules make.
    fn preset_of_variant(&self) -> Option<Preset> {
        Preset::of(self.variant).find(|p| {
            let r = p.rules();
            r.king_capture == self.king_capture
                && r.throne == self.throne
                && r.encirclement == self.encirclement
                && r.repetition() == self.repetition()
        })
    }

    /// What a repeated position does under these rules.
    pub const fn repetition(&self) -> Repetition {
        match (self.repetition, self.variant) {
            (Some(r), _) => r,
            (None, Variant::Tablut) => Repetition::Draw,
            (None, _) => Repetition::DefendersLose,
        }
    }

    /// Sets one option from its name and value, as docs/RULES.md spells them. Brandubh and
    /// Copenhagen have no options.
    pub fn set(&mut self, option: &str, value: &str) -> Result<(), RulesError> {
        if self.variant.fixed_rules() {
            return Err(RulesError::FixedRules(self.variant));
        }
        let option = option.trim();
        let value = value.trim().to_ascii_lowercase();
        let bad = |expected| RulesError::BadValue {
            option: option.into(),
            value: value.clone(),
            expected,
        };
        match option {
            "king_reenters_castle" => self.king_reenters_castle = parse_bool(option, &value)?,
            "castle_passable" => self.castle_passable = parse_bool(option, &value)?,
            "king_armed" => self.king_armed = parse_bool(option, &value)?,
            "king_capture" => {
                self.king_capture = match value.as_str() {
                    "linnaeus" => KingCapture::Linnaeus,
                    "four_sides" => KingCapture::FourSides,
                    _ => return Err(bad("linnaeus or four_sides")),
                }
            }
            "escape" => {
                self.escape = match value.as_str() {
                    "edge" => Escape::Edge,
                    "corner" => Escape::Corner,
                    _ => return Err(bad("edge or corner")),
                }
            }
            "repetition_limit" => {
                self.repetition_limit = match value.as_str() {
                    "2" => 2,
                    "3" => 3,
                    _ => return Err(bad("2 or 3")),
                }
            }
            "no_moves" => {
                self.no_moves = match value.as_str() {
                    "lose" => NoMoves::Lose,
                    "draw" => NoMoves::Draw,
                    _ => return Err(bad("lose or draw")),
                }
            }
            _ => return Err(RulesError::UnknownOption(option.to_string())),
        }
        Ok(())
    }

    /// Applies an `option=value` setting.
    pub fn apply_setting(&mut self, setting: &str) -> Result<(), RulesError> {
        let (option, value) = setting
            .split_once('=')
            .ok_or_else(|| RulesError::Malformed(setting.to_string()))?;
        self.set(option, value)
    }

    /// Each option with its value, as docs/RULES.md spells them.
    pub fn options(&self) -> [(&'static str, String); 7] {
        [
            (
                "king_reenters_castle",
                self.king_reenters_castle.to_string(),
            ),
            ("castle_passable", self.castle_passable.to_string()),
            ("king_armed", self.king_armed.to_string()),
            (
                "king_capture",
                match self.king_capture {
                    KingCapture::Linnaeus => "linnaeus",
                    KingCapture::FourSides => "four_sides",
                    KingCapture::FourOnThrone => "four_on_throne",
                    KingCapture::TwoSides => "two_sides",
                }
                .to_string(),
            ),
            (
                "escape",
                match self.escape {
                    Escape::Edge => "edge",
                    Escape::Corner => "corner",
                }
                .to_string(),
            ),
            ("repetition_limit", self.repetition_limit.to_string()),
            (
                "no_moves",
                match self.no_moves {
                    NoMoves::Lose => "lose",
                    NoMoves::Draw => "draw",
                }
                .to_string(),
            ),
        ]
    }

    /// The preset these rules are exactly, if any (for Brandubh and Copenhagen, the preset
    /// whose choices they make).
    pub fn preset(&self) -> Option<Preset> {
        match self.variant {
            Variant::Tablut => Preset::of(Variant::Tablut).find(|p| p.rules() == *self),
            _ => self.preset_of_variant(),
        }
    }
}

impl fmt::Display for Rules {
    /// The preset's name, or `option=value` pairs separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.variant.fixed_rules() {
            return match self.preset() {
                Some(p) => write!(f, "{} {}", self.variant.name(), p.name()),
                None => f.write_str(self.variant.name()),
            };
        }
        if let Some(p) = self.preset() {
            return f.write_str(p.name());
        }
        let parts: Vec<String> = self
            .options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_as_rules_md_says() {
        assert_eq!(Preset::Linnaeus.rules(), Rules::default());
        assert_eq!(Preset::Walker.rules().no_moves, NoMoves::Draw);
        assert!(Preset::Salmi.rules().king_reenters_castle);
        assert_eq!(Preset::Corner.rules().escape, Escape::Corner);
        let d = Rules::default();
        assert!(!d.king_reenters_castle && d.castle_passable && d.king_armed);
        assert_eq!(d.king_capture, KingCapture::Linnaeus);
        assert_eq!(d.repetition_limit, 2);
        assert_eq!(d.no_moves, NoMoves::Lose);
        for p in Preset::ALL {
            assert_eq!(Preset::find(p.variant(), p.name()), Ok(p));
            assert_eq!(p.rules().preset(), Some(p));
            assert_eq!(p.rules().variant, p.variant());
            assert_eq!(p.rules().normalized(), p.rules());
        }
        for p in Preset::of(Variant::Tablut) {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
        }
        assert_eq!(Preset::default_of(Variant::Brandubh).name(), "aagenielsen");
        assert_eq!(
            Variant::Brandubh.rules(),
            Preset::BrandubhAagenielsen.rules()
        );
        assert_eq!(Variant::Copenhagen.rules(), Rules::COPENHAGEN);
        assert!(matches!(
            Preset::find(Variant::Brandubh, "walker"),
            Err(RulesError::UnknownPresetOf { .. })
        ));
        assert_eq!(
            Preset::find(Variant::Copenhagen, "hnefatafl.org"),
            Ok(Preset::CopenhagenHnefataflOrg)
        );
    }

    #[test]
    fn stored_brandubh_and_copenhagen_rules_read_as_their_presets() {
        // The stored form of every game made before the presets: its rules stay what they were.
        let old_brandubh = r#"{"variant":"brandubh","king_reenters_castle":true,"castle_passable":true,"king_armed":true,"king_capture":"linnaeus","escape":"corner","repetition_limit":3,"no_moves":"lose"}"#;
        let old_copenhagen = r#"{"variant":"copenhagen","king_reenters_castle":true,"castle_passable":true,"king_armed":true,"king_capture":"four_sides","escape":"corner","repetition_limit":3,"no_moves":"lose"}"#;
        let b: Rules = serde_json::from_str(old_brandubh).unwrap();
        let c: Rules = serde_json::from_str(old_copenhagen).unwrap();
        assert_eq!(b, Rules::BRANDUBH);
        assert_eq!(c, Rules::COPENHAGEN);
        assert_eq!(
            serde_json::to_string(&Rules::BRANDUBH).unwrap(),
            old_brandubh
        );
        assert_eq!(
            serde_json::to_string(&Rules::COPENHAGEN).unwrap(),
            old_copenhagen
        );
        for p in Preset::ALL {
            let json = serde_json::to_string(&p.rules()).unwrap();
            assert_eq!(
                serde_json::from_str::<Rules>(&json).unwrap(),
                p.rules(),
                "{json}"
            );
        }
        assert_eq!(Rules::BRANDUBH.repetition(), Repetition::DefendersLose);
        assert_eq!(Rules::LINNAEUS.repetition(), Repetition::Draw);
    }

    #[test]
    fn settings() {
        let mut r = Rules::default();
        r.apply_setting("king_armed=false").unwrap();
        r.apply_setting("repetition_limit=3").unwrap();
        r.apply_setting("king_capture=four_sides").unwrap();
        assert!(!r.king_armed);
        assert_eq!(r.repetition_limit, 3);
        assert_eq!(r.preset(), None);
        assert!(r.to_string().contains("king_armed=false"));
        assert!(matches!(
            r.apply_setting("king_armed=maybe"),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            r.apply_setting("flying_king=true"),
            Err(RulesError::UnknownOption(_))
        ));
        assert!(matches!(
            r.apply_setting("king_armed"),
            Err(RulesError::Malformed(_))
        ));
        // Round trip through the option list.
        let mut back = Rules::default();
        for (k, v) in r.options() {
            back.set(k, &v).unwrap();
        }
        assert_eq!(back, r);
    }

    #[test]
    fn serde_round_trip() {
        let r = Preset::Corner.rules();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
        // Missing fields take the defaults: a stored set stays readable as options are added.
        assert_eq!(
            serde_json::from_str::<Rules>("{}").unwrap(),
            Rules::default()
        );
    }

    #[test]
    fn tablut_rules_are_stored_as_before_and_variants_by_name() {
        // The stored form of Tablut's rules has no variant field: exactly as before variants.
        assert_eq!(
            serde_json::to_string(&Rules::default()).unwrap(),
            r#"{"king_reenters_castle":false,"castle_passable":true,"king_armed":true,"king_capture":"linnaeus","escape":"edge","repetition_limit":2,"no_moves":"lose"}"#
        );
        for v in Variant::ALL {
            let json = serde_json::to_string(&v.rules()).unwrap();
            assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), v.rules());
            assert_eq!(json.contains(v.name()), v.fixed_rules());
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.rules().variant, v);
            assert_eq!(v.rules().normalized(), v.rules());
        }
        let odd: Rules =
            serde_json::from_str(r#"{"variant":"copenhagen","escape":"edge"}"#).unwrap();
        assert_eq!(odd.normalized(), Rules::COPENHAGEN);
        let mut fixed = Rules::COPENHAGEN;
        assert!(matches!(
            fixed.set("king_armed", "false"),
            Err(RulesError::FixedRules(Variant::Copenhagen))
        ));
        assert_eq!(Rules::BRANDUBH.to_string(), "brandubh linnaeus");
        assert!("chess".parse::<Variant>().is_err());
        assert_eq!(Variant::Copenhagen.castle().to_string(), "f6");
        assert_eq!(Variant::Brandubh.castle().to_string(), "d4");
        assert_eq!(Variant::Tablut.castle(), Square::CASTLE);
        let corners: Vec<String> = Variant::Copenhagen
            .corners()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(corners, ["a1", "k1", "a11", "k11"]);
    }
}
