//! The lab held against HBase's own counters: one workload of 100,000 writes, under three
//! layouts (timestamp first, salted, hashed), into a real HBase table pre-split into the regions
//! the lab models; each region's write count read back from HBase (`Admin.getRegionMetrics`,
//! through the control endpoint of `.ci/servers/hbase.sh`), the balancer off. The lab's busiest
//! region's share of the writes must be within 5 percentage points of HBase's.

mod common;

use std::collections::BTreeMap;

use common::{Rng, Server};
use rowkey::regions::Regions;
use rowkey::RowKey;
use rowkey_hbase::{row_key, HBase};
use rowkey_lab::Simulation;

/// The classic hotspot: the time first.
#[derive(RowKey)]
struct TimeFirst {
    ts_millis: u64,
    event_id: u32,
}

/// The same behind 8 salt buckets.
#[derive(RowKey)]
#[rowkey(salt(buckets = 8))]
struct Salted {
    ts_millis: u64,
    event_id: u32,
}

/// The same behind an MD5 prefix of the event id.
#[derive(RowKey)]
struct Hashed {
    #[rowkey(hash_prefix(len = 4))]
    event_id: u32,
    ts_millis: u64,
}

const WRITES: u64 = 100_000;
const REGIONS: usize = 8;
const T0: u64 = 1_700_000_000_000;

/// The workload: one event every 10 ms, random ids.
fn events() -> Vec<(u64, u32)> {
    let mut rng = Rng(42);
    (0..WRITES)
        .map(|i| (T0 + i * 10, rng.next() as u32))
        .collect()
}

/// Split points for a layout with no uniform split: `REGIONS - 1` evenly spaced keys of the
/// first tenth of the stream, as a store's samples of yesterday's data would give.
fn sampled_splits(keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut sample: Vec<Vec<u8>> = keys[..keys.len() / 10].to_vec();
    sample.sort();
    (1..REGIONS)
        .map(|i| sample[i * sample.len() / REGIONS].clone())
        .collect()
}

/// The lab's and HBase's busiest region's share of `keys` written into a table pre-split at
/// `splits`, and HBase's writes per region server.
fn shares(
    server: &Server,
    hbase: &mut HBase,
    name: &str,
    keys: &[Vec<u8>],
    splits: Vec<Vec<u8>>,
) -> (f64, f64, Vec<u64>) {
    let mut sim = Simulation::presplit(Regions::new(splits.clone()).unwrap());
    for (t, key) in keys.iter().enumerate() {
        sim.write(t as u64, key);
    }
    // One window over the whole run: the busiest region's share of every write.
    let lab = sim.report(u64::MAX).hottest_share();

    let table = format!("lab_{name}_{}", std::process::id());
    hbase.create_table(&table, "d", &splits).unwrap();
    assert_eq!(hbase.region_starts(&table).unwrap(), splits);
    for batch in keys.chunks(1_000) {
        let rows: Vec<(Vec<u8>, Vec<u8>)> = batch.iter().map(|k| (k.clone(), Vec::new())).collect();
        hbase.put_rows(&table, "d", &rows).unwrap();
    }
    let metrics = server.control("GET", &format!("/metrics?table={table}"));
    let mut per_region = Vec::new();
    let mut per_server: BTreeMap<String, u64> = BTreeMap::new();
    for line in metrics.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let writes: u64 = fields[2].parse().unwrap();
        per_region.push(writes);
        *per_server.entry(fields[1].to_string()).or_default() += writes;
    }
    assert_eq!(per_region.len(), REGIONS, "{metrics}");
    let total: u64 = per_region.iter().sum();
    assert_eq!(
        total,
        keys.len() as u64,
        "HBase counted {total} writes: {metrics}"
    );
    let measured = *per_region.iter().max().unwrap() as f64 / total as f64;
    (lab, measured, per_server.into_values().collect())
}

#[test]
fn the_labs_busiest_region_is_hbases_within_five_points() {
    let server = Server::get();
    server.control("POST", "/balancer?on=false");
    let mut hbase = HBase::connect(&server.thrift).unwrap();
    let events = events();

    // The workload's keys under one layout.
    let keys = |key: fn(u64, u32) -> Vec<u8>| -> Vec<Vec<u8>> {
        events.iter().map(|&(ts, id)| key(ts, id)).collect()
    };
    let time_first = keys(|ts_millis, event_id| {
        row_key(&TimeFirst {
            ts_millis,
            event_id,
        })
        .unwrap()
    });
    let salted = keys(|ts_millis, event_id| {
        row_key(&Salted {
            ts_millis,
            event_id,
        })
        .unwrap()
    });
    let hashed = keys(|ts_millis, event_id| {
        row_key(&Hashed {
            event_id,
            ts_millis,
        })
        .unwrap()
    });
    let layouts = [
        ("time_first", &time_first, sampled_splits(&time_first)),
        ("salted", &salted, Salted::split_keys(REGIONS)),
        ("hashed", &hashed, Hashed::split_keys(REGIONS)),
    ];
    for (name, keys, splits) in layouts {
        let (lab, hbase_share, servers) = shares(&server, &mut hbase, name, keys, splits);
        eprintln!(
            "{name}: busiest region's share, lab {lab:.4}, HBase {hbase_share:.4}; \
             HBase's writes per region server {servers:?}"
        );
        assert!(
            (lab - hbase_share).abs() <= 0.05,
            "{name}: lab {lab}, HBase {hbase_share}"
        );
    }
}
