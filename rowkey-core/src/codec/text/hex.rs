//! A digest (`Hashed<N>`) in the text format: its lowercase hex digits (`crate::hex`).

use crate::buf::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::FieldMode;
use crate::hex::{read_lower, LOWER};

/// Writes a digest (`Hashed<N>`) as lowercase hex digits at the start of `out`, inverted first
/// when `desc`: the digits sort as the bytes do.
pub(crate) fn encode_digest(
    bytes: &[u8],
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    let n = 2 * bytes.len();
    for (b, pair) in bytes.iter().zip(out_prefix(out, n)?.chunks_exact_mut(2)) {
        let b = b ^ flip;
        pair[0] = LOWER[usize::from(b >> 4)];
        pair[1] = LOWER[usize::from(b & 0xF)];
    }
    Ok(n)
}

/// Reads a digest of `bytes.len()` bytes written by [`encode_digest`], and the bytes it took.
pub(crate) fn decode_digest(
    input: &[u8],
    bytes: &mut [u8],
    mode: FieldMode,
) -> Result<usize, DecodeError> {
    let n = 2 * bytes.len();
    read_lower(take(input, n)?, bytes)
        .ok_or_else(|| DecodeError::new(DecodeErrorKind::InvalidText("lowercase hex digits"), 0))?;
    if mode.is_desc() {
        crate::format::invert(bytes);
    }
    Ok(n)
}
