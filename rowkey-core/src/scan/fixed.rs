//! The fast lane of scan planning: a layout whose keys all have the same length and carry no salt
//! or hash prefix. The bound fields' bytes go into an array of the key's length at offsets the
//! compiler knows, a range on the next field writes its start and stop in place, and an IN list's
//! alternatives are arrays sorted eight bytes per comparison.
//!
//! What the lane does not hold it hands to the general planner, which plans the same ranges: a
//! string prefix, a bound the field cannot store, or a layout that turned out not to be fixed.
//! Both lanes build, merge and search their ranges with the same code (`range.rs`, `bytes.rs`),
//! and resume and split through the same [`Scan`]; `tests/scan_lanes.rs` checks them against each
//! other and brute force. Not a public type: generated builder states hold it, and users see the
//! state's methods and [`Scan`].

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ops::Bound;

use super::array::{merged, range_after, write, ArrayRange, NoRoom, Written};
use super::bind::Bind;
use super::bytes::cmp_short;
use super::layout::ScanLayout;
use super::plan::FieldPlan;
use super::range::{sort_by_start, sorted_contain, KeyRange, Ranges, Span};
use super::{fmt_plan, Scan};
use crate::field::{FieldMode, KeyField};

/// The plan of a generated builder state for a fixed layout of `N` bytes without a prefix
/// component: the fields bound so far, or, after a range, the ranges. Converts into the [`Scan`]
/// of the same query.
pub struct FixedPlan<K: ?Sized, const N: usize> {
    lane: Lane<K, N>,
}

enum Lane<K: ?Sized, const N: usize> {
    /// One alternative: equalities so far.
    One(Body<N>),
    /// Several: an IN list was bound.
    Many(Bodies<N>),
    /// A range after one alternative (or none: nothing matches), kept as arrays until `ranges()`
    /// is asked for.
    Range(Ranged<Option<ArrayRange<N>>>),
    /// The ranges after every alternative of an IN list: sorted, merged, possibly none.
    Ranges(Ranged<Vec<KeyRange>>),
    /// Boxed so that the lane stays small to move through the builder's steps. Only a string
    /// prefix, or a layout that is not fixed after all, takes this lane.
    General(Box<Scan<K>>),
}

/// What a range finished: the ranges, and the fields bound (the range's included).
#[derive(Clone)]
struct Ranged<R> {
    layout: &'static ScanLayout,
    fields: usize,
    ranges: R,
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
        Scan::with_plan(
            self.layout,
            FieldPlan::with_bodies(
                core::iter::once(&self.bytes[..self.len]),
                self.fields,
                self.empty,
            ),
        )
    }
}

impl<const N: usize> Bodies<N> {
    fn ranges(&self) -> Vec<KeyRange> {
        // Sorted already; neighbours that touch (01 and 02 -> [01, 03)) are merged.
        merged(
            self.alts
                .iter()
                .map(|alt| ArrayRange::of_prefix(alt, self.len))
                .collect(),
        )
    }

    fn into_scan<K: ?Sized>(self) -> Scan<K> {
        Scan::with_plan(
            self.layout,
            FieldPlan::with_bodies(
                self.alts.iter().map(|alt| &alt[..self.len]),
                self.fields,
                false,
            ),
        )
    }
}

impl<K: ?Sized, const N: usize> FixedPlan<K, N> {
    #[inline(always)]
    fn general(scan: Scan<K>) -> Self {
        FixedPlan {
            lane: Lane::General(Box::new(scan)),
        }
    }

    /// The general plan of the same query.
    pub(crate) fn into_scan(self) -> Scan<K> {
        match self.lane {
            Lane::One(body) => body.into_scan(),
            Lane::Many(bodies) => bodies.into_scan(),
            Lane::Range(r) => {
                let spans = r.ranges.map(ArrayRange::to_key_range).into_iter().collect();
                Scan::with_plan(r.layout, FieldPlan::from_spans(r.fields, spans))
            }
            Lane::Ranges(r) => Scan::with_plan(r.layout, FieldPlan::from_spans(r.fields, r.ranges)),
            Lane::General(scan) => *scan,
        }
    }

    /// See [`Scan::is_exact`]: the lane holds only what it plans exactly.
    pub(crate) fn is_exact(&self) -> bool {
        match &self.lane {
            Lane::General(scan) => scan.is_exact(),
            _ => true,
        }
    }

