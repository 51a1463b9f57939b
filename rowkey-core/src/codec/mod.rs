//! Field codecs: the order-preserving encoding of every built-in field type, one family per file.
//!
//! Every codec is written once against [`FieldMode`](crate::FieldMode); `desc` and `reverse` are byte
//! transforms applied here, so the fixed-width families share [`put`] and [`take`].

mod bytes;
mod fixed;
mod option;
pub(crate) mod text;
#[cfg(feature = "uuid")]
mod uuid;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;

#[cold]
pub(crate) fn too_small(needed: usize, available: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::BufferTooSmall { needed, available })
}

#[cold]
pub(crate) fn truncated(needed: usize, available: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Truncated { needed, available }, 0)
}

/// The first `n` bytes of `out`, or the error that says the buffer is short.
#[inline(always)]
pub(crate) fn out_prefix(out: &mut [u8], n: usize) -> Result<&mut [u8], EncodeError> {
    let available = out.len();
    out.get_mut(..n).ok_or_else(|| too_small(n, available))
}

/// The first `n` bytes of `input`, or the error that says the key ends early.
#[inline(always)]
pub(crate) fn take(input: &[u8], n: usize) -> Result<&[u8], DecodeError> {
    input.get(..n).ok_or_else(|| truncated(n, input.len()))
}

#[inline(always)]
pub(crate) fn invert(bytes: &mut [u8]) {
    for b in bytes {
        *b = !*b;
    }
}

/// Writes a fixed-width value's bytes at the start of `out`, then applies `reverse` and `desc`.
#[inline(always)]
pub(crate) fn put(src: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    let dst = out_prefix(out, src.len())?;
    dst.copy_from_slice(src);
    if mode.is_reverse() {
        dst.reverse();
    }
    if mode.is_desc() {
        invert(dst);
    }
    Ok(src.len())
}

/// Reads `dst.len()` bytes from the start of `input` into `dst`, undoing `desc` and `reverse`.
#[inline(always)]
pub(crate) fn take_into(input: &[u8], dst: &mut [u8], mode: FieldMode) -> Result<(), DecodeError> {
    dst.copy_from_slice(take(input, dst.len())?);
    if mode.is_desc() {
        invert(dst);
    }
    if mode.is_reverse() {
        dst.reverse();
    }
    Ok(())
}

#[cold]
pub(crate) fn unsupported_width() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Unsupported(
        "`width` on a type without a width",
    ))
}

#[cold]
pub(crate) fn unsupported_text() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Unsupported("this type has no text format"))
}
