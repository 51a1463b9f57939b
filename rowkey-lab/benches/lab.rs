//! The key lab's cost of recording a write (`Simulation::write` on a pre-split table) beside the
//! same work by hand: a `partition_point` over the same 1,000 split points and a counter
//! increment. Each measures 10,000 writes into a fresh table (made outside the timed part, the
//! split points copied afresh for both).
//!
//! Run with `cargo bench -p rowkey-lab --bench lab`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rowkey::regions::Regions;
use rowkey::RowKey;
use rowkey_lab::Simulation;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Event {
    user: u64,
    #[rowkey(desc)]
    ts: i64,
}

fn record(c: &mut Criterion) {
    let keys: Vec<Vec<u8>> = (0..10_000u64)
        .map(|i| {
            let user = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 1_000_000;
            Event {
                user,
                ts: 1_700_000_000_000 + i as i64,
            }
            .to_vec()
            .unwrap()
        })
        .collect();
    // 1,000 split points: every 10th of 10,000 other keys, sorted.
    let mut others: Vec<Vec<u8>> = (0..10_000u64)
        .map(|i| {
            Event {
                user: i * 97,
                ts: i as i64,
            }
            .to_vec()
            .unwrap()
        })
        .collect();
    others.sort();
    others.dedup();
    let splits: Vec<Vec<u8>> = others
        .iter()
        .step_by(others.len() / 1_000)
        .take(1_000)
        .cloned()
        .collect();
    let regions = Regions::new(splits.clone()).unwrap();
    assert_eq!(regions.len(), 1_001);

    // Checked once: both count the same writes in the same regions.
    let mut sim = Simulation::presplit(regions.clone());
    let mut counts = vec![0u64; splits.len() + 1];
    for k in &keys {
        sim.write(0, k);
        counts[splits.partition_point(|s| s.as_slice() <= k.as_slice())] += 1;
    }
    let report = sim.report(1);
    let by_lab: Vec<u64> = report.windows()[0]
        .regions()
        .iter()
        .map(|r| r.writes)
        .collect();
    assert_eq!(by_lab, counts);

    let mut group = c.benchmark_group("key lab: 10,000 writes into 1,001 pre-split regions");
    group.bench_function("Simulation::write", |b| {
        b.iter_batched(
            || Simulation::presplit(regions.clone()),
            |mut sim| {
                for (t, k) in keys.iter().enumerate() {
                    sim.write(black_box(t as u64), black_box(k));
                }
                sim
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("by hand: partition_point and a counter", |b| {
        b.iter_batched(
            // The split points copied afresh, as the simulation's table is.
            || (splits.clone(), vec![0u64; splits.len() + 1]),
            |(splits, mut counts)| {
                for k in &keys {
                    let k = black_box(k.as_slice());
                    counts[splits.partition_point(|s| s.as_slice() <= k)] += 1;
                }
                (splits, counts)
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, record);
criterion_main!(benches);
