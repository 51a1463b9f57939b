//! How the store adapters survive faults: [`RetryPolicy`], one small type for Bigtable, etcd and
//! HBase (the crates `rowkey-bigtable`, `rowkey-etcd` and `rowkey-hbase`).
//!
//! A read is made of requests (a Bigtable page of a range, an etcd page of a plan). Each request
//! has a deadline; a request that fails for a reason that may pass (the server unavailable, a
//! deadline passed, a connection reset or closed, a member lost) is sent again, from after the
//! last row the read has returned, after a backoff that doubles from `first_backoff` up to
//! `max_backoff` with full jitter (a random wait between zero and that bound, so that many
//! readers cut at once do not come back at once). After `attempts` tries the read gives up: it
//! returns the error, and nothing after it. An error that will not pass (a table not found, a
//! request the server refuses as invalid, a permission denied) is returned at once.
//!
//! ```
//! use std::time::Duration;
//! use rowkey::retry::RetryPolicy;
//!
//! let default = RetryPolicy::default();
//! assert_eq!(default.attempts(), 10);
//! assert_eq!(default.deadline(), Duration::from_secs(60));
//!
//! // Fail fast: two tries, short waits, a 5-second deadline a request.
//! let impatient = RetryPolicy::default()
//!     .with_attempts(2)
//!     .with_backoff(Duration::from_millis(10), Duration::from_millis(100))
//!     .with_deadline(Duration::from_secs(5));
//! assert!(impatient.backoff(1) <= Duration::from_millis(20));
//!
//! // No retries at all: the first error is the read's.
//! assert_eq!(RetryPolicy::never().attempts(), 1);
//! ```
//!
//! Every adapter's requests go through one loop, [`RetryPolicy::send`]: an adapter says only how
//! one try is sent and which of its errors may pass ([`Request`]). An adapter of your own for
//! another store can do the same.

use core::future::Future;
use core::time::Duration;
use std::sync::atomic::{AtomicU64, Ordering};

/// When and how often a store read sends a failed request again: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    attempts: u32,
    first_backoff: Duration,
    max_backoff: Duration,
    deadline: Duration,
}

