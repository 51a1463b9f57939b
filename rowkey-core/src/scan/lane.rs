//! The array lane of scan planning: a layout without a salt, hash prefix, tag or text format.
//! The bound fields' bytes go into an array at offsets the compiler knows (of the key's length
//! when every key has one, or of a capacity for keys that vary, the few longer ones leaving the
//! lane as they are bound), a range on the next field writes its start and stop in place, and an
//! IN list's alternatives of one length are arrays sorted eight bytes per comparison.
//!
//! What the lane does not hold it hands to the general planner, which plans the same ranges: a
//! string prefix, a bound the field cannot store, an IN list whose values differ in length, a key
//! longer than the arrays, or a layout that turned out not to be what the derive saw.
//! Both lanes build, merge and search their ranges with the same code (`range.rs`, `byte_order.rs`),
//! and resume and split through the same [`Scan`]; `tests/scan_lanes.rs` checks them against each
//! other and brute force, on fixed layouts and on ones whose keys vary in length. Not public types:
//! generated builder states hold them, and users see the
//! state's methods and [`Scan`]. Two types, not one: a state is moved through every builder step,
//! and an enum of the bound fields or the final ranges would be moved through memory where each of
//! these stays in registers.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ops::Bound;

use super::array::{merged, range_after, write, ArrayRange, NoRoom, Written};
use super::bind::{Bind, Plan};
use super::byte_order::cmp_short;
use super::order::ValueOrder;
use super::plan::FieldPlan;
use super::range::{sort_by_start, sorted_contain, KeyRange, Ranges, Span};
use super::scan_layout::ScanLayout;
use super::{fmt_plan, Scan};
use crate::field::{FieldMode, KeyField};

/// The planner of a generated builder state for a layout without a prefix component, tag or text
/// format, while fields are bound by value or list: the bound bytes in arrays of `N` bytes (the
/// key's length, or the lane's capacity for keys that vary). A range on the next field finishes
/// it as an [`ArrayRanged`].
pub struct ArrayPlan<K: ?Sized, const N: usize> {
    lane: Lane<K, N>,
}

enum Lane<K: ?Sized, const N: usize> {
    /// One alternative: equalities so far.
    One(Body<N>),
    /// Several: an IN list was bound.
    Many(Bodies<N>),
    /// Boxed so that the array lane stays small to move through the builder's steps. Only what
    /// the arrays cannot hold (see the module docs) takes this lane.
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
/// sorted and distinct. All have the same length (values of another length leave the lane). None:
/// nothing matches.
#[derive(Clone)]
struct Bodies<const N: usize> {
    layout: &'static ScanLayout,
    alts: Vec<[u8; N]>,
    len: usize,
    fields: usize,
}

/// Whether `fields` bound fields are the whole key of a layout whose keys vary in length: then
/// the plan is that one key, not every key that starts with its bytes.
#[inline(always)]
fn whole_key(layout: &ScanLayout, fields: usize) -> bool {
    !layout.fixed && fields >= layout.fields()
}

impl<const N: usize> Body<N> {
    /// The range of every key with the bound bytes (`Ok(None)`: nothing matches).
    #[inline(always)]
    fn range(&self) -> Result<Option<ArrayRange<N>>, NoRoom> {
        if self.empty {
            return Ok(None);
        }
        let whole = whole_key(self.layout, self.fields);
        ArrayRange::of_body(&self.bytes, self.len, whole).map(Some)
    }

