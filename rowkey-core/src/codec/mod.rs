//! Field codecs: the order-preserving encoding of every built-in field type, one family per file.
//!
//! Every codec is written once against [`FieldMode`]; `desc` and `reverse` are byte
//! transforms applied here, so the fixed-width families share [`put`] and [`take`].
//!
//! A byte format's own rules have a folder: `phoenix/` holds Apache Phoenix's (a column's
//! content, and the separators and NULLs between columns, with the planner's stand-ins for
//! them); its module docs list the Phoenix rules still asked of the mode in the family files.

mod bytes;
mod content;
#[cfg(feature = "decimal")]
mod decimal;
pub(crate) mod delimit;
pub(crate) mod discriminant;
pub(crate) mod escape;
pub(crate) mod fixed;
pub(crate) mod hex;
pub(crate) mod option;
pub(crate) mod pad;
pub(crate) mod phoenix;
pub(crate) mod text;
#[cfg(feature = "uuid")]
mod uuid;

use crate::error::{DecodeError, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;

pub(crate) use crate::buf::{out_prefix, take};
pub(crate) use crate::format::invert;

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

/// Writes the low `w` bytes of an integer image, big-endian, or little-endian when the field is
/// reversed. The caller applies `desc` to the integer itself: one `!` on a register instead of a
/// loop over bytes, which is what lets a fixed layout match hand-written `to_be_bytes` code.
#[inline(always)]
pub(crate) fn put_int<const SIZE: usize>(
    be: [u8; SIZE],
    le: [u8; SIZE],
    w: usize,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let src = if mode.is_reverse() {
        &le[..w]
    } else {
        &be[SIZE - w..]
    };
    out_prefix(out, w)?.copy_from_slice(src);
    Ok(w)
}

/// Reads `w` bytes written by [`put_int`] into the low end of a big-endian image of `SIZE` bytes
/// (zero above), undoing `reverse`; the caller undoes `desc` on the integer. Callers read a
/// full-width, unreversed integer straight from the key first: returned through this `Result`, the
/// array was split by LLVM into parts stored one by one and reloaded whole (a store-forwarding stall).
#[inline(always)]
pub(crate) fn take_int<const SIZE: usize>(
    input: &[u8],
    w: usize,
    mode: FieldMode,
) -> Result<[u8; SIZE], DecodeError> {
    let mut image = [0u8; SIZE];
    let low = &mut image[SIZE - w..];
    low.copy_from_slice(take(input, w)?);
    if mode.is_reverse() {
        low.reverse();
    }
    Ok(image)
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
