//! The words of tournaments: the announcement, the rounds, a match game's thread and first
//! post, the end, the organiser's changes, the commands' answers and refusals.

use super::{
    counted, escape, game_words, listing, person_name, relative_time, started_message, time_words,
    user,
};
use crate::service::tournament::{
    MatchGame, MatchTag, PairingView, StandingRow, Tiebreak, TournamentFormat, TournamentInfo,
    TournamentNews, TournamentRefusal, TournamentStatus, TournamentView, MAX_NAME,
};
use crate::service::{Heading, User};

/// A match game's thread: `Spring Open · R2 · Astrid – Bjorn · 1/2`, within Discord's 100
/// characters (the players' names shortened if they must be).
pub fn thread_name(game: &MatchGame) -> String {
    let head = format!("{} · R{} · ", game.name, game.round);
    let tail = format!(" · {}/2", game.leg);
    let room = 100usize.saturating_sub(head.chars().count() + tail.chars().count() + 3) / 2;
    let short = |name: &str| -> String {
        match name.chars().count() > room {
            true => name
                .chars()
                .take(room.saturating_sub(1))
                .chain(['…'])
                .collect(),
            false => name.to_string(),
        }
    };
    let name = format!(
        "{head}{} – {}{tail}",
        short(&game.first.name),
        short(&game.second.name)
    );
    name.chars().take(100).collect()
}

/// The line that opens every post of a tournament game: `**Spring Open** · round 2 · game 1
/// of 2.`
pub fn match_line(tag: &MatchTag) -> String {
    format!(
        "**{}** · round {} · game {} of 2.",
        escape(&tag.name),
        tag.round,
        tag.leg
    )
}

fn title(t: &TournamentInfo) -> String {
    format!("**{}**", escape(&t.name))
}

/// An entrant as a mention, or the stand-in's name for a member forgotten.
fn mention(u: &User) -> String {
    super::mention(&crate::service::Player::User(u.clone()))
}

/// The organiser as a mention, or the stand-in's name once they are forgotten.
fn organiser(id: u64) -> String {
    match crate::service::privacy::is_former_player(id) {
        true => super::FORMER_PLAYER_NAME.to_string(),
        false => user(id).to_string(),
    }
}

fn format_words(t: &TournamentInfo) -> String {
    match t.format {
        TournamentFormat::RoundRobin => "round robin".into(),
        TournamentFormat::Swiss { rounds } => {
            format!("Swiss event of {}", counted(rounds, "round", "rounds"))
        }
    }
}

/// The tiebreak's name as people know it.
pub fn tiebreak_name(tiebreak: Tiebreak) -> &'static str {
    match tiebreak {
        Tiebreak::SonnebornBerger => "Sonneborn-Berger",
        Tiebreak::Buchholz => "Buchholz",
        Tiebreak::MedianBuchholz => "median Buchholz",
        Tiebreak::GamePoints => "game points",
        Tiebreak::Seed => "seeding",
    }
}

/// A column's heading in the standings image: the usual abbreviations (MP, GP, SB, Bh, MBh),
/// and `#` over the places.
pub const fn heading(heading: Heading) -> &'static str {
    match heading {
        Heading::Place | Heading::Tiebreak(Tiebreak::Seed) => "#",
        Heading::MatchPoints => "MP",
        Heading::Tiebreak(Tiebreak::GamePoints) => "GP",
        Heading::Tiebreak(Tiebreak::SonnebornBerger) => "SB",
        Heading::Tiebreak(Tiebreak::Buchholz) => "Bh",
        Heading::Tiebreak(Tiebreak::MedianBuchholz) => "MBh",
    }
}

/// The line under a tournament's name in its standings image: the last round paired, of how
/// many: "2/5".
pub fn standings_round(round: u32, rounds: u32) -> String {
    format!("{round}/{rounds}")
}

