//! rowkey on a real HBase: the mini-cluster of `.ci/servers/hbase.sh` (3 region servers, HBase's
//! Thrift2 server), started here unless `ROWKEY_HBASE_THRIFT` names one already running. A table
//! pre-split at a layout's split points has exactly those region boundaries; rows written through
//! the adapter and read back by plans are exactly the rows each query asks for, checked by brute
//! force over the keys written, in the order the plan promises. Without a JDK, Maven or Maven
//! Central the start fails and says why; the test never skips.

mod common;

use common::{Rng, Server};
use rowkey::{DecodeKey, Hashed, RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions, Row};

/// Every row of `plan` in `table`, read in pages of `page` rows, `concurrency` ranges at once.
fn read<K: ?Sized + 'static>(
    hbase: &HBase,
    table: &str,
    plan: &Scan<K>,
    page: usize,
    concurrency: usize,
) -> Vec<Row> {
    let options = ReadOptions::default()
        .with_page(page)
        .with_concurrency(concurrency);
    hbase
        .read_rows_with(table, plan, &options)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The time-first event key behind 8 salt buckets.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 8))]
struct Event {
    ts_millis: u64,
    event_id: u32,
}

/// A host's readings, newest first (`Long.MAX_VALUE - ts`).
#[derive(RowKey, Debug, PartialEq)]
struct Reading {
    host: String,
    #[rowkey(desc)]
    ts: i64,
}

/// The HBase book's metric key, `[md5(host)][md5(type)][ts]`.
#[derive(RowKey, Debug, PartialEq)]
struct Metric {
    #[rowkey(hash_prefix(len = 4))]
    host: String,
    #[rowkey(hash_prefix(len = 4))]
    kind: String,
    ts: u64,
}

/// The salted text message key `<salt>:<yyMMdd>:<HHmmss>:<id>`.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":", salt(buckets = 4))]
struct Message {
    #[rowkey(width = 6)]
    day: u32,
    #[rowkey(width = 6)]
    time: u32,
    #[rowkey(width = 7)]
    id: u32,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum EventType {
    View = 1,
    Click = 2,
}

/// `uid + event_type + biz_type`, with a digest of the page last.
#[derive(RowKey, Debug, PartialEq)]
struct Activity {
    uid: u64,
    event_type: EventType,
    biz_type: u16,
    page: Hashed<4>,
}

/// Two key types in one table, each behind its tag.
#[derive(RowKey, Debug, PartialEq)]
enum Entity {
    #[rowkey(tag = b"o")]
    Order { user: u32, id: u64 },
    #[rowkey(tag = b"u")]
    User {
        #[rowkey(desc)]
        name: String,
    },
}

/// A query: its name, its plan, and the same question asked of decoded keys.
type Query<K> = (String, Scan<K>, Box<dyn Fn(&K) -> bool>);

/// Writes `keys` into a new table pre-split at `splits`, then reads each query's plan and checks
/// its rows against brute force over the keys written: the same rows, in the plan's order (key
/// order; a salted plan's by the key after the salt).
fn check<K>(hbase: &mut HBase, table: &str, splits: &[Vec<u8>], keys: &[K], queries: Vec<Query<K>>)
where
    K: RowKey + for<'k> DecodeKey<'k> + std::fmt::Debug + 'static,
{
    let table = format!("{table}_{}", std::process::id());
    hbase.create_table(&table, "d", splits).unwrap();
    let mut rows: Vec<(Vec<u8>, Vec<u8>)> = keys
        .iter()
        .map(|k| (row_key(k).unwrap(), Vec::new()))
        .collect();
    for batch in rows.chunks(500) {
        hbase.put_rows(&table, "d", batch).unwrap();
    }
    rows.sort();
    rows.dedup();
    for (name, plan, wanted) in queries {
        let salt = plan.salt_len();
        let mut expected: Vec<&[u8]> = rows
            .iter()
            .map(|(key, _)| key.as_slice())
            .filter(|key| wanted(&K::decode(key).unwrap()))
            .collect();
        expected.sort_by(|x, y| x[salt..].cmp(&y[salt..]).then(x.cmp(y)));
        let read = read(hbase, &table, &plan, 64, 16);
        let keys: Vec<&[u8]> = read.iter().map(|r| r.key.as_slice()).collect();
        assert!(
            !expected.is_empty(),
            "{table}: `{name}` asks for no row written"
        );
        assert_eq!(keys.len(), expected.len(), "{table}: `{name}`");
        assert!(keys == expected, "{table}: `{name}`: rows or order differ");
    }
}

const T0: u64 = 1_700_000_000_000;

#[test]
fn plans_read_exactly_their_rows_from_a_real_hbase() {
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).expect("connect to Thrift2");
    let table = format!("events_{}", std::process::id());

