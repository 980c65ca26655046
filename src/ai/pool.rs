//! A pool of AI workers: a fixed number of OS threads, each owning one searcher (one
//! transposition table) that it clears in O(1) and reuses from search to search, serving a
//! [`FairQueue`]. However many requests come, at most `workers` searches run and at most
//! `workers` tables exist. A search's time counts from when a worker takes it.
//!
//! The workers run at the operating system's idle priority ([`Priority::Idle`]): a person's
//! command takes a core from a search at once, and the AI gets whatever the bot leaves.
//!
//! Synchronous: a request's answer goes to a callback, run on the worker's thread.

use super::queue::{Class, FairQueue, Owner, Ticket};
use super::{choose_since, search_with, Level, Limits, SearchResult, Searcher, Weights};
use crate::tafl::Game;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What to search.
#[derive(Debug, Clone)]
pub struct Search {
    pub game: Game,
    pub level: Level,
    pub time: Duration,
}

/// A search that panicked (its worker starts again with a new table).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the AI's search failed: {0}")]
pub struct SearchFailed(pub String);

/// What a search found: the move (`None` when the game is over), or the failure.
pub type SearchFound = Result<Option<SearchResult>, SearchFailed>;

type Then = Box<dyn FnOnce(SearchFound) + Send>;

enum Work {
    /// The move the AI plays (or a hint).
    Search { search: Search, done: Then },
    /// A position searched with explicit limits (the post-game analysis).
    Evaluate {
        game: Game,
        limits: Limits,
        done: Then,
    },
    /// Other AI work (puzzle finding): run as it is, with no table.
    Task(Box<dyn FnOnce() + Send>),
}

struct Job {
    work: Work,
    /// Background work (served only when no move or hint waits).
    background: bool,
}

struct State {
    queue: FairQueue<Job>,
    running: usize,
    /// Background work running now: at most one less than the workers (with more than one),
    /// so a worker is always free for a move or a hint.
    background: usize,
    /// The most background work that ever ran at once (counted when a worker takes it, before
    /// it runs).
    peak_background: usize,
    closed: bool,
}

/// The scheduling priority of the pool's worker threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Priority {
    /// The lowest there is: Linux's `SCHED_IDLE` (or, where that is refused, nice 19). A
    /// worker runs only on a core that nothing else of normal priority wants, so a person's
    /// command (its answer, its board, the database) never waits behind a search; a search
    /// only gets less time in its budget when the machine is busy.
    #[default]
    Idle,
    /// The process's own priority: searches share the cores with everything else.
    Normal,
}

struct Shared {
    state: Mutex<State>,
    ready: Condvar,
    tt_mb: usize,
    workers: usize,
    /// Tables alive now, and the most there ever were.
    tables: AtomicUsize,
    peak_tables: AtomicUsize,
}

/// The pool. Dropping it stops the workers once their current search ends; requests still
/// waiting are dropped unanswered (their callbacks never run).
pub struct Pool {
    shared: Arc<Shared>,
    workers: usize,
}

