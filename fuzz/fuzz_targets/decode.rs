//! Decoding and encoding every layout kind: binary integers (every width, `desc`, narrowed,
//! reversed), floats, bools, chars, enums, arrays; escaped strings and bytes inside a key and raw
//! ones at its end, `desc` and padded ones; `Option`s and nested keys; field salts (md5, java,
//! mod), whole-key salts and hash prefixes; text layouts with and without a delimiter, with salts,
//! hash prefixes and `desc` numbers; `Hashed` digests, binary and text; `rust_decimal::Decimal`; `SystemTime` at every unit and chrono's types; Phoenix's primary keys.
//!
//! The first input byte chooses the mode:
//! - even: the rest of the input is decoded as every layout. Nothing may panic, and an accepted
//!   key must encode back to exactly the same bytes (every value has one key);
//! - odd: the rest is a program that draws a value of one layout. Encoding it must not panic and
//!   must agree with itself (`encoded_len`, `encode_into`, `to_vec`, `FIXED_LEN`, `MAX_LEN`); its
//!   key must decode back to the value, and keys mutated from it are decoded as above. This mode
//!   reaches past salt and hash checks that random bytes almost never pass.
#![no_main]

use std::borrow::Cow;
use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use rowkey::{DecodeKey, RowKey};
use rowkey_fuzz::{mutate, pick_struct, Gen, Pick};

// ---------------------------------------------------------------- binary, fixed width

#[derive(RowKey, Debug, Clone, Copy)]
enum Kind {
    A,
    B = 5,
    C = 255,
}

impl Pick for Kind {
    fn pick(g: &mut Gen<'_>) -> Self {
        g.pick(&[Kind::A, Kind::B, Kind::C])
    }
}

/// Every integer type, ascending and `desc`.
#[derive(RowKey, Debug)]
struct Ints {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: i8,
    g: i16,
    h: i32,
    i: i64,
    j: i128,
    #[rowkey(desc)]
    k: u32,
    #[rowkey(desc)]
    l: i64,
    #[rowkey(desc)]
    m: i128,
    #[rowkey(desc)]
    n: u8,
}

/// Narrowed and reversed integers and floats.
#[derive(RowKey, Debug)]
struct Narrow {
    #[rowkey(width = 3)]
    a: u32,
    #[rowkey(width = 1)]
    b: u64,
    #[rowkey(width = 3, desc)]
    c: i32,
    #[rowkey(width = 2, reverse)]
    d: u16,
    #[rowkey(reverse)]
    e: i64,
    #[rowkey(width = 9, reverse)]
    f: u128,
    #[rowkey(reverse)]
    g: f64,
    #[rowkey(width = 5)]
    h: i64,
}

/// Floats, bools, chars, enums and arrays, ascending and `desc`.
#[derive(RowKey, Debug)]
struct Scalars {
    a: f32,
    #[rowkey(desc)]
    b: f64,
    c: f64,
    #[rowkey(desc)]
    d: f32,
    e: bool,
    #[rowkey(desc)]
    f: bool,
    g: char,
    #[rowkey(desc)]
    h: char,
    i: Kind,
    #[rowkey(desc)]
    j: Kind,
    k: [u8; 3],
    #[rowkey(desc)]
    l: [u8; 2],
}

// ---------------------------------------------------------------- binary, strings and bytes

/// Strings and bytes inside a key: escaped, `desc`, padded, reversed; borrowed where decoding
/// can borrow.
#[derive(RowKey, Debug)]
struct Strings<'a> {
    a: String,
    b: Vec<u8>,
    c: Cow<'a, str>,
    d: Cow<'a, [u8]>,
    #[rowkey(desc)]
    e: String,
    #[rowkey(desc)]
    f: Vec<u8>,
    #[rowkey(width = 4)]
    g: String,
    #[rowkey(width = 3)]
    h: Vec<u8>,
    #[rowkey(width = 3, desc)]
    i: String,
    #[rowkey(width = 5)]
    j: &'a str,
    #[rowkey(width = 2)]
    k: &'a [u8],
    #[rowkey(reverse)]
    l: String,
    #[rowkey(reverse)]
    m: Vec<u8>,
    #[rowkey(width = 4, reverse)]
    n: String,
    #[rowkey(desc)]
    o: Cow<'a, str>,
    last: String,
}

/// Raw bytes to the end of the key.
#[derive(RowKey, Debug)]
struct LastBytes {
    a: u8,
    b: Vec<u8>,
}

