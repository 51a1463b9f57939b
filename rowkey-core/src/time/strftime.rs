//! What a chrono `format` (strftime syntax) writes into a text key, read from the format alone:
//! its length, which must be the same for every time, whether its renderings sort in time order,
//! and which parts of a time it keeps. The derive checks a field's `format` with it when it
//! expands, and the runtime sizes the field with it; chrono itself only renders and parses.
//!
//! Supported: `%Y` (4 digits: years 0 to 9999), `%y`, `%m`, `%d`, `%e`, `%j`, `%H`, `%k`, `%I`,
//! `%l`, `%M`, `%S`, `%f` and `%3f`/`%6f`/`%9f`, `%.3f`/`%.6f`/`%.9f`, `%b`/`%h`, `%a`, `%p`, `%u`,
//! `%w`, `%F`, `%T`, `%R`, `%D`, `%%`, `%n`, `%t`, and any other character as itself.

/// Why a format cannot be a key's field: where in the format, and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The specifier at byte `at` renders times in different lengths (`%A`, `%B`, `%Z`, `%s`,
    /// `%.f`, `%+`, or a `-` that drops padding).
    Variable {
        /// Byte offset of the `%`.
        at: usize,
    },
    /// The specifier at byte `at` is not one rowkey writes into keys (week numbers, time zones,
    /// locale forms, padding modifiers).
    Unsupported {
        /// Byte offset of the `%`.
        at: usize,
    },
    /// The format writes nothing that depends on the time.
    Constant,
}

/// The parts of a time a format writes, as bits.
pub mod parts {
    /// The year (`%Y`, `%y`).
    pub const YEAR: u8 = 1;
    /// The month (`%m`, `%b`).
    pub const MONTH: u8 = 2;
    /// The day of the month (`%d`, `%e`).
    pub const DAY: u8 = 4;
    /// The day of the year (`%j`): month and day at once.
    pub const ORDINAL: u8 = 8;
    /// The hour.
    pub const HOUR: u8 = 16;
    /// The minute.
    pub const MINUTE: u8 = 32;
    /// The second.
    pub const SECOND: u8 = 64;
    /// A fraction of the second.
    pub const FRACTION: u8 = 128;
}

/// What a valid format writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    len: usize,
    ordered: bool,
    parts: u8,
    two_digit_year: bool,
}

impl Spec {
    /// The length of every rendering, in bytes.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the format writes nothing (never true of a [`spec`] result).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether renderings sort as the times do: the year, then month and day (or the day of the
    /// year), then hour, minute, second and fraction, each after the one above it and none
    /// skipped, in 24-hour form, with `%Y` (`%y` wraps at the turn of a century); for a time of
    /// day the same from the hour.
    pub const fn is_ordered(&self) -> bool {
        self.ordered
    }

    /// The parts of a time the format writes (the bits of the `parts` module).
    pub const fn parts(&self) -> u8 {
        self.parts
    }

    /// Whether the year is written in two digits (`%y`), which parse back as 1970 to 2069.
    pub const fn two_digit_year(&self) -> bool {
        self.two_digit_year
    }
}

/// Significance ranks of ordered parts: 0 year, 1 month, 2 day (the day of the year is 1 and 2),
/// 3 hour, 4 minute, 5 second, 6 fraction. `NONE` fills an item's unused ranks.
const NONE: u8 = 0xFF;

/// One specifier: its rendered length, the parts it writes, its rank, how many bytes of the
/// format it takes after the `%`, whether its renderings can sort in time order, and whether it
/// writes a two-digit year.
struct Item {
    len: usize,
    parts: u8,
    ranks: [u8; 3],
    taken: usize,
    sorts: bool,
    two_digit_year: bool,
}

const fn item(len: usize, parts: u8, ranks: [u8; 3], taken: usize) -> Item {
    Item {
        len,
        parts,
        ranks,
        taken,
        sorts: true,
        two_digit_year: false,
    }
}

