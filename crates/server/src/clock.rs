//! The server's wall clock, and the only one: the engine has none. Battle clocks (T-TURN-2,
//! T-SETUP-1), Great War phase deadlines and delayed directives are kept as milliseconds since
//! the Unix epoch, so that they are stored and survive a restart. Tests drive a [`ManualClock`]
//! and are exact on both sides of every threshold.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::watch;

/// A future the clock resolves.
pub type Wait = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where the server reads the time.
pub trait Clock: Send + Sync {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
    /// Resolves once `now_ms() >= at` (or a while before, for the caller to look again).
    fn wait_until(&self, at: i64) -> Wait;
}

/// The system's clock.
pub struct SystemClock;

/// Longest single sleep: a clock changed under the process is noticed within this.
const MAX_SLEEP: Duration = Duration::from_secs(60);

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }

    fn wait_until(&self, at: i64) -> Wait {
        let left = at.saturating_sub(self.now_ms()).max(0);
        let sleep = Duration::from_millis(u64::try_from(left).unwrap_or(0)).min(MAX_SLEEP);
        Box::pin(tokio::time::sleep(sleep))
    }
}

/// A clock that moves only when told (for tests): waiting on it resolves when it is advanced
/// past the time waited for.
pub struct ManualClock {
    now: AtomicI64,
    moved: watch::Sender<i64>,
}

impl ManualClock {
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock { now: AtomicI64::new(start_ms), moved: watch::channel(start_ms).0 }
    }

    /// Moves the clock on by `ms` milliseconds.
    pub fn advance(&self, ms: i64) {
        let now = self.now.fetch_add(ms, Ordering::SeqCst).saturating_add(ms);
        self.moved.send_replace(now);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }

    fn wait_until(&self, at: i64) -> Wait {
        let mut moved = self.moved.subscribe();
        Box::pin(async move {
            while *moved.borrow_and_update() < at {
                if moved.changed().await.is_err() {
                    return;
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_a_waiter_only_once_past_its_time() {
        let clock = std::sync::Arc::new(ManualClock::new(1_000));
        let waiter = tokio::spawn(clock.wait_until(1_500));
        clock.advance(499);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "1,499 ms: not yet");
        clock.advance(1);
        tokio::time::timeout(Duration::from_secs(5), waiter).await.expect("woken at 1,500 ms").expect("joins");
        assert_eq!(clock.now_ms(), 1_500);
    }
}
