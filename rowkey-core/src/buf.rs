//! Bounds-checked views of the bytes a codec works on: the start of the output buffer it may
//! write, and the start of the input key it may read, each with the error its side gives when
//! the bytes run out. Everything that writes or reads key bytes (the codecs, tags, times, the
//! generated code's cursor) starts here, and this depends only on the errors, so no module
//! reaches back into the codecs for them.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// The error of an output buffer of `available` bytes where `needed` were to be written.
#[cold]
pub(crate) fn too_small(needed: usize, available: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::BufferTooSmall { needed, available })
}

/// The error of a key that ends after `available` bytes where `needed` were to be read.
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
