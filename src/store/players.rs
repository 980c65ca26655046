//! The `players` table: each player's Glicko-2 rating in each server.

use super::{to_db, DbId};
use crate::rating::Rating;
use sqlx::any::AnyExecutor;

/// A player's stored rating.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRow {
    pub user_id: u64,
    pub name: String,
    pub rating: Rating,
    pub rated_games: u32,
}

/// A `players` row as sqlx reads it; [`PlayerRow`] is its shape for the service.
#[derive(sqlx::FromRow)]
struct Stored {
    #[sqlx(try_from = "DbId")]
    user_id: u64,
    name: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    #[sqlx(try_from = "i64")]
    rated_games: u32,
}

impl From<Stored> for PlayerRow {
    fn from(r: Stored) -> PlayerRow {
        PlayerRow {
            user_id: r.user_id,
            name: r.name,
            rating: Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            rated_games: r.rated_games,
        }
    }
}

/// A player's rating in a server, if they have one.
pub async fn get<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
) -> Result<Option<PlayerRow>, sqlx::Error> {
    sqlx::query_as::<_, Stored>(
        "SELECT user_id, name, rating, deviation, volatility, rated_games FROM players \
         WHERE guild_id = $1 AND user_id = $2",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .fetch_optional(ex)
    .await
    .map(|row| row.map(PlayerRow::from))
}

/// A player's rating in a server, their row locked until the transaction ends (made with the
/// starting rating and no games if they had none): read this way, two games of one player
/// ending at once are rated one after the other, each from the rating the other left.
pub async fn lock<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
    name: &str,
    now: i64,
) -> Result<Rating, sqlx::Error> {
    sqlx::query_as::<_, Stored>(
        "INSERT INTO players (guild_id, user_id, name, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name \
         RETURNING user_id, name, rating, deviation, volatility, rated_games",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(name)
    .bind(now)
    .fetch_one(ex)
    .await
    .map(|row| PlayerRow::from(row).rating)
}

/// Stores a player's rating after a rated game (creating the row on their first).
pub async fn put_rating<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
    name: &str,
    rating: Rating,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO players (guild_id, user_id, name, rating, deviation, volatility, rated_games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7) \
         ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         rated_games = players.rated_games + 1, updated_at = excluded.updated_at",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(name)
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A page of a server's leaderboard (highest rating first) and the number of rated players.
pub async fn leaderboard<'e, E>(
    ex: E,
    guild_id: u64,
    offset: u32,
    limit: u32,
) -> Result<Vec<PlayerRow>, sqlx::Error>
where
    E: AnyExecutor<'e>,
{
    sqlx::query_as::<_, Stored>(
        "SELECT user_id, name, rating, deviation, volatility, rated_games FROM players \
         WHERE guild_id = $1 ORDER BY rating DESC, deviation ASC, user_id ASC LIMIT $2 OFFSET $3",
    )
    .bind(to_db(guild_id))
    .bind(i64::from(limit))
    .bind(i64::from(offset))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(PlayerRow::from).collect())
}

/// How many players have a rating in a server.
pub async fn count<'e>(ex: impl AnyExecutor<'e>, guild_id: u64) -> Result<u32, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE guild_id = $1")
        .bind(to_db(guild_id))
        .fetch_one(ex)
        .await?;
    Ok(n as u32)
}
