//! The Phoenix column type a field is: the one mapping from a field type's [`FieldShape`] and
//! its mode to Apache Phoenix's primary-key columns, which the derive's compile-time check, the
//! DDL (`rowkey::phoenix::ddl`) and `LAYOUT`'s words read; and where a value its column refuses
//! stands among the stored values, for a scan's bounds.

use super::shape::{Form, ValueKind, WidthRule};
use core::cmp::Ordering;

use super::{FieldMode, FieldShape, KeyField};
use crate::sink::ValueSink;
use crate::time::unit::TimeUnit;

/// A Phoenix column type, as a primary-key column holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColumnType {
    Int {
        bytes: usize,
        signed: bool,
    },
    Float,
    Double,
    Boolean,
    Varchar,
    Char(usize),
    Binary(usize),
    Varbinary,
    Date,
    Time,
    Timestamp,
    #[cfg(feature = "decimal")]
    Decimal,
}

/// Where `value`, which its Phoenix column refuses, lies among the values the column stores, for
/// scan planning ([`KeyField::beyond_width`]): an `UNSIGNED_*` value above the signed maximum is
/// above them all, and an empty string or byte string (NULL to Phoenix), or a VARCHAR that starts
/// with the separator `00`, below every value of a NOT NULL column. (In a nullable one it lies
/// right after NULL: see [`stand_in`].) Other refusals have no place here.
pub(crate) fn beyond<T: KeyField + ?Sized>(value: &T, mode: FieldMode) -> Option<Ordering> {
    let column = column(T::SHAPE, mode).ok()?;
    match column.ty {
        ColumnType::Int { signed: false, .. } => Some(Ordering::Greater),
        ColumnType::Varchar | ColumnType::Varbinary | ColumnType::Char(_) if !column.nullable => {
            let mut first = First::default();
            value.value_bytes(mode, &mut first).ok()?;
            let below = match first.0 {
                None => true,
                Some(b) => b == 0 && holds_no_nul(column.ty, mode),
            };
            below.then_some(Ordering::Less)
        }
        _ => None,
    }
}

/// Whether a column of type `ty` placed with `mode` refuses a `00` in its content: a VARCHAR
/// that another column follows, or a descending one.
fn holds_no_nul(ty: ColumnType, mode: FieldMode) -> bool {
    ty == ColumnType::Varchar && (mode.is_delimited() || mode.is_desc())
}

/// The first byte a value feeds a sink with.
#[derive(Default)]
struct First(Option<u8>);

impl ValueSink for First {
    fn write(&mut self, bytes: &[u8]) {
        if self.0.is_none() {
            self.0 = bytes.first().copied();
        }
    }
}

/// The stored value right below `value`, which its Phoenix column refuses, for a scan's bounds
/// (`>= value` is `>` it, `<= value` is `<=` it; [`KeyField::encode_stand_in`]).
#[cfg(feature = "alloc")]
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum StandIn {
    /// NULL, for an empty `Some` of a nullable column (or one whose content starts with `00`).
    Null,
    /// This content, bare: a VARCHAR's content before the first `00` it cannot hold.
    Content(alloc::vec::Vec<u8>),
}

/// The stand-in of `value`, which its Phoenix column refuses (see [`StandIn`]); `None` when the
/// refusal leaves no place among the stored values ([`beyond`] places the rest).
#[cfg(feature = "alloc")]
pub(crate) fn stand_in<T: KeyField + ?Sized>(value: &T, mode: FieldMode) -> Option<StandIn> {
    /// The bytes a value feeds a hash with.
    struct Collect(alloc::vec::Vec<u8>);
    impl ValueSink for Collect {
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
    }
    let column = column(T::SHAPE, mode).ok()?;
    let mut all = Collect(alloc::vec::Vec::new());
    value.value_bytes(mode, &mut all).ok()?;
    // An `Option` feeds its tag first.
    let content = all.0.get(usize::from(column.nullable)..)?;
    let before_nul = match content.iter().position(|&b| b == 0) {
        Some(at) if holds_no_nul(column.ty, mode) => &content[..at],
        _ if content.is_empty() => content,
        _ => return None,
    };
    match (before_nul.is_empty(), column.nullable) {
        (true, true) => Some(StandIn::Null),
        // Below every value of a NOT NULL column: `beyond` says so.
        (true, false) => None,
        (false, _) => Some(StandIn::Content(before_nul.to_vec())),
    }
}

