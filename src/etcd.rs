//! etcd (feature `etcd`, on [`etcd_client`]): a plan's ranges as etcd range requests, and reads
//! that page through a plan and resume where they stopped.
//!
//! etcd reads `[key, range_end)`, but two values of `range_end` mean something else: empty is
//! the one key `key`, and `"\0"` is every key from `key` onwards. A [`KeyRange`] stops at an empty
//! stop (the end of the table), which becomes `"\0"`; the one range whose stop is `"\0"` itself,
//! `[, \0)`, holds only the empty key, which etcd does not store, so it is no request at all
//! rather than a read of the whole table. An empty start becomes `"\0"`, the first key etcd can
//! hold. No plan reads more than it asks for.
//!
//! [`read_page`] reads at most a page of rows and gives the plan of the rest
//! ([`Scan::after`] the last key read), so a large read pages with a limit, and a read broken by a
//! failed member resumes from the last page's plan on another client without losing or repeating
//! a row:
//!
//! ```no_run
//! # async fn demo(mut client: etcd_client::Client) -> Result<(), etcd_client::Error> {
//! use rowkey::etcd::read_page;
//! use rowkey::{RowKey, Scan};
//!
//! #[derive(RowKey)]
//! struct Event {
//!     user: u32,
//!     ts: u64,
//! }
//!
//! let mut plan: Option<Scan<Event>> = Some(Event::scan().user(42).into());
//! let mut kv = client.kv_client();
//! while let Some(rest) = plan {
//!     let page = read_page(&mut kv, &rest, 500).await?; // on an error, retry with `rest`
//!     for row in &page.rows {
//!         let event = Event::decode(row.key()).unwrap();
//!     }
//!     plan = page.rest;
//! }
//! # Ok(())
//! # }
//! ```

use std::vec::Vec;

use etcd_client::{GetOptions, KeyValue, KvClient};

use crate::{KeyRange, Scan};

/// The key and options of the etcd request that reads `range`, or `None` when etcd can hold no
/// key in it. Add a limit, revision or consistency to the options as needed.
///
/// ```
/// use rowkey::etcd::range_request;
/// use rowkey::KeyRange;
///
/// // An empty stop is etcd's "\0": every key from the start onwards.
/// let (key, _options) = range_request(&KeyRange::new(b"user/7", b"")).unwrap();
/// assert_eq!(key, b"user/7");
/// // [, \0) holds only the empty key: no request, never "the whole table".
/// assert!(range_request(&KeyRange::new(b"", b"\0")).is_none());
/// assert!(range_request(&KeyRange::new(b"b", b"a")).is_none());
/// ```
pub fn range_request(range: &KeyRange) -> Option<(Vec<u8>, GetOptions)> {
    let (key, end) = range_bytes(range)?;
    Some((key, GetOptions::new().with_range(end)))
}

/// `[key, range_end)` for `range` in etcd's terms, or `None` when etcd can hold no key in it.
fn range_bytes(range: &KeyRange) -> Option<(Vec<u8>, Vec<u8>)> {
    const FIRST_KEY: &[u8] = b"\0";
    // etcd's range_end "\0" reads to the end of the keyspace: only an empty stop may become it.
    if range.is_empty() || range.stop() == FIRST_KEY {
        return None;
    }
    let key = match range.start() {
        [] => FIRST_KEY.to_vec(),
        start => start.to_vec(),
    };
    let end = match range.stop() {
        [] => FIRST_KEY.to_vec(),
        stop => stop.to_vec(),
    };
    Some((key, end))
}

/// A page of a plan's rows, and the plan of the rest.
#[derive(Debug)]
pub struct Page<K: ?Sized> {
    /// The rows read that the plan matches, in key order.
    pub rows: Vec<KeyValue>,
    /// The rows after the last one read (`Scan::after` it), or `None` when the plan is read to its
    /// end.
    pub rest: Option<Scan<K>>,
}

/// Reads the plan's ranges in order until `limit` rows are read (at least 1), and gives the rows
/// the plan matches and the plan of the rest. Each range is one request with the limit that is
/// left, so a page is a few requests at most; a plan that is not exact reads rows it then drops,
/// which count towards the limit. On an error nothing is lost: read the same plan again, on this
/// client or another.
pub async fn read_page<K: ?Sized>(
    kv: &mut KvClient,
    plan: &Scan<K>,
    limit: i64,
) -> Result<Page<K>, etcd_client::Error> {
    let limit = limit.max(1);
    let mut rows = Vec::new();
    let mut read = 0i64;
    for range in plan.ranges() {
        let Some((key, end)) = range_bytes(&range) else {
            continue;
        };
        let options = GetOptions::new().with_range(end).with_limit(limit - read);
        let mut response = kv.get(key, Some(options)).await?;
        let more = response.more();
        let kvs = response.take_kvs();
        read += kvs.len() as i64;
        let last = kvs.last().map(|kv| kv.key().to_vec());
        rows.extend(
            kvs.into_iter()
                .filter(|kv| plan.is_exact() || plan.matches(kv.key())),
        );
        if more || read >= limit {
            // Stopped inside this range, or at its end with the page full: the rest starts after
            // the last key read.
            let rest = last.map(|last| plan.after(&last));
            return Ok(Page { rows, rest });
        }
    }
    Ok(Page { rows, rest: None })
}