impl Item {
    /// The same specifier, whose renderings do not sort in time order.
    const fn unordered(self) -> Item {
        Item {
            sorts: false,
            ..self
        }
    }

    /// The same specifier, writing the year in two digits.
    const fn two_digit_year(self) -> Item {
        Item {
            two_digit_year: true,
            ..self
        }
    }
}

/// No rank: literal text, or parts that do not sort (month names, weekdays, AM/PM).
const NO: [u8; 3] = [0xFE, 0xFE, 0xFE];

/// What `fmt` writes, or why it cannot be a key's field.
pub const fn spec(fmt: &str) -> Result<Spec, Problem> {
    let b = fmt.as_bytes();
    let mut i = 0;
    let mut sum = Sum::NOTHING;
    while i < b.len() {
        if b[i] != b'%' {
            sum.len += 1;
            i += 1;
            continue;
        }
        let it = match specifier(b, i) {
            Ok(it) => it,
            Err(problem) => return Err(problem),
        };
        i += 1 + it.taken;
        sum = sum.add(it);
    }
    if sum.parts == 0 {
        return Err(Problem::Constant);
    }
    Ok(Spec {
        len: sum.len,
        ordered: sum.ordered,
        parts: sum.parts,
        two_digit_year: sum.two_digit_year,
    })
}

/// What the specifiers read so far write, added up.
struct Sum {
    len: usize,
    parts: u8,
    ordered: bool,
    two_digit_year: bool,
    /// The rank the next ranked part must have; `NONE` before the first.
    next_rank: u8,
}

impl Sum {
    const NOTHING: Sum = Sum {
        len: 0,
        parts: 0,
        ordered: true,
        two_digit_year: false,
        next_rank: NONE,
    };

    /// The sum with `it` written after it.
    const fn add(self, it: Item) -> Sum {
        let (next_rank, in_rank) = follow(self.next_rank, it.ranks);
        Sum {
            len: self.len + it.len,
            parts: self.parts | it.parts,
            ordered: self.ordered && it.sorts && in_rank,
            two_digit_year: self.two_digit_year || it.two_digit_year,
            next_rank,
        }
    }
}

/// Follows `ranks` on from `next_rank`: the rank expected after them, and whether they came one
/// after another, from the year or from the hour (literal text and unordered parts carry none).
const fn follow(mut next_rank: u8, ranks: [u8; 3]) -> (u8, bool) {
    let mut in_rank = true;
    let mut r = 0;
    while r < 3 {
        let rank = ranks[r];
        if rank < NO[0] {
            let first = next_rank == NONE;
            if (first && (rank == 0 || rank == 3)) || rank == next_rank {
                next_rank = rank + 1;
            } else {
                in_rank = false;
            }
        }
        r += 1;
    }
    (next_rank, in_rank)
}

/// The byte at `i` of `b`, or 0 past its end.
const fn byte_at(b: &[u8], i: usize) -> u8 {
    if i < b.len() {
        b[i]
    } else {
        0
    }
}

