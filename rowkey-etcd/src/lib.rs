//! rowkey's plans on etcd (on [`etcd_client`]): a plan's ranges as etcd range requests, and reads
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
//! use rowkey_etcd::read_page;
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

#![deny(missing_docs, missing_debug_implementations)]
#![forbid(unsafe_code)]

use etcd_client::{Client, ConnectOptions, Error, GetOptions, KeyValue, KvClient};

use rowkey::retry::{grpc_status_passes, Request, RetryPolicy};
use rowkey::{KeyRange, Scan};

/// The key and options of the etcd request that reads `range`, or `None` when etcd can hold no
/// key in it. Add a limit, revision or consistency to the options as needed.
///
/// ```
/// use rowkey_etcd::range_request;
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
///
/// `plan` is a plan, `&plan`, or a builder's state as it is (`Event::scan().user(7)`).
pub async fn read_page<K: ?Sized>(
    kv: &mut KvClient,
    plan: impl Into<Scan<K>>,
    limit: i64,
) -> Result<Page<K>, etcd_client::Error> {
    let plan = &plan.into();
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

/// A paged read of a plan over a cluster's members that survives their faults by itself: it reads
/// through one member at a time, and when a page fails for a reason that passes (the member dead,
/// isolated or stalled past the deadline, no leader for a moment) it moves to the next member and
/// reads the same page again, after a backoff ([`RetryPolicy`]). Each page resumes after the last
/// key of the one before, so no row is read twice and none is lost. An error that will not pass,
/// or the last try's, is returned; the read can go on from [`rest`](PagedRead::rest) later.
///
/// One member at a time, rather than a client of every endpoint: etcd-client's balanced channel
/// keeps sending some requests to a member that is down, and each of those fails.
///
/// ```no_run
/// # async fn demo() -> Result<(), etcd_client::Error> {
/// use rowkey_etcd::PagedRead;
/// use rowkey::{RowKey, Scan};
///
/// #[derive(RowKey)]
/// struct Event {
///     user: u32,
///     ts: u64,
/// }
///
/// let endpoints = ["http://10.0.0.1:2379", "http://10.0.0.2:2379", "http://10.0.0.3:2379"];
/// let mut read = PagedRead::new(&endpoints, Event::scan().user(42), 500);
/// while let Some(rows) = read.next_page().await? {
///     for row in &rows {
///         let event = Event::decode(row.key()).unwrap();
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub struct PagedRead<K: ?Sized> {
    endpoints: Vec<String>,
    options: Option<ConnectOptions>,
    policy: RetryPolicy,
    page: i64,
    rest: Option<Scan<K>>,
    kv: Option<KvClient>,
    member: usize,
    failovers: u64,
}

impl<K: ?Sized> PagedRead<K> {
    /// A read of `plan` through the members at `endpoints`, in pages of at most `page` rows
    /// (see [`read_page`]), with the default [`RetryPolicy`].
    /// `plan` is a plan, `&plan`, or a builder's state as it is (`Event::scan().user(7)`).
    pub fn new<E: AsRef<str>>(endpoints: &[E], plan: impl Into<Scan<K>>, page: i64) -> Self {
        PagedRead {
            endpoints: endpoints.iter().map(|e| e.as_ref().into()).collect(),
            options: None,
            policy: RetryPolicy::default(),
            page,
            rest: Some(plan.into()),
            kv: None,
            member: 0,
            failovers: 0,
        }
    }

    /// The same read with `policy`: its deadline for every page (connecting included), its tries
    /// and backoff.
    #[must_use]
    pub fn with_policy(self, policy: RetryPolicy) -> Self {
        PagedRead { policy, ..self }
    }

    /// The same read, connecting to each member with `options` (user, TLS, keep-alive).
    #[must_use]
    pub fn with_connect_options(self, options: ConnectOptions) -> Self {
        PagedRead {
            options: Some(options),
            ..self
        }
    }

    /// The next page of rows the plan matches (it may be empty when an inexact plan's page held
    /// only rows the query does not match), or `None` once the plan is read.
    pub async fn next_page(&mut self) -> Result<Option<Vec<KeyValue>>, Error> {
        let Some(plan) = self.rest.clone() else {
            return Ok(None);
        };
        if self.endpoints.is_empty() {
            return Err(Error::InvalidArgs("no etcd endpoints to read from".into()));
        }
        let policy = self.policy.clone();
        let page = policy
            .send(&mut PageRequest { read: self, plan }, tokio::time::sleep)
            .await?;
        self.rest = page.rest;
        Ok(Some(page.rows))
    }

    /// The plan of the rows not read yet (`None` once read to the end).
    pub fn rest(&self) -> Option<&Scan<K>> {
        self.rest.as_ref()
    }

    /// The endpoint of the member the next page is read through.
    pub fn endpoint(&self) -> &str {
        self.endpoints.get(self.member).map_or("", |e| e.as_str())
    }

    /// How many times the read has moved to another member after a failure.
    pub fn failovers(&self) -> u64 {
        self.failovers
    }

    /// One page through the current member, connecting first if needed, within the deadline.
    async fn try_page(&mut self, plan: &Scan<K>) -> Result<Page<K>, Error> {
        let (endpoint, options, page) = (
            self.endpoints[self.member].clone(),
            self.options.clone(),
            self.page,
        );
        let kv = &mut self.kv;
        let attempt = async move {
            if kv.is_none() {
                *kv = Some(Client::connect([endpoint], options).await?.kv_client());
            }
            match kv.as_mut() {
                Some(kv) => read_page(kv, plan, page).await,
                None => Err(Error::InvalidArgs("not connected".into())),
            }
        };
        match tokio::time::timeout(self.policy.deadline(), attempt).await {
            Ok(result) => result,
            Err(_) => Err(Error::GRpcStatus(tonic::Status::deadline_exceeded(
                "rowkey: the member did not answer within the retry policy's deadline",
            ))),
        }
    }
}

impl<K: ?Sized> std::fmt::Debug for PagedRead<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PagedRead")
            .field("endpoint", &self.endpoint())
            .field("page", &self.page)
            .field("rest", &self.rest)
            .field("failovers", &self.failovers)
            .field("policy", &self.policy)
            .finish()
    }
}

/// One page of a [`PagedRead`], through its current member.
struct PageRequest<'a, K: ?Sized> {
    read: &'a mut PagedRead<K>,
    plan: Scan<K>,
}

impl<K: ?Sized> Request for PageRequest<'_, K> {
    type Output = Page<K>;
    type Error = Error;

    fn send(&mut self) -> impl std::future::Future<Output = Result<Page<K>, Error>> {
        self.read.try_page(&self.plan)
    }

    /// Whether a failed etcd request may succeed if sent again, to this member or another.
    fn passes(&self, error: &Error) -> bool {
        match error {
            Error::GRpcStatus(status) => grpc_status_passes(
                i32::from(status.code()),
                std::error::Error::source(status).is_some(),
            ),
            Error::TransportError(_) | Error::IoError(_) => true,
            _ => false,
        }
    }

    /// This member failed: the next one, connected afresh.
    fn before_retry(&mut self, _: &Error) {
        let read = &mut *self.read;
        read.kv = None;
        read.member = (read.member + 1) % read.endpoints.len();
        read.failovers += 1;
    }
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