/// Game points in halves as a number: 3, 2½, ½.
pub fn halves(h: u32) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// The announcement: what the tournament is, how to enter, and its entrants.
fn announcement(t: &TournamentInfo) -> String {
    let variant = super::variant_name(t.rules.variant);
    let rated = if t.rated { "rated" } else { "casual" };
    let mut head = format!(
        "{} · a {variant} {} ({}, {}, {rated}), organised by {}.",
        title(t),
        format_words(t),
        game_words(&t.rules),
        time_words(t.time_control),
        organiser(t.organiser)
    );
    head.push_str(
        " Each pairing plays a match of two games, sides swapped, in threads of this channel.",
    );
    let state = match t.status {
        TournamentStatus::SignUp => match t.signup_until {
            Some(until) => format!(
                "\nSign-up is open until {} (or until the organiser starts it): press **Join** to enter, **Leave** to drop out.",
                relative_time(until)
            ),
            None => "\nSign-up is open until the organiser starts it: press **Join** to enter, **Leave** to drop out.".into(),
        },
        TournamentStatus::Running | TournamentStatus::Paused => {
            "\nStarted: the pairings are posted here each round.".into()
        }
        TournamentStatus::Finished => "\nFinished.".into(),
        TournamentStatus::Cancelled => "\nCancelled.".into(),
    };
    head.push_str(&state);
    head.push_str(&format!("\nEntrants ({}/{}):", t.entrants.len(), t.seats));
    if t.entrants.is_empty() {
        head.push_str(" none yet.");
        return head;
    }
    let lines: Vec<String> = t
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let out = if e.withdrawn { " (withdrawn)" } else { "" };
            format!("{}. {}{out}", i + 1, escape(person_name(&e.user)))
        })
        .collect();
    listing(head, &lines)
}

fn pairing_line(p: &PairingView) -> String {
    match (&p.second, p.result) {
        (None, _) if p.forfeit => format!("{}: withdrawn", mention(&p.first)),
        (None, _) => format!("{}: a bye (a won match)", mention(&p.first)),
        (Some(second), Some(_)) if p.forfeit => format!(
            "{} – {}: forfeited (a withdrawal)",
            mention(&p.first),
            mention(second)
        ),
        (Some(second), Some((a, b))) => format!(
            "{} {}–{} {}",
            mention(&p.first),
            halves(a as u32),
            halves(b as u32),
            mention(second)
        ),
        (Some(second), None) => format!("{} – {}", mention(&p.first), mention(second)),
    }
}

fn standing_line(s: &StandingRow) -> String {
    let place = match s.shared {
        true => format!("{}=", s.place),
        false => s.place.to_string(),
    };
    let breaks: Vec<String> = s
        .tiebreaks
        .iter()
        .filter(|(t, _)| *t != Tiebreak::GamePoints)
        .map(|&(t, v)| match t.doubled() {
            true => format!("{} {}", tiebreak_name(t), halves(v)),
            false => format!("{} {v}", tiebreak_name(t)),
        })
        .collect();
    let out = if s.withdrawn { ", withdrawn" } else { "" };
    format!(
        "{place}. {}: {} ({} game points{}{out})",
        escape(person_name(&s.user)),
        counted(s.match_points, "match point", "match points"),
        halves(s.game_halves),
        match breaks.is_empty() {
            true => String::new(),
            false => format!(", {}", breaks.join(", ")),
        }
    )
}

/// The winner's line: who won, and the tiebreak that decided a tie for first, if one did.
fn winner_line(standings: &[StandingRow]) -> String {
    let Some(first) = standings.first() else {
        return "Nobody played.".into();
    };
    let shared: Vec<&StandingRow> = standings.iter().filter(|s| s.place == 1).collect();
    if shared.len() > 1 {
        let names: Vec<String> = shared.iter().map(|s| mention(&s.user)).collect();
        return format!(
            "First place is shared by {}: no tiebreak separates them.",
            names.join(", ")
        );
    }
    let tied = standings
        .get(1)
        .is_some_and(|s| s.match_points == first.match_points);
    let decided = match (first.decided_by, tied) {
        (Some(by), true) => format!(", ahead on {}", tiebreak_name(by)),
        _ => String::new(),
    };
    format!(
        "The winner: {} with {}{decided}!",
        mention(&first.user),
        counted(first.match_points, "match point", "match points")
    )
}