    /// Whether `key` has the bound bytes.
    #[inline(always)]
    fn contains(&self, key: &[u8]) -> bool {
        let bound = &self.bytes[..self.len];
        !self.empty
            && if whole_key(self.layout, self.fields) {
                key == bound
            } else {
                key.starts_with(bound)
            }
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
    fn ranges(&self) -> Result<Vec<KeyRange>, NoRoom> {
        let whole = whole_key(self.layout, self.fields);
        // Sorted already; neighbours that touch (01 and 02 -> [01, 03)) are merged.
        Ok(merged(
            self.alts
                .iter()
                .map(|alt| ArrayRange::of_body(alt, self.len, whole))
                .collect::<Result<_, _>>()?,
        ))
    }

    /// Whether `key` has the bound bytes of an alternative.
    fn contains(&self, key: &[u8]) -> bool {
        let whole = whole_key(self.layout, self.fields);
        key.get(..self.len).is_some_and(|head| {
            (!whole || key.len() == self.len)
                && self
                    .alts
                    .binary_search_by(|alt| alt[..self.len].cmp(head))
                    .is_ok()
        })
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

impl<K: ?Sized, const N: usize> ArrayPlan<K, N> {
    /// The general plan of the same bindings.
    fn into_scan(self) -> Scan<K> {
        match self.lane {
            Lane::One(body) => body.into_scan(),
            Lane::Many(bodies) => bodies.into_scan(),
            Lane::General(scan) => *scan,
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
        order: ValueOrder<T>,
    ) -> ArrayRanged<K, N> {
        let (layout, fields) = (body.layout, body.fields + 1);
        if body.empty {
            return ArrayRanged::nothing(layout, fields);
        }
        // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
        let (lower, upper) = if mode.is_desc() {
            (end, start)
        } else {
            (start, end)
        };
        let ends_key = !mode.is_delimited() && !layout.fixed;
        match range_after(&body.bytes, body.len, lower, upper, mode, ends_key) {
            Ok(range) => ArrayRanged {
                layout,
                fields,
                plan: Final::One(range),
            },
            Err(NoRoom) => {
                ArrayRanged::general(general_range(body.into_scan(), start, end, mode, order))
            }
        }
    }

    /// A range on the next field after every alternative of an IN list.
    fn range_after_many<T: KeyField + ?Sized>(
        bodies: Bodies<N>,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
        order: ValueOrder<T>,
    ) -> ArrayRanged<K, N> {
        let (layout, fields) = (bodies.layout, bodies.fields + 1);
        let (lower, upper) = if mode.is_desc() {
            (end, start)
        } else {
            (start, end)
        };
        let ends_key = !mode.is_delimited() && !layout.fixed;
        let mut ranges: Vec<ArrayRange<N>> = Vec::with_capacity(bodies.alts.len());
        for alt in &bodies.alts {
            match range_after(alt, bodies.len, lower, upper, mode, ends_key) {
                Ok(range) => ranges.extend(range),
                Err(NoRoom) => {
                    return ArrayRanged::general(general_range(
                        bodies.into_scan(),
                        start,
                        end,
                        mode,
                        order,
                    ))
                }
            }
        }
        // Alternatives are sorted; a bound past a value's last key can reorder starts.
        sort_by_start(&mut ranges);
        ArrayRanged {
            layout,
            fields,
            plan: Final::Many(merged(ranges)),
        }
    }
}

impl<K: ?Sized, const N: usize> Bind for ArrayPlan<K, N> {
    type Ranged = ArrayRanged<K, N>;

    #[inline(always)]
    fn start(layout: &'static ScanLayout) -> Self {
        // Keys of one length, or of lengths up to `N` (longer ones leave the lane as they are
        // bound), behind no prefix component or tag. Which keys the lane takes is the lane's own
        // rule, not a format's: a text key's segments need the general planner's filters.
        let lane = if layout.prefix.is_none() && layout.text.is_none() && layout.tag.is_none() {
            Lane::One(Body {
                layout,
                bytes: [0; N],
                len: 0,
                fields: 0,
                empty: false,
            })
        } else {
            Lane::General(Box::new(Scan::start(layout)))
        };
        ArrayPlan { lane }
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
                            let scan = general_eq(body.into_scan(), value, mode);
                            return ArrayPlan {
                                lane: Lane::General(Box::new(scan)),
                            };
                        }
                    }
                }
                body.fields += 1;
                Lane::One(body)
            }
            Lane::Many(bodies) => bind_eq_many(bodies, value, mode),
            Lane::General(scan) => Lane::General(Box::new(general_eq(*scan, value, mode))),
        };
        ArrayPlan { lane }
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
            Lane::General(scan) => {
                return ArrayPlan {
                    lane: Lane::General(Box::new(general_in(*scan, values, mode))),
                };
            }
        };
        let mut alts: Vec<[u8; N]> = Vec::with_capacity(base.len().saturating_mul(values.len()));
        let mut width = None;
        for value in &values {
            for alt in &base {
                let mut alt = *alt;
                match write(value, &mut alt[len..], mode) {
                    // The lane keeps alternatives of one length; values of varying widths (strings)
                    // leave it for the general planner.
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
                        let scan = general_in(bodies.into_scan::<K>(), values, mode);
                        return ArrayPlan {
                            lane: Lane::General(Box::new(scan)),
                        };
                    }
                }
            }
        }
        // Duplicate values give equal alternatives; removing them keeps `ranges` proportional to
        // the distinct values. Bytes past the bound ones are zero in every alternative, so whole
        // arrays compare as their bound bytes do.
        alts.sort_unstable_by(|a, b| cmp_short(a, b));
        alts.dedup();
        ArrayPlan {
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
        order: ValueOrder<T>,
    ) -> ArrayRanged<K, N> {
        match self.lane {
            Lane::One(body) => ArrayPlan::range_after_one(body, start, end, mode, order),
            Lane::Many(bodies) => ArrayPlan::range_after_many(bodies, start, end, mode, order),
            Lane::General(scan) => {
                ArrayRanged::general(general_range(*scan, start, end, mode, order))
            }
        }
    }

    fn bind_prefix(self, prefix: &[u8], mode: FieldMode) -> ArrayRanged<K, N> {
        ArrayRanged::general(self.into_scan().bind_prefix(prefix, mode))
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

impl<K: ?Sized, const N: usize> Plan for ArrayPlan<K, N> {
    type Key = K;

    #[inline(always)]
    fn plan_ranges(&self) -> Ranges {
        match &self.lane {
            Lane::One(body) => match body.range() {
                Ok(Some(range)) => Ranges::one(range.to_key_range()),
                Ok(None) => Ranges::none(),
                Err(NoRoom) => self.clone().into_scan().ranges(),
            },
            Lane::Many(bodies) => match bodies.ranges() {
                Ok(ranges) => Ranges::many(ranges),
                Err(NoRoom) => self.clone().into_scan().ranges(),
            },
            Lane::General(scan) => scan.ranges(),
        }
    }

    fn plan_matches(&self, key: &[u8]) -> bool {
        match &self.lane {
            Lane::One(body) => body.contains(key),
            Lane::Many(bodies) => bodies.contains(key),
            Lane::General(scan) => scan.matches(key),
        }
    }

    fn plan_is_exact(&self) -> bool {
        match &self.lane {
            Lane::One(_) | Lane::Many(_) => true,
            Lane::General(scan) => scan.is_exact(),
        }
    }

    fn plan_salt_len(&self) -> usize {
        match &self.lane {
            Lane::General(scan) => scan.salt_len(),
            _ => 0,
        }
    }

    /// The general plan of the fields bound so far.
    #[inline]
    fn into_scan(self) -> Scan<K> {
        ArrayPlan::into_scan(self)
    }
}

/// A plan holds only bytes, so it clones whatever `K` is.
impl<K: ?Sized, const N: usize> Clone for ArrayPlan<K, N> {
    fn clone(&self) -> Self {
        let lane = match &self.lane {
            Lane::One(body) => Lane::One(*body),
            Lane::Many(bodies) => Lane::Many(bodies.clone()),
            Lane::General(scan) => Lane::General(scan.clone()),
        };
        ArrayPlan { lane }
    }
}

impl<K: ?Sized, const N: usize> core::fmt::Debug for ArrayPlan<K, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        fmt_plan(f, "Scan", self.plan_ranges(), self.plan_is_exact())
    }
}

