//! Scan plans: the half-open key ranges `[start, stop)` that hold exactly the rows a query asks for,
//! built from the same layout that encodes the keys.
//!
//! A plan binds the fields of a key in order: equalities (or IN lists, which fan out into several
//! alternatives) on a leading run of fields, then at most one range or string prefix on the next.
//! Bounds are encoded with the field's own encoding, so `desc`, `width`, `Option` and nested fields
//! need no special care from the caller, and the prefix component (salt byte or hash prefix) is
//! added last: one range per bucket, or only the buckets the bound sources give.
//!
//! `#[derive(RowKey)]` generates the typed builder (`K::scan()`); this module holds the logic.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::marker::PhantomData;
use core::ops::Bound;

use crate::field::{FieldMode, KeyField, TextRule};
use crate::prefix::{HashPrefixHasher, Prefix, SaltHasher, ValueSink};

mod fixed;

pub use fixed::{FixedRange, FixedScan};

/// Bytes kept inline up to this length, so plans over ordinary keys do not allocate.
const INLINE: usize = 62;

/// A byte string that lives inline while it is short.
#[derive(Clone)]
pub(crate) enum KeyBuf {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Vec<u8>),
}

impl KeyBuf {
    #[inline]
    pub(crate) const fn new() -> Self {
        KeyBuf::Inline {
            len: 0,
            bytes: [0; INLINE],
        }
    }

    #[inline]
    pub(crate) fn from_slice(bytes: &[u8]) -> Self {
        let mut buf = KeyBuf::new();
        buf.extend(bytes);
        buf
    }

    /// The first `len` bytes of `bytes`. Arrays that fit inline are copied whole, a copy of a
    /// length the compiler knows, instead of `len` bytes through `memcpy`.
    #[inline(always)]
    pub(crate) fn from_array<const N: usize>(bytes: &[u8; N], len: usize) -> Self {
        if N <= INLINE && len <= N {
            let mut inline = [0u8; INLINE];
            inline[..N].copy_from_slice(bytes);
            KeyBuf::Inline {
                len: len as u8,
                bytes: inline,
            }
        } else {
            KeyBuf::from_slice(bytes.get(..len).unwrap_or(bytes))
        }
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            KeyBuf::Inline { len, bytes } => &bytes[..usize::from(*len)],
            KeyBuf::Heap(v) => v,
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Appends `n` zero bytes and returns them, to be written in place.
    #[inline]
    pub(crate) fn grow(&mut self, n: usize) -> &mut [u8] {
        let old = self.len();
        let new = old + n;
        if new > INLINE && matches!(self, KeyBuf::Inline { .. }) {
            self.spill(new);
        }
        match self {
            KeyBuf::Inline { len, bytes } => {
                *len = new as u8;
                &mut bytes[old..new]
            }
            KeyBuf::Heap(v) => {
                v.resize(new, 0);
                &mut v[old..]
            }
        }
    }

    #[cold]
    fn spill(&mut self, need: usize) {
        let mut v = Vec::with_capacity(need.max(2 * INLINE));
        v.extend_from_slice(self.as_slice());
        *self = KeyBuf::Heap(v);
    }

    /// Turns the buffer into the first key after every key it prefixes (in place).
    #[inline]
    fn advance_to_next_prefix(&mut self) {
        let keep = self
            .as_slice()
            .iter()
            .rposition(|&b| b != 0xFF)
            .map_or(0, |i| i + 1);
        self.truncate(keep);
        if let Some(last) = self.last_mut() {
            *last += 1;
        }
    }

    #[inline]
    pub(crate) fn extend(&mut self, bytes: &[u8]) {
        self.grow(bytes.len()).copy_from_slice(bytes);
    }

    #[inline]
    pub(crate) fn push(&mut self, b: u8) {
        self.grow(1)[0] = b;
    }

    #[inline]
    fn truncate(&mut self, n: usize) {
        match self {
            KeyBuf::Inline { len, .. } => *len = (*len).min(n as u8),
            KeyBuf::Heap(v) => v.truncate(n),
        }
    }

    #[inline]
    fn last_mut(&mut self) -> Option<&mut u8> {
        match self {
            KeyBuf::Inline { len, bytes } => bytes[..usize::from(*len)].last_mut(),
            KeyBuf::Heap(v) => v.last_mut(),
        }
    }
}

impl PartialEq for KeyBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for KeyBuf {}

impl core::fmt::Debug for KeyBuf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:02X?}", self.as_slice())
    }
}

/// Byte-string order, eight bytes at a time: keys are short, and a call to `memcmp` per
/// comparison was most of the cost of sorting a long IN list.
#[inline]
pub(crate) fn cmp_short(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.len().min(b.len());
    let (mut x, mut y) = (&a[..common], &b[..common]);
    while let (Some((x8, x_rest)), Some((y8, y_rest))) =
        (x.split_first_chunk::<8>(), y.split_first_chunk::<8>())
    {
        if x8 != y8 {
            return u64::from_be_bytes(*x8).cmp(&u64::from_be_bytes(*y8));
        }
        (x, y) = (x_rest, y_rest);
    }
    for (p, q) in x.iter().zip(y) {
        if p != q {
            return p.cmp(q);
        }
    }
    a.len().cmp(&b.len())
}

/// The first key after every key that starts with `prefix`: `prefix` with its trailing `FF` bytes
/// removed and its last byte incremented; empty (the end of the table) when `prefix` is empty or
/// all `FF`. HBase's `ClientUtil.calculateTheClosestNextRowKeyForPrefix`.
///
/// ```
/// use rowkey_core::prefix_stop;
/// assert_eq!(prefix_stop(&[0x02]), [0x03]);
/// assert_eq!(prefix_stop(&[0x02, 0xFF, 0xFF]), [0x03]);
/// assert_eq!(prefix_stop(&[0xFF, 0xFF]), []);
/// ```
pub fn prefix_stop(prefix: &[u8]) -> Vec<u8> {
    next_prefix(prefix).as_slice().to_vec()
}

fn next_prefix(prefix: &[u8]) -> KeyBuf {
    let mut stop = KeyBuf::from_slice(prefix);
    stop.advance_to_next_prefix();
    stop
}

