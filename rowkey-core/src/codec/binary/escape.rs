//! The escaped form of variable-length content that another field follows: each `00` becomes
//! `00 FF` and the content ends with `00 01`, so a shorter value that is a prefix of a longer one
//! still sorts first. The codecs and the scan planner escape through here; the bytes themselves
//! are named in `format.rs`.

#[cfg(feature = "alloc")]
use crate::codec::content::BufExt;
use crate::codec::content::{owned, Buf, Bytes};
use crate::codec::out_prefix;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::FieldMode;

pub(crate) use crate::format::{ESCAPE, ESCAPED_ZERO, TERMINATOR};

/// The escaped length: content, one more byte per zero, and the terminator. Most content has no
/// zero, which `contains` finds with a vectorised search.
#[inline]
pub(crate) fn escaped_len(content: &[u8]) -> usize {
    let zeros = if content.contains(&ESCAPE) {
        content.iter().filter(|&&b| b == ESCAPE).count()
    } else {
        0
    };
    content.len() + zeros + 2
}

/// Writes `content` escaped, as a prefix of stored bytes: what a stored escaped field starts with
/// exactly when its content starts with `content` (no terminator). `flip` is `FF` under `desc`.
#[cfg(feature = "alloc")]
pub(crate) fn escape_prefix(content: &[u8], flip: u8, mut push: impl FnMut(u8)) {
    for &b in content {
        push(b ^ flip);
        if b == ESCAPE {
            push(ESCAPED_ZERO ^ flip);
        }
    }
}

/// [`Format::content_prefix`](crate::codec::Format::content_prefix) in the binary format:
/// escaped when another field follows, the content itself at the end of the key.
#[cfg(feature = "alloc")]
pub(crate) fn content_prefix(prefix: &[u8], mode: FieldMode, mut push: impl FnMut(u8)) -> bool {
    if mode.escapes() {
        let flip = if mode.is_desc() { 0xFF } else { 0x00 };
        escape_prefix(prefix, flip, push);
    } else {
        prefix.iter().for_each(|&b| push(b));
    }
    true
}

pub(crate) fn encode_escaped(
    content: &[u8],
    out: &mut [u8],
    reverse: bool,
) -> Result<usize, EncodeError> {
    if !reverse {
        if let Some(n) = escape_zero_free(content, out) {
            return Ok(n);
        }
    }
    // Counting the zeros first (a vectorised pass) sizes the output exactly, so every write below is
    // in bounds by construction.
    let len = escaped_len(content);
    let dst = out_prefix(out, len)?;
    if !reverse && len == content.len() + 2 {
        // No zero inside: the content, then the terminator.
        let (body, end) = dst.split_at_mut(content.len());
        body.copy_from_slice(content);
        end.copy_from_slice(&[ESCAPE, TERMINATOR]);
        return Ok(len);
    }
    let mut pos = 0;
    if reverse {
        for &b in content.iter().rev() {
            dst[pos] = b;
            pos += 1;
            if b == ESCAPE {
                dst[pos] = ESCAPED_ZERO;
                pos += 1;
            }
        }
    } else {
        // Copy the runs between zero bytes whole: keys are mostly zero-free text.
        for (i, run) in content.split(|&b| b == ESCAPE).enumerate() {
            if i > 0 {
                dst[pos..pos + 2].copy_from_slice(&[ESCAPE, ESCAPED_ZERO]);
                pos += 2;
            }
            dst[pos..pos + run.len()].copy_from_slice(run);
            pos += run.len();
        }
    }
    dst[pos..].copy_from_slice(&[ESCAPE, TERMINATOR]);
    Ok(len)
}

/// Writes short content without a zero, escaped (the content, then the terminator), when `out`
/// has room: the common case, which the codecs take inline. `None`: the content is long or holds
/// a zero, or `out` is short; [`encode_escaped`] writes it, or says what was needed.
#[inline(always)]
pub(crate) fn escape_zero_free(content: &[u8], out: &mut [u8]) -> Option<usize> {
    if content.len() > SHORT {
        return None;
    }
    let dst = out.get_mut(..content.len() + 2)?;
    copy_short_zero_free(content, dst).then_some(dst.len())
}

