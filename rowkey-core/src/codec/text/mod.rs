//! The text format ([`KeyFormat::Text`](crate::KeyFormat::Text), `#[rowkey(text)]`): numbers as
//! zero-padded decimal (`number.rs`), strings as themselves padded with spaces (`content.rs`),
//! segments ended by the delimiter (`delimit.rs`, which the planner's text filters read too),
//! digests in hex (`hex.rs`), times as digits or chrono formats (`time.rs`). The delimiter between
//! two fields is written by the walk from the layout (`walk/frame.rs`), which says where it
//! stands. What a text key writes as a binary key does ([`Format`]'s defaults): the `Option` tag;
//! and floats, byte strings, `bool`, `char`, byte arrays and decimals have no text form, their
//! encoders refuse them here and their decoders are the binary format's.

pub(crate) mod content;
pub(crate) mod delimit;
pub(crate) mod hex;
pub(crate) mod number;
#[cfg(any(feature = "std", feature = "chrono"))]
pub(crate) mod time;
pub(crate) mod words;

use super::content::{Bytes, Content};
use super::fixed::{Float, Int};
use super::{unsupported_text, Format};
use crate::error::{DecodeError, EncodeError};
use crate::field::shape::FieldShape;
use crate::field::FieldMode;
#[cfg(any(feature = "std", feature = "chrono"))]
use crate::time::TimeValue;
use core::fmt;

/// The text format's codec.
#[derive(Debug)]
pub(crate) enum Text {}

impl Format for Text {
    /// A text number's width counts digits: any up to the longest key.
    #[cfg(feature = "schema")]
    fn accepts_width(_shape: FieldShape, w: usize) -> bool {
        w <= crate::hbase::MAX_ROW_LENGTH
    }

    #[cfg(feature = "alloc")]
    const CONTENT_PAD: u8 = crate::format::TEXT_PAD;

    fn describe_key(delimiter: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if delimiter.is_empty() {
            f.write_str("text, no delimiter")
        } else {
            write!(f, "text, segments joined by {delimiter:?}")
        }
    }

    const SALT_WORDS: &'static str = "decimal digits";

    const HASH_WORDS: &'static str = "hex digits of";

    fn describe_field(
        shape: FieldShape,
        mode: FieldMode,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        words::describe(shape, mode, f)
    }

    #[inline(always)]
    fn digest_len(n: usize) -> usize {
        2 * n
    }

    #[inline]
    fn encode_digest(bytes: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        hex::encode_digest(bytes, out, mode)
    }

    #[inline]
    fn decode_digest(
        input: &[u8],
        bytes: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, DecodeError> {
        hex::decode_digest(input, bytes, mode)
    }

    #[inline(always)]
    fn content_len(content: Content<'_>, mode: FieldMode) -> usize {
        content::content_len(content.bytes(), mode)
    }

    #[inline(always)]
    fn encode_content(
        content: Content<'_>,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        content::encode_content(content, out, mode)
    }

    /// A text segment is read up to its delimiter by the general path.
    #[inline(always)]
    fn borrow_content(_input: &[u8], _mode: FieldMode) -> Option<(&[u8], usize)> {
        None
    }

    #[inline(always)]
    fn decode_content(
        input: &[u8],
        string: bool,
        mode: FieldMode,
    ) -> Result<(Bytes<'_>, usize), DecodeError> {
        if string {
            content::decode_str(input, mode)
        } else {
            // A byte string has no text form (encoding refuses one); its decoder reads the
            // binary format's bytes.
            super::binary::content::decode_content(input, mode)
        }
    }

    #[inline(always)]
    fn int_len<I: Int>(mode: FieldMode) -> usize {
        number::int_len(I::NUMBER, mode)
    }

    #[inline(always)]
    fn encode_int<I: Int>(v: I, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        number::encode_int(v.unsigned()?, I::NUMBER, out, mode)
    }

    #[inline(always)]
    fn decode_int<I: Int>(input: &[u8], mode: FieldMode) -> Result<(I, usize), DecodeError> {
        let (v, n) = number::decode_int(input, I::NUMBER, mode)?;
        Ok((I::of_unsigned(v), n))
    }

    /// Floats, `bool`, `char` and byte arrays have no text form.
    #[inline(always)]
    fn fixed_bytes(_mode: FieldMode) -> Result<(), EncodeError> {
        Err(unsupported_text())
    }

    #[inline(always)]
    fn encode_float<F: Float>(
        _v: F,
        _out: &mut [u8],
        _mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        Err(unsupported_text())
    }

    /// Three decimal digits.
    #[inline(always)]
    fn discriminant_len(mode: FieldMode) -> usize {
        number::int_len(number::DISCRIMINANT, mode)
    }

    #[inline(always)]
    fn encode_discriminant(d: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        number::encode_int(u128::from(d), number::DISCRIMINANT, out, mode)
    }

    #[inline(always)]
    fn decode_discriminant(input: &[u8], mode: FieldMode) -> Result<(u8, usize), DecodeError> {
        let (d, n) = number::decode_int(input, number::DISCRIMINANT, mode)?;
        Ok((d as u8, n))
    }

    #[cfg(feature = "decimal")]
    fn encode_decimal(
        v: &rust_decimal::Decimal,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        let _ = (v, out, mode);
        Err(EncodeError::new(
            crate::error::EncodeErrorKind::Unsupported("a Decimal in a text layout"),
        ))
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    #[inline]
    fn time_len(_mode: FieldMode) -> usize {
        time::LEN
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    fn encode_time<T: TimeValue>(
        t: &T,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        time::encode(t, out, mode)
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    fn decode_time<T: TimeValue>(input: &[u8], mode: FieldMode) -> Result<(T, usize), DecodeError> {
        time::decode(input, mode)
    }
}
