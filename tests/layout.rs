//! `K::LAYOUT` describes the prefix and every segment; its table is what another team needs to write
//! the same key. `K::explain` shows a stored key field by field.

use std::borrow::Cow;

use rowkey::{KeyFormat, Order, Prefix, RowKey};

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Kind {
    View,
    Click,
}

#[derive(RowKey, Debug)]
struct Event {
    user_id: u64,
    #[rowkey(desc)]
    ts: i64,
    kind: Kind,
    #[rowkey(width = 2)]
    shard: u32,
    host: String,
}

#[test]
fn binary_layout_names_offsets_lengths_and_orders() {
    let l = Event::LAYOUT;
    assert_eq!(l.name, "Event");
    assert_eq!(
        (l.format, l.prefix, l.fixed_len),
        (KeyFormat::Binary, Prefix::None, None)
    );
    let rows: Vec<_> = l
        .segments
        .iter()
        .map(|s| (s.name, s.ty, s.offset, s.len, s.order))
        .collect();
    assert_eq!(
        rows,
        [
            ("user_id", "u64", Some(0), Some(8), Order::Ascending),
            ("ts", "i64", Some(8), Some(8), Order::Descending),
            ("kind", "Kind", Some(16), Some(1), Order::Ascending),
            ("shard", "u32", Some(17), Some(2), Order::Ascending),
            ("host", "String", Some(19), None, Order::Ascending),
        ]
    );
    assert_eq!(l.segments[0].encoding, "big-endian, 8 bytes");
    assert_eq!(
        l.segments[1].encoding,
        "two's complement with the sign bit flipped, big-endian, 8 bytes, every byte inverted"
    );
    assert_eq!(l.segments[3].encoding, "big-endian, narrowed to 2 bytes");
    assert_eq!(l.segments[4].encoding, "raw content to the end of the key");
}

#[derive(RowKey)]
struct AfterVariable {
    name: String,
    #[rowkey(reverse)]
    id: u32,
}

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Salted {
    ts: u64,
    seq: u32,
}

#[derive(RowKey)]
struct Hashed<'a> {
    #[rowkey(hash_prefix(len = 4))]
    url: Cow<'a, str>,
    #[rowkey(hash_prefix(len = 4))]
    tag: &'a str,
}

#[test]
fn offsets_stop_after_a_variable_segment_and_prefixes_shift_them() {
    let l = AfterVariable::LAYOUT;
    assert_eq!(l.segments[1].offset, None);
    assert_eq!(
        l.segments[0].encoding,
        "content with 00 escaped as 00 FF, then 00 01"
    );
    assert_eq!(l.segments[1].order, Order::Reversed);
    let l = Salted::LAYOUT;
    assert_eq!(l.fixed_len, Some(13));
    assert_eq!(
        (l.segments[0].offset, l.segments[1].offset),
        (Some(1), Some(9))
    );
    assert_eq!(l.prefix_sources, ["ts", "seq"]);
    let l = Hashed::LAYOUT;
    assert_eq!(l.prefix_sources, ["url", "tag"]);
    assert_eq!(l.segments[0].offset, Some(4));
    assert_eq!(
        (l.segments[0].ty, l.segments[1].ty),
        ("Cow<'a, str>", "&'a str")
    );
}

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct Text {
    #[rowkey(salt(buckets = 16, hash = "java"))]
    user: u32,
    #[rowkey(desc)]
    ts: i64,
    page: String,
}

#[test]
fn text_layout_counts_digits_and_delimiters() {
    let l = Text::LAYOUT;
    assert_eq!(l.format, KeyFormat::Text(":"));
    // "07:" then 10 digits, ":", 19 digits, ":".
    assert_eq!(
        l.segments.iter().map(|s| s.offset).collect::<Vec<_>>(),
        [Some(3), Some(14), Some(34)]
    );
    assert_eq!(
        l.segments[1].encoding,
        "decimal MAX - v, zero-padded to 19 digits"
    );
    let table = l.to_string();
    assert!(
        table.starts_with("`Text` row key (text, segments joined by \":\", variable length)"),
        "{table}"
    );
    assert!(table.contains("| prefix | salt | bucket | 0 | 2 | decimal digits: abs(Arrays.hashCode(src) % N) (Phoenix, OpenTSDB), N = 16, src = user | - |"), "{table}");
    assert!(
        table.contains(
            "| 1 | ts | `i64` | 14 | 19 | decimal MAX - v, zero-padded to 19 digits | desc |"
        ),
        "{table}"
    );
    assert!(
        table
            .contains("| 2 | page | `String` | 34 | variable | text to the end of the key | asc |"),
        "{table}"
    );
}

