//! Apache Phoenix's byte format (`#[rowkey(phoenix)]`), the rules that are Phoenix's alone:
//!
//! | file | rule |
//! |---|---|
//! | `content.rs` | a VARCHAR, CHAR(n), VARBINARY or BINARY(n) column's content: bare, NUL refused, `CHAR` padded with spaces, `DESC` inverted; read back up to its separator |
//! | `columns.rs` | between the columns: the `00`/`FF` separator after a variable-length column, trailing NULLs dropped, the `FF` after a last `DESC` column; and the planner's stand-ins for them (`plan_separator`, `Held`) |
//!
//! Still asked by the shared codecs through `FieldMode::is_phoenix` (and to move here as the
//! format gets its own codecs): the UNSIGNED types' range (`codec/fixed.rs`), FLOAT and DOUBLE's
//! `+1` and canonical NaN (`codec/fixed.rs`), NULL as no bytes (`codec/option.rs`), DECIMAL
//! (`codec/decimal.rs`), DATE, TIME and TIMESTAMP (`time/mod.rs`). The mapping of field types to
//! Phoenix's column types is `field/column_type.rs`; the DDL, its parser and the lock from it
//! are `phoenix/`.

pub(crate) mod columns;
pub(crate) mod content;
