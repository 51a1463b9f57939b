//! The general planner: a plan built field by field, as alternatives (every combination of the
//! values bound by equality and IN lists) and the constraint on the field after them, turned into
//! key ranges behind the prefix component (one range per salt bucket, or only the buckets the bound
//! sources give).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ops::Bound;

use super::alts::{append, sorted_distinct, Alt, Alts};
use super::bound::{encode_bound, in_byte_order, prefix_range, range_tail, Edge, EncodedRange};
use super::byte_order::cmp_short;
use super::keybuf::KeyBuf;
use super::order::{ValueOrder, Widened};
use super::range::{merge, sort_by_start, sorted_contain, KeyRange, Ranges};
use super::scan_layout::ScanLayout;
use super::text_segments::{self, TextFilter, TextPrefix};
use crate::codec::columns::Held;
use crate::field::{FieldMode, KeyField};
use crate::prefix::{Prefix, Salt};
use crate::sink::ValueSink;

/// The constraint after the bound run of fields.
#[derive(Clone)]
pub(crate) enum Tail {
    /// Nothing more: every key that starts with the bound fields.
    Open,
    /// A range on the next field, in encoded space.
    Range {
        range: EncodedRange,
        /// Whether the field is the last of the key (its bytes run to the end).
        last: bool,
    },
    /// No key can match (an empty range, an empty IN list, a prefix longer than a width).
    Empty,
    /// The ranges the array lane planned for every field bound so far, sorted and merged:
    /// how a plan of that lane becomes a `Scan` without planning again.
    Spans(Vec<KeyRange>),
    /// The plan is one range, from the alternative's body (which then holds the range's start) to
    /// this stop: a plan of one alternative without a prefix component finishes its range as the
    /// range is bound, writing each bound once, in place.
    Stop(KeyBuf),
    /// A text string that other segments follow: its bytes do not sort as its content, so the plan
    /// covers every key with the bound fields and `matches` reads the segment.
    TextFilter {
        /// Boxed: filters are rare, and the plan is moved through every builder step.
        filter: Box<TextFilter>,
        /// The segment's width, or `None` when the delimiter ends it.
        width: Option<usize>,
    },
}

/// A plan built field by field.
#[derive(Clone)]
pub(crate) struct FieldPlan {
    pub(crate) alts: Alts,
    /// Leading fields fixed by equality or IN.
    pub(crate) eq_bound: usize,
    pub(crate) tail: Tail,
    /// A range bound was dropped for want of a place among the stored values: the plan is wider
    /// than the query. Boxed: bounds are nearly always placed, and the plan is moved through
    /// every builder step.
    pub(crate) widened: Option<Box<Widened>>,
}

impl FieldPlan {
    /// A plan with nothing bound: every key of the layout.
    #[inline]
    pub(crate) fn new() -> FieldPlan {
        FieldPlan {
            alts: Alts::One(Alt::new(KeyBuf::new())),
            eq_bound: 0,
            tail: Tail::Open,
            widened: None,
        }
    }

    /// The plan of ranges the array lane built (sorted, merged, possibly none) after
    /// binding every field it saw.
    pub(crate) fn from_spans(fields: usize, spans: Vec<KeyRange>) -> FieldPlan {
        FieldPlan {
            alts: Alts::One(Alt::new(KeyBuf::new())),
            eq_bound: fields,
            tail: Tail::Spans(spans),
            widened: None,
        }
    }

    /// A plan whose first `fields` fields are bound by equality (or IN) to the encoded `bodies`,
    /// given sorted and distinct; nothing matches when there are none, or when `empty`.
    pub(crate) fn with_bodies<'b>(
        mut bodies: impl ExactSizeIterator<Item = &'b [u8]>,
        fields: usize,
        empty: bool,
    ) -> FieldPlan {
        let empty = empty || bodies.len() == 0;
        let alt = |body: &[u8]| Alt::new(KeyBuf::from_slice(body));
        // One alternative stays inline: a plan without IN lists allocates nothing.
        let alts = if bodies.len() <= 1 {
            Alts::One(alt(bodies.next().unwrap_or_default()))
        } else {
            Alts::Many(bodies.map(alt).collect())
        };
        FieldPlan {
            alts,
            eq_bound: fields,
            tail: if empty { Tail::Empty } else { Tail::Open },
            widened: None,
        }
    }
}

