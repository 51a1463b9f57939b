//! A field's value from its text, as `rowkey encode` reads it after `FIELD=` (the syntax is in
//! [`Value`]'s docs; `Display` writes it back), and the words for what each field type takes.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::nodes::{Field, Kind};
use super::value::Value;
use crate::hbase::from_string_binary;

/// Reads the text of one value of `field` (not a record: those come by dotted paths).
pub(crate) fn parse(field: &Field, text: &str) -> Result<Value, String> {
    if field.optional && text == "null" {
        return Ok(Value::Null);
    }
    let kind_words = kind_words(&field.kind);
    let bad = |why: &str| alloc::format!("{text:?} is not {kind_words}{why}");
    Ok(match &field.kind {
        Kind::Unsigned(_) => Value::Unsigned(text.parse().map_err(|_| bad(""))?),
        // A date, or a count of the field's unit (negative before the epoch, which only a
        // Phoenix layout stores).
        Kind::SystemTime => match (text.parse::<i128>(), crate::time::rfc3339::parse(text)) {
            (Ok(count), _) => Value::Signed(count),
            (_, Some(_)) => Value::Text(String::from(text)),
            _ => return Err(bad("")),
        },
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
        Kind::SystemTime => {
            "a date and time in RFC 3339 (2023-11-14T22:13:20Z, 1969-07-20T20:17:40.5+00:00) or a count of the field's unit since the Unix epoch"
        }
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
