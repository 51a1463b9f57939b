//! Describing a field's bytes in words, from what the runtime knows of it: its type's shape and
//! the mode the layout places it with. Nested keys, type aliases and users' own types are
//! described by what they are, not by how their type is spelled.

use core::fmt;

use crate::field::column_type::column;
use crate::field::mode::FieldMode;
use crate::field::shape::{FieldShape, Form, TextRule, WidthRule};
use crate::words::Count;

/// How one segment of a key is written, as `K::LAYOUT` shows it: computed when the program
/// compiles from the field type's [`FieldShape`] and its [`FieldMode`], shown in words by
/// `Display`, and comparable with a string.
///
/// ```
/// use rowkey::RowKey;
/// #[derive(RowKey)]
/// struct Hit { #[rowkey(desc)] ts: i64, host: String }
/// let [ts, host] = Hit::LAYOUT.segments else { unreachable!() };
/// assert_eq!(
///     ts.encoding.to_string(),
///     "two's complement with the sign bit flipped, big-endian, 8 bytes, every byte inverted"
/// );
/// assert_eq!(host.encoding, "raw content to the end of the key");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    shape: FieldShape,
    mode: FieldMode,
}

impl Encoding {
    /// The encoding of a field of `shape` placed with `mode`.
    pub(crate) const fn of(shape: FieldShape, mode: FieldMode) -> Encoding {
        Encoding { shape, mode }
    }

    /// The field type's shape: what the type is, whatever the layout does with it.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Hit { at: std::time::SystemTime, id: u32 }
    /// assert!(Hit::LAYOUT.segments[0].encoding.shape().is_time());
    /// ```
    pub const fn shape(&self) -> FieldShape {
        self.shape
    }

    /// The mode the layout places the field with: `desc`, `reverse`, `width`, text.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Hit { #[rowkey(reverse)] id: u32, page: String }
    /// assert!(Hit::LAYOUT.segments[0].encoding.mode().is_reverse());
    /// ```
    pub const fn mode(&self) -> FieldMode {
        self.mode
    }

    fn binary(&self, f: &mut fmt::Formatter<'_>, tags: usize) -> fmt::Result {
        let (shape, mode) = (self.shape, self.mode);
        if tags > 0 {
            f.write_str("00 for None, or 01 then ")?;
            return self.binary(f, tags - 1);
        }
        match shape.form() {
            Form::Int => {
                f.write_str(if shape.is_signed() {
                    "two's complement with the sign bit flipped, big-endian"
                } else {
                    "big-endian"
                })?;
                match (mode.width(), shape.width_rule()) {
                    (Some(w), _) => write!(f, ", narrowed to {}", Count(w, "byte")),
                    (None, WidthRule::Narrow { max }) => write!(f, ", {}", Count(max, "byte")),
                    (None, _) => Ok(()),
                }
            }
            Form::Float => {
                f.write_str("IEEE bits big-endian: negatives all bits flipped, others the sign bit")
            }
            Form::Bool => f.write_str("00 or 01"),
            Form::Char => f.write_str("its u32, big-endian"),
            Form::ByteArray => f.write_str("the bytes"),
            Form::Content => match mode.width() {
                Some(w) => write!(f, "content padded with 00 to {}", Count(w, "byte")),
                None if !mode.is_delimited() => f.write_str("raw content to the end of the key"),
                None => f.write_str("content with 00 escaped as 00 FF, then 00 01"),
            },
            Form::Discriminant => f.write_str("the enum's discriminant, one byte"),
            Form::Record => f.write_str("a nested key: its fields in place"),
            Form::Time if self.mode.is_desc() => write!(
                f,
                "Long.MAX_VALUE - count of {} since the Unix epoch, 8 bytes big-endian",
                self.mode.unit().name()
            ),
            Form::Time => write!(
                f,
                "count of {} since the Unix epoch, 8 bytes big-endian (Java's Bytes.toBytes(long))",
                self.mode.unit().name()
            ),
            Form::Digest => write!(
                f,
                "the first {} of MD5 of the value",
                Count(self.shape.fixed_len(self.mode).unwrap_or(0), "byte")
            ),
            #[cfg(feature = "decimal")]
            Form::Decimal => f.write_str(
                "sign, exponent and base-100 digits without trailing zeros: ordered by value, one key per value",
            ),
            Form::Custom => f.write_str("its own encoding (a custom field type)"),
        }
    }

