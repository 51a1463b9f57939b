//! Scan planning cost, side by side with encoding one key of the same layout: a single-range plan
//! on a fixed layout should cost about one key encode (and allocates nothing: see
//! tests/no_alloc.rs); a 1,000-value IN list is planned once per query. The same two plans on a
//! layout with a string field show the general planner, which the fixed lane bypasses.
//!
//! Each plan is measured beside the same ranges built by hand, in the same group; a check outside
//! the timed loop asserts that the hand-written bytes are the plan's.
//!
//! Run with `cargo bench --bench scan`.

use std::hint::black_box;
use std::ops::Range;

use criterion::{criterion_group, criterion_main, Criterion};
use rowkey::{KeyRange, RowKey};

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

#[derive(RowKey)]
struct UserTs {
    user: u64,
    #[rowkey(desc)]
    ts: i64,
}

/// The bounds of the single-range benchmarks, `a..b` on the desc `ts` field.
const TS: Range<i64> = 1_700_000_000_000..1_700_000_100_000;

/// A desc i64 as rowkey stores it: the sign bit flipped, then every bit inverted, big-endian.
#[inline(always)]
fn desc_i64(v: i64) -> [u8; 8] {
    (!((v as u64) ^ (1 << 63))).to_be_bytes()
}

/// A string field followed by other fields, by hand: each 00 byte becomes 00 FF, then 00 01.
#[inline(always)]
fn escape_terminated(s: &str, out: &mut Vec<u8>) {
    for &byte in s.as_bytes() {
        out.push(byte);
        if byte == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, 1]);
}

/// The HBase stop row after every key that starts with `key`, in place: the trailing FF bytes
/// dropped and the last byte incremented. Returns the stop's length (0: the end of the table).
#[inline(always)]
fn stop_row_in_place(key: &mut [u8]) -> usize {
    let mut n = key.len();
    while n > 0 && key[n - 1] == 0xFF {
        n -= 1;
    }
    if n > 0 {
        key[n - 1] += 1;
    }
    n
}

/// The range of `ts` in `a..b` after the bytes of the fields bound before it, by hand. The desc
/// field stores the newest first: the range starts at `desc(b - 1)` and stops after every key
/// that starts with `desc(a)`. The stop is a clone of the prefix with room for the 8 bytes (a bare
/// `clone()` would reallocate on the append).
#[inline(always)]
fn hand_desc_ts_range(mut start: Vec<u8>, ts: Range<i64>) -> (Vec<u8>, Vec<u8>) {
    let mut stop = Vec::with_capacity(start.len() + 8);
    stop.extend_from_slice(&start);
    start.extend_from_slice(&desc_i64(ts.end - 1));
    stop.extend_from_slice(&desc_i64(ts.start));
    let n = stop_row_in_place(&mut stop);
    stop.truncate(n);
    (start, stop)
}

/// The variable layout's range written by hand into the type a plan yields: the host escaped
/// into a stack array, the two timestamps appended, and the ends handed to `KeyRange::new`, then
/// iterated as a plan's one range is. The cost of producing a `KeyRange`, with no planning.
#[inline(always)]
fn hand_host_key_range(host: &str, ts: Range<i64>) -> KeyRange {
    let mut start = [0u8; 64];
    let mut n = 0;
    for &byte in host.as_bytes() {
        start[n] = byte;
        n += 1;
        if byte == 0 {
            start[n] = 0xFF;
            n += 1;
        }
    }
    start[n..n + 2].copy_from_slice(&[0, 1]);
    n += 2;
    let mut stop = start;
    start[n..n + 8].copy_from_slice(&desc_i64(ts.end - 1));
    stop[n..n + 8].copy_from_slice(&desc_i64(ts.start));
    let m = stop_row_in_place(&mut stop[..n + 8]);
    KeyRange::new(&start[..n + 8], &stop[..m])
}

/// The same range on the fixed layout `(u64, desc i64)` in two stack arrays, with the stop's
/// length.
#[inline(always)]
fn hand_fixed_range_arrays(user: u64, ts: Range<i64>) -> ([u8; 16], [u8; 16], usize) {
    let (mut start, mut stop) = ([0u8; 16], [0u8; 16]);
    start[..8].copy_from_slice(&user.to_be_bytes());
    stop[..8].copy_from_slice(&user.to_be_bytes());
    start[8..].copy_from_slice(&desc_i64(ts.end - 1));
    stop[8..].copy_from_slice(&desc_i64(ts.start));
    let n = stop_row_in_place(&mut stop);
    (start, stop, n)
}

/// Checked once, outside the timed loops: the plan is one range with exactly these bytes.
fn assert_single_range(plan: impl Iterator<Item = KeyRange>, start: &[u8], stop: &[u8]) {
    let ranges: Vec<KeyRange> = plan.collect();
    assert_eq!(ranges.len(), 1, "{ranges:?}");
    assert_eq!((ranges[0].start(), ranges[0].stop()), (start, stop));
}