/// A half-open range of keys `[start, stop)`; an empty `stop` means the end of the table.
///
/// ```
/// use rowkey_core::KeyRange;
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
    /// use rowkey_core::KeyRange;
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
    /// use rowkey_core::KeyRange;
    /// assert_eq!(KeyRange::new(&[0x02, 0x05], &[0x02, 0x14]).start(), [0x02, 0x05]);
    /// assert!(KeyRange::new(&[], &[0x80]).start().is_empty());
    /// assert!(KeyRange::new(&[], &[0x80]).contains(&[0x00]));
    /// ```
    #[inline]
    pub fn start(&self) -> &[u8] {
        self.start.as_slice()
    }

    /// The key after the range (exclusive); empty for the end of the table.
    ///
    /// ```
    /// use rowkey_core::{prefix_stop, KeyRange};
    /// // Every key that starts with 02 FF: the stop drops the trailing FF and increments.
    /// let r = KeyRange::new(&[0x02, 0xFF], &prefix_stop(&[0x02, 0xFF]));
    /// assert_eq!(r.stop(), [0x03]);
    /// assert!(KeyRange::new(&[0x80], &[]).stop().is_empty());
    /// ```
    #[inline]
    pub fn stop(&self) -> &[u8] {
        self.stop.as_slice()
    }

    /// Whether `key` lies in the range.
    ///
    /// ```
    /// use rowkey_core::KeyRange;
    /// let r = KeyRange::new(&[0x02, 0x05], &[0x02, 0x14]);
    /// assert!(r.contains(&[0x02, 0x05]));       // start included
    /// assert!(r.contains(&[0x02, 0x13, 0xFF])); // anything below the stop
    /// assert!(!r.contains(&[0x02, 0x14]));      // stop excluded
    /// assert!(!r.contains(&[0x02]));            // sorts before the start
    /// ```
    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start() && (self.stop().is_empty() || key < self.stop())
    }

    /// Whether the range holds no key at all.
    ///
    /// ```
    /// use rowkey_core::KeyRange;
    /// assert!(KeyRange::new(&[0x02], &[0x02]).is_empty());
    /// assert!(KeyRange::new(&[0x03], &[0x02]).is_empty());
    /// assert!(!KeyRange::new(&[0x02], &[0x02, 0x00]).is_empty()); // holds 02 itself
    /// assert!(!KeyRange::new(&[0xFF], &[]).is_empty());           // to the end of the table
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.stop().is_empty() && self.start() >= self.stop()
    }

    /// The HBase shell `scan` of this range on `table`.
    ///
    /// ```
    /// use rowkey_core::KeyRange;
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

    /// Orders by start, an empty start first.
    pub(crate) fn cmp_start(&self, other: &KeyRange) -> Ordering {
        cmp_short(self.start(), other.start())
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

/// What the generated builder knows of a layout, for planning.
///
/// ```
/// use rowkey_core::{FieldMode, KeyRange, Prefix, Salt, SaltHash, Scan, ScanLayout};
/// // How the derive describes `K { #[rowkey(salt(buckets = 4, hash = "mod"))] user: u8, ts: u8 }`.
/// const SALT: Salt = match Salt::new(4, SaltHash::Mod) { Some(s) => s, None => panic!() };
/// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::Salt(SALT), &[true, false], false, true);
/// // The generated `K::scan()` starts from `Scan::new(&LAYOUT)`.
/// assert_eq!(Scan::<()>::new(&LAYOUT).ranges().count(), 4); // one range per bucket
/// // `K::scan().user(6)`: user 6 is in bucket 6 % 4 = 2.
/// let plan = Scan::<()>::new(&LAYOUT).bind_eq(&6u8, FieldMode::INNER);
/// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 6], &[2, 7])]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ScanLayout {
    prefix: Prefix,
    /// Per field in key order: whether it is a source of the prefix.
    sources: &'static [bool],
    /// Whether the prefix is a whole-key salt (every field is a source).
    whole_key: bool,
    /// Whether every key has the same length: then nothing extends a complete key, and the key
    /// after it is its increment (`01 05` -> `01 06`) rather than its successor (`01 05 00`).
    fixed: bool,
    /// The delimiter of a text layout.
    text: Option<&'static str>,
}

impl ScanLayout {
    /// A layout of `sources.len()` fields behind `prefix`; `whole_key` for a whole-key salt;
    /// `fixed` when every key has the same length.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyRange, Prefix, Scan, ScanLayout};
    /// // `K { user: u8, ts: u8 }`: two fields, no prefix, every key 2 bytes.
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
    /// // `K::scan().user(2)` (what the generated builder does): every key that starts with 02.
    /// let plan = Scan::<()>::new(&LAYOUT).bind_eq(&2u8, FieldMode::INNER);
    /// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2], &[3])]);
    /// ```
    pub const fn new(
        prefix: Prefix,
        sources: &'static [bool],
        whole_key: bool,
        fixed: bool,
    ) -> Self {
        ScanLayout {
            prefix,
            sources,
            whole_key,
            fixed,
            text: None,
        }
    }

    /// The same layout in the text format with `delimiter`.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, Prefix, Scan, ScanLayout};
    /// // `#[rowkey(text, delimiter = ":")] K { user: u32, ts: u32 }`: 10 digits each.
    /// static LAYOUT: ScanLayout =
    ///     ScanLayout::new(Prefix::None, &[false, false], false, true).in_text(":");
    /// // `K::scan().user(42)`
    /// let plan = Scan::<()>::new(&LAYOUT).bind_eq(&42u32, FieldMode::INNER.with_text(":"));
    /// let r = plan.ranges().next().unwrap();
    /// assert_eq!(r.start(), b"0000000042:");
    /// assert_eq!(r.stop(), b"0000000042;"); // ':' + 1 is ';'
    /// assert!(plan.matches(b"0000000042:0000000007"));
    /// ```
    #[must_use]
    pub const fn in_text(self, delimiter: &'static str) -> Self {
        ScanLayout {
            text: Some(delimiter),
            ..self
        }
    }

    fn delimiter(&self) -> &'static str {
        self.text.unwrap_or_default()
    }

    /// The bytes of the prefix component in a key, with the text delimiter that follows it.
    fn prefix_len(&self) -> usize {
        match self.prefix.encoded_len() {
            0 => 0,
            n => n + self.delimiter().len(),
        }
    }

    fn fields(&self) -> usize {
        self.sources.len()
    }
}

/// The running prefix computation of one alternative.
#[derive(Clone)]
enum Hasher {
    None,
    Salt(SaltHasher),
    Hash(HashPrefixHasher),
}

impl Hasher {
    fn start(layout: &ScanLayout) -> Hasher {
        match layout.prefix {
            Prefix::Salt(salt) if !layout.whole_key => Hasher::Salt(salt.hasher()),
            Prefix::Hash(hash) => Hasher::Hash(hash.hasher()),
            _ => Hasher::None,
        }
    }
}

impl ValueSink for Hasher {
    fn write(&mut self, bytes: &[u8]) {
        match self {
            Hasher::None => {}
            Hasher::Salt(h) => h.write(bytes),
            Hasher::Hash(h) => h.write(bytes),
        }
    }
}

