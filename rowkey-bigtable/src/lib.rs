//! rowkey's plans on Cloud Bigtable (on [`bigtable_rs`]): a plan as a [`RowSet`], every range
//! read at once and merged back in order, and split points in and out of Bigtable.
//!
//! Two traps sit between a plan and a Bigtable request, and this crate closes both:
//!
//! - **An empty `RowSet` reads the whole table.** A plan can read nothing (a value no key can hold,
//!   a plan resumed past its end, a region of [`Scan::split`] the plan does not reach). Such a
//!   plan has no `RowSet` at all: [`row_set`] gives `None`, and nothing may be sent.
//! - **Row keys are at most 4 KiB** ([`limits::BIGTABLE`]). A longer key in a range or a write is
//!   an [`EncodeError`] ([`EncodeErrorKind::RowTooLong`])
//!   before any request: [`row_key`], [`row_set`], [`read_rows`], [`initial_splits`].
//!
//! [`read_rows`] reads every range of a plan concurrently (one `ReadRows` request per range,
//! through [`fanout`](rowkey::fanout)) and gives one stream of the rows the query matches: a salted
//! plan's buckets merged into the order of the key after the salt, other plans in range order.
//! It survives faults by itself, as Google's own clients do: a page of a range that fails for a
//! reason that passes (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED, a reset or closed connection, a
//! server that stops answering past the request's deadline) is read again from after the last row
//! returned, with backoff, while the other ranges go on ([`RetryPolicy`];
//! [`read_rows_with`] takes one of your own).
//!
//! ```no_run
//! # async fn demo(client: bigtable_rs::bigtable::BigTable) -> Result<(), Box<dyn std::error::Error>> {
//! use futures::TryStreamExt;
//! use rowkey_bigtable::{read_rows, row_key};
//! use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
//! use rowkey::{RowKey, Scan};
//!
//! #[derive(RowKey)]
//! #[rowkey(salt(buckets = 16))]
//! struct Event {
//!     ts_millis: u64,
//!     event_id: u32,
//! }
//!
//! // Writes: the key, checked against the 4 KiB limit before it is sent.
//! let key: Vec<u8> = row_key(&Event { ts_millis: 1_700_000_000_000, event_id: 7 })?;
//! // Reads: 16 buckets in flight at once, rows back in time order.
//! let request = ReadRowsRequest {
//!     table_name: client.get_full_table_name("events"),
//!     ..ReadRowsRequest::default()
//! };
//! let plan: Scan<Event> = Event::scan().ts_millis_range(1_700_000_000_000..1_700_000_060_000).into();
//! let rows: Vec<_> = read_rows(&client, &request, &plan, 16)?.try_collect().await?;
//! // A builder's state is a plan to read as it is.
//! let first_minute = Event::scan().ts_millis_range(1_700_000_000_000..1_700_000_060_000);
//! let again: Vec<_> = read_rows(&client, &request, first_minute, 16)?.try_collect().await?;
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs, missing_debug_implementations)]
#![forbid(unsafe_code)]

use std::pin::Pin;
use std::task::{Context, Poll};

use bigtable_rs::bigtable::{BigTable, Error, RowCell};
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{ReadRowsRequest, RowRange, RowSet};
use futures_util::stream::{self, Stream, StreamExt};
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::create_table_request::Split;

use rowkey::retry::RetryPolicy;
use rowkey::{limits, EncodeError, EncodeErrorKind, KeyRange, RowKey, Scan};

/// A row as [`bigtable_rs`] reads it: the key and its cells.
pub type Row = (Vec<u8>, Vec<RowCell>);

/// The rows of [`read_rows`].
pub type Rows = Pin<Box<dyn Stream<Item = Result<Row, Error>> + Send>>;

