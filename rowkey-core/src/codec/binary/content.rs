//! Strings and byte strings in the binary format, in their three forms: raw to the end of the key
//! (last ascending field), escaped (`00` becomes `00 FF`, then the terminator `00 01`, in
//! `escape.rs`) so that a shorter value that is a prefix of a longer one still sorts first, and
//! padded with `00` to a fixed `width` (`pad.rs`). A string is its UTF-8 bytes.

#[cfg(feature = "alloc")]
use crate::codec::content::BufExt;
use crate::codec::content::{owned, Buf, Bytes, Content};
use crate::codec::{invert, out_prefix, take};
use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;

use super::escape::{
    decode_escaped, encode_escaped, escape_zero_free, escaped_len, first_zero, TERMINATOR,
};
use super::pad::{encode_padded, strip, PAD};

/// A field neither padded, reversed nor inverted: its content is stored as is, or escaped.
#[inline(always)]
fn plain(mode: FieldMode) -> bool {
    mode.width().is_none() && !mode.is_reverse() && !mode.is_desc()
}

/// Whether the stored bytes are the content itself: a plain field in the last position. The
/// codecs check this first, inline, so the common last string of a key is a bare copy (or
/// borrow) and the general code stays out of line.
#[inline(always)]
fn stored_as_is(mode: FieldMode) -> bool {
    plain(mode) && !mode.escapes()
}

/// Borrows the content of a string or byte string stored as is, or escaped without a zero inside:
/// the cases that need no copy, checked inline before the general decoder.
#[inline(always)]
pub(crate) fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
    if stored_as_is(mode) {
        return Some((input, input.len()));
    }
    if plain(mode) {
        let z = first_zero(input)?;
        if input.get(z + 1) == Some(&TERMINATOR) {
            return Some((&input[..z], z + 2));
        }
    }
    None
}

/// The bytes `content` takes in `mode`.
#[inline]
pub(crate) fn content_len(content: &[u8], mode: FieldMode) -> usize {
    match mode.width() {
        Some(w) => w,
        None if mode.escapes() => escaped_len(content),
        None => content.len(),
    }
}

/// Writes `content` in `mode`: the inline cases first (stored as is; escaped without a zero
/// inside), the general code out of line.
#[inline(always)]
pub(crate) fn encode_content(
    content: Content<'_>,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let content = content.bytes();
    if stored_as_is(mode) {
        out_prefix(out, content.len())?.copy_from_slice(content);
        return Ok(content.len());
    }
    // A string inside the key, short and without a zero: escaped inline.
    if plain(mode) && mode.escapes() {
        if let Some(n) = escape_zero_free(content, out) {
            return Ok(n);
        }
    }
    encode_bytes(content, out, mode)
}

#[inline]
fn encode_bytes(content: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    let n = match mode.width() {
        Some(w) => encode_padded(content, out, w, mode.is_reverse())?,
        None if mode.escapes() => encode_escaped(content, out, mode.is_reverse())?,
        None => {
            let dst = out_prefix(out, content.len())?;
            dst.copy_from_slice(content);
            if mode.is_reverse() {
                dst.reverse();
            }
            content.len()
        }
    };
    if mode.is_desc() {
        invert(&mut out[..n]);
    }
    Ok(n)
}

/// Reads the content of a string or byte string in `mode`, and the bytes it took.
pub(crate) fn decode_content(
    input: &[u8],
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    match mode.width() {
        Some(w) => {
            let stored = take(input, w)?;
            if !mode.is_desc() && !mode.is_reverse() {
                return Ok((Bytes::Borrowed(strip(stored, PAD)), w));
            }
            let mut content = Buf::from_slice(stored);
            if mode.is_desc() {
                content.invert_in_place();
            }
            content.strip_padding(PAD);
            if mode.is_reverse() {
                content.reverse_in_place();
            }
            Ok((owned(content)?, w))
        }
        None if mode.escapes() => decode_escaped(input, mode),
        None if mode.is_reverse() => {
            let mut content = Buf::from_slice(input);
            content.reverse_in_place();
            Ok((owned(content)?, input.len()))
        }
        None => Ok((Bytes::Borrowed(input), input.len())),
    }
}
