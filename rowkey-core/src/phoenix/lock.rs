//! The layout lock of an existing Phoenix table's row key, from its `CREATE TABLE`: each key
//! column becomes the field a `#[rowkey(phoenix)]` struct would hold it in (the type table of
//! this module's parent, read backwards), so that `rowkey::schema` and the `rowkey` command
//! decode, explain and plan the table's keys without a line of Rust, and the struct written
//! later locks to the same file.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::sql::{self, KeyColumn, Table};
use super::tokens::{DdlError, DdlWarning};
use crate::field::column_type::{column, Column, ColumnType};
use crate::field::layout::Order;
use crate::field::{FieldMode, FieldShape, KeyField};
use crate::lock::locked_key::{
    LockedFormat, LockedKey, LockedLayout, LockedSegment, Writer, MAGIC, VERSION,
};
use crate::prefix::{Prefix, Salt, SaltHash};
use crate::time::unit::TimeUnit;

/// The layout lock file (`rowkey::lock`'s text, without samples) of the row key of the Phoenix
/// table that `sql`, its `CREATE TABLE` statement, creates: the key columns in key order, each
/// the field a `#[rowkey(phoenix)]` struct holds it in (named as the column, in lower case),
/// with `DESC`, `NOT NULL` and `SALT_BUCKETS`. Other columns and options do not change the
/// key's bytes and are read past. `rowkey::schema::Schema::parse` reads the file; `rowkey
/// phoenix-lock DDL_FILE` writes it.
///
/// ```
/// let lock = rowkey::phoenix::lock_from_ddl(
///     "CREATE TABLE WEB.VISITS (SITE VARCHAR NOT NULL, AT BIGINT NOT NULL, REFERRER VARCHAR \
///      CONSTRAINT PK PRIMARY KEY (SITE, AT DESC, REFERRER)) SALT_BUCKETS = 8",
/// )?;
/// assert!(lock.contains(r#"layout name="WEB.VISITS" format=phoenix "#));
/// assert!(lock.contains(r#"segment index=1 name="at" type="i64" "#));
/// assert!(lock.contains(r#"type="Option<String>""#));
/// # Ok::<(), rowkey::phoenix::DdlError>(())
/// ```
///
/// A table option neither Phoenix nor HBase knows (`SALT_BUCKET` for `SALT_BUCKETS`) is read
/// past here as Phoenix reads past it; [`lock_from_ddl_with_warnings`] says where each one
/// stands.
pub fn lock_from_ddl(sql: &str) -> Result<String, DdlError> {
    lock_from_ddl_with_warnings(sql).map(|(lock, _)| lock)
}

/// [`lock_from_ddl`], with a warning for each table option of the statement that neither
/// Phoenix nor HBase knows, with the nearest known name when one is close: Phoenix keeps such an
/// option as a plain HBase table attribute and acts on nothing, so a misspelt `SALT_BUCKET = 4`
/// makes a table that is not salted (and a lock that is not salted either, rightly).
/// `rowkey phoenix-lock` prints the warnings on stderr.
///
/// ```
/// let (lock, warnings) = rowkey::phoenix::lock_from_ddl_with_warnings(
///     "CREATE TABLE T (A VARCHAR NOT NULL PRIMARY KEY) SALT_BUCKETS = 4, VERSION = 1",
/// )?;
/// assert_eq!(lock, rowkey::phoenix::lock_from_ddl(
///     "CREATE TABLE T (A VARCHAR NOT NULL PRIMARY KEY) SALT_BUCKETS = 4, VERSION = 1",
/// )?);
/// assert_eq!((warnings[0].line, warnings[0].column), (1, 67));
/// assert!(warnings[0].message.contains("unknown option `VERSION` (did you mean `VERSIONS`?)"));
/// # Ok::<(), rowkey::phoenix::DdlError>(())
/// ```
pub fn lock_from_ddl_with_warnings(sql: &str) -> Result<(String, Vec<DdlWarning>), DdlError> {
    let table = sql::parse(sql)?;
    let key = locked_key(&table).map_err(|reason| DdlError {
        line: 1,
        column: 1,
        reason,
    })?;
    let mut out = format!("{MAGIC} {VERSION}\n");
    let mut w = Writer::new(&mut out);
    let header = format!(
        "The layout lock of the row key of Phoenix table `{}`, from its CREATE TABLE\n\
         (rowkey::phoenix::lock_from_ddl, `rowkey phoenix-lock`). Its key columns, in key order,\n\
         as the fields of a `#[rowkey(phoenix)]` struct; the statement:\n",
        table.name
    );
    header.lines().for_each(|line| w.note(line));
    sql.trim()
        .lines()
        .for_each(|line| w.note(&format!("  {line}")));
    w.key(&key);
    w.end();
    Ok((out, table.warnings))
}

/// The lock's key of `table`: no samples, HBase's row limit.
fn locked_key(table: &Table) -> Result<LockedKey, String> {
    let salt = match table.salt_buckets {
        Some(n) => Some(Salt::new(n, SaltHash::Java).ok_or("SALT_BUCKETS out of range")?),
        None => None,
    };
    let lead = salt.map_or(0, |s| s.encoded_len());
    let mut at = Some(lead);
    let mut segments = Vec::with_capacity(table.key.len());
    for (i, c) in table.key.iter().enumerate() {
        let last = i + 1 == table.key.len();
        let field = field_of(c, last)?;
        let name = c.name.to_lowercase();
        let order = if c.desc {
            Order::Descending
        } else {
            Order::Ascending
        };
        let mut s = LockedSegment::with(&name, &field.ty, field.shape, field.mode, order);
        s.offset = at;
        s.len = field.shape.fixed_len(field.mode);
        at = crate::describe::layout::offset_after(at, s.len, 0);
        segments.push(s);
    }
    let names: Vec<String> = segments.iter().map(|s| s.name.clone()).collect();
    Ok(LockedKey {
        limit: crate::hbase::MAX_ROW_LENGTH,
        samples: Vec::new(),
        layout: LockedLayout {
            name: table.name.clone(),
            format: LockedFormat::Phoenix,
            tag: Vec::new(),
            tag_delimiter: String::new(),
            prefix: salt.map_or(Prefix::None, Prefix::Salt),
            sources: if salt.is_some() { names } else { Vec::new() },
            whole_key: salt.map(|_| true),
            fixed_len: at,
            segments,
            variants: Vec::new(),
        },
    })
}

