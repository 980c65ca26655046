//! What the store holds about one person, read out (every row of every table that names them,
//! as stored) and forgotten (their ratings and puzzle data deleted, their place in finished
//! games, closed challenges and settings given to a stand-in). docs/PRIVACY.md lists the
//! tables; `tests/service/privacy.rs` scans every table to hold this list to the schema.

use super::StoreError;
use super::{from_db, to_db};
use serde_json::{Map, Value};
use sqlx::any::{AnyExecutor, AnyRow};
use sqlx::{Column, Row};

/// The columns that hold a Discord id (stored bit for bit in a signed integer): read back as
/// the unsigned id, in text, as Discord writes its ids.
const ID_COLUMNS: [&str; 16] = [
    "guild_id",
    "channel_id",
    "user_id",
    "attacker_user_id",
    "defender_user_id",
    "challenger_id",
    "challenged_id",
    "offered_by",
    "requested_by",
    "set_by",
    "message_id",
    "board_message_id",
    "organiser_id",
    "announcement_message",
    "thread_id",
    "role_id",
];

/// A match (a row of `tournament_matches`) of one of the person's seats.
macro_rules! seated_match {
    () => {
        "EXISTS (SELECT 1 FROM tournament_entrants e \
         WHERE e.tournament_id = tournament_matches.tournament_id AND e.user_id = $1 \
         AND e.seat IN (tournament_matches.first_seat, tournament_matches.second_seat))"
    };
}

/// Each table that holds a person's id, and which rows name them (`$1`: the id as stored).
/// A tournament's matches and their games name entrants by seat: theirs are the matches of a
/// seat of theirs; a tournament is theirs if they entered or organised it. The outbox names
/// people inside its payloads: see [`notices_naming`].
pub const TABLES: [(&str, &str); 16] = [
    ("players", "user_id = $1"),
    ("games", "attacker_user_id = $1 OR defender_user_id = $1"),
    ("moves", "user_id = $1"),
    ("challenges", "challenger_id = $1 OR challenged_id = $1"),
    ("draw_offers", "offered_by = $1"),
    ("analyses", "requested_by = $1"),
    ("puzzle_players", "user_id = $1"),
    ("puzzle_attempts", "user_id = $1"),
    ("puzzle_channels", "set_by = $1"),
    ("vacations", "user_id = $1"),
    (
        "tournaments",
        "organiser_id = $1 OR id IN \
         (SELECT tournament_id FROM tournament_entrants WHERE user_id = $1)",
    ),
    ("tournament_entrants", "user_id = $1"),
    ("tournament_matches", seated_match!()),
    (
        "tournament_games",
        concat!(
            "match_id IN (SELECT id FROM tournament_matches WHERE ",
            seated_match!(),
            ")"
        ),
    ),
    ("tournament_organisers", "set_by = $1"),
    ("notify_settings", "user_id = $1"),
];

/// What a person has under way, which must end before they can be forgotten.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnderWay {
    /// Games they play that are not finished.
    pub games: u32,
    /// Open challenges they made or were sent.
    pub challenges: u32,
    /// Analyses still running of games they played.
    pub analyses: u32,
    /// Notices naming them that are still owed (held, pending or claimed).
    pub notices: u32,
    /// Tournaments not over (in sign-up, running or paused) they entered (withdrawn or not)
    /// or organise.
    pub tournaments: u32,
}

/// What forgetting a person changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Ratings deleted (one per server and variant).
    pub ratings: u64,
    /// Finished games whose seat they held, given to the stand-in.
    pub games: u64,
    /// Puzzle ratings and tries deleted.
    pub puzzle_ratings: u64,
    pub puzzle_tries: u64,
    /// Closed challenges, draw offers, analyses asked for, daily-puzzle and tournament-organiser
    /// settings, and their entries in and organising of finished or cancelled tournaments,
    /// that named them, given to the stand-in (an analysis: to nobody).
    pub others: u64,
    /// Delivered or given-up notices that named them, deleted.
    pub notices: u64,
}