impl Pool {
    /// `workers` threads (at least one) at `priority`, each with a table of `tt_mb` megabytes
    /// made at its first search.
    pub fn new(workers: usize, tt_mb: usize, priority: Priority) -> Pool {
        let workers = workers.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue: FairQueue::new(),
                running: 0,
                background: 0,
                peak_background: 0,
                closed: false,
            }),
            ready: Condvar::new(),
            tt_mb,
            workers,
            tables: AtomicUsize::new(0),
            peak_tables: AtomicUsize::new(0),
        });
        for i in 0..workers {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("ai-worker-{i}"))
                .spawn(move || {
                    lower(priority);
                    work(&shared)
                })
                .expect("the AI worker thread starts");
        }
        Pool { shared, workers }
    }

    /// Queues a search for `owner`; `done` gets its answer on a worker's thread.
    pub fn submit(
        &self,
        owner: Owner,
        class: Class,
        search: Search,
        done: impl FnOnce(SearchFound) + Send + 'static,
    ) -> Ticket {
        let done = Box::new(done);
        self.push(owner, class, Work::Search { search, done })
    }

    /// Queues a search of `game`'s position with explicit `limits` (its time counted from
    /// when a worker takes it; the table cleared first, so a depth or node limit gives the
    /// answer a fresh searcher would) for `owner`; `done` gets its answer on a worker's thread.
    pub fn submit_evaluation(
        &self,
        owner: Owner,
        class: Class,
        game: Game,
        limits: Limits,
        done: impl FnOnce(SearchFound) + Send + 'static,
    ) -> Ticket {
        let done = Box::new(done);
        self.push(owner, class, Work::Evaluate { game, limits, done })
    }

    fn push(&self, owner: Owner, class: Class, work: Work) -> Ticket {
        let background = class == Class::Background;
        let ticket = self
            .state()
            .queue
            .push(owner, class, Job { work, background });
        self.shared.ready.notify_one();
        ticket
    }

    /// Queues other AI work (pure CPU, such as proving puzzles) for `owner`, served as
    /// searches are: a background task waits while any move or hint does. A task that
    /// panics is dropped (whoever waits on it sees its sender dropped).
    pub fn submit_task(
        &self,
        owner: Owner,
        class: Class,
        task: impl FnOnce() + Send + 'static,
    ) -> Ticket {
        self.push(owner, class, Work::Task(Box::new(task)))
    }

    /// How many requests will be served before this one; `None` once a worker has it.
    pub fn ahead(&self, ticket: Ticket) -> Option<usize> {
        self.state().queue.ahead(ticket)
    }

    /// How many requests will be served before this one while it waits for a worker to be
    /// free; `None` once a worker has it, and while an idle worker is about to take it (see
    /// [`FairQueue::waiting_for_worker`]).
    pub fn waiting_for_worker(&self, ticket: Ticket) -> Option<usize> {
        let state = self.state();
        let free = self.workers.saturating_sub(state.running);
        state.queue.waiting_for_worker(ticket, free)
    }

    /// Withdraws a request no worker has taken yet (its callback never runs). False if a
    /// worker has it already (or had it).
    pub fn cancel(&self, ticket: Ticket) -> bool {
        self.state().queue.remove(ticket).is_some()
    }

    /// Play requests waiting for a worker.
    pub fn waiting(&self) -> usize {
        self.state().queue.waiting()
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.state().running
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The most tables the pool ever held at once (never more than its workers).
    pub fn peak_tables(&self) -> usize {
        self.shared.peak_tables.load(Ordering::SeqCst)
    }

    /// Background work running now (counted from when a worker takes it, before it runs),
    /// and the most that ever ran at once.
    #[cfg(test)]
    fn background(&self) -> (usize, usize) {
        let state = self.state();
        (state.background, state.peak_background)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.shared)
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let mut state = self.state();
        state.closed = true;
        // Unanswered: their callbacks are dropped, which their waiters see.
        while state.queue.pop().is_some() {}
        drop(state);
        self.shared.ready.notify_all();
    }
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    // A panic never happens while the lock is held (searches run outside it).
    shared.state.lock().unwrap_or_else(|e| e.into_inner())
}

/// A worker: takes the next request, searches it with its own searcher, answers, repeats.
fn work(shared: &Shared) {
    let mut searcher: Option<Searcher> = None;
    loop {
        let job = {
            let mut state = lock(shared);
            loop {
                if state.closed {
                    return;
                }
                let background_room = state.background + 1 < shared.workers || shared.workers == 1;
                let next = if background_room {
                    state.queue.pop()
                } else {
                    state.queue.pop_play()
                };
                if let Some((_, job)) = next {
                    state.running += 1;
                    state.background += usize::from(job.background);
                    state.peak_background = state.peak_background.max(state.background);
                    break job;
                }
                state = shared.ready.wait(state).unwrap_or_else(|e| e.into_inner());
            }
        };
        let Job { work, background } = job;
        let (work, done) = match work {
            Work::Search { search, done } => (Ok(search), done),
            Work::Evaluate { game, limits, done } => (Err((game, limits)), done),
            Work::Task(task) => {
                if catch_unwind(AssertUnwindSafe(task)).is_err() {
                    tracing::error!("an AI task panicked: dropped");
                }
                finished(shared, background);
                continue;
            }
        };
        let taken = Instant::now();
        let s = searcher.get_or_insert_with(|| {
            let now = shared.tables.fetch_add(1, Ordering::SeqCst) + 1;
            shared.peak_tables.fetch_max(now, Ordering::SeqCst);
            Searcher::new(shared.tt_mb, Weights::DEFAULT)
        });
        let answer = catch_unwind(AssertUnwindSafe(|| {
            // Another game's positions are no use here, and could mislead (contempt, the
            // game's history): the table starts empty, in O(1).
            s.clear();
            match &work {
                Ok(search) => choose_since(s, &search.game, search.level, search.time, taken),
                Err((game, limits)) => {
                    search_with(s, game, super::analysis::stop_for(limits, taken))
                }
            }
        }))
        .map_err(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            SearchFailed(what)
        });
        if answer.is_err() {
            // The searcher may be half-way through a search: start again with a new one.
            searcher = None;
            shared.tables.fetch_sub(1, Ordering::SeqCst);
        }
        done(answer);
        finished(shared, background);
    }
}