/// One combination of the values bound so far: the key body they fix, and the prefix sources seen.
#[derive(Clone)]
struct Alt {
    body: KeyBuf,
    hasher: Hasher,
    /// Whether a source was fed (text layouts join sources with the delimiter).
    fed: bool,
}

/// The alternatives of a plan: one inline (no allocation for plans without IN lists), or many.
#[derive(Clone)]
enum Alts {
    One(Alt),
    Many(Vec<Alt>),
}

impl Alts {
    fn as_slice(&self) -> &[Alt] {
        match self {
            Alts::One(a) => core::slice::from_ref(a),
            Alts::Many(v) => v,
        }
    }

    fn for_each(&mut self, mut f: impl FnMut(&mut Alt)) {
        match self {
            Alts::One(a) => f(a),
            Alts::Many(v) => v.iter_mut().for_each(f),
        }
    }
}

/// A bound in encoded space on the bytes of the next field.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Lower {
    Unbounded,
    /// The field's bytes are `>= E` (prefix-free: every key whose field is at least E).
    AtOrAfter(KeyBuf),
    /// The field's bytes are `> E`, and not E itself.
    After(KeyBuf),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Upper {
    Unbounded,
    /// The field's bytes are `< E`.
    Before(KeyBuf),
    /// The field's bytes are `<= E` (E itself included, with whatever follows it).
    AtOrBefore(KeyBuf),
}

/// The constraint after the bound run of fields.
#[derive(Clone)]
enum Tail {
    /// Nothing more: every key that starts with the bound fields.
    Open,
    /// A range on the next field, in encoded space.
    Range {
        lower: Lower,
        upper: Upper,
        /// Whether the field is the last of the key (its bytes run to the end).
        last: bool,
    },
    /// No key can match (an empty range, an empty IN list, a prefix longer than a width).
    Empty,
    /// A text string that other segments follow: its bytes do not sort as its content, so the plan
    /// covers every key with the bound fields and `matches` reads the segment.
    TextFilter {
        filter: TextFilter,
        /// The segment's width, or `None` when the delimiter ends it.
        width: Option<usize>,
    },
}

/// A condition on a text segment's content.
#[derive(Clone)]
enum TextFilter {
    Range(Bound<KeyBuf>, Bound<KeyBuf>),
    Prefix(KeyBuf),
}

impl TextFilter {
    fn accepts(&self, content: &[u8]) -> bool {
        match self {
            TextFilter::Prefix(p) => content.starts_with(p.as_slice()),
            TextFilter::Range(lo, hi) => {
                (match lo {
                    Bound::Included(l) => content >= l.as_slice(),
                    Bound::Excluded(l) => content > l.as_slice(),
                    Bound::Unbounded => true,
                }) && (match hi {
                    Bound::Included(h) => content <= h.as_slice(),
                    Bound::Excluded(h) => content < h.as_slice(),
                    Bound::Unbounded => true,
                })
            }
        }
    }
}

/// A scan plan over keys of `K`, built by the generated `K::scan()` (see the `rowkey` crate's
/// documentation, section "Scans", for a worked example).
///
/// For `K { user: u8, ts: u8 }`, `K::scan().user(2).ts_range(5..20)` is the one range
/// `[02 05, 02 14)`: it matches the key `02 07` and not `02 14`.
///
/// ```
/// use core::ops::Bound;
/// use rowkey_core::{FieldMode, KeyRange, Prefix, Scan, ScanLayout};
/// // `K { user: u8, ts: u8 }`; the calls below are what `K::scan().user(2).ts_range(5..20)` makes.
/// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
/// let plan = Scan::<()>::new(&LAYOUT)
///     .bind_eq(&2u8, FieldMode::INNER)
///     .bind_range(Bound::Included(&5u8), Bound::Excluded(&20u8), FieldMode::LAST);
/// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 5], &[2, 20])]);
/// assert!(plan.matches(&[2, 7]) && !plan.matches(&[2, 20]));
/// assert!(plan.is_exact());
/// ```
pub struct Scan<K: ?Sized> {
    layout: &'static ScanLayout,
    plan: Plan,
    key: PhantomData<fn() -> K>,
}

/// How a plan holds what it knows.
// Boxing the field plan would put an allocation into every plan; the sizes are what they are.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Plan {
    /// Built field by field: the alternatives and the constraint after them.
    Fields(FieldPlan),
    /// The one range of a fixed layout without a prefix, built in place by
    /// [`FixedScan`]; `None` when nothing matches.
    Range(Option<KeyRange>),
    /// Several ranges of a fixed layout with an IN list: sorted, merged, not empty.
    Ranges(Vec<KeyRange>),
}

/// A plan built field by field.
#[derive(Clone)]
struct FieldPlan {
    alts: Alts,
    /// Leading fields fixed by equality or IN.
    eq_bound: usize,
    tail: Tail,
}

/// What the generated builder calls on a planner (the general [`Scan`] or the fixed-layout lane),
/// with the argument conversions both share written once: a range from any `RangeBounds`, and IN
/// lists of anything that reads as a string or as bytes. Each generated method is then one call,
/// so the compiler checks the generic part once, here.
#[doc(hidden)]
pub trait Bind: Sized {
    /// What a range on the next field finishes the plan as.
    type Ranged;

    /// Binds the next field to any of `values`, placed with `mode`.
    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(self, values: I, mode: FieldMode) -> Self;

    /// Restricts the next field to values between `start` and `end`, placed with `mode`.
    fn bind_range<T: KeyField + ?Sized>(
        self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Self::Ranged;

    /// [`bind_range`](Bind::bind_range) from any `RangeBounds`.
    #[inline]
    fn bind_range_of<T: KeyField + ?Sized, R: core::ops::RangeBounds<T>>(
        self,
        range: R,
        mode: FieldMode,
    ) -> Self::Ranged {
        self.bind_range(range.start_bound(), range.end_bound(), mode)
    }

    /// [`bind_in`](Bind::bind_in) for a string field: anything that yields `AsRef<str>`.
    #[inline]
    fn bind_in_str<I>(self, values: I, mode: FieldMode) -> Self
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        self.bind_in(
            values.into_iter().map(crate::derive_support::StrValue),
            mode,
        )
    }

    /// [`bind_in`](Bind::bind_in) for a bytes field: anything that yields `AsRef<[u8]>`.
    #[inline]
    fn bind_in_bytes<I>(self, values: I, mode: FieldMode) -> Self
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        self.bind_in(
            values.into_iter().map(crate::derive_support::BytesValue),
            mode,
        )
    }
}

impl<K: ?Sized> Bind for Scan<K> {
    type Ranged = Scan<K>;

    #[inline]
    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(self, values: I, mode: FieldMode) -> Self {
        Scan::bind_in(self, values, mode)
    }

