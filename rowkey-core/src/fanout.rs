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
//! use rowkey::{KeyRange, RowKey, Scan};
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
//! let plan: Scan<Event> = Event::scan().user_range(2..5).into();
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
    let lane_count = lanes.len();
    let concurrency = if merged {
        concurrency.max(lanes.len())
    } else {
        concurrency.max(1)
    };
    ReadPlan {
        lanes,
        first: 0,
        to_fill: if merged {
            (0..lane_count).collect()
        } else {
            Vec::new()
        },
        tree: Vec::new(),
        orders: alloc::vec![0; lane_count],
        winner_taken: false,
        runner_up: None,
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
    /// Merging: the lanes whose next row must be read before the next row is known.
    to_fill: Vec<usize>,
    /// Merging: a tournament (loser) tree over the lanes, built once every lane holds a row or is
    /// done: `tree[0]` is the lane with the next row, `tree[i]` the loser at node `i`. Replacing
    /// the winner's row takes one comparison a level.
    tree: Vec<usize>,
    /// Merging: per lane, the first 8 bytes of its row's key after the salt, big-endian and
    /// zero-padded, so most comparisons are of two integers.
    orders: Vec<u64>,
    /// Merging: the winner's row was returned; its next row is read before anything else.
    winner_taken: bool,
    /// Merging: the lane that would win if the winner were done (none with a single lane).
    runner_up: Option<usize>,
    /// Rows are merged across lanes by the key after the salt; otherwise lanes are in key order.
    merged: bool,
    salt_len: usize,
    concurrency: usize,
    reader: R,
    key_of: F,
    /// An error was returned: the stream is over.
    failed: bool,
}

impl<R, Fut, S, T, F> core::fmt::Debug for ReadPlan<R, Fut, S, T, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ReadPlan")
            .field("ranges", &self.lanes.len())
            .field("done", &self.first)
            .finish_non_exhaustive()
    }
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
    #[inline(always)]
    fn poll_row<E, R>(&mut self, reader: &mut R, cx: &mut Context<'_>) -> Step<E>
    where
        R: FnMut(KeyRange) -> Fut,
        Fut: Future<Output = Result<S, E>>,
        S: Stream<Item = Result<T, E>>,
    {
        // The common step, kept small enough to inline: the next row of the open range.
        if let (None, LaneState::Reading(rows)) = (&self.head, &mut self.state) {
            match rows.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(row))) => {
                    self.head = Some(row);
                    return Step::Ready;
                }
                Poll::Ready(Some(Err(e))) => return Step::Failed(e),
                Poll::Pending => return Step::Pending,
                Poll::Ready(None) => self.state = LaneState::Idle,
            }
        }
        self.poll_row_slow(reader, cx)
    }

    /// [`Lane::poll_row`] through every state: opening ranges, ends of ranges, errors.
    #[inline(never)]
    fn poll_row_slow<E, R>(&mut self, reader: &mut R, cx: &mut Context<'_>) -> Step<E>
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
        let next = if this.merged {
            this.poll_merged(cx)
        } else {
            this.poll_in_order(cx)
        };
        if let Poll::Ready(Some(Err(_))) = next {
            this.failed = true;
        }
        next
    }
}

