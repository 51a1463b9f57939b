//! Times as Java writes them: a count of units (`unit = "s" | "ms" | "us" | "ns"`, milliseconds by
//! default) since the Unix epoch. Binary layouts write the count as 8 bytes big-endian, exactly
//! `Bytes.toBytes(System.currentTimeMillis())`; `desc` writes `Long.MAX_VALUE - count`, exactly the
//! HBase idiom `Bytes.toBytes(Long.MAX_VALUE - ts)` (not the inverted bytes). Text layouts write the
//! count like an `i64`: 19 digits, `desc` as `Long.MAX_VALUE - count`.
//!
//! `std::time::SystemTime`, and with feature `chrono` chrono's `DateTime<Utc>`, `NaiveDateTime`
//! (as UTC), `NaiveDate` (its midnight; a count that is not a whole day does not decode) and
//! `NaiveTime` (counted from midnight).
//!
//! Phoenix layouts store the milliseconds since the epoch as a signed `BIGINT` (and, for
//! `TIMESTAMP`, the nanoseconds within the millisecond), so they hold times before 1970 as
//! Phoenix does (`TO_DATE('1969-12-31 23:59:59')`); the binary and text forms refuse them: Java's
//! `Bytes.toBytes` of a negative count would sort after every positive one.
//!
//! A time is stored in whole units: a finer time is truncated when it is written, and decodes to
//! its whole units. Equality binds a time as it is written (the row written with a time is found
//! by it); a range bound between two whole units keeps exactly the stored times within it.
//!
//! The unit is [`TimeUnit`](crate::TimeUnit), carried in the field's [`FieldMode`](crate::FieldMode).

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
mod codec {
    use super::phoenix_codec::{phoenix_decode, phoenix_encode, phoenix_stores_exactly};
    use super::TimeValue;
    use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
    use crate::field::{FieldMode, FieldShape, Form, KeyField};

    /// Text: an i64's 19 digits.
    pub(super) const SHAPE: FieldShape = FieldShape::fixed(8)
        .with_text_digits(19)
        .with_form(Form::Time);

    pub(super) fn before_epoch() -> EncodeError {
        EncodeError::new(EncodeErrorKind::Unsupported(
            "a time before the Unix epoch (1970-01-01)",
        ))
    }

    /// The whole units of `t` since the epoch, and whether `t` is exactly that many; an error
    /// before the epoch, which the binary and text forms do not hold.
    pub(super) fn count<T: TimeValue>(t: &T, mode: FieldMode) -> Result<(i64, bool), EncodeError> {
        let unit = u128::from(mode.unit().nanos());
        let nanos = u128::try_from(t.nanos()?).map_err(|_| before_epoch())?;
        let count = i64::try_from(nanos / unit).map_err(|_| {
            EncodeError::new(EncodeErrorKind::Unsupported(
                "a time whose count of units since the epoch does not fit a Java long",
            ))
        })?;
        Ok((count, nanos % unit == 0))
    }

    /// Whether `t` is stored as it is, in whole units (a time before the epoch, which only
    /// Phoenix stores, counts as exact elsewhere: it is refused rather than stored).
    pub(super) fn stores_exactly<T: TimeValue>(t: &T, mode: FieldMode) -> bool {
        if mode.is_phoenix() {
            return phoenix_stores_exactly(t, mode);
        }
        count(t, mode).map_or(true, |(_, exact)| exact)
    }

    /// The stored form of `count`: itself, or `Long.MAX_VALUE - count` with `desc`.
    fn stored(count: i64, mode: FieldMode) -> i64 {
        if mode.is_desc() {
            i64::MAX - count
        } else {
            count
        }
    }

    /// `mode` for the count as a number: ascending (a time writes `desc` itself).
    fn number_mode(mode: FieldMode) -> FieldMode {
        mode.natural()
    }

    pub(super) fn encoded_len(mode: FieldMode) -> usize {
        if mode.is_phoenix() {
            return mode.unit().phoenix_len();
        }
        if let Some(format) = mode.format() {
            return crate::time::strftime::len_of(format);
        }
        if mode.is_text() {
            19
        } else {
            8
        }
    }

    pub(super) fn encode<T: TimeValue>(
        t: &T,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        if mode.width().is_some() {
            return Err(crate::codec::unsupported_width());
        }
        if let Some(format) = mode.format() {
            return super::formatted::encode(t, format, out, mode);
        }
        if mode.is_phoenix() {
            return phoenix_encode(t, out, mode);
        }
        let (count, _) = count(t, mode)?;
        let value = stored(count, mode);
        if mode.is_text() {
            // Non-negative: the i64 text form is its zero-padded digits.
            value.encode(out, number_mode(mode))
        } else {
            // Java's Bytes.toBytes(long): big-endian two's complement, no sign flip.
            (value as u64).encode(out, number_mode(mode))
        }
    }

