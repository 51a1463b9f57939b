//! Apache Phoenix's bytes for the columns of a `#[rowkey(phoenix)]` key: variable-length content
//! (`VARCHAR`, `CHAR(n)`, `VARBINARY`) bare, as Phoenix stores it, with the separators between
//! columns left to the key walk (`columns.rs` beside this file), and the value rules Phoenix keeps: an empty
//! string is NULL, a separator cannot stand inside content another column follows, `CHAR` holds
//! single-byte characters padded with spaces. The numeric encodings sit with their types
//! (`fixed.rs`): integers as in the binary format, `UNSIGNED_*` limited to the signed range,
//! `FLOAT` and `DOUBLE` plus one.

use crate::codec::binary::escape::first_zero;
#[cfg(feature = "alloc")]
use crate::codec::content::BufExt;
use crate::codec::content::{owned, Buf, Bytes};
use crate::codec::{invert, out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;
use crate::format::{PHOENIX_CHAR_PAD, PHOENIX_DESC_SEPARATOR};

#[cold]
pub(crate) fn not_in_phoenix(why: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::NotInPhoenix(why))
}

#[cold]
fn invalid(why: &'static str, at: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Invalid(why), at)
}

/// The bytes `content` takes: its `width` (`CHAR(n)`), or its length.
#[inline]
/// [`Format::content_prefix`](crate::codec::Format::content_prefix) for Phoenix: its content is
/// bare, inverted when descending; a column another follows, or a descending one, holds no
/// separator byte.
#[cfg(feature = "alloc")]
pub(crate) fn content_prefix(prefix: &[u8], mode: FieldMode, mut push: impl FnMut(u8)) -> bool {
    if (mode.is_delimited() || mode.is_desc()) && prefix.contains(&crate::format::PHOENIX_SEPARATOR)
    {
        return false;
    }
    let flip = if mode.is_desc() { 0xFF } else { 0x00 };
    prefix.iter().for_each(|&b| push(b ^ flip));
    true
}

pub(crate) fn content_len(content: &[u8], mode: FieldMode) -> usize {
    mode.width().unwrap_or(content.len())
}

/// Writes string (`text`) or byte-string content as Phoenix stores it in `mode`. Inlined whole,
/// so that the mode's checks fold away as the binary format's do.
#[inline(always)]
pub(crate) fn encode_content(
    content: &[u8],
    text: bool,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    if content.is_empty() {
        return Err(not_in_phoenix(
            "an empty string or byte string is NULL to Phoenix: a NOT NULL column refuses it, and a nullable one (Option) stores None",
        ));
    }
    let n = match mode.width() {
        Some(w) => {
            if !text {
                return Err(not_in_phoenix(
                    "Phoenix's BINARY(n) is a byte array, [u8; N]",
                ));
            }
            if !content.is_ascii() {
                return Err(not_in_phoenix(
                    "Phoenix's CHAR(n) holds single-byte (ASCII) characters",
                ));
            }
            if content.len() > w {
                return Err(EncodeError::new(EncodeErrorKind::TooWide { width: w }));
            }
            if content.last() == Some(&PHOENIX_CHAR_PAD) {
                return Err(EncodeError::new(EncodeErrorKind::EndsWithPad));
            }
            let dst = out_prefix(out, w)?;
            let (body, pad) = dst.split_at_mut(content.len());
            body.copy_from_slice(content);
            pad.fill(PHOENIX_CHAR_PAD);
            w
        }
        None => {
            if !text && mode.is_delimited() {
                return Err(not_in_phoenix(
                    "Phoenix's VARBINARY is the last column, ascending: nothing marks its end",
                ));
            }
            if mode.is_delimited() && first_zero(content).is_some() {
                return Err(not_in_phoenix(
                    "a VARCHAR that another column follows, or a DESC one, cannot hold U+0000: it is Phoenix's separator",
                ));
            }
            out_prefix(out, content.len())?.copy_from_slice(content);
            content.len()
        }
    };
    if mode.is_desc() {
        invert(&mut out[..n]);
    }
    Ok(n)
}

/// The end of a variable-length column's content in `input`: the whole input for the last
/// ascending column, else the separator after it (or the end of a key whose trailing NULLs
/// Phoenix left out).
#[inline(always)]
pub(crate) fn content_end(input: &[u8], mode: FieldMode) -> usize {
    if !mode.is_delimited() {
        return input.len();
    }
    let found = if mode.is_desc() {
        input.iter().position(|&b| b == PHOENIX_DESC_SEPARATOR)
    } else {
        first_zero(input)
    };
    found.unwrap_or(input.len())
}

/// The content of an ascending variable-length column, borrowed from the key, and the bytes it
/// takes: the decoders' inline path (`None`: NULL, or another mode, for the general one).
#[inline(always)]
pub(crate) fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
    if !mode.is_phoenix() || mode.width().is_some() || mode.is_desc() {
        return None;
    }
    match content_end(input, mode) {
        0 => None,
        end => Some((&input[..end], end)),
    }
}

/// Reads string (`text`) or byte-string content Phoenix stored in `mode`, without the separator
/// after it (the key walk's). Empty content is NULL, which only an `Option` holds.
#[inline]
pub(crate) fn decode_content(
    input: &[u8],
    text: bool,
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    let (stored, used) = match mode.width() {
        Some(w) => (take(input, w)?, w),
        None => {
            let end = content_end(input, mode);
            (&input[..end], end)
        }
    };
    // CHAR(n): padded with spaces, ASCII alone. What Phoenix would not write is refused, so
    // that every key read is the key its value writes.
    let char_n = text && mode.width().is_some();
    let byte = |b: u8| if mode.is_desc() { !b } else { b };
    let kept = if char_n {
        stored
            .iter()
            .rposition(|&b| byte(b) != PHOENIX_CHAR_PAD)
            .map_or(0, |i| i + 1)
    } else {
        stored.len()
    };
    if kept == 0 {
        return Err(invalid(
            "NULL in a NOT NULL Phoenix column (an Option field holds it)",
            0,
        ));
    }
    if char_n && !stored.iter().all(|&b| byte(b).is_ascii()) {
        return Err(invalid(
            "a Phoenix CHAR holds single-byte (ASCII) characters",
            0,
        ));
    }
    if !mode.is_desc() {
        return Ok((Bytes::Borrowed(&stored[..kept]), used));
    }
    let mut content = Buf::from_slice(&stored[..kept]);
    content.invert_in_place();
    Ok((owned(content)?, used))
}
