//! Bounds on the next field, in encoded space: a range in the field's own order becomes bounds on
//! its stored bytes (swapped under `desc`), and a string prefix becomes the stored bytes such
//! content starts with. A bound the field cannot store is placed among the values it can (below or
//! above them all, or right after one), and when nothing tells where, dropped: plans may be wider
//! than the query, never narrower.

use core::ops::Bound;

use super::keybuf::{KeyBuf, INLINE};
use crate::codec::columns::{plan_separator, Held};
use crate::codec::{with_format, Format};
use crate::field::{column_type, FieldMode, KeyField};

/// How a range on the next field's bytes ends on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edge {
    /// No bound on this side.
    Open,
    /// The bound's bytes are in the range: `>= E` below (prefix-free: every key whose field is at
    /// least E), `<= E` above (E itself, with whatever follows it).
    Included,
    /// The bound's bytes are not: `> E` below, `< E` above.
    Excluded,
}

/// A range on the next field in encoded space. Both bounds' bytes live in one buffer, lower then
/// upper: a plan carries and copies one buffer, not two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EncodedRange {
    bytes: KeyBuf,
    /// Where the upper bound's bytes start.
    split: usize,
    lower: Edge,
    upper: Edge,
    /// What each bound holds back at its end, as a Phoenix key may leave it out
    /// ([`Held`]; nothing in other formats).
    held: [Held; 2],
}

impl EncodedRange {
    /// The range from `lower` to `upper` (an `Open` edge's bytes are ignored), bounds of content:
    /// each holds back nothing, or when it is empty what the bytes before it hold.
    pub(crate) fn new(lower: (Edge, &[u8]), upper: (Edge, &[u8])) -> EncodedRange {
        let mut bytes = KeyBuf::new();
        bytes.extend(lower.1);
        let split = bytes.len();
        bytes.extend(upper.1);
        let held = |b: &[u8]| {
            if b.is_empty() {
                Held::Add(0)
            } else {
                Held::NONE
            }
        };
        EncodedRange {
            bytes,
            split,
            lower: lower.0,
            upper: upper.0,
            held: [held(lower.1), held(upper.1)],
        }
    }

    /// "The field's bytes start with `stored`": at or after it, and at or before it with
    /// whatever follows.
    pub(crate) fn starting_with(stored: &[u8]) -> EncodedRange {
        EncodedRange::new((Edge::Included, stored), (Edge::Included, stored))
    }

    /// The lower edge and its bytes.
    #[inline(always)]
    pub(crate) fn lower(&self) -> (Edge, &[u8]) {
        (self.lower, &self.bytes.as_slice()[..self.split])
    }

    /// The upper edge and its bytes.
    #[inline(always)]
    pub(crate) fn upper(&self) -> (Edge, &[u8]) {
        (self.upper, &self.bytes.as_slice()[self.split..])
    }

    /// What the lower and upper bounds hold back at their ends.
    #[inline(always)]
    pub(crate) fn held(&self) -> [Held; 2] {
        self.held
    }
}

/// A range on a field in encoded space, from bounds in the field's own order, and whether its
/// lower and upper bytes bound were dropped because nothing tells where the value lies (the range
/// is then wider than the query asks); `None` when nothing can match.
#[inline(always)]
pub(crate) fn range_tail<T: KeyField + ?Sized>(
    start: Bound<&T>,
    end: Bound<&T>,
    mode: FieldMode,
) -> Option<(EncodedRange, [bool; 2])> {
    let [(first, first_is_lower), (second, second_is_lower)] = in_byte_order(start, end, mode);
    let mut bytes = KeyBuf::new();
    let (lower, lo_widened, lo_held) = encode_bound(first, mode, first_is_lower, &mut bytes)?;
    let split = bytes.len();
    let (upper, hi_widened, hi_held) = encode_bound(second, mode, second_is_lower, &mut bytes)?;
    Some((
        EncodedRange {
            bytes,
            split,
            lower,
            upper,
            held: [lo_held, hi_held],
        },
        [lo_widened, hi_widened],
    ))
}

