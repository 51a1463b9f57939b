//! The unit a time field counts in (`unit = "s" | "ms" | "us" | "ns"`): one home for the names
//! the derive accepts and the scale the time codecs use.
//!
//! ```
//! use rowkey::TimeUnit;
//! assert_eq!(TimeUnit::from_name("us"), Some(TimeUnit::Micros));
//! assert_eq!(TimeUnit::Millis.name(), "ms");
//! ```

/// The unit a time field counts in, named by the field attribute `unit = "..."`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
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
    /// The bytes of a time counted in this unit in a Phoenix layout: `TIMESTAMP`'s 12
    /// (milliseconds, then the nanoseconds within the millisecond) for nanoseconds, `DATE`'s and
    /// `TIME`'s 8 (milliseconds) otherwise.
    pub(crate) const fn phoenix_len(self) -> usize {
        match self {
            TimeUnit::Nanos => 12,
            _ => 8,
        }
    }

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
