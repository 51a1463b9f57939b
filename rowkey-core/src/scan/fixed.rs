//! The fast lane of scan planning: a layout whose keys all have the same length and carry no salt
//! or hash prefix. The bound fields' bytes go into an array of the key's length at offsets the
//! compiler knows, a range on the next field writes its start and stop in place, and an IN list's
//! alternatives are arrays sorted eight bytes per comparison.
//!
//! What the lane does not hold it hands to the general [`Scan`], which plans the same ranges: a
//! string prefix, a padded string bound with no encoding of its own, or a layout that turned out
//! not to be fixed. `tests/scan_lanes.rs` checks both lanes against each other and brute force.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ops::Bound;

use super::{cmp_short, Bind, KeyBuf, KeyRange, Ranges, Scan, ScanLayout};
use crate::error::EncodeErrorKind;
use crate::field::{FieldMode, KeyField};

/// The typed builder's state for a fixed layout of `N` bytes without a prefix component; the
/// generated `K::scan()` of such a layout starts here. It plans like [`Scan`], and converts into
/// one with `into()`.
///
/// ```
/// use core::ops::Bound;
/// use rowkey_core::{FieldMode, FixedScan, KeyRange, Prefix, Scan, ScanLayout};
/// // `K { user: u8, ts: u8 }`: 2 bytes, no prefix.
/// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
/// // `K::scan().user(2)` and `K::scan().user(2).ts_range(5..20)`.
/// let user = FixedScan::<(), 2>::new(&LAYOUT).bind_eq(&2u8, FieldMode::INNER);
/// assert_eq!(user.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2], &[3])]);
/// let plan = user.bind_range(Bound::Included(&5u8), Bound::Excluded(&20u8), FieldMode::LAST);
/// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 5], &[2, 20])]);
/// // Every state converts into the `Scan` it stands for.
/// let scan: Scan<()> = plan.into();
/// assert!(scan.matches(&[2, 7]));
/// ```
pub struct FixedScan<K: ?Sized, const N: usize> {
    lane: Lane<K, N>,
}

enum Lane<K: ?Sized, const N: usize> {
    /// One alternative: equalities so far.
    One(Body<N>),
    /// Several: an IN list was bound.
    Many(Bodies<N>),
    /// Boxed so that the fixed lane stays small to move through the builder's steps. Only a
    /// string prefix, or a layout that is not fixed after all, takes this lane.
    General(Box<Scan<K>>),
}

/// The fields bound by equality so far, encoded in place.
#[derive(Clone, Copy)]
struct Body<const N: usize> {
    layout: &'static ScanLayout,
    bytes: [u8; N],
    len: usize,
    fields: usize,
    /// A bound value could not be encoded (too wide for its `width`): nothing matches.
    empty: bool,
}

/// The alternatives of a plan with an IN list: every combination of the bound values, encoded,
/// sorted and distinct. All have the same length, as every field is fixed. None: nothing matches.
#[derive(Clone)]
struct Bodies<const N: usize> {
    layout: &'static ScanLayout,
    alts: Vec<[u8; N]>,
    len: usize,
    fields: usize,
}

impl<const N: usize> Body<N> {
    /// The range of every key that starts with the bound bytes (all of them, when every field is
    /// bound: in a fixed layout no key extends another).
    #[inline(always)]
    fn range(&self) -> Option<KeyRange> {
        if self.empty {
            return None;
        }
        Some(ArrayRange::of_prefix(&self.bytes, self.len).to_key_range())
    }

    /// The general plan of the same bindings.
    fn into_scan<K: ?Sized>(self) -> Scan<K> {
        Scan::with_bodies(
            self.layout,
            core::iter::once(&self.bytes[..self.len]),
            self.fields,
            self.empty,
        )
    }
}

impl<const N: usize> Bodies<N> {
    fn ranges(&self) -> Vec<KeyRange> {
        // Sorted already; neighbours that touch (01 and 02 -> [01, 03)) are merged.
        merged(
            self.alts
                .iter()
                .map(|alt| ArrayRange::of_prefix(alt, self.len)),
        )
    }

    fn into_scan<K: ?Sized>(self) -> Scan<K> {
        Scan::with_bodies(
            self.layout,
            self.alts.iter().map(|alt| &alt[..self.len]),
            self.fields,
            false,
        )
    }
}