    // Pre-split at the layout's bucket boundaries: exactly those region boundaries come back.
    let splits = Event::split_keys(8);
    hbase.create_table(&table, "d", &splits).unwrap();
    assert_eq!(hbase.region_starts(&table).unwrap(), splits);

    // 3,000 events over ten minutes, written in batches of 500.
    let mut rng = Rng(7);
    let events: Vec<Event> = (0..3_000)
        .map(|_| Event {
            ts_millis: T0 + rng.below(600_000),
            event_id: rng.next() as u32,
        })
        .collect();
    let rows: Vec<(Vec<u8>, Vec<u8>)> = events
        .iter()
        .map(|e| (row_key(e).unwrap(), e.event_id.to_be_bytes().to_vec()))
        .collect();
    for batch in rows.chunks(500) {
        hbase.put_rows(&table, "d", batch).unwrap();
    }

    // The whole table, then 30 time ranges: the rows whose time lies in the range, by brute
    // force over the events written, in the order of the key after the salt.
    let mut queries = vec![(0, u64::MAX)];
    for _ in 0..30 {
        let a = T0 + rng.below(600_000);
        let b = a + rng.below(120_000);
        queries.push((a, b));
    }
    for (i, &(a, b)) in queries.iter().enumerate() {
        let plan: Scan<Event> = Event::scan().ts_millis_range(a..b).into();
        let page = [1, 7, 100, 1_000][i % 4];
        let read = read(&hbase, &table, &plan, page, [16, 1, 3][i % 3]);
        let mut expected: Vec<Vec<u8>> = rows
            .iter()
            .map(|(key, _)| key.clone())
            .filter(|key| {
                let e = Event::decode(key).unwrap();
                (a..b).contains(&e.ts_millis)
            })
            .collect();
        expected.sort_by(|x, y| x[1..].cmp(&y[1..]).then(x[0].cmp(&y[0])));
        expected.dedup();
        let keys: Vec<Vec<u8>> = read.iter().map(|r| r.key.clone()).collect();
        assert_eq!(keys.len(), expected.len(), "{a}..{b}, page {page}");
        assert!(
            keys == expected,
            "{a}..{b}, page {page}: rows or order differ"
        );
        // Each row carries the value written with it.
        for r in &read {
            let e = Event::decode(&r.key).unwrap();
            assert_eq!(r.cells[0].value, e.event_id.to_be_bytes());
        }
    }

