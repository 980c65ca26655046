//! Clocks: time controls, durations and what the clock says in a game's channel.

use super::*;
use crate::service::{ClockEvent, TimeControl};
use crate::tafl::Variant;
use std::time::Duration;

/// "3d a move", "a bank of 3d, 6h added each move" or "no time limit".
pub fn time_words(tc: TimeControl) -> String {
    match tc {
        TimeControl::None => "no time limit".into(),
        TimeControl::Fischer { bank, increment } => format!(
            "a bank of {} each, {} added each move",
            TimeControl::PerMove(bank),
            TimeControl::PerMove(increment)
        ),
        tc => format!("{tc} a move"),
    }
}

/// A wait in seconds in words, rounded up to the unit shown: "40 s", "3 min", "2 h", "1 d".
pub fn wait_words(secs: u64) -> String {
    let secs = secs.max(1);
    match secs {
        0..=90 => format!("{secs} s"),
        91..=5400 => format!("{} min", secs.div_ceil(60)),
        5401..=129_600 => format!("{} h", secs.div_ceil(3600)),
        _ => format!("{} d", secs.div_ceil(86_400)),
    }
}

/// A duration in words: "1 d 2 h", "3 h 20 min", "5 min".
pub fn duration_words(d: Duration) -> String {
    // To the nearest minute: the clock's sweep runs a moment after a reminder falls due, so
    // 11 h 59 min 57 s left reads as the 12 h it stands for.
    let m = (d.as_secs() + 30) / 60;
    let (days, hours, mins) = (m / 1440, m / 60 % 24, m % 60);
    match (days, hours) {
        (0, 0) => format!("{} min", mins.max(1)),
        (0, h) => format!("{h} h {mins} min"),
        (d, h) => format!("{d} d {h} h"),
    }
}

/// What the clock says in a game's channel.
pub fn clock_message(event: &ClockEvent) -> String {
    match event {
        ClockEvent::Reminder {
            game,
            user,
            remaining,
            ..
        } => format!(
            "{}, it is your move ({}, move {}{}): {} left.",
            self::user(*user),
            game.turn,
            game.move_number(),
            variant_tag(game.variant()),
            duration_words(*remaining)
        ),
        ClockEvent::TimedOut(ended) => ended_message(ended, None),
        ClockEvent::ChallengeExpired(c) => format!(
            "The {}challenge from {} to {} expired unanswered.",
            match c.rules.variant {
                Variant::Tablut => String::new(),
                v => format!("{} ", variant_name(v)),
            },
            escape(&c.challenger.name),
            escape(&c.challenged.name)
        ),
    }
}
