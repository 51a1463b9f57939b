//! Apache Phoenix's bytes in words: how `K::LAYOUT`'s table describes a column.

use core::fmt;

use crate::field::column_type::column;
use crate::field::mode::FieldMode;
use crate::field::shape::FieldShape;

/// Describes a column of a Phoenix layout: its Phoenix type, as Phoenix writes it.
pub(crate) fn describe(
    shape: FieldShape,
    mode: FieldMode,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let Ok(column) = column(shape, mode) else {
        return f.write_str("no Phoenix column type");
    };
    write!(f, "Phoenix {}", column.ty)?;
    if column.nullable {
        f.write_str(", nullable")?;
    }
    if mode.is_desc() {
        f.write_str(", DESC (every byte inverted)")?;
    }
    Ok(())
}
