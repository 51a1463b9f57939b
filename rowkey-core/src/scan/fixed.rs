//! The fast lane of scan planning: a layout whose keys all have the same length and carry no salt
//! or hash prefix. The bound fields' bytes go into an array of the key's length at offsets the
//! compiler knows, and a range on the next field writes its start and stop in place, so planning
//! costs about as much as encoding a key.
//!
//! Anything else hands the bound bytes to the general [`Scan`], which plans the same ranges: an IN
//! list, a string prefix, or a layout that turned out not to be fixed. The tests in
//! `tests/scan.rs` check that both lanes give the same plans.

use alloc::boxed::Box;
use core::ops::Bound;

use super::{KeyBuf, KeyRange, Ranges, Scan, ScanLayout};
use crate::error::EncodeErrorKind;
use crate::field::{FieldMode, KeyField};

/// The typed builder's state for a fixed layout of `N` bytes without a prefix component; the
/// generated `K::scan()` of such a layout starts here. It plans like [`Scan`], which it turns
/// into when the query needs more than equalities and one range.
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
    Fixed(Body<N>),
    /// Boxed so that the fixed lane stays small to move through the builder's steps. Only an IN
    /// list (which allocates its alternatives anyway), a string prefix, or a layout that is not
    /// fixed after all take this lane.
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

impl<const N: usize> Body<N> {
    /// The range of every key that starts with the bound bytes (all of them, when every field is
    /// bound: in a fixed layout no key extends another).
    #[inline(always)]
    fn range(&self) -> Option<KeyRange> {
        if self.empty {
            return None;
        }
        let mut stop = self.bytes;
        let stop_len = next_prefix(&mut stop, self.len);
        Some(KeyRange {
            start: KeyBuf::from_array(&self.bytes, self.len),
            stop: KeyBuf::from_array(&stop, stop_len),
        })
    }

