//! A person's data: everything the bot stores about them, read out for them
//! ([`Privacy::stored`]), and forgotten at their request ([`Privacy::forget`]) once nothing of
//! theirs is under way. What is stored, for how long and why: docs/PRIVACY.md.

use super::error::ServiceError;
use super::news::News;
use super::notice::{Answered, Payload, ReplyTo};
use super::stored::notices::readable;
pub use super::types::Forgotten;
use super::types::{User, UserId};
use crate::store::privacy as rows;
use serde::Serialize;
use serde_json::{Map, Value};

/// The stand-in a forgotten person becomes in the games they finished, the challenges they
/// closed and the settings they made: an id no Discord user has (Discord's ids are never 0).
/// The bot words it by its id.
pub const FORMER_PLAYER: UserId = 0;

/// The name stored for the stand-in where the forgotten person's was: none (the id says who
/// it is; rows forgotten by earlier versions hold words there, which nothing reads).
pub const FORGOTTEN_NAME: &str = "";

/// Whether `id` is the stand-in for people forgotten.
pub fn is_former_player(id: UserId) -> bool {
    id == FORMER_PLAYER
}

/// Everything the bot stores about one person, as stored: for them to take away.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredAbout {
    /// Their Discord id (in text, as Discord writes ids).
    #[serde(serialize_with = "as_text")]
    pub user: UserId,
    /// When this was read (Unix ms, the database's clock).
    pub read_at: i64,
    /// Every name stored beside their id.
    pub names: Vec<String>,
    /// Each table that can hold them, with every row that names them, every column as stored
    /// (Discord ids in text; the outbox's payloads as JSON, without the handle on an
    /// interaction's response, which is the bot's key to edit it).
    pub tables: Vec<TableRows>,
}

/// One table's rows naming a person.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRows {
    pub table: &'static str,
    pub rows: Vec<Map<String, Value>>,
}

impl StoredAbout {
    /// The rows of `table` (none if it holds nothing of theirs).
    pub fn rows(&self, table: &str) -> &[Map<String, Value>] {
        self.tables
            .iter()
            .find(|t| t.table == table)
            .map_or(&[], |t| t.rows.as_slice())
    }
}

fn as_text<S: serde::Serializer>(id: &UserId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&id.to_string())
}

pub use super::error::UnderWay;

/// A person's data (`Service::privacy`).
#[derive(Clone, Copy)]
pub struct Privacy<'a> {
    core: &'a super::core::Core,
}

impl<'a> Privacy<'a> {
    pub(crate) fn new(core: &'a super::core::Core) -> Privacy<'a> {
        Privacy { core }
    }
}

impl Privacy<'_> {
    /// Counts a read-out of `user`'s data ([`Privacy::stored`], which may read many rows)
    /// against their wait between costly commands, which replays and analyses share.
    ///
    /// # Errors
    /// [`ServiceError::CostlyTooSoon`] within that wait of their last.
    pub fn check_read(self, user: UserId) -> Result<(), ServiceError> {
        self.core.limits.costly(user)
    }

    /// Everything stored about `user`: every row of every table that names them (by id, or,
    /// in the outbox's payloads, by id or name).
    ///
    /// # Errors
    /// [`ServiceError::Database`] if the database cannot be read.
    pub async fn stored(self, user: &User) -> Result<StoredAbout, ServiceError> {
        let db = self.core.store.read();
        let read_at = self.core.database_now().await?;
        let mut names = rows::names_of(db, user.id).await?;
        let mut tables = Vec::with_capacity(rows::TABLES.len() + 1);
        for (table, _) in rows::TABLES {
            let rows = rows::rows_naming(db, table, user.id).await?;
            tables.push(TableRows { table, rows });
        }
        let mut looked_for = names.clone();
        looked_for.push(user.name.clone());
        let notices = rows::notices_naming(db, user.id, &looked_for).await?;
        tables.push(TableRows {
            table: "outbox",
            rows: notices.into_iter().map(|n| readable(n.row)).collect(),
        });
        names.retain(|n| !n.is_empty());
        Ok(StoredAbout {
            user: user.id,
            read_at,
            names,
            tables,
        })
    }