/// Ranges given sorted by start, with overlapping and touching ones merged, as [`KeyRange`]s.
/// Merging on the arrays first builds one `KeyRange` per merged range.
fn merged<const N: usize>(sorted: impl Iterator<Item = ArrayRange<N>>) -> Vec<KeyRange> {
    let mut out = Vec::with_capacity(sorted.size_hint().0);
    let mut open: Option<ArrayRange<N>> = None;
    for next in sorted {
        if let Some(cur) = &mut open {
            // An empty stop is the end of the table: it holds everything after its start.
            if cur.stop_len == 0 || cmp_short(next.start(), cur.stop()).is_le() {
                if cur.stop_len != 0
                    && (next.stop_len == 0 || cmp_short(next.stop(), cur.stop()).is_gt())
                {
                    cur.stop = next.stop;
                    cur.stop_len = next.stop_len;
                }
                continue;
            }
        }
        out.extend(open.replace(next).map(|r| r.to_key_range()));
    }
    out.extend(open.map(|r| r.to_key_range()));
    out
}

/// A range `[start, stop)` held in two arrays of the key's length; an empty stop is the end of
/// the table.
#[derive(Clone, Copy)]
struct ArrayRange<const N: usize> {
    start: [u8; N],
    start_len: usize,
    stop: [u8; N],
    stop_len: usize,
}

impl<const N: usize> ArrayRange<N> {
    /// `[p, next prefix of p)` for the first `len` bytes `p` of `bytes`: every key that starts
    /// with them.
    #[inline(always)]
    fn of_prefix(bytes: &[u8; N], len: usize) -> Self {
        let mut stop = *bytes;
        let stop_len = next_prefix(&mut stop, len);
        ArrayRange {
            start: *bytes,
            start_len: len,
            stop,
            stop_len,
        }
    }

    fn start(&self) -> &[u8] {
        &self.start[..self.start_len]
    }

    fn stop(&self) -> &[u8] {
        &self.stop[..self.stop_len]
    }

    fn contains(&self, key: &[u8]) -> bool {
        key >= self.start() && (self.stop_len == 0 || key < self.stop())
    }

    #[inline(always)]
    fn to_key_range(self) -> KeyRange {
        KeyRange {
            start: KeyBuf::from_array(&self.start, self.start_len),
            stop: KeyBuf::from_array(&self.stop, self.stop_len),
        }
    }
}

/// Turns the first `len` bytes of `key` into the first key after every key they prefix: trailing
/// `FF`s dropped, the last byte left incremented. Returns the new length (0: the end of the
/// table, or nothing after an all-`FF` key).
#[inline(always)]
fn next_prefix(key: &mut [u8], len: usize) -> usize {
    let keep = key[..len]
        .iter()
        .rposition(|&b| b != 0xFF)
        .map_or(0, |i| i + 1);
    if let Some(last) = key[..keep].last_mut() {
        *last += 1;
    }
    keep
}

/// How an encoding attempt into the fixed lane went.
enum Written {
    Bytes(usize),
    /// The value has no encoding in this mode (too wide for its `width`): it matches no key.
    Unencodable,
    /// The array was too short: the layout is not what the lane assumed; plan generally.
    NoRoom,
}

#[inline(always)]
fn write<T: KeyField + ?Sized>(value: &T, out: &mut [u8], mode: FieldMode) -> Written {
    match value.encode(out, mode) {
        Ok(n) => Written::Bytes(n),
        Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => Written::NoRoom,
        Err(_) => Written::Unencodable,
    }
}

/// The range of one alternative `bytes[..len]` followed by the next field between `lower` and
/// `upper` (already in byte order); `Ok(None)` when it is empty, `Err` when the lane cannot hold
/// it (plan generally).
#[inline(always)]
fn range_after<T: KeyField + ?Sized, const N: usize>(
    bytes: &[u8; N],
    len: usize,
    lower: Bound<&T>,
    upper: Bound<&T>,
    mode: FieldMode,
) -> Result<Option<ArrayRange<N>>, NoRoom> {
    let mut from = *bytes;
    let from_len = match lower {
        Bound::Unbounded => len,
        Bound::Included(v) | Bound::Excluded(v) => {
            let n = write_bound(v, &mut from, len, mode)?;
            if matches!(lower, Bound::Excluded(_)) {
                // The first key after every key whose field is this value; none after all FF.
                match next_prefix(&mut from, n) {
                    0 => return Ok(None),
                    after => after,
                }
            } else {
                n
            }
        }
    };
    let mut to = *bytes;
    let to_len = match upper {
        Bound::Unbounded => next_prefix(&mut to, len),
        Bound::Included(v) | Bound::Excluded(v) => {
            let n = write_bound(v, &mut to, len, mode)?;
            if matches!(upper, Bound::Included(_)) {
                next_prefix(&mut to, n)
            } else {
                n
            }
        }
    };
    // An empty stop is the end of the table, after every start.
    if to_len > 0 && cmp_short(&from[..from_len], &to[..to_len]).is_ge() {
        return Ok(None);
    }
    Ok(Some(ArrayRange {
        start: from,
        start_len: from_len,
        stop: to,
        stop_len: to_len,
    }))
}

