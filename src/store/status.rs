//! The statuses of games, challenges, draw offers and outbox notices: stored as the snake_case words the
//! migrations' CHECK constraints list, read and written by sqlx as these enums.

use std::fmt;

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
    /// Owed: the dispatcher delivers it.
    Pending,
    Delivered,
    /// Refused for good (403, 404): the reason is kept.
    Failed,
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

    /// Each status is stored as the word its table's CHECK constraint allows, and reads back.
    #[tokio::test]
    async fn statuses_are_stored_as_the_words_the_schema_allows() {
        let pool = sqlx::SqlitePool::connect("sqlite::memory:").await.unwrap();
        async fn stored<T>(pool: &sqlx::SqlitePool, value: T) -> (String, T)
        where
            T: for<'q> sqlx::Encode<'q, sqlx::Sqlite>
                + for<'r> sqlx::Decode<'r, sqlx::Sqlite>
                + sqlx::Type<sqlx::Sqlite>
                + Send
                + Unpin,
            T: Copy,
        {
            let word: String = sqlx::query_scalar("SELECT ?")
                .bind(value)
                .fetch_one(pool)
                .await
                .unwrap();
            let back: T = sqlx::query_scalar("SELECT ?")
                .bind(word.clone())
                .fetch_one(pool)
                .await
                .unwrap();
            (word, back)
        }
        let games = include_str!("../../migrations/0002_games.sql");
        for s in [GameStatus::Active, GameStatus::Finished] {
            let (word, back) = stored(&pool, s).await;
            assert_eq!(back, s);
            assert!(games.contains(&format!("'{word}'")), "{word}");
        }
        let challenges = include_str!("../../migrations/0004_challenges.sql");
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
        let draws = include_str!("../../migrations/0005_draw_offers.sql");
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
        let outbox = include_str!("../../migrations/0006_outbox.sql");
        for s in [
            NoticeStatus::Pending,
            NoticeStatus::Delivered,
            NoticeStatus::Failed,
        ] {
            let (word, back) = stored(&pool, s).await;
            assert_eq!(back, s);
            assert!(outbox.contains(&format!("'{word}'")), "{word}");
        }
        let refused: Result<GameStatus, _> =
            sqlx::query_scalar("SELECT 'paused'").fetch_one(&pool).await;
        assert!(refused.is_err(), "a word that is no status is an error");
    }
}