    /// See [`Scan::matches`]: whether a range of the plan holds `key`, by the same containment
    /// and search as the general planner's (`range.rs`). The bound alternatives of a fixed layout
    /// are the ranges of every key that starts with them.
    pub(crate) fn matches(&self, key: &[u8]) -> bool {
        match &self.lane {
            Lane::One(body) => {
                !body.empty && ArrayRange::of_prefix(&body.bytes, body.len).contains(key)
            }
            Lane::Many(bodies) => key.get(..bodies.len).is_some_and(|head| {
                bodies
                    .alts
                    .binary_search_by(|alt| alt[..bodies.len].cmp(head))
                    .is_ok()
            }),
            Lane::Range(r) => r.ranges.as_ref().is_some_and(|range| range.contains(key)),
            Lane::Ranges(r) => sorted_contain(&r.ranges, key),
            Lane::General(scan) => scan.matches(key),
        }
    }

    /// See [`Scan::ranges`].
    #[inline(always)]
    pub(crate) fn ranges(&self) -> Ranges {
        match &self.lane {
            Lane::One(body) => match body.range() {
                Some(range) => Ranges::one(range),
                None => Ranges::none(),
            },
            Lane::Many(bodies) => Ranges::many(bodies.ranges()),
            Lane::Range(r) => match r.ranges {
                Some(range) => Ranges::one(range.to_key_range()),
                None => Ranges::none(),
            },
            Lane::Ranges(r) => Ranges::many(r.ranges.clone()),
            Lane::General(scan) => scan.ranges(),
        }
    }

    /// See [`Scan::salt_len`]: a layout in this lane has no salt.
    pub(crate) fn salt_len(&self) -> usize {
        match &self.lane {
            Lane::General(scan) => scan.salt_len(),
            _ => 0,
        }
    }

    /// A range on the next field after one alternative, in the lane; the general plan when the
    /// lane cannot hold it.
    #[inline(always)]
    fn range_after_one<T: KeyField + ?Sized>(
        body: Body<N>,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Self {
        let (layout, fields) = (body.layout, body.fields + 1);
        if body.empty {
            return FixedPlan::ranged(layout, fields, None);
        }
        // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
        let (lower, upper) = if mode.is_desc() {
            (end, start)
        } else {
            (start, end)
        };
        match range_after(&body.bytes, body.len, lower, upper, mode) {
            Ok(range) => FixedPlan::ranged(layout, fields, range),
            Err(NoRoom) => FixedPlan::general(general_range(body.into_scan(), start, end, mode)),
        }
    }

    #[inline(always)]
    fn ranged(layout: &'static ScanLayout, fields: usize, range: Option<ArrayRange<N>>) -> Self {
        FixedPlan {
            lane: Lane::Range(Ranged {
                layout,
                fields,
                ranges: range,
            }),
        }
    }

    /// A range on the next field after every alternative of an IN list.
    fn range_after_many<T: KeyField + ?Sized>(
        bodies: Bodies<N>,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Self {
        let (layout, fields) = (bodies.layout, bodies.fields + 1);
        let (lower, upper) = if mode.is_desc() {
            (end, start)
        } else {
            (start, end)
        };
        let mut ranges: Vec<ArrayRange<N>> = Vec::with_capacity(bodies.alts.len());
        for alt in &bodies.alts {
            match range_after(alt, bodies.len, lower, upper, mode) {
                Ok(range) => ranges.extend(range),
                Err(NoRoom) => {
                    return FixedPlan::general(general_range(bodies.into_scan(), start, end, mode))
                }
            }
        }
        // Alternatives are sorted; a bound past a value's last key can reorder starts.
        sort_by_start(&mut ranges);
        FixedPlan {
            lane: Lane::Ranges(Ranged {
                layout,
                fields,
                ranges: merged(ranges),
            }),
        }
    }
}

impl<K: ?Sized, const N: usize> Bind for FixedPlan<K, N> {
    type Key = K;

    #[inline(always)]
    fn start(layout: &'static ScanLayout) -> Self {
        if layout.fixed && layout.prefix.is_none() && layout.text.is_none() {
            FixedPlan {
                lane: Lane::One(Body {
                    layout,
                    bytes: [0; N],
                    len: 0,
                    fields: 0,
                    empty: false,
                }),
            }
        } else {
            FixedPlan::general(Scan::start(layout))
        }
    }

    #[inline(always)]
    fn bind_eq<T: KeyField + ?Sized>(self, value: &T, mode: FieldMode) -> Self {
        let lane = match self.lane {
            Lane::One(mut body) => {
                if !body.empty {
                    match write(value, &mut body.bytes[body.len..], mode) {
                        Written::Bytes(n) => body.len += n,
                        Written::Unencodable => body.empty = true,
                        Written::NoRoom => {
                            return FixedPlan::general(general_eq(body.into_scan(), value, mode));
                        }
                    }
                }
                body.fields += 1;
                Lane::One(body)
            }
            Lane::Many(bodies) => bind_eq_many(bodies, value, mode),
            // A generated builder binds nothing after a range; the general planner answers
            // whatever else does.
            lane => {
                return FixedPlan::general(general_eq(FixedPlan { lane }.into_scan(), value, mode))
            }
        };
        FixedPlan { lane }
    }

    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(self, values: I, mode: FieldMode) -> Self {
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
            lane => {
                return FixedPlan::general(general_in(FixedPlan { lane }.into_scan(), values, mode))
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
                        let bodies = Bodies {
                            layout,
                            alts: base,
                            len,
                            fields,
                        };
                        return FixedPlan::general(general_in(
                            bodies.into_scan::<K>(),
                            values,
                            mode,
                        ));
                    }
                }
            }
        }
        // Duplicate values give equal alternatives; removing them keeps `ranges` proportional to
        // the distinct values. Bytes past the bound ones are zero in every alternative, so whole
        // arrays compare as their bound bytes do.
        alts.sort_unstable_by(|a, b| cmp_short(a, b));
        alts.dedup();
        FixedPlan {
            lane: Lane::Many(Bodies {
                layout,
                alts,
                len: len + width.unwrap_or(0),
                fields: fields + 1,
            }),
        }
    }

    #[inline(always)]
    fn bind_range<T: KeyField + ?Sized>(
        self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Self {
        match self.lane {
            Lane::One(body) => FixedPlan::range_after_one(body, start, end, mode),
            Lane::Many(bodies) => FixedPlan::range_after_many(bodies, start, end, mode),
            lane => FixedPlan::general(general_range(
                FixedPlan { lane }.into_scan(),
                start,
                end,
                mode,
            )),
        }
    }

    fn bind_prefix(self, prefix: &[u8], mode: FieldMode) -> Self {
        FixedPlan::general(self.into_scan().bind_prefix(prefix, mode))
    }

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

    #[inline]
    fn into_scan(self) -> Scan<K> {
        FixedPlan::into_scan(self)
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
                let scan = general_eq(bodies.into_scan::<K>(), value, mode);
                return Lane::General(Box::new(scan));
            }
        }
    }
    bodies.len += width.unwrap_or(0);
    bodies.fields += 1;
    Lane::Many(bodies)
}

