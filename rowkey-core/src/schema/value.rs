//! A field's value at run time ([`Value`]), and its text: what `rowkey encode` reads after
//! `FIELD=` and what `Display` writes back, one syntax per field type.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::hbase::to_string_binary;

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
#[repr(u8)]
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

/// `a == b`, at once when `b` is `a` itself: a path or variant name from [`Schema::decode`]
/// (which borrows them from the schema) given back.
///
/// [`Schema::decode`]: super::Schema::decode
#[inline(always)]
pub(crate) fn same_str(a: &str, b: &str) -> bool {
    a.len() == b.len() && (core::ptr::eq(a.as_ptr(), b.as_ptr()) || a == b)
}