/// The planner of an array-lane builder state after a range on a field: its ranges, one range
/// kept as arrays until `ranges()` is asked for.
pub struct ArrayRanged<K: ?Sized, const N: usize> {
    layout: &'static ScanLayout,
    /// The fields bound, the range's included.
    fields: usize,
    plan: Final<K, N>,
}

enum Final<K: ?Sized, const N: usize> {
    /// One range (or none), kept as arrays until `ranges()` is asked for.
    One(Option<ArrayRange<N>>),
    /// The ranges after every alternative of an IN list: sorted, merged, possibly none.
    Many(Vec<KeyRange>),
    /// A plan that left the array lane (boxed, as in [`ArrayPlan`]).
    General(Box<Scan<K>>),
}

impl<K: ?Sized, const N: usize> ArrayRanged<K, N> {
    fn general(scan: Scan<K>) -> Self {
        ArrayRanged {
            layout: scan.layout,
            fields: 0,
            plan: Final::General(Box::new(scan)),
        }
    }

    #[inline(always)]
    fn nothing(layout: &'static ScanLayout, fields: usize) -> Self {
        ArrayRanged {
            layout,
            fields,
            plan: Final::One(None),
        }
    }
}

impl<K: ?Sized, const N: usize> Plan for ArrayRanged<K, N> {
    type Key = K;

    #[inline(always)]
    fn plan_ranges(&self) -> Ranges {
        match &self.plan {
            Final::One(Some(range)) => Ranges::one(range.to_key_range()),
            Final::One(None) => Ranges::none(),
            Final::Many(ranges) => Ranges::many(ranges.clone()),
            Final::General(scan) => scan.ranges(),
        }
    }

    fn plan_matches(&self, key: &[u8]) -> bool {
        match &self.plan {
            Final::One(range) => range.as_ref().is_some_and(|r| r.contains(key)),
            Final::Many(ranges) => sorted_contain(ranges, key),
            Final::General(scan) => scan.matches(key),
        }
    }

    fn plan_is_exact(&self) -> bool {
        match &self.plan {
            Final::One(_) | Final::Many(_) => true,
            Final::General(scan) => scan.is_exact(),
        }
    }

    fn plan_salt_len(&self) -> usize {
        match &self.plan {
            Final::General(scan) => scan.salt_len(),
            _ => 0,
        }
    }

    /// The plan of the same bindings and range: the ranges the lane built.
    fn into_scan(self) -> Scan<K> {
        let spans = match self.plan {
            Final::General(scan) => return *scan,
            Final::One(range) => range.map(ArrayRange::to_key_range).into_iter().collect(),
            Final::Many(ranges) => ranges,
        };
        Scan::with_plan(self.layout, FieldPlan::from_spans(self.fields, spans))
    }
}

impl<K: ?Sized, const N: usize> Clone for ArrayRanged<K, N> {
    fn clone(&self) -> Self {
        let plan = match &self.plan {
            Final::One(range) => Final::One(*range),
            Final::Many(ranges) => Final::Many(ranges.clone()),
            Final::General(scan) => Final::General(scan.clone()),
        };
        ArrayRanged {
            layout: self.layout,
            fields: self.fields,
            plan,
        }
    }
}

impl<K: ?Sized, const N: usize> core::fmt::Debug for ArrayRanged<K, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        fmt_plan(f, "Scan", self.plan_ranges(), self.plan_is_exact())
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
    order: ValueOrder<T>,
) -> Scan<K> {
    scan.bind_range(start, end, mode, order)
}
