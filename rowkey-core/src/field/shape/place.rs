//! Where a value the field cannot store lies among the values it can, read from the type's
//! `FieldShape` and the value's natural encoding: the defaults of the scan planner's hooks
//! (`KeyField::beyond_width`, `KeyField::encode_stand_in`), which a delegating impl inherits with
//! the shape it copies.

use super::{TextRule, WidthRule};
use crate::error::EncodeErrorKind;
use crate::field::FieldMode;
use crate::format::{invert, strip_padding, NONE, PAD, SOME};

/// Where a value that `mode` cannot store lies among the values it can, read from the type's shape
/// and the value's natural encoding (ascending, natural width): the default of
/// [`KeyField::beyond_width`](crate::field::KeyField::beyond_width), which a delegating impl inherits with
/// the shape it copies.
pub(crate) fn beyond_by_shape<T: crate::field::KeyField + ?Sized>(
    value: &T,
    mode: FieldMode,
) -> Option<core::cmp::Ordering> {
    use core::cmp::Ordering;
    let shape = T::SHAPE;
    let mut buf = [0u8; 64];
    match value.encode(&mut buf, mode) {
        Ok(_) => return None,
        Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => return None,
        Err(_) => {}
    }
    let natural = value.encode(&mut buf, mode.natural());
    if mode.is_text() {
        // A text number that does not fit its digits has more of them, or is negative (which
        // has no natural text form at all).
        return match (shape.text, shape.tags) {
            (TextRule::Digits(_), 0) => Some(match natural {
                Ok(_) => Ordering::Greater,
                Err(_) => Ordering::Less,
            }),
            _ => None,
        };
    }
    let WidthRule::Narrow { .. } = shape.width else {
        return None;
    };
    let inner = some_tags(&buf[..natural.ok()?], shape.tags)?;
    let below = shape.signed && inner.first().is_some_and(|&b| b < 0x80);
    match (below, shape.tags) {
        (false, _) => Some(Ordering::Greater),
        (true, 0) => Some(Ordering::Less),
        // A `Some` below every storable `Some` is still above `None`: not below everything.
        (true, _) => None,
    }
}

/// The stand-in of a value that `mode` cannot store (see
/// [`KeyField::encode_stand_in`](crate::field::KeyField::encode_stand_in)), read from the type's shape and
/// the value's natural encoding, written into `out`; `None` when there is none or `out` is short.
pub(crate) fn stand_in_by_shape<T: crate::field::KeyField + ?Sized>(
    value: &T,
    out: &mut [u8],
    mode: FieldMode,
) -> Option<usize> {
    let shape = T::SHAPE;
    // Reversed fields give up their order (no ranges), and text strings are filtered by content.
    if mode.is_text() || mode.is_reverse() {
        return None;
    }
    match value.encode(out, mode) {
        Ok(_) => return None,
        Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => return None,
        Err(_) => {}
    }
    let natural = value.encode(out, mode.natural()).ok()?;
    let tags = shape.tags;
    some_tags(&out[..natural], tags)?;
    let len = match shape.width {
        // Below every storable `Some`: right after `None` (behind the outer `Some`s).
        WidthRule::Narrow { .. } if tags > 0 => {
            let below = shape.signed && out.get(tags).is_some_and(|&b| b < 0x80);
            if !below {
                return None;
            }
            out[tags - 1] = NONE;
            tags
        }
        // Padded content longer than the width, or ending in the padding byte, stands right
        // after the content cut to the width with its trailing padding dropped.
        WidthRule::Pad => {
            let width = mode.width()?;
            let end = tags + width;
            if out.len() < end {
                return None;
            }
            let cut = natural.min(end);
            let kept = tags + strip_padding(&out[tags..cut], PAD).len();
            out[kept..end].fill(PAD);
            end
        }
        _ => return None,
    };
    if mode.is_desc() {
        invert(&mut out[..len]);
    }
    Some(len)
}

/// The bytes after `tags` leading `Some` tags, or `None` when a tag is `None`.
fn some_tags(natural: &[u8], tags: usize) -> Option<&[u8]> {
    if natural.len() < tags {
        return None;
    }
    let (head, rest) = natural.split_at(tags);
    head.iter().all(|&t| t == SOME).then_some(rest)
}
