//! Keys of more fields than one tuple of the key walk holds (12): the derive hands them over in
//! chunks, and every rule of the walk (field order, text delimiters, a prefix sourced from a field
//! of a later chunk, decode's prefix check) holds across the chunks' seam. Expected bytes are
//! built here by hand, the MD5 by the md-5 crate.

use md5::{Digest, Md5};
use rowkey::{DecodeErrorKind, RowKey};

#[derive(RowKey, Debug, PartialEq, Clone)]
struct Wide {
    f0: u8,
    f1: u8,
    f2: u8,
    f3: u8,
    f4: u8,
    f5: u8,
    f6: u8,
    f7: u8,
    f8: u8,
    f9: u8,
    f10: u8,
    f11: u8,
    f12: u8,
    #[rowkey(hash_prefix(len = 4))]
    f13: u8,
    tail: String,
}

fn wide() -> Wide {
    Wide {
        f0: 0,
        f1: 1,
        f2: 2,
        f3: 3,
        f4: 4,
        f5: 5,
        f6: 6,
        f7: 7,
        f8: 8,
        f9: 9,
        f10: 10,
        f11: 11,
        f12: 12,
        f13: 13,
        tail: "end".into(),
    }
}

#[test]
fn a_key_of_fifteen_fields_is_its_fields_in_order_behind_the_md5_of_a_source_in_the_second_chunk() {
    let key = wide().to_vec().unwrap();
    let mut expected = Md5::digest([13u8])[..4].to_vec();
    expected.extend(0u8..=13);
    expected.extend_from_slice(b"end");
    assert_eq!(key, expected);
    assert_eq!(wide().encoded_len(), expected.len());
    assert_eq!(Wide::decode(&key).unwrap(), wide());
}

#[test]
fn decode_checks_the_prefix_against_a_source_in_the_second_chunk() {
    let mut key = wide().to_vec().unwrap();
    key[4 + 13] = 14; // f13, the hash's source
    let err = Wide::decode(&key).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::WrongHashPrefix);
    assert_eq!(err.key(), "Wide");
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct WideText {
    a0: u8,
    a1: u8,
    a2: u8,
    a3: u8,
    a4: u8,
    a5: u8,
    a6: u8,
    a7: u8,
    a8: u8,
    a9: u8,
    a10: u8,
    a11: u8,
    a12: u8,
    a13: u8,
}

#[test]
fn a_text_key_of_fourteen_fields_has_a_delimiter_between_every_two_across_the_seam() {
    let k = WideText {
        a0: 0,
        a1: 1,
        a2: 2,
        a3: 3,
        a4: 4,
        a5: 5,
        a6: 6,
        a7: 7,
        a8: 8,
        a9: 9,
        a10: 10,
        a11: 11,
        a12: 12,
        a13: 13,
    };
    let expected = (0..14)
        .map(|i| format!("{i:03}"))
        .collect::<Vec<_>>()
        .join(":");
    let key = k.to_vec().unwrap();
    assert_eq!(String::from_utf8(key.clone()).unwrap(), expected);
    assert_eq!(WideText::decode(&key).unwrap(), k);
    // The twelfth delimiter (between a11 and a12, where the second chunk starts) is checked on
    // decode.
    let mut broken = key.clone();
    broken[12 * 4 - 1] = b'-';
    assert!(WideText::decode(&broken).is_err());
}

/// The most fields a key may have (one more does not compile: tests-ui).
#[derive(RowKey, Debug, PartialEq)]
struct Widest {
    g0: u8,
    g1: u8,
    g2: u8,
    g3: u8,
    g4: u8,
    g5: u8,
    g6: u8,
    g7: u8,
    g8: u8,
    g9: u8,
    g10: u8,
    g11: u8,
    g12: u8,
    g13: u8,
    g14: u8,
    g15: u8,
    g16: u8,
    g17: u8,
    g18: u8,
    g19: u8,
    g20: u8,
    g21: u8,
    g22: u8,
    g23: u8,
    g24: u8,
    g25: u8,
    g26: u8,
    g27: u8,
    g28: u8,
    g29: u8,
    g30: u8,
    g31: u8,
    g32: u8,
    g33: u8,
    g34: u8,
    g35: u8,
    g36: u8,
    g37: u8,
    g38: u8,
    g39: u8,
    g40: u8,
    g41: u8,
    g42: u8,
    g43: u8,
    g44: u8,
    g45: u8,
    g46: u8,
    g47: u8,
    g48: u8,
    g49: u8,
    g50: u8,
    g51: u8,
    g52: u8,
    g53: u8,
    g54: u8,
    g55: u8,
    g56: u8,
    g57: u8,
    g58: u8,
    g59: u8,
    g60: u8,
    g61: u8,
    g62: u8,
    g63: u8,
    g64: u8,
    g65: u8,
    g66: u8,
    g67: u8,
    g68: u8,
    g69: u8,
    g70: u8,
    g71: u8,
    g72: u8,
    g73: u8,
    g74: u8,
    g75: u8,
    g76: u8,
    g77: u8,
    g78: u8,
    g79: u8,
    g80: u8,
    g81: u8,
    g82: u8,
    g83: u8,
    g84: u8,
    g85: u8,
    g86: u8,
    g87: u8,
    g88: u8,
    g89: u8,
    g90: u8,
    g91: u8,
    g92: u8,
    g93: u8,
    g94: u8,
    g95: u8,
    g96: u8,
    g97: u8,
    g98: u8,
    g99: u8,
    g100: u8,
    g101: u8,
    g102: u8,
    g103: u8,
    g104: u8,
    g105: u8,
    g106: u8,
    g107: u8,
    g108: u8,
    g109: u8,
    g110: u8,
    g111: u8,
    g112: u8,
    g113: u8,
    g114: u8,
    g115: u8,
    g116: u8,
    g117: u8,
    g118: u8,
    g119: u8,
    g120: u8,
    g121: u8,
    g122: u8,
    g123: u8,
    g124: u8,
    g125: u8,
    g126: u8,
    g127: u8,
}

