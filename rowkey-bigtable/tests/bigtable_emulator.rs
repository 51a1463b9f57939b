//! `rowkey-bigtable` against the Cloud Bigtable emulator (Google's `bttest`, built from Debian's
//! `golang-google-cloud-dev` by `.ci/servers/install.sh`) on loopback, started by
//! `.ci/servers/start.sh`. Nothing is mocked and nothing is skipped: without the emulator the tests
//! fail and say how to get it.
//!
//! For each layout (salted, hash-prefixed, desc strings, salted text) a pre-split table is created
//! (`initial_splits` of the layout's split keys), the rows are written with keys checked by
//! `row_key`, then random scans are read with `read_rows` (every range in flight, salted buckets
//! merged) and compared with a brute-force filter over the loaded values: no row missing, none
//! twice, none extra, salted rows in the order of the key after the salt, others in key order. Each
//! plan is also read as one `row_set` request, resumed with `after`, and split at the table's
//! `SampleRowKeys` samples. A key over 4 KiB is refused before any request.
//!
//! 2,000 rows and 40 scans per layout; 100,000 rows and 1,000 scans with `ROWKEY_SOAK=1`.

use bigtable_rs::bigtable::BigTable;
use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
use futures::{StreamExt, TryStreamExt};
use rowkey::{DecodeKey, EncodeErrorKind, RowKey, Scan};
use rowkey_bigtable::{initial_splits, read_rows, row_key, row_set, sample_split_keys};

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/common/layouts.rs"]
mod layouts;
#[path = "../../tests/common/servers.rs"]
mod servers;
#[path = "common/bigtable.rs"]
mod setup;
use common::{scaled, soak, Rng};
use layouts::{check, draw, rows_read, Layout, Salted, HASHED, NAMES, SALTED, TEXT};
use servers::runtime;
use setup::{all_keys, connect, create_table, emulator, write};

/// `plan` read with `read_rows`: every range at once, merged, in pages of `page` rows.
async fn read_plan<K: ?Sized + 'static>(
    client: &BigTable,
    table: &str,
    plan: &Scan<K>,
    (concurrency, page): (usize, i64),
) -> Vec<Vec<u8>> {
    let request = ReadRowsRequest {
        table_name: client.get_full_table_name(table),
        rows_limit: page,
        ..Default::default()
    };
    // More rows than a table holds: a read that repeats rows ends, and fails its check.
    let most = scaled(2_000, 100_000) + 1;
    let rows: Vec<_> = read_rows(client, &request, plan, concurrency)
        .expect("ranges within 4 KiB")
        .take(most)
        .try_collect()
        .await
        .expect("read the plan");
    rows.into_iter().map(|(key, _)| key).collect()
}

/// `plan` read through its `row_set`, keeping the rows it matches: one request, or pages of
/// 5,000 rows each resuming `after` the last key of the one before (a single read of many small
/// rows overflows the HTTP/2 client's budget of buffered messages; see `read_rows`).
async fn read_set<K: ?Sized>(client: &mut BigTable, table: &str, plan: &Scan<K>) -> Vec<Vec<u8>> {
    const PAGE: usize = 5_000;
    let mut keys = Vec::new();
    let mut rest = plan.clone();
    while let Some(rows) = row_set(&rest).expect("ranges within 4 KiB") {
        let request = ReadRowsRequest {
            table_name: client.get_full_table_name(table),
            rows: Some(rows),
            rows_limit: PAGE as i64,
            ..Default::default()
        };
        let page = client.read_rows(request).await.expect("read the row set");
        let full = page.len() == PAGE;
        keys.extend(page.into_iter().map(|(key, _)| key));
        match keys.last() {
            Some(last) if full => rest = plan.after(last),
            _ => break,
        }
    }
    keys.retain(|key| plan.matches(key));
    keys
}

