//! `rust_decimal::Decimal` (feature `decimal`): ordered by value, and one key per value, so 0.5
//! and 0.50 have the same bytes and decode to the normalized 0.5 (rust-decimal#610 asks for an
//! order-preserving form; RisingWave's memcomparable gave equal values different bytes).
//!
//! A value `±0.D × 10^E`, `D` its digits without leading or trailing zeros, is:
//! - zero: `80`;
//! - positive: `C0`, the exponent `E + 64` as one byte, `D` in pairs of digits (a last odd digit
//!   paired with 0), each pair `p` as `p + 1`, then `00`: a shorter `D` that is a prefix of a
//!   longer one ends first and sorts first;
//! - negative: `40`, then the positive form of `|v|` with every byte inverted, so larger
//!   magnitudes sort first.
//!
//! At most 18 bytes (29 digits in 15 pairs). `desc` inverts every byte, as for every type.

use rust_decimal::Decimal;

use super::{put, unsupported_width};
use crate::buf::truncated;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField};

const NEGATIVE: u8 = 0x40;
const ZERO: u8 = 0x80;
const POSITIVE: u8 = 0xC0;
const EXPONENT_BIAS: i32 = 64;
/// The digits of the largest mantissa, 2^96 - 1.
const MAX_DIGITS: usize = 29;
const MAX_LEN: usize = 2 + MAX_DIGITS.div_ceil(2) + 1;
const MAX_MANTISSA: u128 = (1 << 96) - 1;
const TEN_19: u128 = 10_000_000_000_000_000_000;

/// The digits of `|v|` (`v` not zero) without leading or trailing zeros, how many there are, and
/// the exponent `E` with `|v| = 0.D × 10^E`.
fn digits(v: &Decimal) -> ([u8; MAX_DIGITS], usize, i32) {
    let m = v.mantissa().unsigned_abs();
    // Least significant digit first; u64 arithmetic below 10^19 (u128 division is a library call).
    let mut rev = [0u8; 2 * 19];
    let mut len = 0;
    let (high, low) = ((m / TEN_19) as u64, (m % TEN_19) as u64);
    let mut part = low;
    let low_digits = if high > 0 { 19 } else { 0 };
    while len < low_digits || part > 0 {
        rev[len] = (part % 10) as u8;
        part /= 10;
        len += 1;
        if len == low_digits {
            part = high;
        }
    }
    let exponent = len as i32 - v.scale() as i32;
    let zeros = rev[..len].iter().take_while(|&&d| d == 0).count();
    let mut d = [0u8; MAX_DIGITS];
    for (slot, &digit) in d.iter_mut().zip(rev[zeros..len].iter().rev()) {
        *slot = digit;
    }
    (d, len - zeros, exponent)
}

/// The key bytes of `v`, and how many.
fn write(v: &Decimal) -> ([u8; MAX_LEN], usize) {
    let mut key = [0u8; MAX_LEN];
    if v.is_zero() {
        key[0] = ZERO;
        return (key, 1);
    }
    let (d, count, exponent) = digits(v);
    let negative = v.is_sign_negative();
    key[0] = if negative { NEGATIVE } else { POSITIVE };
    // |E| <= 29: the byte is within 35..=93.
    key[1] = (exponent + EXPONENT_BIAS) as u8;
    let mut at = 2;
    for pair in d[..count].chunks(2) {
        key[at] = pair[0] * 10 + pair.get(1).copied().unwrap_or(0) + 1;
        at += 1;
    }
    key[at] = 0;
    at += 1;
    if negative {
        crate::format::invert(&mut key[1..at]);
    }
    (key, at)
}

