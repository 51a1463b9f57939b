//! Scan plans under test: a query drawn from the fuzzer's bytes, the plan the typed builder makes
//! of it, and the checks every plan must pass against keys made from values of the layout and
//! against arbitrary bytes.
//!
//! A layout is declared once with [`scan_layout!`], which derives `RowKey`, and writes the query
//! type, the drawing of queries, the independent predicate over the decoded struct and the builder
//! calls for it. [`run`] draws values, keys and a query, and checks:
//!
//! - building the plan, reading its ranges and matching keys never panic;
//! - `ranges()` are not empty, sorted by start, do not overlap, adjacent ones are merged, and on a
//!   salted layout none spans two buckets;
//! - every key that `matches()` accepts lies in some range (a plan never loses a row);
//! - for every key of a value (encoded from one, or arbitrary bytes that decode), `matches()` is
//!   the predicate computed from the value and the query;
//! - when `is_exact()`, every such key inside the ranges matches;
//! - every key `matches()` accepts holds the plan's `pattern()`, and an exact pattern accepts
//!   exactly the keys of values inside the ranges that `matches()` accepts;
//! - the builder state and the `Scan<K>` it converts `into()` give the same ranges, exactness and
//!   matches;
//! - the plan resumed `after` a key, and split at boundaries, keeps exactly its keys past the cut
//!   or in each region, inside their ranges, the parts never overlapping.

use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::Bound;

use rowkey::{DecodeKey, KeyRange, RowKey, Scan};

use crate::{mutate, Gen, Pick};

/// A field value as a query sees it: what the builder's methods take, its order (the order the
/// key promises to keep), and for strings and bytes, prefixes.
pub trait FieldValue: Pick + Clone + Debug {
    /// What `.f(v)` and `.f_range(..)` take: the value, or `&str` / `&[u8]`.
    type Arg<'a>
    where
        Self: 'a;

    fn arg(&self) -> Self::Arg<'_>;

    /// The field's own order: `Ord`, or `total_cmp` for floats.
    fn order(&self, other: &Self) -> Ordering;

    /// The first `n` characters or bytes (strings and bytes only).
    fn cut(&self, _n: usize) -> Self {
        self.clone()
    }

    /// Whether the content starts with `prefix` (strings and bytes only).
    fn starts_with(&self, _prefix: &Self) -> bool {
        false
    }

    /// The content of strings and bytes; empty for other types.
    fn content(&self) -> &[u8] {
        &[]
    }
}

macro_rules! by_ord {
    ($($t:ty)*) => {$(
        impl FieldValue for $t {
            type Arg<'a> = $t;

            fn arg(&self) -> $t {
                *self
            }

            fn order(&self, other: &Self) -> Ordering {
                self.cmp(other)
            }
        }
    )*};
}

by_ord!(u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 bool char);

macro_rules! by_total_cmp {
    ($($t:ty)*) => {$(
        impl FieldValue for $t {
            type Arg<'a> = $t;

            fn arg(&self) -> $t {
                *self
            }

            fn order(&self, other: &Self) -> Ordering {
                self.total_cmp(other)
            }
        }
    )*};
}

by_total_cmp!(f32 f64);

impl FieldValue for String {
    type Arg<'a> = &'a str;

    fn arg(&self) -> &str {
        self
    }

    fn order(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }

    fn cut(&self, n: usize) -> Self {
        self.chars().take(n).collect()
    }

    fn starts_with(&self, prefix: &Self) -> bool {
        self.as_str().starts_with(prefix.as_str())
    }