/// `key` encoded, checked against Bigtable's 4 KiB row key limit: the key to write.
///
/// ```
/// use rowkey_bigtable::row_key;
/// use rowkey::{EncodeErrorKind, RowKey};
///
/// #[derive(RowKey)]
/// struct Page {
///     url: String,
/// }
///
/// assert_eq!(row_key(&Page { url: "a".repeat(4096) })?.len(), 4096);
/// let err = row_key(&Page { url: "a".repeat(4097) }).unwrap_err();
/// assert_eq!(err.kind(), EncodeErrorKind::RowTooLong { len: 4097, max: 4096 });
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn row_key<K: RowKey + ?Sized>(key: &K) -> Result<Vec<u8>, EncodeError> {
    let bytes = key.to_vec()?;
    limits::check(&bytes, limits::BIGTABLE)?;
    Ok(bytes)
}

/// `range` as a Bigtable [`RowRange`] over the keys Bigtable can hold, or `None` when no key lies
/// in it. An empty start or stop is left unset (the start or the end of the table).
///
/// A bound over 4 KiB is cut to its first 4 KiB without changing which storable keys the range
/// holds: the stop `k 00` just after a 4 KiB key `k` becomes the closed end `k`, and a start past
/// 4 KiB becomes an open start. A range that only keys over 4 KiB could be in (a query for a value
/// whose key Bigtable cannot hold) is an [`EncodeError`]
/// ([`RowTooLong`](rowkey::EncodeErrorKind::RowTooLong)).
///
/// ```
/// use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
/// use rowkey_bigtable::row_range;
/// use rowkey::KeyRange;
///
/// let range = row_range(&KeyRange::new(b"user/7", b""))?.unwrap();
/// assert_eq!(range.start_key, Some(StartKey::StartKeyClosed(b"user/7".to_vec())));
/// assert_eq!(range.end_key, None); // to the end of the table
/// assert!(row_range(&KeyRange::new(b"b", b"a"))?.is_none());
///
/// // The one 4 KiB key k: [k, k 00) is [k, k].
/// let k = [7u8; 4096];
/// let stop = [&k[..], &[0]].concat();
/// let range = row_range(&KeyRange::new(&k, &stop))?.unwrap();
/// assert_eq!(range.end_key, Some(EndKey::EndKeyClosed(k.to_vec())));
/// // A 5,000-byte key cannot be stored: asking for it is an error before any request.
/// let long = [7u8; 5000];
/// let stop = [&long[..], &[0]].concat();
/// assert!(row_range(&KeyRange::new(&long, &stop)).is_err());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn row_range(range: &KeyRange) -> Result<Option<RowRange>, EncodeError> {
    Ok(
        storable(range, limits::BIGTABLE)?.map(|(start, end)| RowRange {
            start_key: match start {
                Lower::First => None,
                Lower::Closed(key) => Some(StartKey::StartKeyClosed(key.to_vec())),
                Lower::Open(key) => Some(StartKey::StartKeyOpen(key.to_vec())),
            },
            end_key: match end {
                Upper::Last => None,
                Upper::Open(key) => Some(EndKey::EndKeyOpen(key.to_vec())),
                Upper::Closed(key) => Some(EndKey::EndKeyClosed(key.to_vec())),
            },
        }),
    )
}