    fn text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (shape, mode) = (self.shape, self.mode);
        let digits = match (mode.width(), shape.text_rule()) {
            (Some(w), _) => w,
            (None, TextRule::Digits(d)) => d,
            (None, _) => 0,
        };
        match shape.form() {
            Form::Discriminant => {
                write!(f, "the enum's discriminant, {}", Count(digits, "digit"))
            }
            Form::Content => match mode.width() {
                Some(w) => write!(f, "text padded with spaces to {}", Count(w, "byte")),
                None if !mode.is_delimited() => f.write_str("text to the end of the key"),
                None => f.write_str("text up to the delimiter"),
            },
            Form::Record => f.write_str("a nested key: its segments in place"),
            Form::Time if mode.format().is_some() => write!(
                f,
                "the time as chrono formats it with {:?}, {}",
                mode.format().unwrap_or_default(),
                Count(
                    crate::time::strftime::len_of(mode.format().unwrap_or_default()),
                    "character"
                )
            ),
            Form::Time if mode.is_desc() => write!(
                f,
                "Long.MAX_VALUE - count of {} since the Unix epoch, 19 digits",
                mode.unit().name()
            ),
            Form::Time => write!(
                f,
                "count of {} since the Unix epoch, 19 digits",
                mode.unit().name()
            ),
            Form::Digest => {
                let digits = shape.fixed_len(mode).unwrap_or(0);
                let inverted = if mode.is_desc() { " inverted," } else { "" };
                write!(
                    f,
                    "MD5 of the value, its first {}{inverted} as {}",
                    Count(digits / 2, "byte"),
                    Count(digits, "lowercase hex digit")
                )
            }
            _ if matches!(shape.text_rule(), TextRule::Digits(_)) => {
                let digits = Count(digits, "digit");
                if mode.is_desc() {
                    write!(f, "decimal MAX - v, zero-padded to {digits}")
                } else {
                    write!(f, "decimal, zero-padded to {digits}")
                }
            }
            _ => f.write_str("its own text encoding (a custom field type)"),
        }
    }
}

impl Encoding {
    /// A column of a Phoenix layout: its Phoenix type, as Phoenix writes it.
    fn phoenix(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ok(column) = column(self.shape, self.mode) else {
            return f.write_str("no Phoenix column type");
        };
        write!(f, "Phoenix {}", column.ty)?;
        if column.nullable {
            f.write_str(", nullable")?;
        }
        if self.mode.is_desc() {
            f.write_str(", DESC (every byte inverted)")?;
        }
        Ok(())
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mode.is_phoenix() {
            return self.phoenix(f);
        }
        if self.mode.is_text() {
            self.text(f)?;
        } else {
            self.binary(f, self.shape.tags())?;
            // A time writes `desc` as Long.MAX_VALUE - count, said above.
            if self.mode.is_desc() && !matches!(self.shape.form(), Form::Time) {
                f.write_str(", every byte inverted")?;
            }
        }
        if self.mode.is_reverse() {
            f.write_str(if self.mode.is_text() {
                ", reversed"
            } else {
                ", bytes reversed"
            })?;
        }
        Ok(())
    }
}

impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Compares the words of an encoding with a string, without building the string.
impl PartialEq<str> for Encoding {
    fn eq(&self, other: &str) -> bool {
        struct Compare<'a> {
            rest: &'a str,
            same: bool,
        }
        impl fmt::Write for Compare<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.rest.strip_prefix(s) {
                    Some(rest) => self.rest = rest,
                    None => self.same = false,
                }
                Ok(())
            }
        }
        let mut cmp = Compare {
            rest: other,
            same: true,
        };
        fmt::write(&mut cmp, format_args!("{self}")).is_ok() && cmp.same && cmp.rest.is_empty()
    }
}

impl PartialEq<&str> for Encoding {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}
