//! Each Rust type a field can stand for, as a [`FieldType`]: how a [`Value`] becomes it (each
//! conversion's refusal says what was expected) and how, read back, it becomes a `Value` again.
//! The bytes are always the type's own `KeyField` and `DecodeField`.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::marker::PhantomData;

use super::nodes::{Field, Kind};
use super::stand_ins::{decode_hashed, ByteArray, Digest, Discriminant, Opaque, Variant};
use super::value::{same_str, Value};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::words::Count;

/// A Rust type a field can stand for, as the schema meets it: how a [`Value`] becomes it, to be
/// written by its own `KeyField`, and how its own `DecodeField` reads it back into a `Value`.
pub(crate) trait FieldType: 'static {
    /// The type written, borrowing from the value where it can.
    type Write<'v>: KeyField + Debug;
    /// The type read back.
    type Read: Debug;
    /// The value as the type written; an error says why it does not fit.
    fn from_value<'v>(field: &'v Field, v: &'v Value) -> Result<Self::Write<'v>, String>;
    /// Reads one from the start of `input`, placed with `mode`.
    fn decode(
        field: &Field,
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(Self::Read, usize), DecodeError>;
    /// What was read, as a value.
    fn to_value(field: &Field, v: Self::Read) -> Value;
}

/// Work on the Rust type a field stands for, whichever it is: [`dispatch`](super::typed::dispatch)
/// calls `visit` with it.
pub(crate) trait Visit {
    type Out;
    fn visit<F: FieldType>(self) -> Self::Out;
}

/// The Rust types written as they are from a value, and read back as they are: numbers, `bool`,
/// `char`, `uuid::Uuid`, `rust_decimal::Decimal`. Each says only how it converts ([`Plain`]).
pub(crate) struct Own<T>(PhantomData<T>);

/// An [`Own`] type's conversions from and to a [`Value`].
trait Plain: KeyField + for<'k> DecodeField<'k> + Debug + Sized {
    fn from_value(v: &Value) -> Result<Self, String>;
    fn to_value(self) -> Value;
}

impl<T: Plain + 'static> FieldType for Own<T> {
    type Write<'v> = T;
    type Read = T;
    #[inline]
    fn from_value<'v>(_: &'v Field, v: &'v Value) -> Result<T, String> {
        T::from_value(v)
    }
    #[inline(always)]
    fn decode(_: &Field, input: &[u8], mode: FieldMode) -> Result<(T, usize), DecodeError> {
        T::decode_field(input, mode)
    }
    #[inline]
    fn to_value(_: &Field, v: T) -> Value {
        v.to_value()
    }
}

/// `Plain` for types whose value variant holds them as they are (widened for integers): each
/// converted from a value by `$conv`.
macro_rules! plain {
    ($($t:ty => $variant:ident by $conv:ident;)*) => {$(
        impl Plain for $t {
            #[inline]
            fn from_value(v: &Value) -> Result<Self, String> {
                $conv(v)
            }
            #[inline]
            fn to_value(self) -> Value {
                Value::$variant(self.into())
            }
        }
    )*};
}

plain! {
    u8 => Unsigned by unsigned; u16 => Unsigned by unsigned; u32 => Unsigned by unsigned;
    u64 => Unsigned by unsigned; u128 => Unsigned by unsigned;
    i8 => Signed by signed; i16 => Signed by signed; i32 => Signed by signed;
    i64 => Signed by signed; i128 => Signed by signed;
    f64 => Float by float; bool => Bool by boolean; char => Char by character;
}

/// `f32`: a [`Value`] holds it as an `f64`, a NaN's bits kept.
impl Plain for f32 {
    #[inline]
    fn from_value(v: &Value) -> Result<f32, String> {
        float(v).map(narrow)
    }
    #[inline]
    fn to_value(self) -> Value {
        Value::Float(widen(self))
    }
}

/// `String` and `&str`: written from the value's text, read into a `String`.
pub(crate) struct Text;

