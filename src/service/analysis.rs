//! Post-game analysis (`/tablut analysis`): a finished game's positions searched one at a time
//! as background work on the AI pool (served only when no move or hint waits), each result
//! stored as it is computed, so a restart resumes where it stopped and nothing is searched
//! twice. The channel sees the progress (one message, edited every few moves) and then the
//! summary with the evaluation graph, all through the outbox, each written in the transaction
//! that records the step it tells of. Asking again shows the stored result at once.

use super::core::Core;
use super::error::ServiceError;
use super::heavy::QueuePlace;
use super::news::News;
use super::notice::{GraphRef, Payload};
pub use super::stored::analysis::AnalysisSettings;
use super::stored::analysis::{self as stored_analysis, StoredAnalysis, StoredEval};
use super::stored::games::{self as stored_games, rebuild, LoadedGame, StoredGame};
use super::types::{graph_labels, Caption, ChannelId, GameId, GameInfo, UserId};
pub use super::types::{AnalysisSummary, CostlyMove, SideSummary, WORST_PER_SIDE};
use crate::ai::analysis::{self, Evaluation, Judgement, Review};
use crate::ai::pool::Pool;
use crate::ai::queue::Class;
use crate::ai::Limits;
use crate::render::graph::{evaluation_graph, GraphInput, GraphLabels, Mark};
use crate::store::analysis::{self as rows, NewAnalysis};
use crate::tafl::Game;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The progress message is edited after every this many moves reviewed.
pub const PROGRESS_EVERY: u32 = 10;
/// Finished games offered by the autocomplete.
pub const GAMES_LISTED: i64 = 25;

/// One step's searches before they are recorded: every evaluation as it will be stored, how
/// many there were before the step and after it, the game's moves, and, once every position is
/// searched, the summary.
struct Searched {
    json: String,
    before: usize,
    after: usize,
    total: u32,
    summary: Option<AnalysisSummary>,
}

/// A finished analysis.
#[derive(Debug, Clone)]
pub struct AnalysisReport {
    pub game: GameInfo,
    pub review: Review,
    /// The evaluation graph (empty when images are off).
    pub png: Vec<u8>,
}

/// Where a game's analysis stands, as `/tablut analysis` answers.
#[derive(Debug, Clone)]
pub enum AnalysisStatus {
    /// Just started: `total` moves to review; the channel will see the progress.
    Started { game: GameInfo, total: u32 },
    /// Under way.
    Running {
        game: GameInfo,
        reviewed: u32,
        total: u32,
    },
    /// Finished: the stored result.
    Finished(Box<AnalysisReport>),
}

/// What one step of an analysis did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// One more position reviewed and recorded (`done` of `positions`).
    Reviewed { done: u32, positions: u32 },
    /// Another worker recorded this position first; nothing written.
    Raced,
    /// The analysis is finished (by this step or before it).
    Finished,
}

impl AnalysisReport {
    /// What the summary tells of this analysis.
    pub fn summary(&self) -> AnalysisSummary {
        AnalysisSummary::new(&self.game, &self.review)
    }
}

/// What a process keeps of the analyses: the ones it drives now, and how many positions it
/// searched for them.
#[derive(Default)]
pub(crate) struct Analyses {
    /// The games whose analysis this process is driving now.
    running: Mutex<HashSet<GameId>>,
    /// Positions searched for analyses (each once).
    pub(crate) searches: AtomicU64,
}

/// The post-game analyses (`Service::analysis`): asked for, driven one position at a time,
/// shown.
#[derive(Clone, Copy)]
pub struct Analysis<'a> {
    core: &'a Core,
    /// The AI's workers, where each position is searched as background work.
    pool: &'a Pool,
    analyses: &'a Analyses,
}

/// A request for an analysis that [`Analysis::prepare`] took: its game, and its place in the
/// heavy-work queue (given back when dropped).
pub struct AnalysisRequest {
    channel: ChannelId,
    user: Option<UserId>,
    row: StoredGame,
    place: QueuePlace,
}

