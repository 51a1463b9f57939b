//! Strings and byte strings in their three forms: raw to the end of the key (last ascending field),
//! escaped (`00` becomes `00 FF`, then the terminator `00 01`) so that a shorter value that is a
//! prefix of a longer one still sorts first, and padded with `00` to a fixed `width`.
//!
//! Decoding borrows from the key whenever the stored bytes are the content itself.

#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};

use super::{invert, out_prefix, take, unsupported_text};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::prefix::ValueSink;

const ESCAPE: u8 = 0x00;
const ESCAPED_ZERO: u8 = 0xFF;
const TERMINATOR: u8 = 0x01;

/// A binary field neither padded, reversed nor inverted: its content is stored as is, or escaped.
#[inline(always)]
fn plain(mode: FieldMode) -> bool {
    !mode.is_text() && mode.width().is_none() && !mode.is_reverse() && !mode.is_desc()
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
    if stored_as_is(mode) {
        return Some((input, input.len()));
    }
    if plain(mode) {
        let z = input.iter().position(|&b| b == ESCAPE)?;
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

fn bytes_len(content: &[u8], mode: FieldMode) -> usize {
    match mode.width() {
        Some(w) => w,
        None if mode.escapes() => escaped_len(content),
        None => content.len(),
    }
}

/// The escaped length: content, one more byte per zero, and the terminator. Most content has no
/// zero, which `contains` finds with a vectorised search.
#[inline]
fn escaped_len(content: &[u8]) -> usize {
    let zeros = if content.contains(&ESCAPE) {
        content.iter().filter(|&&b| b == ESCAPE).count()
    } else {
        0
    };
    content.len() + zeros + 2
}

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

fn encode_padded(
    content: &[u8],
    out: &mut [u8],
    width: usize,
    reverse: bool,
) -> Result<usize, EncodeError> {
    if content.len() > width {
        return Err(EncodeError::new(EncodeErrorKind::TooWide { width }));
    }
    let stored_last = if reverse {
        content.first()
    } else {
        content.last()
    };
    if stored_last == Some(&0) {
        return Err(EncodeError::new(EncodeErrorKind::EndsWithPad));
    }
    let dst = out_prefix(out, width)?;
    let (body, pad) = dst.split_at_mut(content.len());
    body.copy_from_slice(content);
    if reverse {
        body.reverse();
    }
    pad.fill(0);
    Ok(width)
}

fn encode_escaped(content: &[u8], out: &mut [u8], reverse: bool) -> Result<usize, EncodeError> {
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

/// Decoded content: borrowed from the key when the stored bytes are the content itself.
pub(crate) enum Bytes<'k> {
    Borrowed(&'k [u8]),
    #[cfg(feature = "alloc")]
    Owned(Vec<u8>),
}

#[cfg(feature = "alloc")]
fn owned<'k>(content: Buf) -> Result<Bytes<'k>, DecodeError> {
    Ok(Bytes::Owned(content))
}

#[cfg(not(feature = "alloc"))]
fn owned<'k>(_content: Buf) -> Result<Bytes<'k>, DecodeError> {
    Err(DecodeError::new(DecodeErrorKind::NotBorrowable, 0))
}

/// Without `alloc` there is nowhere to put unescaped content; this stands in for `Vec` so the decoder
/// is written once and reports [`DecodeErrorKind::NotBorrowable`].
#[cfg(not(feature = "alloc"))]
pub(crate) struct NoVec;

#[cfg(not(feature = "alloc"))]
impl NoVec {
    fn new() -> Self {
        NoVec
    }
    fn from_slice(_: &[u8]) -> Self {
        NoVec
    }
    fn push(&mut self, _: u8) {}
    fn reverse_in_place(&mut self) {}
    fn invert_in_place(&mut self) {}
    fn strip_padding(&mut self) {}
}

#[cfg(feature = "alloc")]
type Buf = Vec<u8>;
#[cfg(not(feature = "alloc"))]
type Buf = NoVec;

#[cfg(feature = "alloc")]
trait BufExt {
    fn from_slice(src: &[u8]) -> Self;
    fn reverse_in_place(&mut self);
    fn invert_in_place(&mut self);
    fn strip_padding(&mut self);
}

#[cfg(feature = "alloc")]
impl BufExt for Vec<u8> {
    fn from_slice(src: &[u8]) -> Self {
        src.to_vec()
    }
    fn reverse_in_place(&mut self) {
        self.reverse();
    }
    fn invert_in_place(&mut self) {
        invert(self);
    }
    fn strip_padding(&mut self) {
        let end = content_end(self);
        self.truncate(end);
    }
}

/// The length of padded content: everything before the trailing `00`s.
fn content_end(padded: &[u8]) -> usize {
    padded.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)
}

pub(crate) fn decode_bytes(
    input: &[u8],
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    match mode.width() {
        Some(w) => {
            let stored = take(input, w)?;
            if !mode.is_desc() && !mode.is_reverse() {
                return Ok((Bytes::Borrowed(&stored[..content_end(stored)]), w));
            }
            let mut content = Buf::from_slice(stored);
            if mode.is_desc() {
                content.invert_in_place();
            }
            content.strip_padding();
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

fn decode_escaped(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
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
    let delimiter = mode.delimiter();
    if mode.is_delimited() && !delimiter.is_empty() && s.contains(delimiter) {
        return Err(EncodeError::new(EncodeErrorKind::DelimiterInField));
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
            if stored_last == Some(' ') {
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
    pad.fill(b' ');
    Ok(n)
}

fn decode_text_str(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
    let (content, used) = match mode.width() {
        Some(w) => {
            let stored = take(input, w)?;
            let end = stored.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
            (&stored[..end], w)
        }
        None if mode.is_delimited() => {
            let delimiter = mode.delimiter().as_bytes();
            let at = (!delimiter.is_empty())
                .then(|| input.windows(delimiter.len()).position(|w| w == delimiter))
                .flatten()
                .ok_or_else(|| {
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

fn str_len(s: &str, mode: FieldMode) -> usize {
    match (mode.is_text(), mode.width()) {
        (true, Some(w)) => w,
        (true, None) => s.len(),
        (false, _) => bytes_len(s.as_bytes(), mode),
    }
}

fn encode_str(s: &str, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.is_text() {
        encode_text_str(s, out, mode)
    } else {
        encode_bytes(s.as_bytes(), out, mode)
    }
}

fn decode_str(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
    if mode.is_text() {
        decode_text_str(input, mode)
    } else {
        decode_bytes(input, mode)
    }
}

/// Byte strings have no text format.
fn encode_raw_bytes(b: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.is_text() {
        return Err(unsupported_text());
    }
    encode_bytes(b, out, mode)
}

/// Implements `KeyField` for a type by viewing it as the bytes of its content.
macro_rules! content_field {
    ($(impl[$($g:tt)*] $t:ty => |$v:ident| $bytes:expr, $len:ident($content:expr), $encode:ident($encoded:expr);)*) => {$(
        impl<$($g)*> KeyField for $t {
            const SHAPE: FieldShape = FieldShape::bytes();

            #[inline]
            fn encoded_len(&self, mode: FieldMode) -> usize {
                let $v = self;
                $len($content, mode)
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                let $v = self;
                if stored_as_is(mode) {
                    let content = $bytes;
                    out_prefix(out, content.len())?.copy_from_slice(content);
                    return Ok(content.len());
                }
                $encode($encoded, out, mode)
            }

            #[inline]
            fn value_bytes<S: ValueSink + ?Sized>(&self, _mode: FieldMode, sink: &mut S) -> Result<(), EncodeError> {
                let $v = self;
                sink.write($bytes);
                Ok(())
            }

            fn encode_stand_in(&self, out: &mut [u8], mode: FieldMode) -> Option<usize> {
                let $v = self;
                padded_stand_in($bytes, out, mode)
            }
        }
    )*};
}

/// [`KeyField::encode_stand_in`] for content padded to `width` in a binary key: content that has no
/// encoding of its own (longer than the width, or ending in `00`) sorts, among stored contents
/// (at most `width` bytes, no trailing `00`), right after the content cut to `width` with its
/// trailing `00`s dropped: a stored content is below it exactly when it is at most that one.
fn padded_stand_in(content: &[u8], out: &mut [u8], mode: FieldMode) -> Option<usize> {
    let width = mode.width()?;
    // Reversed fields get no ranges (their order is given up), and text pads with spaces.
    if mode.is_text() || mode.is_reverse() || (content.len() <= width && content.last() != Some(&0))
    {
        return None;
    }
    let cut = &content[..content.len().min(width)];
    let end = cut.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    encode_bytes(&cut[..end], out, mode).ok()
}

content_field! {
    impl[] str => |v| v.as_bytes(), str_len(v), encode_str(v);
    impl[] [u8] => |v| v, bytes_len(v), encode_raw_bytes(v);
}

#[cfg(feature = "alloc")]
content_field! {
    impl[] String => |v| v.as_bytes(), str_len(v), encode_str(v);
    impl[] Vec<u8> => |v| v.as_slice(), bytes_len(v), encode_raw_bytes(v);
    impl['a] Cow<'a, str> => |v| v.as_bytes(), str_len(v), encode_str(v);
    impl['a] Cow<'a, [u8]> => |v| v, bytes_len(v), encode_raw_bytes(v);
}

/// A reference keys like its target, so borrowed fields (`&str`, `&[u8]`, `&T`) encode in place.
impl<T: KeyField + ?Sized> KeyField for &T {
    const SHAPE: FieldShape = T::SHAPE;

    #[inline(always)]
    fn encoded_len(&self, mode: FieldMode) -> usize {
        (**self).encoded_len(mode)
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
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if let Some(found) = borrow_content(input, mode) {
            return Ok(found);
        }
        let (bytes, n) = decode_bytes(input, mode)?;
        Ok((borrowed_only(bytes)?, n))
    }
}

impl<'k: 'a, 'a> DecodeField<'k> for &'a str {
    #[inline(always)]
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
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
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
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
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
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
    #[inline]
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
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
    #[inline]
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
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