/// A stored row as JSON: ids as text, flags as booleans where the backend keeps them so
/// (SQLite's 0 and 1 stay numbers), every other value as stored.
fn row_json(row: &AnyRow) -> Result<Map<String, Value>, StoreError> {
    let mut out = Map::new();
    for (i, column) in row.columns().iter().enumerate() {
        let name = column.name();
        let value = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
            match v {
                Some(v) if ID_COLUMNS.contains(&name) => Value::String(from_db(v).to_string()),
                Some(v) => Value::from(v),
                None => Value::Null,
            }
        } else if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<String>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else {
            row.try_get::<Option<bool>, _>(i)?
                .map_or(Value::Null, Value::from)
        };
        out.insert(name.to_string(), value);
    }
    Ok(out)
}

/// Every row of `table` (one of [`TABLES`]) that names `user`, every column as stored.
pub async fn rows_naming<'e>(
    ex: impl AnyExecutor<'e>,
    table: &str,
    user: u64,
) -> Result<Vec<Map<String, Value>>, StoreError> {
    let (table, naming) = TABLES
        .iter()
        .find(|(t, _)| *t == table)
        .ok_or_else(|| StoreError::from(sqlx::Error::Protocol(format!("no table {table}"))))?;
    let order = match *table {
        "moves" => "game_id, ply",
        "players" | "puzzle_players" => "guild_id, user_id",
        "vacations" => "started_at, id",
        "puzzle_channels" | "tournament_organisers" => "guild_id",
        "tournament_entrants" => "tournament_id",
        "notify_settings" => "user_id",
        "analyses" => "game_id",
        _ => "id",
    };
    let rows = sqlx::query(&format!(
        "SELECT * FROM {table} WHERE {naming} ORDER BY {order}"
    ))
    .bind(to_db(user))
    .fetch_all(ex)
    .await?;
    rows.iter().map(row_json).collect()
}

/// Every name stored beside `user`'s id: their name in each server's ratings and puzzle
/// ratings, in games, in challenges and in tournaments' entrants, as it was when each was
/// written.
pub async fn names_of<'e>(ex: impl AnyExecutor<'e>, user: u64) -> Result<Vec<String>, StoreError> {
    let mut names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM players WHERE user_id = $1 \
         UNION SELECT name FROM puzzle_players WHERE user_id = $1 \
         UNION SELECT attacker_name FROM games WHERE attacker_user_id = $1 \
         UNION SELECT defender_name FROM games WHERE defender_user_id = $1 \
         UNION SELECT challenger_name FROM challenges WHERE challenger_id = $1 \
         UNION SELECT challenged_name FROM challenges WHERE challenged_id = $1 \
         UNION SELECT name FROM tournament_entrants WHERE user_id = $1",
    )
    .bind(to_db(user))
    .fetch_all(ex)
    .await?;
    names.sort();
    names.dedup();
    Ok(names)
}

/// A notice as [`notices_naming`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeNaming {
    pub id: i64,
    /// `held`, `pending`, `claimed` (still owed), `delivered` or `failed`.
    pub status: String,
    /// The row, every column as stored.
    pub row: Map<String, Value>,
}

impl NoticeNaming {
    /// Whether the notice is still owed to its channel.
    pub fn owed(&self) -> bool {
        matches!(self.status.as_str(), "held" | "pending" | "claimed")
    }
}

/// `text` holds `digits` as a number of its own (not inside a longer one).
fn holds_number(text: &str, digits: &str) -> bool {
    text.match_indices(digits).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + digits.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit()) && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// A name as JSON text writes it inside a string (quotes and backslashes escaped).
fn in_json(name: &str) -> String {
    let quoted = Value::String(name.to_string()).to_string();
    quoted[1..quoted.len() - 1].to_string()
}