/// A primary-key column: its type and whether it is nullable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Column {
    pub(crate) ty: ColumnType,
    pub(crate) nullable: bool,
}

/// The Phoenix column a field of `shape` placed with `mode` is, or why Phoenix cannot hold it.
/// The one home of the mapping: the derive's compile-time check, [`ddl`](crate::phoenix::ddl) and the lock read it.
/// `mode` places the field in a Phoenix key (its format is not asked: a key has one format, and
/// the derive refuses `text` beside `phoenix`).
pub(crate) const fn column(shape: FieldShape, mode: FieldMode) -> Result<Column, &'static str> {
    if mode.is_reverse() {
        return Err(
            "Phoenix stores no column reversed: `reverse` does not apply to a Phoenix layout",
        );
    }
    let nullable = match shape.tags() {
        0 => false,
        1 => true,
        _ => return Err("a Phoenix column has one NULL: `Option<Option<T>>` would need two"),
    };
    let ty = match shape.form() {
        Form::Int => {
            let WidthRule::Narrow { max } = shape.width_rule() else {
                return Err("Phoenix has no column type for this field type");
            };
            if mode.width().is_some() {
                return Err("Phoenix's integer columns have their full size: `width` does not apply");
            }
            if max > 8 {
                return Err("Phoenix has no 128-bit integer column: use i64, u64 or DECIMAL");
            }
            ColumnType::Int {
                bytes: max,
                signed: shape.is_signed(),
            }
        }
        Form::Float => match shape.fixed_len(FieldMode::LAST) {
            Some(4) => ColumnType::Float,
            _ => ColumnType::Double,
        },
        Form::Bool => ColumnType::Boolean,
        #[cfg(feature = "decimal")]
        Form::Decimal => ColumnType::Decimal,
        Form::Time => match (shape.value(), mode.unit()) {
            (ValueKind::NaiveTime, TimeUnit::Millis) => ColumnType::Time,
            (ValueKind::NaiveTime, _) => {
                return Err("Phoenix's TIME counts milliseconds: a `NaiveTime` column takes `unit = \"ms\"`, the default")
            }
            (_, TimeUnit::Millis) => ColumnType::Date,
            (_, TimeUnit::Nanos) => ColumnType::Timestamp,
            _ => {
                return Err("Phoenix's time columns count milliseconds (DATE, the default) or nanoseconds (TIMESTAMP, `unit = \"ns\"`)")
            }
        },
        Form::ByteArray => match shape.fixed_len(FieldMode::LAST) {
            Some(n) => ColumnType::Binary(n),
            None => return Err("Phoenix has no column type for this field type"),
        },
        Form::Content => match (shape.value(), mode.width()) {
            (ValueKind::Str, Some(n)) => ColumnType::Char(n),
            (ValueKind::Str, None) => ColumnType::Varchar,
            (_, Some(_)) => {
                return Err("Phoenix's BINARY(n) is a byte array field, `[u8; N]`: `width` does not apply to byte strings")
            }
            (_, None) => {
                if mode.is_delimited() {
                    return Err("Phoenix's VARBINARY can only be the last column, ascending: nothing marks where it ends");
                }
                ColumnType::Varbinary
            }
        },
        _ => {
            return Err("Phoenix has no column type for this field type (integers, floats, bool, strings, byte strings, byte arrays and times have one)")
        }
    };
    if nullable && ty.fixed_len().is_some() {
        return Err("Phoenix cannot hold a nullable fixed-width column in a primary key: its NULL would have no bytes among fixed-width ones");
    }
    Ok(Column { ty, nullable })
}

