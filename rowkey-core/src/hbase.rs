//! What HBase imposes on row keys, and helpers for working beside the HBase shell.
//!
//! ```
//! use rowkey::hbase::{from_string_binary, to_string_binary};
//! // The key 00 00 00 2A "web" as the HBase shell prints it (0x2A is `*`), and back.
//! let key = [0x00, 0x00, 0x00, 0x2A, b'w', b'e', b'b'];
//! assert_eq!(to_string_binary(&key), r"\x00\x00\x00*web");
//! assert_eq!(from_string_binary(r"\x00\x00\x00*web"), key);
//! ```

#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};

/// HBase's limit on the length of a row key (`HConstants.MAX_ROW_LENGTH`, Java's
/// `Short.MAX_VALUE`): the number's home, which [`limits::HBASE`](crate::limits::HBASE) names
/// beside the other stores' limits.
///
/// Encoding a longer key is an [`EncodeError`](crate::EncodeError); a fixed layout longer than this
/// does not compile.
///
/// ```
/// use rowkey::{hbase::MAX_ROW_LENGTH, limits};
/// assert_eq!(MAX_ROW_LENGTH, i16::MAX as usize); // Java's Short.MAX_VALUE
/// assert_eq!(MAX_ROW_LENGTH, limits::HBASE);
/// ```
pub const MAX_ROW_LENGTH: usize = 32_767;

/// HBase's `Bytes.toStringBinary`: printable ASCII (0x20..=0x7E) except `\` as itself, every other
/// byte as `\xHH` in uppercase hex. This is how the HBase shell prints row keys.
///
/// ```
/// use rowkey::hbase::to_string_binary;
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
/// use rowkey::hbase::from_string_binary;
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

/// `bytes` as a double-quoted HBase shell (JRuby) string: the [`to_string_binary`] form, with `"`
/// and `#` escaped too so the shell neither ends the string nor interpolates.
///
/// ```
/// use rowkey::hbase::shell_string;
/// assert_eq!(shell_string(b"a\"#\x00"), r#""a\x22\x23\x00""#);
/// ```
#[cfg(feature = "alloc")]
pub fn shell_string(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for part in to_string_binary(bytes).chars() {
        match part {
            '"' => out.push_str("\\x22"),
            '#' => out.push_str("\\x23"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A single-quoted shell string for a table or family name.
#[cfg(feature = "alloc")]
fn shell_name(name: &str) -> String {
    let mut out = String::from("'");
    for c in name.chars() {
        if c == '\'' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('\'');
    out
}

/// An HBase shell `create` statement for a table pre-split at `splits`.
///
/// ```
/// use rowkey::hbase::create_statement;
/// let splits = vec![vec![0x04], vec![0x08], vec![0x0C]];
/// assert_eq!(
///     create_statement("events", &["d"], &splits),
///     r#"create 'events', 'd', SPLITS => ["\x04", "\x08", "\x0C"]"#,
/// );
/// ```
#[cfg(feature = "alloc")]
pub fn create_statement(table: &str, families: &[&str], splits: &[Vec<u8>]) -> String {
    let mut out = String::from("create ");
    out.push_str(&shell_name(table));
    for family in families {
        out.push_str(", ");
        out.push_str(&shell_name(family));
    }
    if !splits.is_empty() {
        out.push_str(", SPLITS => [");
        for (i, split) in splits.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&shell_string(split));
        }
        out.push(']');
    }
    out
}

/// An HBase shell `scan` of the rows from `start` (inclusive) to `stop` (exclusive); an empty
/// `start` or `stop` leaves that end open.
///
/// ```
/// use rowkey::hbase::scan_command;
/// assert_eq!(
///     scan_command("events", &[0x02], &[0x03]),
///     r#"scan 'events', {STARTROW => "\x02", STOPROW => "\x03"}"#
/// );
/// assert_eq!(scan_command("events", b"", b""), "scan 'events'");
/// ```
#[cfg(feature = "alloc")]
pub fn scan_command(table: &str, start: &[u8], stop: &[u8]) -> String {
    let mut out = String::from("scan ");
    out.push_str(&shell_name(table));
    let mut options = Vec::new();
    if !start.is_empty() {
        options.push(alloc::format!("STARTROW => {}", shell_string(start)));
    }
    if !stop.is_empty() {
        options.push(alloc::format!("STOPROW => {}", shell_string(stop)));
    }
    if !options.is_empty() {
        out.push_str(", {");
        out.push_str(&options.join(", "));
        out.push('}');
    }
    out
}