/// Content up to this length takes the word-wise path of [`copy_short_zero_free`]; longer content
/// is searched for zeros with `memchr`, which is faster over many words.
const SHORT: usize = 64;

/// Copies `content` (at most [`SHORT`] bytes) and the terminator into `dst` (two bytes longer) if it
/// holds no zero byte; false, with `dst` unspecified, if it does. Content of 8 bytes or more is
/// read eight bytes at a time, the last word overlapping the one before it; shorter content as two
/// overlapping 4-byte words. A byte loop and a `memcpy` of unknown length took several times the
/// instructions for the short strings most keys hold.
#[inline(always)]
fn copy_short_zero_free(content: &[u8], dst: &mut [u8]) -> bool {
    let n = content.len();
    let (body, end) = dst.split_at_mut(n);
    end.copy_from_slice(&[ESCAPE, TERMINATOR]);
    if n >= 8 {
        let mut at = 0;
        loop {
            let w = word::<8>(content, at);
            if has_zero_byte(u64::from_ne_bytes(w)) {
                return false;
            }
            body[at..at + 8].copy_from_slice(&w);
            if at + 8 == n {
                return true;
            }
            // The next word, or the last one, overlapping what was copied.
            at = (at + 8).min(n - 8);
        }
    } else if n >= 4 {
        let (head, tail) = (word::<4>(content, 0), word::<4>(content, n - 4));
        let both = u64::from(u32::from_ne_bytes(head)) | u64::from(u32::from_ne_bytes(tail)) << 32;
        if has_zero_byte(both) {
            return false;
        }
        body[..4].copy_from_slice(&head);
        body[n - 4..].copy_from_slice(&tail);
    } else {
        if content.contains(&ESCAPE) {
            return false;
        }
        body.copy_from_slice(content);
    }
    true
}

