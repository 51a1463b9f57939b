//! Times as Java writes them: a count of units (`unit = "s" | "ms" | "us" | "ns"`, milliseconds by
//! default) since the Unix epoch. [`TimeValue`] is what a time type is (nanoseconds since the
//! epoch, and back); `unit.rs` the units, `strftime.rs` the chrono formats a text key may write
//! a time in, `rfc3339.rs` how a schema shows one. How each byte format writes a time is the
//! format's (`codec/binary/time.rs`: 8 bytes big-endian, `desc` as `Long.MAX_VALUE - count`;
//! `codec/text/time.rs`: 19 digits, or a chrono `format`; `codec/phoenix/time.rs`: Phoenix's
//! `DATE`, `TIME` and `TIMESTAMP`, which hold times before 1970), and `codec/time.rs` makes
//! every time type a field.
//!
//! `std::time::SystemTime`, and with feature `chrono` chrono's `DateTime<Utc>`, `NaiveDateTime`
//! (as UTC), `NaiveDate` (its midnight; a count that is not a whole day does not decode) and
//! `NaiveTime` (counted from midnight).
//!
//! A time is stored in whole units: a finer time is truncated when it is written, and decodes to
//! its whole units. Equality binds a time as it is written (the row written with a time is found
//! by it); a range bound between two whole units keeps exactly the stored times within it.
//!
//! The unit is [`TimeUnit`](crate::TimeUnit), carried in the field's [`FieldMode`](crate::FieldMode).

#[cfg(any(feature = "std", feature = "chrono"))]
pub(crate) mod count;
#[cfg(feature = "std")]
pub(crate) mod rfc3339;
pub(crate) mod strftime;
pub(crate) mod unit;

// The machinery of the time types, all of which need `std` or `chrono`.
#[cfg(any(feature = "std", feature = "chrono"))]
/// A time type: nanoseconds since the Unix epoch (since midnight for a time of day), and back.
pub(crate) trait TimeValue: Sized {
    /// Nanoseconds since the epoch, negative before it; an error for a leap second, which has
    /// no count of its own.
    fn nanos(&self) -> Result<i128, crate::error::EncodeError>;

    /// The value `nanos` from the epoch, if the type holds it (a date only at midnight).
    fn from_nanos(nanos: i128) -> Option<Self>;

    /// Writes the time as chrono formats it with `fmt` (chrono's types only).
    fn render(&self, fmt: &str, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
        let _ = (fmt, out);
        Err(core::fmt::Error)
    }

    /// The time `s` writes in `fmt` (chrono's types only).
    fn parse(s: &str, fmt: &str) -> Option<Self> {
        let _ = (s, fmt);
        None
    }

    /// The year, for types with a date.
    fn year(&self) -> Option<i32> {
        None
    }
}
#[cfg(any(feature = "std", feature = "chrono"))]
const NANOS_PER_SECOND: i128 = 1_000_000_000;

#[cfg(feature = "std")]
mod system_time {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::{TimeValue, NANOS_PER_SECOND};
    use crate::error::EncodeError;

    impl TimeValue for SystemTime {
        fn nanos(&self) -> Result<i128, EncodeError> {
            // A SystemTime is within an i64 of seconds from the epoch: its nanoseconds fit.
            Ok(match self.duration_since(UNIX_EPOCH) {
                Ok(after) => after.as_nanos() as i128,
                Err(before) => -(before.duration().as_nanos() as i128),
            })
        }

        fn from_nanos(nanos: i128) -> Option<Self> {
            let magnitude = nanos.unsigned_abs();
            let secs = u64::try_from(magnitude / NANOS_PER_SECOND as u128).ok()?;
            let span = Duration::new(secs, (magnitude % NANOS_PER_SECOND as u128) as u32);
            if nanos < 0 {
                UNIX_EPOCH.checked_sub(span)
            } else {
                UNIX_EPOCH.checked_add(span)
            }
        }
    }
}