    fn content(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl FieldValue for Vec<u8> {
    type Arg<'a> = &'a [u8];

    fn arg(&self) -> &[u8] {
        self
    }

    fn order(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }

    fn cut(&self, n: usize) -> Self {
        self[..n.min(self.len())].to_vec()
    }

    fn starts_with(&self, prefix: &Self) -> bool {
        self.as_slice().starts_with(prefix)
    }

    fn content(&self) -> &[u8] {
        self
    }
}

/// `None` sorts first, as `00` sorts before `01`.
impl<T: FieldValue> FieldValue for Option<T> {
    type Arg<'a>
        = Option<T>
    where
        T: 'a;

    fn arg(&self) -> Option<T> {
        self.clone()
    }

    fn order(&self, other: &Self) -> Ordering {
        match (self, other) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(a), Some(b)) => a.order(b),
        }
    }
}

/// One field's part of a query.
#[derive(Debug)]
pub enum Op<T> {
    /// `.f(v)`
    Eq(T),
    /// `.f_in(values)`
    In(Vec<T>),
    /// `.f_range((lo, hi))`
    Range(Bound<T>, Bound<T>),
    /// `.f_prefix(p)`
    Prefix(T),
}

/// A value for a query: often one the keys hold (so queries hit rows), else a fresh one.
fn value<T: FieldValue>(g: &mut Gen<'_>, pool: &[T]) -> T {
    if !pool.is_empty() && g.flag() {
        g.pick(pool)
    } else {
        T::pick(g)
    }
}

fn bound<T: FieldValue>(g: &mut Gen<'_>, pool: &[T]) -> Bound<T> {
    match g.below(3) {
        0 => Bound::Included(value(g, pool)),
        1 => Bound::Excluded(value(g, pool)),
        _ => Bound::Unbounded,
    }
}

/// The next field's part of a query, or `None` to stop binding. `range` and `prefix` say whether
/// the field has `f_range` and `f_prefix`.
pub fn op<T: FieldValue>(g: &mut Gen<'_>, pool: &[T], range: bool, prefix: bool) -> Option<Op<T>> {
    match g.below(8) {
        0 => None,
        4 => Some(Op::In((0..g.below(6)).map(|_| value(g, pool)).collect())),
        5 | 6 if range => Some(Op::Range(bound(g, pool), bound(g, pool))),
        7 if prefix => {
            let v = value(g, pool);
            let n = g.below(8);
            Some(Op::Prefix(v.cut(n)))
        }
        _ => Some(Op::Eq(value(g, pool))),
    }
}

/// The prefix a field's part of a query binds, if it is a prefix.
pub fn prefix_of<T: FieldValue>(op: &Option<Op<T>>) -> Option<&[u8]> {
    match op {
        Some(Op::Prefix(p)) => Some(p.content()),
        _ => None,
    }
}

/// Whether a query goes on to the next field after this one.
pub fn continues<T>(op: &Option<Op<T>>) -> bool {
    matches!(op, Some(Op::Eq(_) | Op::In(_)))
}

/// The predicate: whether `v` satisfies the field's part of the query, in plain Rust.
pub fn accepts<T: FieldValue>(op: &Option<Op<T>>, v: &T) -> bool {
    let above = |b: &Bound<T>| match b {
        Bound::Included(lo) => v.order(lo).is_ge(),
        Bound::Excluded(lo) => v.order(lo).is_gt(),
        Bound::Unbounded => true,
    };
    let below = |b: &Bound<T>| match b {
        Bound::Included(hi) => v.order(hi).is_le(),
        Bound::Excluded(hi) => v.order(hi).is_lt(),
        Bound::Unbounded => true,
    };
    match op {
        None => true,
        Some(Op::Eq(x)) => v.order(x).is_eq(),
        Some(Op::In(xs)) => xs.iter().any(|x| v.order(x).is_eq()),
        Some(Op::Range(lo, hi)) => above(lo) && below(hi),
        Some(Op::Prefix(p)) => v.starts_with(p),
    }
}

/// What a plan says: its ranges, whether it is exact, and `matches` of each key asked about.
#[derive(Debug, PartialEq)]
pub struct Observed {
    pub ranges: Vec<KeyRange>,
    pub exact: bool,
    pub matches: Vec<bool>,
}