    #[inline]
    fn bind_range<T: KeyField + ?Sized>(
        self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Scan<K> {
        Scan::bind_range(self, start, end, mode)
    }
}

/// A state of a generated scan builder: the plan it stands for. Through it every state converts
/// into [`Scan`] with `From`/`into()`, by one impl here rather than one per state: the compiler
/// checked each of those against all the others, which cost more build time than the rest of
/// the scan builder.
#[doc(hidden)]
pub trait ScanState {
    /// The key type the plan scans.
    type Key: ?Sized;

    /// The plan of the fields bound so far.
    fn into_scan(self) -> Scan<Self::Key>;
}

impl<S: ScanState> From<S> for Scan<S::Key> {
    #[inline]
    fn from(state: S) -> Self {
        state.into_scan()
    }
}

/// A plan holds only bytes, so it clones whatever `K` is.
impl<K: ?Sized> Clone for Scan<K> {
    fn clone(&self) -> Self {
        Scan {
            layout: self.layout,
            plan: self.plan.clone(),
            key: PhantomData,
        }
    }
}

impl<K: ?Sized> core::fmt::Debug for Scan<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scan")
            .field("ranges", &self.ranges().collect::<Vec<_>>())
            .field("exact", &self.is_exact())
            .finish()
    }
}

impl<K: ?Sized> Scan<K> {
    /// A plan over the whole table. Use the generated `K::scan()`.
    #[doc(hidden)]
    #[inline]
    pub fn new(layout: &'static ScanLayout) -> Self {
        Scan {
            layout,
            plan: Plan::Fields(FieldPlan {
                alts: Alts::One(Alt {
                    body: KeyBuf::new(),
                    hasher: Hasher::start(layout),
                    fed: false,
                }),
                eq_bound: 0,
                tail: Tail::Open,
            }),
            key: PhantomData,
        }
    }

    /// A plan whose first `fields` fields are bound by equality (or IN) to the encoded `bodies`,
    /// given sorted and distinct; none, or `empty`, when nothing matches. How the fixed-layout lane
    /// hands a plan over.
    pub(crate) fn with_bodies<'b>(
        layout: &'static ScanLayout,
        mut bodies: impl ExactSizeIterator<Item = &'b [u8]>,
        fields: usize,
        empty: bool,
    ) -> Self {
        let empty = empty || bodies.len() == 0;
        let alt = |body: &[u8]| Alt {
            body: KeyBuf::from_slice(body),
            hasher: Hasher::start(layout),
            fed: false,
        };
        // One alternative stays inline: a plan without IN lists allocates nothing.
        let alts = if bodies.len() <= 1 {
            Alts::One(alt(bodies.next().unwrap_or_default()))
        } else {
            Alts::Many(bodies.map(alt).collect())
        };
        Scan {
            layout,
            plan: Plan::Fields(FieldPlan {
                alts,
                eq_bound: fields,
                tail: if empty { Tail::Empty } else { Tail::Open },
            }),
            key: PhantomData,
        }
    }

    /// The plan of several sorted, merged ranges, computed by the fixed-layout lane.
    pub(crate) fn with_ranges(layout: &'static ScanLayout, ranges: Vec<KeyRange>) -> Self {
        Scan {
            layout,
            plan: Plan::Ranges(ranges),
            key: PhantomData,
        }
    }

    /// The plan of exactly one range (`None`: nothing matches), computed by the fixed-layout lane.
    #[inline(always)]
    pub(crate) fn with_range(layout: &'static ScanLayout, range: Option<KeyRange>) -> Self {
        Scan {
            layout,
            plan: Plan::Range(range),
            key: PhantomData,
        }
    }

    /// Binds the next field to `value`, placed with `mode`.
    #[doc(hidden)]
    #[must_use]
    #[inline]
    pub fn bind_eq<T: KeyField + ?Sized>(mut self, value: &T, mode: FieldMode) -> Self {
        self.bind_eq_in_place(value, mode);
        self
    }

    pub(crate) fn bind_eq_in_place<T: KeyField + ?Sized>(&mut self, value: &T, mode: FieldMode) {
        // A finished range takes no more fields; the typed builder never asks it to.
        if let Plan::Fields(plan) = &mut self.plan {
            plan.bind_eq(self.layout, value, mode);
        }
    }

    /// Binds the next field to any of `values`, placed with `mode`.
    #[doc(hidden)]
    #[must_use]
    #[inline]
    pub fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(
        mut self,
        values: I,
        mode: FieldMode,
    ) -> Self {
        self.bind_in_in_place(values, mode);
        self
    }

    pub(crate) fn bind_in_in_place<T: KeyField, I: IntoIterator<Item = T>>(
        &mut self,
        values: I,
        mode: FieldMode,
    ) {
        if let Plan::Fields(plan) = &mut self.plan {
            plan.bind_in(self.layout, values, mode);
        }
    }

    /// Restricts the next field to values between `start` and `end` (in the field's own order),
    /// placed with `mode`.
    #[doc(hidden)]
    #[must_use]
    #[inline]
    pub fn bind_range<T: KeyField + ?Sized>(
        mut self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Self {
        self.bind_range_in_place(start, end, mode);
        self
    }

    pub(crate) fn bind_range_in_place<T: KeyField + ?Sized>(
        &mut self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) {
        if let Plan::Fields(plan) = &mut self.plan {
            plan.bind_range(start, end, mode);
        }
    }

    /// Restricts the next field, a string or bytes field placed with `mode`, to content that
    /// starts with `prefix`.
    #[doc(hidden)]
    #[must_use]
    #[inline]
    pub fn bind_prefix(mut self, prefix: &[u8], mode: FieldMode) -> Self {
        if let Plan::Fields(plan) = &mut self.plan {
            plan.bind_prefix(prefix, mode);
        }
        self
    }

    /// Whether every key inside [`ranges`](Scan::ranges) matches. False only for a hash-prefixed
    /// layout whose hash sources are not all bound: the plan must cover the whole table, and
    /// [`matches`](Scan::matches) tells which rows are wanted.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, HashPrefix, KeyRange, Prefix, Scan, ScanLayout};
    /// // `K { user: u8, #[rowkey(hash_prefix(len = 2))] ts: u8 }`: md5(ts) in 2 bytes comes first.
    /// const HASH: HashPrefix = match HashPrefix::new(2) { Some(h) => h, None => panic!() };
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::Hash(HASH), &[false, true], false, true);
    /// // `K::scan().user(2)`: without `ts` the prefix is unknown, so the plan is the whole table.
    /// let plan = Scan::<()>::new(&LAYOUT).bind_eq(&2u8, FieldMode::INNER);
    /// assert!(!plan.is_exact());
    /// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[], &[])]);
    /// assert!(plan.matches(&[0xAB, 0xCD, 2, 9]) && !plan.matches(&[0xAB, 0xCD, 3, 9]));
    /// ```
    pub fn is_exact(&self) -> bool {
        match &self.plan {
            Plan::Fields(plan) => plan.is_exact(self.layout),
            Plan::Range(_) | Plan::Ranges(_) => true,
        }
    }

    /// Exactly whether `key` satisfies the plan.
    ///
    /// ```
    /// use core::ops::Bound;
    /// use rowkey_core::{FieldMode, Prefix, Scan, ScanLayout};
    /// // `K { user: u8, ts: u8 }`, and the plan of `K::scan().user(2).ts_range(5..=19)`.
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
    /// let plan = Scan::<()>::new(&LAYOUT)
    ///     .bind_eq(&2u8, FieldMode::INNER)
    ///     .bind_range(Bound::Included(&5u8), Bound::Included(&19u8), FieldMode::LAST);
    /// assert!(plan.matches(&[2, 5]) && plan.matches(&[2, 19]));
    /// assert!(!plan.matches(&[2, 20]) && !plan.matches(&[3, 7]));
    /// ```
    pub fn matches(&self, key: &[u8]) -> bool {
        match &self.plan {
            Plan::Fields(plan) => plan.matches(self.layout, key),
            Plan::Range(range) => range.as_ref().is_some_and(|r| r.contains(key)),
            Plan::Ranges(ranges) => sorted_contain(ranges, key),
        }
    }

    /// The ranges to scan: sorted by start, not overlapping, adjacent ones merged except across
    /// salt buckets. Empty when nothing can match; one range `[, )` over the whole table when the
    /// plan cannot be narrowed (check [`is_exact`](Scan::is_exact)).
    ///
    /// ```
    /// use core::ops::Bound;
    /// use rowkey_core::{FieldMode, KeyRange, Prefix, Scan, ScanLayout};
    /// // `K { user: u8, #[rowkey(desc)] ts: u8 }`
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
    /// // `K::scan().user_in([7, 2, 3, 7])`: sorted, duplicates dropped, 2 and 3 merged.
    /// let plan = Scan::<()>::new(&LAYOUT).bind_in([7u8, 2, 3, 7], FieldMode::INNER);
    /// let ranges: Vec<KeyRange> = plan.ranges().collect();
    /// assert_eq!(ranges, [KeyRange::new(&[2], &[4]), KeyRange::new(&[7], &[8])]);
    /// // `K::scan().user(2).ts_range(5..20)` on the desc `ts`: stored from !19 = EC through !5 = FA.
    /// let desc = FieldMode::LAST.with_desc();
    /// let plan = Scan::<()>::new(&LAYOUT)
    ///     .bind_eq(&2u8, FieldMode::INNER)
    ///     .bind_range(Bound::Included(&5u8), Bound::Excluded(&20u8), desc);
    /// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 0xEC], &[2, 0xFB])]);
    /// ```
    pub fn ranges(&self) -> Ranges {
        match &self.plan {
            Plan::Fields(plan) => plan.ranges(self.layout),
            Plan::Range(Some(range)) => Ranges::one(range.clone()),
            Plan::Range(None) => Ranges::none(),
            Plan::Ranges(ranges) => Ranges::many(ranges.clone()),
        }
    }
}

