//! Fieldless enums: the discriminant, written as the key's format writes it (one byte; three
//! decimal digits in text layouts).

use super::{with_format, Format};
use crate::error::{DecodeError, EncodeError};
use crate::field::{FieldMode, FieldShape, Form};

/// Encodes a fieldless enum's discriminant.
#[inline(always)]
pub fn encode_discriminant(d: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    with_format!(mode.key_format(), F => F::encode_discriminant(d, out, mode))
}

/// The encoded length of a fieldless enum.
#[inline(always)]
pub fn discriminant_len(mode: FieldMode) -> usize {
    with_format!(mode.key_format(), F => F::discriminant_len(mode))
}

/// Reads a fieldless enum's discriminant and the bytes it took.
#[inline(always)]
pub fn decode_discriminant(input: &[u8], mode: FieldMode) -> Result<(u8, usize), DecodeError> {
    with_format!(mode.key_format(), F => F::decode_discriminant(input, mode))
}

/// The shape of a fieldless enum: one byte, or three digits in text layouts.
pub const ENUM_SHAPE: FieldShape = FieldShape::fixed(1)
    .with_text_digits(3)
    .with_form(Form::Discriminant);