/// The Phoenix column type named `name` (in capitals) with parameters `params` (`CHAR(3)`,
/// `DECIMAL(10, 2)`), as a `CREATE TABLE` writes it; or why rowkey has no field type for it.
/// (`VARCHAR(n)` and `DECIMAL(p, s)` write the bytes of `VARCHAR` and `DECIMAL`: their limits
/// are Phoenix's to check.)
#[cfg(feature = "lock")]
pub(crate) fn column_type(name: &str, params: &[u64]) -> Result<ColumnType, alloc::string::String> {
    use alloc::format;
    let int = |bytes, signed| ColumnType::Int { bytes, signed };
    let one = |what: &str| match params {
        [n] if *n > 0 && *n <= u32::MAX as u64 => Ok(*n as usize),
        _ => Err(format!(
            "{what} takes its length in bytes: {what}(n), n at least 1"
        )),
    };
    let none = |ty: ColumnType| {
        if params.is_empty() {
            Ok(ty)
        } else {
            Err(format!("{name} takes no length"))
        }
    };
    match name {
        "TINYINT" => none(int(1, true)),
        "SMALLINT" => none(int(2, true)),
        "INTEGER" | "INT" => none(int(4, true)),
        "BIGINT" => none(int(8, true)),
        "UNSIGNED_TINYINT" => none(int(1, false)),
        "UNSIGNED_SMALLINT" => none(int(2, false)),
        "UNSIGNED_INT" => none(int(4, false)),
        "UNSIGNED_LONG" => none(int(8, false)),
        "FLOAT" => none(ColumnType::Float),
        "DOUBLE" => none(ColumnType::Double),
        "BOOLEAN" => none(ColumnType::Boolean),
        "VARCHAR" if params.len() <= 1 => Ok(ColumnType::Varchar),
        "CHAR" => one("CHAR").map(ColumnType::Char),
        "BINARY" => one("BINARY").map(ColumnType::Binary),
        "VARBINARY" => none(ColumnType::Varbinary),
        "DATE" => none(ColumnType::Date),
        "TIME" => none(ColumnType::Time),
        "TIMESTAMP" => none(ColumnType::Timestamp),
        #[cfg(feature = "decimal")]
        "DECIMAL" if params.len() <= 2 => Ok(ColumnType::Decimal),
        #[cfg(not(feature = "decimal"))]
        "DECIMAL" => Err(format!("{name} is rust_decimal's Decimal, with rowkey's feature `decimal`")),
        _ => Err(format!("Phoenix's {name} has no rowkey field type (rowkey reads the integers, UNSIGNED_* integers, FLOAT, DOUBLE, BOOLEAN, VARCHAR, CHAR, BINARY, VARBINARY, DATE, TIME, TIMESTAMP and DECIMAL)")),
    }
}

impl ColumnType {
    /// The bytes every value takes, for fixed-width types.
    pub(crate) const fn fixed_len(self) -> Option<usize> {
        match self {
            ColumnType::Int { bytes, .. } => Some(bytes),
            ColumnType::Float => Some(4),
            ColumnType::Double => Some(8),
            ColumnType::Boolean => Some(1),
            ColumnType::Date | ColumnType::Time => Some(8),
            ColumnType::Timestamp => Some(12),
            ColumnType::Char(n) | ColumnType::Binary(n) => Some(n),
            ColumnType::Varchar | ColumnType::Varbinary => None,
            #[cfg(feature = "decimal")]
            ColumnType::Decimal => None,
        }
    }
}

impl core::fmt::Display for ColumnType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let name = match self {
            ColumnType::Int {
                bytes: 1,
                signed: true,
            } => "TINYINT",
            ColumnType::Int {
                bytes: 2,
                signed: true,
            } => "SMALLINT",
            ColumnType::Int {
                bytes: 4,
                signed: true,
            } => "INTEGER",
            ColumnType::Int { signed: true, .. } => "BIGINT",
            ColumnType::Int { bytes: 1, .. } => "UNSIGNED_TINYINT",
            ColumnType::Int { bytes: 2, .. } => "UNSIGNED_SMALLINT",
            ColumnType::Int { bytes: 4, .. } => "UNSIGNED_INT",
            ColumnType::Int { .. } => "UNSIGNED_LONG",
            ColumnType::Float => "FLOAT",
            ColumnType::Double => "DOUBLE",
            ColumnType::Boolean => "BOOLEAN",
            ColumnType::Varchar => "VARCHAR",
            ColumnType::Char(n) => return write!(f, "CHAR({n})"),
            ColumnType::Binary(n) => return write!(f, "BINARY({n})"),
            ColumnType::Varbinary => "VARBINARY",
            ColumnType::Date => "DATE",
            ColumnType::Time => "TIME",
            ColumnType::Timestamp => "TIMESTAMP",
            #[cfg(feature = "decimal")]
            ColumnType::Decimal => "DECIMAL",
        };
        f.write_str(name)
    }
}
