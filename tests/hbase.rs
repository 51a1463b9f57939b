//! The HBase helpers: `to_string_binary` matches `Bytes.toStringBinary` byte for byte, and
//! `from_string_binary` inverts it.

use proptest::prelude::*;
use rowkey::hbase::{from_string_binary, to_string_binary, MAX_ROW_LENGTH};

/// `Bytes.toStringBinary` as HBase writes it: `if (ch >= ' ' && ch <= '~' && ch != '\\')` append the
/// character, else `String.format("\\x%02X", ch)`.
fn java_to_string_binary(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if (b' '..=b'~').contains(&b) && b != b'\\' {
                (b as char).to_string()
            } else {
                format!("\\x{b:02X}")
            }
        })
        .collect()
}

#[test]
fn every_byte_renders_as_hbase_does() {
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(to_string_binary(&all), java_to_string_binary(&all));
    assert_eq!(to_string_binary(b"row-1\x00\xff\\"), "row-1\\x00\\xFF\\x5C");
    assert_eq!(to_string_binary(b""), "");
}

#[test]
fn malformed_escapes_are_kept_not_dropped() {
    assert_eq!(from_string_binary("\\xZZ\\x4"), b"\\xZZ\\x4");
    assert_eq!(from_string_binary("\\x4a\\x4A"), b"JJ");
    assert_eq!(from_string_binary("é"), "é".as_bytes());
}

#[test]
fn max_row_length_is_hbase_short_max() {
    assert_eq!(MAX_ROW_LENGTH, i16::MAX as usize);
}

proptest! {
    #[test]
    fn string_binary_round_trips(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let text = to_string_binary(&bytes);
        prop_assert_eq!(&text, &java_to_string_binary(&bytes));
        prop_assert_eq!(from_string_binary(&text), bytes);
    }
}
