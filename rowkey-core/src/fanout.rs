//! Reading a plan with every range in flight, rows back in order: the ranges of a [`Scan`] go to
//! a caller's async reader (one call per range, whatever the store), and the streams it returns
//! are merged into one. Salted plans come back in the order of the key after the salt (a k-way
//! merge over the buckets, Phoenix's and HBaseWD's merge of per-bucket scanners); other plans in
//! range order, which is key order. Futures only: no runtime, no timer, nothing spawned.
//!
//! Each salt bucket is a lane, its ranges read one after another; without a salt each range is a
//! lane. At most `concurrency` lanes are open at once, except that a merge over salt buckets
//! needs the next row of every bucket, so it keeps every bucket open: its limit is at least the
//! bucket count. A lane that is open and has not yet been asked for its next row holds one row.
//!
//! ```
//! use futures::executor::block_on;
//! use futures::stream::{self, StreamExt, TryStreamExt};
//! use rowkey::fanout::read_plan;
//! use rowkey::{KeyRange, RowKey};
//! use std::collections::BTreeMap;
//!
//! #[derive(RowKey)]
//! struct Event {
//!     #[rowkey(salt(buckets = 4))]
//!     user: u32,
//!     ts: u32,
//! }
//!
//! let table: BTreeMap<Vec<u8>, ()> = (0..40u32)
//!     .map(|i| (Event { user: i % 8, ts: i }.to_vec().unwrap(), ()))
//!     .collect();
//! let plan = Event::scan().user_range(2..5);
//! // The reader: any async function from a range to a stream of rows (here, the map).
//! let reader = |r: KeyRange| {
//!     let rows: Vec<Result<Vec<u8>, ()>> =
//!         table.range::<[u8], _>(&r).map(|(k, _)| Ok(k.clone())).collect();
//!     async move { Ok::<_, ()>(stream::iter(rows)) }
//! };
//! let keys: Vec<Vec<u8>> = block_on(read_plan(&plan, 16, reader, |k: &Vec<u8>| k).try_collect())?;
//! let users: Vec<u32> = keys.iter().map(|k| Event::decode(k).unwrap().user).collect();
//! assert_eq!(keys.len(), 15); // users 2, 3 and 4, five rows each
//! assert!(keys.windows(2).all(|w| w[0][1..] <= w[1][1..])); // in order after the salt byte
//! assert!(users.windows(2).all(|w| w[0] <= w[1]));
//! # Ok::<(), ()>(())
//! ```

use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

use crate::scan::{KeyRange, Scan};

/// Every range of `scan` read through `reader`, at most `concurrency` lanes open at once (at
/// least 1; a salted plan keeps every bucket open), as one stream of rows: in key order after the
/// salt for a salted plan, in range order otherwise. `key_of` gives a row's key.
///
/// `reader` is called once per range, in plan order within each lane, and returns a future of
/// the range's rows as a stream, in key order as the store returns them. The first error, of a
/// call or of a stream, is the next item, and the stream ends after it: nothing is swallowed, and
/// nothing is read after it.
pub fn read_plan<K, R, Fut, S, T, E, F>(
    scan: &Scan<K>,
    concurrency: usize,
    reader: R,
    key_of: F,
) -> ReadPlan<R, Fut, S, T, F>
where
    K: ?Sized,
    R: FnMut(KeyRange) -> Fut,
    Fut: Future<Output = Result<S, E>>,
    S: Stream<Item = Result<T, E>>,
    F: Fn(&T) -> &[u8],
{
    read_ranges(
        scan.ranges().collect(),
        scan.salt_len(),
        concurrency,
        reader,
        key_of,
    )
}

/// [`read_plan`] over sorted, non-overlapping `ranges` whose keys start with `salt_len` bytes of
/// salt (0: unsalted): ranges with the same salt bytes form one lane, and rows come back in the
/// order of the key after them.
pub fn read_ranges<R, Fut, S, T, E, F>(
    ranges: Vec<KeyRange>,
    salt_len: usize,
    concurrency: usize,
    reader: R,
    key_of: F,
) -> ReadPlan<R, Fut, S, T, F>
where
    R: FnMut(KeyRange) -> Fut,
    Fut: Future<Output = Result<S, E>>,
    S: Stream<Item = Result<T, E>>,
    F: Fn(&T) -> &[u8],
{
    let mut lanes: Vec<Lane<Fut, S, T>> = Vec::new();
    for range in ranges {
        // Ranges of one bucket are next to each other: sorted, and the salt bytes lead.
        let bucket = (salt_len > 0)
            .then(|| range.start().get(..salt_len).map(<[u8]>::to_vec))
            .flatten();
        match lanes.last_mut() {
            Some(lane) if bucket.is_some() && lane.bucket == bucket => {
                lane.ranges.push_back(range);
            }
            _ => lanes.push(Lane {
                ranges: VecDeque::from([range]),
                bucket,
                state: LaneState::Idle,
                head: None,
            }),
        }
    }
    let merged = salt_len > 0;
    let concurrency = if merged {
        concurrency.max(lanes.len())
    } else {
        concurrency.max(1)
    };
    ReadPlan {
        lanes,
        first: 0,
        merged,
        salt_len,
        concurrency,
        reader,
        key_of,
        failed: false,
    }
}