impl Default for RetryPolicy {
    /// 10 tries a request, backoff from 50 ms doubling up to 5 s, a deadline of 60 s a request:
    /// a read rides out a server restart or a lost member of about half a minute.
    fn default() -> Self {
        RetryPolicy {
            attempts: 10,
            first_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(5),
            deadline: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// One try a request: the first error ends the read (each request still has the deadline).
    pub fn never() -> Self {
        RetryPolicy::default().with_attempts(1)
    }

    /// At most `attempts` tries a request, the first included (0 counts as 1).
    #[must_use]
    pub fn with_attempts(self, attempts: u32) -> Self {
        RetryPolicy {
            attempts: attempts.max(1),
            ..self
        }
    }

    /// The backoff before the second try is up to `first`; each later one up to twice the one
    /// before, never over `max`.
    #[must_use]
    pub fn with_backoff(self, first: Duration, max: Duration) -> Self {
        RetryPolicy {
            first_backoff: first,
            max_backoff: max.max(first),
            ..self
        }
    }

    /// Each request's deadline: a server that neither answers nor fails within it (a stalled
    /// connection) is a failure that is tried again.
    #[must_use]
    pub fn with_deadline(self, deadline: Duration) -> Self {
        RetryPolicy { deadline, ..self }
    }

    /// The most tries a request.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Each request's deadline.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }

    /// The upper bound of the wait after the `failed`-th failed try (1 for the first):
    /// `first_backoff * 2^(failed - 1)`, at most `max_backoff`.
    pub fn backoff_bound(&self, failed: u32) -> Duration {
        let doublings = failed.saturating_sub(1).min(30);
        self.first_backoff
            .saturating_mul(1 << doublings)
            .min(self.max_backoff)
    }

    /// The wait after the `failed`-th failed try: a random duration up to
    /// [`backoff_bound`](Self::backoff_bound) (full jitter).
    pub fn backoff(&self, failed: u32) -> Duration {
        let bound = self.backoff_bound(failed).as_nanos() as u64;
        Duration::from_nanos(if bound == 0 {
            0
        } else {
            jitter() % (bound + 1)
        })
    }
}

/// A request a store adapter sends under a [`RetryPolicy`] ([`RetryPolicy::send`]): how one try
/// is sent, and which of its errors may pass.
pub trait Request {
    /// What a try that succeeds gives.
    type Output;
    /// What a try that fails gives.
    type Error;

    /// One try. A blocking store's try can do its work before it returns a ready future
    /// (`std::future::ready`), driven by a blocking executor such as `futures::executor::block_on`.
    fn send(&mut self) -> impl Future<Output = Result<Self::Output, Self::Error>>;

    /// Whether a try that failed with `error` may succeed if sent again. `false` returns the error
    /// at once.
    fn passes(&self, error: &Self::Error) -> bool;

    /// Called before the wait ahead of a try that follows a failure that passes: where to drop a
    /// broken connection, move to another server, or count the retry. Nothing by default.
    fn before_retry(&mut self, error: &Self::Error) {
        let _ = error;
    }
}

impl RetryPolicy {
    /// Sends `request` until a try succeeds, a try fails with an error that does not pass, or the
    /// policy's tries are spent; then returns that try's result. Between tries it awaits
    /// `wait(backoff)` ([`backoff`](Self::backoff) of the failures so far): `tokio::time::sleep`
    /// on tokio, a thread's sleep for a blocking store.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rowkey::retry::{Request, RetryPolicy};
    ///
    /// /// A request whose first two tries fail with an error that passes.
    /// struct Flaky(u32);
    /// impl Request for Flaky {
    ///     type Output = &'static str;
    ///     type Error = &'static str;
    ///     async fn send(&mut self) -> Result<&'static str, &'static str> {
    ///         self.0 += 1;
    ///         if self.0 < 3 { Err("unavailable") } else { Ok("rows") }
    ///     }
    ///     fn passes(&self, error: &&'static str) -> bool {
    ///         *error == "unavailable"
    ///     }
    /// }
    ///
    /// let policy = RetryPolicy::default().with_backoff(Duration::ZERO, Duration::ZERO);
    /// let mut waits = 0;
    /// let mut flaky = Flaky(0);
    /// let sent = policy.send(&mut flaky, |_| { waits += 1; std::future::ready(()) });
    /// assert_eq!(futures::executor::block_on(sent), Ok("rows"));
    /// assert_eq!((flaky.0, waits), (3, 2));
    ///
    /// // Two tries allowed: the second failure is the result.
    /// let mut flaky = Flaky(0);
    /// let twice = RetryPolicy::never().with_attempts(2);
    /// let sent = twice.send(&mut flaky, |_| std::future::ready(()));
    /// assert_eq!(futures::executor::block_on(sent), Err("unavailable"));
    /// ```
    pub async fn send<R, W>(
        &self,
        request: &mut R,
        mut wait: impl FnMut(Duration) -> W,
    ) -> Result<R::Output, R::Error>
    where
        R: Request + ?Sized,
        W: Future<Output = ()>,
    {
        let mut failed = 0;
        loop {
            let error = match request.send().await {
                Ok(output) => return Ok(output),
                Err(error) => error,
            };
            failed += 1;
            if failed >= self.attempts || !request.passes(&error) {
                return Err(error);
            }
            request.before_retry(&error);
            wait(self.backoff(failed)).await;
        }
    }
}

/// Whether a gRPC request that failed with status `code` (the number the gRPC protocol gives it,
/// `i32::from(tonic::Code)`) may succeed if sent again; `from_transport` says the client made the
/// status from a failed connection (tonic gives such a status the transport's error as its
/// source). The store adapters on gRPC (`rowkey-bigtable`, `rowkey-etcd`) share this rule, which
/// reads the code alone, never the message.
///
/// It passes: the codes Google's clients retry (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED; etcd's
/// "no leader" and "leader changed" are UNAVAILABLE), and UNKNOWN, INTERNAL or CANCELLED made by
/// the client from a cut connection (a reset stream, a closed connection, a body cut short). Not
/// those codes from the server, nor NOT_FOUND, INVALID_ARGUMENT, PERMISSION_DENIED and the other
/// codes that say the request itself is wrong.
///
/// ```
/// use rowkey::retry::grpc_status_passes;
///
/// assert!(grpc_status_passes(14, false)); // UNAVAILABLE
/// assert!(grpc_status_passes(1, true)); // CANCELLED by a cut
/// assert!(grpc_status_passes(13, true)); // INTERNAL, a stream reset
/// assert!(!grpc_status_passes(13, false)); // INTERNAL, from the server
/// assert!(!grpc_status_passes(5, false)); // NOT_FOUND
/// ```
pub fn grpc_status_passes(code: i32, from_transport: bool) -> bool {
    // The gRPC status codes (grpc/doc/statuscodes.md).
    const CANCELLED: i32 = 1;
    const UNKNOWN: i32 = 2;
    const DEADLINE_EXCEEDED: i32 = 4;
    const ABORTED: i32 = 10;
    const INTERNAL: i32 = 13;
    const UNAVAILABLE: i32 = 14;
    match code {
        UNAVAILABLE | DEADLINE_EXCEEDED | ABORTED => true,
        // A status the client made from a failed connection carries that failure as its
        // source (a cut seen as CANCELLED "operation was canceled", source "connection
        // closed"; a reset stream as INTERNAL, source the h2 error); a status the server sent
        // has none.
        UNKNOWN | INTERNAL | CANCELLED => from_transport,
        _ => false,
    }
}

/// A pseudo-random number for jitter: a shared SplitMix64 sequence seeded from the clock. The
/// waits need only differ between readers, not be unpredictable.
fn jitter() -> u64 {
    static STATE: AtomicU64 = AtomicU64::new(0);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut z = STATE
        .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
        .wrapping_add(seed);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
