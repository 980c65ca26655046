//! The bot's tasks beside the gateway (the clock, the sweeps, the AI's turns, the analyses,
//! the commands' registration): every one runs on one [`Tasks`], which tells them to stop and
//! waits for them when the bot stops (see `lifecycle`).

use std::future::Future;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The tasks the bot runs beside the gateway (the clock, the sweeps, the commands'
/// registration...), and the token that tells them to stop (the outbox's dispatcher has its
/// own, as it stops after the commands in flight are answered). A loop looks at the
/// token between its steps, so a step under way is finished, not cut short.
#[derive(Clone, Default)]
pub struct Tasks {
    tracker: TaskTracker,
    stop: CancellationToken,
}

impl Tasks {
    /// Runs `task` as one of the bot's; it is to end once [`Tasks::stopping`] says so.
    pub fn spawn<F>(&self, task: F) -> tokio::task::JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.tracker.spawn(task)
    }

    /// Runs `task` as one of the bot's until it ends or the bot stops, whichever is first: for
    /// work that may wait long and can be dropped anywhere (it is started again after a start).
    pub fn spawn_until_stopped<F>(&self, task: F) -> tokio::task::JoinHandle<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let stop = self.stop.clone();
        self.tracker.spawn(async move {
            tokio::select! {
                biased;
                _ = stop.cancelled() => {}
                _ = task => {}
            }
        })
    }

    /// Resolves once the bot is stopping.
    pub fn stopping(&self) -> tokio_util::sync::WaitForCancellationFutureOwned {
        self.stop.clone().cancelled_owned()
    }

    /// The tracker of every task: empty once they have all ended.
    pub fn tracker(&self) -> TaskTracker {
        self.tracker.clone()
    }

    /// Tells every task to stop; none is waited for.
    pub fn stop(&self) {
        self.stop.cancel();
        self.tracker.close();
    }

    /// Tells every task to stop and waits until all have ended, or `within` has passed (then
    /// says how many are left).
    pub async fn stop_and_wait(&self, within: Duration) {
        self.stop();
        if tokio::time::timeout(within, self.tracker.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                tasks = self.tracker.len(),
                "shutting down with background tasks still running"
            );
        }
    }
}
