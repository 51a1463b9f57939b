//! Apache Phoenix's `DECIMAL` (feature `decimal`): `PDecimal.toBytes` of the value without
//! trailing zeros.

use rust_decimal::Decimal;

use crate::buf::truncated;
use crate::codec::decimal::{digits, from_digits, invalid, MAX_DIGITS, MAX_LEN};
use crate::error::DecodeError;
use crate::field::FieldMode;

/// Zero, as the binary format writes it too.
const ZERO: u8 = 0x80;

/// Phoenix's `DECIMAL` (`PDecimal.toBytes` of the value without trailing zeros): zero is `80`; a
/// value `±0.P × 100^E`, `P` its base-100 digits (pairs of decimal digits aligned on the decimal
/// point, the last not `00`), is the byte `C0 + E` then each pair `p` as `p + 1` when positive,
/// and `3F - E` then each pair as `101 - p` then `66` when negative.
pub(crate) fn write(v: &Decimal) -> ([u8; MAX_LEN], usize) {
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

/// Reads what [`write()`] writes (`desc`: every byte inverted): the value and its bytes.
pub(crate) fn read(input: &[u8], mode: FieldMode) -> Result<(Decimal, usize), DecodeError> {
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