impl FieldType for Text {
    type Write<'v> = &'v str;
    type Read = String;
    #[inline]
    fn from_value<'v>(_: &'v Field, v: &'v Value) -> Result<&'v str, String> {
        match v {
            Value::Str(s) => Ok(s.as_str()),
            v => Err(mismatch(v, "a string")),
        }
    }
    #[inline(always)]
    fn decode(_: &Field, input: &[u8], mode: FieldMode) -> Result<(String, usize), DecodeError> {
        String::decode_field(input, mode)
    }
    #[inline]
    fn to_value(_: &Field, v: String) -> Value {
        Value::Str(v)
    }
}

/// `Vec<u8>` and `&[u8]`: written from bytes (or a string's), read into a `Vec<u8>`.
pub(crate) struct ByteString;

impl FieldType for ByteString {
    type Write<'v> = &'v [u8];
    type Read = Vec<u8>;
    #[inline]
    fn from_value<'v>(_: &'v Field, v: &'v Value) -> Result<&'v [u8], String> {
        match v {
            Value::Bytes(b) => Ok(b.as_slice()),
            Value::Str(s) => Ok(s.as_bytes()),
            v => Err(mismatch(v, "bytes")),
        }
    }
    #[inline(always)]
    fn decode(_: &Field, input: &[u8], mode: FieldMode) -> Result<(Vec<u8>, usize), DecodeError> {
        Vec::<u8>::decode_field(input, mode)
    }
    #[inline]
    fn to_value(_: &Field, v: Vec<u8>) -> Value {
        Value::Bytes(v)
    }
}

/// The length of a field of `[u8; N]`, `Hashed<N>` or a user's type: `N`.
fn fixed_len(field: &Field) -> usize {
    match field.kind {
        Kind::Array(n) | Kind::Digest(n) | Kind::Opaque(n) => n,
        _ => 0,
    }
}

/// `FieldType` for a stand-in of a fixed number of bytes (`[u8; N]`, a digest, a user's type):
/// `from` turns a value into it given `n`, the field's length in bytes; `decode` reads it back
/// from `input` in `mode` given `n`; `shown` is the `Value` variant it reads back as.
macro_rules! fixed_bytes {
    ($(
        $ty:ident {
            from: |$n:ident, $v:ident| $from:expr,
            decode: |$input:ident, $mode:ident, $len:ident| $decode:expr,
            shown: $shown:ident,
        }
    )*) => {$(
        impl FieldType for $ty {
            type Write<'v> = $ty;
            type Read = $ty;
            #[inline]
            fn from_value<'v>(field: &'v Field, $v: &'v Value) -> Result<$ty, String> {
                let $n = fixed_len(field);
                $from
            }
            #[inline(always)]
            fn decode(field: &Field, $input: &[u8], $mode: FieldMode) -> Result<($ty, usize), DecodeError> {
                let $len = fixed_len(field);
                $decode
            }
            #[inline]
            fn to_value(_: &Field, v: $ty) -> Value {
                Value::$shown(v.0)
            }
        }
    )*};
}

fixed_bytes! {
    ByteArray {
        from: |n, v| match v {
            Value::Bytes(b) | Value::Hex(b) if b.len() == n => Ok(ByteArray(b.clone())),
            v => Err(mismatch(v, &format!("{}", Count(n, "byte")))),
        },
        decode: |input, mode, n| ByteArray::decode(input, mode, n),
        shown: Bytes,
    }
    Digest {
        from: |n, v| match v {
            Value::Hex(b) if b.len() == n => Ok(Digest(b.clone())),
            Value::Str(source) => Ok(Digest::of(source.as_bytes(), n)),
            Value::Bytes(source) => Ok(Digest::of(source, n)),
            v => Err(mismatch(
                v,
                &format!("a value to hash, or the digest's {}", Count(n, "byte")),
            )),
        },
        decode: |input, mode, n| decode_hashed(input, mode, n),
        shown: Hex,
    }
    Opaque {
        from: |n, v| match v {
            Value::Hex(b) | Value::Bytes(b) if b.len() == n => Ok(Opaque(b.clone())),
            v => Err(mismatch(v, &format!("{}", Count(n, "byte")))),
        },
        // A user's type is read as its bytes, whatever the mode.
        decode: |input, _mode, n| Opaque::decode(input, n),
        shown: Hex,
    }
}

