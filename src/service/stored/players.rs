//! A player's rating rows read back: a member's rating in each variant, and a page of a
//! server's leaderboard.

use crate::service::error::ServiceError;
use crate::service::types::{GuildId, Ranked, UserId, VariantRating};
use crate::store::{players, AnyExecutor, StoreError};
use crate::tafl::Variant;

/// `user`'s rating in each variant they have one in, in server `guild`, in [`Variant::ALL`]'s
/// order (Tablut first).
pub(crate) async fn ratings_of<'e>(
    ex: impl AnyExecutor<'e>,
    guild: GuildId,
    user: UserId,
) -> Result<Vec<VariantRating>, ServiceError> {
    let mut ratings = players::all_of(ex, guild, user)
        .await?
        .into_iter()
        .map(|p| {
            Ok(VariantRating {
                variant: p.variant.parse().map_err(|e: crate::tafl::VariantError| {
                    ServiceError::Internal(format!("stored rating's variant: {e}"))
                })?,
                rating: p.rating,
                rated_games: p.rated_games,
            })
        })
        .collect::<Result<Vec<_>, ServiceError>>()?;
    ratings.sort_by_key(|r| Variant::ALL.iter().position(|&v| v == r.variant));
    Ok(ratings)
}

/// At most `limit` lines of server `guild`'s leaderboard for `variant` (highest rating first),
/// from the line after `offset`, ranked from `offset + 1`.
pub(crate) async fn leaderboard<'e>(
    ex: impl AnyExecutor<'e>,
    guild: GuildId,
    variant: Variant,
    offset: u32,
    limit: u32,
) -> Result<Vec<Ranked>, StoreError> {
    Ok(
        players::leaderboard(ex, guild, variant.name(), offset, limit)
            .await?
            .into_iter()
            .enumerate()
            .map(|(i, p)| Ranked {
                rank: offset + i as u32 + 1,
                user: p.user_id,
                name: p.name,
                rating: p.rating,
                rated_games: p.rated_games,
            })
            .collect(),
    )
}
