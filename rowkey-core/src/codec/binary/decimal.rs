//! `rust_decimal::Decimal` in the binary format (feature `decimal`): ordered by value, and one
//! key per value, so 0.5 and 0.50 have the same bytes and decode to the normalized 0.5
//! (rust-decimal#610 asks for an order-preserving form; RisingWave's memcomparable gave equal
//! values different bytes).
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

use crate::buf::truncated;
use crate::codec::decimal::{digits, from_digits, invalid, MAX_DIGITS, MAX_LEN};
use crate::error::DecodeError;
use crate::field::FieldMode;

const NEGATIVE: u8 = 0x40;
const ZERO: u8 = 0x80;
const POSITIVE: u8 = 0xC0;
const EXPONENT_BIAS: i32 = 64;

/// The key bytes of `v`, and how many.
pub(crate) fn write(v: &Decimal) -> ([u8; MAX_LEN], usize) {
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

/// Reads what [`write()`] writes (`desc`: every byte inverted): the value and its bytes.
pub(crate) fn read(input: &[u8], mode: FieldMode) -> Result<(Decimal, usize), DecodeError> {
    {
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
