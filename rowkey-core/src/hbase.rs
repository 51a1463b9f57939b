//! What HBase imposes on row keys, and helpers for working beside the HBase shell.

/// HBase's limit on the length of a row key (`HConstants.MAX_ROW_LENGTH`, `Short.MAX_VALUE`).
///
/// Encoding a longer key is an [`EncodeError`](crate::EncodeError); a fixed layout longer than this
/// does not compile.
pub const MAX_ROW_LENGTH: usize = 32767;

#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};

/// HBase's `Bytes.toStringBinary`: printable ASCII (0x20..=0x7E) except `\` as itself, every other
/// byte as `\xHH` in uppercase hex. This is how the HBase shell prints row keys.
///
/// ```
/// use rowkey_core::hbase::to_string_binary;
/// assert_eq!(to_string_binary(b"user\x00\x01\xFF\\"), r"user\x00\x01\xFF\x5C");
/// ```
#[cfg(feature = "alloc")]
pub fn to_string_binary(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..=0x7E).contains(&b) && b != b'\\' {
            out.push(char::from(b));
        } else {
            out.push_str("\\x");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        }
    }
    out
}

/// The inverse of [`to_string_binary`], like HBase's `Bytes.toBytesBinary`: `\xHH` (either case) is
/// one byte, anything else stands for its own UTF-8 bytes.
///
/// Where HBase drops a malformed escape such as `\xZZ`, this keeps its characters as they are, so
/// nothing typed is lost.
///
/// ```
/// use rowkey_core::hbase::from_string_binary;
/// assert_eq!(from_string_binary(r"user\x00\x01\xff"), b"user\x00\x01\xFF");
/// assert_eq!(from_string_binary(r"a\xZZ"), br"a\xZZ");
/// ```
#[cfg(feature = "alloc")]
pub fn from_string_binary(text: &str) -> Vec<u8> {
    fn hex(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if let [b'\\', b'x', hi, lo, ..] = bytes[i..] {
            if let (Some(hi), Some(lo)) = (hex(hi), hex(lo)) {
                out.push(hi << 4 | lo);
                i += 4;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}