fn run<K: RowKey + for<'k> DecodeKey<'k> + 'static>(layout: &Layout<K>, seed: u64) {
    let (_guard, addr) = emulator();
    let (rows, scans) = (scaled(2_000, 100_000), scaled(40, 1_000));
    let mut rng = Rng(seed);
    let (values, keys) = draw(layout, rows, &mut rng, |v| row_key(v).unwrap());
    let name = layout.name;
    let table = name.replace(' ', "-");
    runtime().block_on(async {
        create_table(&addr, &table, K::split_keys(16)).await;
        let mut client = connect(&addr);
        write(&mut client, &table, &keys).await;
        assert_eq!(
            all_keys(&mut client, &table).await,
            keys,
            "every row written"
        );
        let samples = sample_split_keys(&mut client, &table).await.unwrap();
        println!(
            "{name}: {} rows written, {} samples",
            keys.len(),
            samples.len()
        );
        let started = std::time::Instant::now();
        let mut exact = 0;
        for i in 0..scans {
            if i % 100 == 99 {
                println!("{name}: {} scans in {:.1?}", i + 1, started.elapsed());
            }
            let (plan, pred) = (layout.query)(&mut rng, i);
            let expected: Vec<&Vec<u8>> = values
                .iter()
                .filter(|(_, v)| pred(v))
                .map(|(k, _)| k)
                .collect();
            let _slow = SlowScan {
                name,
                i,
                rows: expected.len(),
                ranges: plan.ranges().count(),
                started: std::time::Instant::now(),
            };
            // 1 to 16 ranges in flight; the default pages, or pages of 1 to 100 rows for small
            // reads, but at most about 20 pages of the rows the plan's ranges hold (the emulator
            // reads from the start of the range for every page; an inexact plan reads more rows
            // than it keeps).
            let read = rows_read(&keys, &plan);
            let page = match rng.below(2) {
                0 if read <= 1_000 => {
                    let drawn = 10f64.powf(rng.below(2_000) as f64 / 1_000.0) as i64;
                    drawn.max(read as i64 / 20 + 1)
                }
                _ => 0,
            };
            let reading = (1 + rng.index(16), page);
            let got = read_plan(&client, &table, &plan, reading).await;
            check(name, i, "read_rows", &plan, &expected, &got);
            // Salted rows come merged in the order of the key after the salt; others in key order.
            let salt = plan.salt_len();
            assert!(
                got.windows(2).all(|w| w[0][salt..] < w[1][salt..]),
                "{name} scan {i}: not merged in order after the salt"
            );
            exact += usize::from(plan.is_exact());

            // Every plan is read with read_rows above; the soak run reads every fourth one of
            // up to 20,000 rows the other ways too (the split of a plan over most of the table
            // is thousands of requests, each of which the emulator answers by reading the range).
            if soak() && (i % 4 != 0 || expected.len() > 20_000) {
                continue;
            }
            // The same plan as one request of its row set: key order.
            let set = read_set(&mut client, &table, &plan).await;
            check(name, i, "row_set", &plan, &expected, &set);
            assert!(
                set.windows(2).all(|w| w[0] < w[1]),
                "{name} scan {i}: order"
            );

            // Resumed after a key in the middle of what it reads (or a random key).
            let cut = match set.get(set.len() / 2) {
                Some(key) if rng.below(2) == 0 => key.clone(),
                _ => keys[rng.index(keys.len())].clone(),
            };
            let rest = read_plan(&client, &table, &plan.after(&cut), reading).await;
            let after: Vec<&Vec<u8>> = expected
                .iter()
                .copied()
                .filter(|k| k.as_slice() > cut.as_slice())
                .collect();
            check(name, i, "after", &plan, &after, &rest);

            // Split at the table's samples (at most 16 of them, drawn at random: every part is
            // requests of its own): the parts read everything once, each in its region.
            let mut cuts: Vec<Vec<u8>> = match samples.len() {
                0..=16 => samples.clone(),
                n => (0..16).map(|_| samples[rng.index(n)].clone()).collect(),
            };
            cuts.sort();
            cuts.dedup();
            let parts = plan.split(&cuts);
            assert_eq!(parts.len(), cuts.len() + 1, "{name}: a plan per region");
            let mut union = Vec::new();
            for (r, part) in parts.iter().enumerate() {
                for key in read_plan(&client, &table, part, reading).await {
                    let lo = r.checked_sub(1).map(|p| cuts[p].as_slice());
                    assert!(
                        lo.is_none_or(|lo| key.as_slice() >= lo)
                            && cuts.get(r).is_none_or(|hi| key < *hi),
                        "{name} scan {i}: a row outside region {r}"
                    );
                    union.push(key);
                }
            }
            check(name, i, "split", &plan, &expected, &union);
        }
        println!(
            "{name}: {} rows, {scans} scans ({exact} exact) in {:.1?}",
            keys.len(),
            started.elapsed()
        );
    });
}

/// Says which scan took over two seconds, and what it read, when it is done.
struct SlowScan<'a> {
    name: &'a str,
    i: usize,
    rows: usize,
    ranges: usize,
    started: std::time::Instant,
}

impl Drop for SlowScan<'_> {
    fn drop(&mut self) {
        let took = self.started.elapsed();
        if took.as_secs() >= 2 {
            let (name, i, rows, ranges) = (self.name, self.i, self.rows, self.ranges);
            println!("{name}: scan {i} ({rows} rows in {ranges} ranges) took {took:.1?}");
        }
    }
}

