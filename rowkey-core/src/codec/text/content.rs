//! Strings in the text format: the content itself, padded with spaces to a `width`, characters
//! reversed under `reverse`; `desc` has no text form. A delimiter inside a segment that another
//! follows would make the key ambiguous, so it is refused. Byte strings have no text form.

use crate::codec::content::{owned, Buf, Bytes, Content};
use crate::codec::{out_prefix, take, unsupported_text, utf8};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;
use crate::format::{strip_padding as strip, TEXT_PAD};

use super::delimit::{ends_cleanly, find};

/// The bytes a string takes: its `width`, or its length.
#[inline]
pub(crate) fn content_len(content: &[u8], mode: FieldMode) -> usize {
    mode.width().unwrap_or(content.len())
}

/// Writes a string (a byte string has no text form).
#[inline]
pub(crate) fn encode_content(
    content: Content<'_>,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    match content {
        Content::Str(s) => encode_str(s, out, mode),
        Content::Bytes(_) => Err(unsupported_text()),
    }
}

fn encode_str(s: &str, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.is_desc() {
        return Err(EncodeError::new(EncodeErrorKind::Unsupported(
            "`desc` on a string in a text layout",
        )));
    }
    let n = match mode.width() {
        Some(w) => {
            if s.len() > w {
                return Err(EncodeError::new(EncodeErrorKind::TooWide { width: w }));
            }
            let stored_last = if mode.is_reverse() {
                s.chars().next()
            } else {
                s.chars().last()
            };
            if stored_last == Some(char::from(TEXT_PAD)) {
                return Err(EncodeError::new(EncodeErrorKind::EndsWithPad));
            }
            w
        }
        None => s.len(),
    };
    let dst = out_prefix(out, n)?;
    let (body, pad) = dst.split_at_mut(s.len());
    if mode.is_reverse() {
        let mut at = 0;
        for c in s.chars().rev() {
            at += c.encode_utf8(&mut body[at..]).len();
        }
    } else {
        body.copy_from_slice(s.as_bytes());
    }
    // The stored bytes (reversed or not) must end where the next delimiter is found. Padded
    // content is read by its width, so only a delimiter inside it is ambiguous.
    let delimiter = mode.delimiter().as_bytes();
    if mode.is_delimited() && !delimiter.is_empty() {
        let clean = match mode.width() {
            Some(_) => find(body, delimiter).is_none(),
            None => ends_cleanly(body, delimiter),
        };
        if !clean {
            return Err(EncodeError::new(EncodeErrorKind::DelimiterInField));
        }
    }
    pad.fill(TEXT_PAD);
    Ok(n)
}

/// Reads a string's segment, and the bytes it took (with `reverse`, its characters put back in
/// order).
pub(crate) fn decode_str(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
    let (content, used) = match mode.width() {
        Some(w) => {
            let stored = take(input, w)?;
            // Encoding refuses the delimiter inside a segment that another follows.
            if mode.is_delimited() && find(stored, mode.delimiter().as_bytes()).is_some() {
                return Err(DecodeError::new(
                    DecodeErrorKind::InvalidText("the delimiter inside a padded segment"),
                    0,
                ));
            }
            (strip(stored, TEXT_PAD), w)
        }
        None if mode.is_delimited() => {
            let at = find(input, mode.delimiter().as_bytes()).ok_or_else(|| {
                DecodeError::new(
                    DecodeErrorKind::InvalidText("no delimiter after the segment"),
                    input.len(),
                )
            })?;
            (&input[..at], at)
        }
        None => (input, input.len()),
    };
    if !mode.is_reverse() {
        return Ok((Bytes::Borrowed(content), used));
    }
    let text = utf8(content)?;
    let mut reversed = Buf::new();
    for c in text.chars().rev() {
        let mut utf8_buf = [0u8; 4];
        for &b in c.encode_utf8(&mut utf8_buf).as_bytes() {
            reversed.push(b);
        }
    }
    Ok((owned(reversed)?, used))
}