/// `text` as a `LIKE` pattern matching itself anywhere (with `ESCAPE '\'`).
fn like_anywhere(text: &str) -> String {
    let mut out = String::from("%");
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// The outbox's notices whose payload names `user`: their id as a number (every notice about a
/// person carries their id beside their name), or one of `names` (notices written before
/// notices were typed held only words).
pub async fn notices_naming<'e>(
    ex: impl AnyExecutor<'e>,
    user: u64,
    names: &[String],
) -> Result<Vec<NoticeNaming>, StoreError> {
    let digits = user.to_string();
    let names: Vec<String> = names
        .iter()
        .filter(|n| !n.is_empty())
        .map(|n| in_json(n))
        .collect();
    let mut patterns = vec![like_anywhere(&digits)];
    patterns.extend(names.iter().map(|n| like_anywhere(n)));
    let any = (1..=patterns.len())
        .map(|i| format!("payload LIKE ${i} ESCAPE '\\'"))
        .collect::<Vec<_>>()
        .join(" OR ");
    let sql = format!("SELECT * FROM outbox WHERE {any} ORDER BY id");
    let mut query = sqlx::query(&sql);
    for p in &patterns {
        query = query.bind(p.as_str());
    }
    let mut out = Vec::new();
    for row in query.fetch_all(ex).await? {
        let payload: String = row.try_get("payload")?;
        // LIKE found candidates (case-insensitively on SQLite): the payload itself decides.
        if !holds_number(&payload, &digits) && !names.iter().any(|n| payload.contains(n.as_str())) {
            continue;
        }
        out.push(NoticeNaming {
            id: row.try_get("id")?,
            status: row.try_get("status")?,
            row: row_json(&row)?,
        });
    }
    Ok(out)
}

/// What `user` has under way (see [`UnderWay`]); `notices`: the outbox's notices naming them.
pub async fn under_way<'e>(
    ex: impl AnyExecutor<'e>,
    user: u64,
    notices: &[NoticeNaming],
) -> Result<UnderWay, StoreError> {
    let (games, challenges, analyses, tournaments): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT \
         (SELECT COUNT(*) FROM games WHERE status = 'active' \
          AND (attacker_user_id = $1 OR defender_user_id = $1)), \
         (SELECT COUNT(*) FROM challenges WHERE status = 'pending' \
          AND (challenger_id = $1 OR challenged_id = $1)), \
         (SELECT COUNT(*) FROM analyses a JOIN games g ON g.id = a.game_id \
          WHERE a.finished_at IS NULL \
          AND (g.attacker_user_id = $1 OR g.defender_user_id = $1 OR a.requested_by = $1)), \
         (SELECT COUNT(*) FROM tournaments t WHERE t.status IN ('signup', 'running', 'paused') \
          AND (t.organiser_id = $1 OR EXISTS (SELECT 1 FROM tournament_entrants e \
          WHERE e.tournament_id = t.id AND e.user_id = $1)))",
    )
    .bind(to_db(user))
    .fetch_one(ex)
    .await?;
    Ok(UnderWay {
        games: games as u32,
        challenges: challenges as u32,
        analyses: analyses as u32,
        notices: notices.iter().filter(|n| n.owed()).count() as u32,
        tournaments: tournaments as u32,
    })
}

/// Forgets `user`, in the caller's transaction, once nothing of theirs is under way
/// ([`under_way`]): their ratings, puzzle ratings and tries, their vacations and their
/// notification setting are deleted; their seat in every
/// finished game (its moves and draw offers too), every closed challenge and every server's
/// daily-puzzle setting that names them is given to `stand_in` (an id that is no Discord
/// user's, and its name), and so is their entry in (their name too) and organising of every
/// finished or cancelled tournament, and any server's tournament-organiser setting they made
/// (the stand-in may hold many seats of one tournament: `tournament_entrants` keeps one entry
/// per member but the stand-in's); the analyses they asked for are asked for by nobody; the delivered
/// and given-up notices in `notices` are deleted. Other players' ratings are not touched.
pub async fn forget(
    conn: &mut sqlx::AnyConnection,
    user: u64,
    stand_in: (u64, &str),
    notices: &[NoticeNaming],
) -> Result<Forgotten, StoreError> {
    let (id, other, name) = (to_db(user), to_db(stand_in.0), stand_in.1);
    let mut done = Forgotten::default();
    delete_own_rows(conn, id, &mut done).await?;
    hand_over_games(conn, id, (other, name), &mut done).await?;
    hand_over_tournaments(conn, id, (other, name), &mut done).await?;
    for notice in notices.iter().filter(|n| !n.owed()) {
        done.notices +=
            sqlx::query("DELETE FROM outbox WHERE id = $1 AND status IN ('delivered', 'failed')")
                .bind(notice.id)
                .execute(&mut *conn)
                .await?
                .rows_affected();
    }
    Ok(done)
}