#[test]
fn salted_scans_read_every_row_once_merged_in_order() {
    run(&SALTED, 31);
}

#[test]
fn hash_prefixed_scans_read_every_row_once() {
    run(&HASHED, 32);
}

#[test]
fn desc_string_scans_read_every_row_once() {
    run(&NAMES, 33);
}

#[test]
fn salted_text_scans_read_every_row_once_merged_in_order() {
    run(&TEXT, 34);
}

#[derive(RowKey, Debug, Clone)]
struct Page {
    url: String,
}

#[test]
fn a_key_over_4_kib_is_refused_before_any_request() {
    let (_guard, addr) = emulator();
    let long = Page {
        url: "u".repeat(5_000),
    };
    let err = row_key(&long).unwrap_err();
    assert_eq!(
        err.kind(),
        EncodeErrorKind::RowTooLong {
            len: 5_000,
            max: rowkey::limits::BIGTABLE
        }
    );
    assert!(initial_splits([vec![b's'; 4_097]]).is_err());
    // At the limit: a 4 KiB key, and keys either side of it.
    let edge = Page {
        url: "u".repeat(4_096),
    };
    let before = Page {
        url: "u".repeat(4_095),
    };
    let after = Page { url: "v".into() };
    runtime().block_on(async {
        create_table(&addr, "pages", Vec::new()).await;
        let mut client = connect(&addr);
        // The emulator itself stores keys of any length: only rowkey's check refuses this one.
        let unchecked = long.to_vec().unwrap();
        write(&mut client, "pages", std::slice::from_ref(&unchecked)).await;
        assert_eq!(all_keys(&mut client, "pages").await, [unchecked]);

        create_table(&addr, "pages", Vec::new()).await;
        let keys: Vec<Vec<u8>> = [&before, &edge, &after]
            .map(|p| row_key(p).unwrap())
            .to_vec();
        write(&mut client, "pages", &keys).await;

        // A plan only for a key Bigtable cannot hold is refused when it is built into requests,
        // and `read_rows` is not async: the error comes before anything is sent.
        let plan: Scan<Page> = Page::scan().url(&long.url).into();
        assert!(matches!(
            read_rows(&client, &ReadRowsRequest::default(), &plan, 4).map(|_| ()),
            Err(e) if e.kind() == EncodeErrorKind::RowTooLong { len: 5_000, max: 4_096 }
        ));
        assert!(row_set(&plan).is_err());
        let plan: Scan<Page> = Page::scan().url_prefix(&long.url).into();
        assert!(row_set(&plan).is_err());

        // The 4 KiB key is read by a point plan (whose stop, the key and 00, is one byte over),
        // and a scan resumed after it (start one byte over) reads on past it.
        let plan: Scan<Page> = Page::scan().url(&edge.url).into();
        assert_eq!(
            read_plan(&client, "pages", &plan, (4, 0)).await,
            [keys[1].clone()]
        );
        assert_eq!(
            read_set(&mut client, "pages", &plan).await,
            [keys[1].clone()]
        );
        let all: Scan<Page> = Page::scan().into();
        let rest = all.after(&keys[1]);
        assert_eq!(
            read_plan(&client, "pages", &rest, (4, 1)).await,
            [keys[2].clone()]
        );
        let prefix: Scan<Page> = Page::scan().url_prefix(&before.url).into();
        assert_eq!(
            read_plan(&client, "pages", &prefix, (4, 1)).await,
            keys[..2]
        );
    });
}

#[test]
fn a_plan_that_reads_nothing_sends_nothing() {
    // An empty RowSet would read the whole table: a plan with no keys gives no RowSet, and
    // read_rows gives no rows from a full table.
    let (_guard, addr) = emulator();
    runtime().block_on(async {
        create_table(&addr, "nothing", Vec::new()).await;
        let mut client = connect(&addr);
        let keys: Vec<Vec<u8>> = (0..50u32)
            .map(|user| row_key(&Salted { user, ts: 1 }).unwrap())
            .collect();
        write(&mut client, "nothing", &keys).await;
        let plan: Scan<Salted> = Salted::scan().user(7).into();
        let past_the_end = plan.after(&[0xFF; 20]);
        assert!(row_set(&past_the_end).unwrap().is_none());
        assert!(read_plan(&client, "nothing", &past_the_end, (4, 0))
            .await
            .is_empty());
        assert_eq!(read_plan(&client, "nothing", &plan, (4, 0)).await.len(), 1);
        let empty: Scan<Salted> = Salted::scan().user_in(Vec::<u32>::new()).into();
        assert!(row_set(&empty).unwrap().is_none());
        assert!(read_plan(&client, "nothing", &empty, (4, 0))
            .await
            .is_empty());
    });
}