/// The start of a range over keys of at most `max` bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Lower<'a> {
    First,
    Closed(&'a [u8]),
    Open(&'a [u8]),
}

/// The end of a range over keys of at most `max` bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Upper<'a> {
    Last,
    Open(&'a [u8]),
    Closed(&'a [u8]),
}

/// `range` restricted to keys of at most `max` bytes, as bounds of at most `max` bytes: the same
/// keys of that length, or `None` when `range` is empty. An error when the range is not empty but
/// holds only longer keys.
///
/// Why cutting a bound to `p`, its first `max` bytes, keeps the keys: a key `k` of at most `max`
/// bytes is below a longer stop `s` exactly when `k <= p` (`p` is a proper prefix of `s`; a `k`
/// below `s` either is a prefix of `p` or differs from it first at a smaller byte), and at or
/// above a longer start exactly when `k > p` (the same argument the other way).
fn storable(range: &KeyRange, max: usize) -> Result<Option<(Lower<'_>, Upper<'_>)>, EncodeError> {
    if range.is_empty() {
        return Ok(None);
    }
    let (start, stop) = (range.start(), range.stop());
    let lower = match start {
        [] => Lower::First,
        s if s.len() <= max => Lower::Closed(s),
        s => Lower::Open(&s[..max]),
    };
    let upper = match stop {
        [] => Upper::Last,
        s if s.len() <= max => Upper::Open(s),
        s => Upper::Closed(&s[..max]),
    };
    let empty = match (lower, upper) {
        (Lower::First, _) | (_, Upper::Last) => false,
        (Lower::Closed(l), Upper::Open(u)) => l >= u,
        (Lower::Closed(l), Upper::Closed(u)) => l > u,
        (Lower::Open(l), Upper::Open(u) | Upper::Closed(u)) => l >= u,
    };
    if empty {
        // Not empty before the cut: every key it held is longer than the limit.
        let len = if start.len() > max {
            start.len()
        } else {
            stop.len()
        };
        return Err(EncodeError::new(EncodeErrorKind::RowTooLong { len, max }));
    }
    Ok(Some((lower, upper)))
}

/// The [`RowSet`] that reads `scan`'s ranges, or `None` when the plan reads nothing: Bigtable reads
/// the whole table for an empty `RowSet`, so send no request then. Bounds past the 4 KiB limit are
/// mapped as [`row_range`] does: a plan only for keys over the limit is an error.
///
/// Rows of the set come back in key order. A plan that is not [`exact`](Scan::is_exact) reads
/// rows outside the query too: keep those that [`Scan::matches`].
///
/// ```
/// use rowkey_bigtable::row_set;
/// use rowkey::{RowKey, Scan};
///
/// #[derive(RowKey)]
/// struct Event {
///     #[rowkey(salt(buckets = 4))]
///     user: u32,
///     ts: u64,
/// }
///
/// let plan: Scan<Event> = Event::scan().user_in([1, 2]).into();
/// let set = row_set(&plan)?.unwrap();
/// assert_eq!(set.row_ranges.len(), plan.ranges().count()); // a RowRange a range
/// // A plan cut after its last key reads nothing: no RowSet, no request.
/// let plan: Scan<Event> = Event::scan().user(1).into();
/// assert!(row_set(&plan.after(&[0xFF; 16]))?.is_none());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn row_set<K: ?Sized>(scan: &Scan<K>) -> Result<Option<RowSet>, EncodeError> {
    let mut row_ranges = Vec::new();
    for range in scan.ranges() {
        if let Some(range) = row_range(&range)? {
            row_ranges.push(range);
        }
    }
    Ok((!row_ranges.is_empty()).then(|| RowSet {
        row_keys: Vec::new(),
        row_ranges,
    }))
}

/// Reads every range of `scan` concurrently through `client`, at most `concurrency` ranges at once
/// (a salted plan keeps every bucket open), and gives the rows the
/// query matches as one stream: merged into the order of the key after the salt for a salted plan,
/// in key order otherwise.
///
/// Faults are survived with the default [`RetryPolicy`]: each page request has its deadline, and a
/// page that fails for a reason that passes is sent again (10 tries, backoff from 50 ms to 5 s
/// with jitter), from after the last row of the page before, so no row is returned twice; the
/// other ranges keep going meanwhile (a salted read keeps merging). An error that will not pass
/// (NOT_FOUND, INVALID_ARGUMENT, PERMISSION_DENIED, ...), or the last try's, is the next item, and
/// the stream ends after it; resume with [`Scan::after`] the last key read.
///
/// `request` gives the table, app profile and filter; its `rows` are replaced, and its
/// `rows_limit` is the page size: each range is read in `ReadRows` requests of that many rows,
/// each resuming after the last key of the one before. Unset, the pages of the lanes open at once
/// hold [`ROWS_IN_FLIGHT`] rows together. Paging bounds how many rows the server may have sent
/// and the client not yet taken: the HTTP/2 client (`h2` 0.4.20) closes a connection that has
/// buffered more than about 12,000 small messages ("too_many_data_frames", ENHANCE_YOUR_CALM),
/// which an unpaged read of small rows reaches at once when the server sends a message a row, as
/// the emulator does. With a `rows_limit` of your own, keep it times the lanes under that.
///
/// Every range is mapped as [`row_range`] does first: a plan only for keys over the 4 KiB limit is
/// an error here, before any request. A plan that reads nothing sends nothing.
///
/// Needs a tokio runtime to be polled, as [`bigtable_rs`] does.
///
/// `scan` is a plan, `&plan`, or a builder's state as it is (`Event::scan().user(7)`).
pub fn read_rows<K: ?Sized + 'static>(
    client: &BigTable,
    request: &ReadRowsRequest,
    scan: impl Into<Scan<K>>,
    concurrency: usize,
) -> Result<Rows, EncodeError> {
    read_rows_with(client, request, scan, concurrency, &RetryPolicy::default())
}

