//! The binding methods of a derived key's scan builder, one generic step each: a generated method
//! is `bind_eq(self, &value, mode)` and its signature. Each step casts the state to the one whose
//! field it binds ([`At`]: on a struct key every state has every field's methods, bounded on
//! being that field's state), binds on the planner it holds, and wraps the planner in the state
//! the method returns.

use core::ops::RangeBounds;

use super::misuse::At;
use crate::field::{FieldMode, KeyField};
use crate::scan::{Bind, Builder, Marker, ScanLayout, ScanStep, ValueOrder};

/// The planner a state holds.
type PlanOf<S> = <<S as Builder>::Next as Marker<<S as Builder>::Key>>::Plan;

/// The first state of `K::scan()`: a plan over the whole table of `layout`.
#[inline(always)]
pub fn start<S: Builder>(layout: &'static ScanLayout) -> S
where
    PlanOf<S>: Bind,
{
    S::from_step(ScanStep::new(<PlanOf<S> as Bind>::start(layout)))
}

/// Writes each binding step with the bounds they all share, once: `S` casts to `H`, the state
/// whose field the step binds, and `To` is the state after it, holding the planner `$plan` (the
/// same planner, or its `Ranged` form once a range or a prefix ends the scan).
macro_rules! steps {
    ($(
        $(#[$doc:meta])*
        pub fn $name:ident<$($g:ident),*>($state:ident, $($arg:ident: $ty:ty),*) -> $plan:ty
        where { $($bounds:tt)* }
        $body:block
    )*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<S, H, To, $($g),*>($state: S, $($arg: $ty),*) -> To
        where
            S: At<H>,
            H: Builder,
            PlanOf<H>: Bind,
            To: Builder<Key = H::Key>,
            To::Next: Marker<H::Key, Plan = $plan>,
            $($bounds)*
        $body
    )*};
}

steps! {
    /// `.f(value)`: the next field equals `value`.
    pub fn bind_eq<T>(state, value: &T, mode: FieldMode) -> PlanOf<H>
    where { T: KeyField + ?Sized }
    {
        To::from_step(ScanStep::new(plan(state).bind_eq(value, mode)))
    }

    /// `.f_in(values)`: the next field is any of `values`.
    pub fn bind_in<T, I>(state, values: I, mode: FieldMode) -> PlanOf<H>
    where { T: KeyField, I: IntoIterator<Item = T> }
    {
        To::from_step(ScanStep::new(plan(state).bind_in(values, mode)))
    }

    /// `.f_in(values)` of a string field: anything that views as `str`.
    pub fn bind_in_str<I>(state, values: I, mode: FieldMode) -> PlanOf<H>
    where { I: IntoIterator, I::Item: AsRef<str> }
    {
        To::from_step(ScanStep::new(plan(state).bind_in_str(values, mode)))
    }

    /// `.f_in(values)` of a bytes field: anything that views as `[u8]`.
    pub fn bind_in_bytes<I>(state, values: I, mode: FieldMode) -> PlanOf<H>
    where { I: IntoIterator, I::Item: AsRef<[u8]> }
    {
        To::from_step(ScanStep::new(plan(state).bind_in_bytes(values, mode)))
    }

    /// `.f_range(range)`: the next field lies in `range`, in its own order; ends the scan.
    pub fn bind_range<T, R>(state, range: R, mode: FieldMode) -> <PlanOf<H> as Bind>::Ranged
    where { T: KeyField + ?Sized, R: RangeBounds<T> }
    {
        bind_range_by(state, range, mode, ValueOrder::UNKNOWN)
    }

    /// [`bind_range`] of a field of a type the derive does not know: `order` compares a decoded
    /// value with a bound the plan cannot place among the stored values, so that `matches` stays
    /// the query.
    pub fn bind_range_by<T, R>(state, range: R, mode: FieldMode, order: ValueOrder<T>)
        -> <PlanOf<H> as Bind>::Ranged
    where { T: KeyField + ?Sized, R: RangeBounds<T> }
    {
        To::from_step(ScanStep::new(plan(state).bind_range_of(range, mode, order)))
    }

    /// `.f_prefix(prefix)`: the next field, a string or bytes, starts with `prefix`; ends the scan.
    pub fn bind_prefix<P>(state, prefix: &P, mode: FieldMode) -> <PlanOf<H> as Bind>::Ranged
    where { P: AsRef<[u8]> + ?Sized }
    {
        To::from_step(ScanStep::new(plan(state).bind_prefix(prefix.as_ref(), mode)))
    }
}

/// The planner of `state`, cast to the state `H` whose field is bound next.
#[inline(always)]
fn plan<S: At<H>, H: Builder>(state: S) -> PlanOf<H> {
    state.at().into_step().into_plan()
}