/// [`forget`]'s first step: the member's own rows deleted (ratings, puzzle ratings and tries,
/// vacations, notification setting).
async fn delete_own_rows(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    done: &mut Forgotten,
) -> Result<(), StoreError> {
    let deleted = |table: &str| format!("DELETE FROM {table} WHERE user_id = $1");
    for (table, into) in [
        ("players", &mut done.ratings),
        ("puzzle_players", &mut done.puzzle_ratings),
        ("puzzle_attempts", &mut done.puzzle_tries),
    ] {
        *into = sqlx::query(&deleted(table))
            .bind(id)
            .execute(&mut *conn)
            .await?
            .rows_affected();
    }
    // Their vacations (nothing of theirs is under way, so none stops a clock) and their
    // notification setting.
    for table in ["vacations", "notify_settings"] {
        sqlx::query(&deleted(table))
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// [`forget`]'s seats in finished games (their moves and draw offers too), closed challenges,
/// daily-puzzle settings and analyses, given to the stand-in (`other`, `name`).
async fn hand_over_games(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    (other, name): (i64, &str),
    done: &mut Forgotten,
) -> Result<(), StoreError> {
    const FINISHED: &str = "SELECT id FROM games WHERE status = 'finished'";
    // Moves and draw offers first, while the games still name the player.
    for sql in [
        format!("UPDATE moves SET user_id = $2 WHERE user_id = $1 AND game_id IN ({FINISHED})"),
        format!(
            "UPDATE draw_offers SET offered_by = $2 WHERE offered_by = $1 AND game_id IN ({FINISHED})"
        ),
        "UPDATE puzzle_channels SET set_by = $2 WHERE set_by = $1".to_string(),
    ] {
        let changed = sqlx::query(&sql)
            .bind(id)
            .bind(other)
            .execute(&mut *conn)
            .await?;
        if !sql.starts_with("UPDATE moves") {
            done.others += changed.rows_affected();
        }
    }
    done.others += sqlx::query("UPDATE analyses SET requested_by = NULL WHERE requested_by = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    for seat in ["attacker", "defender"] {
        done.games += sqlx::query(&format!(
            "UPDATE games SET {seat}_user_id = $2, {seat}_name = $3 \
             WHERE {seat}_user_id = $1 AND status = 'finished'"
        ))
        .bind(id)
        .bind(other)
        .bind(name)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    }
    for seat in ["challenger", "challenged"] {
        done.others += sqlx::query(&format!(
            "UPDATE challenges SET {seat}_id = $2, {seat}_name = $3 \
             WHERE {seat}_id = $1 AND status <> 'pending'"
        ))
        .bind(id)
        .bind(other)
        .bind(name)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    }
    Ok(())
}

/// [`forget`]'s entries in and organising of finished or cancelled tournaments, and the
/// tournament-organiser settings the member made, given to the stand-in.
async fn hand_over_tournaments(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    (other, name): (i64, &str),
    done: &mut Forgotten,
) -> Result<(), StoreError> {
    const OVER: &str = "SELECT id FROM tournaments WHERE status IN ('finished', 'cancelled')";
    done.others += sqlx::query(&format!(
        "UPDATE tournament_entrants SET user_id = $2, name = $3 \
         WHERE user_id = $1 AND tournament_id IN ({OVER})"
    ))
    .bind(id)
    .bind(other)
    .bind(name)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    for sql in [
        format!(
            "UPDATE tournaments SET organiser_id = $2 WHERE organiser_id = $1 AND id IN ({OVER})"
        ),
        "UPDATE tournament_organisers SET set_by = $2 WHERE set_by = $1".to_string(),
    ] {
        done.others += sqlx::query(&sql)
            .bind(id)
            .bind(other)
            .execute(&mut *conn)
            .await?
            .rows_affected();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_found_as_a_number_of_its_own() {
        assert!(holds_number(r#"{"id":123,"x":1}"#, "123"));
        assert!(holds_number("<@123>", "123"));
        assert!(!holds_number(r#"{"id":41234}"#, "123"));
        assert!(!holds_number(r#"{"id":1230}"#, "123"));
    }

    #[test]
    fn names_are_looked_for_as_json_and_like_writes_them() {
        assert_eq!(in_json(r#"A "B" \ C"#), r#"A \"B\" \\ C"#);
        assert_eq!(like_anywhere("50%_a\\"), r"%50\%\_a\\%");
    }
}