/// [`read_rows`] with the retry policy `policy`: its deadline for every page request, its tries
/// and backoff for the failures that pass ([`RetryPolicy::never`] returns the first error).
pub fn read_rows_with<K: ?Sized + 'static>(
    client: &BigTable,
    request: &ReadRowsRequest,
    scan: impl Into<Scan<K>>,
    concurrency: usize,
    policy: &RetryPolicy,
) -> Result<Rows, EncodeError> {
    let scan = &scan.into();
    let mut ranges = Vec::new();
    for range in scan.ranges() {
        if row_range(&range)?.is_some() {
            ranges.push(range);
        }
    }
    let salt_len = scan.salt_len();
    let page = match request.rows_limit {
        0 => {
            // Lanes open at once: every bucket of a salted plan (they are merged), else the limit.
            let buckets = 1 + ranges
                .windows(2)
                .filter(|w| w[0].start().get(..salt_len) != w[1].start().get(..salt_len))
                .count();
            let lanes = if salt_len > 0 {
                concurrency.max(buckets)
            } else {
                concurrency
            };
            ROWS_IN_FLIGHT / lanes.clamp(1, ranges.len().max(1)) as i64
        }
        rows => rows,
    };
    let (client, template, policy) = (client.clone(), request.clone(), policy.clone());
    let reader = move |range: KeyRange| {
        let lane = read_range(
            client.clone(),
            template.clone(),
            range,
            page,
            policy.clone(),
        );
        async move { Ok::<_, Error>(lane) }
    };
    let rows =
        rowkey::fanout::read_ranges(
            ranges,
            salt_len,
            concurrency,
            reader,
            |row: &Row| &row.0[..],
        );
    let filter = (!scan.is_exact()).then(|| scan.clone());
    Ok(Box::pin(Matching {
        rows: Box::pin(rows),
        filter,
    }))
}

/// Rows that the pages of [`read_rows`] ask for together, over all the lanes open at once, when
/// the request sets no `rows_limit`: a page of a lane is this divided by the lanes.
pub const ROWS_IN_FLIGHT: i64 = 8_000;

