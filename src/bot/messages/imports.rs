//! Imports: why a game record cannot be read, at its line or its ply.

use super::moves::{move_problem, square_problem};
use super::rules::{preset_names, variant_title};
use crate::echo::echo;
use crate::tafl::{
    LineProblem, OpenTaflRulesError, PlyProblem, PositionError, RecordError, RecordReadError,
    Rules, RulesError, RulesNameError, Side, Square, Variant, VariantError,
};

/// Why a record cannot be read, after "That record cannot be read: ": the line or the ply, and
/// what is wrong there.
pub fn record_read_problem(e: &RecordReadError) -> String {
    match e {
        RecordReadError::Line { line, problem } => {
            format!("line {line}: {}", line_problem(problem))
        }
        RecordReadError::Ply { ply, text, problem } => {
            format!("ply {ply}: '{}': {}", echo(text), ply_problem(problem))
        }
        RecordReadError::Result { says, ends } => format!(
            "the record says {}, but its moves end with {}",
            result_words(*says),
            result_words(*ends)
        ),
    }
}

fn line_problem(problem: &LineProblem) -> String {
    match problem {
        LineProblem::NotATag(line) => format!("'{}' is not a tag", echo(line)),
        LineProblem::Variant(e) => format!("variant: {}", rules_name_problem(e)),
        LineProblem::OpenTaflRules(OpenTaflRulesError::NoDim) => {
            "rules: the rules string has no dim: (the board's size)".into()
        }
        LineProblem::OpenTaflRules(OpenTaflRulesError::Dim(dim)) => format!(
            "rules: dim:{}: the boards are 7×7 (brandubh), 9×9 (tablut), 11×11 (copenhagen) \
             and 13×13 (copenhagen13)",
            echo(dim)
        ),
        LineProblem::ToMove(value) => {
            format!("ToMove: '{}' is not attackers or defenders", echo(value))
        }
        LineProblem::Result(value) => format!("result: '{}' is not a result", echo(value)),
        LineProblem::Start(e) => format!("the start position: {}", position_record_problem(e)),
    }
}

fn ply_problem(problem: &PlyProblem) -> String {
    match problem {
        PlyProblem::Move(e) => move_problem(e),
        PlyProblem::Captures(e) => format!("its captures: {}", square_problem(e)),
        PlyProblem::CapturesDiffer { stated, made } => format!(
            "the record says it captures {}, but it captures {}",
            squares(stated),
            squares(made)
        ),
    }
}

/// "nothing", or the squares comma-separated.
fn squares(list: &[Square]) -> String {
    if list.is_empty() {
        return "nothing".into();
    }
    let names: Vec<String> = list.iter().map(Square::to_string).collect();
    names.join(", ")
}

/// A stated or reached result: the winner's, or a draw.
fn result_words(winner: Option<Side>) -> String {
    match winner {
        Some(side) => format!("the {side} winning"),
        None => "a draw".into(),
    }
}

/// Why a record's variant (a variant's name, then a preset or option settings) names no rules.
fn rules_name_problem(e: &RulesNameError) -> String {
    match e {
        RulesNameError::NoVariant => "no variant named".into(),
        RulesNameError::Variant(e) => variant_problem(e),
        RulesNameError::Rules(e) => rules_problem(e),
    }
}

/// An unknown game's name, and the games there are.
pub fn variant_problem(e: &VariantError) -> String {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    format!(
        "unknown game '{}': choose {}",
        echo(&e.0),
        match names.split_last() {
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    )
}

/// Why a preset or an option setting is not understood, and what there is.
pub fn rules_problem(e: &RulesError) -> String {
    match e {
        RulesError::UnknownPreset(name) => format!(
            "unknown rules preset '{}': choose {}",
            echo(name),
            preset_names(Variant::Tablut)
        ),
        RulesError::UnknownOption(name) => {
            let options: Vec<&str> = Rules::default().options().map(|(k, _)| k).to_vec();
            format!(
                "unknown rule option '{}': the options are {}",
                echo(name),
                options.join(", ")
            )
        }
        RulesError::BadValue {
            option,
            value,
            expected,
        } => format!(
            "'{}' is not a value of {option}: use {expected}",
            echo(value)
        ),
        RulesError::Malformed(text) => format!(
            "'{}' is not an option setting: write option=value, like king_armed=false",
            echo(text)
        ),
        RulesError::FixedRules(variant) => format!(
            "{} has no rule options: choose one of its presets ({})",
            variant_title(*variant),
            preset_names(*variant)
        ),
        RulesError::UnknownPresetOf { variant, name } => format!(
            "unknown {} preset '{}': choose {}",
            variant_title(*variant),
            echo(name),
            preset_names(*variant)
        ),
    }
}

/// Why a position record cannot be read, and how one is written.
pub fn position_record_problem(e: &RecordError) -> String {
    match e {
        RecordError::Rows(found) => format!(
            "a position record has nine rows between slashes, like /3ttt3/4t4/…/; found {found}"
        ),
        RecordError::Width { row, width } => {
            format!("row {row} of the position record covers {width} squares, not 9")
        }
        RecordError::RowsOf { size, found } => format!(
            "a {size}×{size} position record has {size} rows between slashes; found {found}"
        ),
        RecordError::WidthOf { row, width, size } => {
            format!("row {row} of the position record covers {width} squares, not {size}")
        }
        RecordError::Letter(letter) => format!(
            "'{letter}' is not a piece letter: use t (attacker), T (defender), K (king) or a digit"
        ),
        RecordError::Position(e) => position_problem(e),
    }
}

/// Why a set of pieces is not a position.
pub fn position_problem(e: &PositionError) -> String {
    use PositionError as P;
    match e {
        P::Overlap(square) => format!("two pieces stand on {square}"),
        P::TwoKings => "there can be only one king".into(),
        P::PieceOnCastle => "only the king may stand on the castle (e5)".into(),
        P::PieceOnCorner => "only the king may stand on a corner under corner-escape rules".into(),
        P::TooManyAttackers => "too many attackers: at most 16".into(),
        P::TooManyDefenders => "too many defenders: at most 15 besides the king".into(),
        P::TooManyAttackersFor(most) => format!("too many attackers: at most {most}"),
        P::TooManyDefendersFor(most) => {
            format!("too many defenders: at most {most} besides the king")
        }
        P::PieceOnThrone(throne) => format!("only the king may stand on the throne ({throne})"),
        P::OffBoard(square, size) => format!("{square} is off the {size}×{size} board"),
    }
}
