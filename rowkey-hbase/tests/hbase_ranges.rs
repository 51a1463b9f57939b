//! Reads that cost what they return, on a real HBase (the mini-cluster of `.ci/servers/hbase.sh`):
//! plans of 1 to 5,000 ranges read with one scanner a region (HBase's `MultiRowRangeFilter`),
//! plain and salted, through region splits and moves during the read; `IN` lists of every layout
//! kind (salted text, descending strings, hash-prefixed, a field behind a hash prefix) through
//! splits and moves; plans wider than their query filtered in the region servers (HBase's
//! `FuzzyRowFilter`); and a region server killed during a read of many ranges. Every read is held against brute force over the keys written: the same rows, in the
//! plan's order, none lost or repeated; the rows the servers sent are counted (`Rows::received`).

mod common;

use std::collections::BTreeSet;
use std::sync::Mutex;

use common::{Rng, Server};
use rowkey::{DecodeKey, RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions, Row};

/// A shop's items: an `IN` list of shops is one range a shop.
#[derive(RowKey, Debug)]
struct Item {
    shop: u32,
    sku: u16,
}

/// The same behind 4 salt buckets: one range a shop and bucket, merged back into shop order.
#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 4))]
struct SaltedItem {
    shop: u32,
    sku: u16,
}

/// A metric's series: the hash of the host leads, so a query on the metric alone reads the whole
/// table, and the metric's bytes sit behind the hash (the plan's pattern).
#[derive(RowKey, Debug)]
struct Series {
    metric: u16,
    #[rowkey(hash_prefix(len = 1))]
    host: u32,
    ts: u32,
}

const SHOPS: u32 = 12_000;

/// The tests of this file one at a time: one of them kills a region server.
static CLUSTER: Mutex<()> = Mutex::new(());

/// Messages by day, behind 4 salt buckets, as text.
#[derive(RowKey, Debug)]
#[rowkey(text, delimiter = ":", salt(buckets = 4))]
struct Message {
    #[rowkey(width = 6)]
    day: u32,
    #[rowkey(width = 6)]
    time: u32,
}

/// A host's readings, newest first.
#[derive(RowKey, Debug)]
struct Host {
    #[rowkey(desc)]
    host: String,
    #[rowkey(desc)]
    ts: u64,
}

/// A device's events behind a hash of the device: an `IN` list of devices lands anywhere.
#[derive(RowKey, Debug)]
struct Device {
    #[rowkey(hash_prefix(len = 2))]
    device: u32,
    seq: u32,
}

fn hex(key: &[u8]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new table `name` (made unique to this process) pre-split at `splits`, with a row of each
/// key; the table's name and the keys, sorted.
fn table(
    hbase: &mut HBase,
    name: &str,
    splits: &[Vec<u8>],
    keys: Vec<Vec<u8>>,
) -> (String, Vec<Vec<u8>>) {
    let table = format!("{name}_{}", std::process::id());
    hbase.create_table(&table, "d", splits).unwrap();
    let rows: Vec<(Vec<u8>, Vec<u8>)> = keys.iter().map(|k| (k.clone(), b"v".to_vec())).collect();
    for batch in rows.chunks(5_000) {
        hbase.put_rows(&table, "d", batch).unwrap();
    }
    let mut keys = keys;
    keys.sort();
    keys.dedup();
    (table, keys)
}

/// Every row of `plan`, `midway` run once after half of `expected` came; checks the rows are
/// exactly `expected` (in the plan's order: key order, or by the key after `salt` bytes), none
/// repeated, and returns the rows the servers sent.
fn read_exactly<K: ?Sized + 'static>(
    hbase: &HBase,
    table: &str,
    plan: &Scan<K>,
    options: &ReadOptions,
    mut expected: Vec<Vec<u8>>,
    what: &str,
    midway: impl FnOnce(),
) -> u64 {
    let salt = plan.salt_len();
    expected.sort_by(|x, y| x[salt..].cmp(&y[salt..]).then(x.cmp(y)));
    let mut rows = hbase.read_rows_with(table, plan, options).unwrap();
    let mut keys: Vec<Vec<u8>> = Vec::with_capacity(expected.len());
    let mut midway = Some(midway);
    if expected.len() < 2 {
        midway.take().unwrap()();
    }
    for row in rows.by_ref() {
        let row: Row = row.unwrap_or_else(|e| panic!("{what}: {e} after {} rows", keys.len()));
        keys.push(row.key);
        if keys.len() == expected.len() / 2 {
            if let Some(f) = midway.take() {
                f();
            }
        }
    }
    let distinct: BTreeSet<&Vec<u8>> = keys.iter().collect();
    assert_eq!(distinct.len(), keys.len(), "{what}: rows repeated");
    let lost = expected.iter().filter(|k| !distinct.contains(k)).count();
    assert_eq!(lost, 0, "{what}: {lost} rows lost of {}", expected.len());
    assert_eq!(
        keys.len(),
        expected.len(),
        "{what}: rows the plan does not ask for"
    );
    assert!(keys == expected, "{what}: rows out of the plan's order");
    rows.received()
}

