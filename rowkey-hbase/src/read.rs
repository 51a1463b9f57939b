//! Reading a plan: the ranges of a [`Scan`] are read by Thrift2 scanners page by page, one a
//! range or one a region's ranges ([`crate::regions`]), and `rowkey::fanout` puts them together:
//! every salt bucket open at once and merged into the order of the key after the salt, other
//! plans in key order. The pages are fetched by
//! the read's pool of workers ([`crate::pool`]): at most `concurrency` threads and connections,
//! whatever the number of ranges open.
//!
//! Apache Thrift's Rust runtime is blocking, so pages are fetched on those threads and handed
//! over one-shot channels: the rows come out as a [`Stream`] that never blocks an async
//! executor, and as a blocking [`Iterator`] for code without one. A reader that stops early
//! (drops [`Rows`]) stops the workers after the pages they are fetching.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::channel::oneshot;
use futures::executor::block_on;
use futures::stream::{Stream, StreamExt};
use futures::FutureExt;
use rowkey::fanout::read_ranges;
use rowkey::hbase::MAX_ROW_LENGTH;
use rowkey::retry::RetryPolicy;
use rowkey::{limits, KeyRange, Scan};

use crate::endpoint::Endpoint;
use crate::error::ErrorKind;
use crate::filters::Filters;
use crate::link::Idle;
use crate::pool::{Lane, Pool, Range, Reply};
use crate::regions::{locate, pieces, single_pieces, Piece};
use crate::{Columns, Error, Row};

/// How [`HBase::read_rows_with`](crate::HBase::read_rows_with) reads: the page size, the ranges
/// read at once, the retry policy.
///
/// ```
/// use std::time::Duration;
/// use rowkey::retry::RetryPolicy;
/// use rowkey_hbase::ReadOptions;
///
/// let options = ReadOptions::default()
///     .with_page(500)
///     .with_concurrency(4)
///     .with_retry(RetryPolicy::default().with_deadline(Duration::from_secs(10)));
/// assert_eq!(options.page(), 500);
/// assert_eq!(ReadOptions::default().page(), 1_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    page: usize,
    concurrency: usize,
    policy: RetryPolicy,
    columns: Columns,
    keys_only: bool,
    scanner_per_range: bool,
}

impl Default for ReadOptions {
    /// Pages of 1,000 rows, 16 ranges at once, the default [`RetryPolicy`] (10 tries a page,
    /// a 60-second deadline a request).
    fn default() -> Self {
        ReadOptions {
            page: 1_000,
            concurrency: 16,
            policy: RetryPolicy::default(),
            columns: Columns::all(),
            keys_only: false,
            scanner_per_range: false,
        }
    }
}

impl ReadOptions {
    /// The cells of each row to read: families, columns, a time range, versions (every cell's
    /// newest version by default). A row none of whose cells `columns` takes is not read.
    #[must_use]
    pub fn with_columns(self, columns: Columns) -> Self {
        ReadOptions { columns, ..self }
    }

    /// Each row's key alone: the region servers leave the cells behind (HBase's
    /// `FirstKeyOnlyFilter` and `KeyOnlyFilter`, sent as the scan's filter), and a row comes
    /// back with one cell whose value is empty. For listing and counting a plan's rows without
    /// moving what they hold.
    #[must_use]
    pub fn with_keys_only(self) -> Self {
        ReadOptions {
            keys_only: true,
            ..self
        }
    }

    /// Each range of the plan read by a scanner of its own, up to
    /// [`concurrency`](Self::concurrency) at once, rather than one scanner for the ranges of a
    /// region (HBase's `MultiRowRangeFilter`, the default). For a plan of a few ranges each of
    /// many rows that lie in one region, where reading them side by side is worth a scanner
    /// each; a plan of many small ranges (an `IN` list) reads slower so, a scanner a range.
    #[must_use]
    pub fn with_scanner_per_range(self) -> Self {
        ReadOptions {
            scanner_per_range: true,
            ..self
        }
    }

