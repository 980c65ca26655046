//! A game's rows read and decoded: the row and its moves rebuilt into the game (the moves are
//! the truth), its players, rules, start position, outcome, clocks and tournament game read
//! from their columns; and a game written to them (at its start, or finished: an imported
//! record). Outside `stored/` a game's row is a [`StoredGame`]: held, handed to [`Core::load`]
//! (or [`rebuild`]), and read only through its accessors here.

use super::{parse_rules, rules_json, start_columns, stored_start, time_control};
use crate::service::core::Core;
use crate::service::error::ServiceError;
use crate::service::heavy;
use crate::service::types::MatchTag;
use crate::service::types::{
    ChannelId, Clocks, GameId, GameInfo, GuildId, Place, Player, RecentGame, TimeControl, User,
    UserId,
};
use crate::store::games::{self, GameRow, MatchTagRow, NewGame, SeatRow};
use crate::store::{moves, AnyExecutor, Connection, GameStatus, StoreError};
use crate::tafl::side::SideError;
use crate::tafl::{write_position, Game, Outcome, Position, Reason, Rules, Side, Variant};

/// A game's row read back, not yet rebuilt: what a part holds of a game it has found, to load
/// it or to pass its id back to the store.
#[derive(Debug, Clone)]
pub(crate) struct StoredGame(GameRow);

/// What a game's row holds beyond the game's description ([`GameInfo`]): the ply it stood at
/// when read, and its turn's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredTurn {
    /// The plies the row counted when read: a write that moves the game on, stops or starts
    /// its clock, or marks a reminder sent, is made only if the row is still at this ply.
    pub(crate) ply: u32,
    /// The turn's deadline, when the game has a clock.
    pub(crate) deadline: Option<i64>,
    /// The notice whose delivery starts the turn's time, while it is not shown: the clock
    /// leaves the game alone until then.
    pub(crate) waits_for: Option<i64>,
    /// While the player to move is on vacation: when their clock stopped.
    pub(crate) frozen_at: Option<i64>,
    /// The turn's reminders sent so far.
    pub(crate) reminders_sent: u32,
}

/// A game read from the store and rebuilt from its moves.
pub(crate) struct LoadedGame {
    pub turn: StoredTurn,
    pub game: Game,
    pub info: GameInfo,
}

impl StoredGame {
    pub(crate) fn id(&self) -> GameId {
        self.0.id
    }

    /// The channel it is played in.
    pub(crate) fn channel(&self) -> ChannelId {
        self.0.channel_id
    }

    /// Whether it is under way.
    pub(crate) fn is_active(&self) -> bool {
        self.0.status == GameStatus::Active
    }

    /// Whether it is finished.
    pub(crate) fn is_finished(&self) -> bool {
        self.0.status == GameStatus::Finished
    }

    /// The plies the row counts.
    pub(crate) fn ply(&self) -> u32 {
        self.0.ply
    }

    /// When it was written.
    pub(crate) fn created_at(&self) -> i64 {
        self.0.created_at
    }

    /// When it ended, if it has.
    pub(crate) fn ended_at(&self) -> Option<i64> {
        self.0.ended_at
    }

    /// The name of the reason it ended for, if it has.
    pub(crate) fn reason(&self) -> Option<&str> {
        self.0.reason.as_deref()
    }

    /// The turn as the row holds it (see [`StoredTurn`]).
    pub(crate) fn turn(&self) -> StoredTurn {
        let row = &self.0;
        StoredTurn {
            ply: row.ply,
            deadline: row.turn_deadline,
            waits_for: row.clock_waits_for,
            frozen_at: row.clock_frozen_at,
            reminders_sent: row.reminders_sent,
        }
    }

    /// The turn's deadline and its time (the time per move, or the bank of the side to move as
    /// its turn began), when the game has a clock with a deadline.
    pub(crate) fn turn_time(&self) -> Option<(i64, i64)> {
        let row = &self.0;
        row.turn_deadline.zip(row.turn_ms.or(row.time_per_move_ms))
    }

