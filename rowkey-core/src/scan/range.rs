//! Key ranges `[start, stop)`: the one type a plan answers with, and the rules both planners share
//! for any range wherever its bytes live: containment, sorting by start, and merging neighbours
//! that overlap or touch (never across salt buckets).

use alloc::vec::Vec;
use core::ops::{Bound, RangeBounds};

use super::byte_order::cmp_short;
use super::keybuf::KeyBuf;

/// A range `[start, stop)` of keys, whatever holds its bytes; an empty stop is the end of the
/// table. Both planners' ranges are spans, so containment and merging are written once.
pub(crate) trait Span {
    fn start(&self) -> &[u8];
    fn stop(&self) -> &[u8];
    /// Takes `other`'s stop as its own (the two are merged).
    fn take_stop(&mut self, other: &mut Self);

    /// Whether `key` lies in the range.
    #[inline]
    fn contains(&self, key: &[u8]) -> bool {
        key >= self.start() && (self.stop().is_empty() || key < self.stop())
    }
}

/// Sorts ranges by start (an empty start first), when they are not sorted already.
pub(crate) fn sort_by_start<R: Span>(ranges: &mut [R]) {
    let by_start = |a: &R, b: &R| cmp_short(a.start(), b.start());
    if !ranges.windows(2).all(|w| by_start(&w[0], &w[1]).is_le()) {
        ranges.sort_unstable_by(by_start);
    }
}

/// Merges sorted ranges that overlap or touch, in place; with `buckets`, never two whose starts
/// have different first bytes (different salt buckets).
pub(crate) fn merge<R: Span>(ranges: &mut Vec<R>, buckets: bool) {
    // `dedup_by` hands each range with the last one kept, which absorbs it when they overlap or
    // touch.
    ranges.dedup_by(|r, prev| {
        let same_bucket = !buckets || prev.start().first() == r.start().first();
        let touches = prev.stop().is_empty() || cmp_short(r.start(), prev.stop()).is_le();
        if !(same_bucket && touches) {
            return false;
        }
        if !prev.stop().is_empty()
            && (r.stop().is_empty() || cmp_short(r.stop(), prev.stop()).is_gt())
        {
            prev.take_stop(r);
        }
        true
    });
}

/// Whether sorted, non-overlapping `ranges` hold `key`: the last range that starts at or before
/// it is the only one that can.
pub(crate) fn sorted_contain<R: Span>(ranges: &[R], key: &[u8]) -> bool {
    let at = ranges.partition_point(|r| r.start() <= key);
    at > 0 && ranges[at - 1].contains(key)
}

/// A half-open range of keys `[start, stop)`; an empty `stop` means the end of the table.
///
/// ```
/// use rowkey::KeyRange;
/// let r = KeyRange::new(&[0x02], &[0x03]);
/// assert!(r.contains(&[0x02]) && r.contains(&[0x02, 0xFF, 0xFF]));
/// assert!(!r.contains(&[0x03])); // the stop is excluded
/// assert_eq!(format!("{r:?}"), r"[\x02, \x03)");
/// // An empty stop: to the end of the table.
/// assert!(KeyRange::new(&[0xFF], &[]).contains(&[0xFF, 0xFF]));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct KeyRange {
    start: KeyBuf,
    stop: KeyBuf,
}

impl KeyRange {
    /// The range `[start, stop)`.
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// let r = KeyRange::new(b"user1", b"user2");
    /// assert_eq!((r.start(), r.stop()), (&b"user1"[..], &b"user2"[..]));
    /// assert!(r.contains(b"user1:2024"));
    /// assert_eq!(KeyRange::new(&[], &[]).start(), &[] as &[u8]); // the whole table
    /// ```
    #[inline]
    pub fn new(start: &[u8], stop: &[u8]) -> KeyRange {
        KeyRange {
            start: KeyBuf::from_slice(start),
            stop: KeyBuf::from_slice(stop),
        }
    }

    /// The first key of the range (inclusive); empty for the start of the table.
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// assert_eq!(KeyRange::new(&[0x02, 0x05], &[0x02, 0x14]).start(), [0x02, 0x05]);
    /// assert!(KeyRange::new(&[], &[0x80]).start().is_empty());
    /// assert!(KeyRange::new(&[], &[0x80]).contains(&[0x00]));
    /// ```
    #[inline]
    pub fn start(&self) -> &[u8] {
        self.start.as_slice()
    }

