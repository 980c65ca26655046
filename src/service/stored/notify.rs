//! A member's notification setting's row decoded: the mode stored read back (or the default,
//! for a member who never chose one), and the row as a write left it ([`StoredNotify`]).

use crate::service::types::notify::{NotifyMode, NotifySetting};
use crate::service::types::UserId;
use crate::store::notify::{self, NotifyRow};
use crate::store::{AnyExecutor, StoreError};

/// A member's notification row read back, for a look at whether a write landed.
#[derive(Debug, Clone)]
pub(crate) struct StoredNotify(NotifyRow);

impl StoredNotify {
    /// Whether the mode stored is `mode`.
    pub(crate) fn is(&self, mode: NotifyMode) -> bool {
        self.0.mode == mode.as_str()
    }

    /// When they chose it, or when it was turned off for them.
    pub(crate) fn set_at(&self) -> i64 {
        self.0.set_at
    }

    /// When Discord refused them a direct message and the setting was turned off for it.
    pub(crate) fn refused_at(&self) -> Option<i64> {
        self.0.refused_at
    }

    /// The last day (days since the Unix epoch, UTC) a digest was claimed for them.
    pub(crate) fn digest_day(&self) -> Option<i64> {
        self.0.digest_day
    }
}

/// `user`'s notification row, if they have one stored.
pub(crate) async fn of_user<'e>(
    ex: impl AnyExecutor<'e>,
    user: UserId,
) -> Result<Option<StoredNotify>, StoreError> {
    Ok(notify::of_user(ex, user).await?.map(StoredNotify))
}

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