impl FieldPlan {
    /// Whether the next field feeds the salt or hash prefix.
    fn next_is_source(&self, layout: &ScanLayout) -> bool {
        !layout.whole_key && layout.sources.get(self.eq_bound).copied().unwrap_or(false)
    }

    fn bind_eq<T: KeyField + ?Sized>(&mut self, layout: &ScanLayout, value: &T, mode: FieldMode) {
        let source = self.next_is_source(layout);
        let mut failed = false;
        self.alts.for_each(|alt| {
            failed |= append(alt, value, mode, source).is_err();
        });
        self.after_bind(failed);
    }

    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(
        &mut self,
        layout: &ScanLayout,
        values: I,
        mode: FieldMode,
    ) {
        let source = self.next_is_source(layout);
        let base = core::mem::replace(&mut self.alts, Alts::Many(Vec::new()));
        let values = values.into_iter();
        // Reserved from the iterator's own estimate, within reason: `0..u64::MAX` estimates more
        // than memory holds.
        let expected = values.size_hint().0.saturating_mul(base.as_slice().len());
        let mut out: Vec<Alt> = Vec::with_capacity(expected.min(1 << 16));
        for value in values {
            for alt in base.as_slice() {
                let mut alt = alt.clone();
                // A value that cannot be encoded (too wide for its width) matches no key.
                if append(&mut alt, &value, mode, source).is_ok() {
                    out.push(alt);
                }
            }
        }
        // Duplicate values give equal alternatives; removing them keeps `ranges` proportional to
        // the distinct values.
        let out = sorted_distinct(out);
        let empty = out.is_empty();
        self.alts = Alts::Many(out);
        self.after_bind(empty);
    }

    fn after_bind(&mut self, empty: bool) {
        self.eq_bound += 1;
        if empty {
            self.tail = Tail::Empty;
        }
    }

    fn bind_range<T: KeyField + ?Sized>(
        &mut self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) {
        if matches!(self.tail, Tail::Empty) {
            return;
        }
        let Some((start, end)) = clamp_to_width(start, end, mode) else {
            self.tail = Tail::Empty;
            return;
        };
        if text_segment_unordered::<T>(mode) {
            let content = |b: Bound<&T>| -> Bound<KeyBuf> {
                match b {
                    Bound::Included(v) => Bound::Included(content_of(v, mode)),
                    Bound::Excluded(v) => Bound::Excluded(content_of(v, mode)),
                    Bound::Unbounded => Bound::Unbounded,
                }
            };
            self.tail = Tail::TextFilter {
                filter: TextFilter::Range(content(start), content(end)),
                width: mode.width(),
            };
            return;
        }
        self.tail = match range_tail(start, end, mode) {
            Some((lower, upper)) => Tail::Range {
                lower,
                upper,
                last: !mode.is_delimited(),
            },
            None => Tail::Empty,
        };
    }

    fn bind_prefix(&mut self, prefix: &[u8], mode: FieldMode) {
        if matches!(self.tail, Tail::Empty) {
            return;
        }
        self.tail = if mode.is_text() {
            text_prefix_tail(prefix, mode)
        } else {
            prefix_tail(prefix, mode)
        };
    }

    /// Whether every field is fixed by equality: the plan is a set of point lookups.
    fn is_point(&self, layout: &ScanLayout) -> bool {
        self.eq_bound >= layout.fields() && matches!(self.tail, Tail::Open)
    }