    /// Whether `user` can be forgotten now: refused with what is under way, if anything is.
    ///
    /// # Errors
    /// [`ServiceError::StillUnderWay`] while they play a game, have an open challenge, a game of
    /// theirs is being analysed, news naming them is still being delivered, or a tournament they
    /// entered or organise is not over.
    pub async fn check_forget(self, user: &User) -> Result<(), ServiceError> {
        let db = self.core.store.read();
        let mut names = rows::names_of(db, user.id).await?;
        names.push(user.name.clone());
        let notices = rows::notices_naming(db, user.id, &names).await?;
        let under = under_way(rows::under_way(db, user.id, &notices).await?);
        match under.any() {
            true => Err(ServiceError::StillUnderWay(under)),
            false => Ok(()),
        }
    }

    /// Forgets `user`, in one transaction: their ratings, puzzle ratings and puzzle tries are
    /// deleted (in every server); in every finished game they played, every closed challenge,
    /// every finished or cancelled tournament they entered or organised and every daily-puzzle
    /// or tournament-organiser setting they made, [`FORMER_PLAYER`] takes their place (the games
    /// stay whole and can be replayed, the standings keep their place under the stand-in's name;
    /// their opponents' ratings are not touched); the analyses they
    /// asked for are asked for by nobody; news already delivered that named them is deleted.
    /// The news that it is done (`News::Forgotten`) goes to `to`, privately, written with it
    /// (its notice returned as written, for the handler to show).
    ///
    /// # Errors
    /// [`ServiceError::StillUnderWay`], changing nothing, while anything of theirs is under way
    /// (see [`Privacy::check_forget`]).
    pub async fn forget(
        self,
        user: &User,
        to: Option<&ReplyTo>,
    ) -> Result<Answered<Forgotten>, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let mut names = rows::names_of(&mut *tx, user.id).await?;
        names.push(user.name.clone());
        let notices = rows::notices_naming(&mut *tx, user.id, &names).await?;
        let under = under_way(rows::under_way(&mut *tx, user.id, &notices).await?);
        if under.any() {
            return Err(ServiceError::StillUnderWay(under));
        }
        let stand_in = (FORMER_PLAYER, FORGOTTEN_NAME);
        let done = rows::forget(&mut tx, user.id, stand_in, &notices).await?;
        let mut forgotten = Forgotten {
            ratings: done.ratings,
            games: done.games,
            puzzle_ratings: done.puzzle_ratings,
            puzzle_tries: done.puzzle_tries,
            others: done.others,
            notices: done.notices,
            notice: None,
        };
        let mut notice = None;
        if let Some(to) = to {
            let payload = Payload {
                answer: to.answer.clone().private(),
                ..Payload::news(News::Forgotten(forgotten))
            };
            let hold = self.core.delivery.answer_grace;
            let written = (self.core)
                .notice(to.channel, "forgotten", &payload)
                .held(hold)
                .write(&mut tx, now)
                .await?;
            forgotten.notice = Some(written.id);
            notice = Some(written);
        }
        // Landed: no name of theirs is left beside their id.
        let landed = || async move {
            let names = rows::names_of(self.core.store.read(), user.id).await?;
            Ok(names.is_empty())
        };
        self.core
            .commit_answered(tx, forgotten.notice, landed)
            .await?;
        Ok(Answered::with(forgotten, notice))
    }
}

fn under_way(u: rows::UnderWay) -> UnderWay {
    UnderWay {
        games: u.games,
        challenges: u.challenges,
        analyses: u.analyses,
        notices: u.notices,
        tournaments: u.tournaments,
    }
}
