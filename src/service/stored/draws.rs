//! A draw offer's row read back: which offer, and who made it.

use crate::service::types::{GameId, UserId};
use crate::store::draws::{self as rows, DrawOfferRow};
use crate::store::{AnyExecutor, StoreError};

/// An open draw offer as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredDrawOffer {
    pub(crate) id: i64,
    /// The player who offered it.
    pub(crate) offered_by: UserId,
}

impl From<DrawOfferRow> for StoredDrawOffer {
    fn from(row: DrawOfferRow) -> StoredDrawOffer {
        StoredDrawOffer {
            id: row.id,
            offered_by: row.offered_by,
        }
    }
}

/// Game `game`'s open draw offer, if it has one.
pub(crate) async fn open_in_game<'e>(
    ex: impl AnyExecutor<'e>,
    game: GameId,
) -> Result<Option<StoredDrawOffer>, StoreError> {
    Ok(rows::open_in_game(ex, game)
        .await?
        .map(StoredDrawOffer::from))
}