/// What a tournament's notice says.
pub fn notice(news: &TournamentNews) -> String {
    match news {
        TournamentNews::Announced(t) => announcement(t),
        TournamentNews::Thread(game) => thread_name(game),
        TournamentNews::GameOpened { game, info } => {
            format!("{}\n{}", match_line(&game.tag()), started_message(info))
        }
        TournamentNews::Round {
            tournament,
            round,
            pairings,
            ..
        } => {
            let of = match tournament.rounds {
                0 => String::new(),
                n => format!(" of {n}"),
            };
            let head = format!(
                "{} · round {round}{of} is paired: each match is two games, sides swapped, each in its own thread below. The standings so far are attached.",
                title(tournament)
            );
            let lines: Vec<String> = pairings.iter().map(pairing_line).collect();
            listing(head, &lines)
        }
        TournamentNews::Finished {
            tournament,
            standings,
            ..
        } => format!(
            "{} is over. {} The final standings are attached.",
            title(tournament),
            winner_line(standings)
        ),
        TournamentNews::Status(t) => match t.status {
            TournamentStatus::Paused => format!(
                "{} is paused by its organiser: games under way go on; the next round is paired once it is resumed.",
                title(t)
            ),
            TournamentStatus::Cancelled => format!(
                "{} was cancelled by its organiser: its unfinished games are aborted and change no rating.",
                title(t)
            ),
            _ => format!("{} goes on: its organiser resumed it.", title(t)),
        },
        TournamentNews::NotStarted {
            tournament,
            entrants,
        } => format!(
            "{} is cancelled: its sign-up ended with {} and a tournament needs at least 2.",
            title(tournament),
            counted(*entrants, "entrant", "entrants")
        ),
        TournamentNews::Withdrawn {
            tournament,
            user: who,
            removed,
        } => format!(
            "{} {} {}: their games not finished are lost, and they are paired no more.",
            escape(person_name(who)),
            match removed {
                true => "was removed by the organiser from",
                false => "withdrew from",
            },
            title(tournament)
        ),
    }
}

/// `/tablut tournament standings`'s text (the image is attached).
pub fn standings_text(view: &TournamentView) -> String {
    let t = &view.info;
    let head = match t.status {
        TournamentStatus::SignUp => format!("{} has not started yet.", title(t)),
        TournamentStatus::Finished => format!(
            "{} · final standings. {}",
            title(t),
            winner_line(&view.standings)
        ),
        _ => format!(
            "{} · standings after round {} of {}:",
            title(t),
            t.round.saturating_sub(1),
            t.rounds
        ),
    };
    let lines: Vec<String> = view.standings.iter().map(standing_line).collect();
    listing(head, &lines)
}

/// `/tablut tournament pairings`'s text: the last round's pairings with their results.
pub fn pairings_text(view: &TournamentView) -> String {
    let t = &view.info;
    let Some(last) = view.rounds.last() else {
        return format!(
            "{} has not started yet: its pairings come when it does.",
            title(t)
        );
    };
    let head = format!(
        "{} · round {} of {}:",
        title(t),
        view.rounds.len(),
        t.rounds
    );
    let lines: Vec<String> = last.iter().map(pairing_line).collect();
    listing(head, &lines)
}

/// The answer to the organiser who created a tournament.
pub fn created(t: &TournamentInfo) -> String {
    format!(
        "{} is announced in this channel (tournament #{}): members press Join on it; start it with /tablut tournament start.",
        title(t),
        t.id
    )
}

/// The answer to a member who joined or left.
pub fn joined(t: &TournamentInfo, joined: bool) -> String {
    match joined {
        true => format!(
            "You are in {} ({} of {} seats taken).",
            title(t),
            t.entrants.len(),
            t.seats
        ),
        false => format!("You left {}.", title(t)),
    }
}

