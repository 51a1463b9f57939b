//! Scan plans: the half-open key ranges `[start, stop)` that hold the rows a query asks for, built
//! from the same layout that encodes the keys.
//!
//! A plan binds the fields of a key in order: equalities (or IN lists, which fan out into several
//! alternatives) on a leading run of fields, then at most one range or string prefix on the next.
//! Bounds are encoded with the field's own encoding, so `desc`, `width`, `Option` and nested fields
//! need no special care from the caller, and the prefix component (salt byte or hash prefix) is
//! added last: one range per bucket, or only the buckets the bound sources give.
//!
//! `#[derive(RowKey)]` generates the typed builder (`K::scan()`). Its states plan in one of two
//! lanes, an implementation detail users never name: `ArrayPlan` (then `ArrayRanged`) for layouts
//! without a prefix component, tag or text format (bound bytes go into arrays at known offsets, of
//! the key's length or of a capacity for keys that vary), and the general planner (`plan.rs`,
//! [`Scan`] itself) for the rest and for what the arrays cannot hold; every state converts into the `Scan` of the same
//! query. Both answer with [`KeyRange`]s built, sorted, merged and searched by the same code
//! (`range.rs`, `byte_order.rs`), and resume and split through `Scan` alone.
//!
//! | file | idea |
//! |---|---|
//! | `byte_order.rs` | key order, and the stop row of a prefix |
//! | `keybuf.rs` | the byte strings of a plan, inline while short |
//! | `range.rs` | `KeyRange`, containment, sorting and merging of ranges |
//! | `scan_layout.rs` | what planning knows of a layout |
//! | `alts.rs` | the alternatives an IN list fans out into |
//! | `bound.rs` | bounds in encoded space, and values a field cannot store |
//! | `text_segments.rs` | text segments filtered by content |
//! | `plan.rs` | the general planner |
//! | `order.rs` | a field type's value order, for a bound no stored value can be placed against |
//! | `pattern.rs` | the bytes at a known offset of a plan that cannot narrow its ranges, for a store's row filter |
//! | `lane.rs`, `array.rs` | the array lane's planner, and its ranges held in arrays |
//! | `bind.rs` | the protocol generated builders call |
//! | `step.rs` | the states of a derived key's builder, written once for every key |

mod alts;
mod array;
mod bind;
mod bound;
mod byte_order;
mod keybuf;
mod lane;
mod order;
mod pattern;
mod plan;
mod range;
mod scan_layout;
mod step;
mod text_segments;
mod window;

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::ops::Bound;

pub use bind::{Bind, Marked, Marker, Plan};
pub use lane::{ArrayPlan, ArrayRanged};
pub use order::{ByPartialOrd, Probe, Unordered, ValueOrder};
pub use pattern::KeyPattern;
pub use range::{KeyRange, Ranges};
pub use scan_layout::ScanLayout;
#[doc(hidden)] // the derive's protocol
pub use step::{Builder, ScanStep};

use crate::field::{FieldMode, KeyField};

use plan::FieldPlan;
use window::Window;

/// A scan plan over keys of `K`: the ranges to read, and the exact test of a key. Every state of
/// the builder `K::scan()` generates converts into one with `into()`, and has the same three
/// methods.
///
/// ```
/// use rowkey::{KeyRange, RowKey, Scan};
///
/// #[derive(RowKey)]
/// struct K {
///     user: u8,
///     ts: u8,
/// }
///
/// let plan: Scan<K> = K::scan().user(2).ts_range(5..20).into();
/// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 5], &[2, 20])]);
/// assert!(plan.matches(&[2, 7]) && !plan.matches(&[2, 20]));
/// assert!(plan.is_exact());
/// ```
pub struct Scan<K: ?Sized> {
    layout: &'static ScanLayout,
    plan: FieldPlan,
    /// The keys [`after`](Scan::after) and [`split`](Scan::split) cut the plan down to. Boxed:
    /// plans are moved through every builder step, and most are never cut.
    window: Option<Box<Window>>,
    key: PhantomData<fn() -> K>,
}

impl<K: ?Sized> Scan<K> {
    #[inline(always)]
    fn with_plan(layout: &'static ScanLayout, plan: FieldPlan) -> Self {
        Scan {
            layout,
            plan,
            window: None,
            key: PhantomData,
        }
    }

