//! The threads and connections of a read, counted: a plan of 256 salt buckets keeps all 256
//! ranges open for its merge, on at most its concurrency of threads and connections. A test
//! binary of its own, so that no other read runs in the process while its threads are counted.

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::proxy::Faults;
use common::{proxy_on_thread, Server};
use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions};

const T0: u64 = 1_700_000_000_000;

/// A 256-bucket salted key: its plans keep 256 ranges open for the merge.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 256))]
struct Wide {
    ts_millis: u64,
    event_id: u32,
}

/// The threads of this process named as the reads' workers are (`rowkey-hbase-read`; the
/// kernel keeps 15 bytes of a name).
fn reading_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim_end() == "rowkey-hbase-re")
        .count()
}

/// A read of a 256-bucket salted plan with the default options (16 at once) keeps all 256
/// buckets open for its merge on 16 threads and 16 connections: counted, the threads by name
/// while the read runs, the connections by the proxy in front of the server.
#[test]
fn a_read_of_256_buckets_uses_at_most_its_concurrency_of_threads_and_connections() {
    let server = Server::get();
    let table = format!("wide_{}", std::process::id());
    let mut admin = HBase::connect(&server.thrift).unwrap();
    admin
        .create_table(&table, "d", &Wide::split_keys(256))
        .unwrap();
    let mut expected: Vec<Vec<u8>> = (0..20_000u32)
        .map(|i| {
            row_key(&Wide {
                ts_millis: T0 + u64::from(i),
                event_id: i,
            })
            .unwrap()
        })
        .collect();
    let rows: Vec<(Vec<u8>, Vec<u8>)> = expected.iter().map(|k| (k.clone(), vec![1])).collect();
    for batch in rows.chunks(1_000) {
        admin.put_rows(&table, "d", batch).unwrap();
    }
    // In the order of the key after the salt, as the merge gives them.
    expected.sort_by(|a, b| a[1..].cmp(&b[1..]));

    let through = proxy_on_thread(&server.thrift, Faults::NONE);
    let hbase = HBase::connect(&through.addr.to_string()).unwrap();
    let opened = through.connections();
    let before = reading_threads();
    let most = Arc::new(AtomicUsize::new(0));
    let reading = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (most, reading) = (most.clone(), reading.clone());
        std::thread::spawn(move || {
            while reading.load(Ordering::Relaxed) {
                most.fetch_max(reading_threads(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let plan: Scan<Wide> = Wide::scan().ts_millis_range(T0..).into();
    assert_eq!(plan.ranges().count(), 256);
    let keys: Vec<Vec<u8>> = hbase
        .read_rows_with(&table, &plan, &ReadOptions::default().with_page(100))
        .unwrap()
        .map(|r| r.unwrap().key)
        .collect();
    reading.store(false, Ordering::Relaxed);
    sampler.join().unwrap();
    assert_eq!(keys, expected);
    let (threads, connections) = (
        most.load(Ordering::Relaxed) - before,
        through.connections() - opened,
    );
    println!(
        "256 buckets, concurrency 16: at most {threads} reading threads, {connections} connections"
    );
    assert!((1..=16).contains(&threads), "{threads} threads");
    assert!((1..=16).contains(&connections), "{connections} connections");
}
