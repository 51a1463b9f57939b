//! The binary format's bytes in words: how `K::LAYOUT`'s table describes a field.

use core::fmt;

use crate::field::mode::FieldMode;
use crate::field::shape::{FieldShape, Form, WidthRule};
use crate::words::Count;

/// Describes a field of `shape` written with `mode`.
pub(crate) fn describe(
    shape: FieldShape,
    mode: FieldMode,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    content(shape, mode, f, shape.tags())?;
    // A time writes `desc` as Long.MAX_VALUE - count, said in its words.
    if mode.is_desc() && !matches!(shape.form(), Form::Time) {
        f.write_str(", every byte inverted")?;
    }
    if mode.is_reverse() {
        f.write_str(", bytes reversed")?;
    }
    Ok(())
}

fn content(
    shape: FieldShape,
    mode: FieldMode,
    f: &mut fmt::Formatter<'_>,
    tags: usize,
) -> fmt::Result {
    if tags > 0 {
        f.write_str("00 for None, or 01 then ")?;
        return content(shape, mode, f, tags - 1);
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
        Form::Time if mode.is_desc() => write!(
            f,
            "Long.MAX_VALUE - count of {} since the Unix epoch, 8 bytes big-endian",
            mode.unit().name()
        ),
        Form::Time => write!(
            f,
            "count of {} since the Unix epoch, 8 bytes big-endian (Java's Bytes.toBytes(long))",
            mode.unit().name()
        ),
        Form::Digest => write!(
            f,
            "the first {} of MD5 of the value",
            Count(shape.fixed_len(mode).unwrap_or(0), "byte")
        ),
        #[cfg(feature = "decimal")]
        Form::Decimal => f.write_str(
            "sign, exponent and base-100 digits without trailing zeros: ordered by value, one key per value",
        ),
        Form::Custom => f.write_str("its own encoding (a custom field type)"),
    }
}
