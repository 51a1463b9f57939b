//! Reading a plan: each range of a [`Scan`] is a Thrift2 scanner `[startRow, stopRow)` read page by
//! page on a thread of its own, and `rowkey::fanout` puts the ranges together: every salt bucket
//! open at once and merged into the order of the key after the salt, other plans in key order.
//!
//! Apache Thrift's Rust runtime is blocking, so a range's pages are read on a thread and handed
//! over a channel of one page: the rows come out as a [`Stream`] that never blocks an async
//! executor, and as a blocking [`Iterator`] for code without one. A reader that stops early
//! (drops [`Rows`]) stops every thread at its next page.
//!
//! A page that fails for a reason that may pass (a connection cut or stalled past the deadline,
//! an HBase error it marks as retriable, a scanner the server lost) is asked for again under the
//! [`RetryPolicy`]: on a new connection if the old one failed, from a new scanner that starts
//! just after the last row the range has given, so nothing is lost and nothing repeated.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures::channel::mpsc;
use futures::executor::block_on;
use futures::stream::{Stream, StreamExt};
use futures::SinkExt;
use rowkey::fanout::read_ranges;
use rowkey::retry::RetryPolicy;
use rowkey::{KeyRange, Scan};

use crate::hbase::{TIOError, TIllegalArgument, TScan, TTHBaseServiceSyncClient};
use rowkey::hbase::MAX_ROW_LENGTH;

use crate::bounds::{start_after, storable};
use crate::endpoint::{Client, Endpoint};
use crate::error::{self, ErrorKind};
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

    /// Pages of `rows` rows (HBase's `caching`, and each `getScannerRows`; 0 counts as 1).
    #[must_use]
    pub fn with_page(self, rows: usize) -> Self {
        ReadOptions {
            page: rows.max(1),
            ..self
        }
    }

    /// At most `ranges` ranges read at once (0 counts as 1), each on a thread and a connection of
    /// its own; a salted plan reads every bucket at once whatever this says, as its merge needs.
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
}

impl Stream for Rows {
    type Item = Result<Row, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            match self.rows.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(row))) => {
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
        if let Some(range) = storable(&range, MAX_ROW_LENGTH)? {
            ranges.push(range);
        }
    }
    let lane = Arc::new(Lane {
        endpoint: endpoint.clone(),
        addr,
        table: table.as_bytes().to_vec(),
        page: i32::try_from(options.page).unwrap_or(i32::MAX),
        columns: options.columns.clone(),
        policy: options.policy.clone(),
        idle,
        retries: Arc::new(AtomicU64::new(0)),
    });
    let retries = lane.retries.clone();
    let reader = move |range: KeyRange| {
        let (pages, rx) = mpsc::channel(0);
        let lane = lane.clone();
        let endpoint = lane.endpoint.clone();
        let spawned = std::thread::Builder::new()
            .name("rowkey-hbase-range".into())
            .spawn(move || lane.read(&range, pages));
        std::future::ready(Ok::<_, Error>(match spawned {
            Ok(_) => PageRows::new(rx),
            Err(e) => PageRows::failed(Error::new(
                ErrorKind::Closed,
                Some(&endpoint),
                format!("cannot start a thread to read a range: {e}"),
            )),
        }))
    };
    let rows = read_ranges(
        ranges,
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
    })
}

/// What the threads of one read share: where to read, how, and the connections that finished a
/// range cleanly, for the next range to take.
struct Lane {
    endpoint: Endpoint,
    addr: SocketAddr,
    table: Vec<u8>,
    columns: Columns,
    page: i32,
    policy: RetryPolicy,
    idle: Arc<Idle>,
    retries: Arc<AtomicU64>,
}

/// Connections that finished a range cleanly, for the next range of any read of the same
/// [`HBase`](crate::HBase) to take: a read of a few rows costs no TCP connect and no new server
/// thread.
#[derive(Default)]
pub(crate) struct Idle(Mutex<Vec<(Instant, Client)>>);

impl Idle {
    /// The most connections kept.
    const MAX: usize = 32;
    /// Connections idle this long are dropped: the Thrift2 server closes those idle for 60 s
    /// (`hbase.thrift.server.socket.read.timeout`).
    const FOR: Duration = Duration::from_secs(30);

