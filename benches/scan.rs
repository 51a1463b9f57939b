//! Scan planning cost, side by side with encoding one key of the same layout: a single-range plan
//! on a fixed layout should cost about one key encode (and allocates nothing: see
//! tests/no_alloc.rs); a 1,000-value IN list is planned once per query. The same two plans on a
//! layout with a string field show the general planner, which the fixed lane bypasses.
//!
//! Run with `cargo bench --bench scan`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user: u64,
    #[rowkey(desc)]
    ts: i64,
    kind: u32,
}

#[derive(RowKey)]
struct Metric {
    host: String,
    #[rowkey(desc)]
    ts: i64,
}

fn planning(c: &mut Criterion) {
    let mut group = c.benchmark_group("scan planning (fixed layout u64, desc i64, u32)");
    group.bench_function("encode one key (encode_into)", |b| {
        let mut buf = [0u8; Event::LEN];
        b.iter(|| {
            let key = Event {
                user: black_box(42),
                ts: black_box(1_700_000_000_000),
                kind: black_box(7),
            };
            key.encode_into(&mut buf).unwrap();
            black_box(&buf);
        })
    });
    group.bench_function("single-range plan: user(u).ts_range(a..b).ranges()", |b| {
        b.iter(|| {
            let plan = Event::scan()
                .user(black_box(42))
                .ts_range(black_box(1_700_000_000_000)..black_box(1_700_000_100_000));
            for r in plan.ranges() {
                black_box((r.start(), r.stop()));
            }
        })
    });
    group.bench_function("single-range plan: user(u).ranges()", |b| {
        b.iter(|| {
            for r in Event::scan().user(black_box(42)).ranges() {
                black_box((r.start(), r.stop()));
            }
        })
    });
    group.bench_function("encode one key (to_vec, allocating)", |b| {
        b.iter(|| {
            let key = Event {
                user: black_box(42),
                ts: black_box(1_700_000_000_000),
                kind: black_box(7),
            };
            black_box(key.to_vec().unwrap());
        })
    });
    let users: Vec<u64> = (0..1_000u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 100_000)
        .collect();
    group.bench_function("IN list of 1,000 values: user_in(..).ranges()", |b| {
        b.iter(|| {
            let plan = Event::scan().user_in(black_box(&users).iter().copied());
            black_box(plan.ranges().count());
        })
    });
    group.finish();

    // The general planner, for layouts outside the fixed lane: a string field makes keys vary in
    // length.
    let mut group = c.benchmark_group("scan planning (variable layout String, desc i64)");
    group.bench_function("single-range plan: host(h).ts_range(a..b).ranges()", |b| {
        b.iter(|| {
            let plan = Metric::scan()
                .host(black_box("web-17"))
                .ts_range(black_box(1_700_000_000_000)..black_box(1_700_000_100_000));
            for r in plan.ranges() {
                black_box((r.start(), r.stop()));
            }
        })
    });
    let hosts: Vec<String> = (0..1_000u64)
        .map(|i| format!("web-{}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 100_000))
        .collect();
    group.bench_function("IN list of 1,000 values: host_in(..).ranges()", |b| {
        b.iter(|| {
            let plan = Metric::scan().host_in(black_box(&hosts));
            black_box(plan.ranges().count());
        })
    });
    // The floor of that plan: what any planner must do for it, written directly. Each value
    // escaped and terminated, the keys sorted and deduplicated, and each one's stop built.
    group.bench_function("IN list floor: escape, sort, dedup, stops", |b| {
        b.iter(|| {
            let mut keys: Vec<Vec<u8>> = black_box(&hosts)
                .iter()
                .map(|h| {
                    let mut k = Vec::with_capacity(h.len() + 2);
                    for &byte in h.as_bytes() {
                        k.push(byte);
                        if byte == 0 {
                            k.push(0xFF);
                        }
                    }
                    k.extend_from_slice(&[0, 1]);
                    k
                })
                .collect();
            keys.sort_unstable();
            keys.dedup();
            let ranges: Vec<(Vec<u8>, Vec<u8>)> = keys
                .into_iter()
                .map(|k| {
                    let stop = rowkey::KeyRange::prefix(&k).stop().to_vec();
                    (k, stop)
                })
                .collect();
            black_box(ranges.len());
        })
    });
    group.finish();
}

criterion_group!(benches, planning);
criterion_main!(benches);
