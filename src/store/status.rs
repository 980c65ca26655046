//! The statuses of games, challenges, draw offers and outbox notices: stored as the snake_case words the
//! migrations' CHECK constraints list, read and written by sqlx as these enums.

use std::fmt;

/// Lets the `Any` driver read a status enum as its word: sqlx's derive writes `Encode` for every
/// backend but `Type` and `Decode` only for each driver by name.
macro_rules! any_text {
    ($($t:ident { $($v:ident => $w:literal),* })*) => {$(
        impl sqlx::Type<sqlx::Any> for $t {
            fn type_info() -> sqlx::any::AnyTypeInfo {
                <str as sqlx::Type<sqlx::Any>>::type_info()
            }

            fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
                <str as sqlx::Type<sqlx::Any>>::compatible(ty)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Any> for $t {
            fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                match <&str as sqlx::Decode<sqlx::Any>>::decode(value)? {
                    $($w => Ok($t::$v),)*
                    other => Err(format!("invalid value {other:?} for {}", stringify!($t)).into()),
                }
            }
        }
    )*};
}

any_text! {
    GameStatus { Active => "active", Finished => "finished" }
    ChallengeStatus {
        Pending => "pending",
        Accepted => "accepted",
        Declined => "declined",
        Cancelled => "cancelled",
        Expired => "expired"
    }
    DrawStatus { Open => "open", Accepted => "accepted", Declined => "declined", Lapsed => "lapsed" }
    NoticeStatus {
        Held => "held",
        Pending => "pending",
        Claimed => "claimed",
        Delivered => "delivered",
        Failed => "failed"
    }
}

/// A game's status (`games.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "snake_case")]
pub enum GameStatus {
    Active,
    Finished,
}

/// A challenge's status (`challenges.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "snake_case")]
pub enum ChallengeStatus {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

/// A draw offer's status (`draw_offers.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "snake_case")]
pub enum DrawStatus {
    Open,
    Accepted,
    Declined,
    /// The game moved on or ended before an answer.
    Lapsed,
}

/// An outbox notice's status (`outbox.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "TEXT", rename_all = "snake_case")]
pub enum NoticeStatus {
    /// Owed, and held for an interaction's answer: the dispatcher takes it when its hold is
    /// over, unless the answer showed it (delivered) or failed (pending) before.
    Held,
    /// Owed: the dispatcher takes it when its next attempt is due.
    Pending,
    /// Owed, and a dispatcher is attempting it: no other takes it before its lease is over.
    Claimed,
    Delivered,
    /// Refused for good, or given up: the reason is kept.
    Failed,
}

impl NoticeStatus {
    /// Whether the notice is still owed (held, pending or claimed).
    pub fn is_open(self) -> bool {
        matches!(
            self,
            NoticeStatus::Held | NoticeStatus::Pending | NoticeStatus::Claimed
        )
    }
}

impl ChallengeStatus {
    /// The word stored, which is also the word a message uses ("already accepted").
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Pending => "pending",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }
}

impl fmt::Display for ChallengeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn stored<T>(pool: &sqlx::AnyPool, value: T) -> (String, T)
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Any>
            + for<'r> sqlx::Decode<'r, sqlx::Any>
            + sqlx::Type<sqlx::Any>
            + Send
            + Unpin
            + Copy,
    {
        let word: String = sqlx::query_scalar("SELECT CAST($1 AS TEXT)")
            .bind(value)
            .fetch_one(pool)
            .await
            .unwrap();
        let back: T = sqlx::query_scalar("SELECT CAST($1 AS TEXT)")
            .bind(word.clone())
            .fetch_one(pool)
            .await
            .unwrap();
        (word, back)
    }

    crate::both_backends! {
        /// Each status is stored as the word its table's CHECK constraint allows, and reads back.
        #[tokio::test]
        async fn statuses_are_stored_as_the_words_the_schema_allows(db: TestDb) {
            let pool = crate::store::open(&db.url).await.unwrap();
            let schema = |file: &str| match db.backend {
                crate::store::Backend::Sqlite => std::fs::read_to_string(format!(
                    "{}/migrations/sqlite/{file}",
                    env!("CARGO_MANIFEST_DIR")
                )),
                crate::store::Backend::Postgres => std::fs::read_to_string(format!(
                    "{}/migrations/postgres/{file}",
                    env!("CARGO_MANIFEST_DIR")
                )),
            }
            .unwrap();
            let games = schema("0002_games.sql");
            for s in [GameStatus::Active, GameStatus::Finished] {
                let (word, back) = stored(&pool, s).await;
                assert_eq!(back, s);
                assert!(games.contains(&format!("'{word}'")), "{word}");
            }
            let challenges = schema("0004_challenges.sql");
            for s in [
                ChallengeStatus::Pending,
                ChallengeStatus::Accepted,
                ChallengeStatus::Declined,
                ChallengeStatus::Cancelled,
                ChallengeStatus::Expired,
            ] {
                let (word, back) = stored(&pool, s).await;
                assert_eq!((back, word.as_str()), (s, s.as_str()));
                assert!(challenges.contains(&format!("'{word}'")), "{word}");
            }
            let draws = schema("0005_draw_offers.sql");
            for s in [
                DrawStatus::Open,
                DrawStatus::Accepted,
                DrawStatus::Declined,
                DrawStatus::Lapsed,
            ] {
                let (word, back) = stored(&pool, s).await;
                assert_eq!(back, s);
                assert!(draws.contains(&format!("'{word}'")), "{word}");
            }
            let outbox = schema("0021_outbox_states.sql");
            for s in [
                NoticeStatus::Held,
                NoticeStatus::Pending,
                NoticeStatus::Claimed,
                NoticeStatus::Delivered,
                NoticeStatus::Failed,
            ] {
                let (word, back) = stored(&pool, s).await;
                assert_eq!(back, s);
                assert!(outbox.contains(&format!("'{word}'")), "{word}");
            }
            let refused: Result<GameStatus, _> =
                sqlx::query_scalar("SELECT CAST('paused' AS TEXT)").fetch_one(&pool).await;
            assert!(refused.is_err(), "a word that is no status is an error");
            pool.close().await;
        }
    }
}
