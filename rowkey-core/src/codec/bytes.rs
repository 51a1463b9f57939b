//! Strings and byte strings: `KeyField` and `DecodeField` for `str`, `[u8]`, `String`,
//! `Vec<u8>` and their `Cow`s, each asking the key's format (`binary/content.rs`,
//! `text/content.rs`, `phoenix/content.rs`) how its content is written.
//!
//! Decoding borrows from the key whenever the stored bytes are the content itself.

#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};

use super::content::{Bytes, Content};
use super::{utf8, with_format, Format};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField, ValueKind};
use crate::sink::ValueSink;

/// Borrows the content of a string or byte string when the stored bytes are the content itself
/// (or escaped without a zero inside): checked inline before the general decoder.
#[inline(always)]
fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
    with_format!(mode.key_format(), F => F::borrow_content(input, mode))
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

/// Reads a byte string's content in the general path.
pub(crate) fn decode_bytes(
    input: &[u8],
    mode: FieldMode,
) -> Result<(Bytes<'_>, usize), DecodeError> {
    with_format!(mode.key_format(), F => F::decode_content(input, false, mode))
}

/// Reads a string's content in the general path.
fn decode_str(input: &[u8], mode: FieldMode) -> Result<(Bytes<'_>, usize), DecodeError> {
    with_format!(mode.key_format(), F => F::decode_content(input, true, mode))
}

fn borrowed_only(bytes: Bytes<'_>) -> Result<&[u8], DecodeError> {
    match bytes {
        Bytes::Borrowed(b) => Ok(b),
        #[cfg(feature = "alloc")]
        Bytes::Owned(_) => Err(DecodeError::new(DecodeErrorKind::NotBorrowable, 0)),
    }
}

/// Implements `KeyField` for a type by viewing it as the bytes of its content.
macro_rules! content_field {
    ($(impl[$($g:tt)*] $t:ty [$value:ident] => |$v:ident| $bytes:expr, $content:expr;)*) => {$(
        impl<$($g)*> KeyField for $t {
            const SHAPE: FieldShape = FieldShape::bytes().with_value(ValueKind::$value);

            #[inline]
            fn field_len(&self, mode: FieldMode) -> usize {
                let $v = self;
                with_format!(mode.key_format(), F => F::content_len($content, mode))
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                let $v = self;
                with_format!(mode.key_format(), F => F::encode_content($content, out, mode))
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
    impl[] str [Str] => |v| v.as_bytes(), Content::Str(v);
    impl[] [u8] [Plain] => |v| v, Content::Bytes(v);
}

#[cfg(feature = "alloc")]
content_field! {
    impl[] String [Str] => |v| v.as_bytes(), Content::Str(v);
    impl[] Vec<u8> [Plain] => |v| v.as_slice(), Content::Bytes(v);
    impl['a] Cow<'a, str> [Str] => |v| v.as_bytes(), Content::Str(v);
    impl['a] Cow<'a, [u8]> [Plain] => |v| v, Content::Bytes(v);
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
