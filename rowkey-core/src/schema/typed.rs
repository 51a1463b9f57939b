//! From a [`Value`] to the Rust type its field stands for, and back: the schema encodes, decodes
//! and plans every field with that type's own `KeyField` and `DecodeField`, the impls generated
//! code calls, so the two cannot disagree on a byte. Nested keys are the schema's own walk of
//! their layout (`codec.rs`), which follows the steps of the derive's generated code.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use super::convert::{convert_and_run, go, go_with, Run, Sink};
use super::model::{Field, Kind};
use super::value::Value;
use crate::codec::{put, take_into, unsupported_text, unsupported_width};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::hashed::Hashed;

/// Converts `values` to the Rust type of `field` and runs `run` on them; an error names the value
/// that does not fit.
pub(crate) fn with_typed<'v, R: Run>(
    field: &'v Field,
    values: &[&'v Value],
    run: R,
) -> Result<R::Out, String> {
    macro_rules! go {
        ($conv:expr) => {
            convert_and_run(field.optional, values, $conv, run)
        };
    }
    match &field.kind {
        Kind::Unsigned(1) => go!(unsigned::<u8>),
        Kind::Unsigned(2) => go!(unsigned::<u16>),
        Kind::Unsigned(4) => go!(unsigned::<u32>),
        Kind::Unsigned(8) => go!(unsigned::<u64>),
        Kind::Unsigned(_) => go!(unsigned::<u128>),
        Kind::Signed(1) => go!(signed::<i8>),
        Kind::Signed(2) => go!(signed::<i16>),
        Kind::Signed(4) => go!(signed::<i32>),
        Kind::Signed(8) => go!(signed::<i64>),
        Kind::Signed(_) => go!(signed::<i128>),
        Kind::F32 => go!(|v: &Value| float(v).map(narrow)),
        Kind::F64 => go!(float),
        Kind::Bool => go!(|v: &Value| match v {
            Value::Bool(b) => Ok(*b),
            v => Err(mismatch(v, "true or false")),
        }),
        Kind::Char => go!(|v: &Value| match v {
            Value::Char(c) => Ok(*c),
            v => Err(mismatch(v, "a character")),
        }),
        Kind::Str => go!(|v: &'v Value| match v {
            Value::Str(s) => Ok(s.as_str()),
            v => Err(mismatch(v, "a string")),
        }),
        Kind::Bytes => go!(|v: &'v Value| match v {
            Value::Bytes(b) => Ok(b.as_slice()),
            Value::Str(s) => Ok(s.as_bytes()),
            v => Err(mismatch(v, "bytes")),
        }),
        Kind::Array(n) => go!(|v: &Value| match v {
            Value::Bytes(b) | Value::Hex(b) if b.len() == *n => Ok(ByteArray(b.clone())),
            v => Err(mismatch(v, &format!("{n} bytes"))),
        }),
        Kind::Digest(n) => go!(|v: &Value| match v {
            Value::Hex(b) if b.len() == *n => Ok(Digest(b.clone())),
            Value::Str(source) => Ok(Digest::of(source.as_bytes(), *n)),
            Value::Bytes(source) => Ok(Digest::of(source, *n)),
            v => Err(mismatch(
                v,
                &format!("a value to hash, or the digest's {n} bytes")
            )),
        }),
        Kind::Opaque(n) => go!(|v: &Value| match v {
            Value::Hex(b) | Value::Bytes(b) if b.len() == *n => Ok(Opaque(b.clone())),
            v => Err(mismatch(v, &format!("{n} bytes"))),
        }),
        Kind::SystemTime => go!(|v: &Value| system_time(v, field.mode)),
        Kind::Enum(variants) => go!(|v: &Value| {
            let name: &str = match v {
                Value::Variant(name) => name,
                Value::Str(name) => name,
                v => return Err(mismatch(v, "a variant name")),
            };
            variants
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, d)| Discriminant(*d))
                .ok_or_else(|| unknown_variant(name, variants))
        }),
        #[cfg(feature = "uuid")]
        Kind::Uuid => go!(|v: &Value| match v {
            Value::Text(s) | Value::Str(s) => s
                .parse::<uuid::Uuid>()
                .map_err(|e| format!("{s:?} is not a UUID: {e}")),
            Value::Bytes(b) | Value::Hex(b) =>
                uuid::Uuid::from_slice(b).map_err(|e| format!("{e}")),
            v => Err(mismatch(v, "a UUID")),
        }),
        #[cfg(feature = "decimal")]
        Kind::Decimal => go!(|v: &Value| match v {
            Value::Text(s) | Value::Str(s) => s
                .parse::<rust_decimal::Decimal>()
                .map_err(|e| format!("{s:?} is not a decimal: {e}")),
            Value::Signed(n) => Ok(rust_decimal::Decimal::from(*n as i64)),
            v => Err(mismatch(v, "a decimal")),
        }),
        #[cfg(feature = "chrono")]
        Kind::Chrono(c) => super::chrono::with_chrono(*c, field, values, run),
        // Nested keys are written by the schema's walk (`codec.rs`), which holds their values.
        Kind::Record(_) => Err(String::from("a nested key takes its fields by dotted path")),
    }
}

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