/// The floor of a string IN list: what any planner must do for it, written directly. Each value
/// escaped and terminated, the keys sorted and deduplicated, and each one's stop built.
fn in_list_floor(hosts: &[String]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut keys: Vec<Vec<u8>> = hosts
        .iter()
        .map(|h| {
            let mut k = Vec::with_capacity(h.len() + 2);
            escape_terminated(h, &mut k);
            k
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            let stop = KeyRange::prefix(&k).stop().to_vec();
            (k, stop)
        })
        .collect()
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

    // The single-range plan of a two-field fixed layout beside the same range written by hand.
    let mut group = c.benchmark_group("scan planning (fixed layout u64, desc i64)");
    let (start, stop, n) = hand_fixed_range_arrays(42, TS);
    assert_single_range(
        UserTs::scan().user(42).ts_range(TS).ranges(),
        &start,
        &stop[..n],
    );
    let (start, stop) = hand_desc_ts_range(42u64.to_be_bytes().to_vec(), TS);
    assert_single_range(UserTs::scan().user(42).ts_range(TS).ranges(), &start, &stop);
    group.bench_function("single-range plan: user(u).ts_range(a..b).ranges()", |b| {
        b.iter(|| {
            let plan = UserTs::scan()
                .user(black_box(42))
                .ts_range(black_box(1_700_000_000_000)..black_box(1_700_000_100_000));
            for r in plan.ranges() {
                black_box((r.start(), r.stop()));
            }
        })
    });
    group.bench_function("single-range plan by hand: two Vec<u8>", |b| {
        b.iter(|| {
            let mut start = Vec::with_capacity(16);
            start.extend_from_slice(&black_box(42u64).to_be_bytes());
            let (start, stop) = hand_desc_ts_range(
                start,
                black_box(1_700_000_000_000)..black_box(1_700_000_100_000),
            );
            black_box((start.as_slice(), stop.as_slice()));
        })
    });
    group.bench_function(
        "single-range plan by hand: two [u8; 16] on the stack",
        |b| {
            b.iter(|| {
                let (start, stop, n) = hand_fixed_range_arrays(
                    black_box(42),
                    black_box(1_700_000_000_000)..black_box(1_700_000_100_000),
                );
                black_box((&start[..], &stop[..n]));
            })
        },
    );
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
    let hand_host_range = |host: &str, ts: Range<i64>| {
        let mut start = Vec::with_capacity(host.len() + 2 + 8);
        escape_terminated(host, &mut start);
        hand_desc_ts_range(start, ts)
    };
    let (start, stop) = hand_host_range("web-17", TS);
    assert_single_range(
        Metric::scan().host("web-17").ts_range(TS).ranges(),
        &start,
        &stop,
    );
    group.bench_function("single-range plan by hand: escape, clone, append ts", |b| {
        b.iter(|| {
            let (start, stop) = hand_host_range(
                black_box("web-17"),
                black_box(1_700_000_000_000)..black_box(1_700_000_100_000),
            );
            black_box((start.as_slice(), stop.as_slice()));
        })
    });
    assert_single_range(
        std::iter::once(hand_host_key_range("web-17", TS)),
        &start,
        &stop,
    );
    group.bench_function(
        "single range by hand into a KeyRange: stack arrays, KeyRange::new",
        |b| {
            b.iter(|| {
                let range = hand_host_key_range(
                    black_box("web-17"),
                    black_box(1_700_000_000_000)..black_box(1_700_000_100_000),
                );
                for r in std::iter::once(range) {
                    black_box((r.start(), r.stop()));
                }
            })
        },
    );
    let hosts: Vec<String> = (0..1_000u64)
        .map(|i| format!("web-{}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 100_000))
        .collect();
    group.bench_function("IN list of 1,000 values: host_in(..).ranges()", |b| {
        b.iter(|| {
            let plan = Metric::scan().host_in(black_box(&hosts));
            black_box(plan.ranges().count());
        })
    });
    // The floor of that plan (`in_list_floor`), checked once to give the plan's ranges.
    let planned: Vec<(Vec<u8>, Vec<u8>)> = Metric::scan()
        .host_in(&hosts)
        .ranges()
        .map(|r| (r.start().to_vec(), r.stop().to_vec()))
        .collect();
    assert_eq!(in_list_floor(&hosts), planned);
    group.bench_function("IN list floor: escape, sort, dedup, stops", |b| {
        b.iter(|| black_box(in_list_floor(black_box(&hosts)).len()))
    });
    group.finish();
}

criterion_group!(benches, planning);
criterion_main!(benches);