#[test]
fn explain_shows_each_segment_beside_its_value() {
    let e = Event {
        user_id: 42,
        ts: 7,
        kind: Kind::Click,
        shard: 3,
        host: "web-1".into(),
    };
    let key = e.to_vec().unwrap();
    let explained = Event::explain(&key).unwrap();
    let rows: Vec<_> = explained
        .rows
        .iter()
        .map(|r| (r.segment, r.bytes.as_str(), r.value.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            ("user_id", r"\x00\x00\x00\x00\x00\x00\x00*", "42"),
            ("ts", r"\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xF8", "7"),
            ("kind", r"\x01", "Click"),
            ("shard", r"\x00\x03", "3"),
            ("host", "web-1", "\"web-1\""),
        ]
    );
    let text = explained.to_string();
    assert!(text.starts_with("`Event` row key \\x00"), "{text}");
    let t = Text {
        user: 42,
        ts: 1_700_000_000_000,
        page: "p".into(),
    };
    let explained = Text::explain(&t.to_vec().unwrap()).unwrap();
    assert_eq!(explained.rows[0].segment, "salt");
    assert!(
        explained.rows[0].value.starts_with("bucket "),
        "{explained}"
    );
    assert_eq!(explained.rows[2].bytes, "9223370336854775807");
    assert!(Event::explain(b"short").is_err());
}

#[derive(RowKey, Debug)]
#[rowkey(tag = 7)]
struct TaggedHash {
    #[rowkey(hash_prefix(len = 2))]
    user: u16,
    page: String,
}

/// `(segment, bytes, value)` of each row.
fn rows_of(explained: &rowkey::Explained) -> Vec<(&str, &str, &str)> {
    explained
        .rows
        .iter()
        .map(|r| (r.segment, r.bytes.as_str(), r.value.as_str()))
        .collect()
}