fn unsigned<T: TryFrom<u128>>(v: &Value) -> Result<T, String> {
    let n = match v {
        Value::Unsigned(n) => *n,
        Value::Signed(n) if *n >= 0 => *n as u128,
        v => return Err(mismatch(v, "an unsigned integer")),
    };
    T::try_from(n).map_err(|_| format!("{n} is out of range for `{}`", core::any::type_name::<T>()))
}

fn signed<T: TryFrom<i128>>(v: &Value) -> Result<T, String> {
    let n = match v {
        Value::Signed(n) => *n,
        Value::Unsigned(n) => i128::try_from(*n).map_err(|_| format!("{n} is out of range"))?,
        v => return Err(mismatch(v, "an integer")),
    };
    T::try_from(n).map_err(|_| format!("{n} is out of range for `{}`", core::any::type_name::<T>()))
}

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

fn system_time(v: &Value, mode: FieldMode) -> Result<std::time::SystemTime, String> {
    let count = unsigned::<u64>(v)?;
    let nanos = u128::from(count) * u128::from(mode.unit().nanos());
    let secs = u64::try_from(nanos / 1_000_000_000)
        .map_err(|_| format!("{count} is too far in the future"))?;
    std::time::UNIX_EPOCH
        .checked_add(core::time::Duration::new(
            secs,
            (nanos % 1_000_000_000) as u32,
        ))
        .ok_or_else(|| format!("{count} is too far in the future"))
}