impl<R, Fut, S, T, E, F> ReadPlan<R, Fut, S, T, F>
where
    R: FnMut(KeyRange) -> Fut,
    Fut: Future<Output = Result<S, E>>,
    S: Stream<Item = Result<T, E>>,
    F: Fn(&T) -> &[u8],
{
    /// Lanes in key order: the next row is the first unfinished lane's; the lanes after it, up
    /// to the limit, read ahead.
    fn poll_in_order(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, E>>> {
        loop {
            while self.lanes.get(self.first).is_some_and(Lane::done) {
                self.first += 1;
            }
            if self.first == self.lanes.len() {
                return Poll::Ready(None);
            }
            let end = self.lanes.len().min(self.first + self.concurrency);
            let mut first_waits = false;
            for (i, lane) in self.lanes[self.first..end].iter_mut().enumerate() {
                match lane.poll_row(&mut self.reader, cx) {
                    Step::Ready => {}
                    Step::Pending => first_waits |= i == 0,
                    Step::Failed(e) => return Poll::Ready(Some(Err(e))),
                }
            }
            if first_waits {
                return Poll::Pending;
            }
            // The first lane holds a row, or finished in this poll and the next one is first.
            if let Some(row) = self.lanes[self.first].head.take() {
                return Poll::Ready(Some(Ok(row)));
            }
        }
    }

    /// Lanes merged: every lane must hold its next row (or be done) before the smallest is known.
    fn poll_merged(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, E>>> {
        if !self.to_fill.is_empty() {
            let mut i = 0;
            while i < self.to_fill.len() {
                let lane = self.to_fill[i];
                match self.lanes[lane].poll_row(&mut self.reader, cx) {
                    Step::Ready => {
                        self.to_fill.swap_remove(i);
                        self.set_order(lane);
                    }
                    Step::Pending => i += 1,
                    Step::Failed(e) => return Poll::Ready(Some(Err(e))),
                }
            }
            if !self.to_fill.is_empty() {
                return Poll::Pending;
            }
            self.build();
        }
        if self.lanes.is_empty() {
            return Poll::Ready(None);
        }
        let winner = self.tree[0];
        if self.winner_taken {
            // Rows with the same salted fields share a bucket and are next to each other in the
            // merged order, so the winner often stays first: its next row is compared with the
            // runner-up's and handed on as it is, leaving every match in the tree as it was.
            if let LaneState::Reading(rows) = &mut self.lanes[winner].state {
                match rows.as_mut().poll_next(cx) {
                    Poll::Ready(Some(Ok(row))) => {
                        let key = after_salt((self.key_of)(&row), self.salt_len);
                        let order = leading_u64(key);
                        self.orders[winner] = order;
                        if self
                            .runner_up
                            .map_or(true, |r| self.key_before(order, key, winner, r))
                        {
                            return Poll::Ready(Some(Ok(row)));
                        }
                        self.lanes[winner].head = Some(row);
                        self.winner_taken = false;
                        self.replay(winner);
                    }
                    Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(None) => self.lanes[winner].state = LaneState::Idle,
                }
            }
        }
        let winner = self.tree[0];
        if self.winner_taken {
            match self.lanes[winner].poll_row(&mut self.reader, cx) {
                Step::Ready => {
                    self.winner_taken = false;
                    self.set_order(winner);
                    if self.runner_up.is_some_and(|r| !self.before(winner, r)) {
                        self.replay(winner);
                    }
                }
                Step::Pending => return Poll::Pending,
                Step::Failed(e) => return Poll::Ready(Some(Err(e))),
            }
        }
        let winner = self.tree[0];
        match self.lanes[winner].head.take() {
            Some(row) => {
                self.winner_taken = true;
                Poll::Ready(Some(Ok(row)))
            }
            // The best lane is done: every lane is.
            None => Poll::Ready(None),
        }
    }

    /// Caches the order of the lane's row.
    #[inline]
    fn set_order(&mut self, lane: usize) {
        self.orders[lane] = match &self.lanes[lane].head {
            Some(row) => leading_u64(after_salt((self.key_of)(row), self.salt_len)),
            // Done: after every row (a row whose first 8 bytes are all FF ties, and `before`
            // looks further).
            None => u64::MAX,
        };
    }

    /// Whether lane `a`'s row comes before lane `b`'s: the smaller key after the salt, on a tie
    /// the earlier bucket; a lane that is done comes after every row.
    #[inline(always)]
    fn before(&self, a: usize, b: usize) -> bool {
        let (oa, ob) = (self.orders[a], self.orders[b]);
        if oa != ob {
            // The first differing byte is among the first 8 (or one key ends there): it decides.
            return oa < ob;
        }
        self.before_on_tie(a, b)
    }

    /// Whether a row of lane `a` whose key after the salt is `key` (`order` its leading bytes)
    /// comes before lane `b`'s row; [`Self::before`] for a row not yet in its lane.
    #[inline(always)]
    fn key_before(&self, order: u64, key: &[u8], a: usize, b: usize) -> bool {
        let other = self.orders[b];
        if order != other {
            return order < other;
        }
        match &self.lanes[b].head {
            Some(row) => (key, a) < (after_salt((self.key_of)(row), self.salt_len), b),
            None => true,
        }
    }

    /// [`Self::before`] for rows whose first 8 bytes after the salt are the same.
    #[inline(never)]
    fn before_on_tie(&self, a: usize, b: usize) -> bool {
        let (ra, rb) = match (&self.lanes[a].head, &self.lanes[b].head) {
            (Some(ra), Some(rb)) => (ra, rb),
            (Some(_), None) => return true,
            (None, Some(_)) => return false,
            (None, None) => return a < b,
        };
        let (ka, kb) = ((self.key_of)(ra), (self.key_of)(rb));
        (after_salt(ka, self.salt_len), a) < (after_salt(kb, self.salt_len), b)
    }

    /// The tree over the lanes' first rows. Leaves past the last lane repeat the last lane: a
    /// done lane never wins over a row, and a tie goes to the lower index.
    fn build(&mut self) {
        let lanes = self.lanes.len().max(1);
        let width = lanes.next_power_of_two();
        self.tree = alloc::vec![0; width];
        let mut winners: Vec<usize> = (0..width).map(|i| i.min(lanes - 1)).collect();
        let mut width_at = width;
        // Each level: node `n` (in `width_at / 2 .. width_at`) plays its two children.
        while width_at > 1 {
            let half = width_at / 2;
            let mut next = Vec::with_capacity(half);
            for pair in 0..half {
                let (a, b) = (winners[2 * pair], winners[2 * pair + 1]);
                let (win, lose) = if self.before(b, a) { (b, a) } else { (a, b) };
                self.tree[half + pair] = lose;
                next.push(win);
            }
            winners = next;
            width_at = half;
        }
        self.tree[0] = winners[0];
        self.runner_up = self.best_loser_above(self.tree[0]);
    }

    /// The best of the losers on `lane`'s path to the root: when `lane` is the winner, the
    /// runner-up (the winner beat every lane directly or through one of them).
    fn best_loser_above(&self, lane: usize) -> Option<usize> {
        let mut node = (self.tree.len() + lane) / 2;
        let mut best: Option<usize> = None;
        while node >= 1 {
            let loser = self.tree[node];
            if loser != lane && best.map_or(true, |b| self.before(loser, b)) {
                best = Some(loser);
            }
            node /= 2;
        }
        best
    }

    /// Plays the lane that just won (its row replaced, or it is done) up from its leaf.
    fn replay(&mut self, lane: usize) {
        let width = self.tree.len();
        let mut candidate = lane;
        let mut node = (width + lane) / 2;
        while node >= 1 {
            let loser = self.tree[node];
            if self.before(loser, candidate) {
                self.tree[node] = candidate;
                candidate = loser;
            }
            node /= 2;
        }
        self.tree[0] = candidate;
        self.runner_up = self.best_loser_above(candidate);
    }
}

/// A key without its first `salt_len` bytes.
#[inline]
fn after_salt(key: &[u8], salt_len: usize) -> &[u8] {
    key.get(salt_len..).unwrap_or_default()
}

/// The first 8 bytes of `key` as a big-endian integer, zero-padded: integers in the order of
/// the keys wherever they differ within those bytes.
#[inline]
fn leading_u64(key: &[u8]) -> u64 {
    if let Some(head) = key.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    let mut head = [0u8; 8];
    let n = key.len().min(8);
    head[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(head)
}