impl Observed {
    pub fn of<K>(scan: &Scan<K>, keys: &[Vec<u8>]) -> Observed {
        Observed {
            ranges: scan.ranges().collect(),
            exact: scan.is_exact(),
            matches: keys.iter().map(|k| scan.matches(k)).collect(),
        }
    }
}

/// A layout the scan target fuzzes. Written by [`scan_layout!`].
pub trait Layout: RowKey + for<'k> DecodeKey<'k> + Pick + Clone + Debug + 'static {
    type Query: Debug;

    /// On salted layouts, the length of the salt component: no range may span two buckets.
    const SALT_LEN: Option<usize> = None;

    /// The delimiter of a text layout.
    const DELIMITER: Option<&'static str>;

    fn query(g: &mut Gen<'_>, values: &[Self]) -> Self::Query;

    /// The independent predicate: whether `v` satisfies `q`.
    fn pred(q: &Self::Query, v: &Self) -> bool;

    /// Field by field equality in the fields' own order (bit equality for floats).
    fn same(a: &Self, b: &Self) -> bool;

    /// How many fields the query binds.
    fn bound(q: &Self::Query) -> usize;

    /// Builds the plan of `q` with the typed builder, and observes it on `keys`, both on the
    /// builder's final state and on the `Scan` it converts into (checked equal).
    fn plan(q: &Self::Query, keys: &[Vec<u8>]) -> (Scan<Self>, Observed);
}

