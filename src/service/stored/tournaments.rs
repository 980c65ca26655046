//! A tournament's rows decoded: a tournament read back ([`StoredTournament`]: its status,
//! format, rules and time control read from their columns) with its entrants
//! ([`StoredEntrant`]), its matches ([`StoredMatch`]) and their games ([`StoredLeg`]), and the
//! tournament as it stands; a tournament asked for written to its columns, and its status
//! moved.

use super::{parse_rules, rules_json};
use crate::service::error::ServiceError;
use crate::service::types::tournament::{
    Entrant, TournamentFormat, TournamentInfo, TournamentRequest, TournamentStatus,
};
use crate::service::types::{ChannelId, GameId, TimeControl, User};
use crate::store::tournaments::{
    self as rows, EntrantRow, MatchGameRow, MatchRow, NewTournament, TournamentRow,
};
use crate::store::{AnyExecutor, Connection, StoreError};
use crate::tafl::Rules;

/// A tournament read back. Its columns are decoded where they are asked for: a status or rules
/// this version cannot read are an error there, not when the tournament is read.
#[derive(Debug, Clone)]
pub(crate) struct StoredTournament(TournamentRow);

/// An entrant read back.
#[derive(Debug, Clone)]
pub(crate) struct StoredEntrant {
    pub(crate) user: User,
    /// Their seat, from the tournament's start.
    pub(crate) seat: Option<i64>,
    /// The round they withdrew in, if they did.
    pub(crate) withdrawn_round: Option<i64>,
}

/// A match of a round, read back (a bye when `second_seat` is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredMatch {
    pub(crate) id: i64,
    pub(crate) tournament: i64,
    pub(crate) round: i64,
    pub(crate) first_seat: i64,
    pub(crate) second_seat: Option<i64>,
    /// The halves each seat scored, once the match is decided.
    pub(crate) first_halves: Option<i64>,
    pub(crate) second_halves: Option<i64>,
    /// Decided without its games being played (a bye, or a withdrawal).
    pub(crate) forfeit: bool,
}

impl From<MatchRow> for StoredMatch {
    fn from(row: MatchRow) -> StoredMatch {
        StoredMatch {
            id: row.id,
            tournament: row.tournament_id,
            round: row.round,
            first_seat: row.first_seat,
            second_seat: row.second_seat,
            first_halves: row.first_halves,
            second_halves: row.second_halves,
            forfeit: row.forfeit,
        }
    }
}

/// One of a match's two games (a slot), read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredLeg {
    /// The slot's id.
    pub(crate) id: i64,
    pub(crate) match_id: i64,
    /// 1 or 2: in leg 1 the match's first seat attacks.
    pub(crate) leg: i64,
    /// The game played in it, once started.
    pub(crate) game: Option<GameId>,
    /// Its thread, once made.
    pub(crate) thread: Option<ChannelId>,
    /// The first seat's points in it (2 a win, 1 a draw, 0 a loss), once scored.
    pub(crate) first_points: Option<i64>,
}

impl From<MatchGameRow> for StoredLeg {
    fn from(row: MatchGameRow) -> StoredLeg {
        StoredLeg {
            id: row.id,
            match_id: row.match_id,
            leg: row.leg,
            game: row.game_id,
            thread: row.thread_id,
            first_points: row.first_points,
        }
    }
}

/// Every match of tournament `tournament`, by round.
pub(crate) async fn matches<'e>(
    ex: impl AnyExecutor<'e>,
    tournament: i64,
) -> Result<Vec<StoredMatch>, StoreError> {
    let found = rows::matches(ex, tournament).await?;
    Ok(found.into_iter().map(StoredMatch::from).collect())
}

/// Match `id`, if there is one.
pub(crate) async fn match_by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<StoredMatch>, StoreError> {
    Ok(rows::match_by_id(ex, id).await?.map(StoredMatch::from))
}

/// Match game (slot) `id`, if there is one.
pub(crate) async fn leg_by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<StoredLeg>, StoreError> {
    Ok(rows::game_by_id(ex, id).await?.map(StoredLeg::from))
}

/// The match game that is game `game`, if it is a tournament's.
pub(crate) async fn leg_of<'e>(
    ex: impl AnyExecutor<'e>,
    game: GameId,
) -> Result<Option<StoredLeg>, StoreError> {
    Ok(rows::game_of(ex, game).await?.map(StoredLeg::from))
}

/// A match's games, leg 1 first.
pub(crate) async fn legs_of_match<'e>(
    ex: impl AnyExecutor<'e>,
    match_id: i64,
) -> Result<Vec<StoredLeg>, StoreError> {
    let found = rows::games_of_match(ex, match_id).await?;
    Ok(found.into_iter().map(StoredLeg::from).collect())
}

/// Every match game of tournament `tournament`.
pub(crate) async fn legs_of<'e>(
    ex: impl AnyExecutor<'e>,
    tournament: i64,
) -> Result<Vec<StoredLeg>, StoreError> {
    let found = rows::games_of(ex, tournament).await?;
    Ok(found.into_iter().map(StoredLeg::from).collect())
}