    /// Whether its seats hold `attackers` and `defenders`: the same people, or the AI at the
    /// same levels (names aside).
    pub(crate) fn seats_are(&self, attackers: &Player, defenders: &Player) -> bool {
        let ids = |s: &SeatRow| (s.user_id, s.ai_level.clone());
        let (a, d) = (seat(attackers), seat(defenders));
        (ids(&self.0.attacker), ids(&self.0.defender)) == (ids(&a), ids(&d))
    }
}

impl StoredTurn {
    /// The time the player to move has left at `now` of `had` (the time per move, or the bank
    /// their turn started with): all of it while the news that gave them the turn is not shown,
    /// or their clock stands still; what the turn left as it stopped while they are on
    /// vacation.
    pub(crate) fn left(&self, had: i64, now: i64) -> i64 {
        match (self.deadline, self.waits_for) {
            (Some(deadline), None) => (deadline - self.frozen_at.unwrap_or(now)).min(had).max(0),
            _ => had,
        }
    }
}

/// Game `id`, if there is one.
pub(crate) async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: GameId,
) -> Result<Option<StoredGame>, StoreError> {
    Ok(games::by_id(ex, id).await?.map(StoredGame))
}

/// The game active in a channel, if any.
pub(crate) async fn active_in_channel<'e>(
    ex: impl AnyExecutor<'e>,
    channel: ChannelId,
) -> Result<Option<StoredGame>, StoreError> {
    Ok(games::active_in_channel(ex, channel).await?.map(StoredGame))
}

/// The channel's active game, or else its most recent one.
pub(crate) async fn latest_in_channel<'e>(
    ex: impl AnyExecutor<'e>,
    channel: ChannelId,
) -> Result<Option<StoredGame>, StoreError> {
    Ok(games::latest_in_channel(ex, channel).await?.map(StoredGame))
}

/// The active games of a server, oldest first.
pub(crate) async fn active_in_guild<'e>(
    ex: impl AnyExecutor<'e>,
    guild: GuildId,
) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::active_in_guild(ex, guild).await?))
}

/// Every active game.
pub(crate) async fn all_active<'e>(
    ex: impl AnyExecutor<'e>,
) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::all_active(ex).await?))
}

/// Active games whose clock needs a look at `now` (see [`games::clock_due`]).
pub(crate) async fn clock_due<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::clock_due(ex, now).await?))
}

/// A player's finished games in a server, most recent first.
pub(crate) async fn finished_of_player<'e>(
    ex: impl AnyExecutor<'e>,
    guild: GuildId,
    user: UserId,
) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::finished_of_player(ex, guild, user).await?))
}

/// The active games `user` plays (either side), in every server, oldest first.
pub(crate) async fn active_of_user<'e>(
    ex: impl AnyExecutor<'e>,
    user: UserId,
) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::active_of_user(ex, user).await?))
}

/// The active games whose clock stands still for a vacation.
pub(crate) async fn frozen<'e>(ex: impl AnyExecutor<'e>) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::frozen(ex).await?))
}

/// The active games in threads made for challenges in channel `parent`.
pub(crate) async fn active_in_threads_of<'e>(
    ex: impl AnyExecutor<'e>,
    parent: ChannelId,
) -> Result<Vec<StoredGame>, StoreError> {
    Ok(wrapped(games::active_in_threads_of(ex, parent).await?))
}

/// Game `id`'s moves as stored (their notation), in order.
pub(crate) async fn moves_of<'e>(
    ex: impl AnyExecutor<'e>,
    id: GameId,
) -> Result<Vec<String>, StoreError> {
    let stored = moves::of_game(ex, id).await?;
    Ok(stored.into_iter().map(|m| m.notation).collect())
}

/// Whether game `id`'s move at `ply` is stored as `notation`, played by `by_user` (none: the
/// AI) at `at`: a look at whether the transaction that wrote it landed.
pub(crate) async fn move_stored<'e>(
    ex: impl AnyExecutor<'e>,
    id: GameId,
    (ply, notation): (u32, &str),
    by_user: Option<UserId>,
    at: i64,
) -> Result<bool, StoreError> {
    let stored = moves::of_game(ex, id).await?;
    Ok(stored.iter().any(|m| {
        (m.ply, m.notation.as_str(), m.user_id, m.played_at) == (ply, notation, by_user, at)
    }))
}

