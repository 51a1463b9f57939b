//! The threads and connections of one read: a pool of at most `concurrency` workers, each with
//! a connection of its own, that fetch pages for every open range of the plan, whatever their
//! number. A salted plan of 256 buckets keeps 256 ranges open for its merge, and their scanners
//! live on the server (any connection may ask a scanner for its next page), so 16 workers serve
//! them all: 16 threads and 16 connections, not 256 of each.
//!
//! The workers take the oldest page of the region server with the fewest pages being read, so
//! they spread over the servers that hold the plan's regions rather than queue on one.
//!
//! A range asks for one page at a time and asks for the next as soon as a page arrives, so each
//! range has at most one page waiting in memory and one in flight. A worker never waits on a
//! reader (its answer goes over a one-shot channel), so a merge waiting for one bucket's page
//! cannot hold up the worker that would fetch it.
//!
//! A page that fails for a reason that may pass is asked for again under the [`RetryPolicy`], by
//! the same worker, on a new connection if the old one failed, from a new scanner that starts
//! just after the last row the range has given: nothing lost, nothing repeated.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use futures::channel::oneshot;
use rowkey::hbase::MAX_ROW_LENGTH;
use rowkey::retry::{Request, RetryPolicy};
use rowkey::{limits, KeyRange};

use crate::endpoint::Endpoint;
use crate::error::{ErrorKind, Fault};
use crate::filters::{remaining, Filters};
use crate::hbase::TScan;
use crate::hbase::{TIOError, TIllegalArgument, TTHBaseServiceSyncClient};
use crate::judge;
use crate::link::{Client, Idle};
use crate::regions::Piece;
use crate::{Columns, Error, Row};

/// What the workers of one read share: where to read, how, and the connections to reuse.
pub(crate) struct Lane {
    pub(crate) endpoint: Endpoint,
    pub(crate) addr: SocketAddr,
    pub(crate) table: Vec<u8>,
    pub(crate) columns: Columns,
    /// What every scanner asks the region servers to leave behind.
    pub(crate) filters: Filters,
    pub(crate) page: i32,
    pub(crate) policy: RetryPolicy,
    pub(crate) idle: Arc<Idle>,
    pub(crate) retries: Arc<AtomicU64>,
}

/// One scanner's progress: where its next page starts, the ranges it reads (several, one
/// region's, or its own bounds alone), and its scanner on the server.
pub(crate) struct Range {
    start: Vec<u8>,
    stop: Vec<u8>,
    /// The ranges between `start` and `stop` the scanner reads (HBase's `MultiRowRangeFilter`),
    /// or `None` for all of `[start, stop)`.
    within: Option<Arc<[KeyRange]>>,
    /// The server of the region the scanner starts in, when known.
    server: Option<usize>,
    scanner: Option<i32>,
}

impl Range {
    /// The scanner of `piece`'s ranges.
    pub(crate) fn new(piece: &Piece) -> Range {
        Range {
            start: piece.hull.start().to_vec(),
            stop: piece.hull.stop().to_vec(),
            within: piece.ranges.clone(),
            server: piece.server,
            scanner: None,
        }
    }
}

/// A worker's job: the next page of a range, and where the answer goes.
struct Job(Range, oneshot::Sender<Reply>);

/// A worker's answer to a page asked for.
pub(crate) enum Reply {
    /// Rows, and the range to read on (`None`: the range is read to its end).
    Page(Vec<Row>, Option<Range>),
    /// An error that will not pass, or the last try's: the range ends with it.
    Failed(Error),
}

/// The jobs of one read's workers (a handle: every range holds one; the workers stop when the
/// last is dropped).
#[derive(Clone)]
pub(crate) struct Pool {
    handle: Arc<Handle>,
}

/// The queue as the readers hold it: when the last reader drops it, the workers are told to stop.
struct Handle(Arc<Queue>);

