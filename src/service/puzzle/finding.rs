//! Puzzles found in finished games: each searched once, as background work on the AI pool,
//! what it proves stored as new puzzles.

use super::puzzles::{initial_rating, Puzzles};
use crate::ai::puzzle::{scan, Record, Solver, SCAN_PLIES};
use crate::ai::queue::Class;
use crate::service::backoff::Work;
use crate::service::error::ServiceError;
use crate::service::stored::games as stored_games;
use crate::service::stored::puzzles as stored;
use crate::service::types::GameId;
use crate::store::puzzles as rows;

/// The failed searches of a game after which it is recorded as searched, with nothing found.
pub const SCAN_GIVE_UP: u32 = 3;

impl Puzzles<'_> {
    /// Searches up to `limit` finished games not searched before for puzzles, on the AI
    /// pool's background class (served only while no move or hint waits), and stores what it
    /// finds (source `game`, rated as new puzzles), each game once. A game whose search fails
    /// is logged and set aside for a while (the next games are searched meanwhile); after
    /// [`SCAN_GIVE_UP`] failures it is recorded as searched, with nothing found, and not tried
    /// again. How many puzzles were new.
    pub async fn find_in_games(self, limit: u32) -> Result<u32, ServiceError> {
        let now = self.core.database_now().await?;
        let aside = self.core.retries.waiting(Work::PuzzleScan, now) as u32;
        let ids =
            rows::unscanned_games(self.core.store.read(), limit.saturating_add(aside)).await?;
        let mut added = 0;
        let ready = ids
            .into_iter()
            .filter(|&id| self.core.retries.ready(Work::PuzzleScan, id, now))
            .take(limit as usize);
        for id in ready {
            match self.scan_game(id).await {
                Ok(n) => {
                    self.core.retries.succeeded(Work::PuzzleScan, id);
                    added += n;
                }
                Err(e) => {
                    let (failures, next) = self.core.retries.failed(Work::PuzzleScan, id, now);
                    if failures < SCAN_GIVE_UP {
                        tracing::warn!(game = id, error = ?e, failures, retry_in_s = (next - now) / 1000, "the puzzle search of a game failed: set aside");
                        continue;
                    }
                    tracing::error!(game = id, error = ?e, failures, "the puzzle search of a game failed again: given up");
                    let scanned = match self.core.store.lock().await {
                        Ok(mut writing) => rows::scanned(writing.ex(), id, 0, now).await,
                        Err(e) => Err(e),
                    };
                    match scanned {
                        Ok(_) => self.core.retries.succeeded(Work::PuzzleScan, id),
                        Err(e) => {
                            tracing::error!(game = id, error = ?e, "cannot record a game's search as given up: set aside")
                        }
                    }
                }
            }
        }
        Ok(added)
    }

    /// Searches one finished game for puzzles and stores them; how many were new.
    async fn scan_game(self, id: GameId) -> Result<u32, ServiceError> {
        let Some(row) = stored_games::by_id(self.core.store.read(), id).await? else {
            return Ok(0);
        };
        let found = match self.core.load_or_skip(row).await {
            // Puzzles are Tablut's: games of the other variants are passed over (and not
            // looked at again).
            Some(loaded) if !loaded.info.variant().is_tablut() => Vec::new(),
            Some(loaded) => {
                let game = loaded.game;
                let (tx, rx) = tokio::sync::oneshot::channel();
                self.pool.submit_task(0, Class::Background, move || {
                    let mut solver = Solver::new();
                    let _ = tx.send(scan(&mut solver, &game, SCAN_PLIES));
                });
                rx.await.map_err(|_| {
                    ServiceError::Internal(format!("game {id}: the puzzle search failed"))
                })?
            }
            // A game that cannot be rebuilt is logged, and not tried again.
            None => Vec::new(),
        };
        let mut added = 0;
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        if !rows::scanned(&mut *tx, id, found.len() as u32, now).await? {
            return Ok(0);
        }
        for (start, f) in &found {
            let r = Record::new(start, f, "game");
            let rating = initial_rating(r.kind, r.moves);
            let new = stored::insert(&mut tx, &r, ("game", Some(id)), rating, now).await?;
            added += u32::from(new);
        }
        tx.commit().await?;
        Ok(added)
    }
}