/// `range` read in pages of `page` rows, each page a request that resumes after the last key of
/// the one before, and is sent again as `policy` says when it fails: a page's rows are returned
/// only once the whole page is read, so a page read again returns none of them twice.
fn read_range(
    client: BigTable,
    template: ReadRowsRequest,
    range: KeyRange,
    page: i64,
    policy: RetryPolicy,
) -> impl Stream<Item = Result<Row, Error>> + Send {
    stream::unfold(Some((client, range)), move |state| {
        let template = template.clone();
        let policy = policy.clone();
        async move {
            let (mut client, range) = state?;
            // Bounds were checked when the plan was taken; a page's start is a read key and 00.
            let row_range = row_range(&range).ok().flatten()?;
            let request = ReadRowsRequest {
                rows: Some(RowSet {
                    row_keys: Vec::new(),
                    row_ranges: std::vec![row_range],
                }),
                rows_limit: page,
                ..template
            };
            match read_page(&mut client, request, &policy).await {
                Err(e) => Some((std::vec![Err(e)], None)),
                Ok(rows) => {
                    let rest = match rows.last() {
                        Some((last, _)) if rows.len() as i64 >= page => {
                            let after = [&last[..], &[0]].concat();
                            Some((client, KeyRange::new(&after, range.stop())))
                        }
                        _ => None,
                    };
                    Some((rows.into_iter().map(Ok).collect::<Vec<_>>(), rest))
                }
            }
        }
    })
    .flat_map(stream::iter)
}

/// One page request, within the policy's deadline, sent again after a failure that passes.
async fn read_page(
    client: &mut BigTable,
    request: ReadRowsRequest,
    policy: &RetryPolicy,
) -> Result<Vec<Row>, Error> {
    let mut failed = 0;
    loop {
        let error = match tokio::time::timeout(policy.deadline(), client.read_rows(request.clone()))
            .await
        {
            Ok(Ok(rows)) => return Ok(rows),
            Ok(Err(e)) if passes(&e) => e,
            Ok(Err(e)) => return Err(e),
            // The server stopped answering: the request is dropped (its stream cancelled).
            Err(_) => Error::TimeoutError(policy.deadline().as_secs()),
        };
        failed += 1;
        if failed >= policy.attempts() {
            return Err(error);
        }
        tokio::time::sleep(policy.backoff(failed)).await;
    }
}

/// Whether a failed request may succeed if sent again: a status that passes
/// ([`grpc_status_passes`](rowkey::retry::grpc_status_passes)), a connection that failed, or a deadline
/// passed.
fn passes(error: &Error) -> bool {
    match error {
        Error::RpcError(status) => status_passes(status),
        Error::TransportError(_) | Error::IoError(_) | Error::TimeoutError(_) => true,
        _ => false,
    }
}

/// Drops the rows an inexact plan reads but its query does not match.
struct Matching<S, K: ?Sized> {
    rows: Pin<Box<S>>,
    filter: Option<Scan<K>>,
}

impl<S, K> Stream for Matching<S, K>
where
    S: Stream<Item = Result<Row, Error>>,
    K: ?Sized,
{
    type Item = Result<Row, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            match self.rows.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(row)))
                    if self.filter.as_ref().is_some_and(|f| !f.matches(&row.0)) => {}
                other => return other,
            }
        }
    }
}

/// `split_keys` as CreateTable's initial splits (a pre-split table, one tablet per region):
/// sorted, duplicates and the empty key dropped, each checked against the 4 KiB limit.
///
/// ```
/// use rowkey_bigtable::initial_splits;
/// use rowkey::{RowKey};
///
/// #[derive(RowKey)]
/// #[rowkey(salt(buckets = 16))]
/// struct Event {
///     ts_millis: u64,
///     event_id: u32,
/// }
///
/// let splits = initial_splits(Event::split_keys(16))?;
/// assert_eq!(splits.len(), 15); // a tablet per salt bucket
/// assert_eq!(splits[0].key, [1]);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn initial_splits<B: AsRef<[u8]>>(
    split_keys: impl IntoIterator<Item = B>,
) -> Result<Vec<Split>, EncodeError> {
    let mut keys = Vec::new();
    for key in split_keys {
        let key = key.as_ref();
        limits::check(key, limits::BIGTABLE)?;
        if !key.is_empty() {
            keys.push(key.to_vec());
        }
    }
    keys.sort_unstable();
    keys.dedup();
    Ok(keys.into_iter().map(|key| Split { key }).collect())
}

