//! What stands between the fields of a key, asked of the key's format: the one door through which
//! every walk (a derived key's, the schema's, the explainer's) writes, reads and measures a
//! field. The binary and text formats write a field as it writes itself (the text delimiter is
//! the layout's, written by the walk); Apache Phoenix's adds its separators and leaves trailing
//! NULLs out (`phoenix/columns.rs`).

use super::{with_format, Format};
use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, EncodeError};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::format::KeyFormat;

pub(crate) use super::phoenix::columns::Columns;

/// Adds the bytes of a field of a key in `format`, and what stands before it, to `len`.
#[inline(always)]
pub(crate) fn measure<T: KeyField + ?Sized>(
    format: KeyFormat,
    columns: &mut Columns,
    len: &mut usize,
    value: &T,
    mode: FieldMode,
) {
    with_format!(format, F => F::measure_column(columns, len, value, mode));
}

/// Writes a field of the key `key` in `format`, and what stands before it.
#[inline(always)]
pub(crate) fn write<T: KeyField + ?Sized>(
    format: KeyFormat,
    columns: &mut Columns,
    w: &mut KeyWriter<'_>,
    value: &T,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
) -> Result<(), EncodeError> {
    with_format!(format, F => F::write_column(columns, w, value, mode, key, field))
}

/// Reads a field of the key `key` in `format`, and what stands before it.
#[inline(always)]
pub(crate) fn read<'k, T: DecodeField<'k>>(
    format: KeyFormat,
    columns: &mut Columns,
    r: &mut KeyReader<'k>,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
) -> Result<T, DecodeError> {
    with_format!(format, F => F::read_column(columns, r, mode, key, field))
}

/// The length of a key in `format` whose fields measured `len`.
#[inline(always)]
pub(crate) fn key_len(format: KeyFormat, columns: &Columns, len: usize) -> usize {
    with_format!(format, F => F::key_len(columns, len))
}

/// Ends a key in `format` after its last field.
#[inline(always)]
pub(crate) fn finish(
    format: KeyFormat,
    columns: &Columns,
    w: &mut KeyWriter<'_>,
) -> Result<(), EncodeError> {
    with_format!(format, F => F::finish_columns(columns, w))
}

/// Reads what ends a key in `format` after its last field.
#[inline(always)]
pub(crate) fn read_end(
    format: KeyFormat,
    columns: &Columns,
    r: &mut KeyReader<'_>,
) -> Result<(), DecodeError> {
    with_format!(format, F => F::read_columns_end(columns, r))
}
