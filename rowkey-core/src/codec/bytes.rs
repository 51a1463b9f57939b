//! Strings and byte strings in their three forms: raw to the end of the key (last ascending field),
//! escaped (`00` becomes `00 FF`, then the terminator `00 01`) so that a shorter value that is a
//! prefix of a longer one still sorts first, and padded with `00` to a fixed `width`.
//!
//! Decoding borrows from the key whenever the stored bytes are the content itself.

#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};

#[cfg(feature = "alloc")]
use super::content::BufExt;
use super::content::{owned, Buf, Bytes};
use super::delimit::{ends_cleanly, find};
use super::escape::{
    decode_escaped, encode_escaped, escape_zero_free, escaped_len, first_zero, TERMINATOR,
};
use super::pad::{encode_padded, strip, PAD, TEXT_PAD};
use super::phoenix::content as phoenix_content;
use super::{invert, out_prefix, take, unsupported_text};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField, ValueKind};
use crate::sink::ValueSink;

/// A binary field neither padded, reversed nor inverted: its content is stored as is, or escaped.
#[inline(always)]
fn plain(mode: FieldMode) -> bool {
    !mode.is_text()
        && !mode.is_phoenix()
        && mode.width().is_none()
        && !mode.is_reverse()
        && !mode.is_desc()
}

/// Whether the stored bytes are the content itself: a plain field in the last position. The
/// codecs below check this first, inline, so the common last string of a key is a bare copy (or
/// borrow) and the general code stays out of line.
#[inline(always)]
fn stored_as_is(mode: FieldMode) -> bool {
    plain(mode) && !mode.escapes()
}

/// Borrows the content of a string or byte string stored as is, or escaped without a zero inside:
/// the cases that need no copy, checked inline before the general decoder.
#[inline(always)]
fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
    if mode.is_phoenix() {
        return phoenix_content::borrow_content(input, mode);
    }
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

/// [`core::str::from_utf8`] with the error path out of line.
#[inline(always)]
fn utf8_inline(bytes: &[u8]) -> Result<&str, DecodeError> {
    match core::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => Err(invalid_utf8(e.valid_up_to())),
    }
}

#[cold]
fn invalid_utf8(valid_up_to: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::InvalidUtf8, valid_up_to)
}

#[inline]
fn bytes_len(content: &[u8], mode: FieldMode) -> usize {
    if mode.is_phoenix() {
        return phoenix_content::content_len(content, mode);
    }
    match mode.width() {
        Some(w) => w,
        None if mode.escapes() => escaped_len(content),
        None => content.len(),
    }
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

pub(crate) fn decode_bytes(
    input: &[u8],
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    if mode.is_phoenix() {
        return phoenix_content::decode_content(input, false, mode);
    }
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

fn borrowed_only(bytes: Bytes<'_>) -> Result<&[u8], DecodeError> {
    match bytes {
        Bytes::Borrowed(b) => Ok(b),
        #[cfg(feature = "alloc")]
        Bytes::Owned(_) => Err(DecodeError::new(DecodeErrorKind::NotBorrowable, 0)),
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, DecodeError> {
    core::str::from_utf8(bytes)
        .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, e.valid_up_to()))
}

/// A string in the text format: its content; padded with spaces to `width`; characters reversed
/// under `reverse`. A delimiter inside a segment that another follows would make the key ambiguous.
fn encode_text_str(s: &str, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
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

fn decode_text_str(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
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

#[inline]
fn str_len(s: &str, mode: FieldMode) -> usize {
    if mode.is_phoenix() {
        return phoenix_content::content_len(s.as_bytes(), mode);
    }
    match (mode.is_text(), mode.width()) {
        (true, Some(w)) => w,
        (true, None) => s.len(),
        (false, _) => bytes_len(s.as_bytes(), mode),
    }
}

#[inline]
fn encode_str(s: &str, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.is_phoenix() {
        phoenix_content::encode_content(s.as_bytes(), true, out, mode)
    } else if mode.is_text() {
        encode_text_str(s, out, mode)
    } else {
        encode_bytes(s.as_bytes(), out, mode)
    }
}

fn decode_str(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
    if mode.is_phoenix() {
        phoenix_content::decode_content(input, true, mode)
    } else if mode.is_text() {
        decode_text_str(input, mode)
    } else {
        decode_bytes(input, mode)
    }
}

/// Byte strings have no text format.
#[inline]
fn encode_raw_bytes(b: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.is_text() {
        return Err(unsupported_text());
    }
    if mode.is_phoenix() {
        return phoenix_content::encode_content(b, false, out, mode);
    }
    encode_bytes(b, out, mode)
}

/// Implements `KeyField` for a type by viewing it as the bytes of its content.
macro_rules! content_field {
    ($(impl[$($g:tt)*] $t:ty [$value:ident] => |$v:ident| $bytes:expr, $len:ident($content:expr), $encode:ident($encoded:expr);)*) => {$(
        impl<$($g)*> KeyField for $t {
            const SHAPE: FieldShape = FieldShape::bytes().with_value(ValueKind::$value);

            #[inline]
            fn field_len(&self, mode: FieldMode) -> usize {
                let $v = self;
                $len($content, mode)
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                let $v = self;
                if mode.is_phoenix() && !mode.is_text() {
                    let text = matches!(ValueKind::$value, ValueKind::Str);
                    return phoenix_content::encode_content($bytes, text, out, mode);
                }
                if stored_as_is(mode) {
                    let content = $bytes;
                    out_prefix(out, content.len())?.copy_from_slice(content);
                    return Ok(content.len());
                }
                // A string inside the key, short and without a zero: escaped inline.
                if plain(mode) && mode.escapes() {
                    if let Some(n) = escape_zero_free($bytes, out) {
                        return Ok(n);
                    }
                }
                $encode($encoded, out, mode)
            }

            #[inline]
            fn value_bytes<S: ValueSink + ?Sized>(&self, _mode: FieldMode, sink: &mut S) -> Result<(), EncodeError> {
                let $v = self;
                sink.write($bytes);
                Ok(())
            }
        }
    )*};
}

content_field! {
    impl[] str [Str] => |v| v.as_bytes(), str_len(v), encode_str(v);
    impl[] [u8] [Plain] => |v| v, bytes_len(v), encode_raw_bytes(v);
}

#[cfg(feature = "alloc")]
content_field! {
    impl[] String [Str] => |v| v.as_bytes(), str_len(v), encode_str(v);
    impl[] Vec<u8> [Plain] => |v| v.as_slice(), bytes_len(v), encode_raw_bytes(v);
    impl['a] Cow<'a, str> [Str] => |v| v.as_bytes(), str_len(v), encode_str(v);
    impl['a] Cow<'a, [u8]> [Plain] => |v| v, bytes_len(v), encode_raw_bytes(v);
}

/// A reference keys like its target, so borrowed fields (`&str`, `&[u8]`, `&T`) encode in place.
impl<T: KeyField + ?Sized> KeyField for &T {
    const SHAPE: FieldShape = T::SHAPE;

    #[inline(always)]
    fn field_len(&self, mode: FieldMode) -> usize {
        (**self).field_len(mode)
    }

    #[inline(always)]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        (**self).encode(out, mode)
    }

    #[inline(always)]
    fn encode_stand_in(&self, out: &mut [u8], mode: FieldMode) -> Option<usize> {
        (**self).encode_stand_in(out, mode)
    }

    #[inline(always)]
    fn beyond_width(&self, mode: FieldMode) -> Option<core::cmp::Ordering> {
        (**self).beyond_width(mode)
    }

    #[inline(always)]
    fn value_bytes<S: ValueSink + ?Sized>(
        &self,
        mode: FieldMode,
        sink: &mut S,
    ) -> Result<(), EncodeError> {
        (**self).value_bytes(mode, sink)
    }
}

impl<'k: 'a, 'a> DecodeField<'k> for &'a [u8] {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some(found) = borrow_content(input, mode) {
            return Ok(found);
        }
        let (bytes, n) = decode_bytes(input, mode)?;
        Ok((borrowed_only(bytes)?, n))
    }
}

impl<'k: 'a, 'a> DecodeField<'k> for &'a str {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some((content, n)) = borrow_content(input, mode) {
            return Ok((utf8_inline(content)?, n));
        }
        let (bytes, n) = decode_str(input, mode)?;
        Ok((utf8(borrowed_only(bytes)?)?, n))
    }
}