/// The split points of `table_name` from Bigtable's `SampleRowKeys`, ready for [`Scan::split`]:
/// the sampled keys in order, without the empty key that marks the end of the table.
///
/// The samples are only as even as the server makes them (the emulator picks about 1% of the rows
/// at random); any boundaries give a correct split, only the balance depends on them.
pub async fn sample_split_keys(
    client: &mut BigTable,
    table_name: &str,
) -> Result<Vec<Vec<u8>>, Error> {
    use bigtable_rs::google::bigtable::v2::SampleRowKeysRequest;
    let request = SampleRowKeysRequest {
        table_name: client.get_full_table_name(table_name),
        ..SampleRowKeysRequest::default()
    };
    let mut samples = client.sample_row_keys(request).await?;
    let mut keys = Vec::new();
    while let Some(sample) = samples.message().await.map_err(Error::RpcError)? {
        if !sample.row_key.is_empty() {
            keys.push(sample.row_key);
        }
    }
    keys.sort_unstable();
    keys.dedup();
    Ok(keys)
}

/// [`grpc_status_passes`](rowkey::retry::grpc_status_passes) for tonic's status.
fn status_passes(status: &tonic::Status) -> bool {
    rowkey::retry::grpc_status_passes(
        i32::from(status.code()),
        status.message(),
        std::error::Error::source(status).is_some(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    /// Whether `key` lies between `lower` and `upper`.
    fn holds(lower: Lower<'_>, upper: Upper<'_>, key: &[u8]) -> bool {
        let above = match lower {
            Lower::First => true,
            Lower::Closed(l) => key >= l,
            Lower::Open(l) => key > l,
        };
        let below = match upper {
            Upper::Last => true,
            Upper::Open(u) => key < u,
            Upper::Closed(u) => key <= u,
        };
        above && below
    }

    /// Every key of up to `len` bytes over `alphabet`.
    fn keys(alphabet: &[u8], len: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..len {
            last = last
                .iter()
                .flat_map(|k: &Vec<u8>| alphabet.iter().map(move |&b| [&k[..], &[b]].concat()))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn cut_bounds_hold_the_same_storable_keys() {
        // Limit 2, every range with bounds of up to 4 bytes, every key of up to 2 bytes.
        const MAX: usize = 2;
        let alphabet = [0x00, 0x01, 0xFF];
        let stored = keys(&alphabet, MAX);
        let bounds = keys(&alphabet, 4);
        let (mut cut, mut refused) = (0, 0);
        for start in &bounds {
            for stop in &bounds {
                let range = KeyRange::new(start, stop);
                let held: Vec<&Vec<u8>> = stored.iter().filter(|k| range.contains(k)).collect();
                match storable(&range, MAX) {
                    Ok(None) => assert!(range.is_empty(), "{range:?} dropped"),
                    Ok(Some((lower, upper))) => {
                        let lower_len = match lower {
                            Lower::First => 0,
                            Lower::Closed(l) | Lower::Open(l) => l.len(),
                        };
                        let upper_len = match upper {
                            Upper::Last => 0,
                            Upper::Open(u) | Upper::Closed(u) => u.len(),
                        };
                        assert!(lower_len <= MAX && upper_len <= MAX, "{range:?}");
                        cut += usize::from(start.len() > MAX || stop.len() > MAX);
                        let mapped: Vec<&Vec<u8>> =
                            stored.iter().filter(|k| holds(lower, upper, k)).collect();
                        assert_eq!(mapped, held, "{range:?} as {lower:?}..{upper:?}");
                    }
                    Err(e) => {
                        refused += 1;
                        assert!(held.is_empty(), "{range:?} refused but holds {held:?}");
                        assert!(!range.is_empty(), "{range:?}");
                        assert!(matches!(
                            e.kind(),
                            EncodeErrorKind::RowTooLong { max: MAX, .. }
                        ));
                    }
                }
            }
        }
        assert!(cut > 1_000 && refused > 100, "cut {cut}, refused {refused}");
    }
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