/// The stream of [`read_plan`].
pub struct ReadPlan<R, Fut, S, T, F> {
    lanes: Vec<Lane<Fut, S, T>>,
    /// Lanes before it are finished (only in range order: a merge never finishes lanes in order).
    first: usize,
    /// Rows are merged across lanes by the key after the salt; otherwise lanes are in key order.
    merged: bool,
    salt_len: usize,
    concurrency: usize,
    reader: R,
    key_of: F,
    /// An error was returned: the stream is over.
    failed: bool,
}

/// Nothing in it is pinned in place: its futures and streams are boxed, and the reader, the key
/// function and the rows are only ever reached through `&mut`.
impl<R, Fut, S, T, F> Unpin for ReadPlan<R, Fut, S, T, F> {}

/// A run of ranges read one after another: one salt bucket's, or one range.
struct Lane<Fut, S, T> {
    ranges: VecDeque<KeyRange>,
    /// The salt bytes of the lane's ranges.
    bucket: Option<Vec<u8>>,
    state: LaneState<Fut, S>,
    /// The next row, read and not yet returned.
    head: Option<T>,
}

enum LaneState<Fut, S> {
    /// The next range is not asked for yet.
    Idle,
    /// The reader's future for the current range.
    Opening(Pin<Box<Fut>>),
    /// The rows of the current range.
    Reading(Pin<Box<S>>),
    /// Every range read.
    Done,
}

/// What polling a lane for its next row gave.
enum Step<E> {
    /// A row is waiting in the lane's head, or the lane is done.
    Ready,
    Pending,
    Failed(E),
}

impl<Fut, S, T> Lane<Fut, S, T> {
    fn done(&self) -> bool {
        matches!(self.state, LaneState::Done) && self.head.is_none()
    }

    fn needs_row(&self) -> bool {
        self.head.is_none() && !matches!(self.state, LaneState::Done)
    }

    /// Moves the lane on until it holds a row, is done, fails or must wait.
    fn poll_row<E, R>(&mut self, reader: &mut R, cx: &mut Context<'_>) -> Step<E>
    where
        R: FnMut(KeyRange) -> Fut,
        Fut: Future<Output = Result<S, E>>,
        S: Stream<Item = Result<T, E>>,
    {
        while self.needs_row() {
            match &mut self.state {
                LaneState::Idle => {
                    self.state = match self.ranges.pop_front() {
                        Some(range) => LaneState::Opening(Box::pin(reader(range))),
                        None => LaneState::Done,
                    };
                }
                LaneState::Opening(open) => match open.as_mut().poll(cx) {
                    Poll::Ready(Ok(rows)) => self.state = LaneState::Reading(Box::pin(rows)),
                    Poll::Ready(Err(e)) => return Step::Failed(e),
                    Poll::Pending => return Step::Pending,
                },
                LaneState::Reading(rows) => match rows.as_mut().poll_next(cx) {
                    Poll::Ready(Some(Ok(row))) => self.head = Some(row),
                    Poll::Ready(Some(Err(e))) => return Step::Failed(e),
                    Poll::Ready(None) => self.state = LaneState::Idle,
                    Poll::Pending => return Step::Pending,
                },
                LaneState::Done => {}
            }
        }
        Step::Ready
    }
}

impl<R, Fut, S, T, E, F> Stream for ReadPlan<R, Fut, S, T, F>
where
    R: FnMut(KeyRange) -> Fut,
    Fut: Future<Output = Result<S, E>>,
    S: Stream<Item = Result<T, E>>,
    F: Fn(&T) -> &[u8],
{
    type Item = Result<T, E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.failed {
            return Poll::Ready(None);
        }
        loop {
            while this.lanes.get(this.first).is_some_and(Lane::done) {
                this.first += 1;
            }
            if this.first == this.lanes.len() {
                return Poll::Ready(None);
            }
            // The open lanes: the first `concurrency` unfinished ones (all of them when merging).
            let end = this.lanes.len().min(this.first + this.concurrency);
            let mut waiting = false;
            for (i, lane) in this.lanes[this.first..end].iter_mut().enumerate() {
                match lane.poll_row(&mut this.reader, cx) {
                    Step::Ready => {}
                    // In range order only the first lane holds the next row; the others read
                    // ahead.
                    Step::Pending => waiting |= this.merged || i == 0,
                    Step::Failed(e) => {
                        this.failed = true;
                        return Poll::Ready(Some(Err(e)));
                    }
                }
            }
            if waiting {
                return Poll::Pending;
            }
            // The first lane finished in this poll: the next one holds the next row.
            if !this.merged && this.lanes[this.first].done() {
                continue;
            }
            break;
        }
        let (salt_len, key_of) = (this.salt_len, &this.key_of);
        let next = if this.merged {
            // The smallest key after the salt; on a tie, the earlier bucket.
            let mut best: Option<(usize, &T)> = None;
            for (i, lane) in this.lanes.iter().enumerate() {
                if let Some(row) = &lane.head {
                    let earlier =
                        |b: &T| after_salt(key_of(row), salt_len) < after_salt(key_of(b), salt_len);
                    if best.map_or(true, |(_, b)| earlier(b)) {
                        best = Some((i, row));
                    }
                }
            }
            best.map(|(i, _)| i)
        } else {
            Some(this.first)
        };
        match next.and_then(|i| this.lanes[i].head.take()) {
            Some(row) => Poll::Ready(Some(Ok(row))),
            None => Poll::Ready(None),
        }
    }
}

/// A key without its first `salt_len` bytes.
fn after_salt(key: &[u8], salt_len: usize) -> &[u8] {
    key.get(salt_len..).unwrap_or_default()
}
