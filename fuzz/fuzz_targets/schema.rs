//! Schema decoding against the derive (`rowkey::schema`): every input is decoded as each layout
//! below both by the derived type and by the schema read from its lock. Nothing may panic; the
//! schema accepts exactly the keys the derive accepts; an accepted key encodes back from the
//! schema's values to the same bytes, and explains as `K::explain` does.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rowkey::schema::Schema;
use rowkey::{DecodeKey, Hashed, RowKey};

#[derive(RowKey, Debug, Clone, Copy)]
enum Kind {
    A = 1,
    B = 2,
}

#[derive(RowKey, Debug)]
struct Event {
    user: u64,
    #[rowkey(desc)]
    ts: i64,
    kind: Kind,
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 8, hash = "java"))]
struct Salted {
    host: String,
    #[rowkey(desc)]
    name: Option<String>,
    raw: Vec<u8>,
}

#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":")]
struct Text {
    #[rowkey(hash_prefix(len = 4))]
    user: u32,
    #[rowkey(width = 5)]
    city: String,
    seq: u16,
}

#[derive(RowKey, Debug)]
struct Inner {
    a: u16,
    #[rowkey(reverse)]
    b: String,
}

#[derive(RowKey, Debug)]
#[rowkey(tag = b"n/")]
struct Nested {
    inner: Inner,
    digest: Hashed<3>,
    at: std::time::SystemTime,
    ratio: f32,
    c: char,
    flag: Option<bool>,
}

#[derive(RowKey, Debug)]
enum Row {
    #[rowkey(tag = 1)]
    One { x: i16 },
    #[rowkey(tag = 2)]
    Two {
        x: i16,
        #[rowkey(width = 2)]
        y: u32,
    },
}

/// Apache Phoenix's primary key: separators, trailing NULLs, a DESC VARCHAR's FF.
#[derive(RowKey, Debug)]
#[rowkey(phoenix)]
struct Phoenix {
    a: String,
    #[rowkey(desc)]
    b: Option<String>,
    #[rowkey(desc)]
    c: i32,
    #[rowkey(width = 2)]
    d: String,
    #[rowkey(unit = "ns")]
    t: std::time::SystemTime,
    e: Option<String>,
}

fn check<K: RowKey + for<'k> DecodeKey<'k>>(schema: &Schema, key: &[u8]) {
    let derived = K::decode(key);
    let read = schema.decode(key);
    assert_eq!(
        read.is_ok(),
        derived.is_ok(),
        "schema and derive disagree on {key:?}: {read:?}"
    );
    if let Ok(values) = read {
        assert_eq!(schema.encode(&values).unwrap(), key);
        assert_eq!(
            schema.explain(key).unwrap().to_string(),
            K::explain(key).unwrap().to_string()
        );
    }
}

fn schema<K: RowKey>(cell: &OnceLock<Schema>, sample: K) -> &Schema {
    cell.get_or_init(|| Schema::parse(&rowkey::lock::render(&[sample]).unwrap()).unwrap())
}

static EVENT: OnceLock<Schema> = OnceLock::new();
static SALTED: OnceLock<Schema> = OnceLock::new();
static TEXT: OnceLock<Schema> = OnceLock::new();
static NESTED: OnceLock<Schema> = OnceLock::new();
static ROW: OnceLock<Schema> = OnceLock::new();
static PHOENIX: OnceLock<Schema> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some((&which, key)) = data.split_first() else {
        return;
    };
    match which % 6 {
        0 => check::<Event>(
            schema(
                &EVENT,
                Event {
                    user: 1,
                    ts: 2,
                    kind: Kind::B,
                    host: "h".into(),
                },
            ),
            key,
        ),
        1 => check::<Salted>(
            schema(
                &SALTED,
                Salted {
                    host: "h".into(),
                    name: None,
                    raw: vec![0],
                },
            ),
            key,
        ),
        2 => check::<Text>(
            schema(
                &TEXT,
                Text {
                    user: 7,
                    city: "ab".into(),
                    seq: 3,
                },
            ),
            key,
        ),
        3 => check::<Nested>(
            schema(
                &NESTED,
                Nested {
                    inner: Inner {
                        a: 1,
                        b: "x".into(),
                    },
                    digest: Hashed::of("x"),
                    at: std::time::UNIX_EPOCH,
                    ratio: 1.5,
                    c: 'c',
                    flag: Some(true),
                },
            ),
            key,
        ),
        4 => check::<Row>(schema(&ROW, Row::Two { x: -1, y: 9 }), key),
        _ => check::<Phoenix>(
            schema(
                &PHOENIX,
                Phoenix {
                    a: "a".into(),
                    b: None,
                    c: 1,
                    d: "x".into(),
                    t: std::time::UNIX_EPOCH,
                    e: None,
                },
            ),
            key,
        ),
    }
});
