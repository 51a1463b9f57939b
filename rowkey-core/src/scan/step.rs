//! The states of a derived key's scan builder (`K::scan()`), written once here for every key: a
//! generated state is a newtype of [`ScanStep`], which holds the planner and answers the plan
//! methods, and the derive adds only the binding methods of each field. Generated code reaches
//! this through `rowkey::__private`; not a public API.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use super::bind::{Marker, Plan};
use super::range::Ranges;
use super::Scan;

/// A state of a derived key's scan builder over keys `K`, whose marker `N` names the field to
/// bind next (or a finished plan) and the planner the state holds. The generated state type
/// dereferences to it, so every state has these methods.
#[doc(hidden)] // the derive's protocol
pub struct ScanStep<K: ?Sized, N: Marker<K>> {
    plan: N::Plan,
    next: PhantomData<fn() -> N>,
}

impl<K: ?Sized, N: Marker<K>> ScanStep<K, N> {
    /// The state holding `plan`.
    #[inline(always)]
    pub fn new(plan: N::Plan) -> Self {
        ScanStep {
            plan,
            next: PhantomData,
        }
    }

    /// The planner the state holds.
    #[inline(always)]
    pub fn into_plan(self) -> N::Plan {
        self.plan
    }

    /// The ranges to scan, sorted and not overlapping: see [`Scan::ranges`].
    #[inline]
    pub fn ranges(&self) -> Ranges {
        self.plan.plan_ranges()
    }

    /// Exactly whether `key` satisfies the scan: see [`Scan::matches`].
    #[inline]
    pub fn matches(&self, key: &[u8]) -> bool {
        self.plan.plan_matches(key)
    }

    /// Whether every key inside `ranges()` matches: see [`Scan::is_exact`].
    #[inline]
    pub fn is_exact(&self) -> bool {
        self.plan.plan_is_exact()
    }

    /// The same scan over the keys strictly after `key`: see [`Scan::after`].
    #[inline]
    pub fn after(&self, key: &[u8]) -> Scan<K> {
        self.plan.plan_after(key)
    }

    /// The scan cut into one scan per region: see [`Scan::split`].
    #[inline]
    pub fn split<B: AsRef<[u8]>>(&self, boundaries: impl IntoIterator<Item = B>) -> Vec<Scan<K>> {
        self.plan.plan_split(boundaries)
    }

    /// The bytes of salt that start every key: see [`Scan::salt_len`].
    #[inline]
    pub fn salt_len(&self) -> usize {
        self.plan.plan_salt_len()
    }
}

impl<K: ?Sized, N: Marker<K>> Clone for ScanStep<K, N> {
    #[inline]
    fn clone(&self) -> Self {
        ScanStep::new(self.plan.clone())
    }
}

impl<K: ?Sized, N: Marker<K>> fmt::Debug for ScanStep<K, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.plan, f)
    }
}

/// A generated state type: a newtype of [`ScanStep`]. Through it the binding steps
/// (`rowkey::__private::bind_*`) take one state and give the next, and every state converts into
/// the [`Scan`] of the same query (one impl here rather than one per key).
#[doc(hidden)] // the derive's protocol
pub trait Builder: Sized {
    /// The key type the plan scans.
    type Key: ?Sized;
    /// The marker of the state.
    type Next: Marker<Self::Key>;

    /// The state of `step`.
    fn from_step(step: ScanStep<Self::Key, Self::Next>) -> Self;

    /// The step the state wraps.
    fn into_step(self) -> ScanStep<Self::Key, Self::Next>;
}

// Hidden: its bound names the derive's protocol. The derive's docs say every state converts.
#[doc(hidden)]
impl<S: Builder> From<S> for Scan<S::Key> {
    #[inline]
    fn from(state: S) -> Self {
        state.into_step().into_plan().into_scan()
    }
}
