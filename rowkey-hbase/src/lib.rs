//! rowkey's layouts on Apache HBase (DESIGN 15), through HBase's Thrift2 server, the way non-JVM
//! clients talk to HBase: row keys checked against HBase's limit ([`row_key`]), tables created
//! pre-split at a layout's split points ([`HBase::create_table`]) and their region boundaries read
//! back ([`HBase::region_starts`]), rows written in batches ([`HBase::put_rows`]), and plans read as
//! `[startRow, stopRow)` scans, page by page, a salted plan's buckets merged back into the order
//! of the key after the salt ([`HBase::read_rows`]).
//!
//! This is the adapter's first step, on one blocking connection; reading every range at once
//! through `rowkey::fanout` and resuming through faults come next.
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
//! for row in hbase.read_rows("events", &plan, 1_000)? {
//!     println!("{:?}", row.key);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::net::TcpStream;
use std::time::Duration;

use rowkey::merge::merge_by_key;
use rowkey::{EncodeError, EncodeErrorKind, KeyRange, RowKey, Scan};
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
use thrift::transport::{
    ReadHalf, TBufferedReadTransport, TBufferedWriteTransport, TIoChannel, TTcpChannel, WriteHalf,
};

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
mod hbase;

use hbase::{
    TColumnFamilyDescriptor, TColumnValue, THBaseServiceSyncClient, TPut, TScan,
    TTHBaseServiceSyncClient, TTableDescriptor, TTableName,
};

/// HBase's longest row key, 32767 bytes (`HConstants.MAX_ROW_LENGTH`), from `rowkey::hbase`.
pub use rowkey::hbase::MAX_ROW_LENGTH;

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

/// An error of HBase or of the connection to its Thrift2 server, or a key HBase cannot hold.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// HBase or the Thrift connection failed: an `IOError` of HBase (a table that does not
    /// exist, ...), a transport or protocol error.
    Thrift(thrift::Error),
    /// A key longer than HBase's row limit, in a write, a split point or a plan.
    Key(EncodeError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Thrift(e) => write!(f, "HBase (Thrift2): {e}"),
            Error::Key(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Thrift(e) => Some(e),
            Error::Key(e) => Some(e),
        }
    }
}

impl From<thrift::Error> for Error {
    fn from(e: thrift::Error) -> Error {
        Error::Thrift(e)
    }
}

impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Error {
        Error::Key(e)
    }
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

type Client = THBaseServiceSyncClient<
    TBinaryInputProtocol<TBufferedReadTransport<ReadHalf<TTcpChannel>>>,
    TBinaryOutputProtocol<TBufferedWriteTransport<WriteHalf<TTcpChannel>>>,
>;

/// A blocking connection to HBase's Thrift2 server (the thread-pool server's binary protocol and
/// buffered transport, its defaults).
pub struct HBase {
    client: Client,
}

impl fmt::Debug for HBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HBase").finish_non_exhaustive()
    }
}

/// How long a connection waits for the server before it gives up.
const TIMEOUT: Duration = Duration::from_secs(60);

impl HBase {
    /// Connects to the Thrift2 server at `addr` (`host:port`).
    pub fn connect(addr: &str) -> Result<HBase, Error> {
        let stream = TcpStream::connect(addr).map_err(thrift::Error::from)?;
        stream
            .set_read_timeout(Some(TIMEOUT))
            .and_then(|()| stream.set_write_timeout(Some(TIMEOUT)))
            .and_then(|()| stream.set_nodelay(true))
            .map_err(thrift::Error::from)?;
        let (input, output) = TTcpChannel::with_stream(stream).split()?;
        let client = THBaseServiceSyncClient::new(
            TBinaryInputProtocol::new(TBufferedReadTransport::new(input), true),
            TBinaryOutputProtocol::new(TBufferedWriteTransport::new(output), true),
        );
        Ok(HBase { client })
    }

    /// Creates `table` (in the default namespace) with one column family, pre-split at `splits`
    /// (sorted, distinct, none empty: [`RowKey::split_keys`] gives such), so that region `i`
    /// holds the keys from split `i - 1` to split `i`.
    pub fn create_table<B: AsRef<[u8]>>(
        &mut self,
        table: &str,
        family: &str,
        splits: &[B],
    ) -> Result<(), Error> {
        let splits: Vec<Vec<u8>> = splits
            .iter()
            .map(|s| {
                check_row(s.as_ref())?;
                Ok(s.as_ref().to_vec())
            })
            .collect::<Result<_, EncodeError>>()?;
        let family = TColumnFamilyDescriptor {
            name: family.as_bytes().to_vec(),
            attributes: None,
            configuration: None,
            block_size: None,
            bloomn_filter_type: None,
            compression_type: None,
            dfs_replication: None,
            data_block_encoding: None,
            keep_deleted_cells: None,
            max_versions: None,
            min_versions: None,
            scope: None,
            time_to_live: None,
            block_cache_enabled: None,
            cache_blooms_on_write: None,
            cache_data_on_write: None,
            cache_indexes_on_write: None,
            compress_tags: None,
            evict_blocks_on_close: None,
            in_memory: None,
        };
        let desc = TTableDescriptor::new(
            TTableName {
                ns: None,
                qualifier: table.as_bytes().to_vec(),
            },
            vec![family],
            None,
            None,
        );
        self.client.create_table(desc, splits)?;
        Ok(())
    }

