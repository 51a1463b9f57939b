//! `rust_decimal::Decimal` (feature `decimal`), written as the key's format writes it
//! (`binary/decimal.rs`, `phoenix/decimal.rs`; a text key has no form for it), and the digits
//! both formats are written from.

use rust_decimal::Decimal;

use super::{unsupported_width, with_format, Format};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField};

/// The digits of the largest mantissa, 2^96 - 1.
pub(crate) const MAX_DIGITS: usize = 29;
/// The most bytes a `Decimal` takes.
pub(crate) const MAX_LEN: usize = 2 + MAX_DIGITS.div_ceil(2) + 1;
const MAX_MANTISSA: u128 = (1 << 96) - 1;
const TEN_19: u128 = 10_000_000_000_000_000_000;

/// The digits of `|v|` (`v` not zero) without leading or trailing zeros, how many there are, and
/// the exponent `E` with `|v| = 0.D × 10^E`.
pub(crate) fn digits(v: &Decimal) -> ([u8; MAX_DIGITS], usize, i32) {
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

impl KeyField for Decimal {
    const SHAPE: FieldShape = FieldShape::self_delimiting(MAX_LEN, Form::Decimal);

    #[inline]
    fn field_len(&self, mode: FieldMode) -> usize {
        with_format!(mode.key_format(), F => F::decimal_len(self, mode))
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if mode.width().is_some() {
            return Err(unsupported_width());
        }
        with_format!(mode.key_format(), F => F::encode_decimal(self, out, mode))
    }
}

pub(crate) fn invalid(what: &'static str, at: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Invalid(what), at)
}

impl<'k> DecodeField<'k> for Decimal {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        with_format!(mode.key_format(), F => F::decode_decimal(input, mode))
    }
}

/// The value `±0.D × 10^E` of the decimal digits `digits` (no leading or trailing zero), if a
/// `Decimal` holds it.
pub(crate) fn from_digits(
    digits: &[u8],
    exponent: i32,
    negative: bool,
) -> Result<Decimal, DecodeError> {
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