/// Observes the builder `state` on `keys`, converts it into a `Scan<$K>`, checks that both say the
/// same, and returns them from the enclosing function.
#[macro_export]
macro_rules! observe {
    ($K:ty, $state:expr, $keys:expr) => {{
        let state = $state;
        let direct = $crate::plan::Observed {
            ranges: state.ranges().collect(),
            exact: state.is_exact(),
            matches: $keys.iter().map(|k| state.matches(k)).collect(),
        };
        let scan: ::rowkey::Scan<$K> = state.into();
        let converted = $crate::plan::Observed::of(&scan, $keys);
        assert_eq!(
            direct, converted,
            "the builder state and the Scan it converts into disagree"
        );
        return (scan, direct);
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __has {
    () => {
        false
    };
    ($x:ident) => {
        true
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bind_range {
    ($K:ty, $state:ident, $keys:ident, $lo:ident, $hi:ident, $range:ident) => {
        $crate::observe!(
            $K,
            $state.$range(($lo.as_ref().map(|v| v.arg()), $hi.as_ref().map(|v| v.arg()))),
            $keys
        )
    };
    ($K:ty, $state:ident, $keys:ident, $lo:ident, $hi:ident) => {
        unreachable!("a range on a field without one")
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bind_prefix {
    ($K:ty, $state:ident, $keys:ident, $p:ident, $prefix:ident) => {
        $crate::observe!($K, $state.$prefix($p.arg()), $keys)
    };
    ($K:ty, $state:ident, $keys:ident, $p:ident) => {
        unreachable!("a prefix on a field without one")
    };
}

/// Declares a layout for the scan target: the struct (deriving `RowKey`), its query type, and its
/// [`Layout`](crate::plan::Layout) impl. Each field names its builder methods, `range = ..` and
/// `prefix = ..` when it has them; `[salt = n]` gives a salted layout's salt length.
///
/// ```ignore
/// scan_layout! {
///     struct Meter / MeterQuery {
///         site: u8 => site, site_in, range = site_range;
///         #[rowkey(desc)]
///         name: String => name, name_in, range = name_range, prefix = name_prefix;
///     }
/// }
/// ```
#[macro_export]
macro_rules! scan_layout {
    (
        $(#[$attr:meta])*
        struct $K:ident / $Q:ident $([salt = $salt:literal])? {
            $(
                $(#[$fattr:meta])*
                $f:ident: $T:ty => $eq:ident, $in_:ident
                    $(, range = $range:ident)? $(, prefix = $prefix:ident)?;
            )*
        }
    ) => {
        #[derive(::rowkey::RowKey, Debug, Clone)]
        $(#[$attr])*
        pub struct $K {
            $($(#[$fattr])* pub $f: $T,)*
        }

        #[derive(Debug, Default)]
        pub struct $Q {
            $(pub $f: Option<$crate::plan::Op<$T>>,)*
        }

        impl $crate::Pick for $K {
            fn pick(g: &mut $crate::Gen<'_>) -> Self {
                $K { $($f: $crate::Pick::pick(g),)* }
            }
        }

        impl $crate::plan::Layout for $K {
            type Query = $Q;

            $(const SALT_LEN: Option<usize> = Some($salt);)?
            const DELIMITER: Option<&'static str> = match $K::LAYOUT.format {
                rowkey::KeyFormat::Text(d) => Some(d),
                _ => None,
            };

            fn query(g: &mut $crate::Gen<'_>, values: &[Self]) -> $Q {
                let mut q = $Q::default();
                let mut open = true;
                $(
                    if open {
                        let pool: Vec<$T> = values.iter().map(|v| v.$f.clone()).collect();
                        q.$f = $crate::plan::op(
                            g,
                            &pool,
                            $crate::__has!($($range)?),
                            $crate::__has!($($prefix)?),
                        );
                        open = $crate::plan::continues(&q.$f);
                    }
                )*
                let _ = open;
                q
            }

            fn pred(q: &$Q, v: &Self) -> bool {
                true $(&& $crate::plan::accepts(&q.$f, &v.$f))*
            }

            fn same(a: &Self, b: &Self) -> bool {
                true $(&& $crate::plan::FieldValue::order(&a.$f, &b.$f).is_eq())*
            }

            fn bound(q: &$Q) -> usize {
                0 $(+ usize::from(q.$f.is_some()))*
            }

            fn plan(q: &$Q, keys: &[Vec<u8>]) -> (::rowkey::Scan<Self>, $crate::plan::Observed) {
                #[allow(unused_imports)]
                use $crate::plan::{FieldValue as _, Op};
                let state = $K::scan();
                $(
                    let state = match &q.$f {
                        None => $crate::observe!($K, state, keys),
                        Some(Op::Eq(v)) => state.$eq(v.arg()),
                        Some(Op::In(vs)) => state.$in_(vs.iter().cloned()),
                        Some(Op::Range(lo, hi)) => {
                            $crate::__bind_range!($K, state, keys, lo, hi $(, $range)?)
                        }
                        Some(Op::Prefix(p)) => $crate::__bind_prefix!($K, state, keys, p $(, $prefix)?),
                    };
                )*
                $crate::observe!($K, state, keys)
            }
        }
    };
}

/// A key the checks ask about: its bytes, and its value when it is the key of one.
struct Key<K> {
    bytes: Vec<u8>,
    value: Option<K>,
}

impl<K: Layout> Key<K> {
    /// Arbitrary bytes: the key of a value when they decode (and then they must be its encoding).
    fn read(bytes: Vec<u8>) -> Key<K> {
        let value = K::decode(&bytes).ok();
        if let Some(v) = &value {
            assert_eq!(
                v.to_vec().ok().as_deref(),
                Some(bytes.as_slice()),
                "{v:?} decoded from {bytes:02X?} encodes differently"
            );
        }
        Key { bytes, value }
    }
}

/// Keys around a range's ends: the ends themselves, one byte longer and one shorter.
fn probes(r: &KeyRange) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for end in [r.start(), r.stop()] {
        if end.is_empty() {
            continue;
        }
        out.push(end.to_vec());
        out.push([end, &[0x00]].concat());
        out.push([end, &[0xFF]].concat());
        out.push(end[..end.len() - 1].to_vec());
        let mut before = end.to_vec();
        let last = before.len() - 1;
        if before[last] > 0 {
            before[last] -= 1;
            before.push(0xFF);
            out.push(before);
        }
    }
    out
}

/// One fuzz case on layout `K`: values, keys, a query, its plan, and every check.
pub fn run<K: Layout>(g: &mut Gen<'_>) {
    let values: Vec<K> = (0..=g.below(8)).map(|_| K::pick(g)).collect();
    let query = K::query(g, &values);
    let mut keys: Vec<Key<K>> = Vec::new();
    for v in values {
        // A value that does not encode (too wide, a delimiter inside a text segment...) has no key.
        let Ok(bytes) = v.to_vec() else { continue };
        let back = K::decode(&bytes).unwrap_or_else(|e| {
            panic!("{v:?} encodes as {bytes:02X?}, which does not decode: {e}")
        });
        assert!(
            K::same(&back, &v),
            "{v:?} encodes as {bytes:02X?}, which decodes as {back:?}"
        );
        keys.push(Key {
            bytes,
            value: Some(v),
        });
    }
    let encoded = keys.len();
    for _ in 0..g.below(2 * encoded + 3) {
        let mut bytes = if encoded > 0 && g.below(4) != 0 {
            keys[g.below(encoded)].bytes.clone()
        } else {
            g.bytes(24)
        };
        mutate(g, &mut bytes);
        keys.push(Key::read(bytes));
    }
    let bytes: Vec<Vec<u8>> = keys.iter().map(|k| k.bytes.clone()).collect();
    let (scan, seen) = K::plan(&query, &bytes);
    check_ranges::<K>(&seen.ranges, &query);
    for (key, &matched) in keys.iter().zip(&seen.matches) {
        check_key(key, matched, &seen, &query);
    }
    // The ends of the ranges, where stop rows and increments go wrong; a few ranges are enough.
    let step = (seen.ranges.len() / 8).max(1);
    for r in seen.ranges.iter().step_by(step) {
        for probe in probes(r) {
            let key = Key::<K>::read(probe);
            let matched = scan.matches(&key.bytes);
            check_key(&key, matched, &seen, &query);
        }
    }
    check_pattern(&scan, &keys, &seen, &query);
    check_cuts(g, &scan, &bytes, &seen.matches);
}

/// The pattern a store's row filter tests (HBase's `FuzzyRowFilter`): every key the plan matches
/// holds it (it is never narrower than the plan), and when it is exact, it alone decides which
/// keys of the layout inside the ranges match.
fn check_pattern<K: Layout>(scan: &Scan<K>, keys: &[Key<K>], seen: &Observed, query: &K::Query) {
    let Some(pattern) = scan.pattern() else {
        return;
    };
    for (key, &matched) in keys.iter().zip(&seen.matches) {
        assert!(
            !matched || pattern.matches(&key.bytes),
            "{:02X?} matches but does not hold the pattern {pattern:?}\nquery: {query:?}",
            key.bytes
        );
        let inside = seen.ranges.iter().any(|r| r.contains(&key.bytes));
        if pattern.is_exact() && inside && key.value.is_some() {
            assert_eq!(
                pattern.matches(&key.bytes),
                matched,
                "the exact pattern {pattern:?} disagrees with matches() on {:02X?}\nquery: {query:?}",
                key.bytes
            );
        }
    }
}

/// `after` a key and `split` at boundaries (keys of the input, or arbitrary bytes): each cut plan
/// matches exactly the plan's keys past the cut or in its region, holds each of them in its
/// ranges, and the parts of a split never overlap.
fn check_cuts<K>(g: &mut Gen<'_>, scan: &Scan<K>, keys: &[Vec<u8>], matches: &[bool]) {
    let some_key = |g: &mut Gen<'_>| match keys.len() {
        n if n > 0 && g.below(2) == 0 => keys[g.below(n)].clone(),
        _ => g.bytes(6),
    };
    let cut = some_key(g);
    let rest = scan.after(&cut);
    let rest_ranges: Vec<KeyRange> = rest.ranges().collect();
    assert!(
        rest_ranges.iter().all(|r| r.start() > cut.as_slice()),
        "after({cut:02X?}) plans a range at or before it: {rest_ranges:?}"
    );
    for (k, &matched) in keys.iter().zip(matches) {
        let want = matched && *k > cut;
        assert_eq!(rest.matches(k), want, "after({cut:02X?}).matches({k:02X?})");
        let held = rest_ranges.iter().any(|r| r.contains(k));
        assert!(
            !want || held,
            "after({cut:02X?}) lost {k:02X?}: {rest_ranges:?}"
        );
    }
    let boundaries: Vec<Vec<u8>> = (0..g.below(4)).map(|_| some_key(g)).collect();
    let parts = scan.split(&boundaries);
    let mut all: Vec<KeyRange> = parts.iter().flat_map(|p| p.ranges()).collect();
    all.sort_by(|a, b| a.start().cmp(b.start()));
    for w in all.windows(2) {
        let apart = !w[0].stop().is_empty() && w[0].stop() <= w[1].start();
        assert!(
            apart,
            "split at {boundaries:02X?}: parts overlap: {:?} {:?}",
            w[0], w[1]
        );
    }
    for (k, &matched) in keys.iter().zip(matches) {
        let owners: Vec<&Scan<K>> = parts.iter().filter(|p| p.matches(k)).collect();
        assert_eq!(
            owners.len(),
            usize::from(matched),
            "split at {boundaries:02X?}: {k:02X?}"
        );
        if let Some(owner) = owners.first() {
            let held = owner.ranges().any(|r| r.contains(k));
            assert!(held, "split at {boundaries:02X?} lost {k:02X?}");
        }
    }
}

fn check_ranges<K: Layout>(ranges: &[KeyRange], query: &K::Query) {
    let salt = |r: &KeyRange| K::SALT_LEN.map(|n| r.start()[..n].to_vec());
    for r in ranges {
        assert!(
            !r.is_empty(),
            "an empty range {r:?} in {ranges:?}\nquery: {query:?}"
        );
        if let Some(n) = K::SALT_LEN {
            assert!(
                r.start().len() >= n,
                "a salted range {r:?} starts before its bucket\nquery: {query:?}"
            );
            let bucket_end = KeyRange::prefix(&r.start()[..n]).stop().to_vec();
            assert!(
                bucket_end.is_empty() || (!r.stop().is_empty() && r.stop() <= &bucket_end[..]),
                "the range {r:?} spans salt buckets\nquery: {query:?}"
            );
        }
    }
    for w in ranges.windows(2) {
        assert!(
            !w[0].stop().is_empty() && w[0].stop() <= w[1].start(),
            "ranges unsorted or overlapping: {:?} then {:?}\nquery: {query:?}\nranges: {ranges:?}",
            w[0],
            w[1]
        );
        assert!(
            w[0].stop() < w[1].start() || salt(&w[0]) != salt(&w[1]),
            "adjacent ranges not merged: {:?} then {:?}\nquery: {query:?}",
            w[0],
            w[1]
        );
    }
}

fn check_key<K: Layout>(key: &Key<K>, matched: bool, seen: &Observed, query: &K::Query) {
    let inside = seen.ranges.iter().any(|r| r.contains(&key.bytes));
    assert!(
        !matched || inside,
        "matches() accepts {:02X?} (value {:?}) but no range holds it: the plan loses a row\n\
         query: {query:?}\nranges: {:?}",
        key.bytes,
        key.value,
        seen.ranges
    );
    let Some(v) = &key.value else { return };
    let want = K::pred(query, v);
    assert_eq!(
        matched, want,
        "matches() disagrees with the predicate on {v:?} ({:02X?})\nquery: {query:?}\nranges: {:?}",
        key.bytes, seen.ranges
    );
    assert!(
        !seen.exact || !inside || matched,
        "the exact plan's ranges hold {v:?} ({:02X?}), which does not match\nquery: {query:?}\n\
         ranges: {:?}",
        key.bytes,
        seen.ranges
    );
}