/// Writes a bound's value after the first `len` bytes of `key` and returns where it ends.
#[inline(always)]
fn write_bound<T: KeyField + ?Sized, const N: usize>(
    v: &T,
    key: &mut [u8; N],
    len: usize,
    mode: FieldMode,
) -> Result<usize, NoRoom> {
    match write(v, &mut key[len..], mode) {
        Written::Bytes(n) => Ok(len + n),
        // A bound with no encoding may still bound something: the general planner puts its
        // stand-in in its place.
        Written::Unencodable | Written::NoRoom => Err(NoRoom),
    }
}

/// The fixed lane cannot hold the plan (the array is too short, or a bound has no encoding and may
/// need a stand-in): hand it to the general planner.
struct NoRoom;

impl<K: ?Sized, const N: usize> FixedScan<K, N> {
    /// A plan over the whole table. Use the generated `K::scan()`.
    #[doc(hidden)]
    #[inline(always)]
    pub fn new(layout: &'static ScanLayout) -> Self {
        let lane = if layout.fixed && layout.prefix.is_none() && layout.text.is_none() {
            Lane::One(Body {
                layout,
                bytes: [0; N],
                len: 0,
                fields: 0,
                empty: false,
            })
        } else {
            Lane::General(Box::new(Scan::new(layout)))
        };
        FixedScan { lane }
    }

    /// Binds the next field to `value`, placed with `mode`.
    #[doc(hidden)]
    #[must_use]
    #[inline(always)]
    pub fn bind_eq<T: KeyField + ?Sized>(self, value: &T, mode: FieldMode) -> Self {
        let lane = match self.lane {
            Lane::One(mut body) => {
                if !body.empty {
                    match write(value, &mut body.bytes[body.len..], mode) {
                        Written::Bytes(n) => body.len += n,
                        Written::Unencodable => body.empty = true,
                        Written::NoRoom => {
                            let mut scan = Box::new(body.into_scan());
                            scan.bind_eq_in_place(value, mode);
                            return FixedScan {
                                lane: Lane::General(scan),
                            };
                        }
                    }
                }
                body.fields += 1;
                Lane::One(body)
            }
            Lane::Many(bodies) => bind_eq_many(bodies, value, mode),
            Lane::General(mut scan) => {
                scan.bind_eq_in_place(value, mode);
                Lane::General(scan)
            }
        };
        FixedScan { lane }
    }

    /// Binds the next field to any of `values`, placed with `mode`.
    #[doc(hidden)]
    #[must_use]
    pub fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(
        self,
        values: I,
        mode: FieldMode,
    ) -> Self {
        // Kept, so that a plan that must leave the lane can bind them there.
        let values: Vec<T> = values.into_iter().collect();
        let (layout, base, len, fields) = match self.lane {
            Lane::One(body) => {
                let base = if body.empty {
                    Vec::new()
                } else {
                    alloc::vec![body.bytes]
                };
                (body.layout, base, body.len, body.fields)
            }
            Lane::Many(bodies) => (bodies.layout, bodies.alts, bodies.len, bodies.fields),
            Lane::General(mut scan) => {
                scan.bind_in_in_place(values, mode);
                return FixedScan {
                    lane: Lane::General(scan),
                };
            }
        };
        let mut alts: Vec<[u8; N]> = Vec::with_capacity(base.len().saturating_mul(values.len()));
        let mut width = None;
        for value in &values {
            for alt in &base {
                let mut alt = *alt;
                match write(value, &mut alt[len..], mode) {
                    // Every value of a fixed field has the same width.
                    Written::Bytes(n) if width.map_or(true, |w| w == n) => {
                        width = Some(n);
                        alts.push(alt);
                    }
                    // A value that cannot be encoded (too wide for its width) matches no key.
                    Written::Unencodable => {}
                    Written::Bytes(_) | Written::NoRoom => {
                        let mut scan = Box::new(
                            Bodies {
                                layout,
                                alts: base,
                                len,
                                fields,
                            }
                            .into_scan::<K>(),
                        );
                        scan.bind_in_in_place(values, mode);
                        return FixedScan {
                            lane: Lane::General(scan),
                        };
                    }
                }
            }
        }
        // Duplicate values give equal alternatives; removing them keeps `ranges` proportional to
        // the distinct values.
        // Bytes past the bound ones are zero in every alternative, so whole arrays compare as
        // their bound bytes do.
        alts.sort_unstable_by(|a, b| cmp_short(a, b));
        alts.dedup();
        FixedScan {
            lane: Lane::Many(Bodies {
                layout,
                alts,
                len: len + width.unwrap_or(0),
                fields: fields + 1,
            }),
        }
    }

