//! The README's salted event layout on Apache HBase, end to end through HBase's Thrift2 server: a
//! table pre-split at the layout's bucket boundaries, 20,000 events written in batches, a
//! time-range read with all 16 buckets at once merged back into time order, and the same plan
//! split at the table's region boundaries for parallel workers.
//!
//! Needs an HBase with its Thrift2 server: `.ci/servers/hbase.sh start` builds (Maven, JDK 17)
//! and starts a mini-cluster of 3 region servers and prints its address. Then
//!
//! ```sh
//! eval "$(bash .ci/servers/hbase.sh start)"
//! cargo run --release -p rowkey-hbase --example hbase
//! bash .ci/servers/hbase.sh stop
//! ```
//!
//! The address comes from `ROWKEY_HBASE_THRIFT` (`host:port`).

use std::time::Instant;

use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions};

/// The README's event key: a whole-key salt of 16 buckets in front of time and id, so a stream of
/// new events spreads over 16 regions instead of piling onto the last one.
#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 16))]
struct Event {
    ts_millis: u64,
    event_id: u32,
}

const FAMILY: &str = "e";
const EVENTS: u32 = 20_000;
const START_MILLIS: u64 = 1_700_000_000_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Ok(addr) = std::env::var("ROWKEY_HBASE_THRIFT") else {
        eprintln!(
            "no HBase: run `eval \"$(bash .ci/servers/hbase.sh start)\"` first, which sets \
             ROWKEY_HBASE_THRIFT"
        );
        std::process::exit(2);
    };
    let mut hbase = HBase::connect(&addr)?;
    let table = format!("example_events_{}", std::process::id());

    // One region per salt bucket: the split points are the layout's bucket boundaries.
    let splits = Event::split_keys(16);
    hbase.create_table(&table, FAMILY, &splits)?;
    assert_eq!(hbase.region_starts(&table)?, splits);
    println!(
        "{table}: {} regions, split at the bucket boundaries",
        splits.len() + 1
    );

    // 20,000 events, one every 10 ms, in batches of 1,000 (`putMultiple`).
    let started = Instant::now();
    let rows: Vec<(Vec<u8>, Vec<u8>)> = (0..EVENTS)
        .map(|i| {
            let event = Event {
                ts_millis: START_MILLIS + u64::from(i) * 10,
                event_id: i,
            };
            Ok((row_key(&event)?, i.to_be_bytes().to_vec()))
        })
        .collect::<Result<_, rowkey::EncodeError>>()?;
    for batch in rows.chunks(1_000) {
        hbase.put_rows(&table, FAMILY, batch)?;
    }
    println!("wrote {EVENTS} events in {:.2?}", started.elapsed());

    // One minute of events: 16 scanners at once, merged back into time order.
    let from = START_MILLIS + 60_000;
    let plan: Scan<Event> = Event::scan().ts_millis_range(from..from + 60_000).into();
    let started = Instant::now();
    let mut times = Vec::new();
    for row in hbase.read_rows(&table, &plan)? {
        times.push(Event::decode(&row?.key)?.ts_millis);
    }
    assert_eq!(times.len(), 6_000);
    assert!(
        times.windows(2).all(|w| w[0] < w[1]),
        "merged in time order"
    );
    println!(
        "read {} events of one minute from {} ranges, in time order, in {:.2?}",
        times.len(),
        plan.ranges().count(),
        started.elapsed()
    );

    // The same plan split at the table's region boundaries: one part a region, for workers in
    // parallel, each on a connection of its own; together every row once.
    let parts = plan.split(hbase.region_starts(&table)?);
    let started = Instant::now();
    let counts = std::thread::scope(|s| {
        let workers: Vec<_> = parts
            .iter()
            .map(|part| {
                let hbase = &hbase;
                let table = &table;
                s.spawn(move || {
                    let options = ReadOptions::default().with_page(500);
                    hbase
                        .read_rows_with(table, part, &options)?
                        .try_fold(0, |n, row| row.map(|_| n + 1))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker panicked"))
            .collect::<Result<Vec<usize>, rowkey_hbase::Error>>()
    })?;
    assert_eq!(counts.iter().sum::<usize>(), 6_000);
    println!(
        "{} workers, one region each, read {:?} rows in {:.2?}",
        parts.len(),
        counts,
        started.elapsed()
    );
    Ok(())
}
