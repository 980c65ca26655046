//! A member's notification setting's row decoded: the mode stored read back (or the default,
//! for a member who never chose one).

use crate::service::types::notify::{NotifyMode, NotifySetting};
use crate::service::types::UserId;
use crate::store::{notify, AnyExecutor, StoreError};

/// `user`'s setting as stored, or the default.
pub(crate) async fn setting_of<'e>(
    ex: impl AnyExecutor<'e>,
    user: UserId,
) -> Result<NotifySetting, StoreError> {
    let row = notify::of_user(ex, user).await?;
    Ok(match row {
        Some(row) => NotifySetting {
            // A mode this version does not know (a later one's): told nothing.
            mode: NotifyMode::parse(&row.mode).unwrap_or(NotifyMode::Off),
            chosen: true,
            refused_at: row.refused_at,
        },
        None => NotifySetting {
            mode: NotifyMode::DEFAULT,
            chosen: false,
            refused_at: None,
        },
    })
}