    /// The start keys of `table`'s regions after the first, in key order: its split points as
    /// they stand (after HBase's own splits too), for [`Scan::split`].
    pub fn region_starts(&mut self, table: &str) -> Result<Vec<Vec<u8>>, Error> {
        let mut starts: Vec<Vec<u8>> = self
            .client
            .get_all_region_locations(table.as_bytes().to_vec())?
            .into_iter()
            .filter_map(|l| l.region_info.start_key)
            .filter(|start| !start.is_empty())
            .collect();
        starts.sort();
        starts.dedup();
        Ok(starts)
    }

    /// Writes `rows`, `(key, value)` each, as one cell `family:v` a row, in one `putMultiple`
    /// batch. Every key is checked against HBase's row limit first.
    pub fn put_rows(
        &mut self,
        table: &str,
        family: &str,
        rows: &[(Vec<u8>, Vec<u8>)],
    ) -> Result<(), Error> {
        let mut puts = Vec::with_capacity(rows.len());
        for (key, value) in rows {
            check_row(key)?;
            let cell = TColumnValue {
                family: family.as_bytes().to_vec(),
                qualifier: b"v".to_vec(),
                value: value.clone(),
                timestamp: None,
                tags: None,
                type_: None,
            };
            puts.push(TPut {
                row: key.clone(),
                column_values: vec![cell],
                timestamp: None,
                attributes: None,
                durability: None,
                cell_visibility: None,
            });
        }
        self.client.put_multiple(table.as_bytes().to_vec(), puts)?;
        Ok(())
    }

    /// The rows of `table` that `scan` asks for: each of its ranges read as a Thrift2 scan
    /// `[startRow, stopRow)` in pages of `page` rows (HBase's `caching`); a salted plan's buckets
    /// merged into the order of the key after the salt, other plans in key order; and where the
    /// plan is wider than its query (`is_exact()` false), only the rows it `matches()`.
    pub fn read_rows<K: ?Sized>(
        &mut self,
        table: &str,
        scan: &Scan<K>,
        page: usize,
    ) -> Result<Vec<Row>, Error> {
        let salt_len = scan.salt_len();
        // One run of rows per salt bucket (ranges of one bucket are next to each other).
        let mut buckets: Vec<Vec<Row>> = Vec::new();
        let mut bucket_of_last: Option<Vec<u8>> = None;
        for range in scan.ranges() {
            check_row(range.start())?;
            check_row(range.stop())?;
            let bucket = range.start().get(..salt_len).map(<[u8]>::to_vec);
            if buckets.is_empty() || bucket != bucket_of_last {
                buckets.push(Vec::new());
                bucket_of_last = bucket;
            }
            let rows = buckets.last_mut().expect("a bucket was pushed");
            self.read_range(table, &range, page, rows)?;
        }
        let rows: Vec<Row> = if salt_len > 0 && buckets.len() > 1 {
            let streams = buckets.into_iter().map(Vec::into_iter).collect();
            merge_by_key(streams, salt_len, |row: &Row| &row.key[..]).collect()
        } else {
            buckets.into_iter().flatten().collect()
        };
        Ok(if scan.is_exact() {
            rows
        } else {
            rows.into_iter().filter(|r| scan.matches(&r.key)).collect()
        })
    }

    /// The rows of one range, page by page, appended to `out`.
    fn read_range(
        &mut self,
        table: &str,
        range: &KeyRange,
        page: usize,
        out: &mut Vec<Row>,
    ) -> Result<(), Error> {
        let page = i32::try_from(page.max(1)).unwrap_or(i32::MAX);
        // Every field named: the generated `Default` sets optional fields to `Some` of their
        // default (an empty filter string, which HBase refuses, no versions, ...).
        let tscan = TScan {
            start_row: Some(range.start().to_vec()),
            // An empty stop row is the end of the table, as in HBase.
            stop_row: (!range.stop().is_empty()).then(|| range.stop().to_vec()),
            columns: None,
            caching: Some(page),
            max_versions: None,
            time_range: None,
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
        };
        let id = self.client.open_scanner(table.as_bytes().to_vec(), tscan)?;
        let read = (|| -> Result<(), Error> {
            loop {
                let results = self.client.get_scanner_rows(id, page)?;
                if results.is_empty() {
                    return Ok(());
                }
                out.extend(results.into_iter().filter_map(|r| {
                    Some(Row {
                        key: r.row?,
                        cells: r
                            .column_values
                            .into_iter()
                            .map(|c| Cell {
                                family: c.family,
                                qualifier: c.qualifier,
                                value: c.value,
                                timestamp: c.timestamp,
                            })
                            .collect(),
                    })
                }));
            }
        })();
        let closed = self.client.close_scanner(id);
        read?;
        closed?;
        Ok(())
    }
}

/// A key HBase can hold: at most [`MAX_ROW_LENGTH`] bytes.
fn check_row(key: &[u8]) -> Result<(), EncodeError> {
    if key.len() > MAX_ROW_LENGTH {
        return Err(EncodeError::new(EncodeErrorKind::RowTooLong {
            len: key.len(),
            max: MAX_ROW_LENGTH,
        }));
    }
    Ok(())
}
