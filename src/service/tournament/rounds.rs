//! Rounds: paired (with each match game's thread owed and the round's post), a match game
//! started in its thread, scored when it ends ([`GameEnds`], registered with the core), and the
//! next round paired (or the tournament finished) in the transaction of the round's last game's
//! end.

use super::view::LoadedTournament;
use super::{
    MatchGame, TournamentFormat, TournamentNews, TournamentRefusal, TournamentStatus, Tournaments,
};
use crate::service::challenge::NewGame;
use crate::service::core::{Core, GameEndStep, OnGameEnd};
use crate::service::error::ServiceError;
use crate::service::news::News;
use crate::service::notice::Payload;
use crate::service::stored::tournaments::{self as stored, StoredLeg, StoredMatch};
use crate::service::types::tournament::TournamentInfo;
use crate::service::types::{ChannelId, GameId, GameInfo, Place, Player};
use crate::store::dialect::lock_in_transaction;
use crate::store::tournaments as rows;
use crate::store::Connection;
use crate::tafl::{Outcome, Position, Side};
use crate::tournament::{self as pairing, MatchResult, Pairing};

/// A tournament's game ends: what the tournaments' part registers with the core
/// ([`OnGameEnd`]). Before the end is written, the game's tournament is locked
/// ([`Core::lock_tournament_of`]); once it is, the game is scored, and the next round paired
/// if it was the round's last ([`Core::tournament_game_ended`]), in that transaction.
pub(crate) struct GameEnds;

impl OnGameEnd for GameEnds {
    fn before_end<'a>(
        &'a self,
        core: &'a Core,
        conn: &'a mut Connection,
        game: GameId,
    ) -> GameEndStep<'a> {
        Box::pin(core.lock_tournament_of(conn, game))
    }

    fn ended<'a>(
        &'a self,
        core: &'a Core,
        conn: &'a mut Connection,
        game: &'a GameInfo,
        now: i64,
    ) -> GameEndStep<'a> {
        Box::pin(core.tournament_game_ended(conn, game, now))
    }
}

impl Core {
    /// Pairs round `round` of a running tournament in `conn`'s transaction, if no one paired
    /// it before (the tournament's round counter decides): its matches and their games, the
    /// notices that open each game's thread, and the round's post. A round with no game to
    /// play (every match a bye or forfeited) is followed at once by the next. Past the last
    /// round, the tournament finishes. Returns whether this call paired (or finished) it.
    pub(super) async fn pair_round(
        &self,
        conn: &mut Connection,
        id: i64,
        mut round: i64,
        now: i64,
    ) -> Result<bool, ServiceError> {
        loop {
            let loaded = LoadedTournament::read(conn, id).await?;
            if loaded.status()? != TournamentStatus::Running {
                return Ok(false);
            }
            let withdrawn = loaded.withdrawn();
            let matches = stored::matches(&mut *conn, id).await?;
            let (rounds, pairings) = round_pairings(&loaded, &matches, &withdrawn, round);
            let Some(pairings) = pairings else {
                return self.finish(conn, &loaded, &matches, now).await;
            };
            if !rows::claim_round(&mut *conn, id, round, rounds, now).await? {
                return Ok(false);
            }
            let loaded = LoadedTournament::read(conn, id).await?;
            let info = loaded.info()?;
            let to_play = self
                .open_pairings(conn, &loaded, &info, round, &pairings, now)
                .await?;
            self.post_round(conn, &loaded, &info, round, now).await?;
            if to_play > 0 {
                return Ok(true);
            }
            round += 1;
        }
    }

    /// A round's pairings written, in `conn`'s transaction: a bye, or a pairing with a withdrawn
    /// seat, decided at once without a game; every other match with its two games, each with
    /// the notice that opens its thread. Returns how many games were opened.
    async fn open_pairings(
        &self,
        conn: &mut Connection,
        loaded: &LoadedTournament,
        info: &TournamentInfo,
        round: i64,
        pairings: &[Pairing],
        now: i64,
    ) -> Result<u32, ServiceError> {
        let id = loaded.tournament.id();
        let withdrawn = &loaded.withdrawn()[..];
        let mut to_play = 0;
        for pair in pairings {
            let (first, second) = pair.seats();
            let seats = (first as i64, second.map(|s| s as i64));
            // A bye, or a pairing with a withdrawn seat: decided at once, without a game.
            let decided = match *pair {
                Pairing::Bye(seat) => Some(
                    MatchResult::forfeit(round as u32, pair, withdrawn)
                        .unwrap_or_else(|| MatchResult::bye(round as u32, seat)),
                ),
                Pairing::Match { .. } => MatchResult::forfeit(round as u32, pair, withdrawn),
            };
            if let Some(r) = decided {
                let halves = (i64::from(r.first_halves), i64::from(r.second_halves));
                rows::insert_match(&mut *conn, id, round, seats, Some(halves), r.forfeit).await?;
                continue;
            }
            let (Pairing::Match { first, second }, Some(_)) = (*pair, second) else {
                continue;
            };
            let m = rows::insert_match(&mut *conn, id, round, seats, None, false).await?;
            for leg in 1..=2 {
                let slot = rows::insert_game(&mut *conn, m, leg).await?;
                to_play += 1;
                let game = MatchGame {
                    tournament: id,
                    name: info.name.clone(),
                    round: round as u32,
                    first: loaded.user_at(first as i64),
                    second: loaded.user_at(second as i64),
                    leg: leg as u8,
                    slot,
                };
                let payload = Payload::news(News::Tournament(TournamentNews::Thread(game)));
                self.notice(info.channel, "tournament_thread", &payload)
                    .write(conn, now)
                    .await?;
            }
        }
        Ok(to_play)
    }

