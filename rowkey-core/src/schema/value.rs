//! A field's value at run time ([`Value`]), and its text: what `rowkey encode` reads after
//! `FIELD=` and what `Display` writes back, one syntax per field type.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::model::{Field, Kind};
use crate::hbase::{from_string_binary, to_string_binary};

/// One value of a key, as a schema reads and writes it.
///
/// Each field type has one variant, and [`Schema::parse_value`](super::Schema::parse_value)
/// reads the text form that `Display` writes:
///
/// | field type | variant | text |
/// |---|---|---|
/// | `u8` .. `u128`, `usize`; `SystemTime` | `Unsigned` | decimal digits; a `SystemTime` is a count of its `unit` since the epoch |
/// | `i8` .. `i128`, `isize` | `Signed` | decimal digits, `-` in front when negative |
/// | `f32`, `f64` | `Float` | as Rust reads it: `1.5`, `-0`, `inf`, `NaN` |
/// | `bool` | `Bool` | `true` or `false` |
/// | `char` | `Char` | the character |
/// | `String`, `&str`, `Cow<str>` | `Str` | the text; `\xHH` is the byte `HH` (`Bytes.toStringBinary`) |
/// | `Vec<u8>`, `&[u8]`, `[u8; N]` | `Bytes` | the same, any bytes |
/// | `Hashed<N>`, a type of your own (`KeyField`) | `Hex` | hex digits of the bytes; a `Hashed` also takes its source value |
/// | a fieldless enum | `Variant` | the variant's name |
/// | `uuid::Uuid`, `rust_decimal::Decimal`, chrono's times | `Text` | the type's own text (`67e55044-...`, `-1.50`, `2024-01-31T10:00:00Z`, `2024-01-31`) |
/// | `None` of an `Option` | `Null` | `null` (write `\x6Eull` for the text "null") |
///
/// A nested struct's fields, and an enum's variant and its fields, take one value each by dotted
/// path (`inner.region`, `V2.user`); a variant without fields is named alone with `Null`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// `None` of an `Option` field.
    Null,
    /// A `bool`.
    Bool(bool),
    /// An unsigned integer, or a time's count of units since the epoch.
    Unsigned(u128),
    /// A signed integer.
    Signed(i128),
    /// A float.
    Float(f64),
    /// A `char`.
    Char(char),
    /// A string.
    Str(String),
    /// A byte string or byte array.
    Bytes(Vec<u8>),
    /// Bytes shown as hex: a `Hashed` digest, a field type of your own.
    Hex(Vec<u8>),
    /// A fieldless enum's variant, by name (a schema's own names are borrowed: decoding one
    /// allocates nothing).
    Variant(Cow<'static, str>),
    /// A value in its type's own text: a UUID, a decimal, a chrono time.
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Unsigned(n) => write!(f, "{n}"),
            Value::Signed(n) => write!(f, "{n}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Char(c) => write!(f, "{c}"),
            Value::Str(s) => f.write_str(&to_string_binary(s.as_bytes())),
            Value::Bytes(b) => f.write_str(&to_string_binary(b)),
            Value::Hex(b) => b.iter().try_for_each(|x| write!(f, "{x:02x}")),
            Value::Variant(s) => f.write_str(s),
            Value::Text(s) => f.write_str(s),
        }
    }
}

/// Reads the text of one value of `field` (not a record: those come by dotted paths).
pub(crate) fn parse(field: &Field, text: &str) -> Result<Value, String> {
    if field.optional && text == "null" {
        return Ok(Value::Null);
    }
    let kind_words = kind_words(&field.kind);
    let bad = |why: &str| alloc::format!("{text:?} is not {kind_words}{why}");
    Ok(match &field.kind {
        Kind::Unsigned(_) | Kind::SystemTime => Value::Unsigned(text.parse().map_err(|_| bad(""))?),
        Kind::Signed(_) => Value::Signed(text.parse().map_err(|_| bad(""))?),
        Kind::F32 | Kind::F64 => Value::Float(text.parse().map_err(|_| bad(""))?),
        Kind::Bool => Value::Bool(text.parse().map_err(|_| bad(""))?),
        Kind::Char => {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Value::Char(c),
                _ => return Err(bad("")),
            }
        }
        Kind::Str => String::from_utf8(from_string_binary(text))
            .map(Value::Str)
            .map_err(|_| bad(": its \\x escapes are not UTF-8"))?,
        Kind::Bytes | Kind::Array(_) => Value::Bytes(from_string_binary(text)),
        Kind::Digest(n) => match text.strip_prefix("0x") {
            Some(hex) => Value::Hex(hex_bytes(hex).filter(|b| b.len() == *n).ok_or_else(|| {
                bad(&alloc::format!(
                    ": after 0x, {} hex digits of the digest",
                    2 * n
                ))
            })?),
            // The source value: hashed where the field is encoded.
            None => Value::Str(String::from_utf8(from_string_binary(text)).map_err(|_| bad(""))?),
        },
        Kind::Opaque(n) => Value::Hex(
            hex_bytes(text)
                .filter(|b| b.len() == *n)
                .ok_or_else(|| bad(&alloc::format!(": {} hex digits", 2 * n)))?,
        ),
        Kind::Enum(variants) => match variants.iter().find(|(name, _)| *name == text) {
            Some((name, _)) => Value::Variant(Cow::Borrowed(name)),
            None => {
                let names: Vec<&str> = variants.iter().map(|(n, _)| *n).collect();
                return Err(alloc::format!(
                    "{text:?} is not a variant; expected one of {}",
                    names.join(", ")
                ));
            }
        },
        #[cfg(feature = "uuid")]
        Kind::Uuid => Value::Text(String::from(text)),
        #[cfg(feature = "decimal")]
        Kind::Decimal => Value::Text(String::from(text)),
        #[cfg(feature = "chrono")]
        Kind::Chrono(_) => Value::Text(String::from(text)),
        Kind::Record(_) => {
            return Err(String::from(
                "a nested key takes its fields by their dotted paths (`field.inner=...`)",
            ))
        }
    })
}

/// What values of a kind are, for messages and `--help`.
pub(crate) fn kind_words(kind: &Kind) -> &'static str {
    match kind {
        Kind::Unsigned(_) => "an unsigned integer",
        Kind::Signed(_) => "an integer",
        Kind::F32 | Kind::F64 => "a number",
        Kind::Bool => "true or false",
        Kind::Char => "one character",
        Kind::Str => "a string",
        Kind::Bytes => "a byte string",
        Kind::Array(_) => "a byte array",
        Kind::Digest(_) => "a value to hash, or 0x and the digest's hex digits",
        Kind::SystemTime => "a count of the field's unit since the Unix epoch",
        Kind::Opaque(_) => "hex digits",
        Kind::Enum(_) => "a variant name",
        #[cfg(feature = "uuid")]
        Kind::Uuid => "a UUID",
        #[cfg(feature = "decimal")]
        Kind::Decimal => "a decimal number",
        #[cfg(feature = "chrono")]
        Kind::Chrono(_) => "a time",
        Kind::Record(_) => "a nested key",
    }
}

/// The bytes of hex digits (either case), if they are hex digits.
pub(crate) fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16);
    text.as_bytes()
        .chunks(2)
        .map(|p| Some((digit(p[0])? * 16 + digit(p[1])?) as u8))
        .collect()
}