/// Phoenix's `DECIMAL` (`PDecimal.toBytes` of the value without trailing zeros): zero is `80`; a
/// value `±0.P × 100^E`, `P` its base-100 digits (pairs of decimal digits aligned on the decimal
/// point, the last not `00`), is the byte `C0 + E` then each pair `p` as `p + 1` when positive,
/// and `3F - E` then each pair as `101 - p` then `66` when negative.
fn write_phoenix(v: &Decimal) -> ([u8; MAX_LEN], usize) {
    let mut key = [0u8; MAX_LEN];
    if v.is_zero() {
        key[0] = ZERO;
        return (key, 1);
    }
    let (d, count, exponent) = digits(v);
    // Pairs start at the decimal point: an odd exponent takes a leading 0 digit.
    let lead = exponent.rem_euclid(2) as usize;
    let e100 = (exponent + lead as i32) / 2;
    let negative = v.is_sign_negative();
    key[0] = if negative {
        (PHOENIX_NEGATIVE_EXPONENT - e100) as u8
    } else {
        (PHOENIX_POSITIVE_EXPONENT + e100) as u8
    };
    let mut padded = [0u8; MAX_DIGITS + 1];
    padded[lead..lead + count].copy_from_slice(&d[..count]);
    let mut at = 1;
    for pair in padded[..lead + count].chunks(2) {
        let p = pair[0] * 10 + pair.get(1).copied().unwrap_or(0);
        key[at] = if negative { 101 - p } else { p + 1 };
        at += 1;
    }
    if negative {
        key[at] = PHOENIX_NEGATIVE_END;
        at += 1;
    }
    (key, at)
}

/// Phoenix's exponent byte of a positive value `0.P × 100^E` is this plus `E`.
const PHOENIX_POSITIVE_EXPONENT: i32 = 0xC0;
/// ... and of a negative one, this minus `E`.
const PHOENIX_NEGATIVE_EXPONENT: i32 = 0x3F;
/// The byte after a negative value's digits (`NEG_TERMINAL_BYTE`).
const PHOENIX_NEGATIVE_END: u8 = 102;

/// Reads what [`write_phoenix`] writes (`desc`: every byte inverted): the value and its bytes.
fn read_phoenix(input: &[u8], mode: FieldMode) -> Result<(Decimal, usize), DecodeError> {
    let stored = |i: usize| match input.get(i) {
        Some(&b) if mode.is_desc() => Some(!b),
        Some(&b) => Some(b),
        None => None,
    };
    let head = stored(0).ok_or_else(|| truncated(1, input.len()))?;
    if head == ZERO {
        return Ok((Decimal::ZERO, 1));
    }
    let negative = head & 0x80 == 0;
    let e100 = if negative {
        PHOENIX_NEGATIVE_EXPONENT - i32::from(head)
    } else {
        i32::from(head) - PHOENIX_POSITIVE_EXPONENT
    };
    let (mut digits, mut count, mut at) = ([0u8; MAX_DIGITS + 3], 0, 1);
    loop {
        let p = match (stored(at), negative) {
            // A positive value ends at the separator after it, or at the end of the key.
            (None | Some(0), false) => break,
            (Some(PHOENIX_NEGATIVE_END), true) => {
                at += 1;
                break;
            }
            (Some(b @ 1..=100), false) => b - 1,
            (Some(b @ 2..=101), true) => 101 - b,
            (None, true) => return Err(truncated(at + 1, input.len())),
            _ => return Err(invalid("a Phoenix DECIMAL's digits", at)),
        };
        if count + 2 > digits.len() {
            return Err(invalid("a Decimal out of range", at));
        }
        digits[count] = p / 10;
        digits[count + 1] = p % 10;
        count += 2;
        at += 1;
    }
    // Phoenix writes the value without trailing zeros: no `00` pair first or last.
    let pair = |i: usize| digits[i] * 10 + digits[i + 1];
    if count == 0 || pair(0) == 0 || pair(count - 2) == 0 {
        return Err(invalid(
            "not Phoenix's form of a DECIMAL (a 00 pair first or last)",
            at,
        ));
    }
    // Back to `0.D × 10^E`: no leading or trailing zero digit.
    let mut exponent = 2 * e100;
    let mut first = 0;
    if count > 0 && digits[0] == 0 {
        first = 1;
        exponent -= 1;
    }
    while count > first && digits[count - 1] == 0 {
        count -= 1;
    }
    if count == first {
        return Err(invalid("a Phoenix DECIMAL's digits", at));
    }
    let value = from_digits(&digits[first..count], exponent, negative)?;
    Ok((value, at))
}

