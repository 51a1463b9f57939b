//! Reads that survive faults on a real HBase (the mini-cluster of `.ci/servers/hbase.sh`; the
//! region server this test stops is replaced by a new one at its end): 100,000 rows of a salted table
//! read through (a) 20 connection cuts by the fault proxy, in the server's default mode, in
//! framed compact and over HTTPS, (b) a region split forced mid-read,
//! (c) a region server stopped without warning mid-read, its regions reassigned by the master,
//! (d) a reader that pauses until the server drops its scanners, (e) the Thrift2 server restarted
//! mid-read.
//! Each read gives every row once, in the plan's order; the time of each against the uncut read
//! is printed (`cargo test -p rowkey-hbase --test hbase_faults -- --nocapture`).

mod common;

use std::time::{Duration, Instant};

use common::proxy::Faults;
use common::proxy_on_thread as proxy;
use common::{Rng, Server};
use rowkey::retry::RetryPolicy;
use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions};

/// The time-first event key behind 8 salt buckets.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 8))]
struct Event {
    ts_millis: u64,
    event_id: u32,
}

const T0: u64 = 1_700_000_000_000;
const ROWS: usize = 100_000;
/// The events span this many milliseconds.
const SPAN: u64 = 3_600_000;

/// The plan of every event, read through `hbase` in pages of 500; `midway` runs once after the
/// 30,000th row. Checks that every row written comes back once, in the order of the key after
/// the salt, and gives the time taken and the requests sent again.
fn read_all(
    hbase: &HBase,
    table: &str,
    expected: &[Vec<u8>],
    what: &str,
    midway: impl FnOnce(),
) -> (Duration, u64) {
    let plan: Scan<Event> = Event::scan().ts_millis_range(T0..).into();
    let options = ReadOptions::default().with_page(500).with_retry(
        RetryPolicy::default()
            .with_attempts(20)
            .with_deadline(Duration::from_secs(30)),
    );
    let started = Instant::now();
    let mut midway = Some(midway);
    let mut keys = Vec::with_capacity(expected.len());
    let mut rows = hbase.read_rows_with(table, &plan, &options).unwrap();
    for row in rows.by_ref() {
        let row = row.unwrap_or_else(|e| panic!("{what}: {e} after {} rows", keys.len()));
        keys.push(row.key);
        if keys.len() == 30_000 {
            midway.take().unwrap()();
        }
    }
    let took = started.elapsed();
    let mut seen = keys.clone();
    seen.sort();
    seen.dedup();
    let repeated = keys.len() - seen.len();
    let lost = expected
        .iter()
        .filter(|k| seen.binary_search(k).is_err())
        .count();
    println!(
        "{what}: {} rows in {:.2} s, {lost} lost, {repeated} repeated, {} requests sent again",
        keys.len(),
        took.as_secs_f64(),
        rows.retries()
    );
    assert_eq!(repeated, 0, "{what}: rows read twice");
    assert_eq!(lost, 0, "{what}: rows lost");
    assert_eq!(seen, expected, "{what}: rows that were not written");
    assert!(
        keys.windows(2).all(|w| w[0][1..] < w[1][1..]),
        "{what}: not in the order of the key after the salt"
    );
    (took, rows.retries())
}