/// Decodes one field of `field`'s type from the start of `input` into `sink`; returns the bytes
/// it took.
pub(crate) fn decode(
    field: &Field,
    input: &[u8],
    mode: FieldMode,
    sink: Sink<'_, '_>,
) -> Result<usize, DecodeError> {
    let opt = field.optional;
    match &field.kind {
        Kind::Unsigned(1) => go(input, mode, opt, sink, |v: u8| Value::Unsigned(v.into())),
        Kind::Unsigned(2) => go(input, mode, opt, sink, |v: u16| Value::Unsigned(v.into())),
        Kind::Unsigned(4) => go(input, mode, opt, sink, |v: u32| Value::Unsigned(v.into())),
        Kind::Unsigned(8) => go(input, mode, opt, sink, |v: u64| Value::Unsigned(v.into())),
        Kind::Unsigned(_) => go(input, mode, opt, sink, Value::Unsigned),
        Kind::Signed(1) => go(input, mode, opt, sink, |v: i8| Value::Signed(v.into())),
        Kind::Signed(2) => go(input, mode, opt, sink, |v: i16| Value::Signed(v.into())),
        Kind::Signed(4) => go(input, mode, opt, sink, |v: i32| Value::Signed(v.into())),
        Kind::Signed(8) => go(input, mode, opt, sink, |v: i64| Value::Signed(v.into())),
        Kind::Signed(_) => go(input, mode, opt, sink, Value::Signed),
        Kind::F32 => go(input, mode, opt, sink, |v: f32| Value::Float(widen(v))),
        Kind::F64 => go(input, mode, opt, sink, Value::Float),
        Kind::Bool => go(input, mode, opt, sink, Value::Bool),
        Kind::Char => go(input, mode, opt, sink, Value::Char),
        Kind::Str => go(input, mode, opt, sink, Value::Str),
        Kind::Bytes => go(input, mode, opt, sink, Value::Bytes),
        Kind::Array(n) => {
            let n = *n;
            let array = |input: &[u8], mode| {
                let mut buf = alloc::vec![0u8; n];
                take_into(input, &mut buf, mode)?;
                Ok((ByteArray(buf), n))
            };
            go_with(input, mode, opt, sink, array, |v: ByteArray| {
                Value::Bytes(v.0)
            })
        }
        Kind::Opaque(n) => {
            let n = *n;
            let opaque = |input: &[u8], _| {
                let mut buf = alloc::vec![0u8; n];
                take_into(input, &mut buf, FieldMode::INNER)?;
                Ok((Opaque(buf), n))
            };
            go_with(input, mode, opt, sink, opaque, |v: Opaque| Value::Hex(v.0))
        }
        Kind::Digest(n) => {
            let n = *n;
            let digest = |input: &[u8], mode| decode_hashed(input, mode, n);
            go_with(input, mode, opt, sink, digest, |v: Digest| Value::Hex(v.0))
        }
        Kind::SystemTime => go(input, mode, opt, sink, |t: std::time::SystemTime| {
            let nanos = t
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            Value::Unsigned(nanos / u128::from(mode.unit().nanos()))
        }),
        Kind::Enum(variants) => {
            let variant = |input: &[u8], mode| {
                let (d, n) = Discriminant::decode_field(input, mode)?;
                match variants.iter().find(|(_, t)| *t == d.0) {
                    Some((name, _)) => Ok((Variant(name), n)),
                    None => Err(DecodeError::new(
                        DecodeErrorKind::UnknownDiscriminant {
                            value: d.0,
                            enum_name: field.ty,
                        },
                        0,
                    )),
                }
            };
            go_with(input, mode, opt, sink, variant, |v: Variant| {
                Value::Variant(alloc::borrow::Cow::Borrowed(v.0))
            })
        }
        #[cfg(feature = "uuid")]
        Kind::Uuid => go(input, mode, opt, sink, |u: uuid::Uuid| {
            Value::Text(format!("{u}"))
        }),
        #[cfg(feature = "decimal")]
        Kind::Decimal => go(input, mode, opt, sink, |d: rust_decimal::Decimal| {
            Value::Text(format!("{d}"))
        }),
        #[cfg(feature = "chrono")]
        Kind::Chrono(c) => super::chrono::decode(*c, input, mode, opt, sink),
        // Nested keys are read by the schema's walk (`codec.rs`), which collects their fields.
        Kind::Record(_) => Err(DecodeError::new(
            DecodeErrorKind::Invalid("a nested key is read by the schema's walk"),
            0,
        )),
    }
}

/// A value as derived `Debug` shows it, already written out (a nested key).
pub(crate) struct Shown(pub(crate) String);