    /// Restricts the next field to values between `start` and `end` (in the field's own order),
    /// placed with `mode`.
    #[doc(hidden)]
    #[inline(always)]
    pub fn bind_range<T: KeyField + ?Sized>(
        self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> FixedRange<K, N> {
        let (layout, empty) = match &self.lane {
            Lane::One(body) => (body.layout, body.empty),
            Lane::Many(bodies) => (bodies.layout, bodies.alts.is_empty()),
            Lane::General(scan) => (scan.layout, false),
        };
        let clamped = super::clamp_to_width(start, end, mode);
        let lane = match self.lane {
            Lane::General(mut scan) => {
                scan.bind_range_in_place(start, end, mode);
                return FixedRange::general(scan);
            }
            lane => lane,
        };
        let Some((lo, hi)) = clamped.filter(|_| !empty) else {
            return FixedRange::nothing(layout);
        };
        // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
        let (lower, upper) = if mode.is_desc() { (hi, lo) } else { (lo, hi) };
        match lane {
            Lane::One(body) => match range_after(&body.bytes, body.len, lower, upper, mode) {
                Ok(Some(range)) => FixedRange {
                    layout,
                    plan: Final::Range(range),
                },
                Ok(None) => FixedRange::nothing(layout),
                Err(NoRoom) => {
                    FixedRange::general(Box::new(body.into_scan().bind_range(start, end, mode)))
                }
            },
            Lane::Many(bodies) => {
                let mut bounds: Vec<ArrayRange<N>> = Vec::with_capacity(bodies.alts.len());
                for alt in &bodies.alts {
                    match range_after(alt, bodies.len, lower, upper, mode) {
                        Ok(Some(range)) => bounds.push(range),
                        Ok(None) => {}
                        Err(NoRoom) => {
                            return FixedRange::general(Box::new(
                                bodies.into_scan().bind_range(start, end, mode),
                            ))
                        }
                    }
                }
                // Alternatives are sorted; a bound past a value's last key can reorder starts.
                let by_start =
                    |a: &ArrayRange<N>, b: &ArrayRange<N>| cmp_short(a.start(), b.start());
                if !bounds.windows(2).all(|w| by_start(&w[0], &w[1]).is_le()) {
                    bounds.sort_unstable_by(by_start);
                }
                let ranges = merged(bounds.into_iter());
                if ranges.is_empty() {
                    FixedRange::nothing(layout)
                } else {
                    FixedRange {
                        layout,
                        plan: Final::Many(ranges),
                    }
                }
            }
            Lane::General(_) => FixedRange::nothing(layout),
        }
    }

    /// Restricts the next field, a string or bytes field placed with `mode`, to content that
    /// starts with `prefix`.
    #[doc(hidden)]
    pub fn bind_prefix(self, prefix: &[u8], mode: FieldMode) -> Scan<K> {
        self.into_general().bind_prefix(prefix, mode)
    }

    fn into_general(self) -> Scan<K> {
        match self.lane {
            Lane::One(body) => body.into_scan(),
            Lane::Many(bodies) => bodies.into_scan(),
            Lane::General(scan) => *scan,
        }
    }

    /// Whether every key inside [`ranges`](FixedScan::ranges) matches: always, as no prefix
    /// component hides a hash.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FixedScan, Prefix, ScanLayout};
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
    /// assert!(FixedScan::<(), 2>::new(&LAYOUT).bind_eq(&2u8, FieldMode::INNER).is_exact());
    /// ```
    pub fn is_exact(&self) -> bool {
        match &self.lane {
            Lane::One(_) | Lane::Many(_) => true,
            Lane::General(scan) => scan.is_exact(),
        }
    }

    /// Exactly whether `key` satisfies the plan.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FixedScan, Prefix, ScanLayout};
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
    /// let plan = FixedScan::<(), 2>::new(&LAYOUT).bind_eq(&2u8, FieldMode::INNER);
    /// assert!(plan.matches(&[2, 9]) && !plan.matches(&[3, 9]));
    /// ```
    pub fn matches(&self, key: &[u8]) -> bool {
        match &self.lane {
            Lane::One(body) => !body.empty && key.starts_with(&body.bytes[..body.len]),
            Lane::Many(bodies) => key.get(..bodies.len).is_some_and(|head| {
                bodies
                    .alts
                    .binary_search_by(|alt| alt[..bodies.len].cmp(head))
                    .is_ok()
            }),
            Lane::General(scan) => scan.matches(key),
        }
    }

    /// The ranges to scan, as [`Scan::ranges`] gives them.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FixedScan, KeyRange, Prefix, ScanLayout};
    /// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
    /// let plan = FixedScan::<(), 2>::new(&LAYOUT).bind_in([7u8, 2, 3], FieldMode::INNER);
    /// let ranges: Vec<KeyRange> = plan.ranges().collect();
    /// assert_eq!(ranges, [KeyRange::new(&[2], &[4]), KeyRange::new(&[7], &[8])]);
    /// ```
    #[inline(always)]
    pub fn ranges(&self) -> Ranges {
        match &self.lane {
            Lane::One(body) => match body.range() {
                Some(range) => Ranges::one(range),
                None => Ranges::none(),
            },
            Lane::Many(bodies) => Ranges::many(bodies.ranges()),
            Lane::General(scan) => scan.ranges(),
        }
    }
}

impl<K: ?Sized, const N: usize> Bind for FixedScan<K, N> {
    type Ranged = FixedRange<K, N>;

