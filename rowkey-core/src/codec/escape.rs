//! The escaped form of variable-length content that another field follows: each `00` becomes
//! `00 FF` and the content ends with `00 01`, so a shorter value that is a prefix of a longer one
//! still sorts first. The codecs and the scan planner escape through here; the bytes themselves
//! are named in `format.rs`.

#[cfg(feature = "alloc")]
use super::content::BufExt;
use super::content::{owned, Buf, Bytes};
use super::out_prefix;
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

pub(crate) fn encode_escaped(
    content: &[u8],
    out: &mut [u8],
    reverse: bool,
) -> Result<usize, EncodeError> {
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

pub(crate) fn decode_escaped(
    input: &[u8],
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    // Under desc every stored byte is inverted: the escape is FF, an escaped zero FF 00, the end FF FE.
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    let escape = ESCAPE ^ flip;
    if !mode.is_desc() && !mode.is_reverse() {
        // Common case: no zero inside the content, so the content is a slice of the key.
        if let Some(z) = input.iter().position(|&b| b == escape) {
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
