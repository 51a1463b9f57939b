//! Bounds on the next field, in encoded space: a range in the field's own order becomes bounds on
//! its stored bytes (swapped under `desc`), and a string prefix becomes the stored bytes such
//! content starts with. A bound the field cannot store is placed among the values it can (below or
//! above them all, or right after one), and when nothing tells where, dropped: plans may be wider
//! than the query, never narrower.

use core::ops::Bound;

use super::keybuf::{KeyBuf, INLINE};
use crate::codec::escape::escape_prefix;
use crate::codec::pad::PAD;
use crate::field::{FieldMode, KeyField};

/// A lower bound on the bytes of the next field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lower {
    Unbounded,
    /// The field's bytes are `>= E` (prefix-free: every key whose field is at least E).
    AtOrAfter(KeyBuf),
    /// The field's bytes are `> E`, and not E itself.
    After(KeyBuf),
}

/// An upper bound on the bytes of the next field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Upper {
    Unbounded,
    /// The field's bytes are `< E`.
    Before(KeyBuf),
    /// The field's bytes are `<= E` (E itself included, with whatever follows it).
    AtOrBefore(KeyBuf),
}

/// A range on a field in encoded space.
#[derive(Clone, Debug)]
pub(crate) struct EncodedRange {
    pub(crate) lower: Lower,
    pub(crate) upper: Upper,
    /// A bound was dropped because nothing tells where its value lies: the range is wider than
    /// the query asks.
    pub(crate) widened: bool,
}

/// A range on a field in encoded space, from bounds in the field's own order; `None` when nothing
/// can match.
#[inline(always)]
pub(crate) fn range_tail<T: KeyField + ?Sized>(
    start: Bound<&T>,
    end: Bound<&T>,
    mode: FieldMode,
) -> Option<EncodedRange> {
    let (lo, lo_widened) = encode_bound(start, mode, true)?;
    let (hi, hi_widened) = encode_bound(end, mode, false)?;
    // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
    let (lo, hi) = if mode.is_desc() { (hi, lo) } else { (lo, hi) };
    let lower = match lo {
        Bound::Unbounded => Lower::Unbounded,
        Bound::Included(e) => Lower::AtOrAfter(e),
        Bound::Excluded(e) => Lower::After(e),
    };
    let upper = match hi {
        Bound::Unbounded => Upper::Unbounded,
        Bound::Included(e) => Upper::AtOrBefore(e),
        Bound::Excluded(e) => Upper::Before(e),
    };
    Some(EncodedRange {
        lower,
        upper,
        widened: lo_widened || hi_widened,
    })
}

/// A value bound encoded with the field's mode, and whether it was dropped for want of a place;
/// `None` when nothing can match it. `lower` says which side of the range it is (in the field's
/// own order).
///
/// A value the field cannot store is placed by [`KeyField::beyond_width`] (below or above every
/// stored value: the bound drops out, or nothing matches) or [`KeyField::encode_stand_in`] (right
/// after a stored value: `>= v` becomes `> stand-in`, `<= v` becomes `<= stand-in`). When neither
/// answers, the bound is dropped and the plan is wider than the query.
fn encode_bound<T: KeyField + ?Sized>(
    bound: Bound<&T>,
    mode: FieldMode,
    lower: bool,
) -> Option<(Bound<KeyBuf>, bool)> {
    let (Bound::Included(v) | Bound::Excluded(v)) = bound else {
        return Some((Bound::Unbounded, false));
    };
    let mut buf = KeyBuf::new();
    let n = v.encoded_len(mode);
    if v.encode(buf.grow(n), mode).is_ok() {
        return Some((
            match bound {
                Bound::Included(_) => Bound::Included(buf),
                _ => Bound::Excluded(buf),
            },
            false,
        ));
    }
    match (v.beyond_width(mode), lower) {
        (Some(core::cmp::Ordering::Less), true) | (Some(core::cmp::Ordering::Greater), false) => {
            return Some((Bound::Unbounded, false))
        }
        (Some(_), _) => return None,
        (None, _) => {}
    }
    // Room for the natural encoding and the stored width: a stand-in is built from the one and
    // fills the other.
    let room = v
        .encoded_len(mode.natural())
        .saturating_add(n)
        .saturating_add(16);
    let mut stand_in = KeyBuf::new();
    let scratch = stand_in.grow(room.max(INLINE));
    let Some(len) = v.encode_stand_in(scratch, mode) else {
        return Some((Bound::Unbounded, true));
    };
    stand_in.truncate(len);
    // A stored value is at least `v` exactly when it is after the stand-in, and at most `v`
    // exactly when it is at most the stand-in.
    Some((
        if lower {
            Bound::Excluded(stand_in)
        } else {
            Bound::Included(stand_in)
        },
        false,
    ))
}

/// "Content starts with `prefix`" on a binary string or bytes field placed with `mode`; `None`
/// when no content can (a prefix longer than the width, or that must end in padding).
///
/// Its bounds are partial encodings: "at or before E" must take every key that starts with E.
pub(crate) fn prefix_range(prefix: &[u8], mode: FieldMode) -> Option<(Lower, Upper)> {
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    let Some(width) = mode.width() else {
        let mut stored = KeyBuf::new();
        if mode.escapes() {
            escape_prefix(prefix, flip, |b| stored.push(b));
        } else {
            stored.extend(prefix);
        }
        return Some((Lower::AtOrAfter(stored.clone()), Upper::AtOrBefore(stored)));
    };
    if prefix.len() > width {
        return None;
    }
    let mut stored = KeyBuf::new();
    prefix.iter().for_each(|b| stored.push(b ^ flip));
    if prefix.last() != Some(&PAD) {
        // Padded content starts with the prefix exactly when its padded bytes do.
        return Some((Lower::AtOrAfter(stored.clone()), Upper::AtOrBefore(stored)));
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
        after_padding.push(if i + 1 == rest { PAD + 1 } else { PAD } ^ flip);
        all_padding.push(PAD ^ flip);
    }
    let head = |k: &KeyBuf| KeyBuf::from_slice(&k.as_slice()[..prefix.len()]);
    Some(if mode.is_desc() {
        (
            Lower::AtOrAfter(head(&after_padding)),
            Upper::Before(all_padding),
        )
    } else {
        (
            Lower::AtOrAfter(after_padding),
            Upper::AtOrBefore(head(&all_padding)),
        )
    })
}
