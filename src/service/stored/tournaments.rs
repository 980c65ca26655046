//! A tournament's row decoded: its status, format, rules and time control read from their
//! columns, and the tournament as it stands with its entrants; a tournament asked for written
//! to its columns, and its status moved.

use super::{parse_rules, rules_json};
use crate::service::error::ServiceError;
use crate::service::types::tournament::{
    Entrant, TournamentFormat, TournamentInfo, TournamentRequest, TournamentStatus,
};
use crate::service::types::{TimeControl, User};
use crate::store::tournaments::{self as rows, EntrantRow, NewTournament, TournamentRow};
use crate::store::{Connection, StoreError};
use crate::tafl::Rules;

/// The tournament's status.
pub(crate) fn status(row: &TournamentRow) -> Result<TournamentStatus, ServiceError> {
    Ok(match row.status.as_str() {
        "signup" => TournamentStatus::SignUp,
        "running" => TournamentStatus::Running,
        "paused" => TournamentStatus::Paused,
        "finished" => TournamentStatus::Finished,
        "cancelled" => TournamentStatus::Cancelled,
        other => return Err(ServiceError::Internal(format!("tournament status {other}"))),
    })
}

/// A status as stored.
fn status_name(status: TournamentStatus) -> &'static str {
    match status {
        TournamentStatus::SignUp => "signup",
        TournamentStatus::Running => "running",
        TournamentStatus::Paused => "paused",
        TournamentStatus::Finished => "finished",
        TournamentStatus::Cancelled => "cancelled",
    }
}

/// Moves tournament `id` from status `from` to `to` at `now`: whether it was at `from`.
pub(crate) async fn set_status(
    conn: &mut Connection,
    id: i64,
    from: TournamentStatus,
    to: TournamentStatus,
    now: i64,
) -> Result<bool, StoreError> {
    rows::set_status(&mut *conn, id, status_name(from), status_name(to), now).await
}

/// Writes the tournament `req` asks for, named `name` (checked), its sign-up open until
/// `signup_until` if it ends, made at `now`: its id.
pub(crate) async fn insert(
    conn: &mut Connection,
    req: &TournamentRequest,
    name: &str,
    signup_until: Option<i64>,
    now: i64,
) -> Result<i64, StoreError> {
    let rules = rules_json(&req.rules);
    let rounds = match req.format {
        TournamentFormat::Swiss { rounds } => i64::from(rounds),
        TournamentFormat::RoundRobin => 0,
    };
    let new = NewTournament {
        guild_id: req.guild,
        channel_id: req.channel,
        organiser_id: req.organiser.user.id,
        name,
        rules: &rules,
        format: format_name(req.format),
        rounds,
        time_per_move_ms: req.time_control.as_ms(),
        increment_ms: req.time_control.increment_ms(),
        rated: req.rated,
        seats: req.seats,
        signup_until,
        now,
    };
    rows::insert(&mut *conn, &new).await
}

/// The tournament's format (one stored as anything but `swiss` is a round robin).
pub(crate) fn format(row: &TournamentRow) -> TournamentFormat {
    match row.format.as_str() {
        "swiss" => TournamentFormat::Swiss {
            rounds: row.rounds as u32,
        },
        _ => TournamentFormat::RoundRobin,
    }
}

/// A format as stored (a Swiss system's rounds are a column of their own).
fn format_name(format: TournamentFormat) -> &'static str {
    match format {
        TournamentFormat::RoundRobin => "round_robin",
        TournamentFormat::Swiss { .. } => "swiss",
    }
}

/// The rules the tournament's games are played under.
pub(crate) fn rules(row: &TournamentRow) -> Result<Rules, ServiceError> {
    parse_rules(&row.rules)
}

/// The clock the tournament's games are played on.
pub(crate) fn time_control(row: &TournamentRow) -> TimeControl {
    super::time_control(row.time_per_move_ms, row.increment_ms)
}

/// The tournament as it stands, with its entrants (in the order given).
pub(crate) fn info(
    row: &TournamentRow,
    entrants: &[EntrantRow],
) -> Result<TournamentInfo, ServiceError> {
    Ok(TournamentInfo {
        id: row.id,
        name: row.name.clone(),
        guild: row.guild_id,
        channel: row.channel_id,
        organiser: row.organiser_id,
        rules: rules(row)?,
        format: format(row),
        time_control: time_control(row),
        rated: row.rated,
        seats: row.seats as u32,
        signup_until: row.signup_until,
        status: status(row)?,
        round: row.round as u32,
        rounds: row.rounds as u32,
        entrants: entrants
            .iter()
            .map(|e| Entrant {
                user: User::new(e.user_id, e.name.clone()),
                withdrawn: e.withdrawn_round.is_some(),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::{format, format_name, status, status_name};
    use crate::service::types::tournament::{TournamentFormat, TournamentStatus};
    use crate::store::tournaments::TournamentRow;

    fn row(status: &str, format: &str, rounds: i64) -> TournamentRow {
        TournamentRow {
            id: 1,
            guild_id: 2,
            channel_id: 3,
            organiser_id: 4,
            name: "Midsummer".into(),
            rules: String::new(),
            format: format.into(),
            rounds,
            time_per_move_ms: None,
            increment_ms: None,
            rated: true,
            seats: 8,
            signup_until: None,
            status: status.into(),
            round: 0,
            announcement: None,
            announcement_message: None,
            created_at: 0,
            updated_at: 0,
        }
    }

    /// Each status and format written reads back as itself; a status this version does not
    /// know is an error, not a guess.
    #[test]
    fn statuses_and_formats_read_back() {
        use TournamentStatus::*;
        for s in [SignUp, Running, Paused, Finished, Cancelled] {
            assert_eq!(status(&row(status_name(s), "swiss", 3)).unwrap(), s);
        }
        assert!(status(&row("later", "swiss", 3)).is_err());
        for f in [
            TournamentFormat::RoundRobin,
            TournamentFormat::Swiss { rounds: 5 },
        ] {
            assert_eq!(format(&row("running", format_name(f), 5)), f);
        }
    }
}