    /// Every key that starts with `prefix`: from `prefix` to the first key after all of them,
    /// which is `prefix` with its trailing `FF` bytes removed and its last byte incremented, or
    /// the end of the table when `prefix` is empty or all `FF` (HBase's
    /// `ClientUtil.calculateTheClosestNextRowKeyForPrefix`, the stop row a prefix scan needs).
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// assert_eq!(KeyRange::prefix(&[0x02]), KeyRange::new(&[0x02], &[0x03]));
    /// assert_eq!(KeyRange::prefix(&[0x02, 0xFF, 0xFF]).stop(), [0x03]);
    /// assert!(KeyRange::prefix(&[0xFF, 0xFF]).stop().is_empty()); // to the end of the table
    /// ```
    pub fn prefix(prefix: &[u8]) -> KeyRange {
        KeyRange::new(prefix, &super::byte_order::prefix_stop(prefix))
    }

    /// The key after the range (exclusive); empty for the end of the table.
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// // Every key that starts with 02 FF: the stop drops the trailing FF and increments.
    /// assert_eq!(KeyRange::prefix(&[0x02, 0xFF]).stop(), [0x03]);
    /// assert!(KeyRange::new(&[0x80], &[]).stop().is_empty());
    /// ```
    #[inline]
    pub fn stop(&self) -> &[u8] {
        self.stop.as_slice()
    }

    /// Whether `key` lies in the range.
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// let r = KeyRange::new(&[0x02, 0x05], &[0x02, 0x14]);
    /// assert!(r.contains(&[0x02, 0x05]));       // start included
    /// assert!(r.contains(&[0x02, 0x13, 0xFF])); // anything below the stop
    /// assert!(!r.contains(&[0x02, 0x14]));      // stop excluded
    /// assert!(!r.contains(&[0x02]));            // sorts before the start
    /// ```
    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        Span::contains(self, key)
    }

    /// Whether the range holds no key at all.
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// assert!(KeyRange::new(&[0x02], &[0x02]).is_empty());
    /// assert!(KeyRange::new(&[0x03], &[0x02]).is_empty());
    /// assert!(!KeyRange::new(&[0x02], &[0x02, 0x00]).is_empty()); // holds 02 itself
    /// assert!(!KeyRange::new(&[0xFF], &[]).is_empty());           // to the end of the table
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.stop().is_empty() && self.start() >= self.stop()
    }

    /// The range as standard bounds: `(Included(start), Excluded(stop))`, with `Unbounded` for an
    /// empty stop (the end of the table). `KeyRange` is also `RangeBounds<[u8]>`, so it goes
    /// straight into `BTreeMap::range` and the range scans of redb, fjall and sled.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use std::ops::Bound;
    /// use rowkey::KeyRange;
    ///
    /// let r = KeyRange::new(&[0x02], &[]);
    /// assert_eq!(r.bounds(), (Bound::Included(&[0x02][..]), Bound::Unbounded));
    /// let rows: BTreeMap<Vec<u8>, &str> =
    ///     [(vec![0x01], "a"), (vec![0x02], "b"), (vec![0x02, 0xFF], "c"), (vec![0x03], "d")].into();
    /// let r = KeyRange::new(&[0x02], &[0x03]);
    /// let got: Vec<&str> = rows.range::<[u8], _>(&r).map(|(_, v)| *v).collect();
    /// assert_eq!(got, ["b", "c"]);
    /// ```
    pub fn bounds(&self) -> (Bound<&[u8]>, Bound<&[u8]>) {
        let stop = match self.stop() {
            [] => Bound::Unbounded,
            stop => Bound::Excluded(stop),
        };
        (Bound::Included(self.start()), stop)
    }

    /// The HBase shell `scan` of this range on `table`.
    ///
    /// ```
    /// use rowkey::KeyRange;
    /// let r = KeyRange::new(&[0x02, b'a'], &[0x03]);
    /// assert_eq!(
    ///     r.to_shell_scan("events"),
    ///     r#"scan 'events', {STARTROW => "\x02a", STOPROW => "\x03"}"#
    /// );
    /// assert_eq!(KeyRange::new(&[], &[]).to_shell_scan("events"), "scan 'events'");
    /// ```
    pub fn to_shell_scan(&self, table: &str) -> alloc::string::String {
        crate::hbase::scan_command(table, self.start(), self.stop())
    }

    /// The range `[start, stop)` of two buffers the planner built.
    #[inline(always)]
    /// The range of the same keys behind `tag`: the end of the table becomes the end of the
    /// tag's keys.
    pub(crate) fn behind(&self, tag: crate::tag::Tag) -> KeyRange {
        let start = tag.join(self.start());
        let stop = if self.stop().is_empty() {
            super::byte_order::prefix_stop(&tag.join(&[]))
        } else {
            tag.join(self.stop())
        };
        KeyRange::new(&start, &stop)
    }

    pub(crate) fn from_bufs(start: KeyBuf, stop: KeyBuf) -> KeyRange {
        KeyRange { start, stop }
    }
}