    /// Whether every source of the prefix is fixed by equality or IN, so each alternative's
    /// prefix is known.
    fn prefix_known(&self, layout: &ScanLayout) -> bool {
        if layout.whole_key {
            return self.is_point(layout);
        }
        let fixed = self.eq_bound.min(layout.fields());
        !layout.sources[fixed..].contains(&true)
    }

    /// Whether the plan constrains anything at all.
    fn is_unconstrained(&self) -> bool {
        self.eq_bound == 0 && matches!(self.tail, Tail::Open)
    }

    fn is_exact(&self, layout: &ScanLayout) -> bool {
        if matches!(self.tail, Tail::TextFilter { .. }) {
            return false;
        }
        !matches!(layout.prefix, Prefix::Hash(_))
            || self.prefix_known(layout)
            || self.is_unconstrained()
    }

    /// The range of one alternative behind `prefix`, or `None` when it is empty.
    fn range_of(&self, layout: &ScanLayout, alt: &Alt, prefix: &[u8]) -> Option<KeyRange> {
        range_of(alt, &self.tail, self.is_point(layout), layout.fixed, prefix)
    }

    fn matches(&self, layout: &ScanLayout, key: &[u8]) -> bool {
        let plen = layout.prefix_len();
        let Some(prefix) = key.get(..plen) else {
            return false;
        };
        let known = self.prefix_known(layout);
        self.alts.as_slice().iter().any(|alt| {
            // The key's own prefix when the plan does not fix it; allowed or not, checked after.
            let expected = if known {
                prefix_of(layout, alt)
            } else {
                KeyBuf::from_slice(prefix)
            };
            self.range_of(layout, alt, expected.as_slice())
                .is_some_and(|r| r.contains(key))
                && prefix_allowed(layout, alt, known, prefix)
                && self.filter_accepts(layout, key, plen + alt.body.len())
        })
    }

    /// For a text filter: whether the segment that starts at `at` passes it.
    fn filter_accepts(&self, layout: &ScanLayout, key: &[u8], at: usize) -> bool {
        let Tail::TextFilter { filter, width } = &self.tail else {
            return true;
        };
        let rest = key.get(at..).unwrap_or_default();
        let content = match width {
            Some(w) => {
                let stored = rest.get(..*w).unwrap_or(rest);
                &stored[..stored.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1)]
            }
            None => {
                let d = layout.delimiter().as_bytes();
                let end = (!d.is_empty())
                    .then(|| rest.windows(d.len()).position(|w| w == d))
                    .flatten()
                    .unwrap_or(rest.len());
                &rest[..end]
            }
        };
        filter.accepts(content)
    }

    fn ranges(&self, layout: &ScanLayout) -> Ranges {
        let prefix = layout.prefix;
        if !self.is_exact(layout) {
            let any = self
                .alts
                .as_slice()
                .iter()
                .any(|alt| self.range_of(layout, alt, &[]).is_some());
            return if any {
                Ranges::one(KeyRange::new(&[], &[]))
            } else {
                Ranges::none()
            };
        }
        let known = self.prefix_known(layout);
        // The common plan: one alternative, one prefix. Built without allocating.
        if let (Alts::One(alt), true) = (&self.alts, prefix.is_none() || known) {
            let range = if prefix.is_none() {
                self.range_of(layout, alt, &[])
            } else {
                self.range_of(layout, alt, prefix_of(layout, alt).as_slice())
            };
            return match range {
                Some(r) => Ranges::one(r),
                None => Ranges::none(),
            };
        }
        let mut ranges: Vec<KeyRange> = Vec::new();
        for alt in self.alts.as_slice() {
            match prefix {
                Prefix::Salt(salt) if !known => {
                    for bucket in 0..salt.buckets() {
                        let p = salt_prefix(layout, salt, bucket as u8);
                        ranges.extend(self.range_of(layout, alt, p.as_slice()));
                    }
                }
                _ => ranges.extend(self.range_of(layout, alt, prefix_of(layout, alt).as_slice())),
            }
        }
        // Alternatives are sorted by body, so without a prefix (or with one known salt byte per
        // alternative) the ranges usually come out in order already.
        if !ranges.windows(2).all(|w| w[0].cmp_start(&w[1]).is_le()) {
            ranges.sort_unstable_by(KeyRange::cmp_start);
        }
        Ranges::many(merge(ranges, matches!(prefix, Prefix::Salt(_))))
    }
}

/// Range bounds in the field's own order, with a bound outside what the field can store clamped
/// (past a narrowed integer's `width`, past a text number's digits, or negative on a text number):
/// a lower bound below every storable value, or an upper bound above them, drops out; a lower bound
/// above them, or an upper bound below them, leaves nothing to match (`None`).
#[inline(always)]
pub(crate) fn clamp_to_width<'v, T: KeyField + ?Sized>(
    start: Bound<&'v T>,
    end: Bound<&'v T>,
    mode: FieldMode,
) -> Option<(Bound<&'v T>, Bound<&'v T>)> {
    let beyond = |b: &Bound<&T>| match b {
        Bound::Included(v) | Bound::Excluded(v) => v.beyond_width(mode),
        Bound::Unbounded => None,
    };
    let start = match beyond(&start) {
        Some(Ordering::Less) => Bound::Unbounded,
        Some(Ordering::Greater) => return None,
        _ => start,
    };
    let end = match beyond(&end) {
        Some(Ordering::Greater) => Bound::Unbounded,
        Some(Ordering::Less) => return None,
        _ => end,
    };
    Some((start, end))
}

/// A range on a field in encoded space, from bounds in the field's own order; `None` when a bound
/// cannot be encoded (nothing matches).
#[inline(always)]
fn range_tail<T: KeyField + ?Sized>(
    start: Bound<&T>,
    end: Bound<&T>,
    mode: FieldMode,
) -> Option<(Lower, Upper)> {
    let (lo, hi) = (
        encode_bound(start, mode, true)?,
        encode_bound(end, mode, false)?,
    );
    // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
    let (lo, hi) = if mode.is_desc() { (hi, lo) } else { (lo, hi) };
    let lower = match lo {
        Bound::Unbounded => Lower::Unbounded,
        Bound::Included(e) => Lower::AtOrAfter(e),
        Bound::Excluded(e) => Lower::After(e),
    };
    let upper = match hi {
        Bound::Unbounded => Upper::Unbounded,
        Bound::Included(e) => Upper::AtOrBefore(e),
        Bound::Excluded(e) => Upper::Before(e),
    };
    Some((lower, upper))
}

