//! The text format (DESIGN.md section 6): keys that Java, Python and HBase shell users write by
//! hand, reproduced byte for byte. Expected keys come from the contract's examples, `md5sum` and
//! Python's `"%s:%019d" % (user, 2**63 - 1 - ts)`, never from the encoder under test.

use proptest::prelude::*;
use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey};

mod common;
use common::in_bounds;

fn text<K: RowKey>(k: &K) -> String {
    String::from_utf8(k.to_vec().expect("encode")).expect("text keys are UTF-8")
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = "-")]
struct Page {
    #[rowkey(hash_prefix(len = 6))]
    id: String,
}

#[test]
fn design_section_6_example() {
    // printf user42 | md5sum  ->  fd8689cb...
    let page = Page {
        id: "user42".into(),
    };
    assert_eq!(text(&page), "fd8689-user42");
    assert_eq!(Page::decode(b"fd8689-user42").unwrap(), page);
    assert_eq!(
        Page::decode(b"fd8680-user42").unwrap_err().kind(),
        DecodeErrorKind::WrongHashPrefix
    );
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text)]
struct Reversed {
    #[rowkey(width = 4, reverse)]
    n: u32,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Desc {
    #[rowkey(desc)]
    ts: i64,
}

#[test]
fn reversed_digits_and_long_max_value_minus_ts() {
    assert_eq!(text(&Reversed { n: 56 }), "6500");
    assert_eq!(text(&Reversed { n: 1234 }), "4321");
    assert_eq!(Reversed::decode(b"6500").unwrap().n, 56);
    assert_eq!(
        text(&Desc {
            ts: 1_700_000_000_000
        }),
        "9223370336854775807"
    );
    assert_eq!(
        Desc::decode(b"9223370336854775807").unwrap().ts,
        1_700_000_000_000
    );
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct JavaEvent {
    user: String,
    #[rowkey(desc)]
    ts: i64,
}

#[test]
fn matches_a_java_string_format_key() {
    // Java: String.format("%s:%019d", user, Long.MAX_VALUE - ts)
    let e = JavaEvent {
        user: "alice".into(),
        ts: 1_700_000_000_000,
    };
    assert_eq!(text(&e), "alice:9223370336854775807");
    assert_eq!(JavaEvent::decode(b"alice:9223370336854775807").unwrap(), e);
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = "|")]
struct Widths {
    #[rowkey(width = 8, reverse)]
    id: u64,
    #[rowkey(reverse)]
    domain: String,
    #[rowkey(width = 6)]
    code: String,
    n: u8,
    #[rowkey(width = 3, desc)]
    rank: u16,
    kind: Kind,
    tail: String,
}

#[derive(RowKey, Debug, PartialEq, Clone, Copy, PartialOrd)]
enum Kind {
    Low = 1,
    High = 200,
}

#[test]
fn every_text_segment() {
    let w = Widths {
        id: 1234,
        domain: "www.example.com".into(),
        code: "ab".into(),
        n: 7,
        rank: 1,
        kind: Kind::High,
        tail: "x|y".into(),
    };
    // The last segment may contain the delimiter: nothing follows it.
    assert_eq!(text(&w), "43210000|moc.elpmaxe.www|ab    |007|998|200|x|y");
    assert_eq!(Widths::decode(text(&w).as_bytes()).unwrap(), w);
    assert_eq!(<Widths as RowKey>::FIXED_LEN, None);
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Salted {
    #[rowkey(salt(buckets = 16))]
    user: u32,
    name: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct TwoSources {
    #[rowkey(salt(buckets = 8))]
    user: u32,
    #[rowkey(salt(buckets = 8))]
    region: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct ModSalted {
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    user: u32,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct UpperHash {
    #[rowkey(hash_prefix(len = 8, upper))]
    user: String,
    n: u8,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":", salt(buckets = 10))]
struct WholeKey {
    user: String,
    #[rowkey(desc)]
    ts: i64,
}

#[test]
fn text_prefixes() {
    // md5("0000000042") as a big-endian u32 is 11 mod 16: two digits, the digits of 15.
    assert_eq!(
        text(&Salted {
            user: 42,
            name: "n".into()
        }),
        "11:0000000042:n"
    );
    // Several sources joined with the delimiter: md5("0000000042:eu") mod 8 is 5.
    assert_eq!(
        text(&TwoSources {
            user: 42,
            region: "eu".into()
        }),
        "5:0000000042:eu"
    );
    assert_eq!(text(&ModSalted { user: 42 }), "10:0000000042");
    assert_eq!(
        text(&UpperHash {
            user: "alice".into(),
            n: 1
        }),
        "6384E2B2:alice:001"
    );
    // The whole unsalted key "alice:9223370336854775807" has md5 bucket 1 of 10: one digit.
    let w = WholeKey {
        user: "alice".into(),
        ts: 1_700_000_000_000,
    };
    assert_eq!(text(&w), "1:alice:9223370336854775807");
    let salted = text(&Salted {
        user: 42,
        name: "n".into(),
    });
    assert_eq!(Salted::decode(salted.as_bytes()).unwrap().user, 42);
    assert_eq!(WholeKey::decode(b"1:alice:9223370336854775807").unwrap(), w);
    let wrong = WholeKey::decode(b"2:alice:9223370336854775807").unwrap_err();
    assert_eq!(
        wrong.kind(),
        DecodeErrorKind::WrongSalt {
            expected: 1,
            found: 2,
            text: true,
        }
    );
    // A text salt is its digits, in words too.
    assert!(
        wrong
            .to_string()
            .contains("salt 2 does not match the bucket of the key's fields, 1"),
        "{wrong}"
    );
    assert!(matches!(
        Salted::decode(b"1x:0000000042:n").unwrap_err().kind(),
        DecodeErrorKind::InvalidText(_)
    ));
}

#[test]
fn bad_values_are_refused_not_truncated() {
    let err = JavaEvent {
        user: "a".into(),
        ts: -1,
    }
    .to_vec()
    .unwrap_err();
    assert_eq!((err.kind(), err.field()), (EncodeErrorKind::Negative, "ts"));
    let err = JavaEvent {
        user: "a:b".into(),
        ts: 1,
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(
        (err.kind(), err.field()),
        (EncodeErrorKind::DelimiterInField, "user")
    );
    let err = Reversed { n: 10_000 }.to_vec().unwrap_err();
    assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 4 });
    let mut w = Widths {
        id: 1,
        domain: "d".into(),
        code: "toolong".into(),
        n: 1,
        rank: 1,
        kind: Kind::Low,
        tail: String::new(),
    };
    assert_eq!(
        w.to_vec().unwrap_err().kind(),
        EncodeErrorKind::TooWide { width: 6 }
    );
    w.code = "a ".into();
    assert_eq!(w.to_vec().unwrap_err().kind(), EncodeErrorKind::EndsWithPad);
    w.rank = 1000;
    w.code = "a".into();
    assert_eq!(
        w.to_vec().unwrap_err().kind(),
        EncodeErrorKind::TooWide { width: 3 }
    );
}

#[test]
fn malformed_text_is_refused_on_decode() {
    let kind = |bytes: &[u8]| JavaEvent::decode(bytes).unwrap_err().kind();
    assert!(matches!(
        kind(b"alice:92233703368547758x7"),
        DecodeErrorKind::InvalidText(_)
    ));
    assert!(matches!(kind(b"alice"), DecodeErrorKind::InvalidText(_)));
    assert!(matches!(
        kind(b"alice;9223370336854775807"),
        DecodeErrorKind::InvalidText(_)
    ));
    assert!(matches!(
        kind(b"alice:922337033685477580"),
        DecodeErrorKind::Truncated { .. }
    ));
    assert!(matches!(
        kind(b"alice:92233703368547758070"),
        DecodeErrorKind::TrailingBytes { count: 1 }
    ));
    assert!(matches!(
        kind(b"\xFFlice:9223370336854775807"),
        DecodeErrorKind::InvalidUtf8
    ));
    // Digits beyond what the type holds: "99999..." as u8 with 3 digits.
    assert!(matches!(
        Widths::decode(b"43210000|d|a     |999|998|200|")
            .unwrap_err()
            .kind(),
        DecodeErrorKind::InvalidText(_)
    ));
    assert!(matches!(
        Widths::decode(b"43210000|d|a     |001|998|003|")
            .unwrap_err()
            .kind(),
        DecodeErrorKind::UnknownDiscriminant { value: 3, .. }
    ));
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct JavaSalted {
    #[rowkey(salt(buckets = 16, hash = "java"))]
    user: u32,
}

/// Java: `u = String.format("%010d", user); String.format("%02d:%s", Math.abs(Arrays.hashCode(u.getBytes()) % 16), u)`.
fn java_salted_key(user: u32) -> String {
    let u = format!("{user:010}");
    let mut h: i32 = 1;
    for b in u.bytes() {
        h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
    }
    format!("{:02}:{u}", (h % 16).abs())
}

#[test]
fn java_salted_text_keys_match_the_java_expression() {
    for user in [0, 1, 42, 99_999, 4_000_000_000] {
        assert_eq!(
            text(&JavaSalted { user }),
            java_salted_key(user),
            "user {user}"
        );
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = "/")]
struct HashedText {
    #[rowkey(hash_prefix(len = 32, upper))]
    id: u64,
    #[rowkey(hash_prefix(len = 32, upper))]
    name: String,
    #[rowkey(width = 3)]
    tag: String,
}

// ---------------------------------------------------------------- properties

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Ordered {
    a: u16,
    #[rowkey(desc)]
    b: i32,
    #[rowkey(width = 5, desc)]
    c: u32,
    #[rowkey(width = 4)]
    d: String,
    kind: Kind,
    last: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = "#", salt(buckets = 7, hash = "java"))]
struct RoundTrip {
    #[rowkey(reverse)]
    a: u64,
    #[rowkey(reverse)]
    s: String,
    #[rowkey(width = 6, reverse)]
    w: String,
    last: String,
}

fn letters(max: usize) -> impl Strategy<Value = String> + Clone {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'z', 'é']), 0..=max)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Zero-padded numbers (ascending and desc), padded strings of letters and a last string keep
    /// the order of their values.
    #[test]
    fn ordered_text_layouts_round_trip_and_sort(
        x in (0u16..3, 0i32..3, prop_oneof![0u32..3, Just(99_999)], letters(2), prop::sample::select(vec![Kind::Low, Kind::High]), letters(3)),
        y in (0u16..3, 0i32..3, prop_oneof![0u32..3, Just(99_999)], letters(2), prop::sample::select(vec![Kind::Low, Kind::High]), letters(3)),
    ) {
        let make = |(a, b, c, d, kind, last): (u16, i32, u32, String, Kind, String)| Ordered { a, b, c, d, kind, last };
        let (x, y) = (make(x), make(y));
        let (kx, ky) = (x.to_vec().unwrap(), y.to_vec().unwrap());
        prop_assert_eq!(Ordered::decode(&kx).unwrap(), x.clone());
        let model = x.a.cmp(&y.a)
            .then(y.b.cmp(&x.b))
            .then(y.c.cmp(&x.c))
            .then(x.d.cmp(&y.d))
            .then((x.kind as u8).cmp(&(y.kind as u8)))
            .then(x.last.cmp(&y.last));
        prop_assert_eq!(kx.cmp(&ky), model);
    }

