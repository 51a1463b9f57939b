//! Field codecs: how every built-in field type is written in each byte format.
//!
//! # The formats, and how to add one
//!
//! A key's byte format is one value, [`KeyFormat`], chosen once on the key type and carried by
//! every field's [`FieldMode`]. Each format is a folder here, holding every rule that is the
//! format's alone, and a zero-sized type implementing [`Format`], the trait of what a format
//! answers (strings and byte strings, integers, floats and other fixed-width types, `Option`,
//! `Decimal`, times, fieldless enums, and what stands between two fields):
//!
//! | folder | type | its rules |
//! |---|---|---|
//! | `binary/` | `Binary` | escaped and `00`-padded content (`escape.rs`, `pad.rs`, `content.rs`), integers and floats as their ordered big-endian images (`mod.rs`, from `fixed.rs`'s images), the `Option` tag (`option.rs`), `Decimal` (`decimal.rs`), times as Java's `long` (`time.rs`), the words `K::LAYOUT` describes them with (`words.rs`) |
//! | `text/` | `Text` | zero-padded decimal numbers (`number.rs`), strings padded with spaces and ended by the delimiter (`content.rs`, `delimit.rs`), hex digests (`hex.rs`), times as digits or chrono formats (`time.rs`), its words (`words.rs`); no floats, bytes or decimals |
//! | `phoenix/` | `Phoenix` | Apache Phoenix's column content (`content.rs`, with a scan's "starts with"), what stands between its columns with the planner's stand-ins for it (`columns.rs`), its numbers (`mod.rs`), NULL (`option.rs`), `DECIMAL` (`decimal.rs`), `DATE`, `TIME` and `TIMESTAMP` (`time.rs`), its words (`words.rs`), the planner's stand-ins for refused values (`column_stand_in`, from `field/column_type.rs`) |
//!
//! Shared code never matches on a format: it asks the format through [`with_format!`], the one
//! `match` over [`KeyFormat`], which names the format's type for an expression. The type families
//! (`bytes.rs`, `fixed.rs`, `option.rs`, `decimal.rs`, `time.rs`, `discriminant.rs`) ask it in
//! their `KeyField` and `DecodeField` impls; what stands between two fields is asked by the walk
//! of the format the key names ([`FormatType`]: a Phoenix key's derive names `Phoenix`, every
//! other key walks with nothing between its fields), and by the walks that learn a format at run
//! time (a schema's, the explainer's) and by the scan planner (what a plan writes after a bound
//! field) through `columns.rs`.
//!
//! A new format (Bigtable's structured row keys, say) is:
//!
//! 1. a variant of [`KeyFormat`] (in `format.rs`, with the bytes it gives meaning to);
//! 2. a folder here with its type and `impl Format` (every method without a default; the column
//!    methods' defaults say that nothing stands between the fields);
//! 3. one arm in [`with_format!`] and a line in `format_types!`;
//! 4. the derive's attribute that chooses it: `rowkey-derive`'s `attr/` reads the keyword, and
//!    its `ast/format.rs` (the derive's one `Format`, chosen once per key) gets a variant whose
//!    answers say what the generated code does in it (the walk it calls, its field modes, tag
//!    and prefix forms, its check of each field type), with its attribute checks in `valid/`;
//! 5. its words in a lock file, beside `LockedFormat` in `format.rs`.
//!
//! The compiler then names every family and every question of the derive that needs the
//! format's answer (the matches are exhaustive). Outside these homes, a few rules still name a
//! format, each with a comment saying why: a salt or hash prefix's form (`prefix/`, used without
//! a key and standing below the codecs), the const length rules of `field/` (below the codecs,
//! evaluated at compile time), `FieldMode`'s own questions, and the planner's lane and text
//! filter.
//!
//! Every codec is written once against [`FieldMode`]; `desc` and `reverse` are byte
//! transforms applied here, so the fixed-width families share [`put`] and [`take`].