    /// Whether every key inside [`ranges`](Scan::ranges) matches. False when the plan must read
    /// more than the query asks: a hash-prefixed layout whose hash sources are not all bound (the
    /// plan covers the whole table), a text segment filtered by content, or a bound no stored
    /// value can be placed against. Then [`matches`](Scan::matches) tells which rows are wanted.
    ///
    /// ```
    /// use rowkey::{KeyRange, RowKey};
    ///
    /// #[derive(RowKey)]
    /// struct K {
    ///     user: u8,
    ///     #[rowkey(hash_prefix(len = 2))]
    ///     ts: u8,
    /// }
    ///
    /// // Without `ts` the prefix is unknown, so the plan is the whole table.
    /// let plan = K::scan().user(2);
    /// assert!(!plan.is_exact());
    /// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[], &[])]);
    /// assert!(plan.matches(&[0xAB, 0xCD, 2, 9]) && !plan.matches(&[0xAB, 0xCD, 3, 9]));
    /// ```
    pub fn is_exact(&self) -> bool {
        self.plan.is_exact(self.layout)
    }

    /// Exactly whether `key` satisfies the plan.
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
    /// let plan = K::scan().user(2).ts_range(5..=19);
    /// assert!(plan.matches(&[2, 5]) && plan.matches(&[2, 19]));
    /// assert!(!plan.matches(&[2, 20]) && !plan.matches(&[3, 7]));
    /// ```
    pub fn matches(&self, key: &[u8]) -> bool {
        self.window.as_ref().map_or(true, |w| w.contains(key))
            && self
                .layout
                .tag
                .strip(key)
                .is_some_and(|rest| self.plan.matches(self.layout, rest))
    }

    /// The ranges to scan: sorted by start, not overlapping, adjacent ones merged except across
    /// salt buckets. Empty when nothing can match; one range `[, )` over the whole table when the
    /// plan cannot be narrowed (check [`is_exact`](Scan::is_exact)).
    ///
    /// ```
    /// use rowkey::{KeyRange, RowKey};
    ///
    /// #[derive(RowKey)]
    /// struct K {
    ///     user: u8,
    ///     #[rowkey(desc)]
    ///     ts: u8,
    /// }
    ///
    /// // Sorted, duplicates dropped, 2 and 3 merged.
    /// let ranges: Vec<KeyRange> = K::scan().user_in([7, 2, 3, 7]).ranges().collect();
    /// assert_eq!(ranges, [KeyRange::new(&[2], &[4]), KeyRange::new(&[7], &[8])]);
    /// // On the desc `ts`, 5..20 is stored from !19 = EC through !5 = FA.
    /// let plan = K::scan().user(2).ts_range(5..20);
    /// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 0xEC], &[2, 0xFB])]);
    /// ```
    #[inline]
    pub fn ranges(&self) -> Ranges {
        // The common plan, one range of a layout without a tag, taken as it is.
        if self.layout.tag.is_none() && self.window.is_none() {
            if let Some(range) = self.plan.single_range() {
                return Ranges::one(range);
            }
        }
        self.ranges_in_general()
    }

    /// [`ranges`](Scan::ranges) of any plan.
    #[inline(never)]
    fn ranges_in_general(&self) -> Ranges {
        let mut ranges = self.plan.ranges(self.layout);
        let tag = self.layout.tag;
        if !tag.is_none() {
            ranges = Ranges::many(ranges.map(|r| r.behind(tag)).collect());
        }
        match &self.window {
            None => ranges,
            Some(window) => Ranges::many(window.clip_all(ranges)),
        }
    }

    /// What the plan knows of its keys' bytes that its ranges cannot say: for a hash-prefixed
    /// layout whose hash sources the query does not bind (the plan reads the whole table), the
    /// bytes of the fields it binds, at their offset behind the prefix. A store's row filter
    /// (HBase's `FuzzyRowFilter`) tests them where the rows are. `None` for every other plan.
    /// Never narrower than the plan; see [`KeyPattern::is_exact`].
    ///
    /// ```
    /// use rowkey::{RowKey, Scan};
    ///
    /// #[derive(RowKey)]
    /// struct K {
    ///     user: u8,
    ///     #[rowkey(hash_prefix(len = 2))]
    ///     ts: u8,
    /// }
    ///
    /// let plan: Scan<K> = K::scan().user(2).into();
    /// let pattern = plan.pattern().unwrap();
    /// assert_eq!((pattern.offset(), pattern.alternatives().next()), (2, Some(&[2][..])));
    /// let known: Scan<K> = K::scan().user(2).ts(9).into();
    /// assert!(known.pattern().is_none()); // the prefix is known: one exact range
    /// ```
    pub fn pattern(&self) -> Option<KeyPattern> {
        self.plan.pattern(self.layout)
    }