impl<'a> Analysis<'a> {
    pub(crate) fn new(core: &'a Core, pool: &'a Pool, analyses: &'a Analyses) -> Analysis<'a> {
        Analysis {
            core,
            pool,
            analyses,
        }
    }
}

impl Analysis<'_> {
    /// The settings a new analysis is searched with.
    fn settings(&self) -> AnalysisSettings {
        let config = &self.core.config;
        AnalysisSettings {
            ms_per_ply: match config.analysis_depth {
                Some(_) => None,
                None => Some(config.analysis_time.as_millis() as u64),
            },
            depth: config.analysis_depth,
            scale: analysis::DEFAULT_SCALE,
        }
    }

    /// A channel's finished games, newest first (for the autocomplete). Each is played
    /// through again: heavy work, done off the runtime (`Core::heavy`), refused when
    /// the heavy-work queue is full ([`ServiceError::Busy`]; no cooldown: Discord asks at
    /// every key typed).
    pub async fn finished_games(&self, channel: ChannelId) -> Result<Vec<GameInfo>, ServiceError> {
        let place = self.core.costly_place(None)?;
        let mut stored = Vec::new();
        for id in
            rows::finished_games_in_channel(self.core.store.read(), channel, GAMES_LISTED).await?
        {
            if let Some(row) = stored_games::by_id(self.core.store.read(), id).await? {
                stored.push((
                    row,
                    stored_games::moves_of(self.core.store.read(), id).await?,
                ));
            }
        }
        self.core.heavy(&place, move || {
            stored
                .into_iter()
                .filter_map(|(row, moves)| {
                    let id = row.id();
                    match rebuild(row, moves.iter().map(String::as_str)) {
                        Ok(loaded) => Some(loaded.info),
                        Err(e) => {
                            tracing::error!(game = id, error = ?e, "cannot rebuild the game: skipped");
                            None
                        }
                    }
                })
                .collect()
        })
        .await
    }

    /// `/tablut analysis`: game `id` of this channel (by default its last finished game). A
    /// finished analysis is shown at once; one under way says how far it got; otherwise it is
    /// started, with its progress message written to the outbox in the same transaction. The
    /// caller then drives it with [`Analysis::run`].
    pub async fn request(
        &self,
        channel: ChannelId,
        id: Option<GameId>,
        user: Option<UserId>,
    ) -> Result<AnalysisStatus, ServiceError> {
        let request = self.prepare(channel, id, user).await?;
        self.start(request).await
    }

    /// [`Analysis::request`]'s refusals, without a write: game `id` (by default the last) is
    /// one of the channel's finished games, with moves to review, and (`user`'s request, then
    /// counted) the heavy-work queue has room and the user's cooldown is over. The bot asks
    /// before it acknowledges the command, so that a refusal is answered at once, privately;
    /// [`Analysis::start`] goes on.
    pub async fn prepare(
        &self,
        channel: ChannelId,
        id: Option<GameId>,
        user: Option<UserId>,
    ) -> Result<AnalysisRequest, ServiceError> {
        let row = self.finished(channel, id).await?;
        if row.ply() == 0 {
            return Err(ServiceError::NothingToReview(row.id()));
        }
        // The game is one of the channel's finished ones: the request is valid, and counts.
        let place = self.core.costly_place(user)?;
        Ok(AnalysisRequest {
            channel,
            user,
            row,
            place,
        })
    }

