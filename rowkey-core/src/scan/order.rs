//! The value order of a field type, for the one case the bytes cannot answer: a range bound the
//! type refuses to store, which nothing places among the stored values (a custom type built with
//! `FieldShape::fixed` whose `encode` refuses some values). The plan then drops the bound and reads
//! more than asked; to keep [`matches`](super::Scan::matches) exactly the query, it decodes the
//! field of each key it is asked about and compares the value with the dropped bound by the type's
//! own `PartialOrd`.
//!
//! Whether a type has that order is known only where the type is named: the generated range
//! method asks a [`Probe`] of the field's type, which answers with a [`ValueOrder`] through
//! whichever of two traits applies (the type's `PartialOrd`, `DecodeField` and ownership, or
//! nothing). A generic field type, or one without those traits, gets no order: its dropped bound
//! leaves `matches` as wide as the ranges.

use alloc::boxed::Box;
use core::marker::PhantomData;
use core::ops::Bound;

use crate::field::{DecodeField, FieldMode};

/// How to compare a decoded value of `T` with bounds of the range it was asked for: a function
/// that makes the filter of the bounds a plan dropped, or none when the type has no such order.
#[doc(hidden)] // the derive's protocol
pub struct ValueOrder<T: ?Sized>(Option<MakeFilter<T>>);

/// Makes the filter that keeps the keys whose field lies within the two bounds.
type MakeFilter<T> = fn(Bound<&T>, Bound<&T>, FieldMode) -> Box<dyn FieldFilter>;

impl<T: ?Sized> ValueOrder<T> {
    /// No order: a dropped bound leaves `matches` as wide as the ranges.
    pub const UNKNOWN: ValueOrder<T> = ValueOrder(None);

    /// The filter of the bounds a plan could not place (each of the others `Unbounded`), or
    /// `None` without an order.
    pub(crate) fn filter(
        &self,
        lower: Bound<&T>,
        upper: Bound<&T>,
        mode: FieldMode,
    ) -> Option<Box<dyn FieldFilter>> {
        self.0.map(|make| make(lower, upper, mode))
    }
}

impl<T: ?Sized> Clone for ValueOrder<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for ValueOrder<T> {}

impl<T: ?Sized> core::fmt::Debug for ValueOrder<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0.is_some() {
            "ValueOrder(PartialOrd)"
        } else {
            "ValueOrder(unknown)"
        })
    }
}

/// A condition on the value of a field, read from its bytes at the start of `field` (the rest of
/// the key from there). Decoding is the type's own `decode_field`; a key whose field does not
/// decode is not a key of the query.
pub(crate) trait FieldFilter: Send + Sync {
    fn accepts(&self, field: &[u8]) -> bool;
    fn clone_box(&self) -> Box<dyn FieldFilter>;
}

impl Clone for Box<dyn FieldFilter> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The dropped bounds of a range, owned, compared by `T`'s `PartialOrd`.
struct OrderFilter<T> {
    lower: Bound<T>,
    upper: Bound<T>,
    mode: FieldMode,
}

impl<T> FieldFilter for OrderFilter<T>
where
    T: PartialOrd + for<'k> DecodeField<'k> + Clone + Send + Sync + 'static,
{
    fn accepts(&self, field: &[u8]) -> bool {
        let Ok((value, _)) = T::decode_field(field, self.mode) else {
            return false;
        };
        let above = match &self.lower {
            Bound::Included(lo) => value >= *lo,
            Bound::Excluded(lo) => value > *lo,
            Bound::Unbounded => true,
        };
        let below = match &self.upper {
            Bound::Included(hi) => value <= *hi,
            Bound::Excluded(hi) => value < *hi,
            Bound::Unbounded => true,
        };
        above && below
    }

    fn clone_box(&self) -> Box<dyn FieldFilter> {
        Box::new(OrderFilter {
            lower: self.lower.clone(),
            upper: self.upper.clone(),
            mode: self.mode,
        })
    }
}

fn make_filter<T>(lower: Bound<&T>, upper: Bound<&T>, mode: FieldMode) -> Box<dyn FieldFilter>
where
    T: PartialOrd + for<'k> DecodeField<'k> + Clone + Send + Sync + 'static,
{
    Box::new(OrderFilter {
        lower: lower.cloned(),
        upper: upper.cloned(),
        mode,
    })
}

/// Asks, where a field's type is named, whether it has a value order: generated code calls
/// `(&&Probe::<T>::NEW).value_order()` with [`ByPartialOrd`] and [`Unordered`] in scope, and
/// method resolution takes the first that applies.
#[doc(hidden)] // the derive's protocol
pub struct Probe<T: ?Sized>(PhantomData<fn() -> *const T>);

impl<T: ?Sized> Probe<T> {
    /// The probe of `T`.
    pub const NEW: Probe<T> = Probe(PhantomData);
}

impl<T: ?Sized> core::fmt::Debug for Probe<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Probe")
    }
}

/// A type with an order of its own, that decodes owned: compared by its `PartialOrd`.
#[doc(hidden)] // the derive's protocol
pub trait ByPartialOrd<T: ?Sized> {
    /// The type's order.
    fn value_order(&self) -> ValueOrder<T>;
}

impl<T> ByPartialOrd<T> for &Probe<T>
where
    T: PartialOrd + for<'k> DecodeField<'k> + Clone + Send + Sync + 'static,
{
    #[inline(always)]
    fn value_order(&self) -> ValueOrder<T> {
        ValueOrder(Some(make_filter::<T>))
    }
}

/// Any other type: no order.
#[doc(hidden)] // the derive's protocol
pub trait Unordered<T: ?Sized> {
    /// No order.
    fn value_order(&self) -> ValueOrder<T>;
}

impl<T: ?Sized> Unordered<T> for Probe<T> {
    #[inline(always)]
    fn value_order(&self) -> ValueOrder<T> {
        ValueOrder::UNKNOWN
    }
}

/// What a plan that dropped a range bound keeps to still answer `matches` exactly.
#[derive(Clone)]
pub(crate) struct Widened {
    /// The dropped bounds compared by the field type's own order; `None` when it has none (then
    /// `matches` is as wide as the ranges).
    filter: Option<Box<dyn FieldFilter>>,
    /// Where the ranged field starts in a key, when one offset holds for the whole plan (a
    /// `Tail::Stop` plan, whose body holds the range's start rather than the bound fields).
    at: Option<usize>,
}

impl Widened {
    /// The record of a range whose start or end (in the field's own order, as `dropped` says)
    /// was dropped.
    #[cold]
    #[inline(never)]
    pub(crate) fn of<T: ?Sized>(
        start: Bound<&T>,
        end: Bound<&T>,
        dropped: [bool; 2],
        mode: FieldMode,
        order: ValueOrder<T>,
        at: Option<usize>,
    ) -> Box<Widened> {
        let start = if dropped[0] { start } else { Bound::Unbounded };
        let end = if dropped[1] { end } else { Bound::Unbounded };
        Box::new(Widened {
            filter: order.filter(start, end, mode),
            at,
        })
    }

    /// Whether the field that starts at `at` (unless the record knows where) passes the
    /// dropped bounds.
    pub(crate) fn accepts(&self, key: &[u8], at: usize) -> bool {
        let Some(filter) = &self.filter else {
            return true;
        };
        key.get(self.at.unwrap_or(at)..)
            .is_some_and(|field| filter.accepts(field))
    }
}
