//! Looking: boards, records, replays, the games of a server, stats and the leaderboard.

use super::error::ServiceError;
use super::heavy;
use super::play::Games;
use super::stored::games::{self as stored, rebuild, StoredGame};
use super::stored::players as stored_players;
use super::types::{
    worded, BoardView, Caption, Captions, ChannelId, GameId, GameInfo, GuildId, History,
    Leaderboard, Stats, UserId,
};
use crate::store::players;
use crate::tafl::{write_position, Side, Variant};

/// Lines on a leaderboard page.
pub const LEADERBOARD_PAGE: u32 = 10;

impl Games<'_> {
    /// The board of the channel's game (its latest, if none is running).
    pub async fn board(self, channel: ChannelId) -> Result<BoardView, ServiceError> {
        let mut loaded = self.core.latest(channel).await?;
        // A Fischer clock's time left now: the side to move's bank less the time its turn ran.
        let (turn, over) = (loaded.info.turn, loaded.info.is_over());
        if let (Some(clocks), Some(_), None, false) = (
            loaded.info.clocks.as_mut(),
            loaded.turn.deadline,
            loaded.turn.waits_for,
            over,
        ) {
            let now = self.core.database_now().await?;
            clocks.set(turn, loaded.turn.left(clocks.of(turn), now));
        }
        let last = loaded.game.moves().last().copied();
        let png = self
            .core
            .image(*loaded.game.position(), last, &Caption::Game(&loaded.info))
            .await?;
        Ok(BoardView {
            game: loaded.info,
            last,
            png,
        })
    }

    /// The game record of the channel's game (its latest, if none is running).
    pub async fn history(self, channel: ChannelId) -> Result<History, ServiceError> {
        let loaded = self.core.latest(channel).await?;
        Ok(History {
            record: loaded.game.record(),
            moves: loaded.game.moves().iter().map(|m| m.to_string()).collect(),
            position_record: write_position(loaded.game.position()),
            game: loaded.info,
        })
    }

    /// The animated replay (GIF) of the channel's game (its latest, if none is running), with
    /// no cooldown: [`Games::start_replay`] then [`PendingReplay::draw`].
    pub async fn replay(self, channel: ChannelId) -> Result<(GameInfo, Vec<u8>), ServiceError> {
        self.start_replay(channel, None).await?.draw().await
    }

    /// `/tablut replay` by `user`: the channel's game (its latest, if none is running) and its
    /// moves read, with its place in the heavy-work queue and the user's cooldown on costly
    /// commands counted. Refused (before anything is drawn, and without waiting for a worker,
    /// so the bot answers a refusal at once, privately, and acknowledges the command before
    /// the wait) when there is no game, the queue is full ([`ServiceError::Busy`]) or the user
    /// asked for a replay or an analysis a moment ago ([`ServiceError::CostlyTooSoon`]). The
    /// game is played through and its GIF drawn by [`PendingReplay::draw`].
    pub async fn start_replay(
        self,
        channel: ChannelId,
        user: Option<UserId>,
    ) -> Result<PendingReplay, ServiceError> {
        let row = stored::latest_in_channel(self.core.store.read(), channel)
            .await?
            .ok_or(ServiceError::NoGame)?;
        let place = self.core.costly_place(user)?;
        let moves = stored::moves_of(self.core.store.read(), row.id()).await?;
        Ok(PendingReplay {
            row,
            moves,
            place,
            gate: self.core.gate.clone(),
            captions: self.core.captions,
        })
    }

    /// The game running in a channel, if any (for the rules of the channel's game).
    pub async fn game_in_channel(
        self,
        channel: ChannelId,
    ) -> Result<Option<GameInfo>, ServiceError> {
        match stored::active_in_channel(self.core.store.read(), channel).await? {
            Some(row) => Ok(Some(self.core.load(row).await?.info)),
            None => Ok(None),
        }
    }

    /// A game by id.
    pub async fn game(self, id: GameId) -> Result<GameInfo, ServiceError> {
        self.core.game(id).await
    }

    /// The games running in a server, oldest first.
    pub async fn games_in_guild(self, guild: GuildId) -> Result<Vec<GameInfo>, ServiceError> {
        let mut out = Vec::new();
        for row in stored::active_in_guild(self.core.store.read(), guild).await? {
            out.push(self.core.load(row).await?.info);
        }
        Ok(out)
    }

    /// A player's record in a server: games, wins and losses by side, draws, rating, and the
    /// last `recent` games. Aborted games do not count.
    pub async fn stats(
        self,
        guild: GuildId,
        user: UserId,
        recent: usize,
    ) -> Result<Stats, ServiceError> {
        let rows = stored::finished_of_player(self.core.store.read(), guild, user).await?;
        let mut stats = Stats {
            user,
            games: 0,
            wins_as_attackers: 0,
            losses_as_attackers: 0,
            wins_as_defenders: 0,
            losses_as_defenders: 0,
            draws: 0,
            ratings: Vec::new(),
            recent: Vec::new(),
        };
        for row in rows {
            let Some(game) = stored::finished(&row, user) else {
                continue;
            };
            stats.games += 1;
            match (game.side, game.result) {
                (Side::Attackers, "win") => stats.wins_as_attackers += 1,
                (Side::Attackers, "loss") => stats.losses_as_attackers += 1,
                (Side::Defenders, "win") => stats.wins_as_defenders += 1,
                (Side::Defenders, "loss") => stats.losses_as_defenders += 1,
                _ => stats.draws += 1,
            }
            if stats.recent.len() < recent {
                stats.recent.push(game);
            }
        }
        stats.ratings = stored_players::ratings_of(self.core.store.read(), guild, user).await?;
        Ok(stats)
    }

    /// A page (zero-based) of a server's leaderboard for a variant: rating first, then the
    /// surer rating.
    pub async fn leaderboard(
        self,
        guild: GuildId,
        variant: Variant,
        page: u32,
    ) -> Result<Leaderboard, ServiceError> {
        let players_count = players::count(self.core.store.read(), guild, variant.name()).await?;
        let pages = players_count.div_ceil(LEADERBOARD_PAGE).max(1);
        let page = page.min(pages - 1);
        let offset = page * LEADERBOARD_PAGE;
        let lines = stored_players::leaderboard(
            self.core.store.read(),
            guild,
            variant,
            offset,
            LEADERBOARD_PAGE,
        )
        .await?;
        Ok(Leaderboard {
            variant,
            page,
            pages,
            players: players_count,
            lines,
        })
    }
}

/// A replay asked for, holding its place in the heavy-work queue ([`Games::start_replay`]).
pub struct PendingReplay {
    row: StoredGame,
    moves: Vec<String>,
    place: heavy::QueuePlace,
    gate: heavy::Heavy,
    /// The bot's words for the frames' captions.
    captions: Option<Captions>,
}

impl PendingReplay {
    /// Plays the game through and draws its GIF once a worker is free for it (frames encoded
    /// as they are drawn: see [`crate::render::replay_gif`]).
    pub async fn draw(self) -> Result<(GameInfo, Vec<u8>), ServiceError> {
        let (row, moves, captions) = (self.row, self.moves, self.captions);
        self.gate
            .run_costly(&self.place, move || {
                let loaded = rebuild(row, moves.iter().map(String::as_str))?;
                let game = &loaded.game;
                let caption = |ply| worded(captions, &Caption::ReplayFrame { game, ply });
                let gif = crate::render::replay_gif(game, &caption);
                Ok((loaded.info, gif))
            })
            .await?
    }
}