pub(crate) mod binary;
mod bytes;
pub(crate) mod columns;
pub(crate) mod content;
#[cfg(feature = "decimal")]
mod decimal;
pub(crate) mod discriminant;
pub(crate) mod fixed;
pub(crate) mod option;
pub(crate) mod phoenix;
pub(crate) mod text;
#[cfg(any(feature = "std", feature = "chrono"))]
pub(crate) mod time;
#[cfg(feature = "uuid")]
mod uuid;

use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use core::fmt;

use crate::field::shape::FieldShape;
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::format::KeyFormat;
#[cfg(any(feature = "std", feature = "chrono"))]
use crate::time::TimeValue;
use content::{Bytes, Content};
use fixed::{Float, Int};
use phoenix::columns::Columns;

/// Evaluates `$body` with `$f` naming the codec type of the format `$format` (a [`KeyFormat`]):
/// the one `match` over the formats. A new format is one arm here.
macro_rules! with_format {
    ($format:expr, $f:ident => $body:expr) => {
        match $format {
            $crate::format::KeyFormat::Binary => {
                type $f = $crate::codec::binary::Binary;
                $body
            }
            $crate::format::KeyFormat::Text(_) => {
                type $f = $crate::codec::text::Text;
                $body
            }
            $crate::format::KeyFormat::Phoenix => {
                type $f = $crate::codec::phoenix::Phoenix;
                $body
            }
        }
    };
}
pub(crate) use with_format;

/// A byte format named by its codec type: how a derived key tells the walk its format, so that
/// the walk's every question to the format is answered when the program compiles (a format read
/// from the layout at run time is only known once the walk is inlined, too late for the
/// compiler to drop the other formats' code before it weighs what to inline). Sealed: the
/// formats are this crate's, and the text delimiter is the layout's.
// The codec behind it is crate-private: a type outside names a format, never calls it.
#[allow(private_bounds)]
pub trait FormatType: sealed::Sealed + Format {
    /// The format.
    const FORMAT: KeyFormat;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! format_types {
    ($($ty:ty => $format:expr),*) => {$(
        impl sealed::Sealed for $ty {}
        impl FormatType for $ty {
            const FORMAT: KeyFormat = $format;
        }
    )*};
}

format_types!(
    binary::Binary => KeyFormat::Binary,
    text::Text => KeyFormat::Text(""),
    phoenix::Phoenix => KeyFormat::Phoenix
);

/// A byte format: what its folder answers for the shared code. Its methods take the field's
/// [`FieldMode`] (the field's own `desc`, `width`, `reverse` and position). Each method's default
/// is the binary format's rule, which lives in `binary/` (the binary format overrides nothing);
/// another format overrides what its folder says otherwise.
pub(crate) trait Format {
    /// The bytes a string's or byte string's `content` takes in `mode`.
    #[inline(always)]
    fn content_len(content: Content<'_>, mode: FieldMode) -> usize {
        binary::content::content_len(content.bytes(), mode)
    }

    /// Writes a string's or byte string's `content` at the start of `out`.
    #[inline(always)]
    fn encode_content(
        content: Content<'_>,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        binary::content::encode_content(content, out, mode)
    }

    /// The content of a string or byte string at the start of `input` when it can be borrowed
    /// without a copy, and the bytes it takes: the decoders' inline path (`None`: the general one).
    #[inline(always)]
    fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
        binary::content::borrow_content(input, mode)
    }

    /// Reads the content of a string (`string`) or byte string at the start of `input`, and the
    /// bytes it took.
    #[inline(always)]
    fn decode_content(
        input: &[u8],
        _string: bool,
        mode: FieldMode,
    ) -> Result<(Bytes<'_>, usize), DecodeError> {
        binary::content::decode_content(input, mode)
    }

    /// The bytes an integer of type `I` takes in `mode`.
    #[inline(always)]
    fn int_len<I: Int>(mode: FieldMode) -> usize {
        match mode.width() {
            Some(w) => w,
            None => I::SIZE,
        }
    }

    /// Writes an integer at the start of `out`.
    #[inline(always)]
    fn encode_int<I: Int>(v: I, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        v.put_image(out, mode)
    }

    /// Reads an integer at the start of `input`, and the bytes it took.
    #[inline(always)]
    fn decode_int<I: Int>(input: &[u8], mode: FieldMode) -> Result<(I, usize), DecodeError> {
        I::take_image(input, mode)
    }