    /// The general plan of the same bindings.
    fn into_scan<K: ?Sized>(self) -> Scan<K> {
        Scan::with_body(
            self.layout,
            &self.bytes[..self.len],
            self.fields,
            self.empty,
        )
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

impl<K: ?Sized, const N: usize> FixedScan<K, N> {
    /// A plan over the whole table. Use the generated `K::scan()`.
    #[doc(hidden)]
    #[inline(always)]
    pub fn new(layout: &'static ScanLayout) -> Self {
        let lane = if layout.fixed && layout.prefix.is_none() && layout.text.is_none() {
            Lane::Fixed(Body {
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
            Lane::Fixed(mut body) => {
                if !body.empty {
                    match write(value, &mut body.bytes[body.len..], mode) {
                        Written::Bytes(n) => body.len += n,
                        Written::Unencodable => body.empty = true,
                        Written::NoRoom => {
                            return FixedScan {
                                lane: Lane::General(Box::new(
                                    body.into_scan().bind_eq(value, mode),
                                )),
                            }
                        }
                    }
                }
                body.fields += 1;
                Lane::Fixed(body)
            }
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
        let mut scan = match self.lane {
            Lane::Fixed(body) => Box::new(body.into_scan()),
            Lane::General(scan) => scan,
        };
        scan.bind_in_in_place(values, mode);
        FixedScan {
            lane: Lane::General(scan),
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
        let body = match self.lane {
            Lane::Fixed(body) => body,
            Lane::General(mut scan) => {
                scan.bind_range_in_place(start, end, mode);
                return FixedRange::general(scan);
            }
        };
        if body.empty {
            return FixedRange::nothing(body.layout);
        }
        let Some((start, end)) = super::clamp_to_width(start, end, mode) else {
            return FixedRange::nothing(body.layout);
        };
        // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
        let (lower, upper) = if mode.is_desc() {
            (end, start)
        } else {
            (start, end)
        };
        let mut from = body.bytes;
        let from_len = match lower {
            Bound::Unbounded => body.len,
            Bound::Included(v) | Bound::Excluded(v) => {
                let n = match write(v, &mut from[body.len..], mode) {
                    Written::Bytes(n) => body.len + n,
                    Written::Unencodable => return FixedRange::nothing(body.layout),
                    Written::NoRoom => {
                        return FixedRange::general(Box::new(
                            body.into_scan().bind_range(start, end, mode),
                        ))
                    }
                };
                if matches!(lower, Bound::Excluded(_)) {
                    // The first key after every key whose field is this value; none after all FF.
                    match next_prefix(&mut from, n) {
                        0 => return FixedRange::nothing(body.layout),
                        after => after,
                    }
                } else {
                    n
                }
            }
        };
        let mut to = body.bytes;
        let to_len = match upper {
            Bound::Unbounded => next_prefix(&mut to, body.len),
            Bound::Included(v) | Bound::Excluded(v) => {
                let n = match write(v, &mut to[body.len..], mode) {
                    Written::Bytes(n) => body.len + n,
                    Written::Unencodable => return FixedRange::nothing(body.layout),
                    Written::NoRoom => {
                        return FixedRange::general(Box::new(
                            body.into_scan().bind_range(start, end, mode),
                        ))
                    }
                };
                if matches!(upper, Bound::Included(_)) {
                    next_prefix(&mut to, n)
                } else {
                    n
                }
            }
        };
        // An empty stop is the end of the table, after every start.
        if to_len > 0 && from[..from_len] >= to[..to_len] {
            return FixedRange::nothing(body.layout);
        }
        FixedRange {
            layout: body.layout,
            plan: Final::Range {
                start: from,
                start_len: from_len,
                stop: to,
                stop_len: to_len,
            },
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
            Lane::Fixed(body) => body.into_scan(),
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
            Lane::Fixed(_) => true,
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
            Lane::Fixed(body) => !body.empty && key.starts_with(&body.bytes[..body.len]),
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
            Lane::Fixed(body) => match body.range() {
                Some(range) => Ranges::one(range),
                None => Ranges::none(),
            },
            Lane::General(scan) => scan.ranges(),
        }
    }
}

/// The plan of every field bound by equality: each key a point.
impl<K: ?Sized, const N: usize> From<FixedScan<K, N>> for Scan<K> {
    #[inline(always)]
    fn from(plan: FixedScan<K, N>) -> Scan<K> {
        match plan.lane {
            Lane::Fixed(body) => Scan::with_range(body.layout, body.range()),
            Lane::General(scan) => *scan,
        }
    }
}

/// A plan holds only bytes, so it clones whatever `K` is.
impl<K: ?Sized, const N: usize> Clone for FixedScan<K, N> {
    fn clone(&self) -> Self {
        let lane = match &self.lane {
            Lane::Fixed(body) => Lane::Fixed(*body),
            Lane::General(scan) => Lane::General(scan.clone()),
        };
        FixedScan { lane }
    }
}

impl<K: ?Sized, const N: usize> core::fmt::Debug for FixedScan<K, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scan")
            .field("ranges", &self.ranges().collect::<alloc::vec::Vec<_>>())
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
    /// `[start, stop)`; an empty stop is the end of the table.
    Range {
        start: [u8; N],
        start_len: usize,
        stop: [u8; N],
        stop_len: usize,
    },
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
            Final::Range {
                start,
                start_len,
                stop,
                stop_len,
            } => Some(KeyRange {
                start: KeyBuf::from_array(start, *start_len),
                stop: KeyBuf::from_array(stop, *stop_len),
            }),
            Final::Nothing | Final::General(_) => None,
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
            Final::Range {
                start,
                start_len,
                stop,
                stop_len,
            } => key >= &start[..*start_len] && (*stop_len == 0 || key < &stop[..*stop_len]),
            Final::Nothing => false,
            Final::General(scan) => scan.matches(key),
        }
    }

    /// The ranges to scan (at most one), as [`Scan::ranges`] gives them.
    #[inline(always)]
    pub fn ranges(&self) -> Ranges {
        match &self.plan {
            Final::General(scan) => scan.ranges(),
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
            _ => Scan::with_range(plan.layout, range),
        }
    }
}

impl<K: ?Sized, const N: usize> Clone for FixedRange<K, N> {
    fn clone(&self) -> Self {
        let plan = match &self.plan {
            Final::Range {
                start,
                start_len,
                stop,
                stop_len,
            } => Final::Range {
                start: *start,
                start_len: *start_len,
                stop: *stop,
                stop_len: *stop_len,
            },
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