    /// Goes on with a request [`Analysis::prepare`] took: see [`Analysis::request`].
    pub async fn start(&self, request: AnalysisRequest) -> Result<AnalysisStatus, ServiceError> {
        let AnalysisRequest {
            channel,
            user,
            row,
            place,
        } = request;
        let loaded = self.core.load_blocking(row, &place).await?;
        let total = loaded.game.moves().len() as u32;
        if total == 0 {
            return Err(ServiceError::NothingToReview(loaded.info.id));
        }
        if let Some(stored) =
            stored_analysis::of_game(self.core.store.read(), loaded.info.id).await?
        {
            return self.status_of(loaded, stored, &place).await;
        }
        let settings = self.settings().json();
        let progress = Payload::news(News::AnalysisProgress {
            game: loaded.info.clone(),
            reviewed: 0,
            total,
        });
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let notice = self
            .core
            .notice(channel, "analysis_progress", &progress)
            .write(&mut tx, now)
            .await?
            .id;
        let inserted = rows::insert(
            &mut *tx,
            &NewAnalysis {
                game_id: loaded.info.id,
                channel_id: channel,
                requested_by: user,
                plies: i64::from(total),
                settings: &settings,
                progress_notice: Some(notice),
                now,
            },
        )
        .await;
        match inserted {
            Ok(()) => {
                self.core.commit_noticed(tx, notice).await?;
                Ok(AnalysisStatus::Started {
                    game: loaded.info,
                    total,
                })
            }
            // Asked twice at once: the other request started it.
            Err(e) if e.is_unique_violation("analyses") => {
                drop(tx);
                let stored = stored_analysis::of_game(self.core.store.read(), loaded.info.id)
                    .await?
                    .ok_or_else(|| ServiceError::Internal("the analysis vanished".into()))?;
                self.status_of(loaded, stored, &place).await
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Game `id` of `channel` (by default its last finished game), if it is finished.
    async fn finished(
        &self,
        channel: ChannelId,
        id: Option<GameId>,
    ) -> Result<StoredGame, ServiceError> {
        Ok(match id {
            Some(id) => stored_games::by_id(self.core.store.read(), id)
                .await?
                .filter(|r| r.channel() == channel && r.is_finished())
                .ok_or(ServiceError::NotAFinishedGame(id))?,
            None => {
                let id = rows::finished_games_in_channel(self.core.store.read(), channel, 1)
                    .await?
                    .into_iter()
                    .next()
                    .ok_or(ServiceError::NoFinishedGame)?;
                stored_games::by_id(self.core.store.read(), id)
                    .await?
                    .ok_or(ServiceError::NoFinishedGame)?
            }
        })
    }

    async fn status_of(
        &self,
        loaded: LoadedGame,
        stored: StoredAnalysis,
        place: &QueuePlace,
    ) -> Result<AnalysisStatus, ServiceError> {
        let total = stored.plies() as u32;
        if !stored.is_finished() {
            return Ok(AnalysisStatus::Running {
                game: loaded.info,
                reviewed: (stored.done() as u32).saturating_sub(1),
                total,
            });
        }
        let (review, loaded) = self.review_blocking(loaded, stored, place).await?;
        let png = self.graph_png(&loaded.info, &review, place).await?;
        Ok(AnalysisStatus::Finished(Box::new(AnalysisReport {
            game: loaded.info,
            review,
            png,
        })))
    }

    /// A finished analysis of game `id`, with its graph; `None` if it is not finished.
    pub async fn report(&self, id: GameId) -> Result<Option<AnalysisReport>, ServiceError> {
        let Some(stored) = stored_analysis::of_game(self.core.store.read(), id).await? else {
            return Ok(None);
        };
        if !stored.is_finished() {
            return Ok(None);
        }
        let row = stored_games::by_id(self.core.store.read(), id)
            .await?
            .ok_or(ServiceError::NoGame)?;
        // For a notice's graph: background work, which waits its turn.
        let place = self.core.gate.background_place();
        let loaded = self.core.load_blocking(row, &place).await?;
        let (review, loaded) = self.review_blocking(loaded, stored, &place).await?;
        let png = self.graph_png(&loaded.info, &review, &place).await?;
        Ok(Some(AnalysisReport {
            game: loaded.info,
            review,
            png,
        }))
    }

    /// The evaluation graph a notice carries, drawn from the stored analysis.
    pub async fn graph(&self, graph: &GraphRef) -> Result<Vec<u8>, ServiceError> {
        Ok(self
            .report(graph.game)
            .await?
            .map(|r| r.png)
            .unwrap_or_default())
    }

    /// The review of a loaded game from its stored analysis, worked out off the runtime.
    async fn review_blocking(
        &self,
        loaded: LoadedGame,
        stored: StoredAnalysis,
        place: &QueuePlace,
    ) -> Result<(Review, LoadedGame), ServiceError> {
        self.core
            .heavy(place, move || {
                stored_analysis::review(&loaded.game, &stored).map(|review| (review, loaded))
            })
            .await?
    }

    async fn graph_png(
        &self,
        game: &GameInfo,
        review: &Review,
        place: &QueuePlace,
    ) -> Result<Vec<u8>, ServiceError> {
        if !self.core.config.images {
            return Ok(Vec::new());
        }
        let mut input = graph_input(
            review,
            self.core.caption(&Caption::Graph(game)),
            graph_labels(self.core.captions),
        );
        if !game.variant().is_tablut() {
            // Raichi and tuichu are Linnaeus' calls: Tablut's alone.
            input.calls.clear();
        }
        self.core
            .heavy(place, move || evaluation_graph(&input).png)
            .await
    }

    /// The games whose analysis is unfinished (after a restart, the sweep resumes them).
    pub async fn unfinished(&self) -> Result<Vec<GameId>, ServiceError> {
        Ok(rows::unfinished(self.core.store.read()).await?)
    }

    /// Whether game `id`'s analysis is being driven in this process now.
    pub fn running(&self, id: GameId) -> bool {
        self.analyses
            .running
            .lock()
            .expect("analyses")
            .contains(&id)
    }

    /// Drives game `id`'s analysis to its end, one position at a time; nothing if it is
    /// already being driven here. Whether this call finished it.
    pub async fn run(&self, id: GameId) -> Result<bool, ServiceError> {
        {
            let mut running = self.analyses.running.lock().expect("analyses");
            if !running.insert(id) {
                return Ok(false);
            }
        }
        struct Release<'a>(&'a Analyses, GameId);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.running.lock().expect("analyses").remove(&self.1);
            }
        }
        let _release = Release(self.analyses, id);
        loop {
            match self.step(id).await? {
                Step::Finished => return Ok(true),
                Step::Reviewed { .. } | Step::Raced => {}
            }
        }
    }

