//! Clocks: time controls, durations, what the clock says in a game's channel, and vacations.

use super::*;
use crate::service::vacation::{
    VacationChange, VacationEnd, VacationEnded, VacationNews, VacationStarted, VacationStatus,
};
use crate::service::{ClockEvent, Player, TimeControl};
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
        duration_words(e.lasted),
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
        false => duration_words(s.used),
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
