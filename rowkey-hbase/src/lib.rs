//! rowkey's layouts on Apache HBase, through HBase's Thrift2 server, the way non-JVM
//! clients talk to HBase: row keys checked against HBase's limit ([`row_key`]), tables created
//! pre-split at a layout's split points ([`HBase::create_table`]) and their region boundaries read
//! back ([`HBase::region_starts`], for [`Scan::split`] and readers in parallel), rows written in
//! `putMultiple` batches ([`HBase::put_rows`]), and plans read as `[startRow, stopRow)` scans,
//! page by page, every range at once, a salted plan's buckets merged back into the order of the
//! key after the salt ([`HBase::read_rows`]).
//!
//! # Reads that cost what they return
//!
//! A read leaves to the region servers what HBase's own filters can say exactly:
//!
//! - a plan of many ranges (an `IN` list, salt buckets) is read with one scanner a region (and
//!   salt bucket), carrying HBase's `MultiRowRangeFilter` of that region's ranges, so the server
//!   seeks from range to range; a region that holds one range of the plan reads it with a plain
//!   scanner. The regions come from `getAllRegionLocations`, once a read;
//! - a plan wider than its query because a hash prefix's sources are unbound sends
//!   [`Scan::pattern`] as HBase's `FuzzyRowFilter`: the rows whose bound fields differ never
//!   leave the region servers (what the filter cannot say, a range on a later field, is left to
//!   [`Scan::matches`], which every row of an inexact plan passes through last);
//! - [`ReadOptions::with_keys_only`] adds `FirstKeyOnlyFilter` and `KeyOnlyFilter`.
//!
//! A read's threads take the next page of the region server with the fewest pages being read,
//! so they spread over the servers that hold the plan's regions. [`Rows::received`] counts the
//! rows the servers sent.
//!
//! # What a read survives
//!
//! Every page request of a read is bounded by the [`RetryPolicy`]'s deadline and, when it fails
//! for a reason that may pass, sent again after a backoff, on a new scanner that starts just after
//! the last row its range gave (nothing lost, nothing repeated):
//!
//! - a connection refused, reset, closed or stalled past the deadline (a Thrift server restarted,
//!   a proxy or load balancer that dropped it): on a new connection;
//! - an HBase `TIOError` while a page is read (a region server gone, a scanner's lease expired),
//!   or one HBase marks as retriable when a scanner opens (`canRetry`);
//! - a scanner the server no longer knows (`TIllegalArgument` for a page: the server restarted or
//!   expired it).
//!
//! Not retried: an error HBase marks as not retriable when a scanner opens (a table that does not
//! exist, a `DoNotRetryIOException`), an invalid scan, Thrift's own application errors. Region
//! splits and moves need nothing of rowkey: the Thrift2 server's own HBase client follows them.
//! A connection's own requests (tables, region boundaries, writes) are sent again on a new
//! connection when it fails ([`HBase::with_retry`]); HBase's errors end them at once.
//!
//! # Blocking, and async
//!
//! Apache Thrift's Rust runtime is blocking (there is no async transport), so a read's pages are
//! fetched by a pool of at most its concurrency of threads, each with a connection of its own,
//! every range a page ahead, and handed to `rowkey::fanout`, the fan-out and merge the Bigtable
//! adapter uses. [`Rows`] is a blocking [`Iterator`] and, for async code, a
//! [`Stream`](futures::Stream) that never blocks its executor.
//!
//! # Reversed scans
//!
//! Left out, on purpose. A layout reads newest first by declaring it (`#[rowkey(desc)]`, the
//! `Long.MAX_VALUE - ts` of the HBase book), which a forward scan reads in order at HBase's fastest
//! (HBase's reference guide: a reversed scan is slower than a forward one). And HBase's reversed
//! scan reads `(A, B]` (its start row is included and its stop row excluded, from the top down):
//! Thrift2's `TScan` has no flags to include or exclude a bound, and the key just below `A` has no
//! finite form, so a reversed `[A, B)` would read past `A` and drop rows on the client.
//!
//! ```no_run
//! use rowkey::{RowKey, Scan};
//! use rowkey_hbase::{row_key, HBase};
//!
//! #[derive(RowKey)]
//! #[rowkey(salt(buckets = 8))]
//! struct Event {
//!     ts_millis: u64,
//!     event_id: u32,
//! }
//!
//! let mut hbase = HBase::connect("127.0.0.1:9090")?;
//! hbase.create_table("events", "d", &Event::split_keys(8))?;
//! let key = row_key(&Event { ts_millis: 1_700_000_000_000, event_id: 7 })?;
//! hbase.put_rows("events", "d", &[(key, b"payload".to_vec())])?;
//! let plan: Scan<Event> = Event::scan().ts_millis_range(1_700_000_000_000..).into();
//! for row in hbase.read_rows("events", &plan)? {
//!     println!("{:?}", row?.key); // 8 buckets at once, in time order
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;