/// Tournament `id`, if there is one.
pub(crate) async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<StoredTournament>, StoreError> {
    Ok(rows::by_id(ex, id).await?.map(StoredTournament))
}

/// A server's tournaments not over (signing up, running or paused), the newest first.
pub(crate) async fn open_in_guild<'e>(
    ex: impl AnyExecutor<'e>,
    guild: u64,
) -> Result<Vec<StoredTournament>, StoreError> {
    let found = rows::open_in_guild(ex, guild).await?;
    Ok(found.into_iter().map(StoredTournament).collect())
}

/// A server's tournaments, the newest first, at most `limit`.
pub(crate) async fn of_guild<'e>(
    ex: impl AnyExecutor<'e>,
    guild: u64,
    limit: i64,
) -> Result<Vec<StoredTournament>, StoreError> {
    let found = rows::of_guild(ex, guild, limit).await?;
    Ok(found.into_iter().map(StoredTournament).collect())
}

/// Tournaments signing up whose sign-up ended by `now`: to be started.
pub(crate) async fn signup_over<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
) -> Result<Vec<StoredTournament>, StoreError> {
    let found = rows::signup_over(ex, now).await?;
    Ok(found.into_iter().map(StoredTournament).collect())
}

/// Tournament `tournament`'s entrants: the seated by seat, then the others in the order they
/// joined.
pub(crate) async fn entrants<'e>(
    ex: impl AnyExecutor<'e>,
    tournament: i64,
) -> Result<Vec<StoredEntrant>, StoreError> {
    Ok(rows::entrants(ex, tournament)
        .await?
        .into_iter()
        .map(entrant)
        .collect())
}

/// An entrant's row decoded.
fn entrant(row: EntrantRow) -> StoredEntrant {
    StoredEntrant {
        user: User::new(row.user_id, row.name),
        seat: row.seat,
        withdrawn_round: row.withdrawn_round,
    }
}

impl StoredTournament {
    pub(crate) fn id(&self) -> i64 {
        self.0.id
    }

    pub(crate) fn name(&self) -> &str {
        &self.0.name
    }

    pub(crate) fn guild(&self) -> u64 {
        self.0.guild_id
    }

    /// The channel it is announced and played in.
    pub(crate) fn channel(&self) -> u64 {
        self.0.channel_id
    }

    /// The member who made it.
    pub(crate) fn organiser(&self) -> u64 {
        self.0.organiser_id
    }

    /// Whether its games are rated.
    pub(crate) fn rated(&self) -> bool {
        self.0.rated
    }

    /// How many may enter.
    pub(crate) fn seats(&self) -> i64 {
        self.0.seats
    }

    /// When its sign-up ends, if it does by itself.
    pub(crate) fn signup_until(&self) -> Option<i64> {
        self.0.signup_until
    }

    /// The round being played (0 while it signs up).
    pub(crate) fn round(&self) -> i64 {
        self.0.round
    }

    /// The notice that announced it, if one did.
    pub(crate) fn announcement(&self) -> Option<i64> {
        self.0.announcement
    }

    /// The message that announced it, once known.
    pub(crate) fn announcement_message(&self) -> Option<u64> {
        self.0.announcement_message
    }

    /// Its status.
    pub(crate) fn status(&self) -> Result<TournamentStatus, ServiceError> {
        status(&self.0)
    }

    /// Its format.
    pub(crate) fn format(&self) -> TournamentFormat {
        format(&self.0)
    }

    /// The rules its games are played under.
    pub(crate) fn rules(&self) -> Result<Rules, ServiceError> {
        parse_rules(&self.0.rules)
    }

    /// The clock its games are played on.
    pub(crate) fn time_control(&self) -> TimeControl {
        super::time_control(self.0.time_per_move_ms, self.0.increment_ms)
    }

    /// The tournament as it stands, with its entrants (in the order given).
    pub(crate) fn info(&self, entrants: &[StoredEntrant]) -> Result<TournamentInfo, ServiceError> {
        let row = &self.0;
        Ok(TournamentInfo {
            id: row.id,
            name: row.name.clone(),
            guild: row.guild_id,
            channel: row.channel_id,
            organiser: row.organiser_id,
            rules: self.rules()?,
            format: self.format(),
            time_control: self.time_control(),
            rated: row.rated,
            seats: row.seats as u32,
            signup_until: row.signup_until,
            status: self.status()?,
            round: row.round as u32,
            rounds: row.rounds as u32,
            entrants: entrants
                .iter()
                .map(|e| Entrant {
                    user: e.user.clone(),
                    withdrawn: e.withdrawn_round.is_some(),
                })
                .collect(),
        })
    }
}

/// The tournament's status.
fn status(row: &TournamentRow) -> Result<TournamentStatus, ServiceError> {
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
fn format(row: &TournamentRow) -> TournamentFormat {
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
