//! Apache Phoenix tables from Rust: a `#[rowkey(phoenix)]` struct's key is Phoenix's primary key
//! of the columns its fields map to, byte for byte, and [`ddl`] gives the `CREATE TABLE`
//! statement of that key.
//!
//! | Rust field | Phoenix column |
//! |---|---|
//! | `i8`, `i16`, `i32`, `i64` | `TINYINT`, `SMALLINT`, `INTEGER`, `BIGINT` |
//! | `u8`, `u16`, `u32`, `u64` | `UNSIGNED_TINYINT`, `UNSIGNED_SMALLINT`, `UNSIGNED_INT`, `UNSIGNED_LONG`: `0` up to the signed maximum of their size, as Phoenix allows |
//! | `f32`, `f64` | `FLOAT`, `DOUBLE` |
//! | `bool` | `BOOLEAN` |
//! | `String`, `&str`, `Cow<str>`; with `width = n` | `VARCHAR`; `CHAR(n)` (ASCII) |
//! | `[u8; N]`; `Vec<u8>`, `&[u8]`, `Cow<[u8]>` | `BINARY(N)`; `VARBINARY` (the last column, ascending) |
//! | `SystemTime`, chrono `DateTime<Utc>`, `NaiveDateTime` | `DATE` (milliseconds, the default unit); with `unit = "ns"`, `TIMESTAMP` (nanoseconds) |
//! | chrono `NaiveTime` | `TIME` (milliseconds) |
//! | `rust_decimal::Decimal` (feature `decimal`) | `DECIMAL` (a `Decimal`'s 28 digits; Phoenix's 38 do not fit one) |
//! | `Option<T>` of a variable-length `T` | the column of `T`, nullable |
//!
//! A time is written as Phoenix writes a `java.sql.Timestamp`: its milliseconds since the epoch as
//! a `BIGINT`, then for `TIMESTAMP` the nanoseconds within the millisecond in 4 bytes; times
//! before 1970 are refused, as in every rowkey layout.
//!
//! Phoenix stores an empty string as NULL: a `String` field refuses `""` (its column is
//! `NOT NULL`), and an `Option<String>` stores `None` where `Some("")` would read back as `None`.
//! `desc` is `DESC`; `#[rowkey(salt(buckets = N))]` on the struct is `SALT_BUCKETS = N`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(phoenix, salt(buckets = 4))]
//! struct Metric {
//!     host: String,
//!     #[rowkey(desc)]
//!     ts: i64,
//!     tag: Option<String>,
//! }
//!
//! let m = Metric { host: "web-1".into(), ts: 1, tag: None };
//! let key = m.to_vec()?;
//! // The salt byte, 'web-1', Phoenix's separator, then the BIGINT inverted; no trailing NULL.
//! assert_eq!(key[1..], [b'w', b'e', b'b', b'-', b'1', 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
//! assert_eq!(Metric::decode(&key)?, m);
//! assert_eq!(
//!     rowkey::phoenix::ddl::<Metric>("METRICS"),
//!     "CREATE TABLE METRICS (\n    \"HOST\" VARCHAR NOT NULL,\n    \"TS\" BIGINT NOT NULL,\n    \"TAG\" VARCHAR,\n    CONSTRAINT PK PRIMARY KEY (\"HOST\", \"TS\" DESC, \"TAG\")\n) SALT_BUCKETS = 4, COLUMN_ENCODED_BYTES = 0"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "lock")]
mod lock;
#[cfg(feature = "lock")]
mod options;
#[cfg(feature = "lock")]
mod sql;
#[cfg(feature = "lock")]
mod tokens;

#[cfg(feature = "lock")]
pub use lock::{lock_from_ddl, lock_from_ddl_with_warnings};
#[cfg(feature = "lock")]
pub use tokens::{DdlError, DdlWarning};

#[cfg(feature = "alloc")]
use crate::field::column_type::column;
use crate::key::RowKey;

/// A cell of an HBase row: its column family, qualifier and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cell {
    /// The column family.
    pub family: &'static [u8],
    /// The column qualifier.
    pub qualifier: &'static [u8],
    /// The value.
    pub value: &'static [u8],
}

/// The cell Phoenix writes on every row of a table (`0:_0 = x`, `QueryConstants`' empty column
/// of the default family, with `COLUMN_ENCODED_BYTES = 0`): a row without it is not a row to
/// Phoenix's queries. A row written outside Phoenix carries it too (`rowkey-hbase` writes it
/// with every key of a Phoenix layout).
///
/// ```
/// assert_eq!(rowkey::phoenix::EMPTY_CELL.family, b"0");
/// assert_eq!(rowkey::phoenix::EMPTY_CELL.qualifier, b"_0");
/// assert_eq!(rowkey::phoenix::EMPTY_CELL.value, b"x");
/// ```
pub const EMPTY_CELL: Cell = Cell {
    family: b"0",
    qualifier: b"_0",
    value: b"x",
};

