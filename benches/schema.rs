//! `rowkey::schema` beside the derive doing the same work: decoding the same 1,000 keys of the
//! quickstart's layout (`(u64, desc i64, enum, String)`), and encoding them from the same values,
//! the derived type's own values on one side and the schema's `Value`s on the other.
//!
//! Run with `cargo bench --bench schema`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rowkey::schema::{Schema, Value};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum EventKind {
    PageView = 1,
    Click = 2,
    Purchase = 3,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct EventKey {
    user_id: u64,
    #[rowkey(desc)]
    ts_millis: i64,
    kind: EventKind,
    host: String,
}

fn keys() -> Vec<EventKey> {
    (0..1_000u64)
        .map(|i| EventKey {
            user_id: i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 100_000,
            ts_millis: 1_700_000_000_000 + i as i64 * 997,
            kind: [EventKind::PageView, EventKind::Click, EventKind::Purchase][i as usize % 3],
            host: format!("web-{}.example.com", i % 50),
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let keys = keys();
    let bytes: Vec<Vec<u8>> = keys.iter().map(|k| k.to_vec().unwrap()).collect();
    let schema = Schema::parse(&rowkey::lock::render(&keys[..1]).unwrap()).unwrap();
    let values: Vec<Vec<(&str, Value)>> = bytes.iter().map(|b| schema.decode(b).unwrap()).collect();
    for (v, b) in values.iter().zip(&bytes) {
        assert_eq!(&schema.encode(v).unwrap(), b);
    }

    let mut g = c.benchmark_group("quickstart key, 1,000 keys");
    g.bench_function("decode: derive", |b| {
        b.iter(|| {
            for key in &bytes {
                black_box(EventKey::decode(black_box(key)).unwrap());
            }
        })
    });
    g.bench_function("decode: schema", |b| {
        b.iter(|| {
            for key in &bytes {
                black_box(schema.decode(black_box(key)).unwrap());
            }
        })
    });
    g.bench_function("decode into one list: schema", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            for key in &bytes {
                schema.decode_into(black_box(key), &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("encode: derive", |b| {
        b.iter(|| {
            for key in &keys {
                black_box(black_box(key).to_vec().unwrap());
            }
        })
    });
    g.bench_function("encode: schema", |b| {
        b.iter(|| {
            for v in &values {
                black_box(schema.encode(black_box(v)).unwrap());
            }
        })
    });
    g.bench_function("encode into one buffer: derive", |b| {
        let mut out = [0u8; 64];
        b.iter(|| {
            for key in &keys {
                black_box(black_box(key).encode_into(&mut out).unwrap());
            }
        })
    });
    g.bench_function("encode into one buffer: schema", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            for v in &values {
                schema.encode_into(black_box(v), &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