/// A worker is done with its request.
fn finished(shared: &Shared, background: bool) {
    let mut state = lock(shared);
    state.running -= 1;
    if background {
        state.background -= 1;
        // A worker may be waiting for room for background work.
        shared.ready.notify_all();
    }
}

/// Sets the calling thread's scheduling priority (on Linux, where both the policy and the nice
/// value are per thread; elsewhere the thread keeps the process's).
fn lower(priority: Priority) {
    if priority == Priority::Normal {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: both calls only read their arguments; `0` names the calling thread.
        let idle = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } == 0;
        if !idle {
            // Refused (a sandbox's seccomp filter, say): the lowest nice value instead.
            // SAFETY: as above.
            unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
            tracing::warn!("the AI's worker runs at nice 19: SCHED_IDLE was refused");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::Rules;
    use std::sync::mpsc;

    #[test]
    fn background_work_leaves_a_worker_free_for_moves() {
        let pool = Pool::new(2, 1, Priority::Idle);
        let (tx, rx) = mpsc::channel();
        let (started, running) = mpsc::channel();
        // Background work that would keep both workers busy, each held until released...
        let mut releases = Vec::new();
        for i in 0..2 {
            let (release, held) = mpsc::channel::<()>();
            releases.push(release);
            let (started, tx) = (started.clone(), tx.clone());
            pool.submit_task(9, Class::Background, move || {
                started.send(i).unwrap();
                let _ = held.recv();
                tx.send(("background", true)).unwrap();
            });
        }
        // ...runs one at a time with two workers: the second waits though a worker is free.
        assert_eq!(running.recv().unwrap(), 0);
        // A move asked for meanwhile is taken by the free worker and answered while the
        // background work still runs.
        let tx2 = tx.clone();
        pool.submit(1, Class::Play, search(Level::Medium, 50), move |a| {
            tx2.send(("play", a.is_ok())).unwrap()
        });
        // (Were both workers given background work, the move would never be answered: the
        // wait is bounded so that the test fails rather than hangs.)
        let answered = rx.recv_timeout(Duration::from_secs(30));
        assert_eq!(answered, Ok(("play", true)), "the move answered");
        // The first task is still held: one background task runs, counted by the pool when a
        // worker took it, before it ran (the second, were it taken, would count too).
        assert_eq!(pool.background().0, 1, "the second still waits");
        drop(releases);
        assert_eq!(running.recv().unwrap(), 1);
        for _ in 0..2 {
            assert_eq!(rx.recv().unwrap(), ("background", true));
        }
        // Both ran, and never at once: the pool's peak of background work running together,
        // read once both are done, covers the whole test, not one moment of it.
        assert_eq!(pool.background().1, 1, "one background task at a time");
    }

    /// A thread's scheduling policy and nice value, as `/proc` shows them to `ps` or `top`.
    #[cfg(target_os = "linux")]
    fn scheduling(tid: i32) -> (i32, i32) {
        let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).unwrap();
        // After the command's name, in brackets (which may hold spaces), fields 3 onwards.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        (
            fields[41 - 3].parse().unwrap(),
            fields[19 - 3].parse().unwrap(),
        )
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_workers_run_at_the_lowest_priority() {
        // SAFETY: getpriority only reads its arguments; `0` names the calling thread.
        let own_nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        for priority in [Priority::Idle, Priority::Normal] {
            let pool = Pool::new(2, 1, priority);
            // Each worker, held busy, tells its thread's id, read while it is alive.
            let (tx, rx) = mpsc::channel();
            let mut releases = Vec::new();
            for _ in 0..2 {
                let (release, held) = mpsc::channel::<()>();
                releases.push(release);
                let tx = tx.clone();
                pool.submit_task(1, Class::Play, move || {
                    // SAFETY: gettid has no arguments.
                    tx.send(unsafe { libc::gettid() }).unwrap();
                    let _ = held.recv();
                });
            }
            let tids = [rx.recv().unwrap(), rx.recv().unwrap()];
            assert_ne!(tids[0], tids[1], "both workers");
            for tid in tids {
                let (policy, nice) = scheduling(tid);
                match priority {
                    // SCHED_IDLE, or nice 19 where the system refuses it.
                    Priority::Idle => assert!(
                        policy == libc::SCHED_IDLE || (policy == libc::SCHED_OTHER && nice == 19),
                        "{priority:?}: policy {policy}, nice {nice}"
                    ),
                    Priority::Normal => assert_eq!(
                        (policy, nice),
                        (libc::SCHED_OTHER, own_nice),
                        "{priority:?}"
                    ),
                }
            }
            drop(releases);
        }
    }

    fn search(level: Level, ms: u64) -> Search {
        Search {
            game: Game::new(Rules::default()),
            level,
            time: Duration::from_millis(ms),
        }
    }

    #[test]
    fn every_request_is_answered_by_at_most_workers_tables() {
        let pool = Pool::new(2, 1, Priority::Idle);
        let (tx, rx) = mpsc::channel();
        for owner in 0..8 {
            let tx = tx.clone();
            pool.submit(owner, Class::Play, search(Level::Medium, 50), move |a| {
                tx.send(a).unwrap()
            });
        }
        for _ in 0..8 {
            let found = rx.recv().unwrap().unwrap().unwrap();
            assert!(Game::new(Rules::default()).position().is_legal(found.best));
        }
        assert!(pool.peak_tables() <= 2 && pool.peak_tables() >= 1);
        assert_eq!(pool.waiting(), 0);
    }

    #[test]
    fn a_pooled_search_answers_as_a_fresh_one_at_a_fixed_depth() {
        let pool = Pool::new(1, 4, Priority::Idle);
        let (tx, rx) = mpsc::channel();
        let mut game = Game::new(Rules::default());
        game.play_text("e2-c2").unwrap();
        for _ in 0..3 {
            let tx = tx.clone();
            pool.submit(
                1,
                Class::Play,
                Search {
                    game: game.clone(),
                    level: Level::Medium,
                    time: Duration::from_secs(60),
                },
                move |a| tx.send(a).unwrap(),
            );
        }
        let fresh = choose_since(
            &mut Searcher::new(4, Weights::DEFAULT),
            &game,
            Level::Medium,
            Duration::from_secs(60),
            Instant::now(),
        )
        .unwrap();
        for _ in 0..3 {
            let pooled = rx.recv().unwrap().unwrap().unwrap();
            assert_eq!(
                (pooled.best, pooled.score, pooled.nodes),
                (fresh.best, fresh.score, fresh.nodes)
            );
        }
    }

    #[test]
    fn a_cancelled_request_is_never_searched() {
        let pool = Pool::new(1, 1, Priority::Idle);
        // The only worker is held busy until released: the requests below wait behind it.
        let (release, held) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel();
        pool.submit_task(9, Class::Play, move || {
            started.send(()).unwrap();
            let _ = held.recv();
        });
        running.recv().unwrap();
        let (tx, rx) = mpsc::channel();
        let cancelled = {
            let tx = tx.clone();
            pool.submit(1, Class::Play, search(Level::Hard, 200), move |a| {
                tx.send(("cancelled", a.is_ok())).unwrap()
            })
        };
        let next = pool.submit(2, Class::Play, search(Level::Easy, 50), move |a| {
            tx.send(("next", a.is_ok())).unwrap()
        });
        assert_eq!(pool.ahead(cancelled), Some(0));
        assert!(pool.cancel(cancelled));
        assert!(!pool.cancel(cancelled), "withdrawn once");
        assert_eq!(
            pool.ahead(next),
            Some(0),
            "nothing is ahead of the next request now"
        );
        drop(release);
        // The channel closes once every callback has run or been dropped: the cancelled
        // request's callback was dropped unrun, and the next request was answered.
        assert_eq!(rx.iter().collect::<Vec<_>>(), vec![("next", true)]);
        assert!(!pool.cancel(next), "already answered");
        assert_eq!(pool.waiting(), 0);
    }
}