/// The field a Phoenix key column is held in: its Rust type as a struct spells it, the type's
/// shape, and the mode it is placed with.
struct RustField {
    ty: String,
    shape: FieldShape,
    mode: FieldMode,
}

/// The field of key column `c` (`last`: the key's last column), read backwards from the type
/// table: the one mapping ([`column()`]) takes the field back to `c`'s type, or this fails.
fn field_of(c: &KeyColumn, last: bool) -> Result<RustField, String> {
    let mut mode = if last {
        FieldMode::LAST
    } else {
        FieldMode::INNER
    }
    .with_phoenix();
    if c.desc {
        mode = mode.with_desc();
    }
    let (ty, shape): (String, FieldShape) = match c.ty {
        ColumnType::Int { bytes, signed } => {
            let (ty, shape) = match (bytes, signed) {
                (1, true) => ("i8", i8::SHAPE),
                (2, true) => ("i16", i16::SHAPE),
                (4, true) => ("i32", i32::SHAPE),
                (_, true) => ("i64", i64::SHAPE),
                (1, false) => ("u8", u8::SHAPE),
                (2, false) => ("u16", u16::SHAPE),
                (4, false) => ("u32", u32::SHAPE),
                (_, false) => ("u64", u64::SHAPE),
            };
            (ty.to_string(), shape)
        }
        ColumnType::Float => ("f32".into(), f32::SHAPE),
        ColumnType::Double => ("f64".into(), f64::SHAPE),
        ColumnType::Boolean => ("bool".into(), bool::SHAPE),
        ColumnType::Varchar => ("String".into(), String::SHAPE),
        ColumnType::Char(n) => {
            mode = mode.with_width(n);
            ("String".into(), String::SHAPE)
        }
        ColumnType::Binary(n) => (
            format!("[u8;{n}]"),
            crate::codec::fixed::byte_array_shape(n),
        ),
        ColumnType::Varbinary => ("Vec<u8>".into(), <Vec<u8>>::SHAPE),
        ColumnType::Date => ("SystemTime".into(), std::time::SystemTime::SHAPE),
        ColumnType::Timestamp => {
            mode = mode.with_unit(TimeUnit::Nanos);
            ("SystemTime".into(), std::time::SystemTime::SHAPE)
        }
        #[cfg(feature = "chrono")]
        ColumnType::Time => ("NaiveTime".into(), chrono::NaiveTime::SHAPE),
        #[cfg(not(feature = "chrono"))]
        ColumnType::Time => {
            return Err(format!(
                "`{}`: Phoenix's TIME is chrono's NaiveTime, with rowkey's feature `chrono`",
                c.name
            ))
        }
        #[cfg(feature = "decimal")]
        ColumnType::Decimal => ("Decimal".into(), rust_decimal::Decimal::SHAPE),
    };
    let (ty, shape) = if c.nullable {
        (format!("Option<{ty}>"), shape.optional())
    } else {
        (ty, shape)
    };
    let want = Column {
        ty: c.ty,
        nullable: c.nullable,
    };
    match column(shape, mode) {
        Ok(got) if got == want => Ok(RustField { ty, shape, mode }),
        Ok(got) => Err(format!(
            "`{}`: {} reads back as {}: a mapping rowkey lacks",
            c.name, c.ty, got.ty
        )),
        Err(why) => Err(format!("`{}` {}: {why}", c.name, c.ty)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column type, ascending and descending, nullable where it varies in length, last
    /// and not: the field it becomes maps back to it.
    #[test]
    fn every_column_type_maps_back_to_itself() {
        let mut types = alloc::vec![
            ColumnType::Float,
            ColumnType::Double,
            ColumnType::Boolean,
            ColumnType::Varchar,
            ColumnType::Char(3),
            ColumnType::Binary(5),
            ColumnType::Varbinary,
            ColumnType::Date,
            ColumnType::Timestamp,
        ];
        for bytes in [1, 2, 4, 8] {
            for signed in [true, false] {
                types.push(ColumnType::Int { bytes, signed });
            }
        }
        #[cfg(feature = "chrono")]
        types.push(ColumnType::Time);
        #[cfg(feature = "decimal")]
        types.push(ColumnType::Decimal);
        let mut mapped = 0;
        for ty in types {
            for desc in [false, true] {
                for nullable in [false, true] {
                    for last in [false, true] {
                        let c = KeyColumn {
                            name: "C".into(),
                            ty,
                            nullable,
                            desc,
                        };
                        // What Phoenix cannot hold is refused, with the reason.
                        let holds = !(nullable && ty.fixed_len().is_some())
                            && !(ty == ColumnType::Varbinary && (desc || !last));
                        match field_of(&c, last) {
                            Ok(_) => {
                                assert!(holds, "{ty} {desc} {nullable} {last}");
                                mapped += 1;
                            }
                            Err(why) => assert!(!holds, "{ty} {desc} {nullable} {last}: {why}"),
                        }
                    }
                }
            }
        }
        assert!(mapped > 60, "{mapped}");
    }
}
