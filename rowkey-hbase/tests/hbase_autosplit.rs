//! HBase's own splitting held against the lab's auto-split model: a time-first key written into a
//! table that starts as one region and splits by size (`ConstantSizeRegionSplitPolicy`, a small
//! `MAX_FILESIZE`, a flush after every batch so that HBase looks at the size), beside
//! `Simulation::auto_split` with the row count that fills a region to that size. Prints both
//! tables' regions (`cargo test -p rowkey-hbase --test hbase_autosplit -- --nocapture`); asserts
//! only what holds from run to run. `ROWKEY_HBASE_PACE_MS=0` writes as fast as HBase takes them
//! (the lab's splits are instant, HBase's are not: then only the figures are shown).

mod common;

use common::Server;
use rowkey::regions::Regions;
use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions};
use rowkey_lab::Simulation;

/// The classic hotspot: the time first.
#[derive(RowKey)]
struct TimeFirst {
    ts_millis: u64,
    event_id: u32,
}

const T0: u64 = 1_700_000_000_000;
const WRITES: u32 = 100_000;
const BATCH: u32 = 1_000;
/// The pause after each batch of 1,000 rows, by default: 4,000 rows a second at most.
const PACE_MS: u64 = 250;
/// HBase splits a region whose store is over this many bytes.
const MAX_FILESIZE: u64 = 512 * 1024;

/// The rows of each region of `table`, in key order.
fn rows_per_region(hbase: &mut HBase, table: &str) -> Vec<usize> {
    let plan: Scan<TimeFirst> = TimeFirst::scan().into();
    let starts = hbase.region_starts(table).unwrap();
    plan.split(&starts)
        .iter()
        .map(|part| {
            hbase
                .read_rows_with(table, part, &ReadOptions::default())
                .unwrap()
                .map(|r| r.map(|_| 1))
                .sum::<Result<usize, _>>()
                .unwrap()
        })
        .collect()
}

#[test]
fn hbase_splits_a_time_first_table_as_the_labs_auto_split_model_does() {
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    server.control("POST", "/balancer?on=false");
    let table = &format!("autosplit_{}", std::process::id());
    server.control(
        "POST",
        &format!("/create-auto-split?table={table}&family=d&max-filesize={MAX_FILESIZE}"),
    );

    let key = |i: u32| {
        row_key(&TimeFirst {
            ts_millis: T0 + u64::from(i) * 10,
            event_id: i,
        })
        .unwrap()
    };
    // `ROWKEY_HBASE_PACE_MS` sets the pause (0: as fast as HBase takes the writes).
    let pace_ms = std::env::var("ROWKEY_HBASE_PACE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(PACE_MS);
    let pace = std::time::Duration::from_millis(pace_ms);
    let started = std::time::Instant::now();
    // The bytes a row takes on disk, from the first batch flushed into the single region.
    let mut written = 0;
    let mut sizes = String::new();
    while written < WRITES {
        let batch: Vec<(Vec<u8>, Vec<u8>)> = (written..written + BATCH)
            .map(|i| (key(i), [7u8; 16].to_vec()))
            .collect();
        hbase.put_rows(table, "d", &batch).unwrap();
        written += BATCH;
        // Paced: HBase splits in the background (the parent closed, the daughters opened and
        // compacted off the parent's files before they can split again).
        std::thread::sleep(pace);
        if written == BATCH {
            server.control("POST", &format!("/flush?table={table}"));
            sizes = server.control("GET", &format!("/store-sizes?table={table}"));
        }
    }
    let took = started.elapsed();
    let first: u64 = sizes
        .lines()
        .filter_map(|l| l.split('\t').nth(1))
        .map(|b| b.parse::<u64>().unwrap())
        .sum();
    let bytes_per_row = first as f64 / f64::from(BATCH);
    // HBase looks at the size after each flush: a region splits at the first batch that takes it
    // over MAX_FILESIZE, so the lab's region holds that many rows when it splits.
    let rows_over = (MAX_FILESIZE as f64 / bytes_per_row).ceil() as u64;
    let max_rows = rows_over.div_ceil(u64::from(BATCH)) * u64::from(BATCH);
    // Splits finish after the flush that asked for them.
    let mut regions = 0;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_secs(3));
        let now = hbase.region_starts(table).unwrap().len() + 1;
        if now == regions {
            break;
        }
        regions = now;
    }
    let measured = rows_per_region(&mut hbase, table);
    assert_eq!(measured.iter().sum::<usize>(), WRITES as usize);

    let mut sim = Simulation::auto_split(max_rows);
    for i in 0..WRITES {
        sim.write(u64::from(i), &key(i));
    }
    let report = sim.report(1);
    let lab = Regions::new(report.regions().to_vec()).unwrap();
    let mut counter = lab.counter();
    for i in 0..WRITES {
        counter.add(&key(i));
    }
    let predicted = counter.counts().to_vec();
    println!(
        "{bytes_per_row:.1} bytes a row on disk: a region of {MAX_FILESIZE} bytes holds {rows_over} rows, \
         {max_rows} at the flush that takes it over"
    );
    println!(
        "HBase, {WRITES} writes in {:.1} s ({:.0} a second): {} regions, rows per region {measured:?}",
        took.as_secs_f64(),
        f64::from(WRITES) / took.as_secs_f64(),
        measured.len()
    );
    println!(
        "lab (auto_split({max_rows})): {} regions, rows per region {predicted:?}",
        predicted.len()
    );
    assert!(measured.len() > 1, "HBase never split the table");
    // Paced, HBase keeps up with its splits, and the lab's instant splits come close: as many
    // regions within 30%, and no region left behind holding more rows than the lab lets one
    // reach. Faster, HBase's splits lag the writes (each takes a procedure on the master and a
    // compaction of the daughters), and its regions grow past the size.
    if pace_ms >= PACE_MS {
        let lab = predicted.len() as f64;
        let hbase = measured.len() as f64;
        assert!(
            (hbase - lab).abs() <= 0.3 * lab,
            "HBase {hbase} regions, the lab {lab}"
        );
        let closed = &measured[..measured.len() - 1];
        assert!(
            closed.iter().all(|&rows| rows as u64 <= max_rows),
            "a region of more than {max_rows} rows: {measured:?}"
        );
    }
}