#[test]
fn reads_lose_and_repeat_nothing_through_cuts_splits_and_a_dead_region_server() {
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    server.control("POST", "/balancer?on=false");
    let table = "faults";
    hbase
        .create_table(table, "d", &Event::split_keys(8))
        .unwrap();

    let mut rng = Rng(37);
    let rows: Vec<(Vec<u8>, Vec<u8>)> = (0..ROWS)
        .map(|_| {
            let e = Event {
                ts_millis: T0 + rng.below(SPAN),
                event_id: rng.next() as u32,
            };
            (row_key(&e).unwrap(), e.event_id.to_be_bytes().to_vec())
        })
        .collect();
    let started = Instant::now();
    for batch in rows.chunks(5_000) {
        hbase.put_rows(table, "d", batch).unwrap();
    }
    println!(
        "{ROWS} rows written in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let mut expected: Vec<Vec<u8>> = rows.into_iter().map(|(k, _)| k).collect();
    expected.sort();
    expected.dedup();

    // The first read warms the servers (their block caches, the JIT); the second is the time
    // the faulty reads are held against.
    read_all(&hbase, table, &expected, "uncut, warming up", || ());
    let (uncut, retries) = read_all(&hbase, table, &expected, "uncut", || ());
    assert_eq!(retries, 0);

    // (a) 20 connections cut, each after 20 to 200 KB from the server, in the server's default
    // mode, through the framed compact server, and over HTTPS (TLS connections kept alive from
    // request to request): every row once, in order, each cut a request sent again.
    use rowkey_hbase::{Endpoint, Protocol, Transport};
    type Through = fn(String, &Server) -> Endpoint;
    let modes: [(&str, &str, u64, Through); 3] = [
        ("20 connection cuts", &server.thrift, 41, |addr, _| {
            Endpoint::tcp(addr)
        }),
        (
            "20 connection cuts, framed compact",
            &server.framed_compact,
            43,
            |addr, _| {
                Endpoint::tcp(addr)
                    .with_transport(Transport::Framed)
                    .with_protocol(Protocol::Compact)
            },
        ),
        (
            "20 connection cuts, HTTPS",
            &server.https,
            47,
            |addr, server| Endpoint::https(addr).with_ca_file(&server.ca),
        ),
    ];
    let mut cut_times = Vec::new();
    for (what, upstream, seed, through) in modes {
        let cutting = proxy(
            upstream,
            Faults {
                seed,
                cut_after: Some((20_000, 200_000)),
                max_cuts: 20,
            },
        );
        let hbase_through = HBase::open(through(cutting.addr.to_string(), &server)).unwrap();
        let (took, retries) = read_all(&hbase_through, table, &expected, what, || ());
        assert_eq!(
            cutting.cuts(),
            20,
            "{what}: the proxy cut fewer connections than asked"
        );
        assert!(retries >= 20, "{what}: {retries} retries for 20 cuts");
        cut_times.push(took);
    }
    let [cut, cut_framed, cut_https] = cut_times[..] else {
        unreachable!("three modes")
    };

    // (b) The region of bucket 5 split at its middle while the read is under way.
    let regions = hbase.region_starts(table).unwrap().len() + 1;
    let middle = format!("05{:016x}", T0 + SPAN / 2);
    let (split, _) = read_all(&hbase, table, &expected, "a region split mid-read", || {
        server.control("POST", &format!("/split?table={table}&row={middle}"));
    });
    assert_eq!(hbase.region_starts(table).unwrap().len() + 1, regions + 1);

    // (d) A reader that pauses for 7 s mid-read: the Thrift2 server drops scanners idle for 5 s
    // (60 s by default), so every range's next page finds its scanner gone and opens another.
    let (paused, retries) = read_all(&hbase, table, &expected, "a 7 s pause mid-read", || {
        std::thread::sleep(Duration::from_secs(7));
    });
    assert!(retries >= 1, "no scanner expired in the pause");

    // (e) The Thrift2 server restarted mid-read: connections and scanners gone.
    let (restarted, retries) = read_all(
        &hbase,
        table,
        &expected,
        "Thrift2 restarted mid-read",
        || {
            server.control("POST", "/restart-thrift");
        },
    );
    assert!(retries >= 1, "the restart cut nothing");

    // (c) A region server holding regions of the table stopped without warning mid-read.
    let (victim, dead) = server.region_server_holding(table);
    let (killed, _) = read_all(
        &hbase,
        table,
        &expected,
        "a region server killed mid-read",
        || {
            server.control("POST", &format!("/kill-region-server?index={victim}"));
        },
    );
    // Its regions are on the other servers now.
    let after = server.control("GET", &format!("/regions?table={table}"));
    assert!(
        !after.contains(&dead),
        "{dead} still holds regions:\n{after}"
    );

    let ratio = |d: Duration| d.as_secs_f64() / uncut.as_secs_f64();
    println!(
        "against the uncut read ({:.2} s): cuts {:.2}x, cuts in framed compact {:.2}x, cuts over \
         HTTPS {:.2}x, split {:.2}x, pause {:.2}x (7 s of it the pause), Thrift2 restart {:.2}x, killed server {:.2}x",
        uncut.as_secs_f64(),
        ratio(cut),
        ratio(cut_framed),
        ratio(cut_https),
        ratio(split),
        ratio(paused),
        ratio(restarted),
        ratio(killed)
    );
}
