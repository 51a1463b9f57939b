//! rowkey's plans on Cloud Bigtable (on [`bigtable_rs`]): a plan as a [`RowSet`], every range
//! read at once and merged back in order, and split points in and out of Bigtable.
//!
//! Two traps sit between a plan and a Bigtable request, and this crate closes both:
//!
//! - **An empty `RowSet` reads the whole table.** A plan can read nothing (a value no key can hold,
//!   a plan resumed past its end, a region of [`Scan::split`] the plan does not reach). Such a
//!   plan has no `RowSet` at all: [`row_set`] gives `None`, and nothing may be sent.
//! - **Row keys are at most 4 KiB** ([`limits::BIGTABLE`]). A longer key in a range or a write is
//!   an [`EncodeError`] ([`EncodeErrorKind::RowTooLong`](rowkey::EncodeErrorKind::RowTooLong))
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
use std::time::Duration;

use bigtable_rs::bigtable::{BigTable, Error, RowCell};
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{ReadRowsRequest, RowRange, RowSet};
use futures_util::stream::{self, Stream, StreamExt};
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::create_table_request::Split;

use rowkey::retry::{grpc_status_passes, Request, RetryPolicy};
use rowkey::{limits, EncodeError, KeyRange, RowKey, Scan};

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
/// A bound over 4 KiB is replaced by one within 4 KiB that holds the same storable keys
/// ([`limits::clamp`], where the proof is): the stop `k 00` just after a 4 KiB key `k` becomes
/// the stop row of the prefix `k`. A range that only keys over 4 KiB could be in (a query for a value
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
/// // The one 4 KiB key k: [k, k 00) holds what [k, k with its last byte raised) holds.
/// let k = [7u8; 4096];
/// let stop = [&k[..], &[0]].concat();
/// let range = row_range(&KeyRange::new(&k, &stop))?.unwrap();
/// let raised = [&[7u8; 4095][..], &[8]].concat();
/// assert_eq!(range.end_key, Some(EndKey::EndKeyOpen(raised)));
/// // A 5,000-byte key cannot be stored: asking for it is an error before any request.
/// let long = [7u8; 5000];
/// let stop = [&long[..], &[0]].concat();
/// assert!(row_range(&KeyRange::new(&long, &stop)).is_err());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn row_range(range: &KeyRange) -> Result<Option<RowRange>, EncodeError> {
    Ok(
        limits::clamp(range, limits::BIGTABLE)?.map(|range| RowRange {
            // An empty bound is the table's edge: no bound at all.
            start_key: (!range.start().is_empty())
                .then(|| StartKey::StartKeyClosed(range.start().to_vec())),
            end_key: (!range.stop().is_empty()).then(|| EndKey::EndKeyOpen(range.stop().to_vec())),
        }),
    )
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
    let mut page = Page {
        client,
        request,
        deadline: policy.deadline(),
    };
    policy.send(&mut page, tokio::time::sleep).await
}

/// A `ReadRows` request of one page.
struct Page<'a> {
    client: &'a mut BigTable,
    request: ReadRowsRequest,
    deadline: Duration,
}

impl Request for Page<'_> {
    type Output = Vec<Row>;
    type Error = Error;

    async fn send(&mut self) -> Result<Vec<Row>, Error> {
        let read = self.client.read_rows(self.request.clone());
        match tokio::time::timeout(self.deadline, read).await {
            Ok(result) => result,
            // The server stopped answering: the request is dropped (its stream cancelled).
            Err(_) => Err(Error::TimeoutError(self.deadline.as_secs())),
        }
    }

    /// A status that passes ([`grpc_status_passes`]), a connection that failed, or a deadline
    /// passed.
    fn passes(&self, error: &Error) -> bool {
        match error {
            Error::RpcError(status) => grpc_status_passes(
                i32::from(status.code()),
                std::error::Error::source(status).is_some(),
            ),
            Error::TransportError(_) | Error::IoError(_) | Error::TimeoutError(_) => true,
            _ => false,
        }
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

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
