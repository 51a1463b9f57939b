//! rowkey's binary format ([`KeyFormat::Binary`](crate::KeyFormat::Binary)), the default: its
//! rules for variable-length content, escaped when another field follows (`escape.rs`), padded
//! with `00` to a `width` (`pad.rs`), raw at the end of the key (`content.rs`). Nothing stands
//! between its fields. The fixed-width families' big-endian, sign-flipped bytes are still written
//! in `fixed.rs` for every format that shares them.

pub(crate) mod content;
#[cfg(feature = "decimal")]
pub(crate) mod decimal;
pub(crate) mod escape;
pub(crate) mod option;
pub(crate) mod pad;
#[cfg(any(feature = "std", feature = "chrono"))]
pub(crate) mod time;

use super::content::{Bytes, Content};
use super::fixed::{natural_width, Float, Int};
use super::{put, take_into, Format};
use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;
#[cfg(any(feature = "std", feature = "chrono"))]
use crate::time::TimeValue;

/// The binary format's codec.
#[derive(Debug)]
pub(crate) enum Binary {}

impl Format for Binary {
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

    #[inline(always)]
    fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
        content::borrow_content(input, mode)
    }

    #[inline(always)]
    fn decode_content(
        input: &[u8],
        _string: bool,
        mode: FieldMode,
    ) -> Result<(Bytes<'_>, usize), DecodeError> {
        content::decode_content(input, mode)
    }

    #[inline(always)]
    fn int_len<I: Int>(mode: FieldMode) -> usize {
        match mode.width() {
            Some(w) => w,
            None => I::SIZE,
        }
    }

    #[inline(always)]
    fn encode_int<I: Int>(v: I, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        v.put_image(out, mode)
    }

    #[inline(always)]
    fn decode_int<I: Int>(input: &[u8], mode: FieldMode) -> Result<(I, usize), DecodeError> {
        I::take_image(input, mode)
    }

    #[inline(always)]
    fn fixed_bytes(mode: FieldMode) -> Result<(), EncodeError> {
        natural_width(mode)
    }

    #[inline(always)]
    fn encode_float<F: Float>(v: F, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        natural_width(mode)?;
        v.put_ordered(0, out, mode)
    }

    #[inline(always)]
    fn decode_float<F: Float>(input: &[u8], mode: FieldMode) -> Result<(F, usize), DecodeError> {
        F::take_ordered(input, 0, mode)
    }

    #[inline(always)]
    fn option_tag_len(_mode: FieldMode) -> usize {
        1
    }

    #[inline(always)]
    fn encode_option_tag(
        some: bool,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        option::encode_tag(some, out, mode)
    }

    #[inline(always)]
    fn decode_option_tag(input: &[u8], mode: FieldMode) -> Result<(bool, usize), DecodeError> {
        option::decode_tag(input, mode)
    }

    /// One byte.
    #[inline(always)]
    fn discriminant_len(_mode: FieldMode) -> usize {
        1
    }

    #[inline(always)]
    fn encode_discriminant(d: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        put(&[d], out, mode)
    }

    #[inline(always)]
    fn decode_discriminant(input: &[u8], mode: FieldMode) -> Result<(u8, usize), DecodeError> {
        let mut b = [0u8];
        take_into(input, &mut b, mode)?;
        Ok((b[0], 1))
    }

    #[cfg(feature = "decimal")]
    #[inline]
    fn decimal_len(v: &rust_decimal::Decimal, _mode: FieldMode) -> usize {
        decimal::write(v).1
    }

    #[cfg(feature = "decimal")]
    fn encode_decimal(
        v: &rust_decimal::Decimal,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        let (key, n) = decimal::write(v);
        put(&key[..n], out, mode)
    }

    #[cfg(feature = "decimal")]
    fn decode_decimal(
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(rust_decimal::Decimal, usize), DecodeError> {
        decimal::read(input, mode)
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

    #[cfg(any(feature = "std", feature = "chrono"))]
    fn time_stores_exactly<T: TimeValue>(t: &T, mode: FieldMode) -> bool {
        crate::time::count::exact_count(t, mode.unit())
    }
}