/// Alternatives sorted by body, duplicates removed. The sort runs on small keys, the first 16
/// bytes of each body as one integer with the body's length and index, and compares the rest only
/// between bodies longer than that which share those bytes: an alternative is large (its body
/// buffer and hash state), and sorting alternatives themselves was most of a long IN list's cost.
fn sorted_distinct(alts: Vec<Alt>) -> Vec<Alt> {
    const HEAD: usize = 16;
    let mut keys: Vec<(u128, usize, usize)> = alts
        .iter()
        .enumerate()
        .map(|(i, alt)| {
            let body = alt.body.as_slice();
            let mut head = [0u8; HEAD];
            let n = body.len().min(HEAD);
            head[..n].copy_from_slice(&body[..n]);
            (u128::from_be_bytes(head), body.len(), i)
        })
        .collect();
    // Equal heads: a body of at most 16 bytes is a prefix of the other (zero padding aside), so
    // the shorter sorts first; two longer bodies compare their rest.
    let rest = |i: usize| alts[i].body.as_slice().get(HEAD..).unwrap_or_default();
    keys.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| {
            if a.1 > HEAD && b.1 > HEAD {
                cmp_short(rest(a.2), rest(b.2))
            } else {
                a.1.cmp(&b.1)
            }
        })
    });
    keys.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1 && rest(a.2) == rest(b.2));
    let mut slots: Vec<Option<Alt>> = alts.into_iter().map(Some).collect();
    keys.iter().filter_map(|k| slots[k.2].take()).collect()
}

/// Encodes `value` onto the alternative's body and, for a prefix source, feeds its value bytes.
fn append<T: KeyField + ?Sized>(
    alt: &mut Alt,
    value: &T,
    mode: FieldMode,
    source: bool,
) -> Result<(), crate::EncodeError> {
    let n = value.encoded_len(mode);
    let at = alt.body.len();
    let dst = alt.body.grow(n);
    if let Err(e) = value.encode(dst, mode) {
        alt.body.truncate(at);
        return Err(e);
    }
    if mode.is_text() && mode.is_delimited() {
        alt.body.extend(mode.delimiter().as_bytes());
    }
    if source {
        if alt.fed && mode.is_text() {
            alt.hasher.write(mode.delimiter().as_bytes());
        }
        value.value_bytes(mode, &mut alt.hasher)?;
        alt.fed = true;
    }
    Ok(())
}

/// Whether a text segment's bytes fail to sort as its value: a string that other segments follow
/// (its content can hold bytes below the delimiter) or one padded with spaces.
fn text_segment_unordered<T: KeyField + ?Sized>(mode: FieldMode) -> bool {
    mode.is_text()
        && matches!(T::SHAPE.text_rule(), TextRule::Str)
        && (mode.is_delimited() || mode.width().is_some())
}

/// The content bytes of a string bound (its value bytes).
fn content_of<T: KeyField + ?Sized>(v: &T, mode: FieldMode) -> KeyBuf {
    struct Collect(KeyBuf);
    impl ValueSink for Collect {
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend(bytes);
        }
    }
    let mut c = Collect(KeyBuf::new());
    let _ = v.value_bytes(mode, &mut c);
    c.0
}

/// "Content starts with `prefix`" on a text string segment.
fn text_prefix_tail(prefix: &[u8], mode: FieldMode) -> Tail {
    let delimiter = mode.delimiter().as_bytes();
    if mode.is_delimited()
        && !delimiter.is_empty()
        && prefix.windows(delimiter.len()).any(|w| w == delimiter)
    {
        return Tail::Empty;
    }
    match mode.width() {
        Some(w) if prefix.len() > w => Tail::Empty,
        // Padding spaces: content that ends in the prefix's spaces is not a match; let the filter decide.
        Some(w) if prefix.last() == Some(&b' ') => Tail::TextFilter {
            filter: TextFilter::Prefix(KeyBuf::from_slice(prefix)),
            width: Some(w),
        },
        _ => Tail::Range {
            lower: Lower::AtOrAfter(KeyBuf::from_slice(prefix)),
            upper: Upper::AtOrBefore(KeyBuf::from_slice(prefix)),
            last: false,
        },
    }
}

/// A value bound encoded with the field's mode; `None` when nothing can match it. `lower` says
/// which side of the range it is (in the field's own order). A bound with no encoding of its own
/// is replaced by its stand-in ([`KeyField::encode_stand_in`]).
fn encode_bound<T: KeyField + ?Sized>(
    bound: Bound<&T>,
    mode: FieldMode,
    lower: bool,
) -> Option<Bound<KeyBuf>> {
    let encode = |v: &T| {
        let mut buf = KeyBuf::new();
        let n = v.encoded_len(mode);
        v.encode(buf.grow(n), mode).ok().map(|_| buf)
    };
    let (Bound::Included(v) | Bound::Excluded(v)) = bound else {
        return Some(Bound::Unbounded);
    };
    if let Some(e) = encode(v) {
        return Some(match bound {
            Bound::Included(_) => Bound::Included(e),
            _ => Bound::Excluded(e),
        });
    }
    let mut buf = KeyBuf::new();
    let mut scratch = [0u8; INLINE];
    let n = v.encode_stand_in(&mut scratch, mode)?;
    buf.extend(&scratch[..n]);
    // A stored value is at least `v` exactly when it is after the stand-in, and at most `v`
    // exactly when it is at most the stand-in.
    Some(if lower {
        Bound::Excluded(buf)
    } else {
        Bound::Included(buf)
    })
}

/// The tail for "content starts with `prefix`" on a string or bytes field placed with `mode`.
///
/// Its bounds are partial encodings, so `last` is false: "at or before E" must take every key
/// that starts with E, not only E itself.
fn prefix_tail(prefix: &[u8], mode: FieldMode) -> Tail {
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    let last = false;
    if let Some(width) = mode.width() {
        if prefix.len() > width {
            return Tail::Empty;
        }
        let stored: KeyBuf =
            KeyBuf::from_slice(&prefix.iter().map(|b| b ^ flip).collect::<Vec<u8>>());
        if prefix.last() != Some(&0) {
            // Padded content starts with the prefix exactly when its padded bytes do.
            return Tail::Range {
                lower: Lower::AtOrAfter(stored.clone()),
                upper: Upper::AtOrBefore(stored),
                last,
            };
        }
        // Content never ends in 00, so it must go on after the prefix: some byte of the rest of
        // the width is not padding.
        let rest = width - prefix.len();
        if rest == 0 {
            return Tail::Empty;
        }
        let mut after_padding = stored.clone();
        let mut all_padding = stored;
        for i in 0..rest {
            after_padding.push(if i + 1 == rest { 0x01 } else { 0x00 } ^ flip);
            all_padding.push(flip);
        }
        return if mode.is_desc() {
            Tail::Range {
                lower: Lower::AtOrAfter(KeyBuf::from_slice(
                    &after_padding.as_slice()[..prefix.len()],
                )),
                upper: Upper::Before(all_padding),
                last,
            }
        } else {
            Tail::Range {
                lower: Lower::AtOrAfter(after_padding),
                upper: Upper::AtOrBefore(KeyBuf::from_slice(
                    &all_padding.as_slice()[..prefix.len()],
                )),
                last,
            }
        };
    }
    let mut stored = KeyBuf::new();
    if mode.escapes() {
        for &b in prefix {
            stored.push(b ^ flip);
            if b == 0 {
                stored.push(0xFF ^ flip);
            }
        }
    } else {
        stored.extend(prefix);
    }
    Tail::Range {
        lower: Lower::AtOrAfter(stored.clone()),
        upper: Upper::AtOrBefore(stored),
        last: false,
    }
}