impl FieldPlan {
    /// Whether the next field feeds the salt or hash prefix.
    fn next_is_source(&self, layout: &ScanLayout) -> bool {
        !layout.whole_key && layout.is_source(self.eq_bound)
    }

    #[inline(always)]
    pub(crate) fn bind_eq<T: KeyField + ?Sized>(
        &mut self,
        layout: &ScanLayout,
        value: &T,
        mode: FieldMode,
    ) {
        let source = self.next_is_source(layout);
        let failed = match &mut self.alts {
            // One alternative, the common plan: inlined whole, so the field's mode folds into
            // its encoding.
            Alts::One(alt) => append(alt, value, mode, source).is_err(),
            Alts::Many(alts) => {
                let mut failed = false;
                for alt in alts {
                    failed |= append(alt, value, mode, source).is_err();
                }
                failed
            }
        };
        self.after_bind(failed);
    }

    pub(crate) fn bind_in<T: KeyField, I: IntoIterator<Item = T>>(
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

    #[inline(always)]
    pub(crate) fn bind_range<T: KeyField + ?Sized>(
        &mut self,
        layout: &ScanLayout,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
        order: ValueOrder<T>,
    ) {
        if matches!(self.tail, Tail::Empty) {
            return;
        }
        if text_segments::segment_unordered::<T>(mode) {
            self.tail = Tail::TextFilter {
                filter: Box::new(TextFilter::range(start, end, mode)),
                width: mode.width(),
            };
            return;
        }
        // (Not a Phoenix key's: its range ends leave out the separators a key may not have.)
        if let (Alts::One(alt), Prefix::None, false) =
            (&mut self.alts, layout.prefix, mode.is_phoenix())
        {
            // The common plan: its one range, finished now.
            let [(first, first_is_lower), (second, second_is_lower)] =
                in_byte_order(start, end, mode);
            let at = alt.body.len();
            // Each end written once, in place: the stop copies the body, then both take their
            // bound's bytes.
            self.tail = Tail::Stop(alt.body.clone());
            let Tail::Stop(hi) = &mut self.tail else {
                return;
            };
            let lo = &mut alt.body;
            let ends = encode_bound(first, mode, first_is_lower, lo).and_then(|lower| {
                encode_bound(second, mode, second_is_lower, hi).map(|upper| (lower, upper))
            });
            let ends = ends.filter(|((lower, ..), (upper, ..))| {
                let last = !mode.is_delimited();
                close_range(lo, *lower, hi, *upper, last, layout.fixed)
            });
            match ends {
                Some(((_, lo_widened, _), (_, hi_widened, _))) => {
                    if lo_widened || hi_widened {
                        let dropped = by_value_order([lo_widened, hi_widened], first_is_lower);
                        self.widened =
                            Some(Widened::of(start, end, dropped, mode, order, Some(at)));
                    }
                }
                None => self.tail = Tail::Empty,
            }
            return;
        }
        self.tail = match range_tail(start, end, mode) {
            Some((range, widened)) => {
                if widened.contains(&true) {
                    let lower_first = !mode.is_desc();
                    let dropped = by_value_order(widened, lower_first);
                    self.widened = Some(Widened::of(start, end, dropped, mode, order, None));
                }
                Tail::Range {
                    range,
                    last: !mode.is_delimited(),
                }
            }
            None => Tail::Empty,
        };
    }

    pub(crate) fn bind_prefix(&mut self, prefix: &[u8], mode: FieldMode) {
        if matches!(self.tail, Tail::Empty) {
            return;
        }
        // Prefix bounds are partial encodings: "at or before E" takes every key that starts
        // with E, so they are never the last field's whole bytes.
        let range = |range| Tail::Range { range, last: false };
        // A text segment's "starts with" can be a filter, a tail the planner holds (`Tail`, the
        // planner's own type, which a format's folder below it cannot name).
        self.tail = if mode.is_text() {
            match text_segments::prefix_of_segment(prefix, mode) {
                TextPrefix::Nothing => Tail::Empty,
                TextPrefix::Range(r) => range(r),
                TextPrefix::Filter(filter, width) => Tail::TextFilter {
                    filter: Box::new(filter),
                    width,
                },
            }
        } else {
            prefix_range(prefix, mode).map_or(Tail::Empty, range)
        };
    }

    /// Whether every field is fixed by equality: the plan is a set of point lookups.
    pub(crate) fn is_point(&self, layout: &ScanLayout) -> bool {
        self.eq_bound >= layout.fields() && matches!(self.tail, Tail::Open)
    }

    /// Whether every source of the prefix is fixed by equality or IN, so each alternative's
    /// prefix is known.
    pub(crate) fn prefix_known(&self, layout: &ScanLayout) -> bool {
        if layout.whole_key {
            return self.is_point(layout);
        }
        let fixed = self.eq_bound.min(layout.fields());
        !layout.has_source_from(fixed)
    }

    /// Whether the plan constrains anything at all.
    fn is_unconstrained(&self) -> bool {
        self.eq_bound == 0 && matches!(self.tail, Tail::Open)
    }

    pub(crate) fn is_exact(&self, layout: &ScanLayout) -> bool {
        if self.widened.is_some() || matches!(self.tail, Tail::TextFilter { .. }) {
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

    pub(crate) fn matches(&self, layout: &ScanLayout, key: &[u8]) -> bool {
        match (&self.tail, &self.alts) {
            (Tail::Spans(spans), _) => return sorted_contain(spans, key),
            (Tail::Stop(stop), Alts::One(alt)) => {
                return in_range(alt.body.as_slice(), stop, key) && self.value_accepts(key, 0)
            }
            _ => {}
        }
        let plen = layout.prefix_len();
        let Some(prefix) = key.get(..plen) else {
            return false;
        };
        let known = self.prefix_known(layout);
        self.alts.as_slice().iter().any(|alt| {
            // The alternative's own prefix when the plan fixes it (computed once: a hash prefix
            // is a digest), which the key's must be; otherwise the key's own, if allowed.
            let expected = if known {
                let own = prefix_of(layout, alt);
                if prefix != own.as_slice() {
                    return false;
                }
                own
            } else if prefix_allowed(layout, prefix) {
                KeyBuf::from_slice(prefix)
            } else {
                return false;
            };
            self.range_of(layout, alt, expected.as_slice())
                .is_some_and(|r| r.contains(key))
                && self.filter_accepts(layout, key, plen + alt.body.len())
                && self.value_accepts(key, plen + alt.body.len())
        })
    }

    /// For a plan that dropped a range bound: whether the ranged field, at `at` unless the plan
    /// knows where, passes it by the field type's own order.
    #[inline]
    fn value_accepts(&self, key: &[u8], at: usize) -> bool {
        self.widened.as_ref().map_or(true, |w| w.accepts(key, at))
    }

    /// For a text filter: whether the segment that starts at `at` passes it.
    fn filter_accepts(&self, layout: &ScanLayout, key: &[u8], at: usize) -> bool {
        let Tail::TextFilter { filter, width } = &self.tail else {
            return true;
        };
        let rest = key.get(at..).unwrap_or_default();
        filter.accepts(text_segments::segment_content(
            rest,
            *width,
            layout.delimiter(),
        ))
    }

    /// The range of a plan of one range made whole as it was bound (see [`Tail::Stop`]).
    #[inline(always)]
    pub(crate) fn single_range(&self) -> Option<KeyRange> {
        match (&self.tail, &self.alts) {
            (Tail::Stop(stop), Alts::One(alt)) => {
                Some(KeyRange::from_bufs(alt.body.clone(), stop.clone()))
            }
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn ranges(&self, layout: &ScanLayout) -> Ranges {
        if let Tail::Spans(spans) = &self.tail {
            return Ranges::many(spans.clone());
        }
        if let Some(range) = self.single_range() {
            return Ranges::one(range);
        }
        let prefix = layout.prefix;
        let known = self.prefix_known(layout);
        // A hash prefix whose sources are not all bound could be anything: every key of the table
        // may hold a match. (Other plans that are not exact, a text filter or a dropped bound,
        // still narrow by their bound fields and salt buckets below.)
        if matches!(prefix, Prefix::Hash(_)) && !known {
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
        sort_by_start(&mut ranges);
        merge(&mut ranges, matches!(prefix, Prefix::Salt(_)));
        Ranges::many(ranges)
    }
}

/// The range `[start, stop)` of one alternative under `tail`, behind the key prefix `prefix`;
/// `None` when it is empty. `point`: every field is fixed by equality; `fixed`: every key has the
/// same length. Each end is written once: prefix, body, then the bound's bytes.
#[inline]
fn range_of(alt: &Alt, tail: &Tail, point: bool, fixed: bool, prefix: &[u8]) -> Option<KeyRange> {
    // The prefix, then the body. Cloning an inline body copies its whole array, a copy of a known
    // length, cheaper than a copy of a run of bytes.
    let head = || {
        if prefix.is_empty() {
            alt.body.clone()
        } else {
            let mut k = KeyBuf::from_slice(prefix);
            k.extend(alt.body.as_slice());
            k
        }
    };
    // An end taken as it is (a start, or an excluded stop) is where the shortest key at it
    // starts: without the bytes held back at its end (a Phoenix key leaves out the separators
    // before its trailing NULLs). An end past a key keeps them: the longer keys come after.
    let shortest = |k: &mut KeyBuf, held: Held| {
        let held = usize::from(held.after(alt.held));
        k.truncate(k.len() - held);
    };
    // The first key after the complete key in `k`: `k 00`, or, when no key is longer, its
    // increment.
    let after_key = |k: &mut KeyBuf| {
        if fixed {
            k.advance_to_next_prefix()
        } else {
            k.push(0)
        }
    };
    let (range, last) = match tail {
        // Spans and stops are the whole plan (`ranges` and `matches` read them).
        Tail::Empty | Tail::Spans(_) | Tail::Stop(_) => return None,
        // Without a bound on the next field the range cannot be empty: stop is past start, or
        // open.
        Tail::Open | Tail::TextFilter { .. } => {
            let mut start = head();
            let mut stop = start.clone();
            shortest(&mut start, Held::Add(0));
            match tail {
                // The whole key, as the key is written.
                Tail::Open if point => {
                    stop = start.clone();
                    after_key(&mut stop);
                }
                _ => stop.advance_to_next_prefix(),
            }
            return Some(KeyRange::from_bufs(start, stop));
        }
        Tail::Range { range, last } => (range, *last),
    };
    let [lo_held, hi_held] = range.held();
    let (lower, lo) = range.lower();
    let mut start = head();
    start.extend(lo);
    if lower != Edge::Excluded {
        shortest(&mut start, lo_held);
    }
    let (upper, hi) = range.upper();
    let mut stop = head();
    stop.extend(hi);
    if upper == Edge::Excluded {
        shortest(&mut stop, hi_held);
    }
    close_range(&mut start, lower, &mut stop, upper, last, fixed)
        .then(|| KeyRange::from_bufs(start, stop))
}

/// Whether `key` lies in `[start, stop)`, an empty stop being the end of the table.
fn in_range(start: &[u8], stop: &KeyBuf, key: &[u8]) -> bool {
    key >= start && (stop.len() == 0 || key < stop.as_slice())
}

/// Turns `start` and `stop`, each the bytes before the next field followed by its bound's bytes,
/// into the ends of the range `[start, stop)` the edges ask for; false when that range is empty.
/// `last`: the field is the last of the key (its bytes run to its end); `fixed`: every key has
/// the same length.
#[inline]
fn close_range(
    start: &mut KeyBuf,
    lower: Edge,
    stop: &mut KeyBuf,
    upper: Edge,
    last: bool,
    fixed: bool,
) -> bool {
    // The first key past every key whose field is E (E ends `k`): the last field's bytes end the
    // key, so its successor (`k 00`, or, when no key is longer, its increment); otherwise skip E
    // with whatever follows it.
    let past = |k: &mut KeyBuf| {
        if last && !fixed {
            k.push(0);
        } else {
            k.advance_to_next_prefix();
        }
    };
    if lower == Edge::Excluded {
        past(start);
        // All FF: no key comes after it. (An empty start would mean the first key.)
        if start.len() == 0 {
            return false;
        }
    }
    match upper {
        Edge::Open => stop.advance_to_next_prefix(),
        Edge::Excluded => {}
        Edge::Included => past(stop),
    }
    stop.len() == 0 || cmp_short(start.as_slice(), stop.as_slice()).is_lt()
}

/// The prefix component of an alternative whose prefix is known (or none), with the text
/// delimiter that follows it.
fn prefix_of(layout: &ScanLayout, alt: &Alt) -> KeyBuf {
    match layout.prefix {
        Prefix::Salt(salt) if layout.whole_key => {
            salt_prefix(layout, salt, salt.bucket_of(alt.shortest()))
        }
        Prefix::Salt(salt) => {
            let mut h = salt.hasher();
            h.write(alt.sources.as_slice());
            salt_prefix(layout, salt, h.finish())
        }
        Prefix::Hash(hash) => {
            let mut h = hash.hasher();
            h.write(alt.sources.as_slice());
            let mut p = KeyBuf::from_slice(&h.finish()[..hash.prefix_len()]);
            p.extend(layout.delimiter().as_bytes());
            p
        }
        Prefix::None => KeyBuf::new(),
    }
}

/// A salt bucket as it starts a key: one byte, or digits and the delimiter in text layouts.
fn salt_prefix(layout: &ScanLayout, salt: Salt, bucket: u8) -> KeyBuf {
    let mut p = KeyBuf::new();
    salt.write_bucket(bucket, p.grow(salt.encoded_len()));
    p.extend(layout.delimiter().as_bytes());
    p
}

/// Whether a key's prefix component is one of the layout's, for a plan that does not fix it.
fn prefix_allowed(layout: &ScanLayout, prefix: &[u8]) -> bool {
    match layout.prefix {
        Prefix::None => true,
        Prefix::Salt(salt) => {
            let (digits, delimiter) = prefix.split_at(salt.encoded_len().min(prefix.len()));
            delimiter == layout.delimiter().as_bytes()
                && salt
                    .read_bucket(digits)
                    .is_ok_and(|b| u16::from(b) < salt.buckets())
        }
        // Unbound hash sources: any hash, behind which the body decides (the plan is not exact).
        Prefix::Hash(hash) => {
            prefix.get(hash.prefix_len()..) == Some(layout.delimiter().as_bytes())
        }
    }
}

/// Which of a range's value bounds (start, end) were dropped, from which of its byte bounds
/// (lower, upper) were: swapped when the lower byte bound is the end (`desc`).
fn by_value_order(bytes: [bool; 2], lower_is_start: bool) -> [bool; 2] {
    if lower_is_start {
        bytes
    } else {
        [bytes[1], bytes[0]]
    }
}