impl KeyField for Decimal {
    const SHAPE: FieldShape = FieldShape::self_delimiting(MAX_LEN, Form::Decimal);

    #[inline]
    fn field_len(&self, mode: FieldMode) -> usize {
        if mode.is_phoenix() {
            return write_phoenix(self).1;
        }
        write(self).1
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if mode.width().is_some() {
            return Err(unsupported_width());
        }
        if mode.is_text() {
            return Err(EncodeError::new(EncodeErrorKind::Unsupported(
                "a Decimal in a text layout",
            )));
        }
        let (key, n) = if mode.is_phoenix() {
            write_phoenix(self)
        } else {
            write(self)
        };
        put(&key[..n], out, mode)
    }
}

fn invalid(what: &'static str, at: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Invalid(what), at)
}

impl<'k> DecodeField<'k> for Decimal {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        if mode.is_phoenix() {
            return read_phoenix(input, mode);
        }
        let stored = |i: usize| match input.get(i) {
            Some(&b) if mode.is_desc() => Ok(!b),
            Some(&b) => Ok(b),
            None => Err(truncated(i + 1, input.len())),
        };
        let negative = match stored(0)? {
            ZERO => return Ok((Decimal::ZERO, 1)),
            NEGATIVE => true,
            POSITIVE => false,
            _ => return Err(invalid("a Decimal's sign byte (40, 80 or C0)", 0)),
        };
        let byte = |i: usize| stored(i).map(|b| if negative { !b } else { b });
        let exponent = i32::from(byte(1)?) - EXPONENT_BIAS;
        let (mut digits, mut count, mut at) = ([0u8; MAX_DIGITS + 1], 0, 2);
        loop {
            match byte(at)? {
                0 => break,
                p @ 1..=100 if count < MAX_DIGITS => {
                    digits[count] = (p - 1) / 10;
                    digits[count + 1] = (p - 1) % 10;
                    count += 2;
                }
                _ => return Err(invalid("a Decimal's digits", at)),
            }
            at += 1;
        }
        // A last pair ending in 0 holds one digit; one key per value: no "00" pair, no leading 0.
        if count > 0 && digits[count - 1] == 0 {
            count -= 1;
        }
        if count == 0 || digits[0] == 0 || digits[count - 1] == 0 {
            return Err(invalid("a Decimal's digits", at));
        }
        let value = from_digits(&digits[..count], exponent, negative)?;
        Ok((value, at + 1))
    }
}

/// The value `±0.D × 10^E` of the decimal digits `digits` (no leading or trailing zero), if a
/// `Decimal` holds it.
fn from_digits(digits: &[u8], exponent: i32, negative: bool) -> Result<Decimal, DecodeError> {
    {
        if digits.len() > MAX_DIGITS {
            return Err(invalid("a Decimal out of range", 1));
        }
        let count = digits.len();
        let mut mantissa: u128 = 0;
        for &d in digits {
            mantissa = mantissa * 10 + u128::from(d);
        }
        let scale = count as i32 - exponent;
        let (mantissa, scale) = match u32::try_from(-scale) {
            // Trailing zeros before the point: 10^k times the digits, scale 0.
            Ok(k) => match 10u128.checked_pow(k).and_then(|z| mantissa.checked_mul(z)) {
                Some(m) => (m, 0),
                None => return Err(invalid("a Decimal out of range", 1)),
            },
            Err(_) => (mantissa, scale as u32),
        };
        if mantissa > MAX_MANTISSA || scale > Decimal::MAX_SCALE {
            return Err(invalid("a Decimal out of range", 1));
        }
        let signed = if negative {
            -(mantissa as i128)
        } else {
            mantissa as i128
        };
        Decimal::try_from_i128_with_scale(signed, scale)
            .map_err(|_| invalid("a Decimal out of range", 1))
    }
}