fn widest() -> Widest {
    Widest {
        g0: 0,
        g1: 1,
        g2: 2,
        g3: 3,
        g4: 4,
        g5: 5,
        g6: 6,
        g7: 7,
        g8: 8,
        g9: 9,
        g10: 10,
        g11: 11,
        g12: 12,
        g13: 13,
        g14: 14,
        g15: 15,
        g16: 16,
        g17: 17,
        g18: 18,
        g19: 19,
        g20: 20,
        g21: 21,
        g22: 22,
        g23: 23,
        g24: 24,
        g25: 25,
        g26: 26,
        g27: 27,
        g28: 28,
        g29: 29,
        g30: 30,
        g31: 31,
        g32: 32,
        g33: 33,
        g34: 34,
        g35: 35,
        g36: 36,
        g37: 37,
        g38: 38,
        g39: 39,
        g40: 40,
        g41: 41,
        g42: 42,
        g43: 43,
        g44: 44,
        g45: 45,
        g46: 46,
        g47: 47,
        g48: 48,
        g49: 49,
        g50: 50,
        g51: 51,
        g52: 52,
        g53: 53,
        g54: 54,
        g55: 55,
        g56: 56,
        g57: 57,
        g58: 58,
        g59: 59,
        g60: 60,
        g61: 61,
        g62: 62,
        g63: 63,
        g64: 64,
        g65: 65,
        g66: 66,
        g67: 67,
        g68: 68,
        g69: 69,
        g70: 70,
        g71: 71,
        g72: 72,
        g73: 73,
        g74: 74,
        g75: 75,
        g76: 76,
        g77: 77,
        g78: 78,
        g79: 79,
        g80: 80,
        g81: 81,
        g82: 82,
        g83: 83,
        g84: 84,
        g85: 85,
        g86: 86,
        g87: 87,
        g88: 88,
        g89: 89,
        g90: 90,
        g91: 91,
        g92: 92,
        g93: 93,
        g94: 94,
        g95: 95,
        g96: 96,
        g97: 97,
        g98: 98,
        g99: 99,
        g100: 100,
        g101: 101,
        g102: 102,
        g103: 103,
        g104: 104,
        g105: 105,
        g106: 106,
        g107: 107,
        g108: 108,
        g109: 109,
        g110: 110,
        g111: 111,
        g112: 112,
        g113: 113,
        g114: 114,
        g115: 115,
        g116: 116,
        g117: 117,
        g118: 118,
        g119: 119,
        g120: 120,
        g121: 121,
        g122: 122,
        g123: 123,
        g124: 124,
        g125: 125,
        g126: 126,
        g127: 127,
    }
}

#[test]
fn a_key_of_128_fields_the_most_the_derive_takes_round_trips() {
    let k = widest();
    let key = k.to_vec().unwrap();
    assert_eq!(key, (0u8..128).collect::<Vec<_>>());
    assert_eq!(Widest::decode(&key).unwrap(), k);
}

/// The schema reads keys of up to 128 fields, as the derive writes them, and refuses more (a
/// lock file written by hand or by another tool) rather than plan scans over a prefix whose
/// sources it cannot all track.
#[cfg(feature = "schema")]
#[test]
fn the_schema_reads_128_fields_and_refuses_a_129th() {
    use rowkey::schema::Schema;

    let k = widest();
    let lock = rowkey::lock::render(std::slice::from_ref(&k)).unwrap();
    let schema = Schema::parse(&lock).unwrap();
    let key = k.to_vec().unwrap();
    let values = schema.decode(&key).unwrap();
    assert_eq!(values.len(), 128);
    assert_eq!(schema.encode(&values).unwrap(), key);

    // One more segment, as the lock would give it: its line after the 128th, the counts raised.
    let last = lock
        .lines()
        .find(|l| l.trim_start().starts_with("segment index=127 "))
        .unwrap();
    let extra = last
        .replace("index=127 ", "index=128 ")
        .replace("name=\"g127\"", "name=\"g128\"")
        .replace("offset=127 ", "offset=128 ");
    let longer = lock
        .replace(last, &format!("{last}\n{extra}"))
        .replace("segments=128 ", "segments=129 ")
        .replace("fixed_len=128 ", "fixed_len=129 ");
    let items: usize = longer
        .lines()
        .find_map(|l| l.strip_prefix("end items="))
        .unwrap()
        .parse()
        .unwrap();
    let longer = longer.replace(
        &format!("end items={items}"),
        &format!("end items={}", items + 1),
    );
    let err = Schema::parse(&longer).unwrap_err().to_string();
    assert!(
        err.contains("has 129 fields: a key has at most 128"),
        "{err}"
    );
}
