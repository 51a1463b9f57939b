//! Decodes arbitrary bytes as several layouts: no input may panic, and any accepted key must encode
//! back to exactly the same bytes. Run with `cargo +nightly fuzz run decode` from the repository root.
#![no_main]

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;
use rowkey::{DecodeKey, RowKey};

#[derive(RowKey, Debug)]
enum Kind {
    A,
    B = 5,
}

#[derive(RowKey, Debug)]
struct Inner {
    x: u16,
    s: String,
}

#[derive(RowKey, Debug)]
struct Fixed {
    a: u64,
    #[rowkey(desc)]
    b: i32,
    #[rowkey(width = 3)]
    c: u32,
    e: f64,
    f: bool,
    g: char,
    h: Kind,
}

#[derive(RowKey, Debug)]
struct Mixed<'a> {
    a: Option<u8>,
    #[rowkey(desc)]
    b: Option<String>,
    c: Inner,
    #[rowkey(desc)]
    d: Inner,
    e: Cow<'a, str>,
    #[rowkey(width = 5)]
    f: &'a str,
    #[rowkey(reverse)]
    g: Vec<u8>,
    last: Option<String>,
}

fn check<'k, K: DecodeKey<'k> + RowKey + std::fmt::Debug>(data: &'k [u8]) {
    if let Ok(key) = K::decode(data) {
        assert_eq!(key.to_vec().expect("a decoded key encodes"), data, "{key:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    check::<Fixed>(data);
    check::<Mixed>(data);
    check::<Inner>(data);
});
