//! Times shown as dates: nanoseconds since the Unix epoch written and read as RFC 3339 in UTC
//! (`2023-11-14T22:13:20.123Z`), the one text of a time in `explain`, the schema's values and the
//! `rowkey` command, whatever the layout stores (a count of units, Phoenix's milliseconds).
//!
//! The fraction has as many digits as the time needs, in groups of three (none, milliseconds,
//! microseconds, nanoseconds), as chrono's `Debug` writes `DateTime<Utc>`; years past 9999 or
//! before 0 are written with a sign (`+12345-01-01T00:00:00Z`), as ISO 8601's expanded years and
//! chrono are. The reader takes what the writer writes, any fraction of 1 to 9 digits, `z`, a
//! space or `t` in place of `T`, and a `+hh:mm` or `-hh:mm` offset instead of `Z`.
//!
//! Dates are proleptic Gregorian, by Howard Hinnant's `days_from_civil` and `civil_from_days`,
//! which are exact over the whole range of `i64` days used here.

// The reader serves the schema (values to encode); the writer serves `explain` as well.
#![cfg_attr(not(feature = "schema"), allow(dead_code))]

use core::fmt;

const NANOS_PER_SECOND: i128 = 1_000_000_000;
const SECONDS_PER_DAY: i128 = 86_400;

/// Nanoseconds since the epoch, shown as an RFC 3339 date in UTC by `Display` and `Debug` alike
/// (`explain` shows values by `Debug`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rfc3339(pub(crate) i128);

impl Rfc3339 {
    /// The instant of `t`.
    pub(crate) fn of(t: std::time::SystemTime) -> Rfc3339 {
        use crate::time::TimeValue;
        // A SystemTime always has its nanoseconds (`nanos` fails only for chrono's leap seconds).
        Rfc3339(t.nanos().unwrap_or_default())
    }
}