/// `n` distinct even shops (some without items) in random order: `n` ranges, none adjacent.
fn distinct_even_shops(rng: &mut Rng, n: usize) -> Vec<u32> {
    let mut evens: Vec<u32> = (0..(SHOPS + 1_000) / 2).map(|i| 2 * i).collect();
    for i in 0..n {
        let j = i + rng.index(evens.len() - i);
        evens.swap(i, j);
    }
    evens.truncate(n);
    evens
}

#[test]
fn plans_of_1_to_5000_ranges_read_exactly_their_rows_through_splits_moves_and_a_dead_server() {
    let _one_at_a_time = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    server.control("POST", "/balancer?on=false");
    let mut rng = Rng(50);

    // Shops 0..12000 save every seventh, 2 or 3 items each; 6 regions.
    let mut items = Vec::new();
    for shop in (0..SHOPS).filter(|s| s % 7 != 0) {
        for sku in 0..2 + (shop % 2) as u16 {
            items.push(Item { shop, sku });
        }
    }
    let splits: Vec<Vec<u8>> = (1..6u32)
        .map(|i| (i * 2_000).to_be_bytes().to_vec())
        .collect();
    let keys = items.iter().map(|i| row_key(i).unwrap()).collect();
    let (plain, plain_keys) = table(&mut hbase, "ranges_items", &splits, keys);
    let salted_keys = items
        .iter()
        .map(|i| {
            row_key(&SaltedItem {
                shop: i.shop,
                sku: i.sku,
            })
            .unwrap()
        })
        .collect();
    let (salted, salted_keys) = table(
        &mut hbase,
        "ranges_salted",
        &SaltedItem::split_keys(8),
        salted_keys,
    );

    let options = ReadOptions::default().with_page(100);
    for (round, n) in [1usize, 2, 3, 10, 100, 1_000, 5_000]
        .into_iter()
        .enumerate()
    {
        let shops = distinct_even_shops(&mut rng, n);
        let wanted: BTreeSet<u32> = shops.iter().copied().collect();
        // Something happens to the table at half the rows: a split, a move, or nothing.
        let event = ["split", "move", "nothing"][round % 3];
        let at = Item {
            shop: rng.below(u64::from(SHOPS)) as u32,
            sku: 1,
        };
        let at = hex(&row_key(&at).unwrap());
        let control = |table: &str| match event {
            "split" => {
                server.control("POST", &format!("/split?table={table}&row={at}"));
            }
            "move" => {
                server.control("POST", &format!("/move?table={table}&row={at}"));
            }
            _ => {}
        };

        let plan: Scan<Item> = Item::scan().shop_in(shops.clone()).into();
        // Even shops are never next to each other: one range a shop.
        assert_eq!(plan.ranges().count(), n, "one range a shop");
        let expected: Vec<Vec<u8>> = plain_keys
            .iter()
            .filter(|k| wanted.contains(&Item::decode(k).unwrap().shop))
            .cloned()
            .collect();
        let what = format!("{n} shops, {event} mid-read");
        let received = read_exactly(
            &hbase,
            &plain,
            &plan,
            &options,
            expected.clone(),
            &what,
            || control(&plain),
        );
        assert_eq!(
            received,
            expected.len() as u64,
            "{what}: an exact plan's rows alone"
        );
        if n == 1_000 {
            // Keys alone with the MultiRowRangeFilter: the three filters in one list.
            let keys_only = options.clone().with_keys_only();
            let what = format!("{n} shops, keys only");
            let received = read_exactly(
                &hbase,
                &plain,
                &plan,
                &keys_only,
                expected.clone(),
                &what,
                || (),
            );
            assert_eq!(received, expected.len() as u64, "{what}");
            println!("{what}: every row once, in order");
        }

        let plan: Scan<SaltedItem> = SaltedItem::scan().shop_in(shops).into();
        let expected: Vec<Vec<u8>> = salted_keys
            .iter()
            .filter(|k| wanted.contains(&SaltedItem::decode(k).unwrap().shop))
            .cloned()
            .collect();
        let salted_at = hex(&row_key(&SaltedItem {
            shop: rng.below(u64::from(SHOPS)) as u32,
            sku: 1,
        })
        .unwrap());
        let what = format!("{n} shops salted, {event} mid-read");
        read_exactly(
            &hbase,
            &salted,
            &plan,
            &options,
            expected,
            &what,
            || match event {
                "split" => {
                    server.control("POST", &format!("/split?table={salted}&row={salted_at}"));
                }
                "move" => {
                    server.control("POST", &format!("/move?table={salted}&row={salted_at}"));
                }
                _ => {}
            },
        );
        println!("{n} ranges: {event} mid-read, every row once, in order");
    }

    // A region server that holds regions of the table killed during a read of 2,000 ranges in
    // pages of 20: the read resumes after the last row it gave. A new server takes its place.
    let shops = distinct_even_shops(&mut rng, 2_000);
    let wanted: BTreeSet<u32> = shops.iter().copied().collect();
    let plan: Scan<Item> = Item::scan().shop_in(shops).into();
    let expected: Vec<Vec<u8>> = plain_keys
        .iter()
        .filter(|k| wanted.contains(&Item::decode(k).unwrap().shop))
        .cloned()
        .collect();
    let (victim, _) = server.region_server_holding(&plain);
    let patient = ReadOptions::default().with_page(20).with_retry(
        rowkey::retry::RetryPolicy::default()
            .with_attempts(20)
            .with_deadline(std::time::Duration::from_secs(30)),
    );
    let what = "2,000 shops, a region server killed mid-read";
    read_exactly(&hbase, &plain, &plan, &patient, expected, what, || {
        server.control("POST", &format!("/kill-region-server?index={victim}"));
    });
    server.control("POST", "/start-region-server");
    println!("{what}: every row once, in order");
}