    /// The round's post, in `conn`'s transaction: its pairings, and the standings and
    /// crosstable before it (the round's byes and forfeits in them).
    async fn post_round(
        &self,
        conn: &mut Connection,
        loaded: &LoadedTournament,
        info: &TournamentInfo,
        round: i64,
        now: i64,
    ) -> Result<(), ServiceError> {
        let id = loaded.tournament.id();
        let matches = stored::matches(&mut *conn, id).await?;
        // The standings before the round: the round's byes and forfeits are in them.
        let news = TournamentNews::Round {
            pairings: loaded.pairings(&matches, round),
            standings: loaded.standings(&matches),
            crosstable: loaded.crosstable(&matches),
            tournament: info.clone(),
            round: round as u32,
        };
        let payload = Payload::news(News::Tournament(news));
        self.notice(info.channel, "tournament_round", &payload)
            .write(conn, now)
            .await?;
        Ok(())
    }

    /// Finishes a running tournament: its final standings posted.
    async fn finish(
        &self,
        conn: &mut Connection,
        loaded: &LoadedTournament,
        matches: &[StoredMatch],
        now: i64,
    ) -> Result<bool, ServiceError> {
        let id = loaded.tournament.id();
        if !stored::set_status(
            &mut *conn,
            id,
            TournamentStatus::Running,
            TournamentStatus::Finished,
            now,
        )
        .await?
        {
            return Ok(false);
        }
        let mut info = loaded.info()?;
        info.status = TournamentStatus::Finished;
        let news = TournamentNews::Finished {
            standings: loaded.standings(matches),
            crosstable: loaded.crosstable(matches),
            tournament: info.clone(),
        };
        let payload = Payload::news(News::Tournament(news));
        self.notice(info.channel, "tournament_finished", &payload)
            .write(conn, now)
            .await?;
        Ok(true)
    }

    /// Locks the tournament of game `game`, if it is a tournament's ([`rows::lock`]): what a
    /// transaction that ends a game does before it writes the end, so that two games of one
    /// round ending at once take turns (the second sees the first scored), and a tournament's
    /// row is always locked before its games' rows.
    async fn lock_tournament_of(
        &self,
        conn: &mut Connection,
        game: GameId,
    ) -> Result<(), ServiceError> {
        if let Some(id) = rows::of_game(&mut *conn, game).await? {
            rows::lock(conn, self.store.backend(), id).await?;
        }
        Ok(())
    }

    /// A game's end, in the transaction that ends it (which took
    /// [`Core::lock_tournament_of`] first): if it is a tournament's, its result scored, its
    /// match decided when both games are, and the round's last match decided, the next round
    /// paired (unless the tournament is paused) or the tournament finished.
    async fn tournament_game_ended(
        &self,
        conn: &mut Connection,
        game: &GameInfo,
        now: i64,
    ) -> Result<(), ServiceError> {
        let Some(slot) = stored::leg_of(&mut *conn, game.id).await? else {
            return Ok(());
        };
        let leg_first_attacks = slot.leg == 1;
        let points = match game.outcome {
            Outcome::Won { winner, .. } => {
                let first_won = (winner == Side::Attackers) == leg_first_attacks;
                if first_won {
                    2
                } else {
                    0
                }
            }
            Outcome::Drawn { .. } => 1,
            Outcome::Ongoing => return Ok(()),
        };
        if !rows::score_game(&mut *conn, slot.id, points).await? {
            // Scored already (forfeited by a withdrawal meanwhile).
            return Ok(());
        }
        self.match_scored(conn, slot.match_id, now).await
    }

