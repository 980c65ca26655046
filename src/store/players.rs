//! The `players` table: each player's Glicko-2 rating in each server, one for each game of the
//! tafl family (Tablut, Brandubh, Copenhagen).

use super::StoreError;
use super::Writes;
use super::{to_db, DbId};
use crate::rating::Rating;
use sqlx::any::AnyExecutor;

/// A player's stored rating.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRow {
    pub user_id: u64,
    /// The variant's name, as `Variant::name` spells it.
    pub variant: String,
    pub name: String,
    pub rating: Rating,
    pub rated_games: u32,
}

/// A `players` row as sqlx reads it; [`PlayerRow`] is its shape for the service.
#[derive(sqlx::FromRow)]
struct Stored {
    #[sqlx(try_from = "DbId")]
    user_id: u64,
    variant: String,
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
            variant: r.variant,
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

const COLUMNS: &str = "user_id, variant, name, rating, deviation, volatility, rated_games";

/// A player's rating in a server for a variant, if they have one.
pub async fn get<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
    variant: &str,
) -> Result<Option<PlayerRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "SELECT {COLUMNS} FROM players WHERE guild_id = $1 AND user_id = $2 AND variant = $3"
    ))
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(variant)
    .fetch_optional(ex)
    .await?
    .map(PlayerRow::from))
}

/// A player's ratings in a server, one for each variant they have played rated games of.
pub async fn all_of<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
) -> Result<Vec<PlayerRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "SELECT {COLUMNS} FROM players WHERE guild_id = $1 AND user_id = $2"
    ))
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .fetch_all(ex)
    .await?
    .into_iter()
    .map(PlayerRow::from)
    .collect())
}

/// A player's rating in a server for a variant, their row locked until the transaction ends
/// (made with the starting rating and no games if they had none): read this way, two games of
/// one player ending at once are rated one after the other, each from the rating the other
/// left.
pub async fn lock<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    user_id: u64,
    variant: &str,
    name: &str,
    now: i64,
) -> Result<Rating, StoreError> {
    let row = sqlx::query_as::<_, Stored>(&format!(
        "INSERT INTO players (guild_id, user_id, variant, name, updated_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET name = excluded.name \
         RETURNING {COLUMNS}"
    ))
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(variant)
    .bind(name)
    .bind(now)
    .fetch_one(ex)
    .await?;
    Ok(PlayerRow::from(row).rating)
}

/// Stores a player's rating for a variant after a rated game (creating the row on their
/// first).
pub async fn put_rating<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    user_id: u64,
    variant: &str,
    name: &str,
    rating: Rating,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO players (guild_id, user_id, variant, name, rating, deviation, volatility, rated_games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8) \
         ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET name = excluded.name, rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         rated_games = players.rated_games + 1, updated_at = excluded.updated_at",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(variant)
    .bind(name)
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A page of a server's leaderboard for a variant (highest rating first).
pub async fn leaderboard<'e, E>(
    ex: E,
    guild_id: u64,
    variant: &str,
    offset: u32,
    limit: u32,
) -> Result<Vec<PlayerRow>, StoreError>
where
    E: AnyExecutor<'e>,
{
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "SELECT {COLUMNS} FROM players WHERE guild_id = $1 AND variant = $2 \
         ORDER BY rating DESC, deviation ASC, user_id ASC LIMIT $3 OFFSET $4"
    ))
    .bind(to_db(guild_id))
    .bind(variant)
    .bind(i64::from(limit))
    .bind(i64::from(offset))
    .fetch_all(ex)
    .await?
    .into_iter()
    .map(PlayerRow::from)
    .collect())
}

/// How many players have a rating in a server for a variant.
pub async fn count<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    variant: &str,
) -> Result<u32, StoreError> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE guild_id = $1 AND variant = $2")
            .bind(to_db(guild_id))
            .bind(variant)
            .fetch_one(ex)
            .await?;
    Ok(n as u32)
}