#[cfg(feature = "alloc")]
impl<'k> DecodeField<'k> for Vec<u8> {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some((content, n)) = borrow_content(input, mode) {
            return Ok((content.to_vec(), n));
        }
        let (bytes, n) = decode_bytes(input, mode)?;
        let v = match bytes {
            Bytes::Borrowed(b) => b.to_vec(),
            Bytes::Owned(v) => v,
        };
        Ok((v, n))
    }
}

#[cfg(feature = "alloc")]
impl<'k> DecodeField<'k> for String {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some((content, n)) = borrow_content(input, mode) {
            return Ok((String::from(utf8_inline(content)?), n));
        }
        let (bytes, n) = decode_str(input, mode)?;
        let s = match bytes {
            Bytes::Borrowed(b) => String::from(utf8(b)?),
            Bytes::Owned(v) => String::from_utf8(v).map_err(|e| {
                DecodeError::new(DecodeErrorKind::InvalidUtf8, e.utf8_error().valid_up_to())
            })?,
        };
        Ok((s, n))
    }
}

#[cfg(feature = "alloc")]
impl<'k: 'a, 'a> DecodeField<'k> for Cow<'a, [u8]> {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some((content, n)) = borrow_content(input, mode) {
            return Ok((Cow::Borrowed(content), n));
        }
        let (bytes, n) = decode_bytes(input, mode)?;
        let v = match bytes {
            Bytes::Borrowed(b) => Cow::Borrowed(b),
            Bytes::Owned(v) => Cow::Owned(v),
        };
        Ok((v, n))
    }
}

#[cfg(feature = "alloc")]
impl<'k: 'a, 'a> DecodeField<'k> for Cow<'a, str> {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some((content, n)) = borrow_content(input, mode) {
            return Ok((Cow::Borrowed(utf8_inline(content)?), n));
        }
        let (bytes, n) = decode_str(input, mode)?;
        let s = match bytes {
            Bytes::Borrowed(b) => Cow::Borrowed(utf8(b)?),
            Bytes::Owned(v) => Cow::Owned(String::from_utf8(v).map_err(|e| {
                DecodeError::new(DecodeErrorKind::InvalidUtf8, e.utf8_error().valid_up_to())
            })?),
        };
        Ok((s, n))
    }
}
