//! The binary format, byte for byte: the examples of DESIGN.md section 5, the format table, and the
//! systems keys must match (HBase's `Bytes.toBytes`, `Long.MAX_VALUE - ts`, Phoenix's signed
//! integers). Expected bytes are written out by hand or computed by a Java-style reference, never by
//! the encoder under test.

use std::borrow::Cow;

use rowkey::RowKey;

fn key<K: RowKey>(k: &K) -> Vec<u8> {
    k.to_vec().expect("encode")
}

#[derive(RowKey, Debug, PartialEq)]
struct Design5 {
    s: String,
    b: u8,
}

#[test]
fn design_section_5_example() {
    let k = Design5 {
        s: "a\0b".into(),
        b: 7,
    };
    assert_eq!(key(&k), [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x07]);
    assert_eq!(Design5::decode(&key(&k)).unwrap(), k);
}

/// Java's `Bytes.toBytes(long)`: the loop HBase runs, big-endian two's complement.
fn java_to_bytes_long(mut val: i64) -> [u8; 8] {
    let mut b = [0u8; 8];
    for i in (0..8).rev() {
        b[i] = val as u8;
        val = ((val as u64) >> 8) as i64;
    }
    b
}

#[derive(RowKey)]
struct AscU64 {
    v: u64,
}

#[derive(RowKey)]
struct DescI64 {
    #[rowkey(desc)]
    ts: i64,
}

/// Sample values: edges, powers of two and their neighbours, and a spread of pseudo-random ones.
fn samples() -> Vec<i64> {
    let mut v = vec![0, 1, 2, 255, 256, 1_700_000_000_000, i64::MAX - 1, i64::MAX];
    for s in 0..63 {
        v.extend([(1i64 << s) - 1, 1i64 << s, (1i64 << s) + 1]);
    }
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push((x >> 1) as i64);
    }
    v
}

#[test]
fn ascending_u64_equals_hbase_bytes_to_bytes_long() {
    for v in samples() {
        assert_eq!(
            key(&AscU64 { v: v as u64 }),
            java_to_bytes_long(v),
            "v = {v}"
        );
    }
    assert_eq!(
        key(&AscU64 {
            v: 1_700_000_000_000
        }),
        [0x00, 0x00, 0x01, 0x8B, 0xCF, 0xE5, 0x68, 0x00]
    );
}

#[test]
fn desc_i64_equals_long_max_value_minus_ts() {
    for v in samples() {
        assert_eq!(
            key(&DescI64 { ts: v }),
            java_to_bytes_long(i64::MAX - v),
            "ts = {v}"
        );
    }
    assert_eq!(
        key(&DescI64 {
            ts: 1_700_000_000_000
        }),
        [0x7F, 0xFF, 0xFE, 0x74, 0x30, 0x1A, 0x97, 0xFF]
    );
}

#[derive(RowKey, Debug, PartialEq)]
struct One<T> {
    v: T,
}

fn one<T>(v: T) -> Vec<u8>
where
    T: rowkey::KeyField + for<'k> rowkey::DecodeField<'k> + std::fmt::Debug + PartialEq + Clone,
{
    let k = One { v: v.clone() };
    let bytes = key(&k);
    assert_eq!(One::<T>::decode(&bytes).unwrap().v, v);
    bytes
}

