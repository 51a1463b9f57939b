//! The array lane's ranges, held in arrays of the key's length (or, for keys that vary in
//! length, of a capacity the lane hands longer keys on from): one range `[start, stop)`, the
//! range of an alternative with a bound field after it, written in place, and how a value is
//! written into such an array.

use alloc::vec::Vec;
use core::ops::Bound;

use super::byte_order::{cmp_short, next_prefix};
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
    /// with them (all of them, when every field is bound: in a fixed layout no key extends another).
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

    /// The range of every key with the bound fields `bytes[..len]`: those that start with them,
    /// or, when they are the whole key and keys vary in length (`whole_key`), that key alone
    /// (`[k, k 00)`, as a longer key would extend it).
    #[inline(always)]
    pub(crate) fn of_body(bytes: &[u8; N], len: usize, whole_key: bool) -> Result<Self, NoRoom> {
        if !whole_key {
            return Ok(ArrayRange::of_prefix(bytes, len));
        }
        let mut stop = *bytes;
        let stop_len = past_key(&mut stop, len)?;
        Ok(ArrayRange {
            start: *bytes,
            start_len: len,
            stop,
            stop_len,
        })
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

/// How an encoding attempt into the array lane went.
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

/// The range of one alternative `bytes[..len]` followed by the next field between `lower` and
/// `upper` (already in byte order); `Ok(None)` when it is empty, `Err` when the lane cannot hold
/// it (plan generally).
#[inline(always)]
///
/// `ends_key`: the field is the last of a layout whose keys vary in length, so its bytes end the
/// key, and the first key past a value is that key followed by `00` rather than the next prefix
/// (a longer last field is a greater value, not the same one with more after it).
pub(crate) fn range_after<T: KeyField + ?Sized, const N: usize>(
    bytes: &[u8; N],
    len: usize,
    lower: Bound<&T>,
    upper: Bound<&T>,
    mode: FieldMode,
    ends_key: bool,
) -> Result<Option<ArrayRange<N>>, NoRoom> {
    // The first key after every key whose field is the value ending at `n`; 0 (none) after all FF.
    let past = |key: &mut [u8; N], n: usize| {
        if ends_key {
            past_key(key, n)
        } else {
            Ok(next_prefix(&mut key[..n]))
        }
    };
    let mut from = *bytes;
    let from_len = match lower {
        Bound::Unbounded => len,
        Bound::Included(v) | Bound::Excluded(v) => {
            let n = write_bound(v, &mut from, len, mode)?;
            if matches!(lower, Bound::Excluded(_)) {
                match past(&mut from, n)? {
                    0 => return Ok(None),
                    after => after,
                }
            } else {
                n
            }
        }
    };
    let mut to = *bytes;
    let to_len = match upper {
        Bound::Unbounded => next_prefix(&mut to[..len]),
        Bound::Included(v) | Bound::Excluded(v) => {
            let n = write_bound(v, &mut to, len, mode)?;
            if matches!(upper, Bound::Included(_)) {
                past(&mut to, n)?
            } else {
                n
            }
        }
    };
    // An empty stop is the end of the table, after every start.
    if to_len > 0 && cmp_short(&from[..from_len], &to[..to_len]).is_ge() {
        return Ok(None);
    }
    Ok(Some(ArrayRange {
        start: from,
        start_len: from_len,
        stop: to,
        stop_len: to_len,
    }))
}

/// The first key after the whole key `key[..len]` when keys vary in length: `key 00`.
#[inline(always)]
fn past_key<const N: usize>(key: &mut [u8; N], len: usize) -> Result<usize, NoRoom> {
    *key.get_mut(len).ok_or(NoRoom)? = 0;
    Ok(len + 1)
}

/// Writes a bound's value after the first `len` bytes of `key` and returns where it ends.
#[inline(always)]
fn write_bound<T: KeyField + ?Sized, const N: usize>(
    v: &T,
    key: &mut [u8; N],
    len: usize,
    mode: FieldMode,
) -> Result<usize, NoRoom> {
    match write(v, &mut key[len..], mode) {
        Written::Bytes(n) => Ok(len + n),
        // A bound with no encoding may still bound something: the general planner puts its
        // stand-in in its place.
        Written::Unencodable | Written::NoRoom => Err(NoRoom),
    }
}

/// The array lane cannot hold the plan (the array is too short, or a bound has no encoding and
/// must be placed among the stored values): hand it to the general planner.
pub(crate) struct NoRoom;
