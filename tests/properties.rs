//! Property tests over every field type and attribute: decoding an encoded key gives the value back
//! (floats bit for bit), and the byte order of two keys is the field-by-field order of their values
//! (`desc` reversed, floats by `total_cmp`, `None` before `Some`), computed here independently of
//! the encoder.
//!
//! Each property runs 10,000 cases, each a random pair of values, and 1,000,000 with
//! `ROWKEY_SOAK=1`; `ROWKEY_PROPTEST_CASES` overrides both. Values come from small domains as well
//! as the whole range, so random pairs often tie on leading fields and the later fields' order is
//! exercised too.

use std::borrow::Cow;
use std::cmp::Ordering;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rowkey::{DecodeKey, RowKey};

mod common;

/// Cases per property: `ROWKEY_PROPTEST_CASES`, or 10,000 (1,000,000 under `ROWKEY_SOAK`).
fn cases() -> u32 {
    std::env::var("ROWKEY_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(common::scaled(10_000, 1_000_000) as u32)
}

/// Runs `test` on `cases()` random pairs from `strategy`, and says how many ran.
fn run_pairs<S: Strategy + Clone>(
    what: &str,
    strategy: S,
    test: impl Fn((S::Value, S::Value)) -> Result<(), TestCaseError>,
) {
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner.run(&(strategy.clone(), strategy), test).unwrap();
    println!("{what}: {cases} random pairs");
}

/// Runs both properties for a layout: round trip of one value, and order of a pair.
fn check_layout<T, S>(
    strategy: S,
    same: fn(&T, &T) -> bool,
    model_cmp: Option<fn(&T, &T) -> Ordering>,
) where
    T: RowKey + for<'k> DecodeKey<'k> + std::fmt::Debug + Clone,
    S: Strategy<Value = T> + Clone,
{
    run_pairs(std::any::type_name::<T>(), strategy, |(a, b)| {
        let ka = a.to_vec().expect("encode a");
        let kb = b.to_vec().expect("encode b");
        prop_assert_eq!(ka.len(), a.encoded_len());
        let back = T::decode(&ka).expect("decode a");
        prop_assert!(
            same(&a, &back),
            "round trip: {:?} came back as {:?}",
            a,
            back
        );
        if let Some(cmp) = model_cmp {
            prop_assert_eq!(
                ka.cmp(&kb),
                cmp(&a, &b),
                "order of {:?} and {:?}: keys {:02X?} and {:02X?}",
                a,
                b,
                ka,
                kb
            );
        }
        Ok(())
    });
}

/// Integers from a small domain around zero (so pairs tie), the extremes, or anywhere.
macro_rules! int_strategy {
    ($t:ty) => {
        prop_oneof![
            (-2i8..=2).prop_map(|v| v as $t),
            Just(<$t>::MIN),
            Just(<$t>::MAX),
            any::<$t>(),
        ]
    };
}

/// Content over an alphabet with the escape byte, the terminator byte and 0xFF, short enough that
/// prefixes and ties are common.
fn bytes_strategy() -> impl Strategy<Value = Vec<u8>> + Clone {
    prop::collection::vec(
        prop::sample::select(vec![0x00u8, 0x01, 0x02, 0x61, 0xFE, 0xFF]),
        0..5,
    )
}

fn string_strategy() -> impl Strategy<Value = String> + Clone {
    prop::collection::vec(
        prop::sample::select(vec!['\0', '\u{1}', 'a', 'b', 'ÿ', '€']),
        0..5,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

/// Fixed-width content: no trailing NUL (it would be indistinguishable from padding), at most `w`.
fn padded_bytes(w: usize) -> impl Strategy<Value = Vec<u8>> + Clone {
    bytes_strategy().prop_map(move |mut v| {
        v.truncate(w);
        while v.last() == Some(&0) {
            v.pop();
        }
        v
    })
}

fn padded_string(w: usize) -> impl Strategy<Value = String> + Clone {
    string_strategy().prop_map(move |s| {
        let mut s: String = s.trim_end_matches('\0').to_string();
        while s.len() > w {
            s.pop();
            s = s.trim_end_matches('\0').to_string();
        }
        s
    })
}

// ---------------------------------------------------------------- integers

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ints {
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: i64,
    i: u128,
    j: i128,
    k: usize,
    l: isize,
}

fn ints() -> impl Strategy<Value = Ints> + Clone {
    (
        (
            int_strategy!(u8),
            int_strategy!(i8),
            int_strategy!(u16),
            int_strategy!(i16),
        ),
        (
            int_strategy!(u32),
            int_strategy!(i32),
            int_strategy!(u64),
            int_strategy!(i64),
        ),
        (
            int_strategy!(u128),
            int_strategy!(i128),
            int_strategy!(usize),
            int_strategy!(isize),
        ),
    )
        .prop_map(|((a, b, c, d), (e, f, g, h), (i, j, k, l))| Ints {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            j,
            k,
            l,
        })
}

fn ints_cmp(x: &Ints, y: &Ints) -> Ordering {
    (x.a.cmp(&y.a))
        .then(x.b.cmp(&y.b))
        .then(x.c.cmp(&y.c))
        .then(x.d.cmp(&y.d))
        .then(x.e.cmp(&y.e))
        .then(x.f.cmp(&y.f))
        .then(x.g.cmp(&y.g))
        .then(x.h.cmp(&y.h))
        .then(x.i.cmp(&y.i))
        .then(x.j.cmp(&y.j))
        .then(x.k.cmp(&y.k))
        .then(x.l.cmp(&y.l))
}

#[test]
fn integers_round_trip_and_sort_ascending() {
    check_layout(ints(), |a, b| a == b, Some(ints_cmp));
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct IntsDesc {
    #[rowkey(desc)]
    a: u8,
    #[rowkey(desc)]
    b: i8,
    #[rowkey(desc)]
    c: u16,
    #[rowkey(desc)]
    d: i16,
    #[rowkey(desc)]
    e: u32,
    #[rowkey(desc)]
    f: i32,
    #[rowkey(desc)]
    g: u64,
    #[rowkey(desc)]
    h: i64,
    #[rowkey(desc)]
    i: u128,
    #[rowkey(desc)]
    j: i128,
}

#[test]
fn integers_round_trip_and_sort_descending() {
    let strategy = ints().prop_map(|v| IntsDesc {
        a: v.a,
        b: v.b,
        c: v.c,
        d: v.d,
        e: v.e,
        f: v.f,
        g: v.g,
        h: v.h,
        i: v.i,
        j: v.j,
    });
    check_layout(
        strategy,
        |a, b| a == b,
        Some(|x: &IntsDesc, y: &IntsDesc| {
            (y.a.cmp(&x.a))
                .then(y.b.cmp(&x.b))
                .then(y.c.cmp(&x.c))
                .then(y.d.cmp(&x.d))
                .then(y.e.cmp(&x.e))
                .then(y.f.cmp(&x.f))
                .then(y.g.cmp(&x.g))
                .then(y.h.cmp(&x.h))
                .then(y.i.cmp(&x.i))
                .then(y.j.cmp(&x.j))
        }),
    );
}

/// Narrowed integers, ascending and descending; values drawn to fit their width.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct IntsWidth {
    #[rowkey(width = 3)]
    a: u32,
    #[rowkey(width = 1)]
    b: i16,
    #[rowkey(width = 5, desc)]
    c: i64,
    #[rowkey(width = 2, desc)]
    d: u64,
    #[rowkey(width = 9)]
    e: i128,
    #[rowkey(width = 4)]
    f: i32,
}

#[test]
fn narrowed_integers_round_trip_and_sort() {
    let strategy = (
        prop_oneof![0u32..4, Just((1 << 24) - 1), 0u32..(1 << 24)],
        prop_oneof![-2i16..=2, Just(-128), Just(127), -128i16..=127],
        prop_oneof![
            -2i64..=2,
            Just(-(1i64 << 39)),
            Just((1i64 << 39) - 1),
            -(1i64 << 39)..(1i64 << 39)
        ],
        prop_oneof![0u64..3, Just(65535), 0u64..65536],
        prop_oneof![
            -2i128..=2,
            Just(-(1i128 << 71)),
            Just((1i128 << 71) - 1),
            -(1i128 << 71)..(1i128 << 71)
        ],
        int_strategy!(i32),
    )
        .prop_map(|(a, b, c, d, e, f)| IntsWidth { a, b, c, d, e, f });
    check_layout(
        strategy,
        |a, b| a == b,
        Some(|x: &IntsWidth, y: &IntsWidth| {
            (x.a.cmp(&y.a))
                .then(x.b.cmp(&y.b))
                .then(y.c.cmp(&x.c))
                .then(y.d.cmp(&x.d))
                .then(x.e.cmp(&y.e))
                .then(x.f.cmp(&y.f))
        }),
    );
}

// ---------------------------------------------------------------- floats, bool, char, arrays

#[derive(RowKey, Debug, Clone)]
struct Floats {
    a: f32,
    #[rowkey(desc)]
    b: f64,
    c: f64,
    #[rowkey(desc)]
    d: f32,
}

fn f64_strategy() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        prop::sample::select(vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
        ]),
        any::<u64>().prop_map(f64::from_bits),
        any::<f64>(),
    ]
}

