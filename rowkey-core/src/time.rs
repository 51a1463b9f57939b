//! Times as Java writes them: a count of units (`unit = "s" | "ms" | "us" | "ns"`, milliseconds by
//! default) since the Unix epoch. Binary layouts write the count as 8 bytes big-endian, exactly
//! `Bytes.toBytes(System.currentTimeMillis())`; `desc` writes `Long.MAX_VALUE - count`, exactly the
//! HBase idiom `Bytes.toBytes(Long.MAX_VALUE - ts)` (not the inverted bytes). Text layouts write the
//! count like an `i64`: 19 digits, `desc` as `Long.MAX_VALUE - count`.
//!
//! A time is stored in whole units: a finer time is truncated when it is written, and decodes to
//! its whole units. Equality binds a time as it is written (the row written with a time is found
//! by it); a range bound between two whole units keeps exactly the stored times within it.
//!
//! ```
//! use rowkey_core::TimeUnit;
//! assert_eq!(TimeUnit::from_name("us"), Some(TimeUnit::Micros));
//! assert_eq!(TimeUnit::Millis.name(), "ms");
//! ```

/// The unit a time field counts in, named by the field attribute `unit = "..."`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeUnit {
    /// `"s"`
    Seconds,
    /// `"ms"`, the default: Java's `System.currentTimeMillis()`.
    Millis,
    /// `"us"`
    Micros,
    /// `"ns"`
    Nanos,
}

impl TimeUnit {
    /// Every unit with the name `unit = "..."` gives it, in the order error messages list them.
    pub const ALL: [TimeUnit; 4] = [
        TimeUnit::Seconds,
        TimeUnit::Millis,
        TimeUnit::Micros,
        TimeUnit::Nanos,
    ];

    /// The name of the unit in `unit = "..."`.
    pub const fn name(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Millis => "ms",
            TimeUnit::Micros => "us",
            TimeUnit::Nanos => "ns",
        }
    }

    /// The unit named `name`, if any.
    pub fn from_name(name: &str) -> Option<TimeUnit> {
        TimeUnit::ALL.into_iter().find(|u| u.name() == name)
    }

    /// Nanoseconds in one unit.
    pub const fn nanos(self) -> u64 {
        match self {
            TimeUnit::Seconds => 1_000_000_000,
            TimeUnit::Millis => 1_000_000,
            TimeUnit::Micros => 1_000,
            TimeUnit::Nanos => 1,
        }
    }
}

#[cfg(feature = "std")]
mod system_time {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
    use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField};

    /// The whole units of `t` since the epoch, and whether `t` is exactly that many.
    fn count(t: &SystemTime, mode: FieldMode) -> Result<(i64, bool), EncodeError> {
        let since = t.duration_since(UNIX_EPOCH).map_err(|_| {
            EncodeError::new(EncodeErrorKind::Unsupported(
                "a time before the Unix epoch (1970-01-01)",
            ))
        })?;
        let unit = u128::from(mode.unit().nanos());
        let nanos = since.as_nanos();
        let count = i64::try_from(nanos / unit).map_err(|_| {
            EncodeError::new(EncodeErrorKind::Unsupported(
                "a time whose count of units since the epoch does not fit a Java long",
            ))
        })?;
        Ok((count, nanos % unit == 0))
    }

    /// The stored form of `count`: itself, or `Long.MAX_VALUE - count` with `desc`.
    fn stored(count: i64, mode: FieldMode) -> i64 {
        if mode.is_desc() {
            i64::MAX - count
        } else {
            count
        }
    }

    /// `mode` for the count as a number: ascending (the time writes `desc` itself).
    fn number_mode(mode: FieldMode) -> FieldMode {
        let plain = mode.natural();
        if mode.is_delimited() {
            FieldMode::INNER.nest(plain)
        } else {
            plain
        }
    }

    impl KeyField for SystemTime {
        // Text: an i64's 19 digits.
        const SHAPE: FieldShape = FieldShape::fixed(8)
            .with_text_digits(19)
            .with_form(Form::Time);

        #[inline]
        fn encoded_len(&self, mode: FieldMode) -> usize {
            if mode.is_text() {
                19
            } else {
                8
            }
        }

        fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
            if mode.width().is_some() {
                return Err(super::super::codec::unsupported_width());
            }
            let (count, _) = count(self, mode)?;
            let value = stored(count, mode);
            if mode.is_text() {
                // Non-negative: the i64 text form is its zero-padded digits.
                value.encode(out, number_mode(mode))
            } else {
                // Java's Bytes.toBytes(long): big-endian two's complement, no sign flip.
                (value as u64).encode(out, number_mode(mode))
            }
        }

        fn stores_exactly(&self, mode: FieldMode) -> bool {
            count(self, mode).map_or(true, |(_, exact)| exact)
        }
    }

    impl<'k> DecodeField<'k> for SystemTime {
        fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
            let (value, n) = if mode.is_text() {
                i64::decode(input, number_mode(mode))?
            } else {
                let (v, n) = u64::decode(input, number_mode(mode))?;
                let v = i64::try_from(v).map_err(|_| {
                    DecodeError::new(DecodeErrorKind::Invalid("a time with its top bit set"), 0)
                })?;
                (v, n)
            };
            if value < 0 {
                return Err(DecodeError::new(
                    DecodeErrorKind::Invalid("a time before the Unix epoch"),
                    0,
                ));
            }
            // Both forms are within 0..=i64::MAX, and so is the count.
            let count = stored(value, mode) as u64;
            let nanos = u128::from(count) * u128::from(mode.unit().nanos());
            let since = Duration::new(
                (nanos / 1_000_000_000) as u64,
                (nanos % 1_000_000_000) as u32,
            );
            let t = UNIX_EPOCH.checked_add(since).ok_or_else(|| {
                DecodeError::new(
                    DecodeErrorKind::Invalid("a time past what SystemTime holds"),
                    0,
                )
            })?;
            Ok((t, n))
        }
    }
}