/// The value bounds of a range as the lower and upper bounds of its bytes, each with whether it
/// is the lower bound in the field's own order: descending fields reverse the byte order.
#[inline(always)]
pub(crate) fn in_byte_order<'a, T: ?Sized>(
    start: Bound<&'a T>,
    end: Bound<&'a T>,
    mode: FieldMode,
) -> [(Bound<&'a T>, bool); 2] {
    if mode.is_desc() {
        [(end, false), (start, true)]
    } else {
        [(start, true), (end, false)]
    }
}

/// Appends a value bound, encoded with the field's mode, to `out`, and tells how it bounds the
/// bytes, whether it was dropped for want of a place, and what it holds back (a Phoenix column's
/// separator, written as in a key that goes on); `None` when nothing can match it. `lower` says
/// which side of the range it is in the field's own order.
///
/// A value the field cannot store is placed by [`KeyField::beyond_width`] (below or above every
/// stored value: the bound drops out, or nothing matches) or [`KeyField::encode_stand_in`] (right
/// after a stored value: `>= v` becomes `> stand-in`, `<= v` becomes `<= stand-in`). When neither
/// answers, the bound is dropped and the plan is wider than the query.
#[inline(always)]
pub(crate) fn encode_bound<T: KeyField + ?Sized>(
    bound: Bound<&T>,
    mode: FieldMode,
    lower: bool,
    out: &mut KeyBuf,
) -> Option<(Edge, bool, Held)> {
    let (Bound::Included(v) | Bound::Excluded(v)) = bound else {
        return Some((Edge::Open, false, Held::Add(0)));
    };
    let at = out.len();
    let n = v.field_len(mode);
    if v.encode(out.grow(n), mode).is_ok() {
        let edge = match bound {
            Bound::Included(_) => Edge::Included,
            _ => Edge::Excluded,
        };
        let (separator, held) = plan_separator::<T>(n, mode);
        if let Some(b) = separator {
            out.push(b);
        }
        return Some((edge, false, held));
    }
    out.truncate(at);
    let (edge, widened) = place_unstorable(v, n, mode, lower, out)?;
    // A stand-in is a stored value: written as one, separator and all.
    let mut held = Held::Add(0);
    if edge != Edge::Open {
        let (separator, stand_in) = plan_separator::<T>(out.len() - at, mode);
        if let Some(b) = separator {
            out.push(b);
        }
        held = stand_in;
    }
    Some((edge, widened, held))
}

/// The bound for a value `v` the field cannot store (`n`: its stored width), placed among the
/// stored values (its bytes appended to `out`) or dropped. Out of line: bounds are nearly always
/// storable.
#[cold]
#[inline(never)]
fn place_unstorable<T: KeyField + ?Sized>(
    v: &T,
    n: usize,
    mode: FieldMode,
    lower: bool,
    out: &mut KeyBuf,
) -> Option<(Edge, bool)> {
    match (v.beyond_width(mode), lower) {
        (Some(core::cmp::Ordering::Less), true) | (Some(core::cmp::Ordering::Greater), false) => {
            return Some((Edge::Open, false))
        }
        (Some(_), _) => return None,
        // A Phoenix column's stand-ins: NULL (no bytes) for an empty `Some`, and a VARCHAR's
        // content before a `00` it cannot hold. Other bounds are dropped.
        (None, _) => {}
    }
    if let Some(stand_in) = with_format!(mode.key_format(), F => F::column_stand_in(v, mode)) {
        let flip = if mode.is_desc() { 0xFF } else { 0x00 };
        match stand_in {
            None => return Some((Edge::Open, true)),
            Some(column_type::StandIn::Null) => {}
            Some(column_type::StandIn::Content(c)) => c.iter().for_each(|b| out.push(b ^ flip)),
        }
        let edge = if lower {
            Edge::Excluded
        } else {
            Edge::Included
        };
        return Some((edge, false));
    }
    // Room for the natural encoding and the stored width: a stand-in is built from the one and
    // fills the other.
    let room = v
        .field_len(mode.natural())
        .saturating_add(n)
        .saturating_add(16);
    let at = out.len();
    let scratch = out.grow(room.max(INLINE));
    let Some(len) = v.encode_stand_in(scratch, mode) else {
        out.truncate(at);
        return Some((Edge::Open, true));
    };
    out.truncate(at + len);
    // A stored value is at least `v` exactly when it is after the stand-in, and at most `v`
    // exactly when it is at most the stand-in.
    Some((
        if lower {
            Edge::Excluded
        } else {
            Edge::Included
        },
        false,
    ))
}

/// "Content starts with `prefix`" on a binary string or bytes field placed with `mode`; `None`
/// when no content can (a prefix longer than the width, or that must end in padding).
///
/// Its bounds are partial encodings: "at or before E" must take every key that starts with E.
pub(crate) fn prefix_range(prefix: &[u8], mode: FieldMode) -> Option<EncodedRange> {
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    let pad = with_format!(mode.key_format(), F => F::CONTENT_PAD);
    let Some(width) = mode.width() else {
        let mut stored = KeyBuf::new();
        let storable = with_format!(mode.key_format(), F => F::content_prefix(prefix, mode, |b| stored.push(b)));
        return storable.then(|| EncodedRange::starting_with(stored.as_slice()));
    };
    if prefix.len() > width {
        return None;
    }
    let mut stored = KeyBuf::new();
    prefix.iter().for_each(|b| stored.push(b ^ flip));
    if prefix.last() != Some(&pad) {
        // Padded content starts with the prefix exactly when its padded bytes do.
        return Some(EncodedRange::starting_with(stored.as_slice()));
    }
    // Content never ends in the padding byte, so it must go on after the prefix: some byte of the
    // rest of the width is not padding.
    let rest = width - prefix.len();
    if rest == 0 {
        return None;
    }
    let mut after_padding = stored.clone();
    let mut all_padding = stored;
    for i in 0..rest {
        after_padding.push(if i + 1 == rest { pad + 1 } else { pad } ^ flip);
        all_padding.push(pad ^ flip);
    }
    let n = prefix.len();
    Some(if mode.is_desc() {
        EncodedRange::new(
            (Edge::Included, &after_padding.as_slice()[..n]),
            (Edge::Excluded, all_padding.as_slice()),
        )
    } else {
        EncodedRange::new(
            (Edge::Included, after_padding.as_slice()),
            (Edge::Included, &all_padding.as_slice()[..n]),
        )
    })
}