/// The specifier whose `%` is at byte `at` of `b`.
const fn specifier(b: &[u8], at: usize) -> Result<Item, Problem> {
    use parts::*;
    if at + 1 >= b.len() {
        return Err(Problem::Unsupported { at });
    }
    let c = b[at + 1];
    let d = byte_at(b, at + 2);
    let e = byte_at(b, at + 3);
    Ok(match c {
        b'Y' => item(4, YEAR, [0, NONE, NONE], 1),
        // Ranked as the year, but two digits wrap at the turn of a century.
        b'y' => item(2, YEAR, [0, NONE, NONE], 1)
            .unordered()
            .two_digit_year(),
        b'm' => item(2, MONTH, [1, NONE, NONE], 1),
        b'b' | b'h' => item(3, MONTH, NO, 1).unordered(),
        b'd' | b'e' => item(2, DAY, [2, NONE, NONE], 1),
        b'j' => item(3, ORDINAL, [1, 2, NONE], 1),
        b'H' | b'k' => item(2, HOUR, [3, NONE, NONE], 1),
        b'I' | b'l' => item(2, HOUR, NO, 1).unordered(),
        b'p' | b'P' => item(2, 0, NO, 1).unordered(),
        b'M' => item(2, MINUTE, [4, NONE, NONE], 1),
        b'S' => item(2, SECOND, [5, NONE, NONE], 1),
        b'f' => item(9, FRACTION, [6, NONE, NONE], 1),
        b'3' | b'6' | b'9' if d == b'f' => item((c - b'0') as usize, FRACTION, [6, NONE, NONE], 2),
        b'.' if (e == b'f') && (d == b'3' || d == b'6' || d == b'9') => {
            item(1 + (d - b'0') as usize, FRACTION, [6, NONE, NONE], 3)
        }
        b'.' if d == b'f' => return Err(Problem::Variable { at }),
        b'a' => item(3, 0, NO, 1).unordered(),
        b'u' | b'w' => item(1, 0, NO, 1).unordered(),
        b'F' => item(10, YEAR | MONTH | DAY, [0, 1, 2], 1),
        b'T' => item(8, HOUR | MINUTE | SECOND, [3, 4, 5], 1),
        b'R' => item(5, HOUR | MINUTE, [3, 4, NONE], 1),
        b'D' => item(8, YEAR | MONTH | DAY, NO, 1)
            .unordered()
            .two_digit_year(),
        b'%' | b'n' | b't' => item(1, 0, NO, 1),
        b'A' | b'B' | b'Z' | b's' | b'+' | b'-' => return Err(Problem::Variable { at }),
        _ => return Err(Problem::Unsupported { at }),
    })
}

/// The length `fmt` renders in, or 0 when it is not a valid key format (the derive has refused
/// it before anything runs).
pub const fn len_of(fmt: &str) -> usize {
    match spec(fmt) {
        Ok(s) => s.len,
        Err(_) => 0,
    }
}

/// Which formats a time type takes: what its value must keep to be read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "chrono"), allow(dead_code))]
pub enum Takes {
    /// No `format` (everything but chrono's types).
    Nothing,
    /// A date, alone or with a time of day: the year, and the month and day or the day of the
    /// year (a time of day, when kept, needs its hour and minute).
    Date,
    /// A time of day: the hour and minute, and no date.
    TimeOfDay,
}

/// Whether a type that `takes` formats can be written with `fmt` and read back.
pub const fn fits(fmt: &str, takes: Takes) -> bool {
    use parts::*;
    let Ok(s) = spec(fmt) else {
        return false;
    };
    let p = s.parts;
    let date =
        p & (YEAR | MONTH | DAY) == YEAR | MONTH | DAY || p & (YEAR | ORDINAL) == YEAR | ORDINAL;
    let any_date = p & (YEAR | MONTH | DAY | ORDINAL) != 0;
    let any_time = p & (HOUR | MINUTE | SECOND | FRACTION) != 0;
    let time = p & (HOUR | MINUTE) == HOUR | MINUTE;
    match takes {
        Takes::Nothing => false,
        Takes::Date => date && (!any_time || time),
        Takes::TimeOfDay => time && !any_date,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_tells_length_order_and_problems() {
        let s = spec("%Y-%m-%d %H:%M").unwrap();
        assert_eq!(s.len(), 16);
        assert!(s.is_ordered());
        assert!(!spec("%d%m%y").unwrap().is_ordered()); // day first: not time order
        assert_eq!(spec("%A").unwrap_err(), Problem::Variable { at: 0 }); // "Monday", "Friday"
    }

    #[test]
    fn a_format_fits_what_the_type_keeps() {
        assert!(fits("%y%m%d", Takes::Date));
        assert!(fits("%H%M%S", Takes::TimeOfDay));
        assert!(!fits("%H%M", Takes::Date)); // no date
        assert!(!fits("%Y%m%d", Takes::TimeOfDay)); // a time of day has no date
        assert!(!fits("%Y%m", Takes::Date)); // no day
        assert!(!fits("%Y%m%d", Takes::Nothing));
    }
}