#[test]
fn a_plan_wider_than_its_query_is_filtered_in_the_region_servers() {
    let _one_at_a_time = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    // 20 metrics, 400 hosts, 3 times: 24,000 rows; 4 regions by the hash byte.
    let mut keys = Vec::new();
    for metric in 0..20u16 {
        for host in 0..400u32 {
            for ts in 0..3u32 {
                keys.push(row_key(&Series { metric, host, ts }).unwrap());
            }
        }
    }
    let (table, keys) = table(&mut hbase, "ranges_series", &Series::split_keys(4), keys);
    let decoded = |k: &Vec<u8>| Series::decode(k).unwrap();

    type Query = (&'static str, Scan<Series>, Box<dyn Fn(&Series) -> bool>);
    let queries: Vec<Query> = vec![
        (
            "metric 7",
            Series::scan().metric(7).into(),
            Box::new(|s| s.metric == 7),
        ),
        (
            "metrics 3, 9 and 25",
            Series::scan().metric_in([3, 9, 25]).into(),
            Box::new(|s| [3, 9, 25].contains(&s.metric)),
        ),
        (
            "metric 11, hosts 100 to 149",
            Series::scan().metric(11).host_range(100..150).into(),
            Box::new(|s| s.metric == 11 && (100..150).contains(&s.host)),
        ),
    ];
    for keys_only in [false, true] {
        for (what, plan, wanted) in &queries {
            let pattern = plan.pattern().expect("the metric's bytes behind the hash");
            assert!(!plan.is_exact());
            let expected: Vec<Vec<u8>> = keys
                .iter()
                .filter(|k| wanted(&decoded(k)))
                .cloned()
                .collect();
            // What the filter cannot skip: the rows that hold the pattern's bytes.
            let holding = keys.iter().filter(|k| pattern.matches(k)).count() as u64;
            let mut options = ReadOptions::default().with_page(250);
            if keys_only {
                options = options.with_keys_only();
            }
            let what = format!("{what}, keys only: {keys_only}");
            let received = read_exactly(
                &hbase,
                &table,
                plan,
                &options,
                expected.clone(),
                &what,
                || (),
            );
            assert_eq!(received, holding, "{what}: rows the region servers sent");
            if pattern.is_exact() {
                // The server's filter alone gave exactly the matching rows.
                assert_eq!(
                    received,
                    expected.len() as u64,
                    "{what}: the filter is exact"
                );
            } else {
                assert!(
                    received > expected.len() as u64,
                    "{what}: a range the filter cannot say"
                );
            }
            println!(
                "{what}: {} rows of {}, {received} sent by the region servers",
                expected.len(),
                keys.len()
            );
        }
    }
}

/// A query: its name, its plan, and the same question asked of decoded keys.
type Query<K> = (String, Scan<K>, Box<dyn Fn(&K) -> bool>);

/// Writes `keys` into a new table pre-split at `splits`, then reads each query with a split, a
/// move, or both, at half its rows, in turn, and checks the rows against brute force.
fn through_splits_and_moves<K>(
    hbase: &mut HBase,
    server: &Server,
    name: &str,
    splits: &[Vec<u8>],
    keys: Vec<Vec<u8>>,
    queries: Vec<Query<K>>,
    rng: &mut Rng,
) where
    K: RowKey + for<'k> DecodeKey<'k> + 'static,
{
    let (table, keys) = table(hbase, name, splits, keys);
    let options = ReadOptions::default().with_page(50);
    let first = rng.index(3);
    for (i, (what, plan, wanted)) in queries.into_iter().enumerate() {
        let expected: Vec<Vec<u8>> = keys
            .iter()
            .filter(|k| wanted(&K::decode(k).unwrap()))
            .cloned()
            .collect();
        assert!(
            !expected.is_empty(),
            "{name} {what}: asks for no row written"
        );
        // Between two keys: never a region's start already.
        let at = format!("{}00", hex(&keys[rng.index(keys.len())]));
        let event = ["a split", "a move", "a split and a move"][(i + first) % 3];
        let what = format!(
            "{name} {what} ({} ranges), {event} mid-read",
            plan.ranges().count()
        );
        read_exactly(hbase, &table, &plan, &options, expected, &what, || {
            if event.contains("split") {
                server.control("POST", &format!("/split?table={table}&row={at}"));
            }
            if event.contains("move") {
                server.control("POST", &format!("/move?table={table}&row={at}"));
            }
        });
        println!("{what}: every row once, in order");
    }
}

#[test]
fn every_layout_kind_reads_its_in_lists_exactly_through_splits_and_moves() {
    let _one_at_a_time = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    let mut rng = Rng(51);

    let messages: Vec<Vec<u8>> = (0..4_000)
        .map(|i| {
            row_key(&Message {
                day: 230_600 + i % 30,
                time: rng.below(240_000) as u32,
            })
            .unwrap()
        })
        .collect();
    let days = |n: u32| -> Vec<u32> { (0..n).map(|i| 230_600 + 2 * i).collect() };
    let queries: Vec<Query<Message>> = [1, 5, 15]
        .into_iter()
        .map(|n| {
            let wanted = days(n);
            let plan = Message::scan().day_in(wanted.clone()).into();
            (
                format!("{n} days"),
                plan,
                Box::new(move |m: &Message| wanted.contains(&m.day))
                    as Box<dyn Fn(&Message) -> bool>,
            )
        })
        .collect();
    through_splits_and_moves(
        &mut hbase,
        &server,
        "ranges_text",
        &Message::split_keys(4),
        messages,
        queries,
        &mut rng,
    );

    let hosts: Vec<String> = (0..300).map(|i| format!("web-{i}")).collect();
    let host_keys: Vec<Vec<u8>> = (0..6_000)
        .map(|i| {
            row_key(&Host {
                host: hosts[i % 300].clone(),
                ts: rng.below(1 << 40),
            })
            .unwrap()
        })
        .collect();
    let splits: Vec<Vec<u8>> = ["web-5", "web-2", "web-1"]
        .iter()
        .map(|h| {
            row_key(&Host {
                host: (*h).to_string(),
                ts: 0,
            })
            .unwrap()
        })
        .collect();
    let mut splits = splits;
    splits.sort();
    let queries: Vec<Query<Host>> = [2usize, 40, 250]
        .into_iter()
        .map(|n| {
            let wanted: Vec<String> = (0..n).map(|i| hosts[(i * 7) % 300].clone()).collect();
            let plan = Host::scan()
                .host_in(wanted.iter().map(String::as_str))
                .into();
            (
                format!("{n} hosts"),
                plan,
                Box::new(move |h: &Host| wanted.contains(&h.host)) as Box<dyn Fn(&Host) -> bool>,
            )
        })
        .collect();
    through_splits_and_moves(
        &mut hbase,
        &server,
        "ranges_desc",
        &splits,
        host_keys,
        queries,
        &mut rng,
    );

    let device_keys: Vec<Vec<u8>> = (0..6_000)
        .map(|i| {
            row_key(&Device {
                device: i % 1_500,
                seq: i / 1_500,
            })
            .unwrap()
        })
        .collect();
    let queries: Vec<Query<Device>> = [3u32, 100, 1_000]
        .into_iter()
        .map(|n| {
            let wanted: Vec<u32> = (0..n).map(|i| i * 3 % 1_600).collect();
            let plan = Device::scan().device_in(wanted.clone()).into();
            (
                format!("{n} devices"),
                plan,
                Box::new(move |d: &Device| wanted.contains(&d.device))
                    as Box<dyn Fn(&Device) -> bool>,
            )
        })
        .collect();
    through_splits_and_moves(
        &mut hbase,
        &server,
        "ranges_hashed",
        &Device::split_keys(6),
        device_keys,
        queries,
        &mut rng,
    );

    let series: Vec<Vec<u8>> = (0..6_000u32)
        .map(|i| {
            row_key(&Series {
                metric: (i % 30) as u16,
                host: i / 30,
                ts: 0,
            })
            .unwrap()
        })
        .collect();
    let queries: Vec<Query<Series>> = [vec![4u16], vec![1, 9, 28], (0..12).collect()]
        .into_iter()
        .map(|wanted| {
            let plan: Scan<Series> = Series::scan().metric_in(wanted.clone()).into();
            assert!(plan.pattern().is_some_and(|p| p.is_exact()));
            (
                format!("metrics {wanted:?} (FuzzyRowFilter)"),
                plan,
                Box::new(move |s: &Series| wanted.contains(&s.metric))
                    as Box<dyn Fn(&Series) -> bool>,
            )
        })
        .collect();
    through_splits_and_moves(
        &mut hbase,
        &server,
        "ranges_fuzzy",
        &Series::split_keys(4),
        series,
        queries,
        &mut rng,
    );
}