fn f32_strategy() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        prop::sample::select(vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN
        ]),
        any::<u32>().prop_map(f32::from_bits),
    ]
}

#[test]
fn floats_round_trip_bit_for_bit_and_sort_by_total_cmp() {
    let strategy = (
        f32_strategy(),
        f64_strategy(),
        f64_strategy(),
        f32_strategy(),
    )
        .prop_map(|(a, b, c, d)| Floats { a, b, c, d });
    check_layout(
        strategy,
        |x, y| {
            x.a.to_bits() == y.a.to_bits()
                && x.b.to_bits() == y.b.to_bits()
                && x.c.to_bits() == y.c.to_bits()
                && x.d.to_bits() == y.d.to_bits()
        },
        Some(|x: &Floats, y: &Floats| {
            (x.a.total_cmp(&y.a))
                .then(y.b.total_cmp(&x.b))
                .then(x.c.total_cmp(&y.c))
                .then(y.d.total_cmp(&x.d))
        }),
    );
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Scalars {
    a: bool,
    b: char,
    c: [u8; 3],
    #[rowkey(desc)]
    d: bool,
    #[rowkey(desc)]
    e: char,
    #[rowkey(desc)]
    f: [u8; 2],
    g: [u8; 0],
}

#[test]
fn bool_char_and_arrays_round_trip_and_sort() {
    let chars = prop_oneof![
        prop::sample::select(vec!['\0', 'a', 'b', '\u{D7FF}', '\u{E000}', char::MAX]),
        any::<char>()
    ];
    let arr = |n| prop::collection::vec(prop::sample::select(vec![0u8, 1, 0x7F, 0xFF]), n);
    let strategy = (
        any::<bool>(),
        chars.clone(),
        arr(3),
        any::<bool>(),
        chars,
        arr(2),
    )
        .prop_map(|(a, b, c, d, e, f)| Scalars {
            a,
            b,
            c: c.try_into().unwrap(),
            d,
            e,
            f: f.try_into().unwrap(),
            g: [],
        });
    check_layout(
        strategy,
        |a, b| a == b,
        Some(|x: &Scalars, y: &Scalars| {
            (x.a.cmp(&y.a))
                .then(x.b.cmp(&y.b))
                .then(x.c.cmp(&y.c))
                .then(y.d.cmp(&x.d))
                .then(y.e.cmp(&x.e))
                .then(y.f.cmp(&x.f))
        }),
    );
}

// ---------------------------------------------------------------- strings and bytes

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Strings {
    a: String,
    #[rowkey(desc)]
    b: String,
    #[rowkey(width = 4)]
    c: String,
    #[rowkey(width = 3, desc)]
    d: Vec<u8>,
    e: Vec<u8>,
    #[rowkey(desc)]
    f: Vec<u8>,
    g: String,
    h: String,
}

#[test]
fn strings_and_bytes_round_trip_and_sort() {
    let strategy = (
        (
            string_strategy(),
            string_strategy(),
            padded_string(4),
            padded_bytes(3),
        ),
        (
            bytes_strategy(),
            bytes_strategy(),
            string_strategy(),
            string_strategy(),
        ),
    )
        .prop_map(|((a, b, c, d), (e, f, g, h))| Strings {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
        });
    check_layout(
        strategy,
        |a, b| a == b,
        Some(|x: &Strings, y: &Strings| {
            (x.a.cmp(&y.a))
                .then(y.b.cmp(&x.b))
                .then(x.c.cmp(&y.c))
                .then(y.d.cmp(&x.d))
                .then(x.e.cmp(&y.e))
                .then(y.f.cmp(&x.f))
                .then(x.g.cmp(&y.g))
                .then(x.h.cmp(&y.h))
        }),
    );
}

/// The last field in each of its three forms: descending (escaped), padded, and raw bytes.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastDesc {
    a: u8,
    #[rowkey(desc)]
    s: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastPadded {
    a: u8,
    #[rowkey(width = 5)]
    s: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastBytes {
    a: u8,
    s: Vec<u8>,
}

#[test]
fn last_string_forms_round_trip_and_sort() {
    let small = 0u8..3;
    check_layout(
        (small.clone(), string_strategy()).prop_map(|(a, s)| LastDesc { a, s }),
        |a, b| a == b,
        Some(|x: &LastDesc, y: &LastDesc| x.a.cmp(&y.a).then(y.s.cmp(&x.s))),
    );
    check_layout(
        (small.clone(), padded_bytes(5)).prop_map(|(a, s)| LastPadded { a, s }),
        |a, b| a == b,
        Some(|x: &LastPadded, y: &LastPadded| x.a.cmp(&y.a).then(x.s.cmp(&y.s))),
    );
    check_layout(
        (small, bytes_strategy()).prop_map(|(a, s)| LastBytes { a, s }),
        |a, b| a == b,
        Some(|x: &LastBytes, y: &LastBytes| x.a.cmp(&y.a).then(x.s.cmp(&y.s))),
    );
}

// ---------------------------------------------------------------- Option, enums, nested keys

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    View = 0,
    Click = 3,
    Buy = 255,
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Inner {
    x: u16,
    s: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Composite {
    a: Option<u32>,
    #[rowkey(desc)]
    b: Option<String>,
    c: Option<Option<i8>>,
    #[rowkey(width = 2)]
    d: Option<u32>,
    e: Kind,
    #[rowkey(desc)]
    f: Kind,
    g: Inner,
    #[rowkey(desc)]
    h: Inner,
    i: Option<Inner>,
    last: Option<String>,
}

fn inner() -> impl Strategy<Value = Inner> + Clone {
    (0u16..3, string_strategy()).prop_map(|(x, s)| Inner { x, s })
}

fn kind() -> impl Strategy<Value = Kind> + Clone {
    prop::sample::select(vec![Kind::View, Kind::Click, Kind::Buy])
}

#[test]
fn options_enums_and_nested_keys_round_trip_and_sort() {
    let strategy = (
        (
            prop::option::of(0u32..3),
            prop::option::of(string_strategy()),
            prop::option::of(prop::option::of(-1i8..=1)),
            prop::option::of(prop_oneof![0u32..3, Just(65535)]),
        ),
        (kind(), kind(), inner(), inner(), prop::option::of(inner())),
        prop::option::of(string_strategy()),
    )
        .prop_map(|((a, b, c, d), (e, f, g, h, i), last)| Composite {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            last,
        });
    check_layout(
        strategy,
        |a, b| a == b,
        Some(|x: &Composite, y: &Composite| {
            (x.a.cmp(&y.a))
                .then(y.b.cmp(&x.b))
                .then(x.c.cmp(&y.c))
                .then(x.d.cmp(&y.d))
                .then(x.e.cmp(&y.e))
                .then(y.f.cmp(&x.f))
                .then(x.g.cmp(&y.g))
                .then(y.h.cmp(&x.h))
                .then(x.i.cmp(&y.i))
                .then(x.last.cmp(&y.last))
        }),
    );
}

/// A nested key in the last position keeps its own last field raw; under `desc` it is escaped.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct NestedLast {
    a: u8,
    inner: Inner,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct NestedLastDesc {
    a: u8,
    #[rowkey(desc)]
    inner: Inner,
}

#[test]
fn nested_key_in_last_position_round_trips_and_sorts() {
    check_layout(
        (0u8..2, inner()).prop_map(|(a, inner)| NestedLast { a, inner }),
        |a, b| a == b,
        Some(|x: &NestedLast, y: &NestedLast| x.a.cmp(&y.a).then(x.inner.cmp(&y.inner))),
    );
    check_layout(
        (0u8..2, inner()).prop_map(|(a, inner)| NestedLastDesc { a, inner }),
        |a, b| a == b,
        Some(|x: &NestedLastDesc, y: &NestedLastDesc| x.a.cmp(&y.a).then(y.inner.cmp(&x.inner))),
    );
}

// ---------------------------------------------------------------- reverse (order given up)

#[derive(RowKey, Debug, Clone)]
struct Reversed {
    #[rowkey(reverse)]
    a: u64,
    #[rowkey(reverse, width = 3)]
    b: i32,
    #[rowkey(reverse)]
    c: f64,
    #[rowkey(reverse)]
    d: [u8; 3],
    #[rowkey(reverse)]
    e: String,
    #[rowkey(reverse, width = 4)]
    f: Vec<u8>,
    #[rowkey(reverse)]
    g: Option<u16>,
    #[rowkey(reverse)]
    h: String,
}

#[test]
fn reversed_fields_round_trip() {
    let strategy = (
        (
            int_strategy!(u64),
            -(1i32 << 23)..(1i32 << 23),
            f64_strategy(),
        ),
        (prop::collection::vec(any::<u8>(), 3), string_strategy()),
        // Reversed padded content must not start with NUL: it would end the stored bytes.
        (padded_bytes(4).prop_map(|v| v.into_iter().skip_while(|&b| b == 0).collect::<Vec<u8>>())),
        (prop::option::of(any::<u16>()), string_strategy()),
    )
        .prop_map(|((a, b, c), (d, e), f, (g, h))| Reversed {
            a,
            b,
            c,
            d: d.try_into().unwrap(),
            e,
            f,
            g,
            h,
        });
    check_layout(
        strategy,
        |x, y| {
            x.a == y.a
                && x.b == y.b
                && x.c.to_bits() == y.c.to_bits()
                && x.d == y.d
                && x.e == y.e
                && x.f == y.f
                && x.g == y.g
                && x.h == y.h
        },
        None,
    );
}

// ---------------------------------------------------------------- borrowed fields

#[derive(RowKey, Debug, PartialEq)]
struct Borrowed<'a> {
    #[rowkey(width = 6)]
    name: &'a str,
    tag: Cow<'a, str>,
    #[rowkey(desc)]
    note: Cow<'a, [u8]>,
    rest: &'a [u8],
}

fn borrowed(v: &(String, String, Vec<u8>, Vec<u8>)) -> Borrowed<'_> {
    let (name, tag, note, rest) = v;
    Borrowed {
        name: name.as_str(),
        tag: Cow::Borrowed(tag.as_str()),
        note: Cow::Borrowed(note.as_slice()),
        rest: rest.as_slice(),
    }
}

#[test]
fn borrowed_fields_round_trip_and_sort() {
    let strategy = (
        padded_string(6),
        string_strategy(),
        bytes_strategy(),
        bytes_strategy(),
    );
    run_pairs("Borrowed", strategy, |(a, b)| {
        let (x, y) = (borrowed(&a), borrowed(&b));
        let (kx, ky) = (x.to_vec().unwrap(), y.to_vec().unwrap());
        prop_assert_eq!(&Borrowed::decode(&kx).unwrap(), &x);
        let model = (x.name.cmp(y.name))
            .then(x.tag.cmp(&y.tag))
            .then(y.note.cmp(&x.note))
            .then(x.rest.cmp(y.rest));
        prop_assert_eq!(kx.cmp(&ky), model);
        Ok(())
    });
}