    #[inline]
    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(self, values: I, mode: FieldMode) -> Self {
        FixedScan::bind_in(self, values, mode)
    }

    #[inline(always)]
    fn bind_range<T: KeyField + ?Sized>(
        self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> FixedRange<K, N> {
        FixedScan::bind_range(self, start, end, mode)
    }
}

/// `bind_eq` on every alternative of an IN list.
fn bind_eq_many<K: ?Sized, T: KeyField + ?Sized, const N: usize>(
    mut bodies: Bodies<N>,
    value: &T,
    mode: FieldMode,
) -> Lane<K, N> {
    let mut width = None;
    for alt in &mut bodies.alts {
        match write(value, &mut alt[bodies.len..], mode) {
            // The same bytes after equal-length, sorted, distinct alternatives keep them so.
            Written::Bytes(n) if width.map_or(true, |w| w == n) => width = Some(n),
            Written::Unencodable => {
                bodies.alts.clear();
                break;
            }
            Written::Bytes(_) | Written::NoRoom => {
                let mut scan = Box::new(bodies.into_scan::<K>());
                scan.bind_eq_in_place(value, mode);
                return Lane::General(scan);
            }
        }
    }
    bodies.len += width.unwrap_or(0);
    bodies.fields += 1;
    Lane::Many(bodies)
}

/// The plan of the fields bound so far.
impl<K: ?Sized, const N: usize> From<FixedScan<K, N>> for Scan<K> {
    #[inline(always)]
    fn from(plan: FixedScan<K, N>) -> Scan<K> {
        match plan.lane {
            Lane::One(body) => Scan::with_range(body.layout, body.range()),
            Lane::Many(bodies) => bodies.into_scan(),
            Lane::General(scan) => *scan,
        }
    }
}

/// A plan holds only bytes, so it clones whatever `K` is.
impl<K: ?Sized, const N: usize> Clone for FixedScan<K, N> {
    fn clone(&self) -> Self {
        let lane = match &self.lane {
            Lane::One(body) => Lane::One(*body),
            Lane::Many(bodies) => Lane::Many(bodies.clone()),
            Lane::General(scan) => Lane::General(scan.clone()),
        };
        FixedScan { lane }
    }
}

impl<K: ?Sized, const N: usize> core::fmt::Debug for FixedScan<K, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scan")
            .field("ranges", &self.ranges().collect::<Vec<_>>())
            .field("exact", &self.is_exact())
            .finish()
    }
}