/// A last `desc` field: escaped, terminated, inverted.
#[derive(RowKey, Debug)]
struct LastDesc {
    #[rowkey(desc)]
    s: Vec<u8>,
}

/// A last string borrowed from the key.
#[derive(RowKey, Debug)]
struct LastBorrowed<'a> {
    a: u16,
    s: &'a str,
}

/// A last `desc` string that borrows when it can.
#[derive(RowKey, Debug)]
struct LastDescCow<'a> {
    a: i8,
    #[rowkey(desc)]
    s: Cow<'a, str>,
}

/// A last reversed string, and a last padded one.
#[derive(RowKey, Debug)]
struct LastReverse {
    #[rowkey(reverse)]
    s: String,
}

#[derive(RowKey, Debug)]
struct LastPadded<'a> {
    a: u8,
    #[rowkey(width = 6)]
    s: &'a [u8],
}

// ---------------------------------------------------------------- Option and nested keys

#[derive(RowKey, Debug)]
struct Inner {
    x: u16,
    s: String,
}

#[derive(RowKey, Debug)]
struct Point {
    x: i32,
    #[rowkey(desc)]
    y: i32,
}

#[derive(RowKey, Debug)]
struct Nested<'a> {
    a: Option<u8>,
    #[rowkey(desc)]
    b: Option<String>,
    c: Inner,
    #[rowkey(desc)]
    d: Inner,
    e: Option<Option<i8>>,
    f: Option<Inner>,
    g: Point,
    #[rowkey(desc)]
    h: Option<Point>,
    i: Option<Cow<'a, str>>,
    #[rowkey(desc)]
    j: Option<Vec<u8>>,
    last: Option<String>,
}

/// A nested key last: its own last string runs to the end of the key.
#[derive(RowKey, Debug)]
struct LastNested {
    a: u8,
    inner: Inner,
}

/// A `desc` nested key last.
#[derive(RowKey, Debug)]
struct LastNestedDesc {
    #[rowkey(desc)]
    inner: Inner,
}

// ---------------------------------------------------------------- salts and hash prefixes

#[derive(RowKey, Debug)]
struct SaltMd5 {
    #[rowkey(salt(buckets = 16))]
    user: u32,
    #[rowkey(desc)]
    ts: i64,
    name: String,
}

/// Java's hash over two sources, one a string, with a field between them.
#[derive(RowKey, Debug)]
struct SaltJava {
    #[rowkey(salt(buckets = 7, hash = "java"))]
    a: u8,
    #[rowkey(desc)]
    t: Option<u16>,
    #[rowkey(salt(buckets = 7, hash = "java"))]
    s: String,
    rest: Vec<u8>,
}

#[derive(RowKey, Debug)]
struct SaltMod {
    #[rowkey(width = 3, salt(buckets = 5, hash = "mod"))]
    id: u32,
    #[rowkey(desc)]
    name: String,
}

/// One bucket: the salt byte is always 00.
#[derive(RowKey, Debug)]
struct SaltOne {
    #[rowkey(salt(buckets = 1))]
    a: u64,
    b: u8,
}

/// 256 buckets: every salt byte is one.
#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 256))]
struct WholeMd5 {
    a: u8,
    s: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 3, hash = "java"))]
struct WholeJava {
    a: i16,
    #[rowkey(desc)]
    s: String,
    b: bool,
}

#[derive(RowKey, Debug)]
struct Hash2 {
    #[rowkey(hash_prefix(len = 2))]
    a: u8,
    #[rowkey(hash_prefix(len = 2))]
    s: String,
    c: u32,
}

#[derive(RowKey, Debug)]
struct Hash16 {
    #[rowkey(hash_prefix(len = 16))]
    id: u64,
    #[rowkey(desc)]
    ts: i64,
}

/// The hash source is the last field, after one that is not a source.
#[derive(RowKey, Debug)]
struct HashLast {
    x: u8,
    #[rowkey(hash_prefix(len = 1))]
    last: Vec<u8>,
}

// ---------------------------------------------------------------- text

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct TextDelim {
    a: u16,
    #[rowkey(desc)]
    b: i64,
    #[rowkey(width = 5, desc)]
    c: u32,
    #[rowkey(width = 4)]
    d: String,
    #[rowkey(reverse)]
    e: String,
    #[rowkey(width = 6, reverse)]
    f: u64,
    k: Kind,
    #[rowkey(width = 5, desc)]
    g: u8,
    #[rowkey(width = 2)]
    h: i32,
    last: String,
}