impl Drop for Handle {
    fn drop(&mut self) {
        if let Ok(mut queued) = self.0.state.lock() {
            queued.open = false;
        }
        self.0.ready.notify_all();
    }
}

/// The pages asked for and not yet taken, and how many pages each server is reading: a worker
/// takes the oldest page of the server with the fewest pages being read, so a read's threads
/// spread over the region servers that hold its regions rather than queue on one.
struct Queue {
    state: Mutex<Queued>,
    ready: Condvar,
}

struct Queued {
    jobs: VecDeque<Job>,
    /// Pages being read, by server (`None`: a range whose server is not known).
    reading: HashMap<Option<usize>, usize>,
    /// Whether a reader still holds the pool.
    open: bool,
}

impl Queue {
    /// The next job, waiting for one; `None` once every reader is gone and no job is left.
    fn take(&self) -> Option<Job> {
        let mut queued = self.state.lock().ok()?;
        loop {
            let reading = &queued.reading;
            let least = (queued.jobs.iter().enumerate())
                .min_by_key(|(i, job)| (reading.get(&job.0.server).copied().unwrap_or(0), *i))
                .map(|(i, _)| i);
            if let Some(job) = least.and_then(|i| queued.jobs.remove(i)) {
                *queued.reading.entry(job.0.server).or_insert(0) += 1;
                return Some(job);
            }
            if !queued.open {
                return None;
            }
            queued = self.ready.wait(queued).ok()?;
        }
    }

    /// A page of `server` is read.
    fn done(&self, server: Option<usize>) {
        if let Ok(mut queued) = self.state.lock() {
            if let Some(n) = queued.reading.get_mut(&server) {
                *n = n.saturating_sub(1);
            }
        }
    }
}

/// Threads that fetch pages are named so; a test counts them.
const THREAD_NAME: &str = "rowkey-hbase-read";

/// Where a request failed, which decides whether it may pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Open,
    Page,
}

impl Pool {
    /// A pool of `workers` threads (at least 1) for `lane`; an error when not even one starts.
    pub(crate) fn start(lane: Arc<Lane>, workers: usize) -> Result<Pool, Error> {
        let queue = Arc::new(Queue {
            state: Mutex::new(Queued {
                jobs: VecDeque::new(),
                reading: HashMap::new(),
                open: true,
            }),
            ready: Condvar::new(),
        });
        let mut started = 0;
        let mut failure = None;
        for _ in 0..workers.max(1) {
            let (lane, queue) = (lane.clone(), queue.clone());
            match std::thread::Builder::new()
                .name(THREAD_NAME.into())
                .spawn(move || work(&lane, &queue))
            {
                Ok(_) => started += 1,
                Err(e) => failure = Some(e),
            }
        }
        match (started, failure) {
            (0, Some(e)) => Err(Error::new(
                ErrorKind::Closed,
                Some(&lane.endpoint),
                format!("cannot start a thread to read with: {e}"),
            )),
            _ => Ok(Pool {
                handle: Arc::new(Handle(queue)),
            }),
        }
    }

    /// Asks for the next page of `range`.
    pub(crate) fn ask(&self, range: Range) -> oneshot::Receiver<Reply> {
        let (reply, answer) = oneshot::channel();
        // If every worker has died, the job is never taken, and the reader waits: a worker
        // that panics drops its job's sender, which ends that answer as cancelled, and the
        // reader reports it and stops.
        let queue = &self.handle.0;
        if let Ok(mut queued) = queue.state.lock() {
            queued.jobs.push_back(Job(range, reply));
        }
        queue.ready.notify_one();
        answer
    }
}

