//! Fieldless enums: one byte, the discriminant (three decimal digits in text layouts).

use super::text::number::{decode_int, encode_int, int_len, Number};
use crate::error::{DecodeError, EncodeError};
use crate::field::{FieldMode, FieldShape, Form};

/// The largest discriminant a key stores: it is one byte.
const DISCRIMINANT: Number = Number::of(255);

/// Encodes a fieldless enum's discriminant: one byte, or three digits in text layouts.
#[inline(always)]
pub fn encode_discriminant(d: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.is_text() {
        return encode_int(u128::from(d), DISCRIMINANT, out, mode);
    }
    super::put(&[d], out, mode)
}

/// The encoded length of a fieldless enum.
#[inline(always)]
pub fn discriminant_len(mode: FieldMode) -> usize {
    if mode.is_text() {
        int_len(DISCRIMINANT, mode)
    } else {
        1
    }
}

/// Reads a fieldless enum's discriminant and the bytes it took.
#[inline(always)]
pub fn decode_discriminant(input: &[u8], mode: FieldMode) -> Result<(u8, usize), DecodeError> {
    if mode.is_text() {
        let (d, n) = decode_int(input, DISCRIMINANT, mode)?;
        return Ok((d as u8, n));
    }
    let mut b = [0u8];
    super::take_into(input, &mut b, mode)?;
    Ok((b[0], 1))
}

/// The shape of a fieldless enum: one byte, or three digits in text layouts.
pub const ENUM_SHAPE: FieldShape = FieldShape::fixed(1)
    .with_text_digits(3)
    .with_form(Form::Discriminant);
