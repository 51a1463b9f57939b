//! A time as the binary and text formats count it: whole units since the Unix epoch, as a Java
//! `long`, `desc` as `Long.MAX_VALUE - count`.

use super::unit::TimeUnit;
use super::TimeValue;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

#[cold]
fn before_epoch() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Unsupported(
        "a time before the Unix epoch (1970-01-01)",
    ))
}

/// The whole units of `t` since the epoch, and whether `t` is exactly that many; an error
/// before the epoch, which the binary and text forms do not hold (Java's `Bytes.toBytes` of a
/// negative count would sort after every positive one).
pub(crate) fn count<T: TimeValue>(t: &T, unit: TimeUnit) -> Result<(i64, bool), EncodeError> {
    let unit = u128::from(unit.nanos());
    let nanos = u128::try_from(t.nanos()?).map_err(|_| before_epoch())?;
    let count = i64::try_from(nanos / unit).map_err(|_| {
        EncodeError::new(EncodeErrorKind::Unsupported(
            "a time whose count of units since the epoch does not fit a Java long",
        ))
    })?;
    Ok((count, nanos % unit == 0))
}

/// The stored form of a count: itself, or `Long.MAX_VALUE - count` with `desc` (the HBase idiom
/// `Bytes.toBytes(Long.MAX_VALUE - ts)`, not the inverted bytes); its own inverse.
pub(crate) fn stored(count: i64, desc: bool) -> i64 {
    if desc {
        i64::MAX - count
    } else {
        count
    }
}

/// The time `count` units after the epoch (`count` stored as [`stored`] stores it, and
/// non-negative).
pub(crate) fn of_count<T: TimeValue>(
    value: i64,
    unit: TimeUnit,
    desc: bool,
) -> Result<T, DecodeError> {
    if value < 0 {
        return Err(invalid("a time before the Unix epoch"));
    }
    // Both forms are within 0..=i64::MAX, and so is the count.
    let count = stored(value, desc);
    let nanos = i128::from(count) * i128::from(unit.nanos());
    T::from_nanos(nanos).ok_or_else(|| {
        invalid("a count the time type does not hold (past its range, or not a whole date)")
    })
}

#[cold]
pub(crate) fn invalid(what: &'static str) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Invalid(what), 0)
}

/// Whether `t` is stored exactly as it is, in whole units (a time a format refuses counts as
/// exact: it is refused rather than stored).
pub(crate) fn exact_count<T: TimeValue>(t: &T, unit: TimeUnit) -> bool {
    count(t, unit).map_or(true, |(_, exact)| exact)
}