use rowkey::phoenix::{PhoenixKey, EMPTY_CELL};
use rowkey::retry::{Request, RetryPolicy};
use rowkey::{limits, EncodeError, RowKey, Scan};

/// HBase's Thrift2 IDL (`hbase.thrift` of hbase-thrift 2.6.1), compiled by the Thrift compiler
/// 0.17.0 (`thrift --gen rs`); `.ci/thrift-check` regenerates it and fails on a difference.
#[allow(
    clippy::all,
    clippy::pedantic,
    dead_code,
    missing_docs,
    rustdoc::all,
    unused_imports,
    unused_extern_crates
)]
#[rustfmt::skip]
#[path = "thrift/hbase.rs"]
#[doc(hidden)]
pub mod __thrift2;

// Not part of the API: `__thrift2` is public only so that the benchmarks' hand-written side
// (benches/hbase.rs) calls the client this crate compiles instead of compiling it a second time.
// The crate itself names it `hbase`, after the IDL.
use __thrift2 as hbase;

use hbase::{TColumnValue, TPut, TTHBaseServiceSyncClient, TTableName};

/// HBase's protobuf messages of filters (`Filter.proto`, with `HBase.proto` and
/// `Comparator.proto` it imports, of hbase-protocol-shaded 2.6.1), generated by prost-build;
/// `.ci/proto-check` generates them again and fails on a difference.
#[allow(
    clippy::all,
    clippy::pedantic,
    dead_code,
    missing_docs,
    rustdoc::all,
    unused_imports
)]
#[rustfmt::skip]
#[path = "proto/hbase.pb.rs"]
mod proto;

mod binary;
mod cells;
mod endpoint;
mod error;
mod filters;
mod framed;
mod http;
mod judge;
mod kerberos;
mod link;
mod pool;
mod regions;
mod socket;
mod tables;
mod tls;
pub use cells::Columns;
pub use endpoint::{Endpoint, Protocol, Qop, Transport};
use error::Fault;
pub use error::{Error, ErrorKind};
use link::Client;
pub use tables::{BloomFilter, Compression, Family};
mod read;
pub use read::{ReadOptions, Rows};

/// `key` encoded, checked against HBase's row limit: the key to write.
///
/// ```
/// use rowkey::{EncodeErrorKind, RowKey};
///
/// #[derive(RowKey)]
/// struct Page {
///     url: String,
/// }
///
/// assert_eq!(rowkey_hbase::row_key(&Page { url: "a".repeat(32_767) })?.len(), 32_767);
/// let err = rowkey_hbase::row_key(&Page { url: "a".repeat(32_768) }).unwrap_err();
/// assert!(matches!(err.kind(), EncodeErrorKind::RowTooLong { len: 32_768, max: 32_767 }));
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn row_key<K: RowKey + ?Sized>(key: &K) -> Result<Vec<u8>, EncodeError> {
    let bytes = key.to_vec()?;
    check_row(&bytes)?;
    Ok(bytes)
}

/// One cell of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cell {
    /// The column family.
    pub family: Vec<u8>,
    /// The column qualifier.
    pub qualifier: Vec<u8>,
    /// The value.
    pub value: Vec<u8>,
    /// The cell's timestamp, when HBase sent one.
    pub timestamp: Option<i64>,
}