/// No delimiter: widths mark the segments, the last runs to the end.
#[derive(RowKey, Debug)]
#[rowkey(text)]
struct TextPlain {
    #[rowkey(width = 3)]
    a: u16,
    #[rowkey(width = 2)]
    s: String,
    #[rowkey(width = 4, desc)]
    n: u32,
    #[rowkey(desc)]
    m: u8,
    i: i8,
    tail: String,
}

/// A two-character delimiter.
#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "::")]
struct TextMulti {
    a: String,
    b: u8,
    #[rowkey(reverse)]
    c: String,
    last: String,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct TextSalt {
    #[rowkey(salt(buckets = 10))]
    user: u32,
    #[rowkey(salt(buckets = 10))]
    region: String,
    #[rowkey(desc)]
    ts: i64,
    page: String,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct TextMod {
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    user: u32,
    name: String,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "-", salt(buckets = 12, hash = "java"))]
struct TextWhole {
    user: String,
    #[rowkey(desc)]
    ts: i64,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "|")]
struct TextHash {
    #[rowkey(hash_prefix(len = 5))]
    dev: String,
    #[rowkey(hash_prefix(len = 5))]
    n: u32,
    #[rowkey(width = 6)]
    seq: u32,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "/")]
struct TextHashUpper {
    #[rowkey(hash_prefix(len = 32, upper))]
    id: u64,
    tail: String,
}

/// A text hash prefix with no delimiter.
#[derive(RowKey, Debug)]
#[rowkey(text)]
struct TextHashPlain {
    #[rowkey(width = 4, hash_prefix(len = 3))]
    s: String,
    n: u8,
}

// ---------------------------------------------------------------- hashed fields

/// The HBase book's LOG_DATA key, and digests of other lengths, `desc` and inside an `Option`.
#[derive(RowKey, Debug)]
struct Hashes {
    host: rowkey::Hashed<16>,
    event: rowkey::Hashed<16>,
    #[rowkey(desc)]
    short: rowkey::Hashed<1>,
    maybe: Option<rowkey::Hashed<5>>,
    ts: u64,
}

/// Digests in a text layout: lowercase hex, `desc` inverted.
#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct TextHashes {
    host: rowkey::Hashed<4>,
    #[rowkey(desc)]
    id: rowkey::Hashed<2>,
    ts: u32,
}

/// Decimals: one between other fields, one `desc`, one last.
#[derive(RowKey, Debug)]
struct Decimals {
    a: rust_decimal::Decimal,
    b: u8,
    #[rowkey(desc)]
    c: rust_decimal::Decimal,
    d: Option<rust_decimal::Decimal>,
    last: rust_decimal::Decimal,
}

/// Phoenix's primary keys: VARCHAR ascending and DESC (NULL or not, in the middle and last), an
/// UNSIGNED_INT, DOUBLE, BOOLEAN DESC.
#[derive(RowKey, Debug)]
#[rowkey(phoenix)]
struct PhoenixColumns {
    host: String,
    #[rowkey(desc)]
    path: String,
    port: u32,
    note: Option<String>,
    #[rowkey(desc)]
    tag: Option<String>,
    x: f64,
    #[rowkey(desc)]
    on: bool,
}

/// A salted Phoenix key: a nullable DESC VARCHAR first, DECIMAL, CHAR(3), FLOAT DESC, VARBINARY.
#[derive(RowKey, Debug)]
#[rowkey(phoenix, salt(buckets = 4))]
struct PhoenixSalted {
    #[rowkey(desc)]
    a: Option<String>,
    d: rust_decimal::Decimal,
    #[rowkey(width = 3)]
    code: String,
    #[rowkey(desc)]
    f: f32,
    bytes: Vec<u8>,
}

/// Phoenix's DATE and TIMESTAMP DESC, a nullable DESC DECIMAL, a nullable VARCHAR last.
#[derive(RowKey, Debug)]
#[rowkey(phoenix)]
struct PhoenixTimes {
    a: std::time::SystemTime,
    #[rowkey(desc, unit = "ns")]
    b: std::time::SystemTime,
    #[rowkey(desc)]
    c: Option<rust_decimal::Decimal>,
    last: Option<String>,
}

/// Times: every unit, `desc` and not, in binary and text layouts.
#[derive(RowKey, Debug)]
struct Times {
    a: std::time::SystemTime,
    #[rowkey(desc, unit = "s")]
    b: std::time::SystemTime,
    #[rowkey(unit = "us")]
    c: Option<std::time::SystemTime>,
    #[rowkey(desc, unit = "ns")]
    d: std::time::SystemTime,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "|")]