    /// One of a match's games scored: the match decided if both are, then the round looked at.
    pub(super) async fn match_scored(
        &self,
        conn: &mut Connection,
        match_id: i64,
        now: i64,
    ) -> Result<(), ServiceError> {
        let legs = stored::legs_of_match(&mut *conn, match_id).await?;
        let Some(first) = legs.iter().map(|g| g.first_points).sum::<Option<i64>>() else {
            return Ok(());
        };
        rows::decide_match(&mut *conn, match_id, first, 4 - first).await?;
        let Some(m) = stored::match_by_id(&mut *conn, match_id).await? else {
            return Ok(());
        };
        self.round_looked_at(conn, m.tournament, now).await
    }

    /// Pairs the next round if the current one is over and the tournament runs.
    pub(super) async fn round_looked_at(
        &self,
        conn: &mut Connection,
        id: i64,
        now: i64,
    ) -> Result<(), ServiceError> {
        let Some(tournament) = stored::by_id(&mut *conn, id).await? else {
            return Ok(());
        };
        if tournament.status().ok() != Some(TournamentStatus::Running) {
            return Ok(());
        }
        let round = tournament.round();
        let matches = stored::matches(&mut *conn, id).await?;
        let open = matches
            .iter()
            .any(|m| m.round == round && m.first_halves.is_none());
        if !open {
            self.pair_round(conn, id, round + 1, now).await?;
        }
        Ok(())
    }
}