impl fmt::Debug for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The year, month (1 to 12) and day (1 to 31) of the day `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // 0 ..= 146096
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // 0 ..= 399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // 0 ..= 365
    let mp = (5 * doy + 2) / 153; // 0 ..= 11, March first
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The days from 1970-01-01 to `year`-`month`-`day` (month 1 to 12, day 1 to 31).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400); // 0 ..= 399
    let month = i64::from(month);
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1; // 0 ..= 365
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // 0 ..= 146096
    era * 146_097 + doe - 719_468
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The most days from the epoch a date is written for: past a trillion years, where no time type
/// reaches (an `i64` of seconds is 292 billion years), `Display` writes the count instead.
const MAX_DAYS: i128 = 1 << 48;

impl fmt::Display for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.div_euclid(NANOS_PER_SECOND);
        let nanos = self.0.rem_euclid(NANOS_PER_SECOND) as u32;
        let days = secs.div_euclid(SECONDS_PER_DAY);
        let of_day = secs.rem_euclid(SECONDS_PER_DAY) as u32;
        if !(-MAX_DAYS..=MAX_DAYS).contains(&days) {
            return write!(f, "{} ns since the Unix epoch", self.0);
        }
        let (year, month, day) = civil_from_days(days as i64);
        if (0..=9999).contains(&year) {
            write!(f, "{year:04}")?;
        } else {
            write!(f, "{year:+05}")?;
        }
        write!(
            f,
            "-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            of_day / 3600,
            of_day / 60 % 60,
            of_day % 60
        )?;
        if nanos % 1_000_000 == 0 && nanos != 0 {
            write!(f, ".{:03}", nanos / 1_000_000)?;
        } else if nanos % 1_000 == 0 && nanos != 0 {
            write!(f, ".{:06}", nanos / 1_000)?;
        } else if nanos != 0 {
            write!(f, ".{nanos:09}")?;
        }
        f.write_str("Z")
    }
}

/// A cursor over the text being read.
struct Text<'a>(&'a [u8]);

impl Text<'_> {
    /// Exactly `n` ASCII digits, as a number.
    fn digits(&mut self, n: usize) -> Option<i64> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        let mut v = 0i64;
        for &b in head {
            if !b.is_ascii_digit() {
                return None;
            }
            v = v * 10 + i64::from(b - b'0');
        }
        self.0 = rest;
        Some(v)
    }

    /// The next byte, if it is one of `of`.
    fn one_of(&mut self, of: &[u8]) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        if !of.contains(&b) {
            return None;
        }
        self.0 = rest;
        Some(b)
    }

    /// How many ASCII digits come next.
    fn run_of_digits(&self) -> usize {
        self.0.iter().take_while(|b| b.is_ascii_digit()).count()
    }
}

/// The nanoseconds since the epoch of an RFC 3339 date and time (see the module's docs for what
/// it takes), or `None` for text that is not one or names a day or time that does not exist
/// (`2023-02-30`, `24:00:00`; a leap second `:60` has no count of its own).
pub(crate) fn parse(text: &str) -> Option<i128> {
    let mut t = Text(text.as_bytes());
    let year = match t.one_of(b"+-") {
        // An expanded year: its sign, then at least 4 digits.
        Some(sign) => {
            let n = t.run_of_digits();
            if !(4..=12).contains(&n) {
                return None;
            }
            let y = t.digits(n)?;
            if sign == b'-' {
                -y
            } else {
                y
            }
        }
        None => t.digits(4)?,
    };
    t.one_of(b"-")?;
    let month = t.digits(2)? as u32;
    t.one_of(b"-")?;
    let day = t.digits(2)? as u32;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    t.one_of(b"Tt ")?;
    let hour = t.digits(2)?;
    t.one_of(b":")?;
    let minute = t.digits(2)?;
    t.one_of(b":")?;
    let second = t.digits(2)?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut nanos = 0i128;
    if t.one_of(b".").is_some() {
        let n = t.run_of_digits();
        if !(1..=9).contains(&n) {
            return None;
        }
        nanos = i128::from(t.digits(n)?) * 10i128.pow(9 - n as u32);
    }
    let offset_secs = match t.one_of(b"Zz+-")? {
        b'Z' | b'z' => 0,
        sign => {
            let h = t.digits(2)?;
            t.one_of(b":")?;
            let m = t.digits(2)?;
            if h > 23 || m > 59 {
                return None;
            }
            let secs = h * 3600 + m * 60;
            if sign == b'-' {
                -secs
            } else {
                secs
            }
        }
    };
    if !t.0.is_empty() {
        return None;
    }
    let days = i128::from(days_from_civil(year, month, day));
    let secs = days * SECONDS_PER_DAY + i128::from(hour * 3600 + minute * 60 + second)
        - i128::from(offset_secs);
    Some(secs * NANOS_PER_SECOND + nanos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Dates whose counts were computed independently: `date -u -d @SECONDS` (GNU coreutils)
    /// and Java's `Instant.ofEpochSecond(s, n).toString()`.
    #[test]
    fn known_dates_are_written_and_read_back() {
        let cases: &[(i128, &str)] = &[
            (0, "1970-01-01T00:00:00Z"),
            (1_700_000_000_000_000_000, "2023-11-14T22:13:20Z"),
            (1_700_000_000_123_000_000, "2023-11-14T22:13:20.123Z"),
            (1_700_000_000_123_456_000, "2023-11-14T22:13:20.123456Z"),
            (1_700_000_000_123_456_789, "2023-11-14T22:13:20.123456789Z"),
            (-1_000_000_000, "1969-12-31T23:59:59Z"),
            (-1, "1969-12-31T23:59:59.999999999Z"),
            (-1_000_000, "1969-12-31T23:59:59.999Z"),
            (951_782_400_000_000_000, "2000-02-29T00:00:00Z"),
            (-2_208_988_800_000_000_000, "1900-01-01T00:00:00Z"),
            (-62_135_596_800_000_000_000, "0001-01-01T00:00:00Z"),
            (253_402_300_799_000_000_000, "9999-12-31T23:59:59Z"),
            (253_402_300_800_000_000_000, "+10000-01-01T00:00:00Z"),
            (-62_167_219_200_000_000_000, "0000-01-01T00:00:00Z"),
            (-62_198_755_200_000_000_000, "-0001-01-01T00:00:00Z"),
        ];
        for &(nanos, text) in cases {
            assert_eq!(Rfc3339(nanos).to_string(), text, "{nanos}");
            assert_eq!(parse(text), Some(nanos), "{text}");
        }
    }

    #[test]
    fn offsets_and_other_spellings_read_as_the_same_instant() {
        let at = Some(1_700_000_000_000_000_000);
        for text in [
            "2023-11-14T22:13:20Z",
            "2023-11-14t22:13:20z",
            "2023-11-14 22:13:20Z",
            "2023-11-14T23:13:20+01:00",
            "2023-11-14T17:13:20-05:00",
            "2023-11-14T22:13:20.0Z",
            "2023-11-14T22:13:20.000000000Z",
        ] {
            assert_eq!(parse(text), at, "{text}");
        }
    }

    #[test]
    fn what_is_not_a_date_is_refused() {
        for text in [
            "",
            "1700000000000",
            "2023-11-14",
            "2023-11-14T22:13:20",
            "2023-02-29T00:00:00Z",
            "2023-13-01T00:00:00Z",
            "2023-11-14T24:00:00Z",
            "2023-11-14T23:59:60Z",
            "2023-11-14T22:13:20.Z",
            "2023-11-14T22:13:20.1234567890Z",
            "2023-11-14T22:13:20Z ",
            "2023-11-14T22:13:20+1:00",
            "+123-01-01T00:00:00Z",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }

    /// Every day of 800 years around the epoch, and a spread of instants, round trip; the days
    /// step one at a time, so a day skipped or doubled by the conversion shows.
    #[test]
    fn days_and_instants_round_trip() {
        let mut last: Option<(i64, u32, u32)> = None;
        for days in -146_097..146_097 {
            let ymd = civil_from_days(days);
            assert_eq!(days_from_civil(ymd.0, ymd.1, ymd.2), days);
            if let Some((y, m, d)) = last {
                let next = if d < days_in_month(y, m) {
                    (y, m, d + 1)
                } else if m < 12 {
                    (y, m + 1, 1)
                } else {
                    (y + 1, 1, 1)
                };
                assert_eq!(ymd, next, "day {days}");
            }
            last = Some(ymd);
        }
        let mut x: i128 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..10_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let nanos = (x >> 64) % 400_000_000_000_000_000_000; // within about ±12,000 years
            assert_eq!(parse(&Rfc3339(nanos).to_string()), Some(nanos), "{nanos}");
        }
    }
}
