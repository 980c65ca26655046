//! [`Store`]: the database as the service holds it, with the pool, the backend, and on SQLite
//! the lock its writes queue on. Reading goes through [`Store::read`]; writing through
//! [`Store::write`] (a transaction) or [`Store::lock`] (statements of their own), each of which
//! holds the write lock on SQLite for as long as it lives, and takes nothing extra on
//! PostgreSQL.

use super::StoreError;
use super::{Backend, OpenError};
use sqlx::any::AnyExecutor;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Transaction};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::{Mutex, MutexGuard};

/// The database: the connection pool, the backend it talks to, and the write serialisation.
/// Cheap to clone (the clones share the pool and the lock).
///
/// On SQLite, writes queue on an in-process lock rather than in SQLite's busy handler, whose
/// sleeps (up to 100 ms) would make the slowest writes wait far longer than the write takes.
/// PostgreSQL needs no such lock: its row locks, constraints and conditional updates decide,
/// across processes.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    writer: Arc<Mutex<()>>,
    /// The writes waiting for `writer` now.
    waiting: Arc<AtomicUsize>,
    /// The fault a test set for the next write transaction's commit.
    #[cfg(feature = "test-support")]
    commit_fault: Arc<std::sync::Mutex<Option<CommitFault>>>,
}

/// A connection lost during a COMMIT, as a test injects it into the next write transaction
/// ([`Store::fail_next_commit`]; built for tests only): the commit fails as sqlx reports a lost
/// connection (`Io`), after the database committed the transaction (`Landed`) or before it did
/// (`Lost`, rolled back).
#[cfg(feature = "test-support")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitFault {
    Landed,
    Lost,
}

/// A write transaction, holding the write lock (on SQLite) until it is committed or dropped
/// (rolled back). Derefs to the connection the store's query functions take (`&mut *tx`).
pub struct Write<'a> {
    // Declared first, so dropped first: a transaction given up is rolled back before the next
    // writer is let in.
    tx: Transaction<'static, Any>,
    _lock: Option<MutexGuard<'a, ()>>,
    #[cfg(feature = "test-support")]
    fault: Option<CommitFault>,
}

/// The write lock held (on SQLite) for writes that are statements of their own, not one
/// transaction: each runs on [`Locked::ex`], a connection taken under the lock, and commits by
/// itself.
pub struct Locked<'a> {
    // Declared first, so dropped first: back to the pool before the next writer is let in.
    conn: PoolConnection<Any>,
    _lock: Option<MutexGuard<'a, ()>>,
}

/// An executor the store's writing functions take: a connection, which the service gets only
/// from [`Store::write`] (its transaction) or [`Store::lock`], both under the write lock. The
/// pool [`Store::read`] gives is not one, so a write that skips the lock does not compile.
pub trait Writes<'e>: AnyExecutor<'e> {}

impl<'e> Writes<'e> for &'e mut AnyConnection {}

/// The store's own tests write on the pool.
#[cfg(test)]
impl<'e> Writes<'e> for &'e AnyPool {}

/// A write counted while it waits for the write lock (until dropped: it got the lock, or its
/// future was dropped).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn new(count: &'a AtomicUsize) -> Waiting<'a> {
        count.fetch_add(1, Ordering::SeqCst);
        Waiting(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Store {
    /// The store over a pool opened by [`super::open`].
    pub fn new(pool: AnyPool) -> Store {
        Store {
            backend: super::backend(&pool),
            pool,
            writer: Arc::new(Mutex::new(())),
            waiting: Arc::new(AtomicUsize::new(0)),
            #[cfg(feature = "test-support")]
            commit_fault: Arc::default(),
        }
    }

    /// Opens the database at `url` (a SQLite file is created if missing) and applies its
    /// backend's migrations (see [`super::open`]).
    pub async fn open(url: &str) -> Result<Store, OpenError> {
        Ok(Store::new(super::open(url).await?))
    }

    /// The database behind the store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The executor reads run on (the pool: each read takes a connection of its own).
    pub fn read(&self) -> &AnyPool {
        &self.pool
    }

    /// The pool itself, for tests and tools that run SQL of their own. The service reads
    /// through [`Store::read`] and writes through [`Store::write`] or [`Store::lock`].
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The write lock (on SQLite; nothing on PostgreSQL), held until the guard is dropped.
    async fn writer(&self) -> Option<MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => {
                let _waiting = Waiting::new(&self.waiting);
                Some(self.writer.lock().await)
            }
            Backend::Postgres => None,
        }
    }

    /// A write transaction: the write lock taken (on SQLite), then the transaction begun.
    ///
    /// On SQLite it begins `IMMEDIATE`, taking the database's write lock at once. A deferred
    /// transaction that reads first and writes later cannot wait for another process's writer
    /// (SQLite answers such an upgrade with "database is locked" at once, busy timeout or not);
    /// one that begins as a writer waits in the busy timeout like any other.
    pub async fn write(&self) -> Result<Write<'_>, StoreError> {
        let lock = self.writer().await;
        let tx = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok(Write {
            tx,
            _lock: lock,
            #[cfg(feature = "test-support")]
            fault: self.commit_fault.lock().expect("not poisoned").take(),
        })
    }

    /// Makes the next write transaction's commit fail as a connection lost during COMMIT
    /// does, after the database committed it or before ([`CommitFault`]). For tests.
    #[cfg(feature = "test-support")]
    pub fn fail_next_commit(&self, fault: CommitFault) {
        *self.commit_fault.lock().expect("not poisoned") = Some(fault);
    }

    /// The write lock taken (on SQLite), then a connection, for writes that are statements of
    /// their own.
    pub async fn lock(&self) -> Result<Locked<'_>, StoreError> {
        let lock = self.writer().await;
        let conn = self.pool.acquire().await?;
        Ok(Locked { conn, _lock: lock })
    }

    /// How many writes wait for the write lock now (on SQLite; always 0 on PostgreSQL, which
    /// has none).
    pub fn writes_waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// Closes the database, once every connection is back (see [`super::close`]).
    pub async fn close(&self) {
        super::close(&self.pool).await;
    }
}

impl Write<'_> {
    /// Commits the transaction, then lets the next writer in.
    pub async fn commit(self) -> Result<(), StoreError> {
        #[cfg(feature = "test-support")]
        if let Some(fault) = self.fault {
            let lost = || {
                let lost = std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "the connection was lost during COMMIT (a test's fault)",
                );
                StoreError::from(sqlx::Error::Io(lost))
            };
            let Write { tx, .. } = self;
            match fault {
                CommitFault::Landed => tx.commit().await?,
                CommitFault::Lost => tx.rollback().await?,
            }
            return Err(lost());
        }
        let Write { tx, _lock, .. } = self;
        Ok(tx.commit().await?)
    }
}

impl Deref for Write<'_> {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        &self.tx
    }
}

impl DerefMut for Write<'_> {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.tx
    }
}

impl Locked<'_> {
    /// The connection the writes under this lock run on.
    pub fn ex(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }
}