impl Tournaments<'_> {
    /// The thread recorded for a match game (made by an attempt before), if any.
    pub async fn thread_of(self, slot: i64) -> Result<Option<ChannelId>, ServiceError> {
        let row = stored::leg_by_id(self.core.store.read(), slot).await?;
        Ok(row.and_then(|g| g.thread))
    }

    /// Of `found`, the threads of a match game's name found in its channel, takes the first
    /// that no match game has for this one (recorded, so that every later attempt uses it):
    /// the thread an attempt made before its answer was lost. None if each is another's, or
    /// this one has a thread recorded meanwhile (that one is returned). Its tournament is
    /// locked first, as by every transaction that changes one, then its channel's threads
    /// ([`lock_in_transaction`]): tournaments of one name in one channel adopting at once take
    /// turns, each seeing the threads taken before it.
    pub async fn adopt_thread(
        self,
        slot: i64,
        found: &[ChannelId],
    ) -> Result<Option<ChannelId>, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let Some(row) = stored::leg_by_id(&mut *tx, slot).await? else {
            return Ok(None);
        };
        let Some(m) = stored::match_by_id(&mut *tx, row.match_id).await? else {
            return Ok(None);
        };
        let backend = self.core.store.backend();
        if !rows::lock(&mut tx, backend, m.tournament).await? {
            return Ok(None);
        }
        let Some(tournament) = stored::by_id(&mut *tx, m.tournament).await? else {
            return Ok(None);
        };
        let key = format!("tournament threads in {}", tournament.channel());
        lock_in_transaction(&mut tx, backend, &key).await?;
        // Read again under the locks: another attempt may have recorded one meanwhile.
        let Some(row) = stored::leg_by_id(&mut *tx, slot).await? else {
            return Ok(None);
        };
        if row.thread.is_some() {
            return Ok(row.thread);
        }
        for &thread in found {
            if rows::game_in_thread(&mut *tx, thread).await?.is_none() {
                rows::set_thread(&mut *tx, slot, thread).await?;
                tx.commit().await?;
                return Ok(Some(thread));
            }
        }
        Ok(None)
    }

    /// Records the thread made for a match game (before its game starts there), so that a
    /// second attempt uses it rather than making another.
    pub async fn thread_made(self, slot: i64, thread: ChannelId) -> Result<(), ServiceError> {
        let mut lock = self.core.store.lock().await?;
        rows::set_thread(lock.ex(), slot, thread).await?;
        Ok(())
    }

    /// A match game's thread is made (`thread`, by the notice that owed it): the game starts
    /// in it, its first post (the board) in the outbox, in one transaction. Nothing is done if
    /// the game started already (the thread made twice: the second stays empty), or if it is
    /// not to be played (the tournament cancelled, or the game forfeited meanwhile); returns
    /// the game started, if one did.
    pub async fn open_game(
        self,
        game: &MatchGame,
        thread: ChannelId,
    ) -> Result<Option<GameInfo>, ServiceError> {
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        // Locked first: a cancel or a withdrawal at the same time waits for the game started
        // (and aborts it), or this waits for it and sees the tournament over.
        let backend = self.core.store.backend();
        let loaded = match LoadedTournament::lock(&mut tx, backend, game.tournament).await {
            Err(ServiceError::Tournament(TournamentRefusal::NoTournament)) => return Ok(None),
            other => other?,
        };
        let Some(slot) = stored::leg_by_id(&mut *tx, game.slot).await? else {
            return Ok(None);
        };
        if slot.game.is_some() || slot.first_points.is_some() {
            return Ok(None);
        }
        let status = loaded.status()?;
        if !matches!(status, TournamentStatus::Running | TournamentStatus::Paused) {
            return Ok(None);
        }
        let rules = loaded.rules()?;
        let (first, second) = (
            Player::User(game.first.clone()),
            Player::User(game.second.clone()),
        );
        let (attackers, defenders) = match game.leg {
            1 => (first, second),
            _ => (second, first),
        };
        let place = Place {
            guild: Some(loaded.tournament.guild()),
            channel: thread,
        };
        let time = loaded.tournament.time_control();
        let mut info = self
            .games
            .create_game(
                &mut tx,
                NewGame {
                    place,
                    attackers,
                    defenders,
                    start: Position::start(rules),
                    time_control: time,
                    rated: loaded.tournament.rated(),
                },
                now,
            )
            .await?;
        if !rows::start_game(&mut *tx, slot.id, info.id, thread).await? {
            return Ok(None);
        }
        info.tournament = Some(game.tag());
        let news = TournamentNews::GameOpened {
            game: game.clone(),
            info: Box::new(info.clone()),
        };
        let payload = self.core.with_board(News::Tournament(news), &info);
        let first_post = self
            .core
            .notice(thread, "game_started", &payload)
            .write(&mut tx, now)
            .await?
            .id;
        self.core.clock_waits(&mut tx, &info, first_post).await?;
        (self.core)
            .tell_turn(&mut tx, &info, first_post, None, None, now)
            .await?;
        self.core.commit_noticed(tx, first_post).await?;
        Ok(Some(info))
    }

    /// Scores every game of `seat` in a running tournament not finished as lost (a game under
    /// way is aborted, unrated), in `conn`'s transaction; then looks at the round.
    pub(super) async fn forfeit_rest(
        self,
        conn: &mut Connection,
        loaded: &LoadedTournament,
        seat: i64,
        news: &TournamentNews,
        now: i64,
    ) -> Result<(), ServiceError> {
        let id = loaded.tournament.id();
        let matches = stored::matches(&mut *conn, id).await?;
        let legs = stored::legs_of(&mut *conn, id).await?;
        for m in matches.iter().filter(|m| m.first_halves.is_none()) {
            let is_first = m.first_seat == seat;
            if !is_first && m.second_seat != Some(seat) {
                continue;
            }
            let points = if is_first { 0 } else { 2 };
            for leg in legs
                .iter()
                .filter(|g| g.match_id == m.id && g.first_points.is_none())
            {
                self.abort_under_way(conn, leg, news, now).await?;
                rows::score_game(&mut *conn, leg.id, points).await?;
            }
            self.core.match_scored(conn, m.id, now).await?;
        }
        Ok(())
    }

    /// Aborts the game of `leg` if it is under way (unrated: an aborted game changes no
    /// rating), telling its thread `news`.
    pub(super) async fn abort_under_way(
        self,
        conn: &mut Connection,
        leg: &StoredLeg,
        news: &TournamentNews,
        now: i64,
    ) -> Result<(), ServiceError> {
        let (Some(game), Some(thread)) = (leg.game, leg.thread) else {
            return Ok(());
        };
        if rows::abort_game(&mut *conn, game, now).await? {
            let payload = Payload::news(News::Tournament(news.clone()));
            self.core
                .notice(thread, "tournament_end", &payload)
                .write(conn, now)
                .await?;
        }
        Ok(())
    }
}

/// Round `round`'s pairings, and the number of rounds: the round-robin table's, or a Swiss
/// round paired from the results so far (none past the last round, or with fewer than two
/// players left). None: the tournament is over.
fn round_pairings(
    loaded: &LoadedTournament,
    matches: &[StoredMatch],
    withdrawn: &[usize],
    round: i64,
) -> (i64, Option<Vec<Pairing>>) {
    let n = loaded.seated().len();
    let rounds = loaded.format().pairing().rounds(n) as i64;
    match loaded.format() {
        TournamentFormat::RoundRobin => {
            let table = pairing::round_robin(n);
            (rounds, table.get(round as usize - 1).cloned())
        }
        TournamentFormat::Swiss { rounds } => {
            let active = n - withdrawn.len();
            let pairings = (round <= rounds as i64 && active >= 2)
                .then(|| pairing::swiss_round(n, withdrawn, &LoadedTournament::results(matches)));
            (rounds as i64, pairings)
        }
    }
}