impl Debug for Shown {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A fieldless enum's variant as derived `Debug` shows it: its name.
struct Variant(&'static str);

impl Debug for Variant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

fn decode_hashed(
    input: &[u8],
    mode: FieldMode,
    len: usize,
) -> Result<(Digest, usize), DecodeError> {
    macro_rules! each {
        ($($len:literal)*) => {
            match len {
                $($len => Hashed::<$len>::decode_field(input, mode)
                    .map(|(h, n)| (Digest(h.as_bytes().to_vec()), n)),)*
                _ => Err(DecodeError::new(DecodeErrorKind::Invalid("a digest of no known size"), 0)),
            }
        };
    }
    each!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

/// `[u8; N]` of a length known at run time: written and read by the array codec's `put` and
/// `take_into`, with the same checks as `[u8; N]`.
#[derive(Clone)]
pub(crate) struct ByteArray(pub(crate) Vec<u8>);

/// As `[u8; N]` shows itself: `[1, 2, 3]`.
impl Debug for ByteArray {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

impl KeyField for ByteArray {
    const SHAPE: FieldShape = <[u8; 1] as KeyField>::SHAPE;

    fn field_len(&self, _mode: FieldMode) -> usize {
        self.0.len()
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if mode.is_text() {
            return Err(unsupported_text());
        }
        if mode.width().is_some() {
            return Err(unsupported_width());
        }
        put(&self.0, out, mode)
    }
}

/// A user's own fixed-length type: its bytes as they stand in the key, whatever the mode.
#[derive(Clone)]
pub(crate) struct Opaque(pub(crate) Vec<u8>);

impl Debug for Opaque {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl KeyField for Opaque {
    const SHAPE: FieldShape = FieldShape::fixed(1);

    fn field_len(&self, _mode: FieldMode) -> usize {
        self.0.len()
    }

    fn encode(&self, out: &mut [u8], _mode: FieldMode) -> Result<usize, EncodeError> {
        put(&self.0, out, FieldMode::INNER)
    }
}

/// `Hashed<N>` of an `N` known at run time: each call goes to `Hashed::<N>`'s own codec.
#[derive(Clone)]
pub(crate) struct Digest(pub(crate) Vec<u8>);

impl Debug for Digest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Hashed(")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))?;
        f.write_str(")")
    }
}

/// Calls `$body` with `$h`, the digest as a `Hashed::<N>` of its length.
macro_rules! hashed {
    ($bytes:expr, $n:expr, |$h:ident| $body:expr, $none:expr) => {
        hashed!(@ $bytes, $n, |$h| $body, $none; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@ $bytes:expr, $n:expr, |$h:ident| $body:expr, $none:expr; $($len:literal)*) => {
        match $n {
            $($len => {
                let mut part = [0u8; $len];
                part.copy_from_slice(&$bytes[..$len]);
                let $h = Hashed::<$len>::from_bytes(part);
                $body
            })*
            _ => $none,
        }
    };
}

impl Digest {
    fn of(source: &[u8], n: usize) -> Digest {
        let digest = Hashed::<16>::of(source);
        Digest(digest.as_bytes()[..n.min(16)].to_vec())
    }
}

impl KeyField for Digest {
    const SHAPE: FieldShape = <Hashed<1> as KeyField>::SHAPE;

    fn field_len(&self, mode: FieldMode) -> usize {
        if mode.is_text() {
            2 * self.0.len()
        } else {
            self.0.len()
        }
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        hashed!(
            self.0,
            self.0.len(),
            |h| h.encode(out, mode),
            Err(unsupported_width())
        )
    }
}

/// A fieldless enum's variant, by its discriminant: the derive's enum codec.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Discriminant(pub(crate) u8);

impl KeyField for Discriminant {
    const SHAPE: FieldShape = crate::codec::discriminant::ENUM_SHAPE;

    fn field_len(&self, mode: FieldMode) -> usize {
        crate::codec::discriminant::discriminant_len(mode)
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        crate::codec::discriminant::encode_discriminant(self.0, out, mode)
    }
}

impl<'k> DecodeField<'k> for Discriminant {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        crate::codec::discriminant::decode_discriminant(input, mode)
            .map(|(d, n)| (Discriminant(d), n))
    }
}