    /// One step of game `id`'s analysis: the next position searched (on the pool, as
    /// background work) and recorded, with a progress notice every [`PROGRESS_EVERY`] moves;
    /// after the last, the analysis finished with its summary and graph in the outbox, in the
    /// same transaction.
    pub async fn step(&self, id: GameId) -> Result<Step, ServiceError> {
        let stored = stored_analysis::of_game(self.core.store.read(), id)
            .await?
            .ok_or_else(|| ServiceError::Internal(format!("game {id} has no analysis")))?;
        if stored.is_finished() {
            return Ok(Step::Finished);
        }
        let mut evals = stored_analysis::evaluations(&stored)?;
        let before = evals.len();
        let loaded = self.search_next(&stored, &mut evals).await?;
        let json = stored_analysis::evaluations_json(&evals);
        let total = loaded.game.moves().len() as u32;
        // The summary, worked out before the transaction that writes it (with the analysis
        // marked finished) opens.
        let summary = if evals.len() == total as usize + 1 {
            Some(self.summary(&loaded, &stored, &json).await?)
        } else {
            None
        };
        let searched = Searched {
            json,
            before,
            after: evals.len(),
            total,
            summary,
        };
        self.record_step(&stored, &loaded.info, searched).await
    }

    /// The game of `stored`'s analysis, and the search of its next position pushed onto
    /// `evals` (none for a position where the game is over; nothing once every position is
    /// searched). The game and that position (as a game of its own) are played through on a
    /// blocking thread: one game at a time, never every position at once.
    async fn search_next(
        &self,
        stored: &StoredAnalysis,
        evals: &mut Vec<Option<StoredEval>>,
    ) -> Result<LoadedGame, ServiceError> {
        let id = stored.game();
        let settings = stored_analysis::settings(stored)?;
        let row = stored_games::by_id(self.core.store.read(), id)
            .await?
            .ok_or(ServiceError::NoGame)?;
        let done = evals.len();
        let moves = stored_games::moves_of(self.core.store.read(), id).await?;
        // Background work: it waits its turn in the heavy-work queue (its place given back
        // while the AI searches).
        let (loaded, next) = self
            .core
            .heavy(&self.core.gate.background_place(), move || {
                let loaded = rebuild(row, moves.iter().map(String::as_str))?;
                let next = (done <= loaded.game.moves().len())
                    .then(|| analysis::prefix(&loaded.game, done));
                Ok::<_, ServiceError>((loaded, next))
            })
            .await??;
        if let Some(next) = next {
            let eval = if next.outcome().is_over() {
                None
            } else {
                Some(self.evaluate_on_pool(next, settings.limits()).await?)
            };
            evals.push(eval.as_ref().map(StoredEval::from));
        }
        Ok(loaded)
    }

