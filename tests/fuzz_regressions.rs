//! Inputs the fuzz targets (`fuzz/`, run by `.ci/fuzz`) found, replayed as plain tests.
//!
//! Each was a library bug when the fuzzer found it, and is fixed; the test keeps it fixed.

use rowkey::{KeyRange, RowKey};

#[derive(RowKey, Debug)]
struct Hashed {
    #[rowkey(hash_prefix(len = 2))]
    id: u16,
    seq: u8,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "|")]
struct TextHashed {
    #[rowkey(hash_prefix(len = 4))]
    dev: String,
    seq: u8,
}

/// Found by the `scan` target from the one-byte input `0A`. With no field bound, a hash-prefixed
/// plan is the prefix of the hash of nothing (md5 of no bytes: `D4 1D`, text `d41d|`) and says it
/// is exact: it loses every other row, while `matches()` accepts them.
#[test]
fn hash_prefixed_scan_with_nothing_bound_covers_the_whole_table() {
    let key = Hashed { id: 7, seq: 1 }.to_vec().unwrap();
    let plan = Hashed::scan();
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert!(plan.matches(&key));
    assert!(
        ranges.iter().any(|r| r.contains(&key)),
        "{key:02X?} matches but is in none of {ranges:?}"
    );

    let key = TextHashed {
        dev: "x".into(),
        seq: 1,
    }
    .to_vec()
    .unwrap();
    let plan = TextHashed::scan();
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert!(plan.matches(&key));
    assert!(
        ranges.iter().any(|r| r.contains(&key)),
        "{:?} matches but is in none of {ranges:?}",
        String::from_utf8_lossy(&key)
    );
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct TextSalted {
    #[rowkey(salt(buckets = 10))]
    user: u32,
    region: String,
}

/// Found by the `scan` target. On a salted text layout, `matches()` checks that a key starts with
/// salt digits of a bucket but not that the delimiter follows them, so it accepts `09\xFF`, which
/// no range of the plan holds (and which is no key of the layout).
#[test]
fn text_salt_without_its_delimiter_does_not_match() {
    let key = b"09\xFF";
    assert!(TextSalted::decode(key).is_err());
    let plan = TextSalted::scan();
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert!(
        !plan.matches(key) || ranges.iter().any(|r| r.contains(key)),
        "matches() accepts {key:02X?}, outside {ranges:?}"
    );
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = "::")]
struct TwoColons {
    a: String,
    b: String,
    c: String,
}

/// Found by the `scan` target (`{ a: "#:", b: 0, c: "" }` with the delimiter `::` did not decode,
/// and `a_prefix(":")` matched `a: ""`). With a delimiter of several characters, a segment that
/// ends with the delimiter's first characters is not rejected: `"x:"` then `"::"` reads as `"x"`
/// then `"::"`, so two values share one key (a scan for one returns the other) or a key does not
/// decode. A prefix that ends that way matches the start of the delimiter after a shorter segment.
#[test]
fn a_segment_ending_in_part_of_the_delimiter_is_rejected_or_round_trips() {
    let one = TwoColons {
        a: "x:".into(),
        b: "y".into(),
        c: "z".into(),
    };
    let other = TwoColons {
        a: "x".into(),
        b: ":y".into(),
        c: "z".into(),
    };
    if let (Ok(k1), Ok(k2)) = (one.to_vec(), other.to_vec()) {
        assert_ne!(
            k1,
            k2,
            "two values, one key: {:?}",
            String::from_utf8_lossy(&k1)
        );
    }
    if let Ok(key) = one.to_vec() {
        assert_eq!(TwoColons::decode(&key).unwrap(), one);
    }
    let empty = TwoColons {
        a: String::new(),
        b: "y".into(),
        c: "z".into(),
    };
    assert!(
        !TwoColons::scan()
            .a_prefix(":")
            .matches(&empty.to_vec().unwrap()),
        "a_prefix(\":\") matches {empty:?}"
    );
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct Padded {
    #[rowkey(width = 3)]
    s: String,
    n: u8,
}

/// Found by the `decode` target (`d: "z:z"` in a `width = 4` segment). A padded text segment is
/// read by its width, delimiter or not, so `a:b:001` decodes as `{ s: "a:b", n: 1 }`; encoding
/// that value is `DelimiterInField`. Decoding accepts a key that no value encodes to.
#[test]
fn a_padded_text_segment_holding_the_delimiter_does_not_decode() {
    let key = b"a:b:001";
    if let Ok(v) = Padded::decode(key) {
        assert_eq!(
            v.to_vec().as_deref(),
            Ok(&key[..]),
            "{v:?} decoded from a key it does not encode to"
        );
    }
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct Segments {
    user: String,
    region: String,
    page: String,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct SaltedSegments {
    #[rowkey(salt(buckets = 4))]
    user: u32,
    region: String,
    page: String,
}

/// Found by the `scan` target (a range on the first segment of a whole-key salted text layout
/// planned `[, )`). A range on a text string segment that other segments follow is checked by
/// `matches()` (the plan is not exact), and `ranges()` then returns the whole table, dropping
/// what the fields before it are bound to: `user("bob").region_range("a".."c")` scans every row
/// instead of those under `bob:`, and a salted layout gets one range over every bucket instead of
/// one per bucket. No row is lost; whole tables are read, and per-bucket merges get one stream.
#[test]
fn a_text_filter_keeps_the_bound_fields_and_the_salt_buckets() {
    let plan = Segments::scan().user("bob").region_range("a".."c");
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert!(
        ranges.iter().all(|r| r.start().starts_with(b"bob:")
            && !r.stop().is_empty()
            && r.stop() <= &b"bob;"[..]),
        "user(\"bob\").region_range(..) plans {ranges:?}"
    );

    let plan = SaltedSegments::scan().user(5).region_range("a".."c");
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    let bucket = SaltedSegments {
        user: 5,
        region: String::new(),
        page: String::new(),
    }
    .to_vec()
    .unwrap()[..2]
        .to_vec();
    assert!(
        ranges.iter().all(|r| r.start().starts_with(&bucket)),
        "user(5).region_range(..) plans {ranges:?}, outside the bucket {:?}",
        String::from_utf8_lossy(&bucket)
    );
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = "::")]
struct ReversedBeforeTwoColons {
    b: u8,
    #[rowkey(reverse)]
    c: String,
    last: String,
}

/// Found by the `decode` target (input `/78BAAAAMZM5`, base64): a reversed segment is stored
/// backwards, so the delimiter check must look at the stored bytes. `":\0\0"` reversed is
/// `"\0\0:"`, which before `::` reads as `"\0\0"`, and the key decoded as a different value.
#[test]
fn a_reversed_segment_is_checked_against_the_delimiter_as_stored() {
    let v = ReversedBeforeTwoColons {
        b: 0,
        c: ":\0\0".into(),
        last: String::new(),
    };
    match v.to_vec() {
        Ok(key) => assert_eq!(ReversedBeforeTwoColons::decode(&key).unwrap(), v),
        Err(e) => assert_eq!(e.kind(), rowkey::EncodeErrorKind::DelimiterInField),
    }
}