/// `SystemTime`: a date (RFC 3339), or a count of the field's unit since the epoch.
impl FieldType for std::time::SystemTime {
    type Write<'v> = std::time::SystemTime;
    // Shown as a date: `explain` writes a decoded value's `Debug`.
    type Read = crate::time::rfc3339::Rfc3339;
    #[inline]
    fn from_value<'v>(field: &'v Field, v: &'v Value) -> Result<Self, String> {
        system_time(v, field.mode)
    }
    #[inline(always)]
    fn decode(
        _: &Field,
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(Self::Read, usize), DecodeError> {
        let (t, n) = Self::decode_field(input, mode)?;
        Ok((crate::time::rfc3339::Rfc3339::of(t), n))
    }
    /// The time as a date, RFC 3339 in UTC, whatever the layout stores.
    #[inline]
    fn to_value(_: &Field, t: Self::Read) -> Value {
        Value::Text(format!("{t}"))
    }
}

/// The variants of a fieldless enum's field.
fn variants(field: &Field) -> &[(&'static str, u8)] {
    match &field.kind {
        Kind::Enum(variants) => variants,
        _ => &[],
    }
}

/// A fieldless enum: a variant by name, written as its discriminant.
impl FieldType for Discriminant {
    type Write<'v> = Discriminant;
    type Read = Variant;
    #[inline]
    fn from_value<'v>(field: &'v Field, v: &'v Value) -> Result<Discriminant, String> {
        let name: &str = match v {
            Value::Variant(name) => name,
            Value::Str(name) => name,
            v => return Err(mismatch(v, "a variant name")),
        };
        let variants = variants(field);
        variants
            .iter()
            .find(|(n, _)| same_str(n, name))
            .map(|(_, d)| Discriminant(*d))
            .ok_or_else(|| unknown_variant(name, variants))
    }
    #[inline(always)]
    fn decode(
        field: &Field,
        input: &[u8],
        mode: FieldMode,
    ) -> Result<(Variant, usize), DecodeError> {
        let (d, n) = Discriminant::decode_field(input, mode)?;
        match variants(field).iter().find(|(_, t)| *t == d.0) {
            Some((name, _)) => Ok((Variant(name), n)),
            None => Err(DecodeError::new(
                DecodeErrorKind::UnknownDiscriminant {
                    value: d.0,
                    enum_name: field.ty,
                },
                0,
            )),
        }
    }
    #[inline]
    fn to_value(_: &Field, v: Variant) -> Value {
        Value::Variant(Cow::Borrowed(v.0))
    }
}

/// A UUID: its text, or its 16 bytes; shown as its text.
#[cfg(feature = "uuid")]
impl Plain for uuid::Uuid {
    #[inline]
    fn from_value(v: &Value) -> Result<Self, String> {
        match v {
            Value::Text(s) | Value::Str(s) => s
                .parse::<uuid::Uuid>()
                .map_err(|e| format!("{s:?} is not a UUID: {e}")),
            Value::Bytes(b) | Value::Hex(b) => {
                uuid::Uuid::from_slice(b).map_err(|e| format!("{e}"))
            }
            v => Err(mismatch(v, "a UUID")),
        }
    }
    #[inline]
    fn to_value(self) -> Value {
        Value::Text(format!("{self}"))
    }
}

/// A decimal: its text, or an integer; shown as its text.
#[cfg(feature = "decimal")]
impl Plain for rust_decimal::Decimal {
    #[inline]
    fn from_value(v: &Value) -> Result<Self, String> {
        match v {
            Value::Text(s) | Value::Str(s) => s
                .parse::<rust_decimal::Decimal>()
                .map_err(|e| format!("{s:?} is not a decimal: {e}")),
            Value::Signed(n) => Ok(rust_decimal::Decimal::from(*n as i64)),
            v => Err(mismatch(v, "a decimal")),
        }
    }
    #[inline]
    fn to_value(self) -> Value {
        Value::Text(format!("{self}"))
    }
}

#[cold]
fn mismatch(v: &Value, expected: &str) -> String {
    format!("{v} is not {expected}")
}

