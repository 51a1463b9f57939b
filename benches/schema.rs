//! `rowkey::schema` beside the derive doing the same work: decoding the same 1,000 keys of the
//! quickstart's layout (`(u64, desc i64, enum, String)`), and encoding them from the same values,
//! the derived type's own values on one side and the schema's `Value`s on the other.
//!
//! Run with `cargo bench --bench schema`. After criterion's figures it prints each ratio measured
//! a second way, for a machine whose speed drifts between criterion's measurements: the two sides
//! timed in turns, 1,000 keys each, 301 rounds, and the median of the rounds' ratios.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use rowkey::schema::{Schema, Value};
use rowkey::RowKey;

/// The quickstart's key.
#[path = "../tests/common/quickstart.rs"]
mod quickstart;
use quickstart::{EventKey, KINDS};

fn keys() -> Vec<EventKey> {
    (0..1_000u64)
        .map(|i| EventKey {
            user_id: i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 100_000,
            ts_millis: 1_700_000_000_000 + i as i64 * 997,
            kind: KINDS[i as usize % 3],
            host: format!("web-{}.example.com", i % 50),
        })
        .collect()
}

/// The keys, their bytes, the schema and its values for the same keys.
fn setup() -> (Vec<EventKey>, Vec<Vec<u8>>, Schema) {
    let keys = keys();
    let bytes: Vec<Vec<u8>> = keys.iter().map(|k| k.to_vec().unwrap()).collect();
    let schema = Schema::parse(&rowkey::lock::render(&keys[..1]).unwrap()).unwrap();
    (keys, bytes, schema)
}

fn bench(c: &mut Criterion) {
    let (keys, bytes, schema) = setup();
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

/// The median over `rounds` of `schema`'s time over `derive`'s, the two timed one after the other
/// in each round, so that both see the machine at the same speed.
fn ratio_in_turns(
    rounds: usize,
    mut derive: impl FnMut(),
    mut schema: impl FnMut(),
) -> (f64, f64, f64) {
    let mut ratios: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            derive();
            let d = t.elapsed();
            let t = Instant::now();
            schema();
            t.elapsed().as_secs_f64() / d.as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q) as usize];
    (at(0.25), at(0.5), at(0.75))
}

fn in_turns() {
    let (keys, bytes, schema) = setup();
    let values: Vec<Vec<(&str, Value)>> = bytes.iter().map(|b| schema.decode(b).unwrap()).collect();
    let mut list = Vec::new();
    let derive_decode = || {
        for key in &bytes {
            black_box(EventKey::decode(black_box(key)).unwrap());
        }
    };
    let derive_encode = || {
        for key in &keys {
            black_box(black_box(key).to_vec().unwrap());
        }
    };
    let rows: [(&str, (f64, f64, f64)); 3] = [
        (
            "decode (Schema::decode / EventKey::decode)",
            ratio_in_turns(301, derive_decode, || {
                for key in &bytes {
                    black_box(schema.decode(black_box(key)).unwrap());
                }
            }),
        ),
        (
            "decode into one list (Schema::decode_into / EventKey::decode)",
            ratio_in_turns(301, derive_decode, || {
                for key in &bytes {
                    schema.decode_into(black_box(key), &mut list).unwrap();
                    black_box(&list);
                }
            }),
        ),
        (
            "encode (Schema::encode / to_vec)",
            ratio_in_turns(301, derive_encode, || {
                for v in &values {
                    black_box(schema.encode(black_box(v)).unwrap());
                }
            }),
        ),
    ];
    println!("\nschema against derive, timed in turns (1,000 keys a turn, 301 rounds):");
    for (name, (q1, median, q3)) in rows {
        println!("  {name}: median {median:.2}x (quartiles {q1:.2}x to {q3:.2}x)");
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    in_turns();
}