    /// The bytes of salt that start every key of the plan: 1 for a salted binary layout, the
    /// digits and the delimiter in a text layout, 0 without a salt; a tag before the salt counts
    /// too. What a merge of the
    /// per-bucket results skips to put rows back in key order
    /// ([`merge_by_key`](crate::merge::merge_by_key)).
    ///
    /// ```
    /// use rowkey::{RowKey, Scan};
    ///
    /// #[derive(RowKey)]
    /// struct K {
    ///     #[rowkey(salt(buckets = 16))]
    ///     user: u32,
    /// }
    ///
    /// let plan: Scan<K> = K::scan().into();
    /// assert_eq!(plan.salt_len(), 1);
    /// ```
    pub fn salt_len(&self) -> usize {
        match self.layout.prefix {
            // A tag is the same in every key: skipping it too keeps the order.
            crate::prefix::Prefix::Salt(_) => {
                self.layout.tag.encoded_len() + self.layout.prefix_len()
            }
            _ => 0,
        }
    }

    /// The same query over the keys strictly after `key`: to resume a scan after the last row
    /// it returned (a retry, the next page of keyset pagination). Ranges wholly at or before `key`
    /// are dropped, and the one holding it starts just after it (at `key 00`). Order is the
    /// store's byte order: on a salted plan, keys of later buckets are after every key of earlier
    /// ones, as a scan that reads the ranges one after another returns them.
    ///
    /// ```
    /// use rowkey::{KeyRange, RowKey, Scan};
    ///
    /// #[derive(RowKey)]
    /// struct K {
    ///     user: u8,
    ///     ts: u8,
    /// }
    ///
    /// let plan: Scan<K> = K::scan().user_in([2, 5, 9]).into();
    /// // A scan of 02 through 05 09 stopped after 05 09: it resumes at 05 09 00.
    /// let rest = plan.after(&[5, 9]);
    /// assert_eq!(
    ///     rest.ranges().collect::<Vec<_>>(),
    ///     [KeyRange::new(&[5, 9, 0], &[6]), KeyRange::new(&[9], &[10])]
    /// );
    /// assert!(!rest.matches(&[5, 9]) && rest.matches(&[5, 10]) && !rest.matches(&[2, 1]));
    /// ```
    pub fn after(&self, key: &[u8]) -> Scan<K> {
        self.cut(&Window::after(key))
    }

    /// The plan cut at `boundaries` (split points: region start keys such as
    /// [`split_keys`](crate::RowKey::split_keys) gives, or the sample keys Bigtable's
    /// SampleRowKeys returns) into one plan per region, for parallel workers: region 0 is
    /// everything before the first boundary, region `i` is `[boundary i-1, boundary i)`, the last
    /// runs to the end of the table. Boundaries are taken in any order; duplicates and the empty
    /// key (the start of the table) are ignored, so there is one plan more than distinct
    /// boundaries. Together the plans read exactly what this one reads: no two overlap, each
    /// matches exactly the keys of its region that this plan matches. A region the plan does not
    /// reach gets a plan with no ranges.
    ///
    /// ```
    /// use rowkey::{KeyRange, RowKey, Scan};
    ///
    /// #[derive(RowKey)]
    /// struct K {
    ///     user: u8,
    ///     ts: u8,
    /// }
    ///
    /// let plan: Scan<K> = K::scan().user_in([2, 3, 9]).into(); // [02, 04) and [09, 0A)
    /// let parts = plan.split([[3u8, 7], [8u8, 0]]);
    /// let ranges: Vec<Vec<KeyRange>> = parts.iter().map(|p| p.ranges().collect()).collect();
    /// assert_eq!(
    ///     ranges,
    ///     [
    ///         vec![KeyRange::new(&[2], &[3, 7])],
    ///         vec![KeyRange::new(&[3, 7], &[4])],
    ///         vec![KeyRange::new(&[9], &[10])],
    ///     ]
    /// );
    /// ```
    pub fn split<B: AsRef<[u8]>>(&self, boundaries: impl IntoIterator<Item = B>) -> Vec<Scan<K>> {
        let mut points: Vec<Vec<u8>> = boundaries
            .into_iter()
            .map(|b| b.as_ref().to_vec())
            .filter(|b| !b.is_empty())
            .collect();
        points.sort_unstable();
        points.dedup();
        let empty: &[u8] = &[];
        let starts = core::iter::once(empty).chain(points.iter().map(Vec::as_slice));
        let stops = points
            .iter()
            .map(Vec::as_slice)
            .chain(core::iter::once(empty));
        starts
            .zip(stops)
            .map(|(start, stop)| self.cut(&Window::region(start, stop)))
            .collect()
    }