#[test]
fn explain_best_effort_shows_what_a_key_that_does_not_decode_still_tells() {
    use rowkey::DecodeErrorKind;

    // A key that decodes: the same as `explain`, with no error.
    let good = Text {
        user: 42,
        ts: 7,
        page: "p".into(),
    }
    .to_vec()
    .unwrap();
    assert_eq!(
        Text::explain_best_effort(&good),
        Text::explain(&good).unwrap()
    );
    assert_eq!(Text::explain_best_effort(&good).error, None);

    // The wrong salt bucket (another writer's salt function): every field, the salt as found.
    let mut wrong_salt = good.clone();
    let bucket = std::str::from_utf8(&good[..2])
        .unwrap()
        .parse::<u8>()
        .unwrap();
    let other = (bucket + 1) % 16;
    wrong_salt[..2].copy_from_slice(format!("{other:02}").as_bytes());
    assert!(Text::explain(&wrong_salt).is_err());
    let shown = Text::explain_best_effort(&wrong_salt);
    let rows = rows_of(&shown);
    assert_eq!(rows[0].2, format!("bucket {other} of 16"));
    assert_eq!(
        rows[1..].iter().map(|r| r.2).collect::<Vec<_>>(),
        ["42", "7", r#""p""#]
    );
    assert_eq!(
        shown.error.as_ref().unwrap().kind(),
        DecodeErrorKind::WrongSalt {
            expected: bucket,
            found: other,
            text: true,
        }
    );
    assert!(
        shown
            .to_string()
            .lines()
            .last()
            .unwrap()
            .contains("not a valid key"),
        "{shown}"
    );

    // A corrupted hash prefix: every field too, behind the tag.
    let mut key = TaggedHash {
        user: 9,
        page: "home".into(),
    }
    .to_vec()
    .unwrap();
    key[1] ^= 0xFF;
    assert!(TaggedHash::explain(&key).is_err());
    let shown = TaggedHash::explain_best_effort(&key);
    let rows = rows_of(&shown);
    assert_eq!(
        rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        ["tag", "hash", "user", "page"]
    );
    assert_eq!((rows[2].2, rows[3].2), ("9", r#""home""#));
    assert_eq!(
        shown.error.as_ref().unwrap().kind(),
        DecodeErrorKind::WrongHashPrefix
    );

    // A truncated key: the tag and prefix its layout places, the rest undecoded.
    let shown = TaggedHash::explain_best_effort(&key[..4]);
    assert_eq!(
        rows_of(&shown),
        [
            ("tag", r"\x07", r"\x07"),
            (
                "hash",
                &*rowkey::hbase::to_string_binary(&key[1..3]),
                rows[1].2
            ),
            ("rest", r"\x00", "(not decoded)"),
        ]
    );
    assert!(matches!(
        shown.error.as_ref().unwrap().kind(),
        DecodeErrorKind::Truncated { .. }
    ));

    // A key of another type (its tag is not this one's): nothing but the bytes and the error.
    let shown = TaggedHash::explain_best_effort(b"\x08zz");
    assert_eq!(rows_of(&shown), [("rest", r"\x08zz", "(not decoded)")]);
    assert_eq!(
        shown.error.as_ref().unwrap().kind(),
        DecodeErrorKind::UnknownTag { name: "TaggedHash" }
    );
}

/// A field type without Debug is shown as a placeholder, not refused.
#[derive(RowKey)]
struct Opaque {
    id: NoDebug,
}

#[derive(RowKey, Clone, Copy)]
enum NoDebug {
    A,
}

#[test]
fn explain_works_without_debug() {
    let key = Opaque { id: NoDebug::A }.to_vec().unwrap();
    assert_eq!(Opaque::explain(&key).unwrap().rows[0].value, "(no Debug)");
}

/// A type alias and a nested key: syntax alone cannot tell what they are.
type Millis = i64;

#[derive(RowKey, Debug)]
struct Inner {
    a: u8,
    b: String,
}

#[derive(RowKey, Debug)]
struct Described {
    ts: Millis,
    #[rowkey(desc)]
    kind: Kind,
    inner: Inner,
    maybe: Option<Millis>,
    #[rowkey(width = 3)]
    narrow: Option<u32>,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct DescribedText {
    #[rowkey(desc)]
    ts: Millis,
    kind: Kind,
    name: String,
}

#[test]
fn segments_are_described_from_what_the_runtime_knows_of_their_types() {
    let encodings: Vec<String> = Described::LAYOUT
        .segments
        .iter()
        .map(|s| s.encoding.to_string())
        .collect();
    assert_eq!(
        encodings,
        [
            "two's complement with the sign bit flipped, big-endian, 8 bytes",
            "the enum's discriminant, one byte, every byte inverted",
            "a nested key: its fields in place",
            "00 for None, or 01 then two's complement with the sign bit flipped, big-endian, 8 bytes",
            "00 for None, or 01 then big-endian, narrowed to 3 bytes",
        ]
    );
    let text: Vec<String> = DescribedText::LAYOUT
        .segments
        .iter()
        .map(|s| s.encoding.to_string())
        .collect();
    assert_eq!(
        text,
        [
            "decimal MAX - v, zero-padded to 19 digits",
            "the enum's discriminant, 3 digits",
            "text to the end of the key",
        ]
    );
}

#[derive(RowKey, Debug)]
#[rowkey(tag = 7)]
enum Row {
    User { id: u8 },
    Nested { inner: Inner, maybe: Option<Inner> },
}

#[test]
fn nested_keys_and_enum_variants_are_described_in_full() {
    // A nested struct, an Option of one, and a fieldless enum each carry their own layout.
    let segments = Described::LAYOUT.segments;
    assert_eq!(segments[2].nested, Some(&Inner::LAYOUT));
    let inner: Vec<&str> = Inner::LAYOUT.segments.iter().map(|s| s.name).collect();
    assert_eq!(inner, ["a", "b"]);
    assert_eq!(segments[1].nested, Some(&Kind::LAYOUT));
    assert_eq!(segments[0].nested, None); // an i64
    assert_eq!(segments[3].nested, None); // an Option<i64>
                                          // A fieldless enum: each variant behind its discriminant byte.
    let kinds: Vec<(&str, &[u8])> = Kind::LAYOUT
        .variants
        .iter()
        .map(|v| (v.name, v.tag.bytes()))
        .collect();
    assert_eq!(
        kinds,
        [("Kind::View", &[0u8][..]), ("Kind::Click", &[1u8][..])]
    );
    // An enum key with data: each variant's tag and fields, nested keys included.
    let row = Row::LAYOUT;
    assert!(row.segments.is_empty());
    assert_eq!(row.variants.len(), 2);
    assert_eq!(row.variants[0].name, "Row::User");
    let nested = row.variants[1].segments;
    assert_eq!(nested[0].nested, Some(&Inner::LAYOUT));
    assert_eq!(nested[1].nested, Some(&Inner::LAYOUT)); // through the Option
                                                        // Generic code reaches the same layout through the trait.
    fn layout_of<K: RowKey>() -> rowkey::Layout {
        K::LAYOUT
    }
    assert_eq!(layout_of::<Row>(), Row::LAYOUT);
    assert_eq!(layout_of::<Described>(), Described::LAYOUT);
    assert!(Row::LAYOUT.to_string().contains("one of 2 variants"));
}

#[derive(RowKey)]
struct BinaryHashed {
    #[rowkey(hash_prefix(len = 2))]
    user: u64,
}

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct TextHashed {
    #[rowkey(hash_prefix(len = 2))]
    user: u64,
}

#[derive(RowKey)]
struct BinarySalted {
    #[rowkey(salt(buckets = 16, hash = "java"))]
    user: u32,
}

#[test]
fn a_prefix_row_says_how_the_keys_format_writes_the_prefix() {
    let cases = [
        (
            BinaryHashed::LAYOUT.to_string(),
            "| prefix | hash | md5 | 0 | 2 | the first bytes of md5(src), src = user | - |",
        ),
        (
            TextHashed::LAYOUT.to_string(),
            "| prefix | hash | md5 | 0 | 2 | hex digits of md5(src), src = user | - |",
        ),
        (
            BinarySalted::LAYOUT.to_string(),
            "| prefix | salt | bucket | 0 | 1 | one byte: abs(Arrays.hashCode(src) % N) (Phoenix, OpenTSDB), N = 16, src = user | - |",
        ),
        (
            Text::LAYOUT.to_string(),
            "| prefix | salt | bucket | 0 | 2 | decimal digits: abs(Arrays.hashCode(src) % N) (Phoenix, OpenTSDB), N = 16, src = user | - |",
        ),
    ];
    for (table, row) in cases {
        assert!(table.contains(row), "{row}\nnot in\n{table}");
    }
}
