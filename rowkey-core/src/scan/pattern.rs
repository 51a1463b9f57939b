//! What a plan knows of its keys' bytes beyond its ranges: where a hash prefix whose sources are
//! not bound puts matching keys anywhere in the table (the plan's one range is the whole table),
//! the fields bound after the prefix still sit at a known offset, right behind it. A store's own
//! row filter (HBase's `FuzzyRowFilter`) tests those bytes where the rows are, and ships only the
//! rows that hold them.

use alloc::vec::Vec;

use super::plan::{FieldPlan, Tail};
use super::scan_layout::ScanLayout;
use crate::prefix::Prefix;

/// Bytes every key a plan matches holds at one offset: one of [`alternatives`](Self::alternatives)
/// starting at [`offset`](Self::offset), whatever the bytes before it (a hash of fields the query
/// does not bind). From [`Scan::pattern`](crate::Scan::pattern), for a store that filters rows
/// by bytes at fixed positions (HBase's `FuzzyRowFilter`).
///
/// A pattern is never narrower than its plan: every key the plan matches holds one alternative.
/// When [`is_exact`](Self::is_exact), a key of the layout inside the plan's ranges that holds one
/// matches the plan; otherwise [`Scan::matches`](crate::Scan::matches) has the last word.
///
/// ```
/// use rowkey::{RowKey, Scan};
///
/// #[derive(RowKey)]
/// struct Reading {
///     metric: u16,
///     #[rowkey(hash_prefix(len = 2))]
///     sensor: u32,
/// }
///
/// // Keys are [hash of sensor: 2 bytes][metric: 2][sensor: 4]: metric 7 is at offset 2.
/// let plan: Scan<Reading> = Reading::scan().metric_in([7, 9]).into();
/// let pattern = plan.pattern().unwrap();
/// assert_eq!(pattern.offset(), 2);
/// assert_eq!(pattern.alternatives().collect::<Vec<_>>(), [&[0, 7][..], &[0, 9][..]]);
/// assert!(pattern.is_exact());
/// let key = Reading { metric: 9, sensor: 40 }.to_vec()?;
/// assert!(pattern.matches(&key) && plan.matches(&key));
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct KeyPattern {
    offset: usize,
    /// Sorted, distinct, none empty.
    alternatives: Vec<Vec<u8>>,
    exact: bool,
}

impl KeyPattern {
    /// Where the bytes start in a key: the bytes before are unknown.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The byte strings one of which every matching key holds at [`offset`](Self::offset):
    /// sorted, distinct, none empty (an `IN` list gives one each).
    pub fn alternatives(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.alternatives.iter().map(Vec::as_slice)
    }

    /// Whether the pattern says all the plan asks: a key of the layout inside the plan's
    /// ranges that holds one alternative at the offset matches. False when the query also
    /// bounds a field by a range, a text filter or a value no stored value can be placed
    /// against, or when a key holding the bytes could go on where the plan's key ends.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Whether `key` holds one of the alternatives at the offset.
    pub fn matches(&self, key: &[u8]) -> bool {
        let Some(rest) = key.get(self.offset..) else {
            return false;
        };
        self.alternatives.iter().any(|a| rest.starts_with(a))
    }
}

impl FieldPlan {
    /// The pattern of a plan whose prefix component is a hash it cannot compute (its sources are
    /// not all bound) and that binds fields after it; `None` for every other plan, whose ranges
    /// already hold what it knows.
    pub(crate) fn pattern(&self, layout: &ScanLayout) -> Option<KeyPattern> {
        let Prefix::Hash(hash) = layout.prefix else {
            return None;
        };
        if self.eq_bound == 0 || self.prefix_known(layout) {
            return None;
        }
        // A key with every field bound is that key alone: keys that go on past it hold its
        // bytes too, unless every key has one length.
        let whole_key_alone = self.is_point(layout) && !layout.fixed;
        let mut exact = self.widened.is_none() && !whole_key_alone;
        match self.tail {
            Tail::Open => {}
            Tail::Range { .. } | Tail::TextFilter { .. } => exact = false,
            // An empty plan has nothing to read; spans and stops are the array lane's, which
            // takes no layout with a prefix.
            Tail::Empty | Tail::Spans(_) | Tail::Stop(_) => return None,
        }
        let delimiter = layout.delimiter().as_bytes();
        let mut alternatives: Vec<Vec<u8>> = Vec::with_capacity(self.alts.as_slice().len());
        for alt in self.alts.as_slice() {
            // As the shortest key with these fields starts (a Phoenix key leaves out the
            // separators before trailing NULLs): a longer key holds those bytes too, or others.
            let body = alt.shortest();
            exact &= body.len() == alt.body.len();
            let mut bytes = delimiter.to_vec();
            bytes.extend_from_slice(body);
            alternatives.push(bytes);
        }
        alternatives.sort_unstable();
        alternatives.dedup();
        alternatives.retain(|a| !a.is_empty());
        if alternatives.is_empty() {
            return None;
        }
        Some(KeyPattern {
            offset: layout.tag.encoded_len() + hash.prefix_len(),
            alternatives,
            exact,
        })
    }
}