/// The answer to an organiser's change.
pub fn changed(t: &TournamentInfo) -> String {
    match t.status {
        TournamentStatus::Running if t.round <= 1 => {
            format!("{} has started: round 1 is paired.", title(t))
        }
        TournamentStatus::Running => format!("{} runs.", title(t)),
        TournamentStatus::Paused => format!("{} is paused.", title(t)),
        TournamentStatus::Cancelled => format!("{} is cancelled.", title(t)),
        TournamentStatus::Finished => format!("{} is finished.", title(t)),
        TournamentStatus::SignUp => format!("{} signs up.", title(t)),
    }
}

/// The answer to a withdrawal or a removal.
pub fn withdrawn(t: &TournamentInfo, who: Option<&User>) -> String {
    match who {
        Some(u) => format!("{} is out of {}.", escape(person_name(u)), title(t)),
        None => format!(
            "You are out of {}: your games not finished are lost.",
            title(t)
        ),
    }
}

/// The organisers' role named (or forgotten).
pub fn organisers_set(role: Option<u64>) -> String {
    match role {
        Some(role) => format!(
            "Members with <@&{role}> may now create and run tournaments here, beside those with Manage Server."
        ),
        None => "Only members with Manage Server may now create and run tournaments here.".into(),
    }
}

/// A refusal, in one line.
pub fn refusal(r: &TournamentRefusal) -> String {
    match r {
        TournamentRefusal::NotOrganiser => "Only a member with Manage Server, or with the role named by /tablut tournament organisers, may do that.".into(),
        TournamentRefusal::NotManager => "Only a member with Manage Server may name the organisers' role.".into(),
        TournamentRefusal::NameLength { chars } => format!(
            "A tournament's name is 1 to {MAX_NAME} characters ({chars} given): choose a shorter one."
        ),
        TournamentRefusal::NameCharacter(c) => format!(
            "A tournament's name holds letters, digits, spaces and plain punctuation only, not '{}': choose another.",
            escape(&c.to_string())
        ),
        TournamentRefusal::Seats { asked, max } => format!(
            "Seats are 2 to {max} for this format ({asked} asked): choose a number in that range."
        ),
        TournamentRefusal::Rounds { asked, max } => format!(
            "A Swiss event here has 1 to {max} rounds ({asked} asked): choose fewer rounds, or more seats."
        ),
        TournamentRefusal::NoTournament => "There is no such tournament in this server: pick one from the list, or create one with /tablut tournament create.".into(),
        TournamentRefusal::SignUpOver => "That tournament's sign-up is over: nothing changed.".into(),
        TournamentRefusal::Full { seats } => format!("That tournament is full ({seats} seats): ask its organiser for more room next time."),
        TournamentRefusal::AlreadyIn => "You are already in that tournament.".into(),
        TournamentRefusal::NotIn => "That member is not playing in that tournament (or withdrew already).".into(),
        TournamentRefusal::TooFew { entrants } => format!(
            "A tournament needs at least 2 entrants to start ({entrants} so far): wait for more to join."
        ),
        TournamentRefusal::Status(status) => format!(
            "That tournament is {}: that cannot be done now.",
            match status {
                TournamentStatus::SignUp => "still signing up",
                TournamentStatus::Running => "running",
                TournamentStatus::Paused => "paused",
                TournamentStatus::Finished => "finished",
                TournamentStatus::Cancelled => "cancelled",
            }
        ),
        TournamentRefusal::TournamentGame => "A tournament's game cannot be aborted: resign it, or ask the organiser.".into(),
    }
}

/// A tournament named by what is not its number.
pub fn not_a_tournament(typed: &str) -> String {
    format!(
        "'{}' is not a tournament: pick one from the list, or leave it out for the newest.",
        crate::echo::echo(typed)
    )
}

/// `/tablut tournament create signup:` given what is no end for a sign-up.
pub fn not_a_signup_end(typed: &str) -> String {
    format!(
        "'{}' is not an end for the sign-up: write how long it lasts (2d, 12h; 1 minute to 30 days) or when it ends, in UTC (2027-01-20 18:00), within 30 days.",
        crate::echo::echo(typed)
    )
}