/// The final state of a fixed layout's plan after a range on a field: its one range, with start
/// and stop kept as arrays of the key's length until [`ranges`](FixedRange::ranges) is asked for.
/// Converts into the [`Scan`] it stands for.
///
/// ```
/// use core::ops::{Bound, RangeBounds};
/// use rowkey_core::{FieldMode, FixedRange, FixedScan, KeyRange, Prefix, Scan, ScanLayout};
/// // `K { user: u8, ts: u8 }`, and `K::scan().user(2).ts_range(5..=19)`.
/// static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, true);
/// let plan: FixedRange<(), 2> = FixedScan::new(&LAYOUT)
///     .bind_eq(&2u8, FieldMode::INNER)
///     .bind_range(Bound::Included(&5u8), Bound::Included(&19u8), FieldMode::LAST);
/// assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(&[2, 5], &[2, 20])]);
/// assert!(plan.is_exact() && plan.matches(&[2, 19]) && !plan.matches(&[2, 20]));
/// let scan: Scan<()> = plan.into();
/// assert!(scan.matches(&[2, 5]));
/// ```
pub struct FixedRange<K: ?Sized, const N: usize> {
    layout: &'static ScanLayout,
    plan: Final<K, N>,
}

enum Final<K: ?Sized, const N: usize> {
    /// One range, kept as arrays until `ranges()` is asked for.
    Range(ArrayRange<N>),
    /// Several ranges (after an IN list), sorted, merged and not empty.
    Many(Vec<KeyRange>),
    Nothing,
    /// Boxed, as in [`FixedScan`]: only plans that left the fixed lane get here.
    General(Box<Scan<K>>),
}

impl<K: ?Sized, const N: usize> FixedRange<K, N> {
    #[inline(always)]
    fn nothing(layout: &'static ScanLayout) -> Self {
        FixedRange {
            layout,
            plan: Final::Nothing,
        }
    }

    fn general(scan: Box<Scan<K>>) -> Self {
        FixedRange {
            layout: scan.layout,
            plan: Final::General(scan),
        }
    }

    /// The range as a [`KeyRange`], or `None` when nothing matches.
    #[inline(always)]
    fn range(&self) -> Option<KeyRange> {
        match &self.plan {
            Final::Range(range) => Some(range.to_key_range()),
            Final::Many(_) | Final::Nothing | Final::General(_) => None,
        }
    }

    /// Whether every key inside [`ranges`](FixedRange::ranges) matches: always, as no prefix
    /// component hides a hash.
    pub fn is_exact(&self) -> bool {
        match &self.plan {
            Final::General(scan) => scan.is_exact(),
            _ => true,
        }
    }

    /// Exactly whether `key` satisfies the plan.
    pub fn matches(&self, key: &[u8]) -> bool {
        match &self.plan {
            Final::Range(range) => range.contains(key),
            Final::Many(ranges) => super::sorted_contain(ranges, key),
            Final::Nothing => false,
            Final::General(scan) => scan.matches(key),
        }
    }

    /// The ranges to scan (at most one), as [`Scan::ranges`] gives them.
    #[inline(always)]
    pub fn ranges(&self) -> Ranges {
        match &self.plan {
            Final::General(scan) => scan.ranges(),
            Final::Many(ranges) => Ranges::many(ranges.clone()),
            _ => match self.range() {
                Some(range) => Ranges::one(range),
                None => Ranges::none(),
            },
        }
    }
}

impl<K: ?Sized, const N: usize> From<FixedRange<K, N>> for Scan<K> {
    fn from(plan: FixedRange<K, N>) -> Scan<K> {
        let range = plan.range();
        match plan.plan {
            Final::General(scan) => *scan,
            Final::Many(ranges) => Scan::with_ranges(plan.layout, ranges),
            _ => Scan::with_range(plan.layout, range),
        }
    }
}

impl<K: ?Sized, const N: usize> Clone for FixedRange<K, N> {
    fn clone(&self) -> Self {
        let plan = match &self.plan {
            Final::Range(range) => Final::Range(*range),
            Final::Many(ranges) => Final::Many(ranges.clone()),
            Final::Nothing => Final::Nothing,
            Final::General(scan) => Final::General(scan.clone()),
        };
        FixedRange {
            layout: self.layout,
            plan,
        }
    }
}

impl<K: ?Sized, const N: usize> core::fmt::Debug for FixedRange<K, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scan")
            .field("ranges", &self.ranges().collect::<alloc::vec::Vec<_>>())
            .field("exact", &self.is_exact())
            .finish()
    }
}
