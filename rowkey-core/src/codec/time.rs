//! Time fields (`std::time::SystemTime`; with feature `chrono`, chrono's `DateTime<Utc>`,
//! `NaiveDateTime`, `NaiveDate` and `NaiveTime`): `KeyField` and `DecodeField` for every
//! [`TimeValue`], written as the key's format writes a time (`binary/time.rs`, `text/time.rs`,
//! `phoenix/time.rs`), or, with a `format`, as chrono renders it (`text/time.rs`). What a time
//! is (its count since the epoch, its units) is `time/`.

use super::text::time::formatted;
use super::{unsupported_width, with_format, Format};
use crate::error::{DecodeError, EncodeError};
use crate::field::{FieldMode, FieldShape, Form};
use crate::time::TimeValue;

/// Text: an i64's 19 digits.
const SHAPE: FieldShape = FieldShape::fixed(8)
    .with_text_digits(19)
    .with_form(Form::Time);

fn encoded_len(mode: FieldMode) -> usize {
    if let Some(format) = mode.format() {
        return crate::time::strftime::len_of(format);
    }
    with_format!(mode.key_format(), F => F::time_len(mode))
}

fn encode<T: TimeValue>(t: &T, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    if mode.width().is_some() {
        return Err(unsupported_width());
    }
    if let Some(format) = mode.format() {
        return formatted::encode(t, format, out, mode);
    }
    with_format!(mode.key_format(), F => F::encode_time(t, out, mode))
}

fn decode<T: TimeValue>(input: &[u8], mode: FieldMode) -> Result<(T, usize), DecodeError> {
    if let Some(format) = mode.format() {
        return formatted::decode(input, format, mode);
    }
    with_format!(mode.key_format(), F => F::decode_time(input, mode))
}

fn stores_exactly<T: TimeValue + PartialEq>(t: &T, mode: FieldMode) -> bool {
    match mode.format() {
        Some(format) => formatted::stores_exactly(t, format),
        None => with_format!(mode.key_format(), F => F::time_stores_exactly(t, mode)),
    }
}

/// `KeyField` and `DecodeField` for a [`TimeValue`].
macro_rules! time_field {
    ($shape:expr; $($ty:ty),*) => {$(
        impl crate::field::KeyField for $ty {
            const SHAPE: crate::field::FieldShape = $shape;

            #[inline]
            fn field_len(&self, mode: FieldMode) -> usize {
                encoded_len(mode)
            }

            #[inline]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                encode(self, out, mode)
            }

            fn stores_exactly(&self, mode: FieldMode) -> bool {
                stores_exactly(self, mode)
            }
        }

        impl<'k> crate::field::DecodeField<'k> for $ty {
            #[inline]
            fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                decode(input, mode)
            }
        }
    )*};
}

#[cfg(feature = "std")]
time_field!(SHAPE.with_value(crate::field::ValueKind::SystemTime); std::time::SystemTime);

#[cfg(feature = "chrono")]
mod chrono_fields {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};

    use super::*;
    use crate::field::ValueKind;
    use crate::time::strftime::Takes;

    time_field!(SHAPE.with_formats(Takes::Date).with_value(ValueKind::DateTime); DateTime<Utc>);
    time_field!(SHAPE.with_formats(Takes::Date).with_value(ValueKind::NaiveDateTime); NaiveDateTime);
    time_field!(SHAPE.with_formats(Takes::Date).with_value(ValueKind::NaiveDate); NaiveDate);
    time_field!(SHAPE.with_formats(Takes::TimeOfDay).with_value(ValueKind::NaiveTime); NaiveTime);
}