/// chrono's types (feature `chrono`): `DateTime<Utc>` and `NaiveDateTime` (as UTC) since the
/// epoch, `NaiveDate` as its midnight, `NaiveTime` since midnight.
#[cfg(feature = "chrono")]
mod chrono_types {
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};

    use super::{TimeValue, NANOS_PER_SECOND};
    use crate::error::{EncodeError, EncodeErrorKind};

    const NANOS_PER_DAY: i128 = 86_400 * NANOS_PER_SECOND;

    fn leap_second() -> EncodeError {
        EncodeError::new(EncodeErrorKind::Unsupported(
            "a leap second, which has no count of its own",
        ))
    }

    /// Nanoseconds of `secs` (rounded down, as chrono counts them) and `subsec` since the epoch.
    fn nanos_of(secs: i64, subsec: u32) -> Result<i128, EncodeError> {
        if i128::from(subsec) >= NANOS_PER_SECOND {
            return Err(leap_second());
        }
        Ok(i128::from(secs) * NANOS_PER_SECOND + i128::from(subsec))
    }

    fn utc_of(nanos: i128) -> Option<DateTime<Utc>> {
        let secs = i64::try_from(nanos.div_euclid(NANOS_PER_SECOND)).ok()?;
        DateTime::from_timestamp(secs, nanos.rem_euclid(NANOS_PER_SECOND) as u32)
    }

    /// A date and time written in `fmt`; a format without a time of day reads as midnight.
    fn parse_datetime(s: &str, fmt: &str) -> Option<NaiveDateTime> {
        NaiveDateTime::parse_from_str(s, fmt).ok().or_else(|| {
            NaiveDate::parse_from_str(s, fmt)
                .ok()
                .map(|d| d.and_time(NaiveTime::MIN))
        })
    }

    impl TimeValue for DateTime<Utc> {
        fn nanos(&self) -> Result<i128, EncodeError> {
            nanos_of(self.timestamp(), self.timestamp_subsec_nanos())
        }

        fn from_nanos(nanos: i128) -> Option<Self> {
            utc_of(nanos)
        }

        fn render(&self, fmt: &str, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
            write!(out, "{}", self.format(fmt))
        }

        fn parse(s: &str, fmt: &str) -> Option<Self> {
            parse_datetime(s, fmt).map(|t| t.and_utc())
        }

        fn year(&self) -> Option<i32> {
            Some(Datelike::year(self))
        }
    }

    impl TimeValue for NaiveDateTime {
        fn nanos(&self) -> Result<i128, EncodeError> {
            self.and_utc().nanos()
        }

        fn from_nanos(nanos: i128) -> Option<Self> {
            utc_of(nanos).map(|t| t.naive_utc())
        }

        fn render(&self, fmt: &str, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
            write!(out, "{}", self.format(fmt))
        }

        fn parse(s: &str, fmt: &str) -> Option<Self> {
            parse_datetime(s, fmt)
        }

        fn year(&self) -> Option<i32> {
            Some(Datelike::year(self))
        }
    }

    impl TimeValue for NaiveDate {
        fn nanos(&self) -> Result<i128, EncodeError> {
            nanos_of(self.and_time(NaiveTime::MIN).and_utc().timestamp(), 0)
        }

        fn from_nanos(nanos: i128) -> Option<Self> {
            if nanos.rem_euclid(NANOS_PER_DAY) != 0 {
                return None;
            }
            utc_of(nanos).map(|t| t.date_naive())
        }

        fn render(&self, fmt: &str, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
            write!(out, "{}", self.format(fmt))
        }

        fn parse(s: &str, fmt: &str) -> Option<Self> {
            NaiveDate::parse_from_str(s, fmt).ok()
        }

        fn year(&self) -> Option<i32> {
            Some(Datelike::year(self))
        }
    }

    impl TimeValue for NaiveTime {
        fn nanos(&self) -> Result<i128, EncodeError> {
            nanos_of(
                i64::from(self.num_seconds_from_midnight()),
                self.nanosecond(),
            )
        }

        fn from_nanos(nanos: i128) -> Option<Self> {
            let secs = u32::try_from(nanos.div_euclid(NANOS_PER_SECOND)).ok()?;
            NaiveTime::from_num_seconds_from_midnight_opt(secs, (nanos % NANOS_PER_SECOND) as u32)
        }

        fn render(&self, fmt: &str, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
            write!(out, "{}", self.format(fmt))
        }

        fn parse(s: &str, fmt: &str) -> Option<Self> {
            NaiveTime::parse_from_str(s, fmt).ok()
        }
    }
}