#[test]
fn integers_are_big_endian_with_the_sign_bit_flipped() {
    assert_eq!(one(0x0102u16), [0x01, 0x02]);
    assert_eq!(one(7u8), [0x07]);
    assert_eq!(one(u128::MAX), [0xFF; 16]);
    // Phoenix INTEGER and BIGINT flip the sign bit the same way (PInteger, PLong).
    assert_eq!(one(-1i32), [0x7F, 0xFF, 0xFF, 0xFF]);
    assert_eq!(one(1i32), [0x80, 0x00, 0x00, 0x01]);
    assert_eq!(one(i8::MIN), [0x00]);
    assert_eq!(one(i8::MAX), [0xFF]);
    assert_eq!(one(-300i16), [0x7E, 0xD4]);
    assert_eq!(one(i64::MIN), [0x00; 8]);
    // usize and isize are keyed as 64-bit integers everywhere.
    assert_eq!(one(5usize), [0, 0, 0, 0, 0, 0, 0, 5]);
    assert_eq!(
        one(-1isize),
        [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
}

#[test]
fn bool_char_and_arrays_are_their_bytes() {
    assert_eq!(one(false), [0x00]);
    assert_eq!(one(true), [0x01]);
    assert_eq!(one('A'), [0x00, 0x00, 0x00, 0x41]);
    assert_eq!(one('€'), [0x00, 0x00, 0x20, 0xAC]);
    assert_eq!(one([9u8, 8, 7]), [9, 8, 7]);
}

#[test]
fn floats_flip_the_sign_bit_or_every_bit() {
    assert_eq!(one(1.0f64), [0xBF, 0xF0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        one(-1.0f64),
        [0x40, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(one(0.0f64), [0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        one(-0.0f64).as_slice(),
        &[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(one(2.5f32), [0xC0, 0x20, 0x00, 0x00]);
    assert_eq!(one(-2.5f32), [0x3F, 0xDF, 0xFF, 0xFF]);
    assert_eq!(one(f32::INFINITY), [0xFF, 0x80, 0x00, 0x00]);
}

#[test]
fn option_is_a_tag_then_the_value() {
    assert_eq!(one(None::<u8>), [0x00]);
    assert_eq!(one(Some(5u8)), [0x01, 0x05]);
    assert_eq!(one(Some(String::from("ab"))), [0x01, 0x61, 0x62]);
}

#[derive(RowKey, Debug, PartialEq, Clone, Copy)]
enum Kind {
    A,
    B = 7,
    C,
    D = 255,
}

#[test]
fn enums_are_their_discriminant() {
    assert_eq!(one(Kind::A), [0]);
    assert_eq!(one(Kind::B), [7]);
    assert_eq!(one(Kind::C), [8]);
    assert_eq!(one(Kind::D), [255]);
}

#[derive(RowKey, Debug, PartialEq)]
struct Forms {
    escaped: String,
    #[rowkey(width = 4)]
    padded: String,
    #[rowkey(desc)]
    desc: String,
    #[rowkey(desc)]
    n: u8,
    #[rowkey(width = 2)]
    narrow: u32,
    #[rowkey(width = 1)]
    narrow_signed: i32,
    #[rowkey(reverse)]
    rev: u16,
    #[rowkey(reverse)]
    rev_s: Vec<u8>,
    last: Vec<u8>,
}

#[test]
fn every_form_of_a_field() {
    let k = Forms {
        escaped: "a".into(),
        padded: "ab".into(),
        desc: "a".into(),
        n: 5,
        narrow: 0x0102,
        narrow_signed: -100,
        rev: 0x0102,
        rev_s: b"xy\0".to_vec(),
        last: vec![0, 0xFF],
    };
    #[rustfmt::skip]
    let expected = [
        0x61, 0x00, 0x01,             // escaped "a"
        0x61, 0x62, 0x00, 0x00,       // "ab" padded to 4
        0x9E, 0xFF, 0xFE,             // desc "a": !(61 00 01)
        0xFA,                         // desc 5u8
        0x01, 0x02,                   // 0x0102 in 2 bytes
        0x1C,                         // -100 in 1 byte: 9C with the sign bit flipped
        0x02, 0x01,                   // 0x0102 reversed
        0x00, 0xFF, 0x79, 0x78, 0x00, 0x01, // "xy\0" reversed, then escaped
        0x00, 0xFF,                   // last field raw
    ];
    assert_eq!(key(&k), expected);
    assert_eq!(Forms::decode(&expected).unwrap(), k);
}

#[derive(RowKey, Debug, PartialEq)]
struct Nest {
    a: u8,
    inner: Inner,
    #[rowkey(desc)]
    inner_desc: Inner,
    last: Inner,
}

#[derive(RowKey, Debug, PartialEq)]
struct Inner {
    x: u8,
    s: String,
}

#[test]
fn nested_keys_are_their_fields_in_place() {
    let i = |x, s: &str| Inner { x, s: s.into() };
    let k = Nest {
        a: 1,
        inner: i(2, "b"),
        inner_desc: i(3, "c"),
        last: i(4, "d"),
    };
    #[rustfmt::skip]
    let expected = [
        0x01,
        0x02, 0x62, 0x00, 0x01,       // inner: its last field is escaped, another field follows
        0xFC, 0x9C, 0xFF, 0xFE,       // inner_desc: every byte of (03 63 00 01) inverted
        0x04, 0x64,                   // last: its own last field raw
    ];
    assert_eq!(key(&k), expected);
    assert_eq!(Nest::decode(&expected).unwrap(), k);
}

#[derive(RowKey, Debug, PartialEq)]
struct Borrows<'a> {
    #[rowkey(width = 3)]
    name: &'a str,
    tag: Cow<'a, str>,
    rest: &'a [u8],
}

#[test]
fn borrowed_fields_borrow_from_the_key() {
    let bytes = [b'a', b'b', 0, b't', 0, 1, 9, 9];
    let k = Borrows::decode(&bytes).unwrap();
    assert_eq!(k.name, "ab");
    assert!(matches!(k.tag, Cow::Borrowed("t")));
    assert_eq!(k.rest, [9, 9]);
    // A Cow whose content had to be unescaped owns it.
    let k = Borrows::decode(&[b'a', 0, 0, 0, 0xFF, 0, 1]).unwrap();
    assert!(matches!(k.tag, Cow::Owned(ref s) if s == "\0"));
}

#[derive(RowKey, Debug, PartialEq)]
struct Fixed {
    id: u64,
    #[rowkey(desc)]
    ts: i64,
    kind: Kind,
    #[rowkey(width = 2)]
    shard: u32,
}

#[test]
fn fixed_layouts_have_len_and_to_key() {
    assert_eq!(Fixed::LEN, 19);
    assert_eq!(<Fixed as RowKey>::FIXED_LEN, Some(19));
    assert_eq!(<Fixed as RowKey>::MAX_LEN, Some(19));
    let k = Fixed {
        id: 1,
        ts: 0,
        kind: Kind::B,
        shard: 3,
    };
    let arr: [u8; Fixed::LEN] = k.to_key().unwrap();
    assert_eq!(arr.as_slice(), key(&k).as_slice());
    assert_eq!(Fixed::decode(&arr).unwrap(), k);
    assert_eq!(<Design5 as RowKey>::FIXED_LEN, None);
    assert_eq!(<Design5 as RowKey>::MAX_LEN, None);
    assert_eq!(<Nest as RowKey>::MAX_LEN, None);
    assert_eq!(Kind::LEN, 1);
}

#[derive(RowKey)]
struct Bounded {
    a: Option<u32>,
    #[rowkey(width = 10)]
    s: Option<String>,
}

#[test]
fn bounded_layouts_have_max_len() {
    assert_eq!(<Bounded as RowKey>::FIXED_LEN, None);
    assert_eq!(<Bounded as RowKey>::MAX_LEN, Some(5 + 11));
}

#[cfg(feature = "uuid")]
#[test]
fn uuid_is_its_sixteen_bytes() {
    let u = uuid::Uuid::from_u128(0x0123_4567_89AB_CDEF_0011_2233_4455_6677);
    assert_eq!(one(u), u.as_bytes());
}
