//! The gate every piece of heavy work the service does off the runtime goes through (board
//! images, replays, games played through for an analysis or a list, evaluation graphs): at
//! most `workers` of them run at once, on tokio's blocking threads, rather than as many as
//! users ask for (tokio would start up to 512 threads, each holding its work's memory).
//!
//! Two kinds of work share the workers:
//!
//! - a **board** (the PNG a move, a board or a puzzle answers with: milliseconds) takes any
//!   free worker, and waits only for other boards;
//! - **costly** work (a replay, an analysis's play-through, review or graph, the analysis
//!   autocomplete's list: up to seconds) takes at most all the workers but one (one, with two
//!   workers or fewer), so that a board never waits behind replays. Costly work waits its turn
//!   in a queue of at most `queue_limit` jobs (those running included); a user's request
//!   beyond it is refused at once with [`ServiceError::Busy`], before anything is drawn.
//!   Background work (analyses driven by the bot, their notices) always waits its turn.
//!
//! The AI's searches have their own pool ([`crate::ai::pool`]): a replay never delays a move
//! of the AI, nor a search a replay.

use super::error::ServiceError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Costly jobs that may wait (running ones included) by default: a few per worker, so that a
/// burst of requests is served in turn while what waits stays small (a game's moves each).
pub const DEFAULT_QUEUE_LIMIT: usize = 32;

/// The workers heavy work runs on by default: the machine's cores, and at least two (one for
/// boards, one for costly work).
pub fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2)
}

/// The gate (see the module's documentation). Cheap to share.
#[derive(Clone)]
pub struct Heavy {
    inner: Arc<Inner>,
}

struct Inner {
    workers: usize,
    /// One permit per worker: every job holds one while it runs.
    all: Semaphore,
    /// All the workers but one (at least one): a costly job holds one before it takes a worker.
    costly: Semaphore,
    costly_permits: usize,
    queue_limit: usize,
    /// Costly jobs waiting or running now, and the most there ever were at once.
    queued: AtomicUsize,
    peak_queued: AtomicUsize,
    /// Jobs running now, and the most there ever were at once.
    running: AtomicUsize,
    peak_running: AtomicUsize,
    /// Costly jobs running now, and the most there ever were at once.
    running_costly: AtomicUsize,
    peak_running_costly: AtomicUsize,
}

/// A costly job's place in the queue, taken before it waits: dropped, the place is given back.
pub struct QueuePlace {
    inner: Arc<Inner>,
}

