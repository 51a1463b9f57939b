//! The fixed lane's ranges, held in arrays of the key's length: one range `[start, stop)`, the
//! encoded ends of a range on the next field (the same for every alternative, so encoded once),
//! and how a value is written into such an array.

use alloc::vec::Vec;
use core::ops::Bound;

use super::bound::{Lower, Upper};
use super::bytes::{cmp_short, next_prefix};
use super::keybuf::KeyBuf;
use super::range::{merge, KeyRange, Span};
use crate::error::EncodeErrorKind;
use crate::field::{FieldMode, KeyField};

/// Array ranges given sorted by start, with overlapping and touching ones merged, as
/// [`KeyRange`]s: merging the arrays first builds one `KeyRange` per merged range.
pub(crate) fn merged<const N: usize>(mut sorted: Vec<ArrayRange<N>>) -> Vec<KeyRange> {
    merge(&mut sorted, false);
    sorted.into_iter().map(ArrayRange::to_key_range).collect()
}

/// A range `[start, stop)` held in two arrays of the key's length; an empty stop is the end of
/// the table.
#[derive(Clone, Copy)]
pub(crate) struct ArrayRange<const N: usize> {
    start: [u8; N],
    start_len: usize,
    stop: [u8; N],
    stop_len: usize,
}

impl<const N: usize> ArrayRange<N> {
    /// `[p, next prefix of p)` for the first `len` bytes `p` of `bytes`: every key that starts
    /// with them.
    #[inline(always)]
    pub(crate) fn of_prefix(bytes: &[u8; N], len: usize) -> Self {
        let mut stop = *bytes;
        let stop_len = next_prefix(&mut stop[..len]);
        ArrayRange {
            start: *bytes,
            start_len: len,
            stop,
            stop_len,
        }
    }

    #[inline(always)]
    pub(crate) fn to_key_range(self) -> KeyRange {
        KeyRange::from_bufs(
            KeyBuf::from_array(&self.start, self.start_len),
            KeyBuf::from_array(&self.stop, self.stop_len),
        )
    }
}

impl<const N: usize> Span for ArrayRange<N> {
    #[inline(always)]
    fn start(&self) -> &[u8] {
        &self.start[..self.start_len]
    }

    #[inline(always)]
    fn stop(&self) -> &[u8] {
        &self.stop[..self.stop_len]
    }

    #[inline]
    fn take_stop(&mut self, other: &mut Self) {
        self.stop = other.stop;
        self.stop_len = other.stop_len;
    }
}

/// How an encoding attempt into the fixed lane went.
pub(crate) enum Written {
    Bytes(usize),
    /// The value has no encoding in this mode (too wide for its `width`): it matches no key.
    Unencodable,
    /// The array was too short: the layout is not what the lane assumed; plan generally.
    NoRoom,
}

#[inline(always)]
pub(crate) fn write<T: KeyField + ?Sized>(value: &T, out: &mut [u8], mode: FieldMode) -> Written {
    match value.encode(out, mode) {
        Ok(n) => Written::Bytes(n),
        Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => Written::NoRoom,
        Err(_) => Written::Unencodable,
    }
}

/// One end of a range on the field after the bound ones, its bytes written into an array of
/// the key's length at the offset the field starts at.
#[derive(Clone, Copy)]
pub(crate) enum End<const N: usize> {
    Unbounded,
    /// The field's bytes `[at..end]` of the array, included.
    Included([u8; N], usize),
    /// The field's bytes `[at..end]` of the array, excluded.
    Excluded([u8; N], usize),
}

/// A range on the field that starts at `at`, in byte order (swapped under `desc`): the same for
/// every alternative of an IN list, so it is encoded once.
#[derive(Clone, Copy)]
pub(crate) struct Ends<const N: usize> {
    at: usize,
    lower: End<N>,
    upper: End<N>,
}

impl<const N: usize> Ends<N> {
    /// Encodes the bounds of a range on the field at `at`, placed with `mode`; `Err` when the lane
    /// cannot hold them (a bound the field cannot store: the general planner places it).
    #[inline(always)]
    pub(crate) fn encode<T: KeyField + ?Sized>(
        at: usize,
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> Result<Ends<N>, NoRoom> {
        let encode = |bound: Bound<&T>| -> Result<End<N>, NoRoom> {
            let (Bound::Included(v) | Bound::Excluded(v)) = bound else {
                return Ok(End::Unbounded);
            };
            let mut bytes = [0u8; N];
            let n = match write(v, &mut bytes[at..], mode) {
                Written::Bytes(n) => at + n,
                Written::Unencodable | Written::NoRoom => return Err(NoRoom),
            };
            Ok(match bound {
                Bound::Included(_) => End::Included(bytes, n),
                _ => End::Excluded(bytes, n),
            })
        };
        let (lower, upper) = (encode(start)?, encode(end)?);
        // Descending fields reverse the byte order: a lower value bound is an upper bytes bound.
        let (lower, upper) = if mode.is_desc() {
            (upper, lower)
        } else {
            (lower, upper)
        };
        Ok(Ends { at, lower, upper })
    }

    /// The range of the alternative `body[..at]` under these ends; `None` when it is empty.
    #[inline(always)]
    pub(crate) fn after(&self, body: &[u8; N]) -> Option<ArrayRange<N>> {
        let at = self.at;
        // The alternative's bytes, then the end's bytes of the field.
        let join = |end_bytes: &[u8; N], end: usize| {
            let mut key = *body;
            key[at..end].copy_from_slice(&end_bytes[at..end]);
            key
        };
        let (start, start_len) = match &self.lower {
            End::Unbounded => (*body, at),
            End::Included(bytes, end) => (join(bytes, *end), *end),
            End::Excluded(bytes, end) => {
                // The first key after every key whose field is this value; none after all FF.
                let mut key = join(bytes, *end);
                match next_prefix(&mut key[..*end]) {
                    0 => return None,
                    after => (key, after),
                }
            }
        };
        let (stop, stop_len) = match &self.upper {
            End::Unbounded => {
                let mut key = *body;
                let n = next_prefix(&mut key[..at]);
                (key, n)
            }
            End::Included(bytes, end) => {
                let mut key = join(bytes, *end);
                let n = next_prefix(&mut key[..*end]);
                (key, n)
            }
            End::Excluded(bytes, end) => (join(bytes, *end), *end),
        };
        // An empty stop is the end of the table, after every start.
        if stop_len > 0 && cmp_short(&start[..start_len], &stop[..stop_len]).is_ge() {
            return None;
        }
        Some(ArrayRange {
            start,
            start_len,
            stop,
            stop_len,
        })
    }

    /// The same bounds in the general planner's terms.
    pub(crate) fn to_bounds(self) -> (Lower, Upper) {
        let at = self.at;
        let field = |bytes: &[u8; N], end: usize| KeyBuf::from_slice(&bytes[at..end]);
        let lower = match &self.lower {
            End::Unbounded => Lower::Unbounded,
            End::Included(bytes, end) => Lower::AtOrAfter(field(bytes, *end)),
            End::Excluded(bytes, end) => Lower::After(field(bytes, *end)),
        };
        let upper = match &self.upper {
            End::Unbounded => Upper::Unbounded,
            End::Included(bytes, end) => Upper::AtOrBefore(field(bytes, *end)),
            End::Excluded(bytes, end) => Upper::Before(field(bytes, *end)),
        };
        (lower, upper)
    }
}

/// The fixed lane cannot hold the plan (the array is too short, or a bound has no encoding and
/// must be placed among the stored values): hand it to the general planner.
pub(crate) struct NoRoom;