/// A row read: its key and its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Row {
    /// The row key.
    pub key: Vec<u8>,
    /// The row's cells.
    pub cells: Vec<Cell>,
}

/// A blocking connection to HBase's Thrift2 server, for tables and writes; reads open connections
/// of their own to the same server, one a range read at once. The server's transport and
/// protocol are the [`Endpoint`]'s.
pub struct HBase {
    endpoint: Endpoint,
    addr: SocketAddr,
    /// None after the connection failed, until the next request connects again.
    client: Option<Client>,
    policy: RetryPolicy,
    /// The reads' connections between reads.
    idle: Arc<link::Idle>,
}

impl fmt::Debug for HBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HBase")
            .field("endpoint", &self.endpoint.to_string())
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl HBase {
    /// Connects to the Thrift2 server at `addr` (`host:port`) in the server's default transport
    /// and protocol (buffered, binary): [`open`](Self::open) of [`Endpoint::tcp`]`(addr)`.
    pub fn connect(addr: &str) -> Result<HBase, Error> {
        HBase::open(Endpoint::tcp(addr))
    }

    /// Connects to the Thrift2 server `endpoint` describes (the first address its host resolves
    /// to) and checks that it answers: one cheap request (whether `hbase:meta` exists) within
    /// the endpoint's connect timeout, so that a server of another transport or protocol, a
    /// port where something else listens, or a server that does not answer is an error here
    /// that says which, in bounded time. Then each request is bounded by the default
    /// [`RetryPolicy`]'s deadline (60 s) and sent again on a new connection when the connection
    /// fails (see [`with_retry`](Self::with_retry)).
    ///
    /// ```no_run
    /// use rowkey_hbase::{Endpoint, HBase};
    ///
    /// let hbase = HBase::open("thrift2://10.0.0.7:9090?transport=framed&protocol=compact".parse()?)?;
    /// # Ok::<(), rowkey_hbase::Error>(())
    /// ```
    pub fn open(endpoint: Endpoint) -> Result<HBase, Error> {
        endpoint.check()?;
        let addr = endpoint.resolve()?;
        let policy = RetryPolicy::default();
        let waited = endpoint.connect_timeout();
        let mut client = endpoint
            .open(addr, waited)
            .map_err(|fault| judge::from_fault(&endpoint, fault))?;
        let meta = TTableName {
            ns: Some(b"hbase".to_vec()),
            qualifier: b"meta".to_vec(),
        };
        if let Err(e) = client.table_exists(meta) {
            return Err(judge::request(
                e,
                client.take_fault(),
                &endpoint,
                true,
                waited,
            ));
        }
        client
            .set_deadline(policy.deadline())
            .map_err(|e| Error::new(ErrorKind::Connect, Some(&endpoint), e.to_string()))?;
        Ok(HBase {
            endpoint,
            addr,
            client: Some(client),
            policy,
            idle: Arc::default(),
        })
    }

    /// The endpoint this connection goes to.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// This connection with the retry policy `policy` for its own requests (tables, region
    /// boundaries, writes), which are sent again on a new connection when the connection is
    /// refused, reset, closed or stalled past the deadline. HBase's Thrift2 server closes a
    /// connection idle for 60 s (`hbase.thrift.server.socket.read.timeout`), so a long-lived
    /// `HBase` meets this often. A `putMultiple` sent again writes the same cells again (a new
    /// version of each, read as the same row); a `createTable` whose answer was lost fails
    /// again with HBase's "table exists". Reads take their policy from [`ReadOptions`].
    #[must_use]
    pub fn with_retry(self, policy: RetryPolicy) -> HBase {
        HBase { policy, ..self }
    }

    /// `request` on this connection under its retry policy: sent again on a new connection after
    /// a transport or protocol error, and on this one after an error `passes` accepts.
    fn call<T>(
        &mut self,
        request: impl FnMut(&mut Client) -> thrift::Result<T>,
        passes: impl Fn(&thrift::Error) -> bool,
    ) -> Result<T, Error> {
        let policy = self.policy.clone();
        let mut call = Call {
            hbase: self,
            request,
            passes,
        };
        let sent = policy.send(&mut call, |wait| {
            std::thread::sleep(wait);
            std::future::ready(())
        });
        futures::executor::block_on(sent).map_err(|(e, fault)| {
            judge::request(e, fault, &self.endpoint, false, policy.deadline())
        })
    }

    /// Writes `rows`, `(key, value)` each, as one cell `family:v` a row, in one `putMultiple`
    /// batch. Every key is checked against HBase's row limit first.
    pub fn put_rows(
        &mut self,
        table: &str,
        family: &str,
        rows: &[(Vec<u8>, Vec<u8>)],
    ) -> Result<(), Error> {
        for (key, _) in rows {
            check_row(key)?;
        }
        // Built for each try (the request takes them): no copy kept for a retry that seldom comes.
        let puts = || -> Vec<TPut> {
            rows.iter()
                .map(|(key, value)| put(key, family.as_bytes(), b"v", value))
                .collect()
        };
        self.put_multiple(table, puts)
    }

    /// Writes the keys of `rows`, rows of a Phoenix table (`#[rowkey(phoenix)]`, the table made
    /// from [`rowkey::phoenix::ddl`]), each with Phoenix's empty cell
    /// ([`rowkey::phoenix::EMPTY_CELL`], `0:_0 = x`) without which Phoenix's queries do not see a
    /// row, in one `putMultiple` batch. Every key is checked against HBase's row limit first. The
    /// table's other columns are yours to write ([`put_rows`](Self::put_rows)).
    pub fn put_phoenix_rows<K: PhoenixKey>(
        &mut self,
        table: &str,
        rows: &[K],
    ) -> Result<(), Error> {
        let keys = rows.iter().map(row_key).collect::<Result<Vec<_>, _>>()?;
        self.put_multiple(table, || phoenix_puts(&keys))
    }

    /// One `putMultiple` of the puts `puts` builds (once for each try).
    fn put_multiple(&mut self, table: &str, puts: impl Fn() -> Vec<TPut>) -> Result<(), Error> {
        let table = table.as_bytes();
        self.call(
            |client| client.put_multiple(table.to_vec(), puts()),
            |_| false,
        )?;
        Ok(())
    }

    /// The rows of `table` that `scan` asks for, with the default [`ReadOptions`]: see
    /// [`read_rows_with`](Self::read_rows_with). `scan` is a plan, `&plan`, or a builder's state
    /// as it is (`EventKey::scan().user_id(42)`).
    pub fn read_rows<K: ?Sized + 'static>(
        &self,
        table: &str,
        scan: impl Into<Scan<K>>,
    ) -> Result<Rows, Error> {
        self.read_rows_with(table, scan, &ReadOptions::default())
    }

    /// The rows of `table` that `scan` asks for, in its order: each of its ranges read as a
    /// Thrift2 scan `[startRow, stopRow)` in pages of `options.page()` rows (HBase's `caching`),
    /// `options.concurrency()` ranges at once, on at most that many threads and connections to
    /// the server this connection went to (kept for the next read, up to 30 s idle); a salted
    /// plan's buckets all at once on the same threads and connections, merged into the
    /// order of the key after the salt (`rowkey::fanout`), other plans in key order; where the
    /// plan is wider than its query (`is_exact()` false), only the rows it `matches()`.
    ///
    /// Every page is asked for again under `options.retry()` when it fails for a reason that may
    /// pass (the [module docs](crate#what-a-read-survives)), from just after the last row its
    /// range gave: nothing lost, nothing repeated. A range's first error that will not pass, or
    /// its last try's, is the next item of the rows, and nothing follows it.
    ///
    /// Every range is checked against HBase's row limit first: a plan for keys over it is an
    /// error here, before any request.
    pub fn read_rows_with<K: ?Sized + 'static>(
        &self,
        table: &str,
        scan: impl Into<Scan<K>>,
        options: &ReadOptions,
    ) -> Result<Rows, Error> {
        read::read_rows(
            &self.endpoint,
            self.addr,
            self.idle.clone(),
            table,
            &scan.into(),
            options,
        )
    }
}

