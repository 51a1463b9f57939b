//! Apache Phoenix's byte format (`#[rowkey(phoenix)]`), the rules that are Phoenix's alone:
//!
//! | file | rule |
//! |---|---|
//! | `content.rs` | a VARCHAR, CHAR(n), VARBINARY or BINARY(n) column's content: bare, NUL refused, `CHAR` padded with spaces, `DESC` inverted; read back up to its separator |
//! | `columns.rs` | between the columns: the `00`/`FF` separator after a variable-length column, trailing NULLs dropped, the `FF` after a last `DESC` column; and the planner's stand-ins for them (`plan_separator`, `Held`) |
//!
//! Still asked by the shared codecs through `FieldMode::is_phoenix` (to move here as those
//! families go behind [`Format`]): the UNSIGNED types' range (`codec/fixed.rs`), FLOAT and DOUBLE's
//! `+1` and canonical NaN (`codec/fixed.rs`), NULL as no bytes (`codec/option.rs`), DECIMAL
//! (`codec/decimal.rs`), DATE, TIME and TIMESTAMP (`time/mod.rs`). The mapping of field types to
//! Phoenix's column types is `field/column_type.rs`; the DDL, its parser and the lock from it
//! are `phoenix/`.

pub(crate) mod columns;
pub(crate) mod content;

use super::content::{Bytes, Content};
use super::Format;
use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, EncodeError};
use crate::field::{DecodeField, FieldMode, KeyField};
use columns::Columns;

/// Apache Phoenix's codec.
#[derive(Debug)]
pub enum Phoenix {}

impl Format for Phoenix {
    #[inline(always)]
    fn content_len(content: Content<'_>, mode: FieldMode) -> usize {
        content::content_len(content.bytes(), mode)
    }

    #[inline(always)]
    fn encode_content(
        content: Content<'_>,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        content::encode_content(content.bytes(), content.is_str(), out, mode)
    }

    #[inline(always)]
    fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
        content::borrow_content(input, mode)
    }

    #[inline(always)]
    fn decode_content(
        input: &[u8],
        string: bool,
        mode: FieldMode,
    ) -> Result<(Bytes<'_>, usize), DecodeError> {
        content::decode_content(input, string, mode)
    }

    #[inline(always)]
    fn measure_column<T: KeyField + ?Sized>(
        columns: &mut Columns,
        len: &mut usize,
        value: &T,
        mode: FieldMode,
    ) {
        columns::measure_column(columns, len, value, mode);
    }

    #[inline(always)]
    fn write_column<T: KeyField + ?Sized>(
        columns: &mut Columns,
        w: &mut KeyWriter<'_>,
        value: &T,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<(), EncodeError> {
        columns::write_column(columns, w, value, mode, key, field)
    }

    #[inline(always)]
    fn read_column<'k, T: DecodeField<'k>>(
        columns: &mut Columns,
        r: &mut KeyReader<'k>,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<T, DecodeError> {
        columns::read_column(columns, r, mode, key, field)
    }

    /// Trailing NULLs take no bytes: the key ends after its last column with a value.
    #[inline(always)]
    fn key_len(columns: &Columns, len: usize) -> usize {
        columns.len().unwrap_or(len)
    }

    #[inline(always)]
    fn finish_columns(columns: &Columns, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        columns::finish(columns, w)
    }

    #[inline(always)]
    fn read_columns_end(columns: &Columns, r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
        columns::read_end(columns, r)
    }
}
