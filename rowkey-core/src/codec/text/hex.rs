//! Hex digits: how a digest is written in text keys (MD5 hash prefixes, `Hashed` fields). Lowercase
//! digits sort as the bytes they stand for ('0'..'9' before 'a'..'f'), so a hex segment is ordered
//! like the binary one.

use crate::buf::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::FieldMode;

pub(crate) const LOWER: &[u8; 16] = b"0123456789abcdef";
pub(crate) const UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Writes two digits of `digits` for every byte of `bytes` into `out`, which holds exactly that.
#[inline]
pub(crate) fn write(bytes: &[u8], out: &mut [u8], digits: &[u8; 16]) {
    for (b, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair[0] = digits[usize::from(b >> 4)];
        pair[1] = digits[usize::from(b & 0xF)];
    }
}

/// The bytes of lowercase hex `text` into `out` (`text` holds two digits for every byte of
/// `out`); `None` at the first character that is not a lowercase hex digit.
#[inline]
pub(crate) fn read_lower(text: &[u8], out: &mut [u8]) -> Option<()> {
    for (pair, b) in text.chunks_exact(2).zip(out.iter_mut()) {
        *b = lower_value(pair[0])? << 4 | lower_value(pair[1])?;
    }
    Some(())
}

fn lower_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

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