    /// Whether reads return each row's key alone ([`with_keys_only`](Self::with_keys_only)).
    pub fn keys_only(&self) -> bool {
        self.keys_only
    }

    /// Pages of `rows` rows (HBase's `caching`, and each `getScannerRows`; 0 counts as 1).
    #[must_use]
    pub fn with_page(self, rows: usize) -> Self {
        ReadOptions {
            page: rows.max(1),
            ..self
        }
    }

    /// At most `ranges` ranges read at once (0 counts as 1), on at most that many threads and
    /// connections; a salted plan keeps every bucket open at once whatever this says, as its
    /// merge needs, on the same threads and connections.
    #[must_use]
    pub fn with_concurrency(self, ranges: usize) -> Self {
        ReadOptions {
            concurrency: ranges.max(1),
            ..self
        }
    }

    /// The retry policy of every page: its tries, backoff, and deadline (each connection's read,
    /// write and connect timeout). [`RetryPolicy::never`] returns the first error.
    #[must_use]
    pub fn with_retry(self, policy: RetryPolicy) -> Self {
        ReadOptions { policy, ..self }
    }

    /// Rows a page.
    pub fn page(&self) -> usize {
        self.page
    }

    /// Ranges read at once.
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// The retry policy.
    pub fn retry(&self) -> &RetryPolicy {
        &self.policy
    }
}

/// The rows of a read, in the plan's order: a [`Stream`] for async code (the reading happens on
/// threads, so polling never blocks), and a blocking [`Iterator`] otherwise.
///
/// An error (one that will not pass, or the last try's) is the next item, and nothing follows
/// it; resume with [`Scan::after`] the last key read.
pub struct Rows {
    rows: Pin<Box<dyn Stream<Item = Result<Row, Error>> + Send>>,
    /// Requests sent again so far, over every range.
    retries: Arc<AtomicU64>,
    /// The plan, when it is wider than its query: rows it does not match are dropped.
    matches: Option<Matches>,
    /// Rows the server sent so far, those dropped included.
    received: u64,
}

/// A plan's `matches`, kept by the rows of a plan wider than its query.
type Matches = Box<dyn Fn(&[u8]) -> bool + Send>;

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows")
            .field("filtered", &self.matches.is_some())
            .finish_non_exhaustive()
    }
}

impl Rows {
    /// The requests of this read sent again so far (after a failure that passes), over all its
    /// ranges: what the faults it rode out cost.
    pub fn retries(&self) -> u64 {
        self.retries.load(Ordering::Relaxed)
    }

    /// The rows the server has sent so far: those given, and those of a plan wider than its
    /// query that the plan's [`matches`](Scan::matches) dropped. What a read cost in rows that
    /// left the region servers, beside what it gave.
    pub fn received(&self) -> u64 {
        self.received
    }
}

impl Stream for Rows {
    type Item = Result<Row, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            match self.rows.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(row))) => {
                    self.received += 1;
                    if self.matches.as_ref().is_some_and(|m| !m(&row.key)) {
                        continue;
                    }
                    return Poll::Ready(Some(Ok(row)));
                }
                other => return other,
            }
        }
    }
}

impl Iterator for Rows {
    type Item = Result<Row, Error>;

    /// The next row, waiting for it: not for async code (poll the [`Stream`] there).
    fn next(&mut self) -> Option<Self::Item> {
        block_on(StreamExt::next(self))
    }
}