/// The bytes Phoenix stores in a non-key column of `value`'s type (`PDataType.toBytes`): the
/// column's type is the one a key field of that type maps to (the table above), and the bytes
/// are that field's, ascending, as the last column of a key, with no separator: an `INTEGER`
/// its 4 bytes with the sign bit flipped, a `VARCHAR` its UTF-8, a `DOUBLE` Phoenix's sortable
/// form. With `COLUMN_ENCODED_BYTES = 0` (what [`ddl`] writes), the cell of column `C` in the
/// default family is `0:C` holding these bytes; a NULL is no cell at all, and an empty string or
/// byte string, which Phoenix stores as NULL, reads back as NULL.
///
/// ```
/// assert_eq!(rowkey::phoenix::column_value(&-1i32)?, [0x7f, 0xff, 0xff, 0xff]);
/// assert_eq!(rowkey::phoenix::column_value("web-1")?, b"web-1");
/// assert_eq!(rowkey::phoenix::column_value(&true)?, [0x01]);
/// // What Phoenix cannot hold is refused, as in a key.
/// assert!(rowkey::phoenix::column_value(&u64::MAX).is_err());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[cfg(feature = "alloc")]
pub fn column_value<T: crate::KeyField + ?Sized>(
    value: &T,
) -> Result<alloc::vec::Vec<u8>, crate::EncodeError> {
    let mode = crate::FieldMode::LAST.with_phoenix();
    let mut out = alloc::vec![0u8; value.field_len(mode)];
    let n = value.encode(&mut out, mode)?;
    out.truncate(n);
    Ok(out)
}

/// A key whose layout is Apache Phoenix's primary key: the types deriving `RowKey` with
/// `#[rowkey(phoenix)]`, for which the derive implements it (asking for the DDL of another
/// layout does not compile).
pub trait PhoenixKey: RowKey {}

/// The `CREATE TABLE` statement of Phoenix table `table` whose primary key is `K`'s layout: each
/// field a column of its Phoenix type (`NOT NULL` unless it is an `Option`), in key order,
/// `DESC` where the field is `desc`, `SALT_BUCKETS` for a salted key, and
/// `COLUMN_ENCODED_BYTES = 0`, so that Phoenix reads the cells of rows written outside it by
/// their column names. Column names are the field names in capitals, quoted (a field named like
/// an SQL keyword, such as `date`, stays a column). Non-key columns are yours to add.
///
/// ```
/// use rowkey::RowKey;
/// #[derive(RowKey)]
/// #[rowkey(phoenix)]
/// struct Visit { site: String, #[rowkey(width = 2)] country: String, at: i64 }
/// let ddl = rowkey::phoenix::ddl::<Visit>("WEB.VISITS");
/// assert!(ddl.starts_with("CREATE TABLE WEB.VISITS (\n    \"SITE\" VARCHAR NOT NULL,\n    \"COUNTRY\" CHAR(2) NOT NULL,"));
/// assert!(ddl.ends_with("PRIMARY KEY (\"SITE\", \"COUNTRY\", \"AT\")\n) COLUMN_ENCODED_BYTES = 0"));
/// ```
#[cfg(feature = "alloc")]
pub fn ddl<K: PhoenixKey>(table: &str) -> alloc::string::String {
    table_ddl(&K::LAYOUT, table)
}

/// [`ddl`] of a derived key's layout.
#[cfg(feature = "alloc")]
pub(crate) fn table_ddl(layout: &crate::Layout, table: &str) -> alloc::string::String {
    let columns = layout.segments.iter().map(|segment| {
        let mode = segment.encoding.mode();
        (
            segment.name,
            column(segment.encoding.shape(), mode),
            mode.is_desc(),
        )
    });
    let salt = match layout.prefix {
        crate::Prefix::Salt(salt) => Some(salt.buckets()),
        _ => None,
    };
    ddl_text(table, columns, salt)
}

/// The `CREATE TABLE` statement of table `table` whose key columns are `columns` (each its
/// field's name, its column or why it has none, and whether it is `DESC`), salted into
/// `salt_buckets`: the one text [`ddl`] and `rowkey::schema`'s `phoenix_ddl` give.
#[cfg(feature = "alloc")]
pub(crate) fn ddl_text<'a>(
    table: &str,
    columns: impl Iterator<
        Item = (
            &'a str,
            Result<crate::field::column_type::Column, &'static str>,
            bool,
        ),
    >,
    salt_buckets: Option<u16>,
) -> alloc::string::String {
    use alloc::string::String;
    use core::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "CREATE TABLE {table} (");
    let mut pk = String::new();
    for (i, (name, column, desc)) in columns.enumerate() {
        let name = name.to_ascii_uppercase();
        let (ty, nullable) = match column {
            Ok(c) => (alloc::format!("{}", c.ty), c.nullable),
            // The derive refuses such a field in a Phoenix layout; a hand-made layout names it.
            Err(_) => (String::from("UNKNOWN"), true),
        };
        let not_null = if nullable { "" } else { " NOT NULL" };
        let _ = writeln!(out, "    \"{name}\" {ty}{not_null},");
        let desc = if desc { " DESC" } else { "" };
        let comma = if i > 0 { ", " } else { "" };
        let _ = write!(pk, "{comma}\"{name}\"{desc}");
    }
    let _ = write!(out, "    CONSTRAINT PK PRIMARY KEY ({pk})\n) ");
    if let Some(n) = salt_buckets {
        let _ = write!(out, "SALT_BUCKETS = {n}, ");
    }
    out.push_str("COLUMN_ENCODED_BYTES = 0");
    out
}