    /// What the summary of `loaded`'s analysis tells, every position searched (`json`, as it
    /// will be stored): its review, worked out off the runtime.
    async fn summary(
        &self,
        loaded: &LoadedGame,
        stored: &StoredAnalysis,
        json: &str,
    ) -> Result<AnalysisSummary, ServiceError> {
        let finished = stored.with_evaluations(json);
        let game = loaded.game.clone();
        let review = self
            .core
            .heavy(&self.core.gate.background_place(), move || {
                stored_analysis::review(&game, &finished)
            })
            .await??;
        Ok(AnalysisSummary::new(&loaded.info, &review))
    }

    /// Records a step of `stored`'s analysis of `game` in one transaction: its evaluations
    /// (unless another worker recorded this position first: [`Step::Raced`]) and, every
    /// [`PROGRESS_EVERY`] moves, the progress notice; with the summary, the analysis finished,
    /// its last progress and its summary (with the graph) in the outbox.
    async fn record_step(
        &self,
        stored: &StoredAnalysis,
        game: &GameInfo,
        searched: Searched,
    ) -> Result<Step, ServiceError> {
        let Searched {
            json,
            before,
            after,
            total,
            summary,
        } = searched;
        let (id, channel) = (stored.game(), stored.channel());
        let positions = total as usize + 1;
        let reviewed = (after as u32).saturating_sub(1);
        let mut tx = self.core.store.write().await?;
        if before < positions && !rows::record(&mut *tx, id, before as i64, &json).await? {
            return Ok(Step::Raced);
        }
        let progress = |reviewed: u32| Payload {
            edit_notice: stored.progress_notice(),
            ..Payload::news(News::AnalysisProgress {
                game: game.clone(),
                reviewed,
                total,
            })
        };
        if let Some(summary) = summary {
            let now = self.core.database_now_on(&mut tx).await?;
            if !rows::finish(&mut *tx, id, now).await? {
                return Ok(Step::Finished);
            }
            let last = progress(total);
            (self.core)
                .notice(channel, "analysis_progress", &last)
                .write(&mut tx, now)
                .await?;
            let summary = Payload {
                graph: Some(GraphRef { game: id }),
                ..Payload::news(News::AnalysisSummary(summary))
            };
            let told = (self.core)
                .notice(channel, "analysis", &summary)
                .write(&mut tx, now)
                .await?
                .id;
            self.core.commit_noticed(tx, told).await?;
            return Ok(Step::Finished);
        }
        if reviewed > 0 && reviewed.is_multiple_of(PROGRESS_EVERY) {
            let p = progress(reviewed);
            let now = self.core.database_now_on(&mut tx).await?;
            let told = (self.core)
                .notice(channel, "analysis_progress", &p)
                .write(&mut tx, now)
                .await?
                .id;
            self.core.commit_noticed(tx, told).await?;
        } else {
            tx.commit().await?;
        }
        Ok(Step::Reviewed {
            done: after as u32,
            positions: positions as u32,
        })
    }

    /// Searches a position on the AI pool as background work (served only when no move or
    /// hint waits).
    async fn evaluate_on_pool(
        &self,
        game: Game,
        limits: Limits,
    ) -> Result<Evaluation, ServiceError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.pool
            .submit_evaluation(0, Class::Background, game, limits, move |a| {
                let _ = tx.send(a);
            });
        let found = rx
            .await
            .map_err(|_| ServiceError::Internal("the AI pool stopped".into()))?
            .map_err(|e| ServiceError::Internal(e.to_string()))?
            .ok_or_else(|| ServiceError::Internal("an undecided position had no move".into()))?;
        self.analyses.searches.fetch_add(1, Ordering::SeqCst);
        Ok(Evaluation::from(&found))
    }
}

/// What the evaluation graph shows of a game's review: the curve, the costly moves marked,
/// the calls, under `title`, labelled with `labels`.
pub fn graph_input(review: &Review, title: String, labels: GraphLabels) -> GraphInput {
    GraphInput {
        curve: review.curve.clone(),
        marks: review
            .moves
            .iter()
            .filter_map(|m| Some((m.ply, graph_mark(m.judgement)?)))
            .collect(),
        calls: review.calls.clone(),
        title,
        labels,
    }
}

/// The graph's mark for a move so judged: none for a good move.
pub fn graph_mark(judgement: Judgement) -> Option<Mark> {
    match judgement {
        Judgement::Good => None,
        Judgement::Inaccuracy => Some(Mark::Inaccuracy),
        Judgement::Mistake => Some(Mark::Mistake),
        Judgement::Blunder => Some(Mark::Blunder),
    }
}