fn unknown_variant(name: &str, variants: &[(&'static str, u8)]) -> String {
    let names: Vec<&str> = variants.iter().map(|(n, _)| *n).collect();
    format!(
        "{name:?} is not a variant; expected one of {}",
        names.join(", ")
    )
}

#[inline]
fn unsigned<T: TryFrom<u128>>(v: &Value) -> Result<T, String> {
    let n = match v {
        Value::Unsigned(n) => *n,
        Value::Signed(n) if *n >= 0 => *n as u128,
        v => return Err(mismatch(v, "an unsigned integer")),
    };
    T::try_from(n).map_err(|_| format!("{n} is out of range for `{}`", core::any::type_name::<T>()))
}

#[inline]
fn signed<T: TryFrom<i128>>(v: &Value) -> Result<T, String> {
    let n = match v {
        Value::Signed(n) => *n,
        Value::Unsigned(n) => i128::try_from(*n).map_err(|_| format!("{n} is out of range"))?,
        v => return Err(mismatch(v, "an integer")),
    };
    T::try_from(n).map_err(|_| format!("{n} is out of range for `{}`", core::any::type_name::<T>()))
}

#[inline]
fn boolean(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        v => Err(mismatch(v, "true or false")),
    }
}

#[inline]
fn character(v: &Value) -> Result<char, String> {
    match v {
        Value::Char(c) => Ok(*c),
        v => Err(mismatch(v, "a character")),
    }
}

#[inline]
fn float(v: &Value) -> Result<f64, String> {
    match v {
        Value::Float(x) => Ok(*x),
        Value::Signed(n) => Ok(*n as f64),
        Value::Unsigned(n) => Ok(*n as f64),
        v => Err(mismatch(v, "a number")),
    }
}

/// An `f32` as an `f64`, a NaN's bits kept as they are (the hardware conversion sets the quiet
/// bit of a signaling NaN, and its key would not come back).
fn widen(x: f32) -> f64 {
    if !x.is_nan() {
        return f64::from(x);
    }
    let bits = x.to_bits();
    let sign = u64::from(bits >> 31) << 63;
    let payload = u64::from(bits & 0x007F_FFFF) << 29;
    f64::from_bits(sign | 0x7FF0_0000_0000_0000 | payload)
}

/// An `f64` as the nearest `f32` (`as` rounds to nearest, as parsing an `f32` does), a NaN's
/// bits kept: the inverse of [`widen`].
fn narrow(x: f64) -> f32 {
    if !x.is_nan() {
        return x as f32;
    }
    let bits = x.to_bits();
    let sign = ((bits >> 63) as u32) << 31;
    let payload = ((bits >> 29) & 0x007F_FFFF) as u32;
    // A NaN needs a payload; one whose payload sat below the f32's bits is the quiet NaN.
    let payload = if payload == 0 { 0x0040_0000 } else { payload };
    f32::from_bits(sign | 0x7F80_0000 | payload)
}

/// A `SystemTime` from a date (RFC 3339) or a count of the field's unit since the epoch
/// (negative before it; a count beyond u64 too: a Phoenix TIMESTAMP holds more nanoseconds than
/// a u64 counts).
fn system_time(v: &Value, mode: FieldMode) -> Result<std::time::SystemTime, String> {
    use crate::time::TimeValue;
    let nanos = match v {
        Value::Text(s) | Value::Str(s) => crate::time::rfc3339::parse(s).ok_or_else(|| {
            format!("{s:?} is not a date and time in RFC 3339 (2023-11-14T22:13:20Z)")
        })?,
        Value::Signed(_) | Value::Unsigned(_) => {
            let count = signed::<i128>(v)?;
            count
                .checked_mul(i128::from(mode.unit().nanos()))
                .ok_or_else(|| format!("{count} is too far from the epoch"))?
        }
        v => {
            return Err(mismatch(
                v,
                "a date and time (RFC 3339), or a count of the field's unit since the epoch",
            ))
        }
    };
    std::time::SystemTime::from_nanos(nanos).ok_or_else(|| {
        format!(
            "{} is too far from the epoch for a time",
            crate::time::rfc3339::Rfc3339(nanos)
        )
    })
}