/// The range `[start, stop)` of one alternative under `tail`, behind the key prefix `prefix`;
/// `None` when it is empty. `point`: every field is fixed by equality; `fixed`: every key has the
/// same length. Both ends are built in place: prefix, body, then the bound.
#[inline]
fn range_of(alt: &Alt, tail: &Tail, point: bool, fixed: bool, prefix: &[u8]) -> Option<KeyRange> {
    let mut start = if prefix.is_empty() {
        alt.body.clone()
    } else {
        let mut start = KeyBuf::from_slice(prefix);
        start.extend(alt.body.as_slice());
        start
    };
    let mut stop = start.clone();
    // Without a bound on the next field the range cannot be empty: stop is past start, or open.
    let bounded = matches!(tail, Tail::Range { .. });
    // The first key after the complete key in `k`: `k 00`, or, when no key is longer, its
    // increment. The first key after every key that starts with `k`: `k`'s next prefix.
    let after_key = |k: &mut KeyBuf| {
        if fixed {
            k.advance_to_next_prefix()
        } else {
            k.push(0)
        }
    };
    match tail {
        Tail::Empty => return None,
        Tail::Open if point => after_key(&mut stop),
        Tail::Open | Tail::TextFilter { .. } => stop.advance_to_next_prefix(),
        Tail::Range { lower, upper, last } => {
            // The first key past every key whose field is E: the last field's bytes end the key,
            // so its successor; otherwise skip E with whatever follows it.
            let past = |k: &mut KeyBuf, e: &KeyBuf| {
                k.extend(e.as_slice());
                if *last {
                    after_key(k);
                } else {
                    k.advance_to_next_prefix();
                }
            };
            match lower {
                Lower::Unbounded => {}
                Lower::AtOrAfter(e) => start.extend(e.as_slice()),
                Lower::After(e) => {
                    past(&mut start, e);
                    // All FF: no key comes after it. (An empty start would mean the first key.)
                    if start.len() == 0 {
                        return None;
                    }
                }
            }
            match upper {
                Upper::Unbounded => stop.advance_to_next_prefix(),
                Upper::Before(e) => stop.extend(e.as_slice()),
                Upper::AtOrBefore(e) => past(&mut stop, e),
            }
        }
    }
    let range = KeyRange { start, stop };
    (!bounded || !range.is_empty()).then_some(range)
}

/// The prefix component of an alternative whose prefix is known (or none), with the text
/// delimiter that follows it.
fn prefix_of(layout: &ScanLayout, alt: &Alt) -> KeyBuf {
    match (&alt.hasher, layout.prefix) {
        (Hasher::Salt(h), Prefix::Salt(salt)) => salt_prefix(layout, salt, h.clone().finish()),
        (Hasher::Hash(h), Prefix::Hash(hash)) => {
            let mut p = KeyBuf::from_slice(&h.clone().finish()[..hash.prefix_len()]);
            p.extend(layout.delimiter().as_bytes());
            p
        }
        (Hasher::None, Prefix::Salt(salt)) if layout.whole_key => {
            salt_prefix(layout, salt, salt.bucket_of(alt.body.as_slice()))
        }
        _ => KeyBuf::new(),
    }
}

/// A salt bucket as it starts a key: one byte, or digits and the delimiter in text layouts.
fn salt_prefix(layout: &ScanLayout, salt: crate::prefix::Salt, bucket: u8) -> KeyBuf {
    let mut p = KeyBuf::new();
    crate::derive_support::write_salt(salt, bucket, p.grow(salt.encoded_len()));
    p.extend(layout.delimiter().as_bytes());
    p
}

/// Whether a key's prefix component is one the alternative allows.
fn prefix_allowed(layout: &ScanLayout, alt: &Alt, known: bool, prefix: &[u8]) -> bool {
    match layout.prefix {
        Prefix::None => true,
        _ if known => prefix == prefix_of(layout, alt).as_slice(),
        Prefix::Salt(salt) => prefix
            .get(..salt.encoded_len())
            .and_then(|digits| crate::derive_support::read_salt(salt, digits).ok())
            .is_some_and(|b| u16::from(b) < salt.buckets()),
        // Unbound hash sources: the body decides (the plan is not exact).
        Prefix::Hash(_) => true,
    }
}

/// Whether sorted, non-overlapping `ranges` hold `key`: the last range that starts at or before
/// it is the only one that can.
pub(crate) fn sorted_contain(ranges: &[KeyRange], key: &[u8]) -> bool {
    let at = ranges.partition_point(|r| r.start() <= key);
    at > 0 && ranges[at - 1].contains(key)
}

/// Merges sorted ranges that overlap or touch; with `buckets`, never across salt buckets.
pub(crate) fn merge(mut ranges: Vec<KeyRange>, buckets: bool) -> Vec<KeyRange> {
    // In place: `dedup_by` hands each range with the last one kept, which absorbs it when they
    // overlap or touch.
    ranges.dedup_by(|r, prev| {
        let same_bucket = !buckets || prev.start().first() == r.start().first();
        let touches = prev.stop().is_empty() || cmp_short(r.start(), prev.stop()).is_le();
        if !(same_bucket && touches) {
            return false;
        }
        if !prev.stop().is_empty()
            && (r.stop().is_empty() || cmp_short(r.stop(), prev.stop()).is_gt())
        {
            core::mem::swap(&mut prev.stop, &mut r.stop);
        }
        true
    });
    ranges
}

/// The ranges of a plan, in order.
///
/// ```
/// use rowkey_core::{FieldMode, Prefix, Scan, ScanLayout};
/// // `K { user: u8, ts: u8 }`, and the plan of `K::scan().user_in([9, 1, 5])`.
/// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
/// let ranges = Scan::<()>::new(&LAYOUT).bind_in([9u8, 1, 5], FieldMode::INNER).ranges();
/// assert_eq!(ranges.len(), 3);
/// let starts: Vec<Vec<u8>> = ranges.map(|r| r.start().to_vec()).collect();
/// assert_eq!(starts, [[1], [5], [9]]);
/// ```
pub struct Ranges {
    inner: RangesInner,
}

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