fn wrapped(rows: Vec<GameRow>) -> Vec<StoredGame> {
    rows.into_iter().map(StoredGame).collect()
}

impl Core {
    /// The active game in a channel, rebuilt.
    pub(crate) async fn active(&self, channel: ChannelId) -> Result<LoadedGame, ServiceError> {
        match active_in_channel(self.store.read(), channel).await? {
            Some(row) => self.load(row).await,
            // A game just finished here: say so, rather than that there is none.
            None => match latest_in_channel(self.store.read(), channel).await? {
                Some(_) => Err(ServiceError::GameOver),
                None => Err(ServiceError::NoGame),
            },
        }
    }

    /// The channel's active game, or else its latest one (for looking, not playing).
    pub(crate) async fn latest(&self, channel: ChannelId) -> Result<LoadedGame, ServiceError> {
        match latest_in_channel(self.store.read(), channel).await? {
            Some(row) => self.load(row).await,
            None => Err(ServiceError::NoGame),
        }
    }

    pub(crate) async fn load(&self, row: StoredGame) -> Result<LoadedGame, ServiceError> {
        let moves = moves::of_game(self.store.read(), row.id()).await?;
        rebuild(row, moves.iter().map(|m| m.notation.as_str()))
    }

    /// [`Core::load`] with the game played through on a blocking thread, through
    /// [`Core::heavy`]: for the commands that then do heavy work with it (replays, analyses).
    pub(crate) async fn load_blocking(
        &self,
        row: StoredGame,
        place: &heavy::QueuePlace,
    ) -> Result<LoadedGame, ServiceError> {
        let moves = moves::of_game(self.store.read(), row.id()).await?;
        self.heavy(place, move || {
            rebuild(row, moves.iter().map(|m| m.notation.as_str()))
        })
        .await?
    }

    /// [`Core::load`] for a sweep over many games: a game that cannot be rebuilt is logged
    /// and skipped, so it does not hold up the others.
    pub(crate) async fn load_or_skip(&self, row: StoredGame) -> Option<LoadedGame> {
        let id = row.id();
        match self.load(row).await {
            Ok(loaded) => Some(loaded),
            Err(e) => {
                tracing::error!(game = id, error = ?e, "cannot rebuild the game: skipped");
                None
            }
        }
    }

    /// Game `id`'s description as it stands.
    pub(crate) async fn game(&self, id: GameId) -> Result<GameInfo, ServiceError> {
        match by_id(self.store.read(), id).await? {
            Some(row) => Ok(self.load(row).await?.info),
            None => Err(ServiceError::NoGame),
        }
    }

    /// Game `id` as it stood after its first `plies` plies (the board a notice carries).
    pub(crate) async fn game_at(&self, id: GameId, plies: u32) -> Result<Game, ServiceError> {
        let row = games::by_id(self.store.read(), id)
            .await?
            .ok_or(ServiceError::NoGame)?;
        let moves = moves::of_game(self.store.read(), row.id).await?;
        let moves = moves.iter().take(plies as usize);
        Ok(replayed(&row, moves.map(|m| m.notation.as_str()))?.2)
    }
}

/// A game rebuilt from its row and its moves. The moves are the truth: the row's cached
/// position is checked against them.
pub(crate) fn rebuild<'a>(
    StoredGame(row): StoredGame,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<LoadedGame, ServiceError> {
    let (rules, start, mut game) = replayed(&row, moves)?;
    if game.moves().len() != row.ply as usize || write_position(game.position()) != row.position {
        tracing::warn!(
            game = row.id,
            "the cached position disagrees with the moves; the moves win"
        );
    }
    let stored = stored_outcome(&row)?;
    if stored.is_over() && !game.outcome().is_over() {
        game.end(stored).map_err(|_| ServiceError::GameOver)?;
    }
    let info = GameInfo {
        id: row.id,
        place: Place {
            guild: row.guild_id,
            channel: row.channel_id,
        },
        attackers: player(&row.attacker)?,
        defenders: player(&row.defender)?,
        rules,
        start,
        rated: row.rated,
        ply: game.moves().len() as u32,
        turn: game.turn(),
        outcome: game.outcome(),
        time_control: time_control(row.time_per_move_ms, row.increment_ms),
        turn_deadline: row.turn_deadline,
        board_message_id: row.board_message_id,
        clocks: None,
        tournament: row.tournament.as_ref().map(match_tag),
    };
    let info = GameInfo {
        clocks: stored_clocks(&row, &info),
        ..info
    };
    let turn = StoredGame(row).turn();
    Ok(LoadedGame { turn, game, info })
}