/// A plan holds only bytes, so it clones whatever `K` is.
impl<K: ?Sized, const N: usize> Clone for FixedPlan<K, N> {
    fn clone(&self) -> Self {
        let lane = match &self.lane {
            Lane::One(body) => Lane::One(*body),
            Lane::Many(bodies) => Lane::Many(bodies.clone()),
            Lane::Range(r) => Lane::Range(r.clone()),
            Lane::Ranges(r) => Lane::Ranges(r.clone()),
            Lane::General(scan) => Lane::General(scan.clone()),
        };
        FixedPlan { lane }
    }
}

impl<K: ?Sized, const N: usize> core::fmt::Debug for FixedPlan<K, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        fmt_plan(f, "Scan", self.ranges(), self.is_exact())
    }
}

// The general planner's bindings, out of line: the lane hands a plan over to it only when its
// arrays cannot hold a value, and inlining the general planner here would weigh down the lane's
// own code.

#[cold]
#[inline(never)]
fn general_eq<K: ?Sized, T: KeyField + ?Sized>(
    scan: Scan<K>,
    value: &T,
    mode: FieldMode,
) -> Scan<K> {
    scan.bind_eq(value, mode)
}

#[cold]
#[inline(never)]
fn general_in<K: ?Sized, T: KeyField, I: IntoIterator<Item = T>>(
    scan: Scan<K>,
    values: I,
    mode: FieldMode,
) -> Scan<K> {
    scan.bind_in(values, mode)
}

#[cold]
#[inline(never)]
fn general_range<K: ?Sized, T: KeyField + ?Sized>(
    scan: Scan<K>,
    start: Bound<&T>,
    end: Bound<&T>,
    mode: FieldMode,
) -> Scan<K> {
    scan.bind_range(start, end, mode)
}