struct TextTimes {
    #[rowkey(desc)]
    a: std::time::SystemTime,
    #[rowkey(unit = "ns")]
    b: std::time::SystemTime,
}

/// chrono's types: a date at its midnight, a time of day, an instant `desc` in microseconds.
#[derive(RowKey, Debug)]
struct ChronoTimes {
    #[rowkey(unit = "s")]
    day: chrono::NaiveDate,
    #[rowkey(desc)]
    time: chrono::NaiveTime,
    #[rowkey(desc, unit = "us")]
    at: chrono::DateTime<chrono::Utc>,
}

/// An enum key: discriminant tags, a byte-string tag, a variant without fields, escaped and
/// `desc` strings, a nested key in a variant.
#[derive(RowKey, Debug)]
#[repr(u8)]
enum Entities {
    User {
        id: u64,
        name: String,
    } = 1,
    #[rowkey(tag = b"ix")]
    Index {
        #[rowkey(desc)]
        name: String,
        at: Point,
    },
    Gone = 0xFF,
}

impl Pick for Entities {
    fn pick(g: &mut Gen<'_>) -> Self {
        match g.below(3) {
            0 => Entities::User {
                id: Pick::pick(g),
                name: Pick::pick(g),
            },
            1 => Entities::Index {
                name: Pick::pick(g),
                at: Pick::pick(g),
            },
            _ => Entities::Gone,
        }
    }
}

/// A text enum key under a tag of its own.
#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":", tag = "acct")]
enum TextEntities {
    #[rowkey(tag = "u")]
    User { id: u32, name: String },
    #[rowkey(tag = 7)]
    Closed,
}

impl Pick for TextEntities {
    fn pick(g: &mut Gen<'_>) -> Self {
        if g.flag() {
            TextEntities::User {
                id: Pick::pick(g),
                name: Pick::pick(g),
            }
        } else {
            TextEntities::Closed
        }
    }
}

/// Tags before a salt, in binary and text.
#[derive(RowKey, Debug)]
#[rowkey(tag = b"evt/", salt(buckets = 4))]
struct TaggedSalt {
    user: u32,
    name: String,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = "#", tag = "m")]
struct TaggedText {
    #[rowkey(hash_prefix(len = 4))]
    host: String,
    n: u16,
}

/// chrono times written with formats: one that sorts, one that does not, a time of day. Each
/// keeps all a picked value has (whole seconds), so values round-trip; formats that keep less
/// decode to what they keep, which tests/chrono_format.rs checks.
#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct ChronoFormats {
    #[rowkey(format = "%Y%m%d%H%M%S%.3f")]
    at: chrono::DateTime<chrono::Utc>,
    #[rowkey(format = "%d%m%y")]
    day: chrono::NaiveDate,
    #[rowkey(format = "%H%M%S")]
    time: chrono::NaiveTime,
}

pick_struct! {
    PhoenixColumns { host, path, port, note, tag, x, on }
    PhoenixSalted { a, d, code, f, bytes }
    PhoenixTimes { a, b, c, last }
}

pick_struct! {
    ChronoFormats { at, day, time }
    TaggedSalt { user, name }
    TaggedText { host, n }
    Ints { a, b, c, d, e, f, g, h, i, j, k, l, m, n }
    Narrow { a, b, c, d, e, f, g, h }
    Scalars { a, b, c, d, e, f, g, h, i, j, k, l }
    Strings<'static> { a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, last }
    LastBytes { a, b }
    LastDesc { s }
    LastBorrowed<'static> { a, s }
    LastDescCow<'static> { a, s }
    LastReverse { s }
    LastPadded<'static> { a, s }
    Inner { x, s }
    Point { x, y }
    Nested<'static> { a, b, c, d, e, f, g, h, i, j, last }
    LastNested { a, inner }
    LastNestedDesc { inner }
    SaltMd5 { user, ts, name }
    SaltJava { a, t, s, rest }
    SaltMod { id, name }
    SaltOne { a, b }
    WholeMd5 { a, s }
    WholeJava { a, s, b }
    Hash2 { a, s, c }
    Hash16 { id, ts }
    HashLast { x, last }
    TextDelim { a, b, c, d, e, f, k, g, h, last }
    TextPlain { a, s, n, m, i, tail }
    TextMulti { a, b, c, last }
    TextSalt { user, region, ts, page }
    TextMod { user, name }
    TextWhole { user, ts }
    TextHash { dev, n, seq }
    TextHashUpper { id, tail }
    TextHashPlain { s, n }
    Hashes { host, event, short, maybe, ts }
    TextHashes { host, id, ts }
    Decimals { a, b, c, d, last }
    Times { a, b, c, d }
    TextTimes { a, b }
    ChronoTimes { day, time, at }
}

