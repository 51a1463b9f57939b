//! The protocol between a generated scan builder and the planners: what each builder state calls
//! (one call per generated method, so the compiler checks the generic part once, here), and how
//! every state becomes the [`Scan`] it stands for. Reached by generated code through
//! `rowkey::__private`; not a public API.

use core::ops::{Bound, RangeBounds};

use alloc::vec::Vec;

use super::order::ValueOrder;
use super::range::Ranges;
use super::scan_layout::ScanLayout;
use super::Scan;
use crate::error::EncodeError;
use crate::field::{FieldMode, FieldShape, KeyField};
use crate::sink::ValueSink;

/// What every planner a generated builder state holds answers: the plan methods each state
/// offers, one call each, and the [`Scan`] of the same query. Resuming and splitting are planned
/// once, on that `Scan`.
#[doc(hidden)] // the derive's protocol, reached through `__private`
pub trait Plan: Sized + Clone + core::fmt::Debug {
    /// The key type the plan scans.
    type Key: ?Sized;

    /// [`Scan::ranges`] of the plan.
    fn plan_ranges(&self) -> Ranges;

    /// [`Scan::matches`] of the plan.
    fn plan_matches(&self, key: &[u8]) -> bool;

    /// [`Scan::is_exact`] of the plan.
    fn plan_is_exact(&self) -> bool;

    /// [`Scan::salt_len`] of the plan.
    fn plan_salt_len(&self) -> usize;

    /// The [`Scan`] of the same query.
    fn into_scan(self) -> Scan<Self::Key>;

    /// [`Scan::after`], on the [`Scan`] of the same query.
    fn plan_after(&self, key: &[u8]) -> Scan<Self::Key> {
        self.clone().into_scan().after(key)
    }

    /// [`Scan::split`], on the [`Scan`] of the same query.
    fn plan_split<B: AsRef<[u8]>>(
        &self,
        boundaries: impl IntoIterator<Item = B>,
    ) -> Vec<Scan<Self::Key>> {
        self.clone().into_scan().split(boundaries)
    }
}

/// A marker of a generated builder state over keys `K`, naming the field to bind next (or a
/// finished plan), and the planner the state holds there: the one that binds, or after a range
/// its ranged form. The planner's key is part of the trait, so that the state's impls need no
/// `where` clause on it (each one was work for the compiler in every crate that derives).
/// Generated code implements [`Marked`] instead, the same fact with the key as `Self`.
#[doc(hidden)] // the derive's protocol, reached through `__private`
pub trait Marker<K: ?Sized> {
    /// The planner of the state this marks.
    type Plan: Plan<Key = K>;
}

/// [`Marker`] as generated code states it: implemented by the key for each of its markers. A
/// marker is named after its field; as the `Self` of an impl in the deriving crate, a field
/// renamed would change which types the trait's impls are for, and an incremental build would
/// check every key's builder again (0.87 s against 0.47 s for the 50-layout benchmark crate). As
/// a parameter of the key's impl, it changes that one key's impl.
#[doc(hidden)] // the derive's protocol, reached through `__private`
pub trait Marked<N> {
    /// The planner of the state `N` marks.
    type Plan: Plan<Key = Self>;
}

impl<K: Marked<N> + ?Sized, N> Marker<K> for N {
    type Plan = <K as Marked<N>>::Plan;
}

/// What a generated builder state calls on its planner (the general one, [`Scan`], or the
/// array lane) to bind the next field.
#[doc(hidden)] // the derive's protocol, reached through `__private`
pub trait Bind: Plan {
    /// What a range or prefix on the next field finishes the plan as.
    type Ranged: Plan<Key = Self::Key>;

    /// A plan over the whole table of the layout: where the generated `K::scan()` starts.
    fn start(layout: &'static ScanLayout) -> Self;

    /// Binds the next field to `value`, placed with `mode`.
    fn bind_eq<T: KeyField + ?Sized>(self, value: &T, mode: FieldMode) -> Self;

    /// Binds the next field to any of `values`, placed with `mode`.
    fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(self, values: I, mode: FieldMode) -> Self;

    /// Restricts the next field to values between `start` and `end` (in the field's own order),
    /// placed with `mode`. Ends the plan. `order` compares a decoded value with a bound the plan
    /// cannot place among the stored values, so that `matches` stays the query.
    fn bind_range<T: KeyField + ?Sized>(
        self,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
        order: ValueOrder<T>,
    ) -> Self::Ranged;

    /// Restricts the next field, a string or bytes field placed with `mode`, to content that
    /// starts with `prefix`. Ends the plan.
    fn bind_prefix(self, prefix: &[u8], mode: FieldMode) -> Self::Ranged;

    /// [`bind_range`](Bind::bind_range) from any `RangeBounds`. A bound the field rounds when it
    /// stores it ([`KeyField::stores_exactly`]: a time finer than its unit) keeps exactly the
    /// stored values within it: `>= v` becomes `>` v's stored value, `< v` becomes `<=` it.
    #[inline]
    fn bind_range_of<T: KeyField + ?Sized, R: RangeBounds<T>>(
        self,
        range: R,
        mode: FieldMode,
        order: ValueOrder<T>,
    ) -> Self::Ranged {
        let start = match range.start_bound() {
            Bound::Included(v) if !v.stores_exactly(mode) => Bound::Excluded(v),
            bound => bound,
        };
        let end = match range.end_bound() {
            Bound::Excluded(v) if !v.stores_exactly(mode) => Bound::Included(v),
            bound => bound,
        };
        self.bind_range(start, end, mode, order)
    }

    /// [`bind_in`](Bind::bind_in) for a string field: anything that yields `AsRef<str>`.
    #[inline]
    fn bind_in_str<I>(self, values: I, mode: FieldMode) -> Self
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        self.bind_in(values.into_iter().map(StrValue), mode)
    }

    /// [`bind_in`](Bind::bind_in) for a bytes field: anything that yields `AsRef<[u8]>`.
    #[inline]
    fn bind_in_bytes<I>(self, values: I, mode: FieldMode) -> Self
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        self.bind_in(values.into_iter().map(BytesValue), mode)
    }
}

/// An IN-list item of a string field: anything that views as `str` keys as its content.
struct StrValue<T>(T);

/// An IN-list item of a bytes field: anything that views as `[u8]` keys as its content.
struct BytesValue<T>(T);

/// `KeyField` for a wrapper that views its value as `$target`.
macro_rules! view_field {
    ($wrapper:ident, $target:ty) => {
        impl<T: AsRef<$target>> KeyField for $wrapper<T> {
            const SHAPE: FieldShape = <$target as KeyField>::SHAPE;

            #[inline]
            fn field_len(&self, mode: FieldMode) -> usize {
                self.0.as_ref().field_len(mode)
            }

            #[inline]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                self.0.as_ref().encode(out, mode)
            }

            #[inline]
            fn value_bytes<S: ValueSink + ?Sized>(
                &self,
                mode: FieldMode,
                sink: &mut S,
            ) -> Result<(), EncodeError> {
                self.0.as_ref().value_bytes(mode, sink)
            }
        }
    };
}

view_field!(StrValue, str);
view_field!(BytesValue, [u8]);
