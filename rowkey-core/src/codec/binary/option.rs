//! `Option<T>` in the binary format (and the text format, which tags it the same way): a tag
//! byte, `00` for `None` and `01` for `Some`, then the value. `None` sorts first.

use crate::codec::{put, take_into};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{FieldMode, KeyField};
use crate::format::{NONE, SOME};

/// The tag is a fixed-width field of its own: `desc` inverts it, `reverse` has nothing to reverse.
const fn tag_mode(mode: FieldMode) -> FieldMode {
    if mode.is_desc() {
        FieldMode::INNER.with_desc()
    } else {
        FieldMode::INNER
    }
}

/// The bytes an `Option` takes: its tag, then the value's.
#[inline(always)]
pub(crate) fn option_len<T: KeyField>(v: Option<&T>, mode: FieldMode) -> usize {
    match v {
        None => 1,
        Some(v) => 1 + v.field_len(mode),
    }
}

/// Writes an `Option`'s tag, then the value.
#[inline(always)]
pub(crate) fn encode_option<T: KeyField>(
    v: Option<&T>,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    match v {
        None => put(&[NONE], out, tag_mode(mode)),
        Some(v) => {
            put(&[SOME], out, tag_mode(mode))?;
            Ok(1 + v.encode(&mut out[1..], mode)?)
        }
    }
}

/// Reads an `Option`'s tag, then the value with `decode` when it is `Some`.
#[inline]
pub(crate) fn decode_option<'k, T>(
    input: &'k [u8],
    mode: FieldMode,
    decode: impl FnOnce(&'k [u8], FieldMode) -> Result<(T, usize), DecodeError>,
) -> Result<(Option<T>, usize), DecodeError> {
    let mut tag = [0u8];
    take_into(input, &mut tag, tag_mode(mode))?;
    match tag[0] {
        NONE => Ok((None, 1)),
        SOME => {
            let (v, n) = decode(&input[1..], mode).map_err(|e| e.in_field("", "", 1))?;
            Ok((Some(v), 1 + n))
        }
        other => Err(DecodeError::new(
            DecodeErrorKind::InvalidOptionTag(other),
            0,
        )),
    }
}
