//! Game records in and out: `/tablut export` writes the channel's game as a record
//! (docs/RULES.md, "Game records"); `/tablut import` reads one, to keep it as a finished game of
//! the channel for `/tablut analysis`, or to start a new game from its last position.

use super::error::{RecordProblem, ServiceError};
use super::play::Games;
use super::stored::games as stored;
use super::types::{ChannelId, GameId, GameInfo, Player, User};
use crate::store::moves;
use crate::tafl::{read_record, write_record, Game, ReadRecord, RecordFormat, RecordTags, Rules};

/// The longest record read (characters): a 1000-ply game in either format fits well within.
pub const MAX_RECORD: usize = 64 * 1024;

/// Reads a record: its own rules, else Tablut's default. A bad record is
/// [`ServiceError::BadRecord`], one line naming the line or ply and why.
pub fn read(text: &str) -> Result<ReadRecord, ServiceError> {
    if text.len() > MAX_RECORD {
        return Err(ServiceError::BadRecord(RecordProblem::TooLong {
            limit_kb: MAX_RECORD / 1024,
        }));
    }
    read_record(text, Rules::default())
        .map_err(|e| ServiceError::BadRecord(RecordProblem::Unreadable(e)))
}

impl Games<'_> {
    /// The channel's game (its latest, if none is running) as a record in `format`, with
    /// the tags `tags` gives for it (the bot's: the event, the site, the players' names).
    pub async fn export(
        self,
        channel: ChannelId,
        format: RecordFormat,
        tags: impl FnOnce(&GameInfo) -> RecordTags,
    ) -> Result<(GameInfo, String), ServiceError> {
        let loaded = self.core.latest(channel).await?;
        let tags = tags(&loaded.info);
        let text = write_record(&loaded.game, format, &tags);
        Ok((loaded.info, text))
    }

    /// Keeps an imported record's finished game as a finished game of `channel`, unrated and
    /// in no server's standings (so no one's stats count it), its seats `importer`'s under the
    /// record's names: `/tablut analysis` can then review it. Refused when the game has not
    /// ended or has no moves.
    pub async fn import_finished(
        self,
        channel: ChannelId,
        importer: &User,
        record: &ReadRecord,
    ) -> Result<GameId, ServiceError> {
        let game: &Game = &record.game;
        let outcome = game.outcome();
        let Some(reason) = outcome.reason() else {
            return Err(ServiceError::RecordUnfinished);
        };
        if game.moves().is_empty() {
            return Err(ServiceError::RecordEmpty);
        }
        let seat = |name: &Option<String>, side: &str| {
            let name = name
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty() && *n != "?")
                .map(|n| n.chars().take(64).collect())
                .unwrap_or_else(|| format!("the {side}"));
            Player::User(User::new(importer.id, name))
        };
        let players = (
            &seat(&record.tags.attackers, "attackers"),
            &seat(&record.tags.defenders, "defenders"),
        );
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let id = stored::insert_finished(&mut tx, channel, players, game, reason, now).await?;
        let plies = game.moves().len() as u32;
        for (i, m) in game.moves().iter().enumerate() {
            moves::insert(&mut *tx, id, i as u32 + 1, &m.to_string(), None, now).await?;
        }
        // Landed: this game, finished, as this transaction wrote it.
        let landed =
            || async move {
                let row = stored::by_id(self.core.store.read(), id).await?;
                Ok(row.is_some_and(|r| {
                    (r.channel(), r.ply(), r.created_at()) == (channel, plies, now)
                }))
            };
        self.core.commit_answered(tx, None, landed).await?;
        Ok(id)
    }
}