/// A worker: takes jobs until every handle is dropped, on a connection of its own (from the
/// connections kept between reads, or new), which it keeps for the next read when it is done.
fn work(lane: &Lane, queue: &Queue) {
    let mut client: Option<Client> = None;
    while let Some(Job(range, reply)) = queue.take() {
        let server = range.server;
        if reply.is_canceled() {
            // The reader stopped before the page was read: its scanner goes.
            close(&mut client, range.scanner);
        } else {
            let answer = lane.page(&mut client, range);
            if let Err(Reply::Page(_, Some(range))) = reply.send(answer) {
                // The reader stopped while the page was read: its scanner goes.
                close(&mut client, range.scanner);
            }
        }
        queue.done(server);
    }
    if let Some(c) = client {
        lane.idle.give(c);
    }
}

fn close(client: &mut Option<Client>, scanner: Option<i32>) {
    if let (Some(c), Some(id)) = (client.as_mut(), scanner) {
        let _ = c.close_scanner(id);
    }
}

impl Lane {
    /// The next page of `range` on `client`, asked for again under the retry policy when it
    /// fails for a reason that may pass.
    fn page(&self, client: &mut Option<Client>, mut range: Range) -> Reply {
        let mut request = PageRequest {
            lane: self,
            client,
            range: &mut range,
        };
        let sent = self.policy.send(&mut request, |wait| {
            std::thread::sleep(wait);
            std::future::ready(())
        });
        match futures::executor::block_on(sent) {
            Ok(rows) if rows.is_empty() => {
                close(client, range.scanner);
                Reply::Page(rows, None)
            }
            Ok(rows) => match limits::next_key(&rows[rows.len() - 1].key, MAX_ROW_LENGTH) {
                Some(next) => {
                    range.start = next;
                    Reply::Page(rows, Some(range))
                }
                // The last row was the last key HBase can hold.
                None => {
                    close(client, range.scanner);
                    Reply::Page(rows, None)
                }
            },
            Err(PageError::Missing(missing)) => Reply::Failed(missing),
            Err(PageError::Failed(_, e, fault)) => Reply::Failed(judge::request(
                e,
                fault,
                &self.endpoint,
                false,
                self.policy.deadline(),
            )),
        }
    }

    /// One try of the next page of `range`, connecting and opening its scanner first when there
    /// is none.
    fn try_page(
        &self,
        client: &mut Option<Client>,
        range: &mut Range,
    ) -> Result<Vec<Row>, (Step, thrift::Error, Option<Fault>)> {
        let c = match client {
            Some(c) => c,
            None => client.insert(match self.idle.take() {
                Some(c) => c,
                None => self
                    .endpoint
                    .open(self.addr, self.policy.deadline())
                    .map_err(|fault| {
                        let e = std::io::Error::other(fault.message().to_string());
                        (Step::Open, thrift::Error::from(e), Some(fault))
                    })?,
            }),
        };
        let id = match range.scanner {
            Some(id) => id,
            // A scanner resumed past the last of its ranges has nothing left to read.
            None if range
                .within
                .as_deref()
                .is_some_and(|w| remaining(w, &range.start).next().is_none()) =>
            {
                return Ok(Vec::new())
            }
            None => {
                let id = c
                    .open_scanner(
                        self.table.clone(),
                        scan(
                            &range.start,
                            &range.stop,
                            self.page,
                            &self.columns,
                            self.filters
                                .bytes(range.within.as_deref(), &range.start)
                                .as_deref(),
                        ),
                    )
                    .map_err(|e| (Step::Open, e, c.take_fault()))?;
                range.scanner = Some(id);
                id
            }
        };
        let results = c
            .get_scanner_rows(id, self.page)
            .map_err(|e| (Step::Page, e, c.take_fault()))?;
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
}

/// Why a try of a page failed: at a step, with the server's or the transport's error, or because
/// the table does not exist (final at once, not after the policy's tries, as a region server
/// gone would make it).
enum PageError {
    Failed(Step, thrift::Error, Option<Fault>),
    Missing(Error),
}

/// One page of a range, the request [`Lane::page`] sends under the retry policy.
struct PageRequest<'a> {
    lane: &'a Lane,
    client: &'a mut Option<Client>,
    range: &'a mut Range,
}