/// One request of [`HBase::call`]: sent on the connection, opened first when there is none; a
/// transport or protocol error passes on a new connection, another error when `passes` says so.
struct Call<'a, R, P> {
    hbase: &'a mut HBase,
    request: R,
    passes: P,
}

impl<T, R, P> Request for Call<'_, R, P>
where
    R: FnMut(&mut Client) -> thrift::Result<T>,
    P: Fn(&thrift::Error) -> bool,
{
    type Output = T;
    type Error = (thrift::Error, Option<Fault>);

    fn send(&mut self) -> impl std::future::Future<Output = Result<T, Self::Error>> {
        let hbase = &mut *self.hbase;
        let client = match hbase.client.as_mut() {
            Some(client) => client,
            None => match hbase.endpoint.open(hbase.addr, hbase.policy.deadline()) {
                Ok(client) => hbase.client.insert(client),
                Err(fault) => {
                    let e = thrift::Error::from(std::io::Error::other(fault.message().to_string()));
                    return std::future::ready(Err((e, Some(fault))));
                }
            },
        };
        std::future::ready((self.request)(client).map_err(|e| (e, client.take_fault())))
    }

    fn passes(&self, (e, fault): &Self::Error) -> bool {
        judge::is_connection_lost(e, fault.as_ref()) || (self.passes)(e)
    }

    fn before_retry(&mut self, (e, fault): &Self::Error) {
        if judge::is_connection_lost(e, fault.as_ref()) {
            self.hbase.client = None;
        }
    }
}