    /// This plan cut down to the keys of `window` too.
    fn cut(&self, window: &Window) -> Scan<K> {
        let window = match &self.window {
            Some(w) => w.intersect(window),
            None => window.clone(),
        };
        Scan {
            window: Some(Box::new(window)),
            ..self.clone()
        }
    }
}

/// A plan holds only bytes, so it clones whatever `K` is.
impl<K: ?Sized> Clone for Scan<K> {
    fn clone(&self) -> Self {
        Scan {
            window: self.window.clone(),
            ..Scan::with_plan(self.layout, self.plan.clone())
        }
    }
}

/// A borrowed plan, copied: the reads of the store adapters take `impl Into<Scan<K>>`, so that
/// `&plan`, a plan and a builder's state (`K::scan().user(7)`) are all a plan to read.
impl<K: ?Sized> From<&Scan<K>> for Scan<K> {
    fn from(scan: &Scan<K>) -> Self {
        scan.clone()
    }
}

impl<K: ?Sized> core::fmt::Debug for Scan<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        fmt_plan(f, "Scan", self.ranges(), self.is_exact())
    }
}

/// The general lane: a `Scan` is also the planner of the builders of layouts outside the array
/// lane (a prefix component, a tag, the text format), and of plans that leave it. A range or prefix ends
/// a plan; the generated builder never binds past it.
impl<K: ?Sized> Bind for Scan<K> {
    type Ranged = Scan<K>;

    #[inline(always)]
    fn start(layout: &'static ScanLayout) -> Self {
        Scan::with_plan(layout, FieldPlan::new())
    }

    #[inline(always)]
    fn bind_eq<T: KeyField + ?Sized>(mut self, value: &T, mode: FieldMode) -> Self {
        self.plan.bind_eq(self.layout, value, mode);
        self
    }

    #[inline(always)]
    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(
        mut self,
        values: I,
        mode: FieldMode,
    ) -> Self {
        self.plan.bind_in(self.layout, values, mode);
        self
    }

    #[inline(always)]
    fn bind_range<T: KeyField + ?Sized>(
        mut self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
        order: ValueOrder<T>,
    ) -> Scan<K> {
        self.plan.bind_range(self.layout, start, end, mode, order);
        self
    }

    #[inline(always)]
    fn bind_prefix(mut self, prefix: &[u8], mode: FieldMode) -> Scan<K> {
        self.plan.bind_prefix(prefix, mode);
        self
    }
}

impl<K: ?Sized> Plan for Scan<K> {
    type Key = K;

    #[inline(always)]
    fn plan_ranges(&self) -> Ranges {
        self.ranges()
    }

    fn plan_matches(&self, key: &[u8]) -> bool {
        self.matches(key)
    }

    fn plan_is_exact(&self) -> bool {
        self.is_exact()
    }

    fn plan_salt_len(&self) -> usize {
        self.salt_len()
    }

    #[inline(always)]
    fn into_scan(self) -> Scan<K> {
        self
    }

    fn plan_after(&self, key: &[u8]) -> Scan<K> {
        self.after(key)
    }

    fn plan_split<B: AsRef<[u8]>>(&self, boundaries: impl IntoIterator<Item = B>) -> Vec<Scan<K>> {
        self.split(boundaries)
    }
}

/// How every plan type shows itself: its ranges, and whether it is exact.
fn fmt_plan(
    f: &mut core::fmt::Formatter<'_>,
    name: &str,
    ranges: Ranges,
    exact: bool,
) -> core::fmt::Result {
    f.debug_struct(name)
        .field("ranges", &ranges.collect::<Vec<_>>())
        .field("exact", &exact)
        .finish()
}