/// Decodes `data` as `K`. An accepted key must encode back to the same bytes; then its value's
/// `Debug` is returned, so a round trip can compare it.
fn decode<'k, K: DecodeKey<'k> + RowKey + Debug>(data: &'k [u8]) -> Option<String> {
    match K::decode(data) {
        Ok(key) => {
            let again = key.to_vec().unwrap_or_else(|e| {
                panic!("{key:?} decoded from {data:02X?} does not encode: {e}")
            });
            assert_eq!(
                again, data,
                "{key:?} decoded from {data:02X?} encodes differently"
            );
            Some(format!("{key:?}"))
        }
        Err(e) => {
            assert!(
                e.offset() <= data.len(),
                "error offset {} past the {} bytes of {data:02X?}: {e}",
                e.offset(),
                data.len()
            );
            let _ = e.to_string();
            None
        }
    }
}

/// Encodes `value` every way there is; they must agree. The key, if the value has one.
fn encode<K: RowKey + Debug>(value: &K) -> Option<Vec<u8>> {
    let n = value.encoded_len();
    let mut buf = vec![0u8; n + 8];
    let key = match value.encode_into(&mut buf) {
        Ok(written) => {
            assert_eq!(
                written, n,
                "{value:?}: encode_into wrote {written} bytes, encoded_len says {n}"
            );
            buf.truncate(n);
            buf
        }
        Err(e) => {
            let _ = e.to_string();
            assert!(
                value.to_vec().is_err(),
                "{value:?}: encode_into fails ({e}), to_vec does not"
            );
            return None;
        }
    };
    assert_eq!(
        value.to_vec().as_ref(),
        Ok(&key),
        "{value:?}: to_vec and encode_into differ"
    );
    let mut exact = vec![0u8; n];
    assert_eq!(
        value.encode_into(&mut exact),
        Ok(n),
        "{value:?} in a buffer of its length"
    );
    assert_eq!(exact, key);
    if n > 0 {
        assert!(
            value.encode_into(&mut exact[..n - 1]).is_err(),
            "{value:?} encodes into a buffer one byte short"
        );
    }
    if let Some(fixed) = K::FIXED_LEN {
        assert_eq!(n, fixed, "{value:?} is not FIXED_LEN long");
    }
    if let Some(max) = K::MAX_LEN {
        assert!(n <= max, "{value:?} is longer than MAX_LEN {max}");
    }
    Some(key)
}

/// A value of `K` from `g`: its key must decode back to it; keys mutated from it decode or fail
/// cleanly.
fn round_trip<K: Pick + RowKey + Debug>(g: &mut Gen<'_>, decode: impl Fn(&[u8]) -> Option<String>) {
    let value = K::pick(g);
    let Some(key) = encode(&value) else { return };
    let back = decode(&key);
    let want = format!("{value:?}");
    assert_eq!(
        back,
        Some(want),
        "{value:?} encodes as {key:02X?}, which does not decode back to it"
    );
    for _ in 0..=g.below(4) {
        let mut near = key.clone();
        mutate(g, &mut near);
        decode(&near);
    }
}

macro_rules! layouts {
    ($($K:ident)*) => {
        fn decode_all(data: &[u8]) {
            $(decode::<$K>(data);)*
        }

        fn round_trip_one(g: &mut Gen<'_>) {
            let layouts: &[fn(&mut Gen<'_>)] = &[$(|g| round_trip::<$K>(g, |k| decode::<$K>(k))),*];
            layouts[g.below(layouts.len())](g);
        }
    };
}

layouts! {
    Ints Narrow Scalars
    Strings LastBytes LastDesc LastBorrowed LastDescCow LastReverse LastPadded
    Inner Point Nested LastNested LastNestedDesc
    SaltMd5 SaltJava SaltMod SaltOne WholeMd5 WholeJava Hash2 Hash16 HashLast
    TextDelim TextPlain TextMulti TextSalt TextMod TextWhole TextHash TextHashUpper TextHashPlain
    Hashes TextHashes Decimals Times TextTimes ChronoTimes
    Entities TextEntities TaggedSalt TaggedText ChronoFormats
    PhoenixColumns PhoenixSalted PhoenixTimes
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        decode_all(rest);
    } else {
        round_trip_one(&mut Gen::new(rest));
    }
});
