//! The text format (`#[rowkey(text)]`) for numbers: zero-padded decimal of a fixed number of digits, the
//! type's MAX's digits or `width`. `desc` writes MAX - v (Java's `Long.MAX_VALUE - ts` for i64),
//! `reverse` writes the digits backwards. Numbers are unsigned: a negative value is an error.

use crate::codec::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;
use crate::num::{digits_of, MAX_DIGITS, POW10};

/// A number type in the text format: its largest value, and that value's digits (computed once,
/// at compile time: counting them at run time took a `u128` division per digit).
#[derive(Clone, Copy)]
pub(crate) struct Number {
    max: u128,
    digits: usize,
}

impl Number {
    pub(crate) const fn of(max: u128) -> Number {
        Number {
            max,
            digits: digits_of(max),
        }
    }
}

/// A fieldless enum's discriminant: at most 255, one byte in binary keys.
pub(crate) const DISCRIMINANT: Number = Number::of(255);

/// The digits a field takes, and the largest value they hold (`desc` subtracts from it).
#[inline]
fn layout(number: Number, mode: FieldMode) -> (usize, u128) {
    match mode.width() {
        Some(w) if w < MAX_DIGITS => (w, POW10[w] - 1),
        Some(w) => (w, u128::MAX),
        None => (number.digits, number.max),
    }
}

/// "00" through "99": two digits per division, as `itoa` does.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes `n` into all of `dst`, zero-padded on the left (`n` has at most `dst.len()` digits).
/// Arithmetic is in `u64` once the value fits: a `u128` division is a slow library call.
fn write_digits(mut n: u128, dst: &mut [u8]) {
    let mut end = dst.len();
    while n > u128::from(u64::MAX) && end > 0 {
        end -= 1;
        dst[end] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let mut m = n as u64;
    while end >= 2 {
        let pair = (m % 100) as usize * 2;
        m /= 100;
        dst[end - 2..end].copy_from_slice(&PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if end == 1 {
        dst[0] = b'0' + (m % 10) as u8;
    }
}

pub(crate) fn int_len(number: Number, mode: FieldMode) -> usize {
    layout(number, mode).0
}

pub(crate) fn encode_int(
    v: u128,
    number: Number,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let (digits, max) = layout(number, mode);
    if v > max {
        return Err(EncodeError::new(EncodeErrorKind::TooWide { width: digits }));
    }
    let stored = if mode.is_desc() { max - v } else { v };
    let dst = out_prefix(out, digits)?;
    write_digits(stored, dst);
    if mode.is_reverse() {
        dst.reverse();
    }
    Ok(digits)
}

pub(crate) fn decode_int(
    input: &[u8],
    number: Number,
    mode: FieldMode,
) -> Result<(u128, usize), DecodeError> {
    let (digits, max) = layout(number, mode);
    let stored = take(input, digits)?;
    let value = if digits <= 19 {
        // Nineteen digits fit a u64: no u128 multiplications.
        let mut value: u64 = 0;
        for i in 0..digits {
            value = value * 10 + u64::from(digit(stored, i, mode)?);
        }
        u128::from(value)
    } else {
        parse_wide(stored, mode)?
    };
    if value > max {
        return Err(out_of_range());
    }
    let v = if mode.is_desc() { max - value } else { value };
    if v > number.max {
        return Err(out_of_range());
    }
    Ok((v, digits))
}

/// More than nineteen digits, in `u128` with overflow checks.
fn parse_wide(stored: &[u8], mode: FieldMode) -> Result<u128, DecodeError> {
    let mut value: u128 = 0;
    for i in 0..stored.len() {
        let d = u128::from(digit(stored, i, mode)?);
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(d))
            .ok_or_else(out_of_range)?;
    }
    Ok(value)
}

/// The value of the `i`-th most significant digit (stored last-first under `reverse`).
#[inline(always)]
fn digit(stored: &[u8], i: usize, mode: FieldMode) -> Result<u8, DecodeError> {
    let b = if mode.is_reverse() {
        stored[stored.len() - 1 - i]
    } else {
        stored[i]
    };
    if b.is_ascii_digit() {
        Ok(b - b'0')
    } else {
        Err(DecodeError::new(
            DecodeErrorKind::InvalidText("expected a decimal digit"),
            i,
        ))
    }
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
