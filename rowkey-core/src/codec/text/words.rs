//! The text format's bytes in words: how `K::LAYOUT`'s table describes a field.

use core::fmt;

use crate::field::mode::FieldMode;
use crate::field::shape::{FieldShape, Form, TextRule};
use crate::words::Count;

/// Describes a field of `shape` written with `mode`.
pub(crate) fn describe(
    shape: FieldShape,
    mode: FieldMode,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    content(shape, mode, f)?;
    if mode.is_reverse() {
        f.write_str(", reversed")?;
    }
    Ok(())
}

fn content(shape: FieldShape, mode: FieldMode, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