/// The row's rules and start position, and the game from that start with `moves` (as stored)
/// played on it.
fn replayed<'a>(
    row: &GameRow,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(Rules, Position, Game), ServiceError> {
    let rules = parse_rules(&row.rules)?;
    let start = stored_start(row.start.as_ref(), rules)?;
    let mut game = Game::from_position(start);
    for (i, text) in moves.into_iter().enumerate() {
        game.play_text(text).map_err(|e| {
            ServiceError::Internal(format!(
                "game {}: stored ply {} '{text}': {e}",
                row.id,
                i + 1
            ))
        })?;
    }
    Ok((rules, start, game))
}

/// A Fischer clock's banks as stored: the side to move's as its turn started, and the other's.
fn stored_clocks(row: &GameRow, info: &GameInfo) -> Option<Clocks> {
    let TimeControl::Fischer { bank, .. } = info.time_control else {
        return None;
    };
    let bank = bank.as_millis() as i64;
    let mut clocks = Clocks::both(bank);
    clocks.set(info.turn, row.turn_ms.unwrap_or(bank));
    clocks.set(info.turn.other(), row.waiting_ms.unwrap_or(bank));
    Some(clocks)
}

/// The tournament game a game is, as stored with it.
fn match_tag(tag: &MatchTagRow) -> MatchTag {
    MatchTag {
        tournament: tag.tournament,
        name: tag.name.clone(),
        round: tag.round as u32,
        leg: tag.leg as u8,
    }
}

/// A stored seat as a player.
pub(crate) fn player(seat: &SeatRow) -> Result<Player, ServiceError> {
    match (&seat.user_id, &seat.ai_level) {
        (Some(id), None) => Ok(Player::User(User::new(*id, seat.name.clone()))),
        (None, Some(level)) => level
            .parse()
            .map(Player::Ai)
            .map_err(|e| ServiceError::Internal(format!("stored AI level: {e}"))),
        _ => Err(ServiceError::Internal("a seat is both or neither".into())),
    }
}

/// Writes game `info`, at its start (no move played), at `now`: its id.
///
/// # Errors
///
/// The store's, a unique violation among them when a game is running in its channel already.
pub(crate) async fn insert(
    conn: &mut Connection,
    info: &GameInfo,
    now: i64,
) -> Result<GameId, StoreError> {
    let (a, d) = (seat(&info.attackers), seat(&info.defenders));
    let rules = rules_json(&info.rules);
    let position = write_position(&info.start);
    let start = (info.start != Position::start(info.rules))
        .then(|| start_columns(Some(&info.start)))
        .flatten();
    let new = NewGame {
        guild_id: info.place.guild,
        channel_id: info.place.channel,
        attacker: &a,
        defender: &d,
        rules: &rules,
        start: start.as_ref().map(|(p, t)| (p.as_str(), t.as_str())),
        rated: info.rated,
        position: &position,
        time_per_move_ms: info.time_control.as_ms(),
        increment_ms: info.time_control.increment_ms(),
        turn_ms: info.clocks.map(|c| c.of(info.turn)),
        waiting_ms: info.clocks.map(|c| c.of(info.turn.other())),
        turn_deadline: info.turn_deadline,
        now,
    };
    games::insert(&mut *conn, &new).await
}

