//! Playing: moves, the AI's replies, resignations, draw offers and aborts; and the games part
//! of the service ([`Games`]), whose calls are here and in challenge.rs (challenges and games
//! against the AI started), view.rs (boards, records, replays, stats, leaderboards) and gone.rs
//! (what follows when a channel or a server is gone).

use super::ai::Ai;
use super::commit::Announce;
use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::notice::{Answer, Answered, Buttons, Payload};
use super::stored::draws::{self as stored_draws, StoredDrawOffer};
use super::stored::games::LoadedGame;
use super::types::{
    ChannelId, DrawDecision, Ended, GameId, GameInfo, MoveReport, NoticeId, UserId,
};
use crate::store::{draws, DrawStatus};
use crate::tafl::{MoveError, Outcome, Position, Reason};

/// Games and challenges (`Service::games`): every use case of people playing, over the
/// shared `Core`, with the AI's part for the room in its queue and its limits on games.
#[derive(Clone, Copy)]
pub struct Games<'a> {
    pub(super) core: &'a Core,
    pub(super) ai: Ai<'a>,
}

impl<'a> Games<'a> {
    pub(crate) fn new(core: &'a Core, ai: Ai<'a>) -> Games<'a> {
        Games { core, ai }
    }
}

impl Games<'_> {
    /// `user` plays the move `text` in the channel's game. Refused: no game, not a player, not
    /// their turn, an illegal move (with the engine's reason), or another move landed first.
    /// Against the AI, follow with [`Ai::turn`]. From an interaction that will answer
    /// with the move, the move's notice remembers where (`answer`), so that the dispatcher shows
    /// the move by the same edit if the handler does not record it shown. The report comes with
    /// the move's notice as its commit wrote it, for the handler to show it (the news the report
    /// tells, held for that answer unless the channel owed news meanwhile) without reading it
    /// back.
    pub async fn play_move(
        self,
        channel: ChannelId,
        user: UserId,
        text: &str,
        answer: Answer,
    ) -> Result<Answered<MoveReport>, ServiceError> {
        let loaded = self.moved(channel, user, text).await?;
        let (report, notice) = self.core.commit_move(loaded, Some(user), answer).await?;
        Ok(Answered::with(report, Some(notice)))
    }

    /// Checks, reading only, that [`Games::play_move`] would play `text` for `user` now: its
    /// refusals that need no write (no game, not a player, not their turn, an illegal move, the
    /// AI's queue full), so that the bot answers them before it acknowledges the command. A
    /// move that passes is refused by the commit only if another change lands first.
    pub async fn check_move(
        self,
        channel: ChannelId,
        user: UserId,
        text: &str,
    ) -> Result<(), ServiceError> {
        self.moved(channel, user, text).await.map(drop)
    }

    /// The channel's game with `user`'s move `text` played on it, unless refused.
    async fn moved(
        self,
        channel: ChannelId,
        user: UserId,
        text: &str,
    ) -> Result<LoadedGame, ServiceError> {
        let mut loaded = self.core.active(channel).await?;
        let side = loaded.info.side_of(user).ok_or(ServiceError::NotAPlayer)?;
        if loaded.info.is_over() {
            return Err(ServiceError::GameOver);
        }
        if side != loaded.info.turn {
            return Err(ServiceError::NotYourTurn(loaded.info.turn));
        }
        loaded.game.play_text(text).map_err(illegal)?;
        if loaded.info.player(side.other()).is_ai() {
            // The AI's reply will need a place in its queue.
            self.ai.room()?;
        }
        Ok(loaded)
    }

    /// Checks, reading only, that [`Games::resign`] would end the game for `user` now (the bot
    /// answers a refusal before it acknowledges the command).
    pub async fn check_resign(self, channel: ChannelId, user: UserId) -> Result<(), ServiceError> {
        let loaded = self.core.active(channel).await?;
        loaded.info.side_of(user).ok_or(ServiceError::NotAPlayer)?;
        Ok(())
    }

    /// `user` resigns the channel's game: the opponent wins. The ending's notice is held for
    /// the interaction that will answer with it (`answer`; none: it is posted in the
    /// channel once the hold is over), and returned as written, for the handler to show.
    pub async fn resign(
        self,
        channel: ChannelId,
        user: UserId,
        answer: Option<Answer>,
    ) -> Result<Answered<Ended>, ServiceError> {
        let answer = answer.unwrap_or_default();
        let loaded = self.core.active(channel).await?;
        let side = loaded.info.side_of(user).ok_or(ServiceError::NotAPlayer)?;
        self.core
            .commit_end(
                loaded,
                Outcome::Won {
                    winner: side.other(),
                    reason: Reason::Resigned,
                },
                Announce::Held {
                    by: Some(user),
                    answer,
                },
            )
            .await
    }

    /// `user` offers a draw; the opponent answers with [`Games::respond_to_draw`]. The AI
    /// declines at once. From a command that answers with the offer and its buttons
    /// (`answer`), the offer is also written to the outbox in the same transaction, held for
    /// that answer (its notice returned, as written, for the handler to show).
    pub async fn offer_draw(
        self,
        channel: ChannelId,
        user: UserId,
        answer: Option<Answer>,
    ) -> Result<Answered<(GameInfo, Option<NoticeId>)>, ServiceError> {
        let loaded = self.draw_offerable(channel, user).await?;
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let offer = draws::insert(&mut *tx, loaded.info.id, loaded.info.ply, user, now)
            .await
            .map_err(ServiceError::unless_taken(
                "draw_offers",
                ServiceError::DrawOfferOpen,
            ))?;
        let notice = match answer {
            Some(answer) => {
                let grace = self.core.delivery.answer_grace;
                let (answer, hold) = self.core.in_order(&mut tx, channel, answer, grace).await?;
                let payload = Payload {
                    buttons: Some(Buttons::Draw(loaded.info.id)),
                    ..answer.payload(Payload::news(News::DrawOffered {
                        game: loaded.info.clone(),
                        by: user,
                    }))
                };
                Some(
                    self.core
                        .notice(channel, "draw_offer", &payload)
                        .held(hold)
                        .write(&mut tx, now)
                        .await?,
                )
            }
            None => None,
        };
        // Landed: this offer, open.
        let game = loaded.info.id;
        let landed = || async move {
            let open = stored_draws::open_in_game(self.core.store.read(), game).await?;
            Ok(open.is_some_and(|o| (o.id, o.offered_by) == (offer, user)))
        };
        let id = notice.as_ref().map(|n| n.id);
        self.core.commit_answered(tx, id, landed).await?;
        Ok(Answered::with((loaded.info, id), notice))
    }

    /// Checks, reading only, that [`Games::offer_draw`] would offer a draw for `user` now: a
    /// player, against a person, with no offer open (the bot answers a refusal before it
    /// acknowledges the command).
    pub async fn check_offer_draw(
        self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<(), ServiceError> {
        let loaded = self.draw_offerable(channel, user).await?;
        match stored_draws::open_in_game(self.core.store.read(), loaded.info.id).await? {
            Some(_) => Err(ServiceError::DrawOfferOpen),
            None => Ok(()),
        }
    }

    /// The channel's game, if `user` may offer a draw in it.
    async fn draw_offerable(
        self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<LoadedGame, ServiceError> {
        let loaded = self.core.active(channel).await?;
        let side = loaded.info.side_of(user).ok_or(ServiceError::NotAPlayer)?;
        if loaded.info.player(side.other()).is_ai() {
            return Err(ServiceError::AiDeclinesDraw);
        }
        Ok(loaded)
    }

    /// Checks, reading only, that `user` may answer the open draw offer of the channel's game
    /// `game` now ([`Games::respond_to_draw`]'s refusals that need no write).
    pub async fn check_respond_to_draw(
        self,
        channel: ChannelId,
        game: GameId,
        user: UserId,
    ) -> Result<(), ServiceError> {
        let loaded = match self.core.active(channel).await {
            Ok(loaded) if loaded.info.id == game => loaded,
            // A press on the buttons of a game that is over, or of an earlier game.
            Ok(_) | Err(ServiceError::GameOver | ServiceError::NoGame) => {
                return Err(ServiceError::NoDrawOffer)
            }
            Err(e) => return Err(e),
        };
        self.draw_respondable(loaded, user).await.map(drop)
    }

    /// The game `loaded` and its open draw offer, if `user` may answer it.
    async fn draw_respondable(
        self,
        loaded: LoadedGame,
        user: UserId,
    ) -> Result<(LoadedGame, StoredDrawOffer), ServiceError> {
        loaded.info.side_of(user).ok_or(ServiceError::NotAPlayer)?;
        let offer = stored_draws::open_in_game(self.core.store.read(), loaded.info.id)
            .await?
            .ok_or(ServiceError::NoDrawOffer)?;
        if offer.offered_by == user {
            return Err(ServiceError::OwnDrawOffer);
        }
        Ok((loaded, offer))
    }

    /// The opponent of the player who offered a draw accepts or declines it. From a button
    /// press whose answer shows the outcome (`answer`), the outcome is also written to the
    /// outbox in the same transaction, held for that answer (its notice returned, as written,
    /// for the handler to show).
    pub async fn respond_to_draw(
        self,
        channel: ChannelId,
        user: UserId,
        accept: bool,
        answer: Option<Answer>,
    ) -> Result<Answered<DrawDecision>, ServiceError> {
        let loaded = self.core.active(channel).await?;
        let (loaded, offer) = self.draw_respondable(loaded, user).await?;
        if accept {
            let announce = match answer {
                Some(answer) => Announce::Held { by: None, answer },
                None => Announce::Answer,
            };
            let outcome = Outcome::Drawn {
                reason: Reason::DrawAgreed,
            };
            // The offer is taken in the transaction that ends the game: a Decline that took it
            // first leaves the game running.
            let ended = self
                .core
                .commit_end_taking(loaded, outcome, announce, Some(offer.id))
                .await?;
            Ok(Answered::with(
                DrawDecision::Accepted(ended.done),
                ended.notice,
            ))
        } else {
            let mut tx = self.core.store.write().await?;
            // One conditional update of this offer: an Accept that took it first wins.
            let now = self.core.database_now_on(&mut tx).await?;
            if !draws::decide(&mut *tx, offer.id, DrawStatus::Declined, now).await? {
                return Err(ServiceError::NoDrawOffer);
            }
            let notice = match answer {
                Some(answer) => {
                    let news = News::DrawDeclined {
                        game: loaded.info.clone(),
                        by: user,
                    };
                    let payload = answer.payload(Payload::news(news));
                    let channel = loaded.info.place.channel;
                    let hold = self.core.delivery.answer_grace;
                    Some(
                        self.core
                            .notice(channel, "draw_declined", &payload)
                            .held(hold)
                            .write(&mut tx, now)
                            .await?,
                    )
                }
                None => None,
            };
            // Landed: the offer declined as this transaction declined it.
            let offer = offer.id;
            let landed = || async move {
                let read = self.core.store.read();
                draws::decided_at(read, offer, DrawStatus::Declined, now).await
            };
            let id = notice.as_ref().map(|n| n.id);
            self.core.commit_answered(tx, id, landed).await?;
            Ok(Answered::with(
                DrawDecision::Declined(loaded.info, id),
                notice,
            ))
        }
    }

    /// Aborts the channel's game: a player may before the second move, a moderator always.
    /// An aborted game is unrated. The ending's notice is held for the interaction that will
    /// answer with it and returned, as [`Games::resign`]'s.
    pub async fn abort(
        self,
        channel: ChannelId,
        user: UserId,
        moderator: bool,
        answer: Option<Answer>,
    ) -> Result<Answered<Ended>, ServiceError> {
        let answer = answer.unwrap_or_default();
        let loaded = self.abortable(channel, user, moderator).await?;
        self.core
            .commit_end(
                loaded,
                Outcome::Drawn {
                    reason: Reason::Aborted,
                },
                Announce::Held {
                    by: Some(user),
                    answer,
                },
            )
            .await
    }

    /// Checks, reading only, that [`Games::abort`] would abort the game for `user` now (the bot
    /// answers a refusal before it acknowledges the command).
    pub async fn check_abort(
        self,
        channel: ChannelId,
        user: UserId,
        moderator: bool,
    ) -> Result<(), ServiceError> {
        self.abortable(channel, user, moderator).await.map(drop)
    }

    /// The channel's game, if `user` may abort it.
    async fn abortable(
        self,
        channel: ChannelId,
        user: UserId,
        moderator: bool,
    ) -> Result<LoadedGame, ServiceError> {
        let loaded = self.core.active(channel).await?;
        let player = loaded.info.side_of(user).is_some();
        if !player && !moderator {
            return Err(ServiceError::NotAPlayer);
        }
        if !moderator && loaded.info.ply >= 2 {
            return Err(ServiceError::TooLateToAbort);
        }
        // A tournament's game is played out or resigned: aborting would undo a pairing.
        let read = self.core.store.read();
        if !moderator
            && crate::store::tournaments::game_of(read, loaded.info.id)
                .await?
                .is_some()
        {
            return Err(super::types::tournament::TournamentRefusal::TournamentGame.into());
        }
        Ok(loaded)
    }

    /// The moves `user` could play that match what they have typed, for autocomplete: up to
    /// `limit`, as `from-to`. A bare square lists the moves from it and to it. Empty when it is
    /// not their turn.
    pub async fn suggest_moves(
        self,
        channel: ChannelId,
        user: UserId,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, ServiceError> {
        let loaded = self.core.active(channel).await?;
        if loaded.info.side_of(user) != Some(loaded.info.turn) || loaded.info.is_over() {
            return Ok(Vec::new());
        }
        Ok(matching_moves(loaded.game.position(), typed, limit))
    }
}

/// A refused move as the player's error.
fn illegal(e: MoveError) -> ServiceError {
    match e {
        MoveError::Illegal(crate::tafl::IllegalMove::GameOver) => ServiceError::GameOver,
        e => ServiceError::IllegalMove(e),
    }
}

/// The legal moves of `pos` that match `typed`: a prefix of `from-to` (the dash optional,
/// any case), or a bare square: the moves from it and to it.
pub fn matching_moves(pos: &Position, typed: &str, limit: usize) -> Vec<String> {
    let key: String = typed
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let square = crate::tafl::Square::parse_on(&key, pos.variant().size()).ok();
    pos.legal_moves_sorted()
        .into_iter()
        .filter(|m| {
            square.is_some_and(|sq| m.from == sq || m.to == sq)
                || format!("{}{}", m.from, m.to).starts_with(&key)
        })
        .take(limit)
        .map(|m| m.to_string())
        .collect()
}
