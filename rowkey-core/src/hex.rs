//! Hex digits, as `md5sum` prints a digest and as text keys write one (MD5 hash prefixes,
//! `Hashed` fields). Lowercase digits sort as the bytes they stand for ('0'..'9' before
//! 'a'..'f'), so a hex segment is ordered like the binary one.

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
