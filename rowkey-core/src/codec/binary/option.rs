//! `Option<T>` in the binary format (and the text format, which tags it the same way): a tag
//! byte, `00` for `None` and `01` for `Some`, then the value. `None` sorts first.

use crate::codec::{put, take_into};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::FieldMode;
use crate::format::{NONE, SOME};

/// The tag is a fixed-width field of its own: `desc` inverts it, `reverse` has nothing to reverse.
const fn tag_mode(mode: FieldMode) -> FieldMode {
    if mode.is_desc() {
        FieldMode::INNER.with_desc()
    } else {
        FieldMode::INNER
    }
}

/// Writes an `Option`'s tag: `01` when it holds a value (`some`), `00` when not.
#[inline(always)]
pub(crate) fn encode_tag(
    some: bool,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    put(&[if some { SOME } else { NONE }], out, tag_mode(mode))
}

/// Reads an `Option`'s tag: whether a value follows, and the byte the tag took.
#[inline(always)]
pub(crate) fn decode_tag(input: &[u8], mode: FieldMode) -> Result<(bool, usize), DecodeError> {
    let mut tag = [0u8];
    take_into(input, &mut tag, tag_mode(mode))?;
    match tag[0] {
        NONE => Ok((false, 1)),
        SOME => Ok((true, 1)),
        other => Err(DecodeError::new(
            DecodeErrorKind::InvalidOptionTag(other),
            0,
        )),
    }
}