/// Every range of `scan` read as [`Rows`] (see [`HBase::read_rows_with`](crate::HBase::read_rows_with)).
pub(crate) fn read_rows<K: ?Sized + 'static>(
    endpoint: &Endpoint,
    addr: SocketAddr,
    idle: Arc<Idle>,
    table: &str,
    scan: &Scan<K>,
    options: &ReadOptions,
) -> Result<Rows, Error> {
    let mut ranges = Vec::new();
    for range in scan.ranges() {
        // Bounds past HBase's row limit, held as bounds within it that take the same rows.
        if let Some(range) = limits::clamp(&range, MAX_ROW_LENGTH)? {
            ranges.push(range);
        }
    }
    // Several ranges: one scanner a region's ranges (`crate::regions`).
    let pieces = if options.scanner_per_range {
        single_pieces(ranges)
    } else {
        let regions = (ranges.len() > 1)
            .then(|| locate(endpoint, addr, &idle, table, options.policy.deadline()))
            .flatten();
        pieces(ranges, scan.salt_len(), regions.as_ref())
    };
    // A salted plan keeps every bucket open for its merge, others `concurrency` scanners at
    // once: the workers are as many as the scanners open at once, and never more than
    // `concurrency`.
    let workers = options.concurrency.min(pieces.len()).max(1);
    let lane = Arc::new(Lane {
        endpoint: endpoint.clone(),
        addr,
        table: table.as_bytes().to_vec(),
        columns: options.columns.clone(),
        filters: Filters {
            keys_only: options.keys_only,
            pattern: scan.pattern(),
        },
        page: i32::try_from(options.page).unwrap_or(i32::MAX),
        policy: options.policy.clone(),
        idle,
        retries: Arc::new(AtomicU64::new(0)),
    });
    let retries = lane.retries.clone();
    let pool = Pool::start(lane, workers)?;
    let endpoint = endpoint.clone();
    // The fan-out reads each piece's hull as one range; its ranges are found by its start.
    let hulls: Vec<KeyRange> = pieces.iter().map(|p| p.hull.clone()).collect();
    let by_start: HashMap<Vec<u8>, Piece> = pieces
        .into_iter()
        .map(|p| (p.hull.start().to_vec(), p))
        .collect();
    let reader = move |hull: KeyRange| {
        let range = match by_start.get(hull.start()) {
            Some(piece) => Range::new(piece),
            None => Range::new(&Piece {
                hull,
                ranges: None,
                server: None,
            }),
        };
        let rows = PageRows::new(pool.clone(), range, endpoint.clone());
        std::future::ready(Ok::<_, Error>(rows))
    };
    let rows = read_ranges(
        hulls,
        scan.salt_len(),
        options.concurrency,
        reader,
        |row: &Row| &row.key[..],
    );
    let matches: Option<Matches> = if scan.is_exact() {
        None
    } else {
        let scan = scan.clone();
        Some(Box::new(move |key| scan.matches(key)))
    };
    Ok(Rows {
        rows: Box::pin(rows),
        retries,
        matches,
        received: 0,
    })
}

/// The rows of one range, as its pages arrive from the read's workers: one page asked for at a
/// time, the next asked for as soon as one arrives.
struct PageRows {
    pool: Pool,
    pending: Option<oneshot::Receiver<Reply>>,
    page: std::vec::IntoIter<Row>,
    error: Option<Error>,
    endpoint: Endpoint,
}

impl PageRows {
    fn new(pool: Pool, range: Range, endpoint: Endpoint) -> Self {
        let pending = Some(pool.ask(range));
        PageRows {
            pool,
            pending,
            page: Vec::new().into_iter(),
            error: None,
            endpoint,
        }
    }
}

impl Stream for PageRows {
    type Item = Result<Row, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(row) = self.page.next() {
                return Poll::Ready(Some(Ok(row)));
            }
            if let Some(e) = self.error.take() {
                return Poll::Ready(Some(Err(e)));
            }
            let Some(pending) = self.pending.as_mut() else {
                return Poll::Ready(None);
            };
            match pending.poll_unpin(cx) {
                Poll::Ready(Ok(Reply::Page(rows, next))) => {
                    // The next page is asked for at once: it is read while these are used.
                    self.pending = next.map(|range| self.pool.ask(range));
                    self.page = rows.into_iter();
                }
                Poll::Ready(Ok(Reply::Failed(e))) => {
                    self.pending = None;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(Err(oneshot::Canceled)) => {
                    self.pending = None;
                    let e = Error::new(
                        ErrorKind::Closed,
                        Some(&self.endpoint),
                        String::from(
                            "the read's threads stopped (a panic, or no thread could start)",
                        ),
                    );
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
