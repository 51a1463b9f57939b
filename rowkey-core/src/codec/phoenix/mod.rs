//! Apache Phoenix's byte format (`#[rowkey(phoenix)]`), the rules that are Phoenix's alone:
//!
//! | file | rule |
//! |---|---|
//! | `content.rs` | a VARCHAR, CHAR(n), VARBINARY or BINARY(n) column's content: bare, NUL refused, `CHAR` padded with spaces, `DESC` inverted; read back up to its separator |
//! | `columns.rs` | between the columns: the `00`/`FF` separator after a variable-length column, trailing NULLs dropped, the `FF` after a last `DESC` column; and the planner's stand-ins for them (`plan_separator`, `Held`) |
//! | `mod.rs` | the numbers: integers as the binary format writes them, `UNSIGNED_*` up to the signed maximum of their size; `FLOAT` and `DOUBLE` as Java's bits of one canonical NaN, plus one |
//! | `option.rs` | a nullable column: NULL is no bytes |
//! | `decimal.rs` | `DECIMAL` (`PDecimal`), feature `decimal` |
//! | `time.rs` | `DATE`, `TIME` (milliseconds) and `TIMESTAMP` (and its nanoseconds), before 1970 too |
//!
//! Elsewhere, and why: the mapping of field types to Phoenix's column types is
//! `field/column_type.rs` (the derive's check, the DDL and the lock read it, as they read a field's
//! shape); the DDL, its parser and the lock from it are `phoenix/` (a Phoenix table is a key
//! layout, not a codec); the planner asks `columns.rs` for its stand-ins from
//! `scan/bound.rs` and `scan/alts.rs`; a schema's key walks the columns through `columns.rs`.

pub(crate) mod columns;
pub(crate) mod content;
#[cfg(feature = "decimal")]
pub(crate) mod decimal;
pub(crate) mod option;
#[cfg(any(feature = "std", feature = "chrono"))]
pub(crate) mod time;
pub(crate) mod words;

use super::content::{Bytes, Content};
use super::fixed::{natural_width, Float, Int};
use super::Format;
use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::shape::FieldShape;
use crate::field::{DecodeField, FieldMode, KeyField};
#[cfg(any(feature = "std", feature = "chrono"))]
use crate::time::TimeValue;
use columns::Columns;
use core::fmt;

/// Apache Phoenix's codec.
#[derive(Debug)]
pub enum Phoenix {}

impl Format for Phoenix {
    #[cfg(feature = "alloc")]
    const CONTENT_PAD: u8 = crate::format::PHOENIX_CHAR_PAD;

    #[cfg(feature = "alloc")]
    fn content_prefix(prefix: &[u8], mode: FieldMode, push: impl FnMut(u8)) -> bool {
        content::content_prefix(prefix, mode, push)
    }

    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn column_stand_in<T: KeyField + ?Sized>(
        value: &T,
        mode: FieldMode,
    ) -> Option<Option<crate::field::column_type::StandIn>> {
        Some(crate::field::column_type::stand_in(value, mode))
    }

    fn describe_key(_delimiter: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Apache Phoenix primary key")
    }

    fn describe_field(
        shape: FieldShape,
        mode: FieldMode,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        words::describe(shape, mode, f)
    }

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

    /// Integers as the binary format writes them; Phoenix's `UNSIGNED_*` types hold the values
    /// of the signed type of their size.
    #[inline(always)]
    fn encode_int<I: Int>(v: I, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if v.above_signed_max() {
            return Err(content::not_in_phoenix(
                "Phoenix's UNSIGNED_TINYINT, UNSIGNED_SMALLINT, UNSIGNED_INT and UNSIGNED_LONG hold 0 up to the signed maximum of their size (i32::MAX for UNSIGNED_INT)",
            ));
        }
        v.put_image(out, mode)
    }

    #[inline(always)]
    fn decode_int<I: Int>(input: &[u8], mode: FieldMode) -> Result<(I, usize), DecodeError> {
        let (v, n) = I::take_image(input, mode)?;
        if v.above_signed_max() {
            return Err(DecodeError::new(
                DecodeErrorKind::Invalid(
                    "a Phoenix UNSIGNED value above the signed maximum of its size",
                ),
                0,
            ));
        }
        Ok((v, n))
    }

    /// `FLOAT` and `DOUBLE`: Java's `floatToIntBits` and `doubleToLongBits`, whose NaN is the one
    /// canonical NaN, in the order of `total_cmp`, plus one (`PDouble.encodeDouble`).
    #[inline(always)]
    fn encode_float<F: Float>(v: F, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        natural_width(mode)?;
        let v = if v.nan() { F::java_nan() } else { v };
        v.put_ordered(1, out, mode)
    }

    /// Phoenix writes Java's one NaN: another is no value it wrote.
    #[inline(always)]
    fn decode_float<F: Float>(input: &[u8], mode: FieldMode) -> Result<(F, usize), DecodeError> {
        let (v, n) = F::take_ordered(input, 1, mode)?;
        if v.nan() && !v.same_bits(F::java_nan()) {
            return Err(DecodeError::new(
                DecodeErrorKind::Invalid("a NaN other than Java's, which Phoenix writes"),
                0,
            ));
        }
        Ok((v, n))
    }

    const PLAIN_COLUMNS: bool = false;

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

    #[cfg(feature = "schema")]
    #[inline(always)]
    fn read_before(columns: &Columns, r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
        columns::read_separator(columns, r)
    }

    #[cfg(feature = "schema")]
    #[inline(always)]
    fn after_read(columns: &mut Columns, len: usize, variable: bool, mode: FieldMode) {
        columns.after_read(len, variable, mode);
    }

    #[inline(always)]
    fn finish_columns(columns: &Columns, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        columns::finish(columns, w)
    }

    #[inline(always)]
    fn read_columns_end(columns: &Columns, r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
        columns::read_end(columns, r)
    }

    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn plan_separator<T: KeyField + ?Sized>(
        len: usize,
        mode: FieldMode,
    ) -> (Option<u8>, columns::Held) {
        columns::plan_separator::<T>(len, mode)
    }

    #[inline(always)]
    fn option_tag_len(_mode: FieldMode) -> usize {
        0
    }

    #[inline(always)]
    fn encode_option_tag(
        some: bool,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        option::encode_tag(some, out, mode)
    }

    #[inline(always)]
    fn decode_option_tag(input: &[u8], mode: FieldMode) -> Result<(bool, usize), DecodeError> {
        option::decode_tag(input, mode)
    }

    #[cfg(feature = "decimal")]
    #[inline]
    fn decimal_len(v: &rust_decimal::Decimal, _mode: FieldMode) -> usize {
        decimal::write(v).1
    }

    #[cfg(feature = "decimal")]
    fn encode_decimal(
        v: &rust_decimal::Decimal,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        let (key, n) = decimal::write(v);
        super::put(&key[..n], out, mode)
    }

    #[cfg(feature = "decimal")]
    fn decode_decimal(
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(rust_decimal::Decimal, usize), DecodeError> {
        decimal::read(input, mode)
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    #[inline]
    fn time_len(mode: FieldMode) -> usize {
        mode.unit().phoenix_len()
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    fn encode_time<T: TimeValue>(
        t: &T,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        time::encode(t, out, mode)
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    fn decode_time<T: TimeValue>(input: &[u8], mode: FieldMode) -> Result<(T, usize), DecodeError> {
        time::decode(input, mode)
    }

    #[cfg(any(feature = "std", feature = "chrono"))]
    fn time_stores_exactly<T: TimeValue>(t: &T, mode: FieldMode) -> bool {
        time::stores_exactly(t, mode)
    }
}