    /// Whether a fixed-width type written as its own bytes (a float, `bool`, `char`, a byte
    /// array) can be in `mode`: `Err` says why not.
    #[inline(always)]
    fn fixed_bytes(mode: FieldMode) -> Result<(), EncodeError> {
        fixed::natural_width(mode)
    }

    /// Writes a float at the start of `out`.
    #[inline(always)]
    fn encode_float<F: Float>(v: F, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        fixed::natural_width(mode)?;
        v.put_ordered(0, out, mode)
    }

    /// Reads a float at the start of `input`, and the bytes it took.
    #[inline(always)]
    fn decode_float<F: Float>(input: &[u8], mode: FieldMode) -> Result<(F, usize), DecodeError> {
        F::take_ordered(input, 0, mode)
    }

    /// The bytes that mark whether an `Option` holds a value.
    #[inline(always)]
    fn option_tag_len(_mode: FieldMode) -> usize {
        1
    }

    /// Writes what marks whether an `Option` holds a value (`some`) at the start of `out`.
    #[inline(always)]
    fn encode_option_tag(
        some: bool,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        binary::option::encode_tag(some, out, mode)
    }

    /// Reads what marks whether an `Option` holds a value: whether it does, and the bytes taken.
    #[inline(always)]
    fn decode_option_tag(input: &[u8], mode: FieldMode) -> Result<(bool, usize), DecodeError> {
        binary::option::decode_tag(input, mode)
    }

    /// The bytes a `Decimal` takes.
    #[cfg(feature = "decimal")]
    #[inline]
    fn decimal_len(v: &rust_decimal::Decimal, _mode: FieldMode) -> usize {
        binary::decimal::write(v).1
    }

    /// Writes a `Decimal` at the start of `out` (`mode` has no `width`).
    #[cfg(feature = "decimal")]
    fn encode_decimal(
        v: &rust_decimal::Decimal,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        let (key, n) = binary::decimal::write(v);
        put(&key[..n], out, mode)
    }