    pub(super) fn decode<T: TimeValue>(
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(T, usize), DecodeError> {
        use crate::field::DecodeField;
        let invalid = |what| DecodeError::new(DecodeErrorKind::Invalid(what), 0);
        if let Some(format) = mode.format() {
            return super::formatted::decode(input, format, mode);
        }
        if mode.is_phoenix() {
            return phoenix_decode(input, mode);
        }
        let (value, n) = if mode.is_text() {
            i64::decode_field(input, number_mode(mode))?
        } else {
            let (v, n) = u64::decode_field(input, number_mode(mode))?;
            let v = i64::try_from(v).map_err(|_| invalid("a time with its top bit set"))?;
            (v, n)
        };
        if value < 0 {
            return Err(invalid("a time before the Unix epoch"));
        }
        // Both forms are within 0..=i64::MAX, and so is the count.
        let count = stored(value, mode);
        let nanos = i128::from(count) * i128::from(mode.unit().nanos());
        let t = T::from_nanos(nanos).ok_or_else(|| {
            invalid("a count the time type does not hold (past its range, or not a whole date)")
        })?;
        Ok((t, n))
    }
}

#[cfg(any(feature = "std", feature = "chrono"))]
mod phoenix_codec {
    use super::TimeValue;
    use crate::buf::{out_prefix, take};
    use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
    use crate::field::FieldMode;
    use crate::format::invert;
    use crate::time::unit::TimeUnit;

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
    pub(in crate::time) fn phoenix_stores_exactly<T: TimeValue>(t: &T, mode: FieldMode) -> bool {
        mode.unit() == TimeUnit::Nanos || t.nanos().map_or(true, |n| split(n).1 == 0)
    }

    /// Phoenix's `DATE` and `TIME` (milliseconds; `unit = "ms"`) and `TIMESTAMP` (`unit = "ns"`):
    /// the milliseconds since the epoch as a `BIGINT` (sign bit flipped, 8 bytes big-endian),
    /// then for `TIMESTAMP` the nanoseconds within the millisecond, 4 bytes big-endian
    /// (`PTimestamp.toBytes`); `desc` inverts every byte.
    pub(in crate::time) fn phoenix_encode<T: TimeValue>(
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
        let len =
            match mode.unit() {
                TimeUnit::Nanos => {
                    image[8..].copy_from_slice(&sub.to_be_bytes());
                    12
                }
                TimeUnit::Millis => 8,
                _ => return Err(EncodeError::new(EncodeErrorKind::Unsupported(
                    "a Phoenix time counts milliseconds (DATE, TIME) or nanoseconds (TIMESTAMP)",
                ))),
            };
        let dst = out_prefix(out, len)?;
        dst.copy_from_slice(&image[..len]);
        if mode.is_desc() {
            invert(dst);
        }
        Ok(len)
    }

    /// Reads what [`phoenix_encode`] writes.
    pub(in crate::time) fn phoenix_decode<T: TimeValue>(
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
        let t = T::from_nanos(i128::from(millis) * NANOS_PER_MILLI + i128::from(sub)).ok_or_else(
            || invalid("a count the time type does not hold (past its range, or not a whole date)"),
        )?;
        Ok((t, len))
    }
}

#[cfg(any(feature = "std", feature = "chrono"))]
/// `KeyField` and `DecodeField` for a [`TimeValue`].
macro_rules! time_field {
    ($shape:expr; $($ty:ty),*) => {$(
        impl crate::field::KeyField for $ty {
            const SHAPE: crate::field::FieldShape = $shape;

            #[inline]
            fn field_len(&self, mode: crate::field::FieldMode) -> usize {
                codec::encoded_len(mode)
            }

            #[inline]
            fn encode(
                &self,
                out: &mut [u8],
                mode: crate::field::FieldMode,
            ) -> Result<usize, crate::error::EncodeError> {
                codec::encode(self, out, mode)
            }

            fn stores_exactly(&self, mode: crate::field::FieldMode) -> bool {
                match mode.format() {
                    Some(format) => super::formatted::stores_exactly(self, format),
                            None => codec::stores_exactly(self, mode),
                }
            }
        }

        impl<'k> crate::field::DecodeField<'k> for $ty {
            #[inline]
            fn decode_field(
                input: &'k [u8],
                mode: crate::field::FieldMode,
            ) -> Result<(Self, usize), crate::error::DecodeError> {
                codec::decode(input, mode)
            }
        }
    )*};
}
#[cfg(any(feature = "std", feature = "chrono"))]
const NANOS_PER_SECOND: i128 = 1_000_000_000;

#[cfg(feature = "std")]
mod system_time {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::{codec, TimeValue, NANOS_PER_SECOND};
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

