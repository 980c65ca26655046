//! Clocks: time controls, durations, what the clock says in a game's channel, and vacations.

use super::*;
use crate::service::vacation::{
    VacationChange, VacationEnd, VacationEnded, VacationNews, VacationStarted, VacationStatus,
};
use crate::service::{ClockEvent, GameInfo, Player, TimeControl};
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

/// How [`span_words`] words a span of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// A clock's time left: its two largest units, a zero second one left out ("2 d 4 h",
    /// "3 d", "5 h 20 min", "45 min"); from a minute on, to the nearest minute (a bank read a
    /// moment after its turn started is whole), below it in seconds ("30 s", "0 s").
    Left,
    /// How long something lasts or has left (a reminder's time, a vacation's length): to the
    /// nearest minute, at least one, in its two largest units of days, hours and minutes,
    /// both shown ("1 d 2 h", "12 h 0 min", "5 min").
    Lasting,
    /// How long a try took, to the second below, in its two largest units of hours, minutes
    /// and seconds, both shown ("42 s", "3 min 5 s", "2 h 10 min").
    Took,
    /// How long to wait: one unit, rounded up, a unit used until one and a half of the next
    /// ("40 s", "90 s", "2 min", "90 min", "2 h", "1 d").
    Wait,
}

/// The units a span is worded in, largest first, with their length in seconds.
const UNITS: [(u64, &str); 4] = [(86_400, "d"), (3600, "h"), (60, "min"), (1, "s")];

/// A span of time in words, as `how` words it: the one duration wording every message uses.
pub fn span_words(span: Duration, how: Span) -> String {
    let secs = span.as_secs();
    // The units this wording uses (a range of `UNITS`), how many it shows, whether a zero
    // after the first is shown, and the span rounded to its smallest unit.
    let (units, parts, zeros, secs) = match how {
        Span::Left if secs < 60 => (&UNITS[3..], 1, false, secs),
        Span::Left => (&UNITS[..], 2, false, (secs + 30) / 60 * 60),
        Span::Lasting => (&UNITS[..3], 2, true, ((secs + 30) / 60).max(1) * 60),
        Span::Took => (&UNITS[1..], 2, true, secs),
        Span::Wait => {
            let secs = secs.max(1);
            let unit = match secs {
                0..=90 => 3,
                91..=5400 => 2,
                5401..=129_600 => 1,
                _ => 0,
            };
            let length = UNITS[unit].0;
            (
                &UNITS[unit..=unit],
                1,
                false,
                secs.div_ceil(length) * length,
            )
        }
    };
    // The first unit the span reaches (the largest holds all above it: "26 h" in hours).
    let first = units
        .iter()
        .position(|&(length, _)| secs >= length)
        .unwrap_or(units.len() - 1);
    let mut words = Vec::new();
    for (i, &(length, unit)) in units.iter().enumerate().skip(first).take(parts) {
        let n = if i == 0 {
            secs / length
        } else {
            secs % units[i - 1].0 / length
        };
        if i == first || zeros || n > 0 {
            words.push(format!("{n} {unit}"));
        }
    }
    words.join(" ")
}

/// A Fischer clock's time left, each side's, each player's name as `name` gives it:
/// "Astrid 2 d 4 h · Bjorn 3 d"; none without such a clock.
pub fn clocks_line(game: &GameInfo, name: impl Fn(&Player) -> String) -> Option<String> {
    let clocks = game.clocks?;
    let left = |ms: i64| span_words(Duration::from_millis(ms.max(0) as u64), Span::Left);
    Some(format!(
        "{} {} · {} {}",
        name(&game.attackers),
        left(clocks.attackers_ms),
        name(&game.defenders),
        left(clocks.defenders_ms)
    ))
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
            span_words(*remaining, Span::Lasting)
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

/// A vacation's notice in one of the member's games' channels.
pub fn vacation_notice(v: &VacationNews) -> String {
    let who = bold(&Player::User(v.user.clone()));
    let tag = variant_note(v.game.variant());
    match v.change {
        VacationChange::Started { until } => format!(
            "{who} is on vacation until {} at the latest: their clock stands still in game \
             #{}{tag} while it is their move. It runs again when they are back (a move of \
             theirs ends the vacation).",
            date_time(until),
            v.game.id
        ),
        VacationChange::Ended(why) => format!(
            "{who} is back from vacation{}: their clock runs again in game #{}{tag}, with the \
             time it had left.",
            match why {
                VacationEnd::Asked => "",
                VacationEnd::Moved => " (they moved)",
                VacationEnd::TimeUp => " (its days are over)",
            },
            v.game.id
        ),
    }
}

/// `/tablut vacation start`'s answer.
pub fn vacation_started(s: &VacationStarted) -> String {
    let stopped = match s.stopped {
        0 => String::new(),
        n => format!(
            " (stopped now in {} where it is your move)",
            counted(n, "game", "games")
        ),
    };
    format!(
        "You are on vacation until {} at the latest: your clocks stand still in all your games, \
         in every server{stopped}, and each game's channel is told. End it with /tablut vacation \
         end (a move of yours ends it too). Once it has run its course, {} of your allowance \
         will be left.",
        date_time(s.until),
        counted(s.days_left, "day", "days")
    )
}

/// `/tablut vacation end`'s answer.
pub fn vacation_ended(e: &VacationEnded) -> String {
    format!(
        "Welcome back: your vacation lasted {}. Your clocks run again with the time they had \
         left{}, and each game's channel is told.",
        span_words(e.lasted, Span::Lasting),
        match e.restarted {
            0 => String::new(),
            n => format!(" ({} where it is your move)", counted(n, "game", "games")),
        }
    )
}

/// `/tablut vacation status`'s answer.
pub fn vacation_status(s: &VacationStatus) -> String {
    let taken = match s.used.is_zero() {
        true => "no vacation".to_string(),
        false => span_words(s.used, Span::Lasting),
    };
    let allowance = format!(
        "You have taken {taken} in the last 365 days, of {} a year.",
        counted(s.allowance, "day", "days")
    );
    match s.on {
        Some((since, until)) => format!(
            "You are on vacation since {}, until {} at the latest: your clocks stand still. \
             {allowance} End it with /tablut vacation end.",
            date_time(since),
            date_time(until)
        ),
        None if s.days_left == 0 => {
            format!("You are not on vacation. {allowance} You have no days left for now.")
        }
        None => format!(
            "You are not on vacation. {allowance} You may take up to {} with /tablut vacation \
             start.",
            counted(s.days_left, "day", "days")
        ),
    }
}