    #[test]
    fn hashed_text_layouts_round_trip(id in any::<u64>(), name in "[a-z:é]{0,6}", tag in "[a-z]{0,3}") {
        let k = HashedText { id, name, tag };
        let bytes = k.to_vec().unwrap();
        prop_assert_eq!(bytes[32], b'/');
        prop_assert!(bytes[..32].iter().all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(b)));
        prop_assert_eq!(HashedText::decode(&bytes).unwrap(), k);
    }

    #[test]
    fn reversed_salted_hashed_text_layouts_round_trip(a in any::<u64>(), s in "[a-z.é]{0,8}", w in "[a-z]{0,6}", last in "[a-z#:]{0,6}") {
        let k = RoundTrip { a, s, w, last };
        let bytes = k.to_vec().unwrap();
        prop_assert!(std::str::from_utf8(&bytes).is_ok());
        prop_assert_eq!(RoundTrip::decode(&bytes).unwrap(), k);
    }
}

#[test]
fn text_split_keys_are_digits_and_hex() {
    let splits: Vec<String> = Salted::split_keys(4)
        .into_iter()
        .map(|k| String::from_utf8(k).unwrap())
        .collect();
    assert_eq!(splits, ["04", "08", "12"]);
    let splits: Vec<String> = UpperHash::split_keys(4)
        .into_iter()
        .map(|k| String::from_utf8(k).unwrap())
        .collect();
    assert_eq!(splits, ["40000000", "80000000", "C0000000"]);
    let splits: Vec<String> = Page::split_keys(2)
        .into_iter()
        .map(|k| String::from_utf8(k).unwrap())
        .collect();
    assert_eq!(splits, ["800000"]);
}