impl Drop for QueuePlace {
    fn drop(&mut self) {
        self.inner.queued.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Heavy {
    /// `workers` workers (at least one) and at most `queue_limit` costly jobs queued (at least
    /// one).
    pub fn new(workers: usize, queue_limit: usize) -> Heavy {
        let workers = workers.max(1);
        let costly_permits = workers.saturating_sub(1).max(1);
        Heavy {
            inner: Arc::new(Inner {
                workers,
                all: Semaphore::new(workers),
                costly: Semaphore::new(costly_permits),
                costly_permits,
                queue_limit: queue_limit.max(1),
                queued: AtomicUsize::new(0),
                peak_queued: AtomicUsize::new(0),
                running: AtomicUsize::new(0),
                peak_running: AtomicUsize::new(0),
                running_costly: AtomicUsize::new(0),
                peak_running_costly: AtomicUsize::new(0),
            }),
        }
    }

    /// Takes a place in the costly queue for a user's request: refused with
    /// [`ServiceError::Busy`] if the queue is full. Take it before answering that the work
    /// is under way, so that a refusal can still be a private line.
    pub fn place(&self) -> Result<QueuePlace, ServiceError> {
        let inner = &self.inner;
        let mut queued = inner.queued.load(Ordering::SeqCst);
        loop {
            if queued >= inner.queue_limit {
                return Err(ServiceError::Busy(queued));
            }
            match inner.queued.compare_exchange(
                queued,
                queued + 1,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => break,
                Err(now) => queued = now,
            }
        }
        inner.peak_queued.fetch_max(queued + 1, Ordering::SeqCst);
        Ok(QueuePlace {
            inner: inner.clone(),
        })
    }

    /// A place in the queue for costly work the bot does on its own (an analysis it drives, a
    /// notice's graph): never refused, it waits its turn.
    pub fn background_place(&self) -> QueuePlace {
        let queued = self.inner.queued.fetch_add(1, Ordering::SeqCst) + 1;
        self.inner.peak_queued.fetch_max(queued, Ordering::SeqCst);
        QueuePlace {
            inner: self.inner.clone(),
        }
    }

    /// Runs costly `work` on a blocking thread once a costly worker is free, for a job that
    /// holds its place in the queue (one place may serve several steps, one after the other).
    pub async fn run_costly<R: Send + 'static>(
        &self,
        _place: &QueuePlace,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ServiceError> {
        let _costly = self.inner.costly.acquire().await.map_err(closed)?;
        self.run_now(true, work).await
    }

    /// Runs a board image's drawing on a blocking thread once any worker is free.
    pub async fn run_board<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ServiceError> {
        self.run_now(false, work).await
    }

    async fn run_now<R: Send + 'static>(
        &self,
        costly: bool,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ServiceError> {
        let _worker = self.inner.all.acquire().await.map_err(closed)?;
        let inner = self.inner.clone();
        let running = inner.running.fetch_add(1, Ordering::SeqCst) + 1;
        inner.peak_running.fetch_max(running, Ordering::SeqCst);
        if costly {
            let n = inner.running_costly.fetch_add(1, Ordering::SeqCst) + 1;
            inner.peak_running_costly.fetch_max(n, Ordering::SeqCst);
        }
        // Counted down on the blocking thread itself, so that the counts hold even if this
        // future is dropped while the work runs (the thread runs it to its end regardless).
        let out = tokio::task::spawn_blocking(move || {
            struct CountDown(Arc<Inner>, bool);
            impl Drop for CountDown {
                fn drop(&mut self) {
                    self.0.running.fetch_sub(1, Ordering::SeqCst);
                    if self.1 {
                        self.0.running_costly.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            }
            let _counted = CountDown(inner, costly);
            work()
        })
        .await?;
        Ok(out)
    }

    /// What the gate holds now and the most it ever held.
    pub fn stats(&self) -> HeavyStats {
        let i = &self.inner;
        HeavyStats {
            workers: i.workers,
            costly_workers: i.costly_permits,
            queue_limit: i.queue_limit,
            queued: i.queued.load(Ordering::SeqCst),
            peak_queued: i.peak_queued.load(Ordering::SeqCst),
            running: i.running.load(Ordering::SeqCst),
            peak_running: i.peak_running.load(Ordering::SeqCst),
            peak_running_costly: i.peak_running_costly.load(Ordering::SeqCst),
        }
    }
}

/// The gate's counts ([`Heavy::stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeavyStats {
    pub workers: usize,
    pub costly_workers: usize,
    pub queue_limit: usize,
    pub queued: usize,
    pub peak_queued: usize,
    pub running: usize,
    pub peak_running: usize,
    pub peak_running_costly: usize,
}

fn closed(_: tokio::sync::AcquireError) -> ServiceError {
    ServiceError::Internal("the heavy-work gate is closed".into())
}

#[cfg(test)]
mod tests {
    use super::{Heavy, HeavyStats, ServiceError};
    use std::sync::mpsc;
    use std::time::Duration;

    /// A job that runs until told to end, saying when it started.
    fn held(
        started: tokio::sync::mpsc::UnboundedSender<u32>,
        n: u32,
    ) -> (mpsc::Sender<()>, impl FnOnce() -> u32 + Send + 'static) {
        let (end, wait) = mpsc::channel::<()>();
        (end, move || {
            started.send(n).unwrap();
            wait.recv_timeout(Duration::from_secs(60)).ok();
            n
        })
    }

    /// Polls the gate's counts until `ready` holds (a generous deadline).
    async fn until(heavy: &Heavy, ready: impl Fn(&HeavyStats) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while !ready(&heavy.stats()) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{:?}",
                heavy.stats()
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn costly_work_leaves_a_worker_for_boards_and_a_full_queue_refuses() {
        let heavy = Heavy::new(2, 3);
        let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
        let mut ends = Vec::new();
        let mut jobs = Vec::new();
        for n in 0..3 {
            let (end, job) = held(started_tx.clone(), n);
            ends.push(end);
            let h = heavy.clone();
            jobs.push(tokio::spawn(async move {
                let place = h.place()?;
                h.run_costly(&place, job).await
            }));
        }
        // One costly job runs (two workers: one is kept for boards); the others wait.
        let first = started.recv().await.unwrap();
        until(&heavy, |s| s.queued == 3).await;
        // The queue is full: a fourth request is refused at once, a board still runs, and
        // background work waits its turn rather than being refused.
        assert!(matches!(heavy.place(), Err(ServiceError::Busy(3))));
        assert_eq!(heavy.run_board(|| 7).await.unwrap(), 7);
        let h = heavy.clone();
        let background = tokio::spawn(async move {
            let place = h.background_place();
            h.run_costly(&place, || 8).await
        });
        until(&heavy, |s| s.queued == 4).await;
        assert_eq!(heavy.stats().running, 1, "{:?}", heavy.stats());
        // Let them go one at a time: each starts only once the one before ended.
        let mut order = vec![first];
        ends[first as usize].send(()).unwrap();
        for _ in 0..2 {
            let next = started.recv().await.unwrap();
            assert_eq!(heavy.stats().peak_running_costly, 1);
            order.push(next);
            ends[next as usize].send(()).unwrap();
        }
        order.sort();
        assert_eq!(order, vec![0, 1, 2]);
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(background.await.unwrap().unwrap(), 8);
        until(&heavy, |s| s.queued == 0 && s.running == 0).await;
        let stats = heavy.stats();
        assert_eq!((stats.peak_running_costly, stats.peak_queued), (1, 4));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn boards_use_every_worker_and_no_more() {
        let heavy = Heavy::new(3, 8);
        let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
        let mut ends = Vec::new();
        let mut jobs = Vec::new();
        for n in 0..5 {
            let (end, job) = held(started_tx.clone(), n);
            ends.push(end);
            let h = heavy.clone();
            jobs.push(tokio::spawn(async move { h.run_board(job).await }));
        }
        for _ in 0..3 {
            started.recv().await.unwrap();
        }
        assert_eq!(heavy.stats().running, 3);
        for end in ends {
            end.send(()).unwrap();
        }
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(heavy.stats().peak_running, 3);
        assert_eq!(Heavy::new(2, 1).stats().costly_workers, 1);
        assert_eq!(Heavy::new(1, 1).stats().costly_workers, 1);
        assert_eq!(Heavy::new(8, 1).stats().costly_workers, 7);
    }
}
