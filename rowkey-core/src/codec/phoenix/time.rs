//! Phoenix's `DATE` and `TIME` (milliseconds; `unit = "ms"`) and `TIMESTAMP` (`unit = "ns"`):
//! the milliseconds since the epoch as a signed `BIGINT`, so they hold times before 1970 as
//! Phoenix does (`TO_DATE('1969-12-31 23:59:59')`), and for `TIMESTAMP` the nanoseconds within
//! the millisecond.

use crate::buf::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::FieldMode;
use crate::format::invert;
use crate::time::unit::TimeUnit;
use crate::time::TimeValue;

const NANOS_PER_MILLI: i128 = 1_000_000;

/// The milliseconds of `nanos` since the epoch, rounded down (towards the past, as
/// `java.sql.Timestamp.getTime()` is), and the nanoseconds past that millisecond.
fn split(nanos: i128) -> (i128, u32) {
    (
        nanos.div_euclid(NANOS_PER_MILLI),
        nanos.rem_euclid(NANOS_PER_MILLI) as u32,
    )
}

/// Whether `t` is stored as it is: `DATE` and `TIME` hold whole milliseconds.
pub(crate) fn stores_exactly<T: TimeValue>(t: &T, mode: FieldMode) -> bool {
    mode.unit() == TimeUnit::Nanos || t.nanos().map_or(true, |n| split(n).1 == 0)
}

/// Phoenix's `DATE` and `TIME` (milliseconds; `unit = "ms"`) and `TIMESTAMP` (`unit = "ns"`):
/// the milliseconds since the epoch as a `BIGINT` (sign bit flipped, 8 bytes big-endian),
/// then for `TIMESTAMP` the nanoseconds within the millisecond, 4 bytes big-endian
/// (`PTimestamp.toBytes`); `desc` inverts every byte.
pub(crate) fn encode<T: TimeValue>(
    t: &T,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let (millis, sub) = split(t.nanos()?);
    let millis = i64::try_from(millis).map_err(|_| {
        EncodeError::new(EncodeErrorKind::Unsupported(
            "a time whose milliseconds since the epoch do not fit a Java long",
        ))
    })?;
    let mut image = [0u8; 12];
    image[..8].copy_from_slice(&((millis as u64) ^ (1 << 63)).to_be_bytes());
    let len = match mode.unit() {
        TimeUnit::Nanos => {
            image[8..].copy_from_slice(&sub.to_be_bytes());
            12
        }
        TimeUnit::Millis => 8,
        _ => {
            return Err(EncodeError::new(EncodeErrorKind::Unsupported(
                "a Phoenix time counts milliseconds (DATE, TIME) or nanoseconds (TIMESTAMP)",
            )))
        }
    };
    let dst = out_prefix(out, len)?;
    dst.copy_from_slice(&image[..len]);
    if mode.is_desc() {
        invert(dst);
    }
    Ok(len)
}

/// Reads what [`encode`] writes.
pub(crate) fn decode<T: TimeValue>(
    input: &[u8],
    mode: FieldMode,
) -> Result<(T, usize), DecodeError> {
    let invalid = |what| DecodeError::new(DecodeErrorKind::Invalid(what), 0);
    let len = mode.unit().phoenix_len();
    let mut image = [0u8; 12];
    image[..len].copy_from_slice(take(input, len)?);
    if mode.is_desc() {
        invert(&mut image[..len]);
    }
    let (head, tail) = image.split_at(8);
    let millis = (u64::from_be_bytes(head.try_into().unwrap_or_default()) ^ (1 << 63)) as i64;
    let sub = match len {
        12 => u32::from_be_bytes(tail[..4].try_into().unwrap_or_default()),
        _ => 0,
    };
    if i128::from(sub) >= NANOS_PER_MILLI {
        return Err(invalid(
            "a TIMESTAMP with more than 999,999 nanoseconds past its millisecond",
        ));
    }
    let t =
        T::from_nanos(i128::from(millis) * NANOS_PER_MILLI + i128::from(sub)).ok_or_else(|| {
            invalid("a count the time type does not hold (past its range, or not a whole date)")
        })?;
    Ok((t, len))
}