    /// Reads a `Decimal`, and the bytes it took.
    #[cfg(feature = "decimal")]
    fn decode_decimal(
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(rust_decimal::Decimal, usize), DecodeError> {
        binary::decimal::read(input, mode)
    }

    /// The bytes a time takes (one without a `format`).
    #[cfg(any(feature = "std", feature = "chrono"))]
    #[inline]
    fn time_len(_mode: FieldMode) -> usize {
        binary::time::LEN
    }

    /// Writes a time (one without `width` or `format`) at the start of `out`.
    #[cfg(any(feature = "std", feature = "chrono"))]
    fn encode_time<T: TimeValue>(
        t: &T,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        binary::time::encode(t, out, mode)
    }

    /// Reads a time (one without a `format`), and the bytes it took.
    #[cfg(any(feature = "std", feature = "chrono"))]
    fn decode_time<T: TimeValue>(input: &[u8], mode: FieldMode) -> Result<(T, usize), DecodeError> {
        binary::time::decode(input, mode)
    }

    /// Whether `t` is stored as it is (a time the format refuses counts as exact: it is refused
    /// rather than stored).
    #[cfg(any(feature = "std", feature = "chrono"))]
    fn time_stores_exactly<T: TimeValue>(t: &T, mode: FieldMode) -> bool {
        crate::time::count::exact_count(t, mode.unit())
    }

    /// The bytes a fieldless enum's discriminant takes.
    #[inline(always)]
    fn discriminant_len(_mode: FieldMode) -> usize {
        1
    }

    /// Writes a fieldless enum's discriminant at the start of `out`.
    #[inline(always)]
    fn encode_discriminant(d: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        put(&[d], out, mode)
    }

    /// Reads a fieldless enum's discriminant, and the bytes it took.
    #[inline(always)]
    fn decode_discriminant(input: &[u8], mode: FieldMode) -> Result<(u8, usize), DecodeError> {
        let mut b = [0u8];
        take_into(input, &mut b, mode)?;
        Ok((b[0], 1))
    }

    /// The bytes a digest of `n` bytes takes (`Hashed<N>`).
    #[inline(always)]
    fn digest_len(n: usize) -> usize {
        n
    }

    /// Writes the digest `bytes` at the start of `out` (`mode` has no `width`).
    #[inline(always)]
    fn encode_digest(bytes: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        put(bytes, out, mode)
    }

    /// Reads a digest into `bytes`, and the bytes it took.
    #[inline(always)]
    fn decode_digest(
        input: &[u8],
        bytes: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, DecodeError> {
        take_into(input, bytes, mode)?;
        Ok(bytes.len())
    }

    /// The byte that pads content to a `width`.
    #[cfg(feature = "alloc")]
    const CONTENT_PAD: u8 = crate::format::PAD;

    /// Feeds `push` the stored bytes that every stored content starting with `prefix` starts
    /// with, in a field without a `width` (`desc` applied): a scan's "starts with" on a string
    /// or byte string. `false` when no stored content can start so.
    #[cfg(feature = "alloc")]
    fn content_prefix(prefix: &[u8], mode: FieldMode, push: impl FnMut(u8)) -> bool {
        binary::escape::content_prefix(prefix, mode, push)
    }

    /// For a scan's bounds: the stand-in of `value`, which its column refuses, in a format whose
    /// columns have stand-ins of their own (`Some`: the format answers, `None` inside when there
    /// is none); `None` when the field type's own stand-in applies (`KeyField::encode_stand_in`).
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn column_stand_in<T: KeyField + ?Sized>(
        _value: &T,
        _mode: FieldMode,
    ) -> Option<Option<crate::field::column_type::StandIn>> {
        None
    }

    /// Whether a field of `shape` takes `width = w` in this format (a binary integer's width
    /// is at most its size: `FieldShape`'s rule).
    #[cfg(feature = "schema")]
    fn accepts_width(shape: FieldShape, w: usize) -> bool {
        shape.accepts_width(w)
    }

    /// Names a key of this format (a text key's segments joined by `delimiter`) in the heading
    /// of `K::LAYOUT`'s table (`words.rs` in each folder says a field's bytes in words).
    fn describe_key(_delimiter: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("binary")
    }

    /// How a salt's bucket stands in a key of this format, for the prefix's row of
    /// `K::LAYOUT`'s table.
    const SALT_WORDS: &'static str = "one byte";

    /// How a hash prefix takes the digest, for the prefix's row of `K::LAYOUT`'s table.
    const HASH_WORDS: &'static str = "the first bytes of";

    /// Describes a field of `shape` written with `mode`, for `K::LAYOUT`'s table.
    fn describe_field(
        shape: FieldShape,
        mode: FieldMode,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        binary::words::describe(shape, mode, f)
    }

    /// Whether nothing stands between the fields of a key (a field writes itself, as the
    /// column methods' defaults below say): what the walks that learn a key's format at run time
    /// (a schema's, the explainer's) ask before they keep track of columns.
    const PLAIN_COLUMNS: bool = true;

    /// Adds the bytes of a field and what stands before it to a key's length `len`.
    #[inline(always)]
    fn measure_column<T: KeyField + ?Sized>(
        _columns: &mut Columns,
        len: &mut usize,
        value: &T,
        mode: FieldMode,
    ) {
        *len += value.field_len(mode);
    }

    /// Writes a field, and what stands before it, for the key `key`.
    #[inline(always)]
    fn write_column<T: KeyField + ?Sized>(
        _columns: &mut Columns,
        w: &mut KeyWriter<'_>,
        value: &T,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<(), EncodeError> {
        w.field(value, mode, key, field)
    }

    /// Reads a field, and what stands before it.
    #[inline(always)]
    fn read_column<'k, T: DecodeField<'k>>(
        _columns: &mut Columns,
        r: &mut KeyReader<'k>,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<T, DecodeError> {
        r.field(mode, key, field)
    }

    /// Reads what stands before a field whose bytes the caller reads itself (the schema's
    /// codecs, which know a field's type only at run time); [`Format::after_read`] follows it.
    #[cfg(feature = "schema")]
    #[inline(always)]
    fn read_before(_columns: &Columns, _r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
        Ok(())
    }

    /// Keeps track of a field of `len` bytes read after [`Format::read_before`] (`variable`:
    /// its type's length varies in `mode`).
    #[cfg(feature = "schema")]
    #[inline(always)]
    fn after_read(_columns: &mut Columns, _len: usize, _variable: bool, _mode: FieldMode) {}

    /// The length of a key whose fields measured `len`.
    #[inline(always)]
    fn key_len(_columns: &Columns, len: usize) -> usize {
        len
    }

    /// Ends a key written after its last field.
    #[inline(always)]
    fn finish_columns(_columns: &Columns, _w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        Ok(())
    }

    /// Reads what ends a key after its last field.
    #[inline(always)]
    fn read_columns_end(_columns: &Columns, _r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
        Ok(())
    }

    /// For scan planning, what a plan writes after a bound field of type `T` that wrote `len`
    /// bytes (`0` for NULL) in `mode`, as a key that goes on has it, and what it holds back
    /// ([`Held`](columns::Held): bytes a key leaves out when it ends there): nothing, by default.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn plan_separator<T: KeyField + ?Sized>(
        _len: usize,
        _mode: FieldMode,
    ) -> (Option<u8>, columns::Held) {
        (None, columns::Held::NONE)
    }
}

pub(crate) use crate::buf::{out_prefix, take};
pub(crate) use crate::format::invert;

/// Writes a fixed-width value's bytes at the start of `out`, then applies `reverse` and `desc`.
#[inline(always)]
pub(crate) fn put(src: &[u8], out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    let dst = out_prefix(out, src.len())?;
    dst.copy_from_slice(src);
    if mode.is_reverse() {
        dst.reverse();
    }
    if mode.is_desc() {
        invert(dst);
    }
    Ok(src.len())
}

/// Reads `dst.len()` bytes from the start of `input` into `dst`, undoing `desc` and `reverse`.
#[inline(always)]
pub(crate) fn take_into(input: &[u8], dst: &mut [u8], mode: FieldMode) -> Result<(), DecodeError> {
    dst.copy_from_slice(take(input, dst.len())?);
    if mode.is_desc() {
        invert(dst);
    }
    if mode.is_reverse() {
        dst.reverse();
    }
    Ok(())
}

/// Writes the low `w` bytes of an integer image, big-endian, or little-endian when the field is
/// reversed. The caller applies `desc` to the integer itself: one `!` on a register instead of a
/// loop over bytes, which is what lets a fixed layout match hand-written `to_be_bytes` code.
#[inline(always)]
pub(crate) fn put_int<const SIZE: usize>(
    be: [u8; SIZE],
    le: [u8; SIZE],
    w: usize,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let src = if mode.is_reverse() {
        &le[..w]
    } else {
        &be[SIZE - w..]
    };
    out_prefix(out, w)?.copy_from_slice(src);
    Ok(w)
}

/// Reads `w` bytes written by [`put_int`] into the low end of a big-endian image of `SIZE` bytes
/// (zero above), undoing `reverse`; the caller undoes `desc` on the integer. Callers read a
/// full-width, unreversed integer straight from the key first: returned through this `Result`, the
/// array was split by LLVM into parts stored one by one and reloaded whole (a store-forwarding stall).
#[inline(always)]
pub(crate) fn take_int<const SIZE: usize>(
    input: &[u8],
    w: usize,
    mode: FieldMode,
) -> Result<[u8; SIZE], DecodeError> {
    let mut image = [0u8; SIZE];
    let low = &mut image[SIZE - w..];
    low.copy_from_slice(take(input, w)?);
    if mode.is_reverse() {
        low.reverse();
    }
    Ok(image)
}

#[cold]
pub(crate) fn unsupported_width() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Unsupported(
        "`width` on a type without a width",
    ))
}

#[cold]
pub(crate) fn unsupported_text() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Unsupported("this type has no text format"))
}

/// [`core::str::from_utf8`] with the error's offset.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, DecodeError> {
    core::str::from_utf8(bytes)
        .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, e.valid_up_to()))
}