/// `[start, stop)`, with an empty stop unbounded: see [`KeyRange::bounds`].
impl RangeBounds<[u8]> for KeyRange {
    fn start_bound(&self) -> Bound<&[u8]> {
        Bound::Included(self.start())
    }

    fn end_bound(&self) -> Bound<&[u8]> {
        self.bounds().1
    }
}

/// By reference too, so a plan's ranges can be handed over without moving them:
/// `map.range::<[u8], _>(&r)`.
impl RangeBounds<[u8]> for &KeyRange {
    fn start_bound(&self) -> Bound<&[u8]> {
        (**self).start_bound()
    }

    fn end_bound(&self) -> Bound<&[u8]> {
        (**self).end_bound()
    }
}

impl core::fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "[{}, {})",
            crate::hbase::to_string_binary(self.start()),
            crate::hbase::to_string_binary(self.stop())
        )
    }
}

impl Span for KeyRange {
    #[inline(always)]
    fn start(&self) -> &[u8] {
        self.start.as_slice()
    }

    #[inline(always)]
    fn stop(&self) -> &[u8] {
        self.stop.as_slice()
    }

    #[inline]
    fn take_stop(&mut self, other: &mut Self) {
        core::mem::swap(&mut self.stop, &mut other.stop);
    }
}

/// The ranges of a plan, in order.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct K {
///     user: u8,
///     ts: u8,
/// }
///
/// let ranges = K::scan().user_in([9, 1, 5]).ranges();
/// assert_eq!(ranges.len(), 3);
/// let starts: Vec<Vec<u8>> = ranges.map(|r| r.start().to_vec()).collect();
/// assert_eq!(starts, [[1], [5], [9]]);
/// ```
#[derive(Clone, Debug)]
pub struct Ranges {
    inner: RangesInner,
}

#[derive(Clone, Debug)]
enum RangesInner {
    One(Option<KeyRange>),
    Many(alloc::vec::IntoIter<KeyRange>),
}

impl Ranges {
    #[inline]
    pub(crate) fn none() -> Self {
        Ranges {
            inner: RangesInner::One(None),
        }
    }

    /// One range, which the caller has checked is not empty.
    #[inline]
    pub(crate) fn one(r: KeyRange) -> Self {
        Ranges {
            inner: RangesInner::One(Some(r)),
        }
    }

    pub(crate) fn many(v: Vec<KeyRange>) -> Self {
        Ranges {
            inner: RangesInner::Many(v.into_iter()),
        }
    }
}

impl Iterator for Ranges {
    type Item = KeyRange;

    #[inline]
    fn next(&mut self) -> Option<KeyRange> {
        match &mut self.inner {
            RangesInner::One(r) => r.take(),
            RangesInner::Many(it) => it.next(),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            RangesInner::One(r) => (usize::from(r.is_some()), Some(usize::from(r.is_some()))),
            RangesInner::Many(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for Ranges {}

/// Hashes the two ends as byte strings, as `Eq` compares them.
impl core::hash::Hash for KeyRange {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.start().hash(state);
        self.stop().hash(state);
    }
}