impl Request for PageRequest<'_> {
    type Output = Vec<Row>;
    type Error = PageError;

    fn send(&mut self) -> impl std::future::Future<Output = Result<Vec<Row>, PageError>> {
        let tried = self.lane.try_page(self.client, self.range);
        std::future::ready(tried.map_err(|(step, e, fault)| {
            match self.lane.missing_table(self.client, &e) {
                Some(missing) => PageError::Missing(missing),
                None => PageError::Failed(step, e, fault),
            }
        }))
    }

    fn passes(&self, error: &PageError) -> bool {
        match error {
            PageError::Failed(step, e, fault) => judge(e, fault.as_ref(), *step).0,
            PageError::Missing(_) => false,
        }
    }

    fn before_retry(&mut self, error: &PageError) {
        if let PageError::Failed(step, e, fault) = error {
            if judge(e, fault.as_ref(), *step).1 {
                *self.client = None;
            } else {
                // The server's scanner may be broken: close it, read on from a new one.
                close(self.client, self.range.scanner);
            }
        }
        self.range.scanner = None;
        self.lane.retries.fetch_add(1, Ordering::Relaxed);
    }
}

/// The Thrift2 scan of `[start, stop)` in pages of `page` rows.
pub(crate) fn scan(
    start: &[u8],
    stop: &[u8],
    page: i32,
    columns: &Columns,
    filter: Option<&[u8]>,
) -> TScan {
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
        filter_bytes: filter.map(<[u8]>::to_vec),
    }
}

/// Whether a request that failed with `e` at `step` may succeed if sent again, and whether its
/// connection is lost. A transport or protocol error is a connection cut, reset, refused or
/// stalled past the deadline: it passes on a new connection. HBase's `TIOError` says itself
/// whether it passes (`canRetry`: false for a `DoNotRetryIOException`, such as a table that does
/// not exist) when a scanner opens. `TIllegalArgument` for a page is a scanner the server no
/// longer has (it restarted, or the scanner expired): a new scanner from the same row passes;
/// for opening a scanner, the scan itself is wrong. Thrift's own application errors do not pass.
fn judge(e: &thrift::Error, fault: Option<&Fault>, step: Step) -> (bool, bool) {
    if fault.is_some() {
        let lost = judge::is_connection_lost(e, fault);
        return (lost, lost);
    }
    match e {
        thrift::Error::Transport(_) | thrift::Error::Protocol(_) => {
            let lost = judge::is_connection_lost(e, None);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn job(server: Option<usize>, start: u8) -> Job {
        let piece = Piece {
            hull: KeyRange::new(&[start], &[start + 1]),
            ranges: None,
            server,
        };
        Job(Range::new(&piece), oneshot::channel().0)
    }

    #[test]
    fn workers_take_the_oldest_page_of_the_least_busy_server() {
        let queue = Queue {
            state: Mutex::new(Queued {
                jobs: VecDeque::from([
                    job(Some(0), 1),
                    job(Some(0), 2),
                    job(Some(1), 3),
                    job(None, 4),
                    job(Some(1), 5),
                ]),
                reading: HashMap::from([(Some(0), 2), (Some(1), 1)]),
                open: false,
            }),
            ready: Condvar::new(),
        };
        let mut order = Vec::new();
        while let Some(Job(range, _)) = queue.take() {
            order.push(range.start[0]);
        }
        // Pages being read: server 0 two, server 1 one, unknown none. Each take counts: 4 (none
        // reading), 3 (server 1 at 1), then 1 (server 0 at 2 and server 1 at 2: the oldest), 5
        // (server 1 at 2, server 0 at 3), 2.
        assert_eq!(order, [4, 3, 1, 5, 2]);
        queue.done(Some(0));
        assert_eq!(queue.state.lock().unwrap().reading[&Some(0)], 3);
    }
}