/// A text layout whose numbers have fewer digits than their type, and one signed number: range
/// bounds outside what the segments hold (negative, or more digits) clamp instead of emptying the
/// plan. Checked against the predicate over every key of a grid that includes the edges.
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Digits {
    #[rowkey(width = 2)]
    shard: u32,
    #[rowkey(desc)]
    ts: i64,
}

#[test]
fn text_range_bounds_outside_the_digits_are_clamped() {
    use std::ops::Bound::{self, Excluded, Included, Unbounded};
    let shards = [0u32, 1, 50, 98, 99];
    let tss = [0i64, 1, 77, i64::MAX - 1, i64::MAX];
    let keys: Vec<(Digits, Vec<u8>)> = shards
        .iter()
        .flat_map(|&shard| tss.iter().map(move |&ts| Digits { shard, ts }))
        .map(|d| (d, d.to_vec().unwrap()))
        .collect();
    let shard_bounds = [0u32, 1, 50, 99, 100, 12_345, u32::MAX];
    let ts_bounds = [i64::MIN, -1, 0, 1, 77, i64::MAX];
    /// Every pair of bounds made of `a` and `b`.
    fn ranges_of<T: Copy>(a: T, b: T) -> Vec<(Bound<T>, Bound<T>)> {
        let sides = |v| [Included(v), Excluded(v), Unbounded];
        sides(a)
            .into_iter()
            .flat_map(|lo| sides(b).map(move |hi| (lo, hi)))
            .collect()
    }
    for &a in &shard_bounds {
        for &b in &shard_bounds {
            for r in ranges_of(a, b) {
                let plan = Digits::scan().shard_range(r);
                for (d, k) in &keys {
                    let want = in_bounds(&d.shard, &r.0, &r.1);
                    assert_eq!(plan.matches(k), want, "shard_range({r:?}) on {d:?}");
                    let hit = plan.ranges().any(|x| x.contains(k));
                    assert_eq!(hit, want, "ranges of shard_range({r:?}) on {d:?}");
                }
            }
        }
    }
    for &a in &ts_bounds {
        for &b in &ts_bounds {
            for r in ranges_of(a, b) {
                let plan = Digits::scan().shard(50).ts_range(r);
                for (d, k) in &keys {
                    let want = d.shard == 50 && in_bounds(&d.ts, &r.0, &r.1);
                    assert_eq!(plan.matches(k), want, "ts_range({r:?}) on {d:?}");
                    let hit = plan.ranges().any(|x| x.contains(k));
                    assert_eq!(hit, want, "ranges of ts_range({r:?}) on {d:?}");
                }
            }
        }
    }
}