/// A key HBase can hold: at most [`MAX_ROW_LENGTH`](rowkey::hbase::MAX_ROW_LENGTH) bytes.
/// A put of one cell.
fn put(key: &[u8], family: &[u8], qualifier: &[u8], value: &[u8]) -> TPut {
    TPut {
        row: key.to_vec(),
        column_values: vec![TColumnValue {
            family: family.to_vec(),
            qualifier: qualifier.to_vec(),
            value: value.to_vec(),
            timestamp: None,
            tags: None,
            type_: None,
        }],
        timestamp: None,
        attributes: None,
        durability: None,
        cell_visibility: None,
    }
}

/// The puts of Phoenix rows with `keys`: each key with Phoenix's empty cell.
fn phoenix_puts(keys: &[Vec<u8>]) -> Vec<TPut> {
    let cell = EMPTY_CELL;
    keys.iter()
        .map(|key| put(key, cell.family, cell.qualifier, cell.value))
        .collect()
}

/// The Thrift2 name of `table`: `ns:table` in namespace `ns`, else in the default namespace.
/// (The data calls take the name as text, `ns:table` included; the table calls take it apart.)
pub(crate) fn table_name(table: &str) -> TTableName {
    match table.split_once(':') {
        Some((ns, qualifier)) => TTableName {
            ns: Some(ns.as_bytes().to_vec()),
            qualifier: qualifier.as_bytes().to_vec(),
        },
        None => TTableName {
            ns: None,
            qualifier: table.as_bytes().to_vec(),
        },
    }
}

fn check_row(key: &[u8]) -> Result<(), EncodeError> {
    limits::check(key, rowkey::hbase::MAX_ROW_LENGTH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(RowKey)]
    #[rowkey(phoenix)]
    struct Visit {
        site: String,
        at: i64,
    }

    #[test]
    fn a_phoenix_row_is_its_key_with_phoenixs_empty_cell() {
        let key = row_key(&Visit {
            site: "a".into(),
            at: 1,
        })
        .unwrap();
        let puts = phoenix_puts(std::slice::from_ref(&key));
        assert_eq!(puts.len(), 1);
        assert_eq!(puts[0].row, key);
        let [cell] = &puts[0].column_values[..] else {
            panic!("{:?}", puts[0].column_values)
        };
        // Phoenix's own bytes (tests/java/vectors/PhoenixKeys.txt, `#CELLS`): 0:_0 = x.
        assert_eq!(
            (&cell.family[..], &cell.qualifier[..], &cell.value[..]),
            (&b"0"[..], &b"_0"[..], &b"x"[..])
        );
    }
}