    time_field!(codec::SHAPE.with_value(crate::field::ValueKind::SystemTime); SystemTime);
}

/// chrono's types (feature `chrono`): `DateTime<Utc>` and `NaiveDateTime` (as UTC) since the
/// epoch, `NaiveDate` as its midnight, `NaiveTime` since midnight.
#[cfg(feature = "chrono")]
mod chrono_types {
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};

    use super::{codec, TimeValue, NANOS_PER_SECOND};
    use crate::error::{EncodeError, EncodeErrorKind};
    use crate::time::strftime::Takes;

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

    use crate::field::ValueKind;
    time_field!(codec::SHAPE.with_formats(Takes::Date).with_value(ValueKind::DateTime); DateTime<Utc>);
    time_field!(codec::SHAPE.with_formats(Takes::Date).with_value(ValueKind::NaiveDateTime); NaiveDateTime);
    time_field!(codec::SHAPE.with_formats(Takes::Date).with_value(ValueKind::NaiveDate); NaiveDate);
    time_field!(codec::SHAPE.with_formats(Takes::TimeOfDay).with_value(ValueKind::NaiveTime); NaiveTime);
}

/// chrono's types written with a `format` (strftime syntax) in text layouts: the rendering, whose
/// length [`strftime`](crate::time::strftime) gives; read back with chrono's parser and written
/// again, so a key holds one rendering per value.
#[cfg(any(feature = "std", feature = "chrono"))]
mod formatted {
    use super::TimeValue;
    use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
    use crate::field::FieldMode;

    /// `fmt::Write` into a slice, refusing to run past it.
    struct SliceWriter<'a> {
        buf: &'a mut [u8],
        at: usize,
    }

    impl core::fmt::Write for SliceWriter<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let end = self.at.checked_add(s.len()).ok_or(core::fmt::Error)?;
            self.buf
                .get_mut(self.at..end)
                .ok_or(core::fmt::Error)?
                .copy_from_slice(s.as_bytes());
            self.at = end;
            Ok(())
        }
    }

    fn unsupported(what: &'static str) -> EncodeError {
        EncodeError::new(EncodeErrorKind::Unsupported(what))
    }

    /// The rendering of `t` into `buf`, and its length.
    fn render<T: TimeValue>(t: &T, format: &str, buf: &mut [u8]) -> Result<usize, EncodeError> {
        let mut w = SliceWriter { buf, at: 0 };
        t.render(format, &mut w).map_err(|_| {
            unsupported(
                "a time chrono cannot write in the field's format, or that writes longer than it",
            )
        })?;
        Ok(w.at)
    }

    pub(super) fn encode<T: TimeValue>(
        t: &T,
        format: &str,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        if !mode.is_text() || mode.is_desc() || mode.is_reverse() {
            return Err(unsupported(
                "a `format` outside a text layout, or with `desc` or `reverse`",
            ));
        }
        let len = crate::time::strftime::len_of(format);
        let dst = crate::buf::out_prefix(out, len)?;
        if render(t, format, dst)? != len {
            return Err(unsupported(
                "a time whose rendering in the field's format has another length (a year outside 0 to 9999)",
            ));
        }
        // `%y` reads back as 1970 to 2069: another year would come back as a different one.
        let two_digits = matches!(crate::time::strftime::spec(format), Ok(s) if s.two_digit_year());
        if two_digits {
            let back = core::str::from_utf8(dst)
                .ok()
                .and_then(|s| T::parse(s, format));
            if back.and_then(|b| b.year()) != t.year() {
                return Err(unsupported(
                    "a year outside 1970 to 2069, which a two-digit `%y` cannot tell apart",
                ));
            }
        }
        Ok(len)
    }

    pub(super) fn decode<T: TimeValue>(
        input: &[u8],
        format: &str,
        mode: FieldMode,
    ) -> Result<(T, usize), DecodeError> {
        let _ = mode;
        let len = crate::time::strftime::len_of(format);
        let bytes = crate::buf::take(input, len)?;
        let invalid = || {
            DecodeError::new(
                DecodeErrorKind::InvalidText("a time written in the field's format"),
                0,
            )
        };
        let text = core::str::from_utf8(bytes).map_err(|_| invalid())?;
        let t = T::parse(text, format).ok_or_else(invalid)?;
        // chrono's parser takes some forms its formatter never writes (spaces for zeros): a key
        // holds one rendering per value.
        let mut again = [0u8; 64];
        match render(&t, format, &mut again) {
            Ok(n) if again.get(..n) == Some(bytes) => Ok((t, len)),
            _ => Err(invalid()),
        }
    }

    pub(super) fn stores_exactly<T: TimeValue + PartialEq>(t: &T, format: &str) -> bool {
        let mut buf = [0u8; 64];
        let Ok(n) = render(t, format, &mut buf) else {
            return true;
        };
        core::str::from_utf8(&buf[..n])
            .ok()
            .and_then(|s| T::parse(s, format))
            .map_or(true, |back| back == *t)
    }
}