/// Writes `game`, finished (`outcome`, ended for `reason`), as a finished game of `channel`
/// in no server, unrated, without a clock, between `attackers` and `defenders`, at `now`: its
/// id (its moves are the caller's to write).
pub(crate) async fn insert_finished(
    conn: &mut Connection,
    channel: ChannelId,
    (attackers, defenders): (&Player, &Player),
    game: &Game,
    reason: Reason,
    now: i64,
) -> Result<GameId, StoreError> {
    let (a, d) = (seat(attackers), seat(defenders));
    let rules = rules_json(game.rules());
    let start = game.start();
    let start = (*start != Position::start(*game.rules()))
        .then(|| start_columns(Some(start)))
        .flatten();
    let position = write_position(game.position());
    let new = NewGame {
        guild_id: None,
        channel_id: channel,
        attacker: &a,
        defender: &d,
        rules: &rules,
        start: start.as_ref().map(|(p, t)| (p.as_str(), t.as_str())),
        rated: false,
        position: &position,
        time_per_move_ms: None,
        increment_ms: None,
        turn_ms: None,
        waiting_ms: None,
        turn_deadline: None,
        now,
    };
    let (result, plies) = (game.outcome().status(), game.moves().len() as u32);
    games::insert_finished(&mut *conn, &new, result, reason.name(), plies).await
}

/// Whether the AI is to move in a game as its row stands (its start's side to move and its
/// plies tell whose turn it is; the game is not rebuilt), or why the start's side to move
/// cannot be read.
pub(crate) fn ai_to_move(StoredGame(row): &StoredGame) -> Result<bool, SideError> {
    let start = match &row.start {
        Some((_, turn)) => turn.parse::<Side>()?,
        None => Side::Attackers,
    };
    let turn = if row.ply.is_multiple_of(2) {
        start
    } else {
        start.other()
    };
    let seat = match turn {
        Side::Attackers => &row.attacker,
        Side::Defenders => &row.defender,
    };
    Ok(seat.ai_level.is_some())
}

/// A player as a stored seat.
pub(crate) fn seat(player: &Player) -> SeatRow {
    match player {
        Player::User(u) => SeatRow {
            user_id: Some(u.id),
            ai_level: None,
            name: u.name.clone(),
        },
        Player::Ai(level) => SeatRow {
            user_id: None,
            ai_level: Some(level.name().to_string()),
            // An AI's seat has no name: its level says who plays it (read back as
            // `Player::Ai`, which the bot words). Rows written by earlier versions hold a
            // label there, which nothing reads.
            name: String::new(),
        },
    }
}

/// The outcome the row records.
fn stored_outcome(row: &GameRow) -> Result<Outcome, ServiceError> {
    let bad = || ServiceError::Internal(format!("game {}: stored result", row.id));
    let (Some(result), Some(reason)) = (&row.result, &row.reason) else {
        return Ok(Outcome::Ongoing);
    };
    let reason = Reason::from_name(reason).ok_or_else(bad)?;
    Ok(match result.as_str() {
        "attackers_won" => Outcome::Won {
            winner: Side::Attackers,
            reason,
        },
        "defenders_won" => Outcome::Won {
            winner: Side::Defenders,
            reason,
        },
        "draw" => Outcome::Drawn { reason },
        _ => return Err(bad()),
    })
}

/// A finished game from `user`'s side, for their stats; none for an aborted game, or one
/// they did not play.
pub(crate) fn finished(StoredGame(row): &StoredGame, user: UserId) -> Option<RecentGame> {
    if row.reason.as_deref() == Some(Reason::Aborted.name()) {
        return None;
    }
    let (side, opponent) = if row.attacker.user_id == Some(user) {
        (Side::Attackers, &row.defender)
    } else if row.defender.user_id == Some(user) {
        (Side::Defenders, &row.attacker)
    } else {
        return None;
    };
    // A seat that cannot be read (the schema allows none) is left out of the stats, as a game
    // that cannot be rebuilt is left out everywhere else.
    let opponent = player(opponent).ok()?;
    let result = match (row.result.as_deref()?, side) {
        ("attackers_won", Side::Attackers) | ("defenders_won", Side::Defenders) => "win",
        ("draw", _) => "draw",
        _ => "loss",
    };
    // A game whose rules cannot be read is not rebuilt anywhere else either: Tablut's name is
    // as good as any for it here.
    let variant = parse_rules(&row.rules).map_or(Variant::Tablut, |r| r.variant);
    Some(RecentGame {
        game: row.id,
        variant,
        side,
        opponent,
        result,
        reason: row.reason.clone().unwrap_or_default(),
        ended_at: row.ended_at.unwrap_or(row.updated_at),
    })
}
