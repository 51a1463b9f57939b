//! The text format (DESIGN §6) for numbers: zero-padded decimal of a fixed number of digits, the
//! type's MAX's digits or `width`. `desc` writes MAX - v (Java's `Long.MAX_VALUE - ts` for i64),
//! `reverse` writes the digits backwards. Numbers are unsigned: a negative value is an error.

use super::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;

/// The number of decimal digits of `n`.
pub(crate) const fn digits_of(mut n: u128) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// The digits a field takes, and the largest value they hold (`desc` subtracts from it).
fn layout(type_max: u128, mode: FieldMode) -> (usize, u128) {
    match mode.width() {
        Some(w) if w < 39 => (w, 10u128.pow(w as u32) - 1),
        Some(w) => (w, u128::MAX),
        None => (digits_of(type_max), type_max),
    }
}

pub(crate) fn int_len(type_max: u128, mode: FieldMode) -> usize {
    layout(type_max, mode).0
}

pub(crate) fn encode_int(
    v: u128,
    type_max: u128,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let (digits, max) = layout(type_max, mode);
    if v > max {
        return Err(EncodeError::new(EncodeErrorKind::TooWide { width: digits }));
    }
    let mut stored = if mode.is_desc() { max - v } else { v };
    let dst = out_prefix(out, digits)?;
    for slot in dst.iter_mut().rev() {
        *slot = b'0' + (stored % 10) as u8;
        stored /= 10;
    }
    if mode.is_reverse() {
        dst.reverse();
    }
    Ok(digits)
}

pub(crate) fn decode_int(
    input: &[u8],
    type_max: u128,
    mode: FieldMode,
) -> Result<(u128, usize), DecodeError> {
    let (digits, max) = layout(type_max, mode);
    let stored = take(input, digits)?;
    let mut value: u128 = 0;
    for i in 0..digits {
        let b = if mode.is_reverse() {
            stored[digits - 1 - i]
        } else {
            stored[i]
        };
        if !b.is_ascii_digit() {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidText("expected a decimal digit"),
                i,
            ));
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u128::from(b - b'0')))
            .ok_or_else(out_of_range)?;
    }
    if value > max {
        return Err(out_of_range());
    }
    let v = if mode.is_desc() { max - value } else { value };
    if v > type_max {
        return Err(out_of_range());
    }
    Ok((v, digits))
}

#[cold]
fn out_of_range() -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::InvalidText("number out of range for the field"),
        0,
    )
}

#[cold]
pub(crate) fn negative() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Negative)
}