    // A plan split at the table's region boundaries for parallel readers, after HBase split one
    // bucket's region in two: each part on a thread of its own, within one region; together
    // exactly the plan's rows, none twice.
    server.control("POST", &format!("/split?table={table}&row=0380"));
    let starts = hbase.region_starts(&table).unwrap();
    assert_eq!(starts.len(), 8, "{starts:?}");
    let plan: Scan<Event> = Event::scan()
        .ts_millis_range(T0 + 100_000..T0 + 500_000)
        .into();
    let parts = plan.split(&starts);
    assert!(parts.len() >= 8, "{} parts", parts.len());
    let mut keys: Vec<Vec<u8>> = std::thread::scope(|s| {
        let readers: Vec<_> = parts
            .iter()
            .map(|part| s.spawn(|| read(&hbase, &table, part, 100, 1)))
            .collect();
        readers
            .into_iter()
            .flat_map(|r| {
                let rows = r.join().unwrap();
                let keys: Vec<Vec<u8>> = rows.into_iter().map(|r| r.key).collect();
                let region = |k: &Vec<u8>| starts.partition_point(|s| s <= k);
                assert!(keys.iter().all(|k| region(k) == region(&keys[0])));
                keys
            })
            .collect()
    });
    let whole = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), whole, "a row read twice");
    let mut expected: Vec<Vec<u8>> = rows
        .iter()
        .map(|(key, _)| key.clone())
        .filter(|key| (T0 + 100_000..T0 + 500_000).contains(&Event::decode(key).unwrap().ts_millis))
        .collect();
    expected.sort();
    expected.dedup();
    assert_eq!(keys, expected);

    // Newest first: `Long.MAX_VALUE - ts` after the host, one host's rows in descending time.
    let table = format!("readings_{}", std::process::id());
    hbase.create_table::<Vec<u8>>(&table, "d", &[]).unwrap();
    let readings: Vec<Reading> = (0..600)
        .map(|i| Reading {
            host: format!("web-{}", i % 3),
            ts: (T0 + rng.below(1_000_000)) as i64,
        })
        .collect();
    let rows: Vec<(Vec<u8>, Vec<u8>)> = readings
        .iter()
        .map(|r| (row_key(r).unwrap(), Vec::new()))
        .collect();
    hbase.put_rows(&table, "d", &rows).unwrap();
    let plan: Scan<Reading> = Reading::scan().host("web-1").into();
    let read: Vec<Reading> = read(&hbase, &table, &plan, 50, 16)
        .iter()
        .map(|r| Reading::decode(&r.key).unwrap())
        .collect();
    let mut expected: Vec<i64> = readings
        .iter()
        .filter(|r| r.host == "web-1")
        .map(|r| r.ts)
        .collect();
    expected.sort_unstable_by(|a, b| b.cmp(a));
    expected.dedup();
    assert!(read.iter().all(|r| r.host == "web-1"));
    assert_eq!(read.iter().map(|r| r.ts).collect::<Vec<_>>(), expected);

    // The other layout kinds, brute force over what was written.
    let hosts = ["web-1", "web-2", "db-1"];
    let kinds = ["cpu", "mem"];
    let metrics: Vec<Metric> = (0..900)
        .map(|_| Metric {
            host: hosts[rng.below(3) as usize].into(),
            kind: kinds[rng.below(2) as usize].into(),
            ts: T0 + rng.below(100_000),
        })
        .collect();
    let (a, b) = (T0 + 20_000, T0 + 60_000);
    check(
        &mut hbase,
        "metrics",
        &Metric::split_keys(4),
        &metrics,
        vec![
            (
                "host and kind, a time range".into(),
                Metric::scan()
                    .host("web-2")
                    .kind("cpu")
                    .ts_range(a..b)
                    .into(),
                Box::new(move |m: &Metric| {
                    m.host == "web-2" && m.kind == "cpu" && (a..b).contains(&m.ts)
                }),
            ),
            (
                "host alone (the hash needs both: the whole table, filtered)".into(),
                Metric::scan().host("db-1").into(),
                Box::new(|m: &Metric| m.host == "db-1"),
            ),
        ],
    );

    let messages: Vec<Message> = (0..900)
        .map(|_| Message {
            day: 230_601 + rng.below(20) as u32,
            time: rng.below(240_000) as u32,
            id: rng.below(10_000_000) as u32,
        })
        .collect();
    check(
        &mut hbase,
        "messages",
        &Message::split_keys(4),
        &messages,
        vec![
            (
                "one day, back in time order over every bucket".into(),
                Message::scan().day(230_611).into(),
                Box::new(|m: &Message| m.day == 230_611),
            ),
            (
                "a day, a range of times".into(),
                Message::scan()
                    .day(230_605)
                    .time_range(63_000..120_000)
                    .into(),
                Box::new(|m: &Message| m.day == 230_605 && (63_000..120_000).contains(&m.time)),
            ),
        ],
    );

    let activities: Vec<Activity> = (0..900)
        .map(|i| Activity {
            uid: [10_457, 10_458, 7][rng.below(3) as usize],
            event_type: [EventType::View, EventType::Click][rng.below(2) as usize],
            biz_type: rng.below(5) as u16,
            page: Hashed::of(format!("/page/{i}").as_str()),
        })
        .collect();
    check(
        &mut hbase,
        "activity",
        &[],
        &activities,
        vec![
            (
                "uid = 10457 AND event_type = click".into(),
                Activity::scan()
                    .uid(10_457)
                    .event_type(EventType::Click)
                    .into(),
                Box::new(|a: &Activity| a.uid == 10_457 && a.event_type == EventType::Click),
            ),
            (
                "uid = 10457".into(),
                Activity::scan().uid(10_457).into(),
                Box::new(|a: &Activity| a.uid == 10_457),
            ),
        ],
    );

    let names = ["alice", "al", "bob", "", "zed", "a\0b"];
    let entities: Vec<Entity> = (0..600)
        .map(|i| {
            if i % 2 == 0 {
                Entity::Order {
                    user: rng.below(5) as u32,
                    id: rng.next(),
                }
            } else {
                Entity::User {
                    name: format!("{}{}", names[rng.below(6) as usize], rng.below(50)),
                }
            }
        })
        .collect();
    check(
        &mut hbase,
        "entities",
        &[b"u".to_vec()],
        &entities,
        vec![
            (
                "the orders of user 3".into(),
                Entity::scan().order().user(3).into(),
                Box::new(|e: &Entity| matches!(e, Entity::Order { user: 3, .. })),
            ),
            (
                "users named from \"al\" to \"bob\" (desc)".into(),
                Entity::scan().user().name_range("al".."bob").into(),
                Box::new(
                    |e: &Entity| matches!(e, Entity::User { name } if ("al".."bob").contains(&name.as_str())),
                ),
            ),
        ],
    );
    drop(server);
}

/// The control endpoint answers 404 for the regions, counters and store sizes of a table that
/// does not exist (it answered 200 with nothing, which reads as a table without regions).
#[test]
fn the_control_endpoint_says_a_table_does_not_exist() {
    let server = Server::get();
    for path in ["/regions", "/metrics", "/store-sizes"] {
        let (status, answer) =
            server.call_status("GET", &format!("{path}?table=no_such_table"), "");
        assert_eq!(status, 404, "{path}: {answer}");
        assert!(
            answer.contains("no table") && answer.contains("no_such_table"),
            "{path}: {answer}"
        );
    }
}