    fn take(&self) -> Option<Client> {
        let mut idle = self.0.lock().ok()?;
        idle.retain(|(since, _)| since.elapsed() < Idle::FOR);
        idle.pop().map(|(_, client)| client)
    }

    fn give(&self, client: Client) {
        if let Ok(mut idle) = self.0.lock() {
            if idle.len() < Idle::MAX {
                idle.push((Instant::now(), client));
            }
        }
    }
}

/// Where a request failed, which decides whether it may pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Open,
    Page,
}

type PageSender = mpsc::Sender<Result<Vec<Row>, Error>>;

impl Lane {
    /// Reads `range` page by page into `pages`, until its end, an error that will not pass (sent
    /// as the last item), or a reader that hung up.
    fn read(&self, range: &KeyRange, mut pages: PageSender) {
        let stop = range.stop();
        // The next page starts here: the range's start, then just after the last row given.
        let mut start = range.start().to_vec();
        let mut client: Option<Client> = None;
        let mut scanner: Option<i32> = None;
        let mut failed = 0u32;
        loop {
            match self.next_page(&mut client, &mut scanner, &start, stop) {
                Ok(rows) if rows.is_empty() => {
                    self.finish(client, scanner);
                    return;
                }
                Ok(rows) => {
                    failed = 0;
                    let next = start_after(&rows[rows.len() - 1].key, MAX_ROW_LENGTH);
                    if block_on(pages.send(Ok(rows))).is_err() {
                        // The reader stopped early.
                        self.finish(client, scanner);
                        return;
                    }
                    match next {
                        Some(next) => start = next,
                        // The last row was the last key HBase can hold.
                        None => {
                            self.finish(client, scanner);
                            return;
                        }
                    }
                }
                Err((step, e)) => {
                    // A table that does not exist fails its pages as a region server gone
                    // would: final at once, not after the policy's tries.
                    if let Some(missing) = self.missing_table(&mut client, &e) {
                        let _ = block_on(pages.send(Err(missing)));
                        return;
                    }
                    failed += 1;
                    let (passes, connection_lost) = judge(&e, step);
                    if !passes || failed >= self.policy.attempts() {
                        let e = Error::request(e, &self.endpoint, false, self.policy.deadline());
                        let _ = block_on(pages.send(Err(e)));
                        return;
                    }
                    if connection_lost {
                        client = None;
                    } else if let (Some(c), Some(id)) = (client.as_mut(), scanner) {
                        // The server's scanner may be broken: close it, read on from a new one.
                        let _ = c.close_scanner(id);
                    }
                    scanner = None;
                    self.retries.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(self.policy.backoff(failed));
                }
            }
        }
    }

    /// The next page of rows of the open scanner, connecting and opening one from `start` first
    /// when there is none.
    fn next_page(
        &self,
        client: &mut Option<Client>,
        scanner: &mut Option<i32>,
        start: &[u8],
        stop: &[u8],
    ) -> Result<Vec<Row>, (Step, thrift::Error)> {
        if client.is_none() {
            *client = Some(match self.idle.take() {
                Some(c) => c,
                None => self
                    .endpoint
                    .open(self.addr, self.policy.deadline())
                    .map(|(client, _)| client)
                    .map_err(|e| (Step::Open, thrift::Error::from(e)))?,
            });
        }
        let c = client.as_mut().expect("connected above");
        let id = match *scanner {
            Some(id) => id,
            None => {
                let id = c
                    .open_scanner(
                        self.table.clone(),
                        scan(start, stop, self.page, &self.columns),
                    )
                    .map_err(|e| (Step::Open, e))?;
                *scanner = Some(id);
                id
            }
        };
        let results = c
            .get_scanner_rows(id, self.page)
            .map_err(|e| (Step::Page, e))?;
        Ok(results.into_iter().filter_map(crate::cells::row).collect())
    }