/// The index of the first zero byte of `input`, eight bytes at a time: in a word with a zero
/// byte, the lowest byte the zero test flags is the first zero (a flag above it can be a borrow
/// out of it; none below).
#[inline(always)]
pub(crate) fn first_zero(input: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(w) = input.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*w);
        let flags = x.wrapping_sub(ONES) & !x & HIGH;
        if flags != 0 {
            return Some(at + (flags.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = input.get(at..).unwrap_or_default();
    tail.iter().position(|&b| b == 0).map(|i| at + i)
}

/// The `W` bytes of `bytes` from `at` (in bounds: the callers checked the length).
#[inline(always)]
fn word<const W: usize>(bytes: &[u8], at: usize) -> [u8; W] {
    let mut w = [0; W];
    w.copy_from_slice(&bytes[at..at + W]);
    w
}

/// Whether any byte of `x` is zero (the classic test: a byte's borrow reaches its top bit only
/// when the byte was zero).
#[inline(always)]
fn has_zero_byte(x: u64) -> bool {
    x.wrapping_sub(ONES) & !x & HIGH != 0
}

/// A one in every byte, and every byte's top bit: the constants of the zero-byte test.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES << 7;
// The word-wise paths find the escape byte as a zero byte.
const _: () = assert!(ESCAPE == 0);

pub(crate) fn decode_escaped(
    input: &[u8],
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    // Under desc every stored byte is inverted: the escape is FF, an escaped zero FF 00, the end FF FE.
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    let escape = ESCAPE ^ flip;
    if !mode.is_desc() && !mode.is_reverse() {
        // Common case: no zero inside the content, so the content is a slice of the key.
        if let Some(z) = first_zero(input) {
            if input.get(z + 1) == Some(&TERMINATOR) {
                return Ok((Bytes::Borrowed(&input[..z]), z + 2));
            }
        }
    }
    let mut content = Buf::new();
    let mut i = 0;
    loop {
        let b = *input
            .get(i)
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::Unterminated, i))?;
        if b != escape {
            content.push(b ^ flip);
            i += 1;
            continue;
        }
        let next = *input
            .get(i + 1)
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::Unterminated, i))?;
        match next ^ flip {
            ESCAPED_ZERO => content.push(0),
            TERMINATOR => break,
            _ => {
                return Err(DecodeError::new(
                    DecodeErrorKind::BadEscape { found: next },
                    i + 1,
                ))
            }
        }
        i += 2;
    }
    if mode.is_reverse() {
        content.reverse_in_place();
    }
    Ok((owned(content)?, i + 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::KeyField;
    use alloc::vec::Vec;

    /// The escaped form written byte by byte, as the format defines it.
    fn reference(content: &[u8], reverse: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let mut push = |b: u8| {
            out.push(b);
            if b == ESCAPE {
                out.push(ESCAPED_ZERO);
            }
        };
        if reverse {
            content.iter().rev().for_each(|&b| push(b));
        } else {
            content.iter().for_each(|&b| push(b));
        }
        out.extend_from_slice(&[ESCAPE, TERMINATOR]);
        out
    }

    /// Content of every length through and past the word-wise paths, with a zero at each place
    /// or none.
    fn contents() -> impl Iterator<Item = Vec<u8>> {
        (0..=SHORT + 4).flat_map(|len| {
            (0..len).map(Some).chain([None]).map(move |zero_at| {
                (0..len)
                    .map(|i| {
                        if Some(i) == zero_at {
                            0
                        } else {
                            0x41 + i as u8
                        }
                    })
                    .collect()
            })
        })
    }

    /// The word-wise search finds the first zero a byte loop finds, also where the zero test
    /// flags bytes above a zero (a `01` or an `80` after it borrows).
    #[test]
    fn first_zero_is_the_first_zero_byte() {
        for len in 0..=24 {
            for zero_at in (0..len).map(Some).chain([None]) {
                for fill in [0x01, 0x80, 0xFF, 0x41] {
                    let mut input: Vec<u8> = (0..len).map(|i| fill ^ (i as u8 & 0x10)).collect();
                    if let Some(z) = zero_at {
                        input[z] = 0;
                        // A second zero later must not be the one found.
                        if z + 3 < len {
                            input[z + 3] = 0;
                        }
                    }
                    let want = input.iter().position(|&b| b == 0);
                    assert_eq!(first_zero(&input), want, "{input:02X?}");
                }
            }
        }
    }

    /// Every length through and past the word-wise search, a zero at each place or none, with
    /// more key after the field: the content comes back, and the field ends after its terminator.
    #[test]
    #[cfg(feature = "alloc")] // content with a zero is unescaped into a `Vec`
    fn escaped_content_reads_back_wherever_its_zeros_are() {
        for content in contents() {
            let mut key = reference(&content, false);
            let field_len = key.len();
            key.extend_from_slice(&[0x00, 0x01, 0x07]);
            let (read, n) = decode_escaped(&key, FieldMode::INNER).unwrap();
            let read: &[u8] = match &read {
                Bytes::Borrowed(b) => b,
                Bytes::Owned(v) => v,
            };
            assert_eq!((read, n), (&content[..], field_len), "{key:02X?}");
            let unterminated = &key[..field_len - 1];
            assert!(decode_escaped(unterminated, FieldMode::INNER).is_err());
        }
    }

    /// Every length through and past the word-wise path, a zero at each place or none, and
    /// buffers exact, a byte short and roomy: the bytes are the reference's, and a short buffer
    /// is refused with the length needed.
    #[test]
    fn short_and_long_content_escape_as_the_format_says() {
        for content in contents() {
            for reverse in [false, true] {
                let want = reference(&content, reverse);
                for room in [want.len(), want.len() + 7] {
                    let mut out = alloc::vec![0xAA; room];
                    let n = encode_escaped(&content, &mut out, reverse).unwrap();
                    assert_eq!(&out[..n], &want[..], "{content:02X?} reverse {reverse}");
                    if !reverse {
                        // A byte string inside a key, through its inline path.
                        let mut out = alloc::vec![0xAA; room];
                        let n = KeyField::encode(&content[..], &mut out, FieldMode::INNER).unwrap();
                        assert_eq!(&out[..n], &want[..], "{content:02X?} as a field");
                    }
                }
                let mut short = alloc::vec![0xAA; want.len() - 1];
                let err = encode_escaped(&content, &mut short, reverse).unwrap_err();
                assert!(
                    matches!(err.kind(), crate::error::EncodeErrorKind::BufferTooSmall { needed, .. } if needed == want.len()),
                    "{err:?}"
                );
            }
        }
    }
}