    /// The error to give when a request of a range failed with `e` because the table does not
    /// exist: HBase's `TIOError` then says only the table's name, which reads as no reason at
    /// all, and a page's `TIOError` would be sent again. Asked of the server only after a
    /// `TIOError`, so a read pays nothing for it.
    fn missing_table(&self, client: &mut Option<Client>, e: &thrift::Error) -> Option<Error> {
        let thrift::Error::User(user) = e else {
            return None;
        };
        user.downcast_ref::<TIOError>()?;
        let name = crate::table_name(&String::from_utf8_lossy(&self.table));
        match client.as_mut()?.table_exists(name) {
            Ok(false) => Some(Error::new(
                ErrorKind::HBase,
                Some(&self.endpoint),
                format!(
                    "org.apache.hadoop.hbase.TableNotFoundException: {}",
                    String::from_utf8_lossy(&self.table)
                ),
            )),
            _ => None,
        }
    }

    /// Closes a finished range's scanner and keeps its connection for the next range.
    fn finish(&self, client: Option<Client>, scanner: Option<i32>) {
        if let (Some(mut c), Some(id)) = (client, scanner) {
            if c.close_scanner(id).is_ok() {
                self.idle.give(c);
            }
        }
    }
}

/// Whether a request that failed with `e` at `step` may succeed if sent again, and whether its
/// connection is lost. A transport or protocol error is a connection cut, reset, refused or
/// stalled past the deadline: it passes on a new connection. HBase's `TIOError` says itself
/// whether it passes (`canRetry`: false for a `DoNotRetryIOException`, such as a table that does
/// not exist) when a scanner opens. `TIllegalArgument` for a page is a scanner the server no longer has (it restarted,
/// or the scanner expired): a new scanner from the same row passes; for opening a scanner, the
/// scan itself is wrong. Thrift's own application errors do not pass.
fn judge(e: &thrift::Error, step: Step) -> (bool, bool) {
    match e {
        thrift::Error::Transport(_) | thrift::Error::Protocol(_) => {
            let lost = error::is_connection_lost(e);
            (lost, lost)
        }
        thrift::Error::User(user) => {
            if let Some(io) = user.downcast_ref::<TIOError>() {
                // A page's error ends its scanner whatever its cause (a region server gone, the
                // scanner's lease expired, which HBase does not retry): a new scanner from the
                // same row passes, and if the cause stays, opening it fails as it should.
                (step == Step::Page || io.can_retry.unwrap_or(true), false)
            } else if user.downcast_ref::<TIllegalArgument>().is_some() {
                (step == Step::Page, false)
            } else {
                (false, false)
            }
        }
        _ => (false, false),
    }
}

/// The Thrift2 scan of `[start, stop)` in pages of `page` rows.
fn scan(start: &[u8], stop: &[u8], page: i32, columns: &Columns) -> TScan {
    // Every field named: the generated `Default` sets optional fields to `Some` of their default
    // (an empty filter string, which HBase refuses, no versions, ...).
    TScan {
        start_row: Some(start.to_vec()),
        // An empty stop row is the end of the table, as in HBase.
        stop_row: (!stop.is_empty()).then(|| stop.to_vec()),
        columns: columns.thrift_columns(),
        caching: Some(page),
        max_versions: columns.thrift_versions(),
        time_range: columns.thrift_time_range(),
        filter_string: None,
        batch_size: None,
        attributes: None,
        authorizations: None,
        reversed: None,
        cache_blocks: None,
        col_fam_time_range_map: None,
        read_type: None,
        limit: None,
        consistency: None,
        target_replica_id: None,
        filter_bytes: None,
    }
}

/// The rows of one range, as the pages its thread sends arrive.
struct PageRows {
    pages: Option<mpsc::Receiver<Result<Vec<Row>, Error>>>,
    page: std::vec::IntoIter<Row>,
    error: Option<Error>,
}

impl PageRows {
    fn new(pages: mpsc::Receiver<Result<Vec<Row>, Error>>) -> Self {
        PageRows {
            pages: Some(pages),
            page: Vec::new().into_iter(),
            error: None,
        }
    }

    fn failed(e: Error) -> Self {
        PageRows {
            pages: None,
            page: Vec::new().into_iter(),
            error: Some(e),
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
            let Some(pages) = self.pages.as_mut() else {
                return Poll::Ready(None);
            };
            match pages.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(rows))) => self.page = rows.into_iter(),
                Poll::Ready(Some(Err(e))) => {
                    self.pages = None;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(None) => {
                    self.pages = None;
                    return Poll::Ready(None);
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
